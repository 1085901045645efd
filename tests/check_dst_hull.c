/* check_dst_hull.c — tests of distance/dst_hull.c: closed, convex, outward hulls that hold
 * every input point, on random clouds at several scales and on degenerate input. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "convex_testutil.h"
#include "dst_convex.h"

/* rounding of the plane fit on top of the hull's own tolerance, relative to the
 * bounding-box diagonal */
#define HULL_PLANE_SLACK_REL 1e-12
/* rounding error allowance of an orientation N . (x - a), relative to |b-a||c-a||x-a| */
#define ORIENT_ERR 1e-14

static double bbox_diag(const double *pts, int n)
{
    double lo[3], hi[3], e[3];
    for (int k = 0; k < 3; ++k) lo[k] = hi[k] = pts[k];
    for (int i = 1; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], pts[3 * i + k]);
            hi[k] = fmax(hi[k], pts[3 * i + k]);
        }
    }
    tv_sub(e, hi, lo);
    return tv_norm(e);
}

/* every property a hull must have: closed 2-manifold with consistent orientation, Euler
 * characteristic 2, convex, outward, every input point inside or on it, vertices taken
 * from the input, adjacency symmetric */
static void check_hull(const DstHull *h, const double *pts, int n)
{
    /* the hull promises inputs within tol and vertices within 2 tol of every face plane */
    double slack = 2.0 * h->tol + HULL_PLANE_SLACK_REL * bbox_diag(pts, n), c[3] = {0, 0, 0};
    int E = 0;
    ck_assert_int_eq(h->dim, 3);
    ck_assert(h->tol > 0.0 && h->tol <= DST_HULL_MAX_REL_TOL * bbox_diag(pts, n) * 1.000001);
    ck_assert_int_ge(h->nverts, 4);
    ck_assert_int_ge(h->ntris, 4);
    /* vertices come from the input */
    for (int i = 0; i < h->nverts; ++i) {
        ck_assert_int_ge(h->source[i], 0);
        ck_assert_int_lt(h->source[i], n);
        for (int k = 0; k < 3; ++k) ck_assert(h->verts[3 * i + k] == pts[3 * h->source[i] + k]);
        for (int k = 0; k < 3; ++k) c[k] += h->verts[3 * i + k] / h->nverts;
    }
    /* every directed edge once, its reverse once */
    for (int t = 0; t < h->ntris; ++t) {
        for (int k = 0; k < 3; ++k) {
            int a = h->tris[3 * t + k], b = h->tris[3 * t + (k + 1) % 3], same = 0, rev = 0;
            ck_assert_int_ne(a, b);
            for (int u = 0; u < h->ntris; ++u) {
                for (int l = 0; l < 3; ++l) {
                    int p = h->tris[3 * u + l], q = h->tris[3 * u + (l + 1) % 3];
                    same += p == a && q == b;
                    rev += p == b && q == a;
                }
            }
            ck_assert_int_eq(same, 1);
            ck_assert_int_eq(rev, 1);
            ++E;
        }
    }
    E /= 2;
    ck_assert_int_eq(h->nverts - E + h->ntris, 2);
    /* convex and outward: the centroid below every face, every vertex and input point below
     * or within slack of it; the orientation N . (x - a) is allowed its own rounding error
     * (sliver faces have a poorly determined unit normal) */
    for (int t = 0; t < h->ntris; ++t) {
        const double *a = h->verts + 3 * h->tris[3 * t], *b = h->verts + 3 * h->tris[3 * t + 1],
                     *cc = h->verts + 3 * h->tris[3 * t + 2];
        double e1[3], e2[3], N[3], q[3], nl, el;
        tv_sub(e1, b, a);
        tv_sub(e2, cc, a);
        tv_cross(N, e1, e2);
        nl = tv_norm(N);
        el = tv_norm(e1) * tv_norm(e2);
        ck_assert(nl > 0.0);
        tv_sub(q, c, a);
        ck_assert(tv_dot(N, q) < 0.0);
        for (int i = 0; i < h->nverts + n; ++i) {
            const double *x = i < h->nverts ? h->verts + 3 * i : pts + 3 * (i - h->nverts);
            tv_sub(q, x, a);
            ck_assert_msg(tv_dot(N, q) <= slack * nl + ORIENT_ERR * el * tv_norm(q),
                          "point above face %d by %g", t, tv_dot(N, q) / nl);
        }
    }
    /* adjacency: symmetric, degree = incident triangles */
    ck_assert_int_eq(h->adj_start[0], 0);
    ck_assert_int_eq(h->adj_start[h->nverts], 3 * h->ntris);
    for (int i = 0; i < h->nverts; ++i) {
        for (int k = h->adj_start[i]; k < h->adj_start[i + 1]; ++k) {
            int j = h->adj[k], back = 0;
            for (int l = h->adj_start[j]; l < h->adj_start[j + 1]; ++l) back += h->adj[l] == i;
            ck_assert_int_eq(back, 1);
        }
    }
}

START_TEST(test_hull_random_clouds)
{
    static const double scales[3] = {1e-3, 1.0, 1e3};
    TRng rng = trng_make(21);
    for (int s = 0; s < 3; ++s) {
        for (int rep = 0; rep < 3; ++rep) {
            int n = 60 + 120 * rep;
            double *p = malloc(sizeof(double) * 3 * (size_t)n);
            DstHull h;
            char err[160];
            for (int i = 0; i < n; ++i) {
                trng_ball(&rng, p + 3 * i);
                for (int k = 0; k < 3; ++k)
                    p[3 * i + k] = scales[s] * (p[3 * i + k] * (k + 1) + 5.0);
            }
            ck_assert_msg(dst_hull_build(p, n, 0.0, &h, err, sizeof err) == DST_OK, "%s", err);
            check_hull(&h, p, n);
            dst_hull_destroy(&h);
            free(p);
        }
    }
}
END_TEST

START_TEST(test_hull_sphere_points_all_extreme)
{
    TRng rng = trng_make(22);
    enum { N = 300 };
    double p[N][3];
    DstHull h;
    for (int i = 0; i < N; ++i) {
        double len;
        do {
            trng_ball(&rng, p[i]);
            len = tv_norm(p[i]);
        } while (len < 0.1);
        for (int k = 0; k < 3; ++k) p[i][k] /= len;
    }
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, &h, NULL, 0), DST_OK);
    check_hull(&h, &p[0][0], N);
    ck_assert_int_eq(h.nverts, N);
    ck_assert_int_eq(h.ntris, 2 * N - 4);
    dst_hull_destroy(&h);
}
END_TEST

START_TEST(test_hull_cube_with_coplanar_and_duplicate_points)
{
    /* a 5x5x5 lattice (points on faces and edges are coplanar/collinear with the cube's
     * faces), each point twice, plus interior points: only the 8 corners are vertices */
    enum { N = 2 * 125 + 50 };
    double p[N][3];
    TRng rng = trng_make(23);
    int n = 0;
    DstHull h;
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            for (int k = 0; k < 5; ++k) {
                for (int rep = 0; rep < 2; ++rep) {
                    p[n][0] = 0.25 * i - 0.5;
                    p[n][1] = 0.25 * j - 0.5;
                    p[n][2] = 0.25 * k - 0.5;
                    ++n;
                }
            }
        }
    }
    for (int i = 0; i < 50; ++i, ++n) {
        trng_ball(&rng, p[n]);
        for (int k = 0; k < 3; ++k) p[n][k] *= 0.4;
    }
    ck_assert_int_eq(dst_hull_build(&p[0][0], n, 0.0, &h, NULL, 0), DST_OK);
    check_hull(&h, &p[0][0], n);
    ck_assert_int_eq(h.nverts, 8);
    ck_assert_int_eq(h.ntris, 12);
    dst_hull_destroy(&h);
}
END_TEST

START_TEST(test_hull_thin_slab)
{
    /* nearly coplanar but genuinely 3-D (thickness 1e-6 of the width) */
    TRng rng = trng_make(24);
    enum { N = 200 };
    double p[N][3];
    DstHull h;
    for (int i = 0; i < N; ++i) {
        p[i][0] = trng_range(&rng, -1, 1);
        p[i][1] = trng_range(&rng, -1, 1);
        p[i][2] = trng_range(&rng, -1e-6, 1e-6);
    }
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, &h, NULL, 0), DST_OK);
    check_hull(&h, &p[0][0], N);
    dst_hull_destroy(&h);
}
END_TEST

START_TEST(test_hull_degenerate_inputs)
{
    enum { N = 40 };
    double p[N][3], R[9], t[3] = {0.1, 0.2, 0.3};
    TRng rng = trng_make(25);
    DstHull h;
    char err[160];
    trng_rotation(&rng, R);
    /* coplanar: random points of a rotated plane */
    for (int i = 0; i < N; ++i) {
        double x[3] = {trng_range(&rng, -1, 1), trng_range(&rng, -1, 1), 0.0};
        tv_xform(p[i], R, t, x);
    }
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(h.dim, 2);
    ck_assert_ptr_nonnull(strstr(err, "coplanar"));
    ck_assert_ptr_null(h.verts);
    /* collinear */
    for (int i = 0; i < N; ++i) {
        double x[3] = {trng_range(&rng, -1, 1), 0.0, 0.0};
        tv_xform(p[i], R, t, x);
    }
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(h.dim, 1);
    ck_assert_ptr_nonnull(strstr(err, "collinear"));
    /* coincident, and a single point */
    for (int i = 0; i < N; ++i) memcpy(p[i], t, sizeof t);
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(h.dim, 0);
    ck_assert_ptr_nonnull(strstr(err, "coincide"));
    ck_assert_int_eq(dst_hull_build(&p[0][0], 1, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(h.dim, 0);
    /* three points are at most coplanar */
    p[1][0] += 1.0;
    p[2][1] += 1.0;
    ck_assert_int_eq(dst_hull_build(&p[0][0], 3, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(h.dim, 2);
    /* bad arguments */
    ck_assert_int_eq(dst_hull_build(NULL, 5, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_hull_build(&p[0][0], 0, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    p[3][2] = NAN;
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, &h, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "pts[3][2]"));
    ck_assert_int_eq(dst_hull_build(&p[0][0], N, 0.0, NULL, err, sizeof err), DST_INVALID_INPUT);
    dst_hull_destroy(NULL);
}
END_TEST

START_TEST(test_hull_minimal_tetrahedron)
{
    double p[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    DstHull h;
    ck_assert_int_eq(dst_hull_build(&p[0][0], 4, 0.0, &h, NULL, 0), DST_OK);
    check_hull(&h, &p[0][0], 4);
    ck_assert_int_eq(h.nverts, 4);
    ck_assert_int_eq(h.ntris, 4);
    dst_hull_destroy(&h);
}
END_TEST

START_TEST(test_hull_near_degenerate_noise)
{
    /* cube lattices and sphere points perturbed by noise near the hull tolerance (1e-12 ..
     * 1e-8 of the size): many nearly coplanar faces; the hull must stay closed and convex
     * and hold every point within tolerance, or fail with a status (never crash) */
    static const double noise[4] = {1e-13, 1e-11, 1e-10, 1e-8};
    TRng rng = trng_make(26);
    for (int k = 0; k < 4; ++k) {
        for (int rep = 0; rep < 3; ++rep) {
            enum { N = 6 * 6 * 6 + 100 };
            double p[N][3];
            int n = 0;
            DstHull h;
            char err[160];
            DstStatus st;
            for (int i = 0; i < 6; ++i) {
                for (int j = 0; j < 6; ++j) {
                    for (int l = 0; l < 6; ++l, ++n) {
                        p[n][0] = 0.2 * i + noise[k] * trng_range(&rng, -1, 1);
                        p[n][1] = 0.2 * j + noise[k] * trng_range(&rng, -1, 1);
                        p[n][2] = 0.2 * l + noise[k] * trng_range(&rng, -1, 1);
                    }
                }
            }
            for (int i = 0; i < 100; ++i, ++n) {
                double u[3], len;
                do {
                    trng_ball(&rng, u);
                    len = tv_norm(u);
                } while (len < 0.1);
                for (int c = 0; c < 3; ++c) {
                    p[n][c] = 0.5 + 0.5 * u[c] / len + noise[k] * trng_range(&rng, -1, 1);
                }
            }
            st = dst_hull_build(&p[0][0], n, 0.0, &h, err, sizeof err);
            ck_assert_msg(st == DST_OK, "noise %g: %s", noise[k], err);
            check_hull(&h, &p[0][0], n);
            dst_hull_destroy(&h);
        }
    }
}
END_TEST

Suite *dst_hull_suite(void)
{
    Suite *s = suite_create("dst_hull");
    TCase *tc;
    tc = tcase_create("random");
    tcase_add_test(tc, test_hull_random_clouds);
    tcase_add_test(tc, test_hull_sphere_points_all_extreme);
    tcase_add_test(tc, test_hull_minimal_tetrahedron);
    suite_add_tcase(s, tc);
    tc = tcase_create("degenerate");
    tcase_add_test(tc, test_hull_cube_with_coplanar_and_duplicate_points);
    tcase_add_test(tc, test_hull_thin_slab);
    tcase_add_test(tc, test_hull_near_degenerate_noise);
    tcase_add_test(tc, test_hull_degenerate_inputs);
    suite_add_tcase(s, tc);
    return s;
}
