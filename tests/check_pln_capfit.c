/* check_pln_capfit.c — tests of planner/model/pln_capfit.c (docs/math/capsule_fit.md):
 * the fitted capsule encloses every point (checked again here in long double, eq. CF5) on
 * randomised clouds including the awkward ones (one point, two, collinear, coplanar,
 * clusters at the ends, huge offsets), is nearly as small as the capsule the points were
 * sampled from (tightness), is deterministic, and refuses bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_rng.h"
#include "model/pln_capfit.h"

#define N_CLOUDS 400
#define PI_ 3.14159265358979323846
#define TIGHT_VOLUME_RATIO 1.02  /* fitted / true volume, points dense on a capsule */

/* long-double distance of x to the segment (an oracle independent of the fit's double) */
static long double seg_dist_ld(const double x[3], const double p0[3], const double p1[3])
{
    long double d[3], w[3], dd = 0, t = 0, r = 0;
    for (int c = 0; c < 3; ++c) {
        d[c] = (long double)p1[c] - p0[c];
        w[c] = (long double)x[c] - p0[c];
        dd += d[c] * d[c];
        t += w[c] * d[c];
    }
    t = dd > 0 ? fminl(1.0L, fmaxl(0.0L, t / dd)) : 0.0L;
    for (int c = 0; c < 3; ++c) {
        long double e = w[c] - t * d[c];
        r += e * e;
    }
    return sqrtl(r);
}

static void assert_encloses(const double *pts, int n, const PlnCapsuleFit *f, const char *what)
{
    ck_assert_msg(f->radius >= 1e-6, "%s: radius %g", what, f->radius);
    ck_assert_msg(f->max_excess <= 0.0, "%s: the fit reports excess %g", what, f->max_excess);
    for (int i = 0; i < n; ++i) {
        long double d = seg_dist_ld(&pts[3 * i], f->p0, f->p1);
        ck_assert_msg(d <= (long double)f->radius, "%s: point %d at %.17Lg > radius %.17g", what, i,
                      d, f->radius);
    }
}

/* a cloud of one of several kinds (k % 8), in a random pose and scale */
static int make_cloud(Rng *r, int kind, double *pts, int max)
{
    double R[9], t[3], s = pow(10.0, rng_uniform(r, -3.0, 1.0));
    int n = 0;
    rng_rotation(r, R);
    for (int c = 0; c < 3; ++c) t[c] = rng_uniform(r, -1.0, 1.0) * (kind == 7 ? 50.0 : 1.0);
    switch (kind) {
    case 0: n = 1 + (int)(rng_u01(r) * 300); /* uniform in a box of random aspect */
        {
            double a[3] = {rng_uniform(r, 0.01, 1), rng_uniform(r, 0.01, 1), rng_uniform(r, 0.01, 1)};
            for (int i = 0; i < n; ++i) for (int c = 0; c < 3; ++c) pts[3 * i + c] = a[c] * rng_uniform(r, -1, 1);
        }
        break;
    case 1: n = 1; pts[0] = pts[1] = pts[2] = 0.0; break;       /* a single point */
    case 2: n = 2; for (int c = 0; c < 6; ++c) pts[c] = rng_uniform(r, -1, 1); break;
    case 3: n = 50; for (int i = 0; i < n; ++i) {               /* collinear */
            double u = rng_uniform(r, -1, 1);
            pts[3 * i] = u; pts[3 * i + 1] = 0.0; pts[3 * i + 2] = 0.0;
        }
        break;
    case 4: n = 200; for (int i = 0; i < n; ++i) {              /* coplanar (a plate) */
            pts[3 * i] = rng_uniform(r, -1, 1); pts[3 * i + 1] = rng_uniform(r, -0.3, 0.3); pts[3 * i + 2] = 0.0;
        }
        break;
    case 5: n = 100; for (int i = 0; i < n; ++i) {              /* two clusters (a dumbbell) */
            double end = i % 2 ? 1.0 : -1.0;
            pts[3 * i] = end + 0.05 * rng_uniform(r, -1, 1);
            pts[3 * i + 1] = 0.05 * rng_uniform(r, -1, 1);
            pts[3 * i + 2] = 0.05 * rng_uniform(r, -1, 1);
        }
        break;
    case 6: n = 300; for (int i = 0; i < n; ++i) {              /* a sphere's surface */
            double v[3], m = 0;
            for (int c = 0; c < 3; ++c) { v[c] = rng_uniform(r, -1, 1); m += v[c] * v[c]; }
            m = sqrt(m) + 1e-300;
            for (int c = 0; c < 3; ++c) pts[3 * i + c] = v[c] / m;
        }
        break;
    default: n = 120; for (int i = 0; i < n; ++i) {             /* far from the origin */
            for (int c = 0; c < 3; ++c) pts[3 * i + c] = rng_uniform(r, -0.2, 0.2);
        }
        break;
    }
    ck_assert_int_le(n, max);
    for (int i = 0; i < n; ++i) {
        double x[3];
        for (int a = 0; a < 3; ++a) x[a] = s * (R[3 * a] * pts[3 * i] + R[3 * a + 1] * pts[3 * i + 1] + R[3 * a + 2] * pts[3 * i + 2]) + t[a];
        memcpy(&pts[3 * i], x, sizeof x);
    }
    return n;
}

START_TEST(test_encloses_random_clouds)
{
    Rng r = {0xC0FFEEu};
    double *pts = malloc(3 * 400 * sizeof *pts);
    char err[256];
    for (int k = 0; k < N_CLOUDS; ++k) {
        PlnCapsuleFit f;
        char what[64];
        int n = make_cloud(&r, k % 8, pts, 400);
        snprintf(what, sizeof what, "cloud %d (kind %d, %d points)", k, k % 8, n);
        ck_assert_int_eq(pln_capsule_fit(pts, n, &f, err, sizeof err), PLN_OK);
        assert_encloses(pts, n, &f, what);
    }
    free(pts);
}
END_TEST

/* points dense on the surface of a known capsule: the fit is within 2% of its volume */
START_TEST(test_tight_on_capsule_surfaces)
{
    Rng r = {77};
    const int n = 800;
    double *pts = malloc(3 * (size_t)n * sizeof *pts);
    char err[256];
    for (int k = 0; k < 40; ++k) {
        double R[9], t[3], rad = rng_uniform(&r, 0.01, 0.2), half = rng_uniform(&r, 0.0, 0.5), vol;
        PlnCapsuleFit f;
        rng_rotation(&r, R);
        for (int c = 0; c < 3; ++c) t[c] = rng_uniform(&r, -1, 1);
        for (int i = 0; i < n; ++i) {
            /* a point on the surface: a random direction from a random point of the axis */
            double v[3], m = 0, a = rng_uniform(&r, -half, half), x[3];
            for (int c = 0; c < 3; ++c) { v[c] = rng_uniform(&r, -1, 1); m += v[c] * v[c]; }
            m = sqrt(m) + 1e-300;
            for (int c = 0; c < 3; ++c) v[c] /= m;
            if (i % 3 != 0) v[2] = 0.0, m = hypot(v[0], v[1]) + 1e-300, v[0] /= m, v[1] /= m;  /* side */
            else a = v[2] >= 0 ? half : -half;                                                 /* caps */
            x[0] = rad * v[0]; x[1] = rad * v[1]; x[2] = a + rad * v[2];
            for (int c = 0; c < 3; ++c) pts[3 * i + c] = R[3 * c] * x[0] + R[3 * c + 1] * x[1] + R[3 * c + 2] * x[2] + t[c];
        }
        ck_assert_int_eq(pln_capsule_fit(pts, n, &f, err, sizeof err), PLN_OK);
        assert_encloses(pts, n, &f, "capsule surface");
        vol = PI_ * rad * rad * 2.0 * half + 4.0 / 3.0 * PI_ * rad * rad * rad;
        ck_assert_msg(f.volume <= TIGHT_VOLUME_RATIO * vol, "case %d: fitted volume %g, capsule %g (ratio %.4f)",
                      k, f.volume, vol, f.volume / vol);
    }
    free(pts);
}
END_TEST

/* a box's corners: the capsule encloses the whole box (convex), checked densely */
START_TEST(test_box_dense)
{
    const double h[3] = {0.15, 0.05, 0.025};
    double corners[24];
    PlnCapsuleFit f;
    char err[256];
    for (int k = 0; k < 8; ++k) {
        corners[3 * k] = (k & 1 ? 1 : -1) * h[0];
        corners[3 * k + 1] = (k & 2 ? 1 : -1) * h[1];
        corners[3 * k + 2] = (k & 4 ? 1 : -1) * h[2];
    }
    ck_assert_int_eq(pln_capsule_fit(corners, 8, &f, err, sizeof err), PLN_OK);
    for (int i = 0; i <= 40; ++i) {
        for (int j = 0; j <= 40; ++j) {
            for (int face = 0; face < 6; ++face) {
                double x[3], u = -1 + i / 20.0, v = -1 + j / 20.0;
                int a = face % 3, b = (a + 1) % 3, c = (a + 2) % 3;
                x[a] = (face < 3 ? 1 : -1) * h[a];
                x[b] = u * h[b];
                x[c] = v * h[c];
                ck_assert(seg_dist_ld(x, f.p0, f.p1) <= (long double)f.radius);
            }
        }
    }
    /* the long axis is x: the segment runs along it */
    ck_assert(fabs(f.p1[0] - f.p0[0]) > 0.1);
}
END_TEST

START_TEST(test_deterministic_and_bad_input)
{
    Rng r = {5};
    double pts[300], nan_pts[6] = {0, 0, 0, NAN, 0, 0};
    PlnCapsuleFit a, b;
    char err[256];
    for (int i = 0; i < 300; ++i) pts[i] = rng_uniform(&r, -1, 1);
    ck_assert_int_eq(pln_capsule_fit(pts, 100, &a, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_capsule_fit(pts, 100, &b, err, sizeof err), PLN_OK);
    ck_assert_mem_eq(&a, &b, sizeof a);
    ck_assert_int_eq(pln_capsule_fit(pts, 0, &a, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_capsule_fit(NULL, 3, &a, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_capsule_fit(nan_pts, 2, &a, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "point 1"));
}
END_TEST

Suite *pln_capfit_suite(void)
{
    Suite *s = suite_create("pln_capfit");
    TCase *tc = tcase_create("capfit");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_encloses_random_clouds);
    tcase_add_test(tc, test_tight_on_capsule_surfaces);
    tcase_add_test(tc, test_box_dense);
    tcase_add_test(tc, test_deterministic_and_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
