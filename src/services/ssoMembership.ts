// What signing in through an organization's identity provider does to membership, the
// same for every kind of provider: the person becomes an SSO member, joining with the
// provider's default role and team when new to it; and that default team as providers
// of every kind take it and present it.
import { findMembership, insertMembership, updateMembership } from '../db/repos/members.ts';
import { lockOrganization } from '../db/repos/organizations.ts';
import { BadRequest } from '../errors.ts';
import { addTeamMember, findTeam } from '../db/repos/teams.ts';
import type { Db, UserRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import type { Role } from '../lib/roles.ts';
import { teamPermissions, type OrganizationAccess } from '../policies/organization.ts';
import type { Actor, ServiceContext } from './context.ts';

export interface SsoProviderDefaults {
  organization_id: string;
  default_role: Role | null;
  default_team_id: string | null;
}

/** Runs in the sign-in's transaction, for the person the provider signed in. */
export async function joinThroughSso(ctx: ServiceContext, trx: Db, provider: SsoProviderDefaults, user: UserRow): Promise<void> {
  const organizationId = provider.organization_id;
  await lockOrganization(trx, organizationId);
  const membership = await findMembership(trx, organizationId, user.id);
  if (membership) {
    await updateMembership(trx, organizationId, user.id, { sso: 1 });
  } else {
    await insertMembership(trx, {
      organization_id: organizationId,
      user_id: user.id,
      role: provider.default_role,
      sso: 1,
      disabled: 0,
      joined_at: isoNow(ctx.clock),
      last_seen_at: null,
    });
  }
  // A default team removed since the provider named it is skipped, not an error.
  if (provider.default_team_id && (await findTeam(trx, organizationId, provider.default_team_id, user.id))) {
    await addTeamMember(trx, { team_id: provider.default_team_id, user_id: user.id, role: 'member', added_at: isoNow(ctx.clock) });
  }
}

/** A provider's `defaultTeam` as given: a team of the organization, or a 400 naming the field. */
export async function validDefaultTeam(db: Db, organizationId: string, teamId: string, callerId: string) {
  const team = await findTeam(db, organizationId, teamId, callerId);
  if (!team) throw new BadRequest(`defaultTeam: no team with id "${teamId}" in this organization`);
  return team;
}

/** Each provider's default team as the caller sees it, in the providers' order; each team read once however many providers name it. */
export async function defaultTeamsOf(ctx: ServiceContext, access: OrganizationAccess, actor: Actor, providers: SsoProviderDefaults[]) {
  const teamIds = [...new Set(providers.map((provider) => provider.default_team_id).filter((id) => id !== null))];
  const teams = new Map<string, Awaited<ReturnType<typeof findTeam>>>(
    await Promise.all(teamIds.map(async (teamId) => [teamId, await findTeam(ctx.db, providers[0].organization_id, teamId, actor.user.id)] as const)),
  );
  return providers.map((provider) => {
    const team = provider.default_team_id ? teams.get(provider.default_team_id) : undefined;
    return team ? { team, permissions: teamPermissions(access, team.caller_role) } : undefined;
  });
}
