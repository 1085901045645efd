/* pln_kin.h — forward kinematics, Jacobians and centre of mass of a PlnRobot.
 *
 * Contract. A PlnKinWork is a per-thread workspace created for one robot model
 * (pln_kin_create); it holds the world pose of every link for the joint vector last
 * given to pln_kin_forward(). After creation nothing allocates. The robot model is
 * borrowed `const` by every call and must be the one the workspace was created for
 * (same n_links, n_joints; it is not copied and must outlive the workspace's use), and
 * unchanged between calls: a call recomputes only the links whose joint value or
 * ancestors changed since the last call with the same robot and base pose (the others
 * would get the same numbers again), so a model edited in place needs a new workspace.
 *
 * Conventions (planner/model/pln_robot.h): T_world_link = T_world_parent * T(origin_pos,
 * origin_rot) * Rot(axis, q) (revolute) or * Trans(q axis) (prismatic); the root's parent pose is the base pose (base_pos,
 * base_rot). World frame, metres, radians, kg. Rotations are row-major 3x3
 * (R[3*i + j]). Jacobians are row-major 3 x n_joints: J[r * n_joints + j] is the
 * derivative of world coordinate r with respect to joint j (metres/rad for positional,
 * rad/rad for rotational: omega = J_w * q'; m/m and 0 for a prismatic joint). Columns of joints that do not move the
 * link (not on its chain to the root, or PLN_JOINT_FIXED) are zero. Fixed joints
 * ignore q[j] (treated as 0).
 *
 * Formulas (docs/math/kinematics.md): Rodrigues' rotation formula and the revolute-joint
 * Jacobian columns J_p,j = a_j x (x - o_j), J_w,j = a_j, with a_j the joint axis and o_j
 * the joint origin in the world; the prismatic columns J_p,j = a_j, J_w,j = 0 (K.15). The MCD gradient of DESIGN.md section 6
 * takes J_p of the witness points at the witness time from here. */
#ifndef PLN_KIN_H
#define PLN_KIN_H

#include <stddef.h>

#include "model/pln_robot.h"
#include "base/pln_status.h"

typedef struct PlnKinWork PlnKinWork;

/* Checks everything the kinematics rely on: topological order, joint <-> link indices,
 * unit axes within PLN_KIN_AXIS_UNIT_TOL, orthonormal rotations within
 * PLN_KIN_ROT_ORTHO_TOL, finite numbers, non-negative masses. Returns PLN_OK or
 * PLN_ERR_INVALID with err naming the link or joint at fault. Nullable: err. */
PlnStatus pln_kin_validate(const PlnRobot *robot, char *err, size_t err_size);

/* Validates the model as pln_kin_validate() does and allocates a workspace for it into
 * *out (the only allocation of this module). On failure
 * *out is NULL and err names the link or joint at fault. Returns PLN_OK,
 * PLN_ERR_INVALID (bad model) or PLN_ERR_NOMEM. Nullable: err (with err_size 0). */
PlnStatus pln_kin_create(const PlnRobot *robot, PlnKinWork **out, char *err, size_t err_size);

/* Frees a workspace. Nullable: w. */
void pln_kin_destroy(PlnKinWork *w);

/* Forward kinematics of every link frame for joint positions q[n_joints] (rad).
 * Returns PLN_ERR_INVALID (and leaves the previous poses) if q is NULL or holds a NaN or
 * inf. */
PlnStatus pln_kin_forward(PlnKinWork *w, const PlnRobot *robot, const double *q);

/* Forward kinematics as pln_kin_forward() but from the base pose (base_pos, metres;
 * base_rot, row-major 3x3, orthonormal) given here instead of the robot's: the floating
 * base of the dynamics (model/pln_dyn.h). Returns PLN_ERR_INVALID on a NULL or non-finite
 * input (previous poses left). */
PlnStatus pln_kin_forward_base(PlnKinWork *w, const PlnRobot *robot, const double base_pos[3],
                               const double base_rot[9], const double *q);

/* World rotation (9, row-major) and position (3, metres) of a link frame after the last
 * pln_kin_forward(). Borrowed pointers into the workspace, valid until the next call; an
 * out-of-range link gives the identity rotation / the zero vector. */
const double *pln_kin_link_rot(const PlnKinWork *w, int link);
const double *pln_kin_link_pos(const PlnKinWork *w, int link);

/* World unit axis (3) of the revolute or prismatic joint moving `link` (the axis of
 * rotation or the direction of translation) after the last forward call;
 * the zero vector for a fixed joint, the root, or an out-of-range link. Borrowed. */
const double *pln_kin_joint_axis(const PlnKinWork *w, int link);

/* World position of a body point given in the link frame: x = p + R * local. */
void pln_kin_point(const PlnKinWork *w, int link, const double local[3], double world[3]);

/* Positional Jacobian of the body point `local` (link frame, metres) of `link`:
 * J[3 * n_joints], row-major, dx/dq (m/rad), column j = a_j x (x - o_j) for every
 * revolute joint j on the chain of `link`, a_j (m/m) for every prismatic one, zero otherwise (all zero for an out-of-range
 * link). Uses the pose of the last pln_kin_forward(): for the MCD gradient call
 * pln_kin_forward(q(t*)) first, then this for each witness point. */
void pln_kin_jacobian_point(const PlnKinWork *w, const PlnRobot *robot, int link,
                            const double local[3], double *J);

/* Rotational (angular-velocity) Jacobian of `link`: J[3 * n_joints], row-major, world
 * frame, omega = J q' (rad/s per rad/s), column j = a_j for a revolute joint on the
 * chain, zero otherwise (prismatic joints do not turn the link). */
void pln_kin_jacobian_rot(const PlnKinWork *w, const PlnRobot *robot, int link, double *J);

/* Centre of mass of the whole robot in the world frame (metres), mass-weighted over
 * all links (link com in the link frame). Returns PLN_ERR_INVALID when the sum of link
 * masses is zero (com undefined; com left untouched). */
PlnStatus pln_kin_com(const PlnKinWork *w, const PlnRobot *robot, double com[3]);

/* Jacobian of the centre of mass, J[3 * n_joints], row-major (m/rad). Returns
 * PLN_ERR_INVALID when the sum of link masses is zero (J left untouched). */
PlnStatus pln_kin_jacobian_com(const PlnKinWork *w, const PlnRobot *robot, double *J);

/* Rotation from roll, pitch, yaw about the fixed x, y, z axes (rad):
 * R = Rz(yaw) Ry(pitch) Rx(roll), row-major 3x3. Used for every rpy of the robot and
 * scenario files. */
void pln_kin_rpy_to_matrix(const double rpy[3], double R[9]);

/* Rot(axis, q) = I + sin q K + (1 - cos q) K^2, K = [axis]x (Rodrigues' formula), row-
 * major 3x3; axis a unit vector, q in rad. */
void pln_kin_joint_rotation(const double axis[3], double q, double Rot[9]);

#endif /* PLN_KIN_H */
