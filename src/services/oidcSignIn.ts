// Signing in through an organization's OpenID Connect provider, in the browser: the
// authorization code flow with PKCE. openid-client speaks the protocol (discovery from
// the issuer, the code exchange, the ID token's issuer, audience, nonce and signature);
// Quire keeps each sign-in under way (state, nonce, verifier) in the database, for ten
// minutes and one use, bound to the browser that started it by a cookie holding the
// state, and turns the verified person into an SSO member with a session.
//
// The provider's subject (`sub`) names the account, not its e-mail claim: any
// organization's administrator can set up a provider that claims any address, so a
// provider signs in only the account it made, or one whose owner linked it by signing in
// through it while signed in to Quire.
import { AppError } from '../errors.ts';
import { isoNow } from '../lib/clock.ts';
import {
  deleteOidcRequestsBefore,
  findOidcIdentity,
  findOidcProvider,
  insertOidcIdentity,
  insertOidcRequest,
  recordOidcSession,
  takeOidcRequest,
} from '../db/repos/oidcProviders.ts';
import { findUserByEmail, findUserById } from '../db/repos/users.ts';
import type { Db, OidcProviderRow, OidcRequestsTable, UserRow } from '../db/schema.ts';
import { createFetcher } from '../lib/safeFetch.ts';
import { unseal } from '../lib/secretBox.ts';
import { webFetch } from '../lib/webFetch.ts';
import { oidcServiceUrls } from '../presenters/oidcProvider.ts';
import type { ServiceContext } from './context.ts';
import { openSession, type SessionClient } from './sessions.ts';
import { linkingSession, type LinkingProof } from './signIn.ts';
import { joinThroughSso } from './ssoMembership.ts';
import { findOrCreateUser } from './users.ts';

/** openid-client and its JOSE stack, loaded at the first sign-in rather than at every start. */
const openidClient = () => import('openid-client');

/** How long a person has to sign in at the provider. */
export const OIDC_REQUEST_LIFETIME_MS = 10 * 60_000;
/** What Quire asks the provider for: who the person is, their e-mail and their name. */
const SCOPE = 'openid email profile';
const FETCH_LIMITS = { timeoutMs: 10_000, maxBytes: 1024 * 1024 };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why a sign-in did not happen, in words for the person in front of the browser. */
export class OidcSignInRefused extends Error {}

function refuse(reason: string): never {
  throw new OidcSignInRefused(reason);
}

type ProviderError = { error?: string; error_description?: string };

/** The OAuth error a provider answered with: in its body, or in a WWW-Authenticate challenge (a refused client). */
function providerError(error: unknown): ProviderError | undefined {
  const failure = error as ProviderError & { cause?: unknown };
  if (failure.error) return failure;
  const challenge = Array.isArray(failure.cause) ? (failure.cause[0] as { parameters?: ProviderError })?.parameters : undefined;
  return challenge?.error ? challenge : undefined;
}

/** What a provider or openid-client said went wrong, as one sentence. */
function describe(error: unknown): string {
  const failure = error as { message?: string; cause?: unknown };
  const answered = providerError(error);
  if (answered) return answered.error_description ? `${answered.error_description} (${answered.error})` : answered.error!;
  const cause = failure.cause instanceof Error ? `: ${failure.cause.message}` : '';
  return `${failure.message ?? String(error)}${cause}`;
}

async function requireProvider(ctx: ServiceContext, providerId: string): Promise<OidcProviderRow> {
  const provider = await findOidcProvider(ctx.db, providerId);
  if (!provider) refuse('This OpenID Connect sign-in no longer exists; ask an administrator for the right one');
  return provider;
}

/** The provider as discovered from its issuer, with Quire's client credentials, fetched under Quire's address rule. */
async function configurationFor(ctx: ServiceContext, provider: OidcProviderRow) {
  const client = await openidClient();
  const fetch = webFetch(createFetcher(ctx.config.allowPrivateUrls), FETCH_LIMITS);
  const secret = unseal(ctx.secretsKey(), provider.sealed_client_secret);
  let config;
  try {
    config = await client.discovery(new URL(provider.issuer), provider.client_id, undefined, client.ClientSecretBasic(secret), {
      [client.customFetch]: fetch,
      // http issuers pass validation only where private addresses are allowed (oidcProviders.ts).
      execute: new URL(provider.issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [],
    });
  } catch (error) {
    refuse(`Quire could not read the configuration of the provider at ${provider.issuer}: ${describe(error)}`);
  }
  config[client.customFetch] = fetch;
  // Check the ID token's signature against the provider's keys as well as TLS would.
  client.enableNonRepudiationChecks(config);
  return { client, config };
}

/**
 * Where start sends the browser, and the state its cookie must carry back. A start that
 * proves its browser's session (`linking`) links its person to the provider's subject.
 */
export async function startOidcSignIn(
  ctx: ServiceContext,
  providerId: string,
  linking: LinkingProof,
): Promise<{ url: string; state: string }> {
  const provider = await requireProvider(ctx, providerId);
  const signedIn = await linkingSession(ctx, linking);
  const { client, config } = await configurationFor(ctx, provider);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const now = ctx.clock.now();
  await deleteOidcRequestsBefore(ctx.db, now.toISOString());
  await insertOidcRequest(ctx.db, {
    state,
    provider_id: provider.id,
    nonce,
    code_verifier: codeVerifier,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + OIDC_REQUEST_LIFETIME_MS).toISOString(),
    link_user_id: signedIn?.user.id ?? null,
  });
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: oidcServiceUrls(ctx.config.publicUrl, provider.id).callback,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url: url.href, state };
}

function claimText(claims: Record<string, unknown>, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * The callback: the provider's answer (`query`) must answer a sign-in this browser
 * started (`browserState`, from its cookie) at this provider; the code is exchanged, the
 * ID token verified, and the person signed in. Answers the new session's secret and the
 * organization to open.
 */
export async function finishOidcSignIn(
  ctx: ServiceContext,
  providerId: string,
  query: Record<string, string>,
  browserState: string | undefined,
  sessionClient: SessionClient,
): Promise<{ secret: string; organizationId: string }> {
  if (query.error) refuse(`The provider did not sign you in: ${query.error_description ?? query.error}`);
  const state = query.state;
  if (!state || !query.code) refuse("The provider's answer carries no code or state; start signing in again");
  const request = await takeOidcRequest(ctx.db, providerId, state);
  if (!request || Date.parse(request.expires_at) < ctx.clock.now().getTime()) {
    refuse('This sign-in is unknown, was finished already, or took longer than 10 minutes; start signing in again');
  }
  if (browserState !== state) refuse('This sign-in was started in another browser; start signing in again here');
  const provider = await requireProvider(ctx, providerId);
  const { client, config } = await configurationFor(ctx, provider);
  const callback = new URL(oidcServiceUrls(ctx.config.publicUrl, provider.id).callback);
  callback.search = new URLSearchParams(query).toString();

  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: request.code_verifier, expectedState: state, expectedNonce: request.nonce, idTokenExpected: true },
      { redirect_uri: oidcServiceUrls(ctx.config.publicUrl, provider.id).callback },
    );
    claims = { ...tokens.claims() };
    // Providers that keep the ID token small release e-mail and name at the userinfo endpoint.
    if (!claimText(claims, 'email') && tokens.access_token) {
      claims = { ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
    }
  } catch (error) {
    if (providerError(error)?.error === 'invalid_client') {
      refuse(`The provider refused Quire's client credentials (${describe(error)}); an administrator must check the client ID and secret`);
    }
    refuse(`The provider's answer was refused: ${describe(error)}`);
  }
  const email = claimText(claims, 'email')?.toLowerCase();
  if (!email || !EMAIL.test(email)) refuse('The provider sent no e-mail address; it must release the "email" claim to Quire');
  if (claims.email_verified === false) refuse(`The provider says ${email} is not verified; verify it there, then sign in again`);
  const displayName = claimText(claims, 'name') ?? claimText(claims, 'preferred_username') ?? email.split('@')[0];

  const subject = String(claims.sub);
  return ctx.db.transaction().execute(async (trx) => {
    const user = await personOf(ctx, trx, provider, request, { subject, email, displayName });
    await joinThroughSso(ctx, trx, provider, user);
    const { secret, session } = await openSession(ctx, trx, user.id, sessionClient);
    await recordOidcSession(trx, session.id, provider.id);
    return { secret, organizationId: provider.organization_id };
  });
}

/**
 * The account the provider's subject is: the one it signed in before; else, the first
 * time, a new one for the address, or the existing one its owner is signed in as (a
 * link). An existing account the browser is not signed in as is refused: the provider
 * may be anyone's.
 */
async function personOf(
  ctx: ServiceContext,
  trx: Db,
  provider: OidcProviderRow,
  request: OidcRequestsTable,
  claimed: { subject: string; email: string; displayName: string },
): Promise<UserRow> {
  const known = await findOidcIdentity(trx, provider.id, claimed.subject);
  if (known) return (await findUserById(trx, known))!;
  const existing = await findUserByEmail(trx, claimed.email);
  if (existing && existing.id !== request.link_user_id) {
    refuse(
      `${claimed.email} has a Quire account that has not used ${provider.label} before: sign in to Quire with it first (your password, or a sign-in link), then sign in with ${provider.label} once to link the two`,
    );
  }
  const user = existing ?? (await findOrCreateUser(trx, ctx.clock, { email: claimed.email, displayName: claimed.displayName })).user;
  await insertOidcIdentity(trx, { provider_id: provider.id, subject: claimed.subject, user_id: user.id, created_at: isoNow(ctx.clock) });
  return user;
}

/** The sentence a failed sign-in shows: the refusal's own, or a plain one for anything unforeseen. */
export function signInFailure(error: unknown): { message: string; unexpected: boolean } {
  if (error instanceof OidcSignInRefused || error instanceof AppError) return { message: error.message, unexpected: false };
  return { message: 'Signing in failed unexpectedly; try again, or ask an administrator to look at the server log', unexpected: true };
}
