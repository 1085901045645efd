/* check_bad_inputs.c — the bad-input corpus (issue 23, tests/bad/MANIFEST.tsv): every
 * loader (scenario, robot, meshes, trajectories) and the argument parser, each file run
 * through `hrpplan` in-process with -o into an empty temporary directory; the exit code
 * and the message (file:line:column and field where the input has them) are the
 * manifest's, and nothing is left in the directory. Plus a scenario with a 10 MB line,
 * written here rather than kept in the repository. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "cli_run.h"
#include "cli/pln_cli.h"

#define MANIFEST "tests/bad/MANIFEST.tsv"
#define MAX_CASES 512
#define MAX_ARGS 32

typedef struct BadCase {
    char file[256];
    char command[512];
    int code;
    char pattern[512];
} BadCase;

static BadCase g_cases[MAX_CASES];
static int g_n_cases = -1;

/* the manifest's cases (read once) */
static int load_cases(void)
{
    FILE *f;
    char line[2048];
    if (g_n_cases >= 0) return g_n_cases;
    g_n_cases = 0;
    f = fopen(MANIFEST, "r");
    if (f == NULL) return 0;
    while (fgets(line, sizeof line, f) != NULL && g_n_cases < MAX_CASES) {
        BadCase *c = &g_cases[g_n_cases];
        char *fields[4], *s = line, *nl = strchr(line, '\n');
        int k = 0;
        if (nl != NULL) *nl = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        while (k < 4) {
            fields[k++] = s;
            s = strchr(s, '\t');
            if (s == NULL) break;
            *s++ = '\0';
        }
        if (k != 4) continue; /* malformed: counted by the test below */
        snprintf(c->file, sizeof c->file, "%s", fields[0]);
        snprintf(c->command, sizeof c->command, "%s", fields[1]);
        c->code = atoi(fields[2]);
        snprintf(c->pattern, sizeof c->pattern, "%s", fields[3]);
        ++g_n_cases;
    }
    fclose(f);
    return g_n_cases;
}


/* "{f}" and "{o}" of the command replaced, split at spaces into argv (after "hrpplan") */
static int build_argv(const BadCase *c, const char *dir, char *buf, size_t size, char **argv)
{
    size_t o = 0;
    int argc = 0;
    char path[512];
    snprintf(path, sizeof path, "tests/bad/%s", c->file);
    for (const char *p = c->command; *p != '\0' && o + 1 < size;) {
        const char *with = NULL;
        if (strncmp(p, "{f}", 3) == 0) with = path;
        else if (strncmp(p, "{o}", 3) == 0) with = dir;
        if (with != NULL) {
            size_t n = strlen(with);
            ck_assert(o + n < size);
            memcpy(buf + o, with, n);
            o += n;
            p += 3;
        } else {
            buf[o++] = *p++;
        }
    }
    buf[o] = '\0';
    argv[argc++] = "hrpplan";
    for (char *t = strtok(buf, " "); t != NULL && argc < MAX_ARGS; t = strtok(NULL, " ")) argv[argc++] = t;
    return argc;
}

START_TEST(test_bad_input)
{
    static char out[1 << 16], errs[1 << 16];
    char dir[256], buf[2048], *argv[MAX_ARGS];
    const BadCase *c;
    int argc, code;
    ck_assert_int_gt(load_cases(), _i);
    c = &g_cases[_i];
    ckutil_mkdtemp(dir, sizeof dir);
    argc = build_argv(c, dir, buf, sizeof buf, argv);
    code = cli_run(argc, argv, out, errs, sizeof out);
    ck_assert_msg(code == c->code, "%s (%s): exit %d, expected %d; stderr: %s", c->file, c->command, code, c->code, errs);
    ck_assert_msg(strstr(errs, c->pattern) != NULL, "%s: the message\n  %s\nlacks\n  %s", c->file, errs, c->pattern);
    ck_assert_msg(ckutil_count_entries(dir) == 0, "%s: output left in %s", c->file, dir);
    rmdir(dir);
}
END_TEST

/* the corpus is what the issue asks for: >= 80 cases over every loader */
START_TEST(test_corpus_size)
{
    static const char *const kinds[] = {"scenario/", "robot/", "mesh/", "trajectory/", "-"};
    int n = load_cases();
    ck_assert_int_ge(n, 80);
    for (int k = 0; k < 5; ++k) {
        int m = 0;
        for (int i = 0; i < n; ++i) m += strncmp(g_cases[i].file, kinds[k], strlen(kinds[k])) == 0;
        ck_assert_msg(m >= 5, "only %d cases of %s", m, kinds[k]);
    }
}
END_TEST

/* a scenario whose robot path is a 10 MB line */
START_TEST(test_ten_megabyte_line)
{
    static char out[1 << 16], errs[1 << 16];
    char dir[256], file[300], odir[320];
    char *argv[] = {"hrpplan", "plan", file, "-q", "-o", odir};
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/long.yaml", dir);
    snprintf(odir, sizeof odir, "%s/out", dir);
    f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs("name: long\nrobot: ", f);
    for (int k = 0; k < 10 * 1024; ++k) {
        char chunk[1024];
        memset(chunk, 'x', sizeof chunk);
        ck_assert_int_eq(fwrite(chunk, 1, sizeof chunk, f), sizeof chunk);
    }
    fputs("\nduration: 1.0\njoints: [A]\n", f);
    fclose(f);
    ck_assert_int_eq(cli_run(6, argv, out, errs, sizeof out), 2);
    ck_assert_msg(strstr(errs, "long.yaml:2:8: robot: longer than 1023 characters") != NULL, "%s", errs);
    ck_assert_int_eq(ckutil_count_entries(dir), 1); /* the scenario alone */
    remove(file);
    rmdir(dir);
}
END_TEST

/* runs `hrpplan ARGS...` with -o into a fresh directory: the exit code must be `code`,
 * stderr must hold `pattern`, and the directory must stay empty */
static void run_refused(char *const *args, int n_args, int code, const char *pattern)
{
    static char out[1 << 16], errs[1 << 16];
    char dir[256], odir[320];
    char *argv[MAX_ARGS];
    int argc = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(odir, sizeof odir, "%s/out", dir);
    argv[argc++] = "hrpplan";
    for (int i = 0; i < n_args; ++i) argv[argc++] = args[i];
    if (strcmp(args[0], "check") != 0 && strcmp(args[0], "robot") != 0) { /* they write nothing */
        argv[argc++] = "-o";
        argv[argc++] = odir;
    }
    ck_assert_int_eq(cli_run(argc, argv, out, errs, sizeof out), code);
    ck_assert_msg(strstr(errs, pattern) != NULL, "stderr\n  %s\nlacks\n  %s", errs, pattern);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    rmdir(dir);
}

/* special files: a FIFO (would block forever), /dev/zero (endless) and a mesh that is a
 * symbolic link to it are refused at once, naming what they are */
START_TEST(test_special_files_refused)
{
    char dir[256], fifo[320], scen[320], mesh[320], robot[320];
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(fifo, sizeof fifo, "%s/robot.yaml", dir);
    snprintf(scen, sizeof scen, "%s/scenario.yaml", dir);
    snprintf(mesh, sizeof mesh, "%s/zero.stl", dir);
    snprintf(robot, sizeof robot, "%s/meshrobot.yaml", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(symlink("/dev/zero", mesh), 0);
    f = fopen(scen, "w");
    ck_assert_ptr_nonnull(f);
    fputs("name: fifo\nrobot: robot.yaml\nduration: 1.0\njoints: [A]\n", f);
    fclose(f);
    {
        /* the corpus' arm with its upper arm's mesh replaced by the link to /dev/zero */
        static char text[1 << 14];
        int n = ckutil_read_file("tests/bad/mesh/robot_stl_empty.yaml", text, sizeof text);
        char *at = strstr(text, "stl_empty.stl");
        ck_assert_int_gt(n, 0);
        ck_assert_ptr_nonnull(at);
        f = fopen(robot, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "%.*szero.stl%s", (int)(at - text), text, at + strlen("stl_empty.stl"));
        fclose(f);
    }
    {
        char *a1[] = {"plan", fifo};
        char *a2[] = {"plan", scen};
        char *a3[] = {"check", "tests/data/sim_arm2.yaml", "/dev/zero"};
        char *a4[] = {"robot", robot};
        char *a5[] = {"plan", "tests"};
        run_refused(a1, 2, 2, "robot.yaml: cannot read scenario: it is a FIFO (named pipe)");
        run_refused(a2, 2, 2, "scenario.yaml:2:8: robot: ");
        run_refused(a2, 2, 2, "it is a FIFO (named pipe), not a regular file");
        run_refused(a3, 3, 2, "/dev/zero: cannot read trajectory: it is a character device");
        run_refused(a4, 2, 2, "zero.stl: not a regular file");
        run_refused(a5, 2, 2, "tests: cannot read scenario: it is a directory");
    }
    ckutil_rm_flat(dir);
}
END_TEST

/* 100k nested brackets: refused at depth 65 before libyaml's scanner (quadratic in the
 * depth) loads the rest */
START_TEST(test_deep_nesting_refused_early)
{
    char dir[256], file[320];
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/deep.yaml", dir);
    f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs("name: deep\nduration: ", f);
    for (int i = 0; i < 100000; ++i) fputc('[', f);
    for (int i = 0; i < 100000; ++i) fputc(']', f);
    fputc('\n', f);
    fclose(f);
    {
        char *a[] = {"plan", file};
        run_refused(a, 2, 2, "deep.yaml:2:74: collections nested deeper than 64 levels");
    }
    ckutil_rm_flat(dir);
}
END_TEST

Suite *bad_inputs_suite(void)
{
    Suite *s = suite_create("bad_inputs");
    TCase *tc = tcase_create("corpus");
    int n = load_cases();
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_corpus_size);
    if (n > 0) tcase_add_loop_test(tc, test_bad_input, 0, n);
    tcase_add_test(tc, test_ten_megabyte_line);
    tcase_add_test(tc, test_special_files_refused);
    tcase_add_test(tc, test_deep_nesting_refused_early);
    suite_add_tcase(s, tc);
    return s;
}
