/* env_meshgen.c — generates the environment meshes of the scenarios: two statue-like
 * figures of about 100k triangles (statue_left.stl, statue_right.stl) and a cup of about
 * 1k triangles with a real hollow (cup.stl), as binary STL in metres, z up, origin at the
 * centre of the base.
 *
 * usage: env_meshgen OUTDIR      (make env-meshes runs it with OUTDIR = scenarios/meshes)
 *
 * Every shape is a "sculpted lathe": a stack of K rings of N vertices each, closed by a
 * pole vertex before the first ring and one after the last, so a shape has exactly
 * 2 N K triangles (N-triangle fans at both poles, 2 N per band). Ring k lies in the plane
 * z = z_k with a star-shaped cross-section r_k(phi) about the z axis.
 *  - A statue's rings rise strictly in z, so bands never meet except at shared rings and
 *    the surface cannot self-intersect. The cross-section at height z is a superellipse
 *    (half-widths a, b along x, y, exponent n: r = (|cos/a|^n + |sin/b|^n)^(-1/n))
 *    interpolated between profile keyframes with a smoothstep (zero slope at each
 *    keyframe, as a lathe-turned profile), merged with "limb" lobes (arms, a forearm held
 *    forward, elbows) by a p-norm smooth maximum; a lobe is a Gaussian bump in phi whose
 *    reach follows a superellipse in z, so limbs have rounded ends and concave notches
 *    where they join the body. Rings are spaced evenly along the arc length of the
 *    profile, so steps (the pedestal) get as many rings as slopes.
 *  - The cup is a true surface of revolution of a closed profile traversed bottom centre
 *    -> outer wall -> rim -> inner wall -> inner bottom centre, so the solid between the
 *    walls is hollow inside.
 * Orientation: with phi counter-clockwise seen from +z, the triangles (ring k j, k j+1,
 * k+1 j+1) and (k j, k+1 j+1, k+1 j) face away from the solid whenever the profile is
 * traversed with the solid on the same side, which both profiles do.
 * After writing each file the tool reads it back through dst_mesh (binary STL stores
 * float32, vertices welded by equality) and refuses it (exit 1) unless it is closed,
 * consistently and outward oriented (positive volume), free of degenerate triangles and
 * unused vertices, and has the triangle count it was built with. Output is deterministic:
 * no randomness, fixed formats, a fixed 80-byte header. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dst_mesh.h"

/* longitudes and rings of a statue: 2 * 256 * 196 = 100352 triangles */
#define STATUE_N_LON 256
#define STATUE_N_RINGS 196
/* longitudes of the cup: 2 * 28 * (rings of CUP_PROFILE) triangles */
#define CUP_N_LON 28
/* exponent of the p-norm smooth maximum merging body and limbs (larger: sharper joints) */
#define LIMB_BLEND_P 8.0
/* exponent of a limb's end rounding over its height (2: elliptic, larger: blunter) */
#define LIMB_END_EXP 4.0
/* height of a statue's top pole above its last ring, metres */
#define STATUE_CROWN 0.006

/* A keyframe of a statue profile: cross-section at height z. */
typedef struct Key {
    double z;        /* metres above the base */
    double a, b;     /* half-widths along x (front) and y (left), metres */
    double n;        /* superellipse exponent: 2 ellipse, larger squarer */
} Key;

/* A limb lobe: reach (distance from the axis to its far side) at angle phi0, over heights
 * [z0, z1] with a half-circle reach profile, angular half-width w (rad). */
typedef struct Limb {
    double phi0;     /* direction, rad from +x towards +y */
    double z0, z1;   /* vertical extent, metres */
    double reach;    /* far side at mid-height, metres from the axis */
    double w;        /* Gaussian angular half-width, rad */
    double bend;     /* reach gained at mid-height over the ends (elbows out), metres */
} Limb;

typedef struct Statue {
    const char *name;
    const Key *keys;
    int n_keys;
    const Limb *limbs;
    int n_limbs;
} Statue;

/* Left statue: a robed figure on a square plinth, arms at its sides, the right forearm
 * held forward (towards +x) at waist height. */
static const Key LEFT_KEYS[] = {
    {0.000, 0.250, 0.250, 10.0}, {0.040, 0.250, 0.250, 10.0}, {0.060, 0.225, 0.225, 10.0},
    {0.250, 0.215, 0.215, 10.0}, {0.275, 0.240, 0.240, 10.0}, {0.310, 0.240, 0.240, 10.0},
    {0.320, 0.130, 0.160, 2.5},  {0.500, 0.120, 0.150, 2.2},  {0.750, 0.095, 0.125, 2.0},
    {1.000, 0.110, 0.155, 2.2},  {1.150, 0.085, 0.125, 2.0},  {1.350, 0.110, 0.165, 2.3},
    {1.450, 0.100, 0.185, 2.5},  {1.500, 0.070, 0.110, 2.0},  {1.550, 0.045, 0.045, 2.0},
    {1.600, 0.050, 0.050, 2.0},  {1.660, 0.090, 0.080, 2.0},  {1.720, 0.095, 0.085, 2.0},
    {1.780, 0.070, 0.060, 2.0},  {1.805, 0.030, 0.026, 2.0},
};
static const Limb LEFT_LIMBS[] = {
    {+1.5707963, 0.980, 1.470, 0.235, 0.17, 0.000},  /* left arm, hanging */
    {-1.5707963, 1.090, 1.470, 0.230, 0.17, 0.010},  /* right upper arm */
    {-0.4500000, 1.080, 1.160, 0.340, 0.12, 0.000},  /* right forearm held forward */
};

/* Right statue: a broader figure on a round pedestal, hands on the hips with the elbows
 * out, a tablet held against the chest (towards +x). */
static const Key RIGHT_KEYS[] = {
    {0.000, 0.245, 0.245, 2.0},  {0.050, 0.245, 0.245, 2.0},  {0.080, 0.215, 0.215, 2.0},
    {0.200, 0.200, 0.200, 2.0},  {0.240, 0.230, 0.230, 2.0},  {0.280, 0.230, 0.230, 2.0},
    {0.290, 0.150, 0.170, 3.0},  {0.400, 0.120, 0.145, 2.0},  {0.600, 0.085, 0.150, 2.0},
    {0.850, 0.095, 0.150, 2.0},  {0.980, 0.120, 0.170, 2.4},  {1.120, 0.100, 0.140, 2.0},
    {1.300, 0.125, 0.175, 2.4},  {1.420, 0.110, 0.200, 3.0},  {1.470, 0.080, 0.120, 2.0},
    {1.520, 0.050, 0.050, 2.0},  {1.570, 0.055, 0.052, 2.0},  {1.640, 0.100, 0.090, 2.0},
    {1.700, 0.105, 0.092, 2.0},  {1.760, 0.085, 0.075, 2.0},  {1.800, 0.045, 0.040, 2.0},
    {1.815, 0.020, 0.018, 2.0},
};
static const Limb RIGHT_LIMBS[] = {
    {+1.5707963, 1.000, 1.440, 0.215, 0.22, 0.035},  /* left arm, elbow out */
    {-1.5707963, 1.000, 1.440, 0.215, 0.22, 0.035},  /* right arm, elbow out */
    {+0.0000000, 1.180, 1.400, 0.185, 0.45, 0.000},  /* tablet against the chest */
};

/* ---- the generic ring mesh ----------------------------------------------------------- */

/* A shape of K rings of N vertices plus two poles: vertex 0 is the first pole, 1 + k N + j
 * is ring k longitude j, 1 + K N the last pole. */
typedef struct RingMesh {
    int n_lon, n_rings;
    int n_vertices, n_triangles;
    double (*v)[3];
    int (*t)[3];
} RingMesh;

static int ring_mesh_alloc(RingMesh *m, int n_lon, int n_rings)
{
    m->n_lon = n_lon;
    m->n_rings = n_rings;
    m->n_vertices = n_lon * n_rings + 2;
    m->n_triangles = 2 * n_lon * n_rings;
    m->v = calloc((size_t)m->n_vertices, sizeof *m->v);
    m->t = calloc((size_t)m->n_triangles, sizeof *m->t);
    if (m->v == NULL || m->t == NULL) {
        free(m->v);
        free(m->t);
        return 1;
    }
    return 0;
}

static void ring_mesh_free(RingMesh *m)
{
    free(m->v);
    free(m->t);
    m->v = NULL;
    m->t = NULL;
}

/* the triangles: fans at both poles and two per quad, outward as argued at the top. */
static void ring_mesh_triangles(RingMesh *m)
{
    const int N = m->n_lon, K = m->n_rings, last = 1 + K * N;
    int *t = &m->t[0][0];
#define RV(k, j) (1 + (k) * N + ((j) % N))
    for (int j = 0; j < N; ++j) {
        *t++ = 0;
        *t++ = RV(0, j + 1);
        *t++ = RV(0, j);
    }
    for (int k = 0; k + 1 < K; ++k) {
        for (int j = 0; j < N; ++j) {
            int a = RV(k, j), b = RV(k, j + 1), c = RV(k + 1, j + 1), d = RV(k + 1, j);
            *t++ = a; *t++ = b; *t++ = c;
            *t++ = a; *t++ = c; *t++ = d;
        }
    }
    for (int j = 0; j < N; ++j) {
        *t++ = RV(K - 1, j);
        *t++ = RV(K - 1, j + 1);
        *t++ = last;
    }
#undef RV
}

/* ---- statues --------------------------------------------------------------------------- */

static double smoothstep(double t)
{
    t = fmin(1.0, fmax(0.0, t));
    return t * t * (3.0 - 2.0 * t);
}

/* superellipse radius of half-widths a, b and exponent n in direction phi. */
static double superellipse(double a, double b, double n, double phi)
{
    double c = fabs(cos(phi)) / a, s = fabs(sin(phi)) / b;
    return pow(pow(c, n) + pow(s, n), -1.0 / n);
}

/* angle difference wrapped into [-pi, pi]. */
static double wrap(double d)
{
    const double pi = acos(-1.0);
    while (d > pi) d -= 2.0 * pi;
    while (d < -pi) d += 2.0 * pi;
    return d;
}

/* radius of the statue's cross-section at height z (between keyframes i and i + 1,
 * fraction u of the way) in direction phi: body superellipse, limbs merged by a p-norm. */
static double statue_radius(const Statue *st, int i, double u, double z, double phi)
{
    const Key *k0 = &st->keys[i], *k1 = &st->keys[i + 1];
    double w = smoothstep(u);
    double a = k0->a + (k1->a - k0->a) * w, b = k0->b + (k1->b - k0->b) * w;
    double n = k0->n + (k1->n - k0->n) * w;
    double r = superellipse(a, b, n, phi);
    double acc = pow(r, LIMB_BLEND_P);
    for (int l = 0; l < st->n_limbs; ++l) {
        const Limb *lb = &st->limbs[l];
        if (z <= lb->z0 || z >= lb->z1) continue;
        /* reach over height: a superellipse of exponent LIMB_END_EXP (flat along the
         * limb, rounded ends) plus the elbow bend */
        double h = 2.0 * (z - lb->z0) / (lb->z1 - lb->z0) - 1.0;   /* -1 .. 1 */
        double round = pow(1.0 - pow(fabs(h), LIMB_END_EXP), 1.0 / LIMB_END_EXP);
        double reach = (lb->reach + lb->bend * (1.0 - h * h)) * round;
        double d = wrap(phi - lb->phi0) / lb->w;
        double lobe = reach * exp(-d * d);
        acc += pow(lobe, LIMB_BLEND_P);
    }
    return pow(acc, 1.0 / LIMB_BLEND_P);
}

/* rings evenly spaced along the arc length of the keyframe polyline in (mean radius, z). */
static int make_statue(const Statue *st, RingMesh *m)
{
    const int N = STATUE_N_LON, K = STATUE_N_RINGS, nk = st->n_keys;
    const double pi = acos(-1.0);
    double cum[64];
    if (nk > 64 || ring_mesh_alloc(m, N, K) != 0) return 1;
    cum[0] = 0.0;
    for (int i = 1; i < nk; ++i) {
        double dr = 0.5 * ((st->keys[i].a + st->keys[i].b) - (st->keys[i - 1].a + st->keys[i - 1].b));
        double dz = st->keys[i].z - st->keys[i - 1].z;
        cum[i] = cum[i - 1] + sqrt(dr * dr + dz * dz);
    }
    /* poles: the base centre and a crown just above the top keyframe */
    m->v[0][0] = m->v[0][1] = m->v[0][2] = 0.0;
    m->v[1 + K * N][0] = m->v[1 + K * N][1] = 0.0;
    m->v[1 + K * N][2] = st->keys[nk - 1].z + STATUE_CROWN;
    int seg = 0;
    for (int k = 0; k < K; ++k) {
        double s = cum[nk - 1] * k / (K - 1);
        while (seg + 2 < nk && s > cum[seg + 1]) ++seg;
        double u = (s - cum[seg]) / (cum[seg + 1] - cum[seg]);
        u = fmin(1.0, fmax(0.0, u));
        double z = st->keys[seg].z + (st->keys[seg + 1].z - st->keys[seg].z) * u;
        for (int j = 0; j < N; ++j) {
            double phi = 2.0 * pi * j / N;
            double r = statue_radius(st, seg, u, z, phi);
            double *p = m->v[1 + k * N + j];
            p[0] = r * cos(phi);
            p[1] = r * sin(phi);
            p[2] = z;
        }
    }
    ring_mesh_triangles(m);
    return 0;
}

/* ---- the cup --------------------------------------------------------------------------- */

/* profile (radius, z) in metres from the outer bottom to the inner bottom, both poles on
 * the axis excluded: outer diameter 0.080 at the rim, 0.074 at the foot, height 0.100,
 * wall 0.004, bottom 0.006 thick. */
static const double CUP_PROFILE[][2] = {
    {0.0180, 0.0000}, {0.0330, 0.0000}, {0.0362, 0.0008}, {0.0370, 0.0030},
    {0.0374, 0.0100}, {0.0381, 0.0300}, {0.0388, 0.0500}, {0.0394, 0.0700},
    {0.0399, 0.0900}, {0.0400, 0.0975}, {0.0393, 0.0995}, {0.0380, 0.1000},
    {0.0367, 0.0995}, {0.0360, 0.0975}, {0.0359, 0.0900}, {0.0354, 0.0700},
    {0.0348, 0.0500}, {0.0341, 0.0300}, {0.0334, 0.0120}, {0.0325, 0.0075},
    {0.0300, 0.0060}, {0.0150, 0.0060},
};
#define CUP_INNER_BOTTOM 0.0060

static int make_cup(RingMesh *m)
{
    const int N = CUP_N_LON, K = (int)(sizeof CUP_PROFILE / sizeof CUP_PROFILE[0]);
    const double pi = acos(-1.0);
    if (ring_mesh_alloc(m, N, K) != 0) return 1;
    m->v[0][0] = m->v[0][1] = m->v[0][2] = 0.0;
    m->v[1 + K * N][0] = m->v[1 + K * N][1] = 0.0;
    m->v[1 + K * N][2] = CUP_INNER_BOTTOM;
    for (int k = 0; k < K; ++k) {
        for (int j = 0; j < N; ++j) {
            double phi = 2.0 * pi * j / N, *p = m->v[1 + k * N + j];
            p[0] = CUP_PROFILE[k][0] * cos(phi);
            p[1] = CUP_PROFILE[k][0] * sin(phi);
            p[2] = CUP_PROFILE[k][1];
        }
    }
    ring_mesh_triangles(m);
    return 0;
}

/* ---- binary STL ----------------------------------------------------------------------- */

static void put_u32(unsigned char *b, uint32_t x)
{
    b[0] = (unsigned char)(x & 0xff);
    b[1] = (unsigned char)((x >> 8) & 0xff);
    b[2] = (unsigned char)((x >> 16) & 0xff);
    b[3] = (unsigned char)((x >> 24) & 0xff);
}

static void put_f32(unsigned char *b, double x)
{
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    put_u32(b, u);
}

/* writes binary STL (little-endian, 80-byte header, 50 bytes per facet with its unit
 * normal). Returns 0 on success. */
static int write_stl(const RingMesh *m, const char *path, const char *what)
{
    unsigned char head[84], rec[50];
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "env_meshgen: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    memset(head, ' ', 80);
    {
        char text[81];
        int len = snprintf(text, sizeof text, "hrpplan env_meshgen: %s, metres, z up", what);
        memcpy(head, text, (size_t)(len < 80 ? len : 80));
    }
    put_u32(head + 80, (uint32_t)m->n_triangles);
    int bad = fwrite(head, 1, sizeof head, f) != sizeof head;
    for (int t = 0; t < m->n_triangles && !bad; ++t) {
        const double *a = m->v[m->t[t][0]], *b = m->v[m->t[t][1]], *c = m->v[m->t[t][2]];
        double e1[3], e2[3], n[3], len;
        for (int i = 0; i < 3; ++i) {
            e1[i] = b[i] - a[i];
            e2[i] = c[i] - a[i];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < 3; ++i) n[i] = len > 0.0 ? n[i] / len : 0.0;
        for (int i = 0; i < 3; ++i) {
            put_f32(rec + 4 * i, n[i]);
            put_f32(rec + 12 + 4 * i, a[i]);
            put_f32(rec + 24 + 4 * i, b[i]);
            put_f32(rec + 36 + 4 * i, c[i]);
        }
        rec[48] = rec[49] = 0;
        bad = fwrite(rec, 1, sizeof rec, f) != sizeof rec;
    }
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "env_meshgen: error writing %s\n", path);
        return 1;
    }
    return 0;
}

/* reads the file back and checks it; prints one summary line. Returns 0 if it is usable. */
static int verify(const char *path, int n_triangles)
{
    DstMesh m;
    DstMeshReport rep;
    char err[512];
    if (dst_mesh_create_from_file(path, &m, err, sizeof err) != DST_OK) {
        fprintf(stderr, "env_meshgen: %s\n", err);
        return 1;
    }
    int ok = dst_mesh_validate(&m, &rep) == DST_OK && rep.oriented && rep.volume > 0.0 &&
             rep.n_degenerate == 0 && rep.n_unused_vertices == 0 && m.n_triangles == n_triangles;
    if (!ok) {
        fprintf(stderr, "env_meshgen: %s: not a closed outward mesh of %d triangles (read %d; "
                "open %d, non-manifold %d, inconsistent %d, degenerate %d, unused %d, "
                "volume %g)\n", path, n_triangles, m.n_triangles, rep.n_open_edges,
                rep.n_nonmanifold_edges, rep.n_inconsistent_edges, rep.n_degenerate,
                rep.n_unused_vertices, rep.volume);
    } else {
        printf("%-40s %6d triangles  volume %.6f m^3  bbox [%.3f, %.3f, %.3f] .. "
               "[%.3f, %.3f, %.3f]\n", path, m.n_triangles, rep.volume, rep.bbox_min[0],
               rep.bbox_min[1], rep.bbox_min[2], rep.bbox_max[0], rep.bbox_max[1],
               rep.bbox_max[2]);
    }
    dst_mesh_destroy(&m);
    return ok ? 0 : 1;
}

static int emit(const RingMesh *m, const char *dir, const char *file, const char *what)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (write_stl(m, path, what) != 0) return 1;
    return verify(path, m->n_triangles);
}

int main(int argc, char **argv)
{
    const Statue statues[2] = {
        {"statue_left", LEFT_KEYS, (int)(sizeof LEFT_KEYS / sizeof LEFT_KEYS[0]), LEFT_LIMBS,
         (int)(sizeof LEFT_LIMBS / sizeof LEFT_LIMBS[0])},
        {"statue_right", RIGHT_KEYS, (int)(sizeof RIGHT_KEYS / sizeof RIGHT_KEYS[0]),
         RIGHT_LIMBS, (int)(sizeof RIGHT_LIMBS / sizeof RIGHT_LIMBS[0])},
    };
    int failed = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: env_meshgen OUTDIR   (writes OUTDIR/statue_left.stl, "
                "OUTDIR/statue_right.stl, OUTDIR/cup.stl)\n");
        return 2;
    }
    if (mkdir(argv[1], 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "env_meshgen: cannot create %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    for (int s = 0; s < 2; ++s) {
        RingMesh m;
        char file[64];
        if (make_statue(&statues[s], &m) != 0) {
            fprintf(stderr, "env_meshgen: out of memory\n");
            return 1;
        }
        snprintf(file, sizeof file, "%s.stl", statues[s].name);
        failed |= emit(&m, argv[1], file, statues[s].name);
        ring_mesh_free(&m);
    }
    {
        RingMesh m;
        if (make_cup(&m) != 0) {
            fprintf(stderr, "env_meshgen: out of memory\n");
            return 1;
        }
        failed |= emit(&m, argv[1], "cup.stl", "cup");
        ring_mesh_free(&m);
    }
    return failed ? 1 : 0;
}
