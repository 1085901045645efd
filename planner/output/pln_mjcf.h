/* pln_mjcf.h — the robot model as MuJoCo MJCF (XML), for MuJoCo's compiler and tools.
 *
 * Contract. pln_mjcf_write() writes one self-contained <mujoco> document describing the
 * same rigid-body system as model/pln_dyn.h: a body per link nested as the link tree,
 * placed by the link's origin (pos + quat of origin_pos / origin_rot), a hinge joint per
 * revolute joint at the body origin about its axis with its position range, an
 * <inertial> per link with mass, centre of mass and the full inertia about it
 * (compiler inertiafromgeom="false", so that MuJoCo uses these and nothing else), and a
 * capsule geom per link capsule. The root body carries a free joint (floating base,
 * MuJoCo's qpos = root position and quaternion, qvel = root velocity in the world and
 * angular velocity in the root frame) or none (fixed base: welded at the robot's base
 * pose). Numbers are printed in the shortest form that reads back as the same double
 * (at most 17 digits), so the model carries every bit of the YAML's. Names are escaped
 * for XML. Meshes are not written (the
 * capsules enclose them). */
#ifndef PLN_MJCF_H
#define PLN_MJCF_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"

typedef struct PlnMjcfOptions {
    int floating_base;   /* 1: free joint on the root body; 0: root welded to the world */
    int capsules;        /* 1: the links' capsule geoms */
    int floor;           /* 1: a floor plane at z = 0 */
    double timestep;     /* s, > 0 */
    double gravity[3];   /* world, m/s^2 */
} PlnMjcfOptions;

/* Floating base, capsules, a floor, 1 ms, gravity {0, 0, -PLN_GRAVITY_MS2}. */
PlnMjcfOptions pln_mjcf_options_default(void);

/* Writes the MJCF document of `robot` to `out`. PLN_ERR_INVALID when an option is out of
 * range or the root link has a joint with a floating base (MuJoCo's free joint must be
 * the body's only joint), PLN_ERR_IO on a write error. Nullable: opt (defaults), err. */
PlnStatus pln_mjcf_write(const PlnRobot *robot, const PlnMjcfOptions *opt, FILE *out, char *err,
                         size_t err_size);

/* The same into `path`, atomically (base/pln_atomic.h). */
PlnStatus pln_mjcf_write_file(const PlnRobot *robot, const PlnMjcfOptions *opt,
                              const char *path, char *err, size_t err_size);

/* Unit quaternion (w, x, y, z), w >= 0, of a rotation matrix (row-major), by the largest
 * of the four diagonal combinations (Shepperd 1978), as MJCF's quat attribute wants it. */
void pln_mjcf_quat_from_matrix(const double R[9], double quat[4]);

#endif /* PLN_MJCF_H */
