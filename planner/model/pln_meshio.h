/* pln_meshio.h — the one mesh reader of the planner: every mesh file hrpplan reads (robot
 * YAML meshes and convex hulls, URDF collision meshes, scenario mesh obstacles, the viewer)
 * goes through pln_mesh_read / pln_mesh_read_info.
 *
 * Formats, chosen by the file's extension (case-insensitive):
 *   .stl, .obj  the exact readers of libdistance (dst_mesh_create_from_file), in the
 *               file's own coordinates, taken as metres.
 *   .dae        Collada, through assimp's C API: the <unit meter="..."> of the asset is
 *               applied and the file's <up_axis> (Y_UP by default, Z_UP, X_UP) is turned
 *               into hrpplan's z up, every node transform of the visual scene applied, so
 *               a Z_UP file in metres comes out in its own coordinates, a Z_UP file in
 *               millimetres in its coordinates times 0.001, a Y_UP file with its +y
 *               along +z (x kept: (x, y, z) -> (x, -z, y)), an X_UP file with its +x
 *               along +z and its -y along +x ((x, y, z) -> (-y, -z, x)).
 *   .ply, .off  through assimp; no unit and no up axis in these formats: metres, z up, the
 *               file's coordinates as they are.
 * assimp runs with aiProcess_Triangulate | aiProcess_PreTransformVertices |
 * aiProcess_ValidateDataStructure only: no step that drops or merges geometry (no
 * JoinIdenticalVertices, whose 1e-5 tolerance in file units would merge distinct vertices
 * silently, no FindDegenerates, no SortByPType removal). The triangles are welded here by
 * exact equality of coordinates (as the STL reader does); points and lines of the file are
 * skipped and counted. The file is checked (regular file, at most PLN_MAX_MESH_BYTES) and
 * read by hrpplan, and assimp parses the bytes in memory, with its logger off (it prints
 * nothing). assimp's last-error string is process-wide: read meshes from one thread.
 *
 * What refuses a mesh (PLN_ERR_INVALID, "path[:line]: what"): an unreadable, empty, or
 * truncated file, a parse error, an index out of range, a coordinate that is not finite or
 * beyond DST_MESH_MAX_COORD, no triangle at all, and no triangle of nonzero area (a point,
 * a line, repeated indices: it bounds no solid). What only warns (PlnMeshInfo, for the
 * caller to show; this module prints nothing): some degenerate triangles among proper
 * ones, open edges, non-manifold edges, inconsistently oriented edges, and skipped points
 * or lines. */
#ifndef PLN_MESHIO_H
#define PLN_MESHIO_H

#include <stddef.h>

#include "base/pln_status.h"
#include "dst_mesh.h"

/* What reading a mesh found besides the mesh. */
typedef struct PlnMeshInfo {
    char format[8];           /* lower-case extension read: "stl", "obj", "dae", "ply", "off" */
    int via_assimp;           /* 1: parsed by assimp */
    int n_skipped_primitives; /* points and lines of the file (not triangles), skipped */
    DstMeshReport report;     /* dst_mesh_validate() of the mesh returned */
} PlnMeshInfo;

/* 1 when the extension of `path` names a format pln_mesh_read reads (.stl, .obj, .dae,
 * .ply, .off, any case), else 0. Looks at the name only. */
int pln_mesh_format_supported(const char *path);

/* Reads a mesh file of any format hrpplan reads (model/pln_meshio.h: STL, OBJ, Collada,
 * PLY, OFF) and acts on what dst_mesh_validate counts: a mesh with no triangle of nonzero
 * area (a single point, collinear vertices, every triangle of zero area or with a repeated
 * index) is refused, since it bounds no solid and its distances would certify nothing
 * real. A mesh with some degenerate triangles among proper ones is accepted (they lie on
 * its surface; CAD exports have them), as are open, non-manifold and inconsistent edges:
 * pln_mesh_read_info returns their counts for the caller to show. Errors: PLN_ERR_INVALID
 * with "path[:line]: what"; PLN_ERR_NOMEM. On success *mesh is the caller's
 * (dst_mesh_destroy). */
PlnStatus pln_mesh_read(const char *path, DstMesh *mesh, char *err, size_t err_size);

/* pln_mesh_read of a link's mesh_path with its per-axis scale applied to the vertices
 * (has_mesh_scale, mesh_scale[3]): the mesh in the file's frame as every consumer of a
 * link's mesh must see it. scale: NULL or 3 factors > 0. */
PlnStatus pln_mesh_read_scaled(const char *path, const double *scale, DstMesh *mesh, char *err,
                               size_t err_size);

/* Reads the mesh file `path` (see the header paragraph) into *mesh, which the caller
 * later passes to dst_mesh_destroy; on failure *mesh is left empty. Errors:
 * PLN_ERR_INVALID with "path[:line]: what" in err, PLN_ERR_NOMEM. Fills *info on
 * success (Nullable: info). */
PlnStatus pln_mesh_read_info(const char *path, DstMesh *mesh, PlnMeshInfo *info, char *err,
                             size_t err_size);

/* Writes into out[size] what in *info warrants a warning, as one line without the path:
 * "3 open edges, 2 non-manifold edges, 1 degenerate triangle"; "" when nothing does.
 * Returns the number of kinds of problem listed (0: a clean mesh). */
int pln_mesh_info_warnings(const PlnMeshInfo *info, char *out, size_t size);

#endif /* PLN_MESHIO_H */
