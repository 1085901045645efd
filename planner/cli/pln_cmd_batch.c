/* pln_cmd_batch.c — `hrpplan batch`: many scenarios, each planned by a child `hrpplan
 * plan` process (at most N at once), and their summary (summary.csv, summary.json);
 * `--summarize` rebuilds the summary from the folders alone (docs/scale-out.md). */
#include "cli/pln_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/pln_atomic.h"
#include "base/pln_clock.h"
#include "base/pln_json.h"
#include "base/pln_yaml.h"
#include "output/pln_output.h"

extern char **environ;

/* Default folder of a batch's outputs. */
#define PLN_BATCH_DEFAULT_DIR "out/batch"

/* A scenario's outcome, from the best to the worst (the batch's exit code is the
 * worst one's, batch_exit_code()). */
typedef enum BatchStatus {
    BATCH_CERTIFIED = 0,
    BATCH_NOT_CERTIFIED,
    BATCH_BAD_INPUT,
    BATCH_FAILED,
    BATCH_CRASHED
} BatchStatus;

static const char *batch_status_string(BatchStatus s)
{
    switch (s) {
    case BATCH_CERTIFIED: return "certified";
    case BATCH_NOT_CERTIFIED: return "not_certified";
    case BATCH_BAD_INPUT: return "bad_input";
    case BATCH_FAILED: return "failed";
    case BATCH_CRASHED: return "crashed";
    }
    return "failed";
}

/* exit code of a status: 0, 3, 2, 1, 1 */
static int batch_exit_code(BatchStatus s)
{
    switch (s) {
    case BATCH_CERTIFIED: return PLN_EXIT_OK;
    case BATCH_NOT_CERTIFIED: return PLN_EXIT_NOT_CERTIFIED;
    case BATCH_BAD_INPUT: return PLN_EXIT_BAD_INPUT;
    default: return PLN_EXIT_INTERNAL;
    }
}

/* One scenario of the batch: a row of the summary. */
typedef struct BatchRow {
    char *file;             /* the scenario as given (summarize scan: the report's) */
    char *stem;             /* its folder's name, unique in the batch */
    char *dir;              /* OUTDIR/stem */
    BatchStatus status;
    int exit_code;          /* the plan's exit code; -1 when none (killed, not run) */
    int signal;             /* the signal that ended the plan; 0 when none */
    double min_clearance;   /* report.json's min_clearance_m, m; NAN when unknown */
    double wall_time;       /* s, from start to end of the plan; NAN when unknown */
    char cause[512];        /* why not certified or failed; "" when certified */
    pid_t pid;              /* running child, 0 when none */
    FILE *errf;             /* the child's stderr (an anonymous temporary file) */
    double start;
} BatchRow;

static void rows_destroy(BatchRow *rows, int n)
{
    if (rows == NULL) return;
    for (int i = 0; i < n; ++i) {
        free(rows[i].file);
        free(rows[i].stem);
        free(rows[i].dir);
        if (rows[i].errf != NULL) fclose(rows[i].errf);
    }
    free(rows);
}

/* a malloc'ed printf */
static char *dup_printf(const char *fmt, const char *a, const char *b)
{
    int n = snprintf(NULL, 0, fmt, a, b);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s != NULL) snprintf(s, (size_t)n + 1, fmt, a, b);
    return s;
}

/* The folder name of scenario `file`: its file name without .yaml/.yml ("scenario" if
 * that leaves nothing usable), made unique against rows[0..i) by -2, -3, ... */
static char *make_stem(const char *file, const BatchRow *rows, int i)
{
    const char *base = strrchr(file, '/');
    char stem[256], cand[300];
    size_t len;
    base = base != NULL ? base + 1 : file;
    len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".yaml") == 0) len -= 5;
    else if (len > 4 && strcmp(base + len - 4, ".yml") == 0) len -= 4;
    if (len >= sizeof stem) len = sizeof stem - 1;
    memcpy(stem, base, len);
    stem[len] = '\0';
    if (stem[0] == '\0' || strcmp(stem, ".") == 0 || strcmp(stem, "..") == 0) {
        snprintf(stem, sizeof stem, "scenario");
    }
    snprintf(cand, sizeof cand, "%s", stem);
    for (int k = 2;; ++k) {
        int taken = 0;
        for (int j = 0; j < i && !taken; ++j) taken = strcmp(rows[j].stem, cand) == 0;
        if (!taken) break;
        snprintf(cand, sizeof cand, "%s-%d", stem, k);
    }
    return strdup(cand);
}

/* Reads the few fields of DIR/report.json the summary needs (JSON is YAML, so the
 * project's YAML reader reads it). Returns 0 when there is no readable report.
 * report_status (status_size) receives its status; file (may be NULL) its scenario_file. */
static int read_report(BatchRow *r, char *report_status, size_t status_size, char **file)
{
    char path[PLN_PATH_MAX], err[512], reason[sizeof r->cause];
    struct stat sb;
    PlnYaml y;
    yaml_node_t *root;
    double v;
    memset(&y, 0, sizeof y);
    snprintf(path, sizeof path, "%s/report.json", r->dir);
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return 0;
    if (pln_yaml_load(&y, path, err, sizeof err) != PLN_OK) {
        pln_yaml_free(&y);
        return 0;
    }
    root = pln_yaml_root(&y);
    if (pln_yaml_string(&y, root, "", "status", 1, report_status, status_size) != PLN_OK) {
        pln_yaml_free(&y);
        return 0;
    }
    /* the optional fields: absent, null or empty leave the row's value as it was */
    if (pln_yaml_double(&y, root, "", "min_clearance_m", 0, &v) == PLN_OK &&
        pln_yaml_get(&y, root, "min_clearance_m") != NULL) {
        r->min_clearance = v;
    }
    if (isnan(r->wall_time) && pln_yaml_double(&y, root, "", "wall_time_s", 0, &v) == PLN_OK &&
        pln_yaml_get(&y, root, "wall_time_s") != NULL) {
        r->wall_time = v;
    }
    if (pln_yaml_string(&y, root, "", "reason", 0, reason, sizeof reason) == PLN_OK &&
        pln_yaml_get(&y, root, "reason") != NULL && reason[0] != '\0') {
        snprintf(r->cause, sizeof r->cause, "%s", reason);
    }
    if (file != NULL) {
        char sf[PLN_PATH_MAX] = "";
        if (pln_yaml_string(&y, root, "", "scenario_file", 0, sf, sizeof sf) == PLN_OK) {
            *file = strdup(sf);
        }
    }
    pln_yaml_free(&y);
    return 1;
}

/* a row from its folder alone (summarize): the report's status, or failed without one */
static void row_from_folder(BatchRow *r, char **file)
{
    char status[64];
    r->exit_code = -1;
    if (!read_report(r, status, sizeof status, file)) {
        r->status = BATCH_FAILED;
        snprintf(r->cause, sizeof r->cause,
                 "no report.json in %s (the plan failed or has not run; its log says why)",
                 r->dir);
        return;
    }
    if (strcmp(status, "certified") == 0) r->status = BATCH_CERTIFIED;
    else if (strcmp(status, "not_certified") == 0) r->status = BATCH_NOT_CERTIFIED;
    else r->status = BATCH_FAILED;
    r->exit_code = batch_exit_code(r->status);
    if (r->status == BATCH_CERTIFIED) r->cause[0] = '\0';
}

/* ---- the summary ------------------------------------------------------------------ */

/* one CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180) */
static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static BatchStatus worst_status(const BatchRow *rows, int n)
{
    BatchStatus w = BATCH_CERTIFIED;
    for (int i = 0; i < n; ++i) {
        /* failed and crashed both exit 1; the worse of the two names it */
        if (rows[i].status > w) w = rows[i].status;
    }
    return w;
}

/* OUTDIR/summary.csv and summary.json, rows in their order (command-line order) */
static PlnStatus write_summary(const char *outdir, const BatchRow *rows, int n, char *err,
                               size_t err_size)
{
    char path[PLN_PATH_MAX];
    PlnAtomicFile f;
    PlnJson w;
    int counts[BATCH_CRASHED + 1] = {0};
    BatchStatus worst = worst_status(rows, n);
    PlnStatus st;

    for (int i = 0; i < n; ++i) ++counts[rows[i].status];
    /* summary.csv */
    snprintf(path, sizeof path, "%s/summary.csv", outdir);
    st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    fputs("file,output_dir,status,exit_code,signal,min_clearance_m,wall_time_s,cause\n", f.fp);
    for (int i = 0; i < n; ++i) {
        const BatchRow *r = &rows[i];
        csv_field(f.fp, r->file);
        fputc(',', f.fp);
        csv_field(f.fp, r->dir);
        fprintf(f.fp, ",%s,", batch_status_string(r->status));
        if (r->exit_code >= 0) fprintf(f.fp, "%d", r->exit_code);
        fputc(',', f.fp);
        if (r->signal > 0) fprintf(f.fp, "%d", r->signal);
        fputc(',', f.fp);
        if (isfinite(r->min_clearance)) fprintf(f.fp, "%.9g", r->min_clearance);
        fputc(',', f.fp);
        if (isfinite(r->wall_time)) fprintf(f.fp, "%.3f", r->wall_time);
        fputc(',', f.fp);
        csv_field(f.fp, r->cause);
        fputc('\n', f.fp);
    }
    st = pln_atomic_commit(&f, err, err_size);
    if (st != PLN_OK) return st;

    /* summary.json */
    snprintf(path, sizeof path, "%s/summary.json", outdir);
    st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    pln_json_init(&w, f.fp, 2);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "format", "hrpplan-batch-summary");
    pln_json_kv_int(&w, "version", 1);
    pln_json_kv_string(&w, "out_dir", outdir);
    pln_json_kv_int(&w, "n_scenarios", n);
    pln_json_key(&w, "counts");
    pln_json_begin_object(&w);
    for (int s = BATCH_CERTIFIED; s <= BATCH_CRASHED; ++s) {
        pln_json_kv_int(&w, batch_status_string((BatchStatus)s), counts[s]);
    }
    pln_json_end_object(&w);
    pln_json_kv_string(&w, "worst_status", n > 0 ? batch_status_string(worst) : "certified");
    pln_json_kv_int(&w, "exit_code", batch_exit_code(worst));
    pln_json_key(&w, "scenarios");
    pln_json_begin_array(&w);
    for (int i = 0; i < n; ++i) {
        const BatchRow *r = &rows[i];
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "file", r->file);
        pln_json_kv_string(&w, "output_dir", r->dir);
        pln_json_kv_string(&w, "status", batch_status_string(r->status));
        pln_json_key(&w, "exit_code");
        if (r->exit_code >= 0) pln_json_int(&w, r->exit_code);
        else pln_json_null(&w);
        pln_json_key(&w, "signal");
        if (r->signal > 0) pln_json_int(&w, r->signal);
        else pln_json_null(&w);
        pln_json_key(&w, "min_clearance_m");
        if (isfinite(r->min_clearance)) pln_json_number(&w, r->min_clearance);
        else pln_json_null(&w);
        pln_json_key(&w, "wall_time_s");
        if (isfinite(r->wall_time)) pln_json_number(&w, r->wall_time);
        else pln_json_null(&w);
        pln_json_kv_string(&w, "cause", r->cause);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    pln_json_end_object(&w);
    if (!pln_json_finish(&w)) {
        pln_atomic_abort(&f);
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "%s: not written: malformed document",
                          path);
    }
    return pln_atomic_commit(&f, err, err_size);
}

/* "summary: ..." on out, the counts and where the summary went */
static void print_totals(const BatchRow *rows, int n, const char *outdir, FILE *out)
{
    int counts[BATCH_CRASHED + 1] = {0};
    for (int i = 0; i < n; ++i) ++counts[rows[i].status];
    fprintf(out, "summary: %d scenario%s: %d certified, %d not certified, %d bad input, "
                 "%d failed, %d crashed; %s/summary.csv, %s/summary.json\n",
            n, n == 1 ? "" : "s", counts[BATCH_CERTIFIED], counts[BATCH_NOT_CERTIFIED],
            counts[BATCH_BAD_INPUT], counts[BATCH_FAILED], counts[BATCH_CRASHED], outdir, outdir);
}

/* ---- running the plans -------------------------------------------------------------- */

/* Starts `exe plan -o DIR -q [passed options] -- FILE` for row r with stdin and stdout
 * on /dev/null and stderr into an anonymous temporary file. Returns 0, or an errno. */
static int spawn_plan(const char *exe, const PlnCliArgs *args, BatchRow *r)
{
    char max_time[64], timeout[64], threads[32];
    const char *argv[22];
    int n = 0, rc, fd;
    posix_spawn_file_actions_t fa;

    argv[n++] = exe;
    argv[n++] = "plan";
    argv[n++] = "-o";
    argv[n++] = r->dir;
    argv[n++] = "-q";
    if (!isnan(args->max_time)) {
        snprintf(max_time, sizeof max_time, "%.17g", args->max_time);
        argv[n++] = "--max-time";
        argv[n++] = max_time;
    }
    if (!isnan(args->timeout)) {
        snprintf(timeout, sizeof timeout, "%.17g", args->timeout);
        argv[n++] = "--timeout";
        argv[n++] = timeout;
    }
    {
        /* without --threads, the jobs share the processors: each plan takes its part */
        int t = args->threads;
        if (t == PLN_THREADS_AUTO) {
            t = pln_cpu_count() / (args->jobs > 0 ? args->jobs : 1);
            if (t < 1) t = 1;
            if (t > PLN_THREADS_AUTO_MAX) t = PLN_THREADS_AUTO_MAX;
        }
        snprintf(threads, sizeof threads, "%d", t);
        argv[n++] = "--threads";
        argv[n++] = threads;
    }
    if (args->method_given) {
        argv[n++] = "--method";
        argv[n++] = pln_method_string(args->method);
    }
    if (args->geometry != NULL) {
        argv[n++] = "--geometry";
        argv[n++] = args->geometry;
    }
    if (args->no_collision) argv[n++] = "--no-collision";
    if (args->static_balance) argv[n++] = "--static-balance";
    argv[n++] = "--"; /* a scenario named -x is a scenario */
    argv[n++] = r->file;
    argv[n] = NULL;

    r->errf = tmpfile();
    if (r->errf == NULL) return errno != 0 ? errno : EIO;
    fd = fileno(r->errf);
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC); /* not inherited by the other plans */
    rc = posix_spawn_file_actions_init(&fa);
    if (rc != 0) return rc;
    rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa, fd, 2);
    r->start = pln_clock_s();
    if (rc == 0) rc = posix_spawn(&r->pid, exe, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) r->pid = 0;
    return rc;
}

/* the first non-empty line the plan wrote on stderr into buf ("" if none) */
static void first_stderr_line(FILE *f, char *buf, size_t size)
{
    char line[1024];
    buf[0] = '\0';
    if (f == NULL) return;
    rewind(f);
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '\0') {
            size_t len = strlen(line) < size - 1 ? strlen(line) : size - 1;
            memcpy(buf, line, len); /* cut at the buffer's size */
            buf[len] = '\0';
            return;
        }
    }
}

/* classifies a finished plan from its wait status, its stderr and its report */
static void finish_row(BatchRow *r, int wstatus)
{
    char line[sizeof r->cause], status[64];
    r->wall_time = pln_clock_s() - r->start;
    r->pid = 0;
    first_stderr_line(r->errf, line, sizeof line);
    fclose(r->errf);
    r->errf = NULL;
    if (WIFSIGNALED(wstatus)) {
        const char *name = strsignal(WTERMSIG(wstatus));
        r->status = BATCH_CRASHED;
        r->exit_code = -1;
        r->signal = WTERMSIG(wstatus);
        snprintf(r->cause, sizeof r->cause, "killed by signal %d (%s)%s%.400s", r->signal,
                 name != NULL ? name : "?", line[0] ? ": " : "", line);
        return;
    }
    r->exit_code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : PLN_EXIT_INTERNAL;
    switch (r->exit_code) {
    case PLN_EXIT_OK: r->status = BATCH_CERTIFIED; break;
    case PLN_EXIT_NOT_CERTIFIED: r->status = BATCH_NOT_CERTIFIED; break;
    case PLN_EXIT_BAD_INPUT: r->status = BATCH_BAD_INPUT; break;
    default: r->status = BATCH_FAILED; break;
    }
    /* a plan that ran to its end has a report: the clearance and the reason from it (a
     * failed plan's folder may hold an older run's report, which is not this run's) */
    if (r->status == BATCH_CERTIFIED || r->status == BATCH_NOT_CERTIFIED) {
        (void)read_report(r, status, sizeof status, NULL);
        if (r->status == BATCH_CERTIFIED) r->cause[0] = '\0';
        else if (r->cause[0] == '\0') snprintf(r->cause, sizeof r->cause, "%s", line);
    } else if (line[0] != '\0') {
        snprintf(r->cause, sizeof r->cause, "%s", line);
    } else {
        snprintf(r->cause, sizeof r->cause, "exit code %d, nothing on stderr", r->exit_code);
    }
}

/* "[3/12] hand_cross: certified 0.41 s clearance 0.012 m" */
static void print_progress(const BatchRow *r, int done, int n, FILE *errs)
{
    fprintf(errs, "[%d/%d] %s: %s", done, n, r->stem, batch_status_string(r->status));
    if (isfinite(r->wall_time)) fprintf(errs, " %.2f s", r->wall_time);
    if (isfinite(r->min_clearance)) fprintf(errs, " clearance %.3g m", r->min_clearance);
    if (r->status != BATCH_CERTIFIED && r->cause[0] != '\0') fprintf(errs, ": %s", r->cause);
    fputc('\n', errs);
    fflush(errs);
}

/* runs every row's plan, at most `jobs` at once, until all have finished */
static PlnStatus run_plans(const char *exe, const PlnCliArgs *args, BatchRow *rows, int n,
                           FILE *errs, char *err, size_t err_size)
{
    int next = 0, running = 0, done = 0;
    while (done < n) {
        /* start plans up to the limit; one that cannot start has failed */
        while (running < args->jobs && next < n) {
            BatchRow *r = &rows[next++];
            int rc = spawn_plan(exe, args, r);
            if (rc == 0) {
                ++running;
                continue;
            }
            r->status = BATCH_FAILED;
            r->exit_code = -1;
            snprintf(r->cause, sizeof r->cause, "could not start %.300s: %s", exe, strerror(rc));
            if (r->errf != NULL) {
                fclose(r->errf);
                r->errf = NULL;
            }
            ++done;
            if (!args->quiet) print_progress(r, done, n, errs);
        }
        if (running == 0) continue;
        /* the next plan to finish, whichever it is */
        {
            int wstatus;
            pid_t pid = waitpid(-1, &wstatus, 0);
            BatchRow *r = NULL;
            if (pid < 0) {
                if (errno == EINTR) continue;
                return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                                  "waiting for the plans: %s (%d still running)", strerror(errno),
                                  running);
            }
            for (int i = 0; i < n && r == NULL; ++i) {
                if (rows[i].pid == pid) r = &rows[i];
            }
            if (r == NULL) continue; /* not one of ours */
            finish_row(r, wstatus);
            --running;
            ++done;
            if (!args->quiet) print_progress(r, done, n, errs);
        }
    }
    return PLN_OK;
}

/* ---- summarize ------------------------------------------------------------------------ */

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the rows of --summarize DIR without scenarios: every folder of DIR with a
 * report.json, by name */
static PlnStatus scan_folders(const char *outdir, BatchRow **rows_out, int *n_out, char *err,
                              size_t err_size)
{
    DIR *d = opendir(outdir);
    struct dirent *e;
    char **names = NULL;
    int n = 0, cap = 0;
    BatchRow *rows;
    PlnStatus st = PLN_OK;
    *rows_out = NULL;
    *n_out = 0;
    if (d == NULL) {
        return pln_errorf(errno == ENOENT || errno == ENOTDIR ? PLN_ERR_USAGE : PLN_ERR_IO, err,
                          err_size, "%s: cannot read the folder: %s", outdir, strerror(errno));
    }
    while ((e = readdir(d)) != NULL) {
        char path[PLN_PATH_MAX];
        struct stat sb;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s/report.json", outdir, e->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        if (n == cap) {
            char **more = realloc(names, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *names);
            if (more == NULL) {
                st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
                break;
            }
            names = more;
        }
        names[n] = strdup(e->d_name);
        if (names[n] == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
            break;
        }
        ++n;
    }
    closedir(d);
    if (st == PLN_OK && n > 0) qsort(names, (size_t)n, sizeof *names, compare_strings);
    rows = st == PLN_OK ? calloc((size_t)(n > 0 ? n : 1), sizeof *rows) : NULL;
    if (st == PLN_OK && rows == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    for (int i = 0; i < n; ++i) {
        if (st == PLN_OK) {
            BatchRow *r = &rows[i];
            r->stem = names[i];
            r->dir = dup_printf("%s/%s", outdir, names[i]);
            r->min_clearance = NAN;
            r->wall_time = NAN;
            if (r->dir == NULL) {
                st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
                continue;
            }
            row_from_folder(r, &r->file);
            if (r->file == NULL) r->file = strdup("");
            if (r->file == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        } else {
            free(names[i]);
        }
    }
    free(names);
    if (st != PLN_OK) {
        rows_destroy(rows, n);
        return st;
    }
    *rows_out = rows;
    *n_out = n;
    return PLN_OK;
}

int pln_cmd_batch(const PlnCliArgs *args, FILE *out, FILE *errs, int *summary_written)
{
    /* room beside it for /<stem>/report.json and /summary.json within PLN_PATH_MAX */
    char outdir[PLN_PATH_MAX - 512], err[1024], exe[PLN_PATH_MAX];
    BatchRow *rows = NULL;
    int n = args->n_files, code;
    PlnStatus st = PLN_OK;

    *summary_written = 0;
    /* the folder, without trailing slashes: OUTDIR/<stem> reads as written */
    {
        const char *given = args->summarize != NULL ? args->summarize
                            : args->out_dir != NULL  ? args->out_dir
                                                     : PLN_BATCH_DEFAULT_DIR;
        size_t len = strlen(given);
        if (len >= sizeof outdir) {
            fprintf(errs, "hrpplan batch: %s: folder name too long\n", given);
            return PLN_EXIT_BAD_INPUT;
        }
        while (len > 1 && given[len - 1] == '/') --len;
        memcpy(outdir, given, len);
        outdir[len] = '\0';
    }
    if (args->summarize != NULL) {
        struct stat sb;
        if (stat(outdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            fprintf(errs, "hrpplan batch: --summarize %s: no such folder\n", outdir);
            return PLN_EXIT_BAD_INPUT;
        }
    } else {
        /* the plans run this very program */
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len <= 0 || (size_t)len >= sizeof exe - 1) {
            fprintf(errs, "hrpplan batch: cannot find the hrpplan program (/proc/self/exe): %s\n",
                    len < 0 ? strerror(errno) : "path too long");
            return PLN_EXIT_INTERNAL;
        }
        exe[len] = '\0';
        st = pln_output_mkdirs(outdir, err, sizeof err);
        if (st != PLN_OK) {
            fprintf(errs, "hrpplan batch: %s\n", err);
            return pln_status_exit_code(st);
        }
    }

    /* the rows: the scenarios named, in their order, or (summarize) the folders found */
    if (n > 0) {
        rows = calloc((size_t)n, sizeof *rows);
        if (rows == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, sizeof err, "out of memory");
        for (int i = 0; i < n && st == PLN_OK; ++i) {
            BatchRow *r = &rows[i];
            r->file = strdup(args->files[i]);
            r->stem = make_stem(args->files[i], rows, i);
            r->dir = r->stem != NULL ? dup_printf("%s/%s", outdir, r->stem) : NULL;
            r->min_clearance = NAN;
            r->wall_time = NAN;
            r->exit_code = -1;
            if (r->file == NULL || r->stem == NULL || r->dir == NULL) {
                st = pln_errorf(PLN_ERR_NOMEM, err, sizeof err, "out of memory");
            }
        }
        if (st == PLN_OK && args->summarize != NULL) {
            for (int i = 0; i < n; ++i) row_from_folder(&rows[i], NULL);
        } else if (st == PLN_OK) {
            if (!args->quiet) {
                fprintf(errs, "hrpplan batch: %d scenario%s, %d at once, into %s/\n", n,
                        n == 1 ? "" : "s", args->jobs < n ? args->jobs : n, outdir);
                fflush(errs);
            }
            fflush(out);
            st = run_plans(exe, args, rows, n, errs, err, sizeof err);
        }
    } else {
        st = scan_folders(outdir, &rows, &n, err, sizeof err);
    }
    if (st == PLN_OK) st = write_summary(outdir, rows, n, err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan batch: %s\n", err);
        rows_destroy(rows, n);
        return pln_status_exit_code(st);
    }
    *summary_written = 1;
    print_totals(rows, n, outdir, out);
    code = batch_exit_code(worst_status(rows, n));
    rows_destroy(rows, n);
    return code;
}
