/* check_pln_atomic.c — tests of planner/base/pln_atomic.c: complete files or nothing. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "base/pln_atomic.h"

START_TEST(test_write_creates_file_and_no_temporary)
{
    char dir[256], path[512], buf[256], err[256];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    ck_assert_int_eq(pln_atomic_write(path, "hello\n", 6, err, sizeof err), PLN_OK);
    ck_assert_int_eq(ckutil_read_file(path, buf, sizeof buf), 6);
    ck_assert_str_eq(buf, "hello\n");
    ck_assert_int_eq(ckutil_count_entries(dir), 1); /* the temporary is gone */
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_overwrite_replaces_whole_content)
{
    char dir[256], path[512], buf[256], err[256];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    ck_assert_int_eq(pln_atomic_write(path, "a much longer first version\n", 28, err, sizeof err),
                     PLN_OK);
    ck_assert_int_eq(pln_atomic_write(path, "v2\n", 3, err, sizeof err), PLN_OK);
    ck_assert_int_eq(ckutil_read_file(path, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "v2\n");
    ck_assert_int_eq(ckutil_count_entries(dir), 1);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_abort_leaves_no_file)
{
    char dir[256], path[512], err[256];
    PlnAtomicFile f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/never.txt", dir);
    ck_assert_int_eq(pln_atomic_open(&f, path, err, sizeof err), PLN_OK);
    fputs("half a file", f.fp);
    ck_assert_int_eq(ckutil_count_entries(dir), 1); /* only the hidden temporary */
    ck_assert_int_ne(access(path, F_OK), 0);        /* the target never appears early */
    pln_atomic_abort(&f);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    pln_atomic_abort(&f); /* a second abort is harmless */
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_abort_keeps_previous_version)
{
    char dir[256], path[512], buf[256], err[256];
    PlnAtomicFile f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/keep.txt", dir);
    ck_assert_int_eq(pln_atomic_write(path, "old\n", 4, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_open(&f, path, err, sizeof err), PLN_OK);
    fputs("new but failed", f.fp);
    pln_atomic_abort(&f);
    ckutil_read_file(path, buf, sizeof buf);
    ck_assert_str_eq(buf, "old\n");
    ck_assert_int_eq(ckutil_count_entries(dir), 1);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_open_in_missing_directory_fails_cleanly)
{
    char dir[256], path[512], err[256];
    PlnAtomicFile f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/no/such/dir/out.txt", dir);
    ck_assert_int_eq(pln_atomic_open(&f, path, err, sizeof err), PLN_ERR_IO);
    ck_assert_ptr_null(f.fp);
    ck_assert_ptr_nonnull(strstr(err, path)); /* the message names the file */
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_failed_rename_leaves_no_file)
{
    /* the target is an existing non-empty directory: rename(2) must fail, and then
     * neither a target nor a temporary may remain */
    char dir[256], path[512], inner[600], err[256];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/target", dir);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(inner, sizeof inner, "%s/occupant", path);
    ck_assert_int_eq(pln_atomic_write(inner, "x", 1, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_write(path, "data", 4, err, sizeof err), PLN_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err, "rename failed"));
    ck_assert_int_eq(ckutil_count_entries(dir), 1); /* only the directory itself */
    unlink(inner);
    rmdir(path);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_write_error_is_reported_and_cleaned)
{
    /* a stream in error state (here: written after its read-only reopening) must make
     * commit fail and remove the temporary */
    char dir[256], path[512], err[256];
    PlnAtomicFile f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/bad.txt", dir);
    ck_assert_int_eq(pln_atomic_open(&f, path, err, sizeof err), PLN_OK);
    ck_assert_ptr_nonnull(freopen(f.tmp, "r", f.fp));
    errno = 0;
    fputs("cannot be written", f.fp);
    ck_assert(ferror(f.fp));
    ck_assert_int_eq(pln_atomic_commit(&f, err, sizeof err), PLN_ERR_IO);
    ck_assert_int_ne(access(path, F_OK), 0);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_bad_paths_rejected)
{
    char err[256];
    PlnAtomicFile f;
    ck_assert_int_eq(pln_atomic_open(&f, "", err, sizeof err), PLN_ERR_USAGE);
    ck_assert_int_eq(pln_atomic_open(&f, "somedir/", err, sizeof err), PLN_ERR_USAGE);
    ck_assert_int_eq(pln_atomic_commit(&f, err, sizeof err), PLN_ERR_INTERNAL);
}
END_TEST

START_TEST(test_relative_path_in_cwd)
{
    char dir[256], buf[64], err[256];
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_int_eq(chdir(dir), 0);
    ck_assert_int_eq(pln_atomic_write("plain.txt", "ok", 2, err, sizeof err), PLN_OK);
    ck_assert_int_eq(ckutil_read_file("plain.txt", buf, sizeof buf), 2);
    ck_assert_int_eq(ckutil_count_entries("."), 1);
    ckutil_rm_flat(dir);
}
END_TEST

/* an output set: nothing changes when it is abandoned, everything when it is committed */
START_TEST(test_output_set_all_or_nothing)
{
    char dir[256], a[512], b[512], old[512], buf[256], err[256];
    int n = -1;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(b, sizeof b, "%s/b.txt", dir);
    snprintf(old, sizeof old, "%s/old.txt", dir);
    ck_assert_int_eq(pln_atomic_write(old, "old\n", 4, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_write(a, "a0\n", 3, err, sizeof err), PLN_OK);

    /* abandoned: a keeps its old text, b never appears, old is not removed */
    ck_assert_int_eq(pln_atomic_set_begin(err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_set_begin(err, sizeof err), PLN_ERR_INTERNAL); /* no nesting */
    ck_assert_int_eq(pln_atomic_write(a, "a1\n", 3, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_write(b, "b1\n", 3, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_remove(old, err, sizeof err), PLN_OK);
    ck_assert_int_eq(ckutil_read_file(a, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "a0\n"); /* not yet */
    ck_assert_int_eq(pln_atomic_set_end(0, &n, err, sizeof err), PLN_OK);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(ckutil_read_file(a, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "a0\n");
    ck_assert_int_eq(access(b, F_OK), -1);
    ck_assert_int_eq(access(old, F_OK), 0);
    ck_assert_int_eq(ckutil_count_entries(dir), 2); /* a, old: no temporary left */

    /* committed: all of it */
    ck_assert_int_eq(pln_atomic_set_begin(err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_write(a, "a2\n", 3, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_write(b, "b2\n", 3, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_remove(old, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_atomic_set_end(1, &n, err, sizeof err), PLN_OK);
    ck_assert_int_eq(ckutil_read_file(a, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "a2\n");
    ck_assert_int_eq(ckutil_read_file(b, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "b2\n");
    ck_assert_int_eq(access(old, F_OK), -1);
    ck_assert_int_eq(ckutil_count_entries(dir), 2);

    /* outside a set, writes land at once again */
    ck_assert_int_eq(pln_atomic_remove(b, err, sizeof err), PLN_OK);
    ck_assert_int_eq(access(b, F_OK), -1);
    ckutil_rm_flat(dir);
}
END_TEST

/* a set holds PLN_ATOMIC_SET_MAX files; one more fails, and the set is then abandoned */
START_TEST(test_output_set_overflow)
{
    char dir[256], path[512], err[256];
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_int_eq(pln_atomic_set_begin(err, sizeof err), PLN_OK);
    for (int i = 0; i <= PLN_ATOMIC_SET_MAX; ++i) {
        snprintf(path, sizeof path, "%s/f%d", dir, i);
        ck_assert_int_eq(pln_atomic_write(path, "x", 1, err, sizeof err),
                         i < PLN_ATOMIC_SET_MAX ? PLN_OK : PLN_ERR_IO);
    }
    ck_assert_ptr_nonnull(strstr(err, "too many files in one output set"));
    ck_assert_int_eq(pln_atomic_set_end(0, NULL, err, sizeof err), PLN_OK);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
}
END_TEST

Suite *pln_atomic_suite(void)
{
    Suite *s = suite_create("pln_atomic");
    TCase *tc = tcase_create("write");
    tcase_add_test(tc, test_write_creates_file_and_no_temporary);
    tcase_add_test(tc, test_overwrite_replaces_whole_content);
    tcase_add_test(tc, test_relative_path_in_cwd);
    suite_add_tcase(s, tc);
    tc = tcase_create("failure");
    tcase_add_test(tc, test_abort_leaves_no_file);
    tcase_add_test(tc, test_abort_keeps_previous_version);
    tcase_add_test(tc, test_open_in_missing_directory_fails_cleanly);
    tcase_add_test(tc, test_failed_rename_leaves_no_file);
    tcase_add_test(tc, test_write_error_is_reported_and_cleaned);
    tcase_add_test(tc, test_bad_paths_rejected);
    tcase_add_test(tc, test_output_set_all_or_nothing);
    tcase_add_test(tc, test_output_set_overflow);
    suite_add_tcase(s, tc);
    return s;
}
