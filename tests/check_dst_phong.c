/* check_dst_phong.c — tests of distance/dst_phong.c, PhongDist (thesis ch. V):
 * 1. continuity: random continuous motions (translation and rotation) of a small cube across
 *    the medial axis of the Minkowski sum — over the concave corner of an L-block (apart) and
 *    across the bisector of a box edge (overlapping); the PhongDist direction turns by less than
 *    C * step per step, while the Euclidean direction (dst_bvh_distance) jumps on the same motions;
 * 2. agreement with the Euclidean signed distance to 1e-9 where the foot is far from any crease;
 * 3. the implicit-function gradient against central differences of whole queries, and the
 *    closed-form partials of the normal field (eq. P5a-P5f) against central differences of the
 *    field itself;
 * 4. meshes nobody tuned for: the HRP-2 and arm4 meshes under robots/, tori, thin plates,
 *    L-blocks (warm and cold starts agree there too); the warm start; bad input. docs/math/phong.md states C and the reasons. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dst_capsule_testgen.h"
#include "dst_mesh_testgen.h"
#include "dst_phong.h"
#include "dst_phong_internal.h"

/* random motions of the continuity test (split over the two scenes), steps per motion */
#define PH_MOTIONS (TG_ASAN ? 100 : 1000)
#define PH_STEPS 40
/* translation step, metres; rotation speed up to PH_ROT_RATE radians per metre of path */
#define PH_STEP 1e-4
#define PH_ROT_RATE 30.0
/* C of issue 19: bound of the turn of the direction per step, radians per metre of path
 * (docs/math/phong.md sec. 5: across a right-angle crease the averaged normal turns by pi/2
 * over about the ball diameter, h >= h_min = 6.3 mm in these scenes: ~ (pi/2) / h_min = 250
 * rad/m, times the Phong amplification 1 / (1 - |q| kappa) <= 2 when beta = 2; measured max
 * 276 rad/m (283 and 267 with seeds 7 and 1234); a Euclidean jump is ~1e4 rad/m) */
#define PH_C 600.0
/* the L-block with the cube turning: largest share of steps allowed above C (measured 0.015-0.022 %
 * with seeds 19, 7 and 1234, docs/math/phong.md sec. 5) */
#define PH_TURNING_CONCAVE_SHARE 0.001
/* a Euclidean step counts as a jump when its direction turns by more than this, radians
 * (C * step = 0.06 rad: a jump is far outside what PhongDist may do in a step) */
#define PH_JUMP 0.3
/* agreement with the Euclidean distance, metres */
#define PH_AGREE_TOL 1e-9
#define PH_AGREE_CASES (TG_ASAN ? 40 : 400)
/* gradient check: central-difference steps (metres, radians) and allowed mismatch
 * |g - fd| <= abs + rel |fd| (the reference solves G = 0 by Newton on each side, to the
 * residual DST_PHONG_RESIDUAL_REL (|q| + h), i.e. ~1e-14 m / 1e-6 m = 1e-8 of noise in a
 * difference quotient, plus the curvature of delta over the step) */
#define PH_FD_STEP 1e-6
#define PH_GRAD_ABS 2e-5
#define PH_GRAD_REL 1e-3
#define PH_GRAD_CASES (TG_ASAN ? 10 : 60)
/* field partials (phong.md eq. P5a-P5f) against central differences of the field: poses, points
 * per pose; steps in s and u (dimensionless; the facets are 1-30 cm, so the point moves by
 * 1e-8 to 3e-8 m, ~1e-6 h), t (m) and w (rad). The quotient's rounding is ~1e-17 m (G, delta of
 * ~1e-2 m to 16 digits) over 2e-8 m, ~1e-9 of a partial of size ~1, and its truncation
 * (step / h)^2 ~ 1e-12: PH_PARTIAL_REL = 1e-6 is a hundred times that noise, while a wrong or
 * missing term of P5b-P5f is an error of the size of the field's bending, 1e-3 to 1. A column
 * (G and delta along one direction) is compared only where the quotients at the step and at
 * 0.37 times it agree to PH_PARTIAL_REL / 10: where a kink of the field (a trimming piece
 * changing side) or an edge of a facet near tangency to the circle of the ball (the area's
 * second derivative grows without bound there) falls inside the step, the quotients are not
 * the derivative to that accuracy; at most PH_PARTIAL_SKIP of the columns may be left out so. */
#define PH_PARTIAL_POSES (TG_ASAN ? 6 : 48)
#define PH_PARTIAL_POINTS 12
#define PH_PARTIAL_STEP_SU 1e-6
#define PH_PARTIAL_STEP_T 1e-7
#define PH_PARTIAL_STEP_W 1e-6
#define PH_PARTIAL_REL 1e-6
#define PH_PARTIAL_SKIP 0.02
/* meshes nobody tuned for: poses per pair, least share that must converge */
#define PH_UNTUNED_POSES (TG_ASAN ? 4 : 16)
#define PH_UNTUNED_CONVERGED 0.9
/* Phong q lies in M, so |q| >= the Euclidean distance when apart; rounding allowance, metres */
#define PH_BELOW_EUCLID_TOL 1e-9
/* warm and cold start agree to this, metres */
#define PH_WARM_TOL 1e-9

static const double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static const double Z3[3] = {0, 0, 0};

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double turn(const double a[3], const double b[3])
{
    double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    return atan2(sqrt(dot3(c, c)), dot3(a, b));
}

static void exp_rot(const double w[3], const double R0[9], double R[9])
{
    double th = sqrt(dot3(w, w)), E[9];
    if (th == 0.0) {
        memcpy(R, R0, 9 * sizeof(double));
        return;
    }
    double k[3] = {w[0] / th, w[1] / th, w[2] / th};
    tg_rot(k, th, E);
    tg_matmul(E, R0, R);
}

static void model(const DstMesh *m, DstPhongModel *pm)
{
    char err[256];
    DstStatus st = dst_phong_model_create(m, pm, err, sizeof err);
    ck_assert_msg(st == DST_OK, "%s", err);
}

static DstMesh cube(double half)
{
    double lo[3] = {-half, -half, -half}, hi[3] = {half, half, half};
    return mg_box(lo, hi);
}

/* ------------------------------------------------------------------ 1. continuity */

typedef struct MotionStats {
    double max_rate;      /* largest PhongDist turn per step / step, rad/m */
    int euclid_jumps;     /* Euclidean steps turning by more than PH_JUMP */
    int motions_jumping;  /* motions with at least one such step */
    int not_converged;
    int above_c;          /* steps whose turn exceeds C * step */
    int steps;
} MotionStats;

/* One motion: B posed at (exp(s [w]) R0, t0 + s u) for s = 0, step, ..., PhongDist warm-started
 * along it, the Euclidean direction beside it. */
static void run_motion(const DstPhongModel *a, const DstPhongModel *b, DstPhongWorkspace *ws,
                       const double R0[9], const double t0[3], const double u[3], const double w[3],
                       MotionStats *ms)
{
    DstPhongOptions o = dst_phong_options_default();
    o.gradient = 0;
    double prev[3], prevE[3], q[3];
    int jumped = 0;
    for (int k = 0; k <= PH_STEPS; ++k) {
        double s = k * PH_STEP, ws3[3] = {w[0] * s, w[1] * s, w[2] * s}, R[9], t[3];
        exp_rot(ws3, R0, R);
        for (int i = 0; i < 3; ++i) t[i] = t0[i] + s * u[i];
        DstPhongResult r;
        DstStatus st = dst_phong_distance(a, b, R, t, &o, k > 0 ? q : NULL, ws, &r);
        ck_assert_msg(st == DST_SEPARATED || st == DST_PENETRATING || st == DST_TOUCHING || st == DST_ITER_LIMIT,
                      "status %s", dst_status_string(st));
        if (st == DST_ITER_LIMIT) ms->not_converged++;
        memcpy(q, r.q, sizeof q);
        DstMeshDistance md;
        dst_bvh_distance(&a->bvh, I3, Z3, &b->bvh, R, t, NULL, &md);
        if (k > 0) {
            double rate = turn(prev, r.n) / PH_STEP;
            if (rate > ms->max_rate) ms->max_rate = rate;
            if (rate >= PH_C) ms->above_c++;
            if (turn(prevE, md.n) > PH_JUMP) ms->euclid_jumps++, jumped = 1;
        }
        memcpy(prev, r.n, sizeof prev), memcpy(prevE, md.n, sizeof prevE);
        ms->steps++;
    }
    ms->motions_jumping += jumped;
}

/* a small random rotation, and a path direction u tilted at random from the crossing direction */
static void motion_setup(TgRng *rng, const double cross[3], double R0[9], double u[3], double w[3])
{
    double k[3];
    tg_unit(rng, k);
    tg_rot(k, tg_uniform(rng, 0.0, 0.3), R0);
    double tilt[3];
    tg_unit(rng, tilt);
    for (int i = 0; i < 3; ++i) u[i] = cross[i] + 0.3 * tilt[i];
    double l = sqrt(dot3(u, u));
    for (int i = 0; i < 3; ++i) u[i] /= l;
    tg_unit(rng, w);
    double rate = tg_uniform(rng, 0.0, PH_ROT_RATE);
    for (int i = 0; i < 3; ++i) w[i] *= rate;
}

/* The medial-axis scenes: a 1 cm cube C over the concave corner of an L-block L (edge
 * x = y = 0.1, z in [0, 0.1]), which crosses the bisector plane x = y apart; a 2 cm cube C2
 * overlapping the edge x = 0.2, z = 0.1 of a box B, crossing the bisector of the two faces
 * (penetrating; both convex, so EPA is the Euclidean reference). */
typedef struct Scenes {
    DstMesh ml, mc, mb, mc2;
    DstPhongModel L, C, B, C2;
} Scenes;

static void scenes_build(Scenes *sc)
{
    double blo[3] = {0, 0, 0}, bhi[3] = {0.2, 0.2, 0.1};
    sc->ml = mg_lblock(0.1), sc->mc = cube(0.005);
    sc->mb = mg_box(blo, bhi), sc->mc2 = cube(0.01);
    model(&sc->ml, &sc->L), model(&sc->mc, &sc->C), model(&sc->mb, &sc->B), model(&sc->mc2, &sc->C2);
}

static void scenes_free(Scenes *sc)
{
    dst_phong_model_destroy(&sc->L), dst_phong_model_destroy(&sc->C), dst_phong_model_destroy(&sc->B);
    dst_phong_model_destroy(&sc->C2);
    dst_mesh_destroy(&sc->ml), dst_mesh_destroy(&sc->mc), dst_mesh_destroy(&sc->mb);
    dst_mesh_destroy(&sc->mc2);
}

START_TEST(test_continuity_across_medial_axes)
{
    TgRng rng = {19};
    /* scenes 1 and 3: the cube over the L-block's corner; scene 1 translates only, scene 3
     * also turns the cube; scene 2: the cube on the box edge, turning */
    Scenes sc;
    scenes_build(&sc);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    ck_assert_ptr_nonnull(ws);
    MotionStats st[3];
    memset(st, 0, sizeof st);
    int motions[3] = {0, 0, 0};
    double half = 0.5 * PH_STEPS * PH_STEP;
    for (int m = 0; m < PH_MOTIONS; ++m) {
        int scene = m % 3;
        double R0[9], u[3], w[3], t0[3];
        ++motions[scene];
        if (scene != 1) {
            static const double cross[3] = {0.70710678118654752, -0.70710678118654752, 0.0};
            motion_setup(&rng, cross, R0, u, w);
            if (scene == 0) w[0] = w[1] = w[2] = 0.0;
            double d = tg_uniform(&rng, 0.008, 0.025), z = tg_uniform(&rng, 0.03, 0.07);
            double off = tg_uniform(&rng, -0.5 * half, 0.5 * half);
            double mid[3] = {0.1 + d, 0.1 + d, z};
            for (int i = 0; i < 3; ++i) t0[i] = mid[i] - (half + off) * u[i];
            run_motion(&sc.L, &sc.C, ws, R0, t0, u, w, &st[scene]);
        } else {
            static const double cross[3] = {0.70710678118654752, 0.0, 0.70710678118654752};
            motion_setup(&rng, cross, R0, u, w);
            double p = tg_uniform(&rng, 0.002, 0.006), y = tg_uniform(&rng, 0.05, 0.15);
            double off = tg_uniform(&rng, -0.5 * half, 0.5 * half);
            double mid[3] = {0.2 + 0.01 - p, y, 0.1 + 0.01 - p};
            for (int i = 0; i < 3; ++i) t0[i] = mid[i] - (half + off) * u[i];
            run_motion(&sc.B, &sc.C2, ws, R0, t0, u, w, &st[scene]);
        }
    }
    static const char *names[3] = {"L-block apart, translating", "box edge overlapping, turning",
                                   "L-block apart, turning"};
    for (int k = 0; k < 3; ++k) {
        fprintf(stderr,
                "dst_phong continuity: %s: max turn %.1f rad/m, %d of %d steps above C, %d Euclidean jumps"
                " (> %.1f rad) in %d of %d motions, %d not converged\n",
                names[k], st[k].max_rate, st[k].above_c, st[k].steps, st[k].euclid_jumps, PH_JUMP,
                st[k].motions_jumping, motions[k], st[k].not_converged);
        /* the same motions make the Euclidean direction jump: the test can fail */
        ck_assert_int_ge(st[k].motions_jumping, motions[k] / 4);
        ck_assert_int_eq(st[k].not_converged, 0);
    }
    ck_assert_msg(st[0].max_rate < PH_C, "L-block: direction turned %g rad/m > C = %g", st[0].max_rate, PH_C);
    ck_assert_msg(st[1].max_rate < PH_C, "box edge: direction turned %g rad/m > C = %g", st[1].max_rate, PH_C);
    /* known weakness (docs/math/phong.md sec. 6): with the cube turning, the trimming of the
     * convolution at the concave crease changes at Gauss-map events and the direction can jump
     * there; bounded share of such steps */
    ck_assert_msg(st[2].above_c <= PH_TURNING_CONCAVE_SHARE * st[2].steps, "L-block turning: %d of %d steps above C",
                  st[2].above_c, st[2].steps);
    dst_phong_workspace_destroy(ws);
    scenes_free(&sc);
}
END_TEST

/* ------------------------------------------------------------------ 2. agreement */

START_TEST(test_agreement_far_from_creases)
{
    TgRng rng = {2019};
    double lo[3] = {-0.2, -0.2, -0.1}, hi[3] = {0.2, 0.2, 0.1};
    DstMesh mb = mg_box(lo, hi), mc = cube(0.01);
    DstPhongModel B, C;
    model(&mb, &B), model(&mc, &C);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    double worst = 0.0;
    for (int k = 0; k < PH_AGREE_CASES; ++k) {
        /* a randomly turned cube above the middle of the top face, its lowest vertex 0.5-3 mm
         * above it or below it */
        double ax[3], R[9], t[3];
        tg_unit(&rng, ax);
        tg_rot(ax, tg_uniform(&rng, -3.0, 3.0), R);
        double low = 0.01 * (fabs(R[6]) + fabs(R[7]) + fabs(R[8]));
        double gap = tg_uniform(&rng, 0.0005, 0.003) * (k % 2 ? -1.0 : 1.0);
        t[0] = tg_uniform(&rng, -0.05, 0.05), t[1] = tg_uniform(&rng, -0.05, 0.05), t[2] = 0.1 + low + gap;
        DstPhongResult r;
        DstStatus st = dst_phong_distance(&B, &C, R, t, NULL, NULL, ws, &r);
        ck_assert_int_eq(st, gap > 0 ? DST_SEPARATED : DST_PENETRATING);
        DstMeshDistance md;
        dst_bvh_distance(&B.bvh, I3, Z3, &C.bvh, R, t, NULL, &md);
        double e = fabs(r.distance - md.distance);
        if (e > worst) worst = e;
        ck_assert_msg(e <= PH_AGREE_TOL, "case %d: phong %.15g euclid %.15g", k, r.distance, md.distance);
        ck_assert(fabs(r.distance - gap) <= PH_AGREE_TOL);
        ck_assert(turn(r.n, md.n) <= PH_AGREE_TOL / 0.01);
        /* witnesses: pa - pb = q, |q| = |distance| */
        for (int i = 0; i < 3; ++i) ck_assert(fabs(r.pa[i] - r.pb[i] - r.q[i]) <= PH_AGREE_TOL);
        ck_assert(fabs(sqrt(dot3(r.q, r.q)) - fabs(r.distance)) <= PH_AGREE_TOL);
    }
    fprintf(stderr, "dst_phong agreement: worst |phong - euclid| %.3g m over %d cases\n", worst, PH_AGREE_CASES);
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&B), dst_phong_model_destroy(&C);
    dst_mesh_destroy(&mb), dst_mesh_destroy(&mc);
}
END_TEST

/* ------------------------------------------------------------------ 3. gradient */

static double phong_at(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                       DstPhongWorkspace *ws)
{
    DstPhongOptions o = dst_phong_options_default();
    o.gradient = 0;
    DstPhongResult r;
    DstStatus st = dst_phong_distance(a, b, R, t, &o, NULL, ws, &r);
    ck_assert(st == DST_SEPARATED || st == DST_PENETRATING);
    return r.distance;
}

START_TEST(test_gradient_vs_central_differences)
{
    TgRng rng = {5};
    Scenes sc;
    scenes_build(&sc);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    double worst = 0.0;
    for (int k = 0; k < PH_GRAD_CASES; ++k) {
        const DstPhongModel *a = k % 2 ? &sc.B : &sc.L, *b = k % 2 ? &sc.C2 : &sc.C;
        double ax[3], R[9], t[3];
        tg_unit(&rng, ax);
        tg_rot(ax, tg_uniform(&rng, 0.0, 0.5), R);
        if (k % 2 == 0) {
            double d = tg_uniform(&rng, 0.008, 0.025), off = tg_uniform(&rng, -0.004, 0.004);
            t[0] = 0.1 + d + off, t[1] = 0.1 + d - off, t[2] = tg_uniform(&rng, 0.03, 0.07);
        } else {
            double p = tg_uniform(&rng, 0.002, 0.006), off = tg_uniform(&rng, -0.002, 0.002);
            t[0] = 0.21 - p + off, t[1] = tg_uniform(&rng, 0.05, 0.15), t[2] = 0.11 - p - off;
        }
        DstPhongResult r;
        DstStatus st = dst_phong_distance(a, b, R, t, NULL, NULL, ws, &r);
        ck_assert(st == DST_SEPARATED || st == DST_PENETRATING);
        for (int j = 0; j < 6; ++j) {
            double Rp[9], Rm[9], tp[3], tm[3];
            memcpy(Rp, R, sizeof Rp), memcpy(Rm, R, sizeof Rm), memcpy(tp, t, sizeof tp), memcpy(tm, t, sizeof tm);
            if (j < 3) {
                tp[j] += PH_FD_STEP, tm[j] -= PH_FD_STEP;
            } else {
                double w[3] = {0, 0, 0};
                w[j - 3] = PH_FD_STEP;
                exp_rot(w, R, Rp);
                w[j - 3] = -PH_FD_STEP;
                exp_rot(w, R, Rm);
            }
            double fd = (phong_at(a, b, Rp, tp, ws) - phong_at(a, b, Rm, tm, ws)) / (2.0 * PH_FD_STEP);
            double e = fabs(r.grad[j] - fd);
            if (e > worst) worst = e;
            ck_assert_msg(e <= PH_GRAD_ABS + PH_GRAD_REL * fabs(fd), "case %d component %d: analytic %.9g fd %.9g",
                          k, j, r.grad[j], fd);
        }
    }
    fprintf(stderr, "dst_phong gradient: worst |analytic - central difference| %.3g over %d cases\n", worst,
            PH_GRAD_CASES);
    dst_phong_workspace_destroy(ws);
    scenes_free(&sc);
}
END_TEST

/* G and delta (eq. P2, P3) of facet F at (s, u) and the pose (R exp along direction j by h) */
static int probe_dir(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                     DstPhongWorkspace *ws, int F, double s, double u, int j, double h, double v[3])
{
    double Rp[9], tp[3], x[3], nu[3];
    memcpy(Rp, R, sizeof Rp), memcpy(tp, t, sizeof tp);
    if (j == 0) s += h;
    if (j == 1) u += h;
    if (j >= 2 && j < 5) tp[j - 2] += h;
    if (j >= 5) {
        double w[3] = {0, 0, 0};
        w[j - 5] = h;
        exp_rot(w, R, Rp);
    }
    return dst_phong_probe_value(a, b, R, t, NULL, ws, F, s, u, Rp, tp, x, v, &v[2], nu);
}

static double col_diff(const double a[3], const double b[3])
{
    return fmax(fabs(a[0] - b[0]), fmax(fabs(a[1] - b[1]), fabs(a[2] - b[2])));
}

static double col_norm(const double a[3])
{
    return fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
}

/* central difference of (G, delta) along direction j with step h */
static int central(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                   DstPhongWorkspace *ws, int F, double s, double u, int j, double h, double fd[3])
{
    double vp[3], vm[3];
    if (!probe_dir(a, b, R, t, ws, F, s, u, j, h, vp) || !probe_dir(a, b, R, t, ws, F, s, u, j, -h, vm)) return 0;
    for (int i = 0; i < 3; ++i) fd[i] = (vp[i] - vm[i]) / (2.0 * h);
    return 1;
}

START_TEST(test_field_partials_vs_central_differences)
{
    TgRng rng = {1919};
    Scenes sc;
    scenes_build(&sc);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    double worst[3] = {0.0, 0.0, 0.0}; /* (s, u), t, w */
    int compared = 0, skipped = 0, points = 0, near = 0;
    for (int k = 0; k < PH_PARTIAL_POSES; ++k) {
        /* the L-block scene (apart) and the box scene (overlapping); every other pose of each
         * turned by up to pi instead of 0.5 rad */
        int box = k % 2, wide = (k / 2) % 2;
        const DstPhongModel *a = box ? &sc.B : &sc.L, *b = box ? &sc.C2 : &sc.C;
        double ax[3], R[9], t[3];
        tg_unit(&rng, ax);
        tg_rot(ax, tg_uniform(&rng, 0.0, wide ? MG_PI : 0.5), R);
        if (!box) {
            double d = tg_uniform(&rng, 0.008, 0.025), off = tg_uniform(&rng, -0.006, 0.006);
            t[0] = 0.1 + d + off, t[1] = 0.1 + d - off, t[2] = tg_uniform(&rng, 0.03, 0.07);
        } else {
            double p = tg_uniform(&rng, 0.002, 0.006), off = tg_uniform(&rng, -0.003, 0.003);
            t[0] = 0.21 - p + off, t[1] = tg_uniform(&rng, 0.05, 0.15), t[2] = 0.11 - p - off;
        }
        DstPhongOptions o = dst_phong_options_default();
        o.gradient = 0;
        DstPhongResult r;
        DstStatus st = dst_phong_distance(a, b, R, t, &o, NULL, ws, &r);
        ck_assert(st == DST_SEPARATED || st == DST_PENETRATING);
        int n = dst_phong_probe_facets(ws);
        ck_assert(n > 0);
        /* points on random facets of dM(S); half of them within the averaging radius of the
         * answer q, where the query evaluates the field */
        int got = 0;
        for (int tries = 0; tries < 100000 && got < PH_PARTIAL_POINTS; ++tries) {
            int F = (int)tg_uniform(&rng, 0.0, n - 1e-9);
            double s = tg_uniform(&rng, 0.0, 1.0), u = tg_uniform(&rng, 0.0, 1.0), c0[3], e1[3], e2[3];
            if (s + u > 1.0) s = 1.0 - s, u = 1.0 - u;
            if (!dst_phong_probe_facet(ws, F, c0, e1, e2)) continue;
            double dq[3];
            for (int i = 0; i < 3; ++i) dq[i] = c0[i] + s * e1[i] + u * e2[i] - r.q[i];
            int close = dot3(dq, dq) <= r.radius * r.radius;
            if (got % 2 == 0 && !close) continue;
            double x[3], G[2], delta, nu[3];
            if (!dst_phong_probe_value(a, b, R, t, NULL, ws, F, s, u, R, t, x, G, &delta, nu)) continue;
            double dG[8][2], dd[8];
            ck_assert(dst_phong_probe_partials(a, b, R, t, NULL, ws, F, s, u, dG, dd));
            ++got, ++points, near += close;
            for (int j = 0; j < 8; ++j) {
                double h = j < 2 ? PH_PARTIAL_STEP_SU : (j < 5 ? PH_PARTIAL_STEP_T : PH_PARTIAL_STEP_W);
                double f1[3], f2[3], an[3] = {dG[j][0], dG[j][1], dd[j]};
                if (!central(a, b, R, t, ws, F, s, u, j, h, f1) || !central(a, b, R, t, ws, F, s, u, j, 0.37 * h, f2)) {
                    ++skipped;
                    continue;
                }
                double scale = fmax(col_norm(f1), col_norm(an));
                if (col_diff(f1, f2) > 0.1 * PH_PARTIAL_REL * scale) {
                    ++skipped;
                    continue;
                }
                double e = col_diff(an, f1) / scale;
                int g = j < 2 ? 0 : (j < 5 ? 1 : 2);
                if (e > worst[g]) worst[g] = e;
                ++compared;
                ck_assert_msg(e <= PH_PARTIAL_REL,
                              "pose %d facet %d (s, u) = (%.6f, %.6f) direction %d: closed form (%.12g %.12g %.12g) central "
                              "difference (%.12g %.12g %.12g), relative error %.3g",
                              k, F, s, u, j, an[0], an[1], an[2], f1[0], f1[1], f1[2], e);
            }
        }
        ck_assert_int_eq(got, PH_PARTIAL_POINTS);
    }
    fprintf(stderr,
            "dst_phong field partials: %d points (%d near the answer), %d columns compared, %d left out; worst "
            "relative error (s, u) %.3g, t %.3g, w %.3g\n",
            points, near, compared, skipped, worst[0], worst[1], worst[2]);
    ck_assert(skipped <= PH_PARTIAL_SKIP * (compared + skipped));
    dst_phong_workspace_destroy(ws);
    scenes_free(&sc);
}
END_TEST

/* ------------------------------------------------------------------ 4. untuned meshes */

/* B posed at a random rotation, moved along a random direction until the Euclidean signed
 * distance equals `target` (bisection), then PhongDist checked against what must hold on any
 * mesh: converged (mostly), Phong >= Euclidean when apart, the sign of the Euclidean answer. */
static void untuned_pair(const char *name, const DstPhongModel *a, const DstPhongModel *b, TgRng *rng,
                         DstPhongWorkspace *ws)
{
    int converged = 0, n = 0;
    double worst_gap = 0.0, max_ms = 0.0, worst_warm = 0.0;
    for (int k = 0; k < PH_UNTUNED_POSES; ++k) {
        double ax[3], R[9], dir[3], t[3];
        tg_unit(rng, ax);
        tg_rot(ax, tg_uniform(rng, -3.0, 3.0), R);
        tg_unit(rng, dir);
        double target = tg_uniform(rng, -0.003, 0.02), lo = 0.0, hi = 2.0 * (a->diag + b->diag);
        DstMeshDistance md;
        for (int it = 0; it < 50; ++it) {
            double m = 0.5 * (lo + hi);
            for (int i = 0; i < 3; ++i) t[i] = m * dir[i];
            dst_bvh_distance(&a->bvh, I3, Z3, &b->bvh, R, t, NULL, &md);
            if (md.distance < target) lo = m;
            else hi = m;
        }
        for (int i = 0; i < 3; ++i) t[i] = hi * dir[i];
        DstPhongResult r;
        DstStatus st = dst_phong_distance(a, b, R, t, NULL, NULL, ws, &r);
        ck_assert_msg(st == DST_SEPARATED || st == DST_PENETRATING || st == DST_TOUCHING || st == DST_ITER_LIMIT,
                      "%s: status %s", name, dst_status_string(st));
        ++n;
        ck_assert(isfinite(r.distance) && fabs(dot3(r.n, r.n) - 1.0) < 1e-12);
        if (st == DST_ITER_LIMIT) continue;
        ++converged;
        /* warm start from a nudged q: the same answer (the collection ball moves) */
        double q[3] = {r.q[0] * 1.01, r.q[1] * 0.99, r.q[2] * 1.01};
        DstPhongResult w;
        if (dst_phong_distance(a, b, R, t, NULL, q, ws, &w) != DST_ITER_LIMIT)
            worst_warm = fmax(worst_warm, fabs(w.distance - r.distance));
        if (r.euclid > 1e-4) {
            ck_assert_msg(r.distance >= r.euclid - PH_BELOW_EUCLID_TOL, "%s: phong %.9g below euclid %.9g", name,
                          r.distance, r.euclid);
            worst_gap = fmax(worst_gap, r.distance - r.euclid);
        }
        if (fabs(r.euclid) > 1e-4) {
            ck_assert_msg((r.distance > 0) == (r.euclid > 0), "%s: phong %.9g euclid %.9g", name, r.distance,
                          r.euclid);
        }
        (void)max_ms;
    }
    fprintf(stderr,
            "dst_phong untuned %-28s converged %d of %d, largest phong - euclid apart %.3g m, warm - cold %.3g m\n",
            name, converged, n, worst_gap, worst_warm);
    /* at most one pose, or PH_UNTUNED_CONVERGED's complement, may stop at the iteration limit */
    ck_assert_msg(worst_warm <= PH_WARM_TOL, "%s: warm and cold starts differ by %g m", name, worst_warm);
    ck_assert_msg(n - converged <= 1 || converged >= PH_UNTUNED_CONVERGED * n, "%s: %d of %d converged", name,
                  converged, n);
}

static int load_model(const char *path, DstPhongModel *pm)
{
    DstMesh m;
    char err[512];
    if (dst_mesh_create_from_file(path, &m, err, sizeof err) != DST_OK) return 0;
    DstStatus st = dst_phong_model_create(&m, pm, err, sizeof err);
    dst_mesh_destroy(&m);
    ck_assert_msg(st == DST_OK, "%s", err);
    return 1;
}

START_TEST(test_robot_meshes)
{
    static const char *pairs[][2] = {
        {"robots/meshes/rarm_link6.obj", "robots/meshes/chest_link1.obj"},
        {"robots/meshes/larm_link4.obj", "robots/meshes/waist.obj"},
        {"robots/meshes/rleg_link2.obj", "robots/meshes/lleg_link3.obj"},
        {"robots/meshes/larm_link6.obj", "robots/meshes/rarm_link6.obj"},
        {"robots/arm4/meshes/forearm.stl", "robots/arm4/meshes/upper_arm.stl"},
    };
    TgRng rng = {77};
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
        DstPhongModel a, b;
        ck_assert_msg(load_model(pairs[p][0], &a), "%s", pairs[p][0]);
        ck_assert_msg(load_model(pairs[p][1], &b), "%s", pairs[p][1]);
        char name[64];
        snprintf(name, sizeof name, "%s|%s", strrchr(pairs[p][0], '/') + 1, strrchr(pairs[p][1], '/') + 1);
        untuned_pair(name, &a, &b, &rng, ws);
        dst_phong_model_destroy(&a), dst_phong_model_destroy(&b);
    }
    dst_phong_workspace_destroy(ws);
}
END_TEST

START_TEST(test_generated_meshes)
{
    double c0[3] = {0, 0, 0};
    double plo[3] = {-0.1, -0.1, -0.001}, phi[3] = {0.1, 0.1, 0.001};
    DstMesh torus = mg_torus(0.1, 0.03, 48, 24), plate = mg_box(plo, phi), l = mg_lblock(0.08),
            ball = mg_sphere(0.04, c0, 12, 24), c = cube(0.02);
    DstPhongModel T, P, L, S, C;
    model(&torus, &T), model(&plate, &P), model(&l, &L), model(&ball, &S), model(&c, &C);
    TgRng rng = {99};
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    untuned_pair("torus|cube", &T, &C, &rng, ws);
    untuned_pair("torus|torus", &T, &T, &rng, ws);
    untuned_pair("thin plate|L-block", &P, &L, &rng, ws);
    untuned_pair("L-block|L-block", &L, &L, &rng, ws);
    untuned_pair("torus|sphere", &T, &S, &rng, ws);
    untuned_pair("thin plate|cube", &P, &C, &rng, ws);
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&T), dst_phong_model_destroy(&P), dst_phong_model_destroy(&L);
    dst_phong_model_destroy(&S), dst_phong_model_destroy(&C);
    dst_mesh_destroy(&torus), dst_mesh_destroy(&plate), dst_mesh_destroy(&l), dst_mesh_destroy(&ball);
    dst_mesh_destroy(&c);
}
END_TEST

/* Algorithm 5.1 line 2: starting from the previous q gives the answer of a cold start */
START_TEST(test_warm_start_matches_cold)
{
    DstMesh ml = mg_lblock(0.1), mc = cube(0.005);
    DstPhongModel L, C;
    model(&ml, &L), model(&mc, &C);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    double q[3], R[9], k[3] = {0.6, 0.0, 0.8};
    for (int s = 0; s <= 40; ++s) {
        tg_rot(k, 0.01 * s, R);
        double t[3] = {0.115 + 0.0005 * s, 0.125 - 0.00025 * s, 0.05};
        DstPhongResult cold, warm;
        ck_assert_int_eq(dst_phong_distance(&L, &C, R, t, NULL, NULL, ws, &cold), DST_SEPARATED);
        if (s > 0) {
            ck_assert_int_eq(dst_phong_distance(&L, &C, R, t, NULL, q, ws, &warm), DST_SEPARATED);
            ck_assert_msg(fabs(warm.distance - cold.distance) <= PH_WARM_TOL, "step %d: warm %.12g cold %.12g", s,
                          warm.distance, cold.distance);
            ck_assert(isnan(warm.euclid));
        }
        memcpy(q, cold.q, sizeof q);
    }
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&L), dst_phong_model_destroy(&C);
    dst_mesh_destroy(&ml), dst_mesh_destroy(&mc);
}
END_TEST

/* ------------------------------------------------------------------ 5. the cache (phong.md sec. 12) */

/* motions of the cache test (split over the scenes), steps per motion */
#define PH_CACHE_MOTIONS (TG_ASAN ? 30 : 300)
#define PH_CACHE_HAND_MOTIONS (TG_ASAN ? 2 : 12)
#define PH_CACHE_STEPS 24
/* the cache must serve at least this share of the collections of the small-step motions, so
 * that the test exercises reuse and not only rebuilds */
#define PH_CACHE_MIN_HIT_SHARE 0.5

/* the two results are the same bit for bit (status, distance, q, n, witnesses, gradient, facets,
 * Newton steps) */
static int same_result(const DstPhongResult *x, const DstPhongResult *y)
{
    return x->status == y->status && x->distance == y->distance && !memcmp(x->q, y->q, sizeof x->q) &&
           !memcmp(x->n, y->n, sizeof x->n) && !memcmp(x->pa, y->pa, sizeof x->pa) &&
           !memcmp(x->pb, y->pb, sizeof x->pb) && !memcmp(x->grad, y->grad, sizeof x->grad) &&
           x->facets == y->facets && x->newton_steps == y->newton_steps && x->spheres == y->spheres;
}

typedef struct CacheStats {
    int queries, hits, builds, cold_compared, cold_apart;
    double worst_cold;    /* largest |distance| difference of a cached warm query from a cold one */
} CacheStats;

/* One motion of B, (exp(s [w]) R0, t0 + s u), s = 0, step, ...: at each step the query with the
 * cache, warm-started from the previous cached answer (the first cold), against the same query
 * without the cache (the same warm start): bit for bit equal. Every fourth step also a cold start
 * (no warm q) with the cache as the motion left it, against the cold query without the cache: bit
 * for bit equal. And the cached warm answer against the cold one: the difference of a warm start
 * (Algorithm 5.1 line 2, with or without the cache) is recorded. */
static void cache_motion(const DstPhongModel *a, const DstPhongModel *b, DstPhongCache *cache, DstPhongWorkspace *ws,
                         const double R0[9], const double t0[3], const double u[3], const double w[3], double step,
                         CacheStats *cs)
{
    DstPhongOptions o = dst_phong_options_default();
    double q[3];
    for (int k = 0; k < PH_CACHE_STEPS; ++k) {
        double s = k * step, ws3[3] = {w[0] * s, w[1] * s, w[2] * s}, R[9], t[3];
        exp_rot(ws3, R0, R);
        for (int i = 0; i < 3; ++i) t[i] = t0[i] + s * u[i];
        DstPhongResult rc, ru, cold;
        dst_phong_distance_cached(a, b, R, t, &o, k > 0 ? q : NULL, cache, ws, &rc);
        dst_phong_distance(a, b, R, t, &o, k > 0 ? q : NULL, ws, &ru);
        ck_assert_msg(same_result(&rc, &ru), "step %d: cached %.17g (%s, %d facets) uncached %.17g (%s, %d facets)",
                      k, rc.distance, dst_status_string(rc.status), rc.facets, ru.distance,
                      dst_status_string(ru.status), ru.facets);
        ck_assert_int_ge(rc.cache_hits + rc.cache_builds, rc.spheres); /* every collection went through it */
        cs->queries++, cs->hits += rc.cache_hits, cs->builds += rc.cache_builds;
        if (k > 0 && k % 4 == 0) {
            DstPhongResult cc;
            dst_phong_distance_cached(a, b, R, t, &o, NULL, cache, ws, &cc);
            dst_phong_distance(a, b, R, t, &o, NULL, ws, &cold);
            ck_assert_msg(same_result(&cc, &cold), "step %d, cold start: cached %.17g uncached %.17g", k, cc.distance,
                          cold.distance);
            cs->queries++, cs->hits += cc.cache_hits, cs->builds += cc.cache_builds;
            if (rc.status != DST_ITER_LIMIT && cold.status != DST_ITER_LIMIT) {
                double d = fabs(rc.distance - cold.distance);
                cs->worst_cold = fmax(cs->worst_cold, d);
                cs->cold_compared++, cs->cold_apart += d > PH_WARM_TOL;
            }
        }
        memcpy(q, rc.q, sizeof q);
    }
}

START_TEST(test_cache_matches_uncached)
{
    TgRng rng = {1918};
    Scenes sc;
    scenes_build(&sc);
    DstMesh torus = mg_torus(0.1, 0.03, 48, 24), ct = cube(0.02);
    DstPhongModel T, CT;
    model(&torus, &T), model(&ct, &CT);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    DstPhongCache *cache = dst_phong_cache_create(0);
    ck_assert_ptr_nonnull(ws);
    ck_assert_ptr_nonnull(cache);
    CacheStats st[4];
    memset(st, 0, sizeof st);
    for (int m = 0; m < PH_CACHE_MOTIONS; ++m) {
        int scene = m % 3;
        /* three in four motions take small steps (a planner's iterations: the cache is reused),
         * one in four large ones (0.2 mm to 4 mm, turning up to 0.1 rad per step: rebuilds) */
        int large = (m / 3) % 4 == 3;
        double step = large ? tg_uniform(&rng, 2e-4, 4e-3) : tg_uniform(&rng, 1e-5, 5e-4);
        double R0[9], u[3], w[3], t0[3];
        static const double crossL[3] = {0.70710678118654752, -0.70710678118654752, 0.0};
        static const double crossB[3] = {0.70710678118654752, 0.0, 0.70710678118654752};
        motion_setup(&rng, scene == 1 ? crossB : crossL, R0, u, w);
        double wl = tg_uniform(&rng, 0.0, large ? 25.0 : 10.0);
        for (int i = 0; i < 3; ++i) w[i] *= wl / PH_ROT_RATE;
        double half = 0.5 * PH_CACHE_STEPS * step;
        if (scene == 0) {
            /* the cube over the L-block's concave corner, crossing the bisector */
            double d = tg_uniform(&rng, 0.008, 0.025), z = tg_uniform(&rng, 0.03, 0.07);
            double mid[3] = {0.1 + d, 0.1 + d, z};
            for (int i = 0; i < 3; ++i) t0[i] = mid[i] - half * u[i];
            cache_motion(&sc.L, &sc.C, cache, ws, R0, t0, u, w, step, &st[0]);
        } else if (scene == 1) {
            /* the cube overlapping the box edge */
            double p = tg_uniform(&rng, 0.002, 0.006), y = tg_uniform(&rng, 0.05, 0.15);
            double mid[3] = {0.2 + 0.01 - p, y, 0.1 + 0.01 - p};
            for (int i = 0; i < 3; ++i) t0[i] = mid[i] - half * u[i];
            cache_motion(&sc.B, &sc.C2, cache, ws, R0, t0, u, w, step, &st[1]);
        } else {
            /* a cube near the torus' inner rim (non-convex, many facets) */
            double ang = tg_uniform(&rng, 0.0, 6.283185307179586), gap = tg_uniform(&rng, 0.002, 0.015);
            double rr = 0.07 - 0.02 - gap, mid[3] = {rr * cos(ang), rr * sin(ang), tg_uniform(&rng, -0.01, 0.01)};
            for (int i = 0; i < 3; ++i) t0[i] = mid[i] - half * u[i];
            cache_motion(&T, &CT, cache, ws, R0, t0, u, w, step, &st[2]);
        }
    }
    /* the HRP-2 hands, as the bench places them: gaps of 2-20 mm, 0.2 mm and 1 mrad per step */
    DstPhongModel HA, HB;
    ck_assert(load_model("robots/meshes/rarm_link6.obj", &HA));
    ck_assert(load_model("robots/meshes/larm_link6.obj", &HB));
    for (int m = 0; m < PH_CACHE_HAND_MOTIONS; ++m) {
        double ax[3], R[9], dir[3], t[3], gap = tg_uniform(&rng, 0.002, 0.02), lo = 0.0, hi = 1.0;
        tg_unit(&rng, ax);
        tg_rot(ax, tg_uniform(&rng, -3.0, 3.0), R);
        tg_unit(&rng, dir);
        DstMeshDistance md;
        for (int it = 0; it < 50; ++it) {
            double mm = 0.5 * (lo + hi);
            for (int i = 0; i < 3; ++i) t[i] = mm * dir[i];
            dst_bvh_distance(&HA.bvh, I3, Z3, &HB.bvh, R, t, NULL, &md);
            if (md.distance < gap) lo = mm;
            else hi = mm;
        }
        for (int i = 0; i < 3; ++i) t[i] = hi * dir[i];
        double w[3];
        tg_unit(&rng, w);
        for (int i = 0; i < 3; ++i) w[i] *= 5.0; /* 1 mrad per 0.2 mm */
        cache_motion(&HA, &HB, cache, ws, R, t, dir, w, 2e-4, &st[3]);
    }
    static const char *names[4] = {"L-block|cube", "box|cube overlapping", "torus|cube", "HRP-2 hands"};
    for (int k = 0; k < 4; ++k) {
        fprintf(stderr,
                "dst_phong cache %-22s %d queries bit for bit equal to uncached; collections %d from the cache, %d"
                " builds; warm - cold start up to %.3g m, above %.0e m at %d of %d steps\n",
                names[k], st[k].queries, st[k].hits, st[k].builds, st[k].worst_cold, PH_WARM_TOL, st[k].cold_apart,
                st[k].cold_compared);
        /* warm and cold starts reach the same projection on these scenes (phong.md sec. 7,
         * weakness 3: not on the torus, where a warm start can stay on another projection, with or
         * without the cache alike) */
        if (k != 2)
            ck_assert_msg(st[k].worst_cold <= PH_WARM_TOL, "%s: warm and cold starts differ by %g m", names[k],
                          st[k].worst_cold);
        ck_assert_msg(st[k].hits >= PH_CACHE_MIN_HIT_SHARE * (st[k].hits + st[k].builds),
                      "%s: the cache served %d of %d collections", names[k], st[k].hits, st[k].hits + st[k].builds);
    }
    /* a reset cache, and a NULL cache: the same answers */
    dst_phong_cache_reset(cache);
    DstPhongResult r1, r2;
    double t1[3] = {0.12, 0.125, 0.05};
    dst_phong_distance_cached(&sc.L, &sc.C, I3, t1, NULL, NULL, cache, ws, &r1);
    ck_assert_int_ge(r1.cache_builds, 1); /* a reset cache is rebuilt */
    dst_phong_distance_cached(&sc.L, &sc.C, I3, t1, NULL, NULL, NULL, ws, &r2);
    ck_assert(same_result(&r1, &r2) && r2.cache_hits == 0 && r2.cache_builds == 0);
    /* the same cache for another pair: rebuilt, then the same answer as without it */
    dst_phong_distance_cached(&sc.B, &sc.C2, I3, t1, NULL, NULL, cache, ws, &r1);
    ck_assert_int_ge(r1.cache_builds, 1);
    dst_phong_distance(&sc.B, &sc.C2, I3, t1, NULL, NULL, ws, &r2);
    ck_assert(same_result(&r1, &r2));
    dst_phong_cache_destroy(cache);
    dst_phong_cache_destroy(NULL);
    dst_phong_cache_reset(NULL);
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&HA), dst_phong_model_destroy(&HB);
    dst_phong_model_destroy(&T), dst_phong_model_destroy(&CT);
    dst_mesh_destroy(&torus), dst_mesh_destroy(&ct);
    scenes_free(&sc);
}
END_TEST

START_TEST(test_bad_input)
{
    DstMesh mc = cube(0.01);
    DstPhongModel C;
    model(&mc, &C);
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    DstPhongResult r;
    double t[3] = {0.05, 0, 0}, Rbad[9] = {1.1, 0, 0, 0, 1, 0, 0, 0, 1}, Rnan[9] = {NAN, 0, 0, 0, 1, 0, 0, 0, 1};
    double tnan[3] = {0, NAN, 0}, qnan[3] = {INFINITY, 0, 0};
    ck_assert_int_eq(dst_phong_distance(NULL, &C, I3, t, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, NULL, I3, t, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, NULL, t, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, NULL, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, t, NULL, NULL, NULL, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, t, NULL, NULL, ws, NULL), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, Rbad, t, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, Rnan, t, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, tnan, NULL, NULL, ws, &r), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, t, NULL, qnan, ws, &r), DST_INVALID_INPUT);
    DstPhongOptions o = dst_phong_options_default();
    o.alpha = -1.0;
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, t, &o, NULL, ws, &r), DST_INVALID_INPUT);
    o = dst_phong_options_default();
    o.beta = NAN;
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, t, &o, NULL, ws, &r), DST_INVALID_INPUT);
    /* the same call with good input answers */
    ck_assert_int_eq(dst_phong_distance(&C, &C, I3, t, NULL, NULL, ws, &r), DST_SEPARATED);
    ck_assert(fabs(r.distance - 0.03) <= PH_AGREE_TOL);
    /* open mesh, NULL mesh, NULL output */
    double V[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int T[3] = {0, 1, 2};
    DstMesh open;
    ck_assert_int_eq(dst_mesh_create(V, 3, T, 1, &open, NULL, 0), DST_OK);
    DstPhongModel O;
    char err[128];
    ck_assert_int_eq(dst_phong_model_create(&open, &O, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_model_create(NULL, &O, err, sizeof err), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_phong_model_create(&mc, NULL, NULL, 0), DST_INVALID_INPUT);
    dst_phong_model_destroy(NULL);
    dst_phong_workspace_destroy(NULL);
    dst_mesh_destroy(&open);
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&C);
    dst_mesh_destroy(&mc);
}
END_TEST

Suite *dst_phong_suite(void)
{
    Suite *s = suite_create("dst_phong");
    TCase *tc = tcase_create("continuity");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_continuity_across_medial_axes);
    suite_add_tcase(s, tc);
    tc = tcase_create("agreement");
    tcase_add_test(tc, test_agreement_far_from_creases);
    suite_add_tcase(s, tc);
    tc = tcase_create("gradient");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_gradient_vs_central_differences);
    tcase_add_test(tc, test_field_partials_vs_central_differences);
    suite_add_tcase(s, tc);
    tc = tcase_create("untuned_meshes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_robot_meshes);
    tcase_add_test(tc, test_generated_meshes);
    suite_add_tcase(s, tc);
    tc = tcase_create("api");
    tcase_add_test(tc, test_warm_start_matches_cold);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    tc = tcase_create("cache");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_cache_matches_uncached);
    suite_add_tcase(s, tc);
    return s;
}
