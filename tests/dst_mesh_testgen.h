/* dst_mesh_testgen.h — closed, outward-oriented test meshes made on the fly (UV spheres,
 * tori, boxes, an L-shaped block) and a brute-force reference of the mesh separation.
 * Header-only, for tests and benchmarks; each generator returns a DstMesh to destroy. */
#ifndef DST_MESH_TESTGEN_H
#define DST_MESH_TESTGEN_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dst_bvh.h"
#include "dst_mesh.h"

#define MG_PI 3.14159265358979323846

/* UV sphere of radius r about c: nlat >= 2 bands, nlon >= 3 sectors; 2 nlon (nlat - 1)
 * triangles. Vertices on the sphere, so its hull is itself (convex). */
static inline DstMesh mg_sphere(double r, const double c[3], int nlat, int nlon)
{
    int nv = 2 + (nlat - 1) * nlon, nt = 2 * nlon * (nlat - 1), v = 0, t = 0;
    double *V = malloc((size_t)nv * 3 * sizeof *V);
    int *T = malloc((size_t)nt * 3 * sizeof *T);
    V[0] = c[0], V[1] = c[1], V[2] = c[2] + r; /* north pole */
    v = 1;
    for (int i = 1; i < nlat; ++i) {
        double th = MG_PI * i / nlat;
        for (int j = 0; j < nlon; ++j, ++v) {
            double ph = 2.0 * MG_PI * j / nlon;
            V[3 * v] = c[0] + r * sin(th) * cos(ph);
            V[3 * v + 1] = c[1] + r * sin(th) * sin(ph);
            V[3 * v + 2] = c[2] + r * cos(th);
        }
    }
    int south = v;
    V[3 * v] = c[0], V[3 * v + 1] = c[1], V[3 * v + 2] = c[2] - r;
    for (int j = 0; j < nlon; ++j) {
        int a = 1 + j, b = 1 + (j + 1) % nlon;
        T[3 * t] = 0, T[3 * t + 1] = a, T[3 * t + 2] = b, ++t;
    }
    for (int i = 0; i < nlat - 2; ++i) {
        for (int j = 0; j < nlon; ++j) {
            int a = 1 + i * nlon + j, b = 1 + i * nlon + (j + 1) % nlon;
            int c2 = a + nlon, d = b + nlon;
            T[3 * t] = a, T[3 * t + 1] = c2, T[3 * t + 2] = d, ++t;
            T[3 * t] = a, T[3 * t + 1] = d, T[3 * t + 2] = b, ++t;
        }
    }
    for (int j = 0; j < nlon; ++j) {
        int a = 1 + (nlat - 2) * nlon + j, b = 1 + (nlat - 2) * nlon + (j + 1) % nlon;
        T[3 * t] = a, T[3 * t + 1] = south, T[3 * t + 2] = b, ++t;
    }
    DstMesh m;
    memset(&m, 0, sizeof m);
    dst_mesh_create(V, nv, T, nt, &m, NULL, 0);
    free(V), free(T);
    return m;
}

/* Torus about the z axis: tube radius r around a circle of radius R; 2 nu nv triangles. */
static inline DstMesh mg_torus(double R, double r, int nu, int nv)
{
    double *V = malloc((size_t)nu * nv * 3 * sizeof *V);
    int *T = malloc((size_t)nu * nv * 6 * sizeof *T), t = 0;
    for (int i = 0; i < nu; ++i) {
        double u = 2.0 * MG_PI * i / nu;
        for (int j = 0; j < nv; ++j) {
            double w = 2.0 * MG_PI * j / nv;
            double *p = V + 3 * (i * nv + j);
            p[0] = (R + r * cos(w)) * cos(u);
            p[1] = (R + r * cos(w)) * sin(u);
            p[2] = r * sin(w);
        }
    }
    for (int i = 0; i < nu; ++i) {
        for (int j = 0; j < nv; ++j) {
            int a = i * nv + j, b = ((i + 1) % nu) * nv + j, c = ((i + 1) % nu) * nv + (j + 1) % nv,
                d = i * nv + (j + 1) % nv;
            T[3 * t] = a, T[3 * t + 1] = b, T[3 * t + 2] = c, ++t;
            T[3 * t] = a, T[3 * t + 1] = c, T[3 * t + 2] = d, ++t;
        }
    }
    DstMesh m;
    memset(&m, 0, sizeof m);
    dst_mesh_create(V, nu * nv, T, t, &m, NULL, 0);
    free(V), free(T);
    return m;
}

/* Axis-aligned box [lo, hi] as 12 outward triangles. */
static inline DstMesh mg_box(const double lo[3], const double hi[3])
{
    double V[24];
    for (int k = 0; k < 8; ++k) {
        V[3 * k] = (k & 1) ? hi[0] : lo[0];
        V[3 * k + 1] = (k & 2) ? hi[1] : lo[1];
        V[3 * k + 2] = (k & 4) ? hi[2] : lo[2];
    }
    static const int T[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                              2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    DstMesh m;
    memset(&m, 0, sizeof m);
    dst_mesh_create(V, 8, T, 12, &m, NULL, 0);
    return m;
}

/* L-shaped block (non-convex): the prism over the L polygon (0,0) (2,0) (2,1) (1,1) (1,2)
 * (0,2) scaled by s, z in [0, s]; 20 triangles. */
static inline DstMesh mg_lblock(double s)
{
    static const double P[6][2] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
    double V[36];
    for (int k = 0; k < 6; ++k) {
        V[3 * k] = s * P[k][0], V[3 * k + 1] = s * P[k][1], V[3 * k + 2] = 0.0;
        V[3 * (k + 6)] = s * P[k][0], V[3 * (k + 6) + 1] = s * P[k][1], V[3 * (k + 6) + 2] = s;
    }
    /* bottom (normal -z) and top (+z) fans of the L split at the reflex vertex 3 */
    static const int T[60] = {0, 3, 1, 1, 3, 2, 0, 5, 3, 3, 5, 4,          /* bottom */
                              6, 7, 9, 7, 8, 9, 6, 9, 11, 9, 10, 11,       /* top */
                              0, 1, 7, 0, 7, 6, 1, 2, 8, 1, 8, 7, 2, 3, 9, 2, 9, 8,
                              3, 4, 10, 3, 10, 9, 4, 5, 11, 4, 11, 10, 5, 0, 6, 5, 6, 11};
    DstMesh m;
    memset(&m, 0, sizeof m);
    dst_mesh_create(V, 12, T, 20, &m, NULL, 0);
    return m;
}

/* A statue-like closed non-convex mesh: the UV sphere of mg_sphere (same topology, 2 nlon
 * (nlat - 1) triangles) with each vertex pushed along its direction u to the radius
 * 1 + 0.12 sin(5 theta) cos(3 phi) + 0.06 sin(11 theta + 2 phi) and scaled by (sx, sy, sz):
 * bumps and hollows of a few cm on a body ~2 sz tall, centred at the origin. */
static inline DstMesh mg_statue(double sx, double sy, double sz, int nlat, int nlon)
{
    double c0[3] = {0, 0, 0};
    DstMesh m = mg_sphere(1.0, c0, nlat, nlon);
    for (int v = 0; v < m.n_vertices; ++v) {
        double *p = m.vertices[v];
        double th = acos(fmax(-1.0, fmin(1.0, p[2]))), ph = atan2(p[1], p[0]);
        double r = 1.0 + 0.12 * sin(5.0 * th) * cos(3.0 * ph) + 0.06 * sin(11.0 * th + 2.0 * ph);
        p[0] *= sx * r, p[1] *= sy * r, p[2] *= sz * r;
    }
    return m;
}

/* Brute force: minimum over all triangle pairs, B's triangles placed in A's frame by the
 * same arithmetic as the BVH (x_A = R x_B + t, R = Ra^T Rb, t = Ra^T (xb - xa)). */
static inline double mg_brute_separation(const DstBvh *a, const double Ra[9], const double xa[3], const DstBvh *b,
                                         const double Rb[9], const double xb[3])
{
    double R[9], t[3], d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]}, best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) R[3 * i + j] = Ra[i] * Rb[j] + Ra[3 + i] * Rb[3 + j] + Ra[6 + i] * Rb[6 + j];
        t[i] = Ra[i] * d[0] + Ra[3 + i] * d[1] + Ra[6 + i] * d[2];
    }
    double(*tb)[9] = malloc((size_t)b->n_tris * sizeof *tb);
    for (int k = 0; k < b->n_tris; ++k) {
        for (int v = 0; v < 3; ++v) {
            const double *p = b->tri[k] + 3 * v;
            for (int i = 0; i < 3; ++i) tb[k][3 * v + i] = R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2] + t[i];
        }
    }
    for (int ka = 0; ka < a->n_tris; ++ka) {
        for (int kb = 0; kb < b->n_tris; ++kb) {
            DstTriPair tp;
            dst_tri_distance(a->tri[ka], tb[kb], &tp);
            if (tp.dist < best) best = tp.dist;
        }
    }
    free(tb);
    return best;
}

#endif /* DST_MESH_TESTGEN_H */
