// Opens the database named by the configuration and brings its schema up to date.
import { Migrator, sql } from 'kysely';
import { migrationProvider } from './migrations/index.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from './dialect.ts';

export type { DatabaseHandle } from './dialect.ts';

export async function migrate(handle: DatabaseHandle): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema it can see; naming ours
  // keeps Quire in one schema from mistaking another schema's tables for its own.
  const migrationTableSchema = handle.engine === 'postgres' ? await currentSchema(handle) : undefined;
  const migrator = new Migrator({ db: handle.db, provider: migrationProvider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function currentSchema(handle: DatabaseHandle): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db);
  return result.rows[0].schema;
}

export async function openMigratedDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const handle = openDatabase(options);
  try {
    await migrate(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
