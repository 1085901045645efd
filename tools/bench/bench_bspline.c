/* bench_bspline.c — speed of B-spline evaluation (planner/motion/pln_bspline.c).
 *
 * Prints `name: value` lines:
 *   bspline_eval_ns             one joint, q q' q'' q''' at a random time (degree 5, 20 ctrl)
 *   bspline_eval_30joints_ns    30 joints, q .. q''', basis shared
 *   bspline_basis_ns            the non-zero basis weights and their 3 derivatives
 *   bspline_naive_q_ns          baseline in the same run: q only, by the recursive
 *                               Cox-de Boor definition summed over all control points
 *   bspline_eval_speedup        naive_q / eval (how much the table method gains while
 *                               also returning three derivatives)
 * Each figure is the median of 15 repeats after a warm-up, in thread CPU time (the
 * machine is shared, so that other processes count less). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"

#include "motion/pln_bspline.h"

#define N_TIMES 4096
#define REPEATS 15
#define N_JOINTS 30
#define N_CTRL 20




static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* the textbook recursion, for the baseline only */
static double naive_basis(const double *kn, int n_knots, int j, int p, double t)
{
    if (p == 0) {
        if (t == kn[n_knots - 1]) return (kn[j] < t && t <= kn[j + 1]) ? 1.0 : 0.0;
        return (kn[j] <= t && t < kn[j + 1]) ? 1.0 : 0.0;
    }
    double v = 0.0;
    if (kn[j + p] > kn[j]) v += (t - kn[j]) / (kn[j + p] - kn[j]) * naive_basis(kn, n_knots, j, p - 1, t);
    if (kn[j + p + 1] > kn[j + 1])
        v += (kn[j + p + 1] - t) / (kn[j + p + 1] - kn[j + 1]) * naive_basis(kn, n_knots, j + 1, p - 1, t);
    return v;
}

int main(void)
{
    static double times[N_TIMES], ctrl[N_JOINTS * N_CTRL], out[4 * N_JOINTS];
    double rep[REPEATS], sink = 0.0;
    double eval_ns, eval30_ns, basis_ns, naive_ns;
    uint64_t seed = 20261122;
    PlnBspline *bs = NULL;
    char err[128];

    if (pln_bspline_create(&bs, 5, N_CTRL, 4.0, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_bspline: %s\n", err);
        return 1;
    }
    for (int i = 0; i < N_TIMES; ++i) times[i] = 4.0 * (double)(rng_next(&seed) >> 11) * 0x1.0p-53;
    for (int i = 0; i < N_JOINTS * N_CTRL; ++i)
        ctrl[i] = (double)(rng_next(&seed) >> 11) * 0x1.0p-53 - 0.5;

    /* one joint, q .. q''' */
    for (int r = -2; r < REPEATS; ++r) {
        const double t0 = bench_cpu_ns();
        for (int i = 0; i < N_TIMES; ++i) {
            pln_bspline_eval(bs, ctrl, times[i], 3, out);
            sink += out[0] + out[3];
        }
        if (r >= 0) rep[r] = (bench_cpu_ns() - t0) / N_TIMES;
    }
    eval_ns = bench_median(rep, REPEATS);

    /* 30 joints, q .. q''' */
    for (int r = -2; r < REPEATS; ++r) {
        const double t0 = bench_cpu_ns();
        for (int i = 0; i < N_TIMES; ++i) {
            pln_bspline_eval_joints(bs, ctrl, N_JOINTS, times[i], 3, out);
            sink += out[0] + out[3 * N_JOINTS];
        }
        if (r >= 0) rep[r] = (bench_cpu_ns() - t0) / N_TIMES;
    }
    eval30_ns = bench_median(rep, REPEATS);

    /* basis weights with 3 derivatives */
    for (int r = -2; r < REPEATS; ++r) {
        double N[4 * PLN_BSPLINE_MAX_ORDER];
        int first;
        const double t0 = bench_cpu_ns();
        for (int i = 0; i < N_TIMES; ++i) {
            pln_bspline_basis(bs, times[i], 3, N, &first);
            sink += N[first % 6];
        }
        if (r >= 0) rep[r] = (bench_cpu_ns() - t0) / N_TIMES;
    }
    basis_ns = bench_median(rep, REPEATS);

    /* baseline: recursive definition, value only */
    for (int r = -1; r < REPEATS; ++r) {
        const int n_t = N_TIMES / 8;
        const double t0 = bench_cpu_ns();
        for (int i = 0; i < n_t; ++i) {
            double q = 0.0;
            for (int j = 0; j < N_CTRL; ++j) q += naive_basis(bs->knots, bs->n_knots, j, 5, times[i]) * ctrl[j];
            sink += q;
        }
        if (r >= 0) rep[r] = (bench_cpu_ns() - t0) / n_t;
    }
    naive_ns = bench_median(rep, REPEATS);

    printf("bspline_eval_ns: %.1f\n", eval_ns);
    printf("bspline_eval_30joints_ns: %.1f\n", eval30_ns);
    printf("bspline_basis_ns: %.1f\n", basis_ns);
    printf("bspline_naive_q_ns: %.1f\n", naive_ns);
    printf("bspline_eval_speedup: %.1f\n", naive_ns / eval_ns);
    if (!isfinite(sink)) printf("bspline_sink: %g\n", sink);
    pln_bspline_destroy(bs);
    return 0;
}
