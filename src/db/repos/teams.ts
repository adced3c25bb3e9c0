// Teams of an organization and their members.
import { sql } from 'kysely';
import type { Db, TeamWithCountsRow, TeamMemberRow, TeamRow } from '../schema.ts';
import { containsInsensitive } from '../dialect.ts';

function teamsWithCounts(db: Db, organizationId: string, callerId: string) {
  return db
    .selectFrom('teams as t')
    .selectAll('t')
    .select([
      sql<number>`cast((select count(*) from team_members tm where tm.team_id = t.id) as integer)`.as('member_count'),
      sql<string | null>`(select tm.role from team_members tm where tm.team_id = t.id and tm.user_id = ${callerId})`.as(
        'caller_role',
      ),
    ])
    .where('t.organization_id', '=', organizationId);
}

export function findTeam(
  db: Db,
  organizationId: string,
  teamId: string,
  callerId: string,
): Promise<TeamWithCountsRow | undefined> {
  return teamsWithCounts(db, organizationId, callerId).where('t.id', '=', teamId).executeTakeFirst();
}

export interface TeamFilters {
  title?: string;
  /** Only teams this user owns. */
  ownedBy?: string;
}

export function teamsQuery(db: Db, organizationId: string, callerId: string, filters: TeamFilters) {
  let query = teamsWithCounts(db, organizationId, callerId);
  if (filters.title) {
    const title = filters.title;
    query = query.where((eb) => containsInsensitive(eb.ref('t.title'), title));
  }
  if (filters.ownedBy) {
    const owner = filters.ownedBy;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members as owner')
          .select('owner.team_id')
          .whereRef('owner.team_id', '=', 't.id')
          .where('owner.user_id', '=', owner)
          .where('owner.role', '=', 'owner'),
      ),
    );
  }
  return query;
}

/** The teams a user belongs to, with their place in each. */
export function teamsOfMemberQuery(db: Db, organizationId: string, callerId: string, userId: string, title?: string) {
  return teamsQuery(db, organizationId, callerId, { title })
    .innerJoin('team_members as mine', (join) => join.onRef('mine.team_id', '=', 't.id').on('mine.user_id', '=', userId))
    .select('mine.role as member_role');
}

export async function insertTeam(db: Db, team: TeamRow): Promise<void> {
  await db.insertInto('teams').values(team).execute();
}

export async function updateTeamTitle(db: Db, teamId: string, title: string): Promise<void> {
  await db.updateTable('teams').set({ title }).where('id', '=', teamId).execute();
}

export async function deleteTeam(db: Db, teamId: string): Promise<void> {
  await db.deleteFrom('team_members').where('team_id', '=', teamId).execute();
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

export function findTeamMember(db: Db, teamId: string, userId: string): Promise<TeamMemberRow | undefined> {
  return db
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds the user to the team, or changes their role there. */
export async function upsertTeamMember(db: Db, member: TeamMemberRow): Promise<void> {
  await db
    .insertInto('team_members')
    .values(member)
    .onConflict((conflict) => conflict.columns(['team_id', 'user_id']).doUpdateSet({ role: member.role }))
    .execute();
}

export async function deleteTeamMember(db: Db, teamId: string, userId: string): Promise<void> {
  await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();
}

/** Adds the user to the team; someone already in it keeps their role. */
export async function addTeamMember(db: Db, member: TeamMemberRow): Promise<void> {
  await db
    .insertInto('team_members')
    .values(member)
    .onConflict((conflict) => conflict.columns(['team_id', 'user_id']).doNothing())
    .execute();
}
