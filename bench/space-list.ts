// Listing 10,000 spaces page by page: with keyset cursors a deep page costs what the
// first one does. Walks GET /v1/orgs/{id}/spaces?limit=100 to the end several times
// and compares the median time of the first, middle and last pages.
import { generateNKeysBetween } from 'fractional-indexing';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { insertRevision } from '../src/db/repos/revisions.ts';
import { insertSpace } from '../src/db/repos/spaces.ts';
import { systemClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { bootstrap } from '../src/services/accounts.ts';
import type { BenchDatabase } from './support.ts';

export interface SpaceListResult {
  engine: string;
  spaces: number;
  firstPageMs: number;
  middlePageMs: number;
  lastPageMs: number;
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchSpaceList(database: BenchDatabase, spaceCount = 10_000, walks = 5): Promise<SpaceListResult> {
  const handle = await database.open();
  try {
    const { organization, token } = await bootstrap(handle.db, systemClock, {
      organizationTitle: 'Bench',
      email: 'bench@quire.test',
      name: 'Bench',
    });
    const positions = generateNKeysBetween(null, null, spaceCount);
    await handle.db.transaction().execute(async (trx) => {
      const revision = newId();
      await insertRevision(trx, { id: revision, parents: '[]', created_at: new Date().toISOString() });
      const start = Date.parse('2026-01-01T00:00:00.000Z');
      for (let i = 0; i < spaceCount; i++) {
        const at = new Date(start + i * 1000).toISOString();
        await insertSpace(trx, {
          id: newId(),
          organization_id: organization.id,
          parent_id: null,
          title: `Space ${i}`,
          emoji: '',
          visibility: 'private',
          edit_mode: 'live',
          default_level: 'inherit',
          position: positions[i],
          revision_id: revision,
          share_key: newId(32),
          created_at: at,
          updated_at: at,
          deleted_at: null,
        });
      }
    });
    // Statistics, as a database that grew over time would have them.
    await sql`analyze`.execute(handle.db);
    const app = await buildApp({ config: loadConfig({ ...database.env, LOG_LEVEL: 'silent' }), database: handle });
    const pageTimes: number[][] = [];
    for (let walk = 0; walk < walks; walk++) {
      let page: string | undefined;
      let index = 0;
      do {
        const query = new URLSearchParams({ limit: '100', ...(page ? { page } : {}) });
        const started = process.hrtime.bigint();
        const response = await app.inject({
          method: 'GET',
          url: `/v1/orgs/${organization.id}/spaces?${query}`,
          headers: { authorization: `Bearer ${token}` },
        });
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        if (response.statusCode !== 200) throw new Error(`page ${index} answered ${response.statusCode}`);
        (pageTimes[index] ??= []).push(elapsed);
        page = response.json().next?.page;
        index++;
      } while (page);
    }
    await app.close();
    const firstPageMs = median(pageTimes[0]);
    const lastPageMs = median(pageTimes[pageTimes.length - 1]);
    return {
      engine: database.engine,
      spaces: spaceCount,
      firstPageMs,
      middlePageMs: median(pageTimes[Math.floor(pageTimes.length / 2)]),
      lastPageMs,
      ratio: lastPageMs / firstPageMs,
    };
  } finally {
    await handle.close();
  }
}
