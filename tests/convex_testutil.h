/* convex_testutil.h — independent references for the convex-shape suites (check_dst_convex,
 * check_dst_gjk, check_dst_epa, check_dst_hull): a local RNG, random rotations, point-
 * segment / segment-segment / point-triangle distances, brute-force polytope distance
 * (vertex-face and edge-edge pairs) and separating-axis penetration depth. None of it
 * calls the code under test. Header-only, test code only. */
#ifndef CONVEX_TESTUTIL_H
#define CONVEX_TESTUTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include "dst_convex.h"

#define T_PI 3.14159265358979323846

/* ---------------------------------------------------------------- RNG (xorshift64*) */
typedef struct TRng {
    uint64_t s;
} TRng;

static inline TRng trng_make(uint64_t seed)
{
    TRng r;
    r.s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (r.s == 0) r.s = 1;
    return r;
}

static inline double trng_uniform(TRng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double trng_range(TRng *r, double lo, double hi)
{
    return lo + (hi - lo) * trng_uniform(r);
}

/* ---------------------------------------------------------------- small vectors */
static inline double tv_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void tv_sub(double o[3], const double a[3], const double b[3])
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}
static inline void tv_cross(double o[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
           z = a[0] * b[1] - a[1] * b[0];
    o[0] = x;
    o[1] = y;
    o[2] = z;
}
static inline double tv_norm(const double a[3])
{
    return sqrt(tv_dot(a, a));
}
static inline double tv_dist(const double a[3], const double b[3])
{
    double d[3];
    tv_sub(d, a, b);
    return tv_norm(d);
}
/* o = R x + t (R row-major) */
static inline void tv_xform(double o[3], const double R[9], const double t[3], const double x[3])
{
    double y[3];
    for (int i = 0; i < 3; ++i)
        y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2] + t[i];
    o[0] = y[0];
    o[1] = y[1];
    o[2] = y[2];
}

/* rotation matrix (row-major) of a uniformly random unit quaternion */
static inline void trng_rotation(TRng *r, double R[9])
{
    double q[4], n = 0.0;
    do {
        n = 0.0;
        for (int i = 0; i < 4; ++i) {
            q[i] = trng_range(r, -1.0, 1.0);
            n += q[i] * q[i];
        }
    } while (n > 1.0 || n < 1e-6);
    n = sqrt(n);
    for (int i = 0; i < 4; ++i) q[i] /= n;
    {
        double w = q[0], x = q[1], y = q[2], z = q[3];
        R[0] = 1 - 2 * (y * y + z * z);
        R[1] = 2 * (x * y - w * z);
        R[2] = 2 * (x * z + w * y);
        R[3] = 2 * (x * y + w * z);
        R[4] = 1 - 2 * (x * x + z * z);
        R[5] = 2 * (y * z - w * x);
        R[6] = 2 * (x * z - w * y);
        R[7] = 2 * (y * z + w * x);
        R[8] = 1 - 2 * (x * x + y * y);
    }
}

/* rotation by angle about a unit axis (Rodrigues), row-major */
static inline void tv_axis_angle(double R[9], const double u[3], double ang)
{
    double c = cos(ang), s = sin(ang), C = 1 - c;
    R[0] = c + u[0] * u[0] * C;
    R[1] = u[0] * u[1] * C - u[2] * s;
    R[2] = u[0] * u[2] * C + u[1] * s;
    R[3] = u[1] * u[0] * C + u[2] * s;
    R[4] = c + u[1] * u[1] * C;
    R[5] = u[1] * u[2] * C - u[0] * s;
    R[6] = u[2] * u[0] * C - u[1] * s;
    R[7] = u[2] * u[1] * C + u[0] * s;
    R[8] = c + u[2] * u[2] * C;
}

/* random point uniformly in the unit ball */
static inline void trng_ball(TRng *r, double p[3])
{
    do {
        for (int i = 0; i < 3; ++i) p[i] = trng_range(r, -1.0, 1.0);
    } while (tv_dot(p, p) > 1.0);
}

/* ---------------------------------------------------------------- references */

/* distance from p to segment [a, b] (closed form: clamped projection) */
static inline double tref_point_segment(const double p[3], const double a[3], const double b[3])
{
    double e[3], q[3], ee, t, c[3];
    tv_sub(e, b, a);
    tv_sub(q, p, a);
    ee = tv_dot(e, e);
    t = ee > 0.0 ? tv_dot(q, e) / ee : 0.0;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    for (int i = 0; i < 3; ++i) c[i] = a[i] + t * e[i];
    return tv_dist(p, c);
}

/* segment-segment distance by ternary search on s: f(s) = dist(P(s), [p2, q2]) is convex,
 * so 200 shrinking steps of 1/3 reach the minimum to rounding; independent of any closed
 * form (slow, for small sample counts). */
static inline double tref_segment_segment_search(const double p1[3], const double q1[3],
                                                 const double p2[3], const double q2[3])
{
    double lo = 0.0, hi = 1.0, x[3];
    for (int it = 0; it < 200; ++it) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0, f1, f2;
        for (int i = 0; i < 3; ++i) x[i] = p1[i] + m1 * (q1[i] - p1[i]);
        f1 = tref_point_segment(x, p2, q2);
        for (int i = 0; i < 3; ++i) x[i] = p1[i] + m2 * (q1[i] - p1[i]);
        f2 = tref_point_segment(x, p2, q2);
        if (f1 <= f2)
            hi = m2;
        else
            lo = m1;
    }
    for (int i = 0; i < 3; ++i) x[i] = p1[i] + 0.5 * (lo + hi) * (q1[i] - p1[i]);
    {
        double d = tref_point_segment(x, p2, q2);
        /* the ends as well, for exactness when the minimum is at s = 0 or 1 */
        double d0 = tref_point_segment(p1, p2, q2), d1 = tref_point_segment(q1, p2, q2);
        return fmin(d, fmin(d0, d1));
    }
}

/* segment-segment distance in closed form: unconstrained minimiser of |P(s) - Q(t)|^2,
 * clamped in s, t recomputed and clamped, s recomputed (own derivation, checked against
 * the ternary search in check_dst_gjk). */
static inline double tref_segment_segment(const double p1[3], const double q1[3],
                                          const double p2[3], const double q2[3])
{
    double d1[3], d2[3], r[3], a, e, b, c, f, s, t, den, x[3], y[3];
    tv_sub(d1, q1, p1);
    tv_sub(d2, q2, p2);
    tv_sub(r, p1, p2);
    a = tv_dot(d1, d1);
    e = tv_dot(d2, d2);
    if (a <= 1e-300 && e <= 1e-300) return tv_dist(p1, p2);
    if (a <= 1e-300) return tref_point_segment(p1, p2, q2);
    if (e <= 1e-300) return tref_point_segment(p2, p1, q1);
    b = tv_dot(d1, d2);
    c = tv_dot(d1, r);
    f = tv_dot(d2, r);
    den = a * e - b * b;
    s = den > 1e-14 * a * e ? (b * f - c * e) / den : 0.0;
    s = fmin(1.0, fmax(0.0, s));
    t = (b * s + f) / e;
    if (t < 0.0) {
        t = 0.0;
        s = fmin(1.0, fmax(0.0, -c / a));
    } else if (t > 1.0) {
        t = 1.0;
        s = fmin(1.0, fmax(0.0, (b - c) / a));
    }
    for (int i = 0; i < 3; ++i) {
        x[i] = p1[i] + s * d1[i];
        y[i] = p2[i] + t * d2[i];
    }
    /* the parallel branch (s = 0) is exact only up to the choice of s: guard with the ends */
    {
        double d = tv_dist(x, y);
        d = fmin(d, tref_point_segment(p1, p2, q2));
        d = fmin(d, tref_point_segment(q1, p2, q2));
        d = fmin(d, tref_point_segment(p2, p1, q1));
        d = fmin(d, tref_point_segment(q2, p1, q1));
        return d;
    }
}

/* distance from p to triangle (a, b, c): plane distance if the projection is inside, else
 * the nearest edge */
static inline double tref_point_triangle(const double p[3], const double a[3], const double b[3],
                                         const double c[3])
{
    double e1[3], e2[3], n[3], nn, q[3], t1[3], t2[3], x[3], y[3];
    double de = fmin(tref_point_segment(p, a, b),
                     fmin(tref_point_segment(p, b, c), tref_point_segment(p, c, a)));
    tv_sub(e1, b, a);
    tv_sub(e2, c, a);
    tv_cross(n, e1, e2);
    nn = tv_dot(n, n);
    if (nn <= 1e-300) return de;
    tv_sub(q, p, a);
    {
        double h = tv_dot(q, n) / nn;
        double pr[3] = {p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]};
        int inside = 1;
        const double *v[3] = {a, b, c};
        for (int k = 0; k < 3; ++k) {
            tv_sub(x, v[(k + 1) % 3], v[k]);
            tv_sub(y, pr, v[k]);
            tv_cross(t1, x, y);
            if (tv_dot(t1, n) < 0.0) inside = 0;
        }
        (void)t2;
        if (inside) return fmin(de, fabs(h) * sqrt(nn));
    }
    return de;
}

/* A polytope for the references: world vertices and outward triangles. */
typedef struct TPoly {
    int nv, nt;
    double v[256][3];
    int t[512][3];
} TPoly;

/* distance between two disjoint convex polytopes: min over vertex-triangle pairs both ways
 * and edge-edge pairs (every closest pair of convex polytopes is one of these) */
static inline double tref_poly_distance(const TPoly *A, const TPoly *B)
{
    double best = HUGE_VAL;
    for (int i = 0; i < A->nv; ++i) {
        for (int f = 0; f < B->nt; ++f) {
            best = fmin(best, tref_point_triangle(A->v[i], B->v[B->t[f][0]], B->v[B->t[f][1]],
                                                  B->v[B->t[f][2]]));
        }
    }
    for (int i = 0; i < B->nv; ++i) {
        for (int f = 0; f < A->nt; ++f) {
            best = fmin(best, tref_point_triangle(B->v[i], A->v[A->t[f][0]], A->v[A->t[f][1]],
                                                  A->v[A->t[f][2]]));
        }
    }
    for (int f = 0; f < A->nt; ++f) {
        for (int k = 0; k < 3; ++k) {
            const double *p1 = A->v[A->t[f][k]], *q1 = A->v[A->t[f][(k + 1) % 3]];
            for (int g = 0; g < B->nt; ++g) {
                for (int l = 0; l < 3; ++l) {
                    best = fmin(best, tref_segment_segment(p1, q1, B->v[B->t[g][l]],
                                                           B->v[B->t[g][(l + 1) % 3]]));
                }
            }
        }
    }
    return best;
}

/* overlap of the projections of A and B on axis u (may be negative when separated) */
static inline double tref_axis_overlap(const TPoly *A, const TPoly *B, const double u[3])
{
    double amin = HUGE_VAL, amax = -HUGE_VAL, bmin = HUGE_VAL, bmax = -HUGE_VAL;
    for (int i = 0; i < A->nv; ++i) {
        double d = tv_dot(A->v[i], u);
        amin = fmin(amin, d);
        amax = fmax(amax, d);
    }
    for (int i = 0; i < B->nv; ++i) {
        double d = tv_dot(B->v[i], u);
        bmin = fmin(bmin, d);
        bmax = fmax(bmax, d);
    }
    return fmin(amax - bmin, bmax - amin);
}

/* penetration depth of overlapping convex polytopes by separating axes: the minimum
 * overlap over face normals of both and cross products of edge pairs (the face normals of
 * the Minkowski difference) */
static inline double tref_sat_depth(const TPoly *A, const TPoly *B)
{
    double best = HUGE_VAL, u[3], e1[3], e2[3];
    const TPoly *P[2] = {A, B};
    for (int s = 0; s < 2; ++s) {
        for (int f = 0; f < P[s]->nt; ++f) {
            tv_sub(e1, P[s]->v[P[s]->t[f][1]], P[s]->v[P[s]->t[f][0]]);
            tv_sub(e2, P[s]->v[P[s]->t[f][2]], P[s]->v[P[s]->t[f][0]]);
            tv_cross(u, e1, e2);
            {
                double n = tv_norm(u);
                if (n < 1e-12) continue;
                for (int i = 0; i < 3; ++i) u[i] /= n;
            }
            best = fmin(best, tref_axis_overlap(A, B, u));
        }
    }
    for (int f = 0; f < A->nt; ++f) {
        for (int k = 0; k < 3; ++k) {
            tv_sub(e1, A->v[A->t[f][(k + 1) % 3]], A->v[A->t[f][k]]);
            for (int g = 0; g < B->nt; ++g) {
                for (int l = 0; l < 3; ++l) {
                    double n;
                    tv_sub(e2, B->v[B->t[g][(l + 1) % 3]], B->v[B->t[g][l]]);
                    tv_cross(u, e1, e2);
                    n = tv_norm(u);
                    if (n < 1e-9 * tv_norm(e1) * tv_norm(e2)) continue;
                    for (int i = 0; i < 3; ++i) u[i] /= n;
                    best = fmin(best, tref_axis_overlap(A, B, u));
                }
            }
        }
    }
    return best;
}

/* box of half extents h at pose (R, t) as a TPoly (8 vertices, 12 triangles) */
static inline void tref_box_poly(TPoly *P, const double h[3], const double R[9], const double t[3])
{
    static const int tri[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6},
                                   {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                   {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    P->nv = 8;
    P->nt = 12;
    for (int id = 0; id < 8; ++id) {
        double x[3];
        for (int i = 0; i < 3; ++i) x[i] = (id >> i) & 1 ? h[i] : -h[i];
        tv_xform(P->v[id], R, t, x);
    }
    for (int f = 0; f < 12; ++f) {
        for (int k = 0; k < 3; ++k) P->t[f][k] = tri[f][k];
    }
}

/* random hull of n (<= 200) points in an ellipsoid-ish cloud of the given size, local frame */
static inline void random_hull(TRng *rng, int n, double size, DstHull *h)
{
    double p[200][3];
    for (int i = 0; i < n; ++i) {
        trng_ball(rng, p[i]);
        p[i][0] *= size;
        p[i][1] *= size * 0.7;
        p[i][2] *= size * 0.5;
    }
    ck_assert_int_eq(dst_hull_build(&p[0][0], n, 0.0, h, NULL, 0), DST_OK);
}

/* the hull as a polytope in the world (pose R, t) for the brute-force references */
static inline void hull_poly(TPoly *P, const DstHull *h, const double R[9], const double t[3])
{
    P->nv = h->nverts;
    P->nt = h->ntris;
    for (int i = 0; i < h->nverts; ++i) tv_xform(P->v[i], R, t, h->verts + 3 * i);
    for (int f = 0; f < h->ntris; ++f) {
        for (int k = 0; k < 3; ++k) P->t[f][k] = h->tris[3 * f + k];
    }
}

#endif /* CONVEX_TESTUTIL_H */
