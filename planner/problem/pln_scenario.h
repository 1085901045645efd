/* pln_scenario.h — a planning problem as the user writes it in YAML.
 *
 * Loading happens in two steps so that each can be tested alone:
 *  1. pln_scenario_parse() reads and validates the file on its own: types, ranges,
 *     unknown keys, times inside [0, duration], NaN. Names of joints and links are kept
 *     as text with the line where they appear.
 *  2. pln_scenario_resolve() checks those names against a robot model and turns them
 *     into indices; an unknown joint or link is reported at its line.
 * Every error names file:line:column and the field path (e.g.
 * "scenarios/x.yaml:31:11: tasks[2].link: unknown link 'RARM_LNK6'"). The schema, with an
 * example for every field, is docs/SCENARIO_FORMAT.md. Units: metres, seconds, radians. */
#ifndef PLN_SCENARIO_H
#define PLN_SCENARIO_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"

#define PLN_SCENARIO_MAX_TASKS 256
#define PLN_SCENARIO_MAX_PAIRS 512
#define PLN_SCENARIO_MAX_OBSTACLES 64

/* A name as written in the file, with where it was written (for resolve errors). */
typedef struct PlnNameRef {
    char name[PLN_NAME_MAX];
    int line, column;     /* 1-based */
    int index;            /* filled by resolve: joint, link or obstacle index; -1 before */
} PlnNameRef;

/* Whole-body dynamics of a scenario (`dynamics:`; docs/SCENARIO_FORMAT.md). */
typedef enum PlnDynamicsMode {
    PLN_DYNAMICS_AUTO = 0,   /* on when the robot has soles and effort limits */
    PLN_DYNAMICS_ON,         /* ZMP, friction and (with effort limits) torque constraints */
    PLN_DYNAMICS_OFF         /* static balance only (the `balance` section), as --static-balance */
} PlnDynamicsMode;

#define PLN_MAX_PHASES 64        /* support phases per scenario */
#define PLN_MAX_PHASE_FEET 2     /* soles on the floor at once (both feet) */

/* A support phase: which soles rest on the floor over [t0, t1]. */
typedef struct PlnSupportPhase {
    double t0, t1;           /* s */
    int n_feet;              /* 1..PLN_MAX_PHASE_FEET */
    PlnNameRef feet[PLN_MAX_PHASE_FEET];  /* links with a sole in the robot file */
    int line, column;        /* of the phase in the scenario, 1-based */
    int has_place;           /* a foot lands at a new place in this phase (`place`) */
    PlnNameRef place_foot;   /* the foot (one of `feet`, off the floor in the phase before) */
    double place[3];         /* its sole centre's world x, y (m) and the yaw of its x axis
                                about the vertical (rad) */
    int place_line;          /* of `place.at` */
} PlnSupportPhase;

typedef enum PlnTaskType {
    PLN_TASK_POSITION = 0,   /* a point of a link reaches a world position (and orientation) */
    PLN_TASK_JOINT           /* a joint reaches a value */
} PlnTaskType;

typedef struct PlnTask {
    PlnTaskType type;
    double time;                  /* s, in [0, duration] */
    double tolerance;             /* m (position) or rad (joint), >= 0 */
    PlnNameRef link;              /* POSITION */
    double point[3];              /* POSITION: body point in the link frame, m */
    double target[3];             /* POSITION: world position, m */
    int has_orientation;          /* POSITION: also reach an orientation */
    double target_rot[9];         /* from `orientation: [roll, pitch, yaw]`, row-major */
    double orientation_tolerance; /* rad, angle of R_target^T R */
    PlnNameRef joint;             /* JOINT */
    double value;                 /* JOINT: rad */
    int line;                     /* where the task starts in the file */
} PlnTask;

typedef enum PlnCostType {
    PLN_COST_ACCELERATION = 0,    /* integral of |q''|^2 */
    PLN_COST_JERK,                /* integral of |q'''|^2 */
    PLN_COST_TORQUE2,             /* integral of sum_j (tau_j / tau_max_j)^2 (eq. P14) */
    PLN_COST_TIME                 /* the shortest certified duration (planner.md sec. 2b) */
} PlnCostType;

/* Link geometry the collision constraints use (the robot file gives each kind per link,
 * docs/ROBOT_FORMAT.md). Distances are Euclidean signed distances in every case. */
typedef enum PlnGeometryKind {
    PLN_GEOMETRY_CAPSULE = 0,     /* capsules: capsule MCD (thesis ch. III) */
    PLN_GEOMETRY_CONVEX,          /* convex hulls of the link meshes (or of `convex` files):
                                   * conservative advancement on GJK (dst_convex_mcd) */
    PLN_GEOMETRY_ELLIPSOID,       /* the links' ellipsoids: conservative advancement on GJK */
    PLN_GEOMETRY_MESH             /* triangle meshes: adaptive subdivision (thesis ch. IV) */
} PlnGeometryKind;

/* The static distance of a mesh pair's working collision rows (collision.distance,
 * docs/math/planner.md sec. 7b): the Euclidean signed distance, or PhongDist (thesis
 * ch. V, dst_phong.h), whose direction is continuous. Certification is Euclidean MCD in
 * both cases. */
typedef enum PlnDistanceKind {
    PLN_DISTANCE_EUCLIDEAN = 0,
    PLN_DISTANCE_PHONG
} PlnDistanceKind;

/* Continuous-distance method of the collision constraints (collision.method, --method). */
typedef enum PlnMethod {
    PLN_METHOD_HYBRID = 0,  /* thesis sec. III.D (default) */
    PLN_METHOD_GSS,         /* golden-section search, sec. III.B (not certified) */
    PLN_METHOD_CA,          /* conservative advancement, sec. III.C */
    PLN_METHOD_SAMPLING     /* certified sampling, eq. 6.3 */
} PlnMethod;

typedef enum PlnObstacleType {
    PLN_OBSTACLE_CAPSULE = 0,     /* segment p0-p1 with a radius, world frame */
    PLN_OBSTACLE_SPHERE,          /* centre with a radius */
    PLN_OBSTACLE_BOX,             /* centre, orientation and full size */
    PLN_OBSTACLE_MESH             /* a triangle mesh file placed at a pose (and scaled) */
} PlnObstacleType;

typedef struct PlnObstacle {
    char name[PLN_NAME_MAX];
    PlnObstacleType type;
    double p0[3], p1[3];          /* world frame, m (a sphere has p0 == p1 == centre) */
    double radius;                /* m, > 0 (capsule, sphere) */
    double pos[3], rot[9];        /* box: centre, mesh: origin of the file's frame (m), and
                                   * orientation (row-major), world */
    double half[3];               /* box: half extents, m, > 0 */
    char mesh_path[1024];         /* mesh: the file (OBJ, STL, DAE, PLY, OFF), resolved relative to the
                                   * scenario file's directory */
    double scale;                 /* mesh: file units to metres, > 0 (default 1); the mesh's
                                   * world points are pos + rot (scale * file point) */
    int line;
} PlnObstacle;

/* A collision pair: link a against link b, or link a against obstacle b. */
typedef struct PlnPair {
    PlnNameRef a;
    PlnNameRef b;
    int b_is_obstacle;            /* set by resolve */
} PlnPair;

/* Where a scenario's pairs come from (collision.pairs, docs/SCENARIO_FORMAT.md). */
typedef enum PlnPairPreset {
    PLN_PAIRS_ALL = 0,   /* default: every link pair and every link-obstacle pair that can
                            come closer, from the model (problem/pln_pairs.h) */
    PLN_PAIRS_ROBOT,     /* the robot file's collision_pairs (HRP-2: thesis Table 6.1) */
    PLN_PAIRS_LIST       /* exactly the pairs listed */
} PlnPairPreset;

/* Why a pair of the ALL preset is not measured. */
typedef enum PlnPairExclusion {
    PLN_EXCLUDE_ADJACENT = 0,  /* one link is the other's parent: they share a joint */
    PLN_EXCLUDE_RIGID,         /* no moving joint between them: the distance is constant */
    PLN_EXCLUDE_START_CONTACT, /* overlapping at the initial posture */
    PLN_EXCLUDE_ALWAYS_CONTACT,/* overlapping at every sampled posture of the joints between */
    PLN_EXCLUDE_NO_GEOMETRY,   /* a link has no shape of the scenario's geometry */
    PLN_EXCLUDE_OBSTACLE_KIND, /* the obstacle cannot be measured in this geometry */
    PLN_EXCLUDE_REMOVED        /* collision.pairs.remove names it */
} PlnPairExclusion;

/* A pair left out, why, and its distance at the initial posture (m; NAN if not measured). */
typedef struct PlnExcludedPair {
    PlnPair pair;
    PlnPairExclusion reason;
    double distance;
} PlnExcludedPair;

/* "adjacent", "rigid", ...: a static string. */
const char *pln_pair_exclusion_string(PlnPairExclusion reason);

typedef enum PlnAlgorithm {
    PLN_ALGORITHM_SLSQP = 0,
    PLN_ALGORITHM_MMA,
    PLN_ALGORITHM_CCSAQ,
    PLN_ALGORITHM_AUGLAG,  /* augmented Lagrangian around bound-constrained L-BFGS */
    PLN_ALGORITHM_SQP,     /* the project's SQP (planner/base/pln_sqp.h, docs/math/sqp.md) */
    PLN_ALGORITHM_AUTO     /* the default: the SQP, or SLSQP when the problem has mesh
                              collision rows; SLSQP again from the same start when the
                              SQP's motion does not certify (pln_sip_algorithm,
                              pln_plan_optimise; docs/math/sqp.md sec. 7) */
} PlnAlgorithm;

typedef struct PlnScenario {
    char name[PLN_NAME_MAX];
    char path[1024];              /* the scenario file */
    char robot_path[1024];        /* resolved relative to the scenario file's directory */
    int robot_line, robot_column; /* of the `robot` value, 1-based */
    double duration;              /* s, > 0 */
    int degree;                   /* spline degree, 3..7 (default 5) */
    int spans;                    /* knot spans, 1..200 */

    int n_active;                 /* moving joints, in the order written */
    PlnNameRef *active;
    int n_initial;                /* overrides of the robot's initial posture */
    PlnNameRef *initial_joint;
    double *initial_value;

    int rest_start, rest_end;     /* zero velocity and acceleration at 0 / at duration */
    int n_tasks;
    PlnTask *tasks;

    PlnCostType cost;
    double cost_weight;           /* > 0 */
    int cost_line;                /* line of `cost.type` (0 when absent) */
    double cost_smoothing;        /* torque2: weight of the acceleration term, >= 0 */
    double cost_min_duration;     /* time: the shortest duration tried, s (0: a tenth of
                                     the duration) */

    int collision;                /* collision constraints on (default 1) */
    PlnGeometryKind geometry;
    PlnDistanceKind distance;     /* collision.distance (default euclidean); phong needs
                                     geometry mesh (checked by parse and by resolve) */
    int distance_line;            /* line of `collision.distance` (0 when absent) */
    PlnMethod method;
    double eps;                   /* clearance eps of eq. 6.1, m, >= 0 (default 1e-3) */
    double limit_margin;          /* limits.position_margin, rad, in [0, 0.5] */
    double velocity_scale;        /* limits.velocity_scale, in (0, 1] */
    int subdivisions;             /* constraint intervals per knot span, >= 1 */
    PlnPairPreset pair_preset;    /* default PLN_PAIRS_ALL */
    int n_pairs;                  /* the pairs measured (after resolve: preset + add -
                                     remove - exclusions) */
    PlnPair *pairs;
    int n_pairs_add, n_pairs_remove; /* collision.pairs {add, remove} of a preset */
    PlnPair *pairs_add, *pairs_remove;
    int n_excluded;               /* pairs of the preset left out (resolve), with reasons */
    PlnExcludedPair *excluded;
    int n_obstacles;
    PlnObstacle *obstacles;

    int balance;                  /* static balance constraint on */
    double balance_margin;        /* m, >= 0 */
    int n_support;                /* links whose contact points form the support polygon */
    PlnNameRef *support;

    PlnDynamicsMode dynamics_mode; /* as written (default AUTO) */
    int dynamics;                 /* after resolve: 1 when the dynamic constraints apply */
    double zmp_margin;            /* m, >= 0 (default 0.01): the ZMP stays this far inside */
    double mu;                    /* friction coefficient, > 0 (default 0.5) */
    int torque_limits;            /* after resolve: 1 when |tau| <= effort_max is constrained */
    int torque_asked;             /* -1 not said, 0/1 as written (`dynamics.torque`) */
    int n_phases;                 /* after resolve >= 1 when dynamics is on */
    PlnSupportPhase phases[PLN_MAX_PHASES];
    int phases_line;              /* line of `support:` (0 when absent) */

    PlnAlgorithm algorithm;
    int max_iterations;           /* evaluation cap; 0 when not written: the problem's
                                     max_evaluations then follows its size (eq. P22) */
    double time_limit;            /* s, > 0; when not written pln_plan_load grows it with
                                     the evaluation budget (eq. P22b) */
    int time_limit_written;       /* 1 when optimizer.time_limit is written */
    double xtol_rel, ftol_rel;
    int precondition;             /* optimise in the cost-preconditioned variables (eq. P23;
                                     `optimizer.precondition`, default 1) */

    double rate_hz;               /* output sampling rate (default 200 Hz) */
    char out_dir[1024];           /* "" -> out/<name>/ */
} PlnScenario;

/* Scales every time of a resolved scenario by k > 0: the duration, the task times and the
 * support phases (cost type time: the same path, traversed k times as long). */
void pln_scenario_scale_time(PlnScenario *sc, double k);

/* Name of a method ("hybrid", "gss", "ca", "sampling"); a static string. */
const char *pln_method_string(PlnMethod method);

/* Method from its name; PLN_ERR_INVALID for anything else (nullable: name). */
PlnStatus pln_method_from_string(const char *name, PlnMethod *method);

/* "capsule", "convex", "ellipsoid", "mesh" -> kind; PLN_ERR_INVALID for anything else. */
PlnStatus pln_geometry_from_string(const char *name, PlnGeometryKind *kind);

/* "euclidean", "phong" -> kind; PLN_ERR_INVALID for anything else (nullable: name). */
PlnStatus pln_distance_from_string(const char *name, PlnDistanceKind *kind);

/* "euclidean", "phong"; a static string. */
const char *pln_distance_string(PlnDistanceKind kind);

/* Step 1: reads and validates the file. On failure the scenario holds nothing to free
 * (it is zeroed). */
PlnStatus pln_scenario_parse(const char *path, PlnScenario *scenario, char *err, size_t err_size);

/* Step 2: resolves names against `robot` (borrowed): joints, links, obstacle names in
 * pairs; duplicate moving joints and pairs of a link with itself are errors. Decides
 * whether dynamics applies (static_balance forces it off) and checks the support phases
 * against the robot's soles: they must cover [0, duration] without gap or overlap, name
 * links with soles, and leave room for zmp_margin inside every sole. Builds the
 * pair set of the preset (problem/pln_pairs.h for PLN_PAIRS_ALL, which measures the
 * shapes at the initial posture), then adds and removes the listed pairs. */
PlnStatus pln_scenario_resolve(PlnScenario *scenario, const PlnRobot *robot, char *err,
                               size_t err_size);

/* Turns dynamics off before resolve (the --static-balance option). */
void pln_scenario_static_balance(PlnScenario *scenario);

/* Frees what a scenario owns; safe on a zeroed one. */
void pln_scenario_destroy(PlnScenario *scenario);

const char *pln_algorithm_string(PlnAlgorithm algorithm);

#endif /* PLN_SCENARIO_H */
