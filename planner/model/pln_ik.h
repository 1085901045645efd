/* pln_ik.h — inverse kinematics by damped least squares (docs/math/planner.md sec. 8).
 *
 * Contract. pln_ik_solve() moves the active joints of a posture q so that every target
 * holds: a body point of a link at a world position (within a tolerance, m), or a joint
 * at a value (rad). Each iteration linearises the residuals e (3 rows per point target, 1
 * per joint target) with the Jacobian J of the active joints, and takes the damped
 * least-squares step dq = -V diag(s / (s^2 + lambda^2)) U^T e from the SVD J = U S V^T
 * (LAPACKE_dgesdd), scaled down to at most max_step rad per joint, clamped to the joint
 * limits (less an optional margin) and halved until the residual norm decreases (eq. IK1-IK2). Where no step helps
 * (a singular posture whose Jacobian is blind to the residual, e.g. a straight arm asked
 * to swing through its own line), it tries a few deterministic nudges. When the start
 * does not lead to the targets (a joint limit in the way, a local minimum), it restarts
 * from `restarts` deterministic postures, half near the start and half spread over the
 * joint ranges, and keeps, of those that meet every target, the one nearest the start
 * (largest joint change), else the one of least miss.
 * Targets may have priorities (eq. IK3): the step of a lower level is taken in the null
 * space of the levels above, so a stance foot (PLN_IK_FRAME) or the balance band of the
 * centre of mass (PLN_IK_COM) is not traded for a hand target; restarts are compared
 * level by level. The damped least-squares step is the smallest joint change, which is
 * the posture level below every target.
 * The result says whether every target is met and the worst miss; it never fails for an
 * unreachable target, it reports it. The workspace is allocated once by pln_ik_create();
 * solving does not allocate. Units: metres, radians. */
#ifndef PLN_IK_H
#define PLN_IK_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"

typedef enum PlnIkKind {
    PLN_IK_POINT = 0,   /* a body point of `link` at `target` (world), within tolerance m */
    PLN_IK_JOINT,       /* joint `joint` at `value`, within tolerance rad */
    PLN_IK_FRAME,       /* a body point of `link` at `target` within tolerance m, and the
                           link turned to target_rot within rot_tolerance rad (6 rows: the
                           position, then the rotation error, eq. IK4) */
    PLN_IK_COM          /* the centre of mass's horizontal position inside a convex polygon,
                           n_e . c <= b_e for every edge (an inequality, eq. IK5): free
                           inside; the (at most two) edges it comes within `tolerance` m of
                           become rows that hold it there, and one it is beyond pulls it
                           back (2 rows) */
} PlnIkKind;

/* Priority levels (PlnIkTarget.priority 0 .. PLN_IK_MAX_LEVELS - 1, 0 the highest). */
#define PLN_IK_MAX_LEVELS 4

typedef struct PlnIkTarget {
    PlnIkKind kind;
    int link;             /* point: link index */
    double point[3];      /* point: body point in the link frame, m */
    double target[3];     /* point: world position, m */
    int joint;            /* joint: joint index (must be active to be reachable) */
    double value;         /* joint: rad */
    double tolerance;     /* m or rad, >= 0: the target holds when |residual| <= tolerance */
    double target_rot[9]; /* frame: world orientation, row-major */
    int n_edges;          /* com: the polygon's half-planes, outward unit normals (x, y) */
    const double (*edge_n)[2];
    const double *edge_b; /* com: n_e . c <= b_e, m (the caller keeps them alive) */
    double rot_tolerance; /* frame: rad, >= 0 */
    int priority;         /* 0 (highest) .. PLN_IK_MAX_LEVELS - 1: each level is met as
                             well as it can be in the null space of the levels above
                             (eq. IK3); targets of one level share a least-squares step */
} PlnIkTarget;

typedef struct PlnIkOptions {
    int max_iterations;   /* > 0 */
    double damping;       /* lambda of the damped least squares, > 0 */
    double max_step;      /* largest joint change of one iteration, rad, > 0 */
    double aim;           /* aim at this fraction of each tolerance, in (0, 1] */
    int restarts;         /* >= 0: further starts when the first does not meet the targets */
    double limit_margin;  /* >= 0, rad: keep this far inside every joint's limits (at most a
                             quarter of its range) */
} PlnIkOptions;

/* 200 iterations, lambda 0.02, 0.25 rad per step, aim at half the tolerance, 8 restarts,
 * no limit margin. */
PlnIkOptions pln_ik_options_default(void);

typedef struct PlnIkResult {
    int converged;        /* every target within aim * tolerance */
    int met;              /* every target within its tolerance */
    int iterations;
    int worst;            /* index of the target with the largest miss beyond tolerance (-1: none) */
    double worst_miss;    /* |residual| - tolerance of that target, m or rad (<= 0 when met) */
    double level_miss[PLN_IK_MAX_LEVELS]; /* the largest miss of each priority level
                                             (-HUGE_VAL for a level without targets) */
} PlnIkResult;

typedef struct PlnIkWork PlnIkWork;

/* A workspace for up to max_targets targets on n_active joints of `robot`. */
PlnStatus pln_ik_create(const PlnRobot *robot, int max_targets, int n_active, PlnIkWork **out,
                        char *err, size_t err_size);

/* Nullable: w. */
void pln_ik_destroy(PlnIkWork *w);

/* Solves in place: q[robot->n_joints] is the start posture on entry and the result on
 * return (only the active joints move, always within their limits). kin is a kinematics
 * workspace of the same robot. PLN_ERR_INVALID for more targets than the workspace
 * holds or a bad option; otherwise PLN_OK with the outcome in *res. */
PlnStatus pln_ik_solve(PlnIkWork *w, PlnKinWork *kin, const PlnRobot *robot, const int *active,
                       int n_active, const PlnIkTarget *targets, int n_targets,
                       const PlnIkOptions *opt, double *q, PlnIkResult *res, char *err,
                       size_t err_size);

/* The miss beyond tolerance of each target (m or rad, the larger of position and
 * rotation for a frame; <= 0 when met) at the posture the last pln_ik_solve() returned,
 * into miss[n_targets]; targets must be the ones that call was given. */
void pln_ik_misses(const PlnIkWork *w, const PlnIkTarget *targets, int n_targets, double *miss);

#endif /* PLN_IK_H */
