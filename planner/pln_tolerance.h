/* pln_tolerance.h — every numerical tolerance of planner/, with its unit and reason.
 * Local tolerances are derived from these; user-facing ones are options whose defaults
 * are defined here. */
#ifndef PLN_TOLERANCE_H
#define PLN_TOLERANCE_H

/* Relative tolerance on sample times (dimensionless): a sample within this fraction of
 * the end time is the end time itself, so a 200 Hz table of a 2 s motion ends at exactly
 * 2 s instead of adding a sample 1e-15 s before it. */
#define PLN_TIME_EPS_REL 1e-9

#endif /* PLN_TOLERANCE_H */
