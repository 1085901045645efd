/* smoke.c — a program of another project using the installed libhrpdistance: built by
 * tools/install/check-install.sh against an installed copy through pkg-config only (once
 * linked to the shared library, once statically), it checks known answers and prints them;
 * the script compares the output too. Exit 0 when every answer is right. */
#include <hrpplan/dst_bvh.h>
#include <hrpplan/dst_capsule.h>
#include <hrpplan/dst_convex.h>
#include <hrpplan/dst_mesh.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* known answers are exact up to rounding: 1e-9 m is far above it */
#define SMOKE_TOL 1e-9

static int failures;

static void expect(const char *what, double got, double want)
{
    int ok = fabs(got - want) <= SMOKE_TOL;
    printf("%s: %.6f (%s)\n", what, got, ok ? "ok" : "WRONG");
    if (!ok)
        failures++;
}

static void expect_status(const char *what, DstStatus got, DstStatus want)
{
    printf("%s: %s\n", what, dst_status_string(got));
    if (got != want)
        failures++;
}

/* the closed, outward-oriented box mesh |x_i| <= h: 8 corners (bit i of the index is the
 * sign of coordinate i), 12 counter-clockwise triangles */
static DstStatus box_mesh(double h, DstMesh *mesh)
{
    double v[8 * 3];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            v[3 * i + k] = (i >> k & 1) ? h : -h;
    static const int t[12 * 3] = {0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                  2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};
    char err[256];
    DstStatus st = dst_mesh_create(v, 8, t, 12, mesh, err, sizeof err);
    if (st != DST_OK)
        fprintf(stderr, "smoke: dst_mesh_create: %s\n", err);
    return st;
}

int main(void)
{
    printf("version: %s\n", dst_version());
    if (strcmp(dst_version(), DST_VERSION_STRING) != 0)
        failures++;

    /* two parallel capsules 1 m apart, radii 0.1 and 0.2: signed distance 0.7 */
    DstCapsule a = {{0, 0, 0}, {1, 0, 0}, 0.1};
    DstCapsule b = {{0, 1, 0}, {1, 1, 0}, 0.2};
    DstCapsuleDistance cd;
    expect_status("capsule status", dst_capsule_distance(&a, &b, &cd), DST_SEPARATED);
    expect("capsule distance", cd.distance, 0.7);
    expect("capsule normal y", cd.n[1], -1.0);

    /* a capsule sweeping x from -1 to 1 at y = 0.5 past a static one along z at the origin
     * (radii 0.1 each): the MCD over the motion is 0.5 - 0.2 = 0.3, at t = 0.5 s */
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double x0[3] = {-1, 0.5, 0}, x1[3] = {1, 0.5, 0}, o[3] = {0, 0, 0};
    const double pa[3] = {0, 0, -0.2}, pb[3] = {0, 0, 0.2};
    DstMovingCapsule ma, mb;
    if (dst_moving_capsule_from_poses(pa, pb, 0.1, I, x0, I, x1, 3, &ma) != DST_OK ||
        dst_moving_capsule_from_poses(pa, pb, 0.1, I, o, I, o, 3, &mb) != DST_OK) {
        fprintf(stderr, "smoke: dst_moving_capsule_from_poses failed\n");
        return 1;
    }
    DstMcdOptions opt = dst_mcd_options_default();
    DstMcdResult mcd;
    expect_status("capsule mcd status", dst_capsule_mcd(DST_MCD_HYBRID, &ma, &mb, 0.0, 1.0, &opt, &mcd),
                  DST_CERTIFIED);
    printf("capsule mcd bracket: %s\n",
           mcd.lower <= 0.3 && 0.3 <= mcd.upper && mcd.upper - mcd.lower <= opt.eps ? "ok" : "WRONG");
    if (!(mcd.lower <= 0.3 && 0.3 <= mcd.upper && mcd.upper - mcd.lower <= opt.eps))
        failures++;

    /* GJK: a unit box against a sphere of radius 0.25 centred 1.5 m away: 0.75 */
    DstConvex box = dst_convex_box(0.5, 0.5, 0.5), ball = dst_convex_sphere(0.25);
    const double at[3] = {1.5, 0, 0};
    dst_convex_set_pose(&ball, NULL, at);
    DstConvexDistance gd;
    expect_status("convex status", dst_convex_distance(&box, &ball, NULL, NULL, NULL, &gd, NULL, 0),
                  DST_SEPARATED);
    expect("convex distance", gd.distance, 0.75);

    /* meshes: two unit boxes, 2 m apart (separation 1) and 0.8 m apart (depth 0.2) */
    DstMesh cube;
    if (box_mesh(0.5, &cube) != DST_OK)
        return 1;
    DstMeshReport rep;
    if (dst_mesh_validate(&cube, &rep) != DST_OK || !rep.oriented)
        failures++;
    expect("cube volume", rep.volume, 1.0);
    DstBvh bvh;
    char err[256];
    if (dst_bvh_create(&cube, &bvh, err, sizeof err) != DST_OK) {
        fprintf(stderr, "smoke: dst_bvh_create: %s\n", err);
        return 1;
    }
    dst_mesh_destroy(&cube);
    const double far[3] = {2, 0, 0}, near[3] = {0.8, 0, 0};
    DstMeshDistance md;
    expect_status("mesh status far", dst_bvh_distance(&bvh, I, o, &bvh, I, far, NULL, &md), DST_SEPARATED);
    expect("mesh distance far", md.distance, 1.0);
    expect_status("mesh status near", dst_bvh_distance(&bvh, I, o, &bvh, I, near, NULL, &md),
                  DST_PENETRATING);
    expect("mesh distance near", md.distance, -0.2);
    dst_bvh_destroy(&bvh);

    printf("%s\n", failures ? "smoke: FAILED" : "smoke: all answers right");
    return failures ? 1 : 0;
}
