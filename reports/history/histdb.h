/*
 * The history database, RESULTS/history.sqlite: every complete run of a
 * results root, recorded for change-point detection over time.  The run
 * directories stay the truth; the database can always be rebuilt from them.
 * Schema and reasons: docs/history.md.
 */
#ifndef MMDELTA_HISTDB_H
#define MMDELTA_HISTDB_H

#include <sqlite3.h>
#include <stddef.h>

#include "base/err.h"

#define HIST_SCHEMA_VERSION 1
/* PRAGMA application_id: "mmdh", so a foreign SQLite file is recognised. */
#define HIST_APP_ID 0x6d6d6468

/* Reading commands open the database read-only: a user may read root's history. */
enum histdb_mode { HISTDB_READ, HISTDB_WRITE };

/*
 * Open an existing database; refuse, naming `rebuild`, a file that is not
 * SQLite, not ours, or of another schema version, and say "permission
 * denied" (never "rebuild") when this user may not read or write it.
 * *missing is set (and nothing opened) when there is no file.
 */
int histdb_open(sqlite3 **db, const char *path, enum histdb_mode mode, int *missing, struct err *e);
/* 0 when a database read as immutable (histdb_open, a reader that may not
 * create its -shm) changed while it was read: read it again. */
int histdb_unchanged(sqlite3 *db);
/* Create the schema in a new, empty file (or ":memory:"). */
int histdb_create(sqlite3 **db, const char *path, struct err *e);
int histdb_exec(sqlite3 *db, const char *sql, struct err *e);
/* The one line for a failed call: damage names rebuild; a lock, permission
 * and anything else say what they are. */
int histdb_fail(sqlite3 *db, const char *what, struct err *e);

#endif
