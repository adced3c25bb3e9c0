// PDFs of a change request's content: the API answers a signed link; the link renders
// the pages when it is fetched, so the PDF always shows the revision it was made for.
import { BadRequest, NotFound } from '../errors.ts';
import { linkResolverFor, markdownToDocument } from '../content/document.ts';
import { renderPdf } from '../content/pdf.ts';
import { childrenByParent, type FlatPage, type FlatTree } from '../content/tree.ts';
import { requireChangeRequest } from './changeRequests.ts';
import { databaseObjectStore } from '../db/repos/contentObjects.ts';
import { signLink, verifyLink } from '../lib/signedLinks.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { loadRevision, markdownOf } from './revisionContent.ts';

const PDF_LINK_MS = 60 * 60 * 1000;

interface PdfLink {
  revision: string;
  page?: string;
  only?: boolean;
}

export async function changeRequestPdfLink(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  idOrNumber: string,
  options: { page?: string; only?: boolean },
) {
  await authorizeSpaceDrafts(ctx, actor, spaceId, 'view');
  const changeRequest = await requireChangeRequest(ctx.db, spaceId, idOrNumber);
  if (options.only && !options.page) throw new BadRequest('only: name the page with page=<pageId>');
  if (options.page) {
    const view = await loadRevision(ctx, changeRequest.revision_id);
    if (!view.tree.has(options.page)) throw new NotFound(`No page with id "${options.page}" in this change request`);
  }
  const link: PdfLink = { revision: changeRequest.revision_id, ...options };
  const token = signLink(link, ctx.linkKey, new Date(ctx.clock.now().getTime() + PDF_LINK_MS));
  return { url: `${ctx.config.publicUrl}/pdf/${token}` };
}

/** Pages in reading order: each page, then its sub-pages. */
function inReadingOrder(tree: FlatTree, from: string | null): FlatPage[] {
  const children = childrenByParent(tree);
  const walk = (parentId: string | null): FlatPage[] => (children.get(parentId) ?? []).flatMap((page) => [page, ...walk(page.id)]);
  if (from === null) return walk(null);
  return [tree.get(from)!, ...walk(from)];
}

/** The PDF behind a link, or undefined when the link is forged or expired. */
export async function renderPdfLink(ctx: ServiceContext, token: string): Promise<Buffer | undefined> {
  const link = verifyLink<PdfLink>(token, ctx.linkKey, ctx.clock.now());
  if (!link) return undefined;
  const view = await loadRevision(ctx, link.revision);
  const pages = link.page ? (link.only ? [view.tree.get(link.page)!] : inReadingOrder(view.tree, link.page)) : inReadingOrder(view.tree, null);
  const resolver = linkResolverFor(view.tree);
  const store = databaseObjectStore(ctx.db);
  const imageBlobs = await store.get(view.files.filter((file) => file.contentType.startsWith('image/')).map((file) => file.blob));
  const images = new Map(view.files.map((file) => [file.id, imageBlobs.get(file.blob)]));
  const documents = await Promise.all(
    pages.map(async (page) => ({ title: page.meta.title, document: markdownToDocument(await markdownOf(ctx.db, page), resolver) })),
  );
  return renderPdf(documents, (fileId) => {
    const base64 = images.get(fileId);
    return base64 ? Buffer.from(base64, 'base64') : undefined;
  });
}
