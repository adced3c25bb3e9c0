// API tokens, stored only as SHA-256 hashes.
import type { Db, OrganizationWithAccessRow, TokenOwnerRow, ApiTokenRow, SpaceReadWithToken, SpaceWithCounters } from '../schema.ts';
import { sql } from 'kysely';
import { contentStandingAt } from './contentStanding.ts';
import { preparedQuery } from '../prepared.ts';
import { isMember, ownsTeam } from './organizations.ts';
import { GIT_SYNC_COLUMNS } from './spaces.ts';
import { REVISION_GIT_STAMP } from './gitSync.ts';

/**
 * A token made outside SSO does not admit someone who is an SSO member of an
 * organization that enforces SSO: they sign in through its identity provider. SSO made
 * the token when a SAML provider issued it or an OpenID provider opened it (oidc_sessions).
 */
const ssoRequiredBy = sql<string | null>`case when t.saml_provider_id is null and not exists (
    select 1 from oidc_sessions os where os.token_id = t.id
  ) then (
    select so.id from organization_members sm inner join organizations so on so.id = sm.organization_id
    where sm.user_id = u.id and sm.sso = 1 and so.sso = 1 limit 1
  ) else null end`.as('sso_required_by');

/**
 * What the auth plugin decides by beyond the owner: the kind (a cookie must carry a
 * session), the scope, the expiry (checked against the clock, so that remembered rows
 * stay valid) and when it was last used (moved at most once a minute).
 */
const TOKEN_COLUMNS = [
  't.kind as token_kind',
  't.scope as token_scope',
  't.created_at as token_created_at',
  't.expires_at as token_expires_at',
  't.last_used_at as token_last_used_at',
] as const;

export async function insertApiToken(db: Db, token: ApiTokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(token).execute();
}

const tokenOwnerQuery = preparedQuery<'tokenHash', TokenOwnerRow>((db, param) =>
  db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id as token_id',
      ...TOKEN_COLUMNS,
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

/** The token's owner, as the queries that read more in the same round trip name its columns. */
const OWNER_COLUMNS = [
  't.id as token_id',
  ...TOKEN_COLUMNS,
  'u.id as user_id',
  'u.email as user_email',
  'u.display_name as user_display_name',
  'u.photo_url as user_photo_url',
  'u.created_at as user_created_at',
] as const;

type TokenColumns = Pick<TokenOwnerRow, 'token_kind' | 'token_scope' | 'token_created_at' | 'token_expires_at' | 'token_last_used_at'>;

interface OwnerColumns extends TokenColumns {
  token_id: string;
  sso_required_by: string | null;
  user_id: string;
  user_email: string;
  user_display_name: string;
  user_photo_url: string | null;
  user_created_at: string;
}

function ownerOf(row: OwnerColumns): TokenOwnerRow {
  return {
    token_id: row.token_id,
    token_kind: row.token_kind,
    token_scope: row.token_scope,
    token_created_at: row.token_created_at,
    token_expires_at: row.token_expires_at,
    token_last_used_at: row.token_last_used_at,
    sso_required_by: row.sso_required_by,
    user_id: row.user_id,
    email: row.user_email,
    display_name: row.user_display_name,
    photo_url: row.user_photo_url,
    created_at: row.user_created_at,
  };
}

/** What the query read beside the token's owner. */
function besideOwner<Row extends OwnerColumns>(row: Row): Omit<Row, keyof OwnerColumns> {
  const { token_id, token_kind, token_scope, token_created_at, token_expires_at, token_last_used_at, sso_required_by, user_id, user_email, user_display_name, user_photo_url, user_created_at, ...rest } = row;
  return rest;
}

type Nullable<Row> = { [Column in keyof Row]: Row[Column] | null };

type OwnerWithOrganizationRow = OwnerColumns & Nullable<OrganizationWithAccessRow> & { access_version: number | null };

type OwnerWithOrganization = { owner: TokenOwnerRow; organization: OrganizationWithAccessRow | undefined; accessVersion: number };

/** The owner and the organization apart, once per remembered row (db/prepared.ts): copying the wide row anew for each request was 10 of its 73 µs. */
function ownerWithOrganizationOf(row: OwnerWithOrganizationRow): OwnerWithOrganization {
  const { access_version, ...organization } = besideOwner(row);
  return {
    owner: ownerOf(row),
    organization: organization.id === null ? undefined : (organization as OrganizationWithAccessRow),
    accessVersion: Number(access_version),
  };
}

const ownerWithOrganizationQuery = preparedQuery<'tokenHash' | 'organizationId', OwnerWithOrganizationRow, OwnerWithOrganization>(
  (db, param) =>
    db
      .selectFrom('api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('organizations as o', (join) => join.on('o.id', '=', param('organizationId')))
      .leftJoin('organization_members as m', (join) =>
        join.onRef('m.organization_id', '=', 'o.id').onRef('m.user_id', '=', 'u.id'),
      )
      .selectAll('o')
      .select(OWNER_COLUMNS)
      .select([ssoRequiredBy, 'm.role as member_role', isMember, ownsTeam(sql.ref('u.id'))])
      .where('t.token_hash', '=', param('tokenHash'))
      .where('t.revoked_at', 'is', null),
  { remember: true, made: ownerWithOrganizationOf },
);

/**
 * The token's owner and, in the same round trip, an organization with the owner's
 * access to it: requests under /orgs/{organizationId} need both.
 */
export async function findTokenOwnerWithOrganization(db: Db, tokenHash: string, organizationId: string): Promise<OwnerWithOrganization | undefined> {
  return (await ownerWithOrganizationQuery(db, { tokenHash, organizationId }))[0];
}

type OwnerWithSpaceRow = OwnerColumns &
  Nullable<SpaceWithCounters> &
  Nullable<Pick<OrganizationWithAccessRow, 'member_role' | 'is_member'>> & { revision_git_stamp: string | null; access_version: number | null };

interface OwnerWithSpaceRead {
  owner: TokenOwnerRow;
  space: (Omit<SpaceReadWithToken, 'standing'> & { membership: Pick<OrganizationWithAccessRow, 'member_role' | 'is_member'>; accessVersion: number }) | undefined;
}

type OwnerWithSpace = { owner: TokenOwnerRow; space: SpaceReadWithToken | undefined };

/**
 * Each row's answer. A row names its access version, and the standing of a version
 * never changes, so a row remembered on SQLite (the same object until the database
 * changes) is answered once.
 */
const answered = new WeakMap<OwnerWithSpaceRead, OwnerWithSpace>();

function ownerWithSpaceOf(row: OwnerWithSpaceRow): OwnerWithSpaceRead {
  const { member_role, is_member, revision_git_stamp, access_version, ...space } = besideOwner(row);
  return {
    owner: ownerOf(row),
    space:
      space.id === null
        ? undefined
        : {
            row: space as SpaceWithCounters,
            revisionGitStamp: revision_git_stamp,
            membership: { member_role, is_member },
            accessVersion: Number(access_version),
          },
  };
}

const ownerWithSpaceQuery = preparedQuery<'tokenHash' | 'spaceId', OwnerWithSpaceRow, OwnerWithSpaceRead>(
  (db, param) =>
    db
      .selectFrom('api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('spaces as s', (join) => join.on('s.id', '=', param('spaceId')))
      .leftJoin('space_git_syncs as g', 'g.space_id', 's.id')
      .leftJoin('organizations as o', 'o.id', 's.organization_id')
      .leftJoin('organization_members as m', (join) =>
        join.onRef('m.organization_id', '=', 'o.id').onRef('m.user_id', '=', 'u.id'),
      )
      .selectAll('s')
      .select(GIT_SYNC_COLUMNS)
      .select(OWNER_COLUMNS)
      .select([
        REVISION_GIT_STAMP,
        ssoRequiredBy,
        'm.role as member_role',
        isMember,
        'o.access_version',
      ])
      .where('t.token_hash', '=', param('tokenHash'))
      .where('t.revoked_at', 'is', null),
  { remember: true, made: ownerWithSpaceOf },
);

/**
 * The token's owner and, in the same round trip, a space with its counters and what
 * the owner's roles on it depend on (services/contentAccess.ts): requests under
 * /spaces/{spaceId} need both. A space read made six round trips to PostgreSQL before.
 * Beyond the owner's membership, the query reads the organization's access version;
 * the rows it stands for are read again only when it has moved (contentStanding.ts).
 */
export async function findTokenOwnerWithSpace(db: Db, tokenHash: string, spaceId: string): Promise<OwnerWithSpace | undefined> {
  const [found] = await ownerWithSpaceQuery(db, { tokenHash, spaceId });
  if (!found) return undefined;
  if (!found.space) return { owner: found.owner, space: undefined };
  const known = answered.get(found);
  if (known) return known;
  const { row, revisionGitStamp, membership, accessVersion } = found.space;
  const { owns_team, collections, grants } = await contentStandingAt(db, row.organization_id, found.owner.user_id, accessVersion);
  const answer = { owner: found.owner, space: { row, revisionGitStamp, standing: { organization: { ...membership, owns_team }, collections, grants } } };
  answered.set(found, answer);
  return answer;
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
