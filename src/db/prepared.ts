// Queries on the per-request path, built with Kysely once and compiled once per
// engine; each run only swaps in its parameter values. Building and compiling a
// Kysely query costs several times what SQLite takes to answer it.
//
// On SQLite, outside any transaction, the cached statement runs directly. That is
// what Kysely's driver would do, minus its connection mutex: the mutex is only ever
// held across an await while a transaction is open, and better-sqlite3 runs each
// statement synchronously, so when no transaction is open nothing can interleave.
// On PostgreSQL, outside a transaction, it runs on the pool without Kysely's driver,
// as a named prepared statement like every statement (dialect.ts).
// With `remember`, SQLite results are kept until the database changes (any write by
// this process, any commit by another), so repeated reads cost one version check and
// a changed row is never served stale. `made` turns each row into what the caller
// keeps of it (JSON columns parsed, say): remembered rows are made once, and what is
// made is shared by every reader of them, so nothing may change it.
import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import { engineOf, postgresPoolOf, sqliteConnectionOf, type Engine } from './dialect.ts';
import type { Database, Db } from './schema.ts';

const REMEMBERED_RESULTS = 10_000;

export function preparedQuery<Name extends string, Row, Made = Row>(
  build: (db: Kysely<Database>, param: (name: Name) => string) => Compilable<Row>,
  options: { remember?: boolean; made?: (row: Row) => Made } = {},
): (db: Db, values: Record<Name, string>) => Promise<readonly Made[]> {
  const remembered = new Map<string, { stamp: string; rows: Made[] }>();
  const { made } = options;
  const madeAll = made ? (rows: Row[]) => rows.map(made) : (rows: Row[]) => rows as unknown as Made[];
  const compiledByEngine = new Map<
    Engine,
    { compiled: CompiledQuery<Row>; slots: Array<Name | undefined> }
  >();

  function compile(db: Db) {
    const engine = engineOf(db);
    let entry = compiledByEngine.get(engine);
    if (!entry) {
      // Placeholders are unique objects, so no real value can be mistaken for one.
      const placeholders = new Map<unknown, Name>();
      const compiled = build(db, (name) => {
        const placeholder = new String(name) as unknown as string;
        placeholders.set(placeholder, name);
        return placeholder;
      }).compile();
      entry = {
        compiled,
        slots: compiled.parameters.map((parameter) => placeholders.get(parameter)),
      };
      compiledByEngine.set(engine, entry);
    }
    return entry;
  }

  return async (db, values) => {
    const { compiled, slots } = compile(db);
    const parameters = slots.map((slot, index) => (slot === undefined ? compiled.parameters[index] : values[slot]));
    const sqlite = db.isTransaction ? undefined : sqliteConnectionOf(db as Kysely<Database>);
    if (sqlite && !sqlite.inTransaction) {
      if (!options.remember) return madeAll(sqlite.prepare(compiled.sql).all(parameters) as Row[]);
      const key = JSON.stringify(parameters);
      const stamp = sqlite.changeStamp();
      const known = remembered.get(key);
      if (known?.stamp === stamp) return known.rows;
      const rows = madeAll(sqlite.prepare(compiled.sql).all(parameters) as Row[]);
      if (remembered.size >= REMEMBERED_RESULTS) remembered.delete(remembered.keys().next().value!);
      remembered.set(key, { stamp, rows });
      return rows;
    }
    const pool = db.isTransaction ? undefined : postgresPoolOf(db as Kysely<Database>);
    if (pool) return madeAll((await pool.query(compiled.sql, parameters)).rows as Row[]);
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return madeAll(result.rows as Row[]);
  };
}
