/* write_pairs.c — the mesh_distance pairs of bench_mesh (torus vs UV sphere at ~1k, ~10k and
 * ~100k triangles per mesh, 200 seeded poses each: the same generator calls in the same order
 * as tools/bench/bench_mesh.c bench_static) written to files, so that FCL (compare_fcl.cpp)
 * sees exactly the triangles and poses we do: <dir>/torus_<N>.obj, <dir>/sphere_<N>.obj
 * (vertices printed with 17 significant digits, read back by both sides) and
 * <dir>/poses_<N>.txt (one line per pose: the sphere's rotation, row-major, and origin; the
 * torus sits at the identity). Our own cold query time on the meshes as read back from the
 * files goes to <dir>/ours_<N>.txt (median over the poses of the median of 5 repeats, us)
 * and the distances to <dir>/dist_<N>.txt. Usage: write_pairs DIR */
#include <math.h>
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

/* ---- distance bands (issue 20) ---------------------------------------------------------
 * Pairs of various shapes and sizes; for each pair, poses drawn per clearance band, the
 * clearance as a fraction of the pair's size (the smaller of the two bounding-box
 * diagonals): band 0 "contact" (0.01-1 %), 1 "near" (1-5 %), 2 "mid" (5-20 %), 3 "far"
 * (20-100 %). A sits at the identity; B gets a random rotation and its box centre is put
 * along a random direction from A's box centre, at the offset where the separation crosses
 * the drawn clearance (bisection on the offset, keeping sep(lo) < c <= sep(hi)); the band
 * of a pose is that of the separation it ends with. Files: <dir>/bands.txt (one line per
 * pair: name, triangles of A and B, size), <dir>/band_<name>_{a,b}.obj and
 * <dir>/band_<name>_poses.txt (band, R row-major, origin of B; our median time in us and
 * our distance on the same line). */
#define WP_BANDS 4
#define WP_BAND_POSES 30
static const double wp_band_lo[WP_BANDS] = {1e-4, 0.01, 0.05, 0.20};
static const double wp_band_hi[WP_BANDS] = {0.01, 0.05, 0.20, 1.00};

/* each triangle split into 4 at its edge midpoints, `levels` times (a triangle soup:
 * vertices are not shared; distances only need the triangles) */
static DstMesh wp_subdivide(const DstMesh *m, int levels)
{
    int nt = m->n_triangles;
    double *t = malloc((size_t)nt * 9 * sizeof *t);
    for (int i = 0; i < nt; ++i) {
        for (int k = 0; k < 3; ++k) memcpy(t + 9 * i + 3 * k, m->vertices[m->triangles[i][k]], 3 * sizeof(double));
    }
    for (int l = 0; l < levels; ++l) {
        double *u = malloc((size_t)nt * 4 * 9 * sizeof *u);
        for (int i = 0; i < nt; ++i) {
            const double *a = t + 9 * i, *b = a + 3, *c = a + 6;
            double ab[3], bc[3], ca[3];
            for (int k = 0; k < 3; ++k) ab[k] = 0.5 * (a[k] + b[k]), bc[k] = 0.5 * (b[k] + c[k]), ca[k] = 0.5 * (c[k] + a[k]);
            const double *q[4][3] = {{a, ab, ca}, {ab, b, bc}, {ca, bc, c}, {ab, bc, ca}};
            for (int j = 0; j < 4; ++j) {
                for (int k = 0; k < 3; ++k) memcpy(u + 9 * (4 * i + j) + 3 * k, q[j][k], 3 * sizeof(double));
            }
        }
        free(t);
        t = u;
        nt *= 4;
    }
    int *ix = malloc((size_t)nt * 3 * sizeof *ix);
    for (int i = 0; i < 3 * nt; ++i) ix[i] = i;
    DstMesh out;
    memset(&out, 0, sizeof out);
    dst_mesh_create(t, 3 * nt, ix, nt, &out, NULL, 0);
    free(t), free(ix);
    return out;
}

/* a UV sphere with each vertex moved radially by up to +-amp (relative), seeded */
static DstMesh wp_noisy_sphere(TgRng *r, double rad, int nlat, int nlon, double amp)
{
    double c0[3] = {0, 0, 0};
    DstMesh m = mg_sphere(rad, c0, nlat, nlon);
    for (int v = 0; v < m.n_vertices; ++v) {
        double s = 1.0 + tg_uniform(r, -amp, amp);
        for (int i = 0; i < 3; ++i) m.vertices[v][i] *= s;
    }
    return m;
}

static void wp_box_of(const DstMesh *m, double c[3], double *diag)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < m->n_vertices; ++v) {
        for (int i = 0; i < 3; ++i) lo[i] = fmin(lo[i], m->vertices[v][i]), hi[i] = fmax(hi[i], m->vertices[v][i]);
    }
    double d2 = 0.0;
    for (int i = 0; i < 3; ++i) c[i] = 0.5 * (lo[i] + hi[i]), d2 += (hi[i] - lo[i]) * (hi[i] - lo[i]);
    *diag = sqrt(d2);
}

static double wp_sep(const DstBvh *A, const DstBvh *B, const double R[9], const double x[3])
{
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
    DstMeshDistance d;
    dst_bvh_separation(A, I, z, B, R, x, NULL, &d);
    return d.distance;
}

/* one pair: writes its meshes, draws WP_BAND_POSES poses per band, times our separation */
static int band_pair(const char *dir, FILE *list, TgRng *rng, const char *name, DstMesh ma, DstMesh mb)
{
    char pa[1024], pb[1024], pp[1024], err[256];
    snprintf(pa, sizeof pa, "%s/band_%s_a.obj", dir, name);
    snprintf(pb, sizeof pb, "%s/band_%s_b.obj", dir, name);
    snprintf(pp, sizeof pp, "%s/band_%s_poses.txt", dir, name);
    int ok = write_obj(pa, &ma) && write_obj(pb, &mb);
    dst_mesh_destroy(&ma), dst_mesh_destroy(&mb);
    if (!ok) return 0;
    DstMesh ra, rb;
    DstBvh A, B;
    if (dst_mesh_create_from_file(pa, &ra, err, sizeof err) != DST_OK ||
        dst_mesh_create_from_file(pb, &rb, err, sizeof err) != DST_OK || dst_bvh_create(&ra, &A, err, sizeof err) != DST_OK ||
        dst_bvh_create(&rb, &B, err, sizeof err) != DST_OK) {
        fprintf(stderr, "write_pairs: %s\n", err);
        return 0;
    }
    double ca[3], cb[3], da, db;
    wp_box_of(&ra, ca, &da);
    wp_box_of(&rb, cb, &db);
    double size = fmin(da, db);
    FILE *fp = fopen(pp, "w");
    if (fp == NULL) return 0;
    int n_in[WP_BANDS] = {0}, tries = 0;
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0}, rep[WP_REPEAT];
    for (int band = 0; band < WP_BANDS; ++band) {
        while (n_in[band] < WP_BAND_POSES && tries < 100 * WP_BAND_POSES * WP_BANDS) {
            ++tries;
            double k[3], u[3], R[9], x[3], Rcb[3];
            tg_unit(rng, k);
            tg_rot(k, tg_uniform(rng, -3.0, 3.0), R);
            tg_unit(rng, u);
            double frac = exp(tg_uniform(rng, log(wp_band_lo[band]), log(wp_band_hi[band])));
            double c = frac * size, lo = 0.0, hi = 0.5 * (da + db) + c + 1e-3 * size;
            for (int i = 0; i < 3; ++i) Rcb[i] = R[3 * i] * cb[0] + R[3 * i + 1] * cb[1] + R[3 * i + 2] * cb[2];
            for (int it = 0; it < 40 && hi - lo > 1e-3 * c; ++it) {
                double t = 0.5 * (lo + hi);
                for (int i = 0; i < 3; ++i) x[i] = ca[i] - Rcb[i] + t * u[i];
                if (wp_sep(&A, &B, R, x) < c) lo = t;
                else hi = t;
            }
            for (int i = 0; i < 3; ++i) x[i] = ca[i] - Rcb[i] + hi * u[i];
            /* the pose as printed is the pose both sides use */
            char line[1024];
            snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", R[0],
                     R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8], x[0], x[1], x[2]);
            if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &R[0], &R[1], &R[2], &R[3], &R[4],
                       &R[5], &R[6], &R[7], &R[8], &x[0], &x[1], &x[2]) != 12)
                return 0;
            double s = wp_sep(&A, &B, R, x) / size;
            int got = -1;
            for (int b2 = 0; b2 < WP_BANDS; ++b2) {
                if (s >= wp_band_lo[b2] && s < wp_band_hi[b2]) got = b2;
            }
            if (got != band) continue;
            DstMeshDistance d;
            dst_bvh_separation(&A, I, z, &B, R, x, NULL, &d); /* warm-up */
            for (int q = 0; q < WP_REPEAT; ++q) {
                double t = wp_now();
                dst_bvh_separation(&A, I, z, &B, R, x, NULL, &d);
                rep[q] = wp_now() - t;
            }
            fprintf(fp, "%d %s %.6f %.17g\n", band, line, 1e6 * wp_median(rep, WP_REPEAT), d.distance);
            ++n_in[band];
        }
    }
    fclose(fp);
    fprintf(list, "%s %d %d %.17g\n", name, A.n_tris, B.n_tris, size);
    printf("write_pairs: band pair %s: %d + %d triangles, size %.3g m, poses per band %d %d %d %d\n", name, A.n_tris,
           B.n_tris, size, n_in[0], n_in[1], n_in[2], n_in[3]);
    dst_bvh_destroy(&A), dst_bvh_destroy(&B);
    dst_mesh_destroy(&ra), dst_mesh_destroy(&rb);
    return 1;
}

static DstMesh wp_read(const char *path)
{
    DstMesh m;
    char err[256];
    if (dst_mesh_create_from_file(path, &m, err, sizeof err) != DST_OK) fprintf(stderr, "write_pairs: %s\n", err);
    return m;
}

static int band_pairs(const char *dir)
{
    char pl[1024];
    snprintf(pl, sizeof pl, "%s/bands.txt", dir);
    FILE *list = fopen(pl, "w");
    if (list == NULL) return 0;
    TgRng rng = {WP_SEED + 7u};
    double c0[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, plate[3] = {0.4, 0.3, 0.004};
    DstMesh box = mg_box(lo, plate), lb = mg_lblock(0.1);
    int ok = 1;
    ok = ok && band_pair(dir, list, &rng, "torus_sphere_1k", mg_torus(0.5, 0.15, 32, 16), mg_sphere(0.2, c0, 17, 32));
    ok = ok && band_pair(dir, list, &rng, "hand_chest", wp_read("robots/meshes/rarm_link6.obj"),
                         wp_read("robots/meshes/chest_link1.obj"));
    ok = ok && band_pair(dir, list, &rng, "waist_hand", wp_read("robots/meshes/waist.obj"),
                         wp_read("robots/meshes/larm_link6.obj"));
    ok = ok && band_pair(dir, list, &rng, "lblock_noisy_5k", wp_subdivide(&lb, 4), wp_noisy_sphere(&rng, 0.12, 41, 64, 0.03));
    ok = ok && band_pair(dir, list, &rng, "plate_plate_12k", wp_subdivide(&box, 5), wp_subdivide(&box, 5));
    ok = ok && band_pair(dir, list, &rng, "torus_sphere_10k", mg_torus(0.5, 0.15, 100, 50), mg_sphere(0.2, c0, 51, 100));
    ok = ok && band_pair(dir, list, &rng, "statue_8k5_75k", mg_statue(0.3, 0.25, 0.5, 47, 92),
                         mg_statue(0.6, 0.5, 0.9, 137, 274));
    ok = ok && band_pair(dir, list, &rng, "noisy_plate_50k", wp_noisy_sphere(&rng, 0.3, 161, 160, 0.01),
                         wp_subdivide(&box, 6));
    ok = ok && band_pair(dir, list, &rng, "torus_sphere_100k", mg_torus(0.5, 0.15, 320, 160), mg_sphere(0.2, c0, 161, 320));
    dst_mesh_destroy(&box), dst_mesh_destroy(&lb);
    fclose(list);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "bands") != 0)) {
        fprintf(stderr, "usage: write_pairs DIR [bands]\n");
        return 2;
    }
    if (argc == 3) return band_pairs(argv[1]) ? 0 : 1;
    TgRng rng = {WP_SEED};
    if (!one_size(argv[1], &rng, 32, 16, 17, 32, "1k") || !one_size(argv[1], &rng, 100, 50, 51, 100, "10k") ||
        !one_size(argv[1], &rng, 320, 160, 161, 320, "100k")) {
        fprintf(stderr, "write_pairs: failed\n");
        return 1;
    }
    return 0;
}
