/* pln_yaml.c — typed, located access to a libyaml document. */
#include "base/pln_yaml.h"

#include "base/pln_file.h"
#include "base/pln_tolerance.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the deepest collection of the text, found by libyaml's event parser, which stops as
 * soon as the depth passes PLN_YAML_MAX_DEPTH (its cost grows with the depth, so the
 * whole document is never scanned at a depth beyond it). A syntax error ends the scan:
 * the loader reports it. */
static PlnStatus check_depth(const char *path, const char *text, size_t size, char *err,
                             size_t err_size)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    int depth = 0;
    PlnStatus st = PLN_OK;
    if (!yaml_parser_initialize(&parser)) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: cannot start the YAML parser", path);
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, size);
    while (yaml_parser_parse(&parser, &ev)) {
        yaml_event_type_t type = ev.type;
        if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
            if (++depth > PLN_YAML_MAX_DEPTH) {
                st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                "%s:%lu:%lu: collections nested deeper than %d levels: not a "
                                "file of this kind", path,
                                (unsigned long)ev.start_mark.line + 1,
                                (unsigned long)ev.start_mark.column + 1, PLN_YAML_MAX_DEPTH);
            }
        } else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
            --depth;
        }
        yaml_event_delete(&ev);
        if (st != PLN_OK || type == YAML_STREAM_END_EVENT) break;
    }
    yaml_parser_delete(&parser);
    return st;
}

PlnStatus pln_yaml_load(PlnYaml *y, const char *path, char *err, size_t err_size)
{
    yaml_parser_t parser;
    yaml_node_t *root;
    char *text = NULL;
    size_t size = 0;
    int ok;
    PlnStatus rst;

    memset(y, 0, sizeof *y);
    snprintf(y->path, sizeof y->path, "%s", path);
    y->err = err;
    y->err_size = err_size;
    rst = pln_file_read_input(path, "YAML file", PLN_MAX_YAML_BYTES, &text, &size, err,
                              err_size);
    if (rst != PLN_OK) return rst;
    rst = check_depth(path, text, size, err, err_size);
    if (rst != PLN_OK) {
        free(text);
        return rst;
    }
    if (!yaml_parser_initialize(&parser)) {
        free(text);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: cannot start the YAML parser", path);
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, size);
    ok = yaml_parser_load(&parser, &y->doc);
    if (!ok) {
        PlnStatus st;
        if (parser.error == YAML_MEMORY_ERROR) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory reading YAML", path);
        } else if (parser.error == YAML_READER_ERROR) {
            st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s: byte %lu: %s", path,
                            (unsigned long)parser.problem_offset,
                            parser.problem ? parser.problem : "cannot be read as text");
        } else {
            st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s:%lu:%lu: YAML syntax error: %s%s%s",
                            path, (unsigned long)parser.problem_mark.line + 1,
                            (unsigned long)parser.problem_mark.column + 1,
                            parser.problem ? parser.problem : "malformed",
                            parser.context ? " " : "", parser.context ? parser.context : "");
        }
        yaml_parser_delete(&parser);
        free(text);
        return st;
    }
    y->loaded = 1;
    /* a second document would be ignored silently: refuse it */
    {
        yaml_document_t extra;
        yaml_node_t *extra_root;
        PlnStatus st = PLN_OK;
        if (!yaml_parser_load(&parser, &extra)) {
            st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s:%lu:%lu: YAML syntax error: %s", path,
                            (unsigned long)parser.problem_mark.line + 1,
                            (unsigned long)parser.problem_mark.column + 1,
                            parser.problem ? parser.problem : "malformed");
        } else {
            extra_root = yaml_document_get_root_node(&extra);
            if (extra_root != NULL) {
                st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                "%s:%lu: a second YAML document: the file holds one", path,
                                (unsigned long)extra_root->start_mark.line + 1);
            }
            yaml_document_delete(&extra);
        }
        if (st != PLN_OK) {
            pln_yaml_free(y);
            yaml_parser_delete(&parser);
            free(text);
            return st;
        }
    }
    yaml_parser_delete(&parser);
    free(text);
    root = yaml_document_get_root_node(&y->doc);
    if (root == NULL) {
        pln_yaml_free(y);
        return pln_errorf(PLN_ERR_PARSE, err, err_size, "%s: the file is empty", path);
    }
    if (root->type != YAML_MAPPING_NODE) {
        PlnStatus st = pln_yaml_error(y, root, "(document)", PLN_ERR_PARSE,
                                      "expected a mapping of keys at the top level");
        pln_yaml_free(y);
        return st;
    }
    return PLN_OK;
}

void pln_yaml_free(PlnYaml *y)
{
    if (y->loaded) yaml_document_delete(&y->doc);
    y->loaded = 0;
}

yaml_node_t *pln_yaml_root(PlnYaml *y)
{
    return y->loaded ? yaml_document_get_root_node(&y->doc) : NULL;
}

PlnStatus pln_yaml_error(PlnYaml *y, const yaml_node_t *node, const char *field,
                         PlnStatus status, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (node != NULL) {
        return pln_errorf(status, y->err, y->err_size, "%s:%lu:%lu: %s: %s", y->path,
                          (unsigned long)node->start_mark.line + 1,
                          (unsigned long)node->start_mark.column + 1, field, msg);
    }
    return pln_errorf(status, y->err, y->err_size, "%s: %s: %s", y->path, field, msg);
}

const char *pln_yaml_field(char *buf, size_t size, const char *field, const char *key)
{
    if (field == NULL || field[0] == '\0') snprintf(buf, size, "%s", key);
    else snprintf(buf, size, "%s.%s", field, key);
    return buf;
}

const char *pln_yaml_field_index(char *buf, size_t size, const char *field, int i)
{
    snprintf(buf, size, "%s[%d]", field, i);
    return buf;
}


static const char *node_kind(const yaml_node_t *node)
{
    switch (node->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a sequence";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "nothing";
    }
}

int pln_yaml_mapping_size(const yaml_node_t *mapping)
{
    if (mapping == NULL || mapping->type != YAML_MAPPING_NODE) return 0;
    return (int)(mapping->data.mapping.pairs.top - mapping->data.mapping.pairs.start);
}

yaml_node_t *pln_yaml_pair_key(PlnYaml *y, const yaml_node_t *mapping, int i)
{
    return yaml_document_get_node(&y->doc, mapping->data.mapping.pairs.start[i].key);
}

yaml_node_t *pln_yaml_pair_value(PlnYaml *y, const yaml_node_t *mapping, int i)
{
    return yaml_document_get_node(&y->doc, mapping->data.mapping.pairs.start[i].value);
}

yaml_node_t *pln_yaml_get(PlnYaml *y, const yaml_node_t *mapping, const char *key)
{
    int n = pln_yaml_mapping_size(mapping);
    for (int i = 0; i < n; ++i) {
        yaml_node_t *k = pln_yaml_pair_key(y, mapping, i);
        if (k != NULL && k->type == YAML_SCALAR_NODE &&
            strcmp((const char *)k->data.scalar.value, key) == 0) {
            return pln_yaml_pair_value(y, mapping, i);
        }
    }
    return NULL;
}

PlnStatus pln_yaml_check_mapping(PlnYaml *y, const yaml_node_t *node, const char *field,
                                 const char *const *allowed)
{
    int n;
    char path[512];
    if (node == NULL || node->type != YAML_MAPPING_NODE) {
        return pln_yaml_error(y, node, field[0] ? field : "(document)", PLN_ERR_INVALID,
                              "expected a mapping, got %s", node ? node_kind(node) : "nothing");
    }
    n = pln_yaml_mapping_size(node);
    for (int i = 0; i < n; ++i) {
        yaml_node_t *k = pln_yaml_pair_key(y, node, i);
        const char *name;
        int known = 0;
        if (k == NULL || k->type != YAML_SCALAR_NODE) {
            return pln_yaml_error(y, k, field[0] ? field : "(document)", PLN_ERR_INVALID,
                                  "keys must be plain names");
        }
        name = (const char *)k->data.scalar.value;
        for (const char *const *a = allowed; a && *a; ++a) known |= strcmp(*a, name) == 0;
        if (!known) {
            char list[400] = "";
            size_t used = 0;
            for (const char *const *a = allowed; a && *a && used + 2 < sizeof list; ++a) {
                int w = snprintf(list + used, sizeof list - used, "%s%s", a == allowed ? "" : ", ", *a);
                if (w < 0) break;
                used += (size_t)w;
            }
            return pln_yaml_error(y, k, pln_yaml_field(path, sizeof path, field, name), PLN_ERR_INVALID,
                                  "unknown key (allowed: %s)", list);
        }
        for (int j = 0; j < i; ++j) {
            yaml_node_t *kj = pln_yaml_pair_key(y, node, j);
            if (kj->type == YAML_SCALAR_NODE &&
                strcmp((const char *)kj->data.scalar.value, name) == 0) {
                return pln_yaml_error(y, k, pln_yaml_field(path, sizeof path, field, name), PLN_ERR_INVALID,
                                      "key given twice (first on line %lu)",
                                      (unsigned long)kj->start_mark.line + 1);
            }
        }
    }
    return PLN_OK;
}

/* the value node of key, or an error for a required missing key (NULL + *st set) */
static yaml_node_t *fetch(PlnYaml *y, const yaml_node_t *map, const char *field, const char *key,
                          int required, PlnStatus *st)
{
    yaml_node_t *v = pln_yaml_get(y, map, key);
    char path[512];
    *st = PLN_OK;
    if (v == NULL && required) {
        *st = pln_yaml_error(y, map, pln_yaml_field(path, sizeof path, field, key), PLN_ERR_INVALID,
                             "required key is missing");
    }
    return v;
}

PlnStatus pln_yaml_require(PlnYaml *y, const yaml_node_t *mapping, const char *field,
                           const char *key, yaml_node_t **out)
{
    PlnStatus st;
    *out = fetch(y, mapping, field, key, 1, &st);
    return st;
}

PlnStatus pln_yaml_node_double(PlnYaml *y, const yaml_node_t *node, const char *field,
                               double *out)
{
    const char *s;
    char *end;
    double v;
    if (node == NULL || node->type != YAML_SCALAR_NODE) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected a number, got %s",
                              node ? node_kind(node) : "nothing");
    }
    s = (const char *)node->data.scalar.value;
    errno = 0;
    v = strtod(s, &end);
    /* YAML spellings of infinity and NaN (.inf, .nan) are refused along with C's */
    if (node->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
        node->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID,
                              "expected a finite number, got '%.64s' (quoted: a number is written "
                              "without quotes)", s);
    }
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID,
                              "expected a finite number, got '%.64s'", s);
    }
    if (fabs(v) > PLN_MAX_NUMBER_ABS) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID,
                              "%g: no number of these files exceeds %g in magnitude (SI units: "
                              "m, kg, s, rad, N m)", v, PLN_MAX_NUMBER_ABS);
    }
    *out = v;
    return PLN_OK;
}

PlnStatus pln_yaml_node_string(PlnYaml *y, const yaml_node_t *node, const char *field,
                               char *out, size_t out_size)
{
    const char *s;
    if (node == NULL || node->type != YAML_SCALAR_NODE) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected a text value, got %s",
                              node ? node_kind(node) : "nothing");
    }
    s = (const char *)node->data.scalar.value;
    if (strlen(s) != node->data.scalar.length) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "contains a NUL character");
    }
    if (s[0] == '\0') {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "must not be empty");
    }
    if (strlen(s) >= out_size) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "longer than %zu characters",
                              out_size - 1);
    }
    memcpy(out, s, strlen(s) + 1);
    return PLN_OK;
}

PlnStatus pln_yaml_double(PlnYaml *y, const yaml_node_t *map, const char *field,
                          const char *key, int required, double *out)
{
    PlnStatus st;
    char path[512];
    yaml_node_t *v = fetch(y, map, field, key, required, &st);
    if (v == NULL) return st;
    return pln_yaml_node_double(y, v, pln_yaml_field(path, sizeof path, field, key), out);
}

PlnStatus pln_yaml_int(PlnYaml *y, const yaml_node_t *map, const char *field, const char *key,
                       int required, long lo, long hi, int *out)
{
    PlnStatus st;
    char path[512], *end;
    long v;
    const char *s;
    yaml_node_t *node = fetch(y, map, field, key, required, &st);
    if (node == NULL) return st;
    pln_yaml_field(path, sizeof path, field, key);
    if (node->type != YAML_SCALAR_NODE) {
        return pln_yaml_error(y, node, path, PLN_ERR_INVALID, "expected an integer, got %s",
                              node_kind(node));
    }
    s = (const char *)node->data.scalar.value;
    errno = 0;
    v = strtol(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno != 0) {
        return pln_yaml_error(y, node, path, PLN_ERR_INVALID, "expected an integer, got '%s'", s);
    }
    if (v < lo || v > hi) {
        return pln_yaml_error(y, node, path, PLN_ERR_INVALID, "%ld is outside [%ld, %ld]", v, lo,
                              hi);
    }
    *out = (int)v;
    return PLN_OK;
}

PlnStatus pln_yaml_bool(PlnYaml *y, const yaml_node_t *map, const char *field, const char *key,
                        int required, int *out)
{
    PlnStatus st;
    char path[512];
    const char *s;
    yaml_node_t *node = fetch(y, map, field, key, required, &st);
    if (node == NULL) return st;
    pln_yaml_field(path, sizeof path, field, key);
    if (node->type == YAML_SCALAR_NODE) {
        s = (const char *)node->data.scalar.value;
        if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0 || strcmp(s, "on") == 0) {
            *out = 1;
            return PLN_OK;
        }
        if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0 || strcmp(s, "off") == 0) {
            *out = 0;
            return PLN_OK;
        }
        return pln_yaml_error(y, node, path, PLN_ERR_INVALID, "expected true or false, got '%s'",
                              s);
    }
    return pln_yaml_error(y, node, path, PLN_ERR_INVALID, "expected true or false, got %s",
                          node_kind(node));
}

PlnStatus pln_yaml_string(PlnYaml *y, const yaml_node_t *map, const char *field,
                          const char *key, int required, char *out, size_t out_size)
{
    PlnStatus st;
    char path[512];
    yaml_node_t *v = fetch(y, map, field, key, required, &st);
    if (v == NULL) return st;
    return pln_yaml_node_string(y, v, pln_yaml_field(path, sizeof path, field, key), out, out_size);
}

PlnStatus pln_yaml_sequence(PlnYaml *y, const yaml_node_t *node, const char *field, int *n)
{
    if (node == NULL || node->type != YAML_SEQUENCE_NODE) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected a sequence, got %s",
                              node ? node_kind(node) : "nothing");
    }
    *n = (int)(node->data.sequence.items.top - node->data.sequence.items.start);
    return PLN_OK;
}

yaml_node_t *pln_yaml_item(PlnYaml *y, const yaml_node_t *sequence, int i)
{
    return yaml_document_get_node(&y->doc, sequence->data.sequence.items.start[i]);
}

PlnStatus pln_yaml_vector(PlnYaml *y, const yaml_node_t *map, const char *field,
                          const char *key, int required, int n, double *out)
{
    PlnStatus st;
    char path[512];
    double tmp[16];
    yaml_node_t *v = fetch(y, map, field, key, required, &st);
    if (v == NULL) return st;
    pln_yaml_field(path, sizeof path, field, key);
    if (n > 16) return pln_yaml_error(y, v, path, PLN_ERR_INTERNAL, "vector of %d > 16", n);
    /* into a scratch copy, so that out is untouched on error */
    st = pln_yaml_node_numbers(y, v, path, n, tmp);
    if (st == PLN_OK) memcpy(out, tmp, (size_t)n * sizeof *out);
    return st;
}

PlnStatus pln_yaml_node_numbers(PlnYaml *y, const yaml_node_t *node, const char *field, int n,
                                double *out)
{
    int count = 0;
    char item[600];
    PlnStatus st = pln_yaml_sequence(y, node, field, &count);
    if (st != PLN_OK) return st;
    if (count != n) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected %d numbers, got %d", n,
                              count);
    }
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        snprintf(item, sizeof item, "%s[%d]", field, i);
        st = pln_yaml_node_double(y, pln_yaml_item(y, node, i), item, &out[i]);
    }
    return st;
}

PlnStatus pln_yaml_node_numbers_bounded(PlnYaml *y, const yaml_node_t *node,
                                        const char *field, int n, double bound,
                                        const char *what, double *out)
{
    double tmp[16];
    char item[600];
    PlnStatus st;
    if (n > 16) return pln_yaml_error(y, node, field, PLN_ERR_INTERNAL, "vector of %d > 16", n);
    st = pln_yaml_node_numbers(y, node, field, n, tmp);
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        if (fabs(tmp[i]) > bound) {
            snprintf(item, sizeof item, "%s[%d]", field, i);
            return pln_yaml_error(y, pln_yaml_item(y, node, i), item, PLN_ERR_INVALID,
                                  "%g: must lie in [-%g, %g] %s", tmp[i], bound, bound, what);
        }
    }
    if (st == PLN_OK) memcpy(out, tmp, (size_t)n * sizeof *out);
    return st;
}

PlnStatus pln_yaml_vector_bounded(PlnYaml *y, const yaml_node_t *map, const char *field,
                                  const char *key, int required, int n, double bound,
                                  const char *what, double *out)
{
    PlnStatus st;
    char path[512];
    yaml_node_t *v = fetch(y, map, field, key, required, &st);
    if (v == NULL) return st;
    return pln_yaml_node_numbers_bounded(y, v, pln_yaml_field(path, sizeof path, field, key), n,
                                         bound, what, out);
}

PlnStatus pln_yaml_node_matrix(PlnYaml *y, const yaml_node_t *node, const char *field, int rows,
                               int cols, double *out)
{
    int count = 0;
    char row[600];
    PlnStatus st = PLN_OK;
    if (node == NULL || node->type != YAML_SEQUENCE_NODE ||
        pln_yaml_sequence(y, node, field, &count) != PLN_OK || count != rows) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected %d rows of %d numbers",
                              rows, cols);
    }
    for (int r = 0; r < rows && st == PLN_OK; ++r) {
        st = pln_yaml_node_numbers(y, pln_yaml_item(y, node, r),
                                   pln_yaml_field_index(row, sizeof row, field, r), cols,
                                   out + (size_t)r * cols);
    }
    return st;
}
