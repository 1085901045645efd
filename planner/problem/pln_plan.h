/* pln_plan.h — one planning run in memory: load, optimise, certify (DESIGN.md sec. 1).
 *
 * Contract. pln_plan_load() reads a scenario, the robot it names and builds the planning
 * problem (pln_problem.h) with the given options; every error names file:line and field.
 * pln_plan_run() then optimises (pln_sip.h) from the problem's initial guess and
 * certifies the result independently (pln_certify.h), writing no file: the commands of
 * cli/ and the benchmarks build on these. pln_plan_read_trajectory_json() reads back the
 * control points of a trajectory.json (the schema of pln_output.h) for a loaded problem. */
#ifndef PLN_PLAN_H
#define PLN_PLAN_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"
#include "problem/pln_certify.h"
#include "problem/pln_problem.h"
#include "problem/pln_scenario.h"
#include "problem/pln_sip.h"

/* Everything a run loads: the scenario, its robot and the problem built on both. Owns
 * all three; free with pln_plan_unload(). */
typedef struct PlnLoaded {
    PlnScenario sc;
    PlnRobot robot;
    PlnProblem *p;
    int have_sc, have_robot;
} PlnLoaded;

/* Loads scenario, robot and problem into *l (options->geometry_override replaces the
 * scenario's collision.geometry). On failure *l holds what was loaded so far: call
 * pln_plan_unload() either way. */
PlnStatus pln_plan_load(const char *scenario, const PlnPlanOptions *options, PlnLoaded *l,
                        char *err, size_t err_size);

/* The link the floating base stands on: with dynamics on and a stance foot carried by a
 * moving joint, a foot on the floor in every phase (*root, index in r); -1 when the waist
 * stays where the robot file puts it; PLN_PLAN_FREE_BASE when the feet move but none
 * stands throughout (stepping from one foot to the other). pln_plan_load() re-roots the
 * robot at the foot (pln_robot_reroot), or hangs its waist from six virtual joints
 * (pln_robot_free_base). */
#define PLN_PLAN_FREE_BASE (-2)
PlnStatus pln_plan_stance_root(const PlnScenario *sc, const PlnRobot *r, int *root, char *err,
                               size_t err_size);

/* Frees what pln_plan_load() loaded; safe on a zeroed or unloaded one. */
void pln_plan_unload(PlnLoaded *l);

/* What one planning run measured, for benchmarks and scripts. */
typedef struct PlnPlanRun {
    int certified;
    PlnCertCause cause;     /* what kept it from certifying (PLN_CAUSE_NONE if certified) */
    char reason[512];       /* the certificate's reason, "" if certified */
    int nlopt_code;         /* how the optimiser stopped (nlopt_result) */
    int ik_unmet;           /* task times the initial guess's IK could not meet */
    double min_clearance;   /* m */
    double wall_time_s;     /* load + optimise + certify, no output files */
    double optimise_s;      /* the SIP loop alone */
    double mcd_time_s;      /* MCD calls inside the SIP loop */
    long mcd_calls;
    long phong_calls;       /* collision.distance phong: PhongDist queries inside the loop */
    long phong_fallbacks;   /* of which fell back to the Euclidean distance */
    double phong_time_s;
    int evaluations;
    double cost;            /* the objective at the optimiser's result (dimensionless) */
    int tasks_relaxed;      /* the result is the elastic phase's (pln_plan_optimise) */
    int restart;            /* the result is this restart's (1..PLN_PLAN_RESTARTS), 0 none */
    unsigned long long ctrl_hash; /* FNV-1a of the result's control points' bytes: equal
                                   * hashes, bit-identical motions (e.g. across --threads) */
} PlnPlanRun;

/* Optimises from x and certifies the result (docs/math/planner.md sec. 5b): pln_sip_solve,
 * pln_certify_spline; when that is not certified and the scenario has tasks, the elastic
 * phase (run->elastic; not for a contact when the collision rows are off) runs from there
 * within what is left of the time limit, is
 * certified in turn, and is kept when its certificate is better: certified; or failing on
 * the tasks alone where the first failed on anything else (a limit, a contact, balance);
 * or, both failing on the tasks alone, nearer them. On PLN_OK x and ctrl[n_active *
 * n_ctrl] hold the motion kept, *sip its run (its evaluations and times include both
 * runs) and *cert its certificate (destroy it). */
PlnStatus pln_plan_optimise(const PlnProblem *p, const PlnPlanOptions *opt, const PlnSipRun *run,
                            double *x, double *ctrl, PlnSipResult *sip, PlnCertificate *cert,
                            char *err, size_t err_size);

/* Plans a scenario in memory (no files written): load, optimise, certify. */
PlnStatus pln_plan_run(const char *scenario, const PlnPlanOptions *options, PlnPlanRun *run,
                       char *err, size_t err_size);

/* What the duration search of `cost: {type: time}` did (docs/math/planner.md sec. 2b). */
typedef struct PlnTimeSearch {
    int done;               /* 1 when the search ran */
    double duration0;       /* the scenario's duration (certified first), s */
    double duration;        /* the shortest certified duration found, s */
    double failed;          /* the longest duration tried that did not certify, s (or the
                               floor, min_duration, when every try certified) */
    int plans;              /* plans made after the first */
    int evaluations;        /* their objective evaluations */
    double wall_time_s;
} PlnTimeSearch;

/* cost type time: the shortest duration at which the scenario's motion certifies. On
 * entry l->p is the problem at the scenario's duration and x (n_vars) a certified
 * solution of it; every time of the scenario is scaled (pln_scenario_scale_time) and the
 * problem rebuilt for each duration tried, by bisection on the logarithm of the duration
 * between min_duration and the last certified one, each plan starting from the last
 * certified control points (the same path, traversed faster). On return l->p, x and *sip
 * are the shortest certified; at most PLN_TIME_SEARCH_PLANS plans, stopping when the
 * bracket is within PLN_TIME_SEARCH_REL. progress (nullable) gets a line per plan. */
PlnStatus pln_plan_shorten(PlnLoaded *l, const PlnPlanOptions *opt, const PlnSipRun *run, double *x,
                           PlnSipResult *sip, PlnTimeSearch *ts, char *err, size_t err_size);

/* Reads the control points of a trajectory.json written by plan into ctrl
 * [n_active * n_ctrl] of problem p; the file's spline (degree, knots, moving joints)
 * must be the problem's. */
PlnStatus pln_plan_read_trajectory_json(const char *path, const PlnProblem *p, double *ctrl,
                                        char *err, size_t err_size);

#endif /* PLN_PLAN_H */
