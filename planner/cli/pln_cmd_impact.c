/* pln_cmd_impact.c — `hrpplan impact MECHANISM.yaml`: the impulse response of a
 * mechanism to one collision (model/pln_impact.h, seed 004). */
#include <stdio.h>
#include <string.h>

#include "base/pln_tolerance.h"
#include "cli/pln_cmd.h"
#include "model/pln_impact.h"
#include "model/pln_mechanism.h"
#include "output/pln_impactout.h"
#include "output/pln_output.h"

int pln_cmd_impact(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    PlnMechanism m;
    PlnImpactWork *w = NULL;
    PlnImpactResult r;
    char err[1024], dir[1024], path[1100];
    const char *solver = args->impact_dense ? "dense" : "block";
    PlnStatus st = pln_mechanism_load(args->mechanism, &m, err, sizeof err);
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
    st = pln_output_mkdirs(dir, err, sizeof err);
    if (st == PLN_OK) {
        int n = snprintf(path, sizeof path, "%s/impact.json", dir);
        if (n < 0 || (size_t)n >= sizeof path) st = pln_errorf(PLN_ERR_USAGE, err, sizeof err, "%s: output path too long", dir);
    }
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
