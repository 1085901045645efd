/* pln_robot.h — the immutable robot model.
 *
 * A robot is a tree of links rooted at a base link whose pose in the world is fixed
 * (for HRP-2 the waist; the planner treats the base as fixed in the world frame). Links
 * are stored in topological order: parent index < own index, root at 0. Every non-root
 * link hangs from its parent by one joint (revolute about `axis`, or fixed):
 *
 *   T_world_link = T_world_parent * T(origin_pos, origin_rot) * Rot(axis, q)
 *
 * with q = 0 for a fixed joint. Frames are right-handed, x forward, y left, z up; lengths
 * metres, angles radians, masses kg. Rotation matrices are row-major 3x3 (R[3*i + j]).
 * The model is loaded once and passed `const` everywhere; mutable scratch lives in
 * per-thread workspaces (pln_kin_*), never here. */
#ifndef PLN_ROBOT_H
#define PLN_ROBOT_H

#include <stddef.h>

#include "pln_status.h"

#define PLN_NAME_MAX 64

typedef enum PlnJointType {
    PLN_JOINT_REVOLUTE = 0,
    PLN_JOINT_FIXED
} PlnJointType;

/* Collision geometry of a link, in the link frame. Any of the kinds may be absent. */
typedef struct PlnLinkGeometry {
    int has_capsule;
    double capsule_p0[3], capsule_p1[3];  /* segment endpoints, metres */
    double capsule_radius;                /* metres, > 0 when has_capsule */
    char mesh_path[512];                  /* resolved path of the triangle mesh, "" if none */
    int mesh_triangles;                   /* triangle count of the mesh, 0 if none */
    char convex_path[512];                /* resolved path of a convex hull, "" if none */
} PlnLinkGeometry;

typedef struct PlnLink {
    char name[PLN_NAME_MAX];
    int parent;                /* index of the parent link, -1 for the root */
    int joint;                 /* index of the joint moving this link, -1 if fixed or root */
    double origin_pos[3];      /* joint frame in the parent frame, at q = 0 */
    double origin_rot[9];
    double mass;               /* kg, >= 0 */
    double com[3];             /* centre of mass in the link frame */
    double inertia[9];         /* about the com, link-frame axes, kg m^2 */
    PlnLinkGeometry geometry;
} PlnLink;

typedef struct PlnJoint {
    char name[PLN_NAME_MAX];
    PlnJointType type;
    int link;                  /* index of the child link it moves */
    double axis[3];            /* unit axis in the joint frame */
    double lower, upper;       /* position limits, rad, lower <= upper */
    double velocity_max;       /* |q'| limit, rad/s, > 0 */
    double initial;            /* default (half-sitting) position, rad */
} PlnJoint;

typedef struct PlnRobot {
    char name[PLN_NAME_MAX];
    int n_joints;              /* joints in the file's order (HRP-2 order for hrp2.yaml) */
    int n_links;
    PlnJoint *joints;          /* owned, n_joints */
    PlnLink *links;            /* owned, n_links, topological order */
    double base_pos[3];        /* root link pose in the world */
    double base_rot[9];
    double control_period;     /* s, e.g. 0.005 */
    double total_mass;         /* kg, sum of link masses */
    int n_collision_pairs;     /* default self-collision pairs (thesis Table 6.1 for HRP-2) */
    int (*collision_pairs)[2]; /* owned, link indices; NULL when none */
} PlnRobot;

#endif /* PLN_ROBOT_H */
