// Reading content: a space's current revision, any revision of it, and a change
// request's revision; pages nested or one at a time, with their markdown.
import { NotFound } from '../errors.ts';
import { requireChangeRequest } from './changeRequests.ts';
import { isRevisionOfSpace } from '../db/repos/revisions.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpace, authorizeSpaceDrafts } from './contentAccess.ts';
import { presentPageTree } from '../presenters/page.ts';
import { paginateList, type PageRequest } from '../db/pagination.ts';
import {
  gitPathsOf,
  loadRevision,
  pageAtPath,
  presentFile,
  presentPageWithContent,
  requireFile,
  type PageFormat,
  presentRevision,
  requirePage,
  type RevisionView,
} from './revisionContent.ts';
import { findRevisionGit } from '../db/repos/gitSync.ts';

/** Which revision of a space to read: its current one, a given one, or a change request's. */
export type RevisionSelector = ({ current: true } | { revisionId: string } | { changeRequest: string }) & {
  /** false: without git metadata (the API's `metadata` flag). */
  metadata?: boolean;
};

/** A revision as the API presents it: with where its pages and files sit in git, when it matches a commit. */
async function viewOf(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector): Promise<RevisionView> {
  const view = await loadedView(ctx, actor, spaceId, selector);
  return selector.metadata === false ? view : { ...view, git: await findRevisionGit(ctx.db, view.revision.id) };
}

async function loadedView(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector): Promise<RevisionView> {
  if ('changeRequest' in selector) {
    await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
    return loadRevision(ctx, (await requireChangeRequest(ctx.db, spaceId, selector.changeRequest)).revision_id);
  }
  const { space, standing } = await authorizeSpace(ctx.db, actor, spaceId, 'view');
  if ('current' in selector) return loadRevision(ctx, space.revision_id);
  // What is published is the current revision; other revisions of the space (its
  // history, its change requests') are for those with a role on it.
  const visible = standing === 'published' ? selector.revisionId === space.revision_id : await isRevisionOfSpace(ctx.db, spaceId, selector.revisionId);
  if (!visible) {
    throw new NotFound(`No revision with id "${selector.revisionId}" in this space`);
  }
  return loadRevision(ctx, selector.revisionId);
}

export async function getRevisionContent(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector) {
  return presentRevision(ctx, spaceId, await viewOf(ctx, actor, spaceId, selector));
}

export async function getPages(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return { pages: presentPageTree(ctx.config.publicUrl, spaceId, view.tree, gitPathsOf(view).pages) };
}

export async function getPage(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  selector: RevisionSelector,
  pageId: string,
  format?: PageFormat,
) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return presentPageWithContent(ctx, spaceId, view, requirePage(view.tree, pageId), format);
}

export async function getPageByPath(ctx: ServiceContext, actor: Actor, spaceId: string, path: string, format?: PageFormat, metadata = true) {
  const view = await viewOf(ctx, actor, spaceId, { current: true, metadata });
  return presentPageWithContent(ctx, spaceId, view, pageAtPath(view.tree, path), format);
}

export async function listFiles(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, page: PageRequest) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return paginateList(view.files.map((file) => presentFile(ctx, file, gitPathsOf(view).files[file.id])), page);
}

export async function getFile(ctx: ServiceContext, actor: Actor, spaceId: string, selector: RevisionSelector, fileId: string) {
  const view = await viewOf(ctx, actor, spaceId, selector);
  return presentFile(ctx, requireFile(view, fileId), gitPathsOf(view).files[fileId]);
}
