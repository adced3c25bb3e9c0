// Inviting people by e-mail address (GitBook's inviteUsersToOrganization): a person
// Quire knows becomes a member at once; anyone else gets an invite for their address
// alone, used once, which is e-mailed when Quire sends mail and is otherwise listed
// with the link invites for an administrator to pass on.
import { BadRequest } from '../errors.ts';
import { insertInvite } from '../db/repos/invites.ts';
import { findMembership, insertMembership, updateMembership } from '../db/repos/members.ts';
import { findOrganizationById, lockOrganization } from '../db/repos/organizations.ts';
import { findUserByEmail } from '../db/repos/users.ts';
import type { Db, InviteRow, OrganizationRow, UserRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { highestRole, isRole, type Role } from '../lib/roles.ts';
import type { Actor, ServiceContext } from './context.ts';
import { queueMail, sendsMail, startMail } from './mail.ts';
import { authorizeInOrganization } from './organizations.ts';

/** As long as a link invite lasts by default. */
const INVITE_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface EmailInvitesInput {
  emails: Array<string | { email: string; role: Role | null }>;
  role?: Role | null;
  sso?: boolean;
}

/** Each address once (the last mention wins), lower-cased, with the role it is invited with. */
function invitees(input: EmailInvitesInput): Map<string, Role | null> {
  const byEmail = new Map<string, Role | null>();
  input.emails.forEach((entry, index) => {
    const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
    if (!EMAIL.test(email)) throw new BadRequest(`emails[${index}]: "${email}" is not an e-mail address`);
    const role = typeof entry === 'string' ? (input.role === undefined ? 'read' : input.role) : entry.role;
    byEmail.set(email, role);
  });
  return byEmail;
}

/** A known person joins now; a member keeps the higher of their role and this one, as with link invites. */
async function addMember(ctx: ServiceContext, trx: Db, organizationId: string, user: UserRow, role: Role | null, sso: boolean) {
  const membership = await findMembership(trx, organizationId, user.id);
  if (!membership) {
    await insertMembership(trx, {
      organization_id: organizationId,
      user_id: user.id,
      role,
      sso: sso ? 1 : 0,
      disabled: 0,
      joined_at: isoNow(ctx.clock),
      last_seen_at: null,
    });
    return;
  }
  const higher = highestRole(isRole(membership.role) ? membership.role : null, role);
  const changes = { ...(higher !== membership.role ? { role: higher } : {}), ...(sso ? { sso: 1 as const } : {}) };
  if (Object.keys(changes).length > 0) await updateMembership(trx, organizationId, user.id, changes);
}

function inviteMail(ctx: ServiceContext, organization: OrganizationRow, inviter: UserRow, invite: InviteRow) {
  const url = `${ctx.config.publicUrl}/invite/${organization.id}/${invite.id}`;
  const role = invite.role === null ? 'a guest' : `with the role ${invite.role}`;
  return {
    to: invite.email!,
    subject: `${inviter.display_name} invited you to ${organization.title} on Quire`,
    text: [
      `${inviter.display_name} (${inviter.email}) invited you to join ${organization.title} on Quire, ${role}.`,
      '',
      `Open this link to join: ${url}`,
      '',
      `The link is for ${invite.email} alone, works once, and expires on ${invite.expires_at!.slice(0, 10)}.`,
      'If you did not expect this invite, you can ignore this e-mail.',
    ].join('\n'),
  };
}

export async function inviteByEmail(ctx: ServiceContext, actor: Actor, organizationId: string, input: EmailInvitesInput) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const people = invitees(input);
  const now = ctx.clock.now();
  const { users, mails } = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const organization = (await findOrganizationById(trx, organizationId))!;
    const added: string[] = [];
    const queued: string[] = [];
    for (const [email, role] of people) {
      const user = await findUserByEmail(trx, email);
      if (user) {
        await addMember(ctx, trx, organizationId, user, role, input.sso === true);
        added.push(user.id);
        continue;
      }
      const invite: InviteRow = {
        id: newId(),
        organization_id: organizationId,
        role,
        created_by: actor.user.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString(),
        email,
      };
      await insertInvite(trx, invite);
      if (sendsMail(ctx)) queued.push(await queueMail(ctx, trx, inviteMail(ctx, organization, actor.user, invite)));
    }
    return { users: added, mails: queued };
  });
  startMail(ctx, mails);
  return { users, invited: people.size };
}
