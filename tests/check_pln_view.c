/* check_pln_view.c — tests of planner/pln_view.c: view.html is one self-contained page
 * whose embedded JSON survives names full of markup, parses (libyaml reads JSON), and
 * holds per frame the capsules of the forward kinematics and the pair closest at that
 * time with witness points that realise its distance; with mesh (or ellipsoid) geometry
 * and mesh obstacles it embeds decimated meshes within their budgets, link poses per
 * frame equal to the kinematics, obstacle meshes moved into the world; the display
 * decimation keeps its triangle bound and every output vertex within its cell of the
 * input surface. The clearance plot's pairs are the closest over the frames with their
 * distances per frame; the CoM, the ZMP and the support polygons are those of the
 * kinematics and the point-wise dynamics. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "check_util.h"
#include "dst_capsule.h"
#include "dst_mesh_testgen.h"
#include "problem/pln_certify.h"
#include "model/pln_kin.h"
#include "motion/pln_table.h"
#include "problem/pln_dynrows.h"
#include "base/pln_tolerance.h"
#include "output/pln_view.h"
#include "output/pln_view_assets.h"
#include "plan_fixture.h"

#define SCENARIO "tests/data/reach_pole.yaml"
/* a scenario with dynamics (ZMP, support polygon) */
#define DYN_SCENARIO "tests/data/bow_dyn.yaml"

/* Coordinates are embedded with 6 significant digits: on a robot within 2 m of the
 * origin that is within 1e-5 m. */
#define VIEW_COORD_TOL 1e-5
/* frame times carry 9 digits (s) */
#define VIEW_TIME_TOL 1e-8
/* motion of the fixture spline away from the initial posture (rad) */
#define FIXTURE_AMPLITUDE 0.4

/* decimation: an output vertex lies within the diagonal of its cell of an input vertex
 * (plus rounding, m) */
#define DECIMATE_ROUND_TOL 1e-12
/* a decimated sphere keeps its area within this fraction (it is a cover, not a toy) */
#define DECIMATE_AREA_REL 0.25
/* the statue used for the large-mesh case (written by make env-meshes) */
#define STATUE_STL "scenarios/meshes/statue_left.stl"
/* a budget that makes the ~100k-triangle statue decimate (its display budget does not) */
#define STATUE_BUDGET 3000
/* pose of the statue in the mesh-obstacle test: a yaw of 0.5 rad, scaled by 0.9 */
#define STATUE_YAW 0.5
#define STATUE_SCALE 0.9

/* reads a whole file into a malloc'ed string */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len) *len = (size_t)n;
    return buf;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle)) ++n;
    return n;
}

/* ---- a small reader of the libyaml document ---- */

static yaml_node_t *get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    ck_assert_int_eq(map->type, YAML_MAPPING_NODE);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (strcmp((char *)k->data.scalar.value, key) == 0) return yaml_document_get_node(doc, p->value);
    }
    ck_abort_msg("key %s missing", key);
    return NULL;
}

static int len(yaml_node_t *n)
{
    ck_assert_int_eq(n->type, YAML_SEQUENCE_NODE);
    return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
}

static yaml_node_t *item(yaml_document_t *doc, yaml_node_t *n, int i)
{
    return yaml_document_get_node(doc, n->data.sequence.items.start[i]);
}

static const char *str(yaml_node_t *n)
{
    ck_assert_int_eq(n->type, YAML_SCALAR_NODE);
    return (const char *)n->data.scalar.value;
}

static double num(yaml_node_t *n)
{
    char *end;
    double v = strtod(str(n), &end);
    ck_assert_msg(*end == '\0', "'%s' is not a number", str(n));
    return v;
}

/* the capsule of link l at the last forward kinematics */
static DstCapsule link_capsule(const PlnRobot *robot, const PlnKinWork *kin, int l)
{
    DstCapsule c;
    const PlnLinkGeometry *g = &robot->links[l].geometry;
    pln_kin_point(kin, l, g->capsule_p0, c.p0);
    pln_kin_point(kin, l, g->capsule_p1, c.p1);
    c.radius = g->capsule_radius;
    return c;
}

typedef struct ViewDoc {
    char dir[256], path[512];
    char *html;
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_node_t *root;
} ViewDoc;

/* writes view.html of the fixture, extracts the JSON element and parses it */
static void view_load(ViewDoc *v, PlanFixture *fx, const PlnCertificate *cert)
{
    char err[1024];
    const char *open_tag = "<script type=\"application/json\" id=\"" PLN_VIEW_DATA_ID "\">";
    char *start, *end;
    ckutil_mkdtemp(v->dir, sizeof v->dir);
    snprintf(v->path, sizeof v->path, "%s/view.html", v->dir);
    ck_assert_msg(pln_view_write(v->path, fx->p, fx->ctrl, cert, PLN_VIEW_DEFAULT_FPS, err,
                                 sizeof err) == PLN_OK,
                  "%s", err);
    v->html = slurp(v->path, NULL);
    start = strstr(v->html, open_tag);
    ck_assert_ptr_nonnull(start);
    start += strlen(open_tag);
    end = strstr(start, "</script>");
    ck_assert_ptr_nonnull(end);
    yaml_parser_initialize(&v->parser);
    yaml_parser_set_input_string(&v->parser, (const unsigned char *)start, (size_t)(end - start));
    ck_assert_msg(yaml_parser_load(&v->parser, &v->doc), "embedded JSON: %s at offset %zu",
                  v->parser.problem, v->parser.problem_offset);
    v->root = yaml_document_get_root_node(&v->doc);
    ck_assert_ptr_nonnull(v->root);
}

static void view_free(ViewDoc *v)
{
    yaml_document_delete(&v->doc);
    yaml_parser_delete(&v->parser);
    free(v->html);
    ckutil_rm_flat(v->dir);
}

START_TEST(test_embedded_json_survives_markup_in_names)
{
    PlanFixture fx;
    ViewDoc v;
    yaml_node_t *obst, *pairs;
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    /* the fixture's names carry "<script>", "</script>" (the obstacle), "<b>" and "&amp;" */
    ck_assert(strstr(fx.sc.name, "<script>") != NULL);
    view_load(&v, &fx, NULL);
    /* only the page's own three script elements close (data, three.js, view.js) */
    ck_assert_int_eq(count_of(v.html, "</script"), 3);
    ck_assert_int_eq(count_of(v.html, "<b>"), 0);
    ck_assert_int_eq(count_of(v.html, "<script>"), 2); /* the page's own */
    ck_assert_str_eq(str(get(&v.doc, v.root, "format")), "hrpplan-view");
    ck_assert_str_eq(str(get(&v.doc, v.root, "scenario")), fx.sc.name);
    ck_assert_str_eq(str(get(&v.doc, v.root, "certified")), "false");
    obst = get(&v.doc, v.root, "obstacles");
    ck_assert_int_eq(len(obst), fx.sc.n_obstacles);
    ck_assert_str_eq(str(get(&v.doc, item(&v.doc, obst, 0), "name")), "pole</script>");
    pairs = get(&v.doc, v.root, "pairs");
    ck_assert_int_eq(len(pairs), fx.sc.n_pairs);
    ck_assert_str_eq(str(get(&v.doc, item(&v.doc, pairs, 0), "b")), "pole</script>");
    ck_assert_str_eq(str(get(&v.doc, item(&v.doc, pairs, 0), "mcd_lower")), "null");
    /* the title and the side panel escape them as HTML */
    ck_assert(strstr(v.html, "<title>hrpplan: reach_pole &lt;script&gt;&lt;b&gt;&amp;amp;</title>") != NULL);
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_frames_are_the_motion)
{
    char err[1024];
    PlanFixture fx;
    ViewDoc v;
    PlnCertificate cert;
    PlnKinWork *kin = NULL;
    yaml_node_t *frames, *t, *caps, *worst, *links;
    double *q;
    int n, n_links = 0;
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    ck_assert_msg(pln_certify_spline(fx.p, fx.ctrl, PLN_CERT_MCD_EPS_RATIO, &cert, err, sizeof err) == PLN_OK,
                  "%s", err);
    view_load(&v, &fx, &cert);
    ck_assert_str_eq(str(get(&v.doc, v.root, "certified")), cert.certified ? "true" : "false");
    ck_assert(fabs(num(get(&v.doc, item(&v.doc, get(&v.doc, v.root, "pairs"), 1), "mcd_lower")) -
                   cert.pairs[1].lower) <= VIEW_COORD_TOL);
    for (int l = 0; l < fx.robot.n_links; ++l) n_links += fx.robot.links[l].geometry.has_capsule;
    links = get(&v.doc, v.root, "links");
    ck_assert_int_eq(len(links), n_links);

    /* frames at 30 per second, the last exactly at the end */
    frames = get(&v.doc, v.root, "frames");
    t = get(&v.doc, frames, "t");
    caps = get(&v.doc, frames, "capsules");
    worst = get(&v.doc, frames, "worst");
    ck_assert_int_eq(pln_table_times(fx.sc.duration, PLN_VIEW_DEFAULT_FPS, NULL, 100000, &n, err, sizeof err),
                     PLN_OK);
    ck_assert_int_eq(len(t), n);
    ck_assert_int_eq(len(caps), n);
    ck_assert_int_eq(len(worst), n);
    ck_assert(num(item(&v.doc, t, n - 1)) == fx.sc.duration);

    q = calloc((size_t)fx.p->n_joints, sizeof *q);
    ck_assert_int_eq(pln_kin_create(&fx.robot, &kin, err, sizeof err), PLN_OK);
    for (int s = 0; s < n; ++s) {
        double ts = num(item(&v.doc, t, s)), best = INFINITY, pa[3], pb[3], dw = 0.0;
        yaml_node_t *row = item(&v.doc, caps, s), *w = item(&v.doc, worst, s);
        int k = 0, arg = -1;
        ck_assert(s == 0 || ts > num(item(&v.doc, t, s - 1)));
        ck_assert(fabs(ts - (s + 1 < n ? s / PLN_VIEW_DEFAULT_FPS : fx.sc.duration)) <= VIEW_TIME_TOL);
        ck_assert_int_eq(pln_problem_joints_at(fx.p, fx.ctrl, ts, q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kin, &fx.robot, q), PLN_OK);
        /* every capsule's endpoints from the test's own kinematics */
        ck_assert_int_eq(len(row), 6 * n_links);
        for (int l = 0; l < fx.robot.n_links; ++l) {
            DstCapsule c;
            if (!fx.robot.links[l].geometry.has_capsule) continue;
            c = link_capsule(&fx.robot, kin, l);
            for (int e = 0; e < 3; ++e) {
                ck_assert(fabs(num(item(&v.doc, row, 6 * k + e)) - c.p0[e]) <= VIEW_COORD_TOL);
                ck_assert(fabs(num(item(&v.doc, row, 6 * k + 3 + e)) - c.p1[e]) <= VIEW_COORD_TOL);
            }
            ++k;
        }
        /* the closest pair by brute force over the scenario's pairs */
        for (int pr = 0; pr < fx.sc.n_pairs; ++pr) {
            const PlnPair *pp = &fx.sc.pairs[pr];
            DstCapsule A = link_capsule(&fx.robot, kin, pp->a.index), B;
            DstCapsuleDistance d;
            if (pp->b_is_obstacle) {
                const PlnObstacle *o = &fx.sc.obstacles[pp->b.index];
                memcpy(B.p0, o->p0, sizeof B.p0);
                memcpy(B.p1, o->p1, sizeof B.p1);
                B.radius = o->radius;
            } else {
                B = link_capsule(&fx.robot, kin, pp->b.index);
            }
            dst_capsule_distance(&A, &B, &d);
            if (d.distance < best) {
                best = d.distance;
                arg = pr;
            }
        }
        ck_assert_int_eq(len(w), 8);
        ck_assert_int_eq((int)num(item(&v.doc, w, 0)), arg);
        ck_assert(fabs(num(item(&v.doc, w, 1)) - best) <= VIEW_COORD_TOL);
        /* the witness points realise the distance (separated here) */
        for (int e = 0; e < 3; ++e) {
            pa[e] = num(item(&v.doc, w, 2 + e));
            pb[e] = num(item(&v.doc, w, 5 + e));
            dw += (pa[e] - pb[e]) * (pa[e] - pb[e]);
        }
        ck_assert(best > 0.0);
        ck_assert(fabs(sqrt(dw) - best) <= 2 * VIEW_COORD_TOL);
    }
    free(q);
    pln_kin_destroy(kin);
    pln_certificate_destroy(&cert);
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

/* the static distance of pair pr by the capsules of the test's own kinematics */
static double pair_distance(const PlanFixture *fx, const PlnKinWork *kin, int pr)
{
    const PlnPair *pp = &fx->sc.pairs[pr];
    DstCapsule A = link_capsule(&fx->robot, kin, pp->a.index), B;
    DstCapsuleDistance d;
    if (pp->b_is_obstacle) {
        const PlnObstacle *o = &fx->sc.obstacles[pp->b.index];
        memcpy(B.p0, o->p0, sizeof B.p0);
        memcpy(B.p1, o->p1, sizeof B.p1);
        B.radius = o->radius;
    } else {
        B = link_capsule(&fx->robot, kin, pp->b.index);
    }
    dst_capsule_distance(&A, &B, &d);
    return d.distance;
}

START_TEST(test_clearance_plot_is_the_closest_pairs)
{
    char err[1024];
    PlanFixture fx;
    ViewDoc v;
    PlnKinWork *kin = NULL;
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    view_load(&v, &fx, NULL);
    yaml_node_t *frames = get(&v.doc, v.root, "frames"), *t = get(&v.doc, frames, "t");
    yaml_node_t *pick = get(&v.doc, frames, "plot_pairs"), *cl = get(&v.doc, frames, "clearance");
    const int n = len(t), np = fx.sc.n_pairs, k = np < PLN_VIEW_PLOT_PAIRS ? np : PLN_VIEW_PLOT_PAIRS;
    ck_assert_int_gt(np, 1);
    ck_assert_int_eq(len(pick), k);
    ck_assert_int_eq(len(cl), n);
    double *dmin = malloc((size_t)np * sizeof *dmin), *q = calloc((size_t)fx.p->n_joints, sizeof *q);
    ck_assert(dmin != NULL && q != NULL);
    for (int pr = 0; pr < np; ++pr) dmin[pr] = INFINITY;
    ck_assert_int_eq(pln_kin_create(&fx.robot, &kin, err, sizeof err), PLN_OK);
    for (int s = 0; s < n; ++s) {
        yaml_node_t *row = item(&v.doc, cl, s);
        ck_assert_int_eq(pln_problem_joints_at(fx.p, fx.ctrl, num(item(&v.doc, t, s)), q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kin, &fx.robot, q), PLN_OK);
        for (int pr = 0; pr < np; ++pr) dmin[pr] = fmin(dmin[pr], pair_distance(&fx, kin, pr));
        /* each plotted pair's distance at this frame */
        ck_assert_int_eq(len(row), k);
        for (int i = 0; i < k; ++i) {
            int pr = (int)num(item(&v.doc, pick, i));
            ck_assert(fabs(num(item(&v.doc, row, i)) - pair_distance(&fx, kin, pr)) <= VIEW_COORD_TOL);
        }
    }
    /* the plotted pairs come closest over the frames, closest first: no pair left out
     * comes closer than the last plotted one */
    for (int i = 0; i < k; ++i) {
        int pr = (int)num(item(&v.doc, pick, i));
        ck_assert(pr >= 0 && pr < np);
        if (i > 0) ck_assert(dmin[pr] >= dmin[(int)num(item(&v.doc, pick, i - 1))]);
        dmin[pr] = -dmin[pr] - 1.0; /* marked as plotted (distances here are positive) */
    }
    double last = -dmin[(int)num(item(&v.doc, pick, k - 1))] - 1.0;
    for (int pr = 0; pr < np; ++pr) {
        if (dmin[pr] >= 0.0) ck_assert(dmin[pr] >= last - VIEW_COORD_TOL);
    }
    /* a ZMP per frame and the support polygons only with dynamics */
    ck_assert_int_eq(len(get(&v.doc, frames, "zmp")), fx.p->dynamics ? n : 0);
    ck_assert_int_eq(len(get(&v.doc, v.root, "support")), fx.p->dynamics ? fx.p->n_phases : 0);
    free(dmin);
    free(q);
    pln_kin_destroy(kin);
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_com_zmp_and_support_polygon)
{
    char err[1024];
    PlanFixture fx;
    ViewDoc v;
    PlnKinWork *kin = NULL;
    PlnProblemWork *w = NULL;
    plan_fixture_load(&fx, DYN_SCENARIO, 0.1);
    ck_assert(fx.p->dynamics && fx.p->n_phases > 0);
    view_load(&v, &fx, NULL);
    yaml_node_t *frames = get(&v.doc, v.root, "frames"), *t = get(&v.doc, frames, "t");
    yaml_node_t *com = get(&v.doc, frames, "com"), *zmp = get(&v.doc, frames, "zmp");
    yaml_node_t *sup = get(&v.doc, v.root, "support");
    const int n = len(t);
    /* the support phases: their spans and polygons */
    ck_assert_int_eq(len(sup), fx.p->n_phases);
    for (int ph = 0; ph < fx.p->n_phases; ++ph) {
        const PlnPhaseGeom *g = &fx.p->phases[ph];
        yaml_node_t *s = item(&v.doc, sup, ph), *poly = get(&v.doc, s, "polygon");
        ck_assert(fabs(num(get(&v.doc, s, "t0")) - g->t0) <= VIEW_TIME_TOL);
        ck_assert(fabs(num(get(&v.doc, s, "t1")) - g->t1) <= VIEW_TIME_TOL);
        ck_assert_int_eq(len(poly), 2 * g->n_edges);
        for (int e = 0; e < g->n_edges; ++e) {
            ck_assert(fabs(num(item(&v.doc, poly, 2 * e)) - g->polygon[e][0]) <= VIEW_COORD_TOL);
            ck_assert(fabs(num(item(&v.doc, poly, 2 * e + 1)) - g->polygon[e][1]) <= VIEW_COORD_TOL);
        }
    }
    /* per frame the CoM of the kinematics and the ZMP of the point-wise dynamics */
    ck_assert_int_eq(len(com), n);
    ck_assert_int_eq(len(zmp), n);
    double *q = calloc((size_t)fx.p->n_joints, sizeof *q), *tau = calloc((size_t)fx.p->n_joints, sizeof *tau);
    ck_assert(q != NULL && tau != NULL);
    ck_assert_int_eq(pln_kin_create(&fx.robot, &kin, err, sizeof err), PLN_OK);
    ck_assert_int_eq(pln_problem_work_create(fx.p, &w, err, sizeof err), PLN_OK);
    memcpy(w->ctrl, fx.ctrl, (size_t)fx.p->n_active * fx.p->n_ctrl * sizeof *fx.ctrl);
    int n_zmp = 0;
    for (int s = 0; s < n; ++s) {
        double ts = num(item(&v.doc, t, s)), c[3], z[2];
        int phase = -1;
        ck_assert_int_eq(pln_problem_joints_at(fx.p, fx.ctrl, ts, q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kin, &fx.robot, q), PLN_OK);
        ck_assert_int_eq(pln_kin_com(kin, &fx.robot, c), PLN_OK);
        yaml_node_t *cs = item(&v.doc, com, s), *zs = item(&v.doc, zmp, s);
        ck_assert_int_eq(len(cs), 3);
        for (int e = 0; e < 3; ++e) ck_assert(fabs(num(item(&v.doc, cs, e)) - c[e]) <= VIEW_COORD_TOL);
        ck_assert_int_eq(pln_dynrows_sample(fx.p, w, ts, &phase, z, tau, err, sizeof err), PLN_OK);
        if (phase < 0 || !isfinite(z[0]) || !isfinite(z[1])) {
            ck_assert_str_eq(str(zs), "null");
            continue;
        }
        ck_assert_int_eq(len(zs), 2);
        for (int e = 0; e < 2; ++e) ck_assert(fabs(num(item(&v.doc, zs, e)) - z[e]) <= VIEW_COORD_TOL);
        ++n_zmp;
    }
    ck_assert_int_gt(n_zmp, 0);
    free(q);
    free(tau);
    pln_problem_work_destroy(w);
    pln_kin_destroy(kin);
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_page_needs_no_network)
{
    PlanFixture fx;
    ViewDoc v;
    static const char *const banned[] = {"http:", "https:", "src=", "href=", "url(", "@import",
                                         "<link", "<img", "<iframe", "fetch(", "XMLHttpRequest"};
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    view_load(&v, &fx, NULL);
    /* three.js is inlined whole, once, behind its licence; it is Debian's file verbatim
     * (it names URLs and XMLHttpRequest in loaders the page never calls, and the CSP
     * below keeps them off the network): everything else of the page names none */
    ck_assert_uint_eq(strlen(pln_view_page_three), pln_view_page_three_len);
    char *three = strstr(v.html, pln_view_page_three);
    ck_assert_msg(three != NULL, "three.js is not inlined whole");
    ck_assert(strstr(three + 1, pln_view_page_three) == NULL);
    ck_assert(strncmp(pln_view_page_three, "/*!\n * three.js r111", 20) == 0);
    ck_assert(strstr(pln_view_page_three, "Copyright (c) 2010-2019 three.js authors") != NULL);
    ck_assert(strstr(pln_view_page_three, "Permission is hereby granted") != NULL);
    ck_assert(strstr(pln_view_page_three, "REVISION=\"111\"") != NULL);
    char *rest = malloc(strlen(v.html) + 1);
    ck_assert(rest != NULL);
    size_t head = (size_t)(three - v.html);
    memcpy(rest, v.html, head);
    strcpy(rest + head, three + pln_view_page_three_len);
    for (size_t i = 0; i < sizeof banned / sizeof banned[0]; ++i) {
        ck_assert_msg(strstr(rest, banned[i]) == NULL, "view.html contains %s", banned[i]);
    }
    free(rest);
    ck_assert(strstr(v.html, "Content-Security-Policy\" content=\"default-src 'none'") != NULL);
    ck_assert(strncmp(v.html, "<!DOCTYPE html>", 15) == 0);
    ck_assert(strstr(v.html, "</html>\n") != NULL);
    /* the template's markers are all replaced, and the data id is the header's */
    ck_assert_msg(strstr(v.html, "@@") == NULL, "a marker of view/view.html is left");
    ck_assert(strstr(v.html, "<script type=\"application/json\" id=\"" PLN_VIEW_DATA_ID "\">") != NULL);
    /* the embedded assets are the files, whole */
    ck_assert_uint_eq(strlen(pln_view_page_css), pln_view_page_css_len);
    ck_assert(strstr(v.html, pln_view_page_css) != NULL);
    ck_assert(strstr(v.html, pln_view_page_js) != NULL);
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_bad_fps_writes_nothing)
{
    char dir[256], path[512], err[256];
    PlanFixture fx;
    struct stat sb;
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/view.html", dir);
    ck_assert_int_eq(pln_view_write(path, fx.p, fx.ctrl, NULL, 0.0, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_view_write(path, fx.p, fx.ctrl, NULL, NAN, err, sizeof err), PLN_ERR_INVALID);
    ck_assert(stat(path, &sb) != 0);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
    plan_fixture_free(&fx);
}
END_TEST

/* ---- display decimation ------------------------------------------------------------ */

static double mesh_area(const DstMesh *m)
{
    double a = 0.0;
    for (int t = 0; t < m->n_triangles; ++t) {
        const double *p = m->vertices[m->triangles[t][0]], *q = m->vertices[m->triangles[t][1]],
                     *r = m->vertices[m->triangles[t][2]];
        double e1[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, e2[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        a += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    }
    return a;
}

/* the bound, valid indices, no collapsed triangle, and every output vertex within the
 * cell diagonal of some input vertex (a point of the input surface) */
static void check_decimation(const DstMesh *in, const DstMesh *out, double cell, int budget)
{
    ck_assert_int_le(out->n_triangles, budget);
    ck_assert_int_gt(out->n_triangles, 0);
    ck_assert(cell > 0.0);
    for (int t = 0; t < out->n_triangles; ++t) {
        const int *v = out->triangles[t];
        for (int k = 0; k < 3; ++k) ck_assert(v[k] >= 0 && v[k] < out->n_vertices);
        ck_assert(v[0] != v[1] && v[1] != v[2] && v[0] != v[2]);
    }
    double reach = sqrt(3.0) * cell + DECIMATE_ROUND_TOL;
    for (int i = 0; i < out->n_vertices; ++i) {
        double best = INFINITY;
        for (int j = 0; j < in->n_vertices && best > reach; ++j) {
            double d2 = 0.0;
            for (int k = 0; k < 3; ++k) {
                double e = out->vertices[i][k] - in->vertices[j][k];
                d2 += e * e;
            }
            best = fmin(best, sqrt(d2));
        }
        ck_assert_msg(best <= reach, "vertex %d is %g m from the input, cell %g", i, best, cell);
    }
}

START_TEST(test_decimate_sphere)
{
    const double c[3] = {0.3, -0.2, 1.1}, r = 0.4;
    DstMesh in = mg_sphere(r, c, 80, 160), out;
    char err[256];
    double cell = -1.0;
    const int budgets[3] = {2000, 500, 60};
    ck_assert_int_gt(in.n_triangles, 20000);
    for (int b = 0; b < 3; ++b) {
        ck_assert_msg(pln_view_decimate(&in, budgets[b], &out, &cell, err, sizeof err) == PLN_OK, "%s", err);
        check_decimation(&in, &out, cell, budgets[b]);
        /* still the sphere: every vertex near it, area close to it */
        for (int i = 0; i < out.n_vertices; ++i) {
            double d = sqrt(pow(out.vertices[i][0] - c[0], 2) + pow(out.vertices[i][1] - c[1], 2) +
                            pow(out.vertices[i][2] - c[2], 2));
            ck_assert(fabs(d - r) <= sqrt(3.0) * cell + DECIMATE_ROUND_TOL);
        }
        if (budgets[b] >= 500) {
            ck_assert(fabs(mesh_area(&out) / mesh_area(&in) - 1.0) <= DECIMATE_AREA_REL);
        }
        dst_mesh_destroy(&out);
    }
    dst_mesh_destroy(&in);
}
END_TEST

START_TEST(test_decimate_statue)
{
    DstMesh in, out;
    char err[512];
    double cell = 0.0;
    ck_assert_msg(dst_mesh_create_from_file(STATUE_STL, &in, err, sizeof err) == DST_OK,
                  "%s (make env-meshes writes it)", err);
    ck_assert_msg(pln_view_decimate(&in, STATUE_BUDGET, &out, &cell, err, sizeof err) == PLN_OK,
                  "%s", err);
    check_decimation(&in, &out, cell, STATUE_BUDGET);
    /* the budget is used, not wasted: more than a third of it */
    ck_assert_int_ge(out.n_triangles, STATUE_BUDGET / 3);
    dst_mesh_destroy(&out);
    /* within the display budget of obstacles the statue is drawn whole */
    ck_assert_int_le(in.n_triangles, PLN_VIEW_OBSTACLE_MAX_TRIANGLES);
    ck_assert_int_eq(pln_view_decimate(&in, PLN_VIEW_OBSTACLE_MAX_TRIANGLES, &out, &cell, err, sizeof err), PLN_OK);
    ck_assert_int_eq(out.n_triangles, in.n_triangles);
    ck_assert(cell == 0.0);
    dst_mesh_destroy(&out);
    dst_mesh_destroy(&in);
}
END_TEST

START_TEST(test_decimate_small_and_bad)
{
    const double c[3] = {0, 0, 0};
    DstMesh in = mg_sphere(1.0, c, 4, 6), out, empty;
    char err[256];
    double cell = -1.0;
    /* under the budget: the same mesh, cell 0 */
    ck_assert_int_eq(pln_view_decimate(&in, in.n_triangles, &out, &cell, err, sizeof err), PLN_OK);
    ck_assert_int_eq(out.n_triangles, in.n_triangles);
    ck_assert_int_eq(out.n_vertices, in.n_vertices);
    ck_assert(memcmp(out.vertices, in.vertices, (size_t)in.n_vertices * sizeof in.vertices[0]) == 0);
    ck_assert(cell == 0.0);
    dst_mesh_destroy(&out);
    /* bad budgets and meshes: an error, nothing allocated */
    ck_assert_int_eq(pln_view_decimate(&in, 0, &out, &cell, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_ptr_null(out.vertices);
    memset(&empty, 0, sizeof empty);
    ck_assert_int_eq(pln_view_decimate(&empty, 10, &out, NULL, err, sizeof err), PLN_ERR_INVALID);
    in.vertices[2][1] = NAN;
    ck_assert_int_eq(pln_view_decimate(&in, 10, &out, NULL, err, sizeof err), PLN_ERR_INVALID);
    ck_assert(strstr(err, "not finite") != NULL);
    ck_assert_ptr_null(out.vertices);
    dst_mesh_destroy(&in);
}
END_TEST

/* ---- meshes in the page -------------------------------------------------------------- */

/* rebuilds the fixture's problem after its scenario was edited (the problem loads the
 * pairs' shapes in the scenario's geometry); under mesh geometry the pairs with capsule
 * or sphere obstacles are dropped, as a scenario could not have them */
static void rebuild_problem(PlanFixture *fx)
{
    char err[1024];
    PlnPlanOptions opt = pln_plan_options_default();
    int n = 0;
    for (int i = 0; i < fx->sc.n_pairs; ++i) {
        const PlnPair *pr = &fx->sc.pairs[i];
        int t = pr->b_is_obstacle ? (int)fx->sc.obstacles[pr->b.index].type : -1;
        if (fx->sc.geometry == PLN_GEOMETRY_MESH && (t == PLN_OBSTACLE_CAPSULE || t == PLN_OBSTACLE_SPHERE)) continue;
        fx->sc.pairs[n++] = *pr;
    }
    fx->sc.n_pairs = n;
    pln_problem_destroy(fx->p);
    ck_assert_msg(pln_problem_create(&fx->p, &fx->robot, &fx->sc, &opt, err, sizeof err) == PLN_OK, "%s", err);
}

/* the fixture with the link meshes as geometry and the statue added as a mesh obstacle */
static void mesh_fixture(PlanFixture *fx, PlnGeometryKind geometry)
{
    plan_fixture_load(fx, SCENARIO, FIXTURE_AMPLITUDE);
    PlnObstacle *obs = realloc(fx->sc.obstacles, (size_t)(fx->sc.n_obstacles + 1) * sizeof *obs);
    ck_assert_ptr_nonnull(obs);
    fx->sc.obstacles = obs;
    PlnObstacle *o = &obs[fx->sc.n_obstacles++];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "statue<&>");
    o->type = PLN_OBSTACLE_MESH;
    snprintf(o->mesh_path, sizeof o->mesh_path, "%s", STATUE_STL);
    o->scale = STATUE_SCALE;
    double rpy[3] = {0.0, 0.0, STATUE_YAW};
    pln_kin_rpy_to_matrix(rpy, o->rot);
    o->pos[0] = 0.8;
    o->pos[1] = -0.6;
    o->pos[2] = 0.0;
    fx->sc.geometry = geometry;
    rebuild_problem(fx);
}

START_TEST(test_mesh_geometry_embedded)
{
    char err[1024];
    PlanFixture fx;
    ViewDoc v;
    PlnKinWork *kin = NULL;
    DstMesh statue;
    mesh_fixture(&fx, PLN_GEOMETRY_MESH);
    view_load(&v, &fx, NULL);
    ck_assert_str_eq(str(get(&v.doc, v.root, "geometry")), "mesh");
    yaml_node_t *meshes = get(&v.doc, v.root, "meshes");
    int n_link_meshes = 0;
    for (int l = 0; l < fx.robot.n_links; ++l) n_link_meshes += fx.robot.links[l].geometry.mesh_path[0] != '\0';
    ck_assert_int_eq(len(meshes), n_link_meshes + 1);
    /* every link mesh within its budget, posed in order; the statue static */
    int posed = 0, k = 0;
    for (int l = 0; l < fx.robot.n_links; ++l) {
        if (fx.robot.links[l].geometry.mesh_path[0] == '\0') continue;
        yaml_node_t *m = item(&v.doc, meshes, k++);
        ck_assert_str_eq(str(get(&v.doc, m, "link")), fx.robot.links[l].name);
        ck_assert_int_eq((int)num(get(&v.doc, m, "pose")), posed++);
        int nt = len(get(&v.doc, m, "t")) / 3;
        ck_assert_int_le(nt, PLN_VIEW_LINK_MAX_TRIANGLES);
        ck_assert_int_eq(nt, fx.robot.links[l].geometry.mesh_triangles <= PLN_VIEW_LINK_MAX_TRIANGLES
                                 ? fx.robot.links[l].geometry.mesh_triangles : nt);
    }
    yaml_node_t *sm = item(&v.doc, meshes, k);
    ck_assert_str_eq(str(get(&v.doc, sm, "obstacle")), "statue<&>");
    ck_assert_str_eq(str(get(&v.doc, sm, "link")), "null");
    ck_assert_int_eq((int)num(get(&v.doc, sm, "pose")), -1);
    yaml_node_t *sv = get(&v.doc, sm, "v"), *st = get(&v.doc, sm, "t");
    ck_assert_int_le(len(st) / 3, PLN_VIEW_OBSTACLE_MAX_TRIANGLES);
    ck_assert_int_gt(len(st) / 3, 0);
    for (int i = 0; i < len(st); ++i) {
        int idx = (int)num(item(&v.doc, st, i));
        ck_assert(idx >= 0 && 3 * idx < len(sv));
    }
    /* the statue's world vertices: pos + rot (scale x) of points near the file's surface:
     * its height scales, its base stays on the floor */
    ck_assert_int_eq(dst_mesh_create_from_file(STATUE_STL, &statue, err, sizeof err), DST_OK);
    double zmax_file = 0.0, zmin = INFINITY, zmax = -INFINITY, cell = num(get(&v.doc, sm, "cell"));
    for (int i = 0; i < statue.n_vertices; ++i) zmax_file = fmax(zmax_file, statue.vertices[i][2]);
    for (int i = 0; i < len(sv); i += 3) {
        double z = num(item(&v.doc, sv, i + 2));
        zmin = fmin(zmin, z);
        zmax = fmax(zmax, z);
    }
    /* within the obstacles' display budget: embedded whole, not decimated */
    ck_assert(cell == 0.0);
    ck_assert_int_eq(len(st) / 3, statue.n_triangles);
    ck_assert_int_eq(len(sv) / 3, statue.n_vertices);
    ck_assert(zmin >= -VIEW_COORD_TOL && zmin <= sqrt(3.0) * cell + VIEW_COORD_TOL);
    ck_assert(zmax <= STATUE_SCALE * zmax_file + VIEW_COORD_TOL);
    ck_assert(zmax >= STATUE_SCALE * zmax_file - sqrt(3.0) * cell - VIEW_COORD_TOL);
    dst_mesh_destroy(&statue);
    /* the poses of every frame are the forward kinematics of the link */
    yaml_node_t *frames = get(&v.doc, v.root, "frames"), *t = get(&v.doc, frames, "t");
    yaml_node_t *poses = get(&v.doc, frames, "poses");
    int n = len(t);
    double *q = calloc((size_t)fx.p->n_joints, sizeof *q);
    ck_assert_int_eq(len(poses), n);
    ck_assert_int_eq(pln_kin_create(&fx.robot, &kin, err, sizeof err), PLN_OK);
    for (int s = 0; s < n; s += 7) {
        yaml_node_t *row = item(&v.doc, poses, s);
        ck_assert_int_eq(len(row), 12 * posed);
        ck_assert_int_eq(pln_problem_joints_at(fx.p, fx.ctrl, num(item(&v.doc, t, s)), q), PLN_OK);
        ck_assert_int_eq(pln_kin_forward(kin, &fx.robot, q), PLN_OK);
        int m = 0;
        for (int l = 0; l < fx.robot.n_links; ++l) {
            if (fx.robot.links[l].geometry.mesh_path[0] == '\0') continue;
            const double *R = pln_kin_link_rot(kin, l), *x = pln_kin_link_pos(kin, l);
            for (int e = 0; e < 9; ++e) ck_assert(fabs(num(item(&v.doc, row, 12 * m + e)) - R[e]) <= VIEW_COORD_TOL);
            for (int e = 0; e < 3; ++e) ck_assert(fabs(num(item(&v.doc, row, 12 * m + 9 + e)) - x[e]) <= VIEW_COORD_TOL);
            ++m;
        }
    }
    /* the obstacle is marked as a mesh; the page draws triangles */
    yaml_node_t *obst = get(&v.doc, v.root, "obstacles");
    ck_assert_str_eq(str(get(&v.doc, item(&v.doc, obst, fx.sc.n_obstacles - 1), "mesh")), "true");
    ck_assert(strstr(v.html, "new THREE.BufferGeometry()") != NULL);
    ck_assert(strstr(v.html, ".setIndex(") != NULL);
    free(q);
    pln_kin_destroy(kin);
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_ellipsoid_and_capsule_geometry)
{
    PlanFixture fx;
    ViewDoc v;
    /* ellipsoids: one closed outward UV ellipsoid per link, on its ellipsoid */
    mesh_fixture(&fx, PLN_GEOMETRY_ELLIPSOID);
    view_load(&v, &fx, NULL);
    ck_assert_str_eq(str(get(&v.doc, v.root, "geometry")), "ellipsoid");
    yaml_node_t *meshes = get(&v.doc, v.root, "meshes");
    ck_assert_int_eq(len(meshes), fx.robot.n_links + 1);
    const PlnLinkGeometry *g = &fx.robot.links[0].geometry;
    yaml_node_t *vs = get(&v.doc, item(&v.doc, meshes, 0), "v");
    for (int i = 0; i < len(vs); i += 3) {
        double d[3], val = 0.0;
        for (int k = 0; k < 3; ++k) d[k] = num(item(&v.doc, vs, i + k)) - g->ellipsoid_center[k];
        for (int k = 0; k < 3; ++k) {
            double y = (g->ellipsoid_rot[k] * d[0] + g->ellipsoid_rot[3 + k] * d[1] +
                        g->ellipsoid_rot[6 + k] * d[2]) / g->ellipsoid_radii[k];
            val += y * y;
        }
        ck_assert(fabs(sqrt(val) - 1.0) <= VIEW_COORD_TOL / g->ellipsoid_radii[2] * 10);
    }
    view_free(&v);
    /* convex: one hull per link mesh, convex (every vertex behind every face plane) */
    fx.sc.geometry = PLN_GEOMETRY_CONVEX;
    view_load(&v, &fx, NULL);
    ck_assert_str_eq(str(get(&v.doc, v.root, "geometry")), "convex");
    meshes = get(&v.doc, v.root, "meshes");
    ck_assert_int_eq(len(meshes), fx.robot.n_links + 1);
    for (int m = 0; m < fx.robot.n_links; m += 5) {
        yaml_node_t *hv = get(&v.doc, item(&v.doc, meshes, m), "v"), *ht = get(&v.doc, item(&v.doc, meshes, m), "t");
        int nv = len(hv) / 3, nt = len(ht) / 3;
        double *P = malloc((size_t)len(hv) * sizeof *P);
        ck_assert_ptr_nonnull(P);
        ck_assert_int_le(nt, PLN_VIEW_LINK_MAX_TRIANGLES);
        for (int i = 0; i < len(hv); ++i) P[i] = num(item(&v.doc, hv, i));
        for (int f = 0; f < nt; ++f) {
            const double *a = P + 3 * (int)num(item(&v.doc, ht, 3 * f)), *b = P + 3 * (int)num(item(&v.doc, ht, 3 * f + 1)),
                         *c = P + 3 * (int)num(item(&v.doc, ht, 3 * f + 2));
            double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
            double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (!(nn > 0.0)) continue;
            for (int i = 0; i < nv; ++i) {
                const double *x = P + 3 * i;
                double h = (n[0] * (x[0] - a[0]) + n[1] * (x[1] - a[1]) + n[2] * (x[2] - a[2])) / nn;
                ck_assert_msg(h <= 2 * VIEW_COORD_TOL, "mesh %d: vertex %d %g m outside face %d", m, i, h, f);
            }
        }
        free(P);
    }
    view_free(&v);
    /* capsules: no link mesh, only the mesh obstacle */
    fx.sc.geometry = PLN_GEOMETRY_CAPSULE;
    rebuild_problem(&fx);
    view_load(&v, &fx, NULL);
    meshes = get(&v.doc, v.root, "meshes");
    ck_assert_int_eq(len(meshes), 1);
    ck_assert_str_eq(str(get(&v.doc, item(&v.doc, meshes, 0), "obstacle")), "statue<&>");
    view_free(&v);
    plan_fixture_free(&fx);
}
END_TEST

START_TEST(test_missing_obstacle_mesh_writes_nothing)
{
    char dir[256], path[512], err[1024];
    PlanFixture fx;
    mesh_fixture(&fx, PLN_GEOMETRY_CAPSULE);
    snprintf(fx.sc.obstacles[fx.sc.n_obstacles - 1].mesh_path, sizeof fx.sc.obstacles[0].mesh_path,
             "/nonexistent/statue.stl");
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/view.html", dir);
    ck_assert_int_eq(pln_view_write(path, fx.p, fx.ctrl, NULL, PLN_VIEW_DEFAULT_FPS, err, sizeof err),
                     PLN_ERR_INVALID);
    ck_assert(strstr(err, "/nonexistent/statue.stl") != NULL);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
    plan_fixture_free(&fx);
}
END_TEST

Suite *pln_view_suite(void)
{
    Suite *s = suite_create("pln_view");
    TCase *tc = tcase_create("page");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_embedded_json_survives_markup_in_names);
    tcase_add_test(tc, test_frames_are_the_motion);
    tcase_add_test(tc, test_page_needs_no_network);
    tcase_add_test(tc, test_bad_fps_writes_nothing);
    tcase_add_test(tc, test_clearance_plot_is_the_closest_pairs);
    tcase_add_test(tc, test_com_zmp_and_support_polygon);
    suite_add_tcase(s, tc);
    tc = tcase_create("decimate");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_decimate_sphere);
    tcase_add_test(tc, test_decimate_statue);
    tcase_add_test(tc, test_decimate_small_and_bad);
    suite_add_tcase(s, tc);
    tc = tcase_create("meshes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mesh_geometry_embedded);
    tcase_add_test(tc, test_ellipsoid_and_capsule_geometry);
    tcase_add_test(tc, test_missing_obstacle_mesh_writes_nothing);
    suite_add_tcase(s, tc);
    return s;
}
