// Search: keeping the index in step with each space's current revision, and answering
// queries grouped space → pages → sections. Indexing compares the indexed revision's
// tree with the new one and rewrites only the pages whose text, title or path changed
// (a page's text holds what it includes: a changed reusable content rewrites its pages).
// The sections are made outside any transaction (large pages on worker threads) and
// written in short ones that check the space has not moved, so no write waits on parsing.
import { getAll } from '../content/objects.ts';
import { excerpter, parseSearchQuery, queryMatcher, type PageSection, type SearchQuery } from '../content/search.ts';
import { DOCUMENT_CONVERSION } from '../content/gitbook/conversion.ts';
import { runInTextBatches, runSized } from '../workers/pool.ts';
import { pagePath, shownToReaders, type FlatTree, type TreeOutline } from '../content/tree.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { insertSections, matchingSections } from '../db/fullText.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import { allLiveSpaceIds, spaceIdsVisibleTo, spaceOrganizationId, spaceRevisionId } from '../db/repos/spaces.ts';
import { deleteSections, deleteSectionSpan, forgetSpaceIndexed, indexedPageIds, markSpaceIndexed, searchIndexPosition, staleIndexSpaces } from '../db/repos/searchIndex.ts';
import { lockRow } from '../db/dialect.ts';
import { enqueueJobOnce } from '../jobs/queue.ts';
import type { Kysely } from 'kysely';
import { setImmediate } from 'node:timers/promises';
import type { Database, Db, SectionHit } from '../db/schema.ts';
import { presentSearchSpace, type FoundPage } from '../presenters/search.ts';
import { authorizeSpace, loadContentCallerOf, visibleContent } from './contentAccess.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeInOrganization } from './organizations.ts';
import { authorizeSiteRead } from './siteAccess.ts';
import { pageReadBy } from '../content/adaptive.ts';
import { shownStructure } from '../lib/siteStructure.ts';
import { publishedReaderClaims } from './publishedAccess.ts';
import { readSiteStructure } from '../db/repos/siteStructure.ts';
import { BadRequest } from '../errors.ts';
import { markdownReadBy, markdownWithIncludes } from './revisionContent.ts';
import { processRevisionCaches } from './revisionCaches.ts';
import { listsOf, loadRevision, markdownsOf, requireRevision, treeOf, treeOutlineOf, type RevisionsContext } from './revisions.ts';
import { hasConditionalBlocks, withIncludedMarkdown } from '../content/document.ts';

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

/** Indexing runs from a database handle alone (the job, `quire reindex`): it reads through the process's caches. */
const INDEXING: RevisionsContext = { revisions: processRevisionCaches };

/** What search indexes of a revision: its tree, and its reusable contents by id (the blob of each one's markdown). */
async function indexedContentOf(db: Db, revisionId: string | undefined): Promise<{ tree: FlatTree; reusables: Map<string, string> }> {
  if (!revisionId) return { tree: new Map(), reusables: new Map() };
  const revision = await requireRevision(INDEXING, db, revisionId);
  const [tree, { reusables }] = await Promise.all([treeOf(INDEXING, db, revision.root_hash), listsOf(INDEXING, db, revision)]);
  return { tree, reusables: new Map(reusables.map((reusable) => [reusable.id, reusable.blob])) };
}

async function outlineOfRevision(ctx: ServiceContext, revisionId: string): Promise<TreeOutline> {
  return treeOutlineOf(ctx, ctx.db, (await requireRevision(ctx, ctx.db, revisionId)).root_hash);
}

/** What moving a space's index from one revision to another writes: sections made before any transaction. */
interface IndexPlan {
  from: string | null;
  to: string;
  /** Pages whose sections go: removed, or rewritten below. */
  stale: string[];
  /** Pages whose sections are rewritten. */
  fresh: string[];
  rows: SectionRow[];
}

/** Pages' markdown as search indexes it: with what they include in place, as readers see them. */
async function indexedTexts(db: Db, pages: IndexedPage[], reusables: Map<string, string>): Promise<Array<{ markdown: string; title: string }>> {
  const blobs = await getAll(databaseObjectStore(db), [...new Set([...pages.flatMap((page) => (page.blob ? [page.blob] : [])), ...reusables.values()])]);
  const included = (id: string) => (reusables.has(id) ? blobs.get(reusables.get(id)!) : undefined);
  return pages.map((page) => ({ markdown: page.blob ? withIncludedMarkdown(blobs.get(page.blob)!, included) : '', title: page.title }));
}

/** Compares the indexed revision's pages with the new ones: pages added, removed, edited, renamed or moved are rewritten, and those that include a reusable content that changed. */
async function planIndex(db: Db, spaceId: string, from: string | null, to: string): Promise<IndexPlan> {
  const [{ tree: before, reusables: oldReusables }, { tree: after, reusables: newReusables }] = await Promise.all([indexedContentOf(db, from ?? undefined), indexedContentOf(db, to)]);
  const oldPages = indexedPages(before);
  const newPages = indexedPages(after);
  const unchanged = (id: string, page: IndexedPage) => {
    const old = oldPages.get(id);
    return old !== undefined && old.blob === page.blob && old.title === page.title && old.path === page.path;
  };
  const fresh = [...newPages].filter(([id, page]) => !unchanged(id, page));
  // A reusable content that changed changes the text of every page that includes it (rare: read every other page only then).
  const changedReusables = [...new Set([...oldReusables.keys(), ...newReusables.keys()])].filter((id) => oldReusables.get(id) !== newReusables.get(id));
  if (changedReusables.length > 0) {
    const kept = [...newPages].filter(([id, page]) => page.blob !== null && unchanged(id, page));
    const texts = await getAll(databaseObjectStore(db), [...new Set(kept.map(([, page]) => page.blob!))]);
    fresh.push(...kept.filter(([, page]) => changedReusables.some((id) => texts.get(page.blob!)!.includes(id))));
  }
  const freshIds = new Set(fresh.map(([id]) => id));
  const stale = [...oldPages.keys()].filter((id) => !newPages.has(id) || freshIds.has(id));
  const texts = await indexedTexts(db, fresh.map(([, page]) => page), newReusables);
  const sections = await runInTextBatches(texts, (text) => text.markdown.length, (batch, size) => runSized('sectionsOf', { pages: batch }, size));
  const rows = fresh.flatMap(([pageId, page], index) => sectionRows(spaceId, pageId, page, sections[index]));
  return { from, to, stale, fresh: fresh.map(([pageId]) => pageId), rows };
}

/**
 * Rows one transaction writes at most. SQLite spends about 0.1 ms a row with its
 * full-text triggers, and every other writer waits for the transaction: a large page
 * holds thousands of sections, so its rows go in several.
 */
const ROWS_PER_TRANSACTION = 400;

type SectionRow = ReturnType<typeof sectionRows>[number];
/** One transaction's worth of index writes; answers true when it has more to do and must run again. */
type IndexWrite = (trx: Db) => Promise<boolean>;

/** Deletes up to ROWS_PER_TRANSACTION sections of the pages from `from` on; true when there may be more. */
async function deleteSomeSections(trx: Db, spaceId: string, pageIds: string[], from = 0): Promise<boolean> {
  return (await deleteSections(trx, spaceId, pageIds, from, ROWS_PER_TRANSACTION)) === ROWS_PER_TRANSACTION;
}

/**
 * The writes that replace the sections of `pages` with `rows`, each small enough for its
 * own transaction: deleting a large page's sections costs as much as writing them. A
 * chunk of a page's rows replaces the sections with the same indexes, and the page's
 * last chunk deletes those past its end, so a write repeated after a restart, or
 * interleaved with another process writing the same revision, converges on the same
 * rows. Searches in between see a page part-way indexed, never twice.
 */
function indexWrites(spaceId: string, pages: string[], rows: SectionRow[]): IndexWrite[] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.page_id, (counts.get(row.page_id) ?? 0) + 1);
  const emptied = pages.filter((pageId) => !counts.has(pageId));
  const writes: IndexWrite[] = [];
  for (let start = 0; start < emptied.length; start += 500) {
    const chunk = emptied.slice(start, start + 500);
    writes.push((trx) => deleteSomeSections(trx, spaceId, chunk));
  }
  for (let start = 0; start < rows.length; start += ROWS_PER_TRANSACTION) {
    const chunk = rows.slice(start, start + ROWS_PER_TRANSACTION);
    const spans = new Map<string, { first: number; last: number }>();
    for (const row of chunk) {
      const span = spans.get(row.page_id);
      if (span) span.last = row.section_index;
      else spans.set(row.page_id, { first: row.section_index, last: row.section_index });
    }
    writes.push(async (trx) => {
      let more = false;
      for (const [pageId, { first, last }] of spans) await deleteSectionSpan(trx, spaceId, pageId, first, last);
      // Read under the space's lock (writeInSteps): a transfer to another organization moves the rows it finds, and these follow it.
      const organization_id = await spaceOrganizationId(trx, spaceId);
      for (let at = 0; at < chunk.length; at += 200) {
        await insertSections(trx, organization_id, chunk.slice(at, at + 200).map((row) => ({ ...row, organization_id })));
      }
      for (const [pageId, { last }] of spans) {
        if (last === counts.get(pageId)! - 1) more = (await deleteSomeSections(trx, spaceId, [pageId], last + 1)) || more;
      }
      return more;
    });
  }
  return writes;
}

/** Until its last write is in, a space written in several transactions counts as not indexed: a stop or a move in between has it indexed anew. */
async function forgetIndexed(trx: Db, spaceId: string): Promise<boolean> {
  await forgetSpaceIndexed(trx, spaceId);
  return false;
}

async function markIndexed(trx: Db, spaceId: string, revisionId: string): Promise<void> {
  await markSpaceIndexed(trx, spaceId, revisionId, DOCUMENT_CONVERSION);
}

/**
 * Runs each write in its own transactions (again while it says it has more to do),
 * each first locking the space and checking `stillValid` (told which step it is);
 * answers false as soon as that fails (the space moved: plan again). `last` runs in the
 * final transaction.
 */
async function writeInSteps(
  db: Kysely<Database>,
  spaceId: string,
  writes: IndexWrite[],
  stillValid: (trx: Db, step: number) => Promise<boolean>,
  last?: (trx: Db) => Promise<void>,
): Promise<boolean> {
  const steps: IndexWrite[] = writes.length > 0 ? writes : [async () => false];
  for (const [index, write] of steps.entries()) {
    for (;;) {
      const outcome = await db.transaction().execute(async (trx) => {
        await lockRow(trx, 'spaces', spaceId);
        if (!(await stillValid(trx, index))) return 'moved';
        if (await write(trx)) return 'more';
        if (index === steps.length - 1) await last?.(trx);
        return 'done';
      });
      if (outcome === 'moved') return false;
      // SQLite answers synchronously: without a turn of the event loop here, one
      // transaction would follow the other and no request would be served in between.
      await setImmediate();
      if (outcome === 'done') break;
    }
  }
  return true;
}

/**
 * Brings a space's search index to its current revision, after the change that moved
 * it has committed: the sections are made first, outside any transaction (on worker
 * threads for large pages), then written in short transactions that each check nothing
 * moved meanwhile (else it plans again); the index counts as moved only with the last.
 * A space never indexed, or indexed by an earlier conversion, is indexed anew. Should
 * the process stop in between, the start's catch-up plans the same writes again and
 * finishes them.
 * Answers how many pages it rewrote.
 */
export async function catchUpSearchIndex(db: Kysely<Database>, spaceId: string): Promise<number> {
  const positions = (reader: Db) => searchIndexPosition(reader, spaceId);
  for (;;) {
    const at = await positions(db);
    if (!at) return 0;
    // Sections an earlier conversion made are made again, every page's.
    if (at.indexed === null || (at.conversion ?? 0) < DOCUMENT_CONVERSION) return reindexSpace(db, spaceId);
    if (at.indexed === at.current) return 0;
    const plan = await planIndex(db, spaceId, at.indexed, at.current);
    const writes = indexWrites(spaceId, [...plan.stale, ...plan.fresh], plan.rows);
    const steps: IndexWrite[] = writes.length > 1 ? [(trx) => forgetIndexed(trx, spaceId), ...writes] : writes;
    const written = await writeInSteps(
      db,
      spaceId,
      steps,
      async (trx, step) => {
        const now = await positions(trx);
        return now !== undefined && now.current === plan.to && now.indexed === (step === 0 ? plan.from : null);
      },
      (trx) => markIndexed(trx, spaceId, plan.to),
    );
    if (written) return plan.fresh.length;
  }
}

/** Pages sectioned at a time when a space is indexed anew, so memory stays bounded. */
const PAGES_PER_BATCH = 100;

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
    const revisionId = await spaceRevisionId(db, spaceId);
    if (revisionId === undefined) return 0;
    const { tree, reusables } = await indexedContentOf(db, revisionId);
    const pages = [...indexedPages(tree)];
    const before = await indexedPageIds(db, spaceId);
    const stillCurrent = async (trx: Db) => (await spaceRevisionId(trx, spaceId)) === revisionId;
    let current = await writeInSteps(db, spaceId, [(trx) => forgetIndexed(trx, spaceId)], stillCurrent);
    for (let start = 0; start < pages.length && current; start += PAGES_PER_BATCH) {
      const batch = pages.slice(start, start + PAGES_PER_BATCH);
      const texts = await indexedTexts(db, batch.map(([, page]) => page), reusables);
      const sections = await runInTextBatches(texts, (text) => text.markdown.length, (part, size) => runSized('sectionsOf', { pages: part }, size));
      const rows = batch.flatMap(([pageId, page], index) => sectionRows(spaceId, pageId, page, sections[index]));
      current = await writeInSteps(db, spaceId, indexWrites(spaceId, batch.map(([pageId]) => pageId), rows), stillCurrent);
    }
    if (!current) continue;
    const live = new Set(pages.map(([pageId]) => pageId));
    const gone = before.filter((pageId) => !live.has(pageId));
    const finished = await writeInSteps(db, spaceId, indexWrites(spaceId, gone, []), stillCurrent, (trx) => markIndexed(trx, spaceId, revisionId));
    if (finished) return pages.length;
  }
}

/** Rebuilds the index of every live space from its current revision (`quire reindex`), reporting each space as it is done. */
export async function reindexEverything(
  db: Kysely<Database>,
  onSpace?: (progress: { spaceId: string; pages: number; done: number; of: number }) => void,
): Promise<void> {
  const spaceIds = await allLiveSpaceIds(db);
  for (const [index, spaceId] of spaceIds.entries()) {
    const pages = await reindexSpace(db, spaceId);
    onSpace?.({ spaceId, pages, done: index + 1, of: spaceIds.length });
  }
}

export const CATCH_UP_SEARCH_JOB = 'catch-up-search';

/**
 * At start, queues the catch-up of live spaces whose index is missing or behind their
 * revision or the conversion: spaces that existed before search did, a database
 * restored from elsewhere, a change whose process stopped before its index caught up,
 * or an upgrade that reads some markdown otherwise. One query when nothing is behind; the indexing itself is a job,
 * so a start never waits on the size of the content.
 */
export async function scheduleSearchCatchUp(ctx: ServiceContext): Promise<void> {
  if ((await staleIndexSpaces(ctx.db, DOCUMENT_CONVERSION, 1)).length === 0) return;
  await enqueueJobOnce(ctx, CATCH_UP_SEARCH_JOB, {});
}

/** The catch-up job: each stale space in turn; run again after a stop, it finds only what is still behind. */
export async function catchUpStaleSpaces(ctx: ServiceContext): Promise<void> {
  const stale = await staleIndexSpaces(ctx.db, DOCUMENT_CONVERSION);
  for (const space of stale) ctx.log.info({ spaceId: space.id, pages: await catchUpSearchIndex(ctx.db, space.id) }, 'search index: space caught up');
  if (stale.length > 0) ctx.log.info({ spaces: stale.length }, 'search index caught up');
}

/**
 * Hits as a reader with these claims may see them. The index holds the text of blocks
 * shown on a condition ({% if %}), for members' searches; in a page holding such blocks
 * each hit's text becomes what the reader's claims show of its section, and a hit whose
 * query that text no longer holds is left out: neither the words nor the fact of the
 * match reach a reader the condition hides them from. Other pages' hits are as found.
 */
async function hitsReadBy(ctx: ServiceContext, hits: SectionHit[], query: SearchQuery, claims: Record<string, unknown>): Promise<SectionHit[]> {
  const sectionsByPage = new Map<string, PageSection[]>();
  for (const revisionId of new Set(hits.map((hit) => hit.space_revision_id))) {
    const view = await loadRevision(ctx, revisionId);
    const pages = [...new Set(hits.filter((hit) => hit.space_revision_id === revisionId).map((hit) => hit.page_id))].flatMap((id) => view.tree.get(id) ?? []);
    const stored = await markdownsOf(ctx, ctx.db, pages);
    for (const [index, page] of pages.entries()) {
      const markdown = await markdownWithIncludes(ctx, view, page, stored[index]);
      if (!hasConditionalBlocks(markdown)) continue;
      const readable = await markdownReadBy(markdown, claims);
      const [sections] = await runSized('sectionsOf', { pages: [{ markdown: readable, title: page.meta.title }] }, readable.length);
      sectionsByPage.set(`${revisionId} ${page.id}`, sections);
    }
  }
  if (sectionsByPage.size === 0) return hits;
  const matches = queryMatcher(query);
  return hits.flatMap((hit) => {
    const sections = sectionsByPage.get(`${hit.space_revision_id} ${hit.page_id}`);
    if (!sections) return [hit];
    const section = sections.find((candidate) => candidate.anchor === hit.anchor && candidate.heading === hit.heading);
    return section && matches(`${hit.page_title}\n${section.heading}\n${section.text}`) ? [{ ...hit, body: section.text }] : [];
  });
}

/** Sections read at most per query when hits in pages the reader may not read are left out. */
const HITS_CONSIDERED_AT_MOST = HITS_CONSIDERED * 16;

/** Who reads a search's hits: a reader of a published site (hidden pages left out), and a reader of published content's claims. */
interface ReaderOfHits {
  leaveOutHidden?: boolean;
  claims?: Record<string, unknown>;
}

/**
 * The first HITS_CONSIDERED matches in pages the reader may read, and the outlines of
 * their spaces. Hits in other pages (not in the space's current content, hidden from a
 * published site's readers, closed to the reader's claims) are left out after the match;
 * when some were and the match may hold more, it looks further, so pages a reader cannot
 * read do not take the places of those they can.
 */
async function matchesInReadablePages(ctx: ServiceContext, query: SearchQuery, scope: Parameters<typeof matchingSections>[2], reader: ReaderOfHits) {
  for (let considered = HITS_CONSIDERED; ; considered *= 4) {
    const matched = await matchingSections(ctx.db, query, scope, considered);
    const revisions = new Map(matched.map((hit) => [hit.space_id, hit.space_revision_id]));
    const outlines = new Map(await Promise.all([...revisions].map(async ([spaceId, revisionId]) => [spaceId, await outlineOfRevision(ctx, revisionId)] as const)));
    const inReadablePages = matched.filter((hit) => {
      const outline = outlines.get(hit.space_id);
      return outline?.has(hit.page_id) && (!reader.leaveOutHidden || shownToReaders(outline, hit.page_id)) && pageReadBy(outline, hit.page_id, reader.claims);
    });
    if (inReadablePages.length >= HITS_CONSIDERED || matched.length < considered || considered >= HITS_CONSIDERED_AT_MOST) {
      return { inReadablePages: inReadablePages.slice(0, HITS_CONSIDERED), outlines };
    }
  }
}

/**
 * The first HITS_CONSIDERED hits of a query a reader may see, best first, and the
 * outlines of their spaces: only in pages they may read, and, for a reader of published
 * content, as their claims show those pages (hitsReadBy).
 */
export async function hitsSeenBy(ctx: ServiceContext, query: SearchQuery, scope: Parameters<typeof matchingSections>[2], reader: ReaderOfHits) {
  const { inReadablePages, outlines } = await matchesInReadablePages(ctx, query, scope, reader);
  return { hits: reader.claims ? await hitsReadBy(ctx, inReadablePages, query, reader.claims) : inReadablePages, outlines };
}

/**
 * The matches of a query among the given spaces, as GitBook answers a search: spaces,
 * each with its pages best first. Ranked by the index (title matches first, then the
 * body's by relevance); a page found in a space's current content only, never one
 * closed to the reader's claims (pagesReadBy) or under one, and, for readers of a
 * published site, never a hidden page or one under it.
 */
async function answer(
  ctx: ServiceContext,
  input: string,
  scope: Parameters<typeof matchingSections>[2],
  reader: ReaderOfHits = {},
) {
  const query = parseSearchQuery(input);
  const { hits, outlines } = await hitsSeenBy(ctx, query, scope, reader);
  const found = new Map<string, Map<string, FoundPage>>();
  let rank = 0;
  hits.forEach((hit, index) => {
    const page = outlines.get(hit.space_id)!.get(hit.page_id)!;
    let pages = found.get(hit.space_id);
    if (!pages) found.set(hit.space_id, (pages = new Map()));
    let entry = pages.get(page.id);
    if (!entry) pages.set(page.id, (entry = { page, sections: [], rank: ++rank }));
    entry.sections.push({ ...hit, score: hits.length - index });
  });
  const excerpt = excerpter(query);
  return [...found].map(([spaceId, pages]) => presentSearchSpace(ctx.config.publicUrl, spaceId, [...pages.values()][0].sections[0].space_title, outlines.get(spaceId)!, [...pages.values()], excerpt));
}

export async function searchOrganization(ctx: ServiceContext, actor: Actor, organizationId: string, input: string, page: PageRequest) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  const visible = visibleContent(await loadContentCallerOf(ctx, ctx.db, actor, organizationId));
  const spaceIds = visible ? await spaceIdsVisibleTo(ctx.db, organizationId, visible) : undefined;
  return paginateList(await answer(ctx, input, { organizationId, spaceIds }), page);
}

export async function searchSpace(ctx: ServiceContext, actor: Actor, spaceId: string, input: string, page: PageRequest) {
  const { space, standing } = await authorizeSpace(ctx.db, actor, spaceId, 'view');
  const claims = standing === 'published' ? publishedReaderClaims(actor) : undefined;
  const [result] = await answer(ctx, input, { organizationId: space.organization_id, spaceIds: [spaceId] }, { claims });
  return paginateList(result?.pages ?? [], page);
}

/** Which of a site's spaces a search covers, as GitBook's renderer says it (scope), or as its older clients did (mode). */
export interface SiteSearchRequest {
  query: string;
  scope?: { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' } | { mode: 'specific'; siteSpaceIds: string[] } | { mode: 'all' };
  mode?: 'specific' | 'current' | 'all';
  siteSpaceIds?: string[];
  siteSpaceId?: string;
}

/**
 * POST /orgs/{organizationId}/sites/{siteId}/search: the site's published content as
 * its reader sees it (sections and site spaces their claims show, no hidden pages). The
 * default scope is each section's default content, with the reader's current site space.
 */
export async function searchSite(ctx: ServiceContext, actor: Actor, organizationId: string, siteId: string, request: SiteSearchRequest, page: PageRequest) {
  const { site, claims } = await authorizeSiteRead(ctx, actor, organizationId, siteId, {});
  const structure = await readSiteStructure(ctx.db, site.id);
  const { sections, siteSpaces: shown } = shownStructure(structure, claims);
  const requireShown = (id: string, field: string) => {
    const found = shown.find((siteSpace) => siteSpace.id === id);
    if (!found) throw new BadRequest(`${field}: no site space "${id}" in this site`);
    return found;
  };
  const defaults = sections.length === 0
    ? shown.filter((siteSpace) => siteSpace.id === site.default_site_space_id)
    : sections.flatMap((section) => {
        const inSection = shown.filter((siteSpace) => siteSpace.section_id === section.id);
        return inSection.filter((siteSpace) => siteSpace.id === section.default_site_space_id).concat(inSection).slice(0, 1);
      });
  const scope = request.scope ?? (request.mode === 'specific' ? { mode: 'specific' as const, siteSpaceIds: request.siteSpaceIds ?? [] } : request.mode === 'current' ? { mode: 'default' as const, currentSiteSpace: request.siteSpaceId } : { mode: 'all' as const });
  let searched: typeof shown;
  if (scope.mode === 'all') searched = shown;
  else if (scope.mode === 'specific') searched = scope.siteSpaceIds.map((id) => requireShown(id, 'scope.siteSpaceIds'));
  else {
    const current = scope.currentSiteSpace !== undefined ? requireShown(scope.currentSiteSpace, 'scope.currentSiteSpace') : undefined;
    if (scope.restrictTo && !current) throw new BadRequest('scope.restrictTo needs scope.currentSiteSpace: the site space the search is made from');
    if (scope.restrictTo === 'currentSiteSpace') searched = [current!];
    else if (scope.restrictTo === 'otherSiteSpaces') searched = defaults.filter((siteSpace) => siteSpace.id !== current!.id);
    else searched = current && !defaults.includes(current) ? [current, ...defaults] : defaults;
  }
  const spaceIds = [...new Set(searched.map((siteSpace) => siteSpace.space_id))];
  return paginateList(await answer(ctx, request.query, { organizationId: site.organization_id, spaceIds }, { leaveOutHidden: true, claims }), page);
}
