/* dst_bvh.c — OBB + sphere BVH of a triangle mesh, its separation distance and the signed
 * distance of eq. (4.1) (thesis sec. II.B-C; docs/math/mesh_mcd.md sec. 1-3). */
#include "dst_bvh.h"

#include "dst_frame_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dst_capsule_internal.h"

/* stack of node pairs of one traversal: each step pops one pair and pushes at most two,
 * so the stack never holds more than depth_a + depth_b + 2 pairs */
#define DST_BVH_STACK 256

/* capacity of the best-first queue of node pairs (16 bytes each, on the stack); pairs that
 * do not fit are searched depth-first at once, which gives the same minimum */
#define DST_BVH_HEAP 2048
/* node pairs with at most this many triangles under them (both nodes) skip the queue and are
 * searched depth-first: measured 8-32 alike, 0 (all queued) +5-15 % at far clearance, 128
 * loses the plates' gain (docs/perf/mesh.md Session 15) */
#define DST_BVH_QUEUE_MIN 16

/* four doubles: the box test's 3 x 3 products, one lane per axis of B (GCC/Clang vector
 * extension; without AVX the compiler splits it into scalar or two-lane operations, each lane
 * rounding exactly as the scalar expression it stands for) */
typedef double DstV4 __attribute__((vector_size(32)));
typedef long long DstV4i __attribute__((vector_size(32)));

/* |x| lane by lane (clears the sign bits); a macro, since a function taking or returning a
 * 32-byte vector has another ABI with and without AVX (-Wpsabi) */
#define DST_V4_ABS(x) ((DstV4)((DstV4i)(x) & (DstV4i){INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX}))

static void set_err(char *err, size_t err_size, const char *msg)
{
    if (err != NULL && err_size > 0) snprintf(err, err_size, "%s", msg);
}

/* ---------------------------------------------------------------- building */

typedef struct SortKey {
    double key;
    int idx;
} SortKey;

static int cmp_key(const void *x, const void *y)
{
    double a = ((const SortKey *)x)->key, b = ((const SortKey *)y)->key;
    return (a > b) - (a < b);
}

typedef struct Builder {
    DstBvh *bvh;
    const double (*src)[9]; /* triangles in mesh order */
    int *order;             /* permutation being built */
    SortKey *keys;
} Builder;

/* Eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi rotations: rows of V (row-major)
 * are orthonormal axes. */
static void jacobi3(const double A_in[9], double V[9])
{
    double A[9];
    memcpy(A, A_in, sizeof A);
    memset(V, 0, 9 * sizeof(double));
    V[0] = V[4] = V[8] = 1.0;
    for (int sweep = 0; sweep < 12; ++sweep) {
        double off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
        double diag = A[0] * A[0] + A[4] * A[4] + A[8] * A[8];
        if (off <= 1e-30 * diag || off == 0.0) break;
        for (int p = 0; p < 2; ++p) {
            for (int q = p + 1; q < 3; ++q) {
                double apq = A[3 * p + q];
                if (apq == 0.0) continue;
                double theta = (A[3 * q + q] - A[3 * p + p]) / (2.0 * apq);
                double t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                /* A <- J^T A J, V <- V J (columns of V are the eigenvectors) */
                for (int k = 0; k < 3; ++k) {
                    double akp = A[3 * k + p], akq = A[3 * k + q];
                    A[3 * k + p] = c * akp - s * akq;
                    A[3 * k + q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {
                    double apk = A[3 * p + k], aqk = A[3 * q + k];
                    A[3 * p + k] = c * apk - s * aqk;
                    A[3 * q + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    double vkp = V[3 * k + p], vkq = V[3 * k + q];
                    V[3 * k + p] = c * vkp - s * vkq;
                    V[3 * k + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    /* columns -> rows */
    double T[9];
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) T[3 * i + k] = V[3 * k + i];
    }
    memcpy(V, T, sizeof T);
}

/* Bounding volume of the triangles order[first .. first+count-1]: an oriented box along
 * the principal axes of their vertices (docs/math/mesh_mcd.md sec. 2) and the sphere about
 * the box centre through the farthest vertex; both widened for rounding. */
static void node_volume(const Builder *b, int first, int count, DstBvhNode *nd)
{
    double m[3] = {0, 0, 0}, C[9] = {0}, mag = 0.0;
    int nv = 3 * count;
    for (int t = first; t < first + count; ++t) {
        const double *v = b->src[b->order[t]];
        for (int k = 0; k < 9; ++k) {
            m[k % 3] += v[k];
            mag = fmax(mag, fabs(v[k]));
        }
    }
    for (int i = 0; i < 3; ++i) m[i] /= nv;
    for (int t = first; t < first + count; ++t) {
        const double *v = b->src[b->order[t]];
        for (int k = 0; k < 3; ++k) {
            double w[3] = {v[3 * k] - m[0], v[3 * k + 1] - m[1], v[3 * k + 2] - m[2]};
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) C[3 * i + j] += w[i] * w[j];
            }
        }
    }
    jacobi3(C, nd->ax);
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int t = first; t < first + count; ++t) {
        const double *v = b->src[b->order[t]];
        for (int k = 0; k < 3; ++k) {
            for (int i = 0; i < 3; ++i) {
                double p = dst_dot3(nd->ax + 3 * i, v + 3 * k);
                lo[i] = fmin(lo[i], p);
                hi[i] = fmax(hi[i], p);
            }
        }
    }
    for (int i = 0; i < 3; ++i) nd->c[i] = 0.0;
    for (int i = 0; i < 3; ++i) {
        double mid = 0.5 * (lo[i] + hi[i]);
        for (int k = 0; k < 3; ++k) nd->c[k] += mid * nd->ax[3 * i + k];
        nd->h[i] = 0.5 * (hi[i] - lo[i]) + 8.0 * DST_ROUND_REL * mag;
    }
    double r2 = 0.0;
    for (int t = first; t < first + count; ++t) {
        const double *v = b->src[b->order[t]];
        for (int k = 0; k < 3; ++k) {
            double w[3] = {v[3 * k] - nd->c[0], v[3 * k + 1] - nd->c[1], v[3 * k + 2] - nd->c[2]};
            r2 = fmax(r2, dst_dot3(w, w));
        }
    }
    nd->r = sqrt(r2) * (1.0 + DST_ROUND_REL) + DST_ROUND_REL * mag;
}

/* Top-down build: split at the mean centroid along the node box's longest (principal) axis,
 * as FCL's default splitter does, clamped to the middle half. Returns the node index;
 * recursion depth is the tree depth (at most log_{4/3} of the triangle count, + 1). */
static int build_node(Builder *b, int first, int count, int level)
{
    DstBvh *bvh = b->bvh;
    int id = bvh->n_nodes++;
    DstBvhNode *nd = &bvh->nodes[id];
    node_volume(b, first, count, nd);
    if (level > bvh->depth) bvh->depth = level;
    if (count <= DST_BVH_LEAF_SIZE) {
        nd->left = nd->right = -1;
        nd->first = first;
        nd->count = count;
        return id;
    }
    /* split along the node box's longest axis (its principal direction) at the mean of the
     * triangle centroids' projections, kept within the middle half of the triangles so the
     * depth stays within log_{4/3} of the count */
    /* the axis is the node box axis along which the triangle centroids spread most: the box's
     * longest axis is the same on compact triangles, but where slivers each span the node's
     * length (a finely cut thin rim) their centroids coincide along it and a split there would
     * leave both children as long as the parent (docs/math/mesh_mcd.md sec. 2) */
    double cmin[3] = {INFINITY, INFINITY, INFINITY}, cmax[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int t = 0; t < count; ++t) {
        const double *v = b->src[b->order[first + t]];
        double cs[3] = {v[0] + v[3] + v[6], v[1] + v[4] + v[7], v[2] + v[5] + v[8]};
        for (int i = 0; i < 3; ++i) {
            double q = dst_dot3(nd->ax + 3 * i, cs);
            cmin[i] = fmin(cmin[i], q), cmax[i] = fmax(cmax[i], q);
        }
    }
    int k = 0;
    if (cmax[1] - cmin[1] > cmax[k] - cmin[k]) k = 1;
    if (cmax[2] - cmin[2] > cmax[k] - cmin[k]) k = 2;
    const double *u = nd->ax + 3 * k;
    double mean = 0.0;
    for (int t = 0; t < count; ++t) {
        const double *v = b->src[b->order[first + t]];
        b->keys[t].key = u[0] * (v[0] + v[3] + v[6]) + u[1] * (v[1] + v[4] + v[7]) + u[2] * (v[2] + v[5] + v[8]);
        b->keys[t].idx = b->order[first + t];
        mean += b->keys[t].key;
    }
    mean /= count;
    qsort(b->keys, (size_t)count, sizeof *b->keys, cmp_key);
    for (int t = 0; t < count; ++t) b->order[first + t] = b->keys[t].idx;
    int half = 0;
    while (half < count && b->keys[half].key < mean) ++half;
    if (half < count / 4) half = count / 4;
    if (half > count - count / 4) half = count - count / 4;
    if (half < 1) half = 1;
    if (half > count - 1) half = count - 1;
    int l = build_node(b, first, half, level + 1);
    int r = build_node(b, first + half, count - half, level + 1);
    nd = &bvh->nodes[id];
    nd->left = l;
    nd->right = r;
    nd->first = first;
    nd->count = count;
    return id;
}

/* Sum of the signed volumes of the hull's outward triangles (divergence theorem). */
static double hull_volume(const DstHull *h)
{
    double v = 0.0;
    for (int t = 0; t < h->ntris; ++t) {
        const double *p = h->verts + 3 * h->tris[3 * t], *q = h->verts + 3 * h->tris[3 * t + 1],
                     *r = h->verts + 3 * h->tris[3 * t + 2];
        v += p[0] * (q[1] * r[2] - q[2] * r[1]) - p[1] * (q[0] * r[2] - q[2] * r[0]) +
             p[2] * (q[0] * r[1] - q[1] * r[0]);
    }
    return v / 6.0;
}

/* root of v in the union-find forest up[], halving the path on the way */
static int uf_root(int *up, int v)
{
    while (up[v] != v) {
        up[v] = up[up[v]];
        v = up[v];
    }
    return v;
}

/* The connected components of the mesh (triangles joined through shared vertex indices) and
 * one leaf-order triangle of each, from tri_id. Returns 0 when out of memory. */
static int components(const DstMesh *mesh, DstBvh *out)
{
    int nv = mesh->n_vertices, n = out->n_tris;
    int *up = malloc((size_t)nv * sizeof *up), *first = malloc((size_t)nv * sizeof *first);
    if (up == NULL || first == NULL) {
        free(up), free(first);
        return 0;
    }
    for (int v = 0; v < nv; ++v) up[v] = v, first[v] = -1;
    for (int t = 0; t < mesh->n_triangles; ++t) {
        int r0 = uf_root(up, mesh->triangles[t][0]);
        for (int k = 1; k < 3; ++k) {
            int rk = uf_root(up, mesh->triangles[t][k]);
            if (rk != r0) up[rk] = r0;
        }
    }
    /* the first leaf-order triangle met of each root */
    int count = 0;
    for (int t = 0; t < n; ++t) {
        int r = uf_root(up, mesh->triangles[out->tri_id[t]][0]);
        if (first[r] < 0) first[r] = t, ++count;
    }
    out->component_tri = malloc((size_t)count * sizeof *out->component_tri);
    if (out->component_tri == NULL) {
        free(up), free(first);
        return 0;
    }
    out->n_components = 0;
    for (int t = 0; t < n; ++t) {
        int r = uf_root(up, mesh->triangles[out->tri_id[t]][0]);
        if (first[r] == t) out->component_tri[out->n_components++] = t;
    }
    free(up), free(first);
    return 1;
}

DstStatus dst_bvh_create(const DstMesh *mesh, DstBvh *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (mesh == NULL || mesh->n_triangles <= 0 || mesh->vertices == NULL || mesh->triangles == NULL) {
        set_err(err, err_size, "dst_bvh_create: mesh has no triangles");
        return DST_INVALID_INPUT;
    }
    int n = mesh->n_triangles;
    for (int v = 0; v < mesh->n_vertices; ++v) {
        for (int i = 0; i < 3; ++i) {
            if (!isfinite(mesh->vertices[v][i])) {
                if (err != NULL && err_size > 0) snprintf(err, err_size, "dst_bvh_create: vertices[%d] not finite", v);
                return DST_INVALID_INPUT;
            }
        }
    }
    for (int t = 0; t < n; ++t) {
        for (int k = 0; k < 3; ++k) {
            int v = mesh->triangles[t][k];
            if (v < 0 || v >= mesh->n_vertices) {
                if (err != NULL && err_size > 0)
                    snprintf(err, err_size, "dst_bvh_create: triangles[%d] index %d out of range", t, v);
                return DST_INVALID_INPUT;
            }
        }
    }
    double(*src)[9] = malloc((size_t)n * sizeof *src);
    int *order = malloc((size_t)n * sizeof *order);
    SortKey *keys = malloc((size_t)n * sizeof *keys);
    out->tri = malloc((size_t)n * sizeof *out->tri);
    out->tri_id = malloc((size_t)n * sizeof *out->tri_id);
    out->nodes = malloc((size_t)(2 * n) * sizeof *out->nodes);
    out->nrm = malloc((size_t)n * sizeof *out->nrm);
    if (src == NULL || order == NULL || keys == NULL || out->tri == NULL || out->tri_id == NULL ||
        out->nodes == NULL || out->nrm == NULL) {
        free(src), free(order), free(keys);
        dst_bvh_destroy(out);
        set_err(err, err_size, "dst_bvh_create: out of memory");
        return DST_FAILED;
    }
    for (int t = 0; t < n; ++t) {
        for (int k = 0; k < 3; ++k) memcpy(src[t] + 3 * k, mesh->vertices[mesh->triangles[t][k]], 3 * sizeof(double));
        order[t] = t;
    }
    Builder b = {out, (const double(*)[9])src, order, keys};
    build_node(&b, 0, n, 1);
    if (out->depth > DST_BVH_STACK / 2 - 2) {
        /* cannot happen: each split leaves at least a quarter of the triangles on either side,
         * so depth <= log_{4/3} n + 1 (< 120 below 2^49 triangles); the traversal stacks rely on it */
        free(src), free(order), free(keys);
        dst_bvh_destroy(out);
        set_err(err, err_size, "dst_bvh_create: tree too deep");
        return DST_FAILED;
    }
    for (int t = 0; t < n; ++t) {
        memcpy(out->tri[t], src[order[t]], sizeof out->tri[t]);
        out->tri_id[t] = order[t];
    }
    out->n_tris = n;
    free(src), free(order), free(keys);
    /* unit face normals (zero for a degenerate triangle) for the triangle prefilter */
    for (int t = 0; t < n; ++t) {
        const double *v = out->tri[t];
        double e0[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]}, e1[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
        double c[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
        double l = sqrt(dst_dot3(c, c));
        double e = sqrt(dst_dot3(e0, e0) * dst_dot3(e1, e1));
        for (int i = 0; i < 3; ++i) out->nrm[t][i] = l > DST_MESH_DEGENERATE_REL * e && l > DST_MIN_DENOM ? c[i] / l : 0.0;
    }
    /* eq. (4.7): the largest distance of a vertex from the frame origin */
    double r2 = 0.0, mag = 0.0;
    for (int v = 0; v < mesh->n_vertices; ++v) {
        r2 = fmax(r2, dst_dot3(mesh->vertices[v], mesh->vertices[v]));
    }
    mag = sqrt(r2);
    out->radius = mag * (1.0 + DST_ROUND_REL);
    /* solid or surface, convex or not */
    DstMeshReport rep;
    if (dst_mesh_validate(mesh, &rep) != DST_OK) {
        dst_bvh_destroy(out);
        set_err(err, err_size, "dst_bvh_create: mesh validation failed");
        return DST_FAILED;
    }
    out->closed = rep.oriented && rep.volume > 0.0;
    if (!components(mesh, out)) {
        dst_bvh_destroy(out);
        set_err(err, err_size, "dst_bvh_create: out of memory");
        return DST_FAILED;
    }
    char herr[160];
    if (mesh->n_vertices <= DST_BVH_HULL_MAX_VERTS) {
        if (dst_hull_build(&mesh->vertices[0][0], mesh->n_vertices, 0.0, &out->hull, herr, sizeof herr) == DST_OK) {
            out->has_hull = 1;
            double hv = hull_volume(&out->hull);
            /* several shells are never taken as convex: overlapping ones count their common
             * volume twice, which could match the hull's by accident */
            out->convex = out->closed && out->n_components == 1 &&
                          fabs(hv - rep.volume) <= DST_BVH_CONVEX_VOL_REL * hv;
        }
    } else {
        /* quickhull costs O(n h): for a very large mesh its bounding box stands in for the
         * hull (it contains the mesh too, so depth bounds stay valid, only looser) */
        double box[8][3];
        for (int k = 0; k < 8; ++k) {
            box[k][0] = (k & 1) ? rep.bbox_max[0] : rep.bbox_min[0];
            box[k][1] = (k & 2) ? rep.bbox_max[1] : rep.bbox_min[1];
            box[k][2] = (k & 4) ? rep.bbox_max[2] : rep.bbox_min[2];
        }
        if (dst_hull_build(&box[0][0], 8, 0.0, &out->hull, herr, sizeof herr) == DST_OK) {
            out->has_hull = 1;
            out->hull_is_box = 1;
        }
    }
    return DST_OK;
}

void dst_bvh_destroy(DstBvh *bvh)
{
    if (bvh == NULL) return;
    free(bvh->nodes);
    free(bvh->tri);
    free(bvh->tri_id);
    free(bvh->nrm);
    free(bvh->component_tri);
    if (bvh->has_hull) dst_hull_destroy(&bvh->hull);
    memset(bvh, 0, sizeof *bvh);
}

void dst_bvh_cache_reset(DstBvhCache *cache)
{
    cache->tri_a = cache->tri_b = -1;
    dst_gjk_cache_reset(&cache->gjk);
}

/* ---------------------------------------------------------------- queries */

static void xform_tri(const DstRelPose *p, const double v[9], double o[9])
{
    dst_rel_apply(p, v, o);
    dst_rel_apply(p, v + 3, o + 3);
    dst_rel_apply(p, v + 6, o + 6);
}

static void to_world(const double R[9], const double x[3], const double v[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2] + x[i];
}

static int pose_ok(const double R[9], const double x[3])
{
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(R[i])) return 0;
    }
    for (int i = 0; i < 3; ++i) {
        if (!isfinite(x[i]) || fabs(x[i]) > DST_MESH_MAX_COORD) return 0;
        for (int j = 0; j < 3; ++j) {
            double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
            if (fabs(d - (i == j ? 1.0 : 0.0)) > DST_ROTATION_TOL) return 0;
        }
    }
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    return det > 0.0;
}

typedef struct Best {
    double d;
    double tol;          /* pairs whose lower bound is above thr (and above 0) are pruned */
    double ref, rel;     /* thr = d - max(tol, rel (d - ref)), 0 <= rel < 1 (eq. 5b) */
    double level;        /* finite: thr = min(level, d - max(tol, rel (d - ref))) (eq. 5d) */
    double thr;
    int ta, tb;
    double pa[3], pb[3]; /* A frame */
    int has_w;           /* 1: w holds the witness axis */
    double w[3], wb[3];  /* unit (pa - pb) / |pa - pb| of the best pair, A frame; R^T w, B frame */
} Best;

/* One node as node_lb needs it beside the other node of the pair: B's centre in A's frame,
 * each box's half width along the witness axis, B's axes in A's frame. The two child pairs
 * of one expansion share a node; its view is computed once for both (on first need), with
 * the same operations in the same order as for one pair, so no bound changes by a bit. */
typedef struct NodeView {
    const DstBvhNode *nd;
    int has_s, has_t; /* 1: s (half width along w), T (B's axes in A's frame) filled */
    double c[3];      /* B nodes: the centre in A's frame, R c + t (A nodes: unused) */
    double s;
    DstV4 T[3];       /* B nodes: T_i[j] = (R b_j)_i, lane 3 zero */
} NodeView;

static void view_a(NodeView *v, const DstBvhNode *nd)
{
    v->nd = nd;
    v->has_s = v->has_t = 0;
}

static void view_b(NodeView *v, const DstBvhNode *nd, const DstRelPose *p)
{
    v->nd = nd;
    v->has_s = v->has_t = 0;
    dst_rel_apply(p, nd->c, v->c);
}

/* half width of the node's box along the unit axis u (its own frame): sum h_i |axis_i . u| */
static double view_width(NodeView *v, const double u[3])
{
    if (!v->has_s) {
        const DstBvhNode *n = v->nd;
        v->s = n->h[0] * fabs(dst_dot3(n->ax, u)) + n->h[1] * fabs(dst_dot3(n->ax + 3, u)) +
               n->h[2] * fabs(dst_dot3(n->ax + 6, u));
        v->has_s = 1;
    }
    return v->s;
}

/* Lower bound of the distance between node va (A frame) and node vb (B frame): the sphere
 * gap; the gap of the two oriented boxes along the witness axis of the best pair so far
 * (the direction of the closest points found: node pairs near the answer are separated
 * along about that direction, so the bound stays tight at any clearance); and when the
 * spheres are close, the largest gap of the two boxes along their 6 face axes and the
 * centre line (any unit axis separates by at most the distance; sec. 2). */
static double node_lb(NodeView *va, NodeView *vb, const DstRelPose *p, const Best *bs)
{
    const DstBvhNode *na = va->nd, *nb = vb->nd;
    double best = bs->thr;
    const double *c = vb->c;
    double D[3] = {c[0] - na->c[0], c[1] - na->c[1], c[2] - na->c[2]};
    double dd = sqrt(dst_dot3(D, D));
    double lb = dd - na->r - nb->r;
    if (lb >= best) return lb - DST_ROUND_REL * (dd + na->r + nb->r);
    if (bs->has_w) {
        /* projections of the boxes on the unit axis w: half widths sum h_i |axis_i . w| */
        double sa = view_width(va, bs->w);
        double sb = view_width(vb, bs->wb);
        lb = dst_maxd(lb, fabs(dst_dot3(D, bs->w)) - sa - sb);
        if (lb >= best) return lb - DST_ROUND_REL * (dd + na->r + nb->r);
    }
    /* every axis gap of (4) is at most |D| minus the two thinnest half extents (the axes' unit
     * vector has projections summing to at least 1 on each box basis): when that cannot reach
     * the pruning level, the box test cannot prune and is skipped */
    double hmin_a = dst_mind(na->h[0], dst_mind(na->h[1], na->h[2]));
    double hmin_b = dst_mind(nb->h[0], dst_mind(nb->h[1], nb->h[2]));
    if (dd - hmin_a - hmin_b < best) return lb - DST_ROUND_REL * (dd + na->r + nb->r);
    /* B's axes in A's frame, then in A's box basis: M[k][j] = a_k . (R b_j). Four-lane
     * vectors over j (lane 3 unused) with the scalar sums' order, so every value is the one
     * the scalar form gives bit for bit: T_i[j] = (R b_j)_i, Mr_k[j] = M[k][j] */
    if (!vb->has_t) {
        DstV4 b0 = {nb->ax[0], nb->ax[3], nb->ax[6], 0.0}, b1 = {nb->ax[1], nb->ax[4], nb->ax[7], 0.0},
              b2 = {nb->ax[2], nb->ax[5], nb->ax[8], 0.0};
        for (int i = 0; i < 3; ++i) vb->T[i] = p->R[3 * i] * b0 + p->R[3 * i + 1] * b1 + p->R[3 * i + 2] * b2;
        vb->has_t = 1;
    }
    const DstV4 *T = vb->T;
    DstV4 Mr[3];
    double dA[3];
    for (int k = 0; k < 3; ++k) {
        const double *ak = na->ax + 3 * k;
        dA[k] = dst_dot3(ak, D);
        Mr[k] = DST_V4_ABS(ak[0] * T[0] + ak[1] * T[1] + ak[2] * T[2]);
    }
    DstV4 hb = {nb->h[0], nb->h[1], nb->h[2], 0.0};
    /* A's face axes: |a_k . D| - h_k - sum_j hb_j |M[k][j]| */
    for (int k = 0; k < 3; ++k) {
        DstV4 q = hb * Mr[k];
        double g = fabs(dA[k]) - na->h[k] - q[0] - q[1] - q[2];
        lb = dst_maxd(lb, g);
    }
    /* B's face axes: |(R b_j) . D| - hb_j - sum_k h_k |M[k][j]| */
    DstV4 bd = DST_V4_ABS(T[0] * D[0] + T[1] * D[1] + T[2] * D[2]);
    DstV4 gb = bd - hb - na->h[0] * Mr[0] - na->h[1] * Mr[1] - na->h[2] * Mr[2];
    lb = dst_maxd(lb, dst_maxd(gb[0], dst_maxd(gb[1], gb[2])));
    DstV4 rb = hb * bd;
    double rq = 0.0 + rb[0] + rb[1] + rb[2];
    /* and along the centre line D itself (diagonal configurations, where face axes are weak) */
    if (dd > DST_MIN_DENOM) {
        double rp = na->h[0] * fabs(dA[0]) + na->h[1] * fabs(dA[1]) + na->h[2] * fabs(dA[2]);
        lb = dst_maxd(lb, dd - (rp + rq) / dd);
    }
    /* rounding of the projections (unit axes to ~1e-16, coordinates of size |D| + r) */
    return lb - DST_ROUND_REL * (dd + na->r + nb->r);
}

/* Gap of two vertex triples along the axis u, times |u|: divided by |u| > 0, a lower bound of
 * their distance (any axis gives one), widened for rounding; negative when the projections
 * overlap. For a unit axis it is the gap itself (x / 1 is x, bit for bit: no division). */
static double axis_gap(const double u[3], const double *ta, const double *tb)
{
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY, mag = 0.0;
    for (int k = 0; k < 3; ++k) {
        double x = dst_dot3(u, ta + 3 * k), y = dst_dot3(u, tb + 3 * k);
        amin = dst_mind(amin, x), amax = dst_maxd(amax, x);
        bmin = dst_mind(bmin, y), bmax = dst_maxd(bmax, y);
        mag = dst_maxd(mag, dst_maxd(fabs(x), fabs(y)));
    }
    return dst_maxd(amin - bmax, bmin - amax) - 4.0 * DST_ROUND_REL * mag;
}

/* the pruning threshold for the best distance d: d - max(tol, rel (d - ref)) (eq. 5b), capped
 * at level (eq. 5d); it grows with d (rel < 1), so a pair pruned earlier stays below every
 * later threshold's d */
static double best_thr(const Best *b)
{
    if (!(b->d < INFINITY)) return INFINITY;
    double t = b->rel > 0.0 ? b->rel * (b->d - b->ref) : 0.0;
    double thr = b->d - (t > b->tol ? t : b->tol);
    return b->level < thr ? b->level : thr;
}

static void try_pair(const DstBvh *a, const DstBvh *b, const DstRelPose *p, int ta, int tb, Best *best,
                     DstMeshDistance *out)
{
    double tbw[9];
    DstTriPair tp;
    xform_tri(p, b->tri[tb], tbw);
    /* cheap lower bounds first: the gaps of the two vertex triples along the axis joining
     * their centroids and along both face normals (sec. 2); the exact kernel only when none
     * rules out beating the best. Pairs that may touch (gap <= 0) always reach the kernel. */
    const double *ta9 = a->tri[ta];
    double thr = best->thr;
    if (best->d < INFINITY) {
        if (best->has_w) {
            /* the witness axis of the best pair (unit): tight for the pairs near the answer */
            double g = axis_gap(best->w, ta9, tbw);
            if (g >= thr && g > 0.0) return;
        }
        double w[3];
        for (int i = 0; i < 3; ++i) w[i] = (ta9[i] + ta9[3 + i] + ta9[6 + i]) - (tbw[i] + tbw[3 + i] + tbw[6 + i]);
        double wl = sqrt(dst_dot3(w, w));
        if (wl > DST_MIN_DENOM) {
            double g = axis_gap(w, ta9, tbw) / wl;
            if (g >= thr && g > 0.0) return;
        }
        const double *na = a->nrm[ta];
        if (na[0] != 0.0 || na[1] != 0.0 || na[2] != 0.0) {
            double g = axis_gap(na, ta9, tbw);
            if (g >= thr && g > 0.0) return;
        }
        const double *nb = b->nrm[tb];
        if (nb[0] != 0.0 || nb[1] != 0.0 || nb[2] != 0.0) {
            double nw[3];
            for (int i = 0; i < 3; ++i) nw[i] = p->R[3 * i] * nb[0] + p->R[3 * i + 1] * nb[1] + p->R[3 * i + 2] * nb[2];
            double g = axis_gap(nw, ta9, tbw);
            if (g >= thr && g > 0.0) return;
        }
    }
    dst_tri_distance(a->tri[ta], tbw, &tp);
    ++out->tri_pairs;
    if (tp.dist < best->d) {
        best->d = tp.dist;
        best->thr = best_thr(best);
        best->ta = ta, best->tb = tb;
        memcpy(best->pa, tp.pa, sizeof best->pa);
        memcpy(best->pb, tp.pb, sizeof best->pb);
        /* the witness axis for node_lb: unit pa - pb, and the same in B's frame */
        double w[3] = {tp.pa[0] - tp.pb[0], tp.pa[1] - tp.pb[1], tp.pa[2] - tp.pb[2]};
        double wl = sqrt(dst_dot3(w, w));
        best->has_w = wl > DST_MIN_DENOM;
        if (best->has_w) {
            for (int i = 0; i < 3; ++i) best->w[i] = w[i] / wl;
            for (int j = 0; j < 3; ++j) {
                best->wb[j] = p->R[j] * best->w[0] + p->R[3 + j] * best->w[1] + p->R[6 + j] * best->w[2];
            }
        }
    }
}

/* Children of the node pair (ia, ib) whose bounds may still beat the best: the larger sphere
 * (or the node that is not a leaf) is split. c[0] gets the farther pair, c[1] the nearer;
 * returns how many of them are kept (the nearer is the last kept), 0 when both are pruned. */
static int expand_pair(const DstBvh *a, const DstBvh *b, const DstRelPose *p, const Best *best, int ia, int ib,
                       int c[2][2], double l[2], DstMeshDistance *out)
{
    const DstBvhNode *na = &a->nodes[ia], *nb = &b->nodes[ib];
    if (nb->left < 0 || (na->left >= 0 && na->r >= nb->r)) {
        c[0][0] = na->left, c[0][1] = ib, c[1][0] = na->right, c[1][1] = ib;
    } else {
        c[0][0] = ia, c[0][1] = nb->left, c[1][0] = ia, c[1][1] = nb->right;
    }
    /* the node both child pairs share is seen once */
    NodeView va[2], vb[2];
    if (c[0][1] == c[1][1]) {
        view_a(&va[0], &a->nodes[c[0][0]]), view_a(&va[1], &a->nodes[c[1][0]]);
        view_b(&vb[0], &b->nodes[ib], p);
        l[0] = node_lb(&va[0], &vb[0], p, best);
        l[1] = node_lb(&va[1], &vb[0], p, best);
    } else {
        view_a(&va[0], na);
        view_b(&vb[0], &b->nodes[c[0][1]], p), view_b(&vb[1], &b->nodes[c[1][1]], p);
        l[0] = node_lb(&va[0], &vb[0], p, best);
        l[1] = node_lb(&va[0], &vb[1], p, best);
    }
    out->node_pairs += 2;
    /* the nearer pair last; a selection, not a branch: which child is nearer is data, and the
     * bounds it compares end long chains (square root, division), so a mispredicted branch
     * here would cost their whole latency */
    int sw = l[0] < l[1];
    int c00 = sw ? c[1][0] : c[0][0], c01 = sw ? c[1][1] : c[0][1];
    int c10 = sw ? c[0][0] : c[1][0], c11 = sw ? c[0][1] : c[1][1];
    double l0 = sw ? l[1] : l[0], l1 = sw ? l[0] : l[1];
    c[0][0] = c00, c[0][1] = c01, c[1][0] = c10, c[1][1] = c11, l[0] = l0, l[1] = l1;
    /* relaxed pruning never skips a pair that might touch (lb <= 0): overlap must be seen */
    int keep1 = l[1] < best->thr || l[1] <= 0.0, keep0 = l[0] < best->thr || l[0] <= 0.0;
    if (!keep1) return 0; /* l0 >= l1 > 0 and l1 >= thr: both pruned */
    if (!keep0) {
        c[0][0] = c[1][0], c[0][1] = c[1][1], l[0] = l[1];
        return 1;
    }
    return 2;
}

/* Depth-first traversal from the node pair (ia, ib) with the nearer child pair first; a pair
 * is pruned when its bound is not below the best distance found (sec. II.B). Used for
 * warm-started queries and for the pairs that do not fit the best-first queue of traverse(). */
static void traverse_dfs(const DstBvh *a, const DstBvh *b, const DstRelPose *p, Best *best, int ia0, int ib0,
                         double lb0, DstMeshDistance *out)
{
    /* each entry keeps the bound computed when it was pushed: best only falls, so a bound
     * that prunes now would have pruned then, and the pair is dropped without a retest */
    int stack[DST_BVH_STACK][2], top = 0;
    double stack_lb[DST_BVH_STACK];
    stack[top][0] = ia0, stack[top][1] = ib0, stack_lb[top] = lb0, ++top;
    while (top > 0 && best->d > 0.0) {
        --top;
        int ia = stack[top][0], ib = stack[top][1];
        double lb = stack_lb[top];
        if (lb >= best->thr && lb > 0.0) continue;
        const DstBvhNode *na = &a->nodes[ia], *nb = &b->nodes[ib];
        if (na->left < 0 && nb->left < 0) {
            for (int i = na->first; i < na->first + na->count; ++i) {
                for (int j = nb->first; j < nb->first + nb->count; ++j) try_pair(a, b, p, i, j, best, out);
            }
            continue;
        }
        int c[2][2];
        double l[2];
        int n = expand_pair(a, b, p, best, ia, ib, c, l, out);
        /* the farther first so that the nearer is expanded next; the stack never holds more
         * than depth_a + depth_b + 2 entries (one sibling per descent level) */
        for (int k = 2 - n; k < 2 && n > 0; ++k) {
            int s = n == 1 ? 0 : k;
            if (top < DST_BVH_STACK) stack[top][0] = c[s][0], stack[top][1] = c[s][1], stack_lb[top] = l[s], ++top;
        }
    }
}

/* queue of node pairs for the best-first order, a binary min-heap on the bound */
typedef struct PairEntry {
    double lb;
    int ia, ib;
} PairEntry;

static void heap_push(PairEntry *h, int *n, PairEntry e)
{
    int i = (*n)++;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (h[up].lb <= e.lb) break;
        h[i] = h[up];
        i = up;
    }
    h[i] = e;
}

static PairEntry heap_pop(PairEntry *h, int *n)
{
    PairEntry top = h[0], e = h[--*n];
    int i = 0;
    for (;;) {
        int k = 2 * i + 1;
        if (k >= *n) break;
        if (k + 1 < *n && h[k + 1].lb < h[k].lb) ++k;
        if (e.lb <= h[k].lb) break;
        h[i] = h[k];
        i = k;
    }
    if (*n > 0) h[i] = e;
    return top;
}

/* Best-first traversal with dives (docs/math/mesh_mcd.md sec. 2, eq. 5c): the pair of least
 * bound is taken from the queue and followed down its nearer children to a leaf pair, the
 * farther sibling of each step going to the queue (or, when few triangles lie under it, to a
 * depth-first stack searched first). The first dive finds a near answer at once; after it, no
 * pair is expanded while a pair of smaller bound waits, so pairs whose bound lies between the
 * final distance and an early, poorer best are left alone. Every pair is either expanded or
 * pruned by a bound not below the threshold, as in the depth-first order: the result is the
 * same minimum. */
static void traverse(const DstBvh *a, const DstBvh *b, const DstRelPose *p, Best *best, DstMeshDistance *out)
{
    PairEntry heap[DST_BVH_HEAP];
    int n = 0;
    /* small pairs (few triangles under them) wait on a depth-first stack, searched before the
     * queue is consulted again: the order among them matters little, a queue operation costs */
    PairEntry stack[DST_BVH_STACK];
    int top = 0;
    heap[n++] = (PairEntry){-INFINITY, 0, 0};
    while ((n > 0 || top > 0) && best->d > 0.0) {
        PairEntry e;
        if (top > 0) {
            e = stack[--top];
            if (e.lb >= best->thr && e.lb > 0.0) continue;
        } else {
            e = heap_pop(heap, &n);
            /* the least bound of the queue prunes: so does every other */
            if (e.lb >= best->thr && e.lb > 0.0) break;
        }
        int ia = e.ia, ib = e.ib;
        for (;;) {
            const DstBvhNode *na = &a->nodes[ia], *nb = &b->nodes[ib];
            if (na->left < 0 && nb->left < 0) {
                for (int i = na->first; i < na->first + na->count; ++i) {
                    for (int j = nb->first; j < nb->first + nb->count; ++j) try_pair(a, b, p, i, j, best, out);
                }
                break;
            }
            int c[2][2];
            double l[2];
            int k = expand_pair(a, b, p, best, ia, ib, c, l, out);
            if (k == 0) break;
            if (k == 2) {
                PairEntry f = {l[0], c[0][0], c[0][1]};
                if (a->nodes[f.ia].count + b->nodes[f.ib].count <= DST_BVH_QUEUE_MIN && top < DST_BVH_STACK) {
                    stack[top++] = f;
                } else if (n < DST_BVH_HEAP) {
                    heap_push(heap, &n, f);
                } else {
                    /* the farther sibling is searched at once when the queue is full */
                    traverse_dfs(a, b, p, best, f.ia, f.ib, f.lb, out);
                }
            }
            ia = c[1][0], ib = c[1][1];
            if (!(best->d > 0.0)) break;
        }
    }
}

static void zero_out(DstMeshDistance *out)
{
    memset(out, 0, sizeof *out);
    out->tri_a = out->tri_b = -1;
}

/* Separation: minimum over the triangle pairs (sec. II.B), exact for tol = 0. */
DstStatus dst_bvh_separation_tol(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                 const double Rb[9], const double xb[3], double tol, DstBvhCache *cache,
                                 DstMeshDistance *out)
{
    return dst_bvh_separation_rel(a, Ra, xa, b, Rb, xb, tol, 0.0, 0.0, cache, out);
}

DstStatus dst_bvh_separation_rel(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                 const double Rb[9], const double xb[3], double tol, double ref, double rel,
                                 DstBvhCache *cache, DstMeshDistance *out)
{
    return dst_bvh_separation_level(a, Ra, xa, b, Rb, xb, tol, ref, rel, INFINITY, cache, out);
}

DstStatus dst_bvh_separation_level(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                   const double Rb[9], const double xb[3], double tol, double ref, double rel,
                                   double level, DstBvhCache *cache, DstMeshDistance *out)
{
    zero_out(out);
    if (a == NULL || b == NULL || a->n_tris <= 0 || b->n_tris <= 0 || !pose_ok(Ra, xa) || !pose_ok(Rb, xb) ||
        !(tol >= 0.0) || !isfinite(tol) || !(rel >= 0.0 && rel < 1.0) || (rel > 0.0 && !isfinite(ref)) ||
        isnan(level)) {
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    DstRelPose p;
    dst_rel_pose(Ra, xa, Rb, xb, &p);
    Best best = {INFINITY, tol, ref, rel, level, INFINITY, -1, -1, {0, 0, 0}, {0, 0, 0}, 0, {0, 0, 0}, {0, 0, 0}};
    /* the computed minimum is a real distance of two points on the surfaces (rounding of
     * the witnesses aside); the exact minimum is within the kernel's rounding of it, and
     * within tol below it when pruning was relaxed */
    double scale = a->radius + b->radius + sqrt(dst_dot3(p.t, p.t));
    double slack = DST_ROUND_REL * scale;
    /* warm start: the last closest pair bounds the answer from above */
    if (cache != NULL && cache->tri_a >= 0 && cache->tri_a < a->n_tris && cache->tri_b >= 0 &&
        cache->tri_b < b->n_tris) {
        try_pair(a, b, &p, cache->tri_a, cache->tri_b, &best, out);
    }
    /* cold: best-first (eq. 5c) finds a near answer early; warm, the cached pair already gave
     * one, and the depth-first order expands the same pairs without queue operations */
    if (best.d < INFINITY) traverse_dfs(a, b, &p, &best, 0, 0, -INFINITY, out);
    else traverse(a, b, &p, &best, out);
    if (cache != NULL) cache->tri_a = best.ta, cache->tri_b = best.tb;
    to_world(Ra, xa, best.pa, out->pa);
    to_world(Ra, xa, best.pb, out->pb);
    out->tri_a = a->tri_id[best.ta];
    out->tri_b = b->tri_id[best.tb];
    out->distance = best.d;
    out->exact = tol == 0.0 && rel == 0.0 && level == INFINITY;
    out->lower = fmax(0.0, best.thr - slack);
    out->upper = best.d + slack;
    double w[3] = {out->pa[0] - out->pb[0], out->pa[1] - out->pb[1], out->pa[2] - out->pb[2]};
    double nw = sqrt(dst_dot3(w, w));
    if (best.d > slack && nw > DST_MIN_DENOM) {
        for (int i = 0; i < 3; ++i) out->n[i] = w[i] / nw;
        out->status = DST_SEPARATED;
    } else {
        /* surfaces meet: normal of B's triangle, turned towards A's centre */
        const double *t = b->tri[best.tb];
        double e0[3] = {t[3] - t[0], t[4] - t[1], t[5] - t[2]}, e1[3] = {t[6] - t[0], t[7] - t[1], t[8] - t[2]};
        double nb[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
        double nl = sqrt(dst_dot3(nb, nb));
        if (nl > DST_MIN_DENOM) {
            for (int i = 0; i < 3; ++i) {
                out->n[i] = (Rb[3 * i] * nb[0] + Rb[3 * i + 1] * nb[1] + Rb[3 * i + 2] * nb[2]) / nl;
            }
        } else {
            out->n[2] = 1.0;
        }
        out->status = DST_TOUCHING;
    }
    return out->status;
}

DstStatus dst_bvh_separation(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                             const double Rb[9], const double xb[3], DstBvhCache *cache,
                             DstMeshDistance *out)
{
    return dst_bvh_separation_tol(a, Ra, xa, b, Rb, xb, 0.0, cache, out);
}

/* Crossings of the ray p + u d (u > 0) with the triangles, by a sphere-tree walk: *count of
 * them, and *winding, their signed sum (+1 where the ray leaves through a face's outward side,
 * -1 where it enters; eq. 11.13). Returns 0, or -1 when the ray grazes an edge or vertex
 * (ambiguous; nothing written). */
static int ray_crossings(const DstBvh *bvh, const double p[3], const double d[3], int *count_out,
                         int *winding)
{
    int stack[DST_BVH_STACK], top = 0, count = 0, wind = 0;
    stack[top++] = 0;
    while (top > 0) {
        const DstBvhNode *nd = &bvh->nodes[stack[--top]];
        /* ray misses the sphere: distance from the centre to the ray above r */
        double w[3] = {nd->c[0] - p[0], nd->c[1] - p[1], nd->c[2] - p[2]};
        double u = dst_dot3(w, d);
        double q2 = dst_dot3(w, w) - (u > 0.0 ? u * u : 0.0);
        if (q2 > nd->r * nd->r) continue;
        if (nd->left >= 0) {
            if (top + 2 <= DST_BVH_STACK) stack[top++] = nd->left, stack[top++] = nd->right;
            continue;
        }
        for (int t = nd->first; t < nd->first + nd->count; ++t) {
            const double *v = bvh->tri[t];
            /* signed volumes of the ray with each edge decide the crossing (Pluecker-like) */
            double a[3] = {v[0] - p[0], v[1] - p[1], v[2] - p[2]};
            double b[3] = {v[3] - p[0], v[4] - p[1], v[5] - p[2]};
            double c[3] = {v[6] - p[0], v[7] - p[1], v[8] - p[2]};
            double ab[3], bc[3], ca[3];
            ab[0] = a[1] * b[2] - a[2] * b[1], ab[1] = a[2] * b[0] - a[0] * b[2], ab[2] = a[0] * b[1] - a[1] * b[0];
            bc[0] = b[1] * c[2] - b[2] * c[1], bc[1] = b[2] * c[0] - b[0] * c[2], bc[2] = b[0] * c[1] - b[1] * c[0];
            ca[0] = c[1] * a[2] - c[2] * a[1], ca[1] = c[2] * a[0] - c[0] * a[2], ca[2] = c[0] * a[1] - c[1] * a[0];
            double s0 = dst_dot3(d, ab), s1 = dst_dot3(d, bc), s2 = dst_dot3(d, ca);
            if (s0 == 0.0 || s1 == 0.0 || s2 == 0.0) {
                if ((s0 >= 0.0 && s1 >= 0.0 && s2 >= 0.0) || (s0 <= 0.0 && s1 <= 0.0 && s2 <= 0.0)) return -1;
                continue;
            }
            if ((s0 > 0.0) != (s1 > 0.0) || (s1 > 0.0) != (s2 > 0.0)) continue;
            /* the line crosses the triangle; the crossing is ahead when p is behind the plane
             * as seen along d: sign of (a . n) against d . n */
            double n[3] = {ab[0] + bc[0] + ca[0], ab[1] + bc[1] + ca[1], ab[2] + bc[2] + ca[2]};
            double vol = a[0] * bc[0] + a[1] * bc[1] + a[2] * bc[2]; /* a . (b x c) = 6 volume */
            double dn = dst_dot3(d, n);
            if (vol == 0.0) return -1; /* p on the triangle's plane */
            if ((vol > 0.0) == (dn > 0.0)) {
                ++count;
                wind += dn > 0.0 ? 1 : -1;
            }
        }
    }
    *count_out = count;
    *winding = wind;
    return 0;
}

int dst_bvh_contains(const DstBvh *bvh, const double p[3])
{
    static const double dirs[3][3] = {{0.5773502691896258, 0.5773502691896257, 0.5773502691896259},
                                      {-0.3713906763541037, 0.5570860145311556, 0.7427813527082074},
                                      {0.8017837257372732, -0.2672612419124244, -0.5345224838248488}};
    if (bvh == NULL || !bvh->closed) return 0;
    /* outside the root sphere: outside */
    const DstBvhNode *root = &bvh->nodes[0];
    double w[3] = {p[0] - root->c[0], p[1] - root->c[1], p[2] - root->c[2]};
    if (dst_dot3(w, w) > root->r * root->r) return 0;
    int votes = 0, valid = 0;
    for (int k = 0; k < 3; ++k) {
        int count, winding;
        if (ray_crossings(bvh, p, dirs[k], &count, &winding) < 0) continue;
        /* one shell: parity (eq. 6); several, possibly overlapping: winding > 0 (eq. 11.13) */
        votes += bvh->n_components > 1 ? winding > 0 : count & 1;
        ++valid;
    }
    return valid > 0 && 2 * votes > valid;
}

/* Penetration depth of the hulls by GJK + EPA (sec. II.C). */
static int hull_distance(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                         const double Rb[9], const double xb[3], DstBvhCache *cache, DstConvexDistance *cd)
{
    if (!a->has_hull || !b->has_hull) return 0;
    DstConvex ca = dst_hull_convex(&a->hull), cb = dst_hull_convex(&b->hull);
    dst_convex_set_pose(&ca, Ra, xa);
    dst_convex_set_pose(&cb, Rb, xb);
    DstStatus st = dst_convex_distance(&ca, &cb, NULL, NULL, cache != NULL ? &cache->gjk : NULL, cd, NULL, 0);
    return st == DST_SEPARATED || st == DST_TOUCHING || st == DST_PENETRATING || st == DST_ITER_LIMIT;
}

DstStatus dst_bvh_distance(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                           const double Rb[9], const double xb[3], DstBvhCache *cache,
                           DstMeshDistance *out)
{
    return dst_bvh_distance_tol(a, Ra, xa, b, Rb, xb, 0.0, cache, out);
}

/* Signed distance of eq. (4.1): separation, containment, penetration depth. */
DstStatus dst_bvh_distance_tol(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                               const double Rb[9], const double xb[3], double tol, DstBvhCache *cache,
                               DstMeshDistance *out)
{
    return dst_bvh_distance_rel(a, Ra, xa, b, Rb, xb, tol, 0.0, 0.0, cache, out);
}

DstStatus dst_bvh_distance_rel(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                               const double Rb[9], const double xb[3], double tol, double ref, double rel,
                               DstBvhCache *cache, DstMeshDistance *out)
{
    return dst_bvh_distance_level(a, Ra, xa, b, Rb, xb, tol, ref, rel, INFINITY, cache, out);
}

DstStatus dst_bvh_distance_level(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                 const double Rb[9], const double xb[3], double tol, double ref, double rel,
                                 double level, DstBvhCache *cache, DstMeshDistance *out)
{
    DstStatus st = dst_bvh_separation_level(a, Ra, xa, b, Rb, xb, tol, ref, rel, level, cache, out);
    if (st == DST_INVALID_INPUT) return st;
    if (st == DST_SEPARATED) {
        /* apart surfaces: the solids overlap only if one contains the other. A component
         * of A (a connected shell) meets no surface of B, so it lies in one region of B and
         * one of its vertices inside B decides it; likewise B's components in A (both
         * closed). A mesh of one component: its first triangle, as before */
        if (!a->closed || !b->closed) return st;
        DstRelPose pab, pba;
        double v[3];
        dst_rel_pose(Rb, xb, Ra, xa, &pab); /* A's points in B's frame */
        for (int k = 0; k < a->n_components && out->overlap == 0; ++k) {
            dst_rel_apply(&pab, a->tri[a->component_tri[k]], v);
            if (dst_bvh_contains(b, v)) out->overlap = 2;
        }
        if (out->overlap == 0) {
            dst_rel_pose(Ra, xa, Rb, xb, &pba);
            for (int k = 0; k < b->n_components && out->overlap == 0; ++k) {
                dst_rel_apply(&pba, b->tri[b->component_tri[k]], v);
                if (dst_bvh_contains(a, v)) out->overlap = 2;
            }
        }
        if (out->overlap == 0) return st;
    } else {
        out->overlap = 1;
        if (!a->closed || !b->closed) {
            /* surfaces: touching is the signed distance 0 */
            out->distance = 0.0;
            out->lower = out->upper = 0.0;
            return out->status;
        }
    }
    /* overlapping solids: depth from the hulls */
    DstConvexDistance cd;
    int have = hull_distance(a, Ra, xa, b, Rb, xb, cache, &cd);
    out->status = DST_PENETRATING;
    if (a->convex && b->convex && have) {
        /* convex meshes are their hulls: exact depth, EPA witnesses */
        out->distance = fmin(cd.distance, 0.0);
        out->lower = fmin(cd.lower, 0.0);
        out->upper = fmin(cd.upper, 0.0);
        memcpy(out->pa, cd.point_a, sizeof out->pa);
        memcpy(out->pb, cd.point_b, sizeof out->pb);
        memcpy(out->n, cd.normal, sizeof out->n);
        out->tri_a = out->tri_b = -1;
        out->exact = 1;
        if (out->upper >= 0.0) out->status = DST_TOUCHING;
        return out->status;
    }
    /* non-convex: hulls contain the meshes, so their depth bounds the depth from above and
     * -depth(hulls) bounds the signed distance from below; overlapping solids have a signed
     * distance <= 0 */
    out->exact = 0;
    /* containment with surfaces apart by d_sep: every translation shorter than d_sep keeps
     * the inner solid inside, so the depth is at least d_sep (docs/math/mesh_mcd.md eq. 8) */
    double sep_lower = out->overlap == 2 ? out->lower : 0.0;
    out->upper = -sep_lower;
    out->distance = out->upper;
    if (have) {
        out->lower = fmin(cd.lower, 0.0);
        if (cd.status == DST_PENETRATING) memcpy(out->n, cd.normal, sizeof out->n);
    } else {
        /* flat hulls cannot contain a volume overlap; keep the trivial bound */
        out->lower = -2.0 * (a->radius + b->radius);
    }
    return out->status;
}
