/* check_pln_plan.c — end-to-end tests of planner/problem/pln_plan.c through the real hrpplan
 * binary ($HRPPLAN_BIN): the three capsule benchmarks of thesis sec. VI.A.3 collide
 * without collision constraints (exit 3, negative certified clearance, no .pos) and are
 * certified with them (exit 0, every pair's lower bound >= 0); `check` re-certifies the
 * outputs in each format; bad input exits 2 naming the file. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#include "base/pln_tolerance.h"
#include "check_util.h"
#include "motion/pln_table.h"
#include "problem/pln_plan.h"

/* runs hrpplan with args, stdout+stderr into log; returns the exit status */
/* Every plan here runs with --max-time 86400: these tests check what a plan gives, and a
 * wall-clock stop (the scenarios' optimizer.time_limit) would make that depend on the
 * machine's speed (under ASan or valgrind, or a loaded machine, twist's 60 s ran out). */
static int hrpplan(const char *args, const char *log)
{
    const char *bin = getenv("HRPPLAN_BIN");
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd, "'%s' %s%s > '%s' 2>&1", bin && *bin ? bin : "build/hrpplan", args,
             strncmp(args, "plan ", 5) == 0 ? " --max-time 86400" : "", log);
    st = system(cmd);
    ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
    return WEXITSTATUS(st);
}

static int exists(const char *dir, const char *name)
{
    char path[1024];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &sb) == 0 && sb.st_size > 0;
}

/* a scalar of dir/file (a JSON document) by key (top level, or one level into an
 * object), through libyaml (JSON is YAML) */
static int json_value(const char *dir, const char *file, const char *key, char *out, size_t size)
{
    char path[1024];
    FILE *f;
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_node_t *root;
    int found = 0;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    f = fopen(path, "rb");
    if (f == NULL) return 0;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, f);
    if (yaml_parser_load(&p, &doc)) {
        root = yaml_document_get_root_node(&doc);
        for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; ++pr) {
            yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
            yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
            if (strcmp((char *)k->data.scalar.value, key) == 0 && v->type == YAML_SCALAR_NODE) {
                snprintf(out, size, "%s", (char *)v->data.scalar.value);
                found = 1;
            }
            /* one level down: the keys of an object such as "dynamics" */
            for (yaml_node_pair_t *q = v->type == YAML_MAPPING_NODE ? v->data.mapping.pairs.start : NULL;
                 q != NULL && q < v->data.mapping.pairs.top; ++q) {
                yaml_node_t *k2 = yaml_document_get_node(&doc, q->key);
                yaml_node_t *v2 = yaml_document_get_node(&doc, q->value);
                if (!found && strcmp((char *)k2->data.scalar.value, key) == 0 && v2->type == YAML_SCALAR_NODE) {
                    snprintf(out, size, "%s", (char *)v2->data.scalar.value);
                    found = 1;
                }
            }
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&p);
    fclose(f);
    return found;
}

static int report_value(const char *dir, const char *key, char *out, size_t size)
{
    return json_value(dir, "report.json", key, out, size);
}

/* a number of dir/sim.json (NAN when absent or null) */
static double sim_number(const char *dir, const char *key)
{
    char v[64];
    if (!json_value(dir, "sim.json", key, v, sizeof v) || strcmp(v, "null") == 0) return NAN;
    return strtod(v, NULL);
}

/* `hrpplan simulate` of dir/trajectory.json on the scenario: exit 0, the robot stands,
 * its feet slip < 5 mm, the centre of pressure stays inside the support polygon and
 * within 1 cm (rms) of the planned ZMP (issue 17's acceptance) */
static void assert_stands(const char *scenario, const char *dir)
{
    char args[1024], log[600], v[64];
    snprintf(log, sizeof log, "%s/sim.log", dir);
    snprintf(args, sizeof args, "simulate '%s' '%s/trajectory.json' -o '%s'", scenario, dir, dir);
    ck_assert_msg(hrpplan(args, log) == 0, "%s did not stand in simulation, see %s", scenario, log);
    ck_assert(json_value(dir, "sim.json", "fell", v, sizeof v));
    ck_assert_str_eq(v, "false");
    ck_assert_msg(sim_number(dir, "slip_max_mm") < 5.0, "%s: slip %g mm", scenario,
                  sim_number(dir, "slip_max_mm"));
    ck_assert_msg(sim_number(dir, "cop_margin_min_m") > 0.0, "%s: CoP margin %g", scenario,
                  sim_number(dir, "cop_margin_min_m"));
    ck_assert_msg(sim_number(dir, "cop_zmp_rms_m") <= 0.01, "%s: CoP-ZMP rms %g", scenario,
                  sim_number(dir, "cop_zmp_rms_m"));
    ck_assert(exists(dir, "sim.svg"));
}

static const char *const SCENARIOS[] = {"hand_cross", "twist", "pick"};

START_TEST(test_benchmark_collides_without_constraints)
{
    char dir[256], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan scenarios/%s.yaml --no-collision -q -o '%s/out'", SCENARIOS[_i],
             dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    strcat(dir, "/out");
    ck_assert(report_value(dir, "status", v, sizeof v));
    ck_assert_str_eq(v, "not_certified");
    ck_assert(report_value(dir, "cause", v, sizeof v));
    ck_assert_str_eq(v, "contact");
    ck_assert(report_value(dir, "min_clearance_m", v, sizeof v));
    ck_assert_msg(strtod(v, NULL) < 0.0, "%s: clearance %s should be negative", SCENARIOS[_i], v);
    ck_assert(exists(dir, "trajectory.json"));
    ck_assert(exists(dir, "trajectory.csv"));
    ck_assert(exists(dir, "distance.svg"));
    ck_assert_msg(!exists(dir, "trajectory.pos"), "no .pos for an uncertified plan");

    /* MuJoCo sees the collision: exit 3, and every pair it saw in contact is one that
     * check reports (the links stop each other at the first contact, so later pairs
     * of the kinematic plan need not occur in physics) */
    {
        char slog[600], clog[600], stext[16384], ctext[65536], *line;
        int seen = 0;
        snprintf(slog, sizeof slog, "%s/sim.log", dir);
        snprintf(clog, sizeof clog, "%s/check.log", dir);
        snprintf(args, sizeof args, "simulate scenarios/%s.yaml '%s/trajectory.json' -o '%s'", SCENARIOS[_i], dir, dir);
        ck_assert_int_eq(hrpplan(args, slog), 3);
        snprintf(args, sizeof args, "check scenarios/%s.yaml '%s/trajectory.json'", SCENARIOS[_i], dir);
        ck_assert_int_eq(hrpplan(args, clog), 3);
        ck_assert(ckutil_read_file(slog, stext, sizeof stext) > 0);
        ck_assert(ckutil_read_file(clog, ctext, sizeof ctext) > 0);
        for (line = strstr(stext, "contact: "); line != NULL; line = strstr(line + 1, "contact: ")) {
            char a[64], b[64], fwd[200], rev[200], *row;
            int found = 0;
            if (sscanf(line, "contact: %63s - %63s from", a, b) != 2) continue;
            snprintf(fwd, sizeof fwd, "%s - %s ", a, b);
            snprintf(rev, sizeof rev, "%s - %s ", b, a);
            for (row = ctext; row != NULL && *row; row = strchr(row, '\n') ? strchr(row, '\n') + 1 : NULL) {
                char *end = strchr(row, '\n');
                size_t len = end ? (size_t)(end - row) : strlen(row);
                char buf[256];
                snprintf(buf, sizeof buf, "%.*s", (int)(len < 255 ? len : 255), row);
                if ((strncmp(buf, fwd, strlen(fwd)) == 0 || strncmp(buf, rev, strlen(rev)) == 0) &&
                    strstr(buf, "contact possible") != NULL) {
                    found = 1;
                }
            }
            ck_assert_msg(found, "%s: MuJoCo saw %s - %s in contact, check did not report it:\n%s",
                          SCENARIOS[_i], a, b, ctext);
            ++seen;
        }
        ck_assert_msg(seen > 0, "%s: MuJoCo saw no contact:\n%s", SCENARIOS[_i], stext);
    }
}
END_TEST

START_TEST(test_benchmark_certified_with_constraints)
{
    char dir[256], out[300], args[1024], log[512], v[64], path[600];
    PlnTable table;
    char err[512];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan scenarios/%s.yaml -q -o '%s'", SCENARIOS[_i], out);
    ck_assert_msg(hrpplan(args, log) == 0, "%s was not certified (see %s)", SCENARIOS[_i], log);
    ck_assert(report_value(out, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert(report_value(out, "cause", v, sizeof v));
    ck_assert_str_eq(v, "none");
    ck_assert(report_value(out, "min_clearance_m", v, sizeof v));
    ck_assert(strtod(v, NULL) >= 0.0);
    ck_assert(report_value(out, "max_velocity_violation", v, sizeof v));
    ck_assert(strtod(v, NULL) <= 1e-5);
    ck_assert(exists(out, "trajectory.pos"));
    /* the .pos is HRP-2's: 30 joints, one line per 5 ms, the last at the end time */
    snprintf(path, sizeof path, "%s/trajectory.pos", out);
    ck_assert_msg(pln_table_read(path, &table, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(table.n_joints, 30);
    ck_assert(table.t[0] == 0.0);
    ck_assert(table.t[table.n_rows - 1] == 6.0);
    ck_assert_int_eq(table.n_rows, 1201);
    for (int r = 1; r + 1 < table.n_rows; ++r) ck_assert(fabs(table.t[r] - table.t[r - 1] - 0.005) < 1e-12);
    pln_table_destroy(&table);

    /* check re-certifies each format */
    snprintf(args, sizeof args, "check scenarios/%s.yaml '%s/trajectory.json'", SCENARIOS[_i], out);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the json failed, see %s", log);
    snprintf(args, sizeof args, "check scenarios/%s.yaml '%s/trajectory.pos'", SCENARIOS[_i], out);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the pos failed, see %s", log);
    snprintf(args, sizeof args, "check scenarios/%s.yaml '%s/trajectory.csv'", SCENARIOS[_i], out);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the csv failed, see %s", log);

    /* it stands in MuJoCo, from the json and from the tables a controller plays */
    snprintf(path, sizeof path, "scenarios/%s.yaml", SCENARIOS[_i]);
    assert_stands(path, out);
    snprintf(args, sizeof args, "simulate scenarios/%s.yaml '%s/trajectory.pos' -o '%s/pos'", SCENARIOS[_i], out, dir);
    ck_assert_msg(hrpplan(args, log) == 0, "simulation of the pos failed, see %s", log);
    snprintf(args, sizeof args, "simulate scenarios/%s.yaml '%s/trajectory.csv' -o '%s/csv'", SCENARIOS[_i], out, dir);
    ck_assert_msg(hrpplan(args, log) == 0, "simulation of the csv failed, see %s", log);
    if (strcmp(SCENARIOS[_i], "twist") == 0) {
        /* the same motion five times faster: the robot falls, exit 3 */
        snprintf(args, sizeof args, "simulate scenarios/twist.yaml '%s/trajectory.json' --speed 5 -o '%s/fast'", out, dir);
        ck_assert_int_eq(hrpplan(args, log), 3);
        snprintf(path, sizeof path, "%s/fast", dir);
        ck_assert(json_value(path, "sim.json", "fell", v, sizeof v));
        ck_assert_str_eq(v, "true");
    }
}
END_TEST

/* the mesh scenarios of issue 6 (geometry: mesh; environment meshes from
 * `make env-meshes`): each collides without collision constraints and is certified with
 * them; check re-certifies the json */
static const char *const MESH_SCENARIOS[] = {"place", "twist_mesh", "pass"};

START_TEST(test_mesh_scenario_collides_without_constraints)
{
    char dir[256], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan scenarios/%s.yaml --no-collision -q -o '%s/out'",
             MESH_SCENARIOS[_i], dir);
    ck_assert_msg(hrpplan(args, log) == 3, "%s: see %s", MESH_SCENARIOS[_i], log);
    strcat(dir, "/out");
    ck_assert(report_value(dir, "min_clearance_m", v, sizeof v));
    ck_assert_msg(strtod(v, NULL) < 0.0, "%s: clearance %s should be negative", MESH_SCENARIOS[_i], v);
}
END_TEST

START_TEST(test_mesh_scenario_certified_with_constraints)
{
    char dir[256], out[300], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan scenarios/%s.yaml -q -o '%s'", MESH_SCENARIOS[_i], out);
    ck_assert_msg(hrpplan(args, log) == 0, "%s was not certified (see %s)", MESH_SCENARIOS[_i], log);
    ck_assert(report_value(out, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert(report_value(out, "min_clearance_m", v, sizeof v));
    ck_assert(strtod(v, NULL) >= 0.0);
    ck_assert(exists(out, "trajectory.pos"));
    ck_assert(exists(out, "view.html"));
    snprintf(args, sizeof args, "check scenarios/%s.yaml '%s/trajectory.json'", MESH_SCENARIOS[_i], out);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the json failed, see %s", log);
    snprintf(args, sizeof args, "scenarios/%s.yaml", MESH_SCENARIOS[_i]);
    assert_stands(args, out);
}
END_TEST

/* issue 19: a mesh plan whose working collision rows are PhongDist rows
 * (collision.distance phong) is certified, the certificate being Euclidean MCD as ever,
 * and its Phong queries converged (the summary counts them) */
START_TEST(test_phong_rows_plan_certified)
{
    char dir[256], out[300], args[1024], log[512], v[64], text[1 << 16], *line;
    long queries = -1, fallbacks = -1;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan tests/data/phong_reach.yaml -o '%s'", out);
    ck_assert_msg(hrpplan(args, log) == 0, "phong_reach was not certified (see %s)", log);
    ck_assert(report_value(out, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert(report_value(out, "min_clearance_m", v, sizeof v));
    ck_assert(strtod(v, NULL) >= 0.0);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    line = strstr(text, "PhongDist rows (collision.distance phong): ");
    ck_assert_msg(line != NULL, "no PhongDist summary in %s", log);
    ck_assert_int_eq(sscanf(line, "PhongDist rows (collision.distance phong): %ld queries, %ld fell",
                            &queries, &fallbacks), 2);
    ck_assert_int_gt(queries, 0);
    ck_assert_int_le(fallbacks, queries);
    {
        /* two threads: each (pair, interval) keeps its own Phong warm start, each thread
         * its own workspace, so the plan is the same file */
        char a[600], b[600], *ta = malloc(1 << 22), *tb = malloc(1 << 22);
        long na, nb;
        snprintf(args, sizeof args, "plan tests/data/phong_reach.yaml -q --threads 2 -o '%s/t2'", dir);
        ck_assert_msg(hrpplan(args, log) == 0, "phong_reach on two threads was not certified (see %s)", log);
        snprintf(a, sizeof a, "%s/trajectory.json", out);
        snprintf(b, sizeof b, "%s/t2/trajectory.json", dir);
        na = ckutil_read_file(a, ta, 1 << 22);
        nb = ckutil_read_file(b, tb, 1 << 22);
        ck_assert_int_gt(na, 0);
        ck_assert_int_eq(na, nb);
        ck_assert_msg(memcmp(ta, tb, (size_t)na) == 0, "two threads changed the Phong plan");
        free(ta);
        free(tb);
    }
}
END_TEST

START_TEST(test_check_finds_the_collision)
{
    /* the plan without constraints, checked against the scenario: exit 3 */
    char dir[256], args[1024], log[512];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan scenarios/hand_cross.yaml --no-collision -q -o '%s'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    snprintf(args, sizeof args, "check scenarios/hand_cross.yaml '%s/trajectory.json'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    snprintf(args, sizeof args, "check scenarios/hand_cross.yaml '%s/trajectory.csv'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    {
        /* a finite but absurd control point: a bad-input error with its place, not an
         * overflow of the Taylor models (it used to exit 1) */
        static char text[1 << 20];
        char path[512], *cp, *num;
        long n;
        size_t len;
        FILE *f;
        snprintf(path, sizeof path, "%s/trajectory.json", dir);
        n = ckutil_read_file(path, text, sizeof text);
        ck_assert(n > 0);
        cp = strstr(text, "\"control_points\"");
        ck_assert_ptr_nonnull(cp);
        num = cp + strcspn(cp, "-0123456789");
        len = strspn(num, "-+.0123456789eE");
        snprintf(path, sizeof path, "%s/huge.json", dir);
        f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "%.*s1e308%s", (int)(num - text), text, num + len);
        fclose(f);
        snprintf(args, sizeof args, "check scenarios/hand_cross.yaml '%s'", path);
        ck_assert_int_eq(hrpplan(args, log), 2);
        ckutil_read_file(log, text, sizeof text);
        ck_assert_msg(strstr(text, "huge.json:") && strstr(text, "control_points[0]") &&
                          strstr(text, "no number of these files exceeds 1e+06"),
                      "%s", text);
    }
}
END_TEST

/* `hrpplan simulate SCENARIO dir/name` of a table with `content` exits 2, and its
 * message names the file and holds `expect` */
static void simulate_bad(const char *dir, const char *scenario, const char *name,
                         const char *content, const char *expect)
{
    char path[512], args[1024], log[512], text[2048];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(content, f);
    fclose(f);
    snprintf(log, sizeof log, "%s.sim.log", dir);
    snprintf(args, sizeof args, "simulate %s '%s' -o '%s/sim'", scenario, path, dir);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ckutil_read_file(log, text, sizeof text);
    ck_assert_msg((strstr(text, name) || strstr(text, scenario)) && strstr(text, expect), "%s", text);
}

START_TEST(test_bad_input_exits_2)
{
    char dir[256], path[512], args[1024], log[512], text[2048];
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    /* an unknown joint in a scenario */
    snprintf(path, sizeof path, "%s/bad.yaml", dir);
    f = fopen(path, "w");
    fprintf(f, "name: bad\nrobot: %s/robots/hrp2.yaml\nduration: 2\njoints: [RARM_JOINT9]\n",
            getcwd(text, sizeof text));
    fclose(f);
    snprintf(args, sizeof args, "plan '%s' -o '%s/out'", path, dir);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert_int_eq(ckutil_read_file(log, text, sizeof text) > 0, 1);
    ck_assert_msg(strstr(text, "bad.yaml:4:") && strstr(text, "unknown joint 'RARM_JOINT9'"), "%s", text);
    /* a trajectory of another robot shape */
    snprintf(path, sizeof path, "%s/short.pos", dir);
    f = fopen(path, "w");
    fputs("0 0.1 0.2\n0.005 0.1 0.2\n", f);
    fclose(f);
    snprintf(args, sizeof args, "check scenarios/hand_cross.yaml '%s'", path);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ckutil_read_file(log, text, sizeof text);
    ck_assert_msg(strstr(text, "short.pos") && strstr(text, "2 joint columns"), "%s", text);
    /* simulate: the same table, a column that names no joint, times that go back, and
     * feet that are not flat on a floor; each exits 2 naming the file, and leaves no
     * sim.json behind */
    snprintf(args, sizeof args, "simulate scenarios/hand_cross.yaml '%s' -o '%s/sim'", path, dir);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ckutil_read_file(log, text, sizeof text);
    ck_assert_msg(strstr(text, "short.pos") && strstr(text, "2 joint columns"), "%s", text);
    simulate_bad(dir, "scenarios/hand_cross.yaml", "unknown.csv",
                 "time,RARM_JOINT0,NOSUCH_JOINT\n0,0,0\n0.1,0,0\n", "NOSUCH_JOINT");
    simulate_bad(dir, "scenarios/hand_cross.yaml", "back.csv", "time,RARM_JOINT0\n0,0\n0.2,0\n0.1,0\n",
                 "back.csv:4");
    simulate_bad(dir, "tests/data/sim_bad/foot_tilted.yaml", "still.csv", "time,CHEST_JOINT1\n0,0\n1,0\n",
                 "not flat");
    ck_assert_msg(!exists(dir, "sim/sim.json"), "no sim.json after bad input");
}
END_TEST

START_TEST(test_threads_give_identical_plans_and_dump)
{
    char dir[256], args[1024], log[512], a[600], b[600], *ta, *tb, line[8192];
    long na, nb;
    FILE *f;
    int data_lines = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan scenarios/twist.yaml -q -o '%s/t1' --threads 1 --dump-queries '%s/q.txt'",
             dir, dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    snprintf(args, sizeof args, "plan scenarios/twist.yaml -q -o '%s/t2' --threads 2", dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    snprintf(a, sizeof a, "%s/t1/trajectory.json", dir);
    snprintf(b, sizeof b, "%s/t2/trajectory.json", dir);
    ta = malloc(1 << 22);
    tb = malloc(1 << 22);
    na = ckutil_read_file(a, ta, 1 << 22);
    nb = ckutil_read_file(b, tb, 1 << 22);
    ck_assert_int_gt(na, 0);
    ck_assert_int_eq(na, nb);
    ck_assert_msg(memcmp(ta, tb, (size_t)na) == 0, "two threads changed the plan");
    free(ta);
    free(tb);
    /* the dump: a header, then one line per query with 6 + 2 * 2 * (2 + 3 * 8) numbers
     * (degree-7 points) */
    snprintf(a, sizeof a, "%s/q.txt", dir);
    f = fopen(a, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_ptr_nonnull(strstr(line, "hrpplan MCD queries v1"));
    while (fgets(line, sizeof line, f) != NULL) {
        int fields = 0;
        if (line[0] == '#') continue;
        for (char *tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n")) ++fields;
        ck_assert_int_eq(fields, 5 + 2 * (1 + 2 * (2 + 3 * 8)));
        ++data_lines;
    }
    fclose(f);
    ck_assert_int_gt(data_lines, 19 * 10);
}
END_TEST

START_TEST(test_balance_binds_and_is_certified)
{
    /* the bow without the balance constraint leaves the shrunk support polygon, which
     * check against the balanced scenario finds; planned with it, it is certified */
    char dir[256], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/bow_free.yaml -q -o '%s/free'", dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    snprintf(args, sizeof args, "check tests/data/bow.yaml '%s/free/trajectory.json'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    snprintf(args, sizeof args, "plan tests/data/bow.yaml -q -o '%s/bal'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    strcat(dir, "/bal");
    ck_assert(report_value(dir, "max_balance_violation", v, sizeof v));
    ck_assert(strtod(v, NULL) <= 1e-5);
}
END_TEST

START_TEST(test_zmp_binds_and_is_certified)
{
    /* the same with dynamics: the free bow's ZMP comes closer than 7 cm to the soles'
     * edge (7.5 cm), which check against bow_dyn finds; planned with it, it is certified and
     * report gives a certified ZMP margin of at least 7.5 cm */
    char dir[256], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/bow_free.yaml -q -o '%s/free'", dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
    snprintf(args, sizeof args, "check tests/data/bow_dyn.yaml '%s/free/trajectory.json'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    snprintf(args, sizeof args, "plan tests/data/bow_dyn.yaml -q -o '%s/dyn'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    strcat(dir, "/dyn");
    ck_assert(report_value(dir, "zmp_min_inside_m", v, sizeof v));
    ck_assert_msg(strtod(v, NULL) >= 0.075 - 1e-5, "%s", v);
    ck_assert(report_value(dir, "torque_max_ratio", v, sizeof v));
    ck_assert(strtod(v, NULL) > 0.0 && strtod(v, NULL) <= 1.0);
}
END_TEST

/* eq. P6d (docs/math/planner.md sec. 4c): a support phase that starts inside a constraint
 * interval has its rows bounded from its start on. Bounded over the whole interval, the
 * single-support ZMP rows of support_phase_boundary.yaml read the double-support part
 * before it (12 cm "outside" the stance sole where the motion's ZMP was within 8 mm), the
 * SQP's later rounds failed on rows it could not meet, and SLSQP's run from the start
 * certified it after 730 evaluations; now the SQP does in about 150 */
START_TEST(test_phase_boundary_certified_by_sqp)
{
    char dir[256], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/support_phase_boundary.yaml -q -o '%s'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "not certified, see %s", log);
    ck_assert(report_value(dir, "algorithm", v, sizeof v));
    ck_assert_msg(strcmp(v, "sqp") == 0, "the plan needed %s (see %s)", v, log);
    ck_assert(report_value(dir, "iterations", v, sizeof v));
    ck_assert_msg(atoi(v) <= 400, "%s evaluations (see %s)", v, log);
    snprintf(args, sizeof args, "check tests/data/support_phase_boundary.yaml '%s/trajectory.json'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the json failed, see %s", log);
}
END_TEST

/* dynamics that cannot be posed: exit 2, the scenario and the field named, no output */
static const char *const DYN_BAD[][2] = {
    {"margin_over_sole", "dynamics.zmp_margin: 0.08 m leaves no room inside the support polygon of support[0]"},
    {"unknown_foot", "support[0].feet[0]: link 'RARM_LINK6' has no sole"},
    {"torque2_static", ":6: cost.type: torque2 needs the dynamics model, which is off"},
    {"../time_bad", "time_bad.yaml:10: cost.min_duration: 5 s is not below the duration (4 s)"},
    /* support[i].place (stepping, planner.md eq. P13d) */
    {"place_first_phase", ":6: support[0].place.foot: the first phase's feet stand where the initial posture puts them"},
    {"place_not_in_feet", ":7: support[1].place.foot: 'LLEG_LINK5' is not among this phase's feet"},
    {"place_on_floor", ":7: support[1].place.foot: 'LLEG_LINK5' stands on the floor in support[0] (line 6)"},
    {"place_not_carried", ":9: support[2].place: no moving joint carries LLEG_LINK5, so it cannot step"},
    {"place_short", ":8:88: support[2].place.at: expected 3 numbers, got 2"},
};

START_TEST(test_dynamics_bad_input)
{
    char dir[256], args[1024], log[512], text[4096] = "";
    FILE *f;
    size_t n;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/dyn_bad/%s.yaml -q -o '%s/out'", DYN_BAD[_i][0], dir);
    ck_assert_int_eq(hrpplan(args, log), 2);
    f = fopen(log, "r");
    ck_assert_ptr_nonnull(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    ck_assert_msg(strstr(text, DYN_BAD[_i][1]) != NULL, "'%s' lacks '%s'", text, DYN_BAD[_i][1]);
    ck_assert_msg(strstr(text, DYN_BAD[_i][0]) != NULL, "'%s' does not name the file", text);
    ck_assert(!exists(dir, "out/report.json"));
    remove(log);
}
END_TEST

/* cost torque2 (eq. P14): the bow planned with it certifies, and its torque integral
 * (report.json, computed the same way for both) is below the acceleration cost's plan */
START_TEST(test_torque2_cost_lowers_torques)
{
    char dir[256], args[1024], log[512], v[64], sub[300];
    double t_acc, t_t2;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/bow_dyn.yaml -q -o '%s/acc'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    snprintf(args, sizeof args, "plan tests/data/bow_torque2.yaml -q -o '%s/t2'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    snprintf(sub, sizeof sub, "%s/acc", dir);
    ck_assert(report_value(sub, "cost_type", v, sizeof v));
    ck_assert_str_eq(v, "acceleration");
    ck_assert(report_value(sub, "torque2_integral_s", v, sizeof v));
    t_acc = strtod(v, NULL);
    snprintf(sub, sizeof sub, "%s/t2", dir);
    ck_assert(report_value(sub, "cost_type", v, sizeof v));
    ck_assert_str_eq(v, "torque2");
    ck_assert(report_value(sub, "torque2_integral_s", v, sizeof v));
    t_t2 = strtod(v, NULL);
    ck_assert(report_value(sub, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert_msg(t_acc > 0.0 && t_t2 > 0.0 && t_t2 < t_acc, "torque integral %g (torque2) vs %g (acceleration)",
                  t_t2, t_acc);
}
END_TEST

/* cost type time (planner.md sec. 2b): the arm's swing is shortened to what its velocity
 * limit allows (never below 1.5 rad / 3 rad/s = 0.5 s; a rest-to-rest spline needs more),
 * certified, with the search in report.json and the duration in trajectory.json */
START_TEST(test_time_cost_shortens)
{
    char dir[256], args[1024], log[512], v[64];
    double T;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/arm2_time.yaml -q -o '%s'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    ck_assert(report_value(dir, "cost_type", v, sizeof v));
    ck_assert_str_eq(v, "time");
    ck_assert(report_value(dir, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert(report_value(dir, "duration_s", v, sizeof v));
    T = strtod(v, NULL);
    ck_assert_msg(T >= 0.5 && T < 0.8, "duration %g s", T);
    ck_assert(json_value(dir, "trajectory.json", "duration", v, sizeof v));
    ck_assert(fabs(strtod(v, NULL) - T) < 1e-12);
    ck_assert(report_value(dir, "plans", v, sizeof v));
    ck_assert_int_ge(atoi(v), 4);
    ck_assert(report_value(dir, "not_certified_at_s", v, sizeof v));
    ck_assert(strtod(v, NULL) < T && strtod(v, NULL) > 0.5 * T);
}
END_TEST

/* The floating base end to end (scenarios/squat.yaml): the legs move, so the robot stands
 * on its right foot (trajectory.json `base`); the plan certifies (the left foot's slide
 * and turn included); the exported waist really goes down and up again, and is the same
 * from plan and from export; and the motion stands in MuJoCo. */
START_TEST(test_floating_base_squat)
{
    char dir[256], args[1024], log[512], v[128], path[600], err[512];
    PlnTable waist, exp;
    double zmin = HUGE_VAL;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan scenarios/squat.yaml -q -o '%s'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    ck_assert(json_value(dir, "trajectory.json", "link", v, sizeof v));
    ck_assert_str_eq(v, "RLEG_LINK5");
    snprintf(path, sizeof path, "%s/trajectory.waist", dir);
    ck_assert_msg(pln_table_read(path, &waist, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(waist.n_joints, 6);
    ck_assert(fabs(waist.q[2] - 0.6487) < 1e-9);
    for (int r = 0; r < waist.n_rows; ++r) zmin = fmin(zmin, waist.q[(size_t)r * 6 + 2]);
    ck_assert_msg(zmin < 0.6487 - 0.06, "the waist went down to %g m only", zmin);
    ck_assert(fabs(waist.q[(size_t)(waist.n_rows - 1) * 6 + 2] - 0.6487) <= 0.01 + 1e-9);
    snprintf(args, sizeof args, "export '%s/trajectory.json' --format pos -o '%s/exp.pos'", dir, dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    snprintf(path, sizeof path, "%s/exp.waist", dir);
    ck_assert_msg(pln_table_read(path, &exp, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(exp.n_rows, waist.n_rows);
    for (int r = 0; r < waist.n_rows * 6; ++r) ck_assert(fabs(exp.q[r] - waist.q[r]) < 1e-12);
    pln_table_destroy(&waist);
    pln_table_destroy(&exp);
    assert_stands("scenarios/squat.yaml", dir);
}
END_TEST

START_TEST(test_box_obstacle)
{
    /* the hand passes through the crate without collision constraints, around it with */
    char dir[256], args[1024], log[512];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(args, sizeof args, "plan tests/data/reach_box.yaml -q --no-collision -o '%s/free'", dir);
    ck_assert_int_eq(hrpplan(args, log), 3);
    snprintf(args, sizeof args, "plan tests/data/reach_box.yaml -q -o '%s/safe'", dir);
    ck_assert_msg(hrpplan(args, log) == 0, "see %s", log);
    snprintf(args, sizeof args, "check tests/data/reach_box.yaml '%s/safe/trajectory.pos'", dir);
    ck_assert_int_eq(hrpplan(args, log), 0);
}
END_TEST

/* Plans an arm2 scenario (tests/data/arm2.yaml: SHOULDER and ELBOW, tip 0.7 m along x at
 * the start) written into a new temporary dir: `head` (duration, spline, rest) and `tasks`
 * as YAML lines. Returns the exit status; dir (the outputs in dir/out), log and text. */
static int plan_arm2(const char *name, const char *head, const char *tasks, char *dir, size_t dir_size,
                     char *log, size_t log_size, char *text, size_t text_size)
{
    char path[512], args[1024], cwd[1024];
    FILE *f;
    int code;
    ckutil_mkdtemp(dir, dir_size);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "name: %s\nrobot: %s/tests/data/arm2.yaml\n%sjoints: [SHOULDER, ELBOW]\ntasks:\n%s"
               "collision: {enabled: false, pairs: []}\n", name, cwd, head, tasks);
    fclose(f);
    snprintf(log, log_size, "%s.log", dir);
    snprintf(args, sizeof args, "plan '%s' -o '%s/out'", path, dir);
    code = hrpplan(args, log);
    ck_assert(ckutil_read_file(log, text, text_size) > 0);
    return code;
}

/* Stepping (issue 16, planner.md eq. P13c-d): scenarios/step.yaml swings the left foot 10 cm
 * forward and sets it down at its `place`. The plan certifies (the landed foot held within
 * 1 mm of the place, the swinging sole above the floor), check re-certifies it, the third
 * phase's support polygon holds the placed sole, and the robot stands in MuJoCo with its
 * feet within 5 mm of where each phase places them. */
START_TEST(test_step_certified_and_stands)
{
    static char text[1 << 20], json[1 << 20];
    char dir[256], out[300], args[1024], log[512], v[64];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan scenarios/step.yaml -o '%s'", out);
    ck_assert_msg(hrpplan(args, log) == 0, "step was not certified (see %s)", log);
    ck_assert(report_value(out, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "the lifted foot LLEG_LINK5: its lowest sole corner at") != NULL, "see %s", log);
    /* the placed sole spans x 0.1215 +- 0.1086 in the landed phase's polygon */
    {
        char path[400];
        snprintf(path, sizeof path, "%s/report.json", out);
        ck_assert(ckutil_read_file(path, json, sizeof json) > 0);
        ck_assert(strstr(json, "support_phases") != NULL);
        ck_assert_msg(strstr(strstr(json, "support_phases"), "[0.2301") != NULL, "see %s", path);
    }
    snprintf(args, sizeof args, "check scenarios/step.yaml '%s/trajectory.json'", out);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the json failed, see %s", log);
    assert_stands("scenarios/step.yaml", out);
}
END_TEST

/* eq. P22b: without optimizer.time_limit the time limit grows with the evaluation budget,
 * max(120 s, 0.5 s x the cap); a written one is kept (hand_cross: 60 s). bow.yaml has no
 * optimizer line (300 evaluations, 150 s); step_in_place.yaml writes 600 evaluations only
 * (300 s). */
START_TEST(test_default_time_limit)
{
    const char *paths[3] = {"scenarios/hand_cross.yaml", "tests/data/bow.yaml", "tests/data/step_in_place.yaml"};
    const double want[2] = {60.0, 150.0}; /* bow: 300 evaluations by P22 */
    for (int k = 0; k < 3; ++k) {
        PlnLoaded l;
        char err[1024];
        PlnPlanOptions opt = pln_plan_options_default();
        ck_assert_msg(pln_plan_load(paths[k], &opt, &l, err, sizeof err) == PLN_OK, "%s", err);
        ck_assert_int_eq(l.sc.time_limit_written, k == 0);
        if (k < 2) {
            ck_assert_double_eq(l.sc.time_limit, want[k]);
        } else {
            /* max_iterations 600 written, no time_limit: 300 s */
            ck_assert_double_eq(l.sc.time_limit, PLN_SIP_DEFAULT_S_PER_EVAL * l.p->max_evaluations);
            ck_assert_double_eq(l.sc.time_limit, 300.0);
        }
        pln_plan_unload(&l);
    }
}
END_TEST

/* Issue 16 (docs/math/planner.md sec. 4d, kinematics.md K17): stepping from one foot to
 * the other. tests/data/step_in_place.yaml lifts each foot in turn, so no foot stands
 * through every phase and the waist floats on six virtual joints: the plan certifies
 * (every stance foot held, the lifted ones above the floor); trajectory.json carries the
 * virtual joints and `base.free`, the controller's files only the robot's 30 joints;
 * check certifies the json again, export rebuilds the free base, and the motion stands in
 * MuJoCo. Before session 20 the scenario was refused (exit 2). */
START_TEST(test_step_in_place_free_base)
{
    static char text[1 << 20];
    char dir[256], out[300], args[1024], log[512], v[64], path[400], line[4096];
    FILE *fp;
    int words = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan tests/data/step_in_place.yaml -o '%s'", out);
    ck_assert_msg(hrpplan(args, log) == 0, "step_in_place was not certified (see %s)", log);
    snprintf(path, sizeof path, "%s/report.json", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "\"stands_on\": \"free\"") != NULL, "see %s", path);
    ck_assert(report_value(out, "status", v, sizeof v));
    ck_assert_str_eq(v, "certified");
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "floating base: free") != NULL, "see %s", log);
    snprintf(path, sizeof path, "%s/trajectory.json", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    ck_assert(strstr(text, "\"BASE_ROLL\"") != NULL);
    ck_assert(strstr(text, "\"free\": true") != NULL);
    /* the .pos: time and the 30 joints of hrp2.yaml, no virtual joint */
    snprintf(path, sizeof path, "%s/trajectory.pos", out);
    fp = fopen(path, "r");
    ck_assert_ptr_nonnull(fp);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    fclose(fp);
    for (char *tok = strtok(line, " \n"); tok != NULL; tok = strtok(NULL, " \n")) ++words;
    ck_assert_int_eq(words, 31);
    snprintf(path, sizeof path, "%s/trajectory.csv", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    ck_assert(strstr(text, "BASE_") == NULL);
    snprintf(args, sizeof args, "check tests/data/step_in_place.yaml '%s/trajectory.json'", out);
    ck_assert_msg(hrpplan(args, log) == 0, "check of the json failed, see %s", log);
    /* a .pos has no waist: refused, naming the json */
    snprintf(args, sizeof args, "check tests/data/step_in_place.yaml '%s/trajectory.pos'", out);
    ck_assert_int_eq(hrpplan(args, log), 2);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "check its trajectory.json") != NULL, "see %s", log);
    snprintf(args, sizeof args, "export '%s/trajectory.json' --format ros -o '%s/ros.yaml'", out, dir);
    ck_assert_msg(hrpplan(args, log) == 0, "export failed, see %s", log);
    snprintf(path, sizeof path, "%s/ros.yaml", dir);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    ck_assert(strstr(text, "LARM_JOINT6") != NULL && strstr(text, "BASE_") == NULL);
    /* it stands in MuJoCo: no fall against the planned waist, feet held */
    snprintf(args, sizeof args, "simulate tests/data/step_in_place.yaml '%s/trajectory.json' -o '%s'", out, out);
    ck_assert_msg(hrpplan(args, log) == 0, "did not stand in simulation, see %s", log);
    ck_assert(json_value(out, "sim.json", "fell", v, sizeof v));
    ck_assert_str_eq(v, "false");
    ck_assert_msg(sim_number(out, "slip_max_mm") < 5.0, "slip %g mm", sim_number(out, "slip_max_mm"));
}
END_TEST

/* Issue 16 (docs/math/planner.md eq. P13c): a lifted foot stays above the floor. The
 * scenario asks for the left sole 3 cm below the floor while the robot stands on its
 * right foot; the plan misses that target (cause task, not certified), and the certified
 * lowest corner of the lifted sole is within PLN_STANCE_POS_TOL_M of the floor. Before
 * eq. P13c the plan certified with the foot in the floor. */
START_TEST(test_lifted_foot_stays_above_floor)
{
    static char text[1 << 20]; /* slow runs (valgrind) print progress lines */
    char dir[256], out[300], args[1024], log[512], v[64];
    const char *at;
    double lowest;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan tests/data/foot_below_floor.yaml -o '%s'", out);
    ck_assert_int_eq(hrpplan(args, log), 3);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert(report_value(out, "status", v, sizeof v));
    ck_assert_str_eq(v, "not_certified");
    ck_assert(report_value(out, "cause", v, sizeof v));
    ck_assert_str_eq(v, "task");
    at = strstr(text, "the lifted foot LLEG_LINK5: its lowest sole corner at ");
    ck_assert_msg(at != NULL, "no lifted foot in %s", log);
    lowest = strtod(at + strlen("the lifted foot LLEG_LINK5: its lowest sole corner at "), NULL);
    ck_assert_msg(lowest >= -1e3 * PLN_STANCE_POS_TOL_M && lowest < 5.0, "lowest corner %g mm", lowest);
    ck_assert_msg(strstr(text, "floor under LLEG_LINK5") != NULL, "the floor rows do not bind, see %s", log);
}
END_TEST

/* `check` of a table whose lifted foot goes into the floor (tests/data/foot_in_floor.csv:
 * a plan of foot_below_floor.yaml that the planner certified before eq. P13c, every 50
 * ms) exits 3 and names the foot and its depth. */
START_TEST(test_check_finds_foot_in_floor)
{
    static char text[1 << 20];
    char dir[256], log[512];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    ck_assert_int_eq(hrpplan("check tests/data/foot_below_floor.yaml tests/data/foot_in_floor.csv", log), 3);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "not_certified: the lifted foot LLEG_LINK5 may go 53.2 mm below the floor") != NULL,
                  "the foot in the floor is not named, see %s", log);
}
END_TEST

/* a target beyond the arm's reach is named before the optimiser starts (stderr and
 * report.json's initial_guess), and the plan ends not certified */
START_TEST(test_unreachable_task_named_up_front)
{
    char dir[256], log[512], v[64], text[8192];
    ck_assert_int_eq(plan_arm2("far", "duration: 2.0\nspline: {degree: 5, spans: 4}\n",
                               "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [0.3, 0.3, 1.0], time: 1.0, tolerance: 0.01}\n"
                               "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [0.0, 1.1, 1.0], time: 2.0, tolerance: 0.01}\n",
                               dir, sizeof dir, log, sizeof log, text, sizeof text),
                     3);
    ck_assert_msg(strstr(text, "initial guess") != NULL && strstr(text, "tasks[1] (line 8)") != NULL,
                  "%s", text);
    strcat(dir, "/out");
    ck_assert(report_value(dir, "status", v, sizeof v));
    ck_assert_str_eq(v, "not_certified");
    /* the first failed check: the task, or the velocity the optimiser spent reaching for it */
    ck_assert(report_value(dir, "cause", v, sizeof v));
    ck_assert_msg(strcmp(v, "task") == 0 || strcmp(v, "velocity") == 0, "cause %s", v);
    ck_assert_msg(strstr(text, "missed by 0.39") != NULL, "%s", text);
    ck_assert_msg(!exists(dir, "trajectory.pos"), "no .pos for an uncertified plan");
}
END_TEST

/* Issue 21 item 8: targets that the velocity limits cannot reach in time. The plan must not
 * end on the motionless start, nor on a motion that breaks a limit to get nearer: it ends
 * on the motion nearest the targets that meets every other constraint (the elastic phase,
 * docs/math/planner.md sec. 5b), not certified with cause "task", and names every missed
 * task with its residual. arm2 starts straight along x (tip at (0.7, 0, 1)); a quarter
 * turn of the shoulder in 0.3 s from rest would need more than its 3 rad/s. */
START_TEST(test_fast_reach_ends_on_nearest_safe_motion)
{
    char dir[256], path[512], log[512], v[64], text[16384];
    PlnTable tab;
    double moved = 0.0, err0, err1;
    ck_assert_int_eq(plan_arm2("fast", "duration: 1.0\nspline: {degree: 5, spans: 6}\nrest: {start: true, end: false}\n",
                               "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [0.0, 0.7, 1.0], time: 0.3, tolerance: 0.01}\n"
                               "  - {type: position, link: FORE, point: [0.3, 0, 0], target: [-0.7, 0.0, 1.0], time: 0.6, tolerance: 0.01}\n",
                               dir, sizeof dir, log, sizeof log, text, sizeof text),
                     3);
    strcat(dir, "/out");
    ck_assert(report_value(dir, "cause", v, sizeof v));
    ck_assert_msg(strcmp(v, "task") == 0, "cause %s\n%s", v, text);
    ck_assert(report_value(dir, "tasks_relaxed", v, sizeof v));
    ck_assert_str_eq(v, "true");
    ck_assert(report_value(dir, "max_velocity_violation", v, sizeof v));
    ck_assert_msg(strtod(v, NULL) <= 1e-5, "velocity violation %s", v);
    ck_assert(report_value(dir, "max_joint_limit_violation", v, sizeof v));
    ck_assert_msg(strtod(v, NULL) <= 1e-5, "joint limit violation %s", v);
    /* both tasks named with their residuals, and what held the motion back */
    ck_assert_msg(strstr(text, "(position of FORE at 0.6 s, line 9) is missed by") != NULL &&
                      strstr(text, "also missed: tasks[0] by") != NULL &&
                      strstr(text, "held back by velocity") != NULL, "%s", text);
    /* it moved, and nearer both targets than the start is (0.99 m and 1.4 m away) */
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    ck_assert_int_eq(pln_table_read(path, &tab, text, sizeof text), PLN_OK);
    for (int i = 0; i < tab.n_rows; ++i) moved = fmax(moved, fabs(tab.q[i * tab.n_joints]));
    pln_table_destroy(&tab);
    ck_assert_msg(moved > 0.3, "the shoulder moved only %g rad", moved);
    err0 = sqrt(0.7 * 0.7 + 0.7 * 0.7); /* the nearer of the two */
    ck_assert(report_value(dir, "max_task_violation", v, sizeof v));
    err1 = strtod(v, NULL) + 0.01;
    ck_assert_msg(err1 < err0 - 0.1, "the nearest safe motion misses by %g m, the start by %g m or more",
                  err1, err0);
}
END_TEST

/* Restarts (docs/math/planner.md sec. 5c): a plan that fails on a contact runs the SIP loop
 * again from its perturbed guess, exactly PLN_PLAN_RESTARTS times here (none can undo a
 * start inside a ball), keeps the first run's result, which no restart beat, and does all
 * of it deterministically (two plans, byte-identical trajectories). The scenario leaves
 * optimizer.algorithm at auto: the SQP runs first, SLSQP runs again from the same start
 * when its motion fails (docs/math/sqp.md sec. 7), and the restarts are SLSQP's. */
START_TEST(test_restarts_bounded_and_deterministic)
{
    char dir[256], out1[512], out2[512], args[1024], log[512], v[64], text[16384], a[1 << 16], b[1 << 16], path[1024];
    long na, nb;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out1, sizeof out1, "%s/one", dir);
    snprintf(out2, sizeof out2, "%s/two", dir);
    snprintf(args, sizeof args, "plan tests/data/restart_blocked.yaml -o '%s'", out1);
    ck_assert_int_eq(hrpplan(args, log), 3);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "restart 1 of 2") != NULL && strstr(text, "restart 2 of 2") != NULL &&
                      strstr(text, "restart 3") == NULL, "%s", text);
    {
        /* the SQP's per-round line (pln_sip.c, run_round_sqp) */
        const char *sqp = strstr(text, "\n     sqp: "), *fb = strstr(text, "SLSQP from the same start");
        ck_assert_msg(sqp != NULL && fb != NULL && sqp < fb && fb < strstr(text, "restart 1 of 2"), "%.3000s",
                      text);
        /* the restarts run SLSQP: no SQP line after the second run's */
        ck_assert_msg(strstr(fb, "\n     sqp: ") == NULL, "%.3000s", fb);
    }
    ck_assert(report_value(out1, "cause", v, sizeof v));
    ck_assert_str_eq(v, "contact");
    ck_assert(report_value(out1, "restart", v, sizeof v));
    ck_assert_str_eq(v, "0");
    ck_assert(report_value(out1, "algorithm_requested", v, sizeof v));
    ck_assert_str_eq(v, "auto");
    ck_assert(report_value(out1, "algorithm", v, sizeof v));
    ck_assert_msg(strcmp(v, "sqp") == 0 || strcmp(v, "slsqp") == 0, "%s", v);
    snprintf(args, sizeof args, "plan tests/data/restart_blocked.yaml -q -o '%s'", out2);
    ck_assert_int_eq(hrpplan(args, log), 3);
    snprintf(path, sizeof path, "%s/trajectory.csv", out1);
    na = ckutil_read_file(path, a, sizeof a);
    snprintf(path, sizeof path, "%s/trajectory.csv", out2);
    nb = ckutil_read_file(path, b, sizeof b);
    ck_assert(na > 0 && na == nb && memcmp(a, b, (size_t)na) == 0);
}
END_TEST

/* the elastic phase from a joint that starts at its limit (tests/data/lift_at_limit.yaml:
 * a prismatic lift at 0 m, its lower limit, blocked by a shelf): the start is put inside
 * the optimiser's bounds, and the plan ends not certified (exit 3) naming what holds it,
 * with the margin in metres, not failed by NLopt (exit 1) */
START_TEST(test_elastic_from_a_joint_at_its_limit)
{
    static char text[1 << 17];
    char dir[256], out[512], args[1024], log[512];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan tests/data/lift_at_limit.yaml -v -o '%s'", out);
    ck_assert_int_eq(hrpplan(args, log), 3);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "elastic phase: the tasks move into the objective, from the initial posture") != NULL,
                  "no elastic phase from the initial posture: %s", log);
    ck_assert_msg(strstr(text, "NLopt stopped") == NULL, "NLopt refused the start: %s", log);
    ck_assert_msg(strstr(text, "position_margin = 0.005 m)") != NULL, "the margin not in metres: %s", log);
    unlink(log);
    ckutil_rm_flat(out);
    ckutil_rm_flat(dir);
}
END_TEST

/* A round ends on the best point it evaluated (docs/math/planner.md eq. P7b), whatever
 * stopped it. tests/data/converge_outside.yaml converges from outside its rows (no iterate
 * after the second holds every row to NLopt's tolerance PLN_ROW_TOL), and NLopt's own
 * answer was then its second evaluation: certified, of cost 0.0905, where the run had
 * converged to 0.0077. The plan's cost is at most that of the run's last evaluations. */
START_TEST(test_plan_ends_on_its_best_point)
{
    static char text[1 << 18];
    char dir[256], out[512], args[1024], log[512];
    double last_min = HUGE_VAL, final = NAN, c[10];
    int n_eval = 0;
    const char *s;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(log, sizeof log, "%s.log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "plan tests/data/converge_outside.yaml -v -o '%s'", out);
    ck_assert_int_eq(hrpplan(args, log), 0);
    ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
    /* the costs of the last ten evaluations ("     eval   N  cost C ...") */
    for (s = strstr(text, "     eval "); s != NULL; s = strstr(s + 1, "     eval ")) {
        const char *k = strstr(s, "cost ");
        if (k == NULL) break;
        c[n_eval++ % 10] = strtod(k + 5, NULL);
    }
    ck_assert_msg(n_eval >= 10, "%d evaluations traced:\n%s", n_eval, text);
    for (int i = 0; i < 10; ++i) last_min = fmin(last_min, c[i]);
    s = strstr(text, "optimiser: ");
    ck_assert_msg(s != NULL && strstr(s, "cost ") != NULL, "%s", text);
    final = strtod(strstr(s, "cost ") + 5, NULL);
    ck_assert_msg(final <= 1.01 * last_min, "the plan's cost %g, the last evaluations' least %g", final,
                  last_min);
    unlink(log);
    ckutil_rm_flat(out);
    ckutil_rm_flat(dir);
}
END_TEST

/* The largest value of `column` in dir/trajectory.csv (the header names the columns). */
static double csv_max(const char *dir, const char *column)
{
    static char text[1 << 20];
    char path[1100];
    int col = -1, k = 0;
    double best = -HUGE_VAL;
    snprintf(path, sizeof path, "%s/trajectory.csv", dir);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    char *line = strtok(text, "\n");
    ck_assert(line != NULL);
    for (char *f = line, *comma; f != NULL; f = comma ? comma + 1 : NULL, ++k) {
        comma = strchr(f, ',');
        if (comma) *comma = '\0';
        if (strcmp(f, column) == 0) col = k;
    }
    ck_assert_msg(col > 0, "no column %s in %s", column, path);
    while ((line = strtok(NULL, "\n")) != NULL) {
        char *f = line;
        for (int c = 0; c < col && f != NULL; ++c) {
            f = strchr(f, ',');
            if (f) ++f;
        }
        if (f != NULL) best = fmax(best, strtod(f, NULL));
    }
    return best;
}

/* Preconditioned variables (docs/math/planner.md eq. P23): the optimiser works in z = L^T x,
 * where the control points' bounds are no longer bounds but rows. tests/data/
 * precondition_limit.yaml is planned as written (optimizer.precondition true by default)
 * and with `precondition: false`: both certify, the shoulder's limit binds in both (its
 * largest value reaches the bound, the limit less position_margin, 0.295 rad, and stays
 * there to within the rows' tolerance), and the two optima agree. */
START_TEST(test_precondition_keeps_limits)
{
    static char text[1 << 16];
    char dir[256], out[2][512], args[2200], log[512], path[1100], cwd[512];
    double cost[2];
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(log, sizeof log, "%s.log", dir);
    /* the same scenario without preconditioning, the robot file named from here */
    ck_assert(ckutil_read_file("tests/data/precondition_limit.yaml", text, sizeof text) > 0);
    snprintf(path, sizeof path, "%s/off.yaml", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    for (const char *line = text; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, "robot:", 6) == 0) {
            fprintf(f, "robot: %s/tests/data/arm2_limited.yaml\n", cwd);
        } else {
            fwrite(line, 1, len, f);
        }
        line += len;
    }
    fprintf(f, "optimizer: {precondition: false}\n");
    ck_assert_int_eq(fclose(f), 0);
    for (int k = 0; k < 2; ++k) {
        const char *s;
        snprintf(out[k], sizeof out[k], "%s/out%d", dir, k);
        snprintf(args, sizeof args, "plan %s -o '%s'", k == 0 ? "tests/data/precondition_limit.yaml" : path, out[k]);
        ck_assert_int_eq(hrpplan(args, log), 0);
        ck_assert(ckutil_read_file(log, text, sizeof text) > 0);
        ck_assert_msg(strstr(text, "status: certified") != NULL, "%s", text);
        ck_assert_msg(strstr(text, "joint limit violation: 0 rad") != NULL, "%s", text);
        s = strstr(text, "optimiser: ");
        ck_assert_msg(s != NULL && strstr(s, "cost ") != NULL, "%s", text);
        cost[k] = strtod(strstr(s, "cost ") + 5, NULL);
        double top = csv_max(out[k], "SHOULDER");
        ck_assert_msg(top > 0.295 - 1e-6 && top < 0.295 + 1e-6, "precondition %s: shoulder up to %.9f rad",
                      k == 0 ? "on" : "off", top);
    }
    ck_assert_msg(fabs(cost[0] - cost[1]) <= 1e-3 * cost[1], "costs %.9g (preconditioned) and %.9g", cost[0],
                  cost[1]);
    unlink(log);
    unlink(path);
    ckutil_rm_flat(out[0]);
    ckutil_rm_flat(out[1]);
    ckutil_rm_flat(dir);
}
END_TEST

Suite *pln_plan_suite(void)
{
    Suite *s = suite_create("pln_plan");
    TCase *tc = tcase_create("benchmarks");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_benchmark_collides_without_constraints, 0, 3);
    tcase_add_loop_test(tc, test_benchmark_certified_with_constraints, 0, 3);
    tcase_add_test(tc, test_check_finds_the_collision);
    tcase_add_test(tc, test_phong_rows_plan_certified);
    tcase_add_test(tc, test_threads_give_identical_plans_and_dump);
    tcase_add_test(tc, test_balance_binds_and_is_certified);
    tcase_add_test(tc, test_zmp_binds_and_is_certified);
    tcase_add_test(tc, test_phase_boundary_certified_by_sqp);
    tcase_add_loop_test(tc, test_dynamics_bad_input, 0, (int)(sizeof DYN_BAD / sizeof DYN_BAD[0]));
    tcase_add_test(tc, test_box_obstacle);
    tcase_add_test(tc, test_floating_base_squat);
    tcase_add_test(tc, test_step_certified_and_stands);
    tcase_add_test(tc, test_torque2_cost_lowers_torques);
    tcase_add_test(tc, test_time_cost_shortens);
    tcase_add_test(tc, test_plan_ends_on_its_best_point);
    tcase_add_test(tc, test_default_time_limit);
    tcase_add_test(tc, test_precondition_keeps_limits);
    suite_add_tcase(s, tc);
    /* planning on meshes takes minutes under ASan: `make asan-ci` excludes this tag (the
     * same code runs there through check_pln_geom and check_pln_problem on geom_mesh) */
    tc = tcase_create("mesh_scenarios");
    tcase_set_tags(tc, "mesh_plan");
    tcase_set_timeout(tc, 900);
    tcase_add_loop_test(tc, test_mesh_scenario_collides_without_constraints, 0, 3);
    tcase_add_loop_test(tc, test_mesh_scenario_certified_with_constraints, 0, 3);
    suite_add_tcase(s, tc);
    /* a whole-body plan of about 600 evaluations (95 s): `make asan-ci` excludes it like
     * the mesh plans (the free base's model runs there in check_pln_robot_freebase) */
    tc = tcase_create("free_base");
    tcase_set_tags(tc, "long_plan");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, test_step_in_place_free_base);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, test_unreachable_task_named_up_front);
    tcase_add_test(tc, test_fast_reach_ends_on_nearest_safe_motion);
    tcase_add_test(tc, test_restarts_bounded_and_deterministic);
    tcase_add_test(tc, test_elastic_from_a_joint_at_its_limit);
    tcase_add_test(tc, test_lifted_foot_stays_above_floor);
    tcase_add_test(tc, test_check_finds_foot_in_floor);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bad_input_exits_2);
    suite_add_tcase(s, tc);
    return s;
}
