/* dst_motion.c — polynomial point motion: evaluation, Bernstein bounds, rigid poses.
 *
 * Motion bounds are taken from Bernstein coefficients (DESIGN.md sec. 6): on an
 * interval the range of a polynomial lies within the min and max of its Bernstein
 * coefficients there, which is how the thesis bounds B-spline maxima by control points
 * (thesis sec. III.C.1, the remark under eq. 3.3). */
#include "dst_motion.h"

#include "dst_frame_internal.h"

#include <math.h>
#include <string.h>

/* binomial coefficients C(n, k) for n, k <= DST_MAX_DEGREE */
static const double dst_binom[DST_MAX_DEGREE + 1][DST_MAX_DEGREE + 1] = {
    {1, 0, 0, 0, 0, 0, 0, 0},
    {1, 1, 0, 0, 0, 0, 0, 0},
    {1, 2, 1, 0, 0, 0, 0, 0},
    {1, 3, 3, 1, 0, 0, 0, 0},
    {1, 4, 6, 4, 1, 0, 0, 0},
    {1, 5, 10, 10, 5, 1, 0, 0},
    {1, 6, 15, 20, 15, 6, 1, 0},
    {1, 7, 21, 35, 35, 21, 7, 1},
};

/* 1 / C(m, k): the monomial-to-Bernstein conversion divides by these */
static const double dst_inv_binom[DST_MAX_DEGREE + 1][DST_MAX_DEGREE + 1] = {
    {1.0 / 1, 0, 0, 0, 0, 0, 0, 0},
    {1.0 / 1, 1.0 / 1, 0, 0, 0, 0, 0, 0},
    {1.0 / 1, 1.0 / 2, 1.0 / 1, 0, 0, 0, 0, 0},
    {1.0 / 1, 1.0 / 3, 1.0 / 3, 1.0 / 1, 0, 0, 0, 0},
    {1.0 / 1, 1.0 / 4, 1.0 / 6, 1.0 / 4, 1.0 / 1, 0, 0, 0},
    {1.0 / 1, 1.0 / 5, 1.0 / 10, 1.0 / 10, 1.0 / 5, 1.0 / 1, 0, 0},
    {1.0 / 1, 1.0 / 6, 1.0 / 15, 1.0 / 20, 1.0 / 15, 1.0 / 6, 1.0 / 1, 0},
    {1.0 / 1, 1.0 / 7, 1.0 / 21, 1.0 / 35, 1.0 / 35, 1.0 / 21, 1.0 / 7, 1.0 / 1},
};

/* max/min of finite values without fmax's NaN handling (which may be a libm call) */
static inline double dst_max2(double a, double b)
{
    return a > b ? a : b;
}

/* see dst_max2 */
static inline double dst_min2(double a, double b)
{
    return a < b ? a : b;
}

/* Input check of a moving point (finite coefficients, err >= 0). */
DstStatus dst_poly_point_validate(const DstPolyPoint *p)
{
    if (p == NULL || p->degree < 0 || p->degree > DST_MAX_DEGREE) return DST_INVALID_INPUT;
    for (int k = 0; k <= p->degree; ++k) {
        for (int i = 0; i < 3; ++i) {
            if (!isfinite(p->c[k][i])) return DST_INVALID_INPUT;
        }
    }
    if (!isfinite(p->err) || p->err < 0.0) return DST_INVALID_INPUT;
    return DST_OK;
}

/* Input check of a moving capsule (eq. 3.1 needs radius > 0). */
DstStatus dst_moving_capsule_validate(const DstMovingCapsule *c)
{
    if (c == NULL) return DST_INVALID_INPUT;
    if (dst_poly_point_validate(&c->p0) != DST_OK || dst_poly_point_validate(&c->p1) != DST_OK) {
        return DST_INVALID_INPUT;
    }
    if (!isfinite(c->radius) || !(c->radius > 0.0)) return DST_INVALID_INPUT;
    return DST_OK;
}

/* Horner evaluation of the position polynomial. */
void dst_poly_point_eval(const DstPolyPoint *p, double s, double out[3])
{
    int d = p->degree;
    double x = p->c[d][0], y = p->c[d][1], z = p->c[d][2];
    for (int k = d - 1; k >= 0; --k) {
        x = x * s + p->c[k][0];
        y = y * s + p->c[k][1];
        z = z * s + p->c[k][2];
    }
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* Horner evaluation of the derivative sum_k k c[k] s^(k-1). */
void dst_poly_point_velocity(const DstPolyPoint *p, double s, double out[3])
{
    int d = p->degree;
    if (d == 0) {
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
    double x = d * p->c[d][0], y = d * p->c[d][1], z = d * p->c[d][2];
    for (int k = d - 1; k >= 1; --k) {
        x = x * s + k * p->c[k][0];
        y = y * s + k * p->c[k][1];
        z = z * s + k * p->c[k][2];
    }
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* Monomial to Bernstein basis on [0,1]: b_j = sum_{k<=j} C(j,k)/C(m,k) a_k. */
void dst_bernstein_from_monomial(int m, const double *a, double *b)
{
    for (int j = 0; j <= m; ++j) {
        double acc = 0.0;
        for (int k = 0; k <= j; ++k) acc += dst_binom[j][k] * dst_inv_binom[m][k] * a[k];
        b[j] = acc;
    }
}

/* de Casteljau: coefficients of the part [u, 1] (in place). */
static void dst_bernstein_right(int m, double *w, double u)
{
    double v = 1.0 - u;
    for (int r = 1; r <= m; ++r) {
        for (int j = 0; j <= m - r; ++j) w[j] = v * w[j] + u * w[j + 1];
    }
}

/* de Casteljau: coefficients of the part [0, u] (in place). */
static void dst_bernstein_left(int m, double *w, double u)
{
    double v = 1.0 - u;
    for (int r = 1; r <= m; ++r) {
        for (int j = m; j >= r; --j) w[j] = v * w[j - 1] + u * w[j];
    }
}

/* Restriction of a Bernstein polynomial to [u0, u1] by two de Casteljau splits. */
void dst_bernstein_subdivide(int m, const double *b, double u0, double u1, double *out)
{
    if (out != b) memmove(out, b, (size_t)(m + 1) * sizeof *out);
    if (u0 > 0.0) {
        dst_bernstein_right(m, out, u0);
        /* the [u0, 1] part is reparametrised on [0, 1]: u1 maps to (u1-u0)/(1-u0) */
        double span = 1.0 - u0;
        if (span <= 0.0) return; /* u0 = 1: every coefficient is p(1) already */
        u1 = (u1 - u0) / span;
    }
    if (u1 < 1.0) dst_bernstein_left(m, out, u1 < 0.0 ? 0.0 : u1);
}

/* Range of a scalar polynomial on [u0,u1] by its Bernstein coefficients (convex hull). */
void dst_poly_range(int m, const double *a, double u0, double u1, double *lo, double *hi)
{
    double b[DST_MAX_DEGREE + 1] = {0};
    double mag = 0.0;
    for (int k = 0; k <= m; ++k) mag += fabs(a[k]);
    dst_bernstein_from_monomial(m, a, b);
    dst_bernstein_subdivide(m, b, u0, u1, b);
    double mn = b[0], mx = b[0];
    for (int j = 1; j <= m; ++j) {
        mn = dst_min2(mn, b[j]);
        mx = dst_max2(mx, b[j]);
    }
    *lo = mn - DST_ROUND_REL * mag;
    *hi = mx + DST_ROUND_REL * mag;
}

/* Motion bound along n, eq. (3.3) first term, by Bernstein coefficients of n.p'(s). */
void dst_poly_point_rate_along(const DstPolyPoint *p, const double n[3], double u0, double u1,
                               double *lo, double *hi)
{
    double a[DST_MAX_DEGREE + 1];
    int m = p->degree - 1;
    if (m < 0) {
        *lo = *hi = 0.0;
        return;
    }
    for (int j = 0; j <= m; ++j) {
        const double *c = p->c[j + 1];
        a[j] = (j + 1) * (n[0] * c[0] + n[1] * c[1] + n[2] * c[2]);
    }
    dst_poly_range(m, a, u0, u1, lo, hi);
    /* dst_poly_range widened for the conversion; widen for the projection too */
    double mag = 0.0;
    for (int j = 0; j <= m; ++j) {
        const double *c = p->c[j + 1];
        mag += (j + 1) * (fabs(n[0] * c[0]) + fabs(n[1] * c[1]) + fabs(n[2] * c[2]));
    }
    *lo -= DST_ROUND_REL * mag;
    *hi += DST_ROUND_REL * mag;
}

/* Speed bound: |p'(s)| <= max_j |b_j| for the vector Bernstein coefficients b_j. */
double dst_poly_point_speed_bound(const DstPolyPoint *p, double u0, double u1)
{
    double b[3][DST_MAX_DEGREE + 1];
    double a[DST_MAX_DEGREE + 1];
    int m = p->degree - 1;
    if (m < 0) return 0.0;
    double mag = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j <= m; ++j) {
            a[j] = (j + 1) * p->c[j + 1][i];
            mag += fabs(a[j]);
        }
        dst_bernstein_from_monomial(m, a, b[i]);
        dst_bernstein_subdivide(m, b[i], u0, u1, b[i]);
    }
    double best = 0.0;
    for (int j = 0; j <= m; ++j) {
        double q = sqrt(b[0][j] * b[0][j] + b[1][j] * b[1][j] + b[2][j] * b[2][j]);
        best = dst_max2(best, q);
    }
    return best * (1.0 + DST_ROUND_REL) + DST_ROUND_REL * mag;
}

/* ---- rigid poses ---- */

/* out = R v, R row-major 3x3 */
static void dst_mat_vec(const double R[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; ++i) out[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
}

/* every v[i] finite */
static int dst_all_finite(const double *v, int n)
{
    for (int i = 0; i < n; ++i) {
        if (!isfinite(v[i])) return 0;
    }
    return 1;
}

/* A proper rotation within DST_ROTATION_TOL (R R^T = I, det R > 0). */
int dst_is_rotation(const double R[9])
{
    if (!dst_all_finite(R, 9)) return 0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
            if (fabs(d - (i == j ? 1.0 : 0.0)) > DST_ROTATION_TOL) return 0;
        }
    }
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    return det > 0.0;
}

/* Axis k and angle theta in [0, pi] of the rotation R (R = Rot(k, theta)). */
static void dst_axis_angle(const double R[9], double k[3], double *theta)
{
    /* w = vee(R - R^T)/2 = k sin(theta), cos(theta) = (tr R - 1)/2 */
    double w[3] = {0.5 * (R[7] - R[5]), 0.5 * (R[2] - R[6]), 0.5 * (R[3] - R[1])};
    double c = 0.5 * (R[0] + R[4] + R[8] - 1.0);
    double sn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    *theta = atan2(sn, c);
    if (c > 0.0) {
        /* small to moderate angles: the axis from the skew part */
        if (sn > DST_MIN_DENOM) {
            for (int i = 0; i < 3; ++i) k[i] = w[i] / sn;
        } else {
            k[0] = 0.0, k[1] = 0.0, k[2] = 1.0;
            *theta = 0.0;
        }
        return;
    }
    /* near pi: k k^T = (S - c I)/(1 - c) with S the symmetric part; take its largest column */
    double S[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) S[3 * i + j] = 0.5 * (R[3 * i + j] + R[3 * j + i]) - (i == j ? c : 0.0);
    }
    int col = 0;
    if (S[4] > S[3 * col + col]) col = 1;
    if (S[8] > S[3 * col + col]) col = 2;
    double v[3] = {S[col], S[3 + col], S[6 + col]};
    double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; ++i) k[i] = v[i] / fmax(nv, DST_MIN_DENOM);
    if (k[0] * w[0] + k[1] * w[1] + k[2] * w[2] < 0.0) {
        for (int i = 0; i < 3; ++i) k[i] = -k[i];
    }
}

/* Rigid motion of a body point: linear translation + rotation about a fixed axis, with
 * cos/sin replaced by Taylor polynomials about s = 1/2 and a Lagrange remainder. */
DstStatus dst_poly_point_from_poses(const double p_local[3], const double R0[9], const double x0[3],
                                    const double R1[9], const double x1[3], int degree,
                                    DstPolyPoint *out)
{
    memset(out, 0, sizeof *out);
    if (degree < 2 || degree > DST_MAX_DEGREE || !dst_all_finite(p_local, 3) || !dst_all_finite(x0, 3) ||
        !dst_all_finite(x1, 3) || !dst_is_rotation(R0) || !dst_is_rotation(R1)) {
        return DST_INVALID_INPUT;
    }
    /* relative rotation Rr = R1 R0^T = Rot(k, theta) */
    double Rr[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            Rr[3 * i + j] = R1[3 * i] * R0[3 * j] + R1[3 * i + 1] * R0[3 * j + 1] + R1[3 * i + 2] * R0[3 * j + 2];
        }
    }
    double k[3], theta;
    dst_axis_angle(Rr, k, &theta);

    /* v = R0 p_local split into its part along k, its perpendicular part and k x v:
     * Rot(k, phi) v = v_par + v_perp cos(phi) + (k x v) sin(phi) */
    double v[3], kv, vpar[3], vperp[3], kxv[3];
    dst_mat_vec(R0, p_local, v);
    kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    for (int i = 0; i < 3; ++i) {
        vpar[i] = k[i] * kv;
        vperp[i] = v[i] - vpar[i];
    }
    kxv[0] = k[1] * v[2] - k[2] * v[1];
    kxv[1] = k[2] * v[0] - k[0] * v[2];
    kxv[2] = k[0] * v[1] - k[1] * v[0];

    /* phi = theta s = theta/2 + theta u, u = s - 1/2 in [-1/2, 1/2]:
     * cos(phi) = C cos(theta u) - S sin(theta u), sin(phi) = S cos(theta u) + C sin(theta u) */
    double C = cos(0.5 * theta), S = sin(0.5 * theta);
    double tc[DST_MAX_DEGREE + 1] = {0}, ts[DST_MAX_DEGREE + 1] = {0}; /* Taylor of cos, sin (theta u) in u */
    double term = 1.0;                                                  /* theta^j / j! */
    for (int j = 0; j <= degree; ++j) {
        if (j > 0) term *= theta / j;
        switch (j % 4) {
        case 0: tc[j] = term; break;
        case 1: ts[j] = term; break;
        case 2: tc[j] = -term; break;
        default: ts[j] = -term; break;
        }
    }
    /* Lagrange remainder of either series at |theta u| <= theta/2: (theta/2)^(n+1)/(n+1)! */
    double rem = 1.0;
    for (int j = 1; j <= degree + 1; ++j) rem *= 0.5 * theta / j;
    double pc[DST_MAX_DEGREE + 1], ps[DST_MAX_DEGREE + 1]; /* cos(phi), sin(phi) in u */
    for (int j = 0; j <= degree; ++j) {
        pc[j] = C * tc[j] - S * ts[j];
        ps[j] = S * tc[j] + C * ts[j];
    }
    /* shift u = s - 1/2 to monomials in s: sum_j a_j (s - 1/2)^j */
    double qc[DST_MAX_DEGREE + 1] = {0}, qs[DST_MAX_DEGREE + 1] = {0};
    for (int j = 0; j <= degree; ++j) {
        double h = 1.0; /* (-1/2)^(j-i) built from i = j down */
        for (int i = j; i >= 0; --i) {
            qc[i] += pc[j] * dst_binom[j][i] * h;
            qs[i] += ps[j] * dst_binom[j][i] * h;
            h *= -0.5;
        }
    }
    /* assemble p(s) = x0 + s (x1 - x0) + v_par + v_perp cos(phi) + (k x v) sin(phi) */
    out->degree = degree;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j <= degree; ++j) out->c[j][i] = vperp[i] * qc[j] + kxv[i] * qs[j];
        out->c[0][i] += x0[i] + vpar[i];
        out->c[1][i] += x1[i] - x0[i];
    }
    /* correct both ends to the exact poses with a linear term: c0 += e0, c1 += e1 - e0 */
    double P0[3], P1[3], T0[3], T1[3], e0 = 0.0, e1 = 0.0;
    dst_poly_point_eval(out, 0.0, P0);
    dst_poly_point_eval(out, 1.0, P1);
    dst_mat_vec(R0, p_local, T0);
    dst_mat_vec(R1, p_local, T1);
    double mag = 0.0;
    for (int i = 0; i < 3; ++i) {
        T0[i] += x0[i];
        T1[i] += x1[i];
        double d0 = T0[i] - P0[i], d1 = T1[i] - P1[i];
        out->c[0][i] += d0;
        out->c[1][i] += d1 - d0;
        e0 += d0 * d0;
        e1 += d1 * d1;
        mag += fabs(x0[i]) + fabs(x1[i]) + fabs(v[i]);
    }
    double nperp = sqrt(vperp[0] * vperp[0] + vperp[1] * vperp[1] + vperp[2] * vperp[2]);
    /* |true - poly| <= |v_perp| (rem_cos + rem_sin), each rem <= (C + S) rem; plus the
     * linear end correction (at most the larger end mismatch) and rounding */
    out->err = 2.0 * (C + S) * rem * nperp + fmax(sqrt(e0), sqrt(e1)) + DST_ROUND_REL * mag;
    /* drop vanishing top coefficients (a pure translation has degree 1) */
    while (out->degree > 0 && out->c[out->degree][0] == 0.0 && out->c[out->degree][1] == 0.0 &&
           out->c[out->degree][2] == 0.0) {
        --out->degree;
    }
    return DST_OK;
}

/* Both endpoints of a capsule carried by the same rigid motion. */
DstStatus dst_moving_capsule_from_poses(const double a_local[3], const double b_local[3], double radius,
                                        const double R0[9], const double x0[3], const double R1[9],
                                        const double x1[3], int degree, DstMovingCapsule *out)
{
    memset(out, 0, sizeof *out);
    if (!isfinite(radius) || !(radius > 0.0)) return DST_INVALID_INPUT;
    if (dst_poly_point_from_poses(a_local, R0, x0, R1, x1, degree, &out->p0) != DST_OK ||
        dst_poly_point_from_poses(b_local, R0, x0, R1, x1, degree, &out->p1) != DST_OK) {
        memset(out, 0, sizeof *out);
        return DST_INVALID_INPUT;
    }
    out->radius = radius;
    return DST_OK;
}

/* ---- moving rigid frames ---- */

DstStatus dst_moving_frame_validate(const DstMovingFrame *f)
{
    if (f->degree < 0 || f->degree > DST_MAX_DEGREE) return DST_INVALID_INPUT;
    for (int k = 0; k <= f->degree; ++k) {
        if (!dst_all_finite(f->R[k], 9)) return DST_INVALID_INPUT;
    }
    if (!isfinite(f->R_err) || f->R_err < 0.0) return DST_INVALID_INPUT;
    return dst_poly_point_validate(&f->origin);
}

void dst_moving_frame_static(const double R[9], const double x[3], DstMovingFrame *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->R[0], R, 9 * sizeof(double));
    for (int i = 0; i < 3; ++i) out->origin.c[0][i] = x[i];
}

/* Columns of R(s) are the rigid motions of the unit body points e_j about the origin
 * (dst_poly_point_from_poses); the column errors bound the spectral norm through the
 * Frobenius norm. */
DstStatus dst_moving_frame_from_poses(const double R0[9], const double x0[3], const double R1[9],
                                      const double x1[3], int degree, DstMovingFrame *out)
{
    static const double zero[3] = {0.0, 0.0, 0.0};
    memset(out, 0, sizeof *out);
    double e2 = 0.0;
    for (int j = 0; j < 3; ++j) {
        double ej[3] = {0.0, 0.0, 0.0};
        DstPolyPoint col;
        ej[j] = 1.0;
        if (dst_poly_point_from_poses(ej, R0, zero, R1, zero, degree, &col) != DST_OK) {
            memset(out, 0, sizeof *out);
            return DST_INVALID_INPUT;
        }
        for (int k = 0; k <= col.degree; ++k) {
            for (int i = 0; i < 3; ++i) out->R[k][3 * i + j] = col.c[k][i];
        }
        if (col.degree > out->degree) out->degree = col.degree;
        e2 += col.err * col.err;
    }
    out->R_err = sqrt(e2) * (1.0 + DST_ROUND_REL);
    if (dst_poly_point_from_poses(zero, R0, x0, R1, x1, degree, &out->origin) != DST_OK) {
        memset(out, 0, sizeof *out);
        return DST_INVALID_INPUT;
    }
    return DST_OK;
}

void dst_moving_frame_eval(const DstMovingFrame *f, double s, double R[9], double x[3])
{
    for (int e = 0; e < 9; ++e) {
        double acc = f->R[f->degree][e];
        for (int k = f->degree - 1; k >= 0; --k) acc = acc * s + f->R[k][e];
        R[e] = acc;
    }
    dst_poly_point_eval(&f->origin, s, x);
}

void dst_moving_frame_point(const DstMovingFrame *f, const double l[3], double s, double out[3])
{
    double R[9], x[3], y[3];
    dst_moving_frame_eval(f, s, R, x);
    dst_mat_vec(R, l, y);
    for (int i = 0; i < 3; ++i) out[i] = x[i] + y[i];
}

/* Rigorous bound of the spectral norm of a 3x3 matrix M: sqrt of the largest eigenvalue of
 * S = M^T M from the closed form, verified by Sylvester's criterion (lam' I - S positive
 * definite: its leading principal minors positive) with lam' widened by 1e-4 relative; the
 * Frobenius norm when the check fails. R' = [w] R has Frobenius norm sqrt(2)|w| but spectral
 * norm |w|, so this takes the rotation term of eq. (4.7) down by up to sqrt(2). */
static double spectral_bound(const double M[9])
{
    double S[9], fro = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) S[3 * i + j] = M[i] * M[j] + M[3 + i] * M[3 + j] + M[6 + i] * M[6 + j];
    }
    for (int e = 0; e < 9; ++e) fro += M[e] * M[e];
    double fro_bound = sqrt(fro) * (1.0 + 4.0 * DST_ROUND_REL);
    if (!(fro > 0.0)) return fro_bound;
    /* eigenvalues of the symmetric S (trigonometric form) */
    double q = (S[0] + S[4] + S[8]) / 3.0;
    double p1 = S[1] * S[1] + S[2] * S[2] + S[5] * S[5];
    double p2 = (S[0] - q) * (S[0] - q) + (S[4] - q) * (S[4] - q) + (S[8] - q) * (S[8] - q) + 2.0 * p1;
    double p = sqrt(p2 / 6.0), lam;
    if (p > 0.0) {
        double B[9];
        for (int e = 0; e < 9; ++e) B[e] = (S[e] - (e % 4 == 0 ? q : 0.0)) / p;
        double r = 0.5 * (B[0] * (B[4] * B[8] - B[5] * B[7]) - B[1] * (B[3] * B[8] - B[5] * B[6]) +
                          B[2] * (B[3] * B[7] - B[4] * B[6]));
        if (r < -1.0) r = -1.0;
        if (r > 1.0) r = 1.0;
        lam = q + 2.0 * p * cos(acos(r) / 3.0);
    } else {
        lam = q;
    }
    double lp = lam * (1.0 + 1e-4) + 1e-12 * fro;
    /* lp I - S positive definite <=> lam_max(S) < lp */
    double a = lp - S[0], b = -S[1], c = -S[2], d = lp - S[4], e = -S[5], f = lp - S[8];
    double m1 = a, m2 = a * d - b * b, m3 = a * (d * f - e * e) - b * (b * f - e * c) + c * (b * e - d * c);
    double tol = 64.0 * DST_ROUND_REL * lp * lp * lp;
    if (m1 > 0.0 && m2 > 64.0 * DST_ROUND_REL * lp * lp && m3 > tol) {
        double sb = sqrt(lp) * (1.0 + 4.0 * DST_ROUND_REL);
        return sb < fro_bound ? sb : fro_bound;
    }
    return fro_bound;
}

/* Eq. (4.7), rotation term: max over the Bernstein coefficient matrices of R' on [u0, u1]
 * of their spectral norm (R' is their convex combination there). */
double dst_moving_frame_rot_speed_bound(const DstMovingFrame *f, double u0, double u1)
{
    int m = f->degree - 1;
    if (m < 0) return 0.0;
    double b[9][DST_MAX_DEGREE + 1], a[DST_MAX_DEGREE + 1], mag = 0.0;
    for (int e = 0; e < 9; ++e) {
        for (int j = 0; j <= m; ++j) {
            a[j] = (j + 1) * f->R[j + 1][e];
            mag += fabs(a[j]);
        }
        dst_bernstein_from_monomial(m, a, b[e]);
        dst_bernstein_subdivide(m, b[e], u0, u1, b[e]);
    }
    double best = 0.0;
    for (int j = 0; j <= m; ++j) {
        double M[9];
        for (int e = 0; e < 9; ++e) M[e] = b[e][j];
        double v = spectral_bound(M);
        if (v > best) best = v;
    }
    /* the conversions' rounding, absolute in the coefficients' size */
    return best * (1.0 + DST_ROUND_REL) + 8.0 * DST_ROUND_REL * mag;
}

/* Eq. (4.7) per unit s: |x'(s) + R'(s) l| <= max |x'| + ||R'(s)||_2 r, with the spectral
 * norm of R' bounded by dst_moving_frame_rot_speed_bound. */
double dst_moving_frame_speed_bound(const DstMovingFrame *f, double r, double u0, double u1)
{
    double v = dst_poly_point_speed_bound(&f->origin, u0, u1);
    if (f->degree < 1 || r <= 0.0) return v;
    double w = dst_moving_frame_rot_speed_bound(f, u0, u1) * r;
    return (v + w * (1.0 + DST_ROUND_REL)) * (1.0 + DST_ROUND_REL);
}

double dst_moving_frame_enclosure(const DstMovingFrame *f, double r)
{
    return (f->origin.err + f->R_err * r) * (1.0 + 4.0 * DST_ROUND_REL);
}
