/* bench_convex_mcd.c — MCD of two moving convex hulls (dst_convex_mcd) against the certified
 * sampling baseline (dst_convex_mcd_sampling, thesis eq. 6.3) measured in the same run.
 *
 * Workload: two hulls of ~100 vertices shaped like HRP-2 links, a forearm (0.3 m, body
 * origin at the elbow) and a torso (0.3 x 0.24 x 0.5 m), each moving rigidly over one knot
 * span of 0.25 s (dst_moving_frame_from_poses, degree 5 as in the thesis): the forearm turns
 * 0.3-1.0 rad about its elbow while the elbow travels 0.05-0.2 m, the torso turns 0.05-0.2 rad
 * and travels 0.02-0.05 m. The pair is placed so that the nominal clearance at a random
 * instant is -1 cm .. 8 cm (some motions touch or penetrate). eps = 1 mm (eq. 6.1).
 *
 * Prints `name: value` lines. Every call is timed on the thread CPU clock; a motion's time is
 * the least over REPEATS runs after a warm-up run; medians and means are over the motions:
 *   convex_mcd_median_us / convex_mcd_mean_us           dst_convex_mcd per call
 *   convex_sampling_median_us / convex_sampling_mean_us dst_convex_mcd_sampling per call
 *   convex_ca_vs_sampling_speedup                       sampling mean / CA mean
 * plus evaluation counts, certified fractions and the largest difference of the two
 * certified upper bounds. Run by `make bench` (-O3 -march=native). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_shapes.h"
#include "bench_util.h"

#include "dst_convex_mcd.h"

enum { NVERT = 100, NMOTION = 300, REPEATS = 5 };





static void matmul(const double A[9], const double B[9], double C[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
}

/* NVERT points on an ellipsoid with semi-axes ax centred at off (all extreme) */
static void make_hull(BRng *r, const double ax[3], const double off[3], DstHull *h)
{
    if (!bench_ellipsoid_hull(r, NVERT, ax, off, h)) {
        fprintf(stderr, "bench_convex_mcd: hull failed\n");
        exit(1);
    }
}

/* a rigid motion turning up to [w0, w1] rad and travelling [v0, v1] m over the span */
static void random_frame(BRng *r, double w0, double w1, double v0, double v1, DstMovingFrame *f)
{
    double R0[9], R1[9], Rr[9], k[3], x0[3], x1[3], d[3];
    bench_unit(r, k);
    bench_rotation(k, brange(r, 0.0, 6.283185307179586), R0);
    bench_unit(r, k);
    bench_rotation(k, brange(r, w0, w1), Rr);
    matmul(Rr, R0, R1);
    bench_unit(r, d);
    for (int i = 0; i < 3; ++i) {
        x0[i] = 0.0;
        x1[i] = brange(r, v0, v1) * d[i];
    }
    if (dst_moving_frame_from_poses(R0, x0, R1, x1, 5, f) != DST_OK) {
        fprintf(stderr, "bench_convex_mcd: frame failed\n");
        exit(1);
    }
}

/* shift b so that at s the nominal clearance is `gap` (a few Newton steps along the normal) */
static void place(const DstMovingConvex *a, DstMovingConvex *b, double s, double gap)
{
    for (int it = 0; it < 6; ++it) {
        DstConvexDistance d;
        if (dst_convex_mcd_nominal(a, b, s, NULL, &d, NULL) == DST_FAILED) exit(1);
        if (fabs(d.distance - gap) < 1e-6) break;
        for (int i = 0; i < 3; ++i) b->frame.origin.c[0][i] += (d.distance - gap) * d.normal[i];
    }
}

typedef DstStatus (*McdFn)(const DstMovingConvex *, const DstMovingConvex *, double, double,
                           const DstMcdOptions *, DstGjkCache *, DstMcdResult *);

int main(void)
{
    static DstMovingConvex A[NMOTION], B[NMOTION];
    static double t_ca[NMOTION], t_sa[NMOTION];
    static DstMcdResult r_ca[NMOTION], r_sa[NMOTION];
    BRng rng = {0x9e3779b97f4a7c15ULL};
    const double arm_ax[3] = {0.15, 0.05, 0.045}, arm_off[3] = {0.15, 0.0, 0.0};
    const double torso_ax[3] = {0.15, 0.12, 0.25}, torso_off[3] = {0.0, 0.0, 0.0};
    DstHull ha, hb;
    DstConvex a, b;
    DstMcdOptions opt = dst_mcd_options_default();
    const double T = 0.25;
    make_hull(&rng, arm_ax, arm_off, &ha);
    make_hull(&rng, torso_ax, torso_off, &hb);
    a = dst_hull_convex(&ha);
    b = dst_hull_convex(&hb);
    for (int m = 0; m < NMOTION; ++m) {
        double dir[3];
        A[m].shape = &a;
        B[m].shape = &b;
        random_frame(&rng, 0.3, 1.0, 0.05, 0.2, &A[m].frame);
        random_frame(&rng, 0.05, 0.2, 0.02, 0.05, &B[m].frame);
        /* start the torso 0.4 m away in a random direction, then set the clearance */
        bench_unit(&rng, dir);
        for (int i = 0; i < 3; ++i) B[m].frame.origin.c[0][i] += 0.4 * dir[i];
        place(&A[m], &B[m], brng(&rng), brange(&rng, -0.01, 0.08));
    }
    for (int pass = 0; pass < 2; ++pass) {
        McdFn fn = pass == 0 ? dst_convex_mcd : dst_convex_mcd_sampling;
        double *t = pass == 0 ? t_ca : t_sa;
        DstMcdResult *res = pass == 0 ? r_ca : r_sa;
        for (int m = 0; m < NMOTION; ++m) t[m] = HUGE_VAL;
        for (int rep = -1; rep < REPEATS; ++rep) {
            for (int m = 0; m < NMOTION; ++m) {
                DstGjkCache cache;
                double c0;
                dst_gjk_cache_reset(&cache);
                c0 = bench_cpu_ns();
                fn(&A[m], &B[m], 1.0, 1.0 + T, &opt, &cache, &res[m]);
                c0 = bench_cpu_ns() - c0;
                if (rep >= 0 && c0 < t[m]) t[m] = c0;
            }
        }
    }
    {
        double mean_ca = 0.0, mean_sa = 0.0, ev_ca = 0.0, ev_sa = 0.0, st_ca = 0.0, diff = 0.0, minc = HUGE_VAL;
        int cert_ca = 0, cert_sa = 0, both = 0, pen = 0, ev_sa_min = 1 << 30, ev_sa_max = 0, ev_ca_max = 0;
        static double med_ca[NMOTION], med_sa[NMOTION];
        for (int m = 0; m < NMOTION; ++m) {
            mean_ca += t_ca[m] / NMOTION;
            mean_sa += t_sa[m] / NMOTION;
            med_ca[m] = t_ca[m];
            med_sa[m] = t_sa[m];
            ev_ca += (double)r_ca[m].distance_evals / NMOTION;
            st_ca += (double)r_ca[m].advance_steps / NMOTION;
            ev_sa += (double)r_sa[m].distance_evals / NMOTION;
            ev_sa_min = r_sa[m].distance_evals < ev_sa_min ? r_sa[m].distance_evals : ev_sa_min;
            ev_sa_max = r_sa[m].distance_evals > ev_sa_max ? r_sa[m].distance_evals : ev_sa_max;
            ev_ca_max = r_ca[m].distance_evals > ev_ca_max ? r_ca[m].distance_evals : ev_ca_max;
            cert_ca += r_ca[m].status == DST_CERTIFIED;
            cert_sa += r_sa[m].status == DST_CERTIFIED;
            pen += r_ca[m].upper < 0.0;
            minc = fmin(minc, r_ca[m].upper - r_ca[m].lower);
            if (r_ca[m].status == DST_CERTIFIED && r_sa[m].status == DST_CERTIFIED) {
                ++both;
                diff = fmax(diff, fabs(r_ca[m].upper - r_sa[m].upper));
            }
        }
        printf("convex_mcd_hull_a_vertices: %d\n", ha.nverts);
        printf("convex_mcd_hull_b_vertices: %d\n", hb.nverts);
        printf("convex_mcd_motions: %d\n", NMOTION);
        printf("convex_mcd_penetrating_fraction: %.3f\n", (double)pen / NMOTION);
        printf("convex_mcd_median_us: %.2f\n", 1e-3 * bench_median(med_ca, NMOTION));
        printf("convex_mcd_mean_us: %.2f\n", 1e-3 * mean_ca);
        printf("convex_mcd_evals_mean: %.1f\n", ev_ca);
        printf("convex_mcd_evals_max: %d\n", ev_ca_max);
        printf("convex_mcd_steps_mean: %.1f\n", st_ca);
        printf("convex_mcd_certified_fraction: %.3f\n", (double)cert_ca / NMOTION);
        printf("convex_sampling_median_us: %.2f\n", 1e-3 * bench_median(med_sa, NMOTION));
        printf("convex_sampling_mean_us: %.2f\n", 1e-3 * mean_sa);
        printf("convex_sampling_evals_mean: %.1f\n", ev_sa);
        printf("convex_sampling_evals_min: %d\n", ev_sa_min);
        printf("convex_sampling_evals_max: %d\n", ev_sa_max);
        printf("convex_sampling_certified_fraction: %.3f\n", (double)cert_sa / NMOTION);
        printf("convex_ca_vs_sampling_speedup: %.2f\n", mean_sa / mean_ca);
        printf("convex_ca_vs_sampling_median_speedup: %.2f\n",
               bench_median(med_sa, NMOTION) / bench_median(med_ca, NMOTION));
        printf("convex_ca_sampling_max_upper_diff_m: %.3g\n", diff);
        printf("convex_mcd_min_gap_m: %.3g\n", minc);
    }
    dst_hull_destroy(&ha);
    dst_hull_destroy(&hb);
    return 0;
}
