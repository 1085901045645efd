/* check_pln_taylor.c — tests of planner/motion/pln_taylor.c: every operation encloses the
 * true result on large random sets (0 violations), bounds contain dense samples, and
 * the enclosures are sharp where they should be.
 *
 * A random model is paired with a concrete function it encloses, f(tau) = p(tau) +
 * r(tau) with r(tau) in [lo, hi] (a constant at an end of the interval, the middle, or
 * an oscillation across it). References are evaluated in long double so that their own
 * rounding (~1e-19 relative) stays far below the models' widening. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "kin_fixture.h"
#include "motion/pln_taylor.h"
#include "base/pln_tolerance.h"

/* number of random model pairs per operation, and sample times per pair */
#define TM_TEST_PAIRS 4000
#define TM_TEST_TIMES 40
/* a sine of a model spanning 0.01 rad must have a remainder below this (rad): the
 * Lagrange term is 0.01^6/720 ~ 1e-15, the libm term 1.8e-15 and the rounding
 * widening of the ~15 operations involved ~1e-13 (a sloppy order-1 bound would give
 * 5e-5) */
#define TM_SHARP_SIN_WIDTH 1e-12
/* the range bound of a polynomial may exceed its dense-sampled range by at most this
 * fraction of the polynomial's coefficient sum (Bernstein bounds are close) */
#define TM_BOUND_OVERESTIMATE_FRAC 0.5
/* measured remainder order of sin(q0 + h tau) may differ from n+1 by this much */
#define TM_ORDER_TOL 0.05
/* results that are exact up to the widening of a few operations (unit magnitudes) */
#define TM_EXACT_TOL (1e3 * PLN_TM_ROUND_REL)

typedef struct Witness {
    PlnTaylor tm;
    int kind;          /* how r(tau) runs through [lo, hi] */
    double w, phase;   /* oscillation of kind 3 */
} Witness;

static long double wit_poly(const PlnTaylor *t, long double tau)
{
    long double v = t->c[t->n];
    int k;
    for (k = t->n - 1; k >= 0; --k) v = v * tau + t->c[k];
    return v;
}

static long double wit_value(const Witness *w, long double tau)
{
    long double r;
    switch (w->kind) {
    case 0: r = w->tm.lo; break;
    case 1: r = w->tm.hi; break;
    case 2: r = 0.5L * ((long double)w->tm.lo + w->tm.hi); break;
    default:
        r = w->tm.lo + ((long double)w->tm.hi - w->tm.lo) *
                           (0.5L + 0.5L * sinl(w->w * tau + w->phase));
        break;
    }
    return wit_poly(&w->tm, tau) + r;
}

/* a random model with coefficients of random scale, remainder maybe zero */
static void random_witness(KfRng *rng, Witness *w, int n, double scale)
{
    int k;
    double lo, hi;
    pln_taylor_const(&w->tm, n, 0.0);
    for (k = 0; k <= n; ++k) w->tm.c[k] = scale * kf_uniform(rng, -1, 1) / (1.0 + k);
    if (kf_uniform(rng, 0, 1) < 0.2) {
        lo = hi = 0.0;
    } else {
        lo = scale * kf_uniform(rng, -0.1, 0.05);
        hi = lo + scale * kf_uniform(rng, 0.0, 0.1);
    }
    w->tm.lo = lo;
    w->tm.hi = hi;
    w->kind = (int)(kf_next(rng) % 4);
    w->w = kf_uniform(rng, 0.5, 20.0);
    w->phase = kf_uniform(rng, 0, 6.3);
}

/* sample time: the ends and zero are included on purpose */
static double sample_tau(KfRng *rng, int i)
{
    if (i == 0) return -1.0;
    if (i == 1) return 1.0;
    if (i == 2) return 0.0;
    return kf_uniform(rng, -1, 1);
}

/* 1 when value - p(tau) lies in [lo, hi] of the model */
static int encloses(const PlnTaylor *t, long double tau, long double value)
{
    long double d = value - wit_poly(t, tau);
    return d >= (long double)t->lo && d <= (long double)t->hi;
}

/* encloses, allowing the oracle value an error of `slack` either way */
static int encloses_within(const PlnTaylor *t, long double tau, long double value,
                           long double slack)
{
    long double d = value - wit_poly(t, tau);
    return d + slack >= (long double)t->lo && d - slack <= (long double)t->hi;
}

enum { OP_ADD, OP_SUB, OP_SCALE, OP_AXPY, OP_DIV, OP_MUL, OP_SIN, OP_COS, OP_CHAIN };

static long run_op(int op, uint64_t seed)
{
    KfRng rng = {seed};
    long violations = 0;
    int p, i;
    for (p = 0; p < TM_TEST_PAIRS; ++p) {
        Witness a, b;
        PlnTaylor out, tmp;
        int n = (int)(kf_next(&rng) % (PLN_TM_MAX_DEGREE + 1));
        int nb = (kf_next(&rng) % 4 == 0) ? (int)(kf_next(&rng) % (PLN_TM_MAX_DEGREE + 1)) : n;
        double sc = pow(10.0, kf_uniform(&rng, -4, 2));
        double s = kf_uniform(&rng, -3, 3);
        /* for sin/cos: arguments up to several radians of excursion (awkward) */
        if (op == OP_SIN || op == OP_COS) sc = pow(10.0, kf_uniform(&rng, -4, 0.6));
        random_witness(&rng, &a, n, sc);
        random_witness(&rng, &b, nb, sc * kf_uniform(&rng, 0.1, 10));
        switch (op) {
        case OP_ADD: pln_taylor_add(&out, &a.tm, &b.tm); break;
        case OP_SUB: pln_taylor_sub(&out, &a.tm, &b.tm); break;
        case OP_SCALE: pln_taylor_scale(&out, &a.tm, s); break;
        case OP_AXPY: pln_taylor_axpy(&out, &a.tm, s, &b.tm); break;
        case OP_DIV: pln_taylor_div(&out, &a.tm, s == 0.0 ? 3.0 : s); break;
        case OP_MUL: pln_taylor_mul(&out, &a.tm, &b.tm); break;
        case OP_SIN: pln_taylor_sin(&out, &a.tm); break;
        case OP_COS: pln_taylor_cos(&out, &a.tm); break;
        default:
            /* sin(a * b) * cos(a) + b, degrees as drawn */
            pln_taylor_mul(&tmp, &a.tm, &b.tm);
            pln_taylor_sin(&tmp, &tmp);
            pln_taylor_cos(&out, &a.tm);
            pln_taylor_mul(&out, &tmp, &out);
            pln_taylor_add(&out, &out, &b.tm);
            break;
        }
        ck_assert(pln_taylor_is_finite(&out));
        ck_assert(out.lo <= out.hi);
        for (i = 0; i < TM_TEST_TIMES; ++i) {
            long double tau = sample_tau(&rng, i);
            long double fa = wit_value(&a, tau), fb = wit_value(&b, tau), v;
            switch (op) {
            case OP_ADD: v = fa + fb; break;
            case OP_SUB: v = fa - fb; break;
            case OP_SCALE: v = s * fa; break;
            case OP_AXPY: v = fa + s * fb; break;
            case OP_DIV: v = fa / (s == 0.0 ? 3.0L : (long double)s); break;
            case OP_MUL: v = fa * fb; break;
            case OP_SIN: v = sinl(fa); break;
            case OP_COS: v = cosl(fa); break;
            default: v = sinl(fa * fb) * cosl(fa) + fb; break;
            }
            if (!encloses(&out, tau, v)) ++violations;
        }
    }
    return violations;
}

START_TEST(test_enclosure_add_sub_scale)
{
    ck_assert_int_eq(run_op(OP_ADD, 11), 0);
    ck_assert_int_eq(run_op(OP_SUB, 12), 0);
    ck_assert_int_eq(run_op(OP_SCALE, 13), 0);
    ck_assert_int_eq(run_op(OP_AXPY, 14), 0);
    ck_assert_int_eq(run_op(OP_DIV, 15), 0);
}
END_TEST

START_TEST(test_enclosure_mul)
{
    ck_assert_int_eq(run_op(OP_MUL, 21), 0);
}
END_TEST

/* the same model bit for bit (its fields, not the padding) */
static int tm_same(const PlnTaylor *a, const PlnTaylor *b)
{
    return a->n == b->n && memcmp(a->c, b->c, sizeof a->c) == 0 && memcmp(&a->lo, &b->lo, sizeof a->lo) == 0 &&
           memcmp(&a->hi, &b->hi, sizeof a->hi) == 0;
}

/* pln_taylor_mul_ranges: with the operands' pln_taylor_poly_bound ranges, or with none,
 * the product is pln_taylor_mul's bit for bit (zero remainders among the operands, which
 * need no range); with wider ranges (still rigorous) it still encloses the product of
 * random witnesses. */
START_TEST(test_mul_ranges)
{
    KfRng rng = {2727};
    long violations = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        Witness a, b;
        PlnTaylor ref, got, wide;
        double ar[2], br[2], aw[2], bw[2];
        int n = 1 + (int)(kf_next(&rng) % PLN_TM_MAX_DEGREE);
        random_witness(&rng, &a, n, kf_uniform(&rng, 0.01, 10.0));
        random_witness(&rng, &b, n, kf_uniform(&rng, 0.01, 10.0));
        pln_taylor_mul(&ref, &a.tm, &b.tm);
        pln_taylor_poly_bound(&a.tm, &ar[0], &ar[1]);
        pln_taylor_poly_bound(&b.tm, &br[0], &br[1]);
        pln_taylor_mul_ranges(&got, &a.tm, ar, &b.tm, br);
        ck_assert_msg(tm_same(&got, &ref), "trial %d: ranges given", trial);
        pln_taylor_mul_ranges(&got, &a.tm, NULL, &b.tm, NULL);
        ck_assert_msg(tm_same(&got, &ref), "trial %d: no ranges", trial);
        pln_taylor_mul_ranges(&got, &a.tm, ar, &b.tm, NULL);
        ck_assert_msg(tm_same(&got, &ref), "trial %d: a's range", trial);
        aw[0] = ar[0] - 0.5, aw[1] = ar[1] + 0.5, bw[0] = br[0] - 0.25, bw[1] = br[1] + 0.25;
        pln_taylor_mul_ranges(&wide, &a.tm, aw, &b.tm, bw);
        for (int i = 0; i < 64; ++i) {
            double tau = sample_tau(&rng, i);
            long double v = wit_value(&a, tau) * wit_value(&b, tau);
            violations += !encloses_within(&wide, tau, v, 1e-15L * (1.0L + fabsl(v)));
        }
    }
    ck_assert_int_eq(violations, 0);
}
END_TEST

START_TEST(test_enclosure_sin_cos)
{
    ck_assert_int_eq(run_op(OP_SIN, 31), 0);
    ck_assert_int_eq(run_op(OP_COS, 32), 0);
}
END_TEST

START_TEST(test_enclosure_composed)
{
    ck_assert_int_eq(run_op(OP_CHAIN, 41), 0);
}
END_TEST

/* sin/cos of an argument with tiny excursion: remainder near the libm term only. */
START_TEST(test_sin_cos_sharp_for_small_range)
{
    PlnTaylor q, s, c;
    pln_taylor_var(&q, 5, 0.3, 0.01);
    pln_taylor_sincos(&s, &c, &q);
    ck_assert_double_le(pln_taylor_remainder_width(&s), TM_SHARP_SIN_WIDTH);
    ck_assert_double_le(pln_taylor_remainder_width(&c), TM_SHARP_SIN_WIDTH);
    /* and the polynomial is the Taylor polynomial: value at 0 is sin(0.3) */
    ck_assert_double_eq_tol(pln_taylor_eval(&s, 0.0), sin(0.3), TM_SHARP_SIN_WIDTH);
    ck_assert_double_eq_tol(pln_taylor_eval(&c, 1.0), cos(0.31), TM_SHARP_SIN_WIDTH);
}
END_TEST

/* the remainder of sin(q0 + h tau) falls like h^(n+1) (eq. 5.3). */
START_TEST(test_sin_remainder_order)
{
    int n;
    for (n = 2; n <= 6; ++n) {
        PlnTaylor q, s1, s2;
        double h = 0.2, order;
        pln_taylor_var(&q, n, 0.7, h);
        pln_taylor_sin(&s1, &q);
        pln_taylor_var(&q, n, 0.7, h / 2);
        pln_taylor_sin(&s2, &q);
        order = log2(pln_taylor_remainder_width(&s1) / pln_taylor_remainder_width(&s2));
        ck_assert_double_eq_tol(order, n + 1, TM_ORDER_TOL);
    }
}
END_TEST

/* the range bound contains dense samples and is not wildly loose. */
START_TEST(test_bound_contains_samples)
{
    KfRng rng = {51};
    int p, i;
    for (p = 0; p < TM_TEST_PAIRS; ++p) {
        Witness a;
        double lo, hi, plo, phi, smin = INFINITY, smax = -INFINITY, csum = 0.0;
        int n = (int)(kf_next(&rng) % (PLN_TM_MAX_DEGREE + 1)), k;
        random_witness(&rng, &a, n, pow(10.0, kf_uniform(&rng, -3, 3)));
        pln_taylor_bound(&a.tm, &lo, &hi);
        pln_taylor_poly_bound(&a.tm, &plo, &phi);
        for (i = 0; i <= 400; ++i) {
            long double tau = -1.0L + i / 200.0L;
            long double v = wit_value(&a, tau), pv = wit_poly(&a.tm, tau);
            ck_assert(v >= lo && v <= hi);
            ck_assert(pv >= plo && pv <= phi);
            smin = fmin(smin, (double)pv);
            smax = fmax(smax, (double)pv);
        }
        for (k = 0; k <= n; ++k) csum += fabs(a.tm.c[k]);
        ck_assert_double_le(smin - plo, TM_BOUND_OVERESTIMATE_FRAC * csum + DBL_MIN);
        ck_assert_double_le(phi - smax, TM_BOUND_OVERESTIMATE_FRAC * csum + DBL_MIN);
    }
}
END_TEST

/* Bernstein bounds are exact at the end points of a monotone cubic. */
START_TEST(test_bound_monotone_exact)
{
    PlnTaylor a;
    double lo, hi, c[4] = {1.0, 2.0, 0.0, 0.5}; /* p' = 2 + 1.5 tau^2 > 0 */
    pln_taylor_from_poly(&a, 3, c, 3);
    pln_taylor_poly_bound(&a, &lo, &hi);
    ck_assert_double_eq_tol(lo, 1.0 - 2.0 - 0.5, TM_EXACT_TOL);
    ck_assert_double_eq_tol(hi, 1.0 + 2.0 + 0.5, TM_EXACT_TOL);
}
END_TEST

/* The unit roundoff of long double as the machine runs it: 2^-64 natively on x86-64, but
 * 2^-53 under valgrind, whose x87 emulation computes in double. */
static long double runtime_ld_unit(void)
{
    volatile long double one = 1.0L, e = 1.0L;
    while (one + e / 2 != one) e /= 2;
    return e / 2;
}

/* sum |c_k| |x|^k: the scale of a Horner evaluation's rounding error */
static long double horner_mag(const double *c, int deg, long double x)
{
    long double m = 0.0L;
    for (int k = deg; k >= 0; --k) m = m * fabsl(x) + fabs(c[k]);
    return m;
}

/* from_poly truncation and to_unit_poly conversion both keep the enclosure. The oracle is
 * Horner in long double; its own error, gamma_2n * sum |c_k||x|^k (Higham, Accuracy and
 * Stability, eq. 5.3), is allowed for, so that the check holds what it claims whatever
 * long double's precision is. */
START_TEST(test_from_poly_and_unit_conversion)
{
    KfRng rng = {61};
    int p, i, k;
    long violations = 0;
    long double ulr = runtime_ld_unit();
    for (p = 0; p < TM_TEST_PAIRS; ++p) {
        double coef[PLN_TM_MAX_DEGREE + 1], d[PLN_TM_MAX_DEGREE + 1], err;
        int deg = (int)(kf_next(&rng) % (PLN_TM_MAX_DEGREE + 1));
        int n = (int)(kf_next(&rng) % (PLN_TM_MAX_DEGREE + 1));
        double sc = pow(10.0, kf_uniform(&rng, -3, 3));
        PlnTaylor t, tu;
        for (k = 0; k <= deg; ++k) coef[k] = sc * kf_uniform(&rng, -1, 1);
        pln_taylor_from_poly(&t, n, coef, deg);
        pln_taylor_from_unit_poly(&tu, n, coef, deg);
        err = pln_taylor_to_unit_poly(&t, d);
        ck_assert_double_ge(err, 0.0);
        for (i = 0; i < TM_TEST_TIMES; ++i) {
            long double tau = sample_tau(&rng, i), s = (tau + 1.0L) / 2.0L, v = 0.0L, u = 0.0L;
            long double g = 4.0L * (PLN_TM_MAX_DEGREE + 2) * ulr, slack; /* also covers s's rounding */
            for (k = deg; k >= 0; --k) v = v * tau + coef[k];
            slack = g * (horner_mag(coef, deg, tau) + horner_mag(t.c, t.n, tau));
            if (!encloses_within(&t, tau, v, slack)) ++violations;
            /* the same coefficients read in s = (tau + 1)/2 */
            for (v = 0.0L, k = deg; k >= 0; --k) v = v * s + coef[k];
            slack = g * (horner_mag(coef, deg, s) + horner_mag(tu.c, tu.n, tau));
            if (!encloses_within(&tu, tau, v, slack)) ++violations;
            /* the s-polynomial agrees with the tau-polynomial within err */
            for (k = t.n; k >= 0; --k) u = u * s + d[k];
            slack = g * (horner_mag(d, t.n, s) + horner_mag(t.c, t.n, tau));
            if (fabsl(u - wit_poly(&t, tau)) > (long double)err + slack) ++violations;
        }
    }
    ck_assert_int_eq(violations, 0);
}
END_TEST

/* a degree-0 model holds tau in its remainder; constants multiply exactly. */
START_TEST(test_degree_zero_and_constants)
{
    PlnTaylor v, c, p;
    pln_taylor_var(&v, 0, 2.0, 0.5);
    ck_assert_double_le(v.lo, -0.5);
    ck_assert_double_ge(v.hi, 0.5);
    pln_taylor_const(&c, 3, 4.0);
    pln_taylor_var(&v, 3, 1.0, 2.0);
    pln_taylor_mul(&p, &c, &v);
    ck_assert_double_eq(p.c[0], 4.0);
    ck_assert_double_eq(p.c[1], 8.0);
    ck_assert_double_le(pln_taylor_remainder_width(&p), TM_EXACT_TOL);
    /* out-of-range degrees are clamped by the constructors */
    pln_taylor_const(&c, 99, 1.0);
    ck_assert_int_eq(c.n, PLN_TM_MAX_DEGREE);
    pln_taylor_const(&c, -3, 1.0);
    ck_assert_int_eq(c.n, 0);
}
END_TEST

/* eq. 6.4: a model restricted to a part [lo, hi] of its span encloses the function there
 * (the witnesses of random models sampled through the part, its ends included), keeps its
 * degree, and widens the remainder only by the rounding of the re-expansion; restricted to
 * the whole span it is the model itself up to that rounding */
START_TEST(test_restrict)
{
    KfRng rng = {0x5e57ULL};
    long violations = 0;
    for (int p = 0; p < TM_TEST_PAIRS; ++p) {
        Witness a;
        PlnTaylor r;
        int n = (int)(kf_next(&rng) % (PLN_TM_MAX_DEGREE + 1)), kind = p % 4;
        double sc = pow(10.0, kf_uniform(&rng, -4, 2)), lo, hi, mag = 0.0;
        random_witness(&rng, &a, n, sc);
        /* parts: anywhere, at either end, tiny, and the whole span */
        lo = kf_uniform(&rng, -1, 1);
        hi = kf_uniform(&rng, -1, 1);
        if (lo > hi) {
            double t = lo;
            lo = hi;
            hi = t;
        }
        if (kind == 1) lo = -1.0;
        if (kind == 2) hi = lo + 1e-9 * (1.0 - lo);
        if (kind == 3 && p % 8 == 3) lo = -1.0, hi = 1.0;
        if (!(lo < hi)) continue;
        pln_taylor_restrict(&r, &a.tm, lo, hi);
        ck_assert(pln_taylor_is_finite(&r));
        ck_assert_int_eq(r.n, a.tm.n);
        for (int k = 0; k <= n; ++k) mag += fabs(a.tm.c[k]);
        ck_assert(r.lo <= a.tm.lo && r.hi >= a.tm.hi);
        ck_assert(a.tm.lo - r.lo <= TM_EXACT_TOL * mag + 1e-300 && r.hi - a.tm.hi <= TM_EXACT_TOL * mag + 1e-300);
        if (lo == -1.0 && hi == 1.0) {
            for (int k = 0; k <= n; ++k) ck_assert(fabs(r.c[k] - a.tm.c[k]) <= TM_EXACT_TOL * mag);
        }
        for (int i = 0; i < TM_TEST_TIMES; ++i) {
            /* sigma through [-1, 1], tau = its image as the restriction takes it (the
             * part and its few-ulp pad) */
            long double sg = sample_tau(&rng, i);
            long double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo) + PLN_TM_RESTRICT_PAD;
            long double tau = mid + half * sg;
            if (!encloses(&r, sg, wit_value(&a, tau))) ++violations;
        }
    }
    ck_assert_int_eq(violations, 0);
}
END_TEST

Suite *pln_taylor_suite(void)
{
    Suite *s = suite_create("pln_taylor");
    TCase *tc = tcase_create("enclosure");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_enclosure_add_sub_scale);
    tcase_add_test(tc, test_enclosure_mul);
    tcase_add_test(tc, test_mul_ranges);
    tcase_add_test(tc, test_enclosure_sin_cos);
    tcase_add_test(tc, test_enclosure_composed);
    suite_add_tcase(s, tc);
    tc = tcase_create("sincos");
    tcase_add_test(tc, test_sin_cos_sharp_for_small_range);
    tcase_add_test(tc, test_sin_remainder_order);
    suite_add_tcase(s, tc);
    tc = tcase_create("bound");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bound_contains_samples);
    tcase_add_test(tc, test_bound_monotone_exact);
    suite_add_tcase(s, tc);
    tc = tcase_create("construct");
    tcase_add_test(tc, test_from_poly_and_unit_conversion);
    tcase_add_test(tc, test_degree_zero_and_constants);
    tcase_add_test(tc, test_restrict);
    suite_add_tcase(s, tc);
    return s;
}
