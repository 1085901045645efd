/* fuzz_util.h — shared by the libFuzzer harnesses of tools/fuzz/ (`make fuzz`): the
 * loaders read files, so each input is written to a temporary file with the extension
 * the loader dispatches on. Tooling only, not part of the build. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* writes data to a fresh temporary file named ...<suffix>; returns its path (static) */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    static char path[256];
    int fd;
    FILE *f;
    snprintf(path, sizeof path, "/tmp/hrpplan_fuzz_XXXXXX%s", suffix);
    fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) abort();
    f = fdopen(fd, "wb");
    if (f == NULL) abort();
    if (size > 0 && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
    return path;
}

#endif /* FUZZ_UTIL_H */
