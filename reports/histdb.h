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

#include "benchdata.h"
#include "err.h"

#define HIST_SCHEMA_VERSION 1
/* PRAGMA application_id: "mmdh", so a foreign SQLite file is recognised. */
#define HIST_APP_ID 0x6d6d6468

/*
 * Open an existing database for use; refuse, naming `rebuild`, a file that
 * is not SQLite, not ours, or of another schema version.  *missing is set
 * (and nothing opened) when there is no file.
 */
int histdb_open(sqlite3 **db, const char *path, int *missing, struct err *e);
/* Create the schema in a new, empty file. */
int histdb_create(sqlite3 **db, const char *path, struct err *e);
int histdb_exec(sqlite3 *db, const char *sql, struct err *e);
int histdb_fail(sqlite3 *db, const char *what, struct err *e);

/* What one run directory holds, read before any write (histrun.c). */
struct hist_bench {
	char *name;
	struct bench_data data;		/* one run; metrics = every declared metric */
	char **configs;			/* per param of data: the resolved config */
	long **iters;			/* per cell of data: each value's iteration */
};

struct hist_run {
	char *dir;
	char **keys, **values;		/* meta, in file order */
	size_t n_meta;
	struct hist_bench *benches;
	size_t n_benches;
	char digest[17];		/* of everything recorded, to tell a changed copy */
};

int hist_run_read(struct hist_run *r, const char *dir, struct err *e);
void hist_run_free(struct hist_run *r);
const char *hist_meta(const struct hist_run *r, const char *key);
/* The clock that timed the run: meta's clock:, else icount when the VM said so. */
const char *hist_clock(const struct hist_run *r);
/* metrics.tsv's word for which way is better: lower, higher. */
const char *hist_direction(const struct metric_def *m);
/* The machine that measured: the VM's host for a --kernel run. */
const char *hist_host(const struct hist_run *r);

enum hist_outcome { HIST_ADDED, HIST_SAME, HIST_REPLACED };

/* Record r in one transaction; a run already there with the same digest is left alone. */
int hist_store(sqlite3 *db, const struct hist_run *r, enum hist_outcome *out,
	       struct err *e);

/* The resolved config of one swept value from BENCH/config's lines. */
char *hist_config_for(char *const *lines, size_t n, const char *param);

#endif
