/* hrpplan_main.c — process entry point of the hrpplan command; everything is in pln_cli.c. */
#include <cblas.h>

#include "cli/pln_cli.h"

int main(int argc, char **argv)
{
    /* OpenBLAS's own threads: the products hrpplan asks of it are small (36 x 36 for
     * HRP-2's dynamics), below what splitting over threads repays; its idle threads spin
     * in sched_yield, taking a core from the planner's threads (--threads), so one. */
    openblas_set_num_threads(1);
    return pln_cli_main(argc, argv, stdout, stderr);
}
