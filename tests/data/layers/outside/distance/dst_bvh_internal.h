#include "dst_bvh.h"
