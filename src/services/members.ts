// Members of an organization: listing, roles, removal, presence.
import { Conflict, NotFound } from '../errors.ts';
import { countAdmins, deleteMembership, findMember, membersQuery, updateMembership, type MemberFilters } from '../db/repos/members.ts';
import { lockOrganization } from '../db/repos/organizations.ts';
import { teamsOfMemberQuery } from '../db/repos/teams.ts';
import type { Db, MemberRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { spaceRole } from '../policies/content.ts';
import { presentSpace } from '../presenters/content.ts';
import { loadContentCaller, spaceFacts, visibleContent } from './contentAccess.ts';
import { isoNow } from '../lib/clock.ts';
import type { Role } from '../lib/roles.ts';
import { teamPermissions } from '../policies/organization.ts';
import { presentMember } from '../presenters/member.ts';
import { countSpaces, spacesQuery } from '../db/repos/spaces.ts';
import { presentTeam } from '../presenters/team.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeInOrganization } from './organizations.ts';

/**
 * How many spaces each member reaches: every live space for full members; for guests,
 * what their grants open (the same rule the space lists apply).
 */
export async function memberSpaceCounts(db: Db, organizationId: string, members: MemberRow[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const everything = members.some((member) => member.role !== null) ? await countSpaces(db, organizationId) : 0;
  for (const member of members) {
    if (member.role !== null) counts.set(member.user_id, everything);
    else {
      const caller = await loadContentCaller(db, organizationId, member.user_id);
      counts.set(member.user_id, await countSpaces(db, organizationId, { visibleTo: visibleContent(caller) }));
    }
  }
  return counts;
}

/** Presents members with their space counts. */
export async function presentMembers(ctx: ServiceContext, organizationId: string, members: MemberRow[]) {
  const counts = await memberSpaceCounts(ctx.db, organizationId, members);
  return members.map((member) => presentMember(ctx.config.publicUrl, member, counts.get(member.user_id) ?? 0));
}

async function presentOne(ctx: ServiceContext, organizationId: string, userId: string) {
  const [member] = await presentMembers(ctx, organizationId, [await requireMember(ctx.db, organizationId, userId)]);
  return member;
}

async function requireMember(db: Db, organizationId: string, userId: string): Promise<MemberRow> {
  const member = await findMember(db, organizationId, userId);
  if (!member) throw new NotFound(`No member with user id "${userId}" in this organization`);
  return member;
}

export interface MemberListOptions extends PageRequest {
  order?: 'asc' | 'desc';
  role?: Role | 'guest';
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt';
}

export async function listMembers(ctx: ServiceContext, actor: Actor, organizationId: string, options: MemberListOptions) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listMembers');
  const filters: MemberFilters = { role: options.role, search: options.search, seenOnly: options.sort === 'lastSeenAt' };
  const direction = options.order ?? 'desc';
  const sortKey =
    options.sort === 'lastSeenAt'
      ? { column: 'm.last_seen_at', direction, value: (row: MemberRow) => row.last_seen_at! }
      : { column: 'm.joined_at', direction, value: (row: MemberRow) => row.joined_at };
  const page = await paginate(
    membersQuery(ctx.db, organizationId, filters),
    [sortKey, { column: 'm.user_id', direction, value: (row) => row.user_id }],
    options,
    (row) => row,
  );
  return { ...page, items: await presentMembers(ctx, organizationId, page.items) };
}

export async function getMember(ctx: ServiceContext, actor: Actor, organizationId: string, userId: string) {
  if (userId !== actor.user.id) await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listMembers');
  else await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  return presentOne(ctx, organizationId, userId);
}

/** Refuses a change that would leave the organization without an administrator. */
async function assertAdminRemains(db: Db, organizationId: string, member: MemberRow, action: string): Promise<void> {
  if (member.role === 'admin' && (await countAdmins(db, organizationId)) <= 1) {
    throw new Conflict(`Cannot ${action} the last administrator of the organization: make another member admin first`);
  }
}

export async function changeMemberRole(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  userId: string,
  role: Role | null,
) {
  await ctx.db.transaction().execute(async (trx) => {
    await authorizeInOrganization(ctx, trx, actor, organizationId, 'admin');
    await lockOrganization(trx, organizationId);
    const member = await requireMember(trx, organizationId, userId);
    if (role !== 'admin') await assertAdminRemains(trx, organizationId, member, 'demote');
    await updateMembership(trx, organizationId, userId, { role });
  });
  return presentOne(ctx, organizationId, userId);
}

/** Administrators remove anyone; every member may leave. */
export async function removeMember(ctx: ServiceContext, actor: Actor, organizationId: string, userId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await authorizeInOrganization(ctx, trx, actor, organizationId, userId === actor.user.id ? 'view' : 'admin');
    await lockOrganization(trx, organizationId);
    const member = await requireMember(trx, organizationId, userId);
    await assertAdminRemains(trx, organizationId, member, 'remove');
    await deleteMembership(trx, organizationId, userId);
  });
}

export async function pingOrganization(ctx: ServiceContext, actor: Actor, organizationId: string) {
  const { organization, access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  await updateMembership(ctx.db, organizationId, actor.user.id, { last_seen_at: isoNow(ctx.clock) });
  // The claims a visitor-authenticated site would receive about this member, as JSON.
  const claims = { organization: organization.id, user: actor.user.id, role: access.role };
  return { serviceVisitorClaims: JSON.stringify(claims) };
}

export async function markMemberSso(ctx: ServiceContext, actor: Actor, organizationId: string, userId: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await requireMember(ctx.db, organizationId, userId);
  await updateMembership(ctx.db, organizationId, userId, { sso: 1 });
  return presentOne(ctx, organizationId, userId);
}

export async function listTeamsOfMember(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  userId: string,
  options: PageRequest & { title?: string },
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'listTeams');
  await requireMember(ctx.db, organizationId, userId);
  return paginate(
    teamsOfMemberQuery(ctx.db, organizationId, actor.user.id, userId, options.title),
    [
      { column: 't.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 't.id', direction: 'desc', value: (row) => row.id },
    ],
    options,
    (row) => ({
      team: presentTeam(row, teamPermissions(access, row.caller_role)),
      member: { role: row.member_role },
    }),
  );
}

/** The spaces a member reaches, each with the member's role on it. */
export async function listSpacesOfMember(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  userId: string,
  options: PageRequest & { order?: 'asc' | 'desc' },
) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, userId === actor.user.id ? 'view' : 'listMembers');
  await requireMember(ctx.db, organizationId, userId);
  const member = await loadContentCaller(ctx.db, organizationId, userId);
  const direction = options.order ?? 'desc';
  return paginate(
    spacesQuery(ctx.db, organizationId, { visibleTo: visibleContent(member) }),
    [
      { column: 's.created_at', direction, value: (row) => row.created_at },
      { column: 's.id', direction, value: (row) => row.id },
    ],
    options,
    (row) => {
      const permission = spaceRole(member, spaceFacts(row))!;
      return { permission, space: presentSpace(ctx.config.publicUrl, row, permission) };
    },
  );
}
