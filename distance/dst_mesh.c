/* dst_mesh.c — reading triangle meshes (ASCII OBJ, binary and ASCII STL) and checking
 * their topology: open, non-manifold and inconsistently oriented edges, degenerate
 * triangles, enclosed volume. Formats: Wavefront OBJ (vertex `v`, face `f` statements)
 * and STL (80-byte header, uint32 count, 50-byte little-endian facets; or the ASCII
 * `solid ... facet normal ... outer loop ... vertex ... endloop endfacet ... endsolid`). */
#include "dst_mesh.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- messages and growable arrays -------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static DstStatus mesh_error(DstStatus status, char *err, size_t err_size, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* a growable array of fixed-size items. */
typedef struct Grow {
    void *data;
    size_t count, cap, item;
} Grow;

/* room for one more item; returns a pointer to it or NULL when out of memory. */
static void *grow_push(Grow *g)
{
    if (g->count == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 256;
        void *d = realloc(g->data, cap * g->item);
        if (d == NULL) return NULL;
        g->data = d;
        g->cap = cap;
    }
    return (char *)g->data + g->item * g->count++;
}

/* reads a whole file into a NUL-terminated buffer. */
static DstStatus read_all(const char *path, char **buf, size_t *size, char *err,
                          size_t err_size)
{
    FILE *f;
    size_t cap = 1 << 16, n = 0;
    char *b;
    struct stat sb;
    int fd, flags;
    *buf = NULL;
    *size = 0;
    /* a regular file of bounded size, checked before a byte is read; O_NONBLOCK so that
     * a FIFO is refused, not waited on */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s: cannot open: %s", path,
                          strerror(errno));
    }
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s: not a regular file (a directory, FIFO or device is no mesh)",
                          path);
    }
    if ((long long)sb.st_size > DST_MESH_MAX_FILE_BYTES) {
        close(fd);
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s: %lld bytes: larger than the %lld MiB a mesh file may hold", path,
                          (long long)sb.st_size, DST_MESH_MAX_FILE_BYTES / (1024LL * 1024LL));
    }
    flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    f = fdopen(fd, "rb");
    if (f == NULL) {
        close(fd);
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s: cannot open: %s", path,
                          strerror(errno));
    }
    cap = (size_t)sb.st_size + 2;
    b = malloc(cap);
    while (b != NULL) {
        size_t got = fread(b + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap) break;
        if ((long long)n > DST_MESH_MAX_FILE_BYTES) {
            free(b);
            fclose(f);
            return mesh_error(DST_INVALID_INPUT, err, err_size,
                              "%s: grew beyond %lld MiB while it was read: not a mesh", path,
                              DST_MESH_MAX_FILE_BYTES / (1024LL * 1024LL));
        }
        char *nb = realloc(b, 2 * cap);
        if (nb == NULL) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    if (b == NULL) {
        fclose(f);
        return mesh_error(DST_FAILED, err, err_size, "%s: out of memory reading the file", path);
    }
    if (ferror(f)) {
        free(b);
        fclose(f);
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s: read error", path);
    }
    fclose(f);
    b[n] = '\0';
    *buf = b;
    *size = n;
    return DST_OK;
}

/* one coordinate: finite and of sane magnitude. */
static DstStatus check_coord(double x, const char *path, int line, char *err, size_t err_size)
{
    if (!isfinite(x)) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s:%d: coordinate is not a finite number", path, line);
    }
    if (fabs(x) > DST_MESH_MAX_COORD) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s:%d: coordinate %g is absurd (|x| > %g m): wrong units?", path,
                          line, x, DST_MESH_MAX_COORD);
    }
    return DST_OK;
}

/* ---- OBJ ---------------------------------------------------------------------------- */

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* a token ends at a blank, the end of the line, or the end of the buffer. */
static int at_token_end(const char *p, const char *eol) { return p >= eol || is_blank(*p); }

typedef struct ObjFace {
    int v[3];
    int line;
} ObjFace;

/* Wavefront OBJ: `v` and `f` statements; faces fan-triangulated, indices 1-based or
 * negative (relative to the vertices read so far). */
static DstStatus parse_obj(const char *path, const char *buf, size_t size, Grow *verts,
                           Grow *faces, char *err, size_t err_size)
{
    static const char *const ignored[] = {"vt", "vn", "vp", "g", "o", "s", "l", "p",
                                          "usemtl", "mtllib"};
    const char *p = buf, *end = buf + size;
    Grow poly = {NULL, 0, 0, sizeof(int)};
    DstStatus st = DST_OK;
    int line = 0;

    while (p < end && st == DST_OK) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *kw, *q;
        size_t kwlen;
        if (eol == NULL) eol = end;
        ++line;
        q = p;
        p = eol + 1;
        while (q < eol && is_blank(*q)) ++q;
        if (q >= eol || *q == '#') continue;
        if (memchr(q, '\0', (size_t)(eol - q)) != NULL) {
            st = mesh_error(DST_INVALID_INPUT, err, err_size,
                            "%s:%d: NUL byte in a text file (binary data?)", path, line);
            break;
        }
        kw = q;
        while (q < eol && !is_blank(*q)) ++q;
        kwlen = (size_t)(q - kw);

        if (kwlen == 1 && kw[0] == 'v') {
            double *v;
            double x[3];
            for (int k = 0; k < 3; ++k) {
                char *after;
                while (q < eol && is_blank(*q)) ++q;
                if (q >= eol) {
                    st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                    "%s:%d: vertex has %d coordinate%s, needs 3 (truncated?)",
                                    path, line, k, k == 1 ? "" : "s");
                    break;
                }
                errno = 0;
                x[k] = strtod(q, &after);
                if (after == q || !at_token_end(after, eol)) {
                    st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                    "%s:%d: vertex coordinate %d is not a number", path, line,
                                    k + 1);
                    break;
                }
                q = after;
                st = check_coord(x[k], path, line, err, err_size);
                if (st != DST_OK) break;
            }
            if (st != DST_OK) break;
            if (verts->count >= (size_t)DST_MESH_MAX_ELEMENTS) {
                st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                "%s:%d: more than %d vertices: absurd size", path, line,
                                DST_MESH_MAX_ELEMENTS);
                break;
            }
            v = grow_push(verts);
            if (v == NULL) {
                st = mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
                break;
            }
            memcpy(v, x, sizeof x);
        } else if (kwlen == 1 && kw[0] == 'f') {
            poly.count = 0;
            for (;;) {
                char *after;
                long idx;
                int *slot;
                while (q < eol && is_blank(*q)) ++q;
                if (q >= eol) break;
                errno = 0;
                idx = strtol(q, &after, 10);
                if (after == q || (*after != '/' && !at_token_end(after, eol))) {
                    st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                    "%s:%d: face index %zu is not an integer", path, line,
                                    poly.count + 1);
                    break;
                }
                if (idx == 0 || errno == ERANGE || idx > DST_MESH_MAX_ELEMENTS ||
                    idx < -(long)verts->count) {
                    st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                    "%s:%d: face index %ld out of range (%zu vertices so far)",
                                    path, line, idx, verts->count);
                    break;
                }
                /* skip the /texture/normal part of the token */
                q = after;
                while (q < eol && !is_blank(*q)) ++q;
                slot = grow_push(&poly);
                if (slot == NULL) {
                    st = mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
                    break;
                }
                /* negative: relative to the vertices read so far; positive: 1-based */
                *slot = idx < 0 ? (int)((long)verts->count + idx) : (int)(idx - 1);
            }
            if (st != DST_OK) break;
            if (poly.count < 3) {
                st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                "%s:%d: face has %zu vertices, needs at least 3 (truncated?)",
                                path, line, poly.count);
                break;
            }
            const int *ix = poly.data;
            for (size_t k = 1; k + 1 < poly.count; ++k) {
                ObjFace *f;
                if (faces->count >= (size_t)DST_MESH_MAX_ELEMENTS) {
                    st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                    "%s:%d: more than %d triangles: absurd size", path, line,
                                    DST_MESH_MAX_ELEMENTS);
                    break;
                }
                f = grow_push(faces);
                if (f == NULL) {
                    st = mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
                    break;
                }
                f->v[0] = ix[0];
                f->v[1] = ix[k];
                f->v[2] = ix[k + 1];
                f->line = line;
            }
        } else {
            int known = 0;
            for (size_t k = 0; k < sizeof ignored / sizeof ignored[0]; ++k) {
                if (strlen(ignored[k]) == kwlen && strncmp(kw, ignored[k], kwlen) == 0) known = 1;
            }
            if (!known) {
                st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                "%s:%d: unknown OBJ statement '%.*s'", path, line,
                                (int)(kwlen > 32 ? 32 : kwlen), kw);
            }
        }
    }
    free(poly.data);
    if (st != DST_OK) return st;

    /* positive indices may name vertices defined later: check them all now */
    for (size_t i = 0; i < faces->count; ++i) {
        const ObjFace *f = (const ObjFace *)faces->data + i;
        for (int k = 0; k < 3; ++k) {
            if (f->v[k] < 0 || (size_t)f->v[k] >= verts->count) {
                return mesh_error(DST_INVALID_INPUT, err, err_size,
                                  "%s:%d: face index %d out of range (file has %zu vertices)",
                                  path, f->line, f->v[k] + 1, verts->count);
            }
        }
    }
    return DST_OK;
}

/* ---- STL ---------------------------------------------------------------------------- */

/* little-endian IEEE float32 and uint32 from bytes, whatever the host order. */
static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static double lef32(const unsigned char *b)
{
    uint32_t u = le32(b);
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

static DstStatus parse_stl_binary(const char *path, const unsigned char *b, size_t size,
                                  Grow *raw, char *err, size_t err_size)
{
    uint32_t n = le32(b + 80);
    if (n == 0) {
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s: binary STL with 0 triangles",
                          path);
    }
    if (n > (uint32_t)DST_MESH_MAX_ELEMENTS / 3) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s: binary STL declares %lu triangles: absurd size", path,
                          (unsigned long)n);
    }
    (void)size;
    for (uint32_t t = 0; t < n; ++t) {
        const unsigned char *f = b + 84 + 50 * (size_t)t;
        for (int k = 0; k < 3; ++k) {
            double *v = grow_push(raw);
            if (v == NULL) return mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
            for (int c = 0; c < 3; ++c) {
                v[c] = lef32(f + 12 + 12 * k + 4 * c);
                if (!isfinite(v[c]) || fabs(v[c]) > DST_MESH_MAX_COORD) {
                    return mesh_error(DST_INVALID_INPUT, err, err_size,
                                      "%s: facet %lu vertex %d: coordinate %g is %s", path,
                                      (unsigned long)t + 1, k + 1, v[c],
                                      isfinite(v[c]) ? "absurd (wrong units?)"
                                                     : "not a finite number");
                }
            }
        }
    }
    return DST_OK;
}

/* a tokenizer over ASCII STL that keeps the line number. */
typedef struct Lex {
    const char *p, *end;
    int line;
    const char *tok;
    size_t len;
    int tok_line;
} Lex;

static int lex_next(Lex *lx)
{
    while (lx->p < lx->end && (isspace((unsigned char)*lx->p) || *lx->p == '\0')) {
        if (*lx->p == '\n') ++lx->line;
        ++lx->p;
    }
    if (lx->p >= lx->end) {
        lx->tok = NULL;
        lx->len = 0;
        return 0;
    }
    lx->tok = lx->p;
    lx->tok_line = lx->line;
    while (lx->p < lx->end && !isspace((unsigned char)*lx->p) && *lx->p != '\0') ++lx->p;
    lx->len = (size_t)(lx->p - lx->tok);
    return 1;
}

static int lex_is(const Lex *lx, const char *word)
{
    return lx->tok != NULL && strlen(word) == lx->len && strncasecmp(lx->tok, word, lx->len) == 0;
}

/* expects the next token to be `word`. */
static DstStatus lex_expect(Lex *lx, const char *word, const char *path, char *err,
                            size_t err_size)
{
    if (!lex_next(lx)) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s:%d: unexpected end of file, expected '%s' (truncated?)", path,
                          lx->tok_line, word);
    }
    if (!lex_is(lx, word)) {
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s:%d: expected '%s', found '%.*s'",
                          path, lx->tok_line, word, (int)(lx->len > 32 ? 32 : lx->len), lx->tok);
    }
    return DST_OK;
}

/* reads one number token (finite, sane unless `any`). */
static DstStatus lex_number(Lex *lx, double *x, int any, const char *path, char *err,
                            size_t err_size)
{
    char tmp[64];
    char *after;
    if (!lex_next(lx)) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s:%d: unexpected end of file, expected a number (truncated?)", path,
                          lx->tok_line);
    }
    if (lx->len >= sizeof tmp) {
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s:%d: number too long", path,
                          lx->tok_line);
    }
    memcpy(tmp, lx->tok, lx->len);
    tmp[lx->len] = '\0';
    *x = strtod(tmp, &after);
    if (after == tmp || *after != '\0') {
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s:%d: '%s' is not a number", path,
                          lx->tok_line, tmp);
    }
    return any ? DST_OK : check_coord(*x, path, lx->tok_line, err, err_size);
}

/* ASCII STL; polygons with more than three vertices are fan-triangulated. */
static DstStatus parse_stl_ascii(const char *path, const char *buf, size_t size, Grow *raw,
                                 char *err, size_t err_size)
{
    Lex lx = {buf, buf + size, 1, NULL, 0, 1};
    DstStatus st;
    Grow loop = {NULL, 0, 0, 3 * sizeof(double)};
    size_t facets = 0;

    lex_next(&lx);  /* "solid" (checked by the caller) */
    /* the solid's name runs to the end of its line */
    while (lx.p < lx.end && *lx.p != '\n') ++lx.p;
    for (;;) {
        if (!lex_next(&lx)) {
            st = mesh_error(DST_INVALID_INPUT, err, err_size,
                            "%s:%d: unexpected end of file, expected 'facet' or 'endsolid' "
                            "(truncated?)", path, lx.tok_line);
            break;
        }
        if (lex_is(&lx, "endsolid")) {
            st = DST_OK;
            break;
        }
        if (!lex_is(&lx, "facet")) {
            st = mesh_error(DST_INVALID_INPUT, err, err_size,
                            "%s:%d: expected 'facet' or 'endsolid', found '%.*s'", path,
                            lx.tok_line, (int)(lx.len > 32 ? 32 : lx.len), lx.tok);
            break;
        }
        double nrm;
        if ((st = lex_expect(&lx, "normal", path, err, err_size)) != DST_OK) break;
        for (int c = 0; c < 3 && st == DST_OK; ++c) st = lex_number(&lx, &nrm, 1, path, err, err_size);
        if (st != DST_OK) break;
        if ((st = lex_expect(&lx, "outer", path, err, err_size)) != DST_OK) break;
        if ((st = lex_expect(&lx, "loop", path, err, err_size)) != DST_OK) break;
        loop.count = 0;
        int loop_line = lx.tok_line;
        for (;;) {
            if (!lex_next(&lx)) {
                st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                "%s:%d: unexpected end of file inside a facet (truncated?)",
                                path, lx.tok_line);
                break;
            }
            if (lex_is(&lx, "endloop")) break;
            if (!lex_is(&lx, "vertex")) {
                st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                "%s:%d: expected 'vertex' or 'endloop', found '%.*s'", path,
                                lx.tok_line, (int)(lx.len > 32 ? 32 : lx.len), lx.tok);
                break;
            }
            double *v = grow_push(&loop);
            if (v == NULL) {
                st = mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
                break;
            }
            for (int c = 0; c < 3 && st == DST_OK; ++c) {
                st = lex_number(&lx, &v[c], 0, path, err, err_size);
            }
            if (st != DST_OK) break;
        }
        if (st != DST_OK) break;
        if (loop.count < 3) {
            st = mesh_error(DST_INVALID_INPUT, err, err_size,
                            "%s:%d: facet has %zu vertices, needs at least 3", path, loop_line,
                            loop.count);
            break;
        }
        if ((st = lex_expect(&lx, "endfacet", path, err, err_size)) != DST_OK) break;
        const double (*lv)[3] = loop.data;
        for (size_t k = 1; k + 1 < loop.count && st == DST_OK; ++k) {
            const size_t pick[3] = {0, k, k + 1};
            if (raw->count / 3 >= (size_t)DST_MESH_MAX_ELEMENTS) {
                st = mesh_error(DST_INVALID_INPUT, err, err_size,
                                "%s:%d: more than %d triangles: absurd size", path, lx.tok_line,
                                DST_MESH_MAX_ELEMENTS);
                break;
            }
            for (int c = 0; c < 3; ++c) {
                double *v = grow_push(raw);
                if (v == NULL) {
                    st = mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
                    break;
                }
                memcpy(v, lv[pick[c]], sizeof(double[3]));
            }
        }
        if (st != DST_OK) break;
        ++facets;
    }
    free(loop.data);
    if (st == DST_OK && facets == 0) {
        st = mesh_error(DST_INVALID_INPUT, err, err_size, "%s: ASCII STL with no facets", path);
    }
    return st;
}

/* orders raw vertex indices by their coordinates (lexicographic x, y, z). */
typedef struct WeldKey {
    const double *v;
    int index;
} WeldKey;

static int weld_cmp(const void *a, const void *b)
{
    const WeldKey *ka = a, *kb = b;
    for (int c = 0; c < 3; ++c) {
        if (ka->v[c] < kb->v[c]) return -1;
        if (ka->v[c] > kb->v[c]) return 1;
    }
    return (ka->index > kb->index) - (ka->index < kb->index);
}

/* STL facets come as three vertex copies each: merge exactly equal coordinates into one
 * vertex, keeping the order of first appearance so the result is deterministic. */
static DstStatus weld(const Grow *raw, DstMesh *mesh, const char *path, char *err,
                      size_t err_size)
{
    size_t n = raw->count;
    const double (*rv)[3] = raw->data;
    WeldKey *keys = malloc(n * sizeof *keys);
    int *uniq = malloc(n * sizeof *uniq);   /* raw index -> representative raw index */
    int *newid = malloc(n * sizeof *newid); /* raw index -> welded vertex index, or -1 */
    int nv = 0;
    if (keys == NULL || uniq == NULL || newid == NULL) {
        free(keys);
        free(uniq);
        free(newid);
        return mesh_error(DST_FAILED, err, err_size, "%s: out of memory welding vertices", path);
    }
    for (size_t i = 0; i < n; ++i) {
        keys[i].v = rv[i];
        keys[i].index = (int)i;
        newid[i] = -1;
    }
    qsort(keys, n, sizeof *keys, weld_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        /* the first of a run of equal points has the smallest raw index (tie order) */
        while (j < n && keys[j].v[0] == keys[i].v[0] &&
               keys[j].v[1] == keys[i].v[1] && keys[j].v[2] == keys[i].v[2]) {
            uniq[keys[j].index] = keys[i].index;
            ++j;
        }
        i = j;
    }
    mesh->vertices = malloc((n ? n : 1) * sizeof *mesh->vertices);
    mesh->triangles = malloc((n / 3 ? n / 3 : 1) * sizeof *mesh->triangles);
    if (mesh->vertices == NULL || mesh->triangles == NULL) {
        free(keys);
        free(uniq);
        free(newid);
        return mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
    }
    for (size_t i = 0; i < n; ++i) {
        int r = uniq[i];
        if (newid[r] < 0) {
            newid[r] = nv;
            memcpy(mesh->vertices[nv], rv[r], sizeof(double[3]));
            ++nv;
        }
        mesh->triangles[i / 3][i % 3] = newid[r];
    }
    mesh->n_vertices = nv;
    mesh->n_triangles = (int)(n / 3);
    free(keys);
    free(uniq);
    free(newid);
    return DST_OK;
}

/* ---- public ------------------------------------------------------------------------- */

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

void dst_mesh_destroy(DstMesh *mesh)
{
    if (mesh == NULL) return;
    free(mesh->vertices);
    free(mesh->triangles);
    memset(mesh, 0, sizeof *mesh);
}

/* Mesh file reader: OBJ or STL by extension, see the header for the accepted forms. */
DstStatus dst_mesh_create_from_file(const char *path, DstMesh *mesh, char *err,
                                    size_t err_size)
{
    char *buf;
    size_t size;
    DstStatus st;
    Grow verts = {NULL, 0, 0, 3 * sizeof(double)};
    Grow faces = {NULL, 0, 0, sizeof(ObjFace)};

    memset(mesh, 0, sizeof *mesh);
    if (path == NULL) return mesh_error(DST_INVALID_INPUT, err, err_size, "(null): no mesh path");
    int is_obj = has_suffix(path, ".obj"), is_stl = has_suffix(path, ".stl");
    if (!is_obj && !is_stl) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "%s: unknown mesh format (expected a .obj or .stl file)", path);
    }
    st = read_all(path, &buf, &size, err, err_size);
    if (st != DST_OK) return st;
    if (size == 0) {
        free(buf);
        return mesh_error(DST_INVALID_INPUT, err, err_size, "%s: empty file", path);
    }

    if (is_obj) {
        st = parse_obj(path, buf, size, &verts, &faces, err, err_size);
        if (st == DST_OK && faces.count == 0) {
            st = mesh_error(DST_INVALID_INPUT, err, err_size, "%s: no faces ('f' lines)", path);
        }
        if (st == DST_OK) {
            mesh->vertices = verts.data;
            verts.data = NULL;
            mesh->n_vertices = (int)verts.count;
            mesh->triangles = malloc(faces.count * sizeof *mesh->triangles);
            if (mesh->triangles == NULL) {
                st = mesh_error(DST_FAILED, err, err_size, "%s: out of memory", path);
            } else {
                for (size_t i = 0; i < faces.count; ++i) {
                    memcpy(mesh->triangles[i], ((ObjFace *)faces.data)[i].v, sizeof(int[3]));
                }
                mesh->n_triangles = (int)faces.count;
            }
        }
    } else {
        const unsigned char *b = (const unsigned char *)buf;
        const char *q = buf;
        while (q < buf + size && isspace((unsigned char)*q)) ++q;
        int binary_size_ok = size >= 84 && (uint64_t)84 + 50 * (uint64_t)le32(b + 80) == size;
        if (binary_size_ok) {
            st = parse_stl_binary(path, b, size, &verts, err, err_size);
        } else if ((size_t)(buf + size - q) >= 5 && strncasecmp(q, "solid", 5) == 0 &&
                   memchr(buf, '\0', size) == NULL) {
            st = parse_stl_ascii(path, buf, size, &verts, err, err_size);
        } else if (size < 84) {
            st = mesh_error(DST_INVALID_INPUT, err, err_size,
                            "%s: truncated: %zu bytes, shorter than a binary STL header (84) "
                            "and not ASCII STL", path, size);
        } else {
            st = mesh_error(DST_INVALID_INPUT, err, err_size,
                            "%s: truncated or padded binary STL: header declares %lu "
                            "triangles (%llu bytes), file has %zu bytes", path,
                            (unsigned long)le32(b + 80),
                            (unsigned long long)(84 + 50 * (uint64_t)le32(b + 80)), size);
        }
        if (st == DST_OK) st = weld(&verts, mesh, path, err, err_size);
    }
    free(buf);
    free(verts.data);
    free(faces.data);
    if (st != DST_OK) dst_mesh_destroy(mesh);
    return st;
}

/* Mesh from caller arrays, copied and range-checked. */
DstStatus dst_mesh_create(const double *vertices, int n_vertices, const int *triangles,
                          int n_triangles, DstMesh *mesh, char *err, size_t err_size)
{
    memset(mesh, 0, sizeof *mesh);
    if (vertices == NULL || triangles == NULL || n_vertices < 3 || n_triangles < 1) {
        return mesh_error(DST_INVALID_INPUT, err, err_size,
                          "mesh: needs at least 3 vertices and 1 triangle (got %d and %d)",
                          n_vertices, n_triangles);
    }
    if (n_vertices > DST_MESH_MAX_ELEMENTS || n_triangles > DST_MESH_MAX_ELEMENTS) {
        return mesh_error(DST_INVALID_INPUT, err, err_size, "mesh: absurd size (%d, %d)",
                          n_vertices, n_triangles);
    }
    for (int i = 0; i < 3 * n_vertices; ++i) {
        if (!isfinite(vertices[i]) || fabs(vertices[i]) > DST_MESH_MAX_COORD) {
            return mesh_error(DST_INVALID_INPUT, err, err_size,
                              "vertices[%d][%d]: %g is not a finite coordinate of sane size",
                              i / 3, i % 3, vertices[i]);
        }
    }
    for (int i = 0; i < 3 * n_triangles; ++i) {
        if (triangles[i] < 0 || triangles[i] >= n_vertices) {
            return mesh_error(DST_INVALID_INPUT, err, err_size,
                              "triangles[%d][%d]: index %d out of range (%d vertices)", i / 3,
                              i % 3, triangles[i], n_vertices);
        }
    }
    mesh->vertices = malloc((size_t)n_vertices * sizeof *mesh->vertices);
    mesh->triangles = malloc((size_t)n_triangles * sizeof *mesh->triangles);
    if (mesh->vertices == NULL || mesh->triangles == NULL) {
        dst_mesh_destroy(mesh);
        return mesh_error(DST_FAILED, err, err_size, "mesh: out of memory");
    }
    memcpy(mesh->vertices, vertices, (size_t)n_vertices * sizeof *mesh->vertices);
    memcpy(mesh->triangles, triangles, (size_t)n_triangles * sizeof *mesh->triangles);
    mesh->n_vertices = n_vertices;
    mesh->n_triangles = n_triangles;
    return DST_OK;
}

/* an undirected edge seen from one triangle: endpoints sorted, direction kept. */
typedef struct HalfEdge {
    int lo, hi;
    int forward;  /* 1 when the triangle runs lo -> hi */
} HalfEdge;

static int half_edge_cmp(const void *a, const void *b)
{
    const HalfEdge *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return x->forward - y->forward;
}

/* Topology by sorted half-edges; volume by the divergence theorem, sum of signed
 * tetrahedra (0, a, b, c): V = sum a . (b x c) / 6. */
DstStatus dst_mesh_validate(const DstMesh *mesh, DstMeshReport *report)
{
    HalfEdge *edges;
    unsigned char *used;
    size_t ne = 0;
    double diag2 = 0.0;

    memset(report, 0, sizeof *report);
    if (mesh->n_vertices <= 0 || mesh->n_triangles <= 0) return DST_OK;
    /* a mesh assembled by hand may hold bad indices: refuse rather than read outside */
    for (int t = 0; t < mesh->n_triangles; ++t) {
        for (int k = 0; k < 3; ++k) {
            if (mesh->triangles[t][k] < 0 || mesh->triangles[t][k] >= mesh->n_vertices) {
                return DST_INVALID_INPUT;
            }
        }
    }
    edges = malloc(3 * (size_t)mesh->n_triangles * sizeof *edges);
    used = calloc((size_t)mesh->n_vertices, 1);
    if (edges == NULL || used == NULL) {
        free(edges);
        free(used);
        return DST_FAILED;
    }

    /* bounding box, for the scale of "degenerate" */
    for (int c = 0; c < 3; ++c) {
        report->bbox_min[c] = report->bbox_max[c] = mesh->vertices[0][c];
    }
    for (int i = 1; i < mesh->n_vertices; ++i) {
        for (int c = 0; c < 3; ++c) {
            report->bbox_min[c] = fmin(report->bbox_min[c], mesh->vertices[i][c]);
            report->bbox_max[c] = fmax(report->bbox_max[c], mesh->vertices[i][c]);
        }
    }
    for (int c = 0; c < 3; ++c) {
        double d = report->bbox_max[c] - report->bbox_min[c];
        diag2 += d * d;
    }

    /* triangles: area, volume, degenerate ones, half-edges */
    for (int t = 0; t < mesh->n_triangles; ++t) {
        const int *ix = mesh->triangles[t];
        const double *a = mesh->vertices[ix[0]], *b = mesh->vertices[ix[1]],
                     *c = mesh->vertices[ix[2]];
        double u[3], v[3], n[3], area;
        for (int k = 0; k < 3; ++k) {
            u[k] = b[k] - a[k];
            v[k] = c[k] - a[k];
            used[ix[k]] = 1;
        }
        n[0] = u[1] * v[2] - u[2] * v[1];
        n[1] = u[2] * v[0] - u[0] * v[2];
        n[2] = u[0] * v[1] - u[1] * v[0];
        area = 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        report->area += area;
        report->volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) +
                           a[1] * (b[2] * c[0] - b[0] * c[2]) +
                           a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
        if (ix[0] == ix[1] || ix[1] == ix[2] || ix[0] == ix[2]) {
            ++report->n_degenerate;
            continue;  /* a collapsed triangle has no proper edges */
        }
        if (area <= DST_MESH_DEGENERATE_REL * diag2) ++report->n_degenerate;
        for (int k = 0; k < 3; ++k) {
            int p = ix[k], q = ix[(k + 1) % 3];
            edges[ne].lo = p < q ? p : q;
            edges[ne].hi = p < q ? q : p;
            edges[ne].forward = p < q;
            ++ne;
        }
    }
    for (int i = 0; i < mesh->n_vertices; ++i) report->n_unused_vertices += !used[i];

    /* edges: group equal (lo, hi); 1 use = open, 2 = manifold, 3+ = non-manifold */
    qsort(edges, ne, sizeof *edges, half_edge_cmp);
    for (size_t i = 0; i < ne;) {
        size_t j = i + 1;
        while (j < ne && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) ++j;
        if (j - i == 1) {
            ++report->n_open_edges;
        } else if (j - i == 2) {
            if (edges[i].forward == edges[i + 1].forward) ++report->n_inconsistent_edges;
        } else {
            ++report->n_nonmanifold_edges;
        }
        i = j;
    }
    report->closed = report->n_open_edges == 0 && report->n_nonmanifold_edges == 0;
    report->oriented = report->closed && report->n_inconsistent_edges == 0;
    free(edges);
    free(used);
    return DST_OK;
}
