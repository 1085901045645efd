/* fuzz_mesh_stl.c — the stl mesh reader (distance/dst_mesh.c) and the mesh check. */
#include "dst_mesh.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    DstMesh m;
    const char *path = fuzz_file(data, size, ".stl");
    memset(&m, 0, sizeof m);
    if (dst_mesh_create_from_file(path, &m, err, sizeof err) == DST_OK) {
        DstMeshReport rep;
        (void)dst_mesh_validate(&m, &rep);
    }
    dst_mesh_destroy(&m);
    unlink(path);
    return 0;
}
