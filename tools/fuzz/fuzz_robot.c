/* fuzz_robot.c — the robot loader (model/pln_robot.c) and, on success, its kinematics
 * at the initial posture and its re-rooting at the last link. */
#include "fuzz_util.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    PlnRobot r;
    const char *path = fuzz_file(data, size, ".yaml");
    if (pln_robot_load(path, &r, err, sizeof err) == PLN_OK) {
        PlnKinWork *kin = NULL;
        if (pln_kin_create(&r, &kin, err, sizeof err) == PLN_OK) {
            double q[256] = {0};
            if (r.n_joints <= 256) {
                for (int j = 0; j < r.n_joints; ++j) q[j] = r.joints[j].initial;
                (void)pln_kin_forward(kin, &r, q);
            }
            pln_kin_destroy(kin);
        }
        pln_robot_destroy(&r);
    }
    unlink(path);
    return 0;
}
