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

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: compare_fcl DIR\n");
        return 2;
    }
    for (const char *label : {"1k", "10k", "100k"}) {
        if (!one_size(argv[1], label)) return 1;
    }
    return 0;
}
