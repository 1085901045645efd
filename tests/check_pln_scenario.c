/* check_pln_scenario.c — tests of planner/problem/pln_scenario.c: the schema, defaults, name
 * resolution on a small robot built here, and a corpus of broken scenarios. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_util.h"
#include "problem/pln_scenario.h"

/* a 4-joint robot: base, two arm links, a hand; every link has a capsule, L1 a mesh */
static PlnJoint JOINTS[4];
static PlnLink LINKS[5];
static int PAIRS[2][2] = {{4, 0}, {3, 0}};

static PlnRobot make_robot(void)
{
    PlnRobot r;
    const char *joint_names[4] = {"J0", "J1", "J2", "JF"};
    const char *link_names[5] = {"BASE", "L1", "L2", "L3", "HAND"};
    memset(&r, 0, sizeof r);
    memset(JOINTS, 0, sizeof JOINTS);
    memset(LINKS, 0, sizeof LINKS);
    snprintf(r.name, sizeof r.name, "toy");
    r.base_rot[0] = r.base_rot[4] = r.base_rot[8] = 1.0;
    for (int l = 0; l < 5; ++l) {
        snprintf(LINKS[l].name, PLN_NAME_MAX, "%s", link_names[l]);
        LINKS[l].parent = l - 1;
        LINKS[l].joint = l - 1;
        LINKS[l].origin_rot[0] = LINKS[l].origin_rot[4] = LINKS[l].origin_rot[8] = 1.0;
        LINKS[l].geometry.has_capsule = 1;
        LINKS[l].geometry.capsule_p1[2] = 0.2;
        LINKS[l].geometry.capsule_radius = 0.05;
    }
    /* L1 alone has a mesh (never read by the scenario module) */
    snprintf(LINKS[1].geometry.mesh_path, sizeof LINKS[1].geometry.mesh_path, "l1.obj");
    for (int j = 0; j < 4; ++j) {
        snprintf(JOINTS[j].name, PLN_NAME_MAX, "%s", joint_names[j]);
        JOINTS[j].type = j == 3 ? PLN_JOINT_FIXED : PLN_JOINT_REVOLUTE;
        JOINTS[j].link = j + 1;
        JOINTS[j].axis[2] = 1.0;
        JOINTS[j].lower = -1.5;
        JOINTS[j].upper = 1.5;
        JOINTS[j].velocity_max = 3.0;
    }
    r.n_joints = 4;
    r.n_links = 5;
    r.joints = JOINTS;
    r.links = LINKS;
    r.n_collision_pairs = 2;
    r.collision_pairs = PAIRS;
    return r;
}

static void write_file(const char *dir, const char *name, const char *text, char *path,
                       size_t size)
{
    FILE *f;
    snprintf(path, size, "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char FULL[] =
    "name: reach\n"
    "robot: ../robots/toy.yaml\n"
    "duration: 2.0\n"
    "spline: {degree: 5, spans: 8}\n"
    "joints: [J0, J1, J2]\n"
    "initial: {J1: 0.5}\n"
    "rest: {start: true, end: false}\n"
    "tasks:\n"
    "  - {type: position, link: HAND, point: [0, 0, 0.1], target: [0.3, 0.1, 0.9], time: 1.0,\n"
    "     tolerance: 0.002, orientation: [0, 0, 1.5707963267948966], orientation_tolerance: 0.05}\n"
    "  - {type: joint, joint: J2, value: -1.0, time: 2.0}\n"
    "cost: {type: jerk, weight: 2.5}\n"
    "collision:\n"
    "  method: ca\n"
    "  eps: 0.002\n"
    "  subdivisions: 2\n"
    "  pairs: [[HAND, BASE], [L3, ball]]\n"
    "environment:\n"
    "  - {name: ball, type: sphere, center: [0.5, 0, 1], radius: 0.1}\n"
    "  - {name: bar, type: capsule, p0: [0, 1, 0], p1: [0, 1, 2], radius: 0.02}\n"
    "balance: {margin: 0.03, support: [BASE]}\n"
    "optimizer: {algorithm: mma, max_iterations: 50, time_limit: 5, xtol_rel: 1e-5}\n"
    "output: {rate: 500, dir: out/reach}\n";

START_TEST(test_full_scenario)
{
    char dir[256], path[512], err[512];
    PlnScenario sc;
    PlnRobot robot = make_robot();
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "reach.yaml", FULL, path, sizeof path);
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_str_eq(sc.name, "reach");
    ck_assert_ptr_nonnull(strstr(sc.robot_path, "/../robots/toy.yaml"));
    ck_assert(sc.duration == 2.0);
    ck_assert_int_eq(sc.degree, 5);
    ck_assert_int_eq(sc.spans, 8);
    ck_assert_int_eq(sc.n_active, 3);
    ck_assert_int_eq(sc.n_initial, 1);
    ck_assert(sc.initial_value[0] == 0.5);
    ck_assert_int_eq(sc.rest_start, 1);
    ck_assert_int_eq(sc.rest_end, 0);
    ck_assert_int_eq(sc.n_tasks, 2);
    ck_assert_int_eq(sc.tasks[0].type, PLN_TASK_POSITION);
    ck_assert_int_eq(sc.tasks[0].has_orientation, 1);
    /* yaw of pi/2: x axis to y */
    ck_assert(fabs(sc.tasks[0].target_rot[3] - 1.0) < 1e-15);
    ck_assert(sc.tasks[0].tolerance == 0.002);
    ck_assert_int_eq(sc.tasks[1].type, PLN_TASK_JOINT);
    ck_assert(sc.tasks[1].tolerance == 1e-3); /* default */
    ck_assert_int_eq(sc.cost, PLN_COST_JERK);
    ck_assert(sc.cost_weight == 2.5);
    ck_assert_int_eq(sc.method, PLN_METHOD_CA);
    ck_assert(sc.eps == 0.002);
    ck_assert_int_eq(sc.subdivisions, 2);
    ck_assert_int_eq(sc.pair_preset, PLN_PAIRS_LIST);
    ck_assert_int_eq(sc.n_pairs, 2);
    ck_assert_int_eq(sc.n_obstacles, 2);
    ck_assert_int_eq(sc.obstacles[0].type, PLN_OBSTACLE_SPHERE);
    ck_assert(sc.obstacles[0].p1[2] == 1.0);
    ck_assert_int_eq(sc.balance, 1);
    ck_assert_int_eq(sc.algorithm, PLN_ALGORITHM_MMA);
    ck_assert_int_eq(sc.max_iterations, 50);
    ck_assert(sc.rate_hz == 500.0);
    ck_assert_str_eq(sc.out_dir, "out/reach");

    ck_assert_msg(pln_scenario_resolve(&sc, &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(sc.active[2].index, 2);
    ck_assert_int_eq(sc.tasks[0].link.index, 4);
    ck_assert_int_eq(sc.pairs[0].a.index, 4);
    ck_assert_int_eq(sc.pairs[0].b.index, 0);
    ck_assert_int_eq(sc.pairs[1].b_is_obstacle, 1);
    ck_assert_int_eq(sc.pairs[1].b.index, 0);
    pln_scenario_destroy(&sc);
    pln_scenario_destroy(&sc);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_minimal_scenario_defaults)
{
    char dir[256], path[512], err[512];
    PlnScenario sc;
    PlnRobot robot = make_robot();
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "min.yaml", "name: m\nrobot: /abs/toy.yaml\nduration: 1\njoints: [J0]\n", path,
               sizeof path);
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_str_eq(sc.robot_path, "/abs/toy.yaml");
    ck_assert_int_eq(sc.degree, 5);
    ck_assert_int_eq(sc.rest_start && sc.rest_end, 1);
    ck_assert_int_eq(sc.method, PLN_METHOD_HYBRID);
    ck_assert(sc.eps == 1e-3);
    ck_assert_int_eq(sc.collision, 1);
    ck_assert_int_eq(sc.pair_preset, PLN_PAIRS_ALL);
    ck_assert_int_eq(sc.balance, 0);
    ck_assert(sc.rate_hz == 200.0);
    ck_assert_int_eq(sc.algorithm, PLN_ALGORITHM_AUTO);
    ck_assert_str_eq(pln_algorithm_string(sc.algorithm), "auto");
    /* the default pairs are every pair of the model that can come closer: on the toy
     * chain (all capsules on one axis, only J0 moving) none can; each exclusion is
     * recorded with its reason */
    ck_assert_msg(pln_scenario_resolve(&sc, &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(sc.n_pairs, 0);
    ck_assert_int_eq(sc.n_excluded, 10);
    {
        int count[PLN_EXCLUDE_REMOVED + 1] = {0};
        for (int i = 0; i < sc.n_excluded; ++i) ++count[sc.excluded[i].reason];
        ck_assert_int_eq(count[PLN_EXCLUDE_ADJACENT], 4);
        ck_assert_int_eq(count[PLN_EXCLUDE_ALWAYS_CONTACT], 3); /* BASE - L2, L3, HAND */
        ck_assert_int_eq(count[PLN_EXCLUDE_RIGID], 3);          /* L1 - L3, L1 - HAND, L2 - HAND */
    }
    pln_scenario_destroy(&sc);
    /* the robot's own list as a preset */
    write_file(dir, "rob.yaml",
               "name: m\nrobot: /abs/toy.yaml\nduration: 1\njoints: [J0]\n"
               "collision: {pairs: robot}\n",
               path, sizeof path);
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(sc.pair_preset, PLN_PAIRS_ROBOT);
    ck_assert_msg(pln_scenario_resolve(&sc, &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(sc.n_pairs, 2);
    ck_assert_str_eq(sc.pairs[0].a.name, "HAND");
    pln_scenario_destroy(&sc);
    /* a preset with additions and removals */
    write_file(dir, "mix.yaml",
               "name: m\nrobot: /abs/toy.yaml\nduration: 1\njoints: [J0]\n"
               "collision: {pairs: {preset: robot, add: [[L1, L3], [L3, L1]], "
               "remove: [[HAND, BASE]]}}\n",
               path, sizeof path);
    ck_assert_msg(pln_scenario_parse(path, &sc, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&sc, &robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(sc.n_pairs, 2); /* L3 - BASE kept, HAND - BASE removed, L1 - L3 once */
    ck_assert_str_eq(sc.pairs[1].a.name, "L1");
    ck_assert_str_eq(sc.pairs[1].b.name, "L3");
    ck_assert_int_eq(sc.n_excluded, 1);
    ck_assert_int_eq(sc.excluded[0].reason, PLN_EXCLUDE_REMOVED);
    pln_scenario_destroy(&sc);
    ckutil_rm_flat(dir);
}
END_TEST

/* broken scenarios: a header common to all, the rest, the stage that must fail, and a
 * fragment of the message */
#define HEAD "name: b\nrobot: toy.yaml\nduration: 2\n"
typedef struct BadScenario {
    const char *text;
    int stage;            /* 1 parse, 2 resolve */
    const char *fragment;
} BadScenario;

static const BadScenario BAD[] = {
    {"robot: toy.yaml\nduration: 2\njoints: [J0]\n", 1, "name: required key is missing"},
    {HEAD "joints: [J0]\nduraton: 3\n", 1, ":5:1: duraton: unknown key"},
    {"name: b\nrobot: toy.yaml\nduration: -1\njoints: [J0]\n", 1, ":3:11: duration: -1"},
    {"name: b\nrobot: toy.yaml\nduration: .nan\njoints: [J0]\n", 1, "duration: expected a finite"},
    {HEAD "tasks: []\n", 1, "joints: required key is missing"},
    {HEAD "joints: []\n", 1, "joints: no moving joint"},
    {HEAD "joints: J0\n", 1, "joints: expected a sequence"},
    {HEAD "joints: [J0]\nspline: {degree: 9}\n", 1, "spline.degree: 9 is outside [3, 7]"},
    {HEAD "joints: [J0]\nspline: {spans: 0}\n", 1, "spline.spans: 0 is outside"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J0, value: 1, time: 2.5}\n", 1,
     "tasks[0].time: 2.5: must lie inside [0, duration]"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J0, value: 1}\n", 1,
     "tasks[0].time: required key is missing"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: wave, time: 1}\n", 1, "tasks[0].type: 'wave'"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J0, value: 1, time: 1, link: L1}\n", 1,
     "tasks[0].link: unknown key"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: position, link: L1, target: [1, 2], time: 1}\n", 1,
     "tasks[0].target: expected 3 numbers, got 2"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J0, value: 1, time: 1, tolerance: -1}\n",
     1, "tasks[0].tolerance: -1: must be >= 0"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: position, link: L1, target: [1, 2, 3], time: 1,"
          " orientation_tolerance: 0.1}\n",
     1, "given without an orientation"},
    {HEAD "joints: [J0]\ncost: {type: snap}\n", 1, "cost.type: 'snap'"},
    {HEAD "joints: [J0]\ncost: {weight: 0}\n", 1, "cost.weight: 0: must be positive"},
    {HEAD "joints: [J0]\ncollision: {method: fast}\n", 1, "collision.method: 'fast'"},
    {HEAD "joints: [J0]\ncollision: {geometry: polygon}\n", 1,
     ":5:23: collision.geometry: 'polygon': expected capsule, convex, ellipsoid or mesh"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: mesh, position: [0, 0, 0]}\n", 1,
     "environment[0].file: required key is missing"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: mesh, file: o.stl, scale: 0}\n", 1,
     "environment[0].scale: 0: must lie in (0, 1e+06)"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: mesh, file: o.stl, scale: .nan}\n", 1,
     "environment[0].scale: expected a finite"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: mesh, file: o.stl, size: [1, 1, 1]}\n",
     1, "environment[0].size: unknown key"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: mesh, file: o.stl, rpy: [0, 0]}\n", 1,
     "environment[0].rpy: expected 3 numbers, got 2"},
    {HEAD "joints: [J0]\ncollision: {eps: -0.001}\n", 1, "collision.eps: -0.001"},
    {HEAD "joints: [J0]\ncollision: {pairs: [[L1]]}\n", 1, "collision.pairs[0]: expected [link"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: sphere, center: [0, 0, 0], radius: 0}\n",
     1, "environment[0].radius: 0: must lie in (0, 100] m"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: cone, center: [0, 0, 0]}\n", 1,
     "environment[0].type: 'cone': expected capsule, sphere, box or mesh"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: box, center: [0, 0, 0]}\n", 1,
     "environment[0].size: required key is missing"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: box, center: [0, 0, 0], size: [1, 0, 1]}\n",
     1, "environment[0].size: 0: every extent must be > 0"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: box, center: [0, 0, 0], size: [1, 1, 1], radius: 2}\n",
     1, "environment[0].radius: unknown key"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: sphere, center: [0,0,0], radius: 1}\n"
          "  - {name: o, type: sphere, center: [1,0,0], radius: 1}\n",
     1, "environment[1].name: 'o' is already"},
    {HEAD "joints: [J0]\nbalance: {margin: 0.01}\n", 1, "no supporting link"},
    {HEAD "joints: [J0]\ndynamics: {mu: 0}\n", 1, "dynamics.mu: a friction coefficient must lie in (0, 10], found 0"},
    {HEAD "joints: [J0]\ndynamics: {mu: -0.5}\n", 1, "dynamics.mu: a friction coefficient"},
    {HEAD "joints: [J0]\ndynamics: {mode: maybe}\n", 1, "dynamics.mode: 'maybe': expected auto, on or off"},
    {HEAD "joints: [J0]\ndynamics: {zmp_margin: -0.01}\n", 1, "dynamics.zmp_margin: -0.01"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1], from: 0, to: 1.5}\n  - {feet: [L2], from: 1.2, to: 2}\n",
     1, ":7: support[1].from: 1.2 s overlaps support[0] (line 6), which runs to 1.5 s"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1], from: 0, to: 1}\n  - {feet: [L2], from: 1.5, to: 2}\n",
     1, ":7: support[1].from: nothing supports the robot from 1 to 1.5 s"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1], from: 0.5, to: 2}\n", 1,
     "support[0].from: nothing supports the robot from 0 to 0.5 s"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1], from: 0, to: 1.5}\n", 1,
     "support[0].to: the last phase ends at 1.5 s, but the motion lasts 2 s"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [], from: 0, to: 2}\n", 1,
     "support[0].feet: name 1 or 2 supporting links"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1, L2, L3], from: 0, to: 2}\n", 1,
     "support[0].feet: name 1 or 2"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1, L1], from: 0, to: 2}\n", 1, "'L1' is named twice"},
    {HEAD "joints: [J0]\nsupport:\n  - {feet: [L1], from: 1, to: 0.5}\n", 1,
     "support[0].to: the phase ends (0.5 s) before it starts (1 s)"},
    {HEAD "joints: [J0]\nsupport: []\n", 1, "support: give at least one support phase"},
    {HEAD "joints: [J0]\ndynamics: {mode: on}\n", 2, "dynamics is on, but the robot"},
    {HEAD "joints: [J0]\ndynamics: {torque: true}\n", 2,
     "dynamics.torque: torque limits are asked for, but the robot"},
    {HEAD "joints: [J0]\noptimizer: {algorithm: bfgs}\n", 1, "optimizer.algorithm: 'bfgs'"},
    {HEAD "joints: [J0]\noutput: {rate: 0}\n", 1, "output.rate: 0"},
    {HEAD "joints: [J0]\nspline: {spans: 200}\ncollision: {subdivisions: 64}\n", 1,
     "exceed 2000 constraint intervals"},
    {HEAD "joints: [J0, J9]\n", 2, ":4:14: joints[1]: unknown joint 'J9'"},
    {HEAD "joints: [J0, J0]\n", 2, "joints[1]: joint listed twice: 'J0'"},
    {HEAD "joints: [JF]\n", 2, "joints[0]: joint is fixed and cannot move 'JF'"},
    {HEAD "joints: [J0]\ninitial: {J7: 0.1}\n", 2, "initial.J7: unknown joint 'J7'"},
    {HEAD "joints: [J0]\ninitial: {J1: 2.0}\n", 2, "initial.J1: 2 rad is outside the joint limits"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: position, link: HND, target: [1, 2, 3], time: 1}\n", 2,
     "tasks[0].link: unknown link 'HND'"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J1, value: 0.1, time: 1}\n", 2,
     "tasks[0].joint: is not among the moving joints: 'J1'"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J0, value: 2.0, time: 1}\n", 2,
     "cannot be reached within the joint limits"},
    {HEAD "joints: [J0]\ncollision: {pairs: [[L1, L1]]}\n", 2, "cannot collide with itself"},
    {HEAD "joints: [J0]\ncollision: {pairs: everything}\n", 1,
     "collision.pairs: 'everything': expected default"},
    {HEAD "joints: [J0]\ncollision: {pairs: {presets: all}}\n", 1, "collision.pairs.presets"},
    {HEAD "joints: [J0]\ncollision: {pairs: {preset: [all]}}\n", 1, "collision.pairs.preset"},
    {HEAD "joints: [J0]\ncollision: {pairs: {add: [[L1]]}}\n", 1,
     "collision.pairs.add[0]: expected [link"},
    {HEAD "joints: [J0]\ncollision: {pairs: {preset: all, remove: [[L1, moon]]}}\n", 2,
     "collision.pairs.remove[0]: unknown link or obstacle 'moon'"},
    {HEAD "joints: [J0]\ncollision: {pairs: {preset: robot, remove: [[L1, L2]]}}\n", 2,
     "collision.pairs.remove[0]: is not a pair of the preset"},
    {HEAD "joints: [J0]\ncollision: {pairs: [[L1, moon]]}\n", 2, "unknown link or obstacle 'moon'"},
    {HEAD "joints: [J0]\nbalance: {support: [FOOT]}\n", 2, "balance.support[0]: unknown link"},
    {HEAD "joints: [J0]\nenvironment:\n  - {name: o, type: mesh, file: o.stl}\n"
          "collision: {pairs: [[L1, o]]}\n",
     2, "L1 - o: a mesh obstacle needs collision.geometry: mesh"},
    {HEAD "joints: [J0]\ncollision: {geometry: mesh, pairs: [[L1, L2]]}\n", 2,
     "L1 - L2: a link of the pair has no mesh geometry"},
    /* issue 19: PhongDist measures meshes only */
    {HEAD "joints: [J0]\ncollision: {geometry: capsule, distance: phong}\n", 1,
     ":5:42: collision.distance: phong measures closed triangle meshes and needs "
     "collision.geometry: mesh (the geometry is capsule)"},
    {HEAD "joints: [J0]\ncollision:\n  distance: phong\n", 1,
     ":6:13: collision.distance: phong measures closed triangle meshes and needs "
     "collision.geometry: mesh (the geometry is capsule)"},
    {HEAD "joints: [J0]\ncollision: {geometry: mesh, distance: manhattan}\n", 1,
     "collision.distance: 'manhattan': expected euclidean or phong"},
    {HEAD "joints: [J0]\ncollision: {geometry: mesh, pairs: [[L2, L1]]}\n", 2,
     "L2 - L1: a link of the pair has no mesh geometry"},
    {HEAD "joints: [J0]\ncollision: {geometry: ellipsoid, pairs: [[L1, L2]]}\n", 2,
     "L1 - L2: a link of the pair has no ellipsoid geometry"},
    {HEAD "joints: [J0]\ncollision: {geometry: convex, pairs: [[L1, L2]]}\n", 2,
     "a link of the pair has no convex (or mesh) geometry"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: joint, joint: J0, value: -1.0, time: 1}\n"
          "  - {type: joint, joint: J0, value: 0.5, time: 1}\n",
     2, ":7: tasks[1]: contradicts tasks[0] (line 6): both at 1 s, 1.5 apart"},
    {HEAD "joints: [J0]\ntasks:\n  - {type: position, link: L1, target: [0, 0, 1], time: 1, tolerance: 0.01}\n"
          "  - {type: position, link: L1, target: [0, 0, 1.1], time: 1, tolerance: 0.01}\n",
     2, "tasks[1]: contradicts tasks[0]"},
};

START_TEST(test_bad_scenarios)
{
    const BadScenario *b = &BAD[_i];
    char dir[256], path[512], err[512] = "";
    PlnScenario sc;
    PlnRobot robot = make_robot();
    PlnStatus st;
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "bad.yaml", b->text, path, sizeof path);
    st = pln_scenario_parse(path, &sc, err, sizeof err);
    if (b->stage == 2) {
        ck_assert_msg(st == PLN_OK, "case %d parse: %s", _i, err);
        st = pln_scenario_resolve(&sc, &robot, err, sizeof err);
    }
    ck_assert_msg(st == PLN_ERR_INVALID || st == PLN_ERR_PARSE, "case %d: status %d", _i, st);
    ck_assert_msg(strstr(err, b->fragment) != NULL, "case %d: '%s' lacks '%s'", _i, err,
                  b->fragment);
    ck_assert_msg(strstr(err, path) != NULL, "case %d: message names the file", _i);
    pln_scenario_destroy(&sc);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_default_pairs_need_robot_pairs)
{
    char dir[256], path[512], err[512];
    PlnScenario sc;
    PlnRobot robot = make_robot();
    robot.n_collision_pairs = 0;
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "d.yaml", HEAD "joints: [J0]\ncollision: {pairs: robot}\n", path,
               sizeof path);
    ck_assert_int_eq(pln_scenario_parse(path, &sc, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_scenario_resolve(&sc, &robot, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "defines none"));
    pln_scenario_destroy(&sc);
    ckutil_rm_flat(dir);
}
END_TEST

/* issue 19: a --geometry override that leaves collision.distance phong without meshes is
 * refused when the scenario is resolved, naming the file and the field; the names of the
 * two distances round-trip and euclidean is the default */
START_TEST(test_phong_after_geometry_override_refused)
{
    char dir[256], path[512], err[512];
    PlnScenario sc;
    PlnRobot robot = make_robot();
    PlnDistanceKind k;
    ckutil_mkdtemp(dir, sizeof dir);
    write_file(dir, "d.yaml", HEAD "joints: [J0]\ncollision: {geometry: mesh, distance: phong}\n", path,
               sizeof path);
    ck_assert_int_eq(pln_scenario_parse(path, &sc, err, sizeof err), PLN_OK);
    ck_assert_int_eq(sc.distance, PLN_DISTANCE_PHONG);
    sc.geometry = PLN_GEOMETRY_CONVEX; /* what --geometry convex does before resolve */
    ck_assert_int_eq(pln_scenario_resolve(&sc, &robot, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_msg(strstr(err, ":5: collision.distance: phong measures closed triangle meshes") != NULL &&
                      strstr(err, "(the geometry is convex)") != NULL && strstr(err, path) != NULL,
                  "%s", err);
    pln_scenario_destroy(&sc);
    write_file(dir, "d.yaml", HEAD "joints: [J0]\ncollision: {geometry: mesh}\n", path, sizeof path);
    ck_assert_int_eq(pln_scenario_parse(path, &sc, err, sizeof err), PLN_OK);
    ck_assert_int_eq(sc.distance, PLN_DISTANCE_EUCLIDEAN);
    pln_scenario_destroy(&sc);
    for (int i = 0; i < 2; ++i) {
        const char *name = i ? "phong" : "euclidean";
        ck_assert_int_eq(pln_distance_from_string(name, &k), PLN_OK);
        ck_assert_str_eq(pln_distance_string(k), name);
    }
    ck_assert_int_eq(pln_distance_from_string("Phong", &k), PLN_ERR_INVALID);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_method_names_round_trip)
{
    const char *names[] = {"hybrid", "gss", "ca", "sampling"};
    PlnMethod m;
    for (int i = 0; i < 4; ++i) {
        ck_assert_int_eq(pln_method_from_string(names[i], &m), PLN_OK);
        ck_assert_str_eq(pln_method_string(m), names[i]);
    }
    ck_assert_int_eq(pln_method_from_string("HYBRID", &m), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_method_from_string(NULL, &m), PLN_ERR_INVALID);
}
END_TEST

Suite *pln_scenario_suite(void)
{
    Suite *s = suite_create("pln_scenario");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_full_scenario);
    tcase_add_test(tc, test_minimal_scenario_defaults);
    tcase_add_test(tc, test_default_pairs_need_robot_pairs);
    tcase_add_test(tc, test_method_names_round_trip);
    tcase_add_test(tc, test_phong_after_geometry_override_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, test_bad_scenarios, 0, (int)(sizeof BAD / sizeof BAD[0]));
    suite_add_tcase(s, tc);
    return s;
}
