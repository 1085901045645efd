/* fuzz_table.c — the trajectory table readers (motion/pln_table.c): the first byte picks
 * .pos or .csv, the rest is the file. */
#include "fuzz_util.h"
#include "motion/pln_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    PlnTable t;
    const char *path;
    if (size < 1) return 0;
    path = fuzz_file(data + 1, size - 1, data[0] & 1 ? ".csv" : ".pos");
    if (pln_table_read(path, &t, err, sizeof err) == PLN_OK) pln_table_destroy(&t);
    unlink(path);
    return 0;
}
