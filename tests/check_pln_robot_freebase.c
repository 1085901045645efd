/* check_pln_robot_freebase.c — tests of planner/model/pln_robot_freebase.c: the robot on
 * six virtual joints (docs/math/kinematics.md K17-K18) is the same robot with its waist
 * moved. On HRP-2 and on random trees with a turned base, at random postures:
 *  - with the virtual joints at (x, y, z, yaw, pitch, roll), every link's frame, capsule
 *    end, sole centre and the centre of mass sit where the file's model puts them with
 *    its base at Trans(p_0 + (x, y, z)) Rz(yaw) Ry(pitch) Rx(roll) R_0 (1e-12 m);
 *  - the kinetic energy of virtual-joint velocities equals the file model's with the
 *    waist moving at the velocity they give it (1e-10 relative);
 *  - inverse dynamics with the virtual joints still equals the file model's with its base
 *    still: the floor's wrench (rows 0..5) and every joint's torque (1e-9 relative), and
 *    the virtual joints carry the weight (BASE_Z: m g);
 *  - names that collide with the virtual ones, a re-rooted input and a second free base
 *    are refused. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kin_fixture.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"

#define FRAME_TOL 1e-12  /* m and rotation entries */
#define ENERGY_TOL 1e-10 /* relative */
#define TAU_TOL 1e-9     /* relative to the largest */

static const double GRAVITY[3] = {0.0, 0.0, -9.80665};

static double max_abs_diff(const double *a, const double *b, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static void mat_mul(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            T[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
        }
    }
    memcpy(C, T, sizeof T);
}

/* rotation about coordinate axis k by angle a */
static void axis_rot(int k, double a, double R[9])
{
    double c = cos(a), s = sin(a);
    memset(R, 0, 9 * sizeof *R);
    R[4 * k] = 1.0;
    {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        R[3 * i + i] = c;
        R[3 * j + j] = c;
        R[3 * j + i] = s;
        R[3 * i + j] = -s;
    }
}

static void check_free_base(PlnRobot *file, uint64_t seed)
{
    PlnRobot fb;
    PlnKinWork *kf = NULL, *kb = NULL;
    PlnDynWork *df = NULL, *db = NULL;
    char err[512];
    KfRng rng = {seed};
    const int nj = file->n_joints, nb = nj + PLN_FREE_BASE_JOINTS;
    double *qf = calloc((size_t)nj, sizeof *qf), *qb = calloc((size_t)nb, sizeof *qb);
    double *nuf = calloc((size_t)(6 + nj), sizeof *nuf), *nub = calloc((size_t)(6 + nb), sizeof *nub);
    double *af = calloc((size_t)(6 + nj), sizeof *af), *ab = calloc((size_t)(6 + nb), sizeof *ab);
    double *tf = calloc((size_t)(6 + nj), sizeof *tf), *tb = calloc((size_t)(6 + nb), sizeof *tb);
    double *Jp = calloc((size_t)3 * nb, sizeof *Jp), *Jr = calloc((size_t)3 * nb, sizeof *Jr);
    double R0[9], p0[3];
    memcpy(R0, file->base_rot, sizeof R0);
    memcpy(p0, file->base_pos, sizeof p0);
    ck_assert_msg(pln_robot_free_base(file, &fb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(fb.free_base, 1);
    ck_assert_int_eq(fb.n_joints, nb);
    ck_assert_int_eq(pln_robot_body_joints(&fb), nj);
    ck_assert_str_eq(fb.links[0].name, PLN_FREE_BASE_WORLD_LINK);
    ck_assert_str_eq(fb.links[fb.file_root].name, file->links[file->file_root].name);
    for (int j = 0; j < nb; ++j) ck_assert_int_eq(pln_robot_joint_is_virtual(&fb, j), j >= nj);
    for (int k = 0; k < PLN_FREE_BASE_JOINTS; ++k) {
        ck_assert_str_eq(fb.joints[nj + k].name, pln_robot_free_base_joint_name(k));
    }
    ck_assert_msg(pln_kin_validate(&fb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_kin_create(file, &kf, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_create(&fb, &kb, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_dyn_create(file, &df, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_dyn_create(&fb, &db, err, sizeof err), PLN_OK);

    for (int trial = 0; trial < 20; ++trial) {
        double v[6], R[9], Rk[9], cf[3], cb[3], ef, eb;
        PlnDynState sf, sb;
        for (int j = 0; j < nj; ++j) qf[j] = qb[j] = kf_uniform(&rng, -1.2, 1.2);
        for (int k = 0; k < 3; ++k) v[k] = trial == 0 ? 0.0 : kf_uniform(&rng, -0.5, 0.5);
        for (int k = 3; k < 6; ++k) v[k] = trial == 0 ? 0.0 : kf_uniform(&rng, -1.0, 1.0);
        for (int k = 0; k < 6; ++k) qb[nj + k] = v[k];
        /* K17: the file's base at Trans(p_0 + x) Rz Ry Rx R_0 */
        axis_rot(2, v[3], R);
        axis_rot(1, v[4], Rk);
        mat_mul(R, Rk, R);
        axis_rot(0, v[5], Rk);
        mat_mul(R, Rk, R);
        mat_mul(R, R0, file->base_rot);
        for (int k = 0; k < 3; ++k) file->base_pos[k] = p0[k] + v[k];
        ck_assert_int_eq(pln_kin_forward(kf, file, qf), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kb, &fb, qb), PLN_OK);
        for (int l = 0; l < file->n_links; ++l) {
            int b = l + PLN_FREE_BASE_JOINTS;
            ck_assert_str_eq(fb.links[b].name, file->links[l].name);
            ck_assert_msg(max_abs_diff(pln_kin_link_rot(kf, l), pln_kin_link_rot(kb, b), 9) < FRAME_TOL &&
                              max_abs_diff(pln_kin_link_pos(kf, l), pln_kin_link_pos(kb, b), 3) < FRAME_TOL,
                          "%s trial %d: frame of %s", file->name, trial, file->links[l].name);
            if (file->links[l].geometry.has_capsule) {
                double a[3], c[3];
                pln_kin_point(kf, l, file->links[l].geometry.capsule_p1, a);
                pln_kin_point(kb, b, fb.links[b].geometry.capsule_p1, c);
                ck_assert_double_lt(max_abs_diff(a, c, 3), FRAME_TOL);
            }
        }
        for (int s = 0; s < file->n_soles; ++s) {
            double a[3], c[3];
            ck_assert_int_eq(fb.soles[s].link, file->soles[s].link + PLN_FREE_BASE_JOINTS);
            pln_kin_point(kf, file->soles[s].link, file->soles[s].offset, a);
            pln_kin_point(kb, fb.soles[s].link, fb.soles[s].offset, c);
            ck_assert_double_lt(max_abs_diff(a, c, 3), FRAME_TOL);
        }
        ck_assert_int_eq(pln_kin_com(kf, file, cf), PLN_OK);
        ck_assert_int_eq(pln_kin_com(kb, &fb, cb), PLN_OK);
        ck_assert_double_lt(max_abs_diff(cf, cb, 3), FRAME_TOL);

        /* the same motion: virtual and body joint velocities, and the file's waist moving
         * at the velocity the virtual ones give it */
        memset(nuf, 0, (size_t)(6 + nj) * sizeof *nuf);
        memset(nub, 0, (size_t)(6 + nb) * sizeof *nub);
        for (int j = 0; j < nj; ++j) nuf[6 + j] = nub[6 + j] = kf_uniform(&rng, -1.0, 1.0);
        for (int k = 0; k < 6; ++k) nub[6 + nj + k] = kf_uniform(&rng, -1.0, 1.0);
        {
            const double zero[3] = {0.0, 0.0, 0.0};
            double vw[3] = {0, 0, 0}, ww[3] = {0, 0, 0};
            pln_kin_jacobian_point(kb, &fb, fb.file_root, zero, Jp);
            pln_kin_jacobian_rot(kb, &fb, fb.file_root, Jr);
            for (int k = 0; k < 3; ++k) {
                for (int j = nj; j < nb; ++j) {
                    vw[k] += Jp[k * nb + j] * nub[6 + j];
                    ww[k] += Jr[k * nb + j] * nub[6 + j];
                }
            }
            pln_dyn_base_velocity(file->base_pos, vw, ww, nuf);
        }
        memset(&sf, 0, sizeof sf);
        memset(&sb, 0, sizeof sb);
        memcpy(sf.base_pos, file->base_pos, sizeof sf.base_pos);
        memcpy(sf.base_rot, file->base_rot, sizeof sf.base_rot);
        memcpy(sb.base_pos, fb.base_pos, sizeof sb.base_pos);
        memcpy(sb.base_rot, fb.base_rot, sizeof sb.base_rot);
        sf.q = qf;
        sb.q = qb;
        sf.nu = nuf;
        sb.nu = nub;
        ck_assert_int_eq(pln_dyn_kinetic_energy(df, file, &sf, &ef), PLN_OK);
        ck_assert_int_eq(pln_dyn_kinetic_energy(db, &fb, &sb, &eb), PLN_OK);
        ck_assert_msg(fabs(ef - eb) <= ENERGY_TOL * fmax(ef, 1e-9),
                      "%s trial %d: kinetic energy %.17g vs %.17g", file->name, trial, ef, eb);

        /* K18: the virtual joints still, the body moving: the same floor wrench and torques */
        memset(nuf, 0, (size_t)(6 + nj) * sizeof *nuf);
        memset(nub, 0, (size_t)(6 + nb) * sizeof *nub);
        for (int j = 0; j < nj; ++j) {
            nuf[6 + j] = nub[6 + j] = kf_uniform(&rng, -1.0, 1.0);
            af[6 + j] = ab[6 + j] = kf_uniform(&rng, -2.0, 2.0);
        }
        sf.nudot = af;
        sb.nudot = ab;
        ck_assert_int_eq(pln_dyn_rnea(df, file, &sf, GRAVITY, tf), PLN_OK);
        ck_assert_int_eq(pln_dyn_rnea(db, &fb, &sb, GRAVITY, tb), PLN_OK);
        {
            double tmax = 0.0, worst = 0.0;
            for (int i = 0; i < 6 + nj; ++i) tmax = fmax(tmax, fabs(tf[i]));
            for (int i = 0; i < 6 + nj; ++i) worst = fmax(worst, fabs(tf[i] - tb[i]));
            ck_assert_msg(worst <= TAU_TOL * tmax, "%s trial %d: rnea off by %.3g of %.3g", file->name,
                          trial, worst, tmax);
        }
        if (trial == 0) {
            /* at rest: BASE_Z lifts the weight, BASE_X and BASE_Y push nothing */
            sf.nu = sb.nu = NULL;
            sf.nudot = sb.nudot = NULL;
            ck_assert_int_eq(pln_dyn_rnea(db, &fb, &sb, GRAVITY, tb), PLN_OK);
            ck_assert_double_lt(fabs(tb[6 + nj + 2] - fb.total_mass * 9.80665), 1e-9 * fb.total_mass);
            ck_assert_double_lt(fabs(tb[6 + nj]), 1e-9 * fb.total_mass);
            ck_assert_double_lt(fabs(tb[6 + nj + 1]), 1e-9 * fb.total_mass);
        }
    }
    memcpy(file->base_rot, R0, sizeof R0);
    memcpy(file->base_pos, p0, sizeof p0);
    pln_kin_destroy(kf);
    pln_kin_destroy(kb);
    pln_dyn_destroy(df);
    pln_dyn_destroy(db);
    pln_robot_destroy(&fb);
    free(qf);
    free(qb);
    free(nuf);
    free(nub);
    free(af);
    free(ab);
    free(tf);
    free(tb);
    free(Jp);
    free(Jr);
}

START_TEST(test_free_base_hrp2)
{
    PlnRobot rb;
    char err[512];
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    check_free_base(&rb, 300);
    pln_robot_destroy(&rb);
}
END_TEST

/* random trees, their base turned and moved (R_0, p_0 of K17), some joints prismatic */
START_TEST(test_free_base_random_trees)
{
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        PlnRobot rb;
        KfRng rng = {seed + 50};
        ck_assert_int_eq(kf_humanoid(&rb, seed), 0);
        if (seed > 2) kf_humanoid_prismatic(&rb);
        kf_random_rotation(&rng, rb.base_rot);
        for (int k = 0; k < 3; ++k) rb.base_pos[k] = kf_uniform(&rng, -1.0, 1.0);
        check_free_base(&rb, seed * 11);
        kf_robot_free(&rb);
    }
}
END_TEST

START_TEST(test_free_base_refuses)
{
    PlnRobot rb, out, fb;
    char err[512];
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, p[3] = {0, 0, 0};
    ck_assert_int_eq(kf_humanoid(&rb, 7), 0);
    /* a second free base */
    ck_assert_int_eq(pln_robot_free_base(&rb, &fb, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_robot_free_base(&fb, &out, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(out.links);
    pln_robot_destroy(&fb);
    /* a re-rooted model */
    ck_assert_int_eq(pln_robot_reroot(&rb, 6, p, I, &fb, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_robot_free_base(&fb, &out, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "root"));
    pln_robot_destroy(&fb);
    /* a joint and a link named as the virtual ones */
    snprintf(rb.joints[3].name, sizeof rb.joints[3].name, "BASE_YAW");
    ck_assert_int_eq(pln_robot_free_base(&rb, &out, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "BASE_YAW"));
    snprintf(rb.joints[3].name, sizeof rb.joints[3].name, "j3");
    snprintf(rb.links[5].name, sizeof rb.links[5].name, "BASE_WORLD");
    ck_assert_int_eq(pln_robot_free_base(&rb, &out, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "BASE_WORLD"));
    ck_assert_ptr_null(out.links);
    kf_robot_free(&rb);
}
END_TEST

Suite *pln_robot_freebase_suite(void)
{
    Suite *s = suite_create("pln_robot_freebase");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_free_base_hrp2);
    tcase_add_test(tc, test_free_base_random_trees);
    tcase_add_test(tc, test_free_base_refuses);
    suite_add_tcase(s, tc);
    return s;
}
