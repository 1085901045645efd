/* pln_linkmotion.c — Taylor models of link motion over one span (pln_linkmotion.h).
 *
 * Per link i with parent P, joint frame O_i = origin_rot, K = [a]x of the joint axis,
 * Rodrigues' Rot(a, q) = (I + K^2) + sin q K - cos q K^2 (the formula of pln_kin.c), so
 *   R_i = R_P (O_i (I + K^2)) + sin q (R_P O_i K) + cos q (R_P (-O_i K^2))   (eq. 8.1)
 *   p_i = p_P + R_P o_i                                                       (eq. 8.2)
 * The three constant matrices are formed once at creation; a compute is 18 Taylor
 * products and linear combinations per moving link.
 *
 * Remainders are carried as norms, not entrywise (docs/math/taylor_models.md sec. 9):
 * the rotation of link i is R_poly(tau) + E with ||E||_2 <= eps_i, the position
 * p_poly(tau) + e with |e| <= rho_i. Composition multiplies the parent's error by the
 * spectral norm of a (near-)rotation, ~1, so the errors add along the chain instead of
 * growing geometrically as entrywise interval remainders would (the wrapping effect):
 *   eps_i = |trunc|_F + (nu_P + eps_P) eps_q + eps_P g_i                     (eq. 9.2)
 *   rho_i = rho_P + eps_P |o_i| + |trunc|                                    (eq. 9.3)
 * with g_i >= ||O_i Rot||_2, nu_P >= ||R_P,true||_2 from the model (eq. 9.1), and eps_q
 * the Frobenius bound of the joint rotation's own remainder.
 *
 * A prismatic link (Featherstone RBDA Table 4.1: a translation by q a) has R_i = R_P O_i,
 * as a fixed one, and p_i = p_P + R_P o_i + q (R_P w_i), w_i = O_i a (eq. 8.6): the joint's
 * Taylor model itself multiplies the polynomial R_P w_i, with the error of eq. (9.6). */
#include "motion/pln_linkmotion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/pln_kin.h"
#include "base/pln_tolerance.h"

/* exported DstPolyPoints hold every coefficient of a Taylor model */
_Static_assert(PLN_TM_MAX_DEGREE <= DST_MAX_DEGREE, "Taylor degree exceeds DstPolyPoint");

struct PlnLinkMotion {
    int n;                 /* Taylor degree */
    int n_links, n_joints;
    double mass_sum;       /* kg */
    int *parent;           /* [n_links] */
    int *active;           /* [n_links] revolute joint moving the link, -1 if none */
    int *slide;            /* [n_links] prismatic joint moving the link, -1 if none */
    double *w;             /* [n_links][4]: w_i = O_i a rounded, and its rounding bound */
    double *M;             /* [n_links][3][9]: O(I + K^2), O K, -O K^2 (fixed: O, 0, 0) */
    double *cst;           /* [n_links][6]: |M0 err|_F, |M1|_F, |M2|_F, g_i, nu_i, |o_i| */
    double *opos;          /* [n_links][3] origin_pos */
    double *com_local;     /* [n_links][3] link com in the link frame */
    double *mass;          /* [n_links] */
    double *eps;           /* [n_links] ||R_true - R_poly||_2 bound over the span */
    double *rho;           /* [n_links] |p_true - p_poly| bound over the span, m */
    double com_rho;        /* |com_true - com_poly| bound, m */
    double nu_base;        /* ||base_rot||_2 bound */
    PlnTaylor *R;          /* [n_links][9], remainders [-eps_i, eps_i] */
    PlnTaylor *p;          /* [n_links][3], remainders [-rho_i, rho_i] */
    PlnTaylor *qs, *qc;    /* [n_joints] sin q_j, cos q_j, re-centred (zero remainder) */
    double *ds, *dc;       /* [n_joints] radii of the sin and cos remainders */
    PlnTaylor *qt;         /* [n_joints] a prismatic joint's q with its remainder (m) */
    double *qabs;          /* [n_joints] bound of |q| of a prismatic joint over the span */
    PlnTaylor base_R[9], base_p[3];
    PlnTaylor com[3];
    unsigned long generation; /* computes started, so that memos can tell stale models */
    /* the inputs of the last complete compute, per joint: its coefficients (zero-padded
     * to PLN_TM_MAX_DEGREE + 1), its q_err (-1 for a NULL q_err) and the degree; memo_deg
     * < 0 when there is none. A link whose joint and ancestors got the same inputs again
     * keeps its models: chain_step would compute the same numbers from them */
    int memo_deg;
    double *memo_coef;     /* [n_joints][PLN_TM_MAX_DEGREE + 1] */
    double *memo_qerr;     /* [n_joints] */
    unsigned char *jdirty; /* [n_joints] the joint's input changed in this compute */
    unsigned char *ldirty; /* [n_links] the link's models are recomputed in this compute */
    unsigned long *stamp;  /* [n_links] generation of the compute that last made the link's models */
    int com_valid;         /* com and com_rho are those of the last compute (made on demand) */
};

enum { CST_M0ERR, CST_M1F, CST_M2F, CST_G, CST_NU, CST_ONORM, CST_COUNT };

/* rounding widening, as in pln_taylor.c (eq. 7.2) */
static inline double wid(double mag)
{
    return PLN_TM_ROUND_REL * mag + PLN_TM_ROUND_ABS;
}

/* x rounded up by the widening: for non-negative bounds built from a few roundings */
static inline double up(double x)
{
    return x + wid(x);
}

static double norm3(const double *v)
{
    return up(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
}

static double frob(const double *A, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; ++i) s += A[i] * A[i];
    return up(sqrt(s));
}

/* C = A B (row-major 3x3) and the matching |A| |B| for rounding bounds. */
static void mat_mul_abs(const double *A, const double *B, double *C, double *Cabs)
{
    int i, j, k;
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j) {
            double s = 0.0, a = 0.0;
            for (k = 0; k < 3; ++k) {
                s += A[3 * i + k] * B[3 * k + j];
                a += fabs(A[3 * i + k]) * fabs(B[3 * k + j]);
            }
            C[3 * i + j] = s;
            if (Cabs != NULL) Cabs[3 * i + j] = a;
        }
    }
}

/* upper bound of ||A||_2 for a near-orthonormal A: ||A||_2^2 <= 1 + ||A A^T - I||_2 <=
 * 1 + 3 max|A A^T - I| (eq. 9.1), the max rounded up. */
static double rot_norm_bound(const double *A)
{
    double e = 0.0;
    int i, j;
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j) {
            double d = A[3 * i] * A[3 * j] + A[3 * i + 1] * A[3 * j + 1] +
                       A[3 * i + 2] * A[3 * j + 2];
            e = fmax(e, fabs(d - (i == j ? 1.0 : 0.0)));
        }
    }
    e += wid(4.0);
    return up(sqrt(1.0 + 3.0 * e));
}

/* The constant matrices of eq. (8.1) for one link and their bounds (eq. 9.1):
 *   M0err: Frobenius norm of the rounding of M0 + s M1 + c M2 for |s|, |c| <= 1 (each
 *          entry below wid of the sum of |terms| through both products);
 *   g_i >= ||O Rot(a, q)||_2 for every q: ||O||_2 times max |eigenvalue| of Rot, which is
 *          normal, sqrt(1 + 4 |eta| (1 + |eta|)) with eta = |a|^2 - 1. */
static void link_constants(const PlnRobot *rb, int i, double *M, double *cst)
{
    const PlnLink *L = &rb->links[i];
    int j = L->joint, r;
    double K[9], K2[9], K2abs[9], Aabs[9], e[9], t[9], A[9], eta, grot;
    double gO = rot_norm_bound(L->origin_rot);
    cst[CST_ONORM] = norm3(L->origin_pos);
    if (j < 0 || rb->joints[j].type != PLN_JOINT_REVOLUTE) {
        memcpy(M, L->origin_rot, 9 * sizeof(double));
        memset(M + 9, 0, 18 * sizeof(double));
        cst[CST_M0ERR] = cst[CST_M1F] = cst[CST_M2F] = 0.0;
        cst[CST_G] = gO;
        return;
    }
    {
        const double *a = rb->joints[j].axis;
        double Kv[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
        memcpy(K, Kv, sizeof K);
        eta = fabs(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] - 1.0) + wid(2.0);
    }
    grot = up(sqrt(1.0 + 4.0 * eta * (1.0 + eta)));
    cst[CST_G] = up(gO * grot);
    mat_mul_abs(K, K, K2, K2abs);
    for (r = 0; r < 9; ++r) {
        A[r] = K2[r] + (r % 4 == 0 ? 1.0 : 0.0);
        Aabs[r] = K2abs[r] + (r % 4 == 0 ? 1.0 : 0.0);
    }
    mat_mul_abs(L->origin_rot, A, M, NULL);        /* M0 = O (I + K^2) */
    mat_mul_abs(L->origin_rot, Aabs, e, NULL);     /* |O| (I + |K||K|) */
    mat_mul_abs(L->origin_rot, K, M + 9, t);       /* M1 = O K, |O||K| */
    for (r = 0; r < 9; ++r) e[r] += t[r];
    mat_mul_abs(L->origin_rot, K2, t, NULL);       /* M2 = -O K^2 */
    for (r = 0; r < 9; ++r) M[18 + r] = -t[r];
    mat_mul_abs(L->origin_rot, K2abs, t, NULL);
    for (r = 0; r < 9; ++r) e[r] = wid(e[r] + t[r]);
    cst[CST_M0ERR] = frob(e, 9);
    cst[CST_M1F] = frob(M + 9, 9);
    cst[CST_M2F] = frob(M + 18, 9);
}

PlnStatus pln_linkmotion_create(const PlnRobot *robot, int tm_degree, PlnLinkMotion **out,
                                char *err, size_t err_size)
{
    PlnLinkMotion *lm;
    PlnStatus st;
    int i, nl, nj;
    size_t nja;
    if (out == NULL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "pln_linkmotion_create: NULL out");
    }
    *out = NULL;
    if (tm_degree < 1 || tm_degree > PLN_TM_MAX_DEGREE) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "taylor degree %d out of range 1..%d", tm_degree, PLN_TM_MAX_DEGREE);
    }
    st = pln_kin_validate(robot, err, err_size);
    if (st != PLN_OK) return st;
    nl = robot->n_links;
    nj = robot->n_joints;
    nja = (size_t)(nj > 0 ? nj : 1);
    lm = calloc(1, sizeof *lm);
    if (lm == NULL) goto nomem;
    lm->n = tm_degree;
    lm->n_links = nl;
    lm->n_joints = nj;
    lm->parent = malloc((size_t)nl * sizeof(int));
    lm->active = malloc((size_t)nl * sizeof(int));
    lm->M = malloc((size_t)nl * 27 * sizeof(double));
    lm->cst = malloc((size_t)nl * CST_COUNT * sizeof(double));
    lm->opos = malloc((size_t)nl * 3 * sizeof(double));
    lm->com_local = malloc((size_t)nl * 3 * sizeof(double));
    lm->mass = malloc((size_t)nl * sizeof(double));
    lm->eps = calloc((size_t)nl, sizeof(double));
    lm->rho = calloc((size_t)nl, sizeof(double));
    lm->R = calloc((size_t)nl * 9, sizeof(PlnTaylor));
    lm->p = calloc((size_t)nl * 3, sizeof(PlnTaylor));
    lm->qs = calloc(nja, sizeof(PlnTaylor));
    lm->qc = calloc(nja, sizeof(PlnTaylor));
    lm->ds = calloc(nja, sizeof(double));
    lm->dc = calloc(nja, sizeof(double));
    lm->slide = malloc((size_t)nl * sizeof(int));
    lm->w = calloc((size_t)nl * 4, sizeof(double));
    lm->qt = calloc(nja, sizeof(PlnTaylor));
    lm->qabs = calloc(nja, sizeof(double));
    lm->memo_deg = -1;
    lm->memo_coef = calloc(nja * (PLN_TM_MAX_DEGREE + 1), sizeof(double));
    lm->memo_qerr = calloc(nja, sizeof(double));
    lm->jdirty = calloc(nja, 1);
    lm->ldirty = calloc((size_t)(nl > 0 ? nl : 1), 1);
    lm->stamp = calloc((size_t)(nl > 0 ? nl : 1), sizeof *lm->stamp);
    if (!lm->memo_coef || !lm->memo_qerr || !lm->jdirty || !lm->ldirty || !lm->stamp) goto nomem;
    if (!lm->parent || !lm->active || !lm->M || !lm->cst || !lm->opos || !lm->com_local ||
        !lm->mass || !lm->eps || !lm->rho || !lm->R || !lm->p || !lm->qs || !lm->qc ||
        !lm->ds || !lm->dc || !lm->slide || !lm->w || !lm->qt || !lm->qabs) {
        goto nomem;
    }
    lm->mass_sum = 0.0;
    lm->nu_base = rot_norm_bound(robot->base_rot);
    for (i = 0; i < nl; ++i) {
        const PlnLink *L = &robot->links[i];
        double *cst = lm->cst + CST_COUNT * i;
        int j = L->joint;
        lm->parent[i] = L->parent;
        lm->active[i] = (j >= 0 && robot->joints[j].type == PLN_JOINT_REVOLUTE) ? j : -1;
        lm->slide[i] = (j >= 0 && robot->joints[j].type == PLN_JOINT_PRISMATIC) ? j : -1;
        link_constants(robot, i, lm->M + 27 * i, cst);
        if (lm->slide[i] >= 0) {
            /* w_i = O_i a (eq. 8.6) and the Euclidean bound of its rounding (eq. 7.2) */
            const double *a = robot->joints[j].axis, *O = L->origin_rot;
            double *wv = lm->w + 4 * i, e2 = 0.0;
            for (int r = 0; r < 3; ++r) {
                double mag = fabs(O[3 * r]) * fabs(a[0]) + fabs(O[3 * r + 1]) * fabs(a[1]) +
                             fabs(O[3 * r + 2]) * fabs(a[2]);
                wv[r] = O[3 * r] * a[0] + O[3 * r + 1] * a[1] + O[3 * r + 2] * a[2];
                e2 += wid(mag) * wid(mag);
            }
            wv[3] = up(sqrt(e2));
        }
        /* nu_i = nu_P g_i bounds ||R_i,true||_2 (eq. 9.1) */
        cst[CST_NU] = up((L->parent < 0 ? lm->nu_base
                                         : lm->cst[CST_COUNT * L->parent + CST_NU]) * cst[CST_G]);
        memcpy(lm->opos + 3 * i, L->origin_pos, 3 * sizeof(double));
        memcpy(lm->com_local + 3 * i, L->com, 3 * sizeof(double));
        lm->mass[i] = L->mass;
        lm->mass_sum += L->mass;
    }
    for (i = 0; i < 9; ++i) pln_taylor_const(&lm->base_R[i], tm_degree, robot->base_rot[i]);
    for (i = 0; i < 3; ++i) pln_taylor_const(&lm->base_p[i], tm_degree, robot->base_pos[i]);
    *out = lm;
    return PLN_OK;
nomem:
    pln_linkmotion_destroy(lm);
    return pln_errorf(PLN_ERR_NOMEM, err, err_size, "pln_linkmotion_create: out of memory");
}

void pln_linkmotion_destroy(PlnLinkMotion *lm)
{
    if (lm == NULL) return;
    free(lm->parent);
    free(lm->active);
    free(lm->M);
    free(lm->cst);
    free(lm->opos);
    free(lm->com_local);
    free(lm->mass);
    free(lm->eps);
    free(lm->rho);
    free(lm->R);
    free(lm->p);
    free(lm->qs);
    free(lm->qc);
    free(lm->ds);
    free(lm->dc);
    free(lm->slide);
    free(lm->w);
    free(lm->qt);
    free(lm->qabs);
    free(lm->memo_coef);
    free(lm->memo_qerr);
    free(lm->jdirty);
    free(lm->ldirty);
    free(lm->stamp);
    free(lm);
}

int pln_linkmotion_degree(const PlnLinkMotion *lm)
{
    return lm->n;
}

unsigned long pln_linkmotion_generation(const PlnLinkMotion *lm)
{
    return lm->generation;
}

unsigned long pln_linkmotion_link_stamp(const PlnLinkMotion *lm, int link)
{
    return (link >= 0 && link < lm->n_links) ? lm->stamp[link] : 0;
}

/* out = sum_k w[k] * poly(x[k]) over k < 3 on polynomial parts only (input remainders
 * are accounted for by norms), zero weights skipped, zero remainder; returns the bound
 * on the rounding of the coefficients summed over tau in [-1, 1] (eq. 3.1, 7.2), which
 * the caller adds to its error radius. */
static double lc3(PlnTaylor *out, const PlnTaylor *x, const double *w, int wstride, int n)
{
    double mag = 0.0;
    int k, m;
    memset(out, 0, sizeof *out);
    out->n = n;
    for (m = 0; m < 3; ++m) {
        double wm = w[m * wstride], s1 = 0.0;
        if (wm == 0.0) continue;
        /* fixed trip count over zero-padded coefficients: unrolled / vectorised */
        for (k = 0; k <= PLN_TM_MAX_DEGREE; ++k) {
            out->c[k] += wm * x[m].c[k];
            s1 += fabs(x[m].c[k]);
        }
        mag += fabs(wm) * s1;
    }
    return mag == 0.0 ? 0.0 : wid(mag);
}

/* moves the remainder's midpoint into the constant coefficient and returns its radius
 * (rounded up), leaving a zero remainder (eq. 9.4). */
static double recentre(PlnTaylor *t)
{
    double mid = 0.5 * (t->lo + t->hi);
    double rad = fmax(t->hi - mid, mid - t->lo);
    double c0 = t->c[0] + mid;
    rad += wid(fabs(c0) + fabs(mid) + fabs(t->lo) + fabs(t->hi));
    t->c[0] = c0;
    t->lo = t->hi = 0.0;
    return rad;
}

/* polynomial part plus p: out = poly(a) + poly(b) */
static void add_poly(PlnTaylor *out, const PlnTaylor *a, const PlnTaylor *b)
{
    PlnTaylor x = *a, y = *b;
    x.lo = x.hi = y.lo = y.hi = 0.0;
    pln_taylor_add(out, &x, &y);
}

/* One link of the chain below a parent frame (Rp, pp) with norm-based remainders eps_p,
 * rho_p and ||R_P,true||_2 <= nu_p: link i's rotation and position models (a prismatic
 * joint's slide included), remainders set to [-eps_i, eps_i], [-rho_i, rho_i] (eq. 8.1-8.2,
 * 8.6, 9.2-9.3, 9.6). */
static void chain_step(const PlnLinkMotion *lm, int i, const PlnTaylor *Rp, const PlnTaylor *pp,
                       double eps_p, double rho_p, double nu_p, PlnTaylor *R, PlnTaylor *p,
                       double *eps_out, double *rho_out)
{
    const double *M = lm->M + 27 * i, *o = lm->opos + 3 * i;
    const double *cst = lm->cst + CST_COUNT * i;
    double tr2 = 0.0, eps_q = cst[CST_M0ERR], eps, rho;
    int j = lm->active[i], n = lm->n, r, c, k;
    /* p_i = p_P + R_P o_i (eq. 8.2), error rho_P + eps_P |o_i| + rounding (eq. 9.3) */
    for (r = 0; r < 3; ++r) {
        PlnTaylor t;
        double rr = lc3(&t, Rp + 3 * r, o, 1, n);
        add_poly(&p[r], &pp[r], &t);
        rr += recentre(&p[r]);
        tr2 += rr * rr;
    }
    if (lm->slide[i] >= 0) {
        /* p_i += q (R_P w_i) (eq. 8.6); the error (eq. 9.6) is |q| (eps_P |w| +
         * (nu_P + eps_P) dw + row rounding) plus the product's remainder */
        const int js = lm->slide[i];
        const double *wv = lm->w + 4 * i, qa = lm->qabs[js];
        double wn = up(norm3(wv) + wv[3]);
        tr2 = 0.0;
        for (r = 0; r < 3; ++r) {
            PlnTaylor t, u;
            double rr = lc3(&t, Rp + 3 * r, o, 1, n);
            double r1 = lc3(&u, Rp + 3 * r, wv, 1, n);
            add_poly(&p[r], &pp[r], &t);
            pln_taylor_mul(&u, &u, &lm->qt[js]);
            pln_taylor_add(&p[r], &p[r], &u);
            rr += up(r1 * qa) + recentre(&p[r]);
            tr2 += rr * rr;
        }
        rho = up(rho_p + eps_p * up(cst[CST_ONORM] + up(qa * wn)) +
                 up(up(nu_p + eps_p) * up(qa * wv[3])) + sqrt(tr2));
    } else {
        rho = up(rho_p + eps_p * cst[CST_ONORM] + sqrt(tr2));
    }
    /* R_i = R_P M0 + sin q (R_P M1) + cos q (R_P M2) on polynomial parts (eq. 8.1) */
    tr2 = 0.0;
    for (r = 0; r < 3; ++r) {
        for (c = 0; c < 3; ++c) {
            PlnTaylor *out = &R[3 * r + c];
            double rr = lc3(out, Rp + 3 * r, M + c, 3, n);
            if (j >= 0) {
                /* rounding e1 of t1 meets the true sine: |e1 sin_true| <= e1 and
                 * |e1 ds| for the part the norm term of eq. 9.2 bounds by t1 ds */
                PlnTaylor t1, t2;
                double r1 = lc3(&t1, Rp + 3 * r, M + 9 + c, 3, n);
                double r2 = lc3(&t2, Rp + 3 * r, M + 18 + c, 3, n);
                rr += r1 * (1.0 + lm->ds[j]) + r2 * (1.0 + lm->dc[j]);
                pln_taylor_mul(&t1, &t1, &lm->qs[j]);
                pln_taylor_mul(&t2, &t2, &lm->qc[j]);
                pln_taylor_add(out, out, &t1);
                pln_taylor_add(out, out, &t2);
            }
            rr += recentre(out);
            tr2 += rr * rr;
        }
    }
    /* eps_i = |trunc|_F + (nu_P + eps_P) eps_q + eps_P g_i (eq. 9.2) */
    if (j >= 0) eps_q = up(eps_q + lm->ds[j] * cst[CST_M1F] + lm->dc[j] * cst[CST_M2F]);
    eps = up(sqrt(tr2) + (nu_p + eps_p) * eps_q + eps_p * cst[CST_G]);
    *eps_out = eps;
    *rho_out = rho;
    for (k = 0; k < 9; ++k) {
        R[k].lo = -eps;
        R[k].hi = eps;
    }
    for (r = 0; r < 3; ++r) {
        p[r].lo = -rho;
        p[r].hi = rho;
    }
}

/* Composition along the chain: eq. (8.1)-(8.3), (8.6), (9.2)-(9.3), (9.6). */
PlnStatus pln_linkmotion_compute(PlnLinkMotion *lm, const PlnRobot *robot, const double *coef,
                                 int deg, const double *q_err, char *err, size_t err_size)
{
    int i, j, k, n = lm->n, memo;
    ++lm->generation; /* whatever follows, the models of before are gone */
    lm->com_valid = 0; /* the centre of mass is made on demand (pln_linkmotion_com) */
    if (robot->n_joints != lm->n_joints || robot->n_links != lm->n_links) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "robot '%s' is not the model this link-motion workspace was made for",
                          robot->name);
    }
    if (deg < 0 || deg > PLN_TM_MAX_DEGREE) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "joint polynomial degree %d out of range 0..%d", deg,
                          PLN_TM_MAX_DEGREE);
    }
    if (coef == NULL && lm->n_joints > 0) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint coefficients: NULL array");
    }
    /* joint positions as Taylor models, their sine and cosine (eq. 5.1-5.5, 6.3); a joint
     * whose inputs are those of the last compute keeps its models (the memo above) */
    memo = lm->memo_deg == deg;
    lm->memo_deg = -1; /* until this compute completes */
    for (j = 0; j < lm->n_joints; ++j) {
        const double *a = coef + (size_t)j * (size_t)(deg + 1);
        double *mc = lm->memo_coef + (size_t)j * (PLN_TM_MAX_DEGREE + 1);
        double qe = q_err != NULL ? q_err[j] : -1.0;
        PlnTaylor q;
        lm->jdirty[j] = 0;
        if (robot->joints[j].type == PLN_JOINT_FIXED) continue;
        for (k = 0; k <= deg; ++k) {
            if (!isfinite(a[k])) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "joint %d '%s': coefficient %d is not finite", j,
                                  robot->joints[j].name, k);
            }
        }
        /* checked before the memo: a refused input is refused whatever came before */
        if (q_err != NULL && (!(q_err[j] >= 0.0) || !isfinite(q_err[j]))) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "joint %d '%s': q_err %g is not a finite value >= 0", j,
                              robot->joints[j].name, q_err[j]);
        }
        if (memo && lm->memo_qerr[j] == qe && memcmp(mc, a, (size_t)(deg + 1) * sizeof *a) == 0) continue;
        lm->jdirty[j] = 1;
        memcpy(mc, a, (size_t)(deg + 1) * sizeof *a);
        lm->memo_qerr[j] = qe;
        pln_taylor_from_unit_poly(&q, n, a, deg);
        if (q_err != NULL) pln_taylor_add_interval(&q, &q, -q_err[j], q_err[j]);
        if (robot->joints[j].type == PLN_JOINT_PRISMATIC) {
            /* the translation itself, remainder kept: eq. (8.6) */
            lm->qt[j] = q;
            lm->qabs[j] = up(pln_taylor_bound_abs(&q));
            continue;
        }
        pln_taylor_sincos(&lm->qs[j], &lm->qc[j], &q);
        lm->ds[j] = recentre(&lm->qs[j]);
        lm->dc[j] = recentre(&lm->qc[j]);
    }
    for (i = 0; i < lm->n_links; ++i) {
        int par = lm->parent[i];
        const PlnTaylor *Rp, *pp;
        double eps_p, rho_p, nu_p;
        lm->ldirty[i] = !memo || (par >= 0 && lm->ldirty[par]) ||
                        (lm->active[i] >= 0 && lm->jdirty[lm->active[i]]) ||
                        (lm->slide[i] >= 0 && lm->jdirty[lm->slide[i]]);
        if (!lm->ldirty[i]) continue;
        lm->stamp[i] = lm->generation;
        Rp = par < 0 ? lm->base_R : lm->R + 9 * par;
        pp = par < 0 ? lm->base_p : lm->p + 3 * par;
        eps_p = par < 0 ? 0.0 : lm->eps[par], rho_p = par < 0 ? 0.0 : lm->rho[par];
        nu_p = par < 0 ? lm->nu_base : lm->cst[CST_COUNT * par + CST_NU];
        chain_step(lm, i, Rp, pp, eps_p, rho_p, nu_p, lm->R + 9 * i, lm->p + 3 * i, &lm->eps[i],
                   &lm->rho[i]);
    }
    for (i = 0; i < lm->n_links; ++i) {
        if (!isfinite(lm->rho[i]) || !isfinite(lm->eps[i]) ||
            !pln_taylor_is_finite(&lm->p[3 * i]) || !pln_taylor_is_finite(&lm->p[3 * i + 1]) ||
            !pln_taylor_is_finite(&lm->p[3 * i + 2])) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                              "link %d '%s': Taylor model overflowed", i, robot->links[i].name);
        }
    }
    lm->memo_deg = deg;
    return PLN_OK;
}

const PlnTaylor *pln_linkmotion_rot(const PlnLinkMotion *lm, int link)
{
    return (link >= 0 && link < lm->n_links) ? lm->R + 9 * link : NULL;
}

const PlnTaylor *pln_linkmotion_pos(const PlnLinkMotion *lm, int link)
{
    return (link >= 0 && link < lm->n_links) ? lm->p + 3 * link : NULL;
}

double pln_linkmotion_rot_err(const PlnLinkMotion *lm, int link)
{
    return (link >= 0 && link < lm->n_links) ? lm->eps[link] : INFINITY;
}

double pln_linkmotion_pos_err(const PlnLinkMotion *lm, int link)
{
    return (link >= 0 && link < lm->n_links) ? lm->rho[link] : INFINITY;
}

/* Centre of mass of the last compute: (sum_i m_i (p_i + R_i c_i)) / M, error
 * sum_i (m_i/M)(rho_i + eps_i |c_i|) + rounding (eq. 8.3, 9.3). Made on the first request
 * after a compute (the workspace is per thread; the getters are const for their callers). */
static void com_compute(PlnLinkMotion *lm)
{
    double rsum = 0.0, tr2 = 0.0;
    int i, r, n = lm->n;
    lm->com_valid = 1;
    if (!(lm->mass_sum > 0.0)) return;
    for (r = 0; r < 3; ++r) pln_taylor_const(&lm->com[r], n, 0.0);
    for (i = 0; i < lm->n_links; ++i) {
        double m = lm->mass[i];
        if (m == 0.0) continue;
        rsum += m * (lm->rho[i] + lm->eps[i] * norm3(lm->com_local + 3 * i));
        for (r = 0; r < 3; ++r) {
            PlnTaylor t;
            double rl = lc3(&t, lm->R + 9 * i + 3 * r, lm->com_local + 3 * i, 1, n);
            add_poly(&t, &t, &lm->p[3 * i + r]);
            pln_taylor_add_interval(&t, &t, -rl, rl);
            pln_taylor_axpy(&lm->com[r], &lm->com[r], m, &t);
        }
    }
    for (r = 0; r < 3; ++r) {
        double rr;
        pln_taylor_div(&lm->com[r], &lm->com[r], lm->mass_sum);
        rr = recentre(&lm->com[r]);
        tr2 += rr * rr;
    }
    lm->com_rho = up(up(rsum / lm->mass_sum) + sqrt(tr2));
    for (r = 0; r < 3; ++r) {
        lm->com[r].lo = -lm->com_rho;
        lm->com[r].hi = lm->com_rho;
    }
}

const PlnTaylor *pln_linkmotion_com(const PlnLinkMotion *lm)
{
    if (!(lm->mass_sum > 0.0)) return NULL;
    if (!lm->com_valid) com_compute((PlnLinkMotion *)lm);
    return lm->com;
}

/* x = p + R local on polynomial parts; Euclidean error radius returned (eq. 9.5). */
static double point_poly(const PlnLinkMotion *lm, int link, const double local[3],
                         PlnTaylor out[3])
{
    double tr2 = 0.0;
    int r;
    for (r = 0; r < 3; ++r) {
        PlnTaylor t;
        double rr = lc3(&t, lm->R + 9 * link + 3 * r, local, 1, lm->n);
        add_poly(&out[r], &lm->p[3 * link + r], &t);
        rr += recentre(&out[r]);
        tr2 += rr * rr;
    }
    return up(lm->rho[link] + lm->eps[link] * norm3(local) + sqrt(tr2));
}

void pln_linkmotion_point_tm(const PlnLinkMotion *lm, int link, const double local[3],
                             PlnTaylor out[3])
{
    double rad;
    int r;
    if (link < 0 || link >= lm->n_links) {
        for (r = 0; r < 3; ++r) pln_taylor_const(&out[r], lm->n, NAN);
        return;
    }
    rad = point_poly(lm, link, local, out);
    for (r = 0; r < 3; ++r) {
        out[r].lo = -rad;
        out[r].hi = rad;
    }
}

/* s-polynomial of three zero-remainder models plus a Euclidean radius: eq. (6.1), (9.5). */
static void polypoint_from_poly(const PlnTaylor xyz[3], double rad, DstPolyPoint *out)
{
    double d[PLN_TM_MAX_DEGREE + 1], conv = 0.0;
    int r, k, n = xyz[0].n;
    for (r = 1; r < 3; ++r) {
        if (xyz[r].n > n) n = xyz[r].n;
    }
    memset(out, 0, sizeof *out);
    out->degree = n;
    for (r = 0; r < 3; ++r) {
        conv += pln_taylor_to_unit_poly(&xyz[r], d);
        for (k = 0; k <= n && k <= DST_MAX_DEGREE; ++k) out->c[k][r] = d[k];
    }
    out->err = up(rad + conv);
}

void pln_linkmotion_point(const PlnLinkMotion *lm, int link, const double local[3],
                          DstPolyPoint *out)
{
    PlnTaylor x[3];
    if (link < 0 || link >= lm->n_links) {
        memset(out, 0, sizeof *out);
        out->err = INFINITY;
        return;
    }
    polypoint_from_poly(x, point_poly(lm, link, local, x), out);
}

/* Entrywise remainders re-centred and combined as a Euclidean radius: eq. (9.4)-(9.5). */
void pln_linkmotion_tm_to_polypoint(const PlnTaylor xyz[3], DstPolyPoint *out)
{
    PlnTaylor x[3];
    double tr2 = 0.0;
    int r;
    for (r = 0; r < 3; ++r) {
        double rr;
        x[r] = xyz[r];
        rr = recentre(&x[r]);
        tr2 += rr * rr;
    }
    polypoint_from_poly(x, up(sqrt(tr2)), out);
}

/* Link frame in s: eq. (6.1)-(6.2) per entry, (9.2) norm bound. */
int pln_linkmotion_frame(const PlnLinkMotion *lm, int link, double R_s[][9], double *R_err,
                         DstPolyPoint *origin)
{
    double d[PLN_TM_MAX_DEGREE + 1], conv2 = 0.0, zero[3] = {0, 0, 0};
    int e, k, n = lm->n;
    if (link < 0 || link >= lm->n_links) return -1;
    for (e = 0; e < 9; ++e) {
        PlnTaylor t = lm->R[9 * link + e];
        double conv;
        t.lo = t.hi = 0.0;
        conv = pln_taylor_to_unit_poly(&t, d);
        for (k = 0; k <= n; ++k) R_s[k][e] = d[k];
        conv2 += conv * conv;
    }
    /* the conversion errors form a matrix whose Frobenius norm bounds its spectral norm */
    *R_err = up(lm->eps[link] + up(sqrt(conv2)));
    pln_linkmotion_point(lm, link, zero, origin);
    return n;
}

/* A link frame relative to an ancestor's: the chain of eq. (8.1)-(8.2) from the identity at
 * anc, with the remainders of eq. (9.2)-(9.3) from zero and ||R_rel,true||_2 <= the product
 * of the g_k along the way (eq. 9.1); then as pln_linkmotion_frame. */
int pln_linkmotion_frame_from(const PlnLinkMotion *lm, int anc, int link, double R_s[][9], double *R_err,
                              DstPolyPoint *origin)
{
    int path[PLN_LINKMOTION_MAX_DEPTH], depth = 0, e, k, r, n = lm->n;
    PlnTaylor Ra[2][9], pa[2][3], x[3];
    double eps = 0.0, rho = 0.0, nu, d[PLN_TM_MAX_DEGREE + 1], conv2 = 0.0, rad, tr2 = 0.0;
    static const double ident[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (anc < 0 || anc >= lm->n_links || link < 0 || link >= lm->n_links) return -1;
    /* the links from anc (excluded) down to link, in chain order */
    for (int i = link; i != anc; i = lm->parent[i]) {
        if (i < 0 || depth == PLN_LINKMOTION_MAX_DEPTH) return -1; /* not an ancestor */
        path[depth++] = i;
    }
    for (e = 0; e < 9; ++e) pln_taylor_const(&Ra[0][e], n, ident[e]);
    for (r = 0; r < 3; ++r) pln_taylor_const(&pa[0][r], n, 0.0);
    nu = rot_norm_bound(ident);
    for (int m = 0; m < depth; ++m) {
        int i = path[depth - 1 - m], cur = m & 1;
        chain_step(lm, i, Ra[cur], pa[cur], eps, rho, nu, Ra[!cur], pa[!cur], &eps, &rho);
        nu = up(nu * lm->cst[CST_COUNT * i + CST_G]);
    }
    /* rotation: polynomial parts in s, conversion errors as a Frobenius norm (eq. 9.2) */
    for (e = 0; e < 9; ++e) {
        PlnTaylor t = Ra[depth & 1][e];
        double conv;
        t.lo = t.hi = 0.0;
        conv = pln_taylor_to_unit_poly(&t, d);
        for (k = 0; k <= n; ++k) R_s[k][e] = d[k];
        conv2 += conv * conv;
    }
    *R_err = up(eps + up(sqrt(conv2)));
    /* origin: the position models re-centred, their radii with rho (eq. 9.5) */
    for (r = 0; r < 3; ++r) {
        double rr;
        x[r] = pa[depth & 1][r];
        x[r].lo = x[r].hi = 0.0;
        rr = recentre(&x[r]);
        tr2 += rr * rr;
    }
    rad = up(rho + sqrt(tr2));
    polypoint_from_poly(x, rad, origin);
    return n;
}

/* sigma_min(M) >= sqrt(2 - g^2) when ||M M^T - I||_2 <= g^2 - 1 (eq. 9.1: g bounds the
 * largest singular value that way), and singular values multiply along the chain. */
void pln_linkmotion_rot_gain(const PlnLinkMotion *lm, int link, double *s_min, double *s_max)
{
    double lo = sqrt(fmax(0.0, 2.0 - lm->nu_base * lm->nu_base));
    int depth = 0;
    if (link < 0 || link >= lm->n_links) {
        *s_min = 0.0, *s_max = INFINITY;
        return;
    }
    for (int i = link; i >= 0; i = lm->parent[i], ++depth) {
        double g = lm->cst[CST_COUNT * i + CST_G];
        lo *= sqrt(fmax(0.0, 2.0 - g * g));
    }
    *s_min = fmax(0.0, lo - wid(4.0 * (depth + 1)));
    *s_max = lm->cst[CST_COUNT * link + CST_NU];
}

PlnStatus pln_linkmotion_com_point(const PlnLinkMotion *lm, DstPolyPoint *out)
{
    PlnTaylor x[3];
    int r;
    if (!(lm->mass_sum > 0.0)) return PLN_ERR_INVALID;
    if (!lm->com_valid) com_compute((PlnLinkMotion *)lm);
    for (r = 0; r < 3; ++r) {
        x[r] = lm->com[r];
        x[r].lo = x[r].hi = 0.0;
    }
    polypoint_from_poly(x, lm->com_rho, out);
    return PLN_OK;
}

/* q(s0 + h r) by the Taylor shift of pln_taylor.c, its rounding bounded (eq. 8.5, 6.4). */
double pln_linkmotion_restrict_poly(const double *coef, int deg, double s0, double s1,
                                    double *out)
{
    return pln_taylor_shift_poly(coef, deg, s0, s1 - s0, out);
}
