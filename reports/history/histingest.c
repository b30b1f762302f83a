/*
 * Filling the history database from run directories: ingest (some runs),
 * rebuild (every complete run of the results root, into a new file that
 * replaces the old one whole), and opening the database of a root, rebuilt
 * first when it is missing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "histingest.h"
#include "histrun.h"
#include "histstore.h"
#include "rundir/runinfo.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The complete runs of a root, by name; partial ones (.NAME.partial, or a
 * status other than complete) are not runs yet. */
static char **complete_runs(const char *root, size_t *n)
{
	DIR *dir = opendir(root);
	struct dirent *de;
	char **list = NULL, path[4096];

	*n = 0;
	while (dir && (de = readdir(dir))) {
		struct run_info ri;
		struct err e;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, de->d_name);
		if (!run_info_load(&ri, path, &e) && !ri.partial) {
			list = realloc(list, (*n + 1) * sizeof(*list));
			if (!list || !(list[(*n)++] = strdup(path)))
				abort();
		}
		run_info_free(&ri);
	}
	if (dir)
		closedir(dir);
	qsort(list, *n, sizeof(*list), cmp_str);
	return list;
}

static const char *const outcome_words[] = {
	[HIST_ADDED] = "recorded", [HIST_SAME] = "already recorded",
	[HIST_REPLACED] = "recorded again (its files changed)",
};

static int store_one(sqlite3 *db, const struct hist_run *r, int quiet, struct err *e)
{
	enum hist_outcome out;

	if (hist_store(db, r, &out, e))
		return -1;
	if (!quiet)
		fprintf(stderr, "history: %s %s\n", r->dir, outcome_words[out]);
	return 0;
}

/* Every complete run of root into db; a run that cannot be read is named
 * and left out (*bad counts them), *stored counts those recorded. */
static int fill(sqlite3 *db, const char *root, size_t *stored, size_t *bad, struct err *e)
{
	size_t n;
	char **runs = complete_runs(root, &n);
	int ret = 0;

	*bad = *stored = 0;
	for (size_t i = 0; i < n && !ret; i++) {
		struct hist_run r;

		if (hist_run_read(&r, runs[i], e)) {
			fprintf(stderr, "history: %s; left out\n", e->msg);
			(*bad)++;
		} else {
			ret = store_one(db, &r, 1, e);
			*stored += ret == 0;
		}
		hist_run_free(&r);
	}
	for (size_t i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
	return ret;
}

static void say_filled(const char *root, size_t stored, size_t bad)
{
	fprintf(stderr, "history: %zu run%s of %s recorded", stored, stored == 1 ? "" : "s", root);
	if (bad)
		fprintf(stderr, "; %zu could not be read, left out", bad);
	fputc('\n', stderr);
}

/* A new database of every run of root, at tmp (a file, or ":memory:");
 * synchronous off: a file is only put in place once complete. */
static int build(const char *root, const char *tmp, sqlite3 **out, size_t *stored, size_t *bad,
		 struct err *e)
{
	sqlite3 *db;
	int ret;

	if (histdb_create(&db, tmp, e))
		return -1;
	ret = histdb_exec(db, "PRAGMA synchronous = OFF", e);
	if (!ret)
		ret = fill(db, root, stored, bad, e);
	if (out && !ret) {
		*out = db;
		return 0;
	}
	if (sqlite3_close(db) != SQLITE_OK && !ret)
		ret = err_set(e, "%s: cannot close", tmp);
	return ret;
}

static int make_tmp(const char *root, char *tmp, size_t size, struct err *e)
{
	int fd;

	snprintf(tmp, size, "%s/.history.sqlite.XXXXXX", root);
	fd = mkstemp(tmp);
	if (fd < 0)
		return err_set(e, "%s: cannot create a file here: %s", root, strerror(errno));
	/* mkstemp's 0600 would keep the database from the root's other readers */
	mode_t mask = umask(0);

	umask(mask);
	fchmod(fd, 0666 & ~mask);
	close(fd);
	return 0;
}

static void db_path(const char *root, char *path, size_t size)
{
	snprintf(path, size, "%s/history.sqlite", root);
}

int hist_rebuild(const char *root, size_t *bad, struct err *e)
{
	char path[4096], tmp[4096], side[4200];
	size_t stored;
	int ret;

	db_path(root, path, sizeof(path));
	if (make_tmp(root, tmp, sizeof(tmp), e))
		return -1;
	ret = build(root, tmp, NULL, &stored, bad, e);
	if (!ret) {
		/* The old file's WAL must not be replayed onto the new one. */
		snprintf(side, sizeof(side), "%s-wal", path);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", path);
		unlink(side);
		if (rename(tmp, path))
			ret = err_set(e, "%s: cannot replace: %s", path, strerror(errno));
	}
	if (ret)
		unlink(tmp);
	else
		say_filled(root, stored, *bad);
	return ret;
}

/*
 * A missing database, created whole against a racing creator: built in a
 * file of our own, then linked into place, which fails if another process
 * put its own there first.  Then theirs is used (*built stays 0), and the
 * caller records its runs into it as into any existing database.
 */
static int create(const char *root, const char *path, int *built, size_t *bad, struct err *e)
{
	char tmp[4096];
	size_t stored;

	if (make_tmp(root, tmp, sizeof(tmp), e))
		return -1;
	if (build(root, tmp, NULL, &stored, bad, e)) {
		unlink(tmp);
		return -1;
	}
	if (!link(tmp, path)) {
		*built = 1;
		say_filled(root, stored, *bad);
	} else if (errno != EEXIST) {
		err_set(e, "%s: cannot create: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	unlink(tmp);
	return 0;
}

int hist_open_root(sqlite3 **db, const char *root, int *built, size_t *bad, struct err *e)
{
	char path[4096];
	int missing;

	db_path(root, path, sizeof(path));
	*built = 0;
	*bad = 0;
	if (histdb_open(db, path, HISTDB_WRITE, &missing, e))
		return -1;
	if (!missing)
		return 0;
	fprintf(stderr, "history: no %s yet; building it from the runs there\n", path);
	if (create(root, path, built, bad, e))
		return -1;
	return histdb_open(db, path, HISTDB_WRITE, &missing, e);
}

int hist_read_root(sqlite3 **db, const char *root, struct err *e)
{
	char path[4096];
	size_t n, stored, bad;
	int missing;
	char **runs;

	db_path(root, path, sizeof(path));
	if (histdb_open(db, path, HISTDB_READ, &missing, e))
		return -1;
	if (!missing)
		return 0;
	/* a reading command writes nothing: the runs are read into memory */
	runs = complete_runs(root, &n);
	for (size_t i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
	if (n)
		fprintf(stderr, "history: no %s; reading the %zu run%s there (./history.sh ingest records them)\n",
			path, n, n == 1 ? "" : "s");
	return build(root, ":memory:", db, &stored, &bad, e);
}

int hist_ingest(const char *root, char *const *dirs, size_t n, struct err *e)
{
	struct hist_run *runs = calloc(n + 1, sizeof(*runs));
	sqlite3 *db = NULL;
	int ret = 0, built;
	size_t bad;

	if (!runs)
		abort();
	/* every named run is read and checked before anything is written */
	for (size_t i = 0; i < n && !ret; i++)
		ret = hist_run_read(&runs[i], dirs[i], e);
	if (!ret)
		ret = hist_open_root(&db, root, &built, &bad, e);
	if (!ret)
		ret = histdb_exec(db, "PRAGMA synchronous = NORMAL", e);
	for (size_t i = 0; i < n && !ret; i++)
		ret = store_one(db, &runs[i], 0, e);
	for (size_t i = 0; i < n; i++)
		hist_run_free(&runs[i]);
	free(runs);
	sqlite3_close(db);
	return ret;
}

int hist_ingest_all(const char *root, size_t *bad, struct err *e)
{
	sqlite3 *db;
	size_t stored;
	int ret, built;

	if (hist_open_root(&db, root, &built, bad, e))
		return -1;
	ret = histdb_exec(db, "PRAGMA synchronous = NORMAL", e);
	if (!ret && !built) {
		ret = fill(db, root, &stored, bad, e);
		if (!ret)
			say_filled(root, stored, *bad);
	}
	sqlite3_close(db);
	return ret;
}
