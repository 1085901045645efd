#include "base/pln_status.h"
#include "pln_tree.h"
