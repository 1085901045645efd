/* pln_scenario.c — scenario YAML: parse and validate, then resolve names on a robot. */
#include "problem/pln_scenario.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"
#include "base/pln_tolerance.h"
#include "base/pln_yaml.h"
#include "problem/pln_pairs.h"

const char *pln_algorithm_string(PlnAlgorithm algorithm)
{
    switch (algorithm) {
    case PLN_ALGORITHM_SLSQP: return "slsqp";
    case PLN_ALGORITHM_MMA: return "mma";
    case PLN_ALGORITHM_CCSAQ: return "ccsaq";
    case PLN_ALGORITHM_AUGLAG: return "auglag";
    case PLN_ALGORITHM_SQP: return "sqp";
    case PLN_ALGORITHM_AUTO: return "auto";
    }
    return "unknown";
}

const char *pln_method_string(PlnMethod method)
{
    switch (method) {
    case PLN_METHOD_HYBRID: return "hybrid";
    case PLN_METHOD_GSS: return "gss";
    case PLN_METHOD_CA: return "ca";
    case PLN_METHOD_SAMPLING: return "sampling";
    }
    return "unknown";
}

PlnStatus pln_method_from_string(const char *name, PlnMethod *method)
{
    static const PlnMethod all[] = {PLN_METHOD_HYBRID, PLN_METHOD_GSS, PLN_METHOD_CA,
                                    PLN_METHOD_SAMPLING};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        if (name != NULL && strcmp(name, pln_method_string(all[i])) == 0) {
            *method = all[i];
            return PLN_OK;
        }
    }
    return PLN_ERR_INVALID;
}

void pln_scenario_destroy(PlnScenario *sc)
{
    free(sc->active);
    free(sc->initial_joint);
    free(sc->initial_value);
    free(sc->tasks);
    free(sc->pairs);
    free(sc->pairs_add);
    free(sc->pairs_remove);
    free(sc->excluded);
    free(sc->obstacles);
    free(sc->support);
    memset(sc, 0, sizeof *sc);
}

/* a name scalar with its location */
static PlnStatus read_name(PlnYaml *y, const yaml_node_t *node, const char *field,
                           PlnNameRef *ref)
{
    PlnStatus st = pln_yaml_node_string(y, node, field, ref->name, sizeof ref->name);
    if (st != PLN_OK) return st;
    ref->line = (int)node->start_mark.line + 1;
    ref->column = (int)node->start_mark.column + 1;
    ref->index = -1;
    return PLN_OK;
}

static PlnStatus read_name_key(PlnYaml *y, const yaml_node_t *map, const char *field,
                               const char *key, PlnNameRef *ref)
{
    char path[512];
    yaml_node_t *v = pln_yaml_get(y, map, key);
    snprintf(path, sizeof path, "%s.%s", field, key);
    if (v == NULL) return pln_yaml_error(y, map, path, PLN_ERR_INVALID, "required key is missing");
    return read_name(y, v, path, ref);
}

/* the bound on positions in the world, in messages */
#define WORLD_WHAT "m (the scene's extent; wrong units?)"

/* a number that must lie in [lo, hi] */
static PlnStatus read_in_range(PlnYaml *y, const yaml_node_t *map, const char *field,
                               const char *key, int required, double lo, double hi,
                               const char *what, double *out)
{
    double v = *out;
    char path[512];
    PlnStatus st = pln_yaml_double(y, map, field, key, required, &v);
    if (st != PLN_OK) return st;
    if (pln_yaml_get(y, map, key) != NULL && (v < lo || v > hi)) {
        snprintf(path, sizeof path, "%s%s%s", field, field[0] ? "." : "", key);
        return pln_yaml_error(y, pln_yaml_get(y, map, key), path, PLN_ERR_INVALID, "%g: %s", v,
                              what);
    }
    *out = v;
    return PLN_OK;
}

static PlnStatus parse_spline(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"degree", "spans", NULL};
    PlnStatus st = pln_yaml_check_mapping(y, node, "spline", keys);
    if (st == PLN_OK) st = pln_yaml_int(y, node, "spline", "degree", 0, 3, 7, &sc->degree);
    if (st == PLN_OK) st = pln_yaml_int(y, node, "spline", "spans", 0, 1, 200, &sc->spans);
    return st;
}

static PlnStatus parse_joints(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    int n;
    char field[64];
    PlnStatus st = pln_yaml_sequence(y, node, "joints", &n);
    if (st != PLN_OK) return st;
    if (n < 1) return pln_yaml_error(y, node, "joints", PLN_ERR_INVALID, "no moving joint listed");
    sc->active = calloc((size_t)n, sizeof *sc->active);
    if (sc->active == NULL) return pln_yaml_error(y, node, "joints", PLN_ERR_NOMEM, "out of memory");
    sc->n_active = n;
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        snprintf(field, sizeof field, "joints[%d]", i);
        st = read_name(y, pln_yaml_item(y, node, i), field, &sc->active[i]);
    }
    return st;
}

static PlnStatus parse_initial(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    int n = pln_yaml_mapping_size(node);
    char field[128];
    PlnStatus st = PLN_OK;
    if (node->type != YAML_MAPPING_NODE) {
        return pln_yaml_error(y, node, "initial", PLN_ERR_INVALID,
                              "expected a mapping of joint names to values in rad");
    }
    sc->initial_joint = calloc((size_t)(n > 0 ? n : 1), sizeof *sc->initial_joint);
    sc->initial_value = calloc((size_t)(n > 0 ? n : 1), sizeof *sc->initial_value);
    if (sc->initial_joint == NULL || sc->initial_value == NULL) {
        return pln_yaml_error(y, node, "initial", PLN_ERR_NOMEM, "out of memory");
    }
    sc->n_initial = n;
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        yaml_node_t *k = pln_yaml_pair_key(y, node, i);
        st = read_name(y, k, "initial", &sc->initial_joint[i]);
        if (st != PLN_OK) break;
        snprintf(field, sizeof field, "initial.%s", sc->initial_joint[i].name);
        st = pln_yaml_node_double(y, pln_yaml_pair_value(y, node, i), field, &sc->initial_value[i]);
    }
    return st;
}

static PlnStatus parse_rest(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"start", "end", NULL};
    PlnStatus st = pln_yaml_check_mapping(y, node, "rest", keys);
    if (st == PLN_OK) st = pln_yaml_bool(y, node, "rest", "start", 0, &sc->rest_start);
    if (st == PLN_OK) st = pln_yaml_bool(y, node, "rest", "end", 0, &sc->rest_end);
    return st;
}

/* limits: {position_margin: rad, velocity_scale: fraction} */
static PlnStatus parse_limits(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"position_margin", "velocity_scale", NULL};
    PlnStatus st = pln_yaml_check_mapping(y, node, "limits", keys);
    if (st == PLN_OK) st = pln_yaml_double(y, node, "limits", "position_margin", 0, &sc->limit_margin);
    if (st == PLN_OK && !(sc->limit_margin >= 0.0 && sc->limit_margin <= PLN_MAX_LIMIT_MARGIN_RAD)) {
        st = pln_yaml_error(y, pln_yaml_get(y, node, "position_margin"), "limits.position_margin",
                            PLN_ERR_INVALID, "%g: must lie in [0, %g] rad", sc->limit_margin,
                            PLN_MAX_LIMIT_MARGIN_RAD);
    }
    if (st == PLN_OK) st = pln_yaml_double(y, node, "limits", "velocity_scale", 0, &sc->velocity_scale);
    if (st == PLN_OK && !(sc->velocity_scale > 0.0 && sc->velocity_scale <= 1.0)) {
        st = pln_yaml_error(y, pln_yaml_get(y, node, "velocity_scale"), "limits.velocity_scale",
                            PLN_ERR_INVALID, "%g: must lie in (0, 1]", sc->velocity_scale);
    }
    return st;
}

static PlnStatus parse_task(PlnYaml *y, const yaml_node_t *node, int i, PlnScenario *sc)
{
    static const char *const pos_keys[] = {"type", "time", "tolerance", "link", "point",
                                           "target", "orientation", "orientation_tolerance",
                                           NULL};
    static const char *const joint_keys[] = {"type", "time", "tolerance", "joint", "value", NULL};
    PlnTask *t = &sc->tasks[i];
    char field[64], type[32];
    PlnStatus st;

    snprintf(field, sizeof field, "tasks[%d]", i);
    if (node->type != YAML_MAPPING_NODE) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected a mapping");
    }
    t->line = (int)node->start_mark.line + 1;
    st = pln_yaml_string(y, node, field, "type", 1, type, sizeof type);
    if (st != PLN_OK) return st;
    if (strcmp(type, "position") == 0) {
        t->type = PLN_TASK_POSITION;
        st = pln_yaml_check_mapping(y, node, field, pos_keys);
    } else if (strcmp(type, "joint") == 0) {
        t->type = PLN_TASK_JOINT;
        st = pln_yaml_check_mapping(y, node, field, joint_keys);
    } else {
        char path[80];
        snprintf(path, sizeof path, "%s.type", field);
        return pln_yaml_error(y, pln_yaml_get(y, node, "type"), path, PLN_ERR_INVALID,
                              "'%s': expected position or joint", type);
    }
    if (st != PLN_OK) return st;
    st = read_in_range(y, node, field, "time", 1, 0.0, sc->duration,
                       "must lie inside [0, duration]", &t->time);
    if (st != PLN_OK) return st;
    t->tolerance = t->type == PLN_TASK_POSITION ? PLN_DEFAULT_TASK_TOLERANCE_M
                                                : PLN_DEFAULT_TASK_TOLERANCE_RAD;
    st = read_in_range(y, node, field, "tolerance", 0, 0.0, HUGE_VAL, "must be >= 0",
                       &t->tolerance);
    if (st != PLN_OK) return st;
    if (t->type == PLN_TASK_JOINT) {
        st = read_name_key(y, node, field, "joint", &t->joint);
        if (st == PLN_OK) st = pln_yaml_double(y, node, field, "value", 1, &t->value);
        return st;
    }
    st = read_name_key(y, node, field, "link", &t->link);
    if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "point", 0, 3, PLN_MAX_BODY_M, "m (a point on a link; wrong units?)", t->point);
    if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "target", 1, 3, PLN_MAX_WORLD_M, WORLD_WHAT, t->target);
    if (st == PLN_OK && pln_yaml_get(y, node, "orientation") != NULL) {
        double rpy[3];
        st = pln_yaml_vector_bounded(y, node, field, "orientation", 1, 3, PLN_MAX_RPY_RAD, "rad", rpy);
        if (st != PLN_OK) return st;
        t->has_orientation = 1;
        pln_kin_rpy_to_matrix(rpy, t->target_rot);
        t->orientation_tolerance = PLN_DEFAULT_TASK_TOLERANCE_RAD;
        st = read_in_range(y, node, field, "orientation_tolerance", 0, 0.0, PLN_PI,
                           "must lie in [0, pi]", &t->orientation_tolerance);
    } else if (st == PLN_OK && pln_yaml_get(y, node, "orientation_tolerance") != NULL) {
        char path[96];
        snprintf(path, sizeof path, "%s.orientation_tolerance", field);
        return pln_yaml_error(y, pln_yaml_get(y, node, "orientation_tolerance"), path,
                              PLN_ERR_INVALID, "given without an orientation");
    }
    return st;
}

static PlnStatus parse_tasks(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    int n;
    PlnStatus st = pln_yaml_sequence(y, node, "tasks", &n);
    if (st != PLN_OK) return st;
    if (n > PLN_SCENARIO_MAX_TASKS) {
        return pln_yaml_error(y, node, "tasks", PLN_ERR_INVALID, "%d tasks, more than %d", n,
                              PLN_SCENARIO_MAX_TASKS);
    }
    sc->tasks = calloc((size_t)(n > 0 ? n : 1), sizeof *sc->tasks);
    if (sc->tasks == NULL) return pln_yaml_error(y, node, "tasks", PLN_ERR_NOMEM, "out of memory");
    sc->n_tasks = n;
    for (int i = 0; i < n && st == PLN_OK; ++i) st = parse_task(y, pln_yaml_item(y, node, i), i, sc);
    return st;
}

static PlnStatus parse_cost(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"type", "weight", "smoothing", "min_duration", NULL};
    char type[32] = "acceleration";
    PlnStatus st = pln_yaml_check_mapping(y, node, "cost", keys);
    if (st == PLN_OK) st = pln_yaml_string(y, node, "cost", "type", 0, type, sizeof type);
    if (st != PLN_OK) return st;
    if (strcmp(type, "acceleration") == 0) sc->cost = PLN_COST_ACCELERATION;
    else if (strcmp(type, "jerk") == 0) sc->cost = PLN_COST_JERK;
    else if (strcmp(type, "torque2") == 0) sc->cost = PLN_COST_TORQUE2;
    else if (strcmp(type, "time") == 0) sc->cost = PLN_COST_TIME;
    else {
        return pln_yaml_error(y, pln_yaml_get(y, node, "type"), "cost.type", PLN_ERR_INVALID,
                              "'%s': expected acceleration, jerk, torque2 or time", type);
    }
    {
        const yaml_node_t *tn = pln_yaml_get(y, node, "type");
        sc->cost_line = (int)(tn != NULL ? tn : node)->start_mark.line + 1;
    }
    st = read_in_range(y, node, "cost", "weight", 0, PLN_MIN_COST_WEIGHT, HUGE_VAL,
                       "must be positive", &sc->cost_weight);
    if (st == PLN_OK && pln_yaml_get(y, node, "smoothing") != NULL) {
        if (sc->cost != PLN_COST_TORQUE2) {
            return pln_yaml_error(y, pln_yaml_get(y, node, "smoothing"), "cost.smoothing",
                                  PLN_ERR_INVALID, "applies to type torque2 only");
        }
        st = read_in_range(y, node, "cost", "smoothing", 0, 0.0, PLN_MAX_COST_SMOOTHING,
                           "must be in [0, 1000]", &sc->cost_smoothing);
    }
    if (st == PLN_OK && pln_yaml_get(y, node, "min_duration") != NULL) {
        if (sc->cost != PLN_COST_TIME) {
            return pln_yaml_error(y, pln_yaml_get(y, node, "min_duration"), "cost.min_duration",
                                  PLN_ERR_INVALID, "applies to type time only");
        }
        st = read_in_range(y, node, "cost", "min_duration", 0, PLN_MIN_DURATION_S, HUGE_VAL,
                           "must be a positive duration (s)", &sc->cost_min_duration);
    }
    return st;
}

/* a list of [link, link-or-obstacle] pairs at `field` */
static PlnStatus parse_pair_list(PlnYaml *y, const yaml_node_t *node, const char *field,
                                 int *n_out, PlnPair **out)
{
    int n;
    char item_field[96];
    PlnStatus st = pln_yaml_sequence(y, node, field, &n);
    if (st != PLN_OK) return st;
    if (n > PLN_SCENARIO_MAX_PAIRS) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "%d pairs, more than %d", n,
                              PLN_SCENARIO_MAX_PAIRS);
    }
    free(*out);
    *out = calloc((size_t)(n > 0 ? n : 1), sizeof **out);
    if (*out == NULL) return pln_yaml_error(y, node, field, PLN_ERR_NOMEM, "out of memory");
    *n_out = n;
    for (int i = 0; i < n; ++i) {
        yaml_node_t *item = pln_yaml_item(y, node, i);
        int m;
        snprintf(item_field, sizeof item_field, "%s[%d]", field, i);
        st = pln_yaml_sequence(y, item, item_field, &m);
        if (st != PLN_OK) return st;
        if (m != 2) {
            return pln_yaml_error(y, item, item_field, PLN_ERR_INVALID,
                                  "expected [link, link or obstacle], got %d names", m);
        }
        st = read_name(y, pln_yaml_item(y, item, 0), item_field, &(*out)[i].a);
        if (st == PLN_OK) st = read_name(y, pln_yaml_item(y, item, 1), item_field, &(*out)[i].b);
        if (st != PLN_OK) return st;
    }
    return PLN_OK;
}

/* a preset name: default and all are the same */
static PlnStatus parse_pair_preset(PlnYaml *y, const yaml_node_t *node, const char *field,
                                   PlnPairPreset *preset)
{
    char text[32];
    PlnStatus st = pln_yaml_node_string(y, node, field, text, sizeof text);
    if (st != PLN_OK) return st;
    if (strcmp(text, "default") == 0 || strcmp(text, "all") == 0) {
        *preset = PLN_PAIRS_ALL;
    } else if (strcmp(text, "robot") == 0) {
        *preset = PLN_PAIRS_ROBOT;
    } else {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID,
                              "'%s': expected default (= all), all, robot, a list of pairs, or "
                              "{preset, add, remove}",
                              text);
    }
    return PLN_OK;
}

/* collision.pairs: a preset name, a list, or {preset, add, remove} */
static PlnStatus parse_pairs(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"preset", "add", "remove", NULL};
    yaml_node_t *v;
    PlnStatus st;
    if (node->type == YAML_SCALAR_NODE) {
        return parse_pair_preset(y, node, "collision.pairs", &sc->pair_preset);
    }
    if (node->type == YAML_SEQUENCE_NODE) {
        sc->pair_preset = PLN_PAIRS_LIST;
        return parse_pair_list(y, node, "collision.pairs", &sc->n_pairs, &sc->pairs);
    }
    st = pln_yaml_check_mapping(y, node, "collision.pairs", keys);
    if (st != PLN_OK) return st;
    sc->pair_preset = PLN_PAIRS_ALL;
    if ((v = pln_yaml_get(y, node, "preset")) != NULL) {
        st = parse_pair_preset(y, v, "collision.pairs.preset", &sc->pair_preset);
        if (st != PLN_OK) return st;
    }
    if ((v = pln_yaml_get(y, node, "add")) != NULL) {
        st = parse_pair_list(y, v, "collision.pairs.add", &sc->n_pairs_add, &sc->pairs_add);
        if (st != PLN_OK) return st;
    }
    if ((v = pln_yaml_get(y, node, "remove")) != NULL) {
        st = parse_pair_list(y, v, "collision.pairs.remove", &sc->n_pairs_remove,
                             &sc->pairs_remove);
        if (st != PLN_OK) return st;
    }
    return PLN_OK;
}

/* the name of a geometry kind (pln_geometry_string of pln_geom.h, which this module does
 * not include) */
static const char *geometry_name(PlnGeometryKind kind)
{
    static const char *const names[] = {"capsule", "convex", "ellipsoid", "mesh"};
    return (int)kind >= 0 && (int)kind < 4 ? names[kind] : "unknown";
}

PlnStatus pln_geometry_from_string(const char *name, PlnGeometryKind *kind)
{
    static const char *const names[] = {"capsule", "convex", "ellipsoid", "mesh"};
    for (int k = 0; k < 4; ++k) {
        if (name != NULL && strcmp(name, names[k]) == 0) {
            *kind = (PlnGeometryKind)k;
            return PLN_OK;
        }
    }
    return PLN_ERR_INVALID;
}

const char *pln_distance_string(PlnDistanceKind kind)
{
    return kind == PLN_DISTANCE_PHONG ? "phong" : "euclidean";
}

PlnStatus pln_distance_from_string(const char *name, PlnDistanceKind *kind)
{
    if (name != NULL && strcmp(name, "euclidean") == 0) *kind = PLN_DISTANCE_EUCLIDEAN;
    else if (name != NULL && strcmp(name, "phong") == 0) *kind = PLN_DISTANCE_PHONG;
    else return PLN_ERR_INVALID;
    return PLN_OK;
}

static PlnStatus parse_collision(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"enabled", "geometry", "distance", "method", "eps",
                                       "subdivisions", "pairs", NULL};
    char text[32];
    yaml_node_t *v;
    PlnStatus st = pln_yaml_check_mapping(y, node, "collision", keys);
    if (st == PLN_OK) st = pln_yaml_bool(y, node, "collision", "enabled", 0, &sc->collision);
    if (st != PLN_OK) return st;
    if ((v = pln_yaml_get(y, node, "geometry")) != NULL) {
        st = pln_yaml_node_string(y, v, "collision.geometry", text, sizeof text);
        if (st != PLN_OK) return st;
        if (pln_geometry_from_string(text, &sc->geometry) != PLN_OK) {
            return pln_yaml_error(y, v, "collision.geometry", PLN_ERR_INVALID,
                                  "'%s': expected capsule, convex, ellipsoid or mesh", text);
        }
    }
    if ((v = pln_yaml_get(y, node, "distance")) != NULL) {
        st = pln_yaml_node_string(y, v, "collision.distance", text, sizeof text);
        if (st != PLN_OK) return st;
        if (pln_distance_from_string(text, &sc->distance) != PLN_OK) {
            return pln_yaml_error(y, v, "collision.distance", PLN_ERR_INVALID,
                                  "'%s': expected euclidean or phong", text);
        }
        sc->distance_line = (int)v->start_mark.line + 1;
        if (sc->distance == PLN_DISTANCE_PHONG && sc->geometry != PLN_GEOMETRY_MESH) {
            return pln_yaml_error(y, v, "collision.distance", PLN_ERR_INVALID,
                                  "phong measures closed triangle meshes and needs "
                                  "collision.geometry: mesh (the geometry is %s)",
                                  geometry_name(sc->geometry));
        }
    }
    if ((v = pln_yaml_get(y, node, "method")) != NULL) {
        st = pln_yaml_node_string(y, v, "collision.method", text, sizeof text);
        if (st != PLN_OK) return st;
        if (pln_method_from_string(text, &sc->method) != PLN_OK) {
            return pln_yaml_error(y, v, "collision.method", PLN_ERR_INVALID,
                                  "'%s': expected hybrid, gss, ca or sampling", text);
        }
    }
    st = read_in_range(y, node, "collision", "eps", 0, 0.0, PLN_MAX_EPS_M,
                       "must lie in [0, 0.1] m", &sc->eps);
    if (st == PLN_OK) {
        st = pln_yaml_int(y, node, "collision", "subdivisions", 0, 1, 64, &sc->subdivisions);
    }
    if (st == PLN_OK && (v = pln_yaml_get(y, node, "pairs")) != NULL) st = parse_pairs(y, v, sc);
    return st;
}

/* a path (robot, mesh files) is relative to the scenario file's directory unless absolute */
static int resolve_relative(const char *base_file, const char *rel, char *out, size_t size)
{
    const char *slash = strrchr(base_file, '/');
    int n;
    if (rel[0] == '/' || slash == NULL) n = snprintf(out, size, "%s", rel);
    else n = snprintf(out, size, "%.*s/%s", (int)(slash - base_file), base_file, rel);
    return n >= 0 && (size_t)n < size;
}

static PlnStatus parse_obstacle(PlnYaml *y, const yaml_node_t *node, int i, PlnScenario *sc)
{
    static const char *const capsule_keys[] = {"name", "type", "p0", "p1", "radius", NULL};
    static const char *const sphere_keys[] = {"name", "type", "center", "radius", NULL};
    static const char *const box_keys[] = {"name", "type", "center", "rpy", "size", NULL};
    static const char *const mesh_keys[] = {"name", "type", "file", "position", "rpy", "scale", NULL};
    PlnObstacle *o = &sc->obstacles[i];
    char field[64], type[32];
    PlnStatus st;
    snprintf(field, sizeof field, "environment[%d]", i);
    if (node->type != YAML_MAPPING_NODE) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected a mapping");
    }
    o->line = (int)node->start_mark.line + 1;
    st = pln_yaml_string(y, node, field, "type", 1, type, sizeof type);
    if (st != PLN_OK) return st;
    if (strcmp(type, "capsule") == 0) {
        o->type = PLN_OBSTACLE_CAPSULE;
        st = pln_yaml_check_mapping(y, node, field, capsule_keys);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "p0", 1, 3, PLN_MAX_WORLD_M, WORLD_WHAT, o->p0);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "p1", 1, 3, PLN_MAX_WORLD_M, WORLD_WHAT, o->p1);
    } else if (strcmp(type, "sphere") == 0) {
        o->type = PLN_OBSTACLE_SPHERE;
        st = pln_yaml_check_mapping(y, node, field, sphere_keys);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "center", 1, 3, PLN_MAX_WORLD_M, WORLD_WHAT, o->p0);
        memcpy(o->p1, o->p0, sizeof o->p1);
    } else if (strcmp(type, "box") == 0) {
        double size[3], rpy[3] = {0.0, 0.0, 0.0};
        o->type = PLN_OBSTACLE_BOX;
        st = pln_yaml_check_mapping(y, node, field, box_keys);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "center", 1, 3, PLN_MAX_WORLD_M, WORLD_WHAT, o->pos);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "rpy", 0, 3, PLN_MAX_RPY_RAD, "rad", rpy);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "size", 1, 3, PLN_MAX_WORLD_M, WORLD_WHAT, size);
        for (int k = 0; st == PLN_OK && k < 3; ++k) {
            if (!(size[k] > 0.0)) {
                char path[80];
                snprintf(path, sizeof path, "%s.size", field);
                return pln_yaml_error(y, pln_yaml_get(y, node, "size"), path, PLN_ERR_INVALID,
                                      "%g: every extent must be > 0", size[k]);
            }
            o->half[k] = 0.5 * size[k];
        }
        pln_kin_rpy_to_matrix(rpy, o->rot);
        memcpy(o->p0, o->pos, sizeof o->p0);
        memcpy(o->p1, o->pos, sizeof o->p1);
        if (st == PLN_OK) st = pln_yaml_string(y, node, field, "name", 1, o->name, sizeof o->name);
    } else if (strcmp(type, "mesh") == 0) {
        /* a mesh file placed at a pose; the file is read when the problem is built */
        double rpy[3] = {0.0, 0.0, 0.0};
        char rel[1024], path[80];
        o->type = PLN_OBSTACLE_MESH;
        o->scale = 1.0;
        st = pln_yaml_check_mapping(y, node, field, mesh_keys);
        if (st == PLN_OK) st = pln_yaml_string(y, node, field, "file", 1, rel, sizeof rel);
        if (st == PLN_OK && !resolve_relative(y->path, rel, o->mesh_path, sizeof o->mesh_path)) {
            snprintf(path, sizeof path, "%s.file", field);
            return pln_yaml_error(y, pln_yaml_get(y, node, "file"), path, PLN_ERR_INVALID,
                                  "path too long");
        }
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "position", 0, 3, PLN_MAX_WORLD_M, WORLD_WHAT, o->pos);
        if (st == PLN_OK) st = pln_yaml_vector_bounded(y, node, field, "rpy", 0, 3, PLN_MAX_RPY_RAD, "rad", rpy);
        if (st == PLN_OK) st = pln_yaml_double(y, node, field, "scale", 0, &o->scale);
        if (st == PLN_OK && !(o->scale > 0.0 && o->scale < PLN_MAX_MESH_SCALE)) {
            snprintf(path, sizeof path, "%s.scale", field);
            return pln_yaml_error(y, pln_yaml_get(y, node, "scale"), path, PLN_ERR_INVALID,
                                  "%g: must lie in (0, %g)", o->scale, PLN_MAX_MESH_SCALE);
        }
        pln_kin_rpy_to_matrix(rpy, o->rot);
        memcpy(o->p0, o->pos, sizeof o->p0);
        memcpy(o->p1, o->pos, sizeof o->p1);
        if (st == PLN_OK) st = pln_yaml_string(y, node, field, "name", 1, o->name, sizeof o->name);
    } else {
        char path[80];
        snprintf(path, sizeof path, "%s.type", field);
        return pln_yaml_error(y, pln_yaml_get(y, node, "type"), path, PLN_ERR_INVALID,
                              "'%s': expected capsule, sphere, box or mesh", type);
    }
    if (st == PLN_OK && o->type != PLN_OBSTACLE_BOX && o->type != PLN_OBSTACLE_MESH) {
        st = pln_yaml_string(y, node, field, "name", 1, o->name, sizeof o->name);
    }
    if (st == PLN_OK && o->type != PLN_OBSTACLE_BOX && o->type != PLN_OBSTACLE_MESH) {
        o->radius = 0.0;
        st = pln_yaml_double(y, node, field, "radius", 1, &o->radius);
        if (st == PLN_OK && !(o->radius > 0.0 && o->radius <= PLN_MAX_WORLD_M)) {
            char path[80];
            snprintf(path, sizeof path, "%s.radius", field);
            return pln_yaml_error(y, pln_yaml_get(y, node, "radius"), path, PLN_ERR_INVALID,
                                  "%g: must lie in (0, %g] m", o->radius, PLN_MAX_WORLD_M);
        }
    }
    for (int j = 0; st == PLN_OK && j < i; ++j) {
        if (strcmp(sc->obstacles[j].name, o->name) == 0) {
            char path[80];
            snprintf(path, sizeof path, "%s.name", field);
            return pln_yaml_error(y, pln_yaml_get(y, node, "name"), path, PLN_ERR_INVALID,
                                  "'%s' is already the name of environment[%d]", o->name, j);
        }
    }
    return st;
}

static PlnStatus parse_environment(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    int n;
    PlnStatus st = pln_yaml_sequence(y, node, "environment", &n);
    if (st != PLN_OK) return st;
    if (n > PLN_SCENARIO_MAX_OBSTACLES) {
        return pln_yaml_error(y, node, "environment", PLN_ERR_INVALID, "%d obstacles, more than %d",
                              n, PLN_SCENARIO_MAX_OBSTACLES);
    }
    sc->obstacles = calloc((size_t)(n > 0 ? n : 1), sizeof *sc->obstacles);
    if (sc->obstacles == NULL) {
        return pln_yaml_error(y, node, "environment", PLN_ERR_NOMEM, "out of memory");
    }
    sc->n_obstacles = n;
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        st = parse_obstacle(y, pln_yaml_item(y, node, i), i, sc);
    }
    return st;
}

static PlnStatus parse_balance(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"enabled", "margin", "support", NULL};
    yaml_node_t *v;
    PlnStatus st = pln_yaml_check_mapping(y, node, "balance", keys);
    sc->balance = 1; /* a balance section turns it on unless it says otherwise */
    if (st == PLN_OK) st = pln_yaml_bool(y, node, "balance", "enabled", 0, &sc->balance);
    if (st == PLN_OK) {
        st = read_in_range(y, node, "balance", "margin", 0, 0.0, PLN_MAX_BALANCE_MARGIN_M,
                           "must lie in [0, 0.2] m", &sc->balance_margin);
    }
    if (st == PLN_OK && (v = pln_yaml_get(y, node, "support")) != NULL) {
        int n;
        char field[64];
        st = pln_yaml_sequence(y, v, "balance.support", &n);
        if (st != PLN_OK) return st;
        if (n < 1) {
            return pln_yaml_error(y, v, "balance.support", PLN_ERR_INVALID,
                                  "name at least one supporting link");
        }
        sc->support = calloc((size_t)n, sizeof *sc->support);
        if (sc->support == NULL) {
            return pln_yaml_error(y, v, "balance.support", PLN_ERR_NOMEM, "out of memory");
        }
        sc->n_support = n;
        for (int i = 0; i < n && st == PLN_OK; ++i) {
            snprintf(field, sizeof field, "balance.support[%d]", i);
            st = read_name(y, pln_yaml_item(y, v, i), field, &sc->support[i]);
        }
    }
    return st;
}

/* dynamics: {mode: auto|on|off, zmp_margin, mu, torque} */
static PlnStatus parse_dynamics(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"mode", "zmp_margin", "mu", "torque", NULL};
    yaml_node_t *v;
    PlnStatus st = pln_yaml_check_mapping(y, node, "dynamics", keys);
    if (st == PLN_OK && (v = pln_yaml_get(y, node, "mode")) != NULL) {
        char text[16];
        st = pln_yaml_node_string(y, v, "dynamics.mode", text, sizeof text);
        if (st != PLN_OK) return st;
        if (strcmp(text, "auto") == 0) sc->dynamics_mode = PLN_DYNAMICS_AUTO;
        else if (strcmp(text, "on") == 0) sc->dynamics_mode = PLN_DYNAMICS_ON;
        else if (strcmp(text, "off") == 0) sc->dynamics_mode = PLN_DYNAMICS_OFF;
        else return pln_yaml_error(y, v, "dynamics.mode", PLN_ERR_INVALID, "'%s': expected auto, on or off", text);
    }
    if (st == PLN_OK) {
        st = read_in_range(y, node, "dynamics", "zmp_margin", 0, 0.0, PLN_MAX_BALANCE_MARGIN_M,
                           "must lie in [0, 0.2] m", &sc->zmp_margin);
    }
    if (st == PLN_OK && (v = pln_yaml_get(y, node, "mu")) != NULL) {
        st = pln_yaml_node_double(y, v, "dynamics.mu", &sc->mu);
        if (st == PLN_OK && !(sc->mu > 0.0 && sc->mu <= PLN_MAX_MU)) {
            st = pln_yaml_error(y, v, "dynamics.mu", PLN_ERR_INVALID,
                                "a friction coefficient must lie in (0, %g], found %g", PLN_MAX_MU, sc->mu);
        }
    }
    if (st == PLN_OK && pln_yaml_get(y, node, "torque") != NULL) {
        st = pln_yaml_bool(y, node, "dynamics", "torque", 0, &sc->torque_asked);
    }
    return st;
}

/* support[i].place: {foot: LINK, at: [x, y, yaw]} */
static PlnStatus parse_place(PlnYaml *y, const yaml_node_t *item, const char *field, PlnSupportPhase *ph)
{
    static const char *const keys[] = {"foot", "at", NULL};
    char sub[96];
    yaml_node_t *v = pln_yaml_get(y, item, "place");
    PlnStatus st;
    if (v == NULL) return PLN_OK;
    pln_yaml_field(sub, sizeof sub, field, "place");
    st = pln_yaml_check_mapping(y, v, sub, keys);
    if (st == PLN_OK) st = read_name_key(y, v, sub, "foot", &ph->place_foot);
    if (st == PLN_OK) st = pln_yaml_vector_bounded(y, v, sub, "at", 1, 3, 1e3, WORLD_WHAT, ph->place);
    if (st != PLN_OK) return st;
    ph->place_line = (int)pln_yaml_get(y, v, "at")->start_mark.line + 1;
    ph->has_place = 1;
    return PLN_OK;
}

/* support: [{feet: [LINK, ...], from: t0, to: t1, place: {foot: LINK, at: [x, y, yaw]}}, ...] */
static PlnStatus parse_support(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"feet", "from", "to", "place", NULL};
    int n;
    PlnStatus st = pln_yaml_sequence(y, node, "support", &n);
    if (st != PLN_OK) return st;
    sc->phases_line = (int)node->start_mark.line + 1;
    if (n < 1) return pln_yaml_error(y, node, "support", PLN_ERR_INVALID, "give at least one support phase");
    if (n > PLN_MAX_PHASES) {
        return pln_yaml_error(y, node, "support", PLN_ERR_INVALID, "%d phases, at most %d", n, PLN_MAX_PHASES);
    }
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        yaml_node_t *item = pln_yaml_item(y, node, i), *v;
        PlnSupportPhase *ph = &sc->phases[i];
        char field[64], sub[96];
        int nf;
        snprintf(field, sizeof field, "support[%d]", i);
        st = pln_yaml_check_mapping(y, item, field, keys);
        if (st != PLN_OK) return st;
        ph->line = (int)item->start_mark.line + 1;
        ph->column = (int)item->start_mark.column + 1;
        st = read_in_range(y, item, field, "from", 1, 0.0, 3600.0, "must lie in [0, 3600] s", &ph->t0);
        if (st == PLN_OK) st = read_in_range(y, item, field, "to", 1, 0.0, 3600.0, "must lie in [0, 3600] s", &ph->t1);
        if (st != PLN_OK) return st;
        if (!(ph->t1 > ph->t0)) {
            return pln_yaml_error(y, pln_yaml_get(y, item, "to"), pln_yaml_field(sub, sizeof sub, field, "to"),
                                  PLN_ERR_INVALID, "the phase ends (%g s) before it starts (%g s)", ph->t1, ph->t0);
        }
        pln_yaml_field(sub, sizeof sub, field, "feet");
        st = pln_yaml_require(y, item, field, "feet", &v);
        if (st == PLN_OK) st = pln_yaml_sequence(y, v, sub, &nf);
        if (st != PLN_OK) return st;
        if (nf < 1 || nf > PLN_MAX_PHASE_FEET) {
            return pln_yaml_error(y, v, sub, PLN_ERR_INVALID,
                                  "name 1 or %d supporting links (a phase with no support cannot "
                                  "balance; more than %d at once is not supported)", PLN_MAX_PHASE_FEET,
                                  PLN_MAX_PHASE_FEET);
        }
        ph->n_feet = nf;
        for (int k = 0; k < nf && st == PLN_OK; ++k) {
            char f2[128];
            snprintf(f2, sizeof f2, "%s[%d]", sub, k);
            st = read_name(y, pln_yaml_item(y, v, k), f2, &ph->feet[k]);
        }
        if (st == PLN_OK && nf == 2 && strcmp(ph->feet[0].name, ph->feet[1].name) == 0) {
            st = pln_yaml_error(y, v, sub, PLN_ERR_INVALID, "'%s' is named twice", ph->feet[0].name);
        }
        if (st == PLN_OK) st = parse_place(y, item, field, ph);
    }
    sc->n_phases = n;
    return st;
}

static PlnStatus parse_optimizer(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"algorithm", "max_iterations", "time_limit", "xtol_rel",
                                       "ftol_rel", "precondition", NULL};
    char text[32];
    yaml_node_t *v;
    PlnStatus st = pln_yaml_check_mapping(y, node, "optimizer", keys);
    if (st != PLN_OK) return st;
    if ((v = pln_yaml_get(y, node, "algorithm")) != NULL) {
        st = pln_yaml_node_string(y, v, "optimizer.algorithm", text, sizeof text);
        if (st != PLN_OK) return st;
        if (strcmp(text, "slsqp") == 0) sc->algorithm = PLN_ALGORITHM_SLSQP;
        else if (strcmp(text, "mma") == 0) sc->algorithm = PLN_ALGORITHM_MMA;
        else if (strcmp(text, "ccsaq") == 0) sc->algorithm = PLN_ALGORITHM_CCSAQ;
        else if (strcmp(text, "auglag") == 0) sc->algorithm = PLN_ALGORITHM_AUGLAG;
        else if (strcmp(text, "sqp") == 0) sc->algorithm = PLN_ALGORITHM_SQP;
        else if (strcmp(text, "auto") == 0) sc->algorithm = PLN_ALGORITHM_AUTO;
        else {
            return pln_yaml_error(y, v, "optimizer.algorithm", PLN_ERR_INVALID,
                                  "'%s': expected auto, slsqp, sqp, mma, ccsaq or auglag", text);
        }
    }
    st = pln_yaml_int(y, node, "optimizer", "max_iterations", 0, 1, 100000, &sc->max_iterations);
    if (st == PLN_OK) {
        st = read_in_range(y, node, "optimizer", "time_limit", 0, PLN_MIN_TIME_LIMIT_S, 86400.0,
                           "must lie in [0.01, 86400] s", &sc->time_limit);
        sc->time_limit_written = pln_yaml_get(y, node, "time_limit") != NULL;
    }
    if (st == PLN_OK) {
        st = read_in_range(y, node, "optimizer", "xtol_rel", 0, 0.0, 1.0, "must lie in [0, 1]",
                           &sc->xtol_rel);
    }
    if (st == PLN_OK) {
        st = read_in_range(y, node, "optimizer", "ftol_rel", 0, 0.0, 1.0, "must lie in [0, 1]",
                           &sc->ftol_rel);
    }
    if (st == PLN_OK) st = pln_yaml_bool(y, node, "optimizer", "precondition", 0, &sc->precondition);
    return st;
}

static PlnStatus parse_output(PlnYaml *y, const yaml_node_t *node, PlnScenario *sc)
{
    static const char *const keys[] = {"rate", "dir", NULL};
    PlnStatus st = pln_yaml_check_mapping(y, node, "output", keys);
    if (st == PLN_OK) {
        st = read_in_range(y, node, "output", "rate", 0, 1.0, 100000.0,
                           "must lie in [1, 100000] Hz", &sc->rate_hz);
    }
    if (st == PLN_OK) {
        st = pln_yaml_string(y, node, "output", "dir", 0, sc->out_dir, sizeof sc->out_dir);
    }
    return st;
}

/* defaults of every optional field */
static void set_defaults(PlnScenario *sc)
{
    sc->degree = 5;
    sc->spans = 10;
    sc->rest_start = 1;
    sc->rest_end = 1;
    sc->cost = PLN_COST_ACCELERATION;
    sc->cost_weight = 1.0;
    sc->cost_smoothing = PLN_TORQUE2_SMOOTHING;
    sc->collision = 1;
    sc->geometry = PLN_GEOMETRY_CAPSULE;
    sc->method = PLN_METHOD_HYBRID;
    sc->eps = PLN_DEFAULT_EPS_M;
    sc->limit_margin = PLN_DEFAULT_LIMIT_MARGIN_RAD;
    sc->velocity_scale = PLN_DEFAULT_VELOCITY_SCALE;
    sc->subdivisions = 1;
    sc->pair_preset = PLN_PAIRS_ALL;
    sc->balance = 0;
    sc->balance_margin = PLN_DEFAULT_BALANCE_MARGIN_M;
    sc->dynamics_mode = PLN_DYNAMICS_AUTO;
    sc->zmp_margin = PLN_DEFAULT_ZMP_MARGIN_M;
    sc->mu = PLN_DEFAULT_MU;
    sc->torque_asked = -1;
    sc->algorithm = PLN_ALGORITHM_AUTO;
    sc->max_iterations = 0; /* not written: pln_problem_create sizes it (eq. P22) */
    sc->time_limit = PLN_SIP_DEFAULT_TIME_S; /* not written: pln_plan_load grows it (P22b) */
    sc->xtol_rel = 1e-6;
    sc->ftol_rel = 1e-4; /* an infeasible stop on it is restarted by the exchange loop */
    sc->precondition = 1; /* docs/math/planner.md eq. P23 */
    sc->rate_hz = 200.0;
}

/* support phases follow each other over [0, duration]: no overlap, no gap */
static PlnStatus phase_times(const PlnScenario *sc, char *err, size_t err_size)
{
    PlnStatus st = PLN_OK;
    for (int i = 0; i < sc->n_phases && st == PLN_OK; ++i) {
        const PlnSupportPhase *ph = &sc->phases[i];
        if (i == 0 && ph->t0 > PLN_PHASE_TIME_TOL_S) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s:%d: support[0].from: nothing supports the robot from 0 to %g s "
                            "(the first phase must start at 0)", sc->path, ph->line, ph->t0);
        } else if (i > 0 && ph->t0 < sc->phases[i - 1].t1 - PLN_PHASE_TIME_TOL_S) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s:%d: support[%d].from: %g s overlaps support[%d] (line %d), which "
                            "runs to %g s; phases follow each other in time",
                            sc->path, ph->line, i, ph->t0, i - 1, sc->phases[i - 1].line,
                            sc->phases[i - 1].t1);
        } else if (i > 0 && ph->t0 > sc->phases[i - 1].t1 + PLN_PHASE_TIME_TOL_S) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s:%d: support[%d].from: nothing supports the robot from %g to %g s, "
                            "after support[%d] (line %d)",
                            sc->path, ph->line, i, sc->phases[i - 1].t1, ph->t0, i - 1,
                            sc->phases[i - 1].line);
        } else if (i == sc->n_phases - 1 && fabs(ph->t1 - sc->duration) > PLN_PHASE_TIME_TOL_S) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s:%d: support[%d].to: the last phase ends at %g s, but the motion "
                            "lasts %g s",
                            sc->path, ph->line, i, ph->t1, sc->duration);
        }
    }
    return st;
}

PlnStatus pln_scenario_parse(const char *path, PlnScenario *sc, char *err, size_t err_size)
{
    static const char *const keys[] = {"name", "robot", "duration", "spline", "joints",
                                       "initial", "rest", "tasks", "cost", "collision",
                                       "environment", "balance", "dynamics", "support",
                                       "optimizer", "output", "limits", NULL};
    PlnYaml y;
    yaml_node_t *root, *v;
    char robot[1024];
    PlnStatus st;

    memset(sc, 0, sizeof *sc);
    set_defaults(sc);
    snprintf(sc->path, sizeof sc->path, "%s", path);
    st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) {
        memset(sc, 0, sizeof *sc);
        return st;
    }
    root = pln_yaml_root(&y);
    st = pln_yaml_check_mapping(&y, root, "", keys);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "name", 1, sc->name, sizeof sc->name);
    if (st == PLN_OK) {
        /* the name becomes a directory (out/<name>): a name, never a path */
        const char *bad = sc->name[0] == '.' ? sc->name : NULL;
        for (const char *c = sc->name; bad == NULL && *c; ++c) {
            if (*c == '/' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f) bad = c;
        }
        if (bad != NULL) {
            st = pln_yaml_error(&y, pln_yaml_get(&y, root, "name"), "name", PLN_ERR_INVALID,
                                "'%s': a scenario's name is also its output directory's: no '/', "
                                "'\\' or control character, and no '.' first", sc->name);
        }
    }
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "robot", 1, robot, sizeof robot);
    if (st == PLN_OK) {
        const yaml_node_t *rn = pln_yaml_get(&y, root, "robot");
        sc->robot_line = (int)rn->start_mark.line + 1;
        sc->robot_column = (int)rn->start_mark.column + 1;
    }
    if (st == PLN_OK && !resolve_relative(path, robot, sc->robot_path, sizeof sc->robot_path)) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "robot"), "robot", PLN_ERR_INVALID,
                            "the resolved path is too long");
    }
    if (st == PLN_OK) {
        sc->duration = 0.0;
        st = read_in_range(&y, root, "", "duration", 1, PLN_MIN_DURATION_S, 3600.0,
                           "must lie in [0.01, 3600] s", &sc->duration);
    }
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "spline")) != NULL) st = parse_spline(&y, v, sc);
    if (st == PLN_OK) {
        v = pln_yaml_get(&y, root, "joints");
        if (v == NULL) {
            st = pln_yaml_error(&y, root, "joints", PLN_ERR_INVALID,
                                "required key is missing (the list of moving joints)");
        } else {
            st = parse_joints(&y, v, sc);
        }
    }
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "initial")) != NULL) st = parse_initial(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "rest")) != NULL) st = parse_rest(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "limits")) != NULL) st = parse_limits(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "tasks")) != NULL) st = parse_tasks(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "cost")) != NULL) st = parse_cost(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "collision")) != NULL) {
        st = parse_collision(&y, v, sc);
    }
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "environment")) != NULL) {
        st = parse_environment(&y, v, sc);
    }
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "balance")) != NULL) st = parse_balance(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "dynamics")) != NULL) st = parse_dynamics(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "support")) != NULL) st = parse_support(&y, v, sc);
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "optimizer")) != NULL) {
        st = parse_optimizer(&y, v, sc);
    }
    if (st == PLN_OK && (v = pln_yaml_get(&y, root, "output")) != NULL) st = parse_output(&y, v, sc);
    /* contradictions across sections */
    if (st == PLN_OK && sc->balance && sc->n_support == 0) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "balance"), "balance.support",
                            PLN_ERR_INVALID, "balance is enabled but no supporting link is named");
    }
    if (st == PLN_OK && sc->n_phases > 0) st = phase_times(sc, err, err_size);
    if (st == PLN_OK && sc->spans * sc->subdivisions > PLN_MAX_INTERVALS) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "spline"), "spline.spans",
                            PLN_ERR_INVALID,
                            "%d spans x %d subdivisions exceed %d constraint intervals",
                            sc->spans, sc->subdivisions, PLN_MAX_INTERVALS);
    }
    pln_yaml_free(&y);
    if (st != PLN_OK) pln_scenario_destroy(sc);
    return st;
}

/* ---- resolve ---------------------------------------------------------------------- */

static int find_joint(const PlnRobot *robot, const char *name)
{
    for (int j = 0; j < robot->n_joints; ++j) {
        if (strcmp(robot->joints[j].name, name) == 0) return j;
    }
    return -1;
}

static int find_link(const PlnRobot *robot, const char *name)
{
    for (int l = 0; l < robot->n_links; ++l) {
        if (strcmp(robot->links[l].name, name) == 0) return l;
    }
    return -1;
}

static PlnStatus name_error(const PlnScenario *sc, const PlnNameRef *ref, const char *field,
                            const char *what, char *err, size_t err_size)
{
    return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s:%d:%d: %s: %s '%s'", sc->path, ref->line,
                      ref->column, field, what, ref->name);
}

static PlnStatus resolve_joint(const PlnScenario *sc, const PlnRobot *robot, PlnNameRef *ref,
                               const char *field, char *err, size_t err_size)
{
    ref->index = find_joint(robot, ref->name);
    if (ref->index < 0) return name_error(sc, ref, field, "unknown joint", err, err_size);
    if (robot->joints[ref->index].type == PLN_JOINT_FIXED) {
        return name_error(sc, ref, field, "joint is fixed and cannot move", err, err_size);
    }
    return PLN_OK;
}

static PlnStatus resolve_link(const PlnScenario *sc, const PlnRobot *robot, PlnNameRef *ref,
                              const char *field, char *err, size_t err_size);

/* support[i].place: the foot is one of the phase's feet, off the floor in the phase
 * before (a foot lands where it is placed; one on the floor cannot jump there) */
static PlnStatus resolve_place(PlnScenario *sc, const PlnRobot *robot, int i, char *err,
                               size_t err_size)
{
    PlnSupportPhase *ph = &sc->phases[i];
    char field[64];
    int in = 0;
    PlnStatus st;
    snprintf(field, sizeof field, "support[%d].place.foot", i);
    st = resolve_link(sc, robot, &ph->place_foot, field, err, err_size);
    if (st != PLN_OK) return st;
    for (int k = 0; k < ph->n_feet; ++k) in |= ph->feet[k].index == ph->place_foot.index;
    if (!in) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s:%d: %s: '%s' is not among this phase's feet, so it does not land here",
                          sc->path, ph->place_foot.line, field, ph->place_foot.name);
    }
    if (i == 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s:%d: %s: the first phase's feet stand where the initial posture puts "
                          "them; a foot lands at a new place only after a phase without it",
                          sc->path, ph->place_foot.line, field);
    }
    for (int k = 0; k < sc->phases[i - 1].n_feet; ++k) {
        if (sc->phases[i - 1].feet[k].index == ph->place_foot.index) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s:%d: %s: '%s' stands on the floor in support[%d] (line %d), so it "
                              "cannot land elsewhere; a foot lands at a new place only after a "
                              "phase without it",
                              sc->path, ph->place_foot.line, field, ph->place_foot.name, i - 1,
                              sc->phases[i - 1].line);
        }
    }
    return PLN_OK;
}

/* Dynamics on or off, the support phases (given, or one phase over the whole motion on
 * balance.support or on every sole of the robot), and their checks against the soles. */
static PlnStatus resolve_dynamics(PlnScenario *sc, const PlnRobot *robot, char *err,
                                  size_t err_size)
{
    PlnStatus st = PLN_OK;
    int given = sc->n_phases > 0;
    sc->dynamics = sc->dynamics_mode == PLN_DYNAMICS_ON ||
                   (sc->dynamics_mode == PLN_DYNAMICS_AUTO && robot->n_soles > 0 && robot->has_effort);
    sc->torque_limits = 0;
    if (sc->torque_asked == 1 && !robot->has_effort) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: dynamics.torque: torque limits are asked for, but the robot %s "
                          "gives no effort_max for its joints",
                          sc->path, sc->robot_path);
    }
    if (!sc->dynamics) return PLN_OK;
    if (robot->n_soles == 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: dynamics.mode: dynamics is on, but the robot %s has no soles "
                          "(give them in its `soles` section, or set dynamics.mode: off)",
                          sc->path, sc->robot_path);
    }
    sc->torque_limits = robot->has_effort && sc->torque_asked != 0;
    if (!given) {
        /* one phase over the whole motion: balance.support, or every sole */
        PlnSupportPhase *ph = &sc->phases[0];
        memset(ph, 0, sizeof *ph);
        ph->t0 = 0.0;
        ph->t1 = sc->duration;
        if (sc->n_support > 0) {
            if (sc->n_support > PLN_MAX_PHASE_FEET) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "%s:%d: balance.support: %d supporting links; dynamics handles "
                                  "at most %d at once",
                                  sc->path, sc->support[0].line, sc->n_support, PLN_MAX_PHASE_FEET);
            }
            for (int k = 0; k < sc->n_support; ++k) ph->feet[k] = sc->support[k];
            ph->n_feet = sc->n_support;
            ph->line = sc->support[0].line;
        } else {
            if (robot->n_soles > PLN_MAX_PHASE_FEET) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "%s: the robot has %d soles; name the ones on the floor in "
                                  "`support`", sc->path, robot->n_soles);
            }
            for (int k = 0; k < robot->n_soles; ++k) {
                PlnNameRef *f = &ph->feet[k];
                snprintf(f->name, sizeof f->name, "%s", robot->links[robot->soles[k].link].name);
                f->index = robot->soles[k].link;
            }
            ph->n_feet = robot->n_soles;
        }
        sc->n_phases = 1;
    }
    for (int i = 0; i < sc->n_phases && st == PLN_OK; ++i) {
        PlnSupportPhase *ph = &sc->phases[i];
        for (int k = 0; k < ph->n_feet && st == PLN_OK; ++k) {
            char field[64];
            int so;
            snprintf(field, sizeof field, given ? "support[%d].feet[%d]" : "balance.support[%d]",
                     given ? i : k, k);
            st = resolve_link(sc, robot, &ph->feet[k], field, err, err_size);
            if (st != PLN_OK) break;
            so = pln_robot_find_sole(robot, ph->feet[k].index);
            if (so < 0) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%d: %s: link '%s' has no sole in %s (its `soles` section)",
                                sc->path, ph->feet[k].line, field, ph->feet[k].name, sc->robot_path);
            }
        }
        if (st == PLN_OK && ph->has_place) st = resolve_place(sc, robot, i, err, err_size);
        if (st != PLN_OK) break;
    }
    return st;
}

void pln_scenario_static_balance(PlnScenario *sc)
{
    sc->dynamics_mode = PLN_DYNAMICS_OFF;
}

static PlnStatus resolve_link(const PlnScenario *sc, const PlnRobot *robot, PlnNameRef *ref,
                              const char *field, char *err, size_t err_size)
{
    ref->index = find_link(robot, ref->name);
    if (ref->index < 0) return name_error(sc, ref, field, "unknown link", err, err_size);
    return PLN_OK;
}

/* the name of the geometry kind a link lacks for `kind`, or NULL when it has it */
static const char *link_geometry_missing(PlnGeometryKind kind, const PlnLinkGeometry *g)
{
    switch (kind) {
    case PLN_GEOMETRY_CAPSULE: return g->has_capsule ? NULL : "capsule";
    case PLN_GEOMETRY_CONVEX:
        return (g->convex_path[0] != '\0' || pln_link_has_mesh(g)) ? NULL : "convex (or mesh)";
    case PLN_GEOMETRY_ELLIPSOID: return g->has_ellipsoid ? NULL : "ellipsoid";
    case PLN_GEOMETRY_MESH: return pln_link_has_mesh(g) ? NULL : "mesh";
    }
    return "known";
}

const char *pln_pair_exclusion_string(PlnPairExclusion reason)
{
    switch (reason) {
    case PLN_EXCLUDE_ADJACENT: return "adjacent";
    case PLN_EXCLUDE_RIGID: return "rigid";
    case PLN_EXCLUDE_START_CONTACT: return "in_contact_at_start";
    case PLN_EXCLUDE_ALWAYS_CONTACT: return "always_in_contact";
    case PLN_EXCLUDE_NO_GEOMETRY: return "no_geometry";
    case PLN_EXCLUDE_OBSTACLE_KIND: return "obstacle_not_measurable";
    case PLN_EXCLUDE_REMOVED: return "removed";
    }
    return "unknown";
}

/* one listed pair's names: link a, then link or obstacle b */
static PlnStatus resolve_pair(const PlnScenario *sc, const PlnRobot *robot, PlnPair *p,
                              const char *field, char *err, size_t err_size)
{
    PlnStatus st = resolve_link(sc, robot, &p->a, field, err, err_size);
    if (st != PLN_OK) return st;
    p->b.index = find_link(robot, p->b.name);
    p->b_is_obstacle = 0;
    if (p->b.index < 0) {
        for (int k = 0; k < sc->n_obstacles; ++k) {
            if (strcmp(sc->obstacles[k].name, p->b.name) == 0) {
                p->b.index = k;
                p->b_is_obstacle = 1;
            }
        }
    }
    if (p->b.index < 0) return name_error(sc, &p->b, field, "unknown link or obstacle", err, err_size);
    if (!p->b_is_obstacle && p->b.index == p->a.index) {
        return name_error(sc, &p->b, field, "a link cannot collide with itself:", err, err_size);
    }
    return PLN_OK;
}

static int same_pair(const PlnPair *x, const PlnPair *y)
{
    if (x->b_is_obstacle != y->b_is_obstacle) return 0;
    if (x->b_is_obstacle) return x->a.index == y->a.index && x->b.index == y->b.index;
    return (x->a.index == y->a.index && x->b.index == y->b.index) ||
           (x->a.index == y->b.index && x->b.index == y->a.index);
}

/* the pair set: the preset's, then collision.pairs.add and .remove */
static PlnStatus resolve_pairs(PlnScenario *sc, const PlnRobot *robot, char *err,
                               size_t err_size)
{
    char field[96];
    PlnStatus st = PLN_OK;
    switch (sc->pair_preset) {
    case PLN_PAIRS_LIST:
        for (int i = 0; i < sc->n_pairs && st == PLN_OK; ++i) {
            snprintf(field, sizeof field, "collision.pairs[%d]", i);
            st = resolve_pair(sc, robot, &sc->pairs[i], field, err, err_size);
        }
        return st;
    case PLN_PAIRS_ROBOT:
        if (robot->n_collision_pairs < 1) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: collision.pairs: 'robot' asks for the robot's pairs, but %s "
                              "defines none",
                              sc->path, sc->robot_path);
        }
        free(sc->pairs);
        sc->pairs = calloc((size_t)robot->n_collision_pairs + (size_t)sc->n_pairs_add,
                           sizeof *sc->pairs);
        if (sc->pairs == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        sc->n_pairs = robot->n_collision_pairs;
        for (int i = 0; i < sc->n_pairs; ++i) {
            PlnPair *p = &sc->pairs[i];
            p->a.index = robot->collision_pairs[i][0];
            p->b.index = robot->collision_pairs[i][1];
            snprintf(p->a.name, sizeof p->a.name, "%s", robot->links[p->a.index].name);
            snprintf(p->b.name, sizeof p->b.name, "%s", robot->links[p->b.index].name);
        }
        break;
    case PLN_PAIRS_ALL:
        /* resolve the additions first: the preset is measured with them absent */
        break;
    }
    for (int i = 0; i < sc->n_pairs_add && st == PLN_OK; ++i) {
        snprintf(field, sizeof field, "collision.pairs.add[%d]", i);
        st = resolve_pair(sc, robot, &sc->pairs_add[i], field, err, err_size);
    }
    for (int i = 0; i < sc->n_pairs_remove && st == PLN_OK; ++i) {
        snprintf(field, sizeof field, "collision.pairs.remove[%d]", i);
        st = resolve_pair(sc, robot, &sc->pairs_remove[i], field, err, err_size);
    }
    if (st == PLN_OK && sc->pair_preset == PLN_PAIRS_ALL) {
        st = pln_pairs_all(sc, robot, sc->n_pairs_add, err, err_size);
    }
    if (st != PLN_OK) return st;
    /* removals: from the measured set (recorded as excluded), or already excluded */
    for (int i = 0; i < sc->n_pairs_remove; ++i) {
        const PlnPair *r = &sc->pairs_remove[i];
        int found = 0;
        for (int k = 0; k < sc->n_pairs; ++k) {
            if (!same_pair(&sc->pairs[k], r)) continue;
            PlnExcludedPair *e;
            PlnExcludedPair *grown = realloc(sc->excluded, (size_t)(sc->n_excluded + 1) * sizeof *grown);
            if (grown == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
            sc->excluded = grown;
            e = &sc->excluded[sc->n_excluded++];
            e->pair = sc->pairs[k];
            e->reason = PLN_EXCLUDE_REMOVED;
            e->distance = NAN;
            memmove(&sc->pairs[k], &sc->pairs[k + 1], (size_t)(sc->n_pairs - k - 1) * sizeof *sc->pairs);
            --sc->n_pairs;
            found = 1;
            break;
        }
        for (int k = 0; k < sc->n_excluded && !found; ++k) found = same_pair(&sc->excluded[k].pair, r);
        if (!found) {
            snprintf(field, sizeof field, "collision.pairs.remove[%d]", i);
            return name_error(sc, &r->a, field, "is not a pair of the preset:", err, err_size);
        }
    }
    /* additions: appended unless already there (sc->pairs has room for them) */
    for (int i = 0; i < sc->n_pairs_add; ++i) {
        int dup = 0;
        for (int k = 0; k < sc->n_pairs && !dup; ++k) dup = same_pair(&sc->pairs[k], &sc->pairs_add[i]);
        if (!dup) sc->pairs[sc->n_pairs++] = sc->pairs_add[i];
    }
    return PLN_OK;
}

PlnStatus pln_scenario_resolve(PlnScenario *sc, const PlnRobot *robot, char *err, size_t err_size)
{
    char field[96];
    PlnStatus st = PLN_OK;

    for (int i = 0; i < sc->n_obstacles; ++i) {
        if (find_link(robot, sc->obstacles[i].name) >= 0) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s:%d: environment[%d].name: '%s' is also a link of the robot %s (names "
                              "of obstacles and links must differ, or pairs would be ambiguous)",
                              sc->path, sc->obstacles[i].line, i, sc->obstacles[i].name, sc->robot_path);
        }
    }
    if (sc->cost == PLN_COST_TIME && sc->cost_min_duration >= sc->duration) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s:%d: cost.min_duration: %g s is not below the duration (%g s)", sc->path,
                          sc->cost_line, sc->cost_min_duration, sc->duration);
    }
    if (robot->free_base) {
        /* a robot on a free base (pln_robot_free_base): its six virtual joints move too,
         * after the listed ones (docs/math/planner.md sec. 4d). A scenario cannot name
         * them: it is resolved against the robot file first, which has none. */
        PlnNameRef *a = realloc(sc->active, (size_t)(sc->n_active + PLN_FREE_BASE_JOINTS) * sizeof *a);
        if (a == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        sc->active = a;
        for (int k = 0; k < PLN_FREE_BASE_JOINTS; ++k) {
            memset(&sc->active[sc->n_active], 0, sizeof *a);
            snprintf(sc->active[sc->n_active].name, PLN_NAME_MAX, "%s", pln_robot_free_base_joint_name(k));
            sc->active[sc->n_active].index = -1;
            sc->n_active++;
        }
    }
    for (int i = 0; i < sc->n_active && st == PLN_OK; ++i) {
        snprintf(field, sizeof field, "joints[%d]", i);
        st = resolve_joint(sc, robot, &sc->active[i], field, err, err_size);
        for (int k = 0; st == PLN_OK && k < i; ++k) {
            if (sc->active[k].index == sc->active[i].index) {
                st = name_error(sc, &sc->active[i], field, "joint listed twice:", err, err_size);
            }
        }
    }
    for (int i = 0; i < sc->n_initial && st == PLN_OK; ++i) {
        const PlnJoint *j;
        snprintf(field, sizeof field, "initial.%s", sc->initial_joint[i].name);
        st = resolve_joint(sc, robot, &sc->initial_joint[i], field, err, err_size);
        if (st != PLN_OK) break;
        j = &robot->joints[sc->initial_joint[i].index];
        if (sc->initial_value[i] < j->lower || sc->initial_value[i] > j->upper) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s:%d:%d: %s: %g rad is outside the joint limits [%g, %g]", sc->path,
                            sc->initial_joint[i].line, sc->initial_joint[i].column, field,
                            sc->initial_value[i], j->lower, j->upper);
        }
    }
    for (int i = 0; i < sc->n_tasks && st == PLN_OK; ++i) {
        PlnTask *t = &sc->tasks[i];
        if (t->type == PLN_TASK_JOINT) {
            const PlnJoint *j;
            int moving = 0;
            snprintf(field, sizeof field, "tasks[%d].joint", i);
            st = resolve_joint(sc, robot, &t->joint, field, err, err_size);
            if (st != PLN_OK) break;
            j = &robot->joints[t->joint.index];
            for (int k = 0; k < sc->n_active; ++k) moving |= sc->active[k].index == t->joint.index;
            if (!moving) {
                st = name_error(sc, &t->joint, field, "is not among the moving joints:", err,
                                err_size);
            } else if (t->value + t->tolerance < j->lower || t->value - t->tolerance > j->upper) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%d: tasks[%d].value: %g rad cannot be reached within the "
                                "joint limits [%g, %g] of %s",
                                sc->path, t->line, i, t->value, j->lower, j->upper, j->name);
            } else {
                /* the plan keeps limits.position_margin inside the limits (pln_problem) */
                double m = fmin(sc->limit_margin, 0.5 * (j->upper - j->lower));
                if (t->value + t->tolerance < j->lower + m || t->value - t->tolerance > j->upper - m) {
                    st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                    "%s:%d: tasks[%d].value: %g rad lies within the joint-limit "
                                    "margin (limits.position_margin = %g rad) of %s's limits [%g, "
                                    "%g]: lower the margin or move the target inside",
                                    sc->path, t->line, i, t->value, m, j->name, j->lower, j->upper);
                }
            }
        } else {
            snprintf(field, sizeof field, "tasks[%d].link", i);
            st = resolve_link(sc, robot, &t->link, field, err, err_size);
            if (st == PLN_OK && robot->links[t->link.index].shifted) {
                /* a link whose frame re-rooting moved (pln_robot_reroot): the point and the
                 * orientation, given in the file's frame, in the model's (K11) */
                const PlnLink *L = &robot->links[t->link.index];
                double x[3], R[9];
                for (int a = 0; a < 3; ++a) {
                    x[a] = L->shift_pos[a];
                    for (int b = 0; b < 3; ++b) x[a] += L->shift_rot[3 * a + b] * t->point[b];
                }
                memcpy(t->point, x, sizeof x);
                for (int a = 0; a < 3; ++a) {
                    for (int b = 0; b < 3; ++b) {
                        R[3 * a + b] = 0.0;
                        for (int c = 0; c < 3; ++c) R[3 * a + b] += t->target_rot[3 * a + c] * L->shift_rot[3 * b + c];
                    }
                }
                memcpy(t->target_rot, R, sizeof R);
            }
        }
    }
    /* contradictory tasks: the same joint (or the same point of a link) asked to be in two
     * places at one time, farther apart than the two tolerances allow */
    for (int i = 0; i < sc->n_tasks && st == PLN_OK; ++i) {
        for (int k = 0; k < i && st == PLN_OK; ++k) {
            const PlnTask *a = &sc->tasks[k], *b = &sc->tasks[i];
            double gap = -1.0;
            if (a->type != b->type || a->time != b->time) continue;
            if (a->type == PLN_TASK_JOINT && a->joint.index == b->joint.index) {
                gap = fabs(a->value - b->value);
            } else if (a->type == PLN_TASK_POSITION && a->link.index == b->link.index &&
                       a->point[0] == b->point[0] && a->point[1] == b->point[1] &&
                       a->point[2] == b->point[2]) {
                gap = sqrt((a->target[0] - b->target[0]) * (a->target[0] - b->target[0]) +
                           (a->target[1] - b->target[1]) * (a->target[1] - b->target[1]) +
                           (a->target[2] - b->target[2]) * (a->target[2] - b->target[2]));
            }
            if (gap > a->tolerance + b->tolerance) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%d: tasks[%d]: contradicts tasks[%d] (line %d): both at %g s, "
                                "%g apart, more than their tolerances allow",
                                sc->path, b->line, i, k, a->line, b->time, gap);
            }
        }
    }
    if (st == PLN_OK) st = resolve_pairs(sc, robot, err, err_size);
    for (int i = 0; i < sc->n_support && st == PLN_OK; ++i) {
        snprintf(field, sizeof field, "balance.support[%d]", i);
        st = resolve_link(sc, robot, &sc->support[i], field, err, err_size);
    }
    if (st == PLN_OK) st = resolve_dynamics(sc, robot, err, err_size);
    /* a geometry override (--geometry) can leave phong without meshes */
    if (st == PLN_OK && sc->distance == PLN_DISTANCE_PHONG && sc->geometry != PLN_GEOMETRY_MESH) {
        char where[32] = " (--distance)";
        if (sc->distance_line > 0) snprintf(where, sizeof where, ":%d", sc->distance_line);
        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                        "%s%s: collision.distance: phong measures closed triangle meshes and "
                        "needs collision.geometry: mesh (the geometry is %s)",
                        sc->path, where, geometry_name(sc->geometry));
    }
    /* pairs whose geometry is missing cannot be checked: refuse rather than skip */
    for (int i = 0; i < sc->n_pairs && st == PLN_OK; ++i) {
        const PlnPair *p = &sc->pairs[i];
        const char *missing = link_geometry_missing(sc->geometry, &robot->links[p->a.index].geometry);
        if (missing == NULL && !p->b_is_obstacle) {
            missing = link_geometry_missing(sc->geometry, &robot->links[p->b.index].geometry);
        }
        if (missing != NULL) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s: collision.pairs[%d]: %s - %s: a link of the pair has no %s "
                            "geometry in %s",
                            sc->path, i, p->a.name, p->b.name, missing, sc->robot_path);
        } else if (p->b_is_obstacle) {
            const PlnObstacle *o = &sc->obstacles[p->b.index];
            int is_mesh = o->type == PLN_OBSTACLE_MESH;
            /* with geometry mesh, a sphere or capsule obstacle is the polyhedron that
             * encloses it (pln_geom, model/pln_linkmesh.h) */
            if (is_mesh && sc->geometry != PLN_GEOMETRY_MESH) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s:%d: collision.pairs[%d]: %s - %s: a mesh obstacle needs "
                                "collision.geometry: mesh", sc->path, p->b.line, i, p->a.name,
                                p->b.name);
            }
        }
    }
    return st;
}

void pln_scenario_scale_time(PlnScenario *sc, double k)
{
    const double old = sc->duration, T = old * k;
    for (int i = 0; i < sc->n_tasks; ++i) sc->tasks[i].time = fmin(sc->tasks[i].time * k, T);
    for (int i = 0; i < sc->n_phases; ++i) {
        sc->phases[i].t0 = fmin(sc->phases[i].t0 * k, T);
        /* the phase that ended with the motion still does */
        sc->phases[i].t1 = sc->phases[i].t1 == old ? T : fmin(sc->phases[i].t1 * k, T);
    }
    sc->duration = T;
}
