/* kin_fixture.h — test and benchmark fixtures for kinematics and link motion: a local
 * random number generator and robots built in code (simple chains, and a random
 * 30-joint tree shaped like a humanoid). Header-only; included by the Check suites and
 * by tools/bench/bench_kin.c. No Check dependency, no global state. */
#ifndef KIN_FIXTURE_H
#define KIN_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pln_robot.h"

/* ---- random numbers: splitmix64, one explicit state per user ---- */

typedef struct KfRng {
    uint64_t s;
} KfRng;

static inline uint64_t kf_next(KfRng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [a, b] */
static inline double kf_uniform(KfRng *r, double a, double b)
{
    double u = (double)(kf_next(r) >> 11) * (1.0 / 9007199254740992.0);
    return a + (b - a) * u;
}

static inline void kf_unit_vector(KfRng *r, double v[3])
{
    double n;
    do {
        v[0] = kf_uniform(r, -1, 1);
        v[1] = kf_uniform(r, -1, 1);
        v[2] = kf_uniform(r, -1, 1);
        n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (n < 0.1 || n > 1.0);
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
}

/* rotation matrix (row-major) of a uniformly random unit quaternion */
static inline void kf_random_rotation(KfRng *r, double R[9])
{
    double q[4], n = 0.0, w, x, y, z;
    int i;
    do {
        n = 0.0;
        for (i = 0; i < 4; ++i) {
            q[i] = kf_uniform(r, -1, 1);
            n += q[i] * q[i];
        }
    } while (n < 0.01 || n > 1.0);
    n = sqrt(n);
    w = q[0] / n;
    x = q[1] / n;
    y = q[2] / n;
    z = q[3] / n;
    R[0] = 1 - 2 * (y * y + z * z);
    R[1] = 2 * (x * y - w * z);
    R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);
    R[4] = 1 - 2 * (x * x + z * z);
    R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);
    R[7] = 2 * (y * z + w * x);
    R[8] = 1 - 2 * (x * x + y * y);
}

static inline void kf_identity(double R[9])
{
    memset(R, 0, 9 * sizeof R[0]);
    R[0] = R[4] = R[8] = 1.0;
}

/* ---- robots built in code ---- */

/* allocates a zeroed robot with identity rotations; returns 0 on success */
static inline int kf_robot_alloc(PlnRobot *rb, int n_links, int n_joints)
{
    int i;
    memset(rb, 0, sizeof *rb);
    rb->links = calloc((size_t)n_links, sizeof *rb->links);
    rb->joints = calloc((size_t)(n_joints > 0 ? n_joints : 1), sizeof *rb->joints);
    if (rb->links == NULL || rb->joints == NULL) {
        free(rb->links);
        free(rb->joints);
        return -1;
    }
    rb->n_links = n_links;
    rb->n_joints = n_joints;
    kf_identity(rb->base_rot);
    rb->control_period = 0.005;
    for (i = 0; i < n_links; ++i) {
        kf_identity(rb->links[i].origin_rot);
        rb->links[i].parent = i - 1;
        rb->links[i].joint = -1;
        snprintf(rb->links[i].name, PLN_NAME_MAX, "link%d", i);
    }
    for (i = 0; i < n_joints; ++i) {
        rb->joints[i].type = PLN_JOINT_REVOLUTE;
        rb->joints[i].link = -1;
        rb->joints[i].axis[2] = 1.0;
        rb->joints[i].lower = -3.0;
        rb->joints[i].upper = 3.0;
        rb->joints[i].velocity_max = 3.0;
        snprintf(rb->joints[i].name, PLN_NAME_MAX, "joint%d", i);
    }
    return 0;
}

static inline void kf_robot_free(PlnRobot *rb)
{
    free(rb->links);
    free(rb->joints);
    rb->links = NULL;
    rb->joints = NULL;
}

/* connects link `link` to `parent` through joint `joint` (-1: fixed) */
static inline void kf_connect(PlnRobot *rb, int link, int parent, int joint)
{
    rb->links[link].parent = parent;
    rb->links[link].joint = joint;
    if (joint >= 0) rb->joints[joint].link = link;
}

/* A random humanoid-like tree: 30 revolute joints in HRP-2 order (RLEG 0-5, LLEG 0-5,
 * CHEST 0-1, HEAD 0-1, RARM 0-6, LARM 0-6), 32 links: waist root (0), one link per
 * joint (1..30, link j+1 moved by joint j) and a fixed tool link (31) on the right
 * hand. Offsets are humanoid-sized with random perturbation, joint axes are random unit
 * vectors, joint frames have random rotations, masses and centres of mass are random.
 * Returns 0 on success. */
static inline int kf_humanoid(PlnRobot *rb, uint64_t seed)
{
    /* chain starts: [first joint, count, parent link of the first, nominal offset] */
    static const struct {
        int first, count, parent;
        double off[3];
    } chains[6] = {
        {0, 6, 0, {0.0, -0.095, -0.06}},   /* right leg from the waist */
        {6, 6, 0, {0.0, 0.095, -0.06}},    /* left leg */
        {12, 2, 0, {0.03, 0.0, 0.12}},     /* chest */
        {14, 2, 14, {0.0, 0.0, 0.30}},     /* head from the chest pitch link */
        {16, 7, 14, {0.0, -0.25, 0.25}},   /* right arm from the chest */
        {23, 7, 14, {0.0, 0.25, 0.25}},    /* left arm */
    };
    KfRng rng = {seed};
    int c, k, i;
    if (kf_robot_alloc(rb, 32, 30) != 0) return -1;
    snprintf(rb->name, PLN_NAME_MAX, "random_humanoid_%llu", (unsigned long long)seed);
    rb->base_pos[2] = 0.6487;
    kf_random_rotation(&rng, rb->base_rot);
    for (c = 0; c < 6; ++c) {
        for (k = 0; k < chains[c].count; ++k) {
            int j = chains[c].first + k, link = j + 1;
            int parent = k == 0 ? chains[c].parent : link - 1;
            PlnLink *L = &rb->links[link];
            kf_connect(rb, link, parent, j);
            for (i = 0; i < 3; ++i) {
                double nominal = k == 0 ? chains[c].off[i] : (i == 2 ? -0.15 : 0.0);
                L->origin_pos[i] = nominal + kf_uniform(&rng, -0.05, 0.05);
            }
            kf_random_rotation(&rng, L->origin_rot);
            kf_unit_vector(&rng, rb->joints[j].axis);
        }
    }
    /* a fixed tool link on the right hand (link 23 is moved by RARM_JOINT6) */
    kf_connect(rb, 31, 23, -1);
    rb->links[31].origin_pos[0] = 0.02;
    rb->links[31].origin_pos[2] = -0.1;
    kf_random_rotation(&rng, rb->links[31].origin_rot);
    rb->total_mass = 0.0;
    for (i = 0; i < rb->n_links; ++i) {
        rb->links[i].mass = kf_uniform(&rng, 0.3, 6.0);
        for (k = 0; k < 3; ++k) rb->links[i].com[k] = kf_uniform(&rng, -0.08, 0.08);
        rb->total_mass += rb->links[i].mass;
    }
    return 0;
}

/* Turns joints 2, 9, 13, 19 and 26 of a kf_humanoid (a knee, a hip, the chest yaw, an
 * elbow, a wrist) into prismatic joints along their (random) axes, limits [-0.3, 0.3] m,
 * velocity 0.5 m/s: the same tree with sliding links in every chain. */
static inline void kf_humanoid_prismatic(PlnRobot *rb)
{
    static const int slide[5] = {2, 9, 13, 19, 26};
    int k;
    for (k = 0; k < 5; ++k) {
        PlnJoint *J = &rb->joints[slide[k]];
        J->type = PLN_JOINT_PRISMATIC;
        J->lower = -0.3;
        J->upper = 0.3;
        J->velocity_max = 0.5;
        snprintf(J->name, PLN_NAME_MAX, "slide%d", slide[k]);
    }
}

#endif /* KIN_FIXTURE_H */
