/* dst_hull.c — 3-D convex hull of a point set by quickhull (Barber, Dobkin, Huhdanpaa 1996:
 * outside sets, farthest point, visible region by adjacency, horizon loop, cone of new
 * faces), with explicit degenerate-input statuses. Derivations: docs/math/gjk_epa.md
 * eq. (25)-(27). Allocation happens here only (preprocessing), never in queries. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dst_convex_internal.h"

/* printf-style message into err[err_size] when given; returns status. */
static DstStatus hull_error(char *err, size_t err_size, DstStatus status, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

typedef struct HFace {
    int v[3];    /* counter-clockwise from outside */
    int nb[3];   /* face across edge (v[k], v[k+1]) */
    double n[3]; /* outward unit normal */
    double d;    /* plane offset: n . x = d */
    int alive;
    int far; /* farthest outside point, -1 when the outside set is empty */
    double far_d;
} HFace;

typedef struct HullWork {
    const double *p;
    int n;
    double eps;
    HFace *f;
    int nf, capf;
    int *owner;                 /* [n] face whose outside set holds the point, or -1 */
    int *on_hull;               /* [n] 1 when the point is a hull vertex */
    int *stack, *vis, *mark;    /* [capf] DFS stack, visible list, visited flags */
    int *start_face, *end_face; /* [n] new face by horizon edge start / end vertex */
    int (*hz)[3];               /* [3 capf] horizon edges: a, b, outside face */
} HullWork;

/* signed distance of x above the plane of F (eq. (26)) */
static double hull_plane_dist(const HFace *F, const double x[3])
{
    return dcv_dot(F->n, x) - F->d;
}

/* plane through the face's vertices; 0 if degenerate (zero area) */
static int hull_plane(const HullWork *w, HFace *F)
{
    const double *a = w->p + 3 * F->v[0], *b = w->p + 3 * F->v[1], *c = w->p + 3 * F->v[2];
    double e1[3], e2[3], len;
    dcv_sub(e1, b, a);
    dcv_sub(e2, c, a);
    dcv_cross(F->n, e1, e2);
    len = dcv_norm(F->n);
    if (!(len > DST_MIN_DENOM)) return 0;
    dcv_scale(F->n, F->n, 1.0 / len);
    /* offset averaged over the three vertices for symmetry */
    F->d = (dcv_dot(F->n, a) + dcv_dot(F->n, b) + dcv_dot(F->n, c)) / 3.0;
    return 1;
}

/* grows the face arrays to hold `need` faces (doubling); 0 when out of memory */
static int hull_grow(HullWork *w, int need)
{
    int cap = w->capf;
    void *q;
    if (need <= cap) return 1;
    while (cap < need) cap *= 2;
    if ((q = realloc(w->f, sizeof(HFace) * (size_t)cap)) == NULL) return 0;
    w->f = q;
    if ((q = realloc(w->stack, sizeof(int) * (size_t)cap)) == NULL) return 0;
    w->stack = q;
    if ((q = realloc(w->vis, sizeof(int) * (size_t)cap)) == NULL) return 0;
    w->vis = q;
    if ((q = realloc(w->mark, sizeof(int) * (size_t)cap)) == NULL) return 0;
    w->mark = q;
    for (int i = w->capf; i < cap; ++i) w->mark[i] = 0;
    if ((q = realloc(w->hz, sizeof(int[3]) * 3 * (size_t)cap)) == NULL) return 0;
    w->hz = q;
    w->capf = cap;
    return 1;
}

/* puts point i into the outside set of the face among faces[0..k-1] it is farthest above */
static void hull_assign(HullWork *w, int i, const int *faces, int k)
{
    double best = w->eps;
    int bf = -1;
    for (int q = 0; q < k; ++q) {
        double d = hull_plane_dist(&w->f[faces[q]], w->p + 3 * i);
        if (d > best) {
            best = d;
            bf = faces[q];
        }
    }
    w->owner[i] = bf;
    if (bf >= 0 && (w->f[bf].far < 0 || best > w->f[bf].far_d)) {
        w->f[bf].far = i;
        w->f[bf].far_d = best;
    }
}

/* frees the workspace (NULL members are fine) */
static void hull_free_work(HullWork *w)
{
    free(w->f);
    free(w->owner);
    free(w->on_hull);
    free(w->stack);
    free(w->vis);
    free(w->mark);
    free(w->start_face);
    free(w->end_face);
    free(w->hz);
}

/* Adds point ip, visible from face f0: the visible region by DFS over neighbours, its
 * horizon as one loop, and the cone of new faces (eq. (26)). Returns 0 on breakdown. */
static int hull_add_point(HullWork *w, int f0, int ip, char *msg, size_t msg_size)
{
    const double *x = w->p + 3 * ip;
    int nvis = 0, nh = 0, top = 0, first_new;
    /* visible region */
    w->stack[top++] = f0;
    w->mark[f0] = 1;
    while (top > 0) {
        int f = w->stack[--top];
        w->vis[nvis++] = f;
        for (int k = 0; k < 3; ++k) {
            int g = w->f[f].nb[k];
            if (!w->mark[g] && hull_plane_dist(&w->f[g], x) > w->eps) {
                w->mark[g] = 1;
                w->stack[top++] = g;
            }
        }
    }
    /* horizon edges: edges of visible faces whose neighbour is not visible */
    for (int q = 0; q < nvis; ++q) {
        const HFace *F = &w->f[w->vis[q]];
        for (int k = 0; k < 3; ++k) {
            if (!w->mark[F->nb[k]]) {
                w->hz[nh][0] = F->v[k];
                w->hz[nh][1] = F->v[(k + 1) % 3];
                w->hz[nh][2] = F->nb[k];
                ++nh;
            }
        }
    }
    /* the horizon must be a single simple loop */
    {
        int ok = nh >= 3;
        for (int q = 0; q < nh && ok; ++q) {
            if (w->start_face[w->hz[q][0]] != -1 || w->end_face[w->hz[q][1]] != -1) ok = 0;
            w->start_face[w->hz[q][0]] = q;
            w->end_face[w->hz[q][1]] = q;
        }
        if (ok) {
            int cur = 0, steps = 0;
            do {
                cur = w->start_face[w->hz[cur][1]];
                ++steps;
            } while (cur >= 0 && cur != 0 && steps <= nh);
            if (cur != 0 || steps != nh) ok = 0;
        }
        if (!ok) {
            for (int q = 0; q < nh; ++q) {
                w->start_face[w->hz[q][0]] = -1;
                w->end_face[w->hz[q][1]] = -1;
            }
            for (int q = 0; q < nvis; ++q) w->mark[w->vis[q]] = 0;
            snprintf(msg, msg_size, "horizon of point %d is not a simple loop", ip);
            return 0;
        }
    }
    /* new faces (a, b, ip) appended; indices first_new + q follow the horizon order */
    if (!hull_grow(w, w->nf + nh)) {
        snprintf(msg, msg_size, "out of memory");
        return 0;
    }
    first_new = w->nf;
    for (int q = 0; q < nh; ++q) {
        HFace *F = &w->f[first_new + q];
        int a = w->hz[q][0], b = w->hz[q][1], g = w->hz[q][2];
        F->v[0] = a;
        F->v[1] = b;
        F->v[2] = ip;
        F->nb[0] = g;
        F->nb[1] = first_new + w->start_face[b];
        F->nb[2] = first_new + w->end_face[a];
        F->alive = 1;
        F->far = -1;
        F->far_d = 0.0;
        if (!hull_plane(w, F)) {
            snprintf(msg, msg_size, "degenerate face while adding point %d", ip);
            return 0;
        }
        /* the outside neighbour now borders the new face across (b, a) */
        for (int k = 0; k < 3; ++k) {
            HFace *G = &w->f[g];
            if (G->v[k] == b && G->v[(k + 1) % 3] == a) G->nb[k] = first_new + q;
        }
    }
    w->nf += nh;
    for (int q = 0; q < nh; ++q) {
        w->start_face[w->hz[q][0]] = -1;
        w->end_face[w->hz[q][1]] = -1;
    }
    /* retire the visible faces; their outside points move to the new faces */
    for (int q = 0; q < nvis; ++q) {
        w->f[w->vis[q]].alive = 0;
        w->mark[w->vis[q]] = 0;
    }
    w->on_hull[ip] = 1;
    w->owner[ip] = -1;
    {
        int *newf = w->stack; /* reuse as the list of new faces */
        for (int q = 0; q < nh; ++q) newf[q] = first_new + q;
        for (int i = 0; i < w->n; ++i) {
            int o = w->owner[i];
            if (o >= 0 && !w->f[o].alive) hull_assign(w, i, newf, nh);
        }
    }
    return 1;
}

/* Builds the hull of w->p at tolerance w->eps from the start simplex tv (eq. (25)-(27)):
 * allocates the workspace (the caller frees it with hull_free_work); returns 0 with a
 * message on a numerical breakdown. */
static int hull_construct(HullWork *w, const int tv[4], char *msg, size_t msg_size)
{
    int n = w->n;
    /* workspace */
    w->capf = 64;
    w->f = malloc(sizeof(HFace) * (size_t)w->capf);
    w->stack = malloc(sizeof(int) * (size_t)w->capf);
    w->vis = malloc(sizeof(int) * (size_t)w->capf);
    w->mark = calloc((size_t)w->capf, sizeof(int));
    w->hz = malloc(sizeof(int[3]) * 3 * (size_t)w->capf);
    w->owner = malloc(sizeof(int) * (size_t)n);
    w->on_hull = calloc((size_t)n, sizeof(int));
    w->start_face = malloc(sizeof(int) * (size_t)n);
    w->end_face = malloc(sizeof(int) * (size_t)n);
    if (!w->f || !w->stack || !w->vis || !w->mark || !w->hz || !w->owner || !w->on_hull ||
        !w->start_face || !w->end_face) {
        snprintf(msg, msg_size, "out of memory");
        return 0;
    }
    for (int i = 0; i < n; ++i) w->start_face[i] = w->end_face[i] = -1;

    /* the tetrahedron, faces oriented away from its centroid (eq. (25)) */
    {

        static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
        double c[3] = {0, 0, 0};
        int all[4] = {0, 1, 2, 3};
        for (int q = 0; q < 4; ++q) dcv_axpy(c, c, 0.25, w->p + 3 * tv[q]);
        for (int f = 0; f < 4; ++f) {
            HFace *F = &w->f[f];
            for (int k = 0; k < 3; ++k) F->v[k] = tv[tf[f][k]];
            if (!hull_plane(w, F)) {
                snprintf(msg, msg_size, "degenerate start simplex");
                return 0;
            }
            if (hull_plane_dist(F, c) > 0.0) {
                int t = F->v[1];
                F->v[1] = F->v[2];
                F->v[2] = t;
                hull_plane(w, F);
            }
            F->alive = 1;
            F->far = -1;
            F->far_d = 0.0;
        }
        /* neighbours by matching reversed edges */
        for (int f = 0; f < 4; ++f) {
            for (int k = 0; k < 3; ++k) {
                int a = w->f[f].v[k], b = w->f[f].v[(k + 1) % 3];
                w->f[f].nb[k] = -1;
                for (int g = 0; g < 4; ++g) {
                    for (int l = 0; l < 3; ++l) {
                        if (w->f[g].v[l] == b && w->f[g].v[(l + 1) % 3] == a) w->f[f].nb[k] = g;
                    }
                }
            }
        }
        w->nf = 4;
        for (int q = 0; q < 4; ++q) w->on_hull[tv[q]] = 1;
        for (int i = 0; i < n; ++i) {
            if (w->on_hull[i]) {
                w->owner[i] = -1;
            } else {
                hull_assign(w, i, all, 4);
            }
        }
    }

    /* main loop: the farthest point of some outside set joins the hull; when every outside
     * set is empty, a final sweep checks every point against every face (eq. (27)) */
    for (int guard = 0; guard <= 2 * n + 8; ++guard) {
        int f0 = -1;
        for (int f = 0; f < w->nf; ++f) {
            if (w->f[f].alive && w->f[f].far >= 0) {
                f0 = f;
                break;
            }
        }
        if (f0 < 0) {
            int *alive = w->vis, na = 0, moved = 0;
            for (int f = 0; f < w->nf; ++f) {
                if (w->f[f].alive) alive[na++] = f;
            }
            for (int i = 0; i < n; ++i) {
                if (!w->on_hull[i]) {
                    hull_assign(w, i, alive, na);
                    if (w->owner[i] >= 0) moved = 1;
                }
            }
            if (!moved) break;
            continue;
        }
        {
            int ip = w->f[f0].far;
            /* the far point of f0 may be stale if it was reassigned: recompute the set's max */
            if (w->owner[ip] != f0) {
                w->f[f0].far = -1;
                for (int i = 0; i < n; ++i) {
                    if (w->owner[i] == f0) {
                        double d = hull_plane_dist(&w->f[f0], w->p + 3 * i);
                        if (w->f[f0].far < 0 || d > w->f[f0].far_d) {
                            w->f[f0].far = i;
                            w->f[f0].far_d = d;
                        }
                    }
                }
                continue;
            }
            if (!hull_add_point(w, f0, ip, msg, msg_size)) return 0;
        }
        if (guard == 2 * n + 8) {
            snprintf(msg, msg_size, "did not terminate");
            return 0;
        }
    }
    return 1;
}

/* Every hull vertex lies below every face plane within 2 eps (the construction guarantees
 * it for exactly computed planes; rounding on nearly coplanar faces can break it). */
static int hull_verify(const HullWork *w)
{
    for (int f = 0; f < w->nf; ++f) {
        if (!w->f[f].alive) continue;
        for (int i = 0; i < w->n; ++i) {
            if (w->on_hull[i] && hull_plane_dist(&w->f[f], w->p + 3 * i) > 2.0 * w->eps) return 0;
        }
    }
    return 1;
}

/* Quickhull with degenerate-input statuses and verified output, eq. (25)-(27). */
DstStatus dst_hull_build(const double *pts, int n, double tol_rel, DstHull *out, char *err,
                         size_t err_size)
{
    HullWork w;
    double lo[3], hi[3], diag, best;
    int i0 = 0, i1 = 0, i2 = -1, i3 = -1, ext[6];
    char msg[160] = "";

    if (out == NULL) return hull_error(err, err_size, DST_INVALID_INPUT, "hull: out is NULL");
    memset(out, 0, sizeof *out);
    out->dim = -1;
    if (pts == NULL || n < 1) {
        return hull_error(err, err_size, DST_INVALID_INPUT,
                          "hull: pts: need at least one point (n = %d%s)", n,
                          pts == NULL ? ", NULL array" : "");
    }
    if (!(tol_rel > 0.0) || !isfinite(tol_rel)) tol_rel = DST_HULL_REL_TOL;
    for (int i = 0; i < 3 * n; ++i) {
        if (!isfinite(pts[i])) {
            return hull_error(err, err_size, DST_INVALID_INPUT,
                              "hull: pts[%d][%d]: non-finite coordinate", i / 3, i % 3);
        }
    }
    /* bounding box and the six axis-extreme points */
    for (int k = 0; k < 3; ++k) {
        lo[k] = hi[k] = pts[k];
        ext[2 * k] = ext[2 * k + 1] = 0;
    }
    for (int i = 1; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            if (pts[3 * i + k] < lo[k]) {
                lo[k] = pts[3 * i + k];
                ext[2 * k] = i;
            }
            if (pts[3 * i + k] > hi[k]) {
                hi[k] = pts[3 * i + k];
                ext[2 * k + 1] = i;
            }
        }
    }
    {
        double dd[3];
        dcv_sub(dd, hi, lo);
        diag = dcv_norm(dd);
    }
    memset(&w, 0, sizeof w);
    w.p = pts;
    w.n = n;
    w.eps = tol_rel * diag;

    /* initial simplex: farthest pair of extremes, farthest from their line, from their plane */
    best = 0.0;
    for (int a = 0; a < 6; ++a) {
        for (int b = a + 1; b < 6; ++b) {
            double d = dcv_dist2(pts + 3 * ext[a], pts + 3 * ext[b]);
            if (d > best) {
                best = d;
                i0 = ext[a];
                i1 = ext[b];
            }
        }
    }
    if (!(sqrt(best) > w.eps) || n < 2) {
        out->dim = 0;
        return hull_error(err, err_size, DST_INVALID_INPUT,
                          "hull: degenerate input: all %d points coincide (dimension 0)", n);
    }
    {
        double e[3], q[3], c[3];
        dcv_sub(e, pts + 3 * i1, pts + 3 * i0);
        best = 0.0;
        for (int i = 0; i < n; ++i) {
            double d;
            dcv_sub(q, pts + 3 * i, pts + 3 * i0);
            dcv_cross(c, e, q);
            d = dcv_norm(c) / dcv_norm(e);
            if (d > best) {
                best = d;
                i2 = i;
            }
        }
    }
    if (i2 < 0 || !(best > w.eps)) {
        out->dim = 1;
        return hull_error(err, err_size, DST_INVALID_INPUT,
                          "hull: degenerate input: the %d points are collinear (dimension 1)", n);
    }
    {
        double e1[3], e2[3], nn[3], d0;
        dcv_sub(e1, pts + 3 * i1, pts + 3 * i0);
        dcv_sub(e2, pts + 3 * i2, pts + 3 * i0);
        dcv_cross(nn, e1, e2);
        dcv_scale(nn, nn, 1.0 / dcv_norm(nn));
        d0 = dcv_dot(nn, pts + 3 * i0);
        best = 0.0;
        for (int i = 0; i < n; ++i) {
            double d = fabs(dcv_dot(nn, pts + 3 * i) - d0);
            if (d > best) {
                best = d;
                i3 = i;
            }
        }
    }
    if (i3 < 0 || !(best > w.eps)) {
        out->dim = 2;
        return hull_error(err, err_size, DST_INVALID_INPUT,
                          "hull: degenerate input: the %d points are coplanar (dimension 2)", n);
    }

    /* construction; if rounding on nearly coplanar faces leaves a vertex above a face
     * (checked), rebuild with a 100 times larger tolerance, up to DST_HULL_MAX_REL_TOL */
    {
        int tv[4] = {i0, i1, i2, i3}, built = 0;
        for (double rel = tol_rel; rel <= DST_HULL_MAX_REL_TOL * (1.0 + 1e-9); rel *= 100.0) {
            HullWork fresh;
            memset(&fresh, 0, sizeof fresh);
            fresh.p = pts;
            fresh.n = n;
            fresh.eps = rel * diag;
            w = fresh;
            msg[0] = '\0';
            if (hull_construct(&w, tv, msg, sizeof msg) && hull_verify(&w)) {
                built = 1;
                break;
            }
            if (msg[0] == '\0') snprintf(msg, sizeof msg, "a vertex above a face plane");
            hull_free_work(&w);
            memset(&w, 0, sizeof w);
        }
        if (!built) {
            return hull_error(err, err_size, DST_FAILED,
                              "hull: numerical breakdown up to tolerance %g: %s",
                              DST_HULL_MAX_REL_TOL, msg);
        }
    }

    /* output: compact vertices and triangles, CSR adjacency from directed edges */
    {
        int *map = w.start_face; /* reuse [n] as old -> new vertex index */
        int nv = 0, nt = 0;
        for (int i = 0; i < n; ++i) map[i] = -1;
        for (int f = 0; f < w.nf; ++f) {
            if (!w.f[f].alive) continue;
            ++nt;
            for (int k = 0; k < 3; ++k) {
                if (map[w.f[f].v[k]] < 0) map[w.f[f].v[k]] = nv++;
            }
        }
        out->verts = malloc(sizeof(double) * 3 * (size_t)nv);
        out->source = malloc(sizeof(int) * (size_t)nv);
        out->tris = malloc(sizeof(int) * 3 * (size_t)nt);
        out->adj_start = calloc((size_t)nv + 1, sizeof(int));
        out->adj = malloc(sizeof(int) * 3 * (size_t)nt);
        if (!out->verts || !out->source || !out->tris || !out->adj_start || !out->adj) {
            hull_free_work(&w);
            dst_hull_destroy(out);
            return hull_error(err, err_size, DST_FAILED, "hull: out of memory");
        }
        for (int i = 0; i < n; ++i) {
            if (map[i] >= 0) {
                dcv_copy(out->verts + 3 * map[i], pts + 3 * i);
                out->source[map[i]] = i;
            }
        }
        nt = 0;
        for (int f = 0; f < w.nf; ++f) {
            if (!w.f[f].alive) continue;
            for (int k = 0; k < 3; ++k) {
                out->tris[3 * nt + k] = map[w.f[f].v[k]];
                ++out->adj_start[map[w.f[f].v[k]] + 1];
            }
            ++nt;
        }
        for (int i = 0; i < nv; ++i) out->adj_start[i + 1] += out->adj_start[i];
        {
            int *fill = w.end_face; /* reuse [n >= nv] as insertion cursors */
            for (int i = 0; i < nv; ++i) fill[i] = out->adj_start[i];
            for (int t = 0; t < nt; ++t) {
                for (int k = 0; k < 3; ++k) {
                    int a = out->tris[3 * t + k], b = out->tris[3 * t + (k + 1) % 3];
                    out->adj[fill[a]++] = b;
                }
            }
        }
        out->nverts = nv;
        out->ntris = nt;
        out->dim = 3;
        out->tol = w.eps;
        /* support start table: the support vertex of each cube-map cell's centre direction */
        out->dir_res = DST_HULL_DIR_RES;
        out->dir_table = malloc(sizeof(int) * 6 * DST_HULL_DIR_RES * DST_HULL_DIR_RES);
        if (out->dir_table == NULL) {
            hull_free_work(&w);
            dst_hull_destroy(out);
            return hull_error(err, err_size, DST_FAILED, "hull: out of memory");
        }
        for (int f = 0; f < 6; ++f) {
            for (int i = 0; i < DST_HULL_DIR_RES; ++i) {
                for (int j = 0; j < DST_HULL_DIR_RES; ++j) {
                    double d[3], bd = -HUGE_VAL;
                    int m = f / 2, bv = 0;
                    d[m] = f % 2 ? -1.0 : 1.0;
                    d[(m + 1) % 3] = -1.0 + (2.0 * i + 1.0) / DST_HULL_DIR_RES;
                    d[(m + 2) % 3] = -1.0 + (2.0 * j + 1.0) / DST_HULL_DIR_RES;
                    for (int q = 0; q < nv; ++q) {
                        double x = dcv_dot(out->verts + 3 * q, d);
                        if (x > bd) {
                            bd = x;
                            bv = q;
                        }
                    }
                    out->dir_table[(f * DST_HULL_DIR_RES + i) * DST_HULL_DIR_RES + j] = bv;
                }
            }
        }
    }
    hull_free_work(&w);
    return DST_OK;
}

/* Frees a hull built by dst_hull_build. */
void dst_hull_destroy(DstHull *hull)
{
    if (hull == NULL) return;
    free(hull->verts);
    free(hull->source);
    free(hull->tris);
    free(hull->adj_start);
    free(hull->adj);
    free(hull->dir_table);
    memset(hull, 0, sizeof *hull);
}

/* The hull as a hill-climbing point shape (eq. (5)). */
DstConvex dst_hull_convex(const DstHull *hull)
{
    DstConvex c = dst_convex_points(hull->verts, hull->nverts, hull->adj_start, hull->adj);
    c.dir_table = hull->dir_table;
    c.dir_res = hull->dir_res;
    return c;
}
