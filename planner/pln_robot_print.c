/* pln_robot_print.c — `hrpplan robot FILE`: the loaded model as text (joints with limits,
 * links with masses and geometry, triangle counts, totals). */
#include <math.h>
#include <string.h>

#include "dst_mesh.h"
#include "pln_robot.h"

/* distance from x to the segment [p0, p1], metres. */
static double segment_distance(const double x[3], const double p0[3], const double p1[3])
{
    double d[3], w[3], dd = 0.0, t = 0.0, r = 0.0;
    for (int c = 0; c < 3; ++c) {
        d[c] = p1[c] - p0[c];
        w[c] = x[c] - p0[c];
        dd += d[c] * d[c];
        t += w[c] * d[c];
    }
    t = dd > 0.0 ? fmin(1.0, fmax(0.0, t / dd)) : 0.0;
    for (int c = 0; c < 3; ++c) {
        double e = w[c] - t * d[c];
        r += e * e;
    }
    return sqrt(r);
}

/* How far the mesh sticks out of the capsule (<= 0: enclosed), metres. */
static PlnStatus capsule_excess(const PlnLinkGeometry *g, double *excess, char *err,
                                size_t err_size)
{
    DstMesh m;
    char derr[512];
    if (dst_mesh_create_from_file(g->mesh_path, &m, derr, sizeof derr) != DST_OK) {
        return pln_errorf(PLN_ERR_IO, err, err_size, "%s", derr);
    }
    *excess = -INFINITY;
    for (int i = 0; i < m.n_vertices; ++i) {
        double e = segment_distance(m.vertices[i], g->capsule_p0, g->capsule_p1) -
                   g->capsule_radius;
        *excess = fmax(*excess, e);
    }
    dst_mesh_destroy(&m);
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
    int meshes = 0, not_enclosed = 0;

    fprintf(out, "robot %s%s%s%s\n", robot->name, source ? " (" : "", source ? source : "",
            source ? ")" : "");
    fprintf(out, "  %d joints, %d links, control period %g s, base at [%g, %g, %g] m\n",
            robot->n_joints, robot->n_links, robot->control_period, robot->base_pos[0],
            robot->base_pos[1], robot->base_pos[2]);

    fprintf(out, "\njoints (angles rad, velocity rad/s):\n");
    fprintf(out, "  %3s  %-16s %-16s %-18s %9s %9s %8s %9s\n", "#", "name", "moves link",
            "axis", "lower", "upper", "vel max", "initial");
    for (int j = 0; j < robot->n_joints; ++j) {
        const PlnJoint *jt = &robot->joints[j];
        char axis[48];
        snprintf(axis, sizeof axis, "[%.3g, %.3g, %.3g]", jt->axis[0] + 0.0, jt->axis[1] + 0.0,
                 jt->axis[2] + 0.0);
        fprintf(out, "  %3d  %-16s %-16s %-18s %9.4f %9.4f %8.3f %9.4f\n", j, jt->name,
                robot->links[jt->link].name, axis, jt->lower, jt->upper, jt->velocity_max,
                jt->initial);
    }

    fprintf(out, "\nlinks (mass kg; com and capsule in the link frame, m):\n");
    fprintf(out, "  %3s  %-16s %-16s %-16s %8s  %-26s %-46s %-22s %9s %s\n", "#", "name",
            "parent", "joint", "mass", "com", "capsule p0 -> p1, radius", "mesh", "triangles",
            "capsule encloses mesh");
    for (int k = 0; k < robot->n_links; ++k) {
        const PlnLink *l = &robot->links[k];
        const PlnLinkGeometry *g = &l->geometry;
        char com[64], cap[96] = "-", enc[48] = "-";
        snprintf(com, sizeof com, "[%.4f, %.4f, %.4f]", l->com[0] + 0.0, l->com[1] + 0.0,
                 l->com[2] + 0.0);
        if (g->has_capsule) {
            snprintf(cap, sizeof cap, "[%.3f, %.3f, %.3f] -> [%.3f, %.3f, %.3f], %.4f",
                     g->capsule_p0[0] + 0.0, g->capsule_p0[1] + 0.0, g->capsule_p0[2] + 0.0,
                     g->capsule_p1[0] + 0.0, g->capsule_p1[1] + 0.0, g->capsule_p1[2] + 0.0,
                     g->capsule_radius);
        }
        if (g->mesh_path[0] != '\0') {
            triangles += g->mesh_triangles;
            ++meshes;
            if (g->has_capsule) {
                double excess = 0.0;
                PlnStatus st = capsule_excess(g, &excess, err, err_size);
                if (st != PLN_OK) return st;
                if (excess <= 0.0) {
                    snprintf(enc, sizeof enc, "yes");
                } else {
                    snprintf(enc, sizeof enc, "NO (by %.3g mm)", 1e3 * excess);
                    ++not_enclosed;
                }
            }
        }
        fprintf(out, "  %3d  %-16s %-16s %-16s %8.3f  %-26s %-46s %-22s %9d %s\n", k, l->name,
                l->parent >= 0 ? robot->links[l->parent].name : "(root)",
                l->joint >= 0 ? robot->joints[l->joint].name : "(fixed)", l->mass, com, cap,
                g->mesh_path[0] ? base_name(g->mesh_path) : "-", g->mesh_triangles, enc);
        if (g->convex_path[0] != '\0') {
            fprintf(out, "       convex hull: %s\n", g->convex_path);
        }
    }
    fprintf(out, "\ntotal mass %.3f kg; %ld mesh triangles in %d meshes", robot->total_mass,
            triangles, meshes);
    if (not_enclosed > 0) fprintf(out, "; %d capsule(s) do not enclose their mesh", not_enclosed);
    fprintf(out, "\n");
    return PLN_OK;
}

int pln_robot_command(const char *path, FILE *out, FILE *errs)
{
    PlnRobot robot;
    char err[1024];
    PlnStatus st = pln_robot_load(path, &robot, err, sizeof err);
    if (st == PLN_OK) st = pln_robot_print(&robot, path, out, err, sizeof err);
    pln_robot_destroy(&robot);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan robot: %s\n", err);
        return pln_status_exit_code(st);
    }
    return PLN_EXIT_OK;
}
