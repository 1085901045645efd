/* dst_capsule_internal.h — the segment-segment kernel shared by the static capsule
 * distance (dst_capsule.c) and the capsule MCD (dst_capsule_mcd.c). Only distance/ and
 * its tests include this file. Inputs are trusted (finite); no validation here. */
#ifndef DST_CAPSULE_INTERNAL_H
#define DST_CAPSULE_INTERNAL_H

#include <math.h>

#include "dst_tolerance.h"

/* Closest points of two segments and a certified lower bound of their distance. */
typedef struct DstSegPair {
    double s, t;        /* parameters of the closest points on P and Q, in [0, 1] */
    double cp[3], cq[3];/* closest points p0 + s (p1 - p0), q0 + t (q1 - q0), metres */
    double n[3];        /* unit normal from Q to P (fallback when the segments meet) */
    double dist;        /* |cp - cq|: a real distance between two segment points (>= true) */
    double lower;       /* certified lower bound of the true segment distance, >= 0 */
} DstSegPair;

static inline double dst_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* max/min without the NaN handling of fmax/fmin (often a libm call): inputs here are
 * finite by construction */
static inline double dst_maxd(double a, double b)
{
    return a > b ? a : b;
}

static inline double dst_mind(double a, double b)
{
    return a < b ? a : b;
}

static inline double dst_clamp01(double x)
{
    return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

/* A unit vector perpendicular to d (d need not be unit; d = 0 gives +z). */
static inline void dst_any_perpendicular(const double d[3], double out[3])
{
    double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);
    double e[3] = {0.0, 0.0, 0.0};
    /* cross with the axis along which d is smallest */
    if (ax <= ay && ax <= az) e[0] = 1.0;
    else if (ay <= az) e[1] = 1.0;
    else e[2] = 1.0;
    double c[3] = {d[1] * e[2] - d[2] * e[1], d[2] * e[0] - d[0] * e[2], d[0] * e[1] - d[1] * e[0]};
    double nc = sqrt(dst_dot3(c, c));
    if (nc > DST_MIN_DENOM) {
        out[0] = c[0] / nc, out[1] = c[1] / nc, out[2] = c[2] / nc;
    } else {
        out[0] = 0.0, out[1] = 0.0, out[2] = 1.0;
    }
}

/* Closest points of segments P = [p0, p1] and Q = [q0, q1] (thesis eq. 3.1 needs
 * delta(l_A, l_B)); docs/math/capsule_mcd.md [1]-[3]. `scale` >= max |coordinate|
 * of the inputs (metres) sets the rounding widening of the certified lower bound. */
static inline void dst_segment_pair_ex(const double p0[3], const double p1[3], const double q0[3],
                                       const double q1[3], double scale, int want_lower, DstSegPair *o)
{
    double d1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    double d2[3] = {q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2]};
    double r[3] = {p0[0] - q0[0], p0[1] - q0[1], p0[2] - q0[2]};
    double a = dst_dot3(d1, d1), e = dst_dot3(d2, d2), f = dst_dot3(d2, r);
    double s, t;
    int parallel = 0;
    if (a <= DST_MIN_DENOM && e <= DST_MIN_DENOM) {
        /* two points */
        s = 0.0, t = 0.0;
    } else if (a <= DST_MIN_DENOM) {
        /* P is a point: project it on Q */
        s = 0.0, t = dst_clamp01(f / e);
    } else {
        double c = dst_dot3(d1, r);
        if (e <= DST_MIN_DENOM) {
            /* Q is a point: project it on P */
            t = 0.0, s = dst_clamp01(-c / a);
        } else {
            /* reciprocals issued together, off the dependency chain of s and t */
            double inv_a = 1.0 / a, inv_e = 1.0 / e;
            double b = dst_dot3(d1, d2);
            /* a e - b^2 = |d1 x d2|^2 and b f - c e = -(d1 x d2).(r x d2) (Lagrange's
             * identity): the cross products keep the relative error near eps/sin(angle)
             * instead of eps/sin^2(angle) for nearly parallel segments */
            double x[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
            double denom = dst_dot3(x, x);
            if (denom > DST_PARALLEL_SIN2 * a * e) {
                /* the lines' closest point, clamped to P */
                double y[3] = {r[1] * d2[2] - r[2] * d2[1], r[2] * d2[0] - r[0] * d2[2], r[0] * d2[1] - r[1] * d2[0]};
                s = dst_clamp01(-dst_dot3(x, y) / denom);
            } else {
                /* parallel: Q projects on P's line to [u0, u1]; take the middle of the
                 * overlap with [0, 1], or the end of P nearest to Q */
                parallel = 1;
                double u0 = -c * inv_a, u1 = (b - c) * inv_a;
                double lo = dst_maxd(0.0, dst_mind(u0, u1)), hi = dst_mind(1.0, dst_maxd(u0, u1));
                if (lo <= hi) s = 0.5 * (lo + hi);
                else s = dst_maxd(u0, u1) < 0.0 ? 0.0 : 1.0;
            }
            /* the point of Q closest to P(s); if clamped, re-project on P (written
             * without a branch: the clamp is taken about half the time, unpredictably) */
            t = (b * s + f) * inv_e;
            double tc = dst_clamp01(t);
            double s_re = dst_clamp01((b * tc - c) * inv_a);
            s = tc != t ? s_re : s;
            t = tc;
        }
    }
    o->s = s, o->t = t;
    for (int i = 0; i < 3; ++i) {
        o->cp[i] = p0[i] + s * d1[i];
        o->cq[i] = q0[i] + t * d2[i];
    }
    double w[3] = {o->cp[0] - o->cq[0], o->cp[1] - o->cq[1], o->cp[2] - o->cq[2]};
    double dist = sqrt(dst_dot3(w, w));
    double tiny = DST_ROUND_REL * scale + DST_MIN_DENOM;
    o->dist = dist;
    if (dist > tiny) {
        double inv = 1.0 / dist;
        o->n[0] = w[0] * inv, o->n[1] = w[1] * inv, o->n[2] = w[2] * inv;
    } else {
        /* the segments meet: normal of the plane of both directions, oriented from Q's
         * midpoint to P's; parallel or degenerate: any perpendicular of a direction */
        double x[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
        double nx = sqrt(dst_dot3(x, x));
        if (!parallel && a > DST_MIN_DENOM && e > DST_MIN_DENOM && nx * nx > DST_PARALLEL_SIN2 * a * e) {
            o->n[0] = x[0] / nx, o->n[1] = x[1] / nx, o->n[2] = x[2] / nx;
        } else {
            dst_any_perpendicular(a >= e ? d1 : d2, o->n);
        }
        double m[3] = {0.5 * (p0[0] + p1[0] - q0[0] - q1[0]), 0.5 * (p0[1] + p1[1] - q0[1] - q1[1]),
                       0.5 * (p0[2] + p1[2] - q0[2] - q1[2])};
        if (dst_dot3(o->n, m) < 0.0) {
            o->n[0] = -o->n[0], o->n[1] = -o->n[1], o->n[2] = -o->n[2];
        }
    }
    /* certified lower bound: for any unit n, dist(P, Q) >= min_P n.x - max_Q n.y
     * (support functions of the segments; docs/math/capsule_mcd.md [4]) */
    if (!want_lower) {
        o->lower = 0.0; /* trivial bound: the caller does not need a sharp one */
        return;
    }
    double sp = dst_mind(dst_dot3(o->n, p0), dst_dot3(o->n, p1));
    double sq = dst_maxd(dst_dot3(o->n, q0), dst_dot3(o->n, q1));
    o->lower = dst_maxd(0.0, sp - sq - tiny);
}

/* dst_segment_pair_ex with the certified lower bound. */
static inline void dst_segment_pair(const double p0[3], const double p1[3], const double q0[3],
                                    const double q1[3], double scale, DstSegPair *o)
{
    dst_segment_pair_ex(p0, p1, q0, q1, scale, 1, o);
}

#endif /* DST_CAPSULE_INTERNAL_H */
