/* check_pln_export.c — tests of planner/output/pln_export.c, mostly through the real hrpplan
 * binary ($HRPPLAN_BIN): a planned trajectory exported as .pos (+ .waist, .zmp), .csv,
 * .json and ROS YAML reads back to the spline's values at exactly the export times, and
 * `hrpplan check` certifies the exported tables; hand-made trajectory files that break a
 * velocity or position limit, or are not certified, are refused with exit 3 naming the
 * joint; malformed files exit 2 naming the field. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#include "check_util.h"
#include "base/pln_yaml.h"
#include "motion/pln_bspline.h"
#include "output/pln_export.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"
#include "motion/pln_table.h"
#include "base/pln_tolerance.h"

/* A value read back from a 17-digit text file equals what was written; the test's own
 * evaluation of the spline may differ from the exporter's by rounding only (rad). */
#define ROUNDTRIP_TOL 1e-12
/* rpy -> matrix -> rpy -> matrix agrees to rounding (dimensionless matrix entries) */
#define RPY_TOL 1e-12
/* the ROS file's velocities against the spline's derivative (rad/s) */
#define ROS_VELOCITY_TOL 1e-9
/* .zmp against the test's own centre of mass (m) */
#define ZMP_TOL 1e-12
/* the ZMP by the centroidal route against the exported one (RNEA's base row), m: the two
 * computations round differently, on numbers of ~1 */
#define ZMP_DYN_TOL 1e-9
/* rpy angles recovered away from gimbal lock (rad), and the band around pitch = +-pi/2
 * where only yaw - roll is defined (rad) */
#define RPY_ANGLE_TOL 1e-9
#define GIMBAL_BAND 1e-3
/* T * rate counts as a whole number of periods within this (dimensionless) */
#define PERIODS_TOL 1e-9

#define SCENARIO "tests/data/reach_pole.yaml"
#define ROBOT "robots/hrp2.yaml"

/* the planned trajectory every round-trip test exports (made once per test case) */
static char g_dir[256];

/* runs hrpplan with args, stdout+stderr into log; returns the exit status. Plans run with
 * --max-time 86400, so that what they give never depends on the machine's speed (under
 * valgrind, hand_cross's 60 s budget ran out). */
static int hrpplan(const char *args, const char *log)
{
    const char *bin = getenv("HRPPLAN_BIN");
    char cmd[4096];
    int st;
    snprintf(cmd, sizeof cmd, "'%s' %s%s > '%s' 2>&1", bin && *bin ? bin : "build/hrpplan", args,
             strncmp(args, "plan ", 5) == 0 ? " --max-time 86400" : "", log);
    st = system(cmd);
    ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
    return WEXITSTATUS(st);
}

static int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static void plan_fixture(void)
{
    char args[1024], log[512];
    ckutil_mkdtemp(g_dir, sizeof g_dir);
    snprintf(log, sizeof log, "%s/plan.log", g_dir);
    snprintf(args, sizeof args, "plan %s -q -o '%s/out'", SCENARIO, g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "the fixture plan was not certified, see %s", log);
}

static void plan_teardown(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/out", g_dir);
    ckutil_rm_flat(path);
    ckutil_rm_flat(g_dir);
}

/* expected sample count of T seconds at rate Hz: t_k = k / rate strictly before T, then T */
static int expected_rows(double T, double rate)
{
    double n = T * rate;
    double whole = floor(n + PERIODS_TOL);
    return fabs(n - whole) < PERIODS_TOL ? (int)whole + 1 : (int)ceil(n) + 1;
}

/* checks table times: k / rate, the last exactly T */
static void check_times(const PlnTable *tb, double T, double rate)
{
    ck_assert_int_eq(tb->n_rows, expected_rows(T, rate));
    for (int r = 0; r + 1 < tb->n_rows; ++r) {
        ck_assert_msg(tb->t[r] == (double)r * (1.0 / rate), "row %d: t = %.17g", r, tb->t[r]);
    }
    ck_assert(tb->t[tb->n_rows - 1] == T);
    ck_assert(tb->t[tb->n_rows - 1] > tb->t[tb->n_rows - 2]);
}

/* every table value against the test's own evaluation of the file's spline */
static void check_values(const PlnExportTrajectory *tr, const PlnTable *tb)
{
    ck_assert_int_eq(tb->n_joints, tr->n_joints);
    for (int r = 0; r < tb->n_rows; ++r) {
        for (int j = 0; j < tr->n_joints; ++j) {
            double want = tr->initial[j];
            for (int a = 0; a < tr->n_active; ++a) {
                if (tr->active[a] == j) {
                    ck_assert_int_eq(pln_bspline_eval(tr->bs, tr->ctrl + (size_t)a * tr->bs->n_ctrl,
                                                      tb->t[r], 0, &want),
                                     PLN_OK);
                }
            }
            ck_assert_msg(fabs(tb->q[(size_t)r * tb->n_joints + j] - want) <= ROUNDTRIP_TOL,
                          "row %d joint %d: %.17g vs %.17g", r, j, tb->q[(size_t)r * tb->n_joints + j],
                          want);
        }
    }
}

static void read_fixture(PlnExportTrajectory *tr)
{
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/out/trajectory.json", g_dir);
    ck_assert_msg(pln_export_trajectory_read(path, tr, err, sizeof err) == PLN_OK, "%s", err);
}

START_TEST(test_pos_round_trip_with_waist_and_zmp)
{
    char args[2048], log[512], path[512], err[1024];
    PlnExportTrajectory tr;
    PlnTable tb, waist, zmp;
    PlnRobot robot;
    PlnKinWork *kin = NULL;
    PlnDynWork *dyn = NULL;
    double *state, *nu, *nud, dyn_effect = 0.0;
    read_fixture(&tr);
    snprintf(log, sizeof log, "%s/export.log", g_dir);
    snprintf(args, sizeof args, "export '%s/out/trajectory.json' --format pos -o '%s/out/motion.pos'",
             g_dir, g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "export failed, see %s", log);
    snprintf(path, sizeof path, "%s/out/motion.pos", g_dir);
    ck_assert_msg(pln_table_read(path, &tb, err, sizeof err) == PLN_OK, "%s", err);
    check_times(&tb, tr.duration, 200.0);
    check_values(&tr, &tb);

    /* .waist: the fixed base pose on every line; .zmp: the multibody ZMP in the waist
     * frame, checked by another route: the ground wrench from the centroidal momentum
     * rate (f = p' - m g, n_G = L_G'), and it must differ from the ground projection of
     * the centre of mass (else this test could not tell the two apart) */
    ck_assert_int_eq(pln_robot_load(ROBOT, &robot, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_kin_create(&robot, &kin, err, sizeof err), PLN_OK);
    snprintf(path, sizeof path, "%s/out/motion.waist", g_dir);
    ck_assert_msg(pln_table_read(path, &waist, err, sizeof err) == PLN_OK, "%s", err);
    snprintf(path, sizeof path, "%s/out/motion.zmp", g_dir);
    ck_assert_msg(pln_table_read(path, &zmp, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(waist.n_joints, 6);
    ck_assert_int_eq(zmp.n_joints, 3);
    ck_assert_int_eq(waist.n_rows, tb.n_rows);
    ck_assert_int_eq(zmp.n_rows, tb.n_rows);
    ck_assert_int_eq(pln_dyn_create(&robot, &dyn, err, sizeof err), PLN_OK);
    state = calloc((size_t)(3 * tr.n_joints), sizeof *state);
    nu = calloc((size_t)(6 + tr.n_joints), sizeof *nu);
    nud = calloc((size_t)(6 + tr.n_joints), sizeof *nud);
    for (int r = 0; r < tb.n_rows; ++r) {
        double com[3], rpy[3], R[9], c2[3], hd[6], f[3], n[3], zx, zy;
        PlnDynState s;
        ck_assert(waist.t[r] == tb.t[r] && zmp.t[r] == tb.t[r]);
        ck_assert_int_eq(pln_kin_forward(kin, &robot, tb.q + (size_t)r * tb.n_joints), PLN_OK);
        ck_assert_int_eq(pln_kin_com(kin, &robot, com), PLN_OK);
        /* hrp2's base has no rotation: waist frame = world shifted by base_pos */
        for (int k = 0; k < 3; ++k) {
            ck_assert(waist.q[(size_t)r * 6 + k] == robot.base_pos[k]);
            rpy[k] = waist.q[(size_t)r * 6 + 3 + k];
        }
        pln_kin_rpy_to_matrix(rpy, R);
        for (int k = 0; k < 9; ++k) ck_assert(fabs(R[k] - robot.base_rot[k]) <= RPY_TOL);
        ck_assert_int_eq(pln_export_state_at(&tr, tb.t[r], state), PLN_OK);
        memset(&s, 0, sizeof s);
        memcpy(s.base_pos, robot.base_pos, sizeof s.base_pos);
        memcpy(s.base_rot, robot.base_rot, sizeof s.base_rot);
        memcpy(nu + 6, state + tr.n_joints, (size_t)tr.n_joints * sizeof *nu);
        memcpy(nud + 6, state + 2 * tr.n_joints, (size_t)tr.n_joints * sizeof *nud);
        s.q = state;
        s.nu = nu;
        s.nudot = nud;
        ck_assert_int_eq(pln_dyn_centroidal(dyn, &robot, &s, c2, NULL, hd), PLN_OK);
        for (int k = 0; k < 3; ++k) f[k] = hd[3 + k] + (k == 2 ? robot.total_mass * PLN_GRAVITY_MS2 : 0.0);
        n[0] = hd[0] + c2[1] * f[2] - c2[2] * f[1];
        n[1] = hd[1] + c2[2] * f[0] - c2[0] * f[2];
        zx = -n[1] / f[2];
        zy = n[0] / f[2];
        ck_assert_msg(fabs(zmp.q[(size_t)r * 3 + 0] - (zx - robot.base_pos[0])) <= ZMP_DYN_TOL,
                      "t %g: zmp x %.17g vs %.17g", tb.t[r], zmp.q[(size_t)r * 3], zx - robot.base_pos[0]);
        ck_assert(fabs(zmp.q[(size_t)r * 3 + 1] - (zy - robot.base_pos[1])) <= ZMP_DYN_TOL);
        ck_assert(fabs(zmp.q[(size_t)r * 3 + 2] - (0.0 - robot.base_pos[2])) <= ZMP_TOL);
        dyn_effect = fmax(dyn_effect, fabs(zx - com[0]) + fabs(zy - com[1]));
    }
    ck_assert_msg(dyn_effect > 1e-4, "the ZMP never leaves the centre of mass' projection (%g m)",
                  dyn_effect);
    free(state);
    free(nu);
    free(nud);
    pln_dyn_destroy(dyn);
    /* the controller's table is certified by check */
    snprintf(args, sizeof args, "check %s '%s/out/motion.pos'", SCENARIO, g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the exported .pos failed, see %s", log);
    pln_table_destroy(&tb);
    pln_table_destroy(&waist);
    pln_table_destroy(&zmp);
    pln_kin_destroy(kin);
    pln_robot_destroy(&robot);
    pln_export_trajectory_destroy(&tr);
}
END_TEST

START_TEST(test_plan_wrote_plots_and_viewer)
{
    /* besides the trajectory files, a certified plan writes the hrpsys companions of its
     * .pos, joints.svg and view.html */
    static const char *const names[] = {"trajectory.json", "trajectory.csv", "trajectory.pos",
                                        "trajectory.waist", "trajectory.zmp", "report.json",
                                        "distance.svg", "joints.svg", "view.html"};
    char path[512];
    struct stat sb;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        snprintf(path, sizeof path, "%s/out/%s", g_dir, names[i]);
        ck_assert_msg(stat(path, &sb) == 0 && sb.st_size > 0, "%s missing", names[i]);
    }
}
END_TEST

START_TEST(test_plan_companions_match_export)
{
    /* plan's trajectory.waist / .zmp are the export's at the scenario rate (200 Hz) */
    char args[2048], log[512], a[512], b[512];
    static char ta[1 << 20], tb[1 << 20];
    static const char *const ext[] = {"pos", "waist", "zmp"};
    snprintf(log, sizeof log, "%s/export.log", g_dir);
    snprintf(args, sizeof args, "export '%s/out/trajectory.json' --format pos -o '%s/out/same.pos'",
             g_dir, g_dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    for (int i = 0; i < 3; ++i) {
        snprintf(a, sizeof a, "%s/out/trajectory.%s", g_dir, ext[i]);
        snprintf(b, sizeof b, "%s/out/same.%s", g_dir, ext[i]);
        ck_assert(ckutil_read_file(a, ta, sizeof ta) > 0);
        ck_assert(ckutil_read_file(b, tb, sizeof tb) > 0);
        ck_assert_msg(strcmp(ta, tb) == 0, "%s and %s differ", a, b);
    }
}
END_TEST

START_TEST(test_uncertified_plan_removes_hrpsys_files)
{
    /* a plan that cannot be certified leaves no .pos and no stale companions */
    char dir[256], args[1024], log[512], path[512];
    static const char *const ext[] = {"pos", "waist", "zmp"};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(args, sizeof args, "plan scenarios/hand_cross.yaml -q -o '%s/out'", dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    for (int i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/out/trajectory.%s", dir, ext[i]);
        ck_assert(file_exists(path));
    }
    snprintf(args, sizeof args, "plan scenarios/hand_cross.yaml --no-collision -q -o '%s/out'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    for (int i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/out/trajectory.%s", dir, ext[i]);
        ck_assert_msg(!file_exists(path), "%s survived", path);
    }
    snprintf(path, sizeof path, "%s/out", dir);
    ckutil_rm_flat(path);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_pos_without_extension_gets_companions)
{
    char args[2048], log[512], path[512];
    snprintf(log, sizeof log, "%s/export.log", g_dir);
    snprintf(args, sizeof args, "export '%s/out/trajectory.json' --format pos -o '%s/out/bare'",
             g_dir, g_dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    snprintf(path, sizeof path, "%s/out/bare", g_dir);
    ck_assert(file_exists(path));
    snprintf(path, sizeof path, "%s/out/bare.waist", g_dir);
    ck_assert(file_exists(path));
    snprintf(path, sizeof path, "%s/out/bare.zmp", g_dir);
    ck_assert(file_exists(path));
}
END_TEST

START_TEST(test_csv_round_trip_at_odd_rate)
{
    /* 45.3 Hz over 2 s: the last regular sample is 1.987 s, then exactly 2 s */
    char args[2048], log[512], path[512], err[1024];
    PlnExportTrajectory tr;
    PlnTable tb;
    read_fixture(&tr);
    snprintf(log, sizeof log, "%s/export.log", g_dir);
    snprintf(args, sizeof args,
             "export '%s/out/trajectory.json' --format csv --rate 45.3 -o '%s/out/motion.csv'", g_dir,
             g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "export failed, see %s", log);
    snprintf(path, sizeof path, "%s/out/motion.csv", g_dir);
    ck_assert_msg(pln_table_read(path, &tb, err, sizeof err) == PLN_OK, "%s", err);
    check_times(&tb, tr.duration, 45.3);
    ck_assert_int_eq(tb.n_rows, 92);
    for (int j = 0; j < tr.n_joints; ++j) ck_assert_str_eq(tb.names[j], tr.joints[j]);
    check_values(&tr, &tb);
    /* check certifies a table at a rate that samples the task time (1 s); at 45.3 Hz
     * the straight lines between samples miss the joint task by ~6e-5 rad, and check
     * rightly says so */
    snprintf(args, sizeof args,
             "export '%s/out/trajectory.json' --format csv --rate 250 -o '%s/out/motion250.csv'",
             g_dir, g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "export failed, see %s", log);
    snprintf(args, sizeof args, "check %s '%s/out/motion250.csv'", SCENARIO, g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the exported .csv failed, see %s", log);
    pln_table_destroy(&tb);
    pln_export_trajectory_destroy(&tr);
}
END_TEST

START_TEST(test_json_export_is_a_trajectory)
{
    char args[2048], log[512], path[512], err[1024];
    PlnExportTrajectory tr, back;
    read_fixture(&tr);
    snprintf(log, sizeof log, "%s/export.log", g_dir);
    snprintf(args, sizeof args,
             "export '%s/out/trajectory.json' --format json --rate 100 -o '%s/out/again.json'", g_dir,
             g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "export failed, see %s", log);
    snprintf(path, sizeof path, "%s/out/again.json", g_dir);
    ck_assert_msg(pln_export_trajectory_read(path, &back, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(back.certified, 1);
    ck_assert_str_eq(back.robot_file, tr.robot_file);
    ck_assert_int_eq(back.n_active, tr.n_active);
    ck_assert_int_eq(back.bs->n_ctrl, tr.bs->n_ctrl);
    for (int i = 0; i < tr.n_active * tr.bs->n_ctrl; ++i) ck_assert(back.ctrl[i] == tr.ctrl[i]);
    for (int i = 0; i < tr.bs->n_knots; ++i) ck_assert(back.bs->knots[i] == tr.bs->knots[i]);
    /* check reads it as the spline of the scenario */
    snprintf(args, sizeof args, "check %s '%s'", SCENARIO, path);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the exported .json failed, see %s", log);
    pln_export_trajectory_destroy(&back);
    pln_export_trajectory_destroy(&tr);
}
END_TEST

/* ---- ROS YAML through libyaml ---- */

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    ck_assert_int_eq(map->type, YAML_MAPPING_NODE);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0) {
            return yaml_document_get_node(doc, p->value);
        }
    }
    ck_abort_msg("key %s missing", key);
    return NULL;
}

static int seq_len(yaml_node_t *n)
{
    ck_assert_int_eq(n->type, YAML_SEQUENCE_NODE);
    return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

static yaml_node_t *seq_item(yaml_document_t *doc, yaml_node_t *n, int i)
{
    return yaml_document_get_node(doc, n->data.sequence.items.start[i]);
}

static long long scalar_ll(yaml_node_t *n)
{
    char *end;
    long long v;
    ck_assert_int_eq(n->type, YAML_SCALAR_NODE);
    v = strtoll((char *)n->data.scalar.value, &end, 10);
    ck_assert(*end == '\0');
    return v;
}

static double scalar_d(yaml_node_t *n)
{
    char *end;
    const char *s;
    double v;
    ck_assert_int_eq(n->type, YAML_SCALAR_NODE);
    s = (const char *)n->data.scalar.value;
    v = strtod(s, &end);
    ck_assert(*end == '\0');
    /* every float is written so that YAML 1.1 resolvers (PyYAML, ROS) read a float */
    ck_assert_msg(strchr(s, '.') != NULL, "'%s' would not read as a float", s);
    return v;
}

START_TEST(test_ros_yaml_parses_and_times_increase)
{
    char args[2048], log[512], path[512];
    PlnExportTrajectory tr;
    FILE *f;
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_node_t *root, *names, *points;
    long long prev = -1;
    int n;
    read_fixture(&tr);
    snprintf(log, sizeof log, "%s/export.log", g_dir);
    snprintf(args, sizeof args,
             "export '%s/out/trajectory.json' --format ros --rate 50 -o '%s/out/motion.yaml'", g_dir,
             g_dir);
    ck_assert_msg(hrpplan(args, log) == 0, "export failed, see %s", log);
    snprintf(path, sizeof path, "%s/out/motion.yaml", g_dir);
    f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    ck_assert_msg(yaml_parser_load(&parser, &doc), "libyaml: %s", parser.problem);
    root = yaml_document_get_root_node(&doc);
    ck_assert_ptr_nonnull(root);
    names = map_get(&doc, root, "joint_names");
    ck_assert_int_eq(seq_len(names), tr.n_joints);
    for (int j = 0; j < tr.n_joints; ++j) {
        ck_assert_str_eq((char *)seq_item(&doc, names, j)->data.scalar.value, tr.joints[j]);
    }
    points = map_get(&doc, root, "points");
    n = seq_len(points);
    ck_assert_int_eq(n, expected_rows(tr.duration, 50.0));
    for (int r = 0; r < n; ++r) {
        yaml_node_t *pt = seq_item(&doc, points, r);
        yaml_node_t *tfs = map_get(&doc, pt, "time_from_start");
        yaml_node_t *pos = map_get(&doc, pt, "positions");
        yaml_node_t *vel = map_get(&doc, pt, "velocities");
        yaml_node_t *acc = map_get(&doc, pt, "accelerations");
        long long sec = scalar_ll(map_get(&doc, tfs, "sec"));
        long long ns = scalar_ll(map_get(&doc, tfs, "nanosec"));
        long long stamp = sec * 1000000000LL + ns;
        double t = r + 1 < n ? r / 50.0 : tr.duration;
        ck_assert(ns >= 0 && ns < 1000000000LL);
        ck_assert_msg(stamp > prev, "point %d: time does not increase", r);
        ck_assert(llabs(stamp - llround(t * 1e9)) <= 1);
        prev = stamp;
        ck_assert_int_eq(seq_len(pos), tr.n_joints);
        ck_assert_int_eq(seq_len(vel), tr.n_joints);
        ck_assert_int_eq(seq_len(acc), tr.n_joints);
        /* the velocities are the spline's derivative */
        for (int a = 0; a < tr.n_active; ++a) {
            double d[2];
            ck_assert_int_eq(pln_bspline_eval(tr.bs, tr.ctrl + (size_t)a * tr.bs->n_ctrl, t, 1, d), PLN_OK);
            ck_assert(fabs(scalar_d(seq_item(&doc, pos, tr.active[a])) - d[0]) <= ROUNDTRIP_TOL);
            ck_assert(fabs(scalar_d(seq_item(&doc, vel, tr.active[a])) - d[1]) <= ROS_VELOCITY_TOL);
            (void)scalar_d(seq_item(&doc, acc, tr.active[a]));
        }
    }
    ck_assert(prev == llround(tr.duration * 1e9));
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    pln_export_trajectory_destroy(&tr);
}
END_TEST

/* ---- hand-made trajectories ---- */

/* writes a trajectory.json of robots/hrp2.yaml moving one joint from its initial value
 * to `to` rad in `duration` s along a quintic (one span: the smoothstep whose top
 * speed is 1.875 |to - from| / duration). extra: raw JSON text inserted at the top level
 * (nullable); knot_shift moves one interior-free knot to break uniformity. */
static void write_hand_made(const char *path, const char *joint, double to, double duration,
                            int certified, const char *robot_file, double knot_shift)
{
    char err[512];
    PlnRobot robot;
    FILE *f;
    int jj;
    double from;
    ck_assert_int_eq(pln_robot_load(ROBOT, &robot, err, sizeof err), PLN_OK);
    jj = pln_robot_find_joint(&robot, joint);
    ck_assert_int_ge(jj, 0);
    from = robot.joints[jj].initial;
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{\"format\": \"hrpplan-trajectory\", \"version\": 1, \"scenario\": \"hand made\",\n");
    fprintf(f, " \"robot\": \"%s\",", robot.name);
    if (robot_file != NULL) fprintf(f, " \"robot_file\": \"%s\",", robot_file);
    fprintf(f, " \"certified\": %s, \"duration\": %.17g,\n \"joints\": [", certified ? "true" : "false",
            duration);
    for (int j = 0; j < robot.n_joints; ++j) fprintf(f, "%s\"%s\"", j ? ", " : "", robot.joints[j].name);
    fprintf(f, "],\n \"initial\": [");
    for (int j = 0; j < robot.n_joints; ++j) fprintf(f, "%s%.17g", j ? ", " : "", robot.joints[j].initial);
    fprintf(f, "],\n \"spline\": {\"degree\": 5, \"knots\": [0, 0, 0, 0, 0, %.17g, ", knot_shift);
    for (int i = 0; i < 6; ++i) fprintf(f, "%.17g%s", duration, i < 5 ? ", " : "");
    fprintf(f, "], \"joints\": [\"%s\"],\n  \"control_points\": [[%.17g, %.17g, %.17g, %.17g, %.17g, "
               "%.17g]]}}\n",
            joint, from, from, from, to, to, to);
    fclose(f);
    pln_robot_destroy(&robot);
}

START_TEST(test_velocity_violation_refused)
{
    /* RARM_JOINT0 from 0.2618 to -2.9 rad in 1 s: top speed 5.93 rad/s > 3.9 rad/s,
     * positions inside [-3.142, 1.047] */
    char dir[256], path[512], out[512], args[2048], log[512], text[4096];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fast.json", dir);
    snprintf(out, sizeof out, "%s/fast.pos", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    write_hand_made(path, "RARM_JOINT0", -2.9, 1.0, 1, ROBOT, 0.0);
    snprintf(args, sizeof args, "export '%s' --format pos -o '%s'", path, out);
    ck_assert_int_eq(hrpplan(args, log), 3);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "RARM_JOINT0") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "velocity") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "t = ") != NULL, "%s", text);
    ck_assert(!file_exists(out));
    /* --force does not override a limit */
    snprintf(args, sizeof args, "export '%s' --format csv --force -o '%s'", path, out);
    ck_assert_int_eq(hrpplan(args, log), 3);
    ck_assert(!file_exists(out));
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_velocity_violation_time_is_the_first)
{
    /* the library names the earliest violating sample: check it against the spline */
    char dir[256], path[512], err[1024], want[64];
    PlnExportTrajectory tr;
    PlnRobot robot;
    PlnTable tb;
    double t_first = -1.0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fast.json", dir);
    write_hand_made(path, "RARM_JOINT0", -2.9, 1.0, 1, ROBOT, 0.0);
    ck_assert_int_eq(pln_export_trajectory_read(path, &tr, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_robot_load(ROBOT, &robot, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_export_trajectory_resolve(&tr, &robot, err, sizeof err), PLN_OK);
    for (int k = 0; k <= 100 && t_first < 0; ++k) {
        double d[2], t = k / 100.0;
        ck_assert_int_eq(pln_bspline_eval(tr.bs, tr.ctrl, t, 1, d), PLN_OK);
        if (fabs(d[1]) > robot.joints[tr.active[0]].velocity_max + PLN_CERT_SLACK) t_first = t;
    }
    ck_assert(t_first > 0.0);
    ck_assert_int_eq(pln_export_sample_checked(&tr, &robot, 100.0, &tb, err, sizeof err),
                     PLN_ERR_NOT_CERTIFIED);
    snprintf(want, sizeof want, "t = %.6g s", t_first);
    ck_assert_msg(strstr(err, want) != NULL, "'%s' does not name %s", err, want);
    ck_assert_ptr_null(tb.q); /* nothing left to free */
    pln_robot_destroy(&robot);
    pln_export_trajectory_destroy(&tr);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_position_violation_refused)
{
    /* RARM_JOINT0 to -3.3 rad (lower limit -3.142) slowly: 0.67 rad/s */
    char dir[256], path[512], out[512], args[2048], log[512], text[4096];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/far.json", dir);
    snprintf(out, sizeof out, "%s/far.yaml", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    write_hand_made(path, "RARM_JOINT0", -3.3, 10.0, 1, ROBOT, 0.0);
    snprintf(args, sizeof args, "export '%s' --format ros -o '%s'", path, out);
    ck_assert_int_eq(hrpplan(args, log), 3);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "RARM_JOINT0") != NULL && strstr(text, "position") != NULL, "%s",
                  text);
    ck_assert(!file_exists(out));
    ckutil_rm_flat(dir);
}
END_TEST

/* the first line of a file */
static void first_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(buf, (int)size, f));
    fclose(f);
}

START_TEST(test_uncertified_needs_force_and_says_so)
{
    static const char *const formats[] = {"pos", "csv", "json", "ros"};
    char dir[256], path[512], out[512], args[2048], log[512], line[256], text[8192];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/slow.json", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 0, ROBOT, 0.0);
    {
        /* the plan's report beside it (a minimal one): each forced export is recorded */
        char report[600];
        FILE *f;
        snprintf(report, sizeof report, "%s/report.json", dir);
        f = fopen(report, "w");
        ck_assert_ptr_nonnull(f);
        fputs("{\n  \"status\": \"not_certified\",\n  \"reason\": \"too fast\"\n}\n", f);
        fclose(f);
    }
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; ++i) {
        snprintf(out, sizeof out, "%s/e.%s", dir, formats[i]);
        snprintf(args, sizeof args, "export '%s' --format %s -o '%s'", path, formats[i], out);
        ck_assert_int_eq(hrpplan(args, log), 3);
        ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
        ck_assert_msg(strstr(text, "not certified") != NULL, "%s", text);
        ck_assert(!file_exists(out));
        snprintf(args, sizeof args, "export '%s' --format %s --force -o '%s'", path, formats[i], out);
        ck_assert_int_eq(hrpplan(args, log), 0);
        ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
        ck_assert_msg(strstr(text, "warning:") != NULL && strstr(text, "NOT CERTIFIED") != NULL, "%s", text);
        ck_assert_msg(strstr(text, "recorded in the report.json") != NULL, "%s", text);
        if (strcmp(formats[i], "json") == 0) {
            ck_assert(ckutil_read_file(out, text, sizeof text) > 0);
            ck_assert(strstr(text, "\"comment\": \"NOT CERTIFIED") != NULL);
            ck_assert(strstr(text, "\"certified\": false") != NULL);
        } else if (strcmp(formats[i], "ros") == 0) {
            ck_assert(ckutil_read_file(out, text, sizeof text) > 0);
            ck_assert(strstr(text, "\n# NOT CERTIFIED") != NULL);
        } else if (strcmp(formats[i], "csv") == 0) {
            first_line(out, line, sizeof line);
            ck_assert_msg(strncmp(line, "# NOT CERTIFIED", 15) == 0, "%s: %s", out, line);
        }
    }
    {
        /* report.json is still one JSON object, now with the four forced exports in order */
        char report[600];
        PlnYaml y;
        yaml_node_t *list;
        int n = 0;
        snprintf(report, sizeof report, "%s/report.json", dir);
        ck_assert_int_eq(pln_yaml_load(&y, report, text, sizeof text), PLN_OK);
        list = pln_yaml_get(&y, pln_yaml_root(&y), "forced_exports");
        ck_assert_ptr_nonnull(list);
        ck_assert_int_eq(pln_yaml_sequence(&y, list, "forced_exports", &n), PLN_OK);
        ck_assert_int_eq(n, 4);
        for (int k = 0; k < 4; ++k) {
            yaml_node_t *e = pln_yaml_item(&y, list, k);
            char fmt[32];
            ck_assert_int_eq(pln_yaml_string(&y, e, "e", "format", 1, fmt, sizeof fmt), PLN_OK);
            ck_assert_str_eq(fmt, formats[k]);
            ck_assert_ptr_nonnull(pln_yaml_get(&y, e, "time"));
            ck_assert_ptr_nonnull(pln_yaml_get(&y, e, "file"));
        }
        ck_assert_ptr_nonnull(pln_yaml_get(&y, pln_yaml_root(&y), "reason")); /* kept */
        pln_yaml_free(&y);
        /* without a report beside the trajectory, the export says it is recorded nowhere */
        ck_assert_int_eq(remove(report), 0);
        snprintf(out, sizeof out, "%s/e.csv", dir);
        snprintf(args, sizeof args, "export '%s' --format csv --force -o '%s'", path, out);
        ck_assert_int_eq(hrpplan(args, log), 0);
        ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
        ck_assert_msg(strstr(text, "recorded nowhere") != NULL, "%s", text);
    }
    /* hrpsys files hold numbers only, forced or not: every character of .pos, .zmp and
     * .waist is a digit, sign, point, exponent, space or newline */
    {
        static const char *const ext[] = {"pos", "zmp", "waist"};
        for (int k = 0; k < 3; ++k) {
            static char all[1 << 20];
            long n;
            snprintf(out, sizeof out, "%s/e.%s", dir, ext[k]);
            n = ckutil_read_file(out, all, sizeof all);
            ck_assert(n > 0);
            for (long c = 0; c < n; ++c) {
                ck_assert_msg(strchr("0123456789+-.eE \n", all[c]) != NULL, "%s: byte %ld is '%c'", out, c, all[c]);
            }
        }
    }
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_bad_files_exit_2_naming_the_field)
{
    char dir[256], path[512], out[512], args[2048], log[512], text[4096];
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.json", dir);
    snprintf(out, sizeof out, "%s/e.csv", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(args, sizeof args, "export '%s' --format csv -o '%s'", path, out);

    /* no robot_file (an older trajectory.json) */
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, NULL, 0.0);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "robot_file") != NULL, "%s", text);

    /* a robot file that does not exist */
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, "robots/none.yaml", 0.0);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "robots/none.yaml") != NULL, "%s", text);

    /* knots that are not the clamped uniform vector */
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, ROBOT, 0.5);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "spline.knots") != NULL, "%s", text);

    /* a moving joint the robot does not have */
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, ROBOT, 0.0);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    {
        char *p = strstr(text, "\"joints\": [\"RARM_JOINT0\"]");
        ck_assert_ptr_nonnull(p);
        memcpy(p + strlen("\"joints\": [\""), "XARM", 4);
        f = fopen(path, "w");
        fputs(text, f);
        fclose(f);
    }
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "spline.joints[0]") != NULL && strstr(text, "XARM_JOINT0") != NULL,
                  "%s", text);

    /* a rate asking for more samples than an export may hold */
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, ROBOT, 0.0);
    snprintf(args, sizeof args, "export '%s' --format csv --rate 2e6 -o '%s'", path, out);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "--rate") != NULL, "%s", text);
    snprintf(args, sizeof args, "export '%s' --format csv -o '%s'", path, out);

    /* truncated */
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, ROBOT, 0.0);
    ck_assert(truncate(path, 200) == 0);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(!file_exists(out));
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_other_robot_refused)
{
    /* the trajectory names robot hrp2 but its joints do not match the file's order */
    char dir[256], path[512], err[1024];
    PlnExportTrajectory tr;
    PlnRobot robot;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.json", dir);
    write_hand_made(path, "RARM_JOINT0", -1.0, 2.0, 1, ROBOT, 0.0);
    ck_assert_int_eq(pln_export_trajectory_read(path, &tr, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_robot_load(ROBOT, &robot, err, sizeof err), PLN_OK);
    snprintf(tr.joints[3], PLN_NAME_MAX, "%s", "SOMETHING_ELSE");
    ck_assert_int_eq(pln_export_trajectory_resolve(&tr, &robot, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, "joints[3]") != NULL, "%s", err);
    snprintf(tr.robot, PLN_NAME_MAX, "%s", "hrp4");
    ck_assert_int_eq(pln_export_trajectory_resolve(&tr, &robot, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, "hrp4") != NULL, "%s", err);
    pln_robot_destroy(&robot);
    pln_export_trajectory_destroy(&tr);
    ckutil_rm_flat(dir);
}
END_TEST

/* local RNG: xorshift64* */
static double rng_uniform(uint64_t *s, double lo, double hi)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return lo + (hi - lo) * (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

START_TEST(test_matrix_to_rpy_inverts_rpy_to_matrix)
{
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 2000; ++i) {
        double rpy[3], back[3], R[9], R2[9];
        rpy[0] = rng_uniform(&seed, -PLN_PI, PLN_PI);
        rpy[1] = rng_uniform(&seed, -PLN_PI / 2, PLN_PI / 2);
        rpy[2] = rng_uniform(&seed, -PLN_PI, PLN_PI);
        if (i % 10 == 0) rpy[1] = (i % 20 == 0 ? 1 : -1) * PLN_PI / 2; /* gimbal lock */
        if (i % 10 == 1) rpy[0] = rpy[1] = rpy[2] = 0.0;
        pln_kin_rpy_to_matrix(rpy, R);
        pln_export_matrix_to_rpy(R, back);
        pln_kin_rpy_to_matrix(back, R2);
        for (int k = 0; k < 9; ++k) {
            ck_assert_msg(fabs(R[k] - R2[k]) <= RPY_TOL, "case %d entry %d: %g vs %g", i, k,
                          R[k], R2[k]);
        }
        if (fabs(fabs(rpy[1]) - PLN_PI / 2) > GIMBAL_BAND) {
            for (int k = 0; k < 3; ++k) ck_assert(fabs(back[k] - rpy[k]) <= RPY_ANGLE_TOL);
        }
    }
}
END_TEST

START_TEST(test_format_names_round_trip)
{
    const char *names[] = {"pos", "csv", "json", "ros"};
    PlnExportFormat f;
    for (int i = 0; i < 4; ++i) {
        ck_assert_int_eq(pln_format_from_string(names[i], &f), PLN_OK);
        ck_assert_str_eq(pln_format_string(f), names[i]);
    }
    ck_assert_int_eq(pln_format_from_string("POS", &f), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_format_from_string("", &f), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_format_from_string(NULL, &f), PLN_ERR_INVALID);
}
END_TEST

Suite *pln_export_suite(void)
{
    Suite *s = suite_create("pln_export");
    TCase *tc = tcase_create("round_trip");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, plan_fixture, plan_teardown);
    tcase_add_test(tc, test_plan_wrote_plots_and_viewer);
    tcase_add_test(tc, test_pos_round_trip_with_waist_and_zmp);
    tcase_add_test(tc, test_plan_companions_match_export);
    tcase_add_test(tc, test_pos_without_extension_gets_companions);
    tcase_add_test(tc, test_csv_round_trip_at_odd_rate);
    tcase_add_test(tc, test_json_export_is_a_trajectory);
    tcase_add_test(tc, test_ros_yaml_parses_and_times_increase);
    suite_add_tcase(s, tc);
    tc = tcase_create("refusals");
    tcase_set_timeout(tc, 600); /* two plans of hand_cross under the sanitizers */
    tcase_add_test(tc, test_velocity_violation_refused);
    tcase_add_test(tc, test_velocity_violation_time_is_the_first);
    tcase_add_test(tc, test_position_violation_refused);
    tcase_add_test(tc, test_uncertified_needs_force_and_says_so);
    tcase_add_test(tc, test_uncertified_plan_removes_hrpsys_files);
    suite_add_tcase(s, tc);
    tc = tcase_create("reader");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_bad_files_exit_2_naming_the_field);
    tcase_add_test(tc, test_other_robot_refused);
    tcase_add_test(tc, test_format_names_round_trip);
    tcase_add_test(tc, test_matrix_to_rpy_inverts_rpy_to_matrix);
    suite_add_tcase(s, tc);
    return s;
}
