/* pln_capfit.c — the enclosing capsule of a point set (docs/math/capsule_fit.md, eq. CF1-CF5).
 *
 * For a unit axis u, with (x_i, y_i) the points' coordinates across u and s_i along it:
 *   CF1  the radius r >= r_min(u), the radius of the smallest circle enclosing (x_i, y_i)
 *        (Welzl's randomised incremental algorithm), centred at c;
 *   CF2  rho_i = |(x_i, y_i) - c|, h_i = sqrt(r^2 - rho_i^2): point i lies within r of the
 *        segment s in [lo, hi] on the line through c iff lo - h_i <= s_i <= hi + h_i, so
 *        the shortest segment is lo = min_i (s_i + h_i), hi = max_i (s_i - h_i) (a single
 *        point between them when lo > hi);
 *   CF3  volume V(u, r) = pi r^2 (hi - lo)+ + 4/3 pi r^3, minimised over r in
 *        [r_min, r_min + L(r_min) / 2] by a scan and golden-section refinement;
 *   CF4  u: each principal axis of the candidates' covariance (LAPACKE_dsyev), then a
 *        pattern search on the sphere of directions around the best;
 *   CF5  certification: r_out = max(r, max_i dist(p_i, segment)) (1 + PLN_CAPFIT_ROUND_REL)
 *        + PLN_CAPFIT_ROUND_M over EVERY input point, not only the candidates.
 * The candidates are the vertices of the points' convex hull (dst_hull_build) when it
 * exists; a capsule is convex, so it encloses the points iff it encloses their hull. */
#include "model/pln_capfit.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dst_convex.h"
#include "base/pln_tolerance.h"

double pln_capfit_segment_distance(const double x[3], const double p0[3], const double p1[3])
{
    double d[3], w[3], dd = 0.0, t = 0.0, r = 0.0;
    for (int c = 0; c < 3; ++c) {
        d[c] = p1[c] - p0[c];
        w[c] = x[c] - p0[c];
        dd += d[c] * d[c];
        t += w[c] * d[c];
    }
    t = dd > 0.0 ? fmin(1.0, fmax(0.0, t / dd)) : 0.0;
    for (int c = 0; c < 3; ++c) {
        double e = w[c] - t * d[c];
        r += e * e;
    }
    return sqrt(r);
}

void pln_capfit_frame(const double u[3], double e1[3], double e2[3])
{
    int m = fabs(u[0]) <= fabs(u[1]) ? (fabs(u[0]) <= fabs(u[2]) ? 0 : 2)
                                     : (fabs(u[1]) <= fabs(u[2]) ? 1 : 2);
    double n = 0.0;
    for (int k = 0; k < 3; ++k) e1[k] = (k == m ? 1.0 : 0.0) - u[m] * u[k];
    for (int k = 0; k < 3; ++k) n += e1[k] * e1[k];
    n = sqrt(n);
    for (int k = 0; k < 3; ++k) e1[k] /= n;
    e2[0] = u[1] * e1[2] - u[2] * e1[1];
    e2[1] = u[2] * e1[0] - u[0] * e1[2];
    e2[2] = u[0] * e1[1] - u[1] * e1[0];
}

typedef struct Circle { double x, y, r; } Circle;

static int outside(const Circle *c, double x, double y)
{
    double dx = x - c->x, dy = y - c->y;
    return sqrt(dx * dx + dy * dy) > c->r * (1.0 + 1e-12) + 1e-15;
}

static Circle circle2(double ax, double ay, double bx, double by)
{
    Circle c = {0.5 * (ax + bx), 0.5 * (ay + by), 0.0};
    c.r = 0.5 * hypot(ax - bx, ay - by);
    return c;
}

/* Circumcircle of three points; for (nearly) collinear ones, the circle on the farthest pair. */
static Circle circle3(double ax, double ay, double bx, double by, double cx, double cy)
{
    double bxr = bx - ax, byr = by - ay, cxr = cx - ax, cyr = cy - ay;
    double d = 2.0 * (bxr * cyr - byr * cxr);
    double b2 = bxr * bxr + byr * byr, c2 = cxr * cxr + cyr * cyr;
    Circle c;
    if (fabs(d) <= 1e-14 * (b2 + c2)) {
        Circle p = circle2(ax, ay, bx, by), q = circle2(ax, ay, cx, cy), r = circle2(bx, by, cx, cy);
        c = p;
        if (q.r > c.r) c = q;
        if (r.r > c.r) c = r;
        return c;
    }
    c.x = ax + (cyr * b2 - byr * c2) / d;
    c.y = ay + (bxr * c2 - cxr * b2) / d;
    c.r = hypot(c.x - ax, c.y - ay);
    return c;
}

/* CF1: smallest enclosing circle of xy[m][2], visited in the (shuffled) order perm. */
static Circle min_circle(const double *xy, const int *perm, int m)
{
    Circle c = {xy[2 * perm[0]], xy[2 * perm[0] + 1], 0.0};
    for (int i = 1; i < m; ++i) {
        const double *p = &xy[2 * perm[i]];
        if (!outside(&c, p[0], p[1])) continue;
        c.x = p[0];
        c.y = p[1];
        c.r = 0.0;
        for (int j = 0; j < i; ++j) {
            const double *q = &xy[2 * perm[j]];
            if (!outside(&c, q[0], q[1])) continue;
            c = circle2(p[0], p[1], q[0], q[1]);
            for (int k = 0; k < j; ++k) {
                const double *s = &xy[2 * perm[k]];
                if (outside(&c, s[0], s[1])) c = circle3(p[0], p[1], q[0], q[1], s[0], s[1]);
            }
        }
    }
    return c;
}

typedef struct Work {
    const double *pts;   /* candidates [m][3] */
    int m;
    double *xy, *s, *rho;
    int *perm;
} Work;

typedef struct Fit { double u[3], c[2], e1[3], e2[3], r, lo, hi, vol; } Fit;

/* CF2: the segment for axis frame f and radius r; returns the volume (CF3). */
static double segment_for(const Work *w, Fit *f, double r)
{
    double lo = INFINITY, hi = -INFINITY, len;
    for (int i = 0; i < w->m; ++i) {
        double h = sqrt(fmax(0.0, r * r - w->rho[i] * w->rho[i]));
        lo = fmin(lo, w->s[i] + h);
        hi = fmax(hi, w->s[i] - h);
    }
    f->r = r;
    if (lo > hi) {
        double mid = 0.5 * (lo + hi);
        f->lo = f->hi = mid;
    } else {
        f->lo = lo;
        f->hi = hi;
    }
    len = f->hi - f->lo;
    f->vol = PLN_PI * r * r * len + 4.0 / 3.0 * PLN_PI * r * r * r;
    return f->vol;
}

/* CF1-CF3 for the axis u (unit): the best radius by a scan, then (refine) golden-section
 * refinement; the axis search ranks directions by the scan alone. */
static double fit_axis(const Work *w, const double u[3], int refine, Fit *best)
{
    Fit f;
    Circle c;
    double r0, len0, a, b, x1, x2, f1, f2;
    const double g = 0.5 * (3.0 - sqrt(5.0));
    memcpy(f.u, u, sizeof f.u);
    pln_capfit_frame(u, f.e1, f.e2);
    for (int i = 0; i < w->m; ++i) {
        const double *p = &w->pts[3 * i];
        w->xy[2 * i] = p[0] * f.e1[0] + p[1] * f.e1[1] + p[2] * f.e1[2];
        w->xy[2 * i + 1] = p[0] * f.e2[0] + p[1] * f.e2[1] + p[2] * f.e2[2];
        w->s[i] = p[0] * u[0] + p[1] * u[1] + p[2] * u[2];
    }
    c = min_circle(w->xy, w->perm, w->m);
    f.c[0] = c.x;
    f.c[1] = c.y;
    r0 = 0.0;
    for (int i = 0; i < w->m; ++i) {
        w->rho[i] = hypot(w->xy[2 * i] - c.x, w->xy[2 * i + 1] - c.y);
        r0 = fmax(r0, w->rho[i]);
    }
    segment_for(w, &f, r0);
    *best = f;
    len0 = f.hi - f.lo;
    if (len0 <= 0.0) return best->vol;
    /* CF3: scan r in [r0, r0 + len0 / 2] (beyond it the sphere r0 + len0/2 encloses all),
     * then golden-section search around the best sample */
    {
        const int ns = 8;
        int kbest = 0;
        double step = 0.5 * len0 / ns;
        for (int k = 1; k <= ns; ++k) {
            Fit t = f;
            if (segment_for(w, &t, r0 + k * step) < best->vol) {
                *best = t;
                kbest = k;
            }
        }
        a = r0 + (kbest > 0 ? kbest - 1 : 0) * step;
        b = r0 + (kbest < ns ? kbest + 1 : ns) * step;
    }
    if (!refine) return best->vol;
    x1 = a + g * (b - a);
    x2 = b - g * (b - a);
    {
        Fit t1 = f, t2 = f;
        f1 = segment_for(w, &t1, x1);
        f2 = segment_for(w, &t2, x2);
        for (int it = 0; it < 25 && b - a > 1e-9 * (1.0 + b); ++it) {
            if (f1 < f2) {
                b = x2; x2 = x1; f2 = f1; t2 = t1;
                x1 = a + g * (b - a);
                f1 = segment_for(w, &t1, x1);
            } else {
                a = x1; x1 = x2; f1 = f2; t1 = t2;
                x2 = b - g * (b - a);
                f2 = segment_for(w, &t2, x2);
            }
        }
        if (t1.vol < best->vol) *best = t1;
        if (t2.vol < best->vol) *best = t2;
    }
    return best->vol;
}

static void normalize(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; ++k) v[k] /= n;
}

/* CF4: principal axes, then a pattern search on the directions around the best. */
static void search_axes(const Work *w, Fit *best)
{
    double mean[3] = {0, 0, 0}, C[9] = {0}, ev[3];
    int have = 0;
    for (int i = 0; i < w->m; ++i) {
        for (int k = 0; k < 3; ++k) mean[k] += w->pts[3 * i + k] / w->m;
    }
    for (int i = 0; i < w->m; ++i) {
        double d[3];
        for (int k = 0; k < 3; ++k) d[k] = w->pts[3 * i + k] - mean[k];
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) C[3 * a + b] += d[a] * d[b];
        }
    }
    if (LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'V', 'U', 3, C, 3, ev) != 0) {
        memset(C, 0, sizeof C);
        C[0] = C[4] = C[8] = 1.0;
    }
    for (int k = 0; k < 3; ++k) {
        double u[3] = {C[k], C[3 + k], C[6 + k]};  /* eigenvector k is column k */
        Fit f;
        if (!(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] > 0.5)) continue;
        normalize(u);
        fit_axis(w, u, 0, &f);
        if (!have || f.vol < best->vol) *best = f;
        have = 1;
    }
    if (!have) {
        const double z[3] = {0, 0, 1};
        fit_axis(w, z, 0, best);
    }
    for (double delta = 0.25; delta > 1e-4; delta *= 0.5) {
        int improved = 1;
        while (improved) {
            improved = 0;
            for (int dir = 0; dir < 8; ++dir) {
                static const double da[8] = {1, -1, 0, 0, 0.7071, -0.7071, 0.7071, -0.7071};
                static const double db[8] = {0, 0, 1, -1, 0.7071, 0.7071, -0.7071, -0.7071};
                double u[3];
                Fit f;
                for (int k = 0; k < 3; ++k) {
                    u[k] = best->u[k] + delta * (da[dir] * best->e1[k] + db[dir] * best->e2[k]);
                }
                normalize(u);
                if (fit_axis(w, u, 0, &f) < best->vol * (1.0 - 1e-12)) {
                    *best = f;
                    improved = 1;
                }
            }
        }
    }
    {
        double u[3] = {best->u[0], best->u[1], best->u[2]};
        fit_axis(w, u, 1, best);
    }
}

PlnStatus pln_capsule_fit(const double *pts, int n, PlnCapsuleFit *out, char *err,
                          size_t err_size)
{
    DstHull hull;
    Work w;
    Fit best;
    int use_hull = 0;
    double dmax = 0.0, scale = 0.0;
    PlnStatus st = PLN_OK;

    memset(out, 0, sizeof *out);
    if (pts == NULL || n < 1) return pln_errorf(PLN_ERR_INVALID, err, err_size, "capsule fit: no points");
    for (int i = 0; i < 3 * n; ++i) {
        if (!isfinite(pts[i])) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "capsule fit: point %d has a non-finite coordinate", i / 3);
        }
        scale = fmax(scale, fabs(pts[i]));
    }
    memset(&hull, 0, sizeof hull);
    if (n >= 4 && dst_hull_build(pts, n, 0.0, &hull, NULL, 0) == DST_OK) use_hull = 1;
    memset(&w, 0, sizeof w);
    w.pts = use_hull ? hull.verts : pts;
    w.m = use_hull ? hull.nverts : n;
    w.xy = malloc((size_t)w.m * 2 * sizeof *w.xy);
    w.s = malloc((size_t)w.m * sizeof *w.s);
    w.rho = malloc((size_t)w.m * sizeof *w.rho);
    w.perm = malloc((size_t)w.m * sizeof *w.perm);
    if (w.xy == NULL || w.s == NULL || w.rho == NULL || w.perm == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "capsule fit: out of memory");
        goto done;
    }
    /* a fixed shuffle (Welzl's expected linear time), deterministic: an LCG */
    {
        unsigned long long x = 0x9e3779b97f4a7c15ULL;
        for (int i = 0; i < w.m; ++i) w.perm[i] = i;
        for (int i = w.m - 1; i > 0; --i) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            int j = (int)((x >> 33) % (unsigned long long)(i + 1));
            int t = w.perm[i];
            w.perm[i] = w.perm[j];
            w.perm[j] = t;
        }
    }
    search_axes(&w, &best);
    for (int k = 0; k < 3; ++k) {
        double base = best.c[0] * best.e1[k] + best.c[1] * best.e2[k];
        out->p0[k] = base + best.lo * best.u[k];
        out->p1[k] = base + best.hi * best.u[k];
    }
    /* CF5: certify against every input point */
    for (int i = 0; i < n; ++i) {
        dmax = fmax(dmax, pln_capfit_segment_distance(&pts[3 * i], out->p0, out->p1));
    }
    out->radius = fmax(fmax(best.r, dmax) * (1.0 + PLN_CAPFIT_ROUND_REL) +
                           PLN_CAPFIT_ROUND_REL * scale,
                       PLN_CAPFIT_MIN_RADIUS_M);
    out->max_excess = dmax - out->radius;
    {
        double len = pln_capfit_segment_distance(out->p0, out->p1, out->p1);
        out->volume = PLN_PI * out->radius * out->radius * len +
                      4.0 / 3.0 * PLN_PI * out->radius * out->radius * out->radius;
    }
    out->n_candidates = w.m;
done:
    free(w.xy);
    free(w.s);
    free(w.rho);
    free(w.perm);
    if (use_hull) dst_hull_destroy(&hull);
    return st;
}
