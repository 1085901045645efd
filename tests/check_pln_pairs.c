/* check_pln_pairs.c — tests of planner/problem/pln_pairs.c: the default pair set covers
 * the whole robot; every pair of links (and link-obstacle pair) is either measured or
 * left out with its reason; each reason on a robot built for it; HRP-2's hand_cross
 * measures the cross-arm pairs that thesis Table 6.1 leaves out. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "kin_fixture.h"
#include "problem/pln_pairs.h"
#include "problem/pln_scenario.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* index of pair (a, b) by names in the measured set, or -1 */
static int find_pair(const PlnScenario *sc, const char *a, const char *b)
{
    for (int i = 0; i < sc->n_pairs; ++i) {
        const PlnPair *p = &sc->pairs[i];
        if ((strcmp(p->a.name, a) == 0 && strcmp(p->b.name, b) == 0) ||
            (strcmp(p->a.name, b) == 0 && strcmp(p->b.name, a) == 0)) {
            return i;
        }
    }
    return -1;
}

static int find_excluded(const PlnScenario *sc, const char *a, const char *b)
{
    for (int i = 0; i < sc->n_excluded; ++i) {
        const PlnPair *p = &sc->excluded[i].pair;
        if ((strcmp(p->a.name, a) == 0 && strcmp(p->b.name, b) == 0) ||
            (strcmp(p->a.name, b) == 0 && strcmp(p->b.name, a) == 0)) {
            return i;
        }
    }
    return -1;
}

/* A base link with a capsule along x, a geometry-less link turning about z (J0, moving),
 * and a sphere on an arm 0.2 m out (J1, fixed by the scenario): the sphere overlaps the
 * base capsule at the start, not after J0 turns (in contact at the start, not always); a
 * far obstacle sphere. */
START_TEST(test_every_reason_on_a_small_robot)
{
    PlnRobot rb;
    PlnScenario sc;
    char dir[256], path[512], err[512];
    int e;
    ck_assert_int_eq(kf_robot_alloc(&rb, 3, 2), 0);
    kf_connect(&rb, 1, 0, 0);
    kf_connect(&rb, 2, 1, 1);
    rb.links[2].origin_pos[0] = 0.2;
    rb.links[0].geometry.has_capsule = 1;
    rb.links[0].geometry.capsule_p0[0] = 0.1;
    rb.links[0].geometry.capsule_p1[0] = 0.3;
    rb.links[0].geometry.capsule_radius = 0.05;
    rb.links[2].geometry.has_capsule = 1;
    rb.links[2].geometry.capsule_radius = 0.05;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/s.yaml", dir);
    write_text(path, "name: s\nrobot: /abs/r.yaml\nduration: 1\njoints: [joint0]\n"
                     "environment: [{name: ball, type: sphere, center: [3, 0, 0], radius: 0.1}]\n");
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&sc, &rb, err, sizeof err) == PLN_OK, "%s", err);
    /* 3 link pairs + 3 link-obstacle pairs, each measured or left out */
    ck_assert_int_eq(sc.n_pairs + sc.n_excluded, 6);
    ck_assert_int_eq(sc.n_pairs, 1);
    ck_assert_int_ge(find_pair(&sc, "link2", "ball"), 0);
    e = find_excluded(&sc, "link0", "link2");
    ck_assert_int_ge(e, 0);
    ck_assert_int_eq(sc.excluded[e].reason, PLN_EXCLUDE_START_CONTACT);
    ck_assert_double_eq_tol(sc.excluded[e].distance, -0.1, 1e-12);
    e = find_excluded(&sc, "link0", "link1");
    ck_assert_int_eq(sc.excluded[e].reason, PLN_EXCLUDE_NO_GEOMETRY);
    e = find_excluded(&sc, "link1", "link2");
    ck_assert_int_eq(sc.excluded[e].reason, PLN_EXCLUDE_NO_GEOMETRY);
    e = find_excluded(&sc, "link0", "ball");
    ck_assert_int_eq(sc.excluded[e].reason, PLN_EXCLUDE_RIGID);
    ck_assert_double_eq_tol(sc.excluded[e].distance, 3.0 - 0.3 - 0.05 - 0.1, 1e-12);
    pln_scenario_destroy(&sc);
    /* without J0 moving the link0 - link2 pair is rigid instead */
    write_text(path, "name: s\nrobot: /abs/r.yaml\nduration: 1\njoints: [joint1]\n");
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&sc, &rb, err, sizeof err) == PLN_OK, "%s", err);
    e = find_excluded(&sc, "link0", "link2");
    ck_assert_int_eq(sc.excluded[e].reason, PLN_EXCLUDE_START_CONTACT); /* J1 is between */
    pln_scenario_destroy(&sc);
    /* a prismatic joint moves too: J0 sliding along x, the sphere on link2 and the far ball
     * are no longer rigid with the base, and the base's capsule - link2 pair is measured
     * once the slide has taken the sphere off it (here it starts 0.2 m along x; sliding
     * J0 moves it; only a revolute J0 used to count) */
    rb.joints[0].type = PLN_JOINT_PRISMATIC;
    rb.joints[0].axis[0] = 1.0, rb.joints[0].axis[1] = 0.0, rb.joints[0].axis[2] = 0.0;
    rb.joints[0].lower = -0.5, rb.joints[0].upper = 0.5;
    write_text(path, "name: s\nrobot: /abs/r.yaml\nduration: 1\njoints: [joint0]\n"
                     "environment: [{name: ball, type: sphere, center: [3, 0, 0], radius: 0.1}]\n");
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&sc, &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_ge(find_pair(&sc, "link2", "ball"), 0);
    e = find_excluded(&sc, "link0", "link2");
    ck_assert_int_ge(e, 0);
    ck_assert_int_eq(sc.excluded[e].reason, PLN_EXCLUDE_START_CONTACT); /* not rigid */
    pln_scenario_destroy(&sc);
    ckutil_rm_flat(dir);
    kf_robot_free(&rb);
}
END_TEST

/* HRP-2 in hand_cross: the whole robot is accounted for, the cross-arm pairs that the
 * held-out check found overlapping outside Table 6.1 are measured, the arms' always
 * overlapping neighbours are not */
START_TEST(test_hrp2_hand_cross_covers_the_whole_robot)
{
    PlnRobot rb;
    PlnScenario sc;
    char err[512];
    static const char *const cross[][2] = {{"RARM_LINK4", "LARM_LINK6"}, {"LARM_LINK4", "RARM_LINK6"},
                                           {"RARM_LINK5", "LARM_LINK5"}, {"RARM_LINK6", "LARM_LINK6"}};
    ck_assert_msg(pln_robot_load("robots/hrp2.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_parse("scenarios/hand_cross.yaml", &sc, err, sizeof err) == PLN_OK,
                  "%s", err);
    ck_assert_int_eq(sc.pair_preset, PLN_PAIRS_ALL);
    ck_assert_msg(pln_scenario_resolve(&sc, &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(sc.n_pairs + sc.n_excluded, rb.n_links * (rb.n_links - 1) / 2);
    for (size_t i = 0; i < sizeof cross / sizeof cross[0]; ++i) {
        ck_assert_msg(find_pair(&sc, cross[i][0], cross[i][1]) >= 0, "%s - %s not measured",
                      cross[i][0], cross[i][1]);
    }
    for (int i = 0; i < rb.n_collision_pairs; ++i) {
        /* every pair of thesis Table 6.1 is still measured, or rigid and apart */
        const char *a = rb.links[rb.collision_pairs[i][0]].name;
        const char *b = rb.links[rb.collision_pairs[i][1]].name;
        int e = find_excluded(&sc, a, b);
        ck_assert_msg(find_pair(&sc, a, b) >= 0 ||
                          (e >= 0 && sc.excluded[e].reason == PLN_EXCLUDE_RIGID &&
                           sc.excluded[e].distance > 0.0),
                      "Table 6.1 pair %s - %s dropped", a, b);
    }
    ck_assert_int_eq(sc.excluded[find_excluded(&sc, "RARM_LINK0", "RARM_LINK2")].reason,
                     PLN_EXCLUDE_ALWAYS_CONTACT);
    ck_assert_int_eq(sc.excluded[find_excluded(&sc, "RARM_LINK3", "RARM_LINK4")].reason,
                     PLN_EXCLUDE_ADJACENT);
    ck_assert_int_eq(sc.excluded[find_excluded(&sc, "RLEG_LINK2", "LLEG_LINK2")].reason,
                     PLN_EXCLUDE_RIGID); /* the legs do not move in hand_cross */
    /* no pair is both measured and left out, and every measured pair is apart at the start */
    for (int i = 0; i < sc.n_pairs; ++i) {
        ck_assert_int_eq(find_excluded(&sc, sc.pairs[i].a.name, sc.pairs[i].b.name), -1);
    }
    pln_scenario_destroy(&sc);
    pln_robot_destroy(&rb);
}
END_TEST

Suite *pln_pairs_suite(void)
{
    Suite *s = suite_create("pln_pairs");
    TCase *tc = tcase_create("default_set");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_reason_on_a_small_robot);
    tcase_add_test(tc, test_hrp2_hand_cross_covers_the_whole_robot);
    suite_add_tcase(s, tc);
    return s;
}
