/* pln_cmd_plan.c — `hrpplan plan`: load, optimise, certify, write every output. */
#include "cli/pln_cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/pln_atomic.h"
#include "base/pln_clock.h"
#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"
#include "output/pln_export.h"
#include "output/pln_output.h"
#include "output/pln_view.h"
#include "problem/pln_certify.h"
#include "problem/pln_guess.h"
#include "problem/pln_plan.h"
#include "problem/pln_sip.h"

/* Samples per pair curve in distance.svg. */
#define PLN_SVG_DISTANCE_SAMPLES 400
/* Samples per joint curve in joints.svg. */
#define PLN_SVG_JOINT_SAMPLES 400

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
        st = pln_atomic_remove(path, err, err_size);
        if (st != PLN_OK) return st;
    }
    return PLN_OK;
}

int pln_cmd_plan(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[1024], dir[PLN_PATH_MAX], path[PLN_PATH_MAX];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnSipResult sip;
    PlnCertificate cert;
    PlnRunInfo info;
    PlnGuessReport guess;
    int have_guess = 0;
    PlnTable table, body;
    double *x = NULL, *ctrl = NULL, start = pln_clock_s();
    int have_cert = 0, code, dir_created = 0, report_ok = 0;
    /* the human summary: stdout, or with --json stderr (nowhere when also quiet) */
    FILE *summary = !args->json ? out : args->quiet ? NULL : errs;
    PlnTimeSearch tsearch;
    PlnStatus st;
    char reason[2048] = "";

    memset(&cert, 0, sizeof cert);
    memset(&table, 0, sizeof table);
    memset(&body, 0, sizeof body);
    memset(&tsearch, 0, sizeof tsearch);
    opt.no_collision = args->no_collision;
    opt.static_balance = args->static_balance;
    if (args->method_given) {
        opt.method_override = 1;
        opt.method = args->method;
    }
    if (args->geometry != NULL) {
        opt.geometry_override = pln_geometry_from_string(args->geometry, &opt.geometry) == PLN_OK;
    }
    if (args->distance != NULL) {
        opt.distance_override = pln_distance_from_string(args->distance, &opt.distance) == PLN_OK;
    }
    st = pln_plan_load(args->scenario, &opt, &l, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan plan: %s\n", err);
        if (args->json) pln_output_failure_print(out, pln_status_exit_code(st), err);
        pln_plan_unload(&l);
        return pln_status_exit_code(st);
    }
    /* --max-time: the optimiser's budget instead of the scenario's (shorter or longer) */
    if (!isnan(args->max_time)) l.sc.time_limit = args->max_time;
    /* without --timeout, the whole run's limit grows with a long optimiser budget */
    if (isnan(args->timeout) && PLN_TIMEOUT_BUDGET_FACTOR * l.sc.time_limit > PLN_TIMEOUT_DEFAULT_S) {
        double limit = PLN_TIMEOUT_BUDGET_FACTOR * l.sc.time_limit;
        double left = limit - (pln_clock_s() - start);
        st = pln_watchdog_rearm(left > 0.0 ? left : 1e-3, limit, err, sizeof err);
        if (st != PLN_OK) {
            fprintf(errs, "hrpplan plan: %s\n", err);
            pln_plan_unload(&l);
            return pln_status_exit_code(st);
        }
    }
    /* output directory: -o, the scenario's, or out/<name> */
    if (args->out_dir != NULL) snprintf(dir, sizeof dir, "%s", args->out_dir);
    else if (l.sc.out_dir[0] != '\0') snprintf(dir, sizeof dir, "%s", l.sc.out_dir);
    else snprintf(dir, sizeof dir, "out/%s", l.sc.name);
    {
        struct stat sb;
        dir_created = stat(dir, &sb) != 0;
    }
    st = pln_output_mkdirs(dir, err, sizeof err);
    if (st == PLN_OK && dir_created) pln_watchdog_created_dir(dir);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan plan: %s\n", err);
        if (args->json) pln_output_failure_print(out, pln_status_exit_code(st), err);
        pln_plan_unload(&l);
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
        PlnSipRun run = {args->quiet ? NULL : errs, args->threads, NULL, args->verbose, 0, 0.0, 0, NULL, 0, 0, 0};
        PlnAtomicFile dump;
        int dumping = 0;
        if (args->dump_queries != NULL) {
            st = pln_atomic_open(&dump, args->dump_queries, err, sizeof err);
            dumping = st == PLN_OK;
            if (dumping) run.dump = dump.fp;
        }
        if (st == PLN_OK) {
            st = pln_guess_initial_x(l.p, x, &guess, err, sizeof err);
            have_guess = st == PLN_OK;
            if (st == PLN_OK && guess.unmet > 0 && !args->quiet) {
                const PlnTask *task = &l.sc.tasks[guess.worst_task];
                fprintf(errs,
                        "hrpplan plan: initial guess: inverse kinematics left %d of %d task "
                        "times unmet; tasks[%d] (line %d) is missed by %.3g %s beyond its "
                        "tolerance (out of reach?)\n",
                        guess.unmet, guess.groups, guess.worst_task, task->line,
                        guess.worst_miss, task->type == PLN_TASK_JOINT ? "rad" : "m");
            }
            if (st == PLN_OK) {
                st = pln_plan_optimise(l.p, &opt, &run, x, ctrl, &sip, &cert, err, sizeof err);
                have_cert = st == PLN_OK;
            }
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
    /* cost type time: certified at the scenario's duration, now as short as certifies */
    if (st == PLN_OK && l.sc.cost == PLN_COST_TIME && cert.certified) {
        PlnSipRun srun = {args->quiet ? NULL : errs, args->threads, NULL, args->verbose, 0, 0.0, 0, NULL, 0, 0, 0};
        pln_certificate_destroy(&cert);
        have_cert = 0;
        st = pln_plan_shorten(&l, &opt, &srun, x, &sip, &tsearch, err, sizeof err);
        if (st == PLN_OK) {
            pln_problem_ctrl(l.p, x, ctrl);
            st = pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &cert, err, sizeof err);
            have_cert = st == PLN_OK;
        }
        if (st == PLN_OK && summary != NULL) {
            fprintf(summary, "time search: duration %.4g s -> %.4g s (%d plans; %.4g s %s)\n", tsearch.duration0,
                    tsearch.duration, tsearch.plans, tsearch.failed,
                    tsearch.failed < tsearch.duration ? "did not certify" : "is the floor, cost.min_duration");
        }
    }
    info.method = dst_mcd_method_string(l.p->method);
    info.collision_constraints = l.p->collision;
    info.sip = st == PLN_OK || have_cert ? &sip : NULL;
    info.guess = have_guess ? &guess : NULL;
    info.time_search = tsearch.done ? &tsearch : NULL;
    info.wall_time_s = pln_clock_s() - start;
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
        PlnStatus wst;
        pln_watchdog_phase("writing the outputs");
        wst = pln_output_sample(l.p, ctrl, l.sc.rate_hz, &table, err, sizeof err);
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "trajectory.json", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_output_trajectory_json(path, l.p, ctrl, &table, cert.certified, err, sizeof err);
        }
        /* the controller's files carry the robot's own joints: a free base's virtual
         * joints go to .waist (pln_robot_free_base) */
        if (wst == PLN_OK) {
            wst = pln_table_first_joints(&table, pln_robot_body_joints(l.p->robot), &body, err,
                                         sizeof err);
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "trajectory.csv", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_table_write_csv(&body, path, cert.certified ? NULL : "NOT CERTIFIED", err,
                                      sizeof err);
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "trajectory.pos", err, sizeof err);
        if (wst == PLN_OK) {
            if (cert.certified) {
                /* hrpsys companions (.waist, .zmp) first, then the .pos */
                wst = pln_export_hrpsys_companions(&table, l.p->robot, path, NULL, err, sizeof err);
                if (wst == PLN_OK) wst = pln_table_write_pos(&body, path, NULL, err, sizeof err);
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
        if (wst == PLN_OK && l.p->dynamics) {
            char tpath[sizeof path];
            wst = join_path(path, sizeof path, dir, "zmp.svg", err, sizeof err);
            if (wst == PLN_OK) wst = join_path(tpath, sizeof tpath, dir, "torque.svg", err, sizeof err);
            if (wst == PLN_OK) {
                wst = pln_output_dynamics_svg(path, tpath, l.p, ctrl, PLN_SVG_JOINT_SAMPLES, err, sizeof err);
            }
        } else if (wst == PLN_OK) {
            /* no dynamics this time: an earlier run's figures must not pass for this one's */
            static const char *const stale[] = {"zmp.svg", "torque.svg"};
            for (int k = 0; k < 2 && wst == PLN_OK; ++k) {
                wst = join_path(path, sizeof path, dir, stale[k], err, sizeof err);
                if (wst == PLN_OK) wst = pln_atomic_remove(path, err, sizeof err);
            }
        }
        if (wst == PLN_OK) wst = join_path(path, sizeof path, dir, "view.html", err, sizeof err);
        if (wst == PLN_OK) {
            wst = pln_view_write(path, l.p, ctrl, &cert, PLN_VIEW_DEFAULT_FPS, err, sizeof err);
        }
        if (wst != PLN_OK) {
            fprintf(errs, "hrpplan plan: %s\n", err);
            code = pln_status_exit_code(wst);
        }
    }
    /* a failed run writes nothing (the output set is abandoned by the caller): the
     * report of a plan exists only beside its trajectory */
    if (st == PLN_OK) {
        char rerr[512];
        PlnStatus rst = join_path(path, sizeof path, dir, "report.json", rerr, sizeof rerr);
        info.wall_time_s = pln_clock_s() - start;
        if (rst == PLN_OK) {
            rst = pln_output_report_json(path, l.p, &info, have_cert ? &cert : NULL, rerr,
                                         sizeof rerr);
        }
        if (rst != PLN_OK) {
            fprintf(errs, "hrpplan plan: %s\n", rerr);
            code = pln_status_exit_code(rst); /* no set without its report */
        } else {
            report_ok = 1;
        }
    }

    /* summary */
    if (have_cert && summary != NULL) pln_output_print_certificate(l.p, &cert, summary);
    if (summary != NULL) fprintf(summary, "status: %s%s%s\n", info.status, reason[0] ? ": " : "", reason);
    if (st == PLN_OK && summary != NULL) {
        fprintf(summary, "optimiser: %s: %s after %d evaluations, cost %.6g, %.2f s; MCD %ld calls, %.3f s\n",
                pln_algorithm_string(sip.algorithm), sip.message, sip.evaluations, sip.cost, sip.wall_time_s, sip.mcd_calls,
                sip.mcd_time_s);
        if (sip.phong_calls > 0) {
            fprintf(summary, "PhongDist rows (collision.distance phong): %ld queries, %ld fell back "
                             "to the Euclidean distance, %.3f s\n",
                    sip.phong_calls, sip.phong_fallbacks, sip.phong_time_s);
        }
    }
    if (st != PLN_OK || code == PLN_EXIT_BAD_INPUT || code == PLN_EXIT_INTERNAL) {
        fprintf(errs, "hrpplan plan: failed: %s\n", st != PLN_OK ? reason : "the outputs could not be written");
        if (dir_created) (void)rmdir(dir); /* only if still empty */
    } else {
        if (!cert.certified) fprintf(errs, "hrpplan plan: not certified: %s\n", reason);
        if (summary != NULL) fprintf(summary, "outputs: %s/\n", dir);
    }
    if (args->simulate && st == PLN_OK) {
        /* the plan in MuJoCo physics: sim.json and sim.svg beside the other outputs */
        char tpath[4200];
        int scode;
        snprintf(tpath, sizeof tpath, "%s/trajectory.json", dir);
        scode = pln_cmd_simulate_spline(args, l.p, ctrl, tpath, dir, 1, args->json ? errs : out, errs);
        if (code == PLN_EXIT_OK) code = scode;
    }
    /* --json: the report's document on stdout (the one report.json holds) */
    if (args->json) {
        if (report_ok && (code == PLN_EXIT_OK || code == PLN_EXIT_NOT_CERTIFIED)) {
            char jerr[512];
            PlnStatus jst = pln_output_report_print(out, l.p, &info, have_cert ? &cert : NULL, jerr,
                                                    sizeof jerr);
            if (jst != PLN_OK) {
                fprintf(errs, "hrpplan plan: %s\n", jerr);
                code = pln_status_exit_code(jst);
            }
        } else {
            pln_output_failure_print(out, code, reason[0] ? reason : "the outputs could not be written");
        }
    }

    pln_table_destroy(&table);
    pln_table_destroy(&body);
    if (have_cert) pln_certificate_destroy(&cert);
    free(x);
    free(ctrl);
    pln_plan_unload(&l);
    return code;
}
