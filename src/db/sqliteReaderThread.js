// A thread of SQLite's reader (sqliteReader.ts): each task is one read statement,
// run on a read-only connection of the database file it names, opened once a thread.
// Plain JavaScript: the thread needs only the driver, not Quire's TypeScript loader.
import { createRequire } from 'node:module';

const Sqlite = createRequire(import.meta.url)('better-sqlite3');

/** Statements kept per connection: a reader runs a handful of distinct texts. */
const STATEMENT_CACHE_SIZE = 100;

/** @type {Map<string, { database: import('better-sqlite3').Database, statements: Map<string, import('better-sqlite3').Statement> }>} */
const connections = new Map();

function connectionTo(file) {
  let connection = connections.get(file);
  if (!connection) {
    const database = new Sqlite(file, { readonly: true, fileMustExist: true });
    // Off the request thread a read may wait for the lock a checkpoint holds.
    database.pragma('busy_timeout = 5000');
    database.pragma('cache_size = -2000');
    connection = { database, statements: new Map() };
    connections.set(file, connection);
  }
  return connection;
}

/** @param {{ file: string, sql: string, parameters: unknown[] }} task */
export default function read({ file, sql, parameters }) {
  const { database, statements } = connectionTo(file);
  let statement = statements.get(sql);
  if (!statement) {
    statement = database.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value);
    statements.set(sql, statement);
  }
  return statement.all(...parameters);
}
