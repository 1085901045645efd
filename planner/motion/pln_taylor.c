/* pln_taylor.c — Taylor-model arithmetic in normalised time tau in [-1, 1].
 *
 * Every operation computes the coefficients in plain double arithmetic, sums the
 * magnitudes of all the terms it rounded into `mag`, and widens the remainder outward
 * by wid(mag) = PLN_TM_ROUND_REL * mag + PLN_TM_ROUND_ABS (docs/math/taylor_models.md
 * eq. 7.1-7.3): the rounding error of every coefficient, summed over tau in [-1, 1],
 * stays below that, so the result encloses what the exact operation would. */
#include "motion/pln_taylor.h"

#include <math.h>
#include <string.h>

#include "base/pln_tolerance.h"

/* binomial coefficients C(i, k), i, k <= PLN_TM_MAX_DEGREE (exact integers). */
static const double k_binom[PLN_TM_MAX_DEGREE + 1][PLN_TM_MAX_DEGREE + 1] = {
    {1},
    {1, 1},
    {1, 2, 1},
    {1, 3, 3, 1},
    {1, 4, 6, 4, 1},
    {1, 5, 10, 10, 5, 1},
    {1, 6, 15, 20, 15, 6, 1},
    {1, 7, 21, 35, 35, 21, 7, 1},
};

/* 1 / C(n, i) (rounded; the rounding is covered by the widening of eq. 4.4). */
static const double k_inv_binom[PLN_TM_MAX_DEGREE + 1][PLN_TM_MAX_DEGREE + 1] = {
    {1.0},
    {1.0, 1.0},
    {1.0, 1.0 / 2, 1.0},
    {1.0, 1.0 / 3, 1.0 / 3, 1.0},
    {1.0, 1.0 / 4, 1.0 / 6, 1.0 / 4, 1.0},
    {1.0, 1.0 / 5, 1.0 / 10, 1.0 / 10, 1.0 / 5, 1.0},
    {1.0, 1.0 / 6, 1.0 / 15, 1.0 / 20, 1.0 / 15, 1.0 / 6, 1.0},
    {1.0, 1.0 / 7, 1.0 / 21, 1.0 / 35, 1.0 / 35, 1.0 / 21, 1.0 / 7, 1.0},
};

/* k! for k <= PLN_TM_MAX_DEGREE + 1 (exact in double). */
static const double k_fact[PLN_TM_MAX_DEGREE + 2] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};

/* 3^i, the bound sum_k 2^k C(i, k) of the coefficient growth of tau -> 2s - 1. */
static const double k_pow3[PLN_TM_MAX_DEGREE + 1] = {1, 3, 9, 27, 81, 243, 729, 2187};

/* rounding widening for a computation whose rounded terms sum to mag (eq. 7.2). */
static inline double wid(double mag)
{
    return PLN_TM_ROUND_REL * mag + PLN_TM_ROUND_ABS;
}

static inline int clamp_degree(int n)
{
    return n < 0 ? 0 : (n > PLN_TM_MAX_DEGREE ? PLN_TM_MAX_DEGREE : n);
}

static inline int imax(int a, int b)
{
    return a > b ? a : b;
}

/* min and max inline (fmin and fmax are library calls here, ~3.5 % of a capsule plan),
 * and a NaN in either operand gives NaN, where fmin and fmax would drop it: a bound
 * never silently forgets a NaN product (the callers' finiteness checks then see it) */
static inline double tm_min(double a, double b)
{
    return (a < b || a != a) ? a : b;
}

static inline double tm_max(double a, double b)
{
    return (a > b || a != a) ? a : b;
}

/* the four-product interval product [alo, ahi] * [blo, bhi] (eq. 3.5); adds the
 * largest product magnitude to *mag for the widening. */
static void iv_mul(double alo, double ahi, double blo, double bhi, double *lo, double *hi,
                   double *mag)
{
    double p1, p2, p3, p4, mn, mx;
    if ((alo == 0.0 && ahi == 0.0) || (blo == 0.0 && bhi == 0.0)) {
        *lo = 0.0;
        *hi = 0.0;
        return;
    }
    p1 = alo * blo;
    p2 = alo * bhi;
    p3 = ahi * blo;
    p4 = ahi * bhi;
    mn = tm_min(tm_min(p1, p2), tm_min(p3, p4));
    mx = tm_max(tm_max(p1, p2), tm_max(p3, p4));
    *lo = mn;
    *hi = mx;
    *mag += tm_max(fabs(mn), fabs(mx));
}

/* Constant model: eq. (2.1). */
void pln_taylor_const(PlnTaylor *out, int n, double v)
{
    memset(out, 0, sizeof *out);
    out->n = clamp_degree(n);
    out->c[0] = v;
}

/* Polynomial input, terms above n bounded over [-1, 1]: eq. (3.4). */
void pln_taylor_from_poly(PlnTaylor *out, int n, const double *coef, int deg)
{
    double tlo = 0.0, thi = 0.0, mag = 0.0;
    int k;
    n = clamp_degree(n);
    memset(out, 0, sizeof *out);
    out->n = n;
    for (k = 0; k <= deg; ++k) {
        double v = coef[k];
        if (k <= n) {
            out->c[k] = v;
            continue;
        }
        /* tau^k over [-1, 1]: [0, 1] for even k, [-1, 1] for odd k */
        mag += fabs(v);
        if (k % 2 == 0) {
            if (v > 0.0) thi += v; else tlo += v;
        } else {
            tlo -= fabs(v);
            thi += fabs(v);
        }
    }
    if (deg > n) {
        out->lo = tlo - wid(mag);
        out->hi = thi + wid(mag);
    }
}

/* Polynomial in s = (tau + 1)/2: c_i = sum_{k>=i} a_k C(k, i) / 2^k, eq. (6.3). */
void pln_taylor_from_unit_poly(PlnTaylor *out, int n, const double *coef, int deg)
{
    double t[PLN_TM_MAX_DEGREE + 1], mag = 0.0, w;
    int i, k;
    deg = clamp_degree(deg);
    for (i = 0; i <= deg; ++i) {
        double acc = 0.0, inv2k = 1.0;
        for (k = 0; k < i; ++k) inv2k *= 0.5;
        for (k = i; k <= deg; ++k) {
            acc += k_binom[k][i] * coef[k] * inv2k; /* inv2k = 2^-k, exact */
            inv2k *= 0.5;
        }
        t[i] = acc;
    }
    /* sum_i sum_k |a_k| C(k,i) 2^-k = sum_k |a_k| bounds every rounded term */
    for (k = 0; k <= deg; ++k) mag += fabs(coef[k]);
    pln_taylor_from_poly(out, n, t, deg);
    w = wid(mag);
    pln_taylor_add_interval(out, out, -w, w);
}

/* The affine variable mid + half * tau: eq. (2.2). */
void pln_taylor_var(PlnTaylor *out, int n, double mid, double half)
{
    pln_taylor_const(out, n, mid);
    if (out->n >= 1) {
        out->c[1] = half;
    } else {
        /* degree 0 cannot hold tau: enclose it in the remainder */
        out->lo = -fabs(half);
        out->hi = fabs(half);
    }
}

/* out = a + s * b with one rounding bound: eq. (3.1)-(3.2). */
void pln_taylor_axpy(PlnTaylor *out, const PlnTaylor *a, double s, const PlnTaylor *b)
{
    PlnTaylor r;
    double mag = 0.0, blo, bhi;
    int k;
    r.n = imax(a->n, b->n);
    for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
        double sb = s * b->c[k];
        r.c[k] = a->c[k] + sb;
        mag += fabs(a->c[k]) + fabs(sb);
    }
    /* s * [b.lo, b.hi] keeps its orientation for s >= 0 and flips it for s < 0 */
    if (s >= 0.0) {
        blo = s * b->lo;
        bhi = s * b->hi;
    } else {
        blo = s * b->hi;
        bhi = s * b->lo;
    }
    mag += fabs(a->lo) + fabs(a->hi) + fabs(blo) + fabs(bhi);
    r.lo = a->lo + blo;
    r.hi = a->hi + bhi;
    r.lo -= wid(mag);
    r.hi += wid(mag);
    *out = r;
}

/* Sum: eq. (3.1). */
void pln_taylor_add(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b)
{
    PlnTaylor r;
    double mag = 0.0;
    int k;
    r.n = imax(a->n, b->n);
    for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
        r.c[k] = a->c[k] + b->c[k];
        mag += fabs(r.c[k]);
    }
    mag += fabs(a->lo) + fabs(a->hi) + fabs(b->lo) + fabs(b->hi);
    r.lo = a->lo + b->lo - wid(mag);
    r.hi = a->hi + b->hi + wid(mag);
    *out = r;
}

/* Difference: eq. (3.1) with b negated. */
void pln_taylor_sub(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b)
{
    PlnTaylor r;
    double mag = 0.0;
    int k;
    r.n = imax(a->n, b->n);
    for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
        r.c[k] = a->c[k] - b->c[k];
        mag += fabs(r.c[k]);
    }
    mag += fabs(a->lo) + fabs(a->hi) + fabs(b->lo) + fabs(b->hi);
    r.lo = a->lo - b->hi - wid(mag);
    r.hi = a->hi - b->lo + wid(mag);
    *out = r;
}

/* Scaling by a double: eq. (3.2). */
void pln_taylor_scale(PlnTaylor *out, const PlnTaylor *a, double s)
{
    PlnTaylor r;
    double mag = 0.0, lo, hi;
    int k;
    r.n = a->n;
    for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
        r.c[k] = s * a->c[k];
        mag += fabs(r.c[k]);
    }
    if (s >= 0.0) {
        lo = s * a->lo;
        hi = s * a->hi;
    } else {
        lo = s * a->hi;
        hi = s * a->lo;
    }
    mag += fabs(lo) + fabs(hi);
    r.lo = lo - wid(mag);
    r.hi = hi + wid(mag);
    *out = r;
}

/* Division by a double d: eq. (3.2) with s = 1/d, each quotient rounded once. */
void pln_taylor_div(PlnTaylor *out, const PlnTaylor *a, double d)
{
    double mag = 0.0, lo, hi;
    int k;
    out->n = a->n;
    for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
        out->c[k] = a->c[k] / d;
        mag += fabs(out->c[k]);
    }
    if (d > 0.0) {
        lo = a->lo / d;
        hi = a->hi / d;
    } else {
        lo = a->hi / d;
        hi = a->lo / d;
    }
    mag += fabs(lo) + fabs(hi);
    out->lo = lo - wid(mag);
    out->hi = hi + wid(mag);
}

/* Widening by an interval. */
void pln_taylor_add_interval(PlnTaylor *out, const PlnTaylor *a, double lo, double hi)
{
    double mag = fabs(a->lo) + fabs(a->hi) + fabs(lo) + fabs(hi);
    if (out != a) *out = *a;
    out->lo = a->lo + lo - wid(mag);
    out->hi = a->hi + hi + wid(mag);
}

/* Monomial interval bound over [-1, 1]: eq. (4.1). */
static void poly_bound_interval(const PlnTaylor *a, double *lo, double *hi)
{
    double l = a->c[0], h = a->c[0], mag = fabs(a->c[0]);
    int k;
    for (k = 1; k <= a->n; ++k) {
        double v = a->c[k];
        mag += fabs(v);
        if (k % 2 == 0) {
            if (v > 0.0) h += v; else l += v;
        } else {
            l -= fabs(v);
            h += fabs(v);
        }
    }
    *lo = l - wid(mag);
    *hi = h + wid(mag);
}

/* Coefficients in s = (tau + 1)/2: eq. (6.1); returns S = sum |c_i| 3^i (eq. 6.2). */
static double shift_to_unit(const PlnTaylor *a, double *d)
{
    double S = 0.0, pow2 = 1.0;
    int i, k, n = a->n;
    for (i = 0; i <= n; ++i) S += fabs(a->c[i]) * k_pow3[i];
    /* d_k = 2^k sum_{i>=k} C(i,k) (-1)^(i-k) c_i */
    for (k = 0; k <= n; ++k) {
        double acc = 0.0;
        for (i = k; i <= n; ++i) {
            double t = k_binom[i][k] * a->c[i];
            acc += ((i - k) % 2 == 0) ? t : -t;
        }
        d[k] = pow2 * acc;
        pow2 *= 2.0;
    }
    for (k = n + 1; k <= PLN_TM_MAX_DEGREE; ++k) d[k] = 0.0;
    return S;
}

/* Bernstein bound over [-1, 1]: eq. (4.2)-(4.4). */
static void poly_bound_bernstein(const PlnTaylor *a, double *lo, double *hi)
{
    double d[PLN_TM_MAX_DEGREE + 1], S, bmin, bmax;
    int i, j, n = a->n;
    S = shift_to_unit(a, d);
    /* b_j = sum_{i<=j} C(j,i)/C(n,i) d_i; b_0 = p(-1), b_n = p(1) */
    bmin = bmax = d[0];
    for (j = 1; j <= n; ++j) {
        double b = 0.0;
        for (i = 0; i <= j; ++i) b += k_binom[j][i] * k_inv_binom[n][i] * d[i];
        bmin = tm_min(bmin, b);
        bmax = tm_max(bmax, b);
    }
    *lo = bmin - wid(S);
    *hi = bmax + wid(S);
}

/* Range of the polynomial part: intersection of eq. (4.1) and eq. (4.3). */
void pln_taylor_poly_bound(const PlnTaylor *a, double *lo, double *hi)
{
    double l1, h1, l2, h2;
    if (a->n <= 1) {
        poly_bound_interval(a, lo, hi); /* exact up to rounding for degree <= 1 */
        return;
    }
    poly_bound_interval(a, &l1, &h1);
    poly_bound_bernstein(a, &l2, &h2);
    *lo = tm_max(l1, l2);
    *hi = tm_min(h1, h2);
}

/* Range of the whole model: eq. (4.5). */
void pln_taylor_bound(const PlnTaylor *a, double *lo, double *hi)
{
    double pl, ph, mag;
    pln_taylor_poly_bound(a, &pl, &ph);
    mag = fabs(pl) + fabs(ph) + fabs(a->lo) + fabs(a->hi);
    *lo = pl + a->lo - wid(mag);
    *hi = ph + a->hi + wid(mag);
}

double pln_taylor_bound_abs(const PlnTaylor *a)
{
    double lo, hi;
    pln_taylor_bound(a, &lo, &hi);
    return fmax(fabs(lo), fabs(hi));
}

/* Product with truncation: eq. (3.3)-(3.5). ab and bb, when not NULL, are rigorous ranges
 * [lo, hi] of a's and b's polynomial parts already at hand (saves recomputing them). */
static void mul_core(PlnTaylor *out, const PlnTaylor *a, const double *ab, const PlnTaylor *b, const double *bb)
{
    double full[2 * PLN_TM_MAX_DEGREE + 1];
    double mag = 0.0, tlo = 0.0, thi = 0.0;
    double alo, ahi, blo, bhi, x1, x2, y1, y2, z1, z2;
    PlnTaylor r;
    int i, j, k, n = imax(a->n, b->n);

    /* full product of the polynomial parts (eq. 3.3); the rounded terms sum to
     * sum_ij |a_i b_j| = (sum_i |a_i|)(sum_j |b_j|) */
    double suma = 0.0, sumb = 0.0;
    /* fixed trip counts over the zero-padded coefficients (c[k] == 0 for k > n) let the
     * compiler unroll and vectorise; the padding adds exact zeros */
    for (k = 0; k <= 2 * PLN_TM_MAX_DEGREE; ++k) full[k] = 0.0;
    for (j = 0; j <= PLN_TM_MAX_DEGREE; ++j) sumb += fabs(b->c[j]);
    for (i = 0; i <= a->n; ++i) {
        double ai = a->c[i];
        suma += fabs(ai);
        for (j = 0; j <= PLN_TM_MAX_DEGREE; ++j) full[i + j] += ai * b->c[j];
    }
    mag = suma * sumb;
    /* keep degrees <= n; bound the dropped ones over [-1, 1] (eq. 3.4) */
    memset(&r, 0, sizeof r);
    r.n = n;
    for (k = 0; k <= n && k <= a->n + b->n; ++k) r.c[k] = full[k];
    for (k = n + 1; k <= a->n + b->n; ++k) {
        double v = full[k];
        if (k % 2 == 0) {
            if (v > 0.0) thi += v; else tlo += v;
        } else {
            tlo -= fabs(v);
            thi += fabs(v);
        }
    }
    /* remainder P_a I_b + P_b I_a + I_a I_b (eq. 3.5) */
    x1 = x2 = y1 = y2 = z1 = z2 = 0.0;
    if (b->lo != 0.0 || b->hi != 0.0) {
        if (ab != NULL) {
            alo = ab[0];
            ahi = ab[1];
        } else {
            pln_taylor_poly_bound(a, &alo, &ahi);
        }
        iv_mul(alo, ahi, b->lo, b->hi, &x1, &x2, &mag);
    }
    if (a->lo != 0.0 || a->hi != 0.0) {
        if (bb != NULL) {
            blo = bb[0];
            bhi = bb[1];
        } else {
            pln_taylor_poly_bound(b, &blo, &bhi);
        }
        iv_mul(blo, bhi, a->lo, a->hi, &y1, &y2, &mag);
        iv_mul(a->lo, a->hi, b->lo, b->hi, &z1, &z2, &mag);
    }
    mag += fabs(tlo) + fabs(thi);
    r.lo = tlo + x1 + y1 + z1 - wid(mag);
    r.hi = thi + x2 + y2 + z2 + wid(mag);
    *out = r;
}

void pln_taylor_mul(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b)
{
    mul_core(out, a, NULL, b, NULL);
}

void pln_taylor_mul_ranges(PlnTaylor *out, const PlnTaylor *a, const double *ab, const PlnTaylor *b,
                           const double *bb)
{
    mul_core(out, a, ab, b, bb);
}

/* sin and cos by the addition theorem and order-n expansions: eq. (5.1)-(5.5). */
void pln_taylor_sincos(PlnTaylor *out_sin, PlnTaylor *out_cos, const PlnTaylor *a)
{
    PlnTaylor D, P, cosD, sinD, term, rs, rc;
    double q0 = a->c[0], s0, c0, dmax, r, e, mid, rad, db[2];
    int k, n = a->n;

    /* split a = q0 + D + e: D the polynomial part without constant term plus the
     * remainder's midpoint, |e| <= rad the re-centred remainder. sin and cos are
     * 1-Lipschitz, so e moves the results by at most rad (eq. 5.1) */
    D = *a;
    mid = 0.5 * (a->lo + a->hi);
    rad = fmax(a->hi - mid, mid - a->lo);
    D.c[0] = mid;
    D.lo = D.hi = 0.0;
    pln_taylor_poly_bound(&D, &db[0], &db[1]);
    dmax = fmax(fabs(db[0]), fabs(db[1]));
    rad += wid(fabs(mid) + fabs(a->lo) + fabs(a->hi));
    s0 = sin(q0);
    c0 = cos(q0);

    /* cos D = sum_{k even} (-1)^(k/2) D^k/k!, sin D = sum_{k odd} (-1)^((k-1)/2) D^k/k!
     * (eq. 5.2), powers by truncated products (D has no remainder: only its range db is
     * needed, once) */
    pln_taylor_const(&cosD, n, 1.0);
    pln_taylor_const(&sinD, n, 0.0);
    P = D;
    for (k = 1; k <= n; ++k) {
        if (k > 1) mul_core(&P, &P, NULL, &D, db);
        pln_taylor_div(&term, &P, k_fact[k]);
        if (k % 2 == 0) {
            pln_taylor_axpy(&cosD, &cosD, (k / 2) % 2 == 0 ? 1.0 : -1.0, &term);
        } else {
            pln_taylor_axpy(&sinD, &sinD, ((k - 1) / 2) % 2 == 0 ? 1.0 : -1.0, &term);
        }
    }
    /* Lagrange remainder |D|^(n+1)/(n+1)!, rounded up (eq. 5.3) */
    r = 1.0;
    for (k = 0; k <= n; ++k) r *= dmax;
    r /= k_fact[n + 1];
    r += wid(r);
    pln_taylor_add_interval(&cosD, &cosD, -r, r);
    pln_taylor_add_interval(&sinD, &sinD, -r, r);

    /* sin q = s0 cos D + c0 sin D, cos q = c0 cos D - s0 sin D (eq. 5.4), plus the
     * libm error of s0, c0 times |cos D| + |sin D| <= 2 (eq. 5.5), plus the remainder
     * radius through the Lipschitz bound (eq. 5.1) */
    e = 2.0 * PLN_TM_LIBM_SINCOS_ERR + rad;
    e += wid(e);
    if (out_sin != NULL) {
        pln_taylor_scale(&rs, &cosD, s0);
        pln_taylor_axpy(&rs, &rs, c0, &sinD);
        pln_taylor_add_interval(&rs, &rs, -e, e);
    }
    if (out_cos != NULL) {
        pln_taylor_scale(&rc, &cosD, c0);
        pln_taylor_axpy(&rc, &rc, -s0, &sinD);
        pln_taylor_add_interval(&rc, &rc, -e, e);
    }
    /* written last so that an output may alias the input */
    if (out_sin != NULL) *out_sin = rs;
    if (out_cos != NULL) *out_cos = rc;
}

int pln_taylor_recip(PlnTaylor *out, const PlnTaylor *a)
{
    PlnTaylor P, U, S, one;
    double plo, phi, c, mid, rad, umax, m, r, lip;
    int n = a->n;
    /* a = P + e: P the polynomial with the remainder's midpoint, |e| <= rad */
    P = *a;
    mid = 0.5 * (a->lo + a->hi);
    rad = fmax(a->hi - mid, mid - a->lo);
    rad += wid(fabs(mid) + fabs(a->lo) + fabs(a->hi));
    P.c[0] += mid;
    P.lo = P.hi = 0.0;
    P.lo = -wid(fabs(P.c[0]));
    P.hi = -P.lo;
    pln_taylor_bound(&P, &plo, &phi);
    if (!(plo - rad > 0.0 || phi + rad < 0.0)) {
        pln_taylor_const(out, n, NAN);
        return 0;
    }
    /* U = (P - c)/c, |U| <= umax < 1 (eq. 5.6) */
    c = 0.5 * (plo + phi);
    pln_taylor_const(&one, n, c);
    pln_taylor_sub(&U, &P, &one);
    pln_taylor_div(&U, &U, c);
    umax = pln_taylor_bound_abs(&U);
    if (!(umax < 1.0)) {
        pln_taylor_const(out, n, NAN);
        return 0;
    }
    /* S = sum_{k<=n} (-U)^k by Horner, S = 1 - U S (eq. 5.7) */
    pln_taylor_const(&S, n, 1.0);
    pln_taylor_const(&one, n, 1.0);
    for (int k = 0; k < n; ++k) {
        pln_taylor_mul(&S, &U, &S);
        pln_taylor_sub(&S, &one, &S);
    }
    /* the tail (-U)^(n+1) / (1 + U): at most umax^(n+1) / (1 - umax) (eq. 5.7) */
    r = 1.0;
    for (int k = 0; k <= n; ++k) r *= umax;
    r /= 1.0 - umax;
    r += wid(r);
    pln_taylor_add_interval(&S, &S, -r, r);
    pln_taylor_div(&S, &S, c);
    /* a's remainder: |1/x - 1/y| <= |x - y| / (|x| |y|), both at least m (eq. 5.8) */
    m = plo - rad > 0.0 ? plo - rad : -(phi + rad);
    lip = rad / (m * m);
    lip += wid(lip);
    pln_taylor_add_interval(out, &S, -lip, lip);
    return 1;
}

void pln_taylor_sin(PlnTaylor *out, const PlnTaylor *a)
{
    pln_taylor_sincos(out, NULL, a);
}

void pln_taylor_cos(PlnTaylor *out, const PlnTaylor *a)
{
    pln_taylor_sincos(NULL, out, a);
}

/* Horner evaluation of the polynomial part. */
double pln_taylor_eval(const PlnTaylor *a, double tau)
{
    double v = a->c[a->n];
    int k;
    for (k = a->n - 1; k >= 0; --k) v = v * tau + a->c[k];
    return v;
}

double pln_taylor_remainder_width(const PlnTaylor *a)
{
    return a->hi - a->lo;
}

int pln_taylor_is_finite(const PlnTaylor *a)
{
    int k;
    for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
        if (!isfinite(a->c[k])) return 0;
    }
    return isfinite(a->lo) && isfinite(a->hi);
}

/* Conversion to the local parameter s in [0, 1]: eq. (6.1)-(6.2). */
double pln_taylor_to_unit_poly(const PlnTaylor *a, double *d)
{
    double S = shift_to_unit(a, d);
    return wid(S);
}

/* Taylor shift by repeated synthetic division, then scaling by h^k; the same recurrence
 * on |coefficients| and |s0| bounds every rounded term (eq. 6.4). */
double pln_taylor_shift_poly(const double *coef, int deg, double s0, double h, double *out)
{
    double b[PLN_TM_MAX_DEGREE + 1], babs[PLN_TM_MAX_DEGREE + 1];
    double hk = 1.0, mag = 0.0;
    int i, k;
    if (deg < 0) return 0.0;
    deg = clamp_degree(deg);
    for (k = 0; k <= deg; ++k) {
        b[k] = coef[k];
        babs[k] = fabs(coef[k]);
    }
    for (i = 0; i < deg; ++i) {
        for (k = deg - 1; k >= i; --k) {
            b[k] += s0 * b[k + 1];
            babs[k] += fabs(s0) * babs[k + 1];
        }
    }
    for (k = 0; k <= deg; ++k) {
        out[k] = b[k] * hk;
        mag += babs[k] * fabs(hk);
        hk *= h;
    }
    return wid(mag);
}

/* Restriction to a part of the span: eq. (6.4). */
void pln_taylor_restrict(PlnTaylor *out, const PlnTaylor *a, double lo, double hi)
{
    double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo), c[PLN_TM_MAX_DEGREE + 1], e;
    half += PLN_TM_RESTRICT_PAD; /* [mid - half, mid + half] around [lo, hi] */
    e = pln_taylor_shift_poly(a->c, a->n, mid, half, c);
    if (out != a) *out = *a;
    for (int k = 0; k <= out->n; ++k) out->c[k] = c[k];
    out->lo = a->lo - e;
    out->hi = a->hi + e;
}
