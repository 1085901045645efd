/* bench_shapes.h — the random shapes and poses shared by the convex benchmarks and their
 * peer comparisons (bench_gjk.c, bench_convex_mcd.c, ccd/compare_ccd.c,
 * fcl/compare_fcl_convex.cpp), so that every program draws the same hulls and poses from
 * the same seed. Plain C that also compiles as C++ (the FCL comparison includes it). */
#ifndef BENCH_SHAPES_H
#define BENCH_SHAPES_H

#include <math.h>
#include <stdlib.h>

#include "dst_convex.h"

/* xorshift64* generator: the benchmarks' only source of randomness (fixed seeds) */
typedef struct BRng {
    unsigned long long s;
} BRng;

/* uniform in [0, 1) */
static inline double brng(BRng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (double)((r->s * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* uniform in [lo, hi) */
static inline double brange(BRng *r, double lo, double hi)
{
    return lo + (hi - lo) * brng(r);
}

/* uniform unit vector (rejection from the cube) */
static inline void bench_unit(BRng *r, double u[3])
{
    double n;
    do {
        for (int i = 0; i < 3; ++i) u[i] = 2.0 * brng(r) - 1.0;
        n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (n > 1.0 || n < 1e-3);
    for (int i = 0; i < 3; ++i) u[i] /= n;
}

/* rotation by angle ang (rad) about the unit axis u, row-major (Rodrigues) */
static inline void bench_rotation(const double u[3], double ang, double R[9])
{
    double c = cos(ang), s = sin(ang), C = 1 - c;
    R[0] = c + u[0] * u[0] * C;
    R[1] = u[0] * u[1] * C - u[2] * s;
    R[2] = u[0] * u[2] * C + u[1] * s;
    R[3] = u[1] * u[0] * C + u[2] * s;
    R[4] = c + u[1] * u[1] * C;
    R[5] = u[1] * u[2] * C - u[0] * s;
    R[6] = u[2] * u[0] * C - u[1] * s;
    R[7] = u[2] * u[1] * C + u[0] * s;
    R[8] = c + u[2] * u[2] * C;
}

/* hull of n random points on the ellipsoid with semi-axes ax (metres) centred at off
 * (off nullable: centred at the origin); every point is extreme, so the hull has n
 * vertices. Returns 1, or 0 when the hull cannot be built (*h then holds nothing). */
static inline int bench_ellipsoid_hull(BRng *r, int n, const double ax[3], const double *off,
                                       DstHull *h)
{
    double *p = (double *)malloc(sizeof(double) * 3 * (size_t)n);
    int ok;
    if (p == NULL) return 0;
    for (int i = 0; i < n; ++i) {
        double u[3];
        bench_unit(r, u);
        for (int k = 0; k < 3; ++k) p[3 * i + k] = ax[k] * u[k] + (off != NULL ? off[k] : 0.0);
    }
    ok = dst_hull_build(p, n, 0.0, h, NULL, 0) == DST_OK;
    free(p);
    return ok;
}

#endif /* BENCH_SHAPES_H */
