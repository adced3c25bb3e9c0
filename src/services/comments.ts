// Comments on a space or on a change request, their replies and reactions. One
// module serves both families: a place names the space, and the change request when
// there is one; a comment from another place is never found there (404).
import { BadRequest, NotFound } from '../errors.ts';
import { linkResolverFor, markdownToDocument, mentionsIn } from '../content/document.ts';
import { pagePath, type FlatTree } from '../content/tree.ts';
import { addReaction, commentsQuery, deleteComment, findComment, insertComment, removeReaction, updateComment, type CommentScope } from '../db/repos/comments.ts';
import type { Db, CommentWithPeople } from '../db/schema.ts';
import { jsonRows } from '../db/dialect.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { Role } from '../lib/roles.ts';
import { authorizeComment, commentPermissions } from '../policies/comment.ts';
import type { SpacePermissions } from '../policies/content.ts';
import { presentComment, presentReply, type CommentTargetPage, type ReactionRow } from '../presenters/comment.ts';
import type { Actor, ServiceContext } from './context.ts';
import { requireChangeRequest } from './changeRequests.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { loadRevision } from './revisions.ts';

export interface CommentPlace {
  spaceId: string;
  /** Id or number of the change request, for change-request comments. */
  changeRequest?: string;
}

export type CommentFormat = 'markdown' | 'document';

interface ResolvedPlace {
  scope: CommentScope;
  role: Role;
  revisionId: string;
  listUrl: string;
  /** Change-request comments carry permissions; space comments do not. */
  withPermissions: boolean;
}

async function resolvePlace(
  ctx: ServiceContext,
  db: Db,
  actor: Actor,
  place: CommentPlace,
  permission: keyof SpacePermissions,
): Promise<ResolvedPlace> {
  const { space, role } = await authorizeSpaceDrafts(db, actor, place.spaceId, permission);
  const base = `${ctx.config.publicUrl}/v1/spaces/${space.id}`;
  if (place.changeRequest === undefined) {
    return { scope: { spaceId: space.id, changeRequestId: null }, role, revisionId: space.revision_id, listUrl: `${base}/comments`, withPermissions: false };
  }
  const changeRequest = await requireChangeRequest(db, space.id, place.changeRequest);
  return {
    scope: { spaceId: space.id, changeRequestId: changeRequest.id },
    role,
    revisionId: changeRequest.revision_id,
    listUrl: `${base}/change-requests/${changeRequest.id}/comments`,
    withPermissions: true,
  };
}

/** Presents comments or replies of one place, their reactions read with them and target pages from one tree. */
async function presentMany(
  ctx: ServiceContext,
  actor: Actor,
  place: ResolvedPlace,
  rows: CommentWithPeople[],
  format: CommentFormat = 'markdown',
) {
  const needsTree = format === 'document' || rows.some((row) => row.page_id);
  const tree: FlatTree = needsTree ? (await loadRevision(ctx, place.revisionId)).tree : new Map();
  const resolver = linkResolverFor(tree);
  return rows.map((row) => {
    const view = {
      publicUrl: ctx.config.publicUrl,
      listUrl: place.listUrl,
      reactions: jsonRows<ReactionRow>(row.reactions),
      body: format === 'document' ? markdownToDocument(row.body, resolver) : { markdown: row.body },
      ...(place.withPermissions ? { permissions: commentPermissions(actor.user.id, place.role, { postedBy: row.posted_by }) } : {}),
    };
    if (row.parent_id) return presentReply(view, row);
    return presentComment(view, row, row.page_id ? targetPage(tree, row) : undefined);
  });
}

type PresentedComment = ReturnType<typeof presentComment>;
type PresentedReply = ReturnType<typeof presentReply>;

const presentComments = (...args: Parameters<typeof presentMany>) => presentMany(...args) as Promise<PresentedComment[]>;
const presentReplies = (...args: Parameters<typeof presentMany>) => presentMany(...args) as Promise<PresentedReply[]>;

/** The page a comment is about, as it is now; outdated once its content changed since the comment. */
function targetPage(tree: FlatTree, comment: CommentWithPeople): CommentTargetPage {
  const page = tree.get(comment.page_id!);
  if (!page) return { id: comment.page_id!, title: '', path: '', outdated: true };
  return {
    id: page.id,
    title: page.meta.title,
    ...(typeof page.meta.emoji === 'string' ? { emoji: page.meta.emoji } : {}),
    ...(typeof page.meta.icon === 'string' ? { icon: page.meta.icon } : {}),
    path: pagePath(tree, page.id),
    outdated: page.blob !== comment.page_blob,
  };
}

async function requireComment(db: Db, scope: CommentScope, commentId: string, parentId?: string) {
  const comment = await findComment(db, scope, commentId, parentId);
  if (!comment) throw new NotFound(`No ${parentId ? 'reply' : 'comment'} with id "${commentId}" here`);
  return comment;
}

export interface ListOptions extends PageRequest {
  order?: 'asc' | 'desc';
  status?: 'all' | 'open' | 'resolved';
  targetPage?: string;
  format?: CommentFormat;
}

export async function listComments(ctx: ServiceContext, actor: Actor, place: CommentPlace, options: ListOptions) {
  const resolved = await resolvePlace(ctx, ctx.db, actor, place, 'view');
  const direction = options.order ?? 'desc';
  const status = options.status === 'all' ? undefined : options.status;
  const page = await paginate(
    commentsQuery(ctx.db, resolved.scope, { status, pageId: options.targetPage }),
    [
      { column: 'c.posted_at', direction, value: (row) => row.posted_at },
      { column: 'c.id', direction, value: (row) => row.id },
    ],
    options,
    (row) => row,
  );
  return { ...page, items: await presentComments(ctx, actor, resolved, page.items, options.format) };
}

export async function getComment(ctx: ServiceContext, actor: Actor, place: CommentPlace, commentId: string, format?: CommentFormat) {
  const resolved = await resolvePlace(ctx, ctx.db, actor, place, 'view');
  const [comment] = await presentComments(ctx, actor, resolved, [await requireComment(ctx.db, resolved.scope, commentId)], format);
  return comment;
}

export interface PostInput {
  body: { markdown: string };
  page?: string;
  node?: string;
}

export async function postComment(ctx: ServiceContext, actor: Actor, place: CommentPlace, input: PostInput) {
  // The page and the revision it is read in come before the transaction: a tree is
  // read through the process's cache, which a transaction's connection does not use.
  let onPage: { revisionId: string; blob: string | null } | undefined;
  if (input.page !== undefined) {
    const { revisionId } = await resolvePlace(ctx, ctx.db, actor, place, 'comment');
    const page = (await loadRevision(ctx, revisionId)).tree.get(input.page);
    if (!page) throw new BadRequest(`page: no page "${input.page}" in this content`);
    onPage = { revisionId, blob: page.blob };
  }
  const id = newId();
  // The comment and its counter in one transaction, with the permission it was posted
  // under; it is presented as that transaction read it, with the role authorized there.
  const { resolved, written } = await ctx.db.transaction().execute(async (trx) => {
    const resolved = await resolvePlace(ctx, trx, actor, place, 'comment');
    await insertComment(trx, {
      id,
      space_id: resolved.scope.spaceId,
      change_request_id: resolved.scope.changeRequestId,
      parent_id: null,
      body: input.body.markdown,
      mentions: JSON.stringify(mentionsIn(input.body.markdown)),
      posted_by: actor.user.id,
      posted_at: isoNow(ctx.clock),
      edited_at: null,
      resolved_at: null,
      resolved_by: null,
      revision_id: onPage?.revisionId ?? resolved.revisionId,
      page_id: input.page ?? null,
      page_blob: onPage?.blob ?? null,
      node_id: input.node ?? null,
    });
    return { resolved, written: await requireComment(trx, resolved.scope, id) };
  });
  const [comment] = await presentComments(ctx, actor, resolved, [written]);
  return comment;
}

export interface CommentChanges {
  resolved?: boolean;
  body?: { markdown: string };
  addedReactions?: string[];
  removedReactions?: string[];
}

/** Applies body, resolution and reaction changes to a comment or reply; the body is its author's alone (policies/comment.ts). */
async function change(ctx: ServiceContext, db: Db, actor: Actor, role: Role, target: CommentWithPeople, changes: CommentChanges) {
  const now = isoNow(ctx.clock);
  if (changes.body !== undefined) {
    authorizeComment(actor.user.id, role, { postedBy: target.posted_by }, 'edit');
    if (changes.body.markdown !== target.body) {
      await updateComment(db, target.id, { body: changes.body.markdown, mentions: JSON.stringify(mentionsIn(changes.body.markdown)), edited_at: now });
    }
  }
  if (changes.resolved !== undefined) {
    if (changes.resolved && !target.resolved_at) await updateComment(db, target.id, { resolved_at: now, resolved_by: actor.user.id });
    if (!changes.resolved && target.resolved_at) await updateComment(db, target.id, { resolved_at: null, resolved_by: null });
  }
  for (const emoji of changes.addedReactions ?? []) await addReaction(db, target.id, actor.user.id, emoji, isoNow(ctx.clock));
  for (const emoji of changes.removedReactions ?? []) await removeReaction(db, target.id, actor.user.id, emoji);
}

export async function putComment(ctx: ServiceContext, actor: Actor, place: CommentPlace, commentId: string, changes: CommentChanges) {
  const { resolved, written } = await ctx.db.transaction().execute(async (trx) => {
    const resolved = await resolvePlace(ctx, trx, actor, place, 'comment');
    await change(ctx, trx, actor, resolved.role, await requireComment(trx, resolved.scope, commentId), changes);
    return { resolved, written: await requireComment(trx, resolved.scope, commentId) };
  });
  const [comment] = await presentComments(ctx, actor, resolved, [written]);
  return comment;
}

/** Deletes a comment with its replies and reactions: its author or an administrator of the space. */
export async function removeComment(ctx: ServiceContext, actor: Actor, place: CommentPlace, commentId: string, replyTo?: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const resolved = await resolvePlace(ctx, trx, actor, place, 'view');
    const target = await requireComment(trx, resolved.scope, commentId, replyTo);
    authorizeComment(actor.user.id, resolved.role, { postedBy: target.posted_by }, 'delete');
    await deleteComment(trx, target.id);
  });
}

export async function listReplies(
  ctx: ServiceContext,
  actor: Actor,
  place: CommentPlace,
  commentId: string,
  options: PageRequest & { format?: CommentFormat },
) {
  const resolved = await resolvePlace(ctx, ctx.db, actor, place, 'view');
  await requireComment(ctx.db, resolved.scope, commentId);
  const page = await paginate(
    commentsQuery(ctx.db, resolved.scope, { parentId: commentId }),
    [
      { column: 'c.posted_at', direction: 'asc', value: (row) => row.posted_at },
      { column: 'c.id', direction: 'asc', value: (row) => row.id },
    ],
    options,
    (row) => row,
  );
  return { ...page, items: await presentReplies(ctx, actor, resolved, page.items, options.format) };
}

export async function getReply(
  ctx: ServiceContext,
  actor: Actor,
  place: CommentPlace,
  commentId: string,
  replyId: string,
  format?: CommentFormat,
) {
  const resolved = await resolvePlace(ctx, ctx.db, actor, place, 'view');
  const [reply] = await presentReplies(ctx, actor, resolved, [await requireComment(ctx.db, resolved.scope, replyId, commentId)], format);
  return reply;
}

export async function postReply(ctx: ServiceContext, actor: Actor, place: CommentPlace, commentId: string, body: { markdown: string }) {
  const id = newId();
  const { resolved, written } = await ctx.db.transaction().execute(async (trx) => {
    const resolved = await resolvePlace(ctx, trx, actor, place, 'comment');
    const comment = await requireComment(trx, resolved.scope, commentId);
    await insertComment(trx, {
      id,
      space_id: comment.space_id,
      change_request_id: comment.change_request_id,
      parent_id: comment.id,
      body: body.markdown,
      mentions: JSON.stringify(mentionsIn(body.markdown)),
      posted_by: actor.user.id,
      posted_at: isoNow(ctx.clock),
      edited_at: null,
      resolved_at: null,
      resolved_by: null,
      revision_id: comment.revision_id,
      page_id: null,
      page_blob: null,
      node_id: null,
    });
    return { resolved, written: await requireComment(trx, resolved.scope, id, commentId) };
  });
  const [reply] = await presentReplies(ctx, actor, resolved, [written]);
  return reply;
}

export async function putReply(
  ctx: ServiceContext,
  actor: Actor,
  place: CommentPlace,
  commentId: string,
  replyId: string,
  changes: Omit<CommentChanges, 'resolved'>,
) {
  const { resolved, written } = await ctx.db.transaction().execute(async (trx) => {
    const resolved = await resolvePlace(ctx, trx, actor, place, 'comment');
    await change(ctx, trx, actor, resolved.role, await requireComment(trx, resolved.scope, replyId, commentId), changes);
    return { resolved, written: await requireComment(trx, resolved.scope, replyId, commentId) };
  });
  const [reply] = await presentReplies(ctx, actor, resolved, [written]);
  return reply;
}
