/* check_dst_bvh.c — tests of distance/dst_bvh.c: tree invariants (every sphere contains its
 * triangles), separation against brute force over all triangle pairs on random poses
 * (touching, intersecting and apart; 0 mismatches above MESH_BRUTE_REL), flat plates and a
 * sliver-rimmed thin box face to face (the traversal queue overflows), warm start (same
 * answers, fewer triangle tests on coherent poses), point containment, signed distance
 * with known answers (overlapping and nested convex meshes exact; a non-convex overlap
 * bracketed) and bad input. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dst_bvh.h"
#include "dst_capsule_testgen.h"
#include "dst_mesh_testgen.h"

#define MESH_RANDOM_POSES (TG_ASAN ? 40 : 300)
/* BVH answer vs brute force over all triangle pairs, relative */
#define MESH_BRUTE_REL 1e-12
/* every vertex inside its node's sphere: rounding allowance, metres */
#define MESH_SPHERE_TOL 1e-12
/* faceted spheres differ from the round ones by at most r (1 - cos(pi / nlat)); 16 bands
 * of a unit sphere: 0.019 */
#define MESH_FACET_TOL 0.03
/* pruning tolerance of the relaxed queries, metres */
#define MESH_RELAXED_TOL 5e-3
/* exact answers of polyhedra (boxes) through EPA, metres */
#define MESH_EXACT_TOL 1e-9

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

START_TEST(test_bvh_tree_invariants)
{
    double c[3] = {0.1, -0.2, 0.3};
    DstMesh meshes[3] = {mg_sphere(0.5, c, 12, 20), mg_torus(0.6, 0.2, 24, 12), mg_lblock(0.4)};
    int convex[3] = {1, 0, 0};
    for (int m = 0; m < 3; ++m) {
        DstBvh b;
        char err[128];
        ck_assert_int_eq(dst_bvh_create(&meshes[m], &b, err, sizeof err), DST_OK);
        ck_assert_int_eq(b.n_tris, meshes[m].n_triangles);
        ck_assert_int_eq(b.closed, 1);
        ck_assert_int_eq(b.convex, convex[m]);
        ck_assert_int_le(b.n_nodes, 2 * b.n_tris);
        /* every triangle appears once; every vertex of a node's triangles is in its sphere */
        int seen[2048] = {0};
        for (int t = 0; t < b.n_tris; ++t) ++seen[b.tri_id[t]];
        for (int t = 0; t < b.n_tris; ++t) ck_assert_int_eq(seen[t], 1);
        for (int nd = 0; nd < b.n_nodes; ++nd) {
            const DstBvhNode *N = &b.nodes[nd];
            for (int t = N->first; t < N->first + N->count; ++t) {
                for (int v = 0; v < 3; ++v) {
                    const double *p = b.tri[t] + 3 * v;
                    double w[3] = {p[0] - N->c[0], p[1] - N->c[1], p[2] - N->c[2]};
                    ck_assert(sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) <= N->r + MESH_SPHERE_TOL);
                    ck_assert(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) <= b.radius);
                }
            }
            if (N->left >= 0) ck_assert_int_eq(N->count, b.nodes[N->left].count + b.nodes[N->right].count);
        }
        dst_bvh_destroy(&b);
        dst_mesh_destroy(&meshes[m]);
    }
}
END_TEST

START_TEST(test_bvh_separation_vs_brute_force)
{
    TgRng r = {21};
    double c0[3] = {0, 0, 0};
    DstMesh ma = mg_torus(0.5, 0.15, 16, 8), mb = mg_sphere(0.3, c0, 8, 12), mc = mg_lblock(0.35);
    DstBvh A, B, C;
    ck_assert_int_eq(dst_bvh_create(&ma, &A, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mb, &B, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mc, &C, NULL, 0), DST_OK);
    const DstBvh *pairs[3][2] = {{&A, &B}, {&A, &A}, {&C, &A}};
    int mismatches = 0, zero = 0, apart = 0;
    for (int n = 0; n < MESH_RANDOM_POSES; ++n) {
        const DstBvh *a = pairs[n % 3][0], *b = pairs[n % 3][1];
        double Ra[9], xa[3], Rb[9], xb[3];
        random_pose(&r, 0.5, Ra, xa);
        random_pose(&r, 0.5, Rb, xb);
        DstMeshDistance d;
        DstStatus st = dst_bvh_separation(a, Ra, xa, b, Rb, xb, NULL, &d);
        ck_assert(st == DST_SEPARATED || st == DST_TOUCHING);
        double ref = mg_brute_separation(a, Ra, xa, b, Rb, xb);
        if (!(fabs(d.distance - ref) <= MESH_BRUTE_REL * ref)) {
            ++mismatches;
            ck_assert_msg(0, "pose %d: bvh %.17g brute %.17g", n, d.distance, ref);
        }
        if (ref == 0.0) ++zero;
        else ++apart;
        ck_assert(d.lower <= ref && ref <= d.upper);
        /* witnesses in the world at the reported distance */
        double w[3] = {d.pa[0] - d.pb[0], d.pa[1] - d.pb[1], d.pa[2] - d.pb[2]};
        ck_assert(fabs(sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) - d.distance) <= MESH_SPHERE_TOL);
        ck_assert(d.tri_a >= 0 && d.tri_b >= 0);
        ck_assert_int_lt(d.tri_pairs, a->n_tris * b->n_tris);
        /* relaxed pruning: a real distance within tol above the exact one, bracketed */
        double tol = MESH_RELAXED_TOL;
        DstMeshDistance dt;
        dst_bvh_separation_tol(a, Ra, xa, b, Rb, xb, tol, NULL, &dt);
        ck_assert_msg(dt.distance >= ref * (1.0 - MESH_BRUTE_REL) && dt.distance <= ref + tol + MESH_SPHERE_TOL,
                      "pose %d: relaxed %.17g exact %.17g", n, dt.distance, ref);
        ck_assert(dt.lower <= ref && ref <= dt.distance + MESH_SPHERE_TOL);
        ck_assert_int_le(dt.tri_pairs, d.tri_pairs + 1);
        if (ref == 0.0) ck_assert(dt.distance == 0.0);
        /* tolerance growing above a reference (eq. 5b): a real distance d, lower = d - max(tol,
         * rel (d - ref)) <= exact; refs below, near and above the exact value */
        double refs[3] = {ref - 0.3, ref, ref + 0.1}, rels[2] = {0.5, 0.9};
        for (int q = 0; q < 3; ++q) {
            DstMeshDistance dr;
            double rel = rels[(n + q) % 2];
            dst_bvh_separation_rel(a, Ra, xa, b, Rb, xb, tol, refs[q], rel, NULL, &dr);
            ck_assert_msg(dr.distance >= ref * (1.0 - MESH_BRUTE_REL), "pose %d: rel %.17g exact %.17g", n,
                          dr.distance, ref);
            ck_assert_msg(dr.lower <= ref, "pose %d: rel lower %.17g exact %.17g", n, dr.lower, ref);
            double want = dr.distance - fmax(tol, rel * (dr.distance - refs[q]));
            ck_assert(dr.lower >= fmax(0.0, want) - MESH_SPHERE_TOL);
            if (ref == 0.0) ck_assert(dr.distance == 0.0);
        }
        /* pruning capped at a level (eq. 5d): a real distance d, lower = min(level, d - max(tol,
         * rel (d - ref))) <= exact; levels below, at and above the exact value, with and without
         * growth above a reference */
        double levels[4] = {ref - 0.05, ref - 0.5 * tol, ref, ref + 0.05};
        for (int q = 0; q < 4; ++q) {
            DstMeshDistance dl, dg;
            double rel = q % 2 ? 0.5 : 0.0;
            dst_bvh_separation_level(a, Ra, xa, b, Rb, xb, tol, ref, rel, levels[q], NULL, &dl);
            ck_assert_msg(dl.distance >= ref * (1.0 - MESH_BRUTE_REL), "pose %d: level %.17g exact %.17g", n,
                          dl.distance, ref);
            ck_assert_msg(dl.lower <= ref, "pose %d: level lower %.17g exact %.17g", n, dl.lower, ref);
            double want = fmin(levels[q], dl.distance - fmax(tol, rel * (dl.distance - ref)));
            ck_assert(dl.lower >= fmax(0.0, want) - MESH_SPHERE_TOL);
            /* a level the exact distance clears by more than tol is reached */
            if (ref > levels[q] + tol) ck_assert(dl.lower >= levels[q] - MESH_SPHERE_TOL);
            if (ref == 0.0) ck_assert(dl.distance == 0.0);
            /* the signed form agrees with the separation when apart */
            dst_bvh_distance_level(a, Ra, xa, b, Rb, xb, tol, ref, rel, levels[q], NULL, &dg);
            if (dg.overlap == 0) ck_assert(dg.lower <= ref && dg.distance >= ref * (1.0 - MESH_BRUTE_REL));
        }
    }
    ck_assert_int_eq(mismatches, 0);
    ck_assert_int_gt(zero, MESH_RANDOM_POSES / 20);
    ck_assert_int_gt(apart, MESH_RANDOM_POSES / 5);
    dst_bvh_destroy(&A), dst_bvh_destroy(&B), dst_bvh_destroy(&C);
    dst_mesh_destroy(&ma), dst_mesh_destroy(&mb), dst_mesh_destroy(&mc);
}
END_TEST

/* a flat open plate in the z = 0 plane: an n x n grid of squares over [-w/2, w/2]^2, two
 * triangles each, the diagonals alternating */
static DstMesh plate_mesh(double w, int n)
{
    int nv = (n + 1) * (n + 1), nt = 2 * n * n;
    double *V = malloc((size_t)nv * 3 * sizeof *V);
    int *T = malloc((size_t)nt * 3 * sizeof *T);
    for (int i = 0; i <= n; ++i) {
        for (int j = 0; j <= n; ++j) {
            double *v = V + 3 * (i * (n + 1) + j);
            v[0] = w * ((double)i / n - 0.5), v[1] = w * ((double)j / n - 0.5), v[2] = 0.0;
        }
    }
    for (int i = 0, t = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j, t += 2) {
            int a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
            int *q = T + 3 * t;
            if ((i + j) % 2) q[0] = a, q[1] = c, q[2] = d, q[3] = a, q[4] = d, q[5] = b;
            else q[0] = a, q[1] = c, q[2] = b, q[3] = b, q[4] = c, q[5] = d;
        }
    }
    DstMesh m;
    memset(&m, 0, sizeof m);
    dst_mesh_create(V, nv, T, nt, &m, NULL, 0);
    free(V), free(T);
    return m;
}

/* Exactness at every clearance (issue 20's distance bands): flat plates, a bumpy statue and a
 * torus, B's centre put along a random direction at 0.3-4 times the sum of the root sphere
 * radii from A's (overlapping, touching, near, mid and far), the separation against brute
 * force; the witness axis and the other pruning bounds must never drop the closest pair. */
START_TEST(test_bvh_separation_bands_vs_brute_force)
{
    TgRng r = {2020};
    DstMesh ma = plate_mesh(0.4, 12), mb = mg_statue(0.2, 0.15, 0.3, 10, 16), mc = mg_torus(0.3, 0.08, 16, 8);
    DstBvh A, B, C;
    ck_assert_int_eq(dst_bvh_create(&ma, &A, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mb, &B, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mc, &C, NULL, 0), DST_OK);
    const DstBvh *pairs[4][2] = {{&A, &A}, {&A, &B}, {&C, &B}, {&B, &A}};
    static const double scale[6] = {0.3, 0.8, 0.95, 1.1, 1.6, 4.0};
    int mismatches = 0, apart = 0, n_poses = TG_ASAN ? 24 : 120;
    for (int n = 0; n < n_poses; ++n) {
        const DstBvh *a = pairs[n % 4][0], *b = pairs[n % 4][1];
        double Ra[9], xa[3], Rb[9], xb[3], u[3];
        random_pose(&r, 0.5, Ra, xa);
        random_pose(&r, 0.0, Rb, xb);
        tg_unit(&r, u);
        /* root centres: A's in the world, then B's origin so that its centre sits at the offset */
        double ca[3], cbw[3], off = scale[(n / 4) % 6] * (a->nodes[0].r + b->nodes[0].r);
        const double *cA = a->nodes[0].c, *cB = b->nodes[0].c;
        for (int i = 0; i < 3; ++i) ca[i] = Ra[3 * i] * cA[0] + Ra[3 * i + 1] * cA[1] + Ra[3 * i + 2] * cA[2] + xa[i];
        for (int i = 0; i < 3; ++i) cbw[i] = Rb[3 * i] * cB[0] + Rb[3 * i + 1] * cB[1] + Rb[3 * i + 2] * cB[2];
        for (int i = 0; i < 3; ++i) xb[i] = ca[i] + off * u[i] - cbw[i];
        DstMeshDistance d;
        DstStatus st = dst_bvh_separation(a, Ra, xa, b, Rb, xb, NULL, &d);
        ck_assert(st == DST_SEPARATED || st == DST_TOUCHING);
        double ref = mg_brute_separation(a, Ra, xa, b, Rb, xb);
        if (!(fabs(d.distance - ref) <= MESH_BRUTE_REL * ref)) {
            ++mismatches;
            ck_assert_msg(0, "pose %d: bvh %.17g brute %.17g", n, d.distance, ref);
        }
        ck_assert(d.lower <= ref && ref <= d.upper);
        apart += ref > 0.0;
        /* a warm start from another pose's pair must not change the answer either */
        DstBvhCache cache;
        dst_bvh_cache_reset(&cache);
        cache.tri_a = n % a->n_tris, cache.tri_b = (7 * n) % b->n_tris;
        DstMeshDistance dw;
        dst_bvh_separation(a, Ra, xa, b, Rb, xb, &cache, &dw);
        ck_assert_msg(fabs(dw.distance - ref) <= MESH_BRUTE_REL * ref, "pose %d: warm %.17g brute %.17g", n,
                      dw.distance, ref);
    }
    ck_assert_int_eq(mismatches, 0);
    ck_assert_int_gt(apart, n_poses / 2);
    dst_bvh_destroy(&A), dst_bvh_destroy(&B), dst_bvh_destroy(&C);
    dst_mesh_destroy(&ma), dst_mesh_destroy(&mb), dst_mesh_destroy(&mc);
}
END_TEST

/* each triangle of m cut into 4^levels by its edge midpoints (vertices not shared: a
 * triangle soup, enough for the separation); a thin box gives long rim slivers */
static DstMesh subdivided(const DstMesh *m, int levels)
{
    int nt = m->n_triangles;
    double *V = malloc((size_t)nt * 9 * sizeof *V);
    for (int t = 0; t < nt; ++t) {
        for (int k = 0; k < 3; ++k) memcpy(V + 9 * t + 3 * k, m->vertices[m->triangles[t][k]], 3 * sizeof(double));
    }
    for (int l = 0; l < levels; ++l, nt *= 4) {
        double *W = malloc((size_t)nt * 36 * sizeof *W);
        for (int t = 0; t < nt; ++t) {
            const double *a = V + 9 * t, *b = a + 3, *c = a + 6;
            double ab[3], bc[3], ca[3];
            for (int i = 0; i < 3; ++i) ab[i] = 0.5 * (a[i] + b[i]), bc[i] = 0.5 * (b[i] + c[i]), ca[i] = 0.5 * (c[i] + a[i]);
            const double *q[4][3] = {{a, ab, ca}, {ab, b, bc}, {ca, bc, c}, {ab, bc, ca}};
            for (int s = 0; s < 4; ++s) {
                for (int k = 0; k < 3; ++k) memcpy(W + 36 * t + 9 * s + 3 * k, q[s][k], 3 * sizeof(double));
            }
        }
        free(V);
        V = W;
    }
    int *T = malloc((size_t)nt * 3 * sizeof *T);
    for (int i = 0; i < 3 * nt; ++i) T[i] = i;
    DstMesh out;
    memset(&out, 0, sizeof out);
    dst_mesh_create(V, 3 * nt, T, nt, &out, NULL, 0);
    free(V), free(T);
    return out;
}

/* Parallel and nearly parallel plates face to face (every lateral neighbour at about the
 * same distance: thousands of node pairs with bounds below the answer, so the best-first
 * queue of the traversal fills up and the depth-first fallback runs), and a thin box with
 * 100:1 rim slivers (the issue-20 plate) at contact, near, mid and far clearance: the
 * separation equals brute force, cold and warm. */
START_TEST(test_bvh_separation_flat_vs_brute_force)
{
    TgRng r = {2015};
    double lo[3] = {0, 0, 0}, hi[3] = {0.4, 0.3, 0.004};
    DstMesh box = mg_box(lo, hi), mp = plate_mesh(0.4, 28), mt = subdivided(&box, 3);
    DstBvh P, T;
    ck_assert_int_eq(dst_bvh_create(&mp, &P, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mt, &T, NULL, 0), DST_OK);
    static const double gap[4] = {1e-4, 5e-3, 0.04, 0.3};
    int n_poses = TG_ASAN ? 4 : 12;
    for (int n = 0; n < n_poses; ++n) {
        const DstBvh *a = n % 2 ? &T : &P, *b = a;
        double Ra[9], xa[3] = {0, 0, 0}, Rb[9], xb[3], k[3];
        identity(Ra);
        /* B: A turned by up to 0.02 rad (0 for the first poses), shifted sideways, lifted by a gap */
        tg_unit(&r, k);
        tg_rot(k, n < 4 ? 0.0 : tg_uniform(&r, -0.02, 0.02), Rb);
        xb[0] = tg_uniform(&r, -0.05, 0.05), xb[1] = tg_uniform(&r, -0.05, 0.05);
        /* lift B so that its lowest vertex is gap above A's highest (the plates face each other) */
        double top = -INFINITY, low = INFINITY;
        for (int t = 0; t < a->n_tris; ++t) {
            for (int v = 0; v < 3; ++v) {
                const double *q = a->tri[t] + 3 * v;
                top = fmax(top, q[2]);
                low = fmin(low, Rb[6] * q[0] + Rb[7] * q[1] + Rb[8] * q[2]);
            }
        }
        xb[2] = top - low + gap[n % 4];
        DstMeshDistance d;
        DstStatus st = dst_bvh_separation(a, Ra, xa, b, Rb, xb, NULL, &d);
        ck_assert(st == DST_SEPARATED || st == DST_TOUCHING);
        double ref = mg_brute_separation(a, Ra, xa, b, Rb, xb);
        ck_assert_msg(fabs(d.distance - ref) <= MESH_BRUTE_REL * ref, "pose %d: bvh %.17g brute %.17g", n, d.distance,
                      ref);
        ck_assert(d.lower <= ref && ref <= d.upper);
        DstBvhCache cache;
        dst_bvh_cache_reset(&cache);
        cache.tri_a = (3 * n) % a->n_tris, cache.tri_b = (11 * n) % b->n_tris;
        dst_bvh_separation(a, Ra, xa, b, Rb, xb, &cache, &d);
        ck_assert_msg(fabs(d.distance - ref) <= MESH_BRUTE_REL * ref, "pose %d: warm %.17g brute %.17g", n,
                      d.distance, ref);
    }
    dst_bvh_destroy(&P), dst_bvh_destroy(&T);
    dst_mesh_destroy(&mp), dst_mesh_destroy(&mt), dst_mesh_destroy(&box);
}
END_TEST

START_TEST(test_bvh_warm_start)
{
    double c0[3] = {0, 0, 0};
    DstMesh ma = mg_torus(0.5, 0.15, 32, 16), mb = mg_sphere(0.3, c0, 16, 24);
    DstBvh A, B;
    ck_assert_int_eq(dst_bvh_create(&ma, &A, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mb, &B, NULL, 0), DST_OK);
    DstBvhCache cache;
    dst_bvh_cache_reset(&cache);
    double Ra[9], xa[3] = {0, 0, 0}, Rb[9], k[3] = {0.3 / 0.9899494936611665, 0.5 / 0.9899494936611665, 0.8 / 0.9899494936611665};
    long cold = 0, warm = 0;
    for (int n = 0; n < 200; ++n) {
        double s = n / 200.0, xb[3] = {0.9 - 0.3 * s, 0.1 * s, 0.35};
        tg_rot(k, 0.5 * s, Ra);
        tg_rot(k, -1.0 * s, Rb);
        DstMeshDistance d0, d1;
        ck_assert_int_eq(dst_bvh_separation(&A, Ra, xa, &B, Rb, xb, NULL, &d0), DST_SEPARATED);
        ck_assert_int_eq(dst_bvh_separation(&A, Ra, xa, &B, Rb, xb, &cache, &d1), DST_SEPARATED);
        ck_assert(d0.distance == d1.distance);
        cold += d0.tri_pairs + d0.node_pairs;
        warm += d1.tri_pairs + d1.node_pairs;
    }
    ck_assert_int_lt(warm, cold);
    dst_bvh_destroy(&A), dst_bvh_destroy(&B);
    dst_mesh_destroy(&ma), dst_mesh_destroy(&mb);
}
END_TEST

START_TEST(test_bvh_contains)
{
    DstMesh mt = mg_torus(0.5, 0.15, 24, 12);
    DstBvh T;
    ck_assert_int_eq(dst_bvh_create(&mt, &T, NULL, 0), DST_OK);
    TgRng r = {23};
    for (int n = 0; n < 2000; ++n) {
        double p[3] = {tg_uniform(&r, -0.8, 0.8), tg_uniform(&r, -0.8, 0.8), tg_uniform(&r, -0.3, 0.3)};
        /* analytic torus, kept away from the faceted surface */
        double q = sqrt(p[0] * p[0] + p[1] * p[1]) - 0.5, dd = sqrt(q * q + p[2] * p[2]);
        if (fabs(dd - 0.15) < 0.02) continue;
        ck_assert_int_eq(dst_bvh_contains(&T, p), dd < 0.15);
    }
    dst_bvh_destroy(&T);
    dst_mesh_destroy(&mt);
}
END_TEST

START_TEST(test_bvh_signed_known_answers)
{
    double I[9], z[3] = {0, 0, 0};
    identity(I);
    /* boxes: B pokes 0.5 into A along x: depth 0.5 */
    double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, lo2[3] = {0.5, -0.2, -0.3}, hi2[3] = {2.5, 0.2, 0.3};
    DstMesh m1 = mg_box(lo, hi), m2 = mg_box(lo2, hi2);
    DstBvh A, B;
    ck_assert_int_eq(dst_bvh_create(&m1, &A, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&m2, &B, NULL, 0), DST_OK);
    ck_assert(A.convex && B.convex);
    DstMeshDistance d;
    ck_assert_int_eq(dst_bvh_distance(&A, I, z, &B, I, z, NULL, &d), DST_PENETRATING);
    ck_assert(fabs(d.distance + 0.5) <= MESH_EXACT_TOL);
    ck_assert(d.exact && d.overlap == 1);
    ck_assert(d.lower <= -0.5 + MESH_EXACT_TOL && d.upper >= -0.5 - MESH_EXACT_TOL);
    ck_assert(fabs(fabs(d.n[0]) - 1.0) <= MESH_EXACT_TOL);
    /* moved apart by 1 along x: separation 0.5 */
    double x1[3] = {1.0, 0, 0};
    ck_assert_int_eq(dst_bvh_distance(&A, I, z, &B, I, x1, NULL, &d), DST_SEPARATED);
    ck_assert(fabs(d.distance - 0.5) <= MESH_EXACT_TOL);
    /* nested spheres: r = 0.3 at offset 0.2 inside r = 1: the small one must travel
     * 1 + 0.3 - 0.2 = 1.1 to come out (translational depth) */
    double c0[3] = {0, 0, 0}, c1[3] = {0.2, 0, 0};
    DstMesh s1 = mg_sphere(1.0, c0, 16, 32), s2 = mg_sphere(0.3, c1, 16, 32);
    DstBvh S1, S2;
    ck_assert_int_eq(dst_bvh_create(&s1, &S1, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&s2, &S2, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_distance(&S1, I, z, &S2, I, z, NULL, &d), DST_PENETRATING);
    ck_assert_int_eq(d.overlap, 2);
    ck_assert_msg(fabs(d.distance + 1.1) <= MESH_FACET_TOL, "nested depth %g", d.distance);
    /* overlapping spheres: centres 1.1 apart, radii 1 and 0.3: depth 0.2 */
    double x2[3] = {0.9, 0, 0};
    ck_assert_int_eq(dst_bvh_distance(&S1, I, z, &S2, I, x2, NULL, &d), DST_PENETRATING);
    ck_assert_int_eq(d.overlap, 1);
    ck_assert_msg(fabs(d.distance + 0.2) <= MESH_FACET_TOL, "overlap depth %g", d.distance);
    /* non-convex: a small box 0.2 deep in the top of the L's arm; true signed distance -0.2 */
    DstMesh ml = mg_lblock(1.0);
    double lo3[3] = {0.4, 1.4, 0.8}, hi3[3] = {0.6, 1.6, 1.1};
    DstMesh m3 = mg_box(lo3, hi3);
    DstBvh L, P;
    ck_assert_int_eq(dst_bvh_create(&ml, &L, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&m3, &P, NULL, 0), DST_OK);
    ck_assert(!L.convex && L.closed);
    ck_assert_int_eq(dst_bvh_distance(&L, I, z, &P, I, z, NULL, &d), DST_PENETRATING);
    ck_assert(!d.exact);
    ck_assert(d.lower <= -0.2 + MESH_EXACT_TOL && d.upper >= -0.2);
    /* the small box inside the L's arm (no surface contact): contained, it must travel
     * 0.6 up (or along x or y) to come out: signed distance -0.6, bracketed */
    double x3[3] = {0, 0, -0.4};
    ck_assert_int_eq(dst_bvh_distance(&L, I, z, &P, I, x3, NULL, &d), DST_PENETRATING);
    ck_assert_int_eq(d.overlap, 2);
    ck_assert(d.lower <= -0.6 + MESH_EXACT_TOL && d.upper >= -0.6);
    /* the surfaces are 0.3 apart (box top to the L's top face): depth at least 0.3 */
    ck_assert(fabs(d.upper + 0.3) <= MESH_EXACT_TOL);
    /* above the L: separated by 0.1 */
    double x4[3] = {0, 0, 0.3};
    ck_assert_int_eq(dst_bvh_distance(&L, I, z, &P, I, x4, NULL, &d), DST_SEPARATED);
    ck_assert(fabs(d.distance - 0.1) <= MESH_EXACT_TOL);
    DstBvh *all[6] = {&A, &B, &S1, &S2, &L, &P};
    for (int i = 0; i < 6; ++i) dst_bvh_destroy(all[i]);
    DstMesh *meshes[6] = {&m1, &m2, &s1, &s2, &ml, &m3};
    for (int i = 0; i < 6; ++i) dst_mesh_destroy(meshes[i]);
}
END_TEST

START_TEST(test_bvh_invalid_input)
{
    DstMesh empty;
    memset(&empty, 0, sizeof empty);
    DstBvh b;
    char err[128] = "";
    ck_assert_int_eq(dst_bvh_create(&empty, &b, err, sizeof err), DST_INVALID_INPUT);
    ck_assert(strlen(err) > 0);
    ck_assert_int_eq(dst_bvh_create(NULL, &b, NULL, 0), DST_INVALID_INPUT);
    dst_bvh_destroy(&b);
    dst_bvh_destroy(NULL);
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    DstMesh m = mg_box(lo, hi);
    ck_assert_int_eq(dst_bvh_create(&m, &b, NULL, 0), DST_OK);
    double I[9], z[3] = {0, 0, 0}, S[9];
    identity(I);
    identity(S);
    S[0] = 2.0; /* scaled: not a rotation */
    DstMeshDistance d;
    ck_assert_int_eq(dst_bvh_distance(&b, S, z, &b, I, z, NULL, &d), DST_INVALID_INPUT);
    double nan3[3] = {NAN, 0, 0};
    ck_assert_int_eq(dst_bvh_separation(&b, I, nan3, &b, I, z, NULL, &d), DST_INVALID_INPUT);
    ck_assert(d.distance == 0.0);
    ck_assert_int_eq(dst_bvh_separation_rel(&b, I, z, &b, I, z, 0.0, 0.0, 1.0, NULL, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_bvh_distance_rel(&b, I, z, &b, I, z, 0.0, NAN, 0.5, NULL, &d), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_bvh_separation_level(&b, I, z, &b, I, z, 0.0, 0.0, 0.0, NAN, NULL, &d), DST_INVALID_INPUT);
    dst_bvh_destroy(&b);
    dst_mesh_destroy(&m);
}
END_TEST

Suite *dst_bvh_suite(void)
{
    Suite *s = suite_create("dst_bvh");
    TCase *tc = tcase_create("tree");
    tcase_add_test(tc, test_bvh_tree_invariants);
    suite_add_tcase(s, tc);
    tc = tcase_create("separation");
    tcase_set_timeout(tc, 180);
    tcase_add_test(tc, test_bvh_separation_vs_brute_force);
    tcase_add_test(tc, test_bvh_separation_bands_vs_brute_force);
    tcase_add_test(tc, test_bvh_separation_flat_vs_brute_force);
    tcase_add_test(tc, test_bvh_warm_start);
    suite_add_tcase(s, tc);
    tc = tcase_create("containment");
    tcase_add_test(tc, test_bvh_contains);
    suite_add_tcase(s, tc);
    tc = tcase_create("signed_distance");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bvh_signed_known_answers);
    suite_add_tcase(s, tc);
    tc = tcase_create("invalid_input");
    tcase_add_test(tc, test_bvh_invalid_input);
    suite_add_tcase(s, tc);
    return s;
}
