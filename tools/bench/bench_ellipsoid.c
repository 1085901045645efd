/* bench_ellipsoid.c — the experiments of seed 001 (M.G. Choi 2019, Fig. 2-4) on
 * distance/dst_ellipsoid.c, for the three solvers.
 *
 * Random pairs (our reading of sec. 3; the generator itself is not printed in the paper):
 * gamma is the largest ratio between the radii of one ellipsoid, Gamma the largest ratio
 * between the largest radii of the two. Each ellipsoid gets its largest radius
 * a ~ U[1, Gamma] (so a1/a2 <= Gamma) and its two other radii ~ U[a/gamma, a] (so every
 * ratio within it is <= gamma); a uniformly random rotation (Shoemake's quaternion); the
 * direction n is uniform on the sphere. The closest approach along n does not depend on
 * the centres, so e1 sits at the origin and e2 at 10 Gamma n.
 *
 * Two start values: the library's default (the radial start of docs/math/ellipsoid.md
 * eq. 34, options u0 = DST_ELLIPSOID_U0_AUTO) and the paper's u0 = 0.5 (sec. 2.3,
 * DST_ELLIPSOID_PAPER_U0), with which the paper's Fig. 2-4 and rule (13) experiments are
 * defined. Prints `name: value` lines (and `#` lines with the per-gamma / per-eps tables);
 * <solver> is hybrid, fixed_point or steffensen, every other option at its default:
 *   ellipsoid_<solver>_mean_iter, _max_iter,         Fig. 3 pairs (gamma 5, Gamma 3, --pairs N,
 *     _mean_evals, _fail                             default 1e6), rule (12) eps 1e-8, 100
 *                                                    iterations, the default (radial) start:
 *                                                    mean and largest iteration count, mean
 *                                                    evaluations of f or of the map, pairs
 *                                                    that ended without DST_OK
 *   ellipsoid_<solver>_u05_mean_iter, _u05_max_iter, the same pairs from the paper's u0 = 0.5
 *     _u05_mean_evals, _u05_fail                     (the Fig. 3 reproduction)
 *   ellipsoid_<solver>_ns                            median time of one call, default start
 *                                                    (4096 pairs of the Fig. 3 kind, 15
 *                                                    repeats; thread CPU time, so that other
 *                                                    processes on a shared machine count less)
 *                                                    through dst_ellipsoid_approach_along:
 *                                                    validation, shapes, start, set-up, solve
 *                                                    and outputs
 *   ellipsoid_<solver>_prepared_ns                   the same pairs and start through
 *                                                    dst_ellipsoid_prepared_approach_along with
 *                                                    the shapes (radii, 1/radii) prepared once
 *                                                    outside the timing; the poses are
 *                                                    validated and the whole pair set up per
 *                                                    call, as for a caller whose poses change
 *                                                    at every query
 *   ellipsoid_<solver>_u05_ns, _u05_prepared_ns      the same two timings from u0 = 0.5; each
 *                                                    repeat times the default start and then
 *                                                    u0 = 0.5, so both see the same load
 *   ellipsoid_hybrid_speedup_vs_fixed_point          fixed_point_ns / hybrid_ns (default start)
 *   ellipsoid_hybrid_speedup_vs_u05                  hybrid_u05_ns / hybrid_ns: what the start
 *                                                    gains, measured in the same run
 *   ellipsoid_<solver>_gamma1000_mean_iter, _max_iter Fig. 2 at gamma 1000 (paper start)
 *   ellipsoid_<solver>_first_fail_gamma              Fig. 2 (paper start): smallest gamma of
 *                                                    the scan with a pair hitting 100
 *                                                    iterations, 0 if none
 *   ellipsoid_<solver>_gap_mean_iter, _max_iter      rule (13), eps 1e-2 (Fig. 7 setting),
 *                                                    paper start
 * The `#` tables of Fig. 2 (per gamma) and Fig. 4 (per eps) use the paper start too.
 * Options: --pairs N (Fig. 3 pairs, default 1000000), --samples N (per gamma and per eps,
 * default 20000), --full (Fig. 2 at every gamma 1..1000 instead of a grid), --timing (only
 * the timing lines), --extreme (second reading of the generator: one radius of every
 * ellipsoid exactly a / gamma), --solver NAME (time only that solver: hybrid, fixed_point
 * or steffensen; with --timing this is the run to count instructions per call under
 * callgrind, docs/perf/ellipsoid.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#include "dst_ellipsoid.h"

#define N_SOLVERS 3
#define PI 3.14159265358979323846
#define TIMING_PAIRS 4096
#define REPEATS 15

static const char *const solver_name[N_SOLVERS] = {"hybrid", "fixed_point", "steffensen"};
static const DstEllipsoidSolver solver_id[N_SOLVERS] = {
    DST_ELLIPSOID_HYBRID, DST_ELLIPSOID_FIXED_POINT, DST_ELLIPSOID_STEFFENSEN};

typedef struct Rng { uint64_t s; } Rng;
static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static double rng_u01(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

typedef struct Pair { DstEllipsoid e1, e2; double n[3]; } Pair;

static void random_rotation(Rng *r, double *R)
{
    /* Shoemake: uniform unit quaternion from three uniforms */
    const double u1 = rng_u01(r), u2 = 2.0 * PI * rng_u01(r), u3 = 2.0 * PI * rng_u01(r);
    const double a = sqrt(1.0 - u1), b = sqrt(u1);
    const double x = a * sin(u2), y = a * cos(u2), z = b * sin(u3), w = b * cos(u3);
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - z * w);     R[2] = 2 * (x * z + y * w);
    R[3] = 2 * (x * y + z * w);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - x * w);
    R[6] = 2 * (x * z - y * w);     R[7] = 2 * (y * z + x * w);     R[8] = 1 - 2 * (x * x + y * y);
}

/* extreme = 0: the other radii uniform in [a/gamma, a]; 1: one of them exactly a/gamma
 * (every ellipsoid has the extreme ratio), the other uniform */
static void random_ellipsoid(Rng *r, double gamma, double Gamma, int extreme, DstEllipsoid *e)
{
    const double a = 1.0 + (Gamma - 1.0) * rng_u01(r);
    int big = (int)(rng_next(r) % 3);
    for (int i = 0; i < 3; ++i) e->radii[i] = i == big ? a : a / gamma + (a - a / gamma) * rng_u01(r);
    if (extreme) e->radii[(big + 1) % 3] = a / gamma;
    random_rotation(r, e->rot);
    e->centre[0] = e->centre[1] = e->centre[2] = 0.0;
}

static void random_pair(Rng *r, double gamma, double Gamma, int extreme, Pair *p)
{
    const double z = 2.0 * rng_u01(r) - 1.0, phi = 2.0 * PI * rng_u01(r), s = sqrt(1.0 - z * z);
    random_ellipsoid(r, gamma, Gamma, extreme, &p->e1);
    random_ellipsoid(r, gamma, Gamma, extreme, &p->e2);
    p->n[0] = s * cos(phi);
    p->n[1] = s * sin(phi);
    p->n[2] = z;
    for (int i = 0; i < 3; ++i) p->e2.centre[i] = 10.0 * Gamma * p->n[i];
}

typedef struct Stats { double sum, evals; int max; long fail, n; } Stats;

/* prints the Fig. 3 lines of every solver, `ellipsoid_<solver><tag>_...` */
static void print_fig3(const Stats st[N_SOLVERS], const char *tag)
{
    for (int s = 0; s < N_SOLVERS; ++s) {
        printf("ellipsoid_%s%s_mean_iter: %.2f\n", solver_name[s], tag, st[s].sum / st[s].n);
        printf("ellipsoid_%s%s_max_iter: %d\n", solver_name[s], tag, st[s].max);
        printf("ellipsoid_%s%s_mean_evals: %.2f\n", solver_name[s], tag, st[s].evals / st[s].n);
        printf("ellipsoid_%s%s_fail: %ld\n", solver_name[s], tag, st[s].fail);
    }
}

/* thread CPU time per call, ns, of one pass over the timing pairs with options o, through
 * the DstEllipsoid entry point or (prepared != 0) the prepared one; the d are summed into
 * *sink so that no call is optimised away */
static double time_pass(const Pair *pairs, DstEllipsoidShape (*shapes)[2], DstEllipsoidPose (*poses)[2], int n,
                        const DstEllipsoidOptions *o, int prepared, double *sink)
{
    const double t0 = bench_cpu_ns();
    for (int i = 0; i < n; ++i) {
        DstEllipsoidResult res;
        if (prepared)
            dst_ellipsoid_prepared_approach_along(&shapes[i][0], &poses[i][0], &shapes[i][1], &poses[i][1],
                                                  pairs[i].n, o, &res);
        else
            dst_ellipsoid_approach_along(&pairs[i].e1, &pairs[i].e2, pairs[i].n, o, &res);
        *sink += res.d;
    }
    return (bench_cpu_ns() - t0) / n;
}

static void run_stats(Rng *r, double gamma, double Gamma, int extreme, long n,
                      const DstEllipsoidOptions *base, Stats st[N_SOLVERS])
{
    memset(st, 0, sizeof(Stats) * N_SOLVERS);
    for (long i = 0; i < n; ++i) {
        Pair p;
        random_pair(r, gamma, Gamma, extreme, &p);
        for (int s = 0; s < N_SOLVERS; ++s) {
            DstEllipsoidOptions o = *base;
            DstEllipsoidResult res;
            o.solver = solver_id[s];
            dst_ellipsoid_approach_along(&p.e1, &p.e2, p.n, &o, &res);
            if (res.status != DST_OK) ++st[s].fail;
            st[s].sum += res.iterations;
            st[s].evals += res.evaluations;
            if (res.iterations > st[s].max) st[s].max = res.iterations;
            ++st[s].n;
        }
    }
}



int main(int argc, char **argv)
{
    long n_pairs = 1000000, n_samples = 20000;
    int full = 0, timing_only = 0, extreme = 0, only = -1;
    /* base: the library's defaults (radial start); paper: the same with the paper's u0 */
    DstEllipsoidOptions base = dst_ellipsoid_options_default(), paper = base;
    Stats st[N_SOLVERS];
    Rng rng = {20191206};
    double ns[N_SOLVERS], ns_u05[N_SOLVERS];
    paper.u0 = DST_ELLIPSOID_PAPER_U0;

    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc) n_pairs = atol(argv[++i]);
        else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) n_samples = atol(argv[++i]);
        else if (strcmp(argv[i], "--full") == 0) full = 1;
        else if (strcmp(argv[i], "--timing") == 0) timing_only = 1;
        else if (strcmp(argv[i], "--extreme") == 0) extreme = 1;
        else if (strcmp(argv[i], "--solver") == 0 && i + 1 < argc) {
            ++i;
            for (int s = 0; s < N_SOLVERS; ++s)
                if (strcmp(argv[i], solver_name[s]) == 0) only = s;
            if (only < 0) {
                fprintf(stderr, "bench_ellipsoid: unknown solver '%s'\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: bench_ellipsoid [--pairs N] [--samples N] [--full] [--timing] [--extreme]"
                            " [--solver NAME]\n");
            return 2;
        }
    }
    if (n_pairs < 1 || n_samples < 1) {
        fprintf(stderr, "bench_ellipsoid: --pairs and --samples must be >= 1\n");
        return 2;
    }

    /* Fig. 3: gamma 5, Gamma 3, rule (12) with eps 1e-8; the same pairs from the default
       start and from the paper's (a copy of the generator draws them twice) */
    if (timing_only) n_pairs = 1;
    {
        Rng again = rng;
        run_stats(&again, 5.0, 3.0, extreme, n_pairs, &base, st);
    }
    printf("# Fig. 3: %ld pairs, gamma 5, Gamma 3, |u_{i+1}-u_i| <= 1e-8, max 100 iterations;"
           " default (radial) start, then the paper's u0 = 0.5 (_u05)\n", n_pairs);
    print_fig3(st, "");
    run_stats(&rng, 5.0, 3.0, extreme, n_pairs, &paper, st);
    print_fig3(st, "_u05");

    /* timing on a fixed set of Fig. 3 pairs, default start and paper start */
    {
        static Pair pairs[TIMING_PAIRS];
        static DstEllipsoidShape shapes[TIMING_PAIRS][2];
        static DstEllipsoidPose poses[TIMING_PAIRS][2];
        double rep[REPEATS], sink = 0.0;
        for (int i = 0; i < TIMING_PAIRS; ++i) {
            random_pair(&rng, 5.0, 3.0, extreme, &pairs[i]);
            for (int k = 0; k < 2; ++k) {
                const DstEllipsoid *e = k == 0 ? &pairs[i].e1 : &pairs[i].e2;
                if (dst_ellipsoid_shape_prepare(&shapes[i][k], e->radii) != NULL) {
                    fprintf(stderr, "bench_ellipsoid: shape not prepared\n");
                    return 1;
                }
                memcpy(poses[i][k].centre, e->centre, sizeof e->centre);
                memcpy(poses[i][k].rot, e->rot, sizeof e->rot);
            }
        }
        for (int s = 0; s < N_SOLVERS; ++s) {
            DstEllipsoidOptions o = base, o05 = paper;
            double rep05[REPEATS];
            if (only >= 0 && s != only) continue;
            o.solver = o05.solver = solver_id[s];
            /* each entry point: the default start and the paper's, alternating per repeat;
               three warm-up repeats */
            for (int prepared = 0; prepared < 2; ++prepared) {
                for (int r = -3; r < REPEATS; ++r) {
                    const double t = time_pass(pairs, shapes, poses, TIMING_PAIRS, &o, prepared, &sink);
                    const double t05 = time_pass(pairs, shapes, poses, TIMING_PAIRS, &o05, prepared, &sink);
                    if (r >= 0) {
                        rep[r] = t;
                        rep05[r] = t05;
                    }
                }
                if (!prepared) {
                    ns[s] = bench_median(rep, REPEATS);
                    ns_u05[s] = bench_median(rep05, REPEATS);
                    printf("ellipsoid_%s_ns: %.1f\n", solver_name[s], ns[s]);
                    printf("ellipsoid_%s_u05_ns: %.1f\n", solver_name[s], ns_u05[s]);
                } else {
                    printf("ellipsoid_%s_prepared_ns: %.1f\n", solver_name[s], bench_median(rep, REPEATS));
                    printf("ellipsoid_%s_u05_prepared_ns: %.1f\n", solver_name[s], bench_median(rep05, REPEATS));
                }
            }
        }
        if (only < 0) printf("ellipsoid_hybrid_speedup_vs_fixed_point: %.2f\n", ns[1] / ns[0]);
        if (only <= 0) printf("ellipsoid_hybrid_speedup_vs_u05: %.2f\n", ns_u05[0] / ns[0]);
        if (!isfinite(sink)) printf("# sink %g\n", sink);
    }
    if (timing_only) return 0;

    /* Fig. 2: gamma scan, Gamma 3 (paper start) */
    {
        static const int grid[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100, 120, 130, 133, 134,
                                   140, 150, 200, 300, 500, 700, 1000};
        const int n_grid = (int)(sizeof grid / sizeof grid[0]);
        int first_fail[N_SOLVERS] = {0, 0, 0};
        const int n_gamma = full ? 1000 : n_grid;
        printf("# Fig. 2: %ld samples per gamma, Gamma 3, u0 = 0.5; columns: gamma, then mean/max/fails for"
               " hybrid, fixed_point, steffensen\n", n_samples);
        for (int gi = 0; gi < n_gamma; ++gi) {
            const int gamma = full ? gi + 1 : grid[gi];
            run_stats(&rng, (double)gamma, 3.0, extreme, n_samples, &paper, st);
            printf("# %4d", gamma);
            for (int s = 0; s < N_SOLVERS; ++s) {
                printf("  %6.2f %3d %6ld", st[s].sum / st[s].n, st[s].max, st[s].fail);
                if (st[s].fail > 0 && first_fail[s] == 0) first_fail[s] = gamma;
            }
            printf("\n");
            if (gamma == 1000)
                for (int s = 0; s < N_SOLVERS; ++s) {
                    printf("ellipsoid_%s_gamma1000_mean_iter: %.2f\n", solver_name[s], st[s].sum / st[s].n);
                    printf("ellipsoid_%s_gamma1000_max_iter: %d\n", solver_name[s], st[s].max);
                }
        }
        for (int s = 0; s < N_SOLVERS; ++s)
            printf("ellipsoid_%s_first_fail_gamma: %d\n", solver_name[s], first_fail[s]);
    }

    /* Fig. 4: eps sweep, gamma 5, Gamma 3 (paper start) */
    printf("# Fig. 4: %ld samples per eps, gamma 5, Gamma 3, u0 = 0.5; columns: eps, then mean/max for"
           " hybrid, fixed_point, steffensen\n", n_samples);
    for (int e = 0; e <= 10; ++e) {
        DstEllipsoidOptions o = paper;
        o.eps = pow(10.0, -e);
        run_stats(&rng, 5.0, 3.0, extreme, n_samples, &o, st);
        printf("# 1e-%02d", e);
        for (int s = 0; s < N_SOLVERS; ++s) printf("  %6.2f %3d", st[s].sum / st[s].n, st[s].max);
        printf("\n");
    }

    /* rule (13) with eps 1e-2, the setting of Fig. 7 (paper start) */
    {
        DstEllipsoidOptions o = paper;
        o.stop = DST_ELLIPSOID_STOP_GAP;
        o.eps = 1e-2;
        run_stats(&rng, 5.0, 3.0, extreme, n_samples, &o, st);
        for (int s = 0; s < N_SOLVERS; ++s) {
            printf("ellipsoid_%s_gap_mean_iter: %.2f\n", solver_name[s], st[s].sum / st[s].n);
            printf("ellipsoid_%s_gap_max_iter: %d\n", solver_name[s], st[s].max);
        }
    }
    return 0;
}
