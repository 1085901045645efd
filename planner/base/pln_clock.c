/* pln_clock.c — monotonic wall clock. */
#include "base/pln_clock.h"

#include <time.h>

double pln_clock_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
