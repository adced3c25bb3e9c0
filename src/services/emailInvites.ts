// Inviting people by e-mail address (GitBook's inviteUsersToOrganization): every address
// gets an invite for it alone, used once, which is e-mailed when Quire sends mail and is
// otherwise listed with the link invites for an administrator to pass on. Nobody joins
// at once, even a person Quire knows by that address: an account's address is not
// proven (anyone may accept a link invite of their own organization under another's
// address, or have their own SSO provider make the account), so only whoever opens the
// mailed link — signed in as that address's account, or new — joins.
import { BadRequest } from '../errors.ts';
import { insertInvite } from '../db/repos/invites.ts';
import { findOrganizationById, lockOrganization } from '../db/repos/organizations.ts';
import type { InviteRow, OrganizationRow, UserRow } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import type { Role } from '../lib/roles.ts';
import type { Actor, ServiceContext } from './context.ts';
import { queueMail, sendsMail, startMail } from './mail.ts';
import { INVITE_LIFETIME_MS } from './invites.ts';
import { authorizeInOrganization } from './organizations.ts';

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
  const mails = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const organization = (await findOrganizationById(trx, organizationId))!;
    const queued: string[] = [];
    for (const [email, role] of people) {
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
    return queued;
  });
  startMail(ctx, mails);
  // GitBook's `users` are those added at once: nobody is, now.
  return { users: [] as string[], invited: people.size };
}
