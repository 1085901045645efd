#include "pln_spline.h"
/* #include "cli/pln_cli.h" inside a comment is no include */
