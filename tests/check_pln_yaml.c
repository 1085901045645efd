/* check_pln_yaml.c — tests of planner/base/pln_yaml.c: values, locations, refusals. */
#include <check.h>
#include <string.h>

#include "check_util.h"
#include "base/pln_yaml.h"

/* writes text to <tmpdir>/name and returns the path in path */
static void write_file(const char *dir, const char *name, const char *text, char *path,
                       size_t size)
{
    FILE *f;
    snprintf(path, size, "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char GOOD[] =
    "name: demo\n"
    "duration: 2.5\n"
    "spans: 12\n"
    "quiet: yes\n"
    "target: [0.1, -2, 3e-1]\n"
    "nested:\n"
    "  eps: 1e-3\n";

START_TEST(test_reads_values)
{
    static const char *const keys[] = {"name", "duration", "spans", "quiet", "target", "nested",
                                       NULL};
    char dir[256], path[512], err[512], name[16];
    double d = 0, v[3], eps = 0, absent = 42;
    int n = 0, b = 0;
    PlnYaml y;
    yaml_node_t *root;
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "good.yaml", GOOD, path, sizeof path);
    ck_assert_msg(pln_yaml_load(&y, path, err, sizeof err) == PLN_OK, "%s", err);
    root = pln_yaml_root(&y);
    ck_assert_int_eq(pln_yaml_check_mapping(&y, root, "", keys), PLN_OK);
    ck_assert_int_eq(pln_yaml_string(&y, root, "", "name", 1, name, sizeof name), PLN_OK);
    ck_assert_str_eq(name, "demo");
    ck_assert_int_eq(pln_yaml_double(&y, root, "", "duration", 1, &d), PLN_OK);
    ck_assert(d == 2.5);
    ck_assert_int_eq(pln_yaml_int(&y, root, "", "spans", 1, 1, 100, &n), PLN_OK);
    ck_assert_int_eq(n, 12);
    ck_assert_int_eq(pln_yaml_bool(&y, root, "", "quiet", 1, &b), PLN_OK);
    ck_assert_int_eq(b, 1);
    ck_assert_int_eq(pln_yaml_vector(&y, root, "", "target", 1, 3, v), PLN_OK);
    ck_assert(v[0] == 0.1 && v[1] == -2.0 && v[2] == 0.3);
    ck_assert_int_eq(pln_yaml_double(&y, pln_yaml_get(&y, root, "nested"), "nested", "eps", 1, &eps),
                     PLN_OK);
    ck_assert(eps == 1e-3);
    /* an optional absent key leaves the default alone */
    ck_assert_int_eq(pln_yaml_double(&y, root, "", "missing", 0, &absent), PLN_OK);
    ck_assert(absent == 42.0);
    pln_yaml_free(&y);
    pln_yaml_free(&y);
    ckutil_rm_flat(dir);
}
END_TEST

/* each bad document: text, the call that must fail, and the message fragment */
typedef enum Probe { P_LOAD, P_KEYS, P_DOUBLE, P_INT, P_BOOL, P_VEC, P_STRING, P_REQUIRE,
                     P_MATRIX } Probe;
typedef struct BadDoc {
    const char *text;
    Probe probe;
    PlnStatus status;
    const char *fragment;
} BadDoc;

static const BadDoc BAD[] = {
    {"", P_LOAD, PLN_ERR_PARSE, "empty"},
    {"a: [1, 2\n", P_LOAD, PLN_ERR_PARSE, "YAML syntax"},
    {"a: 1\n b: 2\n", P_LOAD, PLN_ERR_PARSE, ":2:"},
    {"- 1\n- 2\n", P_LOAD, PLN_ERR_PARSE, "expected a mapping"},
    {"x: 1\nduraton: 2\n", P_KEYS, PLN_ERR_INVALID, ":2:1: duraton: unknown key (allowed: x"},
    {"x: 1\nx: 2\n", P_KEYS, PLN_ERR_INVALID, ":2:1: x: key given twice (first on line 1)"},
    {"y: 1\n", P_DOUBLE, PLN_ERR_INVALID, "x: required key is missing"},
    {"x: .nan\n", P_DOUBLE, PLN_ERR_INVALID, ":1:4: x: expected a finite number, got '.nan'"},
    {"x: nan\n", P_DOUBLE, PLN_ERR_INVALID, "got 'nan'"},
    {"x: -.inf\n", P_DOUBLE, PLN_ERR_INVALID, "got '-.inf'"},
    {"x: 1e999\n", P_DOUBLE, PLN_ERR_INVALID, "got '1e999'"},
    {"x: '1.5'\n", P_DOUBLE, PLN_ERR_INVALID, "got '1.5'"},
    {"x: 1.5m\n", P_DOUBLE, PLN_ERR_INVALID, "got '1.5m'"},
    {"x: [1]\n", P_DOUBLE, PLN_ERR_INVALID, "expected a number, got a sequence"},
    {"x: 2.5\n", P_INT, PLN_ERR_INVALID, "expected an integer, got '2.5'"},
    {"x: 1000\n", P_INT, PLN_ERR_INVALID, "1000 is outside [1, 100]"},
    {"x: maybe\n", P_BOOL, PLN_ERR_INVALID, "expected true or false, got 'maybe'"},
    {"x: [1, 2]\n", P_VEC, PLN_ERR_INVALID, "expected 3 numbers, got 2"},
    {"x: [1, 2, oops]\n", P_VEC, PLN_ERR_INVALID, ":1:11: x[2]: expected a finite number"},
    {"x: {a: 1}\n", P_VEC, PLN_ERR_INVALID, "expected a sequence, got a mapping"},
    {"x: ''\n", P_STRING, PLN_ERR_INVALID, "must not be empty"},
    {"x: abcdefghijklmnopqrstuvwxyz\n", P_STRING, PLN_ERR_INVALID, "longer than 15"},
    {"x: \"a\\0b\"\n", P_STRING, PLN_ERR_INVALID, ":1:4: x: contains a NUL character"},
    {"x: '2.5'\n", P_DOUBLE, PLN_ERR_INVALID, "quoted: a number is written without quotes"},
    {"y: 1\n", P_REQUIRE, PLN_ERR_INVALID, ":1:1: x: required key is missing"},
    {"x: [[1, 0], [0, 1]]\n", P_MATRIX, PLN_ERR_INVALID, ":1:4: x: expected 3 rows of 2 numbers"},
    {"x: [[1, 0], [0, 1], [2]]\n", P_MATRIX, PLN_ERR_INVALID, ":1:21: x[2]: expected 2 numbers, got 1"},
    {"x: [[1, 0], [0, 1], [2, .nan]]\n", P_MATRIX, PLN_ERR_INVALID, "x[2][1]: expected a finite number"},
    {"x: 1\n---\nx: 2\n", P_LOAD, PLN_ERR_PARSE, ":3: a second YAML document"},
    {"x: \"\xff\xfe\"\n", P_LOAD, PLN_ERR_PARSE, "byte "},
};

START_TEST(test_bad_documents)
{
    static const char *const keys[] = {"x", NULL};
    const BadDoc *b = &BAD[_i];
    char dir[256], path[512], err[512] = "", s[16];
    double d, v[3], m[6];
    yaml_node_t *node;
    int n, flag;
    PlnYaml y;
    PlnStatus st;
    yaml_node_t *root;
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "bad.yaml", b->text, path, sizeof path);
    st = pln_yaml_load(&y, path, err, sizeof err);
    if (b->probe != P_LOAD) {
        ck_assert_msg(st == PLN_OK, "%s", err);
        root = pln_yaml_root(&y);
        switch (b->probe) {
        case P_KEYS: st = pln_yaml_check_mapping(&y, root, "", keys); break;
        case P_DOUBLE: st = pln_yaml_double(&y, root, "", "x", 1, &d); break;
        case P_INT: st = pln_yaml_int(&y, root, "", "x", 1, 1, 100, &n); break;
        case P_BOOL: st = pln_yaml_bool(&y, root, "", "x", 1, &flag); break;
        case P_VEC: st = pln_yaml_vector(&y, root, "", "x", 1, 3, v); break;
        case P_STRING: st = pln_yaml_string(&y, root, "", "x", 1, s, sizeof s); break;
        case P_REQUIRE:
            st = pln_yaml_require(&y, root, "", "x", &node);
            ck_assert_ptr_null(node);
            break;
        case P_MATRIX:
            st = pln_yaml_node_matrix(&y, pln_yaml_get(&y, root, "x"), "x", 3, 2, m);
            break;
        default: break;
        }
        pln_yaml_free(&y);
    }
    ck_assert_int_eq(st, b->status);
    ck_assert_msg(strstr(err, b->fragment) != NULL, "case %d: '%s' lacks '%s'", _i, err,
                  b->fragment);
    ck_assert_msg(strstr(err, path) != NULL, "case %d: message names the file", _i);
    ckutil_rm_flat(dir);
}
END_TEST

/* field paths, a required key, a matrix */
START_TEST(test_fields_require_matrix)
{
    char dir[256], path[512], err[512], buf[32];
    double m[6];
    PlnYaml y;
    yaml_node_t *root, *node;
    ck_assert_str_eq(pln_yaml_field(buf, sizeof buf, "", "mass"), "mass");
    ck_assert_str_eq(pln_yaml_field(buf, sizeof buf, "links[0]", "mass"), "links[0].mass");
    ck_assert_str_eq(pln_yaml_field_index(buf, sizeof buf, "links", 12), "links[12]");
    /* truncated, never overflowing */
    ck_assert_uint_eq(strlen(pln_yaml_field(buf, 8, "abcdefgh", "ijk")), 7);
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "m.yaml", "inertia: [[1, 2], [3, 4.5], [-6, 7e-1]]\n", path, sizeof path);
    ck_assert_msg(pln_yaml_load(&y, path, err, sizeof err) == PLN_OK, "%s", err);
    root = pln_yaml_root(&y);
    ck_assert_int_eq(pln_yaml_require(&y, root, "", "inertia", &node), PLN_OK);
    ck_assert_ptr_nonnull(node);
    ck_assert_int_eq(pln_yaml_node_matrix(&y, node, "inertia", 3, 2, m), PLN_OK);
    ck_assert(m[0] == 1 && m[1] == 2 && m[2] == 3 && m[3] == 4.5 && m[4] == -6 && m[5] == 0.7);
    pln_yaml_free(&y);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_missing_file)
{
    char err[256];
    PlnYaml y;
    ck_assert_int_eq(pln_yaml_load(&y, "/nonexistent/s.yaml", err, sizeof err), PLN_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/s.yaml"));
    pln_yaml_free(&y);
}
END_TEST

Suite *pln_yaml_suite(void)
{
    Suite *s = suite_create("pln_yaml");
    TCase *tc = tcase_create("values");
    tcase_add_test(tc, test_reads_values);
    tcase_add_test(tc, test_fields_require_matrix);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_bad_documents, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_test(tc, test_missing_file);
    suite_add_tcase(s, tc);
    return s;
}
