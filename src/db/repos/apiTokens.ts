// API tokens, stored only as SHA-256 hashes.
import type { Db, OrganizationWithAccessRow, TokenOwnerRow, ApiTokenRow } from '../schema.ts';
import { sql } from 'kysely';
import { preparedQuery } from '../prepared.ts';
import { isMember, ownsTeam } from './organizations.ts';

/**
 * A token made outside SSO does not admit someone who is an SSO member of an
 * organization that enforces SSO: they sign in through its identity provider.
 */
const ssoRequiredBy = sql<string | null>`case when t.saml_provider_id is null then (
    select so.id from organization_members sm inner join organizations so on so.id = sm.organization_id
    where sm.user_id = u.id and sm.sso = 1 and so.sso = 1 limit 1
  ) else null end`.as('sso_required_by');

export async function insertApiToken(db: Db, token: ApiTokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(token).execute();
}

const tokenOwnerQuery = preparedQuery<'tokenHash', TokenOwnerRow>((db, param) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id as token_id',
      'u.id as user_id',
      'u.email',
      'u.display_name',
      'u.photo_url',
      'u.created_at',
      ssoRequiredBy,
    ])
    .where('t.token_hash', '=', param('tokenHash'))
    .where('t.revoked_at', 'is', null),
  { remember: true },
);

/** The owner of an unrevoked token, with the user's row, in one query (every request runs it). */
export async function findTokenOwner(db: Db, tokenHash: string): Promise<TokenOwnerRow | undefined> {
  return (await tokenOwnerQuery(db, { tokenHash }))[0];
}

type OwnerWithOrganizationRow = {
  token_id: string;
  sso_required_by: string | null;
  user_id: string;
  user_email: string;
  user_display_name: string;
  user_photo_url: string | null;
  user_created_at: string;
} & { [Column in keyof OrganizationWithAccessRow]: OrganizationWithAccessRow[Column] | null };

const ownerWithOrganizationQuery = preparedQuery<'tokenHash' | 'organizationId', OwnerWithOrganizationRow>(
  (db, param) =>
    db
      .selectFrom('api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('organizations as o', (join) => join.on('o.id', '=', param('organizationId')))
      .leftJoin('organization_members as m', (join) =>
        join.onRef('m.organization_id', '=', 'o.id').onRef('m.user_id', '=', 'u.id'),
      )
      .selectAll('o')
      .select([
        't.id as token_id',
        ssoRequiredBy,
        'u.id as user_id',
        'u.email as user_email',
        'u.display_name as user_display_name',
        'u.photo_url as user_photo_url',
        'u.created_at as user_created_at',
        'm.role as member_role',
        isMember,
        ownsTeam(sql.ref('u.id')),
      ])
      .where('t.token_hash', '=', param('tokenHash'))
      .where('t.revoked_at', 'is', null),
  { remember: true },
);

/**
 * The token's owner and, in the same round trip, an organization with the owner's
 * access to it: requests under /orgs/{organizationId} need both.
 */
export async function findTokenOwnerWithOrganization(
  db: Db,
  tokenHash: string,
  organizationId: string,
): Promise<{ owner: TokenOwnerRow; organization: OrganizationWithAccessRow | undefined } | undefined> {
  const [row] = await ownerWithOrganizationQuery(db, { tokenHash, organizationId });
  if (!row) return undefined;
  const { token_id, sso_required_by, user_id, user_email, user_display_name, user_photo_url, user_created_at, ...organization } =
    row;
  return {
    owner: {
      token_id,
      sso_required_by,
      user_id,
      email: user_email,
      display_name: user_display_name,
      photo_url: user_photo_url,
      created_at: user_created_at,
    },
    organization: organization.id === null ? undefined : (organization as OrganizationWithAccessRow),
  };
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
