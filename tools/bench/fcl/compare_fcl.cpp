// compare_fcl.cpp — FCL's mesh-mesh distance (BVHModel<OBBRSS>, DistanceRequest with nearest
// points) on the pairs write_pairs.c wrote (the torus/sphere pairs of bench_mesh's
// mesh_distance lines, read from the same OBJ and pose files our side read back), timed
// like ours: median over the 200 poses of the median of 5 repeated cold queries (thread CPU
// time). Prints the raw times, the largest difference of the two distances, and
// mesh_distance_vs_fcl_<N> = FCL time / our time (> 1: ours is faster). Built only by
// `make bench-fcl`; C++ is allowed here only. Usage: compare_fcl DIR
#include <fcl/fcl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

double now_s()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The OBJ subset write_pairs.c prints: "v x y z" and "f i j k" (1-based).
bool read_obj(const std::string &path, std::vector<fcl::Vector3d> &verts, std::vector<fcl::Triangle> &tris)
{
    std::ifstream in(path);
    if (!in) return false;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "v") {
            double x, y, z;
            if (!(ls >> x >> y >> z)) return false;
            verts.emplace_back(x, y, z);
        } else if (tag == "f") {
            long a, b, c;
            if (!(ls >> a >> b >> c)) return false;
            tris.emplace_back(a - 1, b - 1, c - 1);
        }
    }
    return !verts.empty() && !tris.empty();
}

std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> model(const std::string &path, size_t *n_tris)
{
    std::vector<fcl::Vector3d> v;
    std::vector<fcl::Triangle> t;
    if (!read_obj(path, v, t)) return nullptr;
    auto m = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
    m->beginModel(static_cast<int>(t.size()), static_cast<int>(v.size()));
    m->addSubModel(v, t);
    m->endModel();
    *n_tris = t.size();
    return m;
}

bool one_size(const std::string &dir, const std::string &label)
{
    size_t nt = 0, ns = 0;
    auto torus = model(dir + "/torus_" + label + ".obj", &nt);
    auto sphere = model(dir + "/sphere_" + label + ".obj", &ns);
    std::ifstream poses(dir + "/poses_" + label + ".txt"), ours_in(dir + "/ours_" + label + ".txt"),
        dist_in(dir + "/dist_" + label + ".txt");
    if (!torus || !sphere || !poses || !ours_in || !dist_in) {
        std::fprintf(stderr, "compare_fcl: cannot read the %s files in %s\n", label.c_str(), dir.c_str());
        return false;
    }
    double ours_us = 0.0;
    ours_in >> ours_us;
    fcl::Transform3d tf_torus = fcl::Transform3d::Identity();
    std::vector<double> times;
    double max_diff = 0.0;
    std::string line;
    while (std::getline(poses, line)) {
        std::istringstream ls(line);
        double r[9], x[3], ref = 0.0;
        for (double &e : r) ls >> e;
        for (double &e : x) ls >> e;
        if (!ls || !(dist_in >> ref)) return false;
        fcl::Transform3d tf = fcl::Transform3d::Identity();
        fcl::Matrix3d R;
        R << r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8];
        tf.linear() = R;
        tf.translation() = fcl::Vector3d(x[0], x[1], x[2]);
        fcl::DistanceRequestd req(true);
        fcl::DistanceResultd res;
        fcl::distance(torus.get(), tf_torus, sphere.get(), tf, req, res); // warm-up
        std::vector<double> rep;
        for (int q = 0; q < 5; ++q) {
            fcl::DistanceResultd rq;
            double t = now_s();
            fcl::distance(torus.get(), tf_torus, sphere.get(), tf, req, rq);
            rep.push_back(now_s() - t);
            res = rq;
        }
        times.push_back(1e6 * median(rep));
        // FCL reports a negative or zero distance when the meshes touch; ours 0
        double d = res.min_distance < 0.0 ? 0.0 : res.min_distance;
        max_diff = std::max(max_diff, std::fabs(d - ref));
    }
    double fcl_us = median(times);
    std::printf("mesh_distance_fcl_us_%s: %.2f (%zu + %zu triangles, %zu poses)\n", label.c_str(), fcl_us, nt, ns,
                times.size());
    std::printf("mesh_distance_ours_us_%s: %.2f (dst_bvh_separation, same files)\n", label.c_str(), ours_us);
    std::printf("mesh_distance_fcl_max_abs_diff_%s: %.3g m\n", label.c_str(), max_diff);
    std::printf("mesh_distance_vs_fcl_%s: %.2f\n", label.c_str(), ours_us > 0.0 ? fcl_us / ours_us : 0.0);
    return true;
}

// ---- distance bands (issue 20) --------------------------------------------------------
// The pairs of write_pairs.c's band_pairs: per pose, FCL timed as above (median of 5 cold
// queries after a warm-up) against our time read from the poses file (same harness). Per
// band (clearance / size: contact 0.01-1 %, near 1-5 %, mid 5-20 %, far 20-100 %) and per
// pair: ratio of the medians and ratio of the 90th percentiles of the times (FCL / ours,
// > 1: ours faster). Over all pairs of a band: mesh_vs_fcl_<band>_median is the median of the
// per-pose ratios, mesh_vs_fcl_<band>_p90 the smallest per-pair p90 ratio (the worst tail).
// Per size class (the larger mesh of the pair: 1k < 3000 <= 10k < 30000 <= 100k triangles)
// mesh_vs_fcl_<size>_<band>_median likewise. With a second directory (same poses, our
// times from another build) its ratios are printed too, as ..._base.

const char *const kBand[4] = {"contact", "near", "mid", "far"};

struct PoseT {
    int band;
    double fcl_us, ours_us, base_us;
};

double pct(std::vector<double> v, double q)
{
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    double x = q * static_cast<double>(v.size() - 1);
    size_t i = static_cast<size_t>(x);
    double f = x - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1.0 - f) + v[i + 1] * f : v[i];
}

int bands(const std::string &dir, const std::string &base)
{
    std::ifstream list(dir + "/bands.txt");
    if (!list) {
        std::fprintf(stderr, "compare_fcl: cannot read %s/bands.txt\n", dir.c_str());
        return 1;
    }
    bool has_base = !base.empty();
    std::vector<double> all_r[4], all_rb[4], size_r[3][4], size_rb[3][4];
    double worst_p90[4] = {1e300, 1e300, 1e300, 1e300}, worst_p90b[4] = {1e300, 1e300, 1e300, 1e300};
    double max_diff = 0.0;
    std::string name;
    long nta, ntb;
    double size;
    std::printf("%-20s %7s %7s %-8s %5s %9s %9s %7s %7s%s\n", "pair", "tris_a", "tris_b", "band", "poses", "fcl_us",
                "ours_us", "median", "p90", has_base ? "  base_us  base_med base_p90" : "");
    while (list >> name >> nta >> ntb >> size) {
        size_t na = 0, nb = 0;
        auto A = model(dir + "/band_" + name + "_a.obj", &na);
        auto B = model(dir + "/band_" + name + "_b.obj", &nb);
        std::ifstream poses(dir + "/band_" + name + "_poses.txt");
        std::ifstream bposes;
        if (has_base) bposes.open(base + "/band_" + name + "_poses.txt");
        if (!A || !B || !poses || (has_base && !bposes)) {
            std::fprintf(stderr, "compare_fcl: cannot read the files of %s\n", name.c_str());
            return 1;
        }
        int sc = std::max(nta, ntb) < 3000 ? 0 : std::max(nta, ntb) < 30000 ? 1 : 2;
        std::vector<PoseT> pt;
        std::string line, bline;
        fcl::Transform3d tfa = fcl::Transform3d::Identity();
        while (std::getline(poses, line)) {
            std::istringstream ls(line);
            PoseT q{};
            double r[9], x[3], ref = 0.0;
            ls >> q.band;
            for (double &e : r) ls >> e;
            for (double &e : x) ls >> e;
            ls >> q.ours_us >> ref;
            if (!ls) return 1;
            if (has_base) {
                if (!std::getline(bposes, bline)) return 1;
                std::istringstream bs(bline);
                int bb;
                double br[12], bref;
                bs >> bb;
                for (double &e : br) bs >> e;
                bs >> q.base_us >> bref;
                for (int k = 0; k < 9; ++k) {
                    if (br[k] != r[k]) {
                        std::fprintf(stderr, "compare_fcl: %s: the base poses differ\n", name.c_str());
                        return 1;
                    }
                }
            }
            fcl::Transform3d tf = fcl::Transform3d::Identity();
            fcl::Matrix3d R;
            R << r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8];
            tf.linear() = R;
            tf.translation() = fcl::Vector3d(x[0], x[1], x[2]);
            fcl::DistanceRequestd req(true);
            fcl::DistanceResultd res;
            fcl::distance(A.get(), tfa, B.get(), tf, req, res); // warm-up
            std::vector<double> rep;
            for (int k = 0; k < 5; ++k) {
                fcl::DistanceResultd rq;
                double t = now_s();
                fcl::distance(A.get(), tfa, B.get(), tf, req, rq);
                rep.push_back(now_s() - t);
                res = rq;
            }
            q.fcl_us = 1e6 * median(rep);
            double d = res.min_distance < 0.0 ? 0.0 : res.min_distance;
            max_diff = std::max(max_diff, std::fabs(d - ref));
            pt.push_back(q);
        }
        for (int b = 0; b < 4; ++b) {
            std::vector<double> f, o, ob;
            for (const PoseT &q : pt) {
                if (q.band != b) continue;
                f.push_back(q.fcl_us), o.push_back(q.ours_us), ob.push_back(q.base_us);
                all_r[b].push_back(q.fcl_us / q.ours_us);
                size_r[sc][b].push_back(q.fcl_us / q.ours_us);
                if (has_base) all_rb[b].push_back(q.fcl_us / q.base_us), size_rb[sc][b].push_back(q.fcl_us / q.base_us);
            }
            if (f.empty()) continue;
            double med = median(f) / median(o), p90 = pct(f, 0.9) / pct(o, 0.9);
            worst_p90[b] = std::min(worst_p90[b], p90);
            std::printf("%-20s %7ld %7ld %-8s %5zu %9.2f %9.2f %7.2f %7.2f", name.c_str(), nta, ntb, kBand[b], f.size(),
                        median(f), median(o), med, p90);
            if (has_base) {
                double medb = median(f) / median(ob), p90b = pct(f, 0.9) / pct(ob, 0.9);
                worst_p90b[b] = std::min(worst_p90b[b], p90b);
                std::printf("  %8.2f %8.2f %8.2f", median(ob), medb, p90b);
            }
            std::printf("\n");
        }
    }
    const char *const kSize[3] = {"1k", "10k", "100k"};
    for (int b = 0; b < 4; ++b) {
        std::printf("mesh_vs_fcl_%s_median: %.2f (%zu poses)\n", kBand[b], median(all_r[b]), all_r[b].size());
        std::printf("mesh_vs_fcl_%s_p90: %.2f (worst pair)\n", kBand[b], worst_p90[b]);
        if (has_base) {
            std::printf("mesh_vs_fcl_%s_median_base: %.2f\n", kBand[b], median(all_rb[b]));
            std::printf("mesh_vs_fcl_%s_p90_base: %.2f\n", kBand[b], worst_p90b[b]);
        }
    }
    for (int sc = 0; sc < 3; ++sc) {
        for (int b = 0; b < 4; ++b) {
            if (size_r[sc][b].empty()) continue;
            std::printf("mesh_vs_fcl_%s_%s_median: %.2f", kSize[sc], kBand[b], median(size_r[sc][b]));
            if (has_base) std::printf("  (base %.2f)", median(size_rb[sc][b]));
            std::printf("\n");
        }
    }
    std::printf("mesh_vs_fcl_bands_max_abs_diff: %.3g m\n", max_diff);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc >= 3 && std::string(argv[1]) == "bands") return bands(argv[2], argc >= 4 ? argv[3] : "");
    if (argc != 2) {
        std::fprintf(stderr, "usage: compare_fcl DIR | compare_fcl bands DIR [BASEDIR]\n");
        return 2;
    }
    for (const char *label : {"1k", "10k", "100k"}) {
        if (!one_size(argv[1], label)) return 1;
    }
    return 0;
}
