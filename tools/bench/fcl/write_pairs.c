/* write_pairs.c — the mesh_distance pairs of bench_mesh (torus vs UV sphere at ~1k, ~10k and
 * ~100k triangles per mesh, 200 seeded poses each: the same generator calls in the same order
 * as tools/bench/bench_mesh.c bench_static) written to files, so that FCL (compare_fcl.cpp)
 * sees exactly the triangles and poses we do: <dir>/torus_<N>.obj, <dir>/sphere_<N>.obj
 * (vertices printed with 17 significant digits, read back by both sides) and
 * <dir>/poses_<N>.txt (one line per pose: the sphere's rotation, row-major, and origin; the
 * torus sits at the identity). Our own cold query time on the meshes as read back from the
 * files goes to <dir>/ours_<N>.txt (median over the poses of the median of 5 repeats, us)
 * and the distances to <dir>/dist_<N>.txt. Usage: write_pairs DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../../tests/dst_capsule_testgen.h"
#include "../../../tests/dst_mesh_testgen.h"

#define WP_SEED 20170302u
#define WP_POSES 200
#define WP_REPEAT 5

static double wp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int wp_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double wp_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, wp_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int write_obj(const char *path, const DstMesh *m)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) return 0;
    for (int v = 0; v < m->n_vertices; ++v) {
        fprintf(f, "v %.17g %.17g %.17g\n", m->vertices[v][0], m->vertices[v][1], m->vertices[v][2]);
    }
    for (int t = 0; t < m->n_triangles; ++t) {
        fprintf(f, "f %d %d %d\n", m->triangles[t][0] + 1, m->triangles[t][1] + 1, m->triangles[t][2] + 1);
    }
    return fclose(f) == 0;
}

/* as bench_mesh.c near_torus */
static void near_torus(TgRng *r, double Rt, double rt, double rs, double gap, double c[3])
{
    double u = tg_uniform(r, 0.0, 2.0 * MG_PI), w = tg_uniform(r, -0.5 * MG_PI, 0.5 * MG_PI);
    double nrm[3] = {cos(w) * cos(u), cos(w) * sin(u), sin(w)};
    double p[3] = {(Rt + rt * cos(w)) * cos(u), (Rt + rt * cos(w)) * sin(u), rt * sin(w)};
    for (int i = 0; i < 3; ++i) c[i] = p[i] + nrm[i] * (rs + gap);
}

static int one_size(const char *dir, TgRng *rng, int nu, int nv, int nlat, int nlon, const char *label)
{
    char pt[1024], ps[1024], pp[1024], po[1024], pd[1024], err[256];
    snprintf(pt, sizeof pt, "%s/torus_%s.obj", dir, label);
    snprintf(ps, sizeof ps, "%s/sphere_%s.obj", dir, label);
    snprintf(pp, sizeof pp, "%s/poses_%s.txt", dir, label);
    snprintf(po, sizeof po, "%s/ours_%s.txt", dir, label);
    snprintf(pd, sizeof pd, "%s/dist_%s.txt", dir, label);
    double c0[3] = {0, 0, 0};
    DstMesh mt = mg_torus(0.5, 0.15, nu, nv), ms = mg_sphere(0.2, c0, nlat, nlon);
    if (!write_obj(pt, &mt) || !write_obj(ps, &ms)) return 0;
    dst_mesh_destroy(&mt), dst_mesh_destroy(&ms);
    /* read back: both libraries get the triangles from the same text */
    DstMesh rt, rs;
    DstBvh T, S;
    if (dst_mesh_create_from_file(pt, &rt, err, sizeof err) != DST_OK ||
        dst_mesh_create_from_file(ps, &rs, err, sizeof err) != DST_OK || dst_bvh_create(&rt, &T, err, sizeof err) != DST_OK ||
        dst_bvh_create(&rs, &S, err, sizeof err) != DST_OK) {
        fprintf(stderr, "write_pairs: %s\n", err);
        return 0;
    }
    FILE *fp = fopen(pp, "w"), *fd = fopen(pd, "w");
    if (fp == NULL || fd == NULL) return 0;
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0}, t_us[WP_POSES], rep[WP_REPEAT];
    for (int n = 0; n < WP_POSES; ++n) {
        double c[3], k[3], Rs[9];
        near_torus(rng, 0.5, 0.15, 0.2, tg_uniform(rng, 0.0, 0.05), c);
        tg_unit(rng, k);
        tg_rot(k, tg_uniform(rng, -3.0, 3.0), Rs);
        /* the pose as printed is the pose both sides use */
        char line[1024];
        snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", Rs[0],
                 Rs[1], Rs[2], Rs[3], Rs[4], Rs[5], Rs[6], Rs[7], Rs[8], c[0], c[1], c[2]);
        fprintf(fp, "%s\n", line);
        if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &Rs[0], &Rs[1], &Rs[2], &Rs[3], &Rs[4],
                   &Rs[5], &Rs[6], &Rs[7], &Rs[8], &c[0], &c[1], &c[2]) != 12)
            return 0;
        DstMeshDistance d;
        dst_bvh_separation(&T, I, z, &S, Rs, c, NULL, &d); /* warm-up */
        for (int q = 0; q < WP_REPEAT; ++q) {
            double t = wp_now();
            dst_bvh_separation(&T, I, z, &S, Rs, c, NULL, &d);
            rep[q] = wp_now() - t;
        }
        t_us[n] = 1e6 * wp_median(rep, WP_REPEAT);
        fprintf(fd, "%.17g\n", d.distance);
    }
    fclose(fp), fclose(fd);
    FILE *fo = fopen(po, "w");
    if (fo == NULL) return 0;
    fprintf(fo, "%.6f\n", wp_median(t_us, WP_POSES));
    fclose(fo);
    printf("write_pairs: %s: %d + %d triangles, %d poses\n", label, T.n_tris, S.n_tris, WP_POSES);
    dst_bvh_destroy(&T), dst_bvh_destroy(&S);
    dst_mesh_destroy(&rt), dst_mesh_destroy(&rs);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: write_pairs DIR\n");
        return 2;
    }
    TgRng rng = {WP_SEED};
    if (!one_size(argv[1], &rng, 32, 16, 17, 32, "1k") || !one_size(argv[1], &rng, 100, 50, 51, 100, "10k") ||
        !one_size(argv[1], &rng, 320, 160, 161, 320, "100k")) {
        fprintf(stderr, "write_pairs: failed\n");
        return 1;
    }
    return 0;
}
