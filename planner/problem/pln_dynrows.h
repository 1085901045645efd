/* pln_dynrows.h — the dynamic constraint rows of a problem (internal to problem/):
 * ZMP in the support polygon, friction cone, unilateral contact and joint torques, each
 * certified over every constraint interval by the Taylor-model RNEA
 * (motion/pln_dynmotion.h) and sampled, with its analytic gradient, for the optimiser
 * (docs/math/planner.md sec. 4c). */
#ifndef PLN_DYNROWS_H
#define PLN_DYNROWS_H

#include <stddef.h>

#include "problem/pln_problem.h"

/* Convex hull of n points (monotone chain), counter-clockwise into hull[n + 1]; returns
 * its size. Reorders pts. */
int pln_hull2d(double (*pts)[2], int n, double (*hull)[2]);

/* The support polygon of g->support (its feet named, model/pln_contact.h), foot k's frame
 * being rot[k] (row-major) and pos[k] in the world: the hull of the sole corners, counter-clockwise (eq. D16), with outward edge
 * normals and offsets n . p <= b shrunk by `margin` (m). Fills g->n_edges, polygon,
 * edge_n, edge_b. */
void pln_phase_polygon(const PlnRobot *r, const double *const *rot, const double *const *pos,
                       double margin, PlnPhaseGeom *g);

/* Phases, polygons and the list of dynamic constraints of p (p->moving, q_init and the
 * knot vector set). PLN_ERR_INVALID, naming the scenario and field, when a stance foot
 * is moved by a moving joint, a sole is not flat on a level floor, the initial centre of
 * mass lies outside the first phase's shrunk polygon, or a joint whose torque cannot
 * change needs more than its effort limit. */
PlnStatus pln_dynrows_setup(PlnProblem *p, char *err, size_t err_size);

/* 1 when constraint d has a row on interval i. */
int pln_dynrows_applies(const PlnProblem *p, int d, int i);

PlnStatus pln_dynrows_work_create(const PlnProblem *p, PlnProblemWork *w, char *err,
                                  size_t err_size);
void pln_dynrows_work_destroy(PlnProblemWork *w);

/* The part [cover[0], cover[1]] (fractions, 0 <= cover[0] < cover[1] <= 1 where the phase
 * meets the interval) of constraint interval i on which support phase ph holds; [0, 1]
 * for ph < 0, the rows of every phase (floor force, friction). A phase's rows hold only
 * while the phase does (docs/math/planner.md eq. P6d). */
void pln_dynrows_phase_cover(const PlnProblem *p, int ph, int i, double cover[2]);
/* The distinct parts of interval i on which its dynamic rows hold (pln_dynrows_phase_cover
 * of every phase meeting it, and [0, 1] first), into covers (at most n_phases + 1); returns
 * their count. */
int pln_dynrows_covers(const PlnProblem *p, int i, double (*covers)[2]);
/* Certified values of the dynamic rows of interval i into w->dyn_bound, from the link
 * motion last computed by pln_problem_interval_motion(_part) (its polynomials and length
 * in w->coef_used, w->h_used): with cover NULL every row's; else only the rows of the
 * phases that hold on exactly that part of the interval (pln_dynrows_phase_cover; the
 * others are left as they are), the motion then being a part of it. *worst (nullable)
 * receives the largest of the values written. Each row's Taylor model is left in
 * w->dyn_model's first slot (the fresh rows' bisection restricts it, eq. P6e). */
PlnStatus pln_dynrows_interval_bounds(const PlnProblem *p, PlnProblemWork *w, int i, const double *cover,
                                      double *worst, char *err, size_t err_size);
/* Every dynamic row: c[row] (certified, or sampled plus the frozen margin) and its
 * gradient (nullable): pln_dynrows_values on every interval over w's threads, then
 * pln_dynrows_gradients. */
PlnStatus pln_dynrows_eval(const PlnProblem *p, PlnProblemWork *w, double *c, double *grad,
                           char *err, size_t err_size);

/* The dynamic rows of interval i, computed in s (w or one of its helpers, a job of
 * pln_problem_each_interval): in a fresh evaluation (no frozen margins) the certified
 * bounds (eq. P6b, P6c), and the exact samples; each row's value into c and its bound,
 * sample and the sample's time into w's arrays. */
PlnStatus pln_dynrows_values(const PlnProblem *p, PlnProblemWork *w, PlnProblemWork *s, int i, double *c,
                             char *err, size_t err_size);

/* The gradients (grad nullable: nothing to do) of the dynamic rows whose values
 * pln_dynrows_values left in c and w: the working set's and the aggregate row's when
 * w->work_rows is set (the aggregate's row cleared first), else every row's; over w's
 * threads. */
PlnStatus pln_dynrows_gradients(const PlnProblem *p, PlnProblemWork *w, const double *c, double *grad,
                                char *err, size_t err_size);

/* Quadrature points per constraint interval of the torque cost (Gauss-Legendre). */
#define PLN_TORQUE2_POINTS 4

/* The torque cost (docs/math/planner.md eq. P14) of the spline in w->ctrl:
 * *value = integral over [0, T] of sum_j (tau_j(t) / tau_max_j)^2 dt, over every joint
 * with an effort limit, tau_j with the soles' share of the phase at t (eq. D21, as the
 * torque rows), by PLN_TORQUE2_POINTS-point Gauss-Legendre quadrature on every
 * constraint interval. grad_ctrl (nullable, [n_active * n_ctrl]) receives += its analytic
 * gradient with respect to the control points (the RNEA derivatives chained through the
 * spline's basis, eq. P12); gn_diag (nullable, same size) += the diagonal of its
 * Gauss-Newton Hessian (allocates; used once per problem for the cost's scale). */
PlnStatus pln_dynrows_torque2(const PlnProblem *p, PlnProblemWork *w, double *value,
                              double *grad_ctrl, double *gn_diag, char *err, size_t err_size);

/* The point-wise dynamics of the spline in w->ctrl at time t (s), as the rows see it
 * (eq. D16-D21): *phase, the first support phase holding at t (-1: none); zmp[2], the ZMP
 * in world xy (m; NAN when the floor force is below the rows' minimum); tau[n_joints],
 * every joint's torque with the soles' share of that phase (N m). For figures and
 * reports, not the optimiser. */
PlnStatus pln_dynrows_sample(const PlnProblem *p, PlnProblemWork *w, double t, int *phase,
                             double zmp[2], double *tau, char *err, size_t err_size);

/* A short name of constraint d ("zmp edge 2 of support[0]", "torque RARM_JOINT3", ...). */
void pln_dynrows_name(const PlnProblem *p, int d, char *buf, size_t size);

#endif /* PLN_DYNROWS_H */
