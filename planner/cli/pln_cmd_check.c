/* pln_cmd_check.c — `hrpplan check`: re-certify a trajectory (.json, .pos or .csv). */
#include "cli/pln_cmd.h"

#include <stdlib.h>
#include <string.h>

#include "base/pln_clock.h"
#include "motion/pln_table.h"
#include "output/pln_output.h"
#include "problem/pln_certify.h"
#include "problem/pln_plan.h"

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

int pln_cmd_check(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnCertificate cert;
    PlnStatus st;
    int code;
    double start = pln_clock_s();
    /* the human summary: stdout, or with --json stderr */
    FILE *summary = args->json ? errs : out;
    if (args->geometry != NULL) {
        opt.geometry_override = pln_geometry_from_string(args->geometry, &opt.geometry) == PLN_OK;
    }
    opt.static_balance = args->static_balance;

    st = pln_plan_load(args->scenario, &opt, &l, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan check: %s\n", err);
        if (args->json) pln_output_failure_print(out, pln_status_exit_code(st), err);
        pln_plan_unload(&l);
        return pln_status_exit_code(st);
    }
    if (has_suffix(args->trajectory, ".json")) {
        double *ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl, sizeof *ctrl);
        if (ctrl == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, sizeof err, "out of memory");
        } else {
            st = pln_plan_read_trajectory_json(args->trajectory, l.p, ctrl, err, sizeof err);
            if (st == PLN_OK) {
                st = pln_certify_spline(l.p, ctrl, opt.cert_eps_ratio, &cert, err, sizeof err);
            }
        }
        free(ctrl);
    } else {
        PlnTable table;
        st = pln_table_read(args->trajectory, &table, err, sizeof err);
        if (st == PLN_OK) {
            st = pln_certify_table(l.p, &table, opt.cert_eps_ratio, &cert, err, sizeof err);
            if (st == PLN_ERR_INVALID) {
                /* the table's own reader names the file; the fit to the robot does not */
                fprintf(errs, "hrpplan check: %s: %s\n", args->trajectory, err);
                if (args->json) pln_output_failure_print(out, pln_status_exit_code(st), err);
                pln_table_destroy(&table);
                pln_plan_unload(&l);
                return pln_status_exit_code(st);
            }
            pln_table_destroy(&table);
        }
    }
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan check: %s\n", err);
        if (args->json) pln_output_failure_print(out, pln_status_exit_code(st), err);
        pln_plan_unload(&l);
        return pln_status_exit_code(st);
    }
    pln_output_print_certificate(l.p, &cert, summary);
    fprintf(summary, "status: %s%s%s\n", cert.certified ? "certified" : "not_certified",
            cert.certified ? "" : ": ", cert.reason);
    if (!cert.certified) fprintf(errs, "hrpplan check: not certified: %s\n", cert.reason);
    code = cert.certified ? PLN_EXIT_OK : PLN_EXIT_NOT_CERTIFIED;
    if (args->json) {
        /* the certificate in report.json's document (no optimiser: iterations 0, cost null) */
        PlnRunInfo info;
        memset(&info, 0, sizeof info);
        info.status = cert.certified ? "certified" : "not_certified";
        info.reason = cert.reason;
        info.method = dst_mcd_method_string(l.p->method);
        info.collision_constraints = l.p->collision;
        info.wall_time_s = pln_clock_s() - start;
        st = pln_output_report_print(out, l.p, &info, &cert, err, sizeof err);
        if (st != PLN_OK) {
            fprintf(errs, "hrpplan check: %s\n", err);
            code = pln_status_exit_code(st);
        }
    }
    pln_certificate_destroy(&cert);
    pln_plan_unload(&l);
    return code;
}
