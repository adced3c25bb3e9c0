// A person's own account: their sessions, their personal API tokens and their password.
// Each lists and changes only the caller's own.
import { Forbidden, NotFound } from '../errors.ts';
import { insertApiToken } from '../db/repos/apiTokens.ts';
import { listOwnTokens, revokeOtherSessions, revokeOwnToken } from '../db/repos/sessions.ts';
import { findUserWithPassword, setPasswordHash } from '../db/repos/users.ts';
import type { ApiTokenRow } from '../db/schema.ts';
import { isoNow } from '../lib/clock.ts';
import { hashToken, newApiToken, newId } from '../lib/ids.ts';
import { hashPassword, verifyPassword } from '../lib/passwords.ts';
import type { Actor, ServiceContext } from './context.ts';
import { requirePassword } from './signIn.ts';
import { clearAccountFailures, failureKeys, recordFailure, refuseWhenLimited } from './signInLimits.ts';

export async function listSessions(ctx: ServiceContext, actor: Actor) {
  const rows = await listOwnTokens(ctx.db, actor.user.id, 'session', isoNow(ctx.clock));
  return {
    items: rows.map((row) => ({
      object: 'session' as const,
      id: row.id,
      current: row.id === actor.tokenId,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: row.expires_at,
      userAgent: row.user_agent,
      address: row.address,
    })),
  };
}

export async function revokeSession(ctx: ServiceContext, actor: Actor, sessionId: string): Promise<void> {
  if (!(await revokeOwnToken(ctx.db, actor.user.id, 'session', sessionId, isoNow(ctx.clock)))) {
    throw new NotFound(`You have no session with id "${sessionId}"`);
  }
}

function presentToken(row: ApiTokenRow) {
  return {
    object: 'api-token' as const,
    id: row.id,
    label: row.label,
    scope: row.scope,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function listTokens(ctx: ServiceContext, actor: Actor) {
  const rows = await listOwnTokens(ctx.db, actor.user.id, 'api', isoNow(ctx.clock));
  return { items: rows.map(presentToken) };
}

/** A personal API token; its secret is in this answer only. */
export async function createToken(ctx: ServiceContext, actor: Actor, input: { label: string; scope: ApiTokenRow['scope'] }) {
  const token = newApiToken();
  const row: ApiTokenRow = {
    id: newId(),
    user_id: actor.user.id,
    token_hash: hashToken(token),
    label: input.label,
    created_at: isoNow(ctx.clock),
    revoked_at: null,
    saml_provider_id: null,
    kind: 'api',
    scope: input.scope,
    expires_at: null,
    last_used_at: null,
    user_agent: null,
    address: null,
  };
  await insertApiToken(ctx.db, row);
  return { ...presentToken(row), token };
}

export async function revokeToken(ctx: ServiceContext, actor: Actor, tokenId: string): Promise<void> {
  if (!(await revokeOwnToken(ctx.db, actor.user.id, 'api', tokenId, isoNow(ctx.clock)))) {
    throw new NotFound(`You have no API token with id "${tokenId}"`);
  }
}

/**
 * Sets the caller's password; one already set must be given first, and wrong guesses
 * count toward the account's sign-in limit. Every other session ends: whoever else knew
 * the old password is signed out.
 */
export async function changePassword(ctx: ServiceContext, actor: Actor, input: { currentPassword?: string; password: string }) {
  requirePassword(input.password);
  const user = await findUserWithPassword(ctx.db, { userId: actor.user.id });
  const keys = failureKeys(actor.user.email);
  if (user?.password_hash) {
    if (input.currentPassword === undefined) throw new Forbidden('currentPassword: give your current password to set a new one');
    await refuseWhenLimited(ctx, keys);
    if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
      await recordFailure(ctx, keys);
      throw new Forbidden('currentPassword: this is not your current password');
    }
  }
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, actor.user.id, passwordHash);
    await revokeOtherSessions(trx, actor.user.id, actor.token?.kind === 'session' ? actor.tokenId : undefined, isoNow(ctx.clock));
    await clearAccountFailures(trx, keys);
  });
}
