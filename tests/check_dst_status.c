/* check_dst_status.c — tests of distance/dst_status.c. */
#include <check.h>
#include <string.h>

#include "dst.h"

START_TEST(test_status_strings_distinct)
{
    /* every status has its own name, and none is the fallback */
    const char *names[DST_ABOVE_LIMIT + 1];
    for (int s = DST_OK; s <= DST_ABOVE_LIMIT; ++s) {
        names[s] = dst_status_string((DstStatus)s);
        ck_assert_ptr_nonnull(names[s]);
        ck_assert_str_ne(names[s], "unknown");
        for (int r = DST_OK; r < s; ++r) ck_assert_str_ne(names[s], names[r]);
    }
    ck_assert_str_eq(dst_status_string(DST_CERTIFIED), "certified");
    ck_assert_str_eq(dst_status_string(DST_ABOVE_LIMIT), "above_limit");
    ck_assert_str_eq(dst_status_string((DstStatus)12345), "unknown");
}
END_TEST

START_TEST(test_version)
{
    ck_assert_ptr_nonnull(dst_version());
    ck_assert_int_gt((int)strlen(dst_version()), 0);
    /* the library reports the version its headers carry (the Makefile's soname too) */
    ck_assert_str_eq(dst_version(), DST_VERSION_STRING);
}
END_TEST

Suite *dst_status_suite(void)
{
    Suite *s = suite_create("dst_status");
    TCase *tc = tcase_create("strings");
    tcase_add_test(tc, test_status_strings_distinct);
    tcase_add_test(tc, test_version);
    suite_add_tcase(s, tc);
    return s;
}
