// Organization memberships: who belongs to which organization, with which role.
import { sql } from 'kysely';
import type { Role } from '../../lib/roles.ts';
import type { Db, MemberRow, MembershipRow } from '../schema.ts';
import { containsInsensitive, toCount } from '../dialect.ts';

function membersWithUsers(db: Db, organizationId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .select([
      'u.email',
      'u.display_name',
      'u.photo_url',
      sql<number>`cast((select count(*) from team_members tm inner join teams t on t.id = tm.team_id
        where t.organization_id = m.organization_id and tm.user_id = m.user_id) as integer)`.as('team_count'),
    ])
    .where('m.organization_id', '=', organizationId);
}

export function findMember(db: Db, organizationId: string, userId: string): Promise<MemberRow | undefined> {
  return membersWithUsers(db, organizationId).where('m.user_id', '=', userId).executeTakeFirst();
}

export function findMembership(db: Db, organizationId: string, userId: string): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface MemberFilters {
  /** A role, or "guest" for members without one. */
  role?: Role | 'guest';
  search?: string;
  /** Only members seen at least once. */
  seenOnly?: boolean;
}

export function membersQuery(db: Db, organizationId: string, filters: MemberFilters) {
  let query = membersWithUsers(db, organizationId);
  if (filters.role === 'guest') query = query.where('m.role', 'is', null);
  else if (filters.role) query = query.where('m.role', '=', filters.role);
  if (filters.search) {
    const search = filters.search;
    query = query.where((eb) =>
      eb.or([containsInsensitive(eb.ref('u.display_name'), search), containsInsensitive(eb.ref('u.email'), search)]),
    );
  }
  if (filters.seenOnly) query = query.where('m.last_seen_at', 'is not', null);
  return query;
}

export async function insertMembership(db: Db, membership: MembershipRow): Promise<void> {
  await db.insertInto('organization_members').values(membership).execute();
}

export async function updateMembership(
  db: Db,
  organizationId: string,
  userId: string,
  changes: Partial<Pick<MembershipRow, 'role' | 'sso' | 'disabled' | 'last_seen_at'>>,
): Promise<void> {
  await db
    .updateTable('organization_members')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes the membership, the user's places in the organization's teams and their grants there. */
export async function deleteMembership(db: Db, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('content_grants').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  await db
    .deleteFrom('team_members')
    .where('user_id', '=', userId)
    .where('team_id', 'in', db.selectFrom('teams').select('id').where('organization_id', '=', organizationId))
    .execute();
  await db
    .deleteFrom('organization_members')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countAdmins(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('organization_members')
    .select(sql<number | string>`count(*)`.as('count'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .executeTakeFirst();
  return toCount(row?.count);
}

/** The organization's longest-standing active administrator: who acts for a command run on the server. */
export async function firstAdminId(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organization_members')
    .select('user_id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .orderBy('joined_at')
    .orderBy('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** The members of one team, with their team role. */
export function teamMembersQuery(db: Db, organizationId: string, teamId: string) {
  return membersWithUsers(db, organizationId)
    .innerJoin('team_members as tm', (join) => join.onRef('tm.user_id', '=', 'm.user_id').on('tm.team_id', '=', teamId))
    .select(['tm.role as team_role', 'tm.added_at']);
}

/** Resolves user ids or e-mail addresses to the users among them who are members. */
export async function findMemberIds(db: Db, organizationId: string, idsOrEmails: string[]): Promise<Map<string, string>> {
  if (idsOrEmails.length === 0) return new Map();
  const lowered = idsOrEmails.map((value) => value.toLowerCase());
  const rows = await db
    .selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email'])
    .where('m.organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('u.id', 'in', idsOrEmails), eb('u.email', 'in', lowered)]))
    .execute();
  const found = new Map<string, string>();
  for (const row of rows) {
    found.set(row.id, row.id);
    found.set(row.email, row.id);
  }
  return found;
}

export async function sharesOrganization(db: Db, userId: string, otherUserId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organization_members as theirs')
    .innerJoin('organization_members as mine', 'mine.organization_id', 'theirs.organization_id')
    .select('theirs.user_id')
    .where('theirs.user_id', '=', otherUserId)
    .where('mine.user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
