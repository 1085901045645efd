/* check_pln_dyn.c — tests of planner/model/pln_dyn.c: the analytic derivatives of inverse
 * dynamics against central finite differences, the CRBA against the RNEA, forward
 * dynamics against inverse dynamics, energy and momentum conservation, fixed joints, bad
 * input, and MuJoCo (libmujoco, an engine nobody here wrote) as the oracle of the mass
 * matrix and of inverse dynamics on >= 1000 random states of HRP-2. */
#include <check.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kin_fixture.h"
#include "model/pln_dyn.h"
#include "model/pln_dyn_internal.h"
#include "model/pln_kin.h"
#include "output/pln_mjcf.h"

/* central-difference step (rad, m, rad/s) and the relative agreement the issue asks of
 * the analytic derivatives: truncation h^2 |tau'''| ~ 1e-10 and cancellation
 * 1e-16 |tau| / h ~ 1e-8 relative to the largest entry */
#define DYN_FD_STEP 1e-6
#define DYN_FD_REL_TOL 1e-6
/* random states per robot in the derivative test */
#define DYN_FD_TRIALS 8
/* ID(FD(tau)) = tau, relative to max |tau|: Cholesky of a 36 x 36 mass matrix whose
 * condition number is ~1e4 loses a few digits */
#define DYN_ROUNDTRIP_REL_TOL 1e-10
/* identities that hold to rounding (CRBA vs RNEA, symmetry, momenta), relative */
#define DYN_ROUND_REL_TOL 1e-12
/* energy drift over 1 s of RK4 at 1e-4 s, relative (the bound) */
#define DYN_ENERGY_REL_TOL 1e-8
#define DYN_RK4_STEP 1e-4
/* MuJoCo oracle: states and the relative agreement (the bound) */
#define DYN_MJ_STATES 1000
#define DYN_MJ_REL_TOL 1e-9
/* pln_dyn_sincos against libm, in units in the last place of libm's value (dynamics.md
 * D33: one unit on 4 million random angles; two allowed) */
#define DYN_SINCOS_ULPS 2.0
#define DYN_SINCOS_ANGLES 400000

static const double GRAVITY[3] = {0.0, 0.0, -PLN_GRAVITY_MS2};

static double max_abs(const double *a, int n)
{
    double m = 0.0;
    int i;
    for (i = 0; i < n; ++i) m = fmax(m, fabs(a[i]));
    return m;
}

/* a random state: any base pose, joints in [-2, 2], velocities in [-1, 1], accelerations
 * in [-2, 2] */
static void random_state(KfRng *rng, int nj, int nv, PlnDynState *s, double *q, double *nu,
                         double *nudot)
{
    int i;
    memset(s, 0, sizeof *s);
    kf_random_rotation(rng, s->base_rot);
    for (i = 0; i < 3; ++i) s->base_pos[i] = kf_uniform(rng, -1.0, 1.0);
    for (i = 0; i < nj; ++i) q[i] = kf_uniform(rng, -2.0, 2.0);
    for (i = 0; i < nv; ++i) {
        nu[i] = kf_uniform(rng, -1.0, 1.0);
        nudot[i] = kf_uniform(rng, -2.0, 2.0);
    }
    s->q = q;
    s->nu = nu;
    s->nudot = nudot;
}

/* the configuration moved along tangent c by eps: a joint angle, or the base screw
 * e_c (turn about the world origin, then shift), exactly as pln_dyn.h defines it */
static void move_config(const PlnDynState *s, int nj, int c, double eps, double *q,
                        PlnDynState *o)
{
    int i, k;
    *o = *s;
    memcpy(q, s->q, (size_t)nj * sizeof(double));
    o->q = q;
    if (c >= 6) {
        q[c - 6] += eps;
        return;
    }
    if (c < 3) {
        double axis[3] = {0, 0, 0}, Rr[9];
        axis[c] = 1.0;
        pln_kin_joint_rotation(axis, eps, Rr);
        for (i = 0; i < 3; ++i) {
            o->base_pos[i] = Rr[3 * i] * s->base_pos[0] + Rr[3 * i + 1] * s->base_pos[1] +
                             Rr[3 * i + 2] * s->base_pos[2];
            for (k = 0; k < 3; ++k) {
                o->base_rot[3 * i + k] = Rr[3 * i] * s->base_rot[k] +
                                         Rr[3 * i + 1] * s->base_rot[3 + k] +
                                         Rr[3 * i + 2] * s->base_rot[6 + k];
            }
        }
    } else {
        o->base_pos[c - 3] += eps;
    }
}

/* every column of dtau/dq, dtau/dnu and M against central differences of the RNEA */
static void check_derivatives(const PlnRobot *rb, uint64_t seed)
{
    PlnDynWork *w = NULL;
    char err[256];
    KfRng rng = {seed};
    int nv, nj = rb->n_joints, trial, c, r;
    double *q, *q2, *nu, *nud, *x, *tp, *tm, *DQ, *DV, *M, *tau;
    ck_assert_int_eq(pln_dyn_create(rb, &w, err, sizeof err), PLN_OK);
    nv = pln_dyn_nv(w);
    q = calloc((size_t)nj + 1, sizeof *q);
    q2 = calloc((size_t)nj + 1, sizeof *q2);
    nu = calloc((size_t)nv, sizeof *nu);
    nud = calloc((size_t)nv, sizeof *nud);
    x = calloc((size_t)nv, sizeof *x);
    tp = calloc((size_t)nv, sizeof *tp);
    tm = calloc((size_t)nv, sizeof *tm);
    tau = calloc((size_t)nv, sizeof *tau);
    DQ = calloc((size_t)(nv * nv), sizeof *DQ);
    DV = calloc((size_t)(nv * nv), sizeof *DV);
    M = calloc((size_t)(nv * nv), sizeof *M);
    for (trial = 0; trial < DYN_FD_TRIALS; ++trial) {
        PlnDynState s, o;
        double scale[3] = {0, 0, 0}, worst[3] = {0, 0, 0};
        random_state(&rng, nj, nv, &s, q, nu, nud);
        ck_assert_int_eq(pln_dyn_rnea_derivatives(w, rb, &s, GRAVITY, tau, DQ, DV, M), PLN_OK);
        /* pln_dyn_rnea works in link coordinates (dynamics.md D28-D30), the derivatives in
         * world coordinates (D3-D5): the same tau to rounding */
        ck_assert_int_eq(pln_dyn_rnea(w, rb, &s, GRAVITY, tp), PLN_OK);
        for (r = 0; r < nv; ++r) {
            ck_assert_msg(fabs(tp[r] - tau[r]) <= DYN_ROUND_REL_TOL * fmax(1.0, max_abs(tau, nv)),
                          "%s trial %d: tau[%d] link frame %.17g, world %.17g", rb->name, trial,
                          r, tp[r], tau[r]);
        }
        for (c = 0; c < nv; ++c) {
            for (int kind = 0; kind < 3; ++kind) {
                /* column c of d tau/d q (configuration), d tau/d nu, M = d tau/d nudot */
                const double *A = kind == 0 ? DQ : (kind == 1 ? DV : M);
                const double *base = kind == 1 ? nu : nud;
                for (int sign = -1; sign <= 1; sign += 2) {
                    double *out = sign > 0 ? tp : tm;
                    if (kind == 0) {
                        move_config(&s, nj, c, sign * DYN_FD_STEP, q2, &o);
                    } else {
                        o = s;
                        memcpy(x, base, (size_t)nv * sizeof *x);
                        x[c] += sign * DYN_FD_STEP;
                        if (kind == 1) o.nu = x;
                        else o.nudot = x;
                    }
                    ck_assert_int_eq(pln_dyn_rnea(w, rb, &o, GRAVITY, out), PLN_OK);
                }
                for (r = 0; r < nv; ++r) {
                    double fd = (tp[r] - tm[r]) / (2.0 * DYN_FD_STEP);
                    scale[kind] = fmax(scale[kind], fabs(fd));
                    worst[kind] = fmax(worst[kind], fabs(fd - A[r * nv + c]));
                }
            }
        }
        for (c = 0; c < 3; ++c) {
            if (worst[c] > DYN_FD_REL_TOL * fmax(1.0, scale[c])) {
                ck_abort_msg("%s trial %d: d tau/d %s off by %.3g (largest entry %.3g)", rb->name,
                             trial, c == 0 ? "q" : (c == 1 ? "nu" : "nudot"), worst[c],
                             scale[c]);
            }
        }
    }
    free(q);
    free(q2);
    free(nu);
    free(nud);
    free(x);
    free(tp);
    free(tm);
    free(tau);
    free(DQ);
    free(DV);
    free(M);
    pln_dyn_destroy(w);
}

START_TEST(test_derivatives_fd_hrp2)
{
    PlnRobot rb;
    char err[512];
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    check_derivatives(&rb, 11);
    /* every other axis reversed: the coordinate-axis turns of D28 with a = -e_k */
    for (int j = 1; j < rb.n_joints; j += 2) {
        for (int k = 0; k < 3; ++k) rb.joints[j].axis[k] = -rb.joints[j].axis[k];
    }
    check_derivatives(&rb, 16);
    pln_robot_destroy(&rb);
}
END_TEST

/* a tree whose links are not in depth-first order, with a massless-inertia tool link */
START_TEST(test_derivatives_fd_random_tree)
{
    PlnRobot rb;
    int i;
    ck_assert_int_eq(kf_humanoid(&rb, 5), 0);
    for (i = 0; i < rb.n_links; ++i) {
        rb.links[i].inertia[0] = rb.links[i].inertia[4] = rb.links[i].inertia[8] = 0.01;
    }
    check_derivatives(&rb, 12);
    kf_robot_free(&rb);
}
END_TEST

START_TEST(test_derivatives_fd_arm3)
{
    PlnRobot rb;
    char err[512];
    ck_assert_msg(pln_robot_load("tests/data/arm3.yaml", &rb, err, sizeof err) == PLN_OK, "%s",
                  err);
    check_derivatives(&rb, 13);
    pln_robot_destroy(&rb);
}
END_TEST

/* the random tree with five prismatic joints (S = [0; a], dynamics.md D1b), one in every
 * chain, sliding by up to +-2 m in the random states */
START_TEST(test_derivatives_fd_prismatic_tree)
{
    PlnRobot rb;
    int i;
    ck_assert_int_eq(kf_humanoid(&rb, 6), 0);
    kf_humanoid_prismatic(&rb);
    for (i = 0; i < rb.n_links; ++i) {
        rb.links[i].inertia[0] = rb.links[i].inertia[4] = rb.links[i].inertia[8] = 0.01;
    }
    check_derivatives(&rb, 14);
    kf_robot_free(&rb);
}
END_TEST

/* tests/data/arm3p.yaml: a yaw, a vertical lift and a horizontal slide */
START_TEST(test_derivatives_fd_arm3p)
{
    PlnRobot rb;
    char err[512];
    ck_assert_msg(pln_robot_load("tests/data/arm3p.yaml", &rb, err, sizeof err) == PLN_OK, "%s",
                  err);
    check_derivatives(&rb, 15);
    pln_robot_destroy(&rb);
}
END_TEST

/* M nudot = RNEA(nudot) - RNEA(0), M symmetric; ID(FD(tau)) = tau */
START_TEST(test_crba_and_forward_consistent)
{
    PlnRobot rb;
    PlnDynWork *w = NULL;
    char err[512];
    KfRng rng = {21};
    int nv, nj, trial, r, c;
    double *q, *nu, *nud, *M, *t1, *t0, *tau, *acc;
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    nv = pln_dyn_nv(w);
    nj = rb.n_joints;
    ck_assert_int_eq(nv, 6 + nj);
    q = calloc((size_t)nj, sizeof *q);
    nu = calloc((size_t)nv, sizeof *nu);
    nud = calloc((size_t)nv, sizeof *nud);
    t1 = calloc((size_t)nv, sizeof *t1);
    t0 = calloc((size_t)nv, sizeof *t0);
    tau = calloc((size_t)nv, sizeof *tau);
    acc = calloc((size_t)nv, sizeof *acc);
    M = calloc((size_t)(nv * nv), sizeof *M);
    for (trial = 0; trial < 50; ++trial) {
        PlnDynState s, z;
        double scale, worst = 0.0;
        random_state(&rng, nj, nv, &s, q, nu, nud);
        ck_assert_int_eq(pln_dyn_crba(w, &rb, &s, M), PLN_OK);
        ck_assert_int_eq(pln_dyn_rnea(w, &rb, &s, GRAVITY, t1), PLN_OK);
        z = s;
        z.nudot = NULL;
        ck_assert_int_eq(pln_dyn_rnea(w, &rb, &z, GRAVITY, t0), PLN_OK);
        scale = fmax(max_abs(M, nv * nv), max_abs(t1, nv));
        for (r = 0; r < nv; ++r) {
            double v = 0.0;
            for (c = 0; c < nv; ++c) {
                v += M[r * nv + c] * nud[c];
                worst = fmax(worst, fabs(M[r * nv + c] - M[c * nv + r]));
            }
            worst = fmax(worst, fabs(v - (t1[r] - t0[r])));
        }
        ck_assert_msg(worst <= DYN_ROUND_REL_TOL * scale, "M nudot vs RNEA: %.3g", worst);
        /* forward dynamics of random torques, then back */
        for (r = 0; r < nv; ++r) tau[r] = kf_uniform(&rng, -50.0, 50.0);
        ck_assert_int_eq(pln_dyn_forward(w, &rb, &s, tau, GRAVITY, acc, err, sizeof err), PLN_OK);
        z = s;
        z.nudot = acc;
        ck_assert_int_eq(pln_dyn_rnea(w, &rb, &z, GRAVITY, t1), PLN_OK);
        worst = 0.0;
        for (r = 0; r < nv; ++r) worst = fmax(worst, fabs(t1[r] - tau[r]));
        ck_assert_msg(worst <= DYN_ROUNDTRIP_REL_TOL * max_abs(tau, nv), "ID(FD(tau)): %.3g",
                      worst);
    }
    free(q);
    free(nu);
    free(nud);
    free(t1);
    free(t0);
    free(tau);
    free(acc);
    free(M);
    pln_dyn_destroy(w);
    pln_robot_destroy(&rb);
}
END_TEST

/* the time derivative of a full state (base pose, q, nu) under zero torque, no gravity:
 * p' = v_O + w x p, R' = [w]x R, q' = nu[6..], nu' = FD */
static void state_rate(PlnDynWork *w, const PlnRobot *rb, const double *y, int nj, int nv,
                       double *dy)
{
    PlnDynState s;
    const double *nu = y + 12 + nj, *om = nu;
    double *zero = dy + 12 + nj; /* reused: zero torque first, then nu' */
    char err[256];
    int i, k;
    memset(&s, 0, sizeof s);
    memcpy(s.base_pos, y, 3 * sizeof(double));
    memcpy(s.base_rot, y + 3, 9 * sizeof(double));
    s.q = y + 12;
    s.nu = nu;
    dy[0] = nu[3] + om[1] * y[2] - om[2] * y[1];
    dy[1] = nu[4] + om[2] * y[0] - om[0] * y[2];
    dy[2] = nu[5] + om[0] * y[1] - om[1] * y[0];
    for (k = 0; k < 3; ++k) {
        const double col[3] = {y[3 + k], y[6 + k], y[9 + k]};
        dy[3 + k] = om[1] * col[2] - om[2] * col[1];
        dy[6 + k] = om[2] * col[0] - om[0] * col[2];
        dy[9 + k] = om[0] * col[1] - om[1] * col[0];
    }
    for (i = 0; i < nj; ++i) dy[12 + i] = nu[6 + i];
    {
        double *tau = calloc((size_t)nv, sizeof *tau);
        ck_assert_int_eq(pln_dyn_forward(w, rb, &s, tau, NULL, zero, err, sizeof err), PLN_OK);
        free(tau);
    }
}

/* kinetic energy of a free-floating HRP-2 with no gravity and no torque is conserved
 * over 1 s of RK4 at 1e-4 s; so are its linear and angular momentum */
START_TEST(test_energy_conserved_free_floating)
{
    PlnRobot rb;
    PlnDynWork *w = NULL;
    char err[512];
    KfRng rng = {31};
    int nj, nv, n, i, step;
    double *y, *k1, *k2, *k3, *k4, *tmp, e0, e1, com[3], h0[6], h1[6];
    PlnDynState s;
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    nj = rb.n_joints;
    nv = pln_dyn_nv(w);
    n = 12 + nj + nv;
    y = calloc((size_t)n, sizeof *y);
    k1 = calloc((size_t)n, sizeof *k1);
    k2 = calloc((size_t)n, sizeof *k2);
    k3 = calloc((size_t)n, sizeof *k3);
    k4 = calloc((size_t)n, sizeof *k4);
    tmp = calloc((size_t)n, sizeof *tmp);
    y[2] = 0.7;
    kf_random_rotation(&rng, y + 3);
    for (i = 0; i < nj; ++i) y[12 + i] = kf_uniform(&rng, -1.0, 1.0);
    for (i = 0; i < nv; ++i) y[12 + nj + i] = kf_uniform(&rng, -1.0, 1.0);
#define DYN_SET_STATE(Y)                                                                    \
    do {                                                                                    \
        memset(&s, 0, sizeof s);                                                            \
        memcpy(s.base_pos, (Y), 3 * sizeof(double));                                       \
        memcpy(s.base_rot, (Y) + 3, 9 * sizeof(double));                                    \
        s.q = (Y) + 12;                                                                     \
        s.nu = (Y) + 12 + nj;                                                               \
    } while (0)
    DYN_SET_STATE(y);
    ck_assert_int_eq(pln_dyn_kinetic_energy(w, &rb, &s, &e0), PLN_OK);
    ck_assert_int_eq(pln_dyn_centroidal(w, &rb, &s, com, h0, NULL), PLN_OK);
    ck_assert(e0 > 1.0);
    for (step = 0; step < (int)lround(1.0 / DYN_RK4_STEP); ++step) {
        const double h = DYN_RK4_STEP;
        state_rate(w, &rb, y, nj, nv, k1);
        for (i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k1[i];
        state_rate(w, &rb, tmp, nj, nv, k2);
        for (i = 0; i < n; ++i) tmp[i] = y[i] + 0.5 * h * k2[i];
        state_rate(w, &rb, tmp, nj, nv, k3);
        for (i = 0; i < n; ++i) tmp[i] = y[i] + h * k3[i];
        state_rate(w, &rb, tmp, nj, nv, k4);
        for (i = 0; i < n; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    DYN_SET_STATE(y);
#undef DYN_SET_STATE
    ck_assert_int_eq(pln_dyn_kinetic_energy(w, &rb, &s, &e1), PLN_OK);
    ck_assert_msg(fabs(e1 - e0) <= DYN_ENERGY_REL_TOL * e0, "energy %.17g -> %.17g", e0, e1);
    ck_assert_int_eq(pln_dyn_centroidal(w, &rb, &s, com, h1, NULL), PLN_OK);
    for (i = 0; i < 6; ++i) {
        ck_assert_msg(fabs(h1[i] - h0[i]) <= DYN_ENERGY_REL_TOL * fmax(1.0, max_abs(h0, 6)),
                      "momentum %d: %.17g -> %.17g", i, h0[i], h1[i]);
    }
    free(y);
    free(k1);
    free(k2);
    free(k3);
    free(k4);
    free(tmp);
    pln_dyn_destroy(w);
    pln_robot_destroy(&rb);
}
END_TEST

/* the centroidal momentum is the base rows of M nu moved to the centre of mass, and with
 * joint torques but no base wrench its rate is gravity's alone */
START_TEST(test_centroidal_momentum)
{
    PlnRobot rb;
    PlnDynWork *w = NULL;
    char err[512];
    KfRng rng = {41};
    int nv, nj, r, c, trial;
    double *q, *nu, *nud, *M, *tau, *acc, com[3], com2[3], h[6], hd[6], Mnu[6], t[3];
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    nv = pln_dyn_nv(w);
    nj = rb.n_joints;
    q = calloc((size_t)nj, sizeof *q);
    nu = calloc((size_t)nv, sizeof *nu);
    nud = calloc((size_t)nv, sizeof *nud);
    tau = calloc((size_t)nv, sizeof *tau);
    acc = calloc((size_t)nv, sizeof *acc);
    M = calloc((size_t)(nv * nv), sizeof *M);
    for (trial = 0; trial < 20; ++trial) {
        PlnDynState s, a;
        random_state(&rng, nj, nv, &s, q, nu, nud);
        ck_assert_int_eq(pln_dyn_crba(w, &rb, &s, M), PLN_OK);
        ck_assert_int_eq(pln_dyn_centroidal(w, &rb, &s, com, h, NULL), PLN_OK);
        for (r = 0; r < 6; ++r) {
            Mnu[r] = 0.0;
            for (c = 0; c < nv; ++c) Mnu[r] += M[r * nv + c] * nu[c];
        }
        /* L_G = L_O - c x p */
        t[0] = com[1] * Mnu[5] - com[2] * Mnu[4];
        t[1] = com[2] * Mnu[3] - com[0] * Mnu[5];
        t[2] = com[0] * Mnu[4] - com[1] * Mnu[3];
        for (r = 0; r < 3; ++r) {
            ck_assert_double_eq_tol(h[r], Mnu[r] - t[r], DYN_ROUND_REL_TOL * max_abs(Mnu, 6));
            ck_assert_double_eq_tol(h[3 + r], Mnu[3 + r], DYN_ROUND_REL_TOL * max_abs(Mnu, 6));
        }
        /* the centre of mass is M's first moment: c = h_base / m */
        ck_assert_double_eq_tol(M[3 * nv + 3], rb.total_mass, DYN_ROUND_REL_TOL * rb.total_mass);
        com2[0] = M[2 * nv + 4] / M[3 * nv + 3];  /* Ibar-block coupling [h]x: M(2,4) = h_x */
        ck_assert_double_eq_tol(com2[0], com[0], 1e-12);
        /* joint torques only: the momentum changes by gravity alone */
        for (r = 0; r < nv; ++r) tau[r] = r < 6 ? 0.0 : kf_uniform(&rng, -30.0, 30.0);
        ck_assert_int_eq(pln_dyn_forward(w, &rb, &s, tau, GRAVITY, acc, err, sizeof err), PLN_OK);
        a = s;
        a.nudot = acc;
        ck_assert_int_eq(pln_dyn_centroidal(w, &rb, &a, com, NULL, hd), PLN_OK);
        for (r = 0; r < 3; ++r) {
            ck_assert_double_eq_tol(hd[r], 0.0, 1e-9 * rb.total_mass);
            ck_assert_double_eq_tol(hd[3 + r], rb.total_mass * GRAVITY[r], 1e-9 * rb.total_mass);
        }
    }
    free(q);
    free(nu);
    free(nud);
    free(tau);
    free(acc);
    free(M);
    pln_dyn_destroy(w);
    pln_robot_destroy(&rb);
}
END_TEST

/* a fixed joint keeps its index with a decoupled unit inertia */
START_TEST(test_fixed_joint_decoupled)
{
    PlnRobot rb;
    PlnDynWork *w = NULL;
    char err[256];
    KfRng rng = {51};
    double q[3], nu[9], nud[9], M[81], tau[9], acc[9], back[9];
    PlnDynState s;
    int i;
    ck_assert_int_eq(kf_robot_alloc(&rb, 4, 3), 0);
    for (i = 1; i < 4; ++i) {
        kf_connect(&rb, i, i - 1, i - 1);
        rb.links[i].origin_pos[0] = 0.3;
        rb.links[i].mass = 1.0 + i;
        rb.links[i].com[0] = 0.1;
        rb.links[i].inertia[0] = rb.links[i].inertia[4] = rb.links[i].inertia[8] = 0.02;
        rb.joints[i - 1].axis[2] = 0.0;
        rb.joints[i - 1].axis[1] = 1.0;
    }
    rb.links[0].mass = 3.0;
    rb.links[0].inertia[0] = rb.links[0].inertia[4] = rb.links[0].inertia[8] = 0.05;
    rb.joints[1].type = PLN_JOINT_FIXED;
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    random_state(&rng, 3, 9, &s, q, nu, nud);
    ck_assert_int_eq(pln_dyn_crba(w, &rb, &s, M), PLN_OK);
    for (i = 0; i < 9; ++i) {
        ck_assert_double_eq(M[7 * 9 + i], i == 7 ? 1.0 : 0.0);
        ck_assert_double_eq(M[i * 9 + 7], i == 7 ? 1.0 : 0.0);
    }
    ck_assert_int_eq(pln_dyn_rnea(w, &rb, &s, GRAVITY, tau), PLN_OK);
    ck_assert_double_eq(tau[7], nud[7]);
    for (i = 0; i < 9; ++i) tau[i] = kf_uniform(&rng, -5.0, 5.0);
    ck_assert_int_eq(pln_dyn_forward(w, &rb, &s, tau, GRAVITY, acc, err, sizeof err), PLN_OK);
    s.nudot = acc;
    ck_assert_int_eq(pln_dyn_rnea(w, &rb, &s, GRAVITY, back), PLN_OK);
    for (i = 0; i < 9; ++i) ck_assert_double_eq_tol(back[i], tau[i], 1e-10 * 5.0);
    pln_dyn_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

START_TEST(test_bad_input)
{
    PlnRobot rb;
    PlnDynWork *w = NULL;
    char err[256];
    double q[2] = {0.1, 0.2}, tau[8], M[64], acc[8] = {0};
    PlnDynState s;
    int i;
    ck_assert_int_eq(kf_robot_alloc(&rb, 3, 2), 0);
    kf_connect(&rb, 1, 0, 0);
    kf_connect(&rb, 2, 1, 1);
    rb.links[2].origin_pos[0] = 0.5;
    ck_assert_int_eq(pln_dyn_create(&rb, NULL, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    memset(&s, 0, sizeof s);
    kf_identity(s.base_rot);
    s.q = q;
    /* a NaN anywhere is refused and tau left alone */
    q[1] = NAN;
    tau[0] = 42.0;
    ck_assert_int_eq(pln_dyn_rnea(w, &rb, &s, GRAVITY, tau), PLN_ERR_INVALID);
    ck_assert_double_eq(tau[0], 42.0);
    q[1] = 0.2;
    s.base_pos[2] = INFINITY;
    ck_assert_int_eq(pln_dyn_crba(w, &rb, &s, M), PLN_ERR_INVALID);
    s.base_pos[2] = 0.0;
    ck_assert_int_eq(pln_dyn_rnea(w, &rb, NULL, GRAVITY, tau), PLN_ERR_INVALID);
    /* no mass anywhere: the mass matrix is singular and forward dynamics says so */
    for (i = 0; i < 8; ++i) tau[i] = 0.0;
    ck_assert_int_eq(pln_dyn_forward(w, &rb, &s, tau, GRAVITY, acc, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "not positive definite"));
    pln_dyn_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* ---- MuJoCo as the oracle ---------------------------------------------------------- */

/* loads robot YAML -> our MJCF -> MuJoCo (contacts off: the oracle is the tree alone) */
static mjModel *load_mujoco(const PlnRobot *rb)
{
    char dir[] = "/tmp/hrpplan_dyn_XXXXXX", path[64], err[1000];
    PlnMjcfOptions o = pln_mjcf_options_default();
    mjModel *m;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/robot.xml", dir);
    ck_assert_msg(pln_mjcf_write_file(rb, &o, path, err, sizeof err) == PLN_OK, "%s", err);
    m = mj_loadXML(path, NULL, err, sizeof err);
    unlink(path);
    rmdir(dir);
    ck_assert_msg(m != NULL, "MuJoCo refused our MJCF: %s", err);
    m->opt.disableflags |= mjDSBL_CONTACT;
    return m;
}

/* On random states of a robot (any base pose, joints beyond their limits too), our mass
 * matrix equals mj_fullM and our inverse dynamics mj_rne after the change of velocity
 * coordinates A (nu = A qvel_mujoco: MuJoCo's free joint has the root's world velocity
 * and body-frame angular velocity): M_mj = A^T M A, tau_mj = A^T tau. */
static void mujoco_oracle(const PlnRobot *rbp, uint64_t seed, int states)
{
    PlnRobot rb = *rbp;
    PlnDynWork *w = NULL;
    mjModel *m;
    mjData *d;
    char err[512];
    KfRng rng = {seed};
    int nv, nj, trial, j, i, k, r, c, *dofadr, *qadr;
    double *q, *nu, *nud, *tau, *M, *Mmj, *res, *A, *AM, worst_t = 0.0, worst_m = 0.0;
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    m = load_mujoco(&rb);
    d = mj_makeData(m);
    nv = pln_dyn_nv(w);
    nj = rb.n_joints;
    ck_assert_int_eq(m->nv, nv);
    dofadr = calloc((size_t)nj, sizeof *dofadr);
    qadr = calloc((size_t)nj, sizeof *qadr);
    for (j = 0; j < nj; ++j) {
        int id = mj_name2id(m, mjOBJ_JOINT, rb.joints[j].name);
        ck_assert_int_ge(id, 0);
        dofadr[j] = m->jnt_dofadr[id];
        qadr[j] = m->jnt_qposadr[id];
    }
    q = calloc((size_t)nj, sizeof *q);
    nu = calloc((size_t)nv, sizeof *nu);
    nud = calloc((size_t)nv, sizeof *nud);
    tau = calloc((size_t)nv, sizeof *tau);
    res = calloc((size_t)nv, sizeof *res);
    M = calloc((size_t)(nv * nv), sizeof *M);
    Mmj = calloc((size_t)(nv * nv), sizeof *Mmj);
    A = calloc((size_t)(nv * nv), sizeof *A);
    AM = calloc((size_t)(nv * nv), sizeof *AM);
    for (trial = 0; trial < states; ++trial) {
        PlnDynState s;
        const PlnLink *L0 = &rb.links[0];
        double pr[3], Rr[9], quat[4], vr[3], ar[3], et = 0.0, em = 0.0;
        const double *om, *od;
        random_state(&rng, nj, nv, &s, q, nu, nud);
        ck_assert_int_eq(pln_dyn_rnea(w, &rb, &s, m->opt.gravity, tau), PLN_OK);
        ck_assert_int_eq(pln_dyn_crba(w, &rb, &s, M), PLN_OK);
        /* MuJoCo's root body pose: the base composed with the root link's origin */
        for (i = 0; i < 3; ++i) {
            pr[i] = s.base_pos[i];
            for (k = 0; k < 3; ++k) pr[i] += s.base_rot[3 * i + k] * L0->origin_pos[k];
        }
        for (i = 0; i < 9; ++i) {
            Rr[i] = 0.0;
            for (k = 0; k < 3; ++k) Rr[i] += s.base_rot[3 * (i / 3) + k] * L0->origin_rot[3 * k + i % 3];
        }
        pln_mjcf_quat_from_matrix(Rr, quat);
        memcpy(d->qpos, pr, sizeof pr);
        memcpy(d->qpos + 3, quat, sizeof quat);
        /* qvel: v_root = v_O + w x p, w_local = R^T w; qacc: a_root = v_O' + w' x p +
         * w x v_root, w'_local = R^T w' */
        om = nu;
        od = nud;
        vr[0] = nu[3] + om[1] * pr[2] - om[2] * pr[1];
        vr[1] = nu[4] + om[2] * pr[0] - om[0] * pr[2];
        vr[2] = nu[5] + om[0] * pr[1] - om[1] * pr[0];
        ar[0] = nud[3] + od[1] * pr[2] - od[2] * pr[1] + om[1] * vr[2] - om[2] * vr[1];
        ar[1] = nud[4] + od[2] * pr[0] - od[0] * pr[2] + om[2] * vr[0] - om[0] * vr[2];
        ar[2] = nud[5] + od[0] * pr[1] - od[1] * pr[0] + om[0] * vr[1] - om[1] * vr[0];
        for (i = 0; i < 3; ++i) {
            d->qvel[i] = vr[i];
            d->qvel[3 + i] = Rr[i] * om[0] + Rr[3 + i] * om[1] + Rr[6 + i] * om[2];
            d->qacc[i] = ar[i];
            d->qacc[3 + i] = Rr[i] * od[0] + Rr[3 + i] * od[1] + Rr[6 + i] * od[2];
        }
        for (j = 0; j < nj; ++j) {
            d->qpos[qadr[j]] = q[j];
            d->qvel[dofadr[j]] = nu[6 + j];
            d->qacc[dofadr[j]] = nud[6 + j];
        }
        mj_fwdPosition(m, d);
        mj_fwdVelocity(m, d);
        mj_rne(m, d, 1, res);
        mj_fullM(m, Mmj, d->qM);
        /* A (ours x MuJoCo's): w = R w_local; v_O = v_root + [p]x R w_local; joints 1 */
        memset(A, 0, (size_t)(nv * nv) * sizeof *A);
        for (i = 0; i < 3; ++i) {
            const double P[9] = {0, -pr[2], pr[1], pr[2], 0, -pr[0], -pr[1], pr[0], 0};
            A[(3 + i) * nv + i] = 1.0;
            for (k = 0; k < 3; ++k) {
                A[i * nv + 3 + k] = Rr[3 * i + k];
                A[(3 + i) * nv + 3 + k] =
                    P[3 * i] * Rr[k] + P[3 * i + 1] * Rr[3 + k] + P[3 * i + 2] * Rr[6 + k];
            }
        }
        for (j = 0; j < nj; ++j) A[(6 + j) * nv + dofadr[j]] = 1.0;
        for (c = 0; c < nv; ++c) {
            double v = 0.0;
            for (r = 0; r < nv; ++r) v += A[r * nv + c] * tau[r];
            et = fmax(et, fabs(v - res[c]));
        }
        /* AM = M A, then A^T AM */
        for (r = 0; r < nv; ++r) {
            for (c = 0; c < nv; ++c) {
                double v = 0.0;
                for (k = 0; k < nv; ++k) v += M[r * nv + k] * A[k * nv + c];
                AM[r * nv + c] = v;
            }
        }
        for (r = 0; r < nv; ++r) {
            for (c = 0; c < nv; ++c) {
                double v = 0.0;
                for (k = 0; k < nv; ++k) v += A[k * nv + r] * AM[k * nv + c];
                em = fmax(em, fabs(v - Mmj[r * nv + c]));
            }
        }
        worst_t = fmax(worst_t, et / max_abs(res, nv));
        worst_m = fmax(worst_m, em / max_abs(Mmj, nv * nv));
    }
    ck_assert_msg(worst_t <= DYN_MJ_REL_TOL, "%s: inverse dynamics vs mj_rne: %.3g", rb.name,
                  worst_t);
    ck_assert_msg(worst_m <= DYN_MJ_REL_TOL, "%s: mass matrix vs mj_fullM: %.3g", rb.name, worst_m);
    free(dofadr);
    free(qadr);
    free(q);
    free(nu);
    free(nud);
    free(tau);
    free(res);
    free(M);
    free(Mmj);
    free(A);
    free(AM);
    mj_deleteData(d);
    mj_deleteModel(m);
    pln_dyn_destroy(w);
}

START_TEST(test_mujoco_oracle_mass_matrix_and_rne)
{
    PlnRobot rb;
    char err[512];
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    mujoco_oracle(&rb, 61, DYN_MJ_STATES);
    pln_robot_destroy(&rb);
}
END_TEST

/* prismatic joints against MuJoCo's slide joints (pln_mjcf: type="slide"): the random
 * tree with five of them, and tests/data/arm3p.yaml */
START_TEST(test_mujoco_oracle_prismatic)
{
    PlnRobot rb;
    char err[512];
    ck_assert_int_eq(kf_humanoid(&rb, 7), 0);
    kf_humanoid_prismatic(&rb);
    for (int i = 0; i < rb.n_links; ++i) {
        rb.links[i].inertia[0] = 0.02;
        rb.links[i].inertia[4] = 0.03;
        rb.links[i].inertia[8] = 0.015;
        rb.links[i].inertia[1] = rb.links[i].inertia[3] = 0.002;
    }
    mujoco_oracle(&rb, 62, DYN_MJ_STATES);
    kf_robot_free(&rb);
    ck_assert_msg(pln_robot_load("tests/data/arm3p.yaml", &rb, err, sizeof err) == PLN_OK, "%s",
                  err);
    mujoco_oracle(&rb, 63, DYN_MJ_STATES);
    pln_robot_destroy(&rb);
}
END_TEST

/* NULL nu, nudot and gravity are zeros, exactly, in the turned-frame RNEA of HRP-2 (D32)
 * and in the world-frame one of the derivatives (D3-D5), which agree */
START_TEST(test_rnea_null_rates)
{
    static const double zero3[3] = {0.0, 0.0, 0.0};
    PlnRobot rb;
    PlnDynWork *w = NULL;
    char err[512];
    KfRng rng = {29};
    double q[64], nu[64], nud[64], zero[64] = {0}, t0[64], t1[64], tw[64], DQ[64 * 64];
    int nv, r, trial;
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_dyn_create(&rb, &w, err, sizeof err), PLN_OK);
    nv = pln_dyn_nv(w);
    ck_assert_int_le(nv, 64);
    for (trial = 0; trial < 3; ++trial) {
        PlnDynState s, z;
        random_state(&rng, rb.n_joints, nv, &s, q, nu, nud);
        z = s;
        /* trial 0: no nu; 1: no nudot; 2: neither, and no gravity */
        if (trial != 1) {
            s.nu = NULL;
            z.nu = zero;
        }
        if (trial != 0) {
            s.nudot = NULL;
            z.nudot = zero;
        }
        ck_assert_int_eq(pln_dyn_rnea(w, &rb, &s, trial == 2 ? NULL : GRAVITY, t0), PLN_OK);
        ck_assert_int_eq(pln_dyn_rnea(w, &rb, &z, trial == 2 ? zero3 : GRAVITY, t1), PLN_OK);
        ck_assert_int_eq(pln_dyn_rnea_derivatives(w, &rb, &s, trial == 2 ? NULL : GRAVITY, tw, DQ,
                                                  NULL, NULL),
                         PLN_OK);
        for (r = 0; r < nv; ++r) {
            ck_assert_msg(t0[r] == t1[r], "trial %d row %d: %.17g vs %.17g", trial, r, t0[r], t1[r]);
            ck_assert(fabs(t0[r] - tw[r]) <= DYN_ROUND_REL_TOL * fmax(1.0, max_abs(tw, nv)));
        }
    }
    pln_dyn_destroy(w);
    pln_robot_destroy(&rb);
}
END_TEST

/* units in the last place of b between a and b */
static double ulps(double a, double b)
{
    return fabs(a - b) / (nextafter(fabs(b), INFINITY) - fabs(b));
}

/* the joint angles' sines and cosines (dynamics.md D33) against libm: random angles up to
 * the polynomial path's bound, the multiples of pi/2 (where the reduction cancels), odd
 * counts (the tail of the blocks of four), and libm itself beyond the bound */
START_TEST(test_sincos)
{
    enum { N = 1000 };
    static const double special[] = {0.0, -0.0, 1.5707963267948966, -1.5707963267948966,
                                     3.1415926535897931, 4.7123889803846897,
                                     6.2831853071795862, 1e-300, 0.78539816339744828,
                                     0.78539816339744839, 1000.0, -1000.0, 999.99999999999989};
    static double x[N], sn[N], cs[N];
    const double scale[4] = {4.0, 100.0, 1000.0, 1e-3};
    const int ns = (int)(sizeof special / sizeof special[0]);
    KfRng rng = {77};
    double worst = 0.0;
    int rep, i;
    for (rep = 0; rep < DYN_SINCOS_ANGLES / N; ++rep) {
        int n = N - rep % 4; /* counts that are not multiples of four */
        for (i = 0; i < n; ++i) x[i] = kf_uniform(&rng, -1.0, 1.0) * scale[rep % 4];
        if (rep == 0) memcpy(x, special, sizeof special);
        pln_dyn_sincos(n, x, sn, cs);
        for (i = 0; i < n; ++i) {
            double e = fmax(ulps(sn[i], sin(x[i])), ulps(cs[i], cos(x[i])));
            ck_assert_msg(e <= DYN_SINCOS_ULPS, "x = %.17g: sin %.17g (libm %.17g), cos %.17g (libm %.17g)",
                          x[i], sn[i], sin(x[i]), cs[i], cos(x[i]));
            worst = fmax(worst, e);
        }
    }
    /* the special angles alone, one at a time (the tail) */
    for (i = 0; i < ns; ++i) {
        pln_dyn_sincos(1, special + i, sn, cs);
        ck_assert(ulps(sn[0], sin(special[i])) <= DYN_SINCOS_ULPS);
        ck_assert(ulps(cs[0], cos(special[i])) <= DYN_SINCOS_ULPS);
    }
    /* beyond 1000 rad: libm for all */
    x[0] = 0.5;
    x[1] = 1000.5;
    x[2] = -1e10;
    pln_dyn_sincos(3, x, sn, cs);
    for (i = 0; i < 3; ++i) {
        ck_assert(sn[i] == sin(x[i]));
        ck_assert(cs[i] == cos(x[i]));
    }
    ck_assert(worst <= DYN_SINCOS_ULPS);
}
END_TEST

Suite *pln_dyn_suite(void)
{
    Suite *s = suite_create("pln_dyn");
    TCase *tc = tcase_create("derivatives");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_derivatives_fd_hrp2);
    tcase_add_test(tc, test_derivatives_fd_random_tree);
    tcase_add_test(tc, test_derivatives_fd_arm3);
    tcase_add_test(tc, test_derivatives_fd_prismatic_tree);
    tcase_add_test(tc, test_derivatives_fd_arm3p);
    suite_add_tcase(s, tc);
    tc = tcase_create("identities");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_crba_and_forward_consistent);
    tcase_add_test(tc, test_energy_conserved_free_floating);
    tcase_add_test(tc, test_centroidal_momentum);
    tcase_add_test(tc, test_fixed_joint_decoupled);
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_sincos);
    tcase_add_test(tc, test_rnea_null_rates);
    suite_add_tcase(s, tc);
    tc = tcase_create("mujoco");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mujoco_oracle_mass_matrix_and_rne);
    tcase_add_test(tc, test_mujoco_oracle_prismatic);
    suite_add_tcase(s, tc);
    return s;
}
