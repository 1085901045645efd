/* dst_tolerance.h — every numerical tolerance of distance/, with its unit and reason.
 *
 * Local tolerances inside the kernels are derived from these; no bare literal
 * thresholds appear in the algorithms. User-facing tolerances (MCD eps, GSS tau)
 * are options whose defaults are defined here as the seeds give them. */
#ifndef DST_TOLERANCE_H
#define DST_TOLERANCE_H

/* Smallest denominator accepted in a guarded division (dimensionless or m^2):
 * below it the quantity is treated as degenerate and the explicit branch is taken. */
#define DST_MIN_DENOM 1e-300

/* Default certified error of a continuous distance query, metres (thesis sec. VI.A.3,
 * eq. 6.1: eps = 1e-3 m). */
#define DST_DEFAULT_MCD_EPS 1e-3

/* Default golden-section bracket width tau, seconds (thesis sec. III.B). */
#define DST_DEFAULT_GSS_TAU 1e-3

/* Default iteration cap of conservative advancement (thesis sec. VI.A.3 used 500). */
#define DST_DEFAULT_CA_MAX_ITER 500

/* ---- capsule distance and capsule MCD (issue 3) ---- */

/* Relative widening that keeps a computed bound rigorous in floating point,
 * dimensionless: a value computed with at most ~60 roundings (Horner of degree <= 7,
 * de Casteljau, dot products, the segment kernel) from inputs of magnitude M is within
 * DST_ROUND_REL * M of the exact value. 128 unit roundoffs: generous on purpose. */
#define DST_ROUND_REL (128.0 * 2.220446049250313e-16)

/* Two segments are handled as parallel when sin^2 of their angle is below this,
 * i.e. |dA x dB|^2 <= DST_PARALLEL_SIN2 |dA|^2 |dB|^2; the closest points are then
 * taken at the middle of the overlap (stable witness, DESIGN sec. 6), which is off the
 * true distance by at most sin(angle) * length = 1e-10 * length. */
#define DST_PARALLEL_SIN2 1e-20

/* Absolute part of the touching band of the static capsule distance, metres; the
 * relative part is DST_ROUND_REL times the coordinate magnitude. */
#define DST_TOUCH_ABS 1e-12

/* Conservative advancement (Algorithm 3.1): the advancement toward the level d2 counts
 * as having reached it once the certified distance is within this fraction of the
 * current range width d1 - d0 above d2 (avoids the Zeno tail of CA; dimensionless). */
#define DST_CA_REACH_FRACTION 0.25

/* Hybrid: the advancement toward upper - eps counts as having reached it once the
 * certified distance is within this fraction of eps above the target (dimensionless). */
#define DST_HYBRID_REACH_FRACTION 0.25

/* Hybrid: its golden-section search also stops once both bracket ends lie within this
 * fraction of eps above the middle value (the certificate comes from the advancement;
 * dimensionless). */
#define DST_HYBRID_GSS_FLAT_FRACTION 0.25

/* Certified sampling (eq. 6.3): the sample count n makes (t1 - t0) mu / n equal to this
 * fraction of eps, leaving the rest for rounding (dimensionless). */
#define DST_SAMPLING_EPS_FRACTION 0.99

/* Default cap on the number of samples of certified sampling. */
#define DST_DEFAULT_SAMPLING_MAX 1000000

/* Rotation matrices given to the rigid-pose helper must satisfy |R R^T - I| <= this
 * (max abs entry) and det R > 0 (dimensionless). */
#define DST_ROTATION_TOL 1e-9
/* Mesh files (dst_mesh.c). Largest accepted |coordinate|, metres: nothing a robot meets
 * is a kilometre across, so a larger number is a unit mistake (millimetres read as
 * metres are still accepted) or garbage. */
#define DST_MESH_MAX_COORD 1e3
/* Largest mesh file read (bytes), checked before reading: a 10-million-triangle binary
 * STL is 500 MB; more is no collision model. */
#define DST_MESH_MAX_FILE_BYTES (512LL * 1024 * 1024)

/* Largest accepted vertex or triangle count of one mesh: 2^26 (67 million), some 670
 * times the largest scene object of the seeds (a 100k-triangle statue) and far inside
 * int, so that index arithmetic cannot overflow. */
#define DST_MESH_MAX_ELEMENTS (1 << 26)

/* A triangle is degenerate when its area is below this fraction of the squared diagonal
 * of the mesh's bounding box (dimensionless): far below any real feature, far above the
 * rounding noise of a collinear triple. */
#define DST_MESH_DEGENERATE_REL 1e-14
/* Ellipsoid closest approach (seed 001): default stopping tolerance of eq. (12) on
 * |u_{i+1} - u_i| (dimensionless; the paper's 1e-8) and iteration cap (the paper's 100). */
#define DST_ELLIPSOID_DEFAULT_EPS 1e-8
#define DST_ELLIPSOID_DEFAULT_MAX_ITER 100
/* Start value u0 of the ellipsoid iterations (dimensionless). DST_ELLIPSOID_U0_AUTO (0, not
 * a start itself: the root lies in (0, 1)) selects the radial start of docs/math/ellipsoid.md
 * eq. (34), u0 = rho1 / (rho1 + rho2) with rho_i the radius of e_i along n: the root for any
 * two spheres, and 3.52 / 8 hybrid iterations (mean / max) on the paper's Fig. 3 pairs
 * against 4.82 / 12 from 0.5 (docs/perf/ellipsoid.md, session 25). It is the default.
 * DST_ELLIPSOID_PAPER_U0 is the paper's fixed start (sec. 2.3: the root for two equal
 * spheres), used by its Fig. 2-4 experiments; the radial start falls back to it when its
 * ratio is not a number in (0, 1) (overflow for extreme inputs). */
#define DST_ELLIPSOID_U0_AUTO 0.0
#define DST_ELLIPSOID_PAPER_U0 0.5
#define DST_ELLIPSOID_DEFAULT_U0 DST_ELLIPSOID_U0_AUTO

/* Rounding allowance, in units of DBL_EPSILON, of each term of the ellipsoid distance
 * d = (h1 + h2) / (N . n) (docs/math/ellipsoid.md eq. 31): every term carries at most a
 * handful of roundings (G, the products, the square roots); 16 covers them with room, so
 * that d stays an upper bound of the exact distance and the reported gap a lower bound. */
#define DST_ELLIPSOID_ROUND_ULPS 16.0

/* Refinement of the ellipsoid contact (docs/math/ellipsoid.md eq. 33): when the contact
 * points of the two ellipsoids differ by more than this fraction of the smallest
 * semi-axis (only for very elongated pairs, where the root u of eq. 10 is
 * ill-conditioned), up to DST_ELLIPSOID_REFINE_STEPS Newton steps on the support function
 * refine the normal; each step must lower d. */
#define DST_ELLIPSOID_REFINE_TOL 1e-10
#define DST_ELLIPSOID_REFINE_STEPS 3

/* Largest accepted deviation |R^T R - I| (entrywise, dimensionless) of a rotation
 * matrix given through the API: a few thousand ulps, enough for products of many
 * rotations, small enough to reject matrices that are not rotations at all. */
#define DST_ROTATION_ORTHO_TOL 1e-9

/* ---- convex shapes, GJK, EPA, hulls (distance/include/dst_convex.h) ---- */

/* Rotation check: |R R^T - I| entries and |det R - 1| must be below this (dimensionless);
 * looser than rounding of a composed pose chain, tight enough to catch a scaled matrix. */
#define DST_CONVEX_ORTHO_TOL 1e-9

/* Supported range of lengths, metres: coordinates, sizes and support points beyond
 * DST_CONVEX_MAX_COORD, or a problem whose whole extent is below DST_CONVEX_MIN_SCALE (but
 * not zero), are rejected as invalid input: squares and triple products of such numbers
 * overflow or underflow a double (1e100^3 and 1e-100^3 are still representable). */
#define DST_CONVEX_MAX_COORD 1e100
#define DST_CONVEX_MIN_SCALE 1e-100

/* GJK iteration cap: a polytope pair converges in far fewer; curved cores converge
 * linearly and stop on the tolerance well before it. */
#define DST_GJK_DEFAULT_MAX_ITER 128

/* GJK stops when the support gap (upper - lower bound of the distance) is below
 * rel_tol * distance + abs_tol * scale (scale = radius of the Minkowski difference seen). */
#define DST_GJK_DEFAULT_REL_TOL 1e-10
#define DST_GJK_DEFAULT_ABS_TOL 1e-13

/* Cores overlap when the closest vector is shorter than this times the scale: at that size
 * the closest point is below the rounding noise of the supports (dimensionless). */
#define DST_GJK_OVERLAP_REL 1e-13

/* A sub-simplex is degenerate (zero length / area / volume) below this relative size:
 * length < rel * L, area < rel * L^2, volume < rel * L^3 with L the simplex extent. */
#define DST_GJK_DEGENERATE_REL 1e-12

/* Signed distances within this times the scale of zero are reported as touching. */
#define DST_CONVEX_TOUCH_REL 1e-9

/* EPA caps: polytope vertices and faces live in a fixed workspace on the stack. */
#define DST_EPA_MAX_VERTS 128
#define DST_EPA_MAX_FACES (2 * DST_EPA_MAX_VERTS)
#define DST_EPA_DEFAULT_MAX_ITER 120

/* EPA stops when depth_upper - depth_lower <= rel_tol * depth + abs_tol * scale. Polytope
 * cores reach it exactly; curved cores (ellipsoids) approach it at rate ~ edge^2. */
#define DST_EPA_DEFAULT_REL_TOL 1e-9
#define DST_EPA_DEFAULT_ABS_TOL 1e-12

/* EPA: a support point within this times the scale of a face plane is on it (not visible
 * from it); far above the rounding of n . w, far below any depth of interest. */
#define DST_EPA_PLANE_REL 1e-12

/* Hull: points within this times the bounding-box diagonal of a face plane are on it. */
#define DST_HULL_REL_TOL 1e-10

/* Hull: cube-map resolution of the support start table (6 * res^2 cells); at 8 the
 * hill-climb from the table starts one or two steps from the answer on ~100-vertex hulls. */
#define DST_HULL_DIR_RES 8

/* Hull: when rounding on nearly coplanar faces breaks convexity at the requested tolerance,
 * the hull is rebuilt with 100 times larger tolerances up to this one (relative to the
 * bounding-box diagonal); beyond it the build fails. */
#define DST_HULL_MAX_REL_TOL 1e-6

/* Capsule against a static convex shape (dst_convex_mcd.c): the advancement aims at
 * upper - max(eps - err, this fraction of eps), so that a query whose enclosure radius
 * exceeds eps still makes progress (its result is then not certified; dimensionless). */
#define DST_CONVEX_MCD_MIN_EPS_FRACTION 0.25
/* ---- mesh distance and mesh MCD (issue 6) ---- */

/* A closed mesh counts as convex when its enclosed volume is within this fraction of its
 * convex hull's (dimensionless): hull tolerances move the volume by ~1e-10 relative, any
 * real dent by far more. */
#define DST_BVH_CONVEX_VOL_REL 1e-6

/* Meshes with more vertices than this get their bounding box instead of a quickhull as the
 * convex container used for depth bounds: quickhull is O(n h) and takes ~20 s on a
 * 100k-triangle torus; 20k vertices stay below ~0.5 s. */
#define DST_BVH_HULL_MAX_VERTS 20000

/* Mesh MCD: the static evaluations prune the BVH with this fraction of the target error
 * (dst_bvh_distance_tol): end values need only that accuracy, and near-parallel surfaces
 * cost far fewer triangle tests than an exact query (dimensionless). */
#define DST_MESH_MCD_TOL_FRACTION 0.25

/* Default cap on the static distance evaluations of one mesh MCD query (adaptive
 * subdivision and the sampling baseline): a thesis-size problem (eps = 1e-3 m, links of
 * ~0.3 m turning ~1 rad per span) needs tens; the cap only stops pathological motions. */
#define DST_MESH_MCD_MAX_EVALS 4000

/* ---- two moving convex shapes (dst_convex_mcd, issue 7) ---- */

/* During the advancement, a nominal value this fraction of the walk margin eta below the
 * level (i.e. well below the best value so far) means a lower local minimum lies ahead: a
 * local descent looks for it before the walk goes on (dimensionless; docs/math/capsule_mcd.md
 * eq. M9). */
#define DST_CONVEX_MCD_DESCENT_FRACTION 0.5

/* Two moving convex shapes: once the advancement has taken this fraction of its step cap
 * (max_iter), a walk too slow to reach the end of the interval with the steps left lowers
 * its level so that it does (rigour kept, the certificate may be lost: DST_ITER_LIMIT),
 * instead of bounding the rest from one point by the worst motion over all of it
 * (dimensionless; docs/math/capsule_mcd.md eq. M9b). */
#define DST_CONVEX_MCD_PACE_FRACTION 0.5

/* When no step is possible at the current level (the gap along the normal and the point bound
 * both at the level: inexact normal, large orthonormalisation deviation), the level is lowered
 * to this fraction of eta below the better of the two point bounds (dimensionless). */
#define DST_CONVEX_MCD_STALL_FRACTION 0.25
/* Mesh MCD: above the current UB an evaluation's pruning tolerance grows as this fraction
 * of its distance above UB (dst_bvh_distance_rel): such a value only has to show that its
 * neighbourhood lies above UB, so its lower bound may sit halfway down (dimensionless, < 1). */
#define DST_MESH_MCD_TOL_REL 0.5

/* Mesh MCD: an evaluation at a split point aims its BVH pruning level this far above the value
 * that closes both halves (docs/math/mesh_mcd.md eq. 15c-5d), metres: the static lower bound it
 * returns carries rounding of DST_ROUND_REL times the pose scale (~1e-15 m), which must not
 * leave it a hair short of the level. Any value keeps the bounds valid; it only decides how
 * much work an evaluation does. */
#define DST_MESH_MCD_LEVEL_MARGIN 1e-9

/* Mesh MCD: the tolerance growth (tol_rel) of a split point's evaluation that is capped at its
 * needed level is tol_rel times this, dimensionless: capped, such an evaluation prunes far
 * above UB anyway, and below the level its value starts the two halves' own bounds. Measured
 * on the HRP-2 hand/chest benchmark (docs/perf/mesh.md Session 21): 0.5 gave 15 evaluations
 * and the best time, 1 gave 19, 0 gave 13 but slower evaluations. */
#define DST_MESH_MCD_SPLIT_REL_FACTOR 0.5

/* Time of first contact of two moving meshes: default width of the contact bracket,
 * seconds (1/10 of a 1 ms control period). */
#define DST_MESH_TOC_TIME_TOL 1e-4


/* ---- PhongDist (dst_phong.h, thesis ch. V, issue 19) ---- */

/* Default user constant alpha of eq. (5.12), dimensionless: the search sphere S about q has the
 * radius r = alpha |q|. The answer does not depend on it (a walk that leaves S moves S,
 * Algorithm 5.1 lines 23-24), only the time: the collection ball grows with r and the enumeration
 * cost faster than its square; 0.5 measured 15 ms against 18 ms for 1 on the HRP-2 hands. */
#define DST_PHONG_DEFAULT_ALPHA 0.5

/* Default radius factor beta of the normal-averaging ball h(x) = beta |x| + h_min (phong.md eq.
 * P1), dimensionless. A concave crease whose normals turn by theta keeps the Phong projection
 * single-valued while beta exceeds about theta (phong.md sec. 4, measured on the L-block: 1 folds,
 * 2 does not); 2 covers the right angles of boxes and L-shapes. */
#define DST_PHONG_DEFAULT_BETA 2.0

/* Smallest averaging and search radius h_min, as a fraction of diag(A) + diag(B): keeps the
 * normal field continuous at contact (|q| -> 0), where alpha |q| alone would vanish. */
#define DST_PHONG_MIN_RADIUS_REL 0.02

/* Largest averaging radius, fraction of diag(A) + diag(B): a ball holding all of a closed dM
 * averages its normals to zero (sum of area * normal over a closed surface is 0). */
#define DST_PHONG_MAX_RADIUS_REL 0.5

/* Default capacity of a workspace: facets of one partial Minkowski boundary dM(S). */
#define DST_PHONG_DEFAULT_MAX_FACETS 65536

/* The Phong projection has converged when |q - (nu . q) nu| <= this times (|q| + h), metres
 * per metre: a few hundred roundings of the area sums and of the Newton update. */
#define DST_PHONG_RESIDUAL_REL 1e-12

/* Gauss-map tests of the convolution (sec. V.E): a neighbour w of a vertex v lies on the inner
 * side of the direction d when d . (w - v) <= this times |w - v| (dimensionless): flat
 * neighbourhoods pass, rounding of a rotated normal (~1e-16) does not flip a real test. */
#define DST_PHONG_GAUSS_TOL 1e-12

/* The averaged normal is singular (Fig 5.2a) when |sum area n| < this times sum area:
 * the ball then holds opposite sides of a part of M thinner than it (docs/math/phong.md sec. 6). */
#define DST_PHONG_SINGULAR_REL 1e-6

/* A convolution facet whose two edge vectors make an angle with sine below this is a sliver
 * (nearly parallel edges of an edge-edge pair): its normal is ill-conditioned and its area
 * negligible, so it is left out of dM(S) (dimensionless). */
#define DST_PHONG_SLIVER_SIN 1e-6

/* Two convolution facets are trimmed against each other (a concave crease of dM) only when
 * their common segment is at least this fraction of the larger one's radius: a corner that
 * grazes a plane, or a small facet crossing a large one, is no crease along which the large
 * one may be cut in two (dimensionless; a heuristic, docs/math/phong.md sec. 3). Measured on the
 * continuity test with three seeds: 0.1 let the direction jump at 0.5 % of the steps of the
 * turning L-block and at some of the translating one; 0.2 to 0.5 give the same 0.02 %. */
#define DST_PHONG_TRIM_REL 0.3

/* The collection of dM(S) takes a second pass for the crossing partners of its facets (trimming,
 * docs/math/phong.md sec. 3) only when its largest facet's radius exceeds this fraction of the
 * collection radius: smaller facets crossed by a facet outside the ball can only be trimmed at
 * the ball's rim. The pass costs 70 % of a query on the HRP-2 hands (dimensionless). */
#define DST_PHONG_PARTNER_REL 0.5

/* Gauss caps: a sum of unit vectors shorter than this has no direction, the cap is the whole
 * sphere (dimensionless). */
#define DST_PHONG_CAP_DEGENERATE 1e-6

/* Two facets whose normals' cosine is within this of 1 are one plane for the crossing and hiding
 * tests (dimensionless; rounding of rotated normals is ~1e-16). */
#define DST_PHONG_COPLANAR_COS 1e-9

/* A Newton walk that cannot lower the residual any more, with the residual within this factor of
 * DST_PHONG_RESIDUAL_REL, has reached rounding: converged (dimensionless). */
#define DST_PHONG_STALL_FACTOR 1e3

/* Facets whose closest points to the start are within this times (|q| + h) of the nearest one
 * are tied; the one of least residual starts the walk (dimensionless). */
#define DST_PHONG_TIE_REL 1e-9

/* Algorithm 5.1 line 21: growth of the search radius when no projection is found in S. */
#define DST_PHONG_GROWTH 2.0

/* Angular slack of the Gauss-map caps of BVH nodes (radians): rounding of the cap centres and
 * of the rotated normals is ~1e-15; a cap never culls a pair this close to meeting. */
#define DST_PHONG_CAP_SLACK 1e-9

/* DstPhongCache (docs/math/phong.md sec. 12): the cache's collection ball exceeds the query's by
 * this fraction of diag(A) + diag(B) (dimensionless). Later queries may grow the ball and move its
 * centre and B (the shift common to B's points) by this much in all before the cache is rebuilt;
 * larger keeps it longer but holds more candidates to re-test. 0.01 and 0.04 were no faster on
 * the bench's coherent steps (phong.md sec. 12). */
#define DST_PHONG_CACHE_SLACK_REL 0.02

/* DstPhongCache: the largest change of B's rotation, ||R - R_cache||_F (dimensionless; sqrt(2)
 * times the angle for small turns), for which the cache's Gauss-map tests and spheres are
 * widened; beyond it the cache is rebuilt. 0.01 and 0.04 were no faster on the bench's coherent
 * steps (phong.md sec. 12). */
#define DST_PHONG_CACHE_TURN 0.02

/* DstPhongCache: margin of the test that a cache's ball holds both models whole (then it serves any
 * ball as large, docs/math/phong.md sec. 14, eq. C5), relative to the reach of the root spheres and
 * to the pose scale (dimensionless); far above the rounding of the tree's centres. */
#define DST_PHONG_CACHE_ALL_REL 1e-6

/* PhongDist's normal field (docs/math/phong.md eq. P1, sec. 14): a segment whose two ends lie inside
 * the averaging disc by this fraction of rho^2 is taken whole, without solving for where its line
 * meets the circle (the roots are then beyond 0 and 1 by far more than their rounding; the area is
 * the same bit for bit) (dimensionless). */
#define DST_PHONG_INSIDE_REL 1e-6

/* PhongDist's collection of dM(S) (docs/math/phong.md sec. 16): a facet whose bounding sphere lies
 * inside the collection ball by this fraction of the ball's radius is within the ball, and its
 * closest point is not computed; far above the rounding of that point (dimensionless). */
#define DST_PHONG_BALL_INSIDE_REL 1e-6

/* Default capacity of a DstPhongCache: candidate feature pairs. */
#define DST_PHONG_DEFAULT_MAX_CANDIDATES 262144

#endif /* DST_TOLERANCE_H */
