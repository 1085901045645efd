/* dst_tri_reference.h — the scalar triangle-triangle kernel as distance/dst_tri.c had it
 * before its edge-edge pairs and vertex-face projections went into vector lanes (Session
 * 16b): one segment pair and one projection at a time. check_dst_tri.c checks that the
 * lane-wise kernel returns the same distance and witnesses bit for bit (same operations in
 * the same order, -ffp-contract=off), the degenerate and parallel lanes included. */
#ifndef DST_TRI_REFERENCE_H
#define DST_TRI_REFERENCE_H

#include <math.h>
#include <string.h>

#include "dst_bvh.h"
#include "dst_capsule_internal.h"

static void ref_sub3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}

static void ref_cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Triangle plane: unnormalised normal n (|n|^2 = nn) or nn = 0 for a degenerate one. */
typedef struct RefTriPlane {
    const double *v0, *v1, *v2;
    double e0[3], e1[3], e2[3]; /* v1 - v0, v2 - v1, v0 - v2 */
    double n[3], nn;
} RefTriPlane;

static void ref_tri_plane(const double t[9], double scale, RefTriPlane *p)
{
    p->v0 = t, p->v1 = t + 3, p->v2 = t + 6;
    ref_sub3(p->v1, p->v0, p->e0);
    ref_sub3(p->v2, p->v1, p->e1);
    ref_sub3(p->v0, p->v2, p->e2);
    ref_cross3(p->e0, p->e1, p->n);
    p->nn = dst_dot3(p->n, p->n);
    /* area below the rounding noise of the coordinates: handle as edges only */
    double tiny = DST_ROUND_REL * scale * scale;
    if (p->nn <= tiny * tiny) p->nn = 0.0;
}

/* 1 when x (on or near the plane) projects ref_inside the triangle (closed). */
static int ref_inside(const RefTriPlane *p, const double x[3])
{
    double w[3], c[3];
    ref_sub3(x, p->v0, w);
    ref_cross3(p->e0, w, c);
    if (dst_dot3(c, p->n) < 0.0) return 0;
    ref_sub3(x, p->v1, w);
    ref_cross3(p->e1, w, c);
    if (dst_dot3(c, p->n) < 0.0) return 0;
    ref_sub3(x, p->v2, w);
    ref_cross3(p->e2, w, c);
    return dst_dot3(c, p->n) >= 0.0;
}

/* Vertex-face candidate: q projects ref_inside the face at distance |h|. */
static void ref_vertex_face(const RefTriPlane *p, const double q[3], int q_on_a, DstTriPair *best)
{
    if (p->nn == 0.0) return;
    double w[3];
    ref_sub3(q, p->v0, w);
    double h = dst_dot3(w, p->n) / p->nn; /* signed, in units of |n| */
    double x[3] = {q[0] - h * p->n[0], q[1] - h * p->n[1], q[2] - h * p->n[2]};
    if (!ref_inside(p, x)) return;
    double d = fabs(h) * sqrt(p->nn);
    if (d < best->dist) {
        best->dist = d;
        if (q_on_a) {
            memcpy(best->pa, q, sizeof best->pa);
            memcpy(best->pb, x, sizeof best->pb);
        } else {
            memcpy(best->pa, x, sizeof best->pa);
            memcpy(best->pb, q, sizeof best->pb);
        }
    }
}

/* Edge p0-p1 crossing the face: the crossing point if it lies ref_inside (distance 0). */
static int ref_edge_crosses(const RefTriPlane *p, const double p0[3], const double p1[3], double x[3])
{
    if (p->nn == 0.0) return 0;
    double w0[3], w1[3];
    ref_sub3(p0, p->v0, w0);
    ref_sub3(p1, p->v0, w1);
    double d0 = dst_dot3(w0, p->n), d1 = dst_dot3(w1, p->n);
    /* strictly opposite sides; a touching endpoint is a vertex-face candidate at distance 0 */
    if ((d0 > 0.0 && d1 > 0.0) || (d0 < 0.0 && d1 < 0.0) || d0 == d1) return 0;
    double u = d0 / (d0 - d1);
    for (int i = 0; i < 3; ++i) x[i] = p0[i] + u * (p1[i] - p0[i]);
    return ref_inside(p, x);
}

/* Closest points of segments p0 + s d1 and q0 + t d2 (s, t in [0, 1]) and their squared
 * distance: the capsule kernel's formulas (docs/math/capsule_mcd.md [1]-[3]: clamped line
 * solution through Lagrange's identity, the middle of the overlap for parallel segments)
 * without its normal and certified bound, which the triangle kernel does not need. */
static double ref_seg_seg_sq(const double p0[3], const double d1[3], const double q0[3], const double d2[3],
                         double *s_out, double *t_out)
{
    double r[3] = {p0[0] - q0[0], p0[1] - q0[1], p0[2] - q0[2]};
    double a = dst_dot3(d1, d1), e = dst_dot3(d2, d2), f = dst_dot3(d2, r);
    double s, t;
    if (a <= DST_MIN_DENOM && e <= DST_MIN_DENOM) {
        s = 0.0, t = 0.0;
    } else if (a <= DST_MIN_DENOM) {
        s = 0.0, t = dst_clamp01(f / e);
    } else {
        double c = dst_dot3(d1, r);
        if (e <= DST_MIN_DENOM) {
            t = 0.0, s = dst_clamp01(-c / a);
        } else {
            double b = dst_dot3(d1, d2), x[3], y[3];
            ref_cross3(d1, d2, x);
            double denom = dst_dot3(x, x);
            if (denom > DST_PARALLEL_SIN2 * a * e) {
                ref_cross3(r, d2, y);
                s = dst_clamp01(-dst_dot3(x, y) / denom);
            } else {
                double u0 = -c / a, u1 = (b - c) / a;
                double lo = dst_maxd(0.0, dst_mind(u0, u1)), hi = dst_mind(1.0, dst_maxd(u0, u1));
                s = lo <= hi ? 0.5 * (lo + hi) : (dst_maxd(u0, u1) < 0.0 ? 0.0 : 1.0);
            }
            t = (b * s + f) / e;
            double tc = dst_clamp01(t);
            if (tc != t) s = dst_clamp01((b * tc - c) / a);
            t = tc;
        }
    }
    double w[3] = {r[0] + s * d1[0] - t * d2[0], r[1] + s * d1[1] - t * d2[1], r[2] + s * d1[2] - t * d2[2]};
    *s_out = s, *t_out = t;
    return dst_dot3(w, w);
}

/* Triangle-triangle distance, docs/math/mesh_mcd.md eq. (1)-(2): the scalar form. */
static void ref_tri_distance(const double a[9], const double b[9], DstTriPair *out)
{
    double scale = 0.0;
    for (int i = 0; i < 9; ++i) scale = dst_maxd(scale, dst_maxd(fabs(a[i]), fabs(b[i])));
    RefTriPlane pa, pb;
    ref_tri_plane(a, scale, &pa);
    ref_tri_plane(b, scale, &pb);
    out->dist = INFINITY;
    /* edge-edge: 9 segment pairs (covers vertex-edge and vertex-vertex too); squared
     * distances compared, the witnesses of the best pair only */
    const double *ea[3] = {pa.e0, pa.e1, pa.e2}, *eb[3] = {pb.e0, pb.e1, pb.e2};
    double best2 = INFINITY, bs = 0.0, bt = 0.0;
    int bi = 0, bj = 0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double s, t, d2 = ref_seg_seg_sq(a + 3 * i, ea[i], b + 3 * j, eb[j], &s, &t);
            if (d2 < best2) best2 = d2, bs = s, bt = t, bi = i, bj = j;
        }
    }
    for (int k = 0; k < 3; ++k) {
        out->pa[k] = a[3 * bi + k] + bs * ea[bi][k];
        out->pb[k] = b[3 * bj + k] + bt * eb[bj][k];
    }
    double w[3] = {out->pa[0] - out->pb[0], out->pa[1] - out->pb[1], out->pa[2] - out->pb[2]};
    out->dist = sqrt(dst_dot3(w, w));
    if (out->dist == 0.0) return;
    /* an edge piercing the other face: distance 0 */
    double x[3];
    for (int i = 0; i < 3; ++i) {
        if (ref_edge_crosses(&pb, a + 3 * i, a + 3 * ((i + 1) % 3), x) ||
            ref_edge_crosses(&pa, b + 3 * i, b + 3 * ((i + 1) % 3), x)) {
            out->dist = 0.0;
            memcpy(out->pa, x, sizeof out->pa);
            memcpy(out->pb, x, sizeof out->pb);
            return;
        }
    }
    /* vertex-face: 6 projections */
    for (int i = 0; i < 3; ++i) {
        ref_vertex_face(&pb, a + 3 * i, 1, out);
        ref_vertex_face(&pa, b + 3 * i, 0, out);
    }
}

#endif /* DST_TRI_REFERENCE_H */
