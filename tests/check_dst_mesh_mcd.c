/* check_dst_mesh_mcd.c — tests of distance/dst_mesh_mcd.c: adaptive subdivision and
 * certified sampling against a dense brute-force reference of the true motion on random
 * rigid motions with polynomial wiggles (several minima), separated, touching and deeply
 * penetrating, convex and non-convex: lower <= the true distance at every reference sample,
 * upper is the nominal distance at t_min, certified results within eps of the reference;
 * frames from pln_linkmotion-style inputs (static, degree 0) and bad input. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "dst_capsule_testgen.h"
#include "dst_mesh_mcd.h"
#include "dst_mesh_testgen.h"
#include "kin_fixture.h"
#include "model/pln_kin.h"
#include "motion/pln_linkmotion.h"

#define MCD_MOTIONS (TG_ASAN ? 300 : 2000)
#define MCD_REF_SAMPLES 100
#define MCD_REF_REFINE 30
/* rounding allowance of comparisons between a bound and a recomputed distance, metres */
#define MCD_ROUND_TOL 1e-12
/* share of the random motions that must come out certified (the rest: non-convex
 * overlaps whose depth is only bracketed) */
#define MCD_MIN_CERTIFIED_SHARE 0.6

typedef struct Motion {
    double k[3], theta, R0[9];
    DstMovingMesh m;
} Motion;

/* rigid motion between two random poses plus a polynomial wiggle of the origin */
static void random_motion(TgRng *r, const DstBvh *bvh, const double centre[3], double spread, double turn,
                          double wiggle, Motion *mo)
{
    double k0[3], Rr[9], R1[9], x0[3], x1[3];
    tg_unit(r, k0);
    tg_rot(k0, tg_uniform(r, -3.0, 3.0), mo->R0);
    tg_unit(r, mo->k);
    mo->theta = tg_uniform(r, 0.0, turn);
    tg_rot(mo->k, mo->theta, Rr);
    tg_matmul(Rr, mo->R0, R1);
    for (int i = 0; i < 3; ++i) {
        x0[i] = centre[i] + tg_uniform(r, -spread, spread);
        x1[i] = centre[i] + tg_uniform(r, -spread, spread);
    }
    mo->m.bvh = bvh;
    ck_assert_int_eq(dst_moving_frame_from_poses(mo->R0, x0, R1, x1, 5, &mo->m.frame), DST_OK);
    DstPolyPoint *o = &mo->m.frame.origin;
    if (wiggle > 0.0) {
        /* s^2 (1-s)^2 (a + b s): zero at both ends, one or two bumps in between */
        for (int i = 0; i < 3; ++i) {
            double a = tg_uniform(r, -wiggle, wiggle), b = tg_uniform(r, -2.0 * wiggle, 2.0 * wiggle);
            /* s^2 - 2 s^3 + s^4 times (a + b s) */
            o->c[2][i] += a;
            o->c[3][i] += -2.0 * a + b;
            o->c[4][i] += a - 2.0 * b;
            o->c[5][i] += b;
        }
        if (o->degree < 5) o->degree = 5;
    }
}

/* the true pose at s: exact rotation Rot(k, theta s) R0, origin the polynomial (the
 * origin of a rigid pose interpolation is exactly linear, plus the polynomial wiggle) */
static void true_pose(const Motion *mo, double s, double R[9], double x[3])
{
    double Rs[9];
    tg_rot(mo->k, mo->theta * s, Rs);
    tg_matmul(Rs, mo->R0, R);
    dst_poly_point_eval(&mo->m.frame.origin, s, x);
}

/* true signed distance bracket at s */
static void true_distance(const Motion *a, const Motion *b, double s, DstMeshDistance *d)
{
    double Ra[9], xa[3], Rb[9], xb[3];
    true_pose(a, s, Ra, xa);
    true_pose(b, s, Rb, xb);
    ck_assert_int_ne(dst_bvh_distance(a->m.bvh, Ra, xa, b->m.bvh, Rb, xb, NULL, d), DST_INVALID_INPUT);
}

typedef struct Meshes {
    DstMesh mesh[4];
    DstBvh bvh[4]; /* torus, sphere, box, L-block */
} Meshes;

static void make_meshes(Meshes *M)
{
    double c0[3] = {0, 0, 0}, lo[3] = {-0.15, -0.1, -0.05}, hi[3] = {0.15, 0.1, 0.05};
    M->mesh[0] = mg_torus(0.25, 0.08, 12, 6);
    M->mesh[1] = mg_sphere(0.15, c0, 6, 8);
    M->mesh[2] = mg_box(lo, hi);
    M->mesh[3] = mg_lblock(0.12);
    for (int i = 0; i < 4; ++i) ck_assert_int_eq(dst_bvh_create(&M->mesh[i], &M->bvh[i], NULL, 0), DST_OK);
}

static void free_meshes(Meshes *M)
{
    for (int i = 0; i < 4; ++i) {
        dst_bvh_destroy(&M->bvh[i]);
        dst_mesh_destroy(&M->mesh[i]);
    }
}

/* sampling 1: the eq. (6.3) baseline; 2: the adaptive search with the tolerance growth of its
 * evaluations varied (tol_rel 0 and 0.9 in turn) on other motions, so that the split points'
 * evaluations capped at the level that closes both halves (eq. 15c, 5d) run with every growth */
static void run_random(int mode)
{
    int sampling = mode == 1;
    TgRng r = {sampling ? 41u : mode == 2 ? 53u : 31u};
    Meshes M;
    make_meshes(&M);
    static const int pairs[5][2] = {{0, 1}, {2, 2}, {1, 1}, {3, 0}, {0, 2}};
    int motions = sampling ? 80 : MCD_MOTIONS;
    int certified = 0, penetrating = 0, separated = 0, multi = 0, prism_closed = 0;
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    for (int n = 0; n < motions; ++n) {
        int pa = pairs[n % 5][0], pb = pairs[n % 5][1];
        double ca[3] = {0, 0, 0}, cb[3];
        double reach = M.bvh[pa].radius + M.bvh[pb].radius;
        tg_unit(&r, cb);
        for (int i = 0; i < 3; ++i) cb[i] *= tg_uniform(&r, 0.3, 1.1) * reach;
        Motion A, B;
        random_motion(&r, &M.bvh[pa], ca, 0.05, n % 3 == 0 ? 0.0 : 1.0, 0.0, &A);
        random_motion(&r, &M.bvh[pb], cb, 0.2, 1.5, n % 2 ? 0.3 * reach : 0.0, &B);
        double t0 = tg_uniform(&r, -1.0, 1.0), t1 = t0 + tg_uniform(&r, 0.1, 2.0);
        DstMeshMcdResult res;
        DstBvhCache cache;
        dst_bvh_cache_reset(&cache);
        /* every fourth adaptive run closes sub-intervals by prism culling where it can */
        opt.prism_cull = mode == 0 && n % 4 == 1;
        if (mode == 2) opt.tol_rel = n % 2 ? 0.9 : 0.0;
        DstStatus st = sampling ? dst_mesh_mcd_sampling(&A.m, &B.m, t0, t1, &opt, &cache, &res)
                                : dst_mesh_mcd(&A.m, &B.m, t0, t1, &opt, &cache, &res);
        ck_assert_msg(st == DST_CERTIFIED || st == DST_NOT_CERTIFIED || st == DST_ITER_LIMIT, "motion %d: %s", n,
                      dst_status_string(st));
        ck_assert(res.lower <= res.upper);
        ck_assert(res.t_min >= t0 && res.t_min <= t1);
        /* upper is the nominal distance at t_min */
        DstMeshDistance nd;
        dst_mesh_nominal_distance(&A.m, &B.m, (res.t_min - t0) / (t1 - t0), 0.0, NULL, &nd, NULL);
        ck_assert_msg(nd.distance <= res.upper + MCD_ROUND_TOL &&
                          res.upper <= nd.distance + DST_MESH_MCD_TOL_FRACTION * opt.eps + MCD_ROUND_TOL,
                      "motion %d: upper %.17g nominal %.17g", n, res.upper, nd.distance);
        /* dense reference of the true motion; refined around its best sample */
        double ref = INFINITY, s_best = 0.0;
        int local_minima = 0;
        double prev2 = INFINITY, prev1 = INFINITY;
        for (int k = 0; k <= MCD_REF_SAMPLES; ++k) {
            double s = (double)k / MCD_REF_SAMPLES;
            DstMeshDistance d;
            true_distance(&A, &B, s, &d);
            ck_assert_msg(res.lower <= d.upper + MCD_ROUND_TOL, "motion %d: lower %.17g above true %.17g at s %g", n,
                          res.lower, d.upper, s);
            if (d.upper < ref) ref = d.upper, s_best = s;
            if (k >= 2 && prev1 < prev2 && prev1 < d.upper) ++local_minima;
            prev2 = prev1, prev1 = d.upper;
        }
        for (int k = -MCD_REF_REFINE / 2; k <= MCD_REF_REFINE / 2; ++k) {
            double s = s_best + (double)k / (MCD_REF_SAMPLES * (MCD_REF_REFINE / 2));
            if (s < 0.0 || s > 1.0) continue;
            DstMeshDistance d;
            true_distance(&A, &B, s, &d);
            ck_assert_msg(res.lower <= d.upper + MCD_ROUND_TOL, "motion %d: lower %.17g above true %.17g", n,
                          res.lower, d.upper);
            if (d.upper < ref) ref = d.upper;
        }
        if (st == DST_CERTIFIED) {
            ++certified;
            ck_assert(res.upper - res.lower <= opt.eps);
            /* the reference is a true value at some time: the true minimum lies below it and
             * above lower, so the certified upper is within eps of the reference or below */
            ck_assert_msg(res.upper <= ref + opt.eps, "motion %d: upper %.17g ref %.17g", n, res.upper, ref);
        }
        if (res.culled > 0) ++prism_closed;
        if (ref < 0.0) ++penetrating;
        else ++separated;
        if (local_minima >= 2) ++multi;
    }
    /* the random set covers the awkward cases */
    ck_assert_int_gt(penetrating, motions / 10);
    ck_assert_int_gt(separated, motions / 10);
    ck_assert_int_gt(multi, motions / 50);
    /* the full set (not the shortened ASan one) has sub-intervals closed by culling */
    if (mode == 0 && !TG_ASAN) ck_assert_int_gt(prism_closed, 0);
    ck_assert_msg(certified >= MCD_MIN_CERTIFIED_SHARE * motions, "certified %d of %d", certified, motions);
    free_meshes(&M);
}

START_TEST(test_mesh_mcd_adaptive_vs_dense_reference)
{
    run_random(0);
}
END_TEST

START_TEST(test_mesh_mcd_sampling_vs_dense_reference)
{
    run_random(1);
}
END_TEST

START_TEST(test_mesh_mcd_split_level_vs_dense_reference)
{
    run_random(2);
}
END_TEST

/* dense reference of the true motion (refined around its best sample); asserts that lower
 * lies below every sample and returns the least sample */
static double reference_min(const Motion *A, const Motion *B, double lower, int n)
{
    double ref = INFINITY, s_best = 0.0;
    for (int k = 0; k <= MCD_REF_SAMPLES; ++k) {
        double s = (double)k / MCD_REF_SAMPLES;
        DstMeshDistance d;
        true_distance(A, B, s, &d);
        ck_assert_msg(lower <= d.upper + MCD_ROUND_TOL, "motion %d: lower %.17g above true %.17g at s %g", n, lower,
                      d.upper, s);
        if (d.upper < ref) ref = d.upper, s_best = s;
    }
    for (int k = -MCD_REF_REFINE / 2; k <= MCD_REF_REFINE / 2; ++k) {
        double s = s_best + (double)k / (MCD_REF_SAMPLES * (MCD_REF_REFINE / 2));
        if (s < 0.0 || s > 1.0) continue;
        DstMeshDistance d;
        true_distance(A, B, s, &d);
        ck_assert_msg(lower <= d.upper + MCD_ROUND_TOL, "motion %d: lower %.17g above true %.17g", n, lower, d.upper);
        if (d.upper < ref) ref = d.upper;
    }
    return ref;
}

/* stop_above: random motions (apart, close, penetrating) with limits below, near and far
 * above the minimum. lower <= the dense reference always; DST_ABOVE_LIMIT only with lower >=
 * the limit; otherwise the usual contract. Both early exits (swept spheres with one
 * evaluation, and eq. 4.8 during the search) must occur. */
START_TEST(test_mesh_mcd_stop_above)
{
    TgRng r = {57u};
    Meshes M;
    make_meshes(&M);
    static const int pairs[5][2] = {{0, 1}, {2, 2}, {1, 1}, {3, 0}, {0, 2}};
    int motions = TG_ASAN ? 120 : 600, above = 0, quick = 0, usual = 0, swept_pos = 0;
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    for (int n = 0; n < motions; ++n) {
        int pa = pairs[n % 5][0], pb = pairs[n % 5][1];
        double ca[3] = {0, 0, 0}, cb[3];
        double reach = M.bvh[pa].radius + M.bvh[pb].radius;
        tg_unit(&r, cb);
        for (int i = 0; i < 3; ++i) cb[i] *= tg_uniform(&r, 0.3, 2.5) * reach;
        Motion A, B;
        random_motion(&r, &M.bvh[pa], ca, 0.05, n % 3 == 0 ? 0.0 : 1.0, 0.0, &A);
        random_motion(&r, &M.bvh[pb], cb, 0.2, 1.5, n % 2 ? 0.3 * reach : 0.0, &B);
        double t0 = tg_uniform(&r, -1.0, 1.0), t1 = t0 + tg_uniform(&r, 0.1, 2.0);
        /* limits from -0.1 to 0.8 m: below, around and above the minima of this set */
        opt.stop_above = tg_uniform(&r, -0.1, 0.8);
        DstMeshMcdResult res;
        DstStatus st = dst_mesh_mcd(&A.m, &B.m, t0, t1, &opt, NULL, &res);
        ck_assert_msg(st == DST_CERTIFIED || st == DST_NOT_CERTIFIED || st == DST_ITER_LIMIT || st == DST_ABOVE_LIMIT,
                      "motion %d: %s", n, dst_status_string(st));
        ck_assert(res.lower <= res.upper);
        ck_assert(res.t_min >= t0 && res.t_min <= t1);
        /* upper is a real nominal distance at t_min (any pruning tolerance: not below it) */
        DstMeshDistance nd;
        dst_mesh_nominal_distance(&A.m, &B.m, (res.t_min - t0) / (t1 - t0), 0.0, NULL, &nd, NULL);
        ck_assert_msg(nd.distance <= res.upper + MCD_ROUND_TOL, "motion %d: upper %.17g nominal %.17g", n, res.upper,
                      nd.distance);
        double ref = reference_min(&A, &B, res.lower, n);
        /* the swept-sphere bound of the first test, alone: below the true separation (the
         * reference is the signed distance; where it is positive the two agree) */
        double encl = dst_moving_frame_enclosure(&A.m.frame, A.m.bvh->radius) +
                      dst_moving_frame_enclosure(&B.m.frame, B.m.bvh->radius);
        double lbs = dst_mesh_swept_lower(&A.m, &B.m, 0.0, 1.0, INFINITY, 48, NULL);
        if (ref > 0.0) {
            ck_assert_msg(lbs - encl <= ref + MCD_ROUND_TOL, "motion %d: swept %.17g above true %.17g", n, lbs, ref);
            if (lbs > 0.0) ++swept_pos;
        }
        if (st == DST_ABOVE_LIMIT) {
            ++above;
            if (res.distance_evals == 1) ++quick;
            ck_assert_msg(res.lower >= opt.stop_above, "motion %d: lower %.17g limit %.17g", n, res.lower,
                          opt.stop_above);
        } else {
            ++usual;
            ck_assert(res.upper <= nd.distance + DST_MESH_MCD_TOL_FRACTION * opt.eps + MCD_ROUND_TOL);
            if (st == DST_CERTIFIED) {
                ck_assert(res.upper - res.lower <= opt.eps);
                ck_assert_msg(res.upper <= ref + opt.eps, "motion %d: upper %.17g ref %.17g", n, res.upper, ref);
            }
        }
    }
    ck_assert_int_gt(above, motions / 10);
    ck_assert_int_gt(quick, 0);
    ck_assert_int_gt(above - quick, 0);
    ck_assert_int_gt(swept_pos, motions / 20);
    ck_assert_int_gt(usual, motions / 10);
    /* NaN limit: invalid input */
    opt.stop_above = NAN;
    DstMovingMesh a, b;
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0}, x[3] = {1, 0, 0};
    a.bvh = &M.bvh[0], b.bvh = &M.bvh[1];
    dst_moving_frame_static(I, z, &a.frame);
    dst_moving_frame_static(I, x, &b.frame);
    DstMeshMcdResult res;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, &opt, NULL, &res), DST_INVALID_INPUT);
    free_meshes(&M);
}
END_TEST

#define TOC_MOTIONS (TG_ASAN ? 100 : 500)
#define TOC_SAMPLES 400

/* Time of first contact against dense sampling of the true motion: random motions (with
 * wiggles: several approaches), levels d below, near (grazing: the sampled minimum +- 0.2 mm)
 * and above the minimum. Certified part [t0, t_lo): every sample there is above d; a hit
 * has t_hi - t_lo <= time_tol and a nominal distance <= d + eps at t_hi; no hit: every sample
 * above d. */
START_TEST(test_mesh_first_contact_vs_dense)
{
    TgRng r = {73u};
    Meshes M;
    make_meshes(&M);
    static const int pairs[5][2] = {{0, 1}, {2, 2}, {1, 1}, {3, 0}, {0, 2}};
    int hits = 0, misses = 0, inner = 0, several = 0, grazing = 0, culled = 0, other = 0;
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    static double ref[TOC_SAMPLES + 1];
    for (int n = 0; n < TOC_MOTIONS; ++n) {
        int pa = pairs[n % 5][0], pb = pairs[n % 5][1];
        double ca[3] = {0, 0, 0}, cb[3];
        double reach = M.bvh[pa].radius + M.bvh[pb].radius;
        tg_unit(&r, cb);
        for (int i = 0; i < 3; ++i) cb[i] *= tg_uniform(&r, 0.5, 1.6) * reach;
        Motion A, B;
        random_motion(&r, &M.bvh[pa], ca, 0.05, n % 3 == 0 ? 0.0 : 1.0, 0.0, &A);
        random_motion(&r, &M.bvh[pb], cb, 0.2, 1.5, n % 2 ? 0.3 * reach : 0.0, &B);
        double t0 = tg_uniform(&r, -1.0, 1.0), T = tg_uniform(&r, 0.1, 2.0), t1 = t0 + T;
        double mn = INFINITY;
        for (int k = 0; k <= TOC_SAMPLES; ++k) {
            DstMeshDistance dd;
            true_distance(&A, &B, (double)k / TOC_SAMPLES, &dd);
            ref[k] = dd.upper;
            mn = fmin(mn, dd.upper);
        }
        double d;
        int kind = n % 4;
        if (kind == 0) d = mn + tg_uniform(&r, -2e-4, 2e-4), ++grazing;
        else if (kind == 1) d = mn + tg_uniform(&r, 0.001, 0.05);
        else d = tg_uniform(&r, -0.02, 0.15);
        opt.prism_cull = n % 2;
        DstMeshToc toc;
        DstStatus st = dst_mesh_first_contact(&A.m, &B.m, t0, t1, d, &opt, &toc);
        ck_assert_msg(st == DST_CERTIFIED || st == DST_NOT_CERTIFIED || st == DST_ITER_LIMIT, "motion %d: %s", n,
                      dst_status_string(st));
        ck_assert(toc.t_lo >= t0 && toc.t_lo <= t1);
        /* the certified part: no sample at or below d */
        for (int k = 0; k <= TOC_SAMPLES; ++k) {
            double t = t0 + T * k / TOC_SAMPLES;
            if (t < toc.t_lo || (st == DST_CERTIFIED && !toc.hit)) {
                ck_assert_msg(ref[k] > d - MCD_ROUND_TOL, "motion %d: true %.17g <= d %.17g at t %g < t_lo %g", n,
                              ref[k], d, t, toc.t_lo);
            }
        }
        if (st != DST_CERTIFIED) {
            ++other;
            continue;
        }
        culled += toc.culled > 0;
        if (toc.hit) {
            ++hits;
            ck_assert(toc.t_hi >= toc.t_lo && toc.t_hi - toc.t_lo <= opt.time_tol * (1.0 + 1e-9));
            DstMeshDistance nd;
            dst_mesh_nominal_distance(&A.m, &B.m, (toc.t_hi - t0) / T, 0.0, NULL, &nd, NULL);
            ck_assert_msg(nd.distance <= d + opt.eps + MCD_ROUND_TOL, "motion %d: nominal %.17g at t_hi, d %.17g", n,
                          nd.distance, d);
            ck_assert(fabs(toc.distance - nd.distance) <= DST_MESH_MCD_TOL_FRACTION * opt.eps + MCD_ROUND_TOL);
            if (ref[0] > d && ref[TOC_SAMPLES] > d) ++inner;
            /* approaches below d separated by a rise above it: the first one was reported */
            int runs = 0, below = 0;
            for (int k = 0; k <= TOC_SAMPLES; ++k) {
                if (ref[k] <= d && !below) ++runs;
                below = ref[k] <= d;
            }
            if (runs >= 2) ++several;
        } else {
            ++misses;
            ck_assert(toc.t_lo == t1);
        }
    }
    ck_assert_int_gt(hits, TOC_MOTIONS / 10);
    ck_assert_int_gt(misses, TOC_MOTIONS / 10);
    ck_assert_int_gt(inner, TOC_MOTIONS / 20);
    if (!TG_ASAN) ck_assert_int_gt(several, 0); /* the shortened ASan set may have none */
    ck_assert_int_gt(grazing, 0);
    ck_assert_int_le(other, TOC_MOTIONS / 10);
    if (!TG_ASAN) ck_assert_int_gt(culled, 0);
    free_meshes(&M);
}
END_TEST

/* A box flies through a sphere: apart by 0.7 m at both ends (an end-point check sees no
 * contact), overlapping in the middle. The query finds the first contact at the time the
 * dense reference gives. */
START_TEST(test_mesh_first_contact_inside_interval)
{
    Meshes M;
    make_meshes(&M);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0}, x0[3] = {-1.0, 0.02, 0.0}, x1[3] = {1.0, 0.02, 0.0};
    Motion A, B;
    memset(&A, 0, sizeof A), memset(&B, 0, sizeof B);
    A.m.bvh = &M.bvh[1], B.m.bvh = &M.bvh[2];
    memcpy(A.R0, I, sizeof I), memcpy(B.R0, I, sizeof I);
    A.k[2] = B.k[2] = 1.0;
    dst_moving_frame_static(I, z, &A.m.frame);
    ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, I, x1, 5, &B.m.frame), DST_OK);
    DstMeshDistance e0, e1;
    true_distance(&A, &B, 0.0, &e0);
    true_distance(&A, &B, 1.0, &e1);
    double d = 0.01;
    ck_assert(e0.distance > 0.5 && e1.distance > 0.5); /* the end-point check passes */
    DstMeshToc toc;
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    opt.time_tol = 1e-4;
    ck_assert_int_eq(dst_mesh_first_contact(&A.m, &B.m, 0.0, 1.0, d, &opt, &toc), DST_CERTIFIED);
    ck_assert_int_eq(toc.hit, 1);
    /* reference: bisection of the true distance on a dense grid */
    double first = -1.0;
    for (int k = 0; k <= 20000; ++k) {
        DstMeshDistance dd;
        true_distance(&A, &B, k / 20000.0, &dd);
        if (dd.upper <= d) {
            first = k / 20000.0;
            break;
        }
    }
    ck_assert(first > 0.0);
    ck_assert_msg(toc.t_lo <= first + MCD_ROUND_TOL && toc.t_hi >= first - 1e-4 - opt.eps,
                  "bracket [%g, %g], reference %g", toc.t_lo, toc.t_hi, first);
    /* with eps = 1e-3 m at a speed of 2 m/s, t_hi is at most 0.5 ms ahead of contact within d */
    ck_assert(toc.t_hi <= first + 1e-4);
    /* a level the box never reaches: certified miss with t_lo = t1 */
    ck_assert_int_eq(dst_mesh_first_contact(&A.m, &B.m, 0.0, 1.0, -0.5, &opt, &toc), DST_CERTIFIED);
    ck_assert_int_eq(toc.hit, 0);
    ck_assert(toc.t_lo == 1.0);
    /* bad input */
    opt.time_tol = 0.0;
    ck_assert_int_eq(dst_mesh_first_contact(&A.m, &B.m, 0.0, 1.0, d, &opt, &toc), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_first_contact(&A.m, &B.m, 0.0, 1.0, NAN, NULL, &toc), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_first_contact(&A.m, &B.m, 1.0, 0.0, d, NULL, &toc), DST_INVALID_INPUT);
    free_meshes(&M);
}
END_TEST

START_TEST(test_mesh_mcd_static_and_known)
{
    Meshes M;
    make_meshes(&M);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0}, x[3] = {0.5, 0, 0};
    DstMovingMesh a, b;
    a.bvh = &M.bvh[2], b.bvh = &M.bvh[2];
    dst_moving_frame_static(I, z, &a.frame);
    dst_moving_frame_static(I, x, &b.frame);
    /* two boxes 0.3 wide along x, centres 0.5 apart, not moving: MCD 0.2 exactly */
    DstMeshMcdResult res;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, NULL, NULL, &res), DST_CERTIFIED);
    double tol = DST_MESH_MCD_TOL_FRACTION * DST_DEFAULT_MCD_EPS;
    ck_assert(res.upper >= 0.2 - MCD_ROUND_TOL && res.upper <= 0.2 + tol);
    ck_assert(res.lower <= 0.2 && res.lower >= 0.2 - tol - MCD_ROUND_TOL);
    ck_assert_int_eq(res.distance_evals, 2);
    /* B passes through A along x: 0.5 -> -0.5; the minimum is the deepest overlap at the
     * middle, where the boxes coincide and the cheapest way out is along z (height 0.1) */
    double x0[3] = {0.5, 0, 0}, x1[3] = {-0.5, 0, 0};
    ck_assert_int_eq(dst_moving_frame_from_poses(I, x0, I, x1, 5, &b.frame), DST_OK);
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 2.0, 4.0, &opt, NULL, &res), DST_CERTIFIED);
    ck_assert(res.lower <= -0.1 && res.upper - res.lower <= opt.eps);
    ck_assert_msg(fabs(res.upper + 0.1) <= opt.eps, "deepest %g", res.upper);
    /* the signed distance is -0.1 wherever the x-overlap (0.3 - |x|) is at least the height
     * 0.1, i.e. |x| <= 0.2, t in [2.6, 3.4]: any time of that plateau is the minimum, and
     * which one is found depends on rounding in the depths */
    ck_assert_msg(res.t_min >= 2.6 - MCD_ROUND_TOL && res.t_min <= 3.4 + MCD_ROUND_TOL,
                  "t_min %g off the plateau", res.t_min);
    /* zero-length interval: the distance at t0 */
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 1.0, 1.0, &opt, NULL, &res), DST_CERTIFIED);
    ck_assert(res.upper >= 0.2 - MCD_ROUND_TOL && res.upper <= 0.2 + tol);
    /* an enclosure larger than eps cannot be certified */
    b.frame.R_err = 0.1;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, &opt, NULL, &res), DST_NOT_CERTIFIED);
    ck_assert(res.lower <= res.upper - 0.1 * M.bvh[2].radius);
    free_meshes(&M);
}
END_TEST

START_TEST(test_mesh_mcd_invalid_input)
{
    Meshes M;
    make_meshes(&M);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
    DstMovingMesh a, b;
    a.bvh = &M.bvh[0], b.bvh = &M.bvh[1];
    dst_moving_frame_static(I, z, &a.frame);
    dst_moving_frame_static(I, z, &b.frame);
    DstMeshMcdResult res;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 1.0, 0.0, NULL, NULL, &res), DST_INVALID_INPUT);
    ck_assert(res.lower == 0.0 && res.upper == 0.0);
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, NAN, 1.0, NULL, NULL, &res), DST_INVALID_INPUT);
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    opt.eps = 0.0;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, &opt, NULL, &res), DST_INVALID_INPUT);
    ck_assert_int_eq(dst_mesh_mcd_sampling(&a, &b, 0.0, 1.0, &opt, NULL, &res), DST_INVALID_INPUT);
    a.frame.origin.err = NAN;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, NULL, NULL, &res), DST_INVALID_INPUT);
    a.frame.origin.err = 0.0;
    a.bvh = NULL;
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, NULL, NULL, &res), DST_INVALID_INPUT);
    /* a "rotation" polynomial that is no rotation at all fails cleanly */
    a.bvh = &M.bvh[0];
    memset(a.frame.R[0], 0, sizeof a.frame.R[0]);
    ck_assert_int_eq(dst_mesh_mcd(&a, &b, 0.0, 1.0, NULL, NULL, &res), DST_FAILED);
    free_meshes(&M);
}
END_TEST

/* The frames pln_linkmotion_frame() exports plug into DstMovingFrame unchanged: on a random
 * humanoid with quintic joint motions, the exact forward kinematics of body points stays
 * within the frame's enclosure, and the mesh MCD of two link-borne boxes bounds the exact
 * distance from below at every dense sample. */
START_TEST(test_mesh_mcd_linkmotion_frames)
{
    PlnRobot rb;
    ck_assert_int_eq(kf_humanoid(&rb, 77), 0);
    PlnLinkMotion *lm = NULL;
    PlnKinWork *kw = NULL;
    ck_assert_int_eq(pln_linkmotion_create(&rb, 5, &lm, NULL, 0), PLN_OK);
    ck_assert_int_eq(pln_kin_create(&rb, &kw, NULL, 0), PLN_OK);
    double lo[3] = {-0.05, -0.04, -0.08}, hi[3] = {0.05, 0.04, 0.08};
    DstMesh box = mg_box(lo, hi);
    DstBvh B;
    ck_assert_int_eq(dst_bvh_create(&box, &B, NULL, 0), DST_OK);
    KfRng r = {5};
    int nj = rb.n_joints, deg = 5, rounds = TG_ASAN ? 4 : 12;
    double coef[64 * 6], q[64];
    ck_assert_int_le(nj, 64);
    int certified = 0;
    for (int round = 0; round < rounds; ++round) {
        /* large motions (enclosure above eps: not certifiable) and small ones */
        double amp = round % 2 ? 0.4 : 0.02;
        for (int j = 0; j < nj; ++j) {
            for (int k = 0; k <= deg; ++k) coef[j * (deg + 1) + k] = (k == 0 ? kf_uniform(&r, -1.0, 1.0) : kf_uniform(&r, -amp, amp) / k);
        }
        ck_assert_int_eq(pln_linkmotion_compute(lm, &rb, coef, deg, NULL, NULL, 0), PLN_OK);
        /* two end links of different chains */
        int la = rb.n_links - 1, lb = rb.n_links / 2;
        DstMovingMesh ma, mb;
        double Rs[PLN_TM_MAX_DEGREE + 1][9];
        ma.bvh = &B, mb.bvh = &B;
        int da = pln_linkmotion_frame(lm, la, Rs, &ma.frame.R_err, &ma.frame.origin);
        ck_assert_int_ge(da, 0);
        ma.frame.degree = da;
        memcpy(ma.frame.R, Rs, sizeof(double) * 9 * (size_t)(da + 1));
        int db = pln_linkmotion_frame(lm, lb, Rs, &mb.frame.R_err, &mb.frame.origin);
        ck_assert_int_ge(db, 0);
        mb.frame.degree = db;
        memcpy(mb.frame.R, Rs, sizeof(double) * 9 * (size_t)(db + 1));
        ck_assert_int_eq(dst_moving_frame_validate(&ma.frame), DST_OK);
        ck_assert_int_eq(dst_moving_frame_validate(&mb.frame), DST_OK);
        DstMeshMcdResult res;
        DstStatus st = dst_mesh_mcd(&ma, &mb, 0.0, 1.0, NULL, NULL, &res);
        ck_assert(st == DST_CERTIFIED || st == DST_NOT_CERTIFIED || st == DST_ITER_LIMIT);
        if (st == DST_CERTIFIED) ++certified;
        /* the nominal search converges even when the enclosure forbids a certificate */
        if (st == DST_NOT_CERTIFIED) {
            double ench = dst_moving_frame_enclosure(&ma.frame, B.radius) + dst_moving_frame_enclosure(&mb.frame, B.radius);
            /* the gap holds the enclosure, and the orthonormalisation of R(s) (of its size) */
            ck_assert_msg(res.upper - res.lower <= 2.0 * ench + 2.0 * DST_DEFAULT_MCD_EPS, "gap %g enclosure %g",
                          res.upper - res.lower, ench);
        }
        double enc = dst_moving_frame_enclosure(&ma.frame, B.radius);
        for (int k = 0; k <= 100; ++k) {
            double sv = k / 100.0;
            for (int j = 0; j < nj; ++j) {
                double acc = 0.0;
                for (int d = deg; d >= 0; --d) acc = acc * sv + coef[j * (deg + 1) + d];
                q[j] = acc;
            }
            ck_assert_int_eq(pln_kin_forward(kw, &rb, q), PLN_OK);
            /* body points: exact vs polynomial frame */
            for (int v = 0; v < 8; ++v) {
                double l[3] = {(v & 1) ? hi[0] : lo[0], (v & 2) ? hi[1] : lo[1], (v & 4) ? hi[2] : lo[2]};
                double ex[3], po[3];
                pln_kin_point(kw, la, l, ex);
                dst_moving_frame_point(&ma.frame, l, sv, po);
                double d2 = (ex[0] - po[0]) * (ex[0] - po[0]) + (ex[1] - po[1]) * (ex[1] - po[1]) +
                            (ex[2] - po[2]) * (ex[2] - po[2]);
                ck_assert_msg(sqrt(d2) <= enc, "link point off by %.3g > enclosure %.3g", sqrt(d2), enc);
            }
            /* the certified lower bound is below the exact distance */
            DstMeshDistance d;
            dst_bvh_distance(&B, pln_kin_link_rot(kw, la), pln_kin_link_pos(kw, la), &B, pln_kin_link_rot(kw, lb),
                             pln_kin_link_pos(kw, lb), NULL, &d);
            ck_assert_msg(res.lower <= d.upper + MCD_ROUND_TOL, "lower %.17g above exact %.17g", res.lower, d.upper);
        }
    }
    ck_assert_int_ge(certified, rounds / 4);
    dst_bvh_destroy(&B);
    dst_mesh_destroy(&box);
    pln_kin_destroy(kw);
    pln_linkmotion_destroy(lm);
    kf_robot_free(&rb);
}
END_TEST

/* Prism culling never declares "apart by d" for a sub-interval on which the polynomial
 * shapes come closer than d (dense check), and it does cull on clear cases. */
START_TEST(test_prism_culling_is_conservative)
{
    TgRng r = {51};
    Meshes M;
    make_meshes(&M);
    static const int pairs[4][2] = {{0, 1}, {2, 2}, {3, 0}, {1, 3}};
    int apart_count = 0, tests = TG_ASAN ? 150 : 600;
    DstPrismStats st = {0, 0, 0};
    for (int n = 0; n < tests; ++n) {
        int pa = pairs[n % 4][0], pb = pairs[n % 4][1];
        double ca[3] = {0, 0, 0}, cb[3];
        double reach = M.bvh[pa].radius + M.bvh[pb].radius;
        tg_unit(&r, cb);
        for (int i = 0; i < 3; ++i) cb[i] *= tg_uniform(&r, 0.5, 1.5) * reach;
        Motion A, B;
        random_motion(&r, &M.bvh[pa], ca, 0.05, 0.5, 0.0, &A);
        random_motion(&r, &M.bvh[pb], cb, 0.1, 1.0, n % 2 ? 0.2 * reach : 0.0, &B);
        double s0 = tg_uniform(&r, 0.0, 0.8), s1 = s0 + tg_uniform(&r, 0.01, 0.2);
        if (s1 > 1.0) s1 = 1.0;
        /* the level: around the distance at the start */
        DstMeshDistance d0;
        double dev = 0.0;
        dst_mesh_nominal_distance(&A.m, &B.m, s0, 0.0, NULL, &d0, &dev);
        double level = d0.distance * tg_uniform(&r, 0.2, 1.2);
        if (!(level > 0.0)) continue;
        if (!dst_mesh_swept_apart(&A.m, &B.m, s0, s1, level, &st)) continue;
        ++apart_count;
        for (int k = 0; k <= 60; ++k) {
            double s = s0 + (s1 - s0) * k / 60.0;
            DstMeshDistance d;
            dst_mesh_nominal_distance(&A.m, &B.m, s, 0.0, NULL, &d, &dev);
            /* g(s) <= f(s) + dev(s): a g below the level would show here */
            ck_assert_msg(d.upper + dev >= level, "culled at level %.17g but distance %.17g at s %g", level, d.upper, s);
        }
    }
    ck_assert_int_gt(apart_count, tests / 20);
    ck_assert(st.prism_culled <= st.prism_pairs);
    free_meshes(&M);
}
END_TEST

Suite *dst_mesh_mcd_suite(void)
{
    Suite *s = suite_create("dst_mesh_mcd");
    TCase *tc = tcase_create("adaptive");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_mesh_mcd_adaptive_vs_dense_reference);
    suite_add_tcase(s, tc);
    tc = tcase_create("split_level");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_mesh_mcd_split_level_vs_dense_reference);
    suite_add_tcase(s, tc);
    tc = tcase_create("sampling");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, test_mesh_mcd_sampling_vs_dense_reference);
    suite_add_tcase(s, tc);
    tc = tcase_create("linkmotion_frames");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mesh_mcd_linkmotion_frames);
    suite_add_tcase(s, tc);
    tc = tcase_create("prism_culling");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_prism_culling_is_conservative);
    suite_add_tcase(s, tc);
    tc = tcase_create("stop_above");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mesh_mcd_stop_above);
    suite_add_tcase(s, tc);
    tc = tcase_create("first_contact");
    tcase_set_timeout(tc, 180);
    tcase_add_test(tc, test_mesh_first_contact_vs_dense);
    tcase_add_test(tc, test_mesh_first_contact_inside_interval);
    suite_add_tcase(s, tc);
    tc = tcase_create("known_answers");
    tcase_add_test(tc, test_mesh_mcd_static_and_known);
    suite_add_tcase(s, tc);
    tc = tcase_create("invalid_input");
    tcase_add_test(tc, test_mesh_mcd_invalid_input);
    suite_add_tcase(s, tc);
    return s;
}
