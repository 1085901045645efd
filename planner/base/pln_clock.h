/* pln_clock.h — the monotonic wall clock that planner/ times its runs with, and the
 * processors it may spread work over. */
#ifndef PLN_CLOCK_H
#define PLN_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin): differences are elapsed wall time. */
double pln_clock_s(void);

/* The processors this process may run on (its CPU affinity mask; the processors online
 * when the mask cannot be read), at least 1. */
int pln_cpu_count(void);

#endif /* PLN_CLOCK_H */
