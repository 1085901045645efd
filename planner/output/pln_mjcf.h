/* pln_mjcf.h — the robot model as MuJoCo MJCF (XML), for MuJoCo's compiler and tools.
 *
 * Contract. pln_mjcf_write() writes one self-contained <mujoco> document describing the
 * same rigid-body system as model/pln_dyn.h: a body per link nested as the link tree,
 * placed by the link's origin (pos + quat of origin_pos / origin_rot), a hinge joint per
 * revolute joint at the body origin about its axis with its position range, a slide
 * joint per prismatic joint along its axis with its range in metres, an
 * <inertial> per link with mass, centre of mass and the full inertia about it
 * (compiler inertiafromgeom="false", so that MuJoCo uses these and nothing else), and a
 * capsule geom per link capsule. The root body carries a free joint (floating base,
 * MuJoCo's qpos = root position and quaternion, qvel = root velocity in the world and
 * angular velocity in the root frame) or none (fixed base: welded at the robot's base
 * pose). A robot on a free base (pln_robot_free_base) is written without its virtual
 * links and joints: the waist is the root body, at the file's base pose. Numbers are printed in the shortest form that reads back as the same double
 * (at most 17 digits), so the model carries every bit of the YAML's. Names are escaped
 * for XML. Meshes are not written by the writer itself (the capsules enclose them); a
 * caller adds them, or anything else, through the `extra` hook at each section.
 *
 * Optional parts (all off in pln_mjcf_options_default() except the floor and capsules,
 * so that export-mjcf's model is the bare rigid-body system):
 *  - soles: a thin box geom `<link>_sole` per sole rectangle (model/pln_robot.h PlnSole),
 *    its bottom face on the sole plane, PLN_MJCF_SOLE_THICKNESS_M thick, inside the foot;
 *  - motors: a <motor> actuator per revolute or prismatic joint (gear 1, so ctrl is the
 *    joint torque, N m, or force, N), limited to +-effort_max when the robot has effort
 *    limits;
 *  - armature: per-joint rotor inertia (kg m^2; kg on a slide) on each hinge or slide;
 *  - no_default_contact: every geom gets contype = conaffinity = 0, so that MuJoCo
 *    collides only the <pair>s a caller lists in the CONTACT section. */
#ifndef PLN_MJCF_H
#define PLN_MJCF_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"

/* Thickness of a sole box, m (its bottom face is the sole plane). */
#define PLN_MJCF_SOLE_THICKNESS_M 0.01

/* Where the `extra` hook is called: inside <asset>, inside the body of `link` (after
 * its own elements), inside <worldbody>, inside <contact>, inside <actuator>. */
typedef enum PlnMjcfSection {
    PLN_MJCF_ASSET = 0,
    PLN_MJCF_BODY,
    PLN_MJCF_WORLD,
    PLN_MJCF_CONTACT,
    PLN_MJCF_ACTUATOR
} PlnMjcfSection;

/* Writes additional MJCF elements of `section` to out (link: the body's link for
 * PLN_MJCF_BODY, else -1). */
typedef void (*PlnMjcfExtraFn)(void *ctx, PlnMjcfSection section, int link, FILE *out);

typedef struct PlnMjcfOptions {
    int floating_base;   /* 1: free joint on the root body; 0: root welded to the world */
    int capsules;        /* 1: the links' capsule geoms */
    int floor;           /* 1: a floor plane at z = floor_z */
    double floor_z;      /* m, default 0 */
    int soles;           /* 1: a box geom per sole */
    int motors;          /* 1: a motor per revolute or prismatic joint */
    const double *armature; /* nullable: [n_joints] rotor inertia of each joint, kg m^2 */
    int no_default_contact; /* 1: geoms collide only through listed <pair>s */
    PlnMjcfExtraFn extra;   /* nullable: called at each section */
    void *extra_ctx;
    double timestep;     /* s, > 0 */
    double gravity[3];   /* world, m/s^2 */
} PlnMjcfOptions;

/* Floating base, capsules, a floor at z = 0, 1 ms, gravity {0, 0, -PLN_GRAVITY_MS2};
 * no soles, motors, armature or hook. */
PlnMjcfOptions pln_mjcf_options_default(void);

/* Writes the MJCF document of `robot` to `out`. PLN_ERR_INVALID when an option is out of
 * range (a non-finite or negative armature included) or the root link has a joint with a floating base (MuJoCo's free joint must be
 * the body's only joint), PLN_ERR_IO on a write error. Nullable: opt (defaults), err. */
PlnStatus pln_mjcf_write(const PlnRobot *robot, const PlnMjcfOptions *opt, FILE *out, char *err,
                         size_t err_size);

/* The same into `path`, atomically (base/pln_atomic.h). */
PlnStatus pln_mjcf_write_file(const PlnRobot *robot, const PlnMjcfOptions *opt,
                              const char *path, char *err, size_t err_size);

/* Unit quaternion (w, x, y, z), w >= 0, of a rotation matrix (row-major), by the largest
 * of the four diagonal combinations (Shepperd 1978), as MJCF's quat attribute wants it. */
void pln_mjcf_quat_from_matrix(const double R[9], double quat[4]);

/* Writes n numbers separated by spaces, each in the shortest form that reads back as the
 * same double (for callers' hooks). */
void pln_mjcf_put_nums(FILE *out, const double *x, int n);

/* Writes s with XML's five special characters escaped. */
void pln_mjcf_put_escaped(FILE *out, const char *s);

#endif /* PLN_MJCF_H */
