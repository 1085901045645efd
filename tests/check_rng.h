/* check_rng.h — the seeded random numbers of the Check suites: splitmix64 in a local
 * struct (fixed seeds, no global state), uniform numbers, unit vectors and uniformly
 * distributed rotations. Header-only, test code only. */
#ifndef CHECK_RNG_H
#define CHECK_RNG_H

#include <math.h>
#include <stdint.h>

typedef struct Rng {
    uint64_t s;
} Rng;

static inline uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) with 53 random bits */
static inline double rng_u01(Rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

static inline double rng_uniform(Rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_u01(r);
}

/* a rotation matrix (row-major) uniformly distributed over SO(3), from a random unit
 * quaternion (Shoemake's subgroup algorithm) */
static inline void rng_rotation(Rng *r, double *R)
{
    const double two_pi = 6.283185307179586476925;
    const double u1 = rng_u01(r), u2 = two_pi * rng_u01(r), u3 = two_pi * rng_u01(r);
    const double a = sqrt(1.0 - u1), b = sqrt(u1);
    const double x = a * sin(u2), y = a * cos(u2), z = b * sin(u3), w = b * cos(u3);
    R[0] = 1 - 2 * (y * y + z * z);
    R[1] = 2 * (x * y - z * w);
    R[2] = 2 * (x * z + y * w);
    R[3] = 2 * (x * y + z * w);
    R[4] = 1 - 2 * (x * x + z * z);
    R[5] = 2 * (y * z - x * w);
    R[6] = 2 * (x * z - y * w);
    R[7] = 2 * (y * z + x * w);
    R[8] = 1 - 2 * (x * x + y * y);
}

/* a unit vector uniformly distributed on the sphere */
static inline void rng_unit(Rng *r, double *n)
{
    const double two_pi = 6.283185307179586476925;
    const double z = rng_uniform(r, -1.0, 1.0), phi = rng_uniform(r, 0.0, two_pi);
    const double s = sqrt(1.0 - z * z);
    n[0] = s * cos(phi);
    n[1] = s * sin(phi);
    n[2] = z;
}

#endif /* CHECK_RNG_H */
