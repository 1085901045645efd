/* pln_dyn.h — rigid-body dynamics of a PlnRobot on a floating base (docs/math/dynamics.md).
 *
 * Contract. A PlnDynWork is a per-thread workspace created for one robot model
 * (pln_dyn_create); after creation nothing allocates. The robot model is borrowed
 * `const` by every call and must be the one the workspace was made for.
 *
 * The system. The robot's tree hangs from a floating base: the base frame (the pose
 * that robots/x.yaml calls base_pos / base_rot, e.g. HRP-2's waist) moves freely in the
 * world; every link hangs from it as in model/pln_kin.h. A fixed-base robot is the same
 * system with the base held still (nu[0..5] = nudot[0..5] = 0); its joint torques are
 * rows 6.. of the result and rows 0..5 are the wrench the world must give the base.
 *
 * Coordinates (Featherstone, Rigid Body Dynamics Algorithms (RBDA), 2008: spatial
 * algebra of ch. 2 written in the world frame, floating base of ch. 9; dynamics.md D1):
 *   spatial motion vectors are [angular; linear at the world origin], force vectors
 *   [moment about the world origin; force];
 *   nv = 6 + n_joints generalized velocities nu: nu[0..5] is the spatial velocity of the
 *   base body at the world origin (omega, v_O with v_O = v_base - omega x p_base), then
 *   q' of every joint in the robot's order; nudot is its time derivative (the base's
 *   spatial acceleration: [omega'; a_base - omega' x p_base - omega x v_base]);
 *   generalized forces tau[nv]: tau[0..5] is the net external wrench the base needs,
 *   [moment about the world origin; force], tau[6 + j] the torque of joint j (N m; the
 *   force along its axis, N, for a prismatic joint, whose motion subspace is [0; a]:
 *   Featherstone RBDA Table 4.1, dynamics.md D1b).
 *   pln_dyn_base_velocity() and pln_dyn_base_acceleration() convert from the base
 *   origin's velocity and acceleration.
 *   Configuration tangents (columns 0..5 of d tau / d q) are screws sigma = [delta
 *   theta; delta p_O]: the whole robot turned by delta theta about the world origin and
 *   moved by delta p_O, i.e. R -> exp([delta theta]) R, p -> exp([delta theta]) p + delta
 *   p_O; columns 6.. are joint positions (rad, or m for a prismatic joint).
 * Fixed joints (PLN_JOINT_FIXED) keep their index: their row and column of M are those
 * of the identity and their tau equals their nudot (as if a unit inertia, coupled to
 * nothing, sat on that coordinate), so that M stays invertible and ID(FD(tau)) = tau holds for every row.
 * Gravity is a world vector (m/s^2, e.g. {0, 0, -9.81}); NULL means none.
 * Matrices are row-major nv x nv: A[r * nv + c]. Units: m, rad, kg, s, N, N m. */
#ifndef PLN_DYN_H
#define PLN_DYN_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"

/* Standard gravity, m/s^2 (CGPM 1901), pointing along -z of the world. */
#define PLN_GRAVITY_MS2 9.80665

typedef struct PlnDynWork PlnDynWork;

/* Validates the model (pln_kin_validate) and allocates a workspace (the only allocation of
 * this module) into *out; NULL on failure with the reason in err. Returns PLN_OK,
 * PLN_ERR_INVALID or PLN_ERR_NOMEM. Nullable: err (err_size 0). */
PlnStatus pln_dyn_create(const PlnRobot *robot, PlnDynWork **out, char *err, size_t err_size);

/* Frees a workspace. Nullable: w. */
void pln_dyn_destroy(PlnDynWork *w);

/* Number of generalized velocities, 6 + n_joints. */
int pln_dyn_nv(const PlnDynWork *w);

/* The state every call below takes: base pose (metres; orthonormal row-major rotation),
 * joint angles q[n_joints], generalized velocity nu[nv] and its derivative nudot[nv] (see
 * the coordinates above). */
typedef struct PlnDynState {
    double base_pos[3];
    double base_rot[9];
    const double *q;
    const double *nu;     /* Nullable: all zero */
    const double *nudot;  /* Nullable: all zero */
} PlnDynState;

/* nu[0..5] from the base origin's world velocity v_base and angular velocity omega:
 * [omega; v_base - omega x p_base], the spatial velocity moved to the origin (eq. D2). */
void pln_dyn_base_velocity(const double p_base[3], const double v_base[3],
                           const double omega[3], double nu6[6]);

/* nudot[0..5] from the base origin's world acceleration a_base and angular acceleration
 * alpha (and its velocity): [alpha; a_base - alpha x p_base - omega x v_base] (eq. D2). */
void pln_dyn_base_acceleration(const double p_base[3], const double v_base[3],
                               const double omega[3], const double a_base[3],
                               const double alpha[3], double nudot6[6]);

/* Inverse dynamics by the recursive Newton-Euler algorithm (RBDA ch. 5): tau[nv] = M(q)
 * nudot + C(q, nu) nu - g(q), the generalized forces that produce nudot, in the world
 * coordinates above (dynamics.md eq. D3-D5); computed in link coordinates (RBDA Table
 * 5.1, eq. D28-D30). PLN_ERR_INVALID on a NULL or non-finite input (tau untouched). */
PlnStatus pln_dyn_rnea(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                       const double *gravity, double *tau);

/* Joint-space mass matrix by the composite-rigid-body algorithm (RBDA ch. 6, world
 * frame, eq. D12): M[nv * nv], symmetric positive definite when every link has mass. Ignores
 * s->nu and s->nudot. */
PlnStatus pln_dyn_crba(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                       double *M);

/* Forward dynamics: nudot[nv] with M nudot = tau - (C nu - g), M by the CRBA and the bias
 * by the RNEA with nudot = 0, solved by Cholesky (LAPACKE_dpotrf / dpotrs). s->nudot is
 * ignored. PLN_ERR_INVALID when an input is not finite or M is not positive definite (a
 * massless moving chain; err names the generalized coordinate). Nullable: err. */
PlnStatus pln_dyn_forward(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                          const double *tau, const double *gravity, double *nudot, char *err,
                          size_t err_size);

/* Analytic derivatives of the inverse dynamics (docs/math/dynamics.md eq. D6-D11):
 * dtau_dq[nv * nv] (column c: along configuration tangent c, see above), dtau_dnu[nv *
 * nv], and M = dtau/dnudot (the CRBA's matrix) into M. Also writes tau[nv]. Nullable:
 * dtau_dnu, M, tau. */
PlnStatus pln_dyn_rnea_derivatives(PlnDynWork *w, const PlnRobot *robot,
                                   const PlnDynState *s, const double *gravity, double *tau,
                                   double *dtau_dq, double *dtau_dnu, double *M);

/* Centre of mass (world, m), centroidal momentum h = [angular momentum about the centre
 * of mass; linear momentum] and its rate hdot (= the net external wrench about the centre
 * of mass less gravity's), from one RNEA pass without gravity (Orin and Goswami 2008;
 * eq. D13). Nullable: h, hdot. PLN_ERR_INVALID when the robot has no mass. */
PlnStatus pln_dyn_centroidal(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                             double com[3], double h[6], double hdot[6]);

/* Kinetic energy 1/2 nu^T M nu (J), from the spatial momenta of the links. */
PlnStatus pln_dyn_kinetic_energy(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                                 double *energy);

#endif /* PLN_DYN_H */
