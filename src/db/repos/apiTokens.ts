// API tokens, stored only as SHA-256 hashes.
import type { ApiTokensTable, Db, UsersTable } from '../schema.ts';

export type ApiTokenRow = ApiTokensTable;

export interface TokenOwnerRow {
  token_id: string;
  user_id: string;
  email: UsersTable['email'];
  display_name: UsersTable['display_name'];
  photo_url: UsersTable['photo_url'];
  created_at: UsersTable['created_at'];
}

export async function insertApiToken(db: Db, token: ApiTokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(token).execute();
}

/** The owner of an unrevoked token, with the user's row, in one query. */
export function findTokenOwner(db: Db, tokenHash: string): Promise<TokenOwnerRow | undefined> {
  return db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id as token_id',
      'u.id as user_id',
      'u.email',
      'u.display_name',
      'u.photo_url',
      'u.created_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes by hash or id; answers how many tokens were revoked (0 or 1). */
export async function revokeApiToken(
  db: Db,
  which: { tokenHash: string } | { tokenId: string },
  revokedAt: string,
): Promise<number> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: revokedAt })
    .where('revoked_at', 'is', null)
    .$if('tokenHash' in which, (q) => q.where('token_hash', '=', (which as { tokenHash: string }).tokenHash))
    .$if('tokenId' in which, (q) => q.where('id', '=', (which as { tokenId: string }).tokenId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
