/* pln_problem.h — the trajectory optimisation problem of a scenario (thesis sec. VI.A.1).
 *
 * Variables. The optimiser's variables x are the B-spline control points of the moving
 * joints (pln_bspline.h) that are not fixed by the scenario: the first control point of
 * every joint is its initial value q0 (the motion starts from the initial posture); with
 * `rest.start` the first three control points equal q0 (q'(0) = q''(0) = 0); with
 * `rest.end` the last three control points are one shared variable (q'(T) = q''(T) = 0).
 * The map from x to control points is a 0/1 selection, so gradients with respect to
 * control points sum into gradients with respect to x.
 *
 * Objective: weight * sum_j integral (q_j^(r))^2 dt / (2 mean_i H_ii), r = 2
 * (acceleration) or 3 (jerk); an exact quadratic form P^T H P in the control points,
 * normalised so that its Hessian has unit mean diagonal (the optimiser's quasi-Newton
 * model starts as the identity, so this sets its first steps to the right size).
 *
 * Bounds: continuous-time joint position limits through the convex-hull property of
 * B-splines: lower <= every control point <= upper implies lower <= q(t) <= upper.
 *
 * Inequality constraints c(x) <= 0, rows in this order (PlnRowKind):
 *  - velocity: |k (P_{i+1} - P_i) / (t_{i+k+1} - t_{i+1})| <= v_max for every control-point
 *    difference (the control points of q', eq. 7 of docs/math/bspline.md), scaled by 1/v_max;
 *    continuous-time by the convex-hull property;
 *  - joint tasks: |q_j(t) - value| <= 0.9 tolerance (two linear rows; the optimiser aims
 *    inside the tolerance the certificate checks, PLN_TASK_INNER_FRACTION);
 *  - position tasks: one row on the distance to the target, |x(t) - target| <= 0.9
 *    tolerance, smoothed at the target (docs/math/planner.md eq. P11), and with an
 *    orientation a second row (1 - cos angle(R_target^T R(t))) <= 1 - cos(tolerance);
 *  - collision: eps - MCD_{pair, interval} <= 0 for every pair and constraint interval
 *    (thesis eq. 6.1), MCD from distance/ on the Taylor-model motion of the two links
 *    (pln_linkmotion.h). The row is eps - lower (the certified lower bound), or, with a
 *    frozen margin M (set by the SIP loop between its rounds), eps + M - upper, whose
 *    gradient is exactly the envelope-theorem gradient at the witness time t*:
 *    dMCD/dP_jk = n . (J_A,j(cA, t*) - J_B,j(cB, t*)) N_k(t*) (DESIGN.md sec. 1).
 *  - stance: a stance foot that moving joints carry (the waist floats, the model is rooted
 *    at another foot: pln_robot_reroot) keeps its sole centre within
 *    PLN_STANCE_ROW_FRACTION PLN_STANCE_POS_TOL_M of where it stood and its orientation
 *    within PLN_STANCE_ROW_FRACTION PLN_STANCE_ROT_TOL_RAD, sampled PLN_STANCE_SAMPLES times per interval of its phase
 *    (the rows of a position task with an orientation; docs/math/planner.md sec. 4d);
 *  - balance: with `balance`, the ground projection of the centre of mass stays inside
 *    the support polygon (the soles of the support links, shrunk by the margin) over each
 *    interval: n_e . com(t) <= b_e for every edge e, certified by the Taylor model of the
 *    centre of mass; the optimiser's row is the sampled maximum plus a frozen margin.
 *
 * A PlnProblem is immutable once created and may be shared by threads; everything an
 * evaluation writes lives in a PlnProblemWork (one per thread), allocated once. */
#ifndef PLN_PROBLEM_H
#define PLN_PROBLEM_H

#include <stddef.h>
#include <stdio.h>

#include "dst_capsule.h"
#include "dst_mesh.h"
#include "motion/pln_bspline.h"
#include "problem/pln_geom.h"
#include "model/pln_kin.h"
#include "motion/pln_dynmotion.h"
#include "motion/pln_linkmotion.h"
#include "model/pln_contact.h"
#include "model/pln_dyn.h"
#include "model/pln_robot.h"
#include "problem/pln_scenario.h"
#include "base/pln_status.h"

typedef enum PlnRowKind {
    PLN_ROW_VELOCITY = 0,
    PLN_ROW_JOINT_TASK,
    PLN_ROW_POSITION_TASK,
    PLN_ROW_ORIENTATION_TASK,
    PLN_ROW_COLLISION,
    PLN_ROW_BALANCE,
    PLN_ROW_DYNAMICS,
    PLN_ROW_STANCE,
    PLN_ROW_FLOOR,
    PLN_ROW_TASK_BOX     /* a position task's offset per axis and sign, implied by its task
                            row (eq. P11b) */
} PlnRowKind;

/* The dynamic constraints (pln_dynrows.c, docs/math/planner.md sec. 4c), each a row per
 * constraint interval where it applies; values scaled to be comparable:
 *   FZ        (f_min - f_z) / (m g): the floor pushes (f_min = PLN_ZMP_MIN_VERTICAL_FORCE_REL m g);
 *   FRICTION  (f_x^2 + f_y^2 - mu^2 f_z^2) / (m g)^2: the force inside the friction cone;
 *   ZMP       (n_e . zmp - b_e) f_z / (m g), linear in the wrench: the ZMP inside the
 *             support polygon of the phase shrunk by zmp_margin (m when f_z = m g);
 *   TORQUE    (tau_j / tau_max_j)^2 - 1 with the soles' share of the phase. */
typedef enum PlnDynKind {
    PLN_DYN_FZ = 0,
    PLN_DYN_FRICTION,
    PLN_DYN_ZMP,
    PLN_DYN_TORQUE
} PlnDynKind;

typedef struct PlnDynCon {
    PlnDynKind kind;
    int phase;           /* ZMP, TORQUE: support phase; -1 for FZ and FRICTION */
    int edge;            /* ZMP: edge of the phase's polygon */
    int joint;           /* TORQUE: robot joint */
} PlnDynCon;

#define PLN_MAX_PHASE_EDGES 8   /* the hull of two rectangles has at most 8 edges */

/* A support phase as the problem uses it: the soles in the world and the polygon. */
typedef struct PlnPhaseGeom {
    double t0, t1;                        /* s */
    PlnSupport support;
    int n_edges;
    double polygon[PLN_MAX_PHASE_EDGES][2];   /* counter-clockwise, world xy, m */
    double edge_n[PLN_MAX_PHASE_EDGES][2];    /* outward unit normals */
    double edge_b[PLN_MAX_PHASE_EDGES];       /* n . zmp <= b keeps zmp_margin inside, m */
} PlnPhaseGeom;

/* A stance foot that moving joints carry (the floating base stands on another foot,
 * pln_robot_reroot): it must stay where it stood at the start, over its phase. */
typedef struct PlnStance {
    int phase;                            /* support phase */
    int link;                             /* the foot */
    double point[3];                      /* its sole's centre, link frame, m */
    double target[3];                     /* that point at the initial posture, world, m */
    double target_rot[9];                 /* the foot's orientation there */
} PlnStance;

/* A sole that moving joints carry, off the floor in a support phase (not among its feet):
 * its corners stay above the floor over the phase (docs/math/planner.md sec. 4d, eq.
 * P13c). */
typedef struct PlnSwing {
    int phase;                            /* support phase */
    int link;                             /* the foot */
    int sole;                             /* index in robot->soles */
} PlnSwing;

/* What a constraint row is (for reports and messages). */
typedef struct PlnRow {
    PlnRowKind kind;
    int index;       /* velocity: active joint; task rows: task; collision: pair */
    int sub;         /* velocity: control-point difference i; position: axis*2+side; collision: interval */
    double scale;    /* the row is (physical value) * scale; tolerance in the same units */
} PlnRow;

/* Options of a planning run that are not in the scenario file. */
typedef struct PlnPlanOptions {
    int no_collision;        /* drop the collision rows (the certification still measures) */
    int static_balance;      /* dynamics off: static balance as the scenario's `balance` says
                                (applied before the scenario is resolved, by pln_plan) */
    int method_override;     /* 1: use `method` instead of the scenario's */
    PlnMethod method;
    double mcd_eps_ratio;    /* MCD error of the optimiser's queries, as a fraction of eps */
    double cert_eps_ratio;   /* MCD error of the certification pass, as a fraction of eps */
    int threads;             /* threads of the collision and dynamics rows (pln_plan_run;
                                default PLN_THREADS_AUTO) */
    int geometry_override;   /* 1: plan and certify with `geometry` instead of the scenario's
                                (applied before the scenario is resolved, by pln_plan) */
    PlnGeometryKind geometry;
    int distance_override;   /* 1: the mesh rows' static distance is `distance` instead of
                                the scenario's collision.distance (applied with geometry) */
    PlnDistanceKind distance;
} PlnPlanOptions;

/* Defaults: collision on, the scenario's method, mcd_eps_ratio 0.5, cert_eps_ratio 0.25. */
PlnPlanOptions pln_plan_options_default(void);

typedef struct PlnProblem {
    const PlnRobot *robot;          /* borrowed */
    const PlnScenario *scenario;    /* borrowed, resolved */
    PlnBspline *bs;                 /* owned knot vector */
    int n_joints;                   /* robot joints */
    int n_active;                   /* moving joints */
    int n_ctrl;                     /* control points per moving joint */
    int n_vars;                     /* optimiser variables */
    int max_evaluations;            /* evaluation cap: the scenario's optimizer.max_iterations,
                                       or when not written max(PLN_SIP_DEFAULT_EVALS,
                                       PLN_SIP_DEFAULT_EVALS_PER_VAR n_vars) (eq. P22) */
    int n_intervals;                /* constraint intervals: spans * subdivisions */
    int collision;                  /* collision rows present */
    DstMcdMethod method;            /* the optimiser's MCD method */
    double eps;                     /* clearance eps, m (thesis eq. 6.1) */
    DstMcdOptions mcd;              /* the optimiser's MCD options */
    int *active;                    /* [n_active] robot joint index of each moving joint */
    double *q_init;                 /* [n_joints] initial posture (rad) */
    int *var_of;                    /* [n_active * n_ctrl] variable of a control point, -1 if fixed */
    double *ctrl_fixed;             /* [n_active * n_ctrl] value of fixed control points */
    double *lb, *ub;                /* [n_vars] bounds of x (joint limits) */
    double *H;                      /* [n_ctrl * n_ctrl] cost matrix */
    double cost_scale;              /* weight / (2 mean_i H_ii) */
    double torque2_scale;           /* cost torque2: weight / (mean Gauss-Newton diagonal) */
    double torque2_offset;          /* its torque integral at the start (subtracted) */
    int m;                          /* constraint rows */
    PlnRow *rows;                   /* [m] */
    double *row_tol;                /* [m] feasibility tolerance of each row (NLopt tol) */
    int row_collision;              /* first collision row (m if none) */
    int row_balance;                /* first balance row (m if none) */
    int n_edges;                    /* edges of the support polygon (0: no balance rows) */
    double (*polygon)[2];           /* [n_edges] its vertices, world xy, counter-clockwise, m */
    double (*edge_n)[2];            /* [n_edges] outward unit normals */
    double *edge_b;                 /* [n_edges] n . com <= b keeps the com the margin inside, m */
    int dynamics;                   /* dynamic rows present (scenario->dynamics) */
    int n_phases;
    PlnPhaseGeom *phases;           /* [n_phases] */
    int n_dyn;
    PlnDynCon *dyn;                 /* [n_dyn] */
    int *dyn_row;                   /* [n_dyn * n_intervals] row of (constraint, interval), -1 none */
    int row_dynamics;               /* first dynamic row (m if none) */
    int n_dyn_rows;
    int n_stance;                   /* stance feet held by rows (0 unless re-rooted) */
    PlnStance *stance;              /* [n_stance] */
    int n_stance_times;
    double *stance_time;            /* [n_stance_times] sample time of each stance row
                                       pair (PLN_ROW_STANCE: index = stance, sub = sample) */
    int n_swing;                    /* lifted soles held above the floor (0 unless re-rooted) */
    PlnSwing *swing;                /* [n_swing] */
    int n_swing_times;
    double *swing_time;             /* [n_swing_times] sample time of each group of floor rows
                                       (PLN_ROW_FLOOR: index = swing, sub = sample) */
    double weight;                  /* m g, N */
    double min_fz;                  /* N */
    unsigned char *moving;          /* [n_joints] 1 for the moving joints */
    int n_links_used;               /* links whose capsules appear in a pair */
    PlnGeom *geom;                  /* owned: the pairs' shapes (NULL without pairs) */
    double mcd_stop_above;          /* the optimiser's mesh queries may stop above this, m */
} PlnProblem;

/* Per-thread evaluation state. Counters accumulate over its lifetime. */
#define PLN_MAX_THREADS 64
/* threads = PLN_THREADS_AUTO: the processors the process may use (pln_cpu_count), at most
 * PLN_THREADS_AUTO_MAX and at most one per constraint interval (the unit of the split) */
#define PLN_THREADS_AUTO 0
#define PLN_THREADS_AUTO_MAX 8

typedef struct PlnProblemWork {
    double *ctrl;                   /* [n_active * n_ctrl] */
    double *q;                      /* [n_joints] */
    double *coef;                   /* [n_joints * (deg + 1)] span polynomials */
    double *coef_sub;               /* [n_joints * (deg + 1)] restricted to a sub-interval */
    double *q_err;                  /* [n_joints] */
    double *jac_a, *jac_b;          /* [3 * n_joints] */
    double *grad_ctrl;              /* [n_active * n_ctrl] */
    PlnKinWork *kin;
    PlnLinkMotion *lm;
    DstMcdResult *mcd;              /* [n_pairs * n_intervals] last collision results */
    DstStatus *mcd_status;          /* [n_pairs * n_intervals] what each MCD query returned */
    double *exact;                  /* [n_pairs * n_intervals] exact distance at each t_min, m */
    const double *frozen_margin;    /* nullable [m], per row: when set, collision rows are
                                       eps + M - exact distance at t_min and balance rows
                                       sampled max + M - b (smooth, exact gradients) instead
                                       of their certified bounds (docs/math/planner.md eq. P4) */
    const char *work_rows;          /* nullable [m]: the caller's working set (pln_sip.c).
                                       When set, a gradient is computed for a collision or
                                       dynamics row only if it is in the set or is the
                                       largest row of its kind outside it (the aggregate
                                       row, planner.md eq. P7; for collision rows, the
                                       largest outside the set of each interval); the other
                                       collision and dynamics rows' gradients are neither
                                       cleared nor written (pln_problem_constraints). With
                                       collision.distance phong, a mesh collision row in the
                                       set (and, in an evaluation without frozen margins,
                                       one near it: value above -PLN_SIP_COLLISION_MARGIN_M)
                                       takes PhongDist for its distance (planner.md sec. 7b) */
    DstPhongWorkspace *phong_ws;    /* collision.distance phong: this thread's PhongDist
                                       scratch (NULL otherwise) */
    DstPhongCache **phong_cache;    /* collision.distance phong: [n_phong_cache] = [n_pairs *
                                       n_intervals], each collision row's DstPhongCache (the
                                       enumeration of dM(S) kept across the row's queries at
                                       nearby poses, docs/math/phong.md sec. 12), owned like
                                       interval_cache: one per (pair, interval), so that the
                                       rows do not depend on the thread count. An entry is
                                       created on its row's first PhongDist query (one
                                       allocation per row and plan, none per query); NULL
                                       before, or when out of memory (the query then runs
                                       without it, with the same answer). NULL otherwise */
    int n_phong_cache;
    long phong_calls;               /* PhongDist queries of the collision rows */
    long phong_fallbacks;           /* of which did not converge: Euclidean used instead */
    double phong_seconds;           /* their time */
    double *bal_bound;              /* [n_edges * n_intervals] certified max of n.com - b, m */
    double *bal_sample;             /* [n_edges * n_intervals] sampled max of n.com - b, m */
    double *bal_t;                  /* [n_edges * n_intervals] time of that sampled max, s */
    PlnDynMotion *dm;               /* dynamics over an interval (NULL without dynamics) */
    PlnDynWork *dw;
    const double *coef_used;        /* the polynomials of the last interval motion */
    double h_used;                  /* and its length, s */
    double *dyn_bound;              /* [n_dyn_rows] certified value of each dynamic row */
    double *dyn_part;               /* [n_dyn_rows] scratch: the largest part bound of a row
                                       while its interval is bisected (pln_dynrows.c) */
    double *dyn_whole;              /* [n_dyn_rows] scratch: the whole-interval bounds while
                                       the bisection overwrites dyn_bound (eq. P6b) */
    double *dyn_lower;              /* [n_dyn_rows] a value each row takes (at the middle of the
                                       stretch last bounded; -inf when unknown), beside
                                       dyn_bound: where it is above zero, the row is broken in
                                       fact, not only by the enclosure (eq. P6c) */
    double *dyn_poly;               /* [n_dyn_rows] scratch: the bound of a row's model without
                                       its remainder, on the stretch last bounded (eq. P6e) */
    PlnTaylor *dyn_model;           /* [(PLN_CERT_REFINE_DEPTH + 1) n_dyn_rows] scratch: the
                                       rows' Taylor models of an interval's part, and of the
                                       bisection's stretches that needed their own (eq. P6e) */
    unsigned char *dyn_model_ok;    /* beside dyn_model: 0 for a torque row without a model */
    double *dyn_sample;             /* [n_dyn_rows] sampled maximum */
    double *dyn_t;                  /* [n_dyn_rows] time of the sampled maximum, s */
    double *qd, *qdd;               /* [n_joints] */
    double *nu, *nudot, *tau;       /* [6 + n_joints] */
    double *dtau_dq, *dtau_dnu, *mass; /* [(6 + n_joints)^2] */
    double *t2_y, *t2_g, *t2_geo;   /* [6 + n_joints], [3 (6 + n_joints)], [6 + n_joints]:
                                       torque cost and torque row scratch */
    long mcd_calls;
    double mcd_seconds;
    int n_helpers;                  /* extra workspaces for threads (pln_problem_work_set_threads) */
    struct PlnProblemWork **helpers;
    FILE *dump;                     /* borrowed, nullable: every MCD query is appended here */
    DstMovingCapsule *dump_a, *dump_b; /* [n_pairs * n_intervals] queries of an evaluation */
    long dump_evaluation;
    PlnGeomSweep sweep;             /* the links' swept boxes over lm's interval (pln_geom.h) */
    PlnGeomCache *geom_cache;       /* [n_pairs] warm starts of pln_problem_pair_mcd */
    PlnGeomCache *interval_cache;   /* [n_pairs * n_intervals] warm starts of the collision
                                       rows' queries, one per pair and interval: a warm start
                                       can change a mesh distance within its tolerance, so
                                       each (pair, interval) keeps its own history and the
                                       rows do not depend on the thread count */
} PlnProblemWork;

/* Builds the problem of a resolved scenario on its robot. PLN_ERR_INVALID when the
 * scenario cannot be posed (e.g. the initial posture violates a limit); the message
 * names the scenario file and the field. */
PlnStatus pln_problem_create(PlnProblem **out, const PlnRobot *robot,
                             const PlnScenario *scenario, const PlnPlanOptions *options,
                             char *err, size_t err_size);
void pln_problem_destroy(PlnProblem *p);

PlnStatus pln_problem_work_create(const PlnProblem *p, PlnProblemWork **out, char *err,
                                  size_t err_size);
void pln_problem_work_destroy(PlnProblemWork *w);

/* Spreads the collision and dynamics rows over `threads` threads (1..PLN_MAX_THREADS, or
 * PLN_THREADS_AUTO), each with a workspace of its own; each thread takes the next interval
 * not yet taken, and every row is computed the same way whichever workspace computes it,
 * so results depend neither on the thread count nor on which thread took what. */
PlnStatus pln_problem_work_set_threads(const PlnProblem *p, PlnProblemWork *w, int threads,
                                       char *err, size_t err_size);

/* A job on interval i: computes in `scratch` (w itself, or one of its helpers, whose
 * ctrl, frozen_margin and work_rows are the caller's) and writes only interval i's rows
 * and entries of w's per-row arrays. */
typedef PlnStatus (*PlnIntervalJob)(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *scratch,
                                    int i, void *arg, char *err, size_t err_size);

/* Runs job on every interval over T threads (T = 1 + w->n_helpers, at most n_intervals;
 * the caller's thread is one), each taking the next interval not yet taken (a shared
 * counter: an interval with near pairs costs several times one without, and a fixed
 * split left one thread waiting); returns the first thread's error. A job's result must
 * not depend on what its scratch computed before. */
PlnStatus pln_problem_each_interval(const PlnProblem *p, PlnProblemWork *w, PlnIntervalJob job,
                                    void *arg, char *err, size_t err_size);

/* Appends every MCD query of every later evaluation to `dump` (borrowed; text, format in
 * docs/FILE_FORMATS.md), in pair-interval order, so benchmarks can replay real work. */
PlnStatus pln_problem_work_set_dump(const PlnProblem *p, PlnProblemWork *w, FILE *dump,
                                    char *err, size_t err_size);

/* Control points (rad) of the moving joints from x: ctrl[j * n_ctrl + i]. */
void pln_problem_ctrl(const PlnProblem *p, const double *x, double *ctrl);

/* x of the trajectory that stays at the initial posture (the optimiser's start). */
void pln_problem_initial_x(const PlnProblem *p, double *x);

/* x from control points (the inverse of pln_problem_ctrl on its image; tied variables
 * take the value of their last control point). */
void pln_problem_x_from_ctrl(const PlnProblem *p, const double *ctrl, double *x);

/* Joint positions of all robot joints at time t (rad): spline for the moving joints,
 * initial value for the others. q[n_joints]. */
PlnStatus pln_problem_joints_at(const PlnProblem *p, const double *ctrl, double t, double *q);

/* The same with the time derivatives: q, qd (rad/s), qdd (rad/s^2), each [n_joints];
 * the joints that do not move have qd = qdd = 0. */
PlnStatus pln_problem_state_at(const PlnProblem *p, const double *ctrl, double t, double *q,
                               double *qd, double *qdd);

/* Objective and its gradient grad[n_vars] (nullable). */
double pln_problem_cost(const PlnProblem *p, PlnProblemWork *w, const double *x, double *grad);

/* The Hessian of the objective with respect to x, hess[n_vars * n_vars] (symmetric), when
 * it is constant: the acceleration or jerk cost (eq. P2), 2 cost_scale S^T H S per joint
 * (docs/math/planner.md eq. P23). Returns 0 and leaves hess alone for the torque cost,
 * whose Hessian changes with x. */
int pln_problem_cost_hessian(const PlnProblem *p, double *hess);

/* Every constraint row c[m] <= 0 and its gradient grad[m * n_vars] (row-major, nullable).
 * With w->work_rows set, the gradients of the collision and dynamics rows outside the set,
 * but the aggregate candidates, are left as grad held them (see work_rows): the 8 MB of a
 * support problem's full matrix were cleared and mostly rewritten at every evaluation.
 * The collision results of the evaluation are left in w->mcd. */
PlnStatus pln_problem_constraints(const PlnProblem *p, PlnProblemWork *w, const double *x,
                                  double *c, double *grad, char *err, size_t err_size);

/* The rows before the collision rows (velocity, tasks, stance feet: the ones that need
 * no distance query), c[row_collision] and grad[row_collision * n_vars] (nullable): the
 * same values as pln_problem_constraints() gives those rows, at a fraction of its cost. */
PlnStatus pln_problem_kinematic_rows(const PlnProblem *p, PlnProblemWork *w, const double *x,
                                     double *c, double *grad, char *err, size_t err_size);

/* 1 for a task row (joint, position or orientation task). */
int pln_problem_row_is_task(const PlnProblem *p, int row);

/* Time interval [t0, t1] (s) of constraint interval i. */
void pln_problem_interval(const PlnProblem *p, int i, double *t0, double *t1);

/* Moving capsules of pair `pair` over constraint interval `i`, from the Taylor models
 * of the link motion computed by pln_problem_interval_motion(). */
PlnStatus pln_problem_interval_motion(const PlnProblem *p, PlnProblemWork *w, const double *ctrl,
                                      int i, char *err, size_t err_size);

/* The same on the part [a, b] (0 <= a < b <= 1, fractions of the interval) of constraint
 * interval i, i.e. on [t0 + a (t1 - t0), t0 + b (t1 - t0)]: the joint polynomials
 * restricted to it (their rounding bounded), so that its Taylor models are tighter. */
PlnStatus pln_problem_interval_motion_part(const PlnProblem *p, PlnProblemWork *w,
                                           const double *ctrl, int i, double a, double b,
                                           char *err, size_t err_size);
void pln_problem_pair_capsules(const PlnProblem *p, const PlnProblemWork *w, int pair,
                               DstMovingCapsule *a, DstMovingCapsule *b);

/* The static distance of a pair at the poses of kin (after pln_kin_forward), in the
 * scenario's geometry (pln_geom_pair_distance; PlnPairDistance in pln_geom.h). On a
 * failure of the distance routine *out is zero. */
void pln_problem_pair_distance(const PlnProblem *p, const PlnKinWork *kin, int pair,
                               PlnPairDistance *out);

/* The MCD of a pair over [t0, t1] from the link motion in w->lm, in the scenario's
 * geometry (pln_geom_pair_mcd: the capsule MCD of `method` for capsules, conservative
 * advancement for convex and ellipsoid shapes, adaptive subdivision for meshes), with
 * w's warm starts. stop_above: see pln_geom_pair_mcd (+INFINITY: never stop early).
 * Nullable: a_out, b_out (the moving capsules queried; zero for other geometry). */
DstStatus pln_problem_pair_mcd(const PlnProblem *p, PlnProblemWork *w, int pair,
                               DstMcdMethod method, double t0, double t1,
                               const DstMcdOptions *opt, double stop_above, DstMcdResult *res,
                               DstMovingCapsule *a_out, DstMovingCapsule *b_out);

/* Name of a row for messages ("collision RARM_LINK6-LARM_LINK6 [1.20, 1.40] s"). */
void pln_problem_row_name(const PlnProblem *p, int row, char *buf, size_t size);

/* The MCD method of distance/ that a --method name means. */
DstMcdMethod pln_method_to_dst(PlnMethod method);

#endif /* PLN_PROBLEM_H */
