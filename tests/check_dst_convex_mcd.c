/* check_dst_convex_mcd.c — tests of distance/dst_convex_mcd.c: a moving capsule against a
 * static box, certified bounds against dense sampling with refinement on random motions
 * (separated, touching, penetrating, several minima), degenerate and invalid input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_rng.h"
#include "dst_capsule_testgen.h"
#include "dst_convex_mcd.h"

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

Suite *dst_convex_mcd_suite(void)
{
    Suite *s = suite_create("dst_convex_mcd");
    TCase *tc = tcase_create("bounds");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bounds_against_dense_reference);
    tcase_add_test(tc, test_still_capsule_is_static_distance);
    tcase_add_test(tc, test_point_capsule_passing_through);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_invalid_input);
    suite_add_tcase(s, tc);
    return s;
}
