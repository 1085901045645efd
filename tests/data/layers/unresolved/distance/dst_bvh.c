#include "dst_bvh_internal.h"
#include "dst.h"
