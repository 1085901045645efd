/* pln_status.h — status codes, error messages and exit codes shared by planner/.
 *
 * Library code never exits: every fallible function returns a PlnStatus and, when it
 * fails, writes a one-line message into a caller-supplied buffer (`char *err,
 * size_t err_size`; err may be NULL when err_size is 0). Messages name the file, line
 * and field where the input is at fault ("scenarios/x.yaml:12: tasks[0].time: ...").
 * Only the command-line front end maps a status to a process exit code. */
#ifndef PLN_STATUS_H
#define PLN_STATUS_H

#include <stddef.h>

typedef enum PlnStatus {
    PLN_OK = 0,
    PLN_ERR_USAGE,          /* bad command line */
    PLN_ERR_IO,             /* a file could not be read or written */
    PLN_ERR_PARSE,          /* malformed input file (YAML syntax, truncated file) */
    PLN_ERR_INVALID,        /* well-formed input with a bad value (NaN, unknown joint, lo > hi) */
    PLN_ERR_NOT_CERTIFIED,  /* the motion could not be certified free of collision / violation */
    PLN_ERR_UNAVAILABLE,    /* the requested feature is not part of this build yet */
    PLN_ERR_NOMEM,          /* allocation failed */
    PLN_ERR_INTERNAL        /* a bug or a numerical failure inside hrpplan */
} PlnStatus;

/* Process exit codes of the hrpplan command (DESIGN.md section 3). */
enum {
    PLN_EXIT_OK = 0,             /* success (certified when planning or checking) */
    PLN_EXIT_INTERNAL = 1,       /* internal error, or a subcommand not available yet */
    PLN_EXIT_BAD_INPUT = 2,      /* bad input or usage */
    PLN_EXIT_NOT_CERTIFIED = 3   /* the motion is not certified safe */
};

/* Name of a status ("ok", "usage", "io", ...), a static string; never NULL. */
const char *pln_status_string(PlnStatus status);

/* Exit code of the hrpplan process for a status (one of PLN_EXIT_*). */
int pln_status_exit_code(PlnStatus status);

/* printf-style message into err[err_size], always NUL-terminated, truncated if long.
 * Nullable: err (then nothing is written). Returns `status` so that callers can write
 * `return pln_errorf(PLN_ERR_INVALID, err, n, "%s:%d: ...", ...);`. */
PlnStatus pln_errorf(PlnStatus status, char *err, size_t err_size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif /* PLN_STATUS_H */
