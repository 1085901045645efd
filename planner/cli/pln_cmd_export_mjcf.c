/* pln_cmd_export_mjcf.c — `hrpplan export-mjcf`: the robot as a MuJoCo MJCF model. */
#include "cli/pln_cmd.h"

#include "model/pln_robot.h"
#include "output/pln_mjcf.h"

int pln_cmd_export_mjcf(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    PlnRobot robot;
    PlnMjcfOptions opt = pln_mjcf_options_default();
    char err[1024];
    PlnStatus st = pln_robot_load(args->robot, &robot, err, sizeof err);
    opt.floating_base = !args->fixed_base;
    /* a model users can drive: a box under each sole, a motor per joint (limited to its
     * effort when the robot has effort limits) */
    opt.soles = 1;
    opt.motors = 1;
    if (st == PLN_OK) {
        if (args->output != NULL) {
            st = pln_mjcf_write_file(&robot, &opt, args->output, err, sizeof err);
        } else {
            st = pln_mjcf_write(&robot, &opt, out, err, sizeof err);
        }
    }
    pln_robot_destroy(&robot);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan export-mjcf: %s\n", err);
        return pln_status_exit_code(st);
    }
    if (args->output != NULL) fprintf(errs, "hrpplan export-mjcf: wrote %s\n", args->output);
    return PLN_EXIT_OK;
}
