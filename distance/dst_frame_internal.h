/* dst_frame_internal.h — helpers on frames and rigid poses shared inside distance/ (the
 * BVH, the mesh MCD, the convex MCD, the vertex depth, the moving frames). Not part of the
 * public API; only distance/ and its tests include it. */
#ifndef DST_FRAME_INTERNAL_H
#define DST_FRAME_INTERNAL_H

/* Gram-Schmidt on the columns of R (row-major 3x3, the images of the body axes): writes a
 * rotation Q (det +1) and to *dev a rigorous bound of the Frobenius norm of R - Q (hence of
 * its spectral norm), widened for rounding. Returns 0 (Q, dev unspecified) when a column is
 * too far from unit length to be a rotation's approximation (norm outside (0.5, 2)).
 * Defined in dst_mesh_mcd.c. */
int dst_frame_orthonormalise(const double R[9], double Q[9], double *dev);

/* 1 when R (row-major 3x3) is a proper rotation within DST_ROTATION_TOL: finite, R R^T = I,
 * det R > 0. Defined in dst_motion.c. */
int dst_is_rotation(const double R[9]);

/* The rigid map taking B's frame to A's: x_A = R x_B + t, R = Ra^T Rb, t = Ra^T (xb - xa),
 * for poses (Ra, xa), (Rb, xb) of A and B in the world (x_world = R x + x). */
typedef struct DstRelPose {
    double R[9], t[3];
} DstRelPose;

static inline void dst_rel_pose(const double Ra[9], const double xa[3], const double Rb[9],
                                const double xb[3], DstRelPose *p)
{
    double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) p->R[3 * i + j] = Ra[i] * Rb[j] + Ra[3 + i] * Rb[3 + j] + Ra[6 + i] * Rb[6 + j];
        p->t[i] = Ra[i] * d[0] + Ra[3 + i] * d[1] + Ra[6 + i] * d[2];
    }
}

/* o = R v + t */
static inline void dst_rel_apply(const DstRelPose *p, const double v[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = p->R[3 * i] * v[0] + p->R[3 * i + 1] * v[1] + p->R[3 * i + 2] * v[2] + p->t[i];
}

#endif /* DST_FRAME_INTERNAL_H */
