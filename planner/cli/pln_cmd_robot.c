/* pln_cmd_robot.c — `hrpplan robot`: load, validate and print a robot model (YAML or
 * URDF), or write it as URDF (--urdf). */
#include "cli/pln_cmd.h"

#include "base/pln_atomic.h"
#include "model/pln_robot.h"
#include "model/pln_urdf.h"

int pln_cmd_robot(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    const char *path = args->robot;
    PlnRobot robot;
    char err[1024];
    PlnStatus st = pln_robot_load(path, &robot, err, sizeof err);
    if (st == PLN_OK && !args->urdf) {
        st = pln_robot_print(&robot, path, out, err, sizeof err);
    } else if (st == PLN_OK && args->output == NULL) {
        st = pln_urdf_write(&robot, path, out, err, sizeof err);
    } else if (st == PLN_OK) {
        PlnAtomicFile f;
        st = pln_atomic_open(&f, args->output, err, sizeof err);
        if (st == PLN_OK) {
            st = pln_urdf_write(&robot, path, f.fp, err, sizeof err);
            if (st == PLN_OK) st = pln_atomic_commit(&f, err, sizeof err);
            else pln_atomic_abort(&f);
        }
        if (st == PLN_OK) fprintf(errs, "hrpplan robot: wrote %s\n", args->output);
    }
    pln_robot_destroy(&robot);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan robot: %s\n", err);
        return pln_status_exit_code(st);
    }
    return PLN_EXIT_OK;
}
