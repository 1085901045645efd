/* pln_export.h — controller exports of a planned trajectory (`hrpplan export`).
 *
 * Contract. pln_export_trajectory_read() reads a trajectory.json written by `plan` (or by
 * `export --format json`) on its own, without the scenario: the B-spline (degree, clamped
 * uniform knots, moving joints, control points), every joint's name and initial value,
 * the `certified` flag and `robot_file`, the robot the plan was made for. After
 * pln_export_trajectory_resolve() has matched it to that robot, pln_export_write()
 * samples the spline at the requested rate (pln_table_times: t_k = k / rate, strictly
 * increasing, the last sample exactly at the end time), checks every sample's position
 * against the joint limits and its velocity (the analytic derivative of the spline)
 * against the velocity limits, and writes one of
 *   pos   hrpsys SequencePlayer `.pos` (`time q1 ... qN`), plus `.waist` (`time x y z
 *         roll pitch yaw`, the pose of the robot file's root link (the waist): fixed, or
 *         moving with the legs when the plan stood on a foot (trajectory.json `base`)) and `.zmp` (`time x y z`, the
 *         multibody ZMP of the motion on the ground, in the waist frame) beside it with
 *         the same stem;
 *   csv   header `time,<joint names>` then the samples;
 *   json  the trajectory.json schema, samples at the export rate;
 *   ros   trajectory_msgs/JointTrajectory as YAML: joint_names, points with positions,
 *         velocities, accelerations and time_from_start {sec, nanosec}.
 * Every file is written atomically (pln_atomic.h). A limit violation, or a trajectory
 * whose `certified` is false without `force`, is refused with PLN_ERR_NOT_CERTIFIED and a
 * message naming the joint and the time (exit 3); a forced export of an uncertified
 * trajectory carries a `# NOT CERTIFIED` comment line in csv and ros (a "comment" key in
 * json); hrpsys files (.pos, .waist, .zmp) hold numbers only, always. All
 * joints are written in the robot file's order; seconds, radians, metres. */
#ifndef PLN_EXPORT_H
#define PLN_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_atomic.h"
#include "motion/pln_bspline.h"
#include "model/pln_robot.h"
#include "base/pln_status.h"
#include "motion/pln_table.h"

/* Export formats (`hrpplan export --format`). */
typedef enum PlnExportFormat {
    PLN_FORMAT_NONE = 0,
    PLN_FORMAT_POS,
    PLN_FORMAT_CSV,
    PLN_FORMAT_JSON,
    PLN_FORMAT_ROS
} PlnExportFormat;

/* Name of a format ("pos", "csv", "json", "ros"; "" for none); a static string. */
const char *pln_format_string(PlnExportFormat format);

/* Format from its name; PLN_ERR_INVALID for anything else (nullable: name). */
PlnStatus pln_format_from_string(const char *name, PlnExportFormat *format);

/* Most samples of one export (e.g. 10 kHz for 200 s): beyond it the rate is refused as
 * bad input instead of asking for gigabytes. */
#define PLN_EXPORT_MAX_SAMPLES 2000000

/* The comment line of a forced export of an uncertified trajectory (without "# "). */
#define PLN_EXPORT_NOT_CERTIFIED "NOT CERTIFIED (exported with --force)"

/* A trajectory.json read without its scenario. Owned arrays; free with
 * pln_export_trajectory_destroy(). */
typedef struct PlnExportTrajectory {
    char path[PLN_PATH_MAX];          /* the file it was read from */
    char scenario[PLN_NAME_MAX];      /* scenario name ("" if absent) */
    char robot[PLN_NAME_MAX];         /* robot name */
    char robot_file[PLN_PATH_MAX];    /* robot file as the scenario resolved it (absolute) */
    char robot_file_relative[PLN_PATH_MAX]; /* the same relative to the trajectory's
                                       * directory ("" when the file has none) */
    char robot_sha256[65];            /* the robot's fingerprint ("" when the file has none) */
    int certified;                    /* the plan's (or check's) verdict */
    double duration;                  /* s, the last knot */
    int n_joints;                     /* every robot joint, file order */
    char (*joints)[PLN_NAME_MAX];     /* [n_joints] */
    double *initial;                  /* [n_joints] rad */
    PlnBspline *bs;                   /* the clamped uniform knot vector of the file */
    int n_active;                     /* moving joints, >= 1 */
    int *active;                      /* [n_active] index into joints of each moving joint */
    double *ctrl;                     /* [n_active * bs->n_ctrl] rad, joint-major */
    int has_base;                     /* `base`: the plan stood on a foot (floating base) */
    char base_link[PLN_NAME_MAX];     /* the link it stood on */
    double base_pos[3], base_rot[9];  /* where that link was held, world (rotation row-major) */
    int base_free;                    /* `base.free`: the waist on six virtual joints
                                       * (pln_robot_free_base); base_link is the waist */
} PlnExportTrajectory;

typedef struct PlnExportOptions {
    PlnExportFormat format;           /* pos, csv, json or ros */
    double rate_hz;                   /* > 0, default 200 */
    int force;                        /* export an uncertified trajectory */
} PlnExportOptions;

/* pos at 200 Hz, not forced. */
PlnExportOptions pln_export_options_default(void);

/* The robot as the plan used it: with `base`, re-rooted at that link held at that pose
 * (pln_robot_reroot), else unchanged. PLN_ERR_INVALID (file: base.link) for a link the
 * robot does not have. */
PlnStatus pln_export_trajectory_robot(const PlnExportTrajectory *tr, PlnRobot *robot, char *err,
                                      size_t err_size);

/* Reads and validates a trajectory.json (see the contract). Errors name the file, line,
 * column and field: PLN_ERR_IO (unreadable), PLN_ERR_PARSE (syntax), PLN_ERR_INVALID
 * (wrong schema or values: unknown key, knots that are not the clamped uniform vector of
 * the degree and duration, a moving joint that is not among `joints`, a repeated name,
 * wrong counts, non-finite numbers), PLN_ERR_NOMEM. On failure *tr holds nothing. */
PlnStatus pln_export_trajectory_read(const char *path, PlnExportTrajectory *tr, char *err,
                                     size_t err_size);

/* Frees what a trajectory owns; safe on a zeroed or destroyed one. Nullable: tr. */
void pln_export_trajectory_destroy(PlnExportTrajectory *tr);

/* Checks that `robot` is the trajectory's robot: the same name and the same joints in
 * the same order. PLN_ERR_INVALID naming the first difference. */
PlnStatus pln_export_trajectory_resolve(const PlnExportTrajectory *tr, const PlnRobot *robot,
                                        char *err, size_t err_size);

/* Joint positions (out[0 .. n_joints-1]), velocities (out[n_joints ..]) and
 * accelerations (out[2 n_joints ..]) of every joint at time t (s); joints that do not
 * move have their initial value and zero rates. out[3 * n_joints]. PLN_ERR_INVALID for
 * a time outside [0, duration]. */
PlnStatus pln_export_state_at(const PlnExportTrajectory *tr, double t, double *out);

/* Samples tr at rate_hz into `table` (created here, every joint, names from the file)
 * and checks every sample against the robot's position limits and every velocity
 * against the velocity limits (both with the certification's slack PLN_CERT_SLACK).
 * PLN_ERR_NOT_CERTIFIED for a violation: the message names the joint, the time, the
 * value and the limit of the earliest one, and how many samples violate; the table is
 * then destroyed. PLN_ERR_INVALID for a bad rate or too many samples. */
PlnStatus pln_export_sample_checked(const PlnExportTrajectory *tr, const PlnRobot *robot,
                                    double rate_hz, PlnTable *table, char *err,
                                    size_t err_size);

/* Writes the export of tr (resolved on robot) to `path` in opt->format (for pos also
 * `<stem>.waist` and `<stem>.zmp`, stem = path without its extension). Refuses an
 * uncertified trajectory unless opt->force, and any limit violation, with
 * PLN_ERR_NOT_CERTIFIED (nothing written). *n_samples (nullable) receives the number of
 * samples written. */
PlnStatus pln_export_write(const PlnExportTrajectory *tr, const PlnRobot *robot,
                           const PlnExportOptions *opt, const char *path, int *n_samples,
                           char *err, size_t err_size);

/* The hrpsys companions of a .pos table written to pos_path: `<stem>.waist` (time x y z
 * roll pitch yaw of the robot file's root link, the waist, wherever the model is rooted) and `<stem>.zmp` (time x y z: the ZMP on the ground,
 * world z = 0, in the waist frame), stem = pos_path without its extension; one line per
 * row of `table` (every joint of `robot`, file order). With the table's qd and qdd the ZMP
 * is the multibody one from inverse dynamics with the waist held fixed (docs/math/
 * dynamics.md D16); without them the ground projection of the centre of mass. `comment`
 * (nullable) is written first as a '#' line. Atomic per file. PLN_ERR_USAGE when a
 * companion's name would be pos_path itself, PLN_ERR_INVALID for a robot without mass,
 * PLN_ERR_NOT_CERTIFIED when the motion would lift the feet (no ZMP at some sample). */
PlnStatus pln_export_hrpsys_companions(const PlnTable *table, const PlnRobot *robot,
                                       const char *pos_path, const char *comment, char *err,
                                       size_t err_size);

/* Records a forced export of an uncertified trajectory in the plan's report.json (the
 * file beside trajectory_path, when there is one): appends {"file", "format", "time"
 * (UTC)} to its top-level "forced_exports" array, creating the array at the first one,
 * and rewrites the report atomically. *recorded is 0 when there is no report.json there
 * (the caller warns), 1 once recorded. PLN_ERR_INVALID when the file is not a report. */
PlnStatus pln_export_record_forced(const char *trajectory_path, const char *output,
                                   PlnExportFormat format, int *recorded, char *err,
                                   size_t err_size);

/* The companion path `<stem><ext>` of pos_path (ext such as ".waist"). PLN_ERR_USAGE
 * when it does not fit in `size`. */
PlnStatus pln_export_sibling_path(char *buf, size_t size, const char *pos_path,
                                  const char *ext, char *err, size_t err_size);

/* Roll, pitch, yaw (rad) of a row-major rotation R = Rz(yaw) Ry(pitch) Rx(roll), the
 * inverse of pln_kin_rpy_to_matrix(); pitch in [-pi/2, pi/2], and at pitch = +-pi/2
 * (gimbal lock) roll = 0. */
void pln_export_matrix_to_rpy(const double R[9], double rpy[3]);

#endif /* PLN_EXPORT_H */
