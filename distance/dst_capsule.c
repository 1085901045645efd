/* dst_capsule.c — static signed distance of two capsules (thesis eq. 3.1). */
#include "dst_capsule.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "dst_capsule_internal.h"

/* max |coordinate| of the four endpoints, and whether every coordinate and radius is
 * finite with radius > 0 (x * 0 is NaN exactly when x is NaN or infinite). With SSE2
 * (every x86-64) the twelve coordinates go two at a time; the scan is a third of the
 * instructions of a call otherwise. */
static inline int dst_capsule_pair_scan(const DstCapsule *a, const DstCapsule *b, double *scale)
{
#if defined(__SSE2__)
    const __m128d sign = _mm_set1_pd(-0.0), zero = _mm_setzero_pd();
    __m128d a0 = _mm_loadu_pd(a->p0), a1 = _mm_set_pd(a->p1[0], a->p0[2]), a2 = _mm_loadu_pd(a->p1 + 1);
    __m128d b0 = _mm_loadu_pd(b->p0), b1 = _mm_set_pd(b->p1[0], b->p0[2]), b2 = _mm_loadu_pd(b->p1 + 1);
    __m128d m = _mm_max_pd(_mm_max_pd(_mm_andnot_pd(sign, a0), _mm_andnot_pd(sign, a1)),
                           _mm_max_pd(_mm_andnot_pd(sign, a2), _mm_andnot_pd(sign, b0)));
    m = _mm_max_pd(m, _mm_max_pd(_mm_andnot_pd(sign, b1), _mm_andnot_pd(sign, b2)));
    __m128d z = _mm_add_pd(_mm_add_pd(_mm_mul_pd(a0, zero), _mm_mul_pd(a1, zero)),
                           _mm_add_pd(_mm_mul_pd(a2, zero), _mm_mul_pd(b0, zero)));
    z = _mm_add_pd(z, _mm_add_pd(_mm_mul_pd(b1, zero), _mm_mul_pd(b2, zero)));
    z = _mm_add_pd(z, _mm_mul_pd(_mm_set_pd(a->radius, b->radius), zero));
    *scale = _mm_cvtsd_f64(_mm_max_sd(m, _mm_unpackhi_pd(m, m)));
    double zz = _mm_cvtsd_f64(_mm_add_sd(z, _mm_unpackhi_pd(z, z)));
#else
    const double *v[4] = {a->p0, a->p1, b->p0, b->p1};
    double m[4], z[4];
    for (int p = 0; p < 4; ++p) {
        double x = v[p][0], y = v[p][1], w = v[p][2];
        z[p] = x * 0.0 + y * 0.0 + w * 0.0;
        double ax = fabs(x), ay = fabs(y), aw = fabs(w);
        double mxy = ax > ay ? ax : ay;
        m[p] = mxy > aw ? mxy : aw;
    }
    double m01 = m[0] > m[1] ? m[0] : m[1], m23 = m[2] > m[3] ? m[2] : m[3];
    *scale = m01 > m23 ? m01 : m23;
    double zz = (z[0] + z[1]) + (z[2] + z[3]) + a->radius * 0.0 + b->radius * 0.0;
#endif
    return zz == 0.0 && a->radius > 0.0 && b->radius > 0.0;
}

/* Signed capsule distance delta(C_A, C_B) = delta(l_A, l_B) - (r_A + r_B), eq. (3.1). */
DstStatus dst_capsule_distance(const DstCapsule *a, const DstCapsule *b, DstCapsuleDistance *out)
{
    /* input check and the coordinate magnitude for the rounding widening */
    double scale;
    if (!dst_capsule_pair_scan(a, b, &scale)) {
        memset(out, 0, sizeof *out);
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    DstSegPair sp;
    dst_segment_pair(a->p0, a->p1, b->p0, b->p1, scale, &sp);

    double rsum = a->radius + b->radius;
    out->distance = sp.dist - rsum;
    out->lower = sp.lower - rsum - DST_ROUND_REL * rsum;
    out->sA = sp.s;
    out->sB = sp.t;
    for (int i = 0; i < 3; ++i) {
        out->cA[i] = sp.cp[i];
        out->cB[i] = sp.cq[i];
        out->n[i] = sp.n[i];
        out->pA[i] = sp.cp[i] - a->radius * sp.n[i];
        out->pB[i] = sp.cq[i] + b->radius * sp.n[i];
    }
    /* classify with a relative-plus-absolute band around 0 */
    double band = DST_TOUCH_ABS + DST_ROUND_REL * (scale + rsum);
    /* (selects, not branches: the sign of the distance is unpredictable in a batch) */
    DstStatus st = out->distance < -band ? DST_PENETRATING : DST_TOUCHING;
    st = out->distance > band ? DST_SEPARATED : st;
    out->status = st;
    return st;
}
