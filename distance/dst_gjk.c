/* dst_gjk.c — GJK distance between convex cores (seed 002: Minkowski difference, support
 * function, simplex evolution; thesis sec. II.B.1, eq. (2.2)-(2.3)), with a signed-volume
 * sub-simplex solver and an explicit warm-start cache. Derivations: docs/math/gjk_epa.md. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dst_convex_internal.h"

/* printf-style message into err[err_size] when given; returns status. */
static DstStatus gjk_error(char *err, size_t err_size, DstStatus status, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* Clears the whole result and sets the status of a failed query; returns the status. */
static DstStatus gjk_fail(DstGjkResult *out, DstStatus status)
{
    memset(out, 0, sizeof *out);
    out->status = status;
    return status;
}

/* ------------------------------------------------------------------ sub-simplex solver */

/* The closest point of a sub-simplex: vertices idx[0..n-1] with weights lam, point v. */
typedef struct GjkSub {
    int n;
    int idx[4];
    double lam[4];
    double v[3];
    double d2;
    int inside;
} GjkSub;

/* A single vertex is its own closest point. */
static void sub_vertex(const DstSimplexVertex *s, int i, GjkSub *r)
{
    r->n = 1;
    r->idx[0] = i;
    r->lam[0] = 1.0;
    dcv_copy(r->v, s[i].w);
    r->d2 = dcv_dot(r->v, r->v);
    r->inside = 0;
}

/* Segment s_i s_j: projection parameter of the origin, clamped (eq. (9)). */
static void sub_segment(const DstSimplexVertex *s, int i, int j, GjkSub *r)
{
    const double *wi = s[i].w, *wj = s[j].w;
    double t[3], tt, u, l2;
    dcv_sub(t, wj, wi);
    tt = dcv_dot(t, t);
    l2 = dcv_max(dcv_dot(wi, wi), dcv_dot(wj, wj));
    if (tt <= DST_GJK_DEGENERATE_REL * DST_GJK_DEGENERATE_REL * l2 || tt <= DST_MIN_DENOM) {
        /* zero-length segment: the nearer end */
        sub_vertex(s, dcv_dot(wi, wi) <= dcv_dot(wj, wj) ? i : j, r);
        return;
    }
    u = -dcv_dot(wi, t) / tt;
    if (u <= 0.0) {
        sub_vertex(s, i, r);
        return;
    }
    if (u >= 1.0) {
        sub_vertex(s, j, r);
        return;
    }
    r->n = 2;
    r->idx[0] = i;
    r->idx[1] = j;
    r->lam[0] = 1.0 - u;
    r->lam[1] = u;
    dcv_axpy(r->v, wi, u, t);
    r->d2 = dcv_dot(r->v, r->v);
    r->inside = 0;
}

/* keeps the candidate nearer the origin (eq. (11), (13): min over facets) */
static void sub_keep_best(GjkSub *best, const GjkSub *cand)
{
    if (best->n == 0 || cand->d2 < best->d2) *best = *cand;
}

/* 2-D signed area of (a, b, c) in the coordinate plane (x, y). */
static double area2(const double a[3], const double b[3], const double c[3], int x, int y)
{
    return (b[x] - a[x]) * (c[y] - a[y]) - (b[y] - a[y]) * (c[x] - a[x]);
}

/* Triangle s_i s_j s_k: project the origin on the plane, barycentric coordinates from the
 * signed areas in the best-conditioned coordinate plane (eq. (10)-(11)); edges whose weight
 * is negative hold the closest point. A degenerate triangle is covered by its edges. */
static void sub_triangle(const DstSimplexVertex *s, int i, int j, int k, GjkSub *r)
{
    const double *wi = s[i].w, *wj = s[j].w, *wk = s[k].w;
    double e1[3], e2[3], e3[3], n[3], nn, lmax2, p0[3], c[3], mu, sum;
    int m, x, y, tri[3] = {i, j, k}, any = 0;
    GjkSub cand;
    dcv_sub(e1, wj, wi);
    dcv_sub(e2, wk, wi);
    dcv_sub(e3, wk, wj);
    dcv_cross(n, e1, e2);
    nn = dcv_dot(n, n);
    lmax2 = dcv_max(dcv_dot(e1, e1), dcv_max(dcv_dot(e2, e2), dcv_dot(e3, e3)));
    r->n = 0;
    if (nn <= DST_GJK_DEGENERATE_REL * DST_GJK_DEGENERATE_REL * lmax2 * lmax2 ||
        nn <= DST_MIN_DENOM) {
        /* collinear or coincident vertices: the triangle is the union of its edges */
        sub_segment(s, i, j, &cand);
        sub_keep_best(r, &cand);
        sub_segment(s, j, k, &cand);
        sub_keep_best(r, &cand);
        sub_segment(s, i, k, &cand);
        sub_keep_best(r, &cand);
        return;
    }
    dcv_scale(p0, n, dcv_dot(wi, n) / nn);
    m = 0;
    if (fabs(n[1]) > fabs(n[m])) m = 1;
    if (fabs(n[2]) > fabs(n[m])) m = 2;
    x = (m + 1) % 3;
    y = (m + 2) % 3;
    mu = n[m];
    c[0] = area2(p0, wj, wk, x, y);
    c[1] = area2(wi, p0, wk, x, y);
    c[2] = area2(wi, wj, p0, x, y);
    for (int q = 0; q < 3; ++q) {
        if (c[q] * mu < 0.0) any = 1;
    }
    sum = c[0] + c[1] + c[2];
    if (!any && sum * mu > 0.0) {
        /* the projection lies inside: all three vertices carry weight */
        r->n = 3;
        r->inside = 0;
        for (int q = 0; q < 3; ++q) {
            r->idx[q] = tri[q];
            r->lam[q] = c[q] / sum;
        }
        r->v[0] = r->v[1] = r->v[2] = 0.0;
        for (int q = 0; q < 3; ++q) dcv_axpy(r->v, r->v, r->lam[q], s[tri[q]].w);
        r->d2 = dcv_dot(r->v, r->v);
        return;
    }
    /* outside the edge opposite vertex q for each negative weight */
    for (int q = 0; q < 3; ++q) {
        if (!any || c[q] * mu < 0.0) {
            sub_segment(s, tri[(q + 1) % 3], tri[(q + 2) % 3], &cand);
            sub_keep_best(r, &cand);
        }
    }
}

/* Tetrahedron: barycentric coordinates of the origin as signed volumes (eq. (12)-(13));
 * all of one sign: the origin is inside; otherwise the faces it lies beyond hold the
 * closest point. A flat tetrahedron is covered by its four faces. */
static void sub_tetra(const DstSimplexVertex *s, GjkSub *r)
{
    static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
    const double *w0 = s[0].w, *w1 = s[1].w;
    double e1[3], e2[3], e3[3], o[3], t[3], V, c[4], lmax = 0.0, lmax2 = 0.0, wmax2 = 0.0, sum;
    int any = 0, inside = 1;
    GjkSub cand;
    dcv_sub(e1, s[1].w, w0);
    dcv_sub(e2, s[2].w, w0);
    dcv_sub(e3, s[3].w, w0);
    for (int p = 0; p < 4; ++p) {
        wmax2 = dcv_max(wmax2, dcv_dot(s[p].w, s[p].w));
        for (int q = p + 1; q < 4; ++q) lmax2 = dcv_max(lmax2, dcv_dist2(s[p].w, s[q].w));
    }
    lmax = sqrt(lmax2);
    dcv_cross(t, e2, e3);
    V = dcv_dot(e1, t);
    r->n = 0;
    if (fabs(V) <= DST_GJK_DEGENERATE_REL * lmax * lmax * lmax || fabs(V) <= DST_MIN_DENOM) {
        for (int f = 0; f < 4; ++f) {
            sub_triangle(s, face[f][0], face[f][1], face[f][2], &cand);
            sub_keep_best(r, &cand);
        }
        return;
    }
    /* c[x]: volume with vertex x replaced by the origin */
    dcv_scale(o, w0, -1.0);
    c[1] = dcv_dot(o, t);
    dcv_cross(t, o, e3);
    c[2] = dcv_dot(e1, t);
    dcv_cross(t, e2, o);
    c[3] = dcv_dot(e1, t);
    {
        double f1[3], f2[3];
        dcv_sub(f1, s[2].w, w1);
        dcv_sub(f2, s[3].w, w1);
        dcv_cross(t, f2, w1);
        c[0] = dcv_dot(f1, t);
    }
    for (int q = 0; q < 4; ++q) {
        if (c[q] * V < 0.0) any = 1;
    }
    sum = c[0] + c[1] + c[2] + c[3];
    /* an origin inside lies within one edge length of every vertex: guards the signs */
    if (any || sum * V <= 0.0 || wmax2 > 4.0 * lmax2) inside = 0;
    if (inside) {
        r->n = 4;
        r->inside = 1;
        for (int q = 0; q < 4; ++q) {
            r->idx[q] = q;
            r->lam[q] = c[q] / sum;
        }
        r->v[0] = r->v[1] = r->v[2] = 0.0;
        r->d2 = 0.0;
        return;
    }
    for (int f = 0; f < 4; ++f) {
        if (!any || c[f] * V < 0.0) {
            sub_triangle(s, face[f][0], face[f][1], face[f][2], &cand);
            sub_keep_best(r, &cand);
        }
    }
}

/* Closest point of a 1..4-vertex simplex, eq. (9)-(13). */
static void gjk_solve(const DstSimplexVertex *s, int n, GjkSub *r)
{
    switch (n) {
    case 1: sub_vertex(s, 0, r); break;
    case 2: sub_segment(s, 0, 1, r); break;
    case 3: sub_triangle(s, 0, 1, 2, r); break;
    default: sub_tetra(s, r); break;
    }
}

/* Test entry to the sub-simplex solver, eq. (9)-(13). */
int dst_gjk_closest_on_simplex(const DstSimplexVertex *s, int n, double lambda[4], double v[3])
{
    GjkSub r;
    for (int q = 0; q < 4; ++q) lambda[q] = 0.0;
    if (n < 1 || n > 4) {
        v[0] = v[1] = v[2] = 0.0;
        return 0;
    }
    gjk_solve(s, n, &r);
    for (int q = 0; q < r.n; ++q) lambda[r.idx[q]] = r.lam[q];
    dcv_copy(v, r.v);
    return r.inside;
}

/* ------------------------------------------------------------------ GJK loop */

/* A cold query consults the supports' start tables for its first GJK_TABLE_ITERS supports
 * only: the first direction points from A to B and the second roughly back (towards the
 * origin from the first support), so both jump across the sphere; later ones turn little,
 * so the previous vertex is a better start than the table's and the cell lookup is saved.
 * (Measured on bench_gjk's hulls: 2 is 8 % faster per cold query than 4, as fast as 1.) */
#define GJK_TABLE_ITERS 2

/* Empties a warm-start cache (count 0, no direction). */
void dst_gjk_cache_reset(DstGjkCache *cache)
{
    if (cache != NULL) memset(cache, 0, sizeof *cache);
}

/* Default GJK options from dst_tolerance.h. */
DstGjkOptions dst_gjk_options_default(void)
{
    DstGjkOptions o;
    o.max_iter = DST_GJK_DEFAULT_MAX_ITER;
    o.rel_tol = DST_GJK_DEFAULT_REL_TOL;
    o.abs_tol = DST_GJK_DEFAULT_ABS_TOL;
    return o;
}

/* Support of the Minkowski difference of the cores, A - B, in direction d (eq. (2.2)):
 * a = s_A(d), b = s_B(-d), w = a - b. Returns 0 when a support point is not finite. */
static int gjk_support(const DstConvex *A, const DstConvex *B, const double d[3], int hint_a,
                       int hint_b, int flags, DstSimplexVertex *out)
{
    double nd[3];
    dcv_scale(nd, d, -1.0);
    out->id_a = dst_convex_core_support(A, d, hint_a < 0 ? -1 : hint_a | flags, out->a);
    out->id_b = dst_convex_core_support(B, nd, hint_b < 0 ? -1 : hint_b | flags, out->b);
    dcv_sub(out->w, out->a, out->b);
    for (int i = 0; i < 3; ++i) {
        /* !(x <= max) is also true for NaN */
        if (!(fabs(out->a[i]) <= DST_CONVEX_MAX_COORD) ||
            !(fabs(out->b[i]) <= DST_CONVEX_MAX_COORD)) {
            return 0;
        }
    }
    return 1;
}

/* size of the problem seen through a support vertex, squared: |w| and the reach of both
 * support points from their shapes' origins (so that touching shapes still have a scale) */
static double gjk_scale(const DstConvex *A, const DstConvex *B, const DstSimplexVertex *v)
{
    /* squared; (x + y)^2 <= 2 (x^2 + y^2) bounds the summed reach without square roots */
    return dcv_max(dcv_dot(v->w, v->w), 2.0 * (dcv_dist2(v->a, A->pos) + dcv_dist2(v->b, B->pos)));
}

/* keeps the vertices of the solved sub-simplex, in place, with their weights */
static void gjk_compact(DstSimplexVertex *s, int *n, const GjkSub *r, double lam[4])
{
    DstSimplexVertex tmp[4];
    for (int q = 0; q < r->n; ++q) {
        tmp[q] = s[r->idx[q]];
        lam[q] = r->lam[q];
    }
    for (int q = 0; q < r->n; ++q) s[q] = tmp[q];
    *n = r->n;
}

/* Unit normal along v, refined where v itself is noisy: at tiny distances v carries the
 * rounding of its O(scale) vertices, so a triangle's normal is taken from its edges and a
 * segment's normal is made exactly perpendicular to it (eq. (17)). */
static void gjk_normal(const DstSimplexVertex *s, int n, const double v[3], double nrm[3])
{
    double len = dcv_norm(v);
    dcv_scale(nrm, v, 1.0 / len);
    if (n == 3) {
        double e1[3], e2[3], c[3], cl;
        dcv_sub(e1, s[1].w, s[0].w);
        dcv_sub(e2, s[2].w, s[0].w);
        dcv_cross(c, e1, e2);
        cl = dcv_norm(c);
        if (cl > DST_MIN_DENOM) {
            dcv_scale(c, c, (dcv_dot(c, v) >= 0.0 ? 1.0 : -1.0) / cl);
            /* only when the face normal agrees with v (a true face of the difference) */
            if (dcv_dot(c, nrm) > 0.5) dcv_copy(nrm, c);
        }
    } else if (n == 2) {
        double e[3], ee, p[3], pl;
        dcv_sub(e, s[1].w, s[0].w);
        ee = dcv_dot(e, e);
        if (ee > DST_MIN_DENOM) {
            dcv_axpy(p, nrm, -dcv_dot(nrm, e) / ee, e);
            pl = dcv_norm(p);
            if (pl > 0.5) dcv_scale(nrm, p, 1.0 / pl);
        }
    }
}

/* Options sanity: positive cap, finite non-negative tolerances. */
static int gjk_options_ok(const DstGjkOptions *o)
{
    return o->max_iter > 0 && isfinite(o->rel_tol) && o->rel_tol >= 0.0 && isfinite(o->abs_tol) &&
           o->abs_tol >= 0.0;
}

/* GJK distance of the cores and the whole-shape distance: seed 002 ("Iteration"), with the
 * distance termination of eq. (14)-(16) in docs/math/gjk_epa.md. */
DstStatus dst_gjk_distance(const DstConvex *a, const DstConvex *b, const DstGjkOptions *opt,
                           DstGjkCache *cache, DstGjkResult *out, char *err, size_t err_size)
{
    DstGjkOptions o = opt != NULL ? *opt : dst_gjk_options_default();
    /* two simplex buffers: the solve reads one and the kept vertices go to the other, so a
     * step without progress leaves the current simplex untouched (no backup copies) */
    DstSimplexVertex buf[2][5], *s = buf[0], *alt = buf[1];
    double lam[4] = {1.0, 0.0, 0.0, 0.0};
    double v[3], vv, lower = 0.0, scale = 0.0, scale2 = 0.0, ma, mb;
    int n = 0, hint_a = -1, hint_b = -1, iter = 0, overlap = 0, limit = 0;
    /* a cold query consults the supports' start tables while its directions jump (the first
     * GJK_TABLE_ITERS supports); a warm-started one trusts the previous vertices */
    int table = DST_HINT_USE_TABLE;
    GjkSub r;
    DstStatus st;

    if (out == NULL) return DST_INVALID_INPUT;
    /* a successful query writes every field below (the simplex beyond `count` is not part of
     * the result); only these are left unset on some of its paths. A failure clears all. */
    out->status = DST_OK;
    out->cores_overlap = 0;
    out->normal[0] = out->normal[1] = out->normal[2] = 0.0;
    st = dst_convex_validate_pair(a, b, err, err_size);
    if (st != DST_OK) return gjk_fail(out, st);
    if (!gjk_options_ok(&o)) {
        return gjk_fail(out, gjk_error(err, err_size, DST_INVALID_INPUT,
                                "gjk options: max_iter must be > 0 and tolerances finite >= 0"));
    }
    ma = a->margin;
    mb = b->margin;

    /* warm start: rebuild the cached simplex from its feature ids when every id is known */
    if (cache != NULL && cache->count >= 1 && cache->count <= 4) {
        int ok = 1;
        for (int q = 0; q < cache->count && ok; ++q) {
            DstSimplexVertex *sv = &s[n];
            if (!dst_convex_core_vertex(a, cache->id_a[q], sv->a) ||
                !dst_convex_core_vertex(b, cache->id_b[q], sv->b)) {
                ok = 0;
                break;
            }
            sv->id_a = cache->id_a[q];
            sv->id_b = cache->id_b[q];
            dcv_sub(sv->w, sv->a, sv->b);
            /* skip repeated id pairs */
            for (int p = 0; p < n; ++p) {
                if (s[p].id_a == sv->id_a && s[p].id_b == sv->id_b) {
                    --n;
                    break;
                }
            }
            ++n;
        }
        if (ok && n > 0) {
            for (int q = 0; q < n; ++q) scale2 = dcv_max(scale2, gjk_scale(a, b, &s[q]));
            gjk_solve(s, n, &r);
            gjk_compact(s, &n, &r, lam);
            hint_a = s[0].id_a;
            hint_b = s[0].id_b;
            table = 0;
        } else {
            n = 0;
        }
    }
    if (n == 0) {
        /* cold start: first support towards the origin from the centre guess (seed 002:
         * "d = c2 - c1"), or along the cached direction */
        double d[3];
        dcv_sub(d, b->pos, a->pos);
        if (cache != NULL && cache->count >= 0 &&
            isfinite(cache->dir[0] + cache->dir[1] + cache->dir[2]) &&
            dcv_dot(cache->dir, cache->dir) > DST_MIN_DENOM) {
            dcv_scale(d, cache->dir, -1.0);
            if (cache->count > 0) {
                hint_a = cache->id_a[0];
                hint_b = cache->id_b[0];
            }
        }
        if (!(dcv_dot(d, d) > DST_MIN_DENOM)) {
            d[0] = 1.0;
            d[1] = d[2] = 0.0;
        }
        if (!gjk_support(a, b, d, hint_a, hint_b, table, &s[0])) {
            return gjk_fail(out, gjk_error(err, err_size, DST_FAILED,
                          "gjk: a support point is not finite or beyond %g m (check the vertices)",
                          DST_CONVEX_MAX_COORD));
        }
        n = 1;
        lam[0] = 1.0;
        hint_a = s[0].id_a;
        hint_b = s[0].id_b;
        scale2 = gjk_scale(a, b, &s[0]);
        ++iter;
    }
    scale = sqrt(scale2);
    v[0] = v[1] = v[2] = 0.0;
    for (int q = 0; q < n; ++q) dcv_axpy(v, v, lam[q], s[q].w);
    vv = dcv_dot(v, v);
    if (n == 4) overlap = 1;

    /* main loop: w = s_{A-B}(-v); stop on the duality gap, a repeated vertex, no progress,
     * the origin enclosed, or the iteration cap */
    while (!overlap) {
        DstSimplexVertex w;
        double nv, vw, gap_tol;
        int dup = 0;
        if (vv <= DST_GJK_OVERLAP_REL * DST_GJK_OVERLAP_REL * scale2) {
            overlap = 1;
            break;
        }
        if (iter >= o.max_iter) {
            limit = 1;
            break;
        }
        {
            double d[3];
            dcv_scale(d, v, -1.0);
            if (!gjk_support(a, b, d, hint_a, hint_b, table, &w)) {
                return gjk_fail(out, gjk_error(
                    err, err_size, DST_FAILED,
                    "gjk: a support point is not finite or beyond %g m (check the vertices)",
                    DST_CONVEX_MAX_COORD));
            }
        }
        ++iter;
        if (iter >= GJK_TABLE_ITERS) table = 0;
        hint_a = w.id_a;
        hint_b = w.id_b;
        scale2 = dcv_max(scale2, gjk_scale(a, b, &w));
        scale = sqrt(scale2);
        nv = sqrt(vv);
        vw = dcv_dot(v, w.w);
        /* every point x of A - B has x . v >= w . v: lower bound w.v / |v| */
        if (vw > 0.0) lower = dcv_max(lower, vw / nv);
        gap_tol = o.rel_tol * nv + o.abs_tol * scale;
        if (vv - vw <= gap_tol * nv) break;
        for (int q = 0; q < n; ++q) {
            if ((w.id_a >= 0 && w.id_b >= 0 && w.id_a == s[q].id_a && w.id_b == s[q].id_b) ||
                dcv_dist2(w.w, s[q].w) <= DST_GJK_DEGENERATE_REL * DST_GJK_DEGENERATE_REL * scale2) {
                dup = 1;
                break;
            }
        }
        if (dup) break;
        /* add w and solve the sub-simplex */
        s[n] = w;
        gjk_solve(s, n + 1, &r);
        if (r.inside) {
            n = 4;
            for (int q = 0; q < 4; ++q) lam[q] = r.lam[q];
            overlap = 1;
            break;
        }
        if (r.d2 >= vv) break; /* rounding stalls the descent: keep the current simplex */
        for (int q = 0; q < r.n; ++q) {
            alt[q] = s[r.idx[q]];
            lam[q] = r.lam[q];
        }
        {
            DstSimplexVertex *t = s;
            s = alt;
            alt = t;
        }
        n = r.n;
        dcv_copy(v, r.v);
        vv = r.d2;
    }

    if (scale > 0.0 && scale < DST_CONVEX_MIN_SCALE) {
        return gjk_fail(out, gjk_error(err, err_size, DST_INVALID_INPUT,
                                "gjk: shapes of extent %g m are below the supported range (%g m)",
                                scale, DST_CONVEX_MIN_SCALE));
    }

    /* results: witnesses as the same convex combination on A and on B (eq. (17)) */
    out->iterations = iter;
    out->scale = scale;
    out->count = n;
    for (int q = 0; q < n; ++q) out->simplex[q] = s[q];
    {
        double pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0};
        for (int q = 0; q < n; ++q) {
            dcv_axpy(pa, pa, lam[q], s[q].a);
            dcv_axpy(pb, pb, lam[q], s[q].b);
        }
        if (overlap) {
            out->cores_overlap = 1;
            out->core_distance = 0.0;
            out->distance = -(ma + mb);
            out->lower = out->distance;
            dcv_copy(out->point_a, pa);
            dcv_copy(out->point_b, pb);
        } else {
            double nv = sqrt(vv), nrm[3];
            gjk_normal(s, n, v, nrm);
            out->core_distance = nv;
            out->distance = nv - ma - mb;
            out->lower = fmin(lower, nv) - ma - mb;
            dcv_copy(out->normal, nrm);
            dcv_axpy(out->point_a, pa, -ma, nrm);
            dcv_axpy(out->point_b, pb, mb, nrm);
        }
    }
    if (limit) {
        out->status = DST_ITER_LIMIT;
    } else if (out->cores_overlap) {
        out->status = DST_PENETRATING;
    } else if (fabs(out->distance) <= DST_CONVEX_TOUCH_REL * scale) {
        out->status = DST_TOUCHING;
    } else {
        out->status = out->distance > 0.0 ? DST_SEPARATED : DST_PENETRATING;
    }

    /* the cache keeps the final simplex and direction for the next query of this pair */
    if (cache != NULL) {
        cache->count = n;
        for (int q = 0; q < 4; ++q) {
            cache->id_a[q] = q < n ? s[q].id_a : -1;
            cache->id_b[q] = q < n ? s[q].id_b : -1;
        }
        if (!out->cores_overlap) dcv_copy(cache->dir, v);
    }
    return out->status;
}
