/* fixture: a base header reaching up */
#include "base/pln_status.h"
#include "cli/pln_cli.h"
