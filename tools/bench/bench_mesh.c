/* bench_mesh.c — speed of the static mesh distance (sphere-tree BVH, dst_bvh.h) and of the
 * mesh MCD by adaptive subdivision (dst_mesh_mcd.h, thesis Algorithm 4.1).
 *
 * 1. mesh_distance_us_<N>: a torus and a UV sphere of ~N triangles each (N = 1k, 10k, 100k,
 *    generated here), the sphere placed at a seeded random pose 0-5 cm outside the torus'
 *    outer half; median over the poses of the per-pose median of BENCH_REPEAT cold queries
 *    (no warm start), and the same with the warm start along a coherent path
 *    (mesh_distance_warm_us_<N>). Build time of both BVHs (mesh_bvh_build_ms_<N>).
 * 2. mesh_mcd_median_ms: the HRP-2 hand (robots/meshes/rarm_link6.obj, 3480 triangles)
 *    against the chest (chest_link1.obj, 330 triangles) on seeded rigid motions of one knot
 *    span (T = 0.5 s; hand 0.5-20 cm from the chest at the start, travel up to 0.3 m, turn up
 *    to 1 rad, chest turning up to 0.3 rad), eps = 1e-3 m; median over the motions of the
 *    per-motion median time. The baseline is certified sampling (eq. 6.3) at the same eps on
 *    the same motions in the same run: as_vs_sampling_speedup = median over motions of
 *    t_sampling / t_adaptive, over the motions both certify.
 *    The sampling samples to the fixed tolerance (tol_rel = 0, as the thesis' baseline);
 *    as_vs_sampling_speedup_same_evals repeats it with the MCD's evaluations (tol_rel default).
 *    mesh_mcd_median_ms_prism is the same MCD with prism culling switched on (prism_cull = 1);
 *    mesh_mcd_prism_pair_rate is the share of prism pairs culled in those runs and
 *    prism_closed_subintervals how many tries closed their sub-interval.
 *    mesh_toc_median_ms: dst_mesh_first_contact within BENCH_TOC_D over the same spans, without
 *    and with prism culling (_prism). prism_cull_rate / prism_cull_ms: seed 003 Table 2 on
 *    these spans: dst_mesh_swept_count over the whole span at level BENCH_TOC_D (every prism
 *    pair tested, no early exit): share of prism pairs culled, and the median time per span.
 *    prism_cull_rate_seed003: the same culling in seed 003 Table 2's own setting and measure:
 *    the prisms of consecutive 10 ms frames (BENCH_SEED003_STEPS per span), and (1 - D/A) over
 *    all triangle pairs of the two models (A = n_A n_B per frame, D = prism pairs left).
 * 3. mesh_mcd_statue_ms_<N>: the hand against a statue-like non-convex mesh (mg_statue) of ~1k,
 *    ~10k and ~100k triangles on the same 60 seeded motions (growth with the triangle count);
 *    mesh_mcd_statue_median_ms is the ~100k one.
 * 4. phong_us beside euclid_us_same_pair: PhongDist (thesis ch. V) and the Euclidean distance of
 *    the same pair in the same run (bench_phong below).
 * Times are thread CPU time (the build host is shared). Argument: one section only
 * ("static", "mcd", "statue", "phong").
 * Prints `name: value` lines. Run from the top directory (reads robots/meshes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../tests/dst_capsule_testgen.h"
#include "../../tests/dst_mesh_testgen.h"
#include "dst_mesh_mcd.h"
#include "dst_phong.h"

#define BENCH_SEED 20170302u
#define BENCH_POSES 200
#define BENCH_REPEAT 5
#define BENCH_MOTIONS 200
#define BENCH_MCD_REPEAT 3
#define BENCH_T 0.5
#define BENCH_TOC_D 0.005
/* seed 003 Table 2's own setting: a prism per triangle between consecutive frames of a
 * simulation (each span cut into this many steps, 10 ms each), the culling effect counted
 * over all triangle pairs of the two models, (1 - D / A) with A = n_A n_B per step and D
 * the prism pairs left, at a level of 1 mm (the seed tests overlap, level 0; ours needs
 * d > 0 and certifies separation by d) */
#define BENCH_SEED003_STEPS 50
#define BENCH_SEED003_D 0.001
#define BENCH_STATUE_MOTIONS 60

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the build host is shared */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* sphere centre near the torus' outer half: surface point + normal * (r + gap) */
static void near_torus(TgRng *r, double Rt, double rt, double rs, double gap, double c[3])
{
    double u = tg_uniform(r, 0.0, 2.0 * MG_PI), w = tg_uniform(r, -0.5 * MG_PI, 0.5 * MG_PI);
    double nrm[3] = {cos(w) * cos(u), cos(w) * sin(u), sin(w)};
    double p[3] = {(Rt + rt * cos(w)) * cos(u), (Rt + rt * cos(w)) * sin(u), rt * sin(w)};
    for (int i = 0; i < 3; ++i) c[i] = p[i] + nrm[i] * (rs + gap);
}

static void bench_static(TgRng *rng, int nu, int nv, int nlat, int nlon, const char *label)
{
    double c0[3] = {0, 0, 0};
    DstMesh mt = mg_torus(0.5, 0.15, nu, nv), ms = mg_sphere(0.2, c0, nlat, nlon);
    DstBvh T, S;
    double t = bench_now();
    if (dst_bvh_create(&mt, &T, NULL, 0) != DST_OK || dst_bvh_create(&ms, &S, NULL, 0) != DST_OK) {
        fprintf(stderr, "bench_mesh: bvh build failed\n");
        exit(1);
    }
    double build = bench_now() - t;
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
    double cold[BENCH_POSES], warm[BENCH_POSES], rep[BENCH_REPEAT];
    long tri_pairs = 0;
    for (int n = 0; n < BENCH_POSES; ++n) {
        double c[3], k[3], Rs[9];
        near_torus(rng, 0.5, 0.15, 0.2, tg_uniform(rng, 0.0, 0.05), c);
        tg_unit(rng, k);
        tg_rot(k, tg_uniform(rng, -3.0, 3.0), Rs);
        DstMeshDistance d;
        dst_bvh_distance(&T, I, z, &S, Rs, c, NULL, &d); /* warm-up */
        for (int q = 0; q < BENCH_REPEAT; ++q) {
            t = bench_now();
            dst_bvh_distance(&T, I, z, &S, Rs, c, NULL, &d);
            rep[q] = bench_now() - t;
        }
        tri_pairs += d.tri_pairs;
        cold[n] = 1e6 * bench_median(rep, BENCH_REPEAT);
        /* coherent path: 10 small steps from this pose, warm-started */
        DstBvhCache cache;
        dst_bvh_cache_reset(&cache);
        dst_bvh_distance(&T, I, z, &S, Rs, c, &cache, &d);
        t = bench_now();
        for (int q = 0; q < 10; ++q) {
            double cq[3] = {c[0] + 1e-3 * q, c[1], c[2] + 5e-4 * q};
            dst_bvh_distance(&T, I, z, &S, Rs, cq, &cache, &d);
        }
        warm[n] = 1e6 * (bench_now() - t) / 10.0;
    }
    printf("mesh_triangles_%s: %d + %d\n", label, T.n_tris, S.n_tris);
    printf("mesh_bvh_build_ms_%s: %.2f\n", label, 1e3 * build);
    printf("mesh_distance_us_%s: %.2f\n", label, bench_median(cold, BENCH_POSES));
    printf("mesh_distance_warm_us_%s: %.2f\n", label, bench_median(warm, BENCH_POSES));
    printf("mesh_distance_tri_tests_%s: %.1f\n", label, (double)tri_pairs / BENCH_POSES);
    dst_bvh_destroy(&T), dst_bvh_destroy(&S);
    dst_mesh_destroy(&mt), dst_mesh_destroy(&ms);
}

static int load(const char *path, DstMesh *m, DstBvh *b)
{
    char err[256];
    if (dst_mesh_create_from_file(path, m, err, sizeof err) != DST_OK) {
        fprintf(stderr, "bench_mesh: %s\n", err);
        return 0;
    }
    if (dst_bvh_create(m, b, err, sizeof err) != DST_OK) {
        fprintf(stderr, "bench_mesh: %s: %s\n", path, err);
        return 0;
    }
    return 1;
}

static void bench_mcd(TgRng *rng)
{
    DstMesh mh, mc;
    DstBvh H, C;
    if (!load("robots/meshes/rarm_link6.obj", &mh, &H) || !load("robots/meshes/chest_link1.obj", &mc, &C)) exit(1);
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    static double t_as[BENCH_MOTIONS], t_sa[BENCH_MOTIONS], ratio[BENCH_MOTIONS], evals_as[BENCH_MOTIONS],
        evals_sa[BENCH_MOTIONS], t_nc[BENCH_MOTIONS], t_toc[BENCH_MOTIONS], t_toc_pc[BENCH_MOTIONS],
        toc_evals[BENCH_MOTIONS], t_cull[BENCH_MOTIONS], ratio_rel[BENCH_MOTIONS];
    int both_rel = 0;
    long toc_hits = 0, toc_tests = 0, toc_culled = 0, toc_sub = 0, cull_pairs = 0, cull_culled = 0, cull_nodes = 0,
         cull_whole = 0;
    double seed_all = 0.0, seed_left = 0.0; /* seed 003 setting: A and D summed over the steps */
    DstMeshMcdOptions opt_plain = opt; /* thesis sampling: every sample to the fixed tolerance */
    opt_plain.tol_rel = 0.0;
    if (getenv("BENCH_TOL_REL")) opt.tol_rel = atof(getenv("BENCH_TOL_REL"));
    DstMeshMcdOptions opt_pc = opt; /* the same with prism culling (off by default) */
    opt_pc.prism_cull = 1;
    long prism_pairs = 0, prism_culled = 0, prism_tests = 0, culled = 0, subint = 0;
    double rep[BENCH_MCD_REPEAT];
    int both = 0, cert_as = 0, tried = 0;
    while (tried < BENCH_MOTIONS) {
        /* chest: turning slowly about a random axis at the origin */
        double kc[3], Rc0[9], Rc1[9], I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
        tg_unit(rng, kc);
        tg_rot(kc, tg_uniform(rng, 0.0, 0.3), Rc1);
        (void)Rc0;
        DstMovingMesh a, b;
        b.bvh = &C;
        dst_moving_frame_from_poses(I, z, Rc1, z, 5, &b.frame);
        /* hand: start at a point 0.5-20 cm outside the chest's bounding sphere region */
        double dir[3], x0[3], x1[3], kh[3], Rh0[9], Rr[9], Rh1[9], mv[3];
        tg_unit(rng, dir);
        double reach = C.nodes[0].r + tg_uniform(rng, 0.005, 0.2);
        for (int i = 0; i < 3; ++i) x0[i] = C.nodes[0].c[i] + dir[i] * reach;
        tg_unit(rng, mv);
        double travel = tg_uniform(rng, 0.0, 0.3);
        for (int i = 0; i < 3; ++i) x1[i] = x0[i] + mv[i] * travel;
        tg_unit(rng, kh);
        tg_rot(kh, tg_uniform(rng, -3.0, 3.0), Rh0);
        tg_unit(rng, kh);
        tg_rot(kh, tg_uniform(rng, 0.0, 1.0), Rr);
        tg_matmul(Rr, Rh0, Rh1);
        a.bvh = &H;
        dst_moving_frame_from_poses(Rh0, x0, Rh1, x1, 5, &a.frame);
        /* keep motions that do not start or end inside the chest (planner-like) */
        DstMeshDistance d0, d1;
        dst_mesh_nominal_distance(&a, &b, 0.0, 0.0, NULL, &d0, NULL);
        dst_mesh_nominal_distance(&a, &b, 1.0, 0.0, NULL, &d1, NULL);
        if (d0.distance <= 0.0 || d1.distance <= 0.0) continue;
        DstMeshMcdResult r1, r2;
        DstBvhCache cache;
        dst_bvh_cache_reset(&cache);
        dst_mesh_mcd(&a, &b, 0.0, BENCH_T, &opt, &cache, &r1); /* warm-up */
        for (int q = 0; q < BENCH_MCD_REPEAT; ++q) {
            dst_bvh_cache_reset(&cache);
            double t = bench_now();
            dst_mesh_mcd(&a, &b, 0.0, BENCH_T, &opt, &cache, &r1);
            rep[q] = bench_now() - t;
        }
        t_as[tried] = 1e3 * bench_median(rep, BENCH_MCD_REPEAT);
        evals_as[tried] = r1.distance_evals;
        /* the same with prism culling (BENCH_MCD_ONLY set: skipped, for profiling) */
        DstMeshMcdResult r3;
        memset(&r3, 0, sizeof r3);
        for (int q = 0; q < (getenv("BENCH_MCD_ONLY") ? 0 : BENCH_MCD_REPEAT); ++q) {
            dst_bvh_cache_reset(&cache);
            double tq = bench_now();
            dst_mesh_mcd(&a, &b, 0.0, BENCH_T, &opt_pc, &cache, &r3);
            rep[q] = bench_now() - tq;
        }
        t_nc[tried] = 1e3 * bench_median(rep, BENCH_MCD_REPEAT);
        prism_pairs += r3.prism_pairs, prism_culled += r3.prism_culled;
        prism_tests += r3.prism_tests, culled += r3.culled, subint += r3.subintervals;
        /* time of first contact within BENCH_TOC_D, without and with prism culling */
        DstMeshToc toc;
        for (int q = 0; q < BENCH_MCD_REPEAT; ++q) {
            double tq = bench_now();
            dst_mesh_first_contact(&a, &b, 0.0, BENCH_T, BENCH_TOC_D, &opt, &toc);
            rep[q] = bench_now() - tq;
        }
        t_toc[tried] = 1e3 * bench_median(rep, BENCH_MCD_REPEAT);
        toc_hits += toc.hit;
        toc_evals[tried] = toc.distance_evals;
        for (int q = 0; q < BENCH_MCD_REPEAT; ++q) {
            double tq = bench_now();
            dst_mesh_first_contact(&a, &b, 0.0, BENCH_T, BENCH_TOC_D, &opt_pc, &toc);
            rep[q] = bench_now() - tq;
        }
        t_toc_pc[tried] = 1e3 * bench_median(rep, BENCH_MCD_REPEAT);
        toc_tests += toc.prism_tests, toc_culled += toc.culled, toc_sub += toc.subintervals;
        /* seed 003 Table 2: prism culling of the whole span at level BENCH_TOC_D, every pair */
        DstPrismStats ps = {0, 0, 0};
        double tq = bench_now();
        long kept = dst_mesh_swept_count(&a, &b, 0.0, 1.0, BENCH_TOC_D, &ps);
        t_cull[tried] = 1e3 * (bench_now() - tq);
        cull_pairs += ps.prism_pairs, cull_culled += ps.prism_culled, cull_nodes += ps.node_pairs;
        cull_whole += kept == 0;
        /* seed 003's setting: consecutive 10 ms frames, all triangle pairs counted */
        for (int k = 0; k < BENCH_SEED003_STEPS; ++k) {
            DstPrismStats ss = {0, 0, 0};
            long left = dst_mesh_swept_count(&a, &b, (double)k / BENCH_SEED003_STEPS,
                                             (double)(k + 1) / BENCH_SEED003_STEPS, BENCH_SEED003_D, &ss);
            seed_all += (double)H.n_tris * C.n_tris;
            seed_left += left > 0 ? (double)left : 0.0;
        }
        dst_bvh_cache_reset(&cache);
        double t = bench_now();
        if (getenv("BENCH_MCD_ONLY")) r2.status = DST_FAILED;
        else dst_mesh_mcd_sampling(&a, &b, 0.0, BENCH_T, &opt_plain, &cache, &r2);
        double ts = 1e3 * (bench_now() - t);
        /* the same sampling with the MCD's evaluations (tolerance growing above UB) */
        DstMeshMcdResult r4;
        dst_bvh_cache_reset(&cache);
        double t4 = bench_now();
        if (getenv("BENCH_MCD_ONLY")) r4.status = DST_FAILED;
        else dst_mesh_mcd_sampling(&a, &b, 0.0, BENCH_T, &opt, &cache, &r4);
        double ts4 = 1e3 * (bench_now() - t4);
        if (r1.status == DST_CERTIFIED && r4.status == DST_CERTIFIED) ratio_rel[both_rel++] = ts4 / t_as[tried];
        if (r1.status == DST_CERTIFIED) ++cert_as;
        if (r1.status == DST_CERTIFIED && r2.status == DST_CERTIFIED) {
            ratio[both] = ts / t_as[tried];
            t_sa[both] = ts;
            evals_sa[both] = r2.distance_evals;
            ++both;
        }
        ++tried;
    }
    printf("mesh_mcd_pair: rarm_link6 (%d tris) vs chest_link1 (%d tris), %d motions, eps %.0e m\n", H.n_tris,
           C.n_tris, BENCH_MOTIONS, opt.eps);
    printf("mesh_mcd_median_ms: %.3f\n", bench_median(t_as, BENCH_MOTIONS));
    printf("mesh_mcd_certified_share: %.3f\n", (double)cert_as / BENCH_MOTIONS);
    printf("mesh_mcd_median_evals: %.0f\n", bench_median(evals_as, BENCH_MOTIONS));
    printf("mesh_mcd_median_ms_prism: %.3f\n", bench_median(t_nc, BENCH_MOTIONS));
    printf("mesh_mcd_prism_pair_rate: %.4f (%ld of %ld prism pairs culled inside the MCD)\n",
           prism_pairs ? (double)prism_culled / prism_pairs : 0.0, prism_culled, prism_pairs);
    printf("prism_closed_subintervals: %ld of %ld tried (%ld sub-intervals)\n", culled, prism_tests, subint);
    printf("mesh_toc_median_ms: %.3f (first contact within %.0f mm; %ld of %d motions hit)\n",
           bench_median(t_toc, BENCH_MOTIONS), 1e3 * BENCH_TOC_D, toc_hits, BENCH_MOTIONS);
    printf("mesh_toc_median_evals: %.0f\n", bench_median(toc_evals, BENCH_MOTIONS));
    printf("mesh_toc_median_ms_prism: %.3f (prism culling closed %ld of %ld sub-intervals tried, %ld examined)\n",
           bench_median(t_toc_pc, BENCH_MOTIONS), toc_culled, toc_tests, toc_sub);
    printf("prism_cull_rate: %.4f (%ld of %ld prism pairs culled at %.0f mm over whole spans; %ld node pairs; "
           "%ld of %d spans culled entirely)\n",
           cull_pairs ? (double)cull_culled / cull_pairs : 0.0, cull_culled, cull_pairs, 1e3 * BENCH_TOC_D, cull_nodes,
           cull_whole, BENCH_MOTIONS);
    printf("prism_cull_ms: %.3f (median per span, every pair tested)\n", bench_median(t_cull, BENCH_MOTIONS));
    printf("prism_cull_rate_seed003: %.5f (seed 003 Table 2's (1 - D/A): %.0f of %.0f triangle pairs left over "
           "%d x %d frames of %.0f ms at %.0f mm)\n",
           seed_all > 0.0 ? 1.0 - seed_left / seed_all : 0.0, seed_left, seed_all, BENCH_MOTIONS, BENCH_SEED003_STEPS,
           1e3 * BENCH_T / BENCH_SEED003_STEPS, 1e3 * BENCH_SEED003_D);
    if (both > 0) {
        printf("mesh_sampling_median_ms: %.3f\n", bench_median(t_sa, both));
        printf("mesh_sampling_median_evals: %.0f\n", bench_median(evals_sa, both));
        printf("as_vs_sampling_speedup: %.1f\n", bench_median(ratio, both));
    }
    if (both_rel > 0) {
        printf("as_vs_sampling_speedup_same_evals: %.1f (sampling with the MCD's tolerance growing above UB)\n",
               bench_median(ratio_rel, both_rel));
    }
    dst_bvh_destroy(&H), dst_bvh_destroy(&C);
    dst_mesh_destroy(&mh), dst_mesh_destroy(&mc);
}

/* The hand against a statue-like mesh (mg_statue: 1.7 m tall, bumps of a few cm) of ~1k,
 * ~10k and ~100k triangles on the same seeded motions: the hand's root sphere starts 0.5-20 cm
 * off a random statue vertex along the ellipsoid normal there, travels up to 0.3 m, turns up
 * to 1 rad; the statue stands still. Median over motions of the per-motion median time. */
static void bench_statue(void)
{
    DstMesh mh;
    DstBvh H;
    if (!load("robots/meshes/rarm_link6.obj", &mh, &H)) exit(1);
    static const int tess[3][2] = {{23, 22}, {71, 70}, {224, 224}};
    static const char *label[3] = {"1k", "10k", "100k"};
    const double sx = 0.35, sy = 0.3, sz = 0.85;
    DstMeshMcdOptions opt = dst_mesh_mcd_options_default();
    for (int z = 0; z < 3; ++z) {
        DstMesh ms = mg_statue(sx, sy, sz, tess[z][0], tess[z][1]);
        DstBvh S;
        double tb = bench_now();
        if (dst_bvh_create(&ms, &S, NULL, 0) != DST_OK) {
            fprintf(stderr, "bench_mesh: statue bvh failed\n");
            exit(1);
        }
        tb = bench_now() - tb;
        TgRng rng = {BENCH_SEED + 7u}; /* the same motions at every size */
        static double t_m[BENCH_STATUE_MOTIONS], ev[BENCH_STATUE_MOTIONS];
        double rep[BENCH_MCD_REPEAT];
        int tried = 0, cert = 0;
        while (tried < BENCH_STATUE_MOTIONS) {
            /* a point of the smooth statue surface: direction, radius function, normal */
            double u[3];
            tg_unit(&rng, u);
            double th = acos(fmax(-1.0, fmin(1.0, u[2]))), ph = atan2(u[1], u[0]);
            double r = 1.0 + 0.12 * sin(5.0 * th) * cos(3.0 * ph) + 0.06 * sin(11.0 * th + 2.0 * ph);
            double p[3] = {sx * r * u[0], sy * r * u[1], sz * r * u[2]};
            double nrm[3] = {p[0] / (sx * sx), p[1] / (sy * sy), p[2] / (sz * sz)};
            double nl = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
            double kh[3], Rh0[9], Rr[9], Rh1[9], x0[3], x1[3], mv[3], c0[3];
            tg_unit(&rng, kh);
            tg_rot(kh, tg_uniform(&rng, -3.0, 3.0), Rh0);
            double gap = tg_uniform(&rng, 0.005, 0.2) + H.nodes[0].r;
            for (int i = 0; i < 3; ++i) c0[i] = Rh0[3 * i] * H.nodes[0].c[0] + Rh0[3 * i + 1] * H.nodes[0].c[1] + Rh0[3 * i + 2] * H.nodes[0].c[2];
            for (int i = 0; i < 3; ++i) x0[i] = p[i] + nrm[i] / nl * gap - c0[i];
            tg_unit(&rng, mv);
            double travel = tg_uniform(&rng, 0.0, 0.3);
            for (int i = 0; i < 3; ++i) x1[i] = x0[i] + mv[i] * travel;
            tg_unit(&rng, kh);
            tg_rot(kh, tg_uniform(&rng, 0.0, 1.0), Rr);
            tg_matmul(Rr, Rh0, Rh1);
            DstMovingMesh a, b;
            double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zo[3] = {0, 0, 0};
            a.bvh = &H, b.bvh = &S;
            dst_moving_frame_from_poses(Rh0, x0, Rh1, x1, 5, &a.frame);
            dst_moving_frame_static(I, zo, &b.frame);
            DstMeshDistance d0, d1;
            dst_mesh_nominal_distance(&a, &b, 0.0, 0.0, NULL, &d0, NULL);
            dst_mesh_nominal_distance(&a, &b, 1.0, 0.0, NULL, &d1, NULL);
            if (d0.distance <= 0.0 || d1.distance <= 0.0) continue;
            DstMeshMcdResult res;
            DstBvhCache cache;
            dst_bvh_cache_reset(&cache);
            dst_mesh_mcd(&a, &b, 0.0, BENCH_T, &opt, &cache, &res); /* warm-up */
            for (int q = 0; q < BENCH_MCD_REPEAT; ++q) {
                dst_bvh_cache_reset(&cache);
                double t = bench_now();
                dst_mesh_mcd(&a, &b, 0.0, BENCH_T, &opt, &cache, &res);
                rep[q] = bench_now() - t;
            }
            t_m[tried] = 1e3 * bench_median(rep, BENCH_MCD_REPEAT);
            ev[tried] = res.distance_evals;
            cert += res.status == DST_CERTIFIED;
            ++tried;
        }
        printf("mesh_statue_triangles_%s: %d (bvh build %.0f ms)\n", label[z], S.n_tris, 1e3 * tb);
        printf("mesh_mcd_statue_ms_%s: %.3f (median evals %.0f, certified %d of %d)\n", label[z],
               bench_median(t_m, BENCH_STATUE_MOTIONS), bench_median(ev, BENCH_STATUE_MOTIONS), cert,
               BENCH_STATUE_MOTIONS);
        if (z == 2) printf("mesh_mcd_statue_median_ms: %.3f\n", bench_median(t_m, BENCH_STATUE_MOTIONS));
        dst_bvh_destroy(&S);
        dst_mesh_destroy(&ms);
    }
    dst_bvh_destroy(&H);
    dst_mesh_destroy(&mh);
}

/* With an argument, only that section runs ("static", "mcd", "statue"); all by default. */
/* 4. PhongDist (dst_phong.h, thesis ch. V) beside the Euclidean signed distance of the same
 * pair in the same run: the HRP-2 right and left hands (robots/meshes/{r,l}arm_link6.obj, 3480
 * triangles each), B at BENCH_PHONG_POSES seeded random rotations, moved along a random
 * direction until the Euclidean distance is a seeded gap of 2-20 mm. Per pose the median of
 * BENCH_REPEAT cold queries (no warm start): euclid_us_same_pair = dst_bvh_distance,
 * phong_us = dst_phong_distance with its gradient (Euclidean prediction included),
 * phong_nograd_us without the gradient; phong_warm_us: 10 steps of 0.2 mm along a coherent path,
 * each warm-started from the previous q (Algorithm 5.1 line 2), gradient included.
 * phong_coherent_us: BENCH_PHONG_COHERENT steps of 0.2 mm along the same direction with B turning
 * by 1 mrad per step about a seeded axis (the kind of pose sequence a planner's iterations make),
 * each warm-started from the previous q and with a DstPhongCache that starts empty at the first
 * step (its builds included in the mean); phong_coherent_nocache_us: the same steps without the
 * cache. Both give the same answers bit for bit (checked here; phong_coherent_mismatch counts the
 * steps that do not). Medians over the poses. */
#define BENCH_PHONG_POSES 40
#define BENCH_PHONG_COHERENT 20
static void bench_phong(TgRng *rng)
{
    DstMesh ma, mb;
    DstBvh ba, bb;
    if (!load("robots/meshes/rarm_link6.obj", &ma, &ba) || !load("robots/meshes/larm_link6.obj", &mb, &bb)) exit(1);
    DstPhongModel A, B;
    char err[256];
    if (dst_phong_model_create(&ma, &A, err, sizeof err) != DST_OK ||
        dst_phong_model_create(&mb, &B, err, sizeof err) != DST_OK) {
        fprintf(stderr, "bench_mesh: %s\n", err);
        exit(1);
    }
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    DstPhongCache *cache = dst_phong_cache_create(0);
    if (ws == NULL || cache == NULL) exit(1);
    DstPhongOptions og = dst_phong_options_default(), on = og;
    on.gradient = 0;
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
    double te[BENCH_PHONG_POSES], tp[BENCH_PHONG_POSES], tn[BENCH_PHONG_POSES], tw[BENCH_PHONG_POSES];
    double fac[BENCH_PHONG_POSES], rep[BENCH_REPEAT], rep2[BENCH_REPEAT], rep3[BENCH_REPEAT];
    double tc[BENCH_PHONG_POSES], tcn[BENCH_PHONG_POSES];
    int converged = 0, mismatch = 0, builds = 0, hits = 0;
    TgRng crng = {BENCH_SEED + 19u}; /* the turning axes, apart from rng so that the poses are unchanged */
    for (int n = 0; n < BENCH_PHONG_POSES; ++n) {
        double k[3], R[9], dir[3], t[3], gap = tg_uniform(rng, 0.002, 0.02), lo = 0.0, hi = 1.0;
        tg_unit(rng, k);
        tg_rot(k, tg_uniform(rng, -3.0, 3.0), R);
        tg_unit(rng, dir);
        DstMeshDistance md;
        for (int it = 0; it < 50; ++it) {
            double m = 0.5 * (lo + hi);
            for (int i = 0; i < 3; ++i) t[i] = m * dir[i];
            dst_bvh_distance(&A.bvh, I, z, &B.bvh, R, t, NULL, &md);
            if (md.distance < gap) lo = m;
            else hi = m;
        }
        for (int i = 0; i < 3; ++i) t[i] = hi * dir[i];
        DstPhongResult r;
        dst_phong_distance(&A, &B, R, t, &og, NULL, ws, &r); /* warm-up */
        for (int q = 0; q < BENCH_REPEAT; ++q) {
            double t0 = bench_now();
            dst_bvh_distance(&A.bvh, I, z, &B.bvh, R, t, NULL, &md);
            double t1 = bench_now();
            dst_phong_distance(&A, &B, R, t, &og, NULL, ws, &r);
            double t2 = bench_now();
            dst_phong_distance(&A, &B, R, t, &on, NULL, ws, &r);
            rep[q] = t1 - t0, rep2[q] = t2 - t1, rep3[q] = bench_now() - t2;
        }
        converged += r.status == DST_SEPARATED || r.status == DST_TOUCHING || r.status == DST_PENETRATING;
        fac[n] = r.facets;
        te[n] = 1e6 * bench_median(rep, BENCH_REPEAT);
        tp[n] = 1e6 * bench_median(rep2, BENCH_REPEAT);
        tn[n] = 1e6 * bench_median(rep3, BENCH_REPEAT);
        double qprev[3];
        memcpy(qprev, r.q, sizeof qprev);
        double t0 = bench_now();
        for (int q = 1; q <= 10; ++q) {
            double tq[3];
            for (int i = 0; i < 3; ++i) tq[i] = t[i] + 2e-4 * q * dir[i];
            dst_phong_distance(&A, &B, R, tq, &og, qprev, ws, &r);
            memcpy(qprev, r.q, sizeof qprev);
        }
        tw[n] = 1e6 * (bench_now() - t0) / 10.0;
        /* the coherent sequence: with the cache, then the same steps without it */
        double ax[3], qc[3], qn[3], tcs = 0.0, tns = 0.0;
        tg_unit(&crng, ax);
        memcpy(qc, qprev, sizeof qc), memcpy(qn, qprev, sizeof qn);
        dst_phong_cache_reset(cache);
        for (int q = 1; q <= BENCH_PHONG_COHERENT; ++q) {
            double tq[3], E[9], Rq[9];
            for (int i = 0; i < 3; ++i) tq[i] = t[i] + 2e-4 * q * dir[i];
            tg_rot(ax, 1e-3 * q, E);
            tg_matmul(E, R, Rq);
            DstPhongResult rc, rn;
            double c0 = bench_now();
            dst_phong_distance_cached(&A, &B, Rq, tq, &og, qc, cache, ws, &rc);
            double c1 = bench_now();
            dst_phong_distance(&A, &B, Rq, tq, &og, qn, ws, &rn);
            double c2 = bench_now();
            tcs += c1 - c0, tns += c2 - c1;
            builds += rc.cache_builds, hits += rc.cache_hits;
            mismatch += rc.status != rn.status || rc.distance != rn.distance || memcmp(rc.q, rn.q, sizeof rc.q) ||
                        memcmp(rc.grad, rn.grad, sizeof rc.grad);
            memcpy(qc, rc.q, sizeof qc), memcpy(qn, rn.q, sizeof qn);
        }
        tc[n] = 1e6 * tcs / BENCH_PHONG_COHERENT, tcn[n] = 1e6 * tns / BENCH_PHONG_COHERENT;
    }
    printf("phong_pair: rarm_link6 (%d tris) vs larm_link6 (%d tris), %d poses, gaps 2-20 mm, alpha %.1f beta %.1f\n",
           A.n_faces, B.n_faces, BENCH_PHONG_POSES, og.alpha, og.beta);
    printf("euclid_us_same_pair: %.1f\n", bench_median(te, BENCH_PHONG_POSES));
    printf("phong_us: %.1f\n", bench_median(tp, BENCH_PHONG_POSES));
    printf("phong_nograd_us: %.1f\n", bench_median(tn, BENCH_PHONG_POSES));
    printf("phong_warm_us: %.1f\n", bench_median(tw, BENCH_PHONG_POSES));
    printf("phong_coherent_us: %.1f\n", bench_median(tc, BENCH_PHONG_POSES));
    printf("phong_coherent_nocache_us: %.1f\n", bench_median(tcn, BENCH_PHONG_POSES));
    printf("phong_coherent_cache: %d builds, %d hits, %d steps, %d mismatches with the uncached answers\n", builds,
           hits, BENCH_PHONG_POSES * BENCH_PHONG_COHERENT, mismatch);
    printf("phong_facets_median: %.0f (converged %d of %d)\n", bench_median(fac, BENCH_PHONG_POSES), converged,
           BENCH_PHONG_POSES);
    dst_phong_cache_destroy(cache);
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&A), dst_phong_model_destroy(&B);
    dst_bvh_destroy(&ba), dst_bvh_destroy(&bb);
    dst_mesh_destroy(&ma), dst_mesh_destroy(&mb);
}

int main(int argc, char **argv)
{
    TgRng rng = {BENCH_SEED};
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || !strcmp(only, "static")) {
        bench_static(&rng, 32, 16, 17, 32, "1k");
        bench_static(&rng, 100, 50, 51, 100, "10k");
        bench_static(&rng, 320, 160, 161, 320, "100k");
    }
    if (!*only || !strcmp(only, "mcd")) {
        TgRng r2 = {BENCH_SEED + 1u}; /* its own stream: the same motions whichever sections run */
        bench_mcd(&r2);
    }
    if (!*only || !strcmp(only, "statue")) bench_statue();
    if (!*only || !strcmp(only, "phong")) {
        TgRng r3 = {BENCH_SEED + 3u}; /* its own stream: the same poses whichever sections run */
        bench_phong(&r3);
    }
    return 0;
}
