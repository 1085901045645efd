/* fuzz_args.c — the command-line parser (cli/pln_cli.c): the input split at NUL and
 * newline bytes is argv[1..]. Parsing only: no command runs. */
#include "cli/pln_cli.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), *argv[64];
    int argc = 1;
    char err[1024];
    PlnCliArgs args;
    if (buf == NULL) return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[0] = "hrpplan";
    for (size_t i = 0, start = 0; i <= size && argc < 63; ++i) {
        if (i == size || buf[i] == '\0' || buf[i] == '\n') {
            buf[i] = '\0';
            argv[argc++] = buf + start;
            start = i + 1;
        }
    }
    argv[argc] = NULL;
    (void)pln_cli_parse(argc, argv, &args, err, sizeof err);
    free(buf);
    return 0;
}
