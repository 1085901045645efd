/* pln_dyn.c — floating-base RNEA, CRBA, forward dynamics, centroidal momentum and the
 * analytic derivatives of inverse dynamics, in world coordinates (docs/math/dynamics.md).
 *
 * Every spatial quantity is in the world frame at the world origin, so a joint's motion
 * subspace S_i = [a_i; p_i x a_i] (eq. D1) is a 6-vector, and the derivative of any
 * world quantity of the links below joint j with respect to q_j is the spatial cross
 * product with S_j (eq. D6). A prismatic joint has S_i = [0; a_i] (RBDA Table 4.1, eq.
 * D1b): the same algorithms hold for it unchanged, with that S. Spatial inertias are kept in their structured form
 * (m, h = m c, Ibar = rotational inertia about the origin): 13 doubles, applied without
 * forming 6x6 matrices.
 *
 * pln_dyn_rnea alone runs the same recursion in link coordinates (eq. D28-D30), where a
 * link's inertia is a constant and HRP-2's joints turn about coordinate axes: no world
 * kinematics and no world inertias; its inputs and outputs are the world ones above. When
 * every joint turns about a coordinate axis it runs in turned link frames, four links at
 * once (eq. D32). The joint angles' sines and cosines come four at a time from
 * pln_dyn_sincos (eq. D33). */
#include "model/pln_dyn.h"

#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/pln_dyn_internal.h"
#include "model/pln_kin.h"

/* a world spatial inertia: [0] m, [1..3] h = m c, [4..12] Ibar (row-major 3x3) */
enum { IN = 13 };
/* the rate of a spatial inertia (eq. D9): [0..2] hdot, [3..11] Ibar' (row-major 3x3) */
enum { BN = 12 };
/* constants of a link for the RNEA in link coordinates (eq. D28-D30): [0..26] P0, P1, P2
 * with E(q) = P0 + sin q P1 + cos q P2, [27..29] the joint origin in the parent frame,
 * [30..32] O a (a prismatic joint's direction in the parent frame), [33..35] the joint
 * axis a, [36] the mass, [37..39] the centre of mass, [40..48] the rotational inertia
 * about it (link frame), [49] +-1: the sign of a coordinate axis a = +-e_k */
enum { LC = 50, LC_R0 = 27, LC_OA = 30, LC_AX = 33, LC_M = 36, LC_C = 37, LC_IC = 40, LC_SG = 49 };
/* constants of a link for the RNEA in turned link coordinates (eq. D32), when every link
 * turns about a coordinate axis: [0..2] the joint origin r, [3..5] the centre of mass,
 * [6..14] the rotational inertia about it (all three relabelled so that the joint axis is
 * the third coordinate), [15] the mass, [16] +-1 for a revolute joint's a = +-e_k, 0 for a
 * link without a joint */
enum { LZ = 17, LZ_R = 0, LZ_C = 3, LZ_IC = 6, LZ_M = 15, LZ_SG = 16 };
/* lanes of the turned-frame RNEA: links computed at once (eq. D32) */
enum { GL = 4 };
/* n joints rounded up to a multiple of 4, the block of pln_dyn_sincos */
#define JPAD(n) (((n) + 3) / 4 * 4)
/* what moves a link, for the RNEA in link coordinates */
enum { LINK_STILL = 0, LINK_REVOLUTE, LINK_PRISMATIC };

struct PlnDynWork {
    int n_links, n_joints, nv;
    double mass;         /* kg */
    int *dof;            /* [n_links] revolute or prismatic joint moving the link, -1 if none */
    int *order;          /* [n_links] links in depth-first preorder */
    int *pos;            /* [n_links] position of each link in order[] */
    int *last;           /* [n_links] position in order[] of the subtree's last link */
    int *fixed;          /* [n_joints] 1 for PLN_JOINT_FIXED */
    int *ic_diag;        /* [n_links] 1 when the link's inertia is diagonal in its frame */
    double *S;           /* [n_links][6] motion subspace (eq. D1), zero without a dof */
    double *v, *a;       /* [n_links][6] spatial velocity, acceleration (gravity included) */
    double *F;           /* [n_links][6] composite force of the subtree (eq. D4-D5) */
    double *Ib;           /* [n_links][IN] world inertia of the link */
    double *Icw;         /* [n_links][9] its rotational inertia about the centre of mass,
                          * R Ic R^T (eq. D3) */
    double *invm;        /* [n_links] 1 / mass, 0 for a massless link */
    double *IC;          /* [n_links][IN] composite inertia of the subtree */
    double *BC;          /* [n_links][BN] composite inertia rate of the subtree (eq. D9) */
    double *hC;          /* [n_links][6] composite momentum of the subtree */
    double *rr;          /* [n_links][12] r1 = IC S and r4 = BC S - S x* hC (eq. D10), by
                          * position in order[] */
    int *move;           /* [n_links] LINK_STILL, LINK_REVOLUTE or LINK_PRISMATIC */
    int *rax;            /* [n_links] k when E(q) turns about coordinate axis k (O = 1 and
                          * a = +-e_k, or O = 1 without a turn), else -1 (eq. D28) */
    int *rzero;          /* [n_links] 1 when the joint origin is the parent's origin, r = 0 */
    double *lc;          /* [n_links][LC] constants of the link-coordinate RNEA (eq. D28) */
    double *lx;          /* [n_links][12] E (9) and r (3) of the parent-to-link transform */
    double *vl, *al, *fl; /* [n_links][6] v, a, f in link coordinates (eq. D29) */
    double *Rw, *pw, *aw; /* [n_links][9], [3], [3] world rotation, origin, joint axis (D31) */
    int *parent;         /* [n_links] the model's parent links, -1 for the root */
    int turned;          /* 1 when every link is still or revolute about +-e_k with O = 1:
                          * pln_dyn_rnea then runs in turned link coordinates (eq. D32) */
    int *zix;            /* [n_links][3] where coordinate m of link i's turned frame sits in
                          * its parent's turned frame (eq. D32) */
    int *bfs;            /* [n_links] links in breadth-first order, children in index order */
    /* the turned-frame RNEA runs GL links at once, one in each lane (eq. D32): groups of
     * up to GL links in breadth-first order, none the parent of another in its group;
     * everything by group g, lane l as [g][field][l] */
    int n_groups;
    int *glink;          /* [n_links][GL] the link in each lane, -1 for an empty lane */
    int *gsrc;           /* [n_links][3][GL] where the parent's v_m of turned coordinate m
                          * sits in gs (+3 GL: its linear part; +6 GL, +9 GL: of a) */
    int *gchs;           /* [n_groups + 1] each group's first child slot in gch */
    int *gch;            /* [slots][3][GL] child slot c of group g (gchs[g] <= c <
                          * gchs[g + 1]; the lane's children in decreasing index, then
                          * none): where the child's X^T f moment adds to the lane's n_m, in
                          * gc (+3 GL: to f_m) */
    double *gz;          /* [n_links][LZ][GL] the links' constants (eq. D32), 0 in an
                          * empty lane */
    double *gs;          /* [n_groups + 2][12][GL] v (6) and a (6) of each link; group
                          * n_groups lane 0 holds the base frame's, n_groups + 1 zeros */
    double *gf;          /* [n_groups][6][GL] the forces f = [n; f] the links need */
    double *gc;          /* [n_groups + 1][6][GL] X^T F of each link, its subtree's force in
                          * its parent's frame; group n_groups zeros */
    double *gcs;         /* [n_links][2][GL] cos q and +-sin q of each lane's turn */
    int *gdof;           /* [n_links][GL] each lane's joint, nj4 for none (reads 0 from sq,
                          * qd, qdd and 1 from cq) */
    double *lz;          /* [n_links][LZ] constants of the turned-frame RNEA (eq. D32) */
    double *Mf;          /* [nv * nv] factor of forward dynamics */
    double *rhs;         /* [nv] */
    int nj4;             /* n_joints rounded up to a multiple of 4 */
    double *q4;          /* [nj4] the joint angles, zeros after them */
    double *sq, *cq;     /* [nj4 + 1] sin q, cos q (eq. D33); 0 and 1 at nj4 */
    double *qd, *qdd;    /* [nj4 + 1] the joints' velocities and accelerations (0 for a NULL
                          * nu, nudot); 0 after them */
    int any_fixed;       /* 1 when a joint is PLN_JOINT_FIXED */
};

/* ---- small vector algebra ------------------------------------------------------------ */

static inline void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double dot6(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* a . b for 12-vectors, as three 4-lane products summed lane by lane (vectorizable): the
 * rows [r1; r4] of eq. D10 */
static inline double dot12(const double *a, const double *b)
{
    double p[4];
    int k;
    for (k = 0; k < 4; ++k) p[k] = a[k] * b[k] + a[4 + k] * b[4 + k] + a[8 + k] * b[8 + k];
    return (p[0] + p[1]) + (p[2] + p[3]);
}

static inline void mv3(const double *A, const double *x, double *y)
{
    y[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
    y[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
    y[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
}

/* motion cross product v x m (RBDA ch. 2, in world coordinates) */
static inline void crm(const double *v, const double *m, double *o)
{
    double t[3];
    cross3(v, m, o);
    cross3(v, m + 3, o + 3);
    cross3(v + 3, m, t);
    o[3] += t[0];
    o[4] += t[1];
    o[5] += t[2];
}

/* force cross product v x* f (RBDA ch. 2: -(v x)^T) */
static inline void crf(const double *v, const double *f, double *o)
{
    double t[3];
    cross3(v, f, o);
    cross3(v + 3, f + 3, t);
    o[0] += t[0];
    o[1] += t[1];
    o[2] += t[2];
    cross3(v, f + 3, o + 3);
}

/* I x for a structured spatial inertia: [Ibar w + h x v; m v - h x w] (eq. D3) */
static inline void in_apply(const double *Ib, const double *x, double *o)
{
    double t[3];
    mv3(Ib + 4, x, o);
    cross3(Ib + 1, x + 3, t);
    o[0] += t[0];
    o[1] += t[1];
    o[2] += t[2];
    cross3(Ib + 1, x, t);
    o[3] = Ib[0] * x[3] - t[0];
    o[4] = Ib[0] * x[4] - t[1];
    o[5] = Ib[0] * x[5] - t[2];
}

/* B x for an inertia rate (m' = 0): [Ibar' w + h' x v; -h' x w] (eq. D9) */
static inline void bn_apply(const double *B, const double *x, double *o)
{
    double t[3];
    mv3(B + 3, x, o);
    cross3(B, x + 3, t);
    o[0] += t[0];
    o[1] += t[1];
    o[2] += t[2];
    cross3(B, x, t);
    o[3] = -t[0];
    o[4] = -t[1];
    o[5] = -t[2];
}

/* 1 when no v[i] is an infinity or a NaN (exponent bits all ones); branch-free, so that
 * the compiler can run it on several numbers at once */
static int all_finite(const double *v, int n)
{
    uint64_t bad = 0;
    int i;
    for (i = 0; i < n; ++i) {
        uint64_t b;
        memcpy(&b, v + i, sizeof b);
        bad |= (uint64_t)((b & 0x7ff0000000000000u) == 0x7ff0000000000000u);
    }
    return bad == 0;
}

/* ---- sines and cosines of the joint angles -------------------------------------------- */

/* 2 / pi, and pi / 2 in three parts: its first 33 bits, the next 33 (so that j times
 * either is exact for |j| < 2^20) and the rest, rounded */
#define SC_2_PI 6.36619772367581382433e-01
#define SC_PIO2_1 1.57079632673412561417e+00
#define SC_PIO2_2 6.07710050630396597660e-11
#define SC_PIO2_3 2.02226624879595063154e-21
/* 1.5 * 2^52: y + SC_ROUND - SC_ROUND is y rounded to the nearest integer (|y| < 2^51),
 * which sits in the low bits of y + SC_ROUND */
#define SC_ROUND 6755399441055744.0
/* the bound on |x| of the polynomial path (quadrant |j| < 2^10); beyond it, libm */
#define SC_MAX 1.0e3

/* sin x and cos x by eq. D33: x = j pi/2 + r with |r| <= pi/4, the Taylor polynomials of
 * sin r (to r^17) and cos r (to r^16; truncation below 1e-19 on |r| <= pi/4), the 1 - r^2/2
 * of cos r with its rounding error carried (e = (1 - w) - r^2/2 is exact), swapped and
 * signed by j mod 4; branch-free. Returns 1 when |x| > SC_MAX (or x is not a number),
 * where the result is not to be used. */
static inline int sincos_kernel(double x, double *s, double *c)
{
    const double y = x * SC_2_PI + SC_ROUND, jd = y - SC_ROUND;
    const double r = ((x - jd * SC_PIO2_1) - jd * SC_PIO2_2) - jd * SC_PIO2_3;
    const double z = r * r;
    /* sin r = r + r z ps(z), ps = -1/3! + z/5! - z^2/7! + ... - z^7/17! */
    const double ps = -1.0 / 6.0 +
                      z * (1.0 / 120.0 +
                           z * (-1.0 / 5040.0 +
                                z * (1.0 / 362880.0 +
                                     z * (-1.0 / 39916800.0 +
                                          z * (1.0 / 6227020800.0 +
                                               z * (-1.0 / 1307674368000.0 +
                                                    z * (1.0 / 355687428096000.0)))))));
    /* cos r = 1 - z/2 + z^2 pc(z), pc = 1/4! - z/6! + z^2/8! - ... + z^6/16! */
    const double pc = 1.0 / 24.0 +
                      z * (-1.0 / 720.0 +
                           z * (1.0 / 40320.0 +
                                z * (-1.0 / 3628800.0 +
                                     z * (1.0 / 479001600.0 +
                                          z * (-1.0 / 87178291200.0 +
                                               z * (1.0 / 20922789888000.0))))));
    const double sr = r + (z * r) * ps, hz = 0.5 * z, wc = 1.0 - hz;
    const double cr = wc + (((1.0 - wc) - hz) + z * (z * pc));
    uint64_t j, bs, bc;
    memcpy(&j, &y, sizeof j);
    /* sin x = (sin r, cos r, -sin r, -cos r) and cos x = (cos r, -sin r, -cos r, sin r)
     * for j mod 4 = 0, 1, 2, 3 */
    {
        const double ss = (j & 1u) ? cr : sr, cc = (j & 1u) ? sr : cr;
        memcpy(&bs, &ss, sizeof bs);
        memcpy(&bc, &cc, sizeof bc);
    }
    bs ^= (j & 2u) << 62;
    bc ^= ((j + 1u) & 2u) << 62;
    memcpy(s, &bs, sizeof bs);
    memcpy(c, &bc, sizeof bc);
    return !(fabs(x) <= SC_MAX);
}

/* sin and cos of x[0..n-1] (eq. D33), four at a time (the compiler runs each four at
 * once), within about one unit in the last place of libm's sin and cos
 * (tests/check_pln_dyn.c); libm for all when one |x| > SC_MAX. */
void pln_dyn_sincos(int n, const double *restrict x, double *restrict s, double *restrict c)
{
    int i, l, far = 0;
    for (i = 0; i + 4 <= n; i += 4) {
        for (l = 0; l < 4; ++l) far |= sincos_kernel(x[i + l], s + i + l, c + i + l);
    }
    for (; i < n; ++i) far |= sincos_kernel(x[i], s + i, c + i);
    /* an angle beyond SC_MAX (or not a number): libm for all */
    if (far) {
        for (i = 0; i < n; ++i) {
            s[i] = sin(x[i]);
            c[i] = cos(x[i]);
        }
    }
}

/* ---- workspace ------------------------------------------------------------------------ */

/* The per-model constants of link i for the RNEA in link coordinates (eq. D28): with
 * K = [a]x and O the joint frame's rotation in the parent, E(q) = Rot(a, q)^T O^T =
 * (1 + K^2) O^T - sin q K O^T - cos q K^2 O^T for a revolute joint, O^T otherwise; the
 * coordinate-axis form (*rax) when O = 1 and a = +-e_k (then E(q) = Rot(e_k, +-q)^T), or
 * O = 1 and nothing turns (k = 0 with cos = 1, sin = 0); the link's mass, centre of mass
 * and rotational inertia in its own frame (eq. D30). */
static void link_constants(const PlnRobot *robot, int i, int dof, int *move, int *rax,
                           int *rzero, double *C)
{
    const PlnLink *L = &robot->links[i];
    const double *O = L->origin_rot, *p0 = L->origin_pos;
    double OT[9];
    int r, k, unit_o = 1;
    for (r = 0; r < 3; ++r) {
        for (k = 0; k < 3; ++k) {
            OT[3 * r + k] = O[3 * k + r];
            if (O[3 * r + k] != (r == k ? 1.0 : 0.0)) unit_o = 0;
        }
    }
    *move = dof < 0 ? LINK_STILL
                    : (robot->joints[dof].type == PLN_JOINT_PRISMATIC ? LINK_PRISMATIC
                                                                       : LINK_REVOLUTE);
    *rax = -1;
    memset(C, 0, LC * sizeof(double));
    memcpy(C, OT, sizeof OT);
    if (*move == LINK_REVOLUTE) {
        const double *a = robot->joints[dof].axis;
        double K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0}, K2[9];
        for (r = 0; r < 3; ++r) {
            for (k = 0; k < 3; ++k) {
                K2[3 * r + k] = K[3 * r] * K[k] + K[3 * r + 1] * K[3 + k] + K[3 * r + 2] * K[6 + k];
            }
        }
        for (r = 0; r < 3; ++r) {
            for (k = 0; k < 3; ++k) {
                double kO = K[3 * r] * OT[k] + K[3 * r + 1] * OT[3 + k] + K[3 * r + 2] * OT[6 + k];
                double k2O =
                    K2[3 * r] * OT[k] + K2[3 * r + 1] * OT[3 + k] + K2[3 * r + 2] * OT[6 + k];
                C[3 * r + k] = OT[3 * r + k] + k2O;
                C[9 + 3 * r + k] = -kO;
                C[18 + 3 * r + k] = -k2O;
            }
        }
        for (k = 0; k < 3 && unit_o; ++k) {
            if (fabs(a[k]) == 1.0 && a[(k + 1) % 3] == 0.0 && a[(k + 2) % 3] == 0.0) {
                *rax = k;
                C[LC_SG] = a[k];
            }
        }
    } else if (unit_o) {
        *rax = 0;
    }
    memcpy(C + LC_R0, p0, 3 * sizeof(double));
    *rzero = *move != LINK_PRISMATIC && p0[0] == 0.0 && p0[1] == 0.0 && p0[2] == 0.0;
    if (dof >= 0) {
        const double *a = robot->joints[dof].axis;
        memcpy(C + LC_AX, a, 3 * sizeof(double));
        if (*move == LINK_PRISMATIC) mv3(O, a, C + LC_OA);
    }
    C[LC_M] = L->mass;
    memcpy(C + LC_C, L->com, 3 * sizeof(double));
    /* the symmetric part of Ic (the model's is symmetric to PLN_ROBOT_INERTIA_SYM_TOL;
     * exactly Ic when it is symmetric), for the link- and the world-frame passes alike */
    for (r = 0; r < 3; ++r) {
        for (k = 0; k < 3; ++k) {
            C[LC_IC + 3 * r + k] = 0.5 * (L->inertia[3 * r + k] + L->inertia[3 * k + r]);
        }
    }
}

/* The lanes of the turned-frame RNEA (eq. D32): the links in breadth-first order cut into
 * groups of at most GL, a new group wherever a link's parent is in the current one; each
 * lane's constants, where its parent's motion is read and where its children's forces
 * are gathered.
 * gpos: scratch of n_links ints. */
static void turned_groups(PlnDynWork *w, int *gpos)
{
    int n, g = -1, l = GL, k, f;
    for (n = 0; n < w->n_links * GL; ++n) w->glink[n] = -1;
    for (n = 0; n < w->n_links; ++n) {
        int i = w->bfs[n], par = w->parent[i];
        if (l == GL || (par >= 0 && gpos[par] / GL == g)) {
            ++g;
            l = 0;
        }
        w->glink[g * GL + l] = i;
        gpos[i] = g * GL + l++;
    }
    w->n_groups = g + 1;
    memset(w->gz, 0, (size_t)(GL * LZ * w->n_links) * sizeof(double));
    memset(w->gs, 0, (size_t)(GL * 12 * (w->n_links + 2)) * sizeof(double));
    for (g = 0; g < w->n_groups; ++g) {
        for (l = 0; l < GL; ++l) {
            int i = w->glink[g * GL + l], par, pg, pl;
            w->gdof[g * GL + l] = (i < 0 || w->dof[i] < 0) ? w->nj4 : w->dof[i];
            if (i < 0) {
                /* an empty lane reads zeros and adds nothing */
                for (k = 0; k < 3; ++k) {
                    w->gsrc[(3 * g + k) * GL + l] = ((w->n_groups + 1) * 12 + k) * GL;
                }
                continue;
            }
            par = w->parent[i];
            pg = par < 0 ? w->n_groups : gpos[par] / GL;
            pl = par < 0 ? 0 : gpos[par] % GL;
            for (k = 0; k < 3; ++k) {
                int m = w->zix[3 * i + k];
                w->gsrc[(3 * g + k) * GL + l] = (pg * 12 + m) * GL + pl;
            }
            for (f = 0; f < LZ; ++f) w->gz[(g * LZ + f) * GL + l] = w->lz[LZ * i + f];
        }
    }
    /* child slots: lane l's c-th child in decreasing index, its X^T F component k' adding
     * to the lane's coordinate m = zix[child][k']; none: the zeros of group n_groups */
    memset(w->gc, 0, (size_t)(GL * 6 * (w->n_groups + 1)) * sizeof(double));
    for (n = g = 0; g < w->n_groups; ++g) {
        int c, more = 1;
        w->gchs[g] = n;
        for (c = 0; more; ++c) {
            more = 0;
            for (l = 0; l < GL; ++l) {
                int i = w->glink[g * GL + l], child = -1, seen = 0, j;
                for (j = w->n_links - 1; j >= 0 && i >= 0; --j) {
                    if (w->parent[j] == i && seen++ == c) {
                        child = j;
                        break;
                    }
                }
                for (k = 0; k < 3; ++k) {
                    w->gch[(3 * n + k) * GL + l] = (w->n_groups * 6 + k) * GL;
                }
                if (child < 0) continue;
                more = 1;
                for (k = 0; k < 3; ++k) {
                    int m = w->zix[3 * child + k];
                    w->gch[(3 * n + m) * GL + l] =
                        ((gpos[child] / GL) * 6 + k) * GL + gpos[child] % GL;
                }
            }
            if (more) ++n;
        }
    }
    w->gchs[w->n_groups] = n;
}

/* The turned link frames of eq. D32, when every link is still or turns about a coordinate
 * axis with O = 1 (w->turned): link i's frame relabelled by the cyclic shift sh_i that makes
 * its joint axis the third coordinate (coordinate m of the turned frame is coordinate
 * (m + sh_i) mod 3 of the link frame; a link without a joint keeps its parent's shift),
 * the relabelled constants, and where each turned coordinate of the link sits in its
 * parent's turned frame, (m + sh_i - sh_p) mod 3 (sh = 0 for the base frame). */
static void turned_groups(PlnDynWork *w, int *gpos);

static void turned_constants(PlnDynWork *w)
{
    int *sh = w->fixed + w->n_joints; /* scratch: the shift of each link */
    int i, n, m, l;
    w->turned = 1;
    for (i = 0; i < w->n_links; ++i) {
        if (w->rax[i] < 0 || w->move[i] == LINK_PRISMATIC) w->turned = 0;
    }
    if (!w->turned) return;
    /* breadth-first: the roots, then the children of each link taken in turn */
    for (n = i = 0; i < w->n_links; ++i) {
        if (w->parent[i] < 0) w->bfs[n++] = i;
    }
    for (m = 0; m < n; ++m) {
        for (i = 0; i < w->n_links; ++i) {
            if (w->parent[i] == w->bfs[m]) w->bfs[n++] = i;
        }
    }
    for (n = 0; n < w->n_links; ++n) {
        const double *C;
        double *Z;
        int sp;
        i = w->order[n];
        C = w->lc + LC * i;
        Z = w->lz + LZ * i;
        sp = w->parent[i] < 0 ? 0 : sh[w->parent[i]];
        sh[i] = w->move[i] == LINK_REVOLUTE ? (w->rax[i] + 1) % 3 : sp;
        for (m = 0; m < 3; ++m) {
            int u = (m + sh[i]) % 3;
            w->zix[3 * i + m] = (m + sh[i] - sp + 3) % 3;
            Z[LZ_R + m] = C[LC_R0 + u];
            Z[LZ_C + m] = C[LC_C + u];
            for (l = 0; l < 3; ++l) Z[LZ_IC + 3 * m + l] = C[LC_IC + 3 * u + (l + sh[i]) % 3];
        }
        Z[LZ_M] = C[LC_M];
        Z[LZ_SG] = w->move[i] == LINK_REVOLUTE ? C[LC_SG] : 0.0;
    }
    turned_groups(w, sh + w->n_links);
}

PlnStatus pln_dyn_create(const PlnRobot *robot, PlnDynWork **out, char *err, size_t err_size)
{
    PlnDynWork *w;
    PlnStatus st;
    size_t nl, nv, nd;
    unsigned char *block;
    int i;
    if (out == NULL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "pln_dyn_create: NULL out");
    }
    *out = NULL;
    st = pln_kin_validate(robot, err, err_size);
    if (st != PLN_OK) return st;
    nl = (size_t)robot->n_links;
    nv = 6 + (size_t)robot->n_joints;
    nd = nl * (6 * 4 + IN * 2 + 9 + 1 + BN + 6 * 3 + LC + 12 + 6 * 3 + 15 + LZ) + nv * nv + nv +
         5 * ((size_t)JPAD(robot->n_joints) + 1) +
         GL * (nl * LZ + (nl + 2) * 12 + (nl + 1) * 6 * 2 + nl * 2);
    block = malloc(sizeof *w + nd * sizeof(double) +
                   ((16 + 8 * GL) * nl + 1 + (size_t)robot->n_joints) * sizeof(int));
    if (block == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "pln_dyn_create: out of memory");
    }
    w = (PlnDynWork *)block;
    w->n_links = robot->n_links;
    w->n_joints = robot->n_joints;
    w->nv = (int)nv;
    w->S = (double *)(block + sizeof *w);
    w->v = w->S + 6 * nl;
    w->a = w->v + 6 * nl;
    w->F = w->a + 6 * nl;
    w->Ib = w->F + 6 * nl;
    w->Icw = w->Ib + IN * nl;
    w->invm = w->Icw + 9 * nl;
    w->IC = w->invm + nl;
    w->BC = w->IC + IN * nl;
    w->hC = w->BC + BN * nl;
    w->rr = w->hC + 6 * nl;
    w->lc = w->rr + 12 * nl;
    w->lx = w->lc + LC * nl;
    w->vl = w->lx + 12 * nl;
    w->al = w->vl + 6 * nl;
    w->fl = w->al + 6 * nl;
    w->Rw = w->fl + 6 * nl;
    w->pw = w->Rw + 9 * nl;
    w->aw = w->pw + 3 * nl;
    w->Mf = w->aw + 3 * nl;
    w->rhs = w->Mf + nv * nv;
    w->lz = w->rhs + nv;
    w->nj4 = JPAD(robot->n_joints);
    w->sq = w->lz + LZ * nl;
    w->cq = w->sq + w->nj4 + 1;
    w->qd = w->cq + w->nj4 + 1;
    w->qdd = w->qd + w->nj4 + 1;
    w->q4 = w->qdd + w->nj4 + 1;
    w->gz = w->q4 + w->nj4 + 1;
    w->gs = w->gz + GL * LZ * nl;
    w->gf = w->gs + GL * 12 * (nl + 2);
    w->gc = w->gf + GL * 6 * (nl + 1);
    w->gcs = w->gc + GL * 6 * (nl + 1);
    w->dof = (int *)(w->gcs + GL * 2 * nl);
    w->order = w->dof + nl;
    w->pos = w->order + nl;
    w->last = w->pos + nl;
    w->ic_diag = w->last + nl;
    w->move = w->ic_diag + nl;
    w->rax = w->move + nl;
    w->rzero = w->rax + nl;
    w->parent = w->rzero + nl;
    w->zix = w->parent + nl;
    w->bfs = w->zix + 3 * nl;
    w->glink = w->bfs + nl;
    w->gsrc = w->glink + GL * nl;
    w->gch = w->gsrc + GL * 3 * nl;
    w->gdof = w->gch + GL * 3 * nl;
    w->gchs = w->gdof + GL * nl;
    w->fixed = w->gchs + nl + 1; /* then 2 nl ints of scratch for the preorder */
    memset(w->S, 0, nd * sizeof(double));
    w->mass = 0.0;
    w->any_fixed = 0;
    for (i = 0; i < robot->n_joints; ++i) {
        w->fixed[i] = robot->joints[i].type == PLN_JOINT_FIXED;
        w->any_fixed |= w->fixed[i];
    }
    w->cq[w->nj4] = 1.0; /* sq, qd, qdd, q4: 0 from the memset */
    for (i = 0; i < robot->n_links; ++i) {
        int j = robot->links[i].joint;
        const double *Ic = robot->links[i].inertia;
        w->dof[i] = (j >= 0 && !w->fixed[j]) ? j : -1;
        w->parent[i] = robot->links[i].parent;
        w->mass += robot->links[i].mass;
        w->invm[i] = robot->links[i].mass > 0.0 ? 1.0 / robot->links[i].mass : 0.0;
        w->ic_diag[i] = Ic[1] == 0.0 && Ic[2] == 0.0 && Ic[3] == 0.0 && Ic[5] == 0.0 &&
                        Ic[6] == 0.0 && Ic[7] == 0.0;
        link_constants(robot, i, w->dof[i], w->move + i, w->rax + i, w->rzero + i, w->lc + LC * i);
    }
    /* a depth-first preorder of the links (children in index order), so that every
     * subtree is a contiguous run order[pos[i]] .. order[last[i]] whatever the model's
     * topological order: an explicit stack of (link, next child to try) */
    {
        int *stack = w->fixed + robot->n_joints, *next = stack + nl, top = 0, n = 0, r;
        for (r = 0; r < robot->n_links; ++r) {
            if (robot->links[r].parent >= 0) continue;
            stack[top] = r;
            next[top++] = r + 1;
            w->pos[r] = n;
            w->order[n++] = r;
            while (top > 0) {
                int link = stack[top - 1], c = next[top - 1];
                while (c < robot->n_links && robot->links[c].parent != link) ++c;
                if (c < robot->n_links) {
                    next[top - 1] = c + 1;
                    stack[top] = c;
                    next[top++] = c + 1;
                    w->pos[c] = n;
                    w->order[n++] = c;
                } else {
                    w->last[link] = n - 1;
                    --top;
                }
            }
        }
    }
    turned_constants(w);
    *out = w;
    return PLN_OK;
}

void pln_dyn_destroy(PlnDynWork *w)
{
    free(w);
}

int pln_dyn_nv(const PlnDynWork *w)
{
    return w->nv;
}

/* eq. D2: the base's spatial velocity at the origin */
void pln_dyn_base_velocity(const double p_base[3], const double v_base[3],
                           const double omega[3], double nu6[6])
{
    double t[3];
    cross3(omega, p_base, t);
    nu6[0] = omega[0];
    nu6[1] = omega[1];
    nu6[2] = omega[2];
    nu6[3] = v_base[0] - t[0];
    nu6[4] = v_base[1] - t[1];
    nu6[5] = v_base[2] - t[2];
}

/* eq. D2 differentiated in time */
void pln_dyn_base_acceleration(const double p_base[3], const double v_base[3],
                               const double omega[3], const double a_base[3],
                               const double alpha[3], double nudot6[6])
{
    double t[3], u[3];
    cross3(alpha, p_base, t);
    cross3(omega, v_base, u);
    nudot6[0] = alpha[0];
    nudot6[1] = alpha[1];
    nudot6[2] = alpha[2];
    nudot6[3] = a_base[0] - t[0] - u[0];
    nudot6[4] = a_base[1] - t[1] - u[1];
    nudot6[5] = a_base[2] - t[2] - u[2];
}

/* y = E x for E a turn about coordinate axis k, stored as (c, s) (eq. D28):
 * y_k = x_k, y_k1 = c x_k1 + s x_k2, y_k2 = c x_k2 - s x_k1 with (k, k1, k2) cyclic;
 * E^T x is the same with -s */
static inline void rot_axis(int k, double c, double s, const double *x, double *y)
{
    switch (k) {
    case 0:
        y[0] = x[0];
        y[1] = c * x[1] + s * x[2];
        y[2] = c * x[2] - s * x[1];
        break;
    case 1:
        y[1] = x[1];
        y[2] = c * x[2] + s * x[0];
        y[0] = c * x[0] - s * x[2];
        break;
    default:
        y[2] = x[2];
        y[0] = c * x[0] + s * x[1];
        y[1] = c * x[1] - s * x[0];
        break;
    }
}

/* y = E x for a link's parent-to-link rotation (eq. D28): a coordinate turn (k >= 0) or
 * 3 x 3 */
static inline void rot_apply(int k, const double *E, const double *x, double *y)
{
    if (k >= 0) rot_axis(k, E[0], E[1], x, y);
    else mv3(E, x, y);
}

/* y = E^T x (eq. D28) */
static inline void rot_apply_t(int k, const double *E, const double *x, double *y)
{
    if (k >= 0) {
        rot_axis(k, E[0], -E[1], x, y);
    } else {
        y[0] = E[0] * x[0] + E[3] * x[1] + E[6] * x[2];
        y[1] = E[1] * x[0] + E[4] * x[1] + E[7] * x[2];
        y[2] = E[2] * x[0] + E[5] * x[1] + E[8] * x[2];
    }
}

/* o = X m for the Plucker transform X = (E, r) (eq. D28): [E w; E (v - r x w)]; rz: r = 0 */
static inline void xf_motion(int k, int rz, const double *E, const double *r, const double *m,
                             double *o)
{
    double t[3];
    rot_apply(k, E, m, o);
    if (rz) {
        rot_apply(k, E, m + 3, o + 3);
        return;
    }
    cross3(r, m, t);
    t[0] = m[3] - t[0];
    t[1] = m[4] - t[1];
    t[2] = m[5] - t[2];
    rot_apply(k, E, t, o + 3);
}

/* o += X^T f for X = (E, r) (eq. D28): [E^T n + r x E^T f; E^T f] */
static inline void xf_force_add(int k, int rz, const double *E, const double *r,
                                const double *f, double *o)
{
    double n[3], g[3], t[3];
    rot_apply_t(k, E, f, n);
    rot_apply_t(k, E, f + 3, g);
    if (!rz) {
        cross3(r, g, t);
        n[0] += t[0];
        n[1] += t[1];
        n[2] += t[2];
    }
    o[0] += n[0];
    o[1] += n[1];
    o[2] += n[2];
    o[3] += g[0];
    o[4] += g[1];
    o[5] += g[2];
}

/* ---- the passes ----------------------------------------------------------------------- */

static int state_ok(const PlnDynWork *w, const PlnDynState *s)
{
    if (s == NULL || (s->q == NULL && w->n_joints > 0)) return 0;
    if (!all_finite(s->base_pos, 3) || !all_finite(s->base_rot, 9)) return 0;
    if (!all_finite(s->q, w->n_joints)) return 0;
    if (s->nu != NULL && !all_finite(s->nu, w->nv)) return 0;
    if (s->nudot != NULL && !all_finite(s->nudot, w->nv)) return 0;
    return 1;
}

/* The parent-to-link transforms X_i = (E_i, r_i) of every link for joint positions q
 * (eq. D28), into w->lx, from the sines and cosines of all joint angles at once (eq. D33). */
static void joint_transforms(PlnDynWork *w, const double *q)
{
    int i, k;
    if (w->n_joints > 0) {
        memcpy(w->q4, q, (size_t)w->n_joints * sizeof(double));
        pln_dyn_sincos(w->nj4, w->q4, w->sq, w->cq);
    }
    for (i = 0; i < w->n_links; ++i) {
        const double *C = w->lc + LC * i;
        double *E = w->lx + 12 * i, *r = E + 9;
        int j = w->dof[i], mv = w->move[i];
        r[0] = C[LC_R0];
        r[1] = C[LC_R0 + 1];
        r[2] = C[LC_R0 + 2];
        if (mv == LINK_REVOLUTE) {
            double sq = w->sq[j], cq = w->cq[j];
            if (w->rax[i] >= 0) {
                E[0] = cq;
                E[1] = C[LC_SG] * sq;
            } else {
                for (k = 0; k < 9; ++k) E[k] = C[k] + sq * C[9 + k] + cq * C[18 + k];
            }
        } else {
            if (w->rax[i] >= 0) {
                E[0] = 1.0;
                E[1] = 0.0;
            } else {
                memcpy(E, C, 9 * sizeof(double));
            }
            if (mv == LINK_PRISMATIC) {
                r[0] += q[j] * C[LC_OA];
                r[1] += q[j] * C[LC_OA + 1];
                r[2] += q[j] * C[LC_OA + 2];
            }
        }
    }
}

/* World poses of the links from the joint transforms (eq. D31): R_i = R_p E_i^T (row m of
 * R_i is E_i applied to row m of R_p), p_i = p_p + R_p r_i, from the base pose; and the
 * joint axes in the world, R_i a (= R_p O a). */
static void world_poses(PlnDynWork *w, const PlnDynState *s)
{
    int i, m;
    joint_transforms(w, s->q);
    for (i = 0; i < w->n_links; ++i) {
        int par = w->parent[i], rk = w->rax[i];
        const double *E = w->lx + 12 * i, *Rp = par < 0 ? s->base_rot : w->Rw + 9 * par;
        const double *pp = par < 0 ? s->base_pos : w->pw + 3 * par;
        double *R = w->Rw + 9 * i, *p = w->pw + 3 * i;
        for (m = 0; m < 3; ++m) rot_apply(rk, E, Rp + 3 * m, R + 3 * m);
        if (w->rzero[i]) {
            p[0] = pp[0];
            p[1] = pp[1];
            p[2] = pp[2];
        } else {
            mv3(Rp, E + 9, p);
            p[0] += pp[0];
            p[1] += pp[1];
            p[2] += pp[2];
        }
        if (w->move[i] != LINK_STILL) mv3(R, w->lc + LC * i + LC_AX, w->aw + 3 * i);
    }
}

/* World kinematics (eq. D31), motion subspaces (eq. D1, D1b) and world inertias (eq. D3):
 * everything of the world-frame passes that depends on the configuration alone. */
static void pass_geometry(PlnDynWork *w, const PlnDynState *s)
{
    int i;
    world_poses(w, s);
    for (i = 0; i < w->n_links; ++i) {
        const double *C = w->lc + LC * i, mass = C[LC_M], *com = C + LC_C, *Ic = C + LC_IC;
        const double *R = w->Rw + 9 * i, *p = w->pw + 3 * i;
        double *S = w->S + 6 * i, *Ib = w->Ib + IN * i;
        double c[3], RI[9], cc;
        int r, k;
        /* S = [a; p x a] (eq. D1), prismatic S = [0; a] (eq. D1b) */
        if (w->move[i] == LINK_PRISMATIC) {
            const double *ax = w->aw + 3 * i;
            S[0] = S[1] = S[2] = 0.0;
            S[3] = ax[0];
            S[4] = ax[1];
            S[5] = ax[2];
        } else if (w->move[i] == LINK_REVOLUTE) {
            const double *ax = w->aw + 3 * i;
            S[0] = ax[0];
            S[1] = ax[1];
            S[2] = ax[2];
            cross3(p, ax, S + 3);
        } else {
            memset(S, 0, 6 * sizeof(double));
        }
        /* world inertia: c = p + R com, h = m c, Ibar = R Ic R^T + m((c.c) 1 - c c^T) */
        mv3(R, com, c);
        c[0] += p[0];
        c[1] += p[1];
        c[2] += p[2];
        Ib[0] = mass;
        Ib[1] = mass * c[0];
        Ib[2] = mass * c[1];
        Ib[3] = mass * c[2];
        /* R Ic (a column scaling when Ic is diagonal, as for most links), then the upper
         * triangle of (R Ic) R^T, mirrored */
        if (w->ic_diag[i]) {
            for (r = 0; r < 9; ++r) RI[r] = R[r] * Ic[4 * (r % 3)];
        } else {
            for (r = 0; r < 3; ++r) {
                for (k = 0; k < 3; ++k) {
                    RI[3 * r + k] = R[3 * r] * Ic[k] + R[3 * r + 1] * Ic[3 + k] +
                                    R[3 * r + 2] * Ic[6 + k];
                }
            }
        }
        cc = dot3(c, c);
        for (r = 0; r < 3; ++r) {
            for (k = r; k < 3; ++k) {
                double v = RI[3 * r] * R[3 * k] + RI[3 * r + 1] * R[3 * k + 1] +
                           RI[3 * r + 2] * R[3 * k + 2];
                w->Icw[9 * i + 3 * r + k] = w->Icw[9 * i + 3 * k + r] = v;
                Ib[4 + 3 * r + k] = Ib[4 + 3 * k + r] =
                    v + mass * ((r == k ? cc : 0.0) - c[r] * c[k]);
            }
        }
    }
}

/* The RNEA's forward and backward passes (eq. D3-D5) on the geometry of pass_geometry:
 * v, a (with the fictitious gravity acceleration of the base), own forces summed into the
 * composite forces F. With `composite`, also the composite inertias IC, rates BC and
 * momenta hC that the CRBA and the derivatives need. */
static void pass_rnea(PlnDynWork *w, const PlnDynState *s,
                      const double *gravity, int composite)
{
    double vb[6] = {0}, ab[6] = {0};
    int i, k;
    if (s->nu != NULL) memcpy(vb, s->nu, sizeof vb);
    if (s->nudot != NULL) memcpy(ab, s->nudot, sizeof ab);
    /* gravity as an upward acceleration of the base (RBDA ch. 5) */
    if (gravity != NULL) {
        ab[3] -= gravity[0];
        ab[4] -= gravity[1];
        ab[5] -= gravity[2];
    }
    /* forward: v_i = v_p + S qd, a_i = a_p + S qdd + v_i x S qd (eq. D4) */
    for (i = 0; i < w->n_links; ++i) {
        int par = w->parent[i], j = w->dof[i];
        const double *vp = par < 0 ? vb : w->v + 6 * par;
        const double *ap = par < 0 ? ab : w->a + 6 * par;
        const double *S = w->S + 6 * i, *Ib = w->Ib + IN * i;
        double v[6], a[6], f[6], Iv[6], t[6]; /* local, then stored: no aliasing */
        if (j >= 0) {
            double qd = s->nu != NULL ? s->nu[6 + j] : 0.0;
            double qdd = s->nudot != NULL ? s->nudot[6 + j] : 0.0;
            double Sq[6];
            for (k = 0; k < 6; ++k) {
                Sq[k] = S[k] * qd;
                v[k] = vp[k] + Sq[k];
            }
            crm(v, Sq, t);
            for (k = 0; k < 6; ++k) a[k] = ap[k] + S[k] * qdd + t[k];
        } else {
            memcpy(v, vp, 6 * sizeof(double));
            memcpy(a, ap, 6 * sizeof(double));
        }
        /* f = I a + v x* I v (eq. D5) */
        in_apply(Ib, a, f);
        in_apply(Ib, v, Iv);
        crf(v, Iv, t);
        for (k = 0; k < 6; ++k) f[k] += t[k];
        memcpy(w->v + 6 * i, v, sizeof v);
        memcpy(w->a + 6 * i, a, sizeof a);
        memcpy(w->F + 6 * i, f, sizeof f);
        if (composite) {
            double *IC = w->IC + IN * i, *B = w->BC + BN * i, *h = w->hC + 6 * i;
            const double *om = v, *vo = v + 3, *hh = Ib + 1, *Icw = w->Icw + 9 * i;
            double im = w->invm[i], hhd, X[9];
            int r;
            memcpy(IC, Ib, IN * sizeof(double));
            memcpy(h, Iv, 6 * sizeof(double));
            /* the rate of the inertia (eq. D9): h' = m (v_O + w x c) = m v_O + w x h,
             * Ibar' = [w]x Icw - Icw [w]x + m (2 (c.c') 1 - c' c^T - c c'^T), the last
             * term written with h = m c, h' = m c': (2 (h.h') 1 - h' h^T - h h'^T) / m
             * (zero for a massless link, whose h and h' are zero) */
            cross3(om, hh, B);
            B[0] += Ib[0] * vo[0];
            B[1] += Ib[0] * vo[1];
            B[2] += Ib[0] * vo[2];
            hhd = 2.0 * dot3(hh, B);
            /* [w]x Icw - Icw [w]x = X + X^T with X = [w]x Icw (Icw symmetric, so
             * Icw [w]x = -([w]x Icw)^T) */
            for (r = 0; r < 3; ++r) {
                double col[3] = {Icw[r], Icw[3 + r], Icw[6 + r]}, t3[3];
                cross3(om, col, t3);
                X[r] = t3[0];
                X[3 + r] = t3[1];
                X[6 + r] = t3[2];
            }
            for (r = 0; r < 3; ++r) {
                int kk;
                for (kk = 0; kk < 3; ++kk) {
                    B[3 + 3 * r + kk] = X[3 * r + kk] + X[3 * kk + r] +
                                        im * ((r == kk ? hhd : 0.0) - B[r] * hh[kk] -
                                              hh[r] * B[kk]);
                }
            }
        }
    }
    /* backward: F_p += F_i, and the composites (eq. D5, D8) */
    for (i = w->n_links - 1; i > 0; --i) {
        int par = w->parent[i];
        if (par < 0) continue;
        for (k = 0; k < 6; ++k) w->F[6 * par + k] += w->F[6 * i + k];
        if (composite) {
            for (k = 0; k < IN; ++k) w->IC[IN * par + k] += w->IC[IN * i + k];
            for (k = 0; k < BN; ++k) w->BC[BN * par + k] += w->BC[BN * i + k];
            for (k = 0; k < 6; ++k) w->hC[6 * par + k] += w->hC[6 * i + k];
        }
    }
}

/* fixed joints: a decoupled unit inertia, tau = nudot on their rows (dynamics.md, "Fixed
 * joints") */
static void fixed_joint_rows(const PlnDynWork *w, const PlnDynState *s, double *tau)
{
    int i;
    if (!w->any_fixed) return;
    for (i = 0; i < w->n_joints; ++i) {
        if (w->fixed[i]) tau[6 + i] = s->nudot != NULL ? s->nudot[6 + i] : 0.0;
    }
}

/* tau from the composite forces: tau_j = S_j . F_i, base = the sum of the roots' F */
static void gather_tau(const PlnDynWork *w, const PlnDynState *s,
                       double *tau)
{
    int i, k;
    memset(tau, 0, (size_t)w->nv * sizeof(double));
    for (i = 0; i < w->n_links; ++i) {
        if (w->parent[i] < 0) {
            for (k = 0; k < 6; ++k) tau[k] += w->F[6 * i + k];
        }
        if (w->dof[i] >= 0) tau[6 + w->dof[i]] = dot6(w->S + 6 * i, w->F + 6 * i);
    }
    fixed_joint_rows(w, s, tau);
}

/* The force a link needs, f = I a + v x* I v, in its own frame from its mass m, centre of
 * mass c and rotational inertia Ic about c (eq. D30): f = m (a_O + w x v_O + al x c +
 * w x (w x c)), n_O = Ic al + w x Ic w + c x f. diag: Ic is diagonal. */
static inline void link_force(double m, const double *c, const double *Ic, int diag,
                              const double *v, const double *a, double *f)
{
    double u[3], t[3], ac[3], Iw[3], Ia[3];
    int k;
    cross3(v, v + 3, ac);
    cross3(a, c, t);
    cross3(v, c, u);
    for (k = 0; k < 3; ++k) ac[k] += a[3 + k] + t[k];
    cross3(v, u, t);
    for (k = 0; k < 3; ++k) f[3 + k] = m * (ac[k] + t[k]);
    if (diag) {
        for (k = 0; k < 3; ++k) {
            Iw[k] = Ic[4 * k] * v[k];
            Ia[k] = Ic[4 * k] * a[k];
        }
    } else {
        mv3(Ic, v, Iw);
        mv3(Ic, a, Ia);
    }
    cross3(v, Iw, t);
    cross3(c, f + 3, u);
    for (k = 0; k < 3; ++k) f[k] = Ia[k] + t[k] + u[k];
}

/* the base's velocity v0 and acceleration a0 in its own coordinates, X_0 = (R_b^T, p_b),
 * with gravity as an upward acceleration of the base (RBDA ch. 5); Eb = R_b^T */
static void base_motion(const PlnDynState *s, const double *gravity, const double Eb[9],
                        double v0[6], double a0[6])
{
    double vw[6] = {0}, aw[6] = {0};
    if (s->nu != NULL) memcpy(vw, s->nu, sizeof vw);
    if (s->nudot != NULL) memcpy(aw, s->nudot, sizeof aw);
    if (gravity != NULL) {
        aw[3] -= gravity[0];
        aw[4] -= gravity[1];
        aw[5] -= gravity[2];
    }
    xf_motion(-1, 0, Eb, s->base_pos, vw, v0);
    xf_motion(-1, 0, Eb, s->base_pos, aw, a0);
}

/* The RNEA in link coordinates (eq. D28-D30, RBDA Table 5.1): the base frame's motion from
 * the world's by X_0, every link's from its parent's by its joint transform, the link's
 * force from its constant inertia, forces back to the parent by X^T and the base's to the
 * world at O. No world kinematics and no world inertias: pln_dyn_rnea alone. */
static void pass_rnea_link(PlnDynWork *w, const PlnDynState *s,
                           const double *gravity, double *tau)
{
    const double *Rb = s->base_rot, *pb = s->base_pos, *nu = s->nu, *nudot = s->nudot;
    double Eb[9] = {Rb[0], Rb[3], Rb[6], Rb[1], Rb[4], Rb[7], Rb[2], Rb[5], Rb[8]};
    double v0[6], a0[6], F0[6] = {0}, n[3], f[3], t[3];
    int i, k;
    joint_transforms(w, s->q);
    base_motion(s, gravity, Eb, v0, a0);
    /* forward (eq. D29): v_i = X_i v_p + S_i qd, a_i = X_i a_p + S_i qdd + v_i x S_i qd,
     * f_i = I_i a_i + v_i x* I_i v_i (eq. D30) */
    for (i = 0; i < w->n_links; ++i) {
        const double *C = w->lc + LC * i, *ax = C + LC_AX, *E = w->lx + 12 * i;
        int par = w->parent[i], j = w->dof[i], mv = w->move[i], rk = w->rax[i];
        int rz = w->rzero[i];
        const double *vp = par < 0 ? v0 : w->vl + 6 * par;
        const double *ap = par < 0 ? a0 : w->al + 6 * par;
        double v[6], a[6]; /* local, then stored: no aliasing with the arrays read */
        xf_motion(rk, rz, E, E + 9, vp, v);
        xf_motion(rk, rz, E, E + 9, ap, a);
        if (mv == LINK_REVOLUTE && rk >= 0) {
            /* S = [+-e_k; 0]: v_k += +-qd, and v x S qd = +-qd [w x e_k; v_O x e_k] with
             * (w x e_k)_k1 = w_k2, (w x e_k)_k2 = -w_k1 ((k, k1, k2) cyclic) */
            static const int K1[3] = {1, 2, 0}, K2[3] = {2, 0, 1};
            int k1 = K1[rk], k2 = K2[rk];
            double wq = nu != NULL ? C[LC_SG] * nu[6 + j] : 0.0;
            v[rk] += wq;
            a[rk] += nudot != NULL ? C[LC_SG] * nudot[6 + j] : 0.0;
            a[k1] += v[k2] * wq;
            a[k2] -= v[k1] * wq;
            a[3 + k1] += v[3 + k2] * wq;
            a[3 + k2] -= v[3 + k1] * wq;
        } else if (mv != LINK_STILL) {
            double qd = nu != NULL ? nu[6 + j] : 0.0;
            double qdd = nudot != NULL ? nudot[6 + j] : 0.0;
            double sq3[3] = {ax[0] * qd, ax[1] * qd, ax[2] * qd};
            /* revolute S = [a; 0]: v x S qd = [w x a qd; v_O x a qd]; prismatic S = [0; a]:
             * [0; w x a qd] */
            int off = mv == LINK_REVOLUTE ? 0 : 3;
            for (k = 0; k < 3; ++k) v[off + k] += sq3[k];
            cross3(v, sq3, t);
            for (k = 0; k < 3; ++k) a[off + k] += ax[k] * qdd + t[k];
            if (mv == LINK_REVOLUTE) {
                cross3(v + 3, sq3, t);
                for (k = 0; k < 3; ++k) a[3 + k] += t[k];
            }
        }
        link_force(C[LC_M], C + LC_C, C + LC_IC, w->ic_diag[i], v, a, w->fl + 6 * i);
        memcpy(w->vl + 6 * i, v, sizeof v);
        memcpy(w->al + 6 * i, a, sizeof a);
    }
    /* backward: tau_i = S_i . f_i, f_p += X_i^T f_i, the base's force F_0 (eq. D29) */
    for (i = w->n_links - 1; i >= 0; --i) {
        const double *E = w->lx + 12 * i, *fi = w->fl + 6 * i, *ax = w->lc + LC * i + LC_AX;
        int par = w->parent[i];
        if (w->move[i] == LINK_REVOLUTE) tau[6 + w->dof[i]] = dot3(ax, fi);
        else if (w->move[i] == LINK_PRISMATIC) tau[6 + w->dof[i]] = dot3(ax, fi + 3);
        xf_force_add(w->rax[i], w->rzero[i], E, E + 9, fi, par < 0 ? F0 : w->fl + 6 * par);
    }
    /* the base's row in the world at O: X_0^T F_0 = [R_b n + p_b x R_b f; R_b f] */
    mv3(Rb, F0, n);
    mv3(Rb, F0 + 3, f);
    cross3(pb, f, t);
    for (k = 0; k < 3; ++k) {
        tau[k] = n[k] + t[k];
        tau[3 + k] = f[k];
    }
    fixed_joint_rows(w, s, tau);
}

/* GL doubles, one per lane: the same operation on GL links at once (eq. D32) */
typedef double DynV __attribute__((vector_size(GL * sizeof(double))));

/* (vectors pass by pointer: by value they would take another calling convention in a
 * build without wide registers, which -Wpsabi reports) */
static inline void dv_load(DynV *x, const double *p)
{
    memcpy(x, p, sizeof *x);
}

static inline void dv_store(double *p, const DynV *x)
{
    memcpy(p, x, sizeof *x);
}

/* the lanes of x from p[idx[0]], ..., p[idx[GL - 1]] */
static inline void dv_gather(DynV *x, const double *p, const int *idx)
{
    double t[GL];
    int l;
    for (l = 0; l < GL; ++l) t[l] = p[idx[l]];
    memcpy(x, t, sizeof t);
}

/* o = a x b, lane by lane */
static inline void dv_cross(const DynV *a, const DynV *b, DynV *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* a parent's motion vector [x_w; x_v] in a link's turned frame: X x = [E x_w; E (x_v - r x
 * x_w)], E the turn (c, s) about z (eq. D28) */
static inline void dv_motion(const DynV *r, DynV c, DynV sn, const DynV *xw, const DynV *xv,
                             DynV *o)
{
    DynV t[3];
    dv_cross(r, xw, t);
    for (int k = 0; k < 3; ++k) t[k] = xv[k] - t[k];
    o[0] = c * xw[0] + sn * xw[1];
    o[1] = c * xw[1] - sn * xw[0];
    o[2] = xw[2];
    o[3] = c * t[0] + sn * t[1];
    o[4] = c * t[1] - sn * t[0];
    o[5] = t[2];
}

/* The RNEA of pass_rnea_link in turned link coordinates (eq. D32), for a model whose
 * links are all still or revolute about +-e_k with O = 1 (w->turned): every joint turns
 * about the third coordinate, so a link's transform is a relabelling of its parent's
 * coordinates (read straight from the parent's vectors, w->gsrc) and a turn about z, the
 * same straight-line code for every link: GL links, none the parent of another, run at
 * once, one in each lane. The same products and sums as pass_rnea_link, relabelled (the
 * cross product commutes with a cyclic shift; a diagonal Ic multiplied in full adds
 * zeros); the inertia products of a link whose Ic is not diagonal sum in another order. */
static void pass_rnea_turned(PlnDynWork *w, const PlnDynState *s,
                             const double *gravity, double *tau)
{
    const double *Rb = s->base_rot, *pb = s->base_pos, *nu = s->nu, *nudot = s->nudot;
    double Eb[9] = {Rb[0], Rb[3], Rb[6], Rb[1], Rb[4], Rb[7], Rb[2], Rb[5], Rb[8]};
    double v0[6], a0[6], nb[3], fb[3], t[3];
    double *base = w->gs + w->n_groups * 12 * GL, F0[6];
    int k, g, l;
    /* the sines and cosines, four at a time over the padded angles (eq. D33); the joints'
     * rates, 0 for NULL (q is NULL when there is no joint) */
    if (w->n_joints > 0) {
        const size_t bytes = (size_t)w->n_joints * sizeof(double);
        memcpy(w->q4, s->q, bytes);
        pln_dyn_sincos(w->nj4, w->q4, w->sq, w->cq);
        if (nu != NULL) memcpy(w->qd, nu + 6, bytes);
        else memset(w->qd, 0, bytes);
        if (nudot != NULL) memcpy(w->qdd, nudot + 6, bytes);
        else memset(w->qdd, 0, bytes);
    }
    /* the base frame's motion, lane 0 of the base's group */
    base_motion(s, gravity, Eb, v0, a0);
    for (k = 0; k < 6; ++k) {
        base[k * GL] = v0[k];
        base[(6 + k) * GL] = a0[k];
    }
    /* forward (eq. D29, D32): x = the parent's v, a relabelled, v = Rz [x_w; x_v - r x
     * x_w] + S qd, a likewise + S qdd + v x S qd; the link's force (eq. D30) */
    for (g = 0; g < w->n_groups; ++g) {
        const double *Z = w->gz + g * LZ * GL;
        const int *src = w->gsrc + 3 * g * GL;
        double *o = w->gs + g * 12 * GL, *of = w->gf + g * 6 * GL;
        DynV r[3], cm[3], X[3], L[3], XA[3], LA[3], T[3], V[6], A[6], U[3], W[3], F[3], N[3];
        DynV c, sn, wq, sq, qdd, m, sg, Ic[9], NF;
        dv_load(&m, Z + LZ_M * GL);
        dv_load(&sg, Z + LZ_SG * GL);
        dv_gather(&c, w->cq, w->gdof + g * GL);
        dv_gather(&sq, w->sq, w->gdof + g * GL);
        dv_gather(&wq, w->qd, w->gdof + g * GL);
        dv_gather(&qdd, w->qdd, w->gdof + g * GL);
        sn = sg * sq;
        wq = sg * wq;
        for (k = 0; k < 3; ++k) {
            dv_load(r + k, Z + (LZ_R + k) * GL);
            dv_load(cm + k, Z + (LZ_C + k) * GL);
            dv_gather(X + k, w->gs, src + k * GL);
            dv_gather(L + k, w->gs + 3 * GL, src + k * GL);
            dv_gather(XA + k, w->gs + 6 * GL, src + k * GL);
            dv_gather(LA + k, w->gs + 9 * GL, src + k * GL);
        }
        for (k = 0; k < 9; ++k) dv_load(Ic + k, Z + (LZ_IC + k) * GL);
        dv_motion(r, c, sn, X, L, V);
        dv_motion(r, c, sn, XA, LA, A);
        /* S = [+-e_z; 0]: v_z += +-qd, v x S qd = +-qd [w x e_z; v_O x e_z] (eq. D29) */
        V[2] += wq;
        A[2] += sg * qdd;
        A[0] += V[1] * wq;
        A[1] -= V[0] * wq;
        A[3] += V[4] * wq;
        A[4] -= V[3] * wq;
        for (k = 0; k < 6; ++k) {
            dv_store(o + k * GL, V + k);
            dv_store(o + (6 + k) * GL, A + k);
        }
        /* the link's force (eq. D30, link_force): f = m (a_O + w x v_O + al x c +
         * w x (w x c)), n = Ic al + w x Ic w + c x f */
        dv_cross(V, V + 3, W);
        dv_cross(A, cm, T);
        dv_cross(V, cm, U);
        for (k = 0; k < 3; ++k) W[k] += A[3 + k] + T[k];
        dv_cross(V, U, T);
        for (k = 0; k < 3; ++k) F[k] = m * (W[k] + T[k]);
        for (k = 0; k < 3; ++k) {
            U[k] = Ic[3 * k] * V[0] + Ic[3 * k + 1] * V[1] + Ic[3 * k + 2] * V[2];
            N[k] = Ic[3 * k] * A[0] + Ic[3 * k + 1] * A[1] + Ic[3 * k + 2] * A[2];
        }
        dv_cross(V, U, T);
        dv_cross(cm, F, U);
        for (k = 0; k < 3; ++k) {
            NF = N[k] + T[k] + U[k];
            dv_store(of + k * GL, &NF);
            dv_store(of + (3 + k) * GL, F + k);
        }
        dv_store(w->gcs + 2 * g * GL, &c);
        dv_store(w->gcs + (2 * g + 1) * GL, &sn);
    }
    /* backward (eq. D29, D32), groups in the reverse of the forward order: F = the link's
     * own f plus its children's X^T F (gathered at the relabelled coordinates, in
     * decreasing index, as pass_rnea_link adds them); tau_i = +-n_z;
     * X^T F = [E^T n + r x E^T f; E^T f] */
    for (g = w->n_groups - 1; g >= 0; --g) {
        const double *Z = w->gz + g * LZ * GL, *of = w->gf + g * 6 * GL;
        const int *jd = w->gdof + g * GL;
        double *oc = w->gc + g * 6 * GL;
        DynV c, sn, sg, n[3], f[3], r[3], M[3], G[3], T[3], H;
        int slot;
        dv_load(&c, w->gcs + 2 * g * GL);
        dv_load(&sn, w->gcs + (2 * g + 1) * GL);
        dv_load(&sg, Z + LZ_SG * GL);
        for (k = 0; k < 3; ++k) {
            dv_load(n + k, of + k * GL);
            dv_load(f + k, of + (3 + k) * GL);
            dv_load(r + k, Z + (LZ_R + k) * GL);
        }
        for (slot = w->gchs[g]; slot < w->gchs[g + 1]; ++slot) {
            for (k = 0; k < 3; ++k) {
                dv_gather(&H, w->gc, w->gch + (3 * slot + k) * GL);
                n[k] += H;
                dv_gather(&H, w->gc + 3 * GL, w->gch + (3 * slot + k) * GL);
                f[k] += H;
            }
        }
        H = sg * n[2];
        for (l = 0; l < GL; ++l) {
            if (jd[l] < w->n_joints) tau[6 + jd[l]] = H[l];
        }
        M[0] = c * n[0] - sn * n[1];
        M[1] = c * n[1] + sn * n[0];
        M[2] = n[2];
        G[0] = c * f[0] - sn * f[1];
        G[1] = c * f[1] + sn * f[0];
        G[2] = f[2];
        dv_cross(r, G, T);
        for (k = 0; k < 3; ++k) {
            M[k] = M[k] + T[k];
            dv_store(oc + k * GL, M + k);
            dv_store(oc + (3 + k) * GL, G + k);
        }
    }
    /* the base's force F_0: the root's X^T F (group 0, lane 0) at the base frame's
     * coordinates, plus zero as in pass_rnea_link */
    {
        const int root = w->glink[0], *ix = w->zix + 3 * root;
        for (k = 0; k < 3; ++k) {
            F0[ix[k]] = 0.0 + w->gc[k * GL];
            F0[3 + ix[k]] = 0.0 + w->gc[(3 + k) * GL];
        }
    }
    /* the base's row in the world at O: X_0^T F_0 = [R_b n + p_b x R_b f; R_b f] */
    mv3(Rb, F0, nb);
    mv3(Rb, F0 + 3, fb);
    cross3(pb, fb, t);
    for (k = 0; k < 3; ++k) {
        tau[k] = nb[k] + t[k];
        tau[3 + k] = fb[k];
    }
    fixed_joint_rows(w, s, tau);
}

/* Inverse dynamics in link coordinates (eq. D28-D29); the same tau as eq. D3-D5, which
 * the derivatives, the CRBA and forward dynamics evaluate in world coordinates. */
PlnStatus pln_dyn_rnea(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                       const double *gravity, double *tau)
{
    if (w == NULL || robot == NULL || tau == NULL || !state_ok(w, s)) return PLN_ERR_INVALID;
    if (gravity != NULL && !all_finite(gravity, 3)) return PLN_ERR_INVALID;
    if (w->turned) pass_rnea_turned(w, s, gravity, tau);
    else pass_rnea_link(w, s, gravity, tau);
    return PLN_OK;
}

/* composite inertias alone (the CRBA needs no velocities) */
static void pass_composite_inertia(PlnDynWork *w)
{
    int i, k;
    memcpy(w->IC, w->Ib, (size_t)w->n_links * IN * sizeof(double));
    for (i = w->n_links - 1; i > 0; --i) {
        int par = w->parent[i];
        if (par < 0) continue;
        for (k = 0; k < IN; ++k) w->IC[IN * par + k] += w->IC[IN * i + k];
    }
}

/* CRBA on the composites (eq. D12): M_bb = IC_root, M_b,i = IC_i S_i, M_ij = S_j . IC_i S_i
 * for joint j on the path from link i to the root. */
static void fill_mass_matrix(PlnDynWork *w, double *M)
{
    int nv = w->nv, i, r, c;
    memset(M, 0, (size_t)nv * (size_t)nv * sizeof(double));
    for (i = 0; i < w->n_links; ++i) {
        if (w->parent[i] < 0) {
            /* the base block: IC of the root as a 6x6 matrix, column by column */
            for (c = 0; c < 6; ++c) {
                double e[6] = {0}, col[6];
                e[c] = 1.0;
                in_apply(w->IC + IN * i, e, col);
                for (r = 0; r < 6; ++r) M[r * nv + c] += col[r];
            }
        }
    }
    for (i = 0; i < w->n_links; ++i) {
        int j = w->dof[i], k;
        double Fi[6];
        if (j < 0) continue;
        in_apply(w->IC + IN * i, w->S + 6 * i, Fi);
        M[(6 + j) * nv + 6 + j] = dot6(w->S + 6 * i, Fi);
        for (k = w->parent[i]; k >= 0; k = w->parent[k]) {
            int jk = w->dof[k];
            if (jk < 0) continue;
            M[(6 + jk) * nv + 6 + j] = M[(6 + j) * nv + 6 + jk] = dot6(w->S + 6 * k, Fi);
        }
        for (r = 0; r < 6; ++r) M[r * nv + 6 + j] = M[(6 + j) * nv + r] = Fi[r];
    }
    for (i = 0; i < w->n_joints; ++i) {
        if (w->fixed[i]) M[(6 + i) * nv + 6 + i] = 1.0;
    }
}

PlnStatus pln_dyn_crba(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s, double *M)
{
    PlnDynState g;
    if (w == NULL || robot == NULL || M == NULL || s == NULL) return PLN_ERR_INVALID;
    g = *s;
    g.nu = g.nudot = NULL;
    if (!state_ok(w, &g)) return PLN_ERR_INVALID;
    pass_geometry(w, &g);
    pass_composite_inertia(w);
    fill_mass_matrix(w, M);
    return PLN_OK;
}

/* Forward dynamics: M nudot = tau - bias, Cholesky by LAPACKE (eq. D14). */
PlnStatus pln_dyn_forward(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                          const double *tau, const double *gravity, double *nudot, char *err,
                          size_t err_size)
{
    PlnDynState b;
    lapack_int info;
    int nv, i;
    if (w == NULL || robot == NULL || s == NULL || tau == NULL || nudot == NULL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "pln_dyn_forward: NULL argument");
    }
    nv = w->nv;
    if (!all_finite(tau, nv) || (gravity != NULL && !all_finite(gravity, 3))) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "pln_dyn_forward: non-finite input");
    }
    b = *s;
    b.nudot = NULL;
    if (!state_ok(w, &b)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "pln_dyn_forward: bad state");
    }
    /* bias C nu - g by the RNEA with nudot = 0, and M from the same geometry */
    pass_geometry(w, &b);
    pass_rnea(w, &b, gravity, 0);
    gather_tau(w, &b, w->rhs);
    for (i = 0; i < nv; ++i) w->rhs[i] = tau[i] - w->rhs[i];
    pass_composite_inertia(w);
    fill_mass_matrix(w, w->Mf);
    /* M is symmetric: row- and column-major storage are the same matrix */
    info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', nv, w->Mf, nv);
    if (info != 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "pln_dyn_forward: mass matrix not positive definite at coordinate %d "
                          "(a moving part without mass?)",
                          (int)info - 1);
    }
    info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', nv, 1, w->Mf, nv, w->rhs, nv);
    if (info != 0) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "pln_dyn_forward: dpotrs info %d",
                          (int)info);
    }
    memcpy(nudot, w->rhs, (size_t)nv * sizeof(double));
    return PLN_OK;
}

/* One column of the derivatives (eq. D7-D11): a configuration direction S (a joint's
 * motion subspace, or a unit screw of the base) acting on the subtree of link r whose
 * parent moves with (vp, ap); kq = 2 for a joint (its own velocity-product term), 1 for the
 * base. Rows: joints in the subtree (eq. D10), joints above r and the base (eq. D11). */
static void derivative_column(const PlnDynWork *w, int r, const double *S,
                              const double *vp, const double *ap, double kq, int col,
                              int subtree, double *dq, double *dnu)
{
    int nv = w->nv, i, k, last;
    double wv[6], y[6], t[6], u[6], Tr[6], Dr[6], SF[6], cq[12], cv[12];
    /* w = S x v_p, y = S x a_p - w x v_p (eq. D7) */
    crm(S, vp, wv);
    crm(S, ap, y);
    crm(wv, vp, t);
    for (k = 0; k < 6; ++k) y[k] -= t[k];
    /* the row vectors [r1; r4] meet cq = -[y; w] and cv = [-kq w; S] (eq. D10) */
    for (k = 0; k < 6; ++k) {
        cq[k] = -y[k];
        cq[6 + k] = -wv[k];
        cv[k] = -kq * wv[k];
        cv[6 + k] = S[k];
    }
    /* rows of the subtree of r (unless the caller fills them, as for the base) */
    last = subtree ? w->last[r] : -1;
    for (k = w->pos[r]; k <= last; ++k) {
        int i = w->order[k], j = w->dof[i];
        if (j < 0) continue;
        /* dtau_i/dq = -(r1 . y + r4 . w), dtau_i/dnu = r4 . S - kq r1 . w (eq. D10) */
        dq[(6 + j) * nv + col] = dot12(w->rr + 12 * k, cq);
        if (dnu != NULL) dnu[(6 + j) * nv + col] = dot12(w->rr + 12 * k, cv);
    }
    /* T_r = IC y + BC w + w x* hC, D_r = BC S - kq IC w + S x* hC (eq. D8, D11) */
    in_apply(w->IC + IN * r, y, Tr);
    bn_apply(w->BC + BN * r, wv, t);
    crf(wv, w->hC + 6 * r, u);
    for (k = 0; k < 6; ++k) Tr[k] += t[k] + u[k];
    crf(S, w->F + 6 * r, SF);
    for (k = 0; k < 6; ++k) SF[k] -= Tr[k];
    bn_apply(w->BC + BN * r, S, Dr);
    in_apply(w->IC + IN * r, wv, t);
    crf(S, w->hC + 6 * r, u);
    for (k = 0; k < 6; ++k) Dr[k] += u[k] - kq * t[k];
    /* joints above r, then the base rows (S_base = identity) */
    for (i = w->parent[r]; i >= 0; i = w->parent[i]) {
        int j = w->dof[i];
        if (j < 0) continue;
        dq[(6 + j) * nv + col] = dot6(w->S + 6 * i, SF);
        if (dnu != NULL) dnu[(6 + j) * nv + col] = dot6(w->S + 6 * i, Dr);
    }
    for (k = 0; k < 6; ++k) {
        dq[k * nv + col] = SF[k];
        if (dnu != NULL) dnu[k * nv + col] = Dr[k];
    }
}

/* Analytic derivatives of the RNEA (docs/math/dynamics.md eq. D6-D11). */
PlnStatus pln_dyn_rnea_derivatives(PlnDynWork *w, const PlnRobot *robot,
                                   const PlnDynState *s, const double *gravity, double *tau,
                                   double *dtau_dq, double *dtau_dnu, double *M)
{
    double vb[6] = {0}, ab[6] = {0};
    int nv, i, k;
    if (w == NULL || robot == NULL || dtau_dq == NULL || !state_ok(w, s)) return PLN_ERR_INVALID;
    if (gravity != NULL && !all_finite(gravity, 3)) return PLN_ERR_INVALID;
    nv = w->nv;
    pass_geometry(w, s);
    pass_rnea(w, s, gravity, 1);
    if (tau != NULL) gather_tau(w, s, tau);
    if (M != NULL) fill_mass_matrix(w, M);
    memset(dtau_dq, 0, (size_t)nv * (size_t)nv * sizeof(double));
    if (dtau_dnu != NULL) memset(dtau_dnu, 0, (size_t)nv * (size_t)nv * sizeof(double));
    /* per link, by position in the preorder: r1 = IC S, r4 = BC S - S x* hC (eq. D10) */
    for (i = 0; i < w->n_links; ++i) {
        double t[6];
        if (w->dof[i] < 0) continue;
        double *r1 = w->rr + 12 * w->pos[i], *r4 = r1 + 6;
        in_apply(w->IC + IN * i, w->S + 6 * i, r1);
        bn_apply(w->BC + BN * i, w->S + 6 * i, r4);
        crf(w->S + 6 * i, w->hC + 6 * i, t);
        for (k = 0; k < 6; ++k) r4[k] -= t[k];
    }
    if (s->nu != NULL) memcpy(vb, s->nu, sizeof vb);
    if (s->nudot != NULL) memcpy(ab, s->nudot, sizeof ab);
    if (gravity != NULL) {
        ab[3] -= gravity[0];
        ab[4] -= gravity[1];
        ab[5] -= gravity[2];
    }
    /* the base's six screws act on every root's subtree, seen from the base: the base
     * rows by D11, the joint rows of all six columns at once (eq. D10b: D10 with S = e_c):
     * with g = v_b x* r1, dtau_i/dnu_c = (r4 - g)_c and
     * dtau_i/dq_c = -(a_b x* r1 + v_b x* (r4 - g))_c */
    for (i = 0; i < w->n_links; ++i) {
        int c;
        if (w->parent[i] >= 0) continue;
        for (c = 0; c < 6; ++c) {
            double e[6] = {0};
            e[c] = 1.0;
            derivative_column(w, i, e, vb, ab, 1.0, c, 0, dtau_dq, dtau_dnu);
        }
        for (k = w->pos[i]; k <= w->last[i]; ++k) {
            const double *r1 = w->rr + 12 * k, *r4 = r1 + 6;
            double g[6], u[6], t[6];
            int j = w->dof[w->order[k]];
            if (j < 0) continue;
            crf(vb, r1, g);
            for (c = 0; c < 6; ++c) u[c] = r4[c] - g[c];
            crf(ab, r1, g);
            crf(vb, u, t);
            for (c = 0; c < 6; ++c) {
                dtau_dq[(6 + j) * nv + c] = -(g[c] + t[c]);
                if (dtau_dnu != NULL) dtau_dnu[(6 + j) * nv + c] = u[c];
            }
        }
    }
    /* each joint on its own subtree, seen from its parent */
    for (i = 0; i < w->n_links; ++i) {
        int j = w->dof[i], par = w->parent[i];
        if (j < 0) continue;
        derivative_column(w, i, w->S + 6 * i, par < 0 ? vb : w->v + 6 * par,
                          par < 0 ? ab : w->a + 6 * par, 2.0, 6 + j, 1, dtau_dq, dtau_dnu);
    }
    return PLN_OK;
}

/* Centroidal momentum and its rate (eq. D13). */
PlnStatus pln_dyn_centroidal(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                             double com[3], double h[6], double hdot[6])
{
    double H[6] = {0}, F[6] = {0}, m = 0.0, mc[3] = {0}, t[3];
    int i, k;
    if (w == NULL || robot == NULL || com == NULL || !state_ok(w, s)) return PLN_ERR_INVALID;
    if (!(w->mass > 0.0)) return PLN_ERR_INVALID;
    pass_geometry(w, s);
    pass_rnea(w, s, NULL, 1);
    for (i = 0; i < w->n_links; ++i) {
        if (w->parent[i] >= 0) continue;
        m += w->IC[IN * i];
        for (k = 0; k < 3; ++k) mc[k] += w->IC[IN * i + 1 + k];
        for (k = 0; k < 6; ++k) {
            H[k] += w->hC[6 * i + k];
            F[k] += w->F[6 * i + k];
        }
    }
    for (k = 0; k < 3; ++k) com[k] = mc[k] / m;
    /* moved from the origin to the centre of mass: L_G = L_O - c x p */
    if (h != NULL) {
        cross3(com, H + 3, t);
        for (k = 0; k < 3; ++k) {
            h[k] = H[k] - t[k];
            h[3 + k] = H[3 + k];
        }
    }
    if (hdot != NULL) {
        cross3(com, F + 3, t);
        for (k = 0; k < 3; ++k) {
            hdot[k] = F[k] - t[k];
            hdot[3 + k] = F[3 + k];
        }
    }
    return PLN_OK;
}

/* Kinetic energy: 1/2 sum_i v_i . I_i v_i (eq. D15). */
PlnStatus pln_dyn_kinetic_energy(PlnDynWork *w, const PlnRobot *robot, const PlnDynState *s,
                                 double *energy)
{
    PlnDynState b;
    double e = 0.0;
    int i;
    if (w == NULL || robot == NULL || energy == NULL || s == NULL) return PLN_ERR_INVALID;
    b = *s;
    b.nudot = NULL;
    if (!state_ok(w, &b)) return PLN_ERR_INVALID;
    pass_geometry(w, &b);
    pass_rnea(w, &b, NULL, 0);
    for (i = 0; i < w->n_links; ++i) {
        double Iv[6];
        in_apply(w->Ib + IN * i, w->v + 6 * i, Iv);
        e += dot6(w->v + 6 * i, Iv);
    }
    *energy = 0.5 * e;
    return PLN_OK;
}
