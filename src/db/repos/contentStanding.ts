// What a member's content roles depend on beyond their own membership row: the
// organization's collections, the member's grants, whether they own a team. Reads
// under /spaces/{spaceId} need it on every request; on PostgreSQL reading these rows
// with the token made that query take twice the round trip of a bare token read. They
// change rarely, and every change moves the organization's access version (triggers,
// migration 0021), which the token's query reads instead: the rows are read again
// only when the version has moved since this process last read them.
import { jsonRows, jsonRowsOf } from '../dialect.ts';
import { preparedQuery } from '../prepared.ts';
import { WeightBoundedCache } from '../../lib/weightBoundedCache.ts';
import type { ContentStandingRows, Db } from '../schema.ts';
import { ownsTeam } from './organizations.ts';

type StandingBeyondMembership = Omit<ContentStandingRows, 'organization'> & { owns_team: number };

interface StandingRow {
  access_version: number;
  owns_team: number;
  collections: unknown;
  grants: unknown;
}

const standingQuery = preparedQuery<'organizationId' | 'userId', StandingRow, StandingBeyondMembership & { version: number }>(
  (db, param) =>
    db
      .selectFrom('organizations as o')
      .select((eb) => [
        'o.access_version',
        ownsTeam(param('userId')),
        jsonRowsOf(
          db,
          eb.selectFrom('collections as c').select(['c.id', 'c.parent_id', 'c.default_level']).whereRef('c.organization_id', '=', 'o.id'),
        ).as('collections'),
        jsonRowsOf(
          db,
          eb
            .selectFrom('content_grants as cg')
            .select(['cg.target_kind', 'cg.target_id', 'cg.role'])
            .whereRef('cg.organization_id', '=', 'o.id')
            .where('cg.user_id', '=', param('userId')),
        ).as('grants'),
      ])
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
