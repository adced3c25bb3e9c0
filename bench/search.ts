// Search at size: an organization of 100,000 pages (20 spaces of 5,000, about 50 MB of
// markdown drawn from a fixed vocabulary by a seeded generator, so every run indexes
// the same text), in a database where another organization holds 100,000 more pages
// of the same words, indexed first. Measures the index build (`quire reindex`) of both,
// query latency in the one organization over a fixed set of queries, and a merge that
// edits 10 pages (re-indexing only those).
import { pino } from 'pino';
import { applyChanges, type PageChange } from '../src/content/changes.ts';
import { hashOf } from '../src/content/objects.ts';
import { writeTree } from '../src/content/tree.ts';
import { databaseObjectStore } from '../src/db/repos/contentObjects.ts';
import { addSpaceRevision, insertRevision } from '../src/db/repos/revisions.ts';
import { updateSpace } from '../src/db/repos/spaces.ts';
import { systemClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { bootstrap } from '../src/services/accounts.ts';
import { createChangeRequest } from '../src/services/changeRequests.ts';
import { editChangeRequestContent, mergeChangeRequest } from '../src/services/changeRequestContent.ts';
import type { Actor, ServiceContext } from '../src/services/context.ts';
import { reindexEverything, searchOrganization } from '../src/services/search.ts';
import { createSpace } from '../src/services/spaces.ts';
import { summarize, type BenchDatabase, type LatencySummary } from './support.ts';
import { noSandbox } from '../src/sandbox/sandbox.ts';
import { JobRuns } from '../src/jobs/queue.ts';
import { processRevisionCaches } from '../src/services/revisionCaches.ts';
import { registerEventSubscribers } from '../src/jobs/subscribers.ts';

export interface SearchBenchResult {
  /** Pages of the organization searched. */
  pages: number;
  /** Pages of the other organization, in the same index. */
  otherPages: number;
  markdownMb: number;
  indexSeconds: number;
  latency: LatencySummary;
  mergeTenPagesMs: number;
}

const SPACES = 20;
const PAGES_PER_SPACE = 5_000;

/** mulberry32: a small seeded generator, so the text is the same on every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sto', 'val', 'dur', 'ex', 'pan', 'qui', 'zor', 'tel', 'bri', 'gan', 'hol', 'nup'];

function vocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

/**
 * Words drawn with a Zipf-like skew, a few common and most rare, as the content words
 * of documentation are once stop words are set aside: the commonest is 1.8% of all.
 */
function drawWord(random: () => number, words: string[]): string {
  return words[Math.floor(words.length * random() ** 2)];
}

function pageMarkdown(random: () => number, words: string[], title: string): string {
  const sentence = (count: number) => Array.from({ length: count }, () => drawWord(random, words)).join(' ');
  return `# ${title}\n\n${sentence(20)}.\n\n## ${sentence(2)}\n\n${sentence(16)}.\n\n## ${sentence(3)}\n\n${sentence(12)}.\n`;
}

/** What people type: one word (the commonest, common, rarer, rare), several words, a phrase, a word being typed, a miss. */
const QUERIES = (words: string[]) => [
  words[0],
  words[5],
  words[50],
  words[400],
  words[1500],
  `${words[2]} ${words[30]}`,
  `${words[10]} ${words[200]} ${words[900]}`,
  `"${words[1]} ${words[3]}"`,
  words[700].slice(0, 5),
  words[20].slice(0, 4),
  `${words[60]} ${words[8].slice(0, 4)}`,
  'nothing matches this',
];

/** A context for calling services directly, without a server. */
export function benchContext(db: ServiceContext['db']): ServiceContext {
  registerEventSubscribers();
  return {
    db,
    clock: systemClock,
    config: { publicUrl: 'http://bench', allowPrivateUrls: false },
    log: pino({ level: 'silent' }), linkKey: 'bench-key',
    secretsKey: () => Buffer.alloc(32),
    sandbox: noSandbox('no integrations here'),
    jobRuns: new JobRuns(),
    revisions: processRevisionCaches,
  } as ServiceContext;
}

/**
 * Writes organizations of SPACES × PAGES_PER_SPACE generated pages straight into the
 * revision store (one revision per space), as a database that grew over time holds
 * them; the same text on every run.
 */
export function contentSeeder(db: ServiceContext['db']) {
  const ctx = benchContext(db);
  const random = seeded(42);
  const words = vocabulary(random, 3_000);
  const store = databaseObjectStore(db);
  let markdownBytes = 0;
  const fill = async (organizationTitle: string, email: string) => {
    const { user, organization } = await bootstrap(db, systemClock, { organizationTitle, email, name: 'S' });
    const actor: Actor = { user, tokenId: 'bench' };
    const spaceIds: string[] = [];
    for (let spaceIndex = 0; spaceIndex < SPACES; spaceIndex++) {
      const space = await createSpace(ctx, actor, organization.id, { title: `Space ${spaceIndex}` });
      spaceIds.push(space.id);
      const changes: PageChange[] = [];
      const texts = new Map<string, string>();
      for (let pageIndex = 0; pageIndex < PAGES_PER_SPACE; pageIndex++) {
        const title = `${drawWord(random, words)} ${drawWord(random, words)} ${pageIndex}`;
        const text = pageMarkdown(random, words, title);
        markdownBytes += Buffer.byteLength(text);
        texts.set(hashOf(text), text);
        changes.push({ kind: 'insert', id: `p${pageIndex}`, placement: { parentId: null }, meta: { title, slug: `page-${pageIndex}`, type: 'document' }, blob: hashOf(text) });
      }
      await store.put(texts);
      const root = await writeTree(store, applyChanges(new Map(), changes));
      const revisionId = newId();
      await insertRevision(db, { id: revisionId, parents: '[]', root_hash: root, created_by: user.id, created_at: new Date().toISOString() });
      await addSpaceRevision(db, space.id, revisionId);
      await updateSpace(db, space.id, { revision_id: revisionId });
    }
    return { actor, organization, spaceIds };
  };
  return { ctx, random, words, fill, pagesPerOrganization: SPACES * PAGES_PER_SPACE, markdownBytes: () => markdownBytes };
}

export async function benchSearch(database: BenchDatabase): Promise<SearchBenchResult> {
  const handle = await database.open();
  try {
    const { ctx, random, words, fill, markdownBytes } = contentSeeder(handle.db);
    await fill('Others', 'o@quire.test');
    const { actor, organization, spaceIds } = await fill('Search', 's@quire.test');

    let started = process.hrtime.bigint();
    await reindexEverything(handle.db);
    const indexSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    const latencies: number[] = [];
    const queries = QUERIES(words);
    const perQuery = new Map<string, number[]>();
    for (const query of queries) await searchOrganization(ctx, actor, organization.id, query, {});
    for (let round = 0; round < 10; round++) {
      for (const query of queries) {
        started = process.hrtime.bigint();
        await searchOrganization(ctx, actor, organization.id, query, {});
        const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
        latencies.push(milliseconds);
        perQuery.set(query, [...(perQuery.get(query) ?? []), milliseconds]);
      }
    }
    if (process.env.BENCH_VERBOSE) {
      for (const [query, times] of perQuery) console.log(`    ${query.padEnd(30)} ${times.sort((a, b) => a - b)[5].toFixed(1)} ms`);
    }

    const changeRequest = await createChangeRequest(ctx, actor, spaceIds[0], { subject: 'ten pages' });
    await editChangeRequestContent(
      ctx,
      actor,
      spaceIds[0],
      changeRequest.id,
      Array.from({ length: 10 }, (_, index) => ({ operation: 'update_page' as const, page: `p${index * 400}`, document: pageMarkdown(random, words, `Edited ${index}`) })),
    );
    started = process.hrtime.bigint();
    await mergeChangeRequest(ctx, actor, spaceIds[0], changeRequest.id);
    const mergeTenPagesMs = Number(process.hrtime.bigint() - started) / 1e6;

    return {
      pages: SPACES * PAGES_PER_SPACE,
      otherPages: SPACES * PAGES_PER_SPACE,
      markdownMb: markdownBytes() / 1024 / 1024,
      indexSeconds,
      latency: summarize(latencies),
      mergeTenPagesMs,
    };
  } finally {
    await handle.close();
  }
}
