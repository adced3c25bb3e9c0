// The stored counters (schema.ts, StoredCounters): every write that changes what one
// counts moves it by that change, in the same transaction, so a counter always equals
// a fresh count of its rows. Increments, not recounts: two transactions counting at
// once would each miss the other's rows; increments of a row they both lock add up.
import type { ChangeRequestRow, CommentRow, Db } from '../schema.ts';

type Status = ChangeRequestRow['status'];

/** Refuses to move a counter outside a transaction: a failure after the counted write would leave it wrong for good. */
function inTransaction(db: Db): Db {
  if (!db.isTransaction) throw new Error('A stored counter moves only in the transaction that writes what it counts');
  return db;
}

const STATUS_COUNTERS: Partial<Record<Status, 'change_requests_open' | 'change_requests_draft'>> = {
  open: 'change_requests_open',
  draft: 'change_requests_draft',
};

/** A change request of the space went from one status to another; null is "not there" (inserted). */
export async function countChangeRequestTransition(db: Db, spaceId: string, from: Status | null, to: Status): Promise<void> {
  const deltas = new Map<'change_requests_total' | 'change_requests_open' | 'change_requests_draft', number>();
  const add = (column: 'change_requests_total' | 'change_requests_open' | 'change_requests_draft' | undefined, delta: number) => {
    if (column) deltas.set(column, (deltas.get(column) ?? 0) + delta);
  };
  if (from === null) add('change_requests_total', 1);
  if (from !== null) add(STATUS_COUNTERS[from], -1);
  add(STATUS_COUNTERS[to], 1);
  const changed = [...deltas].filter(([, delta]) => delta !== 0);
  if (changed.length === 0) return;
  await inTransaction(db)
    .updateTable('spaces')
    .set((eb) => Object.fromEntries(changed.map(([column, delta]) => [column, eb(column, '+', delta)])))
    .where('id', '=', spaceId)
    .execute();
}

/** An open comment (not a reply) came or went: it counts for its change request, or for its space outside change requests. */
export async function countOpenComment(db: Db, comment: Pick<CommentRow, 'space_id' | 'change_request_id'>, delta: 1 | -1): Promise<void> {
  if (comment.change_request_id !== null) {
    await inTransaction(db)
      .updateTable('change_requests')
      .set((eb) => ({ comments_open: eb('comments_open', '+', delta) }))
      .where('id', '=', comment.change_request_id)
      .execute();
  } else {
    await inTransaction(db)
      .updateTable('spaces')
      .set((eb) => ({ comments_open: eb('comments_open', '+', delta) }))
      .where('id', '=', comment.space_id)
      .execute();
  }
}

/** A reply to the comment came or went. */
export async function countReply(db: Db, parentId: string, delta: 1 | -1): Promise<void> {
  await inTransaction(db)
    .updateTable('comments')
    .set((eb) => ({ reply_count: eb('reply_count', '+', delta) }))
    .where('id', '=', parentId)
    .execute();
}
