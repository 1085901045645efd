/* hrp2_meshgen.c — generates the HRP-2-style robot description: one closed, outward-
 * oriented triangle mesh per link (robots/meshes/<link>.obj) and robots/hrp2.yaml.
 *
 * usage: hrp2_meshgen OUTDIR      (make meshes runs it with OUTDIR = robots)
 *
 * Every link shape is a tapered superellipsoid (Barr 1981: x = a c(eta)^e1 c(w)^e2,
 * y = b c(eta)^e1 s(w)^e2, z = c s(eta)^e1 with signed powers), sampled on a latitude-
 * longitude grid with one vertex per pole, so that a shape of L longitudes and R rings has
 * exactly 2 L R triangles; L and R are chosen so that the counts match thesis Table 6.2
 * (head 893, chest 332, waist 1849, forearm 783, elbow 294, hand 3482, hip 894, knee 448)
 * to the nearest even number that factors well (a closed triangle mesh has an even count).
 * After writing a mesh the tool reads it back through dst_mesh (so every later number is
 * computed from the coordinates as written), checks that it is closed, consistently and
 * outward oriented, fits the enclosing capsule and the enclosing ellipsoid (Khachiyan's
 * minimum-volume ellipsoid, then scaled to enclose), computes the mass properties of the
 * solid (uniform density, scaled to the link's estimated mass) and writes the YAML. The
 * capsule and the ellipsoid printed in the YAML are verified against every vertex after
 * rounding to the printed digits. Output is deterministic: no randomness, fixed formats. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dst_mesh.h"

#define N_LINKS 31
#define N_JOINTS 30

/* printed precision of coordinates (metres) and the extra radius covering the rounding
 * of the capsule endpoints (half a unit of the last printed digit times sqrt(3)). */
#define PRINT_UNIT 1e-6
#define CAPSULE_ROUNDING_MARGIN (2.0 * PRINT_UNIT)
/* the same for the ellipsoid: added to every semi-axis before rounding it up, metres */
#define ELLIPSOID_ROUNDING_MARGIN (2.0 * PRINT_UNIT)
/* Khachiyan's iteration stops when the enclosing ellipsoid scaled by (1 + tol) is within
 * this of the minimum-volume one (the final uniform scaling restores enclosure exactly) */
#define MVEE_TOL 1e-3
#define MVEE_MAX_ITER 200000
/* fitted ellipsoid angles within this of zero are printed as 0 (rad): the rounding noise
 * of the iteration on symmetric shapes; the uniform scaling afterwards keeps enclosure */
#define ELLIPSOID_SNAP_RAD 1e-3

/* One link: its shape (in the link frame) and estimated mass. */
typedef struct LinkSpec {
    const char *name;
    const char *parent;        /* NULL for the root */
    const char *joint;         /* NULL for the root */
    double origin[3];          /* joint frame in the parent frame at q = 0, metres */
    int origin_estimate;       /* 1 when the origin is not a public HRP-2 figure */
    int n_lon, n_rings;        /* triangles = 2 n_lon n_rings */
    double center[3];          /* shape centre in the link frame */
    int pole;                  /* link axis (0 x, 1 y, 2 z) through the poles */
    double half[3];            /* semi-axes along link x, y, z */
    double e_ns, e_ew;         /* superellipsoid exponents (1: ellipsoid, -> 0: box) */
    double taper;              /* cross-section scale 1 + taper * w, w in [-1, 1] on the pole axis */
    double mass;               /* kg, estimate */
    const char *role;          /* the thesis Table 6.2 name and count, or NULL */
} LinkSpec;

typedef struct JointSpec {
    const char *name;
    const char *what;          /* comment */
    double axis[3];
    double lower, upper;       /* rad */
    double vmax;               /* rad/s, estimate */
    double effort;             /* N m, estimate (docs/robots.md) */
    double initial;            /* half-sitting, rad */
} JointSpec;

/* Right leg, torso, head, right arm; the left side is mirrored from the right. */
static const JointSpec RIGHT_LEG_JOINTS[6] = {
    {"RLEG_JOINT0", "right hip yaw", {0, 0, 1}, -0.785, 0.524, 3.7, 60.0, 0.0},
    {"RLEG_JOINT1", "right hip roll", {1, 0, 0}, -0.611, 0.349, 3.2, 150.0, 0.0},
    {"RLEG_JOINT2", "right hip pitch", {0, 1, 0}, -2.182, 0.733, 4.4, 200.0, -0.4538},
    {"RLEG_JOINT3", "right knee", {0, 1, 0}, -0.035, 2.618, 3.9, 200.0, 0.8727},
    {"RLEG_JOINT4", "right ankle pitch", {0, 1, 0}, -1.309, 0.733, 4.4, 150.0, -0.4189},
    {"RLEG_JOINT5", "right ankle roll", {1, 0, 0}, -0.349, 0.611, 3.2, 100.0, 0.0},
};
static const JointSpec TORSO_JOINTS[4] = {
    {"CHEST_JOINT0", "chest yaw", {0, 0, 1}, -0.785, 0.785, 3.2, 60.0, 0.0},
    {"CHEST_JOINT1", "chest pitch", {0, 1, 0}, -0.087, 1.047, 3.2, 150.0, 0.0},
    {"HEAD_JOINT0", "head yaw", {0, 0, 1}, -0.785, 0.785, 5.2, 10.0, 0.0},
    {"HEAD_JOINT1", "head pitch", {0, 1, 0}, -0.524, 0.785, 5.2, 10.0, 0.0},
};
static const JointSpec RIGHT_ARM_JOINTS[7] = {
    {"RARM_JOINT0", "right shoulder pitch", {0, 1, 0}, -3.142, 1.047, 3.9, 60.0, 0.2618},
    {"RARM_JOINT1", "right shoulder roll", {1, 0, 0}, -1.658, 0.175, 3.9, 60.0, -0.1745},
    {"RARM_JOINT2", "right shoulder yaw", {0, 0, 1}, -1.606, 1.606, 4.4, 30.0, 0.0},
    {"RARM_JOINT3", "right elbow", {0, 1, 0}, -2.391, 0.035, 4.4, 45.0, -0.5236},
    {"RARM_JOINT4", "right wrist yaw", {0, 0, 1}, -1.606, 1.606, 5.2, 15.0, 0.0},
    {"RARM_JOINT5", "right wrist pitch", {0, 1, 0}, -1.606, 1.606, 5.2, 15.0, 0.0},
    {"RARM_JOINT6", "right hand (gripper)", {0, 1, 0}, -1.0, 1.0, 5.2, 5.0, 0.1},
};

/* name, parent, joint, origin, origin estimate?, L, R, centre, pole, half, e_ns, e_ew,
 * taper, mass, role */
static const LinkSpec WAIST =
    {"WAIST", NULL, NULL, {0, 0, 0}, 0, 42, 22, {-0.005, 0, 0.10}, 2, {0.105, 0.135, 0.15},
     0.45, 0.55, 0.0, 9.668, "waist (Table 6.2: 1849)"};
static const LinkSpec RIGHT_LEG[6] = {
    {"RLEG_LINK0", "WAIST", "RLEG_JOINT0", {0, -0.06, 0}, 0, 16, 8, {0, 0, 0.02}, 2,
     {0.05, 0.045, 0.045}, 0.6, 1.0, 0.0, 0.9, NULL},
    {"RLEG_LINK1", "RLEG_LINK0", "RLEG_JOINT1", {0, 0, 0}, 0, 16, 10, {0, 0, 0}, 0,
     {0.065, 0.05, 0.05}, 0.7, 1.0, 0.0, 1.0, NULL},
    {"RLEG_LINK2", "RLEG_LINK1", "RLEG_JOINT2", {0, 0, 0}, 0, 28, 16, {0, -0.02, -0.15}, 2,
     {0.06, 0.055, 0.2}, 0.6, 0.9, 0.15, 3.2, "hip (Table 6.2: 894)"},
    {"RLEG_LINK3", "RLEG_LINK2", "RLEG_JOINT3", {0, -0.035, -0.3}, 0, 16, 14, {0, 0, -0.145}, 2,
     {0.06, 0.055, 0.19}, 0.6, 0.9, 0.2, 2.3, "knee (Table 6.2: 448)"},
    {"RLEG_LINK4", "RLEG_LINK3", "RLEG_JOINT4", {0, 0, -0.3}, 0, 12, 10, {0, 0, 0}, 1,
     {0.05, 0.055, 0.045}, 0.7, 1.0, 0.0, 0.8, NULL},
    {"RLEG_LINK5", "RLEG_LINK4", "RLEG_JOINT5", {0, 0, 0}, 0, 24, 12, {0.012, -0.008, -0.07}, 2,
     {0.1086, 0.069, 0.035}, 0.25, 0.25, 0.0, 1.6, NULL},
};
static const LinkSpec TORSO[4] = {
    {"CHEST_LINK0", "WAIST", "CHEST_JOINT0", {0.032, 0, 0.3507}, 1, 12, 10, {0, 0, 0}, 2,
     {0.07, 0.08, 0.05}, 0.6, 1.0, 0.0, 0.8, NULL},
    {"CHEST_LINK1", "CHEST_LINK0", "CHEST_JOINT1", {0, 0, 0}, 1, 15, 11, {-0.03, 0, 0.13}, 2,
     {0.12, 0.145, 0.15}, 0.5, 0.6, 0.0, 13.5, "chest (Table 6.2: 332)"},
    {"HEAD_LINK0", "CHEST_LINK1", "HEAD_JOINT0", {-0.007, 0, 0.2973}, 1, 12, 8, {0, 0, -0.035}, 2,
     {0.035, 0.035, 0.045}, 1.0, 1.0, 0.0, 0.4, NULL},
    {"HEAD_LINK1", "HEAD_LINK0", "HEAD_JOINT1", {0, 0, 0}, 1, 28, 16, {0.015, 0, 0.095}, 2,
     {0.105, 0.085, 0.10}, 0.75, 0.8, 0.0, 1.9, "head (Table 6.2: 893)"},
};
static const LinkSpec RIGHT_ARM[7] = {
    {"RARM_LINK0", "CHEST_LINK1", "RARM_JOINT0", {0.008, -0.25, 0.1842}, 1, 16, 10,
     {0, 0.035, 0}, 1, {0.05, 0.07, 0.05}, 0.7, 1.0, 0.0, 0.9, NULL},
    {"RARM_LINK1", "RARM_LINK0", "RARM_JOINT1", {0, 0, 0}, 0, 12, 10, {0, 0, 0}, 0,
     {0.05, 0.05, 0.05}, 0.8, 1.0, 0.0, 0.7, NULL},
    {"RARM_LINK2", "RARM_LINK1", "RARM_JOINT2", {0, 0, 0}, 0, 20, 14, {0, 0, -0.12}, 2,
     {0.05, 0.05, 0.155}, 0.7, 1.0, 0.1, 1.4, NULL},
    {"RARM_LINK3", "RARM_LINK2", "RARM_JOINT3", {0, 0, -0.25}, 0, 21, 7, {0, 0, 0}, 1,
     {0.045, 0.05, 0.045}, 0.8, 1.0, 0.0, 0.6, "elbow (Table 6.2: 294)"},
    {"RARM_LINK4", "RARM_LINK3", "RARM_JOINT4", {0, 0, 0}, 0, 28, 14, {0, 0, -0.125}, 2,
     {0.045, 0.045, 0.14}, 0.7, 1.0, 0.15, 0.9, "forearm (Table 6.2: 783)"},
    {"RARM_LINK5", "RARM_LINK4", "RARM_JOINT5", {0, 0, -0.25}, 0, 12, 10, {0, 0, 0}, 1,
     {0.04, 0.04, 0.035}, 0.8, 1.0, 0.0, 0.4, NULL},
    {"RARM_LINK6", "RARM_LINK5", "RARM_JOINT6", {0, 0, -0.035}, 1, 60, 29, {0, 0, -0.07}, 2,
     {0.035, 0.05, 0.085}, 0.5, 0.6, 0.2, 0.6, "hand (Table 6.2: 3482)"},
};

/* A link as generated: spec (mirrored for the left side) plus computed properties. */
typedef struct Link {
    LinkSpec s;
    char name[32], parent[32], joint[32], mesh[64];
    int mirrored;              /* 1: left side, made from the right by y -> -y */
    int n_triangles;
    double com[3], inertia[9];
    double p0[3], p1[3], radius;
    double ell_center[3], ell_rpy[3], ell_radii[3];  /* enclosing ellipsoid, as printed */
} Link;

typedef struct Joint {
    JointSpec s;
    char name[32], what[48];
} Joint;

/* "RLEG_x" -> "LLEG_x", "RARM_x" -> "LARM_x", "right" -> "left". */
static void mirror_name(const char *in, char *out, size_t size)
{
    snprintf(out, size, "%s", in);
    if (strncmp(out, "RLEG_", 5) == 0 || strncmp(out, "RARM_", 5) == 0) out[0] = 'L';
}

static void lower_copy(const char *in, char *out, size_t size)
{
    size_t i = 0;
    for (; in[i] != '\0' && i + 1 < size; ++i) {
        out[i] = (in[i] >= 'A' && in[i] <= 'Z') ? (char)(in[i] - 'A' + 'a') : in[i];
    }
    out[i] = '\0';
}

static Link make_link(const LinkSpec *s, int mirrored)
{
    Link l;
    char low[32];
    memset(&l, 0, sizeof l);
    l.s = *s;
    l.mirrored = mirrored;
    if (mirrored) {
        mirror_name(s->name, l.name, sizeof l.name);
        mirror_name(s->parent ? s->parent : "", l.parent, sizeof l.parent);
        mirror_name(s->joint ? s->joint : "", l.joint, sizeof l.joint);
        l.s.origin[1] = -s->origin[1];
        l.s.center[1] = -s->center[1];
    } else {
        snprintf(l.name, sizeof l.name, "%s", s->name);
        snprintf(l.parent, sizeof l.parent, "%s", s->parent ? s->parent : "");
        snprintf(l.joint, sizeof l.joint, "%s", s->joint ? s->joint : "");
    }
    lower_copy(l.name, low, sizeof low);
    snprintf(l.mesh, sizeof l.mesh, "meshes/%s.obj", low);
    return l;
}

/* left joints mirror the right across the sagittal (xz) plane: rotations about x and z
 * change sense, so their limits become [-upper, -lower] and the initial value -q;
 * rotations about y keep theirs. */
static Joint make_joint(const JointSpec *s, int mirrored)
{
    Joint j;
    memset(&j, 0, sizeof j);
    j.s = *s;
    if (!mirrored) {
        snprintf(j.name, sizeof j.name, "%s", s->name);
        snprintf(j.what, sizeof j.what, "%s", s->what);
        return j;
    }
    mirror_name(s->name, j.name, sizeof j.name);
    snprintf(j.what, sizeof j.what, "left%s", strncmp(s->what, "right", 5) == 0 ? s->what + 5 : s->what);
    if (s->axis[1] == 0.0) {
        j.s.lower = -s->upper;
        j.s.upper = -s->lower;
        j.s.initial = s->initial == 0.0 ? 0.0 : -s->initial;
    }
    return j;
}

/* ---- mesh generation ---------------------------------------------------------------- */

static double spow(double x, double e)
{
    double a = pow(fabs(x), e);
    return x < 0.0 ? -a : a;
}

/* writes the link's superellipsoid as OBJ. Returns 0 on success. */
static int write_mesh(const Link *l, const char *path)
{
    const LinkSpec *s = &l->s;
    const int L = s->n_lon, R = s->n_rings;
    const int nv = L * R + 2, nt = 2 * L * R;
    const double pi = acos(-1.0);
    /* shape axes (u, v, w) -> link axes: a cyclic permutation keeps handedness */
    const int map[3][3] = {{1, 2, 0}, {2, 0, 1}, {0, 1, 2}};  /* link axis of u, v, w */
    const int *m = map[s->pole];
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "hrp2_meshgen: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(f, "# %s: HRP-2-style link mesh for hrpplan%s%s\n", l->name, s->role ? ", " : "",
            s->role ? s->role : "");
    fprintf(f, "# generated by tools/meshgen/hrp2_meshgen.c (make meshes); link frame, metres\n");
    fprintf(f, "# %d vertices, %d triangles, closed, counter-clockwise seen from outside\n",
            nv, nt);
    /* vertex k: 0 south pole, 1 + r L + j ring r longitude j, nv - 1 north pole */
    for (int k = 0; k < nv; ++k) {
        double uvw[3], p[3];
        if (k == 0 || k == nv - 1) {
            uvw[0] = uvw[1] = 0.0;
            uvw[2] = k == 0 ? -1.0 : 1.0;
        } else {
            int r = (k - 1) / L, j = (k - 1) % L;
            double eta = -pi / 2 + pi * (r + 1) / (R + 1), om = 2 * pi * j / L;
            double ce = spow(cos(eta), s->e_ns);
            uvw[0] = ce * spow(cos(om), s->e_ew);
            uvw[1] = ce * spow(sin(om), s->e_ew);
            uvw[2] = spow(sin(eta), s->e_ns);
        }
        double sc = 1.0 + s->taper * uvw[2];
        uvw[0] *= sc;
        uvw[1] *= sc;
        for (int c = 0; c < 3; ++c) p[m[c]] = uvw[c];
        /* s->center is already mirrored for a left link; mirror the shape about it */
        if (l->mirrored) p[1] = -p[1];
        for (int c = 0; c < 3; ++c) p[c] = s->center[c] + s->half[c] * p[c];
        fprintf(f, "v %.6f %.6f %.6f\n", p[0] + 0.0, p[1] + 0.0, p[2] + 0.0);
    }
    /* triangles, outward for the right-handed (u, v, w) shape; mirroring reverses them */
#define RING(r, j) (1 + (r) * L + ((j) % L) + 1)   /* 1-based OBJ index */
    for (int j = 0; j < L; ++j) {
        int t[3] = {1, RING(0, j + 1), RING(0, j)};
        if (l->mirrored) fprintf(f, "f %d %d %d\n", t[0], t[2], t[1]);
        else fprintf(f, "f %d %d %d\n", t[0], t[1], t[2]);
    }
    for (int r = 0; r + 1 < R; ++r) {
        for (int j = 0; j < L; ++j) {
            int a = RING(r, j), b = RING(r, j + 1), c = RING(r + 1, j + 1), d = RING(r + 1, j);
            if (l->mirrored) fprintf(f, "f %d %d %d\nf %d %d %d\n", a, c, b, a, d, c);
            else fprintf(f, "f %d %d %d\nf %d %d %d\n", a, b, c, a, c, d);
        }
    }
    for (int j = 0; j < L; ++j) {
        int t[3] = {RING(R - 1, j), RING(R - 1, j + 1), nv};
        if (l->mirrored) fprintf(f, "f %d %d %d\n", t[0], t[2], t[1]);
        else fprintf(f, "f %d %d %d\n", t[0], t[1], t[2]);
    }
#undef RING
    if (fclose(f) != 0) {
        fprintf(stderr, "hrp2_meshgen: error writing %s\n", path);
        return 1;
    }
    return 0;
}

/* ---- mass properties (divergence theorem over signed tetrahedra from the origin) ---- */

/* second moment of a tetrahedron (0, a, b, c) of signed volume v:
 * int x x^T dV = v / 20 (sum_i p_i p_i^T + (sum_i p_i)(sum_i p_i)^T), p_0 = 0. */
static void mass_properties(const DstMesh *m, double mass, double com[3], double inertia[9])
{
    double vol = 0.0, first[3] = {0, 0, 0}, second[9] = {0};
    for (int t = 0; t < m->n_triangles; ++t) {
        const double *a = m->vertices[m->triangles[t][0]], *b = m->vertices[m->triangles[t][1]],
                     *c = m->vertices[m->triangles[t][2]];
        double v = (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
                    a[2] * (b[0] * c[1] - b[1] * c[0])) / 6.0;
        double s[3];
        vol += v;
        for (int i = 0; i < 3; ++i) {
            s[i] = a[i] + b[i] + c[i];
            first[i] += v * s[i] / 4.0;
        }
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                second[3 * i + j] += v / 20.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
            }
        }
    }
    double rho = mass / vol;
    for (int i = 0; i < 3; ++i) com[i] = first[i] / vol;
    /* second moment about the com, then I = rho (tr(C) E - C) */
    double cc[9], tr = 0.0;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) cc[3 * i + j] = second[3 * i + j] - vol * com[i] * com[j];
    }
    tr = cc[0] + cc[4] + cc[8];
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            inertia[3 * i + j] = rho * ((i == j ? tr : 0.0) - cc[3 * i + j]);
        }
    }
    /* products of inertia that are rounding noise of a symmetric shape become 0 */
    double trace = inertia[0] + inertia[4] + inertia[8];
    for (int i = 0; i < 9; ++i) {
        if (fabs(inertia[i]) < 1e-6 * trace) inertia[i] = 0.0;
    }
    /* exactly symmetric */
    for (int i = 0; i < 3; ++i) {
        for (int j = i + 1; j < 3; ++j) {
            double avg = 0.5 * (inertia[3 * i + j] + inertia[3 * j + i]);
            inertia[3 * i + j] = inertia[3 * j + i] = avg;
        }
    }
}

/* ---- capsule fitting ------------------------------------------------------------------ */

/* eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi rotations; columns of V. */
static void jacobi3(const double a_in[9], double V[9])
{
    double a[9];
    memcpy(a, a_in, sizeof a);
    for (int i = 0; i < 9; ++i) V[i] = (i % 4 == 0) ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = fabs(a[1]) + fabs(a[2]) + fabs(a[5]);
        if (off < 1e-300) break;
        for (int p = 0; p < 2; ++p) {
            for (int q = p + 1; q < 3; ++q) {
                double apq = a[3 * p + q];
                if (fabs(apq) < 1e-300) continue;
                double theta = (a[3 * q + q] - a[3 * p + p]) / (2.0 * apq);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; ++k) {  /* A = A J */
                    double akp = a[3 * k + p], akq = a[3 * k + q];
                    a[3 * k + p] = c * akp - s * akq;
                    a[3 * k + q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {  /* A = J^T A */
                    double apk = a[3 * p + k], aqk = a[3 * q + k];
                    a[3 * p + k] = c * apk - s * aqk;
                    a[3 * q + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    double vkp = V[3 * k + p], vkq = V[3 * k + q];
                    V[3 * k + p] = c * vkp - s * vkq;
                    V[3 * k + q] = s * vkp + c * vkq;
                }
            }
        }
    }
}

/* smallest circle enclosing 2-D points (Welzl's incremental form; the points are visited
 * in a fixed pseudo-random order so that the expected time is linear). */
static void min_circle(const double (*pt)[2], int n, double c[2], double *r)
{
    int *ord = malloc((size_t)n * sizeof *ord);
    unsigned long long state = 0x9E3779B97F4A7C15ull;
    double r2;
    for (int i = 0; i < n; ++i) ord[i] = i;
    for (int i = n - 1; i > 0; --i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((state >> 33) % (unsigned long long)(i + 1));
        int t = ord[i];
        ord[i] = ord[j];
        ord[j] = t;
    }
#define D2(p, q) (((p)[0] - (q)[0]) * ((p)[0] - (q)[0]) + ((p)[1] - (q)[1]) * ((p)[1] - (q)[1]))
#define INSIDE(p) (D2(p, c) <= r2 * (1.0 + 1e-12))
    c[0] = pt[ord[0]][0];
    c[1] = pt[ord[0]][1];
    r2 = 0.0;
    for (int i = 1; i < n; ++i) {
        const double *pi = pt[ord[i]];
        if (INSIDE(pi)) continue;
        c[0] = pi[0];
        c[1] = pi[1];
        r2 = 0.0;
        for (int j = 0; j < i; ++j) {
            const double *pj = pt[ord[j]];
            if (INSIDE(pj)) continue;
            c[0] = 0.5 * (pi[0] + pj[0]);
            c[1] = 0.5 * (pi[1] + pj[1]);
            r2 = D2(pi, c);
            for (int k = 0; k < j; ++k) {
                const double *pk = pt[ord[k]];
                if (INSIDE(pk)) continue;
                /* circumcircle of pi, pj, pk */
                double bx = pj[0] - pi[0], by = pj[1] - pi[1];
                double cx = pk[0] - pi[0], cy = pk[1] - pi[1];
                double d = 2.0 * (bx * cy - by * cx);
                if (fabs(d) < 1e-18) {
                    /* collinear: the circle on the farthest pair */
                    const double *u = pi, *v = pj;
                    if (D2(pi, pk) > D2(u, v)) v = pk;
                    if (D2(pj, pk) > D2(u, v)) { u = pj; v = pk; }
                    c[0] = 0.5 * (u[0] + v[0]);
                    c[1] = 0.5 * (u[1] + v[1]);
                } else {
                    double b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
                    c[0] = pi[0] + (cy * b2 - by * c2) / d;
                    c[1] = pi[1] + (bx * c2 - cx * b2) / d;
                }
                r2 = fmax(fmax(D2(pi, c), D2(pj, c)), D2(pk, c));
            }
        }
    }
#undef INSIDE
#undef D2
    /* the exact radius over all points, whatever the tolerance above did */
    r2 = 0.0;
    for (int i = 0; i < n; ++i) {
        double dx = pt[i][0] - c[0], dy = pt[i][1] - c[1];
        r2 = fmax(r2, dx * dx + dy * dy);
    }
    *r = sqrt(r2);
    free(ord);
}

/* distance from point x to segment [p0, p1]. */
static double seg_dist(const double x[3], const double p0[3], const double p1[3])
{
    double d[3], w[3], dd = 0.0, t = 0.0, r = 0.0;
    for (int c = 0; c < 3; ++c) {
        d[c] = p1[c] - p0[c];
        w[c] = x[c] - p0[c];
        dd += d[c] * d[c];
        t += w[c] * d[c];
    }
    t = dd > 0.0 ? fmin(1.0, fmax(0.0, t / dd)) : 0.0;
    for (int c = 0; c < 3; ++c) {
        double e = w[c] - t * d[c];
        r += e * e;
    }
    return sqrt(r);
}

/* capsule around all vertices with its segment along `axis`: the radius of the smallest
 * enclosing circle of the projections, then the shortest segment whose end caps still
 * cover every vertex. Returns the capsule volume. */
static double capsule_along(const DstMesh *m, const double axis[3], double p0[3], double p1[3],
                            double *radius)
{
    double e1[3], e2[3], c2[2], r;
    int n = m->n_vertices;
    double (*pt)[2] = malloc((size_t)n * sizeof *pt);
    double *t = malloc((size_t)n * sizeof *t);
    /* an orthonormal basis (e1, e2) of the plane normal to the axis */
    double h[3] = {1, 0, 0};
    if (fabs(axis[0]) > 0.6) { h[0] = 0; h[1] = 1; }
    e1[0] = axis[1] * h[2] - axis[2] * h[1];
    e1[1] = axis[2] * h[0] - axis[0] * h[2];
    e1[2] = axis[0] * h[1] - axis[1] * h[0];
    double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int c = 0; c < 3; ++c) e1[c] /= n1;
    e2[0] = axis[1] * e1[2] - axis[2] * e1[1];
    e2[1] = axis[2] * e1[0] - axis[0] * e1[2];
    e2[2] = axis[0] * e1[1] - axis[1] * e1[0];
    for (int i = 0; i < n; ++i) {
        const double *x = m->vertices[i];
        pt[i][0] = x[0] * e1[0] + x[1] * e1[1] + x[2] * e1[2];
        pt[i][1] = x[0] * e2[0] + x[1] * e2[1] + x[2] * e2[2];
        t[i] = x[0] * axis[0] + x[1] * axis[1] + x[2] * axis[2];
    }
    min_circle((const double(*)[2])pt, n, c2, &r);
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; ++i) {
        double dx = pt[i][0] - c2[0], dy = pt[i][1] - c2[1];
        double hh = sqrt(fmax(0.0, r * r - dx * dx - dy * dy));
        lo = fmin(lo, t[i] + hh);
        hi = fmax(hi, t[i] - hh);
    }
    if (lo > hi) lo = hi = 0.5 * (lo + hi);
    for (int c = 0; c < 3; ++c) {
        p0[c] = c2[0] * e1[c] + c2[1] * e2[c] + lo * axis[c];
        p1[c] = c2[0] * e1[c] + c2[1] * e2[c] + hi * axis[c];
    }
    /* the exact radius about the final segment (covers the degenerate sphere case) */
    *radius = 0.0;
    for (int i = 0; i < n; ++i) *radius = fmax(*radius, seg_dist(m->vertices[i], p0, p1));
    free(pt);
    free(t);
    return acos(-1.0) * (*radius) * (*radius) * ((hi - lo) + 4.0 / 3.0 * (*radius));
}

/* rounds to the printed unit, as "%.6f" will print it. */
static double printed(double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6f", x);
    return strtod(buf, NULL);
}

/* the best capsule among the principal axes of the vertex cloud and the link axes, then
 * rounded to the printed digits and verified to enclose every vertex. Returns 0 if ok. */
static int fit_capsule(const DstMesh *m, Link *l)
{
    double mean[3] = {0, 0, 0}, cov[9] = {0}, V[9], best = INFINITY;
    int n = m->n_vertices;
    for (int i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c) mean[c] += m->vertices[i][c] / n;
    }
    for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                cov[3 * a + b] += (m->vertices[i][a] - mean[a]) * (m->vertices[i][b] - mean[b]);
            }
        }
    }
    jacobi3(cov, V);
    for (int cand = 0; cand < 6; ++cand) {
        double axis[3], p0[3], p1[3], r, vol;
        for (int c = 0; c < 3; ++c) {
            axis[c] = cand < 3 ? V[3 * c + cand] : (c == cand - 3 ? 1.0 : 0.0);
        }
        vol = capsule_along(m, axis, p0, p1, &r);
        if (vol < best * (1.0 - 1e-9)) {
            best = vol;
            memcpy(l->p0, p0, sizeof p0);
            memcpy(l->p1, p1, sizeof p1);
            l->radius = r;
        }
    }
    /* print-rounded endpoints; radius rounded up after a margin for that rounding */
    for (int c = 0; c < 3; ++c) {
        l->p0[c] = printed(l->p0[c]);
        l->p1[c] = printed(l->p1[c]);
    }
    l->radius = ceil((l->radius + CAPSULE_ROUNDING_MARGIN) / PRINT_UNIT) * PRINT_UNIT;
    l->radius = printed(l->radius);
    for (int i = 0; i < n; ++i) {
        if (!(seg_dist(m->vertices[i], l->p0, l->p1) <= l->radius)) {
            fprintf(stderr, "hrp2_meshgen: %s: capsule misses vertex %d\n", l->name, i);
            return 1;
        }
    }
    return 0;
}


/* ---- ellipsoid fitting ---------------------------------------------------------------- */

/* inverse of a symmetric positive definite 4x4 matrix by Gauss-Jordan with partial
 * pivoting. Returns 0 on success. */
static int invert4(const double a_in[16], double inv[16])
{
    double a[16];
    memcpy(a, a_in, sizeof a);
    for (int i = 0; i < 16; ++i) inv[i] = (i % 5 == 0) ? 1.0 : 0.0;
    for (int c = 0; c < 4; ++c) {
        int piv = c;
        for (int r = c + 1; r < 4; ++r) {
            if (fabs(a[4 * r + c]) > fabs(a[4 * piv + c])) piv = r;
        }
        if (!(fabs(a[4 * piv + c]) > 1e-300)) return 1;
        for (int k = 0; k < 4; ++k) {
            double t = a[4 * c + k]; a[4 * c + k] = a[4 * piv + k]; a[4 * piv + k] = t;
            t = inv[4 * c + k]; inv[4 * c + k] = inv[4 * piv + k]; inv[4 * piv + k] = t;
        }
        double d = a[4 * c + c];
        for (int k = 0; k < 4; ++k) {
            a[4 * c + k] /= d;
            inv[4 * c + k] /= d;
        }
        for (int r = 0; r < 4; ++r) {
            if (r == c) continue;
            double f = a[4 * r + c];
            for (int k = 0; k < 4; ++k) {
                a[4 * r + k] -= f * a[4 * c + k];
                inv[4 * r + k] -= f * inv[4 * c + k];
            }
        }
    }
    return 0;
}

/* R = Rz(yaw) Ry(pitch) Rx(roll), row-major: the convention of the robot format
 * (docs/ROBOT_FORMAT.md, pln_kin_rpy_to_matrix). */
static void rpy_matrix(const double rpy[3], double R[9])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    R[0] = cy * cp; R[1] = cy * sp * sr - sy * cr; R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp; R[4] = sy * sp * sr + cy * cr; R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp;     R[7] = cp * sr;                R[8] = cp * cr;
}

/* largest (|R^T (x - c)| / radii)^2 over the vertices: <= 1 when all are enclosed. */
static double ellipsoid_worst(const DstMesh *m, const double c[3], const double R[9],
                              const double r[3])
{
    double worst = 0.0;
    for (int i = 0; i < m->n_vertices; ++i) {
        double d[3], v = 0.0;
        for (int k = 0; k < 3; ++k) d[k] = m->vertices[i][k] - c[k];
        for (int k = 0; k < 3; ++k) {
            double y = (R[k] * d[0] + R[3 + k] * d[1] + R[6 + k] * d[2]) / r[k];
            v += y * y;
        }
        worst = fmax(worst, v);
    }
    return worst;
}

/* An ellipsoid enclosing every vertex, of nearly minimum volume: Khachiyan's algorithm
 * for the minimum-volume enclosing ellipsoid (Khachiyan 1996; Todd and Yildirim 2007:
 * weights u on the lifted points q_i = (x_i, 1), X = sum u_i q_i q_i^T, move weight to the
 * point of largest M_i = q_i^T X^-1 q_i with step (M - 4) / (4 (M - 1)), stop when
 * M <= 4 (1 + tol)); then c = sum u_i x_i, shape A = ((sum u_i x_i x_i^T - c c^T) 3)^-1,
 * axes and semi-axes from the eigen-decomposition of A. The axes are ordered and signed
 * to lie closest to the link's x, y, z (small rpy for nearly aligned shapes), the radii
 * scaled uniformly to enclose every vertex, padded by ELLIPSOID_ROUNDING_MARGIN, rounded
 * to the printed digits (centre, rpy) or up (radii) and verified against every vertex with
 * the rotation recomputed from the printed rpy. Returns 0 if ok. */
static int fit_ellipsoid(const DstMesh *m, Link *l)
{
    const int n = m->n_vertices;
    double *u = malloc((size_t)n * sizeof *u);
    if (u == NULL) return 1;
    for (int i = 0; i < n; ++i) u[i] = 1.0 / n;
    for (int it = 0; it < MVEE_MAX_ITER; ++it) {
        double X[16] = {0}, Xi[16];
        for (int i = 0; i < n; ++i) {
            double q[4] = {m->vertices[i][0], m->vertices[i][1], m->vertices[i][2], 1.0};
            for (int a = 0; a < 4; ++a) {
                for (int b = 0; b < 4; ++b) X[4 * a + b] += u[i] * q[a] * q[b];
            }
        }
        if (invert4(X, Xi) != 0) {
            free(u);
            fprintf(stderr, "hrp2_meshgen: %s: flat vertex cloud, no ellipsoid\n", l->name);
            return 1;
        }
        int jmax = 0;
        double Mmax = -INFINITY;
        for (int i = 0; i < n; ++i) {
            double q[4] = {m->vertices[i][0], m->vertices[i][1], m->vertices[i][2], 1.0}, M = 0.0;
            for (int a = 0; a < 4; ++a) {
                double s = 0.0;
                for (int b = 0; b < 4; ++b) s += Xi[4 * a + b] * q[b];
                M += q[a] * s;
            }
            if (M > Mmax) { Mmax = M; jmax = i; }
        }
        if (Mmax <= 4.0 * (1.0 + MVEE_TOL)) break;
        double step = (Mmax - 4.0) / (4.0 * (Mmax - 1.0));
        for (int i = 0; i < n; ++i) u[i] *= 1.0 - step;
        u[jmax] += step;
    }
    double c[3] = {0, 0, 0}, S[9] = {0}, V[9], R[9], rad[3];
    for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) c[a] += u[i] * m->vertices[i][a];
    }
    for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                S[3 * a + b] += u[i] * (m->vertices[i][a] - c[a]) * (m->vertices[i][b] - c[b]);
            }
        }
    }
    free(u);
    /* A = (3 S)^-1 has the eigenvectors of S and eigenvalues 1 / (3 s): radii sqrt(3 s) */
    jacobi3(S, V);
    int used[3] = {0, 0, 0};
    for (int axis = 0; axis < 3; ++axis) {
        /* the unused eigenvector most aligned with link axis `axis` */
        int best = -1;
        for (int k = 0; k < 3; ++k) {
            if (!used[k] && (best < 0 || fabs(V[3 * axis + k]) > fabs(V[3 * axis + best]))) best = k;
        }
        used[best] = 1;
        double sign = V[3 * axis + best] < 0.0 ? -1.0 : 1.0, s = 0.0;
        for (int a = 0; a < 3; ++a) R[3 * a + axis] = sign * V[3 * a + best];
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) s += R[3 * a + axis] * S[3 * a + b] * V[3 * b + best] * sign;
        }
        rad[axis] = sqrt(3.0 * fmax(s, 0.0));
    }
    /* a proper rotation: flip the third axis if the frame is left-handed */
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    if (det < 0.0) {
        for (int a = 0; a < 3; ++a) R[3 * a + 2] = -R[3 * a + 2];
    }
    /* rpy of R = Rz Ry Rx, then everything as printed */
    double rpy[3] = {atan2(R[7], R[8]), asin(fmax(-1.0, fmin(1.0, -R[6]))), atan2(R[3], R[0])};
    for (int k = 0; k < 3; ++k) {
        l->ell_center[k] = printed(c[k]);
        l->ell_rpy[k] = fabs(rpy[k]) < ELLIPSOID_SNAP_RAD ? 0.0 : printed(rpy[k]);
    }
    rpy_matrix(l->ell_rpy, R);
    for (int k = 0; k < 3; ++k) {
        if (!(rad[k] > 0.0)) rad[k] = PRINT_UNIT;
    }
    double worst = ellipsoid_worst(m, l->ell_center, R, rad);
    for (int k = 0; k < 3; ++k) {
        double r = rad[k] * sqrt(worst) + ELLIPSOID_ROUNDING_MARGIN;
        l->ell_radii[k] = printed(ceil(r / PRINT_UNIT) * PRINT_UNIT);
    }
    worst = ellipsoid_worst(m, l->ell_center, R, l->ell_radii);
    if (!(worst <= 1.0)) {
        fprintf(stderr, "hrp2_meshgen: %s: ellipsoid misses a vertex (%.9g)\n", l->name, worst);
        return 1;
    }
    return 0;
}

/* ---- YAML ------------------------------------------------------------------------------ */

/* a number as printed in the YAML: shortest of %.6f-style without trailing zeros. */
static const char *num(char *buf, size_t size, double x)
{
    snprintf(buf, size, "%.6f", x + 0.0);
    char *dot = strchr(buf, '.');
    if (dot != NULL) {
        char *e = buf + strlen(buf) - 1;
        while (e > dot + 1 && *e == '0') *e-- = '\0';
    }
    if (strcmp(buf, "-0.0") == 0) snprintf(buf, size, "0.0");
    return buf;
}

static void vec3(FILE *f, const double v[3])
{
    char a[32], b[32], c[32];
    fprintf(f, "[%s, %s, %s]", num(a, sizeof a, v[0]), num(b, sizeof b, v[1]),
            num(c, sizeof c, v[2]));
}

static void write_joint(FILE *f, const Joint *j)
{
    char a[32], b[32];
    fprintf(f, "  - name: %s   # %s\n", j->name, j->what);
    fprintf(f, "    axis: ");
    vec3(f, j->s.axis);
    fprintf(f, "\n    lower: %s\n    upper: %s\n", num(a, sizeof a, j->s.lower),
            num(b, sizeof b, j->s.upper));
    fprintf(f, "    velocity_max: %s   # rad/s, estimate\n", num(a, sizeof a, j->s.vmax));
    fprintf(f, "    effort_max: %s   # N m, estimate (docs/robots.md)\n", num(a, sizeof a, j->s.effort));
    fprintf(f, "    initial: %s\n", num(a, sizeof a, j->s.initial));
}

static void write_link(FILE *f, const Link *l)
{
    char a[32];
    fprintf(f, "  - name: %s\n", l->name);
    if (l->parent[0] != '\0') {
        fprintf(f, "    parent: %s\n    joint: %s\n", l->parent, l->joint);
        fprintf(f, "    origin:\n      position: ");
        vec3(f, l->s.origin);
        fprintf(f, "%s\n      rpy: [0.0, 0.0, 0.0]\n", l->s.origin_estimate ? "   # estimate" : "");
    }
    fprintf(f, "    mass: %s   # estimate\n", num(a, sizeof a, l->s.mass));
    fprintf(f, "    com: ");
    vec3(f, l->com);
    fprintf(f, "   # estimate: centroid of the mesh solid\n");
    fprintf(f, "    inertia:   # estimate: uniform density over the mesh solid, kg m^2 about com\n");
    for (int i = 0; i < 3; ++i) {
        fprintf(f, "      - [%.6e, %.6e, %.6e]\n", l->inertia[3 * i] + 0.0,
                l->inertia[3 * i + 1] + 0.0, l->inertia[3 * i + 2] + 0.0);
    }
    fprintf(f, "    geometry:\n      capsule:   # fitted by hrp2_meshgen, encloses every mesh vertex\n");
    fprintf(f, "        p0: ");
    vec3(f, l->p0);
    fprintf(f, "\n        p1: ");
    vec3(f, l->p1);
    fprintf(f, "\n        radius: %s\n", num(a, sizeof a, l->radius));
    fprintf(f, "      ellipsoid:   # fitted by hrp2_meshgen, encloses every mesh vertex\n");
    fprintf(f, "        center: ");
    vec3(f, l->ell_center);
    fprintf(f, "\n        rpy: ");
    vec3(f, l->ell_rpy);
    fprintf(f, "\n        radii: ");
    vec3(f, l->ell_radii);
    fprintf(f, "\n");
    fprintf(f, "      mesh: %s   # %d triangles%s%s\n", l->mesh, l->n_triangles,
            l->s.role ? ", thesis " : "", l->s.role ? l->s.role : "");
}

static const char YAML_HEAD[] =
    "# hrp2.yaml - an HRP-2-style humanoid for hrpplan: 30 joints in HRP-2 order, 31 links.\n"
    "#\n"
    "# GENERATED by build/hrp2_meshgen (`make meshes`, source tools/meshgen/hrp2_meshgen.c),\n"
    "# together with the link meshes in meshes/. Edit the tool, not this file.\n"
    "# Schema, units and frames: docs/ROBOT_FORMAT.md. Lengths m, angles rad, masses kg.\n"
    "#\n"
    "# Public HRP-2 figures used: joint names, order, axes and position limits; waist to\n"
    "# hip 0.06 m lateral plus a 0.035 m hip offset, femur 0.30 m, tibia 0.30 m, ankle height\n"
    "# 0.105 m, foot 0.2172 x 0.138 m, upper arm 0.25 m, forearm 0.25 m, total mass\n"
    "# 56.868 kg, half-sitting posture, waist height 0.6487 m, control period 5 ms.\n"
    "# Everything marked `# estimate` is not published and was chosen to be plausible for a\n"
    "# 1.54 m, 58 kg humanoid: chest, head, shoulder and hand offsets, velocity and effort\n"
    "# limits (reasoning in docs/robots.md), where the sole sits under the ankle,\n"
    "# per-link masses (they sum to the public total), centres of mass and inertias (of the\n"
    "# link mesh as a solid of uniform density) and the link shapes themselves.\n"
    "#\n"
    "# The waist is the root link, fixed in the world at the half-sitting waist height.\n"
    "# At q = 0 every link frame is parallel to the world frame (x forward, y left, z up).\n";

/* ---- main --------------------------------------------------------------------------- */

/* The 19 link pairs of thesis Table 6.1 (hand = LINK6, elbow = LINK3, hip = LEG_LINK2,
 * knee = LEG_LINK3), the default collision set of a scenario. */
static void write_collision_pairs(FILE *f)
{
    static const char *const pairs[][2] = {
        {"RARM_LINK6", "LARM_LINK6"}, {"RARM_LINK6", "WAIST"},      {"RARM_LINK6", "CHEST_LINK1"},
        {"RARM_LINK6", "HEAD_LINK1"}, {"LARM_LINK6", "WAIST"},      {"LARM_LINK6", "CHEST_LINK1"},
        {"LARM_LINK6", "HEAD_LINK1"}, {"RARM_LINK3", "WAIST"},      {"RARM_LINK3", "CHEST_LINK1"},
        {"RARM_LINK3", "HEAD_LINK1"}, {"LARM_LINK3", "WAIST"},      {"LARM_LINK3", "CHEST_LINK1"},
        {"LARM_LINK3", "HEAD_LINK1"}, {"RLEG_LINK2", "LLEG_LINK2"}, {"RLEG_LINK2", "RARM_LINK6"},
        {"RLEG_LINK2", "LARM_LINK6"}, {"LLEG_LINK2", "RARM_LINK6"}, {"LLEG_LINK2", "LARM_LINK6"},
        {"RLEG_LINK3", "LLEG_LINK3"},
    };
    fprintf(f, "\n# default self-collision pairs: thesis Table 6.1 (hand = *ARM_LINK6,\n"
               "# elbow = *ARM_LINK3, hip = *LEG_LINK2, knee = *LEG_LINK3)\ncollision_pairs:\n");
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i) {
        fprintf(f, "  - [%s, %s]\n", pairs[i][0], pairs[i][1]);
    }
}

/* The soles: the public foot size 0.2172 x 0.138 m, in the plane of the foot link's
 * lowest point (the ankle height 0.105 m below the ankle), centred where the foot's
 * shape is centred (RIGHT_LEG[5]; an estimate), the left mirrored. */
static void write_soles(FILE *f)
{
    const LinkSpec *foot = &RIGHT_LEG[5];
    char a[32], b[32], c[32];
    double bottom = foot->center[2] - foot->half[2];
    fprintf(f, "\n# soles: the rectangles the feet stand on, in the foot link's frame\nsoles:\n");
    for (int side = 0; side < 2; ++side) {
        double y = side == 0 ? foot->center[1] : -foot->center[1];
        fprintf(f, "  - link: %s\n    size: [0.2172, 0.138]   # m, HRP-2's foot\n",
                side == 0 ? "RLEG_LINK5" : "LLEG_LINK5");
        fprintf(f, "    offset: [%s, %s, %s]   # m, estimate: centre of the foot shape\n",
                num(a, sizeof a, foot->center[0]), num(b, sizeof b, y), num(c, sizeof c, bottom));
    }
}

int main(int argc, char **argv)
{
    Link links[N_LINKS];
    Joint joints[N_JOINTS];
    int nl = 0, nj = 0, failed = 0;
    char path[1024];
    double total = 0.0;
    long total_tris = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: hrp2_meshgen OUTDIR   (writes OUTDIR/hrp2.yaml, OUTDIR/meshes/)\n");
        return 2;
    }
    /* links in topological order: waist, right leg, left leg, torso and head, arms */
    links[nl++] = make_link(&WAIST, 0);
    for (int i = 0; i < 6; ++i) links[nl++] = make_link(&RIGHT_LEG[i], 0);
    for (int i = 0; i < 6; ++i) links[nl++] = make_link(&RIGHT_LEG[i], 1);
    for (int i = 0; i < 4; ++i) links[nl++] = make_link(&TORSO[i], 0);
    for (int i = 0; i < 7; ++i) links[nl++] = make_link(&RIGHT_ARM[i], 0);
    for (int i = 0; i < 7; ++i) links[nl++] = make_link(&RIGHT_ARM[i], 1);
    /* joints in HRP-2 order */
    for (int i = 0; i < 6; ++i) joints[nj++] = make_joint(&RIGHT_LEG_JOINTS[i], 0);
    for (int i = 0; i < 6; ++i) joints[nj++] = make_joint(&RIGHT_LEG_JOINTS[i], 1);
    for (int i = 0; i < 4; ++i) joints[nj++] = make_joint(&TORSO_JOINTS[i], 0);
    for (int i = 0; i < 7; ++i) joints[nj++] = make_joint(&RIGHT_ARM_JOINTS[i], 0);
    for (int i = 0; i < 7; ++i) joints[nj++] = make_joint(&RIGHT_ARM_JOINTS[i], 1);

    snprintf(path, sizeof path, "%s/meshes", argv[1]);
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "hrp2_meshgen: cannot create %s: %s\n", path, strerror(errno));
        return 1;
    }
    for (int i = 0; i < nl; ++i) {
        Link *l = &links[i];
        DstMesh m;
        DstMeshReport rep;
        char err[512];
        snprintf(path, sizeof path, "%s/%s", argv[1], l->mesh);
        if (write_mesh(l, path) != 0) return 1;
        /* read back: every number below comes from the coordinates as written */
        if (dst_mesh_create_from_file(path, &m, err, sizeof err) != DST_OK) {
            fprintf(stderr, "hrp2_meshgen: %s\n", err);
            return 1;
        }
        if (dst_mesh_validate(&m, &rep) != DST_OK || !rep.oriented || rep.volume <= 0.0 ||
            rep.n_degenerate != 0 || rep.n_unused_vertices != 0) {
            fprintf(stderr, "hrp2_meshgen: %s: not a closed outward mesh (open %d, "
                    "inconsistent %d, degenerate %d, volume %g)\n", path, rep.n_open_edges,
                    rep.n_inconsistent_edges, rep.n_degenerate, rep.volume);
            failed = 1;
        }
        l->n_triangles = m.n_triangles;
        mass_properties(&m, l->s.mass, l->com, l->inertia);
        if (fit_capsule(&m, l) != 0) failed = 1;
        if (fit_ellipsoid(&m, l) != 0) failed = 1;
        total += l->s.mass;
        total_tris += m.n_triangles;
        printf("%-12s %5d triangles  volume %.6f m^3  capsule p0 [%.6f, %.6f, %.6f] "
               "p1 [%.6f, %.6f, %.6f] radius %.6f\n", l->name, m.n_triangles, rep.volume,
               l->p0[0], l->p0[1], l->p0[2], l->p1[0], l->p1[1], l->p1[2], l->radius);
        printf("%-12s ellipsoid centre [%.6f, %.6f, %.6f] rpy [%.6f, %.6f, %.6f] radii "
               "[%.6f, %.6f, %.6f]  volume %.6f m^3 (capsule %.6f)\n", "", l->ell_center[0],
               l->ell_center[1], l->ell_center[2], l->ell_rpy[0], l->ell_rpy[1], l->ell_rpy[2],
               l->ell_radii[0], l->ell_radii[1], l->ell_radii[2],
               4.0 / 3.0 * acos(-1.0) * l->ell_radii[0] * l->ell_radii[1] * l->ell_radii[2],
               acos(-1.0) * l->radius * l->radius *
                   (seg_dist(l->p0, l->p1, l->p1) + 4.0 / 3.0 * l->radius));
        dst_mesh_destroy(&m);
    }
    if (failed) return 1;

    snprintf(path, sizeof path, "%s/hrp2.yaml", argv[1]);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "hrp2_meshgen: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    fputs(YAML_HEAD, f);
    fprintf(f, "\nname: hrp2\ncontrol_period: 0.005        # s (HRP-2 controller period)\n");
    fprintf(f, "base:                        # pose of the root link (WAIST) in the world\n");
    fprintf(f, "  position: [0.0, 0.0, 0.6487]   # half-sitting waist height\n");
    fprintf(f, "  rpy: [0.0, 0.0, 0.0]\n");
    fprintf(f, "\n# position limits are HRP-2's; the left side mirrors roll and yaw;\n");
    fprintf(f, "# initial = half-sitting posture\njoints:\n");
    for (int i = 0; i < nj; ++i) write_joint(f, &joints[i]);
    fprintf(f, "\n# %d links, total mass %.3f kg, %ld triangles\nlinks:\n", nl, total, total_tris);
    for (int i = 0; i < nl; ++i) write_link(f, &links[i]);
    write_collision_pairs(f);
    write_soles(f);
    if (fclose(f) != 0) {
        fprintf(stderr, "hrp2_meshgen: error writing %s\n", path);
        return 1;
    }
    printf("total: %d links, %d joints, %.3f kg, %ld triangles -> %s\n", nl, nj, total,
           total_tris, path);
    return 0;
}
