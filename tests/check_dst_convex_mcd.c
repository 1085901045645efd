/* check_dst_convex_mcd.c — tests of distance/dst_convex_mcd.c.
 * dst_capsule_convex_mcd: a moving capsule against a static box, certified bounds against dense
 * sampling with refinement on random motions (separated, touching, penetrating, several
 * minima), degenerate and invalid input.
 * dst_convex_mcd: two moving convex shapes (hull / box / ellipsoid / capsule / sphere) on
 * random rigid and random polynomial frames, checked against an independent dense reference
 * of both the nominal (rigid, Gram-Schmidt) and the polynomial (affine) shapes with the
 * worst-case enclosure shift; awkward cases (touching at an end, deep penetration, parallel
 * faces, several minima, static pair, zero-length interval); the sampling baseline; bad
 * input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_rng.h"
#include "dst_capsule_testgen.h"
#include "dst_convex_mcd.h"
#include "dst_motion.h"

/* samples of the reference, and golden refinement steps around its local minima */
#define REF_SAMPLES (TG_ASAN ? 600 : 3000)
#define REF_REFINE 60
#define N_MOTIONS (TG_ASAN ? 150 : 1500)
/* slack of the comparisons: rounding of the static distance, m */
#define TOL_ROUND 1e-9

static double static_distance(const DstMovingCapsule *a, const DstConvex *b, double s)
{
    DstMcdResult r;
    DstMovingCapsule frozen = *a;
    /* the capsule frozen at s: a zero-length interval gives the static distance */
    dst_poly_point_eval(&a->p0, s, frozen.p0.c[0]);
    dst_poly_point_eval(&a->p1, s, frozen.p1.c[0]);
    frozen.p0.degree = frozen.p1.degree = 0;
    frozen.p0.err = frozen.p1.err = 0.0;
    ck_assert_int_ne(dst_capsule_convex_mcd(&frozen, b, 0.0, 0.0, NULL, &r), DST_INVALID_INPUT);
    return r.upper;
}

/* dense samples, then golden-section refinement around every discrete local minimum */
static double reference_min(const DstMovingCapsule *a, const DstConvex *b)
{
    static double f[3001];
    double best = HUGE_VAL;
    const double golden = 0.5 * (3.0 - sqrt(5.0));
    for (int i = 0; i <= REF_SAMPLES; ++i) {
        f[i] = static_distance(a, b, (double)i / REF_SAMPLES);
        if (f[i] < best) best = f[i];
    }
    for (int i = 0; i <= REF_SAMPLES; ++i) {
        double lo, hi;
        if ((i > 0 && f[i - 1] < f[i]) || (i < REF_SAMPLES && f[i + 1] < f[i])) continue;
        lo = (double)(i > 0 ? i - 1 : 0) / REF_SAMPLES;
        hi = (double)(i < REF_SAMPLES ? i + 1 : REF_SAMPLES) / REF_SAMPLES;
        for (int it = 0; it < REF_REFINE; ++it) {
            double x1 = lo + golden * (hi - lo), x2 = hi - golden * (hi - lo);
            double f1 = static_distance(a, b, x1), f2 = static_distance(a, b, x2);
            if (f1 < best) best = f1;
            if (f2 < best) best = f2;
            if (f1 < f2) hi = x2;
            else lo = x1;
        }
    }
    return best;
}

/* a box near the capsule's path: centred beside its midpoint at a random s, random
 * orientation and size, at a random clearance from -0.1 m to 0.3 m */
static void random_box(Rng *rng, const DstMovingCapsule *a, DstConvex *box, double rot[9], double pos[3])
{
    double p0[3], p1[3], dir[3], h[3], s = rng_u01(rng);
    dst_poly_point_eval(&a->p0, s, p0);
    dst_poly_point_eval(&a->p1, s, p1);
    for (int k = 0; k < 3; ++k) h[k] = rng_uniform(rng, 0.02, 0.25);
    rng_unit(rng, dir);
    {
        double reach = 0.5 * (h[0] + h[1] + h[2]) + a->radius + rng_uniform(rng, -0.1, 0.3);
        for (int k = 0; k < 3; ++k) pos[k] = 0.5 * (p0[k] + p1[k]) + reach * dir[k];
    }
    rng_rotation(rng, rot);
    *box = dst_convex_box(h[0], h[1], h[2]);
    dst_convex_set_pose(box, rot, pos);
}

START_TEST(test_bounds_against_dense_reference)
{
    TgRng tg = {0x51ab1eULL};
    Rng rng = {0xb0c5ULL};
    DstMcdOptions opt = dst_mcd_options_default();
    int certified = 0, certifiable = 0, penetrating = 0;
    for (int it = 0; it < N_MOTIONS; ++it) {
        DstMovingCapsule a, b;
        DstConvex box;
        DstMcdResult r;
        double rot[9], pos[3], ref;
        DstStatus st;
        tg_realistic_motion(&tg, 0.5, 2 + it % 4, &a, &b);
        random_box(&rng, &a, &box, rot, pos);
        st = dst_capsule_convex_mcd(&a, &box, 1.0, 1.5, &opt, &r);
        ck_assert_msg(st == DST_CERTIFIED || st == DST_NOT_CERTIFIED || st == DST_ITER_LIMIT,
                      "motion %d: status %s", it, dst_status_string(st));
        ck_assert(isfinite(r.lower) && isfinite(r.upper));
        ck_assert(r.t_min >= 1.0 && r.t_min <= 1.5);
        ref = reference_min(&a, &box);
        /* the enclosure radius widens the truth below the polynomial's minimum */
        ck_assert_msg(r.lower <= ref + TOL_ROUND, "motion %d: lower %.9g above the reference %.9g",
                      it, r.lower, ref);
        ck_assert_msg(r.upper >= ref - TOL_ROUND, "motion %d: upper %.9g below the reference %.9g",
                      it, r.upper, ref);
        /* upper is a real distance at t_min */
        ck_assert(fabs(static_distance(&a, &box, (r.t_min - 1.0) / 0.5) - r.upper) < 1e-7);
        /* with enclosures well inside eps the result must be certified */
        if (2.0 * fmax(a.p0.err, a.p1.err) <= opt.eps) {
            ++certifiable;
            certified += st == DST_CERTIFIED;
        }
        if (st == DST_CERTIFIED) {
            ck_assert_msg(r.upper - r.lower <= opt.eps + TOL_ROUND, "motion %d: gap %g", it,
                          r.upper - r.lower);
        }
        penetrating += ref < 0.0;
    }
    /* the workload really has penetration, and certification is the rule */
    ck_assert_int_gt(penetrating, N_MOTIONS / 20);
    ck_assert_int_gt(certifiable, N_MOTIONS / 2);
    ck_assert_msg(certified >= certifiable - certifiable / 100, "%d of %d certified", certified,
                  certifiable);
}
END_TEST

START_TEST(test_still_capsule_is_static_distance)
{
    /* a capsule at rest 0.1 m above a unit box: the MCD is that distance, certified */
    DstMovingCapsule a;
    DstConvex box = dst_convex_box(0.5, 0.5, 0.5);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, o[3] = {0, 0, 0};
    DstMcdResult r;
    memset(&a, 0, sizeof a);
    a.p0.c[0][0] = -0.2, a.p0.c[0][2] = 0.65;
    a.p1.c[0][0] = 0.2, a.p1.c[0][2] = 0.65;
    a.radius = 0.05;
    dst_convex_set_pose(&box, I, o);
    ck_assert_int_eq(dst_capsule_convex_mcd(&a, &box, 0.0, 1.0, NULL, &r), DST_CERTIFIED);
    ck_assert(fabs(r.upper - 0.1) < 1e-9);
    ck_assert(r.lower <= 0.1 && r.lower >= 0.1 - 1e-3);
    ck_assert(fabs(r.n[2] - 1.0) < 1e-9);
}
END_TEST

START_TEST(test_point_capsule_passing_through)
{
    /* a sphere (zero-length capsule) flying straight through a box: deep penetration */
    DstMovingCapsule a;
    DstConvex box = dst_convex_box(0.1, 0.1, 0.1);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, o[3] = {0, 0, 0};
    DstMcdResult r;
    memset(&a, 0, sizeof a);
    a.p0.degree = a.p1.degree = 1;
    a.p0.c[0][0] = a.p1.c[0][0] = -1.0;
    a.p0.c[1][0] = a.p1.c[1][0] = 2.0; /* x from -1 to 1 */
    a.radius = 0.02;
    dst_convex_set_pose(&box, I, o);
    ck_assert_int_ne(dst_capsule_convex_mcd(&a, &box, 0.0, 1.0, NULL, &r), DST_INVALID_INPUT);
    ck_assert(r.lower <= -0.12 + 1e-9); /* the centre passes: depth 0.1 + 0.02 */
    ck_assert(r.upper <= -0.12 + 2e-3);
    ck_assert(fabs(r.t_min - 0.5) < 0.05);
}
END_TEST

START_TEST(test_invalid_input)
{
    DstMovingCapsule a;
    DstConvex box = dst_convex_box(0.1, 0.1, 0.1);
    DstMcdResult r;
    memset(&a, 0, sizeof a);
    a.radius = 0.05;
    ck_assert_int_eq(dst_capsule_convex_mcd(&a, &box, 1.0, 0.0, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_capsule_convex_mcd(&a, &box, 0.0, NAN, NULL, &r), DST_INVALID_INPUT);
    a.p0.c[0][1] = NAN;
    ck_assert_int_eq(dst_capsule_convex_mcd(&a, &box, 0.0, 1.0, NULL, &r), DST_INVALID_INPUT);
    a.p0.c[0][1] = 0.0;
    a.radius = -1.0;
    ck_assert_int_eq(dst_capsule_convex_mcd(&a, &box, 0.0, 1.0, NULL, &r), DST_INVALID_INPUT);
    a.radius = 0.05;
    box = dst_convex_box(-0.1, 0.1, 0.1);
    ck_assert_int_eq(dst_capsule_convex_mcd(&a, &box, 0.0, 1.0, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_capsule_convex_mcd(NULL, &box, 0.0, 1.0, NULL, &r), DST_INVALID_INPUT);
}
END_TEST

/* ======================================================== two moving convex shapes */

#define MC_MOTIONS (TG_ASAN ? 250 : 2000)
#define MC_SAMPLES (TG_ASAN ? 160 : 300)
#define MC_REFINE 40
#define MC_MAX_PTS 64
/* slack of the reference comparisons: the GJK / EPA tolerances on sub-metre shapes, m */
#define MC_TOL 1e-8
/* |upper - nominal distance recomputed at t_min|, m */
#define MC_TOL_VALUE 1e-9
/* the same for an overlap: EPA's bracket when the expansion ends on a repeated vertex, m */
#define MC_TOL_EPA 1e-8
/* share of the certifiable motions (enclosures <= eps / 2) that must certify */
#define MC_CERT_SHARE 0.99
/* a certified gap may exceed eps by rounding only */
#define MC_TOL_GAP 1e-12

/* a test shape and what it owns */
typedef struct McShape {
    DstConvex shape;
    DstHull hull;
    int has_hull;
} McShape;

static void mc_shape_free(McShape *m)
{
    if (m->has_hull) dst_hull_destroy(&m->hull);
    m->has_hull = 0;
}

/* kind 0 hull (points on an ellipsoid, local origin off-centre), 1 box, 2 ellipsoid,
 * 3 capsule, 4 sphere; sizes of robot links (a few cm to 0.3 m) */
static void mc_random_shape(Rng *r, int kind, McShape *m)
{
    memset(m, 0, sizeof *m);
    switch (kind) {
    case 0: {
        double p[MC_MAX_PTS][3], ax[3], off[3];
        int n = 16 + (int)(rng_u01(r) * (MC_MAX_PTS - 16));
        for (int k = 0; k < 3; ++k) ax[k] = rng_uniform(r, 0.04, 0.25), off[k] = rng_uniform(r, -0.05, 0.05);
        for (int i = 0; i < n; ++i) {
            double u[3];
            rng_unit(r, u);
            for (int k = 0; k < 3; ++k) p[i][k] = ax[k] * u[k] + off[k];
        }
        ck_assert_int_eq(dst_hull_build(&p[0][0], n, 0.0, &m->hull, NULL, 0), DST_OK);
        m->has_hull = 1;
        m->shape = dst_hull_convex(&m->hull);
        if (rng_u01(r) < 0.3) m->shape.margin = rng_uniform(r, 0.0, 0.02);
        break;
    }
    case 1:
        m->shape = dst_convex_box(rng_uniform(r, 0.01, 0.25), rng_uniform(r, 0.01, 0.25), rng_uniform(r, 0.005, 0.2));
        if (rng_u01(r) < 0.3) m->shape.margin = rng_uniform(r, 0.0, 0.02);
        break;
    case 2: m->shape = dst_convex_ellipsoid(rng_uniform(r, 0.03, 0.3), rng_uniform(r, 0.03, 0.15), rng_uniform(r, 0.02, 0.1)); break;
    case 3: m->shape = dst_convex_capsule(rng_uniform(r, 0.02, 0.1), rng_uniform(r, 0.0, 0.3)); break;
    default: m->shape = dst_convex_sphere(rng_uniform(r, 0.03, 0.2)); break;
    }
}

/* an independent support of the whole local shape (core plus margin) in body direction v */
static void mc_local_support(const DstConvex *c, const double v[3], double out[3])
{
    double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    out[0] = out[1] = out[2] = 0.0;
    switch (c->kind) {
    case DST_CONVEX_POINTS: {
        int best = 0;
        double bd = -HUGE_VAL;
        for (int i = 0; i < c->nverts; ++i) {
            const double *p = c->verts + 3 * i;
            double dd = p[0] * v[0] + p[1] * v[1] + p[2] * v[2];
            if (dd > bd) bd = dd, best = i;
        }
        memcpy(out, c->verts + 3 * best, 3 * sizeof(double));
        break;
    }
    case DST_CONVEX_CAPSULE: out[2] = v[2] >= 0.0 ? c->half_length : -c->half_length; break;
    case DST_CONVEX_BOX:
        for (int k = 0; k < 3; ++k) out[k] = v[k] >= 0.0 ? c->half[k] : -c->half[k];
        break;
    case DST_CONVEX_ELLIPSOID: {
        double e[3], ne;
        for (int k = 0; k < 3; ++k) e[k] = c->radii[k] * v[k];
        ne = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        for (int k = 0; k < 3; ++k) out[k] = ne > 0.0 ? c->radii[k] * e[k] / ne : 0.0;
        break;
    }
    default: break;
    }
    if (nv > 0.0) {
        for (int k = 0; k < 3; ++k) out[k] += c->margin * v[k] / nv;
    }
}

/* an independent reach: largest |l| over the shape */
static double mc_reach(const DstConvex *c)
{
    double r = 0.0;
    switch (c->kind) {
    case DST_CONVEX_POINTS:
        for (int i = 0; i < c->nverts; ++i) {
            const double *p = c->verts + 3 * i;
            r = fmax(r, sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
        }
        break;
    case DST_CONVEX_CAPSULE: r = c->half_length; break;
    case DST_CONVEX_BOX: r = sqrt(c->half[0] * c->half[0] + c->half[1] * c->half[1] + c->half[2] * c->half[2]); break;
    case DST_CONVEX_ELLIPSOID: r = fmax(c->radii[0], fmax(c->radii[1], c->radii[2])); break;
    default: break;
    }
    return r + c->margin;
}

/* R(s), x(s) of a frame by Horner */
static void mc_frame_at(const DstMovingFrame *f, double s, double R[9], double x[3])
{
    for (int e = 0; e < 9; ++e) {
        R[e] = 0.0;
        for (int k = f->degree; k >= 0; --k) R[e] = R[e] * s + f->R[k][e];
    }
    for (int i = 0; i < 3; ++i) {
        x[i] = 0.0;
        for (int k = f->origin.degree; k >= 0; --k) x[i] = x[i] * s + f->origin.c[k][i];
    }
}

/* Gram-Schmidt of the columns: the nominal rotation; returns |R - Q|_F */
static double mc_gram_schmidt(const double R[9], double Q[9])
{
    double c0[3] = {R[0], R[3], R[6]}, c1[3] = {R[1], R[4], R[7]}, c2[3], n0, n1, p, f = 0.0;
    n0 = sqrt(c0[0] * c0[0] + c0[1] * c0[1] + c0[2] * c0[2]);
    for (int i = 0; i < 3; ++i) c0[i] /= n0;
    p = c0[0] * c1[0] + c0[1] * c1[1] + c0[2] * c1[2];
    for (int i = 0; i < 3; ++i) c1[i] -= p * c0[i];
    n1 = sqrt(c1[0] * c1[0] + c1[1] * c1[1] + c1[2] * c1[2]);
    for (int i = 0; i < 3; ++i) c1[i] /= n1;
    c2[0] = c0[1] * c1[2] - c0[2] * c1[1];
    c2[1] = c0[2] * c1[0] - c0[0] * c1[2];
    c2[2] = c0[0] * c1[1] - c0[1] * c1[0];
    for (int i = 0; i < 3; ++i) Q[3 * i] = c0[i], Q[3 * i + 1] = c1[i], Q[3 * i + 2] = c2[i];
    for (int e = 0; e < 9; ++e) f += (R[e] - Q[e]) * (R[e] - Q[e]);
    return sqrt(f);
}

/* the polynomial (affine) shape x + R K as a custom support (margin inside) */
typedef struct McAffine {
    const DstConvex *shape;
    double R[9], x[3];
} McAffine;

static int mc_affine_support(const void *user, const double dir[3], int hint, double out[3])
{
    const McAffine *m = user;
    double v[3], l[3];
    (void)hint;
    for (int j = 0; j < 3; ++j) v[j] = m->R[j] * dir[0] + m->R[3 + j] * dir[1] + m->R[6 + j] * dir[2];
    mc_local_support(m->shape, v, l);
    for (int i = 0; i < 3; ++i) out[i] = m->x[i] + m->R[3 * i] * l[0] + m->R[3 * i + 1] * l[1] + m->R[3 * i + 2] * l[2];
    return -1;
}

/* the reference: two moving shapes and the largest orthonormalisation deviation seen */
typedef struct McRef {
    const DstMovingConvex *a, *b;
    double dev; /* max over the samples of dev_a r_a + dev_b r_b, m */
} McRef;

/* nominal signed distance at s: Gram-Schmidt placements, static signed distance */
static double mc_nominal(McRef *ref, double s, DstConvexDistance *out)
{
    double Ra[9], xa[3], Rb[9], xb[3], Qa[9], Qb[9], da, db;
    DstConvex A = *ref->a->shape, B = *ref->b->shape;
    DstConvexDistance d;
    mc_frame_at(&ref->a->frame, s, Ra, xa);
    mc_frame_at(&ref->b->frame, s, Rb, xb);
    da = mc_gram_schmidt(Ra, Qa);
    db = mc_gram_schmidt(Rb, Qb);
    ref->dev = fmax(ref->dev, da * mc_reach(&A) + db * mc_reach(&B));
    dst_convex_set_pose(&A, Qa, xa);
    dst_convex_set_pose(&B, Qb, xb);
    ck_assert_int_ne(dst_convex_distance(&A, &B, NULL, NULL, NULL, &d, NULL, 0), DST_FAILED);
    if (out != NULL) *out = d;
    return d.distance;
}

/* signed distance of the polynomial (affine) shapes at s, through custom supports */
static double mc_affine(McRef *ref, double s)
{
    McAffine ua = {ref->a->shape, {0}, {0}}, ub = {ref->b->shape, {0}, {0}};
    DstConvex A = dst_convex_custom(mc_affine_support, &ua), B = dst_convex_custom(mc_affine_support, &ub);
    DstConvexDistance d;
    mc_frame_at(&ref->a->frame, s, ua.R, ua.x);
    mc_frame_at(&ref->b->frame, s, ub.R, ub.x);
    ck_assert_int_ne(dst_convex_distance(&A, &B, NULL, NULL, NULL, &d, NULL, 0), DST_FAILED);
    /* the upper end of the static bracket: the true affine distance does not exceed it, so
     * a lower bound must not either. (EPA on the curved affine images of margins converges
     * slowly and may stop at its cap with a bracket of ~1e-4 m, seen in 12000 stress
     * motions; the nominal check of mc_check covers those shapes exactly.) */
    return fmax(d.distance, d.upper);
}

static double mc_nominal_value(McRef *ref, double s)
{
    return mc_nominal(ref, s, NULL);
}

/* dense samples of f over [0, 1], then golden refinement around every discrete local minimum */
static double mc_ref_min(McRef *ref, double (*f)(McRef *, double))
{
    double v[MC_SAMPLES + 1], best = HUGE_VAL;
    const double golden = 0.5 * (3.0 - sqrt(5.0));
    for (int i = 0; i <= MC_SAMPLES; ++i) {
        v[i] = f(ref, (double)i / MC_SAMPLES);
        best = fmin(best, v[i]);
    }
    for (int i = 0; i <= MC_SAMPLES; ++i) {
        double lo, hi;
        if ((i > 0 && v[i - 1] < v[i]) || (i < MC_SAMPLES && v[i + 1] < v[i])) continue;
        if ((i > 0 && v[i - 1] == v[i])) continue; /* plateaus: once */
        lo = (double)(i > 0 ? i - 1 : 0) / MC_SAMPLES;
        hi = (double)(i < MC_SAMPLES ? i + 1 : MC_SAMPLES) / MC_SAMPLES;
        for (int it = 0; it < MC_REFINE; ++it) {
            double x1 = lo + golden * (hi - lo), x2 = hi - golden * (hi - lo);
            double f1 = f(ref, x1), f2 = f(ref, x2);
            best = fmin(best, fmin(f1, f2));
            if (f1 < f2) hi = x2;
            else lo = x1;
        }
    }
    return best;
}

/* a frame of an HRP-2-like link over one span: rigid motion between two poses (turn up to
 * `turn` rad, travel up to 0.4 m), optionally made a general polynomial frame (perturbed
 * rotation coefficients, a wiggling origin, nonzero R_err and origin.err) */
static void mc_random_frame(Rng *r, double turn, int polynomial, DstMovingFrame *f)
{
    double R0[9], R1[9], Rr[9], k[3], x0[3], x1[3], dir[3];
    int degree = 3 + (int)(rng_u01(r) * 5.0);
    rng_rotation(r, R0);
    rng_unit(r, k);
    tg_rot(k, rng_uniform(r, 0.0, turn), Rr);
    tg_matmul(Rr, R0, R1);
    rng_unit(r, dir);
    for (int i = 0; i < 3; ++i) {
        x0[i] = rng_uniform(r, -0.3, 0.3);
        x1[i] = x0[i] + rng_uniform(r, 0.0, 0.4) * dir[i];
    }
    ck_assert_int_eq(dst_moving_frame_from_poses(R0, x0, R1, x1, degree, f), DST_OK);
    if (!polynomial) return;
    {
        double amp = rng_uniform(r, 0.0, 1e-3), wig = rng_uniform(r, 0.0, 0.08);
        int dr = f->degree < 2 ? 2 : f->degree, dx = 2 + (int)(rng_u01(r) * 4.0);
        for (int kk = f->degree + 1; kk <= dr; ++kk) memset(f->R[kk], 0, sizeof f->R[kk]);
        f->degree = dr;
        for (int kk = 1; kk <= dr; ++kk) {
            for (int e = 0; e < 9; ++e) f->R[kk][e] += amp * rng_uniform(r, -1.0, 1.0);
        }
        f->R_err += rng_uniform(r, 0.0, 2e-4);
        if (dx > f->origin.degree) {
            for (int kk = f->origin.degree + 1; kk <= dx; ++kk) memset(f->origin.c[kk], 0, sizeof f->origin.c[kk]);
            f->origin.degree = dx;
        }
        for (int kk = 2; kk <= dx; ++kk) {
            for (int i = 0; i < 3; ++i) f->origin.c[kk][i] += wig * rng_uniform(r, -1.0, 1.0);
        }
        f->origin.err += rng_uniform(r, 0.0, 3e-4);
    }
}

/* shift b's frame so that at a random s the two origins are `gap` apart along a random
 * direction */
static void mc_place_near(Rng *r, const DstMovingFrame *fa, DstMovingFrame *fb, double gap)
{
    double s = rng_u01(r), Ra[9], xa[3], Rb[9], xb[3], dir[3];
    mc_frame_at(fa, s, Ra, xa);
    mc_frame_at(fb, s, Rb, xb);
    rng_unit(r, dir);
    for (int i = 0; i < 3; ++i) fb->origin.c[0][i] += xa[i] + gap * dir[i] - xb[i];
}

/* the checks every result must pass against the reference; returns the enclosure E */
static double mc_check(const DstMovingConvex *a, const DstMovingConvex *b, double t0, double t1,
                       const DstMcdResult *r, const DstMcdOptions *opt, int label, double *ref_min_out)
{
    McRef ref = {a, b, 0.0};
    double enc = a->frame.origin.err + a->frame.R_err * mc_reach(a->shape) + b->frame.origin.err +
                 b->frame.R_err * mc_reach(b->shape);
    double min_aff, min_nom, s_min, again, nn;
    DstConvexDistance at;
    ck_assert_msg(r->status == DST_CERTIFIED || r->status == DST_NOT_CERTIFIED || r->status == DST_ITER_LIMIT,
                  "case %d: status %s", label, dst_status_string(r->status));
    ck_assert_msg(isfinite(r->lower) && isfinite(r->upper) && r->lower <= r->upper, "case %d: bounds %g %g",
                  label, r->lower, r->upper);
    ck_assert_msg(r->t_min >= t0 && r->t_min <= t1, "case %d: t_min %g", label, r->t_min);
    min_aff = mc_ref_min(&ref, mc_affine);
    min_nom = mc_ref_min(&ref, mc_nominal_value);
    /* lower bounds the truth: the polynomial shapes shifted by the worst-case enclosure */
    ck_assert_msg(r->lower <= min_aff - enc + MC_TOL, "case %d: lower %.12g above min(affine) %.12g - enclosure %.3g",
                  label, r->lower, min_aff, enc);
    ck_assert_msg(r->lower <= min_nom - enc + ref.dev + MC_TOL,
                  "case %d: lower %.12g above min(nominal) %.12g - enclosure %.3g + dev %.3g", label, r->lower,
                  min_nom, enc, ref.dev);
    /* upper is the nominal distance at t_min, never below the nominal minimum */
    ck_assert_msg(r->upper >= min_nom - MC_TOL, "case %d: upper %.12g below min(nominal) %.12g", label, r->upper,
                  min_nom);
    s_min = t1 > t0 ? (r->t_min - t0) / (t1 - t0) : 0.0;
    again = mc_nominal(&ref, s_min, &at);
    /* (within the static solver's own bracket: EPA stops at a relative 1e-9 of the depth, or
     * earlier, with a wider bracket, when its expansion meets a repeated vertex: seen once in
     * 12000 stress motions at 1.2e-9 m) */
    ck_assert_msg(fabs(again - r->upper) <= (r->upper < 0.0 ? MC_TOL_EPA : MC_TOL_VALUE) + 2.0 * (at.upper - at.lower),
                  "case %d: upper %.12g but nominal at t_min %.12g", label, r->upper, again);
    /* witnesses: unit normal from b to a, pA - pB = upper n */
    nn = sqrt(r->n[0] * r->n[0] + r->n[1] * r->n[1] + r->n[2] * r->n[2]);
    ck_assert_msg(fabs(nn - 1.0) < 1e-9, "case %d: |n| = %g", label, nn);
    for (int k = 0; k < 3; ++k) {
        ck_assert_msg(fabs(r->pA[k] - r->pB[k] - r->upper * r->n[k]) < 1e-7, "case %d: witnesses", label);
    }
    if (r->status == DST_CERTIFIED) {
        ck_assert_msg(r->upper - r->lower <= opt->eps * (1.0 + MC_TOL_GAP), "case %d: certified gap %g", label,
                      r->upper - r->lower);
    }
    if (ref_min_out != NULL) *ref_min_out = min_nom;
    return enc;
}

START_TEST(test_moving_convex_random)
{
    Rng rng = {0xc0417e8ULL};
    DstMcdOptions opt = dst_mcd_options_default();
    int certified = 0, certifiable = 0, penetrating = 0, kinds[5][5] = {{0}};
    long steps = 0, evals = 0;
    DstGjkCache cache;
    for (int it = 0; it < MC_MOTIONS; ++it) {
        McShape sa, sb;
        DstMovingConvex A, B;
        DstMcdResult r;
        double T = rng_uniform(&rng, 0.05, 0.5), enc, ref_min;
        int ka = it % 5, kb = (it / 5) % 5, poly = it % 3 == 2;
        mc_random_shape(&rng, ka, &sa);
        mc_random_shape(&rng, kb, &sb);
        A.shape = &sa.shape, B.shape = &sb.shape;
        mc_random_frame(&rng, it % 7 == 0 ? 2.5 : 1.0, poly, &A.frame);
        mc_random_frame(&rng, it % 4 == 0 ? 0.0 : 0.6, poly && it % 2, &B.frame);
        if (it % 11 == 0) {
            double R0[9], x0[3];
            memcpy(R0, B.frame.R[0], sizeof R0);
            memcpy(x0, B.frame.origin.c[0], sizeof x0);
            dst_moving_frame_static(R0, x0, &B.frame);
        }
        mc_place_near(&rng, &A.frame, &B.frame, (mc_reach(A.shape) + mc_reach(B.shape)) * rng_uniform(&rng, 0.2, 1.3));
        dst_gjk_cache_reset(&cache);
        dst_convex_mcd(&A, &B, 1.0, 1.0 + T, &opt, it % 2 ? &cache : NULL, &r);
        enc = mc_check(&A, &B, 1.0, 1.0 + T, &r, &opt, it, &ref_min);
        if (enc <= 0.5 * opt.eps) {
            ++certifiable;
            certified += r.status == DST_CERTIFIED;
        }
        penetrating += ref_min < 0.0;
        steps += r.advance_steps;
        evals += r.distance_evals;
        ++kinds[ka][kb];
        mc_shape_free(&sa);
        mc_shape_free(&sb);
    }
    /* the workload covers every pair of kinds, really penetrates, and certifies */
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) ck_assert_int_gt(kinds[i][j], 0);
    }
    ck_assert_int_gt(penetrating, MC_MOTIONS / 10);
    ck_assert_int_gt(certifiable, MC_MOTIONS / 3);
    ck_assert_msg(certified >= MC_CERT_SHARE * certifiable, "%d of %d certifiable motions certified", certified,
                  certifiable);
    ck_assert_msg(evals < 200L * MC_MOTIONS, "mean %g evaluations, %g steps", (double)evals / MC_MOTIONS,
                  (double)steps / MC_MOTIONS);
}
END_TEST

/* a box comes down on a box and touches it exactly at the end of the interval */
START_TEST(test_moving_convex_touching_at_end)
{
    DstConvex ba = dst_convex_box(0.1, 0.15, 0.1), bb = dst_convex_box(0.3, 0.3, 0.1);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, x0[3] = {0.05, 0.0, 0.5}, x1[3] = {0.0, 0.02, 0.2}, o[3] = {0, 0, 0};
    DstMovingConvex A = {&ba, {0}}, B = {&bb, {0}};
    DstMcdOptions opt = dst_mcd_options_default();
    DstMcdResult r;
    ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, I, x1, 3, &A.frame), DST_OK);
    dst_moving_frame_static(I, o, &B.frame);
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 0.3, &opt, NULL, &r), DST_CERTIFIED);
    mc_check(&A, &B, 0.0, 0.3, &r, &opt, -1, NULL);
    ck_assert(fabs(r.upper) < MC_TOL);
    ck_assert(r.lower <= 0.0 && r.lower >= -opt.eps);
    ck_assert(fabs(r.t_min - 0.3) < 1e-12);
    ck_assert(fabs(r.n[2] - 1.0) < 1e-9);
    /* a rotating hull whose vertex reaches the plane of a box at the end */
    {
        Rng rng = {0x70c4ULL};
        McShape h;
        double Rr[9], k[3] = {0.0, 0.0, 1.0}, Ra[9], xa[3], Q[9];
        mc_random_shape(&rng, 0, &h);
        A.shape = &h.shape;
        tg_rot(k, 0.8, Rr);
        ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, Rr, x1, 6, &A.frame), DST_OK);
        /* lift the end so that the lowest vertex of the nominal placement sits on z = 0.1 */
        mc_frame_at(&A.frame, 1.0, Ra, xa);
        mc_gram_schmidt(Ra, Q);
        {
            double lowest = HUGE_VAL;
            for (int i = 0; i < h.shape.nverts; ++i) {
                const double *v = h.shape.verts + 3 * i;
                lowest = fmin(lowest, xa[2] + Q[6] * v[0] + Q[7] * v[1] + Q[8] * v[2] - h.shape.margin);
            }
            A.frame.origin.c[1][2] += 0.1 - lowest; /* a linear term: s = 0 stays */
        }
        dst_convex_mcd(&A, &B, 0.0, 0.3, &opt, NULL, &r);
        mc_check(&A, &B, 0.0, 0.3, &r, &opt, -2, NULL);
        ck_assert(fabs(r.upper) < 1e-7);
        mc_shape_free(&h);
    }
}
END_TEST

/* a sphere and a hull fly through a box: deep penetration in the middle of the interval */
START_TEST(test_moving_convex_deep_penetration)
{
    Rng rng = {0xdee9ULL};
    McShape h;
    DstConvex ball = dst_convex_sphere(0.05), box = dst_convex_box(0.2, 0.2, 0.2);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, x0[3] = {-0.6, 0.0, 0.0}, x1[3] = {0.6, 0.0, 0.0}, o[3] = {0, 0, 0};
    DstMovingConvex A = {&ball, {0}}, B = {&box, {0}};
    DstMcdOptions opt = dst_mcd_options_default();
    DstMcdResult r;
    ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, I, x1, 2, &A.frame), DST_OK);
    dst_moving_frame_static(I, o, &B.frame);
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r), DST_CERTIFIED);
    mc_check(&A, &B, 0.0, 1.0, &r, &opt, -3, NULL);
    ck_assert(fabs(r.upper + 0.25) < opt.eps); /* centre through the centre: depth 0.2 + 0.05 */
    ck_assert(fabs(r.t_min - 0.5) < 0.05);
    /* a turning hull through a moving box */
    mc_random_shape(&rng, 0, &h);
    A.shape = &h.shape;
    {
        double Rr[9], k[3] = {0.3, 0.4, 0.866};
        double nk = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
        for (int i = 0; i < 3; ++i) k[i] /= nk;
        tg_rot(k, 1.2, Rr);
        ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, Rr, x1, 5, &A.frame), DST_OK);
        ck_assert_int_eq(dst_moving_frame_from_poses(Rr, o, I, x0, 5, &B.frame), DST_OK);
        B.frame.origin = A.frame.origin;
        for (int i = 0; i < 3; ++i) B.frame.origin.c[1][i] = -A.frame.origin.c[1][i], B.frame.origin.c[0][i] = -A.frame.origin.c[0][i];
    }
    dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r);
    mc_check(&A, &B, 0.0, 1.0, &r, &opt, -4, NULL);
    ck_assert(r.upper < -0.1);
    mc_shape_free(&h);
}
END_TEST

/* a box slides over a box with parallel faces 1 cm apart: the distance is constant */
START_TEST(test_moving_convex_parallel_faces)
{
    DstConvex ba = dst_convex_box(0.1, 0.1, 0.1), bb = dst_convex_box(0.3, 0.3, 0.1);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, x0[3] = {-0.2, 0.1, 0.21}, x1[3] = {0.2, -0.1, 0.21}, o[3] = {0, 0, 0};
    DstMovingConvex A = {&ba, {0}}, B = {&bb, {0}};
    DstMcdOptions opt = dst_mcd_options_default();
    DstMcdResult r;
    ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, I, x1, 4, &A.frame), DST_OK);
    dst_moving_frame_static(I, o, &B.frame);
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r), DST_CERTIFIED);
    mc_check(&A, &B, 0.0, 1.0, &r, &opt, -5, NULL);
    ck_assert(fabs(r.upper - 0.01) < 1e-9);
    ck_assert(r.lower <= 0.01 && r.lower >= 0.01 - opt.eps);
    /* both move together (relative rest) while turning: still constant */
    ck_assert_int_eq(dst_moving_frame_from_poses(I, o, I, x1, 4, &B.frame), DST_OK);
    for (int k = 0; k <= B.frame.origin.degree; ++k) {
        for (int i = 0; i < 3; ++i) A.frame.origin.c[k][i] = B.frame.origin.c[k][i] + (k == 0 && i == 2 ? 0.21 : 0.0);
    }
    A.frame.origin.degree = B.frame.origin.degree;
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r), DST_CERTIFIED);
    mc_check(&A, &B, 0.0, 1.0, &r, &opt, -6, NULL);
    ck_assert(fabs(r.upper - 0.01) < 1e-9);
}
END_TEST

/* an elongated ellipsoid turning above an elongated box along a path with two dips; the
 * second is deeper by 2 eps (tilt / 2): the search must find it whichever GSS picks */
START_TEST(test_moving_convex_several_minima)
{
    DstConvex el = dst_convex_ellipsoid(0.35, 0.03, 0.03), rod = dst_convex_box(0.4, 0.02, 0.02);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Rr[9], k[3] = {0.0, 0.0, 1.0}, o[3] = {0, 0, 0}, ref;
    DstMovingConvex A = {&el, {0}}, B = {&rod, {0}};
    DstMcdOptions opt = dst_mcd_options_default();
    DstMcdResult r;
    for (int variant = 0; variant < 4; ++variant) {
        double tilt = variant % 2 ? 4e-3 : -4e-3, turn = variant < 2 ? 3.0 : 1.5;
        tg_rot(k, turn, Rr);
        ck_assert_int_eq(dst_moving_frame_from_poses(I, o, Rr, o, 7, &A.frame), DST_OK);
        /* z(s) = 0.1 + 8 (s - 1/4)^2 (s - 3/4)^2 + tilt s, expanded */
        memset(&A.frame.origin, 0, sizeof A.frame.origin);
        A.frame.origin.degree = 4;
        A.frame.origin.c[0][2] = 0.1 + 8.0 * 0.03515625;
        A.frame.origin.c[1][2] = 8.0 * -0.375 + tilt;
        A.frame.origin.c[2][2] = 8.0 * 1.375;
        A.frame.origin.c[3][2] = 8.0 * -2.0;
        A.frame.origin.c[4][2] = 8.0;
        A.frame.origin.c[0][0] = 0.05, A.frame.origin.c[1][0] = 0.02;
        dst_moving_frame_static(I, o, &B.frame);
        dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r);
        mc_check(&A, &B, 0.0, 1.0, &r, &opt, -10 - variant, &ref);
        if (A.frame.R_err * 0.35 < 0.25 * opt.eps) ck_assert_int_eq(r.status, DST_CERTIFIED);
        ck_assert_msg(r.upper - ref <= opt.eps, "variant %d: upper %g, reference %g", variant, r.upper, ref);
        ck_assert_msg(fabs(r.t_min - (tilt < 0.0 ? 0.75 : 0.25)) < 0.1, "variant %d: t_min %g [%g %g] %s", variant,
                      r.t_min, r.lower, r.upper, dst_status_string(r.status));
    }
}
END_TEST

/* two shapes at rest: the static distance, certified with one or two evaluations */
START_TEST(test_moving_convex_static_pair)
{
    Rng rng = {0x57a71cULL};
    for (int it = 0; it < 25; ++it) {
        McShape sa, sb;
        DstMovingConvex A, B;
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult r;
        double Ra[9], Rb[9], xa[3] = {0, 0, 0}, xb[3], dir[3];
        mc_random_shape(&rng, it % 5, &sa);
        mc_random_shape(&rng, (it / 5) % 5, &sb);
        A.shape = &sa.shape, B.shape = &sb.shape;
        rng_rotation(&rng, Ra);
        rng_rotation(&rng, Rb);
        rng_unit(&rng, dir);
        for (int i = 0; i < 3; ++i) xb[i] = dir[i] * (mc_reach(&sa.shape) + mc_reach(&sb.shape)) * rng_uniform(&rng, 0.3, 1.2);
        dst_moving_frame_static(Ra, xa, &A.frame);
        dst_moving_frame_static(Rb, xb, &B.frame);
        ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 2.0, &opt, NULL, &r), DST_CERTIFIED);
        mc_check(&A, &B, 0.0, 2.0, &r, &opt, -20 - it, NULL);
        ck_assert_int_le(r.distance_evals, 2);
        ck_assert_msg(r.upper - r.lower < 1e-6, "static %d: [%.12g, %.12g]", it, r.lower, r.upper);
        mc_shape_free(&sa);
        mc_shape_free(&sb);
    }
}
END_TEST

/* t0 == t1: the static distance at s = 0 */
START_TEST(test_moving_convex_zero_length)
{
    Rng rng = {0x2e50ULL};
    for (int it = 0; it < 25; ++it) {
        McShape sa, sb;
        DstMovingConvex A, B;
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult r;
        DstConvexDistance d;
        McRef ref;
        mc_random_shape(&rng, it % 5, &sa);
        mc_random_shape(&rng, (it / 5) % 5, &sb);
        A.shape = &sa.shape, B.shape = &sb.shape;
        mc_random_frame(&rng, 1.0, 0, &A.frame);
        mc_random_frame(&rng, 1.0, 0, &B.frame);
        mc_place_near(&rng, &A.frame, &B.frame, mc_reach(A.shape) + mc_reach(B.shape));
        ref.a = &A, ref.b = &B, ref.dev = 0.0;
        dst_convex_mcd(&A, &B, 3.0, 3.0, &opt, NULL, &r);
        ck_assert(r.status == DST_CERTIFIED || r.status == DST_NOT_CERTIFIED);
        ck_assert(r.t_min == 3.0);
        ck_assert(fabs(mc_nominal(&ref, 0.0, &d) - r.upper) <= MC_TOL_VALUE);
        ck_assert(r.lower <= mc_affine(&ref, 0.0) - A.frame.origin.err - B.frame.origin.err + MC_TOL);
        if (A.frame.R_err * mc_reach(A.shape) + B.frame.R_err * mc_reach(B.shape) + A.frame.origin.err +
                B.frame.origin.err < 0.5 * opt.eps) {
            ck_assert_int_eq(r.status, DST_CERTIFIED);
        }
        ck_assert_int_eq(r.distance_evals, 1);
        mc_shape_free(&sa);
        mc_shape_free(&sb);
    }
}
END_TEST

/* the sampling baseline: same contract, and both certified intervals overlap */
START_TEST(test_moving_convex_sampling_agrees)
{
    Rng rng = {0x5a3b1eULL};
    int n = TG_ASAN ? 20 : 120;
    for (int it = 0; it < n; ++it) {
        McShape sa, sb;
        DstMovingConvex A, B;
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult r, q;
        mc_random_shape(&rng, it % 5, &sa);
        mc_random_shape(&rng, (it / 5) % 5, &sb);
        A.shape = &sa.shape, B.shape = &sb.shape;
        mc_random_frame(&rng, 1.0, it % 2, &A.frame);
        mc_random_frame(&rng, 0.5, 0, &B.frame);
        mc_place_near(&rng, &A.frame, &B.frame, (mc_reach(A.shape) + mc_reach(B.shape)) * rng_uniform(&rng, 0.3, 1.2));
        dst_convex_mcd(&A, &B, 0.0, 0.2, &opt, NULL, &r);
        dst_convex_mcd_sampling(&A, &B, 0.0, 0.2, &opt, NULL, &q);
        mc_check(&A, &B, 0.0, 0.2, &q, &opt, 10000 + it, NULL);
        ck_assert(q.lower <= r.upper + MC_TOL && r.lower <= q.upper + MC_TOL);
        if (r.status == DST_CERTIFIED && q.status == DST_CERTIFIED) ck_assert(fabs(r.upper - q.upper) <= opt.eps);
        mc_shape_free(&sa);
        mc_shape_free(&sb);
    }
}
END_TEST

/* a step cap of 1 .. 4 ends the walk early: DST_ITER_LIMIT (or certified), bounds still valid;
 * enclosures larger than eps: DST_NOT_CERTIFIED, bounds still valid */
START_TEST(test_moving_convex_cap_and_enclosure)
{
    Rng rng = {0xca9ULL};
    int limited = 0, uncertified = 0;
    for (int it = 0; it < (TG_ASAN ? 20 : 80); ++it) {
        McShape sa, sb;
        DstMovingConvex A, B;
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult r;
        mc_random_shape(&rng, it % 5, &sa);
        mc_random_shape(&rng, (it / 5) % 5, &sb);
        A.shape = &sa.shape, B.shape = &sb.shape;
        mc_random_frame(&rng, 1.5, 0, &A.frame);
        mc_random_frame(&rng, 1.0, 0, &B.frame);
        mc_place_near(&rng, &A.frame, &B.frame, (mc_reach(A.shape) + mc_reach(B.shape)) * rng_uniform(&rng, 0.3, 1.2));
        if (it % 2 == 0) {
            opt.max_iter = 1 + it % 4;
            dst_convex_mcd(&A, &B, 0.0, 0.5, &opt, NULL, &r);
            mc_check(&A, &B, 0.0, 0.5, &r, &opt, 20000 + it, NULL);
            ck_assert_msg(r.status == DST_ITER_LIMIT || r.status == DST_CERTIFIED, "it %d status %d steps %d evals %d [%g %g]", it, r.status, r.advance_steps, r.distance_evals, r.lower, r.upper);
            ck_assert_int_le(r.advance_steps, opt.max_iter);
            limited += r.status == DST_ITER_LIMIT;
        } else {
            A.frame.origin.err += 2.0 * opt.eps; /* the enclosure alone exceeds eps */
            dst_convex_mcd(&A, &B, 0.0, 0.5, &opt, NULL, &r);
            mc_check(&A, &B, 0.0, 0.5, &r, &opt, 30000 + it, NULL);
            ck_assert_msg(r.status == DST_NOT_CERTIFIED, "it %d status %d steps %d evals %d [%g %g]", it, r.status, r.advance_steps, r.distance_evals, r.lower, r.upper);
            ck_assert(r.upper - r.lower > 2.0 * opt.eps);
            ++uncertified;
        }
        mc_shape_free(&sa);
        mc_shape_free(&sb);
    }
    ck_assert_int_gt(limited, 0);
    ck_assert_int_gt(uncertified, 0);
}
END_TEST

/* how far below upper the step budget may leave a paced walk's lower bound on the motions of
 * test_moving_convex_common_rotation_paced (0.8-1.2 rad about an axis 0.35 m away, eps
 * MC_PACED_EPS, 500 steps): the rate bounds over each even share of the rest; 0.4-3.0 mm
 * seen, m. The capped walk of before bounded the rest from one point by the worst motion
 * of all of it: 0.24 m below upper on the first motion. */
#define MC_PACED_LOOSENESS 0.006
/* the walk's eps there: the planner's MCD eps (half the scenario's 1 mm) halved, so that
 * every motion needs more than the 500 steps, m */
#define MC_PACED_EPS 2.5e-4

/* Regression (twist.yaml --geometry convex, whole-robot pairs): two links of one arm move
 * together, fast, their gap constant (both frames the same polynomial motion, one offset
 * rigidly from the other). Eq. (M6) counts each side's turning on its own, so the walk
 * needs thousands of steps; with the step cap of 500 it used to bound the rest of the
 * interval from one point by the worst motion of all of it (0.24 m below upper here; in the
 * planner 0.13 m on RARM_LINK4 - RARM_LINK6, frozen into its row as an impossible margin).
 * Paced by its budget (eq. M9b) the walk reaches s = 1 within the cap: bounds still valid,
 * within MC_PACED_LOOSENESS of upper. */
START_TEST(test_moving_convex_common_rotation_paced)
{
    Rng rng = {0xc0770ULL};
    int paced = 0;
    for (int it = 0; it < (TG_ASAN ? 4 : 12); ++it) {
        McShape sa, sb;
        DstMovingConvex A, B;
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult r;
        double R0[9], R1[9], Rr[9], Rf[9], k[3], x0[3], x1[3], o[3], on;
        opt.eps = MC_PACED_EPS;
        mc_random_shape(&rng, it % 2 == 0 ? 0 : 1, &sa);
        mc_random_shape(&rng, it % 3 == 0 ? 1 : 0, &sb);
        A.shape = &sa.shape, B.shape = &sb.shape;
        /* A turns 0.8-1.2 rad about an axis 0.35 m from its origin (an arm twisting at the
         * chest over one span), degree 7 */
        rng_rotation(&rng, R0);
        rng_unit(&rng, k);
        tg_rot(k, rng_uniform(&rng, 0.8, 1.2), Rr);
        tg_matmul(Rr, R0, R1);
        for (int i = 0; i < 3; ++i) x0[i] = 0.35 * R0[3 * i];
        for (int i = 0; i < 3; ++i) x1[i] = Rr[3 * i] * x0[0] + Rr[3 * i + 1] * x0[1] + Rr[3 * i + 2] * x0[2];
        ck_assert_int_eq(dst_moving_frame_from_poses(R0, x0, R1, x1, 7, &A.frame), DST_OK);
        /* B rigidly attached to A: R_b = R_a Rf, x_b = x_a + R_a o, coefficient by
         * coefficient, so the two move as one body (o chosen below for the gap) */
        rng_rotation(&rng, Rf);
        rng_unit(&rng, o);
        on = mc_reach(A.shape) + mc_reach(B.shape) + 0.05;
        B.frame = A.frame;
        if (B.frame.origin.degree < A.frame.degree) {
            for (int kk = B.frame.origin.degree + 1; kk <= A.frame.degree; ++kk) {
                memset(A.frame.origin.c[kk], 0, sizeof A.frame.origin.c[kk]);
            }
            A.frame.origin.degree = B.frame.origin.degree = A.frame.degree;
        }
        for (int kk = 0; kk <= A.frame.degree; ++kk) {
            tg_matmul(A.frame.R[kk], Rf, B.frame.R[kk]);
        }
        for (int kk = 0; kk <= B.frame.origin.degree; ++kk) {
            for (int i = 0; i < 3; ++i) {
                double v = 0.0;
                if (kk <= A.frame.degree) {
                    for (int j = 0; j < 3; ++j) v += A.frame.R[kk][3 * i + j] * on * o[j];
                }
                B.frame.origin.c[kk][i] = A.frame.origin.c[kk][i] + v;
            }
        }
        /* then pull B in along the line of centres to a gap of a few mm at s = 0.5 */
        {
            DstConvexDistance d;
            double Ra[9], xa[3], gap = rng_uniform(&rng, 0.003, 0.008), shift;
            McRef ref = {&A, &B, 0.0};
            mc_nominal(&ref, 0.5, &d);
            shift = d.distance - gap;
            mc_frame_at(&A.frame, 0.5, Ra, xa);
            /* move B's body offset by -shift along the normal, in A's body coordinates, so
             * that the attachment stays rigid */
            for (int j = 0; j < 3; ++j) {
                double ob = -shift * (Ra[j] * d.normal[0] + Ra[3 + j] * d.normal[1] + Ra[6 + j] * d.normal[2]);
                for (int kk = 0; kk <= A.frame.degree; ++kk) {
                    for (int i = 0; i < 3; ++i) B.frame.origin.c[kk][i] -= A.frame.R[kk][3 * i + j] * ob;
                }
            }
            /* B's origin is A's body point o - ob, |o - ob| <= on + |shift| */
            B.frame.origin.err = (A.frame.origin.err + A.frame.R_err * (on + fabs(shift))) * (1.0 + 1e-12);
        }
        dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r);
        mc_check(&A, &B, 0.0, 1.0, &r, &opt, 40000 + it, NULL);
        ck_assert_int_le(r.advance_steps, opt.max_iter);
        ck_assert_msg(r.upper - r.lower <= MC_PACED_LOOSENESS, "it %d status %s steps %d [%g %g]", it,
                      dst_status_string(r.status), r.advance_steps, r.lower, r.upper);
        paced += r.status == DST_ITER_LIMIT;
        mc_shape_free(&sa);
        mc_shape_free(&sb);
    }
    ck_assert_int_gt(paced, 0); /* the budget really ran short */
}
END_TEST

/* a user support function (here a box's) gives the same answer as the built-in kind */
static int mc_box_support(const void *user, const double d[3], int hint, double out[3])
{
    const double *h = user;
    (void)hint;
    for (int k = 0; k < 3; ++k) out[k] = d[k] >= 0.0 ? h[k] : -h[k];
    return -1;
}

START_TEST(test_moving_convex_custom_shape)
{
    Rng rng = {0xc057ULL};
    double half[3] = {0.12, 0.05, 0.2};
    DstConvex box = dst_convex_box(half[0], half[1], half[2]), cus = dst_convex_custom(mc_box_support, half);
    DstConvex el = dst_convex_ellipsoid(0.2, 0.1, 0.05);
    ck_assert(fabs(dst_convex_reach(&cus) - dst_convex_reach(&box)) < 1e-12);
    for (int it = 0; it < 20; ++it) {
        DstMovingConvex A = {&box, {0}}, C = {&cus, {0}}, B = {&el, {0}};
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult r, q;
        mc_random_frame(&rng, 1.0, 0, &A.frame);
        mc_random_frame(&rng, 1.0, 0, &B.frame);
        mc_place_near(&rng, &A.frame, &B.frame, 0.3);
        C.frame = A.frame;
        dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r);
        dst_convex_mcd(&C, &B, 0.0, 1.0, &opt, NULL, &q);
        ck_assert_int_eq(r.status, q.status);
        ck_assert(fabs(r.upper - q.upper) < opt.eps && fabs(r.lower - q.lower) < opt.eps);
        ck_assert(q.lower <= r.upper + MC_TOL && r.lower <= q.upper + MC_TOL);
    }
}
END_TEST

START_TEST(test_moving_convex_invalid_input)
{
    DstConvex box = dst_convex_box(0.1, 0.1, 0.1), bad = dst_convex_box(-0.1, 0.1, 0.1);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, x0[3] = {0, 0, 0}, x1[3] = {1, 0, 0};
    DstMovingConvex A = {&box, {0}}, B = {&box, {0}}, C;
    DstMcdOptions opt = dst_mcd_options_default();
    DstMcdResult r;
    ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, I, x1, 3, &A.frame), DST_OK);
    dst_moving_frame_static(I, x1, &B.frame);
    ck_assert_int_ne(dst_convex_mcd(&A, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    /* the interval */
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 1.0, 0.0, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, NAN, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_convex_mcd(&A, &B, -INFINITY, 0.0, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert(r.lower == 0.0 && r.upper == 0.0);
    /* NULL pointers */
    ck_assert_int_eq(dst_convex_mcd(NULL, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_convex_mcd(&A, NULL, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 1.0, NULL, NULL, NULL), DST_INVALID_INPUT);
    C = A;
    C.shape = NULL;
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_convex_mcd_sampling(&B, &C, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    C.shape = &bad;
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    /* NaN coefficients, negative enclosures, degree out of range */
    C = A;
    C.frame.R[C.frame.degree][4] = NAN;
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    C = A;
    C.frame.origin.c[0][2] = NAN;
    ck_assert_int_eq(dst_convex_mcd(&B, &C, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    C = A;
    C.frame.R_err = -1e-3;
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    C = A;
    C.frame.origin.err = NAN;
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    C = A;
    C.frame.degree = DST_MAX_DEGREE + 1;
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
    /* options */
    opt.eps = NAN;
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r), DST_INVALID_INPUT);
    opt = dst_mcd_options_default();
    opt.max_iter = 0;
    ck_assert_int_eq(dst_convex_mcd(&A, &B, 0.0, 1.0, &opt, NULL, &r), DST_INVALID_INPUT);
    /* the reach of a shape with a non-finite vertex or size is NaN */
    {
        double v[2][3] = {{0.1, 0.0, 0.0}, {0.0, 0.2, 0.0}};
        DstConvex pts = dst_convex_points(&v[0][0], 2, NULL, NULL);
        ck_assert(fabs(dst_convex_reach(&pts) - 0.2) < 1e-12);
        v[0][1] = NAN;
        ck_assert(isnan(dst_convex_reach(&pts)));
        C = A;
        C.shape = &pts;
        ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_INVALID_INPUT);
        bad = dst_convex_ellipsoid(0.1, NAN, 0.1);
        ck_assert(isnan(dst_convex_reach(&bad)));
    }
    /* a rotation polynomial that is no rotation at all: failed, not a crash */
    C = A;
    for (int e = 0; e < 9; ++e) C.frame.R[0][e] = 10.0 * I[e];
    ck_assert_int_eq(dst_convex_mcd(&C, &B, 0.0, 1.0, NULL, NULL, &r), DST_FAILED);
    ck_assert(r.lower == 0.0 && r.upper == 0.0);
}
END_TEST
Suite *dst_convex_mcd_suite(void)
{
    Suite *s = suite_create("dst_convex_mcd");
    TCase *tc = tcase_create("bounds");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bounds_against_dense_reference);
    tcase_add_test(tc, test_still_capsule_is_static_distance);
    tcase_add_test(tc, test_point_capsule_passing_through);
    suite_add_tcase(s, tc);
    tc = tcase_create("moving_convex");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_moving_convex_random);
    tcase_add_test(tc, test_moving_convex_touching_at_end);
    tcase_add_test(tc, test_moving_convex_deep_penetration);
    tcase_add_test(tc, test_moving_convex_parallel_faces);
    tcase_add_test(tc, test_moving_convex_several_minima);
    tcase_add_test(tc, test_moving_convex_static_pair);
    tcase_add_test(tc, test_moving_convex_zero_length);
    tcase_add_test(tc, test_moving_convex_sampling_agrees);
    tcase_add_test(tc, test_moving_convex_custom_shape);
    tcase_add_test(tc, test_moving_convex_cap_and_enclosure);
    tcase_add_test(tc, test_moving_convex_common_rotation_paced);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_invalid_input);
    tcase_add_test(tc, test_moving_convex_invalid_input);
    suite_add_tcase(s, tc);
    return s;
}
