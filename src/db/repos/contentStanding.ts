// What a member's content roles depend on beyond their own membership row: the
// organization's collections, the member's grants, whether they own a team. Reads
// under /spaces/{spaceId} need it on every request; on PostgreSQL reading these rows
// with the token made that query take twice the round trip of a bare token read. They
// change rarely, and every change moves the organization's access version (triggers,
// migration 0021), which the token's query reads instead: the rows are read again
// only when the version has moved since this process last read them.
import type { ExpressionBuilder, Kysely } from 'kysely';
import { jsonRows, jsonRowsOf } from '../dialect.ts';
import { preparedQuery } from '../prepared.ts';
import { WeightBoundedCache } from '../../lib/weightBoundedCache.ts';
import type { ContentStandingRows, Database, Db, OrganizationWithAccessRow, SpaceReadWithToken, SpaceWithCounters } from '../schema.ts';
import { REVISION_GIT_STAMP } from './gitSync.ts';
import { isMember, ownsTeam } from './organizations.ts';
import { GIT_SYNC_COLUMNS } from './spaces.ts';

type StandingBeyondMembership = Omit<ContentStandingRows, 'organization'> & { owns_team: number };

interface StandingRow {
  access_version: number;
  owns_team: number;
  collections: unknown;
  grants: unknown;
}

/** The collections of `organizations as o` and the user's grants in it, each as one JSON value. */
function collectionsAndGrants(db: Kysely<Database>, eb: ExpressionBuilder<Database & { o: Database['organizations'] }, 'o'>, userId: string) {
  return [
    jsonRowsOf(db, eb.selectFrom('collections as c').select(['c.id', 'c.parent_id', 'c.default_level']).whereRef('c.organization_id', '=', 'o.id')).as(
      'collections',
    ),
    jsonRowsOf(
      db,
      eb
        .selectFrom('content_grants as cg')
        .select(['cg.target_kind', 'cg.target_id', 'cg.role'])
        .whereRef('cg.organization_id', '=', 'o.id')
        .where('cg.user_id', '=', userId),
    ).as('grants'),
  ];
}

const standingQuery = preparedQuery<'organizationId' | 'userId', StandingRow, StandingBeyondMembership & { version: number }>(
  (db, param) =>
    db
      .selectFrom('organizations as o')
      .select((eb) => ['o.access_version', ownsTeam(param('userId')), ...collectionsAndGrants(db, eb, param('userId'))])
      .where('o.id', '=', param('organizationId')),
  {
    made: (row) => ({
      version: Number(row.access_version),
      owns_team: Number(row.owns_team),
      collections: jsonRows(row.collections),
      grants: jsonRows(row.grants),
    }),
  },
);

/** Standings read, by organization, member and access version; an entry weighs its rows. */
const standings = new WeightBoundedCache<StandingBeyondMembership>(100_000, (standing) => 1 + standing.collections.length + standing.grants.length);

const NO_STANDING: StandingBeyondMembership = { owns_team: 0, collections: [], grants: [] };

const keyOf = (organizationId: string, userId: string, version: number) => `${organizationId} ${userId} ${version}`;

/**
 * The member's standing in the organization as of `accessVersion` (read with the
 * request's token): as this process kept it for that version, without waiting for
 * anything, or else read as it is now and kept under the version it was read with.
 * Shared between requests: nothing may change it.
 */
export function contentStandingAt(
  db: Db,
  organizationId: string,
  userId: string,
  accessVersion: number,
): StandingBeyondMembership | Promise<StandingBeyondMembership> {
  return standings.get(keyOf(organizationId, userId, accessVersion)) ?? readContentStanding(db, organizationId, userId);
}

async function readContentStanding(db: Db, organizationId: string, userId: string): Promise<StandingBeyondMembership> {
  const [read] = await standingQuery(db, { organizationId, userId });
  if (!read) return NO_STANDING;
  const { version, ...standing } = read;
  standings.keep(keyOf(organizationId, userId, version), standing);
  return standing;
}

type SpaceWithStandingRow = SpaceWithCounters &
  Pick<OrganizationWithAccessRow, 'member_role' | 'is_member'> & { revision_git_stamp: string | null } & Omit<StandingRow, 'access_version'>;

const spaceWithStandingQuery = preparedQuery<'spaceId' | 'userId', SpaceWithStandingRow, Required<SpaceReadWithToken>>(
  (db, param) =>
    db
      .selectFrom('spaces as s')
      .leftJoin('space_git_syncs as g', 'g.space_id', 's.id')
      .innerJoin('organizations as o', 'o.id', 's.organization_id')
      .leftJoin('organization_members as m', (join) => join.onRef('m.organization_id', '=', 'o.id').on('m.user_id', '=', param('userId')))
      .selectAll('s')
      .select(GIT_SYNC_COLUMNS)
      .select((eb) => [REVISION_GIT_STAMP, 'm.role as member_role', isMember, ownsTeam(param('userId')), ...collectionsAndGrants(db, eb, param('userId'))])
      .where('s.id', '=', param('spaceId')),
  {
    remember: true,
    made: ({ member_role, is_member, owns_team, collections, grants, revision_git_stamp, ...space }) => ({
      row: space,
      revisionGitStamp: revision_git_stamp,
      standing: {
        organization: { member_role, is_member, owns_team: Number(owns_team) },
        collections: jsonRows(collections),
        grants: jsonRows(grants),
      },
    }),
  },
);

/**
 * A space with its counters and, as they are now, what the user's roles on it depend
 * on: one query where reading them apart took four (on PostgreSQL, four connections at
 * once), for an operation that was not given them with its token (a write, inside its
 * transaction and again to present what it changed).
 */
export async function findSpaceWithStanding(db: Db, spaceId: string, userId: string): Promise<Required<SpaceReadWithToken> | undefined> {
  return (await spaceWithStandingQuery(db, { spaceId, userId }))[0];
}
