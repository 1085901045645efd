/* check_dst_capsule_mcd.c — tests of distance/dst_capsule_mcd.c: the capsule MCD by
 * golden-section search, conservative advancement, the hybrid and certified sampling
 * (thesis ch. III, eq. 6.3) against a dense-sampling reference on seeded realistic
 * motions; the GSS miss of Fig. 3.4; caps, enclosure radii, degenerate and bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dst_capsule.h"
#include "dst_capsule_testgen.h"

/* seeded realistic motions (issue 3: >= 20k; fewer under ASan) */
#define MCD_MOTIONS (TG_ASAN ? 6000 : 20000)
#define MCD_T0 1.25
#define MCD_T 0.5
#define MCD_DEGREE 7
#define MCD_DEGREE_THESIS 5
/* reference: dense samples over [0, 1] before the golden-section refinement */
#define MCD_REF_SAMPLES 2000
/* the reference is a real value refined far below eps: a method's upper bound may sit
 * below it only by this much (metres) */
#define MCD_REF_TOL 1e-9
/* upper must equal the distance at t_min, metres */
#define MCD_VALUE_TOL 1e-12
/* least fraction of motions that CA / hybrid certify within the default step cap */
#define MCD_MIN_CERTIFIED_FRACTION 0.995
#define MCD_UNIT_TOL 1e-12
/* witness points recomputed from the segment parameters, metres */
#define MCD_POINT_TOL 1e-11
/* Fig. 3.4 trap: the deep minimum is near s = 0.1, the shallow one near 0.7; a time
 * "in" a minimum means within this many units of s */
#define MCD_TRAP_DEEP_S 0.1
#define MCD_TRAP_SPLIT_S 0.5
#define MCD_TRAP_S_TOL 0.05

static double mcd_eps(void)
{
    return dst_mcd_options_default().eps;
}

/* the result is well formed and consistent with its own witness */
static void check_result(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                         const DstMcdResult *r)
{
    ck_assert(isfinite(r->lower) && isfinite(r->upper) && isfinite(r->t_min));
    ck_assert(r->t_min >= t0 && r->t_min <= t1);
    ck_assert(r->sA >= 0.0 && r->sA <= 1.0 && r->sB >= 0.0 && r->sB <= 1.0);
    ck_assert(r->lower <= r->upper);
    double nn = sqrt(r->n[0] * r->n[0] + r->n[1] * r->n[1] + r->n[2] * r->n[2]);
    ck_assert(fabs(nn - 1.0) <= MCD_UNIT_TOL);
    double s = t1 > t0 ? (r->t_min - t0) / (t1 - t0) : 0.0;
    ck_assert_msg(fabs(tg_distance_at(a, b, s) - r->upper) <= MCD_VALUE_TOL, "upper %.17g is not the distance at t_min",
                  r->upper);
    /* witness points on the segments at t_min, surface points from the normal */
    double a0[3], a1[3], b0[3], b1[3];
    dst_poly_point_eval(&a->p0, s, a0);
    dst_poly_point_eval(&a->p1, s, a1);
    dst_poly_point_eval(&b->p0, s, b0);
    dst_poly_point_eval(&b->p1, s, b1);
    for (int i = 0; i < 3; ++i) {
        ck_assert(fabs(a0[i] + r->sA * (a1[i] - a0[i]) - r->cA[i]) <= MCD_POINT_TOL);
        ck_assert(fabs(b0[i] + r->sB * (b1[i] - b0[i]) - r->cB[i]) <= MCD_POINT_TOL);
        ck_assert(fabs(r->pA[i] - (r->cA[i] - a->radius * r->n[i])) <= MCD_VALUE_TOL);
        ck_assert(fabs(r->pB[i] - (r->cB[i] + b->radius * r->n[i])) <= MCD_VALUE_TOL);
    }
    ck_assert(r->distance_evals >= 1);
}

/* lower <= reference <= upper (+ tolerance of the reference) */
static void check_bounds(const DstMcdResult *r, double ref, const char *method, int k)
{
    ck_assert_msg(r->lower <= ref, "%s motion %d: lower %.12g above the reference %.12g", method, k, r->lower, ref);
    ck_assert_msg(ref <= r->upper + MCD_REF_TOL, "%s motion %d: upper %.12g below the reference %.12g", method, k,
                  r->upper, ref);
}

START_TEST(test_random_motions_certified)
{
    TgRng rng = {20260101};
    DstMcdOptions opt = dst_mcd_options_default();
    const double t0 = MCD_T0, t1 = MCD_T0 + MCD_T;
    long certified[4] = {0}, gss_miss = 0, several_minima = 0;
    for (int k = 0; k < MCD_MOTIONS; ++k) {
        DstMovingCapsule a, b;
        /* a third with the thesis's degree 5 (wider enclosure radii), the rest degree 7 */
        tg_realistic_motion(&rng, MCD_T, k % 3 == 0 ? MCD_DEGREE_THESIS : MCD_DEGREE, &a, &b);
        double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
        DstMcdResult r[4];
        const DstMcdMethod methods[4] = {DST_MCD_GSS, DST_MCD_CA, DST_MCD_HYBRID, DST_MCD_SAMPLING};
        for (int m = 0; m < 4; ++m) {
            DstStatus st = dst_capsule_mcd(methods[m], &a, &b, t0, t1, &opt, &r[m]);
            ck_assert_int_eq(st, r[m].status);
            check_result(&a, &b, t0, t1, &r[m]);
            check_bounds(&r[m], ref, dst_mcd_method_string(methods[m]), k);
            if (st == DST_CERTIFIED) {
                ++certified[m];
                ck_assert_msg(r[m].upper - r[m].lower <= opt.eps, "%s motion %d: gap %.3g > eps",
                              dst_mcd_method_string(methods[m]), k, r[m].upper - r[m].lower);
            } else if (m != 0) {
                ck_assert_int_eq(st, DST_ITER_LIMIT);
            }
        }
        ck_assert_int_eq(r[0].status, DST_NOT_CERTIFIED); /* GSS is never certified */
        ck_assert_int_eq(r[0].advance_steps, 0);
        gss_miss += r[0].upper - ref > opt.eps;
        /* count motions with two separated local minima in the sampled distance */
        int minima = 0;
        double f_prev2 = 0.0, f_prev = 0.0;
        for (int j = 0; j <= 200; ++j) {
            double f = tg_distance_at(&a, &b, j / 200.0);
            if (j >= 2 && f_prev < f_prev2 && f_prev < f) ++minima;
            f_prev2 = f_prev, f_prev = f;
        }
        several_minima += minima >= 2;
    }
    ck_assert(certified[0] == 0);
    ck_assert_msg(certified[1] >= MCD_MIN_CERTIFIED_FRACTION * MCD_MOTIONS, "CA certified %ld", certified[1]);
    ck_assert_msg(certified[2] >= MCD_MIN_CERTIFIED_FRACTION * MCD_MOTIONS, "hybrid certified %ld", certified[2]);
    ck_assert_msg(certified[3] == MCD_MOTIONS, "sampling certified %ld", certified[3]);
    /* the set must contain motions with several local minima, and GSS must miss some */
    ck_assert_msg(several_minima >= MCD_MOTIONS / 50, "only %ld motions with several minima", several_minima);
    ck_assert_msg(gss_miss > 0, "GSS never missed: the motion set is too easy");
}
END_TEST

/* Fig. 3.4: the distance has a deep minimum near s = 0.1 and a shallow one near s = 0.7;
 * from the bracket [0, 0.5, 1] golden-section search falls into the shallow one */
static void gss_trap_motion(DstMovingCapsule *a, DstMovingCapsule *b)
{
    /* y(s) = 40 (s - 0.1)^2 (s - 0.7)^2 + 0.2 + 0.05 s */
    double q[3] = {0.07, -0.8, 1.0}; /* (s - 0.1)(s - 0.7) */
    double y[5] = {0};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) y[i + j] += 40.0 * q[i] * q[j];
    }
    y[0] += 0.2;
    y[1] += 0.05;
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    a->p0.degree = a->p1.degree = 4;
    for (int k = 0; k <= 4; ++k) a->p0.c[k][1] = a->p1.c[k][1] = y[k];
    a->p1.c[0][0] = 1.0;
    b->p1.c[0][0] = 1.0;
    a->radius = b->radius = 0.05;
}

START_TEST(test_gss_miss_fig_3_4)
{
    DstMovingCapsule a, b;
    gss_trap_motion(&a, &b);
    double s_ref;
    double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, &s_ref);
    ck_assert(fabs(s_ref - MCD_TRAP_DEEP_S) < MCD_TRAP_S_TOL);
    DstMcdResult g, c, h;
    ck_assert_int_eq(dst_capsule_mcd_gss(&a, &b, 0.0, 1.0, NULL, &g), DST_NOT_CERTIFIED);
    ck_assert_msg(g.upper - ref > mcd_eps(), "GSS found %.6g, the minimum is %.6g: no miss", g.upper, ref);
    ck_assert(g.t_min > MCD_TRAP_SPLIT_S); /* it settled in the shallow minimum */
    ck_assert_int_eq(dst_capsule_mcd_ca(&a, &b, 0.0, 1.0, NULL, &c), DST_CERTIFIED);
    ck_assert_int_eq(dst_capsule_mcd_hybrid(&a, &b, 0.0, 1.0, NULL, &h), DST_CERTIFIED);
    check_bounds(&c, ref, "ca", 0);
    check_bounds(&h, ref, "hybrid", 0);
    ck_assert(c.upper - c.lower <= mcd_eps() && h.upper - h.lower <= mcd_eps());
    ck_assert(fabs(h.t_min - s_ref) < MCD_TRAP_S_TOL); /* the hybrid lands in the deep minimum */
}
END_TEST

START_TEST(test_iteration_cap)
{
    TgRng rng = {31};
    DstMcdOptions opt = dst_mcd_options_default();
    opt.max_iter = 3;
    int capped = 0;
    for (int k = 0; k < 500; ++k) {
        DstMovingCapsule a, b;
        tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
        double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
        DstMcdResult r;
        DstStatus st = dst_capsule_mcd_ca(&a, &b, 0.0, MCD_T, &opt, &r);
        ck_assert(st == DST_CERTIFIED || st == DST_ITER_LIMIT);
        ck_assert(r.advance_steps <= opt.max_iter);
        check_result(&a, &b, 0.0, MCD_T, &r);
        check_bounds(&r, ref, "ca (capped)", k);
        capped += st == DST_ITER_LIMIT;
        st = dst_capsule_mcd_hybrid(&a, &b, 0.0, MCD_T, &opt, &r);
        ck_assert(st == DST_CERTIFIED || st == DST_ITER_LIMIT);
        check_bounds(&r, ref, "hybrid (capped)", k);
    }
    ck_assert(capped > 0);
    /* a sample cap below what eps needs */
    DstMovingCapsule a, b;
    tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
    double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
    opt = dst_mcd_options_default();
    opt.max_samples = 10;
    DstMcdResult r;
    ck_assert_int_eq(dst_capsule_mcd_sampling(&a, &b, 0.0, MCD_T, &opt, &r), DST_ITER_LIMIT);
    ck_assert_int_eq(r.distance_evals, opt.max_samples);
    check_bounds(&r, ref, "sampling (capped)", 0);
}
END_TEST

/* the enclosure radii are subtracted from the lower bound: lower <= ref - errA - errB */
START_TEST(test_enclosure_radius)
{
    TgRng rng = {41};
    for (int k = 0; k < 300; ++k) {
        DstMovingCapsule a, b;
        tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
        double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
        double ea = 2e-4, eb = 1e-4;
        a.p0.err = ea, a.p1.err = 0.5 * ea, b.p1.err = eb;
        const DstMcdMethod methods[3] = {DST_MCD_CA, DST_MCD_HYBRID, DST_MCD_SAMPLING};
        for (int m = 0; m < 3; ++m) {
            DstMcdResult r;
            DstStatus st = dst_capsule_mcd(methods[m], &a, &b, 0.0, MCD_T, NULL, &r);
            ck_assert(r.lower <= ref - ea - eb);
            ck_assert(ref <= r.upper + MCD_REF_TOL);
            if (st == DST_CERTIFIED) ck_assert(r.upper - r.lower <= mcd_eps());
        }
        /* enclosure wider than eps: bounds still valid, never certified */
        a.p0.err = 2.0 * mcd_eps();
        DstMcdResult r;
        DstStatus st = dst_capsule_mcd_hybrid(&a, &b, 0.0, MCD_T, NULL, &r);
        ck_assert(st == DST_NOT_CERTIFIED || st == DST_ITER_LIMIT);
        ck_assert(r.lower <= ref - 2.0 * mcd_eps() - eb);
        ck_assert(ref <= r.upper + MCD_REF_TOL);
    }
}
END_TEST

START_TEST(test_degenerate_motions)
{
    const DstMcdMethod methods[4] = {DST_MCD_GSS, DST_MCD_CA, DST_MCD_HYBRID, DST_MCD_SAMPLING};
    DstMovingCapsule a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    /* static capsules, coincident: the deepest penetration -(rA + rB) */
    a.p1.c[0][0] = 1.0;
    b.p1.c[0][0] = 1.0;
    a.radius = 0.1, b.radius = 0.2;
    for (int m = 0; m < 4; ++m) {
        DstMcdResult r;
        DstStatus st = dst_capsule_mcd(methods[m], &a, &b, 0.0, 0.5, NULL, &r);
        ck_assert(st == (m == 0 ? DST_NOT_CERTIFIED : DST_CERTIFIED));
        ck_assert(fabs(r.upper + 0.3) <= MCD_VALUE_TOL);
        ck_assert(r.lower <= -0.3 && r.lower >= -0.3 - MCD_REF_TOL);
        check_result(&a, &b, 0.0, 0.5, &r);
    }
    /* static and apart: certified with a tight interval at once */
    b.p0.c[0][1] = b.p1.c[0][1] = 1.0;
    for (int m = 1; m < 4; ++m) {
        DstMcdResult r;
        ck_assert_int_eq(dst_capsule_mcd(methods[m], &a, &b, 0.0, 0.5, NULL, &r), DST_CERTIFIED);
        ck_assert(fabs(r.upper - 0.7) <= MCD_VALUE_TOL);
        ck_assert(r.lower <= 0.7 && r.upper - r.lower <= mcd_eps());
    }
    /* t1 == t0: the static distance at t0 */
    TgRng rng = {51};
    tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
    for (int m = 0; m < 4; ++m) {
        DstMcdResult r;
        DstStatus st = dst_capsule_mcd(methods[m], &a, &b, 2.0, 2.0, NULL, &r);
        ck_assert(st == (m == 0 ? DST_NOT_CERTIFIED : DST_CERTIFIED));
        ck_assert(r.t_min == 2.0);
        ck_assert(fabs(r.upper - tg_distance_at(&a, &b, 0.0)) <= MCD_VALUE_TOL);
        ck_assert(r.lower <= r.upper);
    }
}
END_TEST

/* the same motions far from the origin: the rounding widening scales with the coordinates */
START_TEST(test_far_from_origin)
{
    TgRng rng = {71};
    const double off[3] = {120.0, -75.0, 40.0};
    for (int k = 0; k < 400; ++k) {
        DstMovingCapsule a, b;
        tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
        tg_shift(&a, off);
        tg_shift(&b, off);
        double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
        const DstMcdMethod methods[3] = {DST_MCD_CA, DST_MCD_HYBRID, DST_MCD_SAMPLING};
        for (int m = 0; m < 3; ++m) {
            DstMcdResult r;
            DstStatus st = dst_capsule_mcd(methods[m], &a, &b, 0.0, MCD_T, NULL, &r);
            ck_assert(st == DST_CERTIFIED || st == DST_ITER_LIMIT);
            check_bounds(&r, ref, dst_mcd_method_string(methods[m]), k);
            if (st == DST_CERTIFIED) ck_assert(r.upper - r.lower <= mcd_eps());
        }
    }
}
END_TEST

/* extreme eps: tiny ones end at the cap or at the rounding floor, huge ones at once;
 * the bounds stay valid and the calls terminate */
START_TEST(test_extreme_eps)
{
    TgRng rng = {81};
    const double eps_values[3] = {1e-12, 1e-6, 10.0};
    for (int k = 0; k < 100; ++k) {
        DstMovingCapsule a, b;
        tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
        double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
        for (int e = 0; e < 3; ++e) {
            DstMcdOptions opt = dst_mcd_options_default();
            opt.eps = eps_values[e];
            const DstMcdMethod methods[2] = {DST_MCD_CA, DST_MCD_HYBRID};
            for (int m = 0; m < 2; ++m) {
                DstMcdResult r;
                DstStatus st = dst_capsule_mcd(methods[m], &a, &b, 0.0, MCD_T, &opt, &r);
                ck_assert(st == DST_CERTIFIED || st == DST_ITER_LIMIT || st == DST_NOT_CERTIFIED);
                ck_assert(r.advance_steps <= opt.max_iter);
                check_bounds(&r, ref, dst_mcd_method_string(methods[m]), k);
                if (st == DST_CERTIFIED) ck_assert(r.upper - r.lower <= opt.eps);
                if (e == 2) ck_assert_int_eq(st, DST_CERTIFIED);
            }
        }
    }
}
END_TEST

/* DstMcdOptions.stop_above (the hybrid's early stop, docs/math/capsule_mcd.md sec. 6): on
 * seeded realistic motions, levels from 2 cm below the dense reference minimum to 5 cm
 * above it. A stopped query (DST_ABOVE_LIMIT) has a certified lower bound >= the level and
 * below the reference, an upper bound that is the distance at its t_min; so it never stops
 * at a level above the reference. A query that does not stop is certified as without the
 * option. +INFINITY gives the default's result bit for bit. */
#define MCD_STOP_MOTIONS (TG_ASAN ? 1500 : 5000)
START_TEST(test_stop_above)
{
    TgRng rng = {7077};
    const double t0 = MCD_T0, t1 = MCD_T0 + MCD_T;
    const double delta[6] = {-0.02, -0.005, -1e-4, 1e-4, 0.005, 0.05};
    long stopped[6] = {0}, evals_stop = 0, evals_full = 0, certified = 0, runs = 0;
    for (int k = 0; k < MCD_STOP_MOTIONS; ++k) {
        DstMovingCapsule a, b;
        tg_realistic_motion(&rng, MCD_T, k % 3 == 0 ? MCD_DEGREE_THESIS : MCD_DEGREE, &a, &b);
        double ref = tg_reference_mcd(&a, &b, MCD_REF_SAMPLES, NULL);
        DstMcdOptions opt = dst_mcd_options_default();
        DstMcdResult full, r;
        dst_capsule_mcd(DST_MCD_HYBRID, &a, &b, t0, t1, &opt, &full);
        opt.stop_above = INFINITY;
        dst_capsule_mcd(DST_MCD_HYBRID, &a, &b, t0, t1, &opt, &r);
        ck_assert_msg(memcmp(&r, &full, sizeof r) == 0, "motion %d: stop_above = +inf changed the result", k);
        for (int d = 0; d < 6; ++d) {
            opt.stop_above = ref + delta[d];
            DstStatus st = dst_capsule_mcd(DST_MCD_HYBRID, &a, &b, t0, t1, &opt, &r);
            ck_assert_int_eq(st, r.status);
            check_result(&a, &b, t0, t1, &r);
            check_bounds(&r, ref, "hybrid stop_above", k);
            ++runs;
            if (st == DST_ABOVE_LIMIT) {
                ck_assert_msg(r.lower >= opt.stop_above, "motion %d: stopped with lower %.12g below the level %.12g",
                              k, r.lower, opt.stop_above);
                ++stopped[d];
                if (d == 0) evals_stop += r.distance_evals, evals_full += full.distance_evals;
            } else {
                ck_assert(st == DST_CERTIFIED || st == DST_ITER_LIMIT);
                if (st == DST_CERTIFIED) {
                    ck_assert(r.upper - r.lower <= opt.eps);
                    ++certified;
                }
            }
        }
    }
    /* no stop above the reference (lower <= reference); most stops 2 cm below it, and
     * those cheaper than the search they replace */
    ck_assert_int_eq(stopped[3] + stopped[4] + stopped[5], 0);
    ck_assert_msg(stopped[0] >= MCD_STOP_MOTIONS / 2, "only %ld of %d motions stopped 2 cm below", stopped[0],
                  MCD_STOP_MOTIONS);
    ck_assert_msg(evals_stop < evals_full, "stopped queries took %ld evaluations, the searches %ld", evals_stop,
                  evals_full);
    ck_assert_msg(certified >= MCD_MIN_CERTIFIED_FRACTION * (runs - stopped[0] - stopped[1] - stopped[2]),
                  "only %ld of the queries that did not stop certified", certified);
    fprintf(stderr, "stop_above: stopped %ld / %ld / %ld of %d at 20 / 5 / 0.1 mm below the minimum; "
                    "%ld evaluations against %ld\n", stopped[0], stopped[1], stopped[2], MCD_STOP_MOTIONS,
            evals_stop, evals_full);
}
END_TEST

static void check_invalid(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                          const DstMcdOptions *opt)
{
    for (int m = DST_MCD_GSS; m <= DST_MCD_SAMPLING; ++m) {
        DstMcdResult r;
        ck_assert_int_eq(dst_capsule_mcd((DstMcdMethod)m, a, b, t0, t1, opt, &r), DST_INVALID_INPUT);
        ck_assert_int_eq(r.status, DST_INVALID_INPUT);
        ck_assert(isfinite(r.lower) && isfinite(r.upper) && isfinite(r.t_min) && isfinite(r.n[0]));
    }
}

START_TEST(test_invalid_input)
{
    TgRng rng = {61};
    DstMovingCapsule a, b, bad;
    tg_realistic_motion(&rng, MCD_T, MCD_DEGREE, &a, &b);
    DstMcdOptions opt = dst_mcd_options_default();
    check_invalid(&a, &b, 1.0, 0.5, &opt);      /* t1 < t0 */
    check_invalid(&a, &b, NAN, 0.5, &opt);
    check_invalid(&a, &b, 0.0, INFINITY, &opt);
    check_invalid(NULL, &b, 0.0, 0.5, &opt);
    check_invalid(&a, NULL, 0.0, 0.5, &opt);
    bad = a;
    bad.radius = 0.0;
    check_invalid(&bad, &b, 0.0, 0.5, &opt);
    bad = b;
    bad.radius = -1.0;
    check_invalid(&a, &bad, 0.0, 0.5, &opt);
    bad = a;
    bad.p1.c[3][2] = NAN;
    check_invalid(&bad, &b, 0.0, 0.5, &opt);
    bad = a;
    bad.p0.degree = DST_MAX_DEGREE + 1;
    check_invalid(&bad, &b, 0.0, 0.5, &opt);
    bad = b;
    bad.p0.err = -1.0;
    check_invalid(&a, &bad, 0.0, 0.5, &opt);
    DstMcdOptions o = opt;
    o.eps = 0.0;
    check_invalid(&a, &b, 0.0, 0.5, &o);
    o = opt, o.eps = NAN;
    check_invalid(&a, &b, 0.0, 0.5, &o);
    o = opt, o.tau = -1.0;
    check_invalid(&a, &b, 0.0, 0.5, &o);
    o = opt, o.max_iter = 0;
    check_invalid(&a, &b, 0.0, 0.5, &o);
    o = opt, o.max_samples = 1;
    check_invalid(&a, &b, 0.0, 0.5, &o);
    o = opt, o.stop_above = NAN;
    check_invalid(&a, &b, 0.0, 0.5, &o);
    DstMcdResult r;
    ck_assert_int_eq(dst_capsule_mcd((DstMcdMethod)99, &a, &b, 0.0, 0.5, &opt, &r), DST_INVALID_INPUT);
    ck_assert_str_eq(dst_mcd_method_string((DstMcdMethod)99), "unknown");
    ck_assert_str_eq(dst_mcd_method_string(DST_MCD_HYBRID), "hybrid");
}
END_TEST

START_TEST(test_options_default)
{
    DstMcdOptions o = dst_mcd_options_default();
    ck_assert(o.eps == DST_DEFAULT_MCD_EPS && o.eps == 1e-3);
    ck_assert(o.tau == DST_DEFAULT_GSS_TAU && o.tau == 1e-3);
    ck_assert_int_eq(o.max_iter, 500);
    ck_assert_int_eq(o.max_samples, DST_DEFAULT_SAMPLING_MAX);
    ck_assert(o.stop_above == INFINITY);
}
END_TEST

Suite *dst_capsule_mcd_suite(void)
{
    Suite *s = suite_create("dst_capsule_mcd");
    TCase *tc = tcase_create("random_motions");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, test_random_motions_certified);
    suite_add_tcase(s, tc);
    tc = tcase_create("stop_above");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_stop_above);
    suite_add_tcase(s, tc);
    tc = tcase_create("gss_miss");
    tcase_add_test(tc, test_gss_miss_fig_3_4);
    suite_add_tcase(s, tc);
    tc = tcase_create("caps");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_iteration_cap);
    suite_add_tcase(s, tc);
    tc = tcase_create("enclosure");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_enclosure_radius);
    suite_add_tcase(s, tc);
    tc = tcase_create("degenerate");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_degenerate_motions);
    tcase_add_test(tc, test_far_from_origin);
    tcase_add_test(tc, test_extreme_eps);
    suite_add_tcase(s, tc);
    tc = tcase_create("invalid_input");
    tcase_add_test(tc, test_invalid_input);
    tcase_add_test(tc, test_options_default);
    suite_add_tcase(s, tc);
    return s;
}
