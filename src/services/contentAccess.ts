// Loads what content roles depend on (the caller's membership, the organization's
// collections, the caller's grants) once per operation, and authorizes against it.
import { BadRequest } from '../errors.ts';
import { findCollection, collectionsOfOrganization } from '../db/repos/collections.ts';
import { grantsOfUser } from '../db/repos/grants.ts';
import { contentStandingAt, findSpaceWithStanding } from '../db/repos/contentStanding.ts';
import { findOrganizationWithAccess } from '../db/repos/organizations.ts';
import { findSpace } from '../db/repos/spaces.ts';
import { isSpacePublishedOpenly } from '../db/repos/sites.ts';
import type { Db, CollectionRow, ContentStandingRows, SpaceRow, SpaceWithCounters } from '../db/schema.ts';
import type { Role } from '../lib/roles.ts';
import {
  authorizeCollectionRole,
  authorizeSpaceStanding,
  collectionRole,
  SITE_READER,
  spaceStanding,
  type CollectionPermissions,
  type ContentCaller,
  type SpaceFacts,
  type SpacePermissions,
  type SpaceReach,
  type SpaceStanding,
} from '../policies/content.ts';
import type { Actor, ServiceContext } from './context.ts';
import { siteTokenOpensSpace } from './publishedAccess.ts';
import { accessFromRow, authorizeInOrganization, organizationReadWithToken } from './organizations.ts';

/** The content standing of any user (the caller, or a member being listed) in one organization. */
export async function loadContentCaller(db: Db, organizationId: string, userId: string): Promise<ContentCaller> {
  const [organization, collections, grants] = await Promise.all([
    findOrganizationWithAccess(db, organizationId, userId),
    collectionsOfOrganization(db, organizationId),
    grantsOfUser(db, organizationId, userId),
  ]);
  return contentCallerFrom({ organization, collections, grants });
}

/**
 * The caller's content standing in an organization, for an operation under
 * /orgs/{organizationId}: the membership (and whether the caller owns a team) the
 * request read with its token, and the rows beyond it (collections, grants) kept by the
 * organization's access version, read again only when it has moved
 * (db/repos/contentStanding.ts). A search or a space list made three round trips for
 * them on every request. A transaction, or another organization, reads them afresh.
 */
export async function loadContentCallerOf(ctx: ServiceContext, db: Db, actor: Actor, organizationId: string): Promise<ContentCaller> {
  const read = organizationReadWithToken(ctx, db, actor, organizationId);
  if (!read?.organization) return loadContentCaller(db, organizationId, actor.user.id);
  const { collections, grants } = await contentStandingAt(db, organizationId, actor.user.id, read.accessVersion);
  return contentCallerFrom({ organization: read.organization, collections, grants });
}

function contentCallerFrom({ organization, collections, grants }: ContentStandingRows): ContentCaller {
  return {
    organization: accessFromRow(organization),
    collections: new Map(
      collections.map((c) => [c.id, { id: c.id, parentId: c.parent_id, defaultLevel: c.default_level }]),
    ),
    grants: new Map(grants.map((grant) => [`${grant.target_kind}:${grant.target_id}`, grant.role])),
  };
}

export function spaceFacts(space: SpaceRow): SpaceFacts {
  return {
    id: space.id,
    parentId: space.parent_id,
    defaultLevel: space.default_level,
    visibility: space.visibility,
    shareKey: space.share_key,
  };
}

export interface AuthorizedSpace {
  space: SpaceRow;
  standing: Exclude<SpaceStanding, null>;
  caller: ContentCaller;
  /** The space with its counters, as read outside any transaction (with the token, or with the caller's standing). */
  withCounters?: SpaceWithCounters;
  /** The stamp of the Git commit its current revision matches (null: none), when read outside any transaction. */
  revisionGitStamp?: string | null;
}

/**
 * Loads a live space and checks the caller holds `permission` on it (404 when unseen,
 * 403 otherwise). `reach: "drafts"` marks operations on what publishing never opens
 * (change requests, comments, links, custom fields): 404 for readers of published content.
 */
export async function authorizeSpace(
  db: Db,
  actor: Actor,
  spaceId: string,
  permission: keyof SpacePermissions,
  options: { shareKey?: string; deleted?: boolean; reach?: SpaceReach } = {},
): Promise<AuthorizedSpace> {
  // What the request read with its token is as fresh as a new read outside a
  // transaction; a transaction reads afresh (plugins/auth.ts). A site token's reader
  // has no roles to read: the space alone.
  const preloaded = !db.isTransaction && actor.requestSpace?.spaceId === spaceId ? actor.requestSpace : undefined;
  const read = preloaded ? preloaded.space : actor.site ? undefined : await findSpaceWithStanding(db, spaceId, actor.user.id);
  const space = actor.site && !preloaded ? await findSpace(db, spaceId) : read?.row;
  if (!space || (space.deleted_at !== null) !== (options.deleted ?? false)) {
    return authorizeSpaceStanding(null, permission, spaceId) as never;
  }
  const caller = actor.site
    ? SITE_READER
    : read?.standing
      ? contentCallerFrom(read.standing)
      : await loadContentCaller(db, space.organization_id, actor.user.id);
  const facts = spaceFacts(space);
  if (spaceStanding(caller, facts, options.shareKey) === null) {
    facts.publishedOpenly = actor.site
      ? await siteTokenOpensSpace(db, actor.site, space.id, preloaded && { published: preloaded.published })
      : await isSpacePublishedOpenly(db, space.id, options.shareKey);
  }
  const standing = authorizeSpaceStanding(spaceStanding(caller, facts, options.shareKey), permission, spaceId, options.reach);
  // Inside a transaction, what was read may be what the operation is about to change.
  const presentable = db.isTransaction ? undefined : read;
  return { space, standing, caller, withCounters: presentable?.row, revisionGitStamp: presentable?.revisionGitStamp };
}

/** authorizeSpace for what publishing never opens: change requests, comments, links, custom fields. */
export async function authorizeSpaceDrafts(
  db: Db,
  actor: Actor,
  spaceId: string,
  permission: keyof SpacePermissions,
): Promise<AuthorizedSpace & { role: Role }> {
  const authorized = await authorizeSpace(db, actor, spaceId, permission, { reach: 'drafts' });
  // Reach "drafts" has refused readers of published content: what remains is a role.
  return { ...authorized, role: authorized.standing as Role };
}

export interface AuthorizedCollection {
  collection: CollectionRow;
  role: Role;
  caller: ContentCaller;
}

export async function authorizeCollection(
  db: Db,
  actor: Actor,
  collectionId: string,
  permission: keyof CollectionPermissions,
): Promise<AuthorizedCollection> {
  const collection = await findCollection(db, collectionId);
  if (!collection) return authorizeCollectionRole(null, permission, collectionId) as never;
  const caller = await loadContentCaller(db, collection.organization_id, actor.user.id);
  const role = authorizeCollectionRole(collectionRole(caller, collection.id), permission, collectionId);
  return { collection, role, caller };
}

/** Which spaces and collections a caller who is not a full member may see (undefined: all of them). */
export function visibleContent(caller: ContentCaller): { spaceIds: string[]; collectionIds: string[] } | undefined {
  if (caller.organization?.isMember && caller.organization.role !== null) return undefined;
  const collectionIds = [...caller.collections.keys()].filter((id) => collectionRole(caller, id) !== null);
  const spaceIds = [...caller.grants.keys()].filter((key) => key.startsWith('space:')).map((key) => key.slice(6));
  return { spaceIds, collectionIds };
}

/** Checks the caller may create content under `parentId`: a collection of the organization, or its top level. */
export async function authorizeCreateIn(
  ctx: ServiceContext,
  db: Db,
  actor: Actor,
  organizationId: string,
  parentId: string | null,
): Promise<void> {
  if (parentId === null) {
    await authorizeInOrganization(ctx, db, actor, organizationId, 'createContent');
    return;
  }
  const caller = await loadContentCaller(db, organizationId, actor.user.id);
  if (!caller.collections.has(parentId)) {
    throw new BadRequest(`parent: no collection with id "${parentId}" in this organization`);
  }
  authorizeCollectionRole(collectionRole(caller, parentId), 'create', parentId);
}
