/* pln_watchdog.c — the wall-clock limit of last resort, and cleanup on signals. */
#include "base/pln_watchdog.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/pln_atomic.h"

static const int SIGNALS[] = {SIGINT, SIGTERM, SIGHUP, SIGALRM};
#define N_SIGNALS ((int)(sizeof SIGNALS / sizeof SIGNALS[0]))

static struct {
    int active;
    int have_timer;
    timer_t timer;
    struct sigaction old[N_SIGNALS];
    const char *command;
    int exit_code;
    int json;
    char message[256];   /* "hrpplan plan: timeout: the run exceeded its limit of 600 s" */
    char json_line[320]; /* the failure document, with its newline */
    char dir[PLN_PATH_MAX];
} g_wd;
static _Atomic(const char *) g_phase;
static atomic_int g_have_dir;
static atomic_int g_armed;

static void put(int fd, const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        ssize_t k = write(fd, s, n);
        if (k <= 0) return;
        s += k;
        n -= (size_t)k;
    }
}

/* everything the run wrote so far goes: hidden temporaries, then its empty directory */
static void clean_up(void)
{
    pln_atomic_unlink_temporaries();
    if (atomic_load(&g_have_dir)) (void)rmdir(g_wd.dir);
}

static void on_signal(int sig)
{
    if (sig == SIGALRM) {
        const char *phase = atomic_load(&g_phase);
        if (!atomic_load(&g_armed)) return; /* a stray alarm after pln_watchdog_end */
        clean_up();
        put(STDERR_FILENO, g_wd.message);
        if (phase != NULL) {
            put(STDERR_FILENO, " while ");
            put(STDERR_FILENO, phase);
        }
        put(STDERR_FILENO, "; nothing was written (--timeout S allows longer)\n");
        if (g_wd.json) put(STDOUT_FILENO, g_wd.json_line);
        _exit(g_wd.exit_code);
    }
    clean_up();
    put(STDERR_FILENO, "hrpplan: interrupted by a signal; nothing was written\n");
    /* end by the same signal, so the parent sees how the run ended */
    {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        (void)sigaction(sig, &dfl, NULL);
        (void)raise(sig);
    }
}

static void format_messages(double limit_s)
{
    snprintf(g_wd.message, sizeof g_wd.message,
             "hrpplan %s: timeout: the run exceeded its time limit of %.6g s", g_wd.command,
             limit_s);
    snprintf(g_wd.json_line, sizeof g_wd.json_line,
             "{\"status\": \"failed\", \"exit_code\": %d, \"reason\": \"timeout: the run exceeded "
             "its time limit of %.6g s\"}\n",
             g_wd.exit_code, limit_s);
}

static PlnStatus set_timer(double seconds, char *err, size_t err_size)
{
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    its.it_value.tv_sec = (time_t)floor(seconds);
    its.it_value.tv_nsec = (long)((seconds - floor(seconds)) * 1e9);
    if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0) its.it_value.tv_nsec = 1;
    if (timer_settime(g_wd.timer, 0, &its, NULL) != 0) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "cannot arm the timeout: %s",
                          strerror(errno));
    }
    atomic_store(&g_armed, 1);
    return PLN_OK;
}

PlnStatus pln_watchdog_begin(const char *command, double seconds, int exit_code, int json,
                             char *err, size_t err_size)
{
    struct sigaction sa;
    if (g_wd.active) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "the watchdog is already running");
    }
    if (!(seconds <= 1e9)) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "timeout %g s out of range", seconds);
    }
    g_wd.command = command;
    g_wd.exit_code = exit_code;
    g_wd.json = json;
    g_wd.have_timer = 0;
    atomic_store(&g_phase, NULL);
    atomic_store(&g_have_dir, 0);
    atomic_store(&g_armed, 0);
    format_messages(seconds);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask); /* one handler at a time */
    for (int i = 0; i < N_SIGNALS; ++i) {
        (void)sigaction(SIGNALS[i], NULL, &g_wd.old[i]);
        /* an ignored SIGINT or SIGHUP (nohup, a background job) stays ignored */
        if (SIGNALS[i] != SIGALRM && SIGNALS[i] != SIGTERM && g_wd.old[i].sa_handler == SIG_IGN) {
            continue;
        }
        (void)sigaction(SIGNALS[i], &sa, NULL);
    }
    g_wd.active = 1;
    if (seconds > 0.0) {
        struct sigevent sev;
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_SIGNAL;
        sev.sigev_signo = SIGALRM;
        if (timer_create(CLOCK_MONOTONIC, &sev, &g_wd.timer) != 0) {
            int e = errno;
            pln_watchdog_end();
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "cannot create the timeout's timer: %s",
                              strerror(e));
        }
        g_wd.have_timer = 1;
        {
            PlnStatus st = set_timer(seconds, err, err_size);
            if (st != PLN_OK) {
                pln_watchdog_end();
                return st;
            }
        }
    }
    return PLN_OK;
}

PlnStatus pln_watchdog_rearm(double seconds, double limit_s, char *err, size_t err_size)
{
    struct itimerspec off;
    if (!g_wd.active || !g_wd.have_timer) return PLN_OK;
    if (!(seconds > 0.0 && seconds <= 1e9)) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "timeout %g s out of range", seconds);
    }
    /* stopped while the messages change, so the handler never reads a half-written one */
    memset(&off, 0, sizeof off);
    atomic_store(&g_armed, 0);
    (void)timer_settime(g_wd.timer, 0, &off, NULL);
    format_messages(limit_s);
    return set_timer(seconds, err, err_size);
}

void pln_watchdog_phase(const char *phase)
{
    atomic_store(&g_phase, phase);
}

void pln_watchdog_created_dir(const char *dir)
{
    if (!g_wd.active || dir == NULL) return;
    atomic_store(&g_have_dir, 0);
    snprintf(g_wd.dir, sizeof g_wd.dir, "%s", dir);
    atomic_store(&g_have_dir, 1);
}

void pln_watchdog_end(void)
{
    if (!g_wd.active) return;
    atomic_store(&g_armed, 0);
    if (g_wd.have_timer) {
        (void)timer_delete(g_wd.timer);
        g_wd.have_timer = 0;
    }
    for (int i = 0; i < N_SIGNALS; ++i) (void)sigaction(SIGNALS[i], &g_wd.old[i], NULL);
    atomic_store(&g_have_dir, 0);
    atomic_store(&g_phase, NULL);
    g_wd.active = 0;
}
