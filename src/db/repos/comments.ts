// Comments, replies and reactions.
import { jsonRowsOf, lockRow } from '../dialect.ts';
import type { Db, CommentRow } from '../schema.ts';
import { countOpenComment, countReply } from './counters.ts';

export interface CommentScope {
  spaceId: string;
  changeRequestId: string | null;
}

function withPeople(db: Db) {
  return db
    .selectFrom('comments as c')
    .innerJoin('users as author', 'author.id', 'c.posted_by')
    .leftJoin('users as resolver', 'resolver.id', 'c.resolved_by')
    .selectAll('c')
    .select([
      'author.email as author_email',
      'author.display_name as author_display_name',
      'author.photo_url as author_photo_url',
      'resolver.email as resolver_email',
      'resolver.display_name as resolver_display_name',
      'resolver.photo_url as resolver_photo_url',
      // The reactions ride on their comment's row: one query a list on PostgreSQL, not two in turn.
      (eb) =>
        jsonRowsOf(
          db,
          eb
            .selectFrom('comment_reactions as r')
            .innerJoin('users as u', 'u.id', 'r.user_id')
            .select(['r.comment_id', 'r.emoji', 'r.reacted_at', 'u.id as user_id', 'u.email', 'u.display_name', 'u.photo_url'])
            .whereRef('r.comment_id', '=', 'c.id')
            .orderBy('r.reacted_at')
            .orderBy('u.id'),
        ).as('reactions'),
    ]);
}

function inScope(query: ReturnType<typeof withPeople>, scope: CommentScope) {
  const scoped = query.where('c.space_id', '=', scope.spaceId);
  return scope.changeRequestId === null
    ? scoped.where('c.change_request_id', 'is', null)
    : scoped.where('c.change_request_id', '=', scope.changeRequestId);
}

export interface CommentFilters {
  /** The comment whose replies to list; undefined lists comments. */
  parentId?: string;
  status?: 'open' | 'resolved';
  pageId?: string;
}

export function commentsQuery(db: Db, scope: CommentScope, filters: CommentFilters) {
  let query = inScope(withPeople(db), scope);
  query = filters.parentId === undefined ? query.where('c.parent_id', 'is', null) : query.where('c.parent_id', '=', filters.parentId);
  if (filters.status === 'open') query = query.where('c.resolved_at', 'is', null);
  if (filters.status === 'resolved') query = query.where('c.resolved_at', 'is not', null);
  if (filters.pageId !== undefined) query = query.where('c.page_id', '=', filters.pageId);
  return query;
}

/** A comment (parentId undefined) or a reply of the given comment, within the scope. */
export function findComment(db: Db, scope: CommentScope, commentId: string, parentId?: string) {
  const query = inScope(withPeople(db), scope).where('c.id', '=', commentId);
  return (parentId === undefined ? query.where('c.parent_id', 'is', null) : query.where('c.parent_id', '=', parentId)).executeTakeFirst();
}

export async function insertComment(db: Db, comment: CommentRow): Promise<void> {
  await db.insertInto('comments').values(comment).execute();
  if (comment.parent_id !== null) await countReply(db, comment.parent_id, 1);
  else if (comment.resolved_at === null) await countOpenComment(db, comment, 1);
}

/** The comment as its counters see it, read under the row's lock: two changes at once count one after the other. */
async function lockedForCounting(db: Db, commentId: string) {
  await lockRow(db, 'comments', commentId);
  return db
    .selectFrom('comments')
    .select(['space_id', 'change_request_id', 'parent_id', 'resolved_at'])
    .where('id', '=', commentId)
    .executeTakeFirst();
}

export async function updateComment(
  db: Db,
  commentId: string,
  changes: Partial<Pick<CommentRow, 'body' | 'mentions' | 'edited_at' | 'resolved_at' | 'resolved_by'>>,
): Promise<void> {
  if (changes.resolved_at === undefined) {
    await db.updateTable('comments').set(changes).where('id', '=', commentId).execute();
    return;
  }
  const before = await lockedForCounting(db, commentId);
  await db.updateTable('comments').set(changes).where('id', '=', commentId).execute();
  if (!before || before.parent_id !== null) return;
  const wasOpen = before.resolved_at === null;
  const isOpen = changes.resolved_at === null;
  if (wasOpen !== isOpen) await countOpenComment(db, before, isOpen ? 1 : -1);
}

/** Deletes a comment with its replies and every reaction to them. */
export async function deleteComment(db: Db, commentId: string): Promise<void> {
  const before = await lockedForCounting(db, commentId);
  const ids = db.selectFrom('comments').select('id').where((eb) => eb.or([eb('id', '=', commentId), eb('parent_id', '=', commentId)]));
  await db.deleteFrom('comment_reactions').where('comment_id', 'in', ids).execute();
  await db.deleteFrom('comments').where('parent_id', '=', commentId).execute();
  await db.deleteFrom('comments').where('id', '=', commentId).execute();
  if (before?.parent_id) await countReply(db, before.parent_id, -1);
  else if (before && before.resolved_at === null) await countOpenComment(db, before, -1);
}

export async function addReaction(db: Db, commentId: string, userId: string, emoji: string, at: string): Promise<void> {
  await db
    .insertInto('comment_reactions')
    .values({ comment_id: commentId, user_id: userId, emoji, reacted_at: at })
    .onConflict((conflict) => conflict.columns(['comment_id', 'user_id', 'emoji']).doNothing())
    .execute();
}

export async function removeReaction(db: Db, commentId: string, userId: string, emoji: string): Promise<void> {
  await db
    .deleteFrom('comment_reactions')
    .where('comment_id', '=', commentId)
    .where('user_id', '=', userId)
    .where('emoji', '=', emoji)
    .execute();
}

