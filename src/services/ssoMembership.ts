// What signing in through an organization's identity provider does to membership, the
// same for every kind of provider: the person becomes an SSO member, joining with the
// provider's default role and team when new to it.
import { findMembership, insertMembership, updateMembership } from '../db/repos/members.ts';
import { lockOrganization } from '../db/repos/organizations.ts';
import { addTeamMember, findTeam } from '../db/repos/teams.ts';
import type { Db, UserRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import type { Role } from '../lib/roles.ts';
import type { ServiceContext } from './context.ts';

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
