/* dst_phong_internal.h — access to the normal field of PhongDist (docs/math/phong.md eq.
 * P1-P3) for the tests of its closed-form partial derivatives (eq. P5a-P5f). Not part of the
 * public API. Each call reads the partial Minkowski boundary dM(S) that the last
 * query (dst_phong_distance) with the same models, pose (R, t), options and workspace left in ws. */
#ifndef DST_PHONG_INTERNAL_H
#define DST_PHONG_INTERNAL_H

#include "dst_phong.h"

/* facets of dM(S) in the workspace */
int dst_phong_probe_facets(const DstPhongWorkspace *ws);

/* facet F of dM(S) at the query's pose: q(s, u) = c0 + s e1 + u e2 (s, u >= 0, s + u <= 1 lies
 * on every facet). Returns 0 when F is not a facet (or a sliver left out). */
int dst_phong_probe_facet(const DstPhongWorkspace *ws, int F, double c0[3], double e1[3], double e2[3]);

/* The point x = q(s, u) of facet F, G there (eq. P2, in F's basis at the query's pose), delta
 * and nu (eq. P3, P1), with B at the pose (Rp, tp): the facets of dM(S) re-posed and re-trimmed by
 * the same partners, not collected again. Returns 0 when F is not a facet or the field is
 * singular there. */
int dst_phong_probe_value(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                          const DstPhongOptions *opt, DstPhongWorkspace *ws, int F, double s, double u,
                          const double Rp[9], const double tp[3], double x[3], double G[2], double *delta,
                          double nu[3]);

/* The closed-form partials at the query's pose (eq. P5a-P5f): dG[j], ddelta[j] along j = 0, 1:
 * s, u; 2..4: the translation t of B (metres); 5..7: a rotation w of B about its origin, axis in
 * A's frame, R -> exp([w]x) R (radians). Returns 0 where dst_phong_probe_value() does. */
int dst_phong_probe_partials(const DstPhongModel *a, const DstPhongModel *b, const double R[9], const double t[3],
                             const DstPhongOptions *opt, DstPhongWorkspace *ws, int F, double s, double u,
                             double dG[8][2], double ddelta[8]);

#endif
