// Change requests: proposals to change a space's content, numbered per space. Their
// content editing, update and merge build on the content library (src/content).
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { changeRequestsQuery, findChangeRequest, insertChangeRequest, nextChangeRequestNumber, updateChangeRequest } from '../db/repos/changeRequests.ts';
import { lockRow } from '../db/dialect.ts';
import type { Db, ChangeRequestWithAuthor, SpaceRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { presentChangeRequest } from '../presenters/changeRequest.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

/** A change request of the space, by id or number; 404 otherwise. */
export async function requireChangeRequest(db: Db, spaceId: string, idOrNumber: string): Promise<ChangeRequestWithAuthor> {
  const changeRequest = await findChangeRequest(db, spaceId, idOrNumber);
  if (!changeRequest) throw new NotFound(`No change request "${idOrNumber}" in this space`);
  return changeRequest;
}

/**
 * The change request read under its row's lock, held until the transaction ends: the
 * batches, updates and merges that replace its content go one after another, each from
 * what the one before left (PostgreSQL; SQLite writes one transaction at a time). Read
 * without it, six batches at once were all answered 200 and two of them were kept.
 */
export async function lockChangeRequest(db: Db, spaceId: string, idOrNumber: string): Promise<ChangeRequestWithAuthor> {
  const { id } = await requireChangeRequest(db, spaceId, idOrNumber);
  await lockRow(db, 'change_requests', id);
  return requireChangeRequest(db, spaceId, id);
}

export async function listChangeRequests(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  options: PageRequest & { status?: ChangeRequestStatus; contributor?: string },
) {
  const { space } = await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
  return paginate(
    changeRequestsQuery(ctx.db, spaceId, { status: options.status ?? 'open', contributor: options.contributor }),
    [
      { column: 'cr.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'cr.id', direction: 'desc', value: (row) => row.id },
    ],
    options,
    (row) => presentChangeRequest(ctx.config.publicUrl, space, row),
  );
}

/** Opens a change request on the space's current revision, with the next number of the space. */
export async function createChangeRequest(ctx: ServiceContext, actor: Actor, spaceId: string, input: { subject?: string }) {
  return ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    const { id } = await openChangeRequest(ctx, trx, actor, spaceId, { subject: input.subject ?? '', base: space.revision_id, revision: space.revision_id });
    return presentChangeRequestOf(ctx, trx, space, id);
  });
}

/** Inserts an open change request proposing `revision` over `base`, with the next number of the space; answers its id and number. */
export async function openChangeRequest(
  ctx: ServiceContext,
  trx: Db,
  actor: Actor,
  spaceId: string,
  input: { subject: string; base: string; revision: string },
): Promise<{ id: string; number: number }> {
  // Numbers are handed out one at a time per space, across processes.
  await lockRow(trx, 'spaces', spaceId);
  const id = newId();
  const now = isoNow(ctx.clock);
  const number = await nextChangeRequestNumber(trx, spaceId);
  await insertChangeRequest(trx, {
    id,
    space_id: spaceId,
    number,
    status: 'open',
    subject: input.subject,
    created_by: actor.user.id,
    revision_id: input.revision,
    revision_initial: input.base,
    revision_merged_ancestor: null,
    revision_merged: null,
    created_at: now,
    updated_at: now,
  });
  return { id, number };
}

export async function getChangeRequest(ctx: ServiceContext, actor: Actor, spaceId: string, idOrNumber: string) {
  const { space } = await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
  return presentChangeRequestOf(ctx, ctx.db, space, idOrNumber);
}

/**
 * A change request of a space the caller was authorized on, read through `db`: a writer
 * passes its transaction, which reads what it wrote and presents it with the space and
 * the role authorized there, instead of authorizing and reading again after its commit.
 */
export async function presentChangeRequestOf(ctx: ServiceContext, db: Db, space: SpaceRow, idOrNumber: string) {
  return presentChangeRequest(ctx.config.publicUrl, space, await requireChangeRequest(db, space.id, idOrNumber));
}

/** Changes the subject or status; "merged" is reached only by merging, and a merged change request is final. */
export async function patchChangeRequest(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  idOrNumber: string,
  changes: { subject?: string; status?: ChangeRequestStatus },
) {
  return ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    const changeRequest = await requireChangeRequest(trx, spaceId, idOrNumber);
    if (changeRequest.status === 'merged') {
      throw new Conflict(`Change request #${changeRequest.number} is merged; it can no longer change`);
    }
    if (changes.status === 'merged') {
      throw new BadRequest('status: a change request becomes "merged" only by merging it (POST …/merge)');
    }
    await updateChangeRequest(trx, changeRequest.id, {
      ...(changes.subject !== undefined ? { subject: changes.subject } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      updated_at: isoNow(ctx.clock),
    });
    return presentChangeRequestOf(ctx, trx, space, changeRequest.id);
  });
}
