/*
 * The parts of the HTML page (render_html.c writes the page and its tables,
 * render_htmlsys.c what was compared: systems, runs, topology, configs).
 */
#ifndef MMDELTA_HTMLPAGE_H
#define MMDELTA_HTMLPAGE_H

#include <stdio.h>

#include "compare/report.h"

/* The header row of every per-run table: each run with its plot colour. */
void html_runs_header(FILE *f, const struct report *rep);
/* Systems (meta, differences highlighted), per-run facts, topology. */
void html_systems(FILE *f, const struct report *rep);
/* A bench's resolved config per run, differences highlighted. */
void html_config(FILE *f, const struct report *rep, const struct bench_cmp *b);
/* The whole of $MMDELTA_ROOT/reports/render/NAME (the CSS, the script). */
char *html_asset(const char *name, struct err *e);

#endif
