/* pln_view.h — view.html: a self-contained 3-D playback of a planned motion.
 *
 * Contract. pln_view_write() samples the motion at `fps` frames per second (the last
 * frame exactly at the end) and writes ONE HTML file that needs nothing else: the data
 * are embedded as JSON in a <script type="application/json" id="hrpplan-data"> element
 * (every '<', '>' and '&' inside it written as a \u escape, so no text of the data can
 * close the element), the renderer is a small canvas-2D script written here (capsules
 * are drawn as their exact orthographic outline, a thick segment with round caps, in
 * depth order), and a Content-Security-Policy of default-src 'none' keeps the page off
 * the network. Per frame it embeds every link capsule's world endpoints (metres, 6
 * significant digits) and the pair with the smallest static capsule distance (thesis
 * eq. 3.1) at that frame with its witness points; obstacles are static. The page has a
 * time slider, play/pause, a speed choice, mouse orbit and zoom, and shows each pair's
 * certified MCD lower bound from the certificate. `#frame=K` or `#t=SECONDS` in the URL
 * selects the first frame shown; window.hrpplanView exposes frames, setFrame(k) and the
 * state, for scripts and the browser test. Written atomically.
 *
 * The embedded JSON ("format": "hrpplan-view", docs/FILE_FORMATS.md):
 *   scenario, robot, certified, duration (s), eps (m), min_clearance (m or null),
 *   links[{name, radius, color}], obstacles[{name, p0, p1, radius}],
 *   pairs[{a, b, mcd_lower, t_min}],
 *   frames{fps, t[n], capsules[n][6 * links], worst[n] = [pair, distance, pA(3), pB(3)]
 *   or null when there are no pairs}. */
#ifndef PLN_VIEW_H
#define PLN_VIEW_H

#include <stddef.h>

#include "pln_certify.h"
#include "pln_problem.h"

/* Default frames per second of view.html and the most frames it embeds (a longer motion
 * gets a lower frame rate). */
#define PLN_VIEW_DEFAULT_FPS 30.0
#define PLN_VIEW_MAX_FRAMES 6000

/* The id of the script element that carries the JSON (tests extract it by this). */
#define PLN_VIEW_DATA_ID "hrpplan-data"

/* Writes view.html of the motion ctrl of problem p. Nullable: cert (then no certified
 * figures are shown and the page says "not certified"). PLN_ERR_INVALID for fps <= 0 or
 * a non-finite number in the data (nothing written), PLN_ERR_IO, PLN_ERR_NOMEM. */
PlnStatus pln_view_write(const char *path, const PlnProblem *p, const double *ctrl,
                         const PlnCertificate *cert, double fps, char *err, size_t err_size);

#endif /* PLN_VIEW_H */
