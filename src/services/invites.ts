// Link invites: administrators create them; anyone holding one may join with its role
// until it expires (14 days unless said otherwise) or is deleted.
import { BadRequest, Forbidden, NotFound } from '../errors.ts';
import { deleteInvite, findInvite, insertInvite, invitesQuery, updateInviteRole } from '../db/repos/invites.ts';
import { findMembership, insertMembership, updateMembership } from '../db/repos/members.ts';
import { findOrganizationById, lockOrganization } from '../db/repos/organizations.ts';
import type { Db, InviteRow, OrganizationRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { highestRole, isRole, roleAtLeast, type Role } from '../lib/roles.ts';
import type { OrganizationAccess } from '../policies/organization.ts';
import { presentInvite } from '../presenters/invite.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeInOrganization } from './organizations.ts';

/** How long an invite lasts unless its creator says otherwise (a link invite) or at all (an e-mail invite). */
export const INVITE_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

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
    (row) => presentInvite(ctx.config.publicUrl, row, isRedundant(access, row)),
  );
}

export async function createInvite(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: { role: Role | null; expiresAt?: string },
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const now = ctx.clock.now();
  const expiresAt = input.expiresAt === undefined ? new Date(now.getTime() + INVITE_LIFETIME_MS) : new Date(input.expiresAt);
  if (expiresAt.getTime() <= now.getTime()) throw new BadRequest('expiresAt: an invite must expire in the future');
  const role = input.role;
  const invite: InviteRow = {
    id: newId(),
    organization_id: organizationId,
    role,
    created_by: actor.user.id,
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    email: null,
  };
  await insertInvite(ctx.db, invite);
  return presentInvite(ctx.config.publicUrl, invite, isRedundant(access, invite));
}

export async function getInvite(ctx: ServiceContext, actor: Actor, organizationId: string, inviteId: string) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const invite = await requireInvite(ctx.db, organizationId, inviteId);
  return presentInvite(ctx.config.publicUrl, invite, isRedundant(access, invite));
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
  return presentInvite(ctx.config.publicUrl, updated, isRedundant(access, updated));
}

export async function removeInvite(ctx: ServiceContext, actor: Actor, organizationId: string, inviteId: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await requireInvite(ctx.db, organizationId, inviteId);
  await deleteInvite(ctx.db, inviteId);
}

/**
 * An invite that may be used now, and its organization. The invite id is the secret:
 * without a valid one the organization stays hidden, and an expired invite answers as
 * a deleted one. Turning invite links off stops link invites, not e-mailed ones.
 */
export async function usableInvite(
  ctx: ServiceContext,
  db: Db,
  organizationId: string,
  inviteId: string,
): Promise<{ organization: OrganizationRow; invite: InviteRow }> {
  const organization = await findOrganizationById(db, organizationId);
  const invite = organization && (await findInvite(db, organizationId, inviteId));
  if (!organization || !invite || (invite.expires_at !== null && invite.expires_at <= isoNow(ctx.clock))) {
    throw new NotFound('This invite does not exist, was revoked or has expired; ask an administrator of the organization for a new one');
  }
  if (invite.email === null && organization.invite_links !== 1) {
    throw new Forbidden('Invite links are turned off in this organization; ask an administrator to invite you');
  }
  return { organization, invite };
}

/**
 * Joins the organization through a link invite. A member already there keeps the
 * higher of their role and the invite's; a guest invite never demotes anyone.
 */
export async function joinWithInvite(ctx: ServiceContext, actor: Actor, organizationId: string, inviteId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const { invite } = await usableInvite(ctx, trx, organizationId, inviteId);
    if (invite.email !== null && invite.email.toLowerCase() !== actor.user.email.toLowerCase()) {
      throw new Forbidden('This invite was sent to another e-mail address; sign in as that address to use it');
    }
    await lockOrganization(trx, organizationId);
    // An e-mail invite is for one person, once.
    if (invite.email !== null) await deleteInvite(trx, invite.id);
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
