/* pln_view.c — view.html: embedded motion data (capsules, mesh poses, closest pairs,
 * clearance of the closest pairs, CoM, ZMP and support polygons) for the page's WebGL
 * renderer (three.js, planner/output/view/); display decimation of meshes. */
#include "output/pln_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dst_convex.h"
#include "base/pln_atomic.h"
#include "base/pln_json.h"
#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"
#include "output/pln_output.h"
#include "output/pln_view_assets.h"
#include "motion/pln_table.h"
#include "problem/pln_dynrows.h"

/* Significant digits of the embedded coordinates: 6 keep 1 um on a 1 m robot. */
#define PLN_VIEW_DIGITS 6

/* text as HTML character data or attribute value */
static void put_html(FILE *f, const char *s)
{
    for (; *s; ++s) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* JSON text inside a <script> element: '<', '>', '&' (which JSON allows only inside
 * strings) become \u escapes, as do U+2028/U+2029, so nothing in the data can end the
 * element or be read as markup; the JSON value is unchanged. */
static void put_script_json(FILE *f, const char *json, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned char c = (unsigned char)json[i];
        if (c == '<' || c == '>' || c == '&') {
            fprintf(f, "\\u%04x", c);
        } else if (c == 0xE2 && i + 2 < n && (unsigned char)json[i + 1] == 0x80 &&
                   ((unsigned char)json[i + 2] == 0xA8 || (unsigned char)json[i + 2] == 0xA9)) {
            fprintf(f, "\\u%04x", (unsigned char)json[i + 2] == 0xA8 ? 0x2028 : 0x2029);
            i += 2;
        } else {
            fputc(c, f);
        }
    }
}

/* colour class of a link: links of one limb share a colour. A limb starts at a link
 * whose parent has several children (the root is class 0); classes are numbered in
 * link order. */
static int link_color(const PlnRobot *robot, int link)
{
    int a = link, rank = 0;
    if (link <= 0) return 0;
    for (;;) {
        int parent = robot->links[a].parent, siblings = 0;
        if (parent < 0) return 0;
        for (int l = 1; l < robot->n_links; ++l) siblings += robot->links[l].parent == parent;
        if (siblings > 1 || parent == 0) break;
        a = parent;
    }
    /* rank of limb head a among all limb heads */
    for (int l = 1; l < a; ++l) {
        int parent = robot->links[l].parent, siblings = 0;
        for (int k = 1; k < robot->n_links; ++k) siblings += robot->links[k].parent == parent;
        rank += siblings > 1 || parent == 0;
    }
    return 1 + rank;
}

/* ---- display meshes ------------------------------------------------------------------ */

/* growth of the clustering cell between attempts, and the most attempts */
#define VIEW_CELL_GROWTH 1.25
#define VIEW_CELL_ATTEMPTS 200
/* cells per axis are kept below this, so that a cell key fits in 63 bits */
#define VIEW_MAX_CELLS_PER_AXIS 1000000
/* an ellipsoid is drawn as a UV ellipsoid of this many bands and sectors */
#define VIEW_ELLIPSOID_BANDS 10
#define VIEW_ELLIPSOID_SECTORS 16

typedef struct CellKey {
    long long key;
    int index;
} CellKey;

static int cmp_cell_key(const void *a, const void *b)
{
    const CellKey *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index - y->index;
}

typedef struct TriKey {
    int v[3];
} TriKey;

static int cmp_tri_key(const void *a, const void *b)
{
    const TriKey *x = a, *y = b;
    for (int k = 0; k < 3; ++k) {
        if (x->v[k] != y->v[k]) return x->v[k] < y->v[k] ? -1 : 1;
    }
    return 0;
}

/* Workspace of one decimation: per input vertex its cell key and cluster, per cluster
 * the sum of its vertices, per input triangle its clustered corners. */
typedef struct Decimator {
    const DstMesh *in;
    CellKey *keys;
    int *cluster;
    double (*sum)[4];
    TriKey *tris;
    int n_clusters, n_tris;
} Decimator;

/* clusters the vertices on a grid of edge h anchored at lo, maps and deduplicates the
 * triangles: afterwards tris[0 .. n_tris) are the distinct surviving triangles. */
static void decimate_at(Decimator *d, const double lo[3], double h)
{
    const DstMesh *in = d->in;
    const long long n = VIEW_MAX_CELLS_PER_AXIS;
    for (int i = 0; i < in->n_vertices; ++i) {
        long long c[3];
        for (int k = 0; k < 3; ++k) {
            double u = floor((in->vertices[i][k] - lo[k]) / h);
            c[k] = (long long)fmin(fmax(u, 0.0), (double)(n - 1));
        }
        d->keys[i].key = (c[0] * n + c[1]) * n + c[2];
        d->keys[i].index = i;
    }
    qsort(d->keys, (size_t)in->n_vertices, sizeof *d->keys, cmp_cell_key);
    d->n_clusters = 0;
    for (int s = 0; s < in->n_vertices; ++s) {
        if (s == 0 || d->keys[s].key != d->keys[s - 1].key) {
            memset(d->sum[d->n_clusters], 0, sizeof d->sum[0]);
            ++d->n_clusters;
        }
        int c = d->n_clusters - 1, i = d->keys[s].index;
        d->cluster[i] = c;
        for (int k = 0; k < 3; ++k) d->sum[c][k] += in->vertices[i][k];
        d->sum[c][3] += 1.0;
    }
    /* triangles on three distinct clusters, rotated to start at the smallest (the cyclic
     * order, hence the orientation, is kept), sorted and made unique */
    d->n_tris = 0;
    for (int t = 0; t < in->n_triangles; ++t) {
        int a = d->cluster[in->triangles[t][0]], b = d->cluster[in->triangles[t][1]],
            c = d->cluster[in->triangles[t][2]];
        if (a == b || b == c || a == c) continue;
        TriKey *k = &d->tris[d->n_tris++];
        if (a < b && a < c) { k->v[0] = a; k->v[1] = b; k->v[2] = c; }
        else if (b < c) { k->v[0] = b; k->v[1] = c; k->v[2] = a; }
        else { k->v[0] = c; k->v[1] = a; k->v[2] = b; }
    }
    qsort(d->tris, (size_t)d->n_tris, sizeof *d->tris, cmp_tri_key);
    int u = 0;
    for (int t = 0; t < d->n_tris; ++t) {
        if (u == 0 || cmp_tri_key(&d->tris[t], &d->tris[u - 1]) != 0) d->tris[u++] = d->tris[t];
    }
    d->n_tris = u;
}

/* Vertex clustering for display (Rossignac and Borrel 1993); see pln_view.h. */
PlnStatus pln_view_decimate(const DstMesh *in, int max_triangles, DstMesh *out, double *cell,
                            char *err, size_t err_size)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double area = 0.0, h;
    Decimator d;
    PlnStatus st = PLN_OK;
    char derr[256];

    memset(out, 0, sizeof *out);
    if (cell != NULL) *cell = 0.0;
    if (max_triangles < 1) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "decimation to %d triangles",
                          max_triangles);
    }
    if (in == NULL || in->n_triangles < 1 || in->n_vertices < 3) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "decimation of an empty mesh");
    }
    for (int i = 0; i < in->n_vertices; ++i) {
        for (int k = 0; k < 3; ++k) {
            double x = in->vertices[i][k];
            if (!isfinite(x)) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "decimation: vertex %d is not finite", i);
            }
            lo[k] = fmin(lo[k], x);
            hi[k] = fmax(hi[k], x);
        }
    }
    for (int t = 0; t < in->n_triangles; ++t) {
        for (int k = 0; k < 3; ++k) {
            if (in->triangles[t][k] < 0 || in->triangles[t][k] >= in->n_vertices) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "decimation: triangle %d refers to no vertex", t);
            }
        }
    }
    if (in->n_triangles <= max_triangles) {
        if (dst_mesh_create(&in->vertices[0][0], in->n_vertices, &in->triangles[0][0],
                            in->n_triangles, out, derr, sizeof derr) != DST_OK) {
            return pln_errorf(PLN_ERR_NOMEM, err, err_size, "decimation: %s", derr);
        }
        return PLN_OK;
    }
    for (int t = 0; t < in->n_triangles; ++t) {
        const double *a = in->vertices[in->triangles[t][0]], *b = in->vertices[in->triangles[t][1]],
                     *c = in->vertices[in->triangles[t][2]];
        double e1[3], e2[3];
        for (int k = 0; k < 3; ++k) {
            e1[k] = b[k] - a[k];
            e2[k] = c[k] - a[k];
        }
        double n0 = e1[1] * e2[2] - e1[2] * e2[1], n1 = e1[2] * e2[0] - e1[0] * e2[2],
               n2 = e1[0] * e2[1] - e1[1] * e2[0];
        area += 0.5 * sqrt(n0 * n0 + n1 * n1 + n2 * n2);
    }
    /* a surface of area A on cells of edge h keeps about A / h^2 vertices and twice as
     * many triangles; the grid never has more than VIEW_MAX_CELLS_PER_AXIS cells a side */
    double extent = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
    h = fmax(sqrt(2.0 * area / max_triangles), extent / (VIEW_MAX_CELLS_PER_AXIS / 2));
    if (!(h > 0.0)) h = fmax(extent, 1e-9);

    memset(&d, 0, sizeof d);
    d.in = in;
    d.keys = malloc((size_t)in->n_vertices * sizeof *d.keys);
    d.cluster = malloc((size_t)in->n_vertices * sizeof *d.cluster);
    d.sum = malloc((size_t)in->n_vertices * sizeof *d.sum);
    d.tris = malloc((size_t)in->n_triangles * sizeof *d.tris);
    if (d.keys == NULL || d.cluster == NULL || d.sum == NULL || d.tris == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    for (int attempt = 0;; ++attempt) {
        decimate_at(&d, lo, h);
        if (d.n_tris <= max_triangles || attempt + 1 >= VIEW_CELL_ATTEMPTS) break;
        h *= VIEW_CELL_GROWTH;
    }
    if (d.n_tris > max_triangles || d.n_tris < 1) {
        /* everything collapsed (or never fitted): a flat or tiny shape; draw nothing
         * wrong: report it */
        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                        "decimation: %d triangles left of %d (budget %d)", d.n_tris,
                        in->n_triangles, max_triangles);
        goto done;
    }
    {
        /* keep the clusters the triangles use, renumbered; vertices at the cluster means */
        int *map = d.cluster;  /* reused: cluster -> output vertex */
        int nv = 0;
        for (int c = 0; c < d.n_clusters; ++c) map[c] = -1;
        for (int t = 0; t < d.n_tris; ++t) {
            for (int k = 0; k < 3; ++k) {
                if (map[d.tris[t].v[k]] < 0) map[d.tris[t].v[k]] = nv++;
            }
        }
        double *V = malloc((size_t)nv * 3 * sizeof *V);
        int *T = malloc((size_t)d.n_tris * 3 * sizeof *T);
        if (V == NULL || T == NULL) {
            free(V);
            free(T);
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
            goto done;
        }
        for (int c = 0; c < d.n_clusters; ++c) {
            if (map[c] < 0) continue;
            for (int k = 0; k < 3; ++k) V[3 * map[c] + k] = d.sum[c][k] / d.sum[c][3];
        }
        for (int t = 0; t < d.n_tris; ++t) {
            for (int k = 0; k < 3; ++k) T[3 * t + k] = map[d.tris[t].v[k]];
        }
        if (dst_mesh_create(V, nv, T, d.n_tris, out, derr, sizeof derr) != DST_OK) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "decimation: %s", derr);
        }
        free(V);
        free(T);
        if (st == PLN_OK && cell != NULL) *cell = h;
    }
done:
    free(d.keys);
    free(d.cluster);
    free(d.sum);
    free(d.tris);
    return st;
}

/* A mesh the page draws: in a link's frame (posed per frame) or in the world (static). */
typedef struct ViewMesh {
    char name[2 * PLN_NAME_MAX];
    int link;        /* link index when posed by a link, -1 for a static world mesh */
    int obstacle;    /* obstacle index, -1 for a link's */
    int color;       /* colour class (link_color), -1 for an obstacle */
    double cell;     /* decimation cell, m (0: not decimated) */
    DstMesh mesh;
} ViewMesh;

static void view_meshes_free(ViewMesh *vm, int n)
{
    for (int i = 0; i < n; ++i) dst_mesh_destroy(&vm[i].mesh);
    free(vm);
}

/* a UV ellipsoid (VIEW_ELLIPSOID_BANDS x VIEW_ELLIPSOID_SECTORS, outward) in the link
 * frame: centre + R (radii * unit sphere point). */
static PlnStatus ellipsoid_mesh(const PlnLinkGeometry *g, DstMesh *out, char *err, size_t err_size)
{
    enum { B = VIEW_ELLIPSOID_BANDS, S = VIEW_ELLIPSOID_SECTORS };
    double V[3 * (2 + (B - 1) * S)];
    int T[3 * 2 * S * (B - 1)], nv = 0, nt = 0;
    const double pi = acos(-1.0);
    char derr[256];
    for (int i = 0; i <= B; ++i) {
        double th = pi * i / B;
        int count = (i == 0 || i == B) ? 1 : S;
        for (int j = 0; j < count; ++j) {
            double ph = 2.0 * pi * j / S;
            double u[3] = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};
            if (count == 1) u[0] = u[1] = 0.0;
            for (int r = 0; r < 3; ++r) {
                double x = g->ellipsoid_center[r];
                for (int c = 0; c < 3; ++c) x += g->ellipsoid_rot[3 * r + c] * g->ellipsoid_radii[c] * u[c];
                V[3 * nv + r] = x;
            }
            ++nv;
        }
    }
#define RING(i, j) (1 + ((i) - 1) * S + ((j) % S))
    for (int j = 0; j < S; ++j) {
        T[3 * nt] = 0; T[3 * nt + 1] = RING(1, j); T[3 * nt + 2] = RING(1, j + 1); ++nt;
    }
    for (int i = 1; i + 1 < B; ++i) {
        for (int j = 0; j < S; ++j) {
            int a = RING(i, j), b = RING(i + 1, j), c = RING(i + 1, j + 1), d = RING(i, j + 1);
            T[3 * nt] = a; T[3 * nt + 1] = b; T[3 * nt + 2] = c; ++nt;
            T[3 * nt] = a; T[3 * nt + 1] = c; T[3 * nt + 2] = d; ++nt;
        }
    }
    for (int j = 0; j < S; ++j) {
        T[3 * nt] = nv - 1; T[3 * nt + 1] = RING(B - 1, j + 1); T[3 * nt + 2] = RING(B - 1, j); ++nt;
    }
#undef RING
    if (dst_mesh_create(V, nv, T, nt, out, derr, sizeof derr) != DST_OK) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "ellipsoid for the viewer: %s", derr);
    }
    return PLN_OK;
}

/* the convex hull of a mesh's vertices as a mesh. */
static PlnStatus hull_mesh(const DstMesh *m, DstMesh *out, char *err, size_t err_size)
{
    DstHull hull;
    char derr[256];
    if (dst_hull_build(&m->vertices[0][0], m->n_vertices, 0.0, &hull, derr, sizeof derr) != DST_OK) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "convex hull for the viewer: %s", derr);
    }
    DstStatus ds = dst_mesh_create(hull.verts, hull.nverts, hull.tris, hull.ntris, out, derr,
                                   sizeof derr);
    dst_hull_destroy(&hull);
    if (ds != DST_OK) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "convex hull: %s", derr);
    return PLN_OK;
}

static PlnStatus read_mesh(const char *path, const double *scale, DstMesh *m, char *err,
                           size_t err_size)
{
    char derr[768];
    PlnStatus st = pln_mesh_read_scaled(path, scale, m, derr, sizeof derr);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "viewer: %s", derr);
    return PLN_OK;
}

/* The meshes of the page: every link's shape of the scenario's collision geometry when
 * it is not capsules, and every mesh obstacle (moved into the world). */
static PlnStatus view_meshes(const PlnProblem *p, ViewMesh **out, int *n_out, char *err,
                             size_t err_size)
{
    const PlnRobot *robot = p->robot;
    const PlnScenario *sc = p->scenario;
    ViewMesh *vm = calloc((size_t)(robot->n_links + sc->n_obstacles + 1), sizeof *vm);
    int n = 0;
    PlnStatus st = PLN_OK;
    *out = NULL;
    *n_out = 0;
    if (vm == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    for (int l = 0; l < robot->n_links && st == PLN_OK && sc->geometry != PLN_GEOMETRY_CAPSULE; ++l) {
        const PlnLinkGeometry *g = &robot->links[l].geometry;
        DstMesh src, hull;
        memset(&src, 0, sizeof src);
        memset(&hull, 0, sizeof hull);
        if (sc->geometry == PLN_GEOMETRY_ELLIPSOID) {
            if (!g->has_ellipsoid) continue;
            st = ellipsoid_mesh(g, &src, err, err_size);
        } else if (sc->geometry == PLN_GEOMETRY_CONVEX && g->convex_path[0] != '\0') {
            st = read_mesh(g->convex_path, NULL, &src, err, err_size);
        } else if (pln_link_has_mesh(g)) {
            /* its mesh file, or the union of its collision parts */
            char derr[768];
            st = pln_link_mesh_read(robot, l, &src, derr, sizeof derr);
            if (st != PLN_OK) st = pln_errorf(st, err, err_size, "viewer: %s", derr);
        } else {
            continue;
        }
        if (st == PLN_OK && sc->geometry == PLN_GEOMETRY_CONVEX) {
            /* the hull of the decimated vertices (convex, within the cell of the true
             * hull); a smaller budget until the hull fits */
            for (int budget = PLN_VIEW_LINK_MAX_TRIANGLES; st == PLN_OK; budget /= 2) {
                DstMesh dec;
                st = pln_view_decimate(&src, budget, &dec, &vm[n].cell, err, err_size);
                if (st != PLN_OK) break;
                st = hull_mesh(&dec, &hull, err, err_size);
                dst_mesh_destroy(&dec);
                if (st != PLN_OK) break;
                if (hull.n_triangles <= PLN_VIEW_LINK_MAX_TRIANGLES || budget <= 4) break;
                dst_mesh_destroy(&hull);
            }
            if (st == PLN_OK) vm[n].mesh = hull;
        } else if (st == PLN_OK) {
            st = pln_view_decimate(&src, PLN_VIEW_LINK_MAX_TRIANGLES, &vm[n].mesh, &vm[n].cell,
                                   err, err_size);
        }
        dst_mesh_destroy(&src);
        if (st != PLN_OK) break;
        if (sc->geometry != PLN_GEOMETRY_ELLIPSOID && g->has_file_pose) {
            /* a re-rooted model's shifted link: the file's points into the link frame */
            for (int i = 0; i < vm[n].mesh.n_vertices; ++i) {
                double *x = vm[n].mesh.vertices[i], w[3];
                for (int r = 0; r < 3; ++r) {
                    w[r] = g->file_pos[r];
                    for (int c = 0; c < 3; ++c) w[r] += g->file_rot[3 * r + c] * x[c];
                }
                memcpy(x, w, sizeof w);
            }
        }
        snprintf(vm[n].name, sizeof vm[n].name, "%s", robot->links[l].name);
        vm[n].link = l;
        vm[n].obstacle = -1;
        vm[n].color = link_color(robot, l);
        ++n;
    }
    for (int o = 0; o < sc->n_obstacles && st == PLN_OK; ++o) {
        const PlnObstacle *ob = &sc->obstacles[o];
        DstMesh src;
        if (ob->type != PLN_OBSTACLE_MESH) continue;
        st = read_mesh(ob->mesh_path, NULL, &src, err, err_size);
        if (st != PLN_OK) break;
        st = pln_view_decimate(&src, PLN_VIEW_OBSTACLE_MAX_TRIANGLES, &vm[n].mesh, &vm[n].cell,
                               err, err_size);
        dst_mesh_destroy(&src);
        if (st != PLN_OK) break;
        /* into the world: pos + rot (scale x) */
        double scale = ob->scale > 0.0 ? ob->scale : 1.0;
        for (int i = 0; i < vm[n].mesh.n_vertices; ++i) {
            double *x = vm[n].mesh.vertices[i], w[3];
            for (int r = 0; r < 3; ++r) {
                w[r] = ob->pos[r];
                for (int c = 0; c < 3; ++c) w[r] += ob->rot[3 * r + c] * scale * x[c];
            }
            memcpy(x, w, sizeof w);
        }
        vm[n].cell *= scale;
        snprintf(vm[n].name, sizeof vm[n].name, "%s", ob->name);
        vm[n].link = -1;
        vm[n].obstacle = o;
        vm[n].color = -1;
        ++n;
    }
    if (st != PLN_OK) {
        view_meshes_free(vm, n + 1);
        return st;
    }
    *out = vm;
    *n_out = n;
    return PLN_OK;
}

static const char *geometry_name(PlnGeometryKind g)
{
    switch (g) {
    case PLN_GEOMETRY_CONVEX: return "convex";
    case PLN_GEOMETRY_ELLIPSOID: return "ellipsoid";
    case PLN_GEOMETRY_MESH: return "mesh";
    default: return "capsule";
    }
}

/* a pair's smallest distance over the frames and its index, for the plot's choice */
typedef struct PlotPick {
    double dmin;
    int pair;
} PlotPick;

static int cmp_plot_pick(const void *a, const void *b)
{
    const PlotPick *x = a, *y = b;
    if (x->dmin != y->dmin) return x->dmin < y->dmin ? -1 : 1;
    return (x->pair > y->pair) - (x->pair < y->pair);
}

/* "plot_pairs": the (at most PLN_VIEW_PLOT_PAIRS) pairs with the smallest distance over
 * the frames, closest first; "clearance": per frame their distances (m). dist is
 * [n frames][np pairs]. */
static PlnStatus write_clearance(PlnJson *w, const double *dist, int n, int np)
{
    int k = np < PLN_VIEW_PLOT_PAIRS ? np : PLN_VIEW_PLOT_PAIRS;
    PlotPick *pick = calloc((size_t)(np > 0 ? np : 1), sizeof *pick);
    if (pick == NULL) return PLN_ERR_NOMEM;
    for (int pr = 0; pr < np; ++pr) {
        pick[pr].dmin = INFINITY;
        pick[pr].pair = pr;
        for (int s = 0; s < n; ++s) pick[pr].dmin = fmin(pick[pr].dmin, dist[(size_t)s * np + pr]);
    }
    qsort(pick, (size_t)np, sizeof *pick, cmp_plot_pick);
    pln_json_key(w, "plot_pairs");
    pln_json_begin_array(w);
    for (int i = 0; i < k; ++i) pln_json_int(w, pick[i].pair);
    pln_json_end_array(w);
    pln_json_key(w, "clearance");
    pln_json_begin_array(w);
    for (int s = 0; s < n; ++s) {
        pln_json_begin_array(w);
        for (int i = 0; i < k; ++i) {
            pln_json_number_digits(w, dist[(size_t)s * np + pick[i].pair], PLN_VIEW_DIGITS);
        }
        pln_json_end_array(w);
    }
    pln_json_end_array(w);
    free(pick);
    return PLN_OK;
}

/* the ZMP (world xy, m) at each frame time by the point-wise dynamics
 * (pln_dynrows_sample), null where no support phase holds or the floor force is too
 * small for a ZMP */
static PlnStatus write_zmp(PlnJson *w, const PlnProblem *p, const double *ctrl, const double *t,
                           int n, char *err, size_t err_size)
{
    PlnProblemWork *pw = NULL;
    double *tau = calloc((size_t)(p->n_joints > 0 ? p->n_joints : 1), sizeof *tau);
    PlnStatus st = tau == NULL ? pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory")
                               : pln_problem_work_create(p, &pw, err, err_size);
    if (st == PLN_OK) memcpy(pw->ctrl, ctrl, (size_t)p->n_active * p->n_ctrl * sizeof *ctrl);
    for (int s = 0; s < n && st == PLN_OK; ++s) {
        int phase = -1;
        double zmp[2];
        st = pln_dynrows_sample(p, pw, t[s], &phase, zmp, tau, err, err_size);
        if (st != PLN_OK) break;
        if (phase < 0 || !isfinite(zmp[0]) || !isfinite(zmp[1])) {
            pln_json_null(w);
            continue;
        }
        pln_json_begin_array(w);
        pln_json_number_digits(w, zmp[0], PLN_VIEW_DIGITS);
        pln_json_number_digits(w, zmp[1], PLN_VIEW_DIGITS);
        pln_json_end_array(w);
    }
    free(tau);
    pln_problem_work_destroy(pw);
    return st;
}

/* the embedded JSON document (see pln_view.h) */
static PlnStatus write_data(FILE *f, const PlnProblem *p, const double *ctrl,
                            const PlnCertificate *cert, double fps, const ViewMesh *vm, int n_vm,
                            char *err, size_t err_size)
{
    const PlnRobot *robot = p->robot;
    const PlnScenario *sc = p->scenario;
    const int np = sc->n_pairs;
    PlnKinWork *kin = NULL;
    double *t = NULL, *q = NULL, *dist = NULL;
    PlnGeomCache *cache = NULL; /* per pair: each frame warm-starts the next */
    int n = 0;
    PlnJson w;
    PlnStatus st = pln_table_times(sc->duration, fps, NULL, PLN_VIEW_MAX_FRAMES, &n, NULL, 0);
    if (st != PLN_OK) {
        /* a long motion: fewer frames per second */
        fps = (PLN_VIEW_MAX_FRAMES - 2) / sc->duration;
        st = pln_table_times(sc->duration, fps, NULL, PLN_VIEW_MAX_FRAMES, &n, err, err_size);
        if (st != PLN_OK) return st;
    }
    st = pln_kin_create(robot, &kin, err, err_size);
    if (st != PLN_OK) return st;
    t = calloc((size_t)n, sizeof *t);
    q = calloc((size_t)p->n_joints, sizeof *q);
    dist = calloc((size_t)n * (size_t)(np > 0 ? np : 1), sizeof *dist);
    cache = calloc((size_t)(np > 0 ? np : 1), sizeof *cache);
    for (int k = 0; cache != NULL && k < np; ++k) pln_geom_cache_reset(&cache[k]);
    if (t == NULL || q == NULL || dist == NULL || cache == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    pln_table_times(sc->duration, fps, t, n, &n, NULL, 0);

    pln_json_init(&w, f, 2);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "format", "hrpplan-view");
    pln_json_kv_int(&w, "version", 1);
    pln_json_kv_string(&w, "scenario", sc->name);
    pln_json_kv_string(&w, "robot", robot->name);
    pln_json_kv_bool(&w, "certified", cert != NULL && cert->certified);
    pln_json_kv_number(&w, "duration", sc->duration);
    pln_json_kv_number(&w, "eps", p->eps);
    pln_json_key(&w, "min_clearance");
    if (cert != NULL && cert->n_pairs > 0) pln_json_number(&w, cert->min_clearance);
    else pln_json_null(&w);
    pln_json_kv_string(&w, "geometry", geometry_name(sc->geometry));
    /* links with a capsule */
    pln_json_key(&w, "links");
    pln_json_begin_array(&w);
    for (int l = 0; l < robot->n_links; ++l) {
        const PlnLinkGeometry *g = &robot->links[l].geometry;
        if (!g->has_capsule) continue;
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "name", robot->links[l].name);
        pln_json_kv_number(&w, "radius", g->capsule_radius);
        pln_json_kv_int(&w, "color", link_color(robot, l));
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    pln_json_key(&w, "obstacles");
    pln_json_begin_array(&w);
    for (int o = 0; o < sc->n_obstacles; ++o) {
        const PlnObstacle *ob = &sc->obstacles[o];
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "name", ob->name);
        pln_json_key(&w, "p0");
        pln_json_begin_array(&w);
        for (int k = 0; k < 3; ++k) pln_json_number(&w, ob->p0[k]);
        pln_json_end_array(&w);
        pln_json_key(&w, "p1");
        pln_json_begin_array(&w);
        for (int k = 0; k < 3; ++k) pln_json_number(&w, ob->p1[k]);
        pln_json_end_array(&w);
        pln_json_kv_number(&w, "radius", ob->radius);
        if (ob->type == PLN_OBSTACLE_MESH) pln_json_kv_bool(&w, "mesh", 1);
        if (ob->type == PLN_OBSTACLE_BOX) {
            /* centre, row-major rotation, half extents: drawn as its 12 edges */
            pln_json_key(&w, "box");
            pln_json_begin_array(&w);
            for (int k = 0; k < 3; ++k) pln_json_number(&w, ob->pos[k]);
            for (int k = 0; k < 9; ++k) pln_json_number(&w, ob->rot[k]);
            for (int k = 0; k < 3; ++k) pln_json_number(&w, ob->half[k]);
            pln_json_end_array(&w);
        }
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    pln_json_key(&w, "pairs");
    pln_json_begin_array(&w);
    for (int pr = 0; pr < np; ++pr) {
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "a", sc->pairs[pr].a.name);
        pln_json_kv_string(&w, "b", sc->pairs[pr].b.name);
        pln_json_key(&w, "mcd_lower");
        if (cert != NULL) pln_json_number(&w, cert->pairs[pr].lower);
        else pln_json_null(&w);
        pln_json_key(&w, "t_min");
        if (cert != NULL) pln_json_number(&w, cert->pairs[pr].t_min);
        else pln_json_null(&w);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    /* the support phases (with dynamics): their time span and polygon on the floor */
    pln_json_key(&w, "support");
    pln_json_begin_array(&w);
    for (int ph = 0; p->dynamics && ph < p->n_phases; ++ph) {
        const PlnPhaseGeom *g = &p->phases[ph];
        pln_json_begin_object(&w);
        pln_json_kv_number(&w, "t0", g->t0);
        pln_json_kv_number(&w, "t1", g->t1);
        pln_json_key(&w, "polygon");
        pln_json_begin_array(&w);
        for (int e = 0; e < g->n_edges; ++e) {
            pln_json_number_digits(&w, g->polygon[e][0], PLN_VIEW_DIGITS);
            pln_json_number_digits(&w, g->polygon[e][1], PLN_VIEW_DIGITS);
        }
        pln_json_end_array(&w);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);

    /* meshes: decimated triangles in the link frame (posed per frame) or the world */
    int n_posed = 0;
    pln_json_key(&w, "meshes");
    pln_json_begin_array(&w);
    for (int m = 0; m < n_vm; ++m) {
        const DstMesh *ms = &vm[m].mesh;
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "name", vm[m].name);
        pln_json_key(&w, "link");
        if (vm[m].link >= 0) pln_json_string(&w, robot->links[vm[m].link].name);
        else pln_json_null(&w);
        pln_json_key(&w, "obstacle");
        if (vm[m].obstacle >= 0) pln_json_string(&w, sc->obstacles[vm[m].obstacle].name);
        else pln_json_null(&w);
        pln_json_kv_int(&w, "pose", vm[m].link >= 0 ? n_posed++ : -1);
        pln_json_kv_int(&w, "color", vm[m].color);
        pln_json_kv_number(&w, "cell", vm[m].cell);
        pln_json_key(&w, "v");
        pln_json_begin_array(&w);
        for (int i = 0; i < ms->n_vertices; ++i) {
            for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, ms->vertices[i][k], PLN_VIEW_DIGITS);
        }
        pln_json_end_array(&w);
        pln_json_key(&w, "t");
        pln_json_begin_array(&w);
        for (int i = 0; i < ms->n_triangles; ++i) {
            for (int k = 0; k < 3; ++k) pln_json_int(&w, ms->triangles[i][k]);
        }
        pln_json_end_array(&w);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);

    /* frames: capsule endpoints of every link, and the closest pair with witnesses */
    pln_json_key(&w, "frames");
    pln_json_begin_object(&w);
    pln_json_kv_number(&w, "fps", fps);
    pln_json_key(&w, "t");
    pln_json_begin_array(&w);
    for (int s = 0; s < n; ++s) pln_json_number_digits(&w, t[s], 9);
    pln_json_end_array(&w);
    pln_json_key(&w, "capsules");
    pln_json_begin_array(&w);
    for (int s = 0; s < n && st == PLN_OK; ++s) {
        st = pln_problem_joints_at(p, ctrl, t[s], q);
        if (st == PLN_OK) st = pln_kin_forward(kin, robot, q);
        if (st != PLN_OK) break;
        pln_json_begin_array(&w);
        for (int l = 0; l < robot->n_links; ++l) {
            const PlnLinkGeometry *g = &robot->links[l].geometry;
            double a[3], b[3];
            if (!g->has_capsule) continue;
            pln_kin_point(kin, l, g->capsule_p0, a);
            pln_kin_point(kin, l, g->capsule_p1, b);
            for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, a[k], PLN_VIEW_DIGITS);
            for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, b[k], PLN_VIEW_DIGITS);
        }
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    /* the pose (rotation, position) of each posed mesh's link */
    pln_json_key(&w, "poses");
    pln_json_begin_array(&w);
    for (int s = 0; s < n && st == PLN_OK; ++s) {
        st = pln_problem_joints_at(p, ctrl, t[s], q);
        if (st == PLN_OK) st = pln_kin_forward(kin, robot, q);
        if (st != PLN_OK) break;
        pln_json_begin_array(&w);
        for (int m = 0; m < n_vm; ++m) {
            if (vm[m].link < 0) continue;
            const double *R = pln_kin_link_rot(kin, vm[m].link), *x = pln_kin_link_pos(kin, vm[m].link);
            for (int k = 0; k < 9; ++k) pln_json_number_digits(&w, R[k], PLN_VIEW_DIGITS);
            for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, x[k], PLN_VIEW_DIGITS);
        }
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    pln_json_key(&w, "worst");
    pln_json_begin_array(&w);
    for (int s = 0; s < n && st == PLN_OK; ++s) {
        PlnPairDistance best, d;
        int arg = -1;
        st = pln_problem_joints_at(p, ctrl, t[s], q);
        if (st == PLN_OK) st = pln_kin_forward(kin, robot, q);
        if (st != PLN_OK) break;
        for (int pr = 0; pr < np; ++pr) {
            pln_geom_pair_distance(p->geom, kin, pr, &cache[pr], &d);
            dist[(size_t)s * np + pr] = d.distance;
            if (arg < 0 || d.distance < best.distance) {
                best = d;
                arg = pr;
            }
        }
        if (arg < 0) {
            pln_json_null(&w);
            continue;
        }
        pln_json_begin_array(&w);
        pln_json_int(&w, arg);
        pln_json_number_digits(&w, best.distance, PLN_VIEW_DIGITS);
        for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, best.pA[k], PLN_VIEW_DIGITS);
        for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, best.pB[k], PLN_VIEW_DIGITS);
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    /* the clearance plot: the distance of the PLN_VIEW_PLOT_PAIRS pairs that come
     * closest over the frames, per frame */
    if (st == PLN_OK) st = write_clearance(&w, dist, n, np);
    /* the centre of mass (null when the robot has no mass) and, with dynamics, the ZMP
     * (null outside every support phase or without floor force) */
    pln_json_key(&w, "com");
    pln_json_begin_array(&w);
    for (int s = 0; s < n && st == PLN_OK; ++s) {
        double com[3];
        st = pln_problem_joints_at(p, ctrl, t[s], q);
        if (st == PLN_OK) st = pln_kin_forward(kin, robot, q);
        if (st != PLN_OK) break;
        if (pln_kin_com(kin, robot, com) != PLN_OK) {
            pln_json_null(&w);
            continue;
        }
        pln_json_begin_array(&w);
        for (int k = 0; k < 3; ++k) pln_json_number_digits(&w, com[k], PLN_VIEW_DIGITS);
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    pln_json_key(&w, "zmp");
    pln_json_begin_array(&w);
    if (st == PLN_OK && p->dynamics && p->n_phases > 0) st = write_zmp(&w, p, ctrl, t, n, err, err_size);
    pln_json_end_array(&w);
    pln_json_end_object(&w);
    pln_json_end_object(&w);
    if (st != PLN_OK) {
        st = pln_errorf(st, err, err_size, "sampling the motion for the viewer failed");
    } else if (!pln_json_finish(&w)) {
        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                        "viewer data: %d non-finite number(s)%s", w.nonfinite,
                        w.misuse ? " and a structure error" : "");
    }
done:
    free(t);
    free(q);
    free(dist);
    free(cache);
    pln_kin_destroy(kin);
    return st;
}

/* a pair's lower bound and index, sorted by bound then index (a total order: stable) */
typedef struct PairOrder {
    double lower;
    int index;
} PairOrder;

static int cmp_pair_order(const void *a, const void *b)
{
    const PairOrder *x = a, *y = b;
    if (x->lower != y->lower) return x->lower < y->lower ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* the side panel: facts of the run and each pair's certified lower bound */
static void write_info(FILE *f, const PlnProblem *p, const PlnCertificate *cert)
{
    const PlnScenario *sc = p->scenario;
    fputs("<aside>\n<table>\n", f);
    fputs("<tr><th>scenario</th><td>", f);
    put_html(f, sc->name);
    fputs("</td></tr>\n<tr><th>robot</th><td>", f);
    put_html(f, p->robot->name);
    fprintf(f, "</td></tr>\n<tr><th>duration</th><td class=\"num\">%.3f s</td></tr>\n",
            sc->duration);
    fprintf(f, "<tr><th>moving joints</th><td class=\"num\">%d</td></tr>\n", p->n_active);
    fprintf(f, "<tr><th>eps</th><td class=\"num\">%.3f mm</td></tr>\n", 1e3 * p->eps);
    if (cert != NULL && cert->n_pairs > 0) {
        fprintf(f, "<tr><th>min certified clearance</th><td class=\"num\">%.3f mm</td></tr>\n",
                1e3 * cert->min_clearance);
    }
    fputs("</table>\n", f);
    if (cert != NULL && cert->n_pairs > 0) {
        /* closest first, in a box that scrolls: a whole robot has hundreds of pairs */
        PairOrder *order = malloc((size_t)cert->n_pairs * sizeof *order);
        fprintf(f, "<h3>certified MCD lower bound per pair</h3>\n<p class=\"hint\">%d pairs "
                   "measured, closest first; %d left out (report.json)</p>\n",
                cert->n_pairs, sc->n_excluded);
        fputs("<div class=\"pairs\"><table>\n"
              "<tr><th>pair</th><th>lower [mm]</th><th>t_min [s]</th></tr>\n", f);
        for (int k = 0; k < cert->n_pairs; ++k) {
            int pr = k;
            if (order != NULL) {
                if (k == 0) {
                    for (int i = 0; i < cert->n_pairs; ++i) {
                        order[i].lower = cert->pairs[i].lower;
                        order[i].index = i;
                    }
                    qsort(order, (size_t)cert->n_pairs, sizeof *order, cmp_pair_order);
                }
                pr = order[k].index;
            }
            fputs("<tr><td>", f);
            put_html(f, sc->pairs[pr].a.name);
            fputs(" - ", f);
            put_html(f, sc->pairs[pr].b.name);
            fprintf(f, "</td><td class=\"num\">%.3f</td><td class=\"num\">%.3f</td></tr>\n",
                    1e3 * cert->pairs[pr].lower, cert->pairs[pr].t_min);
        }
        fputs("</table></div>\n", f);
        free(order);
    }
    fputs("</aside>\n", f);
}

/* The page: planner/output/view/view.html with its markers replaced (@@NAME@@ the
 * scenario's name as HTML text, @@BADGE_CLASS@@ and @@BADGE@@ the verdict, @@INFO@@ the
 * table beside the canvas, @@DATA@@ the motion as script-safe JSON, @@STYLE@@ view.css,
 * @@SCRIPT@@ view.js, @@THREE@@ three.js r111 behind its licence). An unknown marker is
 * a build mistake: PLN_ERR_INTERNAL. */
static PlnStatus write_page(FILE *f, const PlnProblem *p, const PlnCertificate *cert,
                            int certified, const char *json, size_t json_size, char *err,
                            size_t err_size)
{
    const char *s = pln_view_page_html, *end = s + pln_view_page_html_len;
    while (s < end) {
        const char *m = strstr(s, "@@"), *close;
        size_t len;
        if (m == NULL) m = end;
        fwrite(s, 1, (size_t)(m - s), f);
        if (m == end) break;
        close = strstr(m + 2, "@@");
        if (close == NULL) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "view.html: unterminated marker");
        }
        len = (size_t)(close - (m + 2));
#define MARKER(name) (len == sizeof(name) - 1 && strncmp(m + 2, name, len) == 0)
        if (MARKER("NAME")) put_html(f, p->scenario->name);
        else if (MARKER("BADGE_CLASS")) fputs(certified ? "certified" : "uncertified", f);
        else if (MARKER("BADGE")) fputs(certified ? "certified" : "NOT CERTIFIED", f);
        else if (MARKER("INFO")) write_info(f, p, cert);
        else if (MARKER("DATA")) put_script_json(f, json, json_size);
        else if (MARKER("STYLE")) fwrite(pln_view_page_css, 1, pln_view_page_css_len, f);
        else if (MARKER("SCRIPT")) fwrite(pln_view_page_js, 1, pln_view_page_js_len, f);
        else if (MARKER("THREE")) fwrite(pln_view_page_three, 1, pln_view_page_three_len, f);
        else {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "view.html: unknown marker @@%.*s@@",
                              (int)len, m + 2);
        }
#undef MARKER
        s = close + 2;
    }
    return PLN_OK;
}

PlnStatus pln_view_write(const char *path, const PlnProblem *p, const double *ctrl,
                         const PlnCertificate *cert, double fps, char *err, size_t err_size)
{
    char *json = NULL;
    size_t json_size = 0;
    FILE *mem;
    ViewMesh *vm = NULL;
    int n_vm = 0;
    PlnAtomicFile f;
    PlnStatus st;
    int certified = cert != NULL && cert->certified;

    if (!isfinite(fps) || !(fps > 0.0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: %g frames per second", path, fps);
    }
    /* the display meshes, then the data, in memory: nothing is written if they cannot
     * be made */
    st = view_meshes(p, &vm, &n_vm, err, err_size);
    if (st != PLN_OK) return st;
    mem = open_memstream(&json, &json_size);
    if (mem == NULL) {
        view_meshes_free(vm, n_vm);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    st = write_data(mem, p, ctrl, cert, fps, vm, n_vm, err, err_size);
    view_meshes_free(vm, n_vm);
    if (fclose(mem) != 0 && st == PLN_OK) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) {
        free(json);
        return st;
    }
    st = write_page(f.fp, p, cert, certified, json, json_size, err, err_size);
    if (st != PLN_OK) {
        pln_atomic_abort(&f);
        free(json);
        return st;
    }
    free(json);
    return pln_atomic_commit(&f, err, err_size);
}
