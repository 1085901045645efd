/* pln_file.c — regular files of bounded size, opened without blocking. */
#define _DEFAULT_SOURCE  /* realpath */
#include "base/pln_file.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

PlnStatus pln_file_open_input(const char *path, const char *what, long long max_bytes,
                              FILE **out, char *err, size_t err_size)
{
    struct stat sb;
    int fd, flags;
    *out = NULL;
    /* O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot read %s: %s", path, what,
                          strerror(errno));
    }
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot read %s: %s", path, what,
                          strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return pln_errorf(PLN_ERR_IO, err, err_size,
                          "%s: cannot read %s: it is %s, not a regular file", path, what,
                          file_kind(sb.st_mode));
    }
    if ((long long)sb.st_size > max_bytes) {
        close(fd);
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: %s of %lld bytes is larger than the %lld MiB this kind of file "
                          "may hold", path, what, (long long)sb.st_size,
                          max_bytes / (1024LL * 1024LL));
    }
    flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *out = fdopen(fd, "rb");
    if (*out == NULL) {
        int e = errno;
        close(fd);
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot read %s: %s", path, what,
                          strerror(e));
    }
    return PLN_OK;
}

PlnStatus pln_file_read_input(const char *path, const char *what, long long max_bytes,
                              char **data, size_t *size, char *err, size_t err_size)
{
    FILE *f;
    char *buf;
    size_t n = 0, cap;
    struct stat sb;
    PlnStatus st = pln_file_open_input(path, what, max_bytes, &f, err, err_size);
    *data = NULL;
    *size = 0;
    if (st != PLN_OK) return st;
    /* the size from stat, plus room to notice a file that grows while it is read */
    cap = fstat(fileno(f), &sb) == 0 ? (size_t)sb.st_size + 2 : 4096;
    buf = malloc(cap);
    while (buf != NULL) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n + 1 < cap) break; /* short read: the end, or an error */
        if ((long long)n > max_bytes) {
            free(buf);
            fclose(f);
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "%s: %s grew beyond %lld MiB while it was read", path, what,
                              max_bytes / (1024LL * 1024LL));
        }
        {
            char *nb = realloc(buf, 2 * cap);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf == NULL) {
        fclose(f);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "%s: out of memory reading %s", path,
                          what);
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s: cannot read %s: %s", path, what,
                          strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *size = n;
    return PLN_OK;
}

int pln_file_relative_path(const char *from_dir, const char *target, char *out, size_t size)
{
    char a[PATH_MAX], b[PATH_MAX];
    size_t i = 0, common = 0, len = 0;
    if (realpath(from_dir, a) == NULL || realpath(target, b) == NULL) return 0;
    /* the longest common prefix that ends at a component boundary */
    while (a[i] != '\0' && a[i] == b[i]) {
        if (a[i] == '/') common = i;
        ++i;
    }
    if (a[i] == '\0' && b[i] == '/') common = i;
    if (strcmp(a, "/") == 0) common = 0;
    out[0] = '\0';
    /* one ".." per component of a after the common prefix */
    for (size_t k = common; a[k] != '\0'; ++k) {
        if (a[k] == '/' && a[k + 1] != '\0') {
            int n = snprintf(out + len, size - len, "../");
            if (n < 0 || (size_t)n >= size - len) return 0;
            len += (size_t)n;
        }
    }
    {
        int n = snprintf(out + len, size - len, "%s", b + common + 1);
        if (n < 0 || (size_t)n >= size - len) return 0;
    }
    return 1;
}
