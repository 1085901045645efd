/* pln_table.c — .pos and .csv trajectory tables: atomic writers, validating readers. */
#include "motion/pln_table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_atomic.h"
#include "base/pln_file.h"
#include "base/pln_tolerance.h"

PlnStatus pln_table_create(PlnTable *table, int n_joints, int n_rows, char *err, size_t err_size)
{
    memset(table, 0, sizeof *table);
    if (n_joints < 1 || n_rows < 1) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "table needs at least one joint and one row (got %d x %d)", n_rows,
                          n_joints);
    }
    table->names = calloc((size_t)n_joints, sizeof *table->names);
    table->t = calloc((size_t)n_rows, sizeof *table->t);
    table->q = calloc((size_t)n_rows * (size_t)n_joints, sizeof *table->q);
    if (table->names == NULL || table->t == NULL || table->q == NULL) {
        pln_table_destroy(table);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for a %d x %d table",
                          n_rows, n_joints);
    }
    table->n_joints = n_joints;
    table->n_rows = n_rows;
    return PLN_OK;
}

PlnStatus pln_table_first_joints(const PlnTable *src, int n, PlnTable *dst, char *err,
                                 size_t err_size)
{
    PlnStatus st;
    if (n < 1 || n > src->n_joints) {
        memset(dst, 0, sizeof *dst);
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "table: %d of its %d joints", n,
                          src->n_joints);
    }
    st = pln_table_create(dst, n, src->n_rows, err, err_size);
    if (st == PLN_OK && src->qd != NULL && src->qdd != NULL) st = pln_table_add_derivatives(dst, err, err_size);
    if (st != PLN_OK) {
        pln_table_destroy(dst);
        return st;
    }
    memcpy(dst->names, src->names, (size_t)n * sizeof *dst->names);
    memcpy(dst->t, src->t, (size_t)src->n_rows * sizeof *dst->t);
    for (int r = 0; r < src->n_rows; ++r) {
        size_t a = (size_t)r * (size_t)src->n_joints, b = (size_t)r * (size_t)n;
        memcpy(dst->q + b, src->q + a, (size_t)n * sizeof *dst->q);
        if (dst->qd != NULL) {
            memcpy(dst->qd + b, src->qd + a, (size_t)n * sizeof *dst->qd);
            memcpy(dst->qdd + b, src->qdd + a, (size_t)n * sizeof *dst->qdd);
        }
    }
    return PLN_OK;
}

PlnStatus pln_table_add_derivatives(PlnTable *table, char *err, size_t err_size)
{
    size_t n = (size_t)table->n_rows * (size_t)table->n_joints;
    free(table->qd);
    free(table->qdd);
    table->qd = calloc(n > 0 ? n : 1, sizeof *table->qd);
    table->qdd = calloc(n > 0 ? n : 1, sizeof *table->qdd);
    if (table->qd == NULL || table->qdd == NULL) {
        free(table->qd);
        free(table->qdd);
        table->qd = table->qdd = NULL;
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for table derivatives");
    }
    return PLN_OK;
}

void pln_table_destroy(PlnTable *table)
{
    free(table->names);
    free(table->t);
    free(table->q);
    free(table->qd);
    free(table->qdd);
    memset(table, 0, sizeof *table);
}

PlnStatus pln_table_times(double duration, double rate_hz, double *times, int cap, int *n,
                          char *err, size_t err_size)
{
    double dt, count_d;
    long count;
    if (!isfinite(duration) || !(duration > 0.0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "duration %g s: must be positive",
                          duration);
    }
    if (!isfinite(rate_hz) || !(rate_hz > 0.0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "rate %g Hz: must be positive",
                          rate_hz);
    }
    dt = 1.0 / rate_hz;
    /* samples k*dt strictly before the end (a sample within PLN_TIME_EPS_REL of the end
     * is the end itself), plus the end */
    count_d = floor(duration * rate_hz * (1.0 - PLN_TIME_EPS_REL));
    if (count_d * dt >= duration * (1.0 - PLN_TIME_EPS_REL)) count_d -= 1.0;
    if (count_d + 2.0 > (double)cap || count_d + 2.0 > 1e9) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%g s at %g Hz needs %.0f samples, more than the limit %d", duration,
                          rate_hz, count_d + 2.0, cap);
    }
    count = (long)count_d + 2;
    if (times != NULL) {
        for (long k = 0; k + 1 < count; ++k) times[k] = (double)k * dt;
        times[count - 1] = duration;
    }
    *n = (int)count;
    return PLN_OK;
}

/* every value finite, times strictly increasing */
static PlnStatus validate(const PlnTable *table, const char *path, char *err, size_t err_size)
{
    for (int r = 0; r < table->n_rows; ++r) {
        if (!isfinite(table->t[r]) || (r > 0 && !(table->t[r] > table->t[r - 1]))) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: row %d: time %g is not finite or not increasing", path, r,
                              table->t[r]);
        }
        for (int j = 0; j < table->n_joints; ++j) {
            if (!isfinite(table->q[(size_t)r * table->n_joints + j])) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "%s: row %d joint %d: value is not finite", path, r, j);
            }
        }
    }
    return PLN_OK;
}

static PlnStatus write_table(const PlnTable *table, const char *path, const char *comment,
                             int csv, char *err, size_t err_size)
{
    PlnAtomicFile f;
    PlnStatus st = validate(table, path, err, err_size);
    const char sep = csv ? ',' : ' ';
    if (st != PLN_OK) return st;
    st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    if (comment != NULL) fprintf(f.fp, "# %s\n", comment);
    if (csv) {
        fputs("time", f.fp);
        for (int j = 0; j < table->n_joints; ++j) fprintf(f.fp, ",%s", table->names[j]);
        fputc('\n', f.fp);
    }
    for (int r = 0; r < table->n_rows; ++r) {
        fprintf(f.fp, "%.17g", table->t[r]);
        for (int j = 0; j < table->n_joints; ++j) {
            fprintf(f.fp, "%c%.17g", sep, table->q[(size_t)r * table->n_joints + j]);
        }
        fputc('\n', f.fp);
    }
    return pln_atomic_commit(&f, err, err_size);
}

PlnStatus pln_table_write_pos(const PlnTable *table, const char *path, const char *comment,
                              char *err, size_t err_size)
{
    return write_table(table, path, comment, 0, err, err_size);
}

PlnStatus pln_table_write_csv(const PlnTable *table, const char *path, const char *comment,
                              char *err, size_t err_size)
{
    for (int j = 0; j < table->n_joints; ++j) {
        if (table->names[j][0] == '\0' || strpbrk(table->names[j], ",\n\r\"") != NULL) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: joint %d name '%s' cannot be a CSV column", path, j,
                              table->names[j]);
        }
    }
    return write_table(table, path, comment, 1, err, err_size);
}

/* ---- reading ---------------------------------------------------------------------- */

/* splits a line in place into fields at `sep` (',' for csv, any whitespace for pos);
 * returns the number of fields, at most max. Trailing newline already removed. */
static int split_fields(char *line, int csv, char **fields, int max)
{
    int n = 0;
    char *p = line;
    if (csv) {
        for (;;) {
            char *comma = strchr(p, ',');
            if (n < max) fields[n] = p;
            ++n;
            if (comma == NULL) break;
            *comma = '\0';
            p = comma + 1;
        }
    } else {
        for (;;) {
            while (*p && isspace((unsigned char)*p)) ++p;
            if (*p == '\0') break;
            if (n < max) fields[n] = p;
            ++n;
            while (*p && !isspace((unsigned char)*p)) ++p;
            if (*p) *p++ = '\0';
        }
    }
    return n;
}

/* strips leading and trailing blanks in place */
static char *trim(char *s)
{
    char *e;
    while (*s && isspace((unsigned char)*s)) ++s;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

static int parse_number(const char *s, double *out)
{
    char *end;
    if (*s == '\0') return 0;
    errno = 0;
    *out = strtod(s, &end);
    return errno == 0 && *trim(end) == '\0' && isfinite(*out);
}

/* growable row storage while reading */
typedef struct Rows {
    double *t, *q;
    int n, cap, n_joints;
} Rows;

static int rows_push(Rows *rows, double t, const double *q)
{
    if (rows->n == rows->cap) {
        int cap = rows->cap ? 2 * rows->cap : 1024;
        double *nt = realloc(rows->t, (size_t)cap * sizeof *nt);
        double *nq;
        if (nt == NULL) return 0;
        rows->t = nt;
        nq = realloc(rows->q, (size_t)cap * (size_t)rows->n_joints * sizeof *nq);
        if (nq == NULL) return 0;
        rows->q = nq;
        rows->cap = cap;
    }
    rows->t[rows->n] = t;
    memcpy(rows->q + (size_t)rows->n * rows->n_joints, q, (size_t)rows->n_joints * sizeof *q);
    ++rows->n;
    return 1;
}

#define PLN_TABLE_MAX_COLS 1024

PlnStatus pln_table_read(const char *path, PlnTable *table, char *err, size_t err_size)
{
    size_t len = strlen(path);
    int csv = len >= 4 && strcmp(path + len - 4, ".csv") == 0;
    FILE *f = NULL;
    char *line = NULL, **fields = NULL;
    size_t line_cap = 0;
    long lineno = 0;
    int n_cols = -1;
    double q[PLN_TABLE_MAX_COLS];
    Rows rows = {0};
    PlnStatus st = PLN_OK;
    char (*names)[PLN_NAME_MAX] = NULL;

    memset(table, 0, sizeof *table);
    st = pln_file_open_input(path, "trajectory", PLN_MAX_TABLE_BYTES, &f, err, err_size);
    if (st != PLN_OK) return st;
    fields = malloc((PLN_TABLE_MAX_COLS + 2) * sizeof *fields);
    if (fields == NULL) {
        fclose(f);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory", path);
    }
    while (st == PLN_OK && getline(&line, &line_cap, f) != -1) {
        char *text;
        int n;
        ++lineno;
        line[strcspn(line, "\r\n")] = '\0';
        text = trim(line);
        if (*text == '\0' || *text == '#') continue;
        n = split_fields(text, csv, fields, PLN_TABLE_MAX_COLS + 2);
        if (n > PLN_TABLE_MAX_COLS + 1) {
            st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s:%ld: %d columns, more than %d",
                            path, lineno, n, PLN_TABLE_MAX_COLS + 1);
            break;
        }
        if (n_cols < 0) {
            /* the first data line fixes the column count; in csv it is the header */
            if (n < 2) {
                st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                "%s:%ld: need a time and at least one joint column", path,
                                lineno);
                break;
            }
            n_cols = n;
            rows.n_joints = n - 1;
            names = calloc((size_t)rows.n_joints, sizeof *names);
            if (names == NULL) {
                st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory", path);
                break;
            }
            if (csv) {
                if (strcmp(trim(fields[0]), "time") != 0) {
                    st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                    "%s:%ld: column 1: header must start with 'time', got '%s'",
                                    path, lineno, trim(fields[0]));
                    break;
                }
                for (int j = 0; j < rows.n_joints; ++j) {
                    char *name = trim(fields[j + 1]);
                    if (*name == '\0' || strlen(name) >= PLN_NAME_MAX) {
                        st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                        "%s:%ld: column %d: empty or too long joint name", path,
                                        lineno, j + 2);
                        break;
                    }
                    snprintf(names[j], PLN_NAME_MAX, "%s", name);
                    for (int k = 0; k < j && st == PLN_OK; ++k) {
                        if (strcmp(names[k], names[j]) == 0) {
                            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                            "%s:%ld: column %d: joint '%s' is already column %d",
                                            path, lineno, j + 2, name, k + 2);
                        }
                    }
                    if (st != PLN_OK) break;
                }
                if (st != PLN_OK) break;
                continue;
            }
        }
        if (n != n_cols) {
            st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s:%ld: %d columns, expected %d", path,
                            lineno, n, n_cols);
            break;
        }
        {
            double t;
            if (!parse_number(trim(fields[0]), &t)) {
                st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                "%s:%ld: column 1 (time): '%s' is not a finite number", path,
                                lineno, trim(fields[0]));
                break;
            }
            if (t < 0.0) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%ld: column 1 (time): %.17g s: a motion starts at 0 s", path,
                                lineno, t);
                break;
            }
            if (rows.n > 0 && !(t > rows.t[rows.n - 1])) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%ld: column 1 (time): %.17g does not increase", path, lineno,
                                t);
                break;
            }
            for (int j = 0; j < rows.n_joints; ++j) {
                if (!parse_number(trim(fields[j + 1]), &q[j])) {
                    st = pln_errorf(PLN_ERR_PARSE, err, err_size,
                                    "%s:%ld: column %d: '%s' is not a finite number", path,
                                    lineno, j + 2, trim(fields[j + 1]));
                    break;
                }
                if (fabs(q[j]) > PLN_MAX_JOINT_ABS) {
                    st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                    "%s:%ld: column %d: %.17g is beyond the joint range +-%g",
                                    path, lineno, j + 2, q[j], PLN_MAX_JOINT_ABS);
                    break;
                }
            }
            if (st == PLN_OK && !rows_push(&rows, t, q)) {
                st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory", path);
            }
        }
    }
    if (st == PLN_OK && ferror(f)) {
        st = pln_errorf(PLN_ERR_IO, err, err_size, "%s: read error", path);
    }
    if (st == PLN_OK && rows.n == 0) {
        st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s: no samples in the file", path);
    }
    if (st == PLN_OK) {
        st = pln_table_create(table, rows.n_joints, rows.n, err, err_size);
    }
    if (st == PLN_OK) {
        memcpy(table->names, names, (size_t)rows.n_joints * sizeof *names);
        memcpy(table->t, rows.t, (size_t)rows.n * sizeof *rows.t);
        memcpy(table->q, rows.q, (size_t)rows.n * rows.n_joints * sizeof *rows.q);
    }
    free(rows.t);
    free(rows.q);
    free(names);
    free(fields);
    free(line);
    fclose(f);
    return st;
}
