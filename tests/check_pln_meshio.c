/* check_pln_meshio.c — tests of planner/model/pln_meshio.c (docs/FILE_FORMATS.md "Mesh
 * files"): small meshes written by hand in every format (tests/data/meshes/: a box 0.1 x
 * 0.2 x 0.3 m as Collada with Z_UP in millimetres and a node translation, as Collada with
 * Y_UP and with X_UP, as ASCII and binary PLY, as OFF), each compared corner by corner, by bounding box
 * and by volume with the known geometry in hrpplan's z-up metres; the extension check;
 * the errors of broken files (each naming the file) and the warnings of flawed ones; that
 * assimp prints nothing; and the consumers: a URDF whose collision mesh is a DAE, the
 * "mesh warning" lines of `hrpplan robot`, a scenario mesh obstacle in Collada. Run from
 * the top directory. */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"
#include "dst_mesh.h"
#include "model/pln_kin.h"
#include "model/pln_meshio.h"
#include "model/pln_robot.h"
#include "model/pln_urdf.h"
#include "problem/pln_geom.h"
#include "problem/pln_problem.h"
#include "problem/pln_scenario.h"

#define M "tests/data/meshes/"
/* assimp keeps coordinates as float (ai_real): 3.3 m is off by 1.2e-7 m; a wrong unit or
 * axis is off by 1e-2 m or more */
#define MESHIO_COORD_TOL_M 1e-6
#define MESHIO_VOLUME_TOL_M3 1e-8

typedef struct Expected {
    const char *path;
    double lo[3], hi[3]; /* the box in hrpplan's frame, metres */
} Expected;

/* the box 0.1 x 0.2 x 0.3 m of every file, where each format puts it */
static const Expected BOXES[] = {
    /* Z_UP, mm, node <translate>10 20 30</translate>: the file's coordinates times 0.001 */
    {M "box_zup_mm.dae", {0.01, 0.02, 0.03}, {0.11, 0.22, 0.33}},
    /* Y_UP, m: the file's +y turned to +z, (x, y, z) -> (x, -z, y) */
    {M "box_yup.dae", {0.0, -0.3, 0.0}, {0.1, 0.0, 0.2}},
    /* X_UP, m: the file's +x turned to +z and its -y (Collada's "right") to +x,
     * (x, y, z) -> (-y, -z, x) */
    {M "box_xup.dae", {-0.2, -0.3, 0.0}, {0.0, 0.0, 0.1}},
    /* no unit, no axis: the file's coordinates, metres */
    {M "box.ply", {0.0, 0.0, 0.0}, {0.1, 0.2, 0.3}},
    {M "box_binary.ply", {1.0, 2.0, 3.0}, {1.1, 2.2, 3.3}},
    {M "box.off", {0.0, 0.0, 0.0}, {0.1, 0.2, 0.3}},
};

START_TEST(test_box_in_every_format)
{
    const Expected *e = &BOXES[_i];
    DstMesh m;
    PlnMeshInfo info;
    char err[1024], warn[256];
    ck_assert_msg(pln_mesh_read_info(e->path, &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(info.via_assimp, 1);
    /* 8 corners (welded from assimp's per-face vertices), 12 triangles, closed, outward */
    ck_assert_int_eq(m.n_vertices, 8);
    ck_assert_int_eq(m.n_triangles, 12);
    ck_assert_int_eq(info.report.closed, 1);
    ck_assert_int_eq(info.report.oriented, 1);
    ck_assert_int_eq(pln_mesh_info_warnings(&info, warn, sizeof warn), 0);
    ck_assert_str_eq(warn, "");
    ck_assert_double_eq_tol(info.report.volume, 0.006, MESHIO_VOLUME_TOL_M3);
    for (int c = 0; c < 3; ++c) {
        ck_assert_double_eq_tol(info.report.bbox_min[c], e->lo[c], MESHIO_COORD_TOL_M);
        ck_assert_double_eq_tol(info.report.bbox_max[c], e->hi[c], MESHIO_COORD_TOL_M);
    }
    /* every corner of the expected box is a vertex */
    for (int k = 0; k < 8; ++k) {
        double x[3] = {k & 1 ? e->hi[0] : e->lo[0], k & 2 ? e->hi[1] : e->lo[1], k & 4 ? e->hi[2] : e->lo[2]};
        int found = 0;
        for (int v = 0; v < m.n_vertices && !found; ++v) {
            found = fabs(m.vertices[v][0] - x[0]) <= MESHIO_COORD_TOL_M &&
                    fabs(m.vertices[v][1] - x[1]) <= MESHIO_COORD_TOL_M &&
                    fabs(m.vertices[v][2] - x[2]) <= MESHIO_COORD_TOL_M;
        }
        ck_assert_msg(found, "%s: corner [%g, %g, %g] missing", e->path, x[0], x[1], x[2]);
    }
    dst_mesh_destroy(&m);
}
END_TEST

/* the Y_UP file's corner (0.1, 0.2, 0.3) lands at (0.1, -0.3, 0.2): a rotation, not a
 * mirror (the volume stayed positive above) */
START_TEST(test_y_up_is_turned_to_z_up)
{
    DstMesh m;
    char err[1024];
    int found = 0;
    ck_assert_msg(pln_mesh_read(M "box_yup.dae", &m, err, sizeof err) == PLN_OK, "%s", err);
    for (int v = 0; v < m.n_vertices; ++v) {
        found += fabs(m.vertices[v][0] - 0.1) <= MESHIO_COORD_TOL_M && fabs(m.vertices[v][1] + 0.3) <= MESHIO_COORD_TOL_M &&
                 fabs(m.vertices[v][2] - 0.2) <= MESHIO_COORD_TOL_M;
    }
    ck_assert_int_eq(found, 1);
    dst_mesh_destroy(&m);
}
END_TEST

/* STL and OBJ keep libdistance's readers: exact coordinates */
START_TEST(test_obj_and_stl_read_exactly)
{
    DstMesh m, ref;
    PlnMeshInfo info;
    char err[1024];
    ck_assert_msg(pln_mesh_read_info(M "cube_quads.obj", &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(info.via_assimp, 0);
    ck_assert_str_eq(info.format, "obj");
    ck_assert_int_eq(dst_mesh_create_from_file(M "cube_quads.obj", &ref, err, sizeof err), DST_OK);
    ck_assert_int_eq(m.n_vertices, ref.n_vertices);
    ck_assert_int_eq(memcmp(m.vertices, ref.vertices, sizeof *m.vertices * (size_t)m.n_vertices), 0);
    dst_mesh_destroy(&ref);
    dst_mesh_destroy(&m);
    ck_assert_msg(pln_mesh_read_info(M "tetra_ascii.stl", &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_str_eq(info.format, "stl");
    ck_assert_int_eq(info.via_assimp, 0);
    dst_mesh_destroy(&m);
}
END_TEST

START_TEST(test_format_by_extension)
{
    ck_assert_int_eq(pln_mesh_format_supported("a.stl"), 1);
    ck_assert_int_eq(pln_mesh_format_supported("a.OBJ"), 1);
    ck_assert_int_eq(pln_mesh_format_supported("dir/a.Dae"), 1);
    ck_assert_int_eq(pln_mesh_format_supported("a.ply"), 1);
    ck_assert_int_eq(pln_mesh_format_supported("a.off"), 1);
    ck_assert_int_eq(pln_mesh_format_supported("a.3ds"), 0);
    ck_assert_int_eq(pln_mesh_format_supported("a.fbx"), 0);
    ck_assert_int_eq(pln_mesh_format_supported("a.dae.txt"), 0);
    ck_assert_int_eq(pln_mesh_format_supported("dir.dae/mesh"), 0);
    ck_assert_int_eq(pln_mesh_format_supported("mesh"), 0);
    ck_assert_int_eq(pln_mesh_format_supported("mesh."), 0);
    ck_assert_int_eq(pln_mesh_format_supported(NULL), 0);
}
END_TEST

typedef struct BadCase {
    const char *path;
    const char *fragment; /* the message holds "<path>: <fragment>" */
} BadCase;

static const BadCase BAD[] = {
    {"tests/bad/mesh/dae_truncated.dae", "cannot read as Collada: Unable to read file, malformed XML"},
    {"tests/bad/mesh/dae_not_xml.dae", "cannot read as Collada: Unable to read file, malformed XML"},
    {"tests/bad/mesh/dae_no_mesh.dae", "empty mesh: no geometry in the file"},
    {"tests/bad/mesh/ply_bad_index.ply", "cannot read as PLY: inconsistent content (a vertex index out of range"},
    {"tests/bad/mesh/off_wrong_count.off", "cannot read as OFF: inconsistent content"},
    {"tests/bad/mesh/unknown_format.3ds", "unknown mesh format '.3ds'"},
    {"tests/bad/mesh/no_such_file.ply", "cannot"},
    {"tests/bad/mesh/obj_collinear.obj", "degenerate mesh"},
};

START_TEST(test_broken_files_refused_naming_the_file)
{
    const BadCase *b = &BAD[_i];
    DstMesh m;
    PlnMeshInfo info;
    char err[1024], want[512];
    memset(&info, 0x5a, sizeof info);
    ck_assert_int_ne(pln_mesh_read_info(b->path, &m, &info, err, sizeof err), PLN_OK);
    ck_assert_int_eq(m.n_vertices, 0);
    ck_assert_int_eq(m.n_triangles, 0);
    ck_assert_ptr_null(m.vertices);
    snprintf(want, sizeof want, "%s: ", b->path);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s: message '%s'", b->path, err);
    ck_assert_msg(strstr(err, b->fragment) != NULL, "%s: message '%s' lacks '%s'", b->path, err, b->fragment);
    ck_assert_msg(strchr(err, '\n') == NULL, "%s: message on several lines", b->path);
    dst_mesh_destroy(&m);
}
END_TEST

/* writes text to dir/name and returns the path in buf */
static const char *write_file(const char *dir, const char *name, const char *text, char *buf, size_t size)
{
    FILE *f;
    snprintf(buf, size, "%s/%s", dir, name);
    f = fopen(buf, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return buf;
}

/* files that are usable but flawed: accepted, their flaws counted and worded */
START_TEST(test_flawed_meshes_warn)
{
    char dir[256], path[512], err[1024], warn[512];
    DstMesh m;
    PlnMeshInfo info;
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_msg(pln_mesh_read_info(M "open_box.obj", &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_mesh_info_warnings(&info, warn, sizeof warn), 1);
    ck_assert_str_eq(warn, "4 open edges (holes in the surface)");
    dst_mesh_destroy(&m);
    ck_assert_msg(pln_mesh_read_info(M "nonmanifold.obj", &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_mesh_info_warnings(&info, warn, sizeof warn), 2);
    ck_assert_msg(strstr(warn, "1 non-manifold edge (3 or more triangles)") != NULL, "%s", warn);
    dst_mesh_destroy(&m);
    ck_assert_msg(pln_mesh_read_info(M "degenerate.obj", &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    pln_mesh_info_warnings(&info, warn, sizeof warn);
    ck_assert_msg(strstr(warn, "2 degenerate triangles (zero area)") != NULL, "%s", warn);
    dst_mesh_destroy(&m);
    /* an OFF with a triangle and a line: the line skipped and counted */
    write_file(dir, "mixed.off", "OFF\n4 2 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n2 0 3\n", path, sizeof path);
    ck_assert_msg(pln_mesh_read_info(path, &m, &info, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(info.n_skipped_primitives, 1);
    ck_assert_int_eq(m.n_triangles, 1);
    ck_assert_int_eq(pln_mesh_info_warnings(&info, warn, sizeof warn), 2);
    ck_assert_str_eq(warn, "3 open edges (holes in the surface), 1 point or line skipped");
    dst_mesh_destroy(&m);
    /* a PLY of points only: nothing to build */
    write_file(dir, "points.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
               "property float z\nend_header\n0 0 0\n1 0 0\n0 1 0\n", path, sizeof path);
    ck_assert_int_eq(pln_mesh_read_info(path, &m, &info, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, "points.ply: cannot read as PLY") != NULL, "%s", err);
    /* an OFF with a NaN coordinate */
    write_file(dir, "nan.off", "OFF\n3 1 0\nnan 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", path, sizeof path);
    ck_assert_int_eq(pln_mesh_read_info(path, &m, &info, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, "nan.off: mesh 0 vertex 0: coordinate nan is not finite") != NULL, "%s", err);
    /* an empty .dae */
    write_file(dir, "empty.dae", "", path, sizeof path);
    ck_assert_int_eq(pln_mesh_read_info(path, &m, &info, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, "empty.dae: empty mesh: the file is empty") != NULL, "%s", err);
    ckutil_rm_flat(dir);
}
END_TEST

/* assimp writes nothing of its own to stdout or stderr, on good or broken files */
START_TEST(test_assimp_prints_nothing)
{
    char dir[256], log[512], buf[256], err[1024];
    int fd, saved_out, saved_err;
    long n;
    DstMesh m;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    fflush(stderr);
    saved_out = dup(1);
    saved_err = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; ++k) {
        if (pln_mesh_read(BAD[k].path, &m, err, sizeof err) == PLN_OK) dst_mesh_destroy(&m);
    }
    for (size_t k = 0; k < sizeof BOXES / sizeof BOXES[0]; ++k) {
        if (pln_mesh_read(BOXES[k].path, &m, err, sizeof err) == PLN_OK) dst_mesh_destroy(&m);
    }
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    close(fd);
    n = ckutil_read_file(log, buf, sizeof buf);
    ck_assert_msg(n == 0, "assimp printed: %s", buf);
    ckutil_rm_flat(dir);
}
END_TEST

/* a URDF whose collision mesh is Collada (Z_UP, mm) at origin z = 0.5 */
START_TEST(test_urdf_with_dae_mesh)
{
    PlnRobot r;
    char err[1024];
    static char out[65536], errs[65536];
    char *argv[] = {"hrpplan", "robot", "tests/data/urdf/mesh_dae.urdf", NULL};
    PlnUrdfOptions opt;
    memset(&opt, 0, sizeof opt);
    opt.warnings = NULL;
    ck_assert_msg(pln_urdf_load("tests/data/urdf/mesh_dae.urdf", &opt, &r, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(r.n_links, 2);
    ck_assert_int_eq(r.links[1].geometry.mesh_triangles, 12);
    ck_assert_ptr_nonnull(strstr(r.links[1].geometry.mesh_path, "box_zup_mm.dae"));
    /* the fitted capsule runs along z through the box's centre, 0.5 m up */
    ck_assert_double_eq_tol(0.5 * (r.links[1].geometry.capsule_p0[0] + r.links[1].geometry.capsule_p1[0]), 0.06, 1e-3);
    ck_assert_double_eq_tol(0.5 * (r.links[1].geometry.capsule_p0[2] + r.links[1].geometry.capsule_p1[2]), 0.68, 1e-3);
    pln_robot_destroy(&r);
    ck_assert_int_eq(cli_run(3, argv, out, errs, sizeof out), 0);
    {
        /* the link's row: the mesh, its 12 triangles, enclosed by its capsule */
        const char *row = strstr(out, "box_zup_mm.dae"), *eol;
        ck_assert_msg(row != NULL, "%s", out);
        eol = strchr(row, '\n');
        ck_assert_ptr_nonnull(eol);
        ck_assert_msg(strstr(row, " 12 ") != NULL && strstr(row, " 12 ") < eol, "%s", out);
        ck_assert_msg(strstr(row, "yes") != NULL && strstr(row, "yes") < eol, "%s", out);
    }
    ck_assert_msg(strstr(out, "mesh warning") == NULL, "%s", out);
    ck_assert_str_eq(errs, "");
}
END_TEST

/* `hrpplan robot` names each flawed mesh; the shipped HRP-2 has none */
START_TEST(test_robot_prints_mesh_warnings)
{
    static char out[1 << 17], errs[65536];
    char *argv[] = {"hrpplan", "robot", M "robot_formats.yaml", NULL};
    char *hrp2[] = {"hrpplan", "robot", "robots/hrp2.yaml", NULL};
    ck_assert_int_eq(cli_run(3, argv, out, errs, sizeof errs), 0);
    ck_assert_msg(strstr(out, "       mesh warning: " M "open_box.obj: 4 open edges (holes in the surface)\n") != NULL,
                  "%s", out);
    ck_assert_msg(strstr(out, "box_yup.dae") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "; 1 mesh(es) with warnings") != NULL, "%s", out);
    ck_assert_str_eq(errs, "");
    ck_assert_int_eq(cli_run(3, hrp2, out, errs, sizeof errs), 0);
    ck_assert_msg(strstr(out, "warning") == NULL, "%s", out);
    ck_assert_str_eq(errs, "");
}
END_TEST

/* a scenario mesh obstacle in Collada: loaded, scaled, with its bounding volume */
START_TEST(test_scenario_obstacle_dae)
{
    PlnScenario sc;
    PlnRobot robot;
    PlnProblem *p = NULL;
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    const PlnGeomShape *bust;
    ck_assert_msg(pln_scenario_parse("tests/data/geom_mesh_dae.yaml", &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_robot_load(sc.robot_path, &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&sc, &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_problem_create(&p, &robot, &sc, &opt, err, sizeof err) == PLN_OK, "%s", err);
    bust = &p->geom->obstacles[1];
    ck_assert(bust->loaded && bust->has_bvh);
    ck_assert_int_eq(bust->bvh.n_tris, 12);
    pln_problem_destroy(p);
    pln_robot_destroy(&robot);
    pln_scenario_destroy(&sc);
}
END_TEST

Suite *pln_meshio_suite(void)
{
    Suite *s = suite_create("pln_meshio");
    TCase *tc = tcase_create("formats");
    tcase_add_loop_test(tc, test_box_in_every_format, 0, (int)(sizeof BOXES / sizeof BOXES[0]));
    tcase_add_test(tc, test_y_up_is_turned_to_z_up);
    tcase_add_test(tc, test_obj_and_stl_read_exactly);
    tcase_add_test(tc, test_format_by_extension);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_broken_files_refused_naming_the_file, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_test(tc, test_flawed_meshes_warn);
    tcase_add_test(tc, test_assimp_prints_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("consumers");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_urdf_with_dae_mesh);
    tcase_add_test(tc, test_robot_prints_mesh_warnings);
    tcase_add_test(tc, test_scenario_obstacle_dae);
    suite_add_tcase(s, tc);
    return s;
}
