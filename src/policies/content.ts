// A caller's role on collections and spaces, and the permissions objects derived from
// it. The role is the highest of: the caller's organization role (members, not
// guests), the target's default level for members (resolved through "inherit" up the
// collections), direct grants on the target or any collection above it, and read for
// whoever reaches the collection of an in-collection space. Anyone else may only read
// a space's published content: when its visibility is public or unlisted (share-link
// with the key), or a published site shows it as the site's own visibility allows.
// Published content is the current revision and the space object without private
// fields; drafts (change requests), comments and everything else stay with roles.
import { Forbidden, NotFound } from '../errors.ts';
import { highestRole, isRole, roleAtLeast, type Role } from '../lib/roles.ts';
import type { OrganizationAccess } from './organization.ts';

export interface CollectionNode {
  id: string;
  parentId: string | null;
  defaultLevel: string;
}

/** Everything about one caller in one organization that content roles depend on. */
export interface ContentCaller {
  organization: OrganizationAccess | undefined;
  collections: Map<string, CollectionNode>;
  /** "space:<id>" or "collection:<id>" → the role granted to the caller there. */
  grants: Map<string, Role>;
}

/**
 * A site token's reader (GitBook's renderer reading a published site): no one's member
 * and granted nothing, so what it may read of a space is what the site publishes.
 */
export const SITE_READER: ContentCaller = { organization: undefined, collections: new Map(), grants: new Map() };

export interface SpaceFacts {
  id: string;
  parentId: string | null;
  defaultLevel: string;
  visibility: string;
  shareKey: string;
  /** Shown by a published site that opens it to the caller (public, unlisted, or a share link they hold). */
  publishedOpenly?: boolean;
}

function isFullMember(caller: ContentCaller): boolean {
  return caller.organization?.isMember === true && caller.organization.role !== null;
}

/** The collections above a parent, nearest first (cycles cannot occur, but are cut short). */
function ancestors(caller: ContentCaller, parentId: string | null): CollectionNode[] {
  const chain: CollectionNode[] = [];
  let current = parentId ? caller.collections.get(parentId) : undefined;
  while (current && chain.length < 100) {
    chain.push(current);
    current = current.parentId ? caller.collections.get(current.parentId) : undefined;
  }
  return chain;
}

/** The default level after following "inherit" upwards; "inherit" at the top means none beyond the organization role. */
function resolvedDefault(ownLevel: string, chain: CollectionNode[]): Role | null {
  for (const level of [ownLevel, ...chain.map((node) => node.defaultLevel)]) {
    if (level !== 'inherit') return isRole(level) ? level : null;
  }
  return null;
}

function roleOn(caller: ContentCaller, kind: 'space' | 'collection', id: string, ownLevel: string, parentId: string | null) {
  const chain = ancestors(caller, parentId);
  const grants = [caller.grants.get(`${kind}:${id}`), ...chain.map((node) => caller.grants.get(`collection:${node.id}`))];
  const member = isFullMember(caller);
  return highestRole(
    member ? caller.organization!.role : null,
    member ? resolvedDefault(ownLevel, chain) : null,
    ...grants,
  );
}

export function collectionRole(caller: ContentCaller, collectionId: string): Role | null {
  const node = caller.collections.get(collectionId);
  if (!node) return null;
  return roleOn(caller, 'collection', node.id, node.defaultLevel, node.parentId);
}

/** The caller's role on a space through the organization: membership, default levels, grants, in-collection. */
export function spaceRole(caller: ContentCaller, space: SpaceFacts): Role | null {
  const role = roleOn(caller, 'space', space.id, space.defaultLevel, space.parentId);
  const inCollection = space.visibility === 'in-collection' && space.parentId !== null && collectionRole(caller, space.parentId) !== null;
  return highestRole(role, inCollection ? 'read' : null);
}

/** A role, or "published" for a caller who may read only the space's published content, or null. */
export type SpaceStanding = Role | 'published' | null;

/** Whether the space's own visibility opens its published content to anyone (with the key, for share-link). */
function isSpaceOpenedByVisibility(space: SpaceFacts, shareKey?: string): boolean {
  return (
    space.visibility === 'public' ||
    space.visibility === 'unlisted' ||
    (space.visibility === 'share-link' && shareKey !== undefined && shareKey === space.shareKey)
  );
}

export function spaceStanding(caller: ContentCaller, space: SpaceFacts, shareKey?: string): SpaceStanding {
  const role = spaceRole(caller, space);
  if (role !== null) return role;
  return space.publishedOpenly === true || isSpaceOpenedByVisibility(space, shareKey) ? 'published' : null;
}

/** The role a standing carries: none for readers of published content. */
function roleOf(standing: SpaceStanding): Role | null {
  return standing === 'published' ? null : standing;
}

export function collectionPermissions(role: Role | null) {
  return {
    view: roleAtLeast(role, 'read'),
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    create: roleAtLeast(role, 'create'),
  };
}

export function spacePermissions(standing: SpaceStanding) {
  const role = roleOf(standing);
  return {
    view: standing !== null,
    access: standing !== null,
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    edit: roleAtLeast(role, 'edit'),
    triggerGitSync: roleAtLeast(role, 'edit'),
    comment: roleAtLeast(role, 'comment'),
    merge: roleAtLeast(role, 'review'),
    review: roleAtLeast(role, 'review'),
    installIntegration: roleAtLeast(role, 'admin'),
  };
}

export type SpacePermissions = ReturnType<typeof spacePermissions>;
export type CollectionPermissions = ReturnType<typeof collectionPermissions>;

const SPACE_REFUSALS: Record<keyof SpacePermissions, string> = {
  view: 'You may not read this space',
  access: 'You may not read this space',
  admin: 'Managing this space needs the "admin" role on it',
  viewInviteLinks: 'Invite links of this space are for its administrators',
  edit: 'Editing this space needs the "edit" role on it or higher',
  triggerGitSync: 'Git sync needs the "edit" role on this space or higher',
  comment: 'Commenting needs the "comment" role on this space or higher',
  merge: 'Merging needs the "review" role on this space or higher',
  review: 'Reviewing needs the "review" role on this space or higher',
  installIntegration: 'Installing integrations needs the "admin" role on this space',
};

const COLLECTION_REFUSALS: Record<keyof CollectionPermissions, string> = {
  view: 'You may not see this collection',
  admin: 'Managing this collection needs the "admin" role on it',
  viewInviteLinks: 'Invite links of this collection are for its administrators',
  create: 'Creating content in this collection needs the "create" role on it or higher',
};

/**
 * What an operation touches: the space's published content (its current revision and
 * the space itself), or what stays with roles (change requests, comments, links,
 * custom fields), which readers of published content do not see at all.
 */
export type SpaceReach = 'published' | 'drafts';

/** 404 when the caller cannot see the space (or, for drafts, sees only its published content); 403 when they see it but lack the permission. */
export function authorizeSpaceStanding(
  standing: SpaceStanding,
  permission: keyof SpacePermissions,
  spaceId: string,
  reach: SpaceReach = 'published',
): Exclude<SpaceStanding, null> {
  if (standing === null || (reach === 'drafts' && standing === 'published')) throw new NotFound(`No space with id "${spaceId}"`);
  if (!spacePermissions(standing)[permission]) throw new Forbidden(SPACE_REFUSALS[permission]);
  return standing;
}

export function authorizeCollectionRole(
  role: Role | null,
  permission: keyof CollectionPermissions,
  collectionId: string,
): Role {
  if (role === null) throw new NotFound(`No collection with id "${collectionId}"`);
  if (!collectionPermissions(role)[permission]) throw new Forbidden(COLLECTION_REFUSALS[permission]);
  return role;
}
