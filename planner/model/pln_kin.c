/* pln_kin.c — forward kinematics, Jacobians and centre of mass (pln_kin.h). */
#include "model/pln_kin.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_tolerance.h"

struct PlnKinWork {
    int n_links, n_joints;
    double mass_sum;    /* sum of link masses, kg */
    int *active;        /* [n_links] revolute or prismatic joint moving the link, -1 if none */
    int *prismatic;     /* [n_links] 1 when that joint is prismatic (K.14) */
    double *R;          /* [n_links][9] world rotation of each link frame */
    double *p;          /* [n_links][3] world position of each link frame (= joint origin) */
    double *axis;       /* [n_links][3] world axis of the joint moving the link */
    double *M;          /* [n_links][27] O(I + K^2), O K, -O K^2 (fixed: O, 0, 0), K = [a]x */
    double *Oa;         /* [n_links][3] O a: the joint axis in the parent frame */
    /* the inputs of the last forward kinematics (memo_robot NULL: none): a link whose
     * joint value and ancestors are those of the last call keeps its frame, which the
     * same operations on the same operands would give again */
    const PlnRobot *memo_robot;
    double *memo_q;     /* [n_joints] */
    double *memo_base;  /* [12]: base_pos, base_rot */
    int *dirty;         /* [n_links] the link's frame is recomputed in this call */
};

static const double k_identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* C = A * B for row-major 3x3 (operands read into locals first: no aliasing reloads). */
static inline void mat_mul(const double *A, const double *B, double *C)
{
    double a[9], b[9], c[9];
    int i, j;
    for (i = 0; i < 9; ++i) {
        a[i] = A[i];
        b[i] = B[i];
    }
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j) {
            c[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
        }
    }
    for (i = 0; i < 9; ++i) C[i] = c[i];
}

/* y = A * x for row-major 3x3. */
static inline void mat_vec(const double *A, const double *x, double *y)
{
    y[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
    y[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
    y[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
}

static inline void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static int all_finite(const double *v, int n)
{
    int i;
    for (i = 0; i < n; ++i) {
        if (!isfinite(v[i])) return 0;
    }
    return 1;
}

/* max |R R^T - I| entry. */
static double ortho_error(const double *R)
{
    double e = 0.0;
    int i, j;
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j) {
            double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] +
                       R[3 * i + 2] * R[3 * j + 2];
            e = fmax(e, fabs(d - (i == j ? 1.0 : 0.0)));
        }
    }
    return e;
}

/* Rodrigues' formula Rot = I + sin q K + (1 - cos q) K^2: docs/math/kinematics.md (K.3). */
void pln_kin_joint_rotation(const double axis[3], double q, double Rot[9])
{
    double s = sin(q), c = cos(q), v = 1.0 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    Rot[0] = c + x * x * v;
    Rot[1] = x * y * v - z * s;
    Rot[2] = x * z * v + y * s;
    Rot[3] = y * x * v + z * s;
    Rot[4] = c + y * y * v;
    Rot[5] = y * z * v - x * s;
    Rot[6] = z * x * v - y * s;
    Rot[7] = z * y * v + x * s;
    Rot[8] = c + z * z * v;
}

/* Model checks of pln_kin_create: everything the kinematics rely on. */
PlnStatus pln_kin_validate(const PlnRobot *rb, char *err, size_t err_size)
{
    int i, j;
    if (rb == NULL) return pln_errorf(PLN_ERR_INVALID, err, err_size, "robot: NULL model");
    if (rb->n_links < 1 || rb->links == NULL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "robot '%s': no links", rb->name);
    }
    if (rb->n_joints < 0 || (rb->n_joints > 0 && rb->joints == NULL)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "robot '%s': bad joint array",
                          rb->name);
    }
    if (!all_finite(rb->base_pos, 3) || !all_finite(rb->base_rot, 9) ||
        ortho_error(rb->base_rot) > PLN_KIN_ROT_ORTHO_TOL) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "robot '%s': base pose not finite or rotation not orthonormal",
                          rb->name);
    }
    for (i = 0; i < rb->n_links; ++i) {
        const PlnLink *L = &rb->links[i];
        if ((i == 0 && L->parent != -1) || (i > 0 && (L->parent < 0 || L->parent >= i))) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "link %d '%s': parent %d breaks topological order (root first, "
                              "parent index < own index)", i, L->name, L->parent);
        }
        if (L->joint < -1 || L->joint >= rb->n_joints ||
            (L->joint >= 0 && rb->joints[L->joint].link != i)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "link %d '%s': joint index %d does not name a joint moving it", i,
                              L->name, L->joint);
        }
        if (!all_finite(L->origin_pos, 3) || !all_finite(L->origin_rot, 9) ||
            !all_finite(L->com, 3) || !isfinite(L->mass)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "link %d '%s': non-finite value",
                              i, L->name);
        }
        if (ortho_error(L->origin_rot) > PLN_KIN_ROT_ORTHO_TOL) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "link %d '%s': origin rotation not orthonormal", i, L->name);
        }
        if (L->mass < 0.0) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "link %d '%s': negative mass %g",
                              i, L->name, L->mass);
        }
    }
    for (j = 0; j < rb->n_joints; ++j) {
        const PlnJoint *J = &rb->joints[j];
        double n;
        if (J->link < 0 || J->link >= rb->n_links || rb->links[J->link].joint != j) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "joint %d '%s': link index %d is not moved by this joint", j,
                              J->name, J->link);
        }
        if (J->type != PLN_JOINT_REVOLUTE && J->type != PLN_JOINT_FIXED &&
            J->type != PLN_JOINT_PRISMATIC) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "joint %d '%s': unknown type %d",
                              j, J->name, (int)J->type);
        }
        if (J->type == PLN_JOINT_FIXED) continue;
        n = sqrt(J->axis[0] * J->axis[0] + J->axis[1] * J->axis[1] + J->axis[2] * J->axis[2]);
        if (!all_finite(J->axis, 3) || fabs(n - 1.0) > PLN_KIN_AXIS_UNIT_TOL) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "joint %d '%s': axis is not a unit vector (|axis| = %g)", j,
                              J->name, n);
        }
    }
    return PLN_OK;
}

PlnStatus pln_kin_create(const PlnRobot *robot, PlnKinWork **out, char *err, size_t err_size)
{
    PlnKinWork *w;
    PlnStatus st;
    double mass_sum = 0.0;
    size_t nl, bytes;
    unsigned char *block;
    int i;
    if (out == NULL) return pln_errorf(PLN_ERR_INVALID, err, err_size, "pln_kin_create: NULL out");
    *out = NULL;
    st = pln_kin_validate(robot, err, err_size);
    if (st != PLN_OK) return st;
    for (i = 0; i < robot->n_links; ++i) mass_sum += robot->links[i].mass;
    /* one block: the struct, then doubles, then ints (doubles first keeps alignment) */
    nl = (size_t)robot->n_links;
    bytes = sizeof *w + (nl * 45 + (size_t)robot->n_joints + 12) * sizeof(double) + 3 * nl * sizeof(int);
    block = malloc(bytes);
    if (block == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "pln_kin_create: out of memory (%zu B)",
                          bytes);
    }
    w = (PlnKinWork *)block;
    w->n_links = robot->n_links;
    w->n_joints = robot->n_joints;
    w->mass_sum = mass_sum;
    w->R = (double *)(block + sizeof *w);
    w->p = w->R + 9 * nl;
    w->axis = w->p + 3 * nl;
    w->M = w->axis + 3 * nl;
    w->Oa = w->M + 27 * nl;
    w->memo_q = w->Oa + 3 * nl;
    w->memo_base = w->memo_q + robot->n_joints;
    w->memo_robot = NULL;
    w->active = (int *)(w->memo_base + 12);
    w->prismatic = w->active + nl;
    w->dirty = w->prismatic + nl;
    memset(w->R, 0, nl * 45 * sizeof(double));
    for (i = 0; i < robot->n_links; ++i) {
        const PlnLink *L = &robot->links[i];
        double *M = w->M + 27 * i;
        int j = L->joint;
        w->active[i] = (j >= 0 && robot->joints[j].type != PLN_JOINT_FIXED) ? j : -1;
        w->prismatic[i] = j >= 0 && robot->joints[j].type == PLN_JOINT_PRISMATIC;
        if (w->active[i] < 0 || w->prismatic[i]) {
            /* fixed, or prismatic: R = R_parent O; the sliding direction O a (K.14) */
            memcpy(M, L->origin_rot, 9 * sizeof(double));
            if (w->prismatic[i]) mat_vec(L->origin_rot, robot->joints[j].axis, w->Oa + 3 * i);
            continue;
        }
        /* O Rot(a, q) = O(I + K^2) + sin q O K - cos q O K^2 (K.3) */
        {
            const double *a = robot->joints[j].axis;
            double K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0}, K2[9], A[9];
            int r;
            mat_mul(K, K, K2);
            for (r = 0; r < 9; ++r) A[r] = K2[r] + (r % 4 == 0 ? 1.0 : 0.0);
            mat_mul(L->origin_rot, A, M);
            mat_mul(L->origin_rot, K, M + 9);
            mat_mul(L->origin_rot, K2, M + 18);
            for (r = 18; r < 27; ++r) M[r] = -M[r];
            mat_vec(L->origin_rot, a, w->Oa + 3 * i);
        }
    }
    *out = w;
    return PLN_OK;
}

void pln_kin_destroy(PlnKinWork *w)
{
    free(w);
}

/* Forward kinematics: docs/math/kinematics.md (K.1)-(K.3). */
PlnStatus pln_kin_forward(PlnKinWork *w, const PlnRobot *robot, const double *q)
{
    return pln_kin_forward_base(w, robot, robot->base_pos, robot->base_rot, q);
}

/* Forward kinematics from a given base pose: (K.1)-(K.3), prismatic (K.14), with
 * T_world_base given. */
PlnStatus pln_kin_forward_base(PlnKinWork *w, const PlnRobot *robot, const double base_pos[3],
                               const double base_rot[9], const double *q)
{
    int i;
    if ((q == NULL && robot->n_joints > 0) || !all_finite(q, robot->n_joints) ||
        base_pos == NULL || base_rot == NULL || !all_finite(base_pos, 3) ||
        !all_finite(base_rot, 9)) {
        return PLN_ERR_INVALID;
    }
    /* the memo: every link again after another robot or base pose */
    int memo = w->memo_robot == robot && memcmp(w->memo_base, base_pos, 3 * sizeof(double)) == 0 &&
               memcmp(w->memo_base + 3, base_rot, 9 * sizeof(double)) == 0;
    w->memo_robot = robot;
    memcpy(w->memo_base, base_pos, 3 * sizeof(double));
    memcpy(w->memo_base + 3, base_rot, 9 * sizeof(double));
    for (i = 0; i < w->n_links; ++i) {
        const PlnLink *L = &robot->links[i];
        const double *Rp = L->parent < 0 ? base_rot : w->R + 9 * L->parent;
        const double *pp = L->parent < 0 ? base_pos : w->p + 3 * L->parent;
        double *R = w->R + 9 * i, *p = w->p + 3 * i, d[3];
        int j = w->active[i];
        w->dirty[i] = !memo || (L->parent >= 0 && w->dirty[L->parent]) ||
                      (j >= 0 && memcmp(&w->memo_q[j], &q[j], sizeof(double)) != 0);
        if (!w->dirty[i]) continue;
        /* joint origin: p = p_parent + R_parent * origin_pos */
        mat_vec(Rp, L->origin_pos, d);
        p[0] = pp[0] + d[0];
        p[1] = pp[1] + d[1];
        p[2] = pp[2] + d[2];
        /* R = R_parent O Rot(a, q) = R_parent (M0 + sin q M1 + cos q M2), and the world
         * axis R_parent O a (Rot(a, q) a = a) */
        if (j >= 0 && w->prismatic[i]) {
            /* prismatic: p += q R_parent O a, R = R_parent O (K.14) */
            double *a = w->axis + 3 * i;
            mat_vec(Rp, w->Oa + 3 * i, a);
            p[0] += q[j] * a[0];
            p[1] += q[j] * a[1];
            p[2] += q[j] * a[2];
            mat_mul(Rp, w->M + 27 * i, R);
        } else if (j >= 0) {
            const double *M = w->M + 27 * i;
            double s = sin(q[j]), c = cos(q[j]), Q[9];
            int r;
            for (r = 0; r < 9; ++r) Q[r] = M[r] + s * M[9 + r] + c * M[18 + r];
            mat_mul(Rp, Q, R);
            mat_vec(Rp, w->Oa + 3 * i, w->axis + 3 * i);
        } else {
            mat_mul(Rp, w->M + 27 * i, R);
            memset(w->axis + 3 * i, 0, 3 * sizeof(double));
        }
    }
    if (w->n_joints > 0) memcpy(w->memo_q, q, (size_t)w->n_joints * sizeof(double));
    return PLN_OK;
}

const double *pln_kin_link_rot(const PlnKinWork *w, int link)
{
    return (link >= 0 && link < w->n_links) ? w->R + 9 * link : k_identity;
}

const double *pln_kin_joint_axis(const PlnKinWork *w, int link)
{
    static const double zero[3] = {0.0, 0.0, 0.0};
    return (link >= 0 && link < w->n_links) ? w->axis + 3 * link : zero;
}

const double *pln_kin_link_pos(const PlnKinWork *w, int link)
{
    return (link >= 0 && link < w->n_links) ? w->p + 3 * link : k_identity + 1; /* zeros */
}

void pln_kin_point(const PlnKinWork *w, int link, const double local[3], double world[3])
{
    const double *R = pln_kin_link_rot(w, link), *p = pln_kin_link_pos(w, link);
    mat_vec(R, local, world);
    world[0] += p[0];
    world[1] += p[1];
    world[2] += p[2];
}

/* adds scale * (a_l x (x - o_l)) to the column of every revolute joint on the chain of
 * `link`, scale * a_l to that of every prismatic one: docs/math/kinematics.md (K.4),
 * (K.15). */
static void add_point_columns(const PlnKinWork *w, const PlnRobot *robot, int link,
                              const double x[3], double scale, double *J)
{
    int l, n = w->n_joints;
    for (l = link; l >= 0; l = robot->links[l].parent) {
        int j = w->active[l];
        double r[3], c[3];
        if (j < 0) continue;
        if (w->prismatic[l]) {
            J[j] += scale * w->axis[3 * l];
            J[n + j] += scale * w->axis[3 * l + 1];
            J[2 * n + j] += scale * w->axis[3 * l + 2];
            continue;
        }
        r[0] = x[0] - w->p[3 * l];
        r[1] = x[1] - w->p[3 * l + 1];
        r[2] = x[2] - w->p[3 * l + 2];
        cross(w->axis + 3 * l, r, c);
        J[j] += scale * c[0];
        J[n + j] += scale * c[1];
        J[2 * n + j] += scale * c[2];
    }
}

/* Positional Jacobian J_p,j = a_j x (x - o_j): docs/math/kinematics.md (K.4). */
void pln_kin_jacobian_point(const PlnKinWork *w, const PlnRobot *robot, int link,
                            const double local[3], double *J)
{
    double x[3];
    memset(J, 0, 3 * (size_t)w->n_joints * sizeof(double));
    if (link < 0 || link >= w->n_links) return;
    pln_kin_point(w, link, local, x);
    add_point_columns(w, robot, link, x, 1.0, J);
}

/* Rotational Jacobian J_w,j = a_j (revolute), 0 (prismatic): docs/math/kinematics.md
 * (K.5), (K.15). */
void pln_kin_jacobian_rot(const PlnKinWork *w, const PlnRobot *robot, int link, double *J)
{
    int l, n = w->n_joints;
    memset(J, 0, 3 * (size_t)n * sizeof(double));
    if (link < 0 || link >= w->n_links) return;
    for (l = link; l >= 0; l = robot->links[l].parent) {
        int j = w->active[l];
        if (j < 0 || w->prismatic[l]) continue;
        J[j] = w->axis[3 * l];
        J[n + j] = w->axis[3 * l + 1];
        J[2 * n + j] = w->axis[3 * l + 2];
    }
}

/* Centre of mass: docs/math/kinematics.md (K.6). */
PlnStatus pln_kin_com(const PlnKinWork *w, const PlnRobot *robot, double com[3])
{
    double acc[3] = {0, 0, 0};
    int i;
    if (!(w->mass_sum > 0.0)) return PLN_ERR_INVALID;
    for (i = 0; i < w->n_links; ++i) {
        double x[3], m = robot->links[i].mass;
        if (m == 0.0) continue;
        pln_kin_point(w, i, robot->links[i].com, x);
        acc[0] += m * x[0];
        acc[1] += m * x[1];
        acc[2] += m * x[2];
    }
    com[0] = acc[0] / w->mass_sum;
    com[1] = acc[1] / w->mass_sum;
    com[2] = acc[2] / w->mass_sum;
    return PLN_OK;
}

/* Centre-of-mass Jacobian: docs/math/kinematics.md (K.7). */
PlnStatus pln_kin_jacobian_com(const PlnKinWork *w, const PlnRobot *robot, double *J)
{
    int i;
    if (!(w->mass_sum > 0.0)) return PLN_ERR_INVALID;
    memset(J, 0, 3 * (size_t)w->n_joints * sizeof(double));
    for (i = 0; i < w->n_links; ++i) {
        double x[3], m = robot->links[i].mass;
        if (m == 0.0) continue;
        pln_kin_point(w, i, robot->links[i].com, x);
        add_point_columns(w, robot, i, x, m / w->mass_sum, J);
    }
    return PLN_OK;
}

/* R = Rz(yaw) Ry(pitch) Rx(roll) (docs/math/kinematics.md) */
void pln_kin_rpy_to_matrix(const double rpy[3], double R[9])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    R[0] = cy * cp;
    R[1] = cy * sp * sr - sy * cr;
    R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp;
    R[4] = sy * sp * sr + cy * cr;
    R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp;
    R[7] = cp * sr;
    R[8] = cp * cr;
}
