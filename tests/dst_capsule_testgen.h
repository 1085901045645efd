/* dst_capsule_testgen.h — seeded generators of capsule pairs and realistic capsule
 * motions, and the dense-sampling reference MCD, shared by the capsule Check suites and
 * tools/bench/bench_capsule.c. Header-only, test and benchmark code only. No global
 * state: the random generator is a struct passed by pointer. */
#ifndef DST_CAPSULE_TESTGEN_H
#define DST_CAPSULE_TESTGEN_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dst_capsule.h"
#include "dst_motion.h"

/* TG_ASAN is 1 under AddressSanitizer (make asan), where the randomised suites run
 * fewer cases to stay within the suite time budget; 0 otherwise. */
#if defined(__SANITIZE_ADDRESS__)
#define TG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TG_ASAN 1
#endif
#endif
#ifndef TG_ASAN
#define TG_ASAN 0
#endif

/* splitmix64: small, seedable, good enough for test data */
typedef struct TgRng {
    uint64_t state;
} TgRng;

static inline uint64_t tg_next(TgRng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [lo, hi) */
static inline double tg_uniform(TgRng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(tg_next(r) >> 11) * 0x1.0p-53);
}

static inline void tg_unit(TgRng *r, double u[3])
{
    for (;;) {
        double x = tg_uniform(r, -1, 1), y = tg_uniform(r, -1, 1), z = tg_uniform(r, -1, 1);
        double n2 = x * x + y * y + z * z;
        if (n2 > 1e-4 && n2 <= 1.0) {
            double n = sqrt(n2);
            u[0] = x / n, u[1] = y / n, u[2] = z / n;
            return;
        }
    }
}

/* Rodrigues: row-major rotation by angle about the unit axis k */
static inline void tg_rot(const double k[3], double angle, double R[9])
{
    double c = cos(angle), s = sin(angle), v = 1.0 - c;
    R[0] = c + k[0] * k[0] * v, R[1] = k[0] * k[1] * v - k[2] * s, R[2] = k[0] * k[2] * v + k[1] * s;
    R[3] = k[1] * k[0] * v + k[2] * s, R[4] = c + k[1] * k[1] * v, R[5] = k[1] * k[2] * v - k[0] * s;
    R[6] = k[2] * k[0] * v - k[1] * s, R[7] = k[2] * k[1] * v + k[0] * s, R[8] = c + k[2] * k[2] * v;
}

static inline void tg_matmul(const double A[9], const double B[9], double C[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
}

/* signed distance of the polynomial capsules at parameter s (reference evaluation) */
static inline double tg_distance_at(const DstMovingCapsule *a, const DstMovingCapsule *b, double s)
{
    DstCapsule A, B;
    DstCapsuleDistance d;
    dst_poly_point_eval(&a->p0, s, A.p0);
    dst_poly_point_eval(&a->p1, s, A.p1);
    dst_poly_point_eval(&b->p0, s, B.p0);
    dst_poly_point_eval(&b->p1, s, B.p1);
    A.radius = a->radius;
    B.radius = b->radius;
    dst_capsule_distance(&A, &B, &d);
    return d.distance;
}

/* One rigid capsule motion over s in [0, 1] (interval T seconds): length L, linear
 * speed |v| <= vmax, angular speed limited so endpoint speeds stay <= 3 m/s. */
static inline void tg_rigid_capsule(TgRng *r, double T, const double x0[3], const double v[3], double L,
                                    double radius, int degree, DstMovingCapsule *out)
{
    double k[3], k2[3], R0[9], R1[9], Rr[9], x1[3];
    double a_local[3] = {-0.5 * L, 0.0, 0.0}, b_local[3] = {0.5 * L, 0.0, 0.0};
    double vn = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double wmax = fmin(3.0, (3.0 - vn) / (0.5 * L));
    tg_unit(r, k);
    tg_rot(k, tg_uniform(r, -3.141592653589793, 3.141592653589793), R0);
    tg_unit(r, k2);
    tg_rot(k2, tg_uniform(r, 0.0, wmax) * T, Rr);
    tg_matmul(Rr, R0, R1);
    for (int i = 0; i < 3; ++i) x1[i] = x0[i] + v[i] * T;
    dst_moving_capsule_from_poses(a_local, b_local, radius, R0, x0, R1, x1, degree, out);
}

/* Add w * amp * T_k(2s - 1) (Chebyshev polynomial) to both endpoints of c. */
static inline void tg_add_wiggle(DstMovingCapsule *c, const double w[3], double amp, int k)
{
    /* Chebyshev T_k(x) coefficients in x for k = 3, 4, 5 */
    static const double cheb[6][6] = {
        {1, 0, 0, 0, 0, 0},     {0, 1, 0, 0, 0, 0},      {-1, 0, 2, 0, 0, 0},
        {0, -3, 0, 4, 0, 0},    {1, 0, -8, 0, 8, 0},     {0, 5, 0, -20, 0, 16},
    };
    /* x = 2s - 1: expand sum_j a_j (2s - 1)^j into monomials of s */
    double ms[6] = {0};
    static const double binom[6][6] = {
        {1, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0}, {1, 2, 1, 0, 0, 0},
        {1, 3, 3, 1, 0, 0}, {1, 4, 6, 4, 1, 0}, {1, 5, 10, 10, 5, 1},
    };
    for (int j = 0; j <= k; ++j) {
        for (int i = 0; i <= j; ++i) {
            ms[i] += cheb[k][j] * binom[j][i] * pow(2.0, i) * (((j - i) % 2) ? -1.0 : 1.0);
        }
    }
    DstPolyPoint *pts[2] = {&c->p0, &c->p1};
    for (int p = 0; p < 2; ++p) {
        for (int i = 0; i <= k; ++i) {
            for (int x = 0; x < 3; ++x) pts[p]->c[i][x] += amp * w[x] * ms[i];
        }
        if (pts[p]->degree < k) pts[p]->degree = k;
    }
}

/* Translate every endpoint of c by d (constant coefficient). */
static inline void tg_shift(DstMovingCapsule *c, const double d[3])
{
    for (int x = 0; x < 3; ++x) {
        c->p0.c[0][x] += d[x];
        c->p1.c[0][x] += d[x];
    }
}

/* A realistic pair motion over [0, T] (thesis sec. VI.A.3 scale, issue 3): segment
 * lengths 0.1-0.5 m, radii 0.03-0.12 m, endpoint speeds up to 3 m/s, start distance
 * in [-0.1, 0.6] m (but above -(rA + rB)), B heading roughly toward A; in about half
 * the cases B also oscillates (Chebyshev wiggle of degree 3-5) so that the distance
 * has several local minima. degree: Taylor degree of the rigid rotation (2..7). */
static inline void tg_realistic_motion(TgRng *r, double T, int degree, DstMovingCapsule *a, DstMovingCapsule *b)
{
    double LA = tg_uniform(r, 0.1, 0.5), LB = tg_uniform(r, 0.1, 0.5);
    double rA = tg_uniform(r, 0.03, 0.12), rB = tg_uniform(r, 0.03, 0.12);
    double dir[3], xA[3] = {0, 0, 0}, xB[3], vA[3], vB[3], u[3];
    tg_unit(r, dir);
    double sep = tg_uniform(r, 0.2, 0.9);
    for (int i = 0; i < 3; ++i) xB[i] = dir[i] * sep;
    /* A drifts, B heads toward A with a random sideways component */
    tg_unit(r, u);
    double sA = tg_uniform(r, 0.0, 1.5), sB = tg_uniform(r, 0.0, 2.0);
    for (int i = 0; i < 3; ++i) vA[i] = u[i] * sA;
    tg_unit(r, u);
    double toward = tg_uniform(r, 0.3, 1.0);
    for (int i = 0; i < 3; ++i) vB[i] = (-dir[i] * toward + u[i] * (1.0 - toward)) * sB;
    tg_rigid_capsule(r, T, xA, vA, LA, rA, degree, a);
    tg_rigid_capsule(r, T, xB, vB, LB, rB, degree, b);
    if (tg_uniform(r, 0.0, 1.0) < 0.5) {
        int k = 3 + (int)(tg_next(r) % 3);
        /* endpoint speed of the wiggle: amp * 2 k^2 / T <= 0.8 m/s */
        double amp = tg_uniform(r, 0.3, 1.0) * 0.8 * T / (2.0 * k * k);
        double w[3];
        tg_unit(r, w);
        for (int i = 0; i < 3; ++i) w[i] = 0.5 * w[i] + dir[i];
        tg_add_wiggle(b, w, amp, k);
    }
    /* set the start distance by sliding B along the normal */
    double want = fmax(tg_uniform(r, -0.1, 0.6), -0.8 * (rA + rB));
    for (int it = 0; it < 6; ++it) {
        DstCapsule A, B;
        DstCapsuleDistance d;
        dst_poly_point_eval(&a->p0, 0.0, A.p0);
        dst_poly_point_eval(&a->p1, 0.0, A.p1);
        dst_poly_point_eval(&b->p0, 0.0, B.p0);
        dst_poly_point_eval(&b->p1, 0.0, B.p1);
        A.radius = rA, B.radius = rB;
        dst_capsule_distance(&A, &B, &d);
        double delta = want - d.distance;
        if (fabs(delta) < 1e-6) break;
        double sh[3] = {-d.n[0] * delta, -d.n[1] * delta, -d.n[2] * delta};
        tg_shift(b, sh);
    }
}

/* Reference MCD of the polynomial motions: n dense samples, then golden-section
 * refinement (80 iterations) around every discrete local minimum and around both
 * neighbours of the least sample. Returns the least value found (a real value,
 * accurate far below eps); *s_min gets its parameter. */
static inline double tg_reference_mcd(const DstMovingCapsule *a, const DstMovingCapsule *b, int n, double *s_min)
{
    double best = INFINITY, bs = 0.0;
    double fprev2 = 0.0, fprev = 0.0;
    int kbest = 0;
    double fbest_sample = INFINITY;
    /* bracket refinement on [l, r] */
#define TG_REFINE(l_, r_)                                                                     \
    do {                                                                                      \
        double l = (l_), rr = (r_);                                                           \
        for (int it = 0; it < 80; ++it) {                                                     \
            double m1 = l + 0.381966011250105 * (rr - l), m2 = rr - 0.381966011250105 * (rr - l); \
            double f1 = tg_distance_at(a, b, m1), f2 = tg_distance_at(a, b, m2);              \
            if (f1 < best) best = f1, bs = m1;                                                \
            if (f2 < best) best = f2, bs = m2;                                                \
            if (f1 <= f2) rr = m2;                                                            \
            else l = m1;                                                                      \
        }                                                                                     \
    } while (0)
    for (int k = 0; k <= n; ++k) {
        double s = (double)k / n;
        double f = tg_distance_at(a, b, s);
        if (f < best) best = f, bs = s;
        if (f < fbest_sample) fbest_sample = f, kbest = k;
        /* sample k-1 is a discrete local minimum */
        if (k >= 2 && fprev <= fprev2 && fprev <= f) TG_REFINE((double)(k - 2) / n, s);
        fprev2 = fprev;
        fprev = f;
    }
    TG_REFINE(fmax(0.0, (double)(kbest - 1) / n), (double)kbest / n);
    TG_REFINE((double)kbest / n, fmin(1.0, (double)(kbest + 1) / n));
#undef TG_REFINE
    if (s_min) *s_min = bs;
    return best;
}

#endif /* DST_CAPSULE_TESTGEN_H */
