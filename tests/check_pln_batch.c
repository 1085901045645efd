/* check_pln_batch.c — tests of planner/cli/pln_cmd_batch.c: `hrpplan batch` runs the real
 * hrpplan binary ($HRPPLAN_BIN, set by `make test`), since its plans are child processes
 * of that program; usage errors run in-process. The scenarios are the fast ones of
 * tests/data/ (a fraction of a second each) and a bad file of tests/bad/; every plan
 * gets --max-time 86400 so that a slow run (valgrind) is not cut short. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/pln_yaml.h"
#include "check_util.h"
#include "cli_run.h"

extern char **environ;

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Bytes of a summary or captured stream the tests read. */
#define BATCH_TEXT_MAX (1 << 16)
/* Seconds the crash test waits for the batch to start its first plan. */
#define BATCH_START_WAIT_S 60.0

#define GOOD_A "tests/data/arms_fast.yaml"
#define GOOD_B "tests/data/reach_pole.yaml"
#define BAD "tests/bad/scenario/cost_unknown.yaml"

static const char *hrpplan_bin(void)
{
    const char *bin = getenv("HRPPLAN_BIN");
    return bin != NULL && *bin ? bin : "build/hrpplan";
}

/* runs `hrpplan batch ARGS` with stdout and stderr into dir/stdout, dir/stderr;
 * returns its exit code */
static int run_batch(const char *dir, const char *args)
{
    char cmd[4096];
    int st;
    snprintf(cmd, sizeof cmd, "'%s' batch %s >'%s/stdout' 2>'%s/stderr'", hrpplan_bin(), args,
             dir, dir);
    st = system(cmd);
    ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
    return WEXITSTATUS(st);
}

static void rm_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static int exists(const char *dir, const char *name)
{
    char path[1024];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &sb) == 0;
}

/* the CSV fields of one line into f[] (no quoted field before the last, which the
 * summary's cause column is); returns how many */
static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        if (*p == '"') break; /* the quoted cause: the rest of the line */
        p = strchr(p, ',');
        if (p == NULL) break;
        *p++ = '\0';
    }
    return n;
}

/* the line'th line (0: the header) of text into buf */
static void nth_line(const char *text, int line, char *buf, size_t size)
{
    const char *p = text, *e;
    for (int i = 0; i < line && p != NULL; ++i) {
        p = strchr(p, '\n');
        if (p != NULL) ++p;
    }
    ck_assert_ptr_nonnull(p);
    e = strchr(p, '\n');
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_lt((size_t)(e - p), size);
    memcpy(buf, p, (size_t)(e - p));
    buf[e - p] = '\0';
}

/* summary.csv with its wall_time_s column (the 7th) emptied: what -j must not change */
static void summary_without_times(const char *outdir, char *buf, size_t size)
{
    char path[1024], text[BATCH_TEXT_MAX], *line, *save = NULL;
    size_t used = 0;
    snprintf(path, sizeof path, "%s/summary.csv", outdir);
    ck_assert_msg(ckutil_read_file(path, text, sizeof text) > 0, "%s missing", path);
    buf[0] = '\0';
    for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        char *f[8];
        int n = split_csv(line, f, 8);
        ck_assert_int_eq(n, 8);
        if (strcmp(f[0], "file") != 0) f[6] = "";
        used += (size_t)snprintf(buf + used, size - used, "%s,%s,%s,%s,%s,%s,%s,%s\n", f[0], f[1],
                                 f[2], f[3], f[4], f[5], f[6], f[7]);
        ck_assert_uint_lt(used, size);
    }
}

/* three scenarios, one of them bad: a row each in command-line order, the exit code
 * the worst (2, bad input), a folder of outputs for each good one and none for the bad */
START_TEST(test_batch_rows_exit_code_and_folders)
{
    char dir[256], out[300], args[1024], path[400], text[BATCH_TEXT_MAX], line[2048];
    char *f[8];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "%s %s %s -o '%s' --max-time 86400", GOOD_A, BAD, GOOD_B, out);
    ck_assert_int_eq(run_batch(dir, args), 2);

    snprintf(path, sizeof path, "%s/summary.csv", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    nth_line(text, 0, line, sizeof line);
    ck_assert_str_eq(line, "file,output_dir,status,exit_code,signal,min_clearance_m,wall_time_s,cause");
    nth_line(text, 1, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[0], GOOD_A);
    ck_assert(strstr(f[1], "/out/arms_fast") != NULL);
    ck_assert_str_eq(f[2], "certified");
    ck_assert_str_eq(f[3], "0");
    ck_assert_str_eq(f[4], "");
    ck_assert_msg(atof(f[5]) > 0.0, "clearance '%s'", f[5]); /* from the plan's report.json */
    ck_assert_str_eq(f[7], "");
    nth_line(text, 2, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[0], BAD);
    ck_assert_str_eq(f[2], "bad_input");
    ck_assert_str_eq(f[3], "2");
    ck_assert_str_eq(f[5], "");
    ck_assert_msg(strstr(f[7], "cost.type") != NULL, "cause '%s'", f[7]); /* the plan's stderr */
    nth_line(text, 3, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[0], GOOD_B);
    ck_assert_str_eq(f[2], "certified");
    ck_assert(strstr(text, "\n") != NULL && strchr(strstr(text, GOOD_B), '\n')[1] == '\0');

    /* the folders: outputs for each plan, nothing at all for the bad scenario */
    ck_assert(exists(out, "arms_fast/report.json"));
    ck_assert(exists(out, "arms_fast/trajectory.pos"));
    ck_assert(exists(out, "reach_pole/report.json"));
    ck_assert(!exists(out, "cost_unknown"));

    /* summary.json is JSON (read here as YAML, a superset) with the same verdict */
    {
        PlnYaml y;
        char err[512], worst[64];
        int code, n;
        yaml_node_t *rows;
        snprintf(path, sizeof path, "%s/summary.json", out);
        ck_assert_msg(pln_yaml_load(&y, path, err, sizeof err) == PLN_OK, "%s", err);
        ck_assert_int_eq(pln_yaml_string(&y, pln_yaml_root(&y), "", "worst_status", 1, worst, sizeof worst), PLN_OK);
        ck_assert_str_eq(worst, "bad_input");
        ck_assert_int_eq(pln_yaml_int(&y, pln_yaml_root(&y), "", "exit_code", 1, 0, 3, &code), PLN_OK);
        ck_assert_int_eq(code, 2);
        rows = pln_yaml_get(&y, pln_yaml_root(&y), "scenarios");
        ck_assert_int_eq(pln_yaml_sequence(&y, rows, "scenarios", &n), PLN_OK);
        ck_assert_int_eq(n, 3);
        pln_yaml_free(&y);
    }

    /* progress on stderr, one line per plan */
    snprintf(path, sizeof path, "%s/stderr", dir);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    ck_assert_msg(strstr(text, "[1/3] ") != NULL && strstr(text, "[3/3] ") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "cost_unknown: bad_input") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "arms_fast: certified") != NULL, "%s", text);

    /* --summarize rebuilds the same rows from the folders (bad: no report, failed) */
    {
        char before[BATCH_TEXT_MAX], after[BATCH_TEXT_MAX];
        summary_without_times(out, before, sizeof before);
        snprintf(args, sizeof args, "--summarize '%s' %s %s %s", out, GOOD_A, BAD, GOOD_B);
        ck_assert_int_eq(run_batch(dir, args), 1);
        summary_without_times(out, after, sizeof after);
        nth_line(after, 1, line, sizeof line);
        ck_assert_msg(strstr(before, line) != NULL, "%s\nnot in\n%s", line, before);
        nth_line(after, 3, line, sizeof line);
        ck_assert_msg(strstr(before, line) != NULL, "%s\nnot in\n%s", line, before);
        nth_line(after, 2, line, sizeof line);
        ck_assert_msg(strstr(line, ",failed,") != NULL && strstr(line, "no report.json") != NULL, "%s", line);
        /* without the list: every folder with a report, by name */
        snprintf(args, sizeof args, "--summarize '%s'", out);
        ck_assert_int_eq(run_batch(dir, args), 0);
        summary_without_times(out, after, sizeof after);
        nth_line(after, 1, line, sizeof line);
        ck_assert_msg(strstr(line, "/out/arms_fast,certified,") != NULL, "%s", line);
        nth_line(after, 2, line, sizeof line);
        ck_assert_msg(strstr(line, "/out/reach_pole,certified,") != NULL, "%s", line);
        ck_assert_ptr_null(strstr(after, "cost_unknown"));
    }
    rm_tree(dir);
}
END_TEST

/* -j 2 gives the summary of -j 1 (times apart); a repeated stem gets -2 */
START_TEST(test_batch_jobs_same_summary)
{
    char dir[256], out1[300], out2[300], args[1024];
    static char s1[BATCH_TEXT_MAX], s2[BATCH_TEXT_MAX];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(out1, sizeof out1, "%s/j1", dir);
    snprintf(out2, sizeof out2, "%s/j2", dir);
    snprintf(args, sizeof args, "%s %s %s %s -q -j 1 -o '%s' --max-time 86400", GOOD_B, BAD,
             GOOD_A, GOOD_B, out1);
    ck_assert_int_eq(run_batch(dir, args), 2);
    snprintf(args, sizeof args, "%s %s %s %s -q -j 2 -o '%s' --max-time 86400", GOOD_B, BAD,
             GOOD_A, GOOD_B, out2);
    ck_assert_int_eq(run_batch(dir, args), 2);
    summary_without_times(out1, s1, sizeof s1);
    summary_without_times(out2, s2, sizeof s2);
    /* the folders differ by name only: compare with j2 written as j1 */
    for (char *p = strstr(s2, "/j2/"); p != NULL; p = strstr(p, "/j2/")) p[2] = '1';
    ck_assert_str_eq(s1, s2);
    ck_assert_msg(strstr(s1, "/j1/reach_pole-2,certified,") != NULL, "%s", s1);
    ck_assert(exists(out2, "reach_pole-2/report.json"));
    rm_tree(dir);
}
END_TEST

/* 1 when process pid runs `... plan ...` (has exec'ed: before that a spawned child's
 * command line is still the batch's) */
static int runs_plan(pid_t pid)
{
    char path[64], cmd[4096];
    FILE *f;
    size_t n;
    int plan = 0, batch = 0;
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
    f = fopen(path, "rb");
    if (f == NULL) return 0;
    n = fread(cmd, 1, sizeof cmd - 1, f);
    fclose(f);
    for (size_t i = 0; i < n; i += strlen(cmd + i) + 1) {
        cmd[n] = '\0';
        if (strcmp(cmd + i, "plan") == 0) plan = 1;
        if (strcmp(cmd + i, "batch") == 0) batch = 1;
    }
    return plan && !batch;
}

/* a plan killed by a signal is recorded as crashed and the batch goes on */
START_TEST(test_batch_crash_recorded)
{
    char dir[256], out[300], path[400], text[BATCH_TEXT_MAX], line[2048], children[256];
    char *argv[] = {(char *)hrpplan_bin(), "batch", "-q", "-o", out, "--max-time", "86400",
                    "scenarios/hand_cross.yaml", GOOD_A, NULL};
    char *f[8];
    pid_t batch, child = 0;
    int wstatus;
    struct timespec nap = {0, 20 * 1000 * 1000};
    double waited = 0.0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    {
        posix_spawn_file_actions_t fa;
        ck_assert_int_eq(posix_spawn_file_actions_init(&fa), 0);
        ck_assert_int_eq(posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0), 0);
        ck_assert_int_eq(posix_spawn(&batch, argv[0], &fa, NULL, argv, environ), 0);
        posix_spawn_file_actions_destroy(&fa);
    }
    /* the batch's first plan (hand_cross, seconds long) as soon as it runs */
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)batch, (int)batch);
    while (child <= 0 && waited < BATCH_START_WAIT_S) {
        long n = ckutil_read_file(path, children, sizeof children);
        if (n < 0) break; /* a kernel without the children list */
        if (waitpid(batch, &wstatus, WNOHANG) == batch) {
            rm_tree(dir);
            ck_abort_msg("the batch ended before its first plan was seen (status %d)", wstatus);
        }
        child = (pid_t)atol(children);
        if (child > 0 && !runs_plan(child)) child = 0; /* not exec'ed yet */
        if (child <= 0) {
            nanosleep(&nap, NULL);
            waited += 0.02;
        }
    }
    if (child <= 0) {
        kill(batch, SIGKILL);
        waitpid(batch, &wstatus, 0);
        rm_tree(dir);
        ck_abort_msg("no child of the batch seen in %s", path);
    }
    ck_assert_int_eq(kill(child, SIGKILL), 0);
    ck_assert_int_eq(waitpid(batch, &wstatus, 0), batch);
    ck_assert(WIFEXITED(wstatus));
    ck_assert_int_eq(WEXITSTATUS(wstatus), 1); /* crashed is the worst */
    snprintf(path, sizeof path, "%s/summary.csv", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    nth_line(text, 1, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[2], "crashed");
    ck_assert_str_eq(f[3], "");
    ck_assert_str_eq(f[4], "9");
    ck_assert_msg(strstr(f[7], "signal 9") != NULL, "%s", f[7]);
    nth_line(text, 2, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[0], GOOD_A);
    ck_assert_str_eq(f[2], "certified"); /* planned after the crash */
    rm_tree(dir);
}
END_TEST

/* --timeout goes to every plan: a plan past it is recorded not certified (exit 3) with
 * the timeout as its cause, and the batch goes on to the next */
START_TEST(test_batch_timeout_passed_to_plans)
{
    char dir[256], out[300], args[1024], path[400], line[2048];
    static char text[BATCH_TEXT_MAX];
    char *f[8];
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(args, sizeof args, "scenarios/twist_mesh.yaml %s -q -o '%s' --timeout 0.4", GOOD_A, out);
    ck_assert_int_eq(run_batch(dir, args), PLN_EXIT_NOT_CERTIFIED);
    snprintf(path, sizeof path, "%s/summary.csv", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    nth_line(text, 1, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[2], "not_certified");
    ck_assert_str_eq(f[3], "3");
    ck_assert_msg(strstr(f[7], "timeout: the run exceeded its time limit of 0.4 s") != NULL, "%s", f[7]);
    ck_assert(!exists(out, "twist_mesh/report.json"));
    nth_line(text, 2, line, sizeof line);
    ck_assert_int_eq(split_csv(line, f, 8), 8);
    ck_assert_str_eq(f[0], GOOD_A);
    rm_tree(dir);
}
END_TEST

/* docs/scale-out.md's Slurm path without Slurm: the array script run as tasks 1..3 of
 * a list with a repeated stem, then --summarize, gives batch's folders and rows */
START_TEST(test_batch_array_script_and_summarize)
{
    char dir[256], list[300], out[300], cmd[2048], path[400], text[BATCH_TEXT_MAX], line[2048];
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(list, sizeof list, "%s/list.txt", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    f = fopen(list, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%s\n%s\n%s\n", GOOD_A, BAD, GOOD_A);
    fclose(f);
    for (int task = 1; task <= 3; ++task) {
        int st;
        snprintf(cmd, sizeof cmd,
                 "SLURM_ARRAY_TASK_ID=%d HRPPLAN='%s' bash tools/scale-out/hrpplan-array.sbatch "
                 "'%s' '%s' --max-time 86400 >/dev/null 2>&1",
                 task, hrpplan_bin(), list, out);
        st = system(cmd);
        ck_assert(st != -1 && WIFEXITED(st));
        ck_assert_int_eq(WEXITSTATUS(st), task == 2 ? 2 : 0); /* the plan's exit code */
    }
    ck_assert(exists(out, "arms_fast/report.json"));
    ck_assert(exists(out, "arms_fast-2/report.json"));
    ck_assert(!exists(out, "cost_unknown"));
    snprintf(cmd, sizeof cmd, "--summarize '%s' %s %s %s", out, GOOD_A, BAD, GOOD_A);
    ck_assert_int_eq(run_batch(dir, cmd), 1); /* no report for the bad one: failed */
    snprintf(path, sizeof path, "%s/summary.csv", out);
    ck_assert(ckutil_read_file(path, text, sizeof text) > 0);
    nth_line(text, 1, line, sizeof line);
    ck_assert_msg(strstr(line, "/out/arms_fast,certified,0,,0.5") != NULL, "%s", line);
    nth_line(text, 2, line, sizeof line);
    ck_assert_msg(strstr(line, "/out/cost_unknown,failed,") != NULL, "%s", line);
    nth_line(text, 3, line, sizeof line);
    ck_assert_msg(strstr(line, "/out/arms_fast-2,certified,0,,0.5") != NULL, "%s", line);
    rm_tree(dir);
}
END_TEST

/* usage: no scenario, a bad -j, --summarize with -o; help */
START_TEST(test_batch_usage)
{
    static char out[1 << 14], errs[1 << 14];
    char *none[] = {"hrpplan", "batch", "-q"};
    char *j0[] = {"hrpplan", "batch", "a.yaml", "-j", "0"};
    char *jbig[] = {"hrpplan", "batch", "a.yaml", "-j", "65"};
    char *jword[] = {"hrpplan", "batch", "a.yaml", "--jobs=two"};
    char *both[] = {"hrpplan", "batch", "--summarize", "d", "-o", "e"};
    char *nodir[] = {"hrpplan", "batch", "--summarize", "/nonexistent/hrpplan-batch"};
    char *help[] = {"hrpplan", "batch", "--help"};
    char *overview[] = {"hrpplan", "--help"};
    ck_assert_int_eq(cli_run(ARGC(none), none, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, "no scenario given") != NULL, "%s", errs);
    ck_assert_int_eq(cli_run(ARGC(j0), j0, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, "-j '0': expected an integer from 1 to 64") != NULL, "%s", errs);
    ck_assert_int_eq(cli_run(ARGC(jbig), jbig, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_int_eq(cli_run(ARGC(jword), jword, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_int_eq(cli_run(ARGC(both), both, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_int_eq(cli_run(ARGC(nodir), nodir, out, errs, sizeof out), PLN_EXIT_BAD_INPUT);
    ck_assert_msg(strstr(errs, "no such folder") != NULL, "%s", errs);
    ck_assert_int_eq(cli_run(ARGC(help), help, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert(strstr(out, "usage: hrpplan batch SCENARIO.yaml...") != NULL);
    ck_assert(strstr(out, "--summarize") != NULL);
    ck_assert_int_eq(cli_run(ARGC(overview), overview, out, errs, sizeof out), PLN_EXIT_OK);
    ck_assert(strstr(out, "  batch SCENARIO.yaml...") != NULL);
}
END_TEST

Suite *pln_batch_suite(void)
{
    Suite *s = suite_create("pln_batch");
    TCase *tc = tcase_create("usage");
    tcase_add_test(tc, test_batch_usage);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_set_timeout(tc, 300); /* a few fast plans each, several under valgrind */
    tcase_add_test(tc, test_batch_rows_exit_code_and_folders);
    tcase_add_test(tc, test_batch_timeout_passed_to_plans);
    tcase_add_test(tc, test_batch_jobs_same_summary);
    tcase_add_test(tc, test_batch_crash_recorded);
    tcase_add_test(tc, test_batch_array_script_and_summarize);
    suite_add_tcase(s, tc);
    return s;
}
