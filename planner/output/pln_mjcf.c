/* pln_mjcf.c — the robot as a MuJoCo MJCF document (pln_mjcf.h). */
#include "output/pln_mjcf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_atomic.h"
#include "model/pln_dyn.h"

/* Shortest capsule segment written as a capsule, m: shorter ones become spheres, since
 * MuJoCo's compiler refuses a fromto whose points (nearly) coincide. */
#define PLN_MJCF_MIN_SEGMENT_M 1e-9

PlnMjcfOptions pln_mjcf_options_default(void)
{
    PlnMjcfOptions o;
    o.floating_base = 1;
    o.capsules = 1;
    o.floor = 1;
    o.floor_z = 0.0;
    o.soles = 0;
    o.motors = 0;
    o.armature = NULL;
    o.no_default_contact = 0;
    o.extra = NULL;
    o.extra_ctx = NULL;
    o.timestep = 0.001;
    o.gravity[0] = 0.0;
    o.gravity[1] = 0.0;
    o.gravity[2] = -PLN_GRAVITY_MS2;
    return o;
}

/* Shepperd's method: the best-conditioned of the four square roots. */
void pln_mjcf_quat_from_matrix(const double R[9], double q[4])
{
    double tr = R[0] + R[4] + R[8], n;
    if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
        double s = 2.0 * sqrt(fmax(0.0, 1.0 + tr));
        q[0] = 0.25 * s;
        q[1] = (R[7] - R[5]) / s;
        q[2] = (R[2] - R[6]) / s;
        q[3] = (R[3] - R[1]) / s;
    } else if (R[0] >= R[4] && R[0] >= R[8]) {
        double s = 2.0 * sqrt(fmax(0.0, 1.0 + R[0] - R[4] - R[8]));
        q[0] = (R[7] - R[5]) / s;
        q[1] = 0.25 * s;
        q[2] = (R[1] + R[3]) / s;
        q[3] = (R[2] + R[6]) / s;
    } else if (R[4] >= R[8]) {
        double s = 2.0 * sqrt(fmax(0.0, 1.0 - R[0] + R[4] - R[8]));
        q[0] = (R[2] - R[6]) / s;
        q[1] = (R[1] + R[3]) / s;
        q[2] = 0.25 * s;
        q[3] = (R[5] + R[7]) / s;
    } else {
        double s = 2.0 * sqrt(fmax(0.0, 1.0 - R[0] - R[4] + R[8]));
        q[0] = (R[3] - R[1]) / s;
        q[1] = (R[2] + R[6]) / s;
        q[2] = (R[5] + R[7]) / s;
        q[3] = 0.25 * s;
    }
    if (q[0] < 0.0) {
        q[0] = -q[0];
        q[1] = -q[1];
        q[2] = -q[2];
        q[3] = -q[3];
    }
    n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    q[0] /= n;
    q[1] /= n;
    q[2] /= n;
    q[3] /= n;
}

void pln_mjcf_put_escaped(FILE *out, const char *s)
{
    for (; *s != '\0'; ++s) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*s, out); break;
        }
    }
}

/* the shortest of %.15g, %.16g, %.17g that reads back as the same double, so the file
 * says 0.6487, not 0.64870000000000005, and still carries every bit */
static void fmt_num(double x, char *buf, size_t size)
{
    int digits;
    for (digits = 15; digits < 17; ++digits) {
        snprintf(buf, size, "%.*g", digits, x);
        if (strtod(buf, NULL) == x) return;
    }
    snprintf(buf, size, "%.17g", x);
}

/* writes n numbers separated by spaces */
void pln_mjcf_put_nums(FILE *out, const double *x, int n)
{
    char buf[40];
    int i;
    for (i = 0; i < n; ++i) {
        fmt_num(x[i], buf, sizeof buf);
        if (i > 0) fputc(' ', out);
        fputs(buf, out);
    }
}

static void indent(FILE *out, int depth)
{
    int i;
    for (i = 0; i < depth; ++i) fputs("  ", out);
}

/* 1 when link is the root body of the MJCF: the model's root, or on a free base
 * (pln_robot_free_base) the waist, whose virtual joints and links MuJoCo does not get (its
 * free joint stands for them) */
static int body_is_root(const PlnRobot *rb, int link)
{
    return rb->free_base ? link == rb->file_root : rb->links[link].parent < 0;
}

/* one body and, depth-first, its children */
static void write_body(const PlnRobot *rb, const PlnMjcfOptions *o, int link, int depth,
                       FILE *out)
{
    const PlnLink *L = &rb->links[link];
    double pos[3], rot[9], quat[4];
    int i, root = body_is_root(rb, link);
    if (root) {
        /* the root: base pose composed with the origins down to it (on a free base, the
         * waist with its virtual joints at zero: the file's base pose, kinematics.md K17) */
        int path[PLN_FREE_BASE_JOINTS + 1], n = 0;
        memcpy(pos, rb->base_pos, sizeof pos);
        memcpy(rot, rb->base_rot, sizeof rot);
        for (int a = link; a >= 0 && n <= PLN_FREE_BASE_JOINTS; a = rb->links[a].parent) path[n++] = a;
        while (n-- > 0) {
            const PlnLink *A = &rb->links[path[n]];
            double p2[3], r2[9];
            for (i = 0; i < 3; ++i) {
                p2[i] = pos[i] + rot[3 * i] * A->origin_pos[0] + rot[3 * i + 1] * A->origin_pos[1] +
                        rot[3 * i + 2] * A->origin_pos[2];
            }
            for (i = 0; i < 9; ++i) {
                int r = i / 3, c = i % 3;
                r2[i] = rot[3 * r] * A->origin_rot[c] + rot[3 * r + 1] * A->origin_rot[3 + c] +
                        rot[3 * r + 2] * A->origin_rot[6 + c];
            }
            memcpy(pos, p2, sizeof pos);
            memcpy(rot, r2, sizeof rot);
        }
    } else {
        memcpy(pos, L->origin_pos, sizeof pos);
        memcpy(rot, L->origin_rot, sizeof rot);
    }
    pln_mjcf_quat_from_matrix(rot, quat);
    indent(out, depth);
    fputs("<body name=\"", out);
    pln_mjcf_put_escaped(out, L->name);
    fputs("\" pos=\"", out);
    pln_mjcf_put_nums(out, pos, 3);
    fputs("\" quat=\"", out);
    pln_mjcf_put_nums(out, quat, 4);
    fputs("\">\n", out);
    if (root && o->floating_base) {
        indent(out, depth + 1);
        fputs("<freejoint name=\"base\"/>\n", out);
    }
    if (!root && L->joint >= 0 && rb->joints[L->joint].type != PLN_JOINT_FIXED) {
        /* a hinge about the axis through the body origin, or a slide along it (MuJoCo's
         * slide joint translates the body by q axis in the body frame at q = 0, which is
         * T_parent O Trans(q a) of pln_robot.h) */
        const PlnJoint *J = &rb->joints[L->joint];
        const double range[2] = {J->lower, J->upper};
        indent(out, depth + 1);
        fputs("<joint name=\"", out);
        pln_mjcf_put_escaped(out, J->name);
        fputs(J->type == PLN_JOINT_PRISMATIC ? "\" type=\"slide\" pos=\"0 0 0\" axis=\""
                                             : "\" type=\"hinge\" pos=\"0 0 0\" axis=\"", out);
        pln_mjcf_put_nums(out, J->axis, 3);
        fputs("\" limited=\"true\" range=\"", out);
        pln_mjcf_put_nums(out, range, 2);
        if (o->armature != NULL && o->armature[L->joint] > 0.0) {
            fputs("\" armature=\"", out);
            pln_mjcf_put_nums(out, &o->armature[L->joint], 1);
        }
        fputs("\"/>\n", out);
    }
    if (L->mass > 0.0) {
        /* MJCF's fullinertia order: xx yy zz xy xz yz */
        const double *I = L->inertia;
        const double full[6] = {I[0], I[4], I[8], I[1], I[2], I[5]};
        indent(out, depth + 1);
        fputs("<inertial pos=\"", out);
        pln_mjcf_put_nums(out, L->com, 3);
        fputs("\" mass=\"", out);
        pln_mjcf_put_nums(out, &L->mass, 1);
        fputs("\" fullinertia=\"", out);
        pln_mjcf_put_nums(out, full, 6);
        fputs("\"/>\n", out);
    }
    if (o->capsules && L->geometry.has_capsule) {
        const PlnLinkGeometry *g = &L->geometry;
        double d[3], mid[3];
        for (i = 0; i < 3; ++i) {
            d[i] = g->capsule_p1[i] - g->capsule_p0[i];
            mid[i] = 0.5 * (g->capsule_p0[i] + g->capsule_p1[i]);
        }
        indent(out, depth + 1);
        fputs("<geom name=\"", out);
        pln_mjcf_put_escaped(out, L->name);
        if (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) < PLN_MJCF_MIN_SEGMENT_M) {
            /* a capsule of no length is a sphere (MuJoCo refuses such a fromto) */
            fputs("_capsule\" type=\"sphere\" pos=\"", out);
            pln_mjcf_put_nums(out, mid, 3);
        } else {
            fputs("_capsule\" type=\"capsule\" fromto=\"", out);
            pln_mjcf_put_nums(out, g->capsule_p0, 3);
            fputc(' ', out);
            pln_mjcf_put_nums(out, g->capsule_p1, 3);
        }
        fputs("\" size=\"", out);
        pln_mjcf_put_nums(out, &g->capsule_radius, 1);
        fputs("\"/>\n", out);
    }
    if (o->soles) {
        for (i = 0; i < rb->n_soles; ++i) {
            const PlnSole *S = &rb->soles[i];
            const double half[3] = {0.5 * S->size[0], 0.5 * S->size[1],
                                    0.5 * PLN_MJCF_SOLE_THICKNESS_M};
            const double c[3] = {S->offset[0], S->offset[1],
                                 S->offset[2] + 0.5 * PLN_MJCF_SOLE_THICKNESS_M};
            if (S->link != link) continue;
            indent(out, depth + 1);
            fputs("<geom name=\"", out);
            pln_mjcf_put_escaped(out, L->name);
            fputs("_sole\" type=\"box\" pos=\"", out);
            pln_mjcf_put_nums(out, c, 3);
            fputs("\" size=\"", out);
            pln_mjcf_put_nums(out, half, 3);
            fputs("\"/>\n", out);
        }
    }
    if (o->extra != NULL) o->extra(o->extra_ctx, PLN_MJCF_BODY, link, out);
    for (i = link + 1; i < rb->n_links; ++i) {
        if (rb->links[i].parent == link) write_body(rb, o, i, depth + 1, out);
    }
    indent(out, depth);
    fputs("</body>\n", out);
}

/* the MJCF document (MuJoCo XML reference: mujoco, compiler, option, worldbody, body,
 * freejoint, joint, inertial, geom) */
PlnStatus pln_mjcf_write(const PlnRobot *robot, const PlnMjcfOptions *opt, FILE *out, char *err,
                         size_t err_size)
{
    PlnMjcfOptions o = opt != NULL ? *opt : pln_mjcf_options_default();
    int i;
    if (robot == NULL || out == NULL || robot->n_links < 1) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "mjcf: no robot or no output");
    }
    if (!(o.timestep > 0.0) || !isfinite(o.timestep) || !isfinite(o.gravity[0]) ||
        !isfinite(o.gravity[1]) || !isfinite(o.gravity[2]) || !isfinite(o.floor_z)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "mjcf: timestep must be > 0, gravity and floor height finite");
    }
    for (i = 0; o.armature != NULL && i < robot->n_joints; ++i) {
        if (!(o.armature[i] >= 0.0) || !isfinite(o.armature[i])) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "mjcf: armature of joint '%s' must be finite and >= 0",
                              robot->joints[i].name);
        }
    }
    for (i = 0; i < robot->n_links && !robot->free_base; ++i) {
        const PlnLink *L = &robot->links[i];
        if (L->parent < 0 && L->joint >= 0 && o.floating_base &&
            robot->joints[L->joint].type != PLN_JOINT_FIXED) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size,
                              "mjcf: root link '%s' has joint '%s': MuJoCo's free joint must "
                              "be the root body's only joint",
                              L->name, robot->joints[L->joint].name);
        }
    }
    fputs("<mujoco model=\"", out);
    pln_mjcf_put_escaped(out, robot->name);
    fputs("\">\n", out);
    fputs("  <!-- written by hrpplan export-mjcf from the robot YAML: bodies, hinges, slides, inertias "
          "and capsules of model/pln_dyn.h -->\n",
          out);
    fputs("  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n", out);
    fputs("  <option timestep=\"", out);
    pln_mjcf_put_nums(out, &o.timestep, 1);
    fputs("\" gravity=\"", out);
    pln_mjcf_put_nums(out, o.gravity, 3);
    fputs("\"/>\n", out);
    if (o.no_default_contact) {
        fputs("  <default>\n    <geom contype=\"0\" conaffinity=\"0\"/>\n  </default>\n", out);
    }
    if (o.extra != NULL) {
        fputs("  <asset>\n", out);
        o.extra(o.extra_ctx, PLN_MJCF_ASSET, -1, out);
        fputs("  </asset>\n", out);
    }
    fputs("  <worldbody>\n", out);
    if (o.floor) {
        const double fp[3] = {0.0, 0.0, o.floor_z};
        fputs("    <geom name=\"floor\" type=\"plane\" size=\"0 0 1\" pos=\"", out);
        pln_mjcf_put_nums(out, fp, 3);
        fputs("\"/>\n", out);
    }
    if (o.extra != NULL) o.extra(o.extra_ctx, PLN_MJCF_WORLD, -1, out);
    for (i = 0; i < robot->n_links; ++i) {
        if (body_is_root(robot, i)) write_body(robot, &o, i, 2, out);
    }
    fputs("  </worldbody>\n", out);
    if (o.extra != NULL) {
        fputs("  <contact>\n", out);
        o.extra(o.extra_ctx, PLN_MJCF_CONTACT, -1, out);
        fputs("  </contact>\n", out);
    }
    if (o.motors || o.extra != NULL) {
        fputs("  <actuator>\n", out);
        for (i = 0; o.motors && i < robot->n_joints; ++i) {
            const PlnJoint *J = &robot->joints[i];
            if (J->type == PLN_JOINT_FIXED || pln_robot_joint_is_virtual(robot, i)) continue;
            fputs("    <motor name=\"", out);
            pln_mjcf_put_escaped(out, J->name);
            fputs("\" joint=\"", out);
            pln_mjcf_put_escaped(out, J->name);
            fputs("\" gear=\"1\"", out);
            if (robot->has_effort) {
                const double r[2] = {-J->effort_max, J->effort_max};
                fputs(" ctrllimited=\"true\" ctrlrange=\"", out);
                pln_mjcf_put_nums(out, r, 2);
                fputs("\"", out);
            }
            fputs("/>\n", out);
        }
        if (o.extra != NULL) o.extra(o.extra_ctx, PLN_MJCF_ACTUATOR, -1, out);
        fputs("  </actuator>\n", out);
    }
    fputs("</mujoco>\n", out);
    if (ferror(out)) return pln_errorf(PLN_ERR_IO, err, err_size, "mjcf: write error");
    return PLN_OK;
}

PlnStatus pln_mjcf_write_file(const PlnRobot *robot, const PlnMjcfOptions *opt,
                              const char *path, char *err, size_t err_size)
{
    PlnAtomicFile f;
    PlnStatus st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    st = pln_mjcf_write(robot, opt, f.fp, err, err_size);
    if (st != PLN_OK) {
        pln_atomic_abort(&f);
        return st;
    }
    return pln_atomic_commit(&f, err, err_size);
}
