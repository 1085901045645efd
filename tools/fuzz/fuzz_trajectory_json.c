/* fuzz_trajectory_json.c — the trajectory.json reader (problem/pln_plan.c) against the
 * problem of tests/data/sim_arm2.yaml. */
#include "fuzz_util.h"
#include "problem/pln_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static PlnLoaded l;
    static double *ctrl = NULL;
    char err[1024];
    const char *path = fuzz_file(data, size, ".json");
    if (ctrl == NULL) {
        PlnPlanOptions opt = pln_plan_options_default();
        if (pln_plan_load("tests/data/sim_arm2.yaml", &opt, &l, err, sizeof err) != PLN_OK) abort();
        ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        if (ctrl == NULL) abort();
    }
    (void)pln_plan_read_trajectory_json(path, l.p, ctrl, err, sizeof err);
    unlink(path);
    return 0;
}
