/* check_pln_output.c — tests of planner/output/pln_output.c added with the exports: joints.svg
 * renders through librsvg (rsvg-convert) with every moving joint and its dashed limits;
 * trajectory.json records the robot file, and both readers (check's and export's)
 * read back the same spline. */
#define _DEFAULT_SOURCE  /* realpath */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check_util.h"
#include "output/pln_export.h"
#include "output/pln_output.h"
#include "problem/pln_certify.h"
#include "problem/pln_plan.h"
#include "plan_fixture.h"

#define SCENARIO "tests/data/reach_pole.yaml"
#define FIXTURE_AMPLITUDE 0.4
/* smallest PNG of a real figure (bytes): an empty or failed render is far below */
#define MIN_PNG_BYTES 1000
#define JOINT_SAMPLES 200

/* renders an svg to png with rsvg-convert; returns the png size or -1 */
static long render(const char *svg, const char *png)
{
    char cmd[1200];
    struct stat sb;
    int st;
    snprintf(cmd, sizeof cmd, "rsvg-convert -o '%s' '%s' 2>/dev/null", png, svg);
    st = system(cmd);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1;
    if (stat(png, &sb) != 0) return -1;
    return (long)sb.st_size;
}

START_TEST(test_joints_svg_renders_with_limits)
{
    char dir[256], svg[512], png[512], err[512];
    static char text[1 << 20];
    PlanFixture fx;
    int worst = 0;
    double margin_worst = INFINITY;
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(svg, sizeof svg, "%s/joints.svg", dir);
    snprintf(png, sizeof png, "%s/joints.png", dir);
    ck_assert_msg(pln_output_joints_svg(svg, fx.p, fx.ctrl, JOINT_SAMPLES, err, sizeof err) == PLN_OK,
                  "%s", err);
    ck_assert_int_gt(render(svg, png), MIN_PNG_BYTES);
    ck_assert(ckutil_read_file(svg, text, sizeof text) > 0);
    ck_assert(strstr(text, "position limits") != NULL);
    ck_assert(strstr(text, "stroke-dasharray") != NULL);
    ck_assert(strstr(text, "angle [rad]") != NULL);
    /* one titled panel per moving joint; the joint closest to a limit is framed */
    for (int a = 0; a < fx.p->n_active; ++a) {
        const PlnJoint *jt = &fx.robot.joints[fx.p->active[a]];
        char title[128];
        double m = INFINITY;
        snprintf(title, sizeof title, ">%s (margin ", jt->name);
        ck_assert_msg(strstr(text, title) != NULL, "no panel for %s", jt->name);
        for (int s = 0; s < JOINT_SAMPLES; ++s) {
            double q, t = fx.sc.duration * s / (JOINT_SAMPLES - 1);
            ck_assert_int_eq(pln_bspline_eval(fx.p->bs, fx.ctrl + (size_t)a * fx.p->n_ctrl, t, 0, &q), PLN_OK);
            m = fmin(m, fmin(q - jt->lower, jt->upper - q));
        }
        if (m < margin_worst) {
            margin_worst = m;
            worst = a;
        }
    }
    {
        char title[128];
        const char *p;
        snprintf(title, sizeof title, "%s (margin ", fx.robot.joints[fx.p->active[worst]].name);
        p = strstr(text, title);
        ck_assert_ptr_nonnull(p);
        /* the highlighted title carries the "(worst)" mark right after the margin */
        p = strstr(p, "rad)");
        ck_assert_ptr_nonnull(p);
        ck_assert_msg(strncmp(p, "rad) (worst)", 12) == 0, "the worst joint is not marked");
    }
    ckutil_rm_flat(dir);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_trajectory_json_records_robot_file)
{
    char dir[256], path[512], err[1024];
    PlanFixture fx;
    PlnTable tb;
    PlnExportTrajectory tr;
    double *ctrl2;
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/trajectory.json", dir);
    ck_assert_int_eq(pln_output_sample(fx.p, fx.ctrl, 50.0, &tb, err, sizeof err), PLN_OK);
    ck_assert_msg(pln_output_trajectory_json(path, fx.p, fx.ctrl, &tb, 0, err, sizeof err) == PLN_OK,
                  "%s", err);
    /* export's reader */
    ck_assert_msg(pln_export_trajectory_read(path, &tr, err, sizeof err) == PLN_OK, "%s", err);
    /* recorded absolute, so that export finds it from any directory */
    {
        char want[PATH_MAX], rel[2 * PATH_MAX], real[PATH_MAX], sha[65];
        ck_assert_ptr_nonnull(realpath(fx.sc.robot_path, want));
        ck_assert_str_eq(tr.robot_file, want);
        /* and relative to the trajectory's directory, with the robot's fingerprint */
        snprintf(rel, sizeof rel, "%s/%s", dir, tr.robot_file_relative);
        ck_assert_ptr_nonnull(realpath(rel, real));
        ck_assert_str_eq(real, want);
        ck_assert_int_eq(pln_robot_fingerprint(&fx.robot, fx.sc.robot_path, sha, err, sizeof err), PLN_OK);
        ck_assert_str_eq(tr.robot_sha256, sha);
    }
    ck_assert_str_eq(tr.robot, fx.robot.name);
    ck_assert_str_eq(tr.scenario, fx.sc.name);
    ck_assert_int_eq(tr.certified, 0);
    ck_assert_int_eq(tr.n_joints, fx.robot.n_joints);
    ck_assert_int_eq(tr.n_active, fx.p->n_active);
    for (int a = 0; a < tr.n_active; ++a) ck_assert_int_eq(tr.active[a], fx.p->active[a]);
    for (int i = 0; i < fx.p->n_active * fx.p->n_ctrl; ++i) ck_assert(tr.ctrl[i] == fx.ctrl[i]);
    for (int j = 0; j < tr.n_joints; ++j) ck_assert(tr.initial[j] == fx.p->q_init[j]);
    ck_assert_int_eq(pln_export_trajectory_resolve(&tr, &fx.robot, err, sizeof err), PLN_OK);
    /* check's reader accepts the new key */
    ctrl2 = calloc((size_t)fx.p->n_active * fx.p->n_ctrl, sizeof *ctrl2);
    ck_assert_msg(pln_plan_read_trajectory_json(path, fx.p, ctrl2, err, sizeof err) == PLN_OK, "%s", err);
    for (int i = 0; i < fx.p->n_active * fx.p->n_ctrl; ++i) ck_assert(ctrl2[i] == fx.ctrl[i]);
    free(ctrl2);
    pln_export_trajectory_destroy(&tr);
    pln_table_destroy(&tb);
    ckutil_rm_flat(dir);
    plan_fixture_free(&fx);
}
END_TEST

/* violations inside the certificate's slack are printed as such, not as small numbers
 * beside "certified"; real ones with their value */
/* the summary pln_output_print_certificate() prints, into text[size] */
static void print_to_text(const PlnProblem *p, const PlnCertificate *c, char *text, size_t size)
{
    FILE *f = tmpfile();
    size_t n;
    ck_assert_ptr_nonnull(f);
    pln_output_print_certificate(p, c, f);
    rewind(f);
    n = fread(text, 1, size - 1, f);
    text[n] = '\0';
    fclose(f);
}

START_TEST(test_certificate_print_names_the_slack)
{
    PlanFixture fx;
    PlnCertificate c;
    char text[4096];
    plan_fixture_load(&fx, "scenarios/hand_cross.yaml", 0.0);
    memset(&c, 0, sizeof c);
    c.certified = 1;
    c.max_balance_violation = 1.4e-6;
    c.max_velocity_violation = 0.25;
    print_to_text(fx.p, &c, text, sizeof text);
    ck_assert_msg(strstr(text, "balance violation: < 1e-05 m (within the slack)") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "velocity violation: 0.25 rad/s") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "joint limit violation: 0 rad") != NULL, "%s", text);
    ck_assert(strstr(text, "1.4e-06") == NULL);
    plan_fixture_free(&fx);
}
END_TEST

/* with the whole robot's pairs the summary lists the 20 closest, says how many more and
 * above what bound, and what the default pair set left out */
START_TEST(test_certificate_print_closest_pairs)
{
    PlanFixture fx;
    PlnCertificate c;
    static char text[65536];
    char line[2 * PLN_NAME_MAX + 128];
    int rows = 0;
    plan_fixture_load(&fx, "scenarios/hand_cross.yaml", 0.0);
    ck_assert_int_gt(fx.p->scenario->n_pairs, PLN_OUTPUT_PRINT_PAIRS);
    memset(&c, 0, sizeof c);
    c.n_pairs = fx.p->scenario->n_pairs;
    c.pairs = calloc((size_t)c.n_pairs, sizeof *c.pairs);
    ck_assert_ptr_nonnull(c.pairs);
    /* pair k at 1 + k mm, but pair 7 the closest */
    for (int k = 0; k < c.n_pairs; ++k) c.pairs[k].lower = c.pairs[k].upper = 0.001 * (1 + k);
    c.pairs[7].lower = -0.002;
    c.min_clearance = -0.002;
    print_to_text(fx.p, &c, text, sizeof text);
    for (const char *q = text; (q = strstr(q, " - ")) != NULL; ++q) ++rows;
    ck_assert_int_eq(rows, PLN_OUTPUT_PRINT_PAIRS);
    snprintf(line, sizeof line, "%s - %s", fx.p->scenario->pairs[7].a.name,
             fx.p->scenario->pairs[7].b.name);
    ck_assert_msg(strstr(text, line) != NULL, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "<< contact possible"));
    snprintf(line, sizeof line, "(%d more pairs, each certified above 0.020000 m",
             c.n_pairs - PLN_OUTPUT_PRINT_PAIRS);
    ck_assert_msg(strstr(text, line) != NULL, "%s", text);
    snprintf(line, sizeof line, "pairs: %d measured, %d left out (", c.n_pairs,
             fx.p->scenario->n_excluded);
    ck_assert_msg(strstr(text, line) != NULL, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "always_in_contact"));
    /* the requested margin eps is named beside the certified clearance */
    c.min_clearance = fx.p->eps - 5e-4;
    print_to_text(fx.p, &c, text, sizeof text);
    ck_assert_msg(strstr(text, "is not certified: 500.0 um short") != NULL, "%s", text);
    free(c.pairs);
    plan_fixture_free(&fx);
}
END_TEST

/* zmp.svg and torque.svg (pln_output_dynamics_svg) render, with the phase's polygon,
 * its shrunk copy and the ZMP; the torque panels come largest peak first, and that
 * sampled peak lies within the certificate's Taylor-model bound of the same motion */
START_TEST(test_dynamics_svgs)
{
    char dir[256], zsvg[512], tsvg[512], png[512], err[512], name[64];
    static char text[1 << 20];
    PlanFixture fx;
    PlnCertificate c;
    const char *q;
    double peak;
    plan_fixture_load(&fx, "tests/data/bow_dyn.yaml", 0.3);
    ck_assert(fx.p->dynamics);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(zsvg, sizeof zsvg, "%s/zmp.svg", dir);
    snprintf(tsvg, sizeof tsvg, "%s/torque.svg", dir);
    snprintf(png, sizeof png, "%s/f.png", dir);
    ck_assert_msg(pln_output_dynamics_svg(zsvg, tsvg, fx.p, fx.ctrl, JOINT_SAMPLES, err, sizeof err) == PLN_OK,
                  "%s", err);
    ck_assert_int_gt(render(zsvg, png), MIN_PNG_BYTES);
    ck_assert_int_gt(render(tsvg, png), MIN_PNG_BYTES);
    ck_assert(ckutil_read_file(zsvg, text, sizeof text) > 0);
    ck_assert(strstr(text, "support[0]: 0.00 - 4.00 s (2 feet)") != NULL);
    ck_assert(strstr(text, "shrunk by zmp_margin") != NULL && strstr(text, ">ZMP<") != NULL);
    ck_assert(ckutil_read_file(tsvg, text, sizeof text) > 0);
    ck_assert(strstr(text, "effort limit") != NULL);
    /* the first (framed) panel: "NAME (peak P%) (worst)" */
    q = strstr(text, "(peak ");
    ck_assert_ptr_nonnull(q);
    peak = strtod(q + 6, NULL) / 100.0;
    ck_assert(strncmp(strchr(q, ')'), ") (worst)", 9) == 0);
    {
        const char *b = q;
        size_t n;
        while (b > text && b[-1] != '>') --b;
        n = (size_t)(q - b - 1);
        ck_assert(n > 0 && n < sizeof name);
        memcpy(name, b, n);
        name[n] = '\0';
    }
    ck_assert_msg(pln_certify_spline(fx.p, fx.ctrl, 0.25, &c, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert(c.torque_joint >= 0);
    ck_assert_msg(peak <= c.torque_ratio_max + 0.005 && peak > 0.0,
                  "sampled peak %g of %s above the certified %g", peak, name, c.torque_ratio_max);
    ck_assert(pln_robot_find_joint(&fx.robot, name) >= 0);
    pln_certificate_destroy(&c);
    ckutil_rm_flat(dir);
    plan_fixture_free(&fx);
}
END_TEST

Suite *pln_output_suite(void)
{
    Suite *s = suite_create("pln_output");
    TCase *tc = tcase_create("joints_svg");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_joints_svg_renders_with_limits);
    tcase_add_test(tc, test_dynamics_svgs);
    suite_add_tcase(s, tc);
    tc = tcase_create("trajectory_json");
    tcase_add_test(tc, test_trajectory_json_records_robot_file);
    tcase_add_test(tc, test_certificate_print_names_the_slack);
    tcase_add_test(tc, test_certificate_print_closest_pairs);
    suite_add_tcase(s, tc);
    return s;
}
