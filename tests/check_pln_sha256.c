/* check_pln_sha256.c — tests of planner/base/pln_sha256.c against the examples of FIPS
 * 180-4 (NIST's "SHA256.pdf" example values): "abc", the empty message, the 448-bit
 * two-block message, one million 'a' fed in odd-sized pieces, and a file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pln_sha256.h"

static void digest(const char *msg, char hex[65])
{
    PlnSha256 s;
    pln_sha256_init(&s);
    pln_sha256_update(&s, msg, strlen(msg));
    pln_sha256_hex(&s, hex);
}

START_TEST(test_known_vectors)
{
    char hex[65];
    digest("abc", hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    digest("", hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", hex);
    ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}
END_TEST

START_TEST(test_million_a_in_pieces)
{
    static char a[1000];
    PlnSha256 s;
    char hex[65];
    size_t done = 0, piece = 1;
    memset(a, 'a', sizeof a);
    pln_sha256_init(&s);
    while (done < 1000000) {
        size_t n = piece < 1000000 - done ? piece : 1000000 - done;
        if (n > sizeof a) n = sizeof a;
        pln_sha256_update(&s, a, n);
        done += n;
        piece = piece % 997 + 13;  /* pieces of changing length across block boundaries */
    }
    pln_sha256_hex(&s, hex);
    ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(test_file)
{
    char path[] = "/tmp/hrpplan_sha_XXXXXX", hex[65], err[256];
    int fd = mkstemp(path);
    PlnSha256 s;
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "abc", 3), 3);
    close(fd);
    pln_sha256_init(&s);
    ck_assert_int_eq(pln_sha256_file(&s, path, "test file", 1 << 20, err, sizeof err), PLN_OK);
    pln_sha256_hex(&s, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    unlink(path);
    pln_sha256_init(&s);
    ck_assert_int_ne(pln_sha256_file(&s, path, "test file", 1 << 20, err, sizeof err), PLN_OK);
}
END_TEST

Suite *pln_sha256_suite(void)
{
    Suite *s = suite_create("pln_sha256");
    TCase *tc = tcase_create("sha256");
    tcase_add_test(tc, test_known_vectors);
    tcase_add_test(tc, test_million_a_in_pieces);
    tcase_add_test(tc, test_file);
    suite_add_tcase(s, tc);
    return s;
}
