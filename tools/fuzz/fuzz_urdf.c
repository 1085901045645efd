/* fuzz_urdf.c — the URDF importer (model/pln_urdf.c: libxml2 parse, tree, inertials,
 * shapes and the capsule fit, the <hrpplan> extension) and, on success, its kinematics at
 * the initial posture and the URDF export of the model. */
#include "fuzz_util.h"
#include "model/pln_kin.h"
#include "model/pln_robot.h"
#include "model/pln_urdf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    PlnRobot r;
    PlnUrdfOptions opt = {"/nonexistent", NULL};  /* no warnings printed, no package found */
    const char *path = fuzz_file(data, size, ".urdf");
    if (pln_urdf_load(path, &opt, &r, err, sizeof err) == PLN_OK) {
        PlnKinWork *kin = NULL;
        FILE *sink = fopen("/dev/null", "w");
        if (pln_kin_create(&r, &kin, err, sizeof err) == PLN_OK) {
            double q[256] = {0};
            if (r.n_joints <= 256) {
                for (int j = 0; j < r.n_joints; ++j) q[j] = r.joints[j].initial;
                (void)pln_kin_forward(kin, &r, q);
            }
            pln_kin_destroy(kin);
        }
        if (sink != NULL) {
            (void)pln_urdf_write(&r, path, sink, err, sizeof err);
            fclose(sink);
        }
        pln_robot_destroy(&r);
    }
    unlink(path);
    return 0;
}
