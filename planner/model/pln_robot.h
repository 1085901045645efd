/* pln_robot.h — the immutable robot model.
 *
 * A robot is a tree of links rooted at a base link whose pose in the world is fixed
 * (for HRP-2 the waist; the planner treats the base as fixed in the world frame). Links
 * are stored in topological order: parent index < own index, root at 0. Every non-root
 * link hangs from its parent by one joint (revolute about `axis`, prismatic along `axis`,
 * or fixed):
 *
 *   revolute:   T_world_link = T_world_parent * T(origin_pos, origin_rot) * Rot(axis, q)
 *   prismatic:  T_world_link = T_world_parent * T(origin_pos, origin_rot) * Trans(q axis)
 *
 * with q = 0 for a fixed joint (docs/math/kinematics.md (K.1)-(K.3), (K.14)). A revolute
 * q is an angle (rad, rad/s, N m); a prismatic q a length (m, m/s, N). Frames are
 * right-handed, x forward, y left, z up; lengths metres, angles radians, masses kg. Rotation matrices are row-major 3x3 (R[3*i + j]).
 * The model is loaded once and passed `const` everywhere; mutable scratch lives in
 * per-thread workspaces (pln_kin_*), never here. */
#ifndef PLN_ROBOT_H
#define PLN_ROBOT_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_status.h"
#include "dst_mesh.h"
#include "model/pln_meshio.h"

#define PLN_NAME_MAX 64

typedef enum PlnJointType {
    PLN_JOINT_REVOLUTE = 0,
    PLN_JOINT_FIXED,
    PLN_JOINT_PRISMATIC        /* translation by q * axis (Featherstone RBDA Table 4.1) */
} PlnJointType;

/* "revolute", "fixed", "prismatic" (the robot YAML's and URDF's spelling), "?" else. */
const char *pln_joint_type_name(PlnJointType t);
/* The units of a joint's position, velocity and effort: "rad", "rad/s", "N m" for a
 * revolute (and fixed) joint, "m", "m/s", "N" for a prismatic one. */
const char *pln_joint_position_unit(PlnJointType t);
const char *pln_joint_velocity_unit(PlnJointType t);
const char *pln_joint_effort_unit(PlnJointType t);

/* Collision geometry of a link, in the link frame. Any of the kinds may be absent. */
/* The kind of one collision element of a link (a URDF <collision>'s shape). */
typedef enum PlnPartType {
    PLN_PART_MESH,      /* a mesh file */
    PLN_PART_BOX,       /* a box centred on its frame, sides along its axes */
    PLN_PART_SPHERE,    /* a sphere centred on its frame */
    PLN_PART_CYLINDER,  /* a cylinder along its frame's z, centred */
    PLN_PART_CAPSULE    /* a capsule whose segment runs along its frame's z, centred */
} PlnPartType;

/* One collision element of a link made of several elements or of primitives (a URDF link
 * whose collision is not one single mesh). The link's triangle mesh is the union of its
 * parts (model/pln_linkmesh.h): a mesh's triangles, a box's 12, and an enclosing polyhedron
 * of a sphere, cylinder or capsule. */
typedef struct PlnCollisionPart {
    PlnPartType type;
    double pos[3], rot[9];  /* the element's frame in the link's file frame (the frame
                             * file_pos, file_rot place; row-major rotation) */
    double size[3];         /* box: full side lengths, m, > 0 */
    double radius;          /* sphere, cylinder, capsule: m, > 0 */
    double length;          /* cylinder, capsule: length along z, m, >= 0 (capsule: of its
                             * segment) */
    int has_scale;          /* mesh: 1 when scale is not (1, 1, 1) */
    double scale[3];        /* mesh: per-axis factors > 0 on the file's vertices */
    char path[512];         /* mesh: resolved file */
} PlnCollisionPart;

typedef struct PlnLinkGeometry {
    int has_capsule;
    double capsule_p0[3], capsule_p1[3];  /* segment endpoints, metres */
    double capsule_radius;                /* metres, > 0 when has_capsule */
    int capsule_fitted;                   /* 1: the capsule was fitted to the link's mesh
                                           * at load time (model/pln_capfit.h), not given */
    char mesh_path[512];                  /* resolved path of the triangle mesh, "" if none */
    int has_mesh_scale;                   /* 1: mesh_path's vertices are scaled per axis by
                                           * mesh_scale (a URDF <mesh scale>, each > 0) in the
                                           * file's frame, before file_pos/file_rot; 0: not */
    double mesh_scale[3];
    int mesh_triangles;                   /* triangle count of the mesh (of the union of
                                           * its parts), 0 if none */
    int part_first, n_parts;              /* the link's collision elements when it has no
                                           * single mesh_path: robot->parts[part_first ..
                                           * part_first + n_parts - 1]; n_parts 0 otherwise
                                           * (mesh_path and parts never both) */
    char convex_path[512];                /* resolved path of a convex hull, "" if none */
    int has_ellipsoid;
    double ellipsoid_center[3];           /* centre in the link frame, metres */
    double ellipsoid_rot[9];              /* axes in the link frame (row-major; columns = axes) */
    double ellipsoid_radii[3];            /* semi-axes along those axes, metres, > 0 */
    int has_file_pose;                    /* 1: the mesh and convex files are placed at
                                           * file_pos, file_rot in the link frame (a
                                           * re-rooted model); 0: at the identity */
    double file_pos[3], file_rot[9];      /* link-frame coordinates = file_rot * file point
                                           * + file_pos */
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
    int shifted;               /* 1 in a re-rooted model when this link's frame is not the
                                * file's (pln_robot_reroot); 0 otherwise */
    double shift_pos[3];       /* the file's frame of this link in the model's frame: */
    double shift_rot[9];       /* T_world_file = T_world_link * (shift_rot, shift_pos) */
} PlnLink;

typedef struct PlnJoint {
    char name[PLN_NAME_MAX];
    PlnJointType type;
    int link;                  /* index of the child link it moves */
    double axis[3];            /* unit axis in the joint frame (of rotation or translation) */
    double lower, upper;       /* position limits, rad (prismatic: m), lower <= upper */
    double velocity_max;       /* |q'| limit, rad/s (prismatic: m/s), > 0 */
    double initial;            /* default (half-sitting) position, rad (prismatic: m) */
    double effort_max;         /* |tau| limit, N m (prismatic: N), > 0; 0 when the file
                                * gives none */
} PlnJoint;

/* A sole: the flat rectangle of a link that rests on the floor when that link is a
 * support (a foot). It lies in the plane through `offset` normal to the link's z axis,
 * with sides along the link's x (size[0]) and y (size[1]) axes, centred at offset. */
typedef struct PlnSole {
    int link;                  /* the link it belongs to */
    double size[2];            /* side lengths along link x and y, m, > 0 */
    double offset[3];          /* centre of the rectangle in the link frame, m */
} PlnSole;

#define PLN_ROBOT_MAX_SOLES 8  /* soles per robot (two feet; room for hands, knees) */

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
    int has_effort;            /* 1 when every joint has effort_max (all or none) */
    int n_soles;
    PlnSole soles[PLN_ROBOT_MAX_SOLES];
    int n_parts;               /* collision elements of links without a single mesh */
    PlnCollisionPart *parts;   /* owned, n_parts (NULL when 0); links index them */
    int file_root;             /* the file's root link (the waist), index in this model:
                                * 0, or where pln_robot_reroot or pln_robot_free_base
                                * moved it */
    int free_base;             /* 1: the model hangs the waist from the world by six
                                * virtual joints, the last six joints
                                * (pln_robot_free_base); 0: not */
} PlnRobot;

/* ---- loading (pln_robot.c) ---------------------------------------------------------
 *
 * The robot YAML schema is documented in docs/ROBOT_FORMAT.md. Loading validates the whole
 * file: unknown keys, missing fields, wrong types, numbers that are not finite, position
 * limits with lower > upper, initial values outside them, non-positive velocity or effort
 * limits, effort limits given for some joints but not all, soles of unknown links, of
 * zero or negative size, or given twice for one link,
 * axes that are not unit length, unknown parents or joints, duplicate names, a missing or
 * second root, cycles, non-positive capsule radii, negative masses, inertia matrices that
 * are not symmetric positive definite, and mesh files that are missing or unreadable
 * (paths relative to the YAML file's directory). Every message names the file, line and
 * column and the field path: "robots/x.yaml:42:17: links[3].geometry.capsule.radius: must
 * be > 0". */

/* pln_mesh_read, pln_mesh_read_info and pln_mesh_format_supported: model/pln_meshio.h. */

/* Limits and tolerances of the loader. */
#define PLN_ROBOT_MAX_LINKS 1024       /* links (and joints) per robot: far above a humanoid */
#define PLN_ROBOT_AXIS_TOL 1e-6        /* accepted | |axis| - 1 |; the axis is then normalised */
#define PLN_ROBOT_INERTIA_SYM_TOL 1e-9 /* accepted |I_ij - I_ji| relative to max |I_kl| */

/* Loads and validates the robot description at `path` into *robot (overwritten; on
 * failure left empty, so pln_robot_destroy is always safe). Links come out in topological
 * order (root first, then depth-first in file order), joints in file order. Each link's
 * mesh is read (through dst_mesh) to fill geometry.mesh_triangles; mesh_path and
 * convex_path hold the resolved paths. Returns PLN_OK; PLN_ERR_IO (file unreadable),
 * PLN_ERR_PARSE (YAML syntax, empty document), PLN_ERR_INVALID (well-formed but wrong),
 * PLN_ERR_NOMEM, with a one-line message in err[err_size]. Nullable: err (err_size 0). */
PlnStatus pln_robot_load(const char *path, PlnRobot *robot, char *err, size_t err_size);

/* The robot's content fingerprint: SHA-256 (base/pln_sha256.h) over the bytes of the
 * robot file `path`, then of every link's mesh and convex file and of the mesh files of its
 * collision parts, in the order of the links' names (so that a re-rooted model has its file's fingerprint), each preceded by the
 * link's name. trajectory.json records it (robot_sha256) so that
 * `hrpplan export` can refuse a robot that is not the one the plan was made for, wherever
 * the files have moved. hex[65] receives lowercase hex. Errors: the file's. */
PlnStatus pln_robot_fingerprint(const PlnRobot *robot, const char *path, char hex[65],
                                char *err, size_t err_size);

/* 1 when `path` names a URDF file (extension ".urdf", any case): pln_robot_load reads it
 * through pln_urdf_load (model/pln_urdf.h, no package path, warnings on stderr). */
int pln_robot_is_urdf(const char *path);

/* Frees what pln_robot_load allocated and empties *robot. Nullable: robot. */
void pln_robot_destroy(PlnRobot *robot);

/* ---- re-rooting (pln_robot_reroot.c) ---------------------------------------------------
 *
 * The same robot rooted at another link, held at the world pose (root_pos, root_rot):
 * the floating base of a robot standing on a foot (docs/math/kinematics.md sec. "Floating
 * base by re-rooting", eq. K10-K13). The joints keep their index, name, limits and
 * coordinate q; a joint between the new root and the old one moves the other side
 * (its parent becomes its child), about the opposite axis. Every link frame of the file is
 * kept except on that path, where a link's frame moves to its joint (shift_*), and its
 * mass, inertia, shapes and sole are re-expressed there; links come out in topological
 * order (root first, then depth-first in the file's order of children). For every q the
 * re-rooted model puts every link, shape and centre of mass where the file's model puts
 * it when its root is placed so that the new root sits at (root_pos, root_rot).
 * PLN_ERR_INVALID when `root` is out of range or a sole's frame would rotate. *out is
 * overwritten; free it with pln_robot_destroy (also after a failure). */
PlnStatus pln_robot_reroot(const PlnRobot *robot, int root, const double root_pos[3],
                           const double root_rot[9], PlnRobot *out, char *err, size_t err_size);

/* ---- the free base (pln_robot_freebase.c) -------------------------------------------
 *
 * The same robot with its file's root link (the waist) hung from a massless world link by
 * six virtual joints: prismatic along the world's x, y, z, then revolute about z, y, x
 * through the waist's origin (yaw, pitch, roll), all at zero in the file's base pose
 * (docs/math/kinematics.md eq. K17-K18). The floating base of a robot that steps from one
 * foot to the other, whose feet the planner holds on the floor by constraints. The file's
 * joints keep their index; the virtual joints BASE_X, BASE_Y, BASE_Z, BASE_YAW,
 * BASE_PITCH, BASE_ROLL follow them (no effort limit: they carry nothing); links shift
 * by six (the world link first, then BASE_X_LINK .. BASE_PITCH_LINK, then the file's).
 * The virtual joints' position limits are a box for the planner, not a robot's:
 * PLN_FREE_BASE_RANGE_XY_M, _RANGE_Z_M, yaw +-pi, pitch and roll +-PLN_FREE_BASE_TILT_RAD,
 * speeds PLN_FREE_BASE_SPEED_MS and PLN_FREE_BASE_RATE_RADS.
 * PLN_ERR_INVALID when the input is re-rooted or already free, or has a link or joint
 * of one of those names. *out is overwritten; free it with pln_robot_destroy. */
#define PLN_FREE_BASE_JOINTS 6
#define PLN_FREE_BASE_WORLD_LINK "BASE_WORLD"
#define PLN_FREE_BASE_RANGE_XY_M 10.0  /* |x|, |y| of the waist's displacement */
#define PLN_FREE_BASE_RANGE_Z_M 1.0    /* |z| of it */
#define PLN_FREE_BASE_TILT_RAD 1.2     /* |pitch|, |roll| (below the Z-Y-X singularity) */
#define PLN_FREE_BASE_SPEED_MS 5.0     /* |x'|, |y'|, |z'| */
#define PLN_FREE_BASE_RATE_RADS 10.0   /* |yaw'|, |pitch'|, |roll'| */
PlnStatus pln_robot_free_base(const PlnRobot *robot, PlnRobot *out, char *err, size_t err_size);

/* The name of virtual joint k (0..5: BASE_X .. BASE_ROLL), "?" else. */
const char *pln_robot_free_base_joint_name(int k);

/* 1 when joint j is one of a free base's virtual joints, 0 otherwise. */
int pln_robot_joint_is_virtual(const PlnRobot *robot, int j);

/* The robot's own joints: n_joints less the virtual ones (they come first). */
int pln_robot_body_joints(const PlnRobot *robot);

/* The file's frame of link l from the model's (T_world_link): applies l's shift. */
void pln_robot_file_frame(const PlnRobot *robot, int l, const double R[9], const double p[3],
                          double R_file[9], double p_file[3]);

/* A point of the link's mesh or convex file, given in the file's coordinates, in the
 * link frame: file_rot * x + file_pos when has_file_pose, x otherwise. */
void pln_link_file_point(const PlnLinkGeometry *g, const double x[3], double out[3]);

/* Index of the sole of `link` in robot->soles, or -1. */
int pln_robot_find_sole(const PlnRobot *robot, int link);

/* Corner k (0..3) of a sole in its link frame: offset +- size / 2 along link x (k & 1)
 * and y (k & 2). */
void pln_sole_corner(const PlnSole *sole, int k, double out[3]);

/* 1 when link `l` is link `below` or one of its ancestors (so that a force on `below`
 * passes through l's joint), 0 otherwise. */
int pln_robot_link_below(const PlnRobot *robot, int below, int l);

/* Index of the joint (link) with that exact name, or -1. Nullable: name (gives -1). */
int pln_robot_find_joint(const PlnRobot *robot, const char *name);
int pln_robot_find_link(const PlnRobot *robot, const char *name);

/* ---- printing (pln_robot_print.c) ----------------------------------------------------- */

/* Writes a human-readable description of a loaded model to `out`: joints with axes,
 * limits, velocity limits and initial values; links with parent, joint, mass, centre of
 * mass and geometry (capsule, mesh with its triangle count and whether the capsule
 * encloses it); totals. `source` is the file name shown in the heading (nullable).
 * Returns PLN_OK, or PLN_ERR_IO when a mesh cannot be re-read for the enclosure check
 * (message in err). */
PlnStatus pln_robot_print(const PlnRobot *robot, const char *source, FILE *out, char *err,
                          size_t err_size);

#endif /* PLN_ROBOT_H */
