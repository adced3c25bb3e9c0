// A caller's role on collections and spaces, and the permissions objects derived from
// it. The role is the highest of: the caller's organization role (members, not
// guests), the target's default level for members (resolved through "inherit" up the
// collections), and direct grants on the target or any collection above it. Space
// visibility opens read access to people outside: public and unlisted to anyone,
// share-link to holders of the key, in-collection to whoever reaches the collection;
// so does a published site showing the space, as its own visibility allows.
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

export function spaceRole(caller: ContentCaller, space: SpaceFacts, shareKey?: string): Role | null {
  const role = roleOn(caller, 'space', space.id, space.defaultLevel, space.parentId);
  const opened =
    space.publishedOpenly === true ||
    space.visibility === 'public' ||
    space.visibility === 'unlisted' ||
    (space.visibility === 'share-link' && shareKey !== undefined && shareKey === space.shareKey) ||
    (space.visibility === 'in-collection' && space.parentId !== null && collectionRole(caller, space.parentId) !== null);
  return highestRole(role, opened ? 'read' : null);
}

export function collectionPermissions(role: Role | null) {
  return {
    view: roleAtLeast(role, 'read'),
    admin: roleAtLeast(role, 'admin'),
    viewInviteLinks: roleAtLeast(role, 'admin'),
    create: roleAtLeast(role, 'create'),
  };
}

export function spacePermissions(role: Role | null) {
  return {
    view: roleAtLeast(role, 'read'),
    access: roleAtLeast(role, 'read'),
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

/** 404 when the caller cannot see the space at all, 403 when they see it but lack the permission. */
export function authorizeSpaceRole(role: Role | null, permission: keyof SpacePermissions, spaceId: string): Role {
  if (role === null) throw new NotFound(`No space with id "${spaceId}"`);
  if (!spacePermissions(role)[permission]) throw new Forbidden(SPACE_REFUSALS[permission]);
  return role;
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
