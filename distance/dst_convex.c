/* dst_convex.c — convex shapes: constructors, validation and support mappings
 * (seed 002, "The Support Function"; docs/math/gjk_epa.md eq. (4)-(8)). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dst_convex_internal.h"

/* printf-style message into err[err_size] when a buffer is given; returns status. */
static DstStatus cvx_error(char *err, size_t err_size, DstStatus status, const char *fmt, ...)
{
    if (err != NULL && err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* A zeroed shape of the given kind at the identity pose. */
static DstConvex cvx_blank(DstConvexKind kind)
{
    DstConvex c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.rot[0] = c.rot[4] = c.rot[8] = 1.0;
    return c;
}

/* Constructors: cores of seed 002 "The Support Function" (docs/math/gjk_epa.md eq. (5)-(8)). */
DstConvex dst_convex_points(const double *verts, int n, const int *adj_start, const int *adj)
{
    DstConvex c = cvx_blank(DST_CONVEX_POINTS);
    c.verts = verts;
    c.nverts = n;
    c.adj_start = adj_start;
    c.adj = adj;
    return c;
}

DstConvex dst_convex_sphere(double radius)
{
    DstConvex c = cvx_blank(DST_CONVEX_SPHERE);
    c.margin = radius;
    return c;
}

DstConvex dst_convex_capsule(double radius, double half_length)
{
    DstConvex c = cvx_blank(DST_CONVEX_CAPSULE);
    c.margin = radius;
    c.half_length = half_length;
    return c;
}

DstConvex dst_convex_box(double hx, double hy, double hz)
{
    DstConvex c = cvx_blank(DST_CONVEX_BOX);
    c.half[0] = hx;
    c.half[1] = hy;
    c.half[2] = hz;
    return c;
}

DstConvex dst_convex_ellipsoid(double a, double b, double c3)
{
    DstConvex c = cvx_blank(DST_CONVEX_ELLIPSOID);
    c.radii[0] = a;
    c.radii[1] = b;
    c.radii[2] = c3;
    return c;
}

DstConvex dst_convex_custom(DstSupportFn support, const void *user)
{
    DstConvex c = cvx_blank(DST_CONVEX_CUSTOM);
    c.support = support;
    c.user = user;
    return c;
}

/* Pose x_world = R x_local + t (eq. (4)); NULL means identity / zero. */
void dst_convex_set_pose(DstConvex *shape, const double rot[9], const double pos[3])
{
    static const double eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    if (shape == NULL) return;
    memcpy(shape->rot, rot != NULL ? rot : eye, sizeof shape->rot);
    if (pos != NULL) {
        dcv_copy(shape->pos, pos);
    } else {
        shape->pos[0] = shape->pos[1] = shape->pos[2] = 0.0;
    }
}

/* 1 when all n numbers are finite. */
static int cvx_all_finite(const double *x, int n)
{
    for (int i = 0; i < n; ++i) {
        if (!isfinite(x[i])) return 0;
    }
    return 1;
}

/* Fast test of a pose: finite, rows orthonormal, det +1, position in range. Every
 * comparison is false for NaN, so a non-finite entry fails it. */
static int cvx_pose_ok(const DstConvex *c)
{
    const double *R = c->rot, *t = c->pos;
    const double tol = DST_CONVEX_ORTHO_TOL, big = DST_CONVEX_MAX_COORD;
    double r12[3];
    dcv_cross(r12, R + 3, R + 6);
    /* & rather than &&: all terms are cheap, and one test has fewer branches */
    return (fabs(dcv_dot(R, R) - 1.0) <= tol) & (fabs(dcv_dot(R + 3, R + 3) - 1.0) <= tol) &
           (fabs(dcv_dot(R + 6, R + 6) - 1.0) <= tol) & (fabs(dcv_dot(R, R + 3)) <= tol) &
           (fabs(dcv_dot(R, R + 6)) <= tol) & (fabs(dcv_dot(R + 3, R + 6)) <= tol) &
           (fabs(dcv_dot(R, r12) - 1.0) <= tol) & (fabs(t[0]) <= big) & (fabs(t[1]) <= big) &
           (fabs(t[2]) <= big);
}

/* Validation of one shape; `who` prefixes the field names ("a.", "b." or ""). `full` also
 * scans the vertex and adjacency arrays (O(n)); queries check only O(1) fields. */
static DstStatus cvx_validate(const DstConvex *c, const char *who, int full, char *err,
                              size_t err_size)
{
    double det;
    if (c == NULL) return cvx_error(err, err_size, DST_INVALID_INPUT, "%sshape: NULL", who);
    if (cvx_pose_ok(c)) goto sizes;
    /* slow path: find the field at fault for the message */
    if (!cvx_all_finite(c->rot, 9) || !cvx_all_finite(c->pos, 3)) {
        return cvx_error(err, err_size, DST_INVALID_INPUT, "%spose: non-finite value", who);
    }
    /* rotation: rows orthonormal and det +1 */
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            double d = dcv_dot(c->rot + 3 * i, c->rot + 3 * j) - (i == j ? 1.0 : 0.0);
            if (fabs(d) > DST_CONVEX_ORTHO_TOL) {
                return cvx_error(err, err_size, DST_INVALID_INPUT,
                                 "%srot: not orthonormal (row %d . row %d off by %.3g)", who, i, j,
                                 d);
            }
        }
    }
    {
        double r12[3];
        dcv_cross(r12, c->rot + 3, c->rot + 6);
        det = dcv_dot(c->rot, r12);
    }
    if (fabs(det - 1.0) > DST_CONVEX_ORTHO_TOL) {
        return cvx_error(err, err_size, DST_INVALID_INPUT, "%srot: determinant %.6g, not +1", who,
                         det);
    }
    for (int i = 0; i < 3; ++i) {
        if (fabs(c->pos[i]) > DST_CONVEX_MAX_COORD) {
            return cvx_error(err, err_size, DST_INVALID_INPUT,
                             "%spos[%d]: %g beyond the supported range (%g m)", who, i, c->pos[i],
                             DST_CONVEX_MAX_COORD);
        }
    }
sizes:
    if (!isfinite(c->margin) || c->margin < 0.0 || c->margin > DST_CONVEX_MAX_COORD) {
        return cvx_error(
            err, err_size, DST_INVALID_INPUT,
            "%smargin: %g, must be finite, >= 0 and in the supported range <= %g m (radius)", who,
            c->margin, DST_CONVEX_MAX_COORD);
    }
    switch (c->kind) {
    case DST_CONVEX_POINTS:
        if (c->dir_table != NULL && (c->adj_start == NULL || c->dir_res < 1)) {
            return cvx_error(err, err_size, DST_INVALID_INPUT,
                             "%sdir_table: needs adj and dir_res >= 1 (dir_res = %d)", who,
                             c->dir_res);
        }
        if (c->verts == NULL || c->nverts < 1) {
            return cvx_error(err, err_size, DST_INVALID_INPUT,
                             "%sverts: need at least one vertex (got %d%s)", who, c->nverts,
                             c->verts == NULL ? ", NULL array" : "");
        }
        if (!full) break;
        for (int i = 0; i < 3 * c->nverts; ++i) {
            if (!isfinite(c->verts[i]) || fabs(c->verts[i]) > DST_CONVEX_MAX_COORD) {
                return cvx_error(err, err_size, DST_INVALID_INPUT,
                                 "%sverts[%d][%d]: %g, non-finite or beyond %g m", who, i / 3,
                                 i % 3, c->verts[i], DST_CONVEX_MAX_COORD);
            }
        }
        if ((c->adj_start == NULL) != (c->adj == NULL)) {
            return cvx_error(err, err_size, DST_INVALID_INPUT,
                             "%sadj: adj_start and adj must both be set or both NULL", who);
        }
        if (c->dir_table != NULL && (c->adj_start == NULL || c->dir_res < 1)) {
            return cvx_error(err, err_size, DST_INVALID_INPUT,
                             "%sdir_table: needs adj and dir_res >= 1 (dir_res = %d)", who,
                             c->dir_res);
        }
        if (c->dir_table != NULL) {
            for (int k = 0; k < 6 * c->dir_res * c->dir_res; ++k) {
                if (c->dir_table[k] < 0 || c->dir_table[k] >= c->nverts) {
                    return cvx_error(err, err_size, DST_INVALID_INPUT,
                                     "%sdir_table[%d]: vertex %d out of range", who, k,
                                     c->dir_table[k]);
                }
            }
        }
        if (c->adj_start != NULL) {
            if (c->adj_start[0] != 0) {
                return cvx_error(err, err_size, DST_INVALID_INPUT, "%sadj_start[0]: must be 0",
                                 who);
            }
            for (int i = 0; i < c->nverts; ++i) {
                if (c->adj_start[i + 1] < c->adj_start[i]) {
                    return cvx_error(err, err_size, DST_INVALID_INPUT,
                                     "%sadj_start[%d]: decreasing", who, i + 1);
                }
                for (int k = c->adj_start[i]; k < c->adj_start[i + 1]; ++k) {
                    if (c->adj[k] < 0 || c->adj[k] >= c->nverts) {
                        return cvx_error(err, err_size, DST_INVALID_INPUT,
                                         "%sadj[%d]: vertex %d out of range", who, k, c->adj[k]);
                    }
                }
            }
        }
        break;
    case DST_CONVEX_SPHERE: break;
    case DST_CONVEX_CAPSULE:
        if (!isfinite(c->half_length) || c->half_length < 0.0 ||
            c->half_length > DST_CONVEX_MAX_COORD) {
            return cvx_error(
                err, err_size, DST_INVALID_INPUT,
                "%shalf_length: %g, must be finite, >= 0 and in the supported range <= %g m", who,
                c->half_length, DST_CONVEX_MAX_COORD);
        }
        break;
    case DST_CONVEX_BOX:
        for (int i = 0; i < 3; ++i) {
            if (!isfinite(c->half[i]) || c->half[i] < 0.0 || c->half[i] > DST_CONVEX_MAX_COORD) {
                return cvx_error(
                    err, err_size, DST_INVALID_INPUT,
                    "%shalf[%d]: %g, must be finite, >= 0 and in the supported range <= %g m", who,
                    i, c->half[i], DST_CONVEX_MAX_COORD);
            }
        }
        break;
    case DST_CONVEX_ELLIPSOID:
        for (int i = 0; i < 3; ++i) {
            if (!isfinite(c->radii[i]) || c->radii[i] <= 0.0 ||
                c->radii[i] > DST_CONVEX_MAX_COORD) {
                return cvx_error(
                    err, err_size, DST_INVALID_INPUT,
                    "%sradii[%d]: %g, must be finite, > 0 and in the supported range <= %g m", who,
                    i, c->radii[i], DST_CONVEX_MAX_COORD);
            }
        }
        break;
    case DST_CONVEX_CUSTOM:
        if (c->support == NULL) {
            return cvx_error(err, err_size, DST_INVALID_INPUT, "%ssupport: NULL callback", who);
        }
        break;
    default:
        return cvx_error(err, err_size, DST_INVALID_INPUT, "%skind: unknown shape kind %d", who,
                         (int)c->kind);
    }
    return DST_OK;
}

/* Full validation of one shape, vertex arrays included. */
DstStatus dst_convex_validate(const DstConvex *shape, char *err, size_t err_size)
{
    return cvx_validate(shape, "", 1, err, err_size);
}

/* The O(1) checks of cvx_validate for the common kinds as one expression without early
 * exits (every comparison is false for NaN); 0 sends the caller to cvx_validate, which
 * finds the field at fault. */
static int cvx_quick_ok(const DstConvex *c)
{
    const double big = DST_CONVEX_MAX_COORD;
    int ok;
    if (c == NULL) return 0;
    ok = cvx_pose_ok(c) & (c->margin >= 0.0) & (c->margin <= big);
    switch (c->kind) {
    case DST_CONVEX_POINTS:
        return ok & (c->verts != NULL) & (c->nverts >= 1) &
               ((c->dir_table == NULL) | ((c->adj_start != NULL) & (c->dir_res >= 1)));
    case DST_CONVEX_SPHERE: return ok;
    case DST_CONVEX_CAPSULE: return ok & (c->half_length >= 0.0) & (c->half_length <= big);
    default: return 0;
    }
}

/* O(1) validation of the two shapes of a query. */
DstStatus dst_convex_validate_pair(const DstConvex *a, const DstConvex *b, char *err,
                                   size_t err_size)
{
    DstStatus s;
    if (cvx_quick_ok(a) & cvx_quick_ok(b)) return DST_OK;
    s = cvx_validate(a, "a.", 0, err, err_size);
    if (s != DST_OK) return s;
    return cvx_validate(b, "b.", 0, err, err_size);
}

/* Cube-map cell of a direction (see DstConvex.dir_table): the dominant axis picks the face,
 * the two other components over it pick the cell. Zero directions land in cell 0. */
int cvx_dir_cell(const double d[3], int res)
{
    static const int next1[3] = {1, 2, 0}, next2[3] = {2, 0, 1};
    double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]), am, sc;
    int m, i, j;
    m = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2);
    am = m == 0 ? ax : (m == 1 ? ay : az);
    if (!(am > 0.0)) return 0;
    /* (d_k + |d_m|) / (2 |d_m|) in [0, 1] for the two other components */
    sc = 0.5 * res / am;
    i = (int)((d[next1[m]] + am) * sc);
    j = (int)((d[next2[m]] + am) * sc);
    i -= i >= res;
    j -= j >= res;
    return ((2 * m + (d[m] < 0.0)) * res + i) * res + j;
}

/* Support of a vertex set: steepest ascent on the hull graph from the hint (a local maximum
 * of a linear function on a convex polytope's edge graph is global), else a full scan. */
static int cvx_points_support(const DstConvex *c, const double d[3], int hint, double out[3])
{
    const double *v = c->verts;
    int best = 0;
    double best_dot;
    if (c->adj_start != NULL) {
        /* hill-climb from the better of the hint and the start table's vertex (or vertex 0):
         * at most nverts strict improvements */
        int use_table = hint < 0 || (hint & DST_HINT_USE_TABLE);
        hint = hint < 0 ? -1 : hint & ~DST_HINT_USE_TABLE;
        best = hint >= 0 && hint < c->nverts ? hint : 0;
        best_dot = dcv_dot(v + 3 * best, d);
        if (c->dir_table != NULL && use_table) {
            int t = c->dir_table[cvx_dir_cell(d, c->dir_res)];
            double dt = dcv_dot(v + 3 * t, d);
            if (dt > best_dot || hint < 0) {
                best = t;
                best_dot = dt;
            }
        }
        for (int step = 0; step < c->nverts; ++step) {
            int next = best;
            /* first improvement: move as soon as a neighbour is higher */
            for (int k = c->adj_start[best]; k < c->adj_start[best + 1]; ++k) {
                int j = c->adj[k];
                double dj = dcv_dot(v + 3 * j, d);
                if (dj > best_dot) {
                    best_dot = dj;
                    next = j;
                    break;
                }
            }
            if (next == best) break;
            best = next;
        }
    } else {
        /* brute force: every vertex once, four independent running maxima so that the
         * comparisons do not form one long dependency chain; ties keep the lowest index */
        double m[4];
        int im[4] = {0, 0, 0, 0}, n = c->nverts, j = 0;
        m[0] = m[1] = m[2] = m[3] = dcv_dot(v, d);
        for (; j + 3 < n; j += 4) {
            for (int l = 0; l < 4; ++l) {
                double dj = dcv_dot(v + 3 * (j + l), d);
                if (dj > m[l]) {
                    m[l] = dj;
                    im[l] = j + l;
                }
            }
        }
        for (; j < n; ++j) {
            double dj = dcv_dot(v + 3 * j, d);
            if (dj > m[0]) {
                m[0] = dj;
                im[0] = j;
            }
        }
        best = im[0];
        best_dot = m[0];
        for (int l = 1; l < 4; ++l) {
            if (m[l] > best_dot || (m[l] == best_dot && im[l] < best)) {
                best_dot = m[l];
                best = im[l];
            }
        }
    }
    dcv_copy(out, v + 3 * best);
    return best;
}

/* Local-frame core support of each kind; eq. (5)-(8) of docs/math/gjk_epa.md. */
static int cvx_local_support(const DstConvex *c, const double d[3], int hint, double out[3])
{
    switch (c->kind) {
    case DST_CONVEX_POINTS: return cvx_points_support(c, d, hint, out);
    case DST_CONVEX_SPHERE: out[0] = out[1] = out[2] = 0.0; return 0;
    case DST_CONVEX_CAPSULE:
        /* segment end on the side of d (ties pick +z so the answer is deterministic) */
        out[0] = out[1] = 0.0;
        out[2] = d[2] >= 0.0 ? c->half_length : -c->half_length;
        return d[2] >= 0.0 ? 1 : 0;
    case DST_CONVEX_BOX: {
        int id = 0;
        for (int i = 0; i < 3; ++i) {
            if (d[i] >= 0.0) {
                out[i] = c->half[i];
                id |= 1 << i;
            } else {
                out[i] = -c->half[i];
            }
        }
        return id;
    }
    case DST_CONVEX_ELLIPSOID: {
        /* x = D^2 d / |D d| with D = diag(radii), eq. (8) */
        double e[3], len;
        for (int i = 0; i < 3; ++i) e[i] = c->radii[i] * d[i];
        len = dcv_norm(e);
        if (!(len > DST_MIN_DENOM)) {
            out[0] = out[1] = 0.0;
            out[2] = c->radii[2];
            return -1;
        }
        for (int i = 0; i < 3; ++i) out[i] = c->radii[i] * e[i] / len;
        return -1;
    }
    case DST_CONVEX_CUSTOM:
        return c->support(c->user, d, hint < 0 ? -1 : hint & ~DST_HINT_USE_TABLE, out);
    }
    out[0] = out[1] = out[2] = 0.0;
    return -1;
}

/* World support of the core: d_local = R^T d, x = R x_local + t (eq. (4)). */
int dst_convex_core_support(const DstConvex *c, const double d[3], int hint, double out[3])
{
    const double *R = c->rot;
    double dl[3], xl[3];
    int id;
    dl[0] = R[0] * d[0] + R[3] * d[1] + R[6] * d[2];
    dl[1] = R[1] * d[0] + R[4] * d[1] + R[7] * d[2];
    dl[2] = R[2] * d[0] + R[5] * d[1] + R[8] * d[2];
    id = cvx_local_support(c, dl, hint, xl);
    out[0] = R[0] * xl[0] + R[1] * xl[1] + R[2] * xl[2] + c->pos[0];
    out[1] = R[3] * xl[0] + R[4] * xl[1] + R[5] * xl[2] + c->pos[1];
    out[2] = R[6] * xl[0] + R[7] * xl[1] + R[8] * xl[2] + c->pos[2];
    return id;
}

/* World position of a core feature id (warm start of GJK, eq. (4)). */
int dst_convex_core_vertex(const DstConvex *c, int id, double out[3])
{
    double xl[3];
    const double *R = c->rot;
    switch (c->kind) {
    case DST_CONVEX_POINTS:
        if (id < 0 || id >= c->nverts) return 0;
        dcv_copy(xl, c->verts + 3 * id);
        break;
    case DST_CONVEX_SPHERE:
        if (id != 0) return 0;
        xl[0] = xl[1] = xl[2] = 0.0;
        break;
    case DST_CONVEX_CAPSULE:
        if (id != 0 && id != 1) return 0;
        xl[0] = xl[1] = 0.0;
        xl[2] = id == 1 ? c->half_length : -c->half_length;
        break;
    case DST_CONVEX_BOX:
        if (id < 0 || id > 7) return 0;
        for (int i = 0; i < 3; ++i) xl[i] = (id >> i) & 1 ? c->half[i] : -c->half[i];
        break;
    default: return 0;
    }
    out[0] = R[0] * xl[0] + R[1] * xl[1] + R[2] * xl[2] + c->pos[0];
    out[1] = R[3] * xl[0] + R[4] * xl[1] + R[5] * xl[2] + c->pos[1];
    out[2] = R[6] * xl[0] + R[7] * xl[1] + R[8] * xl[2] + c->pos[2];
    return 1;
}

/* Whole-shape support: core support plus margin * d/|d| (eq. (4)). */
void dst_convex_support(const DstConvex *shape, const double dir[3], double out[3])
{
    double len = dcv_norm(dir);
    dst_convex_core_support(shape, dir, -1, out);
    if (shape->margin > 0.0 && len > DST_MIN_DENOM) dcv_axpy(out, out, shape->margin / len, dir);
}
