/* dst_phong.h — PhongDist, the direction-continuous signed distance of two closed triangle
 * meshes (thesis ch. V, eq. (5.1)-(5.14), Algorithm 5.1; docs/math/phong.md).
 *
 * Contract. The Euclidean signed distance (eq. 5.1) is the vector from the origin o to the
 * closest point of the boundary of the Minkowski sum M = A (+) -B; its direction jumps when o
 * crosses the medial axis of dM (Fig 5.1a). PhongDist replaces the Euclidean projection by a
 * Phong projection (eq. 5.2-5.3): the point q of dM whose (continuously varying) surface normal
 * nu(q) is collinear with q - o. Here nu(x) is the normalised area-weighted mean of the facet
 * normals of dM inside the ball of radius h(x) = alpha |x| + h_min about x (the tangent plane at x
 * is the plane orthogonal to it): a function of the point and of the relative pose that is
 * continuous in both (phong.md sec. 3), equal to the facet normal wherever the ball sees one
 * plane only, so that PhongDist equals the Euclidean distance there.
 *
 * A DstPhongModel is built once per mesh (its BVH, edges, 1-rings, normals, and the trees of its
 * features by position and Gauss direction) and is immutable;
 * the mesh must be closed and consistently oriented (a solid). A DstPhongWorkspace holds every
 * scratch buffer of a query: nothing is allocated during a query; a DstPhongCache (optional, an
 * explicit argument) keeps the enumeration of dM(S) across the queries of a coherent motion
 * without changing any answer. Queries take the pose of B in A's frame, x_A = R x_B + t (R
 * row-major, orthonormal within DST_ROTATION_TOL; metres), and answer in A's frame. A workspace serves one query at a time; models may be shared between
 * threads. */
#ifndef DST_PHONG_H
#define DST_PHONG_H

#include <stddef.h>

#include "dst.h"
#include "dst_bvh.h"
#include "dst_mesh.h"

/* A node of a Gauss-and-space tree of a model (docs/math/phong.md sec. 3): the features below
 * it (vertices, faces or convex edges) are clustered by position and by the direction of their
 * Gauss regions together, so that both its sphere and its Gauss cap shrink with depth. */
typedef struct DstPhongNode {
    double c[3], r;          /* bounding sphere of the features below, mesh frame, metres */
    double cap[6];           /* cap of the unit sphere holding the Gauss regions of the features
                              * below (centre x y z, angular radius in radians (>= pi:
                              * everything), its cosine and sine) */
    int left, right;         /* child node indices, -1 for a leaf */
    int first, count;        /* leaf: its features are items[first .. first + count - 1] */
} DstPhongNode;

/* A feature in a leaf of a Gauss-and-space tree: its sphere and cap as in DstPhongNode. */
typedef struct DstPhongItem {
    double c[3], r;
    double cap[6];
    int id;                  /* the vertex, face or edge */
} DstPhongItem;

/* The up to four grandchildren of an inner node (a child that is a leaf standing for its own),
 * their spheres and caps side by side for the walks' tests (defined in dst_phong.c). */
typedef struct DstPhongWide DstPhongWide;

/* A tree of one kind of feature; node[0] is the root (n_nodes 0: no such feature). */
typedef struct DstPhongTree {
    int n_nodes, n_items;
    DstPhongNode *node;      /* owned */
    DstPhongItem *items;     /* owned: the features, leaf by leaf */
    DstPhongWide *wide;      /* owned: one entry per inner node */
    int *wide_of;            /* owned: n_nodes entries, the entry in wide of each inner node
                              * (-1: a leaf) */
} DstPhongTree;

/* The prepared, immutable model of one closed mesh. */
typedef struct DstPhongModel {
    DstBvh bvh;              /* owned: sphere tree of the Euclidean distance of eq. (5.1) and of the
                              * order of the facets of dM(S) */
    int n_vertices, n_faces, n_edges;
    double (*v)[3];          /* owned: vertices, mesh frame, metres */
    int (*f)[3];             /* owned: faces, counter-clockwise seen from outside */
    double (*fn)[3];         /* owned: unit outward face normals (zero for a degenerate face) */
    int (*e)[2];             /* owned: edge end vertices */
    int (*ef)[2];            /* owned: the two faces of each edge */
    int (*fe)[3];            /* owned: edge of side k (vertex k to k+1) of each face */
    unsigned char *e_convex; /* owned: 1 when the edge is convex (its dihedral angle < pi) */
    int *ring_start;         /* owned: n_vertices + 1 offsets into ring */
    int *ring;               /* owned: the 1-ring (neighbour vertices) of each vertex */
    int *vface;              /* owned: the first face holding each vertex (-1: unused vertex) */
    DstPhongTree vtree;      /* Gauss-and-space trees of the supporting vertices (Gauss region: */
    DstPhongTree ftree;      /* the supporting cone), the faces (their normal) and the convex */
    DstPhongTree etree;      /* edges (their arc): feature pairs in node pairs whose spheres are
                              * too far apart or whose caps cannot meet produce no convolution
                              * facet (sec. V.E) */
    /* The order of the facets of dM(S) is that of a walk of the two sphere trees (bvh) to the
     * leaf pair of their triangle pair (docs/math/phong.md sec. 3, "Order"); it is read from
     * each leaf's path from the root, kept here: */
    int *face_leaf;          /* owned: the leaf (index into path_start) that holds each face */
    int n_leaves;
    int *path_start;         /* owned: n_leaves + 1 offsets into path_r and path_left */
    double *path_r;          /* owned: the sphere radii of the inner nodes from the root down to
                              * each leaf, metres, then -infinity (the path's end) */
    unsigned char *path_left;/* owned: 1 where that path goes on to the node's left child */
    double diag;             /* bounding-box diagonal, metres */
    double max_face_diam;    /* longest edge of a face, metres */
} DstPhongModel;

/* Builds the model of a mesh (copied). Returns DST_OK; DST_INVALID_INPUT for a NULL argument,
 * an empty mesh, a mesh that is not closed and consistently outward oriented, or a
 * non-manifold edge (message in err); DST_FAILED when out of memory. On failure *out holds
 * nothing to free. Nullable: err (with err_size 0). */
DstStatus dst_phong_model_create(const DstMesh *mesh, DstPhongModel *out, char *err, size_t err_size);

/* Frees a model and zeroes it. Nullable: model. */
void dst_phong_model_destroy(DstPhongModel *model);

/* Opaque scratch of the queries (partial Minkowski boundary, feature hash, traversal stack). */
typedef struct DstPhongWorkspace DstPhongWorkspace;

/* Allocates a workspace for partial Minkowski boundaries of up to max_facets facets (<= 0: the
 * default DST_PHONG_DEFAULT_MAX_FACETS). Returns NULL when out of memory. */
DstPhongWorkspace *dst_phong_workspace_create(int max_facets);

/* Frees a workspace. Nullable: ws. */
void dst_phong_workspace_destroy(DstPhongWorkspace *ws);

/* Options; start from dst_phong_options_default(). */
typedef struct DstPhongOptions {
    double alpha;            /* user constant of eq. (5.12) (> 0): search radius r = alpha |q| */
    double beta;             /* radius of the normal-averaging ball h(x) = beta |x| + h_min (> 0;
                              * the same proportionality as eq. (5.12), applied at each point) */
    double min_radius_rel;   /* h_min and the smallest search radius, as a fraction of
                              * diag(A) + diag(B) (> 0) */
    double max_radius_rel;   /* largest averaging radius, as a fraction of diag(A) + diag(B) */
    int max_iter;            /* Algorithm 5.1: most search spheres S_i tried (>= 1) */
    int max_newton;          /* most Newton steps of the Phong projection in one sphere (>= 1) */
    int gradient;            /* 1: fill DstPhongResult.grad (closed form, phong.md eq. P5-P5f: one
                              * pass over the facets near the answer, their trimmings re-derived) */
} DstPhongOptions;

/* alpha DST_PHONG_DEFAULT_ALPHA, beta DST_PHONG_DEFAULT_BETA, the radii of dst_tolerance.h, 8 spheres, 60 Newton steps,
 * gradient on. */
DstPhongOptions dst_phong_options_default(void);

/* Result of a query. Frame: A's mesh frame. */
typedef struct DstPhongResult {
    DstStatus status;        /* DST_SEPARATED, DST_TOUCHING, DST_PENETRATING; DST_ITER_LIMIT when
                              * the projection did not converge (the fields hold the iterate with
                              * the smallest residual); DST_INVALID_INPUT; DST_FAILED */
    double distance;         /* signed PhongDist, metres: |q| when apart, -|q| when overlapping */
    double n[3];             /* unit direction from B to A: -nu(q), nu the outward normal of M
                              * at q; moving B by -s n (or A by +s n) increases the distance */
    double pa[3], pb[3];     /* witness points on A and on B (B posed), pa - pb = q */
    double q[3];             /* the Phong projection of the origin on dM (eq. 5.3) */
    double grad[6];          /* d distance / d (t, w): grad[0..2] w.r.t. the translation t of B;
                              * grad[3..5] w.r.t. a small rotation w of B about its own origin,
                              * axis in A's frame: R -> exp([w]x) R, t unchanged */
    double euclid;           /* the Euclidean prediction used (eq. 5.1): signed distance of
                              * dst_bvh_distance, or -depth_V when overlapping; NAN on warm start */
    double residual;         /* |q - (nu . q) nu| at the answer, metres */
    double radius;           /* the averaging radius h(q), metres */
    int facets;              /* facets of the last partial Minkowski boundary dM(S) */
    int spheres;             /* search spheres S_i used (Algorithm 5.1 line 7) */
    int newton_steps;        /* Newton steps in all */
    int cache_hits;          /* collections of dM(S) served from the DstPhongCache (0 without one;
                              * with one, also a later sphere's collection whose ball, like the
                              * one before it, holds both models whole: it reuses that dM(S)) */
    int cache_builds;        /* collections that (re)built the DstPhongCache */
} DstPhongResult;

/* PhongDist of model A (at the identity) and model B posed at (R, t) in A's frame (thesis
 * Algorithm 5.1). warm_q: the q of a previous query of the same pair (Algorithm 5.1 line 2),
 * or NULL to predict q from the Euclidean distance (line 4). Returns out->status.
 * Nullable: opt (defaults), warm_q. */
DstStatus dst_phong_distance(const DstPhongModel *a, const DstPhongModel *b, const double R[9],
                             const double t[3], const DstPhongOptions *opt, const double *warm_q,
                             DstPhongWorkspace *ws, DstPhongResult *out);

/* Cache of the enumeration of dM(S) across the queries of one model pair along a coherent motion
 * (Algorithm 5.1 line 2 with motion coherence; docs/math/phong.md sec. 12). It holds the
 * candidate feature pairs (vertex-face, face-vertex, edge-edge) of a collection ball widened by
 * a slack, for every rotation within a turn of the pose at which it was built, in the order of
 * dM(S). A query whose ball and pose stay within that slack (a test on the pose change, not on
 * the answer) re-tests only the candidates, exactly as the walks of the trees would, and gets the
 * same dM(S), hence the same answer bit for bit as without the cache; otherwise the cache is
 * rebuilt. An explicit argument of the query (never state of the workspace): one cache per model
 * pair and thread; it borrows the two models, which must outlive it or be followed by
 * dst_phong_cache_reset(). */
typedef struct DstPhongCache DstPhongCache;

/* Allocates a cache of up to max_candidates feature pairs (<= 0: DST_PHONG_DEFAULT_MAX_CANDIDATES).
 * Returns NULL when out of memory. */
DstPhongCache *dst_phong_cache_create(int max_candidates);

/* Empties a cache (the next query rebuilds it). Nullable: cache. */
void dst_phong_cache_reset(DstPhongCache *cache);

/* Frees a cache. Nullable: cache. */
void dst_phong_cache_destroy(DstPhongCache *cache);

/* dst_phong_distance() with the enumeration of dM(S) cached in cache (see DstPhongCache): the same
 * result, bit for bit, as dst_phong_distance() with the same arguments; faster on a sequence of
 * nearby poses. A cache overflow falls back to the walks of the trees for that query.
 * Nullable: opt, warm_q, cache (NULL: dst_phong_distance()). */
DstStatus dst_phong_distance_cached(const DstPhongModel *a, const DstPhongModel *b, const double R[9],
                                    const double t[3], const DstPhongOptions *opt, const double *warm_q,
                                    DstPhongCache *cache, DstPhongWorkspace *ws, DstPhongResult *out);

#endif /* DST_PHONG_H */
