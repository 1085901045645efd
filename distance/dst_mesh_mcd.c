/* dst_mesh_mcd.c — MCD of two moving meshes by adaptive subdivision (thesis ch. IV,
 * Algorithm 4.1, eq. 4.5-4.8), the certified sampling baseline (eq. 6.3), the early stop above
 * a limit and the time of first contact within d.
 * Derivations and the guarantees: docs/math/mesh_mcd.md sec. 4-5 (motion bound eq. 11b-11c,
 * split point eq. 15b), sec. 9 (stop_above, eq. 19-20) and sec. 10 (first contact, eq. 21-23).
 *
 * Everything works in the local parameter s = (t - t0)/(t1 - t0) in [0, 1]. The nominal
 * distance f(s) is the signed distance of the meshes placed rigidly by the orthonormalised
 * polynomial rotation Q(s) and the polynomial origin x(s). The polynomial (affine) shapes
 * differ from these placements by at most dev(s) (orthonormalisation), and the true shapes
 * from the polynomial ones by at most the enclosure E (R_err, origin err); the polynomial
 * shapes' signed distance g(s) changes at most at the rate L of eq. (4.7), bounded on each
 * sub-interval by Bernstein coefficients. */
#include "dst_mesh_mcd.h"

#include <math.h>
#include <string.h>

#include "dst_capsule_internal.h"

/* narrowest sub-interval (of the unit s range): 2^-50 is far below any meaningful time step */
#define DST_MESH_MCD_MIN_WIDTH 0x1p-50

/* deepest split of the time-ordered scan of dst_mesh_first_contact (2^-60 of the interval) */
#define DST_MESH_MCD_MAX_DEPTH 60

/* most open sub-intervals of the search (an array on the stack, ~40 kB) */
#define DST_MESH_MCD_OPEN 256

/* the split point stays this fraction of the width away from either end */
#define DST_MESH_MCD_SPLIT_MIN 0.25

/* the search aims at eps minus this relative slack, so that rounding of the final lower
 * bound cannot push upper - lower over eps */
#define DST_MESH_MCD_EPS_SLACK 1e-6

/* a sub-interval whose motion bound mu is below this fraction of the target error cannot
 * gain from subdivision: what remains is the width of the static brackets (non-convex
 * overlap), so it is closed and the result reported not certified */
#define DST_MESH_MCD_MU_FLOOR 0.25

DstMeshMcdOptions dst_mesh_mcd_options_default(void)
{
    DstMeshMcdOptions o;
    o.eps = DST_DEFAULT_MCD_EPS;
    o.max_evals = DST_MESH_MCD_MAX_EVALS;
    o.prism_cull = 0;
    o.tol_rel = DST_MESH_MCD_TOL_REL;
    o.time_tol = DST_MESH_TOC_TIME_TOL;
    o.stop_above = INFINITY;
    return o;
}

/* Gram-Schmidt on the columns of R (the images of the body axes): a rotation Q and the
 * Frobenius norm of R - Q (bounds the spectral norm), widened. Returns 0 if R is too far
 * from a rotation to be one's approximation. */
int dst_frame_orthonormalise(const double R[9], double Q[9], double *dev)
{
    double c0[3] = {R[0], R[3], R[6]}, c1[3] = {R[1], R[4], R[7]};
    double n0 = sqrt(dst_dot3(c0, c0));
    if (!(n0 > 0.5) || !(n0 < 2.0)) return 0;
    for (int i = 0; i < 3; ++i) c0[i] /= n0;
    double p = dst_dot3(c0, c1);
    for (int i = 0; i < 3; ++i) c1[i] -= p * c0[i];
    double n1 = sqrt(dst_dot3(c1, c1));
    if (!(n1 > 0.5) || !(n1 < 2.0)) return 0;
    for (int i = 0; i < 3; ++i) c1[i] /= n1;
    double c2[3] = {c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2], c0[0] * c1[1] - c0[1] * c1[0]};
    double f2 = 0.0;
    for (int i = 0; i < 3; ++i) {
        Q[3 * i] = c0[i], Q[3 * i + 1] = c1[i], Q[3 * i + 2] = c2[i];
    }
    for (int e = 0; e < 9; ++e) f2 += (R[e] - Q[e]) * (R[e] - Q[e]);
    *dev = sqrt(f2) * (1.0 + DST_ROUND_REL) + 16.0 * DST_ROUND_REL;
    return 1;
}

static DstStatus nominal_rel(const DstMovingMesh *a, const DstMovingMesh *b, double s, double tol, double ref,
                             double rel, double need, DstBvhCache *cache, DstMeshDistance *out, double *dev);

DstStatus dst_mesh_nominal_distance(const DstMovingMesh *a, const DstMovingMesh *b, double s, double tol,
                                    DstBvhCache *cache, DstMeshDistance *out, double *dev)
{
    return nominal_rel(a, b, s, tol, 0.0, 0.0, INFINITY, cache, out, dev);
}

/* the nominal distance with the pruning of dst_bvh_distance_rel (tolerance growing above ref),
 * capped, for a finite need, at the level that shows f(s) - dev(s) >= need (eq. 5d) */
static DstStatus nominal_rel(const DstMovingMesh *a, const DstMovingMesh *b, double s, double tol, double ref,
                             double rel, double need, DstBvhCache *cache, DstMeshDistance *out, double *dev)
{
    double Ra[9], xa[3], Rb[9], xb[3], Qa[9], Qb[9], da, db;
    dst_moving_frame_eval(&a->frame, s, Ra, xa);
    dst_moving_frame_eval(&b->frame, s, Rb, xb);
    if (!dst_frame_orthonormalise(Ra, Qa, &da) || !dst_frame_orthonormalise(Rb, Qb, &db)) {
        memset(out, 0, sizeof *out);
        out->status = DST_FAILED;
        return out->status;
    }
    double dv = (da * a->bvh->radius + db * b->bvh->radius) * (1.0 + DST_ROUND_REL);
    if (dev != NULL) dev[0] = dv;
    /* the level the static lower bound must reach: need plus this evaluation's deviation */
    double level = need < INFINITY ? need + dv + DST_MESH_MCD_LEVEL_MARGIN : INFINITY;
    return dst_bvh_distance_level(a->bvh, Qa, xa, b->bvh, Qb, xb, tol, ref, rel, level, cache, out);
}

/* One evaluation: the nominal value and a lower bound of the polynomial shapes' g(s). */
typedef struct MeshEval {
    double s;
    double hi;  /* nominal signed distance (a real value at s; for a non-convex overlap the
                 * upper end of its static bracket, 0 or minus the surface separation) */
    double lo;  /* lower bound of g(s): static lower bracket minus dev(s) */
    double dev; /* dev(s) of eq. (13), metres */
    int wide;   /* the static bracket alone (non-convex overlap) is wider than the target */
    int overlap; /* the nominal solids overlap (DstMeshDistance.overlap) */
    int ca, cb;  /* the closest triangle pair found (BVH cache, leaf order) */
} MeshEval;

/* Per-call state. */
typedef struct MeshCtx {
    const DstMovingMesh *a, *b;
    DstBvhCache *cache;
    DstMeshMcdResult *out;
    double best_hi;        /* UB of eq. (4.5) */
    double tol;            /* BVH pruning tolerance of the evaluations, metres */
    double rel;            /* its growth above UB (dst_bvh_distance_rel), dimensionless */
    int failed;
    int inexact;           /* a static bracket wider than the target was met */
} MeshCtx;

/* The common start of the MCD and its sampling baseline: the context (the caller's warm
 * start, or `own` reset), the enclosure of both motions (eq. 4.7's err terms, metres) and
 * the target of the nominal search, eps less the enclosure if that leaves at least eps/2. */
static void ctx_init(const DstMovingMesh *a, const DstMovingMesh *b, const DstMeshMcdOptions *o,
                     DstBvhCache *cache, DstBvhCache *own, DstMeshMcdResult *out, MeshCtx *c,
                     double *enclosure, double *target)
{
    if (cache == NULL) {
        dst_bvh_cache_reset(own);
        cache = own;
    }
    *c = (MeshCtx){a, b, cache, out, INFINITY, 0.0, 0.0, 0, 0};
    *enclosure = dst_moving_frame_enclosure(&a->frame, a->bvh->radius) +
                 dst_moving_frame_enclosure(&b->frame, b->bvh->radius);
    *target = o->eps * (1.0 - DST_MESH_MCD_EPS_SLACK) - *enclosure;
    if (*target < 0.5 * o->eps) *target = 0.5 * o->eps;
    c->tol = DST_MESH_MCD_TOL_FRACTION * *target;
    c->rel = o->tol_rel;
}

static int eval_need(MeshCtx *c, double s, double target, double tol, double need, MeshEval *e)
{
    DstMeshDistance md;
    double dev = 0.0;
    /* above UB the value matters ever less: the pruning tolerance grows as rel (d - UB) */
    double ref = c->best_hi < INFINITY ? c->best_hi : 0.0, rel = c->best_hi < INFINITY ? c->rel : 0.0;
    /* a split point's evaluation capped at its needed level grows its tolerance more slowly:
     * below the level it is as precise as the sub-intervals it starts may need */
    if (need < INFINITY) rel *= DST_MESH_MCD_SPLIT_REL_FACTOR;
    DstStatus st = nominal_rel(c->a, c->b, s, tol, ref, rel, need, c->cache, &md, &dev);
    ++c->out->distance_evals;
    if (st == DST_FAILED || st == DST_INVALID_INPUT) {
        c->failed = 1;
        return 0;
    }
    e->s = s;
    e->ca = c->cache->tri_a, e->cb = c->cache->tri_b;
    e->hi = md.distance;
    e->lo = md.lower - dev;
    e->dev = dev;
    e->overlap = md.overlap;
    e->wide = md.overlap != 0 && md.upper - md.lower > target;
    if (e->wide) c->inexact = 1;
    if (e->hi < c->best_hi) {
        DstMeshMcdResult *o = c->out;
        c->best_hi = e->hi;
        o->upper = e->hi;
        o->t_min = s; /* mapped to seconds at the end */
        memcpy(o->pA, md.pa, sizeof o->pA);
        memcpy(o->pB, md.pb, sizeof o->pB);
        memcpy(o->n, md.n, sizeof o->n);
        o->tri_a = md.tri_a, o->tri_b = md.tri_b;
    }
    return 1;
}

static int eval_tol(MeshCtx *c, double s, double target, double tol, MeshEval *e)
{
    return eval_need(c, s, target, tol, INFINITY, e);
}

static int eval_at(MeshCtx *c, double s, double target, MeshEval *e)
{
    return eval_tol(c, s, target, c->tol, e);
}

/* Eq. (4.8): the function moves at most mu over the sub-interval, falls from the ends and
 * must climb back: min >= min(fa, fb) - (mu - |fa - fb|)/2 (never above min(fa, fb)). */
static double lb_48(double fa, double fb, double mu)
{
    double m = fa < fb ? fa : fb;
    double drop = 0.5 * (mu - fabs(fa - fb));
    double lb = drop > 0.0 ? m - drop : m;
    return lb - DST_ROUND_REL * (fabs(fa) + fabs(fb) + mu);
}

/* The relative motion of the two meshes for eq. (4.7): a point l = c + m of a mesh (c its
 * root sphere centre, |m| <= r its radius) moves at x' + R' c + R' m, so the relative speed
 * of two points is at most |q'(s)| + ||R_A'|| r_A + ||R_B'|| r_B with the centre difference
 * q(s) = x_A + R_A c_A - x_B - R_B c_B (a polynomial: common translations cancel) —
 * docs/math/mesh_mcd.md eq. (11b). */
typedef struct RelMotion {
    DstPolyPoint q;          /* centre difference, metres */
    DstMovingFrame ra, rb;   /* the frames with their origin motion removed (rotation part) */
    double r_a, r_b;         /* root sphere radii, metres */
    double round;            /* rounding of q's derivative coefficients, metres per unit s */
} RelMotion;

static void rel_motion_init(const DstMovingMesh *a, const DstMovingMesh *b, RelMotion *rm)
{
    const DstMovingFrame *fa = &a->frame, *fb = &b->frame;
    const double *ca = a->bvh->nodes[0].c, *cb = b->bvh->nodes[0].c;
    memset(&rm->q, 0, sizeof rm->q);
    int deg = fa->origin.degree;
    if (fb->origin.degree > deg) deg = fb->origin.degree;
    if (fa->degree > deg) deg = fa->degree;
    if (fb->degree > deg) deg = fb->degree;
    rm->q.degree = deg;
    double mag = 0.0;
    for (int k = 0; k <= deg; ++k) {
        for (int i = 0; i < 3; ++i) {
            double v = 0.0;
            if (k <= fa->origin.degree) mag += k * fabs(fa->origin.c[k][i]);
            if (k <= fb->origin.degree) mag += k * fabs(fb->origin.c[k][i]);
            for (int j = 0; j < 3; ++j) {
                if (k <= fa->degree) mag += k * fabs(fa->R[k][3 * i + j] * ca[j]);
                if (k <= fb->degree) mag += k * fabs(fb->R[k][3 * i + j] * cb[j]);
            }
            if (k <= fa->origin.degree) v += fa->origin.c[k][i];
            if (k <= fb->origin.degree) v -= fb->origin.c[k][i];
            if (k <= fa->degree) v += fa->R[k][3 * i] * ca[0] + fa->R[k][3 * i + 1] * ca[1] + fa->R[k][3 * i + 2] * ca[2];
            if (k <= fb->degree) v -= fb->R[k][3 * i] * cb[0] + fb->R[k][3 * i + 1] * cb[1] + fb->R[k][3 * i + 2] * cb[2];
            rm->q.c[k][i] = v;
        }
    }
    rm->ra = *fa, rm->rb = *fb;
    memset(&rm->ra.origin, 0, sizeof rm->ra.origin);
    memset(&rm->rb.origin, 0, sizeof rm->rb.origin);
    rm->r_a = a->bvh->nodes[0].r, rm->r_b = b->bvh->nodes[0].r;
    rm->round = 8.0 * DST_ROUND_REL * mag;
}

/* Eq. (4.7) on [u0, u1], per unit s, by Bernstein bounds of q' and R' (eq. 11b). */
static double motion_bound(const RelMotion *rm, double u0, double u1)
{
    double v = dst_poly_point_speed_bound(&rm->q, u0, u1);
    double wa = dst_moving_frame_rot_speed_bound(&rm->ra, u0, u1) * rm->r_a;
    double wb = dst_moving_frame_rot_speed_bound(&rm->rb, u0, u1) * rm->r_b;
    /* plus the rounding of q's coefficients (sums of products of size |x| + |R||c|) */
    return (v + wa + wb + rm->round) * (1.0 + 4.0 * DST_ROUND_REL);
}

static DstStatus check_input(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1,
                             const DstMeshMcdOptions *o, DstMeshMcdResult *out)
{
    memset(out, 0, sizeof *out);
    out->tri_a = out->tri_b = -1;
    if (a == NULL || b == NULL || a->bvh == NULL || b->bvh == NULL || a->bvh->n_tris <= 0 || b->bvh->n_tris <= 0 ||
        dst_moving_frame_validate(&a->frame) != DST_OK || dst_moving_frame_validate(&b->frame) != DST_OK ||
        !isfinite(t0) || !isfinite(t1) || t1 < t0 || !(o->eps > 0.0) || !isfinite(o->eps) || o->max_evals < 2 ||
        isnan(o->stop_above) || !(o->tol_rel >= 0.0 && o->tol_rel < 1.0)) {
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    return DST_OK;
}

/* the certified lower bound of the true distance from a nominal one (eq. 16) */
static double certify(double lower_nominal, double enclosure)
{
    double lower = lower_nominal - enclosure;
    return lower - DST_ROUND_REL * (fabs(lower) + enclosure);
}

/* Final bookkeeping shared by both methods: enclosure, times, status. */
static DstStatus finish(MeshCtx *c, double lower_nominal, double enclosure, double eps, int capped, double t0,
                        double t1, int stopped)
{
    DstMeshMcdResult *o = c->out;
    if (c->failed) {
        int keep_evals = o->distance_evals;
        memset(o, 0, sizeof *o);
        o->distance_evals = keep_evals;
        o->tri_a = o->tri_b = -1;
        o->status = DST_FAILED;
        return o->status;
    }
    double lower = certify(lower_nominal, enclosure);
    if (lower > o->upper) lower = o->upper - enclosure;
    o->lower = lower;
    o->t_min = t0 + o->t_min * (t1 - t0);
    if (o->t_min > t1) o->t_min = t1;
    if (stopped) o->status = DST_ABOVE_LIMIT;
    else if (o->upper - o->lower <= eps) o->status = DST_CERTIFIED;
    else if (capped) o->status = DST_ITER_LIMIT;
    else o->status = DST_NOT_CERTIFIED;
    return o->status;
}

/* A sub-interval waiting on the stack with its two end evaluations and its LB^i. */
typedef struct MeshIv {
    MeshEval ea, eb;
    double mu;  /* eq. (4.7) motion bound over the sub-interval, metres */
    double lb;  /* LB^i of eq. (4.8) */
    int level;
} MeshIv;

static MeshIv make_iv(const RelMotion *rm, const MeshEval *ea, const MeshEval *eb, int level)
{
    MeshIv iv;
    iv.ea = *ea, iv.eb = *eb, iv.level = level;
    iv.mu = motion_bound(rm, ea->s, eb->s) * (eb->s - ea->s);
    iv.lb = lb_48(ea->lo, eb->lo, iv.mu);
    return iv;
}

/* Eq. (15c): the least lower value g_x at a split point that makes eq. (4.8) close both
 * halves [a, x] (motion bound mu1) and [x, b] (mu2) at the level lam = UB - eps': for each
 * half, min(g_end, g_x) - max(0, (mu - |g_end - g_x|)/2) >= lam holds exactly when
 * g_end >= lam and g_x >= max(lam, 2 lam + mu - g_end). +INFINITY when an end is below lam
 * (that half cannot close whatever g_x is). Widened for lb_48's rounding term. */
static double split_need(double lam, double ga, double mu1, double gb, double mu2)
{
    if (!(ga > lam) || !(gb > lam)) return INFINITY;
    double n1 = dst_maxd(lam, 2.0 * lam + mu1 - ga), n2 = dst_maxd(lam, 2.0 * lam + mu2 - gb);
    double n = dst_maxd(n1, n2);
    return n + 4.0 * DST_ROUND_REL * (fabs(ga) + fabs(gb) + fabs(n) + mu1 + mu2);
}

/* budget of swept-sphere tests of the first stop_above test (dst_mesh_swept_lower) */
#define DST_MESH_MCD_SWEPT_BUDGET 48

/* Adaptive subdivision, Algorithm 4.1: depth-first, the child with the lower end value
 * first so that UB (eq. 4.5) falls early; a sub-interval is closed when UB - LB^i <= eps
 * (which includes UB < LB^i, Fig. 4.1(a) and (c)). With a finite stop_above the search
 * stops once min(closed LB^i, open LB^i) certifies it (docs/math/mesh_mcd.md sec. 9). */
DstStatus dst_mesh_mcd(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1,
                       const DstMeshMcdOptions *opt, DstBvhCache *cache, DstMeshMcdResult *out)
{
    DstMeshMcdOptions o = opt != NULL ? *opt : dst_mesh_mcd_options_default();
    if (check_input(a, b, t0, t1, &o, out) != DST_OK) return out->status;
    DstBvhCache own;
    MeshCtx c;
    double enclosure, target;
    ctx_init(a, b, &o, cache, &own, out, &c, &enclosure, &target);
    cache = c.cache;
    int limit = o.stop_above < INFINITY;
    RelMotion rm;
    rel_motion_init(a, b, &rm);
    MeshIv stack[DST_MESH_MCD_OPEN];
    int top = 0, capped = 0;
    double lower = INFINITY;
    MeshEval e0, e1;
    if (limit && t1 > t0) {
        /* cheap first test: swept bounding spheres over the whole interval bound the
         * polynomial shapes' separation; one end evaluation with the loosest pruning (any
         * real distance will do for `upper`) shows the solids apart there, and since the
         * surfaces of every shape between the nominal and the true one stay apart, by
         * continuity they never overlap */
        double lbs = dst_mesh_swept_lower(a, b, 0.0, 1.0, o.stop_above + 2.0 * enclosure + o.eps,
                                          DST_MESH_MCD_SWEPT_BUDGET, NULL);
        double cert = certify(lbs, enclosure);
        if (cert >= o.stop_above && cert > 0.0) {
            if (!eval_tol(&c, 0.0, target, DST_MESH_MAX_COORD, &e0)) return finish(&c, lower, enclosure, o.eps, 0, t0, t1, 0);
            /* (lbs alone bounds g; the min with the real value keeps lower <= upper) */
            double lb0 = fmin(lbs, e0.hi - e0.dev);
            if (e0.overlap == 0 && certify(lbs, 2.0 * (enclosure + e0.dev)) > 0.0 &&
                certify(lb0, enclosure) >= o.stop_above) {
                return finish(&c, lb0, enclosure, o.eps, 0, t0, t1, 1);
            }
            c.best_hi = INFINITY; /* start afresh: the loose value is no UB of the search */
        }
    }
    /* UB^i of eq. (4.6) at the ends of the whole interval */
    if (!eval_at(&c, 0.0, target, &e0) || !eval_at(&c, 1.0, target, &e1) || t1 == t0) {
        if (t1 == t0 && !c.failed) lower = fmin(e0.lo, e1.lo);
        return finish(&c, lower, enclosure, o.eps, 0, t0, t1, 0);
    }
    stack[0] = make_iv(&rm, &e0, &e1, 0);
    top = 1;
    while (top > 0) {
        /* best first: the open sub-interval of least LB^i (Shubert's order); once half the
         * pool is open (flat minima), depth first from the newest, which needs at most one
         * entry per level more */
        int kmin = 0;
        double gmin = stack[0].lb;
        for (int k = 1; k < top; ++k) {
            if (stack[k].lb < stack[kmin].lb) kmin = k;
        }
        gmin = stack[kmin].lb;
        if (top >= DST_MESH_MCD_OPEN / 2) kmin = top - 1;
        /* with a limit: the certified bound of the whole interval, closed and open parts */
        if (limit && certify(fmin(lower, gmin), enclosure) >= o.stop_above) {
            return finish(&c, fmin(lower, gmin), enclosure, o.eps, 0, t0, t1, 1);
        }
        MeshIv iv = stack[kmin];
        stack[kmin] = stack[top - 1];
        --top;
        ++out->subintervals;
        if (iv.level > out->max_depth) out->max_depth = iv.level;
        /* LB^i of eq. (4.8) with mu of eq. (4.7) on this sub-interval */
        double mu = iv.mu, lb = iv.lb;
        if (c.best_hi - lb <= target) {
            lower = fmin(lower, lb);
            continue;
        }
        /* an end whose static bracket alone is wider than the target (non-convex overlap)
         * stays in one half at every level: subdivision cannot close this sub-interval */
        int stuck_a = iv.ea.wide && c.best_hi - iv.ea.lo > target;
        int stuck_b = iv.eb.wide && c.best_hi - iv.eb.lo > target;
        if (stuck_a || stuck_b || mu <= DST_MESH_MCD_MU_FLOOR * target) {
            /* the static brackets, not the motion, keep the gap open */
            c.inexact = 1;
            lower = fmin(lower, lb);
            continue;
        }
        /* prism culling (seed 003): if the shapes stay UB - eps' apart over the whole
         * sub-interval, it cannot hold a minimum that matters (Fig. 4.1 (a), (c)) */
        double level = c.best_hi - target;
        if (o.prism_cull && level > 0.0) {
            DstPrismStats ps = {0, 0, 0};
            ++out->prism_tests;
            int apart = dst_mesh_swept_apart(a, b, iv.ea.s, iv.eb.s, level, &ps);
            out->prism_pairs += ps.prism_pairs;
            out->prism_culled += ps.prism_culled;
            if (apart) {
                ++out->culled;
                lower = fmin(lower, level);
                continue;
            }
        }
        double h = iv.eb.s - iv.ea.s;
        if (out->distance_evals >= o.max_evals || h <= DST_MESH_MCD_MIN_WIDTH || top + 2 > DST_MESH_MCD_OPEN) {
            capped = 1;
            lower = fmin(lower, lb);
            continue;
        }
        /* split (Algorithm 4.1 lines 5-6) where the two cones of eq. (4.8) meet, the place of
         * LB^i (Shubert's rule), kept within the middle part of the sub-interval */
        double x = 0.5 * (h + (iv.ea.lo - iv.eb.lo) * h / mu);
        if (!(x >= DST_MESH_MCD_SPLIT_MIN * h)) x = DST_MESH_MCD_SPLIT_MIN * h;
        if (x > (1.0 - DST_MESH_MCD_SPLIT_MIN) * h) x = (1.0 - DST_MESH_MCD_SPLIT_MIN) * h;
        /* warm start from the closest pair of the end with the lower value */
        const MeshEval *near = iv.ea.hi <= iv.eb.hi ? &iv.ea : &iv.eb;
        if (near->ca >= 0) cache->tri_a = near->ca, cache->tri_b = near->cb;
        /* the value at the split point that closes both halves (eq. 15c), when both can close */
        double sx = iv.ea.s + x;
        double mu1 = motion_bound(&rm, iv.ea.s, sx) * (sx - iv.ea.s);
        double mu2 = motion_bound(&rm, sx, iv.eb.s) * (iv.eb.s - sx);
        double need = split_need(c.best_hi - target, iv.ea.lo, mu1, iv.eb.lo, mu2);
        MeshEval em;
        if (!eval_need(&c, sx, target, c.tol, need, &em)) break;
        stack[top++] = make_iv(&rm, &iv.ea, &em, iv.level + 1);
        stack[top++] = make_iv(&rm, &em, &iv.eb, iv.level + 1);
    }
    if (!isfinite(lower)) lower = out->upper; /* every interval closed by its ends */
    return finish(&c, lower, enclosure, o.eps, capped, t0, t1, 0);
}

/* Certified sampling, thesis eq. (6.3): error (t1 - t0) mu / n with mu the global motion
 * bound; n = ceil(mu / target) + 1 samples, the gaps bounded by eq. (4.8). */
DstStatus dst_mesh_mcd_sampling(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1,
                                const DstMeshMcdOptions *opt, DstBvhCache *cache, DstMeshMcdResult *out)
{
    DstMeshMcdOptions o = opt != NULL ? *opt : dst_mesh_mcd_options_default();
    if (check_input(a, b, t0, t1, &o, out) != DST_OK) return out->status;
    DstBvhCache own;
    MeshCtx c;
    double enclosure, target;
    ctx_init(a, b, &o, cache, &own, out, &c, &enclosure, &target);
    cache = c.cache;
    RelMotion rm;
    rel_motion_init(a, b, &rm);
    double L = motion_bound(&rm, 0.0, 1.0);
    double want = t1 > t0 ? ceil(L / target) + 1.0 : 1.0;
    int capped = want > (double)o.max_evals;
    int n = capped ? o.max_evals : (int)want;
    if (n < 2) n = 2;
    double lower = INFINITY;
    MeshEval prev, cur;
    for (int k = 0; k < n; ++k) {
        if (!eval_at(&c, (double)k / (n - 1), target, &cur)) break;
        if (k > 0) lower = fmin(lower, lb_48(prev.lo, cur.lo, L / (n - 1)));
        prev = cur;
        ++out->subintervals;
    }
    return finish(&c, lower, enclosure, o.eps, capped, t0, t1, 0);
}

/* Time of first contact within d (docs/math/mesh_mcd.md sec. 10, eq. 19-21): a depth-first
 * scan in time order. The part [0, s_cert) is certified (true distance > d); the sub-interval
 * [a, b] at its front, a = s_cert, is closed by eq. (4.8) (LB^i less the enclosures > d) or by
 * prism culling, reports a hit when an end within the time tolerance of s_cert is nominally
 * within d + eps, and is split at its middle otherwise (left half first). */
DstStatus dst_mesh_first_contact(const DstMovingMesh *a, const DstMovingMesh *b, double t0, double t1, double d,
                                 const DstMeshMcdOptions *opt, DstMeshToc *out)
{
    DstMeshMcdOptions o = opt != NULL ? *opt : dst_mesh_mcd_options_default();
    DstMeshMcdResult scratch;
    if (out == NULL) return DST_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    if (check_input(a, b, t0, t1, &o, &scratch) != DST_OK || !isfinite(d) ||
        !(o.time_tol > 0.0) || !isfinite(o.time_tol)) {
        out->status = DST_INVALID_INPUT;
        return DST_INVALID_INPUT;
    }
    DstBvhCache cache;
    dst_bvh_cache_reset(&cache);
    /* the evaluations are precise to a fraction of eps everywhere (tol_rel 0): the hit test
     * compares their values with d */
    MeshCtx c = {a, b, &cache, &scratch, INFINITY, DST_MESH_MCD_TOL_FRACTION * o.eps, 0.0, 0, 0};
    double enclosure = dst_moving_frame_enclosure(&a->frame, a->bvh->radius) +
                       dst_moving_frame_enclosure(&b->frame, b->bvh->radius);
    RelMotion rm;
    rel_motion_init(a, b, &rm);
    double T = t1 - t0, w_tol = T > 0.0 ? o.time_tol / T : 1.0;
    /* the level prism culling must certify: d plus the enclosures, widened for rounding */
    double level = d + enclosure + DST_ROUND_REL * (fabs(d) + enclosure + a->bvh->radius + b->bvh->radius);
    MeshIv stack[DST_MESH_MCD_MAX_DEPTH + 2];
    MeshEval e0, e1;
    int top = 0;
    DstStatus st = DST_CERTIFIED;
    double s_cert = 0.0;
    const MeshEval *hit = NULL;
    MeshEval hit_e;
    if (!eval_at(&c, 0.0, INFINITY, &e0) || !eval_at(&c, 1.0, INFINITY, &e1)) goto done;
    stack[top++] = make_iv(&rm, &e0, &e1, 0);
    while (top > 0) {
        MeshIv iv = stack[--top];
        ++out->subintervals;
        /* hit at the front end (within the time tolerance of s_cert, which it equals) */
        if (iv.ea.hi <= d + o.eps) {
            hit_e = iv.ea, hit = &hit_e;
            break;
        }
        /* eq. (4.8) less the enclosures, widened: the true distance stays above d */
        if (certify(iv.lb, enclosure) > d) {
            ++out->closed_lb;
            s_cert = iv.eb.s;
            continue;
        }
        double h = iv.eb.s - iv.ea.s;
        if (h <= w_tol && iv.eb.hi <= d + o.eps) {
            hit_e = iv.eb, hit = &hit_e;
            break;
        }
        if (o.prism_cull && level > 0.0) {
            DstPrismStats ps = {0, 0, 0};
            ++out->prism_tests;
            int apart = dst_mesh_swept_apart(a, b, iv.ea.s, iv.eb.s, level, &ps);
            out->prism_pairs += ps.prism_pairs;
            out->prism_culled += ps.prism_culled;
            if (apart) {
                ++out->culled;
                s_cert = iv.eb.s;
                continue;
            }
        }
        if (scratch.distance_evals >= o.max_evals) {
            st = DST_ITER_LIMIT;
            break;
        }
        if (iv.level >= DST_MESH_MCD_MAX_DEPTH || (iv.mu <= DST_MESH_MCD_MU_FLOOR * o.eps && iv.eb.hi > d + o.eps)) {
            /* neither closable nor worth splitting: with the motion bound this small, what
             * keeps LB^i at or below d are the static brackets (non-convex overlap) or an
             * enclosure near eps, and no end is within d + eps */
            st = DST_NOT_CERTIFIED;
            break;
        }
        MeshEval em;
        if (!eval_at(&c, 0.5 * (iv.ea.s + iv.eb.s), INFINITY, &em)) goto done;
        stack[top++] = make_iv(&rm, &em, &iv.eb, iv.level + 1);
        stack[top++] = make_iv(&rm, &iv.ea, &em, iv.level + 1);
    }
done:
    out->distance_evals = scratch.distance_evals;
    if (c.failed) {
        DstMeshToc z;
        memset(&z, 0, sizeof z);
        z.distance_evals = out->distance_evals;
        z.status = DST_FAILED;
        *out = z;
        return DST_FAILED;
    }
    out->status = st;
    out->t_lo = t0 + s_cert * T;
    if (hit != NULL) {
        out->hit = 1;
        out->t_hi = t0 + hit->s * T;
        if (out->t_hi > t1) out->t_hi = t1;
        if (out->t_lo > out->t_hi) out->t_lo = out->t_hi;
        out->distance = hit->hi;
        /* witnesses of the hit: one more (exact) evaluation there */
        DstMeshDistance md;
        if (dst_mesh_nominal_distance(a, b, hit->s, 0.0, NULL, &md, NULL) != DST_FAILED) {
            memcpy(out->pA, md.pa, sizeof out->pA);
            memcpy(out->pB, md.pb, sizeof out->pB);
            if (md.distance < out->distance) out->distance = md.distance;
        }
    } else if (st == DST_CERTIFIED) {
        out->t_lo = t1;
    }
    return out->status;
}
