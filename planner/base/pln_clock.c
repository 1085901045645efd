/* pln_clock.c — monotonic wall clock, processor count. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "base/pln_clock.h"

#include <sched.h>
#include <time.h>
#include <unistd.h>

double pln_clock_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int pln_cpu_count(void)
{
    cpu_set_t set;
    long n;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        n = CPU_COUNT(&set);
        if (n >= 1) return (int)n;
    }
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (int)n : 1;
}
