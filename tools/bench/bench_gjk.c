/* bench_gjk.c — GJK distance and EPA depth on convex hulls of ~150 vertices.
 *
 * Prints `name: value` lines (median of REPEATS timed runs after a warm-up run):
 *   gjk_distance_ns            separated pairs, random poses, cold start, hill-climb supports
 *   gjk_distance_bruteforce_ns the same queries with brute-force (scan) supports
 *   gjk_hillclimb_speedup      bruteforce / hill-climb, measured in the same run
 *   gjk_distance_coherent_ns   a smooth motion, cold start at every step
 *   gjk_distance_warm_ns       the same motion with the warm-start cache
 *   gjk_warm_speedup           coherent cold / warm
 *   epa_depth_us               overlapping pairs with shallow-to-moderate penetration (depth
 *                              up to ~30% of the size): full signed distance (GJK + EPA)
 *   epa_depth_deep_us          deep penetration (centres 0.25 apart, sizes ~0.4)
 *   gjk_support_cold_ns        latency of one support on hull A from a random direction (start
 *                              table + hill-climb), chained as in the GJK loop
 *   hull_build_ms_*            dst_hull_build on random clouds (inside a ball / on a sphere)
 * plus mean iteration counts. Times are thread CPU time. Run by `make bench` (-O3 -march=native).
 *
 * `bench_gjk epa` / `bench_gjk epa-deep` instead run one untimed pass of the shallow / deep
 * overlap set (NQ signed distances) through run_epa and exit: the load-independent view, e.g.
 *   make BUILD=build/cg OPT="-O3 -march=native -mno-avx512f -DNDEBUG" build/cg/bench_gjk
 *   valgrind --tool=callgrind --toggle-collect=run_epa ./build/cg/bench_gjk epa
 *   callgrind_annotate --inclusive=yes callgrind.out.<pid>   (epa_depth, core supports)
 * (valgrind does not decode AVX-512, hence -mno-avx512f on such machines). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_shapes.h"
#include "bench_util.h"

#include "dst_convex.h"

enum { NVERT = 150, NQ = 2000, REPEATS = 7 };




/* thread CPU time, seconds: the machine is shared, and CPU time does not count the time
 * other processes hold the core */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}



/* a hull with NVERT vertices: points on an ellipsoid surface are all extreme */
static void make_hull(BRng *r, double ax, double ay, double az, DstHull *h)
{
    const double axes[3] = {ax, ay, az};
    if (!bench_ellipsoid_hull(r, NVERT, axes, NULL, h)) {
        fprintf(stderr, "bench_gjk: hull failed\n");
        exit(1);
    }
}

typedef struct Pose {
    double R[9], t[3];
} Pose;

/* poses of B relative to A (A at identity) with centre distance `dist` */
static void random_poses(BRng *r, Pose *poses, int n, double dist)
{
    for (int q = 0; q < n; ++q) {
        double axis[3], dir[3];
        bench_unit(r, axis);
        bench_unit(r, dir);
        bench_rotation(axis, 2.0 * 3.141592653589793 * brng(r), poses[q].R);
        for (int i = 0; i < 3; ++i) poses[q].t[i] = dist * dir[i];
    }
}

/* B orbits A slowly while turning: consecutive poses are close (coherent queries) */
static void coherent_poses(Pose *poses, int n, double dist)
{
    static const double axis[3] = {0.0, 0.6, 0.8};
    for (int q = 0; q < n; ++q) {
        double a = 0.004 * q;
        bench_rotation(axis, 0.01 * q, poses[q].R);
        poses[q].t[0] = dist * cos(a);
        poses[q].t[1] = dist * sin(a);
        poses[q].t[2] = 0.2 * sin(3.0 * a);
    }
}

/* mean time per query (seconds) of a pass over the poses; iterations into *iters */
static double run_gjk(const DstConvex *a, DstConvex *b, const Pose *poses, int n, int warm,
                      double *iters, double *sink)
{
    DstGjkCache cache;
    DstGjkResult r;
    double t0, acc = 0.0;
    long it = 0;
    dst_gjk_cache_reset(&cache);
    t0 = now_s();
    for (int q = 0; q < n; ++q) {
        dst_convex_set_pose(b, poses[q].R, poses[q].t);
        dst_gjk_distance(a, b, NULL, warm ? &cache : NULL, &r, NULL, 0);
        acc += r.distance;
        it += r.iterations;
    }
    *sink += acc;
    *iters = (double)it / n;
    return (now_s() - t0) / n;
}

/* not inlined: `valgrind --toggle-collect=run_epa` counts exactly the passes */
__attribute__((noinline)) static double run_epa(const DstConvex *a, DstConvex *b,
                                                const Pose *poses, int n, double *iters,
                                                double *sink)
{
    DstConvexDistance r;
    double t0, acc = 0.0;
    long it = 0;
    t0 = now_s();
    for (int q = 0; q < n; ++q) {
        dst_convex_set_pose(b, poses[q].R, poses[q].t);
        dst_convex_distance(a, b, NULL, NULL, NULL, &r, NULL, 0);
        acc += r.distance;
        it += r.epa_iterations;
    }
    *sink += acc;
    *iters = (double)it / n;
    return (now_s() - t0) / n;
}

/* Latency of one cold support on a hull (start table, then hill-climb): a chain of ND
 * supports in random directions where each direction waits for the previous answer, as
 * each GJK iteration waits for its support; median over REPEATS passes, seconds. */
static double support_latency(const DstConvex *a, double *sink)
{
    BRng rng = {0x5EEDULL}, *r = &rng; /* its own stream: the other lines keep their draws */
    enum { ND = 4096 };
    static double dirs[ND][3];
    double t[REPEATS], x[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < ND; ++i) bench_unit(r, dirs[i]);
    for (int rep = -1; rep < REPEATS; ++rep) {
        double t0 = now_s();
        for (int i = 0; i < ND; ++i) {
            /* the tiny term makes the next direction depend on the previous support */
            double d[3] = {dirs[i][0] + 1e-30 * x[0], dirs[i][1], dirs[i][2]};
            dst_convex_support(a, d, x);
            *sink += x[0];
        }
        if (rep >= 0) t[rep] = (now_s() - t0) / ND;
    }
    return bench_median(t, REPEATS);
}

/* median time of dst_hull_build on n points in the unit ball (sphere = 0) or on the sphere */
static double bench_hull(BRng *r, int n, int sphere, int *nverts)
{
    double *p = malloc(sizeof(double) * 3 * (size_t)n), t[5];
    DstHull h;
    if (p == NULL) exit(1);
    for (int i = 0; i < n; ++i) {
        double u[3];
        bench_unit(r, u);
        if (!sphere) {
            double s = cbrt(brng(r));
            for (int k = 0; k < 3; ++k) u[k] *= s;
        }
        for (int k = 0; k < 3; ++k) p[3 * i + k] = u[k];
    }
    for (int rep = 0; rep < 5; ++rep) {
        double t0 = now_s();
        if (dst_hull_build(p, n, 0.0, &h, NULL, 0) != DST_OK) exit(1);
        t[rep] = now_s() - t0;
        *nverts = h.nverts;
        dst_hull_destroy(&h);
    }
    free(p);
    return bench_median(t, 5);
}

int main(int argc, char **argv)
{
    static Pose sep[NQ], coh[NQ], ovl[NQ], deep[NQ];
    BRng rng = {0x1234567ULL};
    DstHull ha, hb;
    DstConvex a, b, a_scan, b_scan;
    double t_hill[REPEATS], t_scan[REPEATS], t_cold[REPEATS], t_warm[REPEATS], t_epa[REPEATS];
    double t_deep[REPEATS], it_deep = 0, depth_mean = 0.0;
    double it_hill = 0, it_scan = 0, it_cold = 0, it_warm = 0, it_epa = 0, sink = 0.0;
    int nsep = 0, novl = 0;

    make_hull(&rng, 0.5, 0.4, 0.3, &ha);
    make_hull(&rng, 0.45, 0.35, 0.4, &hb);
    a = dst_hull_convex(&ha);
    b = dst_hull_convex(&hb);
    a_scan = dst_convex_points(ha.verts, ha.nverts, NULL, NULL);
    b_scan = dst_convex_points(hb.verts, hb.nverts, NULL, NULL);
    random_poses(&rng, sep, NQ, 1.2); /* > sum of the largest semi-axes: separated */
    coherent_poses(coh, NQ, 1.1);
    random_poses(&rng, deep, NQ, 0.25); /* centres close: deep overlap */
    /* shallow overlaps: random poses with centres 0.55..0.85 apart, kept when they overlap */
    for (int q = 0; q < NQ;) {
        DstConvexDistance r;
        random_poses(&rng, &ovl[q], 1, 0.55 + 0.3 * brng(&rng));
        dst_convex_set_pose(&b, ovl[q].R, ovl[q].t);
        dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, NULL, 0);
        if (r.distance < 0.0) {
            depth_mean -= r.distance / NQ;
            ++q;
        }
    }
    /* check the classes once */
    for (int q = 0; q < NQ; ++q) {
        DstConvexDistance r;
        dst_convex_set_pose(&b, sep[q].R, sep[q].t);
        dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, NULL, 0);
        nsep += r.distance > 0.0;
        dst_convex_set_pose(&b, deep[q].R, deep[q].t);
        dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, NULL, 0);
        novl += r.distance < 0.0;
    }

    if (argc > 1) {
        /* profiling mode: one pass of an overlap set, no timing */
        int deep_set = strcmp(argv[1], "epa-deep") == 0;
        if (!deep_set && strcmp(argv[1], "epa") != 0) {
            fprintf(stderr, "usage: bench_gjk [epa | epa-deep]\n");
            return 2;
        }
        run_epa(&a, &b, deep_set ? deep : ovl, NQ, deep_set ? &it_deep : &it_epa, &sink);
        printf("epa_profile_queries: %d\n", NQ);
        printf("epa_profile_iterations_mean: %.2f\n", deep_set ? it_deep : it_epa);
        printf("bench_checksum: %.6g\n", sink);
        dst_hull_destroy(&ha);
        dst_hull_destroy(&hb);
        return 0;
    }
    for (int rep = -1; rep < REPEATS; ++rep) {
        double x1 = run_gjk(&a, &b, sep, NQ, 0, &it_hill, &sink);
        double x2 = run_gjk(&a_scan, &b_scan, sep, NQ, 0, &it_scan, &sink);
        double x3 = run_gjk(&a, &b, coh, NQ, 0, &it_cold, &sink);
        double x4 = run_gjk(&a, &b, coh, NQ, 1, &it_warm, &sink);
        double x5 = run_epa(&a, &b, ovl, NQ, &it_epa, &sink);
        double x6 = run_epa(&a, &b, deep, NQ, &it_deep, &sink);
        if (rep < 0) continue; /* warm-up */
        t_deep[rep] = x6;
        t_hill[rep] = x1;
        t_scan[rep] = x2;
        t_cold[rep] = x3;
        t_warm[rep] = x4;
        t_epa[rep] = x5;
    }
    {
        double hill = bench_median(t_hill, REPEATS), scan = bench_median(t_scan, REPEATS);
        double cold = bench_median(t_cold, REPEATS), warm = bench_median(t_warm, REPEATS);
        double epa = bench_median(t_epa, REPEATS);
        printf("gjk_hull_a_vertices: %d\n", ha.nverts);
        printf("gjk_hull_b_vertices: %d\n", hb.nverts);
        printf("gjk_separated_fraction: %.3f\n", (double)nsep / NQ);
        printf("gjk_distance_ns: %.1f\n", 1e9 * (hill < scan ? hill : scan));
        printf("gjk_distance_hillclimb_ns: %.1f\n", 1e9 * hill);
        printf("gjk_distance_bruteforce_ns: %.1f\n", 1e9 * scan);
        printf("gjk_hillclimb_speedup: %.2f\n", scan / hill);
        printf("gjk_iterations_mean: %.2f\n", it_hill);
        printf("gjk_distance_coherent_ns: %.1f\n", 1e9 * cold);
        printf("gjk_distance_warm_ns: %.1f\n", 1e9 * warm);
        printf("gjk_warm_speedup: %.2f\n", cold / warm);
        printf("gjk_warm_iterations_mean: %.2f\n", it_warm);
        printf("gjk_coherent_iterations_mean: %.2f\n", it_cold);
        printf("epa_depth_mean_m: %.4f\n", depth_mean);
        printf("epa_depth_us: %.3f\n", 1e6 * epa);
        printf("epa_iterations_mean: %.2f\n", it_epa);
        printf("epa_deep_overlap_fraction: %.3f\n", (double)novl / NQ);
        printf("epa_depth_deep_us: %.3f\n", 1e6 * bench_median(t_deep, REPEATS));
        printf("epa_deep_iterations_mean: %.2f\n", it_deep);
        printf("gjk_support_cold_ns: %.1f\n", 1e9 * support_latency(&a, &sink));
        printf("bench_checksum: %.6g\n", sink);
    }
    {
        static const int sizes[3] = {1000, 10000, 100000};
        int nv;
        for (int k = 0; k < 3; ++k) {
            double t = bench_hull(&rng, sizes[k], 0, &nv);
            printf("hull_build_ms_ball_%d: %.3f\n", sizes[k], 1e3 * t);
            printf("hull_vertices_ball_%d: %d\n", sizes[k], nv);
        }
        for (int k = 0; k < 2; ++k) {
            double t = bench_hull(&rng, sizes[k], 1, &nv);
            printf("hull_build_ms_sphere_%d: %.3f\n", sizes[k], 1e3 * t);
        }
    }
    dst_hull_destroy(&ha);
    dst_hull_destroy(&hb);
    return 0;
}
