/* hrpplan_main.c — process entry point of the hrpplan command; everything is in pln_cli.c. */
#include "cli/pln_cli.h"

int main(int argc, char **argv)
{
    return pln_cli_main(argc, argv, stdout, stderr);
}
