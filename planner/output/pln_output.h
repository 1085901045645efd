/* pln_output.h — the files a planning run writes (DESIGN.md sec. 3).
 *
 *  trajectory.json  the B-spline (degree, knots, moving joints, control points), the
 *                   initial posture of every joint and a table sampled at the output rate
 *  trajectory.csv   the sampled table, header `time,<joint names>`
 *  trajectory.pos   hrpsys SequencePlayer layout; written only for a certified plan
 *  report.json      status, timings, certified clearance of every pair, limit margins
 *  distance.svg     clearance of every pair over time with the certified MCD per interval
 *                   (thesis Fig. 6.5)
 *  joints.svg       every moving joint's trajectory with its position limits
 * Every file is written atomically (pln_atomic.h). All tables carry every robot joint in
 * the robot file's order. */
#ifndef PLN_OUTPUT_H
#define PLN_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "dst_capsule.h"
#include "problem/pln_certify.h"
#include "problem/pln_guess.h"
#include "model/pln_kin.h"
#include "problem/pln_plan.h"
#include "problem/pln_problem.h"
#include "problem/pln_sip.h"
#include "motion/pln_table.h"

/* Most samples of one output table (a day at 1 kHz is 8.6e7; this is a sanity cap). */
#define PLN_OUTPUT_MAX_SAMPLES 50000000

/* Pairs the printed summary lists (the closest by certified lower bound); report.json
 * lists every pair. */
#define PLN_OUTPUT_PRINT_PAIRS 20

/* Pairs distance.svg draws, one panel each (the closest by certified lower bound). */
#define PLN_OUTPUT_PLOT_PAIRS 24

/* What report.json says besides the certificate. */
typedef struct PlnRunInfo {
    const char *status;          /* "certified" | "not_certified" | "failed" */
    const char *reason;          /* why not certified or failed; "" otherwise */
    const char *method;          /* the optimiser's MCD method name */
    int collision_constraints;   /* 0 with --no-collision */
    const PlnSipResult *sip;     /* nullable (failed before optimising) */
    const PlnGuessReport *guess; /* nullable: the IK initial guess's outcome */
    const PlnTimeSearch *time_search; /* nullable: cost type time's duration search */
    double wall_time_s;          /* whole run */
} PlnRunInfo;

/* Creates a directory and its parents (like mkdir -p). */
PlnStatus pln_output_mkdirs(const char *dir, char *err, size_t err_size);

/* Samples the spline of p with control points ctrl at `rate_hz` into a table of every
 * robot joint (created here; pln_table_destroy frees it). */
PlnStatus pln_output_sample(const PlnProblem *p, const double *ctrl, double rate_hz,
                            PlnTable *table, char *err, size_t err_size);

/* Everything trajectory.json holds (docs/FILE_FORMATS.md), whoever made it: `plan`
 * from its problem, `export --format json` from a trajectory file it read. All
 * pointers borrowed. */
typedef struct PlnTrajectoryDoc {
    const char *scenario;        /* scenario name */
    const PlnRobot *robot;       /* every joint's name in file order, the robot's name */
    const char *robot_file;      /* the robot path as the scenario resolved it */
    int certified;
    const char *comment;         /* nullable: written as a "comment" key (forced exports) */
    const double *q_init;        /* [robot->n_joints] initial posture, rad */
    const PlnBspline *bs;        /* knot vector (degree, knots, duration) */
    int n_active;                /* moving joints */
    const int *active;           /* [n_active] robot joint index of each moving joint */
    const double *ctrl;          /* [n_active * bs->n_ctrl] control points, rad, joint-major */
    const PlnTable *samples;     /* every joint sampled at some rate */
    const char *robot_sha256;    /* nullable: the robot's fingerprint (pln_robot_fingerprint) */
} PlnTrajectoryDoc;

/* Writes a trajectory.json document atomically. PLN_ERR_INTERNAL if a number is not
 * finite (nothing written), PLN_ERR_IO when the file cannot be written. */
PlnStatus pln_output_trajectory_doc(const char *path, const PlnTrajectoryDoc *doc, char *err,
                                    size_t err_size);

/* trajectory.json of a planning run: pln_output_trajectory_doc() of problem p. */
PlnStatus pln_output_trajectory_json(const char *path, const PlnProblem *p, const double *ctrl,
                                     const PlnTable *samples, int certified, char *err,
                                     size_t err_size);

/* Nullable: cert (a run that failed before certification). */
PlnStatus pln_output_report_json(const char *path, const PlnProblem *p, const PlnRunInfo *info,
                                 const PlnCertificate *cert, char *err, size_t err_size);

/* The same document as pln_output_report_json, printed on `out` (plan and check
 * --json). Composed in memory first: nothing is printed when a number is not finite
 * (PLN_ERR_INTERNAL); PLN_ERR_IO when `out` cannot be written. Nullable: cert. */
PlnStatus pln_output_report_print(FILE *out, const PlnProblem *p, const PlnRunInfo *info,
                                  const PlnCertificate *cert, char *err, size_t err_size);

/* What plan and check --json print on `out` when there is no report (bad input, a
 * failure): {"status": "failed", "exit_code": exit_code, "reason": reason}. */
void pln_output_failure_print(FILE *out, int exit_code, const char *reason);

/* distance.svg: one panel per pair, the static capsule distance of the (exact forward
 * kinematics of the) motion sampled at `samples`, and the certified lower bound per
 * interval as steps; eps dashed; the worst pair framed. */
PlnStatus pln_output_distance_svg(const char *path, const PlnProblem *p, const double *ctrl,
                                  const PlnCertificate *cert, int samples, char *err,
                                  size_t err_size);

/* joints.svg: one panel per moving joint, its position sampled at `samples` times over
 * the motion with its lower and upper position limits as dashed lines; the panel of the
 * joint that comes closest to a limit is framed, and every title gives that joint's
 * smallest margin to its limits (rad). */
PlnStatus pln_output_joints_svg(const char *path, const PlnProblem *p, const double *ctrl,
                                int samples, char *err, size_t err_size);

/* zmp.svg (zmp_path): one panel per support phase, the support polygon of its soles and
 * the ZMP path while it holds (x, y in the world, m); torque.svg (torque_path): tau_j /
 * effort_max_j over time for the joints with effort limits, the largest peaks first, the
 * limits +-1 dashed. Both from the point-wise inverse dynamics (pln_dynrows_sample) at
 * `samples` instants. Nothing is written without dynamics (torque.svg also not without
 * effort limits). */
PlnStatus pln_output_dynamics_svg(const char *zmp_path, const char *torque_path,
                                  const PlnProblem *p, const double *ctrl, int samples,
                                  char *err, size_t err_size);

/* The certificate as a table on `out`: every pair's certified [lower, upper] MCD and
 * t_min (with the first-contact window where one was computed), then the minimum
 * clearance and the limit, task and balance violations. What `plan` and `check` print. */
void pln_output_print_certificate(const PlnProblem *p, const PlnCertificate *c, FILE *out);

#endif /* PLN_OUTPUT_H */
