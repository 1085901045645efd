/* pln_robot_print.c — `hrpplan robot FILE`: the loaded model as text (joints with limits,
 * links with masses and geometry, triangle counts, totals), with a check that each
 * capsule and ellipsoid encloses every vertex of its link's mesh, and a "mesh warning"
 * line for each mesh with open, non-manifold or inconsistent edges, degenerate triangles
 * or skipped points and lines (pln_mesh_info_warnings). */
#include <math.h>
#include <string.h>

#include "dst_mesh.h"
#include "model/pln_capfit.h"
#include "model/pln_linkmesh.h"
#include "model/pln_robot.h"

/* Largest value over the mesh vertices of the capsule distance minus radius (metres;
 * <= 0: the capsule encloses the mesh) and of |R^T (x - c) / radii|^2 (<= 1: the ellipsoid
 * encloses it); -inf for a geometry the link does not have. *info: what the reader found. */
static PlnStatus mesh_excess(const PlnRobot *robot, int l, double *capsule, double *ellipsoid,
                             PlnMeshInfo *info, char *err, size_t err_size)
{
    const PlnLinkGeometry *g = &robot->links[l].geometry;
    DstMesh m;
    char derr[512];
    PlnStatus st;
    if (g->mesh_path[0] != '\0') {
        /* a mesh file: what its reader found, and its vertices scaled as every consumer
         * sees them (pln_link_mesh_read) */
        st = pln_mesh_read_info(g->mesh_path, &m, info, derr, sizeof derr);
        if (st == PLN_OK && g->has_mesh_scale) {
            for (int v = 0; v < m.n_vertices; ++v) {
                for (int d = 0; d < 3; ++d) m.vertices[v][d] *= g->mesh_scale[d];
            }
        }
    } else {
        /* collision parts: their union, checked as a whole */
        memset(info, 0, sizeof *info);
        st = pln_link_mesh_read(robot, l, &m, derr, sizeof derr);
        if (st == PLN_OK && dst_mesh_validate(&m, &info->report) != DST_OK) {
            dst_mesh_destroy(&m);
            return pln_errorf(PLN_ERR_NOMEM, err, err_size, "link '%s': mesh check failed",
                              robot->links[l].name);
        }
    }
    if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s", derr);
    *capsule = *ellipsoid = -INFINITY;
    for (int i = 0; i < m.n_vertices; ++i) {
        double x[3];
        pln_link_file_point(g, m.vertices[i], x);
        if (g->has_capsule) {
            double e = pln_capfit_segment_distance(x, g->capsule_p0, g->capsule_p1) - g->capsule_radius;
            *capsule = fmax(*capsule, e);
        }
        if (g->has_ellipsoid) {
            const double *R = g->ellipsoid_rot, *c = g->ellipsoid_center;
            double d[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]}, v = 0.0;
            for (int k = 0; k < 3; ++k) {
                double y = (R[k] * d[0] + R[3 + k] * d[1] + R[6 + k] * d[2]) /
                           g->ellipsoid_radii[k];
                v += y * y;
            }
            *ellipsoid = fmax(*ellipsoid, v);
        }
    }
    dst_mesh_destroy(&m);
    if (g->has_capsule && g->mesh_path[0] == '\0') {
        /* collision parts: the capsule is checked against the shapes themselves, a sphere or
         * capsule exactly (the distance to the segment is convex along the shape's own
         * segment: largest at its ends), not against their enclosing tessellation, which
         * stands out of a sphere's exact capsule by design */
        *capsule = -INFINITY;
        for (int k = 0; k < g->n_parts; ++k) {
            const PlnCollisionPart *pt = &robot->parts[g->part_first + k];
            if (pt->type == PLN_PART_SPHERE || pt->type == PLN_PART_CAPSULE) {
                double h = pt->type == PLN_PART_CAPSULE ? 0.5 * pt->length : 0.0;
                for (int e = -1; e <= 1; e += 2) {
                    double c[3], x[3];
                    for (int r = 0; r < 3; ++r) c[r] = pt->pos[r] + e * h * pt->rot[3 * r + 2];
                    pln_link_file_point(g, c, x);
                    double d = pln_capfit_segment_distance(x, g->capsule_p0, g->capsule_p1) + pt->radius -
                               g->capsule_radius;
                    *capsule = fmax(*capsule, d);
                }
                continue;
            }
            /* a mesh's or a box's vertices; a cylinder's circumscribed prism (what the fit
             * certified, eq. CF5) */
            DstMesh pm;
            st = pln_part_mesh(pt, &pm, derr, sizeof derr);
            if (st != PLN_OK) return pln_errorf(st, err, err_size, "%s", derr);
            for (int i = 0; i < pm.n_vertices; ++i) {
                double x[3];
                pln_link_file_point(g, pm.vertices[i], x);
                *capsule = fmax(*capsule, pln_capfit_segment_distance(x, g->capsule_p0, g->capsule_p1) -
                                              g->capsule_radius);
            }
            dst_mesh_destroy(&pm);
        }
    }
    return PLN_OK;
}

/* the last path component, for compact tables. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

PlnStatus pln_robot_print(const PlnRobot *robot, const char *source, FILE *out, char *err,
                          size_t err_size)
{
    long triangles = 0;
    int meshes = 0, not_enclosed = 0, ell_not_enclosed = 0, flawed = 0;

    fprintf(out, "robot %s%s%s%s\n", robot->name, source ? " (" : "", source ? source : "",
            source ? ")" : "");
    fprintf(out, "  %d joints, %d links, control period %g s, base at [%g, %g, %g] m\n",
            robot->n_joints, robot->n_links, robot->control_period, robot->base_pos[0],
            robot->base_pos[1], robot->base_pos[2]);

    fprintf(out, "\nlink tree (joint in brackets):\n");
    for (int k = 0; k < robot->n_links; ++k) {
        int depth = 0;
        for (int a = robot->links[k].parent; a >= 0; a = robot->links[a].parent) ++depth;
        fprintf(out, "  %*s%s", 2 * depth, "", robot->links[k].name);
        if (robot->links[k].parent >= 0) {
            fprintf(out, " [%s]", robot->links[k].joint >= 0 ? robot->joints[robot->links[k].joint].name : "fixed");
        }
        fputc('\n', out);
    }

    fprintf(out, "\njoints (revolute: rad, rad/s, N m; prismatic: m, m/s, N):\n");
    fprintf(out, "  %3s  %-16s %-9s %-16s %-18s %9s %9s %8s %9s %8s\n", "#", "name", "type",
            "moves link", "axis", "lower", "upper", "vel max", "initial", "effort");
    for (int j = 0; j < robot->n_joints; ++j) {
        const PlnJoint *jt = &robot->joints[j];
        char axis[48];
        snprintf(axis, sizeof axis, "[%.3g, %.3g, %.3g]", jt->axis[0] + 0.0, jt->axis[1] + 0.0,
                 jt->axis[2] + 0.0);
        char effort[32];
        if (jt->effort_max > 0.0) snprintf(effort, sizeof effort, "%8.1f", jt->effort_max);
        else snprintf(effort, sizeof effort, "%8s", "-");
        fprintf(out, "  %3d  %-16s %-9s %-16s %-18s %9.4f %9.4f %8.3f %9.4f %s\n", j, jt->name,
                pln_joint_type_name(jt->type), robot->links[jt->link].name, axis, jt->lower, jt->upper, jt->velocity_max,
                jt->initial, effort);
    }
    if (!robot->has_effort) fprintf(out, "  (no effort limits: torque constraints unavailable)\n");

    fprintf(out, "\nlinks (mass kg; com and capsule in the link frame, m; \"fit\": the capsule was "
                 "fitted to the link's shapes at load time):\n");
    fprintf(out, "  %3s  %-16s %-16s %-16s %8s  %-26s %-46s %-22s %9s %s\n", "#", "name",
            "parent", "joint", "mass", "com", "capsule p0 -> p1, radius", "mesh", "triangles",
            "capsule encloses mesh");
    for (int k = 0; k < robot->n_links; ++k) {
        const PlnLink *l = &robot->links[k];
        const PlnLinkGeometry *g = &l->geometry;
        char com[64], cap[96] = "-", enc[48] = "-", ell_enc[48] = "-", warn[400] = "";
        snprintf(com, sizeof com, "[%.4f, %.4f, %.4f]", l->com[0] + 0.0, l->com[1] + 0.0,
                 l->com[2] + 0.0);
        if (g->has_capsule) {
            snprintf(cap, sizeof cap, "[%.3f, %.3f, %.3f] -> [%.3f, %.3f, %.3f], %.4f%s",
                     g->capsule_p0[0] + 0.0, g->capsule_p0[1] + 0.0, g->capsule_p0[2] + 0.0,
                     g->capsule_p1[0] + 0.0, g->capsule_p1[1] + 0.0, g->capsule_p1[2] + 0.0,
                     g->capsule_radius, g->capsule_fitted ? " fit" : "");
        }
        if (pln_link_has_mesh(g)) {
            triangles += g->mesh_triangles;
            ++meshes;
            {
                double excess = 0.0, ell = 0.0;
                PlnMeshInfo info;
                PlnStatus st = mesh_excess(robot, k, &excess, &ell, &info, err, err_size);
                if (st != PLN_OK) return st;
                if (pln_mesh_info_warnings(&info, warn, sizeof warn) > 0) ++flawed;
                if (!g->has_capsule) {
                    /* nothing to say */
                } else if (excess <= 0.0) {
                    snprintf(enc, sizeof enc, "yes");
                } else {
                    snprintf(enc, sizeof enc, "NO (by %.3g mm)", 1e3 * excess);
                    ++not_enclosed;
                }
                if (!g->has_ellipsoid) {
                    /* nothing to say */
                } else if (ell <= 1.0) {
                    snprintf(ell_enc, sizeof ell_enc, "encloses mesh: yes");
                } else {
                    /* sqrt(ell) - 1: the scale the ellipsoid lacks */
                    snprintf(ell_enc, sizeof ell_enc, "encloses mesh: NO (short by %.3g%%)",
                             100.0 * (sqrt(ell) - 1.0));
                    ++ell_not_enclosed;
                }
            }
        }
        char mesh_name[600] = "-";
        if (g->mesh_path[0] != '\0') snprintf(mesh_name, sizeof mesh_name, "%s", base_name(g->mesh_path));
        else if (g->n_parts > 0) snprintf(mesh_name, sizeof mesh_name, "%d element%s", g->n_parts, g->n_parts > 1 ? "s" : "");
        fprintf(out, "  %3d  %-16s %-16s %-16s %8.3f  %-26s %-46s %-22s %9d %s\n", k, l->name,
                l->parent >= 0 ? robot->links[l->parent].name : "(root)",
                l->joint >= 0 ? robot->joints[l->joint].name : "(fixed)", l->mass, com, cap,
                mesh_name, g->mesh_triangles, enc);
        if (g->has_ellipsoid) {
            const double *R = g->ellipsoid_rot;
            /* rpy back from R = Rz(yaw) Ry(pitch) Rx(roll) */
            double rpy[3] = {atan2(R[7], R[8]), asin(fmax(-1.0, fmin(1.0, -R[6]))),
                             atan2(R[3], R[0])};
            fprintf(out, "       ellipsoid: centre [%.4f, %.4f, %.4f], rpy [%.4f, %.4f, %.4f], "
                    "radii [%.4f, %.4f, %.4f], volume %.3g m^3; %s\n",
                    g->ellipsoid_center[0] + 0.0, g->ellipsoid_center[1] + 0.0,
                    g->ellipsoid_center[2] + 0.0, rpy[0] + 0.0, rpy[1] + 0.0, rpy[2] + 0.0,
                    g->ellipsoid_radii[0], g->ellipsoid_radii[1], g->ellipsoid_radii[2],
                    4.0 / 3.0 * acos(-1.0) * g->ellipsoid_radii[0] * g->ellipsoid_radii[1] *
                        g->ellipsoid_radii[2], ell_enc);
        }
        if (g->convex_path[0] != '\0') {
            fprintf(out, "       convex hull: %s\n", g->convex_path);
        }
        if (warn[0] != '\0') fprintf(out, "       mesh warning: %s: %s\n", g->mesh_path[0] ? g->mesh_path : mesh_name, warn);
    }
    fprintf(out, "\nsoles (in the link frame, m):");
    if (robot->n_soles == 0) fprintf(out, " none (dynamic balance unavailable)");
    fprintf(out, "\n");
    for (int s = 0; s < robot->n_soles; ++s) {
        const PlnSole *so = &robot->soles[s];
        fprintf(out, "  %-16s %g x %g centred at [%g, %g, %g]\n", robot->links[so->link].name,
                so->size[0], so->size[1], so->offset[0] + 0.0, so->offset[1] + 0.0,
                so->offset[2] + 0.0);
    }
    fprintf(out, "\ntotal mass %.3f kg; %ld mesh triangles in %d meshes", robot->total_mass,
            triangles, meshes);
    if (not_enclosed > 0) fprintf(out, "; %d capsule(s) do not enclose their mesh", not_enclosed);
    if (ell_not_enclosed > 0) {
        fprintf(out, "; %d ellipsoid(s) do not enclose their mesh", ell_not_enclosed);
    }
    if (flawed > 0) fprintf(out, "; %d mesh(es) with warnings (lines 'mesh warning')", flawed);
    fprintf(out, "\n");
    return PLN_OK;
}
