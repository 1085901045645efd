#include "problem/pln_sip.h"
#include "base/pln_status.h"
