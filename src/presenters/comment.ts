// Comments and comment replies.
import { presentUser } from './user.ts';
import type { CommentWithPeople } from '../db/schema.ts';

export interface ReactionRow {
  comment_id: string;
  emoji: string;
  reacted_at: string;
  user_id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
}

export interface CommentView {
  publicUrl: string;
  /** The API URL of the comment list it belongs to. */
  listUrl: string;
  reactions: ReactionRow[];
  /** The body as the caller asked for it: {markdown}, or a JSON document. */
  body: object;
  /** Only change-request comments carry permissions. */
  permissions?: { view: boolean; edit: boolean; reply: boolean; delete: boolean };
}

/** Reactions grouped by emoji, in the order each emoji first appeared. */
function presentReactions(publicUrl: string, reactions: ReactionRow[]) {
  const byEmoji = new Map<string, ReactionRow[]>();
  for (const reaction of reactions) byEmoji.set(reaction.emoji, [...(byEmoji.get(reaction.emoji) ?? []), reaction]);
  return [...byEmoji].map(([emoji, rows]) => ({
    emoji,
    count: rows.length,
    users: rows.map((row) => ({
      user: presentUser(publicUrl, { id: row.user_id, email: row.email, display_name: row.display_name, photo_url: row.photo_url }),
      reactedAt: row.reacted_at,
    })),
  }));
}

function author(publicUrl: string, comment: CommentWithPeople) {
  return presentUser(publicUrl, {
    id: comment.posted_by,
    email: comment.author_email,
    display_name: comment.author_display_name,
    photo_url: comment.author_photo_url,
  });
}

export function presentReply(view: CommentView, reply: CommentWithPeople) {
  return {
    object: 'comment-reply' as const,
    id: reply.id,
    postedBy: author(view.publicUrl, reply),
    postedAt: reply.posted_at,
    ...(reply.edited_at ? { editedAt: reply.edited_at } : {}),
    reactions: presentReactions(view.publicUrl, view.reactions),
    body: view.body,
    urls: { location: `${view.listUrl}/${reply.parent_id}/replies/${reply.id}` },
    ...(view.permissions ? { permissions: view.permissions } : {}),
  };
}

export interface CommentTargetPage {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  path: string;
  outdated: boolean;
}

export function presentComment(view: CommentView, comment: CommentWithPeople, page: CommentTargetPage | undefined) {
  return {
    object: 'comment' as const,
    id: comment.id,
    postedBy: author(view.publicUrl, comment),
    postedAt: comment.posted_at,
    ...(comment.edited_at ? { editedAt: comment.edited_at } : {}),
    reactions: presentReactions(view.publicUrl, view.reactions),
    replies: comment.reply_count,
    body: view.body,
    target: {
      space: comment.space_id,
      revision: comment.revision_id ?? '',
      ...(comment.change_request_id ? { changeRequest: comment.change_request_id } : {}),
      ...(comment.node_id ? { node: { id: comment.node_id } } : {}),
      ...(page ? { page } : {}),
    },
    urls: { location: `${view.listUrl}/${comment.id}` },
    status: comment.resolved_at ? ('resolved' as const) : ('open' as const),
    ...(comment.resolved_at && comment.resolved_by
      ? {
          resolvedAt: comment.resolved_at,
          resolvedBy: presentUser(view.publicUrl, {
            id: comment.resolved_by,
            email: comment.resolver_email ?? '',
            display_name: comment.resolver_display_name ?? '',
            photo_url: comment.resolver_photo_url,
          }),
        }
      : {}),
    ...(view.permissions ? { permissions: view.permissions } : {}),
  };
}
