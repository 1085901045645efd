/* bench_dyn.c — speed of the rigid-body dynamics (planner/model/pln_dyn.c) on HRP-2
 * (robots/hrp2.yaml: 30 joints and a floating base, nv = 36), against MuJoCo (libmujoco,
 * Debian's 2.2.2) on the same model in the same run: the MJCF that `hrpplan export-mjcf`
 * writes, loaded by MuJoCo's compiler.
 *
 * Prints `name: value` lines:
 *   rnea_ns            inverse dynamics tau = ID(q, nu, nudot), from joint angles
 *                      (kinematics included)
 *   crba_ns            the 36 x 36 mass matrix (kinematics included)
 *   fd_ns              forward dynamics: RNEA bias + CRBA + LAPACKE Cholesky solve
 *   rnea_derivs_ns     d tau / d q, d tau / d nu (36 x 36 each) and M, with tau
 *   mujoco_rne_ns      baseline: what MuJoCo needs for the same tau from new joint
 *                      angles: mj_kinematics + mj_comPos + mj_comVel + mj_rne
 *   mujoco_fullm_ns    baseline: mj_kinematics + mj_comPos + mj_crb + mj_fullM (the dense
 *                      36 x 36 matrix, as ours)
 *   mujoco_forward_ns  baseline: mj_forward with contacts off (all of MuJoCo's forward
 *                      dynamics pipeline; ours is fd_ns)
 *   rnea_vs_mujoco, crba_vs_mujoco, fd_vs_mujoco
 *                      our time / MuJoCo's (< 1: ours is faster)
 * Timings: CPU time of the thread, median of 31 repeats of 2000 calls over 64 random states,
 * after a warm-up; within each repeat every kind runs once, in the order above. Run from
 * the top directory. */
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#include "../../tests/kin_fixture.h"
#include "model/pln_dyn.h"
#include "output/pln_mjcf.h"

#define REPEATS 31
#define CALLS 2000
#define STATES 64

typedef struct Bench {
    PlnRobot rb;
    PlnDynWork *w;
    mjModel *m;
    mjData *d;
    int nv, nj;
    double *q, *nu, *nud, *tau, *M, *DQ, *DV, *acc;
    double *mq, *mv, *ma; /* MuJoCo's qpos, qvel, qacc per state */
    PlnDynState s[STATES];
} Bench;

enum { RNEA, CRBA, FD, DERIVS, MJ_RNE, MJ_FULLM, MJ_FORWARD, N_KINDS };

static double run(Bench *b, int kind)
{
    double t0 = bench_cpu_ns();
    int c;
    char err[256];
    for (c = 0; c < CALLS; ++c) {
        int k = c % STATES;
        PlnDynState *s = &b->s[k];
        switch (kind) {
        case RNEA: pln_dyn_rnea(b->w, &b->rb, s, b->m->opt.gravity, b->tau); break;
        case CRBA: pln_dyn_crba(b->w, &b->rb, s, b->M); break;
        case FD:
            pln_dyn_forward(b->w, &b->rb, s, b->tau, b->m->opt.gravity, b->acc, err, sizeof err);
            break;
        case DERIVS:
            pln_dyn_rnea_derivatives(b->w, &b->rb, s, b->m->opt.gravity, b->tau, b->DQ, b->DV,
                                     b->M);
            break;
        default:
            memcpy(b->d->qpos, b->mq + (size_t)k * (size_t)b->m->nq,
                   (size_t)b->m->nq * sizeof(double));
            memcpy(b->d->qvel, b->mv + (size_t)k * (size_t)b->nv, (size_t)b->nv * sizeof(double));
            memcpy(b->d->qacc, b->ma + (size_t)k * (size_t)b->nv, (size_t)b->nv * sizeof(double));
            if (kind == MJ_FORWARD) {
                mj_forward(b->m, b->d);
                break;
            }
            mj_kinematics(b->m, b->d);
            mj_comPos(b->m, b->d);
            if (kind == MJ_RNE) {
                mj_comVel(b->m, b->d);
                mj_rne(b->m, b->d, 1, b->tau);
            } else {
                mj_crb(b->m, b->d);
                mj_fullM(b->m, b->M, b->d->qM);
            }
            break;
        }
    }
    return (bench_cpu_ns() - t0) / CALLS;
}

int main(void)
{
    static Bench b;
    char err[1000], dir[] = "/tmp/hrpplan_bench_dyn_XXXXXX", path[96];
    PlnMjcfOptions o = pln_mjcf_options_default();
    KfRng rng = {2026};
    double med[N_KINDS], t[N_KINDS][REPEATS];
    int i, k, kind, r;
    if (pln_robot_load("robots/hrp2.yaml", &b.rb, err, sizeof err) != PLN_OK ||
        pln_dyn_create(&b.rb, &b.w, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_dyn: %s\n", err);
        return 1;
    }
    /* MuJoCo's model from our MJCF, contacts off (dynamics of the tree only) */
    o.floor = 0;
    if (mkdtemp(dir) == NULL) return 1;
    snprintf(path, sizeof path, "%s/hrp2.xml", dir);
    if (pln_mjcf_write_file(&b.rb, &o, path, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_dyn: %s\n", err);
        return 1;
    }
    b.m = mj_loadXML(path, NULL, err, sizeof err);
    unlink(path);
    rmdir(dir);
    if (b.m == NULL) {
        fprintf(stderr, "bench_dyn: MuJoCo: %s\n", err);
        return 1;
    }
    b.m->opt.disableflags |= mjDSBL_CONTACT;
    b.d = mj_makeData(b.m);
    b.nv = pln_dyn_nv(b.w);
    b.nj = b.rb.n_joints;
    b.q = calloc((size_t)(STATES * b.nj), sizeof(double));
    b.nu = calloc((size_t)(STATES * b.nv), sizeof(double));
    b.nud = calloc((size_t)(STATES * b.nv), sizeof(double));
    b.tau = calloc((size_t)b.nv, sizeof(double));
    b.acc = calloc((size_t)b.nv, sizeof(double));
    b.M = calloc((size_t)(b.nv * b.nv), sizeof(double));
    b.DQ = calloc((size_t)(b.nv * b.nv), sizeof(double));
    b.DV = calloc((size_t)(b.nv * b.nv), sizeof(double));
    b.mq = calloc((size_t)(STATES * b.m->nq), sizeof(double));
    b.mv = calloc((size_t)(STATES * b.nv), sizeof(double));
    b.ma = calloc((size_t)(STATES * b.nv), sizeof(double));
    /* random states; MuJoCo's get random states of the same distribution (the timing, not
     * the values, is compared here; tests/check_pln_dyn.c compares the values) */
    for (k = 0; k < STATES; ++k) {
        PlnDynState *s = &b.s[k];
        double *q = b.q + k * b.nj, quat[4];
        memset(s, 0, sizeof *s);
        kf_random_rotation(&rng, s->base_rot);
        s->base_pos[2] = 0.65;
        for (i = 0; i < b.nj; ++i) q[i] = kf_uniform(&rng, -1.0, 1.0);
        for (i = 0; i < b.nv; ++i) {
            b.nu[k * b.nv + i] = b.mv[k * b.nv + i] = kf_uniform(&rng, -1.0, 1.0);
            b.nud[k * b.nv + i] = b.ma[k * b.nv + i] = kf_uniform(&rng, -2.0, 2.0);
        }
        s->q = q;
        s->nu = b.nu + k * b.nv;
        s->nudot = b.nud + k * b.nv;
        pln_mjcf_quat_from_matrix(s->base_rot, quat);
        b.mq[k * b.m->nq + 2] = 0.65;
        memcpy(b.mq + k * b.m->nq + 3, quat, sizeof quat);
        for (i = 7; i < b.m->nq; ++i) b.mq[k * b.m->nq + i] = kf_uniform(&rng, -1.0, 1.0);
    }
    for (kind = 0; kind < N_KINDS; ++kind) run(&b, kind); /* warm-up */
    /* the kinds take turns within each repeat, so that a change in the machine's load
     * during the run reaches all of them (ours and MuJoCo's) alike */
    for (r = 0; r < REPEATS; ++r) {
        for (kind = 0; kind < N_KINDS; ++kind) t[kind][r] = run(&b, kind);
    }
    for (kind = 0; kind < N_KINDS; ++kind) med[kind] = bench_median(t[kind], REPEATS);
    printf("dyn_model: hrp2 nv %d (30 joints + floating base), MuJoCo %s\n", b.nv, mj_versionString());
    printf("rnea_ns: %.0f\n", med[RNEA]);
    printf("crba_ns: %.0f\n", med[CRBA]);
    printf("fd_ns: %.0f\n", med[FD]);
    printf("rnea_derivs_ns: %.0f\n", med[DERIVS]);
    printf("mujoco_rne_ns: %.0f\n", med[MJ_RNE]);
    printf("mujoco_fullm_ns: %.0f\n", med[MJ_FULLM]);
    printf("mujoco_forward_ns: %.0f\n", med[MJ_FORWARD]);
    printf("rnea_vs_mujoco: %.2f\n", med[RNEA] / med[MJ_RNE]);
    printf("crba_vs_mujoco: %.2f\n", med[CRBA] / med[MJ_FULLM]);
    printf("fd_vs_mujoco: %.2f\n", med[FD] / med[MJ_FORWARD]);
    mj_deleteData(b.d);
    mj_deleteModel(b.m);
    pln_dyn_destroy(b.w);
    pln_robot_destroy(&b.rb);
    return 0;
}
