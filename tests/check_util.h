/* check_util.h — small helpers shared by the Check suites (temporary directories,
 * counting directory entries, reading files). Header-only, test code only. */
#ifndef CHECK_UTIL_H
#define CHECK_UTIL_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* creates a fresh directory under $TMPDIR (or /tmp) into buf. */
static inline void ckutil_mkdtemp(char *buf, size_t size)
{
    const char *base = getenv("TMPDIR");
    snprintf(buf, size, "%s/hrpplan-test-XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(buf));
}

/* number of entries in a directory, '.' and '..' excluded. */
static inline int ckutil_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) ++n;
    }
    closedir(d);
    return n;
}

/* reads a whole (small) file into buf, NUL-terminated; returns its length or -1. */
static inline long ckutil_read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    if (f == NULL) return -1;
    n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return (long)n;
}

/* removes a directory tree made by a test (flat: files and empty subdirectories). */
static inline void ckutil_rm_flat(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];
    if (d == NULL) return;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0) rmdir(path);
    }
    closedir(d);
    rmdir(dir);
}

#endif /* CHECK_UTIL_H */
