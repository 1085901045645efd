/* pln_pairs.c — the default pair set from the model (pln_pairs.h). */
#include "problem/pln_pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/pln_kin.h"
#include "model/pln_linkmesh.h"
#include "problem/pln_geom.h"

/* 1 when joint j is one of the scenario's moving joints */
static int is_moving(const PlnScenario *sc, int j)
{
    for (int k = 0; k < sc->n_active; ++k) {
        if (sc->active[k].index == j) return 1;
    }
    return 0;
}

/* the moving (revolute or prismatic) joints on the path between links a and b (b = -1: a and the base), into
 * path[] (at most n_joints); returns their count */
static int joints_between(const PlnRobot *robot, int a, int b, int *path)
{
    int n = 0, x = a, y = b;
    /* walk the deeper-indexed link up until both meet (parents have smaller indices) */
    while (x != y) {
        int *from = x > y ? &x : &y;
        int j = robot->links[*from].joint; /* *from >= 0: the larger of two different */
        if (j >= 0 && robot->joints[j].type != PLN_JOINT_FIXED) path[n++] = j;
        *from = robot->links[*from].parent;
    }
    return n;
}

static const char *missing_kind(PlnGeometryKind kind, const PlnLinkGeometry *g)
{
    switch (kind) {
    case PLN_GEOMETRY_CAPSULE: return g->has_capsule ? NULL : "capsule";
    case PLN_GEOMETRY_CONVEX: return (g->convex_path[0] || pln_link_has_mesh(g)) ? NULL : "convex";
    case PLN_GEOMETRY_ELLIPSOID: return g->has_ellipsoid ? NULL : "ellipsoid";
    case PLN_GEOMETRY_MESH: return pln_link_has_mesh(g) ? NULL : "mesh";
    }
    return "known";
}

static int obstacle_measurable(PlnGeometryKind kind, const PlnObstacle *o)
{
    /* geometry mesh takes every obstacle (a sphere or capsule as the polyhedron that
     * encloses it, pln_geom); the others every obstacle but a mesh */
    return kind == PLN_GEOMETRY_MESH || o->type != PLN_OBSTACLE_MESH;
}

static PlnStatus push_excluded(PlnScenario *sc, const PlnPair *p, PlnPairExclusion why,
                               double d, int *cap, char *err, size_t err_size)
{
    if (sc->n_excluded == *cap) {
        int grown_cap = *cap > 0 ? 2 * *cap : 64;
        PlnExcludedPair *grown = realloc(sc->excluded, (size_t)grown_cap * sizeof *grown);
        if (grown == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        sc->excluded = grown;
        *cap = grown_cap;
    }
    sc->excluded[sc->n_excluded].pair = *p;
    sc->excluded[sc->n_excluded].reason = why;
    sc->excluded[sc->n_excluded].distance = d;
    ++sc->n_excluded;
    return PLN_OK;
}

/* a uniform number in [0, 1) from a 64-bit LCG (Knuth's MMIX constants): deterministic */
static double lcg(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

PlnStatus pln_pairs_all(PlnScenario *sc, const PlnRobot *robot, int extra, char *err,
                        size_t err_size)
{
    const int nl = robot->n_links, no = sc->n_obstacles;
    int cap_pairs = nl * (nl - 1) / 2 + nl * no, cap_ex = 0, n = 0;
    PlnPair *cand;
    double *q = NULL, *q0 = NULL;
    int *path = NULL, *keep = NULL;
    PlnGeom *geom = NULL;
    PlnKinWork *kin = NULL;
    PlnStatus st = PLN_OK;

    free(sc->pairs);
    free(sc->excluded);
    sc->pairs = NULL;
    sc->excluded = NULL;
    sc->n_pairs = sc->n_excluded = 0;
    cand = calloc((size_t)(cap_pairs > 0 ? cap_pairs : 1), sizeof *cand);
    q = calloc((size_t)robot->n_joints + 1, sizeof *q);
    q0 = calloc((size_t)robot->n_joints + 1, sizeof *q0);
    path = calloc((size_t)robot->n_joints + 1, sizeof *path);
    if (cand == NULL || q == NULL || q0 == NULL || path == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    /* candidates by the model alone */
    for (int a = 0; a < nl && st == PLN_OK; ++a) {
        const char *miss_a = missing_kind(sc->geometry, &robot->links[a].geometry);
        for (int b = a + 1; b <= nl - 1 + no && st == PLN_OK; ++b) {
            PlnPair p;
            memset(&p, 0, sizeof p);
            p.a.index = a;
            snprintf(p.a.name, sizeof p.a.name, "%s", robot->links[a].name);
            p.b_is_obstacle = b >= nl;
            p.b.index = p.b_is_obstacle ? b - nl : b;
            snprintf(p.b.name, sizeof p.b.name, "%s",
                     p.b_is_obstacle ? sc->obstacles[b - nl].name : robot->links[b].name);
            if (miss_a != NULL || (!p.b_is_obstacle &&
                                   missing_kind(sc->geometry, &robot->links[b].geometry))) {
                st = push_excluded(sc, &p, PLN_EXCLUDE_NO_GEOMETRY, NAN, &cap_ex, err, err_size);
            } else if (p.b_is_obstacle &&
                       !obstacle_measurable(sc->geometry, &sc->obstacles[p.b.index])) {
                st = push_excluded(sc, &p, PLN_EXCLUDE_OBSTACLE_KIND, NAN, &cap_ex, err,
                                   err_size);
            } else if (!p.b_is_obstacle &&
                       (robot->links[b].parent == a || robot->links[a].parent == b)) {
                st = push_excluded(sc, &p, PLN_EXCLUDE_ADJACENT, NAN, &cap_ex, err, err_size);
            } else {
                cand[n++] = p;
            }
        }
    }
    if (st != PLN_OK || n == 0) goto done;

    /* measure every candidate at the initial posture (the geometry borrows the scenario's
     * pairs: the candidates until the kept ones replace them) */
    keep = calloc((size_t)n, sizeof *keep);
    if (keep == NULL) {
        st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        goto done;
    }
    for (int j = 0; j < robot->n_joints; ++j) q0[j] = robot->joints[j].initial;
    for (int i = 0; i < sc->n_initial; ++i) q0[sc->initial_joint[i].index] = sc->initial_value[i];
    sc->pairs = cand;
    sc->n_pairs = n;
    st = pln_geom_create(&geom, robot, sc, err, err_size);
    if (st == PLN_OK) st = pln_kin_create(robot, &kin, err, err_size);
    if (st == PLN_OK) st = pln_kin_forward(kin, robot, q0);
    for (int i = 0; i < n && st == PLN_OK; ++i) {
        const PlnPair *p = &cand[i];
        PlnPairDistance d;
        DstStatus ds;
        int np = joints_between(robot, p->a.index, p->b_is_obstacle ? -1 : p->b.index, path);
        int moving = 0;
        for (int k = 0; k < np; ++k) moving |= is_moving(sc, path[k]);
        ds = pln_geom_pair_distance(geom, kin, i, NULL, &d);
        if (ds != DST_OK) {
            st = pln_errorf(PLN_ERR_INVALID, err, err_size,
                            "%s: collision.pairs: %s - %s: the distance at the initial posture "
                            "failed (%s)",
                            sc->path, p->a.name, p->b.name, dst_status_string(ds));
            break;
        }
        if (!moving) {
            st = push_excluded(sc, p, PLN_EXCLUDE_RIGID, d.distance, &cap_ex, err, err_size);
        } else if (d.distance < 0.0) {
            /* overlapping now: always, or only at this posture? */
            unsigned long long seed = 0x9E3779B97F4A7C15ULL ^ (unsigned long long)(i + 1);
            int always = 1;
            for (int s = 0; s < PLN_PAIRS_CONTACT_SAMPLES && always; ++s) {
                PlnPairDistance sd;
                memcpy(q, q0, (size_t)robot->n_joints * sizeof *q);
                for (int k = 0; k < np; ++k) {
                    const PlnJoint *jt = &robot->joints[path[k]];
                    q[path[k]] = jt->lower + (jt->upper - jt->lower) * lcg(&seed);
                }
                if (pln_kin_forward(kin, robot, q) != PLN_OK ||
                    pln_geom_pair_distance(geom, kin, i, NULL, &sd) != DST_OK ||
                    sd.distance >= 0.0) {
                    always = 0;
                }
            }
            pln_kin_forward(kin, robot, q0);
            st = push_excluded(sc, p,
                               always ? PLN_EXCLUDE_ALWAYS_CONTACT : PLN_EXCLUDE_START_CONTACT,
                               d.distance, &cap_ex, err, err_size);
        } else {
            keep[i] = 1;
        }
    }
    /* the kept pairs, in candidate order, with room for the additions */
    pln_geom_destroy(geom);
    geom = NULL;
    sc->pairs = NULL;
    sc->n_pairs = 0;
    if (st == PLN_OK) {
        int m = 0;
        sc->pairs = calloc((size_t)n + (size_t)extra + 1, sizeof *sc->pairs);
        if (sc->pairs == NULL) {
            st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
        } else {
            for (int i = 0; i < n; ++i) {
                if (keep[i]) sc->pairs[m++] = cand[i];
            }
            sc->n_pairs = m;
        }
    }
done:
    if (sc->pairs == NULL && st == PLN_OK) {
        sc->pairs = calloc((size_t)extra + 1, sizeof *sc->pairs);
        if (sc->pairs == NULL) st = pln_errorf(PLN_ERR_NOMEM, err, err_size, "out of memory");
    }
    pln_geom_destroy(geom);
    pln_kin_destroy(kin);
    free(cand);
    free(q);
    free(q0);
    free(path);
    free(keep);
    return st;
}
