/* pln_svg.c — small-multiple line/step charts as SVG 1.1. */
#include "base/pln_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/pln_atomic.h"

/* colour-blind-safe palette (Okabe-Ito) */
static const char *const PALETTE[8] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                       "#E69F00", "#56B4E9", "#000000", "#999999"};

#define MARGIN_LEFT 62.0
#define MARGIN_RIGHT 14.0
#define MARGIN_TOP 26.0
#define MARGIN_BOTTOM 40.0
#define FIG_HEADER 64.0

static const char *color_of(int i)
{
    return PALETTE[(i % 8 + 8) % 8];
}

void pln_svg_ticks(double lo, double hi, int target, double *first, double *step)
{
    double span, raw, mag, norm, s;
    if (target < 2) target = 2;
    if (!(hi > lo)) {
        double pad = fabs(lo) > 0.0 ? 0.1 * fabs(lo) : 1.0;
        lo -= pad;
        hi += pad;
    }
    span = hi - lo;
    raw = span / (double)(target - 1);
    mag = pow(10.0, floor(log10(raw)));
    norm = raw / mag;
    s = norm < 1.5 ? 1.0 : norm < 3.5 ? 2.0 : norm < 7.5 ? 5.0 : 10.0;
    *step = s * mag;
    *first = ceil(lo / *step) * *step;
}

/* xml-escaped text */
static void put_text(FILE *f, const char *s)
{
    for (; s && *s; ++s) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

typedef struct Range {
    double x0, x1, y0, y1;
} Range;

static void range_add(Range *r, double x, double y)
{
    if (isfinite(x)) {
        if (x < r->x0) r->x0 = x;
        if (x > r->x1) r->x1 = x;
    }
    if (isfinite(y)) {
        if (y < r->y0) r->y0 = y;
        if (y > r->y1) r->y1 = y;
    }
}

static void panel_range(const PlnPanel *p, Range *r)
{
    for (int s = 0; s < p->n_series; ++s) {
        const PlnSeries *se = &p->series[s];
        int nx = se->kind == PLN_SERIES_STEP ? se->n + 1 : se->n;
        for (int i = 0; i < nx; ++i) range_add(r, se->x[i], NAN);
        for (int i = 0; i < se->n; ++i) range_add(r, NAN, se->y[i]);
    }
    for (int h = 0; h < p->n_hlines; ++h) range_add(r, NAN, p->hlines[h].y);
}

/* makes an empty or flat range drawable and pads y a little */
static void range_finish(Range *r)
{
    if (!(r->x1 >= r->x0)) {
        r->x0 = 0.0;
        r->x1 = 1.0;
    }
    if (!(r->y1 >= r->y0)) {
        r->y0 = 0.0;
        r->y1 = 1.0;
    }
    if (r->x1 == r->x0) r->x1 = r->x0 + 1.0;
    if (r->y1 == r->y0) {
        double pad = fabs(r->y0) > 0.0 ? 0.1 * fabs(r->y0) : 1.0;
        r->y0 -= pad;
        r->y1 += pad;
    } else {
        double pad = 0.05 * (r->y1 - r->y0);
        r->y0 -= pad;
        r->y1 += pad;
    }
}

typedef struct Frame {
    double left, top, w, h;
    Range r;
} Frame;

static double px(const Frame *fr, double x)
{
    return fr->left + (x - fr->r.x0) / (fr->r.x1 - fr->r.x0) * fr->w;
}

static double py(const Frame *fr, double y)
{
    return fr->top + (fr->r.y1 - y) / (fr->r.y1 - fr->r.y0) * fr->h;
}

static void draw_axes(FILE *f, const Frame *fr, const PlnFigure *fig, const PlnPanel *p)
{
    double first, step;
    /* frame and title */
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"white\" "
               "stroke=\"%s\" stroke-width=\"%s\"/>\n",
            fr->left, fr->top, fr->w, fr->h, p->highlight ? "#D00000" : "#444444",
            p->highlight ? "2.5" : "1");
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"12\"%s>",
            fr->left + fr->w / 2, fr->top - 8, p->highlight ? " font-weight=\"bold\" fill=\"#D00000\"" : "");
    put_text(f, p->title);
    if (p->highlight) fputs(" (worst)", f);
    fputs("</text>\n", f);
    /* x ticks with grid */
    pln_svg_ticks(fr->r.x0, fr->r.x1, 6, &first, &step);
    for (double x = first; x <= fr->r.x1 + 1e-9 * step; x += step) {
        double X = px(fr, x);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>\n", X,
                fr->top, X, fr->top + fr->h);
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"10\">%g</text>\n",
                X, fr->top + fr->h + 13, fabs(x) < 1e-12 * step ? 0.0 : x);
    }
    /* y ticks with grid */
    pln_svg_ticks(fr->r.y0, fr->r.y1, 5, &first, &step);
    for (double y = first; y <= fr->r.y1 + 1e-9 * step; y += step) {
        double Y = py(fr, y);
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#e5e5e5\"/>\n",
                fr->left, Y, fr->left + fr->w, Y);
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" font-size=\"10\">%g</text>\n",
                fr->left - 4, Y + 3, fabs(y) < 1e-12 * step ? 0.0 : y);
    }
    /* axis labels */
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"11\">",
            fr->left + fr->w / 2, fr->top + fr->h + 30);
    put_text(f, fig->xlabel);
    fputs("</text>\n", f);
    fprintf(f, "<text transform=\"translate(%.2f,%.2f) rotate(-90)\" text-anchor=\"middle\" "
               "font-size=\"11\">",
            fr->left - 48, fr->top + fr->h / 2);
    put_text(f, fig->ylabel);
    fputs("</text>\n", f);
}

/* clips y to the frame so that off-scale values stay on the drawing */
static double clip_y(const Frame *fr, double y)
{
    return y < fr->r.y0 ? fr->r.y0 : y > fr->r.y1 ? fr->r.y1 : y;
}

static void draw_series(FILE *f, const Frame *fr, const PlnSeries *s)
{
    int open = 0;
    const char *dash = s->dashed ? " stroke-dasharray=\"5,3\"" : "";
    for (int i = 0; i < s->n; ++i) {
        double x = s->x[i], y = s->y[i];
        int ok = isfinite(x) && isfinite(y) &&
                 (s->kind == PLN_SERIES_LINE || isfinite(s->x[i + 1]));
        if (!ok) {
            if (open) fputs("\"/>\n", f);
            open = 0;
            continue;
        }
        if (!open) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"",
                    color_of(s->color), dash);
            open = 1;
        }
        if (s->kind == PLN_SERIES_LINE) {
            fprintf(f, "%.2f,%.2f ", px(fr, x), py(fr, clip_y(fr, y)));
        } else {
            fprintf(f, "%.2f,%.2f %.2f,%.2f ", px(fr, x), py(fr, clip_y(fr, y)),
                    px(fr, s->x[i + 1]), py(fr, clip_y(fr, y)));
        }
    }
    if (open) fputs("\"/>\n", f);
}

static PlnStatus validate(const PlnFigure *fig, const char *path, char *err, size_t err_size)
{
    if (fig->n_panels < 1 || fig->panels == NULL || fig->columns < 1 ||
        !(fig->panel_width > 0) || !(fig->panel_height > 0)) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size,
                          "%s: figure needs panels, columns >= 1 and a positive panel size", path);
    }
    for (int p = 0; p < fig->n_panels; ++p) {
        const PlnPanel *pa = &fig->panels[p];
        if (pa->n_series < 0 || (pa->n_series > 0 && pa->series == NULL) || pa->n_hlines < 0 ||
            (pa->n_hlines > 0 && pa->hlines == NULL)) {
            return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: panel %d is malformed", path, p);
        }
        for (int s = 0; s < pa->n_series; ++s) {
            if (pa->series[s].n < 1 || pa->series[s].x == NULL || pa->series[s].y == NULL) {
                return pln_errorf(PLN_ERR_INVALID, err, err_size,
                                  "%s: panel %d series %d has no data", path, p, s);
            }
        }
    }
    return PLN_OK;
}

/* one legend entry per distinct label, from every panel */
static void draw_legend(FILE *f, const PlnFigure *fig, double y)
{
    const char *seen[32];
    int n_seen = 0;
    double x = MARGIN_LEFT;
    for (int p = 0; p < fig->n_panels; ++p) {
        const PlnPanel *pa = &fig->panels[p];
        for (int k = 0; k < pa->n_series + pa->n_hlines; ++k) {
            const char *label;
            int color, dashed, dup = 0;
            if (k < pa->n_series) {
                label = pa->series[k].label;
                color = pa->series[k].color;
                dashed = pa->series[k].dashed;
            } else {
                label = pa->hlines[k - pa->n_series].label;
                color = pa->hlines[k - pa->n_series].color;
                dashed = pa->hlines[k - pa->n_series].dashed;
            }
            if (label == NULL || *label == '\0') continue;
            for (int i = 0; i < n_seen; ++i) dup |= strcmp(seen[i], label) == 0;
            if (dup || n_seen == 32) continue;
            seen[n_seen++] = label;
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                       "stroke-width=\"2\"%s/>\n",
                    x, y, x + 22, y, color_of(color), dashed ? " stroke-dasharray=\"5,3\"" : "");
            fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\">", x + 27, y + 4);
            put_text(f, label);
            fputs("</text>\n", f);
            x += 40 + 6.5 * (double)strlen(label);
        }
    }
}

PlnStatus pln_svg_write(const char *path, const PlnFigure *fig, char *err, size_t err_size)
{
    PlnAtomicFile af;
    PlnStatus st = validate(fig, path, err, err_size);
    int rows;
    double cell_w, cell_h, width, height;
    Range shared = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    FILE *f;

    if (st != PLN_OK) return st;
    rows = (fig->n_panels + fig->columns - 1) / fig->columns;
    cell_w = MARGIN_LEFT + fig->panel_width + MARGIN_RIGHT;
    cell_h = MARGIN_TOP + fig->panel_height + MARGIN_BOTTOM;
    width = cell_w * (fig->n_panels < fig->columns ? fig->n_panels : fig->columns);
    height = FIG_HEADER + cell_h * rows;
    for (int p = 0; p < fig->n_panels; ++p) panel_range(&fig->panels[p], &shared);

    st = pln_atomic_open(&af, path, err, err_size);
    if (st != PLN_OK) return st;
    f = af.fp;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
               "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
            width, height, width, height);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%.2f\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", MARGIN_LEFT);
    put_text(f, fig->title);
    fputs("</text>\n", f);
    draw_legend(f, fig, 44);
    for (int p = 0; p < fig->n_panels; ++p) {
        const PlnPanel *pa = &fig->panels[p];
        Frame fr;
        Range r = {INFINITY, -INFINITY, INFINITY, -INFINITY};
        panel_range(pa, &r);
        if (fig->shared_y) {
            r.y0 = shared.y0;
            r.y1 = shared.y1;
        }
        range_finish(&r);
        fr.r = r;
        fr.left = (p % fig->columns) * cell_w + MARGIN_LEFT;
        fr.top = FIG_HEADER + (p / fig->columns) * cell_h + MARGIN_TOP;
        fr.w = fig->panel_width;
        fr.h = fig->panel_height;
        fputs("<g>\n", f);
        draw_axes(f, &fr, fig, pa);
        for (int h = 0; h < pa->n_hlines; ++h) {
            const PlnHLine *hl = &pa->hlines[h];
            if (!isfinite(hl->y) || hl->y < r.y0 || hl->y > r.y1) continue;
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                       "stroke-width=\"1.2\"%s/>\n",
                    fr.left, py(&fr, hl->y), fr.left + fr.w, py(&fr, hl->y), color_of(hl->color),
                    hl->dashed ? " stroke-dasharray=\"5,3\"" : "");
        }
        for (int s = 0; s < pa->n_series; ++s) draw_series(f, &fr, &pa->series[s]);
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
    return pln_atomic_commit(&af, err, err_size);
}
