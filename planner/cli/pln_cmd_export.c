/* pln_cmd_export.c — `hrpplan export`: a planned trajectory for a controller. */
#include "cli/pln_cmd.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "model/pln_robot.h"
#include "output/pln_export.h"

static int is_regular(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The robot of a trajectory: --robot, else robot_file, else robot_file_relative from the
 * trajectory's directory; the first existing one whose fingerprint matches the recorded
 * robot_sha256 (a file without one, older, takes the first existing candidate). */
static PlnStatus load_robot(const PlnExportTrajectory *tr, const char *override, PlnRobot *robot,
                            char *err, size_t err_size)
{
    char cand[2][PLN_PATH_MAX + 8], tried[3 * PLN_PATH_MAX] = "";
    int n = 0;
    size_t len = 0;
    if (override != NULL) {
        snprintf(cand[n++], sizeof cand[0], "%s", override);
    } else {
        const char *slash = strrchr(tr->path, '/');
        snprintf(cand[n++], sizeof cand[0], "%s", tr->robot_file);
        if (tr->robot_file_relative[0] != '\0') {
            if (tr->robot_file_relative[0] == '/' || slash == NULL) {
                snprintf(cand[n++], sizeof cand[0], "%s", tr->robot_file_relative);
            } else {
                snprintf(cand[n++], sizeof cand[0], "%.*s/%s", (int)(slash - tr->path), tr->path,
                         tr->robot_file_relative);
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        char sha[65];
        PlnStatus st;
        if (override == NULL && !is_regular(cand[i])) {
            len += (size_t)snprintf(tried + len, sizeof tried - len, "%s%s (not found)", len ? ", " : "", cand[i]);
            if (len >= sizeof tried) len = sizeof tried - 1;
            continue;
        }
        st = pln_robot_load(cand[i], robot, err, err_size);
        if (st != PLN_OK) return st;
        if (tr->robot_sha256[0] == '\0') return PLN_OK;
        st = pln_robot_fingerprint(robot, cand[i], sha, err, err_size);
        if (st != PLN_OK) {
            pln_robot_destroy(robot);
            return st;
        }
        if (strcmp(sha, tr->robot_sha256) == 0) return PLN_OK;
        pln_robot_destroy(robot);
        len += (size_t)snprintf(tried + len, sizeof tried - len, "%s%s (a different robot: sha256 %.12s...)",
                                len ? ", " : "", cand[i], sha);
        if (len >= sizeof tried) len = sizeof tried - 1;
    }
    return pln_errorf(PLN_ERR_INVALID, err, err_size,
                      "%s: no robot matches the one the plan was made for (robot '%s', robot_sha256 "
                      "%.12s...): tried %s; give the robot with --robot FILE",
                      tr->path, tr->robot, tr->robot_sha256[0] ? tr->robot_sha256 : "(none)", tried);
}

int pln_cmd_export(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[2048];
    PlnExportTrajectory tr;
    PlnRobot robot;
    PlnExportOptions opt = pln_export_options_default();
    int have_robot = 0, n = 0, recorded = 0;
    PlnStatus st;

    opt.format = args->format;
    opt.rate_hz = args->rate_hz;
    opt.force = args->force;
    memset(&robot, 0, sizeof robot);
    st = pln_export_trajectory_read(args->trajectory, &tr, err, sizeof err);
    if (st == PLN_OK) {
        st = load_robot(&tr, args->export_robot, &robot, err, sizeof err);
        have_robot = st == PLN_OK;
    }
    if (st == PLN_OK) st = pln_export_trajectory_robot(&tr, &robot, err, sizeof err);
    if (st == PLN_OK) st = pln_export_trajectory_resolve(&tr, &robot, err, sizeof err);
    if (st == PLN_OK) st = pln_export_write(&tr, &robot, &opt, args->output, &n, err, sizeof err);
    if (st == PLN_OK && !tr.certified) {
        /* the plan's report says that an uncertified motion left it (same output set) */
        st = pln_export_record_forced(args->trajectory, args->output, opt.format, &recorded, err,
                                      sizeof err);
    }
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan export: %s\n", err);
    } else {
        if (!tr.certified) {
            fprintf(errs,
                    "hrpplan export: warning: %s is NOT CERTIFIED (its plan's report.json says why); "
                    "exported because of --force%s\n",
                    tr.path, opt.format == PLN_FORMAT_POS ? " (hrpsys files hold numbers only, so they do not say it)" : "");
            if (recorded) {
                fprintf(errs, "hrpplan export: the forced export is recorded in the report.json "
                              "beside %s (forced_exports)\n", tr.path);
            } else {
                fprintf(errs, "hrpplan export: warning: no report.json beside %s: the forced "
                              "export is recorded nowhere\n", tr.path);
            }
        }
        fprintf(out, "wrote %s: %s, %d samples at %g Hz over %g s, %d joints%s%s\n", args->output,
                pln_format_string(opt.format), n, opt.rate_hz, tr.duration, tr.n_joints,
                opt.format == PLN_FORMAT_POS ? " (with .waist and .zmp)" : "",
                tr.certified ? "" : "; NOT CERTIFIED (--force)");
    }
    if (have_robot) pln_robot_destroy(&robot);
    pln_export_trajectory_destroy(&tr);
    return pln_status_exit_code(st);
}
