/* pln_svg.h — SVG figures without a plotting dependency.
 *
 * A figure is a grid of panels (small multiples); a panel has line or step series and
 * horizontal reference lines over shared axes of its own. Axis ranges come from the data
 * (optionally shared across panels) with 1-2-5 ticks. Used for distance.svg (clearance of
 * every collision pair over time, certified MCD per span as steps, eps as a line; thesis
 * Fig. 6.5) and joints.svg (joint trajectories with their limits). Non-finite points
 * break a line instead of corrupting the file. Written atomically. */
#ifndef PLN_SVG_H
#define PLN_SVG_H

#include <stddef.h>

#include "base/pln_status.h"

typedef enum PlnSeriesKind {
    PLN_SERIES_LINE = 0,   /* n points (x[i], y[i]) joined by straight segments */
    PLN_SERIES_STEP        /* n steps: value y[i] on [x[i], x[i+1]]; x has n + 1 entries */
} PlnSeriesKind;

typedef struct PlnSeries {
    const char *label;     /* legend text; series of equal label share one legend entry */
    PlnSeriesKind kind;
    int n;
    const double *x;       /* borrowed; n entries (LINE) or n + 1 (STEP) */
    const double *y;       /* borrowed; n entries */
    int color;             /* palette index, 0..7 */
    int dashed;
} PlnSeries;

typedef struct PlnHLine {
    const char *label;     /* legend text */
    double y;
    int color;
    int dashed;
} PlnHLine;

typedef struct PlnPanel {
    const char *title;     /* e.g. "RARM_LINK6 - LARM_LINK6" */
    int highlight;         /* drawn with a red frame and bold title (the worst pair) */
    const PlnSeries *series;
    int n_series;
    const PlnHLine *hlines;
    int n_hlines;
} PlnPanel;

typedef struct PlnFigure {
    const char *title;
    const char *xlabel;    /* with unit, e.g. "time [s]" */
    const char *ylabel;    /* with unit, e.g. "clearance [m]" */
    int columns;           /* panels per row, >= 1 */
    double panel_width;    /* px, e.g. 320 */
    double panel_height;   /* px, e.g. 200 */
    int shared_y;          /* 1: one y range for all panels */
    const PlnPanel *panels;
    int n_panels;
} PlnFigure;

/* Chooses `*step` and the first tick `*first` (a multiple of step) for about `target`
 * ticks over [lo, hi] with 1-2-5 spacing; handles lo == hi. */
void pln_svg_ticks(double lo, double hi, int target, double *first, double *step);

/* Writes the figure to `path` (atomically). PLN_ERR_INVALID for an empty or malformed
 * figure (no panels, columns < 1, a series with n < 1 or NULL arrays). */
PlnStatus pln_svg_write(const char *path, const PlnFigure *figure, char *err, size_t err_size);

#endif /* PLN_SVG_H */
