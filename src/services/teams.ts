// Teams: groups of members that content can be shared with.
import { BadRequest, NotFound } from '../errors.ts';
import { findMemberIds, findMembership, teamMembersQuery } from '../db/repos/members.ts';
import { addTeamMember, deleteTeam, deleteTeamMember, findTeam, insertTeam, teamsQuery, updateTeamTitle, upsertTeamMember } from '../db/repos/teams.ts';
import type { Db, TeamWithCountsRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { authorizeTeamAdmin, teamPermissions, type OrganizationAccess } from '../policies/organization.ts';
import { presentMembers } from './members.ts';
import { presentTeam } from '../presenters/team.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeInOrganization } from './organizations.ts';

export type TeamRole = 'owner' | 'member';

async function requireTeam(db: Db, organizationId: string, teamId: string, actor: Actor): Promise<TeamWithCountsRow> {
  const team = await findTeam(db, organizationId, teamId, actor.user.id);
  if (!team) throw new NotFound(`No team with id "${teamId}" in this organization`);
  return team;
}

function present(access: OrganizationAccess, team: TeamWithCountsRow) {
  return presentTeam(team, teamPermissions(access, team.caller_role));
}

/** Resolves user ids or e-mails to member ids; anyone not in the organization is a 400. */
async function resolveMembers(db: Db, organizationId: string, field: string, idsOrEmails: string[]): Promise<string[]> {
  const found = await findMemberIds(db, organizationId, idsOrEmails);
  const missing = idsOrEmails.filter((value) => !found.has(value) && !found.has(value.toLowerCase()));
  if (missing.length > 0) {
    throw new BadRequest(`${field}: not members of this organization: ${missing.map((m) => `"${m}"`).join(', ')}`);
  }
  return [...new Set(idsOrEmails.map((value) => (found.get(value) ?? found.get(value.toLowerCase()))!))];
}

export async function listTeams(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  options: PageRequest & { owner?: string; title?: string },
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listTeams');
  let ownedBy: string | undefined;
  if (options.owner !== undefined) {
    const owner = await findMembership(ctx.db, organizationId, options.owner);
    if (!owner) throw new BadRequest(`owner: no member with id "${options.owner}" in this organization`);
    // Administrators manage every team; anyone else, the teams they own.
    if (owner.role !== 'admin') ownedBy = owner.user_id;
  }
  return paginate(
    teamsQuery(ctx.db, organizationId, actor.user.id, { title: options.title, ownedBy }),
    [
      { column: 't.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 't.id', direction: 'desc', value: (row) => row.id },
    ],
    options,
    (row) => present(access, row),
  );
}

export async function createTeam(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: { title: string; members?: string[] },
) {
  const teamId = newId();
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await ctx.db.transaction().execute(async (trx) => {
    const memberIds = await resolveMembers(trx, organizationId, 'members', input.members ?? []);
    const now = isoNow(ctx.clock);
    await insertTeam(trx, { id: teamId, organization_id: organizationId, title: input.title, created_at: now });
    for (const userId of memberIds) {
      await addTeamMember(trx, { team_id: teamId, user_id: userId, role: 'member', added_at: now });
    }
  });
  return present(access, await requireTeam(ctx.db, organizationId, teamId, actor));
}

export async function getTeam(ctx: ServiceContext, actor: Actor, organizationId: string, teamId: string) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listTeams');
  return present(access, await requireTeam(ctx.db, organizationId, teamId, actor));
}

/** Loads a team the caller may manage. */
async function authorizeTeamChange(ctx: ServiceContext, actor: Actor, organizationId: string, teamId: string) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listTeams');
  const team = await requireTeam(ctx.db, organizationId, teamId, actor);
  authorizeTeamAdmin(access, team.caller_role);
  return { access, team };
}

export async function renameTeam(ctx: ServiceContext, actor: Actor, organizationId: string, teamId: string, title: string) {
  const { access } = await authorizeTeamChange(ctx, actor, organizationId, teamId);
  await updateTeamTitle(ctx.db, teamId, title);
  return present(access, await requireTeam(ctx.db, organizationId, teamId, actor));
}

export async function removeTeam(ctx: ServiceContext, actor: Actor, organizationId: string, teamId: string) {
  await authorizeTeamChange(ctx, actor, organizationId, teamId);
  await ctx.db.transaction().execute((trx) => deleteTeam(trx, teamId));
}

export async function listTeamMembers(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  teamId: string,
  page: PageRequest,
) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listTeams');
  await requireTeam(ctx.db, organizationId, teamId, actor);
  const listed = await paginate(
    teamMembersQuery(ctx.db, organizationId, teamId),
    [
      { column: 'tm.added_at', direction: 'desc', value: (row) => row.added_at },
      { column: 'tm.user_id', direction: 'desc', value: (row) => row.user_id },
    ],
    page,
    (row) => row,
  );
  const members = await presentMembers(ctx, organizationId, listed.items);
  return {
    ...listed,
    items: listed.items.map((row, index) => ({
      organization: members[index],
      team: { role: row.team_role },
      permissions: { view: true },
    })),
  };
}

export interface TeamMembershipChanges {
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

export async function updateTeamMembers(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  teamId: string,
  changes: TeamMembershipChanges,
) {
  await authorizeTeamChange(ctx, actor, organizationId, teamId);
  await ctx.db.transaction().execute(async (trx) => {
    const now = isoNow(ctx.clock);
    for (const userId of await resolveMembers(trx, organizationId, 'add', changes.add ?? [])) {
      await addTeamMember(trx, { team_id: teamId, user_id: userId, role: 'member', added_at: now });
    }
    const memberships = Object.entries(changes.memberships ?? {});
    const roleTargets = await resolveMembers(trx, organizationId, 'memberships', memberships.map(([id]) => id));
    for (const [index, [, membership]] of memberships.entries()) {
      await upsertTeamMember(trx, { team_id: teamId, user_id: roleTargets[index], role: membership.role, added_at: now });
    }
    for (const userId of await resolveMembers(trx, organizationId, 'remove', changes.remove ?? [])) {
      await deleteTeamMember(trx, teamId, userId);
    }
  });
}

export async function putTeamMember(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  teamId: string,
  userId: string,
  role: TeamRole = 'member',
) {
  await authorizeTeamChange(ctx, actor, organizationId, teamId);
  const [memberId] = await resolveMembers(ctx.db, organizationId, 'userId', [userId]);
  await upsertTeamMember(ctx.db, { team_id: teamId, user_id: memberId, role, added_at: isoNow(ctx.clock) });
}

/** Team managers remove anyone; every member may leave a team. */
export async function removeTeamMember(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  teamId: string,
  userId: string,
) {
  if (userId === actor.user.id) {
    await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
    await requireTeam(ctx.db, organizationId, teamId, actor);
  } else {
    await authorizeTeamChange(ctx, actor, organizationId, teamId);
  }
  await deleteTeamMember(ctx.db, teamId, userId);
}
