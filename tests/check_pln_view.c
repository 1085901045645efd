/* check_pln_view.c — tests of planner/pln_view.c: view.html is one self-contained page
 * whose embedded JSON survives names full of markup, parses (libyaml reads JSON), and
 * holds per frame the capsules of the forward kinematics and the pair closest at that
 * time with witness points that realise its distance. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "check_util.h"
#include "dst_capsule.h"
#include "pln_certify.h"
#include "pln_kin.h"
#include "pln_table.h"
#include "pln_tolerance.h"
#include "pln_view.h"
#include "plan_fixture.h"

#define SCENARIO "tests/data/reach_pole.yaml"

/* Coordinates are embedded with 6 significant digits: on a robot within 2 m of the
 * origin that is within 1e-5 m. */
#define VIEW_COORD_TOL 1e-5
/* frame times carry 9 digits (s) */
#define VIEW_TIME_TOL 1e-8
/* motion of the fixture spline away from the initial posture (rad) */
#define FIXTURE_AMPLITUDE 0.4

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
    /* the fixture's names carry "</script>", "<b>" and "&amp;" */
    ck_assert(strstr(fx.sc.name, "</script>") != NULL);
    view_load(&v, &fx, NULL);
    /* only the page's own two script elements close */
    ck_assert_int_eq(count_of(v.html, "</script"), 2);
    ck_assert_int_eq(count_of(v.html, "<b>"), 0);
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
    ck_assert(strstr(v.html, "<title>hrpplan: reach_pole &lt;/script&gt;&lt;b&gt;&amp;amp;</title>") != NULL);
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

START_TEST(test_page_needs_no_network)
{
    PlanFixture fx;
    ViewDoc v;
    static const char *const banned[] = {"http:", "https:", "src=", "href=", "url(", "@import",
                                         "<link", "<img", "<iframe", "fetch(", "XMLHttpRequest"};
    plan_fixture_load(&fx, SCENARIO, FIXTURE_AMPLITUDE);
    view_load(&v, &fx, NULL);
    for (size_t i = 0; i < sizeof banned / sizeof banned[0]; ++i) {
        ck_assert_msg(strstr(v.html, banned[i]) == NULL, "view.html contains %s", banned[i]);
    }
    ck_assert(strstr(v.html, "Content-Security-Policy\" content=\"default-src 'none'") != NULL);
    ck_assert(strncmp(v.html, "<!DOCTYPE html>", 15) == 0);
    ck_assert(strstr(v.html, "</html>\n") != NULL);
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

Suite *pln_view_suite(void)
{
    Suite *s = suite_create("pln_view");
    TCase *tc = tcase_create("page");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_embedded_json_survives_markup_in_names);
    tcase_add_test(tc, test_frames_are_the_motion);
    tcase_add_test(tc, test_page_needs_no_network);
    tcase_add_test(tc, test_bad_fps_writes_nothing);
    suite_add_tcase(s, tc);
    return s;
}
