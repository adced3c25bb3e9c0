// Change requests of a space: proposed edits, numbered per space.
import { sql } from 'kysely';
import { lockRow } from '../dialect.ts';
import type { Db, ChangeRequestWithAuthor, ChangeRequestRow } from '../schema.ts';
import { countChangeRequestTransition } from './counters.ts';

function withAuthors(db: Db) {
  return db
    .selectFrom('change_requests as cr')
    .innerJoin('users as u', 'u.id', 'cr.created_by')
    .selectAll('cr')
    .select([
      'u.email as author_email',
      'u.display_name as author_display_name',
      'u.photo_url as author_photo_url',
    ]);
}

/** By id, or by number when the reference is digits only. */
export function findChangeRequest(db: Db, spaceId: string, idOrNumber: string): Promise<ChangeRequestWithAuthor | undefined> {
  const query = withAuthors(db).where('cr.space_id', '=', spaceId);
  return (/^\d{1,9}$/.test(idOrNumber) ? query.where('cr.number', '=', Number(idOrNumber)) : query.where('cr.id', '=', idOrNumber)).executeTakeFirst();
}

export function changeRequestsQuery(db: Db, spaceId: string, filters: { status?: string; contributor?: string }) {
  return withAuthors(db)
    .where('cr.space_id', '=', spaceId)
    .$if(filters.status !== undefined, (q) => q.where('cr.status', '=', filters.status as ChangeRequestRow['status']))
    .$if(filters.contributor !== undefined, (q) => q.where('cr.created_by', '=', filters.contributor!));
}

/** The revisions of a space's open change requests. */
export async function openChangeRequestRevisions(db: Db, spaceId: string): Promise<string[]> {
  const rows = await db.selectFrom('change_requests').select('revision_id').where('space_id', '=', spaceId).where('status', '=', 'open').execute();
  return rows.map((row) => row.revision_id);
}

/** The next number in a space; the caller holds the space's row lock. */
export async function nextChangeRequestNumber(db: Db, spaceId: string): Promise<number> {
  const row = await db
    .selectFrom('change_requests')
    .select(sql<number | string | null>`max(number)`.as('last'))
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export async function insertChangeRequest(db: Db, changeRequest: ChangeRequestRow): Promise<void> {
  await db.insertInto('change_requests').values(changeRequest).execute();
  await countChangeRequestTransition(db, changeRequest.space_id, null, changeRequest.status);
}

export async function updateChangeRequest(
  db: Db,
  changeRequestId: string,
  changes: Partial<Omit<ChangeRequestRow, 'id' | 'space_id' | 'number' | 'created_by' | 'created_at'>>,
): Promise<void> {
  if (changes.status === undefined) {
    await db.updateTable('change_requests').set(changes).where('id', '=', changeRequestId).execute();
    return;
  }
  // The status it leaves, read under the row's lock: two transitions at once count one after the other.
  await lockRow(db, 'change_requests', changeRequestId);
  const before = await db.selectFrom('change_requests').select(['space_id', 'status']).where('id', '=', changeRequestId).executeTakeFirstOrThrow();
  await db.updateTable('change_requests').set(changes).where('id', '=', changeRequestId).execute();
  if (before.status !== changes.status) await countChangeRequestTransition(db, before.space_id, before.status, changes.status);
}

