/* pln_urdf.c — URDF import and export (model/pln_urdf.h, docs/URDF.md).
 *
 * Import walks the libxml2 tree once into plain records (UrdfLink, UrdfJoint), checks the
 * tree (one root, one parent joint per link, no cycle), then builds the model in
 * topological order exactly as the YAML loader does (root first, then depth first in the
 * file's order of joints), so that both formats give the same model for the same robot. */
#define _DEFAULT_SOURCE  /* realpath */
#include "model/pln_urdf.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "base/pln_file.h"
#include "base/pln_tolerance.h"
#include "model/pln_capfit.h"
#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"

#define INVALID PLN_ERR_INVALID

typedef enum GeomType { G_BOX, G_CYLINDER, G_SPHERE, G_CAPSULE, G_MESH } GeomType;

typedef struct UrdfGeom {
    GeomType type;
    double pos[3], rot[9];   /* the collision origin in the link frame */
    double size[3];          /* box: full sizes */
    double radius, length;   /* cylinder, sphere, capsule */
    double scale[3];         /* mesh */
    char path[PATH_MAX];     /* mesh: resolved file */
    long line;
} UrdfGeom;

typedef struct UrdfLink {
    char name[PLN_NAME_MAX];
    long line;
    double mass, com[3], inertia[9];
    UrdfGeom *geoms;
    int n_geoms, cap_geoms;
    int parent_joint;        /* index into joints, -1 for the root */
    int has_capsule_ext;     /* <hrpplan><capsule link=...> */
    double cap_p0[3], cap_p1[3], cap_r;
    int has_ellipsoid;
    double ell_center[3], ell_rot[9], ell_radii[3];
    char convex_path[PATH_MAX];
} UrdfLink;

typedef struct UrdfJoint {
    char name[PLN_NAME_MAX];
    long line;
    int fixed;               /* 1: fixed, 0: revolute, continuous or prismatic */
    int prismatic;           /* 1: prismatic (limits m, velocity m/s, effort N) */
    int parent, child;       /* link indices */
    double pos[3], rot[9], axis[3];
    double lower, upper, velocity, effort;
    int has_initial;
    double initial;
} UrdfJoint;

typedef struct Ctx {
    const char *path;
    char dir[PATH_MAX];
    const PlnUrdfOptions *opt;
    char *err;
    size_t err_size;
    UrdfLink *links;
    int n_links, cap_links;
    UrdfJoint *joints;
    int n_joints, cap_joints;
    /* from <hrpplan> */
    double control_period;
    double base_pos[3], base_rot[9];
    int n_soles;
    struct { char link[PLN_NAME_MAX]; double size[2], offset[3]; long line; } soles[PLN_ROBOT_MAX_SOLES];
    int n_pairs, cap_pairs;
    struct UrdfPair { char a[PLN_NAME_MAX], b[PLN_NAME_MAX]; long line; } *pairs;
    /* names already warned about, so that each unknown element is reported once */
    char warned[32][48];
    int n_warned;
} Ctx;

static PlnStatus fail(const Ctx *c, const xmlNode *n, PlnStatus st, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n != NULL) return pln_errorf(st, c->err, c->err_size, "%s:%ld: %s", c->path, xmlGetLineNo(n), msg);
    return pln_errorf(st, c->err, c->err_size, "%s: %s", c->path, msg);
}

static void warn(Ctx *c, const xmlNode *n, const char *fmt, ...)
{
    FILE *w = c->opt != NULL ? c->opt->warnings : stderr;
    va_list ap;
    if (w == NULL) return;
    fprintf(w, "%s:%ld: warning: ", c->path, n != NULL ? xmlGetLineNo(n) : 0L);
    va_start(ap, fmt);
    vfprintf(w, fmt, ap);
    va_end(ap);
    fputc('\n', w);
}

/* Warns once per element name about an element that is not read. */
static void warn_ignored(Ctx *c, const xmlNode *n, const char *where, const char *why)
{
    char key[48];
    snprintf(key, sizeof key, "%s/%s", where, (const char *)n->name);
    for (int i = 0; i < c->n_warned; ++i) {
        if (strcmp(c->warned[i], key) == 0) return;
    }
    if (c->n_warned < 32) snprintf(c->warned[c->n_warned++], sizeof c->warned[0], "%s", key);
    warn(c, n, "<%s> in %s ignored: %s", (const char *)n->name, where, why);
}

static int is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The attribute as a C string in buf (empty and 0 when absent). */
static int attr(const xmlNode *n, const char *name, char *buf, size_t size)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    if (v == NULL) {
        buf[0] = '\0';
        return 0;
    }
    snprintf(buf, size, "%s", (const char *)v);
    xmlFree(v);
    return 1;
}

/* A required name attribute that fits the model's names. */
static PlnStatus name_attr(const Ctx *c, const xmlNode *n, const char *what, const char *key,
                           char out[PLN_NAME_MAX])
{
    char buf[1024];
    if (!attr(n, key, buf, sizeof buf) || buf[0] == '\0') {
        return fail(c, n, INVALID, "%s: missing attribute '%s'", what, key);
    }
    if (strlen(buf) >= PLN_NAME_MAX) {
        return fail(c, n, INVALID, "%s: %s '%s' is longer than %d characters", what, key, buf,
                    PLN_NAME_MAX - 1);
    }
    memcpy(out, buf, strlen(buf) + 1);
    return PLN_OK;
}

/* Exactly `count` finite numbers, space separated, each |x| <= bound. Absent: 0 with
 * *present = 0 (when present is not NULL; else an error). */
static PlnStatus numbers(const Ctx *c, const xmlNode *n, const char *what, const char *key,
                         int count, double bound, double *out, int *present)
{
    char buf[1024], *s, *end;
    int k = 0;
    if (!attr(n, key, buf, sizeof buf)) {
        if (present != NULL) {
            *present = 0;
            return PLN_OK;
        }
        return fail(c, n, INVALID, "%s: missing attribute '%s'", what, key);
    }
    if (present != NULL) *present = 1;
    s = buf;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') ++s;
        if (*s == '\0') break;
        if (k == count) return fail(c, n, INVALID, "%s %s=\"%s\": more than %d numbers", what, key, buf, count);
        errno = 0;
        out[k] = strtod(s, &end);
        if (end == s || (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')) {
            return fail(c, n, INVALID, "%s %s=\"%s\": not a number", what, key, buf);
        }
        if (!isfinite(out[k]) || fabs(out[k]) > bound) {
            return fail(c, n, INVALID, "%s %s=\"%s\": %g is %s", what, key, buf, out[k],
                        isfinite(out[k]) ? "out of range" : "not finite");
        }
        ++k;
        s = end;
    }
    if (k != count) return fail(c, n, INVALID, "%s %s=\"%s\": expected %d number%s, found %d", what, key, buf, count, count > 1 ? "s" : "", k);
    return PLN_OK;
}

static void identity(double R[9])
{
    for (int i = 0; i < 9; ++i) R[i] = (i % 4 == 0) ? 1.0 : 0.0;
}

/* <origin xyz rpy>, both optional (0). */
static PlnStatus origin(const Ctx *c, const xmlNode *parent, const char *what, double bound,
                        double pos[3], double R[9])
{
    double rpy[3] = {0, 0, 0};
    int seen = 0;
    pos[0] = pos[1] = pos[2] = 0.0;
    identity(R);
    for (const xmlNode *o = parent->children; o != NULL; o = o->next) {
        char sub[160];
        int present;
        PlnStatus st;
        if (!is(o, "origin")) continue;
        if (seen++) return fail(c, o, INVALID, "%s: a second <origin>", what);
        snprintf(sub, sizeof sub, "%s <origin>", what);
        if ((st = numbers(c, o, sub, "xyz", 3, bound, pos, &present)) != PLN_OK) return st;
        if ((st = numbers(c, o, sub, "rpy", 3, PLN_MAX_RPY_RAD, rpy, &present)) != PLN_OK) return st;
        pln_kin_rpy_to_matrix(rpy, R);
    }
    return PLN_OK;
}

/* One child element `name` (NULL when absent); a second one is an error. */
static PlnStatus child(const Ctx *c, const xmlNode *n, const char *what, const char *name,
                       const xmlNode **out)
{
    *out = NULL;
    for (const xmlNode *k = n->children; k != NULL; k = k->next) {
        if (!is(k, name)) continue;
        if (*out != NULL) return fail(c, k, INVALID, "%s: a second <%s>", what, name);
        *out = k;
    }
    return PLN_OK;
}

static int has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* package://pkg/rest in one directory list (see the header). */
static int find_in_dirs(const char *dirs, const char *pkg, const char *rest, char *out, size_t size)
{
    const char *s = dirs;
    while (s != NULL && *s != '\0') {
        const char *e = strchr(s, ':');
        size_t len = e != NULL ? (size_t)(e - s) : strlen(s);
        char d[PATH_MAX];
        if (len > 0 && len < sizeof d) {
            const char *base;
            memcpy(d, s, len);
            d[len] = '\0';
            while (len > 1 && d[len - 1] == '/') d[--len] = '\0';
            base = strrchr(d, '/');
            base = base != NULL ? base + 1 : d;
            if ((size_t)snprintf(out, size, "%s/%s/%s", d, pkg, rest) < size && is_file(out)) return 1;
            if (strcmp(base, pkg) == 0 && (size_t)snprintf(out, size, "%s/%s", d, rest) < size && is_file(out)) return 1;
            {
                DIR *dp = opendir(d);
                struct dirent *de;
                int found = 0;
                while (dp != NULL && !found && (de = readdir(dp)) != NULL) {
                    if (de->d_name[0] == '.') continue;
                    if ((size_t)snprintf(out, size, "%s/%s/%s/%s", d, de->d_name, pkg, rest) < size && is_file(out)) found = 1;
                }
                if (dp != NULL) closedir(dp);
                if (found) return 1;
            }
        }
        s = e != NULL ? e + 1 : NULL;
    }
    return 0;
}

static PlnStatus resolve_filename(const Ctx *c, const xmlNode *n, const char *what,
                                  const char *name, char *out, size_t size)
{
    if (has_prefix(name, "package://")) {
        const char *p = name + strlen("package://"), *slash = strchr(p, '/');
        char pkg[256];
        const char *env = getenv("ROS_PACKAGE_PATH");
        if (slash == NULL || slash == p || (size_t)(slash - p) >= sizeof pkg) {
            return fail(c, n, INVALID, "%s: '%s' is not package://<package>/<path>", what, name);
        }
        memcpy(pkg, p, (size_t)(slash - p));
        pkg[slash - p] = '\0';
        if (c->opt != NULL && c->opt->package_path != NULL &&
            find_in_dirs(c->opt->package_path, pkg, slash + 1, out, size)) {
            return PLN_OK;
        }
        if (env != NULL && find_in_dirs(env, pkg, slash + 1, out, size)) return PLN_OK;
        return fail(c, n, INVALID,
                    "%s: '%s' not found: package '%s' is in no directory of --package-path "
                    "(%s) or ROS_PACKAGE_PATH (%s)",
                    what, name, pkg,
                    c->opt != NULL && c->opt->package_path != NULL ? c->opt->package_path : "unset",
                    env != NULL ? env : "unset");
    }
    if (has_prefix(name, "file://")) name += strlen("file://");
    if (has_prefix(name, "http://") || has_prefix(name, "https://")) {
        return fail(c, n, INVALID, "%s: '%s': hrpplan reads no URL (download the mesh)", what, name);
    }
    if (name[0] == '/' || c->dir[0] == '\0') {
        if ((size_t)snprintf(out, size, "%s", name) >= size) return fail(c, n, INVALID, "%s: path too long", what);
    } else if ((size_t)snprintf(out, size, "%s/%s", c->dir, name) >= size) {
        return fail(c, n, INVALID, "%s: path too long", what);
    }
    if (!is_file(out)) return fail(c, n, INVALID, "%s: mesh file '%s' not found (looked for %s)", what, name, out);
    return PLN_OK;
}

/* <collision><origin/><geometry>one shape</geometry></collision> */
static PlnStatus read_collision(Ctx *c, const xmlNode *n, UrdfLink *l, int index)
{
    char what[PLN_NAME_MAX + 64], sub[PLN_NAME_MAX + 96];
    const xmlNode *g, *shape = NULL;
    UrdfGeom geo;
    PlnStatus st;
    int present;
    memset(&geo, 0, sizeof geo);
    geo.line = xmlGetLineNo(n);
    snprintf(what, sizeof what, "link '%s' <collision> %d", l->name, index);
    if ((st = origin(c, n, what, PLN_MAX_BODY_M, geo.pos, geo.rot)) != PLN_OK) return st;
    if ((st = child(c, n, what, "geometry", &g)) != PLN_OK) return st;
    if (g == NULL) return fail(c, n, INVALID, "%s: no <geometry>", what);
    for (const xmlNode *k = g->children; k != NULL; k = k->next) {
        if (k->type != XML_ELEMENT_NODE) continue;
        if (shape != NULL) return fail(c, k, INVALID, "%s <geometry>: more than one shape (<%s> and <%s>)", what, (const char *)shape->name, (const char *)k->name);
        shape = k;
    }
    if (shape == NULL) return fail(c, g, INVALID, "%s <geometry>: no shape", what);
    snprintf(sub, sizeof sub, "%s <%s>", what, (const char *)shape->name);
    if (is(shape, "box")) {
        geo.type = G_BOX;
        if ((st = numbers(c, shape, sub, "size", 3, PLN_MAX_BODY_M, geo.size, NULL)) != PLN_OK) return st;
        for (int k = 0; k < 3; ++k) {
            if (!(geo.size[k] > 0.0)) return fail(c, shape, INVALID, "%s size: must be > 0 (metres), found %g", sub, geo.size[k]);
        }
    } else if (is(shape, "cylinder") || is(shape, "capsule")) {
        geo.type = is(shape, "cylinder") ? G_CYLINDER : G_CAPSULE;
        if ((st = numbers(c, shape, sub, "radius", 1, PLN_MAX_BODY_M, &geo.radius, NULL)) != PLN_OK) return st;
        if ((st = numbers(c, shape, sub, "length", 1, PLN_MAX_BODY_M, &geo.length, NULL)) != PLN_OK) return st;
        if (!(geo.radius > 0.0)) return fail(c, shape, INVALID, "%s radius: must be > 0 (metres), found %g", sub, geo.radius);
        if (geo.type == G_CYLINDER && !(geo.length > 0.0)) {
            /* a disc encloses no volume: its mesh would be a flat prism */
            return fail(c, shape, INVALID, "%s length: must be > 0 (metres), found %g", sub, geo.length);
        }
        if (!(geo.length >= 0.0)) return fail(c, shape, INVALID, "%s length: must be >= 0 (metres), found %g", sub, geo.length);
    } else if (is(shape, "sphere")) {
        geo.type = G_SPHERE;
        if ((st = numbers(c, shape, sub, "radius", 1, PLN_MAX_BODY_M, &geo.radius, NULL)) != PLN_OK) return st;
        if (!(geo.radius > 0.0)) return fail(c, shape, INVALID, "%s radius: must be > 0 (metres), found %g", sub, geo.radius);
    } else if (is(shape, "mesh")) {
        char fname[PATH_MAX];
        geo.type = G_MESH;
        if (!attr(shape, "filename", fname, sizeof fname) || fname[0] == '\0') {
            return fail(c, shape, INVALID, "%s: missing attribute 'filename'", sub);
        }
        if ((st = numbers(c, shape, sub, "scale", 3, PLN_MAX_NUMBER_ABS, geo.scale, &present)) != PLN_OK) return st;
        if (!present) geo.scale[0] = geo.scale[1] = geo.scale[2] = 1.0;
        for (int k = 0; k < 3; ++k) {
            if (!(geo.scale[k] > 0.0)) return fail(c, shape, INVALID, "%s scale: must be > 0, found %g (a mirrored mesh turns inside out)", sub, geo.scale[k]);
        }
        if ((st = resolve_filename(c, shape, sub, fname, geo.path, sizeof geo.path)) != PLN_OK) return st;
        if (!pln_mesh_format_supported(geo.path)) {
            return fail(c, shape, INVALID, "%s: '%s': hrpplan reads STL, OBJ, Collada (.dae), PLY "
                        "and OFF meshes; convert this one (e.g. with meshlab or assimp export)", sub, fname);
        }
    } else {
        return fail(c, shape, INVALID, "%s: unknown shape (box, cylinder, sphere, capsule or mesh)", sub);
    }
    if (l->n_geoms == l->cap_geoms) {
        int cap = l->cap_geoms > 0 ? 2 * l->cap_geoms : 2;
        UrdfGeom *p = realloc(l->geoms, (size_t)cap * sizeof *p);
        if (p == NULL) return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
        l->geoms = p;
        l->cap_geoms = cap;
    }
    l->geoms[l->n_geoms++] = geo;
    return PLN_OK;
}

/* Symmetric, and positive semidefinite within rounding (Sylvester on the shifted matrix). */
static const char *inertia_problem(const double I[9])
{
    double s = 0.0, e[9];
    for (int k = 0; k < 9; ++k) s = fmax(s, fabs(I[k]));
    if (s == 0.0) return NULL;
    for (int a = 0; a < 3; ++a) {
        for (int b = a + 1; b < 3; ++b) {
            if (fabs(I[3 * a + b] - I[3 * b + a]) > PLN_ROBOT_INERTIA_SYM_TOL * s) return "must be symmetric";
        }
    }
    /* I + tol s Id positive definite <=> I >= -tol s */
    memcpy(e, I, sizeof e);
    for (int k = 0; k < 3; ++k) e[4 * k] += 1e-9 * s;
    if (!(e[0] > 0.0)) return "must be positive semidefinite";
    if (!(e[0] * e[4] - e[1] * e[3] > 0.0)) return "must be positive semidefinite";
    {
        double det = e[0] * (e[4] * e[8] - e[5] * e[7]) - e[1] * (e[3] * e[8] - e[5] * e[6]) +
                     e[2] * (e[3] * e[7] - e[4] * e[6]);
        if (!(det > 0.0)) return "must be positive semidefinite";
    }
    return NULL;
}

static PlnStatus read_inertial(Ctx *c, const xmlNode *n, UrdfLink *l)
{
    char what[PLN_NAME_MAX + 40];
    const xmlNode *m, *in;
    double R[9], Ii[9], v[6];
    PlnStatus st;
    static const char *const keys[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    snprintf(what, sizeof what, "link '%s' <inertial>", l->name);
    if ((st = origin(c, n, what, PLN_MAX_BODY_M, l->com, R)) != PLN_OK) return st;
    if ((st = child(c, n, what, "mass", &m)) != PLN_OK) return st;
    if (m == NULL) return fail(c, n, INVALID, "%s: no <mass>", what);
    if ((st = numbers(c, m, what, "value", 1, PLN_MAX_NUMBER_ABS, &l->mass, NULL)) != PLN_OK) return st;
    if (!(l->mass >= 0.0)) return fail(c, m, INVALID, "%s <mass> value: must be >= 0 (kg), found %g", what, l->mass);
    if ((st = child(c, n, what, "inertia", &in)) != PLN_OK) return st;
    if (in == NULL) return fail(c, n, INVALID, "%s: no <inertia>", what);
    for (int k = 0; k < 6; ++k) {
        char sub[PLN_NAME_MAX + 60];
        snprintf(sub, sizeof sub, "%s <inertia>", what);
        if ((st = numbers(c, in, sub, keys[k], 1, PLN_MAX_NUMBER_ABS, &v[k], NULL)) != PLN_OK) return st;
    }
    Ii[0] = v[0]; Ii[1] = v[1]; Ii[2] = v[2];
    Ii[3] = v[1]; Ii[4] = v[3]; Ii[5] = v[4];
    Ii[6] = v[2]; Ii[7] = v[4]; Ii[8] = v[5];
    {
        const char *why = inertia_problem(Ii);
        if (why != NULL) return fail(c, in, INVALID, "%s <inertia>: %s", what, why);
    }
    /* about the centre of mass, in the link's axes: I = R Ii R^T */
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            double s = 0.0;
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) s += R[3 * a + i] * Ii[3 * i + j] * R[3 * b + j];
            }
            l->inertia[3 * a + b] = s;
        }
    }
    for (int a = 0; a < 3; ++a) {
        for (int b = a + 1; b < 3; ++b) {
            double s = 0.5 * (l->inertia[3 * a + b] + l->inertia[3 * b + a]);
            l->inertia[3 * a + b] = l->inertia[3 * b + a] = s;
        }
    }
    return PLN_OK;
}

static int find_link(const Ctx *c, const char *name)
{
    for (int i = 0; i < c->n_links; ++i) {
        if (strcmp(c->links[i].name, name) == 0) return i;
    }
    return -1;
}

static PlnStatus read_link(Ctx *c, const xmlNode *n)
{
    UrdfLink *l;
    PlnStatus st;
    const xmlNode *in;
    char name[PLN_NAME_MAX];
    int n_coll = 0;
    if ((st = name_attr(c, n, "<link>", "name", name)) != PLN_OK) return st;
    if (find_link(c, name) >= 0) return fail(c, n, INVALID, "duplicate link name '%s'", name);
    if (c->n_links >= PLN_ROBOT_MAX_LINKS) return fail(c, n, INVALID, "more than %d links", PLN_ROBOT_MAX_LINKS);
    if (c->n_links == c->cap_links) {
        int cap = c->cap_links > 0 ? 2 * c->cap_links : 16;
        UrdfLink *p = realloc(c->links, (size_t)cap * sizeof *p);
        if (p == NULL) return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
        c->links = p;
        c->cap_links = cap;
    }
    l = &c->links[c->n_links++];
    memset(l, 0, sizeof *l);
    memcpy(l->name, name, sizeof l->name);
    l->line = xmlGetLineNo(n);
    l->parent_joint = -1;
    if ((st = child(c, n, "<link>", "inertial", &in)) != PLN_OK) return st;
    if (in != NULL && (st = read_inertial(c, in, l)) != PLN_OK) return st;
    for (const xmlNode *k = n->children; k != NULL; k = k->next) {
        if (k->type != XML_ELEMENT_NODE || is(k, "inertial")) continue;
        if (is(k, "collision")) {
            if ((st = read_collision(c, k, l, n_coll++)) != PLN_OK) return st;
        } else if (!is(k, "visual")) {
            warn_ignored(c, k, "<link>", "not part of URDF's link");
        }
    }
    return PLN_OK;
}

static int find_joint(const Ctx *c, const char *name)
{
    for (int i = 0; i < c->n_joints; ++i) {
        if (strcmp(c->joints[i].name, name) == 0) return i;
    }
    return -1;
}

static PlnStatus read_joint(Ctx *c, const xmlNode *n)
{
    char name[PLN_NAME_MAX], type[64], what[PLN_NAME_MAX + 32], sub[PLN_NAME_MAX + 64];
    const xmlNode *k;
    UrdfJoint *j;
    PlnStatus st;
    int present, continuous;
    if ((st = name_attr(c, n, "<joint>", "name", name)) != PLN_OK) return st;
    snprintf(what, sizeof what, "joint '%s'", name);
    if (find_joint(c, name) >= 0) return fail(c, n, INVALID, "duplicate joint name '%s'", name);
    if (!attr(n, "type", type, sizeof type)) return fail(c, n, INVALID, "%s: missing attribute 'type'", what);
    if (strcmp(type, "floating") == 0 || strcmp(type, "planar") == 0) {
        return fail(c, n, INVALID, "%s: %s joints are not supported: the robot's root link is its "
                    "base (placed by <hrpplan base_xyz base_rpy>), and the floating base of a "
                    "standing robot comes from the scenario's support phases", what, type);
    }
    if (strcmp(type, "revolute") != 0 && strcmp(type, "continuous") != 0 && strcmp(type, "fixed") != 0 &&
        strcmp(type, "prismatic") != 0) {
        return fail(c, n, INVALID, "%s: unknown type '%s' (revolute, continuous, prismatic, fixed; "
                    "floating and planar are refused)", what, type);
    }
    if (c->n_joints >= PLN_ROBOT_MAX_LINKS) return fail(c, n, INVALID, "more than %d joints", PLN_ROBOT_MAX_LINKS);
    if (c->n_joints == c->cap_joints) {
        int cap = c->cap_joints > 0 ? 2 * c->cap_joints : 16;
        UrdfJoint *p = realloc(c->joints, (size_t)cap * sizeof *p);
        if (p == NULL) return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
        c->joints = p;
        c->cap_joints = cap;
    }
    j = &c->joints[c->n_joints++];
    memset(j, 0, sizeof *j);
    memcpy(j->name, name, sizeof j->name);
    j->line = xmlGetLineNo(n);
    j->fixed = strcmp(type, "fixed") == 0;
    j->prismatic = strcmp(type, "prismatic") == 0;
    continuous = strcmp(type, "continuous") == 0;
    j->axis[0] = 1.0;
    if ((st = origin(c, n, what, PLN_MAX_BODY_M, j->pos, j->rot)) != PLN_OK) return st;
    for (int side = 0; side < 2; ++side) {
        const char *tag = side == 0 ? "parent" : "child";
        char lname[PLN_NAME_MAX];
        int idx;
        if ((st = child(c, n, what, tag, &k)) != PLN_OK) return st;
        snprintf(sub, sizeof sub, "%s <%s>", what, tag);
        if (k == NULL) return fail(c, n, INVALID, "%s: no <%s>", what, tag);
        if ((st = name_attr(c, k, sub, "link", lname)) != PLN_OK) return st;
        idx = find_link(c, lname);
        if (idx < 0) return fail(c, k, INVALID, "%s: unknown link '%s'", sub, lname);
        if (side == 0) j->parent = idx;
        else j->child = idx;
    }
    if (j->parent == j->child) return fail(c, n, INVALID, "%s: link '%s' is its own parent", what, c->links[j->child].name);
    if (c->links[j->child].parent_joint >= 0) {
        return fail(c, n, INVALID, "%s: link '%s' already hangs from joint '%s' (a URDF is a tree)",
                    what, c->links[j->child].name, c->joints[c->links[j->child].parent_joint].name);
    }
    c->links[j->child].parent_joint = c->n_joints - 1;
    if ((st = child(c, n, what, "axis", &k)) != PLN_OK) return st;
    if (k != NULL) {
        double norm;
        snprintf(sub, sizeof sub, "%s <axis>", what);
        if ((st = numbers(c, k, sub, "xyz", 3, PLN_MAX_NUMBER_ABS, j->axis, NULL)) != PLN_OK) return st;
        norm = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
        if (!(norm > 1e-9)) {
            if (!j->fixed) return fail(c, k, INVALID, "%s xyz: the axis must not be zero", sub);
            norm = 1.0;
        }
        for (int d = 0; d < 3; ++d) j->axis[d] /= norm;
    }
    if ((st = child(c, n, what, "limit", &k)) != PLN_OK) return st;
    if (!j->fixed) {
        snprintf(sub, sizeof sub, "%s <limit>", what);
        if (k == NULL) {
            return fail(c, n, INVALID, "%s: no <limit>: hrpplan needs the joint's velocity limit "
                        "(<limit velocity=\"...\" effort=\"...\"%s/>)", what,
                        continuous ? "" : " lower=\"...\" upper=\"...\"");
        }
        if (continuous) {
            j->lower = -PLN_URDF_CONTINUOUS_LIMIT_RAD;
            j->upper = PLN_URDF_CONTINUOUS_LIMIT_RAD;
        } else {
            if ((st = numbers(c, k, sub, "lower", 1, PLN_MAX_JOINT_ABS, &j->lower, &present)) != PLN_OK) return st;
            if ((st = numbers(c, k, sub, "upper", 1, PLN_MAX_JOINT_ABS, &j->upper, &present)) != PLN_OK) return st;
            if (j->lower > j->upper) return fail(c, k, INVALID, "%s: lower %g > upper %g", sub, j->lower, j->upper);
            if (j->lower == j->upper) warn(c, k, "%s: lower == upper (%g): the joint cannot move", sub, j->lower);
        }
        if ((st = numbers(c, k, sub, "velocity", 1, PLN_MAX_SPEED, &j->velocity, &present)) != PLN_OK) return st;
        if (!present) {
            return fail(c, k, INVALID, "%s: missing attribute 'velocity' (%s)", sub,
                        j->prismatic ? "m/s" : "rad/s");
        }
        if (!(j->velocity > 0.0)) {
            return fail(c, k, INVALID, "%s velocity: must be > 0 (%s), found %g", sub,
                        j->prismatic ? "m/s" : "rad/s", j->velocity);
        }
        if ((st = numbers(c, k, sub, "effort", 1, PLN_MAX_NUMBER_ABS, &j->effort, &present)) != PLN_OK) return st;
        if (j->effort < 0.0) {
            return fail(c, k, INVALID, "%s effort: must be >= 0 (%s), found %g", sub,
                        j->prismatic ? "N" : "N m", j->effort);
        }
    }
    for (k = n->children; k != NULL; k = k->next) {
        if (k->type != XML_ELEMENT_NODE || is(k, "origin") || is(k, "parent") || is(k, "child") ||
            is(k, "axis") || is(k, "limit")) {
            continue;
        }
        if (is(k, "mimic")) {
            return fail(c, k, INVALID, "%s <mimic>: mimic joints are not supported (each joint is "
                        "an independent coordinate of the plan); make it a joint of its own or fixed", what);
        }
        if (is(k, "dynamics")) warn_ignored(c, k, "<joint>", "damping and friction are not modelled");
        else if (is(k, "safety_controller")) warn_ignored(c, k, "<joint>", "the plan keeps to <limit>");
        else if (is(k, "calibration")) warn_ignored(c, k, "<joint>", "not used by planning");
        else warn_ignored(c, k, "<joint>", "not part of URDF's joint");
    }
    return PLN_OK;
}

/* <hrpplan control_period base_xyz base_rpy> with <initial>, <sole>, <collision_pair>,
 * <capsule>, <ellipsoid>, <convex> children (docs/URDF.md). Needs the links and joints. */
static PlnStatus read_extension(Ctx *c, const xmlNode *n)
{
    PlnStatus st;
    int present;
    double rpy[3] = {0, 0, 0};
    if ((st = numbers(c, n, "<hrpplan>", "control_period", 1, PLN_MAX_NUMBER_ABS, &c->control_period, &present)) != PLN_OK) return st;
    if (present && !(c->control_period > 0.0)) return fail(c, n, INVALID, "<hrpplan> control_period: must be > 0 (seconds), found %g", c->control_period);
    if ((st = numbers(c, n, "<hrpplan>", "base_xyz", 3, PLN_MAX_WORLD_M, c->base_pos, &present)) != PLN_OK) return st;
    if ((st = numbers(c, n, "<hrpplan>", "base_rpy", 3, PLN_MAX_RPY_RAD, rpy, &present)) != PLN_OK) return st;
    pln_kin_rpy_to_matrix(rpy, c->base_rot);
    for (const xmlNode *k = n->children; k != NULL; k = k->next) {
        char name[PLN_NAME_MAX], what[PLN_NAME_MAX + 48];
        int li = -1;
        if (k->type != XML_ELEMENT_NODE) continue;
        snprintf(what, sizeof what, "<hrpplan><%s>", (const char *)k->name);
        if (is(k, "initial")) {
            int ji;
            if ((st = name_attr(c, k, what, "joint", name)) != PLN_OK) return st;
            ji = find_joint(c, name);
            if (ji < 0 || c->joints[ji].fixed) return fail(c, k, INVALID, "%s: no moving joint '%s'", what, name);
            if ((st = numbers(c, k, what, "value", 1, PLN_MAX_JOINT_ABS, &c->joints[ji].initial, NULL)) != PLN_OK) return st;
            if (c->joints[ji].initial < c->joints[ji].lower || c->joints[ji].initial > c->joints[ji].upper) {
                return fail(c, k, INVALID, "%s: %g lies outside joint '%s''s limits [%g, %g]", what,
                            c->joints[ji].initial, name, c->joints[ji].lower, c->joints[ji].upper);
            }
            c->joints[ji].has_initial = 1;
            continue;
        }
        if (is(k, "collision_pair")) {
            struct UrdfPair *p;
            if (c->n_pairs == c->cap_pairs) {
                int cap = c->cap_pairs > 0 ? 2 * c->cap_pairs : 16;
                struct UrdfPair *q = realloc(c->pairs, (size_t)cap * sizeof *q);
                if (q == NULL) return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
                c->pairs = q;
                c->cap_pairs = cap;
            }
            p = &c->pairs[c->n_pairs];
            if ((st = name_attr(c, k, what, "a", p->a)) != PLN_OK) return st;
            if ((st = name_attr(c, k, what, "b", p->b)) != PLN_OK) return st;
            p->line = xmlGetLineNo(k);
            c->n_pairs++;
            continue;
        }
        if (!is(k, "sole") && !is(k, "capsule") && !is(k, "ellipsoid") && !is(k, "convex")) {
            warn_ignored(c, k, "<hrpplan>", "unknown");
            continue;
        }
        if ((st = name_attr(c, k, what, "link", name)) != PLN_OK) return st;
        li = find_link(c, name);
        if (li < 0) return fail(c, k, INVALID, "%s: unknown link '%s'", what, name);
        if (is(k, "sole")) {
            if (c->n_soles == PLN_ROBOT_MAX_SOLES) return fail(c, k, INVALID, "%s: more than %d soles", what, PLN_ROBOT_MAX_SOLES);
            snprintf(c->soles[c->n_soles].link, PLN_NAME_MAX, "%s", name);
            if ((st = numbers(c, k, what, "size", 2, PLN_MAX_BODY_M, c->soles[c->n_soles].size, NULL)) != PLN_OK) return st;
            if (!(c->soles[c->n_soles].size[0] > 0.0 && c->soles[c->n_soles].size[1] > 0.0)) {
                return fail(c, k, INVALID, "%s size: a sole must have positive area", what);
            }
            if ((st = numbers(c, k, what, "offset", 3, PLN_MAX_BODY_M, c->soles[c->n_soles].offset, NULL)) != PLN_OK) return st;
            for (int s = 0; s < c->n_soles; ++s) {
                if (strcmp(c->soles[s].link, name) == 0) return fail(c, k, INVALID, "%s: link '%s' already has a sole", what, name);
            }
            c->soles[c->n_soles].line = xmlGetLineNo(k);
            c->n_soles++;
        } else if (is(k, "capsule")) {
            UrdfLink *l = &c->links[li];
            if ((st = numbers(c, k, what, "p0", 3, PLN_MAX_BODY_M, l->cap_p0, NULL)) != PLN_OK) return st;
            if ((st = numbers(c, k, what, "p1", 3, PLN_MAX_BODY_M, l->cap_p1, NULL)) != PLN_OK) return st;
            if ((st = numbers(c, k, what, "radius", 1, PLN_MAX_BODY_M, &l->cap_r, NULL)) != PLN_OK) return st;
            if (!(l->cap_r > 0.0)) return fail(c, k, INVALID, "%s radius: must be > 0 (metres), found %g", what, l->cap_r);
            l->has_capsule_ext = 1;
        } else if (is(k, "ellipsoid")) {
            UrdfLink *l = &c->links[li];
            double erpy[3];
            if ((st = numbers(c, k, what, "center", 3, PLN_MAX_BODY_M, l->ell_center, NULL)) != PLN_OK) return st;
            if ((st = numbers(c, k, what, "rpy", 3, PLN_MAX_RPY_RAD, erpy, &present)) != PLN_OK) return st;
            if (!present) erpy[0] = erpy[1] = erpy[2] = 0.0;
            pln_kin_rpy_to_matrix(erpy, l->ell_rot);
            if ((st = numbers(c, k, what, "radii", 3, PLN_MAX_BODY_M, l->ell_radii, NULL)) != PLN_OK) return st;
            for (int d = 0; d < 3; ++d) {
                if (!(l->ell_radii[d] > 0.0)) return fail(c, k, INVALID, "%s radii: must be > 0 (metres)", what);
            }
            l->has_ellipsoid = 1;
        } else {
            char fname[PATH_MAX];
            if (!attr(k, "filename", fname, sizeof fname) || fname[0] == '\0') {
                return fail(c, k, INVALID, "%s: missing attribute 'filename'", what);
            }
            if ((st = resolve_filename(c, k, what, fname, c->links[li].convex_path, sizeof c->links[li].convex_path)) != PLN_OK) return st;
        }
    }
    return PLN_OK;
}

/* Circumscribed points of a shape (their hull encloses it), appended in the link frame. */
typedef struct Pts { double *p; int n, cap; } Pts;

static int pts_add(Pts *s, const UrdfGeom *g, const double local[3])
{
    if (s->n == s->cap) {
        int cap = s->cap > 0 ? 2 * s->cap : 256;
        double *q = realloc(s->p, (size_t)cap * 3 * sizeof *q);
        if (q == NULL) return 0;
        s->p = q;
        s->cap = cap;
    }
    for (int r = 0; r < 3; ++r) {
        s->p[3 * s->n + r] = g->pos[r] + g->rot[3 * r] * local[0] + g->rot[3 * r + 1] * local[1] +
                             g->rot[3 * r + 2] * local[2];
    }
    s->n++;
    return 1;
}

/* A sphere of radius r at (0, 0, z): the vertices of a circumscribed polyhedron (an
 * icosahedron whose inradius is r: circumradius r * 1.2584...). */
static int pts_sphere(Pts *s, const UrdfGeom *g, double r, double z)
{
    const double phi = 0.5 * (1.0 + sqrt(5.0));
    /* icosahedron (0, +-1, +-phi) cyclic: circumradius sqrt(1 + phi^2), inradius
     * phi^2 / sqrt(3) */
    const double scale = r / (phi * phi / sqrt(3.0));
    for (int a = 0; a < 3; ++a) {
        for (int sb = -1; sb <= 1; sb += 2) {
            for (int sc = -1; sc <= 1; sc += 2) {
                double v[3];
                v[a] = 0.0;
                v[(a + 1) % 3] = sb * scale;
                v[(a + 2) % 3] = sc * phi * scale;
                v[2] += z;
                if (!pts_add(s, g, v)) return 0;
            }
        }
    }
    return 1;
}

static PlnStatus geom_points(const Ctx *c, const UrdfGeom *g, Pts *s)
{
    if (g->type == G_BOX) {
        for (int k = 0; k < 8; ++k) {
            double v[3] = {(k & 1 ? 0.5 : -0.5) * g->size[0], (k & 2 ? 0.5 : -0.5) * g->size[1],
                           (k & 4 ? 0.5 : -0.5) * g->size[2]};
            if (!pts_add(s, g, v)) return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
        }
    } else if (g->type == G_CYLINDER) {
        /* a 32-gon circumscribing the circle: its vertices at r / cos(pi / 32) */
        const int m = 32;
        double rr = g->radius / cos(PLN_PI / m);
        for (int k = 0; k < m; ++k) {
            for (int e = -1; e <= 1; e += 2) {
                double v[3] = {rr * cos(2.0 * PLN_PI * k / m), rr * sin(2.0 * PLN_PI * k / m), 0.5 * e * g->length};
                if (!pts_add(s, g, v)) return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
            }
        }
    } else if (g->type == G_SPHERE || g->type == G_CAPSULE) {
        double h = g->type == G_CAPSULE ? 0.5 * g->length : 0.0;
        if (!pts_sphere(s, g, g->radius, -h) || !pts_sphere(s, g, g->radius, h)) {
            return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
        }
    } else {
        DstMesh m;
        char derr[512];
        PlnStatus st = pln_mesh_read(g->path, &m, derr, sizeof derr);
        if (st != PLN_OK) {
            return pln_errorf(st, c->err, c->err_size, "%s:%ld: bad collision mesh: %s", c->path, g->line, derr);
        }
        for (int v = 0; v < m.n_vertices; ++v) {
            double x[3];
            for (int d = 0; d < 3; ++d) x[d] = g->scale[d] * m.vertices[v][d];
            if (!pts_add(s, g, x)) {
                dst_mesh_destroy(&m);
                return fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
            }
        }
        dst_mesh_destroy(&m);
    }
    return PLN_OK;
}

/* The capsule of a link from its collision elements (header: exact for a lone sphere,
 * capsule or cylinder, else pln_capsule_fit over circumscribed points). */
static PlnStatus link_capsule(const Ctx *c, const UrdfLink *l, PlnLinkGeometry *out)
{
    Pts s = {NULL, 0, 0};
    PlnCapsuleFit fit;
    PlnStatus st = PLN_OK;
    double exact_vol = INFINITY, ep0[3], ep1[3], er = 0.0;
    if (l->n_geoms == 1 && l->geoms[0].type != G_BOX && l->geoms[0].type != G_MESH) {
        const UrdfGeom *g = &l->geoms[0];
        double h = g->type == G_SPHERE ? 0.0 : 0.5 * g->length;
        for (int r = 0; r < 3; ++r) {
            ep0[r] = g->pos[r] - h * g->rot[3 * r + 2];
            ep1[r] = g->pos[r] + h * g->rot[3 * r + 2];
        }
        er = g->radius;
        exact_vol = PLN_PI * er * er * 2.0 * h + 4.0 / 3.0 * PLN_PI * er * er * er;
        if (g->type != G_CYLINDER) goto exact;
    }
    for (int k = 0; k < l->n_geoms && st == PLN_OK; ++k) st = geom_points(c, &l->geoms[k], &s);
    if (st == PLN_OK) st = pln_capsule_fit(s.p, s.n, &fit, c->err, c->err_size);
    free(s.p);
    if (st != PLN_OK) return st;
    if (exact_vol <= fit.volume) goto exact;
    memcpy(out->capsule_p0, fit.p0, sizeof fit.p0);
    memcpy(out->capsule_p1, fit.p1, sizeof fit.p1);
    out->capsule_radius = fit.radius;
    out->has_capsule = 1;
    out->capsule_fitted = 1;
    return PLN_OK;
exact:
    memcpy(out->capsule_p0, ep0, sizeof ep0);
    memcpy(out->capsule_p1, ep1, sizeof ep1);
    out->capsule_radius = er;
    out->has_capsule = 1;
    out->capsule_fitted = 1;
    return PLN_OK;
}

static int rot_is_identity(const double R[9], const double p[3])
{
    for (int k = 0; k < 9; ++k) {
        if (R[k] != ((k % 4 == 0) ? 1.0 : 0.0)) return 0;
    }
    return p[0] == 0.0 && p[1] == 0.0 && p[2] == 0.0;
}

/* The model from the records: topological order, joints in file order. */
static PlnStatus build(Ctx *c, const xmlNode *root, PlnRobot *robot)
{
    int root_link = -1, nj = 0, placed = 0, sp = 0, n_parts = 0;
    int *order = NULL, *stack = NULL, *pos_of = NULL, *jindex = NULL;
    PlnStatus st = PLN_OK;
    if (c->n_links == 0) return fail(c, root, INVALID, "<robot> has no <link>");
    for (int i = 0; i < c->n_links; ++i) {
        if (c->links[i].parent_joint >= 0) continue;
        if (root_link >= 0) {
            return fail(c, NULL, INVALID, "links '%s' (line %ld) and '%s' (line %ld) both have no "
                        "parent joint: a URDF has one root link", c->links[root_link].name,
                        c->links[root_link].line, c->links[i].name, c->links[i].line);
        }
        root_link = i;
    }
    if (root_link < 0) return fail(c, root, INVALID, "every link has a parent joint: the joints form a cycle");
    order = calloc((size_t)c->n_links, sizeof *order);
    stack = calloc((size_t)c->n_links, sizeof *stack);
    pos_of = calloc((size_t)c->n_links, sizeof *pos_of);
    jindex = calloc((size_t)c->n_joints + 1, sizeof *jindex);
    robot->links = calloc((size_t)c->n_links, sizeof *robot->links);
    for (int j = 0; j < c->n_joints; ++j) nj += !c->joints[j].fixed;
    robot->joints = calloc((size_t)nj + 1, sizeof *robot->joints);
    /* room for the collision parts of every link without a single mesh */
    for (int i = 0; i < c->n_links; ++i) {
        const UrdfLink *u = &c->links[i];
        if (!(u->n_geoms == 1 && u->geoms[0].type == G_MESH)) n_parts += u->n_geoms;
    }
    if (n_parts > 0) robot->parts = calloc((size_t)n_parts, sizeof *robot->parts);
    if (order == NULL || stack == NULL || pos_of == NULL || jindex == NULL || robot->links == NULL ||
        robot->joints == NULL || (n_parts > 0 && robot->parts == NULL)) {
        st = fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
        goto done;
    }
    stack[sp++] = root_link;
    while (sp > 0) {
        int i = stack[--sp];
        order[placed++] = i;
        for (int j = c->n_joints - 1; j >= 0; --j) {
            if (c->joints[j].parent == i) stack[sp++] = c->joints[j].child;
        }
    }
    if (placed < c->n_links) {
        for (int i = 0; i < c->n_links; ++i) {
            int seen = 0;
            for (int k = 0; k < placed; ++k) seen |= order[k] == i;
            if (!seen) {
                st = fail(c, NULL, INVALID, "link '%s' (line %ld) is not reached from the root '%s': "
                          "its parent joints form a cycle", c->links[i].name, c->links[i].line,
                          c->links[root_link].name);
                goto done;
            }
        }
    }
    for (int k = 0; k < c->n_links; ++k) pos_of[order[k]] = k;
    nj = 0;
    for (int j = 0; j < c->n_joints; ++j) {
        const UrdfJoint *u = &c->joints[j];
        PlnJoint *pj;
        jindex[j] = -1;
        if (u->fixed) continue;
        jindex[j] = nj;
        pj = &robot->joints[nj++];
        memcpy(pj->name, u->name, sizeof pj->name);
        pj->type = u->prismatic ? PLN_JOINT_PRISMATIC : PLN_JOINT_REVOLUTE;
        memcpy(pj->axis, u->axis, sizeof pj->axis);
        pj->lower = u->lower;
        pj->upper = u->upper;
        pj->velocity_max = u->velocity;
        pj->effort_max = u->effort;
        pj->initial = u->has_initial ? u->initial : fmin(fmax(0.0, u->lower), u->upper);
        pj->link = pos_of[u->child];
    }
    robot->n_joints = nj;
    robot->n_links = c->n_links;
    for (int k = 0; k < c->n_links; ++k) {
        const UrdfLink *u = &c->links[order[k]];
        PlnLink *l = &robot->links[k];
        PlnLinkGeometry *g = &l->geometry;
        memcpy(l->name, u->name, sizeof l->name);
        l->mass = u->mass;
        memcpy(l->com, u->com, sizeof l->com);
        memcpy(l->inertia, u->inertia, sizeof l->inertia);
        l->joint = -1;
        identity(l->origin_rot);
        if (u->parent_joint < 0) {
            l->parent = -1;
        } else {
            const UrdfJoint *pj = &c->joints[u->parent_joint];
            l->parent = pos_of[pj->parent];
            l->joint = jindex[u->parent_joint];
            memcpy(l->origin_pos, pj->pos, sizeof l->origin_pos);
            memcpy(l->origin_rot, pj->rot, sizeof l->origin_rot);
        }
        robot->total_mass += l->mass;
        if (u->has_capsule_ext) {
            memcpy(g->capsule_p0, u->cap_p0, sizeof g->capsule_p0);
            memcpy(g->capsule_p1, u->cap_p1, sizeof g->capsule_p1);
            g->capsule_radius = u->cap_r;
            g->has_capsule = 1;
        } else if (u->n_geoms > 0 && (st = link_capsule(c, u, g)) != PLN_OK) {
            goto done;
        }
        if (u->n_geoms == 1 && u->geoms[0].type == G_MESH) {
            DstMesh m;
            char derr[512];
            const UrdfGeom *ug = &u->geoms[0];
            if ((st = pln_mesh_read(ug->path, &m, derr, sizeof derr)) != PLN_OK) {
                st = pln_errorf(st, c->err, c->err_size, "%s:%ld: bad collision mesh: %s", c->path, ug->line, derr);
                goto done;
            }
            g->mesh_triangles = m.n_triangles;
            dst_mesh_destroy(&m);
            if ((size_t)snprintf(g->mesh_path, sizeof g->mesh_path, "%s", ug->path) >= sizeof g->mesh_path) {
                st = pln_errorf(INVALID, c->err, c->err_size, "%s:%ld: mesh path longer than %zu characters", c->path, ug->line, sizeof g->mesh_path - 1);
                goto done;
            }
            if (ug->scale[0] != 1.0 || ug->scale[1] != 1.0 || ug->scale[2] != 1.0) {
                /* the file's vertices scaled in the file's frame, then placed (a mesh in mm
                 * with scale 0.001, or a mirrored-free stretch: every factor > 0) */
                g->has_mesh_scale = 1;
                memcpy(g->mesh_scale, ug->scale, sizeof g->mesh_scale);
            }
            if (!rot_is_identity(ug->rot, ug->pos)) {
                g->has_file_pose = 1;
                memcpy(g->file_pos, ug->pos, sizeof g->file_pos);
                memcpy(g->file_rot, ug->rot, sizeof g->file_rot);
            }
        } else if (u->n_geoms > 0) {
            /* several elements, or primitives: the link's mesh is the union of its parts
             * (model/pln_linkmesh.h), each in the link's frame at its collision origin */
            DstMesh m;
            char derr[512];
            g->part_first = robot->n_parts;
            for (int q = 0; q < u->n_geoms; ++q) {
                const UrdfGeom *ug = &u->geoms[q];
                PlnCollisionPart *part = &robot->parts[robot->n_parts];
                static const PlnPartType types[] = {[G_BOX] = PLN_PART_BOX, [G_CYLINDER] = PLN_PART_CYLINDER,
                                                    [G_SPHERE] = PLN_PART_SPHERE, [G_CAPSULE] = PLN_PART_CAPSULE,
                                                    [G_MESH] = PLN_PART_MESH};
                part->type = types[ug->type];
                memcpy(part->pos, ug->pos, sizeof part->pos);
                memcpy(part->rot, ug->rot, sizeof part->rot);
                memcpy(part->size, ug->size, sizeof part->size);
                part->radius = ug->radius;
                part->length = ug->length;
                if (ug->type == G_MESH) {
                    memcpy(part->scale, ug->scale, sizeof part->scale);
                    part->has_scale = ug->scale[0] != 1.0 || ug->scale[1] != 1.0 || ug->scale[2] != 1.0;
                    if ((size_t)snprintf(part->path, sizeof part->path, "%s", ug->path) >= sizeof part->path) {
                        st = pln_errorf(INVALID, c->err, c->err_size, "%s:%ld: mesh path longer than %zu characters", c->path, ug->line, sizeof part->path - 1);
                        goto done;
                    }
                }
                robot->n_parts++;
            }
            g->n_parts = u->n_geoms;
            if ((st = pln_parts_mesh(robot->parts + g->part_first, g->n_parts, &m, derr, sizeof derr)) != PLN_OK) {
                st = pln_errorf(st, c->err, c->err_size, "%s:%ld: link '%s': bad collision mesh: %s", c->path, u->line, u->name, derr);
                goto done;
            }
            g->mesh_triangles = m.n_triangles;
            dst_mesh_destroy(&m);
        }
        if (u->convex_path[0] != '\0' &&
            (size_t)snprintf(g->convex_path, sizeof g->convex_path, "%s", u->convex_path) >= sizeof g->convex_path) {
            st = pln_errorf(INVALID, c->err, c->err_size, "%s: link '%s': convex path longer than %zu characters", c->path, u->name, sizeof g->convex_path - 1);
            goto done;
        }
        if (u->has_ellipsoid) {
            g->has_ellipsoid = 1;
            memcpy(g->ellipsoid_center, u->ell_center, sizeof g->ellipsoid_center);
            memcpy(g->ellipsoid_rot, u->ell_rot, sizeof g->ellipsoid_rot);
            memcpy(g->ellipsoid_radii, u->ell_radii, sizeof g->ellipsoid_radii);
        }
    }
    for (int k = 0; k < c->n_links; ++k) {
        int j = robot->links[k].joint;
        if (j >= 0) robot->joints[j].link = k;
    }
    /* effort limits: all or none (a torque bound on some joints only says nothing) */
    {
        int with = 0;
        for (int j = 0; j < nj; ++j) with += robot->joints[j].effort_max > 0.0;
        robot->has_effort = nj > 0 && with == nj;
        if (with > 0 && with < nj) {
            FILE *w = c->opt != NULL ? c->opt->warnings : stderr;
            if (w != NULL) {
                fprintf(w, "%s: warning: %d of %d joints have effort > 0: torque limits are not "
                        "used (give every moving joint an effort limit, or none)\n", c->path, with, nj);
            }
        }
    }
    memcpy(robot->base_pos, c->base_pos, sizeof robot->base_pos);
    memcpy(robot->base_rot, c->base_rot, sizeof robot->base_rot);
    robot->control_period = c->control_period > 0.0 ? c->control_period : PLN_URDF_DEFAULT_CONTROL_PERIOD_S;
    for (int s = 0; s < c->n_soles; ++s) {
        int li = pln_robot_find_link(robot, c->soles[s].link);
        robot->soles[s].link = li;
        memcpy(robot->soles[s].size, c->soles[s].size, sizeof robot->soles[s].size);
        memcpy(robot->soles[s].offset, c->soles[s].offset, sizeof robot->soles[s].offset);
    }
    robot->n_soles = c->n_soles;
    if (c->n_pairs > 0) {
        robot->collision_pairs = calloc((size_t)c->n_pairs, sizeof *robot->collision_pairs);
        if (robot->collision_pairs == NULL) {
            st = fail(c, NULL, PLN_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (int i = 0; i < c->n_pairs; ++i) {
            int a = pln_robot_find_link(robot, c->pairs[i].a), b = pln_robot_find_link(robot, c->pairs[i].b);
            const char *bad = a < 0 ? c->pairs[i].a : b < 0 ? c->pairs[i].b : NULL;
            if (bad != NULL) {
                st = pln_errorf(INVALID, c->err, c->err_size, "%s:%ld: <hrpplan><collision_pair>: unknown link '%s'", c->path, c->pairs[i].line, bad);
                goto done;
            }
            if (a == b || !robot->links[a].geometry.has_capsule || !robot->links[b].geometry.has_capsule) {
                st = pln_errorf(INVALID, c->err, c->err_size, "%s:%ld: <hrpplan><collision_pair>: %s", c->path, c->pairs[i].line,
                                a == b ? "a link cannot collide with itself" : "both links need collision geometry");
                goto done;
            }
            robot->collision_pairs[i][0] = a;
            robot->collision_pairs[i][1] = b;
        }
        robot->n_collision_pairs = c->n_pairs;
    }
done:
    free(order);
    free(stack);
    free(pos_of);
    free(jindex);
    return st;
}

/* The document: one <robot>, no DTD, no xacro. */
static PlnStatus read_document(Ctx *c, xmlDoc *doc, PlnRobot *robot)
{
    const xmlNode *root = xmlDocGetRootElement(doc), *ext = NULL;
    PlnStatus st;
    if (doc->intSubset != NULL || doc->extSubset != NULL) {
        return fail(c, NULL, INVALID, "has a <!DOCTYPE>: hrpplan reads no DTD (URDF has none)");
    }
    if (root == NULL || !is(root, "robot")) {
        return fail(c, root, INVALID, "the root element must be <robot>, found <%s>",
                    root != NULL ? (const char *)root->name : "nothing");
    }
    if ((st = name_attr(c, root, "<robot>", "name", robot->name)) != PLN_OK) return st;
    identity(c->base_rot);
    for (const xmlNode *k = root->children; k != NULL; k = k->next) {
        if (k->type != XML_ELEMENT_NODE) continue;
        if (k->ns != NULL && k->ns->prefix != NULL && strcmp((const char *)k->ns->prefix, "xacro") == 0) {
            return fail(c, k, INVALID, "<xacro:%s>: this is a xacro file; expand it first "
                        "(xacro robot.urdf.xacro > robot.urdf)", (const char *)k->name);
        }
        if (is(k, "link")) {
            if ((st = read_link(c, k)) != PLN_OK) return st;
        }
    }
    for (const xmlNode *k = root->children; k != NULL; k = k->next) {
        if (k->type != XML_ELEMENT_NODE || is(k, "link")) continue;
        if (is(k, "joint")) {
            if ((st = read_joint(c, k)) != PLN_OK) return st;
        } else if (is(k, "hrpplan")) {
            if (ext != NULL) return fail(c, k, INVALID, "a second <hrpplan>");
            ext = k;
        } else if (!is(k, "material") && !is(k, "transmission") && !is(k, "gazebo")) {
            warn_ignored(c, k, "<robot>", "unknown element");
        }
    }
    if (ext != NULL && (st = read_extension(c, ext)) != PLN_OK) return st;
    return build(c, root, robot);
}

PlnStatus pln_urdf_load(const char *path, const PlnUrdfOptions *opt, PlnRobot *robot,
                        char *err, size_t err_size)
{
    Ctx c;
    char *data = NULL;
    size_t size = 0;
    xmlDoc *doc;
    PlnStatus st;
    const char *slash;

    memset(robot, 0, sizeof *robot);
    if (path == NULL) return pln_errorf(PLN_ERR_USAGE, err, err_size, "no robot file given");
    memset(&c, 0, sizeof c);
    c.path = path;
    c.opt = opt;
    c.err = err;
    c.err_size = err_size;
    slash = strrchr(path, '/');
    if (slash != NULL) {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof c.dir) return pln_errorf(PLN_ERR_IO, err, err_size, "%s: path too long", path);
        memcpy(c.dir, path, n);
        c.dir[n] = '\0';
        if (n == 0) snprintf(c.dir, sizeof c.dir, "/");
    }
    st = pln_file_read_input(path, "robot file", PLN_MAX_YAML_BYTES, &data, &size, err, err_size);
    if (st != PLN_OK) return st;
    if (size == 0) {
        free(data);
        return pln_errorf(PLN_ERR_PARSE, err, err_size, "%s: empty file", path);
    }
    if (size > (size_t)INT_MAX) {
        free(data);
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: too large", path);
    }
    doc = xmlReadMemory(data, (int)size, path, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
    free(data);
    if (doc == NULL) {
        const xmlError *e = xmlGetLastError();
        char msg[512];
        snprintf(msg, sizeof msg, "%s", e != NULL && e->message != NULL ? e->message : "not well-formed XML\n");
        msg[strcspn(msg, "\n")] = '\0';
        st = pln_errorf(PLN_ERR_PARSE, err, err_size, "%s:%d: XML: %s", path, e != NULL ? e->line : 0, msg);
        xmlResetLastError();
        return st;
    }
    st = read_document(&c, doc, robot);
    xmlFreeDoc(doc);
    for (int i = 0; i < c.n_links; ++i) free(c.links[i].geoms);
    free(c.links);
    free(c.joints);
    free(c.pairs);
    if (st != PLN_OK) pln_robot_destroy(robot);
    return st;
}

/* ---- export --------------------------------------------------------------------------- */

void pln_urdf_matrix_to_rpy(const double R[9], double rpy[3])
{
    /* R = Rz(y) Ry(p) Rx(r). yaw from the first column (0 when it is vertical: at
     * p = +-pi/2 only r -+ y is defined); then R' = Rz(-y) R = Ry(p) Rx(r), whose row 1 is
     * (0, cos r, -sin r) and column 0 (cos p, 0, -sin p). Roll and pitch taken from R'
     * absorb the error of yaw near p = +-pi/2, so that Rz(y) Ry(p) Rx(r) gives R back to
     * rounding for every R. */
    double cy, sy, r00, r20, r11, r12;
    rpy[2] = (R[0] != 0.0 || R[3] != 0.0) ? atan2(R[3], R[0]) : 0.0;
    cy = cos(rpy[2]);
    sy = sin(rpy[2]);
    r00 = cy * R[0] + sy * R[3];
    r20 = R[6];
    r11 = -sy * R[1] + cy * R[4];
    r12 = -sy * R[2] + cy * R[5];
    rpy[0] = atan2(-r12, r11);
    rpy[1] = atan2(-r20, r00);
}

static void xml_text(FILE *out, const char *s)
{
    for (; *s != '\0'; ++s) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

static void vec(FILE *out, const char *key, const double *v, int n)
{
    fprintf(out, " %s=\"", key);
    for (int k = 0; k < n; ++k) fprintf(out, "%s%.17g", k ? " " : "", v[k] + 0.0);
    fputc('"', out);
}

static void origin_xml(FILE *out, const char *indent, const double p[3], const double R[9])
{
    double rpy[3];
    pln_urdf_matrix_to_rpy(R, rpy);
    fprintf(out, "%s<origin", indent);
    vec(out, "xyz", p, 3);
    vec(out, "rpy", rpy, 3);
    fputs("/>\n", out);
}

static void abs_path(const char *p, char *out, size_t size)
{
    char buf[PATH_MAX];
    if (realpath(p, buf) != NULL) snprintf(out, size, "%s", buf);
    else snprintf(out, size, "%s", p);
}

PlnStatus pln_urdf_write(const PlnRobot *robot, const char *source, FILE *out, char *err,
                         size_t err_size)
{
    for (int l = 0; l < robot->n_links; ++l) {
        if (robot->links[l].shifted || robot->file_root != 0) {
            return pln_errorf(INVALID, err, err_size,
                              "a re-rooted model cannot be written as URDF; write the file's model");
        }
    }
    fputs("<?xml version=\"1.0\"?>\n", out);
    if (source != NULL) {
        fputs("<!-- written by hrpplan (robot, URDF export) from ", out);
        for (const char *s = source; *s; ++s) {
            if (!(s[0] == '-' && s[1] == '-')) fputc(*s, out);
        }
        fputs(" -->\n", out);
    }
    fputs("<robot name=\"", out);
    xml_text(out, robot->name);
    fputs("\">\n", out);
    for (int l = 0; l < robot->n_links; ++l) {
        const PlnLink *L = &robot->links[l];
        const PlnLinkGeometry *g = &L->geometry;
        fputs("  <link name=\"", out);
        xml_text(out, L->name);
        fputs("\">\n", out);
        int has_inertia = L->mass > 0.0;
        for (int k = 0; k < 9; ++k) has_inertia |= L->inertia[k] != 0.0;
        if (has_inertia) {
            static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
            fputs("    <inertial>\n", out);
            origin_xml(out, "      ", L->com, I3);
            fprintf(out, "      <mass value=\"%.17g\"/>\n", L->mass);
            fprintf(out, "      <inertia ixx=\"%.17g\" ixy=\"%.17g\" ixz=\"%.17g\" iyy=\"%.17g\" "
                    "iyz=\"%.17g\" izz=\"%.17g\"/>\n", L->inertia[0], L->inertia[1], L->inertia[2],
                    L->inertia[4], L->inertia[5], L->inertia[8]);
            fputs("    </inertial>\n", out);
        }
        if (g->mesh_path[0] != '\0') {
            static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z3[3] = {0, 0, 0};
            char ap[PATH_MAX];
            abs_path(g->mesh_path, ap, sizeof ap);
            fputs("    <collision>\n", out);
            origin_xml(out, "      ", g->has_file_pose ? g->file_pos : z3, g->has_file_pose ? g->file_rot : I3);
            fputs("      <geometry><mesh filename=\"", out);
            xml_text(out, ap);
            if (g->has_mesh_scale) {
                fprintf(out, "\" scale=\"%.17g %.17g %.17g", g->mesh_scale[0], g->mesh_scale[1],
                        g->mesh_scale[2]);
            }
            fputs("\"/></geometry>\n    </collision>\n", out);
        } else if (g->n_parts > 0) {
            /* every collision element as read, at its origin in the link frame */
            for (int k = 0; k < g->n_parts; ++k) {
                const PlnCollisionPart *pt = &robot->parts[g->part_first + k];
                fputs("    <collision>\n", out);
                origin_xml(out, "      ", pt->pos, pt->rot);
                fputs("      <geometry>", out);
                switch (pt->type) {
                case PLN_PART_BOX:
                    fprintf(out, "<box size=\"%.17g %.17g %.17g\"/>", pt->size[0], pt->size[1], pt->size[2]);
                    break;
                case PLN_PART_SPHERE: fprintf(out, "<sphere radius=\"%.17g\"/>", pt->radius); break;
                case PLN_PART_CYLINDER:
                case PLN_PART_CAPSULE:
                    fprintf(out, "<%s radius=\"%.17g\" length=\"%.17g\"/>",
                            pt->type == PLN_PART_CYLINDER ? "cylinder" : "capsule", pt->radius, pt->length);
                    break;
                case PLN_PART_MESH: {
                    char ap[PATH_MAX];
                    abs_path(pt->path, ap, sizeof ap);
                    fputs("<mesh filename=\"", out);
                    xml_text(out, ap);
                    if (pt->has_scale) {
                        fprintf(out, "\" scale=\"%.17g %.17g %.17g", pt->scale[0], pt->scale[1], pt->scale[2]);
                    }
                    fputs("\"/>", out);
                    break;
                }
                }
                fputs("</geometry>\n    </collision>\n", out);
            }
        } else if (g->has_capsule) {
            /* a capsule along z of a frame at the segment's middle */
            double d[3], len = 0.0, mid[3], R[9], z[3];
            for (int k = 0; k < 3; ++k) {
                d[k] = g->capsule_p1[k] - g->capsule_p0[k];
                mid[k] = 0.5 * (g->capsule_p0[k] + g->capsule_p1[k]);
                len += d[k] * d[k];
            }
            len = sqrt(len);
            z[0] = 0.0; z[1] = 0.0; z[2] = 1.0;
            if (len > 0.0) for (int k = 0; k < 3; ++k) z[k] = d[k] / len;
            {
                double e1[3], e2[3];
                pln_capfit_frame(z, e1, e2);
                for (int r = 0; r < 3; ++r) {
                    R[3 * r] = e1[r];
                    R[3 * r + 1] = e2[r];
                    R[3 * r + 2] = z[r];
                }
            }
            fputs("    <collision>\n", out);
            origin_xml(out, "      ", mid, R);
            fprintf(out, "      <geometry><capsule radius=\"%.17g\" length=\"%.17g\"/></geometry>\n",
                    g->capsule_radius, len);
            fputs("    </collision>\n", out);
        }
        fputs("  </link>\n", out);
    }
    for (int l = 1; l < robot->n_links; ++l) {
        const PlnLink *L = &robot->links[l];
        const PlnJoint *J = L->joint >= 0 ? &robot->joints[L->joint] : NULL;
        fputs("  <joint name=\"", out);
        if (J != NULL) xml_text(out, J->name);
        else {
            xml_text(out, L->name);
            fputs("_fixed", out);
        }
        fprintf(out, "\" type=\"%s\">\n",
                J == NULL ? "fixed" : (J->type == PLN_JOINT_PRISMATIC ? "prismatic" : "revolute"));
        origin_xml(out, "    ", L->origin_pos, L->origin_rot);
        fputs("    <parent link=\"", out);
        xml_text(out, robot->links[L->parent].name);
        fputs("\"/>\n    <child link=\"", out);
        xml_text(out, L->name);
        fputs("\"/>\n", out);
        if (J != NULL) {
            fputs("    <axis", out);
            vec(out, "xyz", J->axis, 3);
            fputs("/>\n", out);
            fprintf(out, "    <limit lower=\"%.17g\" upper=\"%.17g\" effort=\"%.17g\" velocity=\"%.17g\"/>\n",
                    J->lower, J->upper, J->effort_max, J->velocity_max);
        }
        fputs("  </joint>\n", out);
    }
    /* what URDF cannot say */
    {
        double rpy[3];
        pln_urdf_matrix_to_rpy(robot->base_rot, rpy);
        fprintf(out, "  <hrpplan control_period=\"%.17g\"", robot->control_period);
        vec(out, "base_xyz", robot->base_pos, 3);
        vec(out, "base_rpy", rpy, 3);
        fputs(">\n", out);
    }
    for (int j = 0; j < robot->n_joints; ++j) {
        fputs("    <initial joint=\"", out);
        xml_text(out, robot->joints[j].name);
        fprintf(out, "\" value=\"%.17g\"/>\n", robot->joints[j].initial);
    }
    for (int l = 0; l < robot->n_links; ++l) {
        const PlnLinkGeometry *g = &robot->links[l].geometry;
        if (g->has_capsule) {
            fputs("    <capsule link=\"", out);
            xml_text(out, robot->links[l].name);
            fputc('"', out);
            vec(out, "p0", g->capsule_p0, 3);
            vec(out, "p1", g->capsule_p1, 3);
            fprintf(out, " radius=\"%.17g\"/>\n", g->capsule_radius);
        }
        if (g->has_ellipsoid) {
            double rpy[3];
            pln_urdf_matrix_to_rpy(g->ellipsoid_rot, rpy);
            fputs("    <ellipsoid link=\"", out);
            xml_text(out, robot->links[l].name);
            fputc('"', out);
            vec(out, "center", g->ellipsoid_center, 3);
            vec(out, "rpy", rpy, 3);
            vec(out, "radii", g->ellipsoid_radii, 3);
            fputs("/>\n", out);
        }
        if (g->convex_path[0] != '\0') {
            char ap[PATH_MAX];
            abs_path(g->convex_path, ap, sizeof ap);
            fputs("    <convex link=\"", out);
            xml_text(out, robot->links[l].name);
            fputs("\" filename=\"", out);
            xml_text(out, ap);
            fputs("\"/>\n", out);
        }
    }
    for (int s = 0; s < robot->n_soles; ++s) {
        const PlnSole *so = &robot->soles[s];
        fputs("    <sole link=\"", out);
        xml_text(out, robot->links[so->link].name);
        fputc('"', out);
        vec(out, "size", so->size, 2);
        vec(out, "offset", so->offset, 3);
        fputs("/>\n", out);
    }
    for (int p = 0; p < robot->n_collision_pairs; ++p) {
        fputs("    <collision_pair a=\"", out);
        xml_text(out, robot->links[robot->collision_pairs[p][0]].name);
        fputs("\" b=\"", out);
        xml_text(out, robot->links[robot->collision_pairs[p][1]].name);
        fputs("\"/>\n", out);
    }
    fputs("  </hrpplan>\n</robot>\n", out);
    if (ferror(out)) return pln_errorf(PLN_ERR_IO, err, err_size, "write error");
    return PLN_OK;
}
