/* dst_phong.c — PhongDist (thesis ch. V, eq. (5.1)-(5.14), Algorithm 5.1): the partial
 * boundary of the Minkowski sum from the Gauss maps of the two meshes (sec. V.E), the
 * continuous normal field on it, the Phong projection of the origin by Newton's method
 * (eq. 5.4-5.6), and the gradient by the implicit-function theorem. docs/math/phong.md. */
#include "dst_phong.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dst_capsule_internal.h"
#include "dst_frame_internal.h"
#include "dst_mesh_depth.h"
#include "dst_phong_internal.h"
#include "dst_tolerance.h"

/* node pairs on the traversal stack of the sphere trees (depth-first: at most ~2 per level of
 * the two trees, which dst_bvh_create keeps below 127 each) */
#define PH_STACK 1024
/* leaf pairs of a walk of the feature trees gathered before their features are tested (walk_pair) */
#define PH_LEAFQ 48
/* most starting facets of the exhaustive projection (Algorithm 5.1 line 14) */
#define PH_MAX_STARTS 24
/* line-search halvings of one Newton step */
#define PH_HALVINGS 12
/* most trimming planes of one facet, and vertices of a trimmed polygon */
#define PH_MAXCLIP 4
#define PH_MAXV (4 + PH_MAXCLIP)
/* the length, as a fraction of a model's diagonal, that one radian of Gauss direction counts
 * for when the Gauss-and-space tree chooses where to split (phong.md sec. 3) */
#define PH_TREE_ANGLE_SCALE 1.0
/* facets from which the crossing pairs are found by a sphere tree over them rather than by a
 * sweep, and most facets in a leaf of that tree */
#define PH_FTREE_MIN 3000
#define PH_FTREE_LEAF 4
/* most features in a leaf of a Gauss-and-space tree */
#define PH_TREE_LEAF 2
/* lanes of the sweep's sphere test (find_crossings): its arrays are padded by as many records */
#define PH_LANES 4

/* four doubles, and the comparison masks of four (GCC vector extensions; the lanes compute the
 * scalar expressions they replace with the same operations in the same order, and ISO C mode
 * keeps -ffp-contract=off, so the results are the same bit for bit) */
typedef double PhV4 __attribute__((vector_size(32)));
typedef long long PhV4i __attribute__((vector_size(32)));

/* An inner node X of a Gauss-and-space tree seen with four children (phong.md sec. 16): the
 * children of X, each inner one replaced by its own two children; their spheres and caps in lanes
 * (lanes past n repeat lane 0). A walk that splits X tests these against the other node at once. */
struct DstPhongWide {
    PhV4 c[3], r, cap[6];    /* the children's centres, radii and caps (as in DstPhongNode) */
    PhV4 size;               /* their sizes in the walks' choice of the node to split, r +
                              * PH_TREE_ANGLE_SCALE diag min(cap radius, pi) (walk_pair) */
    int child[4];            /* their node indices */
    int leaf;                /* bit k: child k is a leaf */
    int n;                   /* 2 to 4 */
};

/* ---------------------------------------------------------------- small vector helpers */

static void cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm3(const double a[3])
{
    return sqrt(dst_dot3(a, a));
}

/* o = R v (row-major) */
static void rot3(const double R[9], const double v[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}

/* o = R^T v */
static void rot3t(const double R[9], const double v[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
}

/* min and max of two finite numbers, inline (the library's fmin/fmax are calls); not for NaN, nor
 * where the sign of a zero result matters */
static inline double ph_min(double a, double b)
{
    return b < a ? b : a;
}

static inline int ph_imax(int a, int b)
{
    return a > b ? a : b;
}

static inline double ph_max(double a, double b)
{
    return b > a ? b : a;
}

static int finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* ---------------------------------------------------------------- the model */

static void set_err(char *err, size_t err_size, const char *msg)
{
    if (err != NULL && err_size > 0) {
        strncpy(err, msg, err_size - 1);
        err[err_size - 1] = '\0';
    }
}

typedef struct EdgeRec {
    int lo, hi, face, side;
} EdgeRec;

static int edge_cmp(const void *x, const void *y)
{
    const EdgeRec *a = x, *b = y;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->face > b->face) - (a->face < b->face);
}

void dst_phong_model_destroy(DstPhongModel *m)
{
    if (m == NULL) return;
    dst_bvh_destroy(&m->bvh);
    free(m->v), free(m->f), free(m->fn), free(m->e), free(m->ef), free(m->fe);
    free(m->e_convex), free(m->ring_start), free(m->ring), free(m->vface);
    free(m->vtree.node), free(m->ftree.node), free(m->etree.node);
    free(m->vtree.items), free(m->ftree.items), free(m->etree.items);
    free(m->vtree.wide), free(m->ftree.wide), free(m->etree.wide);
    free(m->vtree.wide_of), free(m->ftree.wide_of), free(m->etree.wide_of);
    free(m->face_leaf), free(m->path_start), free(m->path_r), free(m->path_left);
    memset(m, 0, sizeof *m);
}

/* ---- Gauss-map caps (sec. V.E): bounds of the Gauss regions of the features of a node */

#define PH_PI 3.14159265358979323846
#define CAP_WIDE 4.0 /* an angular radius >= pi: the whole sphere */
#define CONE_MAX_VERTS 512
/* half-width of the square clipped in the gnomonic projection: 1e4 is 89.994 degrees from the
 * centre, a region reaching it counts as wide */
#define GNOMONIC_BOX 1e4

static double angle_between(const double a[3], const double b[3])
{
    double c[3];
    cross3(a, b, c);
    return atan2(norm3(c), dst_dot3(a, b));
}

/* The Gauss region of vertex v, the directions d with d . (w - v) <= tol |w - v| for every
 * neighbour w, as a cap: the region is clipped as a polygon in the gnomonic projection about
 * the mean normal vn of the faces around v (a region reaching its horizon counts as wide). Returns 0 when the region is empty. */
static int vertex_cap(const DstPhongModel *m, int v, const double vn[3], double cap[4])
{
    int n0 = m->ring_start[v], n1 = m->ring_start[v + 1];
    /* the projection centre: the mean normal of the faces around v */
    double c[3] = {vn[0], vn[1], vn[2]};
    double lc = norm3(c);
    if (lc <= DST_PHONG_CAP_DEGENERATE || n1 - n0 + 4 > CONE_MAX_VERTS) {
        cap[3] = CAP_WIDE;
        return 1;
    }
    for (int k = 0; k < 3; ++k) c[k] /= lc;
    double u1[3], u2[3];
    dst_any_perpendicular(c, u1);
    double l1 = norm3(u1);
    for (int k = 0; k < 3; ++k) u1[k] /= l1;
    cross3(c, u1, u2);
    /* d = c + x u1 + y u2; clip the box [-B, B]^2 by a x + b y <= r for each neighbour */
    double P[CONE_MAX_VERTS][2], Q[CONE_MAX_VERTS][2];
    int np = 4;
    P[0][0] = -GNOMONIC_BOX, P[0][1] = -GNOMONIC_BOX, P[1][0] = GNOMONIC_BOX, P[1][1] = -GNOMONIC_BOX;
    P[2][0] = GNOMONIC_BOX, P[2][1] = GNOMONIC_BOX, P[3][0] = -GNOMONIC_BOX, P[3][1] = GNOMONIC_BOX;
    for (int i = n0; i < n1 && np > 0; ++i) {
        double e[3] = {m->v[m->ring[i]][0] - m->v[v][0], m->v[m->ring[i]][1] - m->v[v][1],
                       m->v[m->ring[i]][2] - m->v[v][2]};
        double a = dst_dot3(u1, e), b = dst_dot3(u2, e), r = DST_PHONG_GAUSS_TOL * norm3(e) - dst_dot3(c, e);
        int nq = 0;
        for (int k = 0; k < np; ++k) {
            const double *p = P[k], *q = P[(k + 1) % np];
            double fp = a * p[0] + b * p[1] - r, fq = a * q[0] + b * q[1] - r;
            if (fp <= 0.0) Q[nq][0] = p[0], Q[nq][1] = p[1], ++nq;
            if ((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0)) {
                double t = fp / (fp - fq);
                Q[nq][0] = p[0] + t * (q[0] - p[0]), Q[nq][1] = p[1] + t * (q[1] - p[1]), ++nq;
            }
        }
        np = nq;
        memcpy(P, Q, (size_t)np * sizeof P[0]);
    }
    if (np == 0) return 0;
    double mx = 0.0, my = 0.0;
    for (int k = 0; k < np; ++k) {
        if (fabs(P[k][0]) >= 0.5 * GNOMONIC_BOX || fabs(P[k][1]) >= 0.5 * GNOMONIC_BOX) {
            cap[3] = CAP_WIDE; /* reaches the horizon of the projection */
            return 1;
        }
        mx += P[k][0] / np, my += P[k][1] / np;
    }
    double cc[3];
    for (int k = 0; k < 3; ++k) cc[k] = c[k] + mx * u1[k] + my * u2[k];
    double lcc = norm3(cc), a = 0.0;
    for (int k = 0; k < 3; ++k) cc[k] /= lcc;
    for (int k = 0; k < np; ++k) {
        double d[3];
        for (int j = 0; j < 3; ++j) d[j] = c[j] + P[k][0] * u1[j] + P[k][1] * u2[j];
        a = fmax(a, angle_between(cc, d));
    }
    cap[0] = cc[0], cap[1] = cc[1], cap[2] = cc[2], cap[3] = a + DST_PHONG_CAP_SLACK;
    return 1;
}

/* ---- the Gauss-and-space tree (sec. V.E; phong.md sec. 3) */

typedef struct TreeKey {
    double k;
    int f;
} TreeKey;

static int tree_key_cmp(const void *x, const void *y)
{
    const TreeKey *a = x, *b = y;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    return (a->f > b->f) - (a->f < b->f);
}

/* Reorders a[0 .. n-1] so that a[k] is the element of rank k in tree_key_cmp's (total) order,
 * the smaller ones before it and the larger after it (quickselect, median-of-three pivots). */
static void select_kth(TreeKey *a, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (hi > lo) {
        int mid = lo + (hi - lo) / 2;
        /* median of three to a[hi] */
        if (tree_key_cmp(a + mid, a + lo) < 0) { TreeKey t = a[mid]; a[mid] = a[lo], a[lo] = t; }
        if (tree_key_cmp(a + hi, a + lo) < 0) { TreeKey t = a[hi]; a[hi] = a[lo], a[lo] = t; }
        if (tree_key_cmp(a + mid, a + hi) < 0) { TreeKey t = a[mid]; a[mid] = a[hi], a[hi] = t; }
        TreeKey pivot = a[hi];
        int st = lo;
        for (int i = lo; i < hi; ++i) {
            if (tree_key_cmp(a + i, &pivot) < 0) { TreeKey t = a[i]; a[i] = a[st], a[st] = t; ++st; }
        }
        { TreeKey t = a[st]; a[st] = a[hi], a[hi] = t; }
        if (st == k) return;
        if (st < k) lo = st + 1;
        else hi = st - 1;
    }
}

typedef struct TreeBuild {
    DstPhongNode *node;
    DstPhongItem *items;
    int n_nodes;
    const int *id;           /* the feature of each item */
    const double (*sph)[4];  /* bounding sphere of each item */
    const double (*cap)[4];  /* Gauss cap of each item */
    double (*key)[6];        /* clustering key of each item: centre, scale x cap centre */
    int *order;
    TreeKey *tmp;
} TreeBuild;

/* The sphere and the cap of a node straight from its items order[first .. first + count - 1]
 * (tighter than merging its children's): the sphere about the mean of the items' centres, the
 * cap about the normalised mean of their cap centres, each widened for rounding. */
static void node_bounds(const TreeBuild *tb, int first, int count, DstPhongNode *nd)
{
    double c[3] = {0.0, 0.0, 0.0}, a[3] = {0.0, 0.0, 0.0}, r = 0.0, ang = 0.0;
    int wide = 0;
    for (int i = first; i < first + count; ++i) {
        const double *sp = tb->sph[tb->order[i]], *cp = tb->cap[tb->order[i]];
        for (int k = 0; k < 3; ++k) c[k] += sp[k] / count, a[k] += cp[k];
        wide |= cp[3] >= PH_PI;
    }
    for (int i = first; i < first + count; ++i) {
        const double *sp = tb->sph[tb->order[i]];
        double d[3] = {sp[0] - c[0], sp[1] - c[1], sp[2] - c[2]};
        r = fmax(r, norm3(d) + sp[3]);
    }
    memcpy(nd->c, c, sizeof c);
    nd->r = r + DST_ROUND_REL * (norm3(c) + r);
    double la = norm3(a);
    if (wide || la <= DST_PHONG_CAP_DEGENERATE) {
        nd->cap[0] = nd->cap[1] = nd->cap[2] = 0.0, nd->cap[3] = CAP_WIDE;
    } else {
        for (int k = 0; k < 3; ++k) nd->cap[k] = a[k] / la;
        for (int i = first; i < first + count; ++i) {
            const double *cp = tb->cap[tb->order[i]];
            ang = fmax(ang, angle_between(nd->cap, cp) + cp[3]);
        }
        ang += DST_PHONG_CAP_SLACK;
        nd->cap[3] = ang >= PH_PI ? CAP_WIDE : ang;
    }
    nd->cap[4] = cos(fmin(nd->cap[3], PH_PI)), nd->cap[5] = sin(fmin(nd->cap[3], PH_PI));
}

/* Top-down build over the items order[first .. first + count - 1]: split at the median of the
 * widest of the six key coordinates (position, and Gauss direction scaled to a length), so that
 * the nodes are small both in space and on the Gauss sphere. Returns the node index; the
 * recursion depth is log2 of the item count. */
static int tree_node(TreeBuild *tb, int first, int count)
{
    int id = tb->n_nodes++;
    if (count <= PH_TREE_LEAF) {
        DstPhongNode *nd = tb->node + id;
        for (int i = 0; i < count; ++i) {
            int f = tb->order[first + i];
            DstPhongItem *it = tb->items + first + i;
            memcpy(it->c, tb->sph[f], 3 * sizeof(double));
            it->r = tb->sph[f][3];
            memcpy(it->cap, tb->cap[f], 4 * sizeof(double));
            it->cap[4] = cos(fmin(it->cap[3], PH_PI)), it->cap[5] = sin(fmin(it->cap[3], PH_PI));
            it->id = tb->id[f];
        }
        node_bounds(tb, first, count, nd);
        nd->left = nd->right = -1, nd->first = first, nd->count = count;
        return id;
    }
    double lo[6], hi[6];
    for (int d = 0; d < 6; ++d) lo[d] = INFINITY, hi[d] = -INFINITY;
    for (int i = first; i < first + count; ++i) {
        const double *k = tb->key[tb->order[i]];
        for (int d = 0; d < 6; ++d) lo[d] = fmin(lo[d], k[d]), hi[d] = fmax(hi[d], k[d]);
    }
    int ax = 0;
    for (int d = 1; d < 6; ++d) {
        if (hi[d] - lo[d] > hi[ax] - lo[ax]) ax = d;
    }
    for (int i = 0; i < count; ++i) tb->tmp[i].f = tb->order[first + i], tb->tmp[i].k = tb->key[tb->tmp[i].f][ax];
    int half = count / 2;
    select_kth(tb->tmp, count, half);
    for (int i = 0; i < count; ++i) tb->order[first + i] = tb->tmp[i].f;
    int l = tree_node(tb, first, half), r = tree_node(tb, first + half, count - half);
    DstPhongNode *nd = tb->node + id;
    node_bounds(tb, first, count, nd);
    nd->left = l, nd->right = r, nd->first = 0, nd->count = 0;
    return id;
}

/* The four-children view of the inner nodes of a tree (DstPhongWide, phong.md sec. 16): the
 * spheres and caps of the nodes copied into the lanes. Returns 0 when out of memory. */
static int build_wide(DstPhongTree *tree, double angle_scale)
{
    int n_inner = 0;
    tree->wide_of = malloc((size_t)tree->n_nodes * sizeof *tree->wide_of);
    if (tree->wide_of == NULL) return 0;
    for (int x = 0; x < tree->n_nodes; ++x) tree->wide_of[x] = tree->node[x].left < 0 ? -1 : n_inner++;
    tree->wide = aligned_alloc(_Alignof(DstPhongWide), (size_t)(n_inner > 0 ? n_inner : 1) * sizeof *tree->wide);
    if (tree->wide == NULL) return 0;
    for (int x = 0; x < tree->n_nodes; ++x) {
        const DstPhongNode *nx = tree->node + x;
        if (nx->left < 0) continue;
        DstPhongWide *w = tree->wide + tree->wide_of[x];
        int ch[2] = {nx->left, nx->right};
        w->n = 0, w->leaf = 0;
        for (int h = 0; h < 2; ++h) {
            const DstPhongNode *ny = tree->node + ch[h];
            if (ny->left < 0) {
                w->leaf |= 1 << w->n;
                w->child[w->n++] = ch[h];
            } else {
                w->leaf |= (tree->node[ny->left].left < 0) << w->n;
                w->child[w->n++] = ny->left;
                w->leaf |= (tree->node[ny->right].left < 0) << w->n;
                w->child[w->n++] = ny->right;
            }
        }
        for (int k = 0; k < 4; ++k) {
            const DstPhongNode *nk = tree->node + w->child[k < w->n ? k : 0];
            for (int i = 0; i < 3; ++i) w->c[i][k] = nk->c[i];
            w->r[k] = nk->r;
            for (int i = 0; i < 6; ++i) w->cap[i][k] = nk->cap[i];
            w->size[k] = nk->r + angle_scale * ph_min(nk->cap[3], PH_PI);
        }
        for (int k = w->n; k < 4; ++k) w->child[k] = w->child[0];
    }
    return 1;
}

/* The Gauss-and-space tree of n items (feature ids, bounding spheres, Gauss caps); angle_scale
 * is the length one radian of Gauss direction counts for in the splits. Returns 0 when out of
 * memory. */
static int build_tree(int n, const int *id, const double (*sph)[4], const double (*cap)[4], double angle_scale,
                      DstPhongTree *tree)
{
    tree->n_nodes = tree->n_items = 0, tree->node = NULL, tree->items = NULL, tree->wide = NULL;
    tree->wide_of = NULL;
    if (n == 0) return 1;
    TreeBuild tb;
    tb.id = id, tb.sph = sph, tb.cap = cap, tb.n_nodes = 0;
    tb.key = malloc((size_t)n * sizeof *tb.key);
    tb.order = malloc((size_t)n * sizeof *tb.order);
    tb.tmp = malloc((size_t)n * sizeof *tb.tmp);
    tb.node = malloc((size_t)(2 * n - 1) * sizeof *tb.node);
    tb.items = malloc((size_t)n * sizeof *tb.items);
    int ok = tb.key && tb.order && tb.tmp && tb.node && tb.items;
    if (ok) {
        for (int f = 0; f < n; ++f) {
            /* a wide cap has no direction to cluster by */
            double w = cap[f][3] >= PH_PI ? 0.0 : angle_scale;
            for (int k = 0; k < 3; ++k) tb.key[f][k] = sph[f][k], tb.key[f][3 + k] = w * cap[f][k];
            tb.order[f] = f;
        }
        tree_node(&tb, 0, n);
        tree->node = tb.node, tree->n_nodes = tb.n_nodes, tree->items = tb.items, tree->n_items = n;
        ok = build_wide(tree, angle_scale);
    } else {
        free(tb.node), free(tb.items);
    }
    free(tb.key), free(tb.order), free(tb.tmp);
    return ok;
}

/* sphere through a point set, about its centroid, widened for rounding */
static void points_sphere(const double (*v)[3], const int *idx, int n, double s[4])
{
    double r2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        s[k] = 0.0;
        for (int j = 0; j < n; ++j) s[k] += v[idx[j]][k];
        s[k] /= n;
    }
    for (int j = 0; j < n; ++j) {
        double d[3] = {v[idx[j]][0] - s[0], v[idx[j]][1] - s[1], v[idx[j]][2] - s[2]};
        r2 = fmax(r2, dst_dot3(d, d));
    }
    s[3] = sqrt(r2) + DST_ROUND_REL * (norm3(s) + sqrt(r2));
}

/* The three trees of sec. V.E: supporting vertices (cap of the supporting cone), faces with a
 * normal (cap of radius 0 about it) and convex edges (cap of their Gauss arc). Returns 0 when
 * out of memory. */
static int build_trees(DstPhongModel *m, const double (*vcap)[4], const unsigned char *vok)
{
    int nmax = m->n_vertices > m->n_faces ? m->n_vertices : m->n_faces;
    if (m->n_edges > nmax) nmax = m->n_edges;
    int *id = malloc((size_t)nmax * sizeof *id);
    double(*sph)[4] = malloc((size_t)nmax * sizeof *sph), (*cap)[4] = malloc((size_t)nmax * sizeof *cap);
    int ok = id && sph && cap, n = 0;
    double scale = PH_TREE_ANGLE_SCALE * m->diag;
    if (ok) {
        for (int v = 0; v < m->n_vertices; ++v) {
            if (m->vface[v] < 0 || !vok[v]) continue;
            id[n] = v;
            points_sphere((const double(*)[3])m->v, &v, 1, sph[n]);
            memcpy(cap[n], vcap[v], sizeof cap[n]);
            ++n;
        }
        ok = build_tree(n, id, (const double(*)[4])sph, (const double(*)[4])cap, scale, &m->vtree);
    }
    if (ok) {
        n = 0;
        for (int f = 0; f < m->n_faces; ++f) {
            if (dst_dot3(m->fn[f], m->fn[f]) == 0.0) continue;
            id[n] = f;
            points_sphere((const double(*)[3])m->v, m->f[f], 3, sph[n]);
            memcpy(cap[n], m->fn[f], 3 * sizeof(double));
            cap[n][3] = DST_PHONG_CAP_SLACK;
            ++n;
        }
        ok = build_tree(n, id, (const double(*)[4])sph, (const double(*)[4])cap, scale, &m->ftree);
    }
    if (ok) {
        n = 0;
        for (int e = 0; e < m->n_edges; ++e) {
            if (!m->e_convex[e]) continue;
            const double *n1 = m->fn[m->ef[e][0]], *n2 = m->fn[m->ef[e][1]];
            double c[3] = {n1[0] + n2[0], n1[1] + n2[1], n1[2] + n2[2]}, l = norm3(c);
            id[n] = e;
            points_sphere((const double(*)[3])m->v, m->e[e], 2, sph[n]);
            if (l <= DST_PHONG_CAP_DEGENERATE || dst_dot3(n1, n1) == 0.0 || dst_dot3(n2, n2) == 0.0) {
                cap[n][0] = cap[n][1] = cap[n][2] = 0.0, cap[n][3] = CAP_WIDE;
            } else {
                for (int k = 0; k < 3; ++k) cap[n][k] = c[k] / l;
                cap[n][3] = fmax(angle_between(cap[n], n1), angle_between(cap[n], n2)) + DST_PHONG_CAP_SLACK;
            }
            ++n;
        }
        ok = build_tree(n, id, (const double(*)[4])sph, (const double(*)[4])cap, scale, &m->etree);
    }
    free(id), free(sph), free(cap);
    return ok;
}

/* The model of sec. V.E: the sphere tree (DstBvh), edges with their two faces, convexity of
 * each edge (the length of its Gauss arc is below pi), and the 1-ring of each vertex (its
 * Gauss region: the directions d with d . (w - v) <= 0 for every neighbour w). */
/* the paths of the leaves below node `node` at depth d (path[0 .. d-1]: the inner nodes above
 * it, left[0 .. d-1]: the child taken at each), appended to the model's path arrays */
static void leaf_paths(DstPhongModel *m, int node, int d, int *path, unsigned char *left, int *used)
{
    const DstBvhNode *nd = m->bvh.nodes + node;
    if (nd->left < 0) {
        int leaf = m->n_leaves++;
        m->path_start[leaf] = *used;
        for (int i = 0; i < d; ++i) {
            m->path_r[*used] = m->bvh.nodes[path[i]].r, m->path_left[*used] = left[i];
            ++*used;
        }
        /* the end of the path: a radius below every other, so that a merge takes the other path */
        m->path_r[*used] = -INFINITY, m->path_left[*used] = 0;
        ++*used;
        for (int k = nd->first; k < nd->first + nd->count; ++k) m->face_leaf[m->bvh.tri_id[k]] = leaf;
        m->path_start[leaf + 1] = *used;
        return;
    }
    path[d] = node;
    left[d] = 1;
    leaf_paths(m, nd->left, d + 1, path, left, used);
    left[d] = 0;
    leaf_paths(m, nd->right, d + 1, path, left, used);
}

/* the leaves below node `node` at depth d, and the sum of their depths */
static void count_leaves(const DstBvh *b, int node, int d, int *n_leaves, long *total)
{
    const DstBvhNode *nd = b->nodes + node;
    if (nd->left < 0) {
        ++*n_leaves, *total += d + 1;
        return;
    }
    count_leaves(b, nd->left, d + 1, n_leaves, total);
    count_leaves(b, nd->right, d + 1, n_leaves, total);
}

/* The leaves' paths of the sphere tree (the order of the facets, order_key()). Returns 0 when
 * out of memory. */
static int build_paths(DstPhongModel *m)
{
    const DstBvh *b = &m->bvh;
    int n_leaves = 0;
    long total = 0;
    count_leaves(b, 0, 0, &n_leaves, &total);
    m->face_leaf = calloc((size_t)(m->n_faces > b->n_tris ? m->n_faces : b->n_tris), sizeof *m->face_leaf);
    m->path_start = malloc((size_t)(n_leaves + 1) * sizeof *m->path_start);
    m->path_r = malloc((size_t)(total > 0 ? total : 1) * sizeof *m->path_r);
    m->path_left = malloc((size_t)(total > 0 ? total : 1) * sizeof *m->path_left);
    int *path = malloc((size_t)(b->depth + 1) * sizeof *path);
    unsigned char *left = malloc((size_t)(b->depth + 1) * sizeof *left);
    int ok = m->face_leaf && m->path_start && m->path_r && m->path_left && path && left;
    if (ok) {
        int used = 0;
        m->n_leaves = 0;
        leaf_paths(m, 0, 0, path, left, &used);
    }
    free(path), free(left);
    return ok;
}

DstStatus dst_phong_model_create(const DstMesh *mesh, DstPhongModel *out, char *err, size_t err_size)
{
    if (out == NULL) {
        set_err(err, err_size, "dst_phong_model_create: NULL output");
        return DST_INVALID_INPUT;
    }
    memset(out, 0, sizeof *out);
    if (mesh == NULL || mesh->n_triangles <= 0 || mesh->n_vertices <= 0 || mesh->vertices == NULL ||
        mesh->triangles == NULL) {
        set_err(err, err_size, "dst_phong_model_create: NULL or empty mesh");
        return DST_INVALID_INPUT;
    }
    DstStatus st = dst_bvh_create(mesh, &out->bvh, err, err_size);
    if (st != DST_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    if (!out->bvh.closed) {
        dst_phong_model_destroy(out);
        set_err(err, err_size, "dst_phong_model_create: the mesh is not closed and outward oriented");
        return DST_INVALID_INPUT;
    }
    int nv = mesh->n_vertices, nf = mesh->n_triangles;
    out->n_vertices = nv, out->n_faces = nf;
    out->v = malloc((size_t)nv * sizeof *out->v);
    out->f = malloc((size_t)nf * sizeof *out->f);
    out->fn = calloc((size_t)nf, sizeof *out->fn);
    out->fe = malloc((size_t)nf * sizeof *out->fe);
    out->ring_start = calloc((size_t)nv + 1, sizeof *out->ring_start);
    out->vface = malloc((size_t)nv * sizeof *out->vface);
    EdgeRec *rec = malloc((size_t)3 * nf * sizeof *rec);
    if (!out->v || !out->f || !out->fn || !out->fe || !out->ring_start || !out->vface || !rec || !build_paths(out)) {
        free(rec);
        dst_phong_model_destroy(out);
        set_err(err, err_size, "dst_phong_model_create: out of memory");
        return DST_FAILED;
    }
    memcpy(out->v, mesh->vertices, (size_t)nv * sizeof *out->v);
    memcpy(out->f, mesh->triangles, (size_t)nf * sizeof *out->f);
    for (int i = 0; i < nv; ++i) out->vface[i] = -1;
    for (int fi = nf - 1; fi >= 0; --fi) {
        for (int k = 0; k < 3; ++k) out->vface[out->f[fi][k]] = fi;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < nv; ++i) {
        for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], out->v[i][k]), hi[k] = fmax(hi[k], out->v[i][k]);
    }
    double dg[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    out->diag = norm3(dg);
    /* face normals; edge records sorted by their vertex pair */
    for (int fi = 0; fi < nf; ++fi) {
        const int *t = out->f[fi];
        double u[3], w[3], c[3];
        for (int k = 0; k < 3; ++k) u[k] = out->v[t[1]][k] - out->v[t[0]][k], w[k] = out->v[t[2]][k] - out->v[t[0]][k];
        cross3(u, w, c);
        double l = norm3(c), e3[3];
        for (int k = 0; k < 3; ++k) e3[k] = out->v[t[2]][k] - out->v[t[1]][k];
        out->max_face_diam = fmax(out->max_face_diam, fmax(norm3(u), fmax(norm3(w), norm3(e3))));
        if (l > DST_MESH_DEGENERATE_REL * out->diag * out->diag) {
            for (int k = 0; k < 3; ++k) out->fn[fi][k] = c[k] / l;
        }
        for (int k = 0; k < 3; ++k) {
            int a = t[k], b = t[(k + 1) % 3];
            EdgeRec *r = rec + 3 * fi + k;
            r->lo = a < b ? a : b, r->hi = a < b ? b : a, r->face = fi, r->side = k;
        }
    }
    qsort(rec, (size_t)3 * nf, sizeof *rec, edge_cmp);
    int ne = 0;
    for (int i = 0; i < 3 * nf; i += 2) {
        /* closed and manifold: every edge exactly twice */
        if (i + 1 >= 3 * nf || rec[i].lo != rec[i + 1].lo || rec[i].hi != rec[i + 1].hi ||
            (i + 2 < 3 * nf && rec[i + 2].lo == rec[i].lo && rec[i + 2].hi == rec[i].hi)) {
            free(rec);
            dst_phong_model_destroy(out);
            set_err(err, err_size, "dst_phong_model_create: an edge is open or non-manifold");
            return DST_INVALID_INPUT;
        }
        ++ne;
    }
    out->n_edges = ne;
    out->e = malloc((size_t)ne * sizeof *out->e);
    out->ef = malloc((size_t)ne * sizeof *out->ef);
    out->e_convex = calloc((size_t)ne, 1);
    out->ring = malloc((size_t)2 * ne * sizeof *out->ring);
    if (!out->e || !out->ef || !out->e_convex || !out->ring) {
        free(rec);
        dst_phong_model_destroy(out);
        set_err(err, err_size, "dst_phong_model_create: out of memory");
        return DST_FAILED;
    }
    for (int i = 0, ei = 0; i < 3 * nf; i += 2, ++ei) {
        const EdgeRec *r0 = rec + i, *r1 = rec + i + 1;
        /* e = (v_k, v_k+1) of the first face: that face lies to its left */
        const int *t0 = out->f[r0->face];
        out->e[ei][0] = t0[r0->side], out->e[ei][1] = t0[(r0->side + 1) % 3];
        out->ef[ei][0] = r0->face, out->ef[ei][1] = r1->face;
        out->fe[r0->face][r0->side] = ei, out->fe[r1->face][r1->side] = ei;
        /* convex: the far vertex of the second face lies below the plane of the first */
        const int *t1 = out->f[r1->face];
        int far = t1[(r1->side + 2) % 3];
        double d[3];
        for (int k = 0; k < 3; ++k) d[k] = out->v[far][k] - out->v[out->e[ei][0]][k];
        double side = dst_dot3(out->fn[r0->face], d);
        out->e_convex[ei] = side < -DST_PHONG_GAUSS_TOL * norm3(d);
        out->ring_start[out->e[ei][0] + 1]++, out->ring_start[out->e[ei][1] + 1]++;
    }
    free(rec);
    for (int i = 0; i < nv; ++i) out->ring_start[i + 1] += out->ring_start[i];
    int *fill = calloc((size_t)nv, sizeof *fill);
    if (fill == NULL) {
        dst_phong_model_destroy(out);
        set_err(err, err_size, "dst_phong_model_create: out of memory");
        return DST_FAILED;
    }
    for (int ei = 0; ei < ne; ++ei) {
        int a = out->e[ei][0], b = out->e[ei][1];
        out->ring[out->ring_start[a] + fill[a]++] = b;
        out->ring[out->ring_start[b] + fill[b]++] = a;
    }
    free(fill);
    /* Gauss-map caps of the vertices, then the trees of the features */
    double(*vcap)[4] = malloc((size_t)nv * sizeof *vcap);
    unsigned char *vok = malloc((size_t)nv);
    double(*vn)[3] = calloc((size_t)nv, sizeof *vn);
    int ok = vcap && vok && vn;
    if (ok) {
        for (int fi = 0; fi < nf; ++fi) {
            for (int k = 0; k < 3; ++k) {
                for (int j = 0; j < 3; ++j) vn[out->f[fi][k]][j] += out->fn[fi][j];
            }
        }
        for (int i = 0; i < nv; ++i) {
            vok[i] = (unsigned char)vertex_cap(out, i, vn[i], vcap[i]);
            /* a region wholly in the far hemisphere of the mean normal is missed by the
             * projection about it: look there too, and keep such a region as wide */
            double mvn[3] = {-vn[i][0], -vn[i][1], -vn[i][2]}, far[4];
            if (!vok[i] && vertex_cap(out, i, mvn, far)) vok[i] = 1, vcap[i][0] = vcap[i][1] = vcap[i][2] = 0.0, vcap[i][3] = CAP_WIDE;
        }
        ok = build_trees(out, (const double(*)[4])vcap, vok);
    }
    free(vcap), free(vok), free(vn);
    if (!ok) {
        dst_phong_model_destroy(out);
        set_err(err, err_size, "dst_phong_model_create: out of memory");
        return DST_FAILED;
    }
    return DST_OK;
}

/* ---------------------------------------------------------------- the workspace */

/* One facet of the convolution (sec. V.E): a point of it is q(s, u) = a(s, u) - b(s, u), with
 * a = A0 + s Ae1 + u Ae2 in A's frame and b = R (B0 + s Be1 + u Be2) + t. Vertex-face (VF) and
 * face-vertex (FV) facets are triangles (s, u >= 0, s + u <= 1), edge-edge (EE) facets
 * parallelograms (s, u in [0, 1]). nA + R nB points to the outer side of M. */
typedef struct PhRaw {
    double A0[3], Ae1[3], Ae2[3];
    double B0[3], Be1[3], Be2[3];
    double nA[3], nB[3];
    int para;
    int fa, fb, sub;         /* its triangle pair (a vertex's first face, an edge's first face)
                              * and its place among the facets of that pair: the order key */
    int nclip;               /* facets of dM(S) this one crosses: its parts behind them are trimmed */
    int clip[PH_MAXCLIP];
} PhRaw;

/* A facet at a pose: q(s, u) = c0 + s e1 + u e2, unit outward normal n, in-plane orthonormal
 * basis f1 (along e1), f2 = n x f1, 2-D corners in that basis, bounding sphere. */
typedef struct PhGeo {
    double c0[3], e1[3], e2[3], n[3], f1[3], f2[3];
    double p2[PH_MAXV][2];   /* polygon (after trimming) in the basis (f1, f2) about c0 */
    double ctr[3], rad;
    int ok, nc;
} PhGeo;

/* a facet in the search for crossing facets: its interval along the sweep axis, its sphere */
typedef struct PhSweep {
    double lo, hi;           /* the bounding sphere's extent along the sweep axis */
    double c[4];             /* its centre and radius (a compact copy) */
    int i;
} PhSweep;

/* The place of a facet in the order of dM(S): the walk of the two sphere trees (DstBvh) of
 * the triangle pair (fa, fb), as a string of choices (1 bit each, right child first), then the
 * facet's place among those of the pair. */
typedef struct PhOrder {
    uint64_t k[2];
    int sub, idx;
} PhOrder;

/* what the crossing test (find_crossings) reads of a facet, in one record, the records in the
 * order of the sweep: the corners as facet_corner() gives them (one lane each), c0 and the unit
 * normal n, the bounding sphere's radius, |ctr| and lowest x, the facet's index */
typedef struct PhCorners {
    PhV4 x, y, z;            /* the four corners, coordinate by coordinate (lanes) */
    double c0[3], n[3], rad, cnorm;
    double lox;              /* the bounding sphere's lowest x: the rank along x is that of (lox, i) */
    int nc, i;
} PhCorners;

/* a node of the sphere tree over the facets that finds the crossing pairs (find_crossings) */
typedef struct PhFNode {
    double c[4];             /* bounding sphere: centre, radius */
    int left, right, first, count;
} PhFNode;

/* a node pair on the stack of a walk (walk_pair): the nodes, their sizes in the choice of the
 * node to split and whether they are leaves, so that the pair is split without reading the nodes */
typedef struct PhWalkPair {
    double sa, sb;
    int ia, ib, la, lb;
} PhWalkPair;

/* a node or item of B's trees in A's frame, cached per pass (walk_pair): its centre R c + t,
 * the centre of its Gauss cap for -B, -R c_cap, in the cache's widened walks (walk_pair_wide)
 * also |c - bref|, and the pass that computed them */
typedef struct PhBNode {
    double v[7];
    uint32_t stamp;
} PhBNode;

struct DstPhongWorkspace {
    int cap, n;
    PhRaw *raw, *raw2;       /* the facets of dM(S), and the buffer into which they are sorted */
    PhGeo *geo, *tmp;
    PhOrder *order, *otmp;   /* sort records of the facets (then of the sweep), the sort's scratch */
    int *near;               /* the facets re-posed by eval_at_pose() (the tests' probe) */
    int *rank;               /* place of each facet in the sweep along x (find_crossings) */
    int *hits;               /* max_facets + PH_LANES: the records whose spheres meet one record's
                              * in the sweep (find_crossings) */
    double *soa;             /* 5 x (max_facets + PH_LANES): the sweep's extents and spheres
                              * (find_crossings), each array padded for the last lanes */
    double (*gs)[4];         /* the bounding spheres of geo (a facet that is not ok: at infinity) */
    PhFNode *fnode;          /* 2 x max_facets: the sphere tree over the facets (find_crossings) */
    int *fitem;              /* its records, leaf by leaf */
    TreeKey *fkey;           /* scratch of its build */
    uint64_t (*ckey)[PH_MAXCLIP]; /* order keys of the partners a facet keeps (find_crossings) */
    PhSweep *sweep, *sweep_tmp; /* the sweep's records, and a copy to permute them */
    PhCorners *corn;         /* the facets' corners and planes (find_crossings) */
    int (*stack)[2];
    int (*leafq)[2];         /* PH_LEAFQ leaf pairs of a walk (walk_pair) */
    PhWalkPair *wstack;      /* PH_STACK node pairs of a walk (walk_pair) */
    /* the nodes and items of B's three trees in A's frame (one slot each, tree by tree),
     * transformed on first visit in a pass: centre R c + t and the cap centre of -B, -R c_cap;
     * valid when stamp == pass (slots beyond cap: per visit) */
    PhBNode *bnode;
    uint32_t pass;
};

DstPhongWorkspace *dst_phong_workspace_create(int max_facets)
{
    if (max_facets <= 0) max_facets = DST_PHONG_DEFAULT_MAX_FACETS;
    if (max_facets > (1 << 24)) return NULL;
    DstPhongWorkspace *ws = calloc(1, sizeof *ws);
    if (ws == NULL) return NULL;
    ws->cap = max_facets;
    ws->raw = malloc((size_t)max_facets * sizeof *ws->raw);
    ws->raw2 = malloc((size_t)max_facets * sizeof *ws->raw2);
    ws->order = malloc((size_t)max_facets * sizeof *ws->order);
    ws->otmp = malloc((size_t)max_facets * sizeof *ws->otmp);
    ws->near = malloc((size_t)max_facets * sizeof *ws->near);
    ws->rank = malloc((size_t)max_facets * sizeof *ws->rank);
    ws->hits = malloc((size_t)(max_facets + PH_LANES) * sizeof *ws->hits);
    ws->soa = malloc((size_t)5 * (max_facets + PH_LANES) * sizeof *ws->soa);
    ws->gs = malloc((size_t)max_facets * sizeof *ws->gs);
    ws->fnode = malloc((size_t)2 * max_facets * sizeof *ws->fnode);
    ws->fitem = malloc((size_t)max_facets * sizeof *ws->fitem);
    ws->fkey = malloc((size_t)max_facets * sizeof *ws->fkey);
    ws->ckey = malloc((size_t)max_facets * sizeof *ws->ckey);
    ws->geo = malloc((size_t)max_facets * sizeof *ws->geo);
    ws->tmp = malloc((size_t)max_facets * sizeof *ws->tmp);
    ws->sweep = malloc((size_t)max_facets * sizeof *ws->sweep);
    ws->sweep_tmp = malloc((size_t)max_facets * sizeof *ws->sweep_tmp);
    ws->corn = aligned_alloc(_Alignof(PhCorners), (size_t)max_facets * sizeof *ws->corn); /* its lanes are aligned */
    ws->bnode = calloc((size_t)max_facets, sizeof *ws->bnode);
    ws->stack = malloc((size_t)PH_STACK * sizeof *ws->stack);
    ws->leafq = malloc((size_t)PH_LEAFQ * sizeof *ws->leafq);
    ws->wstack = malloc((size_t)PH_STACK * sizeof *ws->wstack);
    if (!ws->raw || !ws->raw2 || !ws->order || !ws->otmp || !ws->near || !ws->rank || !ws->hits || !ws->soa || !ws->gs || !ws->fnode || !ws->fitem || !ws->fkey || !ws->ckey || !ws->geo || !ws->tmp || !ws->sweep || !ws->sweep_tmp || !ws->corn || !ws->stack || !ws->leafq || !ws->wstack || !ws->bnode) {
        dst_phong_workspace_destroy(ws);
        return NULL;
    }
    return ws;
}

void dst_phong_workspace_destroy(DstPhongWorkspace *ws)
{
    if (ws == NULL) return;
    free(ws->raw), free(ws->raw2), free(ws->order), free(ws->otmp), free(ws->near), free(ws->rank), free(ws->hits), free(ws->soa), free(ws->gs), free(ws->fnode), free(ws->fitem), free(ws->fkey), free(ws->ckey), free(ws->geo), free(ws->tmp), free(ws->sweep), free(ws->sweep_tmp), free(ws->corn), free(ws->stack), free(ws->leafq), free(ws->wstack), free(ws->bnode);
    free(ws);
}

/* ---------------------------------------------------------------- facet geometry */

/* A facet at the pose (R, t): corners, normal oriented by nA + R nB, 2-D frame. */
static void facet_geo(const PhRaw *f, const double R[9], const double t[3], PhGeo *g)
{
    double b0[3], be1[3], be2[3], nb[3], nref[3];
    rot3(R, f->B0, b0), rot3(R, f->Be1, be1), rot3(R, f->Be2, be2), rot3(R, f->nB, nb);
    for (int k = 0; k < 3; ++k) {
        g->c0[k] = f->A0[k] - b0[k] - t[k];
        g->e1[k] = f->Ae1[k] - be1[k];
        g->e2[k] = f->Ae2[k] - be2[k];
        nref[k] = f->nA[k] + nb[k];
    }
    double c[3];
    cross3(g->e1, g->e2, c);
    double l1 = norm3(g->e1), l2 = norm3(g->e2), lc = norm3(c);
    g->nc = f->para ? 4 : 3;
    g->ok = l1 > 0.0 && l2 > 0.0 && lc > DST_PHONG_SLIVER_SIN * l1 * l2;
    if (!g->ok) return;
    double sg = dst_dot3(c, nref) >= 0.0 ? 1.0 : -1.0;
    for (int k = 0; k < 3; ++k) g->n[k] = sg * c[k] / lc, g->f1[k] = g->e1[k] / l1;
    cross3(g->n, g->f1, g->f2);
    double ex = dst_dot3(g->e2, g->f1), ey = dst_dot3(g->e2, g->f2);
    g->p2[0][0] = 0.0, g->p2[0][1] = 0.0;
    g->p2[1][0] = l1, g->p2[1][1] = 0.0;
    if (f->para) {
        g->p2[2][0] = l1 + ex, g->p2[2][1] = ey;
        g->p2[3][0] = ex, g->p2[3][1] = ey;
    } else {
        g->p2[2][0] = ex, g->p2[2][1] = ey;
    }
    double w = f->para ? 0.5 : 1.0 / 3.0;
    for (int k = 0; k < 3; ++k) g->ctr[k] = g->c0[k] + w * (g->e1[k] + g->e2[k]);
    double r2 = 0.0;
    for (int i = 0; i < g->nc; ++i) {
        double dx = g->p2[i][0] - (w * (l1 + ex)), dy = g->p2[i][1] - w * ey;
        r2 = ph_max(r2, dx * dx + dy * dy);
    }
    g->rad = sqrt(r2) * (1.0 + DST_ROUND_REL);
}

/* q(s, u) = c0 + s e1 + u e2 */
static void facet_point(const PhGeo *g, double s, double u, double x[3])
{
    for (int k = 0; k < 3; ++k) x[k] = g->c0[k] + s * g->e1[k] + u * g->e2[k];
}

/* corner k of the (untrimmed) facet, 3-D */
static void facet_corner(const PhRaw *f, const PhGeo *g, int k, double x[3])
{
    static const double tri[3][2] = {{0, 0}, {1, 0}, {0, 1}}, par[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const double *c = f->para ? par[k] : tri[k];
    for (int i = 0; i < 3; ++i) x[i] = g->c0[i] + c[0] * g->e1[i] + c[1] * g->e2[i];
}

/* The pose partials of a facet (phong.md eq. P5d): direction j < 3 is the translation t_j of B,
 * j >= 3 the rotation w_(j-3) (R -> exp([w]x) R). With b = R b_B + t, d b / d t_j = e_j and
 * d b / d w_j = e_j x R b_B, so d c0 = -e_j or (R B0) x e_j, d e1 = 0 or (R Be1) x e_j (e2 alike),
 * and n = sg c / |c|, c = e1 x e2: d n = sg (I - n n^T) (d e1 x e2 + e1 x d e2) / |c|. */
typedef struct PhGeoD {
    double dc0[6][3], de1[6][3], de2[6][3], dn[6][3];
} PhGeoD;

static void facet_geo_d(const PhRaw *f, const PhGeo *g, const double R[9], PhGeoD *d)
{
    double b0[3], be1[3], be2[3], c[3];
    rot3(R, f->B0, b0), rot3(R, f->Be1, be1), rot3(R, f->Be2, be2);
    cross3(g->e1, g->e2, c);
    double lc = norm3(c), sg = dst_dot3(c, g->n) >= 0.0 ? 1.0 : -1.0;
    memset(d, 0, sizeof *d);
    for (int j = 0; j < 3; ++j) {
        double e[3] = {0.0, 0.0, 0.0}, dc[3], t1[3], t2[3];
        e[j] = 1.0;
        d->dc0[j][j] = -1.0;
        cross3(b0, e, d->dc0[3 + j]), cross3(be1, e, d->de1[3 + j]), cross3(be2, e, d->de2[3 + j]);
        cross3(d->de1[3 + j], g->e2, t1), cross3(g->e1, d->de2[3 + j], t2);
        for (int k = 0; k < 3; ++k) dc[k] = t1[k] + t2[k];
        double nd = dst_dot3(g->n, dc);
        for (int k = 0; k < 3; ++k) d->dn[3 + j][k] = sg * (dc[k] - nd * g->n[k]) / lc;
    }
}

/* interval of the segment F cap plane(G) along the direction L; 0 when F does not cross G's plane */
static int cross_interval(const PhRaw *fr, const PhGeo *f, const PhGeo *g, const double L[3], double tol,
                          double iv[2])
{
    int nc = fr->para ? 4 : 3, neg = 0, pos = 0;
    double x[4][3], z[4];
    for (int k = 0; k < nc; ++k) {
        facet_corner(fr, f, k, x[k]);
        double w[3] = {x[k][0] - g->c0[0], x[k][1] - g->c0[1], x[k][2] - g->c0[2]};
        z[k] = dst_dot3(w, g->n);
        neg += z[k] < -tol, pos += z[k] > tol;
    }
    if (!neg || !pos) return 0;
    iv[0] = INFINITY, iv[1] = -INFINITY;
    for (int k = 0; k < nc; ++k) {
        int k1 = (k + 1) % nc;
        if ((z[k] < 0.0) == (z[k1] < 0.0)) continue;
        double t = z[k] / (z[k] - z[k1]), p[3];
        for (int i = 0; i < 3; ++i) p[i] = x[k][i] + t * (x[k1][i] - x[k][i]);
        double a = dst_dot3(p, L);
        iv[0] = ph_min(iv[0], a), iv[1] = ph_max(iv[1], a);
    }
    return iv[0] <= iv[1];
}

/* Sorts a[0 .. n-1] stably by the low `bits` bits of k[0] (records of equal keys keep their
 * order): a radix sort, a byte a pass, through tmp (n records); a pass in which every key has
 * the same byte is skipped. */
static void radix_sort(PhOrder *a, PhOrder *tmp, int n, int bits)
{
    PhOrder *src = a, *dst = tmp;
    for (int sh = 0; sh < bits && sh < 64; sh += 8) {
        int count[257] = {0};
        for (int i = 0; i < n; ++i) ++count[((src[i].k[0] >> sh) & 255) + 1];
        if (n == 0 || count[((src[0].k[0] >> sh) & 255) + 1] == n) continue;
        for (int d = 0; d < 256; ++d) count[d + 1] += count[d];
        for (int i = 0; i < n; ++i) dst[count[(src[i].k[0] >> sh) & 255]++] = src[i];
        PhOrder *sw = src;
        src = dst, dst = sw;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
}

/* a before b in the order of the facets (key, place in the pair, then index) */
static inline int order_less(const PhOrder *a, const PhOrder *b)
{
    if (a->k[0] != b->k[0]) return a->k[0] < b->k[0];
    if (a->k[1] != b->k[1]) return a->k[1] < b->k[1];
    if (a->sub != b->sub) return a->sub < b->sub;
    return a->idx < b->idx;
}

/* Sorts a[0 .. n-1] by order_less (a total order): insertion sort of runs of 16, then merges
 * through tmp (n records). */
static void order_sort(PhOrder *a, PhOrder *tmp, int n)
{
    enum { RUN = 16 };
    for (int lo = 0; lo < n; lo += RUN) {
        int hi = lo + RUN < n ? lo + RUN : n;
        for (int i = lo + 1; i < hi; ++i) {
            PhOrder x = a[i];
            int j = i;
            while (j > lo && order_less(&x, a + j - 1)) a[j] = a[j - 1], --j;
            a[j] = x;
        }
    }
    for (int w = RUN; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = order_less(a + j, a + i) ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof *a);
    }
}

/* Trimming (phong.md sec. 6): the untrimmed convolution facets cross each other where dM has a
 * concave crease. Records the crossing pairs of dM(S) (on the untrimmed facets). */

/* an integer key of a finite number in the same order (-0 taken as +0) */
static uint64_t double_key(double d)
{
    uint64_t u;
    if (d == 0.0) d = 0.0;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : u | (uint64_t)1 << 63;
}

/* The sweep records sw[0 .. m-1] sorted by lo, stably (records of equal lo keep their order),
 * through the order records of the workspace (free once the facets are in their order). */
static void sweep_sort(DstPhongWorkspace *ws, PhSweep *sw, int m)
{
    for (int p = 0; p < m; ++p) {
        PhOrder *o = ws->order + p;
        o->k[0] = double_key(sw[p].lo), o->k[1] = 0, o->sub = 0, o->idx = p;
    }
    radix_sort(ws->order, ws->otmp, m, 64);
    for (int p = 0; p < m; ++p) ws->sweep_tmp[p] = sw[ws->order[p].idx];
    memcpy(sw, ws->sweep_tmp, (size_t)m * sizeof *sw);
}

/* partner of r found by a crossing pair of order key key: r keeps the PH_MAXCLIP partners of
 * least key, in key order */
static void add_partner(PhRaw *r, uint64_t *keys, uint64_t key, int partner)
{
    int k = r->nclip;
    if (k == PH_MAXCLIP) {
        if (key >= keys[k - 1]) return;
        --k;
    } else {
        ++r->nclip;
    }
    while (k > 0 && keys[k - 1] > key) keys[k] = keys[k - 1], r->clip[k] = r->clip[k - 1], --k;
    keys[k] = key, r->clip[k] = partner;
}

/* 1 when the corners of f lie on both sides of g's plane, by more than tol: the first test of
 * cross_interval(), on the corners computed once (nearly every pair of the sweep fails it). The
 * four corners in lanes, each lane the scalar expression (x - c0) . n with the same operations in
 * the same order (phong.md sec. 16) */
static int corners_both_sides(const PhCorners *f, const PhCorners *g, double tol)
{
    /* four corners always: a triangle's third is repeated (corner_records()), which leaves the
     * answer as it is */
    const PhV4 z = (f->x - g->c0[0]) * g->n[0] + (f->y - g->c0[1]) * g->n[1] + (f->z - g->c0[2]) * g->n[2];
    const PhV4i neg = z < -tol, pos = z > tol;
    return ((neg[0] | neg[1] | neg[2] | neg[3]) & (pos[0] | pos[1] | pos[2] | pos[3])) != 0;
}

/* The places of the facets in the sweep along x (find_crossings), sorted when first needed: a
 * query whose sweep runs along another axis needs them only for its crossing pairs, which are
 * rare (phong.md sec. 16). */
typedef struct PhRanks {
    int *rank;               /* per facet */
    int ready;
    DstPhongWorkspace *ws;   /* its order records (free during the sweep) sort them */
} PhRanks;

/* rk->rank for the n facets of geo that are ok: the order of sweep_sort() along x (by the lowest x
 * of the bounding sphere, ties in facet order) */
static void ranks_along_x(PhRanks *rk, const PhGeo *geo, int n)
{
    DstPhongWorkspace *ws = rk->ws;
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (!geo[i].ok) continue;
        PhOrder *o = ws->order + m++;
        o->k[0] = double_key(geo[i].ctr[0] - geo[i].rad), o->k[1] = 0, o->sub = 0, o->idx = i;
    }
    radix_sort(ws->order, ws->otmp, m, 64);
    for (int p = 0; p < m; ++p) rk->rank[ws->order[p].idx] = p;
    rk->ready = 1;
}

/* the rest of crossing_pair() for a pair whose corners lie on both sides of each other's plane;
 * rk: the places of the n facets along x (PhRanks) */
static void crossing_confirm(PhRaw *raw, const PhGeo *geo, int n, int i, int j, double tol, PhRanks *rk,
                             uint64_t (*ckey)[PH_MAXCLIP])
{
    const PhGeo *f = geo + i, *g = geo + j;
    double L[3], a[2], b[2];
    cross3(f->n, g->n, L);
    if (!cross_interval(raw + i, f, g, L, tol, a) || !cross_interval(raw + j, g, f, L, tol, b)) return;
    /* a crease, not a corner touch: the common segment is a fair part of the facets */
    double l = norm3(L);
    if (ph_min(a[1], b[1]) - ph_max(a[0], b[0]) < DST_PHONG_TRIM_REL * l * ph_max(f->rad, g->rad)) return;
    if (!rk->ready) ranks_along_x(rk, geo, n);
    uint64_t key = (uint64_t)rk->rank[i] << 32 | (uint64_t)rk->rank[j];
    add_partner(raw + i, ckey[i], key, j);
    add_partner(raw + j, ckey[j], key, i);
}

/* The crossing test of a pair of facets whose bounding spheres meet (sweep records sp, sq):
 * not coplanar, each cuts the other's plane, and their common segment is a fair part of them;
 * a crossing pair is recorded in both partner lists (add_partner). The cheap tests here, inline
 * in the sweep; the few pairs that pass them go on to crossing_confirm(). */
static inline void crossing_pair(PhRaw *raw, const PhGeo *geo, int n, const PhCorners *corn, int p, int q,
                                 PhRanks *rk, uint64_t (*ckey)[PH_MAXCLIP])
{
    const PhCorners *cp = corn + p, *cq = corn + q;
    if (dst_dot3(cp->n, cq->n) > 1.0 - DST_PHONG_COPLANAR_COS) return;
    /* the pair in the order of the sweep along x, by (lowest x, index) (chosen without a branch) */
    int swap = -((cp->lox > cq->lox) | ((cp->lox == cq->lox) & (cp->i > cq->i)));
    const PhCorners *ci = corn + (p ^ ((p ^ q) & swap)), *cj = corn + (q ^ ((p ^ q) & swap));
    double tol = DST_ROUND_REL * (ci->rad + cj->rad + ci->cnorm);
    if (!corners_both_sides(ci, cj, tol) || !corners_both_sides(cj, ci, tol)) return;
    crossing_confirm(raw, geo, n, ci->i, cj->i, tol, rk, ckey);
}

/* the crossing records of the facets sw[0 .. m-1], in that order */
static void corner_records(const PhRaw *raw, const PhGeo *geo, const PhSweep *sw, int m, PhCorners *corn)
{
    for (int p = 0; p < m; ++p) {
        int i = sw[p].i;
        const PhGeo *g = geo + i;
        PhCorners *cr = corn + p;
        cr->nc = raw[i].para ? 4 : 3, cr->i = i;
        cr->rad = g->rad, cr->cnorm = norm3(g->ctr), cr->lox = g->ctr[0] - g->rad;
        double x[4][3];
        for (int k = 0; k < cr->nc; ++k) facet_corner(raw + i, g, k, x[k]);
        if (cr->nc == 3) memcpy(x[3], x[2], sizeof x[3]);
        for (int k = 0; k < 4; ++k) cr->x[k] = x[k][0], cr->y[k] = x[k][1], cr->z[k] = x[k][2];
        memcpy(cr->c0, g->c0, sizeof cr->c0), memcpy(cr->n, g->n, sizeof cr->n);
    }
}

/* the two bounding spheres (centre, radius) meet */
static int spheres_meet(const double a[4], const double b[4])
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2], rr = a[3] + b[3];
    return dx * dx + dy * dy + dz * dz <= rr * rr;
}

/* Sphere tree over the sweep records sw[item[first .. first + count - 1]] (median splits on the
 * widest axis of the centres, up to PH_FTREE_LEAF records a leaf). Returns the node index. */
static int ftree_node(const PhSweep *sw, int *item, TreeKey *key, PhFNode *nodes, int *nn, int first, int count)
{
    int id = (*nn)++;
    PhFNode *nd = nodes + id;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = first; i < first + count; ++i) {
        const double *sc = sw[item[i]].c;
        for (int k = 0; k < 3; ++k) lo[k] = ph_min(lo[k], sc[k]), hi[k] = ph_max(hi[k], sc[k]);
    }
    nd->first = first, nd->count = count, nd->left = nd->right = -1;
    if (count <= PH_FTREE_LEAF) {
        /* a leaf's sphere about the mean of its records' centres */
        double c[3] = {0.0, 0.0, 0.0}, r = 0.0;
        for (int i = first; i < first + count; ++i) {
            for (int k = 0; k < 3; ++k) c[k] += sw[item[i]].c[k] / count;
        }
        for (int i = first; i < first + count; ++i) {
            const double *sc = sw[item[i]].c;
            double d[3] = {sc[0] - c[0], sc[1] - c[1], sc[2] - c[2]};
            r = ph_max(r, norm3(d) + sc[3]);
        }
        memcpy(nd->c, c, sizeof c);
        nd->c[3] = r + DST_ROUND_REL * (norm3(c) + r);
        return id;
    }
    int ax = 0;
    if (hi[1] - lo[1] > hi[ax] - lo[ax]) ax = 1;
    if (hi[2] - lo[2] > hi[ax] - lo[ax]) ax = 2;
    for (int i = 0; i < count; ++i) key[i].f = item[first + i], key[i].k = sw[key[i].f].c[ax];
    int half = count / 2;
    select_kth(key, count, half);
    for (int i = 0; i < count; ++i) item[first + i] = key[i].f;
    int l = ftree_node(sw, item, key, nodes, nn, first, half);
    int rr = ftree_node(sw, item, key, nodes, nn, first + half, count - half);
    nodes[id].left = l, nodes[id].right = rr;
    /* an inner node's sphere holds its children's */
    const double *a = nodes[l].c, *b = nodes[rr].c;
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, dl = norm3(d), *o = nodes[id].c;
    if (dl + b[3] <= a[3]) {
        memcpy(o, a, 4 * sizeof(double));
    } else if (dl + a[3] <= b[3]) {
        memcpy(o, b, 4 * sizeof(double));
    } else {
        double r = 0.5 * (dl + a[3] + b[3]), w = (r - a[3]) / dl;
        for (int k = 0; k < 3; ++k) o[k] = a[k] + w * d[k];
        o[3] = r + DST_ROUND_REL * (norm3(o) + r);
    }
    return id;
}

/* The pairs of records whose spheres meet, by a walk of a sphere tree against itself, each
 * pair through crossing_pair(). Returns 0 when the stack overflowed (nothing is then final). */
static int crossings_by_tree(PhRaw *raw, const PhGeo *geo, int n, const PhSweep *sw, int m, PhRanks *rk,
                             uint64_t (*ckey)[PH_MAXCLIP], DstPhongWorkspace *ws)
{
    int nn = 0, sp = 0;
    for (int p = 0; p < m; ++p) ws->fitem[p] = p;
    corner_records(raw, geo, sw, m, ws->corn);
    ftree_node(sw, ws->fitem, ws->fkey, ws->fnode, &nn, 0, m);
    const PhFNode *nd = ws->fnode;
    /* node pairs on the stack have spheres that meet (a node with itself always); a pair is
     * tested when its parent pair is split, without branches, as are the records of two leaves
     * (at most PH_FTREE_LEAF each: every pair evaluated, those past a leaf's count masked out) */
    ws->stack[sp][0] = 0, ws->stack[sp][1] = 0, ++sp;
    while (sp > 0) {
        --sp;
        int a = ws->stack[sp][0], b = ws->stack[sp][1];
        const PhFNode *na = nd + a, *nb = nd + b;
        int la = na->left < 0, lb = nb->left < 0;
        if (la && lb) {
            int hp[PH_FTREE_LEAF * PH_FTREE_LEAF][2], nh = 0;
            for (int i = 0; i < PH_FTREE_LEAF; ++i) {
                int ii = na->first + (i < na->count ? i : 0);
                for (int j = 0; j < PH_FTREE_LEAF; ++j) {
                    int jj = nb->first + (j < nb->count ? j : 0);
                    const PhSweep *s1 = sw + ws->fitem[ii], *s2 = sw + ws->fitem[jj];
                    hp[nh][0] = ws->fitem[ii], hp[nh][1] = ws->fitem[jj];
                    nh += (i < na->count) & (j < nb->count) & ((a != b) | (j > i)) & spheres_meet(s1->c, s2->c);
                }
            }
            for (int h = 0; h < nh; ++h) crossing_pair(raw, geo, n, ws->corn, hp[h][0], hp[h][1], rk, ckey);
            continue;
        }
        if (sp + 3 > PH_STACK) return 0;
        if (a == b) {
            ws->stack[sp][0] = na->left, ws->stack[sp][1] = na->left, ++sp;
            ws->stack[sp][0] = na->right, ws->stack[sp][1] = na->right, ++sp;
            ws->stack[sp][0] = na->left, ws->stack[sp][1] = na->right;
            sp += spheres_meet(nd[na->left].c, nd[na->right].c);
        } else if (lb || (!la && na->c[3] >= nb->c[3])) {
            ws->stack[sp][0] = na->left, ws->stack[sp][1] = b;
            sp += spheres_meet(nd[na->left].c, nb->c);
            ws->stack[sp][0] = na->right, ws->stack[sp][1] = b;
            sp += spheres_meet(nd[na->right].c, nb->c);
        } else {
            ws->stack[sp][0] = a, ws->stack[sp][1] = nb->left;
            sp += spheres_meet(na->c, nd[nb->left].c);
            ws->stack[sp][0] = a, ws->stack[sp][1] = nb->right;
            sp += spheres_meet(na->c, nd[nb->right].c);
        }
    }
    return 1;
}

/* The crossing pairs of the facets of dM(S) (trimming, phong.md sec. 3). A facet keeps the
 * first PH_MAXCLIP partners in the order of a sweep along x over the bounding spheres (pair
 * (p, q), p < q, in the order of p then q); the pairs themselves are found by a sphere tree
 * over the facets when they are many, else by a sweep along the axis on which the facets'
 * centres spread most: either tests fewer pairs than the sweep along x. */
static void find_crossings(PhRaw *raw, const PhGeo *geo, int n, PhSweep *sw, double *soa, int *rank,
                           uint64_t (*ckey)[PH_MAXCLIP], DstPhongWorkspace *ws)
{
    int m = 0, ax = 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        raw[i].nclip = 0;
        if (!geo[i].ok) continue;
        const PhGeo *g = geo + i;
        sw[m].lo = g->ctr[0] - g->rad, sw[m].hi = g->ctr[0] + g->rad;
        memcpy(sw[m].c, g->ctr, sizeof g->ctr), sw[m].c[3] = g->rad;
        sw[m].i = i, ++m;
        for (int k = 0; k < 3; ++k) lo[k] = ph_min(lo[k], g->ctr[k]), hi[k] = ph_max(hi[k], g->ctr[k]);
    }
    if (hi[1] - lo[1] > hi[ax] - lo[ax]) ax = 1;
    if (hi[2] - lo[2] > hi[ax] - lo[ax]) ax = 2;
    /* the ranks along x order the pairs: sorted along x when the tree or the sweep needs it, else
     * when the first crossing pair is found (PhRanks; crossing_pair() orders a pair by (lowest x,
     * index), which is the order of the ranks) */
    PhRanks rks = {rank, 0, ws}, *rk = &rks;
    if (m >= PH_FTREE_MIN || ax == 0) {
        sweep_sort(ws, sw, m);
        for (int p = 0; p < m; ++p) rank[sw[p].i] = p;
        rks.ready = 1;
    }
    int by_tree = m >= PH_FTREE_MIN && crossings_by_tree(raw, geo, n, sw, m, rk, ckey, ws);
    if (!by_tree && m >= PH_FTREE_MIN) {
        for (int i = 0; i < n; ++i) raw[i].nclip = 0; /* the stack overflowed: sweep instead */
    }
    if (!by_tree && ax != 0) {
        for (int p = 0; p < m; ++p) sw[p].lo = sw[p].c[ax] - sw[p].c[3], sw[p].hi = sw[p].c[ax] + sw[p].c[3];
        sweep_sort(ws, sw, m);
    }
    /* sweep over the bounding spheres: only overlapping ones are tested (their extents along
     * the axis and their spheres copied into arrays of their own, read in sequence, padded by
     * PH_LANES records that lie beyond every extent) */
    int ms = m + PH_LANES;
    double *slo = soa, *sx = soa + ms, *sy = soa + 2 * ms, *sz = soa + 3 * ms, *sr = soa + 4 * ms;
    for (int p = 0; p < m && !by_tree; ++p) {
        slo[p] = sw[p].lo, sx[p] = sw[p].c[0], sy[p] = sw[p].c[1], sz[p] = sw[p].c[2], sr[p] = sw[p].c[3];
    }
    for (int p = m; p < ms; ++p) slo[p] = INFINITY, sx[p] = sy[p] = sz[p] = sr[p] = 0.0;
    if (!by_tree) corner_records(raw, geo, sw, m, ws->corn);
    /* the lanes that meet, as offsets packed to the front: the row of their 4-bit mask */
    static const int pack[16][PH_LANES] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
                                           {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
                                           {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                           {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
    for (int p = 0; p < m && !by_tree; ++p) {
        /* the records q > p in PH_LANES lanes: those whose extent starts within p's (a prefix, the
         * records being sorted by lo; the padding ends it) and whose spheres meet p's, in the
         * order of q */
        const PhV4 hi = {sw[p].hi, sw[p].hi, sw[p].hi, sw[p].hi}, px = {sx[p], sx[p], sx[p], sx[p]},
                   py = {sy[p], sy[p], sy[p], sy[p]}, pz = {sz[p], sz[p], sz[p], sz[p]}, pr = {sr[p], sr[p], sr[p], sr[p]};
        const PhV4i bit = {1, 2, 4, 8};
        int nh = 0;
        for (int q0 = p + 1;; q0 += PH_LANES) {
            PhV4 lo, qx, qy, qz, qr;
            memcpy(&lo, slo + q0, sizeof lo), memcpy(&qx, sx + q0, sizeof qx), memcpy(&qy, sy + q0, sizeof qy);
            memcpy(&qz, sz + q0, sizeof qz), memcpy(&qr, sr + q0, sizeof qr);
            PhV4 dx = px - qx, dy = py - qy, dz = pz - qz, rr = pr + qr;
            PhV4i in = lo <= hi, meet = in & ~(dx * dx + dy * dy + dz * dz > rr * rr) & bit;
            /* the lanes that meet appended to the list without a branch: the four offsets of
             * their mask written, the count advanced by the lanes that meet */
            int mask = (int)(meet[0] | meet[1] | meet[2] | meet[3]);
            for (int j = 0; j < PH_LANES; ++j) ws->hits[nh + j] = q0 + pack[mask][j];
            nh += __builtin_popcount((unsigned)mask);
            if (!in[PH_LANES - 1]) break;
        }
        for (int h = 0; h < nh; ++h) crossing_pair(raw, geo, n, ws->corn, p, ws->hits[h], rk, ckey);
    }
    /* the same clip order whatever the sweep order: ascending partner index */
    for (int i = 0; i < n; ++i) {
        for (int a = 1; a < raw[i].nclip; ++a) {
            for (int b = a; b > 0 && raw[i].clip[b - 1] > raw[i].clip[b]; --b) {
                int t = raw[i].clip[b];
                raw[i].clip[b] = raw[i].clip[b - 1], raw[i].clip[b - 1] = t;
            }
        }
    }
}

/* 2-D polygon P clipped to a x + b y + c >= 0 into Q; returns the vertex count */
static int clip_poly(const double (*P)[2], int np, double a, double b, double c, double (*Q)[2])
{
    int nq = 0;
    for (int k = 0; k < np && nq < PH_MAXV; ++k) {
        const double *p = P[k], *q = P[(k + 1) % np];
        double fp = a * p[0] + b * p[1] + c, fq = a * q[0] + b * q[1] + c;
        if (fp >= 0.0) Q[nq][0] = p[0], Q[nq][1] = p[1], ++nq;
        if (((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0)) && nq < PH_MAXV) {
            double t = fp / (fp - fq);
            Q[nq][0] = p[0] + t * (q[0] - p[0]), Q[nq][1] = p[1] + t * (q[1] - p[1]), ++nq;
        }
    }
    return nq;
}

/* area of a 2-D polygon (shoelace) */
static double poly_area(const double (*P)[2], int n)
{
    double a = 0.0;
    for (int k = 0; k < n; ++k) a += P[k][0] * P[(k + 1) % n][1] - P[k][1] * P[(k + 1) % n][0];
    return 0.5 * fabs(a);
}

/* The cut of facet f along the plane of g (phong.md sec. 3, eq. P5e): the plane value
 * a x + b y + c of f's 2-D corners (n_G . (c0_F + x f1 + y f2 - c0_G)), the pieces on either side
 * and their areas. Returns +1 when the piece on the positive side is kept (the larger), else -1. */
typedef struct PhCut {
    double a, b, c;
    double Qf[PH_MAXV][2], Qb[PH_MAXV][2];
    int nf, nb;
} PhCut;

static double cut_by(const PhGeo *f, const PhGeo *g, PhCut *k)
{
    double w[3] = {f->c0[0] - g->c0[0], f->c0[1] - g->c0[1], f->c0[2] - g->c0[2]};
    k->a = dst_dot3(g->n, f->f1), k->b = dst_dot3(g->n, f->f2), k->c = dst_dot3(g->n, w);
    k->nf = clip_poly((const double(*)[2])f->p2, f->nc, k->a, k->b, k->c, k->Qf);
    k->nb = clip_poly((const double(*)[2])f->p2, f->nc, -k->a, -k->b, -k->c, k->Qb);
    double af = k->nf >= 3 ? poly_area((const double(*)[2])k->Qf, k->nf) : 0.0;
    double ab = k->nb >= 3 ? poly_area((const double(*)[2])k->Qb, k->nb) : 0.0;
    return af >= ab ? 1.0 : -1.0;
}

/* Cuts each facet along the planes of the facets it crosses and keeps the larger piece: at a
 * concave crease the crossing facets overhang each other by a short wing that lies inside M; at
 * a convex edge a slight misalignment makes a sliver stick out, and the larger piece is again the
 * boundary (phong.md sec. 3). */
static void trim_by(PhGeo *f, const PhGeo *g)
{
    if (!g->ok || f->nc < 3) return;
    PhCut cut;
    if (cut_by(f, g, &cut) > 0.0) memcpy(f->p2, cut.Qf, (size_t)cut.nf * sizeof cut.Qf[0]), f->nc = cut.nf;
    else memcpy(f->p2, cut.Qb, (size_t)cut.nb * sizeof cut.Qb[0]), f->nc = cut.nb;
    if (f->nc < 3) f->nc = 0;
}

/* trim_by, carrying the pose partials dP of the polygon's corners in 3-D (phong.md eq. P5e): the
 * same cut is taken (the side of the larger piece is a discrete choice, constant almost
 * everywhere). A corner kept keeps its partials; a corner made on the edge (P, Q) where the plane
 * value f = n_G . (X - c0_G) changes sign is X = P + tau (Q - P), tau = f_P / (f_P - f_Q), with
 * d tau = (f_P d f_Q - f_Q d f_P) / (f_P - f_Q)^2 and d f_X = d n_G . (X - c0_G) + n_G . (d X - d c0_G). */
static void trim_by_d(PhGeo *f, double (*dP)[6][3], const PhGeo *g, const PhGeoD *gd)
{
    if (!g->ok || f->nc < 3) return;
    PhCut cut;
    double sg = cut_by(f, g, &cut), sa = sg * cut.a, sb = sg * cut.b, sc = sg * cut.c;
    /* the plane value of each corner and its partials */
    double fv[PH_MAXV], df[PH_MAXV][6], X[PH_MAXV][3];
    for (int k = 0; k < f->nc; ++k) {
        const double *p = f->p2[k];
        fv[k] = sa * p[0] + sb * p[1] + sc;
        for (int i = 0; i < 3; ++i) X[k][i] = f->c0[i] + p[0] * f->f1[i] + p[1] * f->f2[i] - g->c0[i];
        for (int j = 0; j < 6; ++j) {
            double dd[3] = {dP[k][j][0] - gd->dc0[j][0], dP[k][j][1] - gd->dc0[j][1], dP[k][j][2] - gd->dc0[j][2]};
            df[k][j] = sg * (dst_dot3(gd->dn[j], X[k]) + dst_dot3(g->n, dd));
        }
    }
    double Q[PH_MAXV][2], dQ[PH_MAXV][6][3];
    int nq = 0, np = f->nc;
    for (int k = 0; k < np && nq < PH_MAXV; ++k) {
        int k1 = (k + 1) % np;
        const double *p = f->p2[k], *q = f->p2[k1];
        double fp = fv[k], fq = fv[k1];
        if (fp >= 0.0) {
            Q[nq][0] = p[0], Q[nq][1] = p[1];
            memcpy(dQ[nq], dP[k], sizeof dQ[0]);
            ++nq;
        }
        if (((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0)) && nq < PH_MAXV) {
            double t = fp / (fp - fq), den = (fp - fq) * (fp - fq);
            Q[nq][0] = p[0] + t * (q[0] - p[0]), Q[nq][1] = p[1] + t * (q[1] - p[1]);
            for (int j = 0; j < 6; ++j) {
                double dt = (fp * df[k1][j] - fq * df[k][j]) / den;
                for (int i = 0; i < 3; ++i)
                    dQ[nq][j][i] = dP[k][j][i] + t * (dP[k1][j][i] - dP[k][j][i]) + dt * (X[k1][i] - X[k][i]);
            }
            ++nq;
        }
    }
    memcpy(f->p2, Q, (size_t)nq * sizeof Q[0]);
    memcpy(dP, dQ, (size_t)nq * sizeof dQ[0]);
    f->nc = nq >= 3 ? nq : 0;
}

static void apply_trims(const PhRaw *raw, PhGeo *geo, int n)
{
    for (int i = 0; i < n; ++i) {
        PhGeo *f = geo + i;
        if (!f->ok) continue;
        for (int c = 0; c < raw[i].nclip && f->nc >= 3; ++c) trim_by(f, geo + raw[i].clip[c]);
    }
}

/* (s, u) of the point of the facet's plane nearest to x */
static void facet_param(const PhGeo *g, const double x[3], double *s, double *u)
{
    double w[3] = {x[0] - g->c0[0], x[1] - g->c0[1], x[2] - g->c0[2]};
    double a = dst_dot3(g->e1, g->e1), b = dst_dot3(g->e1, g->e2), c = dst_dot3(g->e2, g->e2);
    double p = dst_dot3(w, g->e1), q = dst_dot3(w, g->e2), det = a * c - b * b;
    det = fmax(det, DST_MIN_DENOM);
    *s = (p * c - q * b) / det;
    *u = (q * a - p * b) / det;
}

/* eq. (5.6) on a facet: the parameters lie in the triangle or in the parallelogram */
static int facet_inside(const PhRaw *f, double s, double u)
{
    /* (the tests combined without branches) */
    int in = (s >= 0.0) & (u >= 0.0);
    return f->para ? in & (s <= 1.0) & (u <= 1.0) : in & (s + u <= 1.0);
}

/* Closest point of the facet to x: squared distance, and its (s, u). */
static double facet_closest(const PhRaw *f, const PhGeo *g, const double x[3], double *s, double *u)
{
    double y[3];
    facet_param(g, x, s, u);
    if (!facet_inside(f, *s, *u)) {
        /* on the boundary: the nearest of the edges (corners in (s, u)) */
        static const double tri[4][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 0}};
        static const double par[5][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
        const double(*cs)[2] = f->para ? par : tri;
        int ne = f->para ? 4 : 3;
        double best = INFINITY, bs = 0.0, bu = 0.0;
        for (int i = 0; i < ne; ++i) {
            double p0[3], p1[3], d[3], w[3];
            facet_point(g, cs[i][0], cs[i][1], p0), facet_point(g, cs[i + 1][0], cs[i + 1][1], p1);
            for (int k = 0; k < 3; ++k) d[k] = p1[k] - p0[k], w[k] = x[k] - p0[k];
            double dd = dst_dot3(d, d), lam = dd > DST_MIN_DENOM ? dst_clamp01(dst_dot3(w, d) / dd) : 0.0;
            for (int k = 0; k < 3; ++k) w[k] -= lam * d[k];
            double e = dst_dot3(w, w);
            if (e < best) {
                best = e;
                bs = cs[i][0] + lam * (cs[i + 1][0] - cs[i][0]);
                bu = cs[i][1] + lam * (cs[i + 1][1] - cs[i][1]);
            }
        }
        *s = bs, *u = bu;
    }
    facet_point(g, *s, *u, y);
    for (int k = 0; k < 3; ++k) y[k] -= x[k];
    return dst_dot3(y, y);
}

/* ---------------------------------------------------------------- the normal field */

/* 1 when the segment (p, q) lies inside the disc of radius rho about the origin by a margin
 * (c = |p|^2 - rho^2 and |q|^2 - rho^2 at most -DST_PHONG_INSIDE_REL rho^2): then the line meets
 * the circle at t1 < 0 and t2 > 1, far beyond the rounding of the roots, and the disc's area
 * functions take the whole segment (s1 = 0, s2 = 1) whatever their exact values; t1 and t2 are
 * set to -1 and 2, which gives those same branches without the square root and the divisions
 * (phong.md sec. 14) */
static inline int seg_in_disc(double rho, double c, const double q[2], double *t1, double *t2)
{
    double r2 = rho * rho, lim = -DST_PHONG_INSIDE_REL * r2;
    if (!(c <= lim && q[0] * q[0] + q[1] * q[1] - r2 <= lim)) return 0;
    *t1 = -1.0, *t2 = 2.0;
    return 1;
}

/* Signed area of the disc of radius rho about the origin intersected with the triangle
 * (origin, p, q) (2-D): segment pieces inside the disc count as triangles, pieces outside as
 * circular sectors. Continuous in rho, p and q. */
static double disc_tri_area(double rho, const double p[2], const double q[2])
{
    double d[2] = {q[0] - p[0], q[1] - p[1]};
    double a = d[0] * d[0] + d[1] * d[1], b = p[0] * d[0] + p[1] * d[1], c = p[0] * p[0] + p[1] * p[1] - rho * rho;
    double r2h = 0.5 * rho * rho;
    double disc = b * b - a * c;
    if (a <= DST_MIN_DENOM) return 0.0;
    if (disc <= 0.0) return r2h * atan2(p[0] * q[1] - p[1] * q[0], p[0] * q[0] + p[1] * q[1]);
    double t1, t2;
    if (!seg_in_disc(rho, c, q, &t1, &t2)) {
        double sq = sqrt(disc);
        t1 = (-b - sq) / a, t2 = (-b + sq) / a;
    }
    if (t1 >= 1.0 || t2 <= 0.0) return r2h * atan2(p[0] * q[1] - p[1] * q[0], p[0] * q[0] + p[1] * q[1]);
    double s1 = fmax(t1, 0.0), s2 = fmin(t2, 1.0);
    double P1[2] = {p[0] + s1 * d[0], p[1] + s1 * d[1]}, P2[2] = {p[0] + s2 * d[0], p[1] + s2 * d[1]};
    double area = 0.5 * (P1[0] * P2[1] - P1[1] * P2[0]);
    if (t1 > 0.0) area += r2h * atan2(p[0] * P1[1] - p[1] * P1[0], p[0] * P1[0] + p[1] * P1[1]);
    if (t2 < 1.0) area += r2h * atan2(P2[0] * q[1] - P2[1] * q[0], P2[0] * q[0] + P2[1] * q[1]);
    return area;
}

/* The continuous normal field of dM (phong.md eq. P1; the tangent plane of sec. V.B.2 is the
 * plane orthogonal to it): nu(x) = sum_F area(F cap ball(x, h)) (rho_F / h)^2 n_F, normalised,
 * rho_F the radius of the disc in which F's plane cuts the ball. Returns 0
 * when no facet meets the ball or the sum is singular (phong.md sec. 6). */
static int field(const PhGeo *g, const double (*sph)[4], int n, const double x[3], double h, double nu[3])
{
    double acc[3] = {0.0, 0.0, 0.0}, tot = 0.0;
    for (int i = 0; i < n; ++i, ++g) {
        /* the facet's bounding sphere must meet the ball (from the compact copy when given) */
        const double *sc = sph ? sph[i] : g->ctr;
        double rad = sph ? sph[i][3] : g->rad;
        double dc[3] = {x[0] - sc[0], x[1] - sc[1], x[2] - sc[2]}, lim = rad + h;
        if (dst_dot3(dc, dc) > lim * lim) continue;
        if (!g->ok) continue;
        double w[3] = {x[0] - g->c0[0], x[1] - g->c0[1], x[2] - g->c0[2]};
        double z = dst_dot3(w, g->n);
        if (fabs(z) >= h) continue;
        double rho = sqrt(h * h - z * z), px = dst_dot3(w, g->f1), py = dst_dot3(w, g->f2);
        int nc = g->nc;
        double area = 0.0;
        for (int k = 0; k < nc; ++k) {
            int k1 = (k + 1) % nc;
            double p[2] = {g->p2[k][0] - px, g->p2[k][1] - py}, q[2] = {g->p2[k1][0] - px, g->p2[k1][1] - py};
            area += disc_tri_area(rho, p, q);
        }
        /* the factor rho^2 / h^2 makes a facet's weight enter with zero slope when its plane
         * starts to cut the ball (|z| -> h), so that nu is C^1 there (phong.md eq. P1) */
        area = fabs(area) * (rho * rho) / (h * h);
        for (int k = 0; k < 3; ++k) acc[k] += area * g->n[k];
        tot += area;
    }
    double l = norm3(acc);
    if (!(tot > 0.0) || l <= DST_PHONG_SINGULAR_REL * tot) return 0;
    for (int k = 0; k < 3; ++k) nu[k] = acc[k] / l;
    return 1;
}

/* ---------------------------------------------------------------- query context */

typedef struct PhCtx {
    const DstPhongModel *a, *b;
    double R[9], t[3];
    double alpha, beta, hmin, hmax;
    DstPhongWorkspace *ws;
    DstPhongCache *cache;    /* NULL: dM(S) by the walks of the trees only */
    int hits, builds;        /* collections from the cache, and (re)builds of it */
    int collections;         /* collections of dM(S) so far in this query (collect()) */
    int whole;               /* 1 when the workspace holds the dM(S) of a collection of this query
                              * whose ball held both models whole (ball_holds_trees()) */
} PhCtx;

/* averaging radius at x (phong.md eq. P1): the proportionality of eq. (5.12) applied at the
 * point, h(x) = beta |x| + h_min, capped */
static double radius_at(const PhCtx *c, const double x[3])
{
    return ph_min(c->beta * norm3(x) + c->hmin, c->hmax);
}

/* The Phong residual of eq. (5.4) at the point x of facet g (geometry array geos): the part of
 * q - o orthogonal to nu(q), in the facet's basis (G), its length (*res), and delta = -nu . q. */
static int residual(const PhCtx *c, const PhGeo *geos, const double (*sph)[4], int n, const PhGeo *g, const double x[3],
                    double G[2], double *res, double *delta, double nu[3])
{
    double h = radius_at(c, x), r3[3];
    if (!field(geos, sph, n, x, h, nu)) return 0;
    double xn = dst_dot3(x, nu);
    for (int k = 0; k < 3; ++k) r3[k] = x[k] - xn * nu[k];
    G[0] = dst_dot3(r3, g->f1), G[1] = dst_dot3(r3, g->f2);
    if (res) *res = norm3(r3);
    if (delta) *delta = -xn;
    return 1;
}

/* disc_tri_area and its partial derivatives (phong.md eq. P5c): with respect to the corners p, q
 * (gp, gq) and to rho (rho times *theta, the angle of the sector pieces). The points where the
 * segment meets the circle are held fixed: moving one along the segment changes the triangle
 * piece and the sector piece by opposite amounts, since it lies on the circle. */
static double disc_tri_area_d(double rho, const double p[2], const double q[2], double gp[2], double gq[2],
                              double *theta)
{
    double d[2] = {q[0] - p[0], q[1] - p[1]};
    double a = d[0] * d[0] + d[1] * d[1], b = p[0] * d[0] + p[1] * d[1], c = p[0] * p[0] + p[1] * p[1] - rho * rho;
    double r2h = 0.5 * rho * rho;
    double disc = b * b - a * c;
    gp[0] = gp[1] = gq[0] = gq[1] = 0.0, *theta = 0.0;
    if (a <= DST_MIN_DENOM) return 0.0;
    double pp = p[0] * p[0] + p[1] * p[1], qq = q[0] * q[0] + q[1] * q[1];
    double t1, t2;
    if (!(disc > 0.0 && seg_in_disc(rho, c, q, &t1, &t2))) {
        double sq = disc > 0.0 ? sqrt(disc) : 0.0;
        t1 = (-b - sq) / a, t2 = (-b + sq) / a;
    }
    if (disc <= 0.0 || t1 >= 1.0 || t2 <= 0.0) {
        /* one sector from p to q: r2h (phi_q - phi_p), d phi_v / d v = (-v_y, v_x) / |v|^2 */
        double ang = atan2(p[0] * q[1] - p[1] * q[0], p[0] * q[0] + p[1] * q[1]);
        *theta = ang;
        if (pp > 0.0) gp[0] = r2h * p[1] / pp, gp[1] = -r2h * p[0] / pp;
        if (qq > 0.0) gq[0] = -r2h * q[1] / qq, gq[1] = r2h * q[0] / qq;
        return r2h * ang;
    }
    double s1 = fmax(t1, 0.0), s2 = fmin(t2, 1.0);
    double P1[2] = {p[0] + s1 * d[0], p[1] + s1 * d[1]}, P2[2] = {p[0] + s2 * d[0], p[1] + s2 * d[1]};
    double area = 0.5 * (P1[0] * P2[1] - P1[1] * P2[0]);
    /* the triangle (0, P1, P2), P_i = (1 - s_i) p + s_i q */
    double g1[2] = {0.5 * P2[1], -0.5 * P2[0]}, g2[2] = {-0.5 * P1[1], 0.5 * P1[0]};
    if (t1 > 0.0) {
        double ang = atan2(p[0] * P1[1] - p[1] * P1[0], p[0] * P1[0] + p[1] * P1[1]), l1 = P1[0] * P1[0] + P1[1] * P1[1];
        area += r2h * ang;
        *theta += ang;
        if (pp > 0.0) gp[0] += r2h * p[1] / pp, gp[1] -= r2h * p[0] / pp;
        if (l1 > 0.0) g1[0] -= r2h * P1[1] / l1, g1[1] += r2h * P1[0] / l1;
    }
    if (t2 < 1.0) {
        double ang = atan2(P2[0] * q[1] - P2[1] * q[0], P2[0] * q[0] + P2[1] * q[1]), l2 = P2[0] * P2[0] + P2[1] * P2[1];
        area += r2h * ang;
        *theta += ang;
        if (l2 > 0.0) g2[0] += r2h * P2[1] / l2, g2[1] -= r2h * P2[0] / l2;
        if (qq > 0.0) gq[0] -= r2h * q[1] / qq, gq[1] += r2h * q[0] / qq;
    }
    for (int k = 0; k < 2; ++k) {
        gp[k] += (1.0 - s1) * g1[k] + (1.0 - s2) * g2[k];
        gq[k] += s1 * g1[k] + s2 * g2[k];
    }
    return area;
}

/* A facet's polygon as apply_trims() leaves it at the query's pose, with the pose partials of its
 * corners in 3-D (phong.md eq. P5e): the untrimmed corners c0, c0 + e1, (c0 + e1 + e2), c0 + e2
 * move with d c0 and d e1, d e2; each cut by a partner carries them on (trim_by_d). */
static void facet_poly_d(const PhCtx *c, int i, const PhGeoD *gd, PhGeo *f, double (*dP)[6][3])
{
    const PhRaw *r = c->ws->raw + i;
    facet_geo(r, c->R, c->t, f);
    if (!f->ok) return;
    static const double tri[3][2] = {{0, 0}, {1, 0}, {0, 1}}, par[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    const double(*cs)[2] = r->para ? par : tri;
    for (int k = 0; k < f->nc; ++k) {
        for (int j = 0; j < 6; ++j) {
            for (int m = 0; m < 3; ++m) dP[k][j][m] = gd->dc0[j][m] + cs[k][0] * gd->de1[j][m] + cs[k][1] * gd->de2[j][m];
        }
    }
    for (int j = 0; j < r->nclip && f->nc >= 3; ++j) {
        const PhRaw *rg = c->ws->raw + r->clip[j];
        PhGeo g;
        PhGeoD gdd;
        facet_geo(rg, c->R, c->t, &g);
        if (!g.ok) continue;
        facet_geo_d(rg, &g, c->R, &gdd);
        trim_by_d(f, dP, &g, &gdd);
    }
}

/* The field (P1) at x (radius h) and its partial derivatives along m directions (phong.md eq.
 * P5b-P5f): direction j moves the point by dx[j] and the radius by dh[j]; with pose set,
 * directions 2..7 also move the facets with the pose p = (t, w) (directions 0, 1 do not). Per
 * facet, with A the signed area sum of its disc pieces, v_k its corners about the foot of x,
 * z the height of x over its plane, rho^2 = h^2 - z^2 and w_F = |A| rho^2 / h^2:
 *   d v_k = P (d P_k - d x + z d n)  (P: onto (f1, f2); the in-plane turn of the basis leaves A),
 *   d z = (d x - d c0) . n + (x - c0) . d n,   rho d rho = h d h - z d z,
 *   d A = Theta rho d rho + sum_k dA/dv_k . d v_k,
 *   d w_F = sign(A) d A rho^2 / h^2 + 2 |A| (rho d rho / h^2 - rho^2 d h / h^3),
 *   d N = sum_F (d w_F n_F + w_F d n_F),   d nu = (I - nu nu^T) d N / |N|.
 * The culling, the sliver test and the trimming choices are constant almost everywhere. Returns
 * 0 where field() does. */
static int field_d(const PhCtx *c, const double x[3], double h, int m, const double (*dx)[3], const double *dh,
                   int pose, double nu[3], double (*dnu)[3])
{
    const DstPhongWorkspace *ws = c->ws;
    double acc[3] = {0.0, 0.0, 0.0}, tot = 0.0, dN[8][3];
    memset(dN, 0, sizeof dN);
    for (int i = 0; i < ws->n; ++i) {
        const double *sc = ws->gs[i];
        const PhGeo *g0 = ws->geo + i;
        double dc[3] = {x[0] - sc[0], x[1] - sc[1], x[2] - sc[2]}, lim = sc[3] + h;
        if (dst_dot3(dc, dc) > lim * lim) continue;
        if (!g0->ok) continue;
        double w[3] = {x[0] - g0->c0[0], x[1] - g0->c0[1], x[2] - g0->c0[2]};
        double z = dst_dot3(w, g0->n);
        if (fabs(z) >= h) continue;
        PhGeoD gd;
        PhGeo gp;
        double dP[PH_MAXV][6][3];
        const PhGeo *g = g0;
        if (pose) {
            facet_geo_d(ws->raw + i, g0, c->R, &gd);
            facet_poly_d(c, i, &gd, &gp, dP);
            g = &gp;
        }
        double rho = sqrt(h * h - z * z), px = dst_dot3(w, g->f1), py = dst_dot3(w, g->f2);
        int nc = g->nc;
        double area = 0.0, theta = 0.0, gk[PH_MAXV][2];
        for (int k = 0; k < PH_MAXV; ++k) gk[k][0] = gk[k][1] = 0.0;
        for (int k = 0; k < nc; ++k) {
            int k1 = (k + 1) % nc;
            double p[2] = {g->p2[k][0] - px, g->p2[k][1] - py}, q[2] = {g->p2[k1][0] - px, g->p2[k1][1] - py};
            double gpp[2], gqq[2], th;
            area += disc_tri_area_d(rho, p, q, gpp, gqq, &th);
            theta += th;
            gk[k][0] += gpp[0], gk[k][1] += gpp[1], gk[k1][0] += gqq[0], gk[k1][1] += gqq[1];
        }
        double sgn = area >= 0.0 ? 1.0 : -1.0, rr = (rho * rho) / (h * h);
        double wt = fabs(area) * (rho * rho) / (h * h);
        /* sum_k dA/dv_k as a 3-D vector, and (pose) sum_k dA/dv_k . d P_k */
        double gs3[3] = {0.0, 0.0, 0.0}, gP[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
        for (int k = 0; k < nc; ++k) {
            double g3[3];
            for (int l = 0; l < 3; ++l) g3[l] = gk[k][0] * g->f1[l] + gk[k][1] * g->f2[l], gs3[l] += g3[l];
            if (pose)
                for (int j = 0; j < 6; ++j) gP[j] += dst_dot3(g3, dP[k][j]);
        }
        for (int j = 0; j < m; ++j) {
            static const double zero[3] = {0.0, 0.0, 0.0};
            int pj = pose && j >= 2 ? j - 2 : -1;
            const double *dn = pj >= 0 ? gd.dn[pj] : zero, *dc0 = pj >= 0 ? gd.dc0[pj] : zero;
            double ddx[3], dxc[3];
            for (int l = 0; l < 3; ++l) ddx[l] = dx[j][l] - z * dn[l], dxc[l] = dx[j][l] - dc0[l];
            double dv = (pj >= 0 ? gP[pj] : 0.0) - dst_dot3(gs3, ddx);
            double dz = dst_dot3(dxc, g->n) + dst_dot3(w, dn);
            double rdr = h * dh[j] - z * dz;
            double dA = theta * rdr + dv;
            double dwt = sgn * dA * rr + 2.0 * fabs(area) * (rdr / (h * h) - rr * dh[j] / h);
            for (int l = 0; l < 3; ++l) dN[j][l] += dwt * g->n[l] + wt * dn[l];
        }
        for (int k = 0; k < 3; ++k) acc[k] += wt * g->n[k];
        tot += wt;
    }
    double l = norm3(acc);
    if (!(tot > 0.0) || l <= DST_PHONG_SINGULAR_REL * tot) return 0;
    for (int k = 0; k < 3; ++k) nu[k] = acc[k] / l;
    for (int j = 0; j < m; ++j) {
        double nd = dst_dot3(nu, dN[j]);
        for (int k = 0; k < 3; ++k) dnu[j][k] = (dN[j][k] - nd * nu[k]) / l;
    }
    return 1;
}

/* The partials of G and delta (phong.md eq. P5a) at the point x of facet F (its geometry gF) along
 * the directions of field_d(): with xn = nu . x, r = x - xn nu,
 *   d xn = d nu . x + nu . d x,   d r = d x - d xn nu - xn d nu,   d G = (f1 . d r, f2 . d r),
 *   d delta = -d xn,
 * (f1, f2) F's basis at the query's pose, held fixed. Directions 0, 1 are s and u (d x = e1, e2);
 * with pose, 2..7 are t and w (d x = -e_j and (R b_B(s, u)) x e_j). */
static int field_partials(const PhCtx *c, int F, double s, double u, int pose, double (*dG)[2], double *ddelta)
{
    const PhGeo *g = c->ws->geo + F;
    const PhRaw *r = c->ws->raw + F;
    int m = pose ? 8 : 2;
    double x[3], dx[8][3], dh[8], nu[3], dnu[8][3];
    facet_point(g, s, u, x);
    double h = radius_at(c, x), nx = norm3(x);
    memcpy(dx[0], g->e1, sizeof dx[0]), memcpy(dx[1], g->e2, sizeof dx[1]);
    if (pose) {
        double bl[3], vb[3];
        for (int k = 0; k < 3; ++k) bl[k] = r->B0[k] + s * r->Be1[k] + u * r->Be2[k];
        rot3(c->R, bl, vb);
        for (int j = 0; j < 3; ++j) {
            double e[3] = {0.0, 0.0, 0.0};
            e[j] = 1.0;
            for (int k = 0; k < 3; ++k) dx[2 + j][k] = -e[k];
            cross3(vb, e, dx[5 + j]);
        }
    }
    /* h = beta |x| + h_min below h_max: d h = beta x . d x / |x| */
    int grows = c->beta * nx + c->hmin < c->hmax && nx > 0.0;
    for (int j = 0; j < m; ++j) dh[j] = grows ? c->beta * dst_dot3(x, dx[j]) / nx : 0.0;
    if (!field_d(c, x, h, m, (const double(*)[3])dx, dh, pose, nu, dnu)) return 0;
    double xn = dst_dot3(x, nu);
    for (int j = 0; j < m; ++j) {
        double dxn = dst_dot3(dnu[j], x) + dst_dot3(nu, dx[j]), dr[3];
        for (int k = 0; k < 3; ++k) dr[k] = dx[j][k] - dxn * nu[k] - xn * dnu[j][k];
        dG[j][0] = dst_dot3(g->f1, dr), dG[j][1] = dst_dot3(g->f2, dr);
        if (ddelta) ddelta[j] = -dxn;
    }
    return 1;
}

/* ---------------------------------------------------------------- sec. V.E: dM(S) */

static void add_facet(PhCtx *c, const PhRaw *r, const double cen[3], double rcol)
{
    DstPhongWorkspace *ws = c->ws;
    if (ws->n >= ws->cap) return;
    PhGeo *g = ws->geo + ws->n;
    facet_geo(r, c->R, c->t, g);
    if (!g->ok) return;
    /* the facet's closest point to cen within rcol; a facet whose bounding sphere lies inside the
     * ball by the margin DST_PHONG_BALL_INSIDE_REL is, whatever the rounding of that point, so it
     * is kept without computing it (phong.md sec. 16) */
    double dc[3] = {g->ctr[0] - cen[0], g->ctr[1] - cen[1], g->ctr[2] - cen[2]};
    double s, u;
    if (!(norm3(dc) + g->rad <= rcol * (1.0 - DST_PHONG_BALL_INSIDE_REL)) &&
        facet_closest(r, g, cen, &s, &u) > rcol * rcol)
        return;
    ws->raw[ws->n] = *r;
    ws->raw[ws->n++].nclip = 0;
}

/* 1 when the direction d (the model's frame) lies in the Gauss region of vertex v: every
 * neighbour w has d . (w - v) <= 0 (the vertex supports the mesh in direction d) */
static int vertex_supports(const DstPhongModel *m, int v, const double d[3])
{
    for (int i = m->ring_start[v]; i < m->ring_start[v + 1]; ++i) {
        const double *w = m->v[m->ring[i]];
        double e[3] = {w[0] - m->v[v][0], w[1] - m->v[v][1], w[2] - m->v[v][2]};
        double de = dst_dot3(d, e);
        /* d . e <= tol |e|, without the square root when d . e <= 0 (the usual case) */
        if (de > 0.0 && de * de > DST_PHONG_GAUSS_TOL * DST_PHONG_GAUSS_TOL * dst_dot3(e, e)) return 0;
    }
    return 1;
}

/* Gauss arcs (n1, n2) and (c1, c2) (each shorter than pi) cross: C and D on opposite sides of
 * the great circle of A and B, A and B on opposite sides of that of C and D, and the two
 * crossings on the same hemisphere. */
static int arcs_cross(const double A[3], const double B[3], const double C[3], const double D[3])
{
    double bxa[3], dxc[3];
    cross3(B, A, bxa), cross3(D, C, dxc);
    double cba = dst_dot3(C, bxa), dba = dst_dot3(D, bxa), adc = dst_dot3(A, dxc), bdc = dst_dot3(B, dxc);
    return cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0;
}

/* The convolution facets of sec. V.E (Fig 5.6), one feature pair each. VF: vertex ai of A with
 * face fb of B, when -R n_fb lies in ai's Gauss region (outward normal -R n_fb). */
static void pair_vf(PhCtx *c, int ai, int fb, const double cen[3], double rcol)
{
    const DstPhongModel *A = c->a, *B = c->b;
    double m[3], d[3];
    rot3(c->R, B->fn[fb], m);
    for (int i = 0; i < 3; ++i) d[i] = -m[i];
    if (!vertex_supports(A, ai, d)) return;
    PhRaw r;
    memset(&r, 0, sizeof r);
    const int *tb = B->f[fb];
    for (int i = 0; i < 3; ++i) {
        r.A0[i] = A->v[ai][i];
        r.B0[i] = B->v[tb[0]][i];
        r.Be1[i] = B->v[tb[1]][i] - B->v[tb[0]][i];
        r.Be2[i] = B->v[tb[2]][i] - B->v[tb[0]][i];
        r.nB[i] = -B->fn[fb][i];
    }
    r.fa = A->vface[ai], r.fb = fb, r.sub = 2 * (A->f[r.fa][0] == ai ? 0 : A->f[r.fa][1] == ai ? 1 : 2);
    add_facet(c, &r, cen, rcol);
}

/* FV: face fa of A with vertex bj of B, when B is supported at bj in direction -R^T n_fa
 * (outward normal n_fa) */
static void pair_fv(PhCtx *c, int fa, int bj, const double cen[3], double rcol)
{
    const DstPhongModel *A = c->a, *B = c->b;
    double d[3];
    rot3t(c->R, A->fn[fa], d);
    for (int i = 0; i < 3; ++i) d[i] = -d[i];
    if (!vertex_supports(B, bj, d)) return;
    PhRaw r;
    memset(&r, 0, sizeof r);
    const int *ta = A->f[fa];
    for (int i = 0; i < 3; ++i) {
        r.A0[i] = A->v[ta[0]][i];
        r.Ae1[i] = A->v[ta[1]][i] - A->v[ta[0]][i];
        r.Ae2[i] = A->v[ta[2]][i] - A->v[ta[0]][i];
        r.B0[i] = B->v[bj][i];
        r.nA[i] = A->fn[fa][i];
    }
    r.fa = fa, r.fb = B->vface[bj], r.sub = 1 + 2 * (B->f[r.fb][0] == bj ? 0 : B->f[r.fb][1] == bj ? 1 : 2);
    add_facet(c, &r, cen, rcol);
}

/* EE: convex edge ea of A with convex edge eb of B, when the arcs (n1, n2) of A and
 * (-R m1, -R m2) of -B cross (a parallelogram) */
static void pair_ee(PhCtx *c, int ea, int eb, const double cen[3], double rcol)
{
    const DstPhongModel *A = c->a, *B = c->b;
    const double *n1 = A->fn[A->ef[ea][0]], *n2 = A->fn[A->ef[ea][1]];
    double m1[3], m2[3];
    rot3(c->R, B->fn[B->ef[eb][0]], m1), rot3(c->R, B->fn[B->ef[eb][1]], m2);
    for (int i = 0; i < 3; ++i) m1[i] = -m1[i], m2[i] = -m2[i];
    if (!arcs_cross(n1, n2, m1, m2)) return;
    PhRaw r;
    memset(&r, 0, sizeof r);
    r.para = 1;
    const double *a0 = A->v[A->e[ea][0]], *a1 = A->v[A->e[ea][1]];
    const double *b0 = B->v[B->e[eb][0]], *b1 = B->v[B->e[eb][1]];
    const double *mb1 = B->fn[B->ef[eb][0]], *mb2 = B->fn[B->ef[eb][1]];
    for (int i = 0; i < 3; ++i) {
        r.A0[i] = a0[i], r.Ae1[i] = a1[i] - a0[i];
        r.B0[i] = b0[i], r.Be2[i] = b1[i] - b0[i];
        r.nA[i] = n1[i] + n2[i], r.nB[i] = -(mb1[i] + mb2[i]);
    }
    r.fa = A->ef[ea][0], r.fb = B->ef[eb][0];
    r.sub = 6 + 3 * (A->fe[r.fa][0] == ea ? 0 : A->fe[r.fa][1] == ea ? 1 : 2) + (B->fe[r.fb][0] == eb ? 0 : B->fe[r.fb][1] == eb ? 1 : 2);
    add_facet(c, &r, cen, rcol);
}

/* B's node (centre cn, cap centre cc) in A's frame into o: its centre R cn + t and the centre
 * of its Gauss cap for -B, -R cc */
static inline void bnode_pose(const PhCtx *c, const double cn[3], const double cc[3], double *o)
{
    rot3(c->R, cn, o);
    for (int k = 0; k < 3; ++k) o[k] += c->t[k];
    rot3(c->R, cc, o + 3);
    for (int k = 3; k < 6; ++k) o[k] = -o[k];
}

/* A node or item of one of B's trees (centre c, cap centre cc; cache slot slot) in A's frame
 * (bnode_pose()), from the cache slot when this pass already posed it */
static inline const double *bnode(PhCtx *c, const double cn[3], const double cc[3], int slot, double tmp[6])
{
    DstPhongWorkspace *ws = c->ws;
    PhBNode *b = slot < ws->cap ? ws->bnode + slot : NULL;
    if (b != NULL && b->stamp == ws->pass) return b->v;
    double *o = b != NULL ? b->v : tmp;
    bnode_pose(c, cn, cc, o);
    if (b != NULL) b->stamp = ws->pass;
    return o;
}

/* bnode() for the cache's widened walks: also v[6] = |c - bref| (bref: B's reference point of
 * eq. C2), the distance by which a turn of B moves the node's centre per unit of turn */
static inline const double *bnode_wide(PhCtx *c, const double cn[3], const double cc[3], const double bref[3],
                                       int slot, double tmp[7])
{
    DstPhongWorkspace *ws = c->ws;
    PhBNode *b = slot < ws->cap ? ws->bnode + slot : NULL;
    if (b != NULL && b->stamp == ws->pass) return b->v;
    double *o = b != NULL ? b->v : tmp;
    bnode_pose(c, cn, cc, o);
    double db[3] = {cn[0] - bref[0], cn[1] - bref[1], cn[2] - bref[2]};
    o[6] = norm3(db);
    if (b != NULL) b->stamp = ws->pass;
    return o;
}

/* The walks' test of a node pair (sec. V.E): the Minkowski sum of the spheres of A's node
 * (centre ca_c, radius ra, cap capa) and of B's node (radius rb, cap capb; bn: its centre and
 * cap centre in A's frame, bnode()) meets the ball (cen, rcol), and the caps of A's node and of
 * -B's node can meet (the angle of their centres at most the sum of their radii: cos(a + b) =
 * ca cb - sa sb). Both tests are evaluated and combined without a branch: the walks' outcomes
 * are not predictable. */
static inline int sphere_cap_pair_meets(const double ca_c[3], double ra, const double *capa, double rb,
                                        const double *capb, const double *bn, const double cen[3],
                                        double rcol)
{
    double d[3] = {ca_c[0] - bn[0] - cen[0], ca_c[1] - bn[1] - cen[1], ca_c[2] - bn[2] - cen[2]};
    double lim = ra + rb + rcol;
    double cs = capa[4] * capb[4] - capa[5] * capb[5];
    int sphere = !(dst_dot3(d, d) > lim * lim);
    int caps = !(capa[3] + capb[3] < PH_PI) | !(dst_dot3(capa, bn + 3) < cs - DST_PHONG_CAP_SLACK);
    return sphere & caps;
}

/* sphere_cap_pair_meets() for two tree nodes */
static inline int node_pair_meets(const DstPhongNode *na, const DstPhongNode *nb, const double *bn,
                                  const double cen[3], double rcol)
{
    return sphere_cap_pair_meets(na->c, na->r, na->cap, nb->r, nb->cap, bn, cen, rcol);
}

/* sphere_cap_pair_meets() of four pairs in lanes (phong.md sec. 16): pair k has A's centre ac[k],
 * radius ar[k] and cap acap[k], B's radius br[k] and cap bcap[k] and its centre and cap centre in
 * A's frame bn[k] (bnode()); each lane computes the scalar expressions with the same operations in
 * the same order. Returns a mask, bit k set when pair k meets. */
static inline unsigned pairs4_meet(const double *const ac[4], const double ar[4], const double *const acap[4],
                                   const double br[4], const double *const bcap[4], const double *const bn[4],
                                   const double cen[3], double rcol)
{
#define PH_LANE4(p, k) ((PhV4){(p)[0][k], (p)[1][k], (p)[2][k], (p)[3][k]})
    const PhV4 dx = PH_LANE4(ac, 0) - PH_LANE4(bn, 0) - cen[0], dy = PH_LANE4(ac, 1) - PH_LANE4(bn, 1) - cen[1],
               dz = PH_LANE4(ac, 2) - PH_LANE4(bn, 2) - cen[2];
    const PhV4 lim = (PhV4){ar[0], ar[1], ar[2], ar[3]} + (PhV4){br[0], br[1], br[2], br[3]} + rcol;
    const PhV4 cs = PH_LANE4(acap, 4) * PH_LANE4(bcap, 4) - PH_LANE4(acap, 5) * PH_LANE4(bcap, 5);
    const PhV4i sphere = ~(dx * dx + dy * dy + dz * dz > lim * lim);
    const PhV4i caps = ~(PH_LANE4(acap, 3) + PH_LANE4(bcap, 3) < PH_PI) |
                       ~(PH_LANE4(acap, 0) * PH_LANE4(bn, 3) + PH_LANE4(acap, 1) * PH_LANE4(bn, 4) +
                             PH_LANE4(acap, 2) * PH_LANE4(bn, 5) <
                         cs - DST_PHONG_CAP_SLACK);
#undef PH_LANE4
    const PhV4i m = sphere & caps & (PhV4i){1, 2, 4, 8};
    return (unsigned)(m[0] | m[1] | m[2] | m[3]);
}

/* The leaf pairs ws->leafq[0 .. n-1] of a walk (walk_pair()): the features of the two leaves (at
 * most PH_TREE_LEAF each) by the tests of the nodes, all of them evaluated in the lanes of
 * pairs4_meet() (an index past a leaf's count reads its first feature, masked out; lane
 * j PH_TREE_LEAF + i for A's feature i and B's feature j), then the exact tests of the pairs that
 * pass (pair_vf(), pair_fv(), pair_ee()), B's feature j before A's i. */
static void walk_leaves(PhCtx *c, const DstPhongTree *TA, const DstPhongTree *TB, int kind, int off,
                        const double cen[3], double rcol, int n)
{
    DstPhongWorkspace *ws = c->ws;
    const DstPhongNode *ta = TA->node, *tb = TB->node;
    double tmp[6], tmp2[6];
    for (int q = 0; q < n; ++q) {
        const DstPhongNode *na = ta + ws->leafq[q][0], *nb = tb + ws->leafq[q][1];
        const DstPhongItem *IA = TA->items + na->first, *IB = TB->items + nb->first;
        const DstPhongItem *ib0 = IB, *ib1 = IB + (1 < nb->count ? 1 : 0);
        const DstPhongItem *ia0 = IA, *ia1 = IA + (1 < na->count ? 1 : 0);
        const double *b0 = bnode(c, ib0->c, ib0->cap, off + TB->n_nodes + nb->first, tmp);
        const double *b1 = bnode(c, ib1->c, ib1->cap, off + TB->n_nodes + nb->first + (int)(ib1 - IB), tmp2);
        const double *ac[4] = {ia0->c, ia1->c, ia0->c, ia1->c}, *acap[4] = {ia0->cap, ia1->cap, ia0->cap, ia1->cap};
        const double *bcap[4] = {ib0->cap, ib0->cap, ib1->cap, ib1->cap}, *bn[4] = {b0, b0, b1, b1};
        const double ar[4] = {ia0->r, ia1->r, ia0->r, ia1->r}, br[4] = {ib0->r, ib0->r, ib1->r, ib1->r};
        unsigned valid = 0;
        for (int j = 0; j < PH_TREE_LEAF; ++j) {
            for (int i = 0; i < PH_TREE_LEAF; ++i)
                valid |= (unsigned)((i < na->count) & (j < nb->count)) << (j * PH_TREE_LEAF + i);
        }
        unsigned pass = pairs4_meet(ac, ar, acap, br, bcap, bn, cen, rcol) & valid;
        while (pass != 0) {
            int bit = __builtin_ctz(pass), j = bit / PH_TREE_LEAF, i = bit % PH_TREE_LEAF;
            pass &= pass - 1;
            if (kind == 0) pair_vf(c, IA[i].id, IB[j].id, cen, rcol);
            else if (kind == 1) pair_fv(c, IA[i].id, IB[j].id, cen, rcol);
            else pair_ee(c, IA[i].id, IB[j].id, cen, rcol);
        }
    }
}

/* A's side of four node pairs in lanes: centres, radii, caps (as in DstPhongNode) */
typedef struct PhLanesA {
    PhV4 x, y, z, r, cap[6];
} PhLanesA;

/* B's side of four node pairs in lanes: centres and cap centres in A's frame (bnode()), radii,
 * and the caps' angular radii, cosines and sines */
typedef struct PhLanesB {
    PhV4 x, y, z, cx, cy, cz, r, c3, c4, c5;
} PhLanesB;

/* sphere_cap_pair_meets() of the four pairs of lanes (phong.md sec. 16), each lane the scalar
 * expressions with the same operations in the same order. Returns a mask, bit k for lane k. */
static inline unsigned lanes_meet(const PhLanesA *A, const PhLanesB *B, const double cen[3], double rcol)
{
    const PhV4 dx = A->x - B->x - cen[0], dy = A->y - B->y - cen[1], dz = A->z - B->z - cen[2];
    const PhV4 lim = A->r + B->r + rcol;
    const PhV4 cs = A->cap[4] * B->c4 - A->cap[5] * B->c5;
    const PhV4i sphere = ~(dx * dx + dy * dy + dz * dz > lim * lim);
    const PhV4i caps = ~(A->cap[3] + B->c3 < PH_PI) |
                       ~(A->cap[0] * B->cx + A->cap[1] * B->cy + A->cap[2] * B->cz < cs - DST_PHONG_CAP_SLACK);
    const PhV4i m = sphere & caps & (PhV4i){1, 2, 4, 8};
    return (unsigned)(m[0] | m[1] | m[2] | m[3]);
}

/* one node of A in all four lanes */
static inline void lanes_a_node(const DstPhongNode *n, PhLanesA *A)
{
    A->x = (PhV4){n->c[0], n->c[0], n->c[0], n->c[0]} , A->y = (PhV4){n->c[1], n->c[1], n->c[1], n->c[1]};
    A->z = (PhV4){n->c[2], n->c[2], n->c[2], n->c[2]}, A->r = (PhV4){n->r, n->r, n->r, n->r};
    for (int i = 0; i < 6; ++i) A->cap[i] = (PhV4){n->cap[i], n->cap[i], n->cap[i], n->cap[i]};
}

/* the four children of A's node (DstPhongWide) in the lanes */
static inline void lanes_a_wide(const DstPhongWide *w, PhLanesA *A)
{
    A->x = w->c[0], A->y = w->c[1], A->z = w->c[2], A->r = w->r;
    for (int i = 0; i < 6; ++i) A->cap[i] = w->cap[i];
}

/* one node of B (radius r, cap cap, bn: bnode()) in all four lanes */
static inline void lanes_b_node(const double *bn, double r, const double *cap, PhLanesB *B)
{
    B->x = (PhV4){bn[0], bn[0], bn[0], bn[0]}, B->y = (PhV4){bn[1], bn[1], bn[1], bn[1]};
    B->z = (PhV4){bn[2], bn[2], bn[2], bn[2]}, B->cx = (PhV4){bn[3], bn[3], bn[3], bn[3]};
    B->cy = (PhV4){bn[4], bn[4], bn[4], bn[4]}, B->cz = (PhV4){bn[5], bn[5], bn[5], bn[5]};
    B->r = (PhV4){r, r, r, r}, B->c3 = (PhV4){cap[3], cap[3], cap[3], cap[3]};
    B->c4 = (PhV4){cap[4], cap[4], cap[4], cap[4]}, B->c5 = (PhV4){cap[5], cap[5], cap[5], cap[5]};
}

/* the four children of B's node (DstPhongWide) in the lanes, in A's frame: bnode_pose() lane by
 * lane (R c + t, and -R c_cap) */
static inline void lanes_b_wide(const PhCtx *c, const DstPhongWide *w, PhLanesB *B)
{
    const double *R = c->R, *t = c->t;
    B->x = R[0] * w->c[0] + R[1] * w->c[1] + R[2] * w->c[2];
    B->y = R[3] * w->c[0] + R[4] * w->c[1] + R[5] * w->c[2];
    B->z = R[6] * w->c[0] + R[7] * w->c[1] + R[8] * w->c[2];
    B->x = B->x + t[0], B->y = B->y + t[1], B->z = B->z + t[2];
    B->cx = R[0] * w->cap[0] + R[1] * w->cap[1] + R[2] * w->cap[2];
    B->cy = R[3] * w->cap[0] + R[4] * w->cap[1] + R[5] * w->cap[2];
    B->cz = R[6] * w->cap[0] + R[7] * w->cap[1] + R[8] * w->cap[2];
    B->cx = -B->cx, B->cy = -B->cy, B->cz = -B->cz;
    B->r = w->r, B->c3 = w->cap[3], B->c4 = w->cap[4], B->c5 = w->cap[5];
}

/* lane j of B in all four lanes */
static inline void lanes_b_splat(const PhLanesB *W, int j, PhLanesB *B)
{
#define PH_SPLAT(f) (B->f = (PhV4){W->f[j], W->f[j], W->f[j], W->f[j]})
    PH_SPLAT(x), PH_SPLAT(y), PH_SPLAT(z), PH_SPLAT(cx), PH_SPLAT(cy), PH_SPLAT(cz);
    PH_SPLAT(r), PH_SPLAT(c3), PH_SPLAT(c4), PH_SPLAT(c5);
#undef PH_SPLAT
}

/* One walk of a tree of A and a tree of B (kind 0: A's vertices and B's faces, 1: A's faces and
 * B's vertices, 2: the convex edges of both) for the ball (cen, rcol) (see collect()); B's
 * transformed nodes are cached from slot off on. A node pair whose Minkowski sum of spheres
 * misses the ball or whose caps cannot meet is pruned (node_pair_meets()); the pairs that pass go
 * on the stack, or, two leaves, on the list of leaf pairs whose features go through the same
 * tests, then the exact ones (walk_leaves(), when the list is full and at the end: dM(S) is
 * sorted into its order afterwards, so the order of the visits does not matter). The descent:
 * both nodes split at once when they are about as large, else the larger (a leaf is never split;
 * one radian of its cap counted as PH_TREE_ANGLE_SCALE diag); a node is split into its up to four
 * grandchildren (DstPhongWide, a child that is a leaf standing for its own), tested against the
 * other side in the lanes of lanes_meet() (phong.md sec. 16). The pairs that pass are those whose
 * every ancestor pair passes in the binary tree, as a node's sphere and cap hold those of the
 * features below it: the leaf pairs found are the same. */
static int walk_pair(PhCtx *c, const DstPhongTree *TA, const DstPhongTree *TB, int kind, int off,
                     const double cen[3], double rcol)
{
    DstPhongWorkspace *ws = c->ws;
    if (TA->n_nodes == 0 || TB->n_nodes == 0) return 1;
    const DstPhongNode *ta = TA->node, *tb = TB->node;
    double la_scale = PH_TREE_ANGLE_SCALE * c->a->diag, lb_scale = PH_TREE_ANGLE_SCALE * c->b->diag;
    double tmp[6];
    int sp = 0, nl = 0;
    PhWalkPair *st = ws->wstack;
    if (node_pair_meets(ta, tb, bnode(c, tb->c, tb->cap, off, tmp), cen, rcol)) {
        if (ta->left < 0 && tb->left < 0) {
            ws->leafq[nl][0] = 0, ws->leafq[nl][1] = 0, ++nl;
        } else {
            st[0].ia = st[0].ib = 0, st[0].la = ta->left < 0, st[0].lb = tb->left < 0;
            st[0].sa = ta->r + la_scale * ph_min(ta->cap[3], PH_PI), st[0].sb = tb->r + lb_scale * ph_min(tb->cap[3], PH_PI);
            ++sp;
        }
    }
    while (sp > 0) {
        --sp;
        int ia = st[sp].ia, ib = st[sp].ib, la = st[sp].la, lb = st[sp].lb;
        double sa = st[sp].sa, sb = st[sp].sb;
        if (sp + 16 > PH_STACK) return 0;
        int both = (la == 0) & (lb == 0) & (sa < 2.0 * sb) & (sb < 2.0 * sa);
        int split_a = both | ((both == 0) & (lb | ((la == 0) & (sa >= sb))));
        PhLanesA A;
        PhLanesB B;
        if (!split_a) {
            /* B's grandchildren against A's node */
            const DstPhongWide *wb = TB->wide + TB->wide_of[ib];
            lanes_a_node(ta + ia, &A);
            lanes_b_wide(c, wb, &B);
            unsigned pass = lanes_meet(&A, &B, cen, rcol) & ((1u << wb->n) - 1u);
            for (int k = 0; k < 4; ++k) {
                int ok = (int)((pass >> k) & 1u), kl = (wb->leaf >> k) & 1, leaf = la & kl;
                PhWalkPair *e = st + sp;
                e->ia = ia, e->ib = wb->child[k], e->la = la, e->lb = kl, e->sa = sa, e->sb = wb->size[k];
                ws->leafq[nl][0] = ia, ws->leafq[nl][1] = wb->child[k];
                sp += ok & (leaf ^ 1), nl += ok & leaf;
            }
        } else {
            const DstPhongWide *wa = TA->wide + TA->wide_of[ia];
            lanes_a_wide(wa, &A);
            unsigned va = (1u << wa->n) - 1u;
            if (!both) {
                /* A's grandchildren against B's node */
                const DstPhongNode *nb = tb + ib;
                lanes_b_node(bnode(c, nb->c, nb->cap, off + ib, tmp), nb->r, nb->cap, &B);
                unsigned pass = lanes_meet(&A, &B, cen, rcol) & va;
                for (int k = 0; k < 4; ++k) {
                    int ok = (int)((pass >> k) & 1u), kl = (wa->leaf >> k) & 1, leaf = kl & lb;
                    PhWalkPair *e = st + sp;
                    e->ia = wa->child[k], e->ib = ib, e->la = kl, e->lb = lb, e->sa = wa->size[k], e->sb = sb;
                    ws->leafq[nl][0] = wa->child[k], ws->leafq[nl][1] = ib;
                    sp += ok & (leaf ^ 1), nl += ok & leaf;
                }
            } else {
                /* A's grandchildren against each of B's */
                const DstPhongWide *wb = TB->wide + TB->wide_of[ib];
                PhLanesB W;
                lanes_b_wide(c, wb, &W);
                for (int j = 0; j < wb->n; ++j) {
                    lanes_b_splat(&W, j, &B);
                    unsigned pass = lanes_meet(&A, &B, cen, rcol) & va;
                    int jl = (wb->leaf >> j) & 1, jb = wb->child[j];
                    double js = wb->size[j];
                    for (int k = 0; k < 4; ++k) {
                        int ok = (int)((pass >> k) & 1u), kl = (wa->leaf >> k) & 1, leaf = kl & jl;
                        PhWalkPair *e = st + sp;
                        e->ia = wa->child[k], e->ib = jb, e->la = kl, e->lb = jl, e->sa = wa->size[k], e->sb = js;
                        ws->leafq[nl][0] = wa->child[k], ws->leafq[nl][1] = jb;
                        sp += ok & (leaf ^ 1), nl += ok & leaf;
                    }
                }
            }
        }
        if (nl > PH_LEAFQ - 16) {
            walk_leaves(c, TA, TB, kind, off, cen, rcol, nl);
            nl = 0;
        }
    }
    walk_leaves(c, TA, TB, kind, off, cen, rcol, nl);
    return 1;
}

/* The order key of the facets of triangle pair (fa, fb): the descent of the depth-first walk
 * of the two sphere trees (the larger sphere split first, the right child visited first) from
 * the roots to the leaf pair, one bit per choice. Two leaf pairs are visited in the order of
 * their keys, whatever the walk prunes; so is the order of the facets of dM(S) independent of
 * how they are found. */
static int order_key(const PhCtx *c, int fa, int fb, uint64_t k[2])
{
    /* the walk descends A's tree while B's node is a leaf or A's sphere is at least as large,
     * else B's: a merge of the two leaves' paths, read from the models (build_paths()) */
    const DstPhongModel *A = c->a, *B = c->b;
    int la = A->face_leaf[fa], lb = B->face_leaf[fb];
    const double *ra = A->path_r + A->path_start[la], *rb = B->path_r + B->path_start[lb];
    const unsigned char *ga = A->path_left + A->path_start[la], *gb = B->path_left + B->path_start[lb];
    int nbit = A->path_start[la + 1] - A->path_start[la] + B->path_start[lb + 1] - B->path_start[lb] - 2;
    int i = 0, j = 0, n = 0;
    uint64_t k0 = 0, k1 = 0;
    /* each path ends in a radius of -infinity: the one not yet at its end is taken (without
     * branches: the choices are not predictable) */
    for (; n < nbit && n < 64; ++n) {
        uint64_t take_a = ra[i] >= rb[j], left = (ga[i] & -take_a) | (gb[j] & (take_a - 1));
        i += (int)take_a, j += (int)(1 - take_a);
        k0 |= left << (63 - n);
    }
    for (; n < nbit && n < 128; ++n) {
        uint64_t take_a = ra[i] >= rb[j], left = (ga[i] & -take_a) | (gb[j] & (take_a - 1));
        i += (int)take_a, j += (int)(1 - take_a);
        k1 |= left << (127 - n);
    }
    k[0] = k0, k[1] = k1;
    return nbit;
}

/* order_key() of four triangle pairs (fa[l], fb[l]) at once, into k[l] and nbit[l]: a merge is a
 * chain of loads that depend on each other, so the four are interleaved (phong.md sec. 16); each
 * key's bits are those of order_key() (a merge that has ended stays where it is). */
static void order_key4(const PhCtx *c, const int fa[4], const int fb[4], uint64_t k[4][2], int nbit[4])
{
    const DstPhongModel *A = c->a, *B = c->b;
    const double *ra[4], *rb[4];
    const unsigned char *ga[4], *gb[4];
    int i[4], j[4], nmax = 0;
    uint64_t k0[4], k1[4];
    for (int l = 0; l < 4; ++l) {
        int la = A->face_leaf[fa[l]], lb = B->face_leaf[fb[l]];
        ra[l] = A->path_r + A->path_start[la], rb[l] = B->path_r + B->path_start[lb];
        ga[l] = A->path_left + A->path_start[la], gb[l] = B->path_left + B->path_start[lb];
        nbit[l] = A->path_start[la + 1] - A->path_start[la] + B->path_start[lb + 1] - B->path_start[lb] - 2;
        nmax = ph_imax(nmax, nbit[l] < 128 ? nbit[l] : 128);
        i[l] = j[l] = 0, k0[l] = k1[l] = 0;
    }
    for (int n = 0; n < nmax; ++n) {
        for (int l = 0; l < 4; ++l) {
            uint64_t act = n < nbit[l], take_a = ra[l][i[l]] >= rb[l][j[l]];
            uint64_t left = ((ga[l][i[l]] & -take_a) | (gb[l][j[l]] & (take_a - 1))) & act;
            i[l] += (int)(take_a & act), j[l] += (int)((1 - take_a) & act);
            if (n < 64) k0[l] |= left << (63 - n);
            else k1[l] |= left << (127 - n);
        }
    }
    for (int l = 0; l < 4; ++l) k[l][0] = k0[l], k[l][1] = k1[l];
}

/* The order records a[0 .. n-1] of facets (or candidates), keyed by order_key() with at most
 * maxbit bits each and a[i].idx = i, sorted by order_less(): when the keys and the place sub
 * (< 16) fit in 64 bits, by a stable radix sort of (key, sub) (ties keep the order of idx,
 * as order_less() breaks them), else by order_sort(). Only the idx of the records is read
 * afterwards: their keys are overwritten. */
static void order_sort_keys(PhOrder *a, PhOrder *tmp, int n, int maxbit)
{
    if (maxbit > 60) {
        order_sort(a, tmp, n);
        return;
    }
    /* (the first maxbit bits of the key, sub): the same order as (k[0], k[1], sub), the bits
     * beyond maxbit and k[1] being 0 */
    for (int i = 0; i < n; ++i) a[i].k[0] = (maxbit > 0 ? a[i].k[0] >> (64 - maxbit) << 4 : 0) | (uint64_t)a[i].sub;
    radix_sort(a, tmp, n, maxbit + 4);
}

/* One collection of dM(S) for the ball (cen, rcol) (see collect()): the three walks, then the
 * facets in their canonical order, so that dM(S) does not depend on the order of the walks. */
static int collect_pass(PhCtx *c, const double cen[3], double rcol)
{
    DstPhongWorkspace *ws = c->ws;
    ws->n = 0;
    if (++ws->pass == 0) {
        for (int i = 0; i < ws->cap; ++i) ws->bnode[i].stamp = 0;
        ws->pass = 1;
    }
    const DstPhongModel *B = c->b;
    int off1 = B->ftree.n_nodes + B->ftree.n_items, off2 = off1 + B->vtree.n_nodes + B->vtree.n_items;
    if (!walk_pair(c, &c->a->vtree, &B->ftree, 0, 0, cen, rcol) ||
        !walk_pair(c, &c->a->ftree, &B->vtree, 1, off1, cen, rcol) ||
        !walk_pair(c, &c->a->etree, &B->etree, 2, off2, cen, rcol))
        return 0;
    if (ws->n >= ws->cap) return 0;
    /* sort (key, index) records, then permute the facets */
    int maxbit = 0;
    for (int i = 0; i < ws->n; i += 4) {
        /* four keys at a time (a group past the end repeats its first facet, not stored) */
        int fa[4], fb[4], nbit[4];
        uint64_t k[4][2];
        for (int l = 0; l < 4; ++l) {
            int f = i + l < ws->n ? i + l : i;
            fa[l] = ws->raw[f].fa, fb[l] = ws->raw[f].fb;
        }
        order_key4(c, fa, fb, k, nbit);
        for (int l = 0; l < 4 && i + l < ws->n; ++l) {
            maxbit = ph_imax(maxbit, nbit[l]);
            ws->order[i + l].k[0] = k[l][0], ws->order[i + l].k[1] = k[l][1];
            ws->order[i + l].sub = ws->raw[i + l].sub, ws->order[i + l].idx = i + l;
        }
    }
    order_sort_keys(ws->order, ws->otmp, ws->n, maxbit);
    /* gathered into the second buffers (the facets and their geometry: raw2 and tmp), which then
     * become the first: slot j takes the facet of slot order[j].idx */
    for (int j = 0; j < ws->n; ++j) {
        int k = ws->order[j].idx;
        ws->raw2[j] = ws->raw[k], ws->tmp[j] = ws->geo[k];
    }
    PhRaw *rs = ws->raw;
    PhGeo *gs = ws->geo;
    ws->raw = ws->raw2, ws->raw2 = rs;
    ws->geo = ws->tmp, ws->tmp = gs;
    return 1;
}

/* ---------------------------------------------------------------- the cache of dM(S) across queries */

/* A candidate feature pair of a DstPhongCache: kind 0 (VF: A's vertex, B's face), 1 (FV) or 2
 * (EE), and the indices of its two features in the items of A's and B's trees of that kind. */
typedef struct PhCand {
    int kind, ia, ib;
} PhCand;

struct DstPhongCache {
    int cap, n;
    PhCand *cand, *ctmp;     /* the candidates in the order of dM(S) (order_key()), a scratch copy */
    PhOrder *order, *otmp;   /* their sort records, the sort's scratch */
    int valid;
    const DstPhongModel *a, *b; /* the pair it was built for (borrowed) */
    double R[9], t[3];       /* B's pose when it was built */
    double cen[3], rad;      /* its collection ball (A's frame) */
    double turn;             /* the widening of its Gauss tests: ||R - R_cache||_F it admits */
    int all;                 /* 1 when its ball held the three tree pairs whole at its pose (every
                              * sphere test of its walks passed): its candidates are those of any
                              * ball and any translation (phong.md sec. 14) */
    double widen;            /* how far the last query's second pass (collect()) widened its first
                              * ball, metres (0: it had none): a build for a first pass covers that
                              * much more, so that the second pass of a query like it is served too */
    double bref[3];          /* a reference point of B (its frame; the centre of its vertex tree's
                              * root): a change of pose moves a point b of B by
                              * (R' - R) (b - bref) plus the common shift (R' - R) bref + t' - t */
};

/* The cache of the convolution's feature pairs across queries (thesis sec. V.E, the convex map's
 * role; Algorithm 5.1 line 2 with motion coherence): allocated once, no allocation in a query. */
DstPhongCache *dst_phong_cache_create(int max_candidates)
{
    if (max_candidates <= 0) max_candidates = DST_PHONG_DEFAULT_MAX_CANDIDATES;
    if (max_candidates > (1 << 26)) return NULL;
    DstPhongCache *k = calloc(1, sizeof *k);
    if (k == NULL) return NULL;
    k->cap = max_candidates;
    k->cand = malloc((size_t)max_candidates * sizeof *k->cand);
    k->ctmp = malloc((size_t)max_candidates * sizeof *k->ctmp);
    k->order = malloc((size_t)max_candidates * sizeof *k->order);
    k->otmp = malloc((size_t)max_candidates * sizeof *k->otmp);
    if (!k->cand || !k->ctmp || !k->order || !k->otmp) {
        dst_phong_cache_destroy(k);
        return NULL;
    }
    return k;
}

/* Empties the cache: the next collection (Algorithm 5.1 line 8) rebuilds it. */
void dst_phong_cache_reset(DstPhongCache *cache)
{
    if (cache == NULL) return;
    cache->valid = 0, cache->n = 0, cache->a = cache->b = NULL, cache->widen = 0.0, cache->all = 0;
}

/* Frees the cache (its models are borrowed, not freed). */
void dst_phong_cache_destroy(DstPhongCache *cache)
{
    if (cache == NULL) return;
    free(cache->cand), free(cache->ctmp), free(cache->order), free(cache->otmp);
    free(cache);
}

/* ||R1 - R2||_F: bounds |R1 v - R2 v| / |v| for every v (phong.md eq. C1), the change of the
 * rotation part of the pose q_g of eq. (5.14) */
static double rot_change(const double R1[9], const double R2[9])
{
    double s = 0.0;
    for (int i = 0; i < 9; ++i) s += (R1[i] - R2[i]) * (R1[i] - R2[i]);
    return sqrt(s);
}

/* Algorithm 5.1 line 8 from the cache: 1 when the cache holds every feature pair that
 * collect_pass() can find for the ball (cen, rcol) at the pose of c (phong.md sec. 12, eq.
 * C1-C2): the same models, a rotation within the turn its walks were widened for, and the ball,
 * moved by the change of its centre and by the shift common to B's points, inside the cache's
 * ball (the turn about bref is in the widening of each node and item, walk_pair_wide()). */
static int cache_covers(const PhCtx *c, const double cen[3], double rcol)
{
    const DstPhongCache *k = c->cache;
    if (!k->valid || k->a != c->a || k->b != c->b) return 0;
    double om = rot_change(c->R, k->R);
    if (!(om <= k->turn)) return 0;
    /* a cache that holds every pair its Gauss tests admit serves, beside the balls within its own,
     * any ball about as large (a much smaller one moved away is cheaper to rebuild than to re-test
     * all of them) */
    if (k->all && rcol >= 0.5 * k->rad) return 1;
    double dt[3], dc[3];
    for (int i = 0; i < 3; ++i) dt[i] = c->t[i] - k->t[i], dc[i] = cen[i] - k->cen[i];
    /* the common shift of B's points, (R - R_cache) bref + t - t_cache (eq. C2) */
    double rb[3], rb0[3], sh[3];
    rot3(c->R, k->bref, rb), rot3(k->R, k->bref, rb0);
    for (int i = 0; i < 3; ++i) sh[i] = rb[i] - rb0[i] + dt[i];
    double need = rcol + norm3(sh) + norm3(dc);
    /* rounding of the walks' sphere tests: far below this margin */
    need = need * (1.0 + DST_ROUND_REL) + DST_ROUND_REL * (c->a->diag + c->b->diag + norm3(cen) + norm3(c->t));
    return need <= k->rad;
}

/* The Gauss region of a vertex (sec. V.E, Fig 5.6b): vertex_supports() widened for a direction
 * known to within om (|d - d'| <= om, phong.md eq. C3): 1 whenever some d' that close passes
 * vertex_supports() */
static int vertex_supports_wide(const DstPhongModel *m, int v, const double d[3], double om)
{
    double tol = (DST_PHONG_GAUSS_TOL + om) * (1.0 + DST_ROUND_REL) + DST_ROUND_REL;
    for (int i = m->ring_start[v]; i < m->ring_start[v + 1]; ++i) {
        const double *w = m->v[m->ring[i]];
        double e[3] = {w[0] - m->v[v][0], w[1] - m->v[v][1], w[2] - m->v[v][2]};
        double de = dst_dot3(d, e);
        if (de > 0.0 && de * de > tol * tol * dst_dot3(e, e)) return 0;
    }
    return 1;
}

/* The Gauss arcs of two edges (sec. V.E, Fig 5.6c): arcs_cross() widened for arcs (C, D) of -B
 * known to within a rotation change om (phong.md eq. C4): each triple product moves by at most om
 * times the length of its cross product, so a sign condition fails only where both of its values
 * are beyond that margin */
static int arcs_cross_wide(const double A[3], const double B[3], const double C[3], const double D[3], double om)
{
    double bxa[3], dxc[3];
    cross3(B, A, bxa), cross3(D, C, dxc);
    double cba = dst_dot3(C, bxa), dba = dst_dot3(D, bxa), adc = dst_dot3(A, dxc), bdc = dst_dot3(B, dxc);
    double m1 = om * norm3(bxa) * (1.0 + DST_ROUND_REL) + DST_ROUND_REL;
    double m2 = om * norm3(dxc) * (1.0 + DST_ROUND_REL) + DST_ROUND_REL;
    if ((cba > m1 && dba > m1) || (cba < -m1 && dba < -m1)) return 0;  /* cba * dba < 0 impossible */
    if ((adc > m2 && bdc > m2) || (adc < -m2 && bdc < -m2)) return 0;  /* adc * bdc < 0 impossible */
    if ((cba > m1 && bdc < -m2) || (cba < -m1 && bdc > m2)) return 0;  /* cba * bdc > 0 impossible */
    return 1;
}

/* The exact Gauss test of a feature pair (pair_vf(), pair_fv(), pair_ee()) widened by the turn om
 * of the cache (sec. V.E, Fig 5.6; phong.md eq. C3-C4) */
static int gauss_wide(const PhCtx *c, int kind, int ida, int idb, double om)
{
    const DstPhongModel *A = c->a, *B = c->b;
    double d[3];
    if (kind == 0) {
        rot3(c->R, B->fn[idb], d);
        for (int i = 0; i < 3; ++i) d[i] = -d[i];
        return vertex_supports_wide(A, ida, d, om);
    }
    if (kind == 1) {
        rot3t(c->R, A->fn[ida], d);
        for (int i = 0; i < 3; ++i) d[i] = -d[i];
        return vertex_supports_wide(B, idb, d, om);
    }
    double m1[3], m2[3];
    rot3(c->R, B->fn[B->ef[idb][0]], m1), rot3(c->R, B->fn[B->ef[idb][1]], m2);
    for (int i = 0; i < 3; ++i) m1[i] = -m1[i], m2[i] = -m2[i];
    return arcs_cross_wide(A->fn[A->ef[ida][0]], A->fn[A->ef[ida][1]], m1, m2, om);
}

/* the ball, the turn om and the caps' widening ang (with its cosine and sine) of a widened walk
 * (walk_pair_wide()) */
typedef struct PhWide {
    const double *cen;
    double rcol;
    double om, cw, sw, ang;
} PhWide;

/* The widened tests of walk_pair_wide() for A's node or feature (ca, ra, capa) and B's (rb, capb;
 * bn: its centre and cap centre in A's frame and its distance from bref, bnode_wide()), without
 * a branch: the sphere test
 * with B turned by up to om about bref (eq. C2; a node's sphere turns with its radius, node = 1,
 * a feature's does not), the caps within ang of meeting (cos(a + b + ang) by the sum formula). */
static inline int wide_meets(const double ca[3], double ra, const double *capa, double rb, const double *capb,
                             const double *bn, const PhWide *w, int node)
{
    const double *cen = w->cen;
    double d[3] = {ca[0] - bn[0] - cen[0], ca[1] - bn[1] - cen[1], ca[2] - bn[2] - cen[2]};
    double lim = ra + rb + w->rcol + w->om * (node ? bn[6] + rb : bn[6]) * (1.0 + DST_ROUND_REL);
    double cs = capa[4] * capb[4] - capa[5] * capb[5], sn = capa[5] * capb[4] + capa[4] * capb[5];
    int sphere = !(dst_dot3(d, d) > lim * lim);
    int caps = !(capa[3] + capb[3] + w->ang < PH_PI) |
               !(dst_dot3(capa, bn + 3) < cs * w->cw - sn * w->sw - DST_PHONG_CAP_SLACK);
    return sphere & caps;
}

/* a node pair pushed when it passes the widened tests (wide_meets()) */
static inline int push_wide(DstPhongWorkspace *ws, int sp, const DstPhongNode *ta, const DstPhongNode *tb, int ia,
                            int ib, const double *bn, const PhWide *w)
{
    ws->stack[sp][0] = ia, ws->stack[sp][1] = ib;
    return sp + wide_meets(ta[ia].c, ta[ia].r, ta[ia].cap, tb[ib].r, tb[ib].cap, bn, w, 1);
}

/* The enumeration of sec. V.E for the cache: walk_pair() (phong.md sec. 12, eq. C2-C4): the ball (cen, rcol) is the cache's,
 * the caps' test is widened by the angle ang and the leaves' Gauss tests by the turn om; the
 * feature pairs that pass are kept as candidates (no facet is built). Returns 0 when the stack
 * or the cache overflowed. */
static int walk_pair_wide(PhCtx *c, const DstPhongTree *TA, const DstPhongTree *TB, int kind, int off,
                          const double cen[3], double rcol, double ang, double om)
{
    const double *bref = c->cache->bref;
    DstPhongWorkspace *ws = c->ws;
    DstPhongCache *k = c->cache;
    if (TA->n_nodes == 0 || TB->n_nodes == 0) return 1;
    const DstPhongNode *ta = TA->node, *tb = TB->node;
    double la_scale = PH_TREE_ANGLE_SCALE * c->a->diag, lb_scale = PH_TREE_ANGLE_SCALE * c->b->diag;
    PhWide wd = {cen, rcol, om, cos(ang), sin(ang), ang};
    double tmp[7];
    int sp = 0;
    ws->stack[sp][0] = 0, ws->stack[sp][1] = 0;
    sp += wide_meets(ta->c, ta->r, ta->cap, tb->r, tb->cap, bnode_wide(c, tb->c, tb->cap, bref, off, tmp), &wd, 1);
    while (sp > 0) {
        --sp;
        int ia = ws->stack[sp][0], ib = ws->stack[sp][1];
        const DstPhongNode *na = ta + ia, *nb = tb + ib;
        int la = na->left < 0, lb = nb->left < 0;
        if (la && lb) {
            /* the features of the two leaves, as in walk_pair(), then the widened Gauss tests */
            const DstPhongItem *IA = TA->items + na->first, *IB = TB->items + nb->first;
            unsigned pass = 0;
            for (int j = 0; j < PH_TREE_LEAF; ++j) {
                int jj = j < nb->count ? j : 0;
                const double *bi = bnode_wide(c, IB[jj].c, IB[jj].cap, bref, off + TB->n_nodes + nb->first + jj, tmp);
                for (int i = 0; i < PH_TREE_LEAF; ++i) {
                    int ii = i < na->count ? i : 0;
                    unsigned ok = (unsigned)((j < nb->count) & (i < na->count) &
                                             wide_meets(IA[ii].c, IA[ii].r, IA[ii].cap, IB[jj].r, IB[jj].cap, bi, &wd, 0));
                    pass |= ok << (j * PH_TREE_LEAF + i);
                }
            }
            while (pass != 0) {
                int bit = __builtin_ctz(pass), j = bit / PH_TREE_LEAF, i = bit % PH_TREE_LEAF;
                pass &= pass - 1;
                if (!gauss_wide(c, kind, IA[i].id, IB[j].id, om)) continue;
                if (k->n >= k->cap) return 0;
                k->cand[k->n].kind = kind, k->cand[k->n].ia = na->first + i, k->cand[k->n].ib = nb->first + j;
                ++k->n;
            }
            continue;
        }
        if (sp + 4 > PH_STACK) return 0;
        /* the children pairs, as walk_pair() orders them, each tested before it is pushed */
        double sa = na->r + la_scale * ph_min(na->cap[3], PH_PI), sb = nb->r + lb_scale * ph_min(nb->cap[3], PH_PI);
        if (!la && !lb && sa < 2.0 * sb && sb < 2.0 * sa) {
            const double *bl = bnode_wide(c, tb[nb->left].c, tb[nb->left].cap, bref, off + nb->left, tmp);
            sp = push_wide(ws, sp, ta, tb, na->left, nb->left, bl, &wd);
            sp = push_wide(ws, sp, ta, tb, na->right, nb->left, bl, &wd);
            const double *br = bnode_wide(c, tb[nb->right].c, tb[nb->right].cap, bref, off + nb->right, tmp);
            sp = push_wide(ws, sp, ta, tb, na->left, nb->right, br, &wd);
            sp = push_wide(ws, sp, ta, tb, na->right, nb->right, br, &wd);
        } else if (lb || (!la && sa >= sb)) {
            const double *bn = bnode_wide(c, nb->c, nb->cap, bref, off + ib, tmp);
            sp = push_wide(ws, sp, ta, tb, na->left, ib, bn, &wd);
            sp = push_wide(ws, sp, ta, tb, na->right, ib, bn, &wd);
        } else {
            const double *bl = bnode_wide(c, tb[nb->left].c, tb[nb->left].cap, bref, off + nb->left, tmp);
            sp = push_wide(ws, sp, ta, tb, ia, nb->left, bl, &wd);
            const double *br = bnode_wide(c, tb[nb->right].c, tb[nb->right].cap, bref, off + nb->right, tmp);
            sp = push_wide(ws, sp, ta, tb, ia, nb->right, br, &wd);
        }
    }
    return 1;
}

/* the trees of a kind of candidate (sec. V.E: VF, FV, EE): A's, B's */
static void cand_trees(const PhCtx *c, int kind, const DstPhongTree **TA, const DstPhongTree **TB)
{
    const DstPhongTree *ta[3] = {&c->a->vtree, &c->a->ftree, &c->a->etree}, *tb[3] = {&c->b->ftree, &c->b->vtree, &c->b->etree};
    *TA = ta[kind], *TB = tb[kind];
}

/* the triangle pair and place of the facet of a candidate, as pair_vf(), pair_fv() and pair_ee()
 * set them (the order key of collect_pass()) */
static void cand_place(const PhCtx *c, const PhCand *cd, int *fa, int *fb, int *sub)
{
    const DstPhongModel *A = c->a, *B = c->b;
    const DstPhongTree *TA, *TB;
    cand_trees(c, cd->kind, &TA, &TB);
    int ida = TA->items[cd->ia].id, idb = TB->items[cd->ib].id;
    if (cd->kind == 0) {
        *fa = A->vface[ida], *fb = idb;
        *sub = 2 * (A->f[*fa][0] == ida ? 0 : A->f[*fa][1] == ida ? 1 : 2);
    } else if (cd->kind == 1) {
        *fa = ida, *fb = B->vface[idb];
        *sub = 1 + 2 * (B->f[*fb][0] == idb ? 0 : B->f[*fb][1] == idb ? 1 : 2);
    } else {
        *fa = A->ef[ida][0], *fb = B->ef[idb][0];
        *sub = 6 + 3 * (A->fe[*fa][0] == ida ? 0 : A->fe[*fa][1] == ida ? 1 : 2) +
               (B->fe[*fb][0] == idb ? 0 : B->fe[*fb][1] == idb ? 1 : 2);
    }
}

/* starts a new pass of B's transformed nodes (bnode(); a collection of Algorithm 5.1 line 8) */
static void new_pass(DstPhongWorkspace *ws)
{
    if (++ws->pass == 0) {
        for (int i = 0; i < ws->cap; ++i) ws->bnode[i].stamp = 0;
        ws->pass = 1;
    }
}

/* 1 when the ball (cen, rcol) holds the Minkowski sum of the root spheres of each pair of trees
 * that the walks pair (sec. V.E) at the pose of c, with a margin far above rounding: then every
 * sphere test of the widened walks passes. A node's centre is the mean of the centres of the
 * features below it (node_bounds()), so it lies in the root's sphere, which holds every feature's
 * centre; hence |c_a - (R c_b + t) - cen| <= |C_A - (R C_B + t) - cen| + R_A + R_B <= rcol for every
 * node or feature pair (phong.md sec. 14, eq. C5). */
static int ball_holds_trees(const PhCtx *c, const double cen[3], double rcol)
{
    const DstPhongTree *ta[3] = {&c->a->vtree, &c->a->ftree, &c->a->etree}, *tb[3] = {&c->b->ftree, &c->b->vtree, &c->b->etree};
    double scale = c->a->diag + c->b->diag + norm3(cen) + norm3(c->t);
    for (int k = 0; k < 3; ++k) {
        if (ta[k]->n_nodes == 0 || tb[k]->n_nodes == 0) continue; /* that walk finds nothing in any ball */
        const DstPhongNode *ra = ta[k]->node, *rb = tb[k]->node;
        double bc[3], d[3];
        rot3(c->R, rb->c, bc);
        for (int i = 0; i < 3; ++i) d[i] = ra->c[i] - bc[i] - c->t[i] - cen[i];
        double reach = norm3(d) + ra->r + rb->r;
        if (!(reach * (1.0 + DST_PHONG_CACHE_ALL_REL) + DST_PHONG_CACHE_ALL_REL * scale <= rcol)) return 0;
    }
    return 1;
}

/* Algorithm 5.1 line 8 for the cache, sec. V.E: (re)builds the cache for the ball (cen, rcol) at
 * the pose of c (phong.md sec. 12): the three walks of collect_pass() with the ball and the Gauss
 * tests widened (eq. C2-C4), the candidates sorted into the order of dM(S) (order_key()).
 * Returns 0 when it overflowed (the cache is then empty). */
static int cache_build(PhCtx *c, const double cen[3], double rcol)
{
    DstPhongCache *k = c->cache;
    k->valid = 0, k->n = 0, k->all = 0;
    new_pass(c->ws);
    double om = DST_PHONG_CACHE_TURN;
    /* an angle whose chord is om, and the angle by which the caps' cosine slack can hide */
    double ang = 2.0 * asin(ph_min(1.0, 0.5 * om)) + acos(1.0 - DST_PHONG_CAP_SLACK) + DST_ROUND_REL;
    const DstPhongModel *B = c->b;
    if (B->vtree.n_nodes > 0) memcpy(k->bref, B->vtree.node[0].c, sizeof k->bref);
    else memset(k->bref, 0, sizeof k->bref);
    int off1 = B->ftree.n_nodes + B->ftree.n_items, off2 = off1 + B->vtree.n_nodes + B->vtree.n_items;
    if (!walk_pair_wide(c, &c->a->vtree, &B->ftree, 0, 0, cen, rcol, ang, om) ||
        !walk_pair_wide(c, &c->a->ftree, &B->vtree, 1, off1, cen, rcol, ang, om) ||
        !walk_pair_wide(c, &c->a->etree, &B->etree, 2, off2, cen, rcol, ang, om)) {
        k->n = 0;
        return 0;
    }
    int maxbit = 0;
    for (int i = 0; i < k->n; ++i) {
        int fa, fb, sub;
        cand_place(c, k->cand + i, &fa, &fb, &sub);
        maxbit = ph_imax(maxbit, order_key(c, fa, fb, k->order[i].k));
        k->order[i].sub = sub, k->order[i].idx = i;
    }
    order_sort_keys(k->order, k->otmp, k->n, maxbit);
    for (int i = 0; i < k->n; ++i) k->ctmp[i] = k->cand[k->order[i].idx];
    PhCand *sw = k->cand;
    k->cand = k->ctmp, k->ctmp = sw;
    k->a = c->a, k->b = c->b;
    memcpy(k->R, c->R, sizeof k->R), memcpy(k->t, c->t, sizeof k->t), memcpy(k->cen, cen, sizeof k->cen);
    k->rad = rcol, k->turn = om, k->valid = 1;
    k->all = ball_holds_trees(c, cen, rcol);
    return 1;
}

/* Algorithm 5.1 line 8, dM(S) of sec. V.E: collect_pass() from the cache's candidates (phong.md
 * sec. 12): each goes through the tests of the walks' leaves at the pose of c (the items' spheres
 * and caps, then pair_vf(), pair_fv(), pair_ee()) in the order of dM(S), so that the facets and
 * their order are those of the walks. */
static int cache_pass(PhCtx *c, const double cen[3], double rcol)
{
    DstPhongWorkspace *ws = c->ws;
    const DstPhongCache *k = c->cache;
    ws->n = 0;
    for (int i = 0; i < k->n; ++i) {
        const PhCand *cd = k->cand + i;
        const DstPhongTree *TA, *TB;
        cand_trees(c, cd->kind, &TA, &TB);
        const DstPhongItem *ia_ = TA->items + cd->ia, *ib_ = TB->items + cd->ib;
        /* the item of B in A's frame, as bnode() computes it */
        double bi[6];
        rot3(c->R, ib_->c, bi);
        for (int j = 0; j < 3; ++j) bi[j] += c->t[j];
        rot3(c->R, ib_->cap, bi + 3);
        for (int j = 3; j < 6; ++j) bi[j] = -bi[j];
        double e[3] = {ia_->c[0] - bi[0] - cen[0], ia_->c[1] - bi[1] - cen[1], ia_->c[2] - bi[2] - cen[2]};
        double lm = ia_->r + ib_->r + rcol;
        if (dst_dot3(e, e) > lm * lm) continue;
        if (ia_->cap[3] + ib_->cap[3] < PH_PI &&
            dst_dot3(ia_->cap, bi + 3) < ia_->cap[4] * ib_->cap[4] - ia_->cap[5] * ib_->cap[5] - DST_PHONG_CAP_SLACK)
            continue;
        if (cd->kind == 0) pair_vf(c, ia_->id, ib_->id, cen, rcol);
        else if (cd->kind == 1) pair_fv(c, ia_->id, ib_->id, cen, rcol);
        else pair_ee(c, ia_->id, ib_->id, cen, rcol);
    }
    return ws->n < ws->cap;
}

/* One collection of dM(S) for the ball (cen, rcol) (Algorithm 5.1 line 8): from the cache when it covers the ball at
 * this pose (rebuilt, with the slack DST_PHONG_CACHE_SLACK_REL and the widening extra, when it
 * does not), else by the walks (collect_pass()); the same facets in the same order either way
 * (the cache's ball only has to hold the query's, eq. C2). */
static int collect_any(PhCtx *c, const double cen[3], double rcol, double extra)
{
    if (c->cache == NULL) return collect_pass(c, cen, rcol);
    if (cache_covers(c, cen, rcol)) {
        ++c->hits;
        return cache_pass(c, cen, rcol);
    }
    double slack = DST_PHONG_CACHE_SLACK_REL * (c->a->diag + c->b->diag);
    if (!cache_build(c, cen, rcol + extra + slack)) return collect_pass(c, cen, rcol); /* overflow: the walks */
    ++c->builds;
    return cache_pass(c, cen, rcol);
}

/* dM(S) for the ball (cen, rcol): the Gauss-and-space trees of A and B are walked together, a
 * tree of A with one of B for each kind of facet (VF, FV, EE); a node pair whose Minkowski sum
 * of spheres (centre c_a - (R c_b + t), radius r_a + r_b) misses the ball, or whose Gauss-map
 * caps cannot meet, is pruned (sec. V.E); leaf pairs give their convolution facets, sorted into
 * their order (order_key()). When the facets found are large beside the ball, a second pass widens the ball by the
 * diameter of the largest, so that every facet that can cross one near the sphere is present and
 * the trimming of the facets near the sphere does not depend on where the sphere is (phong.md
 * sec. 3). Returns 0 when a buffer
 * of the workspace overflowed. */
static int collect(PhCtx *c, const double cen[3], double rcol)
{
    /* a cache rebuilt by the first pass is built for the widening of the last second pass too
     * (phong.md sec. 14): a pair with large facets asks for it at query after query */
    int first = c->collections++ == 0;
    /* a ball that holds both models whole, like the one of the dM(S) in the workspace, at the same
     * pose (one query): every feature pair passes the sphere tests and every facet the distance
     * test of add_facet(), so dM(S), its order and its trimming are those in the workspace
     * (phong.md sec. 14) */
    int whole = ball_holds_trees(c, cen, rcol);
    if (whole && c->whole) {
        c->hits += c->cache != NULL;
        return 1;
    }
    c->whole = 0;
    if (!collect_any(c, cen, rcol, c->cache != NULL ? c->cache->widen : 0.0)) return 0;
    double maxrad = 0.0;
    for (int i = 0; i < c->ws->n; ++i) {
        if (c->ws->geo[i].ok) maxrad = ph_max(maxrad, c->ws->geo[i].rad);
    }
    /* facets small beside the ball: a crossing partner outside it can only trim the rim of a
     * facet at the ball's edge, so the second pass is skipped (phong.md sec. 3) */
    int second = maxrad > DST_PHONG_PARTNER_REL * rcol;
    /* (the first sphere of a query sets it: a later sphere's ball is larger, hence rarely needs a
     * second pass, and the next query starts with a first sphere again) */
    if (c->cache != NULL && first) c->cache->widen = second ? 2.0 * maxrad : 0.0;
    if (second && !collect_any(c, cen, rcol + 2.0 * maxrad, 0.0)) return 0;
    find_crossings(c->ws->raw, c->ws->geo, c->ws->n, c->ws->sweep, c->ws->soa, c->ws->rank, c->ws->ckey, c->ws);
    apply_trims(c->ws->raw, c->ws->geo, c->ws->n);
    /* compact copies of the bounding spheres for the searches (a facet left out: infinitely far) */
    for (int i = 0; i < c->ws->n; ++i) {
        const PhGeo *g = c->ws->geo + i;
        double *o = c->ws->gs[i];
        if (g->ok) memcpy(o, g->ctr, sizeof g->ctr), o[3] = g->rad;
        else o[0] = o[1] = o[2] = INFINITY, o[3] = 0.0;
    }
    c->whole = whole;
    return 1;
}

/* the facet of dM(S) nearest to x, and the (s, u) of its closest point; -1 when none */
static int nearest_facet(const PhCtx *c, const double x[3], double *s, double *u)
{
    double best = INFINITY;
    int bi = -1;
    for (int i = 0; i < c->ws->n; ++i) {
        const double *sp = c->ws->gs[i];
        double dc[3] = {x[0] - sp[0], x[1] - sp[1], x[2] - sp[2]};
        double lb = norm3(dc) - sp[3];
        if (lb > 0.0 && lb * lb >= best) continue;
        const PhGeo *g = c->ws->geo + i;
        if (!g->ok) continue;
        double ss, uu, d2 = facet_closest(c->ws->raw + i, g, x, &ss, &uu);
        if (d2 < best) best = d2, bi = i, *s = ss, *u = uu;
    }
    return bi;
}

/* ---------------------------------------------------------------- sec. V.F: projection */

/* A point x of facet F lies inside M, hidden behind another facet G of dM(S), when it is on G's
 * inner side by less than the averaging radius and its foot on G's plane falls inside G:
 * the untrimmed convolution facets cross at concave creases of dM, and their parts beyond the
 * crease are not boundary (phong.md sec. 6). Returns G, or -1 when x is visible. */
static int hidden_by(const PhCtx *c, int F, const double x[3], double h)
{
    const DstPhongWorkspace *ws = c->ws;
    double tol = DST_ROUND_REL * (norm3(x) + h);
    for (int i = 0; i < ws->n; ++i) {
        const double *sp = ws->gs[i];
        double dc[3] = {x[0] - sp[0], x[1] - sp[1], x[2] - sp[2]}, lim = sp[3] + h;
        if (dst_dot3(dc, dc) > lim * lim) continue;
        const PhGeo *g = ws->geo + i;
        if (i == F || !g->ok) continue;
        double w[3] = {x[0] - g->c0[0], x[1] - g->c0[1], x[2] - g->c0[2]};
        double z = dst_dot3(w, g->n);
        if (z >= -tol || z < -h) continue;
        /* x is behind G's plane; does its foot fall inside G? */
        double s, u;
        facet_param(g, x, &s, &u);
        if (facet_inside(ws->raw + i, s, u) && dst_dot3(g->n, ws->geo[F].n) < 1.0 - DST_PHONG_COPLANAR_COS) return i;
    }
    return -1;
}

typedef struct PhState {
    int F;
    double s, u, x[3], G[2], res, delta, nu[3];
} PhState;

/* the point of a walk state and its residual (P2) */
static int eval_state(const PhCtx *c, PhState *st)
{
    const PhGeo *g = c->ws->geo + st->F;
    facet_point(g, st->s, st->u, st->x);
    return residual(c, c->ws->geo, (const double(*)[4])c->ws->gs, c->ws->n, g, st->x, st->G, &st->res, &st->delta, st->nu);
}

/* Phong projection of the origin on dM(S) (eq. 5.4-5.6) by Newton's method on the residual of
 * eq. (5.4), walking from facet to facet: a step that leaves the facet continues on the facet
 * nearest to the new point. The Jacobian is the closed form of phong.md eq. P5a-P5c. Returns 1
 * converged, 2 left the sphere S (cen, rs), 0 stuck; *st holds the best iterate. */
static int project(const PhCtx *c, PhState *st, const double cen[3], double rs, int max_newton,
                   int *steps)
{
    for (int it = 0; it < max_newton; ++it) {
        double h = radius_at(c, st->x);
        if (st->res <= DST_PHONG_RESIDUAL_REL * (norm3(st->x) + h)) return 1;
        const PhGeo *g = c->ws->geo + st->F;
        double l1 = norm3(g->e1), l2 = norm3(g->e2);
        /* J = d G / d (s, u) in closed form (phong.md eq. P5a-P5c) */
        double dG[2][2];
        if (!field_partials(c, st->F, st->s, st->u, 0, dG, NULL)) return 0;
        double J[4] = {dG[0][0], dG[1][0], dG[0][1], dG[1][1]};
        double det = J[0] * J[3] - J[1] * J[2];
        if (!(fabs(det) > DST_MIN_DENOM)) return 0;
        double dS = -(J[3] * st->G[0] - J[1] * st->G[1]) / det, dU = -(-J[2] * st->G[0] + J[0] * st->G[1]) / det;
        /* a step longer than half the averaging radius leaves the region the Jacobian describes */
        double len = sqrt(pow(dS * l1, 2) + pow(dU * l2, 2));
        if (len > 0.5 * h) dS *= 0.5 * h / len, dU *= 0.5 * h / len;
        if (steps) ++*steps;
        int accepted = 0;
        for (int m = 0; m < PH_HALVINGS && !accepted; ++m, dS *= 0.5, dU *= 0.5) {
            PhState tr = *st;
            tr.s = st->s + dS, tr.u = st->u + dU;
            if (!facet_inside(c->ws->raw + st->F, tr.s, tr.u)) {
                double p[3];
                facet_point(g, tr.s, tr.u, p);
                tr.F = nearest_facet(c, p, &tr.s, &tr.u);
                if (tr.F < 0) return 0;
            }
            /* a point behind another facet moves onto that facet (across a concave crease) */
            double p[3];
            facet_point(c->ws->geo + tr.F, tr.s, tr.u, p);
            int G = hidden_by(c, tr.F, p, h);
            if (G >= 0) {
                tr.F = G;
                facet_closest(c->ws->raw + G, c->ws->geo + G, p, &tr.s, &tr.u);
            }
            if (!eval_state(c, &tr)) continue;
            if (tr.res < st->res) *st = tr, accepted = 1;
        }
        if (!accepted) return st->res <= DST_PHONG_STALL_FACTOR * DST_PHONG_RESIDUAL_REL * (norm3(st->x) + h) ? 1 : 0;
        double dc[3] = {st->x[0] - cen[0], st->x[1] - cen[1], st->x[2] - cen[2]};
        if (dst_dot3(dc, dc) > rs * rs) return 2;
    }
    double h = radius_at(c, st->x);
    return st->res <= DST_PHONG_RESIDUAL_REL * (norm3(st->x) + h) ? 1 : 0;
}

/* 1 when every point of the bounding sphere sp lies farther than d from x, by a margin far
 * above the rounding of facet_closest (so that the test it spares would have failed) */
static int sphere_beyond(const double sp[4], const double x[3], double d)
{
    double dc[3] = {x[0] - sp[0], x[1] - sp[1], x[2] - sp[2]};
    return norm3(dc) - sp[3] > d * (1.0 + 1e-6);
}

/* The start of the walk (Algorithm 5.1 line 10): among the facets whose closest point to x is
 * (within rounding) the nearest, the one where the Phong residual is smallest. */
static int start_state(const PhCtx *c, const double x[3], PhState *st)
{
    double s, u;
    int F = nearest_facet(c, x, &s, &u);
    if (F < 0) return 0;
    double y[3];
    facet_point(c->ws->geo + F, s, u, y);
    double d = sqrt(dst_dot3((double[3]){y[0] - x[0], y[1] - x[1], y[2] - x[2]}, (double[3]){y[0] - x[0], y[1] - x[1], y[2] - x[2]}));
    double tie = d + DST_PHONG_TIE_REL * (norm3(x) + radius_at(c, x));
    int found = 0;
    for (int i = 0; i < c->ws->n; ++i) {
        if (sphere_beyond(c->ws->gs[i], x, tie) || !c->ws->geo[i].ok) continue;
        PhState tr;
        double d2 = facet_closest(c->ws->raw + i, c->ws->geo + i, x, &tr.s, &tr.u);
        if (d2 > tie * tie) continue;
        tr.F = i;
        if (!eval_state(c, &tr)) continue;
        if (!found || tr.res < st->res) *st = tr, found = 1;
    }
    return found;
}

/* Algorithm 5.1 line 14: the walk started from the facets of dM(S) nearest to the sphere's
 * centre (at most PH_MAX_STARTS, each at its point nearest to the centre); of the converged
 * answers inside S, the one nearest to the origin (eq. 5.3). Returns 0 when none converged. */
static int project_all(const PhCtx *c, const double cen[3], double rs, int max_newton, int *steps,
                       PhState *best)
{
    int idx[PH_MAX_STARTS], n = 0;
    double dist[PH_MAX_STARTS];
    for (int i = 0; i < c->ws->n; ++i) {
        if (sphere_beyond(c->ws->gs[i], cen, rs) || !c->ws->geo[i].ok) continue;
        double s, u, d2 = facet_closest(c->ws->raw + i, c->ws->geo + i, cen, &s, &u);
        if (d2 > rs * rs) continue;
        /* insertion into the list of the nearest */
        int k = n < PH_MAX_STARTS ? n++ : PH_MAX_STARTS;
        if (k == PH_MAX_STARTS && d2 >= dist[PH_MAX_STARTS - 1]) continue;
        if (k == PH_MAX_STARTS) k = PH_MAX_STARTS - 1;
        while (k > 0 && dist[k - 1] > d2) dist[k] = dist[k - 1], idx[k] = idx[k - 1], --k;
        dist[k] = d2, idx[k] = i;
    }
    int found = 0;
    for (int j = 0; j < n; ++j) {
        PhState st;
        st.F = idx[j];
        facet_closest(c->ws->raw + st.F, c->ws->geo + st.F, cen, &st.s, &st.u);
        if (!eval_state(c, &st)) continue;
        if (project(c, &st, cen, rs, max_newton, steps) != 1) continue;
        if (!found || norm3(st.x) < norm3(best->x)) *best = st, found = 1;
    }
    return found;
}

/* ---------------------------------------------------------------- gradient */

/* G, delta and nu at (F, s, u) for the pose (R, t), dM(S) held (not collected again): the facets
 * of the list near (ascending indices, F at position kF) re-posed into the scratch array, and
 * trimmed by their partners re-posed. Only for the tests of the closed forms
 * (dst_phong_probe_value()); the query itself does not re-pose. */
static int eval_at_pose(const PhCtx *c, const int *near, int nn, int kF, int F, double s, double u,
                        const double R[9], const double t[3], double G[2], double *delta, double nu[3])
{
    DstPhongWorkspace *ws = c->ws;
    for (int k = 0; k < nn; ++k) {
        const PhRaw *r = ws->raw + near[k];
        PhGeo *f = ws->tmp + k;
        facet_geo(r, R, t, f);
        if (!f->ok) continue;
        for (int j = 0; j < r->nclip && f->nc >= 3; ++j) {
            PhGeo g;
            facet_geo(ws->raw + r->clip[j], R, t, &g);
            trim_by(f, &g);
        }
    }
    double x[3];
    facet_point(ws->tmp + kF, s, u, x);
    /* the residual is expressed in the basis of the unperturbed facet, so that the partials
     * of G are taken in one fixed frame */
    return residual(c, ws->tmp, NULL, nn, ws->geo + F, x, G, NULL, delta, nu);
}

/* Gradient of delta(p) with respect to the pose p = (t, w) by the implicit-function theorem on
 * the Phong condition G(s, u, p) = 0 (eq. 5.4): d delta/dp = d_p delta - d_su delta J^-1 d_p G,
 * J = d_su G (phong.md eq. P5), every partial in closed form (eq. P5a-P5f): one pass over the
 * facets near the answer, no re-posing. */
static int gradient(const PhCtx *c, const PhState *st, double grad[6])
{
    double dG[8][2], dd[8];
    if (!field_partials(c, st->F, st->s, st->u, 1, dG, dd)) return 0;
    double Jsu[4] = {dG[0][0], dG[1][0], dG[0][1], dG[1][1]};
    double det = Jsu[0] * Jsu[3] - Jsu[1] * Jsu[2];
    if (!(fabs(det) > DST_MIN_DENOM)) return 0;
    /* row vector y = dsu J^-1 */
    double y[2] = {(dd[0] * Jsu[3] - dd[1] * Jsu[2]) / det, (-dd[0] * Jsu[1] + dd[1] * Jsu[0]) / det};
    for (int k = 0; k < 6; ++k) grad[k] = dd[2 + k] - (y[0] * dG[2 + k][0] + y[1] * dG[2 + k][1]);
    return 1;
}

/* ---------------------------------------------------------------- Algorithm 5.1 */

DstPhongOptions dst_phong_options_default(void)
{
    DstPhongOptions o;
    o.alpha = DST_PHONG_DEFAULT_ALPHA;
    o.beta = DST_PHONG_DEFAULT_BETA;
    o.min_radius_rel = DST_PHONG_MIN_RADIUS_REL;
    o.max_radius_rel = DST_PHONG_MAX_RADIUS_REL;
    o.max_iter = 8;
    o.max_newton = 60;
    o.gradient = 1;
    return o;
}

/* Prediction of q from the Euclidean distance (eq. 5.1; Algorithm 5.1 line 4): the closest
 * points when apart or when both meshes are convex (EPA), else the deepest vertex (depth_V). */
static DstStatus predict(const PhCtx *c, double q0[3], double *euclid)
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Z[3] = {0, 0, 0};
    DstMeshDistance md;
    DstStatus st = dst_bvh_distance(&c->a->bvh, I, Z, &c->b->bvh, c->R, c->t, NULL, &md);
    if (st == DST_INVALID_INPUT || st == DST_FAILED) return st;
    for (int k = 0; k < 3; ++k) q0[k] = md.pa[k] - md.pb[k];
    *euclid = md.distance;
    if (md.overlap != 0 && !(c->a->bvh.convex && c->b->bvh.convex)) {
        DstVertexDepth vd;
        if (dst_mesh_vertex_depth(&c->a->bvh, I, Z, &c->b->bvh, c->R, c->t, &vd) == DST_PENETRATING) {
            for (int k = 0; k < 3; ++k) q0[k] = vd.pa[k] - vd.pb[k];
            *euclid = -vd.depth;
        }
    }
    return DST_OK;
}

static DstStatus fail(DstPhongResult *out, DstStatus st)
{
    if (out != NULL) out->status = st;
    return st;
}

static void ctx_init(PhCtx *c, const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                     const DstPhongOptions *o, DstPhongWorkspace *ws)
{
    double scale = a->diag + b->diag;
    c->a = a, c->b = b, c->ws = ws, c->alpha = o->alpha, c->beta = o->beta;
    c->cache = NULL, c->hits = c->builds = c->collections = c->whole = 0;
    memcpy(c->R, R, sizeof c->R), memcpy(c->t, t, sizeof c->t);
    c->hmin = o->min_radius_rel * scale, c->hmax = o->max_radius_rel * scale;
}

/* PhongDist, Algorithm 5.1 ComputePhongDist, without a cache. */
DstStatus dst_phong_distance(const DstPhongModel *a, const DstPhongModel *b, const double R[9],
                             const double t[3], const DstPhongOptions *opt, const double *warm_q,
                             DstPhongWorkspace *ws, DstPhongResult *out)
{
    return dst_phong_distance_cached(a, b, R, t, opt, warm_q, NULL, ws, out);
}

/* PhongDist, Algorithm 5.1 ComputePhongDist; line 8's dM(S) from the cache when it covers the
 * sphere (phong.md sec. 12). */
DstStatus dst_phong_distance_cached(const DstPhongModel *a, const DstPhongModel *b, const double R[9],
                                    const double t[3], const DstPhongOptions *opt, const double *warm_q,
                                    DstPhongCache *cache, DstPhongWorkspace *ws, DstPhongResult *out)
{
    if (out == NULL) return DST_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    out->euclid = NAN;
    DstPhongOptions o = opt ? *opt : dst_phong_options_default();
    if (a == NULL || b == NULL || R == NULL || t == NULL || ws == NULL || a->v == NULL || b->v == NULL)
        return fail(out, DST_INVALID_INPUT);
    if (!dst_is_rotation(R) || !finite3(t) || fabs(t[0]) > DST_MESH_MAX_COORD ||
        fabs(t[1]) > DST_MESH_MAX_COORD || fabs(t[2]) > DST_MESH_MAX_COORD)
        return fail(out, DST_INVALID_INPUT);
    if (!(o.alpha > 0.0) || !isfinite(o.alpha) || !(o.beta > 0.0) || !isfinite(o.beta) || !(o.min_radius_rel > 0.0) || !isfinite(o.min_radius_rel) ||
        !(o.max_radius_rel >= o.min_radius_rel) || !isfinite(o.max_radius_rel) || o.max_iter < 1 ||
        o.max_newton < 1)
        return fail(out, DST_INVALID_INPUT);
    if (warm_q != NULL && !finite3(warm_q)) return fail(out, DST_INVALID_INPUT);
    PhCtx c;
    ctx_init(&c, a, b, R, t, &o, ws);
    c.cache = cache;
    double scale = a->diag + b->diag;

    /* lines 1-5: q0 from the previous answer, or from the Euclidean distance */
    double q0[3];
    if (warm_q != NULL) {
        memcpy(q0, warm_q, sizeof q0);
    } else {
        DstStatus st = predict(&c, q0, &out->euclid);
        if (st != DST_OK) return fail(out, st);
    }
    /* line 6: r = alpha |q0| (eq. 5.12), at least h_min */
    double cen[3], r = fmax(o.alpha * norm3(q0), c.hmin);
    memcpy(cen, q0, sizeof cen);
    PhState best;
    int have_best = 0, converged = 0;
    for (int it = 0; it < o.max_iter && !converged; ++it) {
        out->spheres = it + 1;
        /* line 8: dM(S), with room for the averaging balls of the points of S */
        double rcol = r + radius_at(&c, cen) + o.beta * r;
        if (!collect(&c, cen, rcol)) return fail(out, DST_FAILED);
        out->facets = ws->n;
        /* line 10: the facet nearest to q_i starts the walk */
        PhState st;
        if (!start_state(&c, cen, &st)) {
            r *= DST_PHONG_GROWTH; /* line 21 */
            continue;
        }
        int pr = project(&c, &st, cen, r, o.max_newton, &out->newton_steps);
        if (pr == 0) {
            /* line 14: no walk from the nearest facet; Phong projection started on every facet of
             * dM(S), and the solution nearest to the origin kept (eq. 5.3) */
            PhState alt;
            if (project_all(&c, cen, r, o.max_newton, &out->newton_steps, &alt)) st = alt, pr = 1;
        }
        if (!have_best || st.res < best.res) best = st, have_best = 1;
        if (pr == 1) {
            converged = 1;
        } else if (pr == 2) {
            /* lines 23-24: S moves to the iterate, r = alpha |q_i| */
            memcpy(cen, st.x, sizeof cen);
            r = fmax(o.alpha * norm3(cen), c.hmin);
        } else {
            memcpy(cen, best.x, sizeof cen);
            r *= DST_PHONG_GROWTH; /* line 21 */
        }
    }
    if (!have_best) return fail(out, DST_FAILED);
    /* the dM(S) of the best iterate must be the one in the workspace for the witnesses and
     * the gradient: rebuild it when a later sphere replaced it */
    if (!converged) {
        double rcol = r + radius_at(&c, best.x) + o.beta * r;
        if (!collect(&c, best.x, rcol)) return fail(out, DST_FAILED);
        best.F = nearest_facet(&c, best.x, &best.s, &best.u);
        if (best.F < 0 || !eval_state(&c, &best)) return fail(out, DST_FAILED);
    }
    /* the answer: q, nu, witnesses a(s, u) and b(s, u) */
    const PhRaw *fr = ws->raw + best.F;
    double bl[3], bw[3];
    for (int k = 0; k < 3; ++k) {
        out->q[k] = best.x[k];
        out->n[k] = -best.nu[k];
        out->pa[k] = fr->A0[k] + best.s * fr->Ae1[k] + best.u * fr->Ae2[k];
        bl[k] = fr->B0[k] + best.s * fr->Be1[k] + best.u * fr->Be2[k];
    }
    rot3(R, bl, bw);
    for (int k = 0; k < 3; ++k) out->pb[k] = bw[k] + t[k];
    out->distance = best.delta;
    out->residual = best.res;
    out->radius = radius_at(&c, best.x);
    out->cache_hits = c.hits, out->cache_builds = c.builds;
    if (o.gradient && !gradient(&c, &best, out->grad)) return fail(out, DST_FAILED);
    if (!converged) {
        out->status = DST_ITER_LIMIT;
    } else if (fabs(out->distance) <= DST_TOUCH_ABS + DST_ROUND_REL * scale) {
        out->status = DST_TOUCHING;
    } else {
        out->status = out->distance > 0.0 ? DST_SEPARATED : DST_PENETRATING;
    }
    return out->status;
}

/* ---------------------------------------------------------------- test access (dst_phong_internal.h) */

int dst_phong_probe_facets(const DstPhongWorkspace *ws)
{
    return ws ? ws->n : 0;
}

int dst_phong_probe_facet(const DstPhongWorkspace *ws, int F, double c0[3], double e1[3], double e2[3])
{
    if (ws == NULL || F < 0 || F >= ws->n || !ws->geo[F].ok) return 0;
    const PhGeo *g = ws->geo + F;
    memcpy(c0, g->c0, 3 * sizeof(double)), memcpy(e1, g->e1, 3 * sizeof(double)), memcpy(e2, g->e2, 3 * sizeof(double));
    return 1;
}

int dst_phong_probe_value(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                          const DstPhongOptions *opt, DstPhongWorkspace *ws, int F, double s, double u,
                          const double Rp[9], const double tp[3], double x[3], double G[2], double *delta,
                          double nu[3])
{
    if (a == NULL || b == NULL || ws == NULL || F < 0 || F >= ws->n || !ws->geo[F].ok) return 0;
    DstPhongOptions o = opt ? *opt : dst_phong_options_default();
    PhCtx c;
    ctx_init(&c, a, b, R, t, &o, ws);
    for (int i = 0; i < ws->n; ++i) ws->near[i] = i;
    if (!eval_at_pose(&c, ws->near, ws->n, F, F, s, u, Rp, tp, G, delta, nu)) return 0;
    facet_point(ws->tmp + F, s, u, x);
    return 1;
}

int dst_phong_probe_partials(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                             const DstPhongOptions *opt, DstPhongWorkspace *ws, int F, double s, double u,
                             double dG[8][2], double ddelta[8])
{
    if (a == NULL || b == NULL || ws == NULL || F < 0 || F >= ws->n || !ws->geo[F].ok) return 0;
    DstPhongOptions o = opt ? *opt : dst_phong_options_default();
    PhCtx c;
    ctx_init(&c, a, b, R, t, &o, ws);
    return field_partials(&c, F, s, u, 1, dG, ddelta);
}
