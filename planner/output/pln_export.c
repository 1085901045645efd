/* pln_export.c — hrpplan export: trajectory.json reader, checked sampling, and the
 * hrpsys (.pos/.waist/.zmp), csv, json and ROS JointTrajectory YAML writers. */
#include "output/pln_export.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "output/pln_output.h"
#include "base/pln_atomic.h"
#include "base/pln_file.h"
#include "base/pln_json.h"
#include "base/pln_tolerance.h"
#include "base/pln_yaml.h"

const char *pln_format_string(PlnExportFormat format)
{
    switch (format) {
    case PLN_FORMAT_NONE: return "";
    case PLN_FORMAT_POS: return "pos";
    case PLN_FORMAT_CSV: return "csv";
    case PLN_FORMAT_JSON: return "json";
    case PLN_FORMAT_ROS: return "ros";
    }
    return "unknown";
}

PlnStatus pln_format_from_string(const char *name, PlnExportFormat *format)
{
    static const PlnExportFormat all[] = {PLN_FORMAT_POS, PLN_FORMAT_CSV, PLN_FORMAT_JSON,
                                          PLN_FORMAT_ROS};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
        if (name != NULL && strcmp(name, pln_format_string(all[i])) == 0) {
            *format = all[i];
            return PLN_OK;
        }
    }
    return PLN_ERR_INVALID;
}

PlnExportOptions pln_export_options_default(void)
{
    PlnExportOptions o;
    o.format = PLN_FORMAT_POS;
    o.rate_hz = 200.0;
    o.force = 0;
    return o;
}

void pln_export_trajectory_destroy(PlnExportTrajectory *tr)
{
    if (tr == NULL) return;
    free(tr->joints);
    free(tr->initial);
    free(tr->active);
    free(tr->ctrl);
    pln_bspline_destroy(tr->bs);
    memset(tr, 0, sizeof *tr);
}

/* ---- reading ----------------------------------------------------------------------- */

/* a required key of a mapping */
static yaml_node_t *required(PlnYaml *y, const yaml_node_t *map, const char *field,
                             const char *key, PlnStatus *st)
{
    yaml_node_t *node = pln_yaml_get(y, map, key);
    if (node == NULL && *st == PLN_OK) {
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", field, field[0] ? "." : "", key);
        *st = pln_yaml_error(y, map, path, PLN_ERR_INVALID, "required key is missing");
    }
    return node;
}

/* names of a sequence node of strings into names[cap]; *n their count; no repeats */
static PlnStatus node_names(PlnYaml *y, const yaml_node_t *node, const char *field, int cap,
                            char (*names)[PLN_NAME_MAX], int *n)
{
    PlnStatus st = pln_yaml_sequence(y, node, field, n);
    if (st != PLN_OK) return st;
    if (*n < 1 || *n > cap) {
        return pln_yaml_error(y, node, field, PLN_ERR_INVALID, "expected 1 to %d names, got %d",
                              cap, *n);
    }
    for (int i = 0; i < *n && st == PLN_OK; ++i) {
        char item[128];
        yaml_node_t *it = pln_yaml_item(y, node, i);
        snprintf(item, sizeof item, "%s[%d]", field, i);
        st = pln_yaml_node_string(y, it, item, names[i], PLN_NAME_MAX);
        if (st == PLN_OK && names[i][0] == '\0') {
            st = pln_yaml_error(y, it, item, PLN_ERR_INVALID, "empty name");
        }
        for (int k = 0; k < i && st == PLN_OK; ++k) {
            if (strcmp(names[k], names[i]) == 0) {
                st = pln_yaml_error(y, it, item, PLN_ERR_INVALID, "'%s' repeats item %d",
                                    names[i], k);
            }
        }
    }
    return st;
}

static PlnStatus read_spline(PlnYaml *y, const yaml_node_t *spline, PlnExportTrajectory *tr)
{
    static const char *const keys[] = {"degree", "knots", "joints", "control_points", NULL};
    PlnStatus st = pln_yaml_check_mapping(y, spline, "spline", keys);
    yaml_node_t *kn = NULL, *jn = NULL, *cn = NULL;
    double *knots = NULL;
    char (*names)[PLN_NAME_MAX] = NULL;
    int degree = 0, n_knots = 0, n_ctrl, rows;

    if (st == PLN_OK) st = pln_yaml_int(y, spline, "spline", "degree", 1, 1, PLN_BSPLINE_MAX_DEGREE, &degree);
    kn = required(y, spline, "spline", "knots", &st);
    jn = required(y, spline, "spline", "joints", &st);
    cn = required(y, spline, "spline", "control_points", &st);
    if (st == PLN_OK) st = pln_yaml_sequence(y, kn, "spline.knots", &n_knots);
    n_ctrl = n_knots - degree - 1;
    if (st == PLN_OK && n_ctrl < degree + 1) {
        st = pln_yaml_error(y, kn, "spline.knots", PLN_ERR_INVALID,
                            "%d knots are too few for degree %d (at least %d)", n_knots, degree,
                            2 * degree + 2);
    }
    if (st == PLN_OK) {
        knots = calloc((size_t)n_knots, sizeof *knots);
        if (knots == NULL) st = pln_errorf(PLN_ERR_NOMEM, y->err, y->err_size, "out of memory");
    }
    if (st == PLN_OK) st = pln_yaml_node_numbers(y, kn, "spline.knots", n_knots, knots);
    if (st == PLN_OK && fabs(knots[n_knots - 1] - tr->duration) >
                            PLN_TIME_EPS_REL * fmax(1.0, tr->duration)) {
        st = pln_yaml_error(y, kn, "spline.knots", PLN_ERR_INVALID,
                            "the last knot %g s is not the duration %g s", knots[n_knots - 1],
                            tr->duration);
    }
    if (st == PLN_OK) {
        char berr[256];
        if (pln_bspline_create(&tr->bs, degree, n_ctrl, tr->duration, berr, sizeof berr) != PLN_OK) {
            st = pln_yaml_error(y, kn, "spline.knots", PLN_ERR_INVALID, "%s", berr);
        }
    }
    /* only the clamped uniform knot vector is a spline hrpplan writes */
    for (int i = 0; st == PLN_OK && i < n_knots; ++i) {
        if (fabs(knots[i] - tr->bs->knots[i]) > PLN_TIME_EPS_REL * fmax(1.0, tr->duration)) {
            st = pln_yaml_error(y, kn, "spline.knots", PLN_ERR_INVALID,
                                "knot %d is %.17g s, the clamped uniform vector has %.17g s", i,
                                knots[i], tr->bs->knots[i]);
        }
    }
    /* moving joints: names among `joints` */
    if (st == PLN_OK) {
        names = calloc((size_t)tr->n_joints, sizeof *names);
        if (names == NULL) st = pln_errorf(PLN_ERR_NOMEM, y->err, y->err_size, "out of memory");
    }
    if (st == PLN_OK) st = node_names(y, jn, "spline.joints", tr->n_joints, names, &tr->n_active);
    if (st == PLN_OK) {
        tr->active = calloc((size_t)tr->n_active, sizeof *tr->active);
        tr->ctrl = calloc((size_t)tr->n_active * (size_t)n_ctrl, sizeof *tr->ctrl);
        if (tr->active == NULL || tr->ctrl == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, y->err, y->err_size, "out of memory");
        }
    }
    for (int a = 0; st == PLN_OK && a < tr->n_active; ++a) {
        tr->active[a] = -1;
        for (int j = 0; j < tr->n_joints; ++j) {
            if (strcmp(names[a], tr->joints[j]) == 0) tr->active[a] = j;
        }
        if (tr->active[a] < 0) {
            char item[64];
            snprintf(item, sizeof item, "spline.joints[%d]", a);
            st = pln_yaml_error(y, pln_yaml_item(y, jn, a), item, PLN_ERR_INVALID,
                                "'%s' is not one of `joints`", names[a]);
        }
    }
    /* control points: one row of n_ctrl per moving joint */
    if (st == PLN_OK) st = pln_yaml_sequence(y, cn, "spline.control_points", &rows);
    if (st == PLN_OK && rows != tr->n_active) {
        st = pln_yaml_error(y, cn, "spline.control_points", PLN_ERR_INVALID,
                            "%d rows, but %d moving joints", rows, tr->n_active);
    }
    for (int a = 0; st == PLN_OK && a < tr->n_active; ++a) {
        char field[64];
        snprintf(field, sizeof field, "spline.control_points[%d]", a);
        st = pln_yaml_node_numbers(y, pln_yaml_item(y, cn, a), field, n_ctrl, tr->ctrl + (size_t)a * n_ctrl);
    }
    free(knots);
    free(names);
    return st;
}

/* Reads trajectory.json (docs/FILE_FORMATS.md) without its scenario. */
PlnStatus pln_export_trajectory_read(const char *path, PlnExportTrajectory *tr, char *err,
                                     size_t err_size)
{
    static const char *const keys[] = {"format", "version", "comment", "scenario", "robot",
                                       "robot_file", "robot_file_relative", "robot_sha256",
                                       "certified", "duration", "joints",
                                       "initial", "spline", "samples", "base", NULL};
    PlnYaml y;
    yaml_node_t *root, *jn = NULL, *in = NULL, *sp = NULL;
    char format[64];
    int version = 1;
    PlnStatus st;

    memset(tr, 0, sizeof *tr);
    if (strlen(path) >= sizeof tr->path) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: path too long", path);
    }
    snprintf(tr->path, sizeof tr->path, "%s", path);
    st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) return st;
    root = pln_yaml_root(&y);
    st = pln_yaml_check_mapping(&y, root, "", keys);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "format", 1, format, sizeof format);
    if (st == PLN_OK && strcmp(format, "hrpplan-trajectory") != 0) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "format"), "format", PLN_ERR_INVALID,
                            "'%s' is not an hrpplan trajectory", format);
    }
    if (st == PLN_OK) st = pln_yaml_int(&y, root, "", "version", 0, 1, 1, &version);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "scenario", 0, tr->scenario, sizeof tr->scenario);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "robot", 1, tr->robot, sizeof tr->robot);
    if (st == PLN_OK && pln_yaml_get(&y, root, "robot_file") == NULL) {
        st = pln_yaml_error(&y, root, "robot_file", PLN_ERR_INVALID,
                            "required key is missing (the file predates it: plan again, or "
                            "add the robot YAML's path)");
    }
    if (st == PLN_OK) {
        st = pln_yaml_string(&y, root, "", "robot_file", 1, tr->robot_file, sizeof tr->robot_file);
    }
    if (st == PLN_OK) {
        st = pln_yaml_string(&y, root, "", "robot_file_relative", 0, tr->robot_file_relative,
                             sizeof tr->robot_file_relative);
    }
    if (st == PLN_OK) {
        st = pln_yaml_string(&y, root, "", "robot_sha256", 0, tr->robot_sha256, sizeof tr->robot_sha256);
    }
    if (st == PLN_OK && tr->robot_sha256[0] != '\0') {
        int ok = strlen(tr->robot_sha256) == 64;
        for (int k = 0; ok && k < 64; ++k) ok = strchr("0123456789abcdef", tr->robot_sha256[k]) != NULL;
        if (!ok) {
            st = pln_yaml_error(&y, pln_yaml_get(&y, root, "robot_sha256"), "robot_sha256",
                                PLN_ERR_INVALID, "expected 64 lowercase hex digits (a SHA-256)");
        }
    }
    if (st == PLN_OK) st = pln_yaml_bool(&y, root, "", "certified", 1, &tr->certified);
    if (st == PLN_OK) st = pln_yaml_double(&y, root, "", "duration", 1, &tr->duration);
    if (st == PLN_OK && !(tr->duration >= PLN_MIN_DURATION_S)) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "duration"), "duration", PLN_ERR_INVALID,
                            "%g s: must be at least %g s", tr->duration, PLN_MIN_DURATION_S);
    }
    /* every joint and its initial value */
    jn = required(&y, root, "", "joints", &st);
    in = required(&y, root, "", "initial", &st);
    sp = required(&y, root, "", "spline", &st);
    if (st == PLN_OK) {
        tr->joints = calloc(PLN_ROBOT_MAX_LINKS, sizeof *tr->joints);
        if (tr->joints == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) st = node_names(&y, jn, "joints", PLN_ROBOT_MAX_LINKS, tr->joints, &tr->n_joints);
    if (st == PLN_OK) {
        tr->initial = calloc((size_t)tr->n_joints, sizeof *tr->initial);
        if (tr->initial == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) st = pln_yaml_node_numbers(&y, in, "initial", tr->n_joints, tr->initial);
    if (st == PLN_OK) st = read_spline(&y, sp, tr);
    if (st == PLN_OK && pln_yaml_get(&y, root, "base") != NULL) {
        static const char *const bkeys[] = {"link", "free", "position", "rotation", NULL};
        yaml_node_t *b = pln_yaml_get(&y, root, "base");
        st = pln_yaml_check_mapping(&y, b, "base", bkeys);
        if (st == PLN_OK) st = pln_yaml_bool(&y, b, "base", "free", 0, &tr->base_free);
        if (st == PLN_OK) st = pln_yaml_string(&y, b, "base", "link", 1, tr->base_link, sizeof tr->base_link);
        if (st == PLN_OK) st = pln_yaml_vector(&y, b, "base", "position", 1, 3, tr->base_pos);
        if (st == PLN_OK) st = pln_yaml_vector(&y, b, "base", "rotation", 1, 9, tr->base_rot);
        tr->has_base = st == PLN_OK;
    }
    pln_yaml_free(&y);
    if (st != PLN_OK) pln_export_trajectory_destroy(tr);
    return st;
}

PlnStatus pln_export_trajectory_robot(const PlnExportTrajectory *tr, PlnRobot *robot, char *err,
                                      size_t err_size)
{
    PlnRobot rr;
    int l;
    PlnStatus st;
    if (!tr->has_base) return PLN_OK;
    if (tr->base_free) {
        /* the waist on six virtual joints (pln_robot_free_base) */
        if (strcmp(tr->base_link, robot->links[robot->file_root].name) != 0) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: base.link: '%s' is not the root link of %s ('%s')", tr->path,
                              tr->base_link, tr->robot_file, robot->links[robot->file_root].name);
        }
        st = pln_robot_free_base(robot, &rr, err, err_size);
        if (st != PLN_OK) return st;
        pln_robot_destroy(robot);
        *robot = rr;
        return PLN_OK;
    }
    l = pln_robot_find_link(robot, tr->base_link);
    if (l < 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: base.link: '%s' is not a link of %s",
                          tr->path, tr->base_link, tr->robot_file);
    }
    st = pln_robot_reroot(robot, l, tr->base_pos, tr->base_rot, &rr, err, err_size);
    if (st != PLN_OK) return st;
    pln_robot_destroy(robot);
    *robot = rr;
    return PLN_OK;
}

PlnStatus pln_export_trajectory_resolve(const PlnExportTrajectory *tr, const PlnRobot *robot,
                                        char *err, size_t err_size)
{
    if (strcmp(tr->robot, robot->name) != 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: robot: '%s', but %s describes robot '%s'", tr->path, tr->robot,
                          tr->robot_file, robot->name);
    }
    if (tr->n_joints != robot->n_joints) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: joints: %d joints, but robot '%s' has %d", tr->path, tr->n_joints,
                          robot->name, robot->n_joints);
    }
    for (int j = 0; j < tr->n_joints; ++j) {
        if (strcmp(tr->joints[j], robot->joints[j].name) != 0) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: joints[%d]: '%s', but joint %d of robot '%s' is %s", tr->path,
                              j, tr->joints[j], j, robot->name, robot->joints[j].name);
        }
    }
    return PLN_OK;
}

/* ---- sampling and limits ----------------------------------------------------------- */

/* q, q', q'' of every joint at t: spline (docs/math/bspline.md eq. 1-4) for the moving
 * joints, the initial value at rest for the others. */
PlnStatus pln_export_state_at(const PlnExportTrajectory *tr, double t, double *out)
{
    const int n = tr->n_joints, nc = tr->bs->n_ctrl;
    double d[PLN_BSPLINE_MAX_DERIV + 1];
    for (int j = 0; j < n; ++j) {
        out[j] = tr->initial[j];
        out[n + j] = 0.0;
        out[2 * n + j] = 0.0;
    }
    for (int a = 0; a < tr->n_active; ++a) {
        PlnStatus st = pln_bspline_eval(tr->bs, tr->ctrl + (size_t)a * nc, t, 2, d);
        if (st != PLN_OK) return st;
        out[tr->active[a]] = d[0];
        out[n + tr->active[a]] = d[1];
        out[2 * n + tr->active[a]] = d[2];
    }
    return PLN_OK;
}

/* one limit violation found while sampling */
typedef struct Violation {
    int count;           /* samples (joint x time) violating a limit */
    int joint;           /* the earliest one */
    double t, value, lo, hi;
    int velocity;        /* 1: velocity limit, 0: position limit */
} Violation;

static void note_violation(Violation *v, int joint, double t, double value, double lo,
                           double hi, int velocity)
{
    if (v->count++ == 0) {
        v->joint = joint;
        v->t = t;
        v->value = value;
        v->lo = lo;
        v->hi = hi;
        v->velocity = velocity;
    }
}

/* Checked sampling: positions and spline velocities against the limits at every sample. */
PlnStatus pln_export_sample_checked(const PlnExportTrajectory *tr, const PlnRobot *robot,
                                    double rate_hz, PlnTable *table, char *err,
                                    size_t err_size)
{
    const int n = tr->n_joints;
    double *state;
    int rows;
    Violation v;
    PlnStatus st = pln_table_times(tr->duration, rate_hz, NULL, PLN_EXPORT_MAX_SAMPLES, &rows,
                                   err, err_size);
    if (st != PLN_OK) {
        char inner[512];
        snprintf(inner, sizeof inner, "%s", err);
        return pln_errorf(st, err, err_size, "%s: --rate: %s", tr->path, inner);
    }
    st = pln_table_create(table, n, rows, err, err_size);
    if (st != PLN_OK) return st;
    state = calloc((size_t)3 * n, sizeof *state);
    if (state == NULL) {
        pln_table_destroy(table);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    pln_table_times(tr->duration, rate_hz, table->t, rows, &rows, err, err_size);
    for (int j = 0; j < n; ++j) snprintf(table->names[j], PLN_NAME_MAX, "%s", tr->joints[j]);
    st = pln_table_add_derivatives(table, err, err_size);
    memset(&v, 0, sizeof v);
    for (int r = 0; r < rows && st == PLN_OK; ++r) {
        st = pln_export_state_at(tr, table->t[r], state);
        for (int j = 0; j < n && st == PLN_OK; ++j) {
            const PlnJoint *jt = &robot->joints[j];
            double q = state[j], qd = state[n + j];
            if (!isfinite(q) || !isfinite(qd)) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: %s at t = %.17g s is not finite",
                                tr->path, jt->name, table->t[r]);
            } else if (q < jt->lower - PLN_CERT_SLACK || q > jt->upper + PLN_CERT_SLACK) {
                note_violation(&v, j, table->t[r], q, jt->lower, jt->upper, 0);
            } else if (fabs(qd) > jt->velocity_max + PLN_CERT_SLACK) {
                note_violation(&v, j, table->t[r], qd, -jt->velocity_max, jt->velocity_max, 1);
            }
            table->q[(size_t)r * n + j] = q;
            table->qd[(size_t)r * n + j] = qd;
            table->qdd[(size_t)r * n + j] = state[2 * n + j];
        }
    }
    free(state);
    if (st == PLN_OK && v.count > 0) {
        st = pln_errorf(PLN_ERR_NOT_CERTIFIED, err, err_size,
                        "%s: joint %s at t = %.6g s: %s %.6g %s outside its limits [%.6g, %.6g] "
                        "(%d sample%s at %g Hz violate a limit); not exported",
                        tr->path, robot->joints[v.joint].name, v.t,
                        v.velocity ? "velocity" : "position", v.value,
                        v.velocity ? "rad/s" : "rad", v.lo, v.hi, v.count, v.count == 1 ? "" : "s",
                        rate_hz);
    }
    if (st != PLN_OK) pln_table_destroy(table);
    return st;
}

/* ---- writers ----------------------------------------------------------------------- */

/* Roll, pitch, yaw of R = Rz(yaw) Ry(pitch) Rx(roll) (inverse of pln_kin_rpy_to_matrix):
 * R20 = -sin p, R21 = cos p sin r, R22 = cos p cos r, R10 = sin y cos p, R00 = cos y cos p. */
void pln_export_matrix_to_rpy(const double R[9], double rpy[3])
{
    double cp = hypot(R[7], R[8]);
    rpy[1] = atan2(-R[6], cp);
    if (cp > PLN_RPY_GIMBAL_COS) {
        rpy[0] = atan2(R[7], R[8]);
        rpy[2] = atan2(R[3], R[0]);
    } else {
        /* gimbal lock: only yaw -+ roll is defined; take roll = 0, then R01 = -sin y,
         * R11 = cos y */
        rpy[0] = 0.0;
        rpy[2] = atan2(-R[1], R[4]);
    }
    for (int k = 0; k < 3; ++k) rpy[k] += 0.0; /* no "-0" in the files */
}

/* "<path without extension><ext>" into buf (the extension is the last '.' of the last
 * path component, if any) */
PlnStatus pln_export_sibling_path(char *buf, size_t size, const char *path, const char *ext,
                                  char *err, size_t err_size)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    size_t stem = dot != NULL && (slash == NULL || dot > slash + 1) ? (size_t)(dot - path)
                                                                     : strlen(path);
    int n = snprintf(buf, size, "%.*s%s", (int)stem, path, ext);
    if (n < 0 || (size_t)n >= size) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: path too long", path);
    }
    return PLN_OK;
}

/* .waist (root-link pose, x y z roll pitch yaw) and .zmp of every sample, the ZMP on the
 * ground (world z = 0) expressed in the waist frame as hrpsys expects.
 * With the table's velocities and accelerations (sampled from a spline), the ZMP is the
 * multibody one of the motion with the waist held where the robot model puts it: the
 * wrench [n_O; f] the ground must supply is the base row of inverse dynamics
 * (model/pln_dyn.h with the base at rest, gravity on), and the ZMP is the ground point
 * where its horizontal moment vanishes, x = -n_y / f_z, y = n_x / f_z (docs/math/
 * dynamics.md eq. D16). A motion that needs a vertical ground force below
 * PLN_ZMP_MIN_VERTICAL_FORCE_REL of the robot's weight has no ZMP and is refused (exit 3).
 * Without derivatives (a table read from a file) it falls back to the ground projection of
 * the centre of mass, the ZMP of a motion slow enough that nothing accelerates. */
static PlnStatus write_waist_zmp(const PlnTable *tb, const PlnRobot *robot,
                                 const char *waist_path, const char *zmp_path,
                                 const char *comment, char *err, size_t err_size)
{
    const double gravity[3] = {0.0, 0.0, -PLN_GRAVITY_MS2};
    PlnTable waist, zmp;
    PlnKinWork *kin = NULL;
    PlnDynWork *dyn = NULL;
    double *nu = NULL, *nudot = NULL, *tau = NULL;
    int nv = 6 + robot->n_joints, dynamic = tb->qd != NULL && tb->qdd != NULL;
    PlnStatus st;
    memset(&waist, 0, sizeof waist);
    memset(&zmp, 0, sizeof zmp);
    st = pln_kin_create(robot, &kin, err, err_size);
    if (st == PLN_OK && dynamic) st = pln_dyn_create(robot, &dyn, err, err_size);
    if (st == PLN_OK && dynamic) {
        nu = calloc((size_t)nv, sizeof *nu);
        nudot = calloc((size_t)nv, sizeof *nudot);
        tau = calloc((size_t)nv, sizeof *tau);
        if (nu == NULL || nudot == NULL || tau == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        }
    }
    if (st == PLN_OK) st = pln_table_create(&waist, 6, tb->n_rows, err, err_size);
    if (st == PLN_OK) st = pln_table_create(&zmp, 3, tb->n_rows, err, err_size);
    for (int r = 0; r < tb->n_rows && st == PLN_OK; ++r) {
        const double *R, *o, *q = tb->q + (size_t)r * tb->n_joints;
        double com[3], g[3], rpy[3], Rw[9], ow[3];
        st = pln_kin_forward(kin, robot, q);
        if (st == PLN_OK) st = pln_kin_com(kin, robot, com);
        if (st != PLN_OK) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s: no centre of mass at t = %g s (robot '%s' has no mass?)",
                            zmp_path, tb->t[r], robot->name);
            break;
        }
        /* the waist: the file's root link, in its own frame (a re-rooted model moves it) */
        pln_robot_file_frame(robot, robot->file_root, pln_kin_link_rot(kin, robot->file_root),
                             pln_kin_link_pos(kin, robot->file_root), Rw, ow);
        R = Rw;
        o = ow;
        pln_export_matrix_to_rpy(R, rpy);
        waist.t[r] = zmp.t[r] = tb->t[r];
        for (int k = 0; k < 3; ++k) {
            waist.q[(size_t)r * 6 + k] = o[k];
            waist.q[(size_t)r * 6 + 3 + k] = rpy[k];
        }
        /* the ground point: the ZMP (eq. D16), or the centre of mass projected */
        g[0] = com[0];
        g[1] = com[1];
        if (dynamic) {
            PlnDynState s;
            memset(&s, 0, sizeof s);
            memcpy(s.base_pos, robot->base_pos, sizeof s.base_pos);
            memcpy(s.base_rot, robot->base_rot, sizeof s.base_rot);
            memcpy(nu + 6, tb->qd + (size_t)r * tb->n_joints, (size_t)tb->n_joints * sizeof *nu);
            memcpy(nudot + 6, tb->qdd + (size_t)r * tb->n_joints,
                   (size_t)tb->n_joints * sizeof *nudot);
            s.q = q;
            s.nu = nu;
            s.nudot = nudot;
            st = pln_dyn_rnea(dyn, robot, &s, gravity, tau);
            if (st != PLN_OK) {
                st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                "%s: inverse dynamics failed at t = %g s (a value is not finite)",
                                zmp_path, tb->t[r]);
                break;
            }
            if (!(tau[5] > PLN_ZMP_MIN_VERTICAL_FORCE_REL * robot->total_mass * PLN_GRAVITY_MS2)) {
                st = pln_errorf(PLN_ERR_NOT_CERTIFIED, err, err_size,
                                "%s: at t = %.6g s the motion needs a vertical ground force of "
                                "%.6g N (the robot weighs %.6g N): the feet would leave the "
                                "ground, there is no ZMP; not exported",
                                zmp_path, tb->t[r], tau[5], robot->total_mass * PLN_GRAVITY_MS2);
                break;
            }
            g[0] = -tau[1] / tau[5];
            g[1] = tau[0] / tau[5];
        }
        /* in the waist frame: R^T (g - o), ground z = 0 */
        g[0] -= o[0];
        g[1] -= o[1];
        g[2] = 0.0 - o[2];
        for (int k = 0; k < 3; ++k) {
            zmp.q[(size_t)r * 3 + k] = R[k] * g[0] + R[3 + k] * g[1] + R[6 + k] * g[2];
        }
    }
    if (st == PLN_OK) st = pln_table_write_pos(&waist, waist_path, comment, err, err_size);
    if (st == PLN_OK) st = pln_table_write_pos(&zmp, zmp_path, comment, err, err_size);
    pln_table_destroy(&waist);
    pln_table_destroy(&zmp);
    pln_kin_destroy(kin);
    pln_dyn_destroy(dyn);
    free(nu);
    free(nudot);
    free(tau);
    return st;
}

/* a double as a YAML 1.1 float that every resolver reads as a float (a '.' before any
 * exponent, a signed exponent): 0 -> 0.0, 1e-05 -> 1.0e-05 */
static void yaml_float(char *buf, size_t size, double x)
{
    char tmp[40];
    char *e;
    if (x == 0.0) x = 0.0;
    snprintf(tmp, sizeof tmp, "%.17g", x);
    e = strchr(tmp, 'e');
    if (strchr(tmp, '.') != NULL) {
        snprintf(buf, size, "%s", tmp);
    } else if (e != NULL) {
        snprintf(buf, size, "%.*s.0%s", (int)(e - tmp), tmp, e);
    } else {
        snprintf(buf, size, "%s.0", tmp);
    }
}

/* a YAML double-quoted scalar (JSON-compatible escapes) */
static void yaml_quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '"' || *p == '\\') fprintf(fp, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) fprintf(fp, "\\x%02x", *p);
        else fputc(*p, fp);
    }
    fputc('"', fp);
}

static void yaml_vector(FILE *fp, const char *prefix, const char *key, const double *v, int n)
{
    char num[48];
    fprintf(fp, "%s%s: [", prefix, key);
    for (int j = 0; j < n; ++j) {
        yaml_float(num, sizeof num, v[j]);
        fprintf(fp, "%s%s", j ? ", " : "", num);
    }
    fputs("]\n", fp);
}

/* trajectory_msgs/JointTrajectory as YAML (the ROS 2 message layout), of the first nb
 * joints (the robot's own: a free base's virtual joints come last) */
static PlnStatus write_ros(const PlnExportTrajectory *tr, const PlnTable *tb, int nb,
                           const char *path, const char *comment, char *err, size_t err_size)
{
    const int n = tr->n_joints;
    PlnAtomicFile f;
    long long prev = -1;
    double *state = calloc((size_t)3 * n, sizeof *state);
    PlnStatus st;
    if (state == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) {
        free(state);
        return st;
    }
    fputs("# trajectory_msgs/JointTrajectory written by hrpplan export\n", f.fp);
    if (comment != NULL) fprintf(f.fp, "# %s\n", comment);
    fputs("header:\n  stamp: {sec: 0, nanosec: 0}\n  frame_id: \"\"\njoint_names: [", f.fp);
    for (int j = 0; j < nb; ++j) {
        if (j) fputs(", ", f.fp);
        yaml_quoted(f.fp, tr->joints[j]);
    }
    fputs("]\npoints:\n", f.fp);
    for (int r = 0; r < tb->n_rows && st == PLN_OK; ++r) {
        double t = tb->t[r];
        long long sec = (long long)floor(t);
        long long ns = llround((t - (double)sec) * 1e9);
        if (ns >= 1000000000LL) {
            ++sec;
            ns -= 1000000000LL;
        }
        if (sec * 1000000000LL + ns <= prev) {
            st = pln_errorf(PLN_ERR_USAGE, err, err_size,
                            "%s: samples %d and %d fall on the same nanosecond: the rate is "
                            "too high for time_from_start",
                            path, r - 1, r);
            break;
        }
        prev = sec * 1000000000LL + ns;
        st = pln_export_state_at(tr, t, state);
        if (st != PLN_OK) break;
        for (int j = 0; j < n; ++j) state[j] = tb->q[(size_t)r * n + j]; /* the checked samples */
        yaml_vector(f.fp, "  - ", "positions", state, nb);
        yaml_vector(f.fp, "    ", "velocities", state + n, nb);
        yaml_vector(f.fp, "    ", "accelerations", state + 2 * n, nb);
        fputs("    effort: []\n", f.fp);
        fprintf(f.fp, "    time_from_start: {sec: %lld, nanosec: %lld}\n", sec, ns);
    }
    free(state);
    if (st != PLN_OK) {
        pln_atomic_abort(&f);
        return st;
    }
    return pln_atomic_commit(&f, err, err_size);
}

PlnStatus pln_export_write(const PlnExportTrajectory *tr, const PlnRobot *robot,
                           const PlnExportOptions *opt, const char *path, int *n_samples,
                           char *err, size_t err_size)
{
    const char *comment = NULL;
    PlnTable tb, body;
    PlnStatus st;

    if (!tr->certified) {
        if (!opt->force) {
            return pln_errorf(PLN_ERR_NOT_CERTIFIED, err, err_size,
                              "%s: the trajectory is not certified (\"certified\": false); not "
                              "exported (--force exports it, marked NOT CERTIFIED)",
                              tr->path);
        }
        comment = PLN_EXPORT_NOT_CERTIFIED;
    }
    st = pln_export_sample_checked(tr, robot, opt->rate_hz, &tb, err, err_size);
    if (st != PLN_OK) return st;
    /* the controller's files carry the robot's own joints: a free base's virtual joints
     * go to .waist (pln_robot_free_base) */
    st = pln_table_first_joints(&tb, pln_robot_body_joints(robot), &body, err, err_size);
    if (st != PLN_OK) {
        pln_table_destroy(&tb);
        return st;
    }
    switch (opt->format) {
    case PLN_FORMAT_POS:
        /* the companions first: a .pos never exists without them. hrpsys files hold
         * numbers only (a comment line can stop SequencePlayer): a forced export says
         * NOT CERTIFIED on stderr, not in the files */
        st = pln_export_hrpsys_companions(&tb, robot, path, NULL, err, err_size);
        if (st == PLN_OK) st = pln_table_write_pos(&body, path, NULL, err, err_size);
        break;
    case PLN_FORMAT_CSV: st = pln_table_write_csv(&body, path, comment, err, err_size); break;
    case PLN_FORMAT_JSON: {
        PlnTrajectoryDoc doc = {tr->scenario, robot, tr->robot_file, tr->certified, comment,
                                tr->initial, tr->bs, tr->n_active, tr->active, tr->ctrl, &tb,
                                tr->robot_sha256[0] != '\0' ? tr->robot_sha256 : NULL};
        st = pln_output_trajectory_doc(path, &doc, err, err_size);
        break;
    }
    case PLN_FORMAT_ROS: st = write_ros(tr, &tb, body.n_joints, path, comment, err, err_size); break;
    default:
        st = pln_errorf(PLN_ERR_USAGE, err, err_size, "no export format given");
        break;
    }
    if (st == PLN_OK && n_samples != NULL) *n_samples = tb.n_rows;
    pln_table_destroy(&tb);
    pln_table_destroy(&body);
    return st;
}

PlnStatus pln_export_hrpsys_companions(const PlnTable *table, const PlnRobot *robot,
                                       const char *pos_path, const char *comment, char *err,
                                       size_t err_size)
{
    char waist[PLN_PATH_MAX], zmp[PLN_PATH_MAX];
    PlnStatus st = pln_export_sibling_path(waist, sizeof waist, pos_path, ".waist", err, err_size);
    if (st == PLN_OK) st = pln_export_sibling_path(zmp, sizeof zmp, pos_path, ".zmp", err, err_size);
    if (st == PLN_OK && (strcmp(waist, pos_path) == 0 || strcmp(zmp, pos_path) == 0)) {
        st = pln_errorf(PLN_ERR_USAGE, err, err_size,
                        "%s: a .pos export needs another name than its .waist and .zmp", pos_path);
    }
    if (st == PLN_OK) st = write_waist_zmp(table, robot, waist, zmp, comment, err, err_size);
    return st;
}

/* ---- the record of a forced export in the plan's report.json ------------------------ */

PlnStatus pln_export_record_forced(const char *trajectory_path, const char *output,
                                   PlnExportFormat format, int *recorded, char *err,
                                   size_t err_size)
{
    char report[PLN_PATH_MAX], entry[PLN_PATH_MAX + 256], stamp[32];
    const char *slash = strrchr(trajectory_path, '/');
    char *text = NULL, *buf = NULL, *esc;
    size_t size = 0, len, need;
    PlnStatus st;
    struct stat sb;
    time_t now = time(NULL);
    struct tm tm;
    FILE *mem;

    *recorded = 0;
    if (slash == NULL) snprintf(report, sizeof report, "report.json");
    else if ((size_t)snprintf(report, sizeof report, "%.*s/report.json", (int)(slash - trajectory_path),
                              trajectory_path) >= sizeof report) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: path too long", trajectory_path);
    }
    if (stat(report, &sb) != 0) return PLN_OK; /* no report beside it: the caller warns */
    st = pln_file_read_input(report, "report", PLN_MAX_YAML_BYTES, &text, &size, err, err_size);
    if (st != PLN_OK) return st;
    len = size;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\r')) --len;
    if (len < 2 || text[0] != '{' || text[len - 1] != '}') {
        free(text);
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: not a report.json of hrpplan (no JSON object): the forced export "
                          "cannot be recorded", report);
    }
    /* the entry: one line of JSON, the output's path escaped by the JSON writer */
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    esc = NULL;
    need = 0;
    mem = open_memstream(&esc, &need);
    if (mem == NULL) {
        free(text);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    {
        PlnJson w;
        pln_json_init(&w, mem, 0);
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "file", output);
        pln_json_kv_string(&w, "format", pln_format_string(format));
        pln_json_kv_string(&w, "time", stamp);
        pln_json_end_object(&w);
        pln_json_finish(&w);
    }
    fclose(mem);
    snprintf(entry, sizeof entry, "%s", esc != NULL ? esc : "{}");
    free(esc);
    len = strlen(entry);
    while (len > 0 && entry[len - 1] == '\n') entry[--len] = '\0';

    buf = malloc(size + strlen(entry) + 64);
    if (buf == NULL) {
        free(text);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    {
        /* our writer's layout: top-level keys indented by two spaces, one per line */
        const char *key = strstr(text, "\n  \"forced_exports\": [");
        const char *close = key != NULL ? strstr(key, "\n  ]") : NULL;
        if (close != NULL) {
            sprintf(buf, "%.*s,\n    %s%s", (int)(close - text), text, entry, close);
        } else {
            size_t body = size;
            while (body > 0 && text[body - 1] != '}') --body; /* the final brace */
            --body;
            while (body > 0 && (text[body - 1] == '\n' || text[body - 1] == ' ')) --body;
            sprintf(buf, "%.*s,\n  \"forced_exports\": [\n    %s\n  ]\n}\n", (int)body, text, entry);
        }
    }
    free(text);
    st = pln_atomic_write(report, buf, strlen(buf), err, err_size);
    free(buf);
    if (st == PLN_OK) *recorded = 1;
    return st;
}
