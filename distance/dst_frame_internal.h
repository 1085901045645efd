/* dst_frame_internal.h — helpers on moving frames shared inside distance/ (the mesh MCD and
 * the convex MCD). Not part of the public API; only distance/ and its tests include it. */
#ifndef DST_FRAME_INTERNAL_H
#define DST_FRAME_INTERNAL_H

/* Gram-Schmidt on the columns of R (row-major 3x3, the images of the body axes): writes a
 * rotation Q (det +1) and to *dev a rigorous bound of the Frobenius norm of R - Q (hence of
 * its spectral norm), widened for rounding. Returns 0 (Q, dev unspecified) when a column is
 * too far from unit length to be a rotation's approximation (norm outside (0.5, 2)).
 * Defined in dst_mesh_mcd.c. */
int orthonormalise(const double R[9], double Q[9], double *dev);

#endif /* DST_FRAME_INTERNAL_H */
