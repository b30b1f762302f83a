/* Opening, creating and checking RESULTS/history.sqlite (see histdb.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

int histdb_fail(sqlite3 *db, const char *what, struct err *e)
{
	int code = sqlite3_errcode(db) & 0xff;

	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		return err_set(e, "%s: %s (%s); %s", sqlite3_db_filename(db, "main"),
			       "not a usable history database", sqlite3_errmsg(db), rebuild_hint);
	return err_set(e, "%s: %s: %s", sqlite3_db_filename(db, "main"), what, sqlite3_errmsg(db));
}

int histdb_exec(sqlite3 *db, const char *sql, struct err *e)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return histdb_fail(db, sql, e);
	return 0;
}

static int pragma_int(sqlite3 *db, const char *sql, int *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

/* Every connection waits for a writer rather than failing (two ingests at
 * once), and enforces the references between tables. */
static int session(sqlite3 *db, struct err *e)
{
	sqlite3_busy_timeout(db, 60000);
	return histdb_exec(db, "PRAGMA foreign_keys = ON", e);
}

static int check(sqlite3 *db, const char *path, struct err *e)
{
	int app, version;

	if (pragma_int(db, "PRAGMA application_id", &app) ||
	    pragma_int(db, "PRAGMA user_version", &version))
		return err_set(e, "%s: not a usable history database (%s); %s", path,
			       sqlite3_errmsg(db), rebuild_hint);
	if (app != HIST_APP_ID)
		return err_set(e, "%s: not an mmdelta history database (another SQLite file); %s",
			       path, rebuild_hint);
	if (version != HIST_SCHEMA_VERSION)
		return err_set(e, "%s: schema version %d, this mmdelta reads version %d; %s",
			       path, version, HIST_SCHEMA_VERSION, rebuild_hint);
	return 0;
}

int histdb_open(sqlite3 **db, const char *path, int *missing, struct err *e)
{
	struct stat st;

	*db = NULL;
	*missing = stat(path, &st) != 0 && errno == ENOENT;
	if (*missing)
		return 0;
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		err_set(e, "%s: cannot open: %s", path, sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	if (check(*db, path, e) || session(*db, e)) {
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}

int histdb_create(sqlite3 **db, const char *path, struct err *e)
{
	char pragmas[128];

	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		err_set(e, "%s: cannot create: %s", path, sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	snprintf(pragmas, sizeof(pragmas), "PRAGMA application_id = %d; PRAGMA user_version = %d",
		 HIST_APP_ID, HIST_SCHEMA_VERSION);
	/* WAL: readers never block the one writer, and a crash mid-ingest
	 * leaves the last committed state. */
	if (session(*db, e) || histdb_exec(*db, "PRAGMA journal_mode = WAL", e) ||
	    histdb_exec(*db, "BEGIN", e) || histdb_exec(*db, schema, e) ||
	    histdb_exec(*db, pragmas, e) || histdb_exec(*db, "COMMIT", e)) {
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}
