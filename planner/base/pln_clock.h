/* pln_clock.h — the monotonic wall clock that planner/ times its runs with. */
#ifndef PLN_CLOCK_H
#define PLN_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin): differences are elapsed wall time. */
double pln_clock_s(void);

#endif /* PLN_CLOCK_H */
