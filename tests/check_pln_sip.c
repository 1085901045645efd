/* check_pln_sip.c — tests of planner/problem/pln_sip.c (the SIP loop over NLopt)
 * beyond what the plans of check_pln_plan exercise end to end. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan_fixture.h"
#include "base/pln_tolerance.h"
#include "problem/pln_guess.h"
#include "problem/pln_sip.h"

/* docs/math/planner.md eq. P7d: NLopt's SLSQP asks again, with gradients, for the point
 * its line search accepted; pln_sip answers from the last evaluation. The rows and
 * gradients it answers with are those a fresh evaluation computes, so the run is the same
 * bit for bit as one whose every callback computes the rows (PlnSipRun.fresh_rows), with
 * fewer evaluations of the rows. Capsule collision rows, task rows and the preconditioned
 * rounds (hand_cross), a random problem whose iterates converge from outside, and mesh rows
 * (geom_mesh, where the accepted point is computed again); at most 80 evaluations each,
 * from the problems' initial variables, with SLSQP. The project's SQP (hand_cross's own
 * `auto`) asks for a point twice only by chance (a round's end met again): the same run bit
 * for bit, with no more row evaluations. */
START_TEST(test_reuse_is_the_same_run)
{
    static const char *files[] = {"scenarios/hand_cross.yaml", "tests/data/converge_outside.yaml",
                                  "tests/data/geom_mesh.yaml", "scenarios/hand_cross.yaml"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
        PlanFixture fx;
        PlnSipResult res[2];
        double *x[2];
        char err[1024];
        int sqp = f == 3;
        plan_fixture_load(&fx, files[f], 0.0);
        fx.sc.algorithm = sqp ? PLN_ALGORITHM_SQP : PLN_ALGORITHM_SLSQP;
        for (int k = 0; k < 2; ++k) {
            PlnSipRun run;
            memset(&run, 0, sizeof run);
            run.threads = 1;
            run.fresh_rows = k == 0;
            run.max_evaluations = 80; /* from the fixture's start hand_cross takes its whole budget */
            x[k] = malloc((size_t)fx.p->n_vars * sizeof *x[k]);
            ck_assert(x[k] != NULL);
            memcpy(x[k], fx.x, (size_t)fx.p->n_vars * sizeof *x[k]);
            ck_assert_msg(pln_sip_solve(fx.p, x[k], &run, &res[k], err, sizeof err) == PLN_OK, "%s: %s",
                          files[f], err);
        }
        ck_assert_int_eq(res[0].evaluations, res[1].evaluations);
        ck_assert_msg(memcmp(x[0], x[1], (size_t)fx.p->n_vars * sizeof *x[0]) == 0,
                      "%s: the run with reuse ended elsewhere", files[f]);
        ck_assert(res[0].cost == res[1].cost);
        ck_assert(res[0].worst_violation == res[1].worst_violation);
        /* every callback computed the rows, and each round's end was evaluated afresh */
        ck_assert_int_ge(res[0].row_evaluations, res[0].evaluations);
        /* the line searches backtracked at least once, and that point was not computed
         * twice; with mesh rows gradients are computed only when asked (their queries are
         * warm-started), so that point is computed again there */
        if (fx.sc.geometry == PLN_GEOMETRY_MESH || sqp) {
            ck_assert_int_le(res[1].row_evaluations, res[0].row_evaluations);
        } else {
            ck_assert_msg(res[1].row_evaluations < res[0].row_evaluations, "%s: %d against %d", files[f],
                          res[1].row_evaluations, res[0].row_evaluations);
        }
        free(x[0]);
        free(x[1]);
        plan_fixture_free(&fx);
    }
}
END_TEST


/* optimizer.algorithm: sqp (docs/math/sqp.md) runs the same exchange loop with the project's
 * SQP: from the planner's inverse-kinematics guess it ends feasible (PLN_SIP_FEASIBLE) with the cost
 * of NLopt's SLSQP to within SIP_TEST_COST_REL, on capsule rows with task rows and the
 * preconditioner's Hessian as its first model (hand_cross) and on a random problem whose
 * iterates converge from outside. */
#define SIP_TEST_COST_REL 0.02
START_TEST(test_sqp_reaches_slsqp_cost)
{
    static const char *files[] = {"scenarios/hand_cross.yaml", "tests/data/converge_outside.yaml"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
        PlanFixture fx;
        PlnSipResult res[2];
        char err[1024];
        plan_fixture_load(&fx, files[f], 0.0);
        double *x = malloc((size_t)fx.p->n_vars * sizeof *x);
        ck_assert(x != NULL);
        /* the planner's start: the inverse-kinematics guess (pln_plan) */
        PlnGuessReport guess;
        ck_assert_msg(pln_guess_initial_x(fx.p, fx.x, &guess, err, sizeof err) == PLN_OK, "%s: %s", files[f], err);
        for (int k = 0; k < 2; ++k) {
            PlnSipRun run;
            memset(&run, 0, sizeof run);
            run.threads = 1;
            run.max_evaluations = 600;
            fx.sc.algorithm = k == 0 ? PLN_ALGORITHM_SLSQP : PLN_ALGORITHM_SQP;
            memcpy(x, fx.x, (size_t)fx.p->n_vars * sizeof *x);
            ck_assert_msg(pln_sip_solve(fx.p, x, &run, &res[k], err, sizeof err) == PLN_OK, "%s: %s", files[f], err);
            ck_assert_msg(res[k].worst_violation <= PLN_SIP_FEASIBLE, "%s (%s): worst row %g", files[f],
                          k ? "sqp" : "slsqp", res[k].worst_violation);
        }
        ck_assert_msg(res[1].cost <= res[0].cost * (1.0 + SIP_TEST_COST_REL), "%s: cost %.9g (sqp) against %.9g",
                      files[f], res[1].cost, res[0].cost);
        free(x);
        plan_fixture_free(&fx);
    }
}
END_TEST

/* optimizer.algorithm auto (docs/math/sqp.md sec. 7): the SQP on capsule rows, SLSQP once
 * the collision rows are meshes' or PlnSipRun.slsqp asks for it, an algorithm written in
 * the scenario as it is; the result names the algorithm that ran. */
START_TEST(test_auto_algorithm)
{
    PlanFixture fx;
    PlnSipResult res;
    PlnSipRun run;
    char err[1024];
    plan_fixture_load(&fx, "scenarios/arm4_reach.yaml", 0.0);
    ck_assert_int_eq(fx.sc.algorithm, PLN_ALGORITHM_AUTO);
    ck_assert_int_eq(pln_sip_algorithm(fx.p), PLN_ALGORITHM_SQP);
    memset(&run, 0, sizeof run);
    run.threads = 1;
    ck_assert_msg(pln_sip_solve(fx.p, fx.x, &run, &res, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(res.algorithm, PLN_ALGORITHM_SQP);
    run.slsqp = 1;
    ck_assert_msg(pln_sip_solve(fx.p, fx.x, &run, &res, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(res.algorithm, PLN_ALGORITHM_SLSQP);
    fx.sc.algorithm = PLN_ALGORITHM_MMA;
    ck_assert_int_eq(pln_sip_algorithm(fx.p), PLN_ALGORITHM_MMA);
    fx.sc.algorithm = PLN_ALGORITHM_AUTO;
    fx.sc.geometry = PLN_GEOMETRY_MESH; /* the rule only: the rows stay the capsules' */
    ck_assert_int_eq(fx.p->collision != 0, 1);
    ck_assert_int_eq(pln_sip_algorithm(fx.p), PLN_ALGORITHM_SLSQP);
    plan_fixture_free(&fx);
}
END_TEST

Suite *pln_sip_suite(void)
{
    Suite *s = suite_create("pln_sip");
    TCase *tc = tcase_create("evaluations");
    tcase_add_test(tc, test_reuse_is_the_same_run);
    tcase_add_test(tc, test_sqp_reaches_slsqp_cost);
    tcase_add_test(tc, test_auto_algorithm);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
