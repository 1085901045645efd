#include "problem/pln_sip.h"
#include "dst_bvh_internal.h"
