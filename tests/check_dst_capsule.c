/* check_dst_capsule.c — tests of distance/dst_capsule.c: the static signed capsule
 * distance (thesis eq. 3.1) against an independent brute-force reference, the hard
 * cases, witness/normal consistency, the gradient formula the planner relies on, and
 * bad input. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "dst_capsule.h"
#include "dst_capsule_testgen.h"

/* random pairs compared with the brute force (issue 3 asks for >= 100k; fewer under ASan) */
#define CAPS_RANDOM_PAIRS (TG_ASAN ? 20000 : 100000)
/* agreement with the brute force, relative to the coordinate scale */
#define CAPS_REF_REL_TOL 1e-9
/* exact-answer hard cases, relative to the scale */
#define CAPS_EXACT_REL_TOL 1e-12
/* segment parameters of the hard cases, dimensionless */
#define CAPS_PARAM_TOL 1e-9
/* unit-length check of normals */
#define CAPS_UNIT_TOL 1e-12
/* central finite differences: step (relative to scale) and tolerance on the gradient */
#define CAPS_FD_STEP 1e-6
#define CAPS_FD_TOL 1e-6

/* ---- independent reference: squared distance minimised over the parameter square ---- */

static double ref_sq(const DstCapsule *a, const DstCapsule *b, double s, double t)
{
    double q = 0.0;
    for (int i = 0; i < 3; ++i) {
        double x = a->p0[i] + s * (a->p1[i] - a->p0[i]) - b->p0[i] - t * (b->p1[i] - b->p0[i]);
        q += x * x;
    }
    return q;
}

/* the t in [0,1] minimising |P - Q(t)|^2 for a fixed point P (0 if Q is a point) */
static double ref_project(const double P[3], const double q0[3], const double q1[3])
{
    double d[3], w[3], dd = 0.0, wd = 0.0;
    for (int i = 0; i < 3; ++i) {
        d[i] = q1[i] - q0[i];
        w[i] = P[i] - q0[i];
        dd += d[i] * d[i];
        wd += w[i] * d[i];
    }
    if (dd <= 0.0) return 0.0;
    double t = wd / dd;
    return t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
}

/* zooming 9x9 grid search, then alternating exact one-variable minimisation; the least
 * segment distance found (the function is convex on the square) */
static double ref_segment_distance(const DstCapsule *a, const DstCapsule *b)
{
    double s_lo = 0.0, s_hi = 1.0, t_lo = 0.0, t_hi = 1.0;
    double best = INFINITY, bs = 0.0, bt = 0.0;
    for (int level = 0; level < 30; ++level) {
        double ds = (s_hi - s_lo) / 8.0, dt = (t_hi - t_lo) / 8.0;
        for (int i = 0; i <= 8; ++i) {
            for (int j = 0; j <= 8; ++j) {
                double s = s_lo + i * ds, t = t_lo + j * dt;
                double q = ref_sq(a, b, s, t);
                if (q < best) best = q, bs = s, bt = t;
            }
        }
        s_lo = fmax(0.0, bs - 2.0 * ds), s_hi = fmin(1.0, bs + 2.0 * ds);
        t_lo = fmax(0.0, bt - 2.0 * dt), t_hi = fmin(1.0, bt + 2.0 * dt);
    }
    double s = bs, t = bt;
    for (int it = 0; it < 60; ++it) {
        double P[3], Q[3];
        for (int i = 0; i < 3; ++i) P[i] = a->p0[i] + s * (a->p1[i] - a->p0[i]);
        t = ref_project(P, b->p0, b->p1);
        for (int i = 0; i < 3; ++i) Q[i] = b->p0[i] + t * (b->p1[i] - b->p0[i]);
        s = ref_project(Q, a->p0, a->p1);
        best = fmin(best, ref_sq(a, b, s, t));
    }
    /* exact candidates in long double: the four end-to-segment projections and the
     * stationary point of the convex quadratic when it lies inside the square */
    long double A0[3], A1[3], B0[3], B1[3], d1[3], d2[3], r[3];
    for (int i = 0; i < 3; ++i) {
        A0[i] = a->p0[i], A1[i] = a->p1[i], B0[i] = b->p0[i], B1[i] = b->p1[i];
        d1[i] = A1[i] - A0[i], d2[i] = B1[i] - B0[i], r[i] = A0[i] - B0[i];
    }
    long double aa = 0, ee = 0, bb = 0, cc = 0, ff = 0;
    for (int i = 0; i < 3; ++i) {
        aa += d1[i] * d1[i], ee += d2[i] * d2[i], bb += d1[i] * d2[i];
        cc += d1[i] * r[i], ff += d2[i] * r[i];
    }
    long double cand[6][2];
    int nc = 0;
    /* s = 0, 1 with t projected; t = 0, 1 with s projected */
    for (int e = 0; e < 2; ++e) {
        long double t = ee > 0 ? (ff + e * bb) / ee : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        cand[nc][0] = e, cand[nc][1] = t, ++nc;
        long double s2 = aa > 0 ? (e * bb - cc) / aa : 0;
        s2 = s2 < 0 ? 0 : (s2 > 1 ? 1 : s2);
        cand[nc][0] = s2, cand[nc][1] = e, ++nc;
    }
    long double den = aa * ee - bb * bb;
    if (den > 0) {
        long double s2 = (bb * ff - cc * ee) / den, t = (aa * ff - bb * cc) / den;
        if (s2 >= 0 && s2 <= 1 && t >= 0 && t <= 1) cand[nc][0] = s2, cand[nc][1] = t, ++nc;
    }
    long double lbest = best;
    for (int k = 0; k < nc; ++k) {
        long double q = 0;
        for (int i = 0; i < 3; ++i) {
            long double x = A0[i] + cand[k][0] * d1[i] - B0[i] - cand[k][1] * d2[i];
            q += x * x;
        }
        if (q < lbest) lbest = q;
    }
    return (double)sqrtl(lbest);
}

static double caps_scale(const DstCapsule *a, const DstCapsule *b)
{
    double m = 0.0;
    for (int i = 0; i < 3; ++i) {
        m = fmax(m, fmax(fmax(fabs(a->p0[i]), fabs(a->p1[i])), fmax(fabs(b->p0[i]), fabs(b->p1[i]))));
    }
    return fmax(m, fmax(a->radius, b->radius));
}

/* every output field finite, consistent with the others */
static void check_consistent(const DstCapsule *a, const DstCapsule *b, const DstCapsuleDistance *d)
{
    double sc = caps_scale(a, b);
    const double *f = &d->distance;
    /* all doubles of the struct after the status are finite */
    for (size_t k = 0; k < (sizeof *d - offsetof(DstCapsuleDistance, distance)) / sizeof(double); ++k) {
        ck_assert_msg(isfinite(f[k]), "non-finite output field %zu", k);
    }
    ck_assert(d->sA >= 0.0 && d->sA <= 1.0);
    ck_assert(d->sB >= 0.0 && d->sB <= 1.0);
    double nn = sqrt(d->n[0] * d->n[0] + d->n[1] * d->n[1] + d->n[2] * d->n[2]);
    ck_assert_msg(fabs(nn - 1.0) <= CAPS_UNIT_TOL, "normal length %.17g", nn);
    double w2 = 0.0;
    for (int i = 0; i < 3; ++i) {
        double ca = a->p0[i] + d->sA * (a->p1[i] - a->p0[i]);
        double cb = b->p0[i] + d->sB * (b->p1[i] - b->p0[i]);
        ck_assert(fabs(ca - d->cA[i]) <= CAPS_EXACT_REL_TOL * sc);
        ck_assert(fabs(cb - d->cB[i]) <= CAPS_EXACT_REL_TOL * sc);
        ck_assert(fabs(d->pA[i] - (d->cA[i] - a->radius * d->n[i])) <= CAPS_EXACT_REL_TOL * sc);
        ck_assert(fabs(d->pB[i] - (d->cB[i] + b->radius * d->n[i])) <= CAPS_EXACT_REL_TOL * sc);
        w2 += (d->cA[i] - d->cB[i]) * (d->cA[i] - d->cB[i]);
    }
    ck_assert(fabs(sqrt(w2) - a->radius - b->radius - d->distance) <= CAPS_EXACT_REL_TOL * sc);
    ck_assert(d->lower <= d->distance);
    /* n points from B to A: (cA - cB) . n = |cA - cB| */
    double proj = 0.0;
    for (int i = 0; i < 3; ++i) proj += (d->cA[i] - d->cB[i]) * d->n[i];
    ck_assert(fabs(proj - sqrt(w2)) <= CAPS_REF_REL_TOL * sc);
}

static void random_capsule(TgRng *r, double scale, DstCapsule *c)
{
    for (int i = 0; i < 3; ++i) {
        c->p0[i] = tg_uniform(r, -scale, scale);
        c->p1[i] = tg_uniform(r, -scale, scale);
    }
    c->radius = tg_uniform(r, 0.01, 0.5) * scale;
}

START_TEST(test_random_pairs_vs_brute_force)
{
    TgRng r = {12345};
    double worst = 0.0;
    for (int k = 0; k < CAPS_RANDOM_PAIRS; ++k) {
        double scale = pow(10.0, tg_uniform(&r, -3.0, 3.0));
        DstCapsule a, b;
        random_capsule(&r, scale, &a);
        random_capsule(&r, scale, &b);
        /* some pairs with a common offset far from the origin */
        if (k % 7 == 0) {
            double off = tg_uniform(&r, -100.0, 100.0) * scale;
            for (int i = 0; i < 3; ++i) a.p0[i] += off, a.p1[i] += off, b.p0[i] += off, b.p1[i] += off;
        }
        DstCapsuleDistance d;
        DstStatus st = dst_capsule_distance(&a, &b, &d);
        ck_assert(st == DST_SEPARATED || st == DST_TOUCHING || st == DST_PENETRATING);
        check_consistent(&a, &b, &d);
        double ref = ref_segment_distance(&a, &b) - a.radius - b.radius;
        double sc = caps_scale(&a, &b);
        double err = fabs(d.distance - ref) / sc;
        worst = fmax(worst, err);
        ck_assert_msg(err <= CAPS_REF_REL_TOL, "pair %d: distance %.17g reference %.17g", k, d.distance, ref);
        ck_assert_msg(d.lower <= ref, "pair %d: lower %.17g above reference %.17g", k, d.lower, ref);
    }
    ck_assert(worst <= CAPS_REF_REL_TOL);
}
END_TEST

/* near-parallel, tiny and far-away segments: the awkward random ones */
START_TEST(test_random_awkward_vs_brute_force)
{
    TgRng r = {777};
    for (int k = 0; k < CAPS_RANDOM_PAIRS / 10; ++k) {
        double scale = pow(10.0, tg_uniform(&r, -3.0, 3.0));
        DstCapsule a, b;
        random_capsule(&r, scale, &a);
        double dir[3], off[3];
        tg_unit(&r, dir);
        tg_unit(&r, off);
        double tilt = pow(10.0, tg_uniform(&r, -12.0, -2.0));
        double la = tg_uniform(&r, 0.0, 2.0) * scale, lb = tg_uniform(&r, 0.0, 2.0) * scale;
        int kind = k % 4;
        if (kind == 3) la = pow(10.0, tg_uniform(&r, -12.0, -6.0)) * scale; /* nearly a point */
        for (int i = 0; i < 3; ++i) {
            a.p1[i] = a.p0[i] + la * dir[i];
            double bdir = dir[i] + tilt * off[i];
            b.p0[i] = a.p0[i] + tg_uniform(&r, -1.0, 1.0) * scale;
            b.p1[i] = b.p0[i] + (kind == 1 ? -lb : lb) * bdir;
        }
        if (kind == 2) {
            /* collinear with a tiny lateral offset */
            double t = tg_uniform(&r, -1.0, 1.5);
            for (int i = 0; i < 3; ++i) {
                b.p0[i] = a.p0[i] + t * la * dir[i] + tilt * scale * off[i];
                b.p1[i] = b.p0[i] + lb * dir[i];
            }
        }
        b.radius = tg_uniform(&r, 0.01, 0.5) * scale;
        DstCapsuleDistance d;
        dst_capsule_distance(&a, &b, &d);
        check_consistent(&a, &b, &d);
        double ref = ref_segment_distance(&a, &b) - a.radius - b.radius;
        double sc = caps_scale(&a, &b);
        ck_assert_msg(fabs(d.distance - ref) <= CAPS_REF_REL_TOL * sc, "awkward pair %d (kind %d): %.17g vs %.17g",
                      k, kind, d.distance, ref);
        ck_assert(d.lower <= ref);
    }
}
END_TEST

/* the exact degenerate configurations the fast kernel sends down its out-of-line paths
 * (issue 20): exactly parallel and antiparallel, collinear, zero-length segments, one or two
 * points, segments that cross exactly (closest points coincide: the fallback normal) and
 * capsules that touch. The certified lower bound is checked both ways: never above the
 * reference, and tight (the bound [4] is an equality at the exact closest points). */
START_TEST(test_random_degenerate_vs_brute_force)
{
    TgRng r = {4242};
    int touching = 0;
    for (int k = 0; k < CAPS_RANDOM_PAIRS / 10; ++k) {
        double scale = pow(10.0, tg_uniform(&r, -3.0, 3.0));
        DstCapsule a, b;
        random_capsule(&r, scale, &a);
        random_capsule(&r, scale, &b);
        double dir[3], off[3];
        tg_unit(&r, dir);
        tg_unit(&r, off);
        double la = tg_uniform(&r, 0.1, 2.0) * scale, lb = tg_uniform(&r, 0.1, 2.0) * scale;
        int kind = k % 7;
        for (int i = 0; i < 3; ++i) {
            if (kind <= 2) {
                /* 0: parallel, 1: antiparallel, 2: collinear; the same direction vector */
                double sh = kind == 2 ? 0.0 : tg_uniform(&r, -1.0, 1.0) * scale;
                a.p1[i] = a.p0[i] + la * dir[i];
                b.p0[i] = a.p0[i] + tg_uniform(&r, -0.5, 1.5) * la * dir[i] + sh * off[i];
                b.p1[i] = b.p0[i] + (kind == 1 ? -lb : lb) * dir[i];
            } else if (kind == 3) {
                a.p1[i] = a.p0[i]; /* A is a point */
            } else if (kind == 4) {
                a.p1[i] = a.p0[i]; /* two points */
                b.p1[i] = b.p0[i];
            }
        }
        if (kind == 2) {
            /* collinear: B exactly on A's line (coordinates rounded, so up to rounding) */
            double t0 = tg_uniform(&r, -0.5, 1.5);
            for (int i = 0; i < 3; ++i) {
                b.p0[i] = a.p0[i] + t0 * (a.p1[i] - a.p0[i]);
                b.p1[i] = b.p0[i] + lb * dir[i];
            }
        }
        if (kind == 5) {
            /* B crosses A: its segment passes through a point of A */
            double sA = tg_uniform(&r, 0.0, 1.0), sB = tg_uniform(&r, 0.0, 1.0);
            for (int i = 0; i < 3; ++i) {
                double x = a.p0[i] + sA * (a.p1[i] - a.p0[i]);
                b.p0[i] = x - sB * lb * off[i];
                b.p1[i] = x + (1.0 - sB) * lb * off[i];
            }
        }
        double seg = ref_segment_distance(&a, &b);
        if (kind == 6 && seg > 0.0) {
            /* touching: radii that add up to the segment distance */
            a.radius = tg_uniform(&r, 0.2, 0.8) * seg;
            b.radius = seg - a.radius;
        }
        DstCapsuleDistance d;
        DstStatus st = dst_capsule_distance(&a, &b, &d);
        ck_assert(st == DST_SEPARATED || st == DST_TOUCHING || st == DST_PENETRATING);
        check_consistent(&a, &b, &d);
        double ref = seg - a.radius - b.radius;
        double sc = caps_scale(&a, &b);
        ck_assert_msg(fabs(d.distance - ref) <= CAPS_REF_REL_TOL * sc, "degenerate pair %d (kind %d): %.17g vs %.17g",
                      k, kind, d.distance, ref);
        ck_assert_msg(d.lower <= ref, "degenerate pair %d (kind %d): lower %.17g above %.17g", k, kind, d.lower, ref);
        ck_assert_msg(d.lower >= ref - CAPS_REF_REL_TOL * sc, "degenerate pair %d (kind %d): lower %.17g, ref %.17g",
                      k, kind, d.lower, ref);
        touching += kind == 6 && st == DST_TOUCHING;
    }
    /* most touching pairs are classified so (the rest within the rounding of the reference) */
    ck_assert_int_ge(touching, CAPS_RANDOM_PAIRS / 10 / 7 / 2);
}
END_TEST

static void make_caps(DstCapsule *c, double x0, double y0, double z0, double x1, double y1, double z1, double r)
{
    c->p0[0] = x0, c->p0[1] = y0, c->p0[2] = z0;
    c->p1[0] = x1, c->p1[1] = y1, c->p1[2] = z1;
    c->radius = r;
}

/* scale a pair by f and translate it by f * (3, -2, 5) */
static void scale_pair(DstCapsule *a, DstCapsule *b, double f)
{
    const double off[3] = {3.0, -2.0, 5.0};
    for (int i = 0; i < 3; ++i) {
        a->p0[i] = f * (a->p0[i] + off[i]), a->p1[i] = f * (a->p1[i] + off[i]);
        b->p0[i] = f * (b->p0[i] + off[i]), b->p1[i] = f * (b->p1[i] + off[i]);
    }
    a->radius *= f;
    b->radius *= f;
}

typedef struct HardCase {
    const char *name;
    double a[7], b[7];     /* p0, p1, radius */
    double distance;       /* expected signed distance at scale 1 */
    double sA, sB;         /* expected parameters (< 0: not checked) */
    DstStatus status;
} HardCase;

static const HardCase hard_cases[] = {
    {"parallel overlapping", {0, 0, 0, 1, 0, 0, 0.1}, {0.5, 0.6, 0, 1.5, 0.6, 0, 0.1}, 0.4, 0.75, 0.25, DST_SEPARATED},
    {"antiparallel overlapping", {0, 0, 0, 1, 0, 0, 0.1}, {1.5, 0.6, 0, 0.5, 0.6, 0, 0.1}, 0.4, 0.75, 0.75,
     DST_SEPARATED},
    {"parallel contained", {0, 0, 0, 1, 0, 0, 0.1}, {0.2, 0, 0.5, 0.4, 0, 0.5, 0.1}, 0.3, 0.3, 0.5, DST_SEPARATED},
    {"parallel disjoint collinear", {0, 0, 0, 1, 0, 0, 0.1}, {2, 0, 0, 3, 0, 0, 0.2}, 0.7, 1.0, 0.0, DST_SEPARATED},
    {"parallel disjoint offset", {0, 0, 0, 1, 0, 0, 0.1}, {2, 1, 0, 3, 1, 0, 0.1}, 1.2142135623730951, 1.0, 0.0,
     DST_SEPARATED},
    {"crossing", {-1, 0, 0, 1, 0, 0, 0.1}, {0, -1, 0, 0, 1, 0, 0.2}, -0.3, 0.5, 0.5, DST_PENETRATING},
    {"crossing offset", {-1, 0, 0, 1, 0, 0, 0.1}, {0, -1, 0.5, 0, 1, 0.5, 0.2}, 0.2, 0.5, 0.5, DST_SEPARATED},
    {"skew end-to-interior", {0, 0, 0, 1, 0, 0, 0.1}, {2, -1, 1, 2, 1, 1, 0.1}, 1.2142135623730951, 1.0, 0.5,
     DST_SEPARATED},
    {"collinear overlapping", {0, 0, 0, 1, 0, 0, 0.1}, {0.5, 0, 0, 2, 0, 0, 0.1}, -0.2, 0.75, 1.0 / 6.0,
     DST_PENETRATING},
    {"point vs segment", {0.3, 0.4, 0, 0.3, 0.4, 0, 0.1}, {0, 0, 0, 1, 0, 0, 0.1}, 0.2, 0.0, 0.3, DST_SEPARATED},
    {"segment vs point", {0, 0, 0, 1, 0, 0, 0.1}, {1.3, 0.4, 0, 1.3, 0.4, 0, 0.1}, 0.3, 1.0, 0.0, DST_SEPARATED},
    {"point vs point", {1, 1, 1, 1, 1, 1, 0.1}, {1, 1, 2, 1, 1, 2, 0.1}, 0.8, 0.0, 0.0, DST_SEPARATED},
    {"coincident points", {1, 1, 1, 1, 1, 1, 0.1}, {1, 1, 1, 1, 1, 1, 0.3}, -0.4, 0.0, 0.0, DST_PENETRATING},
    {"touching parallel", {0, 0, 0, 1, 0, 0, 0.25}, {0, 0.5, 0, 1, 0.5, 0, 0.25}, 0.0, 0.5, 0.5, DST_TOUCHING},
    {"touching ends", {0, 0, 0, 1, 0, 0, 0.25}, {1.5, 0, 0, 1.5, 2, 0, 0.25}, 0.0, 1.0, 0.0, DST_TOUCHING},
    {"deep penetration coincident", {0, 0, 0, 1, 0, 0, 0.2}, {0, 0, 0, 1, 0, 0, 0.3}, -0.5, 0.5, 0.5,
     DST_PENETRATING},
    {"deep penetration shared end", {0, 0, 0, 1, 0, 0, 0.2}, {1, 0, 0, 1, 1, 0, 0.3}, -0.5, 1.0, 0.0,
     DST_PENETRATING},
};

START_TEST(test_hard_cases)
{
    const double scales[] = {1e-3, 1e-2, 1.0, 1e2, 1e3};
    for (size_t k = 0; k < sizeof hard_cases / sizeof hard_cases[0]; ++k) {
        const HardCase *h = &hard_cases[k];
        for (size_t si = 0; si < sizeof scales / sizeof scales[0]; ++si) {
            double f = scales[si];
            DstCapsule a, b;
            make_caps(&a, h->a[0], h->a[1], h->a[2], h->a[3], h->a[4], h->a[5], h->a[6]);
            make_caps(&b, h->b[0], h->b[1], h->b[2], h->b[3], h->b[4], h->b[5], h->b[6]);
            scale_pair(&a, &b, f);
            DstCapsuleDistance d;
            DstStatus st = dst_capsule_distance(&a, &b, &d);
            check_consistent(&a, &b, &d);
            double sc = caps_scale(&a, &b);
            ck_assert_msg(fabs(d.distance - f * h->distance) <= CAPS_EXACT_REL_TOL * sc,
                          "%s at scale %g: %.17g, want %.17g", h->name, f, d.distance, f * h->distance);
            ck_assert_msg(st == h->status, "%s at scale %g: status %s", h->name, f, dst_status_string(st));
            ck_assert(d.lower <= f * h->distance + CAPS_EXACT_REL_TOL * sc);
            ck_assert(d.lower >= -(a.radius + b.radius) * (1.0 + CAPS_EXACT_REL_TOL));
            if (h->sA >= 0.0) {
                ck_assert_msg(fabs(d.sA - h->sA) <= CAPS_PARAM_TOL, "%s: sA %.17g", h->name, d.sA);
                ck_assert_msg(fabs(d.sB - h->sB) <= CAPS_PARAM_TOL, "%s: sB %.17g", h->name, d.sB);
            }
            double ref = ref_segment_distance(&a, &b) - a.radius - b.radius;
            ck_assert(fabs(d.distance - ref) <= CAPS_REF_REL_TOL * sc);
        }
    }
}
END_TEST

/* the normal of crossing segments is the normal of their plane, from B towards A */
START_TEST(test_crossing_normal)
{
    DstCapsule a, b;
    DstCapsuleDistance d;
    make_caps(&a, -1, 0, 0.0, 1, 0, 0.0, 0.1);
    make_caps(&b, 0, -1, 0.0, 0, 1, 0.0, 0.1);
    dst_capsule_distance(&a, &b, &d);
    ck_assert(fabs(fabs(d.n[2]) - 1.0) <= CAPS_UNIT_TOL);
    /* A lifted by exactly rA + rB: touching, normal from B up to A */
    make_caps(&a, -1, 0, 0.2, 1, 0, 0.2, 0.1);
    dst_capsule_distance(&a, &b, &d);
    ck_assert(fabs(d.n[2] - 1.0) <= CAPS_UNIT_TOL); /* from B (z = 0) up to A (z = 0.2) */
    ck_assert(fabs(d.distance - 0.0) <= CAPS_EXACT_REL_TOL);
    ck_assert_int_eq(d.status, DST_TOUCHING);
}
END_TEST

/* dD/dA.p0 = (1 - sA) n, dD/dA.p1 = sA n, dD/dB.q0 = -(1 - sB) n, dD/dB.q1 = -sB n:
 * the envelope-theorem gradient the planner uses, against central finite differences */
START_TEST(test_gradient_vs_finite_differences)
{
    TgRng r = {99};
    int tested = 0;
    while (tested < 2000) {
        DstCapsule a, b;
        random_capsule(&r, 1.0, &a);
        random_capsule(&r, 1.0, &b);
        DstCapsuleDistance d;
        dst_capsule_distance(&a, &b, &d);
        if (d.distance + a.radius + b.radius < 1e-3) continue; /* gradient undefined at intersection */
        ++tested;
        double *pts[4] = {a.p0, a.p1, b.p0, b.p1};
        double w[4] = {1.0 - d.sA, d.sA, -(1.0 - d.sB), -d.sB};
        for (int p = 0; p < 4; ++p) {
            for (int i = 0; i < 3; ++i) {
                double keep = pts[p][i];
                DstCapsuleDistance dp, dm;
                pts[p][i] = keep + CAPS_FD_STEP;
                dst_capsule_distance(&a, &b, &dp);
                pts[p][i] = keep - CAPS_FD_STEP;
                dst_capsule_distance(&a, &b, &dm);
                pts[p][i] = keep;
                double fd = (dp.distance - dm.distance) / (2.0 * CAPS_FD_STEP);
                double an = w[p] * d.n[i];
                ck_assert_msg(fabs(fd - an) <= CAPS_FD_TOL, "point %d coord %d: fd %.12g analytic %.12g", p, i,
                              fd, an);
            }
        }
    }
}
END_TEST

START_TEST(test_invalid_input)
{
    DstCapsule good, bad;
    DstCapsuleDistance d;
    make_caps(&good, 0, 0, 0, 1, 0, 0, 0.1);
    const double poison[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        for (int f = 0; f < 7; ++f) {
            bad = good;
            double *fields[7] = {&bad.p0[0], &bad.p0[1], &bad.p0[2], &bad.p1[0], &bad.p1[1], &bad.p1[2], &bad.radius};
            *fields[f] = poison[k];
            ck_assert_int_eq(dst_capsule_distance(&good, &bad, &d), DST_INVALID_INPUT);
            ck_assert(isfinite(d.distance) && isfinite(d.lower) && isfinite(d.n[0]));
            ck_assert_int_eq(dst_capsule_distance(&bad, &good, &d), DST_INVALID_INPUT);
        }
    }
    bad = good;
    bad.radius = 0.0;
    ck_assert_int_eq(dst_capsule_distance(&good, &bad, &d), DST_INVALID_INPUT);
    bad.radius = -0.1;
    ck_assert_int_eq(dst_capsule_distance(&bad, &good, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(d.status, DST_INVALID_INPUT);
}
END_TEST

Suite *dst_capsule_suite(void)
{
    Suite *s = suite_create("dst_capsule");
    TCase *tc = tcase_create("random_vs_brute_force");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_random_pairs_vs_brute_force);
    tcase_add_test(tc, test_random_awkward_vs_brute_force);
    tcase_add_test(tc, test_random_degenerate_vs_brute_force);
    suite_add_tcase(s, tc);
    tc = tcase_create("hard_cases");
    tcase_add_test(tc, test_hard_cases);
    tcase_add_test(tc, test_crossing_normal);
    suite_add_tcase(s, tc);
    tc = tcase_create("gradient");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gradient_vs_finite_differences);
    suite_add_tcase(s, tc);
    tc = tcase_create("invalid_input");
    tcase_add_test(tc, test_invalid_input);
    suite_add_tcase(s, tc);
    return s;
}
