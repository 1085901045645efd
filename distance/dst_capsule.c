/* dst_capsule.c — static signed distance of two capsules (thesis eq. 3.1). */
#include "dst_capsule.h"

#include <math.h>
#include <string.h>

#include "dst_capsule_internal.h"

static int dst_capsule_is_valid(const DstCapsule *c)
{
    for (int i = 0; i < 3; ++i) {
        if (!isfinite(c->p0[i]) || !isfinite(c->p1[i])) return 0;
    }
    return isfinite(c->radius) && c->radius > 0.0;
}

/* Signed capsule distance delta(C_A, C_B) = delta(l_A, l_B) - (r_A + r_B), eq. (3.1). */
DstStatus dst_capsule_distance(const DstCapsule *a, const DstCapsule *b, DstCapsuleDistance *out)
{
    if (!dst_capsule_is_valid(a) || !dst_capsule_is_valid(b)) {
        memset(out, 0, sizeof *out);
        out->status = DST_INVALID_INPUT;
        return out->status;
    }
    /* coordinate magnitude for the rounding widening */
    double scale = 0.0;
    for (int i = 0; i < 3; ++i) {
        scale = dst_maxd(scale, dst_maxd(dst_maxd(fabs(a->p0[i]), fabs(a->p1[i])), dst_maxd(fabs(b->p0[i]), fabs(b->p1[i]))));
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
    if (out->distance > band) out->status = DST_SEPARATED;
    else if (out->distance < -band) out->status = DST_PENETRATING;
    else out->status = DST_TOUCHING;
    return out->status;
}
