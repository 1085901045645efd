/* pln_json.c — streaming JSON writer (RFC 8259 output). */
#include "base/pln_json.h"

#include <math.h>

void pln_json_init(PlnJson *w, FILE *fp, int compact_depth)
{
    w->fp = fp;
    w->depth = 0;
    w->count[0] = 0;
    w->kind[0] = 0;
    w->key_pending = 0;
    w->compact_depth = compact_depth;
    w->nonfinite = 0;
    w->misuse = 0;
}

/* is the current level written on one line? */
static int compact(const PlnJson *w, int depth)
{
    return w->compact_depth > 0 && depth > w->compact_depth;
}

static void newline_indent(PlnJson *w, int depth)
{
    fputc('\n', w->fp);
    for (int i = 0; i < depth; ++i) fputs("  ", w->fp);
}

/* separator and indentation before a new item (a value in an array, a key in an object,
 * or the top-level value). Values after a key need nothing. */
static int begin_item(PlnJson *w, int is_key)
{
    if (w->key_pending) {
        if (is_key) {
            ++w->misuse;
            return 0;
        }
        w->key_pending = 0;
        return 1;
    }
    if (w->depth == 0) {
        if (w->count[0] > 0 || is_key) {
            ++w->misuse;
            return 0;
        }
        ++w->count[0];
        return 1;
    }
    if (w->kind[w->depth] == '{' && !is_key) {
        ++w->misuse; /* a value where a key is due */
        return 0;
    }
    if (w->kind[w->depth] == '[' && is_key) {
        ++w->misuse;
        return 0;
    }
    if (w->count[w->depth] > 0) fputc(',', w->fp);
    if (compact(w, w->depth)) {
        if (w->count[w->depth] > 0) fputc(' ', w->fp);
    } else {
        newline_indent(w, w->depth);
    }
    ++w->count[w->depth];
    return 1;
}

static void open_level(PlnJson *w, char kind)
{
    if (!begin_item(w, 0)) return;
    if (w->depth >= PLN_JSON_MAX_DEPTH) {
        ++w->misuse;
        return;
    }
    fputc(kind, w->fp);
    ++w->depth;
    w->kind[w->depth] = kind;
    w->count[w->depth] = 0;
}

static void close_level(PlnJson *w, char kind)
{
    if (w->depth == 0 || w->kind[w->depth] != kind || w->key_pending) {
        ++w->misuse;
        return;
    }
    if (w->count[w->depth] > 0 && !compact(w, w->depth)) newline_indent(w, w->depth - 1);
    fputc(kind == '{' ? '}' : ']', w->fp);
    --w->depth;
}

void pln_json_begin_object(PlnJson *w) { open_level(w, '{'); }
void pln_json_end_object(PlnJson *w) { close_level(w, '{'); }
void pln_json_begin_array(PlnJson *w) { open_level(w, '['); }
void pln_json_end_array(PlnJson *w) { close_level(w, '['); }

static void write_escaped(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", fp); break;
        case '\\': fputs("\\\\", fp); break;
        case '\n': fputs("\\n", fp); break;
        case '\r': fputs("\\r", fp); break;
        case '\t': fputs("\\t", fp); break;
        case '\b': fputs("\\b", fp); break;
        case '\f': fputs("\\f", fp); break;
        default:
            if (*p < 0x20) fprintf(fp, "\\u%04x", *p);
            else fputc(*p, fp);
        }
    }
    fputc('"', fp);
}

void pln_json_key(PlnJson *w, const char *key)
{
    if (key == NULL || !begin_item(w, 1)) {
        if (key == NULL) ++w->misuse;
        return;
    }
    write_escaped(w->fp, key);
    fputs(": ", w->fp);
    w->key_pending = 1;
}

void pln_json_string(PlnJson *w, const char *s)
{
    if (!begin_item(w, 0)) return;
    if (s == NULL) fputs("null", w->fp);
    else write_escaped(w->fp, s);
}

void pln_json_number_digits(PlnJson *w, double x, int digits)
{
    if (!begin_item(w, 0)) return;
    if (!isfinite(x)) {
        ++w->nonfinite;
        fputs("null", w->fp);
        return;
    }
    if (digits < 1) digits = 1;
    if (digits > 17) digits = 17;
    if (x == 0.0) x = 0.0; /* no "-0" */
    fprintf(w->fp, "%.*g", digits, x);
}

void pln_json_number(PlnJson *w, double x)
{
    pln_json_number_digits(w, x, 17);
}

void pln_json_int(PlnJson *w, long long x)
{
    if (begin_item(w, 0)) fprintf(w->fp, "%lld", x);
}

void pln_json_bool(PlnJson *w, int b)
{
    if (begin_item(w, 0)) fputs(b ? "true" : "false", w->fp);
}

void pln_json_null(PlnJson *w)
{
    if (begin_item(w, 0)) fputs("null", w->fp);
}

void pln_json_kv_string(PlnJson *w, const char *key, const char *s)
{
    pln_json_key(w, key);
    pln_json_string(w, s);
}

void pln_json_kv_number(PlnJson *w, const char *key, double x)
{
    pln_json_key(w, key);
    pln_json_number(w, x);
}

void pln_json_kv_int(PlnJson *w, const char *key, long long x)
{
    pln_json_key(w, key);
    pln_json_int(w, x);
}

void pln_json_kv_bool(PlnJson *w, const char *key, int b)
{
    pln_json_key(w, key);
    pln_json_bool(w, b);
}

int pln_json_finish(PlnJson *w)
{
    fputc('\n', w->fp);
    return w->depth == 0 && w->count[0] == 1 && !w->key_pending && w->misuse == 0 &&
           w->nonfinite == 0 && !ferror(w->fp);
}
