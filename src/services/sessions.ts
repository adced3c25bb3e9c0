// Browser sessions and one-time sign-in links: the seam every way of signing in uses
// (password, setup, invites, sign-in links, SAML, OpenID Connect). A session is an API
// token of kind 'session' (issue 73), so the auth plugin admits it by the same query as
// any token, and revoking or expiring it holds in every process at once.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { insertApiToken } from '../db/repos/apiTokens.ts';
import { insertSignInLink } from '../db/repos/sessions.ts';
import type { ApiTokenRow, Db, UserRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import { hashToken, newApiToken, newId } from '../lib/ids.ts';
import { presentUser } from '../presenters/user.ts';
import type { ServiceContext } from './context.ts';

export const SESSION_COOKIE = 'quire_session';
const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
const SIGN_IN_LINK_MS = 60 * 60 * 1000;
/** What a browser may say of itself is kept to what the sessions list shows. */
const USER_AGENT_LENGTH = 256;

export type SessionRow = ApiTokenRow & { kind: 'session' };

export interface SessionClient {
  userAgent?: string;
  address?: string;
}

/**
 * Opens a session for a person who has just proved who they are; the caller sets
 * `sessionCookie(ctx, secret)` on its answer. Runs in the caller's transaction.
 * `samlProviderId`: the SAML sign-in that opened it, which an organization enforcing
 * SSO requires (and whose removal ends the session).
 */
export async function openSession(
  ctx: ServiceContext,
  trx: Db,
  userId: string,
  client: SessionClient,
  via: { samlProviderId?: string } = {},
): Promise<{ secret: string; session: SessionRow }> {
  const secret = newApiToken();
  const now = ctx.clock.now();
  const session: SessionRow = {
    id: newId(),
    user_id: userId,
    token_hash: hashToken(secret),
    label: null,
    created_at: now.toISOString(),
    revoked_at: null,
    saml_provider_id: via.samlProviderId ?? null,
    kind: 'session',
    scope: 'write',
    expires_at: new Date(now.getTime() + SESSION_MS).toISOString(),
    last_used_at: now.toISOString(),
    user_agent: client.userAgent?.slice(0, USER_AGENT_LENGTH) || null,
    address: client.address || null,
  };
  await insertApiToken(trx, session);
  return { secret, session };
}

/** Whether the public URL is https, where the cookie must be Secure. */
function secureCookies(ctx: ServiceContext): boolean {
  return ctx.config.publicUrl.startsWith('https:');
}

/** The Set-Cookie value that carries a session: HttpOnly, so no script reads it; Lax, so no cross-site POST sends it. */
export function sessionCookie(ctx: ServiceContext, secret: string): string {
  const secure = secureCookies(ctx) ? '; Secure' : '';
  return `${SESSION_COOKIE}=${secret}; Path=/; Max-Age=${SESSION_MS / 1000}; HttpOnly; SameSite=Lax${secure}`;
}

/** The Set-Cookie value that makes the browser forget its session. */
export function clearedSessionCookie(ctx: ServiceContext): string {
  const secure = secureCookies(ctx) ? '; Secure' : '';
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The session's CSRF token: an HMAC of its id under the instance's key. The app reads it
 * from GET /auth/state and sends it as X-CSRF-Token; a cross-site page can do neither.
 */
export function csrfToken(ctx: ServiceContext, sessionId: string): string {
  return createHmac('sha256', ctx.linkKey).update(`csrf:${sessionId}`).digest('base64url');
}

export function csrfTokenMatches(ctx: ServiceContext, sessionId: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(csrfToken(ctx, sessionId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function presentSession(ctx: ServiceContext, session: Pick<SessionRow, 'id' | 'created_at' | 'expires_at'>, user: UserRow) {
  return {
    object: 'session' as const,
    id: session.id,
    user: presentUser(ctx.config.publicUrl, user),
    csrfToken: csrfToken(ctx, session.id),
    createdAt: session.created_at,
    expiresAt: session.expires_at,
  };
}

/**
 * A one-time sign-in link for a person (1 hour, one use): the admin command prints it,
 * password-reset e-mails carry it. Opening it in the app signs in (POST /auth/sign-in-link).
 */
export async function createSignInLink(ctx: ServiceContext, trx: Db, userId: string): Promise<{ url: string; token: string }> {
  const token = newApiToken();
  const now = ctx.clock.now();
  await insertSignInLink(trx, {
    id: newId(),
    token_hash: hashToken(token),
    user_id: userId,
    created_at: isoNow(ctx.clock),
    expires_at: new Date(now.getTime() + SIGN_IN_LINK_MS).toISOString(),
    used_at: null,
  });
  return { url: `${ctx.config.publicUrl}/sign-in/link/${token}`, token };
}
