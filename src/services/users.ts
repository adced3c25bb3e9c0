// People and their API tokens.
import { NotFound } from '../errors.ts';
import { findUserByEmail, findUserById, insertUser } from '../db/repos/users.ts';
import { insertApiToken, revokeApiToken } from '../db/repos/apiTokens.ts';
import { sharesOrganization } from '../db/repos/members.ts';
import type { Db, UserRow } from '../db/schema.ts';
import { isoNow, type Clock } from '../lib/clock.ts';
import { hashToken, newApiToken, newId } from '../lib/ids.ts';
import { presentUser } from '../presenters/user.ts';
import type { Actor, ServiceContext } from './context.ts';

export function getCurrentUser(ctx: ServiceContext, actor: Actor) {
  return presentUser(ctx.config.publicUrl, actor.user);
}

/** Another user is visible to those who share an organization with them. */
export async function getUser(ctx: ServiceContext, actor: Actor, userId: string) {
  if (userId === actor.user.id) return presentUser(ctx.config.publicUrl, actor.user);
  const user = (await sharesOrganization(ctx.db, actor.user.id, userId)) && (await findUserById(ctx.db, userId));
  if (!user) throw new NotFound(`No user with id "${userId}"`);
  return presentUser(ctx.config.publicUrl, user);
}

/** One person across organizations: an e-mail that already has a user reuses it. */
export async function findOrCreateUser(
  db: Db,
  clock: Clock,
  input: { email: string; displayName: string },
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByEmail(db, input.email);
  if (existing) return { user: existing, created: false };
  const user = await insertUser(db, {
    id: newId(),
    email: input.email.toLowerCase(),
    display_name: input.displayName,
    photo_url: null,
    created_at: isoNow(clock),
  });
  return { user, created: true };
}

/** `samlProviderId`: the provider whose sign-in this token comes from (see the organization's `sso` flag). */
export async function issueApiToken(db: Db, clock: Clock, userId: string, label?: string, samlProviderId?: string) {
  const token = newApiToken();
  const id = newId();
  await insertApiToken(db, {
    id,
    user_id: userId,
    token_hash: hashToken(token),
    label: label ?? null,
    created_at: isoNow(clock),
    revoked_at: null,
    saml_provider_id: samlProviderId ?? null,
    kind: 'api',
    scope: 'write',
    expires_at: null,
    last_used_at: null,
    user_agent: null,
    address: null,
  });
  return { id, token };
}

/** Revokes a token given as its secret value or its id; answers whether one was revoked. */
export async function revokeToken(db: Db, clock: Clock, which: { token?: string; tokenId?: string }) {
  const target = which.token ? { tokenHash: hashToken(which.token) } : { tokenId: which.tokenId! };
  return (await revokeApiToken(db, target, isoNow(clock))) > 0;
}
