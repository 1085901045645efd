/* pln_contact.c — ZMP and the split of the contact wrench between the soles
 * (docs/math/dynamics.md eq. D16-D21). Derivatives by forward-mode dual numbers over the
 * six components of W: exact, and one formula for value and derivative. */
#include "model/pln_contact.h"

#include <math.h>
#include <string.h>

/* a value and its derivatives with respect to W[0..5] */
typedef struct Dual {
    double v, d[6];
} Dual;

static Dual dual_var(const double W[6], int i)
{
    Dual a;
    memset(&a, 0, sizeof a);
    a.v = W[i];
    a.d[i] = 1.0;
    return a;
}

static Dual dual_const(double v)
{
    Dual a;
    memset(&a, 0, sizeof a);
    a.v = v;
    return a;
}

static Dual dual_lin(double sa, Dual a, double sb, Dual b) /* sa a + sb b */
{
    Dual r;
    r.v = sa * a.v + sb * b.v;
    for (int i = 0; i < 6; ++i) r.d[i] = sa * a.d[i] + sb * b.d[i];
    return r;
}

static Dual dual_mul(Dual a, Dual b)
{
    Dual r;
    r.v = a.v * b.v;
    for (int i = 0; i < 6; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
    return r;
}

static Dual dual_div(Dual a, Dual b)
{
    Dual r;
    r.v = a.v / b.v;
    for (int i = 0; i < 6; ++i) r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
    return r;
}

int pln_contact_zmp(const double W[6], double floor_z, double min_fz, double zmp[2],
                    double *tau_z)
{
    if (!(W[5] > min_fz)) return 0;
    /* eq. D17: the moment about (p, floor_z) has no horizontal part */
    zmp[0] = (floor_z * W[3] - W[1]) / W[5];
    zmp[1] = (W[0] + floor_z * W[4]) / W[5];
    if (tau_z != NULL) *tau_z = W[2] - (zmp[0] * W[4] - zmp[1] * W[3]);
    return 1;
}

/* foot wrench about the origin: centre of pressure c (on the floor), force share s of f,
 * free-moment share s of tau_z: [c x s f + s tau_z e_z; s f] (eq. D20) */
static void foot_wrench(const Dual c[3], Dual s, const Dual f[3], Dual tz, Dual out[6])
{
    Dual fk[3];
    for (int i = 0; i < 3; ++i) fk[i] = dual_mul(s, f[i]);
    out[0] = dual_lin(1.0, dual_mul(c[1], fk[2]), -1.0, dual_mul(c[2], fk[1]));
    out[1] = dual_lin(1.0, dual_mul(c[2], fk[0]), -1.0, dual_mul(c[0], fk[2]));
    out[2] = dual_lin(1.0, dual_lin(1.0, dual_mul(c[0], fk[1]), -1.0, dual_mul(c[1], fk[0])),
                      1.0, dual_mul(s, tz));
    for (int i = 0; i < 3; ++i) out[3 + i] = fk[i];
}

int pln_contact_split(const PlnSupport *s, const double W[6], double min_fz,
                      PlnContactSplit *out, int with_derivative)
{
    Dual n[3], f[3], p[2], tz, alpha, beta, z = dual_const(s->floor_z), wr[2][6];
    if (!(W[5] > min_fz)) return 0;
    for (int i = 0; i < 3; ++i) {
        n[i] = dual_var(W, i);
        f[i] = dual_var(W, 3 + i);
    }
    /* eq. D17 */
    p[0] = dual_div(dual_lin(1.0, dual_mul(z, f[0]), -1.0, n[1]), f[2]);
    p[1] = dual_div(dual_lin(1.0, n[0], 1.0, dual_mul(z, f[1])), f[2]);
    tz = dual_lin(1.0, n[2], -1.0, dual_lin(1.0, dual_mul(p[0], f[1]), -1.0, dual_mul(p[1], f[0])));
    if (s->n_feet == 1) {
        alpha = dual_const(1.0);
    } else {
        /* eq. D18: lambda = (p - c2) . d / |d|^2, alpha = clamp(lambda, 0, 1) */
        double d[2] = {s->centre[0][0] - s->centre[1][0], s->centre[0][1] - s->centre[1][1]};
        double dd = d[0] * d[0] + d[1] * d[1];
        Dual lam = dual_lin(d[0] / dd, dual_lin(1.0, p[0], -1.0, dual_const(s->centre[1][0])), d[1] / dd,
                            dual_lin(1.0, p[1], -1.0, dual_const(s->centre[1][1])));
        alpha = lam.v <= 0.0 ? dual_const(0.0) : lam.v >= 1.0 ? dual_const(1.0) : lam;
    }
    beta = dual_lin(-1.0, alpha, 1.0, dual_const(1.0));
    for (int k = 0; k < s->n_feet; ++k) {
        /* eq. D19: c_1 = p + (1 - alpha) d, c_2 = p - alpha d */
        Dual c[3];
        for (int i = 0; i < 2; ++i) {
            double d = s->n_feet == 2 ? s->centre[0][i] - s->centre[1][i] : 0.0;
            c[i] = k == 0 ? dual_lin(1.0, p[i], d, beta) : dual_lin(1.0, p[i], -d, alpha);
        }
        c[2] = z;
        foot_wrench(c, k == 0 ? alpha : beta, f, tz, wr[k]);
    }
    memset(out, 0, sizeof *out);
    out->zmp[0] = p[0].v;
    out->zmp[1] = p[1].v;
    out->tau_z = tz.v;
    out->alpha = alpha.v;
    for (int k = 0; k < s->n_feet; ++k) {
        for (int r = 0; r < 6; ++r) {
            out->wrench[k][r] = wr[k][r].v;
            if (with_derivative) memcpy(out->dwrench[k][r], wr[k][r].d, sizeof out->dwrench[k][r]);
        }
    }
    return 1;
}

PlnStatus pln_contact_support(const PlnRobot *robot, const int *feet, int n_feet,
                              const double *const *rot, const double *const *pos, double tol,
                              PlnSupport *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (n_feet < 1 || n_feet > 2) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "support: %d feet (1 or 2)", n_feet);
    }
    out->n_feet = n_feet;
    for (int k = 0; k < n_feet; ++k) {
        int so = pln_robot_find_sole(robot, feet[k]);
        const double *R = rot[k], *p = pos[k];
        double zmin = INFINITY, zmax = -INFINITY, ctr[3];
        if (so < 0) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "support: link %s has no sole",
                              robot->links[feet[k]].name);
        }
        const PlnSole *sole = &robot->soles[so];
        for (int i = 0; i < 3; ++i) {
            ctr[i] = p[i] + R[3 * i] * sole->offset[0] + R[3 * i + 1] * sole->offset[1] +
                     R[3 * i + 2] * sole->offset[2];
        }
        /* the four corners: a sole lies flat when they share one height */
        for (int c = 0; c < 4; ++c) {
            double lx = (c & 1 ? 0.5 : -0.5) * sole->size[0], ly = (c & 2 ? 0.5 : -0.5) * sole->size[1];
            double zc = ctr[2] + R[6] * lx + R[7] * ly;
            zmin = fmin(zmin, zc);
            zmax = fmax(zmax, zc);
        }
        if (zmax - zmin > tol) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "support: the sole of %s is not flat on the floor (its corners "
                              "differ by %.4g m in height)",
                              robot->links[feet[k]].name, zmax - zmin);
        }
        out->link[k] = feet[k];
        out->centre[k][0] = ctr[0];
        out->centre[k][1] = ctr[1];
        if (k == 0) {
            out->floor_z = ctr[2];
        } else if (fabs(ctr[2] - out->floor_z) > tol) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "support: the soles of %s and %s are not on one level floor "
                              "(%.4g m apart in height)",
                              robot->links[feet[0]].name, robot->links[feet[k]].name,
                              fabs(ctr[2] - out->floor_z));
        }
    }
    if (n_feet == 2) {
        double dx = out->centre[0][0] - out->centre[1][0], dy = out->centre[0][1] - out->centre[1][1];
        if (dx * dx + dy * dy <= tol * tol) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "support: the soles of %s and %s share a centre",
                              robot->links[feet[0]].name, robot->links[feet[1]].name);
        }
    }
    return PLN_OK;
}

double pln_contact_joint_torque(const PlnRobot *robot, const PlnSupport *s,
                                const PlnContactSplit *sp, int j, double tau0,
                                const double z[3], const double p[3], double *dW)
{
    int l = robot->joints[j].link, slide = robot->joints[j].type == PLN_JOINT_PRISMATIC;
    double v = tau0;
    for (int k = 0; k < s->n_feet; ++k) {
        const double *w = sp->wrench[k];
        if (!pln_robot_link_below(robot, s->link[k], l)) continue;
        /* z . (n_k - p x f_k) = z . n_k + (p x z) . f_k, since z . (p x f) = -f . (p x z);
         * a prismatic joint's force: z . f_k (eq. D21b) */
        double c[6] = {z[0], z[1], z[2], p[1] * z[2] - p[2] * z[1], p[2] * z[0] - p[0] * z[2],
                       p[0] * z[1] - p[1] * z[0]};
        if (slide) {
            for (int r = 0; r < 3; ++r) {
                c[3 + r] = z[r];
                c[r] = 0.0;
            }
        }
        v -= c[0] * w[0] + c[1] * w[1] + c[2] * w[2] + c[3] * w[3] + c[4] * w[4] + c[5] * w[5];
        if (dW != NULL) {
            for (int col = 0; col < 6; ++col) {
                double d = 0.0;
                for (int row = 0; row < 6; ++row) d += c[row] * sp->dwrench[k][row][col];
                dW[col] -= d;
            }
        }
    }
    return v;
}

/* d/dq_i of z . n + (p x z) . f (eq. D21), or z . f for a prismatic joint j (D21b), at
 * fixed wrenches, for every moving joint i above joint j: turning about axis a through o
 * moves z by a x z and p by a x (p - o) (RBDA sec. 2.8: the velocity of a frame carried
 * by a revolute joint); sliding along a moves p by a and leaves z */
void pln_contact_joint_torque_dq(const PlnRobot *robot, const PlnKinWork *kin,
                                 const PlnSupport *s, const PlnContactSplit *sp, int j,
                                 double scale, double *g)
{
    int l = robot->joints[j].link, any = 0, slide = robot->joints[j].type == PLN_JOINT_PRISMATIC;
    const double *z = pln_kin_joint_axis(kin, l), *p = pln_kin_link_pos(kin, l);
    double n[3] = {0.0, 0.0, 0.0}, f[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < s->n_feet; ++k) {
        if (!pln_robot_link_below(robot, s->link[k], l)) continue;
        for (int c = 0; c < 3; ++c) {
            n[c] += sp->wrench[k][c];
            f[c] += sp->wrench[k][3 + c];
        }
        any = 1;
    }
    if (!any || scale == 0.0) return;
    for (int i = 0; i < robot->n_joints; ++i) {
        int li = robot->joints[i].link;
        const double *a, *o;
        double r[3], dz[3], dp[3], dpz[3], d;
        if (robot->joints[i].type == PLN_JOINT_FIXED || li == l) continue;
        if (!pln_robot_link_below(robot, l, li)) continue;
        a = pln_kin_joint_axis(kin, li);
        o = pln_kin_link_pos(kin, li);
        if (robot->joints[i].type == PLN_JOINT_PRISMATIC) {
            dz[0] = dz[1] = dz[2] = 0.0;
            memcpy(dp, a, sizeof dp);
        } else {
            for (int c = 0; c < 3; ++c) r[c] = p[c] - o[c];
            dz[0] = a[1] * z[2] - a[2] * z[1];
            dz[1] = a[2] * z[0] - a[0] * z[2];
            dz[2] = a[0] * z[1] - a[1] * z[0];
            dp[0] = a[1] * r[2] - a[2] * r[1];
            dp[1] = a[2] * r[0] - a[0] * r[2];
            dp[2] = a[0] * r[1] - a[1] * r[0];
        }
        if (slide) {
            g[6 + i] -= scale * (dz[0] * f[0] + dz[1] * f[1] + dz[2] * f[2]);
            continue;
        }
        /* d(p x z) = dp x z + p x dz */
        dpz[0] = dp[1] * z[2] - dp[2] * z[1] + p[1] * dz[2] - p[2] * dz[1];
        dpz[1] = dp[2] * z[0] - dp[0] * z[2] + p[2] * dz[0] - p[0] * dz[2];
        dpz[2] = dp[0] * z[1] - dp[1] * z[0] + p[0] * dz[1] - p[1] * dz[0];
        d = dz[0] * n[0] + dz[1] * n[1] + dz[2] * n[2] + dpz[0] * f[0] + dpz[1] * f[1] + dpz[2] * f[2];
        g[6 + i] -= scale * d;
    }
}
