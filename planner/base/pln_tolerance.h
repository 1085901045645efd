/* pln_tolerance.h — every numerical tolerance of planner/, with its unit and reason.
 * Local tolerances are derived from these; user-facing ones are options whose defaults
 * are defined here. */
#ifndef PLN_TOLERANCE_H
#define PLN_TOLERANCE_H

#include <float.h>

/* Relative tolerance on sample times (dimensionless): a sample within this fraction of
 * the end time is the end time itself, so a 200 Hz table of a 2 s motion ends at exactly
 * 2 s instead of adding a sample 1e-15 s before it. */
#define PLN_TIME_EPS_REL 1e-9

/* pi, which strict C11 <math.h> does not define. */
#define PLN_PI 3.14159265358979323846

/* Largest |joint value| a trajectory file may hold, rad (or m): a humanoid's joints stay
 * within a few radians, so a larger sample or control point is an input error. It is
 * refused when the file is read, with its line and column, instead of overflowing the
 * Taylor models of the motion later (sin/cos remainders of 1e308 rad are not finite). */
#define PLN_MAX_JOINT_ABS 1e3

/* Default clearance eps of the non-penetration constraint, m (thesis eq. 6.1). */
#define PLN_DEFAULT_EPS_M 1e-3

/* Largest eps a scenario may ask for, m: beyond 10 cm it is a margin, not a tolerance. */
#define PLN_MAX_EPS_M 0.1

/* Default tolerance of a position task, m, and of a joint or orientation task, rad. */
#define PLN_DEFAULT_TASK_TOLERANCE_M 1e-3
#define PLN_DEFAULT_TASK_TOLERANCE_RAD 1e-3

/* Default and largest margin of the static balance constraint, m. */
#define PLN_DEFAULT_BALANCE_MARGIN_M 0.01
#define PLN_MAX_BALANCE_MARGIN_M 0.2
#define PLN_DEFAULT_ZMP_MARGIN_M 0.01  /* the ZMP stays this far inside the support polygon */
#define PLN_DEFAULT_MU 0.5             /* friction coefficient of the floor */
#define PLN_MAX_MU 10.0                /* larger is a typo, not a floor */
#define PLN_PHASE_TIME_TOL_S 1e-9      /* support phases meet when their ends differ by less */

/* Smallest vertical ground force a motion may need, as a fraction of the robot's weight
 * (dimensionless): below it the feet would leave the ground and the ZMP (a moment over
 * that force) is undefined or meaningless. */
#define PLN_ZMP_MIN_VERTICAL_FORCE_REL 1e-3
/* the planner keeps the floor's push at least this fraction of the weight: standing
 * motions never come near it, and the ZMP stays well defined (docs/math/planner.md 4c) */
#define PLN_DYN_MIN_FZ_REL 0.1
/* the bound of a dynamic row that has none: a torque row whose interval (or part) has no
 * certified floor force to share among the soles, or a bound that is not finite. Large and
 * finite, so that the row reads broken; the loop freezes no margin from it (planner.md
 * sec. 4c) */
#define PLN_DYN_UNCERTIFIED 1e3
/* stance soles flat and at one height to this, m */
#define PLN_SOLE_FLAT_TOL_M 1e-6
/* SIP: dynamic rows join the working set within this of zero (scaled units) */
#define PLN_SIP_DYNAMICS_MARGIN 0.05

/* Capsule fit (model/pln_capfit.c, eq. CF5): the certified radius is the largest distance
 * of any point to the segment times (1 + PLN_CAPFIT_ROUND_REL), plus PLN_CAPFIT_ROUND_REL
 * times the largest |coordinate|: room for the rounding of that distance (a few ulps) and
 * of the segment's endpoints. The radius is at least PLN_CAPFIT_MIN_RADIUS_M (collinear
 * points would give 0, which the capsule method refuses). */
#define PLN_CAPFIT_ROUND_REL 1e-12
#define PLN_CAPFIT_MIN_RADIUS_M 1e-6

/* Link meshes of primitives (model/pln_linkmesh.c, docs/URDF.md eq. LM1-LM4): the
 * polygon and polyhedron that stand in for a cylinder, sphere or capsule are widened by
 * this relative amount beyond the exact circumscribing size, room for the rounding of their
 * vertices (sin, cos: a few ulps) so that they still enclose the primitive. */
#define PLN_LINKMESH_ROUND_REL 1e-12

/* Joint-limit margins of a plan (scenario `limits`, docs/SCENARIO_FORMAT.md): the spline's
 * control points keep this far inside every position limit (rad), and the velocity rows
 * aim at this fraction of every velocity limit, so that a plan ends with room before the
 * limits that real motors and controllers need (0.005 rad is 0.29 deg; 5% of speed).
 * Certification still checks the robot's own limits. */
#define PLN_DEFAULT_LIMIT_MARGIN_RAD 0.005
#define PLN_MAX_LIMIT_MARGIN_RAD 0.5
#define PLN_DEFAULT_VELOCITY_SCALE 0.95
/* a control point this near a margin's bound counts as held by it (certificate message) */
#define PLN_MARGIN_BOUND_TOL_RAD 1e-6

/* Smallest cost weight (a zero weight would leave the problem without an objective). */
#define PLN_MIN_COST_WEIGHT 1e-12

/* Floor of the mean diagonal of the cost matrix used to normalise the objective
 * (units of the cost matrix): only a degenerate spline comes near it. */
#define PLN_MIN_COST_HESSIAN 1e-300
/* cost torque2 (docs/math/planner.md eq. P14): default weight of the normalised
 * acceleration term added to the torque integral (cost.smoothing), and its largest
 * accepted value. The torque integral alone leaves the motions that change no torque
 * (light distal joints, the speed of a motion between gravity-free postures) nearly
 * unpenalised; the term keeps the optimum well posed. */
#define PLN_TORQUE2_SMOOTHING 0.1
#define PLN_MAX_COST_SMOOTHING 1000.0

/* cost type time (pln_plan_shorten): the duration search's floor without
 * cost.min_duration (a fraction of the scenario's duration), its largest number of plans,
 * and the ratio of its bracket at which it stops */
#define PLN_TIME_SEARCH_FLOOR 0.1
#define PLN_TIME_SEARCH_PLANS 8
#define PLN_TIME_SEARCH_REL 0.03

/* Shortest motion, s, and shortest optimiser time budget, s. */
#define PLN_MIN_DURATION_S 0.01
#define PLN_MIN_TIME_LIMIT_S 0.01

/* Physical ranges of the numbers in the input files (loaders refuse what lies outside,
 * naming file:line:column and field, instead of failing deep inside or after a plan):
 * - every number of every YAML/JSON input: |x| <= PLN_MAX_NUMBER_ABS (SI units; the
 *   largest legitimate values are an output rate of 1e5 Hz and a mesh scale below 1e6);
 * - positions in the world (obstacles, task targets, the robot's base): |x| <= 100 m;
 * - lengths within the robot (link origins, centres of mass, capsule, ellipsoid and
 *   sole geometry, task points on a link): |x| <= 10 m;
 * - angles given as roll-pitch-yaw: |x| <= 10 rad (beyond one turn either way);
 * - velocities of a mechanism's bodies (hrpplan impact): |v| <= 1000 m/s or rad/s. */
#define PLN_MAX_NUMBER_ABS 1e6
#define PLN_MAX_WORLD_M 100.0
#define PLN_MAX_BODY_M 10.0
#define PLN_MAX_RPY_RAD 10.0
#define PLN_MAX_SPEED 1000.0

/* A sampled trajectory (hrpplan check of a .pos or .csv) lies within the scenario's
 * [0, duration] up to this much (the exported times are printed to 1e-9 s or better). */
#define PLN_TABLE_TIME_TOL_S 1e-6

/* Input files (base/pln_file.c): the largest file of each kind hrpplan reads, checked
 * before a byte is read. A YAML or JSON input (scenario, robot, mechanism,
 * trajectory.json) of the largest robot and plan is a few MiB; a .pos or .csv table at
 * 1 kHz of 60 joints for an hour is ~300 MiB. */
#define PLN_MAX_YAML_BYTES (64LL * 1024 * 1024)
#define PLN_MAX_TABLE_BYTES (512LL * 1024 * 1024)
/* mesh files, as distance/dst_mesh.c caps them (DST_MESH_MAX_FILE_BYTES) */
#define PLN_MAX_MESH_BYTES (512LL * 1024 * 1024)
/* Deepest nesting of YAML collections: the files' own schemas nest 5 levels; libyaml's
 * scanner costs time quadratic in the depth (100k levels took 45 s), so deeper
 * documents are refused before they are loaded. */
#define PLN_YAML_MAX_DEPTH 64

/* The wall-clock limit of last resort of a run (base/pln_watchdog.h, --timeout): plan,
 * check and simulate stop after PLN_TIMEOUT_DEFAULT_S, and plan after
 * PLN_TIMEOUT_BUDGET_FACTOR times its optimiser budget when that is longer (the budget
 * bounds the optimiser only; the certificate, the outputs and, with --simulate, the
 * simulation come after it). The default sits far above any plan of the shipped
 * scenarios (minutes at most): it exists for the runs that no budget bounds (a
 * pathological mesh, a certificate that subdivides without end), so that an unattended
 * batch never hangs. --timeout accepts up to PLN_TIMEOUT_MAX_S (30 days). */
#define PLN_TIMEOUT_DEFAULT_S 3600.0
#define PLN_TIMEOUT_BUDGET_FACTOR 3.0
#define PLN_TIMEOUT_MAX_S 2592000.0

/* Most constraint intervals (knot spans x subdivisions) of one scenario. */
#define PLN_MAX_INTERVALS 2000


/* Relative slack, in units of the trajectory duration T, by which a time may fall
 * outside [0, T] and still be accepted (and clamped) by the B-spline evaluators:
 * covers rounding in callers that compute t = t0 + s * (t1 - t0). Dimensionless. */
#define PLN_BSPLINE_TIME_SLOP 1e-12

/* Relative outward widening of B-spline bounds computed in floating point (derivative
 * control points k (P_{i+1} - P_i) / dt carry a few roundings): a multiple of the
 * double-precision unit roundoff, dimensionless. */
#define PLN_BSPLINE_BOUND_WIDEN 1e-14

/* MCD error of the optimiser's collision queries, as a fraction of eps: it bounds how far
 * the MCD's witness time is from the minimum, hence the size of the frozen margins
 * (docs/math/planner.md eq. P6). */
#define PLN_OPT_MCD_EPS_RATIO 0.5

/* MCD error of the certification pass, as a fraction of eps: a plan whose rows hold
 * with lower >= eps certifies with lower >= 3 eps / 4 (docs/math/planner.md sec. 6). */
#define PLN_CERT_MCD_EPS_RATIO 0.25

/* Exchange method of the SIP loop (pln_sip.c): a velocity row joins the working set
 * once the speed exceeds (1 - margin) of its limit, a collision row once the clearance
 * falls below eps + margin (m), a balance row once the centre of mass comes within its
 * margin (m) of a shrunk support edge; a run counts as feasible when no row exceeds
 * PLN_SIP_FEASIBLE (row units). */
#define PLN_SIP_VELOCITY_MARGIN 0.3
#define PLN_SIP_COLLISION_MARGIN_M 0.03
#define PLN_SIP_BALANCE_MARGIN_M 0.02
#define PLN_SIP_FEASIBLE 1e-5

/* Preconditioned variables of the optimiser (docs/math/planner.md eq. P23): z = L^T x
 * with L L^T = H_x + PLN_SIP_PRECOND_REG h I, H_x the constant Hessian of the acceleration
 * or jerk cost and h its mean diagonal, so that SLSQP's first quasi-Newton model (the
 * identity in z) is the cost's own curvature. The regularisation keeps the steps along
 * the smoothest motions finite (without it, 0, the first step went to the cost's minimum,
 * far from the tasks); 3e-3 had the fewest evaluations on bench_plan_random of 0, 1e-3,
 * 3e-3, 1e-2, 3e-2 and 0.1 (docs/PERFORMANCE.md "Session 21"). */
#define PLN_SIP_PRECOND_REG 3e-3

/* In the preconditioned variables the joint limits are rows that a trial step may cross:
 * the rows and the objective are evaluated at x clamped into the round's box widened by
 * this fraction of each variable's range (dimensionless; docs/math/planner.md eq. P23).
 * Without the clamp a wild step made a Taylor model overflow; clamping onto the box itself
 * (0) made twist take 149 evaluations instead of 71. */
#define PLN_SIP_PRECOND_SLACK 0.25

/* The limit rows of a preconditioned round (docs/math/planner.md eq. P23b) that NLopt is
 * given one by one: those within this fraction of the variable's range of their bound
 * (dimensionless); the others are one aggregate row, their largest. Of 0.1, 0.25 and 0.5,
 * 0.25 took the least time on 80 problems of bench_plan_random (docs/PERFORMANCE.md,
 * session 22): fewer rows make each SLSQP iteration cheaper, more rows save the
 * evaluations in which SLSQP meets excluded limits one at a time. */
#define PLN_SIP_LIMIT_MARGIN 0.25

/* The evaluation cap of a scenario that sets no optimizer.max_iterations (eq. P22):
 * max(PLN_SIP_DEFAULT_EVALS, PLN_SIP_DEFAULT_EVALS_PER_VAR x the optimiser's variables).
 * 300 was the fixed cap before session 19; whole-body support problems (224 variables)
 * needed a median 411 evaluations, one 875 (docs/PERFORMANCE.md, session 19). */
#define PLN_SIP_DEFAULT_EVALS 300
#define PLN_SIP_DEFAULT_EVALS_PER_VAR 4
/* ... and its time limit without optimizer.time_limit (eq. P22b): max(PLN_SIP_DEFAULT_TIME_S,
 * PLN_SIP_DEFAULT_S_PER_EVAL x that cap), s, so that the budget and not the clock ends a
 * large problem. The fixed 120 s stopped a side step on a free base after 249 of its 1152
 * evaluations, uncertified; with the budget it certified (docs/PERFORMANCE.md, session 20). */
#define PLN_SIP_DEFAULT_TIME_S 120.0
#define PLN_SIP_DEFAULT_S_PER_EVAL 0.5

/* Elastic phase of the SIP loop (pln_sip.c, docs/math/planner.md eq. P15): when a run ends
 * with a row violated, the task rows leave the constraints and enter the objective as
 * W sum (max(0, c) / s)^2, s the task's tolerance (at least PLN_SIP_ELASTIC_MIN_SCALE, m,
 * rad or 1 - cos). W makes a miss of one tolerance weigh a thousand times a typical
 * normalised cost (eq. P2 scales the cost to about 1), so the optimiser trades no
 * reachable part of a target for smoothness. */
#define PLN_SIP_ELASTIC_WEIGHT 1e3

/* Restarts (issue 21 item 3, docs/math/planner.md sec. 5c): a plan whose first run fails
 * on anything but its tasks (a contact, balance, dynamics, a limit, a stance foot) runs the
 * SIP loop again from its initial guess bent by a smooth deterministic perturbation, at most
 * PLN_PLAN_RESTARTS times within the time limit, each with half the scenario's evaluations.
 * Each joint's free control points move by A sin(pi r / (n + 1)) (r-th of n free points,
 * |A| <= PLN_PLAN_RESTART_STEP_RAD, A drawn per joint from a seeded stream): zero at the held
 * ends of the motion, at most the step in between; 0.15 rad moves a hand by ~10 cm, enough to
 * leave a local minimum of SLSQP, little enough to keep the guess's tasks near. */
#define PLN_PLAN_RESTARTS 2
#define PLN_PLAN_RESTART_STEP_RAD 0.15
#define PLN_SIP_ELASTIC_MIN_SCALE 1e-3

/* A row within this much of its bound (row units: velocity ratio, m, ...) is named as
 * holding a relaxed result back (pln_sip.c). */
#define PLN_SIP_BINDING 1e-3

/* Static balance: sole vertices are those within this height of the lowest point of the
 * support links' meshes, m; the optimiser samples the centre of mass this many times per
 * interval (the certificate bounds it rigorously); most edges of a support polygon. */
#define PLN_SOLE_HEIGHT_M 0.005
#define PLN_BALANCE_SAMPLES 9
#define PLN_MAX_EDGES 256

/* The optimiser aims every task at this fraction of its tolerance, so that a plan is not
 * left exactly on the tolerance's edge (where re-sampling it at another rate, or the
 * rounding of an export, could step over); the certificate checks the full tolerance. */
#define PLN_TASK_INNER_FRACTION 0.9

/* A stance foot that is not the floating base's root (docs/math/planner.md sec. 4d): its
 * sole centre stays within PLN_STANCE_POS_TOL_M of where it stood and its frame within
 * PLN_STANCE_ROT_TOL_RAD of its orientation, over continuous time (the certificate bounds
 * both by Taylor models; the optimiser's rows sample them, PLN_STANCE_SAMPLES per
 * constraint interval, at PLN_STANCE_ROW_FRACTION of the tolerance). 1 mm and 2 mrad are
 * within the compliance of a position-controlled humanoid's ankle and sole rubber. */
#define PLN_STANCE_POS_TOL_M 1e-3
#define PLN_STANCE_ROT_TOL_RAD 2e-3
#define PLN_STANCE_SAMPLES 6
/* ... and the optimiser's rows hold the samples within this fraction of those tolerances:
 * the foot should not move at all, and the room left covers the drift between samples
 * and the Taylor models' width. */
#define PLN_STANCE_ROW_FRACTION 0.25
/* rows per stance sample: +- each coordinate of the sole centre's offset and of the
 * rotation error (docs/math/planner.md eq. P13) */
#define PLN_STANCE_ROWS 12
/* A sole off the floor (a lifted foot that moving joints carry) keeps its four corners
 * above the floor, to within PLN_STANCE_POS_TOL_M (as a stance foot may sink); the
 * optimiser's rows, at the stance rows' samples, allow PLN_STANCE_ROW_FRACTION of it
 * (docs/math/planner.md eq. P13c). One row per corner. */
#define PLN_FLOOR_ROWS 4

/* The optimiser's ZMP rows keep the ZMP this much further inside than zmp_margin, so that a
 * round that stops a hair outside its rows (SLSQP's ftol stop) still certifies; the
 * certificate checks zmp_margin itself. */
#define PLN_DYN_ZMP_INNER_M 5e-4

/* Smoothing length of a position task row, m (docs/math/planner.md eq. P11): the row
 * sqrt(|e|^2 + d^2) - sqrt(r^2 + d^2) <= 0 is exactly |e| <= r, its gradient is the unit
 * direction of the error e away from the target (a gradient method always has a way to
 * move) and stays smooth where e = 0; far below any task tolerance a user would write. */
#define PLN_TASK_POS_SMOOTH_M 1e-4

/* Inverse kinematics (pln_ik.c): a step is accepted when it lowers the squared residual
 * by this relative amount (below it the iteration has stalled); where no step does, the
 * active joints are nudged by k times this angle (k = 1, 2, ...) at most
 * PLN_IK_MAX_NUDGES times, enough to leave a singular posture whose Jacobian is blind to
 * the residual (a straight arm asked to swing through its own line). */
#define PLN_IK_MIN_DECREASE 1e-9
#define PLN_IK_NUDGE_RAD 0.2
#define PLN_IK_MAX_NUDGES 3

/* Prioritised IK (pln_ik.c, docs/math/planner.md eq. IK3): a singular value below
 * PLN_IK_RANK_REL times a level's largest does not take its direction from the levels
 * below; restarts whose misses of a level differ by at most PLN_IK_LEVEL_MISS_TIE (m or
 * rad) tie on it. */
#define PLN_IK_RANK_REL 1e-6
#define PLN_IK_LEVEL_MISS_TIE 1e-9

/* Certification: a pair whose certified lower bound on an interval is below zero while
 * its real distance there is not is re-certified on halves of the interval, each with
 * its own tighter Taylor models, down to this many levels (2^6 = 64 parts at most), so
 * that "not certified" means a near-contact, not a loose enclosure (issue 21). */
#define PLN_CERT_REFINE_DEPTH 6

/* The optimiser's fresh evaluations (docs/math/planner.md eq. P6c) bisect an interval for
 * a dynamic row broken in fact (its value at a stretch's middle above zero) only while its
 * bound exceeds that value by more than this times it. */
#define PLN_DYN_REFINE_REL 0.25

/* A stretch of the fresh rows' bisection gets Taylor models of its own (its link motion
 * and RNEA) instead of its ancestor's restricted to it when a row's remainder, which only
 * its own models shrink, exceeds this share of the row's |bound| (dimensionless; eq. P6e
 * of docs/math/planner.md). */
#define PLN_DYN_REMAINDER_REL 0.05

/* Slack of the certification's limit and task checks (rad, rad/s or m): covers the
 * optimiser's row tolerance PLN_ROW_TOL times the largest row scale and rounding. */
#define PLN_CERT_SLACK 1e-5

/* Smallest MCD error asked of distance/, m (eps = 0 would ask for infinite work). */
#define PLN_MIN_MCD_EPS_M 1e-5

/* Feasibility tolerance of every constraint row, in the row's units (rad, m, or the
 * velocity ratio): far below eps and the task tolerances. */
#define PLN_ROW_TOL 1e-7

/* Relative rounding bound of converting a span's control points to polynomial
 * coefficients (a few dozen flops on numbers of the size of the control points),
 * times the sum of magnitudes involved; generous by two orders of magnitude. */
#define PLN_SPAN_POLY_ROUND_REL 1e-13


/* ---- Taylor models (planner/motion/pln_taylor.c, docs/math/taylor_models.md section 4) ---- */

/* Relative widening of Taylor-model remainders for floating-point rounding
 * (dimensionless). Every operation sums at most ~20 rounded terms per result, whose
 * error is at most gamma_20 = 20u/(1-20u) ~ 10 DBL_EPSILON times the sum of the
 * magnitudes involved (u = DBL_EPSILON/2); 64 DBL_EPSILON leaves a factor >= 6 of
 * margin, and still only costs ~1.4e-14 of the magnitudes (1e-14 m on a 1 m robot). */
#define PLN_TM_ROUND_REL (64.0 * DBL_EPSILON)

/* Absolute widening added with PLN_TM_ROUND_REL (units of the quantity): covers
 * underflow to subnormals, where relative error bounds fail (each underflowing
 * operation errs by at most 2^-1075 ~ 2.5e-324; this covers 1e16 of them). */
#define PLN_TM_ROUND_ABS 1e-290

/* Half-width added to a part [lo, hi] of the normalised time when a model is restricted
 * to it (pln_taylor_restrict, eq. 6.4): the part's midpoint and half-width each round by
 * at most an ulp of 1 (|lo|, |hi| <= 1), so 4 DBL_EPSILON keeps the restricted model's
 * span around the whole part. */
#define PLN_TM_RESTRICT_PAD (4.0 * DBL_EPSILON)

/* Error of the C library's sin() and cos() on the constant part of a Taylor model,
 * absolute (|sin|, |cos| <= 1). glibc documents < 1 ulp for both; four DBL_EPSILON
 * is a generous bound that stays rigorous on other conforming libraries with
 * errors of a few ulps. */
#define PLN_TM_LIBM_SINCOS_ERR (4.0 * DBL_EPSILON)

/* ---- dense QP (base/pln_qp.c, docs/math/qp.md sec. 4) ----------------------------- */

/* A constraint a_i d <= b_i counts as violated when a_i d - b_i exceeds PLN_QP_FEAS_TOL
 * times the row's scale |a_i|_2 max(1, |d|_inf) + |b_i| (eq. QP12; bounds have |a_i| = 1).
 * Dimensionless. The scale is what the rounding of a_i d - b_i grows with, so a row and
 * the same row times 1e6 stop alike; 1e-9 sits well above that rounding (n eps ~ 5e-14
 * for n = 224, times the growth of L^-1) and below the SQP's row tolerance PLN_ROW_TOL. */
#define PLN_QP_FEAS_TOL 1e-9

/* The constraint being added counts as linearly dependent on the active ones (z = 0,
 * eq. QP7) when the part of J^T n+ outside the active span has norm at most this
 * fraction of |J^T n+| (dimensionless: the sine of the angle, in the metric of G, between
 * n+ and the span of the active normals). Above rounding (~1e-14) by two orders of
 * magnitude, and small enough that R's diagonal keeps a condition number under ~1e12. */
#define PLN_QP_DEPENDENT_REL 1e-12

/* Smallest row norm |a_i|_2 a division by it uses (units of A): a zero row is only ever
 * scaled as "infinitely violated" when its b_i < 0, which makes it chosen first and
 * declared infeasible. */
#define PLN_QP_MIN_ROW_NORM 1e-300

/* ---- kinematics (planner/model/pln_kin.c) ---- */

/* Largest accepted deviation of a joint axis from unit length, |1 - |axis||
 * (dimensionless). A model loaded from YAML with 6-7 printed digits stays within it;
 * the kinematics renormalise nothing, so a bigger error would skew every pose. */
#define PLN_KIN_AXIS_UNIT_TOL 1e-6

/* Largest accepted deviation of a model rotation matrix from orthonormality,
 * max |R R^T - I| entry (dimensionless); same reasoning as PLN_KIN_AXIS_UNIT_TOL. */
#define PLN_KIN_ROT_ORTHO_TOL 1e-6

/* ---- exports (planner/output/pln_export.c) ---- */

/* cos(pitch) below which roll-pitch-yaw extraction treats a rotation as gimbal-locked
 * (dimensionless): near it roll and yaw are ill-conditioned, only their difference is
 * defined; 1e3 DBL_EPSILON keeps the regular branch wherever it loses < 1e-13 rad. */
#define PLN_RPY_GIMBAL_COS (1e3 * DBL_EPSILON)

/* Mesh obstacles: the largest `scale` a scenario may give (file units to metres). */
#define PLN_MAX_MESH_SCALE 1e6

/* Convex-hull link geometry: the hull's face tolerance (dst_hull_build, relative to the
 * bounding-box diagonal) may leave points that far outside; the shape's margin covers it,
 * widened by this relative amount for rounding. */
#define PLN_GEOM_HULL_MARGIN_REL 1e-3

/* Mesh pairs in the optimiser loop: a query may stop once its certified lower bound
 * exceeds eps plus this many collision working-set margins (PLN_SIP_COLLISION_MARGIN_M):
 * such a row is far from joining the working set, and its bound stays valid. */
#define PLN_MESH_STOP_MARGINS 2.0

/* Mesh pairs in the optimiser loop: the least MCD error (upper - lower) their queries
 * are asked for, m. A coarser error only makes a row more conservative (it constrains
 * the certified lower bound); the certification pass keeps PLN_CERT_MCD_EPS_RATIO eps.
 * On twist_mesh an evaluation took 1.85 s at 0.5 mm and 0.36 s at 2 mm (docs/perf). */
#define PLN_MESH_OPT_MCD_EPS_M 2e-3

/* Certification of mesh pairs that may touch: the time of first contact is bracketed to
 * within this many seconds (dst_mesh_first_contact, time_tol). */
#define PLN_CONTACT_TIME_TOL_S 1e-3

/* Mesh collision rows: the box trust region of one round of the exchange loop, rad per
 * control point (pln_sip.c, eq. P10). A round may not carry a link deep into a non-convex
 * mesh, where the rows have no depth to lead it out, before the rows are evaluated afresh. */
#define PLN_SIP_MESH_TRUST_RAD 0.5

/* PhongDist rows (collision.distance phong, docs/math/planner.md sec. 7b): the most search
 * spheres of Algorithm 5.1 a query of the optimiser tries (DstPhongOptions.max_iter; the
 * library's default is 8). A query that has not converged by then is answered by the
 * Euclidean distance, as one at the library's limit was. On place, 3768 queries converged
 * within 1-4 spheres (3543 / 205 / 19 / 1) and the 27 that did not took 36.9 of the 82 s
 * of PhongDist time, their spheres growing to hold both models whole (session 24). */
#define PLN_PHONG_MAX_SPHERES 4

/* Mesh collision rows: a round of the exchange loop takes at most this many evaluations,
 * then the margins are frozen afresh and the trust box re-centred (pln_sip.c). */
#define PLN_SIP_MESH_ROUND_EVALS 60

/* A collision query whose Taylor models are too wide for a rotation (DST_FAILED: a wild
 * trial step of the optimiser on a long chain, e.g. a re-rooted robot's arm): no certified
 * bound. The optimiser's row is then eps + PLN_SIP_UNCERTIFIED_M - d(t_mid), the exact
 * distance at the interval's middle less this much, with its envelope gradient (large
 * and smooth, so the line search backs off; docs/math/planner.md sec. 4); the certificate
 * takes -PLN_SIP_UNCERTIFIED_M as the interval's lower bound and bisects it where the
 * geometry allows (capsule, convex, ellipsoid). Metres. */
#define PLN_SIP_UNCERTIFIED_M 0.1

/* ---- hrpplan simulate (output/pln_sim.h, docs/SIMULATION.md) ---------------------- */

/* The robot fell when its waist drops more than this below its start height, m ... */
#define PLN_SIM_FALL_DROP_M 0.1
/* ... or tilts more than this from its start orientation, degrees. */
#define PLN_SIM_FALL_TILT_DEG 20.0
/* A foot on the floor slipped (horizontally) or lifted (vertically) when it moved more
 * than this from where it started, mm. */
#define PLN_SIM_SLIP_MAX_MM 5.0
#define PLN_SIM_LIFT_MAX_MM 5.0
/* The feet began to roll over an edge when the centre of pressure came this close to the
 * support polygon's edge during the motion, m (it cannot leave the polygon; at its edge
 * the soles tilt). */
#define PLN_SIM_COP_EDGE_M 1e-3
/* A sole whose contacts carry more than this fraction of the robot's weight stands on the
 * floor for the centre-of-pressure check, even outside its planned phase (a foot that
 * touches down a few milliseconds early under the servos' tracking error): the check
 * then judges the CoP by the adjacent phase that stands on that foot. */
#define PLN_SIM_TOUCH_FZ_REL 0.02
/* A joint lost track of the plan when it was this far from it, rad (3 degrees). */
#define PLN_SIM_TRACK_MAX_RAD 0.0524
/* The joint servo: a critically damped PD loop of this bandwidth on each joint's own
 * inertia (its diagonal entry of the mass matrix plus its armature). */
#define PLN_SIM_BANDWIDTH_HZ 10.0
/* Rotor inertia reflected through the gear, per N m of effort limit, kg m^2 / (N m): the
 * armature of the simulated joints (an estimate for geared electric joints: a rotor of
 * ~5e-5 kg m^2 behind a 1:160 reduction on a joint of ~200 N m gives 1.3 kg m^2,
 * ~0.0064 per N m; docs/SIMULATION.md). */
#define PLN_SIM_ARMATURE_PER_NM 0.0064
/* Mesh obstacles that are not convex enter the simulation as one thin prism per
 * triangle (MuJoCo collides convex shapes): the prism's depth, m, and the most prisms per
 * simulation. Only triangles within PLN_SIM_SWEPT_MARGIN_M of the box the robot's shapes
 * sweep along the plan are kept. */
#define PLN_SIM_PRISM_DEPTH_M 1e-3
#define PLN_SIM_MAX_PRISMS 20000
#define PLN_SIM_SWEPT_MARGIN_M 0.1

/* ---- impact (model/pln_impact.c, docs/math/impact.md) ---------------------------- */

/* |axis| and |normal| must be 1 within this; a mechanism file's directions are
 * normalised, and refused below PLN_IMPACT_MIN_DIRECTION */
#define PLN_IMPACT_UNIT_TOL 1e-9
#define PLN_IMPACT_MIN_DIRECTION 1e-12
/* block pivoting: the diagonal 3x3 block is kept when its score |det| / |B|_F^3 is at
 * least PLN_IMPACT_PIVOT_SWAP (the identity scores 0.19); else the best-scoring block of
 * the column below it, if it beats the diagonal by PLN_IMPACT_PIVOT_GAIN; a best score
 * below PLN_IMPACT_SINGULAR is a singular system */
#define PLN_IMPACT_PIVOT_SWAP 1e-3
#define PLN_IMPACT_PIVOT_GAIN 10.0
#define PLN_IMPACT_SINGULAR 1e-14
/* the dense reference refuses a system whose LU factors have a reciprocal condition
 * number (LAPACKE_dgecon, 1-norm) below this */
#define PLN_IMPACT_RCOND_MIN 1e-13
/* the sticking impulse is inside the friction cone when |P_TR| <= mu P_N (1 + this) */
#define PLN_IMPACT_CONE_TOL 1e-12
/* below this tangential speed (m/s) the contact is not sliding before the impact */
#define PLN_IMPACT_SLIP_MIN_MS 1e-12
/* the energy after an impact counts as grown above energy_before (1 + this) (eq. I15) */
#define PLN_IMPACT_ENERGY_TOL 1e-12
/* bisections of the friction's scale when a sliding impulse gains energy at e = 0 */
#define PLN_IMPACT_CAP_BISECTIONS 48
/* `hrpplan impact` warns when the given velocities break a joint by more than this
 * (m/s or rad/s) */
#define PLN_IMPACT_VELOCITY_WARN 1e-4
/* `hrpplan impact` on a robot: the time of first contact bisects a constraint interval
 * whose certified lower bound reaches zero down to this many levels, then the sign change
 * of the real distance to this many seconds */
#define PLN_IMPACT_TOC_DEPTH 8
#define PLN_IMPACT_TOC_TOL_S 1e-7
/* largest mechanism: the workspace holds (2 n + 2 m + 1)^2 3x3 blocks twice and the
 * dense matrix of the reference (about 130 MB at these sizes; HRP-2 needs 31 and 32) */
#define PLN_IMPACT_MAX_BODIES 128
#define PLN_IMPACT_MAX_JOINTS 256


/* The project's SQP (planner/base/pln_sqp.c, docs/math/sqp.md). A step is accepted when the
 * exact penalty function falls by at least PLN_SQP_ARMIJO of the model's prediction (S5);
 * backtracking shrinks the step by the quadratic interpolation's factor, kept within
 * [PLN_SQP_BACKTRACK_MIN, PLN_SQP_BACKTRACK_MAX], at most PLN_SQP_MAX_BACKTRACKS times
 * (SLSQP's constants: 0.1, 0.1 and 10 tries; 0.5 caps a step that the interpolation would
 * barely shorten). Powell's damping keeps s'y >= PLN_SQP_DAMPING s'Bs (S7). The elastic
 * model (S2) prices its relaxation v in [0, 1] at PLN_SQP_ELASTIC_WEIGHT (1 + |g| + max mu)
 * per unit, far above any multiplier, and gives v the curvature PLN_SQP_ELASTIC_CURV so
 * that the model stays strictly convex. PLN_SQP_TINY: a step whose s'Bs is below it teaches
 * the model nothing (dimensionless, the variables' units squared). */
#define PLN_SQP_ARMIJO 0.1
#define PLN_SQP_BACKTRACK_MIN 0.1
#define PLN_SQP_BACKTRACK_MAX 0.5
#define PLN_SQP_MAX_BACKTRACKS 10
#define PLN_SQP_DAMPING 0.2
#define PLN_SQP_ELASTIC_WEIGHT 1e3
/* S3b (docs/math/sqp.md sec. 2): the violated rows' weights are raised until the model's
 * predicted decrease of the penalty term is at least the model's change of f over 1 - rho
 * (Nocedal and Wright, Numerical Optimization, eq. 18.36, for the l1 penalty). */
#define PLN_SQP_PENALTY_RHO 0.5
#define PLN_SQP_ELASTIC_CURV 1e-3
#define PLN_SQP_TINY 1e-300
/* Second-order corrections (S6) stop being tried after this many rejected in a row, until
 * one is accepted (each costs an evaluation; where the model's curvature, not the rows',
 * spoils the full steps, they fail one after the other: hand_cross, docs/math/sqp.md). */
#define PLN_SQP_SOC_TRIES 3
/* A run whose line search fails from the model B0 at a point within this much of every
 * row's tolerance has converged as far as the rows' rounding lets it (row units: metres,
 * radians or normalised; a tenth of PLN_SIP_FEASIBLE, what the exchange loop counts as
 * met). twist ended its rounds 1.4e-7 over PLN_ROW_TOL without it, "stalled". */
#define PLN_SQP_STALL_VIOL 1e-6
/* The model's regularisation (S9): after a step accepted at a fraction a < 1 of its length
 * whose predicted decrease came mostly from the objective (|g'd| >= the penalty part of S4),
 * the model of the next QP is B + sigma B0 with 1 + sigma multiplied by 1/a, at most
 * PLN_SQP_REG_GROWTH times per step (the step of B + sigma B0 is about 1/(1 + sigma) of B's
 * where B is near B0); a step accepted whole multiplies sigma by PLN_SQP_REG_DECAY, and a
 * sigma below PLN_SQP_REG_MIN becomes 0, so that the plain model (and its fast convergence)
 * comes back once full steps are taken. Dimensionless. 4 and 1/2, a trust region's usual
 * shrink and growth, against 10 and 1/4 measured first: on the 32 support problems of
 * docs/math/sqp.md sec. 8 two SQP runs that failed against four, and 2 122 evaluations
 * against 2 860 on the ten stepping problems, where 10 and 1/4 lost one run to SLSQP. */
#define PLN_SQP_REG_GROWTH 4.0
#define PLN_SQP_REG_DECAY 0.5
#define PLN_SQP_REG_MIN 1e-3

#endif /* PLN_TOLERANCE_H */
