/*
 * Output formats.  Each renderer prints the whole report to f; every number
 * comes from struct report, so the formats agree by construction.
 */
#ifndef MMDELTA_RENDER_H
#define MMDELTA_RENDER_H

#include <stdio.h>

#include "compare/report.h"
#include "gate/gate.h"

void render_text(FILE *f, const struct report *rep);
void render_markdown(FILE *f, const struct report *rep);
void render_csv(FILE *f, const struct report *rep);
/* The kernel test robot's layout and names (render_lkp.c, docs/robot.md). */
void render_lkp(FILE *f, const struct report *rep);
/* gate may be NULL (no --gate): JSON then says "gate": null. */
void render_json(FILE *f, const struct report *rep, const struct gate *gate);
/*
 * The whole HTML page: systems, configs, tables, gate.  plots is the
 * directory the plots were drawn into (DIR/plots of --html DIR, linked as
 * plots/NAME); NULL: a page without figures.
 */
int render_html(FILE *f, const struct report *rep, const struct gate *gate,
		const char *plots, struct err *e);
int render_junit(const char *path, const struct report *rep,
		 const struct gate *gate, struct err *e);
/* Run name split at its last '-': the two header lines of the table. */
void header_parts(const char *name, char *first, char *second, size_t len);

#endif
