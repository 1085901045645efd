/* pln_dyn_internal.h — internals of planner/model/pln_dyn.c that its tests check. */
#ifndef PLN_DYN_INTERNAL_H
#define PLN_DYN_INTERNAL_H

/* s[i] = sin x[i], c[i] = cos x[i] for i < n (rad), to about one unit in the last place
 * (docs/math/dynamics.md D33): the sines and cosines of the joint angles. */
void pln_dyn_sincos(int n, const double *restrict x, double *restrict s, double *restrict c);

#endif /* PLN_DYN_INTERNAL_H */
