/* check_dst_motion.c — tests of distance/dst_motion.c: evaluation and velocity of
 * polynomial points (velocity against central finite differences), Bernstein
 * conversion and subdivision, rigorous ranges and motion bounds (sampled values never
 * leave the bound), the rigid-pose helper (endpoints match the poses; in between the
 * exact rigid motion stays within err) and input validation. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "dst_capsule_testgen.h"
#include "dst_motion.h"

#define MOT_RANDOM_POLYS (TG_ASAN ? 600 : 3000)
#define MOT_SAMPLES 200
/* agreement of two evaluations of the same polynomial, relative to its magnitude */
#define MOT_EVAL_REL_TOL 1e-12
/* central differences: step in s and tolerance relative to the magnitude */
#define MOT_FD_STEP 1e-5
#define MOT_FD_REL_TOL 1e-7
/* rigid-pose endpoints: match the poses up to rounding, metres (coordinates ~ 1 m) */
#define MOT_POSE_TOL 1e-12
/* the enclosure must not be absurdly loose either: err below this for |theta| <= 1.5 rad */
#define MOT_ERR_SMALL 1e-5
/* on a window 1e-3 of the interval the Bernstein range may exceed the end values' spread by this */
#define MOT_TIGHT_TOL 1e-4

static void random_poly(TgRng *r, int degree, double mag, DstPolyPoint *p)
{
    memset(p, 0, sizeof *p);
    p->degree = degree;
    for (int k = 0; k <= degree; ++k) {
        for (int i = 0; i < 3; ++i) p->c[k][i] = tg_uniform(r, -mag, mag);
    }
}

static double poly_mag(const DstPolyPoint *p)
{
    double m = 0.0;
    for (int k = 0; k <= p->degree; ++k) {
        for (int i = 0; i < 3; ++i) m += k * fabs(p->c[k][i]) + fabs(p->c[k][i]);
    }
    return m;
}

START_TEST(test_eval_and_velocity_fd)
{
    TgRng r = {1};
    for (int n = 0; n < MOT_RANDOM_POLYS; ++n) {
        DstPolyPoint p;
        random_poly(&r, n % (DST_MAX_DEGREE + 1), 2.0, &p);
        double mag = poly_mag(&p);
        for (int k = 0; k < 5; ++k) {
            double s = tg_uniform(&r, MOT_FD_STEP, 1.0 - MOT_FD_STEP);
            double x[3], v[3], xp[3], xm[3];
            dst_poly_point_eval(&p, s, x);
            dst_poly_point_velocity(&p, s, v);
            dst_poly_point_eval(&p, s + MOT_FD_STEP, xp);
            dst_poly_point_eval(&p, s - MOT_FD_STEP, xm);
            for (int i = 0; i < 3; ++i) {
                /* naive power sum as the independent evaluation */
                double ref = 0.0, sk = 1.0;
                for (int j = 0; j <= p.degree; ++j, sk *= s) ref += p.c[j][i] * sk;
                ck_assert(fabs(x[i] - ref) <= MOT_EVAL_REL_TOL * mag);
                double fd = (xp[i] - xm[i]) / (2.0 * MOT_FD_STEP);
                ck_assert_msg(fabs(fd - v[i]) <= MOT_FD_REL_TOL * mag, "velocity %.12g vs fd %.12g", v[i], fd);
            }
        }
    }
}
END_TEST

/* sum_j b_j C(m,j) u^j (1-u)^(m-j) */
static double bern_eval(int m, const double *b, double u)
{
    static const double C[8][8] = {{1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}, {1, 5, 10, 10, 5, 1},
                                   {1, 6, 15, 20, 15, 6, 1}, {1, 7, 21, 35, 35, 21, 7, 1}};
    double acc = 0.0;
    for (int j = 0; j <= m; ++j) acc += b[j] * C[m][j] * pow(u, j) * pow(1.0 - u, m - j);
    return acc;
}

static double mono_eval(int m, const double *a, double s)
{
    double acc = 0.0;
    for (int k = m; k >= 0; --k) acc = acc * s + a[k];
    return acc;
}

START_TEST(test_bernstein_conversion_and_subdivision)
{
    TgRng r = {2};
    for (int n = 0; n < MOT_RANDOM_POLYS; ++n) {
        int m = n % (DST_MAX_DEGREE + 1);
        double a[DST_MAX_DEGREE + 1], b[DST_MAX_DEGREE + 1], sub[DST_MAX_DEGREE + 1], mag = 0.0;
        for (int k = 0; k <= m; ++k) {
            a[k] = tg_uniform(&r, -3.0, 3.0);
            mag += fabs(a[k]);
        }
        dst_bernstein_from_monomial(m, a, b);
        double u0 = tg_uniform(&r, 0.0, 1.0), u1 = tg_uniform(&r, 0.0, 1.0);
        if (u0 > u1) {
            double t = u0;
            u0 = u1, u1 = t;
        }
        if (n % 5 == 0) u0 = 0.0;
        if (n % 7 == 0) u1 = 1.0;
        dst_bernstein_subdivide(m, b, u0, u1, sub);
        for (int k = 0; k <= 10; ++k) {
            double u = k / 10.0;
            ck_assert(fabs(bern_eval(m, b, u) - mono_eval(m, a, u)) <= MOT_EVAL_REL_TOL * mag);
            double s = u0 + (u1 - u0) * u;
            ck_assert(fabs(bern_eval(m, sub, u) - mono_eval(m, a, s)) <= MOT_EVAL_REL_TOL * mag);
        }
        /* in place works too */
        dst_bernstein_subdivide(m, b, u0, u1, b);
        for (int j = 0; j <= m; ++j) ck_assert(b[j] == sub[j]);
    }
}
END_TEST

/* sampled values never leave the rigorous range, and the range tightens on short intervals */
START_TEST(test_range_contains_samples)
{
    TgRng r = {3};
    for (int n = 0; n < MOT_RANDOM_POLYS; ++n) {
        int m = 1 + n % DST_MAX_DEGREE;
        double a[DST_MAX_DEGREE + 1];
        for (int k = 0; k <= m; ++k) a[k] = tg_uniform(&r, -3.0, 3.0);
        double u0 = tg_uniform(&r, 0.0, 1.0), w = tg_uniform(&r, 0.0, 1.0 - u0);
        double lo, hi;
        dst_poly_range(m, a, u0, u0 + w, &lo, &hi);
        double smin = INFINITY, smax = -INFINITY;
        for (int k = 0; k <= MOT_SAMPLES; ++k) {
            double v = mono_eval(m, a, u0 + w * k / MOT_SAMPLES);
            ck_assert_msg(v >= lo && v <= hi, "sample %.17g outside [%.17g, %.17g]", v, lo, hi);
            smin = fmin(smin, v), smax = fmax(smax, v);
        }
        /* Bernstein coefficients converge quadratically: on a 1e-3 interval the range is tight */
        dst_poly_range(m, a, u0, u0 + 1e-3 * w, &lo, &hi);
        double v0 = mono_eval(m, a, u0), v1 = mono_eval(m, a, u0 + 1e-3 * w);
        ck_assert(lo <= fmin(v0, v1) && hi >= fmax(v0, v1));
        ck_assert(hi - lo <= fabs(v1 - v0) + MOT_TIGHT_TOL);
    }
}
END_TEST

/* the motion bound along n: sampled n . p'(s) never leaves [lo, hi]; speed never exceeds the bound */
START_TEST(test_motion_bound_contains_sampled_speeds)
{
    TgRng r = {4};
    for (int n = 0; n < MOT_RANDOM_POLYS; ++n) {
        DstPolyPoint p;
        random_poly(&r, n % (DST_MAX_DEGREE + 1), 2.0, &p);
        double dir[3];
        tg_unit(&r, dir);
        double scale = tg_uniform(&r, 0.1, 3.0);
        for (int i = 0; i < 3; ++i) dir[i] *= scale; /* n need not be unit */
        double u0 = tg_uniform(&r, 0.0, 1.0), u1 = tg_uniform(&r, u0, 1.0);
        double lo, hi;
        dst_poly_point_rate_along(&p, dir, u0, u1, &lo, &hi);
        double vmax = dst_poly_point_speed_bound(&p, u0, u1);
        ck_assert(lo <= hi && isfinite(lo) && isfinite(hi) && isfinite(vmax));
        for (int k = 0; k <= MOT_SAMPLES; ++k) {
            double v[3];
            dst_poly_point_velocity(&p, u0 + (u1 - u0) * k / MOT_SAMPLES, v);
            double along = dir[0] * v[0] + dir[1] * v[1] + dir[2] * v[2];
            ck_assert_msg(along >= lo && along <= hi, "rate %.17g outside [%.17g, %.17g]", along, lo, hi);
            ck_assert(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) <= vmax);
        }
    }
}
END_TEST

/* realistic rigid motions: the same property on Taylor-model-like polynomials */
START_TEST(test_motion_bound_rigid_motions)
{
    TgRng r = {5};
    for (int n = 0; n < MOT_RANDOM_POLYS; ++n) {
        DstMovingCapsule a, b;
        tg_realistic_motion(&r, 0.5, 7, &a, &b);
        const DstPolyPoint *pts[4] = {&a.p0, &a.p1, &b.p0, &b.p1};
        double dir[3];
        tg_unit(&r, dir);
        for (int q = 0; q < 4; ++q) {
            double lo, hi, vmax = dst_poly_point_speed_bound(pts[q], 0.0, 1.0);
            dst_poly_point_rate_along(pts[q], dir, 0.0, 1.0, &lo, &hi);
            for (int k = 0; k <= MOT_SAMPLES; ++k) {
                double v[3];
                dst_poly_point_velocity(pts[q], (double)k / MOT_SAMPLES, v);
                double along = dir[0] * v[0] + dir[1] * v[1] + dir[2] * v[2];
                ck_assert(along >= lo && along <= hi);
                ck_assert(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) <= vmax);
            }
        }
    }
}
END_TEST

static void mat_vec(const double R[9], const double v[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}

START_TEST(test_rigid_pose_endpoints_and_enclosure)
{
    TgRng r = {6};
    for (int n = 0; n < MOT_RANDOM_POLYS; ++n) {
        double k0[3], k[3], R0[9], Rr[9], R1[9], x0[3], x1[3], pl[3], ql[3];
        tg_unit(&r, k0);
        tg_rot(k0, tg_uniform(&r, -3.14159, 3.14159), R0);
        tg_unit(&r, k);
        /* include rotations near pi, the hard case of the axis extraction */
        double theta = n % 10 == 0 ? 3.14159265358979 - tg_uniform(&r, 0.0, 1e-6) : tg_uniform(&r, 0.0, 1.5);
        tg_rot(k, theta, Rr);
        tg_matmul(Rr, R0, R1);
        for (int i = 0; i < 3; ++i) {
            x0[i] = tg_uniform(&r, -1.0, 1.0);
            x1[i] = x0[i] + tg_uniform(&r, -1.0, 1.0);
            pl[i] = tg_uniform(&r, -0.3, 0.3);
            ql[i] = tg_uniform(&r, -0.3, 0.3);
        }
        int degree = 2 + n % (DST_MAX_DEGREE - 1);
        DstMovingCapsule c;
        ck_assert_int_eq(dst_moving_capsule_from_poses(pl, ql, 0.05, R0, x0, R1, x1, degree, &c), DST_OK);
        ck_assert_int_eq(dst_moving_capsule_validate(&c), DST_OK);
        const DstPolyPoint *pts[2] = {&c.p0, &c.p1};
        const double *loc[2] = {pl, ql};
        for (int q = 0; q < 2; ++q) {
            double e0[3], e1[3], want0[3], want1[3];
            dst_poly_point_eval(pts[q], 0.0, e0);
            dst_poly_point_eval(pts[q], 1.0, e1);
            mat_vec(R0, loc[q], want0);
            mat_vec(R1, loc[q], want1);
            for (int i = 0; i < 3; ++i) {
                ck_assert_msg(fabs(e0[i] - (want0[i] + x0[i])) <= MOT_POSE_TOL, "start %.17g vs %.17g", e0[i],
                              want0[i] + x0[i]);
                ck_assert_msg(fabs(e1[i] - (want1[i] + x1[i])) <= MOT_POSE_TOL, "end %.17g vs %.17g", e1[i],
                              want1[i] + x1[i]);
            }
            /* in between: the exact motion x(s) + Rot(k, theta s) R0 p stays within err */
            for (int j = 1; j < 20; ++j) {
                double s = j / 20.0, Rs[9], Rt[9], want[3], got[3];
                tg_rot(k, theta * s, Rs);
                tg_matmul(Rs, R0, Rt);
                mat_vec(Rt, loc[q], want);
                dst_poly_point_eval(pts[q], s, got);
                double d2 = 0.0;
                for (int i = 0; i < 3; ++i) {
                    double w = got[i] - (want[i] + x0[i] + s * (x1[i] - x0[i]));
                    d2 += w * w;
                }
                ck_assert_msg(sqrt(d2) <= pts[q]->err, "deviation %.3g > err %.3g (degree %d theta %.3f)", sqrt(d2),
                              pts[q]->err, degree, theta);
            }
            if (degree == DST_MAX_DEGREE && theta <= 1.5) ck_assert(pts[q]->err <= MOT_ERR_SMALL);
        }
    }
}
END_TEST

START_TEST(test_rigid_pose_pure_translation_is_linear)
{
    double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, x0[3] = {0, 0, 0}, x1[3] = {1, 2, 3}, p[3] = {0.1, 0.2, 0.3};
    DstPolyPoint q;
    ck_assert_int_eq(dst_poly_point_from_poses(p, R, x0, R, x1, 7, &q), DST_OK);
    ck_assert_int_eq(q.degree, 1);
    ck_assert(q.err <= MOT_POSE_TOL);
}
END_TEST

START_TEST(test_invalid_input)
{
    DstPolyPoint p;
    memset(&p, 0, sizeof p);
    p.degree = 2;
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_OK);
    p.degree = DST_MAX_DEGREE + 1;
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_INVALID_INPUT);
    p.degree = -1;
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_INVALID_INPUT);
    p.degree = 2;
    p.c[2][1] = NAN;
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_INVALID_INPUT);
    p.c[2][1] = 0.0;
    p.c[3][1] = NAN; /* above the degree: ignored */
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_OK);
    p.err = -1e-9;
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_INVALID_INPUT);
    p.err = INFINITY;
    ck_assert_int_eq(dst_poly_point_validate(&p), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_poly_point_validate(NULL), DST_INVALID_INPUT);

    DstMovingCapsule c;
    memset(&c, 0, sizeof c);
    c.radius = 0.0;
    ck_assert_int_eq(dst_moving_capsule_validate(&c), DST_INVALID_INPUT);
    c.radius = NAN;
    ck_assert_int_eq(dst_moving_capsule_validate(&c), DST_INVALID_INPUT);
    c.radius = 0.1;
    ck_assert_int_eq(dst_moving_capsule_validate(&c), DST_OK);

    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, S[9] = {2, 0, 0, 0, 1, 0, 0, 0, 1};
    double M[9] = {-1, 0, 0, 0, 1, 0, 0, 0, 1}; /* a reflection */
    double z[3] = {0, 0, 0}, bad[3] = {0, NAN, 0};
    DstPolyPoint q;
    ck_assert_int_eq(dst_poly_point_from_poses(z, I, z, S, z, 5, &q), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_poly_point_from_poses(z, I, z, M, z, 5, &q), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_poly_point_from_poses(bad, I, z, I, z, 5, &q), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_poly_point_from_poses(z, I, bad, I, z, 5, &q), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_poly_point_from_poses(z, I, z, I, z, 1, &q), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_poly_point_from_poses(z, I, z, I, z, DST_MAX_DEGREE + 1, &q), DST_INVALID_INPUT);
    ck_assert_int_eq(q.degree, 0);
    ck_assert(q.err == 0.0);
    ck_assert_int_eq(dst_moving_capsule_from_poses(z, z, -1.0, I, z, I, z, 5, &c), DST_INVALID_INPUT);
}
END_TEST

/* derivative of x(s) + R(s) l by the polynomials' derivatives (independent of the bound) */
static void frame_point_rate(const DstMovingFrame *f, const double l[3], double s, double out[3])
{
    double v[3], Rd[9] = {0};
    dst_poly_point_velocity(&f->origin, s, v);
    for (int e = 0; e < 9; ++e) {
        double acc = 0.0;
        for (int k = f->degree; k >= 1; --k) acc = acc * s + k * f->R[k][e];
        Rd[e] = acc;
    }
    for (int i = 0; i < 3; ++i) out[i] = v[i] + Rd[3 * i] * l[0] + Rd[3 * i + 1] * l[1] + Rd[3 * i + 2] * l[2];
}

START_TEST(test_frame_from_poses_enclosure_and_speed)
{
    TgRng r = {7};
    int frames = MOT_RANDOM_POLYS / 6;
    for (int n = 0; n < frames; ++n) {
        double k0[3], k[3], R0[9], Rr[9], R1[9], x0[3], x1[3];
        tg_unit(&r, k0);
        tg_rot(k0, tg_uniform(&r, -3.14159, 3.14159), R0);
        tg_unit(&r, k);
        double theta = tg_uniform(&r, 0.0, 2.0);
        tg_rot(k, theta, Rr);
        tg_matmul(Rr, R0, R1);
        for (int i = 0; i < 3; ++i) {
            x0[i] = tg_uniform(&r, -1.0, 1.0);
            x1[i] = x0[i] + tg_uniform(&r, -1.0, 1.0);
        }
        int degree = 2 + n % (DST_MAX_DEGREE - 1);
        DstMovingFrame f;
        ck_assert_int_eq(dst_moving_frame_from_poses(R0, x0, R1, x1, degree, &f), DST_OK);
        ck_assert_int_eq(dst_moving_frame_validate(&f), DST_OK);
        double rad = tg_uniform(&r, 0.05, 0.5);
        double enc = dst_moving_frame_enclosure(&f, rad);
        double u0 = tg_uniform(&r, 0.0, 1.0), u1 = tg_uniform(&r, 0.0, 1.0);
        if (u0 > u1) {
            double t = u0;
            u0 = u1, u1 = t;
        }
        double vmax = dst_moving_frame_speed_bound(&f, rad, u0, u1);
        for (int q = 0; q < 6; ++q) {
            double l[3], dir[3];
            tg_unit(&r, dir);
            double len = q == 0 ? rad : tg_uniform(&r, 0.0, rad);
            for (int i = 0; i < 3; ++i) l[i] = dir[i] * len;
            for (int j = 0; j <= 20; ++j) {
                /* the exact rigid motion stays within the enclosure */
                double s = j / 20.0, Rs[9], Rt[9], want[3], got[3], d2 = 0.0;
                tg_rot(k, theta * s, Rs);
                tg_matmul(Rs, R0, Rt);
                mat_vec(Rt, l, want);
                dst_moving_frame_point(&f, l, s, got);
                for (int i = 0; i < 3; ++i) {
                    double w = got[i] - (want[i] + x0[i] + s * (x1[i] - x0[i]));
                    d2 += w * w;
                }
                ck_assert_msg(sqrt(d2) <= enc, "deviation %.3g > enclosure %.3g", sqrt(d2), enc);
                /* the polynomial point's speed stays below the bound on [u0, u1] */
                double su = u0 + (u1 - u0) * s, v[3];
                frame_point_rate(&f, l, su, v);
                ck_assert_msg(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) <= vmax, "speed %.17g > bound %.17g",
                              sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), vmax);
            }
        }
    }
}
END_TEST

START_TEST(test_frame_speed_bound_random_polynomials)
{
    TgRng r = {8};
    for (int n = 0; n < MOT_RANDOM_POLYS / 6; ++n) {
        DstMovingFrame f;
        memset(&f, 0, sizeof f);
        f.degree = n % (DST_MAX_DEGREE + 1);
        for (int kk = 0; kk <= f.degree; ++kk) {
            for (int e = 0; e < 9; ++e) f.R[kk][e] = tg_uniform(&r, -1.0, 1.0);
        }
        random_poly(&r, n % (DST_MAX_DEGREE + 1), 1.0, &f.origin);
        ck_assert_int_eq(dst_moving_frame_validate(&f), DST_OK);
        double rad = tg_uniform(&r, 0.0, 2.0);
        double u0 = tg_uniform(&r, 0.0, 0.5), u1 = u0 + tg_uniform(&r, 0.0, 0.5);
        double vmax = dst_moving_frame_speed_bound(&f, rad, u0, u1);
        for (int q = 0; q < 8; ++q) {
            double l[3], dir[3];
            tg_unit(&r, dir);
            for (int i = 0; i < 3; ++i) l[i] = dir[i] * rad;
            for (int j = 0; j <= MOT_SAMPLES / 10; ++j) {
                double v[3], su = u0 + (u1 - u0) * j / (MOT_SAMPLES / 10.0);
                frame_point_rate(&f, l, su, v);
                ck_assert(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) <= vmax);
            }
        }
    }
    /* a static frame does not move; bad input is refused */
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, x[3] = {1, 2, 3};
    DstMovingFrame f;
    dst_moving_frame_static(I, x, &f);
    ck_assert(dst_moving_frame_speed_bound(&f, 1.0, 0.0, 1.0) == 0.0);
    ck_assert(dst_moving_frame_enclosure(&f, 1.0) == 0.0);
    f.R_err = -1.0;
    ck_assert_int_eq(dst_moving_frame_validate(&f), DST_INVALID_INPUT);
    f.R_err = 0.0;
    f.R[0][4] = NAN;
    ck_assert_int_eq(dst_moving_frame_validate(&f), DST_INVALID_INPUT);
    double bad[9] = {2, 0, 0, 0, 1, 0, 0, 0, 1};
    ck_assert_int_eq(dst_moving_frame_from_poses(bad, x, I, x, 5, &f), DST_INVALID_INPUT);
}
END_TEST

Suite *dst_motion_suite(void)
{
    Suite *s = suite_create("dst_motion");
    TCase *tc = tcase_create("evaluation");
    tcase_add_test(tc, test_eval_and_velocity_fd);
    suite_add_tcase(s, tc);
    tc = tcase_create("bernstein");
    tcase_add_test(tc, test_bernstein_conversion_and_subdivision);
    tcase_add_test(tc, test_range_contains_samples);
    suite_add_tcase(s, tc);
    tc = tcase_create("motion_bound");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_motion_bound_contains_sampled_speeds);
    tcase_add_test(tc, test_motion_bound_rigid_motions);
    suite_add_tcase(s, tc);
    tc = tcase_create("rigid_pose");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rigid_pose_endpoints_and_enclosure);
    tcase_add_test(tc, test_rigid_pose_pure_translation_is_linear);
    suite_add_tcase(s, tc);
    tc = tcase_create("moving_frame");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_frame_from_poses_enclosure_and_speed);
    tcase_add_test(tc, test_frame_speed_bound_random_polynomials);
    suite_add_tcase(s, tc);
    tc = tcase_create("invalid_input");
    tcase_add_test(tc, test_invalid_input);
    suite_add_tcase(s, tc);
    return s;
}
