/* check_pln_watchdog.c — tests of planner/base/pln_watchdog.c: a run stopped by a signal
 * or by its wall-clock limit leaves nothing behind (no temporary, no changed target, no
 * empty directory it made), says where it was, and ends as documented. Each case runs
 * the watchdog in a forked child, so that its signals end only that child. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_util.h"
#include "base/pln_atomic.h"
#include "base/pln_watchdog.h"

static void sleep_s(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* In the child: `out` (a directory the "run" creates) holds an earlier target
 * old.txt = "old"; the run opens an output set, finishes new temporaries for old.txt and
 * a.txt, and leaves a third file open. Returns with those temporaries on disk. */
static void child_writes_a_set(const char *out)
{
    char path[512], err[256];
    PlnAtomicFile f;
    if (mkdir(out, 0777) != 0) _exit(40);
    pln_watchdog_created_dir(out);
    snprintf(path, sizeof path, "%s/old.txt", out);
    if (pln_atomic_write(path, "old", 3, err, sizeof err) != PLN_OK) _exit(41);
    if (pln_atomic_set_begin(err, sizeof err) != PLN_OK) _exit(42);
    if (pln_atomic_write(path, "new", 3, err, sizeof err) != PLN_OK) _exit(43);
    snprintf(path, sizeof path, "%s/a.txt", out);
    if (pln_atomic_write(path, "a", 1, err, sizeof err) != PLN_OK) _exit(44);
    snprintf(path, sizeof path, "%s/open.txt", out);
    if (pln_atomic_open(&f, path, err, sizeof err) != PLN_OK) _exit(45);
    fputs("partial", f.fp);
    fflush(f.fp);
}

/* stderr (and stdout) of the child into files of `dir` */
static void redirect(const char *dir)
{
    char path[512];
    int fd;
    snprintf(path, sizeof path, "%s/stderr", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) _exit(46);
    close(fd);
    snprintf(path, sizeof path, "%s/stdout", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(47);
    close(fd);
}

/* a signal: the set's temporaries go, old.txt keeps "old" (the directory then holds only
 * it, so it stays), and the child dies by that signal */
START_TEST(test_signal_removes_temporaries)
{
    char dir[256], out[300], path[400], buf[256];
    int status;
    pid_t pid;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char err[256];
        redirect(dir);
        if (pln_watchdog_begin("plan", 0.0, 3, 0, err, sizeof err) != PLN_OK) _exit(48);
        child_writes_a_set(out);
        raise(SIGTERM);
        _exit(49); /* not reached */
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d", status);
    ck_assert_int_eq(ckutil_count_entries(out), 1); /* old.txt only: no hidden temporary */
    snprintf(path, sizeof path, "%s/old.txt", out);
    ck_assert_int_eq(ckutil_read_file(path, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "old");
    snprintf(path, sizeof path, "%s/stderr", dir);
    ck_assert(ckutil_read_file(path, buf, sizeof buf) > 0);
    ck_assert_msg(strstr(buf, "interrupted by a signal; nothing was written") != NULL, "%s", buf);
    ckutil_rm_flat(out);
    ckutil_rm_flat(dir);
}
END_TEST

/* the wall-clock limit: exit code as asked, the step named, the failure document on
 * stdout with json, and the created directory gone once it is empty */
START_TEST(test_timeout_exits_and_names_the_step)
{
    char dir[256], out[300], path[400], buf[1024];
    int status;
    double t0;
    pid_t pid;
    struct timespec ts;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t0 = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char err[256], p[512];
        redirect(dir);
        if (pln_watchdog_begin("check", 0.3, 3, 1, err, sizeof err) != PLN_OK) _exit(48);
        if (mkdir(out, 0777) != 0) _exit(40);
        pln_watchdog_created_dir(out);
        if (pln_atomic_set_begin(err, sizeof err) != PLN_OK) _exit(42);
        snprintf(p, sizeof p, "%s/a.txt", out);
        if (pln_atomic_write(p, "a", 1, err, sizeof err) != PLN_OK) _exit(44);
        pln_watchdog_phase("certifying");
        for (;;) sleep_s(1.0); /* a run that never ends */
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 3, "status %d", status);
    ck_assert_double_ge((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - t0, 0.29);
    ck_assert_int_eq(access(out, F_OK), -1); /* emptied, then removed */
    snprintf(path, sizeof path, "%s/stderr", dir);
    ck_assert(ckutil_read_file(path, buf, sizeof buf) > 0);
    ck_assert_msg(strstr(buf, "hrpplan check: timeout: the run exceeded its time limit of 0.3 s "
                              "while certifying; nothing was written") != NULL, "%s", buf);
    snprintf(path, sizeof path, "%s/stdout", dir);
    ck_assert(ckutil_read_file(path, buf, sizeof buf) > 0);
    ck_assert_msg(strstr(buf, "{\"status\": \"failed\", \"exit_code\": 3, \"reason\": \"timeout") == buf,
                  "%s", buf);
    ckutil_rm_flat(dir);
}
END_TEST

/* a directory that existed before the run is not the run's: it stays */
START_TEST(test_timeout_keeps_a_directory_it_did_not_make)
{
    char dir[256];
    int status;
    pid_t pid;
    ckutil_mkdtemp(dir, sizeof dir);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char err[256], p[512];
        redirect(dir);
        if (pln_watchdog_begin("plan", 0.05, 3, 0, err, sizeof err) != PLN_OK) _exit(48);
        if (pln_atomic_set_begin(err, sizeof err) != PLN_OK) _exit(42);
        snprintf(p, sizeof p, "%s/a.txt", dir);
        if (pln_atomic_write(p, "a", 1, err, sizeof err) != PLN_OK) _exit(44);
        for (;;) sleep_s(1.0);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 3, "status %d", status);
    ck_assert_int_eq(ckutil_count_entries(dir), 2); /* stderr and stdout; no a.txt, no temporary */
    ckutil_rm_flat(dir);
}
END_TEST

static volatile sig_atomic_t g_seen;
static void mark(int sig)
{
    g_seen = sig;
}

/* end: the timer is gone and the earlier handlers are back; an ignored SIGINT stayed
 * ignored throughout (nohup, background jobs) */
START_TEST(test_end_restores_handlers_and_disarms)
{
    char err[256];
    struct sigaction sa, now;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = mark;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGTERM, &sa, NULL), 0);
    ck_assert(signal(SIGINT, SIG_IGN) != SIG_ERR);
    ck_assert_int_eq(pln_watchdog_begin("plan", 0.2, 3, 0, err, sizeof err), PLN_OK);
    ck_assert_int_eq(sigaction(SIGINT, NULL, &now), 0);
    ck_assert(now.sa_handler == SIG_IGN);
    ck_assert_int_eq(sigaction(SIGTERM, NULL, &now), 0);
    ck_assert(now.sa_handler != mark);
    /* a second watchdog at once is refused */
    ck_assert_int_eq(pln_watchdog_begin("plan", 1.0, 3, 0, err, sizeof err), PLN_ERR_INTERNAL);
    pln_watchdog_end();
    ck_assert_int_eq(sigaction(SIGTERM, NULL, &now), 0);
    ck_assert(now.sa_handler == mark);
    sleep_s(0.4); /* past the 0.2 s the timer had: it must not fire */
    g_seen = 0;
    raise(SIGTERM);
    ck_assert_int_eq(g_seen, SIGTERM);
}
END_TEST

/* rearm: the new limit replaces the old one */
START_TEST(test_rearm_extends_the_limit)
{
    int status;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char err[256];
        if (pln_watchdog_begin("plan", 0.1, 3, 0, err, sizeof err) != PLN_OK) _exit(48);
        if (pln_watchdog_rearm(5.0, 5.0, err, sizeof err) != PLN_OK) _exit(49);
        sleep_s(0.4);
        pln_watchdog_end();
        _exit(0);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
}
END_TEST

Suite *pln_watchdog_suite(void)
{
    Suite *s = suite_create("pln_watchdog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_signal_removes_temporaries);
    tcase_add_test(tc, test_timeout_exits_and_names_the_step);
    tcase_add_test(tc, test_timeout_keeps_a_directory_it_did_not_make);
    tcase_add_test(tc, test_end_restores_handlers_and_disarms);
    tcase_add_test(tc, test_rearm_extends_the_limit);
    suite_add_tcase(s, tc);
    return s;
}
