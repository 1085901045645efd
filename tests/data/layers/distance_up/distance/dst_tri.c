#include "dst.h"
#include "base/pln_status.h"
