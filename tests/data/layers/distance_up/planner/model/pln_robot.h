#include "base/pln_status.h"
#include "dst.h"
