/* dst_convex_mcd.c — MCD of a moving capsule against a static convex shape (a box, a hull,
 * any dst_convex shape): golden-section search proposes the minimum (thesis sec. III.B),
 * conservative advancement along separating directions certifies it (sec. III.C-D,
 * eq. 3.3-3.4). Derivation: docs/math/capsule_mcd.md sec. "Static convex obstacles". */
#include "dst_convex_mcd.h"

#include <math.h>
#include <string.h>

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
