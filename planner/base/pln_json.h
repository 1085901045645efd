/* pln_json.h — a small streaming JSON writer for reports and trajectories.
 *
 * Writes well-formed, indented JSON to a FILE* (normally the stream of a PlnAtomicFile).
 * The writer tracks nesting and commas; the caller says what comes next. Numbers are
 * written with 17 significant digits (round-trip exact); a non-finite number cannot be
 * represented in JSON and is written as `null` and counted in `nonfinite`, so a caller
 * can refuse to commit a report that carries one. Any misuse (a value where a key is
 * due, too deep nesting, unbalanced end) sets `misuse`; write errors show in ferror. */
#ifndef PLN_JSON_H
#define PLN_JSON_H

#include <stdio.h>

#define PLN_JSON_MAX_DEPTH 32

typedef struct PlnJson {
    FILE *fp;                              /* borrowed */
    int depth;
    int count[PLN_JSON_MAX_DEPTH + 1];     /* items written at each level */
    char kind[PLN_JSON_MAX_DEPTH + 1];     /* '{' or '[' per level */
    int key_pending;                       /* a key was written, its value is due */
    int compact_depth;                     /* levels deeper than this go on one line; 0 = never */
    int nonfinite;                         /* non-finite numbers written as null */
    int misuse;                            /* API misuse count */
} PlnJson;

/* Starts a writer on fp. Arrays and objects nested deeper than `compact_depth` levels
 * are written on one line (e.g. 2 keeps rows of a table compact); 0 indents everything. */
void pln_json_init(PlnJson *w, FILE *fp, int compact_depth);

void pln_json_begin_object(PlnJson *w);
void pln_json_end_object(PlnJson *w);
void pln_json_begin_array(PlnJson *w);
void pln_json_end_array(PlnJson *w);

/* Writes an object key; the next call must write its value. */
void pln_json_key(PlnJson *w, const char *key);

/* Values. Strings are UTF-8 and escaped as JSON requires; NULL writes null. */
void pln_json_string(PlnJson *w, const char *s);
void pln_json_number(PlnJson *w, double x);
/* A number with `digits` significant digits (1..17; clamped), for bulky display data
 * such as the viewer's frames where 17 digits would only add bytes. */
void pln_json_number_digits(PlnJson *w, double x, int digits);
void pln_json_int(PlnJson *w, long long x);
void pln_json_bool(PlnJson *w, int b);
void pln_json_null(PlnJson *w);

/* Key-value shorthands. */
void pln_json_kv_string(PlnJson *w, const char *key, const char *s);
void pln_json_kv_number(PlnJson *w, const char *key, double x);
void pln_json_kv_int(PlnJson *w, const char *key, long long x);
void pln_json_kv_bool(PlnJson *w, const char *key, int b);

/* 1 when the document is complete (all levels closed), no misuse, no non-finite
 * number and no stream error; 0 otherwise. Ends the document with a newline. */
int pln_json_finish(PlnJson *w);

#endif /* PLN_JSON_H */
