/* dst_convex_mcd.h — minimum of the continuous distance (MCD) of convex shapes in motion:
 * a moving capsule against a static convex shape (dst_capsule_convex_mcd), and two convex
 * shapes (hulls, boxes, spheres, capsules, ellipsoids) each carried by a moving frame
 * (dst_convex_mcd), e.g. convex-hull or ellipsoid link geometry of a robot.
 *
 * Same contract as the capsule MCD (dst_capsule.h): over [t0, t1] the motion is polynomial in
 * s = (t - t0)/(t1 - t0) with enclosure radii (dst_motion.h); the result has `upper`, the
 * signed distance of the nominal shapes at a real time `t_min` with witness points pA (on a)
 * and pB (on b) and the unit normal n from b to a, and `lower`, a certified lower bound of the
 * true signed distance over the whole interval (enclosures and rounding included).
 * Golden-section search proposes the minimum (thesis sec. III.B); conservative advancement
 * along separating directions certifies it (sec. III.C-D): DST_CERTIFIED when
 * upper - lower <= eps, DST_NOT_CERTIFIED when the enclosures alone exceed eps,
 * DST_ITER_LIMIT when the step cap ended it (the bounds are valid in every case but
 * DST_INVALID_INPUT / DST_FAILED). Allocation-free, no global state.
 * Derivations: docs/math/capsule_mcd.md sec. "Static convex obstacles" (eq. C1-C5) and
 * sec. "Two moving convex shapes" (eq. M1-M10). */
#ifndef DST_CONVEX_MCD_H
#define DST_CONVEX_MCD_H

#include "dst_capsule.h"
#include "dst_convex.h"
#include "dst_motion.h"

/* Nullable: opt (defaults). b is static and must be valid (dst_convex_validate). */
DstStatus dst_capsule_convex_mcd(const DstMovingCapsule *a, const DstConvex *b, double t0,
                                 double t1, const DstMcdOptions *opt, DstMcdResult *out);

/* A convex shape (dst_convex.h) carried by a moving frame (dst_motion.h DstMovingFrame, what
 * planner's pln_linkmotion_frame exports: polynomial rotation R(s) with spectral-norm error
 * R_err, polynomial origin with enclosure err, s = (t - t0)/(t1 - t0)). shape->rot / shape->pos
 * are ignored: the shape's local frame is placed by the frame. Borrowed. */
typedef struct DstMovingConvex {
    const DstConvex *shape;
    DstMovingFrame frame;
} DstMovingConvex;

/* MCD of two moving convex shapes over [t0, t1] by conservative advancement (thesis sec.
 * III.C-D; docs/math/capsule_mcd.md eq. M1-M10), same result contract as dst_capsule_mcd /
 * dst_capsule_convex_mcd (DstMcdResult): upper = signed distance (GJK, EPA when overlapping)
 * of the nominal placements (R(s) orthonormalised by Gram-Schmidt as dst_mesh_mcd does, origin
 * x(s)) at a real time t_min, with witnesses pA (on a), pB (on b), world, metres, and unit
 * normal n from b to a (cA = pA, cB = pB, sA = sB = 0: there is no segment); lower =
 * certified lower bound of the TRUE signed distance over [t0, t1] (frame enclosures
 * R_err * reach + origin.err, the orthonormalisation deviation, GJK's own gap and rounding
 * included). Status DST_CERTIFIED when upper - lower <= eps, DST_NOT_CERTIFIED when the
 * enclosures alone exceed eps, DST_ITER_LIMIT when opt->max_iter advancement steps (or
 * 4 max_iter distance evaluations) ended it, or when past half of them the walk lowered its
 * level to end within them (eq. M9b; bounds still valid either way), DST_INVALID_INPUT (NULL,
 * invalid shape (dst_convex_validate), invalid frame, non-finite or t1 < t0, bad options;
 * zeros), DST_FAILED (a rotation polynomial too far from a rotation to orthonormalise, or a
 * static query failed; zeros). t0 == t1 is the single instant s = 0. Every shape kind is
 * supported; a DST_CONVEX_CUSTOM shape's reach is bounded from its supports along the six
 * axes, so its support must be exact. Allocation-free. Nullable: opt (defaults; eps, tau and
 * max_iter are used), cache (GJK warm start for this pair; a local one otherwise). */
DstStatus dst_convex_mcd(const DstMovingConvex *a, const DstMovingConvex *b, double t0, double t1,
                         const DstMcdOptions *opt, DstGjkCache *cache, DstMcdResult *out);

/* Baseline: certified uniform sampling (thesis eq. 6.3) of the same problem with the same
 * result contract: n samples with n chosen from the direction-free motion bound (eq. M7) so
 * that the Lipschitz gap between neighbours stays below eps less the enclosures (capped at
 * opt->max_samples, then DST_ITER_LIMIT). Nullable: opt, cache. */
DstStatus dst_convex_mcd_sampling(const DstMovingConvex *a, const DstMovingConvex *b, double t0,
                                  double t1, const DstMcdOptions *opt, DstGjkCache *cache,
                                  DstMcdResult *out);

/* The nominal signed distance at local parameter s in [0, 1] (what `upper` is made of): both
 * shapes placed by the Gram-Schmidt orthonormalised R(s) and the origin x(s), then
 * dst_convex_distance. *dev receives the bound (metres) on how far any point of the
 * polynomial (affine) shapes x(s) + R(s) l lies from these rigid placements. Returns the
 * status of dst_convex_distance, DST_INVALID_INPUT (NULL), or DST_FAILED (a rotation
 * polynomial too far from a rotation). Shapes and frames are not validated here.
 * Nullable: cache, dev. */
DstStatus dst_convex_mcd_nominal(const DstMovingConvex *a, const DstMovingConvex *b, double s,
                                 DstGjkCache *cache, DstConvexDistance *out, double *dev);

/* Reach of a shape about its local origin (eq. M1): an upper bound, metres, of |l| over every
 * point l of the shape (core plus margin) in its local frame, widened for rounding; exact
 * for every kind but DST_CONVEX_CUSTOM (bounding box of the six axis supports). NaN when a
 * vertex or size is not finite. shape not NULL. */
double dst_convex_reach(const DstConvex *shape);

#endif /* DST_CONVEX_MCD_H */
