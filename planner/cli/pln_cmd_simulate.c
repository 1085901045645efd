/* pln_cmd_simulate.c — `hrpplan simulate`: replay a trajectory (.json, .pos or .csv) in
 * MuJoCo physics (output/pln_sim.h) and say whether the robot stands. */
#include "cli/pln_cmd.h"

#include <stdlib.h>
#include <string.h>

#include "base/pln_atomic.h"
#include "motion/pln_table.h"
#include "output/pln_output.h"
#include "output/pln_sim.h"
#include "problem/pln_plan.h"

static int has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- references --------------------------------------------------------------------- */

typedef struct SplineRef {
    const PlnProblem *p;
    const double *ctrl;
} SplineRef;

static PlnStatus spline_state(void *ctx, double t, double *q, double *qd, double *qdd)
{
    const SplineRef *s = ctx;
    return pln_problem_state_at(s->p, s->ctrl, t, q, qd, qdd);
}

/* A table read from a file: positions interpolated linearly between samples; velocities
 * and accelerations are the samples' central differences (second differences on the
 * uneven grid), interpolated the same way, as a controller replaying the file would
 * estimate them. Joints the table does not name keep their initial value. */
typedef struct TableRef {
    const PlnTable *tb;
    const PlnProblem *p;
    int *joint_of;        /* [n_columns] */
    double *qd, *qdd;     /* [n_rows * n_columns] */
} TableRef;

static PlnStatus table_state(void *ctx, double t, double *q, double *qd, double *qdd)
{
    const TableRef *s = ctx;
    const PlnTable *tb = s->tb;
    int nc = tb->n_joints, r = 0, lo, hi;
    double u = 0.0, tt = tb->t[0] + t;
    memcpy(q, s->p->q_init, sizeof *q * (size_t)s->p->n_joints);
    memset(qd, 0, sizeof *qd * (size_t)s->p->n_joints);
    memset(qdd, 0, sizeof *qdd * (size_t)s->p->n_joints);
    if (tt >= tb->t[tb->n_rows - 1]) {
        r = tb->n_rows - 2;
        u = 1.0;
    } else if (tt > tb->t[0]) {
        lo = 0;
        hi = tb->n_rows - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (tb->t[mid] <= tt) lo = mid;
            else hi = mid;
        }
        r = lo;
        u = (tt - tb->t[r]) / (tb->t[r + 1] - tb->t[r]);
    }
    for (int c = 0; c < nc; ++c) {
        size_t a = (size_t)r * nc + c, b = a + nc;
        int j = s->joint_of[c];
        q[j] = tb->q[a] + u * (tb->q[b] - tb->q[a]);
        qd[j] = s->qd[a] + u * (s->qd[b] - s->qd[a]);
        qdd[j] = s->qdd[a] + u * (s->qdd[b] - s->qdd[a]);
    }
    return PLN_OK;
}

static void table_ref_destroy(TableRef *s)
{
    free(s->joint_of);
    free(s->qd);
    free(s->qdd);
}

static PlnStatus table_ref_create(TableRef *s, const PlnProblem *p, const PlnTable *tb,
                                  const char *path, char *err, size_t err_size)
{
    int nc = tb->n_joints, nr = tb->n_rows;
    memset(s, 0, sizeof *s);
    s->tb = tb;
    s->p = p;
    if (nr < 2) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: the trajectory needs two samples or more", path);
    }
    s->joint_of = calloc((size_t)nc, sizeof *s->joint_of);
    s->qd = calloc((size_t)nr * nc, sizeof *s->qd);
    s->qdd = calloc((size_t)nr * nc, sizeof *s->qdd);
    if (s->joint_of == NULL || s->qd == NULL || s->qdd == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    if (p->robot->free_base) {
        /* the waist of a free base is six joints that a .pos or .csv does not carry */
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: the scenario steps from foot to foot, so its waist floats free "
                          "(six virtual joints): simulate its trajectory.json, which carries the "
                          "waist; a .pos or .csv holds only the robot's joints", path);
    }
    if (tb->names[0][0] == '\0') {
        if (nc != p->n_joints) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: the trajectory has %d joint columns, the robot %s has %d "
                              "joints", path, nc, p->robot->name, p->n_joints);
        }
        for (int c = 0; c < nc; ++c) s->joint_of[c] = c;
    } else {
        for (int c = 0; c < nc; ++c) {
            s->joint_of[c] = pln_robot_find_joint(p->robot, tb->names[c]);
            if (s->joint_of[c] < 0) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "%s:1: column %d: '%s' is not a joint of robot %s", path,
                                  c + 2, tb->names[c], p->robot->name);
            }
            for (int k = 0; k < c; ++k) {
                if (s->joint_of[k] == s->joint_of[c]) {
                    return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                      "%s:1: column %d: joint '%s' appears twice", path, c + 2,
                                      tb->names[c]);
                }
            }
        }
    }
    for (int r = 0; r < nr; ++r) {
        for (int c = 0; c < nc; ++c) {
            size_t i = (size_t)r * nc + c;
            if (tb->qd != NULL && tb->qdd != NULL) {
                s->qd[i] = tb->qd[i];
                s->qdd[i] = tb->qdd[i];
                continue;
            }
            if (r > 0 && r + 1 < nr) {
                double h0 = tb->t[r] - tb->t[r - 1], h1 = tb->t[r + 1] - tb->t[r];
                double v0 = (tb->q[i] - tb->q[i - nc]) / h0, v1 = (tb->q[i + nc] - tb->q[i]) / h1;
                s->qd[i] = (tb->q[i + nc] - tb->q[i - nc]) / (h0 + h1);
                s->qdd[i] = 2.0 * (v1 - v0) / (h0 + h1);
            } else if (r == 0) {
                s->qd[i] = (tb->q[i + nc] - tb->q[i]) / (tb->t[1] - tb->t[0]);
            } else {
                s->qd[i] = (tb->q[i] - tb->q[i - nc]) / (tb->t[r] - tb->t[r - 1]);
            }
        }
    }
    return PLN_OK;
}

/* ---- running ------------------------------------------------------------------------ */

static PlnStatus join(char *buf, size_t size, const char *dir, const char *name, char *err,
                      size_t err_size)
{
    if ((size_t)snprintf(buf, size, "%s/%s", dir, name) >= size) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s/%s: path too long", dir, name);
    }
    return PLN_OK;
}

static int simulate_ref(const PlnCliArgs *args, const PlnProblem *p, const PlnSimReference *ref,
                        const char *trajectory, const char *out_dir, int quiet, FILE *out,
                        FILE *errs)
{
    char err[1024], path[1200];
    PlnSimOptions o = pln_sim_options_default();
    PlnSimResult res;
    PlnStatus st;
    int code;
    o.speed = args->speed > 0.0 ? args->speed : 1.0;
    o.feedforward = !args->no_feedforward;
    if (args->mjcf != NULL) {
        PlnAtomicFile f;
        st = pln_atomic_open(&f, args->mjcf, err, sizeof err);
        if (st == PLN_OK) {
            st = pln_sim_write_mjcf(p, ref, f.fp, err, sizeof err);
            if (st == PLN_OK) st = pln_atomic_commit(&f, err, sizeof err);
            else pln_atomic_abort(&f);
        }
        if (st != PLN_OK) {
            fprintf(errs, "hrpplan simulate: %s\n", err);
            return pln_status_exit_code(st);
        }
    }
    st = pln_sim_run(p, ref, &o, &res, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan simulate: %s\n", err);
        pln_sim_result_destroy(&res);
        return pln_status_exit_code(st);
    }
    if (quiet) pln_sim_print_line(p, &res, out);
    else pln_sim_print(p, &res, out);
    code = res.ok ? PLN_EXIT_OK : PLN_EXIT_NOT_CERTIFIED;
    if (!res.ok) {
        /* the verdict on stderr too, so that it is seen with stdout redirected */
        fprintf(errs, "hrpplan simulate: ");
        pln_sim_print_line(p, &res, errs);
    }
    st = pln_output_mkdirs(out_dir, err, sizeof err);
    if (st == PLN_OK) st = join(path, sizeof path, out_dir, "sim.json", err, sizeof err);
    if (st == PLN_OK) st = pln_sim_write_json(path, p, &o, trajectory, &res, err, sizeof err);
    if (st == PLN_OK) st = join(path, sizeof path, out_dir, "sim.svg", err, sizeof err);
    if (st == PLN_OK) st = pln_sim_write_svg(path, p, &res, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan simulate: %s\n", err);
        code = pln_status_exit_code(st); /* the output set is abandoned */
    }
    pln_sim_result_destroy(&res);
    return code;
}

int pln_cmd_simulate_spline(const PlnCliArgs *args, const PlnProblem *p, const double *ctrl,
                            const char *trajectory, const char *out_dir, int quiet, FILE *out,
                            FILE *errs)
{
    SplineRef s = {p, ctrl};
    PlnSimReference ref = {p->scenario->duration, spline_state, &s};
    return simulate_ref(args, p, &ref, trajectory, out_dir, quiet, out, errs);
}

int pln_cmd_simulate(const PlnCliArgs *args, FILE *out, FILE *errs)
{
    char err[1024], dir[1100];
    PlnPlanOptions opt = pln_plan_options_default();
    PlnLoaded l;
    PlnStatus st;
    int code = PLN_EXIT_OK;
    opt.static_balance = args->static_balance;
    st = pln_plan_load(args->scenario, &opt, &l, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan simulate: %s\n", err);
        pln_plan_unload(&l);
        return pln_status_exit_code(st);
    }
    if (args->out_dir != NULL) snprintf(dir, sizeof dir, "%s", args->out_dir);
    else if (l.sc.out_dir[0] != '\0') snprintf(dir, sizeof dir, "%s", l.sc.out_dir);
    else snprintf(dir, sizeof dir, "out/%s", l.sc.name);
    if (has_suffix(args->trajectory, ".json")) {
        double *ctrl = calloc((size_t)l.p->n_active * l.p->n_ctrl + 1, sizeof *ctrl);
        if (ctrl == NULL) {
            fprintf(errs, "hrpplan simulate: out of memory\n");
            code = PLN_EXIT_INTERNAL;
        } else if ((st = pln_plan_read_trajectory_json(args->trajectory, l.p, ctrl, err,
                                                       sizeof err)) != PLN_OK) {
            fprintf(errs, "hrpplan simulate: %s\n", err);
            code = pln_status_exit_code(st);
        } else {
            code = pln_cmd_simulate_spline(args, l.p, ctrl, args->trajectory, dir, 0, out, errs);
        }
        free(ctrl);
    } else {
        PlnTable table;
        TableRef tr;
        memset(&tr, 0, sizeof tr);
        st = pln_table_read(args->trajectory, &table, err, sizeof err);
        if (st == PLN_OK) {
            st = table_ref_create(&tr, l.p, &table, args->trajectory, err, sizeof err);
            if (st == PLN_OK) {
                PlnSimReference ref = {table.t[table.n_rows - 1] - table.t[0], table_state, &tr};
                code = simulate_ref(args, l.p, &ref, args->trajectory, dir, 0, out, errs);
            }
            table_ref_destroy(&tr);
            pln_table_destroy(&table);
        }
        if (st != PLN_OK) {
            fprintf(errs, "hrpplan simulate: %s\n", err);
            code = pln_status_exit_code(st);
        }
    }
    pln_plan_unload(&l);
    return code;
}
