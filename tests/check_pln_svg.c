/* check_pln_svg.c — tests of planner/base/pln_svg.c; every figure is rendered by librsvg. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "check_util.h"
#include "base/pln_svg.h"

/* tick spacing must be 1, 2 or 5 times a power of ten */
#define TICK_MANTISSA_TOL 1e-9

START_TEST(test_ticks_1_2_5)
{
    const double ranges[][2] = {{0, 1}, {0, 7.3}, {-0.0123, 0.456}, {3, 3}, {-2e-4, -1e-4},
                                {0, 1e6}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; ++i) {
        double first, step, m;
        pln_svg_ticks(ranges[i][0], ranges[i][1], 6, &first, &step);
        ck_assert(step > 0.0 && isfinite(first));
        m = step / pow(10.0, floor(log10(step) + TICK_MANTISSA_TOL));
        ck_assert_msg(fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 || fabs(m - 5) < 1e-6,
                      "range %zu step %g", i, step);
        if (ranges[i][1] > ranges[i][0]) {
            ck_assert(first >= ranges[i][0] - TICK_MANTISSA_TOL * step);
            ck_assert(first < ranges[i][0] + step);
            /* between 3 and 12 ticks for a target of 6 */
            ck_assert((ranges[i][1] - first) / step >= 2.0);
            ck_assert((ranges[i][1] - first) / step <= 11.0);
        }
    }
}
END_TEST

/* renders an svg to png with rsvg-convert; returns the png size or -1 */
static long render(const char *svg, const char *png)
{
    char cmd[1200];
    struct stat sb;
    int st;
    snprintf(cmd, sizeof cmd, "rsvg-convert -o '%s' '%s' 2>/dev/null", png, svg);
    st = system(cmd);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1;
    if (stat(png, &sb) != 0) return -1;
    return (long)sb.st_size;
}

START_TEST(test_figure_renders)
{
    char dir[256], svg[512], png[512], err[256];
    double t[101], d[101], edges[11], mcd[10];
    PlnSeries series[2][2];
    PlnHLine eps = {"eps = 1 mm", 1e-3, 1, 1};
    PlnPanel panels[3];
    PlnFigure fig = {"Clearance <pairs> & \"spans\"", "time [s]", "clearance [m]", 2, 300, 180, 0,
                     panels, 3};
    ckutil_mkdtemp(dir, sizeof dir);
    for (int i = 0; i <= 100; ++i) {
        t[i] = 0.02 * i;
        d[i] = 0.05 + 0.04 * sin(6.0 * t[i]);
    }
    d[50] = NAN; /* breaks the line, never the file */
    for (int k = 0; k <= 10; ++k) edges[k] = 0.2 * k;
    for (int k = 0; k < 10; ++k) mcd[k] = 0.01 + 0.005 * k;
    for (int p = 0; p < 2; ++p) {
        series[p][0] = (PlnSeries){"sampled clearance", PLN_SERIES_LINE, 101, t, d, 0, 0};
        series[p][1] = (PlnSeries){"certified MCD per span", PLN_SERIES_STEP, 10, edges, mcd, 2, 0};
    }
    panels[0] = (PlnPanel){"RARM_LINK6 - LARM_LINK6", 1, series[0], 2, &eps, 1};
    panels[1] = (PlnPanel){"CHEST - RARM_LINK5", 0, series[1], 2, &eps, 1};
    panels[2] = (PlnPanel){"empty", 0, NULL, 0, NULL, 0};
    snprintf(svg, sizeof svg, "%s/distance.svg", dir);
    snprintf(png, sizeof png, "%s/distance.png", dir);
    ck_assert_msg(pln_svg_write(svg, &fig, err, sizeof err) == PLN_OK, "%s", err);
    ck_assert_int_gt(render(svg, png), 1000);
    fig.shared_y = 1;
    ck_assert_int_eq(pln_svg_write(svg, &fig, err, sizeof err), PLN_OK);
    ck_assert_int_gt(render(svg, png), 1000);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_renderer_rejects_broken_svg)
{
    /* the rendering check can fail: a truncated file is refused by librsvg */
    char dir[256], svg[512], png[512];
    FILE *f;
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(svg, sizeof svg, "%s/broken.svg", dir);
    snprintf(png, sizeof png, "%s/broken.png", dir);
    f = fopen(svg, "w");
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\"><g><rect", f);
    fclose(f);
    ck_assert_int_eq(render(svg, png), -1);
    ckutil_rm_flat(dir);
}
END_TEST

START_TEST(test_invalid_figures)
{
    char dir[256], svg[512], err[256];
    double x[2] = {0, 1}, y[2] = {0, 1};
    PlnSeries bad = {"s", PLN_SERIES_LINE, 0, x, y, 0, 0};
    PlnPanel panel = {"p", 0, &bad, 1, NULL, 0};
    PlnFigure fig = {"t", "x", "y", 1, 100, 100, 0, &panel, 1};
    PlnFigure none = {"t", "x", "y", 1, 100, 100, 0, NULL, 0};
    ckutil_mkdtemp(dir, sizeof dir);
    snprintf(svg, sizeof svg, "%s/x.svg", dir);
    ck_assert_int_eq(pln_svg_write(svg, &fig, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(pln_svg_write(svg, &none, err, sizeof err), PLN_ERR_INVALID);
    fig.columns = 0;
    bad.n = 2;
    ck_assert_int_eq(pln_svg_write(svg, &fig, err, sizeof err), PLN_ERR_INVALID);
    ck_assert_int_eq(ckutil_count_entries(dir), 0);
    ckutil_rm_flat(dir);
}
END_TEST

Suite *pln_svg_suite(void)
{
    Suite *s = suite_create("pln_svg");
    TCase *tc = tcase_create("ticks");
    tcase_add_test(tc, test_ticks_1_2_5);
    suite_add_tcase(s, tc);
    tc = tcase_create("render");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_figure_renders);
    tcase_add_test(tc, test_renderer_rejects_broken_svg);
    tcase_add_test(tc, test_invalid_figures);
    suite_add_tcase(s, tc);
    return s;
}
