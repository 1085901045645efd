/* dst_capsule_mcd.c — minimum continuous distance (MCD) of two moving capsules:
 * golden-section search, conservative advancement, the hybrid and certified sampling
 * (thesis ch. III, sec. VI.A.3). Derivations: docs/math/capsule_mcd.md.
 *
 * Everything works in the local parameter s = (t - t0)/(t1 - t0) in [0, 1]. The
 * distance below is the "nominal" signed distance of the polynomial shapes; the
 * enclosure radii err are subtracted from the certified lower bound at the end. */
#include "dst_capsule.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "dst_capsule_internal.h"

#if DST_MAX_DEGREE != 7
#error "mcd_eval_ex evaluates the positions by Estrin's scheme for degree 7"
#endif

/* degree at which the velocity differences are held in Bernstein form */
#define DST_MCD_VDEG (DST_MAX_DEGREE - 1)

/* golden-section ratio R = (3 - sqrt 5)/2 (thesis sec. III.B) */
#define DST_GSS_R 0.38196601125010515

/* the search aims at eps minus this relative slack, so that rounding of the final
 * lower bound cannot push upper - lower over eps */
#define DST_MCD_EPS_SLACK 1e-6

/* Defaults from the thesis: eps = 1e-3 m (eq. 6.1), tau = 1e-3 (sec. III.B), 500 steps (sec. VI.A.3). */
DstMcdOptions dst_mcd_options_default(void)
{
    DstMcdOptions o;
    o.eps = DST_DEFAULT_MCD_EPS;
    o.tau = DST_DEFAULT_GSS_TAU;
    o.max_iter = DST_DEFAULT_CA_MAX_ITER;
    o.max_samples = DST_DEFAULT_SAMPLING_MAX;
    o.stop_above = INFINITY;
    return o;
}

/* Static names of the methods. */
const char *dst_mcd_method_string(DstMcdMethod method)
{
    switch (method) {
    case DST_MCD_GSS: return "gss";
    case DST_MCD_CA: return "ca";
    case DST_MCD_HYBRID: return "hybrid";
    case DST_MCD_SAMPLING: return "sampling";
    }
    return "unknown";
}

/* One distance evaluation at parameter s. */
typedef struct McdEval {
    double s;
    double hi;       /* nominal signed distance at s (a real value) */
    double lo;       /* certified lower bound of the nominal signed distance at s */
    double n[3];     /* unit normal from B to A at s */
    double g[4];     /* certified lower bounds of n.(p_i - q_j) - (rA + rB), pair k = 2 i + j
                      * (advancement evaluations; else each = lo) */
} McdEval;

/* Per-call state: the motion, its precomputed velocity Bernstein coefficients, the
 * best evaluation so far and the counters. Lives on the caller's stack. */
typedef struct McdCtx {
    const DstMovingCapsule *a, *b;
    double rsum;                 /* rA + rB */
    double errsum;               /* max err of A's endpoints + max err of B's */
    double scale;                /* magnitude bound of every coordinate over s in [0, 1] */
    double widen;                /* rounding widening of a certified distance */
    int deg;                     /* highest position degree of the four endpoints */
    /* position coefficients of A.p0, A.p1, B.p0, B.p1, zero-padded to deg */
    double coef[DST_MAX_DEGREE + 1][3][4];
    int m;                       /* -1: no motion; else DST_MCD_VDEG (velocities are held at that
                                  * degree, elevated if lower, so the loops have constant bounds) */
    /* Bernstein coefficients on [0, 1] of (q_j' - p_i')(s): vb[l][x][k], coefficient l,
     * coordinate x, pair k = 2 i + j (pairs innermost so the loops vectorise) */
    double vb[DST_MAX_DEGREE + 1][3][4];
    double vwiden;               /* rounding widening of a rate bound */
    int max_steps;
    int evals, steps;
    double best_hi;              /* the upper bound: least nominal distance seen */
    double best_s;
    DstSegPair best;
} McdCtx;

enum { ADV_MOVED, ADV_REACHED, ADV_DONE, ADV_CAP };

/* One state of a forward (dir = +1) or backward (dir = -1) advancement. */
typedef struct McdAdv {
    double s;        /* current parameter; [start, s) (or (s, start]) is certified >= target */
    int dir;
    double h;        /* window length of the next motion bound */
    McdEval e;       /* evaluation at s */
} McdAdv;

/* Positions of the four endpoints at s, x[coordinate][endpoint]. With `estrin`, Estrin's
 * scheme on the zero-padded degree-7 coefficients: three levels of a + b s^(2^l) instead
 * of Horner's chain of seven multiply-adds, for the callers whose every evaluation waits
 * for the last (golden-section search, advancement). Certified sampling evaluates
 * independent points, where only the operation count matters; it keeps Horner, which
 * does fewer operations for lower degrees and measured faster there (docs/perf/capsule.md,
 * session 13). Both are within the rounding widening of docs/math/capsule_mcd.md sec. 5. */
static inline void mcd_positions(const McdCtx *c, double s, int estrin, double x[3][4])
{
    if (estrin) {
        const double s2 = s * s, s4 = s2 * s2;
        for (int i = 0; i < 3; ++i) {
            for (int p = 0; p < 4; ++p) {
                const double q0 = c->coef[0][i][p] + c->coef[1][i][p] * s;
                const double q1 = c->coef[2][i][p] + c->coef[3][i][p] * s;
                const double q2 = c->coef[4][i][p] + c->coef[5][i][p] * s;
                const double q3 = c->coef[6][i][p] + c->coef[7][i][p] * s;
                x[i][p] = (q0 + q1 * s2) + (q2 + q3 * s2) * s4;
            }
        }
        return;
    }
    /* Horner for the four endpoints at once (12 independent chains) */
    for (int i = 0; i < 3; ++i) {
        for (int p = 0; p < 4; ++p) x[i][p] = c->coef[c->deg][i][p];
    }
    for (int k = c->deg - 1; k >= 0; --k) {
        for (int i = 0; i < 3; ++i) {
            for (int p = 0; p < 4; ++p) x[i][p] = x[i][p] * s + c->coef[k][i][p];
        }
    }
}

/* Static distance at s (eq. 3.1) with its certified lower bound (when want_lower; else
 * e->lo is the trivial -(rA + rB) - widen); keeps the best. */
static DST_CAPSULE_INLINE void mcd_eval_ex(McdCtx *c, double s, int want_lower, int estrin, McdEval *e)
{
    double x[3][4], sep4[4];
    DstSegPair sp;
    mcd_positions(c, s, estrin, x);
    double a0[3] = {x[0][0], x[1][0], x[2][0]}, a1[3] = {x[0][1], x[1][1], x[2][1]};
    double b0[3] = {x[0][2], x[1][2], x[2][2]}, b1[3] = {x[0][3], x[1][3], x[2][3]};
    /* the pair-by-pair separations only where an advancement may start (estrin callers) */
    const int want_pairs = want_lower && estrin;
    dst_segment_pair_ex(a0, a1, b0, b1, c->scale, want_lower, &sp, want_pairs ? sep4 : NULL);
    e->s = s;
    e->hi = sp.dist - c->rsum;
    e->lo = sp.lower - c->rsum - c->widen;
    for (int k = 0; k < 4; ++k) e->g[k] = want_pairs ? sep4[k] - c->rsum - c->widen : e->lo;
    e->n[0] = sp.n[0], e->n[1] = sp.n[1], e->n[2] = sp.n[2];
    c->evals++;
    if (e->hi < c->best_hi) {
        c->best_hi = e->hi;
        c->best_s = s;
        c->best = sp;
    }
}

/* Full evaluation: value, certified lower bound and normal (advancement). */
static void mcd_eval(McdCtx *c, double s, McdEval *e)
{
    mcd_eval_ex(c, s, 1, 1, e);
}

/* the golden-section search only compares values */
static void mcd_eval_value(McdCtx *c, double s, McdEval *e)
{
    mcd_eval_ex(c, s, 0, 1, e);
}

/* certified sampling: full evaluations at independent points (Horner) */
static void mcd_eval_sample(McdCtx *c, double s, McdEval *e)
{
    mcd_eval_ex(c, s, 1, 0, e);
}

/* Vector Bernstein coefficients of the relative endpoint velocities (DESIGN sec. 6). */
static void mcd_prepare_bernstein(McdCtx *c)
{
    /* monomial -> Bernstein matrix C(j,k)/C(m,k) for m = DST_MCD_VDEG = 6 */
    static const double conv[DST_MCD_VDEG + 1][DST_MCD_VDEG + 1] = {
        {1.0 / 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
        {1.0 / 1.0, 1.0 / 6.0, 0.0, 0.0, 0.0, 0.0, 0.0},
        {1.0 / 1.0, 2.0 / 6.0, 1.0 / 15.0, 0.0, 0.0, 0.0, 0.0},
        {1.0 / 1.0, 3.0 / 6.0, 3.0 / 15.0, 1.0 / 20.0, 0.0, 0.0, 0.0},
        {1.0 / 1.0, 4.0 / 6.0, 6.0 / 15.0, 4.0 / 20.0, 1.0 / 15.0, 0.0, 0.0},
        {1.0 / 1.0, 5.0 / 6.0, 10.0 / 15.0, 10.0 / 20.0, 5.0 / 15.0, 1.0 / 6.0, 0.0},
        {1.0 / 1.0, 6.0 / 6.0, 15.0 / 15.0, 20.0 / 20.0, 15.0 / 15.0, 6.0 / 6.0, 1.0 / 1.0},
    };
    c->vwiden = 0.0;
    c->m = c->deg >= 1 ? DST_MCD_VDEG : -1;
    if (c->m < 0) return;
    /* monomial coefficients of q_j' - p_i' for all coordinates and pairs at once */
    double a[DST_MCD_VDEG + 1][3][4];
    double mag[4] = {0.0, 0.0, 0.0, 0.0};
    for (int l = 0; l <= DST_MCD_VDEG; ++l) {
        for (int x = 0; x < 3; ++x) {
            for (int k = 0; k < 4; ++k) {
                double qv = c->coef[l + 1][x][2 + (k & 1)], pv = c->coef[l + 1][x][k >> 1];
                a[l][x][k] = (l + 1) * (qv - pv);
                mag[k] += (l + 1) * (fabs(qv) + fabs(pv));
            }
        }
    }
    for (int l = 0; l <= DST_MCD_VDEG; ++l) {
        for (int x = 0; x < 3; ++x) {
            for (int k = 0; k < 4; ++k) {
                double acc = 0.0;
                for (int q = 0; q <= l; ++q) acc += conv[l][q] * a[q][x][k];
                c->vb[l][x][k] = acc;
            }
        }
    }
    for (int k = 0; k < 4; ++k) c->vwiden = dst_maxd(c->vwiden, DST_ROUND_REL * mag[k]);
}

/* de Casteljau restriction to [u0, u1] of four Bernstein polynomials of degree
 * DST_MCD_VDEG side by side (same steps as dst_bernstein_subdivide; constant bounds so
 * the compiler keeps everything in registers). */
static inline void mcd_subdivide4(double b[DST_MCD_VDEG + 1][4], double u0, double u1)
{
    if (u0 > 0.0) {
        double v = 1.0 - u0;
        for (int r = 1; r <= DST_MCD_VDEG; ++r) {
            for (int j = 0; j <= DST_MCD_VDEG - r; ++j) {
                for (int k = 0; k < 4; ++k) b[j][k] = v * b[j][k] + u0 * b[j + 1][k];
            }
        }
        if (v <= 0.0) return;
        u1 = (u1 - u0) / v;
    }
    if (u1 < 1.0) {
        double u = u1 < 0.0 ? 0.0 : u1, v = 1.0 - u;
        for (int r = 1; r <= DST_MCD_VDEG; ++r) {
            for (int j = DST_MCD_VDEG; j >= r; --j) {
                for (int k = 0; k < 4; ++k) b[j][k] = v * b[j - 1][k] + u * b[j][k];
            }
        }
    }
}

/* Motion bound along n over s in [u0, u1], eq. (3.3) in Bernstein form
 * (docs/math/capsule_mcd.md [8]-[9]): the separation along n decreases at most at
 * rate max_ij n.(q_j' - p_i') going forward, max_ij n.(p_i' - q_j') going backward
 * (returned); rk[k] receives the same bound for pair k = 2 i + j alone ([10a]). */
static double mcd_rate(const McdCtx *c, const double n[3], double u0, double u1, int dir, double rk[4])
{
    for (int k = 0; k < 4; ++k) rk[k] = 0.0;
    if (c->m < 0) return 0.0;
    double b[DST_MCD_VDEG + 1][4];
    for (int l = 0; l <= DST_MCD_VDEG; ++l) {
        for (int k = 0; k < 4; ++k) b[l][k] = n[0] * c->vb[l][0][k] + n[1] * c->vb[l][1][k] + n[2] * c->vb[l][2][k];
    }
    if (u0 > 0.0 || u1 < 1.0) mcd_subdivide4(b, u0, u1);
    double mx = b[0][0], mn = b[0][0];
    double kmx[4] = {b[0][0], b[0][1], b[0][2], b[0][3]}, kmn[4] = {b[0][0], b[0][1], b[0][2], b[0][3]};
    for (int l = 0; l <= DST_MCD_VDEG; ++l) {
        for (int k = 0; k < 4; ++k) {
            kmx[k] = dst_maxd(kmx[k], b[l][k]);
            kmn[k] = dst_mind(kmn[k], b[l][k]);
        }
    }
    for (int k = 0; k < 4; ++k) {
        mx = dst_maxd(mx, kmx[k]);
        mn = dst_mind(mn, kmn[k]);
        /* each pair's own closing rate, for the step [10a] */
        rk[k] = dst_maxd(0.0, dir > 0 ? kmx[k] : -kmn[k]) * (1.0 + DST_ROUND_REL) + c->vwiden;
    }
    double r = dir > 0 ? mx : -mn;
    return dst_maxd(0.0, r) * (1.0 + DST_ROUND_REL) + c->vwiden;
}

/* Start an advancement at s in direction dir. */
static void mcd_adv_init(McdCtx *c, McdAdv *v, double s, int dir, double h, const McdEval *known)
{
    v->s = s;
    v->dir = dir;
    v->h = h;
    if (known != NULL && known->s == s) v->e = *known;
    else mcd_eval(c, s, &v->e);
}

/* One conservative-advancement step toward the level `target`, eq. (3.4), Lemma 3.1:
 * dt <= (delta - d)/mu with mu bounded on the window the step stays in, or the longer
 * pair-by-pair step (docs/math/capsule_mcd.md [10], [10a]). Returns
 * ADV_REACHED (certified distance within reach_tol above target at v->s), ADV_DONE
 * (the certified region reached `limit`), ADV_MOVED or ADV_CAP (step cap). */
static int mcd_adv_step(McdCtx *c, McdAdv *v, double limit, double target, double reach_tol)
{
    double gap = v->e.lo - target;
    if (gap <= reach_tol) return ADV_REACHED;
    double room = v->dir > 0 ? limit - v->s : v->s - limit;
    if (room <= 0.0) return ADV_DONE;
    if (c->steps >= c->max_steps) return ADV_CAP;
    c->steps++;
    /* bound the rate on the window [s, s + h] (or [s - h, s]) */
    double h = dst_mind(v->h, room);
    double u0 = v->dir > 0 ? v->s : v->s - h;
    double u1 = v->dir > 0 ? v->s + h : v->s;
    if (v->dir > 0 && h == room) u1 = limit;
    if (v->dir < 0 && h == room) u0 = limit;
    double rk[4];
    double mu = mcd_rate(c, v->e.n, u0, u1, v->dir, rk);
    /* the step of the nearest level [10], or pair by pair [10a]: each pair (p_i, q_j) may
     * close its own gap g_k - target at its own rate; the longer step is safe */
    double q = mu > 0.0 ? gap / mu : INFINITY;
    double qk = INFINITY;
    for (int k = 0; k < 4; ++k) {
        double gk = v->e.g[k] - target;
        qk = dst_mind(qk, gk <= 0.0 ? 0.0 : (rk[k] > 0.0 ? gk / rk[k] : INFINITY));
    }
    q = dst_maxd(q, qk);
    /* safe step, shrunk for rounding of the quotient and of s itself (|s| <= 1) */
    double ds = q < INFINITY ? q * (1.0 - 8.0 * DBL_EPSILON) - 4.0 * DBL_EPSILON : INFINITY;
    double snew;
    if (ds >= h) {
        ds = h;
        snew = v->dir > 0 ? u1 : u0;
    } else if (ds > 0.0) {
        snew = v->s + v->dir * ds;
    } else {
        return ADV_CAP; /* no representable progress: give up rather than loop */
    }
    v->h = 2.0 * ds;
    if (v->dir > 0 ? snew >= limit : snew <= limit) {
        v->s = limit;
        return ADV_DONE;
    }
    v->s = snew;
    mcd_eval(c, snew, &v->e);
    return ADV_MOVED;
}

/* Golden-section search on [sa, sb], thesis sec. III.B: bracket [a, b, c] with b the
 * middle, new point d in the larger part at ratio R, stop at c - a < tau_s. With
 * flat >= 0 (the hybrid) it also stops once both bracket ends are within `flat` of f(b):
 * the certificate comes from the advancement, so narrowing a flat bracket further
 * cannot help it. fa, fc: f(sa), f(sb) (used only with flat >= 0). Returns the number
 * of iterations; the least value seen is kept in the context. */
static int mcd_gss(McdCtx *c, double sa, double sb, double fa, double fc, double tau_s, double flat,
                   int max_iter)
{
    double a = sa, cc = sb, b = 0.5 * (sa + sb);
    McdEval e;
    mcd_eval_value(c, b, &e);
    double fb = e.hi;
    int it = 0;
    while (cc - a >= tau_s && it < max_iter) {
        if (flat >= 0.0 && fa - fb <= flat && fc - fb <= flat) break;
        double d;
        if (b - a >= cc - b) {
            d = b - DST_GSS_R * (b - a);
            mcd_eval_value(c, d, &e);
            if (e.hi >= fb) a = d, fa = e.hi;          /* [d, b, c] */
            else cc = b, fc = fb, b = d, fb = e.hi;    /* [a, d, b] */
        } else {
            d = b + DST_GSS_R * (cc - b);
            mcd_eval_value(c, d, &e);
            if (e.hi >= fb) cc = d, fc = e.hi;         /* [a, b, d] */
            else a = b, fa = fb, b = d, fb = e.hi;     /* [b, d, c] */
        }
        ++it;
    }
    return it;
}

/* Validation and setup shared by the four methods. Returns DST_OK or DST_INVALID_INPUT. */
static DstStatus mcd_setup(McdCtx *c, const DstMovingCapsule *a, const DstMovingCapsule *b, double t0,
                           double t1, const DstMcdOptions *opt, DstMcdOptions *o, DstMcdResult *out)
{
    memset(out, 0, sizeof *out);
    out->status = DST_INVALID_INPUT;
    *o = opt != NULL ? *opt : dst_mcd_options_default();
    if (a == NULL || b == NULL || dst_moving_capsule_validate(a) != DST_OK ||
        dst_moving_capsule_validate(b) != DST_OK || !isfinite(t0) || !isfinite(t1) || t1 < t0 ||
        !isfinite(o->eps) || !(o->eps > 0.0) || !isfinite(o->tau) || !(o->tau > 0.0) || o->max_iter < 1 ||
        o->max_samples < 2 || isnan(o->stop_above)) {
        return DST_INVALID_INPUT;
    }
    c->a = a;
    c->b = b;
    c->rsum = a->radius + b->radius;
    c->errsum = dst_maxd(a->p0.err, a->p1.err) + dst_maxd(b->p0.err, b->p1.err);
    const DstPolyPoint *pts[4] = {&a->p0, &a->p1, &b->p0, &b->p1};
    double scale = 0.0;
    for (int p = 0; p < 4; ++p) {
        for (int x = 0; x < 3; ++x) {
            double acc = 0.0;
            for (int k = 0; k <= pts[p]->degree; ++k) acc += fabs(pts[p]->c[k][x]);
            scale = dst_maxd(scale, acc);
        }
    }
    c->scale = scale;
    c->deg = 0;
    for (int p = 0; p < 4; ++p) c->deg = pts[p]->degree > c->deg ? pts[p]->degree : c->deg;
    for (int k = 0; k <= DST_MAX_DEGREE; ++k) {
        for (int p = 0; p < 4; ++p) {
            for (int x = 0; x < 3; ++x) c->coef[k][x][p] = k <= pts[p]->degree ? pts[p]->c[k][x] : 0.0;
        }
    }
    c->widen = DST_ROUND_REL * (scale + c->rsum);
    c->max_steps = o->max_iter;
    c->evals = 0;
    c->steps = 0;
    c->m = -1;
    c->vwiden = 0.0;
    c->best_hi = INFINITY;
    c->best_s = 0.0;
    memset(&c->best, 0, sizeof c->best);
    return DST_OK;
}

/* The certified lower bound of the true distance from a certified nominal lower bound
 * lo: the true shapes are within errsum of the polynomial ones (a segment point is a
 * convex combination of its endpoints), so the true distance is >= nominal - errsum. */
static double mcd_true_lower(const McdCtx *c, double lo)
{
    lo = dst_maxd(lo, -c->rsum - c->widen);
    return (lo - c->errsum) - DST_ROUND_REL * (fabs(lo) + c->errsum);
}

/* Fill the result from the best evaluation and the certified nominal lower bound lo. */
static DstStatus mcd_finish(const McdCtx *c, double t0, double t1, double lo, double eps, DstStatus status,
                            DstMcdResult *out)
{
    const DstSegPair *sp = &c->best;
    double T = t1 - t0;
    out->upper = c->best_hi;
    out->t_min = dst_mind(t1, t0 + c->best_s * T);
    out->sA = sp->s;
    out->sB = sp->t;
    for (int i = 0; i < 3; ++i) {
        out->cA[i] = sp->cp[i];
        out->cB[i] = sp->cq[i];
        out->n[i] = sp->n[i];
        out->pA[i] = sp->cp[i] - c->a->radius * sp->n[i];
        out->pB[i] = sp->cq[i] + c->b->radius * sp->n[i];
    }
    out->lower = mcd_true_lower(c, lo);
    if (out->lower > out->upper) out->lower = out->upper; /* cannot happen in exact arithmetic */
    out->distance_evals = c->evals;
    out->advance_steps = c->steps;
    if (status == DST_CERTIFIED && !(out->upper - out->lower <= eps)) status = DST_NOT_CERTIFIED;
    out->status = status;
    return status;
}

/* nominal eps the searches aim at: eps less the enclosure radii and a rounding slack */
static double mcd_eps_nominal(const McdCtx *c, double eps)
{
    double e = eps - c->errsum - DST_MCD_EPS_SLACK * eps;
    return e > 0.0 ? e : 0.5 * eps; /* enclosure alone too wide: best effort, not certified */
}

/* Golden-section search MCD, thesis sec. III.B, Fig. 3.3. */
DstStatus dst_capsule_mcd_gss(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                              const DstMcdOptions *opt, DstMcdResult *out)
{
    McdCtx c;
    DstMcdOptions o;
    McdEval e;
    if (mcd_setup(&c, a, b, t0, t1, opt, &o, out) != DST_OK) return out->status;
    double T = t1 - t0;
    /* the least of f(t0), f(t1) and the search (thesis: f(b) need not beat the ends) */
    mcd_eval(&c, 0.0, &e);
    if (T > 0.0) {
        mcd_eval(&c, 1.0, &e);
        mcd_gss(&c, 0.0, 1.0, 0.0, 0.0, o.tau / T, -1.0, o.max_iter);
    }
    return mcd_finish(&c, t0, t1, -c.rsum, o.eps, DST_NOT_CERTIFIED, out);
}

/* Conservative-advancement MCD: Algorithm 3.1 (FindMinDistCA) with the branches as the
 * text of sec. III.C.2 states them, eq. (3.4) steps, Lemma 3.1. */
DstStatus dst_capsule_mcd_ca(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                             const DstMcdOptions *opt, DstMcdResult *out)
{
    McdCtx c;
    DstMcdOptions o;
    McdEval e0, e1;
    if (mcd_setup(&c, a, b, t0, t1, opt, &o, out) != DST_OK) return out->status;
    mcd_eval(&c, 0.0, &e0);
    if (!(t1 > t0)) return mcd_finish(&c, t0, t1, e0.lo, o.eps, DST_CERTIFIED, out);
    mcd_eval(&c, 1.0, &e1);
    mcd_prepare_bernstein(&c);
    double eps_nom = mcd_eps_nominal(&c, o.eps);

    /* line 1-2: d0 = -(rA + rB), d1 = min of the end values */
    double d0 = -c.rsum, d1 = c.best_hi;
    /* [0, s_a) is certified >= level_a: the advancement resumes at s_a for lower levels */
    double s_a = 0.0, level_a = -INFINITY;
    McdEval e_a = e0;
    DstStatus status = DST_CERTIFIED;
    while (d1 - d0 > eps_nom) {
        double d2 = 0.5 * (d0 + d1);
        double reach = DST_CA_REACH_FRACTION * (d1 - d0);
        double start = (s_a > 0.0 && d2 <= level_a) ? s_a : 0.0;
        McdAdv v;
        mcd_adv_init(&c, &v, start, +1, 1.0 - start, start == s_a ? &e_a : &e0);
        int r;
        while ((r = mcd_adv_step(&c, &v, 1.0, d2, reach)) == ADV_MOVED) {
        }
        if (r == ADV_REACHED) {
            /* delta = d2 is reached at t2 (within `reach`): MCD in [d0, delta(t2)], resume at t2 */
            s_a = v.s;
            e_a = v.e;
            level_a = d2;
            if (!(c.best_hi < d1)) { /* no progress is possible in floating point */
                status = DST_ITER_LIMIT;
                break;
            }
            d1 = c.best_hi;
        } else if (r == ADV_DONE) {
            /* not reached anywhere: delta > d2 on [t0, t1], MCD in [d2, d1] */
            d0 = d2;
        } else {
            status = DST_ITER_LIMIT;
            break;
        }
    }
    return mcd_finish(&c, t0, t1, d0, o.eps, status, out);
}

/* The hybrid's early stop (DstMcdOptions.stop_above, docs/math/capsule_mcd.md sec. 6):
 * forward and backward advancement (eq. 3.4) from the two ends toward the nominal level
 * whose certified bound (mcd_true_lower) is at least stop_above, as the hybrid's own
 * advancement toward upper - eps. Returns 1 with *lo = that level when the two meet
 * without reaching it (the whole interval is certified above it); else 0, and the search
 * goes on as without the option, with a step budget of its own. */
static int hybrid_above(McdCtx *c, const McdEval *e0, const McdEval *e1, double stop_above, int max_iter,
                        int *prepared, double *lo)
{
    double level = stop_above + c->errsum;
    level += 4.0 * DST_ROUND_REL * (fabs(level) + c->errsum);
    if (!(mcd_true_lower(c, level) >= stop_above) || !(e0->lo > level) || !(e1->lo > level)) return 0;
    if (!*prepared) {
        mcd_prepare_bernstein(c);
        *prepared = 1;
    }
    McdAdv f, g;
    mcd_adv_init(c, &f, 0.0, +1, 1.0, e0);
    mcd_adv_init(c, &g, 1.0, -1, 1.0, e1);
    int rf, rg = ADV_MOVED;
    for (;;) {
        rf = mcd_adv_step(c, &f, g.s, level, 0.0);
        if (rf != ADV_MOVED) break;
        rg = mcd_adv_step(c, &g, f.s, level, 0.0);
        if (rg != ADV_MOVED) break;
    }
    if (rf == ADV_DONE || rg == ADV_DONE) {
        *lo = level;
        return 1;
    }
    c->max_steps = c->steps + max_iter; /* the search's own budget */
    return 0;
}

/* Hybrid MCD, thesis sec. III.D, Fig. 3.6: golden-section search for the upper bound,
 * forward and backward advancement (eq. 3.4) toward upper - eps for the certificate,
 * narrowing the time range whenever the level is reached. */
DstStatus dst_capsule_mcd_hybrid(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                                 const DstMcdOptions *opt, DstMcdResult *out)
{
    McdCtx c;
    DstMcdOptions o;
    McdEval e0, e1;
    if (mcd_setup(&c, a, b, t0, t1, opt, &o, out) != DST_OK) return out->status;
    mcd_eval(&c, 0.0, &e0);
    if (!(t1 > t0)) return mcd_finish(&c, t0, t1, e0.lo, o.eps, DST_CERTIFIED, out);
    mcd_eval(&c, 1.0, &e1);
    double T = t1 - t0, tau_s = o.tau / T;
    double eps_nom = mcd_eps_nominal(&c, o.eps);
    double reach = DST_HYBRID_REACH_FRACTION * eps_nom;
    double lo = -c.rsum;
    double sa = 0.0, sb = 1.0; /* outside [sa, sb] the distance is certified >= every later target */
    McdEval ea = e0, eb = e1;
    DstStatus status = DST_CERTIFIED;
    double flat = DST_HYBRID_GSS_FLAT_FRACTION * eps_nom;
    int prepared = 0;
    if (o.stop_above < INFINITY && hybrid_above(&c, &e0, &e1, o.stop_above, o.max_iter, &prepared, &lo)) {
        return mcd_finish(&c, t0, t1, lo, o.eps, DST_ABOVE_LIMIT, out);
    }
    int gss_iter = mcd_gss(&c, sa, sb, e0.hi, e1.hi, tau_s, flat, o.max_iter);
    double prev_hi = INFINITY;
    for (;;) {
        double target = c.best_hi - eps_nom;
        if (target <= lo) break; /* the trivial bound -(rA + rB) is within eps already */
        if (!prepared) {
            mcd_prepare_bernstein(&c);
            prepared = 1;
        }
        McdAdv f, g;
        mcd_adv_init(&c, &f, sa, +1, sb - sa, &ea);
        mcd_adv_init(&c, &g, sb, -1, sb - sa, &eb);
        int rf = ADV_MOVED, rg = ADV_MOVED;
        /* alternate forward and backward steps until they meet or one reaches the level */
        for (;;) {
            rf = mcd_adv_step(&c, &f, g.s, target, reach);
            if (rf != ADV_MOVED) break;
            rg = mcd_adv_step(&c, &g, f.s, target, reach);
            if (rg != ADV_MOVED) break;
        }
        if (rf == ADV_DONE || rg == ADV_DONE) {
            lo = target; /* delta > upper - eps on all of [t0, t1] */
            break;
        }
        if (rf == ADV_CAP || rg == ADV_CAP) {
            status = DST_ITER_LIMIT;
            break;
        }
        /* reached: a lower value exists in [f.s, g.s]; search it there and try again */
        if (!(c.best_hi < prev_hi)) { /* no progress is possible in floating point */
            status = DST_ITER_LIMIT;
            break;
        }
        prev_hi = c.best_hi;
        sa = f.s;
        sb = g.s;
        ea = f.e;
        eb = g.e;
        if (sb - sa > 0.0 && gss_iter < o.max_iter) {
            gss_iter += mcd_gss(&c, sa, sb, ea.hi, eb.hi, tau_s, flat, o.max_iter - gss_iter);
        }
    }
    return mcd_finish(&c, t0, t1, lo, o.eps, status, out);
}

/* Certified sampling, thesis eq. (6.3): n samples with spacing h from the Lipschitz
 * bound mu of the distance; between two samples the distance is
 * >= (d_k + d_{k+1} - mu h)/2 (docs/math/capsule_mcd.md [13]-[14]). */
DstStatus dst_capsule_mcd_sampling(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                                   const DstMcdOptions *opt, DstMcdResult *out)
{
    McdCtx c;
    DstMcdOptions o;
    McdEval e;
    if (mcd_setup(&c, a, b, t0, t1, opt, &o, out) != DST_OK) return out->status;
    mcd_eval_sample(&c, 0.0, &e);
    if (!(t1 > t0)) return mcd_finish(&c, t0, t1, e.lo, o.eps, DST_CERTIFIED, out);
    mcd_prepare_bernstein(&c);
    double eps_nom = mcd_eps_nominal(&c, o.eps);
    /* Lipschitz constant of the segment distance per unit s: max_ij max_s |q_j' - p_i'| */
    double mu = 0.0;
    if (c.m >= 0) {
        for (int k = 0; k < 4; ++k) {
            for (int l = 0; l <= c.m; ++l) {
                double w[3] = {c.vb[l][0][k], c.vb[l][1][k], c.vb[l][2][k]};
                mu = dst_maxd(mu, sqrt(dst_dot3(w, w)));
            }
        }
        mu = mu * (1.0 + DST_ROUND_REL) + c.vwiden;
    }
    DstStatus status = DST_CERTIFIED;
    /* eq. (6.3): n intervals with (t1 - t0) mu / n <= eps (mu here is already per unit s) */
    double want = mu > 0.0 ? ceil(mu / (DST_SAMPLING_EPS_FRACTION * eps_nom)) : 1.0;
    long n = 1;
    if (!(want < (double)o.max_samples)) {
        n = o.max_samples - 1;
        status = DST_ITER_LIMIT;
    } else {
        n = (long)want;
        if (n < 1) n = 1;
    }
    double h = (1.0 / (double)n) * (1.0 + 4.0 * DBL_EPSILON); /* >= every computed spacing */
    double lo = INFINITY, prev = e.lo;
    for (long k = 1; k <= n; ++k) {
        double s = k == n ? 1.0 : (double)k / (double)n;
        mcd_eval_sample(&c, s, &e);
        lo = dst_mind(lo, 0.5 * (prev + e.lo - mu * h));
        prev = e.lo;
    }
    lo -= DST_ROUND_REL * (fabs(lo) + c.rsum);
    return mcd_finish(&c, t0, t1, lo, o.eps, status, out);
}

/* Dispatch on the method (thesis sec. III.B-D, eq. 6.3). */
DstStatus dst_capsule_mcd(DstMcdMethod method, const DstMovingCapsule *a, const DstMovingCapsule *b,
                          double t0, double t1, const DstMcdOptions *opt, DstMcdResult *out)
{
    switch (method) {
    case DST_MCD_GSS: return dst_capsule_mcd_gss(a, b, t0, t1, opt, out);
    case DST_MCD_CA: return dst_capsule_mcd_ca(a, b, t0, t1, opt, out);
    case DST_MCD_HYBRID: return dst_capsule_mcd_hybrid(a, b, t0, t1, opt, out);
    case DST_MCD_SAMPLING: return dst_capsule_mcd_sampling(a, b, t0, t1, opt, out);
    }
    memset(out, 0, sizeof *out);
    out->status = DST_INVALID_INPUT;
    return out->status;
}
