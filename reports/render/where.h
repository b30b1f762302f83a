/*
 * The "where" blocks of compare.sh --profile (profile/where.h), in each
 * format; the format's renderer calls it after a bench's tables (text,
 * markdown, HTML) or once for the document (JSON's "profile", wherejson.h).
 */
#ifndef MMDELTA_RENDER_WHERE_H
#define MMDELTA_RENDER_WHERE_H

#include <stdio.h>

#include "compare/report.h"
#include "render/wherejson.h"

/* The blocks of bench b (rep->benches index); nothing without --profile. */
void where_text(FILE *f, const struct report *rep, size_t b);
void where_markdown(FILE *f, const struct report *rep, size_t b);
/* <section>s with a table and plots/where-BENCH-POINT-RUN.svg (indexes) when plots is set. */
void where_html(FILE *f, const struct report *rep, size_t b, const char *plots);

#endif
