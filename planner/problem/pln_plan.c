/* pln_plan.c — one planning run in memory: load, optimise, certify. */
#include "problem/pln_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "base/pln_tolerance.h"
#include "base/pln_yaml.h"
#include "problem/pln_certify.h"
#include "problem/pln_guess.h"
#include "problem/pln_sip.h"

void pln_plan_unload(PlnLoaded *l)
{
    pln_problem_destroy(l->p);
    if (l->have_robot) pln_robot_destroy(&l->robot);
    if (l->have_sc) pln_scenario_destroy(&l->sc);
    memset(l, 0, sizeof *l);
}

PlnStatus pln_plan_load(const char *scenario, const PlnPlanOptions *opt, PlnLoaded *l,
                        char *err, size_t err_size)
{
    PlnStatus st;
    memset(l, 0, sizeof *l);
    st = pln_scenario_parse(scenario, &l->sc, err, err_size);
    if (st != PLN_OK) return st;
    l->have_sc = 1;
    st = pln_robot_load(l->sc.robot_path, &l->robot, err, err_size);
    if (st != PLN_OK) return st;
    l->have_robot = 1;
    if (opt->geometry_override) l->sc.geometry = opt->geometry;
    if (opt->static_balance) pln_scenario_static_balance(&l->sc);
    st = pln_scenario_resolve(&l->sc, &l->robot, err, err_size);
    if (st != PLN_OK) return st;
    return pln_problem_create(&l->p, &l->robot, &l->sc, opt, err, err_size);
}

PlnStatus pln_plan_run(const char *scenario, const PlnPlanOptions *opt, PlnPlanRun *run,
                       char *err, size_t err_size)
{
    PlnLoaded l;
    PlnSipResult sip;
    PlnCertificate cert;
    double *x = NULL, *ctrl = NULL, start = pln_clock_s();
    PlnStatus st;

    memset(run, 0, sizeof *run);
    st = pln_plan_load(scenario, opt, &l, err, err_size);
    if (st == PLN_OK) {
        x = calloc((size_t)(l.p->n_vars > 0 ? l.p->n_vars : 1), sizeof *x);
        ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        if (x == NULL || ctrl == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        PlnSipRun sr = {NULL, opt->threads > 0 ? opt->threads : 1, NULL};
        PlnGuessReport guess;
        st = pln_guess_initial_x(l.p, x, &guess, err, err_size);
        run->ik_unmet = guess.unmet;
        if (st == PLN_OK) st = pln_sip_solve(l.p, x, &sr, &sip, err, err_size);
    }
    if (st == PLN_OK) {
        pln_problem_ctrl(l.p, x, ctrl);
        st = pln_certify_spline(l.p, ctrl, opt->cert_eps_ratio, &cert, err, err_size);
        if (st == PLN_OK) {
            run->certified = cert.certified;
            run->cause = cert.cause;
            snprintf(run->reason, sizeof run->reason, "%s", cert.reason);
            run->min_clearance = cert.min_clearance;
            pln_certificate_destroy(&cert);
        }
        run->optimise_s = sip.wall_time_s;
        run->mcd_time_s = sip.mcd_time_s;
        run->mcd_calls = sip.mcd_calls;
        run->evaluations = sip.evaluations;
        run->cost = sip.cost;
        run->nlopt_code = sip.nlopt_code;
    }
    run->wall_time_s = pln_clock_s() - start;
    free(x);
    free(ctrl);
    pln_plan_unload(&l);
    return st;
}

PlnStatus pln_plan_read_trajectory_json(const char *path, const PlnProblem *p, double *ctrl,
                                        char *err, size_t err_size)
{
    static const char *const keys[] = {"format", "version", "comment", "scenario", "robot",
                                       "robot_file", "certified", "duration", "joints",
                                       "initial", "spline", "samples", NULL};
    static const char *const spline_keys[] = {"degree", "knots", "joints", "control_points", NULL};
    PlnYaml y;
    yaml_node_t *root, *spline, *joints, *cps;
    char format[64];
    int degree, n;
    double *knots = NULL;
    PlnStatus st = pln_yaml_load(&y, path, err, err_size);
    if (st != PLN_OK) return st;
    root = pln_yaml_root(&y);
    st = pln_yaml_check_mapping(&y, root, "", keys);
    if (st == PLN_OK) st = pln_yaml_string(&y, root, "", "format", 1, format, sizeof format);
    if (st == PLN_OK && strcmp(format, "hrpplan-trajectory") != 0) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, root, "format"), "format", PLN_ERR_INVALID,
                            "'%s' is not an hrpplan trajectory", format);
    }
    spline = pln_yaml_get(&y, root, "spline");
    if (st == PLN_OK && spline == NULL) {
        st = pln_yaml_error(&y, root, "spline", PLN_ERR_INVALID, "required key is missing");
    }
    if (st == PLN_OK) st = pln_yaml_check_mapping(&y, spline, "spline", spline_keys);
    if (st == PLN_OK) st = pln_yaml_int(&y, spline, "spline", "degree", 1, 1, 7, &degree);
    if (st == PLN_OK && degree != p->bs->degree) {
        st = pln_yaml_error(&y, pln_yaml_get(&y, spline, "degree"), "spline.degree",
                            PLN_ERR_INVALID, "%d, but the scenario's spline has degree %d", degree,
                            p->bs->degree);
    }
    if (st == PLN_OK) {
        knots = calloc((size_t)p->bs->n_knots, sizeof *knots);
        if (knots == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (st == PLN_OK) {
        yaml_node_t *kn = pln_yaml_get(&y, spline, "knots");
        st = kn ? pln_yaml_node_numbers(&y, kn, "spline.knots", p->bs->n_knots, knots)
                : pln_yaml_error(&y, spline, "spline.knots", PLN_ERR_INVALID, "required key is missing");
        for (int i = 0; st == PLN_OK && i < p->bs->n_knots; ++i) {
            double tol = PLN_TIME_EPS_REL * fmax(1.0, p->scenario->duration);
            if (fabs(knots[i] - p->bs->knots[i]) > tol) {
                st = pln_yaml_error(&y, kn, "spline.knots", PLN_ERR_INVALID,
                                    "knot %d is %g s, the scenario's is %g s (another duration "
                                    "or span count?)",
                                    i, knots[i], p->bs->knots[i]);
            }
        }
    }
    joints = spline ? pln_yaml_get(&y, spline, "joints") : NULL;
    cps = spline ? pln_yaml_get(&y, spline, "control_points") : NULL;
    if (st == PLN_OK && (joints == NULL || cps == NULL)) {
        st = pln_yaml_error(&y, spline, "spline", PLN_ERR_INVALID,
                            "needs joints and control_points");
    }
    if (st == PLN_OK) st = pln_yaml_sequence(&y, joints, "spline.joints", &n);
    if (st == PLN_OK && n != p->n_active) {
        st = pln_yaml_error(&y, joints, "spline.joints", PLN_ERR_INVALID,
                            "%d moving joints, the scenario moves %d", n, p->n_active);
    }
    for (int a = 0; st == PLN_OK && a < n; ++a) {
        char name[PLN_NAME_MAX], field[64];
        yaml_node_t *item = pln_yaml_item(&y, joints, a);
        snprintf(field, sizeof field, "spline.joints[%d]", a);
        st = pln_yaml_node_string(&y, item, field, name, sizeof name);
        if (st == PLN_OK && strcmp(name, p->robot->joints[p->active[a]].name) != 0) {
            st = pln_yaml_error(&y, item, field, PLN_ERR_INVALID,
                                "'%s', but the scenario's moving joint %d is %s", name, a,
                                p->robot->joints[p->active[a]].name);
        }
    }
    if (st == PLN_OK) {
        int rows;
        st = pln_yaml_sequence(&y, cps, "spline.control_points", &rows);
        if (st == PLN_OK && rows != p->n_active) {
            st = pln_yaml_error(&y, cps, "spline.control_points", PLN_ERR_INVALID,
                                "%d rows, expected %d", rows, p->n_active);
        }
        for (int a = 0; st == PLN_OK && a < p->n_active; ++a) {
            char field[64];
            snprintf(field, sizeof field, "spline.control_points[%d]", a);
            st = pln_yaml_node_numbers(&y, pln_yaml_item(&y, cps, a), field, p->n_ctrl, ctrl + a * p->n_ctrl);
            for (int k = 0; st == PLN_OK && k < p->n_ctrl; ++k) {
                if (fabs(ctrl[a * p->n_ctrl + k]) > PLN_MAX_JOINT_ABS) {
                    st = pln_yaml_error(&y, pln_yaml_item(&y, cps, a), field, PLN_ERR_INVALID,
                                        "value %d: %.17g is beyond the joint range +-%g", k,
                                        ctrl[a * p->n_ctrl + k], PLN_MAX_JOINT_ABS);
                }
            }
        }
    }
    free(knots);
    pln_yaml_free(&y);
    return st;
}
