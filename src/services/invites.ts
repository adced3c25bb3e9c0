// Link invites: administrators create them; anyone holding one may join with its role.
import { Forbidden, NotFound } from '../errors.ts';
import { deleteInvite, findInvite, insertInvite, invitesQuery, updateInviteRole } from '../db/repos/invites.ts';
import { findMembership, insertMembership, updateMembership } from '../db/repos/members.ts';
import { findOrganizationById, lockOrganization } from '../db/repos/organizations.ts';
import type { Db, InviteRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { highestRole, isRole, roleAtLeast, type Role } from '../lib/roles.ts';
import type { OrganizationAccess } from '../policies/organization.ts';
import { presentInvite } from '../presenters/invite.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeInOrganization } from './organizations.ts';

/** An invite is redundant when the caller already has everything it would grant. */
function isRedundant(access: OrganizationAccess, invite: InviteRow): boolean {
  if (!access.isMember) return false;
  return invite.role === null || roleAtLeast(access.role, invite.role as Role);
}

async function requireInvite(db: Db, organizationId: string, inviteId: string): Promise<InviteRow> {
  const invite = await findInvite(db, organizationId, inviteId);
  if (!invite) throw new NotFound(`No invite with id "${inviteId}" in this organization`);
  return invite;
}

export async function listInvites(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  return paginate(
    invitesQuery(ctx.db, organizationId),
    [
      { column: 'i.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'i.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentInvite(row, isRedundant(access, row)),
  );
}

export async function createInvite(ctx: ServiceContext, actor: Actor, organizationId: string, role: Role | null) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const invite: InviteRow = {
    id: newId(),
    organization_id: organizationId,
    role,
    created_by: actor.user.id,
    created_at: isoNow(ctx.clock),
    expires_at: null,
    email: null,
  };
  await insertInvite(ctx.db, invite);
  return presentInvite(invite, isRedundant(access, invite));
}

export async function getInvite(ctx: ServiceContext, actor: Actor, organizationId: string, inviteId: string) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const invite = await requireInvite(ctx.db, organizationId, inviteId);
  return presentInvite(invite, isRedundant(access, invite));
}

export async function changeInviteRole(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  inviteId: string,
  role: Role | null,
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const invite = await requireInvite(ctx.db, organizationId, inviteId);
  await updateInviteRole(ctx.db, inviteId, role);
  const updated = { ...invite, role };
  return presentInvite(updated, isRedundant(access, updated));
}

export async function removeInvite(ctx: ServiceContext, actor: Actor, organizationId: string, inviteId: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await requireInvite(ctx.db, organizationId, inviteId);
  await deleteInvite(ctx.db, inviteId);
}

/**
 * Joins the organization through a link invite. A member already there keeps the
 * higher of their role and the invite's; a guest invite never demotes anyone.
 */
export async function joinWithInvite(ctx: ServiceContext, actor: Actor, organizationId: string, inviteId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const organization = await findOrganizationById(trx, organizationId);
    const invite = organization && (await findInvite(trx, organizationId, inviteId));
    // The invite id is the secret: without a valid one, the organization stays hidden.
    if (!organization || !invite) throw new NotFound(`No invite with id "${inviteId}" for this organization`);
    if (organization.invite_links !== 1) {
      throw new Forbidden('Invite links are turned off in this organization; ask an administrator to invite you');
    }
    await lockOrganization(trx, organizationId);
    const inviteRole = isRole(invite.role) ? invite.role : null;
    const membership = await findMembership(trx, organizationId, actor.user.id);
    if (!membership) {
      await insertMembership(trx, {
        organization_id: organizationId,
        user_id: actor.user.id,
        role: inviteRole,
        sso: 0,
        disabled: 0,
        joined_at: isoNow(ctx.clock),
        last_seen_at: null,
      });
    } else {
      const role = highestRole(isRole(membership.role) ? membership.role : null, inviteRole);
      if (role !== membership.role) await updateMembership(trx, organizationId, actor.user.id, { role });
    }
  });
  return {};
}
