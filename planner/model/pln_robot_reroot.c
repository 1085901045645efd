/* pln_robot_reroot.c — the robot rooted at another link: the floating base of a robot
 * standing on a foot (docs/math/kinematics.md, "Floating base by re-rooting", K10-K13).
 *
 * Notation: a transform X = (R, p) maps coordinates in one frame to another, x' = R x + p;
 * O_c is the origin of link c's joint in its parent's frame and Rot(a, q) its rotation.
 * The file's model is T_W_c = T_W_parent O_c Rot(a_c, q_c). Along the path
 * p_0 = new root, p_1 = parent(p_0), ..., p_k = old root, the joint of p_{i-1} is turned
 * round: solving the file's relation for the parent,
 *   T_W_{p_i} O_{p_{i-1}} = T_W_{p_{i-1}} Rot(a, q)^-1 = T_W_{p_{i-1}} Rot(-a, q),        (K10)
 * so the frame F'_{p_i} = F_{p_i} O_{p_{i-1}} (the joint's frame, on p_i's side) hangs from
 * p_{i-1} by the same coordinate q about -a. With the shift S_l, T_W_file(l) = T_W_model(l) S_l,
 *   S_{p_0} = I,   S_{p_i} = O_{p_{i-1}}^-1,                                              (K11)
 * and with p_{i-1}'s own shift in front, the new origin of p_i is
 *   O'_{p_i} = S_{p_{i-1}}.                                                                (K12)
 * A link c off the path whose parent P is shifted keeps its frame; its origin becomes
 *   O'_c = S_P O_c.                                                                        (K13)
 * Everything given in a shifted link's frame (centre of mass, inertia, capsule, ellipsoid,
 * mesh placement, sole) is re-expressed by x' = S x (a point), R' = S_R R (axes).
 * A prismatic joint turns round the same way: Trans(q a)^-1 = Trans(q (-a)) (K16), so
 * negating the axis serves both types. */
#include "model/pln_robot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REROOT_SOLE_ROT_TOL 1e-12 /* a sole's frame may only translate (|S_R - I| entries) */

static const double IDENTITY[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* C = A B, 3x3 row-major */
static void mat_mul(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            T[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
        }
    }
    memcpy(C, T, sizeof T);
}

/* y = R x + p */
static void apply(const double R[9], const double p[3], const double x[3], double y[3])
{
    double t[3];
    for (int i = 0; i < 3; ++i) t[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2] + p[i];
    memcpy(y, t, sizeof t);
}

/* (R, p) = (R1, p1) (R2, p2) */
static void compose(const double R1[9], const double p1[3], const double R2[9], const double p2[3],
                    double R[9], double p[3])
{
    double pt[3];
    apply(R1, p1, p2, pt);
    mat_mul(R1, R2, R);
    memcpy(p, pt, sizeof pt);
}

/* (R, p)^-1 = (R^T, -R^T p) */
static void invert(const double R[9], const double p[3], double Ri[9], double pi[3])
{
    double T[9];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) T[3 * i + j] = R[3 * j + i];
    }
    for (int i = 0; i < 3; ++i) pi[i] = -(T[3 * i] * p[0] + T[3 * i + 1] * p[1] + T[3 * i + 2] * p[2]);
    memcpy(Ri, T, sizeof T);
}

/* everything of link l given in its frame, re-expressed in the frame shifted by (R, p) */
static void reexpress(PlnLink *l, const double R[9], const double p[3])
{
    PlnLinkGeometry *g = &l->geometry;
    double RI[9], RT[9];
    apply(R, p, l->com, l->com);
    /* inertia about the com: R I R^T */
    mat_mul(R, l->inertia, RI);
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) RT[3 * i + j] = R[3 * j + i];
    }
    mat_mul(RI, RT, l->inertia);
    if (g->has_capsule) {
        apply(R, p, g->capsule_p0, g->capsule_p0);
        apply(R, p, g->capsule_p1, g->capsule_p1);
    }
    if (g->has_ellipsoid) {
        apply(R, p, g->ellipsoid_center, g->ellipsoid_center);
        mat_mul(R, g->ellipsoid_rot, g->ellipsoid_rot);
    }
    if (g->has_file_pose) {
        compose(R, p, g->file_rot, g->file_pos, g->file_rot, g->file_pos);
    } else {
        memcpy(g->file_rot, R, sizeof g->file_rot);
        memcpy(g->file_pos, p, sizeof g->file_pos);
        g->has_file_pose = 1;
    }
}

PlnStatus pln_robot_reroot(const PlnRobot *in, int root, const double root_pos[3],
                           const double root_rot[9], PlnRobot *out, char *err, size_t err_size)
{
    const int nl = in->n_links, nj = in->n_joints;
    int *on_path = NULL, *new_parent = NULL, *order = NULL, *new_of = NULL, *stack = NULL;
    PlnLink *links = NULL; /* in the file's index order, then permuted */
    PlnStatus st = PLN_OK;
    int n = 0, top = 0;
    int sole_done[PLN_ROBOT_MAX_SOLES] = {0};

    memset(out, 0, sizeof *out);
    if (root < 0 || root >= nl) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "re-rooting: link %d out of range", root);
    }
    on_path = calloc((size_t)nl, sizeof *on_path);
    new_parent = calloc((size_t)nl, sizeof *new_parent);
    order = calloc((size_t)nl, sizeof *order);
    new_of = calloc((size_t)nl, sizeof *new_of);
    stack = calloc((size_t)nl, sizeof *stack);
    links = calloc((size_t)nl, sizeof *links);
    out->links = calloc((size_t)nl, sizeof *out->links);
    out->joints = calloc((size_t)(nj > 0 ? nj : 1), sizeof *out->joints);
    if (in->n_collision_pairs > 0) {
        out->collision_pairs = calloc((size_t)in->n_collision_pairs, sizeof *out->collision_pairs);
    }
    if (in->n_parts > 0) out->parts = malloc((size_t)in->n_parts * sizeof *out->parts);
    if (!on_path || !new_parent || !order || !new_of || !stack || !links || !out->links ||
        !out->joints || (in->n_collision_pairs > 0 && out->collision_pairs == NULL) ||
        (in->n_parts > 0 && out->parts == NULL)) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    memcpy(links, in->links, (size_t)nl * sizeof *links);
    memcpy(out->joints, in->joints, (size_t)nj * sizeof *out->joints);
    /* the collision parts stay in the links' file frames (file_pos, file_rot move them) */
    if (in->n_parts > 0) memcpy(out->parts, in->parts, (size_t)in->n_parts * sizeof *out->parts);
    out->n_parts = in->n_parts;

    /* the tree turned round along the path (K10-K13), links still in the input's order */
    for (int l = 0; l < nl; ++l) new_parent[l] = in->links[l].parent;
    new_parent[root] = -1;
    links[root].joint = -1;
    on_path[root] = 1;
    for (int c = root; in->links[c].parent >= 0; c = in->links[c].parent) {
        const PlnLink *lc = &in->links[c];
        int P = lc->parent;
        PlnLink *lp = &links[P];
        on_path[P] = 1;
        new_parent[P] = c;
        lp->joint = lc->joint;
        if (lc->joint >= 0) {
            PlnJoint *jt = &out->joints[lc->joint];
            for (int d = 0; d < 3; ++d) jt->axis[d] = -jt->axis[d];
        }
        /* S_P = O_c^-1 (K11); the new origin of P is c's shift (K12), set below */
        invert(lc->origin_rot, lc->origin_pos, lp->shift_rot, lp->shift_pos);
        lp->shifted = 1;
    }
    for (int l = 0; l < nl; ++l) {
        PlnLink *L = &links[l];
        int P = new_parent[l];
        if (l == root) {
            L->shifted = 0;
            memcpy(L->shift_rot, IDENTITY, sizeof L->shift_rot);
            memset(L->shift_pos, 0, sizeof L->shift_pos);
            memcpy(L->origin_rot, IDENTITY, sizeof L->origin_rot);
            memset(L->origin_pos, 0, sizeof L->origin_pos);
            continue;
        }
        if (on_path[l]) {
            /* K12: O'_l = S_parent (the identity next to the root) */
            const PlnLink *Lp = &links[P];
            if (P == root || !Lp->shifted) {
                memcpy(L->origin_rot, IDENTITY, sizeof L->origin_rot);
                memset(L->origin_pos, 0, sizeof L->origin_pos);
            } else {
                memcpy(L->origin_rot, Lp->shift_rot, sizeof L->origin_rot);
                memcpy(L->origin_pos, Lp->shift_pos, sizeof L->origin_pos);
            }
        } else {
            L->shifted = 0;
            memcpy(L->shift_rot, IDENTITY, sizeof L->shift_rot);
            memset(L->shift_pos, 0, sizeof L->shift_pos);
            if (on_path[P] && links[P].shifted) {
                /* K13: O'_l = S_P O_l */
                compose(links[P].shift_rot, links[P].shift_pos, in->links[l].origin_rot,
                        in->links[l].origin_pos, L->origin_rot, L->origin_pos);
            }
        }
    }
    for (int l = 0; l < nl; ++l) {
        const PlnLink *L0 = &in->links[l];
        PlnLink *L = &links[l];
        if (L->shifted && l != root) {
            reexpress(L, L->shift_rot, L->shift_pos);
            for (int so = 0; so < in->n_soles; ++so) {
                if (in->soles[so].link != l) continue;
                for (int d = 0; d < 9; ++d) {
                    if (fabs(L->shift_rot[d] - IDENTITY[d]) > REROOT_SOLE_ROT_TOL) {
                        st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                                        "re-rooting at %s turns the frame of %s, which has a "
                                        "sole: a sole must stay in its link's xy plane",
                                        in->links[root].name, L->name);
                        goto done;
                    }
                }
                out->soles[so] = in->soles[so];
                apply(L->shift_rot, L->shift_pos, in->soles[so].offset, out->soles[so].offset);
                sole_done[so] = 1;
            }
        }
        /* an input that was itself re-rooted: T_W_file = T_W_out S_new S_in */
        if (l != root && on_path[l] && L0->shifted) {
            compose(L->shift_rot, L->shift_pos, L0->shift_rot, L0->shift_pos, L->shift_rot,
                    L->shift_pos);
        } else if (!(l != root && on_path[l])) {
            L->shifted = L0->shifted;
            memcpy(L->shift_rot, L0->shift_rot, sizeof L->shift_rot);
            memcpy(L->shift_pos, L0->shift_pos, sizeof L->shift_pos);
        }
    }

    /* topological order: root first, then depth-first, children in the input's order */
    stack[top++] = root;
    while (top > 0) {
        int l = stack[--top];
        order[n++] = l;
        for (int c = nl - 1; c >= 0; --c) {
            if (new_parent[c] == l) stack[top++] = c;
        }
    }
    if (n != nl) {
        st = pln_errorf(PLN_ERR_INTERNAL, err, err_size, "re-rooting: %d of %d links reached", n, nl);
        goto done;
    }
    for (int k = 0; k < nl; ++k) new_of[order[k]] = k;
    for (int k = 0; k < nl; ++k) {
        out->links[k] = links[order[k]];
        out->links[k].parent = new_parent[order[k]] < 0 ? -1 : new_of[new_parent[order[k]]];
        if (out->links[k].joint >= 0) out->joints[out->links[k].joint].link = k;
    }

    /* the rest of the model */
    memcpy(out->name, in->name, sizeof out->name);
    out->n_links = nl;
    out->n_joints = nj;
    memcpy(out->base_pos, root_pos, sizeof out->base_pos);
    memcpy(out->base_rot, root_rot, sizeof out->base_rot);
    out->control_period = in->control_period;
    out->total_mass = in->total_mass;
    out->has_effort = in->has_effort;
    out->n_collision_pairs = in->n_collision_pairs;
    for (int i = 0; i < in->n_collision_pairs; ++i) {
        out->collision_pairs[i][0] = new_of[in->collision_pairs[i][0]];
        out->collision_pairs[i][1] = new_of[in->collision_pairs[i][1]];
    }
    out->n_soles = in->n_soles;
    for (int so = 0; so < in->n_soles; ++so) {
        if (!sole_done[so]) out->soles[so] = in->soles[so];
        out->soles[so].link = new_of[in->soles[so].link];
    }
    out->file_root = new_of[in->file_root];

done:
    free(on_path);
    free(new_parent);
    free(order);
    free(new_of);
    free(stack);
    free(links);
    if (st != PLN_OK) pln_robot_destroy(out);
    return st;
}

void pln_robot_file_frame(const PlnRobot *robot, int l, const double R[9], const double p[3],
                          double R_file[9], double p_file[3])
{
    const PlnLink *L = &robot->links[l];
    if (!L->shifted) {
        memcpy(R_file, R, 9 * sizeof *R);
        memcpy(p_file, p, 3 * sizeof *p);
        return;
    }
    compose(R, p, L->shift_rot, L->shift_pos, R_file, p_file);
}
