/* dst_tri.c — exact distance of two triangles (thesis sec. II.B; docs/math/mesh_mcd.md
 * sec. 1). Two disjoint triangles are closest at a vertex-face pair (the vertex projects
 * inside the other face) or at an edge-edge pair; they intersect exactly when an edge of
 * one meets the other (coplanar overlaps included: then an edge pair meets, or a vertex
 * projects inside at distance 0). */
#include "dst_bvh.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dst_capsule_internal.h"

static void sub3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}

static void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* Triangle plane: unnormalised normal n (|n|^2 = nn) or nn = 0 for a degenerate one. */
typedef struct TriPlane {
    const double *v0, *v1, *v2;
    double e0[3], e1[3], e2[3]; /* v1 - v0, v2 - v1, v0 - v2 */
    double n[3], nn;
} TriPlane;

static void tri_plane(const double t[9], double scale, TriPlane *p)
{
    p->v0 = t, p->v1 = t + 3, p->v2 = t + 6;
    sub3(p->v1, p->v0, p->e0);
    sub3(p->v2, p->v1, p->e1);
    sub3(p->v0, p->v2, p->e2);
    cross3(p->e0, p->e1, p->n);
    p->nn = dst_dot3(p->n, p->n);
    /* area below the rounding noise of the coordinates: handle as edges only */
    double tiny = DST_ROUND_REL * scale * scale;
    if (p->nn <= tiny * tiny) p->nn = 0.0;
}

/* 1 when x (on or near the plane) projects inside the triangle (closed). */
static int inside(const TriPlane *p, const double x[3])
{
    double w[3], c[3];
    sub3(x, p->v0, w);
    cross3(p->e0, w, c);
    if (dst_dot3(c, p->n) < 0.0) return 0;
    sub3(x, p->v1, w);
    cross3(p->e1, w, c);
    if (dst_dot3(c, p->n) < 0.0) return 0;
    sub3(x, p->v2, w);
    cross3(p->e2, w, c);
    return dst_dot3(c, p->n) >= 0.0;
}

/* four doubles, one point or one segment pair per lane (GCC/Clang vector extension; without AVX the
 * compiler splits it into two-lane or scalar operations, each lane rounding exactly as the
 * scalar expression it stands for: ISO C mode keeps -ffp-contract=off, so no FMA either) */
typedef double TriV4 __attribute__((vector_size(32)));
typedef long long TriV4i __attribute__((vector_size(32)));

/* lane-wise m ? x : y for a comparison mask m (all bits set or clear per lane); macros, since
 * a function taking a 32-byte vector has another ABI with and without AVX (-Wpsabi) */
#define TRI_V4_SEL(m, x, y) ((TriV4)(((TriV4i)(m) & (TriV4i)(x)) | (~(TriV4i)(m) & (TriV4i)(y))))
/* dst_clamp01 lane-wise: x < 0 ? 0 : (x > 1 ? 1 : x) */
#define TRI_V4_CLAMP01(x) TRI_V4_SEL((x) < zero4, zero4, TRI_V4_SEL((x) > one4, one4, (x)))

/* Vertex-face candidates of three points q[9] against the face p, one point per lane (lane 3
 * repeats point 2), each lane with the scalar expressions in their order: the plane side
 * dd_k = (q_k - v0) . n; h = dd_k / |n|^2 (signed, in units of |n|); the foot x_k = q_k - h n;
 * in_k = 1 when x_k lies inside the closed triangle (the three edge tests (e_i x (x - v_i)) . n,
 * the third >= 0, the first two not < 0); and the distance |h| |n|. A degenerate face has none. */
static void vertex_faces(const TriPlane *p, const double q[9], double dd[3], int in[3], double x[9],
                         double dist[3])
{
    if (p->nn == 0.0) {
        in[0] = in[1] = in[2] = 0;
        return;
    }
    const double *v0 = p->v0, *v1 = p->v1, *v2 = p->v2, *n = p->n;
    const TriV4 zero4 = {0.0, 0.0, 0.0, 0.0};
    TriV4 qx = {q[0], q[3], q[6], q[6]}, qy = {q[1], q[4], q[7], q[7]}, qz = {q[2], q[5], q[8], q[8]};
    TriV4 dv = (qx - v0[0]) * n[0] + (qy - v0[1]) * n[1] + (qz - v0[2]) * n[2];
    TriV4 h = dv / p->nn;
    TriV4 xx = qx - h * n[0], xy = qy - h * n[1], xz = qz - h * n[2];
    /* inside: (e_i x (x - v_i)) . n for the three edges */
    const double *vs[3] = {v0, v1, v2}, *es[3] = {p->e0, p->e1, p->e2};
    TriV4 side[3];
    for (int i = 0; i < 3; ++i) {
        const double *v = vs[i], *e = es[i];
        TriV4 w0 = xx - v[0], w1 = xy - v[1], w2 = xz - v[2];
        TriV4 c0 = e[1] * w2 - e[2] * w1, c1 = e[2] * w0 - e[0] * w2, c2 = e[0] * w1 - e[1] * w0;
        side[i] = c0 * n[0] + c1 * n[1] + c2 * n[2];
    }
    TriV4i inv = ~(TriV4i)(side[0] < zero4) & ~(TriV4i)(side[1] < zero4) & (TriV4i)(side[2] >= zero4);
    TriV4 hv = (TriV4)((TriV4i)h & (TriV4i){INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX});
    TriV4 dvv = hv * sqrt(p->nn);
    for (int k = 0; k < 3; ++k) {
        dd[k] = dv[k], in[k] = inv[k] != 0, dist[k] = dvv[k];
        x[3 * k] = xx[k], x[3 * k + 1] = xy[k], x[3 * k + 2] = xz[k];
    }
}

/* Edge p0-p1 crossing the face, its ends on the plane sides d0, d1 (vertex_faces' dd): the
 * crossing point if it lies inside (distance 0). */
static int edge_crosses(const TriPlane *p, const double p0[3], const double p1[3], double d0, double d1,
                        double x[3])
{
    if (p->nn == 0.0) return 0;
    /* strictly opposite sides; a touching endpoint is a vertex-face candidate at distance 0 */
    if ((d0 > 0.0 && d1 > 0.0) || (d0 < 0.0 && d1 < 0.0) || d0 == d1) return 0;
    double u = d0 / (d0 - d1);
    for (int i = 0; i < 3; ++i) x[i] = p0[i] + u * (p1[i] - p0[i]);
    return inside(p, x);
}

/* Closest points of segments p0 + s d1 and q0 + t d2 (s, t in [0, 1]) and their squared
 * distance: the capsule kernel's formulas (docs/math/capsule_mcd.md [1]-[3]: clamped line
 * solution through Lagrange's identity, the middle of the overlap for parallel segments)
 * without its normal and certified bound, which the triangle kernel does not need. */
static double seg_seg_sq(const double p0[3], const double d1[3], const double q0[3], const double d2[3],
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
            cross3(d1, d2, x);
            double denom = dst_dot3(x, x);
            if (denom > DST_PARALLEL_SIN2 * a * e) {
                cross3(r, d2, y);
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

/* The 9 edge-edge pairs of seg_seg_sq (pair k = 3 i + j of A's edge i and B's edge j): for
 * each edge of A, B's three edges in lanes 0-2 (lane 3 repeats lane 2). The general case
 * (both segments longer than DST_MIN_DENOM, not parallel) is computed lane-wise with
 * seg_seg_sq's operations in its order, so every value equals the scalar one bit for bit; a
 * lane outside the general case is redone by seg_seg_sq itself. */
static void seg_seg_sq9(const double a[9], const double *const ea[3], const double b[9], const double *const eb[3],
                        double d2[9], double s_out[9], double t_out[9])
{
    const TriV4 zero4 = {0.0, 0.0, 0.0, 0.0}, one4 = {1.0, 1.0, 1.0, 1.0};
    const TriV4 min4 = {DST_MIN_DENOM, DST_MIN_DENOM, DST_MIN_DENOM, DST_MIN_DENOM};
    /* B's edges j: start points q0 and directions e2, component by component */
    TriV4 q0[3], e2[3];
    for (int c = 0; c < 3; ++c) {
        q0[c] = (TriV4){b[c], b[3 + c], b[6 + c], b[6 + c]};
        e2[c] = (TriV4){eb[0][c], eb[1][c], eb[2][c], eb[2][c]};
    }
    TriV4 ev = e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2];
    TriV4i e_ok = (TriV4i)(ev > min4);
    for (int i = 0; i < 3; ++i) {
        const double *p0 = a + 3 * i, *d1 = ea[i];
        TriV4 r0 = p0[0] - q0[0], r1 = p0[1] - q0[1], r2 = p0[2] - q0[2];
        /* seg_seg_sq's general case, lane-wise (its scalar statements in the same order) */
        double av = dst_dot3(d1, d1);
        TriV4 fv = e2[0] * r0 + e2[1] * r1 + e2[2] * r2;
        TriV4 cv = d1[0] * r0 + d1[1] * r1 + d1[2] * r2;
        TriV4 bv = d1[0] * e2[0] + d1[1] * e2[1] + d1[2] * e2[2];
        TriV4 x0 = d1[1] * e2[2] - d1[2] * e2[1], x1 = d1[2] * e2[0] - d1[0] * e2[2],
              x2 = d1[0] * e2[1] - d1[1] * e2[0];
        TriV4 denom = x0 * x0 + x1 * x1 + x2 * x2;
        TriV4 y0 = r1 * e2[2] - r2 * e2[1], y1 = r2 * e2[0] - r0 * e2[2], y2 = r0 * e2[1] - r1 * e2[0];
        TriV4 xy = x0 * y0 + x1 * y1 + x2 * y2;
        TriV4 sv = -xy / denom;
        sv = TRI_V4_CLAMP01(sv);
        TriV4 tv = (bv * sv + fv) / ev;
        TriV4 tc = TRI_V4_CLAMP01(tv);
        TriV4 s2 = (bv * tc - cv) / av;
        s2 = TRI_V4_CLAMP01(s2);
        sv = TRI_V4_SEL(tc != tv, s2, sv);
        tv = tc;
        TriV4 w0 = r0 + sv * d1[0] - tv * e2[0], w1 = r1 + sv * d1[1] - tv * e2[1], w2 = r2 + sv * d1[2] - tv * e2[2];
        TriV4 dv = w0 * w0 + w1 * w1 + w2 * w2;
        TriV4i gen = e_ok & (TriV4i)(denom > DST_PARALLEL_SIN2 * av * ev);
        for (int j = 0; j < 3; ++j) {
            int k = 3 * i + j;
            if (av > DST_MIN_DENOM && gen[j] != 0) {
                d2[k] = dv[j], s_out[k] = sv[j], t_out[k] = tv[j];
            } else {
                d2[k] = seg_seg_sq(p0, d1, b + 3 * j, eb[j], &s_out[k], &t_out[k]);
            }
        }
    }
}

/* Triangle-triangle distance, docs/math/mesh_mcd.md eq. (1)-(2). */
void dst_tri_distance(const double a[9], const double b[9], DstTriPair *out)
{
    double scale = 0.0;
    for (int i = 0; i < 9; ++i) scale = dst_maxd(scale, dst_maxd(fabs(a[i]), fabs(b[i])));
    TriPlane pa, pb;
    tri_plane(a, scale, &pa);
    tri_plane(b, scale, &pb);
    out->dist = INFINITY;
    /* edge-edge: 9 segment pairs (covers vertex-edge and vertex-vertex too); squared
     * distances compared in the pair order, the witnesses of the best pair only */
    const double *const ea[3] = {pa.e0, pa.e1, pa.e2}, *const eb[3] = {pb.e0, pb.e1, pb.e2};
    double d2[9], sk[9], tk[9];
    seg_seg_sq9(a, ea, b, eb, d2, sk, tk);
    double best2 = INFINITY, bs = 0.0, bt = 0.0;
    int bi = 0, bj = 0;
    for (int k = 0; k < 9; ++k) {
        if (d2[k] < best2) best2 = d2[k], bs = sk[k], bt = tk[k], bi = k / 3, bj = k % 3;
    }
    for (int k = 0; k < 3; ++k) {
        out->pa[k] = a[3 * bi + k] + bs * ea[bi][k];
        out->pb[k] = b[3 * bj + k] + bt * eb[bj][k];
    }
    double w[3] = {out->pa[0] - out->pb[0], out->pa[1] - out->pb[1], out->pa[2] - out->pb[2]};
    out->dist = sqrt(dst_dot3(w, w));
    if (out->dist == 0.0) return;
    /* the plane sides and vertex-face candidates of A's vertices on B's face and B's on A's */
    double da[3], db[3], xa[9], xb[9], ha[3], hb[3];
    int ina[3], inb[3];
    vertex_faces(&pb, a, da, ina, xa, ha);
    vertex_faces(&pa, b, db, inb, xb, hb);
    /* an edge piercing the other face: distance 0 */
    double x[3];
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3;
        if (edge_crosses(&pb, a + 3 * i, a + 3 * j, da[i], da[j], x) ||
            edge_crosses(&pa, b + 3 * i, b + 3 * j, db[i], db[j], x)) {
            out->dist = 0.0;
            memcpy(out->pa, x, sizeof out->pa);
            memcpy(out->pb, x, sizeof out->pb);
            return;
        }
    }
    /* vertex-face: 6 projections, in the order A's vertex i on B's face, B's vertex i on A's */
    for (int i = 0; i < 3; ++i) {
        if (ina[i] && ha[i] < out->dist) {
            out->dist = ha[i];
            memcpy(out->pa, a + 3 * i, sizeof out->pa);
            memcpy(out->pb, xa + 3 * i, sizeof out->pb);
        }
        if (inb[i] && hb[i] < out->dist) {
            out->dist = hb[i];
            memcpy(out->pa, xb + 3 * i, sizeof out->pa);
            memcpy(out->pb, b + 3 * i, sizeof out->pb);
        }
    }
}
