// Signing in to the app (issue 73): first-run setup, e-mail and password, one-time
// sign-in links, invites accepted by new people, and the SSO providers an address may
// use. Each way ends in openSession (services/sessions.ts); the route sets the cookie.
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized } from '../errors.ts';
import { findTokenOwner, revokeApiToken } from '../db/repos/apiTokens.ts';
import { deleteInvite } from '../db/repos/invites.ts';
import { insertMembership } from '../db/repos/members.ts';
import { lockOrganization } from '../db/repos/organizations.ts';
import { samlProvidersForEmailDomain } from '../db/repos/samlProviders.ts';
import {
  anyOrganization,
  ensureSettingRow,
  lockSettingRow,
  revokeOtherSessions,
  ssoRequiredOf,
  useSignInLink,
} from '../db/repos/sessions.ts';
import { findUserByEmail, findUserById, findUserWithPassword, insertUser, setPasswordHash } from '../db/repos/users.ts';
import { isoNow } from '../lib/clock.ts';
import { hashToken, newId } from '../lib/ids.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyNoPassword, verifyPassword } from '../lib/passwords.ts';
import { isRole } from '../lib/roles.ts';
import { presentOrganization } from '../presenters/organization.ts';
import { isSamlProviderActive, samlServiceUrls } from '../presenters/samlProvider.ts';
import type { ServiceContext } from './context.ts';
import { usableInvite } from './invites.ts';
import { oidcSignInChoices } from './oidcProviders.ts';
import { createOrganizationFor } from './organizations.ts';
import { createSignInLink, csrfTokenMatches, openSession, presentSession, type SessionClient } from './sessions.ts';
import { clearAccountFailures, failureKeys, recordFailure, refuseWhenLimited } from './signInLimits.ts';
import { findOrCreateUser } from './users.ts';

const WRONG = 'The email address or the password is not right';
/** The settings row whose lock lets one setup at a time look for organizations. */
const SETUP_LOCK = 'setup-lock';

export function requirePassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new BadRequest(`${field}: a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new BadRequest(`${field}: a password may have at most ${MAX_PASSWORD_LENGTH} characters`);
  }
}

/** What GET /auth/state answers: whether the server needs its first organization, and the cookie's session. */
export async function authState(ctx: ServiceContext, sessionSecret: string | undefined) {
  const setupRequired = !(await anyOrganization(ctx.db));
  return { setupRequired, session: sessionSecret ? await currentSession(ctx, sessionSecret) : null };
}

/** The session a cookie holds, when it is one that the API would admit. */
export async function currentSession(ctx: ServiceContext, secret: string) {
  const owner = await findTokenOwner(ctx.db, hashToken(secret));
  if (!owner || owner.token_kind !== 'session' || owner.sso_required_by) return null;
  if (owner.token_expires_at !== null && owner.token_expires_at <= isoNow(ctx.clock)) return null;
  const user = { id: owner.user_id, email: owner.email, display_name: owner.display_name, photo_url: owner.photo_url, created_at: owner.created_at };
  return presentSession(ctx, { id: owner.token_id, created_at: owner.token_created_at, expires_at: owner.token_expires_at }, user);
}

/** A single sign-on start's browser session (its cookie) and the session's CSRF token, given as `?link=`. */
export interface LinkingProof {
  secret?: string;
  proof?: string;
}

/**
 * Whom a single sign-on start links to the identity its provider answers: the session
 * of the browser that opened it, when the start carries that session's CSRF token
 * (`?link=`), as the app's own link does. A link elsewhere (another site, a published
 * page, a mail) cannot know the token, so it can never bind a signed-in person to an
 * identity whose provider someone else runs; such a start signs in and links nothing.
 */
export async function linkingSession(ctx: ServiceContext, { secret, proof }: LinkingProof) {
  if (!secret || !proof) return null;
  const session = await currentSession(ctx, secret);
  return session && csrfTokenMatches(ctx, session.id, proof) ? session : null;
}

/**
 * The first run: the first organization and its administrator, signed in. Refused once
 * any organization exists; two setups at once wait for each other on one row's lock,
 * so only one makes an organization.
 */
export async function setUp(
  ctx: ServiceContext,
  input: { organization: string; name: string; email: string; password: string },
  client: SessionClient,
) {
  requirePassword(input.password);
  if (await anyOrganization(ctx.db)) throw alreadySetUp();
  const passwordHash = await hashPassword(input.password);
  await ensureSettingRow(ctx.db, SETUP_LOCK);
  return ctx.db.transaction().execute(async (trx) => {
    await lockSettingRow(trx, SETUP_LOCK);
    if (await anyOrganization(trx)) throw alreadySetUp();
    const { user } = await findOrCreateUser(trx, ctx.clock, { email: input.email, displayName: input.name });
    await setPasswordHash(trx, user.id, passwordHash);
    const organization = await createOrganizationFor(trx, ctx.clock, user.id, { title: input.organization });
    const { secret, session } = await openSession(ctx, trx, user.id, client);
    return {
      secret,
      body: {
        session: presentSession(ctx, session, user),
        organization: presentOrganization(ctx.config.publicUrl, organization, { isMember: true, role: 'admin', ownsTeam: false }),
      },
    };
  });
}

function alreadySetUp() {
  return new Conflict('This server has an organization already: sign in, or ask one of its administrators for an invite');
}

/**
 * E-mail and password. An unknown address costs a password check too and gets the same
 * answer as a wrong password. Failures count toward the limits of the account and of the
 * address (services/signInLimits.ts).
 */
export async function signIn(ctx: ServiceContext, input: { email: string; password: string }, client: SessionClient) {
  const email = input.email.trim().toLowerCase();
  const keys = failureKeys(email, client.address ?? 'unknown');
  await refuseWhenLimited(ctx, keys);
  const user = await findUserWithPassword(ctx.db, { email });
  const right = user?.password_hash ? await verifyPassword(input.password, user.password_hash) : await verifyNoPassword(input.password);
  if (!user || !right) {
    await recordFailure(ctx, keys);
    throw new Unauthorized(WRONG);
  }
  const ssoOrganization = await ssoRequiredOf(ctx.db, user.id);
  if (ssoOrganization) {
    throw new Forbidden(`"${ssoOrganization}" requires single sign-on for you: sign in through its identity provider`);
  }
  return ctx.db.transaction().execute(async (trx) => {
    await clearAccountFailures(trx, keys);
    const { secret, session } = await openSession(ctx, trx, user.id, client);
    return { secret, body: { session: presentSession(ctx, session, user) } };
  });
}

/** Ends the cookie's session. Without a session there is nothing to end; with one, only the app (its CSRF token) may. */
export async function signOut(ctx: ServiceContext, sessionSecret: string | undefined, csrf: string | undefined): Promise<void> {
  if (!sessionSecret) return;
  const owner = await findTokenOwner(ctx.db, hashToken(sessionSecret));
  if (!owner || owner.token_kind !== 'session') return;
  if (!csrfTokenMatches(ctx, owner.token_id, csrf)) {
    throw new Forbidden('This request came with the session cookie but a missing or wrong CSRF token; reload the app');
  }
  await revokeApiToken(ctx.db, { tokenId: owner.token_id }, isoNow(ctx.clock));
}

/**
 * A one-time sign-in link (an hour, one use). With a password, the link resets it: the
 * person's other sessions end, as whoever asked for the reset may not be the only one
 * who knew the old password.
 */
export async function signInWithLink(ctx: ServiceContext, input: { token: string; password?: string }, client: SessionClient) {
  if (input.password !== undefined) requirePassword(input.password);
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  return ctx.db.transaction().execute(async (trx) => {
    const now = isoNow(ctx.clock);
    const userId = await useSignInLink(trx, hashToken(input.token), now);
    const user = userId && (await findUserById(trx, userId));
    if (!user) throw new BadRequest('This link has expired or was used already; ask for a new one');
    if (passwordHash) {
      await setPasswordHash(trx, user.id, passwordHash);
      await revokeOtherSessions(trx, user.id, undefined, now);
    }
    const { secret, session } = await openSession(ctx, trx, user.id, client);
    return { secret, body: { session: presentSession(ctx, session, user) } };
  });
}

/** What the invite page shows before anyone joins: 404 when the invite is unknown, revoked or expired. */
export async function previewInvite(ctx: ServiceContext, organizationId: string, inviteId: string) {
  const { organization, invite } = await usableInvite(ctx, ctx.db, organizationId, inviteId);
  return { organization: { id: organization.id, title: organization.title }, role: invite.role, expiresAt: invite.expires_at };
}

/**
 * A new person joins through an invite, with a name and a password, and is signed in.
 * An address that has an account signs in first and joins with the invite from there
 * (POST /v1/orgs/{organizationId}/invites/{inviteId}): no one joins as someone else.
 */
export async function acceptInvite(
  ctx: ServiceContext,
  organizationId: string,
  inviteId: string,
  input: { name: string; email: string; password: string },
  client: SessionClient,
) {
  requirePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim().toLowerCase();
  return ctx.db.transaction().execute(async (trx) => {
    const { invite } = await usableInvite(ctx, trx, organizationId, inviteId);
    if (invite.email !== null && invite.email.toLowerCase() !== email) {
      throw new Forbidden('This invite was sent to another e-mail address; open the invite sent to yours');
    }
    if (await findUserByEmail(trx, email)) {
      throw new Conflict('This e-mail address has an account already. Sign in first, then open the invite again');
    }
    await lockOrganization(trx, organizationId);
    const now = isoNow(ctx.clock);
    const user = await insertUser(trx, { id: newId(), email, display_name: input.name.trim(), photo_url: null, created_at: now });
    await setPasswordHash(trx, user.id, passwordHash);
    await insertMembership(trx, {
      organization_id: organizationId,
      user_id: user.id,
      role: isRole(invite.role) ? invite.role : null,
      sso: 0,
      disabled: 0,
      joined_at: now,
      last_seen_at: null,
    });
    // An e-mail invite is for one person, once.
    if (invite.email !== null) await deleteInvite(trx, invite.id);
    const { secret, session } = await openSession(ctx, trx, user.id, client);
    return { secret, body: { session: presentSession(ctx, session, user) } };
  });
}

/** The single sign-on an address may use: the SAML and OpenID providers of organizations that claim its domain. */
export async function ssoChoices(ctx: ServiceContext, email: string) {
  const domain = email.trim().toLowerCase().split('@')[1];
  if (!domain) throw new BadRequest('email: give a whole e-mail address, such as ada@example.com');
  const providers = (await samlProvidersForEmailDomain(ctx.db, domain)).filter(isSamlProviderActive);
  return {
    items: [
      ...providers.map((provider) => ({
        kind: 'saml' as const,
        label: provider.label,
        organization: { id: provider.organization_id, title: provider.organization_title },
        startUrl: samlServiceUrls(ctx.config.publicUrl, provider.id).startURL,
      })),
      ...(await oidcSignInChoices(ctx, ctx.db, domain)),
    ],
  };
}

/** `quire admin sign-in-link`: a one-time link for the person with this address, for recovery without e-mail. */
export async function signInLinkForEmail(ctx: ServiceContext, email: string) {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw new NotFound(`No one has the e-mail address "${email}"`);
  const link = await ctx.db.transaction().execute((trx) => createSignInLink(ctx, trx, user.id));
  return { user, url: link.url };
}
