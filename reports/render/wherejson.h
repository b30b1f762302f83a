/* JSON's "profile" member: compare.sh --profile's blocks (profile/where.h). */
#ifndef MMDELTA_RENDER_WHEREJSON_H
#define MMDELTA_RENDER_WHEREJSON_H

#include <stdio.h>

#include "compare/report.h"

/* , "profile": [...] or null. */
void where_json(FILE *f, const struct report *rep);

#endif
