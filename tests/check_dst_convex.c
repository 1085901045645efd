/* check_dst_convex.c — tests of distance/dst_convex.c: support mappings of every shape kind
 * against brute force, poses, hill-climbing vs scanning, validation messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "convex_testutil.h"
#include "dst_convex.h"
#include "dst_convex_internal.h"

/* support values agree to rounding of O(1) coordinates */
#define SUPPORT_TOL 1e-12
/* dense surface sampling of an ellipsoid is within this of its true support value */
#define SAMPLE_SLACK 1e-12
/* the ellipsoid support point lies on the surface: |sum (x_i/r_i)^2 - 1| below this */
#define SURFACE_TOL 1e-12

START_TEST(test_support_box)
{
    TRng rng = trng_make(11);
    for (int it = 0; it < 500; ++it) {
        double h[3] = {trng_range(&rng, 0.1, 2), trng_range(&rng, 0.1, 2),
                       trng_range(&rng, 0.1, 2)};
        double R[9], t[3], d[3], s[3], best = -HUGE_VAL;
        DstConvex box = dst_convex_box(h[0], h[1], h[2]);
        TPoly P;
        trng_rotation(&rng, R);
        trng_ball(&rng, t);
        trng_ball(&rng, d);
        dst_convex_set_pose(&box, R, t);
        ck_assert_int_eq(dst_convex_validate(&box, NULL, 0), DST_OK);
        dst_convex_support(&box, d, s);
        tref_box_poly(&P, h, R, t);
        for (int i = 0; i < 8; ++i) best = fmax(best, tv_dot(P.v[i], d));
        ck_assert_double_eq_tol(tv_dot(s, d), best, SUPPORT_TOL);
    }
}
END_TEST

START_TEST(test_support_sphere_capsule)
{
    TRng rng = trng_make(12);
    for (int it = 0; it < 500; ++it) {
        double R[9], t[3], d[3], s[3], r = trng_range(&rng, 0.01, 1), hl = trng_range(&rng, 0, 1);
        double e0[3], e1[3], lz[2][3] = {{0, 0, -hl}, {0, 0, hl}}, want;
        DstConvex sph = dst_convex_sphere(r), cap = dst_convex_capsule(r, hl);
        trng_rotation(&rng, R);
        trng_ball(&rng, t);
        trng_ball(&rng, d);
        dst_convex_set_pose(&sph, R, t);
        dst_convex_set_pose(&cap, R, t);
        dst_convex_support(&sph, d, s);
        ck_assert_double_eq_tol(tv_dot(s, d), tv_dot(t, d) + r * tv_norm(d), SUPPORT_TOL);
        ck_assert_double_eq_tol(tv_dist(s, t), r, SUPPORT_TOL);
        dst_convex_support(&cap, d, s);
        tv_xform(e0, R, t, lz[0]);
        tv_xform(e1, R, t, lz[1]);
        want = fmax(tv_dot(e0, d), tv_dot(e1, d)) + r * tv_norm(d);
        ck_assert_double_eq_tol(tv_dot(s, d), want, SUPPORT_TOL);
    }
}
END_TEST

START_TEST(test_support_ellipsoid)
{
    TRng rng = trng_make(13);
    for (int it = 0; it < 40; ++it) {
        double ax[3] = {trng_range(&rng, 0.05, 2), trng_range(&rng, 0.05, 2),
                        trng_range(&rng, 0.05, 2)};
        double R[9], t[3], d[3], s[3], xl[3], RT[9], val;
        DstConvex e = dst_convex_ellipsoid(ax[0], ax[1], ax[2]);
        trng_rotation(&rng, R);
        trng_ball(&rng, t);
        trng_ball(&rng, d);
        dst_convex_set_pose(&e, R, t);
        dst_convex_support(&e, d, s);
        val = tv_dot(s, d);
        /* back to the local frame: on the surface */
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) RT[3 * i + j] = R[3 * j + i];
        }
        {
            double q[3];
            tv_sub(q, s, t);
            double z[3] = {0, 0, 0};
            tv_xform(xl, RT, z, q);
        }
        ck_assert_double_eq_tol((xl[0] / ax[0]) * (xl[0] / ax[0]) +
                                    (xl[1] / ax[1]) * (xl[1] / ax[1]) +
                                    (xl[2] / ax[2]) * (xl[2] / ax[2]),
                                1.0, SURFACE_TOL);
        /* no sampled surface point goes further along d */
        for (int k = 0; k < 2000; ++k) {
            double u[3], x[3], w[3];
            trng_ball(&rng, u);
            if (tv_norm(u) < 1e-3) continue;
            for (int i = 0; i < 3; ++i) x[i] = ax[i] * u[i] / tv_norm(u);
            tv_xform(w, R, t, x);
            ck_assert(tv_dot(w, d) <= val + SAMPLE_SLACK);
        }
    }
}
END_TEST

START_TEST(test_support_points_hill_climb)
{
    /* hill-climbing on the hull graph equals the full scan, from every start vertex */
    TRng rng = trng_make(14);
    double pts[200][3];
    DstHull hull;
    for (int i = 0; i < 200; ++i) {
        trng_ball(&rng, pts[i]);
        pts[i][0] *= 2.0;
    }
    ck_assert_int_eq(dst_hull_build(&pts[0][0], 200, 0.0, &hull, NULL, 0), DST_OK);
    {
        DstConvex climb = dst_hull_convex(&hull);
        DstConvex scan = dst_convex_points(hull.verts, hull.nverts, NULL, NULL);
        double R[9], t[3] = {0.3, -1, 2};
        trng_rotation(&rng, R);
        dst_convex_set_pose(&climb, R, t);
        dst_convex_set_pose(&scan, R, t);
        ck_assert_int_eq(dst_convex_validate(&climb, NULL, 0), DST_OK);
        for (int it = 0; it < 2000; ++it) {
            double d[3], a[3], b[3];
            int hint = it % hull.nverts;
            trng_ball(&rng, d);
            dst_convex_core_support(&climb, d, hint, a);
            dst_convex_core_support(&scan, d, -1, b);
            ck_assert_double_eq_tol(tv_dot(a, d), tv_dot(b, d), SUPPORT_TOL);
        }
    }
    dst_hull_destroy(&hull);
}
END_TEST

START_TEST(test_core_vertex_ids)
{
    /* ids returned by supports address the same points through core_vertex */
    TRng rng = trng_make(15);
    double verts[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.2, 0.2, 0.2}};
    DstConvex shapes[4];
    shapes[0] = dst_convex_box(0.3, 0.4, 0.5);
    shapes[1] = dst_convex_capsule(0.1, 0.7);
    shapes[2] = dst_convex_sphere(0.2);
    shapes[3] = dst_convex_points(&verts[0][0], 5, NULL, NULL);
    for (int s = 0; s < 4; ++s) {
        double R[9], t[3];
        trng_rotation(&rng, R);
        trng_ball(&rng, t);
        dst_convex_set_pose(&shapes[s], R, t);
        for (int it = 0; it < 50; ++it) {
            double d[3], p[3], q[3];
            int id;
            trng_ball(&rng, d);
            id = dst_convex_core_support(&shapes[s], d, -1, p);
            ck_assert_int_ge(id, 0);
            ck_assert_int_eq(dst_convex_core_vertex(&shapes[s], id, q), 1);
            ck_assert_double_eq_tol(tv_dist(p, q), 0.0, SUPPORT_TOL);
        }
        ck_assert_int_eq(dst_convex_core_vertex(&shapes[s], 99, verts[0]), 0);
    }
}
END_TEST

START_TEST(test_support_start_table)
{
    /* every cell of the hull's cube map holds the support vertex of its centre direction, the
     * cell of a direction contains it, and supports from the table with no hint are exact */
    TRng rng = trng_make(17);
    double pts[300][3];
    DstHull hull;
    for (int i = 0; i < 300; ++i) {
        trng_ball(&rng, pts[i]);
        pts[i][1] *= 0.5;
    }
    ck_assert_int_eq(dst_hull_build(&pts[0][0], 300, 0.0, &hull, NULL, 0), DST_OK);
    ck_assert_int_eq(hull.dir_res, DST_HULL_DIR_RES);
    for (int f = 0; f < 6; ++f) {
        for (int i = 0; i < hull.dir_res; ++i) {
            for (int j = 0; j < hull.dir_res; ++j) {
                double d[3], best = -HUGE_VAL;
                int m = f / 2, cell = (f * hull.dir_res + i) * hull.dir_res + j;
                d[m] = f % 2 ? -1.0 : 1.0;
                d[(m + 1) % 3] = -1.0 + (2.0 * i + 1.0) / hull.dir_res;
                d[(m + 2) % 3] = -1.0 + (2.0 * j + 1.0) / hull.dir_res;
                ck_assert_int_eq(cvx_dir_cell(d, hull.dir_res), cell);
                for (int q = 0; q < hull.nverts; ++q) best = fmax(best, tv_dot(hull.verts + 3 * q, d));
                ck_assert_double_eq_tol(tv_dot(hull.verts + 3 * hull.dir_table[cell], d), best,
                                        SUPPORT_TOL);
            }
        }
    }
    {
        DstConvex c = dst_hull_convex(&hull);
        double R[9], t[3] = {1, 2, 3};
        trng_rotation(&rng, R);
        dst_convex_set_pose(&c, R, t);
        ck_assert_int_eq(dst_convex_validate(&c, NULL, 0), DST_OK);
        for (int it = 0; it < 2000; ++it) {
            double d[3], p[3], best = -HUGE_VAL;
            trng_ball(&rng, d);
            dst_convex_core_support(&c, d, -1, p);
            for (int q = 0; q < hull.nverts; ++q) {
                double x[3];
                tv_xform(x, R, t, hull.verts + 3 * q);
                best = fmax(best, tv_dot(x, d));
            }
            ck_assert_double_eq_tol(tv_dot(p, d), best, SUPPORT_TOL);
        }
        /* a table without adjacency, or with an index out of range, is rejected */
        {
            char err[160];
            DstConvex bad = c;
            int table[6 * 1 * 1] = {0, 0, 0, 0, 0, 9999};
            bad.adj = NULL;
            bad.adj_start = NULL;
            ck_assert_int_eq(dst_convex_validate(&bad, err, sizeof err), DST_INVALID_INPUT);
            ck_assert_ptr_nonnull(strstr(err, "dir_table"));
            bad = c;
            bad.dir_table = table;
            bad.dir_res = 1;
            ck_assert_int_eq(dst_convex_validate(&bad, err, sizeof err), DST_INVALID_INPUT);
            ck_assert_ptr_nonnull(strstr(err, "dir_table[5]"));
        }
    }
    dst_hull_destroy(&hull);
}
END_TEST

static int custom_box_support(const void *user, const double dir[3], int hint, double out[3])
{
    const double *h = user;
    (void)hint;
    for (int i = 0; i < 3; ++i) out[i] = dir[i] >= 0 ? h[i] : -h[i];
    return -1;
}

START_TEST(test_support_custom)
{
    double h[3] = {0.3, 0.2, 0.1};
    DstConvex c = dst_convex_custom(custom_box_support, h), b = dst_convex_box(h[0], h[1], h[2]);
    TRng rng = trng_make(16);
    for (int it = 0; it < 100; ++it) {
        double R[9], t[3], d[3], p[3], q[3];
        trng_rotation(&rng, R);
        trng_ball(&rng, t);
        trng_ball(&rng, d);
        dst_convex_set_pose(&c, R, t);
        dst_convex_set_pose(&b, R, t);
        dst_convex_support(&c, d, p);
        dst_convex_support(&b, d, q);
        ck_assert_double_eq_tol(tv_dot(p, d), tv_dot(q, d), SUPPORT_TOL);
    }
}
END_TEST

START_TEST(test_validate_messages)
{
    char err[200];
    double verts[2][3] = {{0, 0, 0}, {NAN, 0, 0}};
    int adj_start[3] = {0, 1, 2}, adj[2] = {1, 5};
    DstConvex c;

    c = dst_convex_sphere(-1.0);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "margin"));

    c = dst_convex_box(1, NAN, 1);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "half[1]"));

    c = dst_convex_ellipsoid(1, 0, 1);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "radii[1]"));

    c = dst_convex_capsule(0.1, -2);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "half_length"));

    c = dst_convex_points(NULL, 3, NULL, NULL);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "verts"));

    c = dst_convex_points(&verts[0][0], 2, NULL, NULL);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "non-finite"));

    verts[1][0] = 1.0;
    c = dst_convex_points(&verts[0][0], 2, adj_start, adj);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "adj[1]"));
    c = dst_convex_points(&verts[0][0], 2, adj_start, NULL);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);

    c = dst_convex_custom(NULL, NULL);
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "support"));

    {
        double scaled[9] = {2, 0, 0, 0, 1, 0, 0, 0, 1}, mirror[9] = {-1, 0, 0, 0, 1, 0, 0, 0, 1};
        double badpos[3] = {0, INFINITY, 0};
        c = dst_convex_box(1, 1, 1);
        dst_convex_set_pose(&c, scaled, NULL);
        ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(err, "rot"));
        dst_convex_set_pose(&c, mirror, NULL);
        ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(err, "determinant"));
        dst_convex_set_pose(&c, NULL, badpos);
        ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(err, "pose"));
        dst_convex_set_pose(&c, NULL, NULL);
        ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_OK);
    }
    c.kind = (DstConvexKind)42;
    ck_assert_int_eq(dst_convex_validate(&c, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_convex_validate(NULL, NULL, 0), DST_INVALID_INPUT);
}
END_TEST

Suite *dst_convex_suite(void)
{
    Suite *s = suite_create("dst_convex");
    TCase *tc;
    tc = tcase_create("support");
    tcase_add_test(tc, test_support_box);
    tcase_add_test(tc, test_support_sphere_capsule);
    tcase_add_test(tc, test_support_ellipsoid);
    tcase_add_test(tc, test_support_custom);
    suite_add_tcase(s, tc);
    tc = tcase_create("features");
    tcase_add_test(tc, test_support_points_hill_climb);
    tcase_add_test(tc, test_core_vertex_ids);
    tcase_add_test(tc, test_support_start_table);
    suite_add_tcase(s, tc);
    tc = tcase_create("validate");
    tcase_add_test(tc, test_validate_messages);
    suite_add_tcase(s, tc);
    return s;
}
