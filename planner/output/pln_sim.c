/* pln_sim.c — the robot in MuJoCo physics along a trajectory (pln_sim.h,
 * docs/SIMULATION.md). */
#include "output/pln_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "base/pln_clock.h"
#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"
#include "model/pln_contact.h"
#include "model/pln_dyn.h"
#include "model/pln_kin.h"
#include "output/pln_mjcf.h"
#include "problem/pln_dynrows.h"

static const double GRAVITY[3] = {0.0, 0.0, -PLN_GRAVITY_MS2};

PlnSimOptions pln_sim_options_default(void)
{
    PlnSimOptions o;
    o.timestep = 1e-3;
    o.settle_s = 0.5;
    o.hold_s = 1.0;
    o.speed = 1.0;
    o.bandwidth_hz = PLN_SIM_BANDWIDTH_HZ;
    o.feedforward = 1;
    o.series_dt = 0.01;
    return o;
}

const char *pln_sim_engine_version(void)
{
    return mj_versionString();
}

/* ---- the scene: support, shapes near the motion, the MJCF hook ------------------- */

typedef struct SimScene {
    const PlnProblem *p;
    const PlnRobot *r;
    const PlnScenario *sc;
    int floating;                 /* soles on a floor */
    int n_phases;
    const PlnPhaseGeom *phases;   /* the problem's, or `own` */
    PlnPhaseGeom own;
    double *armature;             /* [n_joints] */
    double swept_lo[3], swept_hi[3];
    int n_prisms;
    char note[512];
    unsigned char *floor_pair;    /* [n_links] 1: the link's shape is paired with the floor */
} SimScene;

static const PlnGeomShape *link_shape(const SimScene *s, int l)
{
    const PlnGeom *g = s->p->geom;
    if (g == NULL || l >= g->n_links || !g->links[l].loaded) return NULL;
    return &g->links[l];
}

static const PlnGeomShape *obstacle_shape(const SimScene *s, int k)
{
    const PlnGeom *g = s->p->geom;
    if (g == NULL || k >= g->n_obstacles || !g->obstacles[k].loaded) return NULL;
    return &g->obstacles[k];
}

/* the geom name suffix of a link's collision shape in the scene's geometry, or NULL */
static const char *link_geom_suffix(const SimScene *s, int l)
{
    const PlnLinkGeometry *lg = &s->r->links[l].geometry;
    switch (s->p->geom != NULL ? s->p->geom->kind : s->sc->geometry) {
    case PLN_GEOMETRY_CAPSULE: return lg->has_capsule ? "_capsule" : NULL;
    case PLN_GEOMETRY_ELLIPSOID: return link_shape(s, l) != NULL ? "_ellipsoid" : NULL;
    case PLN_GEOMETRY_CONVEX:
    case PLN_GEOMETRY_MESH: return link_shape(s, l) != NULL ? "_mesh" : NULL;
    }
    return NULL;
}

/* the points of a convex shape (mesh geometry: the mesh's hull; convex: the hull) in the
 * shape's own frame; NULL when there is none */
static const DstHull *shape_hull(const PlnGeomShape *sh)
{
    if (sh->has_bvh && sh->bvh.has_hull && !sh->bvh.hull_is_box) return &sh->bvh.hull;
    if (sh->has_hull) return &sh->hull;
    return NULL;
}

/* x = R a + t */
static void xform(const double R[9], const double t[3], const double a[3], double x[3])
{
    for (int i = 0; i < 3; ++i) x[i] = R[3 * i] * a[0] + R[3 * i + 1] * a[1] + R[3 * i + 2] * a[2] + t[i];
}

static void put_name(FILE *out, const char *prefix, const char *name, const char *suffix)
{
    fputs(prefix, out);
    pln_mjcf_put_escaped(out, name);
    fputs(suffix, out);
}

static void put_hull_vertices(FILE *out, const DstHull *h, const double R[9], const double t[3])
{
    fputs("\" vertex=\"", out);
    for (int v = 0; v < h->nverts; ++v) {
        double x[3];
        xform(R, t, h->verts + 3 * v, x);
        if (v > 0) fputc(' ', out);
        pln_mjcf_put_nums(out, x, 3);
    }
    fputs("\"/>\n", out);
}

/* 1 when the triangle's box meets the swept box */
static int near_motion(const SimScene *s, const double w[9])
{
    for (int i = 0; i < 3; ++i) {
        double lo = fmin(w[i], fmin(w[3 + i], w[6 + i])), hi = fmax(w[i], fmax(w[3 + i], w[6 + i]));
        if (hi < s->swept_lo[i] || lo > s->swept_hi[i]) return 0;
    }
    return 1;
}

/* the world triangle t of a mesh obstacle, and its unit normal; 0 when degenerate */
static int obstacle_triangle(const PlnGeomShape *sh, int t, double w[9], double n[3])
{
    const double *tri = sh->bvh.tri[t];
    double e1[3], e2[3], len;
    for (int v = 0; v < 3; ++v) xform(sh->rot, sh->pos, tri + 3 * v, w + 3 * v);
    for (int i = 0; i < 3; ++i) {
        e1[i] = w[3 + i] - w[i];
        e2[i] = w[6 + i] - w[i];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 1e-12)) return 0;
    for (int i = 0; i < 3; ++i) n[i] /= len;
    return 1;
}

/* collision-filter bit of mesh obstacle k's prisms */
static int prism_bit(int k)
{
    return 1 << (1 + k % 30);
}

static void hook(void *ctx, PlnMjcfSection section, int link, FILE *out)
{
    SimScene *s = ctx;
    const PlnRobot *r = s->r;
    const PlnScenario *sc = s->sc;
    PlnGeometryKind kind = s->p->geom != NULL ? s->p->geom->kind : sc->geometry;
    switch (section) {
    case PLN_MJCF_ASSET:
        for (int l = 0; l < r->n_links; ++l) {
            const PlnGeomShape *sh = link_shape(s, l);
            const DstHull *h;
            if (sh == NULL || (kind != PLN_GEOMETRY_MESH && kind != PLN_GEOMETRY_CONVEX)) continue;
            if ((h = shape_hull(sh)) == NULL) continue;
            put_name(out, "    <mesh name=\"", r->links[l].name, "_mesh");
            put_hull_vertices(out, h, sh->rot, sh->pos);
        }
        s->n_prisms = 0;
        for (int k = 0; k < sc->n_obstacles; ++k) {
            const PlnGeomShape *sh = obstacle_shape(s, k);
            if (sc->obstacles[k].type != PLN_OBSTACLE_MESH || sh == NULL || !sh->has_bvh) continue;
            if (sh->bvh.convex && shape_hull(sh) != NULL) {
                put_name(out, "    <mesh name=\"obs:", sc->obstacles[k].name, "");
                put_hull_vertices(out, shape_hull(sh), sh->rot, sh->pos);
                continue;
            }
            for (int t = 0; t < sh->bvh.n_tris; ++t) {
                double w[9], n[3], v[18];
                if (!obstacle_triangle(sh, t, w, n) || !near_motion(s, w)) continue;
                if (s->n_prisms >= PLN_SIM_MAX_PRISMS) break;
                /* the triangle and its copy moved inwards (against the outward normal) */
                for (int i = 0; i < 9; ++i) {
                    v[i] = w[i];
                    v[9 + i] = w[i] - PLN_SIM_PRISM_DEPTH_M * n[i % 3];
                }
                fprintf(out, "    <mesh name=\"prism%d\" vertex=\"", s->n_prisms);
                pln_mjcf_put_nums(out, v, 18);
                fputs("\"/>\n", out);
                ++s->n_prisms;
            }
        }
        break;
    case PLN_MJCF_BODY: {
        const PlnGeomShape *sh = link_shape(s, link);
        unsigned bits = 0;
        if (sh == NULL || kind == PLN_GEOMETRY_CAPSULE) break;
        for (int i = 0; i < sc->n_pairs; ++i) {
            const PlnPair *pr = &sc->pairs[i];
            if (pr->b_is_obstacle && pr->a.index == link &&
                sc->obstacles[pr->b.index].type == PLN_OBSTACLE_MESH) {
                bits |= (unsigned)prism_bit(pr->b.index);
            }
        }
        if (kind == PLN_GEOMETRY_ELLIPSOID) {
            const PlnLinkGeometry *lg = &r->links[link].geometry;
            double quat[4];
            pln_mjcf_quat_from_matrix(lg->ellipsoid_rot, quat);
            put_name(out, "      <geom name=\"", r->links[link].name, "_ellipsoid\" type=\"ellipsoid\" pos=\"");
            pln_mjcf_put_nums(out, lg->ellipsoid_center, 3);
            fputs("\" quat=\"", out);
            pln_mjcf_put_nums(out, quat, 4);
            fputs("\" size=\"", out);
            pln_mjcf_put_nums(out, lg->ellipsoid_radii, 3);
        } else {
            if (shape_hull(sh) == NULL) break;
            put_name(out, "      <geom name=\"", r->links[link].name, "_mesh\" type=\"mesh\" mesh=\"");
            pln_mjcf_put_escaped(out, r->links[link].name);
            fputs("_mesh", out);
            if (r->links[link].geometry.has_file_pose) {
                /* a re-rooted model's shifted link: the hull's placement in the link frame */
                double quat[4];
                pln_mjcf_quat_from_matrix(sh->rot, quat);
                fputs("\" pos=\"", out);
                pln_mjcf_put_nums(out, sh->pos, 3);
                fputs("\" quat=\"", out);
                pln_mjcf_put_nums(out, quat, 4);
            }
        }
        fprintf(out, "\" contype=\"%u\"/>\n", bits);
        break;
    }
    case PLN_MJCF_WORLD: {
        int prism = 0;
        for (int k = 0; k < sc->n_obstacles; ++k) {
            const PlnObstacle *o = &sc->obstacles[k];
            const PlnGeomShape *sh = obstacle_shape(s, k);
            switch (o->type) {
            case PLN_OBSTACLE_CAPSULE:
                put_name(out, "    <geom name=\"obs:", o->name, "\" type=\"capsule\" fromto=\"");
                pln_mjcf_put_nums(out, o->p0, 3);
                fputc(' ', out);
                pln_mjcf_put_nums(out, o->p1, 3);
                fputs("\" size=\"", out);
                pln_mjcf_put_nums(out, &o->radius, 1);
                fputs("\"/>\n", out);
                break;
            case PLN_OBSTACLE_SPHERE:
                put_name(out, "    <geom name=\"obs:", o->name, "\" type=\"sphere\" pos=\"");
                pln_mjcf_put_nums(out, o->p0, 3);
                fputs("\" size=\"", out);
                pln_mjcf_put_nums(out, &o->radius, 1);
                fputs("\"/>\n", out);
                break;
            case PLN_OBSTACLE_BOX: {
                double quat[4];
                pln_mjcf_quat_from_matrix(o->rot, quat);
                put_name(out, "    <geom name=\"obs:", o->name, "\" type=\"box\" pos=\"");
                pln_mjcf_put_nums(out, o->pos, 3);
                fputs("\" quat=\"", out);
                pln_mjcf_put_nums(out, quat, 4);
                fputs("\" size=\"", out);
                pln_mjcf_put_nums(out, o->half, 3);
                fputs("\"/>\n", out);
                break;
            }
            case PLN_OBSTACLE_MESH:
                if (sh == NULL || !sh->has_bvh) break;
                if (sh->bvh.convex && shape_hull(sh) != NULL) {
                    put_name(out, "    <geom name=\"obs:", o->name, "\" type=\"mesh\" mesh=\"obs:");
                    pln_mjcf_put_escaped(out, o->name);
                    fputs("\"/>\n", out);
                    break;
                }
                for (int t = 0; t < sh->bvh.n_tris && prism < s->n_prisms; ++t) {
                    double w[9], n[3];
                    if (!obstacle_triangle(sh, t, w, n) || !near_motion(s, w)) continue;
                    put_name(out, "    <geom name=\"obs:", o->name, "");
                    fprintf(out, "#%d\" type=\"mesh\" mesh=\"prism%d\" conaffinity=\"%d\"/>\n", t,
                            prism, prism_bit(k));
                    ++prism;
                }
                break;
            }
        }
        break;
    }
    case PLN_MJCF_CONTACT: {
        double fr[5] = {sc->mu, sc->mu, 0.005, 0.0001, 0.0001};
        for (int i = 0; s->floating && i < r->n_soles; ++i) {
            put_name(out, "    <pair geom1=\"", r->links[r->soles[i].link].name,
                     "_sole\" geom2=\"floor\" condim=\"3\" friction=\"");
            pln_mjcf_put_nums(out, fr, 5);
            fputs("\"/>\n", out);
        }
        for (int l = 0; s->floating && l < r->n_links; ++l) {
            const char *suf = link_geom_suffix(s, l);
            if (suf == NULL || !s->floor_pair[l]) continue;
            put_name(out, "    <pair geom1=\"", r->links[l].name, suf);
            fputs("\" geom2=\"floor\"/>\n", out);
        }
        for (int i = 0; i < sc->n_pairs; ++i) {
            const PlnPair *pr = &sc->pairs[i];
            const char *sa = link_geom_suffix(s, pr->a.index);
            if (sa == NULL) continue;
            if (pr->b_is_obstacle) {
                const PlnObstacle *o = &sc->obstacles[pr->b.index];
                /* a non-convex mesh's prisms collide through the filter bits */
                if (o->type == PLN_OBSTACLE_MESH) {
                    const PlnGeomShape *sh = obstacle_shape(s, pr->b.index);
                    if (sh == NULL || !sh->has_bvh || !sh->bvh.convex) continue;
                }
                put_name(out, "    <pair geom1=\"", r->links[pr->a.index].name, sa);
                put_name(out, "\" geom2=\"obs:", o->name, "\"/>\n");
            } else {
                const char *sb = link_geom_suffix(s, pr->b.index);
                if (sb == NULL) continue;
                put_name(out, "    <pair geom1=\"", r->links[pr->a.index].name, sa);
                put_name(out, "\" geom2=\"", r->links[pr->b.index].name, sb);
                fputs("\"/>\n", out);
            }
        }
        break;
    }
    case PLN_MJCF_ACTUATOR: break;
    }
}

/* the lowest world z of link l's collision shape at the posture of kin */
static double shape_lowest_z(const SimScene *s, const PlnKinWork *kin, int l)
{
    const PlnLinkGeometry *lg = &s->r->links[l].geometry;
    const PlnGeomShape *sh = link_shape(s, l);
    const double *R = pln_kin_link_rot(kin, l), *t = pln_kin_link_pos(kin, l);
    double z = HUGE_VAL, x[3];
    PlnGeometryKind kind = s->p->geom != NULL ? s->p->geom->kind : s->sc->geometry;
    if (kind == PLN_GEOMETRY_CAPSULE) {
        if (!lg->has_capsule) return HUGE_VAL;
        xform(R, t, lg->capsule_p0, x);
        z = x[2];
        xform(R, t, lg->capsule_p1, x);
        return fmin(z, x[2]) - lg->capsule_radius;
    }
    if (sh == NULL) return HUGE_VAL;
    if (kind == PLN_GEOMETRY_ELLIPSOID) {
        double rmax = fmax(lg->ellipsoid_radii[0], fmax(lg->ellipsoid_radii[1], lg->ellipsoid_radii[2]));
        xform(R, t, lg->ellipsoid_center, x);
        return x[2] - rmax;
    }
    {
        const DstHull *h = shape_hull(sh);
        double RS[9], tS[3];
        if (h == NULL) return HUGE_VAL;
        /* link frame of the shape's frame */
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                RS[3 * i + j] = R[3 * i] * sh->rot[j] + R[3 * i + 1] * sh->rot[3 + j] + R[3 * i + 2] * sh->rot[6 + j];
            }
        }
        xform(R, t, sh->pos, tS);
        for (int v = 0; v < h->nverts; ++v) {
            xform(RS, tS, h->verts + 3 * v, x);
            z = fmin(z, x[2]);
        }
    }
    return z;
}

/* the box the robot's shapes sweep along the reference (samples, each shape's reach
 * about its link origin), widened by PLN_SIM_SWEPT_MARGIN_M */
static PlnStatus swept_box(SimScene *s, PlnKinWork *kin, const PlnSimReference *ref, double *q,
                           double *qd, double *qdd)
{
    const int n = 101;
    for (int i = 0; i < 3; ++i) {
        s->swept_lo[i] = HUGE_VAL;
        s->swept_hi[i] = -HUGE_VAL;
    }
    for (int k = 0; k < n; ++k) {
        PlnStatus st = ref->state(ref->ctx, ref->duration * k / (n - 1), q, qd, qdd);
        if (st != PLN_OK) return st;
        if ((st = pln_kin_forward(kin, s->r, q)) != PLN_OK) return st;
        for (int l = 0; l < s->r->n_links; ++l) {
            const PlnLinkGeometry *lg = &s->r->links[l].geometry;
            const PlnGeomShape *sh = link_shape(s, l);
            const double *x = pln_kin_link_pos(kin, l);
            double reach = 0.0;
            if (sh != NULL) {
                reach = sh->reach + sqrt(sh->pos[0] * sh->pos[0] + sh->pos[1] * sh->pos[1] + sh->pos[2] * sh->pos[2]);
            } else if (lg->has_capsule) {
                double a = sqrt(lg->capsule_p0[0] * lg->capsule_p0[0] + lg->capsule_p0[1] * lg->capsule_p0[1] + lg->capsule_p0[2] * lg->capsule_p0[2]);
                double b = sqrt(lg->capsule_p1[0] * lg->capsule_p1[0] + lg->capsule_p1[1] * lg->capsule_p1[1] + lg->capsule_p1[2] * lg->capsule_p1[2]);
                reach = fmax(a, b) + lg->capsule_radius;
            }
            for (int i = 0; i < 3; ++i) {
                s->swept_lo[i] = fmin(s->swept_lo[i], x[i] - reach);
                s->swept_hi[i] = fmax(s->swept_hi[i], x[i] + reach);
            }
        }
    }
    for (int i = 0; i < 3; ++i) {
        s->swept_lo[i] -= PLN_SIM_SWEPT_MARGIN_M;
        s->swept_hi[i] += PLN_SIM_SWEPT_MARGIN_M;
    }
    return PLN_OK;
}

/* the support when the problem has no phases (dynamics off): every sole, over the whole
 * motion, as the dynamic rows would build it */
static PlnStatus own_phase(SimScene *s, const PlnKinWork *kin, double duration, char *err,
                           size_t err_size)
{
    const PlnRobot *r = s->r;
    PlnPhaseGeom *g = &s->own;
    int feet[PLN_MAX_PHASE_FEET] = {0}, n = 0;
    const double *rot[PLN_MAX_PHASE_FEET] = {NULL}, *pos[PLN_MAX_PHASE_FEET] = {NULL};
    PlnStatus st;
    memset(g, 0, sizeof *g);
    for (int i = 0; i < r->n_soles && n < PLN_MAX_PHASE_FEET; ++i) {
        feet[n] = r->soles[i].link;
        rot[n] = pln_kin_link_rot(kin, feet[n]);
        pos[n] = pln_kin_link_pos(kin, feet[n]);
        ++n;
    }
    st = pln_contact_support(r, feet, n, rot, pos, PLN_SOLE_FLAT_TOL_M, &g->support, err, err_size);
    if (st != PLN_OK) {
        char inner[512];
        snprintf(inner, sizeof inner, "%s", err);
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: no floor under the feet at the start, so the robot cannot stand "
                          "in simulation: %s", s->sc->path, inner);
    }
    pln_phase_polygon(r, rot, pos, 0.0, g);
    g->t0 = 0.0;
    g->t1 = duration;
    s->phases = g;
    s->n_phases = 1;
    return PLN_OK;
}

static const PlnPhaseGeom *phase_at(const SimScene *s, double t)
{
    for (int k = 0; k < s->n_phases; ++k) {
        if (t <= s->phases[k].t1 || k + 1 == s->n_phases) return &s->phases[k];
    }
    return NULL;
}

/* the phase whose polygon judges the centre of pressure at time t: g, unless a sole that
 * g leaves off the floor carries more than min_fz (N); then the adjacent phase nearer in
 * time that stands on every loaded sole (the next one in g's second half: a foot touching
 * down early; the one before in its first half: a foot lifting late), else g */
static const PlnPhaseGeom *loaded_phase(const SimScene *s, const PlnPhaseGeom *g, double t,
                                        const double *sole_fz, double min_fz)
{
    const PlnRobot *r = s->r;
    int k = (int)(g - s->phases), late = t > 0.5 * (g->t0 + g->t1);
    for (int d = 0; d < 2; ++d) {
        int kk = d == 0 ? k : (late ? k + 1 : k - 1);
        const PlnPhaseGeom *h;
        int all = 1;
        if (kk < 0 || kk >= s->n_phases) continue;
        h = &s->phases[kk];
        for (int i = 0; i < r->n_soles && all; ++i) {
            int on = 0;
            if (!(sole_fz[i] > min_fz)) continue;
            for (int f = 0; f < h->support.n_feet; ++f) on |= h->support.link[f] == r->soles[i].link;
            all = on;
        }
        if (all) return h;
    }
    return g;
}

/* the world position of a sole's centre (offset in its link frame) on MuJoCo body b */
static void sole_centre(const mjData *d, int b, const double off[3], double c[3])
{
    for (int k = 0; k < 3; ++k) {
        const mjtNum *xm = d->xmat + 9 * b + 3 * k;
        c[k] = d->xpos[3 * b + k] + xm[0] * off[0] + xm[1] * off[1] + xm[2] * off[2];
    }
}

/* signed distance of xy inside the polygon of g (its unshrunk edges), m */
static double inside_margin(const PlnPhaseGeom *g, const double xy[2])
{
    double m = HUGE_VAL;
    for (int e = 0; e < g->n_edges; ++e) {
        const double *n = g->edge_n[e], *a = g->polygon[e];
        m = fmin(m, n[0] * (a[0] - xy[0]) + n[1] * (a[1] - xy[1]));
    }
    return m;
}

static void scene_destroy(SimScene *s)
{
    free(s->armature);
    free(s->floor_pair);
}

/* scene set-up shared by the run and the --mjcf writer: support, armature, swept box,
 * floor pairs. kin is left at the first posture. */
static PlnStatus scene_create(SimScene *s, const PlnProblem *p, const PlnSimReference *ref,
                              PlnKinWork *kin, double *q, double *qd, double *qdd, char *err,
                              size_t err_size)
{
    const PlnRobot *r = p->robot;
    PlnStatus st;
    memset(s, 0, sizeof *s);
    s->p = p;
    s->r = r;
    s->sc = p->scenario;
    s->floating = r->n_soles > 0;
    s->armature = calloc((size_t)r->n_joints + 1, sizeof *s->armature);
    s->floor_pair = calloc((size_t)r->n_links + 1, 1);
    if (s->armature == NULL || s->floor_pair == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "simulate: out of memory");
    }
    for (int j = 0; j < r->n_joints; ++j) {
        s->armature[j] = r->has_effort ? PLN_SIM_ARMATURE_PER_NM * r->joints[j].effort_max : 0.0;
    }
    st = swept_box(s, kin, ref, q, qd, qdd);
    if (st == PLN_OK) st = ref->state(ref->ctx, 0.0, q, qd, qdd);
    if (st == PLN_OK) st = pln_kin_forward(kin, r, q);
    if (st != PLN_OK) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "simulate: the trajectory has non-finite joint values");
    }
    if (s->floating) {
        if (p->n_phases > 0) {
            s->phases = p->phases;
            s->n_phases = p->n_phases;
        } else if ((st = own_phase(s, kin, ref->duration, err, err_size)) != PLN_OK) {
            return st;
        }
        /* every link shape clear of the floor at the start collides with it */
        for (int l = 0; l < r->n_links; ++l) {
            if (pln_robot_find_sole(r, l) >= 0) continue;
            s->floor_pair[l] = shape_lowest_z(s, kin, l) > s->phases[0].support.floor_z + 1e-3;
        }
    }
    return PLN_OK;
}

static PlnMjcfOptions scene_mjcf_options(SimScene *s, double timestep)
{
    PlnMjcfOptions o = pln_mjcf_options_default();
    o.floating_base = s->floating;
    o.capsules = (s->p->geom != NULL ? s->p->geom->kind : s->sc->geometry) == PLN_GEOMETRY_CAPSULE;
    o.floor = s->floating;
    o.floor_z = s->floating ? s->phases[0].support.floor_z : 0.0;
    o.soles = s->floating;
    o.motors = 1;
    o.armature = s->armature;
    o.no_default_contact = 1;
    o.extra = hook;
    o.extra_ctx = s;
    o.timestep = timestep;
    return o;
}

PlnStatus pln_sim_write_mjcf(const PlnProblem *p, const PlnSimReference *ref, FILE *out,
                             char *err, size_t err_size)
{
    SimScene s;
    PlnKinWork *kin = NULL;
    PlnMjcfOptions mo;
    int n = p->robot->n_joints;
    double *buf = calloc(3 * (size_t)n + 3, sizeof *buf);
    PlnStatus st = buf == NULL ? PLN_ERR_NOMEM : pln_kin_create(p->robot, &kin, err, err_size);
    memset(&s, 0, sizeof s);
    if (st == PLN_OK) st = scene_create(&s, p, ref, kin, buf, buf + n, buf + 2 * n, err, err_size);
    if (st == PLN_OK) {
        mo = scene_mjcf_options(&s, pln_sim_options_default().timestep);
        st = pln_mjcf_write(p->robot, &mo, out, err, err_size);
    }
    if (st == PLN_ERR_NOMEM) pln_errorf(st, err, err_size, "simulate: out of memory");
    scene_destroy(&s);
    pln_kin_destroy(kin);
    free(buf);
    return st;
}

/* ---- the run ---------------------------------------------------------------------- */

/* what a geom belongs to: a link (>= 0), the floor (-2), obstacle k (-3 - k), or
 * nothing known (-1) */
static int geom_owner(const mjModel *m, const SimScene *s, const int *body_link, int g)
{
    const char *name = mj_id2name(m, mjOBJ_GEOM, g);
    int b = m->geom_bodyid[g];
    if (b > 0) return body_link[b];
    if (name == NULL) return -1;
    if (strcmp(name, "floor") == 0) return -2;
    if (strncmp(name, "obs:", 4) == 0) {
        size_t len = strcspn(name + 4, "#");
        for (int k = 0; k < s->sc->n_obstacles; ++k) {
            if (strlen(s->sc->obstacles[k].name) == len &&
                strncmp(s->sc->obstacles[k].name, name + 4, len) == 0) {
                return -3 - k;
            }
        }
    }
    return -1;
}

static const char *owner_name(const SimScene *s, int owner)
{
    if (owner >= 0) return s->r->links[owner].name;
    if (owner == -2) return "floor";
    if (owner <= -3) return s->sc->obstacles[-3 - owner].name;
    return "?";
}

static void note_contact(PlnSimResult *res, const SimScene *s, int a, int b, double t,
                         double depth)
{
    const char *na = owner_name(s, a), *nb = owner_name(s, b);
    if (b >= 0 && (a < 0 || strcmp(na, nb) > 0)) {
        const char *x = na;
        na = nb;
        nb = x;
    }
    for (int i = 0; i < res->n_contacts; ++i) {
        PlnSimContact *c = &res->contacts[i];
        if (strcmp(c->a, na) == 0 && strcmp(c->b, nb) == 0) {
            ++c->steps;
            c->depth_max = fmax(c->depth_max, depth);
            return;
        }
    }
    if (res->n_contacts >= PLN_SIM_MAX_CONTACT_PAIRS) {
        ++res->contacts_dropped;
        return;
    }
    {
        PlnSimContact *c = &res->contacts[res->n_contacts++];
        snprintf(c->a, sizeof c->a, "%s", na);
        snprintf(c->b, sizeof c->b, "%s", nb);
        c->first_t = t;
        c->steps = 1;
        c->depth_max = depth;
    }
}

/* everything the loop needs, made before it */
typedef struct SimRun {
    mjModel *m;
    mjData *d;
    int *qadr, *vadr, *act;       /* [n_joints]: MuJoCo addresses, -1 for fixed joints */
    int *body_link;               /* [nbody] link of each body, -1 world */
    int *owner;                   /* [ngeom] */
    unsigned char *is_sole;       /* [ngeom] */
    int root_body;
    int sole_body[PLN_ROBOT_MAX_SOLES];  /* MuJoCo body of each sole's link */
    double *q, *qd, *qdd, *tau, *kp, *kd, *M, *nu, *nudot, *tauj;
    PlnDynWork *dyn;
    PlnKinWork *kin;
} SimRun;

static void run_free(SimRun *w)
{
    if (w->d != NULL) mj_deleteData(w->d);
    if (w->m != NULL) mj_deleteModel(w->m);
    free(w->qadr);
    free(w->vadr);
    free(w->act);
    free(w->body_link);
    free(w->owner);
    free(w->is_sole);
    free(w->q);
    free(w->qd);
    free(w->qdd);
    free(w->tau);
    free(w->kp);
    free(w->kd);
    free(w->M);
    free(w->nu);
    free(w->nudot);
    free(w->tauj);
    pln_dyn_destroy(w->dyn);
    pln_kin_destroy(w->kin);
}

/* loads the scene's MJCF from memory through MuJoCo's virtual file system */
static PlnStatus load_model(SimScene *s, const PlnSimOptions *o, mjModel **out, char *err,
                            size_t err_size)
{
    char *text = NULL, merr[1000] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    PlnMjcfOptions mo = scene_mjcf_options(s, o->timestep);
    mjVFS *vfs;
    PlnStatus st;
    if (f == NULL) return pln_errorf(PLN_ERR_NOMEM, err, err_size, "simulate: out of memory");
    st = pln_mjcf_write(s->r, &mo, f, err, err_size);
    fclose(f);
    if (st != PLN_OK) {
        free(text);
        return st;
    }
    vfs = malloc(sizeof *vfs);
    if (vfs == NULL) {
        free(text);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "simulate: out of memory");
    }
    mj_defaultVFS(vfs);
    if (mj_makeEmptyFileVFS(vfs, "scene.xml", (int)len) != 0) {
        free(text);
        free(vfs);
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "simulate: MuJoCo's file system is full");
    }
    memcpy(vfs->filedata[vfs->nfile - 1], text, len);
    free(text);
    *out = mj_loadXML("scene.xml", vfs, merr, sizeof merr);
    mj_deleteVFS(vfs);
    free(vfs);
    if (*out == NULL) {
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "simulate: MuJoCo refused the model: %s",
                          merr);
    }
    return PLN_OK;
}

static PlnStatus run_create(SimRun *w, SimScene *s, const PlnSimOptions *o, char *err,
                            size_t err_size)
{
    const PlnRobot *r = s->r;
    int n = r->n_joints, nv = 6 + n;
    PlnStatus st = load_model(s, o, &w->m, err, err_size);
    if (st != PLN_OK) return st;
    w->d = mj_makeData(w->m);
    w->qadr = malloc(sizeof *w->qadr * (size_t)n);
    w->vadr = malloc(sizeof *w->vadr * (size_t)n);
    w->act = malloc(sizeof *w->act * (size_t)n);
    w->body_link = malloc(sizeof *w->body_link * (size_t)w->m->nbody);
    w->owner = malloc(sizeof *w->owner * (size_t)(w->m->ngeom + 1));
    w->is_sole = calloc((size_t)w->m->ngeom + 1, 1);
    w->q = calloc((size_t)n, sizeof *w->q);
    w->qd = calloc((size_t)n, sizeof *w->qd);
    w->qdd = calloc((size_t)n, sizeof *w->qdd);
    w->tau = calloc((size_t)nv, sizeof *w->tau);
    w->kp = calloc((size_t)n, sizeof *w->kp);
    w->kd = calloc((size_t)n, sizeof *w->kd);
    w->M = calloc((size_t)nv * nv, sizeof *w->M);
    w->nu = calloc((size_t)nv, sizeof *w->nu);
    w->nudot = calloc((size_t)nv, sizeof *w->nudot);
    w->tauj = calloc((size_t)n, sizeof *w->tauj);
    if (w->d == NULL || w->qadr == NULL || w->vadr == NULL || w->act == NULL ||
        w->body_link == NULL || w->owner == NULL || w->is_sole == NULL || w->q == NULL ||
        w->qd == NULL || w->qdd == NULL || w->tau == NULL || w->kp == NULL || w->kd == NULL ||
        w->M == NULL || w->nu == NULL || w->nudot == NULL || w->tauj == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "simulate: out of memory");
    }
    if ((st = pln_dyn_create(r, &w->dyn, err, err_size)) != PLN_OK) return st;
    if ((st = pln_kin_create(r, &w->kin, err, err_size)) != PLN_OK) return st;
    for (int j = 0; j < n; ++j) {
        int id = mj_name2id(w->m, mjOBJ_JOINT, r->joints[j].name);
        w->qadr[j] = id >= 0 ? w->m->jnt_qposadr[id] : -1;
        w->vadr[j] = id >= 0 ? w->m->jnt_dofadr[id] : -1;
        w->act[j] = id >= 0 ? mj_name2id(w->m, mjOBJ_ACTUATOR, r->joints[j].name) : -1;
    }
    w->root_body = -1;
    for (int b = 0; b < w->m->nbody; ++b) {
        const char *name = mj_id2name(w->m, mjOBJ_BODY, b);
        w->body_link[b] = -1;
        for (int l = 0; b > 0 && name != NULL && l < r->n_links; ++l) {
            if (strcmp(r->links[l].name, name) == 0) w->body_link[b] = l;
        }
        if (b > 0 && w->body_link[b] >= 0 &&
            (r->free_base ? w->body_link[b] == r->file_root : r->links[w->body_link[b]].parent < 0)) {
            w->root_body = b;
        }
    }
    for (int g = 0; g < w->m->ngeom; ++g) {
        const char *name = mj_id2name(w->m, mjOBJ_GEOM, g);
        size_t len = name != NULL ? strlen(name) : 0;
        w->owner[g] = geom_owner(w->m, s, w->body_link, g);
        w->is_sole[g] = w->owner[g] >= 0 && len > 5 && strcmp(name + len - 5, "_sole") == 0;
    }
    return PLN_OK;
}

/* the feed-forward torques of the reference state (w->q, qd, qdd): the robot held at the
 * waist (eq. D3-D5), the floor's wrench split over the phase's soles (D18-D21), each
 * joint's torque less its soles' share (D21), plus armature times acceleration; the
 * planned ZMP into zmp (NAN when the floor would have to pull) */
static void feedforward(SimRun *w, const SimScene *s, const PlnPhaseGeom *g, double zmp[2])
{
    const PlnRobot *r = s->r;
    int n = r->n_joints;
    PlnDynState st;
    PlnContactSplit sp;
    int have_split = 0;
    memset(&st, 0, sizeof st);
    memcpy(st.base_pos, r->base_pos, sizeof st.base_pos);
    memcpy(st.base_rot, r->base_rot, sizeof st.base_rot);
    memcpy(w->nu + 6, w->qd, sizeof *w->qd * (size_t)n);
    memcpy(w->nudot + 6, w->qdd, sizeof *w->qdd * (size_t)n);
    st.q = w->q;
    st.nu = w->nu;
    st.nudot = w->nudot;
    zmp[0] = zmp[1] = NAN;
    if (pln_dyn_rnea(w->dyn, r, &st, GRAVITY, w->tau) != PLN_OK) {
        for (int j = 0; j < n; ++j) w->tauj[j] = 0.0;
        return;
    }
    if (g != NULL) {
        have_split = pln_contact_split(&g->support, w->tau, s->p->min_fz > 0.0 ? s->p->min_fz :
                                       PLN_ZMP_MIN_VERTICAL_FORCE_REL * r->total_mass * PLN_GRAVITY_MS2,
                                       &sp, 0);
        if (have_split) {
            zmp[0] = sp.zmp[0];
            zmp[1] = sp.zmp[1];
            pln_kin_forward(w->kin, r, w->q);
        }
    }
    for (int j = 0; j < n; ++j) {
        double t = w->tau[6 + j];
        if (have_split) {
            int l = r->joints[j].link;
            t = pln_contact_joint_torque(r, &g->support, &sp, j, t, pln_kin_joint_axis(w->kin, l),
                                         pln_kin_link_pos(w->kin, l), NULL);
        }
        w->tauj[j] = t + s->armature[j] * w->qdd[j];
    }
}

static PlnStatus check_options(const PlnSimOptions *o, const PlnSimReference *ref, char *err,
                               size_t err_size)
{
    if (!(o->timestep > 0.0 && o->timestep <= 0.01) || !(o->settle_s >= 0.0 && o->settle_s <= 60.0) ||
        !(o->hold_s >= 0.0 && o->hold_s <= 60.0) || !(o->speed > 0.0 && o->speed <= 100.0) ||
        !(o->bandwidth_hz > 0.0 && o->bandwidth_hz <= 100.0) || !(o->series_dt > 0.0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "simulate: options out of range (timestep in (0, 0.01] s, settle and "
                          "hold in [0, 60] s, speed in (0, 100], bandwidth in (0, 100] Hz)");
    }
    if (ref == NULL || ref->state == NULL || !(ref->duration > 0.0) || !isfinite(ref->duration)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "simulate: the trajectory has no positive duration");
    }
    return PLN_OK;
}

PlnStatus pln_sim_run(const PlnProblem *p, const PlnSimReference *ref, const PlnSimOptions *opt,
                      PlnSimResult *res, char *err, size_t err_size)
{
    PlnSimOptions o = opt != NULL ? *opt : pln_sim_options_default();
    const PlnRobot *r = p->robot;
    int n = r->n_joints;
    SimScene s;
    SimRun w;
    PlnStatus st;
    double t_start = pln_clock_s(), h, T, total, w_bw, z0 = 0.0, zaxis0[3] = {0, 0, 1};
    double foot0[PLN_ROBOT_MAX_SOLES][3], sole_fz[PLN_ROBOT_MAX_SOLES], sq_err = 0.0, next_series = 0.0;
    const double weight = r->total_mass * PLN_GRAVITY_MS2;
    long n_cmp = 0, n_steps;
    int cap;
    pln_watchdog_phase("simulating");
    memset(res, 0, sizeof *res);
    memset(&s, 0, sizeof s);
    memset(&w, 0, sizeof w);
    res->fell_t = res->cop_zmp_max_m = res->cop_zmp_rms_m = res->cop_margin_min_m = NAN;
    res->cop_margin_t = NAN;
    res->torque_ratio_max = r->has_effort ? 0.0 : NAN;
    res->slip_link = res->lift_link = res->track_joint = res->torque_joint = -1;
    if ((st = check_options(&o, ref, err, err_size)) != PLN_OK) return st;
    h = o.timestep;
    T = ref->duration;
    total = o.settle_s + T / o.speed + o.hold_s;
    n_steps = (long)ceil(total / h - 1e-9);
    cap = (int)ceil((T + o.hold_s) / o.series_dt) + 4;
    res->track_rad = calloc((size_t)n + 1, sizeof *res->track_rad);
    res->t = calloc((size_t)cap, sizeof *res->t);
    res->zmp_x = calloc((size_t)cap, sizeof *res->zmp_x);
    res->zmp_y = calloc((size_t)cap, sizeof *res->zmp_y);
    res->cop_x = calloc((size_t)cap, sizeof *res->cop_x);
    res->cop_y = calloc((size_t)cap, sizeof *res->cop_y);
    res->waist_z = calloc((size_t)cap, sizeof *res->waist_z);
    if (res->track_rad == NULL || res->t == NULL || res->zmp_x == NULL || res->zmp_y == NULL ||
        res->cop_x == NULL || res->cop_y == NULL || res->waist_z == NULL) {
        return pln_errorf(PLN_ERR_NOMEM, err, err_size, "simulate: out of memory");
    }
    {
        PlnKinWork *kin = NULL;
        double *buf = calloc(3 * (size_t)n + 3, sizeof *buf);
        st = buf == NULL ? PLN_ERR_NOMEM : pln_kin_create(r, &kin, err, err_size);
        if (st == PLN_OK) st = scene_create(&s, p, ref, kin, buf, buf + n, buf + 2 * n, err, err_size);
        pln_kin_destroy(kin);
        free(buf);
        if (st == PLN_ERR_NOMEM) pln_errorf(st, err, err_size, "simulate: out of memory");
    }
    if (st == PLN_OK) st = run_create(&w, &s, &o, err, err_size);
    if (st != PLN_OK) goto done;
    res->floating = s.floating;
    if (s.n_prisms >= PLN_SIM_MAX_PRISMS) {
        snprintf(s.note, sizeof s.note,
                 "only the first %d triangles of the non-convex mesh obstacles near the motion "
                 "collide in the simulation", PLN_SIM_MAX_PRISMS);
    }
    snprintf(res->note, sizeof res->note, "%s", s.note);
    /* the first posture, the gains on each joint's own inertia (mass-matrix diagonal at
     * the start plus armature): kp = I w^2, kd = 2 I w (critical damping). The diagonal is
     * the robot's as its file roots it (at the waist): in a model re-rooted at a stance
     * foot (pln_robot_reroot) a leg joint's diagonal holds the whole body, which would make
     * the stance legs' gains stiffer than their motors; the joints' own inertias do not
     * depend on where the tree is rooted for the swinging limbs. */
    if ((st = ref->state(ref->ctx, 0.0, w.q, w.qd, w.qdd)) != PLN_OK) goto done;
    {
        PlnDynState ds;
        PlnRobot file;
        PlnDynWork *fdyn = NULL;
        const PlnRobot *rm = r;
        PlnDynWork *dm = w.dyn;
        memset(&file, 0, sizeof file);
        if (r->file_root != 0 && !r->free_base) {
            st = pln_robot_reroot(r, r->file_root, r->base_pos, r->base_rot, &file, err, err_size);
            if (st == PLN_OK) st = pln_dyn_create(&file, &fdyn, err, err_size);
            rm = &file;
            dm = fdyn;
        }
        memset(&ds, 0, sizeof ds);
        memcpy(ds.base_pos, rm->base_pos, sizeof ds.base_pos);
        memcpy(ds.base_rot, rm->base_rot, sizeof ds.base_rot);
        ds.q = w.q;
        if (st == PLN_OK) st = pln_dyn_crba(dm, rm, &ds, w.M);
        pln_dyn_destroy(fdyn);
        pln_robot_destroy(&file);
        if (st != PLN_OK) goto done;
    }
    w_bw = 2.0 * PLN_PI * o.bandwidth_hz;
    for (int j = 0; j < n; ++j) {
        double I = w.M[(size_t)(6 + j) * (6 + n) + 6 + j] + s.armature[j];
        w.kp[j] = I * w_bw * w_bw;
        w.kd[j] = 2.0 * I * w_bw;
    }
    mj_resetData(w.m, w.d);
    for (int j = 0; j < n; ++j) {
        if (w.qadr[j] >= 0) w.d->qpos[w.qadr[j]] = w.q[j];
    }
    mj_forward(w.m, w.d);
    if (w.root_body > 0) {
        z0 = w.d->xpos[3 * w.root_body + 2];
        for (int i = 0; i < 3; ++i) zaxis0[i] = w.d->xmat[9 * w.root_body + 3 * i + 2];
    }
    /* foot0: each sole centre's offset at the start from where the first phase stands it
     * (zero up to rounding: MuJoCo's world is the plan's), subtracted from the slip and
     * lift measured against each phase's place */
    for (int i = 0; i < r->n_soles; ++i) {
        int b = w.sole_body[i] = mj_name2id(w.m, mjOBJ_BODY, r->links[r->soles[i].link].name);
        const PlnPhaseGeom *g0 = s.floating ? phase_at(&s, 0.0) : NULL;
        for (int k = 0; k < 3; ++k) foot0[i][k] = 0.0;
        for (int k = 0; g0 != NULL && b > 0 && k < g0->support.n_feet; ++k) {
            if (g0->support.link[k] != r->soles[i].link) continue;
            sole_centre(w.d, b, r->soles[i].offset, foot0[i]);
            foot0[i][0] -= g0->support.centre[k][0];
            foot0[i][1] -= g0->support.centre[k][1];
            foot0[i][2] -= g0->support.floor_z;
        }
    }

    for (long step = 0; step < n_steps; ++step) {
        double sim_t = step * h, tr = (sim_t - o.settle_s) * o.speed, tref = fmin(fmax(tr, 0.0), T);
        /* the time reported: trajectory time during the motion; before it the settling
         * (negative), after it the end plus the seconds of the hold */
        double tshow = tr <= T ? tr : T + (sim_t - o.settle_s - T / o.speed);
        int moving = tr > 0.0 && tr < T, in_motion = tr >= 0.0 && tr <= T, after_settle = tr >= 0.0;
        const PlnPhaseGeom *g = s.floating ? phase_at(&s, tref) : NULL;
        double zmp[2], cop[2] = {NAN, NAN}, fz = 0.0, ask_ratio = 0.0;
        int clamped = 0, ratio_joint = -1;
        if ((st = ref->state(ref->ctx, tref, w.q, w.qd, w.qdd)) != PLN_OK) goto done;
        for (int j = 0; j < n; ++j) {
            w.qd[j] = moving ? w.qd[j] * o.speed : 0.0;
            w.qdd[j] = moving ? w.qdd[j] * o.speed * o.speed : 0.0;
        }
        feedforward(&w, &s, g, zmp);
        for (int j = 0; j < n; ++j) {
            double q, qd, tau, lim;
            if (w.qadr[j] < 0 || w.act[j] < 0) continue;
            q = w.d->qpos[w.qadr[j]];
            qd = w.d->qvel[w.vadr[j]];
            tau = (o.feedforward ? w.tauj[j] : 0.0) + w.kp[j] * (w.q[j] - q) + w.kd[j] * (w.qd[j] - qd);
            if (r->has_effort) {
                lim = r->joints[j].effort_max;
                if (fabs(tau) / lim > ask_ratio) {
                    ask_ratio = fabs(tau) / lim;
                    ratio_joint = j;
                }
                if (tau > lim || tau < -lim) {
                    tau = tau > 0.0 ? lim : -lim;
                    clamped = 1;
                }
            }
            w.d->ctrl[w.act[j]] = tau;
            res->energy_j += fabs(tau * qd) * h;
            if (after_settle) {
                double e = fabs(w.q[j] - q);
                if (e > res->track_rad[j]) res->track_rad[j] = e;
                if (e > res->track_max_rad) {
                    res->track_max_rad = e;
                    res->track_joint = j;
                }
            }
        }
        if (r->has_effort && ask_ratio > res->torque_ratio_max) {
            res->torque_ratio_max = ask_ratio;
            res->torque_joint = ratio_joint;
        }
        res->clamped_steps += clamped;
        mj_step(w.m, w.d);
        ++res->steps;
        if (w.d->warning[mjWARN_BADQACC].number > 0 || w.d->warning[mjWARN_BADQPOS].number > 0 ||
            w.d->warning[mjWARN_BADQVEL].number > 0) {
            res->diverged = res->fell = 1;
            res->fell_t = tshow;
            break;
        }
        /* contacts: the soles' centre of pressure, and anything else */
        {
            double cx = 0.0, cy = 0.0;
            for (int i = 0; i < r->n_soles; ++i) sole_fz[i] = 0.0;
            for (int c = 0; c < w.d->ncon; ++c) {
                const mjContact *con = &w.d->contact[c];
                int a = w.owner[con->geom1], b = w.owner[con->geom2];
                if ((w.is_sole[con->geom1] && b == -2) || (w.is_sole[con->geom2] && a == -2)) {
                    mjtNum f[6];
                    int so = pln_robot_find_sole(r, b == -2 ? a : b);
                    mj_contactForce(w.m, w.d, c, f);
                    cx += f[0] * con->pos[0];
                    cy += f[0] * con->pos[1];
                    fz += f[0];
                    if (so >= 0) sole_fz[so] += f[0];
                    continue;
                }
                note_contact(res, &s, a, b, tshow, fmax(0.0, -con->dist));
            }
            if (fz > 1e-9) {
                cop[0] = cx / fz;
                cop[1] = cy / fz;
            }
        }
        if (s.floating) {
            /* the root body (the waist, or the foot a re-rooted model stands on) against
             * where the plan puts it at this time: its height and its z axis */
            const double *x = w.d->xpos + 3 * w.root_body, *R = w.d->xmat + 9 * w.root_body;
            double drop, c;
            if (w.root_body > 0 && pln_kin_forward(w.kin, r, w.q) == PLN_OK) {
                const double *Rp = pln_kin_link_rot(w.kin, w.body_link[w.root_body]);
                z0 = pln_kin_link_pos(w.kin, w.body_link[w.root_body])[2];
                for (int i = 0; i < 3; ++i) zaxis0[i] = Rp[3 * i + 2];
            }
            drop = z0 - x[2];
            c = R[2] * zaxis0[0] + R[5] * zaxis0[1] + R[8] * zaxis0[2];
            double tilt = acos(fmin(1.0, fmax(-1.0, c))) * 180.0 / PLN_PI;
            res->waist_drop_max_m = fmax(res->waist_drop_max_m, drop);
            res->waist_tilt_max_deg = fmax(res->waist_tilt_max_deg, tilt);
            if (!res->fell && (drop > PLN_SIM_FALL_DROP_M || tilt > PLN_SIM_FALL_TILT_DEG)) {
                res->fell = 1;
                res->fell_t = tshow;
            }
            /* each foot of the phase against where the plan stands it (its sole centre: where
             * it stood at the start, or where a `place` landed it) */
            for (int k = 0; g != NULL && k < g->support.n_feet; ++k) {
                int l = g->support.link[k], i = pln_robot_find_sole(r, l);
                int bdy = i >= 0 ? w.sole_body[i] : -1;
                double c[3], slip, lift;
                if (i < 0 || bdy <= 0) continue;
                sole_centre(w.d, bdy, r->soles[i].offset, c);
                slip = 1e3 * hypot(c[0] - g->support.centre[k][0] - foot0[i][0],
                                   c[1] - g->support.centre[k][1] - foot0[i][1]);
                lift = 1e3 * (c[2] - g->support.floor_z - foot0[i][2]);
                if (slip > res->slip_max_mm) {
                    res->slip_max_mm = slip;
                    res->slip_link = l;
                }
                if (lift > res->lift_max_mm) {
                    res->lift_max_mm = lift;
                    res->lift_link = l;
                }
            }
            if (in_motion) {
                if (fz > 1e-9 && g != NULL) {
                    double mg = inside_margin(loaded_phase(&s, g, tref, sole_fz, PLN_SIM_TOUCH_FZ_REL * weight), cop);
                    if (!(mg >= res->cop_margin_min_m)) {
                        res->cop_margin_min_m = mg;
                        res->cop_margin_t = tshow;
                    }
                    if (isfinite(zmp[0])) {
                        double e = hypot(cop[0] - zmp[0], cop[1] - zmp[1]);
                        if (!(e <= res->cop_zmp_max_m)) res->cop_zmp_max_m = e;
                        sq_err += e * e;
                        ++n_cmp;
                    }
                } else {
                    ++res->cop_missing_steps;
                }
            }
        }
        if (after_settle && tshow >= next_series - 1e-12 && res->n_series < cap) {
            int i = res->n_series++;
            res->t[i] = tshow;
            res->zmp_x[i] = zmp[0];
            res->zmp_y[i] = zmp[1];
            res->cop_x[i] = cop[0];
            res->cop_y[i] = cop[1];
            res->waist_z[i] = w.root_body > 0 ? w.d->xpos[3 * w.root_body + 2] : NAN;
            next_series += o.series_dt;
        }
        if (res->fell) break;
    }
    res->sim_time_s = res->steps * h;
    if (n_cmp > 0) res->cop_zmp_rms_m = sqrt(sq_err / n_cmp);
    res->slipped = res->slip_max_mm >= PLN_SIM_SLIP_MAX_MM;
    res->lifted = res->lift_max_mm >= PLN_SIM_LIFT_MAX_MM;
    res->lost_track = res->track_max_rad > PLN_SIM_TRACK_MAX_RAD;
    res->tipped = res->cop_margin_min_m < PLN_SIM_COP_EDGE_M;
    res->collided = res->n_contacts > 0;
    res->ok = !res->fell && !res->slipped && !res->lifted && !res->tipped && !res->lost_track &&
              !res->collided;
done:
    res->wall_time_s = pln_clock_s() - t_start;
    run_free(&w);
    scene_destroy(&s);
    return st;
}

void pln_sim_result_destroy(PlnSimResult *res)
{
    if (res == NULL) return;
    free(res->track_rad);
    free(res->t);
    free(res->zmp_x);
    free(res->zmp_y);
    free(res->cop_x);
    free(res->cop_y);
    free(res->waist_z);
    res->track_rad = res->t = res->zmp_x = res->zmp_y = res->cop_x = res->cop_y = res->waist_z = NULL;
}
