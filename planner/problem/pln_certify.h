/* pln_certify.h — the independent certification pass (DESIGN.md sec. 6).
 *
 * Certification rebuilds everything from the trajectory alone — joint polynomials, Taylor
 * models of the link motion, and the MCD of every collision pair on every interval by
 * the certified hybrid method (thesis sec. III.D) — and never reuses what the optimiser
 * computed. A trajectory is `certified` when, over continuous time:
 *  - every pair's certified lower bound of the signed distance is >= 0 (no contact);
 *  - every joint stays within its position limits and velocity limits;
 *  - every task is met within its tolerance (at its time);
 *  - a stance foot that the floating base does not stand on stays within
 *    PLN_STANCE_POS_TOL_M and PLN_STANCE_ROT_TOL_RAD of where it stood over its phase;
 *  - with balance, the centre of mass stays over the support polygon shrunk by the margin
 *    (Taylor-model bound of the centre of mass per interval);
 * Two kinds of trajectory are certified:
 *  - a B-spline (the planner's output): intervals are the knot spans (times the
 *    scenario's subdivisions), limits by the convex-hull property of the control points;
 *  - a sampled table (.pos / .csv as a controller plays it): the motion between two
 *    samples is the straight line in joint space, so every sample gap is one interval,
 *    limits are checked at the samples (exact for a piecewise-linear motion) and the
 *    velocity is the slope of each gap. */
#ifndef PLN_CERTIFY_H
#define PLN_CERTIFY_H

#include <stddef.h>

#include "dst.h"
#include "problem/pln_problem.h"
#include "motion/pln_table.h"

/* Worst interval of one collision pair. */
typedef struct PlnPairCert {
    double lower;      /* certified lower bound of min signed distance over [0, T], m */
    double upper;      /* a real signed distance at t_min, m */
    double t_min;      /* s */
    int interval;      /* interval of the minimum */
    DstStatus status;  /* distance/'s status on that interval */
    int contact;       /* mesh pairs that may touch (lower < 0): 1 the first contact is in
                          [contact_lo, contact_hi] (dst_mesh_first_contact, certified: no
                          contact before contact_lo); 2 not bracketed, but none before
                          contact_lo; 0 none found or not searched (other geometry) */
    double contact_lo, contact_hi; /* s */
    double best_upper; /* the smallest real signed distance found over [0, T], m: the pair's
                          minimum lies in [lower, best_upper], and best_upper - lower <= the
                          certification eps unless a status above says otherwise (mesh
                          queries of later intervals stop once their lower bound reaches
                          best_upper - eps: status DST_ABOVE_LIMIT) */
} PlnPairCert;

/* What kept a certificate from holding: the first failed check, in the order they are
 * tried (clearance, joint limits, velocity limits, balance, tasks). */
typedef enum PlnCertCause {
    PLN_CAUSE_NONE = 0,       /* certified */
    PLN_CAUSE_CONTACT,        /* a pair's certified clearance is below zero */
    PLN_CAUSE_JOINT_LIMIT,
    PLN_CAUSE_VELOCITY,
    PLN_CAUSE_BALANCE,
    PLN_CAUSE_TASK,
    PLN_CAUSE_DYNAMICS,       /* ZMP, friction, floor force or a joint torque */
    PLN_CAUSE_STANCE          /* a stance foot of the floating base may slide or turn */
} PlnCertCause;

/* "none", "contact", "joint_limit", "velocity", "balance", "task"; a static string. */
const char *pln_cert_cause_string(PlnCertCause cause);

typedef struct PlnCertificate {
    int certified;                    /* 1 when every check below passed */
    PlnCertCause cause;               /* the first failed check; PLN_CAUSE_NONE if certified */
    char reason[512];                 /* why not, naming the first failed check; "" if certified */
    int n_pairs, n_intervals;
    double *t0, *t1;                  /* [n_intervals] interval bounds, s */
    double *lower, *upper, *t_min;    /* [n_pairs * n_intervals], pair-major */
    PlnPairCert *pairs;               /* [n_pairs] */
    double min_clearance;             /* min of every lower bound, m (+inf without pairs) */
    double max_joint_limit_violation; /* rad beyond a limit, 0 when none */
    double max_velocity_violation;    /* rad/s beyond a limit, 0 when none */
    int n_margin_bound;             /* spline certificates: moving joints with a control point
                                     * on the limits.position_margin bound (0 otherwise) */
    int margin_bound_joint;         /* the first of them (robot joint index), -1 if none */
    double max_task_violation;        /* beyond the tolerance (m or rad), 0 when none */
    int worst_task;                   /* the task of max_task_violation */
    double max_balance_violation;     /* m the centre of mass may leave the support polygon
                                         shrunk by the margin, 0 when none or no balance */
    double balance_t;                 /* start of the interval of the worst balance, s */
    /* whole-body dynamics (when dynamics_checked), certified over every interval */
    int dynamics_checked;             /* 0: static balance only, or a sampled table */
    double zmp_margin_min;            /* least distance of the ZMP inside the support
                                         polygon (before zmp_margin), m; negative outside */
    double zmp_t;                     /* start of its interval, s */
    double torque_ratio_max;          /* largest |tau_j| / effort_max_j */
    int torque_joint;                 /* its joint, -1 without torque limits */
    double torque_t;
    double torque2;                 /* the motion's torque integral (eq. P14), s; NAN when
                                       not computed (no dynamics, no effort limits, a table) */
    double friction_ratio_max;        /* largest |f_t| / (mu f_z) */
    double friction_t;
    double fz_min_rel;                /* least f_z / (m g) */
    double fz_t;
    /* stance feet of the floating base (p->n_stance > 0), certified over every interval
     * of their phases: how far a sole centre may move from where it stood, and its frame
     * turn (Taylor-model bounds; docs/math/planner.md sec. 4d) */
    int spline;                       /* 1: certified a spline, 0: a sampled table */
    int stance_checked;
    double stance_pos_max;            /* m */
    double stance_rot_max;            /* rad */
    int stance_link;                  /* the foot of the larger ratio to its tolerance */
    double stance_t;                  /* start of its interval, s */
    /* lifted soles (p->n_swing > 0): the least height of a sole corner above the floor over
     * the phases where the foot is off it (Taylor-model bound; eq. P13c) */
    int floor_checked;
    double floor_min;                 /* m, >= -PLN_STANCE_POS_TOL_M to certify */
    int floor_link;                   /* the foot of that height */
    double floor_t;                   /* start of its interval, s */
    int n_tasks;
    double *task_error;               /* [n_tasks] achieved error: m (position), rad (joint,
                                         orientation angle; the larger for position+orientation
                                         is reported in max_task_violation) */
    double *task_over;                /* [n_tasks] how far beyond its tolerance each task ends
                                         (m or rad; the larger of position and orientation;
                                         <= 0 when met) */
    long mcd_calls;
    double mcd_time_s;
} PlnCertificate;

/* 1 when certificate b is better than a, the rule that chooses between a plan's runs
 * (first run, the point of least worst row, restarts, elastic phase; docs/math/planner.md
 * sec. 5c, eq. P20b): a certified one; else a missed task over any other failure (the
 * motion is safe, only a target is missed); else a ZMP short of its margin but inside the
 * support polygon, every other check passed, over any other failure (the motion balances);
 * else, for the same cause, the smaller miss on
 * it: the task violation, the contact depth, the limit or balance excess, the largest
 * dynamic excess relative to its bound (floor force, ZMP margin, friction, torque), or
 * the stance slide or turn relative to its tolerance. Different causes other than a task
 * are not ranked (0). */
int pln_certificate_better(const PlnProblem *p, const PlnCertificate *a, const PlnCertificate *b);

/* Certifies the B-spline with control points ctrl[n_active * n_ctrl] of problem p. MCD
 * error eps_ratio * eps (e.g. PLN_CERT_MCD_EPS_RATIO). The certificate is allocated
 * here; free it with pln_certificate_destroy. */
PlnStatus pln_certify_spline(const PlnProblem *p, const double *ctrl, double eps_ratio,
                             PlnCertificate *cert, char *err, size_t err_size);

/* Certifies a sampled table. Columns: a .pos table has one column per robot joint in the
 * robot's order; a .csv table names its columns, each a robot joint (the others stay at
 * the initial posture). PLN_ERR_INVALID when the columns do not fit the robot. */
PlnStatus pln_certify_table(const PlnProblem *p, const PlnTable *table, double eps_ratio,
                            PlnCertificate *cert, char *err, size_t err_size);

void pln_certificate_destroy(PlnCertificate *cert);

#endif /* PLN_CERTIFY_H */
