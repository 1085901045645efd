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

/* A polytope face. 64 bytes: one cache line. */
typedef struct EpaFace {
    double n[3]; /* outward unit normal */
    double dist; /* n . w of a vertex: signed distance of the plane from the origin */
    int v[3];    /* counter-clockwise seen from outside */
    int adj[3];  /* neighbour across edge (v[k], v[k+1]) as (face << 2) | its edge index */
    int state;   /* EPA_ALIVE, EPA_VISIBLE (seen from the new vertex, retired at commit),
                    EPA_DEAD */
    int cand;    /* position in the candidate list, -1 when not listed */
} EpaFace;

enum { EPA_ALIVE = 0, EPA_VISIBLE = 1, EPA_DEAD = 2 };

#define EPA_IDBITS 16

/* Face slots: the live faces of a polytope with DST_EPA_MAX_VERTS vertices (2V - 4), plus
 * the cone of one step, built in fresh slots before the visible faces are retired. */
#define EPA_FACE_CAP (DST_EPA_MAX_FACES + DST_EPA_MAX_VERTS)

/* Fixed workspace on the stack (about 43 KB), no allocation; apart from the 128-byte id
 * filter nothing in it is cleared per call (every entry is written before it is read). */
typedef struct EpaWork {
    DstSimplexVertex vert[DST_EPA_MAX_VERTS];
    int id_a[DST_EPA_MAX_VERTS], id_b[DST_EPA_MAX_VERTS]; /* feature ids, contiguous */
    int vmark[DST_EPA_MAX_VERTS]; /* horizon vertex stamp: the step that used it last */
    /* filter for "w is an existing vertex": bit (id_a mod 16, id_b mod 64) is set for every
     * vertex with feature ids; a set bit is confirmed by a scan (cleared per call: 128 B) */
    unsigned long long idbits[EPA_IDBITS];
    int nv;
    EpaFace face[EPA_FACE_CAP];
    int nf;                       /* slots 0..nf-1 have been used */
    int nlive;                    /* live faces */
    int free_slot[EPA_FACE_CAP];  /* retired face slots available for reuse */
    int nfree;
    /* candidate faces for the nearest one (eq. (20)): every face whose distance was <= the
     * upper bound when it was built, minus retired faces and entries found beyond the
     * bound since. The bound only decreases, so every unlisted live face is farther than
     * the current bound, hence than every remaining entry: the nearest entry is the
     * nearest live face. */
    int cand_f[EPA_FACE_CAP];
    double cand_d[EPA_FACE_CAP];
    int ncand;
} EpaWork;

/* adds face f to the candidate list */
static void cand_add(EpaWork *wk, int f)
{
    wk->face[f].cand = wk->ncand;
    wk->cand_f[wk->ncand] = f;
    wk->cand_d[wk->ncand] = wk->face[f].dist;
    ++wk->ncand;
}

/* removes entry q of the candidate list (the last entry takes its place) */
static void cand_remove(EpaWork *wk, int q)
{
    int last = --wk->ncand;
    wk->face[wk->cand_f[q]].cand = -1;
    if (q != last) {
        wk->cand_f[q] = wk->cand_f[last];
        wk->cand_d[q] = wk->cand_d[last];
        wk->face[wk->cand_f[q]].cand = q;
    }
}

/* records vertex v's feature ids in the duplicate filter */
static void idbits_add(EpaWork *wk, int v)
{
    int ia = wk->id_a[v], ib = wk->id_b[v];
    if (ia >= 0 && ib >= 0) wk->idbits[ia & (EPA_IDBITS - 1)] |= 1ULL << (ib & 63);
}

/* 1 when a vertex of the polytope has the feature ids (ia, ib), both >= 0 */
static int epa_has_vertex(const EpaWork *wk, int ia, int ib)
{
    int dup = 0;
    if (!((wk->idbits[ia & (EPA_IDBITS - 1)] >> (ib & 63)) & 1ULL)) return 0;
    for (int q = 0; q < wk->nv; ++q) dup |= (wk->id_a[q] == ia) & (wk->id_b[q] == ib);
    return dup;
}

/* Nearest face of the polytope (eq. (20)): the nearest listed candidate, dropping entries
 * beyond the upper bound; when none is left (only by rounding: the nearest face cannot be
 * farther than an upper bound of the depth), the nearest live face by a full scan. -1 if
 * there is no live face. */
static int epa_nearest(EpaWork *wk, double upper)
{
    int best = -1;
    double bd = HUGE_VAL;
    for (int q = 0; q < wk->ncand;) {
        double d = wk->cand_d[q];
        if (d > upper) {
            cand_remove(wk, q);
            continue;
        }
        if (d < bd) {
            bd = d;
            best = wk->cand_f[q];
        }
        ++q;
    }
    if (best >= 0) return best;
    for (int f = 0; f < wk->nf; ++f) {
        if (wk->face[f].state != EPA_DEAD && !(wk->face[f].dist >= bd)) {
            bd = wk->face[f].dist;
            best = f;
        }
    }
    return best;
}

/* One expansion step with the new vertex w = vert[nv] (eq. (21)-(22)): the faces that
 * see w by more than plane_eps (so that rounding on coplanar faces cannot pinch the region),
 * found by a depth-first walk over face neighbours from the expanded face `best`; the walk
 * enters a face across one edge and leaves across the next two in counter-clockwise order,
 * so the edges to faces that do not see w (the horizon) come out in loop order, and the loop
 * is checked as it comes (each edge starts where the last one ended, no vertex starts two
 * edges, it closes). The cone face (i, j, w) of each horizon edge is built as its edge is
 * found, in a fresh slot (free ones first, then the unused tail), normal
 * (w_i - w) x (w_j - w) with the edge vectors from w shared by neighbouring cone faces. Only
 * when the loop and every cone face are proper are the visible faces retired and the cone
 * linked in; otherwise the polytope is left as it was and 0 is returned. */
static int epa_expand(EpaWork *wk, int best, double plane_eps, double min_area2, double upper,
                      int stamp)
{
    const int wv = wk->nv;
    double w[3]; /* a local copy: the stores into faces cannot alias it */
    int vis[EPA_FACE_CAP], nvis = 0, stack[2 * EPA_FACE_CAP + 3], top = 0;
    int newf[EPA_FACE_CAP]; /* the cone faces in loop order */
    int nh = 0, first = -1, end = -1, nfree = wk->nfree, ntail = wk->nf, ok = 1;
    double dprev[3] = {0.0, 0.0, 0.0};
    EpaFace *face = wk->face;

    dcv_copy(w, wk->vert[wv].w);
    face[best].state = EPA_VISIBLE;
    vis[nvis++] = best;
    stack[top++] = (best << 2) | 2;
    stack[top++] = (best << 2) | 1;
    stack[top++] = (best << 2) | 0;
    while (top > 0) {
        int fe = stack[--top], f = fe >> 2, k = fe & 3;
        int ge = face[f].adj[k], g = ge >> 2;
        EpaFace *G = &face[g];
        if (G->state == EPA_VISIBLE) continue;
        if (dcv_dot(G->n, w) - G->dist > plane_eps) {
            int e = ge & 3;
            G->state = EPA_VISIBLE;
            vis[nvis++] = g;
            stack[top++] = (g << 2) | (e == 0 ? 2 : e - 1);
            stack[top++] = (g << 2) | (e == 2 ? 0 : e + 1);
        } else {
            int i = face[f].v[k], j = face[f].v[k == 2 ? 0 : k + 1], slot;
            double dj[3], nl[3], len, inv;
            EpaFace *C;
            if ((nh > 0 && i != end) || wk->vmark[i] == stamp) {
                ok = 0; /* not one simple loop */
                break;
            }
            wk->vmark[i] = stamp;
            end = j;
            if (nfree > 0) {
                slot = wk->free_slot[--nfree];
            } else if (ntail < EPA_FACE_CAP) {
                slot = ntail++;
            } else {
                ok = 0; /* workspace full */
                break;
            }
            C = &face[slot];
            if (nh == 0) {
                first = i;
                dcv_sub(dprev, wk->vert[i].w, w);
            }
            dcv_sub(dj, wk->vert[j].w, w);
            dcv_cross(nl, dprev, dj);
            len = dcv_norm(nl);
            if (!(len > DST_MIN_DENOM) || len * len <= min_area2) {
                ok = 0; /* a degenerate cone face */
                break;
            }
            inv = 1.0 / len;
            dcv_scale(nl, nl, inv);
            dcv_copy(C->n, nl);
            C->dist = dcv_dot(nl, w);
            C->v[0] = i;
            C->v[1] = j;
            C->v[2] = wv;
            /* links: the outside neighbour borders the cone face across (j, i) (a face that
             * does not see w is never entered, so the walk does not read what changes here),
             * and consecutive cone faces share the edge (j, w) */
            C->adj[0] = ge;
            face[g].adj[ge & 3] = slot << 2;
            if (nh > 0) {
                C->adj[2] = (newf[nh - 1] << 2) | 1;
                face[newf[nh - 1]].adj[1] = (slot << 2) | 2;
            }
            C->state = EPA_ALIVE;
            C->cand = -1;
            if (C->dist <= upper) cand_add(wk, slot);
            dcv_copy(dprev, dj);
            newf[nh++] = slot;
        }
    }
    if (ok && (nh < 3 || end != first)) ok = 0;
    if (!ok) {
        /* the caller stops expanding: the visible faces are live again and the cone faces
         * built so far are dropped (the links written into outside faces and the candidate
         * list are not read again) */
        for (int p = 0; p < nvis; ++p) face[vis[p]].state = EPA_ALIVE;
        for (int q = 0; q < nh; ++q) face[newf[q]].state = EPA_DEAD;
        return 0;
    }
    /* commit: close the ring of cone faces, retire the visible faces (slots reused) */
    face[newf[0]].adj[2] = (newf[nh - 1] << 2) | 1;
    face[newf[nh - 1]].adj[1] = (newf[0] << 2) | 2;
    wk->nf = ntail;
    wk->nfree = nfree;
    for (int p = 0; p < nvis; ++p) {
        EpaFace *V = &face[vis[p]];
        V->state = EPA_DEAD;
        if (V->cand >= 0) cand_remove(wk, V->cand);
        wk->free_slot[wk->nfree++] = vis[p];
    }
    wk->nlive += nh - nvis;
    wk->id_a[wv] = wk->vert[wv].id_a;
    wk->id_b[wv] = wk->vert[wv].id_b;
    wk->vmark[wv] = -1;
    idbits_add(wk, wv);
    ++wk->nv;
    return 1;
}

/* Support of A - B in direction d (a = s_A(d), b = s_B(-d)); 0 if not finite. */
static inline int epa_support_hint(const DstConvex *A, const DstConvex *B, const double d[3],
                                   int hint_a, int hint_b, DstSimplexVertex *out)
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

    /* ---- the four faces (eq. (19)): a fixed face table with its neighbours, oriented
     * outwards by ordering the tetrahedron so that face (0, 1, 2) faces away from vertex 3 */
    {
        static const int tf[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
        /* neighbour across edge (tf[f][k], tf[f][k+1]) as (face << 2) | edge */
        static const int ta[4][3] = {{(1 << 2) | 2, (3 << 2) | 2, (2 << 2) | 0},
                                     {(2 << 2) | 2, (3 << 2) | 0, (0 << 2) | 0},
                                     {(0 << 2) | 2, (3 << 2) | 1, (1 << 2) | 0},
                                     {(1 << 2) | 1, (2 << 2) | 1, (0 << 2) | 1}};
        double e1[3], e2[3], e3[3], t[3];
        dcv_sub(e1, wk.vert[1].w, wk.vert[0].w);
        dcv_sub(e2, wk.vert[2].w, wk.vert[0].w);
        dcv_sub(e3, wk.vert[3].w, wk.vert[0].w);
        dcv_cross(t, e1, e2);
        if (dcv_dot(t, e3) > 0.0) {
            DstSimplexVertex tmp = wk.vert[1];
            wk.vert[1] = wk.vert[2];
            wk.vert[2] = tmp;
        }
        memset(wk.idbits, 0, sizeof wk.idbits);
        for (int q = 0; q < 4; ++q) {
            wk.id_a[q] = wk.vert[q].id_a;
            wk.id_b[q] = wk.vert[q].id_b;
            wk.vmark[q] = -1;
            idbits_add(&wk, q);
        }
        wk.ncand = 0;
        for (int f = 0; f < 4; ++f) {
            EpaFace *F = &wk.face[f];
            for (int k = 0; k < 3; ++k) {
                F->v[k] = tf[f][k];
                F->adj[k] = ta[f][k];
            }
            if (!epa_plane(&wk, F->v[0], F->v[1], F->v[2], min_area2, F->n, &F->dist)) {
                out->status =
                    epa_error(err, err_size, DST_FAILED, "epa: degenerate starting tetrahedron");
                return out->status;
            }
            F->state = EPA_ALIVE;
            cand_add(&wk, f);
        }
        wk.nf = 4;
        wk.nfree = 0;
        wk.nlive = 4;
    }

    /* ---- expansion (eq. (20)-(22)): nearest candidate face, the visible region and its
     * horizon in loop order by one depth-first walk over face neighbours, cone of new faces */
    for (;;) {
        DstSimplexVertex *w;
        double h, gap_tol;
        const EpaFace *B;
        int wv = wk.nv;

        best = epa_nearest(&wk, upper);
        if (best < 0) {
            out->status = epa_error(err, err_size, DST_FAILED, "epa: polytope lost all faces");
            return out->status;
        }
        if (iter >= o.max_iter || wk.nv >= DST_EPA_MAX_VERTS) {
            limit = 1;
            break;
        }
        ++iter;
        B = &wk.face[best];
        w = &wk.vert[wv]; /* the support lands in the next vertex slot */
        if (!epa_support_hint(a, b, B->n, wk.id_a[B->v[0]], wk.id_b[B->v[0]], w)) {
            out->status =
                epa_error(err, err_size, DST_FAILED, "epa: a support point is not finite");
            return out->status;
        }
        h = dcv_dot(B->n, w->w);
        upper = dcv_min(upper, h);
        gap_tol = o.rel_tol * dcv_max(B->dist, 0.0) + o.abs_tol * scale;
        if (h - B->dist <= dcv_max(gap_tol, plane_eps)) break;
        /* an existing vertex: the polytope cannot grow here */
        if (w->id_a >= 0 && w->id_b >= 0 && epa_has_vertex(&wk, w->id_a, w->id_b)) break;

        /* visible region, horizon and cone (21)-(22) */
        if (!epa_expand(&wk, best, plane_eps, min_area2, upper, iter)) {
            /* rounding broke the topology: stop with the bounds reached so far */
            limit = 1;
            break;
        }
    }

    /* ---- result from the face nearest the origin (eq. (23)): the projection p of the
     * origin on its plane lies in the polytope's face on that plane, normally the nearest
     * face itself; when rounding or a face split into coplanar triangles puts p outside it,
     * take the coplanar live triangle that contains p */
    {
        const EpaFace *F = &wk.face[best];
        double p[3], pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0}, l[3], nrm[3];
        double depth_core = dcv_max(F->dist, 0.0);
        int pick = best;
        dcv_scale(p, F->n, F->dist);
        epa_barycentric(&wk, F, p, l);
        if (!(dcv_min(l[0], dcv_min(l[1], l[2])) >= 0.0)) {
            double plane_tol = DST_GJK_DEGENERATE_REL * 1e3 * scale;
            double best_min = dcv_min(l[0], dcv_min(l[1], l[2])), lg[3];
            for (int f = 0; f < wk.nf; ++f) {
                const EpaFace *G = &wk.face[f];
                double m;
                if (G->state == EPA_DEAD || f == best) continue;
                if (fabs(G->dist - F->dist) > plane_tol ||
                    dcv_dot(G->n, F->n) < 1.0 - DST_GJK_DEGENERATE_REL * 1e3) {
                    continue;
                }
                epa_barycentric(&wk, G, p, lg);
                m = dcv_min(lg[0], dcv_min(lg[1], lg[2]));
                if (m > best_min) {
                    best_min = m;
                    pick = f;
                    dcv_copy(l, lg);
                }
            }
        }
        {
            double sum = 0.0;
            for (int k = 0; k < 3; ++k) {
                l[k] = dcv_max(l[k], 0.0);
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
        out->depth_upper = dcv_max(upper, depth_core) + ma + mb;
        dcv_axpy(out->point_a, pa, -ma, nrm);
        dcv_axpy(out->point_b, pb, mb, nrm);
        out->iterations = iter;
        out->faces = wk.nlive;
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
