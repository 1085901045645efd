/* pln_robot_freebase.c — the robot on a free base of six virtual joints: the floating base
 * of a robot that steps from one foot to the other (docs/math/kinematics.md, "Floating
 * base by six virtual joints", K17-K18).
 *
 * The file's root link (the waist) hangs from the world through a chain of three
 * prismatic joints along the world's x, y, z and three revolute joints about z, y, x,
 * all at zero in the file's pose:
 *
 *   T_W_waist = Trans(x e_x + y e_y + z e_z) T(p_0, I) Rz(psi) Ry(theta) Rx(phi) T(0, R_0)  (K17)
 *
 * with (R_0, p_0) the file's base pose (the waist's joint frame is turned by R_0, so its roll
 * axis there is R_0^T e_x). The rotations turn about axes through the waist's
 * origin, parallel to the world's: the waist's yaw, pitch and roll (Z-Y-X), so that
 * (x, y, z) is the waist's displacement and no rotation moves it. The six links between
 * the world and the waist carry no mass and no shape. Every other link, joint, sole and
 * shape of the file is kept; the file's joints keep their index and the virtual ones
 * follow them, so the first n_joints - 6 columns of a state are the robot's own joints.
 * Inverse dynamics with the world link still (dynamics.md) gives, in the virtual joints'
 * torques, the wrench the floor must supply; the contact split (D18-D21) puts it on the
 * soles, below every virtual joint, which then carry nothing.                        (K18) */
#include "model/pln_robot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

static const double IDENTITY[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* the six virtual joints, in chain order (K17) */
static const struct {
    const char *joint, *link;
    PlnJointType type;
    double axis[3];
} FREE_JOINTS[PLN_FREE_BASE_JOINTS] = {
    {"BASE_X", "BASE_X_LINK", PLN_JOINT_PRISMATIC, {1, 0, 0}},
    {"BASE_Y", "BASE_Y_LINK", PLN_JOINT_PRISMATIC, {0, 1, 0}},
    {"BASE_Z", "BASE_Z_LINK", PLN_JOINT_PRISMATIC, {0, 0, 1}},
    {"BASE_YAW", "BASE_YAW_LINK", PLN_JOINT_REVOLUTE, {0, 0, 1}},
    {"BASE_PITCH", "BASE_PITCH_LINK", PLN_JOINT_REVOLUTE, {0, 1, 0}},
    {"BASE_ROLL", NULL, PLN_JOINT_REVOLUTE, {1, 0, 0}}, /* moves the waist itself */
};

/* each virtual joint's position and velocity limits (K17; the position limits are the
 * planner's box, not a robot's) */
static void free_limits(int k, PlnJoint *j)
{
    switch (k) {
    case 0:
    case 1:
        j->lower = -PLN_FREE_BASE_RANGE_XY_M;
        j->upper = PLN_FREE_BASE_RANGE_XY_M;
        j->velocity_max = PLN_FREE_BASE_SPEED_MS;
        break;
    case 2:
        j->lower = -PLN_FREE_BASE_RANGE_Z_M;
        j->upper = PLN_FREE_BASE_RANGE_Z_M;
        j->velocity_max = PLN_FREE_BASE_SPEED_MS;
        break;
    case 3:
        j->lower = -PLN_PI;
        j->upper = PLN_PI;
        j->velocity_max = PLN_FREE_BASE_RATE_RADS;
        break;
    default:
        j->lower = -PLN_FREE_BASE_TILT_RAD;
        j->upper = PLN_FREE_BASE_TILT_RAD;
        j->velocity_max = PLN_FREE_BASE_RATE_RADS;
        break;
    }
}

const char *pln_robot_free_base_joint_name(int k)
{
    return k >= 0 && k < PLN_FREE_BASE_JOINTS ? FREE_JOINTS[k].joint : "?";
}

int pln_robot_joint_is_virtual(const PlnRobot *robot, int j)
{
    return robot->free_base && j >= robot->n_joints - PLN_FREE_BASE_JOINTS && j < robot->n_joints;
}

int pln_robot_body_joints(const PlnRobot *robot)
{
    return robot->free_base ? robot->n_joints - PLN_FREE_BASE_JOINTS : robot->n_joints;
}

PlnStatus pln_robot_free_base(const PlnRobot *in, PlnRobot *out, char *err, size_t err_size)
{
    const int nl = in->n_links + PLN_FREE_BASE_JOINTS, nj = in->n_joints + PLN_FREE_BASE_JOINTS;
    const int shift = PLN_FREE_BASE_JOINTS; /* new index of file link l: l + shift */
    memset(out, 0, sizeof *out);
    if (in->free_base || in->file_root != 0 || in->links[0].parent >= 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "free base: robot '%s' is not rooted at its file's root", in->name);
    }
    for (int k = 0; k < PLN_FREE_BASE_JOINTS; ++k) {
        for (int j = 0; j < in->n_joints; ++j) {
            if (strcmp(in->joints[j].name, FREE_JOINTS[k].joint) == 0) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "robot '%s' has a joint named %s, the name of a virtual joint of "
                                  "the floating base: rename it to plan stepping motions",
                                  in->name, FREE_JOINTS[k].joint);
            }
        }
        for (int l = 0; l < in->n_links; ++l) {
            const char *name = k == 0 ? PLN_FREE_BASE_WORLD_LINK : FREE_JOINTS[k - 1].link;
            if (strcmp(in->links[l].name, name) == 0) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "robot '%s' has a link named %s, the name of a virtual link of "
                                  "the floating base: rename it to plan stepping motions",
                                  in->name, name);
            }
        }
    }
    out->links = calloc((size_t)nl, sizeof *out->links);
    out->joints = calloc((size_t)nj, sizeof *out->joints);
    if (in->n_collision_pairs > 0) {
        out->collision_pairs = calloc((size_t)in->n_collision_pairs, sizeof *out->collision_pairs);
    }
    if (in->n_parts > 0) out->parts = malloc((size_t)in->n_parts * sizeof *out->parts);
    if (!out->links || !out->joints || (in->n_collision_pairs > 0 && !out->collision_pairs) ||
        (in->n_parts > 0 && !out->parts)) {
        pln_robot_destroy(out);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    /* the world link and the five links of the chain: no mass, no shape */
    for (int l = 0; l < shift; ++l) {
        PlnLink *L = &out->links[l];
        snprintf(L->name, sizeof L->name, "%s", l == 0 ? PLN_FREE_BASE_WORLD_LINK : FREE_JOINTS[l - 1].link);
        L->parent = l - 1;
        L->joint = l == 0 ? -1 : in->n_joints + l - 1;
        memcpy(L->origin_rot, IDENTITY, sizeof L->origin_rot);
        memcpy(L->shift_rot, IDENTITY, sizeof L->shift_rot);
        if (l == 1) memcpy(L->origin_pos, in->base_pos, sizeof L->origin_pos); /* p_0 of K17 */
        memcpy(L->geometry.ellipsoid_rot, IDENTITY, sizeof L->geometry.ellipsoid_rot);
        memcpy(L->geometry.file_rot, IDENTITY, sizeof L->geometry.file_rot);
    }
    for (int l = 0; l < in->n_links; ++l) {
        PlnLink *L = &out->links[l + shift];
        *L = in->links[l];
        L->parent = in->links[l].parent + shift;
    }
    /* the waist hangs from BASE_PITCH_LINK by BASE_ROLL, its frame turned by R_0 */
    {
        PlnLink *W = &out->links[shift];
        W->parent = shift - 1;
        W->joint = in->n_joints + shift - 1;
        memset(W->origin_pos, 0, sizeof W->origin_pos);
        memcpy(W->origin_rot, in->base_rot, sizeof W->origin_rot);
    }
    memcpy(out->joints, in->joints, (size_t)in->n_joints * sizeof *out->joints);
    for (int j = 0; j < in->n_joints; ++j) out->joints[j].link += shift;
    for (int k = 0; k < PLN_FREE_BASE_JOINTS; ++k) {
        PlnJoint *J = &out->joints[in->n_joints + k];
        snprintf(J->name, sizeof J->name, "%s", FREE_JOINTS[k].joint);
        J->type = FREE_JOINTS[k].type;
        J->link = k + 1;
        memcpy(J->axis, FREE_JOINTS[k].axis, sizeof J->axis);
        if (k == PLN_FREE_BASE_JOINTS - 1) {
            /* the roll axis in the waist's joint frame, turned by R_0: R_0 Rot(R_0^T e_x, q)
             * = Rx(q) R_0, a roll about the world's x as K17 says */
            for (int d = 0; d < 3; ++d) J->axis[d] = in->base_rot[3 * 0 + d];
        }
        free_limits(k, J);
        J->initial = 0.0;
        J->effort_max = 0.0; /* carries nothing (K18): no torque row */
    }
    if (in->n_parts > 0) memcpy(out->parts, in->parts, (size_t)in->n_parts * sizeof *out->parts);
    out->n_parts = in->n_parts;
    memcpy(out->name, in->name, sizeof out->name);
    out->n_links = nl;
    out->n_joints = nj;
    memcpy(out->base_rot, IDENTITY, sizeof out->base_rot);
    out->control_period = in->control_period;
    out->total_mass = in->total_mass;
    out->has_effort = in->has_effort;
    out->n_collision_pairs = in->n_collision_pairs;
    for (int i = 0; i < in->n_collision_pairs; ++i) {
        out->collision_pairs[i][0] = in->collision_pairs[i][0] + shift;
        out->collision_pairs[i][1] = in->collision_pairs[i][1] + shift;
    }
    out->n_soles = in->n_soles;
    for (int so = 0; so < in->n_soles; ++so) {
        out->soles[so] = in->soles[so];
        out->soles[so].link += shift;
    }
    out->file_root = shift;
    out->free_base = 1;
    return PLN_OK;
}
