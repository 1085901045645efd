/* pln_dynmotion.c — the RNEA over an interval in Taylor-model arithmetic
 * (docs/math/dynamics.md eq. D22-D27; prismatic joints D23b, D25b, D21b). */
#include "motion/pln_dynmotion.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

typedef PlnTaylor V3[3];

struct PlnDynMotion {
    int n_links, n_joints, n;
    unsigned char *still;      /* [n_links] the link does not move over the interval */
    V3 *omega, *alpha, *acc;   /* [n_links] angular velocity, acceleration, origin acceleration */
    V3 *axis;                  /* [n_links] world joint axis (moving joints) */
    PlnTaylor (*sub)[6];       /* [n_links] wrench of the subtree, about the origin */
    PlnTaylor *qd, *qdd;       /* [n_joints] */
    PlnTaylor *tau0;           /* [n_joints] fixed base, no contact */
    PlnTaylor *tau;            /* [n_joints] tau0, less the soles' share after contact */
    PlnTaylor W[6];
    const PlnLinkMotion *lm;   /* borrowed from the last compute */
};

PlnStatus pln_dynmotion_create(const PlnRobot *robot, PlnDynMotion **out, char *err,
                               size_t err_size)
{
    PlnDynMotion *dm = calloc(1, sizeof *dm);
    int nl = robot->n_links, nj = robot->n_joints > 0 ? robot->n_joints : 1;
    *out = NULL;
    if (dm == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    dm->n_links = nl;
    dm->n_joints = robot->n_joints;
    dm->still = calloc((size_t)nl, 1);
    dm->omega = calloc((size_t)nl, sizeof *dm->omega);
    dm->alpha = calloc((size_t)nl, sizeof *dm->alpha);
    dm->acc = calloc((size_t)nl, sizeof *dm->acc);
    dm->axis = calloc((size_t)nl, sizeof *dm->axis);
    dm->sub = calloc((size_t)nl, sizeof *dm->sub);
    dm->qd = calloc((size_t)nj, sizeof *dm->qd);
    dm->qdd = calloc((size_t)nj, sizeof *dm->qdd);
    dm->tau = calloc((size_t)nj, sizeof *dm->tau);
    dm->tau0 = calloc((size_t)nj, sizeof *dm->tau0);
    if (!dm->still || !dm->omega || !dm->alpha || !dm->acc || !dm->axis || !dm->sub || !dm->qd ||
        !dm->qdd || !dm->tau || !dm->tau0) {
        pln_dynmotion_destroy(dm);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    *out = dm;
    return PLN_OK;
}

void pln_dynmotion_destroy(PlnDynMotion *dm)
{
    if (dm == NULL) return;
    free(dm->still);
    free(dm->omega);
    free(dm->alpha);
    free(dm->acc);
    free(dm->axis);
    free(dm->sub);
    free(dm->qd);
    free(dm->qdd);
    free(dm->tau);
    free(dm->tau0);
    free(dm);
}

const PlnTaylor *pln_dynmotion_wrench(const PlnDynMotion *dm)
{
    return dm->W;
}

const PlnTaylor *pln_dynmotion_torque(const PlnDynMotion *dm)
{
    return dm->tau;
}

/* ---- 3-vectors of Taylor models ---------------------------------------------------- */

static void v_zero(PlnTaylor *v, int n)
{
    for (int i = 0; i < 3; ++i) pln_taylor_const(&v[i], n, 0.0);
}

static void v_add(PlnTaylor *o, const PlnTaylor *a, const PlnTaylor *b)
{
    for (int i = 0; i < 3; ++i) pln_taylor_add(&o[i], &a[i], &b[i]);
}

/* The range of a model's polynomial part (pln_taylor_poly_bound), made on first use: an
 * operand of several products within one of the operations below is bounded once, and
 * each product is pln_taylor_mul()'s bit for bit (pln_taylor_mul_ranges). */
typedef struct Range {
    double r[2];
    int have;
} Range;

static const double *range_of(const PlnTaylor *t, Range *c)
{
    if (!c->have) {
        pln_taylor_poly_bound(t, &c->r[0], &c->r[1]);
        c->have = 1;
    }
    return c->r;
}

/* o = a b, with the operands' range memos (a range is needed when the other operand has
 * a remainder, as in the product itself) */
static void mul_r(PlnTaylor *o, const PlnTaylor *a, Range *ar, const PlnTaylor *b, Range *br)
{
    const double *ab = (b->lo != 0.0 || b->hi != 0.0) ? range_of(a, ar) : NULL;
    const double *bb = (a->lo != 0.0 || a->hi != 0.0) ? range_of(b, br) : NULL;
    pln_taylor_mul_ranges(o, a, ab, b, bb);
}

/* o = a x b (o may alias neither) */
static void v_cross(PlnTaylor *o, const PlnTaylor *a, const PlnTaylor *b)
{
    PlnTaylor t;
    Range ar[3] = {{{0, 0}, 0}}, br[3] = {{{0, 0}, 0}};
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        mul_r(&o[i], &a[j], &ar[j], &b[k], &br[k]);
        mul_r(&t, &a[k], &ar[k], &b[j], &br[j]);
        pln_taylor_sub(&o[i], &o[i], &t);
    }
}

/* o = a * s (s a model; o may alias a) */
static void v_times(PlnTaylor *o, const PlnTaylor *a, const PlnTaylor *s)
{
    Range sr = {{0, 0}, 0};
    for (int i = 0; i < 3; ++i) {
        Range ar = {{0, 0}, 0};
        mul_r(&o[i], &a[i], &ar, s, &sr);
    }
}

/* o = R v for a model matrix R (row-major) and a constant vector v */
static void m_vconst(PlnTaylor *o, const PlnTaylor *R, const double v[3])
{
    for (int i = 0; i < 3; ++i) {
        pln_taylor_scale(&o[i], &R[3 * i], v[0]);
        pln_taylor_axpy(&o[i], &o[i], v[1], &R[3 * i + 1]);
        pln_taylor_axpy(&o[i], &o[i], v[2], &R[3 * i + 2]);
    }
}

/* o = R v (transpose = 0) or R^T v (transpose = 1) for a model matrix and vector (o
 * aliases neither); Rr: the range memos of R's entries, kept by the caller */
static void m_v(PlnTaylor *o, const PlnTaylor *R, Range Rr[9], const PlnTaylor *v, int transpose)
{
    PlnTaylor t;
    Range vr[3] = {{{0, 0}, 0}};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            int e = transpose ? 3 * k + i : 3 * i + k;
            if (k == 0) {
                mul_r(&o[i], &R[e], &Rr[e], &v[k], &vr[k]);
            } else {
                mul_r(&t, &R[e], &Rr[e], &v[k], &vr[k]);
                pln_taylor_add(&o[i], &o[i], &t);
            }
        }
    }
}

/* o = R I R^T v: the world-frame inertia times v (eq. D24); Rr as in m_v */
static void inertia_times(PlnTaylor *o, const PlnTaylor *R, Range Rr[9], const double I[9], const PlnTaylor *v)
{
    PlnTaylor loc[3], il[3];
    m_v(loc, R, Rr, v, 1);
    for (int i = 0; i < 3; ++i) {
        pln_taylor_scale(&il[i], &loc[0], I[3 * i]);
        pln_taylor_axpy(&il[i], &il[i], I[3 * i + 1], &loc[1]);
        pln_taylor_axpy(&il[i], &il[i], I[3 * i + 2], &loc[2]);
    }
    m_v(o, R, Rr, il, 0);
}

/* joint velocity and acceleration models from the position polynomial: exact
 * derivatives in t = t0 + h s, with the position error q_err carried over by Markov's
 * inequality |p'| <= 2 deg^2 max|p| on [0, 1] (eq. D22) */
static void derivative_models(int n, const double *c, int deg, double h, double q_err,
                              PlnTaylor *qd, PlnTaylor *qdd)
{
    double d1[PLN_TM_MAX_DEGREE + 1] = {0}, d2[PLN_TM_MAX_DEGREE + 1] = {0}, mag1 = 0.0, mag2 = 0.0;
    double markov = 2.0 * deg * deg, e1, e2;
    for (int k = 0; k + 1 <= deg; ++k) {
        d1[k] = (double)(k + 1) * c[k + 1] / h;
        mag1 += fabs(d1[k]);
    }
    for (int k = 0; k + 2 <= deg; ++k) {
        d2[k] = (double)((k + 2) * (k + 1)) * c[k + 2] / (h * h);
        mag2 += fabs(d2[k]);
    }
    pln_taylor_from_unit_poly(qd, n, d1, deg >= 1 ? deg - 1 : 0);
    pln_taylor_from_unit_poly(qdd, n, d2, deg >= 2 ? deg - 2 : 0);
    e1 = markov * q_err / h + 4.0 * PLN_TM_ROUND_REL * mag1;
    e2 = markov * 2.0 * (deg - 1) * (deg - 1) * q_err / (h * h) + 4.0 * PLN_TM_ROUND_REL * mag2;
    pln_taylor_add_interval(qd, qd, -e1, e1);
    pln_taylor_add_interval(qdd, qdd, -e2, e2);
}

PlnStatus pln_dynmotion_compute(PlnDynMotion *dm, const PlnRobot *robot,
                                const PlnLinkMotion *lm, const double *coef, int deg,
                                double h, const double *q_err, const unsigned char *moving,
                                double gravity_z, char *err, size_t err_size)
{
    const int n = pln_linkmotion_degree(lm), nl = robot->n_links;
    if (coef == NULL || moving == NULL || !(h > 0.0) || !isfinite(h) || deg < 0 ||
        deg > PLN_TM_MAX_DEGREE || nl != dm->n_links) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "dynamics over an interval: bad input");
    }
    dm->n = n;
    dm->lm = lm;
    for (int j = 0; j < robot->n_joints; ++j) {
        if (!moving[j]) continue;
        derivative_models(n, coef + (size_t)j * (deg + 1), deg, h, q_err ? q_err[j] : 0.0,
                          &dm->qd[j], &dm->qdd[j]);
    }
    /* forward: velocities and accelerations of every link (eq. D23) */
    for (int i = 0; i < nl; ++i) {
        const PlnLink *L = &robot->links[i];
        int pa = L->parent, j = L->joint;
        int mv = j >= 0 && moving[j];
        dm->still[i] = pa < 0 || (dm->still[pa] && !mv);
        if (dm->still[i]) continue;
        const PlnTaylor *R = pln_linkmotion_rot(lm, i);
        if (dm->still[pa]) {
            v_zero(dm->omega[i], n);
            v_zero(dm->alpha[i], n);
            v_zero(dm->acc[i], n);
        } else {
            /* a_i = a_pa + alpha_pa x r + omega_pa x (omega_pa x r), r = p_i - p_pa */
            PlnTaylor r[3], t[3], u[3];
            const PlnTaylor *p = pln_linkmotion_pos(lm, i), *pp = pln_linkmotion_pos(lm, pa);
            for (int k = 0; k < 3; ++k) pln_taylor_sub(&r[k], &p[k], &pp[k]);
            v_cross(t, dm->alpha[pa], r);
            v_cross(u, dm->omega[pa], r);
            v_add(t, t, dm->acc[pa]);
            v_cross(dm->acc[i], dm->omega[pa], u);
            v_add(dm->acc[i], dm->acc[i], t);
            memcpy(dm->omega[i], dm->omega[pa], sizeof(V3));
            memcpy(dm->alpha[i], dm->alpha[pa], sizeof(V3));
        }
        if (mv && robot->joints[j].type == PLN_JOINT_PRISMATIC) {
            /* sliding along z = R_i a (eq. D23b): omega and alpha unchanged,
             * a_i += 2 (omega_pa x z) qd + z qdd (r above already holds q z) */
            PlnTaylor t[3], u[3];
            m_vconst(dm->axis[i], R, robot->joints[j].axis);
            v_times(u, dm->axis[i], &dm->qdd[j]);
            v_add(dm->acc[i], dm->acc[i], u);
            if (!dm->still[pa]) {
                v_cross(t, dm->omega[i], dm->axis[i]);
                v_times(t, t, &dm->qd[j]);
                v_add(dm->acc[i], dm->acc[i], t);
                v_add(dm->acc[i], dm->acc[i], t);
            }
        } else if (mv) {
            /* omega_i = omega_pa + z qd, alpha_i = alpha_pa + (omega_pa x z) qd + z qdd */
            PlnTaylor t[3], u[3];
            m_vconst(dm->axis[i], R, robot->joints[j].axis);
            v_cross(t, dm->omega[i], dm->axis[i]);
            v_times(t, t, &dm->qd[j]);
            v_times(u, dm->axis[i], &dm->qdd[j]);
            v_add(dm->alpha[i], dm->alpha[i], t);
            v_add(dm->alpha[i], dm->alpha[i], u);
            v_times(t, dm->axis[i], &dm->qd[j]);
            v_add(dm->omega[i], dm->omega[i], t);
        }
    }
    /* each link's wrench about the origin: f = m (a_c + g e_z), n = c x f + I alpha +
     * omega x I omega (eq. D24); a still link has f = m g e_z */
    for (int i = 0; i < nl; ++i) {
        const PlnLink *L = &robot->links[i];
        PlnTaylor *w = dm->sub[i];
        PlnTaylor d[3], c[3], f[3], nn[3];
        const PlnTaylor *R = pln_linkmotion_rot(lm, i), *p = pln_linkmotion_pos(lm, i);
        for (int k = 0; k < 6; ++k) pln_taylor_const(&w[k], n, 0.0);
        if (L->mass == 0.0) continue;
        m_vconst(d, R, L->com);
        v_add(c, p, d);
        if (dm->still[i]) {
            pln_taylor_const(&f[0], n, 0.0);
            pln_taylor_const(&f[1], n, 0.0);
            pln_taylor_const(&f[2], n, L->mass * gravity_z);
            v_cross(nn, c, f);
        } else {
            PlnTaylor ac[3], t[3], u[3], Ia[3], Iw[3];
            v_cross(t, dm->alpha[i], d);
            v_cross(u, dm->omega[i], d);
            v_cross(ac, dm->omega[i], u);
            v_add(ac, ac, t);
            v_add(ac, ac, dm->acc[i]);
            for (int k = 0; k < 3; ++k) pln_taylor_scale(&f[k], &ac[k], L->mass);
            {
                PlnTaylor g;
                pln_taylor_const(&g, n, L->mass * gravity_z);
                pln_taylor_add(&f[2], &f[2], &g);
            }
            v_cross(nn, c, f);
            Range Rr[9] = {{{0, 0}, 0}};
            inertia_times(Ia, R, Rr, L->inertia, dm->alpha[i]);
            inertia_times(Iw, R, Rr, L->inertia, dm->omega[i]);
            v_cross(t, dm->omega[i], Iw);
            v_add(nn, nn, Ia);
            v_add(nn, nn, t);
        }
        for (int k = 0; k < 3; ++k) {
            w[k] = nn[k];
            w[3 + k] = f[k];
        }
    }
    /* backward: subtree sums, W at the root, torques z . (N - p x F) (eq. D25), a
     * prismatic joint's force z . F (eq. D25b) */
    for (int i = nl - 1; i > 0; --i) {
        int pa = robot->links[i].parent;
        for (int k = 0; k < 6; ++k) pln_taylor_add(&dm->sub[pa][k], &dm->sub[pa][k], &dm->sub[i][k]);
    }
    memcpy(dm->W, dm->sub[0], sizeof dm->W);
    for (int j = 0; j < robot->n_joints; ++j) {
        int l = robot->joints[j].link;
        const PlnTaylor *p = pln_linkmotion_pos(lm, l), *R = pln_linkmotion_rot(lm, l);
        PlnTaylor z[3], pf[3], m[3], t;
        if (robot->joints[j].type == PLN_JOINT_FIXED) {
            pln_taylor_const(&dm->tau[j], n, 0.0);
            continue;
        }
        if (moving[j]) memcpy(z, dm->axis[l], sizeof z);
        else m_vconst(z, R, robot->joints[j].axis);
        if (robot->joints[j].type == PLN_JOINT_PRISMATIC) {
            memcpy(m, &dm->sub[l][3], sizeof m);
        } else {
            v_cross(pf, p, &dm->sub[l][3]);
            for (int k = 0; k < 3; ++k) pln_taylor_sub(&m[k], &dm->sub[l][k], &pf[k]);
        }
        pln_taylor_mul(&dm->tau[j], &z[0], &m[0]);
        pln_taylor_mul(&t, &z[1], &m[1]);
        pln_taylor_add(&dm->tau[j], &dm->tau[j], &t);
        pln_taylor_mul(&t, &z[2], &m[2]);
        pln_taylor_add(&dm->tau[j], &dm->tau[j], &t);
    }
    memcpy(dm->tau0, dm->tau, (size_t)robot->n_joints * sizeof *dm->tau);
    for (int k = 0; k < 6; ++k) {
        if (!pln_taylor_is_finite(&dm->W[k])) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "dynamics over an interval: overflow");
        }
    }
    return PLN_OK;
}

int pln_dynmotion_contact(PlnDynMotion *dm, const PlnRobot *robot, const PlnSupport *s,
                          double min_fz, PlnTaylor zmp_out[2])
{
    const int n = dm->n;
    const PlnTaylor *n0 = &dm->W[0], *f = &dm->W[3];
    PlnTaylor inv, p[2], tz, t, u, alpha, beta, z;
    double lo, hi;
    memcpy(dm->tau, dm->tau0, (size_t)dm->n_joints * sizeof *dm->tau);
    pln_taylor_bound(&f[2], &lo, &hi);
    if (!(lo > min_fz)) return 0;
    if (!pln_taylor_recip(&inv, &f[2])) return 0;
    pln_taylor_const(&z, n, s->floor_z);
    /* eq. D17 */
    pln_taylor_scale(&t, &f[0], s->floor_z);
    pln_taylor_sub(&t, &t, &n0[1]);
    pln_taylor_mul(&p[0], &t, &inv);
    pln_taylor_axpy(&t, &n0[0], s->floor_z, &f[1]);
    pln_taylor_mul(&p[1], &t, &inv);
    pln_taylor_mul(&t, &p[0], &f[1]);
    pln_taylor_mul(&u, &p[1], &f[0]);
    pln_taylor_sub(&t, &t, &u);
    pln_taylor_sub(&tz, &n0[2], &t);
    if (zmp_out != NULL) {
        zmp_out[0] = p[0];
        zmp_out[1] = p[1];
    }
    /* eq. D18, with the clamp as an interval where it may act */
    if (s->n_feet == 1) {
        pln_taylor_const(&alpha, n, 1.0);
    } else {
        double d[2] = {s->centre[0][0] - s->centre[1][0], s->centre[0][1] - s->centre[1][1]};
        double dd = d[0] * d[0] + d[1] * d[1];
        PlnTaylor c2;
        pln_taylor_const(&c2, n, -(d[0] * s->centre[1][0] + d[1] * s->centre[1][1]) / dd);
        pln_taylor_axpy(&alpha, &c2, d[0] / dd, &p[0]);
        pln_taylor_axpy(&alpha, &alpha, d[1] / dd, &p[1]);
        pln_taylor_bound(&alpha, &lo, &hi);
        if (lo >= 1.0) {
            pln_taylor_const(&alpha, n, 1.0);
        } else if (hi <= 0.0) {
            pln_taylor_const(&alpha, n, 0.0);
        } else if (lo < 0.0 || hi > 1.0) {
            double a0 = fmax(lo, 0.0), a1 = fmin(hi, 1.0);
            pln_taylor_const(&alpha, n, 0.5 * (a0 + a1));
            pln_taylor_add_interval(&alpha, &alpha, -0.5 * (a1 - a0), 0.5 * (a1 - a0));
        }
    }
    {
        PlnTaylor one;
        pln_taylor_const(&one, n, 1.0);
        pln_taylor_sub(&beta, &one, &alpha);
    }
    for (int k = 0; k < s->n_feet; ++k) {
        /* eq. D19-D20: the foot's centre of pressure and wrench */
        PlnTaylor c[3], fk[3], nk[3], m[3], pf[3];
        const PlnTaylor *share = k == 0 ? &alpha : &beta;
        for (int i = 0; i < 2; ++i) {
            double d = s->n_feet == 2 ? s->centre[0][i] - s->centre[1][i] : 0.0;
            if (k == 0) pln_taylor_axpy(&c[i], &p[i], d, &beta);
            else pln_taylor_axpy(&c[i], &p[i], -d, &alpha);
        }
        c[2] = z;
        v_times(fk, f, share);
        v_cross(nk, c, fk);
        pln_taylor_mul(&t, share, &tz);
        pln_taylor_add(&nk[2], &nk[2], &t);
        /* subtract from the joints between the base and the foot (eq. D21; a prismatic
         * joint's force z . f_k, eq. D21b) */
        for (int l = s->link[k]; l > 0; l = robot->links[l].parent) {
            int j = robot->links[l].joint;
            PlnTaylor zax[3];
            if (j < 0 || robot->joints[j].type == PLN_JOINT_FIXED) continue;
            m_vconst(zax, pln_linkmotion_rot(dm->lm, l), robot->joints[j].axis);
            if (robot->joints[j].type == PLN_JOINT_PRISMATIC) {
                memcpy(m, fk, sizeof m);
            } else {
                v_cross(pf, pln_linkmotion_pos(dm->lm, l), fk);
                for (int i = 0; i < 3; ++i) pln_taylor_sub(&m[i], &nk[i], &pf[i]);
            }
            for (int i = 0; i < 3; ++i) {
                pln_taylor_mul(&t, &zax[i], &m[i]);
                pln_taylor_sub(&dm->tau[j], &dm->tau[j], &t);
            }
        }
    }
    return 1;
}
