/* pln_linkmotion.c — Taylor models of link motion over one span (pln_linkmotion.h).
 *
 * Per link i with parent P, joint frame O_i = origin_rot, K = [a]x of the joint axis,
 * Rodrigues' Rot(a, q) = (I + K^2) + sin q K - cos q K^2 (the formula of pln_kin.c), so
 *   R_i = R_P (O_i (I + K^2)) + sin q (R_P O_i K) + cos q (R_P (-O_i K^2))   (eq. 8.1)
 *   p_i = p_P + R_P o_i                                                       (eq. 8.2)
 * The three constant matrices are formed once at creation; a compute is 18 Taylor
 * products and linear combinations per moving link (docs/math/taylor_models.md sec. 8). */
#include "pln_linkmotion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pln_kin.h"
#include "pln_tolerance.h"

struct PlnLinkMotion {
    int n;                 /* Taylor degree */
    int n_links, n_joints;
    double mass_sum;       /* kg */
    int *parent;           /* [n_links] */
    int *active;           /* [n_links] revolute joint moving the link, -1 if none */
    double *M;             /* [n_links][3][9]: O(I + K^2), O K, -O K^2 (fixed: O, 0, 0) */
    double *Merr;          /* [n_links][3] rounding bound of the constants, per column */
    double *opos;          /* [n_links][3] origin_pos */
    double *com_local;     /* [n_links][3] link com in the link frame */
    double *mass;          /* [n_links] */
    PlnTaylor *R;          /* [n_links][9] */
    PlnTaylor *p;          /* [n_links][3] */
    PlnTaylor *qs, *qc;    /* [n_joints] sin q_j, cos q_j */
    PlnTaylor base_R[9], base_p[3];
    PlnTaylor com[3];
};

/* rounding widening, as in pln_taylor.c (eq. 7.2) */
static inline double wid(double mag)
{
    return PLN_TM_ROUND_REL * mag + PLN_TM_ROUND_ABS;
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

/* The constant matrices of eq. (8.1) for one link and a bound on their rounding: each
 * entry's error is below wid(sum of |terms| through both products); since the true
 * parent rotation has entries of magnitude <= 2 (orthonormal to PLN_KIN_ROT_ORTHO_TOL)
 * and |sin|, |cos| <= 1, R_i[r][c] errs by at most 2 sum_k (eA + eB + eC)[k][c]. */
static void link_constants(const PlnRobot *rb, int i, double *M, double *Merr)
{
    const PlnLink *L = &rb->links[i];
    int j = L->joint, r, c;
    double K[9], K2[9], K2abs[9], A[9], Aabs[9], t[9], tabs[9], e[9];
    memset(Merr, 0, 3 * sizeof(double));
    if (j < 0 || rb->joints[j].type != PLN_JOINT_REVOLUTE) {
        memcpy(M, L->origin_rot, 9 * sizeof(double));
        memset(M + 9, 0, 18 * sizeof(double));
        return;
    }
    {
        const double *a = rb->joints[j].axis;
        double Kv[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
        memcpy(K, Kv, sizeof K);
    }
    mat_mul_abs(K, K, K2, K2abs);
    /* A = I + K^2 */
    for (r = 0; r < 9; ++r) {
        A[r] = K2[r] + (r % 4 == 0 ? 1.0 : 0.0);
        Aabs[r] = K2abs[r] + (r % 4 == 0 ? 1.0 : 0.0);
    }
    mat_mul_abs(L->origin_rot, A, M, t);
    mat_mul_abs(L->origin_rot, Aabs, e, NULL); /* |O| (|I| + |K||K|) bounds every term */
    for (r = 0; r < 9; ++r) e[r] = fmax(e[r], t[r]);
    mat_mul_abs(L->origin_rot, K, M + 9, tabs);
    for (r = 0; r < 9; ++r) e[r] += tabs[r];
    mat_mul_abs(L->origin_rot, K2, t, NULL);
    {
        double ok2[9];
        mat_mul_abs(L->origin_rot, K2abs, ok2, NULL);
        for (r = 0; r < 9; ++r) {
            M[18 + r] = -t[r];
            e[r] += ok2[r];
        }
        (void)tabs;
    }
    /* per column c: 2 * sum_k wid(e[k][c]) */
    for (c = 0; c < 3; ++c) {
        double s = 0.0;
        for (r = 0; r < 3; ++r) s += wid(e[3 * r + c]);
        Merr[c] = 2.0 * s;
    }
}

PlnStatus pln_linkmotion_create(const PlnRobot *robot, int tm_degree, PlnLinkMotion **out,
                                char *err, size_t err_size)
{
    PlnLinkMotion *lm;
    PlnStatus st;
    int i, nl, nj;
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
    lm = calloc(1, sizeof *lm);
    if (lm == NULL) goto nomem;
    lm->n = tm_degree;
    lm->n_links = nl;
    lm->n_joints = nj;
    lm->parent = malloc((size_t)nl * sizeof(int));
    lm->active = malloc((size_t)nl * sizeof(int));
    lm->M = malloc((size_t)nl * 27 * sizeof(double));
    lm->Merr = malloc((size_t)nl * 3 * sizeof(double));
    lm->opos = malloc((size_t)nl * 3 * sizeof(double));
    lm->com_local = malloc((size_t)nl * 3 * sizeof(double));
    lm->mass = malloc((size_t)nl * sizeof(double));
    lm->R = calloc((size_t)nl * 9, sizeof(PlnTaylor));
    lm->p = calloc((size_t)nl * 3, sizeof(PlnTaylor));
    lm->qs = calloc((size_t)(nj > 0 ? nj : 1), sizeof(PlnTaylor));
    lm->qc = calloc((size_t)(nj > 0 ? nj : 1), sizeof(PlnTaylor));
    if (!lm->parent || !lm->active || !lm->M || !lm->Merr || !lm->opos || !lm->com_local ||
        !lm->mass || !lm->R || !lm->p || !lm->qs || !lm->qc) {
        goto nomem;
    }
    lm->mass_sum = 0.0;
    for (i = 0; i < nl; ++i) {
        const PlnLink *L = &robot->links[i];
        int j = L->joint;
        lm->parent[i] = L->parent;
        lm->active[i] = (j >= 0 && robot->joints[j].type == PLN_JOINT_REVOLUTE) ? j : -1;
        link_constants(robot, i, lm->M + 27 * i, lm->Merr + 3 * i);
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
    free(lm->Merr);
    free(lm->opos);
    free(lm->com_local);
    free(lm->mass);
    free(lm->R);
    free(lm->p);
    free(lm->qs);
    free(lm->qc);
    free(lm);
}

int pln_linkmotion_degree(const PlnLinkMotion *lm)
{
    return lm->n;
}

/* out = sum_k w[k] * x[k * stride] over k < 3, zero weights skipped (eq. 3.1-3.2). */
static void lincomb3(PlnTaylor *out, const PlnTaylor *x, int stride, const double *w,
                     int wstride, int n)
{
    int k;
    pln_taylor_const(out, n, 0.0);
    for (k = 0; k < 3; ++k) {
        double wk = w[k * wstride];
        if (wk != 0.0) pln_taylor_axpy(out, out, wk, &x[k * stride]);
    }
}

/* Composition along the chain: eq. (8.1)-(8.3). */
PlnStatus pln_linkmotion_compute(PlnLinkMotion *lm, const PlnRobot *robot, const double *coef,
                                 int deg, const double *q_err, char *err, size_t err_size)
{
    int i, j, k, r, c, n = lm->n;
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
    /* joint positions as Taylor models, their sine and cosine (eq. 5.1-5.5, 6.3) */
    for (j = 0; j < lm->n_joints; ++j) {
        const double *a = coef + (size_t)j * (size_t)(deg + 1);
        PlnTaylor q;
        if (robot->joints[j].type != PLN_JOINT_REVOLUTE) continue;
        for (k = 0; k <= deg; ++k) {
            if (!isfinite(a[k])) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "joint %d '%s': coefficient %d is not finite", j,
                                  robot->joints[j].name, k);
            }
        }
        pln_taylor_from_unit_poly(&q, n, a, deg);
        if (q_err != NULL) {
            if (!(q_err[j] >= 0.0) || !isfinite(q_err[j])) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "joint %d '%s': q_err %g is not a finite value >= 0", j,
                                  robot->joints[j].name, q_err[j]);
            }
            pln_taylor_add_interval(&q, &q, -q_err[j], q_err[j]);
        }
        pln_taylor_sincos(&lm->qs[j], &lm->qc[j], &q);
    }
    for (i = 0; i < lm->n_links; ++i) {
        int par = lm->parent[i];
        const PlnTaylor *Rp = par < 0 ? lm->base_R : lm->R + 9 * par;
        const PlnTaylor *pp = par < 0 ? lm->base_p : lm->p + 3 * par;
        const double *M = lm->M + 27 * i, *o = lm->opos + 3 * i, *E = lm->Merr + 3 * i;
        PlnTaylor *R = lm->R + 9 * i, *p = lm->p + 3 * i;
        j = lm->active[i];
        /* p_i = p_P + R_P o_i (eq. 8.2) */
        for (r = 0; r < 3; ++r) {
            PlnTaylor t;
            lincomb3(&t, Rp + 3 * r, 1, o, 1, n);
            pln_taylor_add(&p[r], &pp[r], &t);
        }
        /* R_i = R_P M0 + sin q (R_P M1) + cos q (R_P M2) (eq. 8.1) */
        for (r = 0; r < 3; ++r) {
            for (c = 0; c < 3; ++c) {
                PlnTaylor *out = &R[3 * r + c];
                lincomb3(out, Rp + 3 * r, 1, M + c, 3, n);
                if (j >= 0) {
                    PlnTaylor t1, t2;
                    lincomb3(&t1, Rp + 3 * r, 1, M + 9 + c, 3, n);
                    lincomb3(&t2, Rp + 3 * r, 1, M + 18 + c, 3, n);
                    pln_taylor_mul(&t1, &t1, &lm->qs[j]);
                    pln_taylor_mul(&t2, &t2, &lm->qc[j]);
                    pln_taylor_add(out, out, &t1);
                    pln_taylor_add(out, out, &t2);
                }
                if (E[c] != 0.0) pln_taylor_add_interval(out, out, -E[c], E[c]);
            }
        }
    }
    /* centre of mass: (sum_i m_i (p_i + R_i c_i)) / M (eq. 8.3) */
    if (lm->mass_sum > 0.0) {
        for (r = 0; r < 3; ++r) pln_taylor_const(&lm->com[r], n, 0.0);
        for (i = 0; i < lm->n_links; ++i) {
            double m = lm->mass[i];
            if (m == 0.0) continue;
            for (r = 0; r < 3; ++r) {
                PlnTaylor t;
                lincomb3(&t, lm->R + 9 * i + 3 * r, 1, lm->com_local + 3 * i, 1, n);
                pln_taylor_add(&t, &t, &lm->p[3 * i + r]);
                pln_taylor_axpy(&lm->com[r], &lm->com[r], m, &t);
            }
        }
        for (r = 0; r < 3; ++r) pln_taylor_div(&lm->com[r], &lm->com[r], lm->mass_sum);
    }
    for (i = 0; i < lm->n_links; ++i) {
        for (r = 0; r < 3; ++r) {
            if (!pln_taylor_is_finite(&lm->p[3 * i + r])) {
                return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                                  "link %d '%s': Taylor model overflowed", i,
                                  robot->links[i].name);
            }
        }
    }
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

const PlnTaylor *pln_linkmotion_com(const PlnLinkMotion *lm)
{
    return lm->mass_sum > 0.0 ? lm->com : NULL;
}

/* x = p + R local: eq. (8.2) for a body point. */
void pln_linkmotion_point_tm(const PlnLinkMotion *lm, int link, const double local[3],
                             PlnTaylor out[3])
{
    int r;
    if (link < 0 || link >= lm->n_links) {
        for (r = 0; r < 3; ++r) {
            pln_taylor_const(&out[r], lm->n, NAN);
        }
        return;
    }
    for (r = 0; r < 3; ++r) {
        PlnTaylor t;
        lincomb3(&t, lm->R + 9 * link + 3 * r, 1, local, 1, lm->n);
        pln_taylor_add(&out[r], &lm->p[3 * link + r], &t);
    }
}

/* Re-centred coordinates and a Euclidean enclosure radius: eq. (8.4). */
void pln_linkmotion_tm_to_polypoint(const PlnTaylor xyz[3], DstPolyPoint *out)
{
    double rad2 = 0.0, d[PLN_TM_MAX_DEGREE + 1];
    int r, k, n = xyz[0].n;
    for (r = 1; r < 3; ++r) {
        if (xyz[r].n > n) n = xyz[r].n;
    }
    memset(out, 0, sizeof *out);
    out->degree = n;
    for (r = 0; r < 3; ++r) {
        double conv = pln_taylor_to_unit_poly(&xyz[r], d);
        double mid = 0.5 * (xyz[r].lo + xyz[r].hi);
        double rad = fmax(xyz[r].hi - mid, mid - xyz[r].lo);
        for (k = 0; k <= n && k <= DST_MAX_DEGREE; ++k) out->c[k][r] = d[k];
        out->c[0][r] = d[0] + mid;
        /* the radius: remainder half-width, conversion rounding, the shifted constant's
         * rounding and the subtractions above, all rounded up */
        rad += conv + wid(fabs(d[0]) + fabs(mid) + fabs(xyz[r].lo) + fabs(xyz[r].hi));
        rad2 += rad * rad;
    }
    out->err = sqrt(rad2);
    out->err += wid(out->err);
}

void pln_linkmotion_point(const PlnLinkMotion *lm, int link, const double local[3],
                          DstPolyPoint *out)
{
    PlnTaylor x[3];
    pln_linkmotion_point_tm(lm, link, local, x);
    pln_linkmotion_tm_to_polypoint(x, out);
}

/* Taylor shift q(s0 + h r) by repeated synthetic division, then scaling by h^k; the same
 * recurrence on |coefficients| bounds every rounded term (eq. 8.5). */
double pln_linkmotion_restrict_poly(const double *coef, int deg, double s0, double s1,
                                    double *out)
{
    double b[PLN_TM_MAX_DEGREE + 1], babs[PLN_TM_MAX_DEGREE + 1];
    double h = s1 - s0, hk = 1.0, mag = 0.0;
    int i, k;
    if (deg < 0) return 0.0;
    if (deg > PLN_TM_MAX_DEGREE) deg = PLN_TM_MAX_DEGREE;
    for (k = 0; k <= deg; ++k) {
        b[k] = coef[k];
        babs[k] = fabs(coef[k]);
    }
    for (i = 0; i < deg; ++i) {
        for (k = deg - 1; k >= i; --k) {
            b[k] += s0 * b[k + 1];
            babs[k] += fabs(s0) * babs[k + 1];
        }
    }
    for (k = 0; k <= deg; ++k) {
        out[k] = b[k] * hk;
        mag += babs[k] * fabs(hk);
        hk *= h;
    }
    return wid(mag);
}
