/* bench_kin.c — speed of kinematics and Taylor-model link motion (planner/model/pln_kin.c,
 * pln_taylor.c, pln_linkmotion.c) on a random 30-joint, 32-link humanoid tree
 * (tests/kin_fixture.h, seed 401; the same shape as HRP-2: waist, two 6-dof legs,
 * 2-dof chest, 2-dof head, two 7-dof arms, a fixed tool link).
 *
 * Prints `name: value` lines:
 *   fk_all_links_ns               forward kinematics of all 32 link frames, one q
 *   fk_homogeneous_ns             baseline in the same run: the textbook chain of 4x4
 *                                 homogeneous transforms T_parent T(origin) Rot(axis, q)
 *                                 with Rodrigues' matrix, for the same q
 *   fk_speedup                    fk_homogeneous_ns / fk_all_links_ns
 *   jacobian_point_ns             positional Jacobian (3 x 30) of a hand point
 *   jacobian_fd_ns                baseline in the same run: the same Jacobian by forward
 *                                 differences (31 forward kinematics)
 *   jacobian_com_ns               centre of mass Jacobian (3 x 30)
 *   taylor_link_motion_us         Taylor models (degree 5) of all links over one span,
 *                                 from quintic joint polynomials, incl. sin/cos and com
 *   taylor_link_motion_deg7_us    the same with degree-7 Taylor models (tighter, see
 *                                 docs/perf/kinematics.md)
 *   taylor_point_export_ns        one body point as a DstPolyPoint from those models
 *   fk_100_samples_us             baseline in the same run: FK of all links at 100 sample
 *                                 times of the same span (what a sampling check costs)
 *   taylor_vs_100_samples         taylor_link_motion_us / fk_100_samples_us
 *   taylor_err_max_m_a<A>_h<H>    largest enclosure radius (m) of a body point of any
 *                                 link, joint polynomials with coefficients A/k over the
 *                                 unit span, restricted to a sub-span of length H
 *   taylor_err_over_dev_a<A>_h<H> that radius over the largest true deviation of the FK
 *                                 point from the polynomial seen at 2000 sample times
 *                                 (how conservative the rigorous enclosure is)
 *   taylor_radius_n<N>_h<H>       largest link-position remainder radius (m) of degree-N
 *                                 models on a centred sub-span of length H of one motion
 *   taylor_order_n<N>_h<H>        log2 of the radius ratio between spans H and H/2: the
 *                                 measured convergence order (n + 1 expected)
 * Timings are the median of 51 short repeats (a few ms each, robust to other load on a
 * shared machine) after a warm-up. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"

#include "../../tests/kin_fixture.h"
#include "model/pln_kin.h"
#include "motion/pln_linkmotion.h"

#define REPEATS 51
#define N_Q 64
#define N_FK 2000
#define N_SPANS 20
#define DEG 5




/* baseline FK: 4x4 homogeneous transforms, row-major, per link
 * T_link = T_parent * T(origin_pos, origin_rot) * [Rot(axis, q) 0; 0 1] */
static void mat4_mul(const double *A, const double *B, double *C)
{
    int i, j, k;
    for (i = 0; i < 4; ++i) {
        for (j = 0; j < 4; ++j) {
            double s = 0.0;
            for (k = 0; k < 4; ++k) s += A[4 * i + k] * B[4 * k + j];
            C[4 * i + j] = s;
        }
    }
}

static void fk_homogeneous(const PlnRobot *rb, const double *q, double T[][16])
{
    int i, r, c;
    for (i = 0; i < rb->n_links; ++i) {
        const PlnLink *L = &rb->links[i];
        double Tb[16] = {0}, To[16] = {0}, Tj[16] = {0}, tmp[16];
        const double *Tp = Tb;
        if (L->parent < 0) {
            for (r = 0; r < 3; ++r) {
                for (c = 0; c < 3; ++c) Tb[4 * r + c] = rb->base_rot[3 * r + c];
                Tb[4 * r + 3] = rb->base_pos[r];
            }
            Tb[15] = 1.0;
        } else {
            Tp = T[L->parent];
        }
        for (r = 0; r < 3; ++r) {
            for (c = 0; c < 3; ++c) To[4 * r + c] = L->origin_rot[3 * r + c];
            To[4 * r + 3] = L->origin_pos[r];
        }
        To[15] = 1.0;
        if (L->joint >= 0) {
            double Rj[9];
            pln_kin_joint_rotation(rb->joints[L->joint].axis, q[L->joint], Rj);
            for (r = 0; r < 3; ++r) {
                for (c = 0; c < 3; ++c) Tj[4 * r + c] = Rj[3 * r + c];
            }
        } else {
            Tj[0] = Tj[5] = Tj[10] = 1.0;
        }
        Tj[15] = 1.0;
        mat4_mul(Tp, To, tmp);
        mat4_mul(tmp, Tj, T[i]);
    }
}

static double poly_s(const double *c, int deg, double s)
{
    double v = c[deg];
    int k;
    for (k = deg - 1; k >= 0; --k) v = v * s + c[k];
    return v;
}

/* joint polynomials with coefficients amp * U(-1,1)/k, restricted to [0.5-h/2, 0.5+h/2] */
static void make_span(KfRng *rng, double amp, double h, double *coef, double *qerr)
{
    double full[DEG + 1];
    int j, k;
    for (j = 0; j < 30; ++j) {
        full[0] = kf_uniform(rng, -1.5, 1.5);
        for (k = 1; k <= DEG; ++k) full[k] = amp * kf_uniform(rng, -1, 1) / k;
        qerr[j] = pln_linkmotion_restrict_poly(full, DEG, 0.5 - h / 2, 0.5 + h / 2,
                                               coef + (DEG + 1) * j);
    }
}

int main(void)
{
    static double qs[N_Q][30], J[90];
    static double coef[N_SPANS][30 * (DEG + 1)], qerr[N_SPANS][30];
    static double Th[32][16];
    double rep[REPEATS], sink = 0.0, fk_ns, fkh_ns, jp_ns, jfd_ns, jc_ns, tm_us, tm7_us, exp_ns,
        samp_us;
    double local[3] = {0.05, -0.02, -0.1};
    PlnRobot rb;
    PlnKinWork *kw = NULL;
    PlnLinkMotion *lm = NULL, *lm7 = NULL;
    KfRng rng = {20261122};
    char err[256];
    int r, i, k;

    if (kf_humanoid(&rb, 401) != 0 || pln_kin_create(&rb, &kw, err, sizeof err) != PLN_OK ||
        pln_linkmotion_create(&rb, DEG, &lm, err, sizeof err) != PLN_OK ||
        pln_linkmotion_create(&rb, 7, &lm7, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_kin: setup failed: %s\n", err);
        return 1;
    }
    for (i = 0; i < N_Q; ++i) {
        for (k = 0; k < 30; ++k) qs[i][k] = kf_uniform(&rng, -2, 2);
    }
    for (i = 0; i < N_SPANS; ++i) make_span(&rng, 0.3, 0.25, coef[i], qerr[i]);

    /* forward kinematics, Jacobians (warm-up = repeat 0 discarded by the median) */
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns();
        for (i = 0; i < N_FK; ++i) {
            pln_kin_forward(kw, &rb, qs[i % N_Q]);
            sink += pln_kin_link_pos(kw, 23)[0];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_FK;
    }
    fk_ns = bench_median(rep, REPEATS);
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns();
        for (i = 0; i < N_FK; ++i) {
            fk_homogeneous(&rb, qs[i % N_Q], Th);
            sink += Th[23][3];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_FK;
    }
    fkh_ns = bench_median(rep, REPEATS);
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns();
        for (i = 0; i < N_FK; ++i) {
            pln_kin_jacobian_point(kw, &rb, 23 + (i & 7), local, J);
            sink += J[17];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_FK;
    }
    jp_ns = bench_median(rep, REPEATS);
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns(), q[30], x0[3], x1[3];
        int j, reps = N_FK / 50;
        for (i = 0; i < reps; ++i) {
            const double *qi = qs[i % N_Q];
            pln_kin_forward(kw, &rb, qi);
            pln_kin_point(kw, 23, local, x0);
            for (j = 0; j < 30; ++j) {
                for (k = 0; k < 30; ++k) q[k] = qi[k];
                q[j] += 1e-7;
                pln_kin_forward(kw, &rb, q);
                pln_kin_point(kw, 23, local, x1);
                J[j] = (x1[0] - x0[0]) * 1e7;
                J[30 + j] = (x1[1] - x0[1]) * 1e7;
                J[60 + j] = (x1[2] - x0[2]) * 1e7;
            }
            sink += J[17];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / reps;
    }
    jfd_ns = bench_median(rep, REPEATS);
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns();
        for (i = 0; i < N_FK; ++i) {
            pln_kin_jacobian_com(kw, &rb, J);
            sink += J[5];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_FK;
    }
    jc_ns = bench_median(rep, REPEATS);

    /* Taylor models of all links over one span */
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns();
        for (i = 0; i < N_SPANS; ++i) {
            pln_linkmotion_compute(lm, &rb, coef[i], DEG, qerr[i], err, sizeof err);
            sink += pln_linkmotion_pos(lm, 23)[0].c[0];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_SPANS / 1e3;
    }
    tm_us = bench_median(rep, REPEATS);
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns();
        for (i = 0; i < N_SPANS; ++i) {
            pln_linkmotion_compute(lm7, &rb, coef[i], DEG, qerr[i], err, sizeof err);
            sink += pln_linkmotion_pos(lm7, 23)[0].c[0];
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_SPANS / 1e3;
    }
    tm7_us = bench_median(rep, REPEATS);
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        DstPolyPoint pp;
        double t0 = bench_wall_ns();
        for (i = 0; i < N_FK; ++i) {
            pln_linkmotion_point(lm, 1 + (i % 31), local, &pp);
            sink += pp.err;
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / N_FK;
    }
    exp_ns = bench_median(rep, REPEATS);

    /* baseline: FK at 100 sample times of the same spans */
    for (r = -1; r < REPEATS; ++r) { /* r = -1 is the warm-up */
        double t0 = bench_wall_ns(), q[30];
        int s, j;
        for (i = 0; i < N_SPANS / 10; ++i) {
            for (s = 0; s < 100; ++s) {
                for (j = 0; j < 30; ++j) q[j] = poly_s(coef[i] + (DEG + 1) * j, DEG, s / 99.0);
                pln_kin_forward(kw, &rb, q);
                sink += pln_kin_link_pos(kw, 23)[0];
            }
        }
        if (r >= 0) rep[r] = (bench_wall_ns() - t0) / (N_SPANS / 10) / 1e3;
    }
    samp_us = bench_median(rep, REPEATS);

    printf("fk_all_links_ns: %.1f\n", fk_ns);
    printf("fk_homogeneous_ns: %.1f\n", fkh_ns);
    printf("fk_speedup: %.2f\n", fkh_ns / fk_ns);
    printf("jacobian_point_ns: %.1f\n", jp_ns);
    printf("jacobian_fd_ns: %.1f\n", jfd_ns);
    printf("jacobian_com_ns: %.1f\n", jc_ns);
    printf("taylor_link_motion_us: %.2f\n", tm_us);
    printf("taylor_link_motion_deg7_us: %.2f\n", tm7_us);
    printf("taylor_point_export_ns: %.1f\n", exp_ns);
    printf("fk_100_samples_us: %.2f\n", samp_us);
    printf("taylor_vs_100_samples: %.2f\n", tm_us / samp_us);

    /* enclosure size and conservatism over motion amplitude and span length */
    {
        static const double amps[3] = {0.05, 0.3, 1.0}, hs[3] = {1.0, 0.25, 0.0625};
        int a, h;
        for (a = 0; a < 3; ++a) {
            for (h = 0; h < 3; ++h) {
                double c[30 * (DEG + 1)], qe[30], q[30], emax = 0.0, dmax = 0.0;
                DstPolyPoint pts[32];
                KfRng r2 = {7};
                int s, j, l;
                make_span(&r2, amps[a], hs[h], c, qe);
                pln_linkmotion_compute(lm, &rb, c, DEG, qe, err, sizeof err);
                for (l = 0; l < rb.n_links; ++l) {
                    pln_linkmotion_point(lm, l, local, &pts[l]);
                    emax = fmax(emax, pts[l].err);
                }
                for (s = 0; s < 2000; ++s) {
                    double sv = s / 1999.0;
                    for (j = 0; j < 30; ++j) q[j] = poly_s(c + (DEG + 1) * j, DEG, sv);
                    pln_kin_forward(kw, &rb, q);
                    for (l = 0; l < rb.n_links; ++l) {
                        double x[3], d2 = 0.0;
                        int d;
                        pln_kin_point(kw, l, local, x);
                        for (d = 0; d < 3; ++d) {
                            double v = pts[l].c[DEG][d];
                            for (k = DEG - 1; k >= 0; --k) v = v * sv + pts[l].c[k][d];
                            d2 += (v - x[d]) * (v - x[d]);
                        }
                        dmax = fmax(dmax, sqrt(d2));
                    }
                }
                printf("taylor_err_max_m_a%g_h%g: %.3e\n", amps[a], hs[h], emax);
                printf("taylor_err_over_dev_a%g_h%g: %.1f\n", amps[a], hs[h],
                       emax / fmax(dmax, 1e-300));
            }
        }
    }
    /* convergence order under span halving, degrees 2..7 */
    {
        double full[30 * (DEG + 1)], sub[30 * (DEG + 1)], qe[30], w[6];
        KfRng r3 = {301};
        int n, l, j;
        for (j = 0; j < 30; ++j) {
            full[j * (DEG + 1)] = kf_uniform(&r3, -1.5, 1.5);
            for (k = 1; k <= DEG; ++k) full[j * (DEG + 1) + k] = kf_uniform(&r3, -1, 1);
        }
        for (n = 2; n <= 7; ++n) {
            PlnLinkMotion *ln = NULL;
            if (pln_linkmotion_create(&rb, n, &ln, err, sizeof err) != PLN_OK) return 1;
            for (l = 0; l < 6; ++l) {
                double h = 0.5 / (1 << l);
                for (j = 0; j < 30; ++j) {
                    qe[j] = pln_linkmotion_restrict_poly(full + (DEG + 1) * j, DEG, 0.5 - h / 2,
                                                         0.5 + h / 2, sub + (DEG + 1) * j);
                }
                pln_linkmotion_compute(ln, &rb, sub, DEG, qe, err, sizeof err);
                w[l] = 0.0;
                for (i = 0; i < rb.n_links; ++i) w[l] = fmax(w[l], pln_linkmotion_pos_err(ln, i));
                printf("taylor_radius_n%d_h1/%d: %.2e\n", n, 2 << l, w[l]);
            }
            for (l = 0; l + 1 < 6; ++l) {
                printf("taylor_order_n%d_h1/%d: %.2f\n", n, 2 << l, log2(w[l] / w[l + 1]));
            }
            pln_linkmotion_destroy(ln);
        }
    }
    if (sink == 12345.678) printf("#\n"); /* keeps the results alive */
    pln_linkmotion_destroy(lm);
    pln_linkmotion_destroy(lm7);
    pln_kin_destroy(kw);
    kf_robot_free(&rb);
    return 0;
}
