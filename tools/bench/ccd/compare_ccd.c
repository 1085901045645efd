/* compare_ccd.c — the same convex-hull queries through libccd (Debian libccd-dev) and
 * through distance/ in the same run. Built only by `make bench-ccd`, never by `make`.
 *
 * libccd 2.1 has no GJK *distance*: for separated pairs it answers the boolean
 * ccdGJKIntersect, which does less work than our distance query, so the separated
 * speed-up printed here is conservative. For overlapping pairs both compute the EPA
 * penetration depth (libccd: ccdGJKPenetration, epa_tolerance set to 1e-9 like ours).
 * Both use brute-force supports over the same 150 vertices for the like-for-like lines;
 * ours with hill-climbing is printed as well. Prints `name: value` lines (medians). */
#include <ccd/ccd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dst_convex.h"

#include "../bench_shapes.h"

enum { NVERT = 150, NQ = 1000, REPEATS = 5 };




static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

/* a posed vertex set for libccd's support callback (brute force, like ours without
 * adjacency) */
typedef struct CcdHull {
    const double *v;
    int n;
    double R[9], t[3];
} CcdHull;

static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *out)
{
    const CcdHull *h = obj;
    const double *R = h->R;
    double d[3], best = -HUGE_VAL;
    int bi = 0;
    /* direction into the local frame, scan, back to the world */
    for (int i = 0; i < 3; ++i)
        d[i] = R[i] * dir->v[0] + R[3 + i] * dir->v[1] + R[6 + i] * dir->v[2];
    for (int j = 0; j < h->n; ++j) {
        double x = h->v[3 * j] * d[0] + h->v[3 * j + 1] * d[1] + h->v[3 * j + 2] * d[2];
        if (x > best) {
            best = x;
            bi = j;
        }
    }
    for (int i = 0; i < 3; ++i) {
        out->v[i] = R[3 * i] * h->v[3 * bi] + R[3 * i + 1] * h->v[3 * bi + 1] +
                    R[3 * i + 2] * h->v[3 * bi + 2] + h->t[i];
    }
}

static void ccd_center(const void *obj, ccd_vec3_t *c)
{
    const CcdHull *h = obj;
    for (int i = 0; i < 3; ++i) c->v[i] = h->t[i];
}

static void make_hull(BRng *r, double ax, double ay, double az, DstHull *h)
{
    const double axes[3] = {ax, ay, az};
    if (!bench_ellipsoid_hull(r, NVERT, axes, NULL, h)) exit(1);
}

typedef struct Pose {
    double R[9], t[3];
} Pose;

static void random_pose(BRng *r, Pose *p, double dist)
{
    double axis[3], dir[3];
    bench_unit(r, axis);
    bench_unit(r, dir);
    bench_rotation(axis, 6.283185307179586 * brng(r), p->R);
    for (int i = 0; i < 3; ++i) p->t[i] = dist * dir[i];
}

int main(void)
{
    static Pose sep[NQ], ovl[NQ];
    BRng rng = {0x1234567ULL};
    DstHull ha, hb;
    DstConvex a, b, as, bs;
    CcdHull ca, cb;
    ccd_t ccd;
    double t_ours_sep[REPEATS], t_ours_sep_scan[REPEATS], t_ccd_sep[REPEATS];
    double t_ours_ovl[REPEATS], t_ours_ovl_scan[REPEATS], t_ccd_ovl[REPEATS];
    double max_diff = 0.0, sink = 0.0;
    static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zero[3] = {0, 0, 0};

    make_hull(&rng, 0.5, 0.4, 0.3, &ha);
    make_hull(&rng, 0.45, 0.35, 0.4, &hb);
    a = dst_hull_convex(&ha);
    b = dst_hull_convex(&hb);
    as = dst_convex_points(ha.verts, ha.nverts, NULL, NULL);
    bs = dst_convex_points(hb.verts, hb.nverts, NULL, NULL);
    ca.v = ha.verts;
    ca.n = ha.nverts;
    cb.v = hb.verts;
    cb.n = hb.nverts;
    memcpy(ca.R, eye, sizeof eye);
    memcpy(ca.t, zero, sizeof zero);
    CCD_INIT(&ccd);
    ccd.support1 = ccd_support;
    ccd.support2 = ccd_support;
    ccd.center1 = ccd_center;
    ccd.center2 = ccd_center;
    ccd.max_iterations = 500;
    ccd.epa_tolerance = 1e-9;
    for (int q = 0; q < NQ; ++q) random_pose(&rng, &sep[q], 1.2);
    for (int q = 0; q < NQ;) {
        DstConvexDistance r;
        random_pose(&rng, &ovl[q], 0.55 + 0.3 * brng(&rng));
        dst_convex_set_pose(&b, ovl[q].R, ovl[q].t);
        dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, NULL, 0);
        if (r.distance < 0.0) ++q;
    }
    /* agreement of the depths */
    for (int q = 0; q < NQ; ++q) {
        DstConvexDistance r;
        ccd_real_t depth;
        ccd_vec3_t dir, pos;
        dst_convex_set_pose(&b, ovl[q].R, ovl[q].t);
        dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, NULL, 0);
        memcpy(cb.R, ovl[q].R, sizeof cb.R);
        memcpy(cb.t, ovl[q].t, sizeof cb.t);
        if (ccdGJKPenetration(&ca, &cb, &ccd, &depth, &dir, &pos) == 0) {
            max_diff = fmax(max_diff, fabs(depth + r.distance));
        }
    }
    for (int rep = -1; rep < REPEATS; ++rep) {
        double t0, x[6];
        DstGjkResult g;
        DstConvexDistance r;
        t0 = now_s();
        for (int q = 0; q < NQ; ++q) {
            dst_convex_set_pose(&b, sep[q].R, sep[q].t);
            dst_gjk_distance(&a, &b, NULL, NULL, &g, NULL, 0);
            sink += g.distance;
        }
        x[0] = (now_s() - t0) / NQ;
        t0 = now_s();
        for (int q = 0; q < NQ; ++q) {
            dst_convex_set_pose(&bs, sep[q].R, sep[q].t);
            dst_gjk_distance(&as, &bs, NULL, NULL, &g, NULL, 0);
            sink += g.distance;
        }
        x[1] = (now_s() - t0) / NQ;
        t0 = now_s();
        for (int q = 0; q < NQ; ++q) {
            memcpy(cb.R, sep[q].R, sizeof cb.R);
            memcpy(cb.t, sep[q].t, sizeof cb.t);
            sink += ccdGJKIntersect(&ca, &cb, &ccd);
        }
        x[2] = (now_s() - t0) / NQ;
        t0 = now_s();
        for (int q = 0; q < NQ; ++q) {
            dst_convex_set_pose(&b, ovl[q].R, ovl[q].t);
            dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, NULL, 0);
            sink += r.distance;
        }
        x[3] = (now_s() - t0) / NQ;
        t0 = now_s();
        for (int q = 0; q < NQ; ++q) {
            dst_convex_set_pose(&bs, ovl[q].R, ovl[q].t);
            dst_convex_distance(&as, &bs, NULL, NULL, NULL, &r, NULL, 0);
            sink += r.distance;
        }
        x[4] = (now_s() - t0) / NQ;
        t0 = now_s();
        for (int q = 0; q < NQ; ++q) {
            ccd_real_t depth;
            ccd_vec3_t dir, pos;
            memcpy(cb.R, ovl[q].R, sizeof cb.R);
            memcpy(cb.t, ovl[q].t, sizeof cb.t);
            if (ccdGJKPenetration(&ca, &cb, &ccd, &depth, &dir, &pos) == 0) sink += depth;
        }
        x[5] = (now_s() - t0) / NQ;
        if (rep < 0) continue;
        t_ours_sep[rep] = x[0];
        t_ours_sep_scan[rep] = x[1];
        t_ccd_sep[rep] = x[2];
        t_ours_ovl[rep] = x[3];
        t_ours_ovl_scan[rep] = x[4];
        t_ccd_ovl[rep] = x[5];
    }
    {
        double os = median(t_ours_sep, REPEATS), oss = median(t_ours_sep_scan, REPEATS);
        double cs = median(t_ccd_sep, REPEATS), oo = median(t_ours_ovl, REPEATS);
        double oos = median(t_ours_ovl_scan, REPEATS), co = median(t_ccd_ovl, REPEATS);
        printf("ours_gjk_distance_ns: %.1f\n", 1e9 * os);
        printf("ours_gjk_distance_bruteforce_ns: %.1f\n", 1e9 * oss);
        printf("libccd_gjk_intersect_ns: %.1f\n", 1e9 * cs);
        printf("gjk_vs_libccd_speedup: %.2f\n", cs / os);
        printf("gjk_vs_libccd_speedup_bruteforce: %.2f\n", cs / oss);
        printf("ours_epa_depth_us: %.3f\n", 1e6 * oo);
        printf("ours_epa_depth_bruteforce_us: %.3f\n", 1e6 * oos);
        printf("libccd_epa_depth_us: %.3f\n", 1e6 * co);
        printf("epa_vs_libccd_speedup: %.2f\n", co / oo);
        printf("epa_vs_libccd_speedup_bruteforce: %.2f\n", co / oos);
        printf("epa_vs_libccd_max_depth_diff_m: %.3g\n", max_diff);
        printf("compare_checksum: %.6g\n", sink);
    }
    dst_hull_destroy(&ha);
    dst_hull_destroy(&hb);
    return 0;
}
