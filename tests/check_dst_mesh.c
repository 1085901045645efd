/* check_dst_mesh.c — tests of distance/dst_mesh.c: OBJ and STL reading, the bad-mesh
 * corpus in tests/data/meshes/ (hand-written) plus generated broken files, topology
 * validation, robustness against mutated input, and the generated robot meshes in
 * robots/meshes/ (closed, outward, triangle counts of thesis Table 6.2). */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "dst_mesh.h"

#define DATA "tests/data/meshes/"

/* geometric checks on exactly representable test shapes */
#define VOLUME_TOL 1e-12         /* m^3 */
/* a closed triangle mesh has an even triangle count, so the thesis' odd counts (893,
 * 1849, 783) are out of reach: the generated meshes may differ by a few triangles */
#define TRIANGLE_COUNT_TOL 4

static DstStatus load(const char *path, DstMesh *m, char *err)
{
    return dst_mesh_create_from_file(path, m, err, 512);
}

/* ---- reading good files --------------------------------------------------------------- */

START_TEST(test_obj_quads_negative_indices_crlf)
{
    DstMesh m;
    DstMeshReport r;
    char err[512] = "";
    ck_assert_msg(load(DATA "cube_quads.obj", &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(m.n_vertices, 8);
    ck_assert_int_eq(m.n_triangles, 12);
    /* the negative-index quad -8 -4 -1 -5 is the face 1 5 8 4, fanned from vertex 1 */
    ck_assert_int_eq(m.triangles[10][0], 0);
    ck_assert_int_eq(m.triangles[10][1], 4);
    ck_assert_int_eq(m.triangles[10][2], 7);
    ck_assert_int_eq(m.triangles[11][2], 3);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.closed, 1);
    ck_assert_int_eq(r.oriented, 1);
    ck_assert_int_eq(r.n_degenerate, 0);
    ck_assert(fabs(r.volume - 1.0) <= VOLUME_TOL);
    ck_assert(fabs(r.area - 6.0) <= VOLUME_TOL);
    ck_assert(r.bbox_min[0] == 0.0 && r.bbox_max[2] == 1.0);
    dst_mesh_destroy(&m);
    dst_mesh_destroy(&m);  /* twice is safe */
}
END_TEST

START_TEST(test_stl_ascii_welded)
{
    DstMesh m;
    DstMeshReport r;
    char err[512] = "";
    ck_assert_msg(load(DATA "tetra_ascii.stl", &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(m.n_triangles, 4);
    ck_assert_int_eq(m.n_vertices, 4);  /* 12 facet corners welded to 4 points */
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.oriented, 1);
    ck_assert(fabs(r.volume - 1.0 / 6.0) <= VOLUME_TOL);
    dst_mesh_destroy(&m);
}
END_TEST

/* writes a binary STL of the unit tetrahedron (4 facets), optionally damaged. */
static void put_f32(unsigned char *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    for (int k = 0; k < 4; ++k) b[k] = (unsigned char)(u >> (8 * k));
}

static size_t tetra_binary(unsigned char *buf)
{
    static const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    static const int f[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
    memset(buf, 0, 84 + 4 * 50);
    memcpy(buf, "solid but actually binary", 25);  /* a header that starts like ASCII */
    buf[80] = 4;
    for (int t = 0; t < 4; ++t) {
        unsigned char *p = buf + 84 + 50 * t;
        for (int k = 0; k < 3; ++k) {
            for (int c = 0; c < 3; ++c) put_f32(p + 12 + 12 * k + 4 * c, v[f[t][k]][c]);
        }
    }
    return 84 + 4 * 50;
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(b, 1, n, f), n);
    fclose(f);
}

START_TEST(test_stl_binary_and_damaged)
{
    char dir[256], path[512], err[512] = "";
    unsigned char buf[84 + 4 * 50];
    size_t n = tetra_binary(buf);
    DstMesh m;
    DstMeshReport r;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/tet.STL", dir);  /* extension is case-insensitive */
    write_bytes(path, buf, n);
    ck_assert_msg(load(path, &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(m.n_vertices, 4);
    ck_assert_int_eq(m.n_triangles, 4);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.oriented, 1);
    ck_assert(fabs(r.volume - 1.0 / 6.0) <= VOLUME_TOL);
    dst_mesh_destroy(&m);

    /* truncated: the header promises more than the file holds */
    write_bytes(path, buf, n - 7);
    ck_assert_int_eq(load(path, &m, err), DST_INVALID_INPUT);
    ck_assert_msg(strstr(err, "truncated") != NULL, "%s", err);
    ck_assert_int_eq(m.n_triangles, 0);
    ck_assert_ptr_null(m.vertices);

    /* a NaN coordinate */
    put_f32(buf + 84 + 50 + 12 + 4, NAN);
    write_bytes(path, buf, n);
    ck_assert_int_eq(load(path, &m, err), DST_INVALID_INPUT);
    ck_assert_msg(strstr(err, "facet 2 vertex 1") && strstr(err, "not a finite"), "%s", err);
    ckutil_rm_flat(dir);
}
END_TEST

/* ---- the bad corpus --------------------------------------------------------------------- */

typedef struct BadFile {
    const char *file;
    const char *want;   /* substring of the message, including file:line where there is one */
} BadFile;

static const BadFile BAD[] = {
    {"empty.obj", "empty.obj: empty file"},
    {"nan_vertex.obj", "nan_vertex.obj:2: coordinate is not a finite number"},
    {"inf_vertex.obj", "inf_vertex.obj:4: coordinate is not a finite number"},
    {"index_out_of_range.obj", "index_out_of_range.obj:6: face index 7 out of range"},
    {"zero_index.obj", "zero_index.obj:4: face index 0 out of range"},
    {"negative_out_of_range.obj", "negative_out_of_range.obj:4: face index -4 out of range"},
    {"truncated_vertex.obj", "truncated_vertex.obj:5: vertex has 2 coordinates"},
    {"truncated_face.obj", "truncated_face.obj:5: face has 2 vertices"},
    {"unknown_statement.obj", "unknown_statement.obj:4: unknown OBJ statement 'bogus'"},
    {"absurd_coordinate.obj", "absurd_coordinate.obj:2: coordinate 1e+09 is absurd"},
    {"no_faces.obj", "no_faces.obj: no faces"},
    {"not_a_number.obj", "not_a_number.obj:2: vertex coordinate 2 is not a number"},
    {"ascii_truncated.stl", "ascii_truncated.stl:11: unexpected end of file"},
    {"ascii_bad_number.stl", "ascii_bad_number.stl:5: 'one' is not a number"},
    {"short.stl", "short.stl: truncated"},
    {"does_not_exist.obj", "does_not_exist.obj: cannot open"},
    {"cube_quads.ply", "unknown mesh format"},
};

START_TEST(test_bad_corpus)
{
    const BadFile *b = &BAD[_i];
    char path[256], err[512] = "";
    DstMesh m;
    snprintf(path, sizeof path, DATA "%s", b->file);
    ck_assert_int_eq(load(path, &m, err), DST_INVALID_INPUT);
    ck_assert_msg(strstr(err, b->want) != NULL, "%s: got '%s', want '%s'", b->file, err, b->want);
    ck_assert_int_eq(m.n_vertices, 0);
    ck_assert_ptr_null(m.triangles);
    dst_mesh_destroy(&m);
}
END_TEST

START_TEST(test_create_from_arrays)
{
    const double v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const int t[] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    const int bad_t[] = {0, 2, 1, 0, 1, 4};
    double nan_v[12];
    DstMesh m;
    DstMeshReport r;
    char err[512] = "";
    ck_assert_int_eq(dst_mesh_create(v, 4, t, 4, &m, err, sizeof err), DST_OK);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.oriented, 1);
    dst_mesh_destroy(&m);
    ck_assert_int_eq(dst_mesh_create(v, 4, bad_t, 2, &m, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_msg(strstr(err, "triangles[1][2]: index 4 out of range") != NULL, "%s", err);
    memcpy(nan_v, v, sizeof v);
    nan_v[7] = NAN;
    ck_assert_int_eq(dst_mesh_create(nan_v, 4, t, 4, &m, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_msg(strstr(err, "vertices[2][1]") != NULL, "%s", err);
    ck_assert_int_eq(dst_mesh_create(v, 4, t, 0, &m, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_create(NULL, 4, t, 4, &m, NULL, 0), DST_INVALID_INPUT);
}
END_TEST

/* ---- validation ----------------------------------------------------------------------- */

START_TEST(test_validate_flaws)
{
    DstMesh m;
    DstMeshReport r;
    char err[512] = "";

    ck_assert_msg(load(DATA "open_box.obj", &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.n_open_edges, 4);
    ck_assert_int_eq(r.n_nonmanifold_edges, 0);
    ck_assert_int_eq(r.n_inconsistent_edges, 0);
    ck_assert_int_eq(r.closed, 0);
    ck_assert_int_eq(r.oriented, 0);
    dst_mesh_destroy(&m);

    ck_assert_msg(load(DATA "flipped_face.obj", &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.closed, 1);
    ck_assert_int_eq(r.n_inconsistent_edges, 3);
    ck_assert_int_eq(r.oriented, 0);
    dst_mesh_destroy(&m);

    ck_assert_msg(load(DATA "nonmanifold.obj", &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.n_nonmanifold_edges, 1);
    ck_assert_int_eq(r.n_open_edges, 6);
    ck_assert_int_eq(r.closed, 0);
    dst_mesh_destroy(&m);

    ck_assert_msg(load(DATA "degenerate.obj", &m, err) == DST_OK, "%s", err);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.n_degenerate, 2);       /* 1 1 2 and the collinear 1 2 5 */
    ck_assert_int_eq(r.n_nonmanifold_edges, 1); /* edge 1-2 now has three triangles */
    ck_assert_int_eq(r.n_open_edges, 2);       /* 2-5 and 5-1 */
    ck_assert_int_eq(r.n_unused_vertices, 0);
    dst_mesh_destroy(&m);
}
END_TEST

START_TEST(test_validate_inward_and_unused)
{
    /* the tetrahedron turned inside out: consistent, closed, negative volume; plus an
     * unused vertex */
    const double v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 5, 5};
    const int t[] = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2};
    DstMesh m;
    DstMeshReport r;
    ck_assert_int_eq(dst_mesh_create(v, 5, t, 4, &m, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
    ck_assert_int_eq(r.oriented, 1);
    ck_assert(fabs(r.volume + 1.0 / 6.0) <= VOLUME_TOL);
    ck_assert_int_eq(r.n_unused_vertices, 1);
    /* an index broken after creation is refused, not followed */
    m.triangles[2][1] = 9;
    ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_INVALID_INPUT);
    dst_mesh_destroy(&m);
}
END_TEST

/* ---- robustness: damaged files never crash, always give a message --------------------- */

typedef struct Rng {
    uint64_t s;
} Rng;

static uint32_t rng_next(Rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}

START_TEST(test_mutated_files_fail_cleanly)
{
    static const char alphabet[] = "vf0123456789 -./\n#eEnaiNx";
    char dir[256], path[512], err[512];
    char src[2048];
    long n = ckutil_read_file(DATA "cube_quads.obj", src, sizeof src);
    unsigned char bin[84 + 4 * 50];
    size_t nbin = tetra_binary(bin);
    Rng rng = {12345};
    int ok = 0, bad = 0;
    ck_assert_int_gt(n, 0);
    ckutil_mkdtemp(dir, sizeof dir);
    for (int trial = 0; trial < 600; ++trial) {
        char buf[2048];
        DstMesh m;
        DstStatus st;
        int is_stl = trial % 3 == 2;
        size_t len = is_stl ? nbin : (size_t)n;
        memcpy(buf, is_stl ? (const char *)bin : src, len);
        /* a few byte edits, sometimes a truncation */
        int edits = 1 + (int)(rng_next(&rng) % 4);
        for (int e = 0; e < edits; ++e) {
            size_t at = rng_next(&rng) % len;
            buf[at] = is_stl ? (char)(rng_next(&rng) & 0xff)
                             : alphabet[rng_next(&rng) % (sizeof alphabet - 1)];
        }
        if (rng_next(&rng) % 4 == 0) len = rng_next(&rng) % len;
        snprintf(path, sizeof path, "%s/m%s", dir, is_stl ? ".stl" : ".obj");
        write_bytes(path, buf, len);
        err[0] = '\0';
        st = load(path, &m, err);
        if (st == DST_OK) {
            DstMeshReport r;
            ck_assert_int_gt(m.n_triangles, 0);
            for (int t = 0; t < m.n_triangles; ++t) {
                for (int k = 0; k < 3; ++k) {
                    ck_assert(m.triangles[t][k] >= 0 && m.triangles[t][k] < m.n_vertices);
                }
            }
            ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
            ++ok;
        } else {
            ck_assert_int_eq(st, DST_INVALID_INPUT);
            ck_assert_msg(strstr(err, path) != NULL, "message without the file: %s", err);
            ++bad;
        }
        dst_mesh_destroy(&m);
    }
    /* both outcomes occur, so the test exercises the error paths and the success path */
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(bad, 0);
    ckutil_rm_flat(dir);
}
END_TEST

/* ---- the generated robot meshes ------------------------------------------------------ */

START_TEST(test_generated_meshes_closed_outward)
{
    DIR *d = opendir("robots/meshes");
    struct dirent *e;
    int files = 0;
    ck_assert_msg(d != NULL, "robots/meshes missing (run from the top directory)");
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        char path[512], err[512] = "";
        DstMesh m;
        DstMeshReport r;
        if (len < 4 || strcmp(e->d_name + len - 4, ".obj") != 0) continue;
        snprintf(path, sizeof path, "robots/meshes/%s", e->d_name);
        ck_assert_msg(load(path, &m, err) == DST_OK, "%s", err);
        ck_assert_int_eq(dst_mesh_validate(&m, &r), DST_OK);
        ck_assert_msg(r.closed && r.oriented, "%s: open %d, non-manifold %d, inconsistent %d",
                      path, r.n_open_edges, r.n_nonmanifold_edges, r.n_inconsistent_edges);
        ck_assert_msg(r.volume > 0.0, "%s: inward (volume %g)", path, r.volume);
        ck_assert_msg(r.n_degenerate == 0 && r.n_unused_vertices == 0, "%s", path);
        dst_mesh_destroy(&m);
        ++files;
    }
    closedir(d);
    ck_assert_int_eq(files, 31);
}
END_TEST

START_TEST(test_generated_meshes_table_6_2_counts)
{
    static const struct {
        const char *file;
        int thesis;
    } want[] = {
        {"head_link1.obj", 893}, {"chest_link1.obj", 332}, {"waist.obj", 1849},
        {"rarm_link4.obj", 783}, {"rarm_link3.obj", 294},  {"rarm_link6.obj", 3482},
        {"rleg_link2.obj", 894}, {"rleg_link3.obj", 448},  {"larm_link6.obj", 3482},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        char path[256], err[512] = "";
        DstMesh m;
        snprintf(path, sizeof path, "robots/meshes/%s", want[i].file);
        ck_assert_msg(load(path, &m, err) == DST_OK, "%s", err);
        ck_assert_msg(abs(m.n_triangles - want[i].thesis) <= TRIANGLE_COUNT_TOL,
                      "%s: %d triangles, thesis %d", path, m.n_triangles, want[i].thesis);
        dst_mesh_destroy(&m);
    }
}
END_TEST

Suite *dst_mesh_suite(void)
{
    Suite *s = suite_create("dst_mesh");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, test_obj_quads_negative_indices_crlf);
    tcase_add_test(tc, test_stl_ascii_welded);
    tcase_add_test(tc, test_stl_binary_and_damaged);
    tcase_add_test(tc, test_create_from_arrays);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad_corpus");
    tcase_add_loop_test(tc, test_bad_corpus, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_test(tc, test_mutated_files_fail_cleanly);
    suite_add_tcase(s, tc);
    tc = tcase_create("validate");
    tcase_add_test(tc, test_validate_flaws);
    tcase_add_test(tc, test_validate_inward_and_unused);
    suite_add_tcase(s, tc);
    tc = tcase_create("generated");
    tcase_add_test(tc, test_generated_meshes_closed_outward);
    tcase_add_test(tc, test_generated_meshes_table_6_2_counts);
    suite_add_tcase(s, tc);
    return s;
}
