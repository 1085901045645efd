/* check_dst_epa.c — tests of distance/dst_epa.c: penetration depth against analytic depths
 * (spheres, capsules, boxes) and separating-axis references (random boxes and hulls), deep
 * penetration of identical shapes, flat Minkowski differences, continuity of the signed
 * distance through contact, statuses and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "convex_testutil.h"
#include "dst_convex.h"

/* depths of O(1) polytopes agree with the references to this (metres) */
#define DEPTH_TOL 1e-9
/* hulls of 1e-9-noisy lattices: the difference's nearly coplanar faces */
#define NOISY_DEPTH_TOL 1e-8
/* curved cores (ellipsoids): EPA's polytope approximation at the default caps */
#define CURVED_DEPTH_TOL 1e-4
/* crossing capsules: the normal lies along the axes' common perpendicular (cosine) */
#define NORMAL_DIR_TOL 1e-9
/* unit normal within rounding */
#define UNIT_TOL 1e-12
/* continuity sweep: |d(x + dx) - d(x)| <= |dx| (1-Lipschitz under translation) + slack */
#define LIPSCHITZ_SLACK 1e-9

/* signed distance with default options; an iteration-limit status is accepted only for
 * curved cores and only with a bracket narrower than CURVED_DEPTH_TOL */
static DstConvexDistance signed_distance_ex(const DstConvex *a, const DstConvex *b, int curved)
{
    DstConvexDistance r;
    char err[200] = "";
    DstStatus st = dst_convex_distance(a, b, NULL, NULL, NULL, &r, err, sizeof err);
    if (curved && st == DST_ITER_LIMIT) {
        ck_assert(r.upper - r.lower <= CURVED_DEPTH_TOL);
        return r;
    }
    ck_assert_msg(st == DST_SEPARATED || st == DST_TOUCHING || st == DST_PENETRATING,
                  "status %s: %s", dst_status_string(st), err);
    return r;
}

static DstConvexDistance signed_distance(const DstConvex *a, const DstConvex *b)
{
    return signed_distance_ex(a, b, 0);
}

/* point_a - point_b = distance * normal; unit normal; finite; bracket holds the value */
static void check_result(const DstConvexDistance *r, double tol)
{
    double d[3];
    tv_sub(d, r->point_a, r->point_b);
    for (int i = 0; i < 3; ++i) {
        ck_assert(isfinite(r->point_a[i]) && isfinite(r->point_b[i]) && isfinite(r->normal[i]));
        ck_assert_double_eq_tol(d[i], r->distance * r->normal[i], tol);
    }
    ck_assert_double_eq_tol(tv_norm(r->normal), 1.0, UNIT_TOL);
    ck_assert(r->lower <= r->distance + tol && r->distance <= r->upper + tol);
}

START_TEST(test_sphere_sphere_depth)
{
    TRng rng = trng_make(51);
    for (int it = 0; it < 1000; ++it) {
        double c1[3], c2[3], r1 = trng_range(&rng, 0.1, 1), r2 = trng_range(&rng, 0.1, 1), want;
        DstConvex a = dst_convex_sphere(r1), b = dst_convex_sphere(r2);
        DstConvexDistance r;
        trng_ball(&rng, c1);
        trng_ball(&rng, c2);
        for (int i = 0; i < 3; ++i) c2[i] = c1[i] + 0.5 * c2[i];
        if (it % 50 == 0) memcpy(c2, c1, sizeof c1); /* concentric */
        dst_convex_set_pose(&a, NULL, c1);
        dst_convex_set_pose(&b, NULL, c2);
        want = tv_dist(c1, c2) - r1 - r2;
        r = signed_distance(&a, &b);
        ck_assert_double_eq_tol(r.distance, want, DEPTH_TOL);
        check_result(&r, DEPTH_TOL);
        ck_assert_int_eq(r.status, want > 0.0 ? DST_SEPARATED : DST_PENETRATING);
    }
}
END_TEST

START_TEST(test_capsule_crossing_depth)
{
    /* capsules whose axes cross: the cores' difference is a flat parallelogram through
     * the origin, depth = r1 + r2 exactly, normal = common perpendicular of the axes */
    TRng rng = trng_make(52);
    for (int it = 0; it < 300; ++it) {
        double R1[9], R2[9], c[3], r1 = trng_range(&rng, 0.05, 0.3),
                                   r2 = trng_range(&rng, 0.05, 0.3);
        DstConvex a = dst_convex_capsule(r1, 1.0), b = dst_convex_capsule(r2, 0.7);
        DstConvexDistance r;
        double z1[3], z2[3], nn[3], cn;
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, c);
        dst_convex_set_pose(&a, R1, c);
        dst_convex_set_pose(&b, R2, c);
        r = signed_distance(&a, &b);
        ck_assert_double_eq_tol(r.distance, -(r1 + r2), DEPTH_TOL);
        check_result(&r, DEPTH_TOL);
        /* the normal is perpendicular to both axes */
        for (int i = 0; i < 3; ++i) {
            z1[i] = R1[3 * i + 2];
            z2[i] = R2[3 * i + 2];
        }
        tv_cross(nn, z1, z2);
        cn = tv_norm(nn);
        if (cn > 1e-3) {
            ck_assert_double_eq_tol(fabs(tv_dot(nn, r.normal)) / cn, 1.0, NORMAL_DIR_TOL);
        }
    }
}
END_TEST

START_TEST(test_box_box_vs_sat)
{
    TRng rng = trng_make(53);
    int checked = 0;
    for (int it = 0; it < 800; ++it) {
        double h1[3], h2[3], R1[9], R2[9], t1[3], t2[3], ref;
        TPoly P, Q;
        DstConvex a, b;
        DstConvexDistance r;
        for (int i = 0; i < 3; ++i) {
            h1[i] = trng_range(&rng, 0.05, 1);
            h2[i] = trng_range(&rng, 0.05, 1);
        }
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t1);
        trng_ball(&rng, t2);
        tref_box_poly(&P, h1, R1, t1);
        tref_box_poly(&Q, h2, R2, t2);
        ref = tref_sat_depth(&P, &Q);
        if (ref < 1e-6) continue;
        a = dst_convex_box(h1[0], h1[1], h1[2]);
        b = dst_convex_box(h2[0], h2[1], h2[2]);
        dst_convex_set_pose(&a, R1, t1);
        dst_convex_set_pose(&b, R2, t2);
        r = signed_distance(&a, &b);
        ck_assert_msg(fabs(r.distance + ref) <= DEPTH_TOL, "it %d: %.17g vs %.17g", it, r.distance,
                      -ref);
        check_result(&r, DEPTH_TOL);
        ++checked;
    }
    ck_assert_int_gt(checked, 200);
}
END_TEST

START_TEST(test_hull_hull_vs_sat)
{
    TRng rng = trng_make(54);
    int checked = 0;
    for (int it = 0; it < 150; ++it) {
        DstHull ha, hb;
        double R1[9], R2[9], t1[3] = {0, 0, 0}, t2[3], ref;
        TPoly P, Q;
        random_hull(&rng, 10 + it % 16, 1.0, &ha);
        random_hull(&rng, 10 + (it * 5) % 16, 0.8, &hb);
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t2);
        hull_poly(&P, &ha, R1, t1);
        hull_poly(&Q, &hb, R2, t2);
        ref = tref_sat_depth(&P, &Q);
        if (ref > 1e-6) {
            DstConvex a = dst_hull_convex(&ha), b = dst_hull_convex(&hb);
            DstConvexDistance r;
            dst_convex_set_pose(&a, R1, t1);
            dst_convex_set_pose(&b, R2, t2);
            r = signed_distance(&a, &b);
            ck_assert_msg(fabs(r.distance + ref) <= DEPTH_TOL, "it %d: %.17g vs %.17g", it,
                          r.distance, -ref);
            check_result(&r, DEPTH_TOL);
            ++checked;
        }
        dst_hull_destroy(&ha);
        dst_hull_destroy(&hb);
    }
    ck_assert_int_gt(checked, 40);
}
END_TEST

START_TEST(test_identical_shapes_same_pose)
{
    /* deepest penetration: the origin is the centre of the difference */
    TRng rng = trng_make(55);
    for (int it = 0; it < 50; ++it) {
        double R[9], t[3],
            h[3] = {trng_range(&rng, 0.1, 1), trng_range(&rng, 0.1, 1), trng_range(&rng, 0.1, 1)};
        DstConvex a = dst_convex_box(h[0], h[1], h[2]), b = a;
        DstConvexDistance r;
        trng_rotation(&rng, R);
        trng_ball(&rng, t);
        dst_convex_set_pose(&a, R, t);
        dst_convex_set_pose(&b, R, t);
        r = signed_distance(&a, &b);
        ck_assert_double_eq_tol(r.distance, -2.0 * fmin(h[0], fmin(h[1], h[2])), DEPTH_TOL);
        check_result(&r, DEPTH_TOL);
    }
    {
        /* the same hull twice: depth = minimum width of the hull (SAT reference) */
        DstHull hh;
        double R[9], t[3] = {0.3, 0.2, 0.1};
        TPoly P;
        DstConvex a, b;
        DstConvexDistance r;
        random_hull(&rng, 120, 1.0, &hh);
        trng_rotation(&rng, R);
        a = dst_hull_convex(&hh);
        b = dst_hull_convex(&hh);
        dst_convex_set_pose(&a, R, t);
        dst_convex_set_pose(&b, R, t);
        hull_poly(&P, &hh, R, t);
        r = signed_distance(&a, &b);
        ck_assert_double_eq_tol(r.distance, -tref_sat_depth(&P, &P), DEPTH_TOL);
        dst_hull_destroy(&hh);
    }
    {
        /* identical ellipsoids: depth = twice the smallest semi-axis (curved, approximate) */
        DstConvex a = dst_convex_ellipsoid(0.5, 0.3, 0.4), b = a;
        DstConvexDistance r;
        DstEpaOptions eo = dst_epa_options_default();
        char err[160];
        DstStatus st = dst_convex_distance(&a, &b, NULL, &eo, NULL, &r, err, sizeof err);
        ck_assert(st == DST_PENETRATING || st == DST_ITER_LIMIT);
        ck_assert_double_eq_tol(r.distance, -0.6, CURVED_DEPTH_TOL);
        ck_assert(r.lower <= -0.6 + DEPTH_TOL && r.upper >= -0.6 - DEPTH_TOL);
    }
}
END_TEST

START_TEST(test_flat_and_touching_differences)
{
    /* two coplanar zero-thickness squares overlapping in their plane: depth 0 */
    static const double sq[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    double t[3] = {0.4, 0.3, 0.0};
    DstConvex a = dst_convex_points(&sq[0][0], 4, NULL, NULL), b = a;
    DstConvexDistance r;
    dst_convex_set_pose(&b, NULL, t);
    r = signed_distance(&a, &b);
    ck_assert_int_eq(r.status, DST_TOUCHING);
    ck_assert_double_eq_tol(r.distance, 0.0, DEPTH_TOL);
    ck_assert_double_eq_tol(fabs(r.normal[2]), 1.0, UNIT_TOL);
    /* the same with margins: rounded plates, depth = sum of margins */
    a.margin = 0.05;
    b.margin = 0.02;
    r = signed_distance(&a, &b);
    ck_assert_double_eq_tol(r.distance, -0.07, DEPTH_TOL);
    /* boxes face to face exactly (origin on a face of the difference): touching */
    {
        DstConvex c = dst_convex_box(0.5, 0.5, 0.5), d = c;
        double u[3] = {0.2, 0.1, 1.0};
        dst_convex_set_pose(&d, NULL, u);
        r = signed_distance(&c, &d);
        ck_assert_int_eq(r.status, DST_TOUCHING);
        ck_assert_double_eq_tol(r.distance, 0.0, DEPTH_TOL);
        ck_assert_double_eq_tol(r.normal[2], -1.0, UNIT_TOL);
    }
    /* coincident points, and a point inside a segment: depth 0 (point-like differences) */
    {
        static const double p0[1][3] = {{0.1, 0.2, 0.3}};
        static const double seg[2][3] = {{0, 0, 0}, {1, 1, 1}};
        DstConvex c = dst_convex_points(&p0[0][0], 1, NULL, NULL), d = c;
        r = signed_distance(&c, &d);
        ck_assert_int_eq(r.status, DST_TOUCHING);
        ck_assert_double_eq_tol(r.distance, 0.0, DEPTH_TOL);
        check_result(&r, DEPTH_TOL);
        d = dst_convex_points(&seg[0][0], 2, NULL, NULL);
        {
            static const double mid[1][3] = {{0.5, 0.5, 0.5}};
            c = dst_convex_points(&mid[0][0], 1, NULL, NULL);
        }
        r = signed_distance(&c, &d);
        ck_assert_int_eq(r.status, DST_TOUCHING);
        check_result(&r, DEPTH_TOL);
    }
}
END_TEST

/* signed distance along a straight sweep of B through A: no jump at contact */
static void sweep(const DstConvex *a, DstConvex *b, const double R[9], const double start[3],
                  const double dir[3], int steps, double len, int curved, double *min_d,
                  double *max_d)
{
    double prev = 0.0, step = len / steps;
    *min_d = HUGE_VAL;
    *max_d = -HUGE_VAL;
    for (int k = 0; k <= steps; ++k) {
        double t[3];
        DstConvexDistance r;
        for (int i = 0; i < 3; ++i) t[i] = start[i] + k * step * dir[i];
        dst_convex_set_pose(b, R, t);
        r = signed_distance_ex(a, b, curved);
        check_result(&r, DEPTH_TOL);
        if (k > 0) {
            ck_assert_msg(fabs(r.distance - prev) <=
                              step + LIPSCHITZ_SLACK + (curved ? CURVED_DEPTH_TOL : 0.0),
                          "jump at step %d: %.17g -> %.17g (step %g)", k, prev, r.distance, step);
        }
        prev = r.distance;
        *min_d = fmin(*min_d, r.distance);
        *max_d = fmax(*max_d, r.distance);
    }
}

START_TEST(test_continuity_through_contact)
{
    TRng rng = trng_make(56);
    /* axis-aligned cubes: d(x) = x - 1 exactly on both sides of contact */
    {
        DstConvex a = dst_convex_box(0.5, 0.5, 0.5), b = a;
        for (int k = -200; k <= 200; ++k) {
            double x = 1.0 + k * 1e-4, t[3] = {x, 0.1, -0.2};
            DstConvexDistance r;
            dst_convex_set_pose(&b, NULL, t);
            r = signed_distance(&a, &b);
            ck_assert_msg(fabs(r.distance - (x - 1.0)) <= DEPTH_TOL, "x %.17g: d %.17g", x,
                          r.distance);
            ck_assert_double_eq_tol(r.normal[0], -1.0, UNIT_TOL);
        }
    }
    /* random boxes, hulls, capsules and ellipsoids swept through each other */
    for (int it = 0; it < 24; ++it) {
        DstConvex a, b;
        double R1[9], R2[9], dir[3], start[3], lo, hi;
        DstHull ha, hb;
        int hulls = it % 4 == 1;
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        if (it % 4 == 0) {
            a = dst_convex_box(0.4, 0.3, 0.2);
            b = dst_convex_box(0.2, 0.5, 0.3);
        } else if (hulls) {
            random_hull(&rng, 60, 0.5, &ha);
            random_hull(&rng, 60, 0.5, &hb);
            a = dst_hull_convex(&ha);
            b = dst_hull_convex(&hb);
        } else if (it % 4 == 2) {
            a = dst_convex_capsule(0.1, 0.4);
            b = dst_convex_box(0.2, 0.5, 0.3);
            b.margin = 0.03;
        } else {
            a = dst_convex_ellipsoid(0.4, 0.3, 0.2);
            b = dst_convex_box(0.2, 0.3, 0.25);
        }
        dst_convex_set_pose(&a, R1, NULL);
        trng_ball(&rng, dir);
        {
            double l = tv_norm(dir);
            for (int i = 0; i < 3; ++i) dir[i] /= l;
        }
        for (int i = 0; i < 3; ++i) start[i] = -2.0 * dir[i];
        sweep(&a, &b, R2, start, dir, 400, 4.0, it % 4 == 3, &lo, &hi);
        ck_assert(lo < 0.0 && hi > 0.0);
        if (hulls) {
            dst_hull_destroy(&ha);
            dst_hull_destroy(&hb);
        }
    }
}
END_TEST

START_TEST(test_epa_statuses_and_input)
{
    DstConvex a = dst_convex_box(0.5, 0.5, 0.5), b = dst_convex_box(0.4, 0.4, 0.4);
    DstGjkResult g;
    DstEpaResult e;
    DstEpaOptions o = dst_epa_options_default();
    char err[200];
    double t[3] = {0.3, 0.2, 0.1};
    dst_convex_set_pose(&b, NULL, t);
    ck_assert_int_eq(dst_gjk_distance(&a, &b, NULL, NULL, &g, NULL, 0), DST_PENETRATING);
    ck_assert_int_eq(g.cores_overlap, 1);
    ck_assert_int_eq(dst_epa_depth(&a, &b, &g, NULL, &e, err, sizeof err), DST_PENETRATING);
    ck_assert_double_eq_tol(e.depth, 0.6, DEPTH_TOL);
    ck_assert(e.depth_lower <= e.depth && e.depth <= e.depth_upper);
    /* iteration cap: bounds still bracket the true depth */
    {
        DstConvex c = dst_convex_ellipsoid(0.5, 0.4, 0.3), d = dst_convex_ellipsoid(0.3, 0.5, 0.4);
        double u[3] = {0.2, 0.1, 0.05};
        dst_convex_set_pose(&d, NULL, u);
        o.max_iter = 3;
        ck_assert_int_eq(dst_gjk_distance(&c, &d, NULL, NULL, &g, NULL, 0), DST_PENETRATING);
        ck_assert_int_eq(dst_epa_depth(&c, &d, &g, &o, &e, err, sizeof err), DST_ITER_LIMIT);
        ck_assert(isfinite(e.depth) && e.depth_lower <= e.depth_upper);
        o = dst_epa_options_default();
        ck_assert_int_ne(dst_epa_depth(&c, &d, &g, &o, &e, err, sizeof err), DST_FAILED);
    }
    /* a GJK result without overlap, NULL, bad options */
    {
        double far[3] = {5, 0, 0};
        dst_convex_set_pose(&b, NULL, far);
        dst_gjk_distance(&a, &b, NULL, NULL, &g, NULL, 0);
        ck_assert_int_eq(dst_epa_depth(&a, &b, &g, NULL, &e, err, sizeof err), DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(err, "cores_overlap"));
        ck_assert_int_eq(dst_epa_depth(&a, &b, NULL, NULL, &e, err, sizeof err), DST_INVALID_INPUT);
        ck_assert_int_eq(dst_epa_depth(&a, &b, &g, NULL, NULL, err, sizeof err), DST_INVALID_INPUT);
        o.rel_tol = -1.0;
        ck_assert_int_eq(dst_epa_depth(&a, &b, &g, &o, &e, err, sizeof err), DST_INVALID_INPUT);
    }
    /* bad shapes through the combined query */
    {
        DstConvexDistance r;
        a.margin = NAN;
        ck_assert_int_eq(dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, err, sizeof err),
                         DST_INVALID_INPUT);
        ck_assert_ptr_nonnull(strstr(err, "a.margin"));
        ck_assert_int_eq(dst_convex_distance(&a, &b, NULL, NULL, NULL, NULL, err, sizeof err),
                         DST_INVALID_INPUT);
    }
}
END_TEST

/* g(u) = -(h_A(-u) + h_B(u)): the separation of A and B along u (positive when u separates
 * them). The signed distance is max over unit u of g(u) in both regimes (separating axis /
 * minimum support of the Minkowski difference), so g at the returned normal must equal the
 * distance and no sampled direction may exceed it. Uses only the whole-shape supports. */
static double sep_along(const DstConvex *a, const DstConvex *b, const double u[3])
{
    double nu[3] = {-u[0], -u[1], -u[2]}, pa[3], pb[3];
    dst_convex_support(a, nu, pa);
    dst_convex_support(b, u, pb);
    return tv_dot(pa, u) - tv_dot(pb, u);
}

static DstConvex random_shape(TRng *rng, int kind, const DstHull *hull)
{
    DstConvex c;
    switch (kind) {
    case 0:
        c = dst_convex_box(trng_range(rng, 0.05, 0.5), trng_range(rng, 0.05, 0.5),
                           trng_range(rng, 0.05, 0.5));
        break;
    case 1: c = dst_convex_sphere(trng_range(rng, 0.05, 0.5)); break;
    case 2: c = dst_convex_capsule(trng_range(rng, 0.02, 0.3), trng_range(rng, 0.0, 0.5)); break;
    case 3:
        c = dst_convex_ellipsoid(trng_range(rng, 0.05, 0.5), trng_range(rng, 0.05, 0.5),
                                 trng_range(rng, 0.05, 0.5));
        break;
    case 4: c = dst_hull_convex(hull); break;
    default:
        /* a rounded box: box core with a margin */
        c = dst_convex_box(trng_range(rng, 0.05, 0.4), trng_range(rng, 0.05, 0.4),
                           trng_range(rng, 0.05, 0.4));
        c.margin = trng_range(rng, 0.01, 0.1);
        break;
    }
    return c;
}

START_TEST(test_all_kinds_vs_support_sampling)
{
    TRng rng = trng_make(57);
    DstHull hull;
    int tested = 0;
    random_hull(&rng, 40, 0.4, &hull);
    for (int ka = 0; ka < 6; ++ka) {
        for (int kb = 0; kb < 6; ++kb) {
            for (int it = 0; it < 12; ++it) {
                DstConvex a = random_shape(&rng, ka, &hull), b = random_shape(&rng, kb, &hull);
                double R1[9], R2[9], t2[3], gmax = -HUGE_VAL, tol;
                int curved = ka == 3 || kb == 3;
                DstConvexDistance r;
                trng_rotation(&rng, R1);
                trng_rotation(&rng, R2);
                trng_ball(&rng, t2);
                for (int i = 0; i < 3; ++i) t2[i] *= 0.9;
                dst_convex_set_pose(&a, R1, NULL);
                dst_convex_set_pose(&b, R2, t2);
                r = signed_distance_ex(&a, &b, curved);
                tol = curved ? CURVED_DEPTH_TOL : DEPTH_TOL;
                check_result(&r, DEPTH_TOL);
                /* the returned normal attains the distance */
                ck_assert_msg(fabs(sep_along(&a, &b, r.normal) - r.distance) <= tol,
                              "kinds %d/%d: g(n) %.12g vs d %.12g", ka, kb,
                              sep_along(&a, &b, r.normal), r.distance);
                /* no sampled direction does better: random, and close to the normal */
                for (int k = 0; k < 3000; ++k) {
                    double u[3], l;
                    trng_ball(&rng, u);
                    if (k % 2 == 1) {
                        for (int i = 0; i < 3; ++i) u[i] = r.normal[i] + 0.05 * u[i];
                    }
                    l = tv_norm(u);
                    if (l < 1e-6) continue;
                    for (int i = 0; i < 3; ++i) u[i] /= l;
                    gmax = fmax(gmax, sep_along(&a, &b, u));
                }
                ck_assert_msg(gmax <= r.distance + tol, "kinds %d/%d: sampled %.12g > d %.12g", ka,
                              kb, gmax, r.distance);
                ++tested;
            }
        }
    }
    ck_assert_int_eq(tested, 6 * 6 * 12);
    dst_hull_destroy(&hull);
}
END_TEST

START_TEST(test_depth_at_scales)
{
    static const double scales[4] = {1e-3, 1e-1, 1e1, 1e3};
    TRng rng = trng_make(58);
    for (int s = 0; s < 4; ++s) {
        int checked = 0;
        for (int it = 0; it < 150; ++it) {
            double sc = scales[s], h1[3], h2[3], R1[9], R2[9], t1[3], t2[3], ref;
            TPoly P, Q;
            DstConvex a, b;
            DstConvexDistance r;
            for (int i = 0; i < 3; ++i) {
                h1[i] = sc * trng_range(&rng, 0.05, 1);
                h2[i] = sc * trng_range(&rng, 0.001, 1); /* some very thin plates */
            }
            trng_rotation(&rng, R1);
            trng_rotation(&rng, R2);
            trng_ball(&rng, t1);
            trng_ball(&rng, t2);
            for (int i = 0; i < 3; ++i) {
                t1[i] *= sc;
                t2[i] *= sc;
            }
            tref_box_poly(&P, h1, R1, t1);
            tref_box_poly(&Q, h2, R2, t2);
            ref = tref_sat_depth(&P, &Q);
            if (ref < 1e-6 * sc) continue;
            a = dst_convex_box(h1[0], h1[1], h1[2]);
            b = dst_convex_box(h2[0], h2[1], h2[2]);
            dst_convex_set_pose(&a, R1, t1);
            dst_convex_set_pose(&b, R2, t2);
            r = signed_distance(&a, &b);
            ck_assert_msg(fabs(r.distance + ref) <= DEPTH_TOL * sc, "scale %g: %.17g vs %.17g", sc,
                          r.distance, -ref);
            check_result(&r, DEPTH_TOL * sc);
            ++checked;
        }
        ck_assert_int_gt(checked, 30);
    }
}
END_TEST

START_TEST(test_extreme_magnitudes_no_nan)
{
    /* coordinates from 1e-150 to 1e150: either a finite answer or a clear status */
    static const double mags[6] = {1e-150, 1e-30, 1e-8, 1e8, 1e30, 1e150};
    for (int m = 0; m < 6; ++m) {
        for (int sep = 0; sep < 2; ++sep) {
            double h = mags[m], t[3] = {sep ? 3.0 * h : 0.5 * h, 0.1 * h, 0.0};
            DstConvex a = dst_convex_box(h, h, h), b = dst_convex_ellipsoid(h, 0.5 * h, 0.7 * h);
            DstConvexDistance r;
            char err[200] = "";
            DstStatus st;
            dst_convex_set_pose(&b, NULL, t);
            st = dst_convex_distance(&a, &b, NULL, NULL, NULL, &r, err, sizeof err);
            if (m == 0 || m == 5) {
                /* outside the supported range: rejected with a message naming the reason */
                ck_assert_int_eq(st, DST_INVALID_INPUT);
                ck_assert(strstr(err, "range") != NULL);
                continue;
            }
            ck_assert_msg(isfinite(r.distance) && isfinite(r.lower) && isfinite(r.upper),
                          "magnitude %g: %s", h, dst_status_string(st));
            for (int i = 0; i < 3; ++i) ck_assert(isfinite(r.normal[i]) && isfinite(r.point_a[i]));
            if (sep)
                ck_assert(r.distance > 0.0);
            else
                ck_assert(r.distance < 0.0);
        }
    }
}
END_TEST

START_TEST(test_noisy_cubes_vs_sat)
{
    /* hulls of cube lattices with 1e-9 noise: many nearly coplanar faces in the Minkowski
     * difference, where EPA's visibility and face selection are most fragile */
    TRng rng = trng_make(59);
    for (int it = 0; it < 30; ++it) {
        double p[2][125][3], R1[9], R2[9], t2[3], ref;
        DstHull h[2];
        TPoly P, Q;
        DstConvex a, b;
        DstConvexDistance r;
        static const double o[3] = {0, 0, 0};
        for (int s2 = 0; s2 < 2; ++s2) {
            int n = 0;
            for (int i = 0; i < 5; ++i) {
                for (int j = 0; j < 5; ++j) {
                    for (int l = 0; l < 5; ++l, ++n) {
                        p[s2][n][0] = 0.25 * i - 0.5 + 1e-9 * trng_range(&rng, -1, 1);
                        p[s2][n][1] = 0.25 * j - 0.5 + 1e-9 * trng_range(&rng, -1, 1);
                        p[s2][n][2] = 0.25 * l - 0.5 + 1e-9 * trng_range(&rng, -1, 1);
                    }
                }
            }
            ck_assert_int_eq(dst_hull_build(&p[s2][0][0], 125, 0.0, &h[s2], NULL, 0), DST_OK);
        }
        trng_rotation(&rng, R1);
        if (it % 3 == 0) {
            memcpy(R2, R1, sizeof R1); /* aligned faces */
        } else {
            trng_rotation(&rng, R2);
        }
        trng_ball(&rng, t2);
        for (int i = 0; i < 3; ++i) t2[i] *= 0.8;
        hull_poly(&P, &h[0], R1, o);
        hull_poly(&Q, &h[1], R2, t2);
        ref = tref_sat_depth(&P, &Q);
        a = dst_hull_convex(&h[0]);
        b = dst_hull_convex(&h[1]);
        dst_convex_set_pose(&a, R1, o);
        dst_convex_set_pose(&b, R2, t2);
        r = signed_distance(&a, &b);
        if (ref > 0.0) {
            ck_assert_msg(fabs(r.distance + ref) <= NOISY_DEPTH_TOL, "it %d: %.17g vs %.17g",
                          it, r.distance, -ref);
        }
        check_result(&r, DEPTH_TOL);
        dst_hull_destroy(&h[0]);
        dst_hull_destroy(&h[1]);
    }
}
END_TEST

/* a box given only through a user support callback (no feature ids) */
static int user_box_support(const void *user, const double dir[3], int hint, double out[3])
{
    const double *h = user;
    (void)hint;
    for (int i = 0; i < 3; ++i) out[i] = dir[i] >= 0.0 ? h[i] : -h[i];
    return -1;
}

START_TEST(test_custom_support_matches_builtin)
{
    /* signed distances through user callbacks equal the built-in boxes', with and without
     * the warm-start cache (ids unknown: the cache falls back to the direction) */
    TRng rng = trng_make(60);
    DstGjkCache cache;
    double h1[3] = {0.3, 0.2, 0.4}, h2[3] = {0.25, 0.35, 0.15};
    dst_gjk_cache_reset(&cache);
    for (int k = 0; k <= 300; ++k) {
        double R1[9], R2[9], t2[3] = {1.2 - 0.006 * k, 0.05, -0.1}, ax[3] = {0, 0.6, 0.8};
        DstConvex a = dst_convex_box(h1[0], h1[1], h1[2]), b = dst_convex_box(h2[0], h2[1], h2[2]);
        DstConvex ca = dst_convex_custom(user_box_support, h1),
                  cb = dst_convex_custom(user_box_support, h2);
        DstConvexDistance r, rc;
        tv_axis_angle(R1, ax, 0.01 * k);
        trng_rotation(&rng, R2);
        if (k % 2 == 0) memcpy(R2, R1, sizeof R1);
        dst_convex_set_pose(&a, R1, NULL);
        dst_convex_set_pose(&ca, R1, NULL);
        dst_convex_set_pose(&b, R2, t2);
        dst_convex_set_pose(&cb, R2, t2);
        r = signed_distance(&a, &b);
        ck_assert_int_ne(dst_convex_distance(&ca, &cb, NULL, NULL, &cache, &rc, NULL, 0),
                         DST_FAILED);
        ck_assert_msg(fabs(r.distance - rc.distance) <= DEPTH_TOL, "step %d: %.17g vs %.17g", k,
                      r.distance, rc.distance);
        check_result(&rc, DEPTH_TOL);
    }
}
END_TEST

/* ---- the expansion mechanism: nearest face from a candidate list pruned by the upper
 * bound, the visible region and horizon by one walk, the cone built in fresh slots */

/* an EPA result's own invariants: bracket ordered around the depth, unit normal, witnesses
 * point_a - point_b = -depth normal, and the polytope a closed triangulated sphere: F = 2V - 4
 * with V = 4 + the steps that added a vertex (all of them, or all but the last, which found
 * no farther support or could not grow) */
static void check_epa_result(const DstEpaResult *e, double tol)
{
    double d[3];
    ck_assert(isfinite(e->depth) && isfinite(e->depth_lower) && isfinite(e->depth_upper));
    ck_assert(e->depth_lower <= e->depth && e->depth <= e->depth_upper);
    ck_assert_double_eq_tol(tv_norm(e->normal), 1.0, UNIT_TOL);
    tv_sub(d, e->point_a, e->point_b);
    for (int i = 0; i < 3; ++i) ck_assert_double_eq_tol(d[i], -e->depth * e->normal[i], tol);
    ck_assert_msg(e->faces == 2 * e->iterations + 2 || e->faces == 2 * e->iterations + 4,
                  "faces %d after %d steps", e->faces, e->iterations);
}

/* EPA alone on a and b (their cores must overlap), at most max_iter steps */
static DstStatus epa_capped(const DstConvex *a, const DstConvex *b, int max_iter, DstEpaResult *e)
{
    DstGjkResult g;
    DstEpaOptions o = dst_epa_options_default();
    char err[200] = "";
    DstStatus st;
    dst_gjk_distance(a, b, NULL, NULL, &g, NULL, 0);
    ck_assert_int_eq(g.cores_overlap, 1);
    o.max_iter = max_iter;
    st = dst_epa_depth(a, b, &g, &o, e, err, sizeof err);
    ck_assert_msg(st == DST_PENETRATING || st == DST_TOUCHING || st == DST_ITER_LIMIT,
                  "status %s: %s", dst_status_string(st), err);
    return st;
}

START_TEST(test_bracket_at_every_step_cap)
{
    /* stopped after 1, 2, ... steps, the bracket still holds the true depth (separating
     * axes): the lower bound is the nearest face over the whole polytope, including faces
     * never listed as candidates */
    TRng rng = trng_make(61);
    int checked = 0;
    for (int it = 0; it < 36; ++it) {
        DstHull ha, hb;
        double R1[9], R2[9], t1[3] = {0, 0, 0}, t2[3], ref;
        TPoly P, Q;
        random_hull(&rng, 12 + (it * 7) % 40, 1.0, &ha);
        random_hull(&rng, 12 + (it * 11) % 40, 0.8, &hb);
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t2);
        if (it % 3 == 0) {
            for (int i = 0; i < 3; ++i) t2[i] *= 0.1; /* deep */
        }
        hull_poly(&P, &ha, R1, t1);
        hull_poly(&Q, &hb, R2, t2);
        ref = tref_sat_depth(&P, &Q);
        if (ref > 1e-6) {
            DstConvex a = dst_hull_convex(&ha), b = dst_hull_convex(&hb);
            int converged = 0;
            dst_convex_set_pose(&a, R1, t1);
            dst_convex_set_pose(&b, R2, t2);
            for (int cap = 1; cap <= 40 && !converged; ++cap) {
                DstEpaResult e;
                DstStatus st = epa_capped(&a, &b, cap, &e);
                check_epa_result(&e, DEPTH_TOL);
                ck_assert_int_le(e.iterations, cap);
                ck_assert_msg(e.depth_lower <= ref + DEPTH_TOL && e.depth_upper >= ref - DEPTH_TOL,
                              "it %d cap %d: [%.17g, %.17g] vs %.17g", it, cap, e.depth_lower,
                              e.depth_upper, ref);
                if (st != DST_ITER_LIMIT) {
                    ck_assert_msg(fabs(e.depth - ref) <= DEPTH_TOL, "it %d: %.17g vs %.17g", it,
                                  e.depth, ref);
                    converged = 1;
                }
            }
            ck_assert(converged);
            ++checked;
        }
        dst_hull_destroy(&ha);
        dst_hull_destroy(&hb);
    }
    ck_assert_int_gt(checked, 20);
}
END_TEST

START_TEST(test_bracket_large_hulls)
{
    /* 150-point hulls (the benchmark's size), shallow and deep: every capped run brackets
     * the converged depth, which the sampled separation along the normal confirms */
    TRng rng = trng_make(62);
    for (int it = 0; it < 12; ++it) {
        DstHull ha, hb;
        double R1[9], R2[9], t2[3];
        DstConvex a, b;
        DstEpaResult full;
        random_hull(&rng, 150, 0.5, &ha);
        random_hull(&rng, 150, 0.45, &hb);
        a = dst_hull_convex(&ha);
        b = dst_hull_convex(&hb);
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t2);
        for (int i = 0; i < 3; ++i) t2[i] *= it % 2 ? 0.5 : 0.05;
        dst_convex_set_pose(&a, R1, NULL);
        dst_convex_set_pose(&b, R2, t2);
        ck_assert_int_eq(epa_capped(&a, &b, DST_EPA_DEFAULT_MAX_ITER, &full), DST_PENETRATING);
        check_epa_result(&full, DEPTH_TOL);
        {
            double n[3] = {-full.normal[0], -full.normal[1], -full.normal[2]};
            /* the separation along the normal from B to A is -depth */
            ck_assert_double_eq_tol(sep_along(&a, &b, full.normal), -full.depth, DEPTH_TOL);
            ck_assert(sep_along(&a, &b, n) <= -full.depth + DEPTH_TOL);
        }
        for (int cap = 1; cap < full.iterations; ++cap) {
            DstEpaResult e;
            epa_capped(&a, &b, cap, &e);
            check_epa_result(&e, DEPTH_TOL);
            ck_assert(e.depth_lower <= full.depth + DEPTH_TOL);
            ck_assert(e.depth_upper >= full.depth - DEPTH_TOL);
        }
        dst_hull_destroy(&ha);
        dst_hull_destroy(&hb);
    }
}
END_TEST

/* exact depth of a point p inside the hull (pose R, t): the smallest distance to a face
 * plane */
static double point_depth_in_hull(const DstHull *h, const double R[9], const double t[3],
                                  const double p[3])
{
    double best = HUGE_VAL;
    for (int f = 0; f < h->ntris; ++f) {
        double v[3][3], e1[3], e2[3], n[3], l;
        for (int k = 0; k < 3; ++k) tv_xform(v[k], R, t, h->verts + 3 * h->tris[3 * f + k]);
        tv_sub(e1, v[1], v[0]);
        tv_sub(e2, v[2], v[0]);
        tv_cross(n, e1, e2);
        l = tv_norm(n);
        if (l < 1e-14) continue;
        tv_sub(e1, v[0], p);
        best = fmin(best, tv_dot(n, e1) / l);
    }
    return best;
}

START_TEST(test_ties_regular_polytopes)
{
    /* a point inside a regular polytope: every face of the difference is at the same
     * distance from the origin (exact ties), the cube's faces are split into coplanar
     * triangles; off-centre points make near-ties */
    static const double phi = 1.6180339887498949;
    double oct[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    double cube[8][3], ico[12][3];
    const double *sets[3] = {&oct[0][0], &cube[0][0], &ico[0][0]};
    static const int counts[3] = {6, 8, 12};
    TRng rng = trng_make(63);
    for (int id = 0; id < 8; ++id) {
        for (int i = 0; i < 3; ++i) cube[id][i] = (id >> i) & 1 ? 0.5 : -0.5;
    }
    for (int k = 0; k < 4; ++k) {
        double s1 = k & 1 ? 1.0 : -1.0, s2 = k & 2 ? phi : -phi;
        for (int c = 0; c < 3; ++c) {
            ico[4 * c + k][c] = 0.0;
            ico[4 * c + k][(c + 1) % 3] = s1;
            ico[4 * c + k][(c + 2) % 3] = s2;
        }
    }
    for (int s = 0; s < 3; ++s) {
        DstHull h;
        ck_assert_int_eq(dst_hull_build(sets[s], counts[s], 0.0, &h, NULL, 0), DST_OK);
        for (int it = 0; it < 60; ++it) {
            double R[9], t[3], p[3] = {0, 0, 0}, ref;
            DstConvex a = dst_hull_convex(&h), b;
            DstEpaResult e;
            static const double origin[1][3] = {{0, 0, 0}};
            trng_rotation(&rng, R);
            trng_ball(&rng, t);
            if (it % 2 == 1) {
                trng_ball(&rng, p);
                for (int i = 0; i < 3; ++i) p[i] *= it % 4 == 1 ? 1e-9 : 0.05;
            }
            for (int i = 0; i < 3; ++i) p[i] += t[i];
            b = dst_convex_points(&origin[0][0], 1, NULL, NULL);
            dst_convex_set_pose(&a, R, t);
            dst_convex_set_pose(&b, NULL, p);
            ref = point_depth_in_hull(&h, R, t, p);
            ck_assert_int_eq(epa_capped(&a, &b, DST_EPA_DEFAULT_MAX_ITER, &e), DST_PENETRATING);
            check_epa_result(&e, DEPTH_TOL);
            ck_assert_msg(fabs(e.depth - ref) <= DEPTH_TOL, "set %d it %d: %.17g vs %.17g", s,
                          it, e.depth, ref);
            /* the witness on A lies on A's boundary: moving A by depth along the normal
             * brings the point to it */
            ck_assert_double_eq_tol(sep_along(&a, &b, e.normal), -e.depth, DEPTH_TOL);
        }
        dst_hull_destroy(&h);
    }
}
END_TEST

START_TEST(test_thin_hulls_vs_sat)
{
    /* hulls of nearly flat point sets (thickness down to 1e-6 of the size) against boxes
     * and each other: slivers in the Minkowski difference */
    static const double thick[4] = {1e-2, 1e-3, 1e-5, 1e-6};
    TRng rng = trng_make(64);
    int checked = 0;
    for (int it = 0; it < 80; ++it) {
        double p[40][3], R1[9], R2[9], t1[3] = {0, 0, 0}, t2[3], ref, hb[3];
        DstHull ha, hh;
        TPoly P, Q;
        DstConvex a, b;
        int hull_b = it % 2;
        for (int i = 0; i < 40; ++i) {
            trng_ball(&rng, p[i]);
            p[i][2] *= thick[it % 4];
        }
        ck_assert_int_eq(dst_hull_build(&p[0][0], 40, 0.0, &ha, NULL, 0), DST_OK);
        trng_rotation(&rng, R1);
        trng_rotation(&rng, R2);
        trng_ball(&rng, t2);
        for (int i = 0; i < 3; ++i) t2[i] *= 0.6;
        hull_poly(&P, &ha, R1, t1);
        a = dst_hull_convex(&ha);
        if (hull_b) {
            for (int i = 0; i < 40; ++i) {
                trng_ball(&rng, p[i]);
                p[i][1] *= thick[(it / 2) % 4];
            }
            ck_assert_int_eq(dst_hull_build(&p[0][0], 40, 0.0, &hh, NULL, 0), DST_OK);
            hull_poly(&Q, &hh, R2, t2);
            b = dst_hull_convex(&hh);
        } else {
            for (int i = 0; i < 3; ++i) hb[i] = trng_range(&rng, 0.1, 0.6);
            tref_box_poly(&Q, hb, R2, t2);
            b = dst_convex_box(hb[0], hb[1], hb[2]);
        }
        dst_convex_set_pose(&a, R1, t1);
        dst_convex_set_pose(&b, R2, t2);
        ref = tref_sat_depth(&P, &Q);
        if (ref > 1e-9) {
            DstConvexDistance r = signed_distance(&a, &b);
            ck_assert_msg(fabs(r.distance + ref) <= DEPTH_TOL, "it %d: %.17g vs %.17g", it,
                          r.distance, -ref);
            check_result(&r, DEPTH_TOL);
            ++checked;
        }
        dst_hull_destroy(&ha);
        if (hull_b) dst_hull_destroy(&hh);
    }
    ck_assert_int_gt(checked, 30);
}
END_TEST

START_TEST(test_vertex_cap)
{
    /* curved cores never converge exactly: with no step cap the polytope fills the
     * workspace (DST_EPA_MAX_VERTS vertices); the bracket still holds the exact depth */
    TRng rng = trng_make(65);
    for (int it = 0; it < 6; ++it) {
        double R[9], ax[3] = {trng_range(&rng, 0.2, 0.6), trng_range(&rng, 0.2, 0.6),
                              trng_range(&rng, 0.2, 0.6)};
        DstConvex a = dst_convex_ellipsoid(ax[0], ax[1], ax[2]), b = a;
        DstEpaResult e;
        double want = 2.0 * fmin(ax[0], fmin(ax[1], ax[2]));
        DstStatus st;
        trng_rotation(&rng, R);
        dst_convex_set_pose(&a, R, NULL);
        dst_convex_set_pose(&b, R, NULL);
        st = epa_capped(&a, &b, 1000000, &e);
        check_epa_result(&e, DEPTH_TOL);
        ck_assert(e.depth_lower <= want + DEPTH_TOL && e.depth_upper >= want - DEPTH_TOL);
        if (st == DST_ITER_LIMIT) {
            ck_assert_int_eq(e.faces, 2 * DST_EPA_MAX_VERTS - 4);
        } else {
            ck_assert_double_eq_tol(e.depth, want, CURVED_DEPTH_TOL);
        }
        ck_assert_int_le(e.faces, 2 * DST_EPA_MAX_VERTS - 4);
    }
    {
        /* a point in a hull of 1000 points on a sphere: a difference with many faces near
         * the depth, more than the workspace's vertices to resolve them all */
        static double pts[1000][3];
        DstHull h;
        double R[9], t[3] = {0.1, -0.2, 0.3}, p[3] = {0.12, -0.19, 0.31};
        static const double origin[1][3] = {{0, 0, 0}};
        DstConvex a, b;
        DstEpaResult e;
        double ref;
        for (int i = 0; i < 1000; ++i) {
            double l;
            trng_ball(&rng, pts[i]);
            l = tv_norm(pts[i]);
            if (l < 1e-3) {
                pts[i][0] = 1.0;
                l = tv_norm(pts[i]);
            }
            for (int k = 0; k < 3; ++k) pts[i][k] /= l;
        }
        ck_assert_int_eq(dst_hull_build(&pts[0][0], 1000, 0.0, &h, NULL, 0), DST_OK);
        trng_rotation(&rng, R);
        a = dst_hull_convex(&h);
        b = dst_convex_points(&origin[0][0], 1, NULL, NULL);
        dst_convex_set_pose(&a, R, t);
        dst_convex_set_pose(&b, NULL, p);
        ref = point_depth_in_hull(&h, R, t, p);
        epa_capped(&a, &b, 1000000, &e);
        check_epa_result(&e, DEPTH_TOL);
        ck_assert_msg(e.depth_lower <= ref + DEPTH_TOL && e.depth_upper >= ref - DEPTH_TOL,
                      "[%.17g, %.17g] vs %.17g", e.depth_lower, e.depth_upper, ref);
        ck_assert_int_le(e.faces, 2 * DST_EPA_MAX_VERTS - 4);
        dst_hull_destroy(&h);
    }
}
END_TEST

Suite *dst_epa_suite(void)
{
    Suite *s = suite_create("dst_epa");
    TCase *tc;
    tc = tcase_create("analytic");
    tcase_add_test(tc, test_sphere_sphere_depth);
    tcase_add_test(tc, test_capsule_crossing_depth);
    tcase_add_test(tc, test_identical_shapes_same_pose);
    suite_add_tcase(s, tc);
    tc = tcase_create("polytope");
    tcase_add_test(tc, test_box_box_vs_sat);
    tcase_add_test(tc, test_hull_hull_vs_sat);
    tcase_add_test(tc, test_noisy_cubes_vs_sat);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("degenerate");
    tcase_add_test(tc, test_flat_and_touching_differences);
    tcase_add_test(tc, test_depth_at_scales);
    tcase_add_test(tc, test_extreme_magnitudes_no_nan);
    suite_add_tcase(s, tc);
    tc = tcase_create("all_kinds");
    tcase_add_test(tc, test_all_kinds_vs_support_sampling);
    tcase_add_test(tc, test_custom_support_matches_builtin);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("continuity");
    tcase_add_test(tc, test_continuity_through_contact);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("mechanism");
    tcase_add_test(tc, test_bracket_at_every_step_cap);
    tcase_add_test(tc, test_bracket_large_hulls);
    tcase_add_test(tc, test_ties_regular_polytopes);
    tcase_add_test(tc, test_thin_hulls_vs_sat);
    tcase_add_test(tc, test_vertex_cap);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("status");
    tcase_add_test(tc, test_epa_statuses_and_input);
    suite_add_tcase(s, tc);
    return s;
}
