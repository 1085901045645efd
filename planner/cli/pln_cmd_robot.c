/* pln_cmd_robot.c — `hrpplan robot`: load, validate and print a robot model. */
#include "cli/pln_cmd.h"

#include "model/pln_robot.h"

int pln_cmd_robot(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    const char *path = args->robot;
    PlnRobot robot;
    char err[1024];
    PlnStatus st = pln_robot_load(path, &robot, err, sizeof err);
    if (st == PLN_OK) st = pln_robot_print(&robot, path, out, err, sizeof err);
    pln_robot_destroy(&robot);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan robot: %s\n", err);
        return pln_status_exit_code(st);
    }
    return PLN_EXIT_OK;
}
