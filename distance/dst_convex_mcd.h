/* dst_convex_mcd.h — minimum of the continuous distance between a moving capsule and a
 * static convex shape (a box, a convex hull, any dst_convex.h shape), e.g. an obstacle of
 * the environment.
 *
 * Same contract as the capsule MCD (dst_capsule.h): over [t0, t1] the capsule's segment
 * endpoints move along polynomials with enclosure radii (dst_motion.h); the result has
 * `upper`, the signed distance of the polynomial capsule to the shape at a real time
 * `t_min` with witness points pA (capsule) and pB (shape) and the unit normal n from the
 * shape to the capsule, and `lower`, a certified lower bound of the true signed distance
 * over the whole interval (enclosures included). Golden-section search proposes the
 * minimum (thesis sec. III.B); conservative advancement along separating directions
 * certifies it (sec. III.C-D): DST_CERTIFIED when upper - lower <= eps, DST_NOT_CERTIFIED
 * when the enclosures alone exceed eps, DST_ITER_LIMIT when the step cap ended it (the
 * bounds are valid in every case but DST_INVALID_INPUT / DST_FAILED). Allocation-free. */
#ifndef DST_CONVEX_MCD_H
#define DST_CONVEX_MCD_H

#include "dst_capsule.h"
#include "dst_convex.h"
#include "dst_motion.h"

/* Nullable: opt (defaults). b is static and must be valid (dst_convex_validate). */
DstStatus dst_capsule_convex_mcd(const DstMovingCapsule *a, const DstConvex *b, double t0,
                                 double t1, const DstMcdOptions *opt, DstMcdResult *out);

#endif /* DST_CONVEX_MCD_H */
