/* dst_tolerance.h — every numerical tolerance of distance/, with its unit and reason.
 *
 * Local tolerances inside the kernels are derived from these; no bare literal
 * thresholds appear in the algorithms. User-facing tolerances (MCD eps, GSS tau)
 * are options whose defaults are defined here as the seeds give them. */
#ifndef DST_TOLERANCE_H
#define DST_TOLERANCE_H

/* Smallest denominator accepted in a guarded division (dimensionless or m^2):
 * below it the quantity is treated as degenerate and the explicit branch is taken. */
#define DST_MIN_DENOM 1e-300

/* Default certified error of a continuous distance query, metres (thesis sec. VI.A.3,
 * eq. 6.1: eps = 1e-3 m). */
#define DST_DEFAULT_MCD_EPS 1e-3

/* Default golden-section bracket width tau, seconds (thesis sec. III.B). */
#define DST_DEFAULT_GSS_TAU 1e-3

/* Default iteration cap of conservative advancement (thesis sec. VI.A.3 used 500). */
#define DST_DEFAULT_CA_MAX_ITER 500

/* Mesh files (dst_mesh.c). Largest accepted |coordinate|, metres: nothing a robot meets
 * is a kilometre across, so a larger number is a unit mistake (millimetres read as
 * metres are still accepted) or garbage. */
#define DST_MESH_MAX_COORD 1e3

/* Largest accepted vertex or triangle count of one mesh: 2^26 (67 million), some 670
 * times the largest scene object of the seeds (a 100k-triangle statue) and far inside
 * int, so that index arithmetic cannot overflow. */
#define DST_MESH_MAX_ELEMENTS (1 << 26)

/* A triangle is degenerate when its area is below this fraction of the squared diagonal
 * of the mesh's bounding box (dimensionless): far below any real feature, far above the
 * rounding noise of a collinear triple. */
#define DST_MESH_DEGENERATE_REL 1e-14

#endif /* DST_TOLERANCE_H */
