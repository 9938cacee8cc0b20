import type Database from "better-sqlite3";

/** Prepared statements of one connection by their SQL, each prepared once (the raw-SQL side of the replay benchmarks). */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
}
