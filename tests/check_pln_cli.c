/* check_pln_cli.c — tests of planner/cli/pln_cli.c: parsing, help, exit codes, and the
 * real hrpplan process (its path comes from $HRPPLAN_BIN, set by `make test`). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/pln_yaml.h"
#include "check_util.h"
#include "cli_run.h"
#include "cli/pln_cli.h"
#include "problem/pln_problem.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* parses a literal argv; returns the status, message in err. */
static PlnStatus parse(int argc, char *const *argv, PlnCliArgs *args, char *err)
{
    return pln_cli_parse(argc, argv, args, err, 512);
}

START_TEST(test_parse_plan_defaults)
{
    char *argv[] = {"hrpplan", "plan", "s.yaml"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_PLAN);
    ck_assert_str_eq(a.scenario, "s.yaml");
    ck_assert_ptr_null(a.out_dir);
    ck_assert_int_eq(a.method, PLN_METHOD_HYBRID);
    ck_assert_int_eq(a.threads, PLN_THREADS_AUTO);
    ck_assert_int_eq(a.no_collision, 0);
    ck_assert_int_eq(a.quiet, 0);
}
END_TEST

/* --threads auto is the default, and may be given; a number overrides it */
START_TEST(test_parse_plan_threads_auto)
{
    char *argv[] = {"hrpplan", "plan", "--threads", "3", "--threads", "auto", "s.yaml"};
    char *argv3[] = {"hrpplan", "plan", "--threads", "auto", "--threads", "3", "s.yaml"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_int_eq(a.threads, PLN_THREADS_AUTO);
    ck_assert_int_eq(parse(ARGC(argv3), argv3, &a, err), PLN_OK);
    ck_assert_int_eq(a.threads, 3);
}
END_TEST

START_TEST(test_parse_plan_all_options)
{
    char *argv[] = {"hrpplan", "plan", "-o", "dir", "--no-collision", "--method=ca",
                    "--threads", "2", "-q", "s.yaml", "--dump-queries", "q.bin", "--geometry", "mesh",
                    "--distance", "phong"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_str_eq(a.out_dir, "dir");
    ck_assert_int_eq(a.no_collision, 1);
    ck_assert_int_eq(a.method, PLN_METHOD_CA);
    ck_assert_int_eq(a.threads, 2);
    ck_assert_int_eq(a.quiet, 1);
    ck_assert_str_eq(a.scenario, "s.yaml");
    ck_assert_str_eq(a.dump_queries, "q.bin");
    ck_assert_str_eq(a.geometry, "mesh");
    ck_assert_str_eq(a.distance, "phong");
}
END_TEST

/* --timeout: seconds in (0, PLN_TIMEOUT_MAX_S], on plan, check, simulate and batch only */
START_TEST(test_parse_timeout)
{
    static const char *const bad[] = {"0", "-1", "nan", "inf", "1e9", "abc", ""};
    PlnCliArgs a;
    char err[512];
    char *ok[] = {"hrpplan", "check", "s.yaml", "t.json", "--timeout", "2.5"};
    char *none[] = {"hrpplan", "plan", "s.yaml"};
    char *robot[] = {"hrpplan", "robot", "r.yaml", "--timeout", "5"};
    ck_assert_int_eq(parse(ARGC(ok), ok, &a, err), PLN_OK);
    ck_assert_double_eq(a.timeout, 2.5);
    ck_assert_int_eq(parse(ARGC(none), none, &a, err), PLN_OK);
    ck_assert(isnan(a.timeout));
    ck_assert_int_eq(parse(ARGC(robot), robot, &a, err), PLN_ERR_USAGE);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char *argv[] = {"hrpplan", "plan", "s.yaml", "--timeout", (char *)bad[i]};
        ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_ERR_USAGE);
        ck_assert_msg(strstr(err, "--timeout") != NULL, "%s", err);
    }
}
END_TEST

START_TEST(test_parse_check_geometry)
{
    char *argv[] = {"hrpplan", "check", "s.yaml", "t.json", "--geometry=convex"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_str_eq(a.geometry, "convex");
    ck_assert_str_eq(a.trajectory, "t.json");
}
END_TEST

START_TEST(test_parse_check_and_robot)
{
    char *c[] = {"hrpplan", "check", "s.yaml", "t.pos"};
    char *r[] = {"hrpplan", "robot", "robots/hrp2.yaml"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(c), c, &a, err), PLN_OK);
    ck_assert_str_eq(a.scenario, "s.yaml");
    ck_assert_str_eq(a.trajectory, "t.pos");
    ck_assert_int_eq(parse(ARGC(r), r, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_ROBOT);
    ck_assert_str_eq(a.robot, "robots/hrp2.yaml");
}
END_TEST

START_TEST(test_parse_export)
{
    char *argv[] = {"hrpplan", "export", "t.json", "--format", "ros", "--rate", "500",
                    "-o", "t.yaml", "--force"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_int_eq(a.format, PLN_FORMAT_ROS);
    ck_assert(a.rate_hz == 500.0);
    ck_assert_str_eq(a.output, "t.yaml");
    ck_assert_int_eq(a.force, 1);
}
END_TEST

START_TEST(test_parse_export_defaults_rate_200)
{
    char *argv[] = {"hrpplan", "export", "t.json", "--format=pos", "-o", "t.pos"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert(a.rate_hz == 200.0);
}
END_TEST

START_TEST(test_parse_export_mjcf)
{
    char *argv[] = {"hrpplan", "export-mjcf", "r.yaml", "--fixed-base", "-o", "r.xml"};
    char *argv2[] = {"hrpplan", "export-mjcf", "r.yaml"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_EXPORT_MJCF);
    ck_assert_str_eq(a.robot, "r.yaml");
    ck_assert_str_eq(a.output, "r.xml");
    ck_assert_int_eq(a.fixed_base, 1);
    ck_assert_int_eq(parse(ARGC(argv2), argv2, &a, err), PLN_OK);
    ck_assert_ptr_null(a.output);
    ck_assert_int_eq(a.fixed_base, 0);
}
END_TEST

START_TEST(test_parse_double_dash)
{
    char *argv[] = {"hrpplan", "robot", "--", "-strange-name.yaml"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(argv), argv, &a, err), PLN_OK);
    ck_assert_str_eq(a.robot, "-strange-name.yaml");
}
END_TEST

START_TEST(test_parse_help_and_version)
{
    char *h[] = {"hrpplan", "--help"};
    char *hp[] = {"hrpplan", "plan", "--help"};
    char *hh[] = {"hrpplan", "help", "export"};
    char *v[] = {"hrpplan", "--version"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(h), h, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_HELP);
    ck_assert_int_eq(parse(ARGC(hp), hp, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_PLAN);
    ck_assert_int_eq(a.help, 1);
    ck_assert_int_eq(parse(ARGC(hh), hh, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_EXPORT);
    ck_assert_int_eq(a.help, 1);
    ck_assert_int_eq(parse(ARGC(v), v, &a, err), PLN_OK);
    ck_assert_int_eq(a.command, PLN_CMD_VERSION);
}
END_TEST

/* one usage mistake per row: argv, and a fragment the message must contain */
typedef struct BadCase {
    int argc;
    char *argv[8];
    const char *fragment;
} BadCase;

static const BadCase BAD[] = {
    {1, {"hrpplan"}, "no command"},
    {2, {"hrpplan", "frobnicate"}, "unknown command 'frobnicate'"},
    {3, {"hrpplan", "help", "frobnicate"}, "unknown command"},
    {2, {"hrpplan", "plan"}, "missing argument"},
    {3, {"hrpplan", "check", "s.yaml"}, "missing argument"},
    {4, {"hrpplan", "plan", "a.yaml", "b.yaml"}, "unexpected argument 'b.yaml'"},
    {4, {"hrpplan", "plan", "s.yaml", "--bogus"}, "unknown option '--bogus'"},
    {4, {"hrpplan", "robot", "r.yaml", "--method=ca"}, "unknown option"},
    {3, {"hrpplan", "plan", "-o"}, "needs a value"},
    {5, {"hrpplan", "plan", "s.yaml", "--method", "fast"}, "--method 'fast'"},
    {5, {"hrpplan", "plan", "s.yaml", "--geometry", "Mesh"}, "--geometry 'Mesh': expected capsule"},
    {5, {"hrpplan", "check", "s.yaml", "t.json", "--geometry=sphere"}, "--geometry 'sphere'"},
    {5, {"hrpplan", "export", "t.json", "--geometry", "mesh"}, "unknown option"},
    {5, {"hrpplan", "plan", "s.yaml", "--distance", "manhattan"}, "--distance 'manhattan': expected euclidean or phong"},
    {6, {"hrpplan", "check", "s.yaml", "t.json", "--distance", "phong"}, "unknown option"},
    {5, {"hrpplan", "plan", "s.yaml", "--threads", "0"}, "--threads '0'"},
    {5, {"hrpplan", "plan", "s.yaml", "--threads", "2x"}, "--threads '2x'"},
    {5, {"hrpplan", "plan", "s.yaml", "--threads", ""}, "--threads ''"},
    {4, {"hrpplan", "plan", "s.yaml", "--no-collision=1"}, "takes no value"},
    {5, {"hrpplan", "plan", "s.yaml", "-o", ""}, "--output is empty"},
    {7, {"hrpplan", "export", "t.json", "--format", "pos", "--rate", "-5"}, "--rate '-5'"},
    {7, {"hrpplan", "export", "t.json", "--format", "pos", "--rate", "nan"}, "--rate 'nan'"},
    {7, {"hrpplan", "export", "t.json", "--format", "pos", "--rate", "inf"}, "--rate 'inf'"},
    {5, {"hrpplan", "export", "t.json", "--format", "mp4"}, "--format 'mp4'"},
    {5, {"hrpplan", "export", "t.json", "-o", "x.pos"}, "--format is required"},
    {5, {"hrpplan", "export", "t.json", "--format", "csv"}, "-o FILE is required"},
    {2, {"hrpplan", "export-mjcf"}, "missing argument (usage: hrpplan export-mjcf ROBOT.yaml)"},
    {4, {"hrpplan", "export-mjcf", "r.yaml", "--force"}, "unknown option '--force'"},
    {4, {"hrpplan", "plan", "s.yaml", "--fixed-base"}, "unknown option '--fixed-base'"},
};

START_TEST(test_parse_usage_mistakes)
{
    const BadCase *b = &BAD[_i];
    PlnCliArgs a;
    char err[512] = "";
    ck_assert_int_eq(parse(b->argc, b->argv, &a, err), PLN_ERR_USAGE);
    ck_assert_msg(strstr(err, b->fragment) != NULL, "case %d: message '%s' lacks '%s'", _i, err,
                  b->fragment);
    ck_assert_int_eq(pln_status_exit_code(PLN_ERR_USAGE), PLN_EXIT_BAD_INPUT);
}
END_TEST


/* plan --max-time: the optimiser stops at the budget, and says so in report.json */
START_TEST(test_plan_max_time)
{
    static char out[1 << 16], errs[1 << 16], report[1 << 20];
    char dir[256], odir[300], path[400];
    /* 0.01 s: a tenth of the whole plan on a 2-core machine (0.12 s, session 30) */
    char *argv[] = {"hrpplan", "plan", "scenarios/hand_cross.yaml", "--max-time", "0.01", "-q", "-o", odir};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(odir, sizeof odir, "%s/out", dir);
    (void)cli_run(8, argv, out, errs, sizeof out);
    snprintf(path, sizeof path, "%s/report.json", odir);
    ck_assert(ckutil_read_file(path, report, sizeof report) > 0);
    ck_assert_msg(strstr(report, "\"optimizer_stop\": \"time limit reached\"") != NULL, "%.300s", report);
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

/* the real binary past its --timeout: exit 3, the step named on stderr, the failure
 * document on stdout with --json, and nothing written: not the output directory it
 * would have made, not a hidden temporary */
START_TEST(test_process_timeout_writes_nothing)
{
    const char *bin = getenv("HRPPLAN_BIN");
    char dir[256], cmd[1200], args[600], path[400];
    static char buf[8192];
    int st;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(args, sizeof args, "plan scenarios/twist_mesh.yaml --timeout 0.5 --json -q -o '%s/out'", dir);
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s/stdout' 2>'%s/stderr'", bin && *bin ? bin : "build/hrpplan",
             args, dir, dir);
    st = system(cmd);
    ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 3, "%s: status %d", cmd, st);
    snprintf(path, sizeof path, "%s/stderr", dir);
    ck_assert(ckutil_read_file(path, buf, sizeof buf) > 0);
    ck_assert_msg(strstr(buf, "hrpplan plan: timeout: the run exceeded its time limit of 0.5 s while ") != NULL,
                  "%s", buf);
    ck_assert_msg(strstr(buf, "; nothing was written") != NULL, "%s", buf);
    snprintf(path, sizeof path, "%s/stdout", dir);
    ck_assert(ckutil_read_file(path, buf, sizeof buf) > 0);
    ck_assert_msg(strstr(buf, "\"status\": \"failed\", \"exit_code\": 3") != NULL, "%s", buf);
    ck_assert_int_eq(ckutil_count_entries(dir), 2); /* stdout, stderr: no out/ */
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_main_help_texts)
{
    static char out[8192], errs[8192];
    const char *cmds[] = {"plan", "check", "robot", "export", "export-mjcf"};
    char *h[] = {"hrpplan", "--help"};
    ck_assert_int_eq(cli_run(2, h, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert_ptr_nonnull(strstr(out, "usage: hrpplan <command>"));
    ck_assert_ptr_nonnull(strstr(out, "exit codes"));
    for (int i = 0; i < 5; ++i) {
        char *argv[] = {"hrpplan", (char *)cmds[i], "--help"};
        char want[64];
        snprintf(want, sizeof want, "usage: hrpplan %s", cmds[i]);
        ck_assert_int_eq(cli_run(3, argv, out, errs, sizeof out), PLN_EXIT_OK);
        ck_assert_msg(strstr(out, want) != NULL, "help of %s", cmds[i]);
        ck_assert_str_eq(errs, "");
    }
}
END_TEST

/* export-mjcf: the model on stdout, or atomically into -o; a bad robot exits 2 */
START_TEST(test_main_export_mjcf)
{
    static char out[200000], errs[200000];
    char dir[] = "/tmp/hrpplan_cli_XXXXXX", path[64];
    char *argv[] = {"hrpplan", "export-mjcf", "robots/hrp2.yaml"};
    char *bad[] = {"hrpplan", "export-mjcf", "scenarios/hand_cross.yaml"};
    FILE *f;
    ck_assert_int_eq(cli_run(3, argv, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert_ptr_nonnull(strstr(out, "<mujoco model=\"hrp2\">"));
    ck_assert_ptr_nonnull(strstr(out, "<freejoint name=\"base\"/>"));
    ck_assert_ptr_nonnull(strstr(out, "</mujoco>"));
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/hrp2.xml", dir);
    {
        char *to_file[] = {"hrpplan", "export-mjcf", "robots/hrp2.yaml", "--fixed-base", "-o", path};
        ck_assert_int_eq(cli_run(6, to_file, out, errs, sizeof out), PLN_EXIT_OK);
    }
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    unlink(path);
    rmdir(dir);
    ck_assert_int_eq(cli_run(3, bad, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_nonnull(strstr(errs, "hrpplan export-mjcf: scenarios/hand_cross.yaml:"));
}
END_TEST

START_TEST(test_main_version)
{
    static char out[1024], errs[1024];
    char *v[] = {"hrpplan", "--version"};
    ck_assert_int_eq(cli_run(2, v, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert_ptr_nonnull(strstr(out, "hrpplan " PLN_VERSION));
}
END_TEST

START_TEST(test_main_missing_file_exits_2)
{
    static char out[1024], errs[1024];
    char *argv[] = {"hrpplan", "plan", "/nonexistent/dir/s.yaml"};
    ck_assert_int_eq(cli_run(3, argv, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_nonnull(strstr(errs, "/nonexistent/dir/s.yaml"));
    ck_assert_ptr_nonnull(strstr(errs, "No such file"));
}
END_TEST

START_TEST(test_main_usage_error_exits_2)
{
    static char out[1024], errs[1024];
    char *argv[] = {"hrpplan", "plann"};
    ck_assert_int_eq(cli_run(2, argv, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_nonnull(strstr(errs, "unknown command 'plann'"));
    ck_assert_str_eq(out, "");
}
END_TEST

/* -v: a progress line per evaluation; it contradicts -q */
START_TEST(test_parse_verbose)
{
    char *v[] = {"hrpplan", "plan", "s.yaml", "-v"};
    char *qv[] = {"hrpplan", "plan", "s.yaml", "--verbose", "-q"};
    PlnCliArgs a;
    char err[512];
    ck_assert_int_eq(parse(ARGC(v), v, &a, err), PLN_OK);
    ck_assert_int_eq(a.verbose, 1);
    ck_assert_int_eq(parse(ARGC(qv), qv, &a, err), PLN_ERR_USAGE);
    ck_assert_msg(strstr(err, "contradict") != NULL, "%s", err);
}
END_TEST

/* a mistyped command or long option: the usage error names the likely one */
START_TEST(test_main_did_you_mean)
{
    static char out[1024], errs[1024];
    char *cmd[] = {"hrpplan", "plna", "s.yaml"};
    char *opt[] = {"hrpplan", "plan", "s.yaml", "--max-tme", "3"};
    char *opt_eq[] = {"hrpplan", "batch", "s.yaml", "--job=2"};
    char *far[] = {"hrpplan", "frobnicate"};
    char *far_opt[] = {"hrpplan", "plan", "s.yaml", "--colour"};
    char *other[] = {"hrpplan", "check", "s.yaml", "t.json", "--max-tme", "3"};
    ck_assert_int_eq(cli_run(ARGC(cmd), cmd, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, "unknown command 'plna'; did you mean 'plan'?") != NULL, "%s", errs);
    ck_assert_int_eq(cli_run(ARGC(opt), opt, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, "unknown option '--max-tme'; did you mean '--max-time'?") != NULL, "%s", errs);
    ck_assert_int_eq(cli_run(ARGC(opt_eq), opt_eq, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, "did you mean '--jobs'?") != NULL, "%s", errs);
    {
        char *help[] = {"hrpplan", "help", "bacth"};
        char *hlep[] = {"hrpplan", "check", "--hlep"};
        ck_assert_int_eq(cli_run(ARGC(help), help, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
        ck_assert_msg(strstr(errs, "did you mean 'batch'?") != NULL, "%s", errs);
        ck_assert_int_eq(cli_run(ARGC(hlep), hlep, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
        ck_assert_msg(strstr(errs, "did you mean '--help'?") != NULL, "%s", errs);
    }
    ck_assert_int_eq(cli_run(ARGC(far), far, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_null(strstr(errs, "did you mean"));
    ck_assert_int_eq(cli_run(ARGC(far_opt), far_opt, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_null(strstr(errs, "did you mean"));
    /* only options of the command are suggested: check has no --max-time */
    ck_assert_int_eq(cli_run(ARGC(other), other, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_ptr_null(strstr(errs, "did you mean"));
    ck_assert_str_eq(out, "");
}
END_TEST

/* reads `text` as a JSON document (YAML is a superset) and returns its "status" */
static void json_status(const char *dir, const char *text, char *status, size_t size)
{
    char path[400], err[512];
    PlnYaml y;
    FILE *f;
    snprintf(path, sizeof path, "%s/stdout.json", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    ck_assert_msg(pln_yaml_load(&y, path, err, sizeof err) == PLN_OK, "%s: %s", err, text);
    ck_assert_int_eq(pln_yaml_string(&y, pln_yaml_root(&y), "", "status", 1, status, size), PLN_OK);
    pln_yaml_free(&y);
}

/* plan --json prints report.json's document on stdout; check --json its certificate;
 * a failed plan prints {"status": "failed", ...} */
START_TEST(test_main_json)
{
    static char out[1 << 20], errs[1 << 16], report[1 << 20];
    char dir[256], odir[300], traj[400], status[64];
    char *plan[] = {"hrpplan", "plan", "tests/data/arms_fast.yaml", "--json", "-q", "--max-time",
                    "86400", "-o", odir};
    char *check[] = {"hrpplan", "check", "tests/data/arms_fast.yaml", traj, "--json"};
    char *bad[] = {"hrpplan", "plan", "tests/bad/scenario/cost_unknown.yaml", "--json", "-q", "-o", odir};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(odir, sizeof odir, "%s/out", dir);
    snprintf(traj, sizeof traj, "%s/trajectory.json", odir);
    ck_assert_int_eq(cli_run(ARGC(plan), plan, out, errs, sizeof out), PLN_EXIT_OK);
    json_status(dir, out, status, sizeof status);
    ck_assert_str_eq(status, "certified");
    snprintf(report, sizeof report, "%s/report.json", odir);
    {
        static char file[1 << 20];
        ck_assert(ckutil_read_file(report, file, sizeof file) > 0);
        ck_assert_str_eq(out, file); /* the same document */
    }
    ck_assert_int_eq(cli_run(ARGC(check), check, out, errs, sizeof out), PLN_EXIT_OK);
    json_status(dir, out, status, sizeof status);
    ck_assert_str_eq(status, "certified");
    ck_assert_ptr_nonnull(strstr(out, "\"min_clearance_m\": "));
    ck_assert_msg(strstr(errs, "status: certified") != NULL, "the table goes to stderr: %s", errs);
    ck_assert_int_eq(cli_run(ARGC(bad), bad, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    json_status(dir, out, status, sizeof status);
    ck_assert_str_eq(status, "failed");
    ck_assert_ptr_nonnull(strstr(out, "\"exit_code\": 2"));
    ck_assert_ptr_nonnull(strstr(out, "cost.type"));
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

/* runs the real binary through the shell; returns its exit status. */
static int run_binary(const char *args)
{
    const char *bin = getenv("HRPPLAN_BIN");
    char cmd[1024];
    int st;
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", bin && *bin ? bin : "build/hrpplan",
             args);
    st = system(cmd);
    ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
    return WEXITSTATUS(st);
}

START_TEST(test_process_exit_codes)
{
    ck_assert_int_eq(run_binary("--help"), 0);
    ck_assert_int_eq(run_binary("--version"), 0);
    ck_assert_int_eq(run_binary("export --help"), 0);
    ck_assert_int_eq(run_binary(""), 2);
    ck_assert_int_eq(run_binary("frobnicate"), 2);
    ck_assert_int_eq(run_binary("plna x.yaml"), 2);
    ck_assert_int_eq(run_binary("batch"), 2);
    ck_assert_int_eq(run_binary("plan --threads 0 x.yaml"), 2);
    ck_assert_int_eq(run_binary("plan /nonexistent.yaml"), 2);
}
END_TEST

Suite *pln_cli_suite(void)
{
    Suite *s = suite_create("pln_cli");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_parse_plan_defaults);
    tcase_add_test(tc, test_parse_plan_all_options);
    tcase_add_test(tc, test_parse_plan_threads_auto);
    tcase_add_test(tc, test_parse_timeout);
    tcase_add_test(tc, test_parse_check_geometry);
    tcase_add_test(tc, test_parse_check_and_robot);
    tcase_add_test(tc, test_parse_export);
    tcase_add_test(tc, test_parse_export_defaults_rate_200);
    tcase_add_test(tc, test_parse_export_mjcf);
    tcase_add_test(tc, test_parse_double_dash);
    tcase_add_test(tc, test_parse_help_and_version);
    tcase_add_loop_test(tc, test_parse_usage_mistakes, 0, ARGC(BAD));
    tcase_add_test(tc, test_parse_verbose);
    suite_add_tcase(s, tc);
    tc = tcase_create("main");
    tcase_set_timeout(tc, 120); /* test_plan_max_time plans and certifies hand_cross */
    tcase_add_test(tc, test_main_help_texts);
    tcase_add_test(tc, test_plan_max_time);
    tcase_add_test(tc, test_main_version);
    tcase_add_test(tc, test_main_export_mjcf);
    tcase_add_test(tc, test_main_missing_file_exits_2);
    tcase_add_test(tc, test_main_usage_error_exits_2);
    tcase_add_test(tc, test_main_did_you_mean);
    tcase_add_test(tc, test_main_json);
    suite_add_tcase(s, tc);
    tc = tcase_create("process");
    tcase_add_test(tc, test_process_exit_codes);
    tcase_add_test(tc, test_process_timeout_writes_nothing);
    suite_add_tcase(s, tc);
    return s;
}
