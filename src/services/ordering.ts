// Where a space or collection goes among its siblings. Positions are fractional keys
// (fractional-indexing): a move writes one row, never renumbers the siblings, and
// keeps working after any number of moves.
import { generateKeyBetween } from 'fractional-indexing';
import { BadRequest } from '../errors.ts';
import { findOrderedItem, lastPosition, neighbourPosition, type ContentKind } from '../db/repos/contentOrder.ts';
import type { Db } from '../db/schema.ts';

export type Pointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface PositionInput {
  before?: Pointer;
  after?: Pointer;
}

function pointerTarget(pointer: Pointer): { kind: ContentKind; id: string } {
  return pointer.type === 'space' ? { kind: 'space', id: pointer.space } : { kind: 'collection', id: pointer.collection };
}

async function anchorPosition(
  db: Db,
  organizationId: string,
  parentId: string | null,
  movingId: string,
  field: 'before' | 'after',
  pointer: Pointer,
): Promise<string> {
  const { kind, id } = pointerTarget(pointer);
  const anchor = await findOrderedItem(db, organizationId, kind, id);
  if (!anchor || anchor.parentId !== parentId) {
    throw new BadRequest(`position.${field}: no ${kind} "${id}" at the destination (it must be a sibling in the target parent)`);
  }
  if (anchor.id === movingId) throw new BadRequest(`position.${field}: an item cannot be placed relative to itself`);
  return anchor.position;
}

/** The position key for `movingId` under `parentId`: before/after a sibling, or at the end. */
export async function positionFor(
  db: Db,
  organizationId: string,
  parentId: string | null,
  movingId: string,
  position: PositionInput | undefined,
): Promise<string> {
  const before = position?.before && (await anchorPosition(db, organizationId, parentId, movingId, 'before', position.before));
  const after = position?.after && (await anchorPosition(db, organizationId, parentId, movingId, 'after', position.after));
  if (before && after) {
    if (after >= before) throw new BadRequest('position: "after" must come before "before" among the siblings');
    return generateKeyBetween(after, before);
  }
  if (before) return generateKeyBetween(await neighbourPosition(db, organizationId, parentId, before, 'before', movingId), before);
  if (after) return generateKeyBetween(after, await neighbourPosition(db, organizationId, parentId, after, 'after', movingId));
  return generateKeyBetween(await lastPosition(db, organizationId, parentId, movingId), null);
}
