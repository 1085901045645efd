/* check_pln_robot.c — tests of planner/pln_robot.c and pln_robot_print.c: the real
 * robots/hrp2.yaml (joints, order, limits, half-sitting, mass, geometry), a corpus of
 * broken robot files generated into a temporary directory (each must fail with the right
 * status, line and field), topological reordering, mutated files, and the `hrpplan robot`
 * process (its path in $HRPPLAN_BIN); prismatic joints (tests/data/arm3p.yaml): loading,
 * units in the messages, printing, URDF export, and `hrpplan plan` certifying a reach that
 * only the lift makes possible, re-certified by `check` and standing in `simulate`.
 * Run from the repository's top directory. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check_util.h"
#include "dst_mesh.h"
#include "model/pln_robot.h"

#define HRP2 "robots/hrp2.yaml"

/* the published HRP-2 total mass is 56.868 kg; the per-link estimates are chosen to sum
 * to it, so only the rounding of the summation may differ */
#define HRP2_TOTAL_MASS 56.868
#define MASS_TOL 1e-9                 /* kg */
#define ANGLE_TOL 1e-12               /* rad: values are read back exactly as written */
#define LENGTH_TOL 1e-12              /* m */
#define ROTATION_TOL 1e-12            /* entries of a rotation matrix */

/* ---- the real robot ------------------------------------------------------------------ */

static const char *const HRP2_JOINTS[30] = {
    "RLEG_JOINT0", "RLEG_JOINT1", "RLEG_JOINT2", "RLEG_JOINT3", "RLEG_JOINT4", "RLEG_JOINT5",
    "LLEG_JOINT0", "LLEG_JOINT1", "LLEG_JOINT2", "LLEG_JOINT3", "LLEG_JOINT4", "LLEG_JOINT5",
    "CHEST_JOINT0", "CHEST_JOINT1", "HEAD_JOINT0", "HEAD_JOINT1",
    "RARM_JOINT0", "RARM_JOINT1", "RARM_JOINT2", "RARM_JOINT3", "RARM_JOINT4", "RARM_JOINT5",
    "RARM_JOINT6",
    "LARM_JOINT0", "LARM_JOINT1", "LARM_JOINT2", "LARM_JOINT3", "LARM_JOINT4", "LARM_JOINT5",
    "LARM_JOINT6"};

/* half-sitting (issue 4): legs (0, 0, -0.4538, 0.8727, -0.4189, 0), chest and head 0,
 * arms (0.2618, -/+0.1745, 0, -0.5236, 0, 0, 0.1) */
static const double HALF_SITTING[30] = {
    0, 0, -0.4538, 0.8727, -0.4189, 0, 0, 0, -0.4538, 0.8727, -0.4189, 0, 0, 0, 0, 0,
    0.2618, -0.1745, 0, -0.5236, 0, 0, 0.1, 0.2618, 0.1745, 0, -0.5236, 0, 0, 0.1};

static void load_hrp2(PlnRobot *r)
{
    char err[1024] = "";
    PlnStatus st = pln_robot_load(HRP2, r, err, sizeof err);
    ck_assert_msg(st == PLN_OK, "%s (run the tests from the top directory)", err);
}

START_TEST(test_hrp2_joints)
{
    PlnRobot r;
    load_hrp2(&r);
    ck_assert_str_eq(r.name, "hrp2");
    ck_assert_int_eq(r.n_joints, 30);
    for (int j = 0; j < 30; ++j) {
        const PlnJoint *jt = &r.joints[j];
        ck_assert_str_eq(jt->name, HRP2_JOINTS[j]);
        ck_assert_int_eq(pln_robot_find_joint(&r, HRP2_JOINTS[j]), j);
        ck_assert_int_eq(jt->type, PLN_JOINT_REVOLUTE);
        ck_assert_msg(fabs(jt->initial - HALF_SITTING[j]) <= ANGLE_TOL, "%s initial %g",
                      jt->name, jt->initial);
        ck_assert(jt->lower <= jt->initial && jt->initial <= jt->upper);
        ck_assert(jt->velocity_max > 0.0);
        ck_assert(jt->effort_max > 0.0);
        /* the joint and the link it moves point at each other */
        ck_assert_int_eq(r.links[jt->link].joint, j);
    }
    /* a few published limits, and the left side mirroring roll and yaw */
    ck_assert(fabs(r.joints[0].lower + 0.785) <= ANGLE_TOL && fabs(r.joints[0].upper - 0.524) <= ANGLE_TOL);
    ck_assert(fabs(r.joints[6].lower + 0.524) <= ANGLE_TOL && fabs(r.joints[6].upper - 0.785) <= ANGLE_TOL);
    ck_assert(fabs(r.joints[3].lower + 0.035) <= ANGLE_TOL && fabs(r.joints[3].upper - 2.618) <= ANGLE_TOL);
    ck_assert(fabs(r.joints[9].upper - 2.618) <= ANGLE_TOL);  /* knee pitch not mirrored */
    ck_assert(fabs(r.joints[17].lower + 1.658) <= ANGLE_TOL && fabs(r.joints[17].upper - 0.175) <= ANGLE_TOL);
    ck_assert(fabs(r.joints[24].lower + 0.175) <= ANGLE_TOL && fabs(r.joints[24].upper - 1.658) <= ANGLE_TOL);
    ck_assert(fabs(r.joints[19].lower + 2.391) <= ANGLE_TOL && fabs(r.joints[19].upper - 0.035) <= ANGLE_TOL);
    ck_assert(fabs(r.joints[13].lower + 0.087) <= ANGLE_TOL && fabs(r.joints[13].upper - 1.047) <= ANGLE_TOL);
    /* effort limits on every joint, and the two soles mirrored */
    ck_assert_int_eq(r.has_effort, 1);
    ck_assert_int_eq(r.n_soles, 2);
    ck_assert_int_eq(r.soles[0].link, pln_robot_find_link(&r, "RLEG_LINK5"));
    ck_assert_int_eq(r.soles[1].link, pln_robot_find_link(&r, "LLEG_LINK5"));
    ck_assert(fabs(r.soles[0].size[0] - 0.2172) <= 1e-12 && fabs(r.soles[0].size[1] - 0.138) <= 1e-12);
    ck_assert(fabs(r.soles[0].offset[1] + r.soles[1].offset[1]) <= 1e-12);
    ck_assert(fabs(r.soles[0].offset[2] + 0.105) <= 1e-12);
    ck_assert_int_eq(pln_robot_find_joint(&r, "NO_SUCH_JOINT"), -1);
    ck_assert_int_eq(pln_robot_find_joint(&r, NULL), -1);
    pln_robot_destroy(&r);
    pln_robot_destroy(&r);  /* twice is safe */
}
END_TEST

START_TEST(test_hrp2_links_and_mass)
{
    PlnRobot r;
    double mass = 0.0;
    load_hrp2(&r);
    ck_assert_int_eq(r.n_links, 31);
    ck_assert_str_eq(r.links[0].name, "WAIST");
    ck_assert_int_eq(r.links[0].parent, -1);
    ck_assert_int_eq(r.links[0].joint, -1);
    ck_assert(fabs(r.base_pos[2] - 0.6487) <= LENGTH_TOL);
    ck_assert(fabs(r.control_period - 0.005) <= LENGTH_TOL);
    for (int k = 1; k < r.n_links; ++k) {
        const PlnLink *l = &r.links[k];
        ck_assert_msg(l->parent >= 0 && l->parent < k, "%s: not topological", l->name);
        ck_assert_int_ge(l->joint, 0);  /* every HRP-2 link but the waist has a joint */
        ck_assert_int_eq(pln_robot_find_link(&r, l->name), k);
    }
    for (int k = 0; k < r.n_links; ++k) {
        const PlnLink *l = &r.links[k];
        ck_assert(l->mass > 0.0);
        mass += l->mass;
        ck_assert_msg(l->geometry.has_capsule && l->geometry.capsule_radius > 0.0, "%s", l->name);
        ck_assert_msg(l->geometry.mesh_triangles > 0, "%s", l->name);
        ck_assert(strstr(l->geometry.mesh_path, "robots/meshes/") != NULL);
        for (int i = 0; i < 9; ++i) {
            ck_assert(fabs(l->origin_rot[i] - (i % 4 == 0 ? 1.0 : 0.0)) <= ROTATION_TOL);
        }
    }
    ck_assert_msg(fabs(r.total_mass - HRP2_TOTAL_MASS) <= MASS_TOL, "total %.9f", r.total_mass);
    ck_assert(fabs(mass - r.total_mass) <= MASS_TOL);

    /* published lengths: hip 0.06 lateral, 0.035 hip offset and femur, tibia 0.30 */
    int rl0 = pln_robot_find_link(&r, "RLEG_LINK0"), rl3 = pln_robot_find_link(&r, "RLEG_LINK3");
    int rl4 = pln_robot_find_link(&r, "RLEG_LINK4"), ll0 = pln_robot_find_link(&r, "LLEG_LINK0");
    int ra3 = pln_robot_find_link(&r, "RARM_LINK3"), ra5 = pln_robot_find_link(&r, "RARM_LINK5");
    ck_assert(fabs(r.links[rl0].origin_pos[1] + 0.06) <= LENGTH_TOL);
    ck_assert(fabs(r.links[ll0].origin_pos[1] - 0.06) <= LENGTH_TOL);
    ck_assert(fabs(r.links[rl3].origin_pos[1] + 0.035) <= LENGTH_TOL);
    ck_assert(fabs(r.links[rl3].origin_pos[2] + 0.30) <= LENGTH_TOL);
    ck_assert(fabs(r.links[rl4].origin_pos[2] + 0.30) <= LENGTH_TOL);
    ck_assert(fabs(r.links[ra3].origin_pos[2] + 0.25) <= LENGTH_TOL);
    ck_assert(fabs(r.links[ra5].origin_pos[2] + 0.25) <= LENGTH_TOL);
    ck_assert_int_eq(pln_robot_find_link(&r, "nope"), -1);
    pln_robot_destroy(&r);
}
END_TEST

/* distance from x to the segment [p0, p1]. */
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
    for (int c = 0; c < 3; ++c) r += (w[c] - t * d[c]) * (w[c] - t * d[c]);
    return sqrt(r);
}

START_TEST(test_hrp2_capsules_enclose_meshes)
{
    PlnRobot r;
    load_hrp2(&r);
    for (int k = 0; k < r.n_links; ++k) {
        const PlnLinkGeometry *g = &r.links[k].geometry;
        DstMesh m;
        char err[512] = "";
        double worst = -INFINITY, slack_sum = 0.0;
        ck_assert_msg(dst_mesh_create_from_file(g->mesh_path, &m, err, sizeof err) == DST_OK,
                      "%s", err);
        ck_assert_int_eq(m.n_triangles, g->mesh_triangles);
        for (int i = 0; i < m.n_vertices; ++i) {
            double e = seg_dist(m.vertices[i], g->capsule_p0, g->capsule_p1) - g->capsule_radius;
            worst = fmax(worst, e);
            slack_sum += e;
        }
        /* enclosing: no vertex outside; fitted: some vertex within 1 mm of the surface */
        ck_assert_msg(worst <= 0.0, "%s: vertex %.3g m outside its capsule", r.links[k].name,
                      worst);
        ck_assert_msg(worst >= -1e-3, "%s: capsule not fitted (gap %.3g m)", r.links[k].name,
                      -worst);
        dst_mesh_destroy(&m);
    }
    pln_robot_destroy(&r);
}
END_TEST

/* (|R^T (x - c)| / radii)^2: <= 1 inside the ellipsoid. */
static double ellipsoid_value(const PlnLinkGeometry *g, const double x[3])
{
    const double *R = g->ellipsoid_rot, *c = g->ellipsoid_center;
    double d[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]}, v = 0.0;
    for (int k = 0; k < 3; ++k) {
        double y = (R[k] * d[0] + R[3 + k] * d[1] + R[6 + k] * d[2]) / g->ellipsoid_radii[k];
        v += y * y;
    }
    return v;
}

/* a fitted ellipsoid touches the mesh: its largest vertex value is at least this */
#define ELLIPSOID_FIT_MIN 0.999
/* no link's ellipsoid is more than this times its capsule's volume */
#define ELLIPSOID_CAPSULE_VOLUME_RATIO 1.1

START_TEST(test_hrp2_ellipsoids_enclose_meshes)
{
    PlnRobot r;
    const double pi = acos(-1.0);
    load_hrp2(&r);
    for (int k = 0; k < r.n_links; ++k) {
        const PlnLinkGeometry *g = &r.links[k].geometry;
        const char *name = r.links[k].name;
        DstMesh m;
        char err[512] = "";
        double worst = 0.0, det;
        const double *R = g->ellipsoid_rot;
        ck_assert_msg(g->has_ellipsoid, "%s has no ellipsoid", name);
        /* the axes are a proper rotation */
        det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
              R[2] * (R[3] * R[7] - R[4] * R[6]);
        ck_assert(fabs(det - 1.0) <= ROTATION_TOL * 10);
        ck_assert_msg(dst_mesh_create_from_file(g->mesh_path, &m, err, sizeof err) == DST_OK,
                      "%s", err);
        for (int i = 0; i < m.n_vertices; ++i) worst = fmax(worst, ellipsoid_value(g, m.vertices[i]));
        ck_assert_msg(worst <= 1.0, "%s: a vertex lies outside its ellipsoid (%.9g)", name, worst);
        ck_assert_msg(worst >= ELLIPSOID_FIT_MIN, "%s: ellipsoid not fitted (%.6g)", name, worst);
        /* volumes: never much more than the capsule's; less for the head and the hands */
        double ve = 4.0 / 3.0 * pi * g->ellipsoid_radii[0] * g->ellipsoid_radii[1] *
                    g->ellipsoid_radii[2];
        double len = 0.0;
        for (int c = 0; c < 3; ++c) {
            len += (g->capsule_p1[c] - g->capsule_p0[c]) * (g->capsule_p1[c] - g->capsule_p0[c]);
        }
        double rc = g->capsule_radius, vc = pi * rc * rc * (sqrt(len) + 4.0 / 3.0 * rc);
        ck_assert_msg(ve <= ELLIPSOID_CAPSULE_VOLUME_RATIO * vc, "%s: ellipsoid %g m^3, capsule %g",
                      name, ve, vc);
        if (strcmp(name, "HEAD_LINK1") == 0 || strstr(name, "ARM_LINK6") != NULL) {
            ck_assert_msg(ve < vc, "%s: ellipsoid %g m^3 not tighter than capsule %g", name, ve, vc);
        }
        dst_mesh_destroy(&m);
    }
    pln_robot_destroy(&r);
}
END_TEST

/* ---- half-sitting posture: a test-local forward kinematics, eq. (1) of ROBOT_FORMAT.md -- */

/* the published figures are given to 4 digits: the sole lands within this of the ground */
#define SOLE_HEIGHT_TOL 1e-5          /* m */
#define SAMPLES 64                    /* points per capsule segment for the clearance */

typedef struct Pose {
    double R[9], p[3];
} Pose;

/* rotation about a unit axis by q (Rodrigues). */
static void axis_rotation(const double a[3], double q, double R[9])
{
    double c = cos(q), s = sin(q), C = 1.0 - c;
    R[0] = c + a[0] * a[0] * C;
    R[1] = a[0] * a[1] * C - a[2] * s;
    R[2] = a[0] * a[2] * C + a[1] * s;
    R[3] = a[1] * a[0] * C + a[2] * s;
    R[4] = c + a[1] * a[1] * C;
    R[5] = a[1] * a[2] * C - a[0] * s;
    R[6] = a[2] * a[0] * C - a[1] * s;
    R[7] = a[2] * a[1] * C + a[0] * s;
    R[8] = c + a[2] * a[2] * C;
}

static void mat_mul(const double A[9], const double B[9], double C[9])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
        }
    }
}

/* x_world = R x + p */
static void apply(const Pose *T, const double x[3], double y[3])
{
    for (int i = 0; i < 3; ++i) {
        y[i] = T->R[3 * i] * x[0] + T->R[3 * i + 1] * x[1] + T->R[3 * i + 2] * x[2] + T->p[i];
    }
}

/* world poses of all links at the joints' initial (half-sitting) values. */
static void half_sitting_poses(const PlnRobot *r, Pose *T)
{
    for (int k = 0; k < r->n_links; ++k) {
        const PlnLink *l = &r->links[k];
        if (l->parent < 0) {
            memcpy(T[k].R, r->base_rot, sizeof T[k].R);
            memcpy(T[k].p, r->base_pos, sizeof T[k].p);
            continue;
        }
        const Pose *P = &T[l->parent];
        double RO[9], Rq[9];
        apply(P, l->origin_pos, T[k].p);
        mat_mul(P->R, l->origin_rot, RO);
        if (l->joint >= 0) {
            axis_rotation(r->joints[l->joint].axis, r->joints[l->joint].initial, Rq);
            mat_mul(RO, Rq, T[k].R);
        } else {
            memcpy(T[k].R, RO, sizeof RO);
        }
    }
}

/* joints on the tree path between links a and b. */
static int tree_distance(const PlnRobot *r, int a, int b)
{
    int n = 0;
    while (a != b) {
        if (a > b) a = r->links[a].parent;  /* topological order: the deeper index climbs */
        else b = r->links[b].parent;
        ++n;
    }
    return n;
}

/* a rigorous lower bound of the distance between two segments: the minimum over a grid
 * of sample pairs, less half of each grid step (distance is 1-Lipschitz in each point). */
static double segment_distance_lower(const double a0[3], const double a1[3], const double b0[3],
                                     const double b1[3])
{
    double best = INFINITY, la = 0.0, lb = 0.0;
    for (int c = 0; c < 3; ++c) {
        la += (a1[c] - a0[c]) * (a1[c] - a0[c]);
        lb += (b1[c] - b0[c]) * (b1[c] - b0[c]);
    }
    for (int i = 0; i <= SAMPLES; ++i) {
        double x[3], y[3];
        for (int c = 0; c < 3; ++c) x[c] = a0[c] + (a1[c] - a0[c]) * i / SAMPLES;
        for (int j = 0; j <= SAMPLES; ++j) {
            double d = 0.0;
            for (int c = 0; c < 3; ++c) {
                y[c] = b0[c] + (b1[c] - b0[c]) * j / SAMPLES;
                d += (x[c] - y[c]) * (x[c] - y[c]);
            }
            best = fmin(best, sqrt(d));
        }
    }
    return best - 0.5 * (sqrt(la) + sqrt(lb)) / SAMPLES;
}

START_TEST(test_hrp2_half_sitting_plausible)
{
    PlnRobot r;
    Pose T[64];
    DstMesh m;
    char err[512] = "";
    load_hrp2(&r);
    ck_assert_int_le(r.n_links, 64);
    half_sitting_poses(&r, T);

    /* the published leg lengths and half-sitting angles put the soles on the ground */
    for (int side = 0; side < 2; ++side) {
        int foot = pln_robot_find_link(&r, side ? "LLEG_LINK5" : "RLEG_LINK5");
        double lowest = INFINITY;
        ck_assert_int_eq(dst_mesh_create_from_file(r.links[foot].geometry.mesh_path, &m, err,
                                                   sizeof err), DST_OK);
        for (int i = 0; i < m.n_vertices; ++i) {
            double w[3];
            apply(&T[foot], m.vertices[i], w);
            lowest = fmin(lowest, w[2]);
        }
        dst_mesh_destroy(&m);
        ck_assert_msg(fabs(lowest) <= SOLE_HEIGHT_TOL, "sole at z = %g m", lowest);
    }

    /* capsules of links more than two joints apart are disjoint, except the waist with
     * the thighs: the three hip axes meet in one point inside the pelvis */
    for (int a = 0; a < r.n_links; ++a) {
        for (int b = a + 1; b < r.n_links; ++b) {
            const PlnLinkGeometry *ga = &r.links[a].geometry, *gb = &r.links[b].geometry;
            double a0[3], a1[3], b0[3], b1[3];
            if (tree_distance(&r, a, b) <= 2) continue;
            if (a == 0 && (strcmp(r.links[b].name, "RLEG_LINK2") == 0 ||
                           strcmp(r.links[b].name, "LLEG_LINK2") == 0)) {
                continue;
            }
            apply(&T[a], ga->capsule_p0, a0);
            apply(&T[a], ga->capsule_p1, a1);
            apply(&T[b], gb->capsule_p0, b0);
            apply(&T[b], gb->capsule_p1, b1);
            double clearance = segment_distance_lower(a0, a1, b0, b1) - ga->capsule_radius -
                               gb->capsule_radius;
            ck_assert_msg(clearance > 0.0, "%s and %s overlap in half-sitting (%g m)",
                          r.links[a].name, r.links[b].name, clearance);
        }
    }
    pln_robot_destroy(&r);
}
END_TEST

/* ---- a small valid robot and its broken variants -------------------------------------- */

/* 43 lines; the "# slot" lines (and line 43) are where cases put extra keys. */
static const char *const BASE[] = {
    /*  1 */ "# test robot",
    /*  2 */ "name: tiny",
    /*  3 */ "control_period: 0.005",
    /*  4 */ "base:",
    /*  5 */ "  position: [0.0, 0.0, 1.0]",
    /*  6 */ "  rpy: [0.0, 0.0, 0.0]",
    /*  7 */ "joints:",
    /*  8 */ "  - name: J1",
    /*  9 */ "    axis: [0.0, 0.0, 1.0]",
    /* 10 */ "    lower: -1.0",
    /* 11 */ "    upper: 1.0",
    /* 12 */ "    velocity_max: 2.0",
    /* 13 */ "    initial: 0.5",
    /* 14 */ "  - name: J2",
    /* 15 */ "    axis: [0.0, 0.6, 0.8]",
    /* 16 */ "    lower: -0.5",
    /* 17 */ "    upper: 0.5",
    /* 18 */ "    velocity_max: 3.0",
    /* 19 */ "    # slot",
    /* 20 */ "links:",
    /* 21 */ "  - name: BASE",
    /* 22 */ "    mass: 2.0",
    /* 23 */ "    com: [0.0, 0.0, 0.0]",
    /* 24 */ "    inertia: [[0.01, 0.0, 0.0], [0.0, 0.01, 0.0], [0.0, 0.0, 0.01]]",
    /* 25 */ "    # slot",
    /* 26 */ "  - name: ARM",
    /* 27 */ "    parent: BASE",
    /* 28 */ "    joint: J1",
    /* 29 */ "    origin: {position: [0.0, 0.0, 0.1], rpy: [0.0, 0.0, 1.5707963267948966]}",
    /* 30 */ "    mass: 1.0",
    /* 31 */ "    com: [0.0, 0.0, 0.05]",
    /* 32 */ "    inertia: [[0.002, 0.0, 0.0], [0.0, 0.002, 0.0], [0.0, 0.0, 0.001]]",
    /* 33 */ "    geometry:",
    /* 34 */ "      capsule: {p0: [0.0, 0.0, 0.0], p1: [0.0, 0.0, 0.1], radius: 0.05}",
    /* 35 */ "      mesh: tet.obj",
    /* 36 */ "  - name: HAND",
    /* 37 */ "    parent: ARM",
    /* 38 */ "    joint: J2",
    /* 39 */ "    origin: {position: [0.0, 0.0, 0.2]}",
    /* 40 */ "    mass: 0.5",
    /* 41 */ "    com: [0.0, 0.0, 0.0]",
    /* 42 */ "    inertia: [[0.001, 0.0, 0.0], [0.0, 0.001, 0.0], [0.0, 0.0, 0.001]]",
    /* 43 */ "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.05], rpy: [0.0, 0.0, 1.5707963267948966], radii: [0.05, 0.04, 0.03]}}",
};
#define BASE_LINES ((int)(sizeof BASE / sizeof BASE[0]))

static const char TET_OBJ[] =
    "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

/* makes a temporary directory with tet.obj and bad.obj; returns the robot path in it. */
static void make_dir(char *dir, size_t dsize, char *path, size_t psize)
{
    FILE *f;
    char p[512];
    ckutil_mkdtemp(dir, dsize);
    snprintf(p, sizeof p, "%s/tet.obj", dir);
    f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(TET_OBJ, f);
    fclose(f);
    snprintf(p, sizeof p, "%s/bad.obj", dir);
    f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n", f);
    fclose(f);
    snprintf(path, psize, "%s/robot.yaml", dir);
}

/* writes BASE with up to two lines replaced (line 0: no replacement). */
static void write_robot(const char *path, int l1, const char *t1, int l2, const char *t2)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 1; i <= BASE_LINES; ++i) {
        const char *line = i == l1 ? t1 : i == l2 ? t2 : BASE[i - 1];
        fprintf(f, "%s\n", line);
    }
    fclose(f);
}

/* effort limits on every joint and a sole: loaded as given */
START_TEST(test_efforts_and_soles)
{
    char dir[256], path[512], err[1024] = "";
    PlnRobot r;
    make_dir(dir, sizeof dir, path, sizeof path);
    write_robot(path, 13, "    effort_max: 2.5", 19, "    effort_max: 4.0");
    ck_assert_int_eq(pln_robot_load(path, &r, err, sizeof err), PLN_OK);
    ck_assert_int_eq(r.has_effort, 1);
    ck_assert_double_eq(r.joints[0].effort_max, 2.5);
    ck_assert_double_eq(r.joints[1].effort_max, 4.0);
    ck_assert_int_eq(r.n_soles, 0);
    pln_robot_destroy(&r);
    write_robot(path, 43, "soles: [{link: HAND, size: [0.2, 0.1], offset: [0.01, -0.02, -0.1]}]", 0, NULL);
    ck_assert_int_eq(pln_robot_load(path, &r, err, sizeof err), PLN_OK);
    ck_assert_int_eq(r.has_effort, 0);
    ck_assert_int_eq(r.n_soles, 1);
    ck_assert_int_eq(r.soles[0].link, pln_robot_find_link(&r, "HAND"));
    ck_assert_int_eq(pln_robot_find_sole(&r, r.soles[0].link), 0);
    ck_assert_int_eq(pln_robot_find_sole(&r, 0), -1);
    ck_assert_double_eq(r.soles[0].size[0], 0.2);
    ck_assert_double_eq(r.soles[0].offset[2], -0.1);
    pln_robot_destroy(&r);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_small_robot_loads)
{
    char dir[256], path[512], err[1024] = "";
    PlnRobot r;
    make_dir(dir, sizeof dir, path, sizeof path);
    write_robot(path, 0, NULL, 0, NULL);
    ck_assert_msg(pln_robot_load(path, &r, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_str_eq(r.name, "tiny");
    ck_assert_int_eq(r.n_joints, 2);
    ck_assert_int_eq(r.n_links, 3);
    ck_assert(fabs(r.total_mass - 3.5) <= MASS_TOL);
    /* J2's axis (0, 0.6, 0.8) is unit length and kept; J1's initial value is read */
    ck_assert(fabs(r.joints[1].axis[2] - 0.8) <= LENGTH_TOL);
    ck_assert(fabs(r.joints[0].initial - 0.5) <= ANGLE_TOL);
    /* J2 has no initial: 0 lies inside its limits */
    ck_assert(r.joints[1].initial == 0.0);
    /* ARM: yaw of pi/2 -> R = [[0, -1, 0], [1, 0, 0], [0, 0, 1]] */
    const PlnLink *arm = &r.links[1];
    ck_assert_str_eq(arm->name, "ARM");
    ck_assert(fabs(arm->origin_rot[1] + 1.0) <= ROTATION_TOL);
    ck_assert(fabs(arm->origin_rot[3] - 1.0) <= ROTATION_TOL);
    ck_assert(fabs(arm->origin_rot[8] - 1.0) <= ROTATION_TOL);
    ck_assert(fabs(arm->origin_pos[2] - 0.1) <= LENGTH_TOL);
    ck_assert_int_eq(arm->geometry.mesh_triangles, 4);
    ck_assert_int_eq(arm->geometry.has_capsule, 1);
    /* the mesh path is resolved against the YAML file's directory */
    char want[600];
    snprintf(want, sizeof want, "%s/tet.obj", dir);
    ck_assert_str_eq(arm->geometry.mesh_path, want);
    ck_assert_int_eq(r.links[2].geometry.has_capsule, 0);
    ck_assert_str_eq(r.links[2].geometry.mesh_path, "");
    /* HAND's ellipsoid: yaw pi/2 turns its first axis to +y, its second to -x */
    const PlnLinkGeometry *hg = &r.links[2].geometry;
    static const double want_rot[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
    static const double want_radii[3] = {0.05, 0.04, 0.03};
    ck_assert_int_eq(hg->has_ellipsoid, 1);
    ck_assert_int_eq(arm->geometry.has_ellipsoid, 0);
    ck_assert(fabs(hg->ellipsoid_center[2] - 0.05) <= LENGTH_TOL);
    for (int k = 0; k < 9; ++k) ck_assert(fabs(hg->ellipsoid_rot[k] - want_rot[k]) <= ROTATION_TOL);
    for (int k = 0; k < 3; ++k) ck_assert(fabs(hg->ellipsoid_radii[k] - want_radii[k]) <= LENGTH_TOL);
    pln_robot_destroy(&r);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_links_reordered_topologically)
{
    /* HAND, ARM listed before their parents: the loader sorts them */
    char dir[256], path[512], err[1024] = "";
    PlnRobot r;
    FILE *f;
    make_dir(dir, sizeof dir, path, sizeof path);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 1; i <= 19; ++i) fprintf(f, "%s\n", BASE[i - 1]);
    fprintf(f, "links:\n");
    for (int i = 36; i <= 43; ++i) fprintf(f, "%s\n", BASE[i - 1]);
    for (int i = 26; i <= 35; ++i) fprintf(f, "%s\n", BASE[i - 1]);
    for (int i = 21; i <= 25; ++i) fprintf(f, "%s\n", BASE[i - 1]);
    fclose(f);
    ck_assert_msg(pln_robot_load(path, &r, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_str_eq(r.links[0].name, "BASE");
    ck_assert_str_eq(r.links[1].name, "ARM");
    ck_assert_str_eq(r.links[2].name, "HAND");
    ck_assert_int_eq(r.links[2].parent, 1);
    ck_assert_int_eq(r.joints[0].link, 1);
    ck_assert_int_eq(r.joints[1].link, 2);
    ck_assert_int_eq(r.links[1].joint, 0);
    ck_assert_int_eq(r.links[2].joint, 1);
    pln_robot_destroy(&r);
    ckutil_rm_flat(dir);
}
END_TEST

typedef struct BrokenCase {
    int line1;
    const char *text1;
    int line2;
    const char *text2;
    PlnStatus status;
    int want_line;        /* line named in the message */
    const char *field;    /* field path named in the message */
    const char *message;  /* the complaint */
} BrokenCase;

static const BrokenCase BROKEN[] = {
    {34, "      capsule: {p0: [0.0, 0.0, 0.0], p1: [0.0, 0.0, 0.1], radius: 0.0}", 0, NULL,
     PLN_ERR_INVALID, 34, "links[1].geometry.capsule.radius", "must lie in (0, 10] m"},
    {34, "      capsule: {p0: [0.0, 0.0, 0.0], p1: [0.0, 0.0, 0.1], radius: -0.01}", 0, NULL,
     PLN_ERR_INVALID, 34, "links[1].geometry.capsule.radius", "must lie in (0, 10] m"},
    {34, "      capsule: {p0: [0.0, 0.0, 0.0], p1: [0.0, 0.0, 0.1]}", 0, NULL,
     PLN_ERR_INVALID, 34, "links[1].geometry.capsule.radius", "required key is missing"},
    {25, "    colour: red", 0, NULL, PLN_ERR_INVALID, 25, "links[0].colour", "unknown key (allowed: name, parent"},
    {1, "colour: red", 0, NULL, PLN_ERR_INVALID, 1, "colour", "unknown key (allowed: name, control_period"},
    {19, "    stiffness: 3", 0, NULL, PLN_ERR_INVALID, 19, "joints[1].stiffness", "unknown key"},
    {22, "    # no mass", 0, NULL, PLN_ERR_INVALID, 21, "links[0].mass", "required key is missing"},
    {3, "# no period", 0, NULL, PLN_ERR_INVALID, 2, "control_period",
     "required key is missing"},
    {11, "    # no upper", 0, NULL, PLN_ERR_INVALID, 8, "joints[0].upper", "required key is missing"},
    {30, "    mass: heavy", 0, NULL, PLN_ERR_INVALID, 30, "links[1].mass", "expected a finite number, got 'heavy'"},
    {30, "    mass: \"1.0\"", 0, NULL, PLN_ERR_INVALID, 30, "links[1].mass", "quoted"},
    {30, "    mass: [1.0]", 0, NULL, PLN_ERR_INVALID, 30, "links[1].mass", "expected a number, got a sequence"},
    {31, "    com: [0.0, 0.0]", 0, NULL, PLN_ERR_INVALID, 31, "links[1].com", "expected 3 numbers"},
    {43, "    geometry: [1, 2]", 0, NULL, PLN_ERR_INVALID, 43, "links[2].geometry",
     "expected a mapping"},
    {6, "  rpy: [0.0, 0.0]", 0, NULL, PLN_ERR_INVALID, 6, "base.rpy", "expected 3 numbers"},
    {10, "    lower: .nan", 0, NULL, PLN_ERR_INVALID, 10, "joints[0].lower", "finite"},
    {23, "    com: [0.0, .inf, 0.0]", 0, NULL, PLN_ERR_INVALID, 23, "links[0].com[1]", "finite"},
    {12, "    velocity_max: -inf", 0, NULL, PLN_ERR_INVALID, 12, "joints[0].velocity_max",
     "finite"},
    {22, "    mass: 1e999", 0, NULL, PLN_ERR_INVALID, 22, "links[0].mass", "finite"},
    {10, "    lower: 2.0", 0, NULL, PLN_ERR_INVALID, 10, "joints[0].lower", "> upper limit"},
    {13, "    initial: 1.5", 0, NULL, PLN_ERR_INVALID, 13, "joints[0].initial", "outside"},
    {12, "    velocity_max: 0.0", 0, NULL, PLN_ERR_INVALID, 12, "joints[0].velocity_max",
     "must be > 0"},
    {9, "    axis: [0.0, 0.0, 2.0]", 0, NULL, PLN_ERR_INVALID, 9, "joints[0].axis", "unit length"},
    {9, "    axis: [0.0, 0.0, 0.0]", 0, NULL, PLN_ERR_INVALID, 9, "joints[0].axis", "unit length"},
    {19, "    type: helical", 0, NULL, PLN_ERR_INVALID, 19, "joints[1].type",
     "unknown joint type"},
    {37, "    parent: ELBOW", 0, NULL, PLN_ERR_INVALID, 37, "links[2].parent",
     "unknown parent link 'ELBOW'"},
    {36, "  - name: ARM", 0, NULL, PLN_ERR_INVALID, 36, "links[2].name", "duplicate link name"},
    {14, "  - name: J1", 0, NULL, PLN_ERR_INVALID, 14, "joints[1].name", "duplicate joint name"},
    {27, "    parent: HAND", 0, NULL, PLN_ERR_INVALID, 27, "links[1].parent",
     "cycle in the link tree: ARM -> HAND -> ARM"},
    {37, "    parent: HAND", 0, NULL, PLN_ERR_INVALID, 37, "links[2].parent", "its own parent"},
    {25, "    parent: HAND", 0, NULL, PLN_ERR_INVALID, 21, "links", "no root link"},
    {37, "    # no parent", 38, "    # no joint", PLN_ERR_INVALID, 39, "links[2].origin",
     "the root link (no 'parent') has no origin"},
    {43, "  - {name: EXTRA, mass: 1.0, com: [0, 0, 0], inertia: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}",
     0, NULL, PLN_ERR_INVALID, 43, "links[3]", "second root link 'EXTRA'"},
    {21, "  - name: HAND", 36, "  - name: BASE", PLN_ERR_INVALID, 27, "links[1].parent",
     "cycle in the link tree: ARM -> BASE -> ARM"},
    {37, "    # no parent", 0, NULL, PLN_ERR_INVALID, 38, "links[2].joint",
     "root link (no 'parent') cannot have a joint"},
    {25, "    origin: {position: [0.0, 0.0, 0.0]}", 0, NULL, PLN_ERR_INVALID, 25,
     "links[0].origin", "root link"},
    {28, "    joint: J9", 0, NULL, PLN_ERR_INVALID, 28, "links[1].joint", "unknown joint 'J9'"},
    {38, "    joint: J1", 0, NULL, PLN_ERR_INVALID, 38, "links[2].joint",
     "joint 'J1' already moves link 'ARM'"},
    {38, "    # fixed", 0, NULL, PLN_ERR_INVALID, 14, "joints[1]", "moves no link"},
    {30, "    mass: -1.0", 0, NULL, PLN_ERR_INVALID, 30, "links[1].mass", "must be >= 0"},
    {32, "    inertia: [[0.002, 0.001, 0.0], [0.0, 0.002, 0.0], [0.0, 0.0, 0.001]]", 0, NULL,
     PLN_ERR_INVALID, 32, "links[1].inertia", "must be symmetric"},
    {32, "    inertia: [[0.002, 0.0, 0.0], [0.0, -0.002, 0.0], [0.0, 0.0, 0.001]]", 0, NULL,
     PLN_ERR_INVALID, 32, "links[1].inertia", "positive definite"},
    {32, "    inertia: [[0.002, 0.003, 0.0], [0.003, 0.002, 0.0], [0.0, 0.0, 0.001]]", 0, NULL,
     PLN_ERR_INVALID, 32, "links[1].inertia", "positive definite"},
    {32, "    inertia: [[0.002, 0.0], [0.0, 0.002, 0.0], [0.0, 0.0, 0.001]]", 0, NULL,
     PLN_ERR_INVALID, 32, "links[1].inertia[0]", "expected 3 numbers"},
    {35, "      mesh: missing.obj", 0, NULL, PLN_ERR_INVALID, 35, "links[1].geometry.mesh",
     "mesh file 'missing.obj' not found"},
    {35, "      mesh: bad.obj", 0, NULL, PLN_ERR_INVALID, 35, "links[1].geometry.mesh",
     "bad.obj:3: coordinate is not a finite number"},
    {35, "      mesh: \"\"", 0, NULL, PLN_ERR_INVALID, 35, "links[1].geometry.mesh",
     "must not be empty"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.1, 0.0, 0.1]}}", 0, NULL,
     PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.radii[1]", "must be > 0"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.1, 0.1, -0.2]}}", 0, NULL,
     PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.radii[2]", "must be > 0"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], radii: [.nan, 0.1, 0.1]}}", 0, NULL,
     PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.radii[0]", "finite"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.1, .inf, 0.1]}}", 0, NULL,
     PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.radii[1]", "finite"},
    {43, "    geometry: {ellipsoid: {center: [0.0, .nan, 0.0], radii: [0.1, 0.1, 0.1]}}", 0, NULL,
     PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.center[1]", "finite"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], rpy: [0.0, 0.0], radii: [0.1, 0.1, 0.1]}}",
     0, NULL, PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.rpy", "expected 3 numbers"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], rpy: [0.0, nan, 0.0], radii: [0.1, 0.1, 0.1]}}",
     0, NULL, PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.rpy[1]", "finite"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0]}}", 0, NULL, PLN_ERR_INVALID, 43,
     "links[2].geometry.ellipsoid.radii", "required key is missing"},
    {43, "    geometry: {ellipsoid: {radii: [0.1, 0.1, 0.1]}}", 0, NULL, PLN_ERR_INVALID, 43,
     "links[2].geometry.ellipsoid.center", "required key is missing"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.1, 0.1, 0.1], axes: 3}}",
     0, NULL, PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.axes", "unknown key"},
    {43, "    geometry: {ellipsoid: [0.1, 0.1, 0.1]}", 0, NULL, PLN_ERR_INVALID, 43,
     "links[2].geometry.ellipsoid", "expected a mapping"},
    {43, "    geometry: {ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.1, 0.1]}}", 0, NULL,
     PLN_ERR_INVALID, 43, "links[2].geometry.ellipsoid.radii", "expected 3 numbers"},
    {43, "    geometry: {convex: nowhere.stl}", 0, NULL, PLN_ERR_INVALID, 43,
     "links[2].geometry.convex", "not found"},
    {25, "    mass: 3.0", 0, NULL, PLN_ERR_INVALID, 25, "links[0].mass", "key given twice (first on line 22)"},
    {3, "control_period: 0", 0, NULL, PLN_ERR_INVALID, 3, "control_period", "must be > 0"},
    {21, "  - name: BASE_WITH_A_NAME_LONGER_THAN_SIXTY_THREE_CHARACTERS_WHICH_IS_TOO_LONG",
     0, NULL, PLN_ERR_INVALID, 21, "links[0].name", "longer than 63 characters"},
    {2, "name: [a, b]", 0, NULL, PLN_ERR_INVALID, 2, "name", "expected a text value, got a sequence"},
    {24, "    inertia: [[0.01, 0.0, 0.0], [0.0, 0.01", 0, NULL, PLN_ERR_PARSE, 26, "",
     "YAML syntax error"},
    {8, "  - name: J1: x", 0, NULL, PLN_ERR_PARSE, 8, "", "YAML syntax error"},
    {43, "---", 0, NULL, PLN_ERR_PARSE, 44, "", "a second YAML document"},
    {19, "    effort_max: 0.0", 0, NULL, PLN_ERR_INVALID, 19, "joints[1].effort_max", "must be > 0"},
    {19, "    effort_max: .nan", 0, NULL, PLN_ERR_INVALID, 19, "joints[1].effort_max", "finite"},
    {19, "    effort_max: 10.0", 0, NULL, PLN_ERR_INVALID, 8, "joints[0]",
     "joint 'J1' has no effort_max, but joints[1] (J2) has one"},
    {43, "soles: [{link: HAND, size: [0.1, 0.0], offset: [0, 0, 0]}]", 0, NULL, PLN_ERR_INVALID,
     43, "soles[0].size", "a sole must have positive area, found 0.1 x 0 m"},
    {43, "soles: [{link: HAND, size: [-0.1, 0.2], offset: [0, 0, 0]}]", 0, NULL, PLN_ERR_INVALID,
     43, "soles[0].size", "positive area"},
    {43, "soles: [{link: FOOT, size: [0.1, 0.1], offset: [0, 0, 0]}]", 0, NULL, PLN_ERR_INVALID,
     43, "soles[0].link", "unknown link 'FOOT'"},
    {43, "soles: [{link: HAND, size: [0.1, 0.1], offset: [0, 0, 0]}, {link: HAND, size: [0.1, 0.1], offset: [0, 0, 0]}]",
     0, NULL, PLN_ERR_INVALID, 43, "soles[1].link", "link 'HAND' already has a sole (soles[0])"},
    {43, "soles: [{link: HAND, size: [0.1, 0.1]}]", 0, NULL, PLN_ERR_INVALID, 43,
     "soles[0].offset", "required key is missing"},
    {43, "soles: [{link: HAND, size: [0.1, .inf], offset: [0, 0, 0]}]", 0, NULL, PLN_ERR_INVALID,
     43, "soles[0].size[1]", "finite"},
    {43, "soles: {link: HAND}", 0, NULL, PLN_ERR_INVALID, 43, "soles", "expected a sequence"},
};
#define N_BROKEN ((int)(sizeof BROKEN / sizeof BROKEN[0]))

START_TEST(test_broken_files)
{
    const BrokenCase *b = &BROKEN[_i];
    char dir[256], path[512], err[1024] = "", want[640];
    PlnRobot r;
    PlnStatus st;
    make_dir(dir, sizeof dir, path, sizeof path);
    write_robot(path, b->line1, b->text1, b->line2, b->text2);
    st = pln_robot_load(path, &r, err, sizeof err);
    ck_assert_msg(st == b->status, "case %d: status %s, want %s (%s)", _i, pln_status_string(st),
                  pln_status_string(b->status), err);
    snprintf(want, sizeof want, "%s:%d:", path, b->want_line);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %d: '%s' does not start with '%s'",
                  _i, err, want);
    if (b->field[0] != '\0') {
        snprintf(want, sizeof want, ": %s: ", b->field);
        ck_assert_msg(strstr(err, want) != NULL, "case %d: '%s' does not name field '%s'", _i,
                      err, b->field);
    }
    ck_assert_msg(strstr(err, b->message) != NULL, "case %d: '%s' lacks '%s'", _i, err,
                  b->message);
    /* a failed load leaves an empty model */
    ck_assert_int_eq(r.n_links, 0);
    ck_assert_ptr_null(r.links);
    ck_assert_ptr_null(r.joints);
    pln_robot_destroy(&r);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_unreadable_and_empty)
{
    char dir[256], path[512], err[1024] = "";
    PlnRobot r;
    FILE *f;
    ck_assert_int_eq(pln_robot_load("/nonexistent/robot.yaml", &r, err, sizeof err), PLN_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/robot.yaml: cannot read"));
    make_dir(dir, sizeof dir, path, sizeof path);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(pln_robot_load(path, &r, err, sizeof err), PLN_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "is empty"));
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("- just\n- a list\n", f);
    fclose(f);
    ck_assert_int_eq(pln_robot_load(path, &r, err, sizeof err), PLN_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err, "robot.yaml:1:1: (document): expected a mapping"));
    /* no error buffer at all is allowed */
    ck_assert_int_eq(pln_robot_load(path, &r, NULL, 0), PLN_ERR_PARSE);
    ckutil_rm_flat(dir);
}
END_TEST

typedef struct Rng {
    uint64_t s;
} Rng;

static uint32_t rng_next(Rng *r)
{
    r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->s >> 33);
}

START_TEST(test_mutated_files_fail_cleanly)
{
    /* random character edits of the valid file: never a crash, a leak or a silent NaN;
     * either a valid model or an error naming the file */
    static const char alphabet[] = " :-[],{}#\n\"'&*!|>0123456789.abenxJ";
    char dir[256], path[512], err[1024];
    static char text[8192];
    size_t len = 0;
    Rng rng = {2024};
    int ok = 0, bad = 0;
    make_dir(dir, sizeof dir, path, sizeof path);
    for (int i = 0; i < BASE_LINES; ++i) {
        len += (size_t)snprintf(text + len, sizeof text - len, "%s\n", BASE[i]);
    }
    for (int trial = 0; trial < 300; ++trial) {
        char buf[8192];
        PlnRobot r;
        PlnStatus st;
        FILE *f;
        size_t n = len;
        memcpy(buf, text, len);
        int edits = 1 + (int)(rng_next(&rng) % 3);
        for (int e = 0; e < edits; ++e) {
            buf[rng_next(&rng) % n] = alphabet[rng_next(&rng) % (sizeof alphabet - 1)];
        }
        if (rng_next(&rng) % 5 == 0) n = rng_next(&rng) % n;
        f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        fwrite(buf, 1, n, f);
        fclose(f);
        err[0] = '\0';
        st = pln_robot_load(path, &r, err, sizeof err);
        if (st == PLN_OK) {
            for (int k = 0; k < r.n_links; ++k) {
                const PlnLinkGeometry *g = &r.links[k].geometry;
                ck_assert(isfinite(r.links[k].mass) && r.links[k].mass >= 0.0);
                ck_assert(r.links[k].parent < k);
                for (int a = 0; a < 3 && g->has_ellipsoid; ++a) {
                    ck_assert(isfinite(g->ellipsoid_center[a]));
                    ck_assert(isfinite(g->ellipsoid_radii[a]) && g->ellipsoid_radii[a] > 0.0);
                }
            }
            for (int j = 0; j < r.n_joints; ++j) {
                ck_assert(r.joints[j].lower <= r.joints[j].upper);
            }
            ++ok;
        } else {
            ck_assert_msg(st == PLN_ERR_PARSE || st == PLN_ERR_INVALID, "%s", err);
            ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "no file in '%s'", err);
            ++bad;
        }
        pln_robot_destroy(&r);
    }
    ck_assert_int_gt(ok, 0);
    ck_assert_int_gt(bad, 0);
    ckutil_rm_flat(dir);
}
END_TEST

/* ---- printing and the process ------------------------------------------------------- */

START_TEST(test_print_hrp2)
{
    PlnRobot r;
    char dir[256], path[512], err[512] = "";
    static char text[65536];
    FILE *f;
    load_hrp2(&r);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pln_robot_print(&r, HRP2, f, err, sizeof err), PLN_OK);
    fclose(f);
    ck_assert_int_gt(ckutil_read_file(path, text, sizeof text), 0);
    ck_assert_ptr_nonnull(strstr(text, "robot hrp2 (robots/hrp2.yaml)"));
    ck_assert_ptr_nonnull(strstr(text, "30 joints, 31 links"));
    ck_assert_ptr_nonnull(strstr(text, "LARM_JOINT6"));
    ck_assert_ptr_nonnull(strstr(text, "-2.1820"));   /* hip pitch lower limit */
    ck_assert_ptr_nonnull(strstr(text, "waist.obj"));
    ck_assert_ptr_nonnull(strstr(text, "3480"));      /* hand triangles */
    ck_assert_ptr_nonnull(strstr(text, "total mass 56.868 kg"));
    ck_assert_ptr_null(strstr(text, "do not enclose"));
    ck_assert_ptr_nonnull(strstr(text, "ellipsoid: centre"));
    ck_assert_ptr_nonnull(strstr(text, "encloses mesh: yes"));
    pln_robot_destroy(&r);
    ckutil_rm_flat(dir);
}
END_TEST

/* prints a small robot whose ARM carries `geometry_line` (line 34) into text. */
static void print_small(const char *geometry_line, char *text, size_t size)
{
    char dir[256], path[512], out[600], err[1024] = "";
    PlnRobot r;
    FILE *f;
    make_dir(dir, sizeof dir, path, sizeof path);
    write_robot(path, 34, geometry_line, 0, NULL);
    ck_assert_msg(pln_robot_load(path, &r, err, sizeof err) == PLN_OK, "%s", err);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    f = fopen(out, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pln_robot_print(&r, path, f, err, sizeof err), PLN_OK);
    fclose(f);
    ck_assert_int_gt(ckutil_read_file(out, text, size), 0);
    pln_robot_destroy(&r);
    ckutil_rm_flat(dir);
}

START_TEST(test_print_ellipsoid_enclosure)
{
    static char text[16384];
    /* tet.obj spans [0, 0.1]^3: a sphere of radius 0.2 about the origin holds it ... */
    print_small("      ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.2, 0.2, 0.2]}", text,
                sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "encloses mesh: yes"));
    ck_assert_ptr_null(strstr(text, "do not enclose"));
    /* ... a thin one about x misses the vertices (0, 0.1, 0) and (0, 0, 0.1) by 100% */
    print_small("      ellipsoid: {center: [0.0, 0.0, 0.0], radii: [0.2, 0.05, 0.05]}", text,
                sizeof text);
    ck_assert_ptr_nonnull(strstr(text, "encloses mesh: NO (short by 100%)"));
    ck_assert_ptr_nonnull(strstr(text, "1 ellipsoid(s) do not enclose their mesh"));
}
END_TEST

/* runs the real binary; returns its exit status, stderr into errs. */
static int run_binary(const char *args, const char *errfile, char *errs, size_t size)
{
    const char *bin = getenv("HRPPLAN_BIN");
    char cmd[2048];
    int st;
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>'%s'", bin && *bin ? bin : "build/hrpplan",
             args, errfile);
    st = system(cmd);
    ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
    ckutil_read_file(errfile, errs, size);
    return WEXITSTATUS(st);
}

START_TEST(test_process_robot_command)
{
    char dir[256], path[512], errfile[600], args[700], errs[2048];
    make_dir(dir, sizeof dir, path, sizeof path);
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);
    ck_assert_int_eq(run_binary("robot " HRP2, errfile, errs, sizeof errs), 0);
    ck_assert_str_eq(errs, "");
    write_robot(path, 34, "      capsule: {p0: [0.0, 0.0, 0.0], p1: [0.0, 0.0, 0.1], radius: 0.0}",
                0, NULL);
    snprintf(args, sizeof args, "robot '%s'", path);
    ck_assert_int_eq(run_binary(args, errfile, errs, sizeof errs), 2);
    ck_assert_msg(strstr(errs, "robot.yaml:34:") && strstr(errs, "links[1].geometry.capsule.radius"),
                  "%s", errs);
    snprintf(args, sizeof args, "robot '%s/none.yaml'", dir);
    ck_assert_int_eq(run_binary(args, errfile, errs, sizeof errs), 2);
    ckutil_rm_flat(dir);
}
END_TEST

/* ---- prismatic joints --------------------------------------------------------------- */

/* tests/data/arm3p.yaml: the lift loads as a prismatic joint with its limits in m, m/s, N;
 * a non-positive velocity or effort limit is refused in the prismatic units; the print
 * names the type; the URDF export says type="prismatic" */
START_TEST(test_prismatic_loads_and_prints)
{
    PlnRobot rb;
    char err[1024], *text = NULL;
    size_t len = 0;
    FILE *f;
    ck_assert_msg(pln_robot_load("tests/data/arm3p.yaml", &rb, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(rb.n_joints, 3);
    ck_assert_int_eq(rb.joints[0].type, PLN_JOINT_REVOLUTE);
    ck_assert_int_eq(rb.joints[1].type, PLN_JOINT_PRISMATIC);
    ck_assert_str_eq(rb.joints[1].name, "LIFT");
    ck_assert_double_eq(rb.joints[1].upper, 0.5);
    ck_assert_double_eq(rb.joints[1].velocity_max, 0.5);
    ck_assert_double_eq(rb.joints[1].effort_max, 300.0);
    ck_assert_str_eq(pln_joint_type_name(rb.joints[1].type), "prismatic");
    ck_assert_str_eq(pln_joint_velocity_unit(rb.joints[1].type), "m/s");
    ck_assert_str_eq(pln_joint_effort_unit(rb.joints[0].type), "N m");
    f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pln_robot_print(&rb, "arm3p.yaml", f, err, sizeof err), PLN_OK);
    fclose(f);
    ck_assert_msg(strstr(text, "LIFT             prismatic CARRIAGE") != NULL, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "prismatic: m, m/s, N"));
    free(text);
    pln_robot_destroy(&rb);
}
END_TEST

/* `hrpplan robot tests/data/arm3p.yaml --urdf -o FILE` and back: the lift is still a
 * prismatic joint with the same limits, and `hrpplan robot FILE` accepts the file */
START_TEST(test_prismatic_urdf_round_trip_cli)
{
    char dir[256], path[512], errfile[600], args[1200], errs[2048], err[1024];
    PlnRobot a, b;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/arm3p.urdf", dir);
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);
    snprintf(args, sizeof args, "robot tests/data/arm3p.yaml --urdf -o '%s'", path);
    ck_assert_msg(run_binary(args, errfile, errs, sizeof errs) == 0, "%s", errs);
    snprintf(args, sizeof args, "robot '%s'", path);
    ck_assert_msg(run_binary(args, errfile, errs, sizeof errs) == 0, "%s", errs);
    ck_assert_msg(pln_robot_load("tests/data/arm3p.yaml", &a, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_robot_load(path, &b, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(a.n_joints, b.n_joints);
    for (int j = 0; j < a.n_joints; ++j) {
        ck_assert_str_eq(a.joints[j].name, b.joints[j].name);
        ck_assert_int_eq(a.joints[j].type, b.joints[j].type);
        ck_assert_double_eq(a.joints[j].lower, b.joints[j].lower);
        ck_assert_double_eq(a.joints[j].upper, b.joints[j].upper);
        ck_assert_double_eq(a.joints[j].velocity_max, b.joints[j].velocity_max);
        ck_assert_double_eq(a.joints[j].effort_max, b.joints[j].effort_max);
    }
    ck_assert_int_eq(b.joints[1].type, PLN_JOINT_PRISMATIC);
    pln_robot_destroy(&a);
    pln_robot_destroy(&b);
    ckutil_rm_flat(dir);
}
END_TEST

/* the prismatic units in the loader's messages */
START_TEST(test_prismatic_units_in_messages)
{
    char dir[256], path[512], err[1024], line[4096];
    PlnRobot rb;
    FILE *in, *out;
    static const char *const bad[2][2] = {
        {"velocity_max: 0.5, initial: 0.0, effort_max: 300.0", "velocity_max: 0.0, initial: 0.0, effort_max: 300.0"},
        {"velocity_max: 0.5, initial: 0.0, effort_max: 300.0", "velocity_max: 0.5, initial: 0.0, effort_max: -1.0"}};
    static const char *const want[2] = {"must be > 0 (m/s)", "must be > 0 (N)"};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/arm3p.yaml", dir);
    for (int k = 0; k < 2; ++k) {
        int replaced = 0;
        in = fopen("tests/data/arm3p.yaml", "r");
        out = fopen(path, "w");
        ck_assert(in != NULL && out != NULL);
        while (fgets(line, sizeof line, in) != NULL) {
            char *at = strstr(line, "name: LIFT") ? strstr(line, bad[k][0]) : NULL;
            if (at != NULL) {
                fwrite(line, 1, (size_t)(at - line), out);
                fputs(bad[k][1], out);
                fputs(at + strlen(bad[k][0]), out);
                replaced = 1;
            } else {
                fputs(line, out);
            }
        }
        fclose(in);
        fclose(out);
        ck_assert(replaced);
        ck_assert_int_eq(pln_robot_load(path, &rb, err, sizeof err), PLN_ERR_INVALID);
        ck_assert_msg(strstr(err, want[k]) != NULL && strstr(err, "joints[1]") != NULL, "%s", err);
        pln_robot_destroy(&rb);
    }
    ckutil_rm_flat(dir);
}
END_TEST

/* the last value of a column of a trajectory.csv (header "time,A,B,..."), NAN if absent */
static double csv_last(const char *path, const char *column)
{
    static char buf[1 << 20];
    char *last, *hdr_end, *tok;
    int col = -1, k = 0;
    if (ckutil_read_file(path, buf, sizeof buf) <= 0) return NAN;
    hdr_end = strchr(buf, '\n');
    if (hdr_end == NULL) return NAN;
    *hdr_end = '\0';
    for (tok = strtok(buf, ","); tok != NULL; tok = strtok(NULL, ","), ++k) {
        if (strcmp(tok, column) == 0) col = k;
    }
    if (col < 0) return NAN;
    last = hdr_end + 1;
    for (char *p = last; *p != '\0'; ++p) {
        if (p[0] == '\n' && p[1] != '\0') last = p + 1;
    }
    for (k = 0, tok = last; k < col && tok != NULL; ++k) {
        tok = strchr(tok, ',');
        if (tok != NULL) ++tok;
    }
    return tok != NULL ? strtod(tok, NULL) : NAN;
}

/* `hrpplan plan tests/data/lift_reach.yaml`: the hand must reach a point 1.15 m high that
 * only the prismatic lift brings within the arm's 0.4 m (lift >= 0.342 m with the task's
 * 0.01 m tolerance); the plan certifies (collision with a ball near the way up, the
 * dynamics rows with the lift's force), ends with the lift raised, `check` re-certifies
 * it and MuJoCo's slide joint, driven by the planned torques, stands and tracks it */
START_TEST(test_prismatic_plan_certifies)
{
    char dir[256], args[1024], errfile[600], errs[4096], path[600], report[1 << 16];
    double lift;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(errfile, sizeof errfile, "%s/stderr.txt", dir);
    snprintf(args, sizeof args, "plan tests/data/lift_reach.yaml -q -o '%s/out' --max-time 86400", dir);
    ck_assert_msg(run_binary(args, errfile, errs, sizeof errs) == 0, "%s", errs);
    snprintf(path, sizeof path, "%s/out/report.json", dir);
    ck_assert_int_gt(ckutil_read_file(path, report, sizeof report), 0);
    ck_assert_ptr_nonnull(strstr(report, "\"status\": \"certified\""));
    ck_assert_ptr_nonnull(strstr(report, "\"eps_certified\": true"));
    ck_assert_ptr_nonnull(strstr(report, "\"torque_max_ratio\""));
    snprintf(path, sizeof path, "%s/out/trajectory.csv", dir);
    lift = csv_last(path, "LIFT");
    ck_assert_msg(lift >= 0.342 && lift <= 0.5, "the lift ends at %g m", lift);
    snprintf(args, sizeof args, "check tests/data/lift_reach.yaml '%s/out/trajectory.json'", dir);
    ck_assert_msg(run_binary(args, errfile, errs, sizeof errs) == 0, "%s", errs);
    snprintf(args, sizeof args, "simulate tests/data/lift_reach.yaml '%s/out/trajectory.json' -o '%s/out'",
             dir, dir);
    ck_assert_msg(run_binary(args, errfile, errs, sizeof errs) == 0, "%s", errs);
    snprintf(path, sizeof path, "%s/out/sim.json", dir);
    ck_assert_int_gt(ckutil_read_file(path, report, sizeof report), 0);
    ck_assert_msg(strstr(report, "\"fell\": false") != NULL, "%s", report);
    snprintf(path, sizeof path, "%s/out", dir);
    ckutil_rm_flat(path);
    rmdir(path);
    ckutil_rm_flat(dir);
}
END_TEST

Suite *pln_robot_suite(void)
{
    Suite *s = suite_create("pln_robot");
    TCase *tc = tcase_create("hrp2");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_hrp2_joints);
    tcase_add_test(tc, test_hrp2_links_and_mass);
    tcase_add_test(tc, test_hrp2_capsules_enclose_meshes);
    tcase_add_test(tc, test_hrp2_ellipsoids_enclose_meshes);
    tcase_add_test(tc, test_hrp2_half_sitting_plausible);
    suite_add_tcase(s, tc);
    tc = tcase_create("load");
    tcase_add_test(tc, test_small_robot_loads);
    tcase_add_test(tc, test_efforts_and_soles);
    tcase_add_test(tc, test_links_reordered_topologically);
    tcase_add_test(tc, test_unreadable_and_empty);
    suite_add_tcase(s, tc);
    tc = tcase_create("broken");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_broken_files, 0, N_BROKEN);
    tcase_add_test(tc, test_mutated_files_fail_cleanly);
    suite_add_tcase(s, tc);
    tc = tcase_create("print");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_print_hrp2);
    tcase_add_test(tc, test_print_ellipsoid_enclosure);
    tcase_add_test(tc, test_process_robot_command);
    suite_add_tcase(s, tc);
    tc = tcase_create("prismatic");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_prismatic_loads_and_prints);
    tcase_add_test(tc, test_prismatic_units_in_messages);
    tcase_add_test(tc, test_prismatic_urdf_round_trip_cli);
    tcase_add_test(tc, test_prismatic_plan_certifies);
    suite_add_tcase(s, tc);
    return s;
}
