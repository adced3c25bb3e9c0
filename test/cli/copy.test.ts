// `quire copy`: a whole instance moves to the other engine (SQLite → PostgreSQL on the
// SQLite run, PostgreSQL → SQLite on the PostgreSQL run) and answers every read the
// same there: same ids, tokens, content, files, comments, sites and search.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { COPIED_TABLES, DERIVED_TABLES } from '../../src/db/copy.ts';
import type { DatabaseHandle } from '../../src/db/index.ts';
import { request, testAppConfig, useTestApp } from '../helpers/app.ts';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.ts';
import { runCli } from '../helpers/process.ts';
import { buildWorld, MATRIX, type World } from '../routes/permissionMatrix.ts';

const otherEngine = engine === 'sqlite' ? 'postgres' : 'sqlite';
const canReachOther = otherEngine === 'sqlite' || Boolean(process.env.TEST_DATABASE_URL);
const testApp = useTestApp({ QUIRE_RATE_LIMIT: '0', QUIRE_ALLOW_PRIVATE_URLS: 'true' });
let world: World;
let target: TestDatabase;

beforeAll(async () => {
  world = await buildWorld(testApp);
  if (canReachOther) target = await createTestDatabase(otherEngine);
});

afterAll(async () => {
  await target?.drop();
});

async function tableCounts(handle: DatabaseHandle): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COPIED_TABLES) {
    const row = await handle.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

describe(`quire copy (${engine} → ${otherEngine})`, () => {
  it.skipIf(!canReachOther)('copies every table and answers every read of the copy as the original does', async () => {
    const destination = otherEngine === 'postgres' ? target.env.DATABASE_URL! : target.env.QUIRE_DATA_DIR;
    const copied = await runCli(['copy', '--to', destination, '--json'], testApp.testDatabase.env);
    expect(copied.code, copied.stderr).toBe(0);
    const report = JSON.parse(copied.stdout);
    const sourceCounts = await tableCounts(testApp.database);
    expect(report.tables).toEqual(sourceCounts);
    expect(sourceCounts.change_requests).toBeGreaterThan(0);
    expect(report.indexedPages).toBeGreaterThan(0);

    const again = await runCli(['copy', '--to', destination], testApp.testDatabase.env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('quire copy: the target already holds an instance; copy only into an empty database');

    const copy = await target.open();
    try {
      // Frozen clocks: signed download URLs and dates in answers then match to the byte.
      const frozen = { now: () => new Date('2026-06-01T00:00:00.000Z') };
      const original = await buildApp({ config: testAppConfig(testApp.testDatabase.env, { QUIRE_RATE_LIMIT: '0' }), database: testApp.database, clock: frozen });
      const moved = await buildApp({ config: testAppConfig(target.env, { QUIRE_RATE_LIMIT: '0' }), database: copy, clock: frozen });
      const differences: string[] = [];
      let compared = 0;
      for (const row of MATRIX.filter((candidate) => candidate.operation.startsWith('GET '))) {
        const path = row.operation.slice(4).replace(/\{([^}]+)\}/g, (_whole, name: string) => world.params[name]);
        const before = await request(original, 'GET', path, { token: world.tokens.admin, query: row.query });
        const after = await request(moved, 'GET', path, { token: world.tokens.admin, query: row.query });
        if (before.status !== after.status || JSON.stringify(before.body) !== JSON.stringify(after.body)) {
          differences.push(`${path}: ${before.status} ${JSON.stringify(before.body).slice(0, 200)}\n   copy: ${after.status} ${JSON.stringify(after.body).slice(0, 200)}`);
        }
        if (before.status === 200) compared++;
      }
      await original.close();
      await moved.close();
      expect(differences).toEqual([]);
      expect(compared).toBeGreaterThan(60);
    } finally {
      await copy.close();
    }
  });

  it('knows every table of the schema: each is copied, or rebuilt from what is', async () => {
    const { rows } =
      engine === 'postgres'
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(testApp.database.db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(testApp.database.db);
    const tables = rows.map((row) => row.name);
    const own = tables.filter((name: string) => !name.startsWith('kysely_') && !name.startsWith('search_fts') && !name.startsWith('sqlite_'));
    expect(own.sort()).toEqual([...COPIED_TABLES, ...DERIVED_TABLES].sort());
  });
});
