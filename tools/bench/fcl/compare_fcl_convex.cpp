// compare_fcl_convex.cpp — convex-hull distance through FCL (Debian libfcl-dev, fcl::Convex,
// fcl::distance) and through distance/ (dst_gjk_distance, dst_convex_distance) in the same
// run, on the same hulls and poses as tools/bench/bench_gjk.c: two hulls of 150 vertices
// (points on ellipsoids 0.5/0.4/0.3 and 0.45/0.35/0.4 m), A at the identity, B at random
// orientations with centres 1.2 m apart (separated) or 0.55..0.85 m apart and overlapping.
//
// Unlike libccd 2.1 (tools/bench/ccd/compare_ccd.c, boolean only for separated pairs), FCL
// answers the same question as ours: the separation distance with nearest points (GJK), and
// with enable_signed_distance the penetration depth of overlapping shapes (GJK + EPA). Both
// of FCL's GJK back-ends are timed on separated pairs: GST_LIBCCD (its default) and GST_INDEP;
// overlapping pairs only with GST_LIBCCD (FCL 0.7's GST_INDEP stops on an assertion in
// distance-inl.h for the signed distance of two fcl::Convex). Cold queries on
// both sides (no warm start). Times: thread CPU time per query, median of REPEATS passes of
// NQ queries after a warm-up pass. Prints `name: value` lines, the largest difference of the
// two distances, and *_vs_fcl = FCL time / our time (> 1: ours is faster). Built only by
// `make bench-fcl`; C++ is allowed here only. Usage: compare_fcl_convex
#include <fcl/fcl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <vector>

extern "C" {
#include "dst_convex.h"
}
#include "../bench_shapes.h"
#include "../bench_util.h"


namespace {

constexpr int NVERT = 150, NQ = 1000, REPEATS = 5;

double now_s()
{
    return 1e-9 * bench_cpu_ns(); // thread CPU time
}

double median(std::vector<double> v)
{
    return bench_median(v.data(), static_cast<int>(v.size()));
}

struct Pose {
    double R[9], t[3];
};

Pose random_pose(BRng &r, double dist)
{
    Pose p;
    double axis[3], dir[3];
    bench_unit(&r, axis);
    bench_unit(&r, dir);
    bench_rotation(axis, 2.0 * 3.141592653589793 * brng(&r), p.R);
    for (int i = 0; i < 3; ++i) p.t[i] = dist * dir[i];
    return p;
}

bool make_hull(BRng &r, double ax, double ay, double az, DstHull *h)
{
    const double axes[3] = {ax, ay, az};
    return bench_ellipsoid_hull(&r, NVERT, axes, nullptr, h) != 0;
}

std::shared_ptr<fcl::Convexd> fcl_convex(const DstHull &h)
{
    auto verts = std::make_shared<std::vector<fcl::Vector3d>>();
    auto faces = std::make_shared<std::vector<int>>();
    for (int i = 0; i < h.nverts; ++i)
        verts->emplace_back(h.verts[3 * i], h.verts[3 * i + 1], h.verts[3 * i + 2]);
    for (int f = 0; f < h.ntris; ++f) {
        faces->push_back(3);
        for (int k = 0; k < 3; ++k) faces->push_back(h.tris[3 * f + k]);
    }
    return std::make_shared<fcl::Convexd>(verts, h.ntris, faces);
}

fcl::Transform3d fcl_pose(const Pose &p)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d R;
    R << p.R[0], p.R[1], p.R[2], p.R[3], p.R[4], p.R[5], p.R[6], p.R[7], p.R[8];
    tf.linear() = R;
    tf.translation() = fcl::Vector3d(p.t[0], p.t[1], p.t[2]);
    return tf;
}

// median time per query (s) of ours over the poses; distances into d
double time_ours(const DstConvex &a, DstConvex b, const std::vector<Pose> &poses, bool signed_dist,
                 std::vector<double> &d)
{
    std::vector<double> t;
    d.assign(poses.size(), 0.0);
    for (int rep = 0; rep <= REPEATS; ++rep) {
        double t0 = now_s();
        for (size_t q = 0; q < poses.size(); ++q) {
            dst_convex_set_pose(&b, poses[q].R, poses[q].t);
            if (signed_dist) {
                DstConvexDistance r;
                dst_convex_distance(&a, &b, nullptr, nullptr, nullptr, &r, nullptr, 0);
                d[q] = r.distance;
            } else {
                DstGjkResult r;
                dst_gjk_distance(&a, &b, nullptr, nullptr, &r, nullptr, 0);
                d[q] = r.distance;
            }
        }
        if (rep > 0) t.push_back((now_s() - t0) / static_cast<double>(poses.size()));
    }
    return median(t);
}

// median time per query (s) of FCL's distance with the given GJK back-end
double time_fcl(const std::shared_ptr<fcl::Convexd> &a, const std::shared_ptr<fcl::Convexd> &b,
                const std::vector<Pose> &poses, bool signed_dist, fcl::GJKSolverType solver,
                std::vector<double> &d)
{
    std::vector<double> t;
    std::vector<fcl::Transform3d> tfs;
    for (const Pose &p : poses) tfs.push_back(fcl_pose(p));
    const fcl::Transform3d ident = fcl::Transform3d::Identity();
    fcl::DistanceRequestd req(true);
    req.enable_signed_distance = signed_dist;
    req.gjk_solver_type = solver;
    d.assign(poses.size(), 0.0);
    for (int rep = 0; rep <= REPEATS; ++rep) {
        double t0 = now_s();
        for (size_t q = 0; q < poses.size(); ++q) {
            fcl::DistanceResultd res;
            fcl::distance(a.get(), ident, b.get(), tfs[q], req, res);
            d[q] = res.min_distance;
        }
        if (rep > 0) t.push_back((now_s() - t0) / static_cast<double>(poses.size()));
    }
    return median(t);
}

double max_diff(const std::vector<double> &x, const std::vector<double> &y)
{
    double m = 0.0;
    for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
    return m;
}

} // namespace

int main()
{
    BRng rng{0x1234567ULL};
    DstHull ha, hb;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (!make_hull(rng, 0.5, 0.4, 0.3, &ha) || !make_hull(rng, 0.45, 0.35, 0.4, &hb)) {
        std::fprintf(stderr, "compare_fcl_convex: hull failed\n");
        return 1;
    }
    DstConvex a = dst_hull_convex(&ha), b = dst_hull_convex(&hb);
    auto fa = fcl_convex(ha), fb = fcl_convex(hb);

    std::vector<Pose> sep, ovl;
    for (int q = 0; q < NQ; ++q) sep.push_back(random_pose(rng, 1.2));
    while (static_cast<int>(ovl.size()) < NQ) {
        Pose p = random_pose(rng, 0.55 + 0.3 * brng(&rng));
        DstConvexDistance r;
        dst_convex_set_pose(&b, p.R, p.t);
        dst_convex_distance(&a, &b, nullptr, nullptr, nullptr, &r, nullptr, 0);
        if (r.distance < 0.0) ovl.push_back(p);
    }

    std::vector<double> d_ours, d_ccd, d_indep;
    double ours = time_ours(a, b, sep, false, d_ours);
    double ccd = time_fcl(fa, fb, sep, false, fcl::GST_LIBCCD, d_ccd);
    double indep = time_fcl(fa, fb, sep, false, fcl::GST_INDEP, d_indep);
    std::printf("fcl_hull_vertices: %d %d\n", ha.nverts, hb.nverts);
    std::printf("ours_gjk_distance_ns: %.1f\n", ours * 1e9);
    std::printf("fcl_libccd_distance_ns: %.1f\n", ccd * 1e9);
    std::printf("fcl_indep_distance_ns: %.1f\n", indep * 1e9);
    std::printf("gjk_vs_fcl_libccd: %.2f\n", ccd / ours);
    std::printf("gjk_vs_fcl_indep: %.2f\n", indep / ours);
    std::printf("gjk_fcl_libccd_max_diff_m: %.3g\n", max_diff(d_ours, d_ccd));
    std::printf("gjk_fcl_indep_max_diff_m: %.3g\n", max_diff(d_ours, d_indep));

    ours = time_ours(a, b, ovl, true, d_ours);
    ccd = time_fcl(fa, fb, ovl, true, fcl::GST_LIBCCD, d_ccd);
    std::printf("ours_epa_signed_distance_us: %.3f\n", ours * 1e6);
    std::printf("fcl_libccd_signed_distance_us: %.3f\n", ccd * 1e6);
    std::printf("epa_vs_fcl_libccd: %.2f\n", ccd / ours);
    std::printf("epa_fcl_libccd_max_diff_m: %.3g\n", max_diff(d_ours, d_ccd));
    dst_hull_destroy(&ha);
    dst_hull_destroy(&hb);
    return 0;
}
