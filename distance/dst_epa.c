/* dst_epa.c — EPA penetration depth of overlapping convex cores (thesis sec. II.C.1, EPA
 * [58]) and the signed distance that joins GJK and EPA continuously through contact.
 * Derivations: docs/math/gjk_epa.md eq. (18)-(24). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dst_convex_internal.h"

/* printf-style message into err[err_size] when given; returns status. */
static DstStatus epa_error(char *err, size_t err_size, DstStatus status, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* Default EPA options from dst_tolerance.h. */
DstEpaOptions dst_epa_options_default(void)
{
    DstEpaOptions o;
    o.max_iter = DST_EPA_DEFAULT_MAX_ITER;
    o.rel_tol = DST_EPA_DEFAULT_REL_TOL;
    o.abs_tol = DST_EPA_DEFAULT_ABS_TOL;
    return o;
}

typedef struct EpaFace {
    int v[3];    /* counter-clockwise seen from outside */
    int nb[3];   /* face across edge (v[k], v[k+1]) */
    double n[3]; /* outward unit normal */
    double dist; /* n . w_v0: signed distance of the plane from the origin */
    int alive;
    int gen;  /* generation of the slot: heap entries of a reused slot are stale */
    int mark; /* visited in the current visibility search */
} EpaFace;

/* A heap entry: face slot, its generation and distance (lazy deletion). */
typedef struct EpaHeapItem {
    double dist;
    int face, gen;
} EpaHeapItem;

#define EPA_HEAP_CAP (4 * DST_EPA_MAX_FACES)

/* Fixed workspace: a few tens of kilobytes on the stack, no allocation. */
typedef struct EpaWork {
    DstSimplexVertex vert[DST_EPA_MAX_VERTS];
    int nv;
    EpaFace face[DST_EPA_MAX_FACES];
    int nf;
    int free_slot[DST_EPA_MAX_FACES]; /* retired face slots available for reuse */
    int nfree;
    EpaHeapItem heap[EPA_HEAP_CAP]; /* min-heap on dist */
    int nheap;
} EpaWork;

/* Binary min-heap of face distances (eq. (20): nearest face first). */
static void heap_push(EpaWork *wk, int f)
{
    int i = wk->nheap++;
    EpaHeapItem it = {wk->face[f].dist, f, wk->face[f].gen};
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (wk->heap[parent].dist <= it.dist) break;
        wk->heap[i] = wk->heap[parent];
        i = parent;
    }
    wk->heap[i] = it;
}

/* removes the top entry */
static void heap_pop(EpaWork *wk)
{
    EpaHeapItem last = wk->heap[--wk->nheap];
    int i = 0, n = wk->nheap;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && wk->heap[c + 1].dist < wk->heap[c].dist) ++c;
        if (last.dist <= wk->heap[c].dist) break;
        wk->heap[i] = wk->heap[c];
        i = c;
    }
    if (n > 0) wk->heap[i] = last;
}

/* rebuilds the heap from the live faces (when lazy deletions filled it) */
static void heap_rebuild(EpaWork *wk)
{
    wk->nheap = 0;
    for (int f = 0; f < wk->nf; ++f) {
        if (wk->face[f].alive) heap_push(wk, f);
    }
}

/* live face nearest the origin (pops stale entries), -1 if none */
static int heap_top(EpaWork *wk)
{
    while (wk->nheap > 0) {
        const EpaHeapItem *t = &wk->heap[0];
        if (wk->face[t->face].alive && wk->face[t->face].gen == t->gen) return t->face;
        heap_pop(wk);
    }
    return -1;
}

/* Support of A - B in direction d (a = s_A(d), b = s_B(-d)); 0 if not finite. */
static int epa_support_hint(const DstConvex *A, const DstConvex *B, const double d[3], int hint_a,
                            int hint_b, DstSimplexVertex *out)
{
    double nd[3];
    dcv_scale(nd, d, -1.0);
    /* EPA's hints (a vertex of the expanded face) can be far from the answer: also
     * consult the start tables */
    out->id_a =
        dst_convex_core_support(A, d, hint_a < 0 ? -1 : hint_a | DST_HINT_USE_TABLE, out->a);
    out->id_b =
        dst_convex_core_support(B, nd, hint_b < 0 ? -1 : hint_b | DST_HINT_USE_TABLE, out->b);
    dcv_sub(out->w, out->a, out->b);
    for (int i = 0; i < 3; ++i) {
        if (!(fabs(out->a[i]) <= DST_CONVEX_MAX_COORD) ||
            !(fabs(out->b[i]) <= DST_CONVEX_MAX_COORD)) {
            return 0;
        }
    }
    return 1;
}

/* Support without hints (used while growing the start tetrahedron, eq. (18)). */
static int epa_support(const DstConvex *A, const DstConvex *B, const double d[3],
                       DstSimplexVertex *out)
{
    return epa_support_hint(A, B, d, -1, -1, out);
}

/* Plane of face (i, j, k): unit normal and offset; 0 when the face is degenerate. */
static int epa_plane(const EpaWork *wk, int i, int j, int k, double min_area2, double n[3],
                     double *dist)
{
    double e1[3], e2[3], len;
    dcv_sub(e1, wk->vert[j].w, wk->vert[i].w);
    dcv_sub(e2, wk->vert[k].w, wk->vert[i].w);
    dcv_cross(n, e1, e2);
    len = dcv_norm(n);
    if (!(len > DST_MIN_DENOM) || len * len <= min_area2) return 0;
    dcv_scale(n, n, 1.0 / len);
    *dist = dcv_dot(n, wk->vert[i].w);
    return 1;
}

/* A unit vector perpendicular to e (e nonzero). */
static void epa_perp(const double e[3], double out[3])
{
    double axis[3] = {0, 0, 0};
    int m = 0;
    if (fabs(e[1]) < fabs(e[m])) m = 1;
    if (fabs(e[2]) < fabs(e[m])) m = 2;
    axis[m] = 1.0;
    dcv_cross(out, e, axis);
    dcv_scale(out, out, 1.0 / dcv_norm(out));
}

/* Distance of point p from the line through a, b. */
static double epa_line_dist(const double p[3], const double a[3], const double b[3])
{
    double e[3], q[3], c[3], ee;
    dcv_sub(e, b, a);
    dcv_sub(q, p, a);
    ee = dcv_dot(e, e);
    if (!(ee > DST_MIN_DENOM)) return dcv_norm(q);
    dcv_cross(c, e, q);
    return dcv_norm(c) / sqrt(ee);
}

/* Result for a Minkowski difference of zero thickness along `normal` (flat cores): the
 * core depth is 0; witnesses are the origin's barycentric point on the simplex. */
static void epa_flat(const EpaWork *wk, const DstConvex *a, const DstConvex *b,
                     const double normal_hint[3], double thickness, DstEpaResult *out)
{
    double lam[4], v[3], pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0}, nrm[3], centre[3];
    int n = wk->nv < 4 ? wk->nv : 4;
    dst_gjk_closest_on_simplex(wk->vert, n, lam, v);
    for (int q = 0; q < n; ++q) {
        dcv_axpy(pa, pa, lam[q], wk->vert[q].a);
        dcv_axpy(pb, pb, lam[q], wk->vert[q].b);
    }
    /* orient the normal from B's origin to A's origin when that says anything */
    dcv_copy(nrm, normal_hint);
    dcv_sub(centre, a->pos, b->pos);
    if (dcv_dot(nrm, centre) < 0.0) dcv_scale(nrm, nrm, -1.0);
    dcv_copy(out->normal, nrm);
    out->depth = a->margin + b->margin;
    out->depth_lower = out->depth;
    out->depth_upper = out->depth + thickness;
    dcv_axpy(out->point_a, pa, -a->margin, nrm);
    dcv_axpy(out->point_b, pb, b->margin, nrm);
}

/* barycentric coordinates of p (on the face plane) from the signed sub-triangle areas along
 * the face normal; negative outside an edge; they sum to 1 */
static void epa_barycentric(const EpaWork *wk, const EpaFace *F, const double p[3], double l[3])
{
    double e1[3], e2[3], t[3], sum = 0.0;
    for (int k = 0; k < 3; ++k) {
        dcv_sub(e1, wk->vert[F->v[(k + 1) % 3]].w, p);
        dcv_sub(e2, wk->vert[F->v[(k + 2) % 3]].w, p);
        dcv_cross(t, e1, e2);
        l[k] = dcv_dot(t, F->n);
        sum += l[k];
    }
    if (fabs(sum) > DST_MIN_DENOM) {
        for (int k = 0; k < 3; ++k) l[k] /= sum;
    }
}

/* Options sanity: positive cap, finite non-negative tolerances. */
static int epa_options_ok(const DstEpaOptions *o)
{
    return o->max_iter > 0 && isfinite(o->rel_tol) && o->rel_tol >= 0.0 && isfinite(o->abs_tol) &&
           o->abs_tol >= 0.0;
}

/* EPA: expand a polytope inside A - B from the GJK simplex towards the boundary point
 * nearest the origin (thesis sec. II.C.1; docs/math/gjk_epa.md eq. (18)-(23)). */
static DstStatus epa_depth(const DstConvex *a, const DstConvex *b, const DstGjkResult *gjk,
                           const DstEpaOptions *opt, int validate, DstEpaResult *out, char *err,
                           size_t err_size);

DstStatus dst_epa_depth(const DstConvex *a, const DstConvex *b, const DstGjkResult *gjk,
                        const DstEpaOptions *opt, DstEpaResult *out, char *err, size_t err_size)
{
    return epa_depth(a, b, gjk, opt, 1, out, err, err_size);
}

/* The EPA proper; `validate` = 0 when the caller (dst_convex_distance) has just validated
 * the same two shapes through GJK. */
static DstStatus epa_depth(const DstConvex *a, const DstConvex *b, const DstGjkResult *gjk,
                           const DstEpaOptions *opt, int validate, DstEpaResult *out, char *err,
                           size_t err_size)
{
    DstEpaOptions o = opt != NULL ? *opt : dst_epa_options_default();
    EpaWork wk;
    double scale, touch, min_area2, plane_eps, upper = HUGE_VAL, ma, mb;
    int best = -1, iter = 0, limit = 0;
    DstStatus st;

    if (out == NULL) return DST_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    st = validate ? dst_convex_validate_pair(a, b, err, err_size) : DST_OK;
    if (st != DST_OK) {
        out->status = st;
        return st;
    }
    if (!epa_options_ok(&o)) {
        out->status = epa_error(err, err_size, DST_INVALID_INPUT,
                                "epa options: max_iter must be > 0 and tolerances finite >= 0");
        return out->status;
    }
    if (gjk == NULL || !gjk->cores_overlap || gjk->count < 1 || gjk->count > 4) {
        out->status = epa_error(err, err_size, DST_INVALID_INPUT,
                                "epa: needs a GJK result whose cores overlap (cores_overlap = 1)");
        return out->status;
    }
    ma = a->margin;
    mb = b->margin;
    wk.nv = gjk->count;
    wk.nf = 0;
    memcpy(wk.vert, gjk->simplex, sizeof(DstSimplexVertex) * (size_t)gjk->count);
    scale = gjk->scale;
    for (int q = 0; q < wk.nv; ++q) {
        if (!isfinite(wk.vert[q].w[0] + wk.vert[q].w[1] + wk.vert[q].w[2])) {
            out->status = epa_error(err, err_size, DST_INVALID_INPUT, "epa: non-finite simplex");
            return out->status;
        }
        scale = fmax(scale, dcv_norm(wk.vert[q].w));
    }

    /* ---- grow the simplex to a tetrahedron that contains the origin (eq. (18)) */
    {
        static const double axes[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                          {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
        DstSimplexVertex w;
        double e[3], d1[3], d2[3], nrm[3], vol;
        /* the scale of a point-like difference comes from a few supports (a tetrahedron
         * from GJK already carries it) */
        for (int q = 0; q < 6 && wk.nv < 4; ++q) {
            if (!epa_support(a, b, axes[q], &w)) {
                out->status =
                    epa_error(err, err_size, DST_FAILED, "epa: a support point is not finite");
                return out->status;
            }
            scale = fmax(scale, dcv_norm(w.w));
        }
        touch = DST_CONVEX_TOUCH_REL * scale;
        plane_eps = DST_EPA_PLANE_REL * scale;
        min_area2 =
            (DST_GJK_DEGENERATE_REL * scale * scale) * (DST_GJK_DEGENERATE_REL * scale * scale);
        if (wk.nv == 4) {
            /* drop a flat tetrahedron to its largest face */
            double t[3];
            dcv_sub(e, wk.vert[1].w, wk.vert[0].w);
            dcv_sub(d1, wk.vert[2].w, wk.vert[0].w);
            dcv_sub(d2, wk.vert[3].w, wk.vert[0].w);
            dcv_cross(t, d1, d2);
            vol = fabs(dcv_dot(e, t));
            if (vol <= DST_GJK_DEGENERATE_REL * scale * scale * scale) {
                static const int face[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
                double best_area = -1.0;
                int bf = 3;
                DstSimplexVertex keep[3];
                for (int f = 0; f < 4; ++f) {
                    dcv_sub(e, wk.vert[face[f][1]].w, wk.vert[face[f][0]].w);
                    dcv_sub(d1, wk.vert[face[f][2]].w, wk.vert[face[f][0]].w);
                    dcv_cross(t, e, d1);
                    if (dcv_dot(t, t) > best_area) {
                        best_area = dcv_dot(t, t);
                        bf = f;
                    }
                }
                for (int k = 0; k < 3; ++k) keep[k] = wk.vert[face[bf][k]];
                memcpy(wk.vert, keep, sizeof keep);
                wk.nv = 3;
            }
        }
        if (wk.nv == 3) {
            /* drop a collinear triangle to its longest edge */
            double t[3];
            dcv_sub(e, wk.vert[1].w, wk.vert[0].w);
            dcv_sub(d1, wk.vert[2].w, wk.vert[0].w);
            dcv_cross(t, e, d1);
            if (dcv_dot(t, t) <= min_area2) {
                double l01 = dcv_dist2(wk.vert[0].w, wk.vert[1].w);
                double l02 = dcv_dist2(wk.vert[0].w, wk.vert[2].w);
                double l12 = dcv_dist2(wk.vert[1].w, wk.vert[2].w);
                if (l02 >= l01 && l02 >= l12) {
                    wk.vert[1] = wk.vert[2];
                } else if (l12 >= l01 && l12 >= l02) {
                    wk.vert[0] = wk.vert[2];
                }
                wk.nv = 2;
            }
        }
        if (wk.nv == 2 && sqrt(dcv_dist2(wk.vert[0].w, wk.vert[1].w)) <= touch) wk.nv = 1;
        if (wk.nv == 1) {
            double far = 0.0;
            int pick = -1;
            DstSimplexVertex cand[6];
            for (int q = 0; q < 6; ++q) {
                double dd;
                epa_support(a, b, axes[q], &cand[q]);
                dd = sqrt(dcv_dist2(cand[q].w, wk.vert[0].w));
                if (dd > far) {
                    far = dd;
                    pick = q;
                }
            }
            if (pick < 0 || far <= touch) {
                /* the difference is a point: cores coincide as points */
                double z[3] = {0, 0, 1};
                epa_flat(&wk, a, b, z, far, out);
                out->status = out->depth <= touch ? DST_TOUCHING : DST_PENETRATING;
                return out->status;
            }
            wk.vert[wk.nv++] = cand[pick];
        }
        if (wk.nv == 2) {
            double far = 0.0, dir[4][3];
            int pick = -1;
            DstSimplexVertex cand[4];
            dcv_sub(e, wk.vert[1].w, wk.vert[0].w);
            epa_perp(e, d1);
            dcv_cross(d2, e, d1);
            dcv_scale(d2, d2, 1.0 / dcv_norm(d2));
            dcv_copy(dir[0], d1);
            dcv_scale(dir[1], d1, -1.0);
            dcv_copy(dir[2], d2);
            dcv_scale(dir[3], d2, -1.0);
            for (int q = 0; q < 4; ++q) {
                double dd;
                epa_support(a, b, dir[q], &cand[q]);
                dd = epa_line_dist(cand[q].w, wk.vert[0].w, wk.vert[1].w);
                if (dd > far) {
                    far = dd;
                    pick = q;
                }
            }
            if (pick < 0 || far <= touch) {
                /* the difference is a segment through the origin */
                epa_flat(&wk, a, b, d1, far, out);
                out->status = out->depth <= touch ? DST_TOUCHING : DST_PENETRATING;
                return out->status;
            }
            wk.vert[wk.nv++] = cand[pick];
        }
        if (wk.nv == 3) {
            DstSimplexVertex up, down;
            double hu, hd, len;
            dcv_sub(e, wk.vert[1].w, wk.vert[0].w);
            dcv_sub(d1, wk.vert[2].w, wk.vert[0].w);
            dcv_cross(nrm, e, d1);
            len = dcv_norm(nrm);
            if (!(len > DST_MIN_DENOM)) {
                out->status =
                    epa_error(err, err_size, DST_FAILED, "epa: degenerate starting triangle");
                return out->status;
            }
            dcv_scale(nrm, nrm, 1.0 / len);
            dcv_scale(d2, nrm, -1.0);
            epa_support(a, b, nrm, &up);
            epa_support(a, b, d2, &down);
            hu = dcv_dot(nrm, up.w) - dcv_dot(nrm, wk.vert[0].w);
            hd = dcv_dot(nrm, wk.vert[0].w) - dcv_dot(nrm, down.w);
            if (fmax(hu, hd) <= touch) {
                /* the difference is flat (zero thickness along nrm) */
                epa_flat(&wk, a, b, nrm, fmax(hu, hd), out);
                out->status = out->depth <= touch ? DST_TOUCHING : DST_PENETRATING;
                return out->status;
            }
            wk.vert[wk.nv++] = hu >= hd ? up : down;
        }
    }

    /* ---- the four faces, oriented away from the centroid (eq. (19)) */
    {
        static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
        double c[3] = {0, 0, 0};
        for (int q = 0; q < 4; ++q) dcv_axpy(c, c, 0.25, wk.vert[q].w);
        for (int f = 0; f < 4; ++f) {
            EpaFace *F = &wk.face[f];
            F->v[0] = tf[f][0];
            F->v[1] = tf[f][1];
            F->v[2] = tf[f][2];
            if (!epa_plane(&wk, F->v[0], F->v[1], F->v[2], min_area2, F->n, &F->dist)) {
                out->status =
                    epa_error(err, err_size, DST_FAILED, "epa: degenerate starting tetrahedron");
                return out->status;
            }
            if (dcv_dot(F->n, c) > F->dist) {
                int t = F->v[1];
                F->v[1] = F->v[2];
                F->v[2] = t;
                dcv_scale(F->n, F->n, -1.0);
                F->dist = -F->dist;
            }
            F->alive = 1;
            F->gen = 0;
            F->mark = 0;
        }
        /* neighbours by matching reversed edges */
        for (int f = 0; f < 4; ++f) {
            for (int k = 0; k < 3; ++k) {
                int i = wk.face[f].v[k], j = wk.face[f].v[(k + 1) % 3];
                wk.face[f].nb[k] = -1;
                for (int g = 0; g < 4; ++g) {
                    for (int l = 0; l < 3; ++l) {
                        if (wk.face[g].v[l] == j && wk.face[g].v[(l + 1) % 3] == i) {
                            wk.face[f].nb[k] = g;
                        }
                    }
                }
            }
        }
        wk.nf = 4;
        wk.nfree = 0;
        wk.nheap = 0;
        for (int f = 0; f < 4; ++f) heap_push(&wk, f);
    }

    /* ---- expansion (eq. (20)-(22)): nearest face from the heap, visible region by a
     * search over face neighbours, horizon as one loop, cone of new faces */
    for (;;) {
        DstSimplexVertex w;
        double h, gap_tol;
        int vis[DST_EPA_MAX_FACES], nvis = 0, stack[DST_EPA_MAX_FACES], top = 0;
        int hz[DST_EPA_MAX_FACES + 2][3], nh = 0;
        int start_of[DST_EPA_MAX_VERTS], end_of[DST_EPA_MAX_VERTS];
        double newn[DST_EPA_MAX_FACES + 2][3], newd[DST_EPA_MAX_FACES + 2];
        int newf[DST_EPA_MAX_FACES + 2];
        int ok = 1;

        best = heap_top(&wk);
        if (best < 0) {
            out->status = epa_error(err, err_size, DST_FAILED, "epa: polytope lost all faces");
            return out->status;
        }
        if (iter >= o.max_iter || wk.nv >= DST_EPA_MAX_VERTS) {
            limit = 1;
            break;
        }
        ++iter;
        if (!epa_support_hint(a, b, wk.face[best].n, wk.vert[wk.face[best].v[0]].id_a,
                              wk.vert[wk.face[best].v[0]].id_b, &w)) {
            out->status =
                epa_error(err, err_size, DST_FAILED, "epa: a support point is not finite");
            return out->status;
        }
        h = dcv_dot(wk.face[best].n, w.w);
        upper = fmin(upper, h);
        gap_tol = o.rel_tol * fmax(wk.face[best].dist, 0.0) + o.abs_tol * scale;
        if (h - wk.face[best].dist <= fmax(gap_tol, plane_eps)) break;
        for (int q = 0; q < wk.nv; ++q) {
            if (w.id_a >= 0 && w.id_b >= 0 && w.id_a == wk.vert[q].id_a &&
                w.id_b == wk.vert[q].id_b) {
                ok = 0; /* an existing vertex: the polytope cannot grow here */
            }
        }
        if (!ok) break;

        /* visible region: from the expanded face across neighbours that see w by more than
         * plane_eps, so that rounding on coplanar faces cannot pinch it */
        stack[top++] = best;
        wk.face[best].mark = 1;
        while (top > 0) {
            int f = stack[--top];
            vis[nvis++] = f;
            for (int k = 0; k < 3; ++k) {
                int g = wk.face[f].nb[k];
                if (g >= 0 && !wk.face[g].mark &&
                    dcv_dot(wk.face[g].n, w.w) - wk.face[g].dist > plane_eps) {
                    wk.face[g].mark = 1;
                    stack[top++] = g;
                }
            }
        }
        /* horizon: edges of visible faces whose neighbour is not visible */
        for (int p = 0; p < nvis && ok; ++p) {
            const EpaFace *F = &wk.face[vis[p]];
            for (int k = 0; k < 3; ++k) {
                int g = F->nb[k];
                if (g < 0) {
                    ok = 0;
                } else if (!wk.face[g].mark) {
                    if (nh >= DST_EPA_MAX_FACES + 2) {
                        ok = 0;
                        break;
                    }
                    hz[nh][0] = F->v[k];
                    hz[nh][1] = F->v[(k + 1) % 3];
                    hz[nh][2] = g;
                    ++nh;
                }
            }
        }
        for (int p = 0; p < nvis; ++p) wk.face[vis[p]].mark = 0;
        /* the horizon must be one simple loop */
        for (int q = 0; q < wk.nv; ++q) start_of[q] = end_of[q] = -1;
        if (nh < 3) ok = 0;
        for (int q = 0; q < nh && ok; ++q) {
            if (start_of[hz[q][0]] != -1 || end_of[hz[q][1]] != -1) ok = 0;
            start_of[hz[q][0]] = q;
            end_of[hz[q][1]] = q;
        }
        if (ok) {
            int cur = 0, steps = 0;
            do {
                cur = start_of[hz[cur][1]];
                ++steps;
            } while (cur > 0 && steps <= nh);
            if (cur != 0 || steps != nh) ok = 0;
        }
        /* new faces (i, j, w) must be proper triangles */
        wk.vert[wk.nv] = w;
        for (int q = 0; q < nh && ok; ++q) {
            if (!epa_plane(&wk, hz[q][0], hz[q][1], wk.nv, min_area2, newn[q], &newd[q])) ok = 0;
        }
        /* capacity: the visible slots, the free slots and the unused tail */
        if (ok && (wk.nf + nh - nvis - wk.nfree > DST_EPA_MAX_FACES)) ok = 0;
        if (!ok) {
            /* rounding broke the topology: stop with the bounds reached so far */
            limit = 1;
            break;
        }
        /* commit: retire the visible faces (their slots are reused) */
        for (int p = 0; p < nvis; ++p) {
            wk.face[vis[p]].alive = 0;
            ++wk.face[vis[p]].gen;
            wk.free_slot[wk.nfree++] = vis[p];
        }
        for (int q = 0; q < nh; ++q) newf[q] = wk.nfree > 0 ? wk.free_slot[--wk.nfree] : wk.nf++;
        for (int q = 0; q < nh; ++q) {
            EpaFace *F = &wk.face[newf[q]];
            int i = hz[q][0], j = hz[q][1], g = hz[q][2];
            F->v[0] = i;
            F->v[1] = j;
            F->v[2] = wk.nv;
            F->nb[0] = g;
            F->nb[1] = newf[start_of[j]];
            F->nb[2] = newf[end_of[i]];
            dcv_copy(F->n, newn[q]);
            F->dist = newd[q];
            F->alive = 1;
            F->mark = 0;
            /* the outside neighbour now borders the new face across (j, i) */
            for (int k = 0; k < 3; ++k) {
                if (wk.face[g].v[k] == j && wk.face[g].v[(k + 1) % 3] == i)
                    wk.face[g].nb[k] = newf[q];
            }
            if (wk.nheap >= EPA_HEAP_CAP) heap_rebuild(&wk);
            heap_push(&wk, newf[q]);
        }
        ++wk.nv;
    }

    /* ---- result from the face nearest the origin (eq. (23)): the projection p of the
     * origin on its plane lies in the polytope's face on that plane, which may be split into
     * several coplanar triangles: take the one that contains p */
    {
        const EpaFace *F = &wk.face[best];
        double p[3], pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0}, l[3], nrm[3];
        double depth_core = fmax(F->dist, 0.0), best_min = -HUGE_VAL;
        double plane_tol = DST_GJK_DEGENERATE_REL * 1e3 * scale;
        int pick = best;
        dcv_scale(p, F->n, F->dist);
        for (int f = 0; f < wk.nf; ++f) {
            const EpaFace *G = &wk.face[f];
            double m;
            if (!G->alive) continue;
            if (f != best && (fabs(G->dist - F->dist) > plane_tol ||
                              dcv_dot(G->n, F->n) < 1.0 - DST_GJK_DEGENERATE_REL * 1e3)) {
                continue;
            }
            epa_barycentric(&wk, G, p, l);
            m = fmin(l[0], fmin(l[1], l[2]));
            if (m > best_min) {
                best_min = m;
                pick = f;
            }
        }
        epa_barycentric(&wk, &wk.face[pick], p, l);
        {
            double sum = 0.0;
            for (int k = 0; k < 3; ++k) {
                l[k] = fmax(l[k], 0.0);
                sum += l[k];
            }
            if (!(sum > DST_MIN_DENOM)) {
                l[0] = l[1] = l[2] = 1.0;
                sum = 3.0;
            }
            for (int k = 0; k < 3; ++k) {
                const DstSimplexVertex *V = &wk.vert[wk.face[pick].v[k]];
                dcv_axpy(pa, pa, l[k] / sum, V->a);
                dcv_axpy(pb, pb, l[k] / sum, V->b);
            }
        }
        /* normal from B to A is minus the outward face normal */
        dcv_scale(nrm, F->n, -1.0);
        dcv_copy(out->normal, nrm);
        out->depth = depth_core + ma + mb;
        out->depth_lower = out->depth;
        out->depth_upper = fmax(upper, depth_core) + ma + mb;
        dcv_axpy(out->point_a, pa, -ma, nrm);
        dcv_axpy(out->point_b, pb, mb, nrm);
        out->iterations = iter;
        out->faces = 0;
        for (int f = 0; f < wk.nf; ++f) out->faces += wk.face[f].alive;
    }
    if (limit && out->depth_upper - out->depth_lower > o.rel_tol * out->depth + o.abs_tol * scale) {
        out->status = DST_ITER_LIMIT;
    } else {
        out->status = out->depth <= touch ? DST_TOUCHING : DST_PENETRATING;
    }
    return out->status;
}

/* Signed distance = GJK distance when the cores are apart, minus the EPA depth when they
 * overlap (docs/math/gjk_epa.md eq. (3), (24)). */
DstStatus dst_convex_distance(const DstConvex *a, const DstConvex *b, const DstGjkOptions *gjk_opt,
                              const DstEpaOptions *epa_opt, DstGjkCache *cache,
                              DstConvexDistance *out, char *err, size_t err_size)
{
    DstGjkResult g;
    DstEpaResult e;
    if (out == NULL) return DST_INVALID_INPUT;
    memset(out, 0, sizeof *out);
    dst_gjk_distance(a, b, gjk_opt, cache, &g, err, err_size);
    out->gjk_iterations = g.iterations;
    if (g.status == DST_INVALID_INPUT || g.status == DST_FAILED) {
        out->status = g.status;
        return out->status;
    }
    if (!g.cores_overlap) {
        out->status = g.status;
        out->distance = g.distance;
        out->lower = g.lower;
        out->upper = g.distance;
        dcv_copy(out->point_a, g.point_a);
        dcv_copy(out->point_b, g.point_b);
        dcv_copy(out->normal, g.normal);
        return out->status;
    }
    epa_depth(a, b, &g, epa_opt, 0, &e, err, err_size); /* GJK validated a and b */
    out->epa_iterations = e.iterations;
    out->status = e.status;
    if (e.status == DST_INVALID_INPUT || e.status == DST_FAILED) return out->status;
    out->distance = -e.depth;
    out->lower = -e.depth_upper;
    out->upper = -e.depth_lower;
    dcv_copy(out->point_a, e.point_a);
    dcv_copy(out->point_b, e.point_b);
    dcv_copy(out->normal, e.normal);
    return out->status;
}
