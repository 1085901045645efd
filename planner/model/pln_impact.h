/* pln_impact.h — the impulse response of articulated rigid bodies to one collision, after
 * Jung, Lee, Baek, Lee and Ryu, "A Collision Response Model for Various Joints" (seed
 * 004_1a333f9c238b0378.txt; docs/math/impact.md gives every equation, I1-I14, and the
 * choices where the paper's text is ambiguous).
 *
 * The model. n rigid bodies (mass, inertia about the centre of mass, pre-impact velocity
 * v and angular velocity w of the centre of mass, all in world coordinates) are joined by
 * joints, and bodies a and b collide at one point with normal N. Unknowns: the contact
 * impulse P (on a; -P on b), every joint's impulse force P_c and/or impulse torque T_c
 * (on body i; minus on body j), and every body's post-impact v and w: 3 (2 n + m + 1)
 * unknowns for m three-component joint impulses. Equations: momentum of every body
 * (paper eq. 1-6), the joints' conditions (paper sec. 3, six types), restitution (7) and
 * friction, sticking (8)-(9) or sliding (10)-(11). A body index of -1 is the world: still,
 * infinitely heavy (a nail joint, an obstacle, the floor).
 *
 * Solvers. The system is assembled as a matrix of 3x3 blocks and solved either by block
 * Gaussian elimination on the 3x3 blocks that skips the zero blocks (the paper's sec. 4)
 * or by LAPACKE_dgesv on the dense matrix, the reference. Friction: the sticking system
 * is solved first; when its impulse leaves the cone |P_TR| <= mu P_N, the sliding system.
 *
 * Contract. An immutable PlnImpactSystem, a PlnImpactWork sized for it (no allocation in
 * pln_impact_solve), results borrowed from the work. Units: kg, m, s, N s, N m s. */
#ifndef PLN_IMPACT_H
#define PLN_IMPACT_H

#include <stddef.h>

#include "base/pln_status.h"

#define PLN_IMPACT_NAME_MAX 64
#define PLN_IMPACT_WORLD (-1)

typedef enum PlnImpactJointType {
    PLN_IMPACT_POINT = 0,      /* point-to-point: the two anchors move together (3 rows) */
    PLN_IMPACT_NAIL,           /* nail-to-point: body i's anchor stays still (body_j = world) */
    PLN_IMPACT_REVOLUTE,       /* point, and relative turning only about the axis */
    PLN_IMPACT_ANGLE,          /* point, and no relative turning about the axis */
    PLN_IMPACT_CYLINDRICAL,    /* relative sliding along and turning about the axis only */
    PLN_IMPACT_PRISMATIC,      /* relative sliding along the axis only */
    PLN_IMPACT_FIXED           /* a weld: point, and no relative turning (the paper's point
                                * condition with its prismatic rotation condition) */
} PlnImpactJointType;

typedef struct PlnImpactBody {
    char name[PLN_IMPACT_NAME_MAX];
    double mass;               /* kg, > 0 */
    double inertia[9];         /* about the centre of mass, world axes, row-major, SPD */
    double com[3];             /* centre of mass, world, m */
    double v[3];               /* pre-impact velocity of the centre of mass, m/s */
    double w[3];               /* pre-impact angular velocity, rad/s */
} PlnImpactBody;

typedef struct PlnImpactJoint {
    char name[PLN_IMPACT_NAME_MAX];
    PlnImpactJointType type;
    int body_i, body_j;        /* bodies joined; body_j may be PLN_IMPACT_WORLD */
    double anchor[3];          /* the joint's point, world, m */
    double axis[3];            /* unit axis d_k (revolute, angle, cylindrical, prismatic) */
} PlnImpactJoint;

typedef struct PlnImpactContact {
    int body_a, body_b;        /* body_b may be PLN_IMPACT_WORLD */
    double point[3];           /* contact point, world, m */
    double normal[3];          /* unit N, pointing from b towards a */
    double restitution;        /* e in [0, 1] (paper eq. 7) */
    double mu;                 /* Coulomb friction coefficient, >= 0 */
    int newton_only;           /* 1: keep Newton's e even where it creates energy; 0
                                * (default): lower it until the energy does not grow
                                * (eq. I15) */
} PlnImpactContact;

typedef struct PlnImpactSystem {
    int n_bodies;
    const PlnImpactBody *bodies;
    int n_joints;
    const PlnImpactJoint *joints;
    PlnImpactContact contact;
} PlnImpactSystem;

typedef enum PlnImpactSolver {
    PLN_IMPACT_BLOCK = 0,      /* 3x3-block Gaussian elimination (the paper's sec. 4) */
    PLN_IMPACT_DENSE           /* LAPACKE_dgesv on the whole matrix (the reference) */
} PlnImpactSolver;

typedef struct PlnImpactResult {
    int approaching;           /* 0: the contact points separate already; no impulse */
    int sliding;               /* 1: the sliding system (10)-(11) was solved */
    double P[3];               /* contact impulse on a, world, N s */
    double P_ntr[3];           /* the same along N, T, R */
    double frame[9];           /* rows N, T, R (T, R: a fixed choice, docs/math/impact.md) */
    double u_before[3];        /* relative contact velocity of a w.r.t. b along N, T, R */
    double u_after[3];
    const double *v, *w;       /* [3 n_bodies] post-impact velocities (borrowed from the work) */
    const double *joint_P;     /* [3 n_joints] impulse force on body_i (zero if none), N s */
    const double *joint_T;     /* [3 n_joints] impulse torque on body_i (zero if none), N m s */
    double energy_before, energy_after; /* kinetic energy, J */
    double restitution_used;   /* e of the answer: the contact's, or lower when capped */
    double mu_used;            /* mu of the answer: the contact's, or lower when capped */
    int energy_capped;         /* 1: Newton's e would have created energy (eq. I15) */
    int energy_gain;           /* 1: the energy grew and the cap could not help (or was off) */
    int unknowns;              /* 3 (2 n + m + 1) */
    long block_ops;            /* 3x3 block products of the block solver (0 for dense) */
} PlnImpactResult;

typedef struct PlnImpactWork PlnImpactWork;

/* Checks the system: masses > 0 and finite; inertias symmetric positive definite; body
 * indices in range (the world only where allowed: body_j of a joint, body_b of the
 * contact; a nail's body_j must be the world); unit normal and axes (within 1e-9); e in
 * [0, 1], mu >= 0, every number finite. PLN_ERR_INVALID naming the body or joint. */
PlnStatus pln_impact_validate(const PlnImpactSystem *s, char *err, size_t err_size);

/* A workspace for systems of at most n_bodies bodies and n_joints joints. */
PlnStatus pln_impact_work_create(int n_bodies, int n_joints, PlnImpactWork **out, char *err,
                                 size_t err_size);
void pln_impact_work_destroy(PlnImpactWork *w);

/* Solves the collision of s (validated here). PLN_ERR_INVALID for a bad system or a
 * singular one (redundant or contradictory joints, a body held by nothing but zero
 * mass); PLN_ERR_INTERNAL when the friction cases both fail their own conditions. */
PlnStatus pln_impact_solve(PlnImpactWork *w, const PlnImpactSystem *s, PlnImpactSolver solver,
                           PlnImpactResult *out, char *err, size_t err_size);

/* Residual of every joint condition of the post-impact state of the last solve (the
 * largest absolute value over all rows of all joints: velocity rows in m/s or rad/s,
 * impulse rows in N s or N m s). */
double pln_impact_joint_residual(const PlnImpactWork *w, const PlnImpactSystem *s);

/* The same for velocities v, w ([3 n] each) alone: the velocity rows of every joint (how
 * far a pre-impact state breaks the joints; the impulse rows are not velocities). */
double pln_impact_velocity_residual(const PlnImpactSystem *s, const double *v, const double *w);

/* Total linear momentum (N s) and angular momentum about the world origin (N m s) of
 * velocities v, w ([3 n] each) of the bodies of s. */
void pln_impact_momentum(const PlnImpactSystem *s, const double *v, const double *w,
                         double linear[3], double angular[3]);

/* Kinetic energy of velocities v, w ([3 n] each), J. */
double pln_impact_energy(const PlnImpactSystem *s, const double *v, const double *w);

/* "point", "nail", "revolute", "angle", "cylindrical", "prismatic", "fixed". */
const char *pln_impact_joint_type_name(PlnImpactJointType t);

#endif /* PLN_IMPACT_H */
