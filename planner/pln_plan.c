/* pln_plan.c — hrpplan plan and hrpplan check. */
#include "pln_plan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pln_atomic.h"
#include "pln_certify.h"
#include "pln_export.h"
#include "pln_output.h"
#include "pln_robot.h"
#include "pln_scenario.h"
#include "pln_sip.h"
#include "pln_tolerance.h"
#include "pln_view.h"
#include "pln_yaml.h"

/* Samples per pair curve in distance.svg. */
#define PLN_SVG_DISTANCE_SAMPLES 400
/* Samples per joint curve in joints.svg. */
#define PLN_SVG_JOINT_SAMPLES 400

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* everything a command loads: scenario, robot, problem */
typedef struct Loaded {
    PlnScenario sc;
    PlnRobot robot;
    PlnProblem *p;
    int have_sc, have_robot;
} Loaded;

static void loaded_free(Loaded *l)
{
    pln_problem_destroy(l->p);
    if (l->have_robot) pln_robot_destroy(&l->robot);
    if (l->have_sc) pln_scenario_destroy(&l->sc);
    memset(l, 0, sizeof *l);
}

static PlnStatus load_all(const char *scenario, const PlnPlanOptions *opt, Loaded *l, char *err,
                          size_t err_size)
{
    PlnStatus st;
    memset(l, 0, sizeof *l);
    st = pln_scenario_parse(scenario, &l->sc, err, err_size);
    if (st != PLN_OK) return st;
    l->have_sc = 1;
    st = pln_robot_load(l->sc.robot_path, &l->robot, err, err_size);
    if (st != PLN_OK) return st;
    l->have_robot = 1;
    if (opt->geometry_override) l->sc.geometry = opt->geometry;
    st = pln_scenario_resolve(&l->sc, &l->robot, err, err_size);
    if (st != PLN_OK) return st;
    return pln_problem_create(&l->p, &l->robot, &l->sc, opt, err, err_size);
}

/* "<dir>/<name>" into buf */
static PlnStatus join_path(char *buf, size_t size, const char *dir, const char *name, char *err,
                           size_t err_size)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: output path too long", dir);
    }
    return PLN_OK;
}

/* removes trajectory.pos and its .waist and .zmp (absent ones are fine) */
static PlnStatus remove_hrpsys_files(const char *pos_path, char *err, size_t err_size)
{
    static const char *const exts[] = {".waist", ".zmp", ".pos"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; ++i) {
        char path[PLN_PATH_MAX];
        PlnStatus st = pln_export_sibling_path(path, sizeof path, pos_path, exts[i], err, err_size);
        if (st != PLN_OK) return st;
        if (unlink(path) != 0 && errno != ENOENT) {
            return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot remove: %s", path,
                              strerror(errno));
        }
    }
    return PLN_OK;
}

static void print_certificate(const PlnProblem *p, const PlnCertificate *c, FILE *out)
{
    fprintf(out, "%-34s %12s %12s %9s\n", "pair", "mcd_lower_m", "mcd_upper_m", "t_min_s");
    for (int pr = 0; pr < c->n_pairs; ++pr) {
        char name[2 * PLN_NAME_MAX + 4];
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
    fprintf(out, "min certified clearance: %.6f m\n", c->n_pairs ? c->min_clearance : 0.0);
    fprintf(out, "joint limit violation: %.3g rad, velocity violation: %.3g rad/s, "
                 "task violation: %.3g, balance violation: %.3g m\n",
            c->max_joint_limit_violation, c->max_velocity_violation, c->max_task_violation,
            c->max_balance_violation);
}

int pln_plan_command(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[1024], dir[PLN_PATH_MAX], path[PLN_PATH_MAX];
    PlnPlanOptions opt = pln_plan_options_default();
    Loaded l;
    PlnSipResult sip;
    PlnCertificate cert;
    PlnRunInfo info;
    PlnTable table;
    double *x = NULL, *ctrl = NULL, start = now_s();
    int have_cert = 0, code;
    PlnStatus st;
    char reason[2048] = "";

    memset(&cert, 0, sizeof cert);
    memset(&table, 0, sizeof table);
    opt.no_collision = args->no_collision;
    if (args->method_given) {
        opt.method_override = 1;
        opt.method = args->method;
    }
    if (args->geometry != NULL) {
        opt.geometry_override = pln_geometry_from_string(args->geometry, &opt.geometry) == PLN_OK;
    }
    st = load_all(args->scenario, &opt, &l, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan plan: %s\n", err);
        loaded_free(&l);
        return pln_status_exit_code(st);
    }
    /* output directory: -o, the scenario's, or out/<name> */
    if (args->out_dir != NULL) snprintf(dir, sizeof dir, "%s", args->out_dir);
    else if (l.sc.out_dir[0] != '\0') snprintf(dir, sizeof dir, "%s", l.sc.out_dir);
    else snprintf(dir, sizeof dir, "out/%s", l.sc.name);
    st = pln_output_mkdirs(dir, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan plan: %s\n", err);
        loaded_free(&l);
        return pln_status_exit_code(st);
    }
    if (!args->quiet) {
        fprintf(errs, "hrpplan plan: %s: %d moving joints, %d variables, %d constraint rows, "
                      "%d pairs x %d intervals%s\n",
                l.sc.name, l.p->n_active, l.p->n_vars, l.p->m, l.sc.n_pairs, l.p->n_intervals,
                l.p->collision ? "" : " (collision constraints off)");
    }

    x = calloc((size_t)(l.p->n_vars > 0 ? l.p->n_vars : 1), sizeof *x);
    ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
    if (x == NULL || ctrl == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, sizeof err, "out of memory");
    } else {
        PlnSipRun run = {args->quiet ? NULL : errs, args->threads, NULL};
        PlnAtomicFile dump;
        int dumping = 0;
        if (args->dump_queries != NULL) {
            st = pln_atomic_open(&dump, args->dump_queries, err, sizeof err);
            dumping = st == PLN_OK;
            if (dumping) run.dump = dump.fp;
        }
        if (st == PLN_OK) {
            pln_problem_initial_x(l.p, x);
            st = pln_sip_solve(l.p, x, &run, &sip, err, sizeof err);
        }
        if (dumping) {
            char derr[512];
            if (st == PLN_OK) {
                PlnStatus dst = pln_atomic_commit(&dump, derr, sizeof derr);
                if (dst != PLN_OK) fprintf(errs, "hrpplan plan: %s\n", derr);
            } else {
                pln_atomic_abort(&dump);
            }
        }
    }
    if (st == PLN_OK) {
        pln_problem_ctrl(l.p, x, ctrl);
        st = pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &cert, err, sizeof err);
        have_cert = st == PLN_OK;
    }
    info.method = dst_mcd_method_string(l.p->method);
    info.collision_constraints = l.p->collision;
    info.sip = st == PLN_OK || have_cert ? &sip : NULL;
    info.wall_time_s = now_s() - start;
    if (st != PLN_OK) {
        info.status = "failed";
        snprintf(reason, sizeof reason, "%s", err);
    } else if (cert.certified) {
        info.status = "certified";
    } else {
        info.status = "not_certified";
        snprintf(reason, sizeof reason, "%s (optimiser: %s)", cert.reason, sip.message);
    }
    info.reason = reason;

    /* outputs: the trajectory files when there is a trajectory, the report always */
    code = st != PLN_OK ? pln_status_exit_code(st)
                        : cert.certified ? PLN_EXIT_OK : PLN_EXIT_NOT_CERTIFIED;
    if (st == PLN_OK) {
        PlnStatus wst = pln_output_sample(l.p, ctrl, l.sc.rate_hz, &table, err, sizeof err);
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "trajectory.json", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_output_trajectory_json(path, l.p, ctrl, &table, cert.certified, err, sizeof err);
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "trajectory.csv", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_table_write_csv(&table, path, cert.certified ? NULL : "NOT CERTIFIED", err,
                                      sizeof err);
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "trajectory.pos", err, sizeof err);
        if (wst == PLN_OK) {
            if (cert.certified) {
                /* hrpsys companions (.waist, .zmp) first, then the .pos */
                wst = pln_export_hrpsys_companions(&table, l.p->robot, path, NULL, err, sizeof err);
                if (wst == PLN_OK) wst = pln_table_write_pos(&table, path, NULL, err, sizeof err);
            } else {
                /* a stale .pos (and companions) of an earlier certified run must not survive */
                wst = remove_hrpsys_files(path, err, sizeof err);
            }
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "distance.svg", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_output_distance_svg(path, l.p, ctrl, &cert, PLN_SVG_DISTANCE_SAMPLES, err,
                                          sizeof err);
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "joints.svg", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_output_joints_svg(path, l.p, ctrl, PLN_SVG_JOINT_SAMPLES, err, sizeof err);
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "view.html", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_view_write(path, l.p, ctrl, &cert, PLN_VIEW_DEFAULT_FPS, err, sizeof err);
        }
        if (wst != PLN_OK) {
            fprintf(errs, "hrpplan plan: %s\n", err);
            code = pln_status_exit_code(wst);
        }
    } else {
        char rerr[512];
        if (join_path(path, sizeof path, dir, "trajectory.pos", rerr, sizeof rerr) == PLN_OK) {
            remove_hrpsys_files(path, rerr, sizeof rerr);
        }
    }
    {
        char rerr[512];
        PlnStatus rst = join_path(path, sizeof path, dir, "report.json", rerr, sizeof rerr);
        info.wall_time_s = now_s() - start;
        if (rst == PLN_OK) {
            rst = pln_output_report_json(path, l.p, &info, have_cert ? &cert : NULL, rerr,
                                         sizeof rerr);
        }
        if (rst != PLN_OK) {
            fprintf(errs, "hrpplan plan: %s\n", rerr);
            if (code == PLN_EXIT_OK) code = pln_status_exit_code(rst);
        }
    }

    /* summary */
    if (have_cert) print_certificate(l.p, &cert, out);
    fprintf(out, "status: %s%s%s\n", info.status, reason[0] ? ": " : "", reason);
    if (st == PLN_OK) {
        fprintf(out, "optimiser: %s after %d evaluations, cost %.6g, %.2f s; MCD %ld calls, %.3f s\n",
                sip.message, sip.evaluations, sip.cost, sip.wall_time_s, sip.mcd_calls,
                sip.mcd_time_s);
    }
    fprintf(out, "outputs: %s/\n", dir);

    pln_table_destroy(&table);
    if (have_cert) pln_certificate_destroy(&cert);
    free(x);
    free(ctrl);
    loaded_free(&l);
    return code;
}

PlnStatus pln_plan_run(const char *scenario, const PlnPlanOptions *opt, PlnPlanRun *run,
                       char *err, size_t err_size)
{
    Loaded l;
    PlnSipResult sip;
    PlnCertificate cert;
    double *x = NULL, *ctrl = NULL, start = now_s();
    PlnStatus st;

    memset(run, 0, sizeof *run);
    st = load_all(scenario, opt, &l, err, err_size);
    if (st == PLN_OK) {
        x = calloc((size_t)(l.p->n_vars > 0 ? l.p->n_vars : 1), sizeof *x);
        ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        if (x == NULL || ctrl == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        PlnSipRun sr = {NULL, opt->threads > 0 ? opt->threads : 1, NULL};
        pln_problem_initial_x(l.p, x);
        st = pln_sip_solve(l.p, x, &sr, &sip, err, err_size);
    }
    if (st == PLN_OK) {
        pln_problem_ctrl(l.p, x, ctrl);
        st = pln_certify_spline(l.p, ctrl, opt->cert_eps_ratio, &cert, err, err_size);
        if (st == PLN_OK) {
            run->certified = cert.certified;
            run->min_clearance = cert.min_clearance;
            pln_certificate_destroy(&cert);
        }
        run->optimise_s = sip.wall_time_s;
        run->mcd_time_s = sip.mcd_time_s;
        run->mcd_calls = sip.mcd_calls;
        run->evaluations = sip.evaluations;
        run->cost = sip.cost;
    }
    run->wall_time_s = now_s() - start;
    free(x);
    free(ctrl);
    loaded_free(&l);
    return st;
}

/* ---- check ------------------------------------------------------------------------- */

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

PlnStatus pln_plan_read_trajectory_json(const char *path, const PlnProblem *p, double *ctrl,
                                        char *err, size_t err_size)
{
    static const char *const keys[] = {"format", "version", "comment", "scenario", "robot",
                                       "robot_file", "certified", "duration", "joints",
                                       "initial", "spline", "samples", NULL};
    static const char *const spline_keys[] = {"degree", "knots", "joints", "control_points", NULL};
    PlnYaml y;
    yaml_node_t *root, *spline, *joints, *cps;
    char format[64];
    int degree, n;
    double *knots = NULL;
    PlnStatus st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) return st;
    root = pln_yaml_root(&y);
    st = pln_yaml_check_mapping(&y, root, "", keys);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "format", 1, format, sizeof format);
    if (st == PLN_OK && strcmp(format, "hrpplan-trajectory") != 0) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "format"), "format", PLN_ERR_INVALID,
                            "'%s' is not an hrpplan trajectory", format);
    }
    spline = pln_yaml_get(&y, root, "spline");
    if (st == PLN_OK && spline == NULL) {
        st = pln_yaml_error(&y, root, "spline", PLN_ERR_INVALID, "required key is missing");
    }
    if (st == PLN_OK) st = pln_yaml_check_mapping(&y, spline, "spline", spline_keys);
    if (st == PLN_OK) st = pln_yaml_int(&y, spline, "spline", "degree", 1, 1, 7, &degree);
    if (st == PLN_OK && degree != p->bs->degree) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, spline, "degree"), "spline.degree",
                            PLN_ERR_INVALID, "%d, but the scenario's spline has degree %d", degree,
                            p->bs->degree);
    }
    if (st == PLN_OK) {
        knots = calloc((size_t)p->bs->n_knots, sizeof *knots);
        if (knots == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        yaml_node_t *kn = pln_yaml_get(&y, spline, "knots");
        st = kn ? pln_yaml_node_numbers(&y, kn, "spline.knots", p->bs->n_knots, knots)
                : pln_yaml_error(&y, spline, "spline.knots", PLN_ERR_INVALID, "required key is missing");
        for (int i = 0; st == PLN_OK && i < p->bs->n_knots; ++i) {
            double tol = PLN_TIME_EPS_REL * fmax(1.0, p->scenario->duration);
            if (fabs(knots[i] - p->bs->knots[i]) > tol) {
                st = pln_yaml_error(&y, kn, "spline.knots", PLN_ERR_INVALID,
                                    "knot %d is %g s, the scenario's is %g s (another duration "
                                    "or span count?)",
                                    i, knots[i], p->bs->knots[i]);
            }
        }
    }
    joints = spline ? pln_yaml_get(&y, spline, "joints") : NULL;
    cps = spline ? pln_yaml_get(&y, spline, "control_points") : NULL;
    if (st == PLN_OK && (joints == NULL || cps == NULL)) {
        st = pln_yaml_error(&y, spline, "spline", PLN_ERR_INVALID,
                            "needs joints and control_points");
    }
    if (st == PLN_OK) st = pln_yaml_sequence(&y, joints, "spline.joints", &n);
    if (st == PLN_OK && n != p->n_active) {
        st = pln_yaml_error(&y, joints, "spline.joints", PLN_ERR_INVALID,
                            "%d moving joints, the scenario moves %d", n, p->n_active);
    }
    for (int a = 0; st == PLN_OK && a < n; ++a) {
        char name[PLN_NAME_MAX], field[64];
        yaml_node_t *item = pln_yaml_item(&y, joints, a);
        snprintf(field, sizeof field, "spline.joints[%d]", a);
        st = pln_yaml_node_string(&y, item, field, name, sizeof name);
        if (st == PLN_OK && strcmp(name, p->robot->joints[p->active[a]].name) != 0) {
            st = pln_yaml_error(&y, item, field, PLN_ERR_INVALID,
                                "'%s', but the scenario's moving joint %d is %s", name, a,
                                p->robot->joints[p->active[a]].name);
        }
    }
    if (st == PLN_OK) {
        int rows;
        st = pln_yaml_sequence(&y, cps, "spline.control_points", &rows);
        if (st == PLN_OK && rows != p->n_active) {
            st = pln_yaml_error(&y, cps, "spline.control_points", PLN_ERR_INVALID,
                                "%d rows, expected %d", rows, p->n_active);
        }
        for (int a = 0; st == PLN_OK && a < p->n_active; ++a) {
            char field[64];
            snprintf(field, sizeof field, "spline.control_points[%d]", a);
            st = pln_yaml_node_numbers(&y, pln_yaml_item(&y, cps, a), field, p->n_ctrl, ctrl + a * p->n_ctrl);
            for (int k = 0; st == PLN_OK && k < p->n_ctrl; ++k) {
                if (fabs(ctrl[a * p->n_ctrl + k]) > PLN_MAX_JOINT_ABS) {
                    st = pln_yaml_error(&y, pln_yaml_item(&y, cps, a), field, PLN_ERR_INVALID,
                                        "value %d: %.17g is beyond the joint range +-%g", k,
                                        ctrl[a * p->n_ctrl + k], PLN_MAX_JOINT_ABS);
                }
            }
        }
    }
    free(knots);
    pln_yaml_free(&y);
    return st;
}

int pln_check_command(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    Loaded l;
    PlnCertificate cert;
    PlnStatus st;
    int code;
    if (args->geometry != NULL) {
        opt.geometry_override = pln_geometry_from_string(args->geometry, &opt.geometry) == PLN_OK;
    }

    st = load_all(args->scenario, &opt, &l, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan check: %s\n", err);
        loaded_free(&l);
        return pln_status_exit_code(st);
    }
    if (has_suffix(args->trajectory, ".json")) {
        double *ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        if (ctrl == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, sizeof err, "out of memory");
        } else {
            st = pln_plan_read_trajectory_json(args->trajectory, l.p, ctrl, err, sizeof err);
            if (st == PLN_OK) {
                st = pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &cert, err, sizeof err);
            }
        }
        free(ctrl);
    } else {
        PlnTable table;
        st = pln_table_read(args->trajectory, &table, err, sizeof err);
        if (st == PLN_OK) {
            st = pln_certify_table(l.p, &table, opt.cert_eps_ratio, &cert, err, sizeof err);
            if (st == PLN_ERR_INVALID) {
                /* the table's own reader names the file; the fit to the robot does not */
                fprintf(errs, "hrpplan check: %s: %s\n", args->trajectory, err);
                pln_table_destroy(&table);
                loaded_free(&l);
                return pln_status_exit_code(st);
            }
            pln_table_destroy(&table);
        }
    }
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan check: %s\n", err);
        loaded_free(&l);
        return pln_status_exit_code(st);
    }
    print_certificate(l.p, &cert, out);
    fprintf(out, "status: %s%s%s\n", cert.certified ? "certified" : "not_certified",
            cert.certified ? "" : ": ", cert.reason);
    code = cert.certified ? PLN_EXIT_OK : PLN_EXIT_NOT_CERTIFIED;
    pln_certificate_destroy(&cert);
    loaded_free(&l);
    return code;
}
