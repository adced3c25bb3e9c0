// Collections: nestable groups of spaces, ordered together with the spaces beside them.
import { moveSections } from '../db/fullText.ts';
import { BadRequest } from '../errors.ts';
import { collectionsOfOrganization, collectionsQuery, deleteCollections, findCollection, insertCollection, reassignCollections, updateCollection } from '../db/repos/collections.ts';
import { moveGrants, upsertGrant } from '../db/repos/grants.ts';
import { spacesInCollections, spacesQuery, updateSpaces } from '../db/repos/spaces.ts';
import { deleteCustomFieldValuesOfSpace } from '../db/repos/customFields.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { authorizeCollectionRole, collectionRole, spaceRole, type ContentCaller } from '../policies/content.ts';
import { presentCollection, presentSpace, storedDefaultLevel } from '../presenters/content.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeCollection, authorizeCreateIn, loadContentCaller, loadContentCallerOf, spaceFacts, visibleContent } from './contentAccess.ts';
import { authorizeInOrganization } from './organizations.ts';
import { positionFor, type PositionInput } from './ordering.ts';
import { detachSpacesFromSites } from './siteStructure.ts';
import { softDeleteSpaces, type DefaultLevelInput } from './spaces.ts';
import { afterCommit } from './events.ts';
import type { CollectionRow, Db } from '../db/schema.ts';
import type { Role } from '../lib/roles.ts';

/** A collection and every collection nested in it, from the organization's whole set. */
function subtreeIds(all: readonly CollectionRow[], rootId: string): string[] {
  const children = new Map<string, string[]>();
  for (const collection of all) {
    if (collection.parent_id) children.set(collection.parent_id, [...(children.get(collection.parent_id) ?? []), collection.id]);
  }
  const ids: string[] = [];
  const pending = [rootId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    ids.push(id);
    pending.push(...(children.get(id) ?? []));
  }
  return ids;
}

async function presentFor(ctx: ServiceContext, actor: Actor, collectionId: string) {
  const { collection, role } = await authorizeCollection(ctx.db, actor, collectionId, 'view');
  return presentCollection(ctx.config.publicUrl, collection, role);
}

/**
 * A collection a writer changed, as its transaction reads it after the change, with the
 * caller's role on it as it is now (`roleOn`, from what the transaction read). A
 * collection's presenter reads nothing, so writers present inside their transaction, as
 * change requests do, instead of authorizing and reading again after the commit.
 */
async function presentWritten(ctx: ServiceContext, trx: Db, collectionId: string, roleOn: (collection: CollectionRow) => Role | null) {
  const written = await findCollection(trx, collectionId);
  if (!written) return authorizeCollectionRole(null, 'view', collectionId) as never;
  return presentCollection(ctx.config.publicUrl, written, authorizeCollectionRole(roleOn(written), 'view', collectionId));
}

/** The role of a caller whose content standing was read before the change, on the collection as it is after it (its default level and place changed, in the same organization). */
const roleOf = (caller: ContentCaller) => (collection: CollectionRow) =>
  collectionRole(
    { ...caller, collections: new Map(caller.collections).set(collection.id, { id: collection.id, parentId: collection.parent_id, defaultLevel: collection.default_level }) },
    collection.id,
  );

/** Who creates a collection is granted "admin" on it, the highest role. */
const CREATOR = (): Role => 'admin';

export async function createCollection(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: { title?: string; parent?: string },
) {
  const id = newId();
  return ctx.db.transaction().execute(async (trx) => {
    const parentId = input.parent ?? null;
    await authorizeCreateIn(ctx, trx, actor, organizationId, parentId);
    const now = isoNow(ctx.clock);
    await insertCollection(trx, {
      id,
      organization_id: organizationId,
      parent_id: parentId,
      title: input.title ?? 'Untitled',
      description: null,
      default_level: 'inherit',
      position: await positionFor(trx, organizationId, parentId, id, undefined),
      created_at: now,
      updated_at: now,
    });
    await upsertGrant(trx, {
      organization_id: organizationId,
      target_kind: 'collection',
      target_id: id,
      user_id: actor.user.id,
      role: 'admin',
      created_at: now,
    });
    return presentWritten(ctx, trx, id, CREATOR);
  });
}

export async function getCollection(ctx: ServiceContext, actor: Actor, collectionId: string) {
  return presentFor(ctx, actor, collectionId);
}

export async function listCollections(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  options: PageRequest & { nested?: boolean },
) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  const caller = await loadContentCallerOf(ctx, ctx.db, actor, organizationId);
  const visible = visibleContent(caller);
  const query = collectionsQuery(ctx.db, organizationId, options.nested === false).$if(visible !== undefined, (q) =>
    q.where('c.id', 'in', visible!.collectionIds.length ? visible!.collectionIds : ['']),
  );
  // One total order that, within each parent, is the order of its children.
  return paginate(
    query,
    [
      { column: 'c.position', direction: 'asc', value: (row) => row.position },
      { column: 'c.id', direction: 'asc', value: (row) => row.id },
    ],
    options,
    (row) => presentCollection(ctx.config.publicUrl, row, collectionRole(caller, row.id)),
  );
}

export async function listSpacesInCollection(ctx: ServiceContext, actor: Actor, collectionId: string, page: PageRequest) {
  const { collection, caller } = await authorizeCollection(ctx.db, actor, collectionId, 'view');
  return paginate(
    spacesQuery(ctx.db, collection.organization_id, { parentId: collectionId, visibleTo: visibleContent(caller) }),
    [
      { column: 's.position', direction: 'asc', value: (row) => row.position },
      { column: 's.id', direction: 'asc', value: (row) => row.id },
    ],
    page,
    (row) => presentSpace(ctx.config.publicUrl, row, spaceRole(caller, spaceFacts(row))),
  );
}

export async function patchCollection(
  ctx: ServiceContext,
  actor: Actor,
  collectionId: string,
  changes: { title?: string; description?: string; defaultLevel?: DefaultLevelInput },
) {
  return ctx.db.transaction().execute(async (trx) => {
    const { caller } = await authorizeCollection(trx, actor, collectionId, 'admin');
    const update: Parameters<typeof updateCollection>[2] = { updated_at: isoNow(ctx.clock) };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.description !== undefined) update.description = changes.description;
    if (changes.defaultLevel !== undefined) update.default_level = storedDefaultLevel(changes.defaultLevel);
    await updateCollection(trx, collectionId, update);
    return presentWritten(ctx, trx, collectionId, roleOf(caller));
  });
}

/**
 * Deletes a collection with everything in it, as GitBook does: nested collections go
 * at once; spaces are deleted the usual way, restorable for the retention window
 * (they come back at the top level).
 */
export async function deleteCollection(ctx: ServiceContext, actor: Actor, collectionId: string) {
  const committed = await ctx.db.transaction().execute(async (trx) => {
    const { collection } = await authorizeCollection(trx, actor, collectionId, 'admin');
    const subtree = subtreeIds(await collectionsOfOrganization(trx, collection.organization_id), collectionId);
    const spaces = await spacesInCollections(trx, subtree);
    const sites = await softDeleteSpaces(ctx, trx, collection.organization_id, spaces.map((space) => space.id));
    await deleteCollections(trx, subtree);
    return sites;
  });
  await afterCommit(ctx, committed);
}

export async function moveCollection(
  ctx: ServiceContext,
  actor: Actor,
  collectionId: string,
  input: { parent?: string | null; position?: PositionInput },
) {
  return ctx.db.transaction().execute(async (trx) => {
    const { collection, caller } = await authorizeCollection(trx, actor, collectionId, 'admin');
    const parentId = input.parent === undefined ? collection.parent_id : input.parent;
    if (parentId !== null) {
      const subtree = subtreeIds(await collectionsOfOrganization(trx, collection.organization_id), collectionId);
      if (subtree.includes(parentId)) {
        throw new BadRequest('parent: a collection cannot move into itself or one of its own collections');
      }
    }
    if (parentId !== collection.parent_id) await authorizeCreateIn(ctx, trx, actor, collection.organization_id, parentId);
    await updateCollection(trx, collectionId, {
      parent_id: parentId,
      position: await positionFor(trx, collection.organization_id, parentId, collectionId, input.position),
      updated_at: isoNow(ctx.clock),
    });
    return presentWritten(ctx, trx, collectionId, roleOf(caller));
  });
}

/** Moves a collection, its nested collections and their spaces to another organization. */
export async function transferCollection(ctx: ServiceContext, actor: Actor, collectionId: string, organizationId: string) {
  const { presented, committed } = await ctx.db.transaction().execute(async (trx) => {
    const { collection, caller } = await authorizeCollection(trx, actor, collectionId, 'admin');
    await authorizeInOrganization(ctx, trx, actor, collection.organization_id, 'admin');
    await authorizeInOrganization(ctx, trx, actor, organizationId, 'admin');
    if (organizationId === collection.organization_id) return { presented: await presentWritten(ctx, trx, collectionId, roleOf(caller)), committed: undefined };
    const subtree = subtreeIds(await collectionsOfOrganization(trx, collection.organization_id), collectionId);
    const spaceIds = (await spacesInCollections(trx, subtree)).map((space) => space.id);
    for (const spaceId of spaceIds) await deleteCustomFieldValuesOfSpace(trx, spaceId);
    const sites = await detachSpacesFromSites(ctx, trx, collection.organization_id, spaceIds);
    await moveGrants(trx, 'collection', subtree, organizationId);
    await moveGrants(trx, 'space', spaceIds, organizationId);
    // Their search sections go with them, in this transaction: searches there find them at once.
    await moveSections(trx, spaceIds, organizationId);
    await reassignCollections(trx, subtree, organizationId);
    await updateSpaces(trx, spaceIds, { organization_id: organizationId });
    await updateCollection(trx, collectionId, {
      parent_id: null,
      position: await positionFor(trx, organizationId, null, collectionId, undefined),
      updated_at: isoNow(ctx.clock),
    });
    // The caller's standing in the organization it went to, with the grants that came along.
    const callerThere = await loadContentCaller(trx, organizationId, actor.user.id);
    return { presented: await presentWritten(ctx, trx, collectionId, (written) => collectionRole(callerThere, written.id)), committed: sites };
  });
  await afterCommit(ctx, committed);
  return presented;
}
