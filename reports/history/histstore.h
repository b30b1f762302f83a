/* Recording one run in the history database (histstore.c). */
#ifndef MMDELTA_HISTSTORE_H
#define MMDELTA_HISTSTORE_H

#include <sqlite3.h>

#include "histrun.h"
#include "base/err.h"

enum hist_outcome { HIST_ADDED, HIST_SAME, HIST_REPLACED };

/* Record r in one transaction; a run already there with the same digest is left alone. */
int hist_store(sqlite3 *db, const struct hist_run *r, enum hist_outcome *out,
	       struct err *e);

#endif
