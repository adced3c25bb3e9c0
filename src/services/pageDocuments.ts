// Pages' documents as the reader renders them, made once per page content: stored in
// the database (deflated, shared by every process and kept across restarts) and the
// recently read kept in memory (ctx.revisions.documents). Converting GitBook markdown costs about 3 ms per KB,
// rendering the document a tenth of that: with the document ready, a page renders in
// tens of milliseconds. Links are kept as written (a document depends on its markdown
// alone, so it is shared by every revision, page position and site that shows the same
// content) and resolved where the page is rendered. After a merge, the pages of spaces
// that sites show are converted ahead, off the request thread, so that their first
// reader does not wait.
import type { JSONDocument } from '../content/document.ts';
import { inReadingOrder, type FlatPage } from '../content/tree.ts';
import { sitesShowingSpaces, spacesShownBySites } from '../db/repos/siteStructure.ts';
import { findChangeRequest } from '../db/repos/changeRequests.ts';
import { findPageDocument, insertPageDocument, storedDocumentHashes } from '../db/repos/pageDocuments.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { findSetting, writeSetting } from '../db/repos/settings.ts';
import { listPublishedSites } from '../db/repos/sites.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { DOCUMENT_CONVERSION } from '../content/gitbook/conversion.ts';
import { isoNow } from '../lib/clock.ts';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { runSized, type Priority } from '../workers/pool.ts';
import type { ServiceContext } from './context.ts';
import { afterCommit, recordSitesUpdated, type CommittedEvent } from './events.ts';
import { loadRevision, markdownOf } from './revisions.ts';

/** Inflating on libuv's threads: a large document would hold the event loop for milliseconds. */
const inflated = promisify(inflate);

/** Converts a page's markdown and stores the document; a conversion of the same content under way is joined, not begun again. */
function convert(ctx: ServiceContext, page: { blob: string }, priority?: Priority): Promise<string> {
  const underWay = ctx.revisions.converting.get(page.blob);
  if (underWay) return underWay;
  const converting = (async () => {
    const markdown = await markdownOf(ctx, ctx.db, page);
    const { json, stored } = await runSized('documentAsWritten', { markdown }, markdown.length, { priority });
    await insertPageDocument(ctx.db, { hash: page.blob, document: stored, conversion: DOCUMENT_CONVERSION, created_at: isoNow(ctx.clock) });
    ctx.revisions.documents.keep(page.blob, json);
    return json;
  })().finally(() => ctx.revisions.converting.delete(page.blob));
  ctx.revisions.converting.set(page.blob, converting);
  return converting;
}

/** The document stored for this content, if any, kept in memory from now on. */
async function storedDocument(ctx: ServiceContext, hash: string): Promise<string | undefined> {
  const row = await findPageDocument(ctx.db, hash, DOCUMENT_CONVERSION);
  if (!row) return undefined;
  const json = (await inflated(Buffer.from(row.document, 'base64'))).toString('utf8');
  ctx.revisions.documents.keep(hash, json);
  return json;
}

/**
 * A page's (or reusable content's) document, its links as written (resolve them with
 * linkResolverFor where the page sits), and whether it was ready or converted now.
 */
export async function pageDocument(ctx: ServiceContext, page: Pick<FlatPage, 'blob'>): Promise<{ document: JSONDocument; ready: boolean }> {
  if (page.blob === null) return { document: { object: 'document', data: {}, nodes: [] }, ready: true };
  const ready = ctx.revisions.documents.get(page.blob) ?? (await storedDocument(ctx, page.blob));
  return { document: JSON.parse(ready ?? (await convert(ctx, { ...page, blob: page.blob }))) as JSONDocument, ready: ready !== undefined };
}

/**
 * Converts ahead the pages of a space's current revision, when a site shows the space,
 * that are not converted yet, one after another on the worker threads. Answers how many.
 */
export async function prepareSpaceDocuments(ctx: ServiceContext, spaceId: string): Promise<number> {
  const space = await findSpace(ctx.db, spaceId);
  if (!space || space.deleted_at || (await sitesShowingSpaces(ctx.db, [spaceId])).length === 0) return 0;
  const { tree } = await loadRevision(ctx, space.revision_id);
  const pages = inReadingOrder(tree, { leaveOutHidden: true }).filter((page): page is FlatPage & { blob: string } => page.blob !== null && page.meta.type === 'document');
  const stored = await storedDocumentHashes(ctx.db, [...new Set(pages.map((page) => page.blob))], DOCUMENT_CONVERSION);
  let converted = 0;
  for (const page of pages) {
    if (stored.has(page.blob)) continue;
    await convert(ctx, page, 'background');
    stored.add(page.blob);
    converted++;
  }
  return converted;
}

export const PREPARE_DOCUMENTS_JOB = 'prepare-documents';

export const PREPARE_WRITTEN_DOCUMENTS_JOB = 'prepare-written-documents';

export interface WrittenDocuments {
  spaceId: string;
  changeRequestId: string;
  /** The change request's revision the documents were written in. */
  revisionId: string;
  blobs: string[];
}

/**
 * After a save of JSON documents (the editor's): the documents of the pages it wrote,
 * made ahead, since the writer's next opening of a page reads its document, and
 * converting the markdown of a page of 5,000 blocks took 2-4 s of that opening
 * (bench/editor-browser.ts). A save a later one superseded before this ran is skipped:
 * an editor saves every few seconds, and its latest content is what opens next.
 */
export async function prepareWrittenDocuments(ctx: ServiceContext, written: WrittenDocuments): Promise<void> {
  const changeRequest = await findChangeRequest(ctx.db, written.spaceId, written.changeRequestId);
  if (changeRequest?.revision_id !== written.revisionId) return;
  const stored = await storedDocumentHashes(ctx.db, written.blobs, DOCUMENT_CONVERSION);
  for (const blob of written.blobs) {
    if (!stored.has(blob) && ctx.revisions.documents.get(blob) === undefined) await convert(ctx, { blob }, 'background');
  }
}

/** The job queued when the conversion moved (followConversionChange): the documents of every space a site shows, made ahead of their readers again. */
export async function prepareShownSpacesDocuments(ctx: ServiceContext): Promise<void> {
  for (const spaceId of await spacesShownBySites(ctx.db)) {
    ctx.log.info({ spaceId, documents: await prepareSpaceDocuments(ctx, spaceId) }, 'page documents: made for this conversion');
  }
}

/** The conversion the installation's processes last started with. */
const CONVERSION_SETTING = 'document-conversion';

/**
 * At start, when the conversion that reads markdown has moved since the installation
 * last started (an upgrade that reads some markdown otherwise): the documents of the
 * spaces sites show are made again ahead of their readers (a job), and every published
 * site is announced updated, so that GitBook's renderer stops serving pages rendered
 * from the earlier reading. A document or search index of another conversion is never
 * served meanwhile (this module, services/search.ts), and Quire's rendered
 * pages live in a process's memory.
 */
export async function followConversionChange(ctx: ServiceContext): Promise<void> {
  const current = String(DOCUMENT_CONVERSION);
  // Read first: most starts find it current, and need not take SQLite's write lock to know.
  if ((await findSetting(ctx.db, CONVERSION_SETTING)) === current) return;
  const committed = await ctx.db.transaction().execute(async (trx) => {
    if ((await findSetting(trx, CONVERSION_SETTING)) === current) return undefined;
    await writeSetting(trx, CONVERSION_SETTING, current);
    await enqueueJob(trx, ctx.clock, PREPARE_DOCUMENTS_JOB, {});
    const all: CommittedEvent = { held: [], queued: [] };
    for (const site of await listPublishedSites(trx)) {
      const announced = await recordSitesUpdated(ctx, trx, site.organization_id, [site.id]);
      all.held.push(...announced.held);
      all.queued.push(...announced.queued);
    }
    return all;
  });
  await afterCommit(ctx, committed);
}
