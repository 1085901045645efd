/* dst_convex_internal.h — helpers shared by dst_convex.c, dst_gjk.c, dst_epa.c,
 * dst_hull.c and their tests: small vector kernels and the core support mapping.
 * Not part of the public API. */
#ifndef DST_CONVEX_INTERNAL_H
#define DST_CONVEX_INTERNAL_H

#include <math.h>

#include "dst_convex.h"

static inline double dcv_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void dcv_sub(double out[3], const double a[3], const double b[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static inline void dcv_cross(double out[3], const double a[3], const double b[3])
{
    double x = a[1] * b[2] - a[2] * b[1];
    double y = a[2] * b[0] - a[0] * b[2];
    double z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

static inline void dcv_copy(double out[3], const double a[3])
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

static inline void dcv_scale(double out[3], const double a[3], double s)
{
    out[0] = a[0] * s;
    out[1] = a[1] * s;
    out[2] = a[2] * s;
}

/* out = a + s * b */
static inline void dcv_axpy(double out[3], const double a[3], double s, const double b[3])
{
    out[0] = a[0] + s * b[0];
    out[1] = a[1] + s * b[1];
    out[2] = a[2] + s * b[2];
}

/* max / min of finite numbers: a compare and a select, where fmax / fmin (with their NaN
 * rules) often become library calls in the hot loops */
static inline double dcv_max(double a, double b)
{
    return a > b ? a : b;
}

static inline double dcv_min(double a, double b)
{
    return a < b ? a : b;
}

static inline double dcv_norm(const double a[3])
{
    return sqrt(dcv_dot(a, a));
}

static inline double dcv_dist2(const double a[3], const double b[3])
{
    double d[3];
    dcv_sub(d, a, b);
    return dcv_dot(d, d);
}

/* Flag or-ed into a hint: also consult the start table when the hint may be far from the
 * answer (EPA); without it the table is used only when there is no hint (GJK). */
#define DST_HINT_USE_TABLE (1 << 30)

/* Support of the CORE of a shape (no margin) in world direction d (world point written
 * to out); hint is the feature id of a previous support of the same shape or -1, possibly
 * with DST_HINT_USE_TABLE.
 * Returns the feature id (vertex index, box corner bits, capsule end) or -1. */
int dst_convex_core_support(const DstConvex *shape, const double d[3], int hint, double out[3]);

/* Cube-map cell index of direction d at resolution res (DstConvex.dir_table). */
int cvx_dir_cell(const double d[3], int res);

/* World position of the core feature `id` as returned by dst_convex_core_support; returns
 * 0 and leaves out untouched when the kind has no addressable features or id is invalid. */
int dst_convex_core_vertex(const DstConvex *shape, int id, double out[3]);

/* Validation shared by the queries: both shapes, O(1) fields only (pose, sizes, pointers;
 * vertex arrays are checked once by dst_convex_validate and lazily through the finiteness
 * of every support point), message prefixed by "a." / "b.". */
DstStatus dst_convex_validate_pair(const DstConvex *a, const DstConvex *b, char *err,
                                   size_t err_size);

/* Closest point to the origin of the simplex s[0..n-1] (n = 1..4) by signed volumes
 * (docs/math/gjk_epa.md eq. (9)-(13)). Writes the barycentric weights lambda[i] (zero for
 * vertices not in the closest face), v = sum lambda_i w_i, and returns 1 when the origin is
 * inside the (full-dimensional) tetrahedron, else 0. */
int dst_gjk_closest_on_simplex(const DstSimplexVertex *s, int n, double lambda[4], double v[3]);

#endif /* DST_CONVEX_INTERNAL_H */
