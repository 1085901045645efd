/* check_pln_table.c — tests of planner/motion/pln_table.c: sample times, round trips, bad files. */
#include <check.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "motion/pln_table.h"

START_TEST(test_times_end_exactly)
{
    double t[1000];
    int n;
    char err[256];
    /* 2 s at 200 Hz: 0, 0.005, ..., 2.0 -> 401 samples, last exactly 2 */
    ck_assert_int_eq(pln_table_times(2.0, 200.0, t, 1000, &n, err, sizeof err), PLN_OK);
    ck_assert_int_eq(n, 401);
    ck_assert(t[0] == 0.0);
    ck_assert(t[n - 1] == 2.0);
    for (int k = 1; k < n; ++k) ck_assert(t[k] > t[k - 1]);
    /* 1.003 s at 200 Hz: 0 .. 1.0 (201 samples), then 1.003 */
    ck_assert_int_eq(pln_table_times(1.003, 200.0, t, 1000, &n, err, sizeof err), PLN_OK);
    ck_assert_int_eq(n, 202);
    ck_assert(t[200] == 1.0);
    ck_assert(t[201] == 1.003);
    /* count query without storage */
    ck_assert_int_eq(pln_table_times(0.1, 200.0, NULL, 1000, &n, err, sizeof err), PLN_OK);
    ck_assert_int_eq(n, 21);
}
END_TEST

START_TEST(test_times_invalid)
{
    double t[4];
    int n;
    char err[256];
    ck_assert_int_eq(pln_table_times(0.0, 200.0, t, 4, &n, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_table_times(1.0, NAN, t, 4, &n, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_table_times(1.0, -1.0, t, 4, &n, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_table_times(1.0, 200.0, t, 4, &n, err, sizeof err), PLN_ERR_INVALID);
}
END_TEST

/* a small table with awkward values */
static void fill(PlnTable *tb)
{
    char err[256];
    ck_assert_int_eq(pln_table_create(tb, 3, 4, err, sizeof err), PLN_OK);
    for (int j = 0; j < 3; ++j) snprintf(tb->names[j], PLN_NAME_MAX, "J%d", j);
    for (int r = 0; r < 4; ++r) {
        tb->t[r] = 0.005 * r;
        for (int j = 0; j < 3; ++j) tb->q[r * 3 + j] = sin(0.1 * r + j) / 3.0 - 1e-17 * j;
    }
}

static void round_trip(const char *ext)
{
    char dir[256], path[512], err[256];
    PlnTable a, b;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/traj.%s", dir, ext);
    fill(&a);
    if (strcmp(ext, "csv") == 0) {
        ck_assert_int_eq(pln_table_write_csv(&a, path, "forced export", err, sizeof err), PLN_OK);
    } else {
        ck_assert_int_eq(pln_table_write_pos(&a, path, NULL, err, sizeof err), PLN_OK);
    }
    ck_assert_msg(pln_table_read(path, &b, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(b.n_rows, a.n_rows);
    ck_assert_int_eq(b.n_joints, a.n_joints);
    for (int r = 0; r < a.n_rows; ++r) {
        ck_assert(b.t[r] == a.t[r]); /* 17 digits: exact */
        for (int j = 0; j < a.n_joints; ++j) ck_assert(b.q[r * 3 + j] == a.q[r * 3 + j]);
    }
    if (strcmp(ext, "csv") == 0) ck_assert_str_eq(b.names[2], "J2");
    else ck_assert_str_eq(b.names[2], "");
    pln_table_destroy(&a);
    pln_table_destroy(&b);
    ckutil_rm_flat(dir);
}

START_TEST(test_round_trip_pos) { round_trip("pos"); }
END_TEST

START_TEST(test_round_trip_csv) { round_trip("csv"); }
END_TEST

START_TEST(test_write_refuses_nonfinite_leaves_nothing)
{
    char dir[256], path[512], err[256];
    PlnTable a;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/traj.pos", dir);
    fill(&a);
    a.q[5] = NAN;
    ck_assert_int_eq(pln_table_write_pos(&a, path, NULL, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    a.q[5] = 0.0;
    a.t[2] = a.t[1];
    ck_assert_int_eq(pln_table_write_pos(&a, path, NULL, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    pln_table_destroy(&a);
    ckutil_rm_flat(dir);
}
END_TEST

/* bad files: content, name, and what the message must contain */
typedef struct BadFile {
    const char *name;
    const char *text;
    PlnStatus status;
    const char *fragment;
} BadFile;

static const BadFile BAD[] = {
    {"empty.pos", "", PLN_ERR_PARSE, "no samples"},
    {"comments.pos", "# only a comment\n\n", PLN_ERR_PARSE, "no samples"},
    {"onecol.pos", "0.0\n", PLN_ERR_PARSE, ":1: need a time"},
    {"ragged.pos", "0 1 2\n0.005 1 2\n0.01 1\n", PLN_ERR_PARSE, ":3: 2 columns, expected 3"},
    {"word.pos", "0 1 2\n0.005 1 x2\n", PLN_ERR_PARSE, ":2: column 3: 'x2'"},
    {"nan.pos", "0 1 nan\n", PLN_ERR_PARSE, ":1: column 3: 'nan'"},
    {"inf.pos", "0 1 2\ninf 1 2\n", PLN_ERR_PARSE, ":2: column 1 (time)"},
    {"back.pos", "0 1 2\n0.01 1 2\n0.005 1 2\n", PLN_ERR_INVALID, ":3: column 1 (time)"},
    {"same.pos", "0 1 2\n0 1 2\n", PLN_ERR_INVALID, "does not increase"},
    {"noheader.csv", "0,1,2\n", PLN_ERR_PARSE, "header must start with 'time'"},
    {"emptyname.csv", "time,A,\n0,1,2\n", PLN_ERR_PARSE, "column 3: empty"},
    {"headeronly.csv", "time,A,B\n", PLN_ERR_PARSE, "no samples"},
    {"short.csv", "time,A,B\n0,1\n", PLN_ERR_PARSE, ":2: 2 columns, expected 3"},
    /* finite but absurd joint values: refused with line and column (they used to overflow the
     * Taylor models of `hrpplan check` into an internal error) */
    {"huge.csv", "time,A,B\n0,1,2\n0.005,-1e308,2\n", PLN_ERR_INVALID, ":3: column 2: -1e+308"},
    {"big.pos", "0 1 2\n0.005 1 1000.5\n", PLN_ERR_INVALID, ":2: column 3: 1000.5 is beyond"},
};

START_TEST(test_read_bad_files)
{
    const BadFile *b = &BAD[_i];
    char dir[256], path[512], err[512] = "";
    PlnTable t;
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s", dir, b->name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(b->text, f);
    fclose(f);
    ck_assert_int_eq(pln_table_read(path, &t, err, sizeof err), b->status);
    ck_assert_msg(strstr(err, b->fragment) != NULL, "%s: message '%s' lacks '%s'", b->name, err,
                  b->fragment);
    ck_assert_msg(strstr(err, path) != NULL, "message names the file");
    ck_assert_ptr_null(t.t);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_read_missing_file)
{
    char err[256];
    PlnTable t;
    ck_assert_int_eq(pln_table_read("/nonexistent/x.pos", &t, err, sizeof err), PLN_ERR_IO);
}
END_TEST

START_TEST(test_read_tolerates_comments_and_crlf)
{
    char dir[256], path[512], err[256];
    PlnTable t;
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/x.csv", dir);
    f = fopen(path, "w");
    fputs("# forced\r\ntime, A ,B\r\n0, 1, 2\r\n# mid comment\r\n0.5,3,4\r\n", f);
    fclose(f);
    ck_assert_msg(pln_table_read(path, &t, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(t.n_rows, 2);
    ck_assert_str_eq(t.names[0], "A");
    ck_assert(t.q[3] == 4.0);
    pln_table_destroy(&t);
    ckutil_rm_flat(dir);
}
END_TEST

/* the first n joints of a table, with its derivatives (a free base's body joints) */
START_TEST(test_first_joints)
{
    PlnTable src, dst;
    char err[256];
    ck_assert_int_eq(pln_table_create(&src, 3, 4, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_table_add_derivatives(&src, err, sizeof err), PLN_OK);
    for (int j = 0; j < 3; ++j) snprintf(src.names[j], PLN_NAME_MAX, "j%d", j);
    for (int r = 0; r < 4; ++r) {
        src.t[r] = 0.5 * r;
        for (int j = 0; j < 3; ++j) {
            src.q[r * 3 + j] = 10 * r + j;
            src.qd[r * 3 + j] = 100 * r + j;
            src.qdd[r * 3 + j] = 1000 * r + j;
        }
    }
    ck_assert_int_eq(pln_table_first_joints(&src, 2, &dst, err, sizeof err), PLN_OK);
    ck_assert_int_eq(dst.n_joints, 2);
    ck_assert_int_eq(dst.n_rows, 4);
    ck_assert_str_eq(dst.names[1], "j1");
    for (int r = 0; r < 4; ++r) {
        ck_assert_double_eq(dst.t[r], 0.5 * r);
        for (int j = 0; j < 2; ++j) {
            ck_assert_double_eq(dst.q[r * 2 + j], 10 * r + j);
            ck_assert_double_eq(dst.qd[r * 2 + j], 100 * r + j);
            ck_assert_double_eq(dst.qdd[r * 2 + j], 1000 * r + j);
        }
    }
    pln_table_destroy(&dst);
    ck_assert_int_eq(pln_table_first_joints(&src, 4, &dst, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_table_first_joints(&src, 0, &dst, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(dst.q);
    pln_table_destroy(&src);
}
END_TEST

Suite *pln_table_suite(void)
{
    Suite *s = suite_create("pln_table");
    TCase *tc = tcase_create("times");
    tcase_add_test(tc, test_times_end_exactly);
    tcase_add_test(tc, test_times_invalid);
    tcase_add_test(tc, test_first_joints);
    suite_add_tcase(s, tc);
    tc = tcase_create("roundtrip");
    tcase_add_test(tc, test_round_trip_pos);
    tcase_add_test(tc, test_round_trip_csv);
    tcase_add_test(tc, test_write_refuses_nonfinite_leaves_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("read");
    tcase_add_loop_test(tc, test_read_bad_files, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_test(tc, test_read_missing_file);
    tcase_add_test(tc, test_read_tolerates_comments_and_crlf);
    suite_add_tcase(s, tc);
    return s;
}
