/* check_pln_status.c — tests of planner/base/pln_status.c. */
#include <check.h>
#include <string.h>

#include "base/pln_status.h"

START_TEST(test_status_strings_distinct)
{
    const char *names[PLN_ERR_INTERNAL + 1];
    for (int s = PLN_OK; s <= PLN_ERR_INTERNAL; ++s) {
        names[s] = pln_status_string((PlnStatus)s);
        ck_assert_str_ne(names[s], "unknown");
        for (int r = PLN_OK; r < s; ++r) ck_assert_str_ne(names[s], names[r]);
    }
    ck_assert_str_eq(pln_status_string((PlnStatus)-7), "unknown");
}
END_TEST

START_TEST(test_exit_codes)
{
    /* DESIGN.md section 3: 0 success, 2 bad input or usage, 3 not certified, 1 internal */
    ck_assert_int_eq(pln_status_exit_code(PLN_OK), 0);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_USAGE), 2);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_IO), 2);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_PARSE), 2);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_INVALID), 2);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_NOT_CERTIFIED), 3);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_UNAVAILABLE), 1);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_NOMEM), 1);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_INTERNAL), 1);
    ck_assert_int_eq(pln_status_exit_code((PlnStatus)999), 1);
}
END_TEST

START_TEST(test_errorf_formats_and_returns_status)
{
    char buf[64];
    PlnStatus st = pln_errorf(PLN_ERR_INVALID, buf, sizeof buf, "%s:%d: %s", "a.yaml", 12,
                              "joints[3].limit");
    ck_assert_int_eq(st, PLN_ERR_INVALID);
    ck_assert_str_eq(buf, "a.yaml:12: joints[3].limit");
}
END_TEST

START_TEST(test_errorf_truncates_and_terminates)
{
    char buf[8];
    memset(buf, 'x', sizeof buf);
    pln_errorf(PLN_ERR_IO, buf, sizeof buf, "%s", "a very long message");
    ck_assert_int_eq(buf[sizeof buf - 1], '\0');
    ck_assert_str_eq(buf, "a very ");
}
END_TEST

START_TEST(test_errorf_null_buffer)
{
    /* a caller that does not want the message passes NULL, 0 */
    ck_assert_int_eq(pln_errorf(PLN_ERR_PARSE, NULL, 0, "%d", 1), PLN_ERR_PARSE);
}
END_TEST

Suite *pln_status_suite(void)
{
    Suite *s = suite_create("pln_status");
    TCase *tc = tcase_create("status");
    tcase_add_test(tc, test_status_strings_distinct);
    tcase_add_test(tc, test_exit_codes);
    suite_add_tcase(s, tc);
    tc = tcase_create("errorf");
    tcase_add_test(tc, test_errorf_formats_and_returns_status);
    tcase_add_test(tc, test_errorf_truncates_and_terminates);
    tcase_add_test(tc, test_errorf_null_buffer);
    suite_add_tcase(s, tc);
    return s;
}
