/* Text into HTML and XML (the page, JUnit): the one escaping function. */
#ifndef MMDELTA_MARKUP_H
#define MMDELTA_MARKUP_H

#include <stdio.h>

/* s with & < > " ' escaped: safe in element text and in quoted attributes. */
void markup_str(FILE *f, const char *s);

#endif
