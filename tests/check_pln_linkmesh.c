/* check_pln_linkmesh.c — tests of planner/model/pln_linkmesh.c: a box's mesh is the box
 * exactly; the tessellated sphere, cylinder and capsule are closed, outward, convex and
 * ENCLOSE their primitive (every point of a dense sampling of the primitive's surface, rims
 * and poles included, lies inside or on every face plane), so the distance of a point or of
 * a box to the polyhedron never exceeds the primitive's exact distance; the union of parts
 * keeps every part's triangles, one component each; a link without collision has no mesh. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_rng.h"
#include "dst_bvh.h"
#include "dst_mesh_depth.h"
#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"

#define PI_ 3.14159265358979323846
/* a polyhedron vertex lies on or behind every face plane, relative to |n| |v - a| */
#define LM_CONVEX_REL 1e-12
/* the polyhedron's distance may exceed the primitive's only by rounding of the two
 * distance computations, metres (the enclosure margin itself is >= 1e-12 radius) */
#define LM_DIST_TOL 1e-15
/* random query points per primitive */
#define LM_POINTS 4000

/* the part's frame: xyz 0.1 -0.05 0.2, rpy 0.3 -0.4 0.5 (as the URDF tests' shapes) */
static PlnCollisionPart part_at(PlnPartType type)
{
    PlnCollisionPart p;
    const double rpy[3] = {0.3, -0.4, 0.5};
    memset(&p, 0, sizeof p);
    p.type = type;
    pln_kin_rpy_to_matrix(rpy, p.rot);
    p.pos[0] = 0.1, p.pos[1] = -0.05, p.pos[2] = 0.2;
    return p;
}

static void place(const PlnCollisionPart *p, const double x[3], double y[3])
{
    for (int r = 0; r < 3; ++r) {
        y[r] = p->pos[r] + p->rot[3 * r] * x[0] + p->rot[3 * r + 1] * x[1] + p->rot[3 * r + 2] * x[2];
    }
}

static void local(const PlnCollisionPart *p, const double y[3], double x[3])
{
    double w[3] = {y[0] - p->pos[0], y[1] - p->pos[1], y[2] - p->pos[2]};
    for (int c = 0; c < 3; ++c) x[c] = p->rot[c] * w[0] + p->rot[3 + c] * w[1] + p->rot[6 + c] * w[2];
}

/* the exact distance of the world point y to the primitive (negative inside) */
static double exact_distance(const PlnCollisionPart *p, const double y[3])
{
    double x[3], h = 0.5 * p->length;
    local(p, y, x);
    if (p->type == PLN_PART_SPHERE) return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - p->radius;
    if (p->type == PLN_PART_CAPSULE) {
        double z = fmax(-h, fmin(h, x[2]));
        return sqrt(x[0] * x[0] + x[1] * x[1] + (x[2] - z) * (x[2] - z)) - p->radius;
    }
    /* cylinder */
    double dr = sqrt(x[0] * x[0] + x[1] * x[1]) - p->radius, dz = fabs(x[2]) - h;
    if (dr <= 0.0 && dz <= 0.0) return fmax(dr, dz);
    return sqrt(fmax(dr, 0.0) * fmax(dr, 0.0) + fmax(dz, 0.0) * fmax(dz, 0.0));
}

/* face planes of a mesh: normal n (not unit) and a point a per triangle */
typedef struct Planes {
    int n;
    double (*nrm)[3], (*at)[3];
} Planes;

static Planes planes_of(const DstMesh *m)
{
    Planes P = {m->n_triangles, malloc((size_t)m->n_triangles * sizeof *P.nrm),
                malloc((size_t)m->n_triangles * sizeof *P.at)};
    ck_assert(P.nrm != NULL && P.at != NULL);
    for (int t = 0; t < m->n_triangles; ++t) {
        const double *a = m->vertices[m->triangles[t][0]], *b = m->vertices[m->triangles[t][1]],
                     *c = m->vertices[m->triangles[t][2]];
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        P.nrm[t][0] = u[1] * v[2] - u[2] * v[1];
        P.nrm[t][1] = u[2] * v[0] - u[0] * v[2];
        P.nrm[t][2] = u[0] * v[1] - u[1] * v[0];
        memcpy(P.at[t], a, sizeof P.at[t]);
    }
    return P;
}

/* the largest n.(y - a) over the faces: <= 0 when y is inside or on the convex polyhedron */
static double plane_excess(const Planes *P, const double y[3])
{
    double worst = -INFINITY;
    for (int t = 0; t < P->n; ++t) {
        double w[3] = {y[0] - P->at[t][0], y[1] - P->at[t][1], y[2] - P->at[t][2]};
        worst = fmax(worst, P->nrm[t][0] * w[0] + P->nrm[t][1] * w[1] + P->nrm[t][2] * w[2]);
    }
    return worst;
}

/* a primitive point x (its frame) must be inside or on the polyhedron */
static void assert_enclosed(const PlnCollisionPart *p, const Planes *P, const double x[3], const char *what)
{
    double y[3];
    place(p, x, y);
    double e = plane_excess(P, y);
    ck_assert_msg(e <= 0.0, "%s: the primitive point (%.17g, %.17g, %.17g) lies outside a face (%.3g)",
                  what, x[0], x[1], x[2], e);
}

/* a closed, outward (positive volume), convex mesh without degenerate triangles, of one
 * component */
static void assert_closed_convex(const DstMesh *m, const Planes *P, double volume_lo, double volume_hi)
{
    DstMeshReport rep;
    DstBvh b;
    ck_assert_int_eq(dst_mesh_validate(m, &rep), DST_OK);
    ck_assert(rep.closed && rep.oriented);
    ck_assert_int_eq(rep.n_degenerate, 0);
    ck_assert_int_eq(rep.n_unused_vertices, 0);
    ck_assert_msg(rep.volume >= volume_lo && rep.volume <= volume_hi, "volume %.17g not in [%.17g, %.17g]",
                  rep.volume, volume_lo, volume_hi);
    for (int v = 0; v < m->n_vertices; ++v) {
        for (int t = 0; t < P->n; ++t) {
            const double *y = m->vertices[v];
            double w[3] = {y[0] - P->at[t][0], y[1] - P->at[t][1], y[2] - P->at[t][2]};
            double s = P->nrm[t][0] * w[0] + P->nrm[t][1] * w[1] + P->nrm[t][2] * w[2];
            double scale = sqrt(P->nrm[t][0] * P->nrm[t][0] + P->nrm[t][1] * P->nrm[t][1] + P->nrm[t][2] * P->nrm[t][2]) *
                           sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
            ck_assert_msg(s <= LM_CONVEX_REL * scale, "vertex %d in front of face %d", v, t);
        }
    }
    ck_assert_int_eq(dst_bvh_create(m, &b, NULL, 0), DST_OK);
    ck_assert_int_eq(b.n_components, 1);
    ck_assert(b.closed && b.convex);
    dst_bvh_destroy(&b);
}

/* random points about the part: outside the polyhedron, its distance is at most the
 * primitive's exact one */
static void assert_distances_below(const PlnCollisionPart *p, const DstMesh *m, unsigned seed)
{
    DstBvh b;
    Rng rng = {seed};
    double reach = p->radius + 0.5 * p->length + 0.2;
    int outside = 0;
    ck_assert_int_eq(dst_bvh_create(m, &b, NULL, 0), DST_OK);
    for (int i = 0; i < LM_POINTS; ++i) {
        double x[3], y[3];
        for (int k = 0; k < 3; ++k) x[k] = rng_uniform(&rng, -reach, reach);
        place(p, x, y);
        if (dst_bvh_contains(&b, y)) continue;
        ++outside;
        double dp = dst_bvh_point_distance(&b, y, NULL, NULL), de = exact_distance(p, y);
        ck_assert_msg(de > 0.0, "a point outside the polyhedron is inside the primitive (%.3g)", de);
        ck_assert_msg(dp <= de + LM_DIST_TOL, "polyhedron distance %.17g above the primitive's %.17g", dp, de);
    }
    ck_assert_int_gt(outside, LM_POINTS / 4);
    dst_bvh_destroy(&b);
}

START_TEST(test_box_exact)
{
    PlnCollisionPart p = part_at(PLN_PART_BOX);
    DstMesh m;
    char err[256];
    p.size[0] = 0.3, p.size[1] = 0.1, p.size[2] = 0.05;
    ck_assert_int_eq(pln_part_mesh(&p, &m, err, sizeof err), PLN_OK);
    ck_assert_int_eq(m.n_vertices, 8);
    ck_assert_int_eq(m.n_triangles, 12);
    Planes P = planes_of(&m);
    double vol = p.size[0] * p.size[1] * p.size[2];
    assert_closed_convex(&m, &P, vol * (1 - 1e-12), vol * (1 + 1e-12));
    /* the corners are the box's, placed */
    for (int k = 0; k < 8; ++k) {
        double x[3] = {(k & 1 ? 0.5 : -0.5) * p.size[0], (k & 2 ? 0.5 : -0.5) * p.size[1],
                       (k & 4 ? 0.5 : -0.5) * p.size[2]}, y[3];
        place(&p, x, y);
        for (int r = 0; r < 3; ++r) ck_assert(m.vertices[k][r] == y[r]);
    }
    free(P.nrm), free(P.at);
    dst_mesh_destroy(&m);
}
END_TEST

/* dense samples of the sphere (poles and equator included) */
START_TEST(test_sphere_enclosed)
{
    PlnCollisionPart p = part_at(PLN_PART_SPHERE);
    DstMesh m;
    char err[256];
    p.radius = 0.07;
    ck_assert_int_eq(pln_part_mesh(&p, &m, err, sizeof err), PLN_OK);
    Planes P = planes_of(&m);
    double v0 = 4.0 / 3.0 * PI_ * pow(p.radius, 3);
    /* at most the volume of the ball of radius r / d_min (docs/URDF.md LM3: 1.00966 r) */
    assert_closed_convex(&m, &P, v0, v0 * pow(1.0097, 3));
    for (int i = 0; i <= 180; ++i) {
        double t = PI_ * i / 180;
        for (int j = 0; j < 360; ++j) {
            double a = 2 * PI_ * j / 360;
            double x[3] = {p.radius * sin(t) * cos(a), p.radius * sin(t) * sin(a), p.radius * cos(t)};
            assert_enclosed(&p, &P, x, "sphere");
        }
    }
    assert_distances_below(&p, &m, 21);
    free(P.nrm), free(P.at);
    dst_mesh_destroy(&m);
}
END_TEST

/* dense samples of a cylinder's side, its rims and its caps; a long one and a flat disc */
START_TEST(test_cylinder_enclosed)
{
    const double radii[2] = {0.04, 0.2}, lengths[2] = {0.25, 0.02};
    for (int c = 0; c < 2; ++c) {
        PlnCollisionPart p = part_at(PLN_PART_CYLINDER);
        DstMesh m;
        char err[256];
        p.radius = radii[c];
        p.length = lengths[c];
        double h = 0.5 * p.length;
        ck_assert_int_eq(pln_part_mesh(&p, &m, err, sizeof err), PLN_OK);
        Planes P = planes_of(&m);
        double v0 = PI_ * p.radius * p.radius * p.length;
        /* the 32-gon prism: area n r^2 tan(pi / n) (LM1) */
        assert_closed_convex(&m, &P, v0, 32 * tan(PI_ / 32) * p.radius * p.radius * p.length * (1 + 1e-9));
        for (int j = 0; j < 3600; ++j) {
            double a = 2 * PI_ * j / 3600;
            for (int k = 0; k <= 40; ++k) {
                /* the side, from rim (k = 0) to rim (k = 40) */
                double x[3] = {p.radius * cos(a), p.radius * sin(a), (-1.0 + k / 20.0) * h};
                assert_enclosed(&p, &P, x, "cylinder side");
            }
            for (int k = 0; k <= 10; ++k) {
                for (int e = -1; e <= 1; e += 2) {
                    double x[3] = {p.radius * k / 10.0 * cos(a), p.radius * k / 10.0 * sin(a), e * h};
                    assert_enclosed(&p, &P, x, "cylinder cap");
                }
            }
        }
        assert_distances_below(&p, &m, 31 + (unsigned)c);
        free(P.nrm), free(P.at);
        dst_mesh_destroy(&m);
    }
}
END_TEST

/* dense samples of a capsule's side, its two hemispheres and the circles where they meet;
 * a long one and a short one */
START_TEST(test_capsule_enclosed)
{
    const double radii[2] = {0.03, 0.1}, lengths[2] = {0.2, 0.01};
    for (int c = 0; c < 2; ++c) {
        PlnCollisionPart p = part_at(PLN_PART_CAPSULE);
        DstMesh m;
        char err[256];
        p.radius = radii[c];
        p.length = lengths[c];
        double h = 0.5 * p.length, r = p.radius;
        ck_assert_int_eq(pln_part_mesh(&p, &m, err, sizeof err), PLN_OK);
        Planes P = planes_of(&m);
        double v0 = PI_ * r * r * p.length + 4.0 / 3.0 * PI_ * r * r * r, f = 1.0097;
        assert_closed_convex(&m, &P, v0, PI_ * f * f * r * r * p.length + 4.0 / 3.0 * PI_ * pow(f * r, 3));
        for (int j = 0; j < 720; ++j) {
            double a = 2 * PI_ * j / 720;
            for (int k = 0; k <= 40; ++k) {
                double x[3] = {r * cos(a), r * sin(a), (-1.0 + k / 20.0) * h};
                assert_enclosed(&p, &P, x, "capsule side");
            }
            for (int i = 0; i <= 90; ++i) {
                double t = 0.5 * PI_ * i / 90;
                for (int e = -1; e <= 1; e += 2) {
                    double x[3] = {r * sin(t) * cos(a), r * sin(t) * sin(a), e * (h + r * cos(t))};
                    assert_enclosed(&p, &P, x, "capsule cap");
                }
            }
        }
        assert_distances_below(&p, &m, 41 + (unsigned)c);
        free(P.nrm), free(P.at);
        dst_mesh_destroy(&m);
    }
}
END_TEST

/* the tessellated sphere's distance to a box never exceeds the sphere's exact distance to it
 * (dist(centre, box) - r), at random placements of the box */
START_TEST(test_sphere_box_distance_below)
{
    PlnCollisionPart p = part_at(PLN_PART_SPHERE), q;
    DstMesh ms, mb;
    DstBvh bs, bb;
    char err[256];
    Rng rng = {7};
    const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, z[3] = {0, 0, 0};
    p.radius = 0.07;
    memset(&q, 0, sizeof q);
    q.type = PLN_PART_BOX;
    memcpy(q.rot, I, sizeof I);
    q.size[0] = 0.1, q.size[1] = 0.2, q.size[2] = 0.05;
    ck_assert_int_eq(pln_part_mesh(&p, &ms, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_part_mesh(&q, &mb, err, sizeof err), PLN_OK);
    ck_assert_int_eq(dst_bvh_create(&ms, &bs, NULL, 0), DST_OK);
    ck_assert_int_eq(dst_bvh_create(&mb, &bb, NULL, 0), DST_OK);
    for (int i = 0; i < 300; ++i) {
        double x[3], w[3], d2 = 0.0;
        DstMeshDistance md;
        for (int k = 0; k < 3; ++k) x[k] = rng_uniform(&rng, -0.4, 0.4);
        /* the box at x (axis-aligned): the sphere centre's distance to it */
        for (int k = 0; k < 3; ++k) {
            w[k] = fmax(0.0, fabs(p.pos[k] - x[k]) - 0.5 * q.size[k]);
            d2 += w[k] * w[k];
        }
        double exact = sqrt(d2) - p.radius;
        if (exact <= 0.0) continue;
        dst_bvh_distance(&bs, I, z, &bb, I, x, NULL, &md);
        ck_assert_msg(md.distance <= exact + LM_DIST_TOL, "polyhedron %.17g above the sphere's %.17g",
                      md.distance, exact);
        ck_assert(md.distance >= exact - 0.0097 * p.radius - LM_DIST_TOL);
    }
    dst_bvh_destroy(&bs);
    dst_bvh_destroy(&bb);
    dst_mesh_destroy(&ms);
    dst_mesh_destroy(&mb);
}
END_TEST

/* the union keeps every part's vertices and triangles in order, one component per part */
START_TEST(test_union_of_parts)
{
    PlnCollisionPart parts[4] = {part_at(PLN_PART_BOX), part_at(PLN_PART_SPHERE), part_at(PLN_PART_CYLINDER),
                                 part_at(PLN_PART_CAPSULE)};
    DstMesh u, one;
    DstBvh b;
    char err[256];
    int v = 0, t = 0;
    parts[0].size[0] = parts[0].size[1] = parts[0].size[2] = 0.1;
    parts[1].radius = 0.05, parts[1].pos[2] += 0.05;  /* overlaps the box */
    parts[2].radius = 0.02, parts[2].length = 0.3;    /* through both */
    parts[3].radius = 0.01, parts[3].length = 0.1, parts[3].pos[0] += 1.0;  /* apart */
    ck_assert_int_eq(pln_parts_mesh(parts, 4, &u, err, sizeof err), PLN_OK);
    for (int k = 0; k < 4; ++k) {
        ck_assert_int_eq(pln_part_mesh(&parts[k], &one, err, sizeof err), PLN_OK);
        for (int i = 0; i < one.n_vertices; ++i) {
            for (int r = 0; r < 3; ++r) ck_assert(u.vertices[v + i][r] == one.vertices[i][r]);
        }
        for (int i = 0; i < one.n_triangles; ++i) {
            for (int r = 0; r < 3; ++r) ck_assert_int_eq(u.triangles[t + i][r], one.triangles[i][r] + v);
        }
        v += one.n_vertices;
        t += one.n_triangles;
        dst_mesh_destroy(&one);
    }
    ck_assert_int_eq(u.n_vertices, v);
    ck_assert_int_eq(u.n_triangles, t);
    ck_assert_int_eq(dst_bvh_create(&u, &b, NULL, 0), DST_OK);
    ck_assert_int_eq(b.n_components, 4);
    ck_assert(b.closed && !b.convex);
    /* the sphere's centre lies inside the box, the sphere and the cylinder: inside */
    ck_assert_int_eq(dst_bvh_contains(&b, parts[1].pos), 1);
    dst_bvh_destroy(&b);
    dst_mesh_destroy(&u);
}
END_TEST

/* a link without a mesh file or parts has no mesh, and says so */
START_TEST(test_no_mesh)
{
    PlnRobot r;
    PlnLink link;
    DstMesh m;
    char err[256];
    memset(&r, 0, sizeof r);
    memset(&link, 0, sizeof link);
    snprintf(link.name, sizeof link.name, "bare");
    r.links = &link;
    r.n_links = 1;
    ck_assert(!pln_link_has_mesh(&link.geometry));
    ck_assert_int_eq(pln_link_mesh_read(&r, 0, &m, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_nonnull(strstr(err, "link 'bare' has no collision mesh"));
    ck_assert_int_eq(m.n_triangles, 0);
}
END_TEST

Suite *pln_linkmesh_suite(void)
{
    Suite *s = suite_create("pln_linkmesh");
    TCase *tc = tcase_create("primitives");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_box_exact);
    tcase_add_test(tc, test_sphere_enclosed);
    tcase_add_test(tc, test_cylinder_enclosed);
    tcase_add_test(tc, test_capsule_enclosed);
    tcase_add_test(tc, test_sphere_box_distance_below);
    suite_add_tcase(s, tc);
    tc = tcase_create("union");
    tcase_add_test(tc, test_union_of_parts);
    tcase_add_test(tc, test_no_mesh);
    suite_add_tcase(s, tc);
    return s;
}
