// Browser sessions (api_tokens of kind 'session'), personal tokens as their owner lists
// them, one-time sign-in links and the failed sign-ins the rate limit counts.
import type { ApiTokenRow, Db, SignInLinksTable } from '../schema.ts';

/** A person's unrevoked, unexpired tokens of one kind, newest first. */
export function listOwnTokens(db: Db, userId: string, kind: ApiTokenRow['kind'], now: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes one of the person's tokens of a kind; answers whether there was one to revoke. */
export async function revokeOwnToken(db: Db, userId: string, kind: ApiTokenRow['kind'], tokenId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every session of the person but one (after a password change). */
export async function revokeOtherSessions(db: Db, userId: string, keepTokenId: string | undefined, now: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('kind', '=', 'session')
    .where('revoked_at', 'is', null)
    .$if(keepTokenId !== undefined, (q) => q.where('id', '!=', keepTokenId!))
    .execute();
}

/** Moves last_used_at only when it is older than `before`: one write a minute at most per token. */
export async function touchToken(db: Db, tokenId: string, now: string, before: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    .execute();
}

export async function insertSignInLink(db: Db, link: SignInLinksTable): Promise<void> {
  await db.insertInto('sign_in_links').values(link).execute();
}

/**
 * Marks an unused, unexpired link used and answers its person; undefined when there is
 * none. One statement, so two concurrent uses cannot both succeed.
 */
export async function useSignInLink(db: Db, tokenHash: string, now: string): Promise<string | undefined> {
  const link = await db
    .selectFrom('sign_in_links')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!link) return undefined;
  const result = await db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('id', '=', link.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? link.user_id : undefined;
}

export async function insertSignInFailure(db: Db, id: string, key: string, failedAt: string): Promise<void> {
  await db.insertInto('sign_in_failures').values({ id, key, failed_at: failedAt }).execute();
}

/** Failures under each key since a time, and the oldest of them (when the window frees a slot). */
export async function countSignInFailures(db: Db, keys: string[], since: string) {
  const rows = await db
    .selectFrom('sign_in_failures')
    .select((eb) => ['key', eb.fn.countAll().as('count'), eb.fn.min('failed_at').as('oldest')])
    .where('key', 'in', keys)
    .where('failed_at', '>', since)
    .groupBy('key')
    .execute();
  return new Map(rows.map((row) => [row.key, { count: Number(row.count), oldest: row.oldest as string }]));
}

/** Failures older than the window count for nothing: dropped, so the table stays small. */
export async function pruneSignInFailures(db: Db, before: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('failed_at', '<=', before).execute();
}

/** Whether any organization exists (setup is for a server with none). */
export async function anyOrganization(db: Db): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Forgets an account's failures once its password was given right. */
export async function clearSignInFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
}

/** Makes sure a row exists that a transaction can lock by writing it (settings has no id to lock by). */
export async function ensureSettingRow(db: Db, key: string): Promise<void> {
  await db.insertInto('settings').values({ key, value: '' }).onConflict((c) => c.column('key').doNothing()).execute();
}

/**
 * Holds the setting's row until the transaction ends: PostgreSQL locks the row it
 * updates, and SQLite runs one write transaction at a time anyway, so the same
 * statement serialises on both.
 */
export async function lockSettingRow(db: Db, key: string): Promise<void> {
  await db.updateTable('settings').set((eb) => ({ value: eb.ref('value') })).where('key', '=', key).execute();
}

/** Whether a person who is an SSO member of an organization enforcing SSO: they sign in through its provider. */
export async function ssoRequiredOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.title'])
    .where('m.user_id', '=', userId)
    .where('m.sso', '=', 1)
    .where('o.sso', '=', 1)
    .executeTakeFirst();
  return row?.title;
}
