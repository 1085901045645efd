/* pln_taylor.h — Taylor-model arithmetic in normalised time.
 *
 * Contract. A Taylor model (TM) of degree n on a time span [t0, t1] is a polynomial
 * p(tau) = sum_{k<=n} c[k] tau^k in the normalised time tau = (2t - t0 - t1)/(t1 - t0)
 * in [-1, 1] plus an interval remainder [lo, hi]. It *encloses* a function f when
 * f(tau) - p(tau) lies in [lo, hi] for every tau in [-1, 1]. Every operation here maps
 * enclosures of its arguments to an enclosure of the result, rigorously in floating
 * point: dropped terms and Lagrange remainders are bounded into the remainder, and the
 * remainder is widened outward by PLN_TM_ROUND_REL times the magnitudes involved plus
 * PLN_TM_ROUND_ABS (planner/base/pln_tolerance.h), which covers the rounding of the
 * coefficients. Derivations and equation numbers: docs/math/taylor_models.md.
 *
 * The type is a plain value (no allocation); every function is pure and thread-safe.
 * Outputs come first and may alias inputs. Binary operations on models of different
 * degrees give a result of the larger degree. Degrees run 0..PLN_TM_MAX_DEGREE: the
 * constructors (const, from_poly, var) clamp a requested degree into that range, and
 * every other function relies on models built by them (c[k] == 0 for k > n). Inputs
 * are assumed finite; a non-finite input gives a non-finite model, which
 * pln_taylor_is_finite() detects. */
#ifndef PLN_TAYLOR_H
#define PLN_TAYLOR_H

#define PLN_TM_MAX_DEGREE 7     /* highest degree of a Taylor model (== DST_MAX_DEGREE) */
#define PLN_TM_DEFAULT_DEGREE 5 /* degree used unless an option says otherwise */

typedef struct PlnTaylor {
    int n;                              /* degree, 0 .. PLN_TM_MAX_DEGREE */
    double c[PLN_TM_MAX_DEGREE + 1];    /* c[k] multiplies tau^k; c[k] = 0 for k > n */
    double lo, hi;                      /* remainder interval, lo <= hi */
} PlnTaylor;

/* The constant v (exact: zero remainder). Eq. (2.1). */
void pln_taylor_const(PlnTaylor *out, int n, double v);

/* A polynomial given by monomial coefficients coef[0..deg] in tau (deg >= 0). Terms
 * above degree n are bounded over [-1, 1] into the remainder (eq. 3.4). */
void pln_taylor_from_poly(PlnTaylor *out, int n, const double *coef, int deg);

/* A polynomial given in s = (tau + 1)/2 in [0, 1] (the local parameter of
 * distance/include/dst_motion.h): coef[0..deg] multiply s^k, 0 <= deg <= PLN_TM_MAX_DEGREE
 * (larger deg is clamped). Converted to tau with its rounding bounded into the
 * remainder (eq. 6.3), then truncated to degree n as pln_taylor_from_poly. */
void pln_taylor_from_unit_poly(PlnTaylor *out, int n, const double *coef, int deg);

/* The identity tau scaled and shifted: mid + half * tau, e.g. t itself on [t0, t1] with
 * mid = (t0 + t1)/2, half = (t1 - t0)/2. Needs n >= 1. */
void pln_taylor_var(PlnTaylor *out, int n, double mid, double half);

/* out = a + b, out = a - b (eq. 3.1). */
void pln_taylor_add(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b);
void pln_taylor_sub(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b);

/* out = s * a for a double s (eq. 3.2). */
void pln_taylor_scale(PlnTaylor *out, const PlnTaylor *a, double s);

/* out = a / d for a nonzero double d, rounding of the quotients bounded (eq. 3.2). */
void pln_taylor_div(PlnTaylor *out, const PlnTaylor *a, double d);

/* out = a + s * b (a fused scale-and-add, one rounding bound; eq. 3.1-3.2). */
void pln_taylor_axpy(PlnTaylor *out, const PlnTaylor *a, double s, const PlnTaylor *b);

/* out = a + [lo, hi]: widens the remainder by an interval (lo <= hi). */
void pln_taylor_add_interval(PlnTaylor *out, const PlnTaylor *a, double lo, double hi);

/* out = a * b, truncated to degree max(a.n, b.n), dropped terms bounded into the
 * remainder (eq. 3.3-3.5). */
void pln_taylor_mul(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b);

/* The same product, for a caller that has the ranges of the operands' polynomial parts
 * at hand (an operand used in several products): ab, bb nullable, each {lo, hi} exactly as
 * pln_taylor_poly_bound() gives it for a, b (or a rigorous range); NULL ones are computed
 * when needed. With the pln_taylor_poly_bound() ranges the result is pln_taylor_mul()'s
 * bit for bit. */
void pln_taylor_mul_ranges(PlnTaylor *out, const PlnTaylor *a, const double *ab, const PlnTaylor *b,
                           const double *bb);

/* out_sin = sin(a), out_cos = cos(a) through sin(q0 + D) = sin q0 cos D + cos q0 sin D
 * with cos D, sin D expanded to order n and Lagrange remainder |D|^(n+1)/(n+1)!
 * (eq. 5.1-5.5). Either output may be NULL. Sharp when the range of a - a.c[0] is
 * small (|D| << 1); always rigorous. */
void pln_taylor_sincos(PlnTaylor *out_sin, PlnTaylor *out_cos, const PlnTaylor *a);
void pln_taylor_sin(PlnTaylor *out, const PlnTaylor *a);
void pln_taylor_cos(PlnTaylor *out, const PlnTaylor *a);

/* out = 1 / a (eq. 5.6-5.8): expanded about the midpoint c of a's polynomial range,
 * 1/(c + D) = (1/c) sum_{k<=n} (-D/c)^k + remainder |D/c|^(n+1) / (1 - |D/c|) / |c|,
 * a's own remainder added through the Lipschitz bound of 1/x. Returns 1; returns 0 (out
 * = NaN model) when the range of a, remainder included, touches zero. */
int pln_taylor_recip(PlnTaylor *out, const PlnTaylor *a);

/* Rigorous range [*lo, *hi] of the polynomial part alone over tau in [-1, 1]: the
 * intersection of the Bernstein-coefficient bound and the monomial interval bound
 * (eq. 4.1-4.4). */
void pln_taylor_poly_bound(const PlnTaylor *a, double *lo, double *hi);

/* Rigorous range [*lo, *hi] of everything the model encloses: poly_bound + [lo, hi]. */
void pln_taylor_bound(const PlnTaylor *a, double *lo, double *hi);

/* Largest |value| any function enclosed by the model takes on [-1, 1] (upper bound). */
double pln_taylor_bound_abs(const PlnTaylor *a);

/* Value of the polynomial part at tau (Horner; the remainder is not added). */
double pln_taylor_eval(const PlnTaylor *a, double tau);

/* Width hi - lo of the remainder. */
double pln_taylor_remainder_width(const PlnTaylor *a);

/* 1 when every coefficient and the remainder are finite, else 0. */
int pln_taylor_is_finite(const PlnTaylor *a);

/* Monomial coefficients d[0..n] of the polynomial part in s = (tau + 1)/2 in [0, 1]
 * (the local parameter of distance/include/dst_motion.h). Returns an absolute bound on the
 * rounding error of the conversion over s in [0, 1], to be added to any enclosure
 * radius built from d (eq. 6.1-6.2). */
double pln_taylor_to_unit_poly(const PlnTaylor *a, double *d);

/* Taylor shift of a polynomial: out[k] multiplies x^k in q(s0 + h x), coef[0..deg]
 * (deg <= PLN_TM_MAX_DEGREE, larger clamped) the monomial coefficients of q. Returns an
 * absolute bound on the rounding of the shifted coefficients summed, i.e. on the error
 * of the shifted polynomial at any |x| <= 1 (eq. 6.4). */
double pln_taylor_shift_poly(const double *coef, int deg, double s0, double h, double *out);

/* The model a restricted to the part [lo, hi] of its normalised time (-1 <= lo < hi <= 1):
 * out's tau' in [-1, 1] runs over that part, tau = (lo + hi)/2 + tau' (hi - lo)/2 (the
 * half-width widened by a few ulps, so that its image covers [lo, hi]). The polynomial part
 * is re-expanded (eq. 6.4), its rounding added to a's remainder, which stays as it is: out
 * encloses a's function wherever tau' maps into [lo, hi], so a range of out over [-1, 1]
 * bounds the function over the part. Degree and remainder kept; no truncation. */
void pln_taylor_restrict(PlnTaylor *out, const PlnTaylor *a, double lo, double hi);

#endif /* PLN_TAYLOR_H */
