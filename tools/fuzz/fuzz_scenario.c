/* fuzz_scenario.c — the scenario loader (problem/pln_scenario.c), and on success its
 * resolution against tests/data/arm2.yaml and the problem built on it. */
#include "fuzz_util.h"
#include "model/pln_robot.h"
#include "problem/pln_problem.h"
#include "problem/pln_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static PlnRobot robot;
    static int have_robot = 0;
    char err[1024];
    PlnScenario sc;
    const char *path = fuzz_file(data, size, ".yaml");
    if (!have_robot) {
        if (pln_robot_load("tests/data/arm2.yaml", &robot, err, sizeof err) != PLN_OK) abort();
        have_robot = 1;
    }
    if (pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK) {
        if (pln_scenario_resolve(&sc, &robot, err, sizeof err) == PLN_OK) {
            PlnPlanOptions opt = pln_plan_options_default();
            PlnProblem *p = NULL;
            if (sc.spans <= 8 && pln_problem_create(&p, &robot, &sc, &opt, err, sizeof err) == PLN_OK) {
                pln_problem_destroy(p);
            }
        }
        pln_scenario_destroy(&sc);
    }
    unlink(path);
    return 0;
}
