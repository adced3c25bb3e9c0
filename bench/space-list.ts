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

export interface BusySpacesResult {
  engine: string;
  spaces: number;
  changeRequestsPerSpace: number;
  commentsPerSpace: number;
  /** The list of the busy spaces, median. */
  busyMs: number;
  /** The same list of spaces with nothing in them, in the same run. */
  emptyMs: number;
}

/** Spaces with no change requests or comments, or with `busy` of each, written by SQL (counters filled as migration 0019 fills them). */
async function organizationOfSpaces(handle: Awaited<ReturnType<BenchDatabase['open']>>, title: string, spaceCount: number, busy: number) {
  const { organization, token, user } = await bootstrap(handle.db, systemClock, { organizationTitle: title, email: `${title}@quire.test`, name: title });
  const positions = generateNKeysBetween(null, null, spaceCount);
  const revision = newId();
  const at = new Date().toISOString();
  await insertRevision(handle.db, { id: revision, parents: '[]', created_at: at });
  for (let i = 0; i < spaceCount; i++) {
    const spaceId = newId();
    await insertSpace(handle.db, {
      id: spaceId, organization_id: organization.id, parent_id: null, title: `Space ${i}`, emoji: '', visibility: 'private', edit_mode: 'live',
      default_level: 'inherit', position: positions[i], revision_id: revision, share_key: newId(32), created_at: at, updated_at: at, deleted_at: null,
    });
    if (busy === 0) continue;
    const numbers = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${busy})`;
    await sql`${numbers} insert into change_requests (id, space_id, number, status, subject, created_by, revision_id, revision_initial, created_at, updated_at)
      select ${spaceId} || '-' || i, ${spaceId}, i, case when i % 4 = 0 then 'open' else 'merged' end, 'A change', ${user.id}, ${revision}, ${revision}, ${at}, ${at} from n`.execute(handle.db);
    await sql`${numbers} insert into comments (id, space_id, change_request_id, parent_id, body, mentions, posted_by, posted_at, resolved_at)
      select ${spaceId} || '-c' || i, ${spaceId}, null, null, 'A remark', '[]', ${user.id}, ${at}, case when i % 3 = 0 then null else ${at} end from n`.execute(handle.db);
    await sql`update spaces set
      change_requests_total = (select count(*) from change_requests cr where cr.space_id = spaces.id),
      change_requests_open = (select count(*) from change_requests cr where cr.space_id = spaces.id and cr.status = 'open'),
      comments_open = (select count(*) from comments cm where cm.space_id = spaces.id and cm.change_request_id is null and cm.parent_id is null and cm.resolved_at is null)
      where id = ${spaceId}`.execute(handle.db);
  }
  return { organization, token };
}

/** Presenting spaces full of change requests and comments costs what presenting empty ones does: the counters are stored. */
export async function benchBusySpaces(database: BenchDatabase, spaceCount = 50, busy = 20_000, repeats = 9): Promise<BusySpacesResult> {
  const handle = await database.open();
  try {
    const empty = await organizationOfSpaces(handle, 'empty', spaceCount, 0);
    const full = await organizationOfSpaces(handle, 'busy', spaceCount, busy);
    await sql`analyze`.execute(handle.db);
    const app = await buildApp({ config: loadConfig({ ...database.env, LOG_LEVEL: 'silent' }), database: handle });
    const list = async ({ organization, token }: typeof empty) => {
      const times: number[] = [];
      for (let repeat = 0; repeat < repeats; repeat++) {
        const started = process.hrtime.bigint();
        const response = await app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}/spaces?limit=${spaceCount}`, headers: { authorization: `Bearer ${token}` } });
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (response.statusCode !== 200 || response.json().items.length !== spaceCount) throw new Error(`the list answered ${response.statusCode}`);
        if (busy > 0 && organization === full.organization && response.json().items[0].changeRequests !== busy) throw new Error('the counters are not filled');
      }
      return median(times);
    };
    await list(empty);
    const result = { engine: database.engine, spaces: spaceCount, changeRequestsPerSpace: busy, commentsPerSpace: busy, emptyMs: await list(empty), busyMs: await list(full) };
    await app.close();
    return result;
  } finally {
    await handle.close();
  }
}
