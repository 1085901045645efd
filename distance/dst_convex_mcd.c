/* dst_convex_mcd.c — MCD of a moving capsule against a static convex shape (a box, a hull,
 * any dst_convex shape): golden-section search proposes the minimum (thesis sec. III.B),
 * conservative advancement along separating directions certifies it (sec. III.C-D,
 * eq. 3.3-3.4). Derivation: docs/math/capsule_mcd.md sec. "Static convex obstacles". */
#include "dst_convex_mcd.h"

#include <math.h>
#include <string.h>

#include "dst_capsule_internal.h"
#include "dst_convex_internal.h"
#include "dst_frame_internal.h"
#include "dst_tolerance.h"

/* the state of one query */
typedef struct Ctx {
    const DstMovingCapsule *a;
    const DstConvex *b;
    DstGjkCache cache;
    DstGjkOptions gopt;
    DstEpaOptions eopt;
    int evals;
} Ctx;

/* the capsule at s as a dst_convex capsule: core segment along its local z */
static void capsule_at(const Ctx *c, double s, DstConvex *cap, double p0[3], double p1[3])
{
    double d[3], len, u[3], e1[3], e2[3];
    dst_poly_point_eval(&c->a->p0, s, p0);
    dst_poly_point_eval(&c->a->p1, s, p1);
    for (int k = 0; k < 3; ++k) d[k] = p1[k] - p0[k];
    len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len > DST_MIN_DENOM) {
        for (int k = 0; k < 3; ++k) u[k] = d[k] / len;
    } else {
        u[0] = 0.0, u[1] = 0.0, u[2] = 1.0; /* a point: any axis */
        len = 0.0;
    }
    /* e1 orthogonal to u, e2 = u x e1: columns (e1, e2, u) of the local -> world rotation */
    if (fabs(u[0]) < 0.6) {
        e1[0] = 0.0, e1[1] = u[2], e1[2] = -u[1];
    } else {
        e1[0] = -u[2], e1[1] = 0.0, e1[2] = u[0];
    }
    {
        double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
        for (int k = 0; k < 3; ++k) e1[k] /= n1;
    }
    e2[0] = u[1] * e1[2] - u[2] * e1[1];
    e2[1] = u[2] * e1[0] - u[0] * e1[2];
    e2[2] = u[0] * e1[1] - u[1] * e1[0];
    *cap = dst_convex_capsule(c->a->radius, 0.5 * len);
    {
        double rot[9] = {e1[0], e2[0], u[0], e1[1], e2[1], u[1], e1[2], e2[2], u[2]};
        double pos[3] = {0.5 * (p0[0] + p1[0]), 0.5 * (p0[1] + p1[1]), 0.5 * (p0[2] + p1[2])};
        dst_convex_set_pose(cap, rot, pos);
    }
}

/* signed distance of the polynomial capsule at s to b */
static DstStatus eval(Ctx *c, double s, DstConvexDistance *d)
{
    DstConvex cap;
    double p0[3], p1[3];
    capsule_at(c, s, &cap, p0, p1);
    ++c->evals;
    return dst_convex_distance(&cap, c->b, &c->gopt, &c->eopt, &c->cache, d, NULL, 0);
}

/* the separating-plane gap along unit n at s (eq. C1): min over the capsule of n.x minus
 * max over b of n.y; a lower bound of the signed distance for any unit n (eq. C2),
 * widened for rounding */
static double gap_along(const Ctx *c, double s, const double n[3])
{
    double p0[3], p1[3], yb[3], nb[3] = {n[0], n[1], n[2]}, a0, a1, g, mag;
    dst_poly_point_eval(&c->a->p0, s, p0);
    dst_poly_point_eval(&c->a->p1, s, p1);
    dst_convex_support(c->b, nb, yb);
    a0 = n[0] * p0[0] + n[1] * p0[1] + n[2] * p0[2];
    a1 = n[0] * p1[0] + n[1] * p1[1] + n[2] * p1[2];
    g = fmin(a0, a1) - c->a->radius - (n[0] * yb[0] + n[1] * yb[1] + n[2] * yb[2]);
    mag = fabs(a0) + fabs(a1) + c->a->radius + fabs(yb[0]) + fabs(yb[1]) + fabs(yb[2]);
    return g - DST_ROUND_REL * mag;
}

/* how fast the gap along n can fall over s in [u0, u1], per unit s (eq. C3): the capsule
 * side of the gap is the smaller endpoint projection, whose rate is at least the smaller
 * endpoint rate; b does not move */
static double fall_rate(const Ctx *c, const double n[3], double u0, double u1)
{
    double lo0, hi0, lo1, hi1;
    dst_poly_point_rate_along(&c->a->p0, n, u0, u1, &lo0, &hi0);
    dst_poly_point_rate_along(&c->a->p1, n, u0, u1, &lo1, &hi1);
    return fmax(0.0, -fmin(lo0, lo1));
}

DstStatus dst_capsule_convex_mcd(const DstMovingCapsule *a, const DstConvex *b, double t0,
                                 double t1, const DstMcdOptions *opt_in, DstMcdResult *out)
{
    DstMcdOptions opt = opt_in ? *opt_in : dst_mcd_options_default();
    Ctx c;
    DstConvexDistance best, d;
    double s_best = 0.0, errmax, level, lower = -HUGE_VAL, span = t1 - t0;
    int steps = 0, capped = 0;
    const double golden = 0.5 * (3.0 - sqrt(5.0));

    memset(out, 0, sizeof *out);
    out->status = DST_INVALID_INPUT;
    if (a == NULL || b == NULL || dst_moving_capsule_validate(a) != DST_OK ||
        dst_convex_validate(b, NULL, 0) != DST_OK || !isfinite(t0) || !isfinite(t1) || t1 < t0 ||
        !(opt.eps > 0.0) || !(opt.tau > 0.0) || opt.max_iter < 1) {
        return DST_INVALID_INPUT;
    }
    memset(&c, 0, sizeof c);
    c.a = a;
    c.b = b;
    c.gopt = dst_gjk_options_default();
    c.eopt = dst_epa_options_default();
    errmax = fmax(a->p0.err, a->p1.err); /* every capsule point is within this (eq. C4) */

    /* golden-section search over s in [0, 1] for a candidate minimum (sec. III.B) */
    {
        double sa = 0.0, sc = 1.0, sb = golden, fb, tau_s = span > 0.0 ? opt.tau / span : 1.0;
        DstStatus st = eval(&c, 0.0, &best);
        if (st == DST_INVALID_INPUT || st == DST_FAILED) return out->status = DST_FAILED;
        if (span > 0.0) {
            if (eval(&c, 1.0, &d) == DST_FAILED) return out->status = DST_FAILED;
            if (d.distance < best.distance) best = d, s_best = 1.0;
            if (eval(&c, sb, &d) == DST_FAILED) return out->status = DST_FAILED;
            fb = d.distance;
            if (fb < best.distance) best = d, s_best = sb;
            for (int it = 0; it < opt.max_iter && sc - sa > tau_s; ++it) {
                /* probe the larger part of the bracket */
                double sx = sb - sa > sc - sb ? sb - golden * (sb - sa) : sb + golden * (sc - sb);
                if (eval(&c, sx, &d) == DST_FAILED) return out->status = DST_FAILED;
                if (d.distance < best.distance) best = d, s_best = sx;
                if (d.distance < fb) {
                    if (sx < sb) sc = sb;
                    else sa = sb;
                    sb = sx;
                    fb = d.distance;
                } else {
                    if (sx < sb) sa = sx;
                    else sc = sx;
                }
            }
        }
    }

    /* conservative advancement toward the level upper - eps' from s = 0 (eq. 3.4): each
     * step keeps the gap along the current separating direction above the level; a point
     * found below the level becomes the new upper and the walk restarts */
    for (int restart = 0; restart < opt.max_iter && span > 0.0; ++restart) {
        double eps_eff = fmax(opt.eps - errmax, DST_CONVEX_MCD_MIN_EPS_FRACTION * opt.eps);
        double s = 0.0, reach = DST_HYBRID_REACH_FRACTION * eps_eff, before = best.distance;
        int found = 0;
        level = best.distance - DST_SAMPLING_EPS_FRACTION * eps_eff; /* keep rounding inside eps */
        while (s < 1.0) {
            double n[3], g, mu, h;
            if (++steps > opt.max_iter) {
                capped = 1;
                break;
            }
            if (eval(&c, s, &d) == DST_FAILED) return out->status = DST_FAILED;
            if (d.distance < best.distance) best = d, s_best = s;
            memcpy(n, d.normal, sizeof n);
            if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.5)) n[0] = 1.0, n[1] = 0.0, n[2] = 0.0;
            g = gap_along(&c, s, n);
            if (g - level <= reach) {
                /* the level is (nearly) reached here: the minimum is lower than thought */
                if (d.distance < level + reach + eps_eff * 0.5) {
                    found = 1;
                    break;
                }
                /* the separating direction is poor here (inexact normal): fall back on the
                 * direction-free speed bound, valid for any motion (eq. C5) */
                mu = fmax(dst_poly_point_speed_bound(&a->p0, s, 1.0), dst_poly_point_speed_bound(&a->p1, s, 1.0));
                g = d.lower;
            } else {
                mu = fall_rate(&c, n, s, 1.0);
            }
            h = mu > 0.0 ? (g - level) / mu : 1.0 - s;
            if (!(h > 0.0)) {
                found = 1; /* no progress possible: treat as reached */
                break;
            }
            s = fmin(1.0, s + h);
        }
        if (capped) break;
        if (!found) {
            lower = level - errmax; /* min over [0, 1] >= level, minus the enclosure */
            break;
        }
        /* a restart must lower the upper bound by a fixed amount, or it would not end */
        if (best.distance > before - DST_HYBRID_REACH_FRACTION * eps_eff) {
            capped = 1;
            break;
        }
    }
    if (lower == -HUGE_VAL) {
        /* advancement capped: a direction-free bound over the whole interval from the best
         * point (eq. C5), always valid */
        double mu = fmax(dst_poly_point_speed_bound(&a->p0, 0.0, 1.0), dst_poly_point_speed_bound(&a->p1, 0.0, 1.0));
        lower = fmin(best.lower, best.distance) - mu * fmax(s_best, 1.0 - s_best) - errmax;
        if (span == 0.0) lower = fmin(best.lower, best.distance) - errmax;
    }

    /* the result: upper at a real time, the certified lower bound, witnesses */
    out->upper = best.distance;
    out->lower = fmin(lower, best.distance);
    out->t_min = t0 + s_best * span;
    memcpy(out->pA, best.point_a, sizeof out->pA);
    memcpy(out->pB, best.point_b, sizeof out->pB);
    memcpy(out->n, best.normal, sizeof out->n);
    {
        /* the witness's segment parameter, for callers that differentiate */
        double p0[3], p1[3], dd[3], w[3], l2 = 0.0, t = 0.0;
        dst_poly_point_eval(&a->p0, s_best, p0);
        dst_poly_point_eval(&a->p1, s_best, p1);
        for (int k = 0; k < 3; ++k) {
            dd[k] = p1[k] - p0[k];
            w[k] = best.point_a[k] - p0[k];
            l2 += dd[k] * dd[k];
            t += dd[k] * w[k];
        }
        out->sA = l2 > DST_MIN_DENOM ? fmin(1.0, fmax(0.0, t / l2)) : 0.0;
        for (int k = 0; k < 3; ++k) {
            out->cA[k] = p0[k] + out->sA * dd[k];
            out->cB[k] = best.point_b[k];
        }
    }
    out->distance_evals = c.evals;
    out->advance_steps = steps;
    out->status = capped ? DST_ITER_LIMIT
                         : (out->upper - out->lower <= opt.eps ? DST_CERTIFIED : DST_NOT_CERTIFIED);
    return out->status;
}

/* ====================================================================================
 * Two moving convex shapes (dst_convex_mcd): docs/math/capsule_mcd.md sec. "Two moving
 * convex shapes", eq. (M1)-(M10). Everything works in s = (t - t0)/(t1 - t0) in [0, 1].
 * A(s) = x_a(s) + R_a(s) K_a is the polynomial (affine) shape, N(s) the nominal (rigid,
 * Gram-Schmidt) placement, and the true shape lies within E_a of A(s) (eq. M2).
 * ==================================================================================== */

/* The advancement's window on which the rate bounds are taken grows by this factor after
 * each step (the next step is expected near the last one; eq. M8). */
#define CMCD_WINDOW_GROWTH 2.0

/* A step shorter than this fraction of its window gets the bounds again on a window just
 * above it (eq. M8). */
#define CMCD_REFINE_FRACTION 0.25

/* Steps below this (in s) count as no progress: the level is lowered instead (eq. M9). */
#define CMCD_MIN_STEP 1e-13

/* One side of the query: the shape in its body frame and the frame's last evaluation. */
typedef struct Side {
    const DstMovingConvex *m;
    DstConvex local;  /* shape at the identity pose: supports in body coordinates */
    DstConvex placed; /* shape at the nominal pose of the last evaluation */
    double reach;     /* r of eq. (M1), metres */
    double enclosure; /* E of eq. (M2), metres */
    double mag;       /* rounding magnitude of x(s) + R(s) l: sum |x_k| + r sum |R_k|, metres */
    double R[9], x[3];/* R(s), x(s) of the last evaluation */
    double dev;       /* |R(s) - Q(s)|_F of the last evaluation (eq. M3) */
    int hint;         /* feature id of the last gap support */
    /* Bernstein coefficients on [0, 1] of x'(s) (degree mx) and of the entries of R'(s)
     * (degree mr; -1: constant), and the sums of |monomial coefficients| of x' and R' */
    int mx, mr;
    double bx[3][DST_MAX_DEGREE + 1], bR[9][DST_MAX_DEGREE + 1];
    double magx, magR;
} Side;

typedef struct MCtx {
    Side a, b;
    DstGjkCache *cache;
    DstGjkOptions gopt;
    DstEpaOptions eopt;
    int evals, budget; /* distance evaluations made and allowed */
    int failed;
    double dev_max;    /* largest (dev_a r_a + dev_b r_b) met, metres */
    DstConvexDistance best;
    double s_best;
} MCtx;

/* eq. (M1): reach of the shape about its local origin */
double dst_convex_reach(const DstConvex *c)
{
    double r = 0.0;
    switch (c->kind) {
    case DST_CONVEX_POINTS: {
        double m2 = 0.0;
        for (int i = 0; i < c->nverts; ++i) {
            const double *v = c->verts + 3 * i;
            double q = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
            if (!isfinite(q)) return NAN;
            if (q > m2) m2 = q;
        }
        r = sqrt(m2);
        break;
    }
    case DST_CONVEX_SPHERE: r = 0.0; break;
    case DST_CONVEX_CAPSULE: r = fabs(c->half_length); break;
    case DST_CONVEX_BOX: r = sqrt(c->half[0] * c->half[0] + c->half[1] * c->half[1] + c->half[2] * c->half[2]); break;
    case DST_CONVEX_ELLIPSOID:
        if (!isfinite(c->radii[0] + c->radii[1] + c->radii[2])) return NAN;
        r = fmax(fabs(c->radii[0]), fmax(fabs(c->radii[1]), fabs(c->radii[2])));
        break;
    case DST_CONVEX_CUSTOM: {
        /* every core point x has -h(-e_i) <= x_i <= h(e_i): the box of the six supports */
        DstConvex loc = *c;
        double q = 0.0;
        dst_convex_set_pose(&loc, NULL, NULL);
        for (int i = 0; i < 3; ++i) {
            double e[3] = {0.0, 0.0, 0.0}, p[3], hp, hm;
            e[i] = 1.0;
            dst_convex_core_support(&loc, e, -1, p);
            hp = p[i];
            e[i] = -1.0;
            dst_convex_core_support(&loc, e, -1, p);
            hm = -p[i];
            if (!isfinite(hp) || !isfinite(hm)) return NAN;
            hp = fmax(fabs(hp), fabs(hm));
            q += hp * hp;
        }
        r = sqrt(q);
        break;
    }
    }
    r += c->margin;
    return r * (1.0 + DST_ROUND_REL);
}

/* Sum of |coefficients| of the frame: the rounding magnitude of x(s) + R(s) l for |l| <= r. */
static double frame_magnitude(const DstMovingFrame *f, double r)
{
    double mx = 0.0, mr = 0.0;
    for (int k = 0; k <= f->origin.degree; ++k) mx += fabs(f->origin.c[k][0]) + fabs(f->origin.c[k][1]) + fabs(f->origin.c[k][2]);
    for (int k = 0; k <= f->degree; ++k) {
        for (int e = 0; e < 9; ++e) mr += fabs(f->R[k][e]);
    }
    return mx + mr * r;
}

/* The nominal placement of one side at s (eq. M3); 0 when R(s) cannot be orthonormalised. */
static int place(Side *sd, double s)
{
    double Q[9];
    dst_moving_frame_eval(&sd->m->frame, s, sd->R, sd->x);
    if (!dst_frame_orthonormalise(sd->R, Q, &sd->dev)) return 0;
    dst_convex_set_pose(&sd->placed, Q, sd->x);
    return 1;
}

DstStatus dst_convex_mcd_nominal(const DstMovingConvex *a, const DstMovingConvex *b, double s,
                                 DstGjkCache *cache, DstConvexDistance *out, double *dev)
{
    Side sa, sb;
    if (out == NULL) return DST_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    if (a == NULL || b == NULL || a->shape == NULL || b->shape == NULL) {
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    sa.m = a, sb.m = b;
    sa.placed = *a->shape, sb.placed = *b->shape;
    if (!place(&sa, s) || !place(&sb, s)) {
        out->status = DST_FAILED;
        return out->status;
    }
    if (dev != NULL) {
        *dev = (sa.dev * dst_convex_reach(a->shape) + sb.dev * dst_convex_reach(b->shape)) * (1.0 + DST_ROUND_REL);
    }
    return dst_convex_distance(&sa.placed, &sb.placed, NULL, NULL, cache, out, NULL, 0);
}

/* One nominal evaluation at s (what `upper` is made of); keeps the best. 0 on failure. */
static int m_eval(MCtx *c, double s, DstConvexDistance *d)
{
    DstStatus st;
    if (!place(&c->a, s) || !place(&c->b, s)) {
        c->failed = 1;
        return 0;
    }
    ++c->evals;
    st = dst_convex_distance(&c->a.placed, &c->b.placed, &c->gopt, &c->eopt, c->cache, d, NULL, 0);
    if (st == DST_INVALID_INPUT || st == DST_FAILED || !isfinite(d->distance)) {
        c->failed = 1;
        return 0;
    }
    c->dev_max = fmax(c->dev_max, c->a.dev * c->a.reach + c->b.dev * c->b.reach);
    if (d->distance < c->best.distance) {
        c->best = *d;
        c->s_best = s;
    }
    return 1;
}

/* Support value h_K(v) = max_{l in K} v.l of the whole shape (core plus margin) in body
 * coordinates, v any length (eq. M5). */
static double support_value(Side *sd, const double v[3])
{
    double p[3];
    sd->hint = dst_convex_core_support(&sd->local, v, sd->hint, p);
    return dst_dot3(v, p) + sd->local.margin * sqrt(dst_dot3(v, v));
}

/* eq. (M5): gap of the polynomial shapes at the last evaluation's s along unit n,
 * g_n = n.x_a - h_a(-R_a^T n) - n.x_b - h_b(R_b^T n) <= d(A(s), B(s)), widened. */
static double gap_along_n(MCtx *c, const double n[3])
{
    const double *Ra = c->a.R, *Rb = c->b.R;
    double va[3], vb[3], g;
    for (int j = 0; j < 3; ++j) {
        va[j] = -(Ra[j] * n[0] + Ra[3 + j] * n[1] + Ra[6 + j] * n[2]);
        vb[j] = Rb[j] * n[0] + Rb[3 + j] * n[1] + Rb[6 + j] * n[2];
    }
    g = dst_dot3(n, c->a.x) - support_value(&c->a, va) - dst_dot3(n, c->b.x) - support_value(&c->b, vb);
    return g - DST_ROUND_REL * (c->a.mag + c->b.mag);
}

/* eq. (M6) for one side over [u0, u1]: lo <= n.x'(sigma) <= hi and rho >= |R'(sigma)^T n|,
 * from the Bernstein coefficients on [0, 1] (linear in n, computed once per query) restricted
 * by de Casteljau; widened for the conversion and the projection. |n| = 1. */
static void side_rates_along(const Side *sd, const double n[3], double u0, double u1, double *lo, double *hi,
                             double *rho)
{
    const double an = fabs(n[0]) + fabs(n[1]) + fabs(n[2]);
    *lo = *hi = *rho = 0.0;
    if (sd->mx >= 0) {
        double p[DST_MAX_DEGREE + 1], mn, mx;
        for (int k = 0; k <= sd->mx; ++k) p[k] = n[0] * sd->bx[0][k] + n[1] * sd->bx[1][k] + n[2] * sd->bx[2][k];
        dst_bernstein_subdivide(sd->mx, p, u0, u1, p);
        mn = mx = p[0];
        for (int k = 1; k <= sd->mx; ++k) mn = dst_mind(mn, p[k]), mx = dst_maxd(mx, p[k]);
        *lo = mn - 2.0 * DST_ROUND_REL * sd->magx * an;
        *hi = mx + 2.0 * DST_ROUND_REL * sd->magx * an;
    }
    if (sd->mr >= 0) {
        double q[3][DST_MAX_DEGREE + 1], best = 0.0;
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k <= sd->mr; ++k) {
                q[j][k] = n[0] * sd->bR[j][k] + n[1] * sd->bR[3 + j][k] + n[2] * sd->bR[6 + j][k];
            }
            dst_bernstein_subdivide(sd->mr, q[j], u0, u1, q[j]);
        }
        for (int k = 0; k <= sd->mr; ++k) best = dst_maxd(best, q[0][k] * q[0][k] + q[1][k] * q[1][k] + q[2][k] * q[2][k]);
        *rho = sqrt(best) * (1.0 + DST_ROUND_REL) + 2.0 * DST_ROUND_REL * sd->magR * an;
    }
}

/* eq. (M6): how fast the gap along n can fall over [u0, u1], per unit s */
static double gap_fall_rate(const MCtx *c, const double n[3], double u0, double u1)
{
    double lo_a, hi_a, rho_a, lo_b, hi_b, rho_b, mu;
    side_rates_along(&c->a, n, u0, u1, &lo_a, &hi_a, &rho_a);
    side_rates_along(&c->b, n, u0, u1, &lo_b, &hi_b, &rho_b);
    mu = hi_b - lo_a + c->a.reach * rho_a + c->b.reach * rho_b;
    return mu > 0.0 ? mu * (1.0 + DST_ROUND_REL) : 0.0;
}

/* eq. (M7) for one side: the largest speed |x'(sigma) + R'(sigma) l| over [u0, u1] and
 * |l| <= r, from the vector / matrix Bernstein coefficients (as dst_moving_frame_speed_bound,
 * with the conversion done once per query) */
static double side_speed(const Side *sd, double u0, double u1)
{
    double v = 0.0, w = 0.0;
    if (sd->mx >= 0) {
        double p[3][DST_MAX_DEGREE + 1], best = 0.0;
        for (int i = 0; i < 3; ++i) dst_bernstein_subdivide(sd->mx, sd->bx[i], u0, u1, p[i]);
        for (int k = 0; k <= sd->mx; ++k) best = dst_maxd(best, p[0][k] * p[0][k] + p[1][k] * p[1][k] + p[2][k] * p[2][k]);
        v = sqrt(best) * (1.0 + DST_ROUND_REL) + 2.0 * DST_ROUND_REL * sd->magx;
    }
    if (sd->mr >= 0 && sd->reach > 0.0) {
        double q[9][DST_MAX_DEGREE + 1], best = 0.0;
        for (int e = 0; e < 9; ++e) dst_bernstein_subdivide(sd->mr, sd->bR[e], u0, u1, q[e]);
        for (int k = 0; k <= sd->mr; ++k) {
            double f = 0.0;
            for (int e = 0; e < 9; ++e) f += q[e][k] * q[e][k];
            best = dst_maxd(best, f);
        }
        w = (sqrt(best) * (1.0 + DST_ROUND_REL) + 2.0 * DST_ROUND_REL * sd->magR) * sd->reach;
    }
    return (v + w) * (1.0 + DST_ROUND_REL);
}

/* eq. (M7): direction-free bound of |d/ds d(A(s), B(s))| over [u0, u1] */
static double free_rate(const MCtx *c, double u0, double u1)
{
    return (side_speed(&c->a, u0, u1) + side_speed(&c->b, u0, u1)) * (1.0 + DST_ROUND_REL);
}

/* eq. (M7): lower bound of d(A(s), B(s)) from the static bracket of the last evaluation */
static double point_lower(const MCtx *c, const DstConvexDistance *d)
{
    double dev = (c->a.dev * c->a.reach + c->b.dev * c->b.reach) * (1.0 + DST_ROUND_REL);
    return fmin(d->lower, d->distance) - dev - DST_ROUND_REL * (c->a.mag + c->b.mag + fabs(d->lower));
}

/* eq. (M8): the longer of the two safe steps toward the level (either bound may be used) */
static double step_length(double g_n, double mu_n, double g_f, double mu_f, double level)
{
    double h_n = mu_n > 0.0 ? (g_n - level) / mu_n : (g_n > level ? HUGE_VAL : 0.0);
    double h_f = mu_f > 0.0 ? (g_f - level) / mu_f : (g_f > level ? HUGE_VAL : 0.0);
    return fmax(h_n, h_f);
}

/* Golden-section search on [lo, hi] (thesis sec. III.B) with end values flo, fhi, down to
 * width tau_s, or until both ends lie within `flat` of the middle value (as the capsule
 * hybrid's search, DST_HYBRID_GSS_FLAT_FRACTION: the certificate comes from the walk). Only
 * narrows: m_eval keeps the best. 0 on failure. */
static int m_gss(MCtx *c, double lo, double hi, double flo, double fhi, double tau_s, double flat, int max_iter)
{
    const double golden = 0.5 * (3.0 - sqrt(5.0));
    DstConvexDistance d;
    double sb = lo + golden * (hi - lo), fb;
    if (!m_eval(c, sb, &d)) return 0;
    fb = d.distance;
    for (int it = 0; it < max_iter && hi - lo > tau_s && c->evals < c->budget; ++it) {
        double sx;
        if (flo - fb <= flat && fhi - fb <= flat) break;
        /* probe the larger part of the bracket */
        sx = sb - lo > hi - sb ? sb - golden * (sb - lo) : sb + golden * (hi - sb);
        if (!m_eval(c, sx, &d)) return 0;
        if (d.distance < fb) {
            if (sx < sb) hi = sb, fhi = fb;
            else lo = sb, flo = fb;
            sb = sx;
            fb = d.distance;
        } else {
            if (sx < sb) lo = sx, flo = d.distance;
            else hi = sx, fhi = d.distance;
        }
    }
    return 1;
}

/* A point found well below the level during the walk lies on a slope down to another local
 * minimum: expand forward from s (value f) by doubling steps while the value falls, then
 * golden-section search in the last bracket (a heuristic: it only lowers `upper`, the
 * certificate comes from the walk). 0 on failure. */
static int m_descend(MCtx *c, double s, double f, double h0, double tau_s, double flat, int max_iter)
{
    DstConvexDistance d;
    double prev2 = s, f2 = f, prev = s, fprev = f, x = fmin(1.0, s + h0), step = h0, fx = HUGE_VAL;
    for (int it = 0; it < max_iter && c->evals < c->budget; ++it) {
        if (!m_eval(c, x, &d)) return 0;
        fx = d.distance;
        if (!(d.distance < fprev) || x >= 1.0) break;
        prev2 = prev, f2 = fprev, prev = x, fprev = d.distance;
        step *= 2.0;
        x = fmin(1.0, x + step);
    }
    if (x > prev2) return m_gss(c, prev2, x, f2, fx, tau_s, flat, max_iter);
    return 1;
}

/* The Bernstein coefficients on [0, 1] of a side's velocity polynomials x'(s), R'(s). */
static void side_bernstein(Side *sd)
{
    const DstMovingFrame *f = &sd->m->frame;
    double a[DST_MAX_DEGREE + 1];
    sd->mx = f->origin.degree - 1;
    sd->mr = f->degree - 1;
    sd->magx = sd->magR = 0.0;
    for (int i = 0; i < 3 && sd->mx >= 0; ++i) {
        for (int k = 0; k <= sd->mx; ++k) {
            a[k] = (k + 1) * f->origin.c[k + 1][i];
            sd->magx += fabs(a[k]);
        }
        dst_bernstein_from_monomial(sd->mx, a, sd->bx[i]);
    }
    for (int e = 0; e < 9 && sd->mr >= 0; ++e) {
        for (int k = 0; k <= sd->mr; ++k) {
            a[k] = (k + 1) * f->R[k + 1][e];
            sd->magR += fabs(a[k]);
        }
        dst_bernstein_from_monomial(sd->mr, a, sd->bR[e]);
    }
}

/* Validation and the per-side set-up shared by both methods. */
static DstStatus m_setup(MCtx *c, const DstMovingConvex *a, const DstMovingConvex *b, double t0, double t1,
                         const DstMcdOptions *o, DstGjkCache *cache, DstGjkCache *local_cache, DstMcdResult *out)
{
    memset(out, 0, sizeof *out);
    out->status = DST_INVALID_INPUT;
    if (a == NULL || b == NULL || a->shape == NULL || b->shape == NULL ||
        dst_convex_validate(a->shape, NULL, 0) != DST_OK || dst_convex_validate(b->shape, NULL, 0) != DST_OK ||
        dst_moving_frame_validate(&a->frame) != DST_OK || dst_moving_frame_validate(&b->frame) != DST_OK ||
        !isfinite(t0) || !isfinite(t1) || t1 < t0 || !(o->eps > 0.0) || !isfinite(o->eps) ||
        !(o->tau > 0.0) || o->max_iter < 1) {
        return DST_INVALID_INPUT;
    }
    memset(c, 0, sizeof *c);
    c->a.m = a, c->b.m = b;
    c->a.local = c->a.placed = *a->shape;
    c->b.local = c->b.placed = *b->shape;
    dst_convex_set_pose(&c->a.local, NULL, NULL);
    dst_convex_set_pose(&c->b.local, NULL, NULL);
    c->a.reach = dst_convex_reach(a->shape);
    c->b.reach = dst_convex_reach(b->shape);
    if (!isfinite(c->a.reach) || !isfinite(c->b.reach) || c->a.reach > DST_CONVEX_MAX_COORD ||
        c->b.reach > DST_CONVEX_MAX_COORD) {
        return DST_INVALID_INPUT;
    }
    c->a.enclosure = dst_moving_frame_enclosure(&a->frame, c->a.reach);
    c->b.enclosure = dst_moving_frame_enclosure(&b->frame, c->b.reach);
    c->a.mag = frame_magnitude(&a->frame, c->a.reach);
    c->b.mag = frame_magnitude(&b->frame, c->b.reach);
    c->a.hint = c->b.hint = -1;
    side_bernstein(&c->a);
    side_bernstein(&c->b);
    if (cache == NULL) {
        dst_gjk_cache_reset(local_cache);
        cache = local_cache;
    }
    c->cache = cache;
    c->gopt = dst_gjk_options_default();
    c->eopt = dst_epa_options_default();
    c->best.distance = HUGE_VAL;
    c->budget = 4 * o->max_iter + 64;
    return DST_OK;
}

/* The result from the best evaluation and the certified lower bound of the polynomial shapes
 * (eq. M2, M10); status as the header states. */
static DstStatus m_finish(MCtx *c, double lower_poly, int capped, double eps, double t0, double t1, int steps,
                          DstMcdResult *out)
{
    double enclosure = c->a.enclosure + c->b.enclosure, lower;
    out->distance_evals = c->evals;
    out->advance_steps = steps;
    if (c->failed || !isfinite(c->best.distance)) {
        memset(out, 0, sizeof *out);
        out->distance_evals = c->evals;
        out->advance_steps = steps;
        out->status = DST_FAILED;
        return out->status;
    }
    lower = lower_poly - enclosure;
    lower -= DST_ROUND_REL * (fabs(lower) + enclosure);
    out->upper = c->best.distance;
    out->lower = fmin(lower, out->upper);
    out->t_min = t0 + c->s_best * (t1 - t0);
    if (out->t_min > t1) out->t_min = t1;
    memcpy(out->pA, c->best.point_a, sizeof out->pA);
    memcpy(out->pB, c->best.point_b, sizeof out->pB);
    memcpy(out->n, c->best.normal, sizeof out->n);
    memcpy(out->cA, c->best.point_a, sizeof out->cA);
    memcpy(out->cB, c->best.point_b, sizeof out->cB);
    if (out->upper - out->lower <= eps) out->status = DST_CERTIFIED;
    else if (capped) out->status = DST_ITER_LIMIT;
    else out->status = DST_NOT_CERTIFIED;
    return out->status;
}

/* MCD of two moving convex shapes: GSS proposes the minimum (sec. III.B), a forward
 * conservative advancement toward the falling level L = upper - eta certifies it (eq. 3.4
 * generalised by eq. M5-M9), a point found far below the level starts a local descent. */
DstStatus dst_convex_mcd(const DstMovingConvex *a, const DstMovingConvex *b, double t0, double t1,
                         const DstMcdOptions *opt_in, DstGjkCache *cache, DstMcdResult *out)
{
    DstMcdOptions o = opt_in != NULL ? *opt_in : dst_mcd_options_default();
    DstGjkCache local_cache;
    MCtx c;
    DstConvexDistance d;
    double span = t1 - t0, tau_s, enclosure, eta, level, s = 0.0, window = 1.0, last_h, lower = HUGE_VAL;
    int steps = 0, capped = 0, paced = 0;
    if (out == NULL) return DST_INVALID_INPUT;
    if (m_setup(&c, a, b, t0, t1, &o, cache, &local_cache, out) != DST_OK) return out->status;
    enclosure = c.a.enclosure + c.b.enclosure;
    tau_s = span > 0.0 ? fmin(1.0, o.tau / span) : 1.0;

    /* the single instant: the point bounds of eq. (M5) and (M7) at s = 0 */
    if (!m_eval(&c, 0.0, &d)) return m_finish(&c, 0.0, 0, o.eps, t0, t1, 0, out);
    if (span == 0.0) {
        double n[3] = {d.normal[0], d.normal[1], d.normal[2]}, g = point_lower(&c, &d);
        if (dst_dot3(n, n) > 0.5) g = fmax(g, gap_along_n(&c, n));
        return m_finish(&c, g, 0, o.eps, t0, t1, 0, out);
    }

    /* golden-section search over [0, 1] for a candidate minimum (sec. III.B), unless the
     * whole motion moves the distance by less than eps (then one step certifies it) */
    if (free_rate(&c, 0.0, 1.0) > 0.5 * o.eps) {
        double f0 = c.best.distance;
        if (!m_eval(&c, 1.0, &d) ||
            !m_gss(&c, 0.0, 1.0, f0, d.distance, tau_s, DST_HYBRID_GSS_FLAT_FRACTION * o.eps, o.max_iter)) {
            return m_finish(&c, 0.0, 0, o.eps, t0, t1, 0, out);
        }
    }

    /* eq. (M9): the walk's margin below upper; rounding, GJK gaps and orthonormalisation seen
     * so far are kept out of it so that the gap along n stays above the level */
    eta = o.eps * (1.0 - 1e-6) - enclosure - 2.0 * c.dev_max;
    if (eta < DST_CONVEX_MCD_MIN_EPS_FRACTION * o.eps) eta = DST_CONVEX_MCD_MIN_EPS_FRACTION * o.eps;
    if (enclosure >= o.eps) {
        /* no certificate is possible (the enclosures alone fill eps): a margin above the
         * orthonormalisation deviation keeps the steps from crawling where the polynomial
         * shapes come closer than the nominal ones */
        eta = fmax(eta, 4.0 * c.dev_max);
    }
    level = c.best.distance - eta;
    last_h = tau_s;

    /* conservative advancement from s = 0 to 1 (eq. M8): each step certifies
     * d(A, B) >= level on [s, s + h]; the level only falls, so earlier steps stay valid */
    while (s < 1.0) {
        double n[3], g_n, g_f, u1, mu_n, mu_f, h;
        if (steps >= o.max_iter || c.evals >= c.budget) {
            capped = 1;
            break;
        }
        ++steps;
        if (!m_eval(&c, s, &d)) return m_finish(&c, 0.0, 0, o.eps, t0, t1, steps, out);
        memcpy(n, d.normal, sizeof n);
        if (!(dst_dot3(n, n) > 0.5)) n[0] = 1.0, n[1] = 0.0, n[2] = 0.0;
        g_n = gap_along_n(&c, n);
        g_f = point_lower(&c, &d);
        /* a value well below the level: a lower minimum lies ahead, find it first */
        if (d.distance < level + DST_CONVEX_MCD_DESCENT_FRACTION * eta) {
            if (!m_descend(&c, s, d.distance, fmax(tau_s, last_h), tau_s, DST_HYBRID_GSS_FLAT_FRACTION * o.eps,
                           o.max_iter)) {
                return m_finish(&c, 0.0, 0, o.eps, t0, t1, steps, out);
            }
        }
        level = fmin(level, c.best.distance - eta);
        /* the step of eq. (M8) with the rate bounds on the window [s, u1]; the direction-free
         * bound only where it can win (its point bound above the gap along n) */
        u1 = fmin(1.0, s + window);
        mu_n = gap_fall_rate(&c, n, s, u1);
        mu_f = g_f > g_n ? free_rate(&c, s, u1) : HUGE_VAL;
        h = step_length(g_n, mu_n, g_f, mu_f, level);
        if (h < CMCD_REFINE_FRACTION * (u1 - s)) {
            /* tighter bounds on a window just above the step (never a shorter step) */
            double u2 = fmin(u1, s + CMCD_WINDOW_GROWTH * fmax(h, 0.0) + CMCD_MIN_STEP);
            double m2 = gap_fall_rate(&c, n, s, u2), f2 = g_f > g_n ? free_rate(&c, s, u2) : HUGE_VAL;
            double h2 = step_length(g_n, m2, g_f, f2, level);
            if (h2 > h) h = h2, u1 = u2, mu_n = m2, mu_f = f2;
        }
        if (steps > DST_CONVEX_MCD_PACE_FRACTION * o.max_iter) {
            /* eq. (M9b): past this part of its step budget, a walk whose pace would not reach
             * s = 1 with the steps left (one kept in reserve) lowers its level so that the
             * even share (1 - s) / left of the rest is certified now, from the rates over
             * just that share */
            int left = o.max_iter - steps, evals_left = c.budget - c.evals;
            double share;
            if (evals_left < left) left = evals_left;
            share = (1.0 - s) / (left > 1 ? left : 1);
            if (h < share) {
                double u2 = fmin(1.0, s + share);
                double m2 = gap_fall_rate(&c, n, s, u2), f2 = g_f > g_n ? free_rate(&c, s, u2) : HUGE_VAL;
                double need = fmax(g_n - m2 * share, g_f - f2 * share);
                if (need < level) {
                    level = need;
                    paced = 1;
                }
                h = step_length(g_n, m2, g_f, f2, level);
                u1 = u2, mu_n = m2, mu_f = f2;
            }
        }
        if (!(h > CMCD_MIN_STEP)) {
            /* no progress at this level (inexact normal, large deviation): lower the level
             * below the point bounds (eq. M9); certification may be lost, rigour is not */
            level = fmin(level, fmax(g_n, g_f) - DST_CONVEX_MCD_STALL_FRACTION * eta);
            h = step_length(g_n, mu_n, g_f, mu_f, level);
            if (!(h > 0.0)) {
                capped = 1; /* not even that helps (non-finite bounds): stop with valid bounds */
                break;
            }
        }
        h = fmin(h * (1.0 - DST_ROUND_REL), u1 - s);
        /* eq. (M8): on [s, s + h] the distance stays above the better of the two bounds,
         * itself >= level; the least of these is the walk's lower bound (eq. M10) */
        lower = fmin(lower, fmax(g_n - mu_n * h, g_f - mu_f * h) - DST_ROUND_REL * (fabs(g_n) + fabs(g_f)));
        last_h = h;
        window = CMCD_WINDOW_GROWTH * h;
        s = s + h >= 1.0 ? 1.0 : s + h;
    }
    if (capped) {
        /* the rest [s, 1] from the point bounds at s and the rates over it (eq. M6-M7) */
        double n[3], g_n, g_f;
        if (!m_eval(&c, s, &d)) return m_finish(&c, 0.0, 0, o.eps, t0, t1, steps, out);
        memcpy(n, d.normal, sizeof n);
        if (!(dst_dot3(n, n) > 0.5)) n[0] = 1.0, n[1] = 0.0, n[2] = 0.0;
        g_n = gap_along_n(&c, n) - gap_fall_rate(&c, n, s, 1.0) * (1.0 - s);
        g_f = point_lower(&c, &d) - free_rate(&c, s, 1.0) * (1.0 - s);
        lower = fmin(lower, fmax(g_n, g_f));
    }
    /* a walk whose level its step budget lowered (eq. M9b) was limited by max_iter, as a
     * capped one */
    return m_finish(&c, lower, capped || paced, o.eps, t0, t1, steps, out);
}

/* eq. (4.8) between two samples: min >= min(fa, fb) - (mu - |fa - fb|)/2 */
static double lb_between(double fa, double fb, double mu)
{
    double m = fmin(fa, fb), drop = 0.5 * (mu - fabs(fa - fb));
    return (drop > 0.0 ? m - drop : m) - DST_ROUND_REL * (fabs(fa) + fabs(fb) + mu);
}

/* Certified sampling, thesis eq. (6.3) with the direction-free bound of eq. (M7). */
DstStatus dst_convex_mcd_sampling(const DstMovingConvex *a, const DstMovingConvex *b, double t0,
                                  double t1, const DstMcdOptions *opt_in, DstGjkCache *cache,
                                  DstMcdResult *out)
{
    DstMcdOptions o = opt_in != NULL ? *opt_in : dst_mcd_options_default();
    DstGjkCache local_cache;
    MCtx c;
    DstConvexDistance d;
    double target, L, want, lower = HUGE_VAL, prev = 0.0;
    int n, capped;
    if (out == NULL) return DST_INVALID_INPUT;
    if (m_setup(&c, a, b, t0, t1, &o, cache, &local_cache, out) != DST_OK) return out->status;
    if (o.max_samples < 2) return out->status = DST_INVALID_INPUT;
    target = DST_SAMPLING_EPS_FRACTION * o.eps - c.a.enclosure - c.b.enclosure;
    if (target < DST_CONVEX_MCD_MIN_EPS_FRACTION * o.eps) target = DST_CONVEX_MCD_MIN_EPS_FRACTION * o.eps;
    L = free_rate(&c, 0.0, 1.0);
    want = t1 > t0 ? ceil(L / target) + 1.0 : 1.0;
    capped = want > (double)o.max_samples;
    n = capped ? o.max_samples : (int)want;
    c.budget = n + 1;
    for (int k = 0; k < n; ++k) {
        double s = n > 1 ? (double)k / (n - 1) : 0.0, f, nn[3];
        if (!m_eval(&c, s, &d)) return m_finish(&c, 0.0, 0, o.eps, t0, t1, 0, out);
        memcpy(nn, d.normal, sizeof nn);
        f = point_lower(&c, &d);
        if (dst_dot3(nn, nn) > 0.5) f = fmax(f, gap_along_n(&c, nn));
        lower = k == 0 ? f : fmin(lower, lb_between(prev, f, L / (n - 1)));
        prev = f;
    }
    return m_finish(&c, lower, capped, o.eps, t0, t1, 0, out);
}
