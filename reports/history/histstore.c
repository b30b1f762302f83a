/*
 * Recording one run in the history database, in one transaction: a run is
 * in the database whole or not at all.  The transaction is IMMEDIATE, so two
 * ingests of the same run at once are serialised (the second waits, then
 * finds the run there) rather than both inserting it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "histdb.h"
#include "histstore.h"

/* Prepare sql and bind its arguments: 't' text (NULL binds NULL), 'i' int64, 'd' double. */
static sqlite3_stmt *prep(sqlite3 *db, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	va_start(ap, types);
	for (int i = 0; types[i]; i++) {
		if (types[i] == 't')
			sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1, SQLITE_TRANSIENT);
		else if (types[i] == 'i')
			sqlite3_bind_int64(st, i + 1, va_arg(ap, sqlite3_int64));
		else
			sqlite3_bind_double(st, i + 1, va_arg(ap, double));
	}
	va_end(ap);
	return st;
}

/* Run a statement to completion; with a row, its first column into *id. */
static int run(sqlite3 *db, sqlite3_stmt *st, sqlite3_int64 *id, struct err *e)
{
	int rc;

	if (!st)
		return histdb_fail(db, "prepare", e);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && id)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return histdb_fail(db, "write", e);
	return rc == SQLITE_ROW ? 1 : 0;
}

static const char *run_name(const struct hist_run *r)
{
	const char *n = hist_meta(r, "name"), *slash = strrchr(r->dir, '/');

	return n && *n ? n : slash ? slash + 1 : r->dir;
}

static int insert_run(sqlite3 *db, const struct hist_run *r, sqlite3_int64 *id,
		      struct err *e)
{
	if (run(db, prep(db, "INSERT INTO runs (name, host, start_time, end_time, kernel_release,"
			 " kernel_version, command, clock, qemu_version, vm_image, suite_version,"
			 " status, digest, source) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			 "tttttttttttttt", run_name(r), hist_host(r), hist_meta(r, "start_time"),
			 hist_meta(r, "end_time"), hist_meta(r, "kernel_release"),
			 hist_meta(r, "kernel_version"), hist_meta(r, "command"), hist_clock(r),
			 hist_meta(r, "vm_qemu_version"), hist_meta(r, "vm_image"),
			 hist_meta(r, "suite_version"), hist_meta(r, "status"), r->digest, r->dir),
		NULL, e) < 0)
		return -1;
	*id = sqlite3_last_insert_rowid(db);
	for (size_t i = 0; i < r->n_meta; i++)
		if (run(db, prep(db, "INSERT INTO meta VALUES (?,?,?)", "itt", *id, r->keys[i],
				 r->values[i]), NULL, e) < 0)
			return -1;
	return 0;
}

/* The id of a row that is there or just inserted, for deduplicated tables. */
static int intern(sqlite3 *db, sqlite3_stmt *ins, sqlite3_stmt *sel, sqlite3_int64 *id,
		  struct err *e)
{
	if (run(db, ins, NULL, e) < 0) {
		sqlite3_finalize(sel);
		return -1;
	}
	return run(db, sel, id, e) == 1 ? 0 : histdb_fail(db, "lookup", e);
}

static int insert_samples(sqlite3 *db, sqlite3_int64 run_id, const struct hist_bench *hb,
			  const sqlite3_int64 *metric_ids, struct err *e)
{
	const struct bench_data *b = &hb->data;
	sqlite3_stmt *st = prep(db, "INSERT INTO samples VALUES (?,?,?,?,?)", "");

	if (!st)
		return histdb_fail(db, "prepare", e);
	for (size_t p = 0; p < b->n_params; p++)
		for (size_t m = 0; m < b->n_metrics; m++) {
			const struct series *s = bench_cell(b, p, 0, m);

			for (size_t i = 0; i < s->n; i++) {
				sqlite3_bind_int64(st, 1, run_id);
				sqlite3_bind_int64(st, 2, metric_ids[m]);
				sqlite3_bind_text(st, 3, b->params[p], -1, SQLITE_STATIC);
				sqlite3_bind_int64(st, 4, hb->iters[p * b->n_metrics + m][i]);
				sqlite3_bind_double(st, 5, s->v[i]);
				if (sqlite3_step(st) != SQLITE_DONE) {
					histdb_fail(db, "write", e);
					sqlite3_finalize(st);
					return -1;
				}
				sqlite3_reset(st);
			}
		}
	sqlite3_finalize(st);
	return 0;
}

static int insert_bench(sqlite3 *db, sqlite3_int64 run_id, const struct hist_bench *hb,
			struct err *e)
{
	const struct bench_data *b = &hb->data;
	sqlite3_int64 *ids = calloc(b->n_metrics + 1, sizeof(*ids)), cfg;
	int ret = 0;

	if (!ids)
		abort();
	for (size_t m = 0; m < b->n_metrics && !ret; m++) {
		const struct metric_def *d = &b->metrics[m];
		const char *dir = hist_direction(d);

		ret = intern(db, prep(db, "INSERT OR IGNORE INTO metrics (bench, name, label, unit,"
				      " direction, position) VALUES (?,?,?,?,?,?)", "ttttti", b->name,
				      d->name, d->label, d->unit, dir, (sqlite3_int64)m),
			     prep(db, "SELECT id FROM metrics WHERE bench = ? AND name = ? AND label = ?"
				  " AND unit = ? AND direction = ? AND position = ?", "ttttti", b->name,
				  d->name, d->label, d->unit, dir, (sqlite3_int64)m), &ids[m], e);
	}
	for (size_t p = 0; p < b->n_params && !ret; p++) {
		ret = intern(db, prep(db, "INSERT OR IGNORE INTO configs (bench, text) VALUES (?,?)", "tt",
				      b->name, hb->configs[p]),
			     prep(db, "SELECT id FROM configs WHERE bench = ? AND text = ?", "tt",
				  b->name, hb->configs[p]), &cfg, e);
		if (!ret)
			ret = run(db, prep(db, "INSERT INTO points VALUES (?,?,?,?)", "itti", run_id,
					   b->name, b->params[p], cfg), NULL, e) < 0 ? -1 : 0;
	}
	if (!ret)
		ret = insert_samples(db, run_id, hb, ids, e);
	free(ids);
	return ret;
}

static int store(sqlite3 *db, const struct hist_run *r, enum hist_outcome *out,
		 struct err *e)
{
	sqlite3_stmt *st = prep(db, "SELECT id, digest FROM runs WHERE name = ? AND host = ?"
				" AND start_time = ?", "ttt", run_name(r), hist_host(r),
				hist_meta(r, "start_time"));
	sqlite3_int64 id = 0;
	int found, same = 0;

	if (!st)
		return histdb_fail(db, "prepare", e);
	found = sqlite3_step(st) == SQLITE_ROW;
	if (found) {
		id = sqlite3_column_int64(st, 0);
		same = !strcmp((const char *)sqlite3_column_text(st, 1), r->digest);
	}
	sqlite3_finalize(st);
	*out = !found ? HIST_ADDED : same ? HIST_SAME : HIST_REPLACED;
	if (same)
		return 0;
	/* A copy with other contents (iterations added later): the directory
	 * is the truth, so its rows replace the old ones. */
	if (found && run(db, prep(db, "DELETE FROM runs WHERE id = ?", "i", id), NULL, e) < 0)
		return -1;
	if (insert_run(db, r, &id, e))
		return -1;
	for (size_t i = 0; i < r->n_benches; i++)
		if (insert_bench(db, id, &r->benches[i], e))
			return -1;
	return 0;
}

int hist_store(sqlite3 *db, const struct hist_run *r, enum hist_outcome *out,
	       struct err *e)
{
	if (histdb_exec(db, "BEGIN IMMEDIATE", e))
		return -1;
	if (store(db, r, out, e)) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return histdb_exec(db, "COMMIT", e);
}
