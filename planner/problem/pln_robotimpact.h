/* pln_robotimpact.h — seed 004's impact on the planned robot (`hrpplan impact SCENARIO
 * TRAJECTORY --pair A,B [--at T]`, docs/math/impact.md sec. 7).
 *
 * The robot at time t of a spline becomes a mechanism (model/pln_impact.h): every link a
 * body (its mass, its inertia turned into the world, the velocity of its centre of mass
 * from q and qd with the base still, as the planner holds it); every revolute joint the
 * paper's revolute joint at its world origin and axis, every fixed joint a weld; the feet
 * of the support phase holding at t welded to the world at their sole centres (without
 * dynamics, the base link is welded, the planner's fixed base). The contact is the pair's
 * witness points at t: the point between them, the normal from B to A; an obstacle is the
 * world. After the impulse, every joint's rate is (w'_child - w'_parent) . axis. */
#ifndef PLN_ROBOTIMPACT_H
#define PLN_ROBOTIMPACT_H

#include <stddef.h>

#include "model/pln_impact.h"
#include "problem/pln_problem.h"

typedef struct PlnRobotImpact {
    PlnImpactBody *bodies;       /* [n_links] */
    PlnImpactJoint *joints;      /* [n_joints + welds] */
    int *robot_joint;            /* [system.n_joints] robot joint of each, -1 for a weld */
    PlnImpactSystem system;
    double t;                    /* s */
    double distance;             /* the pair's distance at t, m */
    double *qd;                  /* [robot n_joints] joint rates before, rad/s */
    int n_welds;
    int welds_feet;              /* 1: the support phase's feet; 0: the base link */
} PlnRobotImpact;

/* The index of the pair "A,B" (link names, or a link and an obstacle; either order) among
 * p's measured pairs; PLN_ERR_INVALID naming the pair otherwise. */
PlnStatus pln_robotimpact_find_pair(const PlnProblem *p, const char *spec, int *pair, char *err,
                                    size_t err_size);

/* The time of first contact of the pair along the spline: the earliest part of a
 * constraint interval (bisected down to PLN_IMPACT_TOC_DEPTH levels) whose certified MCD
 * lower bound reaches zero and in which the robot's real distance does, then the sign
 * change of the real distance bisected to PLN_IMPACT_TOC_TOL_S; every earlier part is
 * certified clear. *found = 0 when the pair never touches (t untouched). */
PlnStatus pln_robotimpact_first_contact(const PlnProblem *p, const double *ctrl, int pair,
                                        double *t, int *found, char *err, size_t err_size);

/* The mechanism of the robot at time t of the spline ctrl with the pair's contact
 * (restitution e, friction mu). PLN_ERR_INVALID when the pair's witness points are not
 * defined (shapes overlapping deeply) or a link has no positive mass or inertia. */
PlnStatus pln_robotimpact_build(const PlnProblem *p, const double *ctrl, int pair, double t,
                                double e, double mu, PlnRobotImpact *out, char *err,
                                size_t err_size);

/* Joint rates after the impulse (w_after from the result), [robot n_joints]. */
void pln_robotimpact_rates(const PlnProblem *p, const PlnRobotImpact *ri, const double *w_after,
                           double *qd_after);

void pln_robotimpact_destroy(PlnRobotImpact *ri);

#endif /* PLN_ROBOTIMPACT_H */
