/* check_pln_linkmotion.c — tests of planner/motion/pln_linkmotion.c: at >= 100k random times
 * over random joint polynomial motions of a whole random 30-joint humanoid, the exact
 * forward kinematics lies inside the Taylor-model enclosures (0 violations); the
 * remainder falls with the span length at order close to n+1; bad input is refused.
 *
 * The reference forward kinematics is evaluated in long double (same formula as
 * pln_kin.c: T_link = T_parent T(origin) Rot(a, q), Rodrigues, or T(origin) Trans(q a) for
 * a prismatic joint), so that its own rounding
 * (~1e-19 relative) stays far below the enclosures' floating-point widening. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "kin_fixture.h"
#include "model/pln_kin.h"
#include "motion/pln_linkmotion.h"
#include "base/pln_tolerance.h"

#define LM_JOINTS 30
#define LM_MAX_LINKS 32
/* random motions per case and sample times per motion: 4 cases x 120 x 300 = 144k
 * times, each checking every link origin, two body points per link (two export routes),
 * every rotation entry, the link frame export and the centre of mass */
#define LM_MOTIONS 120
#define LM_TIMES 300
/* measured remainder order (span 1/16 -> 1/32 of a unit span) may differ from n+1 by
 * this much; measured 3.02 .. 7.01 for n = 2 .. 6 (docs/perf/kinematics.md) */
#define LM_ORDER_TOL 0.25
/* joints moving by <= 0.11 rad over a unit span (coefficients 0.05/k), restricted to a
 * quarter of it: every body point's enclosure radius stays below this (m). The
 * norm-based remainders give ~1e-7 on this case; entrywise interval remainders (the
 * wrapping effect along a 10-link chain) gave 5e-6, and a first-order bound ~1e-2 */
#define LM_SHARP_ERR 1e-6
/* a motionless robot's enclosure is the FK pose widened for rounding only: ~500 Taylor
 * operations widened by 1.4e-14 of unit magnitudes each stay below this (m) */
#define LM_STILL_TOL 1e-10

typedef long double ld;

/* reference pose of every link at joint values q (long double, pln_robot.h formula) */
static void ref_fk(const PlnRobot *rb, const ld *q, ld R[][9], ld p[][3])
{
    int i, a, b, k;
    for (i = 0; i < rb->n_links; ++i) {
        const PlnLink *L = &rb->links[i];
        ld Rp[9], pp[3], Ro[9];
        for (a = 0; a < 9; ++a) Rp[a] = L->parent < 0 ? (ld)rb->base_rot[a] : R[L->parent][a];
        for (a = 0; a < 3; ++a) pp[a] = L->parent < 0 ? (ld)rb->base_pos[a] : p[L->parent][a];
        for (a = 0; a < 3; ++a) {
            p[i][a] = pp[a];
            for (k = 0; k < 3; ++k) p[i][a] += Rp[3 * a + k] * L->origin_pos[k];
            for (b = 0; b < 3; ++b) {
                Ro[3 * a + b] = 0;
                for (k = 0; k < 3; ++k) Ro[3 * a + b] += Rp[3 * a + k] * L->origin_rot[3 * k + b];
            }
        }
        if (L->joint >= 0 && rb->joints[L->joint].type == PLN_JOINT_PRISMATIC) {
            /* p += q R_P O a (kinematics.md K.14) */
            const double *ax = rb->joints[L->joint].axis;
            for (a = 0; a < 3; ++a) {
                for (k = 0; k < 3; ++k) p[i][a] += q[L->joint] * Ro[3 * a + k] * ax[k];
            }
            memcpy(R[i], Ro, sizeof Ro);
        } else if (L->joint >= 0 && rb->joints[L->joint].type == PLN_JOINT_REVOLUTE) {
            const double *ax = rb->joints[L->joint].axis;
            ld s = sinl(q[L->joint]), c = cosl(q[L->joint]), v = 1.0L - c;
            ld K[9] = {0, -ax[2], ax[1], ax[2], 0, -ax[0], -ax[1], ax[0], 0}, Rot[9];
            for (a = 0; a < 3; ++a) {
                for (b = 0; b < 3; ++b) {
                    ld k2 = 0;
                    for (k = 0; k < 3; ++k) k2 += K[3 * a + k] * K[3 * k + b];
                    Rot[3 * a + b] = (a == b ? 1.0L : 0.0L) + s * K[3 * a + b] + v * k2;
                }
            }
            for (a = 0; a < 3; ++a) {
                for (b = 0; b < 3; ++b) {
                    R[i][3 * a + b] = 0;
                    for (k = 0; k < 3; ++k) R[i][3 * a + b] += Ro[3 * a + k] * Rot[3 * k + b];
                }
            }
        } else {
            memcpy(R[i], Ro, sizeof Ro);
        }
    }
}

static ld poly_s(const double *c, int deg, ld s)
{
    ld v = c[deg];
    int k;
    for (k = deg - 1; k >= 0; --k) v = v * s + c[k];
    return v;
}

/* 1 when the reference value v at tau lies in the model's enclosure */
static int tm_encloses(const PlnTaylor *t, ld tau, ld v)
{
    ld pv = t->c[t->n], d;
    int k;
    for (k = t->n - 1; k >= 0; --k) pv = pv * tau + t->c[k];
    d = v - pv;
    return d >= (ld)t->lo && d <= (ld)t->hi;
}

/* distance from the reference point x to the DstPolyPoint at s, minus its err */
static ld polypoint_excess(const DstPolyPoint *pp, ld s, const ld x[3])
{
    ld d2 = 0;
    int r, k;
    for (r = 0; r < 3; ++r) {
        ld v = pp->c[pp->degree][r];
        for (k = pp->degree - 1; k >= 0; --k) v = v * s + pp->c[k][r];
        d2 += (v - x[r]) * (v - x[r]);
    }
    return sqrtl(d2) - pp->err;
}

/* the frame export: |(R_true - R_poly(s)) l| <= R_err |l| for the three axes and two
 * body vectors l (consequences of the spectral bound), and the origin's enclosure */
static long frame_violations(double Rs[][9], double R_err, const DstPolyPoint *origin, int n,
                             ld s, const ld Rt[9], const ld pt[3], double loc[2][3])
{
    ld Rp[9], l[5][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    long v = 0;
    int e, k, m, r;
    for (e = 0; e < 9; ++e) {
        Rp[e] = Rs[n][e];
        for (k = n - 1; k >= 0; --k) Rp[e] = Rp[e] * s + Rs[k][e];
    }
    for (r = 0; r < 3; ++r) {
        l[3][r] = loc[0][r];
        l[4][r] = loc[1][r];
    }
    for (m = 0; m < 5; ++m) {
        ld d2 = 0, n2 = 0;
        for (r = 0; r < 3; ++r) {
            ld d = 0;
            for (k = 0; k < 3; ++k) d += (Rt[3 * r + k] - Rp[3 * r + k]) * l[m][k];
            d2 += d * d;
            n2 += l[m][r] * l[m][r];
        }
        v += sqrtl(d2) > R_err * sqrtl(n2);
    }
    v += polypoint_excess(origin, s, pt) > 0;
    return v;
}

/* random joint polynomials: q_j(s) = q0 + sum_k amp * u_k s^k, amp drawn per motion
 * from "still" to "very fast" (awkward: 2.5 rad over the span) */
static double random_motion(KfRng *rng, double *coef, int deg)
{
    static const double amps[6] = {0.0, 1e-3, 0.05, 0.3, 1.0, 2.5};
    double amp = amps[kf_next(rng) % 6];
    int j, k;
    for (j = 0; j < LM_JOINTS; ++j) {
        coef[j * (deg + 1)] = kf_uniform(rng, -2.0, 2.0);
        for (k = 1; k <= deg; ++k) coef[j * (deg + 1) + k] = amp * kf_uniform(rng, -1, 1) / k;
    }
    return amp;
}

/* The enclosure test for one Taylor degree n and joint-polynomial degree deg. */
/* Perturbs a model within the validation tolerances: joint axes off unit length by up to
 * 0.9 PLN_KIN_AXIS_UNIT_TOL, rotation entries (base and joint frames) by up to
 * PLN_KIN_ROT_ORTHO_TOL / 8, so that the true link rotations are not orthonormal and
 * the norm bounds of eq. (9.1) are exercised. */
static void perturb_model(PlnRobot *rb, KfRng *rng)
{
    int i, j, k;
    for (j = 0; j < rb->n_joints; ++j) {
        double f = 1.0 + kf_uniform(rng, -0.9, 0.9) * PLN_KIN_AXIS_UNIT_TOL;
        for (k = 0; k < 3; ++k) rb->joints[j].axis[k] *= f;
    }
    for (i = 0; i < rb->n_links; ++i) {
        for (k = 0; k < 9; ++k) {
            rb->links[i].origin_rot[k] += kf_uniform(rng, -1, 1) * PLN_KIN_ROT_ORTHO_TOL / 8;
        }
    }
    for (k = 0; k < 9; ++k) rb->base_rot[k] += kf_uniform(rng, -1, 1) * PLN_KIN_ROT_ORTHO_TOL / 8;
}

/* flags of enclosure_run */
enum { LM_IMPERFECT = 1, LM_PRISMATIC = 2 };

static long enclosure_run(int n, int deg, uint64_t seed, int flags, long *n_times)
{
    PlnRobot rb;
    PlnLinkMotion *lm = NULL;
    KfRng rng = {seed};
    char err[256];
    double coef[LM_JOINTS * (PLN_TM_MAX_DEGREE + 1)], qerr[LM_JOINTS];
    double local[LM_MAX_LINKS][2][3];
    DstPolyPoint pts[LM_MAX_LINKS][4], compt, origin[LM_MAX_LINKS];
    double frame_R[LM_MAX_LINKS][PLN_TM_MAX_DEGREE + 1][9], frame_err[LM_MAX_LINKS];
    /* each link's frame relative to an ancestor 0-3 links up (pln_linkmotion_frame_from) */
    double rel_R[LM_MAX_LINKS][PLN_TM_MAX_DEGREE + 1][9], rel_err[LM_MAX_LINKS];
    DstPolyPoint rel_origin[LM_MAX_LINKS];
    int rel_anc[LM_MAX_LINKS];
    ld R[LM_MAX_LINKS][9], P[LM_MAX_LINKS][3], q[LM_JOINTS];
    long violations = 0;
    int m, t, i, j, a, b;
    ck_assert_int_eq(kf_humanoid(&rb, seed), 0);
    ck_assert_int_le(rb.n_links, LM_MAX_LINKS);
    if (flags & LM_PRISMATIC) kf_humanoid_prismatic(&rb);
    if (flags & LM_IMPERFECT) perturb_model(&rb, &rng);
    ck_assert_int_eq(pln_linkmotion_create(&rb, n, &lm, err, sizeof err), PLN_OK);
    for (m = 0; m < LM_MOTIONS; ++m) {
        const PlnTaylor *com;
        int use_qerr = (m % 4 == 3);
        random_motion(&rng, coef, deg);
        for (j = 0; j < LM_JOINTS; ++j) qerr[j] = use_qerr ? kf_uniform(&rng, 0, 1e-4) : 0.0;
        ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, deg, use_qerr ? qerr : NULL,
                                                err, sizeof err), PLN_OK);
        for (i = 0; i < rb.n_links; ++i) {
            double zero[3] = {0, 0, 0};
            pln_linkmotion_point(lm, i, zero, &pts[i][0]);
            for (a = 0; a < 2; ++a) {
                for (b = 0; b < 3; ++b) local[i][a][b] = kf_uniform(&rng, -0.3, 0.3);
                pln_linkmotion_point(lm, i, local[i][a], &pts[i][1 + a]);
            }
            /* the generic route: coordinate models, then the conversion */
            {
                PlnTaylor x[3];
                pln_linkmotion_point_tm(lm, i, local[i][0], x);
                pln_linkmotion_tm_to_polypoint(x, &pts[i][3]);
            }
        }
        ck_assert_int_eq(pln_linkmotion_com_point(lm, &compt), PLN_OK);
        for (i = 0; i < rb.n_links; ++i) {
            int up = (int)(kf_next(&rng) % 4);
            ck_assert_int_eq(pln_linkmotion_frame(lm, i, frame_R[i], &frame_err[i], &origin[i]),
                             n);
            rel_anc[i] = i;
            while (up-- > 0 && rb.links[rel_anc[i]].parent >= 0) rel_anc[i] = rb.links[rel_anc[i]].parent;
            ck_assert_int_eq(pln_linkmotion_frame_from(lm, rel_anc[i], i, rel_R[i], &rel_err[i], &rel_origin[i]), n);
        }
        /* a link that is no ancestor: refused */
        if (rb.n_links > 2) { /* the last link is no ancestor of any other (parents come first) */
            ck_assert_int_eq(pln_linkmotion_frame_from(lm, rb.n_links - 1, rb.n_links - 2, rel_R[0], &rel_err[0],
                                                       &rel_origin[0]),
                             -1);
            ck_assert_int_eq(pln_linkmotion_frame_from(lm, 0, i, rel_R[0], &rel_err[0], &rel_origin[0]), -1);
            ck_assert_int_eq(pln_linkmotion_frame_from(lm, 0, 0, rel_R[0], &rel_err[0], &rel_origin[0]), n);
        }
        com = pln_linkmotion_com(lm);
        ck_assert_ptr_nonnull(com);
        for (t = 0; t < LM_TIMES; ++t) {
            ld s = t == 0 ? 0.0L : (t == 1 ? 1.0L : (ld)kf_uniform(&rng, 0, 1));
            ld tau = 2.0L * s - 1.0L, cacc[3] = {0, 0, 0}, msum = 0;
            for (j = 0; j < LM_JOINTS; ++j) {
                /* the true joint value: the polynomial, shifted within its q_err */
                q[j] = poly_s(coef + j * (deg + 1), deg, s);
                if (use_qerr) q[j] += (t % 2 ? 1 : -1) * (ld)qerr[j] * 0.999L;
            }
            ref_fk(&rb, q, R, P);
            for (i = 0; i < rb.n_links; ++i) {
                const PlnTaylor *tr = pln_linkmotion_rot(lm, i), *tp = pln_linkmotion_pos(lm, i);
                const PlnLink *L = &rb.links[i];
                ld x[3];
                for (a = 0; a < 9; ++a) violations += !tm_encloses(&tr[a], tau, R[i][a]);
                for (a = 0; a < 3; ++a) violations += !tm_encloses(&tp[a], tau, P[i][a]);
                violations += polypoint_excess(&pts[i][0], s, P[i]) > 0;
                violations += frame_violations(frame_R[i], frame_err[i], &origin[i], n, s, R[i],
                                               P[i], local[i]);
                {
                    /* the reference relative pose R_c^-1 R_i, R_c^-1 (p_i - p_c) (R_c^-1, not
                     * R_c^T: an imperfect model's rotations are not quite orthogonal) */
                    int c = rel_anc[i];
                    ld Rr[9], pr[3], Ci[9], *C = R[c], det;
                    Ci[0] = C[4] * C[8] - C[5] * C[7], Ci[1] = C[2] * C[7] - C[1] * C[8], Ci[2] = C[1] * C[5] - C[2] * C[4];
                    Ci[3] = C[5] * C[6] - C[3] * C[8], Ci[4] = C[0] * C[8] - C[2] * C[6], Ci[5] = C[2] * C[3] - C[0] * C[5];
                    Ci[6] = C[3] * C[7] - C[4] * C[6], Ci[7] = C[1] * C[6] - C[0] * C[7], Ci[8] = C[0] * C[4] - C[1] * C[3];
                    det = C[0] * Ci[0] + C[1] * Ci[3] + C[2] * Ci[6];
                    for (a = 0; a < 9; ++a) Ci[a] /= det;
                    for (a = 0; a < 3; ++a) {
                        pr[a] = 0;
                        for (b = 0; b < 3; ++b) {
                            Rr[3 * a + b] = 0;
                            for (j = 0; j < 3; ++j) Rr[3 * a + b] += Ci[3 * a + j] * R[i][3 * j + b];
                            pr[a] += Ci[3 * a + b] * (P[i][b] - P[c][b]);
                        }
                    }
                    violations += frame_violations(rel_R[i], rel_err[i], &rel_origin[i], n, s, Rr, pr,
                                                   local[i]);
                }
                for (b = 0; b < 2; ++b) {
                    for (a = 0; a < 3; ++a) {
                        x[a] = P[i][a] + R[i][3 * a] * local[i][b][0] +
                               R[i][3 * a + 1] * local[i][b][1] + R[i][3 * a + 2] * local[i][b][2];
                    }
                    violations += polypoint_excess(&pts[i][1 + b], s, x) > 0;
                    if (b == 0) violations += polypoint_excess(&pts[i][3], s, x) > 0;
                }
                for (a = 0; a < 3; ++a) {
                    cacc[a] += L->mass * (P[i][a] + R[i][3 * a] * L->com[0] +
                                          R[i][3 * a + 1] * L->com[1] +
                                          R[i][3 * a + 2] * L->com[2]);
                }
                msum += L->mass;
            }
            for (a = 0; a < 3; ++a) {
                cacc[a] /= msum;
                violations += !tm_encloses(&com[a], tau, cacc[a]);
            }
            violations += polypoint_excess(&compt, s, cacc) > 0;
            ++*n_times;
        }
    }
    pln_linkmotion_destroy(lm);
    kf_robot_free(&rb);
    return violations;
}

START_TEST(test_enclosure_degree5)
{
    long times = 0;
    ck_assert_int_eq(enclosure_run(5, 5, 201, 0, &times), 0);
    ck_assert_int_eq(times, (long)LM_MOTIONS * LM_TIMES);
}
END_TEST

/* joint polynomials of degree 7 truncated into a degree-3 model, and degree 7 models */
START_TEST(test_enclosure_other_degrees)
{
    long times = 0;
    ck_assert_int_eq(enclosure_run(3, 7, 202, 0, &times), 0);
    ck_assert_int_eq(enclosure_run(7, 5, 203, 0, &times), 0);
    ck_assert_int_eq(times, 2L * LM_MOTIONS * LM_TIMES);
}
END_TEST

/* a model whose axes and rotations are only unit / orthonormal within the validation
 * tolerances (as a YAML file with 6-7 printed digits gives) */
START_TEST(test_enclosure_imperfect_model)
{
    long times = 0;
    ck_assert_int_eq(enclosure_run(5, 5, 204, LM_IMPERFECT, &times), 0);
    ck_assert_int_eq(times, (long)LM_MOTIONS * LM_TIMES);
}
END_TEST

/* five prismatic joints spread over the chains (eq. 8.6, 9.6): sliding by up to +-2 m
 * plus the motion, with and without q_err, degrees (5, 5) and (3, 7), and on the
 * imperfect model */
START_TEST(test_enclosure_prismatic)
{
    long times = 0;
    ck_assert_int_eq(enclosure_run(5, 5, 205, LM_PRISMATIC, &times), 0);
    ck_assert_int_eq(enclosure_run(3, 7, 206, LM_PRISMATIC, &times), 0);
    ck_assert_int_eq(enclosure_run(5, 5, 207, LM_PRISMATIC | LM_IMPERFECT, &times), 0);
    ck_assert_int_eq(times, 3L * LM_MOTIONS * LM_TIMES);
}
END_TEST

/* largest width of any link position remainder */
static double max_pos_width(const PlnLinkMotion *lm, int n_links)
{
    double w = 0.0;
    int i, r;
    for (i = 0; i < n_links; ++i) {
        const PlnTaylor *p = pln_linkmotion_pos(lm, i);
        for (r = 0; r < 3; ++r) w = fmax(w, pln_taylor_remainder_width(&p[r]));
    }
    return w;
}

/* the remainder falls as h^(n+1) when the span shrinks (sub-spans of one motion). */
START_TEST(test_remainder_order)
{
    PlnRobot rb;
    KfRng rng = {301};
    char err[256];
    double coef[LM_JOINTS * 6], sub[LM_JOINTS * 6], qerr[LM_JOINTS];
    int n, j, lvl;
    ck_assert_int_eq(kf_humanoid(&rb, 301), 0);
    if (_i) kf_humanoid_prismatic(&rb);
    for (j = 0; j < LM_JOINTS; ++j) {
        int k;
        coef[j * 6] = kf_uniform(&rng, -1.5, 1.5);
        for (k = 1; k <= 5; ++k) coef[j * 6 + k] = kf_uniform(&rng, -1, 1);
    }
    for (n = 2; n <= 6; ++n) {
        PlnLinkMotion *lm = NULL;
        double w[4], order;
        ck_assert_int_eq(pln_linkmotion_create(&rb, n, &lm, err, sizeof err), PLN_OK);
        for (lvl = 0; lvl < 4; ++lvl) {
            double h = 0.25 / (1 << lvl);
            for (j = 0; j < LM_JOINTS; ++j) {
                qerr[j] = pln_linkmotion_restrict_poly(coef + 6 * j, 5, 0.5 - h / 2, 0.5 + h / 2,
                                                       sub + 6 * j);
            }
            ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, sub, 5, qerr, err, sizeof err),
                             PLN_OK);
            w[lvl] = max_pos_width(lm, rb.n_links);
        }
        order = log2(w[2] / w[3]);
        ck_assert_msg(fabs(order - (n + 1)) <= LM_ORDER_TOL,
                      "degree %d: measured order %.3f (widths %.3g %.3g %.3g %.3g)", n, order,
                      w[0], w[1], w[2], w[3]);
        pln_linkmotion_destroy(lm);
    }
    kf_robot_free(&rb);
}
END_TEST

/* small motions give tight enclosures (a loose-but-rigorous bound would fail here);
 * loop 1: with the prismatic joints of kf_humanoid_prismatic (moving <= 0.11 m). */
START_TEST(test_enclosure_sharp_for_small_motion)
{
    PlnRobot rb;
    PlnLinkMotion *lm = NULL;
    KfRng rng = {401};
    char err[256];
    double coef[LM_JOINTS * 6], sub[LM_JOINTS * 6], qerr[LM_JOINTS];
    double local[3] = {0.1, 0.1, -0.2};
    DstPolyPoint pp;
    int i, j, k;
    ck_assert_int_eq(kf_humanoid(&rb, 401), 0);
    if (_i) kf_humanoid_prismatic(&rb);
    ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &lm, err, sizeof err), PLN_OK);
    for (j = 0; j < LM_JOINTS; ++j) {
        coef[j * 6] = kf_uniform(&rng, -1.5, 1.5);
        for (k = 1; k <= 5; ++k) coef[j * 6 + k] = 0.05 * kf_uniform(&rng, -1, 1) / k;
        qerr[j] = pln_linkmotion_restrict_poly(coef + 6 * j, 5, 0.375, 0.625, sub + 6 * j);
    }
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, sub, 5, qerr, err, sizeof err), PLN_OK);
    for (i = 0; i < rb.n_links; ++i) {
        pln_linkmotion_point(lm, i, local, &pp);
        ck_assert_int_eq(pp.degree, 5);
        ck_assert_double_le(pp.err, LM_SHARP_ERR);
        ck_assert_double_ge(pp.err, 0.0);
    }
    pln_linkmotion_destroy(lm);
    kf_robot_free(&rb);
}
END_TEST

/* restricting a polynomial to a sub-span reproduces it within the returned bound. */
START_TEST(test_restrict_poly)
{
    KfRng rng = {501};
    int trial, i, k;
    for (trial = 0; trial < 2000; ++trial) {
        double c[8], out[8], bound, s0 = kf_uniform(&rng, 0, 0.9);
        double s1 = s0 + kf_uniform(&rng, 1e-3, 1 - s0);
        int deg = (int)(kf_next(&rng) % 8);
        for (k = 0; k <= deg; ++k) c[k] = kf_uniform(&rng, -5, 5);
        bound = pln_linkmotion_restrict_poly(c, deg, s0, s1, out);
        for (i = 0; i <= 20; ++i) {
            ld r = i / 20.0L, s = s0 + ((ld)s1 - s0) * r;
            ck_assert(fabsl(poly_s(out, deg, r) - poly_s(c, deg, s)) <= bound);
        }
    }
}
END_TEST

/* a motionless robot: the enclosure collapses to the FK pose (widening only) and the
 * exported polynomial is constant (loop 1: with prismatic joints). */
START_TEST(test_still_robot_matches_fk)
{
    PlnRobot rb;
    PlnLinkMotion *lm = NULL;
    PlnKinWork *kw = NULL;
    char err[256];
    double coef[LM_JOINTS], q[LM_JOINTS], x[3], local[3] = {0.05, -0.1, 0.2};
    DstPolyPoint pp;
    int i, j, k;
    KfRng rng = {601};
    ck_assert_int_eq(kf_humanoid(&rb, 601), 0);
    if (_i) kf_humanoid_prismatic(&rb);
    for (j = 0; j < LM_JOINTS; ++j) q[j] = coef[j] = kf_uniform(&rng, -2, 2);
    ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &lm, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_create(&rb, &kw, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, 0, NULL, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(kw, &rb, q), PLN_OK);
    for (i = 0; i < rb.n_links; ++i) {
        pln_linkmotion_point(lm, i, local, &pp);
        pln_kin_point(kw, i, local, x);
        for (k = 0; k < 3; ++k) {
            ck_assert_double_le(fabs(pp.c[0][k] - x[k]), pp.err);
            ck_assert_double_eq(pp.c[1][k], 0.0);
        }
        ck_assert_double_le(pp.err, LM_STILL_TOL);
    }
    pln_kin_destroy(kw);
    pln_linkmotion_destroy(lm);
    kf_robot_free(&rb);
}
END_TEST

/* two Taylor models equal bit for bit (fields, not padding) */
static int tm_same(const PlnTaylor *a, const PlnTaylor *b)
{
    return a->n == b->n && memcmp(a->c, b->c, sizeof a->c) == 0 && memcmp(&a->lo, &b->lo, sizeof a->lo) == 0 &&
           memcmp(&a->hi, &b->hi, sizeof a->hi) == 0;
}

/* every model of lm equals that of ref bit for bit */
static int lm_same(const PlnLinkMotion *lm, const PlnLinkMotion *ref, int n_links)
{
    for (int i = 0; i < n_links; ++i) {
        const PlnTaylor *R = pln_linkmotion_rot(lm, i), *Rr = pln_linkmotion_rot(ref, i);
        const PlnTaylor *p = pln_linkmotion_pos(lm, i), *pr = pln_linkmotion_pos(ref, i);
        for (int k = 0; k < 9; ++k) if (!tm_same(&R[k], &Rr[k])) return 0;
        for (int k = 0; k < 3; ++k) if (!tm_same(&p[k], &pr[k])) return 0;
        if (pln_linkmotion_rot_err(lm, i) != pln_linkmotion_rot_err(ref, i) ||
            pln_linkmotion_pos_err(lm, i) != pln_linkmotion_pos_err(ref, i)) return 0;
    }
    for (int k = 0; k < 3; ++k) if (!tm_same(&pln_linkmotion_com(lm)[k], &pln_linkmotion_com(ref)[k])) return 0;
    return 1;
}

/* The memo of pln_linkmotion_compute (links whose joint and ancestors got the same inputs
 * keep their models): a workspace computing a sequence in which random subsets of the
 * joints change (coefficients, q_err, NULL q_err, the degree, a refused call between) holds
 * after each call exactly the models of a fresh workspace given the same call (loop 1:
 * with prismatic joints). */
START_TEST(test_memo_matches_fresh)
{
    PlnRobot rb;
    PlnLinkMotion *lm = NULL, *fresh = NULL;
    char err[256];
    double coef[LM_JOINTS * (PLN_TM_MAX_DEGREE + 1)], qerr[LM_JOINTS];
    KfRng rng = {611};
    int deg = 5, kept = 0;
    ck_assert_int_eq(kf_humanoid(&rb, 611), 0);
    if (_i) kf_humanoid_prismatic(&rb);
    ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &lm, err, sizeof err), PLN_OK);
    for (int j = 0; j < LM_JOINTS * (PLN_TM_MAX_DEGREE + 1); ++j) coef[j] = kf_uniform(&rng, -0.5, 0.5);
    for (int j = 0; j < LM_JOINTS; ++j) qerr[j] = 1e-9;
    for (int step = 0; step < 60; ++step) {
        const double *qe = step % 7 == 3 ? NULL : qerr;
        int changed = 0;
        if (step % 11 == 10) deg = deg == 5 ? 3 : 5; /* the rows are read with the new stride */
        for (int j = 0; j < LM_JOINTS; ++j) {
            if (step > 0 && kf_uniform(&rng, 0, 1) > 0.15) continue;
            ++changed;
            for (int k = 0; k <= deg; ++k) coef[j * (deg + 1) + k] = kf_uniform(&rng, -0.5, 0.5);
            if (kf_uniform(&rng, 0, 1) < 0.3) qerr[j] = kf_uniform(&rng, 0, 1e-6);
        }
        if (step == 8) {
            /* after a call without q_err (the memo holds -1 for it), the same coefficients
             * with a q_err of -1 are refused, not taken from the memo */
            double bad[LM_JOINTS];
            ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, deg, NULL, err, sizeof err), PLN_OK);
            for (int j = 0; j < LM_JOINTS; ++j) bad[j] = -1.0;
            ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, deg, bad, err, sizeof err), PLN_ERR_INVALID);
        }
        if (step == 20) {
            /* a refused call leaves no memo behind that the next call could trust */
            double keep = coef[5 * (deg + 1) + 1];
            coef[5 * (deg + 1) + 1] = NAN;
            ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, deg, qe, err, sizeof err), PLN_ERR_INVALID);
            coef[5 * (deg + 1) + 1] = keep;
        }
        ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, deg, qe, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &fresh, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_linkmotion_compute(fresh, &rb, coef, deg, qe, err, sizeof err), PLN_OK);
        ck_assert_msg(lm_same(lm, fresh, rb.n_links), "step %d (%d joints changed, degree %d): the memo "
                      "differs from a fresh compute", step, changed, deg);
        kept += changed < LM_JOINTS;
        pln_linkmotion_destroy(fresh);
        fresh = NULL;
    }
    ck_assert_int_gt(kept, 40); /* most steps left some joints as they were */
    pln_linkmotion_destroy(lm);
    kf_robot_free(&rb);
}
END_TEST

/* bad input is refused with a message naming the joint. */
START_TEST(test_bad_input)
{
    PlnRobot rb, other;
    PlnLinkMotion *lm = NULL;
    char err[256];
    double coef[LM_JOINTS * 6] = {0}, qerr[LM_JOINTS] = {0};
    ck_assert_int_eq(kf_humanoid(&rb, 701), 0);
    ck_assert_int_eq(pln_linkmotion_create(&rb, 0, &lm, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(lm);
    ck_assert_int_eq(pln_linkmotion_create(&rb, PLN_TM_MAX_DEGREE + 1, &lm, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &lm, err, sizeof err), PLN_OK);
    coef[7 * 6 + 2] = NAN;
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, 5, NULL, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "joint7"));
    coef[7 * 6 + 2] = 0.0;
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, 8, NULL, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, -1, NULL, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, NULL, 5, NULL, err, sizeof err),
                     PLN_ERR_INVALID);
    qerr[3] = -1.0;
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, 5, qerr, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "joint3"));
    qerr[3] = NAN;
    ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, 5, qerr, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_int_eq(kf_robot_alloc(&other, 3, 2), 0);
    kf_connect(&other, 1, 0, 0);
    kf_connect(&other, 2, 1, 1);
    ck_assert_int_eq(pln_linkmotion_compute(lm, &other, coef, 5, NULL, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert_ptr_null(pln_linkmotion_rot(lm, -1));
    {
        double Rs[PLN_TM_MAX_DEGREE + 1][9], Re;
        DstPolyPoint o;
        ck_assert_int_eq(pln_linkmotion_frame(lm, rb.n_links, Rs, &Re, &o), -1);
    }
    ck_assert_ptr_null(pln_linkmotion_pos(lm, rb.n_links));
    kf_robot_free(&other);
    pln_linkmotion_destroy(lm);
    pln_linkmotion_destroy(NULL);
    rb.joints[2].axis[0] = NAN;
    ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &lm, err, sizeof err), PLN_ERR_INVALID);
    kf_robot_free(&rb);
}
END_TEST

Suite *pln_linkmotion_suite(void)
{
    Suite *s = suite_create("pln_linkmotion");
    TCase *tc = tcase_create("enclosure");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_enclosure_degree5);
    tcase_add_test(tc, test_enclosure_other_degrees);
    tcase_add_test(tc, test_enclosure_imperfect_model);
    tcase_add_test(tc, test_enclosure_prismatic);
    tcase_add_loop_test(tc, test_enclosure_sharp_for_small_motion, 0, 2);
    tcase_add_loop_test(tc, test_still_robot_matches_fk, 0, 2);
    tcase_add_loop_test(tc, test_memo_matches_fresh, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("order");
    tcase_add_loop_test(tc, test_remainder_order, 0, 2);
    tcase_add_test(tc, test_restrict_poly);
    suite_add_tcase(s, tc);
    tc = tcase_create("input");
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
