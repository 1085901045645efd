/* dst_ellipsoid.c — closest approach of two ellipsoids along a direction: fixed-point,
 * Steffensen and the root-bracketed Newton-bisection hybrid on f(u) (seed 001, eq. 1-13;
 * the scaled-frame form of eq. 14-19 is derived in docs/math/ellipsoid.md). */
#include "dst_ellipsoid.h"

#include <math.h>
#include <string.h>

#include "dst_ellipsoid_internal.h"

DstEllipsoidOptions dst_ellipsoid_options_default(void)
{
    DstEllipsoidOptions o;
    o.solver = DST_ELLIPSOID_HYBRID;
    o.stop = DST_ELLIPSOID_STOP_DU;
    o.eps = DST_ELLIPSOID_DEFAULT_EPS;
    o.max_iter = DST_ELLIPSOID_DEFAULT_MAX_ITER;
    o.u0 = DST_ELLIPSOID_DEFAULT_U0;
    return o;
}

/* Validity of an ellipsoid as eq. (1) needs it: E = R diag(r^-2) R^T with R orthonormal. */
const char *dst_ellipsoid_check(const DstEllipsoid *e)
{
    if (e == NULL) return "ellipsoid is NULL";
    for (int i = 0; i < 3; ++i)
        if (!isfinite(e->centre[i])) return "ellipsoid centre is not finite";
    for (int i = 0; i < 3; ++i)
        if (!isfinite(e->radii[i]) || !(e->radii[i] > 0.0))
            return "ellipsoid radii must be finite and > 0";
    for (int i = 0; i < 9; ++i)
        if (!isfinite(e->rot[i])) return "ellipsoid rotation is not finite";
    /* R^T R = I entrywise within the tolerance */
    for (int a = 0; a < 3; ++a)
        for (int b = a; b < 3; ++b) {
            double dot = 0.0;
            for (int i = 0; i < 3; ++i) dot += e->rot[3 * i + a] * e->rot[3 * i + b];
            if (fabs(dot - (a == b ? 1.0 : 0.0)) > DST_ROTATION_ORTHO_TOL)
                return "ellipsoid rotation is not orthonormal";
        }
    return NULL;
}

/* Scaled frame of e2, eq. (14)-(16): G = diag(r2) R2^T R1 diag(1/r1), K = G G^T,
 * m = diag(1/r2) R2^T n. */
void dst_ellipsoid_pair_init(DstEllipsoidPair *pair, const DstEllipsoid *e1,
                             const DstEllipsoid *e2, const double *n)
{
    const double *R1 = e1->rot, *R2 = e2->rot;
    double G[3][3];
    /* G[a][b] = r2_a (R2^T R1)_{ab} / r1_b */
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            const double rel = R2[a] * R1[b] + R2[3 + a] * R1[3 + b] + R2[6 + a] * R1[6 + b];
            G[a][b] = e2->radii[a] * rel / e1->radii[b];
        }
    /* K = G G^T, upper triangle */
    pair->K[0] = G[0][0] * G[0][0] + G[0][1] * G[0][1] + G[0][2] * G[0][2];
    pair->K[1] = G[0][0] * G[1][0] + G[0][1] * G[1][1] + G[0][2] * G[1][2];
    pair->K[2] = G[0][0] * G[2][0] + G[0][1] * G[2][1] + G[0][2] * G[2][2];
    pair->K[3] = G[1][0] * G[1][0] + G[1][1] * G[1][1] + G[1][2] * G[1][2];
    pair->K[4] = G[1][0] * G[2][0] + G[1][1] * G[2][1] + G[1][2] * G[2][2];
    pair->K[5] = G[2][0] * G[2][0] + G[2][1] * G[2][1] + G[2][2] * G[2][2];
    for (int a = 0; a < 3; ++a) {
        pair->m[a] = (R2[a] * n[0] + R2[3 + a] * n[1] + R2[6 + a] * n[2]) / e2->radii[a];
        pair->n[a] = n[a];
    }
    pair->r_min = fmin(fmin(fmin(e1->radii[0], e1->radii[1]), fmin(e1->radii[2], e2->radii[0])),
                       fmin(e2->radii[1], e2->radii[2]));
}

/* y = K x for the packed symmetric K. */
static void sym_mul(const double *K, const double *x, double *y)
{
    y[0] = K[0] * x[0] + K[1] * x[1] + K[2] * x[2];
    y[1] = K[1] * x[0] + K[3] * x[1] + K[4] * x[2];
    y[2] = K[2] * x[0] + K[4] * x[1] + K[5] * x[2];
}

/* f(u) of eq. (10) and f'(u) of eq. (11) in the scaled frame, eq. (15)-(18). */
void dst_ellipsoid_eval(const DstEllipsoidPair *pair, double u, int want_fprime,
                        DstEllipsoidEval *ev)
{
    const double *K = pair->K;
    const double v1 = 1.0 - u;
    /* H = u K + (1 - u) I (symmetric positive definite for u in [0, 1]) */
    const double h00 = u * K[0] + v1, h01 = u * K[1], h02 = u * K[2];
    const double h11 = u * K[3] + v1, h12 = u * K[4], h22 = u * K[5] + v1;
    /* adjugate (symmetric) and determinant */
    double C[6], idet, y[3];
    C[0] = h11 * h22 - h12 * h12;
    C[1] = h02 * h12 - h01 * h22;
    C[2] = h01 * h12 - h02 * h11;
    C[3] = h00 * h22 - h02 * h02;
    C[4] = h01 * h02 - h00 * h12;
    C[5] = h00 * h11 - h01 * h01;
    idet = 1.0 / (h00 * C[0] + h01 * C[1] + h02 * C[2]);
    /* z = H^-1 m (eq. 15), y = K z */
    sym_mul(C, pair->m, ev->z);
    ev->z[0] *= idet;
    ev->z[1] *= idet;
    ev->z[2] *= idet;
    sym_mul(K, ev->z, y);
    ev->A = ev->z[0] * y[0] + ev->z[1] * y[1] + ev->z[2] * y[2];
    ev->B = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
    ev->f = v1 * v1 * ev->A - u * u * ev->B;
    if (want_fprime) {
        /* z' = -H^-1 (K - I) z = -s (eq. 18) */
        double r[3], s[3], ks[3];
        r[0] = y[0] - ev->z[0];
        r[1] = y[1] - ev->z[1];
        r[2] = y[2] - ev->z[2];
        sym_mul(C, r, s);
        s[0] *= idet;
        s[1] *= idet;
        s[2] *= idet;
        sym_mul(K, s, ks);
        /* note the minus in the second bracket: the seed's eq. (11) prints a plus there,
           which central differences refute (docs/math/ellipsoid.md eq. 18) */
        ev->fprime = -2.0 * v1 * (ev->A + v1 * (y[0] * s[0] + y[1] * s[1] + y[2] * s[2]))
                     - 2.0 * u * (ev->B - u * (y[0] * ks[0] + y[1] * ks[1] + y[2] * ks[2]));
    } else {
        ev->fprime = 0.0;
    }
}

/* fixed-point map of eq. (8)-(9): (1 - u) sqrt(A) = u sqrt(B)  <=>  u = g(u), eq. (19) */
static double fixed_point_map(const DstEllipsoidEval *ev)
{
    const double sa = sqrt(ev->A), sb = sqrt(ev->B);
    return sa / (sa + sb);
}

/* stopping rule (13): ||x1 - x2|| <= eps r_min with x1 = (1-u) d1 w on e1 (eq. 8) and
 * x2 = (1-u) d2 w on e2 placed at d2 n (eq. 9); |w| = |diag(r2) z|, eq. (20). */
static int gap_rule_met(const DstEllipsoidPair *pair, const double *r2, double u,
                        const DstEllipsoidEval *ev, double eps)
{
    const double d1 = 1.0 / ((1.0 - u) * sqrt(ev->A));
    const double d2 = 1.0 / (u * sqrt(ev->B));
    const double w = hypot(hypot(r2[0] * ev->z[0], r2[1] * ev->z[1]), r2[2] * ev->z[2]);
    return (1.0 - u) * w * fabs(d1 - d2) <= eps * pair->r_min;
}

static void fail_invalid(DstEllipsoidResult *out, const char *why)
{
    memset(out, 0, sizeof *out);
    out->status = DST_INVALID_INPUT;
    out->error = why;
}

static const char *check_options(const DstEllipsoidOptions *o)
{
    if (o->solver != DST_ELLIPSOID_HYBRID && o->solver != DST_ELLIPSOID_FIXED_POINT &&
        o->solver != DST_ELLIPSOID_STEFFENSEN)
        return "ellipsoid options: unknown solver";
    if (o->stop != DST_ELLIPSOID_STOP_DU && o->stop != DST_ELLIPSOID_STOP_GAP)
        return "ellipsoid options: unknown stopping rule";
    if (!isfinite(o->eps) || !(o->eps > 0.0)) return "ellipsoid options: eps must be finite and > 0";
    if (o->max_iter < 1) return "ellipsoid options: max_iter must be >= 1";
    if (!(o->u0 > 0.0 && o->u0 < 1.0)) return "ellipsoid options: u0 must lie in (0, 1)";
    return NULL;
}

/* Root of f by the chosen solver; returns the iterate and the status, *iters the number
 * of updates. Hybrid: Newton steps (eq. 11) kept inside the bracket [lo, hi] with
 * f(lo) > 0 > f(hi), bisection when Newton leaves it or does not halve the step
 * (Numerical Recipes' safeguarded Newton, ref. [14] of seed 001). f(0) = m^T K m > 0
 * and f(1) = -|m|^2 < 0 (eq. 21), so [0, 1] brackets the root from the start. */
static DstStatus solve_u(const DstEllipsoidPair *pair, const double *r2,
                         const DstEllipsoidOptions *o, double *u_out, int *iters)
{
    const int use_gap = o->stop == DST_ELLIPSOID_STOP_GAP;
    double u = o->u0;
    DstEllipsoidEval ev;

    if (o->solver == DST_ELLIPSOID_HYBRID) {
        double lo = 0.0, hi = 1.0, step_old = 1.0, step = 1.0;
        for (int it = 1; it <= o->max_iter; ++it) {
            double u_new;
            dst_ellipsoid_eval(pair, u, 1, &ev);
            if (use_gap && gap_rule_met(pair, r2, u, &ev, o->eps)) {
                *u_out = u;
                *iters = it - 1;
                return DST_OK;
            }
            /* shrink the bracket; an exact zero is the root */
            if (ev.f > 0.0) {
                lo = u;
            } else if (ev.f < 0.0) {
                hi = u;
            } else {
                *u_out = u;
                *iters = it;
                return DST_OK;
            }
            {
                const double newton = u - ev.f / ev.fprime;
                const int newton_ok = isfinite(newton) && newton >= lo && newton <= hi &&
                                      fabs(2.0 * ev.f) <= fabs(step_old * ev.fprime);
                step_old = step;
                if (newton_ok) {
                    u_new = newton;
                } else {
                    u_new = 0.5 * (lo + hi);
                }
                step = u_new - u;
            }
            if (!use_gap && fabs(u_new - u) <= o->eps) {
                *u_out = u_new;
                *iters = it;
                return DST_OK;
            }
            u = u_new;
        }
        *u_out = u;
        *iters = o->max_iter;
        return DST_ITER_LIMIT;
    }

    for (int it = 1; it <= o->max_iter; ++it) {
        double g1, u_new;
        dst_ellipsoid_eval(pair, u, 0, &ev);
        if (use_gap && gap_rule_met(pair, r2, u, &ev, o->eps)) {
            *u_out = u;
            *iters = it - 1;
            return DST_OK;
        }
        g1 = fixed_point_map(&ev);
        if (o->solver == DST_ELLIPSOID_FIXED_POINT) {
            u_new = g1;
        } else {
            /* Steffensen on F(u) = g(u) - u: u - F^2 / (g(g(u)) - 2 g(u) + u), eq. (22);
               g maps (0, 1) into itself, so an update that leaves it falls back to g(u) */
            double g2, den;
            dst_ellipsoid_eval(pair, g1, 0, &ev);
            g2 = fixed_point_map(&ev);
            den = g2 - 2.0 * g1 + u;
            u_new = den != 0.0 ? u - (g1 - u) * (g1 - u) / den : g1;
            if (!(u_new > 0.0 && u_new < 1.0)) u_new = g1;
        }
        if (!use_gap && fabs(u_new - u) <= o->eps) {
            *u_out = u_new;
            *iters = it;
            return DST_OK;
        }
        u = u_new;
    }
    *u_out = u;
    *iters = o->max_iter;
    return DST_ITER_LIMIT;
}

/* Closest approach along a direction: eq. (6)-(13) through the scaled frame. */
DstStatus dst_ellipsoid_approach_along(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                       const double *dir, const DstEllipsoidOptions *opt,
                                       DstEllipsoidResult *out)
{
    DstEllipsoidOptions defaults;
    DstEllipsoidPair pair;
    DstEllipsoidEval ev;
    const char *why;
    double n[3], len, u, w[3], x[3], g[3], gl;
    int iters;
    DstStatus st;

    if (out == NULL) return DST_INVALID_INPUT;
    if (opt == NULL) {
        defaults = dst_ellipsoid_options_default();
        opt = &defaults;
    }
    if ((why = check_options(opt)) != NULL || (why = dst_ellipsoid_check(e1)) != NULL ||
        (why = dst_ellipsoid_check(e2)) != NULL) {
        fail_invalid(out, why);
        return out->status;
    }
    if (dir == NULL || !isfinite(dir[0]) || !isfinite(dir[1]) || !isfinite(dir[2])) {
        fail_invalid(out, "ellipsoid direction is not finite");
        return out->status;
    }
    /* normalise n; a zero direction has no closest approach */
    len = hypot(hypot(dir[0], dir[1]), dir[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        fail_invalid(out, "ellipsoid direction is zero (coincident centres?)");
        return out->status;
    }
    for (int a = 0; a < 3; ++a) n[a] = dir[a] / len;

    dst_ellipsoid_pair_init(&pair, e1, e2, n);
    st = solve_u(&pair, e2->radii, opt, &u, &iters);

    /* d from eq. (8) at the final u, x = (1 - u) d w (eq. 6) with w = R2 diag(r2) z */
    dst_ellipsoid_eval(&pair, u, 0, &ev);
    memset(out, 0, sizeof *out);
    out->status = st;
    out->u = u;
    out->iterations = iters;
    out->d = 1.0 / ((1.0 - u) * sqrt(ev.A));
    for (int a = 0; a < 3; ++a)
        w[a] = e2->rot[3 * a] * e2->radii[0] * ev.z[0] + e2->rot[3 * a + 1] * e2->radii[1] * ev.z[1] +
               e2->rot[3 * a + 2] * e2->radii[2] * ev.z[2];
    for (int a = 0; a < 3; ++a) {
        x[a] = (1.0 - u) * out->d * w[a];
        out->contact[a] = e1->centre[a] + x[a];
        out->dir[a] = n[a];
    }
    out->gap = (e2->centre[0] - e1->centre[0]) * n[0] + (e2->centre[1] - e1->centre[1]) * n[1] +
               (e2->centre[2] - e1->centre[2]) * n[2] - out->d;
    /* normal: E1 x = R1 diag(r1^-2) R1^T x (eq. 4), normalised */
    for (int b = 0; b < 3; ++b) {
        const double y = (e1->rot[b] * x[0] + e1->rot[3 + b] * x[1] + e1->rot[6 + b] * x[2]) /
                         (e1->radii[b] * e1->radii[b]);
        w[b] = y;
    }
    for (int a = 0; a < 3; ++a) g[a] = e1->rot[3 * a] * w[0] + e1->rot[3 * a + 1] * w[1] + e1->rot[3 * a + 2] * w[2];
    gl = hypot(hypot(g[0], g[1]), g[2]);
    for (int a = 0; a < 3; ++a) out->normal[a] = g[a] / gl;
    if (!isfinite(out->d) || !isfinite(gl) || !(gl > 0.0)) {
        /* cannot happen for valid input; never hand back NaN silently */
        memset(out, 0, sizeof *out);
        out->status = DST_FAILED;
        out->error = "ellipsoid closest approach: numerical breakdown";
    }
    return out->status;
}

/* Closest approach along the inter-centre direction (sec. 2.1). */
DstStatus dst_ellipsoid_closest_approach(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                         const DstEllipsoidOptions *opt,
                                         DstEllipsoidResult *out)
{
    double dir[3];
    if (out == NULL) return DST_INVALID_INPUT;
    if (e1 == NULL || e2 == NULL) {
        fail_invalid(out, "ellipsoid is NULL");
        return out->status;
    }
    for (int a = 0; a < 3; ++a) dir[a] = e2->centre[a] - e1->centre[a];
    return dst_ellipsoid_approach_along(e1, e2, dir, opt, out);
}
