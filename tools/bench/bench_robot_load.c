/* bench_robot_load.c — time to load and validate robots/hrp2.yaml (YAML walk + reading the
 * 31 link meshes), against a baseline measured in the same run: reading the same 31 mesh
 * files through dst_mesh alone. Median of repeated runs after warm-up; run from the top
 * directory (make bench). Prints `name: value` lines. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"

#include "dst_mesh.h"
#include "model/pln_robot.h"

#define WARMUP 3
#define RUNS 21

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}



int main(void)
{
    PlnRobot robot;
    char err[1024];
    double load[RUNS], meshes[RUNS];

    if (pln_robot_load("robots/hrp2.yaml", &robot, err, sizeof err) != PLN_OK) {
        fprintf(stderr, "bench_robot_load: %s\n", err);
        return 1;
    }
    for (int i = -WARMUP; i < RUNS; ++i) {
        PlnRobot r;
        double t0 = now_s();
        if (pln_robot_load("robots/hrp2.yaml", &r, err, sizeof err) != PLN_OK) return 1;
        double t1 = now_s();
        pln_robot_destroy(&r);
        /* baseline: the same meshes, read alone */
        double t2 = now_s();
        for (int k = 0; k < robot.n_links; ++k) {
            DstMesh m;
            if (dst_mesh_create_from_file(robot.links[k].geometry.mesh_path, &m, err,
                                          sizeof err) != DST_OK) {
                return 1;
            }
            dst_mesh_destroy(&m);
        }
        double t3 = now_s();
        if (i >= 0) {
            load[i] = t1 - t0;
            meshes[i] = t3 - t2;
        }
    }
    double l = bench_median(load, RUNS), m = bench_median(meshes, RUNS);
    printf("robot_load_hrp2_ms: %.3f\n", 1e3 * l);
    printf("mesh_read_hrp2_all_links_ms: %.3f\n", 1e3 * m);
    printf("robot_load_over_mesh_read: %.3f\n", l / m);
    pln_robot_destroy(&robot);
    return 0;
}
