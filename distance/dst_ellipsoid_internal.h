/* dst_ellipsoid_internal.h — internals of dst_ellipsoid.c shared with its tests only.
 *
 * The pair of ellipsoids and the direction n are moved once into the scaled principal
 * frame of e2 (docs/math/ellipsoid.md eq. 14-17), where E2 = I and E1 = K:
 *   f(u) = (1 - u)^2 z^T K z - u^2 z^T K^2 z,   z(u) = [u K + (1 - u) I]^{-1} m. */
#ifndef DST_ELLIPSOID_INTERNAL_H
#define DST_ELLIPSOID_INTERNAL_H

#include "dst_ellipsoid.h"

typedef struct DstEllipsoidPair {
    /* K, m, r_min, alpha and beta are filled for the fixed point, Steffensen, rule (13)
     * and the tests only (the default hybrid with rule (12) does not read them) */
    double K[6];        /* symmetric K: K00 K01 K02 K11 K12 K22 (dimensionless) */
    double m[3];        /* diag(1/r2) R2^T n, 1/metres */
    double r_min;       /* smallest of the six semi-axes, metres */
    double G[9];        /* G = diag(r2) R2^T R1 diag(1/r1), row-major (K = G G^T) */
    /* homogeneous polynomials in (v, u) = (1 - u, u), eq. (24)-(29):
     *   zt(u) = sum_i a[i] v^(2-i) u^i          (adj(H) m, H = v I + u K)
     *   det H = sum_k dc[k] v^(3-k) u^k
     *   At = zt.K zt = sum_k alpha[k] v^(4-k) u^k,  Bt = |K zt|^2 = sum_k beta[k] v^(4-k) u^k
     *   Ft = v^2 At - u^2 Bt = sum_k c[k] v^(6-k) u^k   (f = Ft / det^2)
     *   dFt/du = sum_j e[j] v^(5-j) u^j,  d(det)/du = sum_j g[j] v^(2-j) u^j */
    double a[3][3];
    double dc[4], alpha[5], beta[5], c[7], e[6], g[3];
} DstEllipsoidPair;

/* One evaluation of eq. (7)-(11) at u, in the scaled frame. */
typedef struct DstEllipsoidEval {
    double z[3];        /* z(u) (eq. 15) */
    double A, B;        /* w^T E1 w = z^T K z and w^T E1 E2^-1 E1 w = |K z|^2, 1/m^2 */
    double f;           /* eq. (10), 1/m^2 */
    double fprime;      /* eq. (11), 1/m^2; only when requested */
} DstEllipsoidEval;

/* Fills pair from two valid ellipsoids and a unit direction n (no validation). */
void dst_ellipsoid_pair_init(DstEllipsoidPair *pair, const DstEllipsoid *e1,
                             const DstEllipsoid *e2, const double *n);

/* Evaluates f (and f' when want_fprime) at u in [0, 1] directly from eq. (15)-(18)
 * (adjugate solve at u): the reference the polynomial form is tested against. */
void dst_ellipsoid_eval(const DstEllipsoidPair *pair, double u, int want_fprime,
                        DstEllipsoidEval *ev);

/* f(u) and f'(u) from the polynomial form of eq. (24)-(29). */
void dst_ellipsoid_eval_poly(const DstEllipsoidPair *pair, double u, double *f,
                             double *fprime);

#endif /* DST_ELLIPSOID_INTERNAL_H */
