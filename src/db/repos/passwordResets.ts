// Password resets asked for, per address: their rate limit counts them.
import type { Db } from '../schema.ts';

/** Records one request, forgetting those older than `forgetBefore`; answers how many there were since `since`, this one included. */
export async function recordPasswordResetRequest(
  db: Db,
  request: { id: string; email: string; requested_at: string },
  since: string,
  forgetBefore: string,
): Promise<number> {
  await db.deleteFrom('password_reset_requests').where('requested_at', '<', forgetBefore).execute();
  await db.insertInto('password_reset_requests').values(request).execute();
  const { count } = await db
    .selectFrom('password_reset_requests')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('email', '=', request.email)
    .where('requested_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** When the oldest request counted since `since` leaves the window. */
export async function oldestPasswordResetRequest(db: Db, email: string, since: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_reset_requests')
    .select('requested_at')
    .where('email', '=', email)
    .where('requested_at', '>=', since)
    .orderBy('requested_at')
    .limit(1)
    .executeTakeFirst();
  return row?.requested_at;
}
