/* check_pln_kin.c — tests of planner/model/pln_kin.c: forward kinematics against poses
 * computed by hand for simple chains, every Jacobian against central finite
 * differences on a random 30-joint humanoid tree, model validation errors. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "kin_fixture.h"
#include "model/pln_kin.h"

/* hand-computed poses agree to this (m, or dimensionless for rotations): a few
 * roundings of unit-sized numbers */
#define KIN_FK_TOL 1e-12
/* central-difference step (rad) and the agreement asked of analytic Jacobians (m/rad):
 * truncation h^2/6 |x'''| ~ 1e-13 plus cancellation ~1e-16/h ~ 1e-10 on a 1 m robot */
#define KIN_FD_STEP 1e-6
#define KIN_FD_TOL 1e-8
/* random configurations per Jacobian test */
#define KIN_FD_TRIALS 20
#define KIN_PI 3.14159265358979323846

static void rot_z(double a, double R[9])
{
    double axis[3] = {0, 0, 1};
    pln_kin_joint_rotation(axis, a, R);
}

static void assert_vec_eq(const double *a, const double *b, int n, double tol)
{
    int i;
    for (i = 0; i < n; ++i) ck_assert_double_eq_tol(a[i], b[i], tol);
}

/* planar two-link arm about z with a fixed tip link:
 * tip = (L1 c1 + L2 c12, L1 s1 + L2 s12, 0), R_tip = Rz(q1 + q2). */
START_TEST(test_fk_planar_two_link)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    char err[256];
    const double L1 = 0.7, L2 = 0.4;
    double q[2] = {0.3, -1.1}, tip[3], R[9], zero[3] = {0, 0, 0};
    ck_assert_int_eq(kf_robot_alloc(&rb, 4, 2), 0);
    kf_connect(&rb, 1, 0, 0);
    kf_connect(&rb, 2, 1, 1);
    rb.links[2].origin_pos[0] = L1;
    kf_connect(&rb, 3, 2, -1);
    rb.links[3].origin_pos[0] = L2;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_OK);
    pln_kin_point(w, 3, zero, tip);
    ck_assert_double_eq_tol(tip[0], L1 * cos(q[0]) + L2 * cos(q[0] + q[1]), KIN_FK_TOL);
    ck_assert_double_eq_tol(tip[1], L1 * sin(q[0]) + L2 * sin(q[0] + q[1]), KIN_FK_TOL);
    ck_assert_double_eq_tol(tip[2], 0.0, KIN_FK_TOL);
    rot_z(q[0] + q[1], R);
    assert_vec_eq(pln_kin_link_rot(w, 3), R, 9, KIN_FK_TOL);
    /* the elbow sits at (L1 c1, L1 s1, 0) */
    ck_assert_double_eq_tol(pln_kin_link_pos(w, 2)[0], L1 * cos(q[0]), KIN_FK_TOL);
    ck_assert_double_eq_tol(pln_kin_link_pos(w, 2)[1], L1 * sin(q[0]), KIN_FK_TOL);
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* base pose, a rotated joint frame and a body point:
 * base at (1, 2, 3) turned +90 deg about z; joint frame at (0, 0, 0.5) in the base,
 * rotated +90 deg about y so that its z axis is the base x axis (world y axis); the
 * joint turns about its own z by q = 90 deg. Point (0.2, 0, 0) in the link frame:
 * joint frame x = -base z ... worked out by hand in the comments below. */
START_TEST(test_fk_base_and_frame_rotation)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    char err[256];
    double q[1] = {KIN_PI / 2}, x[3], local[3] = {0.2, 0, 0};
    double ry[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0}; /* Ry(+90): x -> -z, z -> x */
    ck_assert_int_eq(kf_robot_alloc(&rb, 2, 1), 0);
    rb.base_pos[0] = 1;
    rb.base_pos[1] = 2;
    rb.base_pos[2] = 3;
    rot_z(KIN_PI / 2, rb.base_rot);    /* base x -> world y, base y -> world -x */
    kf_connect(&rb, 1, 0, 0);
    rb.links[1].origin_pos[2] = 0.5; /* base z = world z: joint origin (1, 2, 3.5) */
    memcpy(rb.links[1].origin_rot, ry, sizeof ry);
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_OK);
    /* joint frame axes in the base: x_j = -z_b, y_j = y_b, z_j = x_b. Turning 90 deg
     * about z_j maps the link x axis to y_j = y_b = world -x. So the point is at
     * (1, 2, 3.5) + 0.2 * (-1, 0, 0) = (0.8, 2, 3.5). */
    pln_kin_point(w, 1, local, x);
    ck_assert_double_eq_tol(x[0], 0.8, KIN_FK_TOL);
    ck_assert_double_eq_tol(x[1], 2.0, KIN_FK_TOL);
    ck_assert_double_eq_tol(x[2], 3.5, KIN_FK_TOL);
    /* the link z axis (column 2 of R) is z_j = x_b = world +y */
    ck_assert_double_eq_tol(pln_kin_link_rot(w, 1)[2], 0.0, KIN_FK_TOL);
    ck_assert_double_eq_tol(pln_kin_link_rot(w, 1)[5], 1.0, KIN_FK_TOL);
    ck_assert_double_eq_tol(pln_kin_link_rot(w, 1)[8], 0.0, KIN_FK_TOL);
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* a three-joint leg-like chain (yaw z, pitch y, pitch y) with links hanging down:
 * foot = hip + Rz(a) Ry(b) [(0,0,-L1) + Ry(c) (0,0,-L2)]. */
START_TEST(test_fk_yaw_pitch_pitch_chain)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    char err[256];
    const double L1 = 0.3, L2 = 0.3;
    double q[3] = {0.4, -0.6, 1.2}, foot[3], zero[3] = {0, 0, 0};
    double a = q[0], b = q[1], c = q[2], u[3], v[3];
    ck_assert_int_eq(kf_robot_alloc(&rb, 5, 3), 0);
    kf_connect(&rb, 1, 0, 0);
    rb.links[1].origin_pos[1] = -0.06;
    kf_connect(&rb, 2, 1, 1);
    rb.joints[1].axis[1] = 1.0;
    rb.joints[1].axis[2] = 0.0;
    kf_connect(&rb, 3, 2, 2);
    rb.links[3].origin_pos[2] = -L1;
    rb.joints[2].axis[1] = 1.0;
    rb.joints[2].axis[2] = 0.0;
    kf_connect(&rb, 4, 3, -1);
    rb.links[4].origin_pos[2] = -L2;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_OK);
    /* v = (0,0,-L1) + Ry(c)(0,0,-L2); Ry(c)(0,0,z) = (z sin c, 0, z cos c) */
    v[0] = -L2 * sin(c);
    v[1] = 0.0;
    v[2] = -L1 - L2 * cos(c);
    /* u = Ry(b) v */
    u[0] = cos(b) * v[0] + sin(b) * v[2];
    u[1] = v[1];
    u[2] = -sin(b) * v[0] + cos(b) * v[2];
    /* Rz(a) u + hip */
    pln_kin_point(w, 4, zero, foot);
    ck_assert_double_eq_tol(foot[0], cos(a) * u[0] - sin(a) * u[1], KIN_FK_TOL);
    ck_assert_double_eq_tol(foot[1], -0.06 + sin(a) * u[0] + cos(a) * u[1], KIN_FK_TOL);
    ck_assert_double_eq_tol(foot[2], u[2], KIN_FK_TOL);
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* a prismatic joint (K.14) in a joint frame turned 90 deg about z, sliding along its x
 * (world y), then a yaw about z: by hand, the slider's origin is o + q (0, 1, 0), its
 * rotation that of the frame (q does not turn it), and a point r of the last link sits at
 * o + q e_y + d + Rz(pi/2 + c) r; the prismatic columns are (0, 1, 0) and zero (K.15). */
START_TEST(test_fk_prismatic_by_hand)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    char err[256];
    const double o[3] = {0.1, -0.2, 0.3}, d[3] = {0.05, 0.0, 0.1}, r[3] = {0.2, 0.1, -0.05};
    double q[2] = {0.37, 0.6}, x[3], J[6], Jw[6], c = q[1], a = 2.0 * atan(1.0) + c; /* pi/2 + c */
    ck_assert_int_eq(kf_robot_alloc(&rb, 3, 2), 0);
    kf_connect(&rb, 1, 0, 0);
    kf_connect(&rb, 2, 1, 1);
    memcpy(rb.links[1].origin_pos, o, sizeof o);
    /* Rz(pi/2): joint-frame x is world y */
    memset(rb.links[1].origin_rot, 0, sizeof rb.links[1].origin_rot);
    rb.links[1].origin_rot[1] = -1.0;
    rb.links[1].origin_rot[3] = 1.0;
    rb.links[1].origin_rot[8] = 1.0;
    rb.joints[0].type = PLN_JOINT_PRISMATIC;
    rb.joints[0].axis[0] = 1.0;
    rb.joints[0].axis[2] = 0.0;
    memcpy(rb.links[2].origin_pos, d, sizeof d);
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_OK);
    {
        const double *p1 = pln_kin_link_pos(w, 1), *R1 = pln_kin_link_rot(w, 1);
        const double *ax = pln_kin_joint_axis(w, 1);
        double want[3] = {o[0], o[1] + q[0], o[2]}, axis[3] = {0.0, 1.0, 0.0};
        assert_vec_eq(p1, want, 3, KIN_FK_TOL);
        assert_vec_eq(R1, rb.links[1].origin_rot, 9, KIN_FK_TOL);
        assert_vec_eq(ax, axis, 3, KIN_FK_TOL);
    }
    /* d is given in the slider's frame: Rz(pi/2) d = (-d_y, d_x, d_z) */
    pln_kin_point(w, 2, r, x);
    ck_assert_double_eq_tol(x[0], o[0] - d[1] + cos(a) * r[0] - sin(a) * r[1], KIN_FK_TOL);
    ck_assert_double_eq_tol(x[1], o[1] + q[0] + d[0] + sin(a) * r[0] + cos(a) * r[1], KIN_FK_TOL);
    ck_assert_double_eq_tol(x[2], o[2] + d[2] + r[2], KIN_FK_TOL);
    pln_kin_jacobian_point(w, &rb, 2, r, J);
    ck_assert_double_eq_tol(J[0], 0.0, KIN_FK_TOL);
    ck_assert_double_eq_tol(J[2], 1.0, KIN_FK_TOL);
    ck_assert_double_eq_tol(J[4], 0.0, KIN_FK_TOL);
    pln_kin_jacobian_rot(w, &rb, 2, Jw);
    ck_assert_double_eq(Jw[0], 0.0);
    ck_assert_double_eq(Jw[2], 0.0);
    ck_assert_double_eq(Jw[4], 0.0);
    ck_assert_double_eq_tol(Jw[5], 1.0, KIN_FK_TOL);
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* all links stay orthonormal; a fixed joint ignores q and has a zero column. */
START_TEST(test_fk_fixed_joint_ignores_q)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    char err[256];
    double q1[2] = {0.5, 0.0}, q2[2] = {0.5, 2.0}, x1[3], x2[3], J[6];
    double local[3] = {0.1, 0.2, 0.3};
    ck_assert_int_eq(kf_robot_alloc(&rb, 3, 2), 0);
    kf_connect(&rb, 1, 0, 0);
    kf_connect(&rb, 2, 1, 1);
    rb.links[2].origin_pos[0] = 0.5;
    rb.joints[1].type = PLN_JOINT_FIXED;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    pln_kin_forward(w, &rb, q1);
    pln_kin_point(w, 2, local, x1);
    pln_kin_forward(w, &rb, q2);
    pln_kin_point(w, 2, local, x2);
    assert_vec_eq(x1, x2, 3, KIN_FK_TOL);
    pln_kin_jacobian_point(w, &rb, 2, local, J);
    ck_assert_double_eq(J[1], 0.0);
    ck_assert_double_eq(J[3], 0.0);
    ck_assert_double_eq(J[5], 0.0);
    ck_assert_double_ne(fabs(J[0]) + fabs(J[2]), 0.0);
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* random configuration within +-2 rad */
static void random_q(KfRng *rng, double *q, int n)
{
    int j;
    for (j = 0; j < n; ++j) q[j] = kf_uniform(rng, -2.0, 2.0);
}

/* The memo of pln_kin_forward_base (links whose joint value and ancestors are those of the
 * last call with the same robot and base keep their frames): a workspace given a sequence
 * in which random subsets of the joints change (a sign of zero among them), the base pose
 * changes now and then, and a refused call comes between, holds after each call exactly
 * the frames and axes of a fresh workspace given the same call (loop 1: with prismatic
 * joints). */
START_TEST(test_fk_memo_matches_fresh)
{
    PlnRobot rb;
    PlnKinWork *w = NULL, *fresh = NULL;
    char err[256];
    double q[64], base_p[3] = {0.1, -0.2, 0.7}, base_R[9];
    KfRng rng = {977};
    int kept = 0;
    ck_assert_int_eq(kf_humanoid(&rb, 977), 0);
    if (_i) kf_humanoid_prismatic(&rb);
    ck_assert_int_le(rb.n_joints, 64);
    kf_random_rotation(&rng, base_R);
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    random_q(&rng, q, rb.n_joints);
    for (int step = 0; step < 80; ++step) {
        int changed = 0, use_base = step % 3 == 0;
        for (int j = 0; j < rb.n_joints; ++j) {
            if (step > 0 && kf_uniform(&rng, 0, 1) > 0.15) continue;
            ++changed;
            q[j] = step % 5 == 4 && j == 3 ? -q[j] * 0.0 : kf_uniform(&rng, -2.0, 2.0);
        }
        if (step % 9 == 8) {
            base_p[step % 3] += 0.01;
            kf_random_rotation(&rng, base_R);
        }
        if (step == 30) {
            double keep = q[7];
            q[7] = NAN;
            ck_assert_int_ne(pln_kin_forward_base(w, &rb, base_p, base_R, q), PLN_OK);
            q[7] = keep;
        }
        ck_assert_int_eq(pln_kin_create(&rb, &fresh, err, sizeof err), PLN_OK);
        if (use_base) {
            ck_assert_int_eq(pln_kin_forward_base(w, &rb, base_p, base_R, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward_base(fresh, &rb, base_p, base_R, q), PLN_OK);
        } else {
            ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_OK);
            ck_assert_int_eq(pln_kin_forward(fresh, &rb, q), PLN_OK);
        }
        for (int l = 0; l < rb.n_links; ++l) {
            ck_assert_msg(memcmp(pln_kin_link_rot(w, l), pln_kin_link_rot(fresh, l), 9 * sizeof(double)) == 0 &&
                              memcmp(pln_kin_link_pos(w, l), pln_kin_link_pos(fresh, l), 3 * sizeof(double)) == 0 &&
                              memcmp(pln_kin_joint_axis(w, l), pln_kin_joint_axis(fresh, l), 3 * sizeof(double)) == 0,
                          "step %d (%d joints changed), link %d: the memo differs from a fresh workspace", step,
                          changed, l);
        }
        kept += changed < rb.n_joints;
        pln_kin_destroy(fresh);
        fresh = NULL;
    }
    ck_assert_int_gt(kept, 60);
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* J_p of random body points of every link vs central differences of FK. */
START_TEST(test_jacobian_point_fd)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    KfRng rng = {101};
    char err[256];
    double q[30], qp[30], J[90], xp[3], xm[3], local[3];
    int t, l, j, r;
    ck_assert_int_eq(kf_humanoid(&rb, 7), 0);
    if (_i) kf_humanoid_prismatic(&rb); /* loop 1: five prismatic joints (K.14-K.15) */
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    for (t = 0; t < KIN_FD_TRIALS; ++t) {
        random_q(&rng, q, 30);
        for (l = 0; l < rb.n_links; ++l) {
            for (r = 0; r < 3; ++r) local[r] = kf_uniform(&rng, -0.2, 0.2);
            pln_kin_forward(w, &rb, q);
            pln_kin_jacobian_point(w, &rb, l, local, J);
            for (j = 0; j < 30; ++j) {
                memcpy(qp, q, sizeof q);
                qp[j] = q[j] + KIN_FD_STEP;
                pln_kin_forward(w, &rb, qp);
                pln_kin_point(w, l, local, xp);
                qp[j] = q[j] - KIN_FD_STEP;
                pln_kin_forward(w, &rb, qp);
                pln_kin_point(w, l, local, xm);
                for (r = 0; r < 3; ++r) {
                    ck_assert_double_eq_tol(J[30 * r + j], (xp[r] - xm[r]) / (2 * KIN_FD_STEP),
                                            KIN_FD_TOL);
                }
            }
        }
    }
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* J_w vs the vee of (dR/dq_j) R^T by central differences. */
START_TEST(test_jacobian_rot_fd)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    KfRng rng = {102};
    char err[256];
    double q[30], qp[30], J[90], Rp[9], Rm[9], R[9], D[9], W[9];
    int t, l, j, a, b;
    ck_assert_int_eq(kf_humanoid(&rb, 8), 0);
    if (_i) kf_humanoid_prismatic(&rb); /* loop 1: five prismatic joints (K.14-K.15) */
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    for (t = 0; t < KIN_FD_TRIALS; ++t) {
        random_q(&rng, q, 30);
        for (l = 0; l < rb.n_links; ++l) {
            pln_kin_forward(w, &rb, q);
            memcpy(R, pln_kin_link_rot(w, l), sizeof R);
            pln_kin_jacobian_rot(w, &rb, l, J);
            for (j = 0; j < 30; ++j) {
                memcpy(qp, q, sizeof q);
                qp[j] = q[j] + KIN_FD_STEP;
                pln_kin_forward(w, &rb, qp);
                memcpy(Rp, pln_kin_link_rot(w, l), sizeof Rp);
                qp[j] = q[j] - KIN_FD_STEP;
                pln_kin_forward(w, &rb, qp);
                memcpy(Rm, pln_kin_link_rot(w, l), sizeof Rm);
                for (a = 0; a < 9; ++a) D[a] = (Rp[a] - Rm[a]) / (2 * KIN_FD_STEP);
                /* W = D R^T = [omega]x */
                for (a = 0; a < 3; ++a) {
                    for (b = 0; b < 3; ++b) {
                        W[3 * a + b] = D[3 * a] * R[3 * b] + D[3 * a + 1] * R[3 * b + 1] +
                                       D[3 * a + 2] * R[3 * b + 2];
                    }
                }
                ck_assert_double_eq_tol(J[j], W[7], KIN_FD_TOL);
                ck_assert_double_eq_tol(J[30 + j], W[2], KIN_FD_TOL);
                ck_assert_double_eq_tol(J[60 + j], W[3], KIN_FD_TOL);
            }
        }
    }
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* J_com vs central differences of the centre of mass. */
START_TEST(test_jacobian_com_fd)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    KfRng rng = {103};
    char err[256];
    double q[30], qp[30], J[90], cp[3], cm[3];
    int t, j, r;
    ck_assert_int_eq(kf_humanoid(&rb, 9), 0);
    if (_i) kf_humanoid_prismatic(&rb); /* loop 1: five prismatic joints (K.14-K.15) */
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    for (t = 0; t < 5 * KIN_FD_TRIALS; ++t) {
        random_q(&rng, q, 30);
        pln_kin_forward(w, &rb, q);
        ck_assert_int_eq(pln_kin_jacobian_com(w, &rb, J), PLN_OK);
        for (j = 0; j < 30; ++j) {
            memcpy(qp, q, sizeof q);
            qp[j] = q[j] + KIN_FD_STEP;
            pln_kin_forward(w, &rb, qp);
            ck_assert_int_eq(pln_kin_com(w, &rb, cp), PLN_OK);
            qp[j] = q[j] - KIN_FD_STEP;
            pln_kin_forward(w, &rb, qp);
            ck_assert_int_eq(pln_kin_com(w, &rb, cm), PLN_OK);
            for (r = 0; r < 3; ++r) {
                ck_assert_double_eq_tol(J[30 * r + j], (cp[r] - cm[r]) / (2 * KIN_FD_STEP),
                                        KIN_FD_TOL);
            }
        }
    }
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* columns of joints off the chain are exactly zero: the left hand does not depend on
 * the legs or the right arm. */
START_TEST(test_jacobian_off_chain_zero)
{
    PlnRobot rb;
    PlnKinWork *w = NULL;
    char err[256];
    double q[30] = {0}, J[90], local[3] = {0.1, 0.1, 0.1};
    int j, r;
    ck_assert_int_eq(kf_humanoid(&rb, 10), 0);
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    pln_kin_forward(w, &rb, q);
    pln_kin_jacobian_point(w, &rb, 30, local, J); /* LARM_JOINT6 link */
    for (j = 0; j < 30; ++j) {
        int on_chain = (j == 12 || j == 13 || j >= 23);
        double norm = 0.0;
        for (r = 0; r < 3; ++r) norm += fabs(J[30 * r + j]);
        if (on_chain) ck_assert_double_gt(norm, 0.0);
        else ck_assert_double_eq(norm, 0.0);
    }
    pln_kin_destroy(w);
    kf_robot_free(&rb);
}
END_TEST

/* bad models and inputs give PLN_ERR_INVALID with a message naming the culprit. */
START_TEST(test_validation_errors)
{
    PlnRobot rb;
    PlnKinWork *w = (PlnKinWork *)&rb; /* must be reset to NULL on failure */
    char err[256];
    double q[30] = {0}, com[3];
    ck_assert_int_eq(kf_humanoid(&rb, 11), 0);

    rb.links[5].parent = 7; /* after itself */
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(w);
    ck_assert_ptr_nonnull(strstr(err, "link5"));
    rb.links[5].parent = 4;

    rb.joints[3].axis[0] += 0.01;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "joint3"));
    ck_assert_ptr_nonnull(strstr(err, "axis"));
    rb.joints[3].axis[0] -= 0.01;

    rb.links[9].origin_pos[1] = NAN;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "link9"));
    rb.links[9].origin_pos[1] = 0.0;

    rb.links[2].mass = -1.0;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "mass"));
    rb.links[2].mass = 1.0;

    rb.joints[4].link = 3; /* link 3 is moved by joint 2 */
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_ERR_INVALID);
    rb.joints[4].link = 5;

    rb.links[6].origin_rot[0] = 2.0;
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "orthonormal"));
    rb.links[6].origin_rot[0] = 1.0;
    kf_identity(rb.links[6].origin_rot);

    /* the repaired model is accepted; a NaN joint value is refused */
    ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
    q[4] = NAN;
    ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_ERR_INVALID);
    q[4] = INFINITY;
    ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_kin_forward(w, &rb, NULL), PLN_ERR_INVALID);
    pln_kin_destroy(w);

    /* a massless robot has no centre of mass */
    {
        int i;
        for (i = 0; i < rb.n_links; ++i) rb.links[i].mass = 0.0;
        ck_assert_int_eq(pln_kin_create(&rb, &w, err, sizeof err), PLN_OK);
        q[4] = 0.0;
        ck_assert_int_eq(pln_kin_forward(w, &rb, q), PLN_OK);
        ck_assert_int_eq(pln_kin_com(w, &rb, com), PLN_ERR_INVALID);
        pln_kin_destroy(w);
    }
    ck_assert_int_eq(pln_kin_create(NULL, &w, err, sizeof err), PLN_ERR_INVALID);
    pln_kin_destroy(NULL);
    kf_robot_free(&rb);
}
END_TEST

Suite *pln_kin_suite(void)
{
    Suite *s = suite_create("pln_kin");
    TCase *tc = tcase_create("forward");
    tcase_add_test(tc, test_fk_planar_two_link);
    tcase_add_test(tc, test_fk_base_and_frame_rotation);
    tcase_add_test(tc, test_fk_yaw_pitch_pitch_chain);
    tcase_add_test(tc, test_fk_fixed_joint_ignores_q);
    tcase_add_test(tc, test_fk_prismatic_by_hand);
    tcase_add_loop_test(tc, test_fk_memo_matches_fresh, 0, 2);
    suite_add_tcase(s, tc);
    tc = tcase_create("jacobian");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_jacobian_point_fd, 0, 2);
    tcase_add_loop_test(tc, test_jacobian_rot_fd, 0, 2);
    tcase_add_loop_test(tc, test_jacobian_com_fd, 0, 2);
    tcase_add_test(tc, test_jacobian_off_chain_zero);
    suite_add_tcase(s, tc);
    tc = tcase_create("validation");
    tcase_add_test(tc, test_validation_errors);
    suite_add_tcase(s, tc);
    return s;
}
