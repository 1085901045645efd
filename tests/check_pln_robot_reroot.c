/* check_pln_robot_reroot.c — tests of planner/model/pln_robot_reroot.c: the robot rooted
 * at a foot (or any link) is the same robot. On HRP-2 and on random trees with rotated
 * joint frames and a fixed joint on the path, at random postures:
 *  - every link's file frame, shape, sole and the centre of mass sit where the file's
 *    model puts them (1e-12 m);
 *  - the kinetic energy of the same motion (the file's floating base, or the new root
 *    moving with the velocity that base motion gives it) agrees (1e-10 relative): masses,
 *    inertias and the turned joints are right;
 *  - inverse dynamics with the new root still gives the gradient of the potential energy
 *    (central differences), so the turned joints' torques have the right sign. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kin_fixture.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"
#include "model/pln_robot.h"

#define FRAME_TOL 1e-12   /* m and rotation entries */
#define ENERGY_TOL 1e-10  /* relative */
#define GRAV_TOL 1e-6     /* relative to the largest gravity torque */

static const double GRAVITY[3] = {0.0, 0.0, -9.80665};

static double max_abs_diff(const double *a, const double *b, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; ++i) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

/* a random humanoid with full inertias, capsules and a sole on each foot */
static void random_robot(PlnRobot *rb, uint64_t seed)
{
    KfRng rng = {seed * 7 + 3};
    ck_assert_int_eq(kf_humanoid(rb, seed), 0);
    for (int l = 0; l < rb->n_links; ++l) {
        PlnLink *L = &rb->links[l];
        double R[9], d[3];
        kf_random_rotation(&rng, R);
        for (int k = 0; k < 3; ++k) d[k] = kf_uniform(&rng, 0.01, 0.05);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                L->inertia[3 * i + j] = 0.0;
                for (int k = 0; k < 3; ++k) L->inertia[3 * i + j] += R[3 * i + k] * d[k] * R[3 * j + k];
            }
        }
        L->geometry.has_capsule = 1;
        for (int k = 0; k < 3; ++k) {
            L->geometry.capsule_p0[k] = kf_uniform(&rng, -0.1, 0.1);
            L->geometry.capsule_p1[k] = kf_uniform(&rng, -0.1, 0.1);
        }
        L->geometry.capsule_radius = 0.03;
    }
    /* soles on the feet (links 6 and 12), in their frames */
    rb->n_soles = 2;
    rb->soles[0] = (PlnSole){6, {0.2, 0.1}, {0.01, 0.0, -0.1}};
    rb->soles[1] = (PlnSole){12, {0.2, 0.1}, {0.01, 0.0, -0.1}};
}

/* the file's model with its base placed so that link `root` sits at (Rr, pr), at q */
static void place_file_model(PlnKinWork *kin, PlnRobot *file, int root, const double *q,
                             const double Rr[9], const double pr[3])
{
    /* T_base' = T_root_target T_root(q)^-1 T_base */
    double Rb[9], pb[3], Rt[9], pt[3];
    const double *R0, *p0;
    ck_assert_int_eq(pln_kin_forward(kin, file, q), PLN_OK);
    R0 = pln_kin_link_rot(kin, root);
    p0 = pln_kin_link_pos(kin, root);
    /* T_root(q)^-1 T_base = (R0^T Rbase, R0^T (pbase - p0)) */
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            Rt[3 * i + j] = 0.0;
            for (int k = 0; k < 3; ++k) Rt[3 * i + j] += R0[3 * k + i] * file->base_rot[3 * k + j];
        }
        pt[i] = 0.0;
        for (int k = 0; k < 3; ++k) pt[i] += R0[3 * k + i] * (file->base_pos[k] - p0[k]);
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            Rb[3 * i + j] = 0.0;
            for (int k = 0; k < 3; ++k) Rb[3 * i + j] += Rr[3 * i + k] * Rt[3 * k + j];
        }
        pb[i] = pr[i];
        for (int k = 0; k < 3; ++k) pb[i] += Rr[3 * i + k] * pt[k];
    }
    memcpy(file->base_rot, Rb, sizeof Rb);
    memcpy(file->base_pos, pb, sizeof pb);
    ck_assert_int_eq(pln_kin_forward(kin, file, q), PLN_OK);
}

static void check_same_robot(PlnRobot *file, int root, uint64_t seed)
{
    PlnRobot rr;
    PlnKinWork *kf = NULL, *kr = NULL;
    PlnDynWork *df = NULL, *dr = NULL;
    char err[512];
    KfRng rng = {seed};
    const int nj = file->n_joints, nv = 6 + nj;
    double *q = calloc((size_t)nj, sizeof *q), *nu = calloc((size_t)nv, sizeof *nu);
    double *nur = calloc((size_t)nv, sizeof *nur), *tau = calloc((size_t)nv, sizeof *tau);
    double *Jp = calloc((size_t)3 * nj, sizeof *Jp), *Jr = calloc((size_t)3 * nj, sizeof *Jr);
    double Rroot[9], proot[3], base_rot0[9], base_pos0[3];
    memcpy(base_rot0, file->base_rot, sizeof base_rot0);
    memcpy(base_pos0, file->base_pos, sizeof base_pos0);
    ck_assert_int_eq(pln_kin_create(file, &kf, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_forward(kf, file, q), PLN_OK);
    memcpy(Rroot, pln_kin_link_rot(kf, root), sizeof Rroot);
    memcpy(proot, pln_kin_link_pos(kf, root), sizeof proot);
    ck_assert_msg(pln_robot_reroot(file, root, proot, Rroot, &rr, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rr.links[0].parent, -1);
    ck_assert_str_eq(rr.links[0].name, file->links[root].name);
    ck_assert_str_eq(rr.links[rr.file_root].name, file->links[file->file_root].name);
    for (int l = 1; l < rr.n_links; ++l) ck_assert_int_lt(rr.links[l].parent, l);
    ck_assert_msg(pln_kin_validate(&rr, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_kin_create(&rr, &kr, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_dyn_create(file, &df, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_dyn_create(&rr, &dr, err, sizeof err), PLN_OK);

    for (int trial = 0; trial < 20; ++trial) {
        double cf[3], cr[3], ef, er;
        PlnDynState sf, sr;
        for (int j = 0; j < nj; ++j) q[j] = kf_uniform(&rng, -1.2, 1.2);
        memcpy(file->base_rot, base_rot0, sizeof base_rot0);
        memcpy(file->base_pos, base_pos0, sizeof base_pos0);
        /* the re-rooted model keeps its root where it is; the file's follows it */
        place_file_model(kf, file, root, q, rr.base_rot, rr.base_pos);
        ck_assert_int_eq(pln_kin_forward(kr, &rr, q), PLN_OK);
        for (int l = 0; l < rr.n_links; ++l) {
            int f = pln_robot_find_link(file, rr.links[l].name);
            double Rf[9], pf[3], Rg[9], pg[3], a[3], b[3];
            pln_robot_file_frame(&rr, l, pln_kin_link_rot(kr, l), pln_kin_link_pos(kr, l), Rf, pf);
            pln_robot_file_frame(file, f, pln_kin_link_rot(kf, f), pln_kin_link_pos(kf, f), Rg, pg);
            ck_assert_msg(max_abs_diff(Rf, Rg, 9) < FRAME_TOL && max_abs_diff(pf, pg, 3) < FRAME_TOL,
                          "%s trial %d: frame of %s off by %.3g / %.3g", file->name, trial,
                          rr.links[l].name, max_abs_diff(Rf, Rg, 9), max_abs_diff(pf, pg, 3));
            if (rr.links[l].geometry.has_capsule) {
                pln_kin_point(kr, l, rr.links[l].geometry.capsule_p1, a);
                pln_kin_point(kf, f, file->links[f].geometry.capsule_p1, b);
                ck_assert_double_lt(max_abs_diff(a, b, 3), FRAME_TOL);
            }
            if (trial == 0 && pln_link_has_mesh(&rr.links[l].geometry)) {
                /* the link's mesh (a file, or the union of its collision parts) lands where
                 * the file's model puts it */
                DstMesh mr, mf;
                ck_assert_int_eq(pln_link_mesh_read(&rr, l, &mr, err, sizeof err), PLN_OK);
                ck_assert_int_eq(pln_link_mesh_read(file, f, &mf, err, sizeof err), PLN_OK);
                ck_assert_int_eq(mr.n_vertices, mf.n_vertices);
                for (int v = 0; v < mr.n_vertices; v += 1 + mr.n_vertices / 64) {
                    double xr[3], xf[3];
                    pln_link_file_point(&rr.links[l].geometry, mr.vertices[v], xr);
                    pln_link_file_point(&file->links[f].geometry, mf.vertices[v], xf);
                    pln_kin_point(kr, l, xr, a);
                    pln_kin_point(kf, f, xf, b);
                    ck_assert_double_lt(max_abs_diff(a, b, 3), FRAME_TOL);
                }
                dst_mesh_destroy(&mr);
                dst_mesh_destroy(&mf);
            }
        }
        for (int s = 0; s < rr.n_soles; ++s) {
            double a[3], b[3];
            int f = pln_robot_find_link(file, rr.links[rr.soles[s].link].name);
            ck_assert_int_eq(f, file->soles[s].link);
            pln_kin_point(kr, rr.soles[s].link, rr.soles[s].offset, a);
            pln_kin_point(kf, f, file->soles[s].offset, b);
            ck_assert_double_lt(max_abs_diff(a, b, 3), FRAME_TOL);
        }
        ck_assert_int_eq(pln_kin_com(kf, file, cf), PLN_OK);
        ck_assert_int_eq(pln_kin_com(kr, &rr, cr), PLN_OK);
        ck_assert_double_lt(max_abs_diff(cf, cr, 3), FRAME_TOL);

        /* the same motion: a random floating-base velocity of the file's model, and the
         * new root moving as that motion moves it */
        {
            double vb[3], wb[3], wr[3], vr[3], d[3];
            const double *pr = pln_kin_link_pos(kf, root);
            for (int k = 0; k < 3; ++k) {
                vb[k] = kf_uniform(&rng, -0.5, 0.5);
                wb[k] = kf_uniform(&rng, -0.5, 0.5);
            }
            for (int j = 0; j < nj; ++j) nu[6 + j] = nur[6 + j] = kf_uniform(&rng, -1.0, 1.0);
            pln_dyn_base_velocity(file->base_pos, vb, wb, nu);
            {
                double zero[3] = {0.0, 0.0, 0.0};
                pln_kin_jacobian_point(kf, file, root, zero, Jp);
            }
            pln_kin_jacobian_rot(kf, file, root, Jr);
            for (int k = 0; k < 3; ++k) d[k] = pr[k] - file->base_pos[k];
            wr[0] = wb[0];
            wr[1] = wb[1];
            wr[2] = wb[2];
            vr[0] = vb[0] + wb[1] * d[2] - wb[2] * d[1];
            vr[1] = vb[1] + wb[2] * d[0] - wb[0] * d[2];
            vr[2] = vb[2] + wb[0] * d[1] - wb[1] * d[0];
            for (int j = 0; j < nj; ++j) {
                for (int k = 0; k < 3; ++k) {
                    wr[k] += Jr[k * nj + j] * nu[6 + j];
                    vr[k] += Jp[k * nj + j] * nu[6 + j];
                }
            }
            pln_dyn_base_velocity(pr, vr, wr, nur);
        }
        memset(&sf, 0, sizeof sf);
        memset(&sr, 0, sizeof sr);
        memcpy(sf.base_pos, file->base_pos, sizeof sf.base_pos);
        memcpy(sf.base_rot, file->base_rot, sizeof sf.base_rot);
        memcpy(sr.base_pos, rr.base_pos, sizeof sr.base_pos);
        memcpy(sr.base_rot, rr.base_rot, sizeof sr.base_rot);
        sf.q = sr.q = q;
        sf.nu = nu;
        sr.nu = nur;
        ck_assert_int_eq(pln_dyn_kinetic_energy(df, file, &sf, &ef), PLN_OK);
        ck_assert_int_eq(pln_dyn_kinetic_energy(dr, &rr, &sr, &er), PLN_OK);
        ck_assert_msg(fabs(ef - er) <= ENERGY_TOL * fmax(ef, 1e-9),
                      "%s trial %d: kinetic energy %.17g vs %.17g", file->name, trial, ef, er);

        /* the new root held still: torques = dV/dq (V = m g z_com of the re-rooted model) */
        if (trial < 4) {
            double tmax = 0.0, worst = 0.0;
            sr.nu = NULL;
            ck_assert_int_eq(pln_dyn_rnea(dr, &rr, &sr, GRAVITY, tau), PLN_OK);
            for (int j = 0; j < nj; ++j) tmax = fmax(tmax, fabs(tau[6 + j]));
            for (int j = 0; j < nj; ++j) {
                const double h = 1e-6, q0 = q[j];
                double cp[3], cm[3], dV;
                q[j] = q0 + h;
                pln_kin_forward(kr, &rr, q);
                pln_kin_com(kr, &rr, cp);
                q[j] = q0 - h;
                pln_kin_forward(kr, &rr, q);
                pln_kin_com(kr, &rr, cm);
                q[j] = q0;
                dV = rr.total_mass * 9.80665 * (cp[2] - cm[2]) / (2.0 * h);
                worst = fmax(worst, fabs(dV - tau[6 + j]));
            }
            ck_assert_msg(worst <= GRAV_TOL * tmax, "%s trial %d: gravity torque off by %.3g of %.3g",
                          file->name, trial, worst, tmax);
        }
    }
    pln_kin_destroy(kf);
    pln_kin_destroy(kr);
    pln_dyn_destroy(df);
    pln_dyn_destroy(dr);
    pln_robot_destroy(&rr);
    free(q);
    free(nu);
    free(nur);
    free(tau);
    free(Jp);
    free(Jr);
}

START_TEST(test_reroot_hrp2_at_each_foot)
{
    PlnRobot rb;
    char err[512];
    const char *feet[2] = {"LLEG_LINK5", "RLEG_LINK5"};
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rb.file_root, 0);
    for (int i = 0; i < 2; ++i) {
        int l = pln_robot_find_link(&rb, feet[i]);
        ck_assert_int_ge(l, 0);
        check_same_robot(&rb, l, 100 + (uint64_t)i);
    }
    pln_robot_destroy(&rb);
}
END_TEST

/* a URDF robot whose links are made of collision elements (arm4: a cylinder, a box, meshes,
 * a sphere), rooted at the hand (a sphere) and at the forearm (a mesh) */
START_TEST(test_reroot_urdf_parts)
{
    PlnRobot rb;
    char err[512];
    const char *roots[2] = {"hand", "forearm"};
    ck_assert_msg(pln_robot_load("robots/arm4/arm4.urdf", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_gt(rb.n_parts, 0);
    for (int i = 0; i < 2; ++i) {
        int l = pln_robot_find_link(&rb, roots[i]);
        ck_assert_int_ge(l, 0);
        check_same_robot(&rb, l, 200 + (uint64_t)i);
    }
    pln_robot_destroy(&rb);
}
END_TEST

/* rotated joint frames, random axes; roots: a foot, a hand's fixed tool link (a fixed
 * joint on the path), a chest link, and the old root itself */
START_TEST(test_reroot_random_trees)
{
    const int roots[4] = {6, 31, 14, 0};
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        for (int i = 0; i < 4; ++i) {
            PlnRobot rb;
            random_robot(&rb, seed);
            check_same_robot(&rb, roots[i], seed * 10 + (uint64_t)i);
            kf_robot_free(&rb);
        }
    }
}
END_TEST

/* the same with prismatic joints on every path (kf_humanoid_prismatic: a knee on the
 * right leg, a hip on the left, the chest yaw, the right elbow): a turned-round slide
 * moves the other side along -a (kinematics.md K16) */
START_TEST(test_reroot_prismatic)
{
    const int roots[4] = {6, 12, 31, 14};
    for (uint64_t seed = 4; seed <= 5; ++seed) {
        for (int i = 0; i < 4; ++i) {
            PlnRobot rb;
            random_robot(&rb, seed);
            kf_humanoid_prismatic(&rb);
            check_same_robot(&rb, roots[i], seed * 10 + (uint64_t)i);
            kf_robot_free(&rb);
        }
    }
}
END_TEST

/* a re-rooted model re-rooted again (at the waist, at the other foot, at a hand): the
 * shifts compose, and the file's frames still come out */
START_TEST(test_reroot_twice)
{
    PlnRobot rb, a;
    char err[512];
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, p[3] = {0.1, -0.2, 0.3};
    random_robot(&rb, 9);
    ck_assert_int_eq(pln_robot_reroot(&rb, 12, p, I, &a, err, sizeof err), PLN_OK);
    check_same_robot(&a, a.file_root, 91);
    check_same_robot(&a, pln_robot_find_link(&a, "link6"), 92);
    check_same_robot(&a, pln_robot_find_link(&a, "link31"), 93);
    pln_robot_destroy(&a);
    kf_robot_free(&rb);
}
END_TEST

START_TEST(test_reroot_refuses)
{
    PlnRobot rb, out;
    char err[512];
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, p[3] = {0, 0, 0};
    random_robot(&rb, 4);
    ck_assert_int_eq(pln_robot_reroot(&rb, rb.n_links, p, I, &out, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "out of range"));
    ck_assert_ptr_null(out.links);
    /* a sole on a link whose frame the path turns (the random frames are rotated) */
    rb.soles[0].link = 3;
    ck_assert_int_eq(pln_robot_reroot(&rb, 6, p, I, &out, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "sole"));
    ck_assert_ptr_null(out.links);
    kf_robot_free(&rb);
}
END_TEST

Suite *pln_robot_reroot_suite(void)
{
    Suite *s = suite_create("pln_robot_reroot");
    TCase *tc = tcase_create("reroot");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_reroot_hrp2_at_each_foot);
    tcase_add_test(tc, test_reroot_urdf_parts);
    tcase_add_test(tc, test_reroot_random_trees);
    tcase_add_test(tc, test_reroot_twice);
    tcase_add_test(tc, test_reroot_prismatic);
    tcase_add_test(tc, test_reroot_refuses);
    suite_add_tcase(s, tc);
    return s;
}
