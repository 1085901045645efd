/* pln_output.c — trajectory.json, report.json, the tables and distance.svg of a run. */
#define _DEFAULT_SOURCE  /* realpath */
#include "output/pln_output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/pln_atomic.h"
#include "base/pln_file.h"
#include "base/pln_json.h"
#include "base/pln_svg.h"
#include "base/pln_tolerance.h"
#include "problem/pln_dynrows.h"

PlnStatus pln_output_mkdirs(const char *dir, char *err, size_t err_size)
{
    char buf[PLN_PATH_MAX];
    size_t len = strlen(dir);
    if (len == 0 || len >= sizeof buf) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "output directory '%s': bad length", dir);
    }
    memcpy(buf, dir, len + 1);
    for (size_t i = 1; i <= len; ++i) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char keep = buf[i];
            struct stat sb;
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot create directory: %s",
                                  buf, strerror(errno));
            }
            if (stat(buf, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
                return pln_errorf(PLN_ERR_IO, err, err_size, "%s: exists and is not a directory",
                                  buf);
            }
            buf[i] = keep;
        }
    }
    return PLN_OK;
}

PlnStatus pln_output_sample(const PlnProblem *p, const double *ctrl, double rate_hz,
                            PlnTable *table, char *err, size_t err_size)
{
    int n;
    double T = p->scenario->duration;
    PlnStatus st = pln_table_times(T, rate_hz, NULL, PLN_OUTPUT_MAX_SAMPLES, &n, err, err_size);
    if (st != PLN_OK) return st;
    st = pln_table_create(table, p->n_joints, n, err, err_size);
    if (st != PLN_OK) return st;
    pln_table_times(T, rate_hz, table->t, n, &n, err, err_size);
    for (int j = 0; j < p->n_joints; ++j) {
        snprintf(table->names[j], PLN_NAME_MAX, "%s", p->robot->joints[j].name);
    }
    st = pln_table_add_derivatives(table, err, err_size);
    for (int r = 0; r < n && st == PLN_OK; ++r) {
        size_t o = (size_t)r * p->n_joints;
        st = pln_problem_state_at(p, ctrl, table->t[r], table->q + o, table->qd + o,
                                  table->qdd + o);
    }
    if (st != PLN_OK) {
        pln_table_destroy(table);
        return pln_errorf(st, err, err_size, "sampling the trajectory failed");
    }
    return PLN_OK;
}

/* commits a JSON document written through w on f, or aborts it */
static PlnStatus finish_json(PlnJson *w, PlnAtomicFile *f, const char *path, char *err,
                             size_t err_size)
{
    if (!pln_json_finish(w)) {
        pln_atomic_abort(f);
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                          "%s: not written: the document had %d non-finite number(s)%s", path,
                          w->nonfinite, w->misuse ? " and a structure error" : "");
    }
    return pln_atomic_commit(f, err, err_size);
}

PlnStatus pln_output_trajectory_doc(const char *path, const PlnTrajectoryDoc *doc, char *err,
                                    size_t err_size)
{
    PlnAtomicFile f;
    PlnJson w;
    const PlnBspline *bs = doc->bs;
    const PlnRobot *robot = doc->robot;
    const PlnTable *tb = doc->samples;
    PlnStatus st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    pln_json_init(&w, f.fp, 2);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "format", "hrpplan-trajectory");
    pln_json_kv_int(&w, "version", 1);
    if (doc->comment != NULL) pln_json_kv_string(&w, "comment", doc->comment);
    pln_json_kv_string(&w, "scenario", doc->scenario);
    pln_json_kv_string(&w, "robot", robot->name);
    pln_json_kv_string(&w, "robot_file", doc->robot_file);
    {
        /* the robot relative to this file, so that the outputs and the robot can move
         * together (hrpplan export looks there when robot_file is gone) */
        char dir[PLN_PATH_MAX], rel[PLN_PATH_MAX];
        const char *slash = strrchr(path, '/');
        if (slash == NULL) snprintf(dir, sizeof dir, ".");
        else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path > 0 ? slash - path : 1), path);
        if (pln_file_relative_path(dir, doc->robot_file, rel, sizeof rel)) {
            pln_json_kv_string(&w, "robot_file_relative", rel);
        }
    }
    if (doc->robot_sha256 != NULL) pln_json_kv_string(&w, "robot_sha256", doc->robot_sha256);
    pln_json_kv_bool(&w, "certified", doc->certified);
    if (robot->file_root != 0) {
        /* the floating base: the link the robot stands on, held at this pose
         * (pln_robot_reroot); or, free, the waist on six virtual joints
         * (pln_robot_free_base) and its pose when they are zero (the file's base pose,
         * kinematics.md K17) */
        const PlnLink *W = &robot->links[robot->file_root];
        const double *pos = robot->free_base ? robot->links[1].origin_pos : robot->base_pos;
        const double *rot = robot->free_base ? W->origin_rot : robot->base_rot;
        pln_json_key(&w, "base");
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "link", robot->free_base ? W->name : robot->links[0].name);
        if (robot->free_base) pln_json_kv_bool(&w, "free", 1);
        pln_json_key(&w, "position");
        pln_json_begin_array(&w);
        for (int k = 0; k < 3; ++k) pln_json_number(&w, pos[k]);
        pln_json_end_array(&w);
        pln_json_key(&w, "rotation");
        pln_json_begin_array(&w);
        for (int k = 0; k < 9; ++k) pln_json_number(&w, rot[k]);
        pln_json_end_array(&w);
        pln_json_end_object(&w);
    }
    pln_json_kv_number(&w, "duration", bs->duration);
    pln_json_key(&w, "joints");
    pln_json_begin_array(&w);
    for (int j = 0; j < robot->n_joints; ++j) pln_json_string(&w, robot->joints[j].name);
    pln_json_end_array(&w);
    pln_json_key(&w, "initial");
    pln_json_begin_array(&w);
    for (int j = 0; j < robot->n_joints; ++j) pln_json_number(&w, doc->q_init[j]);
    pln_json_end_array(&w);
    pln_json_key(&w, "spline");
    pln_json_begin_object(&w);
    pln_json_kv_int(&w, "degree", bs->degree);
    pln_json_key(&w, "knots");
    pln_json_begin_array(&w);
    for (int i = 0; i < bs->n_knots; ++i) pln_json_number(&w, bs->knots[i]);
    pln_json_end_array(&w);
    pln_json_key(&w, "joints");
    pln_json_begin_array(&w);
    for (int a = 0; a < doc->n_active; ++a) pln_json_string(&w, robot->joints[doc->active[a]].name);
    pln_json_end_array(&w);
    pln_json_key(&w, "control_points");
    pln_json_begin_array(&w);
    for (int a = 0; a < doc->n_active; ++a) {
        pln_json_begin_array(&w);
        for (int i = 0; i < bs->n_ctrl; ++i) pln_json_number(&w, doc->ctrl[a * bs->n_ctrl + i]);
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    pln_json_end_object(&w);
    pln_json_key(&w, "samples");
    pln_json_begin_object(&w);
    pln_json_kv_int(&w, "count", tb->n_rows);
    pln_json_key(&w, "rows");
    pln_json_begin_array(&w);
    for (int r = 0; r < tb->n_rows; ++r) {
        pln_json_begin_array(&w);
        pln_json_number(&w, tb->t[r]);
        for (int j = 0; j < tb->n_joints; ++j) pln_json_number(&w, tb->q[(size_t)r * tb->n_joints + j]);
        pln_json_end_array(&w);
    }
    pln_json_end_array(&w);
    pln_json_end_object(&w);
    pln_json_end_object(&w);
    return finish_json(&w, &f, path, err, err_size);
}

PlnStatus pln_output_trajectory_json(const char *path, const PlnProblem *p, const double *ctrl,
                                     const PlnTable *tb, int certified, char *err,
                                     size_t err_size)
{
    /* the robot file as an absolute path, so that `hrpplan export` finds it from anywhere */
    char robot_file[PLN_PATH_MAX], cwd[PLN_PATH_MAX];
    const char *rp = p->scenario->robot_path;
    if (realpath(rp, robot_file) != NULL) {
        rp = robot_file;
    } else if (rp[0] != '/' && getcwd(cwd, sizeof cwd) != NULL &&
               snprintf(robot_file, sizeof robot_file, "%s/%s", cwd, rp) < (int)sizeof robot_file) {
        rp = robot_file;
    }
    char sha[65];
    PlnStatus st = pln_robot_fingerprint(p->robot, p->scenario->robot_path, sha, err, err_size);
    PlnTrajectoryDoc doc = {p->scenario->name, p->robot, rp, certified,
                            NULL, p->q_init, p->bs, p->n_active, p->active, ctrl, tb, sha};
    if (st != PLN_OK) return st;
    return pln_output_trajectory_doc(path, &doc, err, err_size);
}

/* the report document on fp (report.json, and plan/check --json on stdout); *out
 * receives the writer's final state, for pln_json_finish */
static void write_report(FILE *fp, const PlnProblem *p, const PlnRunInfo *info,
                         const PlnCertificate *cert, PlnJson *out)
{
    PlnJson w;
    const PlnScenario *sc = p->scenario;
    pln_json_init(&w, fp, 2);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "status", info->status);
    pln_json_kv_string(&w, "reason", info->reason ? info->reason : "");
    pln_json_kv_string(&w, "cause", cert != NULL ? pln_cert_cause_string(cert->cause) : "error");
    pln_json_kv_string(&w, "scenario", sc->name);
    pln_json_kv_string(&w, "scenario_file", sc->path);
    pln_json_kv_string(&w, "robot", p->robot->name);
    pln_json_kv_int(&w, "dof", p->n_active);
    pln_json_kv_int(&w, "variables", p->n_vars);
    pln_json_kv_int(&w, "constraints", p->m);
    pln_json_kv_string(&w, "method", info->method);
    pln_json_kv_bool(&w, "collision_constraints", info->collision_constraints);
    pln_json_kv_number(&w, "position_margin_rad", sc->limit_margin);
    pln_json_kv_number(&w, "velocity_scale", sc->velocity_scale > 0.0 ? sc->velocity_scale : 1.0);
    /* the algorithm that ran (auto resolved), and the one the scenario asked for */
    pln_json_kv_string(&w, "algorithm", pln_algorithm_string(info->sip ? info->sip->algorithm : sc->algorithm));
    pln_json_kv_string(&w, "algorithm_requested", pln_algorithm_string(sc->algorithm));
    pln_json_kv_bool(&w, "preconditioned", info->sip ? info->sip->preconditioned : 0);
    pln_json_kv_int(&w, "iterations", info->sip ? info->sip->evaluations : 0);
    pln_json_kv_int(&w, "row_evaluations", info->sip ? info->sip->row_evaluations : 0);
    pln_json_kv_string(&w, "optimizer_stop", info->sip ? info->sip->message : "");
    pln_json_kv_bool(&w, "tasks_relaxed", info->sip ? info->sip->tasks_relaxed : 0);
    pln_json_kv_int(&w, "restart", info->sip ? info->sip->restarts : 0);
    pln_json_kv_number(&w, "wall_time_s", info->wall_time_s);
    pln_json_kv_string(&w, "cost_type", sc->cost == PLN_COST_TORQUE2 ? "torque2"
                                        : sc->cost == PLN_COST_JERK  ? "jerk"
                                        : sc->cost == PLN_COST_TIME  ? "time"
                                                                     : "acceleration");
    pln_json_kv_number(&w, "duration_s", sc->duration);
    pln_json_key(&w, "time_search");
    if (info->time_search != NULL && info->time_search->done) {
        const PlnTimeSearch *ts = info->time_search;
        pln_json_begin_object(&w);
        pln_json_kv_number(&w, "duration0_s", ts->duration0);
        pln_json_kv_number(&w, "duration_s", ts->duration);
        pln_json_kv_number(&w, "not_certified_at_s", ts->failed);
        pln_json_kv_int(&w, "plans", ts->plans);
        pln_json_kv_int(&w, "evaluations", ts->evaluations);
        pln_json_kv_number(&w, "wall_time_s", ts->wall_time_s);
        pln_json_end_object(&w);
    } else {
        pln_json_null(&w);
    }
    if (info->sip) pln_json_kv_number(&w, "cost", info->sip->cost);
    else {
        pln_json_key(&w, "cost");
        pln_json_null(&w);
    }
    pln_json_kv_number(&w, "eps_m", p->eps);
    if (info->guess != NULL) {
        /* the IK initial guess: task times it could not meet, and the worst miss */
        pln_json_key(&w, "initial_guess");
        pln_json_begin_object(&w);
        pln_json_kv_int(&w, "task_times", info->guess->groups);
        pln_json_kv_int(&w, "unmet_task_times", info->guess->unmet);
        pln_json_key(&w, "worst_task");
        if (info->guess->worst_task >= 0) pln_json_int(&w, info->guess->worst_task);
        else pln_json_null(&w);
        pln_json_kv_number(&w, "worst_miss", info->guess->worst_task >= 0 ? info->guess->worst_miss : 0.0);
        pln_json_end_object(&w);
    }
    if (cert != NULL) {
        pln_json_key(&w, "min_clearance_m");
        if (isfinite(cert->min_clearance)) pln_json_number(&w, cert->min_clearance);
        else pln_json_null(&w); /* no pairs */
        /* eps is the optimiser's margin; certification is about contact (lower >= 0) */
        pln_json_kv_bool(&w, "eps_certified", cert->n_pairs > 0 && cert->min_clearance >= p->eps);
        pln_json_kv_number(&w, "max_joint_limit_violation", cert->max_joint_limit_violation);
        pln_json_kv_number(&w, "max_velocity_violation", cert->max_velocity_violation);
        pln_json_kv_number(&w, "max_task_violation", cert->max_task_violation);
        pln_json_kv_number(&w, "max_balance_violation", cert->max_balance_violation);
        /* whole-body dynamics: the certified least margin of each constraint and when */
        pln_json_key(&w, "dynamics");
        if (cert->dynamics_checked) {
            pln_json_begin_object(&w);
            pln_json_kv_number(&w, "zmp_margin_m", p->scenario->zmp_margin);
            pln_json_kv_number(&w, "mu", p->scenario->mu);
            pln_json_kv_number(&w, "zmp_min_inside_m", isfinite(cert->zmp_margin_min) ? cert->zmp_margin_min : -1.0);
            pln_json_kv_number(&w, "zmp_t", cert->zmp_t);
            pln_json_kv_number(&w, "friction_max_ratio", isfinite(cert->friction_ratio_max) ? cert->friction_ratio_max : 1e300);
            pln_json_kv_number(&w, "friction_t", cert->friction_t);
            pln_json_kv_number(&w, "floor_force_min_rel", cert->fz_min_rel);
            pln_json_kv_number(&w, "floor_force_t", cert->fz_t);
            if (cert->torque_joint >= 0) {
                pln_json_kv_number(&w, "torque_max_ratio", isfinite(cert->torque_ratio_max) ? cert->torque_ratio_max : 1e300);
                pln_json_kv_string(&w, "torque_joint", p->robot->joints[cert->torque_joint].name);
                pln_json_kv_number(&w, "torque_t", cert->torque_t);
            } else {
                pln_json_key(&w, "torque_max_ratio");
                pln_json_null(&w);
            }
            /* integral of sum (tau_j / tau_max_j)^2 (eq. P14, quadrature; cost torque2) */
            pln_json_key(&w, "torque2_integral_s");
            if (isfinite(cert->torque2)) pln_json_number(&w, cert->torque2);
            else pln_json_null(&w);
            /* the floating base (pln_robot_reroot): the foot it stands on, and how far the
             * other stance feet may slide and turn (certified) */
            pln_json_key(&w, "floating_base");
            if (p->robot->file_root != 0) {
                pln_json_begin_object(&w);
                /* a re-rooted model stands on its root foot; a free base on none */
                if (p->robot->free_base) pln_json_kv_string(&w, "stands_on", "free");
                else pln_json_kv_string(&w, "stands_on", p->robot->links[0].name);
                if (cert->stance_checked) {
                    pln_json_kv_string(&w, "stance_foot", p->robot->links[cert->stance_link].name);
                    pln_json_kv_number(&w, "stance_slide_max_m", isfinite(cert->stance_pos_max) ? cert->stance_pos_max : 1e300);
                    pln_json_kv_number(&w, "stance_turn_max_rad", isfinite(cert->stance_rot_max) ? cert->stance_rot_max : 1e300);
                    pln_json_kv_number(&w, "stance_t", cert->stance_t);
                    pln_json_kv_number(&w, "stance_slide_tol_m", PLN_STANCE_POS_TOL_M);
                    pln_json_kv_number(&w, "stance_turn_tol_rad", PLN_STANCE_ROT_TOL_RAD);
                }
                if (cert->floor_checked) {
                    /* lifted soles above the floor (eq. P13c) */
                    pln_json_kv_string(&w, "lifted_foot", cert->floor_link >= 0 ? p->robot->links[cert->floor_link].name : "");
                    pln_json_kv_number(&w, "lifted_floor_min_m", isfinite(cert->floor_min) ? cert->floor_min : -1e300);
                    pln_json_kv_number(&w, "lifted_floor_t", cert->floor_t);
                    pln_json_kv_number(&w, "lifted_floor_tol_m", PLN_STANCE_POS_TOL_M);
                }
                pln_json_end_object(&w);
            } else {
                pln_json_null(&w);
            }
            pln_json_key(&w, "support_phases");
            pln_json_begin_array(&w);
            for (int ph = 0; ph < p->n_phases; ++ph) {
                const PlnPhaseGeom *g = &p->phases[ph];
                pln_json_begin_object(&w);
                pln_json_kv_number(&w, "from", g->t0);
                pln_json_kv_number(&w, "to", g->t1);
                pln_json_key(&w, "feet");
                pln_json_begin_array(&w);
                for (int k = 0; k < g->support.n_feet; ++k) {
                    pln_json_string(&w, p->robot->links[g->support.link[k]].name);
                }
                pln_json_end_array(&w);
                pln_json_key(&w, "polygon");
                pln_json_begin_array(&w);
                for (int e = 0; e < g->n_edges; ++e) {
                    pln_json_begin_array(&w);
                    pln_json_number(&w, g->polygon[e][0]);
                    pln_json_number(&w, g->polygon[e][1]);
                    pln_json_end_array(&w);
                }
                pln_json_end_array(&w);
                pln_json_end_object(&w);
            }
            pln_json_end_array(&w);
            pln_json_end_object(&w);
        } else {
            pln_json_null(&w);
        }
        if (p->n_edges > 0) {
            pln_json_key(&w, "support_polygon");
            pln_json_begin_array(&w);
            for (int e = 0; e < p->n_edges; ++e) {
                pln_json_begin_array(&w);
                pln_json_number(&w, p->polygon[e][0]);
                pln_json_number(&w, p->polygon[e][1]);
                pln_json_end_array(&w);
            }
            pln_json_end_array(&w);
        }
        /* which pairs were measured (the preset) and which were left out, and why */
        pln_json_kv_string(&w, "pair_preset", sc->pair_preset == PLN_PAIRS_ALL     ? "all"
                                              : sc->pair_preset == PLN_PAIRS_ROBOT ? "robot"
                                                                                   : "list");
        pln_json_key(&w, "excluded_pairs");
        pln_json_begin_array(&w);
        for (int e = 0; e < sc->n_excluded; ++e) {
            const PlnExcludedPair *x = &sc->excluded[e];
            pln_json_begin_object(&w);
            pln_json_kv_string(&w, "a", x->pair.a.name);
            pln_json_kv_string(&w, "b", x->pair.b.name);
            pln_json_kv_string(&w, "reason", pln_pair_exclusion_string(x->reason));
            pln_json_key(&w, "distance_at_start_m");
            if (isfinite(x->distance)) pln_json_number(&w, x->distance);
            else pln_json_null(&w);
            pln_json_end_object(&w);
        }
        pln_json_end_array(&w);
        pln_json_key(&w, "pairs");
        pln_json_begin_array(&w);
        for (int pr = 0; pr < cert->n_pairs; ++pr) {
            pln_json_begin_object(&w);
            pln_json_kv_string(&w, "a", sc->pairs[pr].a.name);
            pln_json_kv_string(&w, "b", sc->pairs[pr].b.name);
            pln_json_kv_number(&w, "mcd_lower", cert->pairs[pr].lower);
            pln_json_kv_number(&w, "mcd_upper", cert->pairs[pr].upper);
            pln_json_kv_number(&w, "t_min", cert->pairs[pr].t_min);
            if (cert->pairs[pr].contact != 0) {
                /* mesh pairs that may touch: [first, last] possible time of first contact */
                pln_json_key(&w, "first_contact");
                pln_json_begin_array(&w);
                pln_json_number(&w, cert->pairs[pr].contact_lo);
                pln_json_number(&w, cert->pairs[pr].contact_hi);
                pln_json_end_array(&w);
                pln_json_kv_bool(&w, "first_contact_bracketed", cert->pairs[pr].contact == 1);
            }
            pln_json_end_object(&w);
        }
        pln_json_end_array(&w);
        pln_json_key(&w, "tasks");
        pln_json_begin_array(&w);
        for (int t = 0; t < cert->n_tasks; ++t) {
            pln_json_begin_object(&w);
            pln_json_kv_int(&w, "index", t);
            pln_json_kv_number(&w, "time", sc->tasks[t].time);
            pln_json_kv_number(&w, "error", cert->task_error[t]);
            pln_json_kv_number(&w, "tolerance", sc->tasks[t].tolerance);
            pln_json_kv_number(&w, "beyond_tolerance", cert->task_over[t]);
            pln_json_kv_bool(&w, "met", cert->task_over[t] <= PLN_CERT_SLACK);
            pln_json_kv_int(&w, "line", sc->tasks[t].line);
            pln_json_end_object(&w);
        }
        pln_json_end_array(&w);
        pln_json_kv_int(&w, "certification_mcd_calls", cert->mcd_calls);
        pln_json_kv_number(&w, "certification_mcd_time_s", cert->mcd_time_s);
    }
    pln_json_kv_int(&w, "mcd_calls", info->sip ? info->sip->mcd_calls : 0);
    pln_json_kv_number(&w, "mcd_time_s", info->sip ? info->sip->mcd_time_s : 0.0);
    pln_json_end_object(&w);
    *out = w;
}

PlnStatus pln_output_report_json(const char *path, const PlnProblem *p, const PlnRunInfo *info,
                                 const PlnCertificate *cert, char *err, size_t err_size)
{
    PlnAtomicFile f;
    PlnJson w;
    PlnStatus st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    write_report(f.fp, p, info, cert, &w);
    return finish_json(&w, &f, path, err, err_size);
}

void pln_output_failure_print(FILE *out, int exit_code, const char *reason)
{
    PlnJson w;
    pln_json_init(&w, out, 0);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "status", "failed");
    pln_json_kv_int(&w, "exit_code", exit_code);
    pln_json_kv_string(&w, "reason", reason != NULL ? reason : "");
    pln_json_end_object(&w);
    (void)pln_json_finish(&w);
    fflush(out);
}

PlnStatus pln_output_report_print(FILE *out, const PlnProblem *p, const PlnRunInfo *info,
                                  const PlnCertificate *cert, char *err, size_t err_size)
{
    /* composed in a buffer first: a document with a non-finite number is not printed */
    char *buf = NULL;
    size_t len = 0;
    PlnJson w;
    int ok;
    FILE *mem = open_memstream(&buf, &len);
    if (mem == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "report: out of memory");
    write_report(mem, p, info, cert, &w);
    ok = pln_json_finish(&w);
    if (fclose(mem) != 0) ok = 0;
    if (!ok || buf == NULL) {
        free(buf);
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                          "report: not printed: the document had %d non-finite number(s)%s",
                          w.nonfinite, w.misuse ? " and a structure error" : "");
    }
    ok = fwrite(buf, 1, len, out) == len && fflush(out) == 0;
    free(buf);
    return ok ? PLN_OK : pln_errorf(PLN_ERR_IO, err, err_size, "report: standard output: write failed");
}

PlnStatus pln_output_distance_svg(const char *path, const PlnProblem *p, const double *ctrl,
                                  const PlnCertificate *cert, int samples, char *err,
                                  size_t err_size)
{
    const int ni = cert->n_intervals;
    int np = cert->n_pairs < PLN_OUTPUT_PLOT_PAIRS ? cert->n_pairs : PLN_OUTPUT_PLOT_PAIRS;
    int *pick = NULL; /* the np closest pairs by certified lower bound, closest first */
    char title[160];
    PlnKinWork *kin = NULL;
    double *t = NULL, *d = NULL, *edges = NULL, *q = NULL;
    PlnSeries *series = NULL;
    PlnPanel *panels = NULL;
    PlnHLine eps = {"eps", p->eps, 1, 1};
    char (*titles)[2 * PLN_NAME_MAX + 4] = NULL;
    PlnGeomCache *cache = NULL; /* per plotted pair: each sample warm-starts the next */
    int worst = 0;
    PlnStatus st;

    if (np < 1) return PLN_OK; /* nothing to draw */
    if (samples < 2) samples = 2;
    st = pln_kin_create(p->robot, &kin, err, err_size);
    if (st != PLN_OK) return st;
    t = calloc((size_t)samples, sizeof *t);
    d = calloc((size_t)samples * np, sizeof *d);
    edges = calloc((size_t)ni + 1, sizeof *edges);
    q = calloc((size_t)p->n_joints, sizeof *q);
    series = calloc((size_t)2 * np, sizeof *series);
    panels = calloc((size_t)np, sizeof *panels);
    titles = calloc((size_t)np, sizeof *titles);
    pick = calloc((size_t)cert->n_pairs, sizeof *pick);
    cache = calloc((size_t)np, sizeof *cache);
    for (int k = 0; cache != NULL && k < np; ++k) pln_geom_cache_reset(&cache[k]);
    if (!t || !d || !edges || !q || !series || !panels || !titles || !pick || !cache) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for %s", path);
        goto done;
    }
    /* selection by insertion: the closest np of n_pairs (n_pairs in the hundreds) */
    for (int i = 0; i < cert->n_pairs; ++i) {
        int k = i;
        while (k > 0 && cert->pairs[pick[k - 1]].lower > cert->pairs[i].lower) {
            pick[k] = pick[k - 1];
            --k;
        }
        pick[k] = i;
    }
    for (int s = 0; s < samples && st == PLN_OK; ++s) {
        t[s] = p->scenario->duration * (double)s / (samples - 1);
        st = pln_problem_joints_at(p, ctrl, t[s], q);
        if (st == PLN_OK) st = pln_kin_forward(kin, p->robot, q);
        for (int pr = 0; pr < np && st == PLN_OK; ++pr) {
            PlnPairDistance pd;
            pln_geom_pair_distance(p->geom, kin, pick[pr], &cache[pr], &pd);
            d[(size_t)pr * samples + s] = pd.distance;
        }
    }
    if (st != PLN_OK) goto done;
    for (int i = 0; i < ni; ++i) edges[i] = cert->t0[i];
    edges[ni] = cert->t1[ni - 1];
    worst = 0; /* pick[0], the closest */
    for (int pr = 0; pr < np; ++pr) {
        snprintf(titles[pr], sizeof titles[pr], "%s - %s", p->scenario->pairs[pick[pr]].a.name,
                 p->scenario->pairs[pick[pr]].b.name);
        series[2 * pr] = (PlnSeries){"sampled distance", PLN_SERIES_LINE, samples, t,
                                     d + (size_t)pr * samples, 0, 0};
        series[2 * pr + 1] = (PlnSeries){"certified MCD lower bound per interval", PLN_SERIES_STEP,
                                         ni, edges, cert->lower + (size_t)pick[pr] * ni, 2, 0};
        panels[pr] = (PlnPanel){titles[pr], pr == worst, series + 2 * pr, 2, &eps, 1};
    }
    {
        PlnFigure fig = {title, "time [s]", "distance [m]", 3, 300, 170, 0, panels, np};
        if (np < cert->n_pairs) {
            snprintf(title, sizeof title,
                     "Signed distance of the %d closest collision pairs (of %d; all in "
                     "report.json)",
                     np, cert->n_pairs);
        } else {
            snprintf(title, sizeof title, "Signed distance of every collision pair");
        }
        st = pln_svg_write(path, &fig, err, err_size);
    }
done:
    free(t);
    free(d);
    free(edges);
    free(q);
    free(series);
    free(panels);
    free(titles);
    free(pick);
    free(cache);
    pln_kin_destroy(kin);
    return st;
}

PlnStatus pln_output_joints_svg(const char *path, const PlnProblem *p, const double *ctrl,
                                int samples, char *err, size_t err_size)
{
    const int na = p->n_active, nc = p->n_ctrl;
    double *t = NULL, *q = NULL, *margin = NULL, (*limits)[2] = NULL;
    PlnSeries *series = NULL;
    PlnPanel *panels = NULL;
    PlnHLine *hl = NULL;
    char (*titles)[PLN_NAME_MAX + 40] = NULL;
    int worst = 0;
    PlnStatus st = PLN_OK;

    if (na < 1) return PLN_OK; /* nothing moves */
    if (samples < 2) samples = 2;
    t = calloc((size_t)samples, sizeof *t);
    q = calloc((size_t)samples * na, sizeof *q);
    margin = calloc((size_t)na, sizeof *margin);
    limits = calloc((size_t)na, sizeof *limits);
    series = calloc((size_t)na, sizeof *series);
    panels = calloc((size_t)na, sizeof *panels);
    hl = calloc((size_t)2 * na, sizeof *hl);
    titles = calloc((size_t)na, sizeof *titles);
    if (!t || !q || !margin || !limits || !series || !panels || !hl || !titles) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for %s", path);
        goto done;
    }
    /* each moving joint's spline, sampled uniformly (the ends included) */
    for (int a = 0; a < na; ++a) {
        const PlnJoint *jt = &p->robot->joints[p->active[a]];
        margin[a] = INFINITY;
        for (int s = 0; s < samples && st == PLN_OK; ++s) {
            double *v = q + (size_t)a * samples + s;
            t[s] = p->scenario->duration * (double)s / (samples - 1);
            st = pln_bspline_eval(p->bs, ctrl + (size_t)a * nc, t[s], 0, v);
            margin[a] = fmin(margin[a], fmin(*v - jt->lower, jt->upper - *v));
        }
        if (st != PLN_OK) {
            st = pln_errorf(st, err, err_size, "%s: sampling joint %s failed", path, jt->name);
            goto done;
        }
        if (margin[a] < margin[worst]) worst = a;
        limits[a][0] = jt->lower;
        limits[a][1] = jt->upper;
    }
    for (int a = 0; a < na; ++a) {
        const char *name = p->robot->joints[p->active[a]].name;
        snprintf(titles[a], sizeof titles[a], "%s (margin %.3g rad)", name, margin[a]);
        series[a] = (PlnSeries){"joint position", PLN_SERIES_LINE, samples, t,
                                q + (size_t)a * samples, 0, 0};
        hl[2 * a] = (PlnHLine){"position limits", limits[a][0], 3, 1};
        hl[2 * a + 1] = (PlnHLine){"position limits", limits[a][1], 3, 1};
        panels[a] = (PlnPanel){titles[a], a == worst, series + a, 1, hl + 2 * a, 2};
    }
    {
        PlnFigure fig = {"Joint trajectories and position limits", "time [s]", "angle [rad]", 3,
                         300, 170, 0, panels, na};
        st = pln_svg_write(path, &fig, err, err_size);
    }
done:
    free(t);
    free(q);
    free(margin);
    free(limits);
    free(series);
    free(panels);
    free(hl);
    free(titles);
    return st;
}

/* a violation: "0" when none, "<= 1e-05 (within the slack)" when inside PLN_CERT_SLACK */
static void print_violation(FILE *out, double v, const char *unit)
{
    const char *sp = unit[0] ? " " : "";
    if (!(v > 0.0)) fprintf(out, "0%s%s", sp, unit);
    else if (v <= PLN_CERT_SLACK) fprintf(out, "< %.0e%s%s (within the slack)", PLN_CERT_SLACK, sp, unit);
    else fprintf(out, "%.3g%s%s", v, sp, unit);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pln_output_print_certificate(const PlnProblem *p, const PlnCertificate *c, FILE *out)
{
    /* the closest PLN_OUTPUT_PRINT_PAIRS pairs (by certified lower bound; ties all shown),
     * then how many more: report.json has them all */
    int shown = 0;
    double limit = INFINITY;
    if (c->n_pairs > PLN_OUTPUT_PRINT_PAIRS) {
        double *lower = malloc((size_t)c->n_pairs * sizeof *lower);
        if (lower != NULL) {
            for (int pr = 0; pr < c->n_pairs; ++pr) lower[pr] = c->pairs[pr].lower;
            qsort(lower, (size_t)c->n_pairs, sizeof *lower, cmp_double);
            limit = lower[PLN_OUTPUT_PRINT_PAIRS - 1];
            free(lower);
        }
    }
    fprintf(out, "%-34s %12s %12s %9s\n", "pair", "mcd_lower_m", "mcd_upper_m", "t_min_s");
    for (int pr = 0; pr < c->n_pairs; ++pr) {
        char name[2 * PLN_NAME_MAX + 4];
        if (c->pairs[pr].lower > limit) continue;
        ++shown;
        snprintf(name, sizeof name, "%s - %s", p->scenario->pairs[pr].a.name,
                 p->scenario->pairs[pr].b.name);
        fprintf(out, "%-34s %12.6f %12.6f %9.4f%s", name, c->pairs[pr].lower, c->pairs[pr].upper,
                c->pairs[pr].t_min, c->pairs[pr].lower < 0.0 ? "  << contact possible" : "");
        if (c->pairs[pr].contact == 1) {
            fprintf(out, ", first at t in [%.3f, %.3f] s", c->pairs[pr].contact_lo, c->pairs[pr].contact_hi);
        } else if (c->pairs[pr].contact == 2) {
            fprintf(out, ", none before t = %.3f s", c->pairs[pr].contact_lo);
        }
        fputc('\n', out);
    }
    if (shown < c->n_pairs) {
        fprintf(out, "(%d more pairs, each certified above %.6f m: all in report.json)\n",
                c->n_pairs - shown, limit);
    }
    if (p->scenario->n_excluded > 0) {
        /* say what the certificate does not cover */
        int count[PLN_EXCLUDE_REMOVED + 1] = {0};
        const char *sep = "";
        for (int e = 0; e < p->scenario->n_excluded; ++e) ++count[p->scenario->excluded[e].reason];
        fprintf(out, "pairs: %d measured, %d left out (", c->n_pairs, p->scenario->n_excluded);
        for (int r = 0; r <= PLN_EXCLUDE_REMOVED; ++r) {
            if (count[r] == 0) continue;
            fprintf(out, "%s%d %s", sep, count[r], pln_pair_exclusion_string((PlnPairExclusion)r));
            sep = ", ";
        }
        fprintf(out, "; listed in report.json)\n");
    }
    /* the certificate is about contact (lower >= 0); the scenario's eps is a margin the
     * optimiser aims at: name both numbers, and whether the margin is certified too */
    if (c->n_pairs == 0) {
        fprintf(out, "min certified clearance: none (no pair is measured: nothing was checked "
                     "for collision)");
    } else {
        fprintf(out, "min certified clearance: %.6f m", c->min_clearance);
    }
    if (c->n_pairs > 0 && p->eps > 0.0) {
        if (c->min_clearance >= p->eps) {
            fprintf(out, " (the requested margin eps = %g m is certified too)", p->eps);
        } else if (c->min_clearance >= 0.0) {
            fprintf(out, " (collision-free; the requested margin eps = %g m is not certified: "
                         "%.1f um short)",
                    p->eps, 1e6 * (p->eps - c->min_clearance));
        }
    }
    fputc('\n', out);
    /* a violation within the certificate's slack is not one: say so instead of printing
     * a small number beside "certified" */
    fprintf(out, "joint limit violation: ");
    print_violation(out, c->max_joint_limit_violation, "rad");
    fprintf(out, ", velocity violation: ");
    print_violation(out, c->max_velocity_violation, "rad/s");
    fprintf(out, ", task violation: ");
    print_violation(out, c->max_task_violation, "");
    fprintf(out, ", balance violation: ");
    print_violation(out, c->max_balance_violation, "m");
    fputc('\n', out);
    if (c->dynamics_checked) {
        fprintf(out, "dynamics (certified over every interval): ZMP at least %.4f m inside the "
                     "support polygon (near %.2f s; zmp_margin %.3f m), friction at most %.3g of "
                     "mu, floor force at least %.3g of the weight",
                c->zmp_margin_min, c->zmp_t, p->scenario->zmp_margin, c->friction_ratio_max,
                c->fz_min_rel);
        if (c->torque_joint >= 0) {
            fprintf(out, ", torque at most %.0f%% of the limit (%s near %.2f s)",
                    100.0 * c->torque_ratio_max, p->robot->joints[c->torque_joint].name, c->torque_t);
        }
        if (isfinite(c->torque2)) fprintf(out, "; torque integral %.4g s", c->torque2);
        fputc('\n', out);
    } else if (p->scenario->dynamics) {
        fprintf(out, "dynamics: not checked (a sampled table has no accelerations to check)\n");
    } else {
        fprintf(out, "dynamics: off (static balance only)\n");
    }
    if (p->robot->free_base) {
        fprintf(out, "floating base: free (the waist on six virtual joints, every stance foot "
                     "held where it stands)");
    } else if (p->robot->file_root != 0) {
        fprintf(out, "floating base: the robot stands on %s, the waist moves with the legs",
                p->robot->links[0].name);
    }
    if (p->robot->file_root != 0) {
        if (c->stance_checked) {
            fprintf(out, "; the stance foot %s slides at most %.3f mm and turns at most %.3f "
                         "mrad (certified; limits %g mm, %g mrad)",
                    p->robot->links[c->stance_link].name, 1e3 * c->stance_pos_max,
                    1e3 * c->stance_rot_max, 1e3 * PLN_STANCE_POS_TOL_M,
                    1e3 * PLN_STANCE_ROT_TOL_RAD);
        }
        if (c->floor_checked) {
            fprintf(out, "; the lifted foot %s: its lowest sole corner at %+.3f mm from the floor "
                         "(a certified bound; limit -%g mm)",
                    c->floor_link >= 0 ? p->robot->links[c->floor_link].name : "?", 1e3 * c->floor_min,
                    1e3 * PLN_STANCE_POS_TOL_M);
        }
        fputc('\n', out);
    }
}

/* one sample of the motion's dynamics for the figures */
typedef struct DynSamples {
    int n;
    double *t;          /* [n] */
    int *phase;         /* [n] */
    double (*zmp)[2];   /* [n] */
    double *ratio;      /* [n_joints * n] tau_j / effort_max_j, joint-major */
} DynSamples;

static void dyn_samples_free(DynSamples *d)
{
    free(d->t);
    free(d->phase);
    free(d->zmp);
    free(d->ratio);
}

static PlnStatus dyn_samples(const PlnProblem *p, const double *ctrl, int samples, DynSamples *d,
                             char *err, size_t err_size)
{
    PlnProblemWork *w = NULL;
    double *tau = NULL;
    int nj = p->n_joints;
    PlnStatus st;
    memset(d, 0, sizeof *d);
    d->n = samples;
    d->t = calloc((size_t)samples, sizeof *d->t);
    d->phase = calloc((size_t)samples, sizeof *d->phase);
    d->zmp = calloc((size_t)samples, sizeof *d->zmp);
    d->ratio = calloc((size_t)samples * (nj > 0 ? nj : 1), sizeof *d->ratio);
    tau = calloc((size_t)(nj > 0 ? nj : 1), sizeof *tau);
    if (!d->t || !d->phase || !d->zmp || !d->ratio || !tau) {
        free(tau);
        dyn_samples_free(d);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    st = pln_problem_work_create(p, &w, err, err_size);
    if (st == PLN_OK) memcpy(w->ctrl, ctrl, (size_t)p->n_active * p->n_ctrl * sizeof *ctrl);
    for (int s = 0; s < samples && st == PLN_OK; ++s) {
        d->t[s] = p->scenario->duration * (double)s / (samples - 1);
        st = pln_dynrows_sample(p, w, d->t[s], &d->phase[s], d->zmp[s], tau, err, err_size);
        for (int j = 0; j < nj && st == PLN_OK; ++j) {
            double tm = p->robot->joints[j].effort_max;
            d->ratio[(size_t)j * samples + s] = tm > 0.0 ? tau[j] / tm : NAN;
        }
    }
    free(tau);
    pln_problem_work_destroy(w);
    if (st != PLN_OK) dyn_samples_free(d);
    return st;
}

PlnStatus pln_output_dynamics_svg(const char *zmp_path, const char *torque_path,
                                  const PlnProblem *p, const double *ctrl, int samples,
                                  char *err, size_t err_size)
{
    DynSamples d;
    const int nj = p->n_joints, nph = p->n_phases;
    int np = 0, *pick = NULL;
    double *px = NULL, *py = NULL, *gx = NULL, *gy = NULL, *peak = NULL;
    PlnSeries *series = NULL;
    PlnPanel *panels = NULL;
    char (*titles)[PLN_NAME_MAX + 64] = NULL;
    PlnHLine lim[2] = {{"effort limit", 1.0, 3, 1}, {"effort limit", -1.0, 3, 1}};
    PlnStatus st;

    if (!p->dynamics || nph < 1) return PLN_OK; /* no dynamics: no figures */
    if (samples < 2) samples = 2;
    st = dyn_samples(p, ctrl, samples, &d, err, err_size);
    if (st != PLN_OK) return st;
    px = calloc((size_t)samples, sizeof *px);
    py = calloc((size_t)samples, sizeof *py);
    gx = calloc((size_t)2 * nph * (PLN_MAX_PHASE_EDGES + 1), sizeof *gx);
    gy = calloc((size_t)2 * nph * (PLN_MAX_PHASE_EDGES + 1), sizeof *gy);
    peak = calloc((size_t)(nj > 0 ? nj : 1), sizeof *peak);
    pick = calloc((size_t)(nj > 0 ? nj : 1), sizeof *pick);
    series = calloc((size_t)(3 * nph + nj + 1), sizeof *series);
    panels = calloc((size_t)(nph + nj + 1), sizeof *panels);
    titles = calloc((size_t)(nph + nj + 1), sizeof *titles);
    if (!px || !py || !gx || !gy || !peak || !pick || !series || !panels || !titles) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for %s", zmp_path);
        goto done;
    }
    /* zmp.svg: per support phase, its polygon (closed) and the ZMP while it holds; a
     * sample outside the phase is NaN, which breaks the line */
    {
        int k = 0;
        for (int ph = 0; ph < nph; ++ph) {
            const PlnPhaseGeom *g = &p->phases[ph];
            double *x = px, *y = py;
            double *qx = gx + (size_t)ph * (PLN_MAX_PHASE_EDGES + 1), *qy = gy + (size_t)ph * (PLN_MAX_PHASE_EDGES + 1);
            if (nph > 1) { /* one path per phase: its own copy of the samples */
                x = calloc((size_t)samples, sizeof *x);
                y = calloc((size_t)samples, sizeof *y);
                if (!x || !y) {
                    free(x);
                    free(y);
                    st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for %s", zmp_path);
                    goto done;
                }
            }
            for (int s = 0; s < samples; ++s) {
                int in = d.phase[s] == ph;
                x[s] = in ? d.zmp[s][0] : NAN;
                y[s] = in ? d.zmp[s][1] : NAN;
            }
            for (int e = 0; e <= g->n_edges; ++e) {
                qx[e] = g->polygon[e % g->n_edges][0];
                qy[e] = g->polygon[e % g->n_edges][1];
            }
            /* the polygon shrunk by zmp_margin: vertex e where the shifted edges e - 1 and
             * e meet (n . x = b for each) */
            for (int e = 0; e <= g->n_edges; ++e) {
                int a = (e + g->n_edges - 1) % g->n_edges, b = e % g->n_edges;
                double det = g->edge_n[a][0] * g->edge_n[b][1] - g->edge_n[a][1] * g->edge_n[b][0];
                double *sx = qx + (PLN_MAX_PHASE_EDGES + 1) * (size_t)nph, *sy = qy + (PLN_MAX_PHASE_EDGES + 1) * (size_t)nph;
                sx[e] = (g->edge_b[a] * g->edge_n[b][1] - g->edge_b[b] * g->edge_n[a][1]) / det;
                sy[e] = (g->edge_n[a][0] * g->edge_b[b] - g->edge_n[b][0] * g->edge_b[a]) / det;
            }
            snprintf(titles[ph], sizeof titles[ph], "support[%d]: %.2f - %.2f s (%d %s)", ph, g->t0,
                     g->t1, g->support.n_feet, g->support.n_feet == 1 ? "foot" : "feet");
            series[k] = (PlnSeries){"support polygon", PLN_SERIES_LINE, g->n_edges + 1, qx, qy, 3, 0};
            series[k + 1] = (PlnSeries){"ZMP", PLN_SERIES_LINE, samples, x, y, 0, 0};
            series[k + 2] = (PlnSeries){"shrunk by zmp_margin", PLN_SERIES_LINE, g->n_edges + 1,
                                        qx + (PLN_MAX_PHASE_EDGES + 1) * (size_t)nph,
                                        qy + (PLN_MAX_PHASE_EDGES + 1) * (size_t)nph, 3, 1};
            panels[ph] = (PlnPanel){titles[ph], 0, series + k, 3, NULL, 0};
            k += 3;
        }
        {
            PlnFigure fig = {"ZMP in the support polygon",
                             "x [m]", "y [m]", nph < 3 ? nph : 3, 300, 300, 1, panels, nph};
            st = pln_svg_write(zmp_path, &fig, err, err_size);
        }
        if (nph > 1) {
            for (int ph = 0; ph < nph; ++ph) {
                free((double *)series[3 * ph + 1].x);
                free((double *)series[3 * ph + 1].y);
            }
        }
        if (st != PLN_OK) goto done;
    }
    /* torque.svg: tau_j / effort_max_j of the joints with an effort limit, the largest
     * peaks first (at most PLN_OUTPUT_PLOT_PAIRS panels) */
    for (int j = 0; j < nj; ++j) {
        double m = -1.0;
        if (!(p->robot->joints[j].effort_max > 0.0) || p->robot->joints[j].type == PLN_JOINT_FIXED) continue;
        for (int s = 0; s < samples; ++s) {
            double v = fabs(d.ratio[(size_t)j * samples + s]);
            if (v > m) m = v;
        }
        peak[j] = m;
        {
            int k = np++;
            while (k > 0 && peak[pick[k - 1]] < m) {
                pick[k] = pick[k - 1];
                --k;
            }
            pick[k] = j;
        }
    }
    if (np > PLN_OUTPUT_PLOT_PAIRS) np = PLN_OUTPUT_PLOT_PAIRS;
    if (np > 0) {
        for (int k = 0; k < np; ++k) {
            int j = pick[k];
            snprintf(titles[nph + k], sizeof titles[nph + k], "%s (peak %.0f%%)", p->robot->joints[j].name,
                     100.0 * peak[j]);
            series[3 * nph + k] = (PlnSeries){"tau / effort_max", PLN_SERIES_LINE, samples, d.t,
                                              d.ratio + (size_t)j * samples, 0, 0};
            panels[nph + k] = (PlnPanel){titles[nph + k], k == 0, series + 3 * nph + k, 1, lim, 2};
        }
        {
            PlnFigure fig = {"Joint torques relative to their effort limits (the largest peaks first)",
                             "time [s]", "tau / effort_max", 3, 300, 170, 1, panels + nph, np};
            st = pln_svg_write(torque_path, &fig, err, err_size);
        }
    }
done:
    dyn_samples_free(&d);
    free(px);
    free(py);
    free(gx);
    free(gy);
    free(peak);
    free(pick);
    free(series);
    free(panels);
    free(titles);
    return st;
}
