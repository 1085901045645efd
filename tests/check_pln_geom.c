/* check_pln_geom.c — tests of planner/problem/pln_geom.c: every geometry kind's MCD lower bound
 * against dense sampling of the exact static distance along the true spline motion
 * (forward kinematics of the spline, not the Taylor models), the early stop, the frame of
 * an offset shape, and loading errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_rng.h"
#include "check_util.h"
#include "problem/pln_geom.h"
#include "problem/pln_problem.h"
#include "model/pln_robot.h"
#include "problem/pln_scenario.h"
#include "base/pln_tolerance.h"
#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"

/* samples of the exact distance per constraint interval */
#define GEOM_SAMPLES 48
/* floor of the bound comparisons, m (the sampled distances are exact to rounding) */
#define GEOM_TOL_M 1e-12
/* accuracy of the first-contact bracket's end, m */
#define GEOM_CONTACT_EPS_M 5e-4
/* the early-stop level of the stop test, m */
#define GEOM_STOP_M 0.05

typedef struct Fixture {
    PlnScenario sc;
    PlnRobot robot;
    PlnProblem *p;
    PlnProblemWork *w;
    PlnKinWork *kin;
} Fixture;

/* loads a scenario, switching its geometry when kind >= 0 */
static void load(Fixture *f, const char *path, int kind)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    memset(f, 0, sizeof *f);
    ck_assert_msg(pln_scenario_parse(path, &f->sc, err, sizeof err) == PLN_OK, "%s", err);
    if (kind >= 0) f->sc.geometry = (PlnGeometryKind)kind;
    ck_assert_msg(pln_robot_load(f->sc.robot_path, &f->robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_scenario_resolve(&f->sc, &f->robot, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_msg(pln_problem_create(&f->p, &f->robot, &f->sc, &opt, err, sizeof err) == PLN_OK,
                  "%s", err);
    ck_assert_msg(pln_problem_work_create(f->p, &f->w, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_eq(pln_kin_create(&f->robot, &f->kin, err, sizeof err), PLN_OK);
}

static void unload(Fixture *f)
{
    pln_kin_destroy(f->kin);
    pln_problem_work_destroy(f->w);
    pln_problem_destroy(f->p);
    pln_robot_destroy(&f->robot);
    pln_scenario_destroy(&f->sc);
}

/* a random motion: the initial guess moved by up to 0.8 rad per control point, in bounds */
static void random_ctrl(const PlnProblem *p, Rng *rng, double *x, double *ctrl)
{
    pln_problem_initial_x(p, x);
    for (int i = 0; i < p->n_vars; ++i) x[i] = fmin(fmax(x[i] + rng_uniform(rng, -0.8, 0.8), p->lb[i]), p->ub[i]);
    pln_problem_ctrl(p, x, ctrl);
}

/* the least exact distance of pair pr at GEOM_SAMPLES + 1 times of [t0, t1] of the spline
 * ctrl (forward kinematics into f->kin, postures into q) */
static double sampled_min(Fixture *f, const double *ctrl, double *q, int pr, double t0, double t1)
{
    const PlnProblem *p = f->p;
    double smin = HUGE_VAL;
    for (int s = 0; s <= GEOM_SAMPLES; ++s) {
        double t = t0 + (t1 - t0) * s / GEOM_SAMPLES;
        PlnPairDistance d;
        ck_assert_int_eq(pln_problem_joints_at(p, ctrl, t, q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(f->kin, p->robot, q), PLN_OK);
        ck_assert_int_eq(pln_geom_pair_distance(p->geom, f->kin, pr, NULL, &d), DST_OK);
        smin = fmin(smin, d.distance);
    }
    return smin;
}

/* For random trajectories, every pair and interval: lower <= the exact distance at
 * GEOM_SAMPLES times of the spline, t_min inside the interval, upper >= lower, and
 * upper - lower <= eps when certified. Returns the number of (pair, interval) checked. */
static int check_bounds(Fixture *f, uint64_t seed, int trials, double stop_above)
{
    const PlnProblem *p = f->p;
    double *x = calloc((size_t)p->n_vars, sizeof *x);
    double *ctrl = calloc((size_t)p->n_active * p->n_ctrl, sizeof *ctrl);
    double *q = calloc((size_t)p->n_joints, sizeof *q);
    DstMcdOptions opt = dst_mcd_options_default();
    Rng rng = {seed};
    char err[512];
    int checked = 0, stopped = 0;
    for (int trial = 0; trial < trials; ++trial) {
        random_ctrl(p, &rng, x, ctrl);
        for (int i = 0; i < p->n_intervals; ++i) {
            double t0, t1;
            pln_problem_interval(p, i, &t0, &t1);
            ck_assert_msg(pln_problem_interval_motion(p, f->w, ctrl, i, err, sizeof err) == PLN_OK,
                          "%s", err);
            for (int pr = 0; pr < f->sc.n_pairs; ++pr) {
                DstMcdResult r;
                double smin;
                DstStatus ds = pln_problem_pair_mcd(p, f->w, pr, DST_MCD_HYBRID, t0, t1, &opt,
                                                    stop_above, &r, NULL, NULL);
                ck_assert_msg(ds != DST_INVALID_INPUT && ds != DST_FAILED, "pair %d: %s", pr,
                              dst_status_string(ds));
                smin = sampled_min(f, ctrl, q, pr, t0, t1);
                ck_assert_msg(r.lower <= smin + GEOM_TOL_M,
                              "%s trial %d interval %d pair %d: lower %.9g above sampled min %.9g",
                              pln_geometry_string(f->sc.geometry), trial, i, pr, r.lower, smin);
                ck_assert(r.t_min >= t0 && r.t_min <= t1);
                ck_assert(r.upper >= r.lower);
                if (ds == DST_CERTIFIED) ck_assert(r.upper - r.lower <= opt.eps * (1.0 + 1e-9));
                if (ds == DST_ABOVE_LIMIT) {
                    ck_assert(r.lower >= stop_above);
                    ++stopped;
                }
                ++checked;
            }
        }
    }
    if (isfinite(stop_above)) ck_assert_int_gt(stopped, 0); /* the stop was exercised */
    free(x);
    free(ctrl);
    free(q);
    return checked;
}

static const int KINDS[] = {PLN_GEOMETRY_CAPSULE, PLN_GEOMETRY_CONVEX, PLN_GEOMETRY_ELLIPSOID};

START_TEST(test_primitive_kinds_bound_sampled_distance)
{
    Fixture f;
    load(&f, "tests/data/geom_prims.yaml", KINDS[_i]);
    ck_assert_int_gt(check_bounds(&f, 0x9e0aULL + (uint64_t)_i, 3, INFINITY), 0);
    unload(&f);
}
END_TEST

/* Pairs below a moving common ancestor (geom_chain: the chest twists, the arms move),
 * which convex and ellipsoid geometry measure in the ancestor's frame (planner.md sec. 4e,
 * eq. P21): every bound stays below the exact distance sampled densely in the world. */
START_TEST(test_ancestor_frame_bounds_sampled_distance)
{
    Fixture f;
    load(&f, "tests/data/geom_chain.yaml", KINDS[_i]);
    ck_assert_int_gt(check_bounds(&f, 0xa2c0ULL + (uint64_t)_i, 3, INFINITY), 0);
    unload(&f);
}
END_TEST

/* The swept-box stop of capsule, convex and ellipsoid pairs (eq. P16): a stopped pair's
 * bound is below every sampled distance and at least the stop level, and the stop
 * happens; the bound itself, asked directly, is below the sampled minimum of every pair
 * and interval, and above it by no more than the sweep of the interval allows (not
 * -infinity: it decides). */
START_TEST(test_primitive_kinds_swept_stop_keeps_bounds)
{
    Fixture f;
    load(&f, "tests/data/geom_prims.yaml", KINDS[_i]);
    ck_assert_int_gt(check_bounds(&f, 0x5e7bULL + (uint64_t)_i, 3, GEOM_STOP_M), 0);
    unload(&f);
}
END_TEST

START_TEST(test_swept_lower_below_sampled_distance)
{
    Fixture f;
    const PlnProblem *p;
    double *x, *ctrl, *q;
    Rng rng = {0x5bULL + (uint64_t)_i};
    char err[512];
    int positive = 0;
    load(&f, "tests/data/geom_prims.yaml", KINDS[_i]);
    p = f.p;
    x = calloc((size_t)p->n_vars, sizeof *x);
    ctrl = calloc((size_t)p->n_active * p->n_ctrl, sizeof *ctrl);
    q = calloc((size_t)p->n_joints, sizeof *q);
    for (int trial = 0; trial < 3; ++trial) {
        random_ctrl(p, &rng, x, ctrl);
        for (int i = 0; i < p->n_intervals; ++i) {
            double t0, t1;
            pln_problem_interval(p, i, &t0, &t1);
            ck_assert_msg(pln_problem_interval_motion(p, f.w, ctrl, i, err, sizeof err) == PLN_OK, "%s", err);
            for (int pr = 0; pr < f.sc.n_pairs; ++pr) {
                double lo = pln_geom_pair_swept_lower(p->geom, f.w->lm, pr, &f.w->sweep), smin;
                /* the memo gives the same bound as a fresh computation */
                ck_assert(lo == pln_geom_pair_swept_lower(p->geom, f.w->lm, pr, NULL));
                smin = sampled_min(&f, ctrl, q, pr, t0, t1);
                ck_assert_msg(lo <= smin + GEOM_TOL_M, "%s trial %d interval %d pair %d: swept %.9g above sampled %.9g",
                              pln_geometry_string(f.sc.geometry), trial, i, pr, lo, smin);
                ck_assert(isfinite(lo));
                positive += lo > 0.0;
            }
        }
    }
    ck_assert_int_gt(positive, 0);
    free(x);
    free(ctrl);
    free(q);
    unload(&f);
}
END_TEST

/* A motion so wild that a link frame's Taylor models are no rotation (control points
 * alternating between the joint limits): the rows stay finite, an interval without a bound
 * gets the row eps + PLN_SIP_UNCERTIFIED_M - exact distance at its middle (never an abort
 * of the plan), and its lower bound is no claim. */
START_TEST(test_wild_motion_rows_without_bound)
{
    Fixture f;
    const PlnProblem *p;
    double *x, *c;
    char err[512];
    int wide = 0;
    load(&f, "scenarios/twist.yaml", PLN_GEOMETRY_CONVEX); /* the waist on a foot: long chains */
    p = f.p;
    x = calloc((size_t)p->n_vars, sizeof *x);
    c = calloc((size_t)p->m, sizeof *c);
    for (int i = 0; i < p->n_vars; ++i) x[i] = i % 2 ? p->lb[i] : p->ub[i];
    ck_assert_msg(pln_problem_constraints(p, f.w, x, c, NULL, err, sizeof err) == PLN_OK, "%s", err);
    for (int r = 0; r < p->m; ++r) ck_assert_msg(isfinite(c[r]), "row %d: %g", r, c[r]);
    for (int pr = 0; pr < f.sc.n_pairs; ++pr) {
        for (int i = 0; i < p->n_intervals; ++i) {
            size_t k = (size_t)pr * p->n_intervals + i;
            if (f.w->mcd[k].status != DST_FAILED) continue;
            ++wide;
            ck_assert(fabs(c[p->row_collision + (int)k] - (p->eps + PLN_SIP_UNCERTIFIED_M - f.w->exact[k])) <= 1e-12);
            ck_assert(f.w->mcd[k].lower <= f.w->exact[k] - PLN_SIP_UNCERTIFIED_M + 1e-12);
        }
    }
    ck_assert_int_gt(wide, 0); /* the case was met */
    free(x);
    free(c);
    unload(&f);
}
END_TEST

START_TEST(test_mesh_bounds_sampled_distance)
{
    Fixture f;
    load(&f, "tests/data/geom_mesh.yaml", -1);
    ck_assert_int_eq(f.p->geom->kind, PLN_GEOMETRY_MESH);
    ck_assert_int_gt(check_bounds(&f, 0x3e5bULL, 2, INFINITY), 0);
    unload(&f);
}
END_TEST

START_TEST(test_mesh_stop_above_keeps_bounds)
{
    Fixture f;
    load(&f, "tests/data/geom_mesh.yaml", -1);
    ck_assert_int_gt(check_bounds(&f, 0x570bULL, 2, GEOM_STOP_M), 0);
    unload(&f);
}
END_TEST

/* the mesh obstacle is the file scaled and placed: its BVH radius scales, and the static
 * distance of a link to it equals the distance to a hand-placed copy */
START_TEST(test_mesh_obstacle_scaled_and_placed)
{
    Fixture f;
    DstMesh m;
    DstBvh raw;
    char err[256];
    const PlnGeomShape *bust;
    load(&f, "tests/data/geom_mesh.yaml", -1);
    bust = &f.p->geom->obstacles[1];
    ck_assert(bust->loaded && bust->has_bvh);
    ck_assert_int_eq(dst_mesh_create_from_file("robots/meshes/head_link1.obj", &m, err, sizeof err), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&m, &raw, err, sizeof err), DST_OK);
    ck_assert_double_eq_tol(bust->bvh.radius, 1.5 * raw.radius, 1e-12);
    {
        PlnPairDistance d;
        DstMeshDistance ref;
        double *q = f.p->q_init;
        double R[9], xw[3];
        const PlnObstacle *o = &f.sc.obstacles[1];
        DstBvh scaled;
        for (int v = 0; v < m.n_vertices; ++v) {
            for (int k = 0; k < 3; ++k) m.vertices[v][k] *= 1.5;
        }
        ck_assert_int_eq(dst_bvh_create(&m, &scaled, err, sizeof err), DST_OK);
        ck_assert_int_eq(pln_kin_forward(f.kin, &f.robot, q), PLN_OK);
        ck_assert_int_eq(pln_geom_pair_distance(f.p->geom, f.kin, 2, NULL, &d), DST_OK);
        memcpy(R, pln_kin_link_rot(f.kin, f.sc.pairs[2].a.index), sizeof R);
        memcpy(xw, pln_kin_link_pos(f.kin, f.sc.pairs[2].a.index), sizeof xw);
        ck_assert_int_eq(f.sc.pairs[2].b_is_obstacle, 1);
        dst_bvh_distance(&f.p->geom->links[f.sc.pairs[2].a.index].bvh, R, xw, &scaled, o->rot,
                         o->pos, NULL, &ref);
        ck_assert_double_eq_tol(d.distance, ref.distance, 1e-12);
        dst_bvh_destroy(&scaled);
    }
    dst_bvh_destroy(&raw);
    dst_mesh_destroy(&m);
    unload(&f);
}
END_TEST

/* a link pushed into a mesh obstacle (non-convex overlap): the distance is minus the
 * deepest-penetrating-vertex depth, below 0 and above the hulls' bound, with witnesses
 * that realise it; deeper pushes read deeper */
START_TEST(test_mesh_overlap_reads_vertex_depth)
{
    Fixture f;
    PlnGeomShape *bust;
    const double *xh;
    double prev = 0.0;
    load(&f, "tests/data/geom_mesh.yaml", -1);
    ck_assert_int_eq(pln_kin_forward(f.kin, &f.robot, f.p->q_init), PLN_OK);
    bust = &f.p->geom->obstacles[1];
    xh = pln_kin_link_pos(f.kin, f.sc.pairs[2].a.index); /* RARM_LINK5 */
    for (int k = 0; k <= 4; ++k) {
        PlnPairDistance d;
        double e[3];
        /* the bust slides onto the link, ever deeper */
        for (int i = 0; i < 3; ++i) bust->pos[i] = xh[i];
        bust->pos[2] -= 0.02 * k;
        ck_assert_int_eq(pln_geom_pair_distance(f.p->geom, f.kin, 2, NULL, &d), DST_OK);
        if (k > 0) ck_assert_msg(d.distance < prev, "push %d: %g not below %g", k, d.distance, prev);
        ck_assert(d.distance < 0.0 || k == 0);
        ck_assert(d.lower <= d.distance + GEOM_TOL_M);
        for (int i = 0; i < 3; ++i) e[i] = d.pA[i] - d.pB[i] - d.distance * d.n[i];
        ck_assert(sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) < 1e-9);
        prev = d.distance;
    }
    unload(&f);
}
END_TEST

/* the first contact of a mesh pair: no sampled exact distance below 0 before t_lo, and
 * the pair within reach of contact at t_hi (the nominal distance there is <= eps; the true
 * one differs by at most the Taylor enclosures) */
START_TEST(test_mesh_first_contact_matches_sampling)
{
    Fixture f;
    Rng rng = {0xf1c7ULL};
    char err[512];
    int hits = 0;
    load(&f, "tests/data/geom_mesh.yaml", -1);
    {
        const PlnProblem *p = f.p;
        double *x = calloc((size_t)p->n_vars, sizeof *x);
        double *ctrl = calloc((size_t)p->n_active * p->n_ctrl, sizeof *ctrl);
        double *q = calloc((size_t)p->n_joints, sizeof *q);
        for (int trial = 0; trial < 6; ++trial) {
            pln_problem_initial_x(p, x);
            for (int i = 0; i < p->n_vars; ++i) {
                x[i] = fmin(fmax(x[i] + rng_uniform(&rng, -1.2, 1.2), p->lb[i]), p->ub[i]);
            }
            pln_problem_ctrl(p, x, ctrl);
            for (int i = 0; i < p->n_intervals; ++i) {
                double t0, t1;
                pln_problem_interval(p, i, &t0, &t1);
                ck_assert_msg(pln_problem_interval_motion(p, f.w, ctrl, i, err, sizeof err) == PLN_OK, "%s", err);
                for (int pr = 0; pr < f.sc.n_pairs; ++pr) {
                    DstMeshToc toc;
                    DstStatus ds = pln_geom_pair_first_contact(p->geom, f.w->lm, pr, t0, t1, 0.0,
                                                               GEOM_CONTACT_EPS_M, &toc);
                    double tend = ds == DST_CERTIFIED && !toc.hit ? t1 : toc.t_lo;
                    ck_assert(ds != DST_INVALID_INPUT && ds != DST_FAILED);
                    ck_assert(toc.t_lo >= t0 && toc.t_lo <= t1);
                    for (int s = 0; s <= GEOM_SAMPLES; ++s) {
                        double t = t0 + (tend - t0) * s / GEOM_SAMPLES;
                        PlnPairDistance d;
                        if (tend < t1 && t >= toc.t_lo) break; /* [t0, t_lo) only */
                        ck_assert_int_eq(pln_problem_joints_at(p, ctrl, t, q), PLN_OK);
                        ck_assert_int_eq(pln_kin_forward(f.kin, p->robot, q), PLN_OK);
                        ck_assert_int_eq(pln_geom_pair_distance(p->geom, f.kin, pr, NULL, &d), DST_OK);
                        ck_assert_msg(d.distance > -GEOM_TOL_M,
                                      "trial %d interval %d pair %d: distance %g at t = %g before t_lo = %g",
                                      trial, i, pr, d.distance, t, toc.t_lo);
                    }
                    if (ds == DST_CERTIFIED && toc.hit) {
                        ck_assert(toc.t_hi >= toc.t_lo && toc.t_hi - toc.t_lo <= PLN_CONTACT_TIME_TOL_S + 1e-12);
                        ck_assert(toc.distance <= GEOM_CONTACT_EPS_M + GEOM_TOL_M);
                        ++hits;
                    }
                }
            }
        }
        free(x);
        free(ctrl);
        free(q);
    }
    ck_assert_int_gt(hits, 0); /* contacts were found, so the test bites */
    unload(&f);
}
END_TEST

/* the mesh collision rows do not depend on the thread count: the same sequence of
 * evaluations on 1 and on 2 threads gives bit-identical rows and gradients (each pair and
 * interval keeps its own warm start) */
START_TEST(test_mesh_rows_identical_on_threads)
{
    Fixture f;
    PlnProblemWork *w2;
    Rng rng = {0x7ead5ULL};
    char err[512];
    load(&f, "tests/data/geom_mesh.yaml", -1);
    ck_assert_int_eq(pln_problem_work_create(f.p, &w2, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_problem_work_set_threads(f.p, w2, 2, err, sizeof err), PLN_OK);
    {
        int n = f.p->n_vars, m = f.p->m;
        double *x = calloc((size_t)n, sizeof *x), *c1 = calloc((size_t)m, sizeof *c1);
        double *c2 = calloc((size_t)m, sizeof *c2), *g1 = calloc((size_t)m * n, sizeof *g1);
        double *g2 = calloc((size_t)m * n, sizeof *g2);
        pln_problem_initial_x(f.p, x);
        for (int trial = 0; trial < 16; ++trial) {
            /* a drifting trajectory, as the optimiser's are: warm starts carry over */
            for (int i = 0; i < n; ++i) {
                x[i] = fmin(fmax(x[i] + rng_uniform(&rng, -0.15, 0.15), f.p->lb[i]), f.p->ub[i]);
            }
            ck_assert_int_eq(pln_problem_constraints(f.p, f.w, x, c1, g1, err, sizeof err), PLN_OK);
            ck_assert_int_eq(pln_problem_constraints(f.p, w2, x, c2, g2, err, sizeof err), PLN_OK);
            ck_assert(memcmp(c1, c2, (size_t)m * sizeof *c1) == 0);
            ck_assert(memcmp(g1, g2, (size_t)m * n * sizeof *g1) == 0);
        }
        free(x);
        free(c1);
        free(c2);
        free(g1);
        free(g2);
    }
    pln_problem_work_destroy(w2);
    unload(&f);
}
END_TEST

/* a missing or broken mesh file is an error naming the obstacle and the file */
START_TEST(test_mesh_file_errors)
{
    static const char *const bodies[] = {"", "solid x\nendsolid x\n", "v 0 0 0\nv 1 0 0\nf 1 2 3\n",
                                         /* degenerate: collinear, and a repeated index */
                                         "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 2\n"};
    char dir[256], path[512], mesh[512], err[1024], cwd[512];
    PlnScenario sc;
    PlnRobot robot;
    PlnGeom *g = NULL;
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    for (int b = -1; b < 4; ++b) {
        FILE *fp;
        snprintf(mesh, sizeof mesh, "%s/thing.obj", dir);
        remove(mesh);
        if (b >= 0) {
            fp = fopen(mesh, "w");
            ck_assert_ptr_nonnull(fp);
            fputs(bodies[b], fp);
            fclose(fp);
        }
        snprintf(path, sizeof path, "%s/s.yaml", dir);
        fp = fopen(path, "w");
        ck_assert_ptr_nonnull(fp);
        fprintf(fp, "name: s\nrobot: %s/robots/hrp2.yaml\nduration: 1\njoints: [RARM_JOINT0]\n"
                    "environment:\n  - {name: thing, type: mesh, file: thing.obj}\n"
                    "collision: {geometry: mesh, pairs: [[RARM_LINK6, thing]]}\n",
                cwd);
        fclose(fp);
        ck_assert_int_eq(pln_scenario_parse(path, &sc, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_robot_load(sc.robot_path, &robot, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_scenario_resolve(&sc, &robot, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_geom_create(&g, &robot, &sc, err, sizeof err), PLN_ERR_INVALID);
        ck_assert_ptr_null(g);
        ck_assert_msg(strstr(err, "s.yaml:6: environment[0] (thing)") != NULL &&
                      strstr(err, "thing.obj") != NULL, "case %d: %s", b, err);
        if (b == 3) ck_assert_msg(strstr(err, "degenerate mesh: all 2 of its triangles") != NULL, "%s", err);
        pln_robot_destroy(&robot);
        pln_scenario_destroy(&sc);
    }
    remove(mesh);
    remove(path);
    ckutil_rm_flat(dir);
}
END_TEST

/* issue 19: with collision.distance phong a mesh that PhongDist cannot take (open: a
 * tetrahedron without its base) is an error naming the obstacle, the file and the need
 * for closed meshes; the same scenario with a closed mesh builds every model */
START_TEST(test_phong_needs_closed_meshes)
{
    static const char *const bodies[] = {"v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 2 4\nf 2 3 4\nf 3 1 4\n",
                                         "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 2 4\nf 2 3 4\nf 3 1 4\n"
                                         "f 1 3 2\n"};
    char dir[256], path[512], mesh[512], err[1024], cwd[512];
    PlnScenario sc;
    PlnRobot robot;
    PlnGeom *g = NULL;
    ckutil_mkdtemp(dir, sizeof dir);
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    for (int b = 0; b < 2; ++b) {
        FILE *fp;
        snprintf(mesh, sizeof mesh, "%s/thing.obj", dir);
        fp = fopen(mesh, "w");
        ck_assert_ptr_nonnull(fp);
        fputs(bodies[b], fp);
        fclose(fp);
        snprintf(path, sizeof path, "%s/s.yaml", dir);
        fp = fopen(path, "w");
        ck_assert_ptr_nonnull(fp);
        fprintf(fp, "name: s\nrobot: %s/robots/hrp2.yaml\nduration: 1\njoints: [RARM_JOINT0]\n"
                    "environment:\n  - {name: thing, type: mesh, file: thing.obj, position: [0.5, 0, 0.5]}\n"
                    "  - {name: crate, type: box, center: [0.3, -0.3, 0.75], size: [0.1, 0.1, 0.1]}\n"
                    "collision: {geometry: mesh, distance: phong, pairs: [[RARM_LINK6, crate], [RARM_LINK6, thing]]}\n",
                cwd);
        fclose(fp);
        ck_assert_int_eq(pln_scenario_parse(path, &sc, err, sizeof err), PLN_OK);
        ck_assert_int_eq(sc.distance, PLN_DISTANCE_PHONG);
        ck_assert_int_eq(pln_robot_load(sc.robot_path, &robot, err, sizeof err), PLN_OK);
        ck_assert_int_eq(pln_scenario_resolve(&sc, &robot, err, sizeof err), PLN_OK);
        if (b == 0) {
            ck_assert_int_eq(pln_geom_create(&g, &robot, &sc, err, sizeof err), PLN_ERR_INVALID);
            ck_assert_ptr_null(g);
            ck_assert_msg(strstr(err, "s.yaml:6: environment[0] (thing)") != NULL &&
                              strstr(err, "thing.obj") != NULL &&
                              strstr(err, "collision.distance phong needs closed meshes") != NULL,
                          "%s", err);
        } else {
            ck_assert_msg(pln_geom_create(&g, &robot, &sc, err, sizeof err) == PLN_OK, "%s", err);
            ck_assert(g->links[robot.n_links > 0 ? sc.pairs[0].a.index : 0].has_phong);
            ck_assert(g->obstacles[0].has_phong && g->obstacles[1].has_phong);
            pln_geom_destroy(g);
            g = NULL;
        }
        pln_robot_destroy(&robot);
        pln_scenario_destroy(&sc);
    }
    remove(mesh);
    remove(path);
    ckutil_rm_flat(dir);
}
END_TEST

/* geometry mesh measures a sphere or capsule obstacle as the polyhedron that encloses it
 * (pln_geom load_obstacle, docs/SCENARIO_FORMAT.md "Geometry"): random points of the true
 * surfaces, placed in the world, lie inside the obstacle's mesh where the scenario puts it,
 * and at random postures every pair's distance lies between the exact distance of the link
 * mesh to the true shape (triangles against the centre or the segment, dst_tri_distance)
 * minus 1 % of the radius and that exact distance */
START_TEST(test_mesh_sphere_capsule_obstacles_enclose)
{
    Fixture f;
    Rng rng = {0x5fe4eULL};
    int checked = 0;
    load(&f, "tests/data/geom_mesh_round.yaml", -1);
    for (int k = 0; k < f.sc.n_obstacles; ++k) {
        const PlnObstacle *o = &f.sc.obstacles[k];
        const PlnGeomShape *sh = &f.p->geom->obstacles[k];
        ck_assert(sh->loaded && sh->has_bvh);
        for (int i = 0; i < 2000; ++i) {
            double u[3], n = 0.0, t = rng_uniform(&rng, 0.0, 1.0), pw[3], pl[3];
            for (int d = 0; d < 3; ++d) {
                u[d] = rng_uniform(&rng, -1.0, 1.0);
                n += u[d] * u[d];
            }
            n = sqrt(n);
            if (n < 1e-3) continue;
            for (int d = 0; d < 3; ++d) {
                double c = o->type == PLN_OBSTACLE_SPHERE ? o->p0[d] : o->p0[d] + t * (o->p1[d] - o->p0[d]);
                pw[d] = c + o->radius * u[d] / n;
            }
            for (int r = 0; r < 3; ++r) {
                pl[r] = 0.0;
                for (int d = 0; d < 3; ++d) pl[r] += sh->rot[3 * d + r] * (pw[d] - sh->pos[d]);
            }
            ck_assert_msg(dst_bvh_contains(&sh->bvh, pl), "obstacle %d: surface point %d outside", k, i);
        }
    }
    for (int trial = 0; trial < 40; ++trial) {
        double *q = calloc((size_t)f.p->n_joints, sizeof *q);
        memcpy(q, f.p->q_init, (size_t)f.p->n_joints * sizeof *q);
        for (int a = 0; a < f.p->n_active; ++a) q[f.p->active[a]] += rng_uniform(&rng, -0.8, 0.8);
        ck_assert_int_eq(pln_kin_forward(f.kin, &f.robot, q), PLN_OK);
        for (int pr = 0; pr < f.sc.n_pairs; ++pr) {
            const PlnPair *pair = &f.sc.pairs[pr];
            const PlnObstacle *o = &f.sc.obstacles[pair->b.index];
            const PlnGeomShape *ls = &f.p->geom->links[pair->a.index];
            const double *R = pln_kin_link_rot(f.kin, pair->a.index), *x = pln_kin_link_pos(f.kin, pair->a.index);
            double seg[9], exact = HUGE_VAL;
            PlnPairDistance dist;
            DstMesh m;
            char err[512];
            ck_assert_int_eq(pair->b_is_obstacle, 1);
            for (int d = 0; d < 3; ++d) {
                seg[d] = o->p0[d];
                seg[3 + d] = seg[6 + d] = o->type == PLN_OBSTACLE_SPHERE ? o->p0[d] : o->p1[d];
            }
            ck_assert_msg(pln_link_mesh_read(&f.robot, pair->a.index, &m, err, sizeof err) == PLN_OK, "%s", err);
            for (int tr = 0; tr < m.n_triangles; ++tr) {
                double tri[9];
                DstTriPair tp;
                for (int c = 0; c < 3; ++c) {
                    const double *v = m.vertices[m.triangles[tr][c]];
                    double vl[3];
                    for (int r = 0; r < 3; ++r) {
                        vl[r] = ls->pos[r];
                        for (int d = 0; d < 3; ++d) vl[r] += ls->rot[3 * r + d] * v[d];
                    }
                    for (int r = 0; r < 3; ++r) {
                        tri[3 * c + r] = x[r];
                        for (int d = 0; d < 3; ++d) tri[3 * c + r] += R[3 * r + d] * vl[d];
                    }
                }
                dst_tri_distance(tri, seg, &tp);
                if (tp.dist < exact) exact = tp.dist;
            }
            dst_mesh_destroy(&m);
            exact -= o->radius;
            if (!(exact > 1e-3)) continue; /* overlapping: the depth is another test's */
            ck_assert_int_eq(pln_geom_pair_distance(f.p->geom, f.kin, pr, NULL, &dist), DST_OK);
            ck_assert_msg(dist.distance <= exact + 1e-12 && dist.distance >= exact - 0.01 * o->radius,
                          "pair %d trial %d: %.9f vs exact %.9f (radius %g)", pr, trial,
                          dist.distance, exact, o->radius);
            ++checked;
        }
        free(q);
    }
    ck_assert_int_gt(checked, 40);
    unload(&f);
}
END_TEST

Suite *pln_geom_suite(void)
{
    Suite *s = suite_create("pln_geom");
    TCase *tc = tcase_create("bounds");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_primitive_kinds_bound_sampled_distance, 0, 3);
    tcase_add_loop_test(tc, test_ancestor_frame_bounds_sampled_distance, 0, 3);
    tcase_add_loop_test(tc, test_primitive_kinds_swept_stop_keeps_bounds, 0, 3);
    tcase_add_loop_test(tc, test_swept_lower_below_sampled_distance, 0, 3);
    tcase_add_test(tc, test_wild_motion_rows_without_bound);
    tcase_add_test(tc, test_mesh_bounds_sampled_distance);
    tcase_add_test(tc, test_mesh_stop_above_keeps_bounds);
    tcase_add_test(tc, test_mesh_first_contact_matches_sampling);
    tcase_add_test(tc, test_mesh_rows_identical_on_threads);
    suite_add_tcase(s, tc);
    tc = tcase_create("load");
    tcase_set_timeout(tc, 60); /* robot loads and PhongDist models on a loaded machine */
    tcase_add_test(tc, test_mesh_obstacle_scaled_and_placed);
    tcase_add_test(tc, test_mesh_sphere_capsule_obstacles_enclose);
    tcase_add_test(tc, test_mesh_overlap_reads_vertex_depth);
    tcase_add_test(tc, test_mesh_file_errors);
    tcase_add_test(tc, test_phong_needs_closed_meshes);
    suite_add_tcase(s, tc);
    return s;
}
