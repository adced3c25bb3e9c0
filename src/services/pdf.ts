// PDFs of a change request's content: the API answers a signed link; the link renders
// the pages when it is fetched, so the PDF always shows the revision it was made for.
import { BadRequest, NotFound } from '../errors.ts';
import { PDF_DEFAULT_LIMITS } from '../config.ts';
import { MessageChannel } from 'node:worker_threads';
import { PassThrough, type Readable } from 'node:stream';
import { getAll } from '../content/objects.ts';
import { namedFiles } from '../content/document.ts';
import { inReadingOrder, type FlatPage, type FlatTree } from '../content/tree.ts';
import { requireChangeRequest } from './changeRequests.ts';
import { databaseObjectStore, objectSizes } from '../db/repos/contentObjects.ts';
import { runOffThread } from '../workers/pool.ts';
import { signLink, verifyLink } from '../lib/signedLinks.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { loadRevision } from './revisions.ts';

const PDF_LINK_MS = 60 * 60 * 1000;

interface PdfLink {
  revision: string;
  page?: string;
  only?: boolean;
}

/** The pages a link exports, in reading order. */
function pagesOf(tree: FlatTree, link: Omit<PdfLink, 'revision'>): FlatPage[] {
  if (!link.page) return inReadingOrder(tree);
  return link.only ? [tree.get(link.page)!] : inReadingOrder(tree, { from: link.page });
}

/** Refuses an export over the limits up front, naming its size and how to make it smaller. */
async function assertPdfFits(ctx: ServiceContext, pages: FlatPage[]): Promise<void> {
  const maxPages = ctx.config.pdfMaxPages ?? PDF_DEFAULT_LIMITS.pages;
  const maxText = ctx.config.pdfMaxText ?? PDF_DEFAULT_LIMITS.text;
  const hashes = pages.flatMap((page) => (page.blob ? [page.blob] : []));
  const sizes = await objectSizes(ctx.db, [...new Set(hashes)]);
  const markdown = hashes.reduce((sum, hash) => sum + (sizes.get(hash) ?? 0), 0);
  if (pages.length > maxPages || markdown > maxText) {
    throw new BadRequest(
      `A PDF holds at most ${maxPages} pages and ${(maxText / (1024 * 1024)).toFixed(1)} MB of text; this one would hold ` +
        `${pages.length} pages and ${(markdown / (1024 * 1024)).toFixed(1)} MB. Export a part of it with page=<pageId>.`,
    );
  }
}

export async function changeRequestPdfLink(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  idOrNumber: string,
  options: { page?: string; only?: boolean },
) {
  await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
  const changeRequest = await requireChangeRequest(ctx.db, spaceId, idOrNumber);
  if (options.only && !options.page) throw new BadRequest('only: name the page with page=<pageId>');
  const view = await loadRevision(ctx, changeRequest.revision_id);
  if (options.page && !view.tree.has(options.page)) throw new NotFound(`No page with id "${options.page}" in this change request`);
  await assertPdfFits(ctx, pagesOf(view.tree, options));
  const link: PdfLink = { revision: changeRequest.revision_id, ...options };
  const token = signLink(link, ctx.linkKey, new Date(ctx.clock.now().getTime() + PDF_LINK_MS));
  return { url: `${ctx.config.publicUrl}/pdf/${token}` };
}

/**
 * The PDF behind a link as a stream, or undefined when the link is forged or expired.
 * A worker thread parses and renders it and sends its bytes as they are made.
 */
export async function renderPdfLink(ctx: ServiceContext, token: string): Promise<Readable | undefined> {
  const link = verifyLink<PdfLink>(token, ctx.linkKey, ctx.clock.now());
  if (!link) return undefined;
  const view = await loadRevision(ctx, link.revision);
  const pages = pagesOf(view.tree, link);
  await assertPdfFits(ctx, pages);
  const store = databaseObjectStore(ctx.db);
  const markdown = await getAll(store, [...new Set([...pages.flatMap((page) => (page.blob ? [page.blob] : [])), ...view.reusables.map((reusable) => reusable.blob)])]);
  const imageFiles = view.files.filter((file) => file.contentType.startsWith('image/'));
  const imageBlobs = await store.get(imageFiles.map((file) => file.blob));
  const images = new Map(imageFiles.flatMap((file) => {
    const base64 = imageBlobs.get(file.blob);
    return base64 ? [[file.id, new Uint8Array(Buffer.from(base64, 'base64'))] as const] : [];
  }));
  const { port1, port2 } = new MessageChannel();
  const pdf = new PassThrough();
  // The port, not the task's answer, says when the PDF is whole: the answer can arrive before the last chunks.
  port1.on('message', (chunk: Uint8Array | null) => {
    if (chunk !== null) return void pdf.write(chunk);
    pdf.end();
    port1.close();
  });
  runOffThread(
    'pdf',
    {
      pages: pages.map((page) => ({ id: page.id, title: page.meta.title, markdown: page.blob ? markdown.get(page.blob)! : '' })),
      reusables: new Map(view.reusables.map((reusable) => [reusable.id, markdown.get(reusable.blob)!])),
      tree: view.tree,
      files: namedFiles(view.files),
      images,
      port: port2,
    },
    { transferList: [port2] },
  ).catch((error: unknown) => {
    port1.close();
    ctx.log.error({ err: error, revision: link.revision }, 'rendering a PDF failed');
    pdf.destroy(error as Error);
  });
  return pdf;
}
