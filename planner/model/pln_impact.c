/* pln_impact.c — the impulse response of articulated bodies to one collision
 * (docs/math/impact.md, eq. I1-I14, after seed 004's eq. 1-11 and sec. 3-4). */
#include "model/pln_impact.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

struct PlnImpactWork {
    int max_bodies, max_joints, max_blocks;
    int K;                     /* blocks of the current system */
    int *jblock;               /* [max_joints] first block of each joint's impulses */
    int *jcount;               /* [max_joints] 1 (P) or 2 (P, T) */
    double *A;                 /* [max_blocks^2 * 9] block matrix, block (r, c) at (r K + c) 9 */
    unsigned char *nz;         /* [max_blocks^2] 0 zero, 1 a block of A (U), 2 a multiplier (L) */
    double *b;                 /* [3 max_blocks] right-hand side */
    double *x;                 /* [3 max_blocks] solution */
    double *xe;                /* [3 max_blocks] Newton's solution while capping (I15) */
    double *r;                 /* [3 max_blocks] residual, refinement */
    double *A0;                /* [max_blocks^2 * 9] the assembled blocks, kept */
    unsigned char *nz0;        /* [max_blocks^2] their flags */
    int *perm;                 /* [max_blocks] block row swapped with row k at step k */
    double *pinv;              /* [max_blocks * 9] inverses of the pivot blocks */
    double *dense;             /* [(3 max_blocks)^2] column-major, for LAPACKE_dgesv */
    lapack_int *ipiv;          /* [3 max_blocks] */
    double *v, *w;             /* [3 max_bodies] post-impact */
    double *jP, *jT;           /* [3 max_joints] */
    long ops;
};

/* ---- 3x3 helpers ------------------------------------------------------------------ */

static void m3_zero(double M[9])
{
    memset(M, 0, 9 * sizeof *M);
}

static void m3_identity(double M[9], double s)
{
    m3_zero(M);
    M[0] = M[4] = M[8] = s;
}

/* [l]x: the matrix of l x (.) */
static void m3_skew(double M[9], const double l[3])
{
    M[0] = 0.0;
    M[1] = -l[2];
    M[2] = l[1];
    M[3] = l[2];
    M[4] = 0.0;
    M[5] = -l[0];
    M[6] = -l[1];
    M[7] = l[0];
    M[8] = 0.0;
}

static void m3_mul(const double A[9], const double B[9], double C[9])
{
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            C[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
        }
    }
}

static void m3_vec(const double A[9], const double x[3], double y[3])
{
    for (int r = 0; r < 3; ++r) y[r] = A[3 * r] * x[0] + A[3 * r + 1] * x[1] + A[3 * r + 2] * x[2];
}

static double m3_det(const double A[9])
{
    return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
           A[2] * (A[3] * A[7] - A[4] * A[6]);
}

static double m3_norm(const double A[9])
{
    double s = 0.0;
    for (int k = 0; k < 9; ++k) s += A[k] * A[k];
    return sqrt(s);
}

/* inverse by Gaussian elimination with partial pivoting; 0 when singular */
static int m3_inverse(const double A[9], double Ainv[9])
{
    double a[3][6];
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            a[r][c] = A[3 * r + c];
            a[r][3 + c] = r == c ? 1.0 : 0.0;
        }
    }
    for (int k = 0; k < 3; ++k) {
        int p = k;
        for (int r = k + 1; r < 3; ++r) {
            if (fabs(a[r][k]) > fabs(a[p][k])) p = r;
        }
        if (!(fabs(a[p][k]) > 0.0)) return 0;
        if (p != k) {
            for (int c = 0; c < 6; ++c) {
                double t = a[k][c];
                a[k][c] = a[p][c];
                a[p][c] = t;
            }
        }
        for (int r = 0; r < 3; ++r) {
            double f;
            if (r == k) continue;
            f = a[r][k] / a[k][k];
            for (int c = k; c < 6; ++c) a[r][c] -= f * a[k][c];
        }
    }
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) Ainv[3 * r + c] = a[r][3 + c] / a[r][r];
    }
    return 1;
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* two unit vectors u, v with (u, v, k) right-handed and orthonormal (eq. I2): u is k x e,
 * normalised, for e the world axis least aligned with k (a fixed, documented choice) */
static void perp_basis(const double k[3], double u[3], double v[3])
{
    double e[3] = {0.0, 0.0, 0.0}, n;
    int a = 0;
    for (int c = 1; c < 3; ++c) {
        if (fabs(k[c]) < fabs(k[a])) a = c;
    }
    e[a] = 1.0;
    cross(k, e, u);
    n = sqrt(dot(u, u));
    for (int c = 0; c < 3; ++c) u[c] /= n;
    cross(k, u, v);
}

/* ---- validation ------------------------------------------------------------------- */

static int finite3(const double *a, int n)
{
    for (int k = 0; k < n; ++k) {
        if (!isfinite(a[k])) return 0;
    }
    return 1;
}

static int unit(const double a[3])
{
    return finite3(a, 3) && fabs(sqrt(dot(a, a)) - 1.0) <= PLN_IMPACT_UNIT_TOL;
}

/* symmetric positive definite: symmetric within a relative 1e-9 and a Cholesky factor */
static int spd3(const double J[9])
{
    double s = m3_norm(J), l00, l10, l20, l11, l21, d;
    if (!finite3(J, 9) || !(s > 0.0)) return 0;
    if (fabs(J[1] - J[3]) > 1e-9 * s || fabs(J[2] - J[6]) > 1e-9 * s || fabs(J[5] - J[7]) > 1e-9 * s) return 0;
    if (!(J[0] > 0.0)) return 0;
    l00 = sqrt(J[0]);
    l10 = J[3] / l00;
    l20 = J[6] / l00;
    d = J[4] - l10 * l10;
    if (!(d > 0.0)) return 0;
    l11 = sqrt(d);
    l21 = (J[7] - l20 * l10) / l11;
    d = J[8] - l20 * l20 - l21 * l21;
    return d > 0.0;
}

PlnStatus pln_impact_validate(const PlnImpactSystem *s, char *err, size_t err_size)
{
    const PlnImpactContact *c = &s->contact;
    if (s->n_bodies < 1 || s->bodies == NULL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "the mechanism has no bodies");
    }
    if (s->n_joints < 0 || (s->n_joints > 0 && s->joints == NULL)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "bad joint list");
    }
    for (int i = 0; i < s->n_bodies; ++i) {
        const PlnImpactBody *b = &s->bodies[i];
        if (!(isfinite(b->mass) && b->mass > 0.0)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "body '%s': mass must be positive and finite", b->name);
        }
        if (!spd3(b->inertia)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "body '%s': the inertia must be symmetric positive definite", b->name);
        }
        if (!finite3(b->com, 3) || !finite3(b->v, 3) || !finite3(b->w, 3)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "body '%s': a position or velocity is not finite", b->name);
        }
    }
    for (int j = 0; j < s->n_joints; ++j) {
        const PlnImpactJoint *jt = &s->joints[j];
        if ((int)jt->type < (int)PLN_IMPACT_POINT || (int)jt->type > (int)PLN_IMPACT_FIXED) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint '%s': unknown type", jt->name);
        }
        if (jt->body_i < 0 || jt->body_i >= s->n_bodies || jt->body_j < PLN_IMPACT_WORLD ||
            jt->body_j >= s->n_bodies || jt->body_i == jt->body_j) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint '%s': it must join two different bodies", jt->name);
        }
        if (jt->type == PLN_IMPACT_NAIL && jt->body_j != PLN_IMPACT_WORLD) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint '%s': a nail holds one body to the world", jt->name);
        }
        if (!finite3(jt->anchor, 3)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint '%s': the anchor is not finite", jt->name);
        }
        if (jt->type != PLN_IMPACT_POINT && jt->type != PLN_IMPACT_NAIL && jt->type != PLN_IMPACT_FIXED &&
            !unit(jt->axis)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint '%s': the axis must be a unit vector", jt->name);
        }
    }
    if (c->body_a < 0 || c->body_a >= s->n_bodies || c->body_b < PLN_IMPACT_WORLD || c->body_b >= s->n_bodies ||
        c->body_a == c->body_b) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "contact: it must be between two different bodies");
    }
    if (!finite3(c->point, 3) || !unit(c->normal)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "contact: the point must be finite and the normal a unit vector");
    }
    if (!(c->restitution >= 0.0 && c->restitution <= 1.0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "contact: restitution must be in [0, 1]");
    }
    if (!(c->mu >= 0.0 && isfinite(c->mu))) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "contact: friction must be finite and >= 0");
    }
    return PLN_OK;
}

/* ---- workspace -------------------------------------------------------------------- */

PlnStatus pln_impact_work_create(int n_bodies, int n_joints, PlnImpactWork **out, char *err,
                                 size_t err_size)
{
    PlnImpactWork *w;
    size_t K, N;
    *out = NULL;
    if (n_bodies < 1 || n_joints < 0 || n_bodies > PLN_IMPACT_MAX_BODIES || n_joints > PLN_IMPACT_MAX_JOINTS) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "impact: %d bodies and %d joints (at most %d and %d)", n_bodies, n_joints,
                          PLN_IMPACT_MAX_BODIES, PLN_IMPACT_MAX_JOINTS);
    }
    w = calloc(1, sizeof *w);
    if (w == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    w->max_bodies = n_bodies;
    w->max_joints = n_joints;
    w->max_blocks = 2 * n_bodies + 2 * n_joints + 1;
    K = (size_t)w->max_blocks;
    N = 3 * K;
    w->jblock = calloc((size_t)n_joints + 1, sizeof *w->jblock);
    w->jcount = calloc((size_t)n_joints + 1, sizeof *w->jcount);
    w->A = calloc(K * K * 9, sizeof *w->A);
    w->nz = calloc(K * K, 1);
    w->b = calloc(N, sizeof *w->b);
    w->x = calloc(N, sizeof *w->x);
    w->xe = calloc(N, sizeof *w->xe);
    w->r = calloc(N, sizeof *w->r);
    w->A0 = calloc(K * K * 9, sizeof *w->A0);
    w->nz0 = calloc(K * K, 1);
    w->perm = calloc(K, sizeof *w->perm);
    w->pinv = calloc(K * 9, sizeof *w->pinv);
    w->dense = calloc(N * N, sizeof *w->dense);
    w->ipiv = calloc(N, sizeof *w->ipiv);
    w->v = calloc((size_t)3 * n_bodies, sizeof *w->v);
    w->w = calloc((size_t)3 * n_bodies, sizeof *w->w);
    w->jP = calloc((size_t)3 * n_joints + 1, sizeof *w->jP);
    w->jT = calloc((size_t)3 * n_joints + 1, sizeof *w->jT);
    if (!w->jblock || !w->jcount || !w->A || !w->nz || !w->b || !w->x || !w->xe || !w->r || !w->A0 || !w->nz0 || !w->perm || !w->pinv || !w->dense ||
        !w->ipiv || !w->v || !w->w || !w->jP || !w->jT) {
        pln_impact_work_destroy(w);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory for an impact of %d bodies", n_bodies);
    }
    *out = w;
    return PLN_OK;
}

void pln_impact_work_destroy(PlnImpactWork *w)
{
    if (w == NULL) return;
    free(w->jblock);
    free(w->jcount);
    free(w->A);
    free(w->nz);
    free(w->b);
    free(w->x);
    free(w->xe);
    free(w->r);
    free(w->A0);
    free(w->nz0);
    free(w->perm);
    free(w->pinv);
    free(w->dense);
    free(w->ipiv);
    free(w->v);
    free(w->w);
    free(w->jP);
    free(w->jT);
    free(w);
}

/* ---- assembly --------------------------------------------------------------------- */

static double *blk(PlnImpactWork *w, int r, int c)
{
    return w->A + ((size_t)r * w->K + c) * 9;
}

/* A(r, c) += s M */
static void add(PlnImpactWork *w, int r, int c, const double M[9], double s)
{
    double *B = blk(w, r, c);
    for (int k = 0; k < 9; ++k) B[k] += s * M[k];
    w->nz[(size_t)r * w->K + c] = 1;
}

/* A(r, c) += s S [l]x */
static void add_skew(PlnImpactWork *w, int r, int c, const double S[9], const double l[3], double s)
{
    double L[9], M[9];
    m3_skew(L, l);
    m3_mul(S, L, M);
    add(w, r, c, M, s);
}

/* rows of a selector: S = [a^T; b^T; c^T] (NULL rows are zero) */
static void selector(double S[9], const double *a, const double *b, const double *c)
{
    const double *rows[3] = {a, b, c};
    for (int r = 0; r < 3; ++r) {
        for (int k = 0; k < 3; ++k) S[3 * r + k] = rows[r] != NULL ? rows[r][k] : 0.0;
    }
}

/* S (vel_i + w_i x l_i - vel_j - w_j x l_j) in block row r: the relative velocity of the
 * anchor point p on body i w.r.t. body j, l_k = p - com_k (eq. I5) */
static void add_relative_velocity(PlnImpactWork *w, const PlnImpactSystem *s, int r, int bi, int bj,
                                  const double p[3], const double S[9])
{
    const int body[2] = {bi, bj};
    for (int side = 0; side < 2; ++side) {
        int k = body[side];
        double sign = side == 0 ? 1.0 : -1.0, l[3];
        if (k == PLN_IMPACT_WORLD) continue;
        for (int c = 0; c < 3; ++c) l[c] = p[c] - s->bodies[k].com[c];
        add(w, r, 2 * k, S, sign);
        /* w x l = -[l]x w */
        add_skew(w, r, 2 * k + 1, S, l, -sign);
    }
}

/* S (w_j - w_i) in block row r (eq. I7) */
static void add_relative_turn(PlnImpactWork *w, int r, int bi, int bj, const double S[9])
{
    if (bj != PLN_IMPACT_WORLD) add(w, r, 2 * bj + 1, S, 1.0);
    add(w, r, 2 * bi + 1, S, -1.0);
}

/* momentum of body k under an impulse F applied at p through the unknown block c with
 * sign s: m v - s F = m v0 (I3), I w - s (l x F) = I w0 (I4) */
static void add_impulse_on_body(PlnImpactWork *w, const PlnImpactSystem *s, int k, int c,
                                const double p[3], double sign)
{
    double I3[9], l[3];
    if (k == PLN_IMPACT_WORLD) return;
    m3_identity(I3, 1.0);
    for (int d = 0; d < 3; ++d) l[d] = p[d] - s->bodies[k].com[d];
    add(w, 2 * k, c, I3, -sign);
    add_skew(w, 2 * k + 1, c, I3, l, -sign);
}

/* a pure impulse torque T through block c on body k with sign s: I w - s T = I w0 (I4) */
static void add_torque_on_body(PlnImpactWork *w, int k, int c, double sign)
{
    double I3[9];
    if (k == PLN_IMPACT_WORLD) return;
    m3_identity(I3, 1.0);
    add(w, 2 * k + 1, c, I3, -sign);
}

static int joint_blocks(PlnImpactJointType t)
{
    return t == PLN_IMPACT_POINT || t == PLN_IMPACT_NAIL ? 1 : 2;
}

/* the whole system A x = b (eq. I3-I12); slide: the sliding rows (10)-(11) with
 * coefficients alpha, beta instead of the sticking rows (8)-(9) */
static void assemble(PlnImpactWork *w, const PlnImpactSystem *s, const double frame[9],
                     const double u[3], double e, int slide, double alpha, double beta)
{
    const PlnImpactContact *ct = &s->contact;
    const int n = s->n_bodies;
    int next = 2 * n, C;
    double I3[9];
    for (int j = 0; j < s->n_joints; ++j) {
        w->jblock[j] = next;
        w->jcount[j] = joint_blocks(s->joints[j].type);
        next += w->jcount[j];
    }
    C = next;
    w->K = next + 1;
    memset(w->A, 0, (size_t)w->K * w->K * 9 * sizeof *w->A);
    memset(w->nz, 0, (size_t)w->K * w->K);
    memset(w->b, 0, (size_t)3 * w->K * sizeof *w->b);
    m3_identity(I3, 1.0);
    /* bodies: momentum (I3, I4; paper eq. 1-6) */
    for (int k = 0; k < n; ++k) {
        const PlnImpactBody *bd = &s->bodies[k];
        double Iw[3];
        add(w, 2 * k, 2 * k, I3, bd->mass);
        add(w, 2 * k + 1, 2 * k + 1, bd->inertia, 1.0);
        m3_vec(bd->inertia, bd->w, Iw);
        for (int d = 0; d < 3; ++d) {
            w->b[6 * k + d] = bd->mass * bd->v[d];
            w->b[6 * k + 3 + d] = Iw[d];
        }
    }
    /* the contact impulse P on a, -P on b */
    add_impulse_on_body(w, s, ct->body_a, C, ct->point, 1.0);
    add_impulse_on_body(w, s, ct->body_b, C, ct->point, -1.0);
    /* joints: their impulses in the momentum rows, their conditions in their own rows */
    for (int j = 0; j < s->n_joints; ++j) {
        const PlnImpactJoint *jt = &s->joints[j];
        int P = w->jblock[j], T = P + 1;
        double du[3], dv[3], S[9];
        const double *dk = jt->axis;
        add_impulse_on_body(w, s, jt->body_i, P, jt->anchor, 1.0);
        add_impulse_on_body(w, s, jt->body_j, P, jt->anchor, -1.0);
        if (w->jcount[j] == 2) {
            add_torque_on_body(w, jt->body_i, T, 1.0);
            add_torque_on_body(w, jt->body_j, T, -1.0);
        }
        if (jt->type != PLN_IMPACT_POINT && jt->type != PLN_IMPACT_NAIL && jt->type != PLN_IMPACT_FIXED) {
            perp_basis(dk, du, dv);
        }
        switch (jt->type) {
        case PLN_IMPACT_POINT:
        case PLN_IMPACT_NAIL:
        case PLN_IMPACT_REVOLUTE:
        case PLN_IMPACT_ANGLE:
        case PLN_IMPACT_FIXED:
            /* the anchors move together (I5) */
            add_relative_velocity(w, s, P, jt->body_i, jt->body_j, jt->anchor, I3);
            break;
        case PLN_IMPACT_CYLINDRICAL:
        case PLN_IMPACT_PRISMATIC:
            /* together across the axis, free along it: no impulse along it (I6) */
            selector(S, du, dv, NULL);
            add_relative_velocity(w, s, P, jt->body_i, jt->body_j, jt->anchor, S);
            selector(S, NULL, NULL, dk);
            add(w, P, P, S, 1.0);
            break;
        }
        switch (jt->type) {
        case PLN_IMPACT_REVOLUTE:
        case PLN_IMPACT_CYLINDRICAL:
            /* turning only about the axis; no impulse torque about it (I7) */
            selector(S, du, dv, NULL);
            add_relative_turn(w, T, jt->body_i, jt->body_j, S);
            selector(S, NULL, NULL, dk);
            add(w, T, T, S, 1.0);
            break;
        case PLN_IMPACT_ANGLE:
            /* no turning about the axis; no impulse torque across it (I8) */
            selector(S, du, dv, NULL);
            add(w, T, T, S, 1.0);
            selector(S, NULL, NULL, dk);
            add_relative_turn(w, T, jt->body_i, jt->body_j, S);
            break;
        case PLN_IMPACT_PRISMATIC:
        case PLN_IMPACT_FIXED:
            /* no relative turning (I9) */
            add_relative_turn(w, T, jt->body_i, jt->body_j, I3);
            break;
        default:
            break;
        }
    }
    /* the contact's rows: restitution (I10, paper eq. 7) and friction */
    {
        const double *N = frame, *Tt = frame + 3, *R = frame + 6;
        double S[9];
        if (slide) {
            double t_row[3], r_row[3];
            for (int d = 0; d < 3; ++d) {
                t_row[d] = Tt[d] - alpha * N[d]; /* P.T = alpha P.N (I12, eq. 10) */
                r_row[d] = R[d] - beta * N[d];   /* P.R = beta P.N (eq. 11) */
            }
            selector(S, N, NULL, NULL);
            add_relative_velocity(w, s, C, ct->body_a, ct->body_b, ct->point, S);
            selector(S, NULL, t_row, r_row);
            add(w, C, C, S, 1.0);
        } else {
            /* sticking: no tangential relative velocity after (I11, eq. 8-9) */
            selector(S, N, Tt, R);
            add_relative_velocity(w, s, C, ct->body_a, ct->body_b, ct->point, S);
        }
        w->b[3 * C] = -e * u[0];
    }
}

/* ---- the two solvers -------------------------------------------------------------- */

/* a 3x3 block's fitness as a pivot: |det| / |B|^3 (1/(3 sqrt 3) for the identity; 0 when
 * singular) */
static double pivot_score(const double B[9])
{
    double nrm = m3_norm(B);
    return nrm > 0.0 ? fabs(m3_det(B)) / (nrm * nrm * nrm) : 0.0;
}

static void swap_block_rows(PlnImpactWork *w, int r1, int r2)
{
    const int K = w->K;
    for (int c = 0; c < K; ++c) {
        double *a = blk(w, r1, c), *b = blk(w, r2, c), t[9];
        unsigned char f = w->nz[(size_t)r1 * K + c];
        memcpy(t, a, sizeof t);
        memcpy(a, b, sizeof t);
        memcpy(b, t, sizeof t);
        w->nz[(size_t)r1 * K + c] = w->nz[(size_t)r2 * K + c];
        w->nz[(size_t)r2 * K + c] = f;
    }
}

/* y = b - A0 x with the system as assembled (A0, the copy kept before factorising) */
static void residual(const PlnImpactWork *w, const double *x, double *y)
{
    const int K = w->K;
    memcpy(y, w->b, (size_t)3 * K * sizeof *y);
    for (int r = 0; r < K; ++r) {
        for (int c = 0; c < K; ++c) {
            double z[3];
            if (!w->nz0[(size_t)r * K + c]) continue;
            m3_vec(w->A0 + ((size_t)r * K + c) * 9, x + 3 * c, z);
            for (int d = 0; d < 3; ++d) y[3 * r + d] -= z[d];
        }
    }
}

/* Block LU factorisation on the 3x3 blocks (paper sec. 4; eq. I13): the pivot block of
 * column k is the diagonal one unless another row's block there is much better
 * conditioned (block partial pivoting); only nonzero blocks are multiplied. The
 * multipliers L(r, k) stay in the lower blocks (flag 2), U and the pivots' inverses in
 * the upper ones. */
static PlnStatus factor_block(PlnImpactWork *w, char *err, size_t err_size)
{
    const int K = w->K;
    for (int k = 0; k < K; ++k) {
        int p = k;
        double best = w->nz[(size_t)k * K + k] == 1 ? pivot_score(blk(w, k, k)) : 0.0;
        if (best < PLN_IMPACT_PIVOT_SWAP) {
            for (int r = k + 1; r < K; ++r) {
                double sc;
                if (w->nz[(size_t)r * K + k] != 1) continue;
                sc = pivot_score(blk(w, r, k));
                if (sc > best * PLN_IMPACT_PIVOT_GAIN) {
                    best = sc;
                    p = r;
                }
            }
        }
        if (!(best > PLN_IMPACT_SINGULAR)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "impact: the system is singular (redundant or contradictory joints, a "
                              "contact whose points cannot move apart in every direction, or a body "
                              "that nothing determines), at unknown block %d",
                              k);
        }
        w->perm[k] = p;
        if (p != k) swap_block_rows(w, p, k);
        if (!m3_inverse(blk(w, k, k), w->pinv + (size_t)9 * k)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "impact: singular pivot block %d", k);
        }
        for (int r = k + 1; r < K; ++r) {
            double L[9], M[9];
            if (w->nz[(size_t)r * K + k] != 1) continue;
            m3_mul(blk(w, r, k), w->pinv + (size_t)9 * k, L);
            ++w->ops;
            for (int c = k + 1; c < K; ++c) {
                if (w->nz[(size_t)k * K + c] != 1) continue;
                m3_mul(L, blk(w, k, c), M);
                add(w, r, c, M, -1.0);
                ++w->ops;
            }
            memcpy(blk(w, r, k), L, sizeof L);
            w->nz[(size_t)r * K + k] = 2;
        }
    }
    return PLN_OK;
}

/* solves with the factors: the row swaps, L, then U from the bottom (y is overwritten
 * with the solution) */
static void apply_block(PlnImpactWork *w, double *y)
{
    const int K = w->K;
    for (int k = 0; k < K; ++k) {
        int p = w->perm[k];
        if (p == k) continue;
        for (int d = 0; d < 3; ++d) {
            double t = y[3 * k + d];
            y[3 * k + d] = y[3 * p + d];
            y[3 * p + d] = t;
        }
    }
    for (int k = 0; k < K; ++k) {
        for (int r = k + 1; r < K; ++r) {
            double z[3];
            if (w->nz[(size_t)r * K + k] != 2) continue;
            m3_vec(blk(w, r, k), y + 3 * k, z);
            for (int d = 0; d < 3; ++d) y[3 * r + d] -= z[d];
            ++w->ops;
        }
    }
    for (int k = K - 1; k >= 0; --k) {
        double t[3] = {y[3 * k], y[3 * k + 1], y[3 * k + 2]}, z[3];
        for (int c = k + 1; c < K; ++c) {
            if (w->nz[(size_t)k * K + c] != 1) continue;
            m3_vec(blk(w, k, c), y + 3 * c, z);
            for (int d = 0; d < 3; ++d) t[d] -= z[d];
            ++w->ops;
        }
        m3_vec(w->pinv + (size_t)9 * k, t, y + 3 * k);
    }
}

/* the dense matrix of the assembled blocks, column-major */
static void densify(PlnImpactWork *w)
{
    const int K = w->K, N = 3 * K;
    memset(w->dense, 0, (size_t)N * N * sizeof *w->dense);
    for (int r = 0; r < K; ++r) {
        for (int c = 0; c < K; ++c) {
            const double *B;
            if (!w->nz0[(size_t)r * K + c]) continue;
            B = w->A0 + ((size_t)r * K + c) * 9;
            for (int a = 0; a < 3; ++a) {
                for (int b = 0; b < 3; ++b) w->dense[(size_t)(3 * c + b) * N + 3 * r + a] = B[3 * a + b];
            }
        }
    }
}

/* x from the assembled system by either solver, each with one step of iterative
 * refinement (the residual from the assembled blocks, solved with the same factors), so
 * that both reach the system's own accuracy rather than their round-off paths' */
static PlnStatus run(PlnImpactWork *w, PlnImpactSolver solver, char *err, size_t err_size)
{
    const int K = w->K, N = 3 * K;
    PlnStatus st = PLN_OK;
    memcpy(w->A0, w->A, (size_t)K * K * 9 * sizeof *w->A0);
    memcpy(w->nz0, w->nz, (size_t)K * K);
    w->ops = 0;
    if (solver == PLN_IMPACT_DENSE) {
        lapack_int info;
        double anorm, rcond = 0.0;
        densify(w);
        memcpy(w->x, w->b, (size_t)N * sizeof *w->x);
        anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', N, N, w->dense, N);
        info = LAPACKE_dgesv(LAPACK_COL_MAJOR, N, 1, w->dense, N, w->ipiv, w->x, N);
        /* a pivot that round-off kept from zero is no solution: the reciprocal condition
         * number of the LU factors says so */
        if (info == 0 && (LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', N, w->dense, N, anorm, &rcond) != 0 ||
                          !(rcond > PLN_IMPACT_RCOND_MIN))) {
            info = N;
        }
        if (info != 0) {
            return pln_errorf(info > 0 ? PLN_ERR_INVALID : PLN_ERR_INTERNAL, err, err_size,
                              "impact: the system is singular (redundant or contradictory joints, a "
                              "contact whose points cannot move apart in every direction, or a body "
                              "that nothing determines; LAPACKE_dgesv/dgecon info %d, rcond %.3g)",
                              (int)info, rcond);
        }
        residual(w, w->x, w->r);
        if (LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', N, 1, w->dense, N, w->ipiv, w->r, N) != 0) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "impact: LAPACKE_dgetrs failed");
        }
    } else {
        st = factor_block(w, err, err_size);
        if (st != PLN_OK) return st;
        memcpy(w->x, w->b, (size_t)N * sizeof *w->x);
        apply_block(w, w->x);
        residual(w, w->x, w->r);
        apply_block(w, w->r);
    }
    for (int k = 0; k < N; ++k) w->x[k] += w->r[k];
    return PLN_OK;
}

/* ---- the solve -------------------------------------------------------------------- */

/* velocity of body k's point p: v + w x (p - com); zero for the world */
static void point_velocity(const PlnImpactSystem *s, const double *v, const double *w, int k,
                           const double p[3], double out[3])
{
    double l[3], wl[3];
    if (k == PLN_IMPACT_WORLD) {
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
    for (int d = 0; d < 3; ++d) l[d] = p[d] - s->bodies[k].com[d];
    cross(w + 3 * k, l, wl);
    for (int d = 0; d < 3; ++d) out[d] = v[3 * k + d] + wl[d];
}

/* relative velocity of a's contact point w.r.t. b's, along N, T, R */
static void contact_velocity(const PlnImpactSystem *s, const double *v, const double *w,
                             const double frame[9], double u[3])
{
    double va[3], vb[3], d[3];
    point_velocity(s, v, w, s->contact.body_a, s->contact.point, va);
    point_velocity(s, v, w, s->contact.body_b, s->contact.point, vb);
    for (int c = 0; c < 3; ++c) d[c] = va[c] - vb[c];
    for (int r = 0; r < 3; ++r) u[r] = dot(frame + 3 * r, d);
}


static void unpack(PlnImpactWork *w, const PlnImpactSystem *s, PlnImpactResult *out)
{
    int C = w->K - 1;
    for (int k = 0; k < s->n_bodies; ++k) {
        memcpy(w->v + 3 * k, w->x + 6 * k, 3 * sizeof *w->v);
        memcpy(w->w + 3 * k, w->x + 6 * k + 3, 3 * sizeof *w->w);
    }
    for (int j = 0; j < s->n_joints; ++j) {
        memcpy(w->jP + 3 * j, w->x + 3 * w->jblock[j], 3 * sizeof *w->jP);
        if (w->jcount[j] == 2) memcpy(w->jT + 3 * j, w->x + 3 * (w->jblock[j] + 1), 3 * sizeof *w->jT);
        else memset(w->jT + 3 * j, 0, 3 * sizeof *w->jT);
    }
    memcpy(out->P, w->x + 3 * C, sizeof out->P);
    for (int r = 0; r < 3; ++r) out->P_ntr[r] = dot(out->frame + 3 * r, out->P);
}

/* Kinetic energy of the velocity blocks of a solution vector x (bodies first). */
static double energy_of(const PlnImpactSystem *s, const double *x)
{
    double e = 0.0;
    for (int k = 0; k < s->n_bodies; ++k) {
        const PlnImpactBody *b = &s->bodies[k];
        const double *v = x + 6 * k, *om = x + 6 * k + 3;
        double Iw[3];
        m3_vec(b->inertia, om, Iw);
        e += 0.5 * b->mass * dot(v, v) + 0.5 * dot(om, Iw);
    }
    return e;
}

/* eq. I15. Newton's law (I10) with friction may give energy back (sec. 6). With the
 * friction case and its alpha, beta kept, the solution is affine in e: x(e') = x(0) +
 * (e'/e)(x(e) - x(0)), so the energy is a quadratic in e'; take the largest e' in [0, e]
 * that does not raise it. When even e' = 0 raises it (sliding), lower the friction too
 * (below). Kept as is (energy_gain stays 1) when a sticking impulse would leave the cone
 * at e'. */
static PlnStatus cap_energy(PlnImpactWork *w, const PlnImpactSystem *s, PlnImpactSolver solver,
                            PlnImpactResult *out, int slide, double alpha, double beta, char *err,
                            size_t err_size)
{
    const int N = 3 * w->K;
    const double e = s->contact.restitution, E = out->energy_before;
    double a0, a1 = 0.0, a2 = 0.0, disc, sstar;
    PlnStatus st;
    memcpy(w->xe, w->x, (size_t)N * sizeof *w->xe);
    assemble(w, s, out->frame, out->u_before, 0.0, slide, alpha, beta);
    st = run(w, solver, err, err_size);
    if (st != PLN_OK) return st;
    /* w->x = x(0); w->xe = x(e) */
    a0 = energy_of(s, w->x);
    for (int k = 0; k < s->n_bodies; ++k) {
        const PlnImpactBody *b = &s->bodies[k];
        double dv[3], dw[3], Idw[3];
        for (int d = 0; d < 3; ++d) {
            dv[d] = w->xe[6 * k + d] - w->x[6 * k + d];
            dw[d] = w->xe[6 * k + 3 + d] - w->x[6 * k + 3 + d];
        }
        m3_vec(b->inertia, dw, Idw);
        a1 += b->mass * dot(w->x + 6 * k, dv) + dot(w->x + 6 * k + 3, Idw);
        a2 += 0.5 * (b->mass * dot(dv, dv) + dot(dw, Idw));
    }
    if (!(a0 <= E * (1.0 + PLN_IMPACT_ENERGY_TOL)) && slide && s->contact.mu > 0.0) {
        /* sliding gains energy even at e' = 0 (the friction impulse's fixed direction
         * works on a slip that reverses): e' = 0 and the friction's magnitude mu f lowered
         * by bisection to the largest f in [0, 1] that does not (f = 0, frictionless and
         * plastic, never gains) */
        double lo = 0.0, hi = 1.0;
        for (int it = 0; it < PLN_IMPACT_CAP_BISECTIONS; ++it) {
            double f = 0.5 * (lo + hi);
            assemble(w, s, out->frame, out->u_before, 0.0, slide, f * alpha, f * beta);
            st = run(w, solver, err, err_size);
            if (st != PLN_OK) return st;
            if (energy_of(s, w->x) <= E * (1.0 + PLN_IMPACT_ENERGY_TOL)) lo = f;
            else hi = f;
        }
        assemble(w, s, out->frame, out->u_before, 0.0, slide, lo * alpha, lo * beta);
        st = run(w, solver, err, err_size);
        if (st != PLN_OK) return st;
        unpack(w, s, out);
        contact_velocity(s, w->v, w->w, out->frame, out->u_after);
        out->energy_after = pln_impact_energy(s, w->v, w->w);
        out->restitution_used = 0.0;
        out->mu_used = lo * s->contact.mu;
        out->energy_capped = 1;
        out->energy_gain = out->energy_after > E * (1.0 + PLN_IMPACT_ENERGY_TOL);
        return PLN_OK;
    }
    disc = a1 * a1 - 4.0 * a2 * (a0 - E);
    if (!(a0 <= E) || !(a2 > 0.0) || !(disc >= 0.0)) {
        memcpy(w->x, w->xe, (size_t)N * sizeof *w->x); /* no e' helps: keep Newton's */
        return PLN_OK;
    }
    sstar = fmin(1.0, fmax(0.0, (-a1 + sqrt(disc)) / (2.0 * a2)));
    for (int k = 0; k < N; ++k) w->x[k] += sstar * (w->xe[k] - w->x[k]);
    {
        PlnImpactResult trial = *out;
        unpack(w, s, &trial);
        if (!slide && hypot(trial.P_ntr[1], trial.P_ntr[2]) > s->contact.mu * trial.P_ntr[0] * (1.0 + PLN_IMPACT_CONE_TOL)) {
            memcpy(w->x, w->xe, (size_t)N * sizeof *w->x);
            unpack(w, s, out);
            return PLN_OK;
        }
        *out = trial;
    }
    contact_velocity(s, w->v, w->w, out->frame, out->u_after);
    out->energy_after = pln_impact_energy(s, w->v, w->w);
    out->restitution_used = sstar * e;
    out->energy_capped = 1;
    out->energy_gain = out->energy_after > E * (1.0 + PLN_IMPACT_ENERGY_TOL);
    return PLN_OK;
}

PlnStatus pln_impact_solve(PlnImpactWork *w, const PlnImpactSystem *s, PlnImpactSolver solver,
                           PlnImpactResult *out, char *err, size_t err_size)
{
    const PlnImpactContact *ct = &s->contact;
    double alpha = 0.0, beta = 0.0;
    int slide;
    PlnStatus st = pln_impact_validate(s, err, err_size);
    if (st != PLN_OK) return st;
    if (s->n_bodies > w->max_bodies || s->n_joints > w->max_joints) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "impact: the workspace is too small for the system");
    }
    memset(out, 0, sizeof *out);
    /* the contact frame N, T, R (eq. I1) */
    memcpy(out->frame, ct->normal, 3 * sizeof *out->frame);
    perp_basis(ct->normal, out->frame + 3, out->frame + 6);
    /* the pre-impact state */
    for (int k = 0; k < s->n_bodies; ++k) {
        memcpy(w->v + 3 * k, s->bodies[k].v, 3 * sizeof *w->v);
        memcpy(w->w + 3 * k, s->bodies[k].w, 3 * sizeof *w->w);
    }
    memset(w->jP, 0, (size_t)3 * s->n_joints * sizeof *w->jP);
    memset(w->jT, 0, (size_t)3 * s->n_joints * sizeof *w->jT);
    contact_velocity(s, w->v, w->w, out->frame, out->u_before);
    out->energy_before = pln_impact_energy(s, w->v, w->w);
    out->v = w->v;
    out->w = w->w;
    out->joint_P = w->jP;
    out->joint_T = w->jT;
    w->K = 2 * s->n_bodies + 1;
    for (int j = 0; j < s->n_joints; ++j) w->K += joint_blocks(s->joints[j].type);
    out->unknowns = 3 * w->K;
    if (!(out->u_before[0] < 0.0)) {
        /* the contact points do not approach: no impulse, nothing changes */
        memcpy(out->u_after, out->u_before, sizeof out->u_after);
        out->energy_after = out->energy_before;
        return PLN_OK;
    }
    out->approaching = 1;
    /* sticking first (with friction), else frictionless sliding (alpha = beta = 0) */
    slide = !(ct->mu > 0.0);
    assemble(w, s, out->frame, out->u_before, ct->restitution, slide, 0.0, 0.0);
    st = run(w, solver, err, err_size);
    if (st != PLN_OK) return st;
    unpack(w, s, out);
    out->sliding = !(ct->mu > 0.0);
    if (ct->mu > 0.0 && hypot(out->P_ntr[1], out->P_ntr[2]) > ct->mu * out->P_ntr[0] * (1.0 + PLN_IMPACT_CONE_TOL)) {
        /* outside the friction cone: sliding, the friction impulse against the pre-impact
         * sliding velocity U (paper's alpha, beta), or, when the contact does not slide
         * before, along the sticking impulse's tangential part (eq. I12) */
        double ut = out->u_before[1], ur = out->u_before[2], m = hypot(ut, ur);
        if (m > PLN_IMPACT_SLIP_MIN_MS) {
            alpha = -ct->mu * ut / m;
            beta = -ct->mu * ur / m;
        } else {
            double pt = hypot(out->P_ntr[1], out->P_ntr[2]);
            alpha = ct->mu * out->P_ntr[1] / pt;
            beta = ct->mu * out->P_ntr[2] / pt;
        }
        slide = 1;
        assemble(w, s, out->frame, out->u_before, ct->restitution, 1, alpha, beta);
        st = run(w, solver, err, err_size);
        if (st != PLN_OK) return st;
        unpack(w, s, out);
        out->sliding = 1;
        if (!(out->P_ntr[0] >= 0.0)) {
            return pln_errorf(PLN_ERR_INTERNAL, err, err_size,
                              "impact: neither the sticking nor the sliding impulse is admissible "
                              "(the sliding one pulls, P.N = %g N s)",
                              out->P_ntr[0]);
        }
    }
    contact_velocity(s, w->v, w->w, out->frame, out->u_after);
    out->energy_after = pln_impact_energy(s, w->v, w->w);
    out->restitution_used = ct->restitution;
    out->mu_used = ct->mu;
    out->block_ops = w->ops;
    if (ct->restitution > 0.0 && out->energy_after > out->energy_before * (1.0 + PLN_IMPACT_ENERGY_TOL)) {
        out->energy_gain = 1;
        if (!ct->newton_only) {
            st = cap_energy(w, s, solver, out, slide, alpha, beta, err, err_size);
            if (st != PLN_OK) return st;
        }
    }
    return PLN_OK;
}

/* ---- checks and reports ----------------------------------------------------------- */

/* the largest joint-condition residual of velocities v, w and joint impulses jP, jT
 * (NULL: the velocity rows only) */
static double residual_of(const PlnImpactSystem *s, const double *vel, const double *om, const double *jP,
                          const double *jT)
{
    double worst = 0.0;
    for (int j = 0; j < s->n_joints; ++j) {
        const PlnImpactJoint *jt = &s->joints[j];
        double vi[3], vj[3], rel[3], turn[3], du[3], dv[3], r[6];
        const double zero[3] = {0.0, 0.0, 0.0};
        const double *P = jP != NULL ? jP + 3 * j : zero, *T = jT != NULL ? jT + 3 * j : zero, *dk = jt->axis;
        int nr = 0;
        point_velocity(s, vel, om, jt->body_i, jt->anchor, vi);
        point_velocity(s, vel, om, jt->body_j, jt->anchor, vj);
        for (int d = 0; d < 3; ++d) {
            rel[d] = vi[d] - vj[d];
            turn[d] = (jt->body_j == PLN_IMPACT_WORLD ? 0.0 : om[3 * jt->body_j + d]) - om[3 * jt->body_i + d];
        }
        if (jt->type != PLN_IMPACT_POINT && jt->type != PLN_IMPACT_NAIL && jt->type != PLN_IMPACT_FIXED) {
            perp_basis(dk, du, dv);
        }
        switch (jt->type) {
        case PLN_IMPACT_POINT:
        case PLN_IMPACT_NAIL:
            r[nr++] = rel[0];
            r[nr++] = rel[1];
            r[nr++] = rel[2];
            break;
        case PLN_IMPACT_REVOLUTE:
            r[nr++] = sqrt(dot(rel, rel));
            r[nr++] = dot(turn, du);
            r[nr++] = dot(turn, dv);
            r[nr++] = dot(T, dk);
            break;
        case PLN_IMPACT_ANGLE:
            r[nr++] = sqrt(dot(rel, rel));
            r[nr++] = dot(T, du);
            r[nr++] = dot(T, dv);
            r[nr++] = dot(turn, dk);
            break;
        case PLN_IMPACT_CYLINDRICAL:
            r[nr++] = dot(rel, du);
            r[nr++] = dot(rel, dv);
            r[nr++] = dot(P, dk);
            r[nr++] = dot(turn, du);
            r[nr++] = dot(turn, dv);
            r[nr++] = dot(T, dk);
            break;
        case PLN_IMPACT_PRISMATIC:
            r[nr++] = dot(rel, du);
            r[nr++] = dot(rel, dv);
            r[nr++] = dot(P, dk);
            r[nr++] = sqrt(dot(turn, turn));
            break;
        case PLN_IMPACT_FIXED:
            r[nr++] = sqrt(dot(rel, rel));
            r[nr++] = sqrt(dot(turn, turn));
            break;
        }
        for (int k = 0; k < nr; ++k) worst = fmax(worst, fabs(r[k]));
    }
    return worst;
}

double pln_impact_joint_residual(const PlnImpactWork *w, const PlnImpactSystem *s)
{
    return residual_of(s, w->v, w->w, w->jP, w->jT);
}

double pln_impact_velocity_residual(const PlnImpactSystem *s, const double *v, const double *w)
{
    return residual_of(s, v, w, NULL, NULL);
}

void pln_impact_momentum(const PlnImpactSystem *s, const double *v, const double *w,
                         double linear[3], double angular[3])
{
    memset(linear, 0, 3 * sizeof *linear);
    memset(angular, 0, 3 * sizeof *angular);
    for (int k = 0; k < s->n_bodies; ++k) {
        const PlnImpactBody *b = &s->bodies[k];
        double p[3], cxp[3], Iw[3];
        for (int d = 0; d < 3; ++d) p[d] = b->mass * v[3 * k + d];
        cross(b->com, p, cxp);
        m3_vec(b->inertia, w + 3 * k, Iw);
        for (int d = 0; d < 3; ++d) {
            linear[d] += p[d];
            angular[d] += cxp[d] + Iw[d];
        }
    }
}

double pln_impact_energy(const PlnImpactSystem *s, const double *v, const double *w)
{
    double e = 0.0;
    for (int k = 0; k < s->n_bodies; ++k) {
        const PlnImpactBody *b = &s->bodies[k];
        double Iw[3];
        m3_vec(b->inertia, w + 3 * k, Iw);
        e += 0.5 * b->mass * dot(v + 3 * k, v + 3 * k) + 0.5 * dot(w + 3 * k, Iw);
    }
    return e;
}

const char *pln_impact_joint_type_name(PlnImpactJointType t)
{
    switch (t) {
    case PLN_IMPACT_POINT: return "point";
    case PLN_IMPACT_NAIL: return "nail";
    case PLN_IMPACT_REVOLUTE: return "revolute";
    case PLN_IMPACT_ANGLE: return "angle";
    case PLN_IMPACT_CYLINDRICAL: return "cylindrical";
    case PLN_IMPACT_PRISMATIC: return "prismatic";
    case PLN_IMPACT_FIXED: return "fixed";
    }
    return "?";
}
