/* dst_capsule.h — capsule distance: static signed distance and the minimum continuous
 * distance (MCD) of two moving capsules over a time interval (thesis ch. III).
 *
 * Contract. A capsule is a segment swept by a sphere. Its signed distance to another
 * capsule is the segment distance minus both radii (thesis eq. 3.1): positive when
 * apart, negative (a penetration depth, never below -(rA + rB)) when overlapping.
 * Every function here is pure: inputs are const structs, results go to an output
 * struct, nothing is allocated and there is no global state, so calls from several
 * threads are safe. Inputs are checked (finite numbers, radius > 0, t1 >= t0); a bad
 * input yields DST_INVALID_INPUT and an output whose numbers are NaN-free (zeros).
 *
 * The MCD functions return an interval [lower, upper] for min over [t0, t1] of the
 * true signed distance: `upper` is the signed distance of the polynomial shapes at the
 * real time t_min (with witness points, normal and segment parameters there, which is
 * what a gradient needs, DESIGN.md sec. 6); `lower` is a certified lower bound that
 * includes the endpoint enclosure radii `err` and floating-point rounding. `lower` is
 * valid for every status but DST_INVALID_INPUT, including for GSS (where it is only the
 * trivial bound) and when the iteration cap ended the search.
 * Lengths are metres, times seconds. Derivations: docs/math/capsule_mcd.md. */
#ifndef DST_CAPSULE_H
#define DST_CAPSULE_H

#include "dst.h"
#include "dst_motion.h"

/* A static capsule: segment p0-p1 (metres, world frame) swept by a sphere. */
typedef struct DstCapsule {
    double p0[3], p1[3];
    double radius;                      /* metres, > 0 */
} DstCapsule;

/* Result of the static distance of capsules A and B. */
typedef struct DstCapsuleDistance {
    DstStatus status;      /* DST_SEPARATED / DST_TOUCHING / DST_PENETRATING / DST_INVALID_INPUT */
    double distance;       /* signed distance of eq. (3.1), metres: |cA - cB| - rA - rB */
    double lower;          /* certified lower bound of the exact signed distance (rounding included) */
    double sA, sB;         /* closest points cA = A.p0 + sA (A.p1 - A.p0), cB likewise; in [0, 1] */
    double cA[3], cB[3];   /* closest points of the two segments, metres */
    double pA[3], pB[3];   /* witness points on the surfaces: pA = cA - rA n, pB = cB + rB n */
    double n[3];           /* unit normal from B to A; if the segments meet, the normal of the
                            * plane of both directions (or any perpendicular when parallel),
                            * oriented from B's middle towards A's */
} DstCapsuleDistance;

/* Signed distance of two static capsules, thesis eq. (3.1). Parallel segments take the
 * closest points at the middle of their overlap. a, b, out non-NULL. Returns
 * out->status. */
DstStatus dst_capsule_distance(const DstCapsule *a, const DstCapsule *b, DstCapsuleDistance *out);

/* ---- MCD of moving capsules ---- */

/* The MCD methods of thesis ch. III and sec. VI.A.3. */
typedef enum DstMcdMethod {
    DST_MCD_GSS = 0,       /* golden-section search (sec. III.B): fast, never certified */
    DST_MCD_CA,            /* conservative advancement, Algorithm 3.1 with its branches fixed (sec. III.C) */
    DST_MCD_HYBRID,        /* advancement + golden-section search (sec. III.D): certified, fastest */
    DST_MCD_SAMPLING       /* certified uniform sampling (eq. 6.3): the baseline */
} DstMcdMethod;

/* Options of an MCD query; start from dst_mcd_options_default() and edit. */
typedef struct DstMcdOptions {
    double eps;            /* certified error upper - lower, metres, > 0 (default 1e-3, eq. 6.1) */
    double tau;            /* GSS bracket width at which GSS stops, seconds, > 0 (default 1e-3) */
    int max_iter;          /* cap on advancement steps of CA / hybrid and on GSS iterations (500) */
    int max_samples;       /* cap on the samples of certified sampling (DST_DEFAULT_SAMPLING_MAX) */
    double stop_above;     /* metres; +INFINITY = off (default). The hybrid capsule MCD only:
                            * before its search, an advancement from both ends toward the
                            * level whose certified bound is stop_above; when it certifies the
                            * whole interval above that level the query stops with
                            * DST_ABOVE_LIMIT, `lower` >= stop_above that certified bound,
                            * `upper`, t_min and the witnesses from the best evaluation so far
                            * (a real nominal distance, possibly above the minimum). Else the
                            * search runs as without it (docs/math/capsule_mcd.md sec. 6).
                            * Other methods and shapes ignore it. NaN is invalid input. */
} DstMcdOptions;

/* eps = DST_DEFAULT_MCD_EPS, tau = DST_DEFAULT_GSS_TAU, max_iter = DST_DEFAULT_CA_MAX_ITER,
 * max_samples = DST_DEFAULT_SAMPLING_MAX, stop_above = +INFINITY. */
DstMcdOptions dst_mcd_options_default(void);

/* Result of an MCD query over [t0, t1]. */
typedef struct DstMcdResult {
    DstStatus status;      /* DST_CERTIFIED: upper - lower <= eps; DST_NOT_CERTIFIED: GSS, or the
                            * enclosure radii alone exceed eps; DST_ITER_LIMIT: a cap (or, for
                            * absurdly small eps, floating point) ended the search before eps,
                            * bounds still valid; DST_INVALID_INPUT: nothing computed (zeros) */
    double lower;          /* certified: lower <= min_t true signed distance (err included), metres */
    double upper;          /* signed distance of the polynomial shapes at t_min, metres */
    double t_min;          /* seconds, in [t0, t1] */
    double sA, sB;         /* segment parameters of the witness points at t_min, in [0, 1] */
    double cA[3], cB[3];   /* closest segment points at t_min, metres, world frame */
    double pA[3], pB[3];   /* surface witness points at t_min: pA = cA - rA n, pB = cB + rB n */
    double n[3];           /* unit normal from B to A at t_min */
    int distance_evals;    /* static distance evaluations */
    int advance_steps;     /* conservative-advancement steps (eq. 3.4) */
} DstMcdResult;

/* MCD by golden-section search, thesis sec. III.B (bracket t0, (t0+t1)/2, t1; stop at
 * width < tau). Status DST_NOT_CERTIFIED (it can miss the global minimum, Fig. 3.4);
 * lower is the trivial bound -(rA + rB) - errA - errB. opt nullable (defaults). */
DstStatus dst_capsule_mcd_gss(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                              const DstMcdOptions *opt, DstMcdResult *out);

/* MCD by conservative advancement, thesis eq. (3.4), Lemma 3.1, Algorithm 3.1 with the
 * branches as the text states them (reached: range [d0, d2] and advancement resumes at
 * t2; not reached: range [d2, d1]). Certified to eps unless the step cap ends it.
 * opt nullable. */
DstStatus dst_capsule_mcd_ca(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                             const DstMcdOptions *opt, DstMcdResult *out);

/* MCD by the hybrid method, thesis sec. III.D: golden-section search proposes the
 * minimum, forward and backward advancement toward upper - eps certify it and narrow
 * the time range; a reached level restarts the search in the narrowed range.
 * Certified to eps unless the step cap ends it. opt nullable. */
DstStatus dst_capsule_mcd_hybrid(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                                 const DstMcdOptions *opt, DstMcdResult *out);

/* MCD by certified uniform sampling, thesis eq. (6.3): the sample count follows from a
 * Lipschitz bound of the distance so that upper - lower <= eps. opt nullable. */
DstStatus dst_capsule_mcd_sampling(const DstMovingCapsule *a, const DstMovingCapsule *b, double t0, double t1,
                                   const DstMcdOptions *opt, DstMcdResult *out);

/* Dispatch to one of the four methods above. */
DstStatus dst_capsule_mcd(DstMcdMethod method, const DstMovingCapsule *a, const DstMovingCapsule *b,
                          double t0, double t1, const DstMcdOptions *opt, DstMcdResult *out);

/* Name of a method ("gss", "ca", "hybrid", "sampling"); "unknown" otherwise. */
const char *dst_mcd_method_string(DstMcdMethod method);

#endif /* DST_CAPSULE_H */
