/* bench_phong_gap.c — PhongDist query cost against the gap (issue 19, docs/math/phong.md
 * sec. 8): the two HRP-2 hands (rarm_link6 against larm_link6, 3480 triangles each) posed
 * at random orientations and directions, B moved along its direction until the Euclidean
 * distance is the gap (bisection on dst_bvh_distance), at gaps of 5, 10, 20, 40 and 60 mm
 * (the planner's working mesh rows reach the queries' stop level, eps + 6 cm). Per gap:
 * the median CPU time of a cold PhongDist query with its gradient (as the planner's frozen
 * evaluations ask for it), the Euclidean distance of the same poses in the same run, and
 * the median facet count of the partial Minkowski boundary. Prints `name: value` lines.
 * Run from the top directory. */
#include <stdio.h>
#include <stdlib.h>

#include "../../tests/dst_capsule_testgen.h"
#include "bench_util.h"
#include "dst_bvh.h"
#include "dst_mesh.h"
#include "dst_phong.h"

#define GAP_SEED 19u
#define GAP_POSES 20
#define GAP_COUNT 5

static int model(const char *path, DstPhongModel *m)
{
    DstMesh mesh;
    char err[512];
    DstStatus st = dst_mesh_create_from_file(path, &mesh, err, sizeof err);
    if (st == DST_OK) st = dst_phong_model_create(&mesh, m, err, sizeof err);
    dst_mesh_destroy(&mesh);
    if (st != DST_OK) fprintf(stderr, "bench_phong_gap: %s: %s\n", path, err);
    return st == DST_OK;
}

int main(void)
{
    static const double gaps[GAP_COUNT] = {0.005, 0.01, 0.02, 0.04, 0.06};
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
    DstPhongModel A, B;
    DstPhongWorkspace *ws = dst_phong_workspace_create(0);
    DstPhongOptions o = dst_phong_options_default();
    TgRng rng = {GAP_SEED};
    if (ws == NULL || !model("robots/meshes/rarm_link6.obj", &A) || !model("robots/meshes/larm_link6.obj", &B)) return 1;
    for (int g = 0; g < GAP_COUNT; ++g) {
        double tp[GAP_POSES], te[GAP_POSES], fac[GAP_POSES];
        int converged = 0;
        for (int n = 0; n < GAP_POSES; ++n) {
            double k[3], R[9], dir[3], t[3], lo = 0.0, hi = 1.0, t0, t1, t2;
            DstMeshDistance md;
            DstPhongResult r;
            tg_unit(&rng, k);
            tg_rot(k, tg_uniform(&rng, -3.0, 3.0), R);
            tg_unit(&rng, dir);
            /* B along dir until the Euclidean distance is the gap */
            for (int it = 0; it < 50; ++it) {
                double m = 0.5 * (lo + hi);
                for (int i = 0; i < 3; ++i) t[i] = m * dir[i];
                dst_bvh_distance(&A.bvh, I, z, &B.bvh, R, t, NULL, &md);
                if (md.distance < gaps[g]) lo = m;
                else hi = m;
            }
            for (int i = 0; i < 3; ++i) t[i] = hi * dir[i];
            t0 = bench_cpu_ns();
            dst_bvh_distance(&A.bvh, I, z, &B.bvh, R, t, NULL, &md);
            t1 = bench_cpu_ns();
            dst_phong_distance(&A, &B, R, t, &o, NULL, ws, &r);
            t2 = bench_cpu_ns();
            te[n] = 1e-6 * (t1 - t0);
            tp[n] = 1e-6 * (t2 - t1);
            fac[n] = r.facets;
            converged += r.status == DST_SEPARATED || r.status == DST_TOUCHING;
        }
        printf("phong_gap_%gmm_ms: %.2f\n", 1e3 * gaps[g], bench_median(tp, GAP_POSES));
        printf("phong_gap_%gmm_euclid_ms: %.3f\n", 1e3 * gaps[g], bench_median(te, GAP_POSES));
        printf("phong_gap_%gmm_facets: %.0f\n", 1e3 * gaps[g], bench_median(fac, GAP_POSES));
        printf("phong_gap_%gmm_converged: %d/%d\n", 1e3 * gaps[g], converged, GAP_POSES);
        fflush(stdout);
    }
    dst_phong_workspace_destroy(ws);
    dst_phong_model_destroy(&A);
    dst_phong_model_destroy(&B);
    return 0;
}
