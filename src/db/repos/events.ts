// The outbox: events and their deliveries, one per subscriber.
import type { Db, EventDeliveryRow, EventRow } from '../schema.ts';

export async function insertEvent(db: Db, event: EventRow, subscribers: string[]): Promise<void> {
  await db.insertInto('events').values(event).execute();
  if (subscribers.length === 0) return;
  await db
    .insertInto('event_deliveries')
    .values(subscribers.map((subscriber) => ({ event_id: event.id, subscriber, state: 'pending' as const, attempts: 0, last_error: null, updated_at: event.created_at })))
    .execute();
}

/** Deletes up to `limit` events made before `before` with no delivery still to make; answers how many. */
export async function deleteSettledEvents(db: Db, before: string, limit: number): Promise<number> {
  const settled = db
    .selectFrom('events as e')
    .select('e.id')
    .where('e.created_at', '<', before)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('event_deliveries as d').select('d.event_id').whereRef('d.event_id', '=', 'e.id').where('d.state', '=', 'pending'))))
    .limit(limit);
  const result = await db.deleteFrom('events').where('id', 'in', settled).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** An event and its deliveries (cascade). */
export async function deleteEvent(db: Db, eventId: string): Promise<void> {
  await db.deleteFrom('events').where('id', '=', eventId).execute();
}

export function findEvent(db: Db, eventId: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirst();
}

export function findDelivery(db: Db, eventId: string, subscriber: string): Promise<EventDeliveryRow | undefined> {
  return db.selectFrom('event_deliveries').selectAll().where('event_id', '=', eventId).where('subscriber', '=', subscriber).executeTakeFirst();
}

/** Counts one more attempt before it runs, so that an attempt cut off by a dead process counts too. */
export async function countDeliveryAttempt(db: Db, eventId: string, subscriber: string, at: string): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: at }))
    .where('event_id', '=', eventId)
    .where('subscriber', '=', subscriber)
    .execute();
}

/** Takes back the attempt counted for a run that never started (SandboxStopping): the delivery waits as before it. */
export async function uncountDeliveryAttempt(db: Db, eventId: string, subscriber: string): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('event_id', '=', eventId)
    .where('subscriber', '=', subscriber)
    .where('attempts', '>', 0)
    .execute();
}

/** Records how an attempt ended; a delivery already done stays done. */
export async function endDelivery(db: Db, eventId: string, subscriber: string, changes: Pick<EventDeliveryRow, 'state' | 'last_error' | 'updated_at'>): Promise<void> {
  await db.updateTable('event_deliveries').set(changes).where('event_id', '=', eventId).where('subscriber', '=', subscriber).where('state', '!=', 'done').execute();
}

/** Deliveries to some subscribers, with their events, for listing newest first. */
export function deliveriesOf(db: Db, subscribers: string[]) {
  return db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.event_id', 'd.subscriber', 'd.state', 'd.attempts', 'd.last_error', 'd.updated_at', 'e.type', 'e.organization_id', 'e.space_id', 'e.payload', 'e.created_at'])
    .where('d.subscriber', 'in', subscribers.length > 0 ? subscribers : ['']);
}
