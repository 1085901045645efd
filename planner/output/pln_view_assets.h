/* pln_view_assets.h — the static parts of view.html, as files in planner/output/view/
 * (view.html, the page with @@NAME@@ markers where pln_view.c writes the run's parts;
 * view.css; view.js) and three.js r111 (Debian's libjs-three three.min.js behind its
 * licence, planner/output/view/three-license.js). They are embedded at build time: tools/embed/embed.c writes
 * $(BUILD)/generated/pln_view_assets.c with these definitions (Makefile, "viewer
 * assets"). Each array ends with a NUL that its length does not count. */
#ifndef PLN_VIEW_ASSETS_H
#define PLN_VIEW_ASSETS_H

#include <stddef.h>

extern const char pln_view_page_html[];   /* planner/output/view/view.html */
extern const size_t pln_view_page_html_len;
extern const char pln_view_page_css[];    /* planner/output/view/view.css */
extern const size_t pln_view_page_css_len;
extern const char pln_view_page_js[];     /* planner/output/view/view.js */
extern const size_t pln_view_page_js_len;
extern const char pln_view_page_three[];  /* three-license.js + three.min.js */
extern const size_t pln_view_page_three_len;

#endif /* PLN_VIEW_ASSETS_H */
