/* check_pln_mjcf.c — tests of planner/output/pln_mjcf.c: the MJCF of a robot is accepted
 * by MuJoCo's own compiler and describes the same bodies, joints, limits, masses and
 * frames; prismatic joints as slides; fixed base; names escaped; zero-length capsules; what MuJoCo cannot take is
 * refused; quaternions; atomic files. */
#include <check.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kin_fixture.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "output/pln_mjcf.h"

/* numbers go through XML with 17 digits; MuJoCo stores them as doubles */
#define MJCF_EXACT_TOL 1e-15
/* a quaternion and back to a rotation matrix: a few roundings */
#define MJCF_QUAT_TOL 1e-14

/* writes `rb` with `o` into a fresh temporary folder and loads it in MuJoCo; NULL (with
 * MuJoCo's message in err) when MuJoCo refuses it */
static mjModel *write_and_load(const PlnRobot *rb, const PlnMjcfOptions *o, char *err,
                               int err_size)
{
    char dir[] = "/tmp/hrpplan_mjcf_XXXXXX", path[64], perr[512];
    mjModel *m;
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/robot.xml", dir);
    ck_assert_msg(pln_mjcf_write_file(rb, o, path, perr, sizeof perr) == PLN_OK, "%s", perr);
    m = mj_loadXML(path, NULL, err, err_size);
    unlink(path);
    rmdir(dir);
    return m;
}

START_TEST(test_hrp2_loads_in_mujoco)
{
    PlnRobot rb;
    PlnMjcfOptions o = pln_mjcf_options_default();
    char err[1000];
    mjModel *m;
    int i, k;
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    m = write_and_load(&rb, &o, err, sizeof err);
    ck_assert_msg(m != NULL, "MuJoCo: %s", err);
    ck_assert_int_eq(m->nbody, rb.n_links + 1);
    ck_assert_int_eq(m->njnt, rb.n_joints + 1);
    ck_assert_int_eq(m->nv, rb.n_joints + 6);
    ck_assert_int_eq(m->jnt_type[0], mjJNT_FREE);
    ck_assert_double_eq_tol(m->opt.timestep, o.timestep, MJCF_EXACT_TOL);
    ck_assert_double_eq_tol(m->opt.gravity[2], -PLN_GRAVITY_MS2, MJCF_EXACT_TOL);
    for (i = 0; i < rb.n_links; ++i) {
        const PlnLink *L = &rb.links[i];
        int b = mj_name2id(m, mjOBJ_BODY, L->name);
        ck_assert_msg(b == i + 1, "body %s at %d", L->name, b);
        ck_assert_double_eq_tol(m->body_mass[b], L->mass, MJCF_EXACT_TOL * L->mass);
        if (L->parent >= 0) {
            ck_assert_int_eq(m->body_parentid[b], L->parent + 1);
            for (k = 0; k < 3; ++k) {
                ck_assert_double_eq_tol(m->body_pos[3 * b + k], L->origin_pos[k], MJCF_EXACT_TOL);
            }
        }
    }
    for (i = 0; i < rb.n_joints; ++i) {
        const PlnJoint *J = &rb.joints[i];
        int id = mj_name2id(m, mjOBJ_JOINT, J->name);
        ck_assert_int_ge(id, 1);
        ck_assert_int_eq(m->jnt_type[id], mjJNT_HINGE);
        ck_assert_int_eq(m->jnt_bodyid[id], J->link + 1);
        ck_assert_int_eq(m->jnt_limited[id], 1);
        ck_assert_double_eq_tol(m->jnt_range[2 * id], J->lower, MJCF_EXACT_TOL);
        ck_assert_double_eq_tol(m->jnt_range[2 * id + 1], J->upper, MJCF_EXACT_TOL);
        for (k = 0; k < 3; ++k) {
            ck_assert_double_eq_tol(m->jnt_axis[3 * id + k], J->axis[k], MJCF_EXACT_TOL);
        }
    }
    /* a floor plane and one geom per link capsule */
    ck_assert_int_ge(mj_name2id(m, mjOBJ_GEOM, "floor"), 0);
    mj_deleteModel(m);
    /* fixed base: no free joint */
    o.floating_base = 0;
    o.floor = 0;
    m = write_and_load(&rb, &o, err, sizeof err);
    ck_assert_msg(m != NULL, "MuJoCo: %s", err);
    ck_assert_int_eq(m->nv, rb.n_joints);
    ck_assert_int_eq(m->njnt, rb.n_joints);
    ck_assert_int_eq(mj_name2id(m, mjOBJ_GEOM, "floor"), -1);
    mj_deleteModel(m);
    pln_robot_destroy(&rb);
}
END_TEST

/* tests/data/arm3p.yaml: the prismatic LIFT is a slide joint along its axis with its
 * range in metres and a motor limited to +-300 N; the revolute joints stay hinges; at
 * the same joint values MuJoCo places every body where pln_kin does */
START_TEST(test_prismatic_is_a_slide)
{
    PlnRobot rb;
    PlnMjcfOptions o = pln_mjcf_options_default();
    PlnKinWork *kin;
    char err[1000];
    mjModel *m;
    mjData *d;
    double q[3] = {0.4, 0.27, -0.8};
    ck_assert_msg(pln_robot_load("tests/data/arm3p.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    o.floating_base = 0;
    o.motors = 1;
    m = write_and_load(&rb, &o, err, sizeof err);
    ck_assert_msg(m != NULL, "MuJoCo: %s", err);
    for (int j = 0; j < rb.n_joints; ++j) {
        int id = mj_name2id(m, mjOBJ_JOINT, rb.joints[j].name);
        ck_assert_int_ge(id, 0);
        ck_assert_int_eq(m->jnt_type[id], rb.joints[j].type == PLN_JOINT_PRISMATIC ? mjJNT_SLIDE : mjJNT_HINGE);
        ck_assert_double_eq_tol(m->jnt_range[2 * id + 1], rb.joints[j].upper, MJCF_EXACT_TOL);
    }
    ck_assert_int_eq(m->nu, 3);
    {
        int a = mj_name2id(m, mjOBJ_ACTUATOR, "LIFT");
        ck_assert_int_ge(a, 0);
        ck_assert_double_eq_tol(m->actuator_ctrlrange[2 * a + 1], 300.0, MJCF_EXACT_TOL);
    }
    d = mj_makeData(m);
    for (int j = 0; j < 3; ++j) d->qpos[m->jnt_qposadr[mj_name2id(m, mjOBJ_JOINT, rb.joints[j].name)]] = q[j];
    mj_kinematics(m, d);
    ck_assert_int_eq(pln_kin_create(&rb, &kin, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(kin, &rb, q), PLN_OK);
    for (int l = 0; l < rb.n_links; ++l) {
        int b = mj_name2id(m, mjOBJ_BODY, rb.links[l].name);
        const double *p = pln_kin_link_pos(kin, l), *R = pln_kin_link_rot(kin, l);
        for (int k = 0; k < 3; ++k) ck_assert_double_eq_tol(d->xpos[3 * b + k], p[k], MJCF_QUAT_TOL);
        for (int k = 0; k < 9; ++k) ck_assert_double_eq_tol(d->xmat[9 * b + k], R[k], MJCF_QUAT_TOL);
    }
    pln_kin_destroy(kin);
    mj_deleteData(d);
    mj_deleteModel(m);
    pln_robot_destroy(&rb);
}
END_TEST

/* names with XML's special characters, and a capsule of no length */
START_TEST(test_names_escaped_and_point_capsule)
{
    PlnRobot rb;
    PlnMjcfOptions o = pln_mjcf_options_default();
    char err[1000];
    mjModel *m;
    int g;
    ck_assert_int_eq(kf_robot_alloc(&rb, 2, 1), 0);
    snprintf(rb.name, PLN_NAME_MAX, "a&b<\"c\">'d'");
    snprintf(rb.links[1].name, PLN_NAME_MAX, "arm<&>");
    snprintf(rb.joints[0].name, PLN_NAME_MAX, "j\"1\"");
    kf_connect(&rb, 1, 0, 0);
    rb.links[0].mass = rb.links[1].mass = 1.0;
    rb.links[0].inertia[0] = rb.links[0].inertia[4] = rb.links[0].inertia[8] = 0.01;
    rb.links[1].inertia[0] = rb.links[1].inertia[4] = rb.links[1].inertia[8] = 0.01;
    rb.links[1].geometry.has_capsule = 1;
    rb.links[1].geometry.capsule_p0[0] = rb.links[1].geometry.capsule_p1[0] = 0.2;
    rb.links[1].geometry.capsule_radius = 0.05;
    m = write_and_load(&rb, &o, err, sizeof err);
    ck_assert_msg(m != NULL, "MuJoCo: %s", err);
    ck_assert_int_eq(mj_name2id(m, mjOBJ_BODY, "arm<&>"), 2);
    ck_assert_int_eq(mj_name2id(m, mjOBJ_JOINT, "j\"1\""), 1);
    g = mj_name2id(m, mjOBJ_GEOM, "arm<&>_capsule");
    ck_assert_int_ge(g, 0);
    ck_assert_int_eq(m->geom_type[g], mjGEOM_SPHERE);
    ck_assert_double_eq_tol(m->geom_size[3 * g], 0.05, MJCF_EXACT_TOL);
    mj_deleteModel(m);
    kf_robot_free(&rb);
}
END_TEST

/* MuJoCo's free joint must be its body's only joint: a root with a joint is refused
 * with a floating base, written with a fixed one */
START_TEST(test_root_joint_refused_with_floating_base)
{
    PlnRobot rb;
    PlnMjcfOptions o = pln_mjcf_options_default();
    char err[256];
    FILE *devnull = fopen("/dev/null", "w");
    ck_assert_int_eq(kf_robot_alloc(&rb, 2, 2), 0);
    kf_connect(&rb, 0, -1, 0);
    kf_connect(&rb, 1, 0, 1);
    ck_assert_int_eq(pln_mjcf_write(&rb, &o, devnull, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "root link 'link0' has joint 'joint0'"));
    o.floating_base = 0;
    ck_assert_int_eq(pln_mjcf_write(&rb, &o, devnull, err, sizeof err), PLN_OK);
    o.timestep = 0.0;
    ck_assert_int_eq(pln_mjcf_write(&rb, &o, devnull, err, sizeof err), PLN_ERR_INVALID);
    fclose(devnull);
    kf_robot_free(&rb);
}
END_TEST

START_TEST(test_quaternion_round_trip)
{
    KfRng rng = {3};
    int t, i;
    for (t = 0; t < 2000; ++t) {
        double R[9], q[4], back[9];
        if (t < 4) {
            /* the four branches: identity and half turns about x, y, z */
            static const double H[4][9] = {{1, 0, 0, 0, 1, 0, 0, 0, 1},
                                           {1, 0, 0, 0, -1, 0, 0, 0, -1},
                                           {-1, 0, 0, 0, 1, 0, 0, 0, -1},
                                           {-1, 0, 0, 0, -1, 0, 0, 0, 1}};
            memcpy(R, H[t], sizeof R);
        } else {
            kf_random_rotation(&rng, R);
        }
        pln_mjcf_quat_from_matrix(R, q);
        ck_assert(q[0] >= 0.0);
        mju_quat2Mat(back, q);
        for (i = 0; i < 9; ++i) ck_assert_double_eq_tol(back[i], R[i], MJCF_QUAT_TOL);
    }
}
END_TEST

START_TEST(test_write_file_atomic)
{
    PlnRobot rb;
    char err[512];
    ck_assert_int_eq(kf_robot_alloc(&rb, 1, 0), 0);
    rb.links[0].mass = 1.0;
    ck_assert_int_eq(pln_mjcf_write_file(&rb, NULL, "/nonexistent-dir/robot.xml", err, sizeof err),
                     PLN_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/robot.xml"));
    kf_robot_free(&rb);
}
END_TEST

Suite *pln_mjcf_suite(void)
{
    Suite *s = suite_create("pln_mjcf");
    TCase *tc = tcase_create("mujoco");
    tcase_add_test(tc, test_hrp2_loads_in_mujoco);
    tcase_add_test(tc, test_prismatic_is_a_slide);
    tcase_add_test(tc, test_names_escaped_and_point_capsule);
    suite_add_tcase(s, tc);
    tc = tcase_create("writer");
    tcase_add_test(tc, test_root_joint_refused_with_floating_base);
    tcase_add_test(tc, test_quaternion_round_trip);
    tcase_add_test(tc, test_write_file_atomic);
    suite_add_tcase(s, tc);
    return s;
}
