/* check_dst_tri.c — tests of the triangle-triangle distance kernel (distance/dst_tri.c):
 * against GJK on the two triangles as convex point sets (an independent method) on random
 * pairs including near-parallel, coplanar, intersecting and degenerate ones; witness
 * points on their triangles at the reported distance; known answers; bit for bit equal to
 * the scalar form of the kernel (tests/dst_tri_reference.h). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dst_bvh.h"
#include "dst_capsule_testgen.h"
#include "dst_convex.h"
#include "dst_tri_reference.h"

#define TRI_RANDOM_PAIRS (TG_ASAN ? 3000 : 20000)
/* agreement with GJK (stops at 1e-10 relative), relative to the pair's size */
#define TRI_GJK_REL_TOL 1e-8
/* a witness lies on its triangle: barycentric slack, and |pa - pb| vs dist, metres */
#define TRI_WITNESS_TOL 1e-9
/* known answers, metres */
#define TRI_EXACT_TOL 1e-14

static void random_tri(TgRng *r, double s, double t[9])
{
    for (int i = 0; i < 9; ++i) t[i] = tg_uniform(r, -s, s);
}

/* x lies on t within tol: the kernel's point-triangle distance (its point-face and
 * edge paths are checked against GJK by the same test) */
static int on_triangle(const double t[9], const double x[3], double tol)
{
    double p[9] = {x[0], x[1], x[2], x[0], x[1], x[2], x[0], x[1], x[2]};
    DstTriPair tp;
    dst_tri_distance(p, t, &tp);
    return tp.dist <= tol;
}

START_TEST(test_tri_against_gjk)
{
    TgRng r = {11};
    DstGjkOptions go = dst_gjk_options_default();
    int intersecting = 0;
    for (int n = 0; n < TRI_RANDOM_PAIRS; ++n) {
        double a[9], b[9];
        random_tri(&r, 1.0, a);
        random_tri(&r, 1.0, b);
        int kind = n % 6;
        double off[3];
        tg_unit(&r, off);
        double sh = tg_uniform(&r, 0.0, 2.0);
        if (kind == 1) {
            /* parallel planes: b is a translated copy of a rotated in-plane copy */
            for (int i = 0; i < 9; ++i) b[i] = a[(i + 3) % 9];
            double e0[3] = {a[3] - a[0], a[4] - a[1], a[5] - a[2]}, e1[3] = {a[6] - a[0], a[7] - a[1], a[8] - a[2]};
            double nn[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
            double l = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
            for (int v = 0; v < 3; ++v) {
                for (int i = 0; i < 3; ++i) b[3 * v + i] += 0.3 * sh * nn[i] / l + 0.2 * off[i];
            }
        } else if (kind == 2) {
            /* coplanar: b in a's plane (z = 0 for both) */
            for (int v = 0; v < 3; ++v) a[3 * v + 2] = 0.0, b[3 * v + 2] = 0.0;
        } else if (kind == 3) {
            /* degenerate b: collinear or a point */
            for (int i = 0; i < 3; ++i) b[6 + i] = 0.5 * (b[i] + b[3 + i]);
            if (n % 12 == 3) memcpy(b + 3, b, 3 * sizeof(double));
        } else if (kind == 4) {
            /* shifted apart */
            for (int v = 0; v < 3; ++v) {
                for (int i = 0; i < 3; ++i) b[3 * v + i] += 2.0 * sh * off[i];
            }
        } else if (kind == 5) {
            /* shared vertex: touching */
            memcpy(b, a + 3, 3 * sizeof(double));
        }
        DstTriPair tp;
        dst_tri_distance(a, b, &tp);
        DstConvex ca = dst_convex_points(a, 3, NULL, NULL), cb = dst_convex_points(b, 3, NULL, NULL);
        DstGjkResult g;
        dst_gjk_distance(&ca, &cb, &go, NULL, &g, NULL, 0);
        double gd = g.cores_overlap ? 0.0 : g.distance;
        ck_assert_msg(fabs(tp.dist - gd) <= TRI_GJK_REL_TOL * (1.0 + g.scale), "pair %d kind %d: kernel %.17g gjk %.17g",
                      n, kind, tp.dist, gd);
        if (tp.dist == 0.0) ++intersecting;
        /* witnesses: on their triangles, at the reported distance */
        double w[3] = {tp.pa[0] - tp.pb[0], tp.pa[1] - tp.pb[1], tp.pa[2] - tp.pb[2]};
        ck_assert(fabs(sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) - tp.dist) <= TRI_WITNESS_TOL);
        ck_assert_msg(on_triangle(a, tp.pa, TRI_WITNESS_TOL), "pair %d: pa off triangle A", n);
        ck_assert_msg(on_triangle(b, tp.pb, TRI_WITNESS_TOL), "pair %d: pb off triangle B", n);
    }
    /* the random set must contain intersecting pairs, or the crossing branch is untested */
    ck_assert_int_gt(intersecting, TRI_RANDOM_PAIRS / 20);
}
END_TEST

START_TEST(test_tri_known_answers)
{
    /* parallel horizontal triangles 0.5 apart, overlapping in projection */
    double a[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    double b[9] = {0.1, 0.1, 0.5, 0.6, 0.1, 0.5, 0.1, 0.6, 0.5};
    DstTriPair tp;
    dst_tri_distance(a, b, &tp);
    ck_assert(fabs(tp.dist - 0.5) <= TRI_EXACT_TOL);
    /* b pierces a: distance 0, witness the crossing point */
    double c[9] = {0.2, 0.2, -1, 0.2, 0.2, 1, 5, 5, 0};
    dst_tri_distance(a, c, &tp);
    ck_assert(tp.dist == 0.0);
    /* crossed edges (skew lines) at distance 1: x axis segment vs y-parallel segment at z = 1 */
    double d[9] = {-1, 0, 0, 1, 0, 0, 0, 0, -3};
    double e[9] = {0, -1, 1, 0, 1, 1, 0, 0, 4};
    dst_tri_distance(d, e, &tp);
    ck_assert(fabs(tp.dist - 1.0) <= TRI_EXACT_TOL);
    /* coplanar, disjoint: gap 1 along x */
    double f[9] = {2, 0, 0, 3, 0, 0, 2, 1, 0};
    dst_tri_distance(a, f, &tp);
    ck_assert(fabs(tp.dist - 1.0) <= TRI_EXACT_TOL);
    /* both degenerate (points) */
    double g[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, h[9] = {3, 4, 0, 3, 4, 0, 3, 4, 0};
    dst_tri_distance(g, h, &tp);
    ck_assert(fabs(tp.dist - 5.0) <= TRI_EXACT_TOL);
}
END_TEST

/* Session 16b: the lane-wise kernel equals the scalar one bit for bit (distance and both
 * witnesses), on random pairs and on the cases whose lanes leave the general segment formula:
 * parallel edges (translated copies), zero-length edges (points, repeated vertices), edges
 * below DST_MIN_DENOM in squared length, integer grids (exact ties and touching), and a
 * degenerate A as well as B. */
START_TEST(test_tri_scalar_reference)
{
    TgRng r = {29};
    int differ = 0, fallback_kinds = 0;
    for (int n = 0; n < TRI_RANDOM_PAIRS; ++n) {
        double a[9], b[9], off[3];
        int kind = n % 8;
        random_tri(&r, 1.0, a);
        random_tri(&r, 1.0, b);
        tg_unit(&r, off);
        double sh = tg_uniform(&r, 0.0, 1.5);
        if (kind == 1) {
            /* translated copy: every edge of b parallel to one of a */
            for (int i = 0; i < 9; ++i) b[i] = a[i] + sh * off[i % 3];
        } else if (kind == 2) {
            /* b a point or a segment with a repeated vertex; a with a repeated vertex */
            memcpy(b + 3, b, 3 * sizeof(double));
            if (n % 16 == 2) memcpy(b + 6, b, 3 * sizeof(double));
            else memcpy(a + 6, a + 3, 3 * sizeof(double));
        } else if (kind == 3) {
            /* an edge of squared length below DST_MIN_DENOM on each */
            for (int i = 0; i < 3; ++i) b[3 + i] = b[i] + 1e-160 * off[i], a[6 + i] = a[i] + 1e-155 * off[i];
        } else if (kind == 4) {
            /* small integer grid: coplanar, touching, shared edges, exact ties */
            for (int i = 0; i < 9; ++i) a[i] = floor(3.0 * a[i]), b[i] = floor(3.0 * b[i]);
        } else if (kind == 5) {
            /* coplanar */
            for (int v = 0; v < 3; ++v) a[3 * v + 2] = 0.0, b[3 * v + 2] = 0.0;
        } else if (kind == 6) {
            /* collinear b (a sliver) near a's face */
            for (int i = 0; i < 3; ++i) b[6 + i] = 0.5 * (b[i] + b[3 + i]);
        } else if (kind == 7) {
            /* far apart and large */
            for (int i = 0; i < 9; ++i) a[i] *= 100.0, b[i] = 100.0 * b[i] + 500.0 * off[i % 3];
        }
        if (kind >= 1 && kind <= 3) ++fallback_kinds;
        DstTriPair got, ref;
        dst_tri_distance(a, b, &got);
        ref_tri_distance(a, b, &ref);
        int same = memcmp(&got.dist, &ref.dist, sizeof got.dist) == 0 && memcmp(got.pa, ref.pa, sizeof got.pa) == 0 &&
                   memcmp(got.pb, ref.pb, sizeof got.pb) == 0;
        if (!same && differ++ < 5) {
            fprintf(stderr, "pair %d kind %d: %.17g (%.17g %.17g %.17g) vs scalar %.17g (%.17g %.17g %.17g)\n", n, kind,
                    got.dist, got.pa[0], got.pa[1], got.pa[2], ref.dist, ref.pa[0], ref.pa[1], ref.pa[2]);
        }
        /* and with the roles swapped */
        dst_tri_distance(b, a, &got);
        ref_tri_distance(b, a, &ref);
        same = memcmp(&got.dist, &ref.dist, sizeof got.dist) == 0 && memcmp(got.pa, ref.pa, sizeof got.pa) == 0 &&
               memcmp(got.pb, ref.pb, sizeof got.pb) == 0;
        if (!same && differ++ < 5) fprintf(stderr, "pair %d kind %d swapped differs\n", n, kind);
    }
    ck_assert_int_gt(fallback_kinds, TRI_RANDOM_PAIRS / 4);
    ck_assert_msg(differ == 0, "%d of %d pairs differ from the scalar kernel", differ, 2 * TRI_RANDOM_PAIRS);
}
END_TEST

Suite *dst_tri_suite(void)
{
    Suite *s = suite_create("dst_tri");
    TCase *tc = tcase_create("against_gjk");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tri_against_gjk);
    suite_add_tcase(s, tc);
    tc = tcase_create("known_answers");
    tcase_add_test(tc, test_tri_known_answers);
    suite_add_tcase(s, tc);
    tc = tcase_create("scalar_reference");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tri_scalar_reference);
    suite_add_tcase(s, tc);
    return s;
}
