/* pln_atomic.h — atomic output files.
 *
 * Every file hrpplan writes goes through this writer: the data go to a temporary file
 * in the same directory as the target (same file system, so rename is atomic), are
 * flushed and fsync'ed, and the temporary is renamed over the target; the directory is
 * then fsync'ed so the rename survives a power cut. Until commit succeeds the target is
 * untouched (an earlier version stays as it was, or no file exists); on any failure,
 * and on abort, the temporary file is removed. A crash between open and commit can
 * leave only a hidden temporary named `.<name>.tmp.XXXXXX`, never a half-written target. */
#ifndef PLN_ATOMIC_H
#define PLN_ATOMIC_H

#include <stdio.h>

#include "base/pln_status.h"

#define PLN_PATH_MAX 4096

typedef struct PlnAtomicFile {
    FILE *fp;                    /* write through this between open and commit/abort */
    char path[PLN_PATH_MAX];     /* final target */
    char tmp[PLN_PATH_MAX];      /* temporary in the same directory */
} PlnAtomicFile;

/* Opens a temporary file beside `path` for writing. On failure nothing exists on disk,
 * f->fp is NULL and err names the path and the system error. */
PlnStatus pln_atomic_open(PlnAtomicFile *f, const char *path, char *err, size_t err_size);

/* Flushes, fsyncs, closes and renames the temporary over the target. If any step
 * fails (including an earlier write error on f->fp), the temporary is removed, the
 * target is left as it was, and PLN_ERR_IO is returned with the reason. */
PlnStatus pln_atomic_commit(PlnAtomicFile *f, char *err, size_t err_size);

/* Closes and removes the temporary; the target is left as it was. Safe to call on a
 * file that was never opened successfully or was already committed. */
void pln_atomic_abort(PlnAtomicFile *f);

/* Removes `path` (an absent file is fine); inside an output set, at the set's commit. */
PlnStatus pln_atomic_remove(const char *path, char *err, size_t err_size);

/* Output sets: the files of one command are written together or not at all.
 * Between pln_atomic_set_begin and pln_atomic_set_end, pln_atomic_commit finishes each
 * temporary (flush, fsync, close) but keeps it, and pln_atomic_remove only records the
 * removal. pln_atomic_set_end(1) then renames every temporary over its target, in the
 * order they were committed, and performs the removals; pln_atomic_set_end(0) unlinks
 * every temporary, so no target changes. A set holds at most PLN_ATOMIC_SET_MAX entries
 * (a commit beyond that fails). One set per thread; begin inside a set is an error.
 * A crash during the final renames can leave the set part-renamed; a crash before them
 * leaves only hidden temporaries. */
#define PLN_ATOMIC_SET_MAX 32
PlnStatus pln_atomic_set_begin(char *err, size_t err_size);
/* n_entries (may be NULL) receives how many files the set held */
PlnStatus pln_atomic_set_end(int commit, int *n_entries, char *err, size_t err_size);

/* Unlinks every temporary of the process (open, or finished and waiting in an output
 * set), PLN_ATOMIC_TRACK_MAX of them at most (more at once are not tracked). Async-signal-safe: it calls
 * only unlink(2), for the handlers of base/pln_watchdog.h; the targets stay as they were. */
#define PLN_ATOMIC_TRACK_MAX 96
void pln_atomic_unlink_temporaries(void);

/* Writes `size` bytes to `path` atomically (open + fwrite + commit). */
PlnStatus pln_atomic_write(const char *path, const void *data, size_t size, char *err,
                           size_t err_size);

#endif /* PLN_ATOMIC_H */
