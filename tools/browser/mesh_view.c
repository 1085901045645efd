/* mesh_view.c — writes a view.html with meshes for the browser test (make test-browser):
 * the motion of tests/data/reach_pole.yaml (its initial spline moved by 0.4 sin(1.7 i) rad,
 * not optimised: only the drawing is under test) with the link meshes as collision
 * geometry and the two statues of scenarios/meshes/ placed beside the robot as mesh
 * obstacles (make env-meshes writes them). Until scenarios with mesh obstacles plan
 * through `hrpplan plan`, this is how the page's mesh drawing is exercised in a browser.
 *
 * usage: browser_mesh_view OUT.html      (run from the repository's top directory) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pln_kin.h"
#include "problem/pln_plan.h"
#include "problem/pln_problem.h"
#include "model/pln_robot.h"
#include "problem/pln_scenario.h"
#include "output/pln_view.h"

#define SCENARIO "tests/data/reach_pole.yaml"
/* joint offsets of the displayed motion, rad */
#define MOTION_AMPLITUDE 0.4

int main(int argc, char **argv)
{
    static const char *const files[2] = {"scenarios/meshes/statue_left.stl",
                                         "scenarios/meshes/statue_right.stl"};
    char err[1024];
    PlnScenario sc;
    PlnRobot robot;
    PlnProblem *p = NULL;
    PlnPlanOptions opt = pln_plan_options_default();
    double *x = NULL, *ctrl = NULL;
    int rc = 1;

    if (argc != 2) {
        fprintf(stderr, "usage: browser_mesh_view OUT.html\n");
        return 2;
    }
    memset(&sc, 0, sizeof sc);
    memset(&robot, 0, sizeof robot);
    if (pln_scenario_parse(SCENARIO, &sc, err, sizeof err) != PLN_OK ||
        pln_robot_load(sc.robot_path, &robot, err, sizeof err) != PLN_OK ||
        pln_scenario_resolve(&sc, &robot, err, sizeof err) != PLN_OK ||
        pln_problem_create(&p, &robot, &sc, &opt, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "browser_mesh_view: %s\n", err);
        goto done;
    }
    x = calloc((size_t)p->n_vars + 1, sizeof *x);
    ctrl = calloc((size_t)p->n_active * p->n_ctrl + 1, sizeof *ctrl);
    PlnObstacle *obs = realloc(sc.obstacles, (size_t)(sc.n_obstacles + 2) * sizeof *obs);
    if (x == NULL || ctrl == NULL || obs == NULL) {
        fprintf(stderr, "browser_mesh_view: out of memory\n");
        if (obs != NULL) sc.obstacles = obs;
        goto done;
    }
    sc.obstacles = obs;
    pln_problem_initial_x(p, x);
    for (int i = 0; i < p->n_vars; ++i) {
        x[i] = fmin(fmax(x[i] + MOTION_AMPLITUDE * sin(1.7 * i), p->lb[i]), p->ub[i]);
    }
    pln_problem_ctrl(p, x, ctrl);
    /* the statues 0.55 m to either side of the robot, 0.5 m ahead, facing it */
    for (int k = 0; k < 2; ++k) {
        PlnObstacle *o = &sc.obstacles[sc.n_obstacles++];
        double rpy[3] = {0.0, 0.0, k == 0 ? -1.5707963267948966 : 1.5707963267948966};
        memset(o, 0, sizeof *o);
        snprintf(o->name, sizeof o->name, "%s", k == 0 ? "statue_left" : "statue_right");
        o->type = PLN_OBSTACLE_MESH;
        snprintf(o->mesh_path, sizeof o->mesh_path, "%s", files[k]);
        o->scale = 1.0;
        pln_kin_rpy_to_matrix(rpy, o->rot);
        o->pos[0] = 0.5;
        o->pos[1] = k == 0 ? 0.55 : -0.55;
    }
    sc.geometry = PLN_GEOMETRY_MESH;
    if (pln_view_write(argv[1], p, ctrl, NULL, PLN_VIEW_DEFAULT_FPS, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "browser_mesh_view: %s\n", err);
        goto done;
    }
    rc = 0;
done:
    free(x);
    free(ctrl);
    pln_problem_destroy(p);
    pln_robot_destroy(&robot);
    pln_scenario_destroy(&sc);
    return rc;
}
