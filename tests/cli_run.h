/* cli_run.h — runs `hrpplan` in-process (pln_cli_main) with both output streams captured
 * into buffers, for the tests of commands. Header-only, test code only. */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include <check.h>
#include <stdio.h>

#include "cli/pln_cli.h"

/* argv[0..argc-1] as the command line; stdout into out, stderr into errs (each `size`
 * bytes, NUL-terminated); returns the exit code */
static inline int cli_run(int argc, char *const *argv, char *out, char *errs, size_t size)
{
    FILE *fo = tmpfile(), *fe = tmpfile();
    int code;
    size_t n;
    ck_assert_ptr_nonnull(fo);
    ck_assert_ptr_nonnull(fe);
    code = pln_cli_main(argc, argv, fo, fe);
    rewind(fo);
    rewind(fe);
    n = fread(out, 1, size - 1, fo);
    out[n] = '\0';
    n = fread(errs, 1, size - 1, fe);
    errs[n] = '\0';
    fclose(fo);
    fclose(fe);
    return code;
}

#endif /* CLI_RUN_H */
