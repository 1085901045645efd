/* pln_atomic.c — write to a temporary, fsync, rename: the only way hrpplan writes files. */
#include "base/pln_atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* splits "dir/name" into its directory ("dir", or "." without slash) and base name. */
static void split_path(const char *path, char *dir, size_t dir_size, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        snprintf(dir, dir_size, ".");
        *base = path;
    } else if (slash == path) {
        snprintf(dir, dir_size, "/");
        *base = slash + 1;
    } else {
        snprintf(dir, dir_size, "%.*s", (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* Every temporary the process holds, for pln_atomic_unlink_temporaries() (a signal
 * handler's cleanup). A slot is 0 free, 1 being filled, 2 holding a path; the handler
 * reads only slots in state 2, and a slot is cleared to 0 before it is reused, so no
 * lock is needed (a handler cannot take one). Beyond PLN_ATOMIC_TRACK_MAX temporaries
 * at once the extra ones are not tracked: a signal can then leave them, hidden. */
static char g_track_path[PLN_ATOMIC_TRACK_MAX][PLN_PATH_MAX];
static atomic_int g_track_state[PLN_ATOMIC_TRACK_MAX];

static void track(const char *tmp)
{
    for (int i = 0; i < PLN_ATOMIC_TRACK_MAX; ++i) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&g_track_state[i], &expected, 1)) {
            snprintf(g_track_path[i], sizeof g_track_path[i], "%s", tmp);
            atomic_store(&g_track_state[i], 2);
            return;
        }
    }
}

static void untrack(const char *tmp)
{
    for (int i = 0; i < PLN_ATOMIC_TRACK_MAX; ++i) {
        if (atomic_load(&g_track_state[i]) == 2 && strcmp(g_track_path[i], tmp) == 0) {
            atomic_store(&g_track_state[i], 0);
            return;
        }
    }
}

/* unlinks the temporary `tmp` and forgets it */
static void drop_temporary(const char *tmp)
{
    untrack(tmp);
    unlink(tmp);
}

void pln_atomic_unlink_temporaries(void)
{
    for (int i = 0; i < PLN_ATOMIC_TRACK_MAX; ++i) {
        if (atomic_load(&g_track_state[i]) == 2) unlink(g_track_path[i]);
    }
}

/* the output set of this thread (pln_atomic_set_begin .. pln_atomic_set_end) */
typedef struct SetEntry {
    char path[PLN_PATH_MAX]; /* target */
    char tmp[PLN_PATH_MAX];  /* finished temporary, or "" for a removal */
} SetEntry;

static _Thread_local struct {
    int active;
    int n;
    SetEntry *e; /* PLN_ATOMIC_SET_MAX entries while active */
} g_set;

PlnStatus pln_atomic_open(PlnAtomicFile *f, const char *path, char *err, size_t err_size)
{
    char dir[PLN_PATH_MAX];
    const char *base;
    int n, fd;

    f->fp = NULL;
    f->path[0] = '\0';
    f->tmp[0] = '\0';
    if (path == NULL || path[0] == '\0') {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "output path is empty");
    }
    if (strlen(path) + 32 >= PLN_PATH_MAX) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: output path too long", path);
    }
    split_path(path, dir, sizeof dir, &base);
    if (base[0] == '\0') {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: output path names a directory",
                          path);
    }
    snprintf(f->path, sizeof f->path, "%s", path);

    /* the temporary is a hidden sibling, so a crash never leaves a file that looks final */
    if (strcmp(dir, ".") == 0 && strchr(path, '/') == NULL) {
        n = snprintf(f->tmp, sizeof f->tmp, ".%s.tmp.XXXXXX", base);
    } else {
        n = snprintf(f->tmp, sizeof f->tmp, "%s/.%s.tmp.XXXXXX", strcmp(dir, "/") == 0 ? "" : dir,
                     base);
    }
    if (n < 0 || (size_t)n >= sizeof f->tmp) {
        f->tmp[0] = '\0';
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: output path too long", path);
    }

    fd = mkstemp(f->tmp);
    if (fd < 0) {
        int e = errno;
        f->tmp[0] = '\0';
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot create file: %s", path,
                          strerror(e));
    }
    track(f->tmp);
    /* mkstemp creates 0600; outputs are ordinary files, readable like any other */
    {
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask);
    }
    f->fp = fdopen(fd, "w");
    if (f->fp == NULL) {
        int e = errno;
        close(fd);
        drop_temporary(f->tmp);
        f->tmp[0] = '\0';
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot open stream: %s", path,
                          strerror(e));
    }
    return PLN_OK;
}

/* fsyncs the directory holding `path` so that a completed rename is durable. */
static void sync_directory(const char *path)
{
    char dir[PLN_PATH_MAX];
    const char *base;
    int fd;
    split_path(path, dir, sizeof dir, &base);
    fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

PlnStatus pln_atomic_commit(PlnAtomicFile *f, char *err, size_t err_size)
{
    int fd, e = 0;
    const char *what = NULL;

    if (f->fp == NULL) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "%s: commit of a file not open",
                          f->path[0] ? f->path : "(unnamed)");
    }
    /* flush user-space buffers and catch any earlier write error */
    if (fflush(f->fp) != 0) {
        e = errno;
        what = "write failed";
    } else if (ferror(f->fp)) {
        e = EIO;
        what = "write failed";
    } else {
        fd = fileno(f->fp);
        if (fsync(fd) != 0) {
            e = errno;
            what = "fsync failed";
        }
    }
    if (fclose(f->fp) != 0 && what == NULL) {
        e = errno;
        what = "close failed";
    }
    f->fp = NULL;
    if (what == NULL && g_set.active) {
        if (g_set.n >= PLN_ATOMIC_SET_MAX) {
            e = ENOSPC;
            what = "too many files in one output set";
        } else {
            SetEntry *s = &g_set.e[g_set.n++];
            snprintf(s->path, sizeof s->path, "%s", f->path);
            snprintf(s->tmp, sizeof s->tmp, "%s", f->tmp);
            f->tmp[0] = '\0';
            return PLN_OK;
        }
    }
    if (what == NULL && rename(f->tmp, f->path) != 0) {
        e = errno;
        what = "rename failed";
    }
    if (what != NULL) {
        drop_temporary(f->tmp);
        f->tmp[0] = '\0';
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: %s: %s", f->path, what, strerror(e));
    }
    untrack(f->tmp); /* after the rename: a signal in between finds nothing to remove */
    f->tmp[0] = '\0';
    sync_directory(f->path);
    return PLN_OK;
}

void pln_atomic_abort(PlnAtomicFile *f)
{
    if (f->fp != NULL) {
        fclose(f->fp);
        f->fp = NULL;
    }
    if (f->tmp[0] != '\0') {
        drop_temporary(f->tmp);
        f->tmp[0] = '\0';
    }
}

PlnStatus pln_atomic_remove(const char *path, char *err, size_t err_size)
{
    if (g_set.active) {
        SetEntry *s;
        if (g_set.n >= PLN_ATOMIC_SET_MAX) {
            return pln_errorf(PLN_ERR_IO, err, err_size, "%s: too many files in one output set",
                              path);
        }
        s = &g_set.e[g_set.n++];
        snprintf(s->path, sizeof s->path, "%s", path);
        s->tmp[0] = '\0';
        return PLN_OK;
    }
    if (unlink(path) != 0 && errno != ENOENT) {
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot remove: %s", path,
                          strerror(errno));
    }
    return PLN_OK;
}

PlnStatus pln_atomic_set_begin(char *err, size_t err_size)
{
    if (g_set.active) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "an output set is already open");
    }
    g_set.e = calloc(PLN_ATOMIC_SET_MAX, sizeof *g_set.e);
    if (g_set.e == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    g_set.n = 0;
    g_set.active = 1;
    return PLN_OK;
}

PlnStatus pln_atomic_set_end(int commit, int *n_entries, char *err, size_t err_size)
{
    PlnStatus st = PLN_OK;
    if (n_entries != NULL) *n_entries = g_set.active ? g_set.n : 0;
    if (!g_set.active) return PLN_OK;
    g_set.active = 0;
    for (int i = 0; i < g_set.n; ++i) {
        SetEntry *s = &g_set.e[i];
        if (!commit || st != PLN_OK) {
            /* abandoned: no target changes */
            if (s->tmp[0] != '\0') drop_temporary(s->tmp);
        } else if (s->tmp[0] == '\0') {
            if (unlink(s->path) != 0 && errno != ENOENT) {
                st = pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot remove: %s", s->path,
                                strerror(errno));
            }
        } else if (rename(s->tmp, s->path) != 0) {
            st = pln_errorf(PLN_ERR_IO, err, err_size, "%s: rename failed: %s", s->path,
                            strerror(errno));
            drop_temporary(s->tmp);
        } else {
            untrack(s->tmp);
            sync_directory(s->path);
        }
    }
    free(g_set.e);
    g_set.e = NULL;
    g_set.n = 0;
    return st;
}

PlnStatus pln_atomic_write(const char *path, const void *data, size_t size, char *err,
                           size_t err_size)
{
    PlnAtomicFile f;
    PlnStatus st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) {
        return st;
    }
    if (size > 0 && fwrite(data, 1, size, f.fp) != size) {
        int e = errno;
        pln_atomic_abort(&f);
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: write failed: %s", path, strerror(e));
    }
    return pln_atomic_commit(&f, err, err_size);
}
