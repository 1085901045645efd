/* check_pln_json.c — tests of planner/base/pln_json.c. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "base/pln_json.h"

/* the written text of a writer on a tmpfile */
static void slurp(FILE *f, char *buf, size_t size)
{
    size_t n;
    rewind(f);
    n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
}

START_TEST(test_nested_document_exact)
{
    char buf[1024];
    FILE *f = tmpfile();
    PlnJson w;
    pln_json_init(&w, f, 0);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "status", "certified");
    pln_json_kv_int(&w, "dof", 30);
    pln_json_kv_bool(&w, "ok", 1);
    pln_json_key(&w, "pairs");
    pln_json_begin_array(&w);
    pln_json_number(&w, 0.5);
    pln_json_null(&w);
    pln_json_end_array(&w);
    pln_json_key(&w, "empty");
    pln_json_begin_object(&w);
    pln_json_end_object(&w);
    pln_json_end_object(&w);
    ck_assert_int_eq(pln_json_finish(&w), 1);
    slurp(f, buf, sizeof buf);
    ck_assert_str_eq(buf, "{\n  \"status\": \"certified\",\n  \"dof\": 30,\n  \"ok\": true,\n"
                          "  \"pairs\": [\n    0.5,\n    null\n  ],\n  \"empty\": {}\n}\n");
    fclose(f);
}
END_TEST

START_TEST(test_compact_rows)
{
    char buf[512];
    FILE *f = tmpfile();
    PlnJson w;
    pln_json_init(&w, f, 1);
    pln_json_begin_array(&w);
    for (int r = 0; r < 2; ++r) {
        pln_json_begin_array(&w);
        pln_json_int(&w, r);
        pln_json_number(&w, -0.0);
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    ck_assert_int_eq(pln_json_finish(&w), 1);
    slurp(f, buf, sizeof buf);
    ck_assert_str_eq(buf, "[\n  [0, 0],\n  [1, 0]\n]\n");
    fclose(f);
}
END_TEST

START_TEST(test_number_digits)
{
    char buf[256];
    FILE *f = tmpfile();
    PlnJson w;
    pln_json_init(&w, f, 1);
    pln_json_begin_array(&w);
    pln_json_number_digits(&w, 0.123456789, 4);
    pln_json_number_digits(&w, -0.0, 4);
    pln_json_number_digits(&w, 1.0 / 3.0, 0);   /* clamped to 1 digit */
    pln_json_number_digits(&w, 0.1, 40);        /* clamped to 17 digits */
    pln_json_end_array(&w);
    ck_assert_int_eq(pln_json_finish(&w), 1);
    slurp(f, buf, sizeof buf);
    ck_assert_str_eq(buf, "[\n  0.1235,\n  0,\n  0.3,\n  0.10000000000000001\n]\n");
    pln_json_init(&w, f, 0);
    pln_json_number_digits(&w, NAN, 3);
    ck_assert_int_eq(w.nonfinite, 1);
    fclose(f);
}
END_TEST

START_TEST(test_escaping_parses_back)
{
    /* a string with quotes, backslashes and control characters must come back intact
     * through an independent parser (libyaml reads JSON as YAML flow) */
    const char *nasty = "a \"quoted\" \\path\\ with\ttab\nnewline \x01 ctl";
    char buf[1024];
    FILE *f = tmpfile();
    PlnJson w;
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_node_t *root, *val;
    pln_json_init(&w, f, 0);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "s", nasty);
    pln_json_kv_number(&w, "x", 0.1);
    pln_json_end_object(&w);
    ck_assert_int_eq(pln_json_finish(&w), 1);
    slurp(f, buf, sizeof buf);
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, strlen(buf));
    ck_assert_int_eq(yaml_parser_load(&p, &doc), 1);
    root = yaml_document_get_root_node(&doc);
    ck_assert_int_eq(root->type, YAML_MAPPING_NODE);
    val = yaml_document_get_node(&doc, root->data.mapping.pairs.start[0].value);
    ck_assert_str_eq((const char *)val->data.scalar.value, nasty);
    val = yaml_document_get_node(&doc, root->data.mapping.pairs.start[1].value);
    ck_assert(strtod((const char *)val->data.scalar.value, NULL) == 0.1); /* round-trip exact */
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    fclose(f);
}
END_TEST

START_TEST(test_nonfinite_refused)
{
    FILE *f = tmpfile();
    PlnJson w;
    pln_json_init(&w, f, 0);
    pln_json_begin_array(&w);
    pln_json_number(&w, NAN);
    pln_json_number(&w, INFINITY);
    pln_json_end_array(&w);
    ck_assert_int_eq(pln_json_finish(&w), 0);
    ck_assert_int_eq(w.nonfinite, 2);
    fclose(f);
}
END_TEST

START_TEST(test_misuse_detected)
{
    FILE *f = tmpfile();
    PlnJson w;
    /* a value where a key is due */
    pln_json_init(&w, f, 0);
    pln_json_begin_object(&w);
    pln_json_int(&w, 1);
    pln_json_end_object(&w);
    ck_assert_int_eq(pln_json_finish(&w), 0);
    /* unbalanced */
    pln_json_init(&w, f, 0);
    pln_json_begin_array(&w);
    ck_assert_int_eq(pln_json_finish(&w), 0);
    /* wrong closer, and a key inside an array */
    pln_json_init(&w, f, 0);
    pln_json_begin_array(&w);
    pln_json_key(&w, "k");
    pln_json_end_object(&w);
    ck_assert_int_gt(w.misuse, 0);
    /* two top-level values */
    pln_json_init(&w, f, 0);
    pln_json_int(&w, 1);
    pln_json_int(&w, 2);
    ck_assert_int_eq(pln_json_finish(&w), 0);
    fclose(f);
}
END_TEST

Suite *pln_json_suite(void)
{
    Suite *s = suite_create("pln_json");
    TCase *tc = tcase_create("write");
    tcase_add_test(tc, test_nested_document_exact);
    tcase_add_test(tc, test_compact_rows);
    tcase_add_test(tc, test_number_digits);
    tcase_add_test(tc, test_escaping_parses_back);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_nonfinite_refused);
    tcase_add_test(tc, test_misuse_detected);
    suite_add_tcase(s, tc);
    return s;
}
