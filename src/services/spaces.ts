// Spaces: creating, reading, changing, moving, transferring, duplicating, and the
// delete → restore → purge life cycle.
import { moveSections } from '../db/fullText.ts';
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { findCollection } from '../db/repos/collections.ts';
import { copyCustomFieldValues, deleteCustomFieldValuesOfSpace } from '../db/repos/customFields.ts';
import { moveGrants, upsertGrant } from '../db/repos/grants.ts';
import { sitesShowingSpaces } from '../db/repos/siteStructure.ts';
import { addSpaceRevision, insertRevision } from '../db/repos/revisions.ts';
import { deletedSpacesQuery, deletedSpacesSince, findSpace, findSpaceWithCounters, insertSpace, purgeSpace, spacesQuery, updateSpace } from '../db/repos/spaces.ts';
import type { Db, SpaceRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { RETENTION_MS } from '../lib/spaceRetention.ts';
import type { Role } from '../lib/roles.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { authorizeSpaceStanding, spacePermissions, spaceRole, spaceStanding, type ContentCaller, type SpaceStanding } from '../policies/content.ts';
import { presentSpace, storedDefaultLevel } from '../presenters/content.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeCreateIn, authorizeSpace, loadContentCaller, loadContentCallerOf, spaceFacts, visibleContent, type AuthorizedSpace } from './contentAccess.ts';
import { authorizeInOrganization } from './organizations.ts';
import { positionFor, type PositionInput } from './ordering.ts';
import { afterCommit, recordEvent, recordNewSpaceContent, recordSitesUpdated, type CommittedEvent } from './events.ts';
import { detachSpacesFromSites } from './siteStructure.ts';

export const PURGE_SPACE_JOB = 'purge-space';

export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
export type EditMode = 'live' | 'locked';
export type DefaultLevelInput = Role | 'inherit' | null;

function assertVisibilityFits(visibility: string, parentId: string | null): void {
  if (visibility === 'in-collection' && parentId === null) {
    throw new BadRequest('visibility "in-collection" is only for spaces inside a collection');
  }
}

/** A space as the caller who was authorized on it sees it, with its counters. */
export async function presentAuthorized(ctx: ServiceContext, { space, standing, withCounters }: AuthorizedSpace) {
  const counted = withCounters ?? (await findSpaceWithCounters(ctx.db, space.id));
  // Purged since it was authorized: as unseen as any space the caller cannot see.
  if (!counted) return authorizeSpaceStanding(null, 'view', space.id) as never;
  return presentSpace(ctx.config.publicUrl, counted, standing);
}

/**
 * A space a writer changed, as its transaction reads it after the change, with the
 * caller's standing on it as it is now (`standingOn`, from what the transaction read).
 * A space's presenter reads nothing, so writers present inside their transaction, as
 * change requests do, instead of authorizing and reading again after the commit.
 */
async function presentWritten(ctx: ServiceContext, trx: Db, spaceId: string, standingOn: (space: SpaceRow) => SpaceStanding) {
  const written = await findSpaceWithCounters(trx, spaceId);
  if (!written) return authorizeSpaceStanding(null, 'view', spaceId) as never;
  return presentSpace(ctx.config.publicUrl, written, authorizeSpaceStanding(standingOn(written), 'view', spaceId));
}

/** The standing of a caller whose content standing was read before the change, on the space as it is after it (same organization). */
const standingOf = (caller: ContentCaller) => (space: SpaceRow) => spaceStanding(caller, spaceFacts(space));

/** Who creates a space is granted "admin" on it, the highest role. */
const CREATOR = (): SpaceStanding => 'admin';

export interface CreateSpaceInput {
  title?: string;
  emoji?: string;
  parent?: string;
  editMode?: EditMode;
  visibility?: Visibility;
  empty?: boolean;
}

/** Inserts a space with the caller as its administrator; the caller's rights are checked by the caller of this. */
async function insertNewSpace(
  ctx: ServiceContext,
  trx: Db,
  actor: Actor,
  fields: Omit<SpaceRow, 'id' | 'position' | 'share_key' | 'created_at' | 'updated_at' | 'deleted_at'>,
  position: PositionInput | undefined,
): Promise<SpaceRow> {
  const now = isoNow(ctx.clock);
  const id = newId();
  const space: SpaceRow = {
    ...fields,
    id,
    position: await positionFor(trx, fields.organization_id, fields.parent_id, id, position),
    share_key: newId(32),
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await insertSpace(trx, space);
  await addSpaceRevision(trx, id, space.revision_id);
  await upsertGrant(trx, {
    organization_id: space.organization_id,
    target_kind: 'space',
    target_id: id,
    user_id: actor.user.id,
    role: 'admin',
    created_at: now,
  });
  return space;
}

export async function createSpace(ctx: ServiceContext, actor: Actor, organizationId: string, input: CreateSpaceInput) {
  const parentId = input.parent ?? null;
  const visibility = input.visibility ?? 'private';
  assertVisibilityFits(visibility, parentId);
  return ctx.db.transaction().execute(async (trx) => {
    await authorizeCreateIn(ctx, trx, actor, organizationId, parentId);
    const revisionId = newId();
    await insertRevision(trx, { id: revisionId, parents: '[]', created_at: isoNow(ctx.clock) });
    const space = await insertNewSpace(
      ctx,
      trx,
      actor,
      {
        organization_id: organizationId,
        parent_id: parentId,
        title: input.title ?? 'Untitled',
        emoji: input.emoji ?? '',
        visibility,
        edit_mode: input.editMode ?? 'live',
        default_level: 'inherit',
        revision_id: revisionId,
      },
      undefined,
    );
    return presentWritten(ctx, trx, space.id, CREATOR);
  });
}

export async function listSpaces(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  const caller = await loadContentCallerOf(ctx, ctx.db, actor, organizationId);
  return paginate(
    spacesQuery(ctx.db, organizationId, { visibleTo: visibleContent(caller) }),
    [
      { column: 's.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 's.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentSpace(ctx.config.publicUrl, row, spaceRole(caller, spaceFacts(row))),
  );
}

export async function getSpace(ctx: ServiceContext, actor: Actor, spaceId: string, shareKey?: string) {
  return presentAuthorized(ctx, await authorizeSpace(ctx.db, actor, spaceId, 'view', { shareKey }));
}

export interface SpaceChanges {
  title?: string;
  emoji?: string | null;
  editMode?: EditMode;
  defaultLevel?: DefaultLevelInput;
  visibility?: Visibility;
}

export async function patchSpace(ctx: ServiceContext, actor: Actor, spaceId: string, changes: SpaceChanges) {
  const { presented, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { space, caller } = await authorizeSpace(trx, actor, spaceId, 'admin');
    const update: Parameters<typeof updateSpace>[2] = { updated_at: isoNow(ctx.clock) };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.emoji !== undefined) update.emoji = changes.emoji ?? '';
    if (changes.editMode !== undefined) update.edit_mode = changes.editMode;
    if (changes.defaultLevel !== undefined) update.default_level = storedDefaultLevel(changes.defaultLevel);
    if (changes.visibility !== undefined) {
      assertVisibilityFits(changes.visibility, space.parent_id);
      update.visibility = changes.visibility;
    }
    await updateSpace(trx, spaceId, update);
    const shownOnSites = (changes.title !== undefined && changes.title !== space.title) || (changes.emoji !== undefined && (changes.emoji ?? '') !== space.emoji);
    const sites = shownOnSites ? await recordSitesUpdated(ctx, trx, space.organization_id, await sitesShowingSpaces(trx, [spaceId])) : undefined;
    const visibilityChanged = changes.visibility !== undefined && changes.visibility !== space.visibility;
    const visibilityEvent = visibilityChanged
      ? await recordEvent(ctx, trx, { type: 'space_visibility_updated', organizationId: space.organization_id, spaceId, visibility: changes.visibility!, previousVisibility: space.visibility })
      : undefined;
    return { presented: await presentWritten(ctx, trx, spaceId, standingOf(caller)), committed: visibilityChanged ? [sites, visibilityEvent] : [sites] };
  });
  for (const events of committed) await afterCommit(ctx, events);
  return presented;
}

/** Soft delete: hidden at once, restorable for RETENTION_DAYS, then purged by a durable job. */
export async function deleteSpace(ctx: ServiceContext, actor: Actor, spaceId: string) {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpace(trx, actor, spaceId, 'admin');
    return softDeleteSpaces(ctx, trx, space.organization_id, [spaceId]);
  });
  await afterCommit(ctx, committed);
}

/** Marks spaces deleted now and schedules their purge; the sites that showed them are told (afterCommit). */
export async function softDeleteSpaces(ctx: ServiceContext, trx: Db, organizationId: string, spaceIds: string[]): Promise<CommittedEvent> {
  const now = ctx.clock.now();
  const sites = await detachSpacesFromSites(ctx, trx, organizationId, spaceIds);
  for (const spaceId of spaceIds) {
    await updateSpace(trx, spaceId, { deleted_at: now.toISOString() });
    await enqueueJob(trx, ctx.clock, PURGE_SPACE_JOB, { spaceId }, new Date(now.getTime() + RETENTION_MS));
  }
  return sites;
}

function withinRetention(ctx: ServiceContext, space: SpaceRow): boolean {
  return space.deleted_at !== null && ctx.clock.now().getTime() - Date.parse(space.deleted_at) < RETENTION_MS;
}

export async function restoreSpace(ctx: ServiceContext, actor: Actor, spaceId: string) {
  return ctx.db.transaction().execute(async (trx) => {
    const { space, caller } = await authorizeSpace(trx, actor, spaceId, 'admin', { deleted: true });
    if (!withinRetention(ctx, space)) throw new NotFound(`No space with id "${spaceId}"`);
    // A space whose collection went away meanwhile comes back at the top level.
    const parent = space.parent_id ? await findCollection(trx, space.parent_id) : undefined;
    const parentId = parent && parent.organization_id === space.organization_id ? parent.id : null;
    await updateSpace(trx, spaceId, {
      deleted_at: null,
      parent_id: parentId,
      visibility: parentId === null && space.visibility === 'in-collection' ? 'private' : space.visibility,
      position: await positionFor(trx, space.organization_id, parentId, spaceId, undefined),
      updated_at: isoNow(ctx.clock),
    });
    return presentWritten(ctx, trx, spaceId, standingOf(caller));
  });
}

/** The organization's trash: the deleted spaces the caller may restore, the most recently deleted first. */
export async function listTrash(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  const caller = await loadContentCallerOf(ctx, ctx.db, actor, organizationId);
  // Roles hang on collections, grants and default levels: decided here for the whole
  // trash at once (it holds only RETENTION_DAYS of deletions), then paginated in SQL.
  const since = new Date(ctx.clock.now().getTime() - RETENTION_MS).toISOString();
  const restorable = (await deletedSpacesSince(ctx.db, organizationId, since))
    .filter((space) => spacePermissions(spaceRole(caller, spaceFacts(space))).admin)
    .map((space) => space.id);
  return paginate(
    deletedSpacesQuery(ctx.db, restorable),
    [
      { column: 's.deleted_at', direction: 'desc', value: (row) => row.deleted_at ?? '' },
      { column: 's.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentSpace(ctx.config.publicUrl, row, spaceRole(caller, spaceFacts(row))),
  );
}

/**
 * Purges a deleted space now rather than when its retention ends, for whoever may
 * delete it; the same removal as the purge job's. A live space must be deleted first,
 * so that no one purges a space by mistake in one step.
 */
export async function purgeSpaceNow(ctx: ServiceContext, actor: Actor, spaceId: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const deleted = ((await findSpace(trx, spaceId))?.deleted_at ?? null) !== null;
    await authorizeSpace(trx, actor, spaceId, 'admin', { deleted });
    if (!deleted) throw new Conflict(`Space "${spaceId}" is not in the trash: delete it first (DELETE /v1/spaces/${spaceId}), then purge it`);
    await purgeSpace(trx, spaceId);
  });
}

/** The purge job: removes a space deleted more than RETENTION_DAYS ago; anything else is left alone. */
export async function purgeDeletedSpace(ctx: ServiceContext, payload: { spaceId: string }): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const space = await findSpace(trx, payload.spaceId);
    if (!space || space.deleted_at === null || withinRetention(ctx, space)) return;
    await purgeSpace(trx, space.id);
  });
}

export async function duplicateSpace(ctx: ServiceContext, actor: Actor, spaceId: string) {
  const copy = await ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpace(trx, actor, spaceId, 'view');
    await authorizeCreateIn(ctx, trx, actor, space.organization_id, space.parent_id);
    const duplicate = await insertNewSpace(
      ctx,
      trx,
      actor,
      {
        organization_id: space.organization_id,
        parent_id: space.parent_id,
        title: `${space.title} (copy)`.slice(0, 50),
        emoji: space.emoji,
        visibility: space.visibility,
        edit_mode: space.edit_mode,
        default_level: space.default_level,
        // Revisions are immutable: the copy starts from the very same one.
        revision_id: space.revision_id,
      },
      { after: { type: 'space', space: space.id } },
    );
    await copyCustomFieldValues(trx, space.id, duplicate.id);
    const committed = await recordNewSpaceContent(ctx, trx, actor, { organizationId: space.organization_id, spaceId: duplicate.id, revisionId: space.revision_id, summary: `Duplicate of ${space.title}` });
    return { presented: await presentWritten(ctx, trx, duplicate.id, CREATOR), committed };
  });
  await afterCommit(ctx, copy.committed);
  return copy.presented;
}

export interface MoveInput {
  parent?: string | null;
  position?: PositionInput;
}

export async function moveSpace(ctx: ServiceContext, actor: Actor, spaceId: string, input: MoveInput) {
  return ctx.db.transaction().execute(async (trx) => {
    const { space, caller } = await authorizeSpace(trx, actor, spaceId, 'admin');
    const parentId = input.parent === undefined ? space.parent_id : input.parent;
    if (parentId !== space.parent_id) await authorizeCreateIn(ctx, trx, actor, space.organization_id, parentId);
    assertVisibilityFits(space.visibility, parentId);
    await updateSpace(trx, spaceId, {
      parent_id: parentId,
      position: await positionFor(trx, space.organization_id, parentId, spaceId, input.position),
      updated_at: isoNow(ctx.clock),
    });
    return presentWritten(ctx, trx, spaceId, standingOf(caller));
  });
}

/** Moves a space to another organization (and optionally into one of its collections). */
export async function transferSpace(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  input: { organization: string; collection?: string },
) {
  const { presented, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { space, caller } = await authorizeSpace(trx, actor, spaceId, 'admin');
    await authorizeInOrganization(ctx, trx, actor, space.organization_id, 'admin');
    await authorizeInOrganization(ctx, trx, actor, input.organization, 'admin');
    const parentId = input.collection ?? null;
    if (parentId !== null) {
      const collection = await findCollection(trx, parentId);
      if (!collection || collection.organization_id !== input.organization) {
        throw new BadRequest(`collection: no collection with id "${parentId}" in the target organization`);
      }
    }
    let sites: CommittedEvent | undefined;
    if (input.organization !== space.organization_id) {
      // Custom fields and sites belong to an organization: values and site spaces do not travel.
      await deleteCustomFieldValuesOfSpace(trx, spaceId);
      sites = await detachSpacesFromSites(ctx, trx, space.organization_id, [spaceId]);
      await moveGrants(trx, 'space', [spaceId], input.organization);
      // Its search sections go with it, in this transaction: searches there find them at once.
      await moveSections(trx, [spaceId], input.organization);
    }
    await updateSpace(trx, spaceId, {
      organization_id: input.organization,
      parent_id: parentId,
      visibility: parentId === null && space.visibility === 'in-collection' ? 'private' : space.visibility,
      position: await positionFor(trx, input.organization, parentId, spaceId, undefined),
      updated_at: isoNow(ctx.clock),
    });
    // In another organization, the caller's standing there, with the grants that came along.
    const callerThere = input.organization === space.organization_id ? caller : await loadContentCaller(trx, input.organization, actor.user.id);
    return { presented: await presentWritten(ctx, trx, spaceId, standingOf(callerThere)), committed: sites };
  });
  await afterCommit(ctx, committed);
  return presented;
}
