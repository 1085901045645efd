/* pln_contact.h — the feet on the floor: the zero-moment point and the split of the
 * contact wrench between two soles (docs/math/dynamics.md sec. "Contact", eq. D17-D21).
 *
 * Contract. Pure functions of their inputs, no allocation, thread-safe. Wrenches are
 * [moment about the world origin; force] (N m, N), as rows 0..5 of pln_dyn_rnea's tau:
 * W is the wrench the floor must give the robot. The floor is the horizontal plane
 * z = floor_z; soles are rectangles on it (model/pln_robot.h, PlnSole). */
#ifndef PLN_CONTACT_H
#define PLN_CONTACT_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"

/* The soles on the floor at one instant (a support phase), in the world. */
typedef struct PlnSupport {
    int n_feet;              /* 1 or 2 */
    int link[2];             /* foot links */
    double centre[2][2];     /* sole centres on the floor, world xy, m */
    double floor_z;          /* height of the floor, m */
} PlnSupport;

/* The zero-moment point of the wrench W on the floor z = floor_z (eq. D16, D17):
 *   p_x = (z f_x - n_y) / f_z,  p_y = (n_x + z f_y) / f_z,
 * and the free moment tau_z = n_z - (p_x f_y - p_y f_x) about the vertical through it.
 * Returns 0 when f_z <= min_fz (no ZMP: the floor would have to pull), 1 otherwise. */
int pln_contact_zmp(const double W[6], double floor_z, double min_fz, double zmp[2],
                    double *tau_z);

/* The split of W between the soles of s (eq. D18-D21). One foot carries everything.
 * With two, the force goes in the ratio alpha of the ZMP's position along the line from
 * the second sole's centre to the first's, clamped to [0, 1] (after the force
 * distribution of Kajita et al., "Biped walking stabilization based on linear inverted
 * pendulum tracking", IROS 2010, which splits by the ZMP's position between the ankles):
 *   f_1 = alpha f, f_2 = (1 - alpha) f;
 * each sole's centre of pressure is its own centre shifted by the same offset, so that
 * they average (weighted by alpha) to the ZMP: c_1 = p + (1 - alpha) d, c_2 = p - alpha d,
 * d = centre_1 - centre_2; the free moment splits in the same ratio. The per-foot wrenches
 * (about the world origin) sum to W exactly.
 * Outputs: wrench[k][6] of foot k, and when dwrench is not NULL its derivative
 * dwrench[k][r][c] = d wrench[k][r] / d W[c] (forward-mode, exact). Returns 0 (outputs
 * untouched) when f_z <= min_fz, else 1. */
typedef struct PlnContactSplit {
    double zmp[2];
    double tau_z;
    double alpha;            /* share of foot 0 (1 with one foot) */
    double wrench[2][6];
    double dwrench[2][6][6];
} PlnContactSplit;

int pln_contact_split(const PlnSupport *s, const double W[6], double min_fz,
                      PlnContactSplit *out, int with_derivative);

/* The torque of joint j (eq. D21): tau0, the RNEA's torque of the robot held at the waist
 * (pln_dyn_rnea's tau[6 + j]), minus the share of every sole of s that hangs below the
 * joint: tau_j = tau0 - z . (n_k - p x f_k), with z the joint's world axis and p its
 * world origin, (n_k, f_k) = sp->wrench[k]; for a prismatic joint (a force, N)
 * tau_j = tau0 - z . f_k (eq. D21b). When dW is not NULL, adds d tau_j / d W
 * (through sp->dwrench) into dW[6]. */
double pln_contact_joint_torque(const PlnRobot *robot, const PlnSupport *s,
                                const PlnContactSplit *sp, int j, double tau0,
                                const double z[3], const double p[3], double *dW);

/* The rest of d tau_j / dq at fixed wrenches: the joint's axis z and origin p turn with
 * the joints above it (turning both, or sliding p), which changes the soles' share
 * z . (n_k - p x f_k) (prismatic j: z . f_k). Adds scale *
 * d tau_j / dq_i into g[6 + i] for every joint i (kin at the posture of sp). The full
 * derivative of eq. D21 is this plus dW (pln_contact_joint_torque) chained through the
 * RNEA derivatives of W and tau0. */
void pln_contact_joint_torque_dq(const PlnRobot *robot, const PlnKinWork *kin,
                                 const PlnSupport *s, const PlnContactSplit *sp, int j,
                                 double scale, double *g);

/* The support of `feet` (links with soles in robot) at the posture whose link frames are
 * R (row-major) and p: sole centres and the floor height. PLN_ERR_INVALID (message names
 * the link) when a sole is not horizontal, or when two soles are not at one height,
 * within tol (m; the sole's corners). Rot/pos give link frames: rot(link), pos(link). */
PlnStatus pln_contact_support(const PlnRobot *robot, const int *feet, int n_feet,
                              const double *const *rot, const double *const *pos, double tol,
                              PlnSupport *out, char *err, size_t err_size);

#endif /* PLN_CONTACT_H */
