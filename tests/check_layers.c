/* check_layers.c — tests of tools/layers/check-layers.sh, the include rule of
 * docs/ARCHITECTURE.md (`make layers`): it passes on a valid fixture tree and on the real
 * tree, and fails, naming file and line, on each planted fault of the fixture trees under
 * tests/data/layers/: a back-include, a cycle, an internal distance header included by
 * planner/, distance/ including planner/, a file outside the layer folders, an include
 * that resolves to nothing; and it refuses a bad root. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define SCRIPT "tools/layers/check-layers.sh"

/* runs the script on root; its exit status and its output (both streams) in out */
static int run(const char *root, char *out, size_t size)
{
    char cmd[512];
    FILE *p;
    size_t n = 0;
    int st;
    snprintf(cmd, sizeof cmd, "%s '%s' 2>&1", SCRIPT, root);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    while (n + 1 < size) {
        size_t got = fread(out + n, 1, size - 1 - n, p);
        if (got == 0) break;
        n += got;
    }
    out[n] = '\0';
    st = pclose(p);
    ck_assert_msg(st != -1 && WIFEXITED(st), "%s did not exit", cmd);
    return WEXITSTATUS(st);
}

/* a fixture that must fail with exactly this `file:line: error: ...` start */
static void expect_error(const char *fixture, const char *where_and_what)
{
    char root[256], out[4096];
    snprintf(root, sizeof root, "tests/data/layers/%s", fixture);
    ck_assert_int_eq(run(root, out, sizeof out), 1);
    ck_assert_msg(strstr(out, where_and_what) != NULL, "%s: expected '%s' in:\n%s", fixture,
                  where_and_what, out);
}

START_TEST(test_valid_fixture_passes)
{
    char out[4096];
    ck_assert_msg(run("tests/data/layers/good", out, sizeof out) == 0, "%s", out);
    ck_assert_msg(strstr(out, "layers: 13 files, 18 includes, no back-include, no cycle") != NULL,
                  "%s", out);
}
END_TEST

/* the project itself follows its rule */
START_TEST(test_real_tree_passes)
{
    char out[4096];
    ck_assert_msg(run(".", out, sizeof out) == 0, "%s", out);
}
END_TEST

START_TEST(test_back_include_named)
{
    expect_error("back_include",
                 "planner/base/pln_bad.h:3: error: base includes planner/cli/pln_cli.h (cli), a "
                 "higher layer");
}
END_TEST

START_TEST(test_cycle_named)
{
    expect_error("cycle",
                 "planner/model/pln_tree.h:1: error: include cycle: planner/model/pln_kin.h -> "
                 "planner/model/pln_tree.h -> planner/model/pln_kin.h");
}
END_TEST

START_TEST(test_internal_header_named)
{
    expect_error("internal",
                 "planner/problem/pln_geom.c:2: error: includes distance/dst_bvh_internal.h, an "
                 "internal header of distance/");
}
END_TEST

START_TEST(test_distance_including_planner_named)
{
    expect_error("distance_up",
                 "distance/dst_tri.c:2: error: distance/ includes planner/base/pln_status.h");
}
END_TEST

START_TEST(test_file_outside_layers_named)
{
    expect_error("outside", "planner/pln_stray.c:1: error: not in a layer folder");
}
END_TEST

START_TEST(test_unresolved_include_named)
{
    expect_error("unresolved",
                 "planner/base/pln_yaml.c:2: error: cannot resolve include \"base/pln_nowhere.h\"");
}
END_TEST

START_TEST(test_bad_root_is_usage)
{
    char out[4096];
    ck_assert_int_eq(run("tests/data/layers/no-such-tree", out, sizeof out), 2);
    ck_assert(strstr(out, "not a directory with planner/ in it") != NULL);
}
END_TEST

Suite *layers_suite(void)
{
    Suite *s = suite_create("layers");
    TCase *tc = tcase_create("pass");
    tcase_add_test(tc, test_valid_fixture_passes);
    tcase_add_test(tc, test_real_tree_passes);
    suite_add_tcase(s, tc);
    tc = tcase_create("faults");
    tcase_add_test(tc, test_back_include_named);
    tcase_add_test(tc, test_cycle_named);
    tcase_add_test(tc, test_internal_header_named);
    tcase_add_test(tc, test_distance_including_planner_named);
    tcase_add_test(tc, test_file_outside_layers_named);
    tcase_add_test(tc, test_unresolved_include_named);
    tcase_add_test(tc, test_bad_root_is_usage);
    suite_add_tcase(s, tc);
    return s;
}
