/* pln_geom.c — pair geometry: loading, static distance and MCD dispatch (pln_geom.h). */
#include "problem/pln_geom.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dst_convex_mcd.h"
#include "dst_mesh.h"
#include "dst_mesh_depth.h"
#include "dst_mesh_mcd.h"
#include "base/pln_tolerance.h"
#include "model/pln_linkmesh.h"

static const double IDENTITY[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* a distance routine computed nothing usable */
static int failed(DstStatus s)
{
    return s == DST_INVALID_INPUT || s == DST_FAILED;
}

const char *pln_geometry_string(PlnGeometryKind kind)
{
    switch (kind) {
    case PLN_GEOMETRY_CAPSULE: return "capsule";
    case PLN_GEOMETRY_CONVEX: return "convex";
    case PLN_GEOMETRY_ELLIPSOID: return "ellipsoid";
    case PLN_GEOMETRY_MESH: return "mesh";
    }
    return "unknown";
}

void pln_geom_cache_reset(PlnGeomCache *cache)
{
    if (cache == NULL) return;
    memset(cache, 0, sizeof *cache);
    dst_bvh_cache_reset(&cache->bvh);
    dst_gjk_cache_reset(&cache->gjk);
}

static void shape_destroy(PlnGeomShape *s)
{
    if (s->has_bvh) dst_bvh_destroy(&s->bvh);
    if (s->has_phong) dst_phong_model_destroy(&s->phong);
    if (s->has_hull) dst_hull_destroy(&s->hull);
    memset(s, 0, sizeof *s);
}

void pln_geom_destroy(PlnGeom *g)
{
    if (g == NULL) return;
    for (int l = 0; g->links != NULL && l < g->n_links; ++l) shape_destroy(&g->links[l]);
    for (int o = 0; g->obstacles != NULL && o < g->n_obstacles; ++o) {
        shape_destroy(&g->obstacles[o]);
    }
    free(g->links);
    free(g->obstacles);
    free(g);
}

/* ------------------------------------------------------------------ loading */

/* a mesh file scaled by `scale`, into the shape's BVH */
/* the PhongDist model of a shape's mesh (distance phong): dst_phong wants a closed,
 * consistently oriented, manifold mesh (dst_phong.h) */
static PlnStatus phong_model(PlnGeomShape *s, const DstMesh *mesh, const char *what,
                             const char *path, char *err, size_t err_size)
{
    char merr[512];
    DstStatus ds = dst_phong_model_create(mesh, &s->phong, merr, sizeof merr);
    if (ds == DST_FAILED) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: %s: %s", what, path, merr);
    if (ds != DST_OK) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: %s: collision.distance phong needs closed meshes (closed, "
                          "consistently oriented, every edge shared by two faces): %s",
                          what, path, merr);
    }
    s->has_phong = 1;
    return PLN_OK;
}

/* The BVH (and Phong model) of a mesh already read, consumed (destroyed here). `source` names
 * it in messages (a file, or a link's collision parts); scale: the factors it was read with
 * (an obstacle's `scale`, a URDF link's <mesh scale>), for the message of a mesh too large;
 * NULL for none. */
static PlnStatus bvh_from_mesh(PlnGeomShape *s, DstMesh *mesh, const char *source, const double *scale,
                               const char *what, int phong, long *triangles, char *err, size_t err_size)
{
    char merr[512];
    DstStatus ds;
    PlnStatus st;
    for (int v = 0; v < mesh->n_vertices; ++v) {
        for (int d = 0; d < 3; ++d) {
            if (fabs(mesh->vertices[v][d]) > PLN_MAX_WORLD_M) {
                char by[96] = "";
                if (scale == NULL) {
                    snprintf(by, sizeof by, " ");
                } else if (scale[0] == scale[1] && scale[1] == scale[2]) {
                    snprintf(by, sizeof by, " scaled by %g, ", scale[0]);
                } else {
                    snprintf(by, sizeof by, " scaled by (%g, %g, %g), ", scale[0], scale[1], scale[2]);
                }
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s: %s:%sthe mesh reaches %g m from its origin, "
                                "beyond the scene's extent of %g m (wrong units or scale?)",
                                what, source, by, fabs(mesh->vertices[v][d]), PLN_MAX_WORLD_M);
                dst_mesh_destroy(mesh);
                return st;
            }
        }
    }
    ds = dst_bvh_create(mesh, &s->bvh, merr, sizeof merr);
    *triangles += mesh->n_triangles;
    if (ds != DST_OK) {
        dst_mesh_destroy(mesh);
        return pln_errorf(ds == DST_FAILED ? PLN_ERR_NOMEM : PLN_ERR_INVALID, err, err_size,
                          "%s: %s: %s", what, source, merr);
    }
    s->has_bvh = 1;
    s->reach = s->bvh.radius;
    st = phong ? phong_model(s, mesh, what, source, err, err_size) : PLN_OK;
    dst_mesh_destroy(mesh);
    return st;
}

/* scale: the file's vertices are multiplied by scale[d] along axis d (an obstacle's
 * `scale`) */
static PlnStatus load_bvh(PlnGeomShape *s, const char *path, const double scale[3], const char *what,
                          int phong, long *triangles, char *err, size_t err_size)
{
    DstMesh mesh;
    char merr[512];
    PlnStatus st = pln_mesh_read_scaled(path, scale, &mesh, merr, sizeof merr);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s: %s", what, merr);
    return bvh_from_mesh(s, &mesh, path, scale, what, phong, triangles, err, err_size);
}

/* the 12-triangle mesh of a box with half extents h, outward-oriented */
static PlnStatus box_bvh(PlnGeomShape *s, const double h[3], const char *what, int phong,
                         char *err, size_t err_size)
{
    static const int tris[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5},
                                    {0, 5, 4}, {2, 3, 7}, {2, 7, 6}, {1, 2, 6}, {1, 6, 5},
                                    {0, 4, 7}, {0, 7, 3}};
    double v[8][3];
    DstMesh mesh;
    char merr[256];
    DstStatus ds;
    for (int i = 0; i < 8; ++i) {
        v[i][0] = ((i & 1) ^ ((i >> 1) & 1)) ? h[0] : -h[0]; /* 0:-- 1:+- 2:++ 3:-+ */
        v[i][1] = (i & 2) ? h[1] : -h[1];
        v[i][2] = (i & 4) ? h[2] : -h[2];
    }
    PlnStatus st = PLN_OK;
    ds = dst_mesh_create(&v[0][0], 8, &tris[0][0], 12, &mesh, merr, sizeof merr);
    if (ds != DST_OK) return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: box mesh: %s", what, merr);
    ds = dst_bvh_create(&mesh, &s->bvh, merr, sizeof merr);
    if (ds != DST_OK) {
        dst_mesh_destroy(&mesh);
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: box mesh: %s", what, merr);
    }
    s->has_bvh = 1;
    s->reach = s->bvh.radius;
    /* the 12 triangles close the box: PhongDist takes it as it is */
    if (phong) st = phong_model(s, &mesh, what, "box mesh", err, err_size);
    dst_mesh_destroy(&mesh);
    return st;
}

/* the convex hull of a mesh file's vertices (link geometry `convex`); the margin covers
 * the points the hull's face tolerance may leave outside (dst_hull_build) */
/* The convex hull of a mesh already read, consumed (destroyed here); `source` names it. */
static PlnStatus hull_from_mesh(PlnGeomShape *s, DstMesh *mesh, const char *source, const char *what,
                                char *err, size_t err_size)
{
    char merr[512];
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    double diag = 0.0, reach = 0.0;
    DstStatus ds;
    ds = dst_hull_build(&mesh->vertices[0][0], mesh->n_vertices, 0.0, &s->hull, merr, sizeof merr);
    for (int v = 0; v < mesh->n_vertices; ++v) {
        for (int d = 0; d < 3; ++d) {
            lo[d] = fmin(lo[d], mesh->vertices[v][d]);
            hi[d] = fmax(hi[d], mesh->vertices[v][d]);
        }
        reach = fmax(reach, sqrt(mesh->vertices[v][0] * mesh->vertices[v][0] +
                                 mesh->vertices[v][1] * mesh->vertices[v][1] +
                                 mesh->vertices[v][2] * mesh->vertices[v][2]));
    }
    dst_mesh_destroy(mesh);
    if (ds != DST_OK) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: %s: convex hull: %s", what, source, merr);
    }
    s->has_hull = 1;
    for (int d = 0; d < 3; ++d) diag += (hi[d] - lo[d]) * (hi[d] - lo[d]);
    s->convex = dst_hull_convex(&s->hull);
    s->convex.margin = s->hull.tol * sqrt(diag) * (1.0 + PLN_GEOM_HULL_MARGIN_REL);
    s->reach = reach + s->convex.margin;
    return PLN_OK;
}

static PlnStatus load_hull(PlnGeomShape *s, const char *path, const char *what, char *err, size_t err_size)
{
    DstMesh mesh;
    char merr[512];
    PlnStatus st = pln_mesh_read(path, &mesh, merr, sizeof merr);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s: %s", what, merr);
    return hull_from_mesh(s, &mesh, path, what, err, err_size);
}

/* A link's mesh (its file, or the union of its collision parts: model/pln_linkmesh.h) and
 * the name of where it comes from, for messages. */
static PlnStatus read_link_mesh(const PlnRobot *r, int l, DstMesh *mesh, char *source, size_t size,
                                const char *what, char *err, size_t err_size)
{
    char merr[512];
    const PlnLinkGeometry *lg = &r->links[l].geometry;
    PlnStatus st = pln_link_mesh_read(r, l, mesh, merr, sizeof merr);
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s: %s", what, merr);
    if (lg->mesh_path[0] != '\0') snprintf(source, size, "%s", lg->mesh_path);
    else snprintf(source, size, "its %d collision elements", lg->n_parts);
    return PLN_OK;
}

/* an orthonormal frame whose third column is the unit vector z */
static void frame_with_z(const double z[3], double R[9])
{
    double x[3], y[3], n;
    /* the coordinate axis least aligned with z, made orthogonal to it */
    int m = fabs(z[0]) <= fabs(z[1]) ? (fabs(z[0]) <= fabs(z[2]) ? 0 : 2) : (fabs(z[1]) <= fabs(z[2]) ? 1 : 2);
    double e[3] = {0, 0, 0};
    e[m] = 1.0;
    for (int d = 0; d < 3; ++d) x[d] = e[d] - z[m] * z[d];
    n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (int d = 0; d < 3; ++d) x[d] /= n;
    y[0] = z[1] * x[2] - z[2] * x[1];
    y[1] = z[2] * x[0] - z[0] * x[2];
    y[2] = z[0] * x[1] - z[1] * x[0];
    for (int r = 0; r < 3; ++r) {
        R[3 * r] = x[r];
        R[3 * r + 1] = y[r];
        R[3 * r + 2] = z[r];
    }
}

static PlnStatus load_link(PlnGeom *g, int l, char *err, size_t err_size)
{
    PlnGeomShape *s = &g->links[l];
    const PlnLinkGeometry *lg = &g->robot->links[l].geometry;
    char what[PLN_NAME_MAX + 32];
    PlnStatus st = PLN_OK;
    if (s->loaded) return PLN_OK;
    snprintf(what, sizeof what, "link %s", g->robot->links[l].name);
    memcpy(s->rot, IDENTITY, sizeof s->rot);
    memset(s->pos, 0, sizeof s->pos);
    switch (g->kind) {
    case PLN_GEOMETRY_CAPSULE: break;
    case PLN_GEOMETRY_MESH: {
        DstMesh mesh;
        char source[600];
        st = read_link_mesh(g->robot, l, &mesh, source, sizeof source, what, err, err_size);
        if (st == PLN_OK) {
            st = bvh_from_mesh(s, &mesh, source, lg->has_mesh_scale ? lg->mesh_scale : NULL, what,
                               g->distance == PLN_DISTANCE_PHONG, &g->triangles, err, err_size);
        }
        break;
    }
    case PLN_GEOMETRY_CONVEX:
        if (lg->convex_path[0] != '\0') {
            st = load_hull(s, lg->convex_path, what, err, err_size);
        } else {
            DstMesh mesh;
            char source[600];
            st = read_link_mesh(g->robot, l, &mesh, source, sizeof source, what, err, err_size);
            if (st == PLN_OK) st = hull_from_mesh(s, &mesh, source, what, err, err_size);
        }
        break;
    case PLN_GEOMETRY_ELLIPSOID:
        s->convex = dst_convex_ellipsoid(lg->ellipsoid_radii[0], lg->ellipsoid_radii[1],
                                         lg->ellipsoid_radii[2]);
        memcpy(s->rot, lg->ellipsoid_rot, sizeof s->rot);
        memcpy(s->pos, lg->ellipsoid_center, sizeof s->pos);
        s->reach = fmax(lg->ellipsoid_radii[0], fmax(lg->ellipsoid_radii[1], lg->ellipsoid_radii[2]));
        break;
    }
    if ((g->kind == PLN_GEOMETRY_MESH || g->kind == PLN_GEOMETRY_CONVEX) && lg->has_file_pose) {
        /* a re-rooted model's shifted link: the file's points sit at file_pos, file_rot */
        memcpy(s->rot, lg->file_rot, sizeof s->rot);
        memcpy(s->pos, lg->file_pos, sizeof s->pos);
    }
    s->loaded = st == PLN_OK;
    return st;
}

/* A capsule obstacle's frame: origin at its segment's middle, z along the segment
 * (identity for a zero-length one); returns the segment's length */
static double capsule_frame(const PlnObstacle *o, PlnGeomShape *s)
{
    double axis[3], len = 0.0;
    for (int d = 0; d < 3; ++d) {
        axis[d] = o->p1[d] - o->p0[d];
        len += axis[d] * axis[d];
        s->pos[d] = 0.5 * (o->p0[d] + o->p1[d]);
    }
    len = sqrt(len);
    memcpy(s->rot, IDENTITY, sizeof s->rot);
    if (len > 0.0) {
        for (int d = 0; d < 3; ++d) axis[d] /= len;
        frame_with_z(axis, s->rot);
    }
    return len;
}

static PlnStatus load_obstacle(PlnGeom *g, int k, char *err, size_t err_size)
{
    PlnGeomShape *s = &g->obstacles[k];
    const PlnObstacle *o = &g->scenario->obstacles[k];
    char what[PLN_NAME_MAX + 1100];
    PlnStatus st = PLN_OK;
    if (s->loaded) return PLN_OK;
    /* where the scenario places it, so that a bad mesh names the line */
    snprintf(what, sizeof what, "%s:%d: environment[%d] (%s)", g->scenario->path, o->line, k,
             o->name);
    memcpy(s->rot, o->rot, sizeof s->rot);
    memcpy(s->pos, o->pos, sizeof s->pos);
    if (g->kind == PLN_GEOMETRY_MESH) {
        if (o->type == PLN_OBSTACLE_MESH) {
            const double scale[3] = {o->scale, o->scale, o->scale};
            st = load_bvh(s, o->mesh_path, scale, what, g->distance == PLN_DISTANCE_PHONG,
                          &g->triangles, err, err_size);
        } else if (o->type == PLN_OBSTACLE_BOX) {
            st = box_bvh(s, o->half, what, g->distance == PLN_DISTANCE_PHONG, err, err_size);
        } else {
            /* a sphere or capsule: the polyhedron that encloses it (model/pln_linkmesh.h,
             * docs/URDF.md eq. LM2-LM4), so its distances never exceed the true shape's */
            PlnCollisionPart part;
            DstMesh mesh;
            char merr[512];
            memset(&part, 0, sizeof part);
            memcpy(part.rot, IDENTITY, sizeof part.rot);
            memcpy(s->rot, IDENTITY, sizeof s->rot);
            part.radius = o->radius;
            if (o->type == PLN_OBSTACLE_SPHERE) {
                part.type = PLN_PART_SPHERE;
                memcpy(s->pos, o->p0, sizeof s->pos);
            } else {
                part.type = PLN_PART_CAPSULE;
                part.length = capsule_frame(o, s);
            }
            st = pln_part_mesh(&part, &mesh, merr, sizeof merr);
            if (st != PLN_OK) {
                st = pln_errorf(st, err, err_size, "%s: %s", what, merr);
            } else {
                st = bvh_from_mesh(s, &mesh, o->type == PLN_OBSTACLE_SPHERE ? "sphere" : "capsule", NULL,
                                   what, g->distance == PLN_DISTANCE_PHONG, &g->triangles, err, err_size);
            }
        }
    } else if (g->kind != PLN_GEOMETRY_CAPSULE) {
        double len;
        switch (o->type) {
        case PLN_OBSTACLE_CAPSULE:
            len = capsule_frame(o, s);
            s->convex = dst_convex_capsule(o->radius, 0.5 * len);
            s->reach = 0.5 * len + o->radius;
            break;
        case PLN_OBSTACLE_SPHERE:
            memcpy(s->rot, IDENTITY, sizeof s->rot);
            memcpy(s->pos, o->p0, sizeof s->pos);
            s->convex = dst_convex_sphere(o->radius);
            s->reach = o->radius;
            break;
        case PLN_OBSTACLE_BOX:
            s->convex = dst_convex_box(o->half[0], o->half[1], o->half[2]);
            s->reach = sqrt(o->half[0] * o->half[0] + o->half[1] * o->half[1] + o->half[2] * o->half[2]);
            break;
        case PLN_OBSTACLE_MESH:
            st = pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: a mesh obstacle needs mesh geometry", what);
            break;
        }
    }
    s->loaded = st == PLN_OK;
    return st;
}

PlnStatus pln_geom_create(PlnGeom **out, const PlnRobot *robot, const PlnScenario *sc, char *err,
                          size_t err_size)
{
    PlnGeom *g = calloc(1, sizeof *g);
    PlnStatus st = PLN_OK;
    *out = NULL;
    if (g == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    g->robot = robot;
    g->scenario = sc;
    g->kind = sc->geometry;
    g->distance = sc->geometry == PLN_GEOMETRY_MESH ? sc->distance : PLN_DISTANCE_EUCLIDEAN;
    g->links = calloc((size_t)robot->n_links, sizeof *g->links);
    g->obstacles = calloc((size_t)(sc->n_obstacles > 0 ? sc->n_obstacles : 1), sizeof *g->obstacles);
    if (g->links != NULL) g->n_links = robot->n_links;
    if (g->obstacles != NULL) g->n_obstacles = sc->n_obstacles;
    if (g->links == NULL || g->obstacles == NULL) {
        pln_geom_destroy(g);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    for (int i = 0; i < sc->n_pairs && st == PLN_OK; ++i) {
        const PlnPair *p = &sc->pairs[i];
        st = load_link(g, p->a.index, err, err_size);
        if (st == PLN_OK) {
            st = p->b_is_obstacle ? load_obstacle(g, p->b.index, err, err_size)
                                  : load_link(g, p->b.index, err, err_size);
        }
    }
    if (st != PLN_OK) {
        pln_geom_destroy(g);
        return st;
    }
    *out = g;
    return PLN_OK;
}

/* ------------------------------------------------------------------ static distance */

/* the world pose of a shape: link pose composed with the shape's frame, or the
 * obstacle's pose */
static void shape_pose(const PlnGeomShape *s, const PlnKinWork *kin, int link, double R[9], double x[3])
{
    if (link < 0) {
        memcpy(R, s->rot, 9 * sizeof *R);
        memcpy(x, s->pos, 3 * sizeof *x);
        return;
    }
    const double *Rl = pln_kin_link_rot(kin, link), *xl = pln_kin_link_pos(kin, link);
    for (int i = 0; i < 3; ++i) {
        x[i] = xl[i];
        for (int j = 0; j < 3; ++j) {
            R[3 * i + j] = 0.0;
            for (int k = 0; k < 3; ++k) R[3 * i + j] += Rl[3 * i + k] * s->rot[3 * k + j];
            x[i] += Rl[3 * i + j] * s->pos[j];
        }
    }
}

/* a static distance with its witnesses and normal into *out */
static void set_distance(PlnPairDistance *out, double d, const double pa[3], const double pb[3],
                         const double n[3])
{
    out->distance = d;
    memcpy(out->pA, pa, sizeof out->pA);
    memcpy(out->pB, pb, sizeof out->pB);
    memcpy(out->n, n, sizeof out->n);
}

/* a static obstacle: degree-0 polynomials */
static void static_point(const double x[3], DstPolyPoint *pt)
{
    memset(pt, 0, sizeof *pt);
    memcpy(pt->c[0], x, 3 * sizeof(double));
}

/* the capsule-geometry distance (eq. 3.1; a box obstacle by GJK/EPA through the MCD of a
 * zero-length interval, so it is the very distance that MCD uses) */
static DstStatus capsule_pair_distance(const PlnGeom *g, const PlnKinWork *kin, int pair,
                                       PlnPairDistance *out)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    const PlnLinkGeometry *ga = &g->robot->links[pr->a.index].geometry;
    const PlnObstacle *o = pr->b_is_obstacle ? &g->scenario->obstacles[pr->b.index] : NULL;
    DstCapsule A, B;
    pln_kin_point(kin, pr->a.index, ga->capsule_p0, A.p0);
    pln_kin_point(kin, pr->a.index, ga->capsule_p1, A.p1);
    A.radius = ga->capsule_radius;
    if (o != NULL && o->type == PLN_OBSTACLE_BOX) {
        DstConvex box = dst_convex_box(o->half[0], o->half[1], o->half[2]);
        DstMovingCapsule still;
        DstMcdResult r;
        dst_convex_set_pose(&box, o->rot, o->pos);
        memset(&still, 0, sizeof still);
        memcpy(still.p0.c[0], A.p0, sizeof A.p0);
        memcpy(still.p1.c[0], A.p1, sizeof A.p1);
        still.radius = A.radius;
        if (failed(dst_capsule_convex_mcd(&still, &box, 0.0, 0.0, NULL, &r))) return r.status;
        set_distance(out, r.upper, r.pA, r.pB, r.n);
        return DST_OK;
    }
    if (o != NULL) {
        memcpy(B.p0, o->p0, sizeof B.p0);
        memcpy(B.p1, o->p1, sizeof B.p1);
        B.radius = o->radius;
    } else {
        const PlnLinkGeometry *gb = &g->robot->links[pr->b.index].geometry;
        pln_kin_point(kin, pr->b.index, gb->capsule_p0, B.p0);
        pln_kin_point(kin, pr->b.index, gb->capsule_p1, B.p1);
        B.radius = gb->capsule_radius;
    }
    {
        DstCapsuleDistance d;
        if (failed(dst_capsule_distance(&A, &B, &d))) return DST_INVALID_INPUT; /* eq. 3.1 */
        set_distance(out, d.distance, d.pA, d.pB, d.n); /* surface witnesses */
    }
    return DST_OK;
}

DstStatus pln_geom_pair_distance(const PlnGeom *g, const PlnKinWork *kin, int pair,
                                 PlnGeomCache *cache, PlnPairDistance *out)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    const PlnGeomShape *sa = &g->links[pr->a.index];
    const PlnGeomShape *sb = pr->b_is_obstacle ? &g->obstacles[pr->b.index] : &g->links[pr->b.index];
    int lb = pr->b_is_obstacle ? -1 : pr->b.index;
    double Ra[9], xa[3], Rb[9], xb[3];
    DstStatus ds;
    memset(out, 0, sizeof *out);
    if (g->kind == PLN_GEOMETRY_CAPSULE) {
        ds = capsule_pair_distance(g, kin, pair, out);
        out->lower = out->distance;
        return ds;
    }
    shape_pose(sa, kin, pr->a.index, Ra, xa);
    shape_pose(sb, kin, lb, Rb, xb);
    if (g->kind == PLN_GEOMETRY_MESH) {
        DstMeshDistance md;
        ds = dst_bvh_distance(&sa->bvh, Ra, xa, &sb->bvh, Rb, xb, cache ? &cache->bvh : NULL, &md);
        if (failed(ds)) return ds;
        set_distance(out, md.distance, md.pa, md.pb, md.n);
        out->lower = md.exact ? md.distance : md.lower;
        if (md.status == DST_PENETRATING && !md.exact && sa->bvh.closed && sb->bvh.closed) {
            /* non-convex overlap: the deepest vertex inside the other solid gives an upper
             * end -depth_V that grows continuously from the onset of contact, and a
             * direction out (docs/math/mesh_mcd.md sec. 11, planner.md eq. P9) */
            DstVertexDepth vd;
            if (dst_mesh_vertex_depth(&sa->bvh, Ra, xa, &sb->bvh, Rb, xb, &vd) == DST_PENETRATING &&
                -vd.depth < out->distance) {
                set_distance(out, -vd.depth, vd.pa, vd.pb, vd.n);
            }
        }
    } else {
        DstConvex A = sa->convex, B = sb->convex;
        DstConvexDistance cd;
        dst_convex_set_pose(&A, Ra, xa);
        dst_convex_set_pose(&B, Rb, xb);
        ds = dst_convex_distance(&A, &B, NULL, NULL, cache ? &cache->gjk : NULL, &cd, NULL, 0);
        if (failed(ds)) return ds;
        set_distance(out, cd.distance, cd.point_a, cd.point_b, cd.normal);
        out->lower = cd.distance;
    }
    return DST_OK;
}

/* PhongDist of a mesh pair at the poses of kin (docs/math/planner.md sec. 7b, eq. P18):
 * B's shape frame posed in A's, the query (thesis Algorithm 5.1), the answer and its
 * gradient rotated back into the world. */
DstStatus pln_geom_pair_phong(const PlnGeom *g, const PlnKinWork *kin, int pair,
                              PlnGeomCache *cache, DstPhongCache *phong_cache, int gradient,
                              DstPhongWorkspace *ws, PlnPairPhong *out)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    const PlnGeomShape *sa = &g->links[pr->a.index];
    const PlnGeomShape *sb = pr->b_is_obstacle ? &g->obstacles[pr->b.index] : &g->links[pr->b.index];
    int lb = pr->b_is_obstacle ? -1 : pr->b.index;
    double Ra[9], xa[3], Rb[9], xb[3], R[9], t[3];
    DstPhongOptions opt = dst_phong_options_default();
    DstPhongResult res;
    memset(out, 0, sizeof *out);
    if (!sa->has_phong || !sb->has_phong || ws == NULL) {
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    shape_pose(sa, kin, pr->a.index, Ra, xa);
    shape_pose(sb, kin, lb, Rb, xb);
    /* B in A's frame: R = Ra^T Rb, t = Ra^T (xb - xa) */
    for (int i = 0; i < 3; ++i) {
        t[i] = 0.0;
        for (int k = 0; k < 3; ++k) t[i] += Ra[3 * k + i] * (xb[k] - xa[k]);
        for (int j = 0; j < 3; ++j) {
            R[3 * i + j] = 0.0;
            for (int k = 0; k < 3; ++k) R[3 * i + j] += Ra[3 * k + i] * Rb[3 * k + j];
        }
    }
    opt.gradient = gradient != 0;
    opt.max_iter = PLN_PHONG_MAX_SPHERES;
    dst_phong_distance_cached(&sa->phong, &sb->phong, R, t, &opt,
                              cache != NULL && cache->have_phong_q ? cache->phong_q : NULL,
                              phong_cache, ws, &res);
    out->status = res.status;
    if (res.status != DST_SEPARATED && res.status != DST_TOUCHING && res.status != DST_PENETRATING) {
        /* no converged answer: the next query of this cache starts cold */
        if (cache != NULL) cache->have_phong_q = 0;
        return out->status;
    }
    if (cache != NULL) {
        memcpy(cache->phong_q, res.q, sizeof cache->phong_q);
        cache->have_phong_q = 1;
    }
    out->distance = res.distance;
    /* A's frame to the world: points x -> Ra x + xa, vectors v -> Ra v */
    for (int i = 0; i < 3; ++i) {
        out->pA[i] = xa[i];
        out->pB[i] = xa[i];
        out->n[i] = out->grad_t[i] = out->grad_w[i] = 0.0;
        for (int k = 0; k < 3; ++k) {
            out->pA[i] += Ra[3 * i + k] * res.pa[k];
            out->pB[i] += Ra[3 * i + k] * res.pb[k];
            out->n[i] += Ra[3 * i + k] * res.n[k];
            if (gradient) {
                out->grad_t[i] += Ra[3 * i + k] * res.grad[k];
                out->grad_w[i] += Ra[3 * i + k] * res.grad[3 + k];
            }
        }
    }
    memcpy(out->origin_a, xa, sizeof out->origin_a);
    memcpy(out->origin_b, xb, sizeof out->origin_b);
    return out->status;
}

/* ------------------------------------------------------------------ MCD */

static void link_capsule(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int link,
                         DstMovingCapsule *out);

static void pair_capsules(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int pair,
                          DstMovingCapsule *a, DstMovingCapsule *b)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    link_capsule(g, lm, sweep, pr->a.index, a);
    if (pr->b_is_obstacle) {
        const PlnObstacle *o = &g->scenario->obstacles[pr->b.index];
        static_point(o->p0, &b->p0);
        static_point(o->p1, &b->p1);
        b->radius = o->radius;
    } else {
        link_capsule(g, lm, sweep, pr->b.index, b);
    }
}

void pln_geom_pair_capsules(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                            DstMovingCapsule *a, DstMovingCapsule *b)
{
    pair_capsules(g, lm, NULL, pair, a, b);
}

/* The moving frame of a shape: the link frame's Taylor motion (pln_linkmotion_frame; with
 * anc >= 0 relative to that ancestor's frame, pln_linkmotion_frame_from) composed with the
 * shape's placement (Rs, ps) in the link: R'(s) = R(s) Rs,
 * x'(s) = x(s) + R(s) ps. |R_true Rs - R Rs|_2 = |R_true - R|_2, so R_err carries over;
 * the origin gains R_err |ps|; rounding of the products is bounded by PLN_TM_ROUND_REL
 * times the magnitudes involved. Obstacles (link < 0) get a static frame. Returns -1 when
 * anc is no ancestor within reach (f untouched). */
static int shape_frame(const PlnGeomShape *s, const PlnLinkMotion *lm, int anc, int link, DstMovingFrame *f)
{
    double R[PLN_TM_MAX_DEGREE + 1][9], R_err = 0.0, pn, mag = 0.0;
    DstPolyPoint o;
    int deg;
    if (link < 0) {
        dst_moving_frame_static(s->rot, s->pos, f);
        return 0;
    }
    memset(&o, 0, sizeof o);
    deg = anc >= 0 ? pln_linkmotion_frame_from(lm, anc, link, R, &R_err, &o)
                   : pln_linkmotion_frame(lm, link, R, &R_err, &o);
    if (deg < 0) return -1;
    memset(f, 0, sizeof *f);
    f->degree = deg;
    f->origin.degree = o.degree > deg ? o.degree : deg;
    for (int k = 0; k <= o.degree; ++k) memcpy(f->origin.c[k], o.c[k], sizeof o.c[k]);
    pn = sqrt(s->pos[0] * s->pos[0] + s->pos[1] * s->pos[1] + s->pos[2] * s->pos[2]);
    for (int k = 0; k <= deg; ++k) {
        double rk = 0.0;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                double v = 0.0;
                for (int m = 0; m < 3; ++m) v += R[k][3 * i + m] * s->rot[3 * m + j];
                f->R[k][3 * i + j] = v;
                rk += fabs(R[k][3 * i + j]);
            }
            for (int j = 0; j < 3; ++j) f->origin.c[k][i] += R[k][3 * i + j] * s->pos[j];
        }
        mag += rk * (1.0 + pn);
    }
    f->R_err = R_err + PLN_TM_ROUND_REL * mag;
    f->origin.err = o.err + R_err * pn + PLN_TM_ROUND_REL * mag * (1.0 + pn);
    return deg;
}

/* A link shape's frame in anc's frame (-1: the world), from the sweep's memo when it has
 * it (sweep nullable, already made current for lm); -1 as shape_frame. */
static int link_shape_frame(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int anc,
                            int link, DstMovingFrame *f)
{
    int *slot = NULL, deg;
    if (sweep != NULL && link < sweep->n_links) {
        for (int k = 0; k < PLN_GEOM_FRAME_SLOTS; ++k) {
            int *a = &sweep->frame_anc[link * PLN_GEOM_FRAME_SLOTS + k];
            if (*a == anc) {
                *f = sweep->frames[link * PLN_GEOM_FRAME_SLOTS + k];
                return f->degree;
            }
            if (*a == PLN_GEOM_NO_FRAME && slot == NULL) slot = a;
        }
    }
    deg = shape_frame(&g->links[link], lm, anc, link, f);
    if (deg >= 0 && slot != NULL) {
        *slot = anc;
        sweep->frames[slot - sweep->frame_anc] = *f;
    }
    return deg;
}

/* The frame in which a pair of links is measured (docs/math/planner.md sec. 4e): their
 * lowest common ancestor when that is not the root, else -1 (the world). Both shapes
 * move with it, so their distance is the same in its frame, and the motion above it, with
 * its Taylor remainders, drops out of both enclosures. */
static int pair_frame_link(const PlnGeom *g, const PlnPair *pr)
{
    const PlnLink *links = g->robot->links;
    if (pr->b_is_obstacle) return -1;
    for (int i = pr->a.index; i >= 0; i = links[i].parent) {
        for (int j = pr->b.index; j >= 0; j = links[j].parent) {
            if (i == j) return links[i].parent >= 0 ? i : -1;
        }
    }
    return -1;
}

/* ------------------------------------------------------------ swept boxes */

PlnStatus pln_geom_sweep_init(PlnGeomSweep *s, const PlnGeom *g, char *err, size_t err_size)
{
    size_t n = (size_t)(g->n_links > 0 ? g->n_links : 1);
    memset(s, 0, sizeof *s);
    s->n_links = g->n_links;
    s->box_stamp = calloc(n, sizeof *s->box_stamp);
    s->caps_stamp = calloc(n, sizeof *s->caps_stamp);
    s->box_gen = calloc(n, sizeof *s->box_gen);
    s->box = calloc(n, sizeof *s->box);
    s->reach = calloc(n, sizeof *s->reach);
    s->caps = calloc(n, sizeof *s->caps);
    s->frame_anc = malloc(n * PLN_GEOM_FRAME_SLOTS * sizeof *s->frame_anc);
    s->frames = malloc(n * PLN_GEOM_FRAME_SLOTS * sizeof *s->frames);
    if (!s->box_stamp || !s->caps_stamp || !s->box_gen || !s->box || !s->reach || !s->caps || !s->frame_anc || !s->frames) {
        pln_geom_sweep_destroy(s);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory (swept boxes of %d links)", g->n_links);
    }
    pln_geom_sweep_reset(s);
    return PLN_OK;
}

void pln_geom_sweep_destroy(PlnGeomSweep *s)
{
    if (s == NULL) return;
    free(s->box_stamp);
    free(s->caps_stamp);
    free(s->box_gen);
    free(s->box);
    free(s->reach);
    free(s->caps);
    free(s->frame_anc);
    free(s->frames);
    memset(s, 0, sizeof *s);
}

void pln_geom_sweep_reset(PlnGeomSweep *s)
{
    if (s == NULL || s->box_stamp == NULL) return;
    memset(s->box_stamp, 0, (size_t)s->n_links * sizeof *s->box_stamp);
    memset(s->caps_stamp, 0, (size_t)s->n_links * sizeof *s->caps_stamp);
    for (int i = 0; i < s->n_links * PLN_GEOM_FRAME_SLOTS; ++i) s->frame_anc[i] = PLN_GEOM_NO_FRAME;
    s->lm = NULL;
}

/* the sweep, usable for lm (emptied if it held another motion; its frames emptied at
 * another compute, its boxes and capsules judged link by link by their stamps), or NULL */
static PlnGeomSweep *sweep_for(PlnGeomSweep *s, const PlnLinkMotion *lm)
{
    unsigned long gen;
    if (s == NULL || s->box_stamp == NULL) return NULL;
    gen = pln_linkmotion_generation(lm);
    if (s->lm != lm) {
        pln_geom_sweep_reset(s);
        s->lm = lm;
        s->generation = gen;
    } else if (s->generation != gen) {
        for (int i = 0; i < s->n_links * PLN_GEOM_FRAME_SLOTS; ++i) s->frame_anc[i] = PLN_GEOM_NO_FRAME;
        s->generation = gen;
    }
    return s;
}

/* a link's moving capsule (capsule geometry), from the sweep's memo when it has it */
static void link_capsule(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int link,
                         DstMovingCapsule *out)
{
    const PlnLinkGeometry *lg = &g->robot->links[link].geometry;
    if (sweep != NULL && link < sweep->n_links && sweep->caps_stamp[link] != 0 &&
        sweep->caps_stamp[link] == pln_linkmotion_link_stamp(lm, link)) {
        *out = sweep->caps[link];
        return;
    }
    pln_linkmotion_point(lm, link, lg->capsule_p0, &out->p0);
    pln_linkmotion_point(lm, link, lg->capsule_p1, &out->p1);
    out->radius = lg->capsule_radius;
    if (sweep != NULL && link < sweep->n_links) {
        sweep->caps[link] = *out;
        sweep->caps_stamp[link] = pln_linkmotion_link_stamp(lm, link);
    }
}

/* grows box (lo xyz, hi xyz) by the range of the polynomial point over s in [0, 1]:
 * c0 + sum_k min(0, c_k) <= p(s) <= c0 + sum_k max(0, c_k) (s^k in [0, 1]); returns the
 * rounding slack of those sums (eq. P16) */
static double box_of_poly(const DstPolyPoint *pt, double box[6])
{
    double slack = 0.0;
    for (int i = 0; i < 3; ++i) {
        double lo = pt->c[0][i], hi = pt->c[0][i], mag = fabs(pt->c[0][i]);
        for (int k = 1; k <= pt->degree; ++k) {
            double c = pt->c[k][i];
            if (c < 0.0) lo += c;
            else hi += c;
            mag += fabs(c);
        }
        box[i] = fmin(box[i], lo);
        box[3 + i] = fmax(box[3 + i], hi);
        slack = fmax(slack, PLN_TM_ROUND_REL * mag + PLN_TM_ROUND_ABS);
    }
    return slack;
}

static void box_empty(double box[6])
{
    for (int i = 0; i < 3; ++i) {
        box[i] = HUGE_VAL;
        box[3 + i] = -HUGE_VAL;
    }
}

static void box_point(double box[6], const double x[3])
{
    for (int i = 0; i < 3; ++i) {
        box[i] = fmin(box[i], x[i]);
        box[3 + i] = fmax(box[3 + i], x[i]);
    }
}

/* The swept box of a link's shape over lm's interval and the radius its shape reaches
 * beyond the box (eq. P16). Capsules: the box of both segment ends (the segment at each
 * instant is in the hull of its ends), reach radius + the ends' enclosure radii. Convex
 * and ellipsoid shapes: the box of the shape frame's origin, reach the shape's reach from
 * that origin (any rotation keeps it) + the origin's enclosure radius. */
static void link_box_make(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int link,
                          double box[6], double *reach);

static inline void link_box(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int link,
                            double box[6], double *reach)
{
    /* the memo's box: made in this compute, or in an earlier one that kept the link */
    if (sweep != NULL && link < sweep->n_links && sweep->box_stamp[link] != 0 &&
        (sweep->box_gen[link] == sweep->generation ||
         sweep->box_stamp[link] == pln_linkmotion_link_stamp(lm, link))) {
        sweep->box_gen[link] = sweep->generation;
        memcpy(box, sweep->box[link], sizeof sweep->box[link]);
        *reach = sweep->reach[link];
        return;
    }
    link_box_make(g, lm, sweep, link, box, reach);
}

/* a link's swept box and reach made afresh (into the memo when there is one) */
static void link_box_make(const PlnGeom *g, const PlnLinkMotion *lm, PlnGeomSweep *sweep, int link,
                          double box[6], double *reach)
{
    box_empty(box);
    if (g->kind == PLN_GEOMETRY_CAPSULE) {
        DstMovingCapsule c;
        double s0, s1;
        link_capsule(g, lm, sweep, link, &c);
        s0 = box_of_poly(&c.p0, box);
        s1 = box_of_poly(&c.p1, box);
        *reach = c.radius + fmax(c.p0.err, c.p1.err) + fmax(s0, s1);
    } else {
        const PlnGeomShape *sh = &g->links[link];
        DstPolyPoint o;
        double s0;
        pln_linkmotion_point(lm, link, sh->pos, &o);
        s0 = box_of_poly(&o, box);
        *reach = sh->reach + o.err + s0;
    }
    if (sweep != NULL && link < sweep->n_links) {
        memcpy(sweep->box[link], box, sizeof sweep->box[link]);
        sweep->reach[link] = *reach;
        sweep->box_stamp[link] = pln_linkmotion_link_stamp(lm, link);
        sweep->box_gen[link] = sweep->generation;
    }
}

/* an obstacle's (static) box and reach */
static void obstacle_box(const PlnObstacle *o, double box[6], double *reach)
{
    box_empty(box);
    *reach = 0.0;
    switch (o->type) {
    case PLN_OBSTACLE_CAPSULE:
    case PLN_OBSTACLE_SPHERE:
        box_point(box, o->p0);
        box_point(box, o->p1);
        *reach = o->radius;
        break;
    case PLN_OBSTACLE_BOX:
        for (int i = 0; i < 3; ++i) {
            double e = 0.0;
            for (int j = 0; j < 3; ++j) e += fabs(o->rot[3 * i + j]) * o->half[j];
            box[i] = o->pos[i] - e;
            box[3 + i] = o->pos[i] + e;
            *reach = fmax(*reach, PLN_TM_ROUND_REL * (fabs(o->pos[i]) + e));
        }
        break;
    case PLN_OBSTACLE_MESH:
        box[0] = box[1] = box[2] = -HUGE_VAL;
        box[3] = box[4] = box[5] = HUGE_VAL;
        break;
    }
}

double pln_geom_pair_swept_lower(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                                 PlnGeomSweep *sweep)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    double ba[6], bb[6], ra, rb, d2 = 0.0, d;
    if (g->kind == PLN_GEOMETRY_MESH) return -HUGE_VAL;
    sweep = sweep_for(sweep, lm);
    link_box(g, lm, sweep, pr->a.index, ba, &ra);
    if (pr->b_is_obstacle) obstacle_box(&g->scenario->obstacles[pr->b.index], bb, &rb);
    else link_box(g, lm, sweep, pr->b.index, bb, &rb);
    for (int i = 0; i < 3; ++i) {
        double gap = fmax(ba[i] - bb[3 + i], bb[i] - ba[3 + i]);
        if (gap > 0.0) d2 += gap * gap;
    }
    d = sqrt(d2);
    if (!(d >= 0.0)) return -HUGE_VAL; /* NaN in a motion: no claim */
    /* dist(box_A + ball r_A, box_B + ball r_B) = max(0, dist(box_A, box_B) - r_A - r_B),
     * less the rounding of these few operations */
    return d - ra - rb - PLN_TM_ROUND_REL * (d + ra + rb) - PLN_TM_ROUND_ABS;
}

/* a mesh MCD result in the capsule result's contract */
static void from_mesh_result(const DstMeshMcdResult *m, DstMcdResult *r)
{
    memset(r, 0, sizeof *r);
    r->status = m->status;
    r->lower = m->lower;
    r->upper = m->upper;
    r->t_min = m->t_min;
    memcpy(r->pA, m->pA, sizeof r->pA);
    memcpy(r->pB, m->pB, sizeof r->pB);
    memcpy(r->cA, m->pA, sizeof r->cA);
    memcpy(r->cB, m->pB, sizeof r->cB);
    memcpy(r->n, m->n, sizeof r->n);
    r->distance_evals = m->distance_evals;
    r->advance_steps = m->subintervals;
}

/* the two moving meshes of a mesh pair over the interval of lm */
static void mesh_pair(const PlnGeom *g, const PlnLinkMotion *lm, int pair, DstMovingMesh *A,
                      DstMovingMesh *B)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    const PlnGeomShape *sa = &g->links[pr->a.index];
    const PlnGeomShape *sb = pr->b_is_obstacle ? &g->obstacles[pr->b.index] : &g->links[pr->b.index];
    A->bvh = &sa->bvh;
    B->bvh = &sb->bvh;
    shape_frame(sa, lm, -1, pr->a.index, &A->frame);
    shape_frame(sb, lm, -1, pr->b_is_obstacle ? -1 : pr->b.index, &B->frame);
}

DstStatus pln_geom_pair_first_contact(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                                      double t0, double t1, double d, double eps, DstMeshToc *out)
{
    DstMovingMesh A, B;
    DstMeshMcdOptions mo = dst_mesh_mcd_options_default();
    memset(out, 0, sizeof *out);
    if (g->kind != PLN_GEOMETRY_MESH) {
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    mo.eps = eps;
    mo.prism_cull = 1; /* seed 003: certified "apart" tests over whole sub-intervals */
    mo.time_tol = PLN_CONTACT_TIME_TOL_S;
    mesh_pair(g, lm, pair, &A, &B);
    return dst_mesh_first_contact(&A, &B, t0, t1, d, &mo, out);
}

DstStatus pln_geom_pair_mcd(const PlnGeom *g, const PlnLinkMotion *lm, int pair,
                            DstMcdMethod method, double t0, double t1, const DstMcdOptions *opt,
                            double stop_above, PlnGeomCache *cache, PlnGeomSweep *sweep,
                            DstMcdResult *res, DstMovingCapsule *a_out, DstMovingCapsule *b_out)
{
    const PlnPair *pr = &g->scenario->pairs[pair];
    const PlnGeomShape *sa = &g->links[pr->a.index];
    const PlnGeomShape *sb = pr->b_is_obstacle ? &g->obstacles[pr->b.index] : &g->links[pr->b.index];
    int lb = pr->b_is_obstacle ? -1 : pr->b.index;
    DstMcdOptions o = opt != NULL ? *opt : dst_mcd_options_default();
    if (a_out != NULL) memset(a_out, 0, sizeof *a_out);
    if (b_out != NULL) memset(b_out, 0, sizeof *b_out);
    sweep = sweep_for(sweep, lm);
    if (g->kind != PLN_GEOMETRY_MESH && stop_above < HUGE_VAL) {
        /* far apart over the whole interval: no MCD (eq. P16) */
        double lower = pln_geom_pair_swept_lower(g, lm, pair, sweep);
        if (lower >= stop_above) {
            memset(res, 0, sizeof *res);
            res->status = DST_ABOVE_LIMIT;
            res->lower = lower;
            res->upper = HUGE_VAL;
            res->t_min = 0.5 * (t0 + t1);
            if (g->kind == PLN_GEOMETRY_CAPSULE && (a_out != NULL || b_out != NULL)) {
                DstMovingCapsule A, B;
                pair_capsules(g, lm, sweep, pair, &A, &B);
                if (a_out != NULL) *a_out = A;
                if (b_out != NULL) *b_out = B;
            }
            return res->status;
        }
    }
    if (g->kind == PLN_GEOMETRY_CAPSULE) {
        DstMovingCapsule A, B;
        pair_capsules(g, lm, sweep, pair, &A, &B);
        if (a_out != NULL) *a_out = A;
        if (b_out != NULL) *b_out = B;
        if (pr->b_is_obstacle && g->scenario->obstacles[pr->b.index].type == PLN_OBSTACLE_BOX) {
            const PlnObstacle *ob = &g->scenario->obstacles[pr->b.index];
            DstConvex box = dst_convex_box(ob->half[0], ob->half[1], ob->half[2]);
            dst_convex_set_pose(&box, ob->rot, ob->pos);
            return dst_capsule_convex_mcd(&A, &box, t0, t1, &o, res);
        }
        /* the hybrid may stop too once its advancement certifies the interval above
         * stop_above (eq. P16; docs/math/capsule_mcd.md sec. 6) */
        o.stop_above = stop_above;
        return dst_capsule_mcd(method, &A, &B, t0, t1, &o, res);
    }
    if (g->kind == PLN_GEOMETRY_MESH) {
        DstMovingMesh A, B;
        DstMeshMcdOptions mo = dst_mesh_mcd_options_default();
        DstMeshMcdResult mr;
        mo.eps = o.eps;
        mo.stop_above = stop_above;
        mesh_pair(g, lm, pair, &A, &B);
        dst_mesh_mcd(&A, &B, t0, t1, &mo, cache ? &cache->bvh : NULL, &mr);
        from_mesh_result(&mr, res);
        return res->status;
    }
    {
        DstMovingConvex A, B;
        A.shape = &sa->convex;
        B.shape = &sb->convex;
        int anc = pair_frame_link(g, pr);
        DstStatus ds;
        /* in the frame of the pair's common ancestor (sec. 4e), the world if it fails */
        if (anc < 0 || link_shape_frame(g, lm, sweep, anc, pr->a.index, &A.frame) < 0 ||
            link_shape_frame(g, lm, sweep, anc, lb, &B.frame) < 0) {
            anc = -1;
            link_shape_frame(g, lm, sweep, -1, pr->a.index, &A.frame);
            if (lb >= 0) link_shape_frame(g, lm, sweep, -1, lb, &B.frame);
            else shape_frame(sb, lm, -1, lb, &B.frame);
        }
        ds = dst_convex_mcd(&A, &B, t0, t1, &o, cache ? &cache->gjk : NULL, res);
        if (anc >= 0 && (ds == DST_CERTIFIED || ds == DST_NOT_CERTIFIED || ds == DST_ITER_LIMIT)) {
            /* the ancestor's world rotation maps the bound to the world within its singular
             * values (eq. P21; 1 up to the model's tolerances) */
            double s_min, s_max;
            pln_linkmotion_rot_gain(lm, anc, &s_min, &s_max);
            res->lower *= res->lower >= 0.0 ? s_min : s_max;
            res->lower -= PLN_TM_ROUND_REL * fabs(res->lower);
            if (res->upper < res->lower) res->lower = res->upper;
            if (ds == DST_CERTIFIED && res->upper - res->lower > o.eps) ds = res->status = DST_NOT_CERTIFIED;
        }
        return ds;
    }
}
