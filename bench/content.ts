// The revision store at size: a space of N pages, then single-page edits through
// change requests (storage added per edit), reading a revision's page list, and a
// three-way merge of a change request touching 100 pages. Run at 500 and 5,000
// pages: storage per edit must not grow with the space; the merge stays < 250 ms.
import { pino } from 'pino';
import { sql } from 'kysely';
import { applyChanges, type PageChange } from '../src/content/changes.ts';
import { hashOf } from '../src/content/objects.ts';
import { readTree, writeTree } from '../src/content/tree.ts';
import { databaseObjectStore } from '../src/db/repos/contentObjects.ts';
import { addSpaceRevision, insertRevision } from '../src/db/repos/revisions.ts';
import { updateSpace } from '../src/db/repos/spaces.ts';
import { systemClock } from '../src/lib/clock.ts';
import { newId } from '../src/lib/ids.ts';
import { bootstrap } from '../src/services/accounts.ts';
import { createChangeRequest } from '../src/services/changeRequests.ts';
import { editChangeRequestContent, mergeChangeRequest } from '../src/services/changeRequestContent.ts';
import type { Actor, ServiceContext } from '../src/services/context.ts';
import { createSpace } from '../src/services/spaces.ts';
import type { BenchDatabase } from './support.ts';
import { noSandbox } from '../src/sandbox/sandbox.ts';
import { JobRuns } from '../src/jobs/queue.ts';
import { processRevisionCaches } from '../src/services/revisionCaches.ts';
import { registerEventSubscribers } from '../src/jobs/subscribers.ts';

export interface ContentResult {
  engine: string;
  pages: number;
  bytesPerEdit: number;
  readPagesMs: number;
  mergeMs: number;
}

async function storedBytes(ctx: ServiceContext): Promise<number> {
  const row = await sql<{ total: number | string | null }>`select sum(length(data)) as total from content_objects`.execute(ctx.db);
  return Number(row.rows[0].total ?? 0);
}

export async function benchContent(database: BenchDatabase, pageCount: number, edits = 200): Promise<ContentResult> {
  const handle = await database.open();
  registerEventSubscribers();
  try {
    const ctx: ServiceContext = { db: handle.db, clock: systemClock, config: { publicUrl: 'http://bench', allowPrivateUrls: false }, log: pino({ level: 'silent' }), linkKey: 'bench-key', secretsKey: () => Buffer.alloc(32), sandbox: noSandbox('no integrations here'), jobRuns: new JobRuns(), revisions: processRevisionCaches };
    const { user, organization } = await bootstrap(handle.db, systemClock, { organizationTitle: 'Bench', email: 'b@quire.test', name: 'B' });
    const actor: Actor = { user, tokenId: 'bench' };
    const space = await createSpace(ctx, actor, organization.id, { title: 'Big' });

    // The space's starting content: sections of 100 pages each, written as one revision.
    const sections = Math.ceil(pageCount / 100);
    const changes: PageChange[] = [];
    for (let s = 0; s < sections; s++) {
      changes.push({ kind: 'insert', id: `s${s}`, placement: { parentId: null }, meta: { title: `Section ${s}`, slug: `section-${s}`, type: 'document' }, blob: null });
    }
    const texts = new Map<string, string>();
    for (let p = 0; p < pageCount - sections; p++) {
      const text = `# Page ${p}\n\n${'Some documentation text. '.repeat(20)}\n`;
      texts.set(hashOf(text), text);
      changes.push({ kind: 'insert', id: `p${p}`, placement: { parentId: `s${p % sections}` }, meta: { title: `Page ${p}`, slug: `page-${p}`, type: 'document' }, blob: hashOf(text) });
    }
    const tree = applyChanges(new Map(), changes);
    const store = databaseObjectStore(handle.db);
    await store.put(texts);
    const seededRoot = await writeTree(store, tree);
    const revisionId = newId();
    await insertRevision(handle.db, { id: revisionId, parents: '[]', root_hash: seededRoot, created_by: user.id, created_at: new Date().toISOString() });
    await addSpaceRevision(handle.db, space.id, revisionId);
    await updateSpace(handle.db, space.id, { revision_id: revisionId });

    const before = await storedBytes(ctx);
    for (let e = 0; e < edits; e++) {
      const changeRequest = await createChangeRequest(ctx, actor, space.id, { subject: `edit ${e}` });
      await editChangeRequestContent(ctx, actor, space.id, changeRequest.id, [
        { operation: 'update_page', page: `p${(e * 37) % (pageCount - sections)}`, document: `Edited ${e}\n` },
      ]);
      await mergeChangeRequest(ctx, actor, space.id, changeRequest.id);
    }
    const bytesPerEdit = (await storedBytes(ctx) - before) / edits;

    const current = (await handle.db.selectFrom('spaces').select('revision_id').where('id', '=', space.id).executeTakeFirstOrThrow()).revision_id;
    const root = (await handle.db.selectFrom('revisions').select('root_hash').where('id', '=', current).executeTakeFirstOrThrow()).root_hash;
    let started = process.hrtime.bigint();
    await readTree(databaseObjectStore(handle.db), root);
    const readPagesMs = Number(process.hrtime.bigint() - started) / 1e6;

    // A change request touching 100 pages, while another change lands on the space first.
    const big = await createChangeRequest(ctx, actor, space.id, { subject: 'hundred pages' });
    for (let batch = 0; batch < 2; batch++) {
      await editChangeRequestContent(
        ctx,
        actor,
        space.id,
        big.id,
        Array.from({ length: 50 }, (_, i) => ({ operation: 'update_page' as const, page: `p${batch * 50 + i}`, document: `Rewritten ${i}\n` })),
      );
    }
    const other = await createChangeRequest(ctx, actor, space.id, { subject: 'elsewhere' });
    await editChangeRequestContent(ctx, actor, space.id, other.id, [{ operation: 'update_page', page: `p${pageCount - sections - 1}`, document: 'Elsewhere\n' }]);
    await mergeChangeRequest(ctx, actor, space.id, other.id);
    started = process.hrtime.bigint();
    const merged = await mergeChangeRequest(ctx, actor, space.id, big.id);
    const mergeMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (merged.result !== 'merge') throw new Error('the 100-page merge should not conflict');
    return { engine: database.engine, pages: pageCount, bytesPerEdit, readPagesMs, mergeMs };
  } finally {
    await handle.close();
  }
}
