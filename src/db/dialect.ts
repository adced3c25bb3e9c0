// Everything that differs between SQLite and PostgreSQL lives here: how a connection
// is opened and tuned, and the few SQL spellings the engines disagree on.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Driver,
  type Expression,
  type RawBuilder,
  type SchemaMetadata,
  type SelectQueryBuilder,
  type TableMetadata,
} from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { Database } from './schema.ts';
import { attachReader } from './sqliteReader.ts';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… selects PostgreSQL; otherwise SQLite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Largest number of pooled PostgreSQL connections (QUIRE_DATABASE_POOL). */
  poolSize?: number;
}

/**
 * PostgreSQL connections a process keeps at most. One Node thread has little use for
 * more queries in flight than the database has cores to run them: on this 2-core
 * machine with the database beside Quire, 6 served the mixed load with as much
 * capacity as 10 and a read p99 30-40% lower at 520 req/s (bench/RESULTS.md,
 * 2026-11-27); queries waiting in the pool cost less than backends time-slicing.
 */
const DEFAULT_POOL_SIZE = 6;

const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely sees it, plus what the per-request fast path needs.
 *
 * better-sqlite3 compiles a statement on every prepare(); Kysely prepares each query
 * it runs. Caching statements by SQL text keeps that compile off the per-request path.
 * Safe because better-sqlite3 runs statements synchronously on one connection.
 *
 * changeStamp() changes whenever the database may have changed: this connection ran a
 * statement that writes (Kysely prepares every statement just before running it), or
 * another connection committed (SQLite's data_version). Results read under one stamp
 * stay true until it moves, in this process and across processes.
 */
function withStatementCache(database: SqliteDatabase.Database) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  const dataVersion = database.prepare('pragma data_version').pluck();
  let writes = 0;
  return {
    close: () => database.close(),
    /** True while a transaction is open on the connection (Kysely then holds it across awaits). */
    get inTransaction() {
      return database.inTransaction;
    },
    changeStamp(): string {
      return `${dataVersion.get() as number}:${writes}`;
    },
    prepare(requestedSql: string) {
      // Every transaction here writes. BEGIN IMMEDIATE takes the write lock up front
      // (waiting up to busy_timeout for another process), where a deferred BEGIN would
      // fail outright when two processes both read and then try to write.
      const sqlText = requestedSql === 'begin' ? 'begin immediate' : requestedSql;
      let statement = statements.get(sqlText);
      if (!statement) {
        statement = database.prepare(sqlText);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          statements.delete(statements.keys().next().value!);
        }
        statements.set(sqlText, statement);
      }
      if (!statement.reader) writes++;
      return statement;
    },
  };
}

/** How long a statement waits for another process's write lock before it fails with SQLITE_BUSY (answered 503). */
const LOCK_WAIT_MS = 5000;

/**
 * SQLite through Kysely, waiting for another process's write lock without blocking the
 * event loop: a statement that finds the database locked outside a transaction (an
 * autocommit write, or the BEGIN IMMEDIATE that opens one) is tried again after a
 * short timer, up to LOCK_WAIT_MS. Inside a transaction the lock is already held.
 */
class PatientSqliteDialect extends SqliteDialect {
  constructor(private readonly config: { database: ReturnType<typeof withStatementCache> }) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    const patient = new WeakSet<DatabaseConnection>();
    const { database } = this.config;
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (patient.has(connection)) return connection;
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery) => {
        const deadline = Date.now() + LOCK_WAIT_MS;
        for (let pause = 1; ; pause = Math.min(pause * 2, 8)) {
          try {
            return await execute<R>(query);
          } catch (error) {
            if ((error as { code?: string }).code !== 'SQLITE_BUSY' || database.inTransaction || Date.now() > deadline) throw error;
            await sleep(pause);
          }
        }
      };
      patient.add(connection);
      return connection;
    };
    return driver;
  }
}

/** The SQLite connection behind each Kysely instance, for the prepared-query fast path. */
const sqliteConnections = new WeakMap<Kysely<Database>, ReturnType<typeof withStatementCache>>();

export function sqliteConnectionOf(db: Kysely<Database>) {
  return sqliteConnections.get(db);
}

/**
 * Makes the data directory one level at a time: Node's recursive mkdir retries forever
 * where mkdir answers ENOENT under an existing parent (/proc/nope spun at 100% CPU).
 */
function makeDataDir(dataDir: string): void {
  const missing: string[] = [];
  for (let path = resolve(dataDir); !existsSync(path) && dirname(path) !== path; path = dirname(path)) missing.unshift(path);
  for (const path of missing) mkdirSync(path);
}

/** The embedded database's file in the data folder. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'quire.db');
}

function openSqlite(dataDir: string): DatabaseHandle {
  // Required here, so a server on PostgreSQL never loads SQLite's driver.
  const Sqlite = createRequire(import.meta.url)('better-sqlite3') as typeof SqliteDatabase;
  let database: SqliteDatabase.Database;
  const file = sqliteFile(dataDir);
  try {
    makeDataDir(dataDir);
    database = new Sqlite(file);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new Error(`QUIRE_DATA_DIR "${dataDir}" is not a folder Quire can write its database in (${reason})`);
  }
  // WAL lets readers (a second process, the CLI) work beside the writer; FULL makes
  // every acknowledged commit survive power loss, not only a process crash.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  // No busy handler: it would sleep on the request thread while another process (the
  // CLI) holds the write lock. PatientSqliteDialect waits for the lock between turns of
  // the event loop instead.
  database.pragma('busy_timeout = 0');
  // SQLite's own default page cache (2 MB) instead of better-sqlite3's 16 MB: under load
  // on 100,000 pages the larger cache filled with search's index pages and held 5-15 MB
  // more of the process's memory, serving no faster; the kernel's page cache keeps the
  // file's pages either way, and hot reads are remembered above SQLite.
  database.pragma('cache_size = -2000');
  const connection = withStatementCache(database);
  const db = new Kysely<Database>({ dialect: new PatientSqliteDialect({ database: connection }) });
  sqliteConnections.set(db, connection);
  const closeReader = attachReader(db, file);
  return {
    db,
    engine: 'sqlite',
    close: async () => {
      await closeReader();
      await db.destroy();
    },
  };
}

/** Statement texts a PostgreSQL connection keeps parsed and planned, at most. */
const POSTGRES_STATEMENTS_PER_CONNECTION = 200;

/** The name a statement's text is prepared under on a PostgreSQL connection. */
function postgresStatementName(text: string): string {
  return `quire_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
}

/**
 * Runs every statement with parameters as a named prepared statement, so PostgreSQL
 * parses and plans each text once per connection instead of at every run. Kysely
 * sends unnamed ones: under the mixed load, parsing and planning them was a quarter
 * of PostgreSQL's CPU (bench/RESULTS.md, session 34). Texts without parameters
 * (BEGIN, migrations of several statements) keep the simple protocol; beyond
 * POSTGRES_STATEMENTS_PER_CONNECTION texts a connection runs new ones unnamed, so
 * lists of ever-different lengths cannot grow a backend's memory without end.
 */
function prepareStatementsOf(client: pg.PoolClient): void {
  const names = new Map<string, string>();
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // Kysely calls query(text, values); the pool's own query (prepared.ts) adds a callback.
  (client as unknown as { query: typeof query }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return query(text, values, callback);
    let name = names.get(text);
    if (name === undefined && names.size < POSTGRES_STATEMENTS_PER_CONNECTION) names.set(text, (name = postgresStatementName(text)));
    const statement = name === undefined ? { text, values } : { name, text, values };
    return callback === undefined ? query(statement) : query(statement, callback);
  };
}

/**
 * Kysely's PostgreSQL introspector reads the tables of every schema in the database,
 * calling functions on each schema's name (has_schema_privilege, pg_get_serial_sequence):
 * a schema another client drops meanwhile fails the read ("schema … does not exist"), and
 * with it Quire's migrations and start. Two clients creating and dropping schemas beside
 * it failed 11 of 15 starts. Quire lives in its one schema (the search path's first), and
 * its migrator, the only reader of introspection, looks only there.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap(({ name }) => (name === null ? [] : [{ name }]));
  }

  async getTables({ withInternalKyselyTables }: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      schema: string;
      table: string;
      is_view: boolean;
      column: string;
      type: string;
      type_schema: string;
      not_null: boolean;
      has_default: boolean;
      comment: string | null;
      auto_incrementing: boolean;
    }>`
      select ns.nspname as schema, c.relname as table, c.relkind = 'v' as is_view, a.attname as column,
        t.typname as type, tns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
        col_description(c.oid, a.attnum) as comment,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null as auto_incrementing
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tns on tns.oid = t.typnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!withInternalKyselyTables && (row.table === DEFAULT_MIGRATION_TABLE || row.table === DEFAULT_MIGRATION_LOCK_TABLE)) continue;
      let table = tables.get(row.table);
      if (!table) tables.set(row.table, (table = { name: row.table, schema: row.schema, isView: row.is_view, columns: [] }));
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
        comment: row.comment ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

/** The PostgreSQL pool behind each Kysely instance, for named prepared statements. */
const postgresPools = new WeakMap<Kysely<Database>, pg.Pool>();

export function postgresPoolOf(db: Kysely<Database>) {
  return postgresPools.get(db);
}

function openPostgres(databaseUrl: string, poolSize: number): DatabaseHandle {
  // Required here, so a server on SQLite never loads the PostgreSQL driver.
  const { Pool } = createRequire(import.meta.url)('pg') as typeof pg;
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection the server drops must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', prepareStatementsOf);
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  postgresPools.set(db, pool);
  return { db, engine: 'postgres', close: () => db.destroy() };
}

export function openDatabase(options: OpenOptions): DatabaseHandle {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? DEFAULT_POOL_SIZE)
    : openSqlite(options.dataDir);
}

/** Case-insensitive "contains", with LIKE wildcards in the needle taken literally. */
export function containsInsensitive(column: Expression<string>, needle: string): RawBuilder<boolean> {
  const pattern = `%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${column}) like ${pattern} escape '\\'`;
}

/** Case-sensitive substring test with no wildcards: instr on SQLite, strpos on PostgreSQL. */
export function containsText(db: Kysely<Database>, column: Expression<string>, needle: string): RawBuilder<boolean> {
  return engineOf(db) === 'postgres' ? sql<boolean>`strpos(${column}, ${needle}) > 0` : sql<boolean>`instr(${column}, ${needle}) > 0`;
}

/** COUNT(*) comes back as a bigint string from PostgreSQL and a number from SQLite. */
export function toCount(value: unknown): number {
  return Number(value ?? 0);
}

export function engineOf(db: Kysely<Database> | { getExecutor(): { adapter: unknown } }): Engine {
  return (db as Kysely<Database>).getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Serialises transactions that change the same row. PostgreSQL takes a row lock;
 * SQLite needs nothing, since one write transaction runs at a time.
 */
export async function lockRow(
  db: Kysely<Database>,
  table: 'organizations' | 'spaces' | 'integration_installations' | 'change_requests' | 'comments',
  id: string,
): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`select 1 from ${sql.table(table)} where id = ${id} for update`.execute(db);
}

/**
 * Lets several processes take rows from one queue: on PostgreSQL a row locked by one
 * is skipped by the others; SQLite runs one write transaction at a time anyway.
 */
export function skipLockedRows<Query extends { forUpdate(): Query; skipLocked(): Query }>(
  db: Kysely<Database>,
  query: Query,
): Query {
  return engineOf(db) === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * A text column type that sorts byte by byte, as JavaScript compares strings. SQLite
 * does by default; PostgreSQL follows the database's locale unless told "C".
 */
export function bytewiseText(db: { getExecutor(): { adapter: unknown } }) {
  return engineOf(db) === 'postgres' ? sql`text collate "C"` : sql`text`;
}

/**
 * A subquery's rows as one JSON array value (json_agg on PostgreSQL, json_group_array on
 * SQLite), so that one statement can answer a row with its children. The subquery must
 * name its columns (SQLite's json_object needs them). Read the value with jsonRows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function jsonRowsOf<Row>(db: Kysely<Database>, subquery: SelectQueryBuilder<any, any, Row>): RawBuilder<unknown> {
  return engineOf(db) === 'postgres' ? postgresJsonArrayFrom(subquery) : sqliteJsonArrayFrom(subquery);
}

/** The rows of a jsonRowsOf value: parsed already by PostgreSQL's driver, JSON text from SQLite. */
export function jsonRows<Row>(value: unknown): Row[] {
  return (typeof value === 'string' ? JSON.parse(value) : value ?? []) as Row[];
}
