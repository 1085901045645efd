/* check_dst_tri.c — tests of the triangle-triangle distance kernel (distance/dst_tri.c):
 * against GJK on the two triangles as convex point sets (an independent method) on random
 * pairs including near-parallel, coplanar, intersecting and degenerate ones; witness
 * points on their triangles at the reported distance; known answers. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "dst_bvh.h"
#include "dst_capsule_testgen.h"
#include "dst_convex.h"

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
    return s;
}
