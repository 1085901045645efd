/* check_dst_gjk.c — tests of distance/dst_gjk.c: the signed-volume sub-simplex solver on
 * awkward simplices, GJK distances against analytic and brute-force references, the cases
 * peers get wrong (touching, kissing, stacked, nearly parallel, thin, large, degenerate),
 * the warm-start cache, statuses and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "convex_testutil.h"
#include "dst_convex.h"
#include "dst_convex_internal.h"

/* distances of O(1) shapes agree with references to this (metres, relative to scale) */
#define DIST_TOL 1e-9
/* the two segment-segment references agree to this (ternary search resolution) */
#define SEGREF_TOL 1e-12
/* barycentric weights of the simplex solver: sum to 1 within rounding */
#define LAMBDA_TOL 1e-12
/* rounding of a translation 1 + gap (metres) */
#define GAP_ROUND_TOL 1e-15
/* curved cores (ellipsoids) converge to the GJK default tolerance, relative */
#define CURVED_TOL 1e-7

static void check_witness(const DstGjkResult *r)
{
    /* point_a - point_b = distance * normal, unit normal, all finite */
    double d[3];
    ck_assert(isfinite(r->distance) && isfinite(r->lower));
    tv_sub(d, r->point_a, r->point_b);
    for (int i = 0; i < 3; ++i) {
        ck_assert(isfinite(r->point_a[i]) && isfinite(r->point_b[i]) && isfinite(r->normal[i]));
        ck_assert_double_eq_tol(d[i], r->distance * r->normal[i], DIST_TOL * (1.0 + r->scale));
    }
    ck_assert_double_eq_tol(tv_norm(r->normal), 1.0, LAMBDA_TOL);
    ck_assert(r->lower <= r->distance + DIST_TOL * (1.0 + r->scale));
}

static DstGjkResult run_gjk(const DstConvex *a, const DstConvex *b, DstGjkCache *cache)
{
    DstGjkResult r;
    char err[200] = "";
    DstStatus st = dst_gjk_distance(a, b, NULL, cache, &r, err, sizeof err);
    ck_assert_msg(st != DST_INVALID_INPUT && st != DST_FAILED && st != DST_ITER_LIMIT,
                  "gjk status %s: %s", dst_status_string(st), err);
    return r;
}

/* ---------------------------------------------------------------- simplex solver */

static void set_w(DstSimplexVertex *s, int i, double x, double y, double z)
{
    memset(&s[i], 0, sizeof s[i]);
    s[i].w[0] = x;
    s[i].w[1] = y;
    s[i].w[2] = z;
    s[i].id_a = s[i].id_b = -1;
}

START_TEST(test_simplex_random_vs_reference)
{
    TRng rng = trng_make(31);
    static const double zero[3] = {0, 0, 0};
    for (int it = 0; it < 4000; ++it) {
        int n = 1 + it % 4;
        DstSimplexVertex s[4];
        double lam[4], v[3], sum = 0.0, ref, chk[3] = {0, 0, 0};
        int inside;
        for (int i = 0; i < n; ++i) {
            double p[3];
            trng_ball(&rng, p);
            set_w(s, i, p[0] + 0.3, p[1], p[2]);
        }
        inside = dst_gjk_closest_on_simplex(s, n, lam, v);
        for (int i = 0; i < n; ++i) {
            ck_assert(lam[i] >= 0.0);
            sum += lam[i];
            for (int k = 0; k < 3; ++k) chk[k] += lam[i] * s[i].w[k];
        }
        ck_assert_double_eq_tol(sum, 1.0, LAMBDA_TOL);
        ck_assert_double_eq_tol(tv_dist(chk, v), 0.0, LAMBDA_TOL);
        switch (n) {
        case 1: ref = tv_norm(s[0].w); break;
        case 2: ref = tref_point_segment(zero, s[0].w, s[1].w); break;
        case 3: ref = tref_point_triangle(zero, s[0].w, s[1].w, s[2].w); break;
        default: {
            /* outside: nearest face; inside: the same-side test on all four faces */
            static const int f[4][4] = {{1, 2, 3, 0}, {0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};
            int in = 1;
            ref = HUGE_VAL;
            for (int q = 0; q < 4; ++q) {
                double e1[3], e2[3], nn[3], o[3];
                ref =
                    fmin(ref, tref_point_triangle(zero, s[f[q][0]].w, s[f[q][1]].w, s[f[q][2]].w));
                tv_sub(e1, s[f[q][1]].w, s[f[q][0]].w);
                tv_sub(e2, s[f[q][2]].w, s[f[q][0]].w);
                tv_cross(nn, e1, e2);
                tv_sub(o, s[f[q][3]].w, s[f[q][0]].w);
                if (tv_dot(nn, o) * -tv_dot(nn, s[f[q][0]].w) < 0.0) in = 0;
            }
            if (in) ref = 0.0;
            ck_assert_int_eq(inside, in);
        }
        }
        ck_assert_double_eq_tol(tv_norm(v), ref, DIST_TOL);
    }
}
END_TEST

START_TEST(test_simplex_origin_on_face_edge_vertex)
{
    DstSimplexVertex s[4];
    double lam[4], v[3];
    /* tetrahedron whose face (0,1,2) contains the origin: inside, weight 0 on vertex 3 */
    set_w(s, 0, -1, -1, 0);
    set_w(s, 1, 2, -1, 0);
    set_w(s, 2, -1, 2, 0);
    set_w(s, 3, 0, 0, 1);
    ck_assert_int_eq(dst_gjk_closest_on_simplex(s, 4, lam, v), 1);
    ck_assert_double_eq_tol(tv_norm(v), 0.0, LAMBDA_TOL);
    ck_assert_double_eq_tol(lam[3], 0.0, LAMBDA_TOL);
    /* the same face as a triangle: distance 0, all three weights */
    dst_gjk_closest_on_simplex(s, 3, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), 0.0, LAMBDA_TOL);
    /* origin on an edge of a triangle, and on a segment */
    set_w(s, 0, -1, 0, 0);
    set_w(s, 1, 1, 0, 0);
    set_w(s, 2, 0, 1, 0);
    dst_gjk_closest_on_simplex(s, 3, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), 0.0, LAMBDA_TOL);
    dst_gjk_closest_on_simplex(s, 2, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), 0.0, LAMBDA_TOL);
    ck_assert_double_eq_tol(lam[0], 0.5, LAMBDA_TOL);
    /* origin at a vertex of a tetrahedron */
    set_w(s, 0, 0, 0, 0);
    set_w(s, 1, 1, 0, 0);
    set_w(s, 2, 0, 1, 0);
    set_w(s, 3, 0, 0, 1);
    dst_gjk_closest_on_simplex(s, 4, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), 0.0, LAMBDA_TOL);
}
END_TEST

START_TEST(test_simplex_degenerate)
{
    DstSimplexVertex s[4];
    double lam[4], v[3];
    static const double zero[3] = {0, 0, 0};
    /* collinear triangle beside the origin: the closest point of the long edge */
    set_w(s, 0, 1, -1, 0.5);
    set_w(s, 1, 1, 3, 0.5);
    set_w(s, 2, 1, 1, 0.5);
    dst_gjk_closest_on_simplex(s, 3, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), sqrt(1.25), DIST_TOL);
    /* flat tetrahedron (four coplanar points, origin above the plane): closest point of
     * the quadrilateral */
    set_w(s, 0, -1, -1, 0.25);
    set_w(s, 1, 1, -1, 0.25);
    set_w(s, 2, 1, 1, 0.25);
    set_w(s, 3, -1, 1, 0.25);
    ck_assert_int_eq(dst_gjk_closest_on_simplex(s, 4, lam, v), 0);
    ck_assert_double_eq_tol(tv_norm(v), 0.25, DIST_TOL);
    /* flat tetrahedron with the origin in its plane, outside it */
    set_w(s, 0, 1, 1, 0);
    set_w(s, 1, 2, 1, 0);
    set_w(s, 2, 2, 2, 0);
    set_w(s, 3, 1, 2, 0);
    dst_gjk_closest_on_simplex(s, 4, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), sqrt(2.0), DIST_TOL);
    /* repeated vertices */
    set_w(s, 0, 1, 0, 0);
    set_w(s, 1, 1, 0, 0);
    set_w(s, 2, 1, 0, 0);
    set_w(s, 3, 0, 1, 0);
    dst_gjk_closest_on_simplex(s, 4, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), tref_point_segment(zero, s[0].w, s[3].w), DIST_TOL);
    /* sliver triangle far from the origin (needle of length 1e-9 at distance 1e3) */
    set_w(s, 0, 1e3, 0, 0);
    set_w(s, 1, 1e3, 1e-9, 0);
    set_w(s, 2, 1e3, 0, 1);
    dst_gjk_closest_on_simplex(s, 3, lam, v);
    ck_assert_double_eq_tol(tv_norm(v), tref_point_triangle(zero, s[0].w, s[1].w, s[2].w),
                            DIST_TOL * 1e3);
}
END_TEST

/* ---------------------------------------------------------------- analytic references */

START_TEST(test_segment_references_agree)
{
    /* the closed-form segment-segment reference against the ternary search, including
     * parallel, collinear and zero-length segments */
    TRng rng = trng_make(32);
    for (int it = 0; it < 2000; ++it) {
        double p1[3], q1[3], p2[3], q2[3];
        trng_ball(&rng, p1);
        trng_ball(&rng, q1);
        trng_ball(&rng, p2);
        trng_ball(&rng, q2);
        if (it % 4 == 1) {
            /* parallel */
            double off[3];
            trng_ball(&rng, off);
            for (int i = 0; i < 3; ++i) {
                p2[i] = p1[i] + off[i];
                q2[i] = p1[i] + off[i] + 0.7 * (q1[i] - p1[i]);
            }
        } else if (it % 4 == 2) {
            /* collinear */
            for (int i = 0; i < 3; ++i) {
                p2[i] = p1[i] + 1.3 * (q1[i] - p1[i]);
                q2[i] = p1[i] + 2.1 * (q1[i] - p1[i]);
            }
        } else if (it % 4 == 3) {
            memcpy(q2, p2, sizeof p2);
        }
        ck_assert_double_eq_tol(tref_segment_segment(p1, q1, p2, q2),
                                tref_segment_segment_search(p1, q1, p2, q2), SEGREF_TOL);
    }
}
END_TEST

START_TEST(test_sphere_sphere_analytic)
{
    TRng rng = trng_make(33);
    for (int it = 0; it < 1000; ++it) {
        double c1[3], c2[3], r1 = trng_range(&rng, 0.01, 1), r2 = trng_range(&rng, 0.01, 1);
        DstConvex a = dst_convex_sphere(r1), b = dst_convex_sphere(r2);
        DstGjkResult r;
        double want, R[9];
        trng_ball(&rng, c1);
        trng_ball(&rng, c2);
        for (int i = 0; i < 3; ++i) c2[i] *= 3.0;
        trng_rotation(&rng, R);
        dst_convex_set_pose(&a, R, c1);
        dst_convex_set_pose(&b, NULL, c2);
        want = tv_dist(c1, c2) - r1 - r2;
        r = run_gjk(&a, &b, NULL);
        ck_assert_int_eq(r.cores_overlap, 0);
        ck_assert_double_eq_tol(r.distance, want, DIST_TOL);
        check_witness(&r);
        /* witnesses on the spheres' surfaces */
        ck_assert_double_eq_tol(tv_dist(r.point_a, c1), r1, DIST_TOL);
        ck_assert_double_eq_tol(tv_dist(r.point_b, c2), r2, DIST_TOL);
        ck_assert_int_eq(r.status, want > 0 ? DST_SEPARATED : DST_PENETRATING);
    }
}
END_TEST

START_TEST(test_capsule_capsule_analytic)
{
    TRng rng = trng_make(34);
    for (int it = 0; it < 1000; ++it) {
        double R1[9], R2[9], t1[3], t2[3], h1 = trng_range(&rng, 0, 1), h2 = trng_range(&rng, 0, 1);
        double r1 = trng_range(&rng, 0.01, 0.3), r2 = trng_range(&rng, 0.01, 0.3);
        double e[4][3], lz1[2][3] = {{0, 0, -h1}, {0, 0, h1}},
                        lz2[2][3] = {{0, 0, -h2}, {0, 0, h2}};
        DstConvex a = dst_convex_capsule(r1, h1), b = dst_convex_capsule(r2, h2);
        DstGjkResult r;
        double seg;
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        if (it % 5 == 0) memcpy(R2, R1, sizeof R1); /* parallel axes */
        trng_ball(&rng, t1);
        trng_ball(&rng, t2);
        for (int i = 0; i < 3; ++i) t2[i] *= 2.0;
        dst_convex_set_pose(&a, R1, t1);
        dst_convex_set_pose(&b, R2, t2);
        tv_xform(e[0], R1, t1, lz1[0]);
        tv_xform(e[1], R1, t1, lz1[1]);
        tv_xform(e[2], R2, t2, lz2[0]);
        tv_xform(e[3], R2, t2, lz2[1]);
        seg = tref_segment_segment(e[0], e[1], e[2], e[3]);
        if (seg < 1e-6) continue; /* crossing cores: EPA's case (check_dst_epa) */
        r = run_gjk(&a, &b, NULL);
        ck_assert_double_eq_tol(r.core_distance, seg, DIST_TOL);
        ck_assert_double_eq_tol(r.distance, seg - r1 - r2, DIST_TOL);
        check_witness(&r);
    }
}
END_TEST

START_TEST(test_ellipsoid_as_sphere)
{
    /* an ellipsoid with equal semi-axes is a sphere: curved core, GJK converges to tol */
    TRng rng = trng_make(35);
    for (int it = 0; it < 200; ++it) {
        double c1[3], c2[3], R[9], r1 = trng_range(&rng, 0.1, 1), r2 = trng_range(&rng, 0.1, 1);
        DstConvex a = dst_convex_ellipsoid(r1, r1, r1), b = dst_convex_sphere(r2);
        DstGjkResult r;
        double want;
        trng_ball(&rng, c1);
        trng_ball(&rng, c2);
        for (int i = 0; i < 3; ++i) c2[i] = 2.5 * c2[i] + (c2[i] >= 0 ? 2.0 : -2.0);
        trng_rotation(&rng, R);
        dst_convex_set_pose(&a, R, c1);
        dst_convex_set_pose(&b, NULL, c2);
        want = tv_dist(c1, c2) - r1 - r2;
        r = run_gjk(&a, &b, NULL);
        ck_assert_double_eq_tol(r.distance, want, CURVED_TOL * (1.0 + fabs(want)));
        ck_assert(r.lower <= want + DIST_TOL);
        check_witness(&r);
    }
}
END_TEST

/* ---------------------------------------------------------------- polytopes */

START_TEST(test_box_box_vs_brute_force)
{
    TRng rng = trng_make(36);
    int checked = 0;
    for (int it = 0; it < 600; ++it) {
        double h1[3], h2[3], R1[9], R2[9], t1[3], t2[3], ref;
        TPoly P, Q;
        DstConvex a, b;
        DstGjkResult r;
        for (int i = 0; i < 3; ++i) {
            h1[i] = trng_range(&rng, 0.05, 1);
            h2[i] = trng_range(&rng, 0.05, 1);
        }
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t1);
        trng_ball(&rng, t2);
        for (int i = 0; i < 3; ++i) t2[i] = 3.0 * t2[i];
        tref_box_poly(&P, h1, R1, t1);
        tref_box_poly(&Q, h2, R2, t2);
        if (tref_sat_depth(&P, &Q) > -1e-6) continue; /* overlapping or nearly: EPA's case */
        a = dst_convex_box(h1[0], h1[1], h1[2]);
        b = dst_convex_box(h2[0], h2[1], h2[2]);
        dst_convex_set_pose(&a, R1, t1);
        dst_convex_set_pose(&b, R2, t2);
        ref = tref_poly_distance(&P, &Q);
        r = run_gjk(&a, &b, NULL);
        ck_assert_int_eq(r.status, DST_SEPARATED);
        ck_assert_double_eq_tol(r.distance, ref, DIST_TOL);
        check_witness(&r);
        ++checked;
    }
    ck_assert_int_gt(checked, 200);
}
END_TEST

START_TEST(test_hull_hull_vs_brute_force)
{
    TRng rng = trng_make(37);
    int checked = 0;
    for (int it = 0; it < 120; ++it) {
        DstHull ha, hb;
        double R1[9], R2[9], t1[3] = {0, 0, 0}, t2[3], ref;
        TPoly P, Q;
        DstConvex a, b;
        DstGjkResult r, rs;
        random_hull(&rng, 12 + it % 20, 1.0, &ha);
        random_hull(&rng, 12 + (it * 7) % 20, 0.8, &hb);
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t2);
        for (int i = 0; i < 3; ++i) t2[i] *= 3.0;
        hull_poly(&P, &ha, R1, t1);
        hull_poly(&Q, &hb, R2, t2);
        if (tref_sat_depth(&P, &Q) < -1e-6) {
            a = dst_hull_convex(&ha);
            b = dst_hull_convex(&hb);
            dst_convex_set_pose(&a, R1, t1);
            dst_convex_set_pose(&b, R2, t2);
            ref = tref_poly_distance(&P, &Q);
            r = run_gjk(&a, &b, NULL);
            ck_assert_double_eq_tol(r.distance, ref, DIST_TOL);
            check_witness(&r);
            /* brute-force supports (no adjacency) give the same distance */
            a.adj = b.adj = NULL;
            a.dir_table = b.dir_table = NULL;
            a.adj_start = b.adj_start = NULL;
            rs = run_gjk(&a, &b, NULL);
            ck_assert_double_eq_tol(rs.distance, ref, DIST_TOL);
            ++checked;
        }
        dst_hull_destroy(&ha);
        dst_hull_destroy(&hb);
    }
    ck_assert_int_gt(checked, 30);
}
END_TEST

/* ---------------------------------------------------------------- awkward cases */

/* the full signed distance (GJK, then EPA if the cores overlap) of two posed boxes */
static DstConvexDistance boxes(const double h1[3], const double R1[9], const double t1[3],
                               const double h2[3], const double R2[9], const double t2[3])
{
    DstConvex a = dst_convex_box(h1[0], h1[1], h1[2]), b = dst_convex_box(h2[0], h2[1], h2[2]);
    DstConvexDistance r;
    char err[200] = "";
    DstStatus st;
    dst_convex_set_pose(&a, R1, t1);
    dst_convex_set_pose(&b, R2, t2);
    st = dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, err, sizeof err);
    ck_assert_msg(st == DST_SEPARATED || st == DST_TOUCHING || st == DST_PENETRATING,
                  "status %s: %s", dst_status_string(st), err);
    return r;
}

/* point_a - point_b = distance * normal, unit normal, bracket around the value */
static void check_full(const DstConvexDistance *r, double scale)
{
    double d[3];
    tv_sub(d, r->point_a, r->point_b);
    for (int i = 0; i < 3; ++i) {
        ck_assert(isfinite(r->point_a[i]) && isfinite(r->point_b[i]));
        ck_assert_double_eq_tol(d[i], r->distance * r->normal[i], DIST_TOL * scale);
    }
    ck_assert_double_eq_tol(tv_norm(r->normal), 1.0, LAMBDA_TOL);
    ck_assert(r->lower <= r->distance + DIST_TOL * scale);
    ck_assert(r->upper >= r->distance - DIST_TOL * scale);
}

START_TEST(test_touching_and_kissing_boxes)
{
    static const double h[3] = {0.5, 0.5, 0.5}, o[3] = {0, 0, 0};
    double t[3] = {1.0, 0.0, 0.0}, R[9], u[3];
    DstConvexDistance r;
    /* face to face, exactly touching */
    r = boxes(h, NULL, o, h, NULL, t);
    ck_assert(r.status == DST_TOUCHING);
    ck_assert_double_eq_tol(r.distance, 0.0, DIST_TOL);
    ck_assert(isfinite(r.point_a[0] + r.point_b[0] + r.normal[0]));
    /* offset face to face (partial overlap of the faces) */
    t[1] = 0.7;
    t[2] = -0.3;
    r = boxes(h, NULL, o, h, NULL, t);
    ck_assert(r.status == DST_TOUCHING);
    /* edge to edge: B rotated 45 degrees about x, its edge touching A's top face edge */
    u[0] = 1;
    u[1] = u[2] = 0;
    tv_axis_angle(R, u, T_PI / 4);
    t[0] = 0.0;
    t[1] = 0.0;
    t[2] = 0.5 + 0.5 * sqrt(2.0);
    r = boxes(h, NULL, o, h, R, t);
    ck_assert(r.status == DST_TOUCHING);
    ck_assert_double_eq_tol(r.distance, 0.0, DIST_TOL);
    /* crossed edges: rotate about z as well */
    {
        double Rz[9], Rx[9], RR[9];
        double z[3] = {0, 0, 1}, x[3] = {1, 0, 0};
        tv_axis_angle(Rz, z, T_PI / 4);
        tv_axis_angle(Rx, x, T_PI / 4);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                RR[3 * i + j] = 0;
                for (int k = 0; k < 3; ++k) RR[3 * i + j] += Rz[3 * i + k] * Rx[3 * k + j];
            }
        }
        r = boxes(h, NULL, o, h, RR, t);
        ck_assert(r.status == DST_TOUCHING);
        ck_assert_double_eq_tol(r.distance, 0.0, DIST_TOL);
    }
    /* vertex to vertex along the diagonal */
    t[0] = t[1] = t[2] = 1.0;
    r = boxes(h, NULL, o, h, NULL, t);
    ck_assert(r.status == DST_TOUCHING);
}
END_TEST

START_TEST(test_stacked_cubes_aligned_faces)
{
    static const double h[3] = {0.5, 0.5, 0.5}, o[3] = {0, 0, 0};
    static const double gaps[5] = {1e-12, 1e-9, 1e-6, 1e-3, 0.5};
    for (int g = 0; g < 5; ++g) {
        for (int shift = 0; shift < 3; ++shift) {
            double t[3] = {0.1 * shift, -0.05 * shift, 1.0 + gaps[g]};
            DstConvexDistance r = boxes(h, NULL, o, h, NULL, t);
            ck_assert_double_eq_tol(r.distance, gaps[g], DIST_TOL * gaps[g] + GAP_ROUND_TOL);
            ck_assert_double_eq_tol(r.normal[2], -1.0, LAMBDA_TOL);
            /* unit cubes have scale >= 1: gaps up to DST_CONVEX_TOUCH_REL are touching */
            ck_assert(r.status == (gaps[g] > DST_CONVEX_TOUCH_REL ? DST_SEPARATED : DST_TOUCHING));
            check_full(&r, 1.0);
        }
    }
}
END_TEST

START_TEST(test_nearly_parallel_faces)
{
    static const double h[3] = {0.5, 0.5, 0.5}, o[3] = {0, 0, 0}, ax[3] = {0.6, 0.8, 0};
    static const double angles[4] = {1e-12, 1e-9, 1e-7, 1e-4};
    for (int k = 0; k < 4; ++k) {
        double R[9], t[3] = {0.01, 0.02, 1.0 + 1e-4}, eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        TPoly P, Q;
        DstConvexDistance r;
        tv_axis_angle(R, ax, angles[k]);
        tref_box_poly(&P, h, eye, o);
        tref_box_poly(&Q, h, R, t);
        r = boxes(h, NULL, o, h, R, t);
        ck_assert_double_eq_tol(r.distance, tref_poly_distance(&P, &Q), DIST_TOL);
        check_full(&r, 1.0);
    }
}
END_TEST

START_TEST(test_thin_and_large_shapes)
{
    static const double scales[5] = {1e-3, 1e-2, 1.0, 1e2, 1e3};
    TRng rng = trng_make(38);
    for (int s = 0; s < 5; ++s) {
        for (int it = 0; it < 60; ++it) {
            double sc = scales[s];
            /* a plate 1000 times thinner than wide, and a rod */
            double h1[3] = {sc, sc, 1e-3 * sc}, h2[3] = {1e-3 * sc, 1e-3 * sc, sc};
            double R1[9], R2[9], t1[3], t2[3], ref;
            TPoly P, Q;
            DstConvexDistance r;
            trng_rotation(&rng, R1);
            trng_rotation(&rng, R2);
            trng_ball(&rng, t1);
            trng_ball(&rng, t2);
            for (int i = 0; i < 3; ++i) {
                t1[i] *= sc;
                t2[i] = sc * (3.0 * t2[i] + 2.5);
            }
            tref_box_poly(&P, h1, R1, t1);
            tref_box_poly(&Q, h2, R2, t2);
            if (tref_sat_depth(&P, &Q) > -1e-6 * sc) continue;
            ref = tref_poly_distance(&P, &Q);
            r = boxes(h1, R1, t1, h2, R2, t2);
            ck_assert_msg(fabs(r.distance - ref) <= DIST_TOL * sc, "scale %g: %.17g vs %.17g", sc,
                          r.distance, ref);
            check_full(&r, sc);
        }
    }
}
END_TEST

START_TEST(test_degenerate_point_clouds)
{
    /* collinear, coplanar, duplicated and single-point clouds against a box */
    static const double coll[4][3] = {{0, 0, 0}, {1, 0, 0}, {0.5, 0, 0}, {0.25, 0, 0}};
    static const double copl[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 0}};
    static const double dup[4][3] = {
        {0.2, 0.1, 0.3}, {0.2, 0.1, 0.3}, {0.2, 0.1, 0.3}, {0.2, 0.1, 0.3}};
    static const double h[3] = {0.5, 0.5, 0.5};
    const double *clouds[3] = {&coll[0][0], &copl[0][0], &dup[0][0]};
    int counts[3] = {4, 5, 4};
    TRng rng = trng_make(39);
    for (int c = 0; c < 3; ++c) {
        for (int it = 0; it < 100; ++it) {
            double R[9], t[3], R2[9], t2[3] = {0, 0, 0}, ref = HUGE_VAL;
            DstConvex a = dst_convex_points(clouds[c], counts[c], NULL, NULL);
            DstConvex b = dst_convex_box(h[0], h[1], h[2]);
            TPoly Q;
            DstGjkResult r;
            trng_rotation(&rng, R);
            trng_rotation(&rng, R2);
            trng_ball(&rng, t);
            for (int i = 0; i < 3; ++i) t[i] = 2.5 * t[i] + (t[i] > 0 ? 1.2 : -1.2);
            dst_convex_set_pose(&a, R, t);
            dst_convex_set_pose(&b, R2, t2);
            tref_box_poly(&Q, h, R2, t2);
            /* the cloud's hull is a segment / polygon / point: distance = min over its
             * segments (all pairs) to the box faces and edges */
            for (int i = 0; i < counts[c]; ++i) {
                for (int j = 0; j < counts[c]; ++j) {
                    double p[3], q[3];
                    TPoly S;
                    tv_xform(p, R, t, clouds[c] + 3 * i);
                    tv_xform(q, R, t, clouds[c] + 3 * j);
                    S.nv = 2;
                    S.nt = 1;
                    memcpy(S.v[0], p, sizeof p);
                    memcpy(S.v[1], q, sizeof q);
                    memcpy(S.v[2], q, sizeof q);
                    S.t[0][0] = 0;
                    S.t[0][1] = 1;
                    S.t[0][2] = 2;
                    S.nv = 3;
                    ref = fmin(ref, tref_poly_distance(&S, &Q));
                }
            }
            if (c == 1) {
                /* the square's interior: its two triangles */
                TPoly S;
                S.nv = 4;
                S.nt = 2;
                for (int i = 0; i < 4; ++i) tv_xform(S.v[i], R, t, copl[i]);
                S.t[0][0] = 0;
                S.t[0][1] = 1;
                S.t[0][2] = 3;
                S.t[1][0] = 0;
                S.t[1][1] = 3;
                S.t[1][2] = 2;
                ref = fmin(ref, tref_poly_distance(&S, &Q));
            }
            if (ref < 1e-6) continue;
            r = run_gjk(&a, &b, NULL);
            ck_assert_double_eq_tol(r.distance, ref, DIST_TOL);
            check_witness(&r);
        }
    }
}
END_TEST

/* ---------------------------------------------------------------- cache, status, input */

START_TEST(test_warm_start_cache)
{
    /* a coherent motion: with the cache, the same distances and fewer iterations */
    TRng rng = trng_make(40);
    DstHull ha, hb;
    DstGjkCache cache;
    int it_cold = 0, it_warm = 0;
    random_hull(&rng, 150, 1.0, &ha);
    random_hull(&rng, 150, 1.0, &hb);
    dst_gjk_cache_reset(&cache);
    for (int k = 0; k < 200; ++k) {
        double R[9], ax[3] = {0, 0.6, 0.8},
                     t[3] = {2.5 + 0.3 * sin(0.05 * k), 0.2, 0.1 * k / 200.0};
        DstConvex a = dst_hull_convex(&ha), b = dst_hull_convex(&hb);
        DstGjkResult rc, rw;
        tv_axis_angle(R, ax, 0.01 * k);
        dst_convex_set_pose(&b, R, t);
        rc = run_gjk(&a, &b, NULL);
        rw = run_gjk(&a, &b, &cache);
        ck_assert_double_eq_tol(rc.distance, rw.distance, DIST_TOL);
        check_witness(&rw);
        it_cold += rc.iterations;
        it_warm += rw.iterations;
    }
    ck_assert_int_lt(it_warm, it_cold);
    /* a stale cache of another pair's ids (out of range) falls back to a cold start */
    cache.count = 3;
    cache.id_a[0] = cache.id_a[1] = cache.id_a[2] = 100000;
    {
        DstConvex a = dst_hull_convex(&ha), b = dst_hull_convex(&hb);
        double t[3] = {3, 0, 0};
        DstGjkResult rc, rw;
        dst_convex_set_pose(&b, NULL, t);
        rc = run_gjk(&a, &b, NULL);
        rw = run_gjk(&a, &b, &cache);
        ck_assert_double_eq_tol(rc.distance, rw.distance, DIST_TOL);
    }
    dst_hull_destroy(&ha);
    dst_hull_destroy(&hb);
}
END_TEST

START_TEST(test_warm_start_through_contact)
{
    /* the cache carried through separation, touching and overlap gives the cold answers */
    TRng rng = trng_make(41);
    DstHull ha, hb;
    DstGjkCache cache;
    random_hull(&rng, 80, 0.5, &ha);
    random_hull(&rng, 80, 0.5, &hb);
    dst_gjk_cache_reset(&cache);
    for (int k = 0; k <= 400; ++k) {
        double R[9], ax[3] = {0.48, 0.6, 0.64}, t[3] = {1.5 - 0.006 * k, 0.1, -0.05};
        DstConvex a = dst_hull_convex(&ha), b = dst_hull_convex(&hb);
        DstConvexDistance rc, rw;
        tv_axis_angle(R, ax, 0.004 * k);
        dst_convex_set_pose(&b, R, t);
        ck_assert_int_ne(dst_convex_distance(&a, &b, NULL, NULL, NULL, &rc, NULL, 0), DST_FAILED);
        ck_assert_int_ne(dst_convex_distance(&a, &b, NULL, NULL, &cache, &rw, NULL, 0),
                         DST_FAILED);
        ck_assert_msg(fabs(rc.distance - rw.distance) <= DIST_TOL, "step %d: %.17g vs %.17g", k,
                      rc.distance, rw.distance);
        check_full(&rw, 1.0);
    }
    dst_hull_destroy(&ha);
    dst_hull_destroy(&hb);
}
END_TEST

START_TEST(test_iteration_limit_and_overlap_status)
{
    DstConvex a = dst_convex_ellipsoid(1, 0.5, 0.2), b = dst_convex_ellipsoid(0.3, 1, 0.4);
    double t[3] = {1.5, 0.7, 0.3};
    DstGjkOptions o = dst_gjk_options_default();
    DstGjkResult r;
    o.max_iter = 2;
    dst_convex_set_pose(&b, NULL, t);
    ck_assert_int_eq(dst_gjk_distance(&a, &b, &o, NULL, &r, NULL, 0), DST_ITER_LIMIT);
    ck_assert(isfinite(r.distance) && isfinite(r.lower));
    ck_assert(r.lower <= r.distance);
    /* overlapping cores: flagged, distance is minus the margins */
    {
        DstConvex c = dst_convex_capsule(0.1, 1.0), d = dst_convex_box(0.2, 0.2, 0.2);
        ck_assert_int_eq(dst_gjk_distance(&c, &d, NULL, NULL, &r, NULL, 0), DST_PENETRATING);
        ck_assert_int_eq(r.cores_overlap, 1);
        ck_assert_double_eq_tol(r.distance, -0.1, LAMBDA_TOL);
    }
}
END_TEST

static int nan_support(const void *user, const double dir[3], int hint, double out[3])
{
    (void)user;
    (void)dir;
    (void)hint;
    out[0] = out[1] = out[2] = NAN;
    return -1;
}

START_TEST(test_bad_input)
{
    DstConvex a = dst_convex_sphere(0.5), b = dst_convex_box(1, 1, 1);
    DstGjkResult r;
    DstGjkOptions o = dst_gjk_options_default();
    char err[200];
    double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, NAN};
    dst_convex_set_pose(&b, R, NULL);
    ck_assert_int_eq(dst_gjk_distance(&a, &b, NULL, NULL, &r, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "b.pose"));
    ck_assert_int_eq(r.status, DST_INVALID_INPUT);
    dst_convex_set_pose(&b, NULL, NULL);
    ck_assert_int_eq(dst_gjk_distance(NULL, &b, NULL, NULL, &r, err, sizeof err),
                     DST_INVALID_INPUT);
    ck_assert_int_eq(dst_gjk_distance(&a, &b, NULL, NULL, NULL, err, sizeof err),
                     DST_INVALID_INPUT);
    o.max_iter = 0;
    ck_assert_int_eq(dst_gjk_distance(&a, &b, &o, NULL, &r, err, sizeof err), DST_INVALID_INPUT);
    o = dst_gjk_options_default();
    o.rel_tol = NAN;
    ck_assert_int_eq(dst_gjk_distance(&a, &b, &o, NULL, &r, err, sizeof err), DST_INVALID_INPUT);
    {
        DstConvex c = dst_convex_custom(nan_support, NULL);
        ck_assert_int_eq(dst_gjk_distance(&c, &b, NULL, NULL, &r, err, sizeof err), DST_FAILED);
        ck_assert_ptr_nonnull(strstr(err, "finite"));
    }
}
END_TEST

Suite *dst_gjk_suite(void)
{
    Suite *s = suite_create("dst_gjk");
    TCase *tc;
    tc = tcase_create("simplex");
    tcase_add_test(tc, test_simplex_random_vs_reference);
    tcase_add_test(tc, test_simplex_origin_on_face_edge_vertex);
    tcase_add_test(tc, test_simplex_degenerate);
    suite_add_tcase(s, tc);
    tc = tcase_create("analytic");
    tcase_add_test(tc, test_segment_references_agree);
    tcase_add_test(tc, test_sphere_sphere_analytic);
    tcase_add_test(tc, test_capsule_capsule_analytic);
    tcase_add_test(tc, test_ellipsoid_as_sphere);
    suite_add_tcase(s, tc);
    tc = tcase_create("polytope");
    tcase_add_test(tc, test_box_box_vs_brute_force);
    tcase_add_test(tc, test_hull_hull_vs_brute_force);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("robust");
    tcase_add_test(tc, test_touching_and_kissing_boxes);
    tcase_add_test(tc, test_stacked_cubes_aligned_faces);
    tcase_add_test(tc, test_nearly_parallel_faces);
    tcase_add_test(tc, test_thin_and_large_shapes);
    tcase_add_test(tc, test_degenerate_point_clouds);
    suite_add_tcase(s, tc);
    tc = tcase_create("cache_status");
    tcase_add_test(tc, test_warm_start_cache);
    tcase_add_test(tc, test_warm_start_through_contact);
    tcase_add_test(tc, test_iteration_limit_and_overlap_status);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
