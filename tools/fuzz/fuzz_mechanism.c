/* fuzz_mechanism.c — the mechanism loader of `hrpplan impact` (model/pln_mechanism.c) and,
 * on success, the impulse solve by both solvers. */
#include "fuzz_util.h"
#include "model/pln_impact.h"
#include "model/pln_mechanism.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    PlnMechanism m;
    const char *path = fuzz_file(data, size, ".yaml");
    if (pln_mechanism_load(path, &m, err, sizeof err) == PLN_OK) {
        PlnImpactWork *w = NULL;
        if (pln_impact_work_create(m.n_bodies, m.n_joints, &w, err, sizeof err) == PLN_OK) {
            PlnImpactResult r;
            (void)pln_impact_solve(w, &m.system, PLN_IMPACT_BLOCK, &r, err, sizeof err);
            (void)pln_impact_solve(w, &m.system, PLN_IMPACT_DENSE, &r, err, sizeof err);
            pln_impact_work_destroy(w);
        }
        pln_mechanism_destroy(&m);
    }
    unlink(path);
    return 0;
}
