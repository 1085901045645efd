/* pln_linkmesh.h — the triangle mesh of a link, the one function every consumer of a link's
 * mesh calls (geometry mesh and convex, the static sole, the viewer, `hrpplan robot`).
 *
 * A link has a mesh when it names one mesh file (geometry.mesh_path: the robot YAML's
 * `mesh`, a URDF link whose collision is one <mesh>), read and scaled as it always was; or
 * when it has collision parts (robot->parts, a URDF link with several <collision> elements
 * or with primitives): then its mesh is the disjoint union of one closed mesh per part
 * (docs/URDF.md "Collision geometry", eq. LM1-LM4):
 *   mesh      the file's triangles, scaled per axis, placed by the part's frame;
 *   box       its 12 triangles, exact;
 *   cylinder  a prism on a regular 32-gon circumscribing its circle (LM1);
 *   sphere    a latitude-longitude polyhedron (32 meridians, 16 bands) scaled so that every
 *             face plane is at least the radius from the centre (LM2-LM3);
 *   capsule   that polyhedron cut at its equator, the halves moved to the segment's ends and
 *             joined by a 32-gon band: the Minkowski sum of the polyhedron and the segment (LM4).
 * Each part is closed and outward oriented by itself; the parts share no vertex, and may
 * overlap: libdistance counts them as components (DstBvh.n_components) and decides inside by
 * winding number. Every tessellated primitive ENCLOSES the primitive (widened by
 * PLN_LINKMESH_ROUND_REL), so distances to it never exceed the primitive's. The mesh is in
 * the link's file frame: pln_link_file_point places it in the link frame, as for a file. */
#ifndef PLN_LINKMESH_H
#define PLN_LINKMESH_H

#include <stddef.h>

#include "base/pln_status.h"
#include "dst_mesh.h"
#include "model/pln_robot.h"

/* Tessellation of the primitives (docs/URDF.md LM1-LM4). */
#define PLN_LINKMESH_POLYGON 32  /* sides of a cylinder's polygon, meridians of a sphere */
#define PLN_LINKMESH_BANDS 16    /* latitude bands of a sphere (even: it has an equator) */

/* 1 when link geometry g has a triangle mesh (a mesh file or collision parts), else 0. */
int pln_link_has_mesh(const PlnLinkGeometry *g);

/* The closed, outward-oriented mesh of one part in the frame the part is placed in (its pos,
 * rot applied; a mesh part's file read, scaled and placed). Errors: the mesh file's
 * (PLN_ERR_INVALID "path[:line]: what"), PLN_ERR_NOMEM. On success *mesh is the caller's
 * (dst_mesh_destroy); on failure it is empty. */
PlnStatus pln_part_mesh(const PlnCollisionPart *part, DstMesh *mesh, char *err, size_t err_size);

/* The disjoint union of the meshes of parts[0 .. n - 1] (n >= 1): vertices and triangles
 * concatenated in that order, no vertex shared between parts. Errors as pln_part_mesh. */
PlnStatus pln_parts_mesh(const PlnCollisionPart *parts, int n, DstMesh *mesh, char *err,
                         size_t err_size);

/* The mesh of link `l` in its file frame (the frame file_pos, file_rot place in the link
 * frame): its mesh file scaled (pln_mesh_read_scaled), or the union of its parts. Errors:
 * PLN_ERR_INVALID for a link without a mesh ("link 'name' has no collision mesh") or a bad
 * file, PLN_ERR_NOMEM. */
PlnStatus pln_link_mesh_read(const PlnRobot *robot, int l, DstMesh *mesh, char *err,
                             size_t err_size);

#endif /* PLN_LINKMESH_H */
