/* pln_linkmesh.c — a link's mesh: its file, or the union of its collision parts with the
 * primitives tessellated so as to enclose them (docs/URDF.md eq. LM1-LM4). */
#include "model/pln_linkmesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

/* A growing triangle soup in the frame the part is placed in. */
typedef struct Soup {
    double *v;
    int nv, cap_v;
    int *t;
    int nt, cap_t;
} Soup;

/* appends the point x of the part's frame, placed by (rot, pos); its index, or -1 (memory) */
static int soup_vertex(Soup *s, const PlnCollisionPart *p, const double x[3])
{
    if (s->nv == s->cap_v) {
        int cap = s->cap_v > 0 ? 2 * s->cap_v : 64;
        double *q = realloc(s->v, (size_t)cap * 3 * sizeof *q);
        if (q == NULL) return -1;
        s->v = q;
        s->cap_v = cap;
    }
    for (int r = 0; r < 3; ++r) {
        s->v[3 * s->nv + r] = p->pos[r] + p->rot[3 * r] * x[0] + p->rot[3 * r + 1] * x[1] +
                              p->rot[3 * r + 2] * x[2];
    }
    return s->nv++;
}

/* appends the triangle (a, b, c), counter-clockwise seen from outside; 0 when out of memory */
static int soup_tri(Soup *s, int a, int b, int c)
{
    if (s->nt == s->cap_t) {
        int cap = s->cap_t > 0 ? 2 * s->cap_t : 128;
        int *q = realloc(s->t, (size_t)cap * 3 * sizeof *q);
        if (q == NULL) return 0;
        s->t = q;
        s->cap_t = cap;
    }
    s->t[3 * s->nt] = a;
    s->t[3 * s->nt + 1] = b;
    s->t[3 * s->nt + 2] = c;
    s->nt++;
    return 1;
}

/* a box of full sides size[3]: 8 corners, 12 triangles, exact */
static int box_soup(Soup *s, const PlnCollisionPart *p)
{
    /* corner k has x = +size[0]/2 when bit 0 of k is set, y by bit 1, z by bit 2; each face
     * as two triangles counter-clockwise seen from outside */
    static const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                    {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    int base = s->nv;
    for (int k = 0; k < 8; ++k) {
        double x[3] = {(k & 1 ? 0.5 : -0.5) * p->size[0], (k & 2 ? 0.5 : -0.5) * p->size[1],
                       (k & 4 ? 0.5 : -0.5) * p->size[2]};
        if (soup_vertex(s, p, x) < 0) return 0;
    }
    for (int f = 0; f < 6; ++f) {
        const int *q = quads[f];
        if (!soup_tri(s, base + q[0], base + q[1], base + q[2]) ||
            !soup_tri(s, base + q[0], base + q[2], base + q[3])) {
            return 0;
        }
    }
    return 1;
}

/* the ring of n = PLN_LINKMESH_POLYGON points at distance rho from the z axis, height z:
 * the first index */
static int ring(Soup *s, const PlnCollisionPart *p, double rho, double z)
{
    const int n = PLN_LINKMESH_POLYGON;
    int first = s->nv;
    for (int k = 0; k < n; ++k) {
        double a = 2.0 * PLN_PI * k / n;
        double x[3] = {rho * cos(a), rho * sin(a), z};
        if (soup_vertex(s, p, x) < 0) return -1;
    }
    return first;
}

/* the band of quads between the ring at `up` (above) and the ring at `lo` (below), outward */
static int band(Soup *s, int up, int lo)
{
    const int n = PLN_LINKMESH_POLYGON;
    for (int k = 0; k < n; ++k) {
        int k1 = (k + 1) % n;
        if (!soup_tri(s, lo + k, lo + k1, up + k1) || !soup_tri(s, lo + k, up + k1, up + k)) return 0;
    }
    return 1;
}

/* the fan from the apex `c` to a ring: `top` 1 facing +z (apex above or at the ring), 0 -z */
static int fan(Soup *s, int c, int r, int top)
{
    const int n = PLN_LINKMESH_POLYGON;
    for (int k = 0; k < n; ++k) {
        int k1 = (k + 1) % n;
        if (!(top ? soup_tri(s, c, r + k, r + k1) : soup_tri(s, c, r + k1, r + k))) return 0;
    }
    return 1;
}

/* A cylinder of radius r and length L along z (eq. LM1): the prism on the regular n-gon whose
 * edges are at distance r (1 + PLN_LINKMESH_ROUND_REL) from the axis, vertices at
 * r (1 + PLN_LINKMESH_ROUND_REL) / cos(pi / n), capped by fans from the axis at
 * +-(L/2 + PLN_LINKMESH_ROUND_REL (L/2 + r)) (the caps moved out by the same rounding room). */
static int cylinder_soup(Soup *s, const PlnCollisionPart *p)
{
    const int n = PLN_LINKMESH_POLYGON;
    double rho = p->radius * (1.0 + PLN_LINKMESH_ROUND_REL) / cos(PLN_PI / n);
    double h = 0.5 * p->length + PLN_LINKMESH_ROUND_REL * (0.5 * p->length + p->radius);
    double cb[3] = {0.0, 0.0, -h}, ct[3] = {0.0, 0.0, h};
    int lo = ring(s, p, rho, -h), up = ring(s, p, rho, h);
    int b = soup_vertex(s, p, cb), t = soup_vertex(s, p, ct);
    if (lo < 0 || up < 0 || b < 0 || t < 0) return 0;
    return band(s, up, lo) && fan(s, t, up, 1) && fan(s, b, lo, 0);
}

/* The unit latitude-longitude polyhedron (eq. LM2): the poles and the rings at polar angles
 * theta_i = i pi / m (i = 1 .. m - 1), n points each at longitudes 2 pi k / n, all on the unit
 * sphere. Its faces are the trapezoids between consecutive rings (planar by symmetry about
 * their mid meridian) and the triangles at the poles; being the convex hull of points of the
 * sphere, it contains the ball of radius d_min, the least distance from the centre to the
 * plane of a face, computed here from the same vertices (eq. LM3). */
/* the point of the unit polyhedron on ring i (0: the north pole, m: the south pole) at
 * longitude 2 pi k / n */
static void uv_point(int i, int k, double x[3])
{
    const int n = PLN_LINKMESH_POLYGON, m = PLN_LINKMESH_BANDS;
    double t = PLN_PI * i / m, a = 2.0 * PLN_PI * k / n;
    if (i == 0 || i == m) {
        x[0] = x[1] = 0.0;
        x[2] = i == 0 ? 1.0 : -1.0;
        return;
    }
    x[0] = sin(t) * cos(a);
    x[1] = sin(t) * sin(a);
    x[2] = cos(t);
}

static double uv_inradius(void)
{
    const int m = PLN_LINKMESH_BANDS;
    double dmin = INFINITY;
    for (int i = 0; i < m; ++i) {
        /* the face between rings i and i + 1 at longitudes 0 and 2 pi / n, as the two
         * triangles of band() and fan() (one collapses at a pole); every face of the band is
         * this one turned about z */
        double u0[3], u1[3], l0[3], l1[3];
        uv_point(i, 0, u0), uv_point(i, 1, u1), uv_point(i + 1, 0, l0), uv_point(i + 1, 1, l1);
        const double *tri[2][3] = {{l0, l1, u1}, {l0, u1, u0}};
        for (int k = 0; k < 2; ++k) {
            const double *x = tri[k][0], *y = tri[k][1], *z = tri[k][2];
            double e0[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};
            double e1[3] = {z[0] - x[0], z[1] - x[1], z[2] - x[2]};
            double c[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                           e0[0] * e1[1] - e0[1] * e1[0]};
            double l = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
            if (!(l > 0.0)) continue; /* the triangle that collapses at a pole */
            double d = fabs(c[0] * x[0] + c[1] * x[1] + c[2] * x[2]) / l;
            if (d < dmin) dmin = d;
        }
    }
    return dmin;
}

/* A sphere (length 0) or a capsule of radius r whose segment runs from -L/2 to L/2 on z
 * (eq. LM3-LM4): the unit polyhedron of LM2 scaled by rho = r (1 + PLN_LINKMESH_ROUND_REL) /
 * d_min; for a capsule its upper half (rings with theta <= pi/2) moved up by L/2, its lower
 * half (theta >= pi/2) down by L/2, the equator ring taken in both and the two copies joined
 * by a band: conv(P + L/2 z, P - L/2 z), the Minkowski sum of P and the segment, which holds
 * the ball of radius r about every point of the segment. */
static int round_soup(Soup *s, const PlnCollisionPart *p, double half)
{
    const int m = PLN_LINKMESH_BANDS;
    double rho = p->radius * (1.0 + PLN_LINKMESH_ROUND_REL) / uv_inradius();
    double np[3] = {0.0, 0.0, rho + half}, sp[3] = {0.0, 0.0, -rho - half};
    int north = soup_vertex(s, p, np), prev = -1;
    if (north < 0) return 0;
    for (int i = 1; i < m; ++i) {
        /* the equator ring twice for a capsule: the upper half's and the lower half's */
        int copies = (2 * i == m && half > 0.0) ? 2 : 1;
        for (int c = 0; c < copies; ++c) {
            double x[3];
            uv_point(i, 0, x);
            double shift = (2 * i < m || (2 * i == m && c == 0)) ? half : -half;
            int r = ring(s, p, rho * sqrt(x[0] * x[0] + x[1] * x[1]), rho * x[2] + shift);
            if (r < 0) return 0;
            if (prev < 0 ? !fan(s, north, r, 1) : !band(s, prev, r)) return 0;
            prev = r;
        }
    }
    int south = soup_vertex(s, p, sp);
    return south >= 0 && fan(s, south, prev, 0);
}

int pln_link_has_mesh(const PlnLinkGeometry *g)
{
    return g->mesh_path[0] != '\0' || g->n_parts > 0;
}

/* appends the mesh of one part to the soup */
static PlnStatus part_soup(Soup *s, const PlnCollisionPart *p, char *err, size_t err_size)
{
    int ok = 1;
    switch (p->type) {
    case PLN_PART_BOX: ok = box_soup(s, p); break;
    case PLN_PART_CYLINDER: ok = cylinder_soup(s, p); break;
    case PLN_PART_SPHERE: ok = round_soup(s, p, 0.0); break;
    case PLN_PART_CAPSULE: ok = round_soup(s, p, 0.5 * p->length); break;
    case PLN_PART_MESH: {
        DstMesh m;
        PlnStatus st = pln_mesh_read_scaled(p->path, p->has_scale ? p->scale : NULL, &m, err, err_size);
        if (st != PLN_OK) return st;
        int base = s->nv;
        for (int v = 0; v < m.n_vertices && ok; ++v) ok = soup_vertex(s, p, m.vertices[v]) >= 0;
        for (int t = 0; t < m.n_triangles && ok; ++t) {
            ok = soup_tri(s, base + m.triangles[t][0], base + m.triangles[t][1], base + m.triangles[t][2]);
        }
        dst_mesh_destroy(&m);
        break;
    }
    default: return pln_errorf(PLN_ERR_INVALID, err, err_size, "unknown collision part type %d", (int)p->type);
    }
    return ok ? PLN_OK : pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
}

PlnStatus pln_parts_mesh(const PlnCollisionPart *parts, int n, DstMesh *mesh, char *err,
                         size_t err_size)
{
    Soup s = {NULL, 0, 0, NULL, 0, 0};
    PlnStatus st = PLN_OK;
    memset(mesh, 0, sizeof *mesh);
    if (parts == NULL || n < 1) return pln_errorf(PLN_ERR_INVALID, err, err_size, "no collision part");
    for (int k = 0; k < n && st == PLN_OK; ++k) st = part_soup(&s, &parts[k], err, err_size);
    if (st == PLN_OK) {
        char derr[256];
        DstStatus ds = dst_mesh_create(s.v, s.nv, s.t, s.nt, mesh, derr, sizeof derr);
        if (ds != DST_OK) {
            st = pln_errorf(ds == DST_FAILED ? PLN_ERR_NOMEM : PLN_ERR_INVALID, err, err_size,
                            "collision parts: %s", derr);
        }
    }
    free(s.v);
    free(s.t);
    return st;
}

PlnStatus pln_part_mesh(const PlnCollisionPart *part, DstMesh *mesh, char *err, size_t err_size)
{
    return pln_parts_mesh(part, 1, mesh, err, err_size);
}

PlnStatus pln_link_mesh_read(const PlnRobot *robot, int l, DstMesh *mesh, char *err,
                             size_t err_size)
{
    const PlnLinkGeometry *g = &robot->links[l].geometry;
    memset(mesh, 0, sizeof *mesh);
    if (g->mesh_path[0] != '\0') {
        /* one mesh file: read exactly as before parts existed */
        return pln_mesh_read_scaled(g->mesh_path, g->has_mesh_scale ? g->mesh_scale : NULL, mesh,
                                    err, err_size);
    }
    if (g->n_parts > 0 && g->part_first >= 0 && g->part_first + g->n_parts <= robot->n_parts) {
        return pln_parts_mesh(robot->parts + g->part_first, g->n_parts, mesh, err, err_size);
    }
    return pln_errorf(PLN_ERR_INVALID, err, err_size, "link '%s' has no collision mesh",
                      robot->links[l].name);
}
