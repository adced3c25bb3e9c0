// What a caller may do to one comment or reply, from their role on the space and
// whether they wrote it: everyone who reads the comments may view, the author alone
// changes what it says, anyone who may comment replies, and the author or an
// administrator of the space deletes it. The same answer fills the `permissions` of
// change-request comments and replies, so what they show and what is allowed agree.
import { Forbidden } from '../errors.ts';
import { roleAtLeast, type Role } from '../lib/roles.ts';

/** The one fact about a comment its rules depend on. */
export interface CommentFacts {
  /** The id of the user who posted it. */
  postedBy: string;
}

export function commentPermissions(userId: string, role: Role | null, comment: CommentFacts) {
  const author = comment.postedBy === userId;
  return {
    view: true,
    edit: author,
    reply: roleAtLeast(role, 'comment'),
    delete: author || roleAtLeast(role, 'admin'),
  };
}

export type CommentPermissions = ReturnType<typeof commentPermissions>;

const COMMENT_REFUSALS: Record<keyof CommentPermissions, string> = {
  view: 'You may not read this comment',
  edit: 'Only the author may change what a comment says',
  reply: 'Replying needs the "comment" role on this space or higher',
  delete: 'Only the author or an administrator of the space may delete this',
};

/** 403 unless the caller, with this role on the comment's space, has the permission on it. */
export function authorizeComment(userId: string, role: Role | null, comment: CommentFacts, permission: keyof CommentPermissions): void {
  if (!commentPermissions(userId, role, comment)[permission]) throw new Forbidden(COMMENT_REFUSALS[permission]);
}
