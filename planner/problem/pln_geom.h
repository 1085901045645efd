/* pln_geom.h — the collision geometry of a problem's pairs and the two questions the
 * planner asks of a pair: its static signed distance at a posture, and its minimum
 * continuous distance (MCD) over an interval of the link motion.
 *
 * Contract. pln_geom_create() loads, once, the shapes of every link and obstacle that
 * appears in a pair, in the kind the scenario's `collision.geometry` names
 * (docs/SCENARIO_FORMAT.md): capsules (nothing to load), convex hulls of the link meshes
 * (or of the robot file's `convex` files), the links' ellipsoids, or triangle meshes with
 * their bounding-volume hierarchies. Obstacles take the same kind where they can: under
 * convex and ellipsoid geometry a capsule, sphere or box obstacle is the matching convex
 * shape; under mesh geometry a box obstacle is its 12-triangle mesh and a mesh obstacle its
 * file, scaled and placed. The model is immutable after creation and shared by threads;
 * the queries keep their warm starts in a caller's PlnGeomCache (one per pair and thread).
 *
 * Every distance is the Euclidean signed distance (> 0 apart, < 0 overlapping) of the
 * true shapes; every MCD `lower` is certified over the interval, enclosures of the Taylor
 * models included (dst_capsule.h, dst_convex_mcd.h, dst_mesh_mcd.h). Which distance routine
 * answers which pair (docs/ARCHITECTURE.md "Pair geometry"):
 *   capsule   link-link, capsule/sphere obstacle   dst_capsule_mcd (thesis ch. III)
 *             box obstacle                         dst_capsule_convex_mcd
 *   convex    every pair                           dst_convex_mcd (GJK/EPA + CA)
 *   ellipsoid every pair                           dst_convex_mcd
 *   mesh      every pair                           dst_mesh_mcd (thesis ch. IV)
 * With `collision.distance: phong` (mesh geometry only) every mesh also gets its PhongDist
 * model (dst_phong.h), and pln_geom_pair_phong() answers the direction-continuous signed
 * distance of a pair with its gradient w.r.t. the relative pose (docs/math/planner.md
 * sec. 7b); the MCD and every certified bound stay Euclidean.
 * Lengths metres, times seconds, frames world unless said. */
#ifndef PLN_GEOM_H
#define PLN_GEOM_H

#include <stddef.h>

#include "dst_bvh.h"
#include "dst_capsule.h"
#include "dst_convex.h"
#include "dst_mesh_mcd.h"
#include "dst_phong.h"
#include "model/pln_kin.h"
#include "motion/pln_linkmotion.h"
#include "model/pln_robot.h"
#include "problem/pln_scenario.h"
#include "base/pln_status.h"

/* The static distance of a pair: signed distance (m), witness points on A and on B
 * (world) and the unit normal from B to A (pA - pB = distance n). `lower` is a lower bound
 * of the signed distance: equal to it up to rounding, except where two non-convex meshes
 * overlap and the depth is only bracketed: there `distance` is the bracket's upper end,
 * minus the deepest-penetrating-vertex depth (dst_mesh_depth.h; 0 when the surfaces cross
 * with no vertex inside), with that vertex and its closest surface point as witnesses,
 * and `lower` is minus the depth of the convex hulls (dst_bvh.h). */
typedef struct PlnPairDistance {
    double distance;
    double lower;
    double pA[3], pB[3], n[3];
} PlnPairDistance;

/* One loaded shape (a link's or an obstacle's). */
typedef struct PlnGeomShape {
    int loaded;            /* 1 when the pairs use it */
    int has_bvh;           /* mesh geometry: bvh is built */
    DstBvh bvh;            /* mesh geometry: the mesh in its frame */
    int has_phong;         /* distance phong: phong is built */
    DstPhongModel phong;   /* distance phong: the closed mesh in the same frame as bvh */
    int has_hull;          /* convex geometry: hull is built (convex points borrow it) */
    DstHull hull;
    DstConvex convex;      /* convex / ellipsoid geometry: the shape in its own frame */
    double reach;          /* max |x| over the shape in its own frame, metres */
    double rot[9];         /* the shape's frame in the link frame (links) or the world
                              (obstacles), row-major */
    double pos[3];
} PlnGeomShape;

typedef struct PlnGeom {
    const PlnRobot *robot;       /* borrowed */
    const PlnScenario *scenario; /* borrowed, resolved */
    PlnGeometryKind kind;
    PlnDistanceKind distance;    /* the scenario's collision.distance */
    int n_links, n_obstacles;    /* the robot's and scenario's counts at creation */
    PlnGeomShape *links;         /* [n_links] */
    PlnGeomShape *obstacles;     /* [n_obstacles] */
    long triangles;              /* triangles loaded (mesh geometry), for progress messages */
} PlnGeom;

/* Warm starts of one pair's queries (zero-initialise, or pln_geom_cache_reset). */
typedef struct PlnGeomCache {
    DstBvhCache bvh;
    DstGjkCache gjk;
    int have_phong_q;      /* phong_q holds the last converged Phong projection */
    double phong_q[3];     /* in A's shape frame, metres (dst_phong_distance warm_q) */
} PlnGeomCache;

void pln_geom_cache_reset(PlnGeomCache *cache);

/* Per-interval memo of the links' swept shapes (one per workspace and thread): for each
 * link, its moving capsule (capsule geometry) and the axis-aligned box that holds the
 * centre set of its shape over the whole interval, with the radius that the shape reaches
 * beyond it (docs/math/planner.md eq. P16). Entries are filled on demand and hold for one
 * compute of one link motion: the memo notes which (pointer and
 * pln_linkmotion_generation) and forgets its entries by itself when either changes. */
typedef struct PlnGeomSweep {
    const PlnLinkMotion *lm;            /* the motion the entries belong to */
    unsigned long generation;           /* and its compute (the frames') */
    int n_links;
    /* [n_links] the link's stamp (pln_linkmotion_link_stamp) when its box and capsule were
     * made, 0 for none: they hold across computes that keep the link's models */
    unsigned long *box_stamp, *caps_stamp;
    /* [n_links] the compute (generation) in which the box was last made or found current:
     * within it, a box is read without asking the motion for the link's stamp */
    unsigned long *box_gen;
    double (*box)[6];                   /* [n_links] lo x, y, z, hi x, y, z, metres */
    double *reach;                      /* [n_links] metres beyond the box */
    DstMovingCapsule *caps;             /* [n_links] capsule geometry */
    /* convex and ellipsoid shape frames (docs/math/planner.md sec. 4e): per link up to
     * PLN_GEOM_FRAME_SLOTS frames, each in the frame of link frame_anc (-1: the world;
     * PLN_GEOM_NO_FRAME: empty slot) */
    int *frame_anc;                     /* [n_links * PLN_GEOM_FRAME_SLOTS] */
    DstMovingFrame *frames;             /* [n_links * PLN_GEOM_FRAME_SLOTS] */
} PlnGeomSweep;

/* Frames of one link kept per interval (the world's and a few ancestors'), and the mark of
 * an empty slot. */
#define PLN_GEOM_FRAME_SLOTS 4
#define PLN_GEOM_NO_FRAME (-2)

/* Allocates a sweep for g's links (PLN_ERR_NOMEM); destroy frees its arrays. */
PlnStatus pln_geom_sweep_init(PlnGeomSweep *s, const PlnGeom *g, char *err, size_t err_size);
void pln_geom_sweep_destroy(PlnGeomSweep *s);
void pln_geom_sweep_reset(PlnGeomSweep *s);

/* Loads the geometry the pairs of a resolved scenario need. PLN_ERR_INVALID names the
 * file and what is wrong with it (unreadable or degenerate mesh, a hull of flat points;
 * with distance phong a mesh that is not closed, consistently oriented and manifold);
 * PLN_ERR_NOMEM. On failure *out is NULL. */
PlnStatus pln_geom_create(PlnGeom **out, const PlnRobot *robot, const PlnScenario *scenario,
                          char *err, size_t err_size);
void pln_geom_destroy(PlnGeom *g);

/* Static signed distance of pair `pair` at the link poses of kin (after pln_kin_forward).
 * Nullable: cache. Returns DST_OK, or the distance routine's failure status (then *out
 * is zero). */
DstStatus pln_geom_pair_distance(const PlnGeom *g, const PlnKinWork *kin, int pair,
                                 PlnGeomCache *cache, PlnPairDistance *out);

/* PhongDist of a mesh pair (distance phong), in the world frame, with its gradient
 * w.r.t. the relative pose of the two shape frames. With (R_A, x_A), (R_B, x_B) the world
 * poses of the shapes' frames, B is posed in A's frame at R = R_A^T R_B,
 * t = R_A^T (x_B - x_A), and the gradient is returned rotated into the world:
 * grad_t = R_A d distance / d t, grad_w = R_A d distance / d w (w the small rotation of
 * B about its origin, axis in A's frame; dst_phong.h). A first-order change of the
 * poses by (v_A, omega_A, v_B, omega_B) (velocities of the frames' origins and angular
 * velocities, world) changes the distance by
 *   grad_t . (v_B - v_A - omega_A x (x_B - x_A)) + grad_w . (omega_B - omega_A)   (P18)
 * (docs/math/planner.md sec. 7b). */
typedef struct PlnPairPhong {
    DstStatus status;      /* dst_phong_distance's: DST_SEPARATED, DST_TOUCHING,
                              DST_PENETRATING; DST_ITER_LIMIT, DST_FAILED, DST_INVALID_INPUT
                              when it did not converge or failed (the caller falls back) */
    double distance;       /* signed PhongDist, metres */
    double pA[3], pB[3];   /* witness points, world */
    double n[3];           /* unit direction from B to A, world */
    double grad_t[3];      /* world frame, m/m (zero when not asked for) */
    double grad_w[3];      /* world frame, m/rad */
    double origin_a[3], origin_b[3]; /* x_A, x_B: the shape frames' origins, world */
} PlnPairPhong;

/* PhongDist of pair `pair` at the link poses of kin (after pln_kin_forward), warm-started
 * from and updating cache->phong_q (the q of the last converged query of this cache).
 * phong_cache: the enumeration of dM(S) kept across this pair's queries
 * (dst_phong_distance_cached; the same answer bit for bit as without it), used by this pair
 * only. gradient: 1 fills grad_t, grad_w. ws: the caller's (thread's) workspace. Returns
 * out->status; DST_INVALID_INPUT when g has no Phong models (distance euclidean).
 * Nullable: cache (cold start), phong_cache (no cache). */
DstStatus pln_geom_pair_phong(const PlnGeom *g, const PlnKinWork *kin, int pair,
                              PlnGeomCache *cache, DstPhongCache *phong_cache, int gradient,
                              DstPhongWorkspace *ws, PlnPairPhong *out);

/* MCD of pair `pair` over [t0, t1] from the link motion in lm (pln_linkmotion_compute on
 * that interval). `method` chooses the capsule method (capsule geometry); the others have
 * one certified method each. stop_above (m, +INFINITY = never): the query may stop as
 * soon as a certified lower bound reaches it (status DST_ABOVE_LIMIT): a mesh query inside
 * its search (dst_mesh_mcd.h); a capsule, convex or ellipsoid pair when the swept boxes
 * of its two shapes are that far apart (eq. P16), before any MCD; then `lower` is that
 * bound, t_min the interval's middle and `upper` +INFINITY (no distance was computed).
 * Nullable: opt (defaults), cache, sweep (the per-interval memo of lm's links; NULL
 * computes what is needed), a_out and b_out (the moving capsules of a capsule pair,
 * zeroed for the other kinds). Returns res->status. */
DstStatus pln_geom_pair_mcd(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                            DstMcdMethod method, double t0, double t1, const DstMcdOptions *opt,
                            double stop_above, PlnGeomCache *cache, PlnGeomSweep *sweep,
                            DstMcdResult *res, DstMovingCapsule *a_out, DstMovingCapsule *b_out);

/* A certified lower bound of the distance between the two shapes of pair `pair` over the
 * whole interval of lm: the distance between their swept boxes less the radii that the
 * shapes reach beyond them (eq. P16). -INFINITY for mesh geometry. sweep nullable. */
double pln_geom_pair_swept_lower(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                                 PlnGeomSweep *sweep);

/* Time of first contact of a mesh pair over [t0, t1] (dst_mesh_first_contact with prism
 * culling): the first time the pair comes within d metres, bracketed to within
 * PLN_CONTACT_TIME_TOL_S, or a certified "never" (dst_mesh_mcd.h DstMeshToc). eps (m, > 0)
 * is the accuracy of the bracket's end. Mesh geometry only: other kinds return
 * DST_INVALID_INPUT with *out zeroed. */
DstStatus pln_geom_pair_first_contact(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                                      double t0, double t1, double d, double eps,
                                      DstMeshToc *out);

/* The moving capsules of a capsule pair from the link motion (obstacles do not move). */
void pln_geom_pair_capsules(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                            DstMovingCapsule *a, DstMovingCapsule *b);

/* "capsule", "convex", "ellipsoid", "mesh". */
const char *pln_geometry_string(PlnGeometryKind kind);

#endif /* PLN_GEOM_H */
