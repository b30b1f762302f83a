/*
 * Filling RESULTS/history.sqlite from run directories (histingest.c).
 * Progress and the runs left out go to stderr, one line each.
 */
#ifndef MMDELTA_HISTINGEST_H
#define MMDELTA_HISTINGEST_H

#include "histdb.h"

/*
 * Open ROOT/history.sqlite to write, building it from ROOT's runs when it
 * is missing (*built: by this process; *bad: runs that could not be read).
 */
int hist_open_root(sqlite3 **db, const char *root, int *built, size_t *bad, struct err *e);
/* Open ROOT/history.sqlite to read; without one, ROOT's runs read into a
 * database in memory: a reading command creates nothing. */
int hist_read_root(sqlite3 **db, const char *root, struct err *e);
/* Record the named runs (each read and checked before anything is written). */
int hist_ingest(const char *root, char *const *dirs, size_t n, struct err *e);
/* Record every complete run of root; *bad counts runs that could not be read. */
int hist_ingest_all(const char *root, size_t *bad, struct err *e);
/* A new database from every complete run of root, replacing the old file whole. */
int hist_rebuild(const char *root, size_t *bad, struct err *e);

#endif
