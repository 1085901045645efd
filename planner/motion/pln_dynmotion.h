/* pln_dynmotion.h — Taylor models of the robot's inverse dynamics over a time interval:
 * the wrench the floor must give, every joint's torque, the zero-moment point and the
 * split between the soles, as enclosures valid at every instant of the interval
 * (docs/math/dynamics.md sec. "Dynamics over an interval", eq. D22-D27).
 *
 * Contract. The waist (the robot's base) is held still in the world, as the planner
 * holds it. The recursion is the RNEA of pln_dyn.h written in Taylor-model arithmetic
 * (motion/pln_taylor.h): link frames come from a PlnLinkMotion computed on the same
 * interval, joint velocities and accelerations are the exact derivatives of the joint
 * polynomials. Every output encloses the point-wise value pln_dyn_rnea and
 * pln_contact_split give at each instant of the interval (tested against dense samples).
 * A PlnDynMotion is a per-thread workspace; nothing allocates after creation. Units: m,
 * s, kg, N, N m; wrenches [moment about the world origin; force]. */
#ifndef PLN_DYNMOTION_H
#define PLN_DYNMOTION_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_contact.h"
#include "model/pln_robot.h"
#include "motion/pln_linkmotion.h"
#include "motion/pln_taylor.h"

typedef struct PlnDynMotion PlnDynMotion;

PlnStatus pln_dynmotion_create(const PlnRobot *robot, PlnDynMotion **out, char *err,
                               size_t err_size);
void pln_dynmotion_destroy(PlnDynMotion *dm);

/* The dynamics over one interval of length h (s) whose link motion `lm` was computed from
 * the same coef/deg/q_err (pln_linkmotion_compute). moving[j] != 0 marks the joints
 * whose polynomial is not constant (the others have zero velocity and acceleration).
 * gravity_z: gravity's magnitude along -z (m/s^2). Returns PLN_ERR_INVALID on bad input,
 * PLN_ERR_INTERNAL when a model overflows. */
PlnStatus pln_dynmotion_compute(PlnDynMotion *dm, const PlnRobot *robot,
                                const PlnLinkMotion *lm, const double *coef, int deg,
                                double h, const double *q_err, const unsigned char *moving,
                                double gravity_z, char *err, size_t err_size);

/* The wrench W(t) the floor (or the fixed base) must supply, [n_O; f], 6 models. */
const PlnTaylor *pln_dynmotion_wrench(const PlnDynMotion *dm);

/* Joint torques, n_joints models: with no contact (fixed base) after compute; with the
 * soles' share of W subtracted after pln_dynmotion_contact (each call starts again from
 * the fixed-base torques, so phases may follow each other). */
const PlnTaylor *pln_dynmotion_torque(const PlnDynMotion *dm);

/* Splits W between the soles of s as pln_contact_split does (eq. D17-D21, in Taylor-model
 * arithmetic; alpha falls back to its interval when its range straddles 0 or 1) and
 * subtracts each sole's wrench from the torques of the joints between the base and that
 * sole. zmp[2] (nullable) receives the ZMP's models. Returns 0 (torques untouched) when
 * W's vertical force is not certified above min_fz over the interval, else 1. */
int pln_dynmotion_contact(PlnDynMotion *dm, const PlnRobot *robot, const PlnSupport *s,
                          double min_fz, PlnTaylor zmp[2]);

#endif /* PLN_DYNMOTION_H */
