// A fresh, migrated database for one test file: a temporary SQLite file, or a schema
// of its own in TEST_DATABASE_URL's PostgreSQL database, dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openMigratedDatabase, type DatabaseHandle } from '../../src/db/index.ts';
import { newId } from '../../src/lib/ids.ts';

export type Engine = 'sqlite' | 'postgres';

export const engine: Engine = process.env.QUIRE_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** The environment a Quire process needs to reach this database. */
  env: { QUIRE_DATA_DIR: string; DATABASE_URL?: string };
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.toString();
}

export async function createTestDatabase(
  on: Engine = engine,
  baseUrl: string | undefined = process.env.TEST_DATABASE_URL,
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-test-'));
  if (on === 'sqlite') {
    return {
      env: { QUIRE_DATA_DIR: dataDir },
      open: () => openMigratedDatabase({ dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  if (!baseUrl) throw new Error('QUIRE_TEST_ENGINE=postgres needs TEST_DATABASE_URL');
  const schema = `quire_test_${newId(12).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const databaseUrl = withSearchPath(baseUrl, schema);
  return {
    env: { QUIRE_DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    open: () => openMigratedDatabase({ databaseUrl, dataDir, poolSize: 5 }),
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
