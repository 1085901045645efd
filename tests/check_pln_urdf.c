/* check_pln_urdf.c — tests of planner/model/pln_urdf.c (docs/URDF.md): one small URDF
 * per element type (tests/data/urdf/, written from the URDF specification), each capsule
 * checked against dense samples of the shapes it must enclose; joints (revolute with an
 * unnormalised axis, continuous, fixed) and a rotated inertial frame read as the
 * specification says; the hand-written URDF of tests/data/arm3.yaml gives the YAML
 * loader's model; package:// through the options and $ROS_PACKAGE_PATH; warnings with
 * file:line; the round trip YAML -> URDF -> model with forward kinematics equal to 1e-12
 * (robots/hrp2.yaml, robots/arm4/arm4.urdf); `hrpplan robot --urdf`, and a plan of
 * scenarios/arm4_reach.yaml (a URDF robot) through hrpplan; a link of several elements
 * (meshes and a box) measured in `geometry: mesh` as the least of its elements' distances;
 * zero sizes refused. Run from the top directory. */
#define _DEFAULT_SOURCE /* realpath */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_rng.h"
#include "check_util.h"
#include "cli_run.h"
#include "dst_mesh.h"
#include "model/pln_capfit.h"
#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"
#include "model/pln_robot.h"
#include "model/pln_urdf.h"
#include "problem/pln_plan.h"
#include "problem/pln_problem.h"

#define D "tests/data/urdf/"
#define FK_TOL 1e-12     /* m and rotation entries: the round trip's forward kinematics */
#define PI_ 3.14159265358979323846

static PlnRobot load_ok(const char *path, const PlnUrdfOptions *opt)
{
    PlnRobot r;
    char err[1024];
    PlnStatus st = pln_urdf_load(path, opt, &r, err, sizeof err);
    ck_assert_msg(st == PLN_OK, "%s: %s", path, err);
    return r;
}

/* the collision origin of tests/data/urdf/<shape>.urdf: xyz 0.1 -0.05 0.2, rpy 0.3 -0.4 0.5 */
static void shape_pose(double R[9], double p[3])
{
    const double rpy[3] = {0.3, -0.4, 0.5};
    pln_kin_rpy_to_matrix(rpy, R);
    p[0] = 0.1; p[1] = -0.05; p[2] = 0.2;
}

static void place(const double R[9], const double p[3], const double x[3], double y[3])
{
    for (int r = 0; r < 3; ++r) y[r] = p[r] + R[3 * r] * x[0] + R[3 * r + 1] * x[1] + R[3 * r + 2] * x[2];
}

static void assert_inside(const PlnLinkGeometry *g, const double y[3], const char *what)
{
    double d = pln_capfit_segment_distance(y, g->capsule_p0, g->capsule_p1);
    ck_assert_msg(d <= g->capsule_radius, "%s: a surface point at %.17g from the segment, radius %.17g",
                  what, d, g->capsule_radius);
}

/* dense samples of a box's, a cylinder's, a sphere's surface in the shape frame */
START_TEST(test_primitives_enclosed)
{
    double R[9], p[3];
    shape_pose(R, p);
    {
        PlnRobot r = load_ok(D "box.urdf", NULL);
        const PlnLinkGeometry *g = &r.links[1].geometry;
        const double h[3] = {0.15, 0.05, 0.025};
        ck_assert(g->has_capsule && g->mesh_path[0] == '\0');
        for (int face = 0; face < 6; ++face) {
            for (int i = 0; i <= 60; ++i) {
                for (int j = 0; j <= 60; ++j) {
                    double x[3], y[3];
                    int a = face % 3, b = (a + 1) % 3, c = (a + 2) % 3;
                    x[a] = (face < 3 ? 1 : -1) * h[a];
                    x[b] = (-1 + i / 30.0) * h[b];
                    x[c] = (-1 + j / 30.0) * h[c];
                    place(R, p, x, y);
                    assert_inside(g, y, "box");
                }
            }
        }
        pln_robot_destroy(&r);
    }
    for (int disc = 0; disc < 2; ++disc) {
        PlnRobot r = load_ok(disc ? D "disc.urdf" : D "cylinder.urdf", NULL);
        const PlnLinkGeometry *g = &r.links[1].geometry;
        double rad = disc ? 0.2 : 0.04, len = disc ? 0.02 : 0.25;
        for (int i = 0; i < 3600; ++i) {
            double a = 2 * PI_ * i / 3600, x[3], y[3];
            for (int k = 0; k <= 10; ++k) {
                x[0] = rad * cos(a); x[1] = rad * sin(a); x[2] = (-0.5 + k / 10.0) * len;
                place(R, p, x, y);
                assert_inside(g, y, disc ? "disc rim" : "cylinder side");
            }
        }
        /* the capsule is no bigger than the cylinder's own capsule (radius, length) */
        {
            double L = pln_capfit_segment_distance(g->capsule_p0, g->capsule_p1, g->capsule_p1);
            double v = PI_ * g->capsule_radius * g->capsule_radius * L + 4.0 / 3.0 * PI_ * pow(g->capsule_radius, 3);
            double v0 = PI_ * rad * rad * len + 4.0 / 3.0 * PI_ * rad * rad * rad;
            ck_assert_msg(v <= v0 * (1 + 1e-12), "volume %g > the cylinder's capsule %g", v, v0);
        }
        pln_robot_destroy(&r);
    }
    {
        /* a lone sphere and a lone capsule are exact */
        PlnRobot r = load_ok(D "sphere.urdf", NULL), c = load_ok(D "capsule.urdf", NULL);
        const PlnLinkGeometry *g = &r.links[1].geometry, *h = &c.links[1].geometry;
        double z[3] = {0, 0, 0}, a[3], b[3], top[3] = {0, 0, 0.1}, bot[3] = {0, 0, -0.1};
        place(R, p, z, a);
        for (int k = 0; k < 3; ++k) {
            ck_assert_double_eq_tol(g->capsule_p0[k], a[k], 1e-15);
            ck_assert_double_eq_tol(g->capsule_p1[k], a[k], 1e-15);
        }
        ck_assert_double_eq(g->capsule_radius, 0.07);
        place(R, p, bot, a);
        place(R, p, top, b);
        for (int k = 0; k < 3; ++k) {
            ck_assert_double_eq_tol(h->capsule_p0[k], a[k], 1e-15);
            ck_assert_double_eq_tol(h->capsule_p1[k], b[k], 1e-15);
        }
        ck_assert_double_eq(h->capsule_radius, 0.03);
        pln_robot_destroy(&r);
        pln_robot_destroy(&c);
    }
}
END_TEST

/* meshes: every vertex (scaled, posed) inside; the mesh kept as the link's mesh at its
 * collision origin, a scaled one with its scale */
START_TEST(test_meshes)
{
    double R[9], p[3];
    char err[512];
    DstMesh m;
    PlnUrdfOptions quiet = {NULL, NULL};
    shape_pose(R, p);
    {
        PlnRobot r = load_ok(D "mesh_stl.urdf", &quiet);
        const PlnLinkGeometry *g = &r.links[1].geometry;
        ck_assert(g->mesh_path[0] != '\0' && g->has_file_pose);
        ck_assert_int_eq(g->mesh_triangles, 32);
        for (int k = 0; k < 9; ++k) ck_assert_double_eq(g->file_rot[k], R[k]);
        ck_assert_int_eq(pln_mesh_read(g->mesh_path, &m, err, sizeof err), PLN_OK);
        for (int v = 0; v < m.n_vertices; ++v) {
            double y[3];
            pln_link_file_point(g, m.vertices[v], y);
            assert_inside(g, y, "mesh vertex");
        }
        dst_mesh_destroy(&m);
        pln_robot_destroy(&r);
    }
    {
        const double s[3] = {2, 1, 0.5};
        PlnRobot r = load_ok(D "mesh_scaled.urdf", &quiet);
        const PlnLinkGeometry *g = &r.links[1].geometry;
        ck_assert(g->mesh_path[0] != '\0' && g->has_capsule && g->has_mesh_scale);
        for (int k = 0; k < 3; ++k) ck_assert_double_eq(g->mesh_scale[k], s[k]);
        ck_assert_int_eq(pln_mesh_read("robots/arm4/meshes/forearm.stl", &m, err, sizeof err), PLN_OK);
        for (int v = 0; v < m.n_vertices; ++v) {
            double x[3], y[3];
            for (int k = 0; k < 3; ++k) x[k] = s[k] * m.vertices[v][k];
            place(R, p, x, y);
            assert_inside(g, y, "scaled mesh vertex");
        }
        dst_mesh_destroy(&m);
        pln_robot_destroy(&r);
    }
    {
        /* several elements: one capsule around all of them (dense sphere and box samples) */
        PlnRobot r = load_ok(D "multi.urdf", &quiet);
        const PlnLinkGeometry *g = &r.links[1].geometry;
        Rng rng = {3};
        ck_assert(g->mesh_path[0] == '\0');
        for (int i = 0; i < 20000; ++i) {
            double v[3], y[3];
            rng_unit(&rng, v);
            y[0] = 0.06 * v[0]; y[1] = 0.06 * v[1]; y[2] = 0.25 + 0.06 * v[2];
            assert_inside(g, y, "sphere element");
            y[0] = rng_uniform(&rng, -0.05, 0.05); y[1] = rng_uniform(&rng, -0.05, 0.05); y[2] = 0.0;
            y[rng_next(&rng) % 2] = (rng_next(&rng) % 2 ? 0.05 : -0.05);
            y[2] = rng_uniform(&rng, 0.0, 0.2);
            assert_inside(g, y, "box element");
        }
        pln_robot_destroy(&r);
    }
}
END_TEST

/* writes mesh m as ASCII STL */
static void write_stl(const char *path, const DstMesh *m)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("solid scaled\n", f);
    for (int t = 0; t < m->n_triangles; ++t) {
        fputs(" facet normal 0 0 0\n  outer loop\n", f);
        for (int k = 0; k < 3; ++k) {
            const double *v = m->vertices[m->triangles[t][k]];
            fprintf(f, "   vertex %.17g %.17g %.17g\n", v[0], v[1], v[2]);
        }
        fputs("  endloop\n endfacet\n", f);
    }
    fputs("endsolid scaled\n", f);
    fclose(f);
}

/* the static distance of the scenario's only pair at joint value q */
static double pair_distance_at(const char *scenario, double q)
{
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnKinWork *kin;
    PlnPairDistance pd;
    char err[1024];
    double qs[8];
    ck_assert_msg(pln_plan_load(scenario, &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(l.sc.n_pairs, 1);
    ck_assert_int_le(l.robot.n_joints, 8);
    ck_assert_msg(pln_kin_create(&l.robot, &kin, err, sizeof err) == PLN_OK, "%s", err);
    memcpy(qs, l.p->q_init, (size_t)l.robot.n_joints * sizeof *qs);
    qs[0] = q;
    ck_assert_int_eq(pln_kin_forward(kin, &l.robot, qs), PLN_OK);
    pln_problem_pair_distance(l.p, kin, 0, &pd);
    pln_kin_destroy(kin);
    pln_plan_unload(&l);
    return pd.distance;
}

/* a scaled URDF mesh (<mesh scale="2 1 0.5">) in `geometry: mesh` and `convex`: the pair
 * distances equal those of the same mesh scaled into a file of its own (to rounding), at
 * several joint values; and the export writes the scale back */
START_TEST(test_scaled_mesh_geometry)
{
    const double s[3] = {2, 1, 0.5}, qv[3] = {-0.8, 0.0, 0.7};
    const char *geoms[2] = {"mesh", "convex"};
    char dir[256], stl[512], urdf[512], cwd[1024], err[512], text[8192];
    DstMesh m;
    FILE *f;
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(stl, sizeof stl, "%s/scaled.stl", dir);
    snprintf(urdf, sizeof urdf, "%s/pre.urdf", dir);
    ck_assert_int_eq(pln_mesh_read("robots/arm4/meshes/forearm.stl", &m, err, sizeof err), PLN_OK);
    for (int v = 0; v < m.n_vertices; ++v) {
        for (int k = 0; k < 3; ++k) m.vertices[v][k] *= s[k];
    }
    write_stl(stl, &m);
    dst_mesh_destroy(&m);
    f = fopen(urdf, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "<?xml version=\"1.0\"?>\n<robot name=\"pre\">\n  <link name=\"base\"/>\n"
               "  <link name=\"body\"><collision><origin xyz=\"0.1 -0.05 0.2\" rpy=\"0.3 -0.4 0.5\"/>"
               "<geometry><mesh filename=\"%s\"/></geometry></collision></link>\n"
               "  <joint name=\"q\" type=\"revolute\"><parent link=\"base\"/><child link=\"body\"/>"
               "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"1\"/>"
               "</joint>\n</robot>\n", stl);
    fclose(f);
    for (int gi = 0; gi < 2; ++gi) {
        const char *robots[2] = {"", urdf};
        char scen[2][600];
        for (int k = 0; k < 2; ++k) {
            snprintf(scen[k], sizeof scen[k], "%s/s%d.yaml", dir, k);
            f = fopen(scen[k], "w");
            ck_assert_ptr_nonnull(f);
            if (k == 0) {
                fprintf(f, "name: s\nrobot: %s/" D "mesh_scaled.urdf\n", cwd);
            } else {
                fprintf(f, "name: s\nrobot: %s\n", robots[1]);
            }
            fprintf(f, "duration: 1\njoints: [q]\n"
                       "environment: [{name: block, type: box, center: [0.25, 0.1, 0.3], "
                       "size: [0.06, 0.06, 0.06]}]\n"
                       "collision: {geometry: %s, pairs: [[body, block]]}\n", geoms[gi]);
            fclose(f);
        }
        for (int i = 0; i < 3; ++i) {
            double da = pair_distance_at(scen[0], qv[i]), db = pair_distance_at(scen[1], qv[i]);
            ck_assert_msg(fabs(da - db) <= 1e-9, "%s at q = %g: scale %g, scaled file %g",
                          geoms[gi], qv[i], da, db);
            ck_assert_msg(da != 0.0, "%s: no distance", geoms[gi]);
        }
    }
    {
        /* the export keeps the scale */
        PlnUrdfOptions quiet = {NULL, NULL};
        PlnRobot r = load_ok(D "mesh_scaled.urdf", &quiet);
        char out[600];
        snprintf(out, sizeof out, "%s/export.urdf", dir);
        f = fopen(out, "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(pln_urdf_write(&r, D "mesh_scaled.urdf", f, err, sizeof err), PLN_OK);
        fclose(f);
        ck_assert(ckutil_read_file(out, text, sizeof text) > 0);
        ck_assert_msg(strstr(text, "scale=\"2 1 0.5\"") != NULL, "%s", out);
        pln_robot_destroy(&r);
    }
    ckutil_rm_flat(dir);
}
END_TEST

/* writes a one-joint URDF (revolute q about z) whose link "body" has the collision
 * elements `collisions` (XML) */
static void write_body_urdf(const char *path, const char *collisions)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "<?xml version=\"1.0\"?>\n<robot name=\"multi\">\n  <link name=\"base\"/>\n"
               "  <link name=\"body\">%s</link>\n"
               "  <joint name=\"q\" type=\"revolute\"><parent link=\"base\"/><child link=\"body\"/>"
               "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"2\" velocity=\"1\"/>"
               "</joint>\n</robot>\n", collisions);
    fclose(f);
}

/* a scenario on `robot` measuring the one pair body - block in `geometry` */
static void write_block_scenario(const char *path, const char *robot, const char *geometry)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "name: s\nrobot: %s\nduration: 1\njoints: [q]\n"
               "environment: [{name: block, type: box, center: [0.25, 0.1, 0.3], size: [0.06, 0.06, 0.06]}]\n"
               "collision: {geometry: %s, pairs: [[body, block]]}\n", robot, geometry);
    fclose(f);
}

/* A link of two mesh elements (one scaled, both placed) and a box: it loads without a
 * warning, its mesh is the union of the three (a triangle count that adds up), and its
 * `geometry: mesh` pair distance at several joint values equals the least of the three
 * elements' own distances, each measured with a link of that element alone (1e-12). */
START_TEST(test_multi_element_mesh)
{
    static const char *elems[3] = {
        "<collision><geometry><mesh filename=\"%s/robots/arm4/meshes/upper_arm.stl\"/></geometry></collision>",
        "<collision><origin xyz=\"0 0.15 0\" rpy=\"0 0 0.3\"/><geometry><mesh filename=\"%s/robots/arm4/meshes/forearm.stl\" "
        "scale=\"1 0.5 1.5\"/></geometry></collision>",
        "<collision><origin xyz=\"0.1 -0.15 0.05\" rpy=\"0.2 0 0\"/><geometry><box size=\"0.08 0.06 0.04\"/></geometry></collision>"};
    const double qv[5] = {-0.9, -0.4, 0.0, 0.5, 0.95};
    char dir[256], cwd[1024], all[4096] = "", one[1400], urdf[4][600], scen[4][600], err[512];
    int argmin_seen[3] = {0, 0, 0};
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ckutil_mkdtemp(dir, sizeof dir);
    for (int k = 0; k < 3; ++k) {
        snprintf(one, sizeof one, elems[k], cwd);
        strcat(all, one);
        snprintf(urdf[k], sizeof urdf[k], "%s/one%d.urdf", dir, k);
        write_body_urdf(urdf[k], one);
    }
    snprintf(urdf[3], sizeof urdf[3], "%s/all.urdf", dir);
    write_body_urdf(urdf[3], all);
    {
        /* no warning; the mesh of the three elements */
        char wbuf[4096] = "";
        FILE *w = fmemopen(wbuf, sizeof wbuf, "w");
        PlnUrdfOptions opt = {NULL, w};
        PlnRobot r = load_ok(urdf[3], &opt);
        fclose(w);
        ck_assert_msg(wbuf[0] == '\0', "warnings: %s", wbuf);
        const PlnLinkGeometry *g = &r.links[1].geometry;
        ck_assert(g->mesh_path[0] == '\0');
        ck_assert_int_eq(g->n_parts, 3);
        ck_assert_int_eq(r.parts[g->part_first].type, PLN_PART_MESH);
        ck_assert_int_eq(r.parts[g->part_first + 1].has_scale, 1);
        ck_assert_int_eq(r.parts[g->part_first + 2].type, PLN_PART_BOX);
        {
            DstMesh m, a, b;
            ck_assert_int_eq(pln_link_mesh_read(&r, 1, &m, err, sizeof err), PLN_OK);
            ck_assert_int_eq(pln_mesh_read("robots/arm4/meshes/upper_arm.stl", &a, err, sizeof err), PLN_OK);
            ck_assert_int_eq(pln_mesh_read("robots/arm4/meshes/forearm.stl", &b, err, sizeof err), PLN_OK);
            ck_assert_int_eq(m.n_triangles, a.n_triangles + b.n_triangles + 12);
            ck_assert_int_eq(g->mesh_triangles, m.n_triangles);
            dst_mesh_destroy(&m), dst_mesh_destroy(&a), dst_mesh_destroy(&b);
        }
        pln_robot_destroy(&r);
    }
    for (int k = 0; k < 4; ++k) {
        snprintf(scen[k], sizeof scen[k], "%s/s%d.yaml", dir, k);
        write_block_scenario(scen[k], urdf[k], "mesh");
    }
    for (int i = 0; i < 5; ++i) {
        double d = pair_distance_at(scen[3], qv[i]), best = INFINITY;
        int arg = -1;
        for (int k = 0; k < 3; ++k) {
            double dk = pair_distance_at(scen[k], qv[i]);
            ck_assert(dk > 0.0);
            if (dk < best) best = dk, arg = k;
        }
        ck_assert_msg(fabs(d - best) <= 1e-12, "q = %g: the link's distance %.17g, the least element's %.17g",
                      qv[i], d, best);
        argmin_seen[arg] = 1;
    }
    /* the nearest element changes with q: more than one of them decides a distance */
    ck_assert_int_ge(argmin_seen[0] + argmin_seen[1] + argmin_seen[2], 2);
    ckutil_rm_flat(dir);
    rmdir(dir);
}
END_TEST

/* the fingerprint covers the mesh files of a link's collision elements: a link of a box and
 * a mesh changes its fingerprint when the mesh file changes */
START_TEST(test_fingerprint_parts)
{
    char dir[256], stl[512], urdf[512], xml[1200], err[512], h0[65], h1[65];
    DstMesh m;
    PlnUrdfOptions quiet = {NULL, NULL};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(stl, sizeof stl, "%s/part.stl", dir);
    snprintf(urdf, sizeof urdf, "%s/fp.urdf", dir);
    ck_assert_int_eq(pln_mesh_read("robots/arm4/meshes/forearm.stl", &m, err, sizeof err), PLN_OK);
    write_stl(stl, &m);
    snprintf(xml, sizeof xml, "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision>"
             "<collision><geometry><mesh filename=\"%s\"/></geometry></collision>", stl);
    write_body_urdf(urdf, xml);
    for (int k = 0; k < 2; ++k) {
        PlnRobot r;
        ck_assert_int_eq(pln_urdf_load(urdf, &quiet, &r, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_robot_fingerprint(&r, urdf, k ? h1 : h0, err, sizeof err), PLN_OK);
        pln_robot_destroy(&r);
        /* the same mesh moved by 1 mm */
        for (int v = 0; v < m.n_vertices; ++v) m.vertices[v][0] += 1e-3;
        write_stl(stl, &m);
    }
    ck_assert_str_ne(h0, h1);
    dst_mesh_destroy(&m);
    ckutil_rm_flat(dir);
    rmdir(dir);
}
END_TEST

/* a zero-size box and a zero radius are still refused, naming the file and line */
START_TEST(test_zero_size_refused)
{
    static const char *bad[3] = {
        "<collision><geometry><box size=\"0.1 0 0.1\"/></geometry></collision>",
        "<collision><geometry><sphere radius=\"0\"/></geometry></collision>",
        "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision><collision><geometry>"
        "<cylinder radius=\"0\" length=\"0.2\"/></geometry></collision>"};
    static const char *what[3] = {"size: must be > 0", "radius: must be > 0", "radius: must be > 0"};
    char dir[256], path[600], err[1024], at[700];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/bad.urdf", dir);
    for (int k = 0; k < 3; ++k) {
        PlnRobot r;
        PlnUrdfOptions quiet = {NULL, NULL};
        write_body_urdf(path, bad[k]);
        ck_assert_int_eq(pln_urdf_load(path, &quiet, &r, err, sizeof err), PLN_ERR_INVALID);
        snprintf(at, sizeof at, "%s:4:", path); /* the line of link "body" */
        ck_assert_msg(strstr(err, at) != NULL && strstr(err, what[k]) != NULL, "%s", err);
    }
    ckutil_rm_flat(dir);
    rmdir(dir);
}
END_TEST

START_TEST(test_package_paths)
{
    PlnUrdfOptions opt = {"/nonexistent:robots", NULL};
    PlnRobot r;
    char err[1024];
    unsetenv("ROS_PACKAGE_PATH");
    ck_assert_int_eq(pln_urdf_load(D "mesh_package.urdf", NULL, &r, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "mesh_package.urdf:5:"));
    ck_assert_ptr_nonnull(strstr(err, "package 'arm4'"));
    r = load_ok(D "mesh_package.urdf", &opt);
    ck_assert_ptr_nonnull(strstr(r.links[1].geometry.mesh_path, "robots/arm4/meshes/forearm.stl"));
    pln_robot_destroy(&r);
    /* the package directory itself, and a parent of it two levels up, through the variable */
    setenv("ROS_PACKAGE_PATH", "/nonexistent:robots/arm4", 1);
    r = load_ok(D "mesh_package.urdf", NULL);
    pln_robot_destroy(&r);
    setenv("ROS_PACKAGE_PATH", ".", 1);
    r = load_ok(D "mesh_package.urdf", NULL);
    pln_robot_destroy(&r);
    unsetenv("ROS_PACKAGE_PATH");
}
END_TEST

START_TEST(test_joints_and_inertial)
{
    PlnRobot r = load_ok(D "joints.urdf", NULL);
    double R[9];
    const double rpy[3] = {0.1, 0.2, 0.3};
    ck_assert_int_eq(r.n_joints, 2);
    ck_assert_int_eq(r.n_links, 4);
    ck_assert_str_eq(r.joints[0].name, "rev");
    ck_assert_double_eq(r.joints[0].axis[2], 1.0);  /* (0 0 2) normalised */
    ck_assert_double_eq(r.joints[0].lower, -1.5);
    ck_assert_double_eq(r.joints[0].upper, 0.5);
    ck_assert_double_eq(r.joints[0].velocity_max, 1.5);
    ck_assert_double_eq(r.joints[0].effort_max, 30.0);
    ck_assert_str_eq(r.joints[1].name, "cont");
    ck_assert_double_eq(r.joints[1].lower, -PLN_URDF_CONTINUOUS_LIMIT_RAD);
    ck_assert_double_eq(r.joints[1].upper, PLN_URDF_CONTINUOUS_LIMIT_RAD);
    ck_assert(r.has_effort);
    ck_assert_str_eq(r.links[3].name, "l3");
    ck_assert_int_eq(r.links[3].joint, -1);       /* fixed */
    ck_assert_int_eq(r.links[3].parent, 2);
    ck_assert_double_eq(r.links[3].origin_pos[1], 0.1);
    pln_kin_rpy_to_matrix(rpy, R);
    for (int k = 0; k < 9; ++k) ck_assert_double_eq(r.links[2].origin_rot[k], R[k]);
    ck_assert_double_eq(r.control_period, PLN_URDF_DEFAULT_CONTROL_PERIOD_S);
    pln_robot_destroy(&r);

    /* the inertia about the com in a frame turned by 90 deg about z: ixx and iyy swap,
     * ixy changes sign */
    r = load_ok(D "inertial.urdf", NULL);
    ck_assert_double_eq(r.links[0].mass, 2.5);
    ck_assert_double_eq(r.links[0].com[2], 0.03);
    ck_assert_double_eq_tol(r.links[0].inertia[0], 0.2, 1e-15);
    ck_assert_double_eq_tol(r.links[0].inertia[4], 0.1, 1e-15);
    ck_assert_double_eq_tol(r.links[0].inertia[8], 0.3, 1e-15);
    ck_assert_double_eq_tol(r.links[0].inertia[1], -0.01, 1e-15);
    ck_assert_double_eq_tol(r.links[0].inertia[3], -0.01, 1e-15);
    pln_robot_destroy(&r);
}
END_TEST

START_TEST(test_warnings)
{
    FILE *w = tmpfile();
    PlnUrdfOptions opt = {NULL, w};
    char buf[4096];
    size_t n;
    PlnRobot r = load_ok(D "ignored.urdf", &opt);
    rewind(w);
    n = fread(buf, 1, sizeof buf - 1, w);
    buf[n] = '\0';
    fclose(w);
    ck_assert_ptr_nonnull(strstr(buf, "ignored.urdf:5: warning: <sensor_mount> in <link> ignored"));
    ck_assert_ptr_nonnull(strstr(buf, "ignored.urdf:7: warning: <dynamics> in <joint> ignored"));
    ck_assert_ptr_nonnull(strstr(buf, "<safety_controller>"));
    ck_assert_ptr_nonnull(strstr(buf, "<calibration>"));
    ck_assert_ptr_nonnull(strstr(buf, "ignored.urdf:10: warning: <sensor> in <robot> ignored"));
    /* visual, material, transmission and gazebo are silent */
    ck_assert_ptr_null(strstr(buf, "<visual>"));
    ck_assert_ptr_null(strstr(buf, "<transmission>"));
    ck_assert_ptr_null(strstr(buf, "<gazebo>"));
    ck_assert_int_eq(r.n_links, 2);
    ck_assert(!r.links[0].geometry.has_capsule);  /* a visual is no collision shape */
    pln_robot_destroy(&r);
}
END_TEST

/* forward kinematics of a and b (same joints) at random q: every link pose equal */
static void assert_same_fk(const PlnRobot *a, const PlnRobot *b, unsigned seed)
{
    PlnKinWork *ka, *kb;
    char err[256];
    Rng rng = {seed};
    double *q = calloc((size_t)a->n_joints + 1, sizeof *q);
    ck_assert_int_eq(a->n_joints, b->n_joints);
    ck_assert_int_eq(a->n_links, b->n_links);
    ck_assert_int_eq(pln_kin_create(a, &ka, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_create(b, &kb, err, sizeof err), PLN_OK);
    for (int t = 0; t < 50; ++t) {
        for (int j = 0; j < a->n_joints; ++j) q[j] = rng_uniform(&rng, a->joints[j].lower, a->joints[j].upper);
        ck_assert_int_eq(pln_kin_forward(ka, a, q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kb, b, q), PLN_OK);
        for (int l = 0; l < a->n_links; ++l) {
            const double *Ra = pln_kin_link_rot(ka, l), *Rb = pln_kin_link_rot(kb, l);
            const double *pa = pln_kin_link_pos(ka, l), *pb = pln_kin_link_pos(kb, l);
            ck_assert_str_eq(a->links[l].name, b->links[l].name);
            for (int k = 0; k < 9; ++k) ck_assert_msg(fabs(Ra[k] - Rb[k]) <= FK_TOL, "link %s R[%d]: %.17g vs %.17g", a->links[l].name, k, Ra[k], Rb[k]);
            for (int k = 0; k < 3; ++k) ck_assert_msg(fabs(pa[k] - pb[k]) <= FK_TOL, "link %s p[%d]: %.17g vs %.17g", a->links[l].name, k, pa[k], pb[k]);
        }
    }
    free(q);
    pln_kin_destroy(ka);
    pln_kin_destroy(kb);
}

/* link y of robot rb has exactly one collision part, a capsule whose segment and radius are
 * link x's capsule (to rounding of the rpy written and read back) */
static void assert_capsule_part(const PlnLink *x, const PlnRobot *rb, const PlnLink *y)
{
    ck_assert(x->geometry.has_capsule);
    ck_assert_int_eq(y->geometry.n_parts, 1);
    const PlnCollisionPart *pt = &rb->parts[y->geometry.part_first];
    ck_assert_int_eq(pt->type, PLN_PART_CAPSULE);
    ck_assert_double_eq_tol(pt->radius, x->geometry.capsule_radius, FK_TOL);
    for (int e = -1; e <= 1; e += 2) {
        const double *end = e < 0 ? x->geometry.capsule_p0 : x->geometry.capsule_p1;
        for (int r = 0; r < 3; ++r) {
            double c = pt->pos[r] + e * 0.5 * pt->length * pt->rot[3 * r + 2];
            ck_assert_double_eq_tol(c, end[r], FK_TOL);
        }
    }
}

static void assert_same_model(const PlnRobot *a, const PlnRobot *b)
{
    ck_assert_str_eq(a->name, b->name);
    ck_assert_double_eq(a->control_period, b->control_period);
    ck_assert_int_eq(a->has_effort, b->has_effort);
    for (int j = 0; j < a->n_joints; ++j) {
        const PlnJoint *x = &a->joints[j], *y = &b->joints[j];
        ck_assert_str_eq(x->name, y->name);
        ck_assert_int_eq(x->type, y->type);
        ck_assert_int_eq(x->link, y->link);
        ck_assert_double_eq(x->lower, y->lower);
        ck_assert_double_eq(x->upper, y->upper);
        ck_assert_double_eq(x->velocity_max, y->velocity_max);
        ck_assert_double_eq(x->initial, y->initial);
        ck_assert_double_eq(x->effort_max, y->effort_max);
        for (int k = 0; k < 3; ++k) ck_assert_double_eq_tol(x->axis[k], y->axis[k], 1e-15);
    }
    for (int l = 0; l < a->n_links; ++l) {
        const PlnLink *x = &a->links[l], *y = &b->links[l];
        ck_assert_int_eq(x->parent, y->parent);
        ck_assert_int_eq(x->joint, y->joint);
        ck_assert_double_eq(x->mass, y->mass);
        for (int k = 0; k < 3; ++k) ck_assert_double_eq_tol(x->com[k], y->com[k], 1e-15);
        for (int k = 0; k < 9; ++k) ck_assert_double_eq_tol(x->inertia[k], y->inertia[k], 1e-15);
        ck_assert_int_eq(x->geometry.has_capsule, y->geometry.has_capsule);
        if (x->geometry.has_capsule) {
            ck_assert_double_eq_tol(x->geometry.capsule_radius, y->geometry.capsule_radius, 1e-15);
            for (int k = 0; k < 3; ++k) {
                ck_assert_double_eq_tol(x->geometry.capsule_p0[k], y->geometry.capsule_p0[k], 1e-15);
                ck_assert_double_eq_tol(x->geometry.capsule_p1[k], y->geometry.capsule_p1[k], 1e-15);
            }
        }
        if (x->geometry.mesh_triangles == 0 && y->geometry.n_parts > 0) {
            /* a capsule-only link (robot YAML) written as URDF, or given so by hand: its one
             * <capsule> collision element is the link's capsule, which now also gives the
             * link a mesh (model/pln_linkmesh.h) */
            assert_capsule_part(x, b, &b->links[l]);
        } else {
            ck_assert_int_eq(x->geometry.mesh_triangles, y->geometry.mesh_triangles);
            ck_assert_int_eq(x->geometry.n_parts, y->geometry.n_parts);
        }
        ck_assert_int_eq(x->geometry.has_ellipsoid, y->geometry.has_ellipsoid);
    }
    ck_assert_int_eq(a->n_soles, b->n_soles);
    for (int s = 0; s < a->n_soles; ++s) {
        ck_assert_int_eq(a->soles[s].link, b->soles[s].link);
        ck_assert_double_eq(a->soles[s].size[0], b->soles[s].size[0]);
        ck_assert_double_eq(a->soles[s].offset[2], b->soles[s].offset[2]);
    }
    ck_assert_int_eq(a->n_collision_pairs, b->n_collision_pairs);
    for (int p = 0; p < a->n_collision_pairs; ++p) {
        ck_assert_int_eq(a->collision_pairs[p][0], b->collision_pairs[p][0]);
        ck_assert_int_eq(a->collision_pairs[p][1], b->collision_pairs[p][1]);
    }
}

/* the URDF written by hand for tests/data/arm3.yaml gives the YAML's model */
START_TEST(test_same_as_yaml)
{
    PlnRobot y, u = load_ok(D "arm3.urdf", NULL);
    char err[1024];
    ck_assert_int_eq(pln_robot_load("tests/data/arm3.yaml", &y, err, sizeof err), PLN_OK);
    assert_same_model(&y, &u);
    assert_same_fk(&y, &u, 11);
    pln_robot_destroy(&y);
    pln_robot_destroy(&u);
}
END_TEST

/* the URDF written by hand for tests/data/arm3p.yaml (a prismatic lift) gives the
 * YAML's model: the joint types, limits in m and m/s, effort in N, and the poses */
START_TEST(test_same_as_yaml_prismatic)
{
    PlnRobot y, u = load_ok(D "arm3p.urdf", NULL);
    char err[1024];
    ck_assert_int_eq(pln_robot_load("tests/data/arm3p.yaml", &y, err, sizeof err), PLN_OK);
    ck_assert_int_eq(u.joints[1].type, PLN_JOINT_PRISMATIC);
    ck_assert_int_eq(u.joints[0].type, PLN_JOINT_REVOLUTE);
    assert_same_model(&y, &u);
    assert_same_fk(&y, &u, 12);
    pln_robot_destroy(&y);
    pln_robot_destroy(&u);
}
END_TEST

static void round_trip(const char *path, unsigned seed)
{
    PlnRobot a, b;
    char err[1024], tmp[] = "/tmp/hrpplan_urdf_XXXXXX";
    int fd = mkstemp(tmp);
    FILE *f;
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "w");
    ck_assert_int_eq(pln_robot_load(path, &a, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_urdf_write(&a, path, f, err, sizeof err), PLN_OK);
    fclose(f);
    {
        PlnUrdfOptions quiet = {NULL, NULL};
        PlnStatus st = pln_urdf_load(tmp, &quiet, &b, err, sizeof err);
        ck_assert_msg(st == PLN_OK, "%s", err);
    }
    unlink(tmp);
    assert_same_model(&a, &b);
    assert_same_fk(&a, &b, seed);
    for (int l = 0; l < a.n_links; ++l) {
        /* the collision elements, as read */
        const PlnLinkGeometry *ga = &a.links[l].geometry, *gb = &b.links[l].geometry;
        if (ga->n_parts > 0) {
            ck_assert_int_eq(ga->n_parts, gb->n_parts);
            for (int k = 0; k < ga->n_parts; ++k) {
                const PlnCollisionPart *x = &a.parts[ga->part_first + k], *y = &b.parts[gb->part_first + k];
                ck_assert_int_eq(x->type, y->type);
                for (int i = 0; i < 3; ++i) {
                    ck_assert_double_eq_tol(x->pos[i], y->pos[i], FK_TOL);
                    ck_assert_double_eq(x->size[i], y->size[i]);
                    ck_assert_double_eq(x->scale[i], y->scale[i]);
                }
                for (int i = 0; i < 9; ++i) ck_assert_double_eq_tol(x->rot[i], y->rot[i], FK_TOL);
                ck_assert_double_eq(x->radius, y->radius);
                ck_assert_double_eq(x->length, y->length);
                ck_assert_int_eq(x->has_scale, y->has_scale);
                if (x->type == PLN_PART_MESH) {
                    /* written as an absolute path */
                    char px[PATH_MAX], py[PATH_MAX];
                    ck_assert_ptr_nonnull(realpath(x->path, px));
                    ck_assert_ptr_nonnull(realpath(y->path, py));
                    ck_assert_str_eq(px, py);
                }
            }
        }
        ck_assert_int_eq(a.links[l].geometry.has_file_pose, b.links[l].geometry.has_file_pose);
        if (a.links[l].geometry.has_file_pose) {
            for (int k = 0; k < 9; ++k) ck_assert_double_eq_tol(a.links[l].geometry.file_rot[k], b.links[l].geometry.file_rot[k], FK_TOL);
        }
    }
    pln_robot_destroy(&a);
    pln_robot_destroy(&b);
}

START_TEST(test_round_trip)
{
    round_trip("robots/hrp2.yaml", 1);
    round_trip("robots/arm4/arm4.urdf", 2);
    round_trip(D "multi.urdf", 6);
    round_trip("tests/data/urdf/joints.urdf", 3);
    round_trip("tests/data/arm3p.yaml", 4);
    round_trip("tests/data/urdf/arm3p.urdf", 5);
}
END_TEST

/* rpy back from matrices, also at and near pitch = +-pi/2 */
START_TEST(test_matrix_to_rpy)
{
    Rng rng = {9};
    for (int t = 0; t < 20000; ++t) {
        double rpy[3], R[9], back[3], R2[9];
        rpy[0] = rng_uniform(&rng, -PI_, PI_);
        rpy[2] = rng_uniform(&rng, -PI_, PI_);
        rpy[1] = t % 4 == 0 ? (t % 8 == 0 ? 1 : -1) * (PI_ / 2 - pow(10.0, -rng_uniform(&rng, 0, 16)))
                            : rng_uniform(&rng, -PI_ / 2, PI_ / 2);
        pln_kin_rpy_to_matrix(rpy, R);
        pln_urdf_matrix_to_rpy(R, back);
        pln_kin_rpy_to_matrix(back, R2);
        for (int k = 0; k < 9; ++k) ck_assert_msg(fabs(R[k] - R2[k]) <= 1e-14, "case %d entry %d: %.3g", t, k, R[k] - R2[k]);
    }
}
END_TEST

static int run(const char *a0, const char *a1, const char *a2, const char *a3, const char *a4,
               const char *a5, char *out, char *errs, size_t size)
{
    char *argv[7] = {(char *)"hrpplan", (char *)a0, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5};
    int argc = 1;
    while (argc < 7 && argv[argc] != NULL) ++argc;
    return cli_run(argc, argv, out, errs, size);
}

START_TEST(test_cli)
{
    static char out[1 << 16], errs[1 << 16];
    char dir[256], path[512];
    ckutil_mkdtemp(dir, sizeof dir);
    /* hrpplan robot FILE.urdf prints the tree */
    ck_assert_int_eq(run("robot", "robots/arm4/arm4.urdf", NULL, NULL, NULL, NULL, out, errs, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "link tree"));
    ck_assert_ptr_nonnull(strstr(out, "          hand [wrist]"));
    /* --urdf -o FILE, then read back */
    snprintf(path, sizeof path, "%s/hrp2.urdf", dir);
    ck_assert_int_eq(run("robot", "robots/hrp2.yaml", "--urdf", "-o", path, NULL, out, errs, sizeof out), 0);
    ck_assert_int_eq(run("robot", path, NULL, NULL, NULL, NULL, out, errs, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "30 joints, 31 links"));
    unlink(path);
    /* --package-path */
    ck_assert_int_eq(run("robot", D "mesh_package.urdf", NULL, NULL, NULL, NULL, out, errs, sizeof out), 2);
    ck_assert_int_eq(run("robot", D "mesh_package.urdf", "--package-path", "robots", NULL, NULL, out, errs, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "forearm.stl"));
    /* --urdf belongs to robot only */
    ck_assert_int_eq(run("check", "scenarios/arm4_reach.yaml", "x.json", "--urdf", NULL, NULL, out, errs, sizeof out), 2);
    ckutil_rm_flat(dir);
    rmdir(dir);
}
END_TEST

/* the whole planner on a URDF robot: scenarios/arm4_reach.yaml certifies, every pair of
 * capsules fitted to the URDF's shapes measured */
START_TEST(test_plan_arm4)
{
    static char out[1 << 16], errs[1 << 16], report[1 << 16];
    char dir[256], path[512];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out", dir);
    ck_assert_int_eq(run("plan", "scenarios/arm4_reach.yaml", "-q", "-o", path, "--max-time=86400", out, errs, sizeof out), 0);
    snprintf(path, sizeof path, "%s/out/report.json", dir);
    ck_assert_int_gt(ckutil_read_file(path, report, sizeof report), 0);
    ck_assert_ptr_nonnull(strstr(report, "\"status\": \"certified\""));
    ck_assert_ptr_nonnull(strstr(report, "upper_arm"));
    ck_assert_ptr_nonnull(strstr(report, "crate"));
    snprintf(path, sizeof path, "%s/out", dir);
    ckutil_rm_flat(path);
    rmdir(path);
    rmdir(dir);
}
END_TEST

/* scenarios/arm4_reach.yaml in `geometry: mesh`: every link of arm4 has collision elements
 * (a cylinder, a box, two STL meshes, a sphere and a cylinder), so with the default pairs
 * none is left out as no_geometry, and the plan certifies */
START_TEST(test_plan_arm4_mesh)
{
    static char text[1 << 16], out[1 << 16], errs[1 << 16], report[1 << 18];
    char dir[256], path[512], scen[512], cwd[1024];
    const char *key = "collision: {method: hybrid, eps: 0.002}\n", *robot = "robot: ../robots/arm4/arm4.urdf\n";
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_int_gt(ckutil_read_file("scenarios/arm4_reach.yaml", text, sizeof text), 0);
    char *at = strstr(text, key), *rb = strstr(text, robot);
    ck_assert(at != NULL && rb != NULL && rb < at);
    snprintf(scen, sizeof scen, "%s/arm4_mesh.yaml", dir);
    FILE *f = fopen(scen, "w");
    ck_assert_ptr_nonnull(f);
    fwrite(text, 1, (size_t)(rb - text), f);
    fprintf(f, "robot: %s/robots/arm4/arm4.urdf\n", cwd);
    fwrite(rb + strlen(robot), 1, (size_t)(at - rb - (long)strlen(robot)), f);
    fputs("collision: {method: hybrid, eps: 0.002, geometry: mesh}\n", f);
    fputs(at + strlen(key), f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(path, sizeof path, "%s/out", dir);
    ck_assert_int_eq(run("plan", scen, "-q", "-o", path, "--max-time=86400", out, errs, sizeof out), 0);
    snprintf(path, sizeof path, "%s/out/report.json", dir);
    ck_assert_int_gt(ckutil_read_file(path, report, sizeof report), 0);
    ck_assert_ptr_nonnull(strstr(report, "\"status\": \"certified\""));
    ck_assert_msg(strstr(report, "no_geometry") == NULL, "a pair left out as no_geometry");
    /* the hand (a sphere) and the base (a cylinder), once left out, are measured */
    ck_assert_ptr_nonnull(strstr(report, "{\"a\": \"hand\", \"b\": \"crate\", \"mcd_lower\""));
    ck_assert_ptr_nonnull(strstr(report, "{\"a\": \"base\", \"b\": \"hand\", \"mcd_lower\""));
    ck_assert(strstr(errs, "several collision elements") == NULL);
    {
        /* the viewer draws every link's mesh, the primitives' ones too */
        static char page[1 << 23];
        snprintf(path, sizeof path, "%s/out/view.html", dir);
        ck_assert_int_gt(ckutil_read_file(path, page, sizeof page), 0);
        ck_assert_ptr_nonnull(strstr(page, "\"link\": \"hand\""));
        ck_assert_ptr_nonnull(strstr(page, "\"link\": \"base\""));
    }
    snprintf(path, sizeof path, "%s/out", dir);
    ckutil_rm_flat(path);
    rmdir(path);
    unlink(scen);
    rmdir(dir);
}
END_TEST

static void copy_file(const char *from, const char *to, const char *append)
{
    static char buf[1 << 20];
    FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
    size_t n;
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(g);
    n = fread(buf, 1, sizeof buf, f);
    ck_assert(fwrite(buf, 1, n, g) == n);
    if (append != NULL) fputs(append, g);
    fclose(f);
    ck_assert_int_eq(fclose(g), 0);
}

/* the outputs and the robot moved elsewhere together: export finds the robot relative to
 * the trajectory; a changed robot is refused, also when named by --robot; the original
 * named by --robot is accepted */
/* a YAML robot with meshes and no hand-written capsules: each link's capsule is fitted
 * at load time (`capsule: fit`, or a mesh without a capsule), encloses its mesh, and a
 * plan on capsules measures the pair */
START_TEST(test_yaml_capsule_fit)
{
    static char out[1 << 16], errs[1 << 16];
    char err[1024], dir[256], path[512];
    PlnRobot r;
    ck_assert_int_eq(pln_robot_load("tests/data/meshfit/arm2_meshes.yaml", &r, err, sizeof err), PLN_OK);
    for (int l = 0; l < r.n_links; ++l) {
        const PlnLinkGeometry *g = &r.links[l].geometry;
        DstMesh m;
        ck_assert(g->has_capsule && g->capsule_fitted);
        ck_assert_int_eq(pln_mesh_read(g->mesh_path, &m, err, sizeof err), PLN_OK);
        for (int v = 0; v < m.n_vertices; ++v) assert_inside(g, m.vertices[v], r.links[l].name);
        dst_mesh_destroy(&m);
    }
    pln_robot_destroy(&r);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out", dir);
    ck_assert_int_eq(run("plan", "tests/data/meshfit/fold.yaml", "-o", path, "--max-time=86400", NULL, out, errs, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "BASE - FORE"));
    ck_assert_ptr_nonnull(strstr(out, "status: certified"));
    ckutil_rm_flat(path);
    rmdir(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_export_portable)
{
    static char out[1 << 16], errs[1 << 16], text[1 << 20];
    char dir[256], path[512], traj[512], csv[512], mv[512];
    const char *const files[3] = {"arm4.urdf", "meshes/upper_arm.stl", "meshes/forearm.stl"};
    FILE *f;
    char *a, *b;
    long n;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out", dir);
    ck_assert_int_eq(run("plan", "scenarios/arm4_reach.yaml", "-q", "-o", path, "--max-time=86400", out, errs, sizeof out), 0);
    /* the robot copied to DIR/robots/arm4, the trajectory moved to DIR/x/y with its
     * robot_file pointing nowhere */
    snprintf(mv, sizeof mv, "%s/robots", dir); ck_assert_int_eq(mkdir(mv, 0755), 0);
    snprintf(mv, sizeof mv, "%s/robots/arm4", dir); ck_assert_int_eq(mkdir(mv, 0755), 0);
    snprintf(mv, sizeof mv, "%s/robots/arm4/meshes", dir); ck_assert_int_eq(mkdir(mv, 0755), 0);
    for (int k = 0; k < 3; ++k) {
        char from[256], to[512];
        snprintf(from, sizeof from, "robots/arm4/%s", files[k]);
        snprintf(to, sizeof to, "%s/robots/arm4/%s", dir, files[k]);
        copy_file(from, to, NULL);
    }
    snprintf(mv, sizeof mv, "%s/x", dir); ck_assert_int_eq(mkdir(mv, 0755), 0);
    snprintf(mv, sizeof mv, "%s/x/y", dir); ck_assert_int_eq(mkdir(mv, 0755), 0);
    snprintf(path, sizeof path, "%s/out/trajectory.json", dir);
    n = ckutil_read_file(path, text, sizeof text);
    ck_assert_int_gt(n, 0);
    snprintf(traj, sizeof traj, "%s/x/y/trajectory.json", dir);
    f = fopen(traj, "w");
    ck_assert_ptr_nonnull(f);
    a = strstr(text, "\"robot_file\": ");
    b = strstr(text, "\"robot_sha256\"");
    ck_assert(a != NULL && b != NULL && a < b);
    fwrite(text, 1, (size_t)(a - text), f);
    fputs("\"robot_file\": \"/nonexistent/arm4.urdf\",\n  \"robot_file_relative\": \"../../robots/arm4/arm4.urdf\",\n  ", f);
    fputs(b, f);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(csv, sizeof csv, "%s/x/a.csv", dir);
    ck_assert_int_eq(run("export", traj, "--format", "csv", "-o", csv, out, errs, sizeof out), 0);
    /* the copy changed: refused, naming both places tried */
    {
        char urdf[512];
        snprintf(urdf, sizeof urdf, "%s/robots/arm4/arm4.urdf", dir);
        copy_file("robots/arm4/arm4.urdf", urdf, "<!-- edited -->\n");
        snprintf(csv, sizeof csv, "%s/x/b.csv", dir);
        ck_assert_int_eq(run("export", traj, "--format", "csv", "-o", csv, out, errs, sizeof out), 2);
        ck_assert_ptr_nonnull(strstr(errs, "no robot matches the one the plan was made for"));
        ck_assert_ptr_nonnull(strstr(errs, "/nonexistent/arm4.urdf (not found)"));
        ck_assert_ptr_nonnull(strstr(errs, "a different robot"));
        ck_assert_int_eq(access(csv, F_OK), -1);
        {
            char *argv[] = {"hrpplan", "export", traj, "--format", "csv", "-o", csv, "--robot", urdf};
            ck_assert_int_eq(cli_run(9, argv, out, errs, sizeof out), 2);
        }
        {
            char *argv[] = {"hrpplan", "export", traj, "--format", "csv", "-o", csv, "--robot", "robots/arm4/arm4.urdf"};
            ck_assert_int_eq(cli_run(9, argv, out, errs, sizeof out), 0);
        }
    }
    {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

Suite *pln_urdf_suite(void)
{
    Suite *s = suite_create("pln_urdf");
    TCase *tc = tcase_create("urdf");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_primitives_enclosed);
    tcase_add_test(tc, test_meshes);
    tcase_add_test(tc, test_scaled_mesh_geometry);
    tcase_add_test(tc, test_multi_element_mesh);
    tcase_add_test(tc, test_zero_size_refused);
    tcase_add_test(tc, test_fingerprint_parts);
    tcase_add_test(tc, test_package_paths);
    tcase_add_test(tc, test_joints_and_inertial);
    tcase_add_test(tc, test_warnings);
    tcase_add_test(tc, test_same_as_yaml);
    tcase_add_test(tc, test_same_as_yaml_prismatic);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_matrix_to_rpy);
    tcase_add_test(tc, test_cli);
    tcase_add_test(tc, test_plan_arm4);
    tcase_add_test(tc, test_plan_arm4_mesh);
    tcase_add_test(tc, test_export_portable);
    tcase_add_test(tc, test_yaml_capsule_fit);
    suite_add_tcase(s, tc);
    return s;
}
