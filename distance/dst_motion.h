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

#endif /* DST_MOTION_H */
