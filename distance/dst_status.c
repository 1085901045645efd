/* dst_status.c — status names of the distance library. */
#include "dst.h"

const char *dst_status_string(DstStatus status)
{
    switch (status) {
    case DST_OK: return "ok";
    case DST_SEPARATED: return "separated";
    case DST_TOUCHING: return "touching";
    case DST_PENETRATING: return "penetrating";
    case DST_CERTIFIED: return "certified";
    case DST_NOT_CERTIFIED: return "not_certified";
    case DST_ITER_LIMIT: return "iteration_limit";
    case DST_INVALID_INPUT: return "invalid_input";
    case DST_FAILED: return "failed";
    case DST_ABOVE_LIMIT: return "above_limit";
    }
    return "unknown";
}

const char *dst_version(void)
{
    return DST_VERSION_STRING;
}
