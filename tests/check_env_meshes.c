/* check_env_meshes.c — tests of the environment meshes written by tools/meshgen/env_meshgen.c
 * (`make env-meshes`, a prerequisite of `make check-run`): each of scenarios/meshes/
 * {statue_left,statue_right,cup}.stl loads through dst_mesh, has a triangle count in the
 * stated range, is closed, consistently outward oriented and free of degenerate triangles,
 * has the stated bounding box (origin at the base centre, z up), and is not convex: a
 * statue's convex hull holds points far outside the statue, and the cup is hollow (its
 * centre above the inner bottom lies outside the solid, the wall inside it). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dst_bvh.h"
#include "dst_convex.h"
#include "dst_mesh.h"

#define ENV_MESH_DIR "scenarios/meshes"

/* triangle counts: statues "about 100k", the cup "about 1k" */
#define STATUE_MIN_TRIS 90000
#define STATUE_MAX_TRIS 110000
#define CUP_MIN_TRIS 800
#define CUP_MAX_TRIS 1500
/* statue extents, metres: 1.6-1.9 tall, about 0.5 wide, not deeper than 0.7 */
#define STATUE_MIN_HEIGHT 1.6
#define STATUE_MAX_HEIGHT 1.9
#define STATUE_MIN_WIDTH 0.45
#define STATUE_MAX_WIDTH 0.55
#define STATUE_MAX_DEPTH 0.7
/* cup extents, metres: outer diameter about 0.08, height about 0.10 */
#define CUP_MIN_DIAMETER 0.075
#define CUP_MAX_DIAMETER 0.085
#define CUP_MIN_HEIGHT 0.095
#define CUP_MAX_HEIGHT 0.105
/* the base rests on z = 0: lowest vertex within this of it, metres */
#define BASE_Z_TOL 1e-6
/* the base is centred: |bbox centre x, y| of the bottom below this, metres */
#define BASE_CENTRE_TOL 0.06
/* non-convexity: a point of the hull this far from the statue surface, metres */
#define STATUE_HULL_GAP 0.05
/* ... and the hull this much larger than the solid (relative volume) */
#define STATUE_HULL_VOLUME_RATIO 1.3
/* grid of probe points over a statue's bounding box */
#define PROBE_NX 8
#define PROBE_NY 8
#define PROBE_NZ 24
/* every HULL_STRIDE-th vertex spans the hull (still inside the true hull) */
#define HULL_STRIDE 5
/* half-size of the probe tetrahedron used for point-to-mesh distances, metres */
#define PROBE_SIZE 1e-4
/* cup wall 4 mm: the point in the middle of the wall, and the free space inside */
#define CUP_WALL_MID_R 0.0365
#define CUP_INSIDE_MIN_GAP 0.025

typedef struct Loaded {
    DstMesh mesh;
    DstMeshReport rep;
} Loaded;

static void load(const char *file, Loaded *l)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s", ENV_MESH_DIR, file);
    DstStatus st = dst_mesh_create_from_file(path, &l->mesh, err, sizeof err);
    ck_assert_msg(st == DST_OK, "%s (generate it with `make env-meshes`)", err);
    ck_assert_int_eq(dst_mesh_validate(&l->mesh, &l->rep), DST_OK);
    ck_assert_msg(l->rep.closed && l->rep.oriented, "%s: open %d, inconsistent %d", path,
                  l->rep.n_open_edges, l->rep.n_inconsistent_edges);
    ck_assert_int_eq(l->rep.n_degenerate, 0);
    ck_assert_int_eq(l->rep.n_nonmanifold_edges, 0);
    ck_assert_int_eq(l->rep.n_unused_vertices, 0);
    ck_assert(l->rep.volume > 0.0);
}

/* distance from p to the surface of the mesh in bvh (a tiny tetrahedron around p). */
static double point_distance(const DstBvh *bvh, const double p[3])
{
    const double h = PROBE_SIZE;
    double v[12] = {p[0] + h, p[1] + h, p[2] + h, p[0] + h, p[1] - h, p[2] - h,
                    p[0] - h, p[1] + h, p[2] - h, p[0] - h, p[1] - h, p[2] + h};
    int t[12] = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, o[3] = {0, 0, 0};
    DstMesh tet;
    DstBvh tb;
    DstMeshDistance d;
    char err[128];
    ck_assert_int_eq(dst_mesh_create(v, 4, t, 4, &tet, err, sizeof err), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&tet, &tb, err, sizeof err), DST_OK);
    dst_bvh_separation(&tb, I, o, bvh, I, o, NULL, &d);
    dst_bvh_destroy(&tb);
    dst_mesh_destroy(&tet);
    return d.distance;
}

/* 1 when p is inside (or on) every face plane of the hull. */
static int hull_contains(const DstHull *h, const double p[3])
{
    for (int f = 0; f < h->ntris; ++f) {
        const double *a = h->verts + 3 * h->tris[3 * f], *b = h->verts + 3 * h->tris[3 * f + 1],
                     *c = h->verts + 3 * h->tris[3 * f + 2];
        double e1[3], e2[3], n[3];
        for (int i = 0; i < 3; ++i) {
            e1[i] = b[i] - a[i];
            e2[i] = c[i] - a[i];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        if (n[0] * (p[0] - a[0]) + n[1] * (p[1] - a[1]) + n[2] * (p[2] - a[2]) > 0.0) return 0;
    }
    return 1;
}

/* volume of a closed outward hull (divergence theorem). */
static double hull_volume(const DstHull *h)
{
    double v = 0.0;
    for (int f = 0; f < h->ntris; ++f) {
        const double *a = h->verts + 3 * h->tris[3 * f], *b = h->verts + 3 * h->tris[3 * f + 1],
                     *c = h->verts + 3 * h->tris[3 * f + 2];
        v += (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
              a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
    }
    return v;
}

static void check_statue(const char *file)
{
    Loaded l;
    load(file, &l);
    const DstMeshReport *r = &l.rep;
    ck_assert_int_ge(l.mesh.n_triangles, STATUE_MIN_TRIS);
    ck_assert_int_le(l.mesh.n_triangles, STATUE_MAX_TRIS);
    double height = r->bbox_max[2] - r->bbox_min[2];
    double width = r->bbox_max[1] - r->bbox_min[1];
    double depth = r->bbox_max[0] - r->bbox_min[0];
    ck_assert_msg(height >= STATUE_MIN_HEIGHT && height <= STATUE_MAX_HEIGHT, "height %g", height);
    ck_assert_msg(width >= STATUE_MIN_WIDTH && width <= STATUE_MAX_WIDTH, "width %g", width);
    ck_assert_msg(depth >= STATUE_MIN_WIDTH && depth <= STATUE_MAX_DEPTH, "depth %g", depth);
    ck_assert(fabs(r->bbox_min[2]) <= BASE_Z_TOL);
    /* the base (vertices at z = 0) is centred on the origin */
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < l.mesh.n_vertices; ++i) {
        if (l.mesh.vertices[i][2] > BASE_Z_TOL) continue;
        for (int c = 0; c < 2; ++c) {
            lo[c] = fmin(lo[c], l.mesh.vertices[i][c]);
            hi[c] = fmax(hi[c], l.mesh.vertices[i][c]);
        }
    }
    for (int c = 0; c < 2; ++c) ck_assert(fabs(0.5 * (lo[c] + hi[c])) <= BASE_CENTRE_TOL);

    /* the hull of a subset of the vertices is much larger than the solid ... */
    int ns = (l.mesh.n_vertices + HULL_STRIDE - 1) / HULL_STRIDE;
    double *pts = malloc((size_t)ns * 3 * sizeof *pts);
    ck_assert_ptr_nonnull(pts);
    for (int i = 0; i < ns; ++i) memcpy(pts + 3 * i, l.mesh.vertices[i * HULL_STRIDE], 3 * sizeof(double));
    DstHull hull;
    char err[256];
    ck_assert_int_eq(dst_hull_build(pts, ns, 0.0, &hull, err, sizeof err), DST_OK);
    double ratio = hull_volume(&hull) / r->volume;
    ck_assert_msg(ratio >= STATUE_HULL_VOLUME_RATIO, "hull / solid volume %g", ratio);

    /* ... and holds points far outside the statue */
    DstBvh bvh;
    ck_assert_int_eq(dst_bvh_create(&l.mesh, &bvh, err, sizeof err), DST_OK);
    ck_assert_int_eq(bvh.closed, 1);
    double best = 0.0;
    int n_probe = 0;
    for (int i = 0; i < PROBE_NX; ++i) {
        for (int j = 0; j < PROBE_NY; ++j) {
            for (int k = 0; k < PROBE_NZ; ++k) {
                double p[3] = {r->bbox_min[0] + (i + 0.5) * depth / PROBE_NX,
                               r->bbox_min[1] + (j + 0.5) * width / PROBE_NY,
                               r->bbox_min[2] + (k + 0.5) * height / PROBE_NZ};
                if (!hull_contains(&hull, p) || dst_bvh_contains(&bvh, p)) continue;
                ++n_probe;
                best = fmax(best, point_distance(&bvh, p));
            }
        }
    }
    ck_assert_int_gt(n_probe, 0);
    ck_assert_msg(best >= STATUE_HULL_GAP, "%s: farthest hull point outside only %g m", file, best);
    dst_bvh_destroy(&bvh);
    dst_hull_destroy(&hull);
    free(pts);
    dst_mesh_destroy(&l.mesh);
}

START_TEST(test_env_statue_left)
{
    check_statue("statue_left.stl");
}
END_TEST

START_TEST(test_env_statue_right)
{
    check_statue("statue_right.stl");
}
END_TEST

START_TEST(test_env_statues_differ)
{
    Loaded a, b;
    load("statue_left.stl", &a);
    load("statue_right.stl", &b);
    int same = a.mesh.n_vertices == b.mesh.n_vertices &&
               memcmp(a.mesh.vertices, b.mesh.vertices,
                      (size_t)a.mesh.n_vertices * sizeof a.mesh.vertices[0]) == 0;
    ck_assert(!same);
    ck_assert(fabs(a.rep.volume - b.rep.volume) > 0.0);
    dst_mesh_destroy(&a.mesh);
    dst_mesh_destroy(&b.mesh);
}
END_TEST

START_TEST(test_env_cup_hollow)
{
    Loaded l;
    char err[256];
    load("cup.stl", &l);
    const DstMeshReport *r = &l.rep;
    ck_assert_int_ge(l.mesh.n_triangles, CUP_MIN_TRIS);
    ck_assert_int_le(l.mesh.n_triangles, CUP_MAX_TRIS);
    double dx = r->bbox_max[0] - r->bbox_min[0], dy = r->bbox_max[1] - r->bbox_min[1];
    double h = r->bbox_max[2] - r->bbox_min[2];
    ck_assert_msg(dx >= CUP_MIN_DIAMETER && dx <= CUP_MAX_DIAMETER, "diameter x %g", dx);
    ck_assert_msg(dy >= CUP_MIN_DIAMETER && dy <= CUP_MAX_DIAMETER, "diameter y %g", dy);
    ck_assert_msg(h >= CUP_MIN_HEIGHT && h <= CUP_MAX_HEIGHT, "height %g", h);
    ck_assert(fabs(r->bbox_min[2]) <= BASE_Z_TOL);
    ck_assert(fabs(0.5 * (r->bbox_min[0] + r->bbox_max[0])) <= BASE_Z_TOL);
    ck_assert(fabs(0.5 * (r->bbox_min[1] + r->bbox_max[1])) <= BASE_Z_TOL);

    DstBvh bvh;
    ck_assert_int_eq(dst_bvh_create(&l.mesh, &bvh, err, sizeof err), DST_OK);
    ck_assert_int_eq(bvh.closed, 1);
    ck_assert_int_eq(bvh.convex, 0);
    /* the centre above the inner bottom is outside the solid, with room around it */
    double centre[3] = {0.0, 0.0, 0.5 * h};
    ck_assert_int_eq(dst_bvh_contains(&bvh, centre), 0);
    ck_assert(point_distance(&bvh, centre) >= CUP_INSIDE_MIN_GAP);
    /* the middle of the wall and of the bottom slab are inside it */
    double wall[3] = {CUP_WALL_MID_R, 0.0, 0.5 * h}, bottom[3] = {0.0, 0.0, 0.003};
    double wall2[3] = {0.0, -CUP_WALL_MID_R, 0.5 * h};
    ck_assert_int_eq(dst_bvh_contains(&bvh, wall), 1);
    ck_assert_int_eq(dst_bvh_contains(&bvh, wall2), 1);
    ck_assert_int_eq(dst_bvh_contains(&bvh, bottom), 1);
    /* below the base and beside the cup: outside */
    double below[3] = {0.0, 0.0, -0.01}, beside[3] = {0.06, 0.0, 0.05};
    ck_assert_int_eq(dst_bvh_contains(&bvh, below), 0);
    ck_assert_int_eq(dst_bvh_contains(&bvh, beside), 0);
    dst_bvh_destroy(&bvh);
    dst_mesh_destroy(&l.mesh);
}
END_TEST

Suite *env_meshes_suite(void)
{
    Suite *s = suite_create("env_meshes");
    TCase *tc = tcase_create("statues");
    tcase_add_test(tc, test_env_statue_left);
    tcase_add_test(tc, test_env_statue_right);
    tcase_add_test(tc, test_env_statues_differ);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    tc = tcase_create("cup");
    tcase_add_test(tc, test_env_cup_hollow);
    suite_add_tcase(s, tc);
    return s;
}
