/* check_dst_mesh_depth.c — tests of distance/dst_mesh_depth.c: the point-to-mesh distance
 * against brute force over all triangles (an independent point-triangle kernel); the vertex
 * depth depth_V (eq. 11.1) with known answers (two boxes overlapping face-on, a cube inside a
 * box, a peg in a hollow cup and a bar through a ring: clear, then pushed into the wall);
 * against brute force on random poses of non-convex and nested meshes (every vertex,
 * dst_bvh_contains, all triangles; witnesses too); its bound properties (-depth_V above the
 * lower end of dst_bvh_distance; below the EPA depth for convex meshes); its gradients in A's
 * position and rotation against central differences; its continuity (1-Lipschitz in a
 * translation) and bad input; several shells in one mesh (overlapping, one inside the other
 * body, volumes adding up to the hull's). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dst_capsule_testgen.h"
#include "dst_mesh_depth.h"
#include "dst_mesh_testgen.h"

#define DEPTH_RANDOM_POSES (TG_ASAN ? 40 : 300)
#define DEPTH_POINTS (TG_ASAN ? 200 : 2000)
/* BVH answer vs brute force, relative to the size of the scene (metres per metre) */
#define DEPTH_BRUTE_REL 1e-12
/* closed-form answers of boxes, metres */
#define DEPTH_EXACT_TOL 1e-12
/* witness identities (pa - pb = -depth n, |n| = 1), metres */
#define DEPTH_WITNESS_TOL 1e-12
/* central-difference step for the direction check, metres, and the allowed mismatch of the
 * finite difference against -n (truncation is zero where the depth is locally a distance to
 * one plane, rounding ~1e-16 / step) */
#define DEPTH_FD_STEP 1e-6
#define DEPTH_FD_TOL 1e-6
/* step of the continuity sweep, metres; allowance above the step for rounding */
#define DEPTH_SWEEP_STEP 2e-3
#define DEPTH_LIPSCHITZ_TOL 1e-12

static void identity(double R[9])
{
    memset(R, 0, 9 * sizeof(double));
    R[0] = R[4] = R[8] = 1.0;
}

static void random_pose(TgRng *r, double spread, double R[9], double x[3])
{
    double k[3];
    tg_unit(r, k);
    tg_rot(k, tg_uniform(r, -3.0, 3.0), R);
    for (int i = 0; i < 3; ++i) x[i] = tg_uniform(r, -spread, spread);
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* ------------------------------------------------------------ independent references */

/* squared distance from p to the segment [a, b] */
static double ref_seg2(const double p[3], const double a[3], const double b[3])
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], s = 0.0;
    if (dd > 0.0) s = (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) / dd;
    s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    double e[3] = {w[0] - s * d[0], w[1] - s * d[1], w[2] - s * d[2]};
    return e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
}

/* distance from p to the triangle t[9]: the plane distance when the projection falls inside
 * (barycentric coordinates from the 2x2 normal equations), else the nearest edge */
static double ref_point_tri(const double p[3], const double *t)
{
    const double *a = t, *b = t + 3, *c = t + 6;
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double w[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    double uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    double wu = w[0] * u[0] + w[1] * u[1] + w[2] * u[2], wv = w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
    double det = uu * vv - uv * uv;
    if (det > 1e-14 * uu * vv) {
        double s = (wu * vv - wv * uv) / det, r = (wv * uu - wu * uv) / det;
        if (s >= 0.0 && r >= 0.0 && s + r <= 1.0) {
            double e[3];
            for (int i = 0; i < 3; ++i) e[i] = w[i] - s * u[i] - r * v[i];
            return norm3(e);
        }
    }
    double d = ref_seg2(p, a, b);
    d = fmin(d, ref_seg2(p, b, c));
    d = fmin(d, ref_seg2(p, c, a));
    return sqrt(d);
}

static double ref_point_mesh(const DstBvh *m, const double p[3])
{
    double best = INFINITY;
    for (int t = 0; t < m->n_tris; ++t) best = fmin(best, ref_point_tri(p, m->tri[t]));
    return best;
}

/* x frame -> y frame: y = Ry^T (Rx x + xx - xy) */
static void map_point(const double Rx[9], const double xx[3], const double Ry[9], const double xy[3], const double v[3],
                      double o[3])
{
    double w[3];
    for (int i = 0; i < 3; ++i) w[i] = Rx[3 * i] * v[0] + Rx[3 * i + 1] * v[1] + Rx[3 * i + 2] * v[2] + xx[i] - xy[i];
    for (int i = 0; i < 3; ++i) o[i] = Ry[i] * w[0] + Ry[3 + i] * w[1] + Ry[6 + i] * w[2];
}

/* brute force of eq. (11.1): every vertex of each mesh, dst_bvh_contains, all triangles */
static double ref_depth_side(const DstBvh *x, const double Rx[9], const double xx[3], const DstBvh *y,
                             const double Ry[9], const double xy[3], int *any)
{
    double best = 0.0;
    for (int t = 0; t < x->n_tris; ++t) {
        for (int k = 0; k < 3; ++k) {
            double v[3];
            map_point(Rx, xx, Ry, xy, x->tri[t] + 3 * k, v);
            if (!dst_bvh_contains(y, v)) continue;
            *any = 1;
            best = fmax(best, ref_point_mesh(y, v));
        }
    }
    return best;
}

static double ref_depth(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b, const double Rb[9],
                        const double xb[3], int *any)
{
    *any = 0;
    double da = ref_depth_side(a, Ra, xa, b, Rb, xb, any);
    double db = ref_depth_side(b, Rb, xb, a, Ra, xa, any);
    return fmax(da, db);
}

/* the documented witness identities */
static void check_witnesses(const DstVertexDepth *d)
{
    if (d->status == DST_SEPARATED) {
        ck_assert(d->depth == 0.0);
        return;
    }
    ck_assert_int_eq(d->status, DST_PENETRATING);
    ck_assert(fabs(norm3(d->n) - 1.0) <= DEPTH_WITNESS_TOL);
    for (int i = 0; i < 3; ++i) ck_assert(fabs(d->pa[i] - d->pb[i] + d->depth * d->n[i]) <= DEPTH_WITNESS_TOL);
    ck_assert(d->tri >= 0);
    ck_assert(d->slack >= 0.0 && d->slack < DEPTH_WITNESS_TOL);
}

/* world point -> mesh frame of (R, x) */
static void to_local(const double R[9], const double x[3], const double p[3], double o[3])
{
    double w[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]};
    for (int i = 0; i < 3; ++i) o[i] = R[i] * w[0] + R[3 + i] * w[1] + R[6 + i] * w[2];
}

/* the witnesses are what eq. (11.4) says: the deepest vertex is a vertex of its mesh, inside the
 * other solid, its partner lies on the other surface, and their distance is that surface's
 * distance from the vertex (brute force) */
static void check_witness_geometry(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                   const double Rb[9], const double xb[3], const DstVertexDepth *d)
{
    if (d->status != DST_PENETRATING) return;
    const DstBvh *vm = d->from_b ? b : a, *sm = d->from_b ? a : b;
    const double *Rv = d->from_b ? Rb : Ra, *xv = d->from_b ? xb : xa, *Rs = d->from_b ? Ra : Rb,
                 *xs = d->from_b ? xa : xb;
    const double *vw = d->from_b ? d->pb : d->pa, *qw = d->from_b ? d->pa : d->pb;
    double vl[3], vs[3], qs[3];
    to_local(Rv, xv, vw, vl);
    double nearest = INFINITY;
    for (int t = 0; t < vm->n_tris; ++t) {
        for (int k = 0; k < 3; ++k) {
            const double *u = vm->tri[t] + 3 * k;
            double w[3] = {u[0] - vl[0], u[1] - vl[1], u[2] - vl[2]};
            nearest = fmin(nearest, norm3(w));
        }
    }
    ck_assert(nearest <= DEPTH_WITNESS_TOL);
    to_local(Rs, xs, vw, vs);
    to_local(Rs, xs, qw, qs);
    ck_assert(d->depth == 0.0 || dst_bvh_contains(sm, vs));
    ck_assert(ref_point_mesh(sm, qs) <= DEPTH_WITNESS_TOL);
    ck_assert(fabs(ref_point_mesh(sm, vs) - d->depth) <= DEPTH_WITNESS_TOL);
}

/* ------------------------------------------------------------ a hollow cup */

/* appends the quad (p0 p1 p2 p3, in order around it) as two triangles facing `out` */
static void add_quad(int *T, int *nt, const double *V, int p0, int p1, int p2, int p3, const double out[3])
{
    const double *a = V + 3 * p0, *b = V + 3 * p1, *c = V + 3 * p2;
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    int q[4] = {p0, p1, p2, p3};
    if (n[0] * out[0] + n[1] * out[1] + n[2] * out[2] < 0.0) q[1] = p3, q[3] = p1;
    T[3 * *nt] = q[0], T[3 * *nt + 1] = q[1], T[3 * *nt + 2] = q[2], ++*nt;
    T[3 * *nt] = q[0], T[3 * *nt + 1] = q[2], T[3 * *nt + 2] = q[3], ++*nt;
}

/* square cup: outside [-w, w]^2 x [0, h], cavity [-c, c]^2 x [f, h] open at the top (w > c,
 * h > f > 0); 28 outward triangles, closed, not convex */
static DstMesh cup_mesh(double w, double c, double f, double h)
{
    static const int sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    double V[48];
    for (int k = 0; k < 4; ++k) {
        double o[4][3] = {{w * sx[k], w * sy[k], 0.0}, {w * sx[k], w * sy[k], h}, {c * sx[k], c * sy[k], h},
                          {c * sx[k], c * sy[k], f}};
        for (int j = 0; j < 4; ++j) memcpy(V + 3 * (4 * j + k), o[j], sizeof o[j]);
    }
    /* rings: 0-3 outer bottom, 4-7 outer top, 8-11 inner top, 12-15 inner bottom */
    int T[84], nt = 0;
    const double down[3] = {0, 0, -1}, up[3] = {0, 0, 1};
    add_quad(T, &nt, V, 0, 1, 2, 3, down);
    add_quad(T, &nt, V, 12, 13, 14, 15, up);
    for (int k = 0; k < 4; ++k) {
        int k1 = (k + 1) % 4;
        double mid[3] = {0.5 * (sx[k] + sx[k1]), 0.5 * (sy[k] + sy[k1]), 0.0};
        double in[3] = {-mid[0], -mid[1], 0.0};
        add_quad(T, &nt, V, k, k1, 4 + k1, 4 + k, mid);         /* outer wall */
        add_quad(T, &nt, V, 4 + k, 4 + k1, 8 + k1, 8 + k, up);  /* rim */
        add_quad(T, &nt, V, 8 + k, 8 + k1, 12 + k1, 12 + k, in); /* inner wall faces the cavity */
    }
    DstMesh m;
    memset(&m, 0, sizeof m);
    ck_assert_int_eq(dst_mesh_create(V, 16, T, nt, &m, NULL, 0), DST_OK);
    return m;
}

static void make_bvh(const DstMesh *m, DstBvh *b)
{
    char err[160];
    ck_assert_msg(dst_bvh_create(m, b, err, sizeof err) == DST_OK, "%s", err);
}

/* ------------------------------------------------------------ tests */

START_TEST(test_point_distance_vs_brute_force)
{
    TgRng r = {61};
    DstMesh mt = mg_torus(0.5, 0.15, 20, 10), ml = mg_lblock(0.4), mc = cup_mesh(0.3, 0.25, 0.05, 0.4);
    DstBvh bv[3];
    make_bvh(&mt, &bv[0]);
    make_bvh(&ml, &bv[1]);
    make_bvh(&mc, &bv[2]);
    for (int n = 0; n < DEPTH_POINTS; ++n) {
        const DstBvh *m = &bv[n % 3];
        double p[3], q[3];
        for (int i = 0; i < 3; ++i) p[i] = tg_uniform(&r, -0.9, 0.9);
        if (n % 7 == 0) memcpy(p, m->tri[n % m->n_tris], sizeof p); /* on a vertex: distance 0 */
        int tri = -1;
        double d = dst_bvh_point_distance(m, p, q, &tri);
        double ref = ref_point_mesh(m, p);
        ck_assert_msg(fabs(d - ref) <= DEPTH_BRUTE_REL * (1.0 + ref), "point %d: bvh %.17g brute %.17g", n, d, ref);
        double w[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
        ck_assert(fabs(norm3(w) - d) <= DEPTH_WITNESS_TOL);
        /* the closest point lies on the named triangle */
        ck_assert(tri >= 0 && tri < m->n_tris);
        int leaf = -1;
        for (int t = 0; t < m->n_tris; ++t) {
            if (m->tri_id[t] == tri) leaf = t;
        }
        ck_assert(ref_point_tri(q, m->tri[leaf]) <= DEPTH_WITNESS_TOL);
    }
    double nanp[3] = {NAN, 0, 0}, p0[3] = {0, 0, 0};
    ck_assert(dst_bvh_point_distance(&bv[0], nanp, NULL, NULL) == -1.0);
    ck_assert(dst_bvh_point_distance(NULL, p0, NULL, NULL) == -1.0);
    ck_assert(dst_bvh_point_distance(&bv[0], NULL, NULL, NULL) == -1.0);
    ck_assert(dst_bvh_point_distance(&bv[0], p0, NULL, NULL) >= 0.0);
    for (int k = 0; k < 3; ++k) dst_bvh_destroy(&bv[k]);
    dst_mesh_destroy(&mt), dst_mesh_destroy(&ml), dst_mesh_destroy(&mc);
}
END_TEST

START_TEST(test_depth_boxes_known)
{
    /* unit cube A against a large box B whose face x = 0.8 cuts it: A's four vertices at x = 1
     * are 0.2 inside, none of B's vertices is inside A; depth_V = 0.2 = PD, n = -x (in the
     * frame of the pair), under a common random rigid motion of both */
    double lo_a[3] = {0, 0, 0}, hi_a[3] = {1, 1, 1}, lo_b[3] = {0.8, -1, -1}, hi_b[3] = {3, 2, 2};
    DstMesh ma = mg_box(lo_a, hi_a), mb = mg_box(lo_b, hi_b);
    DstBvh A, B;
    make_bvh(&ma, &A);
    make_bvh(&mb, &B);
    TgRng r = {62};
    for (int n = 0; n < 20; ++n) {
        double R[9], x[3];
        if (n == 0) identity(R), x[0] = x[1] = x[2] = 0.0;
        else random_pose(&r, 1.0, R, x);
        DstVertexDepth d;
        ck_assert_int_eq(dst_mesh_vertex_depth(&A, R, x, &B, R, x, &d), DST_PENETRATING);
        check_witnesses(&d);
        ck_assert(fabs(d.depth - 0.2) <= DEPTH_EXACT_TOL);
        ck_assert_int_eq(d.from_b, 0);
        /* pa is a vertex of A with x = 1, pb its foot on x = 0.8; n = R (-1, 0, 0) */
        double pa_l[3], pb_l[3];
        for (int i = 0; i < 3; ++i) {
            pa_l[i] = R[i] * (d.pa[0] - x[0]) + R[3 + i] * (d.pa[1] - x[1]) + R[6 + i] * (d.pa[2] - x[2]);
            pb_l[i] = R[i] * (d.pb[0] - x[0]) + R[3 + i] * (d.pb[1] - x[1]) + R[6 + i] * (d.pb[2] - x[2]);
        }
        ck_assert(fabs(pa_l[0] - 1.0) <= DEPTH_EXACT_TOL && fabs(pb_l[0] - 0.8) <= DEPTH_EXACT_TOL);
        ck_assert(fabs(pa_l[1] - pb_l[1]) <= DEPTH_EXACT_TOL && fabs(pa_l[2] - pb_l[2]) <= DEPTH_EXACT_TOL);
        ck_assert(fabs(fabs(pa_l[1] - 0.5) - 0.5) <= DEPTH_EXACT_TOL); /* a corner, y in {0, 1} */
        for (int i = 0; i < 3; ++i) ck_assert(fabs(d.n[i] + R[3 * i]) <= DEPTH_WITNESS_TOL);
        ck_assert_int_gt(d.vertices_inside, 0);
        /* swapped roles: B's solid now holds the vertex of the second argument, n flips */
        DstVertexDepth e;
        ck_assert_int_eq(dst_mesh_vertex_depth(&B, R, x, &A, R, x, &e), DST_PENETRATING);
        check_witnesses(&e);
        ck_assert(fabs(e.depth - 0.2) <= DEPTH_EXACT_TOL);
        ck_assert_int_eq(e.from_b, 1);
        for (int i = 0; i < 3; ++i) ck_assert(fabs(e.n[i] - R[3 * i]) <= DEPTH_WITNESS_TOL);
        /* exact signed distance of the convex pair (EPA) is -0.2; the vertex depth matches */
        DstMeshDistance md;
        dst_bvh_distance(&A, R, x, &B, R, x, NULL, &md);
        ck_assert(fabs(md.distance + d.depth) <= 1e-9);
    }
    /* apart by 0.1 along x: no vertex inside */
    double R[9], xa[3] = {0, 0, 0}, xb[3] = {0.3, 0, 0};
    identity(R);
    DstVertexDepth d;
    ck_assert_int_eq(dst_mesh_vertex_depth(&A, R, xa, &B, R, xb, &d), DST_SEPARATED);
    check_witnesses(&d);
    ck_assert_int_eq(d.vertices_inside, 0);
    dst_bvh_destroy(&A), dst_bvh_destroy(&B);
    dst_mesh_destroy(&ma), dst_mesh_destroy(&mb);
}
END_TEST

START_TEST(test_depth_cube_inside_box)
{
    /* small cube wholly inside [-1, 1]^3: depth_V = max over its vertices of the distance to
     * the nearest face, min_i (1 - |v_i|) (closed form) */
    double lo_b[3] = {-1, -1, -1}, hi_b[3] = {1, 1, 1};
    DstMesh mb = mg_box(lo_b, hi_b);
    DstBvh B;
    make_bvh(&mb, &B);
    TgRng r = {63};
    double I[9], o[3] = {0, 0, 0};
    identity(I);
    for (int n = 0; n < 30; ++n) {
        double lo[3], hi[3];
        for (int i = 0; i < 3; ++i) {
            lo[i] = tg_uniform(&r, -0.9, 0.5);
            hi[i] = lo[i] + tg_uniform(&r, 0.05, 0.9 - lo[i]);
        }
        DstMesh ma = mg_box(lo, hi);
        DstBvh A;
        make_bvh(&ma, &A);
        double want = 0.0;
        for (int k = 0; k < 8; ++k) {
            double v[3] = {(k & 1) ? hi[0] : lo[0], (k & 2) ? hi[1] : lo[1], (k & 4) ? hi[2] : lo[2]};
            double m = INFINITY;
            for (int i = 0; i < 3; ++i) m = fmin(m, 1.0 - fabs(v[i]));
            want = fmax(want, m);
        }
        DstVertexDepth d;
        ck_assert_int_eq(dst_mesh_vertex_depth(&A, I, o, &B, I, o, &d), DST_PENETRATING);
        check_witnesses(&d);
        ck_assert_msg(fabs(d.depth - want) <= DEPTH_EXACT_TOL, "case %d: %.17g want %.17g", n, d.depth, want);
        ck_assert_int_eq(d.from_b, 0);
        /* lower-bound property against the exact depth of the convex pair (EPA) */
        DstMeshDistance md;
        dst_bvh_distance(&A, I, o, &B, I, o, NULL, &md);
        ck_assert(-d.depth >= md.lower - d.slack);
        dst_bvh_destroy(&A);
        dst_mesh_destroy(&ma);
    }
    /* a cube far from the faces: its root sphere keeps clear of B's surface, so one ray test
     * classifies all its vertices */
    double lo[3] = {0.1, 0.0, -0.1}, hi[3] = {0.3, 0.2, 0.1};
    DstMesh ma = mg_box(lo, hi);
    DstBvh A;
    make_bvh(&ma, &A);
    DstVertexDepth d;
    ck_assert_int_eq(dst_mesh_vertex_depth(&A, I, o, &B, I, o, &d), DST_PENETRATING);
    ck_assert(fabs(d.depth - 0.9) <= DEPTH_EXACT_TOL); /* corner (0.1, 0, +-0.1): min(0.9, 1, 0.9) */
    ck_assert_int_ge(d.nodes_classified, 1);
    ck_assert_int_eq(d.vertices_tested + d.vertices_sided, 1);
    dst_bvh_destroy(&A);
    dst_mesh_destroy(&ma);
    dst_bvh_destroy(&B);
    dst_mesh_destroy(&mb);
}
END_TEST

START_TEST(test_depth_peg_in_cup)
{
    /* cup: outside [-1, 1]^2 x [0, 2], cavity [-0.8, 0.8]^2 x [0.2, 2]; peg [-0.2, 0.2]^2 x
     * [0.5, 2.5] in the cavity without touching, then shifted 0.65 along x so that its face
     * x = 0.85 is 0.05 into the wall x in [0.8, 1] */
    DstMesh mc = cup_mesh(1.0, 0.8, 0.2, 2.0);
    double lo[3] = {-0.2, -0.2, 0.5}, hi[3] = {0.2, 0.2, 2.5};
    DstMesh mp = mg_box(lo, hi);
    DstBvh C, P;
    make_bvh(&mc, &C);
    make_bvh(&mp, &P);
    ck_assert_int_eq(C.closed, 1);
    ck_assert_int_eq(C.convex, 0);
    double I[9], o[3] = {0, 0, 0}, x[3] = {0, 0, 0};
    identity(I);
    DstVertexDepth d;
    ck_assert_int_eq(dst_mesh_vertex_depth(&P, I, x, &C, I, o, &d), DST_SEPARATED);
    ck_assert(d.depth == 0.0);
    /* the hulls' bracket is far deeper: the peg is inside the cup's hull */
    DstMeshDistance md;
    dst_bvh_distance(&P, I, x, &C, I, o, NULL, &md);
    ck_assert(md.distance > 0.0);
    x[0] = 0.65;
    ck_assert_int_eq(dst_mesh_vertex_depth(&P, I, x, &C, I, o, &d), DST_PENETRATING);
    check_witnesses(&d);
    ck_assert(fabs(d.depth - 0.05) <= DEPTH_EXACT_TOL);
    ck_assert_int_eq(d.from_b, 0);
    ck_assert(fabs(d.n[0] + 1.0) <= DEPTH_WITNESS_TOL); /* back out of the wall, into the cavity */
    ck_assert(fabs(d.pa[0] - 0.85) <= DEPTH_EXACT_TOL && fabs(d.pb[0] - 0.8) <= DEPTH_EXACT_TOL);
    dst_bvh_distance(&P, I, x, &C, I, o, NULL, &md);
    ck_assert_int_eq(md.status, DST_PENETRATING);
    ck_assert(md.upper >= -d.depth && md.lower <= -d.depth + d.slack);
    /* moving A along n by less than the depth reduces it by exactly that much */
    x[0] -= 0.02;
    DstVertexDepth e;
    dst_mesh_vertex_depth(&P, I, x, &C, I, o, &e);
    ck_assert(fabs(e.depth - 0.03) <= DEPTH_EXACT_TOL);
    /* the cup as the first argument: the vertex is B's, the direction flips */
    x[0] += 0.02;
    dst_mesh_vertex_depth(&C, I, o, &P, I, x, &e);
    check_witnesses(&e);
    ck_assert(fabs(e.depth - 0.05) <= DEPTH_EXACT_TOL);
    ck_assert_int_eq(e.from_b, 1);
    ck_assert(fabs(e.n[0] - 1.0) <= DEPTH_WITNESS_TOL);
    dst_bvh_destroy(&C), dst_bvh_destroy(&P);
    dst_mesh_destroy(&mc), dst_mesh_destroy(&mp);
}
END_TEST

START_TEST(test_depth_hand_in_ring)
{
    /* a bar (the hand) [-0.1, 0.1]^2 x [-0.5, 0.5] through the hole of a ring (torus R = 0.5,
     * tube r = 0.1, 32 x 16 facets: its innermost vertex is (0.4, 0, 0)): clear in the middle;
     * moved 0.35 along x, its face x = 0.45 passes 0.05 beyond that vertex of the ring, which
     * is then the deepest (no vertex of the bar is inside the tube) */
    DstMesh mr = mg_torus(0.5, 0.1, 32, 16);
    double lo[3] = {-0.1, -0.1, -0.5}, hi[3] = {0.1, 0.1, 0.5};
    DstMesh mh = mg_box(lo, hi);
    DstBvh Rg, H;
    make_bvh(&mr, &Rg);
    make_bvh(&mh, &H);
    double I[9], o[3] = {0, 0, 0}, x[3] = {0, 0, 0};
    identity(I);
    DstVertexDepth d;
    ck_assert_int_eq(dst_mesh_vertex_depth(&H, I, x, &Rg, I, o, &d), DST_SEPARATED);
    DstMeshDistance md;
    dst_bvh_distance(&H, I, x, &Rg, I, o, NULL, &md);
    ck_assert_int_eq(md.status, DST_SEPARATED);
    x[0] = 0.35;
    ck_assert_int_eq(dst_mesh_vertex_depth(&H, I, x, &Rg, I, o, &d), DST_PENETRATING);
    check_witnesses(&d);
    ck_assert(fabs(d.depth - 0.05) <= DEPTH_EXACT_TOL);
    ck_assert_int_eq(d.from_b, 1);
    ck_assert(fabs(d.pb[0] - 0.4) <= DEPTH_EXACT_TOL && fabs(d.pa[0] - 0.45) <= DEPTH_EXACT_TOL);
    ck_assert(fabs(d.n[0] + 1.0) <= DEPTH_WITNESS_TOL); /* back towards the middle of the hole */
    /* the certified bracket of dst_bvh_distance holds the new upper end */
    dst_bvh_distance(&H, I, x, &Rg, I, o, NULL, &md);
    ck_assert_int_eq(md.status, DST_PENETRATING);
    ck_assert(md.lower <= -d.depth + d.slack && -d.depth <= md.upper);
    dst_bvh_destroy(&Rg), dst_bvh_destroy(&H);
    dst_mesh_destroy(&mr), dst_mesh_destroy(&mh);
}
END_TEST

/* random poses of non-convex pairs: brute force, bracket of dst_bvh_distance, direction */
START_TEST(test_depth_random_vs_brute_force)
{
    TgRng r = {64};
    DstMesh mt = mg_torus(0.5, 0.15, 16, 8), ml = mg_lblock(0.35), mc = cup_mesh(0.35, 0.25, 0.08, 0.5);
    DstBvh T, L, C;
    make_bvh(&mt, &T);
    make_bvh(&ml, &L);
    make_bvh(&mc, &C);
    const DstBvh *pairs[4][2] = {{&T, &L}, {&L, &T}, {&T, &T}, {&C, &L}};
    int inside = 0, outside = 0, fd_checked = 0, from_b = 0;
    for (int n = 0; n < DEPTH_RANDOM_POSES; ++n) {
        const DstBvh *a = pairs[n % 4][0], *b = pairs[n % 4][1];
        double Ra[9], xa[3], Rb[9], xb[3];
        random_pose(&r, 0.3, Ra, xa);
        random_pose(&r, 0.3, Rb, xb);
        DstVertexDepth d;
        DstStatus st = dst_mesh_vertex_depth(a, Ra, xa, b, Rb, xb, &d);
        int any;
        double ref = ref_depth(a, Ra, xa, b, Rb, xb, &any);
        ck_assert_int_eq(st, any ? DST_PENETRATING : DST_SEPARATED);
        ck_assert_msg(fabs(d.depth - ref) <= DEPTH_BRUTE_REL * (1.0 + ref), "pose %d: %.17g brute %.17g", n, d.depth,
                      ref);
        check_witnesses(&d);
        check_witness_geometry(a, Ra, xa, b, Rb, xb, &d);
        if (any) ++inside;
        else ++outside;
        from_b += d.status == DST_PENETRATING && d.from_b;
        /* a vertex inside: the solids overlap, and -depth_V bounds the signed distance from
         * above, so it is never below the certified lower end of dst_bvh_distance */
        DstMeshDistance md;
        dst_bvh_distance(a, Ra, xa, b, Rb, xb, NULL, &md);
        if (d.depth > 0.0) {
            ck_assert_int_eq(md.status, DST_PENETRATING);
            ck_assert_msg(-d.depth >= md.lower - d.slack, "pose %d: -depth %.17g below lower %.17g", n, -d.depth,
                          md.lower);
        }
        /* direction: central differences of depth_V in A's position equal -n where the same
         * vertex and triangle stay the witnesses on all sides */
        if (d.depth > 10.0 * DEPTH_FD_STEP) {
            double g[3];
            int same = 1;
            for (int i = 0; i < 3 && same; ++i) {
                double xp[3], xm[3];
                memcpy(xp, xa, sizeof xp), memcpy(xm, xa, sizeof xm);
                xp[i] += DEPTH_FD_STEP, xm[i] -= DEPTH_FD_STEP;
                DstVertexDepth dp, dm;
                dst_mesh_vertex_depth(a, Ra, xp, b, Rb, xb, &dp);
                dst_mesh_vertex_depth(a, Ra, xm, b, Rb, xb, &dm);
                same = dp.tri == d.tri && dm.tri == d.tri && dp.from_b == d.from_b && dm.from_b == d.from_b;
                g[i] = (dp.depth - dm.depth) / (2.0 * DEPTH_FD_STEP);
            }
            /* and in a small rotation w of A about its origin, R_a -> Rot(w) R_a:
             * d depth / d w = -(pa - xa) x n (eq. 11.4) */
            double gr[3];
            for (int i = 0; i < 3 && same; ++i) {
                double e[3] = {0, 0, 0}, Q[9], Rp[9], Rm[9];
                e[i] = 1.0;
                tg_rot(e, DEPTH_FD_STEP, Q);
                tg_matmul(Q, Ra, Rp);
                tg_rot(e, -DEPTH_FD_STEP, Q);
                tg_matmul(Q, Ra, Rm);
                DstVertexDepth dp, dm;
                dst_mesh_vertex_depth(a, Rp, xa, b, Rb, xb, &dp);
                dst_mesh_vertex_depth(a, Rm, xa, b, Rb, xb, &dm);
                same = dp.tri == d.tri && dm.tri == d.tri && dp.from_b == d.from_b && dm.from_b == d.from_b;
                gr[i] = (dp.depth - dm.depth) / (2.0 * DEPTH_FD_STEP);
            }
            if (same) {
                ++fd_checked;
                double r[3] = {d.pa[0] - xa[0], d.pa[1] - xa[1], d.pa[2] - xa[2]};
                double want[3] = {-(r[1] * d.n[2] - r[2] * d.n[1]), -(r[2] * d.n[0] - r[0] * d.n[2]),
                                  -(r[0] * d.n[1] - r[1] * d.n[0])};
                for (int i = 0; i < 3; ++i) {
                    ck_assert_msg(fabs(g[i] + d.n[i]) <= DEPTH_FD_TOL, "pose %d: fd %g n %g", n, g[i], d.n[i]);
                    ck_assert_msg(fabs(gr[i] - want[i]) <= DEPTH_FD_TOL * (1.0 + norm3(r)), "pose %d: rot fd %g want %g", n,
                                  gr[i], want[i]);
                }
            }
        }
    }
    ck_assert_int_gt(inside, DEPTH_RANDOM_POSES / 5);
    ck_assert_int_gt(outside, DEPTH_RANDOM_POSES / 20);
    ck_assert_int_gt(fd_checked, DEPTH_RANDOM_POSES / 10);
    ck_assert_int_gt(from_b, DEPTH_RANDOM_POSES / 20);
    dst_bvh_destroy(&T), dst_bvh_destroy(&L), dst_bvh_destroy(&C);
    dst_mesh_destroy(&mt), dst_mesh_destroy(&ml), dst_mesh_destroy(&mc);
}
END_TEST

START_TEST(test_depth_nested_vs_brute_force)
{
    /* a fine torus partly or wholly inside a larger L-block or sphere: the subtree searches of
     * wholly inside nodes (eq. 11.11) against brute force */
    TgRng r = {66};
    double c0[3] = {0, 0, 0};
    DstMesh mt = mg_torus(0.15, 0.05, 24, 12), ml = mg_lblock(0.6), ms = mg_sphere(0.6, c0, 12, 16);
    DstBvh T, L, S;
    make_bvh(&mt, &T), make_bvh(&ml, &L), make_bvh(&ms, &S);
    const DstBvh *outer[2] = {&L, &S};
    const double centre[2][3] = {{0.3, 0.3, 0.3}, {0, 0, 0}};
    int whole = 0;
    for (int n = 0; n < DEPTH_RANDOM_POSES / 2; ++n) {
        const DstBvh *o = outer[n % 2];
        double Ra[9], xa[3], Ro[9], xo[3] = {0, 0, 0};
        random_pose(&r, 0.35, Ra, xa);
        for (int i = 0; i < 3; ++i) xa[i] += centre[n % 2][i];
        identity(Ro);
        DstVertexDepth d;
        DstStatus st = dst_mesh_vertex_depth(&T, Ra, xa, o, Ro, xo, &d);
        int any;
        double ref = ref_depth(&T, Ra, xa, o, Ro, xo, &any);
        ck_assert_int_eq(st, any ? DST_PENETRATING : DST_SEPARATED);
        ck_assert_msg(fabs(d.depth - ref) <= DEPTH_BRUTE_REL * (1.0 + ref), "pose %d: %.17g brute %.17g", n, d.depth,
                      ref);
        check_witnesses(&d);
        check_witness_geometry(&T, Ra, xa, o, Ro, xo, &d);
        whole += d.nodes_classified > 0 && d.depth > 0.0;
    }
    ck_assert_int_gt(whole, DEPTH_RANDOM_POSES / 10);
    dst_bvh_destroy(&T), dst_bvh_destroy(&L), dst_bvh_destroy(&S);
    dst_mesh_destroy(&mt), dst_mesh_destroy(&ml), dst_mesh_destroy(&ms);
}
END_TEST

START_TEST(test_depth_convex_below_epa)
{
    /* convex meshes: depth_V <= PD (exact through EPA), eq. (11.3) */
    TgRng r = {65};
    double c0[3] = {0, 0, 0}, lo[3] = {-0.3, -0.2, -0.1}, hi[3] = {0.3, 0.2, 0.1};
    DstMesh ms = mg_sphere(0.3, c0, 8, 12), mb = mg_box(lo, hi);
    DstBvh S, B;
    make_bvh(&ms, &S);
    make_bvh(&mb, &B);
    int deep = 0;
    for (int n = 0; n < DEPTH_RANDOM_POSES; ++n) {
        const DstBvh *a = n % 2 ? &S : &B, *b = &S;
        double Ra[9], xa[3], Rb[9], xb[3];
        random_pose(&r, 0.25, Ra, xa);
        random_pose(&r, 0.25, Rb, xb);
        DstVertexDepth d;
        dst_mesh_vertex_depth(a, Ra, xa, b, Rb, xb, &d);
        DstMeshDistance md;
        dst_bvh_distance(a, Ra, xa, b, Rb, xb, NULL, &md);
        ck_assert_int_eq(md.exact, 1);
        if (d.depth > 0.0) {
            ck_assert_msg(-d.depth >= md.lower - d.slack, "pose %d: depth %.17g EPA %.17g", n, d.depth, -md.lower);
            ++deep;
        }
    }
    ck_assert_int_gt(deep, DEPTH_RANDOM_POSES / 4);
    dst_bvh_destroy(&S), dst_bvh_destroy(&B);
    dst_mesh_destroy(&ms), dst_mesh_destroy(&mb);
}
END_TEST

START_TEST(test_depth_continuity)
{
    /* translate an L-block through a torus and a box through the cup wall in small steps:
     * depth_V changes by at most the step (1-Lipschitz, eq. 11.5), starts and ends at 0 */
    DstMesh mt = mg_torus(0.5, 0.15, 24, 12), ml = mg_lblock(0.3), mc = cup_mesh(0.35, 0.25, 0.08, 0.5);
    double lo[3] = {-0.05, -0.05, 0.1}, hi[3] = {0.05, 0.05, 0.6};
    DstMesh mp = mg_box(lo, hi);
    DstBvh T, L, C, P;
    make_bvh(&mt, &T), make_bvh(&ml, &L), make_bvh(&mc, &C), make_bvh(&mp, &P);
    const DstBvh *moving[2] = {&L, &P}, *fixed[2] = {&T, &C};
    double k[3] = {0.3, -0.5, 0.8}, Rl[9], I[9], o[3] = {0, 0, 0};
    double kn = norm3(k);
    for (int i = 0; i < 3; ++i) k[i] /= kn;
    tg_rot(k, 0.7, Rl);
    identity(I);
    const double start[2][3] = {{-1.2, 0.35, -0.1}, {-0.6, 0.02, 0.0}}, dir[2][3] = {{1, 0, 0}, {1, 0, 0}};
    const double *Rm[2] = {Rl, I};
    for (int c = 0; c < 2; ++c) {
        double prev = -1.0, peak = 0.0;
        int steps = (int)(2.4 / DEPTH_SWEEP_STEP) / (c + 1);
        for (int s = 0; s <= steps; ++s) {
            double x[3];
            for (int i = 0; i < 3; ++i) x[i] = start[c][i] + s * DEPTH_SWEEP_STEP * dir[c][i];
            DstVertexDepth d;
            ck_assert(dst_mesh_vertex_depth(moving[c], Rm[c], x, fixed[c], I, o, &d) != DST_INVALID_INPUT);
            if (s == 0 || s == steps) ck_assert(d.depth == 0.0);
            if (prev >= 0.0) {
                ck_assert_msg(fabs(d.depth - prev) <= DEPTH_SWEEP_STEP + DEPTH_LIPSCHITZ_TOL,
                              "case %d step %d: %.17g after %.17g", c, s, d.depth, prev);
            }
            prev = d.depth;
            peak = fmax(peak, d.depth);
        }
        ck_assert(peak > 20.0 * DEPTH_SWEEP_STEP);
    }
    dst_bvh_destroy(&T), dst_bvh_destroy(&L), dst_bvh_destroy(&C), dst_bvh_destroy(&P);
    dst_mesh_destroy(&mt), dst_mesh_destroy(&ml), dst_mesh_destroy(&mc), dst_mesh_destroy(&mp);
}
END_TEST

/* the disjoint union of meshes a and b (b's vertices after a's, no vertex shared) */
static DstMesh union_mesh(const DstMesh *a, const DstMesh *b)
{
    int nv = a->n_vertices + b->n_vertices, nt = a->n_triangles + b->n_triangles;
    double *V = malloc((size_t)nv * 3 * sizeof *V);
    int *T = malloc((size_t)nt * 3 * sizeof *T);
    DstMesh m;
    ck_assert_ptr_nonnull(V);
    ck_assert_ptr_nonnull(T);
    memcpy(V, a->vertices, (size_t)a->n_vertices * 3 * sizeof *V);
    memcpy(V + 3 * a->n_vertices, b->vertices, (size_t)b->n_vertices * 3 * sizeof *V);
    for (int t = 0; t < a->n_triangles; ++t) {
        for (int k = 0; k < 3; ++k) T[3 * t + k] = a->triangles[t][k];
    }
    for (int t = 0; t < b->n_triangles; ++t) {
        for (int k = 0; k < 3; ++k) T[3 * (a->n_triangles + t) + k] = b->triangles[t][k] + a->n_vertices;
    }
    ck_assert_int_eq(dst_mesh_create(V, nv, T, nt, &m, NULL, 0), DST_OK);
    free(V), free(T);
    return m;
}

/* Several shells in one mesh (a link made of several collision elements): two overlapping
 * boxes. Inside by winding number (eq. 11.13): a point in both boxes is inside (parity would
 * say outside), one in a single box too; a small cube inside the first box whose nearest
 * face is the second box's (interior) face is found inside, at the brute-force depth (the
 * closest-face rule alone, eq. 11.12, would call it outside). */
START_TEST(test_depth_overlapping_shells)
{
    const double lo1[3] = {0, 0, 0}, hi1[3] = {2, 1, 1}, lo2[3] = {1.5, -0.5, 0}, hi2[3] = {2.5, 1.5, 1};
    DstMesh b1 = mg_box(lo1, hi1), b2 = mg_box(lo2, hi2), u = union_mesh(&b1, &b2);
    DstBvh bu, bc;
    ck_assert_int_eq(dst_bvh_create(&u, &bu, NULL, 0), DST_OK);
    ck_assert_int_eq(bu.n_components, 2);
    ck_assert(bu.closed);
    ck_assert(!bu.convex);
    const double both[3] = {1.8, 0.5, 0.5}, one[3] = {0.5, 0.5, 0.5}, two[3] = {2.2, -0.3, 0.5};
    const double near_inner[3] = {1.45, 0.5, 0.5}, out1[3] = {3, 0.5, 0.5}, out2[3] = {1.0, 1.2, 0.5};
    ck_assert_int_eq(dst_bvh_contains(&bu, both), 1);
    ck_assert_int_eq(dst_bvh_contains(&bu, one), 1);
    ck_assert_int_eq(dst_bvh_contains(&bu, two), 1);
    ck_assert_int_eq(dst_bvh_contains(&bu, near_inner), 1);
    ck_assert_int_eq(dst_bvh_contains(&bu, out1), 0);
    ck_assert_int_eq(dst_bvh_contains(&bu, out2), 0);
    /* a cube of half side 0.01 about (1.45, 0.2, 0.8), off the faces' diagonals: every
     * vertex inside box 1 only, nearest the x = 1.5 face of box 2 (0.04 to 0.06 away:
     * depth_V 0.06) */
    const double clo[3] = {1.44, 0.19, 0.79}, chi[3] = {1.46, 0.21, 0.81};
    DstMesh c = mg_box(clo, chi);
    ck_assert_int_eq(dst_bvh_create(&c, &bc, NULL, 0), DST_OK);
    double I[9], z[3] = {0, 0, 0};
    identity(I);
    for (int order = 0; order < 2; ++order) {
        DstVertexDepth d;
        int any;
        const DstBvh *a = order ? &bu : &bc, *b = order ? &bc : &bu;
        DstStatus st = dst_mesh_vertex_depth(a, I, z, b, I, z, &d);
        double ref = ref_depth(a, I, z, b, I, z, &any);
        ck_assert(any);
        ck_assert_int_eq(st, DST_PENETRATING);
        ck_assert_msg(fabs(d.depth - ref) <= DEPTH_EXACT_TOL, "order %d: depth %.17g, brute force %.17g",
                      order, d.depth, ref);
        ck_assert_msg(fabs(d.depth - 0.06) <= DEPTH_EXACT_TOL, "depth %.17g", d.depth);
        check_witnesses(&d);
    }
    dst_bvh_destroy(&bc);
    dst_mesh_destroy(&c);
    dst_bvh_destroy(&bu);
    dst_mesh_destroy(&u);
    dst_mesh_destroy(&b1);
    dst_mesh_destroy(&b2);
}
END_TEST

/* Two shells whose union is not convex but whose volumes add up to their hull's: an L of
 * boxes [0,2]x[0,1]x[0,1] and [0,2/3]x[0,2]x[0,1] (10/3 m^3 both). The convex flag stays 0,
 * so no exact EPA depth is claimed for it. */
START_TEST(test_shells_never_convex)
{
    const double lo1[3] = {0, 0, 0}, hi1[3] = {2, 1, 1}, lo2[3] = {0, 0, 0}, hi2[3] = {2.0 / 3.0, 2, 1};
    DstMesh b1 = mg_box(lo1, hi1), b2 = mg_box(lo2, hi2), u = union_mesh(&b1, &b2);
    DstBvh bu;
    DstMeshReport rep;
    ck_assert_int_eq(dst_mesh_validate(&u, &rep), DST_OK);
    ck_assert(fabs(rep.volume - 10.0 / 3.0) <= DEPTH_EXACT_TOL);
    ck_assert_int_eq(dst_bvh_create(&u, &bu, NULL, 0), DST_OK);
    ck_assert(bu.closed && bu.has_hull && !bu.hull_is_box);
    ck_assert_int_eq(bu.n_components, 2);
    ck_assert(!bu.convex);
    dst_bvh_destroy(&bu);
    dst_mesh_destroy(&u);
    dst_mesh_destroy(&b1);
    dst_mesh_destroy(&b2);
}
END_TEST

/* Containment with apart surfaces, one shell of A inside B and the other far away: the signed
 * distance is <= 0 (overlap 2) whichever shell comes first in A, and in either order of the
 * pair (dst_bvh_distance checks one vertex of every shell) */
START_TEST(test_shell_inside_other)
{
    const double lo1[3] = {0, 0, 0}, hi1[3] = {1, 1, 1}, lo2[3] = {5, 0, 0}, hi2[3] = {6, 1, 1};
    const double blo[3] = {4, -1, -1}, bhi[3] = {7, 2, 2};
    DstMesh b1 = mg_box(lo1, hi1), b2 = mg_box(lo2, hi2), big = mg_box(blo, bhi);
    DstBvh bb;
    double I[9], z[3] = {0, 0, 0};
    identity(I);
    ck_assert_int_eq(dst_bvh_create(&big, &bb, NULL, 0), DST_OK);
    for (int first = 0; first < 2; ++first) {
        DstMesh u = first ? union_mesh(&b2, &b1) : union_mesh(&b1, &b2);
        DstBvh bu;
        ck_assert_int_eq(dst_bvh_create(&u, &bu, NULL, 0), DST_OK);
        ck_assert_int_eq(bu.n_components, 2);
        for (int order = 0; order < 2; ++order) {
            DstMeshDistance md;
            if (order) dst_bvh_distance(&bb, I, z, &bu, I, z, NULL, &md);
            else dst_bvh_distance(&bu, I, z, &bb, I, z, NULL, &md);
            ck_assert_msg(md.overlap == 2, "first %d order %d: overlap %d, distance %g", first, order,
                          md.overlap, md.distance);
            ck_assert(md.upper <= 0.0 && md.lower <= md.upper);
            /* the inner shell's surface is 1 m from the outer one: no translation under 1 m separates */
            ck_assert(md.upper <= -1.0 + DEPTH_EXACT_TOL);
        }
        dst_bvh_destroy(&bu);
        dst_mesh_destroy(&u);
    }
    dst_bvh_destroy(&bb);
    dst_mesh_destroy(&big);
    dst_mesh_destroy(&b1);
    dst_mesh_destroy(&b2);
}
END_TEST

/* brute force of eq. (11.1) for a mesh U made of the shells S[0..n-1]: inside U when inside
 * any shell (each by its own parity, independent of the winding number of eq. 11.13), the
 * distance to all of U's triangles */
static double ref_depth_shells(const DstBvh *u, const DstBvh *const *S, int n, const double Ru[9], const double xu[3],
                               const DstBvh *o, const double Ro[9], const double xo[3], int *any)
{
    double best = 0.0;
    *any = 0;
    for (int t = 0; t < o->n_tris; ++t) {
        for (int k = 0; k < 3; ++k) {
            double v[3];
            int in = 0;
            map_point(Ro, xo, Ru, xu, o->tri[t] + 3 * k, v);
            for (int i = 0; i < n && !in; ++i) in = dst_bvh_contains(S[i], v);
            if (!in) continue;
            *any = 1;
            best = fmax(best, ref_point_mesh(u, v));
        }
    }
    for (int t = 0; t < u->n_tris; ++t) {
        for (int k = 0; k < 3; ++k) {
            double v[3];
            map_point(Ru, xu, Ro, xo, u->tri[t] + 3 * k, v);
            if (!dst_bvh_contains(o, v)) continue;
            *any = 1;
            best = fmax(best, ref_point_mesh(o, v));
        }
    }
    return best;
}

/* Three overlapping shells in one mesh (two faceted spheres and a box) against a torus at
 * random poses: inside-U by winding number equals inside-any-shell at random points (some in
 * two or three shells), and depth_V equals the brute force over the shells */
START_TEST(test_shells_random_vs_brute_force)
{
    TgRng r = {77};
    const double c1[3] = {0, 0, 0}, c2[3] = {0.3, 0, 0}, lo[3] = {-0.2, -0.1, -0.1}, hi[3] = {0.5, 0.1, 0.45};
    DstMesh s1 = mg_sphere(0.3, c1, 8, 12), s2 = mg_sphere(0.25, c2, 8, 12), s3 = mg_box(lo, hi);
    DstMesh u12 = union_mesh(&s1, &s2), u = union_mesh(&u12, &s3), mt = mg_torus(0.5, 0.15, 16, 8);
    DstBvh B1, B2, B3, U, T;
    make_bvh(&s1, &B1), make_bvh(&s2, &B2), make_bvh(&s3, &B3), make_bvh(&u, &U), make_bvh(&mt, &T);
    const DstBvh *S[3] = {&B1, &B2, &B3};
    ck_assert_int_eq(U.n_components, 3);
    int multi = 0, inside = 0;
    for (int n = 0; n < DEPTH_POINTS; ++n) {
        double p[3];
        int k = 0;
        const double plo[3] = {-0.35, -0.35, -0.35}, phi[3] = {0.6, 0.35, 0.5};
        for (int i = 0; i < 3; ++i) p[i] = tg_uniform(&r, plo[i], phi[i]);
        for (int i = 0; i < 3; ++i) k += dst_bvh_contains(S[i], p);
        ck_assert_int_eq(dst_bvh_contains(&U, p), k > 0);
        multi += k >= 2;
        inside += k > 0;
    }
    ck_assert_int_gt(multi, DEPTH_POINTS / 50);
    int pen = 0;
    for (int n = 0; n < DEPTH_RANDOM_POSES; ++n) {
        double Ru[9], xu[3], Rt[9], xt[3];
        random_pose(&r, 0.3, Ru, xu);
        random_pose(&r, 0.3, Rt, xt);
        for (int order = 0; order < 2; ++order) {
            DstVertexDepth d;
            int any;
            DstStatus st = order ? dst_mesh_vertex_depth(&T, Rt, xt, &U, Ru, xu, &d)
                                 : dst_mesh_vertex_depth(&U, Ru, xu, &T, Rt, xt, &d);
            double ref = ref_depth_shells(&U, S, 3, Ru, xu, &T, Rt, xt, &any);
            ck_assert_int_eq(st, any ? DST_PENETRATING : DST_SEPARATED);
            ck_assert_msg(fabs(d.depth - ref) <= DEPTH_BRUTE_REL * (1.0 + ref), "pose %d: %.17g brute %.17g", n,
                          d.depth, ref);
            check_witnesses(&d);
            pen += any;
        }
    }
    ck_assert_int_gt(pen, 0);
    ck_assert_int_gt(inside, 0);
    dst_bvh_destroy(&B1), dst_bvh_destroy(&B2), dst_bvh_destroy(&B3), dst_bvh_destroy(&U), dst_bvh_destroy(&T);
    dst_mesh_destroy(&s1), dst_mesh_destroy(&s2), dst_mesh_destroy(&s3);
    dst_mesh_destroy(&u12), dst_mesh_destroy(&u), dst_mesh_destroy(&mt);
}
END_TEST

START_TEST(test_depth_bad_input)
{
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    DstMesh mb = mg_box(lo, hi);
    DstBvh B, O;
    make_bvh(&mb, &B);
    /* the box without its last triangle: open */
    DstMesh mo;
    memset(&mo, 0, sizeof mo);
    ck_assert_int_eq(dst_mesh_create(&mb.vertices[0][0], mb.n_vertices, &mb.triangles[0][0], 11, &mo, NULL, 0), DST_OK);
    make_bvh(&mo, &O);
    ck_assert_int_eq(O.closed, 0);
    double I[9], o[3] = {0, 0, 0}, nanx[3] = {NAN, 0, 0}, R2[9];
    identity(I);
    memcpy(R2, I, sizeof R2);
    R2[0] = 2.0;
    DstVertexDepth d;
    ck_assert_int_eq(dst_mesh_vertex_depth(NULL, I, o, &B, I, o, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(d.status, DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, I, o, NULL, I, o, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, NULL, o, &B, I, o, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, I, o, &B, I, NULL, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, I, o, &B, I, o, NULL), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, I, nanx, &B, I, o, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, I, o, &B, R2, o, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&O, I, o, &B, I, o, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_vertex_depth(&B, I, o, &O, I, o, &d), DST_INVALID_INPUT);
    ck_assert(d.depth == 0.0);
    dst_bvh_destroy(&B), dst_bvh_destroy(&O);
    dst_mesh_destroy(&mb), dst_mesh_destroy(&mo);
}
END_TEST

Suite *dst_mesh_depth_suite(void)
{
    Suite *s = suite_create("dst_mesh_depth");
    TCase *tc;
    tc = tcase_create("point_distance");
    tcase_add_test(tc, test_point_distance_vs_brute_force);
    suite_add_tcase(s, tc);
    tc = tcase_create("known_answers");
    tcase_add_test(tc, test_depth_boxes_known);
    tcase_add_test(tc, test_depth_cube_inside_box);
    tcase_add_test(tc, test_depth_peg_in_cup);
    tcase_add_test(tc, test_depth_hand_in_ring);
    tcase_add_test(tc, test_depth_overlapping_shells);
    tcase_add_test(tc, test_shells_never_convex);
    tcase_add_test(tc, test_shell_inside_other);
    suite_add_tcase(s, tc);
    tc = tcase_create("brute_force");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_depth_random_vs_brute_force);
    tcase_add_test(tc, test_depth_nested_vs_brute_force);
    tcase_add_test(tc, test_shells_random_vs_brute_force);
    tcase_add_test(tc, test_depth_convex_below_epa);
    suite_add_tcase(s, tc);
    tc = tcase_create("continuity");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_depth_continuity);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad_input");
    tcase_add_test(tc, test_depth_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
