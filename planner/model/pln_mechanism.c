/* pln_mechanism.c — mechanism files of `hrpplan impact` (model/pln_mechanism.h). */
#include "model/pln_mechanism.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"
#include "base/pln_yaml.h"

static int find_body(const PlnMechanism *m, const char *name)
{
    if (strcmp(name, "world") == 0) return PLN_IMPACT_WORLD;
    for (int k = 0; k < m->n_bodies; ++k) {
        if (strcmp(m->bodies[k].name, name) == 0) return k;
    }
    return -2;
}

/* a direction: three finite numbers, not all zero, normalised */
static PlnStatus read_direction(PlnYaml *y, const yaml_node_t *map, const char *field, const char *key,
                                double out[3])
{
    char f[160];
    double n;
    PlnStatus st = pln_yaml_vector(y, map, field, key, 1, 3, out);
    if (st != PLN_OK) return st;
    n = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (!(n > PLN_IMPACT_MIN_DIRECTION)) {
        return pln_yaml_error(y, pln_yaml_get(y, map, key), pln_yaml_field(f, sizeof f, field, key),
                              PLN_ERR_INVALID, "a direction must not be zero");
    }
    for (int d = 0; d < 3; ++d) out[d] /= n;
    return PLN_OK;
}

/* the names of a `bodies: [A, B]` list; n_max 2; world allowed where `world_ok` */
static PlnStatus read_pair(PlnYaml *y, const PlnMechanism *m, const yaml_node_t *map, const char *field,
                           int *count, int idx[2])
{
    yaml_node_t *seq;
    char f[160], g[160];
    int n;
    PlnStatus st = pln_yaml_require(y, map, field, "bodies", &seq);
    if (st == PLN_OK) st = pln_yaml_sequence(y, seq, pln_yaml_field(f, sizeof f, field, "bodies"), &n);
    if (st != PLN_OK) return st;
    if (n < 1 || n > 2) {
        return pln_yaml_error(y, seq, f, PLN_ERR_INVALID, "expected one or two body names, got %d", n);
    }
    for (int i = 0; i < n; ++i) {
        char name[PLN_IMPACT_NAME_MAX];
        yaml_node_t *it = pln_yaml_item(y, seq, i);
        st = pln_yaml_node_string(y, it, pln_yaml_field_index(g, sizeof g, f, i), name, sizeof name);
        if (st != PLN_OK) return st;
        idx[i] = find_body(m, name);
        if (idx[i] == -2) return pln_yaml_error(y, it, g, PLN_ERR_INVALID, "unknown body '%s'", name);
    }
    *count = n;
    return PLN_OK;
}

static PlnStatus read_body(PlnYaml *y, PlnMechanism *m, const yaml_node_t *node, int k)
{
    static const char *const keys[] = {"name", "mass", "inertia", "com", "velocity", "angular_velocity", NULL};
    PlnImpactBody *b = &m->bodies[k];
    char field[64], f[160];
    yaml_node_t *in;
    int n;
    PlnStatus st;
    snprintf(field, sizeof field, "bodies[%d]", k);
    st = pln_yaml_check_mapping(y, node, field, keys);
    if (st == PLN_OK) st = pln_yaml_string(y, node, field, "name", 1, b->name, sizeof b->name);
    if (st != PLN_OK) return st;
    if (strcmp(b->name, "world") == 0 || find_body(m, b->name) != k) {
        return pln_yaml_error(y, pln_yaml_get(y, node, "name"), pln_yaml_field(f, sizeof f, field, "name"),
                              PLN_ERR_INVALID, "'%s' is %s", b->name,
                              strcmp(b->name, "world") == 0 ? "reserved for the still environment" : "a duplicate name");
    }
    st = pln_yaml_double(y, node, field, "mass", 1, &b->mass);
    if (st == PLN_OK && !(b->mass > 0.0)) {
        st = pln_yaml_error(y, pln_yaml_get(y, node, "mass"), pln_yaml_field(f, sizeof f, field, "mass"),
                            PLN_ERR_INVALID, "must be positive");
    }
    if (st == PLN_OK) st = pln_yaml_require(y, node, field, "inertia", &in);
    if (st == PLN_OK) st = pln_yaml_sequence(y, in, pln_yaml_field(f, sizeof f, field, "inertia"), &n);
    if (st != PLN_OK) return st;
    memset(b->inertia, 0, sizeof b->inertia);
    if (n == 3 && pln_yaml_item(y, in, 0)->type == YAML_SCALAR_NODE) {
        double d[3];
        st = pln_yaml_node_numbers(y, in, f, 3, d);
        if (st != PLN_OK) return st;
        if (!(d[0] > 0.0 && d[1] > 0.0 && d[2] > 0.0)) {
            return pln_yaml_error(y, in, f, PLN_ERR_INVALID, "principal moments must be positive");
        }
        b->inertia[0] = d[0];
        b->inertia[4] = d[1];
        b->inertia[8] = d[2];
    } else {
        st = pln_yaml_node_matrix(y, in, f, 3, 3, b->inertia);
        if (st != PLN_OK) return st;
    }
    {
        PlnImpactBody probe = *b;
        PlnImpactSystem one = {1, &probe, 0, NULL, {0, PLN_IMPACT_WORLD, {0, 0, 0}, {0, 0, 1}, 0.0, 0.0, 0}};
        char e2[256];
        if (pln_impact_validate(&one, e2, sizeof e2) != PLN_OK) {
            return pln_yaml_error(y, in, f, PLN_ERR_INVALID, "must be symmetric positive definite (kg m^2)");
        }
    }
    st = pln_yaml_vector_bounded(y, node, field, "com", 1, 3, PLN_MAX_WORLD_M, "m (the scene's extent; wrong units?)", b->com);
    if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "velocity", 0, 3, PLN_MAX_SPEED, "m/s or rad/s", b->v);
    if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "angular_velocity", 0, 3, PLN_MAX_SPEED, "m/s or rad/s", b->w);
    return st;
}

static PlnStatus read_joint(PlnYaml *y, PlnMechanism *m, const yaml_node_t *node, int k)
{
    static const char *const keys[] = {"name", "type", "bodies", "anchor", "axis", NULL};
    static const char *const types[] = {"point", "nail", "revolute", "angle", "cylindrical", "prismatic", "fixed"};
    PlnImpactJoint *j = &m->joints[k];
    char field[64], f[160], type[32];
    int n = 0, idx[2] = {0, PLN_IMPACT_WORLD}, t = -1;
    PlnStatus st;
    snprintf(field, sizeof field, "joints[%d]", k);
    st = pln_yaml_check_mapping(y, node, field, keys);
    if (st == PLN_OK) st = pln_yaml_string(y, node, field, "name", 1, j->name, sizeof j->name);
    if (st == PLN_OK) st = pln_yaml_string(y, node, field, "type", 1, type, sizeof type);
    if (st != PLN_OK) return st;
    for (int i = 0; i < 7; ++i) {
        if (strcmp(type, types[i]) == 0) t = i;
    }
    if (t < 0) {
        return pln_yaml_error(y, pln_yaml_get(y, node, "type"), pln_yaml_field(f, sizeof f, field, "type"),
                              PLN_ERR_INVALID,
                              "'%s': expected point, nail, revolute, angle, cylindrical, prismatic or fixed", type);
    }
    j->type = (PlnImpactJointType)t;
    for (int i = 0; i < k; ++i) {
        if (strcmp(m->joints[i].name, j->name) == 0) {
            return pln_yaml_error(y, pln_yaml_get(y, node, "name"), pln_yaml_field(f, sizeof f, field, "name"),
                                  PLN_ERR_INVALID, "'%s' is a duplicate name", j->name);
        }
    }
    st = read_pair(y, m, node, field, &n, idx);
    if (st != PLN_OK) return st;
    pln_yaml_field(f, sizeof f, field, "bodies");
    if (n == 1) idx[1] = PLN_IMPACT_WORLD;
    if (idx[0] == PLN_IMPACT_WORLD) { /* the world second */
        idx[0] = idx[1];
        idx[1] = PLN_IMPACT_WORLD;
    }
    if (idx[0] == PLN_IMPACT_WORLD || idx[0] == idx[1]) {
        return pln_yaml_error(y, pln_yaml_get(y, node, "bodies"), f, PLN_ERR_INVALID,
                              "a joint joins two different bodies (or one body and the world)");
    }
    if (j->type == PLN_IMPACT_NAIL && idx[1] != PLN_IMPACT_WORLD) {
        return pln_yaml_error(y, pln_yaml_get(y, node, "bodies"), f, PLN_ERR_INVALID,
                              "a nail holds one body to the world: give one body");
    }
    j->body_i = idx[0];
    j->body_j = idx[1];
    st = pln_yaml_vector_bounded(y, node, field, "anchor", 1, 3, PLN_MAX_WORLD_M, "m (the scene's extent; wrong units?)", j->anchor);
    if (st != PLN_OK) return st;
    if (j->type == PLN_IMPACT_POINT || j->type == PLN_IMPACT_NAIL || j->type == PLN_IMPACT_FIXED) {
        if (pln_yaml_get(y, node, "axis") != NULL) {
            return pln_yaml_error(y, pln_yaml_get(y, node, "axis"), pln_yaml_field(f, sizeof f, field, "axis"),
                                  PLN_ERR_INVALID, "a %s joint has no axis", type);
        }
        j->axis[2] = 1.0;
        return PLN_OK;
    }
    return read_direction(y, node, field, "axis", j->axis);
}

static PlnStatus read_contact(PlnYaml *y, PlnMechanism *m, const yaml_node_t *node)
{
    static const char *const keys[] = {"bodies", "point", "normal", "restitution", "friction", "energy_cap", NULL};
    int cap = 1;
    PlnImpactContact *c = &m->system.contact;
    char f[160];
    int n = 0, idx[2] = {0, PLN_IMPACT_WORLD};
    PlnStatus st = pln_yaml_check_mapping(y, node, "contact", keys);
    if (st == PLN_OK) st = read_pair(y, m, node, "contact", &n, idx);
    if (st != PLN_OK) return st;
    if (n != 2 || idx[0] == PLN_IMPACT_WORLD || idx[0] == idx[1]) {
        return pln_yaml_error(y, pln_yaml_get(y, node, "bodies"), "contact.bodies", PLN_ERR_INVALID,
                              "two different bodies, the first not the world: [A, B] or [A, world]");
    }
    c->body_a = idx[0];
    c->body_b = idx[1];
    st = pln_yaml_vector_bounded(y, node, "contact", "point", 1, 3, PLN_MAX_WORLD_M, "m (the scene's extent; wrong units?)", c->point);
    if (st == PLN_OK) st = read_direction(y, node, "contact", "normal", c->normal);
    if (st == PLN_OK) st = pln_yaml_double(y, node, "contact", "restitution", 1, &c->restitution);
    if (st == PLN_OK && !(c->restitution >= 0.0 && c->restitution <= 1.0)) {
        st = pln_yaml_error(y, pln_yaml_get(y, node, "restitution"), pln_yaml_field(f, sizeof f, "contact", "restitution"),
                            PLN_ERR_INVALID, "must be in [0, 1]");
    }
    c->mu = 0.0;
    if (st == PLN_OK) st = pln_yaml_double(y, node, "contact", "friction", 0, &c->mu);
    if (st == PLN_OK && !(c->mu >= 0.0)) {
        st = pln_yaml_error(y, pln_yaml_get(y, node, "friction"), pln_yaml_field(f, sizeof f, "contact", "friction"),
                            PLN_ERR_INVALID, "must be >= 0");
    }
    if (st == PLN_OK) st = pln_yaml_bool(y, node, "contact", "energy_cap", 0, &cap);
    c->newton_only = !cap;
    return st;
}

int pln_mechanism_is_mechanism_file(const char *path)
{
    PlnYaml y;
    char err[256];
    int is = 0;
    memset(&y, 0, sizeof y);
    if (pln_yaml_load(&y, path, err, sizeof err) == PLN_OK) is = pln_yaml_get(&y, pln_yaml_root(&y), "bodies") != NULL;
    pln_yaml_free(&y);
    return is;
}

PlnStatus pln_mechanism_load(const char *path, PlnMechanism *out, char *err, size_t err_size)
{
    static const char *const keys[] = {"name", "bodies", "joints", "contact", NULL};
    PlnYaml y;
    yaml_node_t *root, *seq = NULL, *v;
    int n = 0;
    PlnStatus st;
    memset(out, 0, sizeof *out);
    memset(&y, 0, sizeof y);
    snprintf(out->path, sizeof out->path, "%s", path);
    st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) return st;
    root = pln_yaml_root(&y);
    st = pln_yaml_check_mapping(&y, root, "", keys);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "name", 1, out->name, sizeof out->name);
    if (st == PLN_OK) st = pln_yaml_require(&y, root, "", "bodies", &seq);
    if (st == PLN_OK) st = pln_yaml_sequence(&y, seq, "bodies", &n);
    if (st == PLN_OK && (n < 1 || n > PLN_IMPACT_MAX_BODIES)) {
        st = pln_yaml_error(&y, seq, "bodies", PLN_ERR_INVALID, "%d bodies: expected 1 to %d", n, PLN_IMPACT_MAX_BODIES);
    }
    if (st == PLN_OK) {
        out->bodies = calloc((size_t)n, sizeof *out->bodies);
        if (out->bodies == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    for (int k = 0; k < n && st == PLN_OK; ++k) {
        out->n_bodies = k + 1;
        st = read_body(&y, out, pln_yaml_item(&y, seq, k), k);
    }
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "joints")) != NULL) {
        st = pln_yaml_sequence(&y, v, "joints", &n);
        if (st == PLN_OK && n > PLN_IMPACT_MAX_JOINTS) {
            st = pln_yaml_error(&y, v, "joints", PLN_ERR_INVALID, "%d joints: at most %d", n, PLN_IMPACT_MAX_JOINTS);
        }
        if (st == PLN_OK && n > 0) {
            out->joints = calloc((size_t)n, sizeof *out->joints);
            if (out->joints == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        }
        for (int k = 0; k < n && st == PLN_OK; ++k) {
            out->n_joints = k + 1;
            st = read_joint(&y, out, pln_yaml_item(&y, v, k), k);
        }
    }
    if (st == PLN_OK) st = pln_yaml_require(&y, root, "", "contact", &v);
    if (st == PLN_OK) st = read_contact(&y, out, v);
    pln_yaml_free(&y);
    if (st == PLN_OK) {
        out->system.n_bodies = out->n_bodies;
        out->system.bodies = out->bodies;
        out->system.n_joints = out->n_joints;
        out->system.joints = out->joints;
        st = pln_impact_validate(&out->system, err, err_size);
        if (st != PLN_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", err);
            st = pln_errorf(st, err, err_size, "%s: %s", path, msg);
        }
    }
    if (st == PLN_OK) {
        double *v0 = calloc((size_t)3 * out->n_bodies, sizeof *v0), *w0 = calloc((size_t)3 * out->n_bodies, sizeof *w0);
        if (v0 == NULL || w0 == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        } else {
            for (int k = 0; k < out->n_bodies; ++k) {
                memcpy(v0 + 3 * k, out->bodies[k].v, sizeof out->bodies[k].v);
                memcpy(w0 + 3 * k, out->bodies[k].w, sizeof out->bodies[k].w);
            }
            out->joint_residual = pln_impact_velocity_residual(&out->system, v0, w0);
        }
        free(v0);
        free(w0);
    }
    if (st != PLN_OK) pln_mechanism_destroy(out);
    return st;
}

void pln_mechanism_destroy(PlnMechanism *m)
{
    free(m->bodies);
    free(m->joints);
    m->bodies = NULL;
    m->joints = NULL;
    m->n_bodies = m->n_joints = 0;
}
