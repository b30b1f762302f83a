/* Opening, creating and checking RESULTS/history.sqlite (see histdb.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "histdb.h"

/* The schema, version HIST_SCHEMA_VERSION; docs/history.md explains it. */
static const char *const schema =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL,"
	" host TEXT NOT NULL,"
	" start_time TEXT NOT NULL,"
	" end_time TEXT,"
	" kernel_release TEXT,"
	" kernel_version TEXT,"
	" command TEXT,"
	" clock TEXT NOT NULL CHECK (clock IN ('realtime', 'icount')),"
	" qemu_version TEXT,"
	" vm_image TEXT,"
	" suite_version TEXT,"
	" status TEXT NOT NULL,"
	" digest TEXT NOT NULL,"
	" source TEXT NOT NULL,"
	" UNIQUE (name, host, start_time));"
	"CREATE TABLE meta ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, value TEXT NOT NULL,"
	" PRIMARY KEY (run_id, key)) WITHOUT ROWID;"
	"CREATE TABLE metrics ("
	" id INTEGER PRIMARY KEY,"
	" bench TEXT NOT NULL, name TEXT NOT NULL, label TEXT NOT NULL,"
	" unit TEXT NOT NULL, direction TEXT NOT NULL,"
	" position INTEGER NOT NULL,"
	" UNIQUE (bench, name, label, unit, direction, position));"
	"CREATE TABLE configs ("
	" id INTEGER PRIMARY KEY,"
	" bench TEXT NOT NULL, text TEXT NOT NULL,"
	" UNIQUE (bench, text));"
	"CREATE TABLE points ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" bench TEXT NOT NULL, param TEXT NOT NULL,"
	" config_id INTEGER NOT NULL REFERENCES configs(id),"
	" PRIMARY KEY (run_id, bench, param)) WITHOUT ROWID;"
	"CREATE TABLE samples ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" metric_id INTEGER NOT NULL REFERENCES metrics(id),"
	" param TEXT NOT NULL, iteration INTEGER NOT NULL, value REAL NOT NULL,"
	" PRIMARY KEY (run_id, metric_id, param, iteration)) WITHOUT ROWID;";

static const char *const rebuild_hint = "./history.sh rebuild recreates it from the run directories";

/* Every connection waits this long (s) for another's lock before it fails;
 * MMDELTA_HISTORY_WAIT changes it (the tests' held lock). */
static int busy_seconds(void)
{
	const char *v = getenv("MMDELTA_HISTORY_WAIT");
	char *end;
	long s = v ? strtol(v, &end, 10) : 0;

	return v && *v && !*end && s > 0 && s < 86400 ? (int)s : 60;
}

/*
 * The one line for a failed SQLite call, by what went wrong: damage (the
 * only case that names rebuild), another process's lock held too long,
 * permission, or anything else with SQLite's own words.
 */
int histdb_fail(sqlite3 *db, const char *what, struct err *e)
{
	int code = sqlite3_errcode(db) & 0xff, sys = sqlite3_system_errno(db);
	const char *path = sqlite3_db_filename(db, "main");

	path = path && *path ? path : "history database";
	switch (code) {
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return err_set(e, "%s: not a usable history database (%s); %s", path, sqlite3_errmsg(db),
			       rebuild_hint);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return err_set(e, "%s: busy: another process held it for more than %d s (%s); nothing was changed, try again",
			       path, busy_seconds(), sqlite3_errmsg(db));
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return err_set(e, "%s: permission denied: this user may not write it (%s)", path,
			       sqlite3_errmsg(db));
	case SQLITE_CANTOPEN:
		if (sys == EACCES || sys == EPERM || sys == EROFS)
			return err_set(e, "%s: permission denied (%s: %s)", path, sqlite3_errmsg(db),
				       strerror(sys));
		break;
	}
	return err_set(e, "%s: %s: %s", path, what, sqlite3_errmsg(db));
}

int histdb_exec(sqlite3 *db, const char *sql, struct err *e)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return histdb_fail(db, sql, e);
	return 0;
}

static int pragma_int(sqlite3 *db, const char *sql, int *v, struct err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return histdb_fail(db, "open", e);
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : histdb_fail(db, "open", e);
}

/* Refuse, naming rebuild, a file that is not ours or of another schema. */
static int check(sqlite3 *db, const char *path, struct err *e)
{
	int app, version;

	if (pragma_int(db, "PRAGMA application_id", &app, e) ||
	    pragma_int(db, "PRAGMA user_version", &version, e))
		return -1;
	if (app != HIST_APP_ID)
		return err_set(e, "%s: not an mmdelta history database (another SQLite file); %s",
			       path, rebuild_hint);
	if (version != HIST_SCHEMA_VERSION)
		return err_set(e, "%s: schema version %d, this mmdelta reads version %d; %s",
			       path, version, HIST_SCHEMA_VERSION, rebuild_hint);
	return 0;
}

/*
 * Open path with flags, the busy timeout set before the first statement:
 * a connection that finds another's lock (two ingests at once, a reader
 * while the WAL is checkpointed) waits for it instead of failing.
 */
static int open_conn(sqlite3 **db, const char *path, int flags, struct err *e)
{
	if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
		histdb_fail(*db, "cannot open", e);
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	sqlite3_busy_timeout(*db, busy_seconds() * 1000);
	return 0;
}

static void disconnect(sqlite3 **db)
{
	sqlite3_close(*db);
	*db = NULL;
}

/*
 * The stamp of a database opened immutable (below): mmhistory reads one
 * database a process, so one stamp is enough.
 */
static struct {
	sqlite3 *db;
	char wal[4200];
	struct stat st;
} immutable;

/* A reader's close leaves an empty -wal; one with frames holds writes
 * that are not in the file yet. */
static int wal_holds_writes(void)
{
	struct stat st;

	return stat(immutable.wal, &st) == 0 && st.st_size > 0;
}

/* "file:PATH" + query, with the characters a URI gives meaning escaped. */
static char *file_uri(const char *path, const char *query)
{
	char *uri = malloc(5 + 3 * strlen(path) + strlen(query) + 1), *o = uri;

	if (!uri)
		abort();
	o += sprintf(o, "file:");
	for (const char *c = path; *c; c++)
		o += strchr("?#%", *c) ? sprintf(o, "%%%02X", (unsigned char)*c) : sprintf(o, "%c", *c);
	strcpy(o, query);
	return uri;
}

/*
 * A reader that may not create PATH-shm (another user's results root)
 * cannot open a WAL database at all.  When PATH-wal is absent or empty,
 * every write is in the file itself, so it is read as immutable: without locks or
 * the WAL.  histdb_unchanged tells whether a writer came meanwhile.
 */
static int open_immutable(sqlite3 **db, const char *path, struct err *e)
{
	char *uri;
	int ret;

	snprintf(immutable.wal, sizeof(immutable.wal), "%s-wal", path);
	if (wal_holds_writes())
		return err_set(e, "%s: permission denied: reading it needs %s-shm, which this user may"
			       " not create, while %s holds writes; try again when no one writes it",
			       path, path, immutable.wal);
	if (stat(path, &immutable.st))
		return err_set(e, "%s: %s", path, strerror(errno));
	uri = file_uri(path, "?immutable=1");
	ret = open_conn(db, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, e);
	free(uri);
	if (!ret && check(*db, path, e)) {
		disconnect(db);
		ret = -1;
	}
	immutable.db = ret ? NULL : *db;
	return ret;
}

int histdb_unchanged(sqlite3 *db)
{
	struct stat st;

	if (db != immutable.db)
		return 1;
	return !stat(sqlite3_db_filename(db, "main"), &st) && !wal_holds_writes() &&
	       st.st_ino == immutable.st.st_ino && st.st_size == immutable.st.st_size &&
	       st.st_mtim.tv_sec == immutable.st.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == immutable.st.st_mtim.tv_nsec;
}

static int cannot_share(sqlite3 *db)
{
	int code = sqlite3_errcode(db) & 0xff;

	return code == SQLITE_CANTOPEN || code == SQLITE_READONLY;
}

int histdb_open(sqlite3 **db, const char *path, enum histdb_mode mode, int *missing, struct err *e)
{
	struct stat st;

	*db = NULL;
	*missing = stat(path, &st) != 0 && errno == ENOENT;
	if (*missing)
		return 0;
	if (access(path, R_OK | (mode == HISTDB_WRITE ? W_OK : 0)))
		return err_set(e, "%s: permission denied: this user may not %s it (%s)", path,
			       mode == HISTDB_WRITE ? "write" : "read", strerror(errno));
	if (open_conn(db, path, mode == HISTDB_WRITE ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, e))
		return -1;
	if (!check(*db, path, e)) {
		if (mode == HISTDB_READ || !histdb_exec(*db, "PRAGMA foreign_keys = ON", e))
			return 0;
	} else if (mode == HISTDB_READ && cannot_share(*db)) {
		disconnect(db);
		return open_immutable(db, path, e);
	}
	disconnect(db);
	return -1;
}

int histdb_create(sqlite3 **db, const char *path, struct err *e)
{
	char pragmas[128];

	if (open_conn(db, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, e))
		return -1;
	snprintf(pragmas, sizeof(pragmas), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 HIST_APP_ID, HIST_SCHEMA_VERSION);
	/* WAL: readers never block the one writer, and a crash mid-ingest
	 * leaves the last committed state. */
	if (histdb_exec(*db, "PRAGMA foreign_keys = ON", e) || histdb_exec(*db, "PRAGMA journal_mode = WAL", e) ||
	    histdb_exec(*db, "BEGIN IMMEDIATE", e) || histdb_exec(*db, schema, e) ||
	    histdb_exec(*db, pragmas, e) || histdb_exec(*db, "COMMIT", e)) {
		disconnect(db);
		return -1;
	}
	return 0;
}
