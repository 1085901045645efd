/* check_dst_ellipsoid.c — tests of distance/dst_ellipsoid.c: contact conditions of
 * seed 001 eq. (2)-(4), spheres, an independent support-function reference for d,
 * derivative eq. (11) against central differences, stopping rules, extreme ratios, the
 * radial start value (docs/math/ellipsoid.md eq. 34) against the paper's u0 = 0.5 and
 * input validation. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check_rng.h"
#include "dst_ellipsoid.h"
#include "dst_ellipsoid_internal.h"

/* tolerances of the assertions */
#define TOL_CONTACT 1e-10      /* e_i(x) - 1 and gradient alignment, gamma <= 10 */
/* gamma up to 1000: the root u carries the conditioning of eq. (10) (~gamma^4 eps); the
 * support-function output and its Newton refinement (eq. 31-33) bring the contact back
 * (measured worst over 2000 pairs with one axis ratio exactly 1000: 3e-11 on the
 * surfaces, 1.5e-9 normal alignment) */
#define TOL_SURFACE_EXTREME 1e-9
#define TOL_ALIGN_EXTREME 1e-6
/* residual of a converged hybrid answer, in units of the smallest semi-axis */
#define TOL_RESIDUAL 1e-9
#define TOL_SPHERE 1e-12       /* analytic sphere answers, relative */
#define TOL_REFERENCE 1e-9     /* d against the support-function minimum, relative */
#define TOL_FD 1e-6            /* f' against central differences, relative */
#define TOL_POLY 1e-10         /* polynomial form against the direct solve, relative */
#define TOL_INVARIANCE 1e-10   /* symmetry / translation / scaling, relative */
/* prepared shapes against DstEllipsoid: the same core on the same numbers, so equal
 * (relative tolerance only as a guard against a compiler splitting the two paths) */
#define TOL_PREPARED 1e-15
/* rule (13) with eps bounds |d1 - d2| <= eps d1 r_min / |x1| <= eps d1; the root lies
 * within a small multiple of that */
#define RULE13_D_FACTOR 2.0
/* the radial start against the paper's u0 = 0.5: both stop by rule (12) with eps 1e-8, so
 * their roots differ by a few eps at most (TOL_START_U: the fixed point converges linearly
 * and stops up to ~1.4 eps from the root on these pairs, the others far closer). d and gap
 * follow the root only to second order (eq. 31): TOL_START_D relative to d (measured
 * <= 6e-16). The contact follows it to first order, relative to d: TOL_START_CONTACT for
 * the hybrid and Steffensen (measured <= 3e-14), TOL_START_CONTACT_WIDE for the fixed
 * point (measured <= 2.4e-11) and at gamma 1000, where the root is ill-conditioned and the
 * refinement (eq. 33) places the contact (measured <= 4e-13) */
#define TOL_START_U 5e-8
#define TOL_START_D 1e-14
#define TOL_START_CONTACT 1e-12
#define TOL_START_CONTACT_WIDE 1e-9
/* rule (13) asks for a contact error of eps r_min; for two spheres whose radii differ by
 * more than this ratio, rounding in the larger one's coordinates exceeds that from any
 * start (measured: the iteration cap from ratio ~2.5e4 on), so rule (13) is left out there */
#define RULE13_MAX_RADIUS_RATIO 1e3
/* the targets of issue 20 for the default start on the Fig. 3 pairs (the paper's
 * hybrid: 5.1 / 15) */
#define START_FIG3_MEAN_ITER 5.1
#define START_FIG3_MAX_ITER 15

#define PI 3.14159265358979323846

/* largest radius in [1, Gamma], the others in [a / gamma, a] */
static void random_ellipsoid(Rng *r, double gamma, double Gamma, DstEllipsoid *e)
{
    const double a = rng_uniform(r, 1.0, Gamma);
    const int big = (int)(rng_next(r) % 3);
    for (int i = 0; i < 3; ++i) e->radii[i] = i == big ? a : rng_uniform(r, a / gamma, a);
    rng_rotation(r, e->rot);
    for (int i = 0; i < 3; ++i) e->centre[i] = rng_uniform(r, -5.0, 5.0);
}

static DstEllipsoid sphere(double x, double y, double z, double radius)
{
    DstEllipsoid e = {{x, y, z}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {radius, radius, radius}};
    return e;
}

/* p in the ellipsoid's frame: y = diag(1/r) R^T (p - c); e(p) = |y|^2 (eq. 1) */
static void local_coords(const DstEllipsoid *e, const double *p, const double *centre, double *y)
{
    for (int b = 0; b < 3; ++b) {
        double acc = 0.0;
        for (int a = 0; a < 3; ++a) acc += e->rot[3 * a + b] * (p[a] - centre[a]);
        y[b] = acc / e->radii[b];
    }
}

static double quad_form(const DstEllipsoid *e, const double *p, const double *centre)
{
    double y[3];
    local_coords(e, p, centre, y);
    return y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
}

/* gradient direction of e at p: E (p - c) = R diag(1/r^2) R^T (p - c) */
static void grad(const DstEllipsoid *e, const double *p, const double *centre, double *g)
{
    double y[3];
    local_coords(e, p, centre, y);
    for (int b = 0; b < 3; ++b) y[b] /= e->radii[b];
    for (int a = 0; a < 3; ++a) g[a] = e->rot[3 * a] * y[0] + e->rot[3 * a + 1] * y[1] + e->rot[3 * a + 2] * y[2];
}

/* eq. (2)-(4): x on e1, on e2 placed at c1 + d n, opposite gradients */
static void assert_contact(const DstEllipsoid *e1, const DstEllipsoid *e2, const DstEllipsoidResult *res,
                           double tol, double tol_align)
{
    double c2[3], g1[3], g2[3], n1, n2, cr[3], dot;
    for (int a = 0; a < 3; ++a) c2[a] = e1->centre[a] + res->d * res->dir[a];
    ck_assert_msg(fabs(quad_form(e1, res->contact, e1->centre) - 1.0) <= tol, "e1(x) = %.17g",
                  quad_form(e1, res->contact, e1->centre));
    ck_assert_msg(fabs(quad_form(e2, res->contact, c2) - 1.0) <= tol, "e2(x - dn) = %.17g",
                  quad_form(e2, res->contact, c2));
    grad(e1, res->contact, e1->centre, g1);
    grad(e2, res->contact, c2, g2);
    n1 = sqrt(g1[0] * g1[0] + g1[1] * g1[1] + g1[2] * g1[2]);
    n2 = sqrt(g2[0] * g2[0] + g2[1] * g2[1] + g2[2] * g2[2]);
    cr[0] = g1[1] * g2[2] - g1[2] * g2[1];
    cr[1] = g1[2] * g2[0] - g1[0] * g2[2];
    cr[2] = g1[0] * g2[1] - g1[1] * g2[0];
    dot = (g1[0] * g2[0] + g1[1] * g2[1] + g1[2] * g2[2]) / (n1 * n2);
    ck_assert_msg(sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) / (n1 * n2) <= tol_align,
                  "gradients not parallel: %.3g", sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) / (n1 * n2));
    ck_assert_msg(dot < 0.0, "gradients not opposite");
    /* the reported normal is grad e1 normalised */
    for (int a = 0; a < 3; ++a) ck_assert_double_eq_tol(res->normal[a], g1[a] / n1, tol);
    ck_assert(res->u > 0.0 && res->u < 1.0);
}

/* independent reference: d = min over v with v.n = 1 of h1(v) + h2(v), h_i(v) =
 * |diag(r_i) R_i^T v| the support function of e_i (the radial function of the Minkowski
 * sum along n). Convex in (a, b) for v = n + a t1 + b t2: damped Newton. */
static double support(const DstEllipsoid *e, const double *v, double *g, double H[3][3])
{
    double y[3], s[3], h;
    for (int b = 0; b < 3; ++b) {
        y[b] = e->radii[b] * (e->rot[b] * v[0] + e->rot[3 + b] * v[1] + e->rot[6 + b] * v[2]);
        s[b] = e->radii[b] * y[b];
    }
    h = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    /* g = E^-1 v / h, H = (E^-1 - g g^T) / h */
    for (int a = 0; a < 3; ++a) g[a] = (e->rot[3 * a] * s[0] + e->rot[3 * a + 1] * s[1] + e->rot[3 * a + 2] * s[2]) / h;
    for (int a = 0; a < 3; ++a)
        for (int c = 0; c < 3; ++c) {
            double einv = 0.0;
            for (int b = 0; b < 3; ++b) einv += e->rot[3 * a + b] * e->radii[b] * e->radii[b] * e->rot[3 * c + b];
            H[a][c] = (einv - g[a] * g[c]) / h;
        }
    return h;
}

static double reference_d(const DstEllipsoid *e1, const DstEllipsoid *e2, const double *n)
{
    double t1[3], t2[3], ab[2] = {0.0, 0.0}, best;
    /* tangent basis */
    if (fabs(n[0]) < 0.9) { t1[0] = 0; t1[1] = -n[2]; t1[2] = n[1]; }
    else { t1[0] = n[2]; t1[1] = 0; t1[2] = -n[0]; }
    {
        const double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
        for (int a = 0; a < 3; ++a) t1[a] /= l;
    }
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
    best = INFINITY;
    for (int it = 0; it < 200; ++it) {
        double v[3], g1[3], g2[3], H1[3][3], H2[3][3], G[2], HH[2][2], det, step[2], phi, t = 1.0;
        const double *T[2] = {t1, t2};
        for (int a = 0; a < 3; ++a) v[a] = n[a] + ab[0] * t1[a] + ab[1] * t2[a];
        phi = support(e1, v, g1, H1) + support(e2, v, g2, H2);
        best = phi;
        for (int i = 0; i < 2; ++i) {
            G[i] = 0.0;
            for (int a = 0; a < 3; ++a) G[i] += T[i][a] * (g1[a] + g2[a]);
            for (int j = 0; j < 2; ++j) {
                HH[i][j] = 0.0;
                for (int a = 0; a < 3; ++a)
                    for (int c = 0; c < 3; ++c) HH[i][j] += T[i][a] * (H1[a][c] + H2[a][c]) * T[j][c];
            }
        }
        if (fabs(G[0]) + fabs(G[1]) < 1e-15 * phi) break;
        det = HH[0][0] * HH[1][1] - HH[0][1] * HH[1][0];
        step[0] = -(HH[1][1] * G[0] - HH[0][1] * G[1]) / det;
        step[1] = -(-HH[1][0] * G[0] + HH[0][0] * G[1]) / det;
        /* backtracking: accept the first step that does not increase phi */
        for (int ls = 0; ls < 60; ++ls, t *= 0.5) {
            double v2[3], gg[3], HHt[3][3], trial;
            for (int a = 0; a < 3; ++a) v2[a] = n[a] + (ab[0] + t * step[0]) * t1[a] + (ab[1] + t * step[1]) * t2[a];
            trial = support(e1, v2, gg, HHt) + support(e2, v2, gg, HHt);
            if (trial <= phi) {
                ab[0] += t * step[0];
                ab[1] += t * step[1];
                break;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------------------ validation */

START_TEST(test_rejects_invalid_input)
{
    DstEllipsoid good = sphere(0, 0, 0, 1), far = sphere(3, 0, 0, 1), bad;
    DstEllipsoidOptions o = dst_ellipsoid_options_default();
    DstEllipsoidResult res;
    const double zero_dir[3] = {0, 0, 0}, nan_dir[3] = {NAN, 0, 1};

#define EXPECT_INVALID(call)                                                  \
    do {                                                                      \
        memset(&res, 0x55, sizeof res);                                       \
        ck_assert_int_eq((call), DST_INVALID_INPUT);                          \
        ck_assert_int_eq(res.status, DST_INVALID_INPUT);                      \
        ck_assert_ptr_nonnull(res.error);                                     \
        ck_assert(res.d == 0.0 && res.u == 0.0 && res.contact[0] == 0.0);    \
    } while (0)

    bad = good; bad.centre[1] = NAN;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&bad, &far, NULL, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "centre"));
    bad = good; bad.radii[2] = 0.0;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&bad, &far, NULL, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "radii"));
    bad = good; bad.radii[0] = -1.0;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&far, &bad, NULL, &res));
    bad = good; bad.radii[1] = INFINITY;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&bad, &far, NULL, &res));
    bad = good; bad.radii[1] = NAN;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&bad, &far, NULL, &res));
    bad = good; bad.rot[4] = NAN;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&bad, &far, NULL, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "rotation"));
    bad = good; bad.rot[1] = 0.1;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&bad, &far, NULL, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "orthonormal"));
    bad = good; bad.rot[0] = 2.0;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&far, &bad, NULL, &res));
    /* coincident centres: no inter-centre direction */
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &good, NULL, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "direction"));
    EXPECT_INVALID(dst_ellipsoid_approach_along(&good, &far, zero_dir, NULL, &res));
    EXPECT_INVALID(dst_ellipsoid_approach_along(&good, &far, nan_dir, NULL, &res));
    EXPECT_INVALID(dst_ellipsoid_approach_along(&good, &far, NULL, NULL, &res));
    EXPECT_INVALID(dst_ellipsoid_closest_approach(NULL, &far, NULL, &res));
    /* options */
    o.eps = 0.0;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "eps"));
    o = dst_ellipsoid_options_default(); o.eps = NAN;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    o = dst_ellipsoid_options_default(); o.max_iter = 0;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    o = dst_ellipsoid_options_default(); o.u0 = 1.0;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "u0"));
    /* 0 is DST_ELLIPSOID_U0_AUTO (the radial start); below 0, NaN and infinity are not */
    o = dst_ellipsoid_options_default(); o.u0 = -0.25;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    ck_assert_ptr_nonnull(strstr(res.error, "u0"));
    o = dst_ellipsoid_options_default(); o.u0 = NAN;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    o = dst_ellipsoid_options_default(); o.u0 = INFINITY;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    o = dst_ellipsoid_options_default(); o.u0 = -DBL_MIN;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    o = dst_ellipsoid_options_default(); o.solver = (DstEllipsoidSolver)42;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    o = dst_ellipsoid_options_default(); o.stop = (DstEllipsoidStop)42;
    EXPECT_INVALID(dst_ellipsoid_closest_approach(&good, &far, &o, &res));
    ck_assert_int_eq(dst_ellipsoid_closest_approach(&good, &far, NULL, NULL), DST_INVALID_INPUT);
#undef EXPECT_INVALID
    /* the defaults: the radial start, which u0 = 0 also selects */
    o = dst_ellipsoid_options_default();
    ck_assert(o.u0 == DST_ELLIPSOID_U0_AUTO && DST_ELLIPSOID_U0_AUTO == 0.0);
    o.u0 = 0.0;
    ck_assert_int_eq(dst_ellipsoid_closest_approach(&good, &far, &o, &res), DST_OK);
    ck_assert_ptr_null(dst_ellipsoid_check(&good));
    ck_assert_ptr_nonnull(dst_ellipsoid_check(NULL));
}
END_TEST

/* Regression (issue 20): the default solver validates the poses and the direction after
 * its set-up (session 13: after its first evaluation of f; the other solvers before their
 * set-up). Every invalid input must still be rejected with the message the validate-first
 * order gives, by every solver, stopping rule and entry point, and both starts, with the
 * fields zeroed. */
START_TEST(test_validation_after_setup)
{
    const DstEllipsoid good = sphere(0, 0, 0, 1), far = sphere(3, 0, 0, 1);
    const double zero_dir[3] = {0, 0, 0}, nan_dir[3] = {NAN, 0, 1}, inf_dir[3] = {0, INFINITY, 1};
    const double huge_dir[3] = {1e200, 0, 0}, unit_dir[3] = {1, 0, 0};
    enum { N_CASES = 9 };
    for (int c = 0; c < N_CASES; ++c) {
        DstEllipsoid e1 = good, e2 = far;
        const double *dir = unit_dir;
        const char *expect = NULL;
        switch (c) {
        case 0: e1.centre[2] = INFINITY; expect = "ellipsoid centre is not finite"; break;
        case 1: e2.rot[5] = NAN; expect = "ellipsoid rotation is not finite"; break;
        case 2: e1.rot[0] = -INFINITY; expect = "ellipsoid rotation is not finite"; break;
        case 3: e2.rot[1] = 1e-3; expect = "ellipsoid rotation is not orthonormal"; break;
        case 4: dir = zero_dir; expect = "ellipsoid direction is zero (coincident centres?)"; break;
        case 5: dir = nan_dir; expect = "ellipsoid direction is not finite"; break;
        case 6: dir = inf_dir; expect = "ellipsoid direction is not finite"; break;
        case 7: dir = huge_dir; expect = "ellipsoid direction is zero (coincident centres?)"; break;
        default: dir = NULL; e2.rot[1] = 1e-3; expect = "ellipsoid rotation is not orthonormal"; break;
        }
        for (int s = 0; s < 3 * 2; ++s) /* solver s % 3, the radial start, then 0.5 */
            for (int rule = 0; rule < 2; ++rule) {
                DstEllipsoidOptions o = dst_ellipsoid_options_default();
                DstEllipsoidShape s1, s2;
                DstEllipsoidPose p1, p2;
                DstEllipsoidResult res;
                o.solver = (DstEllipsoidSolver)(s % 3);
                o.stop = (DstEllipsoidStop)rule;
                /* the radial start reads the poses and the direction before the validation */
                if (s >= 3) o.u0 = DST_ELLIPSOID_PAPER_U0;
                for (int entry = 0; entry < 2; ++entry) {
                    DstStatus st;
                    memset(&res, 0x55, sizeof res);
                    if (entry == 0) {
                        st = dst_ellipsoid_approach_along(&e1, &e2, dir, &o, &res);
                    } else {
                        ck_assert_ptr_null(dst_ellipsoid_shape_prepare(&s1, e1.radii));
                        ck_assert_ptr_null(dst_ellipsoid_shape_prepare(&s2, e2.radii));
                        memcpy(p1.centre, e1.centre, sizeof p1.centre);
                        memcpy(p1.rot, e1.rot, sizeof p1.rot);
                        memcpy(p2.centre, e2.centre, sizeof p2.centre);
                        memcpy(p2.rot, e2.rot, sizeof p2.rot);
                        st = dst_ellipsoid_prepared_approach_along(&s1, &p1, &s2, &p2, dir, &o, &res);
                    }
                    ck_assert_int_eq(st, DST_INVALID_INPUT);
                    ck_assert_int_eq(res.status, DST_INVALID_INPUT);
                    ck_assert_msg(res.error != NULL && strcmp(res.error, expect) == 0,
                                  "case %d solver %d rule %d entry %d: '%s'", c, s, rule, entry,
                                  res.error != NULL ? res.error : "(null)");
                    ck_assert(res.d == 0.0 && res.gap == 0.0 && res.u == 0.0 && res.iterations == 0 &&
                              res.residual == 0.0 && res.contact[0] == 0.0 && res.normal[2] == 0.0);
                }
            }
    }
}
END_TEST

/* ------------------------------------------------------------------ spheres */

START_TEST(test_spheres_analytic)
{
    Rng r = {17};
    for (int trial = 0; trial < 200; ++trial) {
        const double r1 = rng_uniform(&r, 0.01, 3.0), r2 = rng_uniform(&r, 0.01, 3.0);
        double c1[3], off[3], len = 0.0;
        for (int a = 0; a < 3; ++a) {
            c1[a] = rng_uniform(&r, -2, 2);
            off[a] = rng_uniform(&r, -4, 4);
            len += off[a] * off[a];
        }
        len = sqrt(len);
        DstEllipsoid e1 = sphere(c1[0], c1[1], c1[2], r1);
        DstEllipsoid e2 = sphere(c1[0] + off[0], c1[1] + off[1], c1[2] + off[2], r2);
        /* a random rotation changes nothing for a sphere */
        rng_rotation(&r, e2.rot);
        for (int s = 0; s < 3; ++s) {
            for (int rule = 0; rule < 2; ++rule) {
                DstEllipsoidOptions o = dst_ellipsoid_options_default();
                DstEllipsoidResult res;
                o.solver = (DstEllipsoidSolver)s;
                o.stop = (DstEllipsoidStop)rule;
                /* rule (13) is absolute in units of r_min: ask for what doubles can give */
                if (rule == 1) o.eps = 1e-10;
                ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &o, &res), DST_OK);
                ck_assert_double_eq_tol(res.d, r1 + r2, TOL_SPHERE * (r1 + r2));
                /* rule (13) stops on the contact error, not on u: u is then within ~100 eps */
                ck_assert_double_eq_tol(res.u, r1 / (r1 + r2), rule == 0 ? TOL_SPHERE : 100.0 * o.eps);
                ck_assert_double_eq_tol(res.gap, len - (r1 + r2), TOL_SPHERE * (len + r1 + r2));
                for (int a = 0; a < 3; ++a) {
                    ck_assert_double_eq_tol(res.contact[a], c1[a] + r1 * off[a] / len, TOL_SPHERE * (r1 + r2 + 2));
                    ck_assert_double_eq_tol(res.normal[a], off[a] / len, TOL_SPHERE * 10);
                }
            }
        }
    }
    for (int start = 0; start < 2; ++start) {
        /* equal spheres: u0 = 0.5 is the root (sec. 2.3), and the radial start is 0.5 */
        DstEllipsoid e1 = sphere(0, 0, 0, 1), e2 = sphere(0, 0, 5, 1);
        DstEllipsoidOptions o = dst_ellipsoid_options_default();
        DstEllipsoidResult res;
        o.u0 = start == 0 ? DST_ELLIPSOID_U0_AUTO : DST_ELLIPSOID_PAPER_U0;
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &o, &res), DST_OK);
        ck_assert_double_eq_tol(res.u, 0.5, TOL_SPHERE);
        ck_assert_int_le(res.iterations, 1);
        ck_assert_double_eq_tol(res.gap, 3.0, TOL_SPHERE);
    }
}
END_TEST

/* ------------------------------------------------------------------ contact */

START_TEST(test_contact_conditions_random)
{
    Rng r = {2019};
    for (int trial = 0; trial < 400; ++trial) {
        const double gamma = 1.0 + 9.0 * rng_u01(&r);
        DstEllipsoid e1, e2;
        random_ellipsoid(&r, gamma, 3.0, &e1);
        random_ellipsoid(&r, gamma, 3.0, &e2);
        for (int s = 0; s < 3; ++s) {
            DstEllipsoidOptions o = dst_ellipsoid_options_default();
            DstEllipsoidResult res;
            o.solver = (DstEllipsoidSolver)s;
            if (s != DST_ELLIPSOID_HYBRID) {
                /* linear convergence: a step of 1e-8 leaves an error of 1e-8 / (1 - rate);
                   ask these for more, and only where the fixed point converges (Fig. 2) */
                if (gamma > 5.0) continue;
                o.eps = 1e-14;
                o.max_iter = 5000;
            }
            ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &o, &res), DST_OK);
            assert_contact(&e1, &e2, &res, TOL_CONTACT, TOL_CONTACT);
            ck_assert_int_ge(res.evaluations, res.iterations);
            {
                /* residual: e2's own contact point (support point along -normal, e2
                   placed at c1 + d n) is that far from x */
                double y[3], x2[3], dist = 0.0, rmin = INFINITY;
                for (int b = 0; b < 3; ++b) {
                    y[b] = e2.radii[b] * e2.radii[b] *
                           (e2.rot[b] * res.normal[0] + e2.rot[3 + b] * res.normal[1] + e2.rot[6 + b] * res.normal[2]);
                }
                {
                    double h = 0.0;
                    for (int b = 0; b < 3; ++b) h += y[b] * y[b] / (e2.radii[b] * e2.radii[b]);
                    h = sqrt(h);
                    for (int a = 0; a < 3; ++a)
                        x2[a] = e1.centre[a] + res.d * res.dir[a] -
                                (e2.rot[3 * a] * y[0] + e2.rot[3 * a + 1] * y[1] + e2.rot[3 * a + 2] * y[2]) / h;
                }
                for (int a = 0; a < 3; ++a) dist += (x2[a] - res.contact[a]) * (x2[a] - res.contact[a]);
                for (int b = 0; b < 3; ++b) rmin = fmin(rmin, fmin(e1.radii[b], e2.radii[b]));
                ck_assert_double_eq_tol(sqrt(dist), res.residual, TOL_RESIDUAL * rmin);
                ck_assert(res.residual <= TOL_RESIDUAL * rmin);
            }
        }
    }
}
END_TEST

START_TEST(test_matches_support_function_reference)
{
    Rng r = {77};
    for (int trial = 0; trial < 300; ++trial) {
        const double gamma = trial < 150 ? 5.0 : 100.0;
        DstEllipsoid e1, e2;
        double n[3], ref;
        DstEllipsoidResult res;
        random_ellipsoid(&r, gamma, 3.0, &e1);
        random_ellipsoid(&r, gamma, 3.0, &e2);
        rng_unit(&r, n);
        if (trial % 2) {
            /* rotations off orthonormal by 1e-10 (accepted): the ellipsoid is the set
               {c + R diag(r) y, |y| <= 1}, which the reference uses too */
            for (int k = 0; k < 9; ++k) {
                e1.rot[k] += rng_uniform(&r, -1e-10, 1e-10);
                e2.rot[k] += rng_uniform(&r, -1e-10, 1e-10);
            }
        }
        ck_assert_int_eq(dst_ellipsoid_approach_along(&e1, &e2, n, NULL, &res), DST_OK);
        ref = reference_d(&e1, &e2, n);
        ck_assert_msg(fabs(res.d - ref) <= TOL_REFERENCE * ref, "trial %d: d %.17g reference %.17g",
                      trial, res.d, ref);
        /* d = (h1 + h2) / (N . n) is an upper bound: never below the minimum (the
           reference, itself a computed minimum, may sit a few ulps above it) */
        ck_assert_msg(res.d >= ref * (1.0 - 1e-15), "d %.17g below the minimum %.17g", res.d, ref);
    }
}
END_TEST

START_TEST(test_invariances)
{
    Rng r = {5150};
    for (int trial = 0; trial < 100; ++trial) {
        DstEllipsoid e1, e2, s1, s2;
        DstEllipsoidResult a, b;
        const double scale = rng_uniform(&r, 0.01, 100.0);
        random_ellipsoid(&r, 8.0, 3.0, &e1);
        random_ellipsoid(&r, 8.0, 3.0, &e2);
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, NULL, &a), DST_OK);
        /* swapping the two: the same distance along -n */
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e2, &e1, NULL, &b), DST_OK);
        ck_assert_double_eq_tol(a.d, b.d, TOL_INVARIANCE * a.d);
        ck_assert_double_eq_tol(a.gap, b.gap, TOL_INVARIANCE * a.d);
        /* contact seen from e2's side: e1 sits at c2 - d n, so x_b - c2 = x_a - c1 - d n */
        for (int k = 0; k < 3; ++k)
            ck_assert_double_eq_tol(b.contact[k] - e2.centre[k], a.contact[k] - e1.centre[k] - a.d * a.dir[k],
                                    TOL_INVARIANCE * (1.0 + a.d));
        /* uniform scaling scales d */
        s1 = e1;
        s2 = e2;
        for (int k = 0; k < 3; ++k) {
            s1.radii[k] *= scale;
            s2.radii[k] *= scale;
            s1.centre[k] *= scale;
            s2.centre[k] *= scale;
        }
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&s1, &s2, NULL, &b), DST_OK);
        ck_assert_double_eq_tol(b.d, scale * a.d, TOL_INVARIANCE * scale * a.d);
        ck_assert_double_eq_tol(b.u, a.u, TOL_INVARIANCE);
    }
}
END_TEST

/* ------------------------------------------------------------------ f and f' */

START_TEST(test_fprime_vs_central_differences)
{
    Rng r = {99};
    for (int trial = 0; trial < 200; ++trial) {
        DstEllipsoid e1, e2;
        DstEllipsoidPair pair;
        double n[3];
        random_ellipsoid(&r, trial < 100 ? 5.0 : 50.0, 3.0, &e1);
        random_ellipsoid(&r, trial < 100 ? 5.0 : 50.0, 3.0, &e2);
        rng_unit(&r, n);
        dst_ellipsoid_pair_init(&pair, &e1, &e2, n);
        for (int k = 0; k < 10; ++k) {
            const double u = rng_uniform(&r, 0.02, 0.98), h = 1e-6;
            DstEllipsoidEval ev, hi, lo;
            double fd, fp, fpp, scale;
            dst_ellipsoid_eval(&pair, u, 1, &ev);
            dst_ellipsoid_eval(&pair, u + h, 0, &hi);
            dst_ellipsoid_eval(&pair, u - h, 0, &lo);
            fd = (hi.f - lo.f) / (2.0 * h);
            scale = fabs(fd) + fabs(ev.f) + ev.A + ev.B;
            ck_assert_msg(fabs(ev.fprime - fd) <= TOL_FD * scale, "eq. (11): f' %.12g fd %.12g", ev.fprime, fd);
            /* the polynomial form gives the same f and f' */
            dst_ellipsoid_eval_poly(&pair, u, &fp, &fpp);
            ck_assert_msg(fabs(fp - ev.f) <= TOL_POLY * (ev.A + ev.B), "f %.17g poly %.17g", ev.f, fp);
            ck_assert_msg(fabs(fpp - ev.fprime) <= TOL_POLY * scale, "f' %.17g poly %.17g", ev.fprime, fpp);
        }
        {
            /* bracket of eq. (21): f(0) = m.K m > 0, f(1) = -|m|^2 < 0 */
            DstEllipsoidEval e0, e1v;
            dst_ellipsoid_eval(&pair, 0.0, 0, &e0);
            dst_ellipsoid_eval(&pair, 1.0, 0, &e1v);
            ck_assert(e0.f > 0.0 && e1v.f < 0.0);
        }
    }
}
END_TEST

/* ------------------------------------------------------------------ stopping rules */

START_TEST(test_stopping_rule_13)
{
    Rng r = {13};
    for (int trial = 0; trial < 200; ++trial) {
        DstEllipsoid e1, e2;
        DstEllipsoidOptions o = dst_ellipsoid_options_default();
        DstEllipsoidResult res, tight;
        DstEllipsoidPair pair;
        DstEllipsoidEval ev;
        double w = 0.0, d1, d2;
        random_ellipsoid(&r, 5.0, 3.0, &e1);
        random_ellipsoid(&r, 5.0, 3.0, &e2);
        o.stop = DST_ELLIPSOID_STOP_GAP;
        o.eps = 1e-2;
        o.solver = (DstEllipsoidSolver)(trial % 3);
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &o, &res), DST_OK);
        /* eq. (13) holds at the returned u: recompute x1, x2 with the direct solve */
        dst_ellipsoid_pair_init(&pair, &e1, &e2, res.dir);
        dst_ellipsoid_eval(&pair, res.u, 0, &ev);
        d1 = 1.0 / ((1.0 - res.u) * sqrt(ev.A));
        d2 = 1.0 / (res.u * sqrt(ev.B));
        for (int k = 0; k < 3; ++k) w += pow(e2.radii[k] * ev.z[k], 2);
        ck_assert(((1.0 - res.u) * sqrt(w) * fabs(d1 - d2)) <= o.eps * pair.r_min * (1.0 + 1e-12));
        /* and the returned d is within that accuracy of the converged one */
        o.stop = DST_ELLIPSOID_STOP_DU;
        o.eps = 1e-12;
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &o, &tight), DST_OK);
        ck_assert_int_le(res.iterations, tight.iterations);
        ck_assert_msg(fabs(res.d - tight.d) <= RULE13_D_FACTOR * 1e-2 * tight.d,
                      "rule 13: d %.12g converged %.12g", res.d, tight.d);
    }
}
END_TEST

START_TEST(test_iteration_limit_reported)
{
    /* an elongated pair where the fixed point cannot finish in 100 iterations (Fig. 2),
       found by search with a fixed seed; the hybrid solves the same pair */
    Rng r = {4};
    int found = 0;
    for (int trial = 0; trial < 20000 && !found; ++trial) {
        DstEllipsoid e1, e2;
        DstEllipsoidOptions o = dst_ellipsoid_options_default();
        DstEllipsoidResult res;
        double n[3];
        random_ellipsoid(&r, 200.0, 3.0, &e1);
        random_ellipsoid(&r, 200.0, 3.0, &e2);
        rng_unit(&r, n);
        o.solver = DST_ELLIPSOID_FIXED_POINT;
        if (dst_ellipsoid_approach_along(&e1, &e2, n, &o, &res) == DST_ITER_LIMIT) {
            found = 1;
            ck_assert_int_eq(res.iterations, o.max_iter);
            ck_assert_ptr_null(res.error);
            ck_assert(isfinite(res.d) && res.u > 0.0 && res.u < 1.0);
            o.solver = DST_ELLIPSOID_HYBRID;
            ck_assert_int_eq(dst_ellipsoid_approach_along(&e1, &e2, n, &o, &res), DST_OK);
            assert_contact(&e1, &e2, &res, TOL_SURFACE_EXTREME, TOL_ALIGN_EXTREME);
        }
    }
    ck_assert_msg(found, "no fixed-point failure found at gamma 200");
    {
        /* max_iter = 1 on a non-trivial pair (from the paper's start: the radial start is
           the root of two spheres) */
        DstEllipsoid e1 = sphere(0, 0, 0, 1), e2 = sphere(4, 0, 0, 3);
        DstEllipsoidOptions o = dst_ellipsoid_options_default();
        DstEllipsoidResult res;
        o.max_iter = 1;
        o.u0 = DST_ELLIPSOID_PAPER_U0;
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &o, &res), DST_ITER_LIMIT);
        ck_assert_int_eq(res.iterations, 1);
    }
}
END_TEST

START_TEST(test_solver_iteration_counts_fig3)
{
    /* Fig. 3 setting (gamma 5, Gamma 3, rule 12 with 1e-8, the paper's u0 = 0.5): the
       paper reports means 9.5 / 5.4 / 5.1 and maxima 81 / 12 / 15 for fixed point /
       Steffensen / hybrid.
       Bands wide enough for 2000 samples, narrow enough to catch a solver that is
       silently another one (Steffensen without its acceleration, Newton without f'). */
    Rng r = {333};
    double sum[3] = {0, 0, 0};
    int mx[3] = {0, 0, 0};
    const int n = 2000;
    for (int trial = 0; trial < n; ++trial) {
        DstEllipsoid e1, e2;
        double dir[3];
        random_ellipsoid(&r, 5.0, 3.0, &e1);
        random_ellipsoid(&r, 5.0, 3.0, &e2);
        rng_unit(&r, dir);
        for (int s = 0; s < 3; ++s) {
            DstEllipsoidOptions o = dst_ellipsoid_options_default();
            DstEllipsoidResult res;
            o.solver = (DstEllipsoidSolver)s;
            o.u0 = DST_ELLIPSOID_PAPER_U0;
            ck_assert_int_eq(dst_ellipsoid_approach_along(&e1, &e2, dir, &o, &res), DST_OK);
            sum[s] += res.iterations;
            if (res.iterations > mx[s]) mx[s] = res.iterations;
            ck_assert_int_eq(res.evaluations, s == DST_ELLIPSOID_STEFFENSEN ? 2 * res.iterations : res.iterations);
        }
    }
    ck_assert_msg(sum[DST_ELLIPSOID_HYBRID] / n > 4.0 && sum[DST_ELLIPSOID_HYBRID] / n < 6.0,
                  "hybrid mean %g", sum[DST_ELLIPSOID_HYBRID] / n);
    ck_assert_int_le(mx[DST_ELLIPSOID_HYBRID], 20);
    ck_assert_msg(sum[DST_ELLIPSOID_FIXED_POINT] / n > 8.0 && sum[DST_ELLIPSOID_FIXED_POINT] / n < 11.0,
                  "fixed point mean %g", sum[DST_ELLIPSOID_FIXED_POINT] / n);
    ck_assert_msg(sum[DST_ELLIPSOID_STEFFENSEN] / n < 0.5 * sum[DST_ELLIPSOID_FIXED_POINT] / n,
                  "steffensen mean %g", sum[DST_ELLIPSOID_STEFFENSEN] / n);
    ck_assert_int_le(mx[DST_ELLIPSOID_STEFFENSEN], 12);
}
END_TEST

/* ------------------------------------------------------------------ extreme ratios */

START_TEST(test_extreme_ratios_converge)
{
    Rng r = {1000};
    int worst = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const double gamma = trial < 1000 ? 1000.0 : (trial < 2000 ? 300.0 : 50.0);
        DstEllipsoid e1, e2;
        DstEllipsoidResult res;
        double n[3];
        random_ellipsoid(&r, gamma, 3.0, &e1);
        random_ellipsoid(&r, gamma, 3.0, &e2);
        /* make one axis exactly the extreme ratio to the largest */
        e1.radii[trial % 3] = fmax(fmax(e1.radii[0], e1.radii[1]), e1.radii[2]) / gamma;
        rng_unit(&r, n);
        ck_assert_int_eq(dst_ellipsoid_approach_along(&e1, &e2, n, NULL, &res), DST_OK);
        ck_assert_int_lt(res.iterations, DST_ELLIPSOID_DEFAULT_MAX_ITER);
        if (res.iterations > worst) worst = res.iterations;
        assert_contact(&e1, &e2, &res, TOL_SURFACE_EXTREME, TOL_ALIGN_EXTREME);
    }
    ck_assert_int_lt(worst, DST_ELLIPSOID_DEFAULT_MAX_ITER);
    {
        /* far beyond the paper's range (axis ratios 1e4 .. 1e8): the hybrid still brackets
           the root; the fixed point may break down numerically, which must be reported
           as DST_FAILED with a message, never as NaN */
        static const double ratios[4] = {1e4, 1e5, 1e6, 1e8};
        for (int i = 0; i < 4; ++i) {
            const double g = ratios[i];
            DstEllipsoid e1 = {{0, 0, 0}, {0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6}, {1, 1 / g, 0.3}};
            DstEllipsoid e2 = {{1, 2, 0.3}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {2, 1, 1 / g}};
            for (int sv = 0; sv < 3; ++sv) {
                DstEllipsoidOptions o = dst_ellipsoid_options_default();
                DstEllipsoidResult res;
                DstStatus st;
                o.solver = (DstEllipsoidSolver)sv;
                st = dst_ellipsoid_closest_approach(&e1, &e2, &o, &res);
                if (sv == DST_ELLIPSOID_HYBRID) ck_assert_int_eq(st, DST_OK);
                if (st == DST_FAILED) {
                    ck_assert_ptr_nonnull(res.error);
                    ck_assert(res.d == 0.0);
                } else {
                    ck_assert(st == DST_OK || st == DST_ITER_LIMIT);
                    ck_assert(isfinite(res.d) && res.d > 0.0 && isfinite(res.gap));
                    for (int k = 0; k < 3; ++k) ck_assert(isfinite(res.contact[k]) && isfinite(res.normal[k]));
                }
            }
        }
    }
    {
        /* needle against pancake, axis-aligned and touching along x */
        DstEllipsoid needle = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {1.0, 1e-3, 1e-3}};
        DstEllipsoid pancake = {{5, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {1e-3, 1.0, 1.0}};
        DstEllipsoidResult res;
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&needle, &pancake, NULL, &res), DST_OK);
        ck_assert_double_eq_tol(res.d, 1.001, TOL_SPHERE * 10);
        ck_assert_double_eq_tol(res.gap, 5.0 - 1.001, TOL_SPHERE * 10);
    }
}
END_TEST

/* ------------------------------------------------------------------ prepared shapes */

static void to_shape_pose(const DstEllipsoid *e, DstEllipsoidShape *s, DstEllipsoidPose *p)
{
    ck_assert_ptr_null(dst_ellipsoid_shape_prepare(s, e->radii));
    memcpy(p->centre, e->centre, sizeof e->centre);
    memcpy(p->rot, e->rot, sizeof e->rot);
}

static void assert_same_result(const DstEllipsoidResult *a, const DstEllipsoidResult *b)
{
    ck_assert_int_eq(a->status, b->status);
    ck_assert_int_eq(a->iterations, b->iterations);
    ck_assert_int_eq(a->evaluations, b->evaluations);
    ck_assert_double_eq_tol(a->d, b->d, TOL_PREPARED * a->d);
    ck_assert_double_eq_tol(a->gap, b->gap, TOL_PREPARED * a->d);
    ck_assert_double_eq_tol(a->u, b->u, TOL_PREPARED);
    ck_assert_double_eq_tol(a->residual, b->residual, TOL_PREPARED * a->d);
    for (int k = 0; k < 3; ++k) {
        ck_assert_double_eq_tol(a->contact[k], b->contact[k], TOL_PREPARED * (a->d + fabs(a->contact[k])));
        ck_assert_double_eq_tol(a->normal[k], b->normal[k], TOL_PREPARED);
        ck_assert_double_eq_tol(a->dir[k], b->dir[k], TOL_PREPARED);
    }
}

/* The default path (issue 20: poses validated in the shadow of the iterations, the normal
 * N = M zt through one precomputed matrix) on the awkward cases: nearly touching and
 * overlapping placements (the sign of gap), very elongated (gamma 1000) and sphere-like
 * (radii equal to 1e-12) pairs. d against the independent support-function minimum, the
 * upper-bound property, the contact conditions, and the prepared entry point. */
START_TEST(test_default_path_awkward_pairs)
{
    Rng r = {2020};
    for (int trial = 0; trial < 240; ++trial) {
        const int kind = trial % 4; /* 0 nearly touching, 1 overlapping, 2 gamma 1000, 3 sphere-like */
        const double gamma = kind == 2 ? 1000.0 : 5.0;
        DstEllipsoid e1, e2;
        DstEllipsoidShape s1, s2;
        DstEllipsoidPose p1, p2;
        DstEllipsoidResult res, prep;
        double n[3], ref, offset;
        random_ellipsoid(&r, gamma, 3.0, &e1);
        random_ellipsoid(&r, gamma, 3.0, &e2);
        if (kind == 3) {
            const double a = e1.radii[0];
            e1.radii[1] = a * (1.0 + 1e-12);
            e1.radii[2] = a * (1.0 - 1e-12);
            e2.radii[0] = e2.radii[1] = e2.radii[2] = a * 1.5;
        }
        rng_unit(&r, n);
        ref = reference_d(&e1, &e2, n);
        /* e2 placed along n: 1e-9 outside the touching placement, or 10 % inside it */
        offset = kind == 1 ? 0.9 * ref : ref + 1e-9;
        for (int a = 0; a < 3; ++a) e2.centre[a] = e1.centre[a] + offset * n[a];
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, NULL, &res), DST_OK);
        if (kind == 2) {
            /* elongated: d against the reference within the bands of the extreme test */
            ck_assert_msg(fabs(res.d - ref) <= TOL_SURFACE_EXTREME * ref, "trial %d: d %.17g reference %.17g",
                          trial, res.d, ref);
            assert_contact(&e1, &e2, &res, TOL_SURFACE_EXTREME, TOL_ALIGN_EXTREME);
        } else {
            ck_assert_msg(fabs(res.d - ref) <= TOL_REFERENCE * ref, "trial %d: d %.17g reference %.17g", trial,
                          res.d, ref);
            assert_contact(&e1, &e2, &res, TOL_CONTACT, TOL_CONTACT);
        }
        ck_assert_msg(res.d >= ref * (1.0 - 1e-15), "d %.17g below the minimum %.17g", res.d, ref);
        /* gap = |c2 - c1| - d: about +1e-9 when just apart, about -0.1 ref overlapping */
        if (kind == 1)
            ck_assert_msg(res.gap < -0.09 * ref, "overlap not reported: gap %.3g", res.gap);
        else if (kind == 0)
            ck_assert_msg(res.gap > 0.0 && fabs(res.gap - 1e-9) <= 1e-12 * (1.0 + ref), "gap %.17g", res.gap);
        /* the prepared entry point gives the same answer */
        to_shape_pose(&e1, &s1, &p1);
        to_shape_pose(&e2, &s2, &p2);
        ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&s1, &p1, &s2, &p2, NULL, &prep), DST_OK);
        assert_same_result(&res, &prep);
    }
}
END_TEST

START_TEST(test_prepared_matches_ellipsoid_path)
{
    Rng r = {4242};
    for (int trial = 0; trial < 600; ++trial) {
        /* gamma from spheres to needles, every solver and both stopping rules */
        const double gamma = trial < 200 ? 5.0 : (trial < 400 ? 1.0 + 99.0 * rng_u01(&r) : 1000.0);
        DstEllipsoid e1, e2;
        DstEllipsoidShape s1, s2;
        DstEllipsoidPose p1, p2;
        DstEllipsoidOptions o = dst_ellipsoid_options_default();
        DstEllipsoidResult a, b;
        double n[3];
        random_ellipsoid(&r, gamma, 3.0, &e1);
        random_ellipsoid(&r, gamma, 3.0, &e2);
        rng_unit(&r, n);
        to_shape_pose(&e1, &s1, &p1);
        to_shape_pose(&e2, &s2, &p2);
        o.solver = (DstEllipsoidSolver)(trial % 3);
        o.stop = (DstEllipsoidStop)((trial / 3) % 2);
        if (o.stop == DST_ELLIPSOID_STOP_GAP) o.eps = 1e-6;
        ck_assert_int_ne(dst_ellipsoid_approach_along(&e1, &e2, n, &o, &a), DST_INVALID_INPUT);
        ck_assert_int_ne(dst_ellipsoid_prepared_approach_along(&s1, &p1, &s2, &p2, n, &o, &b), DST_INVALID_INPUT);
        assert_same_result(&a, &b);
        ck_assert_int_ne(dst_ellipsoid_closest_approach(&e1, &e2, &o, &a), DST_INVALID_INPUT);
        ck_assert_int_ne(dst_ellipsoid_prepared_closest_approach(&s1, &p1, &s2, &p2, &o, &b), DST_INVALID_INPUT);
        assert_same_result(&a, &b);
        /* the prepared shape holds the radii and their inverses */
        for (int k = 0; k < 3; ++k) {
            ck_assert(s1.radii[k] == e1.radii[k]);
            ck_assert(s1.inv_radii[k] == 1.0 / e1.radii[k]);
        }
        ck_assert(s1.r_min == fmin(fmin(e1.radii[0], e1.radii[1]), e1.radii[2]));
    }
}
END_TEST

START_TEST(test_prepare_rejects_bad_shapes)
{
    static const double bad[][3] = {{0.0, 1.0, 1.0}, {1.0, -1.0, 1.0}, {1.0, 1.0, NAN},
                                    {INFINITY, 1.0, 1.0}, {-0.0, 1.0, 1.0}, {1.0, 1.0, -INFINITY}};
    const double tiny[3] = {1.0, 1e-310, 1.0}; /* subnormal: 1/r overflows */
    const double good_r[3] = {1.0, 0.5, 0.25};
    DstEllipsoidShape s, good;
    DstEllipsoidPose pose = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}}, far = {{3, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    DstEllipsoidResult res;
    const double dir[3] = {1, 0, 0};
    const char *why;
    ck_assert_ptr_null(dst_ellipsoid_shape_prepare(&good, good_r));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        memset(&s, 0x55, sizeof s);
        why = dst_ellipsoid_shape_prepare(&s, bad[i]);
        ck_assert_ptr_nonnull(why);
        ck_assert_ptr_nonnull(strstr(why, "radii"));
        /* the failed shape is zeroed and refused by a query, never used */
        ck_assert(s.r_min == 0.0 && s.radii[0] == 0.0 && s.inv_radii[0] == 0.0);
        memset(&res, 0x55, sizeof res);
        ck_assert_int_eq(dst_ellipsoid_prepared_approach_along(&s, &pose, &good, &far, dir, NULL, &res),
                         DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(res.error, "not prepared"));
        ck_assert(res.d == 0.0 && res.u == 0.0);
        ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&good, &pose, &s, &far, NULL, &res),
                         DST_INVALID_INPUT);
    }
    why = dst_ellipsoid_shape_prepare(&s, tiny);
    ck_assert_ptr_nonnull(why);
    ck_assert_ptr_nonnull(strstr(why, "too small"));
    ck_assert_ptr_nonnull(dst_ellipsoid_shape_prepare(&s, NULL));
    ck_assert_ptr_nonnull(dst_ellipsoid_shape_prepare(NULL, good_r));
    /* the same radii through the DstEllipsoid entry point */
    {
        DstEllipsoid e1 = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {1.0, 1e-310, 1.0}};
        DstEllipsoid e2 = {{3, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {1.0, 1.0, 1.0}};
        ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, NULL, &res), DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(res.error, "too small"));
    }
    /* NULL arguments and bad poses */
    ck_assert_int_eq(dst_ellipsoid_prepared_approach_along(NULL, &pose, &good, &far, dir, NULL, &res),
                     DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(res.error, "shape"));
    ck_assert_int_eq(dst_ellipsoid_prepared_approach_along(&good, NULL, &good, &far, dir, NULL, &res),
                     DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(res.error, "pose"));
    ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&good, &pose, &good, NULL, NULL, &res),
                     DST_INVALID_INPUT);
    ck_assert_int_eq(dst_ellipsoid_prepared_approach_along(&good, &pose, &good, &far, dir, NULL, NULL),
                     DST_INVALID_INPUT);
    {
        DstEllipsoidPose p = far;
        p.rot[1] = 0.1;
        ck_assert_int_eq(dst_ellipsoid_prepared_approach_along(&good, &pose, &good, &p, dir, NULL, &res),
                         DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(res.error, "orthonormal"));
        p = far;
        p.rot[8] = NAN;
        ck_assert_int_eq(dst_ellipsoid_prepared_approach_along(&good, &p, &good, &pose, dir, NULL, &res),
                         DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(res.error, "rotation is not finite"));
        p = far;
        p.centre[2] = INFINITY;
        ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&good, &pose, &good, &p, NULL, &res),
                         DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(res.error, "centre"));
        /* coincident centres */
        ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&good, &pose, &good, &pose, NULL, &res),
                         DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(res.error, "direction"));
    }
    /* and a good query answers */
    ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&good, &pose, &good, &far, NULL, &res), DST_OK);
    ck_assert_double_eq_tol(res.d, 2.0, TOL_SPHERE * 2.0);
}
END_TEST

/* ------------------------------------------------------------------ start value */

/* e scaled by s about its centre: the same shape and orientation */
static DstEllipsoid scaled(const DstEllipsoid *e, double s)
{
    DstEllipsoid out = *e;
    for (int b = 0; b < 3; ++b) out.radii[b] *= s;
    return out;
}

/* Eq. (34): the radial start u0 = rho1 / (rho1 + rho2) is the root of eq. (10) for two
 * spheres of any radii (u = r1 / (r1 + r2)) and, since u is invariant under linear maps of
 * space, for any two homothetic ellipsoids (e2 = e1 scaled by s and moved: u = 1 / (1 + s)):
 * every solver and both stopping rules stop at once (at most one update). */
START_TEST(test_radial_start_exact_for_homothetic_pairs)
{
    Rng r = {3434};
    for (int trial = 0; trial < 300; ++trial) {
        DstEllipsoid e1, e2;
        double dir[3], u_exact, d_exact, ratio = 1.0;
        if (trial % 2 == 0) {
            /* spheres with radii from 1e-3 to 1e3 (ratios up to 1e6 either way) */
            const double r1 = pow(10.0, rng_uniform(&r, -3.0, 3.0)), r2 = pow(10.0, rng_uniform(&r, -3.0, 3.0));
            e1 = sphere(0, 0, 0, r1);
            e2 = sphere(0, 0, 0, r2);
            rng_rotation(&r, e1.rot);
            rng_rotation(&r, e2.rot);
            u_exact = r1 / (r1 + r2);
            d_exact = r1 + r2;
            ratio = fmax(r1 / r2, r2 / r1);
        } else {
            /* an ellipsoid up to gamma 100 and its copy scaled by s in [1e-2, 1e2] */
            const double s = pow(10.0, rng_uniform(&r, -2.0, 2.0));
            random_ellipsoid(&r, 100.0, 3.0, &e1);
            e2 = scaled(&e1, s);
            u_exact = 1.0 / (1.0 + s);
            d_exact = NAN; /* checked against the support-function reference below */
        }
        rng_unit(&r, dir);
        for (int a = 0; a < 3; ++a) e2.centre[a] = e1.centre[a] + 3.0 * (e1.radii[0] + e2.radii[0]) * dir[a];
        for (int sv = 0; sv < 3; ++sv)
            for (int rule = 0; rule < 2; ++rule) {
                DstEllipsoidOptions o = dst_ellipsoid_options_default();
                DstEllipsoidResult res;
                if (rule == 1 && ratio > RULE13_MAX_RADIUS_RATIO) continue;
                o.solver = (DstEllipsoidSolver)sv;
                o.stop = (DstEllipsoidStop)rule;
                ck_assert_int_eq(dst_ellipsoid_approach_along(&e1, &e2, dir, &o, &res), DST_OK);
                ck_assert_msg(res.iterations <= 1, "trial %d solver %d rule %d: %d iterations", trial, sv, rule,
                              res.iterations);
                ck_assert_msg(fabs(res.u - u_exact) <= TOL_SPHERE * 10.0, "trial %d: u %.17g exact %.17g", trial,
                              res.u, u_exact);
                if (trial % 2 == 0)
                    ck_assert_double_eq_tol(res.d, d_exact, TOL_SPHERE * d_exact);
                else
                    ck_assert_msg(fabs(res.d - reference_d(&e1, &e2, dir)) <= TOL_REFERENCE * res.d,
                                  "trial %d: d %.17g", trial, res.d);
            }
    }
}
END_TEST

/* The radial start (the default) and the paper's u0 = 0.5 give the same answer within the
 * accuracy of rule (12), on randomised pairs of every awkward kind, for every solver that
 * converges there; both entry points (the prepared one must equal the DstEllipsoid one). */
START_TEST(test_radial_start_matches_paper_start)
{
    Rng r = {2525};
    enum { N_KINDS = 7 };
    for (int trial = 0; trial < 70 * N_KINDS; ++trial) {
        /* 0 nearly touching, 1 overlapping, 2 gamma 1000, 3 sphere-like, 4 equal spheres,
           5 very different sizes (1e-3 .. 1e3), 6 the Fig. 3 kind */
        const int kind = trial % N_KINDS;
        const double gamma = kind == 2 ? 1000.0 : 5.0;
        DstEllipsoid e1, e2;
        double n[3], ref, offset;
        random_ellipsoid(&r, gamma, 3.0, &e1);
        random_ellipsoid(&r, gamma, 3.0, &e2);
        if (kind == 3) {
            const double a = e1.radii[0];
            e1.radii[1] = a * (1.0 + 1e-12);
            e1.radii[2] = a * (1.0 - 1e-12);
            e2.radii[0] = e2.radii[1] = e2.radii[2] = a * 1.5;
        } else if (kind == 4) {
            e1.radii[0] = e1.radii[1] = e1.radii[2] = e2.radii[0];
            e2.radii[1] = e2.radii[2] = e2.radii[0];
        } else if (kind == 5) {
            e2 = scaled(&e2, trial % 2 == 0 ? 1e-3 : 1e3);
        }
        rng_unit(&r, n);
        ref = reference_d(&e1, &e2, n);
        /* e2 along n: 1e-9 outside the touching placement, 10 % inside it, or well apart */
        offset = kind == 0 ? ref + 1e-9 : (kind == 1 ? 0.9 * ref : 2.0 * ref);
        for (int a = 0; a < 3; ++a) e2.centre[a] = e1.centre[a] + offset * n[a];
        for (int sv = 0; sv < 3; ++sv) {
            DstEllipsoidOptions oa = dst_ellipsoid_options_default(), op;
            DstEllipsoidShape s1, s2;
            DstEllipsoidPose p1, p2;
            DstEllipsoidResult ra, rp, prep;
            const double tol_contact =
                kind == 2 || sv == DST_ELLIPSOID_FIXED_POINT ? TOL_START_CONTACT_WIDE : TOL_START_CONTACT;
            /* the fixed point and Steffensen need not converge at gamma 1000 (Fig. 2) */
            if (kind == 2 && sv != DST_ELLIPSOID_HYBRID) continue;
            oa.solver = (DstEllipsoidSolver)sv;
            op = oa;
            op.u0 = DST_ELLIPSOID_PAPER_U0;
            ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &oa, &ra), DST_OK);
            ck_assert_int_eq(dst_ellipsoid_closest_approach(&e1, &e2, &op, &rp), DST_OK);
            ck_assert_msg(fabs(ra.u - rp.u) <= TOL_START_U, "trial %d solver %d: u %.17g against %.17g", trial, sv,
                          ra.u, rp.u);
            ck_assert_msg(fabs(ra.d - rp.d) <= TOL_START_D * rp.d, "trial %d solver %d: d %.17g against %.17g", trial,
                          sv, ra.d, rp.d);
            ck_assert_msg(fabs(ra.gap - rp.gap) <= TOL_START_D * rp.d, "trial %d solver %d: gap %.17g against %.17g",
                          trial, sv, ra.gap, rp.gap);
            for (int a = 0; a < 3; ++a)
                ck_assert_msg(fabs(ra.contact[a] - rp.contact[a]) <= tol_contact * rp.d,
                              "trial %d solver %d: contact %.17g against %.17g", trial, sv, ra.contact[a],
                              rp.contact[a]);
            /* the sign of gap survives the start */
            if (kind == 0) ck_assert(ra.gap > 0.0 && rp.gap > 0.0);
            if (kind == 1) ck_assert(ra.gap < 0.0 && rp.gap < 0.0);
            /* d stays above the support-function minimum (the upper bound of eq. 31b) */
            ck_assert_msg(ra.d >= ref * (1.0 - 1e-15), "trial %d: d %.17g below the minimum %.17g", trial, ra.d, ref);
            to_shape_pose(&e1, &s1, &p1);
            to_shape_pose(&e2, &s2, &p2);
            ck_assert_int_eq(dst_ellipsoid_prepared_closest_approach(&s1, &p1, &s2, &p2, &oa, &prep), DST_OK);
            assert_same_result(&ra, &prep);
        }
    }
}
END_TEST

/* Issue 20: from the default (radial) start the hybrid needs at most 5.1 iterations on
 * average and 15 at most on the Fig. 3 pairs (gamma 5, Gamma 3, rule 12 with 1e-8), and
 * fewer than from the paper's u0 = 0.5 on the same pairs; the other solvers gain too.
 * Iteration counts are deterministic: no timing here. */
START_TEST(test_radial_start_iterations_fig3)
{
    Rng r = {333};
    double sum[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    int mx[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    const int n = 4000;
    for (int trial = 0; trial < n; ++trial) {
        DstEllipsoid e1, e2;
        double dir[3];
        random_ellipsoid(&r, 5.0, 3.0, &e1);
        random_ellipsoid(&r, 5.0, 3.0, &e2);
        rng_unit(&r, dir);
        for (int sv = 0; sv < 3; ++sv)
            for (int start = 0; start < 2; ++start) {
                DstEllipsoidOptions o = dst_ellipsoid_options_default();
                DstEllipsoidResult res;
                o.solver = (DstEllipsoidSolver)sv;
                if (start == 1) o.u0 = DST_ELLIPSOID_PAPER_U0;
                ck_assert_int_eq(dst_ellipsoid_approach_along(&e1, &e2, dir, &o, &res), DST_OK);
                sum[sv][start] += res.iterations;
                if (res.iterations > mx[sv][start]) mx[sv][start] = res.iterations;
            }
    }
    ck_assert_msg(sum[DST_ELLIPSOID_HYBRID][0] / n <= START_FIG3_MEAN_ITER, "hybrid mean %g",
                  sum[DST_ELLIPSOID_HYBRID][0] / n);
    ck_assert_int_le(mx[DST_ELLIPSOID_HYBRID][0], START_FIG3_MAX_ITER);
    for (int sv = 0; sv < 3; ++sv)
        ck_assert_msg(sum[sv][0] < sum[sv][1], "solver %d: radial start %g iterations, paper start %g", sv,
                      sum[sv][0] / n, sum[sv][1] / n);
    /* a solver that ignored the start would tie; the hybrid gains more than one
       iteration in four on these pairs */
    ck_assert_msg(sum[DST_ELLIPSOID_HYBRID][1] - sum[DST_ELLIPSOID_HYBRID][0] > 0.25 * n,
                  "hybrid: radial %g, paper %g", sum[DST_ELLIPSOID_HYBRID][0] / n, sum[DST_ELLIPSOID_HYBRID][1] / n);
}
END_TEST

Suite *dst_ellipsoid_suite(void)
{
    Suite *s = suite_create("dst_ellipsoid");
    TCase *tc;

    tc = tcase_create("validation");
    tcase_add_test(tc, test_rejects_invalid_input);
    tcase_add_test(tc, test_validation_after_setup);
    suite_add_tcase(s, tc);

    tc = tcase_create("spheres");
    tcase_add_test(tc, test_spheres_analytic);
    suite_add_tcase(s, tc);

    tc = tcase_create("contact");
    tcase_add_test(tc, test_contact_conditions_random);
    tcase_add_test(tc, test_matches_support_function_reference);
    tcase_add_test(tc, test_invariances);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("derivative");
    tcase_add_test(tc, test_fprime_vs_central_differences);
    suite_add_tcase(s, tc);

    tc = tcase_create("stopping");
    tcase_add_test(tc, test_stopping_rule_13);
    tcase_add_test(tc, test_iteration_limit_reported);
    tcase_add_test(tc, test_solver_iteration_counts_fig3);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("prepared");
    tcase_add_test(tc, test_prepared_matches_ellipsoid_path);
    tcase_add_test(tc, test_default_path_awkward_pairs);
    tcase_add_test(tc, test_prepare_rejects_bad_shapes);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("extreme");
    tcase_add_test(tc, test_extreme_ratios_converge);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    tc = tcase_create("start");
    tcase_add_test(tc, test_radial_start_exact_for_homothetic_pairs);
    tcase_add_test(tc, test_radial_start_matches_paper_start);
    tcase_add_test(tc, test_radial_start_iterations_fig3);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
