/* dst_mesh.h — triangle meshes: reading ASCII OBJ and STL files, and checking them.
 *
 * A DstMesh is an indexed triangle soup: n_vertices points (metres, in whatever frame the
 * file uses) and n_triangles index triples into them, counter-clockwise seen from outside
 * for a consistently outward-oriented closed mesh. Reading is strict about what makes a
 * mesh unusable and lenient about what only makes it unusual: an empty or truncated file,
 * a number that is not finite, an index out of range, a coordinate of absurd size
 * (|x| > DST_MESH_MAX_COORD) or an absurd element count are errors, reported through the
 * DstStatus and a one-line message "file:line: what" in a caller buffer; degenerate
 * triangles, open edges, non-manifold edges and inconsistent orientation are only counted
 * by dst_mesh_validate(), since a caller may accept them (a ground plane is open).
 * Nothing here keeps global state; a mesh owns its two arrays. */
#ifndef DST_MESH_H
#define DST_MESH_H

#include <stddef.h>

#include "dst.h"

typedef struct DstMesh {
    int n_vertices;
    int n_triangles;
    double (*vertices)[3];   /* owned, n_vertices points, metres */
    int (*triangles)[3];     /* owned, n_triangles triples of 0-based vertex indices */
} DstMesh;

/* What dst_mesh_validate() found. Counts are of triangles or of undirected edges. */
typedef struct DstMeshReport {
    int n_degenerate;         /* triangles with a repeated index or (near) zero area */
    int n_open_edges;         /* edges used by exactly one triangle */
    int n_nonmanifold_edges;  /* edges used by three or more triangles */
    int n_inconsistent_edges; /* edges whose two triangles traverse them the same way */
    int n_unused_vertices;    /* vertices no triangle refers to */
    int closed;               /* 1: no open and no non-manifold edge */
    int oriented;             /* 1: closed and no inconsistent edge */
    double volume;            /* signed enclosed volume, m^3 (> 0 when oriented outward;
                                 meaningful only when `oriented`) */
    double area;              /* total surface area, m^2 */
    double bbox_min[3], bbox_max[3];  /* axis-aligned bounds of the vertices, metres */
} DstMeshReport;

/* Reads a mesh from `path`: ASCII OBJ (".obj": `v x y z` and `f i j k ...` lines, polygons
 * fan-triangulated, `i/t/n` forms and negative relative indices accepted; vt, vn, vp, g, o,
 * s, l, p, usemtl, mtllib and # comments ignored) or STL (".stl", binary or ASCII, its
 * per-facet vertices welded by exact equality of coordinates). The extension selects the
 * format, case-insensitively. On success fills *mesh (which the caller later passes to
 * dst_mesh_destroy) and returns DST_OK. On failure returns DST_INVALID_INPUT (unreadable
 * file, bad content; message "path:line: ...") or DST_FAILED (out of memory), leaves
 * *mesh empty (safe to destroy) and writes the message into err[err_size].
 * Nullable: err (when err_size is 0). */
DstStatus dst_mesh_create_from_file(const char *path, DstMesh *mesh, char *err,
                                    size_t err_size);

/* Makes a mesh from arrays (copied): vertices[3 * n_vertices] in metres, triangles[3 *
 * n_triangles] 0-based. Errors as dst_mesh_create_from_file (index out of range, NaN,
 * absurd size, nothing to build); the message names the array element at fault
 * ("triangles[7]: ...") instead of a file line. */
DstStatus dst_mesh_create(const double *vertices, int n_vertices, const int *triangles,
                          int n_triangles, DstMesh *mesh, char *err, size_t err_size);

/* Frees the arrays of a mesh and empties it; safe on an empty or already destroyed mesh.
 * Nullable: mesh. */
void dst_mesh_destroy(DstMesh *mesh);

/* Checks the topology and geometry of a mesh into *report (all fields written). Returns
 * DST_OK; DST_INVALID_INPUT when a triangle index is out of range (possible only for a
 * mesh assembled by hand); DST_FAILED when the scratch memory for the edge analysis
 * cannot be allocated. Degenerate means a repeated index or an area below DST_MESH_DEGENERATE_REL
 * times the squared bounding-box diagonal. */
DstStatus dst_mesh_validate(const DstMesh *mesh, DstMeshReport *report);

#endif /* DST_MESH_H */
