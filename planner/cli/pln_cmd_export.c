/* pln_cmd_export.c — `hrpplan export`: a planned trajectory for a controller. */
#include "cli/pln_cmd.h"

#include <stdio.h>
#include <string.h>

#include "model/pln_robot.h"
#include "output/pln_export.h"

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
        st = pln_robot_load(tr.robot_file, &robot, err, sizeof err);
        have_robot = st == PLN_OK;
        if (st == PLN_ERR_IO) {
            /* say where the path came from */
            char inner[sizeof err];
            snprintf(inner, sizeof inner, "%s", err);
            pln_errorf(st, err, sizeof err,
                       "%s: robot_file: %s (a relative robot_file is read from the current "
                       "directory, as `plan` resolved it)",
                       tr.path, inner);
        }
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
