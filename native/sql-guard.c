/*
 * sql-guard: a SQLite loadable extension that bounds and pins down what SQL can do on a connection.
 *
 * better-sqlite3 12 is compiled with SQLITE_OMIT_PROGRESS_CALLBACK and exposes no interrupt, so a
 * statement that never ends (an unbounded CTE, a huge cross join) would block the Node thread for
 * good. Loading this extension on a connection gives it:
 *
 *  - a time bound per statement: the statement trace (SQLITE_TRACE_STMT) arms a deadline when a
 *    top-level statement starts and the profile trace (SQLITE_TRACE_PROFILE) disarms it when the
 *    statement finishes or is reset; one watchdog thread for the process calls sqlite3_interrupt()
 *    on a connection whose deadline passed. The statement then fails with SQLITE_INTERRUPT and the
 *    connection stays usable. No SQL runs per statement: arming is a mutex and a clock read.
 *  - a size bound: sqlite3_limit(SQLITE_LIMIT_LENGTH) on strings, blobs and rows (SQLITE_TOOBIG).
 *  - no wall clock and nothing that depends on the connection's history: random(), randomblob(),
 *    changes(), total_changes(), last_insert_rowid(), current_time/date/timestamp (which the parser
 *    turns into calls of functions of those names) are refused; date(), time(), datetime(),
 *    julianday(), unixepoch(), strftime() and timediff() refuse 'now' (written, or implied by a
 *    missing time value) and the 'localtime' and 'utc' modifiers, and otherwise return exactly what
 *    SQLite's own function returns: the call is delegated to the built-in on a private helper
 *    connection that never loads this extension. An application function shadows the built-in of
 *    the same name, so this holds for every statement on the connection, whatever its text.
 *
 * Limits default to 1000 ms and 1,000,000 bytes; `SELECT sql_guard_config(ms, bytes)` sets them
 * once per connection (a second call is refused, so SQL run later on the connection cannot lift
 * them). Every refusal message starts with "sql_guard:".
 *
 * Built by bin/build-native.mjs: cc -O2 -shared -fPIC -pthread -Wl,-z,nodelete (the watchdog
 * thread runs this library's code, so it must stay mapped after the last connection closes).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>

#define DEFAULT_TIME_LIMIT_MS 1000
#define DEFAULT_MAX_LENGTH 1000000
/* The watchdog re-checks at least this often while a statement is armed. */
#define POLL_NS 5000000LL

typedef struct Guard Guard;
struct Guard {
  sqlite3 *db;
  sqlite3_stmt *armed; /* top-level statement being timed, or NULL */
  long long deadline;  /* CLOCK_MONOTONIC ns */
  int fired;           /* interrupt sent for the armed statement */
  long long limit_ns;
  int configured;
  Guard *prev, *next;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static Guard *guards = 0;
static int n_armed = 0;
static long long wake_at = LLONG_MAX; /* when the watchdog next looks; LLONG_MAX while idle */

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *watchdog(void *unused) {
  (void)unused;
  pthread_mutex_lock(&mu);
  for (;;) {
    while (n_armed == 0) {
      wake_at = LLONG_MAX;
      pthread_cond_wait(&wake, &mu);
    }
    long long now = now_ns();
    long long next = now + POLL_NS;
    for (Guard *g = guards; g; g = g->next) {
      if (!g->armed || g->fired) continue;
      if (now >= g->deadline) {
        /* Under the mutex: the statement cannot be disarmed (finish) between the test and this. */
        sqlite3_interrupt(g->db);
        g->fired = 1;
      } else if (g->deadline < next) {
        next = g->deadline;
      }
    }
    wake_at = next;
    struct timespec ts = {(time_t)(next / 1000000000LL), (long)(next % 1000000000LL)};
    pthread_cond_timedwait(&wake, &mu, &ts);
  }
  return 0;
}

static void start_watchdog(void) {
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&wake, &attr);
  pthread_condattr_destroy(&attr);
  pthread_t t;
  pthread_attr_t ta;
  pthread_attr_init(&ta);
  pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&ta, 64 * 1024);
  pthread_create(&t, &ta, watchdog, 0);
  pthread_attr_destroy(&ta);
}

static int on_trace(unsigned type, void *ctx, void *p, void *x) {
  (void)x;
  Guard *g = (Guard *)ctx;
  sqlite3_stmt *stmt = (sqlite3_stmt *)p;
  pthread_mutex_lock(&mu);
  if (type == SQLITE_TRACE_STMT) {
    /* Trigger programs and statements nested in a running one keep the outer deadline. */
    if (!g->armed) {
      g->armed = stmt;
      g->fired = 0;
      g->deadline = now_ns() + g->limit_ns;
      n_armed++;
      if (g->deadline < wake_at) pthread_cond_signal(&wake);
    }
  } else if (g->armed == stmt) {
    g->armed = 0;
    n_armed--;
  }
  pthread_mutex_unlock(&mu);
  return 0;
}

/* Runs when the connection closes, before its handle is freed. */
static void guard_free(void *p) {
  Guard *g = (Guard *)p;
  pthread_mutex_lock(&mu);
  if (g->armed) n_armed--;
  if (g->prev) g->prev->next = g->next;
  else guards = g->next;
  if (g->next) g->next->prev = g->prev;
  pthread_mutex_unlock(&mu);
  sqlite3_free(g);
}

static void config_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  Guard *g = (Guard *)sqlite3_user_data(ctx);
  if (g->configured) {
    sqlite3_result_error(ctx, "sql_guard: the limits of this connection are already set", -1);
    return;
  }
  sqlite3_int64 ms = sqlite3_value_int64(argv[0]);
  sqlite3_int64 bytes = sqlite3_value_int64(argv[1]);
  if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || ms < 1 || ms > 86400000 || sqlite3_value_type(argv[1]) != SQLITE_INTEGER || bytes < 1000 || bytes > 1000000000) {
    sqlite3_result_error(ctx, "sql_guard: sql_guard_config(ms, bytes) takes 1..86400000 ms and 1000..1000000000 bytes", -1);
    return;
  }
  pthread_mutex_lock(&mu);
  g->limit_ns = ms * 1000000LL;
  g->configured = 1;
  pthread_mutex_unlock(&mu);
  sqlite3_limit(g->db, SQLITE_LIMIT_LENGTH, (int)bytes);
  sqlite3_result_int(ctx, 1);
}

static void refuse_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  char *msg = sqlite3_mprintf("sql_guard: %s() is not available: its answer would differ when the statement is replayed", (const char *)sqlite3_user_data(ctx));
  sqlite3_result_error(ctx, msg, -1);
  sqlite3_free(msg);
}

/* ---- date and time functions: refuse the wall clock, delegate everything else ---- */

enum { F_DATE, F_TIME, F_DATETIME, F_JULIANDAY, F_UNIXEPOCH, F_STRFTIME, F_TIMEDIFF, N_DATE_FUNCS };
static const char *date_names[N_DATE_FUNCS] = {"date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff"};
#define MAX_CACHED_ARGS 8

static pthread_mutex_t helper_mu = PTHREAD_MUTEX_INITIALIZER;
static sqlite3 *helper = 0;
static sqlite3_stmt *helper_stmts[N_DATE_FUNCS][MAX_CACHED_ARGS + 1];

static int ieq(const unsigned char *a, const char *b) {
  if (!a) return 0;
  for (; *a && *b; a++, b++) {
    unsigned char c = *a;
    if (c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
    if (c != (unsigned char)*b) return 0;
  }
  return *a == 0 && *b == 0;
}

/* A time value that means the current time: the text 'now' (SQLite compares it without case). */
static int is_now(sqlite3_value *v) {
  int t = sqlite3_value_type(v);
  if (t == SQLITE_INTEGER || t == SQLITE_FLOAT || t == SQLITE_NULL) return 0;
  return ieq(sqlite3_value_text(v), "now");
}

static void refuse_clock(sqlite3_context *ctx, const char *name, const char *why) {
  char *msg = sqlite3_mprintf("sql_guard: %s() %s: the wall clock is not available (replays must agree); use the business date and time in the data", name, why);
  sqlite3_result_error(ctx, msg, -1);
  sqlite3_free(msg);
}

/* Prepare `SELECT name(?1, ..., ?n)` on the helper connection (caller holds helper_mu). */
static sqlite3_stmt *helper_stmt(int f, int argc, int *cached, char **err) {
  if (!helper) {
    if (sqlite3_open_v2(":memory:", &helper, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 0) != SQLITE_OK) {
      *err = sqlite3_mprintf("sql_guard: cannot open the date helper connection: %s", helper ? sqlite3_errmsg(helper) : "out of memory");
      if (helper) sqlite3_close(helper);
      helper = 0;
      return 0;
    }
  }
  *cached = argc <= MAX_CACHED_ARGS;
  if (*cached && helper_stmts[f][argc]) return helper_stmts[f][argc];
  sqlite3_str *s = sqlite3_str_new(0);
  sqlite3_str_appendf(s, "SELECT %s(", date_names[f]);
  for (int i = 0; i < argc; i++) sqlite3_str_appendf(s, i ? ", ?%d" : "?%d", i + 1);
  sqlite3_str_appendall(s, ")");
  char *sql = sqlite3_str_finish(s);
  sqlite3_stmt *stmt = 0;
  if (!sql || sqlite3_prepare_v2(helper, sql, -1, &stmt, 0) != SQLITE_OK) {
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(helper));
    stmt = 0;
  }
  sqlite3_free(sql);
  if (stmt && *cached) helper_stmts[f][argc] = stmt;
  return stmt;
}

static void date_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  int f = (int)(size_t)sqlite3_user_data(ctx);
  const char *name = date_names[f];
  /* strftime(format, time-value, modifiers...); timediff(time-value, time-value); the others (time-value, modifiers...). */
  int first = f == F_STRFTIME ? 1 : 0;
  int values = f == F_TIMEDIFF ? 2 : 1;
  if (argc < first + 1) {
    refuse_clock(ctx, name, "without a time value means 'now'");
    return;
  }
  for (int i = first; i < argc; i++) {
    if (i < first + values) {
      if (is_now(argv[i])) {
        refuse_clock(ctx, name, "with 'now'");
        return;
      }
    } else {
      const unsigned char *m = sqlite3_value_text(argv[i]);
      if (ieq(m, "localtime") || ieq(m, "utc")) {
        refuse_clock(ctx, name, ieq(m, "utc") ? "with the 'utc' modifier (it depends on the local time zone)" : "with the 'localtime' modifier");
        return;
      }
    }
  }
  char *err = 0;
  int cached = 0;
  pthread_mutex_lock(&helper_mu);
  sqlite3_stmt *stmt = helper_stmt(f, argc, &cached, &err);
  if (stmt) {
    for (int i = 0; i < argc; i++) sqlite3_bind_value(stmt, i + 1, argv[i]);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
    else err = sqlite3_mprintf("%s", sqlite3_errmsg(helper));
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    if (!cached) sqlite3_finalize(stmt);
  }
  pthread_mutex_unlock(&helper_mu);
  if (err) {
    sqlite3_result_error(ctx, err, -1);
    sqlite3_free(err);
  }
}

static const char *refused_names[] = {"random", "randomblob", "changes", "total_changes", "last_insert_rowid", "current_time", "current_date", "current_timestamp"};

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_sqlguard_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi) {
  SQLITE_EXTENSION_INIT2(pApi);
  (void)pzErrMsg;
  pthread_once(&once, start_watchdog);
  Guard *g = (Guard *)sqlite3_malloc(sizeof(Guard));
  if (!g) return SQLITE_NOMEM;
  memset(g, 0, sizeof(*g));
  g->db = db;
  g->limit_ns = DEFAULT_TIME_LIMIT_MS * 1000000LL;
  pthread_mutex_lock(&mu);
  g->next = guards;
  if (guards) guards->prev = g;
  guards = g;
  pthread_mutex_unlock(&mu);
  /* The destructor unlinks the guard when the connection closes (and at once if this fails). */
  int rc = sqlite3_set_clientdata(db, "sql_guard", g, guard_free);
  if (rc != SQLITE_OK) return rc;
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, DEFAULT_MAX_LENGTH);
  rc = sqlite3_trace_v2(db, SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE, on_trace, g);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "sql_guard_config", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, g, config_func, 0, 0);
  for (size_t i = 0; rc == SQLITE_OK && i < sizeof(refused_names) / sizeof(refused_names[0]); i++) {
    rc = sqlite3_create_function(db, refused_names[i], -1, SQLITE_UTF8 | SQLITE_INNOCUOUS, (void *)refused_names[i], refuse_func, 0, 0);
  }
  for (int f = 0; rc == SQLITE_OK && f < N_DATE_FUNCS; f++) {
    rc = sqlite3_create_function(db, date_names[f], -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, (void *)(size_t)f, date_func, 0, 0);
  }
  return rc;
}
