// Search: keeping the index in step with each space's current revision, and answering
// queries grouped space → pages → sections. Indexing compares the indexed revision's
// tree with the new one and rewrites only the pages whose text, title or path changed.
// The sections are made outside any transaction (large pages on worker threads) and
// written in short ones that check the space has not moved, so no write waits on parsing.
import { getAll } from '../content/objects.ts';
import { excerpter, parseSearchQuery, type PageSection } from '../content/search.ts';
import { runInTextBatches, runSized } from '../workers/pool.ts';
import { pagePath, type FlatTree } from '../content/tree.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { matchingSections, type SectionHit } from '../db/fullText.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import { spaceIdsVisibleTo } from '../db/repos/spaces.ts';
import { lockRow } from '../db/dialect.ts';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.ts';
import { presentSearchSpace } from '../presenters/search.ts';
import { authorizeSpace, loadContentCaller, visibleContent } from './contentAccess.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeInOrganization } from './organizations.ts';
import { requireRevision, treeOf } from './revisionContent.ts';

/** Sections read per query before grouping; results beyond them rank too low to show. */
const HITS_CONSIDERED = 50;

interface IndexedPage {
  blob: string | null;
  title: string;
  path: string;
}

function indexedPages(tree: FlatTree): Map<string, IndexedPage> {
  const pages = new Map<string, IndexedPage>();
  for (const page of tree.values()) {
    if (page.meta.type !== 'document') continue;
    pages.set(page.id, { blob: page.blob, title: page.meta.title, path: pagePath(tree, page.id) });
  }
  return pages;
}

async function treeOfRevision(db: Db, revisionId: string | undefined): Promise<FlatTree> {
  if (!revisionId) return new Map();
  const revision = await requireRevision(db, revisionId);
  return (await treeOf(db, revision.root_hash)).tree;
}

/** What moving a space's index from one revision to another writes: sections made before any transaction. */
interface IndexPlan {
  from: string | null;
  to: string;
  stale: string[];
  rows: ReturnType<typeof sectionRows>;
  pages: number;
}

/** Compares the indexed revision's pages with the new ones: pages added, removed, edited, renamed or moved are rewritten. */
async function planIndex(db: Db, spaceId: string, from: string | null, to: string): Promise<IndexPlan> {
  const [before, after] = await Promise.all([treeOfRevision(db, from ?? undefined), treeOfRevision(db, to)]);
  const oldPages = indexedPages(before);
  const newPages = indexedPages(after);
  const unchanged = (id: string, page: IndexedPage) => {
    const old = oldPages.get(id);
    return old !== undefined && old.blob === page.blob && old.title === page.title && old.path === page.path;
  };
  const stale = [...oldPages.keys()].filter((id) => !newPages.has(id) || !unchanged(id, newPages.get(id)!));
  const fresh = [...newPages].filter(([id, page]) => !unchanged(id, page));
  const blobs = await getAll(databaseObjectStore(db), fresh.flatMap(([, page]) => (page.blob ? [page.blob] : [])));
  const texts = fresh.map(([, page]) => ({ markdown: page.blob ? blobs.get(page.blob)! : '', title: page.title }));
  const sections = await runInTextBatches(texts, (text) => text.markdown.length, (batch, size) => runSized('sectionsOf', { pages: batch }, size));
  const rows = fresh.flatMap(([pageId, page], index) => sectionRows(spaceId, pageId, page, sections[index]));
  return { from, to, stale, rows, pages: fresh.length };
}

async function applyIndexPlan(trx: Db, spaceId: string, plan: IndexPlan): Promise<void> {
  for (let start = 0; start < plan.stale.length; start += 500) {
    await trx.deleteFrom('search_sections').where('space_id', '=', spaceId).where('page_id', 'in', plan.stale.slice(start, start + 500)).execute();
  }
  for (let start = 0; start < plan.rows.length; start += 200) {
    await trx.insertInto('search_sections').values(plan.rows.slice(start, start + 200)).execute();
  }
  await trx
    .insertInto('search_state')
    .values({ space_id: spaceId, revision_id: plan.to })
    .onConflict((conflict) => conflict.column('space_id').doUpdateSet({ revision_id: plan.to }))
    .execute();
}

/**
 * Brings a space's search index to its current revision, after the change that moved
 * it has committed: the sections are made first, outside any transaction (on worker
 * threads for large pages), then written in one short transaction that checks nothing
 * moved meanwhile (else it plans again). A space never indexed is indexed anew in
 * batches. Should the process stop in between, the start's catch-up finishes it.
 * Answers how many pages it rewrote.
 */
export async function catchUpSearchIndex(db: Kysely<Database>, spaceId: string): Promise<number> {
  const positions = (reader: Db) =>
    reader
      .selectFrom('spaces as s')
      .leftJoin('search_state as st', 'st.space_id', 's.id')
      .select(['s.revision_id as current', 'st.revision_id as indexed'])
      .where('s.id', '=', spaceId)
      .where('s.deleted_at', 'is', null)
      .executeTakeFirst();
  for (;;) {
    const at = await positions(db);
    if (!at || at.indexed === at.current) return 0;
    if (at.indexed === null) return reindexSpace(db, spaceId);
    const plan = await planIndex(db, spaceId, at.indexed, at.current);
    const written = await db.transaction().execute(async (trx) => {
      await lockRow(trx, 'spaces', spaceId);
      const now = await positions(trx);
      if (!now || now.indexed !== plan.from || now.current !== plan.to) return false;
      await applyIndexPlan(trx, spaceId, plan);
      return true;
    });
    if (written) return plan.pages;
  }
}

/** Pages whose sections one transaction writes when a space is indexed anew: other writers get in between. */
const PAGES_PER_TRANSACTION = 100;

function sectionRows(spaceId: string, pageId: string, page: IndexedPage, sections: PageSection[]) {
  return sections.map((section, sectionIndex) => ({
    space_id: spaceId,
    page_id: pageId,
    section_index: sectionIndex,
    anchor: section.anchor,
    page_title: page.title,
    page_path: page.path,
    heading: section.heading,
    body: section.text,
  }));
}

/**
 * Indexes a space anew from its current revision, a few pages per short transaction:
 * the sections are made off the request thread before each transaction, searches keep
 * finding every page meanwhile, and writers wait for one batch at most. When the
 * space moves to another revision meanwhile, it starts over on that one.
 */
export async function reindexSpace(db: Kysely<Database>, spaceId: string): Promise<number> {
  for (;;) {
    const space = await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst();
    if (!space) return 0;
    const pages = [...indexedPages(await treeOfRevision(db, space.revision_id))];
    const before = await db.selectFrom('search_sections').select('page_id').distinct().where('space_id', '=', spaceId).execute();
    const moved = async (trx: Kysely<Database>) => {
      await lockRow(trx, 'spaces', spaceId);
      const current = await trx.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst();
      return current?.revision_id !== space.revision_id;
    };
    let startedOver = false;
    for (let start = 0; start < pages.length && !startedOver; start += PAGES_PER_TRANSACTION) {
      const batch = pages.slice(start, start + PAGES_PER_TRANSACTION);
      const blobs = await getAll(databaseObjectStore(db), batch.flatMap(([, page]) => (page.blob ? [page.blob] : [])));
      const texts = batch.map(([, page]) => ({ markdown: page.blob ? blobs.get(page.blob)! : '', title: page.title }));
      const sections = await runInTextBatches(texts, (text) => text.markdown.length, (part, size) => runSized('sectionsOf', { pages: part }, size));
      const rows = batch.flatMap(([pageId, page], index) => sectionRows(spaceId, pageId, page, sections[index]));
      startedOver = await db.transaction().execute(async (trx) => {
        if (await moved(trx)) return true;
        // Until the last batch is in, the space counts as not indexed: a restart finishes the work.
        if (start === 0) await trx.deleteFrom('search_state').where('space_id', '=', spaceId).execute();
        await trx.deleteFrom('search_sections').where('space_id', '=', spaceId).where('page_id', 'in', batch.map(([pageId]) => pageId)).execute();
        for (let at = 0; at < rows.length; at += 200) await trx.insertInto('search_sections').values(rows.slice(at, at + 200)).execute();
        return false;
      });
    }
    if (startedOver) continue;
    const current = new Set(pages.map(([pageId]) => pageId));
    const gone = before.map((row) => row.page_id).filter((pageId) => !current.has(pageId));
    const finished = await db.transaction().execute(async (trx) => {
      if (await moved(trx)) return false;
      for (let at = 0; at < gone.length; at += 500) {
        await trx.deleteFrom('search_sections').where('space_id', '=', spaceId).where('page_id', 'in', gone.slice(at, at + 500)).execute();
      }
      await trx
        .insertInto('search_state')
        .values({ space_id: spaceId, revision_id: space.revision_id })
        .onConflict((conflict) => conflict.column('space_id').doUpdateSet({ revision_id: space.revision_id }))
        .execute();
      return true;
    });
    if (finished) return pages.length;
  }
}

/** Rebuilds the index of every live space from its current revision (`quire reindex`), reporting each space as it is done. */
export async function reindexEverything(
  db: Kysely<Database>,
  onSpace?: (progress: { spaceId: string; pages: number; done: number; of: number }) => void,
): Promise<void> {
  const spaces = await db.selectFrom('spaces').select('id').where('deleted_at', 'is', null).execute();
  for (const [index, space] of spaces.entries()) {
    const pages = await reindexSpace(db, space.id);
    onSpace?.({ spaceId: space.id, pages, done: index + 1, of: spaces.length });
  }
}

/**
 * Indexes the live spaces whose index is missing or behind their revision: spaces that
 * existed before search did, a database restored from elsewhere, or a change whose
 * process stopped before its index caught up. One query when nothing is behind, so
 * every start runs it.
 */
export async function indexStaleSpaces(db: Kysely<Database>, onSpace?: (spaceId: string, pages: number) => void): Promise<number> {
  const stale = await db
    .selectFrom('spaces as s')
    .leftJoin('search_state as st', 'st.space_id', 's.id')
    .select('s.id')
    .where('s.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('st.revision_id', 'is', null), eb('st.revision_id', '!=', eb.ref('s.revision_id'))]))
    .execute();
  for (const space of stale) onSpace?.(space.id, await catchUpSearchIndex(db, space.id));
  return stale.length;
}

/** Groups ranked sections by space, then page, each in the order of its best section. */
function groupHits(hits: SectionHit[]) {
  const spaces = new Map<string, Map<string, SectionHit[]>>();
  for (const hit of hits) {
    let pages = spaces.get(hit.space_id);
    if (!pages) spaces.set(hit.space_id, (pages = new Map()));
    let sections = pages.get(hit.page_id);
    if (!sections) pages.set(hit.page_id, (sections = []));
    sections.push(hit);
  }
  return spaces;
}

async function answer(ctx: ServiceContext, input: string, scope: Parameters<typeof matchingSections>[2]) {
  const query = parseSearchQuery(input);
  const hits = await matchingSections(ctx.db, query, scope, HITS_CONSIDERED);
  const excerpt = excerpter(query);
  return [...groupHits(hits)].map(([spaceId, pages]) => presentSearchSpace(ctx.config.publicUrl, spaceId, pages, excerpt));
}

export async function searchOrganization(ctx: ServiceContext, actor: Actor, organizationId: string, input: string, page: PageRequest) {
  await authorizeInOrganization(ctx, actor, organizationId, 'view');
  const visible = visibleContent(await loadContentCaller(ctx.db, organizationId, actor.user.id));
  const spaceIds = visible ? await spaceIdsVisibleTo(ctx.db, organizationId, visible) : undefined;
  return paginateList(await answer(ctx, input, { organizationId, spaceIds }), page);
}

export async function searchSpace(ctx: ServiceContext, actor: Actor, spaceId: string, input: string, page: PageRequest) {
  const { space } = await authorizeSpace(ctx, actor, spaceId, 'view');
  const [result] = await answer(ctx, input, { organizationId: space.organization_id, spaceIds: [spaceId] });
  return paginateList(result?.pages ?? [], page);
}
