// Opens the database named by the configuration and brings its schema up to date.
import { Migrator } from 'kysely';
import { migrationProvider } from './migrations/index.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from './dialect.ts';

export type { DatabaseHandle } from './dialect.ts';

export async function migrate(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
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
