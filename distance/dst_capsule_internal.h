/* dst_capsule_internal.h — the segment-segment kernel shared by the static capsule
 * distance (dst_capsule.c) and the capsule MCD (dst_capsule_mcd.c). Only distance/ and
 * its tests include this file. Inputs are trusted (finite); no validation here. */
#ifndef DST_CAPSULE_INTERNAL_H
#define DST_CAPSULE_INTERNAL_H

#include <math.h>
#include <stddef.h>

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

/* Rarely taken branches of the segment kernel stay out of its straight-line code; the
 * kernel itself is inlined into each caller, so that the MCD gets a copy without the
 * lower bound for its golden-section search. */
#if defined(__GNUC__)
#define DST_CAPSULE_COLD __attribute__((cold, noinline, unused))
#define DST_CAPSULE_LIKELY(x) __builtin_expect(!!(x), 1)
#define DST_CAPSULE_INLINE inline __attribute__((always_inline))
#else
#define DST_CAPSULE_COLD
#define DST_CAPSULE_LIKELY(x) (x)
#define DST_CAPSULE_INLINE inline
#endif

/* clamp to [0, 1] (inputs finite) */
static inline double dst_seg_clamp01(double x)
{
    return dst_mind(dst_maxd(x, 0.0), 1.0);
}

/* Segment parameters when a segment is a point or the two are parallel,
 * docs/math/capsule_mcd.md [1], [3]. a = d1.d1, e = d2.d2, b = d1.d2, c = d1.r, f = d2.r.
 * Returns 1 for the parallel case (the normal fallback needs it), else 0. */
static DST_CAPSULE_COLD int dst_segment_params_special(double a, double b, double c, double e, double f,
                                                        double *s_out, double *t_out)
{
    double s, t;
    int parallel = 0;
    if (a <= DST_MIN_DENOM && e <= DST_MIN_DENOM) {
        /* two points */
        s = 0.0, t = 0.0;
    } else if (a <= DST_MIN_DENOM) {
        /* P is a point: project it on Q */
        s = 0.0, t = dst_clamp01(f / e);
    } else if (e <= DST_MIN_DENOM) {
        /* Q is a point: project it on P */
        t = 0.0, s = dst_clamp01(-c / a);
    } else {
        /* parallel: Q projects on P's line to [u0, u1]; take the middle of the overlap
         * with [0, 1], or the end of P nearest to Q; then the point of Q closest to P(s),
         * re-projected on P if clamped */
        parallel = 1;
        double u0 = -c / a, u1 = (b - c) / a;
        double lo = dst_maxd(0.0, dst_mind(u0, u1)), hi = dst_mind(1.0, dst_maxd(u0, u1));
        if (lo <= hi) s = 0.5 * (lo + hi);
        else s = dst_maxd(u0, u1) < 0.0 ? 0.0 : 1.0;
        t = (b * s + f) / e;
        double tc = dst_clamp01(t);
        if (tc != t) s = dst_clamp01((b * tc - c) / a);
        t = tc;
    }
    *s_out = s, *t_out = t;
    return parallel;
}

/* Normal when the closest points coincide (the segments meet): normal of the plane of both
 * directions, oriented from Q's midpoint to P's; parallel or degenerate: any perpendicular
 * of the longer direction (docs/math/capsule_mcd.md sec. 1). */
static DST_CAPSULE_COLD void dst_segment_normal_meet(const double p0[3], const double p1[3], const double q0[3],
                                                     const double q1[3], const double d1[3], const double d2[3],
                                                     double a, double e, int parallel, double n[3])
{
    double x[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
    double nx = sqrt(dst_dot3(x, x));
    if (!parallel && a > DST_MIN_DENOM && e > DST_MIN_DENOM && nx * nx > DST_PARALLEL_SIN2 * a * e) {
        n[0] = x[0] / nx, n[1] = x[1] / nx, n[2] = x[2] / nx;
    } else {
        dst_any_perpendicular(a >= e ? d1 : d2, n);
    }
    double m[3] = {0.5 * (p0[0] + p1[0] - q0[0] - q1[0]), 0.5 * (p0[1] + p1[1] - q0[1] - q1[1]),
                   0.5 * (p0[2] + p1[2] - q0[2] - q1[2])};
    if (dst_dot3(n, m) < 0.0) {
        n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
    }
}

/* Closest points of segments P = [p0, p1] and Q = [q0, q1] (thesis eq. 3.1 needs
 * delta(l_A, l_B)); docs/math/capsule_mcd.md [1]-[4]. `scale` >= max |coordinate|
 * of the inputs (metres) sets the rounding widening of the certified lower bound.
 * Nullable: sep4 (receives the four pair terms of that bound, [10a]; needs want_lower).
 * The common case (neither segment a point, not parallel, closest points apart) runs
 * inline without calls (the rare cases are out-of-line functions), the reciprocals of
 * a and e are issued off the critical path, and the lower bound's dot products run
 * beside the square root. */
static DST_CAPSULE_INLINE void dst_segment_pair_ex(const double p0[3], const double p1[3], const double q0[3],
                                                   const double q1[3], double scale, int want_lower,
                                                   DstSegPair *o, double *sep4)
{
    double d1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    double d2[3] = {q1[0] - q0[0], q1[1] - q0[1], q1[2] - q0[2]};
    double r[3] = {p0[0] - q0[0], p0[1] - q0[1], p0[2] - q0[2]};
    double a = dst_dot3(d1, d1), e = dst_dot3(d2, d2), b = dst_dot3(d1, d2);
    double c = dst_dot3(d1, r), f = dst_dot3(d2, r);
    /* a e - b^2 = |d1 x d2|^2 and b f - c e = -(d1 x d2).(r x d2) (Lagrange's identity,
     * [2]): the cross products keep the relative error near eps/sin(angle) instead of
     * eps/sin^2(angle) for nearly parallel segments */
    double x[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2], d1[0] * d2[1] - d1[1] * d2[0]};
    double y[3] = {r[1] * d2[2] - r[2] * d2[1], r[2] * d2[0] - r[0] * d2[2], r[0] * d2[1] - r[1] * d2[0]};
    double denom = dst_dot3(x, x);
    double s, t;
    int parallel = 0;
    if (DST_CAPSULE_LIKELY(a > DST_MIN_DENOM && e > DST_MIN_DENOM && denom > DST_PARALLEL_SIN2 * a * e)) {
        /* reciprocals issued together, off the dependency chain of s and t */
        double inv_a = 1.0 / a, inv_e = 1.0 / e;
        /* the lines' closest point, clamped to P; the point of Q closest to P(s); if that
         * is clamped, P(s) re-projected on P */
        s = dst_seg_clamp01(-dst_dot3(x, y) / denom);
        double tl = (b * s + f) * inv_e;
        t = dst_seg_clamp01(tl);
        double s_re = dst_seg_clamp01((b * t - c) * inv_a);
        s = t != tl ? s_re : s;
    } else {
        parallel = dst_segment_params_special(a, b, c, e, f, &s, &t);
    }
    o->s = s, o->t = t;
    double w[3];
    for (int i = 0; i < 3; ++i) {
        o->cp[i] = p0[i] + s * d1[i];
        o->cq[i] = q0[i] + t * d2[i];
        w[i] = o->cp[i] - o->cq[i];
    }
    /* certified lower bound [4] with n = w/|w|: min_i n.p_i - max_j n.q_j
     * = (w.r + min(0, w.d1) - max(0, w.d2)) / |w|; the three dot products do not wait
     * for the square root */
    double wr = dst_dot3(w, r), wd1 = dst_dot3(w, d1), wd2 = dst_dot3(w, d2);
    double dist = sqrt(dst_dot3(w, w));
    double tiny = DST_ROUND_REL * scale + DST_MIN_DENOM;
    o->dist = dist;
    double sep, g0, g1, g2, g3;
    if (DST_CAPSULE_LIKELY(dist > tiny)) {
        double inv = 1.0 / dist;
        o->n[0] = w[0] * inv, o->n[1] = w[1] * inv, o->n[2] = w[2] * inv;
        sep = (wr + dst_mind(wd1, 0.0) - dst_maxd(wd2, 0.0)) * inv;
        g0 = wr * inv, g1 = (wr - wd2) * inv, g2 = (wr + wd1) * inv, g3 = ((wr + wd1) - wd2) * inv;
    } else {
        dst_segment_normal_meet(p0, p1, q0, q1, d1, d2, a, e, parallel, o->n);
        double nr = dst_dot3(o->n, r), nd1 = dst_dot3(o->n, d1), nd2 = dst_dot3(o->n, d2);
        sep = nr + dst_mind(0.0, nd1) - dst_maxd(0.0, nd2);
        g0 = nr, g1 = nr - nd2, g2 = nr + nd1, g3 = (nr + nd1) - nd2;
    }
    /* the widening `tiny` covers the rounding of r, d1, d2, of the dot products and of
     * 1/|w| (docs/math/capsule_mcd.md sec. 5); without want_lower the trivial bound 0 */
    o->lower = want_lower ? dst_maxd(sep - tiny, 0.0) : 0.0;
    /* pair by pair (nullable): certified lower bounds of n.(p_i - q_j), k = 2 i + j, the
     * terms of the minimum [4]; the advancement's step [10a] uses them */
    if (sep4 != NULL) {
        sep4[0] = g0 - tiny, sep4[1] = g1 - tiny, sep4[2] = g2 - tiny, sep4[3] = g3 - tiny;
    }
}

/* dst_segment_pair_ex with the certified lower bound. */
static inline void dst_segment_pair(const double p0[3], const double p1[3], const double q0[3],
                                    const double q1[3], double scale, DstSegPair *o)
{
    dst_segment_pair_ex(p0, p1, q0, q1, scale, 1, o, NULL);
}

#endif /* DST_CAPSULE_INTERNAL_H */
