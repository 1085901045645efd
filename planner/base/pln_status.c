/* pln_status.c — status names, exit codes and the error-message helper. */
#include "base/pln_status.h"

#include <stdarg.h>
#include <stdio.h>

const char *pln_status_string(PlnStatus status)
{
    switch (status) {
    case PLN_OK: return "ok";
    case PLN_ERR_USAGE: return "usage";
    case PLN_ERR_IO: return "io";
    case PLN_ERR_PARSE: return "parse";
    case PLN_ERR_INVALID: return "invalid";
    case PLN_ERR_NOT_CERTIFIED: return "not_certified";
    case PLN_ERR_UNAVAILABLE: return "unavailable";
    case PLN_ERR_NOMEM: return "out_of_memory";
    case PLN_ERR_INTERNAL: return "internal";
    }
    return "unknown";
}

int pln_status_exit_code(PlnStatus status)
{
    switch (status) {
    case PLN_OK:
        return PLN_EXIT_OK;
    case PLN_ERR_USAGE:
    case PLN_ERR_IO:
    case PLN_ERR_PARSE:
    case PLN_ERR_INVALID:
        return PLN_EXIT_BAD_INPUT;
    case PLN_ERR_NOT_CERTIFIED:
        return PLN_EXIT_NOT_CERTIFIED;
    case PLN_ERR_UNAVAILABLE:
    case PLN_ERR_NOMEM:
    case PLN_ERR_INTERNAL:
        return PLN_EXIT_INTERNAL;
    }
    return PLN_EXIT_INTERNAL;
}

PlnStatus pln_errorf(PlnStatus status, char *err, size_t err_size, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}
