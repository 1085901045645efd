/* pln_capfit.h — an enclosing capsule fitted to a point set (docs/math/capsule_fit.md).
 *
 * Used by the URDF importer (model/pln_urdf.c) to give every link with collision
 * geometry the capsule that the capsule method of the thesis (ch. III) needs, when the
 * robot file gives meshes or primitives instead. The result ENCLOSES every input point:
 * after the fit, the radius is raised to the largest distance of any input point to the
 * segment, plus a rounding margin (eq. CF5), so the capsule's clearance is a lower bound
 * of the shape's. Tightness is a heuristic: the smallest volume found over the principal
 * axes of the points' hull and a pattern search around them (eq. CF1-CF4). */
#ifndef PLN_CAPFIT_H
#define PLN_CAPFIT_H

#include <stddef.h>

#include "base/pln_status.h"

typedef struct PlnCapsuleFit {
    double p0[3], p1[3];   /* segment endpoints (p0 == p1 for a sphere), point frame, m */
    double radius;         /* m, >= PLN_CAPFIT_MIN_RADIUS_M */
    double volume;         /* pi r^2 |p1 - p0| + 4/3 pi r^3, m^3 */
    double max_excess;     /* max over the points of dist(point, segment) - radius, m:
                            * <= 0 certifies the enclosure (the fit checks it) */
    int n_candidates;      /* points the axis search used (hull vertices, or all) */
} PlnCapsuleFit;

/* Fits an enclosing capsule to pts[n][3] (metres, n >= 1, finite). Returns PLN_OK;
 * PLN_ERR_INVALID for n < 1 or a non-finite coordinate; PLN_ERR_NOMEM. Deterministic. */
PlnStatus pln_capsule_fit(const double *pts, int n, PlnCapsuleFit *out, char *err,
                          size_t err_size);

/* Distance from x to the segment [p0, p1] (p0 == p1 allowed), m. */
double pln_capfit_segment_distance(const double x[3], const double p0[3], const double p1[3]);

/* An orthonormal right-handed frame (e1, e2, u) around the unit vector u. */
void pln_capfit_frame(const double u[3], double e1[3], double e2[3]);

#endif /* PLN_CAPFIT_H */
