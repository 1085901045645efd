/* pln_linkmotion.h — Taylor models of every link's motion over one time span.
 *
 * Contract. Given each joint's motion over a span [t0, t1] as a polynomial in the local
 * parameter s = (t - t0)/(t1 - t0) in [0, 1] (the convention of distance/include/dst_motion.h),
 * pln_linkmotion_compute() builds, for every link, Taylor models (pln_taylor.h, in
 * tau = 2s - 1) of its world rotation R(t) (9 entries, row-major) and position p(t)
 * (3 coordinates, metres), composed along the chain as in Zhang et al. 2007 (thesis ref.
 * [83]): R_i = R_parent R_origin Rot(a, q_i), p_i = p_parent + R_parent o_i, with
 * (a prismatic joint: R_i = R_parent R_origin, p_i += q_i R_i a, eq. 8.6),
 * Rodrigues' Rot(a, q) = (I + K^2) + sin q K - cos q K^2, K = [a]x, exactly the formula
 * of pln_kin.c (docs/math/taylor_models.md section 8). The models enclose the exact
 * forward kinematics (pln_kin.h) of the joint polynomials for every t in the span,
 * rigorously in floating point. Remainders are kept
 * as norms so that they add along the chain rather than grow geometrically: the true
 * rotation is R_poly(tau) + E with spectral norm ||E||_2 <= pln_linkmotion_rot_err(),
 * the true position p_poly(tau) + e with |e| <= pln_linkmotion_pos_err() (section 9);
 * the PlnTaylor entries carry these as entrywise remainders [-err, err], which is valid
 * because no entry of a matrix or vector exceeds its norm. From them it exports
 * any body point's motion as a DstPolyPoint (polynomial in s plus an enclosure radius
 * covering every remainder and rounding) and the robot's centre of mass.
 *
 * A PlnLinkMotion is a per-thread workspace created for one robot and one Taylor degree;
 * nothing allocates after creation. The robot is borrowed by each call and must be the
 * one the workspace was created for. Frames, units and row-major layout as pln_kin.h.
 * A compute keeps the models of a link whose joint and ancestors got the same
 * coefficients and q_err (bit for bit) as in the last compute of the same degree: the
 * same operations on the same operands would give the same numbers (a joint that is
 * not moving, or an unchanged interval of a spline).
 *
 * Size of the enclosures: the remainder falls as h^(n+1) with the span length h; with
 * degree 5 a body point's radius is ~1e-2 m when joints move ~0.3 rad per unit span and
 * ~2e-6 m on a quarter of it (docs/perf/kinematics.md). Callers needing tight bounds
 * subdivide a span with pln_linkmotion_restrict_poly(). */
#ifndef PLN_LINKMOTION_H
#define PLN_LINKMOTION_H

#include <stddef.h>

#include "dst_motion.h"
#include "model/pln_robot.h"
#include "base/pln_status.h"
#include "motion/pln_taylor.h"

typedef struct PlnLinkMotion PlnLinkMotion;

/* Validates the robot as pln_kin_create() does and allocates a workspace for Taylor
 * models of degree tm_degree (1..PLN_TM_MAX_DEGREE; PLN_TM_DEFAULT_DEGREE = 5 matches
 * quintic B-splines exactly). On failure *out is NULL. Returns PLN_OK, PLN_ERR_INVALID
 * or PLN_ERR_NOMEM. Nullable: err (with err_size 0). */
PlnStatus pln_linkmotion_create(const PlnRobot *robot, int tm_degree, PlnLinkMotion **out,
                                char *err, size_t err_size);

/* Frees a workspace. Nullable: lm. */
void pln_linkmotion_destroy(PlnLinkMotion *lm);

/* Taylor degree of the workspace. */
int pln_linkmotion_degree(const PlnLinkMotion *lm);

/* How many computes the workspace has started: a memo of what one compute gave (e.g. the
 * swept boxes of pln_geom.h) is stale once this number changes. */
unsigned long pln_linkmotion_generation(const PlnLinkMotion *lm);

/* The generation of the compute that last made link's models (0: none yet, or an
 * out-of-range link): a memo of something that depends on that link's models alone (its
 * capsule, its swept box) holds while this number stays, across computes that keep the
 * link (a link whose joint and ancestors did not move). */
unsigned long pln_linkmotion_link_stamp(const PlnLinkMotion *lm, int link);

/* Builds every link's Taylor models for one span.
 *   coef   [n_joints * (deg + 1)], row-major: coef[j * (deg + 1) + k] (rad; m for a
 *          prismatic joint) multiplies s^k
 *          in joint j's position q_j(s), s = (t - t0)/(t1 - t0) in [0, 1]. Coefficients in
 *          u = t - t0 convert as c_s[k] = c_u[k] (t1 - t0)^k. Fixed joints' rows are
 *          ignored.
 *   deg    0..PLN_TM_MAX_DEGREE; terms above the workspace degree are bounded into the
 *          remainders.
 *   q_err  nullable [n_joints]: the true q_j lies within q_err[j] >= 0 rad of the
 *          polynomial (e.g. the rounding of a B-spline-to-polynomial conversion); NULL
 *          means the polynomials are exact.
 * Returns PLN_ERR_INVALID (message names the joint) for a bad degree, a NULL coef, a
 * non-finite coefficient or a negative/non-finite q_err, and PLN_ERR_INTERNAL if a model
 * overflows. */
PlnStatus pln_linkmotion_compute(PlnLinkMotion *lm, const PlnRobot *robot, const double *coef,
                                 int deg, const double *q_err, char *err, size_t err_size);

/* Taylor models of a link's world rotation (9, row-major) and position (3, metres) from
 * the last compute. Borrowed pointers into the workspace, valid until the next compute;
 * NULL for an out-of-range link. */
const PlnTaylor *pln_linkmotion_rot(const PlnLinkMotion *lm, int link);
const PlnTaylor *pln_linkmotion_pos(const PlnLinkMotion *lm, int link);

/* Spectral-norm bound of a link's rotation remainder (dimensionless) and Euclidean bound
 * of its position remainder (m), over the whole span; INFINITY for a bad link. */
double pln_linkmotion_rot_err(const PlnLinkMotion *lm, int link);
double pln_linkmotion_pos_err(const PlnLinkMotion *lm, int link);

/* Taylor models (3, metres) of the world position of the body point `local` (link
 * frame, metres) of `link`: x = p + R local. Each coordinate's remainder is the
 * Euclidean error radius r (|x_true - x_poly| <= r). out[3] must not alias the
 * workspace; an out-of-range link gives NaN models. */
void pln_linkmotion_point_tm(const PlnLinkMotion *lm, int link, const double local[3],
                             PlnTaylor out[3]);

/* The same body point as a DstPolyPoint for distance/: monomial coefficients in s in
 * [0, 1], degree = the workspace degree, and err (metres) such that the exact point lies
 * within err of the polynomial for every s in [0, 1] (the three coordinate remainders
 * the chain's norm bounds, eq. 9.5, plus the conversion rounding). An out-of-range link
 * gives err = INFINITY. */
void pln_linkmotion_point(const PlnLinkMotion *lm, int link, const double local[3],
                          DstPolyPoint *out);

/* Converts three coordinate Taylor models (metres, entrywise remainders) into a
 * DstPolyPoint: remainders re-centred into the constant term, their half-widths combined
 * as a Euclidean radius, conversion rounding added (eq. 9.4-9.5). */
void pln_linkmotion_tm_to_polypoint(const PlnTaylor xyz[3], DstPolyPoint *out);

/* Taylor models (3, metres, world) of the whole robot's centre of mass from the last
 * compute, or NULL when the robot's link masses sum to zero. Borrowed pointer. Made on
 * the first request after a compute (most problems never ask), in the workspace, which
 * is per thread like every other use of it. */
const PlnTaylor *pln_linkmotion_com(const PlnLinkMotion *lm);

/* A link frame's motion for shapes given in the link frame (meshes, convex hulls):
 * R_s[k][9] (row-major 3x3, multiplies s^k, k = 0..degree) with *R_err bounding the
 * spectral norm of R_true(s) - sum_k R_s[k] s^k for every s in [0, 1]; the frame origin
 * as a DstPolyPoint (origin->err its Euclidean bound). A body point l then moves within
 * origin->err + *R_err |l| of p(s) + R(s) l. Returns the Taylor degree, or -1 (outputs
 * untouched) for an out-of-range link. R_s has room for PLN_TM_MAX_DEGREE + 1 rows. */
int pln_linkmotion_frame(const PlnLinkMotion *lm, int link, double R_s[][9], double *R_err,
                         DstPolyPoint *origin);

/* Deepest chain pln_linkmotion_frame_from follows (links between the two). */
#define PLN_LINKMOTION_MAX_DEPTH 64

/* The same for a link's frame relative to the frame of its ancestor `anc` (anc == link:
 * the identity, exact): R_rel = R_anc^T R_link, p_rel = R_anc^T (p_link - p_anc), built
 * down the chain from anc with the joint models of the last compute, so that neither the
 * motion above anc nor its remainders enter. Two links below anc keep their relative pose,
 * and hence every distance between their shapes, in these frames. Returns the Taylor
 * degree, or -1 (outputs untouched) when anc is no ancestor of link within
 * PLN_LINKMOTION_MAX_DEPTH links or a link is out of range. */
int pln_linkmotion_frame_from(const PlnLinkMotion *lm, int anc, int link, double R_s[][9], double *R_err,
                              DstPolyPoint *origin);

/* Bounds on the singular values of the model's world rotation of `link`, for any joint
 * values: s_min <= sigma_min, sigma_max <= s_max (1 up to the model's tolerances). A
 * distance measured in the link's frame (pln_linkmotion_frame_from) becomes a world
 * distance within these factors: d_world >= s_min d when d >= 0, >= s_max d when d < 0.
 * Out of range: 0 and INFINITY. */
void pln_linkmotion_rot_gain(const PlnLinkMotion *lm, int link, double *s_min, double *s_max);

/* The centre of mass as a DstPolyPoint (err covers every remainder). Returns
 * PLN_ERR_INVALID when the link masses sum to zero. */
PlnStatus pln_linkmotion_com_point(const PlnLinkMotion *lm, DstPolyPoint *out);

/* Restricts a polynomial q(s), coef[0..deg] in s in [0, 1], to the sub-span
 * [s0, s1] (0 <= s0 < s1 <= 1): out[k] multiplies r^k in q(s0 + (s1 - s0) r), r in
 * [0, 1]. Returns a bound (same units as q) on the rounding error of the restricted
 * polynomial over r in [0, 1], to be passed as q_err (adaptive subdivision of a span). */
double pln_linkmotion_restrict_poly(const double *coef, int deg, double s0, double s1,
                                    double *out);

#endif /* PLN_LINKMOTION_H */
