/* dst_mesh_depth.c — deepest-penetrating-vertex depth of two closed meshes (eq. 11.1-11.6)
 * and the exact point-to-mesh distance (eq. 11.7-11.8) (docs/math/mesh_mcd.md sec. 11). */
#include "dst_mesh_depth.h"

#include "dst_frame_internal.h"

#include <math.h>
#include <string.h>

#include "dst_capsule_internal.h"
#include "dst_tolerance.h"

/* traversal stack of one tree: a depth-first walk pushes two children per level and pops one,
 * so it holds at most depth + 1 entries; dst_bvh_create refuses trees deeper than 126 */
#define DEPTH_STACK 256

/* the closest face decides the side of a point (eq. 11.12) only when the point lies along its
 * normal to at least this cosine (it does exactly, up to rounding, for a perpendicular foot) */
#define DEPTH_SIDE_COS 0.5

/* ---------------------------------------------------------------- point to triangle */

/* where the closest point of a triangle lies: its open face, or its boundary (an edge or a
 * vertex, or any point of a degenerate triangle) */
enum { REGION_FACE = 0, REGION_BOUNDARY = 1 };

/* Closest point q of the segment [a, b] to p; returns |p - q|^2. */
static double seg_closest(const double p[3], const double a[3], const double b[3], double q[3])
{
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double l2 = dst_dot3(ab, ab), s = 0.0;
    if (l2 > DST_MIN_DENOM) s = dst_clamp01(dst_dot3(ap, ab) / l2);
    for (int i = 0; i < 3; ++i) q[i] = a[i] + s * ab[i];
    double w[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return dst_dot3(w, w);
}

/* Closest point q of the triangle t[9] to p, and the squared distance |p - q|^2, by the
 * Voronoi regions of its vertices, edges and face (eq. 11.8); *region tells which. A degenerate
 * (zero-area) triangle is handled as its three edges. */
static double tri_closest(const double p[3], const double *t, double q[3], int *region)
{
    *region = REGION_BOUNDARY;
    const double *a = t, *b = t + 3, *c = t + 6;
    double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double d1 = dst_dot3(ab, ap), d2 = dst_dot3(ac, ap);
    double w[3];
    if (d1 <= 0.0 && d2 <= 0.0) { /* vertex region of a */
        memcpy(q, a, 3 * sizeof(double));
        return dst_dot3(ap, ap);
    }
    double bp[3] = {p[0] - b[0], p[1] - b[1], p[2] - b[2]};
    double d3 = dst_dot3(ab, bp), d4 = dst_dot3(ac, bp);
    if (d3 >= 0.0 && d4 <= d3) { /* vertex region of b */
        memcpy(q, b, 3 * sizeof(double));
        return dst_dot3(bp, bp);
    }
    double cp[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
    double d5 = dst_dot3(ab, cp), d6 = dst_dot3(ac, cp);
    if (d6 >= 0.0 && d5 <= d6) { /* vertex region of c */
        memcpy(q, c, 3 * sizeof(double));
        return dst_dot3(cp, cp);
    }
    /* signed areas (times 2|n|^2) of the sub-triangles opposite each vertex, eq. (11.8) */
    double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    double sum = va + vb + vc;
    double ab2 = dst_dot3(ab, ab), ac2 = dst_dot3(ac, ac);
    if (!(sum > DST_MESH_DEGENERATE_REL * ab2 * ac2) || !(sum > DST_MIN_DENOM)) {
        /* degenerate: the nearest of the three edges */
        double q1[3], q2[3];
        double s0 = seg_closest(p, a, b, q), s1 = seg_closest(p, b, c, q1), s2 = seg_closest(p, c, a, q2);
        if (s1 < s0) s0 = s1, memcpy(q, q1, sizeof q1);
        if (s2 < s0) s0 = s2, memcpy(q, q2, sizeof q2);
        return s0;
    }
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) { /* edge ab */
        double s = d1 / (d1 - d3);
        for (int i = 0; i < 3; ++i) q[i] = a[i] + s * ab[i];
    } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) { /* edge ac */
        double s = d2 / (d2 - d6);
        for (int i = 0; i < 3; ++i) q[i] = a[i] + s * ac[i];
    } else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) { /* edge bc */
        double s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        for (int i = 0; i < 3; ++i) q[i] = b[i] + s * (c[i] - b[i]);
    } else { /* face: barycentric (va, vb, vc) / sum */
        double v = vb / sum, u = vc / sum;
        *region = REGION_FACE;
        for (int i = 0; i < 3; ++i) q[i] = a[i] + v * ab[i] + u * ac[i];
    }
    for (int i = 0; i < 3; ++i) w[i] = p[i] - q[i];
    return dst_dot3(w, w);
}

/* ---------------------------------------------------------------- point to mesh */

/* Lower bound of the distance from p to the triangles under node nd (eq. 11.9): the sphere
 * gap and the oriented-box gap, less a rounding allowance; it never exceeds the truth. */
static double node_point_lb(const DstBvhNode *nd, const double p[3], double best)
{
    double w[3] = {p[0] - nd->c[0], p[1] - nd->c[1], p[2] - nd->c[2]};
    double dw = sqrt(dst_dot3(w, w));
    double round = DST_ROUND_REL * (dw + nd->r);
    double lb = dw - nd->r;
    if (lb - round >= best) return lb - round;
    double e2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        double e = fabs(dst_dot3(nd->ax + 3 * k, w)) - nd->h[k];
        if (e > 0.0) e2 += e * e;
    }
    return dst_maxd(lb, sqrt(e2)) - round;
}

typedef struct PointHit {
    double d;     /* distance found (or the cap when nothing below it) */
    int tri;      /* leaf-order triangle index, -1 when none below the cap */
    int region;   /* REGION_FACE: q lies in the open face of tri */
    double q[3];  /* closest point, mesh frame */
} PointHit;

/* Nearest-first walk for the distance from p to the mesh. Subtrees whose lower bound is not
 * below the best distance found (initially `cap`, or the distance to the hint triangle, a
 * leaf-order index or -1) are pruned, and the walk stops as soon as a distance <= stop is
 * found. Result: the exact minimum d* when stop < d* < cap; some distance <= stop when
 * d* <= stop; hit->d = cap and tri = -1 when d* >= cap. */
static void point_query(const DstBvh *bvh, const double p[3], double stop, double cap, int hint, PointHit *hit)
{
    int stack[DEPTH_STACK], top = 0;
    double stack_lb[DEPTH_STACK];
    hit->d = cap;
    hit->tri = -1;
    double best2 = cap * cap;
    if (hint >= 0) {
        /* warm start: a nearby triangle bounds the answer from above, often below stop */
        double q[3];
        int region;
        double d2 = tri_closest(p, bvh->tri[hint], q, &region);
        if (d2 < best2) {
            best2 = d2;
            hit->d = sqrt(d2);
            hit->tri = hint;
            hit->region = region;
            memcpy(hit->q, q, sizeof q);
            if (hit->d <= stop) return;
        }
    }
    stack[top] = 0, stack_lb[top] = -INFINITY, ++top;
    while (top > 0 && !(hit->tri >= 0 && hit->d <= stop)) {
        --top;
        if (stack_lb[top] >= hit->d) continue;
        const DstBvhNode *nd = &bvh->nodes[stack[top]];
        if (nd->left < 0) {
            for (int t = nd->first; t < nd->first + nd->count; ++t) {
                double q[3];
                int region;
                double d2 = tri_closest(p, bvh->tri[t], q, &region);
                if (d2 < best2) {
                    best2 = d2;
                    hit->d = sqrt(d2);
                    hit->tri = t;
                    hit->region = region;
                    memcpy(hit->q, q, sizeof q);
                }
            }
            continue;
        }
        int c0 = nd->left, c1 = nd->right;
        double l0 = node_point_lb(&bvh->nodes[c0], p, hit->d), l1 = node_point_lb(&bvh->nodes[c1], p, hit->d);
        if (l0 < l1) {
            int ti = c0;
            c0 = c1, c1 = ti;
            double tl = l0;
            l0 = l1, l1 = tl;
        }
        /* farther first, so the nearer child is expanded next */
        if (l0 < hit->d && top < DEPTH_STACK) stack[top] = c0, stack_lb[top] = l0, ++top;
        if (l1 < hit->d && top < DEPTH_STACK) stack[top] = c1, stack_lb[top] = l1, ++top;
    }
}

/* eq. (11.7) */
double dst_bvh_point_distance(const DstBvh *bvh, const double p[3], double closest[3], int *tri)
{
    if (bvh == NULL || p == NULL || bvh->n_tris <= 0 || bvh->nodes == NULL) return -1.0;
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) return -1.0;
    PointHit h;
    point_query(bvh, p, -INFINITY, INFINITY, -1, &h);
    if (closest != NULL) memcpy(closest, h.q, sizeof h.q);
    if (tri != NULL) *tri = bvh->tri_id[h.tri];
    return h.d;
}

/* ---------------------------------------------------------------- vertex depth */

/* Rigid map from the frame of the mesh whose vertices are tested (X) to the frame of the solid
 * (Y): y = R x + t (dst_rel_pose with A = Y, B = X). */
typedef DstRelPose Pose;

static int pose_valid(const double R[9], const double x[3])
{
    if (R == NULL || x == NULL || !dst_is_rotation(R)) return 0;
    for (int i = 0; i < 3; ++i) {
        if (!isfinite(x[i]) || fabs(x[i]) > DST_MESH_MAX_COORD) return 0;
    }
    return 1;
}

/* One direction of eq. (11.1): vertices of X inside the solid Y. */
typedef struct Side {
    const DstBvh *x, *y;
    Pose p;              /* X frame -> Y frame */
    double margin;       /* rounding allowance of a mapped point and of a distance, metres */
    double best;         /* deepest inside vertex so far; -inf while none */
    double v[3], q[3];   /* that vertex and its closest point on Y, Y frame */
    int tri;             /* leaf-order triangle of Y holding q */
    int tested, sided, inside, classified;
} Side;

/* 1 when the ball (c, r) (Y frame) lies outside Y's root box, so every point in it is outside Y */
static int outside_root_box(const DstBvh *y, const double c[3], double r)
{
    const DstBvhNode *nd = &y->nodes[0];
    double w[3] = {c[0] - nd->c[0], c[1] - nd->c[1], c[2] - nd->c[2]};
    for (int k = 0; k < 3; ++k) {
        if (fabs(dst_dot3(nd->ax + 3 * k, w)) - nd->h[k] > r) return 1;
    }
    return 0;
}

/* Side of Y's surface on which the point v (Y frame) lies, given its exact closest point h
 * (eq. 11.12): when that point is the foot of the perpendicular in the open face of a triangle,
 * the segment from v to it crosses no surface, so v is inside iff it lies behind that face's
 * outward normal; otherwise (closest point on an edge or a vertex, or v almost on the surface)
 * by ray parity (winding number for several shells, eq. 11.13). 1 inside, 0 outside. */
static int side_of(Side *s, const double v[3], const PointHit *h)
{
    if (h->region == REGION_FACE && h->d > s->margin) {
        const double *nrm = s->y->nrm[h->tri];
        double w[3] = {v[0] - h->q[0], v[1] - h->q[1], v[2] - h->q[2]};
        double dn = dst_dot3(w, nrm);
        /* several shells (eq. 11.13): behind a face is inside its shell, so inside the union;
         * in front of it may still be inside another, overlapping shell: the rays decide */
        if (fabs(dn) >= DEPTH_SIDE_COS * h->d && (dn < 0.0 || s->y->n_components <= 1)) {
            ++s->sided;
            return dn < 0.0;
        }
    }
    ++s->tested;
    return dst_bvh_contains(s->y, v);
}

/* a vertex v (Y frame) of X, eq. (11.1): skipped when its distance to Y's surface cannot beat
 * the deepest so far (inside or not); otherwise its side, and kept when inside and deepest */
static void test_vertex(Side *s, const double v[3], int known_inside, int hint)
{
    PointHit h;
    point_query(s->y, v, s->best, INFINITY, hint, &h);
    if (!(h.d > s->best) || h.tri < 0) return;
    if (!known_inside && !side_of(s, v, &h)) return;
    ++s->inside;
    s->best = h.d;
    s->tri = h.tri;
    memcpy(s->v, v, sizeof s->v);
    memcpy(s->q, h.q, sizeof s->q);
}

/* A node of X seen from Y (eq. 11.10-11.11): its sphere (c, r) in Y's frame; whether it keeps
 * clear of Y's surface (then h.d is the exact distance of c from the surface, above r, with its
 * closest point) or meets it (h.d <= r is the distance of c to some surface point); and
 * u = h.d + r, an upper bound of the depth of every vertex under it. */
typedef struct Probe {
    int ix, skip, clear;
    double c[3], r, u;
    PointHit h;
} Probe;

/* skip = 1 when the node is outside Y's root box or no vertex under it can beat the deepest so far */
static void probe(Side *s, int ix, int hint, Probe *P)
{
    const DstBvhNode *nd = &s->x->nodes[ix];
    P->ix = ix;
    dst_rel_apply(&s->p, nd->c, P->c);
    P->r = nd->r + s->margin;
    P->skip = outside_root_box(s->y, P->c, P->r);
    if (P->skip) return;
    /* a vertex v under the node: depth(v) <= dist(v) <= dist(c) + |v - c| <= dist(c) + r. The
     * walk stops once it knows the node cannot beat the deepest so far, or that its sphere meets
     * the surface; otherwise h.d is exact and above r: the sphere keeps clear */
    double slack = P->r + s->margin;
    point_query(s->y, P->c, dst_maxd(s->best - slack, P->r), INFINITY, hint, &P->h);
    P->u = P->h.d + slack;
    P->skip = !(P->u > s->best);
    P->clear = P->h.d > P->r;
}

/* A subtree of X wholly inside Y (its node's centre c, Y frame, at the exact distance D from
 * Y's surface): every vertex under it is within D + r of it (eq. 11.11), so the subtree is
 * skipped when that cannot beat the deepest so far; otherwise its children, by the same bound
 * from their own centres, the larger first, and at a leaf its vertices. */
static void visit_inside(Side *s, int ix, const double c[3], double D, int hint)
{
    const DstBvhNode *nd = &s->x->nodes[ix];
    if (D + nd->r + 2.0 * s->margin <= s->best) return;
    if (nd->left < 0) {
        for (int t = nd->first; t < nd->first + nd->count; ++t) {
            for (int k = 0; k < 3; ++k) {
                double v[3];
                dst_rel_apply(&s->p, s->x->tri[t] + 3 * k, v);
                double w[3] = {v[0] - c[0], v[1] - c[1], v[2] - c[2]};
                if (D + sqrt(dst_dot3(w, w)) + s->margin <= s->best) continue;
                test_vertex(s, v, 1, hint);
            }
        }
        return;
    }
    int ch[2] = {nd->left, nd->right};
    double cc[2][3], dd[2], u[2];
    int tt[2];
    for (int j = 0; j < 2; ++j) {
        const DstBvhNode *n = &s->x->nodes[ch[j]];
        dst_rel_apply(&s->p, n->c, cc[j]);
        double slack = n->r + 2.0 * s->margin;
        PointHit h;
        point_query(s->y, cc[j], s->best - slack, INFINITY, hint, &h);
        dd[j] = h.d;
        tt[j] = h.tri;
        u[j] = h.d + slack; /* <= best when the walk stopped early */
    }
    int first = u[1] > u[0];
    for (int j = 0; j < 2; ++j) {
        int k = j == 0 ? first : 1 - first;
        if (u[k] > s->best) visit_inside(s, ch[k], cc[k], dd[k], tt[k]);
    }
}

/* X's subtree under the probed node (eq. 11.10): a node whose sphere keeps clear of Y's surface
 * lies wholly inside or wholly outside Y, decided by its centre; otherwise its children, the
 * one with the larger bound first, and at a leaf each (distinct) vertex on its own. Subtrees
 * and vertices whose depth bound is not above the deepest so far are skipped (eq. 11.11). */
static void visit(Side *s, const Probe *P)
{
    if (P->skip || !(P->u > s->best)) return;
    const DstBvhNode *nd = &s->x->nodes[P->ix];
    if (P->clear) {
        /* the ball (c, r) does not meet Y's surface: its centre's side is every vertex's */
        ++s->classified;
        if (side_of(s, P->c, &P->h)) visit_inside(s, P->ix, P->c, P->h.d, P->h.tri);
        return;
    }
    if (nd->left >= 0) {
        Probe L, R;
        probe(s, nd->left, P->h.tri, &L);
        probe(s, nd->right, P->h.tri, &R);
        if (!R.skip && (L.skip || R.u > L.u)) {
            visit(s, &R);
            visit(s, &L);
        } else {
            visit(s, &L);
            visit(s, &R);
        }
        return;
    }
    /* leaf near Y's surface: each distinct vertex of its triangles */
    const double *seen[3 * DST_BVH_LEAF_SIZE];
    int n_seen = 0;
    for (int t = nd->first; t < nd->first + nd->count; ++t) {
        for (int k = 0; k < 3; ++k) {
            const double *u = s->x->tri[t] + 3 * k;
            int dup = 0;
            for (int j = 0; j < n_seen && !dup; ++j) dup = seen[j][0] == u[0] && seen[j][1] == u[1] && seen[j][2] == u[2];
            if (dup) continue;
            if (n_seen < 3 * DST_BVH_LEAF_SIZE) seen[n_seen++] = u;
            double v[3];
            dst_rel_apply(&s->p, u, v);
            double w[3] = {v[0] - P->c[0], v[1] - P->c[1], v[2] - P->c[2]};
            if (P->h.d + sqrt(dst_dot3(w, w)) + s->margin <= s->best) continue;
            if (outside_root_box(s->y, v, s->margin)) continue;
            test_vertex(s, v, 0, P->h.tri);
        }
    }
}

static void run_side(Side *s, const DstBvh *x, const double Rx[9], const double xx[3], const DstBvh *y,
                     const double Ry[9], const double xy[3], double best)
{
    memset(s, 0, sizeof *s);
    s->x = x, s->y = y;
    dst_rel_pose(Ry, xy, Rx, xx, &s->p);
    s->best = best;
    s->tri = -1;
    double scale = x->radius + y->radius + sqrt(dst_dot3(s->p.t, s->p.t));
    s->margin = DST_ROUND_REL * scale;
    Probe root;
    probe(s, 0, -1, &root);
    visit(s, &root);
}

/* R (a - b) / |a - b| into n (unit) when |a - b| is not tiny; returns 0 otherwise */
static int unit_rotated(const double R[9], const double a[3], const double b[3], double n[3])
{
    double w[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    double l = sqrt(dst_dot3(w, w));
    if (!(l > DST_MIN_DENOM)) return 0;
    for (int i = 0; i < 3; ++i) n[i] = (R[3 * i] * w[0] + R[3 * i + 1] * w[1] + R[3 * i + 2] * w[2]) / l;
    return 1;
}

static void to_world(const double R[9], const double x[3], const double v[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2] + x[i];
}

/* eq. (11.1), with the witnesses of eq. (11.4) */
DstStatus dst_mesh_vertex_depth(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                const double Rb[9], const double xb[3], DstVertexDepth *out)
{
    if (out == NULL) return DST_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    out->tri = -1;
    if (a == NULL || b == NULL || a->n_tris <= 0 || b->n_tris <= 0 || a->nodes == NULL || b->nodes == NULL ||
        !a->closed || !b->closed || !pose_valid(Ra, xa) || !pose_valid(Rb, xb)) {
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    Side sa, sb;
    run_side(&sa, a, Ra, xa, b, Rb, xb, -INFINITY); /* vertices of A inside B, B frame */
    run_side(&sb, b, Rb, xb, a, Ra, xa, sa.best);   /* vertices of B inside A deeper than those */
    out->vertices_tested = sa.tested + sb.tested;
    out->vertices_inside = sa.inside + sb.inside;
    out->vertices_sided = sa.sided + sb.sided;
    out->nodes_classified = sa.classified + sb.classified;
    out->slack = 2.0 * sa.margin;
    if (sa.best < 0.0 && sb.best < 0.0) {
        out->status = DST_SEPARATED;
        return out->status;
    }
    out->status = DST_PENETRATING;
    if (sb.tri < 0) {
        /* a vertex of A inside B: pa = vertex, pb = closest point of B; n = (pb - pa) / depth */
        out->depth = sa.best;
        to_world(Rb, xb, sa.v, out->pa);
        to_world(Rb, xb, sa.q, out->pb);
        out->tri = b->tri_id[sa.tri];
        if (!unit_rotated(Rb, sa.q, sa.v, out->n) && !unit_rotated(Rb, b->nrm[sa.tri], (const double[3]){0, 0, 0}, out->n))
            out->n[2] = 1.0;
    } else {
        /* a vertex of B inside A: pb = vertex, pa = closest point of A; n = (pb - pa) / depth */
        out->depth = sb.best;
        out->from_b = 1;
        to_world(Ra, xa, sb.v, out->pb);
        to_world(Ra, xa, sb.q, out->pa);
        out->tri = a->tri_id[sb.tri];
        if (!unit_rotated(Ra, sb.v, sb.q, out->n) && !unit_rotated(Ra, (const double[3]){0, 0, 0}, a->nrm[sb.tri], out->n))
            out->n[2] = 1.0;
    }
    return out->status;
}
