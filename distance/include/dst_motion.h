/* dst_motion.h — how distance/ sees motion: points moving along polynomials over a time
 * interval, with a rigorous enclosure radius.
 *
 * A moving point over [t0, t1] is p(t) = sum_k c[k] * s^k with the local parameter
 * s = (t - t0) / (t1 - t0) in [0, 1] (monomial basis in s, coefficients in metres), and
 * the true point lies within `err` metres of p(t) for every t in [t0, t1] (err = 0 for
 * an exactly polynomial motion; the planner's Taylor-model remainders go here).
 * Nothing here knows about robots or B-splines. */
#ifndef DST_MOTION_H
#define DST_MOTION_H

/* Highest polynomial degree of a motion (the thesis uses 5). */
#define DST_MAX_DEGREE 7

/* A point moving along a polynomial in s = (t - t0)/(t1 - t0), s in [0, 1]. */
typedef struct DstPolyPoint {
    int degree;                         /* 0 .. DST_MAX_DEGREE */
    double c[DST_MAX_DEGREE + 1][3];    /* c[k] multiplies s^k; metres */
    double err;                         /* enclosure radius, metres, >= 0 */
} DstPolyPoint;

/* A capsule (segment p0-p1 swept by a sphere of `radius`) whose two segment endpoints
 * move as polynomials over the same interval. */
typedef struct DstMovingCapsule {
    DstPolyPoint p0, p1;
    double radius;                      /* metres, > 0 */
} DstMovingCapsule;

#include "dst.h"

/* ---- operations on moving points (distance/dst_motion.c) ----
 * s is always the local parameter in [0, 1]; a "rate" is per unit s, i.e. metres per
 * unit s (divide by t1 - t0 for metres per second). None of these allocate. */

/* DST_OK when degree is in 0..DST_MAX_DEGREE, the coefficients up to degree are finite
 * and err is finite and >= 0; DST_INVALID_INPUT otherwise. p not NULL. */
DstStatus dst_poly_point_validate(const DstPolyPoint *p);

/* DST_OK when both endpoints validate and the radius is finite and > 0. */
DstStatus dst_moving_capsule_validate(const DstMovingCapsule *c);

/* Position p(s) of the polynomial (the enclosure err is not added), metres. */
void dst_poly_point_eval(const DstPolyPoint *p, double s, double out[3]);

/* Velocity dp/ds at s, metres per unit s (multiply by 1/(t1 - t0) for m/s). */
void dst_poly_point_velocity(const DstPolyPoint *p, double s, double out[3]);

/* Bernstein coefficients b[0..m] on [0, 1] of the scalar polynomial sum_k a[k] s^k of
 * degree m (0 <= m <= DST_MAX_DEGREE): p(s) = sum_j b[j] C(m,j) s^j (1-s)^(m-j). */
void dst_bernstein_from_monomial(int m, const double *a, double *b);

/* Bernstein coefficients out[0..m] of the same polynomial restricted to [u0, u1]
 * (0 <= u0 <= u1 <= 1), from its coefficients b on [0, 1], by de Casteljau
 * subdivision. out may alias b. */
void dst_bernstein_subdivide(int m, const double *b, double u0, double u1, double *out);

/* Rigorous range of the scalar polynomial sum_k a[k] s^k (degree m) over [u0, u1]
 * subset of [0, 1]: *lo <= p(s) <= *hi for every s there (Bernstein convex hull,
 * widened by DST_ROUND_REL for floating point). */
void dst_poly_range(int m, const double *a, double u0, double u1, double *lo, double *hi);

/* Rigorous bounds of n . dp/ds over s in [u0, u1] (metres per unit s); n need not be
 * unit. This is the motion bound of thesis eq. (3.3) along n, from the Bernstein
 * coefficients of the velocity polynomial (degree - 1). */
void dst_poly_point_rate_along(const DstPolyPoint *p, const double n[3], double u0, double u1,
                               double *lo, double *hi);

/* Rigorous upper bound of |dp/ds| over s in [u0, u1] (metres per unit s): the largest
 * norm of the vector Bernstein coefficients of the velocity, widened. */
double dst_poly_point_speed_bound(const DstPolyPoint *p, double u0, double u1);

/* Moving point of a rigid body between two poses: at s = 0 it is x0 + R0 p_local, at
 * s = 1 it is x1 + R1 p_local; in between the body translates linearly and rotates
 * about the fixed world axis of R1 R0^T at constant rate. cos/sin of the angle are
 * replaced by degree-`degree` Taylor polynomials about s = 1/2 (2 <= degree <=
 * DST_MAX_DEGREE) and the rigorous remainder goes into out->err; the endpoints match
 * the poses exactly up to rounding. R0, R1 row-major 3x3 rotations (|R R^T - I| <=
 * DST_ROTATION_TOL, det > 0), x0, x1 and p_local in metres. Returns DST_OK, or
 * DST_INVALID_INPUT (non-finite input, not a rotation, degree out of range), in which
 * case *out is zeroed. All pointers non-NULL. */
DstStatus dst_poly_point_from_poses(const double p_local[3], const double R0[9], const double x0[3],
                                    const double R1[9], const double x1[3], int degree,
                                    DstPolyPoint *out);

/* The capsule with segment endpoints a_local, b_local (body frame, metres) and the
 * given radius, moving rigidly between the two poses (see dst_poly_point_from_poses). */
DstStatus dst_moving_capsule_from_poses(const double a_local[3], const double b_local[3], double radius,
                                        const double R0[9], const double x0[3], const double R1[9],
                                        const double x1[3], int degree, DstMovingCapsule *out);

/* ---- moving rigid frames (meshes, convex hulls given in a body frame) ----
 *
 * A body frame moving over [t0, t1]: rotation R(s) = sum_k R[k] s^k (row-major 3x3
 * entries, dimensionless) and origin x(s) (a DstPolyPoint, metres), s = (t - t0)/(t1 - t0)
 * in [0, 1]. R(s) is the polynomial part only: the true rotation lies within spectral
 * norm R_err of it for every s, and the true origin within origin.err of x(s). A body
 * point l (metres, body frame) therefore lies within origin.err + R_err |l| of
 * x(s) + R(s) l. This is what pln_linkmotion_frame() produces (R_s, *R_err, origin).
 * R(s) need not be exactly orthogonal (it is a Taylor polynomial of a rotation). */
typedef struct DstMovingFrame {
    int degree;                          /* 0 .. DST_MAX_DEGREE, degree of R(s) */
    double R[DST_MAX_DEGREE + 1][9];     /* R[k] multiplies s^k; row-major */
    double R_err;                        /* spectral-norm bound of R_true(s) - R(s), >= 0 */
    DstPolyPoint origin;                 /* frame origin, world, metres (+ err) */
} DstMovingFrame;

/* DST_OK when both degrees are in range, every coefficient up to them finite, R_err and
 * origin.err finite and >= 0; DST_INVALID_INPUT otherwise. f not NULL. */
DstStatus dst_moving_frame_validate(const DstMovingFrame *f);

/* A frame that stays at the pose (R, x) (row-major rotation, metres) for the whole
 * interval: degree 0, R_err = 0, origin.err = 0. */
void dst_moving_frame_static(const double R[9], const double x[3], DstMovingFrame *out);

/* A frame moving rigidly between the poses (R0, x0) at s = 0 and (R1, x1) at s = 1 as
 * dst_poly_point_from_poses() moves its points (constant-rate rotation about a fixed
 * world axis, linear translation), with the rotation's Taylor remainder in R_err.
 * 2 <= degree <= DST_MAX_DEGREE. DST_OK or DST_INVALID_INPUT (*out zeroed). */
DstStatus dst_moving_frame_from_poses(const double R0[9], const double x0[3], const double R1[9],
                                      const double x1[3], int degree, DstMovingFrame *out);

/* Polynomial rotation R(s) (row-major, not orthonormalised) and origin x(s) at s. */
void dst_moving_frame_eval(const DstMovingFrame *f, double s, double R[9], double x[3]);

/* The polynomial world position x(s) + R(s) l of the body point l at s, metres. */
void dst_moving_frame_point(const DstMovingFrame *f, const double l[3], double s, double out[3]);

/* Rigorous upper bound, over s in [u0, u1] subset of [0, 1], of the spectral norm of
 * R'(s) (per unit s): the largest spectral norm of the Bernstein coefficient matrices of R'
 * on [u0, u1], each bounded by a verified eigenvalue of M^T M (falling back to the Frobenius
 * norm). Widened for rounding; 0 for a constant rotation. */
double dst_moving_frame_rot_speed_bound(const DstMovingFrame *f, double u0, double u1);

/* Rigorous upper bound, over s in [u0, u1] subset of [0, 1], of |d/ds (x(s) + R(s) l)|
 * for every body point with |l| <= r (metres per unit s; divide by t1 - t0 for m/s):
 * speed bound of the origin plus r times dst_moving_frame_rot_speed_bound (thesis eq. 4.7
 * with Bernstein bounds of v and of R' instead of omega x R). Widened for rounding. r >= 0. */
double dst_moving_frame_speed_bound(const DstMovingFrame *f, double r, double u0, double u1);

/* Enclosure radius of a body point with |l| <= r: origin.err + R_err r, widened. */
double dst_moving_frame_enclosure(const DstMovingFrame *f, double r);

#endif /* DST_MOTION_H */
