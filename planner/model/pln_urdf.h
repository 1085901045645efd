/* pln_urdf.h — robots described in URDF (docs/URDF.md): import into the immutable model
 * of model/pln_robot.h, and export of a model as URDF.
 *
 * The file is parsed with libxml2 (no network, no DTD, no entity expansion). Read:
 *   <link>: <inertial> (origin, mass, inertia; re-expressed about the centre of mass in
 *     the link's axes), <collision> (origin, geometry: box, cylinder, sphere, capsule,
 *     mesh with scale; a link may have several); <visual> is not used;
 *   <joint>: revolute, continuous (limits [-PLN_URDF_CONTINUOUS_LIMIT_RAD, +...]),
 *     prismatic (limits m, velocity m/s, effort N) and fixed, with <origin>, <parent>, <child>, <axis> (normalised; default x) and <limit>
 *     (lower, upper, effort, velocity);
 *   <hrpplan>: this project's extension (ignored by other URDF readers): control period,
 *     base pose, initial posture, soles, collision pairs, exact capsules, ellipsoids,
 *     convex files; what the YAML robot format has and URDF does not.
 * Refused with a message naming file:line: floating and planar joints (the root link is
 * the base), <mimic>, xacro, DTDs, and every malformed value. Ignored
 * with a warning: <calibration>, <dynamics>, <safety_controller>, unknown elements.
 * Ignored silently: <visual>, <material>, <transmission>, <gazebo>, comments.
 *
 * Geometry: every link with collision elements gets a capsule enclosing all of them
 * (model/pln_capfit.h; exact for a lone sphere, capsule or cylinder), unless <hrpplan>
 * gives its capsule; for the mesh, convex and viewer geometry, a link whose collision is
 * one mesh gets that mesh (mesh_path, scaled, at the collision origin), any other link with
 * collision elements the union of its elements (robot->parts, model/pln_linkmesh.h:
 * meshes, exact boxes, enclosing polyhedra of spheres, cylinders and capsules).
 *
 * Mesh file names: "package://pkg/rest" is looked up in each directory D of
 * opt->package_path and then of $ROS_PACKAGE_PATH (colon-separated) as D/pkg/rest,
 * D/rest when D is itself named pkg, and D/<any>/pkg/rest; "file:///abs" and absolute
 * paths are taken as they are; other paths are relative to the URDF file's directory. */
#ifndef PLN_URDF_H
#define PLN_URDF_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"

#define PLN_URDF_CONTINUOUS_LIMIT_RAD (2.0 * 3.14159265358979323846)
#define PLN_URDF_DEFAULT_CONTROL_PERIOD_S 0.005  /* when <hrpplan> gives none */

typedef struct PlnUrdfOptions {
    const char *package_path;  /* directories for package:// (colon-separated), searched
                                * before $ROS_PACKAGE_PATH; nullable */
    FILE *warnings;            /* "file:line: warning: ..." lines; NULL: none written */
} PlnUrdfOptions;

/* Loads and validates the URDF at `path` into *robot (overwritten; on failure left
 * empty). Statuses and messages as pln_robot_load ("file:line: element: what").
 * Nullable: opt (no package path, warnings to stderr). */
PlnStatus pln_urdf_load(const char *path, const PlnUrdfOptions *opt, PlnRobot *robot,
                        char *err, size_t err_size);

/* Writes `robot` as URDF to `out`: links, joints, inertials, each link's mesh (absolute
 * path), or its collision parts as read, or else its capsule as <collision>, and an <hrpplan> element with everything URDF cannot
 * say, so that pln_urdf_load gives back the same model (forward kinematics equal to
 * rounding). `source` names the original file in a comment (nullable). PLN_ERR_IO on a
 * write error; PLN_ERR_INVALID for a re-rooted model (write the file's model). */
PlnStatus pln_urdf_write(const PlnRobot *robot, const char *source, FILE *out, char *err,
                         size_t err_size);

/* rpy (URDF's fixed-axis x-y-z: R = Rz(yaw) Ry(pitch) Rx(roll)) of a rotation matrix,
 * accurate also near pitch = +-pi/2. */
void pln_urdf_matrix_to_rpy(const double R[9], double rpy[3]);

#endif /* PLN_URDF_H */
