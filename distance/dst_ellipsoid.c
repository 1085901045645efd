/* dst_ellipsoid.c — closest approach of two ellipsoids along a direction: fixed-point,
 * Steffensen and the root-bracketed Newton-bisection hybrid on f(u) (seed 001, eq. 1-13;
 * the scaled-frame, polynomial and support-function forms, eq. 14-32, are derived in
 * docs/math/ellipsoid.md). */
#include "dst_ellipsoid.h"

#include <float.h>
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
    const double *R;
    double c00, c01, c02, c11, c12, c22, dev;
    if (e == NULL) return "ellipsoid is NULL";
    /* a sum is finite only if every term is (inf - inf is NaN) */
    if (!isfinite(e->centre[0] + e->centre[1] + e->centre[2])) return "ellipsoid centre is not finite";
    if (!isfinite(e->radii[0] + e->radii[1] + e->radii[2]) || !(e->radii[0] > 0.0) ||
        !(e->radii[1] > 0.0) || !(e->radii[2] > 0.0))
        return "ellipsoid radii must be finite and > 0";
    R = e->rot;
    if (!isfinite(R[0] + R[1] + R[2] + R[3] + R[4] + R[5] + R[6] + R[7] + R[8]))
        return "ellipsoid rotation is not finite";
    /* R^T R = I entrywise within the tolerance */
    c00 = R[0] * R[0] + R[3] * R[3] + R[6] * R[6];
    c11 = R[1] * R[1] + R[4] * R[4] + R[7] * R[7];
    c22 = R[2] * R[2] + R[5] * R[5] + R[8] * R[8];
    c01 = R[0] * R[1] + R[3] * R[4] + R[6] * R[7];
    c02 = R[0] * R[2] + R[3] * R[5] + R[6] * R[8];
    c12 = R[1] * R[2] + R[4] * R[5] + R[7] * R[8];
    dev = fabs(c00 - 1.0) + fabs(c11 - 1.0) + fabs(c22 - 1.0);
    if (dev > DST_ROTATION_ORTHO_TOL || fabs(c01) > DST_ROTATION_ORTHO_TOL ||
        fabs(c02) > DST_ROTATION_ORTHO_TOL || fabs(c12) > DST_ROTATION_ORTHO_TOL)
        return "ellipsoid rotation is not orthonormal";
    return NULL;
}

/* y = K x for the packed symmetric K. */
static void sym_mul(const double *K, const double *x, double *y)
{
    y[0] = K[0] * x[0] + K[1] * x[1] + K[2] * x[2];
    y[1] = K[1] * x[0] + K[3] * x[1] + K[4] * x[2];
    y[2] = K[2] * x[0] + K[4] * x[1] + K[5] * x[2];
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Polynomial form, eq. (24)-(29). With v = 1 - u and H = v I + u K:
 *   adj H = v^2 I + v u (tr K I - K) + u^2 adj K,
 *   det H = v^3 + v^2 u tr K + v u^2 tr adj K + u^3 det K,
 * so zt = adj(H) m = v^2 a0 + v u a1 + u^2 a2 and K zt = v^2 b0 + v u b1 + u^2 b2 with
 * b2 = K adj(K) m = det(K) m; At, Bt and Ft follow as products of these. */
static void poly_init(DstEllipsoidPair *pair)
{
    const double *K = pair->K, *m = pair->m;
    double adj[6], km[3], k2m[3], b1v[3], trk, tradj, detk;
    adj[0] = K[3] * K[5] - K[4] * K[4];
    adj[1] = K[2] * K[4] - K[1] * K[5];
    adj[2] = K[1] * K[4] - K[2] * K[3];
    adj[3] = K[0] * K[5] - K[2] * K[2];
    adj[4] = K[1] * K[2] - K[0] * K[4];
    adj[5] = K[0] * K[3] - K[1] * K[1];
    trk = K[0] + K[3] + K[5];
    tradj = adj[0] + adj[3] + adj[5];
    detk = K[0] * adj[0] + K[1] * adj[1] + K[2] * adj[2];
    sym_mul(K, m, km);
    sym_mul(K, km, k2m);
    for (int i = 0; i < 3; ++i) {
        pair->a[0][i] = m[i];
        pair->a[1][i] = trk * m[i] - km[i];
        b1v[i] = trk * km[i] - k2m[i];
    }
    sym_mul(adj, m, pair->a[2]);
    pair->dc[0] = 1.0;
    pair->dc[1] = trk;
    pair->dc[2] = tradj;
    pair->dc[3] = detk;
    /* Cauchy products of the coefficient vectors; b2 = det K m turns every product with
       b2 into a product with m. Kept in registers: storing and reloading the
       coefficients would stall on store forwarding. */
    {
        const double *a1 = pair->a[1], *a2 = pair->a[2], *b1 = b1v;
        const double mm = dot3(m, m), mkm = dot3(m, km), mb1 = dot3(m, b1);
        const double a1m = dot3(a1, m), a1km = dot3(a1, km), a1b1 = dot3(a1, b1);
        const double a2m = dot3(a2, m), a2km = dot3(a2, km), a2b1 = dot3(a2, b1);
        const double kmkm = dot3(km, km), kmb1 = dot3(km, b1), b1b1 = dot3(b1, b1);
        const double al0 = mkm, al1 = mb1 + a1km, al2 = detk * mm + a1b1 + a2km;
        const double al3 = detk * a1m + a2b1, al4 = detk * a2m;
        const double be0 = kmkm, be1 = 2.0 * kmb1, be2 = 2.0 * detk * mkm + b1b1;
        const double be3 = 2.0 * detk * mb1, be4 = detk * detk * mm;
        /* Ft = v^2 At - u^2 Bt */
        const double c0 = al0, c1 = al1, c2 = al2 - be0, c3 = al3 - be1, c4 = al4 - be2;
        const double c5 = -be3, c6 = -be4;
        pair->alpha[0] = al0;
        pair->alpha[1] = al1;
        pair->alpha[2] = al2;
        pair->alpha[3] = al3;
        pair->alpha[4] = al4;
        pair->beta[0] = be0;
        pair->beta[1] = be1;
        pair->beta[2] = be2;
        pair->beta[3] = be3;
        pair->beta[4] = be4;
        pair->c[0] = c0;
        pair->c[1] = c1;
        pair->c[2] = c2;
        pair->c[3] = c3;
        pair->c[4] = c4;
        pair->c[5] = c5;
        pair->c[6] = c6;
        /* d/du of sum c_k v^(n-k) u^k with v = 1 - u: the coefficient of v^(n-1-j) u^j
           is (j + 1) c_{j+1} - (n - j) c_j */
        pair->e[0] = c1 - 6.0 * c0;
        pair->e[1] = 2.0 * c2 - 5.0 * c1;
        pair->e[2] = 3.0 * c3 - 4.0 * c2;
        pair->e[3] = 4.0 * c4 - 3.0 * c3;
        pair->e[4] = 5.0 * c5 - 2.0 * c4;
        pair->e[5] = 6.0 * c6 - c5;
        pair->g[0] = trk - 3.0;
        pair->g[1] = 2.0 * tradj - 2.0 * trk;
        pair->g[2] = 3.0 * detk - tradj;
    }
}

/* Scaled frame of e2, eq. (14)-(16): G = diag(r2) R2^T R1 diag(1/r1), K = G G^T,
 * m = diag(1/r2) R2^T n; nu and the rounding scales of eq. (31)-(31b); then the
 * polynomial coefficients of eq. (24)-(29). */
void dst_ellipsoid_pair_init(DstEllipsoidPair *pair, const DstEllipsoid *e1,
                             const DstEllipsoid *e2, const double *n)
{
    const double *R1 = e1->rot, *R2 = e2->rot;
    const double i1[3] = {1.0 / e1->radii[0], 1.0 / e1->radii[1], 1.0 / e1->radii[2]};
    const double i2[3] = {1.0 / e2->radii[0], 1.0 / e2->radii[1], 1.0 / e2->radii[2]};
    double G[3][3];
    /* G[a][b] = r2_a (R2^T R1)_{ab} / r1_b */
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            const double rel = R2[a] * R1[b] + R2[3 + a] * R1[3 + b] + R2[6 + a] * R1[6 + b];
            G[a][b] = e2->radii[a] * rel * i1[b];
        }
    pair->r2_sum = e2->radii[0] + e2->radii[1] + e2->radii[2];
    for (int a = 0; a < 3; ++a) {
        pair->inv_r1[a] = i1[a];
        for (int b = 0; b < 3; ++b) pair->G[3 * a + b] = G[a][b];
        pair->nu[a] = (R1[a] * n[0] + R1[3 + a] * n[1] + R1[6 + a] * n[2]) * i1[a];
    }
    /* K = G G^T, upper triangle */
    pair->K[0] = G[0][0] * G[0][0] + G[0][1] * G[0][1] + G[0][2] * G[0][2];
    pair->K[1] = G[0][0] * G[1][0] + G[0][1] * G[1][1] + G[0][2] * G[1][2];
    pair->K[2] = G[0][0] * G[2][0] + G[0][1] * G[2][1] + G[0][2] * G[2][2];
    pair->K[3] = G[1][0] * G[1][0] + G[1][1] * G[1][1] + G[1][2] * G[1][2];
    pair->K[4] = G[1][0] * G[2][0] + G[1][1] * G[2][1] + G[1][2] * G[2][2];
    pair->K[5] = G[2][0] * G[2][0] + G[2][1] * G[2][1] + G[2][2] * G[2][2];
    for (int a = 0; a < 3; ++a) {
        pair->m[a] = (R2[a] * n[0] + R2[3 + a] * n[1] + R2[6 + a] * n[2]) * i2[a];
        pair->n[a] = n[a];
    }
    {
        /* radii are validated positive and finite: plain comparisons suffice */
        double r = e1->radii[0];
        r = e1->radii[1] < r ? e1->radii[1] : r;
        r = e1->radii[2] < r ? e1->radii[2] : r;
        r = e2->radii[0] < r ? e2->radii[0] : r;
        r = e2->radii[1] < r ? e2->radii[1] : r;
        r = e2->radii[2] < r ? e2->radii[2] : r;
        pair->r_min = r;
    }
    poly_init(pair);
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

/* powers: vp[i] = v^i, up[i] = u^i, i = 0..6 (test path only) */
static void powers(double u, double *vp, double *up)
{
    const double v = 1.0 - u;
    vp[0] = up[0] = 1.0;
    for (int i = 1; i <= 6; ++i) {
        vp[i] = vp[i - 1] * v;
        up[i] = up[i - 1] * u;
    }
}

/* f and f' from the polynomial form, term by term (the reference for the grouped
 * evaluation below): f = Ft / det^2, f' = (Ft' det - 2 Ft det') / det^3. */
void dst_ellipsoid_eval_poly(const DstEllipsoidPair *pair, double u, double *f, double *fprime)
{
    double vp[7], up[7], F = 0.0, dF = 0.0, D = 0.0, dD = 0.0;
    powers(u, vp, up);
    for (int k = 0; k <= 6; ++k) F += pair->c[k] * vp[6 - k] * up[k];
    for (int j = 0; j <= 5; ++j) dF += pair->e[j] * vp[5 - j] * up[j];
    for (int k = 0; k <= 3; ++k) D += pair->dc[k] * vp[3 - k] * up[k];
    for (int j = 0; j <= 2; ++j) dD += pair->g[j] * vp[2 - j] * up[j];
    *f = F / (D * D);
    *fprime = (dF * D - 2.0 * F * dD) / (D * D * D);
}

/* Grouped evaluation of the homogeneous forms (Estrin-like, short dependency chains):
 * with q0 = v^2, q1 = v u, q2 = u^2,
 *   sextic  sum c_k v^(6-k) u^k = v^4 (c0 q0 + c1 q1 + c2 q2) + v u^3 (c3 q0 + c4 q1 + c5 q2) + c6 u^6,
 *   quintic sum e_j v^(5-j) u^j = v^3 (e0 q0 + e1 q1 + e2 q2) + u^3 (e3 q0 + e4 q1 + e5 q2),
 *   quartic sum a_k v^(4-k) u^k = v^2 (a0 q0 + a1 q1 + a2 q2) + u^3 (a3 v + a4 u),
 *   cubic   sum d_k v^(3-k) u^k = v (d0 q0 + d1 q1) + u^2 (d2 v + d3 u). */
typedef struct Monos { double v, u, q0, q1, q2, v3, u3, v4, vu3, u6; } Monos;

static void monos(double u, Monos *m)
{
    m->u = u;
    m->v = 1.0 - u;
    m->q0 = m->v * m->v;
    m->q1 = m->v * u;
    m->q2 = u * u;
    m->v3 = m->q0 * m->v;
    m->u3 = m->q2 * u;
    m->v4 = m->q0 * m->q0;
    m->vu3 = m->q1 * m->q2;
    m->u6 = m->u3 * m->u3;
}

static double quartic(const double *a, const Monos *m)
{
    return m->q0 * (a[0] * m->q0 + a[1] * m->q1 + a[2] * m->q2) + m->u3 * (a[3] * m->v + a[4] * m->u);
}

/* Newton step of the hybrid on f (eq. 10-11) from the polynomial form (eq. 29):
 * -f/f' = -Ft det / (Ft' det - 2 Ft det'), one division. Returns Ft (same sign as f);
 * the step is NaN or infinite when the denominator vanishes, so the caller bisects. */
static double newton_step(const DstEllipsoidPair *pair, double u, double *step)
{
    const double *c = pair->c, *e = pair->e, *dc = pair->dc, *g = pair->g;
    Monos m;
    double F, dF, D, dD;
    monos(u, &m);
    F = m.v4 * (c[0] * m.q0 + c[1] * m.q1 + c[2] * m.q2) + m.vu3 * (c[3] * m.q0 + c[4] * m.q1 + c[5] * m.q2) +
        c[6] * m.u6;
    dF = m.v3 * (e[0] * m.q0 + e[1] * m.q1 + e[2] * m.q2) + m.u3 * (e[3] * m.q0 + e[4] * m.q1 + e[5] * m.q2);
    D = m.v * (dc[0] * m.q0 + dc[1] * m.q1) + m.q2 * (dc[2] * m.v + dc[3] * m.u);
    dD = g[0] * m.q0 + g[1] * m.q1 + g[2] * m.q2;
    *step = -F * D / (dF * D - 2.0 * F * dD);
    return F;
}

/* At and Bt at u (quartics, eq. 27). */
static void quartics(const DstEllipsoidPair *pair, double u, double *At, double *Bt)
{
    Monos m;
    monos(u, &m);
    *At = quartic(pair->alpha, &m);
    *Bt = quartic(pair->beta, &m);
}

/* fixed-point map of eq. (8)-(9): (1 - u) sqrt(A) = u sqrt(B)  <=>  u = g(u) with
 * g = sqrt(A) / (sqrt(A) + sqrt(B)) = sqrt(At) / (sqrt(At) + sqrt(Bt)), eq. (19)
 * (the common factor 1/det^2 cancels). */
static double fixed_point_map(const DstEllipsoidPair *pair, double u)
{
    double At, Bt, sa, sb;
    quartics(pair, u, &At, &Bt);
    sa = sqrt(At);
    sb = sqrt(Bt);
    return sa / (sa + sb);
}

/* zt(u) = adj(H) m (eq. 25) */
static void ztilde(const DstEllipsoidPair *pair, double u, double *z)
{
    const double v = 1.0 - u, q0 = v * v, q1 = v * u, q2 = u * u;
    for (int i = 0; i < 3; ++i) z[i] = q0 * pair->a[0][i] + q1 * pair->a[1][i] + q2 * pair->a[2][i];
}

/* stopping rule (13): ||x1 - x2|| <= eps r_min with x1 = (1-u) d1 w on e1 (eq. 8) and
 * x2 = (1-u) d2 w on e2 placed at d2 n (eq. 9). With w = R2 diag(r2) zt / det,
 * d1 = det / (v sqrt At), d2 = det / (u sqrt Bt):
 *   ||x1 - x2|| = |diag(r2) zt| |1/sqrt(At) - v / (u sqrt(Bt))|, eq. (20). */
static int gap_rule_met(const DstEllipsoidPair *pair, const double *r2, double u, double eps)
{
    double z[3], At, Bt, w0, w1, w2;
    ztilde(pair, u, z);
    quartics(pair, u, &At, &Bt);
    w0 = r2[0] * z[0];
    w1 = r2[1] * z[1];
    w2 = r2[2] * z[2];
    return sqrt(w0 * w0 + w1 * w1 + w2 * w2) * fabs(1.0 / sqrt(At) - (1.0 - u) / (u * sqrt(Bt))) <=
           eps * pair->r_min;
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

/* Root of f by the chosen solver; returns the final iterate and the status, *iters the
 * number of updates and *evals the number of evaluations. Hybrid: Newton steps
 * (eq. 11) kept inside the bracket [lo, hi] with f(lo) > 0 > f(hi), bisection when
 * Newton leaves it or does not halve the step before last (the safeguarded Newton of
 * Numerical Recipes, ref. [14] of seed 001). f(0) = m^T K m > 0 and f(1) = -|m|^2 < 0
 * (eq. 21), so [0, 1] brackets the root from the start. */
static DstStatus solve_u(const DstEllipsoidPair *pair, const double *r2,
                         const DstEllipsoidOptions *o, double *u_out, int *iters, int *evals)
{
    const int use_gap = o->stop == DST_ELLIPSOID_STOP_GAP;
    double u = o->u0;
    int n_eval = 0;

    if (o->solver == DST_ELLIPSOID_HYBRID) {
        double lo = 0.0, hi = 1.0, step_old = 1.0, step = 1.0;
        for (int it = 1; it <= o->max_iter; ++it) {
            double u_new, f, newton_dx;
            if (use_gap && gap_rule_met(pair, r2, u, o->eps)) {
                *u_out = u;
                *iters = it - 1;
                *evals = n_eval;
                return DST_OK;
            }
            f = newton_step(pair, u, &newton_dx);
            ++n_eval;
            /* an exact zero is the root */
            if (f == 0.0) {
                *u_out = u;
                *iters = it;
                *evals = n_eval;
                return DST_OK;
            }
            /* shrink the bracket (selects rather than branches: the sign of f is random) */
            lo = f > 0.0 ? u : lo;
            hi = f < 0.0 ? u : hi;
            {
                /* Newton if it stays in the bracket and at least halves the step before
                   last; bisection otherwise (NaN fails every comparison) */
                const double newton = u + newton_dx;
                const int newton_ok = newton >= lo && newton <= hi &&
                                      fabs(2.0 * newton_dx) <= fabs(step_old);
                step_old = step;
                u_new = newton_ok ? newton : 0.5 * (lo + hi);
                step = u_new - u;
            }
            if (!use_gap && fabs(u_new - u) <= o->eps) {
                *u_out = u_new;
                *iters = it;
                *evals = n_eval;
                return DST_OK;
            }
            u = u_new;
        }
        *u_out = u;
        *iters = o->max_iter;
        *evals = n_eval;
        return DST_ITER_LIMIT;
    }

    for (int it = 1; it <= o->max_iter; ++it) {
        double g1, u_new;
        if (use_gap && gap_rule_met(pair, r2, u, o->eps)) {
            *u_out = u;
            *iters = it - 1;
            *evals = n_eval;
            return DST_OK;
        }
        g1 = fixed_point_map(pair, u);
        ++n_eval;
        if (o->solver == DST_ELLIPSOID_FIXED_POINT) {
            u_new = g1;
        } else {
            /* Steffensen on F(u) = g(u) - u: u - F^2 / (g(g(u)) - 2 g(u) + u), eq. (22);
               g maps (0, 1) into itself, so an update that leaves it falls back to g(u) */
            const double g2 = fixed_point_map(pair, g1);
            const double den = g2 - 2.0 * g1 + u;
            ++n_eval;
            u_new = den != 0.0 ? u - (g1 - u) * (g1 - u) / den : g1;
            if (!(u_new > 0.0 && u_new < 1.0)) u_new = g1;
        }
        if (!use_gap && fabs(u_new - u) <= o->eps) {
            *u_out = u_new;
            *iters = it;
            *evals = n_eval;
            return DST_OK;
        }
        u = u_new;
    }
    *u_out = u;
    *iters = o->max_iter;
    *evals = n_eval;
    return DST_ITER_LIMIT;
}

/* Support-function evaluation along a world direction v (eq. 31-32). */
typedef struct SupportEval {
    double v[3];        /* the direction (world, not normalised) */
    double d;           /* (h1 + h2) / (v . n) rounded upwards (eq. 31b), NaN if v . n <= 0 */
    double h1, h2, den; /* h_i(v) = |diag(r_i) R_i^T v|, den = v . n */
    double s1[3], s2[3];/* support points of e1 and e2 along v, relative to the centres */
    double residual;    /* |s1 + s2 - (h1 + h2) / den n|: contact points' mismatch, metres */
} SupportEval;

/* h_i, support points and the upper bound on d for a direction v. Rounding: every term
 * is a short sum of products of numbers bounded by r_i |v|_1 (rotation entries are at
 * most 1 in magnitude), so ulp * sum(r_i) * |v|_1 bounds its error (eq. 31b). */
static void support_eval(const DstEllipsoid *e1, const DstEllipsoid *e2, const double *n,
                         const double *v, SupportEval *se)
{
    const double ulp = DST_ELLIPSOID_ROUND_ULPS * DBL_EPSILON;
    const double *R1 = e1->rot, *R2 = e2->rot, *r1 = e1->radii, *r2 = e2->radii;
    double a1[3], a2[3], v1, dd;
    for (int b = 0; b < 3; ++b) {
        a1[b] = r1[b] * (R1[b] * v[0] + R1[3 + b] * v[1] + R1[6 + b] * v[2]);
        a2[b] = r2[b] * (R2[b] * v[0] + R2[3 + b] * v[1] + R2[6 + b] * v[2]);
        se->v[b] = v[b];
    }
    se->h1 = sqrt(dot3(a1, a1));
    se->h2 = sqrt(dot3(a2, a2));
    se->den = dot3(v, n);
    v1 = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
    {
        const double e_h1 = ulp * (r1[0] + r1[1] + r1[2]) * v1;
        const double e_h2 = ulp * (r2[0] + r2[1] + r2[2]) * v1;
        const double e_den = ulp * v1;
        se->d = se->den > e_den ? (se->h1 + e_h1 + se->h2 + e_h2) / (se->den - e_den) * (1.0 + ulp) : NAN;
    }
    /* support points s_i = R_i diag(r_i) a_i / h_i (eq. 32) */
    for (int b = 0; b < 3; ++b) {
        a1[b] *= r1[b] / se->h1;
        a2[b] *= r2[b] / se->h2;
    }
    for (int a = 0; a < 3; ++a) {
        se->s1[a] = R1[3 * a] * a1[0] + R1[3 * a + 1] * a1[1] + R1[3 * a + 2] * a1[2];
        se->s2[a] = R2[3 * a] * a2[0] + R2[3 * a + 1] * a2[1] + R2[3 * a + 2] * a2[2];
    }
    dd = (se->h1 + se->h2) / se->den;
    {
        double m[3];
        for (int a = 0; a < 3; ++a) m[a] = se->s1[a] + se->s2[a] - dd * n[a];
        se->residual = sqrt(dot3(m, m));
    }
}

/* One Newton step on psi(w) = h1(w) + h2(w) over the plane w . n = 1 (eq. 33): psi is
 * convex, its minimum is d and its gradient s1 + s2; the Hessian of h_i is
 * (E_i^-1 - s_i s_i^T) / h_i(w). Writes the new direction into v; returns 0 if the 2x2
 * tangent system is singular. */
static int support_newton(const DstEllipsoid *e1, const DstEllipsoid *e2, const double *n,
                          const SupportEval *se, double *v)
{
    const DstEllipsoid *E[2] = {e1, e2};
    const double *S[2] = {se->s1, se->s2};
    const double h[2] = {se->h1 / se->den, se->h2 / se->den};
    double t[2][3], A[2][2] = {{0, 0}, {0, 0}}, g[2], det, step[2];
    /* tangent basis of the plane normal to n */
    {
        const int ax = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2) : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
        double e[3] = {0.0, 0.0, 0.0}, l;
        e[ax] = 1.0;
        t[0][0] = n[1] * e[2] - n[2] * e[1];
        t[0][1] = n[2] * e[0] - n[0] * e[2];
        t[0][2] = n[0] * e[1] - n[1] * e[0];
        l = sqrt(dot3(t[0], t[0]));
        for (int a = 0; a < 3; ++a) t[0][a] /= l;
        t[1][0] = n[1] * t[0][2] - n[2] * t[0][1];
        t[1][1] = n[2] * t[0][0] - n[0] * t[0][2];
        t[1][2] = n[0] * t[0][1] - n[1] * t[0][0];
    }
    for (int j = 0; j < 2; ++j) g[j] = dot3(t[j], se->s1) + dot3(t[j], se->s2);
    for (int i = 0; i < 2; ++i) {
        /* t_j^T E^-1 t_k = (diag(r) R^T t_j) . (diag(r) R^T t_k) */
        double w[2][3], ts[2];
        for (int j = 0; j < 2; ++j) {
            for (int b = 0; b < 3; ++b)
                w[j][b] = E[i]->radii[b] *
                          (E[i]->rot[b] * t[j][0] + E[i]->rot[3 + b] * t[j][1] + E[i]->rot[6 + b] * t[j][2]);
            ts[j] = dot3(t[j], S[i]);
        }
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 2; ++k) A[j][k] += (dot3(w[j], w[k]) - ts[j] * ts[k]) / h[i];
    }
    det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
    if (!(det > 0.0) || !isfinite(det)) return 0;
    step[0] = -(A[1][1] * g[0] - A[0][1] * g[1]) / det;
    step[1] = -(A[0][0] * g[1] - A[1][0] * g[0]) / det;
    for (int a = 0; a < 3; ++a) v[a] = se->v[a] / se->den + step[0] * t[0][a] + step[1] * t[1][a];
    return 1;
}

/* Closest approach along a direction: eq. (6)-(13) through the scaled frame. */
DstStatus dst_ellipsoid_approach_along(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                       const double *dir, const DstEllipsoidOptions *opt,
                                       DstEllipsoidResult *out)
{
    DstEllipsoidOptions defaults;
    DstEllipsoidPair pair;
    const char *why;
    double n[3], len, u, gl;
    int iters, evals;
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
    len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        fail_invalid(out, "ellipsoid direction is zero (coincident centres?)");
        return out->status;
    }
    {
        const double il = 1.0 / len;
        for (int a = 0; a < 3; ++a) n[a] = dir[a] * il;
    }

    dst_ellipsoid_pair_init(&pair, e1, e2, n);
    st = solve_u(&pair, e2->radii, opt, &u, &iters, &evals);

    /* outputs from the final u through the support functions, eq. (30)-(33): the contact
       direction w ~ R2 diag(r2) zt (eq. 6-7) gives e1's outward normal
       N ~ E1 w = R1 diag(1/r1) q with q = G^T zt (eq. 30); d = (h1(N) + h2(N)) / (N . n)
       (eq. 31) equals eq. (8) at the exact root, is never below the true d for any N
       (gap is conservative) and errs only quadratically in the error of N; when the
       contact points of the two ellipsoids still differ, Newton steps on the support
       function refine N (eq. 33). */
    {
        double zt[3], q[3], v[3], nl, d_best;
        SupportEval se;
        ztilde(&pair, u, zt);
        for (int b = 0; b < 3; ++b) q[b] = pair.G[b] * zt[0] + pair.G[3 + b] * zt[1] + pair.G[6 + b] * zt[2];
        for (int b = 0; b < 3; ++b) q[b] *= pair.inv_r1[b];
        for (int a = 0; a < 3; ++a)
            v[a] = e1->rot[3 * a] * q[0] + e1->rot[3 * a + 1] * q[1] + e1->rot[3 * a + 2] * q[2];
        support_eval(e1, e2, n, v, &se);
        d_best = se.d;
        for (int k = 0; k < DST_ELLIPSOID_REFINE_STEPS && se.residual > DST_ELLIPSOID_REFINE_TOL * pair.r_min; ++k) {
            SupportEval trial;
            if (!support_newton(e1, e2, n, &se, v)) break;
            support_eval(e1, e2, n, v, &trial);
            /* every direction gives an upper bound: keep the least d, and move the contact
               while the mismatch of the contact points shrinks */
            if (!(trial.residual < se.residual) || !isfinite(trial.d)) break;
            se = trial;
            if (se.d < d_best) d_best = se.d;
        }
        memset(out, 0, sizeof *out);
        out->status = st;
        out->u = u;
        out->iterations = iters;
        out->evaluations = evals;
        out->d = d_best;
        out->residual = se.residual;
        nl = sqrt(dot3(se.v, se.v));
        for (int a = 0; a < 3; ++a) {
            out->contact[a] = e1->centre[a] + se.s1[a];
            out->normal[a] = se.v[a] / nl;
            out->dir[a] = n[a];
        }
        gl = nl;
    }
    out->gap = (e2->centre[0] - e1->centre[0]) * n[0] + (e2->centre[1] - e1->centre[1]) * n[1] +
               (e2->centre[2] - e1->centre[2]) * n[2] - out->d;
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
