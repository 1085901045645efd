/* pln_sim.h — replays a trajectory in MuJoCo physics and says whether the robot stands
 * (`hrpplan simulate`, docs/SIMULATION.md).
 *
 * Contract. pln_sim_run() builds an MJCF model of the problem's robot and scene
 * (pln_mjcf.h plus its hook): a free-floating robot with the link inertias of the robot
 * YAML, a box per sole, a floor plane at the support's height, the scenario's obstacles,
 * and the collision shapes of the problem's pairs (capsules, ellipsoids, or meshes, which
 * are convex for the robot's links; a non-convex mesh obstacle becomes one thin prism per
 * triangle near the motion). A robot without soles is welded to the world at its base.
 * MuJoCo collides only the pairs of the problem, each sole with the floor (friction mu
 * of the scenario), and every link shape with the floor.
 *
 * The motion: `settle_s` at the first posture, the reference trajectory replayed at
 * `speed` times its pace, then `hold_s` at the last posture, stepped at `timestep` (1 kHz
 * by default). Each joint's motor gets the feed-forward torque of the project's inverse
 * dynamics along the reference (model/pln_dyn.h with the waist still, the floor's wrench
 * split between the soles by model/pln_contact.h, plus armature times acceleration) and a
 * critically damped PD correction of bandwidth PLN_SIM_BANDWIDTH_HZ on the joint's own
 * inertia, clamped to the joint's effort limit.
 *
 * What it measures (PlnSimResult): fall (waist drop or tilt), slip and lift of the feet
 * on the floor, tracking error per joint, the centre of pressure of the sole contacts
 * against the planned ZMP and its margin inside the support polygon, the largest
 * |tau| / tau_max asked for, actuator energy, and every contact MuJoCo saw between robot
 * links, with obstacles, or of a link (not a sole) with the floor. No allocation happens
 * in the stepping loop; MuJoCo's model and data are made once per run. */
#ifndef PLN_SIM_H
#define PLN_SIM_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_status.h"
#include "problem/pln_problem.h"

/* The reference: joint positions, velocities and accelerations of every robot joint
 * (file order) at time t in [0, duration]. */
typedef PlnStatus (*PlnSimStateFn)(void *ctx, double t, double *q, double *qd, double *qdd);

typedef struct PlnSimReference {
    double duration;      /* s, > 0 */
    PlnSimStateFn state;
    void *ctx;
} PlnSimReference;

typedef struct PlnSimOptions {
    double timestep;      /* s, > 0 (default 1e-3) */
    double settle_s;      /* s at the first posture before the motion (default 0.5) */
    double hold_s;        /* s at the last posture after it (default 1.0) */
    double speed;         /* replay pace, > 0 (default 1; 5 plays it five times faster) */
    double bandwidth_hz;  /* PD bandwidth (default PLN_SIM_BANDWIDTH_HZ) */
    int feedforward;      /* 1: inverse-dynamics torques (default); 0: PD alone */
    double series_dt;     /* s between the points kept for sim.svg (default 0.01) */
} PlnSimOptions;

PlnSimOptions pln_sim_options_default(void);

#define PLN_SIM_MAX_CONTACT_PAIRS 64

/* A pair of bodies MuJoCo saw in contact: names of links, obstacles or "floor". */
typedef struct PlnSimContact {
    char a[PLN_NAME_MAX], b[PLN_NAME_MAX];
    double first_t;       /* trajectory time of the first contact, s */
    long steps;           /* steps in contact */
    double depth_max;     /* deepest penetration MuJoCo reported, m */
} PlnSimContact;

typedef struct PlnSimResult {
    int ok;               /* stands, tracks and collides with nothing: exit 0 */
    int floating;         /* 1: free-floating on its soles; 0: welded (no soles) */
    int fell;             /* the root body (waist, or the foot a re-rooted model stands
                             on) dropped > PLN_SIM_FALL_DROP_M below, or tilted > ..._TILT_DEG
                             from, where the plan puts it at that time */
    double fell_t;        /* time of the fall, s (NAN if it stood); every time reported is
                             trajectory time during the motion, and after it the duration
                             plus the seconds of the hold */
    int diverged;         /* the physics produced non-finite numbers (counted as a fall) */
    int slipped, lifted, lost_track, collided;
    int tipped;           /* the centre of pressure came within PLN_SIM_COP_EDGE_M of the
                             support polygon's edge: the feet began to roll over it */
    double waist_drop_max_m, waist_tilt_max_deg;
    double slip_max_mm, lift_max_mm;
    int slip_link, lift_link;           /* foot with the largest slip / lift (-1 none) */
    double track_max_rad;
    int track_joint;
    double *track_rad;                  /* [n_joints] largest |q - q_ref| per joint */
    double cop_zmp_max_m, cop_zmp_rms_m;/* CoP vs planned ZMP over the motion (NAN: none) */
    double cop_margin_min_m;            /* least distance of the CoP inside the support
                                           polygon (negative: outside; NAN: none) */
    double cop_margin_t;
    long cop_missing_steps;             /* steps of the motion without a sole force */
    double torque_ratio_max;            /* largest |tau asked| / effort_max (NAN: no limits) */
    int torque_joint;
    long clamped_steps;                 /* steps where some motor was at its limit */
    double energy_j;                    /* integral of sum |tau_i qd_i| dt over the run */
    int n_contacts;
    PlnSimContact contacts[PLN_SIM_MAX_CONTACT_PAIRS];
    long contacts_dropped;              /* further pairs beyond the table */
    char note[512];                     /* what was left out of the contact model, "" none */
    /* series for sim.svg, every series_dt over the motion (trajectory time) */
    int n_series;
    double *t, *zmp_x, *zmp_y, *cop_x, *cop_y, *waist_z;
    long steps;
    double sim_time_s, wall_time_s;
} PlnSimResult;

/* Simulates `ref` on problem p's robot and scene (see the contract). PLN_ERR_INVALID
 * (message names the scenario) when the reference does not fit (a state outside the
 * position limits is not refused: physics will tell), when the feet are not flat on one
 * floor at the start, or an option is out of range; PLN_ERR_INTERNAL when MuJoCo refuses
 * the model (its message); PLN_ERR_NOMEM. *res is filled on PLN_OK; free it with
 * pln_sim_result_destroy() either way. */
PlnStatus pln_sim_run(const PlnProblem *p, const PlnSimReference *ref, const PlnSimOptions *opt,
                      PlnSimResult *res, char *err, size_t err_size);

void pln_sim_result_destroy(PlnSimResult *res);

/* The MJCF document the simulation loads (for `simulate --mjcf FILE`), written to out. */
PlnStatus pln_sim_write_mjcf(const PlnProblem *p, const PlnSimReference *ref, FILE *out,
                             char *err, size_t err_size);

/* MuJoCo's version, e.g. "2.2.2" (a static string). */
const char *pln_sim_engine_version(void);

/* One line: "simulation: stands ..." or "simulation: FELL at 2.31 s ...". */
void pln_sim_print_line(const PlnProblem *p, const PlnSimResult *res, FILE *out);

/* The full summary on `out` (several lines; the one line last). */
void pln_sim_print(const PlnProblem *p, const PlnSimResult *res, FILE *out);

/* sim.json (schema in docs/FILE_FORMATS.md) and sim.svg, atomically. */
PlnStatus pln_sim_write_json(const char *path, const PlnProblem *p, const PlnSimOptions *opt,
                             const char *trajectory, const PlnSimResult *res, char *err,
                             size_t err_size);
PlnStatus pln_sim_write_svg(const char *path, const PlnProblem *p, const PlnSimResult *res,
                            char *err, size_t err_size);

#endif /* PLN_SIM_H */
