/* dst_prism.c — prism culling (seed 003) as a certified test "the two moving meshes stay at
 * least d apart over the sub-interval [s0, s1]" (docs/math/mesh_mcd.md sec. 8).
 *
 * The polynomial (affine) shapes p(s) = x(s) + R(s) l are used, as in the MCD's g(s). A
 * triangle's vertices move along polynomials; over [s0, s1] each stays within delta of its
 * chord (Bernstein coefficients of the deviation from the chord), so the triangle at any
 * time lies in the convex hull of its 6 end vertices (the prism, seed sec. 4.1) enlarged by
 * delta. Node pairs are culled first by swept spheres (sphere at the middle time plus the
 * motion radius of eq. 4.7); triangle pairs by the single separating axis of seed eq. (1)-(9)
 * with the gap required to exceed d plus both enlargements. */
#include "dst_mesh_mcd.h"

#include <math.h>
#include <string.h>

#include "dst_capsule_internal.h"

#define DST_PRISM_STACK 256

/* Bound on the deviation from the chord over [u0, u1], for body points with |l| <= r:
 * the Bernstein coefficients of p - chord are d_j = b_j - (b_0 + j/m (b_m - b_0)), and p -
 * chord is their convex combination; returns c0 + c1 r (c0 origin part, c1 rotation part). */
static void chord_deviation(const DstMovingFrame *f, double u0, double u1, double *c0, double *c1)
{
    double b[DST_MAX_DEGREE + 1], a[DST_MAX_DEGREE + 1];
    double dx[DST_MAX_DEGREE + 1] = {0}, dR[DST_MAX_DEGREE + 1] = {0}, mag0 = 0.0, mag1 = 0.0;
    int mo = f->origin.degree, mr = f->degree;
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k <= mo; ++k) a[k] = f->origin.c[k][i], mag0 += fabs(a[k]);
        dst_bernstein_from_monomial(mo, a, b);
        dst_bernstein_subdivide(mo, b, u0, u1, b);
        for (int j = 0; j <= mo; ++j) {
            double d = b[j] - (b[0] + (mo > 0 ? (double)j / mo : 0.0) * (b[mo] - b[0]));
            dx[j] += d * d;
        }
    }
    for (int e = 0; e < 9; ++e) {
        for (int k = 0; k <= mr; ++k) a[k] = f->R[k][e], mag1 += fabs(a[k]);
        dst_bernstein_from_monomial(mr, a, b);
        dst_bernstein_subdivide(mr, b, u0, u1, b);
        for (int j = 0; j <= mr; ++j) {
            double d = b[j] - (b[0] + (mr > 0 ? (double)j / mr : 0.0) * (b[mr] - b[0]));
            dR[j] += d * d;
        }
    }
    double m0 = 0.0, m1 = 0.0;
    for (int j = 0; j <= mo; ++j) m0 = dst_maxd(m0, sqrt(dx[j]));
    for (int j = 0; j <= mr; ++j) m1 = dst_maxd(m1, sqrt(dR[j]));
    *c0 = m0 * (1.0 + DST_ROUND_REL) + 4.0 * DST_ROUND_REL * mag0;
    *c1 = m1 * (1.0 + DST_ROUND_REL) + 4.0 * DST_ROUND_REL * mag1;
}

/* Affine placement of one mesh at one parameter: R (not orthonormal) and x. */
typedef struct Place {
    double R[9], x[3];
} Place;

static void place_point(const Place *p, const double l[3], double o[3])
{
    for (int i = 0; i < 3; ++i) o[i] = p->R[3 * i] * l[0] + p->R[3 * i + 1] * l[1] + p->R[3 * i + 2] * l[2] + p->x[i];
}

/* Spectral-norm bound of R: its Frobenius norm. */
static double norm_bound(const double R[9])
{
    double s = 0.0;
    for (int e = 0; e < 9; ++e) s += R[e] * R[e];
    return sqrt(s) * (1.0 + DST_ROUND_REL);
}

typedef struct SweptMesh {
    const DstBvh *bvh;
    Place p0, p1, pm;      /* at s0, s1 and the middle */
    double nR;             /* ||R(m)||_2 bound */
    double v, w;           /* speed bound v + w r on [s0, s1], per unit s */
    double half;           /* (s1 - s0) / 2 */
    double delta;          /* chord deviation for every vertex (|l| <= bvh radius) */
} SweptMesh;

static void swept_init(const DstMovingMesh *m, double s0, double s1, SweptMesh *sm)
{
    sm->bvh = m->bvh;
    dst_moving_frame_eval(&m->frame, s0, sm->p0.R, sm->p0.x);
    dst_moving_frame_eval(&m->frame, s1, sm->p1.R, sm->p1.x);
    dst_moving_frame_eval(&m->frame, 0.5 * (s0 + s1), sm->pm.R, sm->pm.x);
    sm->nR = norm_bound(sm->pm.R);
    double b0 = dst_moving_frame_speed_bound(&m->frame, 0.0, s0, s1);
    double b1 = dst_moving_frame_speed_bound(&m->frame, 1.0, s0, s1);
    sm->v = b0;
    sm->w = (b1 - b0) * (1.0 + DST_ROUND_REL) + DST_ROUND_REL * b1;
    sm->half = 0.5 * (s1 - s0);
    double c0, c1;
    chord_deviation(&m->frame, s0, s1, &c0, &c1);
    sm->delta = (c0 + c1 * m->bvh->radius) * (1.0 + DST_ROUND_REL);
}

/* Swept sphere of node n: centre at the middle time, radius covering its shape there and
 * its motion over the half interval (eq. 4.7 with r = |c| + r_node). */
static double swept_sphere(const SweptMesh *sm, const DstBvhNode *n, double c[3])
{
    place_point(&sm->pm, n->c, c);
    double rc = sqrt(dst_dot3(n->c, n->c)) + n->r;
    return (sm->nR * n->r + (sm->v + sm->w * rc) * sm->half) * (1.0 + DST_ROUND_REL);
}

/* Seed 003 eq. (1)-(9): separation of the two prisms along the axis SA by at least d. */
static int prisms_apart(const SweptMesh *A, int ta, const SweptMesh *B, int tb, double d)
{
    double pa[6][3], pb[6][3];
    const double *la = A->bvh->tri[ta], *lb = B->bvh->tri[tb];
    for (int k = 0; k < 3; ++k) {
        place_point(&A->p0, la + 3 * k, pa[k]);
        place_point(&A->p1, la + 3 * k, pa[k + 3]);
        place_point(&B->p0, lb + 3 * k, pb[k]);
        place_point(&B->p1, lb + 3 * k, pb[k + 3]);
    }
    /* eq. (1): centroids C_a^0, C_b^0, C_a^1, C_b^1 and the middles C_ab^0, C_ab^1 */
    double ca0[3], cb0[3], cab0[3], cab1[3];
    for (int i = 0; i < 3; ++i) {
        ca0[i] = (pa[0][i] + pa[1][i] + pa[2][i]) / 3.0;
        cb0[i] = (pb[0][i] + pb[1][i] + pb[2][i]) / 3.0;
        double ca1 = (pa[3][i] + pa[4][i] + pa[5][i]) / 3.0, cb1 = (pb[3][i] + pb[4][i] + pb[5][i]) / 3.0;
        cab0[i] = 0.5 * (ca0[i] + cb0[i]);
        cab1[i] = 0.5 * (ca1 + cb1);
    }
    /* eq. (2)-(7): P_n = C_ab^1 - C_ab^0; SA = C_ab^0 - (C_a^0 projected on the plane through
     * C_ab^0 normal to P_n), i.e. the part of C_ab^0 - C_a^0 normal to P_n */
    double Pn[3] = {cab1[0] - cab0[0], cab1[1] - cab0[1], cab1[2] - cab0[2]};
    double w[3] = {cab0[0] - ca0[0], cab0[1] - ca0[1], cab0[2] - ca0[2]};
    double pp = dst_dot3(Pn, Pn), sa[3];
    double k = pp > DST_MIN_DENOM ? dst_dot3(w, Pn) / pp : 0.0;
    for (int i = 0; i < 3; ++i) sa[i] = w[i] - k * Pn[i];
    double sl = sqrt(dst_dot3(sa, sa));
    if (!(sl > DST_ROUND_REL * (sqrt(dst_dot3(w, w)) + DST_MIN_DENOM))) {
        /* degenerate axis (centroid line along the motion): the centroid line itself */
        memcpy(sa, w, sizeof sa);
        sl = sqrt(dst_dot3(sa, sa));
        if (!(sl > DST_MIN_DENOM)) return 0;
    }
    /* eq. (8)-(9): projection intervals of the 6 vertices of each prism */
    double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY, mag = 0.0;
    for (int v = 0; v < 6; ++v) {
        double x = dst_dot3(sa, pa[v]), y = dst_dot3(sa, pb[v]);
        amin = dst_mind(amin, x), amax = dst_maxd(amax, x);
        bmin = dst_mind(bmin, y), bmax = dst_maxd(bmax, y);
        mag = dst_maxd(mag, dst_maxd(fabs(x), fabs(y)));
    }
    double gap = (dst_maxd(amin - bmax, bmin - amax) - 8.0 * DST_ROUND_REL * mag) / sl;
    return gap - A->delta - B->delta >= d;
}

/* The traversal of both queries: all = 0 stops at the first pair not culled (returns 0 then,
 * 1 when every pair is culled); all = 1 visits every pair and returns the number not culled
 * (-1 on bad input or stack overflow). */
static long swept_core(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d, int all,
                       DstPrismStats *stats)
{
    long kept = 0;
    if (!(d > 0.0) || !(s0 <= s1) || a == NULL || b == NULL || a->bvh == NULL || b->bvh == NULL) return all ? -1 : 0;
    SweptMesh A, B;
    swept_init(a, s0, s1, &A);
    swept_init(b, s0, s1, &B);
    int stack[DST_PRISM_STACK][2], top = 0;
    stack[top][0] = 0, stack[top][1] = 0, ++top;
    while (top > 0) {
        --top;
        const DstBvhNode *na = &a->bvh->nodes[stack[top][0]], *nb = &b->bvh->nodes[stack[top][1]];
        double ca[3], cb[3];
        double ra = swept_sphere(&A, na, ca), rb = swept_sphere(&B, nb, cb);
        double w[3] = {ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]};
        double gap = sqrt(dst_dot3(w, w)) * (1.0 - DST_ROUND_REL) - ra - rb;
        if (stats != NULL) ++stats->node_pairs;
        if (gap >= d) continue;
        if (na->left < 0 && nb->left < 0) {
            for (int i = na->first; i < na->first + na->count; ++i) {
                for (int j = nb->first; j < nb->first + nb->count; ++j) {
                    if (stats != NULL) ++stats->prism_pairs;
                    if (!prisms_apart(&A, i, &B, j, d)) {
                        if (!all) return 0;
                        ++kept;
                        continue;
                    }
                    if (stats != NULL) ++stats->prism_culled;
                }
            }
            continue;
        }
        if (top + 2 > DST_PRISM_STACK) return all ? -1 : 0;
        int ia = (int)(na - a->bvh->nodes), ib = (int)(nb - b->bvh->nodes);
        if (nb->left < 0 || (na->left >= 0 && na->r >= nb->r)) {
            stack[top][0] = na->left, stack[top][1] = ib, ++top;
            stack[top][0] = na->right, stack[top][1] = ib, ++top;
        } else {
            stack[top][0] = ia, stack[top][1] = nb->left, ++top;
            stack[top][0] = ia, stack[top][1] = nb->right, ++top;
        }
    }
    return all ? kept : 1;
}

int dst_mesh_swept_apart(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d,
                         DstPrismStats *stats)
{
    return (int)swept_core(a, b, s0, s1, d, 0, stats);
}

long dst_mesh_swept_count(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d,
                          DstPrismStats *stats)
{
    return swept_core(a, b, s0, s1, d, 1, stats);
}

/* Most node pairs held by the frontier of dst_mesh_swept_lower. */
#define DST_SWEPT_FRONTIER 64

double dst_mesh_swept_lower(const DstMovingMesh *a, const DstMovingMesh *b, double s0, double s1, double d_stop,
                            int budget, DstPrismStats *stats)
{
    if (!(s0 <= s1) || a == NULL || b == NULL || a->bvh == NULL || b->bvh == NULL) return -INFINITY;
    SweptMesh A, B;
    swept_init(a, s0, s1, &A);
    swept_init(b, s0, s1, &B);
    /* best-first: the frontier covers every triangle pair; its least swept-sphere gap bounds
     * the distance of the polynomial shapes from below, and replacing that pair by its
     * children's can only raise it */
    int fa[DST_SWEPT_FRONTIER], fb[DST_SWEPT_FRONTIER], n = 1;
    double fg[DST_SWEPT_FRONTIER];
    fa[0] = 0, fb[0] = 0;
    {
        double ca[3], cb[3];
        double ra = swept_sphere(&A, &a->bvh->nodes[0], ca), rb = swept_sphere(&B, &b->bvh->nodes[0], cb);
        double w[3] = {ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]};
        fg[0] = sqrt(dst_dot3(w, w)) * (1.0 - DST_ROUND_REL) - ra - rb;
    }
    int tests = 1;
    for (;;) {
        int k = 0;
        for (int i = 1; i < n; ++i) {
            if (fg[i] < fg[k]) k = i;
        }
        double lb = fg[k];
        if (lb >= d_stop || tests + 2 > budget || n + 1 > DST_SWEPT_FRONTIER) break;
        const DstBvhNode *na = &a->bvh->nodes[fa[k]], *nb = &b->bvh->nodes[fb[k]];
        if (na->left < 0 && nb->left < 0) break; /* a leaf pair: spheres cannot do better */
        int c[2][2];
        if (nb->left < 0 || (na->left >= 0 && na->r >= nb->r)) {
            c[0][0] = na->left, c[0][1] = fb[k], c[1][0] = na->right, c[1][1] = fb[k];
        } else {
            c[0][0] = fa[k], c[0][1] = nb->left, c[1][0] = fa[k], c[1][1] = nb->right;
        }
        for (int q = 0; q < 2; ++q) {
            double ca[3], cb[3];
            double ra = swept_sphere(&A, &a->bvh->nodes[c[q][0]], ca), rb = swept_sphere(&B, &b->bvh->nodes[c[q][1]], cb);
            double w[3] = {ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]};
            double g = sqrt(dst_dot3(w, w)) * (1.0 - DST_ROUND_REL) - ra - rb;
            int slot = q == 0 ? k : n++;
            fa[slot] = c[q][0], fb[slot] = c[q][1], fg[slot] = g;
        }
        tests += 2;
    }
    if (stats != NULL) stats->node_pairs += tests;
    double lb = fg[0];
    for (int i = 1; i < n; ++i) lb = dst_mind(lb, fg[i]);
    return lb;
}
