/* dst_ellipsoid.c — closest approach of two ellipsoids along a direction: fixed-point,
 * Steffensen and the root-bracketed Newton-bisection hybrid on f(u) (seed 001, eq. 1-13;
 * the scaled-frame, polynomial and support-function forms, eq. 14-33, are derived in
 * docs/math/ellipsoid.md).
 *
 * One query: validate the options, both poses and the direction (one combined test each;
 * the message is looked up only on failure); set up the scaled frame of e2 and the
 * polynomial coefficients (eq. 14-29); solve for u from the radial start (eq. 34, the
 * default; the root for any two spheres) or the caller's u0 (the paper's 0.5, sec. 2.3);
 * evaluate d, the contact and the normal through the support functions in the world frame
 * (eq. 30-33). The default solver (the hybrid with rule 12) validates the poses and the
 * direction after its set-up and forms the normal matrix of eq. (30) after its first
 * evaluation of f: that work does not depend on u and runs in the shadow of the dependency
 * chains of the set-up and the iterations (nothing is returned before the validation;
 * docs/perf/ellipsoid.md, sessions 13 and 25). The radial start depends on neither and is
 * ready before the set-up's coefficients. Shapes (radii and
 * their inverses) are prepared once (DstEllipsoidShape); the DstEllipsoid entry points
 * prepare them per call and share the same core. */
#include "dst_ellipsoid.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "dst_ellipsoid_internal.h"

/* a * b + c. Where the target has fused multiply-add (GCC and Clang define __FMA__), one
 * instruction and one rounding; elsewhere the plain expression (ISO C mode does not
 * contract on its own), so results differ in the last bits between such builds. Either
 * form satisfies the rounding bounds of eq. (31b). */
#ifdef __FMA__
#define MADD(a, b, c) fma((a), (b), (c))
#else
#define MADD(a, b, c) ((a) * (b) + (c))
#endif
/* a0 b0 + a1 b1 + a2 b2 */
#define DOT3(a0, a1, a2, b0, b1, b2) MADD((a2), (b2), MADD((a1), (b1), (a0) * (b0)))
/* a0 b0 - a1 b1 */
#define MSUB2(a0, b0, a1, b1) MADD((a0), (b0), -((a1) * (b1)))

static const DstEllipsoidOptions default_options = {
    DST_ELLIPSOID_HYBRID, DST_ELLIPSOID_STOP_DU, DST_ELLIPSOID_DEFAULT_EPS, DST_ELLIPSOID_DEFAULT_MAX_ITER,
    DST_ELLIPSOID_DEFAULT_U0};

DstEllipsoidOptions dst_ellipsoid_options_default(void)
{
    return default_options;
}

/* Pose validity as eq. (1) needs it (E = R diag(r^-2) R^T with R orthonormal): R^T R = I
 * entrywise within DST_ROTATION_ORTHO_TOL (the three diagonal deviations summed) and a
 * finite centre. One branch-free test: every entry of R enters one diagonal entry of
 * R^T R squared, so a NaN or an infinity there fails the diagonal comparison. */
static inline int pose_ok(const double *c, const double *R)
{
    const double c00 = DOT3(R[0], R[3], R[6], R[0], R[3], R[6]);
    const double c11 = DOT3(R[1], R[4], R[7], R[1], R[4], R[7]);
    const double c22 = DOT3(R[2], R[5], R[8], R[2], R[5], R[8]);
    const double c01 = DOT3(R[0], R[3], R[6], R[1], R[4], R[7]);
    const double c02 = DOT3(R[0], R[3], R[6], R[2], R[5], R[8]);
    const double c12 = DOT3(R[1], R[4], R[7], R[2], R[5], R[8]);
    const double dev = fabs(c00 - 1.0) + fabs(c11 - 1.0) + fabs(c22 - 1.0);
    return isfinite(c[0] + c[1] + c[2]) & (dev <= DST_ROTATION_ORTHO_TOL) & (fabs(c01) <= DST_ROTATION_ORTHO_TOL) &
           (fabs(c02) <= DST_ROTATION_ORTHO_TOL) & (fabs(c12) <= DST_ROTATION_ORTHO_TOL);
}

/* The message for a pose that failed pose_ok (checked in the order of the old check). */
static const char *pose_message(const double *c, const double *R)
{
    /* a sum is finite only if every term is (inf - inf is NaN) */
    if (!isfinite(c[0] + c[1] + c[2])) return "ellipsoid centre is not finite";
    if (!isfinite(R[0] + R[1] + R[2] + R[3] + R[4] + R[5] + R[6] + R[7] + R[8]))
        return "ellipsoid rotation is not finite";
    return "ellipsoid rotation is not orthonormal";
}

static inline int radii_ok(const double *r)
{
    return isfinite(r[0] + r[1] + r[2]) & (r[0] > 0.0) & (r[1] > 0.0) & (r[2] > 0.0);
}

/* Validity of an ellipsoid as eq. (1) needs it: E = R diag(r^-2) R^T with R orthonormal. */
const char *dst_ellipsoid_check(const DstEllipsoid *e)
{
    if (e == NULL) return "ellipsoid is NULL";
    if (!isfinite(e->centre[0] + e->centre[1] + e->centre[2])) return "ellipsoid centre is not finite";
    if (!radii_ok(e->radii)) return "ellipsoid radii must be finite and > 0";
    if (!pose_ok(e->centre, e->rot)) return pose_message(e->centre, e->rot);
    return NULL;
}

/* The shape data of eq. (14) and (31b) that depend on the radii only; 1 if valid (radii
 * finite and > 0, and 1/r finite: a subnormal radius would overflow the scaled frame),
 * else 0 with *shape zeroed. */
static inline int shape_fill(DstEllipsoidShape *restrict shape, const double *restrict radii)
{
    const double r0 = radii[0], r1 = radii[1], r2 = radii[2];
    double i0, i1, i2;
    if (!radii_ok(radii)) {
        memset(shape, 0, sizeof *shape);
        return 0;
    }
    i0 = 1.0 / r0;
    i1 = 1.0 / r1;
    i2 = 1.0 / r2;
    if (!isfinite(i0 + i1 + i2)) {
        memset(shape, 0, sizeof *shape);
        return 0;
    }
    shape->radii[0] = r0;
    shape->radii[1] = r1;
    shape->radii[2] = r2;
    shape->inv_radii[0] = i0;
    shape->inv_radii[1] = i1;
    shape->inv_radii[2] = i2;
    shape->radii_sum = r0 + r1 + r2;
    shape->r_min = r2 < (r0 < r1 ? r0 : r1) ? r2 : (r0 < r1 ? r0 : r1);
    return 1;
}

const char *dst_ellipsoid_shape_prepare(DstEllipsoidShape *shape, const double *radii)
{
    if (shape == NULL) return "ellipsoid shape is NULL";
    if (radii == NULL) {
        memset(shape, 0, sizeof *shape);
        return "ellipsoid radii must be finite and > 0";
    }
    if (!shape_fill(shape, radii))
        return radii_ok(radii) ? "ellipsoid radii too small (1/r overflows)" : "ellipsoid radii must be finite and > 0";
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

/* Polynomial form, eq. (24)-(29), of the pair in the scaled frame of e2 (eq. 14-16).
 * With v = 1 - u and H = v I + u K:
 *   adj H = v^2 I + v u (tr K I - K) + u^2 adj K,
 *   det H = v^3 + v^2 u tr K + v u^2 tr adj K + u^3 det K,
 * so zt = adj(H) m = v^2 a0 + v u a1 + u^2 a2 and K zt = v^2 b0 + v u b1 + u^2 b2 with
 * a0 = m, a1 = tr K m - K m, a2 = adj(K) m, b0 = K m, b1 = tr K K m - K^2 m and
 * b2 = K adj(K) m = det(K) m; At and Bt are Cauchy products of these (eq. 27). Exact
 * identities shorten them (eq. 27b): a0.b1 = a1.b0 = tr K m.Km - |Km|^2,
 * a1.a0 = tr K |m|^2 - m.Km, b0.b1 = tr K |Km|^2 - Km.K^2m, a2.b0 = det K |m|^2 and
 * a2.b1 = det K a1.a0 (adj(K) K = det K I). Everything is computed in locals and stored
 * once (the pair must not alias the inputs); K, m, r_min, alpha and beta only when full
 * (the hybrid with rule (12) and the outputs need the rest). */
static void pair_setup(DstEllipsoidPair *restrict pair, const DstEllipsoidShape *restrict s1,
                       const double *restrict R1, const DstEllipsoidShape *restrict s2,
                       const double *restrict R2, const double *restrict n, int full)
{
    const double *r2 = s2->radii, *i1 = s1->inv_radii, *i2 = s2->inv_radii;
    double *const G = pair->G;
    double K0, K1, K2, K3, K4, K5, m0, m1, m2;
    /* G[a][b] = r2_a (R2^T R1)_{ab} / r1_b (eq. 14) */
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            const double rel = DOT3(R2[a], R2[3 + a], R2[6 + a], R1[b], R1[3 + b], R1[6 + b]);
            G[3 * a + b] = r2[a] * rel * i1[b];
        }
    /* K = G G^T (upper triangle), m = diag(1/r2) R2^T n */
    K0 = DOT3(G[0], G[1], G[2], G[0], G[1], G[2]);
    K1 = DOT3(G[0], G[1], G[2], G[3], G[4], G[5]);
    K2 = DOT3(G[0], G[1], G[2], G[6], G[7], G[8]);
    K3 = DOT3(G[3], G[4], G[5], G[3], G[4], G[5]);
    K4 = DOT3(G[3], G[4], G[5], G[6], G[7], G[8]);
    K5 = DOT3(G[6], G[7], G[8], G[6], G[7], G[8]);
    m0 = DOT3(R2[0], R2[3], R2[6], n[0], n[1], n[2]) * i2[0];
    m1 = DOT3(R2[1], R2[4], R2[7], n[0], n[1], n[2]) * i2[1];
    m2 = DOT3(R2[2], R2[5], R2[8], n[0], n[1], n[2]) * i2[2];
    {
        /* adj K, its trace, det K, K m, K^2 m, a1, b1, a2 */
        const double j0 = MSUB2(K3, K5, K4, K4), j1 = MSUB2(K2, K4, K1, K5), j2 = MSUB2(K1, K4, K2, K3);
        const double j3 = MSUB2(K0, K5, K2, K2), j4 = MSUB2(K1, K2, K0, K4), j5 = MSUB2(K0, K3, K1, K1);
        const double trk = K0 + K3 + K5, tradj = j0 + j3 + j5, detk = DOT3(K0, K1, K2, j0, j1, j2);
        const double k0 = DOT3(K0, K1, K2, m0, m1, m2), k1 = DOT3(K1, K3, K4, m0, m1, m2);
        const double k2 = DOT3(K2, K4, K5, m0, m1, m2);
        const double l0 = DOT3(K0, K1, K2, k0, k1, k2), l1 = DOT3(K1, K3, K4, k0, k1, k2);
        const double l2 = DOT3(K2, K4, K5, k0, k1, k2);
        const double a10 = MADD(trk, m0, -k0), a11 = MADD(trk, m1, -k1), a12 = MADD(trk, m2, -k2);
        const double b10 = MADD(trk, k0, -l0), b11 = MADD(trk, k1, -l1), b12 = MADD(trk, k2, -l2);
        const double a20 = DOT3(j0, j1, j2, m0, m1, m2), a21 = DOT3(j1, j3, j4, m0, m1, m2);
        const double a22 = DOT3(j2, j4, j5, m0, m1, m2);
        /* the dot products of eq. (27) and (27b) */
        const double mm = DOT3(m0, m1, m2, m0, m1, m2), mkm = DOT3(m0, m1, m2, k0, k1, k2);
        const double kmkm = DOT3(k0, k1, k2, k0, k1, k2), kmk2m = DOT3(k0, k1, k2, l0, l1, l2);
        const double a1b1 = DOT3(a10, a11, a12, b10, b11, b12), b1b1 = DOT3(b10, b11, b12, b10, b11, b12);
        const double a2m = DOT3(a20, a21, a22, m0, m1, m2);
        const double a1m = MADD(trk, mm, -mkm), mb1 = MADD(trk, mkm, -kmkm), kmb1 = MADD(trk, kmkm, -kmk2m);
        const double dmm = detk * mm;
        const double al0 = mkm, al1 = 2.0 * mb1, al2 = MADD(2.0, dmm, a1b1);
        const double al3 = 2.0 * detk * a1m, al4 = detk * a2m;
        const double be0 = kmkm, be1 = 2.0 * kmb1, be2 = MADD(2.0 * detk, mkm, b1b1);
        const double be3 = 2.0 * detk * mb1, be4 = detk * dmm;
        /* Ft = v^2 At - u^2 Bt */
        const double c0 = al0, c1 = al1, c2 = al2 - be0, c3 = al3 - be1, c4 = al4 - be2;
        const double c5 = -be3, c6 = -be4;
        if (full) {
            pair->K[0] = K0;
            pair->K[1] = K1;
            pair->K[2] = K2;
            pair->K[3] = K3;
            pair->K[4] = K4;
            pair->K[5] = K5;
            pair->m[0] = m0;
            pair->m[1] = m1;
            pair->m[2] = m2;
            pair->r_min = s1->r_min < s2->r_min ? s1->r_min : s2->r_min;
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
        }
        pair->a[0][0] = m0;
        pair->a[0][1] = m1;
        pair->a[0][2] = m2;
        pair->a[1][0] = a10;
        pair->a[1][1] = a11;
        pair->a[1][2] = a12;
        pair->a[2][0] = a20;
        pair->a[2][1] = a21;
        pair->a[2][2] = a22;
        pair->dc[0] = 1.0;
        pair->dc[1] = trk;
        pair->dc[2] = tradj;
        pair->dc[3] = detk;
        pair->c[0] = c0;
        pair->c[1] = c1;
        pair->c[2] = c2;
        pair->c[3] = c3;
        pair->c[4] = c4;
        pair->c[5] = c5;
        pair->c[6] = c6;
        /* d/du of sum c_k v^(n-k) u^k with v = 1 - u: the coefficient of v^(n-1-j) u^j
           is (j + 1) c_{j+1} - (n - j) c_j */
        pair->e[0] = MADD(-6.0, c0, c1);
        pair->e[1] = MADD(2.0, c2, -5.0 * c1);
        pair->e[2] = MADD(3.0, c3, -4.0 * c2);
        pair->e[3] = MADD(4.0, c4, -3.0 * c3);
        pair->e[4] = MADD(5.0, c5, -2.0 * c4);
        pair->e[5] = MADD(6.0, c6, -c5);
        pair->g[0] = trk - 3.0;
        pair->g[1] = 2.0 * tradj - 2.0 * trk;
        pair->g[2] = 3.0 * detk - tradj;
    }
}

void dst_ellipsoid_pair_init(DstEllipsoidPair *pair, const DstEllipsoid *e1,
                             const DstEllipsoid *e2, const double *n)
{
    DstEllipsoidShape s1, s2;
    shape_fill(&s1, e1->radii);
    shape_fill(&s2, e2->radii);
    pair_setup(pair, &s1, e1->rot, &s2, e2->rot, n, 1);
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
static inline double newton_step(const DstEllipsoidPair *pair, double u, double *step)
{
    const double *c = pair->c, *e = pair->e, *dc = pair->dc, *g = pair->g;
    Monos m;
    double F, dF, D, dD;
    monos(u, &m);
    F = m.v4 * (c[0] * m.q0 + c[1] * m.q1 + c[2] * m.q2) + m.vu3 * (c[3] * m.q0 + c[4] * m.q1 + c[5] * m.q2) +
        c[6] * m.u6;
    dF = m.v3 * (e[0] * m.q0 + e[1] * m.q1 + e[2] * m.q2) + m.u3 * (e[3] * m.q0 + e[4] * m.q1 + e[5] * m.q2);
    D = m.v * (m.q0 + dc[1] * m.q1) + m.q2 * (dc[2] * m.v + dc[3] * m.u); /* dc[0] = 1 */
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
    if (!(o->u0 == DST_ELLIPSOID_U0_AUTO || (o->u0 > 0.0 && o->u0 < 1.0)))
        return "ellipsoid options: u0 must lie in (0, 1) or be DST_ELLIPSOID_U0_AUTO (0)";
    return NULL;
}

/* One update of the hybrid, eq. (23): shrink the bracket [lo, hi] (f(lo) > 0 > f(hi)) with
 * the sign of f at u, then take the Newton point u + dx if it stays in the bracket and at
 * least halves the step before last, else bisect (the safeguarded Newton of Numerical
 * Recipes, ref. [14] of seed 001; NaN fails every comparison and bisects). */
static inline double hybrid_update(double f, double dx, double u, double *lo, double *hi, double *step_old,
                            double *step)
{
    double u_new;
    /* selects rather than branches: the sign of f is random */
    *lo = f > 0.0 ? u : *lo;
    *hi = f < 0.0 ? u : *hi;
    {
        const double newton = u + dx;
        const int newton_ok = (newton >= *lo) & (newton <= *hi) & (fabs(2.0 * dx) <= fabs(*step_old));
        *step_old = *step;
        u_new = newton_ok ? newton : 0.5 * (*lo + *hi);
        *step = u_new - u;
    }
    return u_new;
}

/* The coefficients of eq. (29) that one hybrid iteration reads, held in locals. */
typedef struct HybridCoef {
    double c0, c1, c2, c3, c4, c5, c6, e0, e1, e2, e3, e4, e5, d1, d2, d3, g0, g1, g2;
} HybridCoef;

static inline void hybrid_coef(const DstEllipsoidPair *pair, HybridCoef *k)
{
    const HybridCoef kk = {pair->c[0], pair->c[1], pair->c[2], pair->c[3], pair->c[4], pair->c[5], pair->c[6],
                           pair->e[0], pair->e[1], pair->e[2], pair->e[3], pair->e[4], pair->e[5],
                           pair->dc[1], pair->dc[2], pair->dc[3],
                           2.0 * pair->g[0], 2.0 * pair->g[1], 2.0 * pair->g[2]};  /* 2 det' (exact) */
    *k = kk;
}

/* F (same sign as f) and the Newton step -f/f' = -F D / (F' D - 2 F D') at u, eq. (29),
 * in the grouped (Estrin-like) form of newton_step with fused multiply-adds (measured
 * faster here than separate products and sums; the iterates can differ from
 * newton_step's in the last bits). */
static inline double hybrid_eval(const HybridCoef *k, double u, double *dx)
{
    const double v = 1.0 - u, q0 = v * v, q1 = v * u, q2 = u * u;
    const double v3 = q0 * v, u3 = q2 * u, v4 = q0 * q0, vu3 = q1 * q2, u6 = u3 * u3;
    const double A = MADD(k->c2, q2, MADD(k->c1, q1, k->c0 * q0)), B = MADD(k->c5, q2, MADD(k->c4, q1, k->c3 * q0));
    const double F = MADD(v4, A, MADD(vu3, B, k->c6 * u6));
    const double E0 = MADD(k->e2, q2, MADD(k->e1, q1, k->e0 * q0));
    const double E1 = MADD(k->e5, q2, MADD(k->e4, q1, k->e3 * q0));
    const double dF = MADD(v3, E0, u3 * E1);
    const double D = MADD(v, MADD(k->d1, q1, q0), q2 * MADD(k->d2, v, k->d3 * u));
    const double dD2 = MADD(k->g2, q2, MADD(k->g1, q1, k->g0 * q0));
    *dx = F * D / MADD(F, dD2, -(dF * D));
    return F;
}

/* The hybrid with stopping rule (12), the default: Newton (eq. 10-11, 29) and bisection
 * (eq. 23, hybrid_update) from u inside [0, 1], which brackets the root (eq. 21), given
 * the first evaluation F = hybrid_eval(k, u, &dx); returns the status, the final iterate
 * in *u_out and the number of updates (= evaluations) in *iters. */
static inline DstStatus hybrid_loop(const HybridCoef *k, double u, double F, double dx, double eps, int max_iter,
                                    double *u_out, int *iters)
{
    double lo = 0.0, hi = 1.0, step_old = 1.0, step = 1.0;
    for (int it = 1;; ++it) {
        double u_new;
        /* an exact zero is the root */
        if (F == 0.0) {
            *u_out = u;
            *iters = it;
            return DST_OK;
        }
        u_new = hybrid_update(F, dx, u, &lo, &hi, &step_old, &step);
        if (fabs(step) <= eps) {
            *u_out = u_new;
            *iters = it;
            return DST_OK;
        }
        u = u_new;
        if (it >= max_iter) {
            *u_out = u;
            *iters = max_iter;
            return DST_ITER_LIMIT;
        }
        F = hybrid_eval(k, u, &dx);
    }
}

/* Root of f by the chosen solver and stopping rule from the start u0 (sec. 2.3, eq. 34);
 * returns the final iterate and the status, *iters the number of updates and *evals the
 * number of evaluations. The hybrid is that of hybrid_loop with rule (13) checked before
 * each evaluation. */
static DstStatus solve_u(const DstEllipsoidPair *pair, const double *r2, const DstEllipsoidOptions *o,
                         double u0, double *u_out, int *iters, int *evals)
{
    const int use_gap = o->stop == DST_ELLIPSOID_STOP_GAP;
    double u = u0;
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
            if (f == 0.0) {
                *u_out = u;
                *iters = it;
                *evals = n_eval;
                return DST_OK;
            }
            u_new = hybrid_update(f, newton_dx, u, &lo, &hi, &step_old, &step);
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

/* h_i, support points and the upper bound on d for a direction v, all evaluated for the
 * stored v itself in the world frame (eq. 31-32). Rounding: every term is a short sum of
 * products of numbers bounded by r_i |v|_1 (rotation entries are at most 1 in magnitude),
 * so ulp * sum(r_i) * |v|_1 bounds its error (eq. 31b). */
static inline void support_eval(const DstEllipsoidShape *restrict s1, const double *restrict R1,
                                const DstEllipsoidShape *restrict s2, const double *restrict R2,
                                const double *restrict n, const double *restrict vin, SupportEval *restrict se)
{
    const double ulp = DST_ELLIPSOID_ROUND_ULPS * DBL_EPSILON;
    const double *r1 = s1->radii, *r2 = s2->radii;
    const double v[3] = {vin[0], vin[1], vin[2]};
    double a1[3], a2[3], v1, ih1, ih2, m[3], dd, rden;
    for (int b = 0; b < 3; ++b) {
        a1[b] = r1[b] * DOT3(R1[b], R1[3 + b], R1[6 + b], v[0], v[1], v[2]);
        a2[b] = r2[b] * DOT3(R2[b], R2[3 + b], R2[6 + b], v[0], v[1], v[2]);
        se->v[b] = v[b];
    }
    se->h1 = sqrt(DOT3(a1[0], a1[1], a1[2], a1[0], a1[1], a1[2]));
    se->h2 = sqrt(DOT3(a2[0], a2[1], a2[2], a2[0], a2[1], a2[2]));
    se->den = DOT3(v[0], v[1], v[2], n[0], n[1], n[2]);
    v1 = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
    {
        /* one reciprocal for d and dd: its rounding and the product's are two more of
           the few roundings (1 + ulp) covers */
        const double e_h = ulp * (s1->radii_sum + s2->radii_sum) * v1;
        const double e_den = ulp * v1;
        rden = 1.0 / (se->den - e_den);
        se->d = se->den > e_den ? (se->h1 + se->h2 + e_h) * rden * (1.0 + ulp) : NAN;
    }
    /* support points s_i = R_i diag(r_i) a_i / h_i (eq. 32); the products with R_i are
       formed while the square roots and reciprocals are still under way, the 1/h_i
       scale comes last */
    for (int b = 0; b < 3; ++b) {
        a1[b] *= r1[b];
        a2[b] *= r2[b];
    }
    {
        double S1[3], S2[3];
        for (int a = 0; a < 3; ++a) {
            S1[a] = DOT3(R1[3 * a], R1[3 * a + 1], R1[3 * a + 2], a1[0], a1[1], a1[2]);
            S2[a] = DOT3(R2[3 * a], R2[3 * a + 1], R2[3 * a + 2], a2[0], a2[1], a2[2]);
        }
        ih1 = 1.0 / se->h1;
        ih2 = 1.0 / se->h2;
        /* the centre offset of the touching placement, (h1 + h2) / den (to within e_den) */
        dd = (se->h1 + se->h2) * rden;
        for (int a = 0; a < 3; ++a) {
            se->s1[a] = S1[a] * ih1;
            se->s2[a] = S2[a] * ih2;
            m[a] = MADD(-dd, n[a], MADD(S1[a], ih1, se->s2[a]));
        }
    }
    se->residual = sqrt(DOT3(m[0], m[1], m[2], m[0], m[1], m[2]));
}

/* One Newton step on psi(w) = h1(w) + h2(w) over the plane w . n = 1 (eq. 33): psi is
 * convex, its minimum is d and its gradient s1 + s2; the Hessian of h_i is
 * (E_i^-1 - s_i s_i^T) / h_i(w). Writes the new direction into v; returns 0 if the 2x2
 * tangent system is singular. */
static int support_newton(const DstEllipsoidShape *s1, const double *R1, const DstEllipsoidShape *s2,
                          const double *R2, const double *n, const SupportEval *se, double *v)
{
    const double *rad[2] = {s1->radii, s2->radii}, *rot[2] = {R1, R2};
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
                w[j][b] = rad[i][b] * (rot[i][b] * t[j][0] + rot[i][3 + b] * t[j][1] + rot[i][6 + b] * t[j][2]);
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

/* Refinement of eq. (33) from the evaluation *se (residual above the tolerance): up to
 * DST_ELLIPSOID_REFINE_STEPS Newton steps on the support function; *se becomes the last
 * direction kept. Returns the least upper bound d met (every direction gives one). Kept
 * out of the common path (rarely taken). */
static double refine_contact(const DstEllipsoidShape *s1, const double *R1, const DstEllipsoidShape *s2,
                             const double *R2, const double *n, double r_min, SupportEval *se)
{
    double d_best = se->d, v[3];
    for (int k = 0; k < DST_ELLIPSOID_REFINE_STEPS && se->residual > DST_ELLIPSOID_REFINE_TOL * r_min; ++k) {
        SupportEval trial;
        if (!support_newton(s1, R1, s2, R2, n, se, v)) break;
        support_eval(s1, R1, s2, R2, n, v, &trial);
        /* move the contact while the mismatch of the contact points shrinks */
        if (!(trial.residual < se->residual) || !isfinite(trial.d)) break;
        *se = trial;
        if (se->d < d_best) d_best = se->d;
    }
    return d_best;
}

/* The radial start, docs/math/ellipsoid.md eq. (34): u0 = rho1 / (rho1 + rho2), rho_i =
 * (n^T E_i n)^(-1/2) = 1 / |diag(1/r_i) R_i^T n| the radius of e_i along n, i.e.
 * u0 = |m2| / (|m1| + |m2|) with m_i = diag(1/r_i) R_i^T dir. The root of eq. (10) for two
 * spheres (u = r1 / (r1 + r2)) and, like the root, invariant under linear maps of space.
 * The ratio does not depend on the length of dir, so it is formed from dir as given and
 * does not wait for the normalisation; it depends on neither the set-up nor its
 * coefficients and is ready before them. The paper's 0.5 when the ratio is not a number
 * in (0, 1) (overflow for extreme inputs, or invalid input that the validation rejects). */
static inline double radial_start(const DstEllipsoidShape *restrict s1, const double *restrict R1,
                                  const DstEllipsoidShape *restrict s2, const double *restrict R2,
                                  const double *restrict dir)
{
    const double *i1 = s1->inv_radii, *i2 = s2->inv_radii;
    const double x0 = DOT3(R1[0], R1[3], R1[6], dir[0], dir[1], dir[2]) * i1[0];
    const double x1 = DOT3(R1[1], R1[4], R1[7], dir[0], dir[1], dir[2]) * i1[1];
    const double x2 = DOT3(R1[2], R1[5], R1[8], dir[0], dir[1], dir[2]) * i1[2];
    const double y0 = DOT3(R2[0], R2[3], R2[6], dir[0], dir[1], dir[2]) * i2[0];
    const double y1 = DOT3(R2[1], R2[4], R2[7], dir[0], dir[1], dir[2]) * i2[1];
    const double y2 = DOT3(R2[2], R2[5], R2[8], dir[0], dir[1], dir[2]) * i2[2];
    const double l1 = sqrt(DOT3(x0, x1, x2, x0, x1, x2)), l2 = sqrt(DOT3(y0, y1, y2, y0, y1, y2));
    const double u0 = l2 / (l1 + l2);
    return u0 > 0.0 && u0 < 1.0 ? u0 : DST_ELLIPSOID_PAPER_U0;
}

/* M = R1 diag(1/r1) G^T, so that e1's outward normal at the contact of u is N = M zt(u)
 * (eq. 30; N ~ E1 w = R1 diag(1/r1) q, q = G^T zt). It does not depend on u: the default
 * solver forms it while its iterations run, and the output is one matrix product behind
 * zt instead of two. */
static inline void normal_matrix(const DstEllipsoidPair *restrict pair, const DstEllipsoidShape *restrict s1,
                                 const double *restrict R1, double *restrict M)
{
    const double *G = pair->G, *i1 = s1->inv_radii;
    for (int a = 0; a < 3; ++a) {
        const double x0 = R1[3 * a] * i1[0], x1 = R1[3 * a + 1] * i1[1], x2 = R1[3 * a + 2] * i1[2];
        for (int c = 0; c < 3; ++c) M[3 * a + c] = DOT3(x0, x1, x2, G[3 * c], G[3 * c + 1], G[3 * c + 2]);
    }
}

/* Validation of both poses and of the direction dir (ss = |dir|^2; dir is read only
 * when ss fails): 1 if valid; else 0 with *out filled as DST_INVALID_INPUT, the message
 * looked up only then. A zero direction has no closest approach (NaN and inf fail too). */
static inline int inputs_ok(const double *c1, const double *R1, const double *c2, const double *R2,
                            const double *dir, double ss, DstEllipsoidResult *out)
{
    if (!(pose_ok(c1, R1) & pose_ok(c2, R2))) {
        fail_invalid(out, pose_ok(c1, R1) ? pose_message(c2, R2) : pose_message(c1, R1));
        return 0;
    }
    if (!(ss > 0.0 && ss <= DBL_MAX)) {
        fail_invalid(out, isfinite(dir[0]) && isfinite(dir[1]) && isfinite(dir[2])
                              ? "ellipsoid direction is zero (coincident centres?)"
                              : "ellipsoid direction is not finite");
        return 0;
    }
    return 1;
}

/* Closest approach along a direction for validated shapes: eq. (6)-(13) through the
 * scaled frame, outputs through the support functions (eq. 30-33). */
static DstStatus approach(const DstEllipsoidShape *restrict s1, const double *restrict c1,
                          const double *restrict R1, const DstEllipsoidShape *restrict s2,
                          const double *restrict c2, const double *restrict R2, const double *restrict dir,
                          const DstEllipsoidOptions *restrict opt, DstEllipsoidResult *restrict out)
{
    DstEllipsoidPair pair;
    double n[3], ss, u, u0, M[9];
    int iters, evals;
    DstStatus st;

    /* validation: options, both poses, the direction; the message only on failure (the
       poses and the direction after the set-up of the default solver, below) */
    if (opt == NULL) {
        opt = &default_options;
    } else {
        const char *why = check_options(opt);
        if (why != NULL) {
            fail_invalid(out, why);
            return out->status;
        }
    }
    if (dir == NULL) {
        /* the messages in the order options, poses, direction */
        if (inputs_ok(c1, R1, c2, R2, NULL, 1.0, out)) fail_invalid(out, "ellipsoid direction is not finite");
        return out->status;
    }
    /* the start: the radial one (eq. 34) unless the caller gave one (sec. 2.3) */
    u0 = opt->u0 == DST_ELLIPSOID_U0_AUTO ? radial_start(s1, R1, s2, R2, dir) : opt->u0;
    ss = dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2];
    {
        const double il = 1.0 / sqrt(ss);
        for (int a = 0; a < 3; ++a) n[a] = dir[a] * il;
    }
    if (opt->solver == DST_ELLIPSOID_HYBRID && opt->stop == DST_ELLIPSOID_STOP_DU) {
        /* the default: the poses and the direction are validated after the set-up, in
           the shadow of its dependency chain and the first evaluation's (for invalid input
           the set-up only computes numbers that are discarded; nothing is returned before
           the validation). Measured against validating after the first evaluation, from
           either start: 0.96-0.98 (docs/perf/ellipsoid.md, session 25) */
        HybridCoef k;
        double F, dx;
        pair_setup(&pair, s1, R1, s2, R2, n, 0);
        hybrid_coef(&pair, &k);
        if (!inputs_ok(c1, R1, c2, R2, dir, ss, out)) return out->status;
        F = hybrid_eval(&k, u0, &dx);
        normal_matrix(&pair, s1, R1, M);
        st = hybrid_loop(&k, u0, F, dx, opt->eps, opt->max_iter, &u, &iters);
        evals = iters;
    } else {
        if (!inputs_ok(c1, R1, c2, R2, dir, ss, out)) return out->status;
        pair_setup(&pair, s1, R1, s2, R2, n, 1);
        st = solve_u(&pair, s2->radii, opt, u0, &u, &iters, &evals);
        normal_matrix(&pair, s1, R1, M);
    }

    /* outputs from the final u through the support functions, eq. (30)-(33): the contact
       direction w ~ R2 diag(r2) zt (eq. 6-7) gives e1's outward normal
       N ~ E1 w = R1 diag(1/r1) q with q = G^T zt (eq. 30); d = (h1(N) + h2(N)) / (N . n)
       (eq. 31) equals eq. (8) at the exact root, is never below the true d for any N
       (gap is conservative) and errs only quadratically in the error of N; when the
       contact points of the two ellipsoids still differ, Newton steps on the support
       function refine N (eq. 33). */
    {
        const double r_min = s1->r_min < s2->r_min ? s1->r_min : s2->r_min;
        double zt[3], v[3], nl, d_best;
        SupportEval se;
        {
            /* zt(u) = adj(H) m (eq. 25) */
            const double vv = 1.0 - u, q0 = vv * vv, q1 = vv * u, q2 = u * u;
            for (int i = 0; i < 3; ++i) zt[i] = MADD(q2, pair.a[2][i], MADD(q1, pair.a[1][i], q0 * pair.a[0][i]));
        }
        /* N = M zt (eq. 30) */
        for (int a = 0; a < 3; ++a) v[a] = DOT3(M[3 * a], M[3 * a + 1], M[3 * a + 2], zt[0], zt[1], zt[2]);
        support_eval(s1, R1, s2, R2, n, v, &se);
        d_best = se.d;
        if (se.residual > DST_ELLIPSOID_REFINE_TOL * r_min) d_best = refine_contact(s1, R1, s2, R2, n, r_min, &se);
        nl = sqrt(DOT3(se.v[0], se.v[1], se.v[2], se.v[0], se.v[1], se.v[2]));
        if (!isfinite(d_best) || !isfinite(nl) || !(nl > 0.0)) {
            /* cannot happen for valid input; never hand back NaN silently */
            memset(out, 0, sizeof *out);
            out->status = DST_FAILED;
            out->error = "ellipsoid closest approach: numerical breakdown";
            return out->status;
        }
        out->status = st;
        out->error = NULL;
        out->d = d_best;
        out->gap = DOT3(c2[0] - c1[0], c2[1] - c1[1], c2[2] - c1[2], n[0], n[1], n[2]) - d_best;
        out->u = u;
        out->iterations = iters;
        out->evaluations = evals;
        out->residual = se.residual;
        {
            const double inl = 1.0 / nl;
            for (int a = 0; a < 3; ++a) {
                out->dir[a] = n[a];
                out->contact[a] = c1[a] + se.s1[a];
                out->normal[a] = se.v[a] * inl;
            }
        }
    }
    return out->status;
}

/* The message for invalid DstEllipsoid input, in the order options, e1, e2. */
static const char *ellipsoids_message(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                      const DstEllipsoidOptions *opt)
{
    const char *why = opt != NULL ? check_options(opt) : NULL;
    if (why == NULL) why = dst_ellipsoid_check(e1);
    if (why == NULL) why = dst_ellipsoid_check(e2);
    return why != NULL ? why : "ellipsoid radii too small (1/r overflows)";
}

/* Closest approach along a direction (sec. 2.1 with a given n): the shapes prepared here. */
DstStatus dst_ellipsoid_approach_along(const DstEllipsoid *e1, const DstEllipsoid *e2,
                                       const double *dir, const DstEllipsoidOptions *opt,
                                       DstEllipsoidResult *out)
{
    DstEllipsoidShape s1, s2;
    if (out == NULL) return DST_INVALID_INPUT;
    if (e1 == NULL || e2 == NULL) {
        fail_invalid(out, "ellipsoid is NULL");
        return out->status;
    }
    if (!(shape_fill(&s1, e1->radii) & shape_fill(&s2, e2->radii))) {
        fail_invalid(out, ellipsoids_message(e1, e2, opt));
        return out->status;
    }
    return approach(&s1, e1->centre, e1->rot, &s2, e2->centre, e2->rot, dir, opt, out);
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

/* The prepared shapes: only their having been prepared is checked (r_min > 0). */
static const char *prepared_message(const DstEllipsoidShape *s1, const DstEllipsoidPose *p1,
                                    const DstEllipsoidShape *s2, const DstEllipsoidPose *p2)
{
    if (s1 == NULL || s2 == NULL) return "ellipsoid shape is NULL";
    if (!(s1->r_min > 0.0) || !(s2->r_min > 0.0)) return "ellipsoid shape is not prepared";
    if (p1 == NULL || p2 == NULL) return "ellipsoid pose is NULL";
    return NULL;
}

/* Closest approach along a direction, prepared shapes (sec. 2.1 with a given n). */
DstStatus dst_ellipsoid_prepared_approach_along(const DstEllipsoidShape *s1, const DstEllipsoidPose *p1,
                                                const DstEllipsoidShape *s2, const DstEllipsoidPose *p2,
                                                const double *dir, const DstEllipsoidOptions *opt,
                                                DstEllipsoidResult *out)
{
    const char *why;
    if (out == NULL) return DST_INVALID_INPUT;
    if ((why = prepared_message(s1, p1, s2, p2)) != NULL) {
        fail_invalid(out, why);
        return out->status;
    }
    return approach(s1, p1->centre, p1->rot, s2, p2->centre, p2->rot, dir, opt, out);
}

/* Closest approach along the inter-centre direction, prepared shapes (sec. 2.1). */
DstStatus dst_ellipsoid_prepared_closest_approach(const DstEllipsoidShape *s1, const DstEllipsoidPose *p1,
                                                  const DstEllipsoidShape *s2, const DstEllipsoidPose *p2,
                                                  const DstEllipsoidOptions *opt, DstEllipsoidResult *out)
{
    const char *why;
    double dir[3];
    if (out == NULL) return DST_INVALID_INPUT;
    if ((why = prepared_message(s1, p1, s2, p2)) != NULL) {
        fail_invalid(out, why);
        return out->status;
    }
    for (int a = 0; a < 3; ++a) dir[a] = p2->centre[a] - p1->centre[a];
    return approach(s1, p1->centre, p1->rot, s2, p2->centre, p2->rot, dir, opt, out);
}
