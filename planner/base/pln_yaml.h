/* pln_yaml.h — reading validated values out of a YAML document (libyaml).
 *
 * The loaders of robots and scenarios walk a libyaml document through these helpers so
 * that every error says where it is and what is wrong in one form:
 *     <file>:<line>:<column>: <field path>: <problem>
 * e.g. "scenarios/x.yaml:12:11: tasks[0].time: expected a finite number, got 'soon'".
 * Lines and columns are 1-based. Numbers must be finite; integers must be exact; a
 * mapping can be checked against the list of keys its schema allows, so a misspelt key
 * is an error and not silently ignored. Duplicate keys are errors. */
#ifndef PLN_YAML_H
#define PLN_YAML_H

#include <stddef.h>
#include <yaml.h>

#include "base/pln_status.h"

typedef struct PlnYaml {
    yaml_document_t doc;
    int loaded;
    char path[1024];     /* the file, as given, for messages */
    char *err;           /* borrowed message buffer */
    size_t err_size;
} PlnYaml;

/* Parses `path` into y. Syntax errors give PLN_ERR_PARSE with line and column (bytes that
 * are not UTF-8 with their offset); an empty file, a second document in the file (which
 * would otherwise be ignored silently) or a document that is not a mapping gives
 * PLN_ERR_PARSE; a file that cannot be read gives PLN_ERR_IO; PLN_ERR_NOMEM. Messages go
 * to err, which y keeps for later calls. */
PlnStatus pln_yaml_load(PlnYaml *y, const char *path, char *err, size_t err_size);

/* Frees the document; safe on a zeroed or freed PlnYaml. */
void pln_yaml_free(PlnYaml *y);

/* The root node (a mapping after a successful load). */
yaml_node_t *pln_yaml_root(PlnYaml *y);

/* Writes "<file>:<line>:<col>: <field>: <message>" for `node` and returns `status`. */
PlnStatus pln_yaml_error(PlnYaml *y, const yaml_node_t *node, const char *field,
                         PlnStatus status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Value of `key` in a mapping node, or NULL when absent. */
yaml_node_t *pln_yaml_get(PlnYaml *y, const yaml_node_t *mapping, const char *key);

/* Value of a required key into *out; "<field>.<key>: required key is missing" at the
 * mapping when it is absent (*out NULL). */
PlnStatus pln_yaml_require(PlnYaml *y, const yaml_node_t *mapping, const char *field,
                           const char *key, yaml_node_t **out);

/* Field paths for messages into buf[size] (truncated safely), returned: "<field>.<key>"
 * ("<key>" when field is empty, at the root), and "<field>[i]". */
const char *pln_yaml_field(char *buf, size_t size, const char *field, const char *key);
const char *pln_yaml_field_index(char *buf, size_t size, const char *field, int i);

/* Checks that node is a mapping whose keys are all in `allowed` (NULL-terminated) and
 * that none repeats; `field` names the mapping in messages ("" for the root). */
PlnStatus pln_yaml_check_mapping(PlnYaml *y, const yaml_node_t *node, const char *field,
                                 const char *const *allowed);

/* Fetches a required (`required` = 1) or optional key of a mapping. When the key is
 * absent and optional, the output is left untouched and PLN_OK is returned. `field` is
 * the path of the mapping; the key is appended to it in messages. */
PlnStatus pln_yaml_double(PlnYaml *y, const yaml_node_t *map, const char *field,
                          const char *key, int required, double *out);
PlnStatus pln_yaml_int(PlnYaml *y, const yaml_node_t *map, const char *field, const char *key,
                       int required, long lo, long hi, int *out);
PlnStatus pln_yaml_bool(PlnYaml *y, const yaml_node_t *map, const char *field, const char *key,
                        int required, int *out);
PlnStatus pln_yaml_string(PlnYaml *y, const yaml_node_t *map, const char *field,
                          const char *key, int required, char *out, size_t out_size);
/* A sequence of exactly n finite numbers, e.g. [0.1, 0, 0.2]. */
PlnStatus pln_yaml_vector(PlnYaml *y, const yaml_node_t *map, const char *field,
                          const char *key, int required, int n, double *out);

/* Scalar node conversions (the node itself, not a key of it). A number is a plain,
 * finite scalar (quoted text, .nan, .inf and overflow are refused, each saying so); a
 * text value is a non-empty scalar without NUL characters that fits in out_size. */
PlnStatus pln_yaml_node_double(PlnYaml *y, const yaml_node_t *node, const char *field,
                               double *out);
PlnStatus pln_yaml_node_string(PlnYaml *y, const yaml_node_t *node, const char *field,
                               char *out, size_t out_size);

/* As pln_yaml_vector and pln_yaml_node_numbers (n <= 16), each number within
 * [-bound, bound]; `what` follows the range in the message, e.g. "m (the scene's extent)". */
PlnStatus pln_yaml_vector_bounded(PlnYaml *y, const yaml_node_t *map, const char *field,
                                  const char *key, int required, int n, double bound,
                                  const char *what, double *out);
PlnStatus pln_yaml_node_numbers_bounded(PlnYaml *y, const yaml_node_t *node,
                                        const char *field, int n, double bound,
                                        const char *what, double *out);

/* A sequence node of exactly n finite numbers into out[n] (any n); the item paths in
 * messages are field[i]. */
PlnStatus pln_yaml_node_numbers(PlnYaml *y, const yaml_node_t *node, const char *field, int n,
                                double *out);

/* A matrix written as `rows` sequences of `cols` finite numbers, e.g. a 3x3 inertia
 * [[a, b, c], [d, e, f], [g, h, i]], into out[rows * cols] row-major; the row paths in
 * messages are field[r]. */
PlnStatus pln_yaml_node_matrix(PlnYaml *y, const yaml_node_t *node, const char *field, int rows,
                               int cols, double *out);

/* Number of items of a sequence node (error if it is not a sequence), and item i. */
PlnStatus pln_yaml_sequence(PlnYaml *y, const yaml_node_t *node, const char *field, int *n);
yaml_node_t *pln_yaml_item(PlnYaml *y, const yaml_node_t *sequence, int i);

/* Key and value of pair i of a mapping (for mappings keyed by names). */
int pln_yaml_mapping_size(const yaml_node_t *mapping);
yaml_node_t *pln_yaml_pair_key(PlnYaml *y, const yaml_node_t *mapping, int i);
yaml_node_t *pln_yaml_pair_value(PlnYaml *y, const yaml_node_t *mapping, int i);

#endif /* PLN_YAML_H */
