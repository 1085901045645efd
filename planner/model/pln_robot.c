/* pln_robot.c — loading and validating the robot description (docs/ROBOT_FORMAT.md)
 * through the typed, located YAML access of base/pln_yaml.h. The walk is driven by the
 * schema: each mapping is checked for unknown and duplicate keys, each value for its
 * type, and every message names the file, the line and column of the offending node and
 * the field path. */
#include "model/pln_robot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "dst_mesh.h"
#include "base/pln_sha256.h"
#include "base/pln_tolerance.h"
#include "base/pln_yaml.h"
#include "model/pln_capfit.h"
#include "model/pln_kin.h"
#include "model/pln_urdf.h"

/* Loader state: the document (with the file name and the error buffer) and the file's
 * directory, against which mesh paths are resolved. */
typedef struct Ctx {
    PlnYaml *y;
    const char *path;
    char dir[512];
} Ctx;

#define INVALID PLN_ERR_INVALID

static void identity(double R[9])
{
    for (int i = 0; i < 9; ++i) R[i] = (i % 4 == 0) ? 1.0 : 0.0;
}

/* {position: [x, y, z], rpy: [r, p, y]}, both optional. */
static PlnStatus pose(const Ctx *c, const yaml_node_t *n, const char *field, double bound,
                      const char *what, double pos[3], double R[9])
{
    static const char *const keys[] = {"position", "rpy", NULL};
    char sub[160];
    double rpy[3] = {0, 0, 0};
    yaml_node_t *v;
    PlnStatus st = pln_yaml_check_mapping(c->y, n, field, keys);
    if (st != PLN_OK) return st;
    pos[0] = pos[1] = pos[2] = 0.0;
    if ((v = pln_yaml_get(c->y, n, "position")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "position");
        if ((st = pln_yaml_node_numbers_bounded(c->y, v, sub, 3, bound, what, pos)) != PLN_OK) return st;
    }
    if ((v = pln_yaml_get(c->y, n, "rpy")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "rpy");
        if ((st = pln_yaml_node_numbers_bounded(c->y, v, sub, 3, PLN_MAX_RPY_RAD, "rad", rpy)) != PLN_OK) return st;
    }
    pln_kin_rpy_to_matrix(rpy, R);
    return PLN_OK;
}

/* ---- joints ------------------------------------------------------------------------- */

static PlnStatus load_joint(const Ctx *c, const yaml_node_t *n, int index, PlnJoint *j)
{
    static const char *const keys[] = {"name", "type", "axis", "lower", "upper",
                                       "velocity_max", "initial", "effort_max", NULL};
    char field[64], sub[160];
    yaml_node_t *v;
    PlnStatus st;
    double norm;

    snprintf(field, sizeof field, "joints[%d]", index);
    if ((st = pln_yaml_check_mapping(c->y, n, field, keys)) != PLN_OK) return st;
    memset(j, 0, sizeof *j);
    j->type = PLN_JOINT_REVOLUTE;
    j->link = -1;

    pln_yaml_field(sub, sizeof sub, field, "name");
    if ((st = pln_yaml_require(c->y, n, field, "name", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_string(c->y, v, sub, j->name, sizeof j->name)) != PLN_OK) return st;

    if ((v = pln_yaml_get(c->y, n, "type")) != NULL) {
        char type[32];
        pln_yaml_field(sub, sizeof sub, field, "type");
        if ((st = pln_yaml_node_string(c->y, v, sub, type, sizeof type)) != PLN_OK) return st;
        if (strcmp(type, "prismatic") == 0) {
            j->type = PLN_JOINT_PRISMATIC;
        } else if (strcmp(type, "revolute") != 0) {
            return pln_yaml_error(c->y, v, sub, INVALID,
                        "unknown joint type '%s': 'revolute' or 'prismatic' (a rigidly "
                        "attached link simply has no 'joint')", type);
        }
    }

    pln_yaml_field(sub, sizeof sub, field, "axis");
    if ((st = pln_yaml_require(c->y, n, field, "axis", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_numbers(c->y, v, sub, 3, j->axis)) != PLN_OK) return st;
    norm = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
    if (!(fabs(norm - 1.0) <= PLN_ROBOT_AXIS_TOL)) {
        return pln_yaml_error(c->y, v, sub, INVALID, "must have unit length (its length is %g)", norm);
    }
    for (int k = 0; k < 3; ++k) j->axis[k] /= norm;

    static const char *const scalars[] = {"lower", "upper", "velocity_max"};
    double *dst[] = {&j->lower, &j->upper, &j->velocity_max};
    for (int k = 0; k < 3; ++k) {
        pln_yaml_field(sub, sizeof sub, field, scalars[k]);
        if ((st = pln_yaml_require(c->y, n, field, scalars[k], &v)) != PLN_OK) return st;
        if ((st = pln_yaml_node_double(c->y, v, sub, dst[k])) != PLN_OK) return st;
    }
    if (j->lower > j->upper) {
        pln_yaml_field(sub, sizeof sub, field, "lower");
        return pln_yaml_error(c->y, pln_yaml_get(c->y, n, "lower"), sub, INVALID, "lower limit %g > upper limit %g",
                    j->lower, j->upper);
    }
    if (!(j->velocity_max > 0.0)) {
        pln_yaml_field(sub, sizeof sub, field, "velocity_max");
        return pln_yaml_error(c->y, pln_yaml_get(c->y, n, "velocity_max"), sub, INVALID, "must be > 0 (%s), found %g",
                    pln_joint_velocity_unit(j->type), j->velocity_max);
    }
    if ((v = pln_yaml_get(c->y, n, "effort_max")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "effort_max");
        if ((st = pln_yaml_node_double(c->y, v, sub, &j->effort_max)) != PLN_OK) return st;
        if (!(j->effort_max > 0.0)) {
            return pln_yaml_error(c->y, v, sub, INVALID, "must be > 0 (%s), found %g",
                                  pln_joint_effort_unit(j->type), j->effort_max);
        }
    }
    if ((v = pln_yaml_get(c->y, n, "initial")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "initial");
        if ((st = pln_yaml_node_double(c->y, v, sub, &j->initial)) != PLN_OK) return st;
        if (j->initial < j->lower || j->initial > j->upper) {
            return pln_yaml_error(c->y, v, sub, INVALID, "%g lies outside the limits [%g, %g]", j->initial,
                        j->lower, j->upper);
        }
    } else {
        j->initial = fmin(fmax(0.0, j->lower), j->upper);
    }
    return PLN_OK;
}

/* ---- links -------------------------------------------------------------------------- */

/* A link as read, before parents and joints are resolved. */
typedef struct LinkIn {
    PlnLink link;
    char parent_name[PLN_NAME_MAX];
    char joint_name[PLN_NAME_MAX];
    char mesh_rel[512], convex_rel[512];
    const yaml_node_t *node, *name_node, *parent_node, *joint_node, *mesh_node, *convex_node;
    const yaml_node_t *fit_capsule;  /* `capsule: fit`, or NULL */
    int parent_in;   /* index of the parent in file order, -1 for the root */
} LinkIn;

/* Symmetric (within PLN_ROBOT_INERTIA_SYM_TOL) and positive definite by Cholesky. */
static const char *inertia_problem(const double I[9])
{
    double scale = 0.0, l00, l10, l20, l11, l21, d2;
    for (int k = 0; k < 9; ++k) scale = fmax(scale, fabs(I[k]));
    for (int a = 0; a < 3; ++a) {
        for (int b = a + 1; b < 3; ++b) {
            if (fabs(I[3 * a + b] - I[3 * b + a]) > PLN_ROBOT_INERTIA_SYM_TOL * scale) {
                return "must be symmetric";
            }
        }
    }
    if (!(I[0] > 0.0)) return "must be positive definite";
    l00 = sqrt(I[0]);
    l10 = I[3] / l00;
    l20 = I[6] / l00;
    d2 = I[4] - l10 * l10;
    if (!(d2 > 0.0)) return "must be positive definite";
    l11 = sqrt(d2);
    l21 = (I[7] - l20 * l10) / l11;
    if (!(I[8] - l20 * l20 - l21 * l21 > 0.0)) return "must be positive definite";
    return NULL;
}

/* {center: [x, y, z], rpy: [r, p, y], radii: [a, b, c]}: rpy optional (0), radii > 0. */
static PlnStatus load_ellipsoid(const Ctx *c, const yaml_node_t *n, const char *field,
                                PlnLinkGeometry *g)
{
    static const char *const keys[] = {"center", "rpy", "radii", NULL};
    char sub[200], sub2[220];
    double rpy[3] = {0, 0, 0};
    yaml_node_t *w;
    PlnStatus st = pln_yaml_check_mapping(c->y, n, field, keys);
    if (st != PLN_OK) return st;
    pln_yaml_field(sub, sizeof sub, field, "center");
    if ((st = pln_yaml_require(c->y, n, field, "center", &w)) != PLN_OK) return st;
    if ((st = pln_yaml_node_numbers_bounded(c->y, w, sub, 3, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", g->ellipsoid_center)) != PLN_OK) return st;
    if ((w = pln_yaml_get(c->y, n, "rpy")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "rpy");
        if ((st = pln_yaml_node_numbers_bounded(c->y, w, sub, 3, PLN_MAX_RPY_RAD, "rad", rpy)) != PLN_OK) return st;
    }
    pln_kin_rpy_to_matrix(rpy, g->ellipsoid_rot);
    pln_yaml_field(sub, sizeof sub, field, "radii");
    if ((st = pln_yaml_require(c->y, n, field, "radii", &w)) != PLN_OK) return st;
    if ((st = pln_yaml_node_numbers_bounded(c->y, w, sub, 3, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", g->ellipsoid_radii)) != PLN_OK) return st;
    for (int k = 0; k < 3; ++k) {
        if (!(g->ellipsoid_radii[k] > 0.0)) {
            const yaml_node_t *item = pln_yaml_item(c->y, w, k);
            pln_yaml_field_index(sub2, sizeof sub2, sub, k);
            return pln_yaml_error(c->y, item, sub2, INVALID, "must be > 0 (metres), found %g",
                        g->ellipsoid_radii[k]);
        }
    }
    g->has_ellipsoid = 1;
    return PLN_OK;
}

static PlnStatus load_geometry(const Ctx *c, const yaml_node_t *n, const char *field, LinkIn *in)
{
    static const char *const keys[] = {"capsule", "mesh", "convex", "ellipsoid", NULL};
    static const char *const ckeys[] = {"p0", "p1", "radius", NULL};
    PlnLinkGeometry *g = &in->link.geometry;
    char sub[160], sub2[200];
    yaml_node_t *v, *w;
    PlnStatus st = pln_yaml_check_mapping(c->y, n, field, keys);
    if (st != PLN_OK) return st;

    if ((v = pln_yaml_get(c->y, n, "capsule")) != NULL && v->type == YAML_SCALAR_NODE) {
        char word[16];
        pln_yaml_field(sub, sizeof sub, field, "capsule");
        if ((st = pln_yaml_node_string(c->y, v, sub, word, sizeof word)) != PLN_OK) return st;
        if (strcmp(word, "fit") != 0) {
            return pln_yaml_error(c->y, v, sub, INVALID,
                                  "expected {p0, p1, radius} or 'fit' (fitted to the link's mesh)");
        }
        in->fit_capsule = v;
    } else if (v != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "capsule");
        if ((st = pln_yaml_check_mapping(c->y, v, sub, ckeys)) != PLN_OK) return st;
        pln_yaml_field(sub2, sizeof sub2, sub, "p0");
        if ((st = pln_yaml_require(c->y, v, sub, "p0", &w)) != PLN_OK) return st;
        if ((st = pln_yaml_node_numbers_bounded(c->y, w, sub2, 3, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", g->capsule_p0)) != PLN_OK) return st;
        pln_yaml_field(sub2, sizeof sub2, sub, "p1");
        if ((st = pln_yaml_require(c->y, v, sub, "p1", &w)) != PLN_OK) return st;
        if ((st = pln_yaml_node_numbers_bounded(c->y, w, sub2, 3, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", g->capsule_p1)) != PLN_OK) return st;
        pln_yaml_field(sub2, sizeof sub2, sub, "radius");
        if ((st = pln_yaml_require(c->y, v, sub, "radius", &w)) != PLN_OK) return st;
        if ((st = pln_yaml_node_double(c->y, w, sub2, &g->capsule_radius)) != PLN_OK) return st;
        if (!(g->capsule_radius > 0.0 && g->capsule_radius <= PLN_MAX_BODY_M)) {
            return pln_yaml_error(c->y, w, sub2, INVALID, "must lie in (0, %g] m, found %g", PLN_MAX_BODY_M, g->capsule_radius);
        }
        g->has_capsule = 1;
    }
    if ((v = pln_yaml_get(c->y, n, "ellipsoid")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "ellipsoid");
        if ((st = load_ellipsoid(c, v, sub, g)) != PLN_OK) return st;
    }
    if ((v = pln_yaml_get(c->y, n, "mesh")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "mesh");
        if ((st = pln_yaml_node_string(c->y, v, sub, in->mesh_rel, sizeof in->mesh_rel)) != PLN_OK) return st;
        in->mesh_node = v;
    }
    if ((v = pln_yaml_get(c->y, n, "convex")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "convex");
        if ((st = pln_yaml_node_string(c->y, v, sub, in->convex_rel, sizeof in->convex_rel)) != PLN_OK) return st;
        in->convex_node = v;
    }
    return PLN_OK;
}

static PlnStatus load_link(const Ctx *c, const yaml_node_t *n, int index, LinkIn *in)
{
    static const char *const keys[] = {"name", "parent", "joint", "origin", "mass", "com",
                                       "inertia", "geometry", NULL};
    char field[64], sub[160];
    yaml_node_t *v;
    PlnStatus st;
    const char *why;
    PlnLink *l = &in->link;

    snprintf(field, sizeof field, "links[%d]", index);
    if ((st = pln_yaml_check_mapping(c->y, n, field, keys)) != PLN_OK) return st;
    memset(in, 0, sizeof *in);
    in->node = n;
    l->parent = -1;
    l->joint = -1;
    identity(l->origin_rot);

    pln_yaml_field(sub, sizeof sub, field, "name");
    if ((st = pln_yaml_require(c->y, n, field, "name", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_string(c->y, v, sub, l->name, sizeof l->name)) != PLN_OK) return st;
    in->name_node = v;

    if ((v = pln_yaml_get(c->y, n, "parent")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "parent");
        if ((st = pln_yaml_node_string(c->y, v, sub, in->parent_name, sizeof in->parent_name)) != PLN_OK) return st;
        in->parent_node = v;
    }
    if ((v = pln_yaml_get(c->y, n, "joint")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "joint");
        if ((st = pln_yaml_node_string(c->y, v, sub, in->joint_name, sizeof in->joint_name)) != PLN_OK) return st;
        if (in->parent_node == NULL) {
            return pln_yaml_error(c->y, v, sub, INVALID, "the root link (no 'parent') cannot have a joint");
        }
        in->joint_node = v;
    }
    if ((v = pln_yaml_get(c->y, n, "origin")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "origin");
        if (in->parent_node == NULL) {
            return pln_yaml_error(c->y, v, sub, INVALID,
                        "the root link (no 'parent') has no origin; its pose is 'base'");
        }
        if ((st = pose(c, v, sub, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", l->origin_pos, l->origin_rot)) != PLN_OK) return st;
    }

    pln_yaml_field(sub, sizeof sub, field, "mass");
    if ((st = pln_yaml_require(c->y, n, field, "mass", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_double(c->y, v, sub, &l->mass)) != PLN_OK) return st;
    if (l->mass < 0.0) return pln_yaml_error(c->y, v, sub, INVALID, "must be >= 0 (kg), found %g", l->mass);

    pln_yaml_field(sub, sizeof sub, field, "com");
    if ((st = pln_yaml_require(c->y, n, field, "com", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_numbers_bounded(c->y, v, sub, 3, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", l->com)) != PLN_OK) return st;

    pln_yaml_field(sub, sizeof sub, field, "inertia");
    if ((st = pln_yaml_require(c->y, n, field, "inertia", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_matrix(c->y, v, sub, 3, 3, l->inertia)) != PLN_OK) return st;
    {
        int all_zero = 1;
        for (int k = 0; k < 9; ++k) all_zero &= l->inertia[k] == 0.0;
        /* a massless link may have no inertia at all; otherwise it must be SPD */
        if (!(all_zero && l->mass == 0.0) && (why = inertia_problem(l->inertia)) != NULL) {
            return pln_yaml_error(c->y, v, sub, INVALID, "%s", why);
        }
    }

    if ((v = pln_yaml_get(c->y, n, "geometry")) != NULL) {
        pln_yaml_field(sub, sizeof sub, field, "geometry");
        if ((st = load_geometry(c, v, sub, in)) != PLN_OK) return st;
    }
    return PLN_OK;
}

/* The mesh file of a link, resolved against the YAML file's directory, read through
 * dst_mesh. Writes the resolved path; *triangles gets the count. */
static PlnStatus load_mesh(const Ctx *c, const yaml_node_t *node, const char *field,
                           const char *rel, char *resolved, size_t size, int *triangles)
{
    struct stat sb;
    char derr[512];
    DstMesh mesh;
    PlnStatus mst;
    int n;
    if (rel[0] == '/' || c->dir[0] == '\0') n = snprintf(resolved, size, "%s", rel);
    else n = snprintf(resolved, size, "%s/%s", c->dir, rel);
    if (n < 0 || (size_t)n >= size) {
        return pln_yaml_error(c->y, node, field, INVALID, "resolved path is too long");
    }
    if (stat(resolved, &sb) != 0) {
        return pln_yaml_error(c->y, node, field, INVALID, "mesh file '%s' not found (looked for %s: %s)", rel,
                    resolved, strerror(errno));
    }
    mst = pln_mesh_read(resolved, &mesh, derr, sizeof derr);
    if (mst == PLN_ERR_NOMEM) return pln_yaml_error(c->y, node, field, PLN_ERR_NOMEM, "%s", derr);
    if (mst != PLN_OK) return pln_yaml_error(c->y, node, field, INVALID, "bad mesh: %s", derr);
    *triangles = mesh.n_triangles;
    dst_mesh_destroy(&mesh);
    return PLN_OK;
}

/* ---- the whole file ------------------------------------------------------------------ */

static int find_in(const LinkIn *ins, int n, const char *name)
{
    for (int i = 0; i < n; ++i) {
        if (strcmp(ins[i].link.name, name) == 0) return i;
    }
    return -1;
}

/* The default self-collision pairs: a list of [link, link] (thesis Table 6.1 for HRP-2),
 * each link named once per pair, both with a capsule, no pair twice. Needs the links. */
static PlnStatus load_pairs(const Ctx *c, const yaml_node_t *seq, PlnRobot *robot)
{
    int n;
    PlnStatus st0 = pln_yaml_sequence(c->y, seq, "collision_pairs", &n);
    if (st0 != PLN_OK) return st0;
    robot->collision_pairs = calloc((size_t)(n > 0 ? n : 1), sizeof *robot->collision_pairs);
    if (robot->collision_pairs == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, c->y->err, c->y->err_size, "%s: out of memory", c->path);
    }
    for (int i = 0; i < n; ++i) {
        yaml_node_t *item = pln_yaml_item(c->y, seq, i);
        char sub[64], name[PLN_NAME_MAX];
        int idx[2];
        snprintf(sub, sizeof sub, "collision_pairs[%d]", i);
        int len = 0;
        if (item->type == YAML_SEQUENCE_NODE) pln_yaml_sequence(c->y, item, sub, &len);
        if (len != 2) return pln_yaml_error(c->y, item, sub, INVALID, "expected [link, link]");
        for (int k = 0; k < 2; ++k) {
            yaml_node_t *nm = pln_yaml_item(c->y, item, k);
            PlnStatus st = pln_yaml_node_string(c->y, nm, sub, name, sizeof name);
            if (st != PLN_OK) return st;
            idx[k] = pln_robot_find_link(robot, name);
            if (idx[k] < 0) return pln_yaml_error(c->y, nm, sub, INVALID, "unknown link '%s'", name);
            if (!robot->links[idx[k]].geometry.has_capsule) {
                return pln_yaml_error(c->y, nm, sub, INVALID, "link '%s' has no capsule", name);
            }
        }
        if (idx[0] == idx[1]) return pln_yaml_error(c->y, item, sub, INVALID, "a link cannot collide with itself");
        for (int j = 0; j < i; ++j) {
            const int *q = robot->collision_pairs[j];
            if ((q[0] == idx[0] && q[1] == idx[1]) || (q[0] == idx[1] && q[1] == idx[0])) {
                return pln_yaml_error(c->y, item, sub, INVALID, "the same pair as collision_pairs[%d]", j);
            }
        }
        robot->collision_pairs[i][0] = idx[0];
        robot->collision_pairs[i][1] = idx[1];
        robot->n_collision_pairs = i + 1;
    }
    return PLN_OK;
}

/* Soles: a list of {link, size: [x, y], offset: [x, y, z]}, one per link, each of
 * positive area. Needs the links. */
static PlnStatus load_soles(const Ctx *c, const yaml_node_t *seq, PlnRobot *robot)
{
    static const char *const keys[] = {"link", "size", "offset", NULL};
    int n;
    PlnStatus st = pln_yaml_sequence(c->y, seq, "soles", &n);
    if (st != PLN_OK) return st;
    if (n > PLN_ROBOT_MAX_SOLES) {
        return pln_yaml_error(c->y, seq, "soles", INVALID, "%d soles, at most %d", n, PLN_ROBOT_MAX_SOLES);
    }
    for (int i = 0; i < n; ++i) {
        yaml_node_t *item = pln_yaml_item(c->y, seq, i), *v;
        char field[32], sub[64], name[PLN_NAME_MAX];
        PlnSole *s = &robot->soles[i];
        snprintf(field, sizeof field, "soles[%d]", i);
        if ((st = pln_yaml_check_mapping(c->y, item, field, keys)) != PLN_OK) return st;
        pln_yaml_field(sub, sizeof sub, field, "link");
        if ((st = pln_yaml_require(c->y, item, field, "link", &v)) != PLN_OK) return st;
        if ((st = pln_yaml_node_string(c->y, v, sub, name, sizeof name)) != PLN_OK) return st;
        s->link = pln_robot_find_link(robot, name);
        if (s->link < 0) return pln_yaml_error(c->y, v, sub, INVALID, "unknown link '%s'", name);
        for (int j = 0; j < i; ++j) {
            if (robot->soles[j].link == s->link) {
                return pln_yaml_error(c->y, v, sub, INVALID, "link '%s' already has a sole (soles[%d])",
                                      name, j);
            }
        }
        pln_yaml_field(sub, sizeof sub, field, "size");
        if ((st = pln_yaml_require(c->y, item, field, "size", &v)) != PLN_OK) return st;
        if ((st = pln_yaml_node_numbers_bounded(c->y, v, sub, 2, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", s->size)) != PLN_OK) return st;
        if (!(s->size[0] > 0.0 && s->size[1] > 0.0)) {
            return pln_yaml_error(c->y, v, sub, INVALID,
                                  "a sole must have positive area, found %g x %g m", s->size[0],
                                  s->size[1]);
        }
        pln_yaml_field(sub, sizeof sub, field, "offset");
        if ((st = pln_yaml_require(c->y, item, field, "offset", &v)) != PLN_OK) return st;
        if ((st = pln_yaml_node_numbers_bounded(c->y, v, sub, 3, PLN_MAX_BODY_M, "m (a length within a robot; wrong units?)", s->offset)) != PLN_OK) return st;
        robot->n_soles = i + 1;
    }
    return PLN_OK;
}

/* Effort limits are all or none: a torque constraint on some joints only would leave
 * the others unbounded without anyone having said so. */
static PlnStatus check_efforts(const Ctx *c, const yaml_node_t *jseq, PlnRobot *robot)
{
    int first = -1, missing = -1;
    for (int j = 0; j < robot->n_joints; ++j) {
        if (robot->joints[j].effort_max > 0.0) {
            if (first < 0) first = j;
        } else if (missing < 0) {
            missing = j;
        }
    }
    robot->has_effort = first >= 0 && missing < 0;
    if (first >= 0 && missing >= 0) {
        char field[32];
        snprintf(field, sizeof field, "joints[%d]", missing);
        return pln_yaml_error(c->y, pln_yaml_item(c->y, jseq, missing), field, INVALID,
                              "joint '%s' has no effort_max, but joints[%d] (%s) has one: give "
                              "every joint an effort limit or none",
                              robot->joints[missing].name, first, robot->joints[first].name);
    }
    return PLN_OK;
}

/* Everything after the YAML is parsed: the schema walk, cross references, topological
 * order, meshes. On failure the caller frees robot. */
static PlnStatus load_document(Ctx *c, PlnRobot *robot)
{
    static const char *const keys[] = {"name", "control_period", "base", "joints", "links",
                                       "collision_pairs", "soles", NULL};
    yaml_node_t *root = pln_yaml_root(c->y), *v, *jseq, *lseq;
    LinkIn *ins = NULL;
    int *order = NULL, *stack = NULL, *joint_user = NULL;
    int nl, nj, root_link = -1, placed = 0, sp = 0;
    PlnStatus st;

    if ((st = pln_yaml_check_mapping(c->y, root, "", keys)) != PLN_OK) return st;

    if ((st = pln_yaml_require(c->y, root, "", "name", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_string(c->y, v, "name", robot->name, sizeof robot->name)) != PLN_OK) return st;
    if ((st = pln_yaml_require(c->y, root, "", "control_period", &v)) != PLN_OK) return st;
    if ((st = pln_yaml_node_double(c->y, v, "control_period", &robot->control_period)) != PLN_OK) return st;
    if (!(robot->control_period > 0.0)) {
        return pln_yaml_error(c->y, v, "control_period", INVALID, "must be > 0 (seconds), found %g",
                    robot->control_period);
    }
    identity(robot->base_rot);
    if ((v = pln_yaml_get(c->y, root, "base")) != NULL) {
        if ((st = pose(c, v, "base", PLN_MAX_WORLD_M, "m (the scene's extent; wrong units?)", robot->base_pos, robot->base_rot)) != PLN_OK) return st;
    }

    /* joints, in file order */
    if ((st = pln_yaml_require(c->y, root, "", "joints", &jseq)) != PLN_OK) return st;
    if ((st = pln_yaml_sequence(c->y, jseq, "joints", &nj)) != PLN_OK) return st;
    if (nj > PLN_ROBOT_MAX_LINKS) {
        return pln_yaml_error(c->y, jseq, "joints", INVALID, "%d joints: more than %d", nj, PLN_ROBOT_MAX_LINKS);
    }
    if ((st = pln_yaml_require(c->y, root, "", "links", &lseq)) != PLN_OK) return st;
    if ((st = pln_yaml_sequence(c->y, lseq, "links", &nl)) != PLN_OK) return st;
    if (nl < 1) return pln_yaml_error(c->y, lseq, "links", INVALID, "needs at least one link");
    if (nl > PLN_ROBOT_MAX_LINKS) {
        return pln_yaml_error(c->y, lseq, "links", INVALID, "%d links: more than %d", nl, PLN_ROBOT_MAX_LINKS);
    }

    robot->joints = calloc(nj > 0 ? (size_t)nj : 1, sizeof *robot->joints);
    robot->links = calloc((size_t)nl, sizeof *robot->links);
    ins = calloc((size_t)nl, sizeof *ins);
    order = calloc((size_t)nl, sizeof *order);
    stack = calloc((size_t)nl, sizeof *stack);
    joint_user = calloc(nj > 0 ? (size_t)nj : 1, sizeof *joint_user);
    if (robot->joints == NULL || robot->links == NULL || ins == NULL || order == NULL ||
        stack == NULL || joint_user == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, c->y->err, c->y->err_size, "%s: out of memory", c->path);
        goto done;
    }

    for (int i = 0; i < nj; ++i) {
        yaml_node_t *jn = pln_yaml_item(c->y, jseq, i);
        if ((st = load_joint(c, jn, i, &robot->joints[i])) != PLN_OK) goto done;
        for (int k = 0; k < i; ++k) {
            if (strcmp(robot->joints[k].name, robot->joints[i].name) == 0) {
                char sub[64];
                snprintf(sub, sizeof sub, "joints[%d].name", i);
                st = pln_yaml_error(c->y, pln_yaml_get(c->y, jn, "name"), sub, INVALID,
                          "duplicate joint name '%s' (also joints[%d])", robot->joints[i].name, k);
                goto done;
            }
        }
        joint_user[i] = -1;
    }
    robot->n_joints = nj;

    /* links, in file order */
    for (int i = 0; i < nl; ++i) {
        yaml_node_t *ln = pln_yaml_item(c->y, lseq, i);
        if ((st = load_link(c, ln, i, &ins[i])) != PLN_OK) goto done;
        int k = find_in(ins, i, ins[i].link.name);
        if (k >= 0) {
            char sub[64];
            snprintf(sub, sizeof sub, "links[%d].name", i);
            st = pln_yaml_error(c->y, ins[i].name_node, sub, INVALID, "duplicate link name '%s' (also links[%d])",
                      ins[i].link.name, k);
            goto done;
        }
    }

    /* parents and joints by name; exactly one root */
    for (int i = 0; i < nl; ++i) {
        char sub[64];
        LinkIn *in = &ins[i];
        if (in->parent_node == NULL) {
            if (root_link >= 0) {
                snprintf(sub, sizeof sub, "links[%d]", i);
                st = pln_yaml_error(c->y, in->node, sub, INVALID,
                          "second root link '%s' (no 'parent'); '%s' is already the root",
                          in->link.name, ins[root_link].link.name);
                goto done;
            }
            root_link = i;
            in->parent_in = -1;
        } else {
            in->parent_in = find_in(ins, nl, in->parent_name);
            snprintf(sub, sizeof sub, "links[%d].parent", i);
            if (in->parent_in < 0) {
                st = pln_yaml_error(c->y, in->parent_node, sub, INVALID, "unknown parent link '%s'",
                          in->parent_name);
                goto done;
            }
            if (in->parent_in == i) {
                st = pln_yaml_error(c->y, in->parent_node, sub, INVALID, "link '%s' is its own parent",
                          in->link.name);
                goto done;
            }
        }
        if (in->joint_node != NULL) {
            int j = -1;
            for (int k = 0; k < nj; ++k) {
                if (strcmp(robot->joints[k].name, in->joint_name) == 0) j = k;
            }
            snprintf(sub, sizeof sub, "links[%d].joint", i);
            if (j < 0) {
                st = pln_yaml_error(c->y, in->joint_node, sub, INVALID, "unknown joint '%s'", in->joint_name);
                goto done;
            }
            if (joint_user[j] >= 0) {
                st = pln_yaml_error(c->y, in->joint_node, sub, INVALID,
                          "joint '%s' already moves link '%s'", in->joint_name,
                          ins[joint_user[j]].link.name);
                goto done;
            }
            joint_user[j] = i;
        }
    }
    for (int j = 0; j < nj; ++j) {
        if (joint_user[j] < 0) {
            char sub[64];
            snprintf(sub, sizeof sub, "joints[%d]", j);
            st = pln_yaml_error(c->y, pln_yaml_item(c->y, jseq, j), sub, INVALID,
                      "joint '%s' moves no link (no link names it as its 'joint')",
                      robot->joints[j].name);
            goto done;
        }
    }
    if (root_link < 0) {
        st = pln_yaml_error(c->y, lseq, "links", INVALID,
                  "no root link: every link has a parent, so the parents form a cycle");
        goto done;
    }

    /* topological order: depth first from the root, children in file order */
    stack[sp++] = root_link;
    while (sp > 0) {
        int i = stack[--sp];
        order[placed++] = i;
        /* push children in reverse file order so the first child is visited first */
        for (int k = nl - 1; k >= 0; --k) {
            if (ins[k].parent_in == i) stack[sp++] = k;
        }
    }
    if (placed < nl) {
        /* a link the root does not reach: its parent chain loops */
        int i = 0, at, len = 0;
        char chain[512] = "";
        int *seen = stack;  /* reuse: the stack is empty now */
        memset(seen, 0, (size_t)nl * sizeof *seen);
        for (int k = 0; k < placed; ++k) seen[order[k]] = -1;
        while (seen[i] != 0) ++i;
        /* walk up until a link repeats, then print the loop from there */
        at = i;
        while (seen[at] == 0) {
            seen[at] = 1;
            at = ins[at].parent_in;
        }
        i = at;
        do {
            len += snprintf(chain + len, sizeof chain - (size_t)len, "%s -> ",
                            ins[i].link.name);
            if ((size_t)len >= sizeof chain) break;
            i = ins[i].parent_in;
        } while (i != at);
        if ((size_t)len < sizeof chain) {
            snprintf(chain + len, sizeof chain - (size_t)len, "%s", ins[at].link.name);
        }
        char sub[64];
        snprintf(sub, sizeof sub, "links[%d].parent", at);
        st = pln_yaml_error(c->y, ins[at].parent_node, sub, INVALID, "cycle in the link tree: %s", chain);
        goto done;
    }

    /* meshes and convex hulls, in file order so errors come in reading order */
    for (int i = 0; i < nl; ++i) {
        PlnLinkGeometry *g = &ins[i].link.geometry;
        char sub[96];
        if (ins[i].mesh_node != NULL) {
            snprintf(sub, sizeof sub, "links[%d].geometry.mesh", i);
            st = load_mesh(c, ins[i].mesh_node, sub, ins[i].mesh_rel, g->mesh_path,
                           sizeof g->mesh_path, &g->mesh_triangles);
            if (st != PLN_OK) goto done;
        }
        if (ins[i].fit_capsule != NULL && ins[i].mesh_node == NULL) {
            snprintf(sub, sizeof sub, "links[%d].geometry.capsule", i);
            st = pln_yaml_error(c->y, ins[i].fit_capsule, sub, INVALID,
                                "'fit' needs the link's mesh (geometry.mesh)");
            goto done;
        }
        if (ins[i].mesh_node != NULL && (ins[i].fit_capsule != NULL || !g->has_capsule)) {
            /* the enclosing capsule of the mesh (docs/math/capsule_fit.md): asked for with
             * `capsule: fit`, or given to a link with a mesh and no capsule, so that
             * planning on capsules measures it */
            DstMesh m;
            PlnCapsuleFit fit;
            char derr[512];
            snprintf(sub, sizeof sub, "links[%d].geometry.mesh", i);
            st = pln_mesh_read(g->mesh_path, &m, derr, sizeof derr);
            if (st != PLN_OK) {
                st = pln_yaml_error(c->y, ins[i].mesh_node, sub, st, "%s", derr);
                goto done;
            }
            st = pln_capsule_fit(&m.vertices[0][0], m.n_vertices, &fit, derr, sizeof derr);
            dst_mesh_destroy(&m);
            if (st != PLN_OK) {
                st = pln_yaml_error(c->y, ins[i].mesh_node, sub, st, "capsule fit: %s", derr);
                goto done;
            }
            memcpy(g->capsule_p0, fit.p0, sizeof fit.p0);
            memcpy(g->capsule_p1, fit.p1, sizeof fit.p1);
            g->capsule_radius = fit.radius;
            g->has_capsule = 1;
            g->capsule_fitted = 1;
        }
        if (ins[i].convex_node != NULL) {
            int unused;
            snprintf(sub, sizeof sub, "links[%d].geometry.convex", i);
            st = load_mesh(c, ins[i].convex_node, sub, ins[i].convex_rel, g->convex_path,
                           sizeof g->convex_path, &unused);
            if (st != PLN_OK) goto done;
        }
    }

    /* the model: links in topological order with indices remapped */
    {
        int *pos_of = stack;  /* file index -> topological index (the stack is free) */
        for (int k = 0; k < nl; ++k) pos_of[order[k]] = k;
        for (int k = 0; k < nl; ++k) {
            const LinkIn *in = &ins[order[k]];
            PlnLink *l = &robot->links[k];
            *l = in->link;
            l->parent = in->parent_in < 0 ? -1 : pos_of[in->parent_in];
            l->joint = -1;
        }
        for (int j = 0; j < nj; ++j) {
            int k = pos_of[joint_user[j]];
            robot->joints[j].link = k;
            robot->links[k].joint = j;
        }
        robot->n_links = nl;
        robot->total_mass = 0.0;
        for (int k = 0; k < nl; ++k) robot->total_mass += robot->links[k].mass;
    }
    st = PLN_OK;
    if ((v = pln_yaml_get(c->y, root, "collision_pairs")) != NULL) st = load_pairs(c, v, robot);
    if (st == PLN_OK && (v = pln_yaml_get(c->y, root, "soles")) != NULL) st = load_soles(c, v, robot);
    if (st == PLN_OK) st = check_efforts(c, jseq, robot);

done:
    free(ins);
    free(order);
    free(stack);
    free(joint_user);
    return st;
}

/* Robot description loader: the document through pln_yaml, then the schema walk above. */
PlnStatus pln_robot_load(const char *path, PlnRobot *robot, char *err, size_t err_size)
{
    Ctx c;
    PlnYaml y;
    PlnStatus st;
    const char *slash;

    memset(robot, 0, sizeof *robot);
    if (path == NULL) return pln_errorf(PLN_ERR_USAGE, err, err_size, "no robot file given");
    if (pln_robot_is_urdf(path)) return pln_urdf_load(path, NULL, robot, err, err_size);
    memset(&c, 0, sizeof c);
    c.path = path;
    c.y = &y;
    slash = strrchr(path, '/');
    if (slash != NULL) {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof c.dir) {
            return pln_errorf(PLN_ERR_IO, err, err_size, "%s: path too long", path);
        }
        memcpy(c.dir, path, n);
        c.dir[n] = '\0';
        if (n == 0) snprintf(c.dir, sizeof c.dir, "/");
    }
    st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) return st;
    st = load_document(&c, robot);
    pln_yaml_free(&y);
    if (st != PLN_OK) pln_robot_destroy(robot);
    return st;
}

PlnStatus pln_robot_fingerprint(const PlnRobot *robot, const char *path, char hex[65],
                                char *err, size_t err_size)
{
    PlnSha256 h;
    PlnStatus st;
    pln_sha256_init(&h);
    st = pln_sha256_file(&h, path, "robot file", PLN_MAX_YAML_BYTES, err, err_size);
    /* links by name, not by index: a re-rooted model (pln_robot_reroot) orders its links
     * from another root, and must have the fingerprint of its file */
    const char *prev = NULL;
    for (int n = 0; n < robot->n_links && st == PLN_OK; ++n) {
        int l = -1;
        for (int k = 0; k < robot->n_links; ++k) {
            const char *name = robot->links[k].name;
            if (prev != NULL && strcmp(name, prev) <= 0) continue;
            if (l < 0 || strcmp(name, robot->links[l].name) < 0) l = k;
        }
        if (l < 0) break;
        prev = robot->links[l].name;
        const PlnLinkGeometry *g = &robot->links[l].geometry;
        const char *files[2] = {g->mesh_path, g->convex_path};
        for (int k = 0; k < 2 && st == PLN_OK; ++k) {
            if (files[k][0] == '\0') continue;
            pln_sha256_update(&h, robot->links[l].name, strlen(robot->links[l].name) + 1);
            st = pln_sha256_file(&h, files[k], "mesh file", PLN_MAX_MESH_BYTES, err, err_size);
        }
        /* the mesh files of its collision parts (the primitives are in the robot file) */
        for (int k = 0; k < g->n_parts && st == PLN_OK; ++k) {
            const PlnCollisionPart *part = &robot->parts[g->part_first + k];
            if (part->type != PLN_PART_MESH) continue;
            pln_sha256_update(&h, robot->links[l].name, strlen(robot->links[l].name) + 1);
            st = pln_sha256_file(&h, part->path, "mesh file", PLN_MAX_MESH_BYTES, err, err_size);
        }
    }
    if (st == PLN_OK) pln_sha256_hex(&h, hex);
    return st;
}

int pln_robot_is_urdf(const char *path)
{
    size_t n = path != NULL ? strlen(path) : 0;
    return n >= 5 && strcasecmp(path + n - 5, ".urdf") == 0;
}

void pln_robot_destroy(PlnRobot *robot)
{
    if (robot == NULL) return;
    free(robot->joints);
    free(robot->links);
    free(robot->collision_pairs);
    free(robot->parts);
    memset(robot, 0, sizeof *robot);
}

void pln_link_file_point(const PlnLinkGeometry *g, const double x[3], double out[3])
{
    double y[3];
    if (!g->has_file_pose) {
        memmove(out, x, 3 * sizeof *out);
        return;
    }
    for (int r = 0; r < 3; ++r) {
        y[r] = g->file_pos[r] + g->file_rot[3 * r] * x[0] + g->file_rot[3 * r + 1] * x[1] +
               g->file_rot[3 * r + 2] * x[2];
    }
    memcpy(out, y, sizeof y);
}

int pln_robot_find_sole(const PlnRobot *robot, int link)
{
    for (int i = 0; i < robot->n_soles; ++i) {
        if (robot->soles[i].link == link) return i;
    }
    return -1;
}

void pln_sole_corner(const PlnSole *sole, int k, double out[3])
{
    out[0] = sole->offset[0] + (k & 1 ? 0.5 : -0.5) * sole->size[0];
    out[1] = sole->offset[1] + (k & 2 ? 0.5 : -0.5) * sole->size[1];
    out[2] = sole->offset[2];
}

const char *pln_joint_type_name(PlnJointType t)
{
    switch (t) {
    case PLN_JOINT_REVOLUTE: return "revolute";
    case PLN_JOINT_FIXED: return "fixed";
    case PLN_JOINT_PRISMATIC: return "prismatic";
    }
    return "?";
}

const char *pln_joint_position_unit(PlnJointType t)
{
    return t == PLN_JOINT_PRISMATIC ? "m" : "rad";
}

const char *pln_joint_velocity_unit(PlnJointType t)
{
    return t == PLN_JOINT_PRISMATIC ? "m/s" : "rad/s";
}

const char *pln_joint_effort_unit(PlnJointType t)
{
    return t == PLN_JOINT_PRISMATIC ? "N" : "N m";
}

int pln_robot_find_joint(const PlnRobot *robot, const char *name)
{
    if (name == NULL) return -1;
    for (int i = 0; i < robot->n_joints; ++i) {
        if (strcmp(robot->joints[i].name, name) == 0) return i;
    }
    return -1;
}

int pln_robot_find_link(const PlnRobot *robot, const char *name)
{
    if (name == NULL) return -1;
    for (int i = 0; i < robot->n_links; ++i) {
        if (strcmp(robot->links[i].name, name) == 0) return i;
    }
    return -1;
}

int pln_robot_link_below(const PlnRobot *robot, int below, int l)
{
    for (int a = below; a >= 0; a = robot->links[a].parent) {
        if (a == l) return 1;
    }
    return 0;
}
