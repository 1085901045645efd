/* pln_cmd_impact.c — `hrpplan impact MECHANISM.yaml`: the impulse response of a
 * mechanism to one collision (model/pln_impact.h, seed 004). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"
#include "cli/pln_cmd.h"
#include "model/pln_impact.h"
#include "model/pln_mechanism.h"
#include "output/pln_impactout.h"
#include "output/pln_output.h"
#include "problem/pln_plan.h"
#include "problem/pln_robotimpact.h"

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* impact.json's path in dir (created) */
static PlnStatus out_path(const char *dir, char *path, size_t size, char *err, size_t err_size)
{
    PlnStatus st = pln_output_mkdirs(dir, err, err_size);
    if (st == PLN_OK) {
        int n = snprintf(path, size, "%s/impact.json", dir);
        if (n < 0 || (size_t)n >= size) st = pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: output path too long", dir);
    }
    return st;
}

/* the second form: a planned robot's pair colliding along its trajectory */
static int impact_robot(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[1024], dir[1024], path[1100], name[2 * PLN_NAME_MAX + 2];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnRobotImpact ri;
    PlnImpactWork *w = NULL;
    PlnImpactResult r;
    double *ctrl = NULL, *qd_after = NULL, t = args->at;
    const char **names = NULL;
    int pair = -1, found = 1, code = PLN_EXIT_OK;
    const char *source = "given (--at)";
    PlnStatus st;
    memset(&ri, 0, sizeof ri);
    if (!has_suffix(args->trajectory, ".json")) {
        fprintf(errs, "hrpplan impact: %s: the robot form needs a plan's trajectory.json (a spline: its "
                      "joint rates are exact)\n", args->trajectory);
        return PLN_EXIT_BAD_INPUT;
    }
    st = pln_plan_load(args->scenario, &opt, &l, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan impact: %s\n", err);
        pln_plan_unload(&l);
        return pln_status_exit_code(st);
    }
    ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl + 1, sizeof *ctrl);
    qd_after = calloc((size_t)l.robot.n_joints + 1, sizeof *qd_after);
    names = calloc((size_t)l.robot.n_joints + 1, sizeof *names);
    if (ctrl == NULL || qd_after == NULL || names == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, sizeof err, "out of memory");
    if (st == PLN_OK) st = pln_plan_read_trajectory_json(args->trajectory, l.p, ctrl, err, sizeof err);
    if (st == PLN_OK) st = pln_robotimpact_find_pair(l.p, args->pair, &pair, err, sizeof err);
    if (st == PLN_OK && !isnan(t) && t > l.sc.duration) {
        st = pln_errorf(PLN_ERR_USAGE, err, sizeof err, "--at %g: after the motion's end (%g s)", t, l.sc.duration);
    }
    if (st == PLN_OK && isnan(t)) {
        source = "first contact";
        st = pln_robotimpact_first_contact(l.p, ctrl, pair, &t, &found, err, sizeof err);
    }
    if (st == PLN_OK && !found) {
        fprintf(out, "impact: %s - %s never touch along %s (certified clear at every instant); no impact\n",
                l.sc.pairs[pair].a.name, l.sc.pairs[pair].b.name, args->trajectory);
        code = PLN_EXIT_OK;
        goto done;
    }
    if (st == PLN_OK) {
        st = pln_robotimpact_build(l.p, ctrl, pair, t, args->restitution, isnan(args->friction) ? l.sc.mu : args->friction,
                                   &ri, err, sizeof err);
    }
    if (st == PLN_OK) st = pln_impact_work_create(ri.system.n_bodies, ri.system.n_joints, &w, err, sizeof err);
    if (st == PLN_OK) {
        st = pln_impact_solve(w, &ri.system, args->impact_dense ? PLN_IMPACT_DENSE : PLN_IMPACT_BLOCK, &r, err,
                              sizeof err);
    }
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan impact: %s\n", err);
        code = pln_status_exit_code(st);
        goto done;
    }
    pln_robotimpact_rates(l.p, &ri, r.w, qd_after);
    {
        PlnImpactReportRobot rep;
        int n = 0;
        const double *qb = ri.qd;
        double *qb_list = calloc((size_t)l.robot.n_joints + 1, sizeof *qb_list);
        double *qa_list = calloc((size_t)l.robot.n_joints + 1, sizeof *qa_list);
        if (qb_list == NULL || qa_list == NULL) {
            free(qb_list);
            free(qa_list);
            fprintf(errs, "hrpplan impact: out of memory\n");
            code = PLN_EXIT_INTERNAL;
            goto done;
        }
        for (int j = 0; j < l.robot.n_joints; ++j) {
            if (l.robot.joints[j].type != PLN_JOINT_REVOLUTE) continue;
            names[n] = l.robot.joints[j].name;
            qb_list[n] = qb[j];
            qa_list[n++] = qd_after[j];
        }
        rep = (PlnImpactReportRobot){args->scenario, args->trajectory, t, source, n, names, qb_list, qa_list};
        snprintf(name, sizeof name, "%s-%s", l.sc.pairs[pair].a.name, l.sc.pairs[pair].b.name);
        if (args->out_dir != NULL) snprintf(dir, sizeof dir, "%s", args->out_dir);
        else snprintf(dir, sizeof dir, "out/%s", l.sc.name);
        st = out_path(dir, path, sizeof path, err, sizeof err);
        if (st == PLN_OK) {
            st = pln_impactout_json(path, name, args->impact_dense ? "dense" : "block", &ri.system, &r, &rep, err,
                                    sizeof err);
        }
        if (st == PLN_OK) {
            if (!args->quiet) {
                pln_impactout_print(out, name, &ri.system, &r, &rep);
                fprintf(out, "the pair's distance at t: %.3g m; welded to the floor: %s\n", ri.distance,
                        ri.welds_feet ? "the feet of the support phase" : "the base link (no dynamics)");
            }
            fprintf(out, "outputs: %s/\n", dir);
        } else {
            fprintf(errs, "hrpplan impact: %s\n", err);
        }
        free(qb_list);
        free(qa_list);
        code = pln_status_exit_code(st);
    }
done:
    if (st != PLN_OK && code == PLN_EXIT_OK) code = pln_status_exit_code(st);
    pln_impact_work_destroy(w);
    pln_robotimpact_destroy(&ri);
    free(ctrl);
    free(qd_after);
    free(names);
    pln_plan_unload(&l);
    return code;
}

int pln_cmd_impact(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    PlnMechanism m;
    PlnImpactWork *w = NULL;
    PlnImpactResult r;
    char err[1024], dir[1024], path[1100];
    const char *solver = args->impact_dense ? "dense" : "block";
    PlnStatus st;
    if (args->mechanism == NULL) return impact_robot(args, out, errs);
    st = pln_mechanism_load(args->mechanism, &m, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan impact: %s\n", err);
        return pln_status_exit_code(st);
    }
    if (m.joint_residual > PLN_IMPACT_VELOCITY_WARN) {
        fprintf(errs,
                "hrpplan impact: warning: %s: the given velocities break the joints by up to %.3g "
                "(m/s or rad/s); the joint impulses also absorb that\n",
                args->mechanism, m.joint_residual);
    }
    st = pln_impact_work_create(m.n_bodies, m.n_joints, &w, err, sizeof err);
    if (st == PLN_OK) {
        st = pln_impact_solve(w, &m.system, args->impact_dense ? PLN_IMPACT_DENSE : PLN_IMPACT_BLOCK, &r, err,
                              sizeof err);
    }
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan impact: %s: %s\n", args->mechanism, err);
        pln_impact_work_destroy(w);
        pln_mechanism_destroy(&m);
        return pln_status_exit_code(st);
    }
    if (args->out_dir != NULL) snprintf(dir, sizeof dir, "%s", args->out_dir);
    else snprintf(dir, sizeof dir, "out/%s", m.name);
    st = out_path(dir, path, sizeof path, err, sizeof err);
    if (st == PLN_OK) st = pln_impactout_json(path, m.name, solver, &m.system, &r, NULL, err, sizeof err);
    if (st == PLN_OK) {
        if (!args->quiet) pln_impactout_print(out, m.name, &m.system, &r, NULL);
        fprintf(out, "outputs: %s/\n", dir);
    } else {
        fprintf(errs, "hrpplan impact: %s\n", err);
    }
    pln_impact_work_destroy(w);
    pln_mechanism_destroy(&m);
    return pln_status_exit_code(st);
}
