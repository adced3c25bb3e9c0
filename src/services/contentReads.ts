// Reading content: a space's current revision, any revision of it, and a change
// request's revision; pages nested or one at a time, with their markdown.
import { NotFound } from '../errors.ts';
import { requireChangeRequest } from './changeRequests.ts';
import { isRevisionOfSpace } from '../db/repos/revisions.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpace, authorizeSpaceDrafts } from './contentAccess.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import { pagesReadBy } from '../content/adaptive.ts';
import { publishedReaderClaims } from './publishedAccess.ts';
import type { SpaceStanding } from '../policies/content.ts';
import { fileLinks, pageDocumentJson, pageListJson, pageWithContentJson, reusableDocumentJson, revisionJson, type PageContentForm } from './revisionContent.ts';
import { gitPathsOf, loadRevision, pageAtPath, requireFile, requirePage, requireReusableContent, revisionGitOf, type RevisionView } from './revisions.ts';
import { presentFile, presentReusableContent } from '../presenters/revision.ts';

/** Which revision of a space to read: its current one, a given one, or a change request's. */
export type RevisionSelector = ({ current: true } | { revisionId: string } | { changeRequest: string }) & {
  /** false: without git metadata (the API's `metadata` flag). */
  metadata?: boolean;
};

/** A revision as the API presents it: with where its pages and files sit in git, when it matches a commit. */
async function viewOf(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector): Promise<RevisionView> {
  const { view, gitStamp } = await loadedView(ctx, actor, spaceId, selector);
  return selector.metadata === false || gitStamp === null ? view : { ...view, git: await revisionGitOf(ctx, ctx.db, view.revision.id, gitStamp) };
}

/** The revision, and the stamp of the Git commit it matches when the space's read said so already (null: none; undefined: not known). */
async function loadedView(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector): Promise<{ view: RevisionView; gitStamp?: string | null }> {
  if ('changeRequest' in selector) {
    await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
    return { view: await loadRevision(ctx, (await requireChangeRequest(ctx.db, spaceId, selector.changeRequest)).revision_id) };
  }
  const { space, standing, revisionGitStamp } = await authorizeSpace(ctx.db, actor, spaceId, 'view');
  if ('current' in selector) return { view: readBy(await loadRevision(ctx, space.revision_id), standing, actor), gitStamp: revisionGitStamp };
  // What is published is the current revision; other revisions of the space (its
  // history, its change requests') are for those with a role on it.
  const visible = standing === 'published' ? selector.revisionId === space.revision_id : await isRevisionOfSpace(ctx.db, spaceId, selector.revisionId);
  if (!visible) {
    throw new NotFound(`No revision with id "${selector.revisionId}" in this space`);
  }
  return { view: readBy(await loadRevision(ctx, selector.revisionId), standing, actor) };
}

/**
 * A revision as its reader reads it: whole for those with a role on the space; for
 * readers of published content, without the pages their claims do not open, and with
 * what conditions show decided by them (a site token's claims; none for anyone else).
 */
function readBy(view: RevisionView, standing: SpaceStanding, actor: Actor): RevisionView {
  if (standing !== 'published') return view;
  const claims = publishedReaderClaims(actor);
  return { ...view, ...pagesReadBy(view.tree, claims), published: true, claims };
}

/** The revision as JSON text (revisionJson). */
export async function getRevisionContent(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector) {
  return revisionJson(ctx, spaceId, await viewOf(ctx, actor, spaceId, selector));
}

export async function getPages(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector) {
  return pageListJson(ctx, spaceId, await viewOf(ctx, actor, spaceId, selector));
}

export async function getPage(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  selector: RevisionSelector,
  pageId: string,
  form?: PageContentForm,
) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return pageWithContentJson(ctx, spaceId, view, requirePage(view.tree, pageId), form);
}

export async function getPageByPath(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, path: string, form?: PageContentForm) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return pageWithContentJson(ctx, spaceId, view, pageAtPath(view.tree, path), form);
}

/** A page's JSON document alone, its links resolved where the page sits: what GitBook's renderer reads to render it. */
export async function getPageDocument(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, pageId: string, { dereferenced }: PageContentForm = {}) {
  const view = await viewOf(ctx, actor, spaceId, { ...selector, metadata: false });
  const page = requirePage(view.tree, pageId);
  if (page.meta.type !== 'document') throw new NotFound(`Page "${pageId}" is a ${page.meta.type}: only document pages have a document`);
  return pageDocumentJson(ctx, view, page, dereferenced);
}

/**
 * A document of the space's current content by its id, which is the hash of the content
 * it was made from (pages' `documentId`): the same content has the same document.
 */
export async function getDocumentById(ctx: ServiceContext, actor: Actor, spaceId: string, documentId: string) {
  const view = await viewOf(ctx, actor, spaceId, { current: true, metadata: false });
  for (const page of view.tree.values()) if (page.blob === documentId) return pageDocumentJson(ctx, view, page);
  const reusable = view.reusables.find((candidate) => candidate.blob === documentId);
  if (!reusable) throw new NotFound(`No document with id "${documentId}" in this space's content`);
  return reusableDocumentJson(ctx, view, reusable);
}

/**
 * A page's canonical URL and alternate versions. Quire sets neither for a page (its
 * translations are spaces of their own, not alternates of a page): the page is its own
 * canonical, as GitBook answers for a page without them.
 */
export async function getPageMetaLinks(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, pageId: string) {
  const view = await viewOf(ctx, actor, spaceId, { ...selector, metadata: false });
  requirePage(view.tree, pageId);
  return { alternates: [] };
}

export async function getReusableContent(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, reusableContentId: string) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return presentReusableContent(requireReusableContent(view, reusableContentId), gitPathsOf(view).reusables?.[reusableContentId]);
}

/** A reusable content's JSON document, its links resolved as from the space's top. */
export async function getReusableContentDocument(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, reusableContentId: string) {
  const view = await viewOf(ctx, actor, spaceId, { ...selector, metadata: false });
  return reusableDocumentJson(ctx, view, requireReusableContent(view, reusableContentId));
}

export async function listFiles(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, page: PageRequest) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  const links = fileLinks(ctx);
  return paginateList(view.files.map((file) => presentFile(links, file, gitPathsOf(view).files[file.id], view.published)), page);
}

export async function getFile(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, fileId: string) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return presentFile(fileLinks(ctx), requireFile(view, fileId), gitPathsOf(view).files[fileId], view.published);
}
