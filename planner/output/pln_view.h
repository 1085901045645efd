/* pln_view.h — view.html: a self-contained 3-D playback of a planned motion.
 *
 * Contract. pln_view_write() samples the motion at `fps` frames per second (the last
 * frame exactly at the end) and writes ONE HTML file that needs nothing else: the data
 * are embedded as JSON in a <script type="application/json" id="hrpplan-data"> element
 * (every '<', '>' and '&' inside it written as a \u escape, so no text of the data can
 * close the element), the renderer is WebGL through three.js r111 (Debian's libjs-three,
 * inlined at build time behind its licence; planner/output/view/view.js builds the scene
 * once and moves it per frame: 3-D capsules, meshes as indexed BufferGeometry, a depth
 * buffer), and a Content-Security-Policy of default-src 'none' keeps the page off the
 * network. Per frame it embeds every link capsule's world endpoints (metres, 6
 * significant digits), the pair with the smallest static capsule distance (thesis eq.
 * 3.1) at that frame with its witness points, the distances of the PLN_VIEW_PLOT_PAIRS
 * pairs that come closest over the motion (the clearance plot), the centre of mass and,
 * with dynamics, the ZMP (pln_dynrows_sample) with the support phases' polygons;
 * obstacles are static. The page has a time slider, play/pause, a speed choice, mouse
 * orbit, pan and zoom, the clearance plot linked to the slider, the ZMP/CoM tracks and
 * support polygon on the floor, and shows each pair's certified MCD lower bound from the
 * certificate. When the scenario's collision geometry is not capsules (mesh: the link
 * meshes; convex: the hulls of their decimated vertices, so still convex; ellipsoid: the
 * links' ellipsoids), or an obstacle is a mesh, those shapes are embedded as triangle
 * meshes, decimated for display by pln_view_decimate() when over PLN_VIEW_LINK_MAX_TRIANGLES
 * (link) or PLN_VIEW_OBSTACLE_MAX_TRIANGLES (obstacle) triangles, and drawn flat-shaded,
 * back faces culled; link meshes are posed per frame by the link poses, obstacle meshes
 * are static in the world. Links drawn as meshes are not drawn as capsules. `#frame=K` or
 * `#t=SECONDS` in the URL selects the first frame shown; window.hrpplanView exposes
 * frames, setFrame(k) and the state, and `#selftest` / `#bench` report the drawn pixels
 * and the frame rate, for scripts and the browser test. Written atomically.
 *
 * The embedded JSON ("format": "hrpplan-view", docs/FILE_FORMATS.md):
 *   scenario, robot, certified, duration (s), eps (m), min_clearance (m or null),
 *   geometry ("capsule", "convex", "ellipsoid" or "mesh"),
 *   links[{name, radius, color}], obstacles[{name, p0, p1, radius, box?, mesh?}],
 *   pairs[{a, b, mcd_lower, t_min}],
 *   meshes[{name, link (name or null), obstacle (name or null), pose (index into the
 *   frames' poses, -1 for a static world mesh), color, cell (m), v[3 * nv] (link frame or
 *   world, m), t[3 * nt] (0-based, counter-clockwise seen from outside)}],
 *   support[{t0, t1, polygon[2 * edges]}] (with dynamics, else empty),
 *   frames{fps, t[n], capsules[n][6 * links], poses[n][12 * posed meshes] (row-major
 *   rotation then position of each posed mesh's link), worst[n] = [pair, distance,
 *   pA(3), pB(3)] or null when there are no pairs, plot_pairs[k <= PLN_VIEW_PLOT_PAIRS]
 *   (pair indices, closest over the frames first), clearance[n][k] (m), com[n] = [x, y, z]
 *   or null (no mass), zmp[n] = [x, y] or null (with dynamics, else empty)}. */
#ifndef PLN_VIEW_H
#define PLN_VIEW_H

#include <stddef.h>

#include "dst_mesh.h"
#include "problem/pln_certify.h"
#include "problem/pln_problem.h"

/* Default frames per second of view.html and the most frames it embeds (a longer motion
 * gets a lower frame rate). */
#define PLN_VIEW_DEFAULT_FPS 30.0
#define PLN_VIEW_MAX_FRAMES 6000

/* Pairs whose clearance over time the page plots (the closest over the frames). */
#define PLN_VIEW_PLOT_PAIRS 5

/* Display budgets: most triangles embedded per link mesh and per obstacle mesh. WebGL
 * draws an environment mesh of the scenarios whole (the 100352-triangle statues of
 * scenarios/pass.yaml: about 3.3 MB of JSON each); a larger one is decimated. */
#define PLN_VIEW_LINK_MAX_TRIANGLES 600
#define PLN_VIEW_OBSTACLE_MAX_TRIANGLES 200000

/* The id of the script element that carries the JSON (tests extract it by this). */
#define PLN_VIEW_DATA_ID "hrpplan-data"

/* Writes view.html of the motion ctrl of problem p. Nullable: cert (then no certified
 * figures are shown and the page says "not certified"). PLN_ERR_INVALID for fps <= 0 or
 * a non-finite number in the data (nothing written), PLN_ERR_IO, PLN_ERR_NOMEM. */
PlnStatus pln_view_write(const char *path, const PlnProblem *p, const double *ctrl,
                         const PlnCertificate *cert, double fps, char *err, size_t err_size);

/* Decimates a triangle mesh for display by vertex clustering on a uniform grid (Rossignac
 * and Borrel 1993): the vertices in one cubic cell of edge *cell become one vertex at
 * their mean, triangles whose corners fall in fewer than three cells vanish, and
 * duplicate triangles are kept once. The cell starts at sqrt(2 area / max_triangles)
 * and grows by a factor 1.25 until at most max_triangles remain. Each output vertex
 * lies in its cell together with the input vertices it replaces, so it is within
 * sqrt(3) * *cell of an input vertex (on the input surface). Orientation is kept
 * (counter-clockwise stays counter-clockwise); the result is for drawing, not for
 * distances, and may be non-manifold. A mesh that already has at most max_triangles
 * triangles is copied unchanged (*cell = 0). in: metres, any frame; out: a new mesh
 * (free with dst_mesh_destroy), same frame. Returns PLN_OK, PLN_ERR_INVALID
 * (max_triangles < 1, an empty or non-finite mesh; nothing allocated) or PLN_ERR_NOMEM.
 * Nullable: cell, err. */
PlnStatus pln_view_decimate(const DstMesh *in, int max_triangles, DstMesh *out, double *cell,
                            char *err, size_t err_size);

#endif /* PLN_VIEW_H */
