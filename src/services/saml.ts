// SAML single sign-on: an organization's identity providers, and signing people in
// through them. Quire is the service provider; @node-saml/node-saml builds the
// AuthnRequests and verifies the responses (signature against the provider's
// certificate, audience, time window, InResponseTo). Quire adds what it leaves to the
// application: the destination, the issuer, and one use per assertion.
//
// The assertion's NameID names the account, not its e-mail: any organization's
// administrator can add a provider that asserts any address, so a provider signs in only
// the account it made, or one whose owner linked it by signing in through it while signed
// in to Quire (the AuthnRequest remembers who started it).
import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';

/** node-saml and its XML signature stack, loaded at the first sign-in rather than at every start. */
const nodeSaml = () => import('@node-saml/node-saml');
import { BadRequest, Conflict, NotFound, Unauthorized } from '../errors.ts';
import { findOrganizationById } from '../db/repos/organizations.ts';
import {
  consumeSamlAssertion,
  deleteSamlProvider,
  deleteSamlRequest,
  deleteSamlRequestsBefore,
  findSamlIdentity,
  findSamlProvider,
  findSamlRequest,
  insertSamlIdentity,
  insertSamlProvider,
  samlProvidersQuery,
  saveSamlRequest,
  updateSamlProvider,
} from '../db/repos/samlProviders.ts';
import { findUserByEmail, findUserById } from '../db/repos/users.ts';
import type { Db, SamlProviderRow, SamlRequestsTable, UserRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { Role } from '../lib/roles.ts';
import type { OrganizationAccess } from '../policies/organization.ts';
import { isSamlProviderActive, presentSamlProvider, samlServiceUrls } from '../presenters/samlProvider.ts';
import { presentUser } from '../presenters/user.ts';
import type { Actor, ServiceContext } from './context.ts';
import { oidcLogins } from './oidcProviders.ts';
import { authorizeInOrganization } from './organizations.ts';
import { openSession, type SessionClient } from './sessions.ts';
import { linkingSession, type LinkingProof } from './signIn.ts';
import { defaultTeamsOf, joinThroughSso, validDefaultTeam } from './ssoMembership.ts';
import { findOrCreateUser, issueApiToken } from './users.ts';

interface SamlApiSignIn {
  object: 'sso-session';
  token: string;
  tokenId: string;
  organization: string;
  user: ReturnType<typeof presentUser>;
}

/** How long an AuthnRequest may wait for its answer. */
const REQUEST_LIFETIME_MS = 10 * 60_000;
/** Clocks of Quire and the identity provider may disagree by this much. */
const CLOCK_SKEW_MS = 60_000;

export interface SamlProviderInput {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: Role | null;
}

/** A PEM certificate the way identity providers hand it out; a bare base64 body gets its armour. */
function normalizeCertificate(certificate: string): string {
  const trimmed = certificate.trim();
  if (trimmed.startsWith('-----BEGIN')) return trimmed;
  const body = trimmed.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----`;
}

function validCertificate(certificate: string): string {
  const pem = normalizeCertificate(certificate);
  try {
    new X509Certificate(pem);
  } catch {
    throw new BadRequest('certificate: not a valid X.509 certificate in PEM form (-----BEGIN CERTIFICATE----- …)');
  }
  return pem;
}

/** Providers with their default teams. */
async function presentAll(ctx: ServiceContext, access: OrganizationAccess, actor: Actor, providers: SamlProviderRow[]) {
  const teams = await defaultTeamsOf(ctx, access, actor, providers);
  return providers.map((provider, index) => presentSamlProvider(ctx.config.publicUrl, provider, teams[index]));
}

async function present(ctx: ServiceContext, access: OrganizationAccess, actor: Actor, provider: SamlProviderRow) {
  return (await presentAll(ctx, access, actor, [provider]))[0];
}

async function requireProvider(db: Db, organizationId: string, providerId: string): Promise<SamlProviderRow> {
  const provider = await findSamlProvider(db, providerId);
  if (!provider || provider.organization_id !== organizationId) {
    throw new NotFound(`No SAML provider with id "${providerId}" in this organization`);
  }
  return provider;
}

export async function listSamlProviders(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const providers = await paginate(
    samlProvidersQuery(ctx.db, organizationId),
    [
      { column: 'p.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'p.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => row,
  );
  return { ...providers, items: await presentAll(ctx, access, actor, providers.items) };
}

export async function createSamlProvider(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: SamlProviderInput & { label: string },
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  if (input.defaultTeam !== undefined) await validDefaultTeam(ctx.db, organizationId, input.defaultTeam, actor.user.id);
  const provider: SamlProviderRow = {
    id: newId(),
    organization_id: organizationId,
    label: input.label,
    entity_id: input.entityID ?? null,
    certificate: input.certificate !== undefined ? validCertificate(input.certificate) : null,
    sso_url: input.ssoURL ?? null,
    default_team_id: input.defaultTeam ?? null,
    default_role: input.defaultRole === undefined ? 'read' : input.defaultRole,
    created_at: isoNow(ctx.clock),
  };
  await insertSamlProvider(ctx.db, provider);
  return present(ctx, access, actor, provider);
}

export async function getSamlProvider(ctx: ServiceContext, actor: Actor, organizationId: string, providerId: string) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  return present(ctx, access, actor, await requireProvider(ctx.db, organizationId, providerId));
}

export async function changeSamlProvider(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  providerId: string,
  input: SamlProviderInput,
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await requireProvider(ctx.db, organizationId, providerId);
  if (input.defaultTeam !== undefined) await validDefaultTeam(ctx.db, organizationId, input.defaultTeam, actor.user.id);
  await updateSamlProvider(ctx.db, providerId, {
    ...(input.label !== undefined ? { label: input.label } : {}),
    ...(input.entityID !== undefined ? { entity_id: input.entityID } : {}),
    ...(input.certificate !== undefined ? { certificate: validCertificate(input.certificate) } : {}),
    ...(input.ssoURL !== undefined ? { sso_url: input.ssoURL } : {}),
    ...(input.defaultTeam !== undefined ? { default_team_id: input.defaultTeam } : {}),
    ...(input.defaultRole !== undefined ? { default_role: input.defaultRole } : {}),
  });
  return present(ctx, access, actor, await requireProvider(ctx.db, organizationId, providerId));
}

export async function removeSamlProvider(ctx: ServiceContext, actor: Actor, organizationId: string, providerId: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await ctx.db.transaction().execute(async (trx) => {
    await requireProvider(trx, organizationId, providerId);
    await deleteSamlProvider(trx, providerId, isoNow(ctx.clock));
  });
}

/** The sign-in choices of an organization (its SAML and OpenID providers), for a login page: every member may read them. */
export async function listSsoLogins(ctx: ServiceContext, actor: Actor, organizationId: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  const providers = await samlProvidersQuery(ctx.db, organizationId).orderBy('p.created_at').orderBy('p.id').limit(1000).execute();
  return {
    items: providers
      .filter(isSamlProviderActive)
      .map((provider) => ({
        id: provider.id,
        label: provider.label,
        startURL: samlServiceUrls(ctx.config.publicUrl, provider.id).startURL,
      }))
      .concat(await oidcLogins(ctx, ctx.db, organizationId)),
  };
}

/**
 * node-saml's request cache, kept in the database so any process can receive the answer.
 * A request saved remembers `linkUserId`, its signed-in starter; the requests an answer
 * was checked against are kept in `answered`, for the sign-in to read who started it.
 */
function requestCache(
  ctx: ServiceContext,
  providerId: string,
  options: { linkUserId?: string | null; answered?: Map<string, SamlRequestsTable> } = {},
): CacheProvider {
  return {
    async saveAsync(key, value) {
      const now = ctx.clock.now();
      await deleteSamlRequestsBefore(ctx.db, new Date(now.getTime() - REQUEST_LIFETIME_MS).toISOString());
      await saveSamlRequest(ctx.db, {
        id: key,
        provider_id: providerId,
        value,
        created_at: now.toISOString(),
        link_user_id: options.linkUserId ?? null,
      });
      return { value, createdAt: now.getTime() };
    },
    async getAsync(key) {
      const request = await findSamlRequest(ctx.db, providerId, key);
      const expired = !request || Date.parse(request.created_at) + REQUEST_LIFETIME_MS < ctx.clock.now().getTime();
      if (!expired) options.answered?.set(key, request);
      return expired ? null : request.value;
    },
    async removeAsync(key) {
      if (key === null) return null;
      const request = await findSamlRequest(ctx.db, providerId, key);
      await deleteSamlRequest(ctx.db, key);
      return request?.value ?? null;
    },
  };
}

async function activeProvider(ctx: ServiceContext, providerId: string): Promise<SamlProviderRow> {
  const provider = await findSamlProvider(ctx.db, providerId);
  if (!provider) throw new NotFound(`No SAML provider with id "${providerId}"`);
  if (!isSamlProviderActive(provider)) {
    throw new BadRequest(
      'This SAML provider is not configured yet: an administrator must set its ssoURL, entityID and certificate',
    );
  }
  return provider;
}

async function samlFor(ctx: ServiceContext, provider: SamlProviderRow, cache = requestCache(ctx, provider.id)): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await nodeSaml();
  const service = samlServiceUrls(ctx.config.publicUrl, provider.id);
  return new SAML({
    entryPoint: provider.sso_url!,
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    audience: service.entityID,
    idpCert: provider.certificate!,
    // Either the response or its assertion must carry a valid signature (node-saml
    // refuses a response with neither); identity providers differ in which they sign.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    // Only answers to requests Quire sent: unsolicited and replayed responses fail here.
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    cacheProvider: cache,
  });
}

/**
 * Where startURL sends the browser: the identity provider, carrying a fresh AuthnRequest.
 * A start that proves its browser's session (`linking`) links its person to the NameID answered.
 */
export async function startSamlSignIn(
  ctx: ServiceContext,
  providerId: string,
  relayState: string | undefined,
  linking: LinkingProof = {},
) {
  const provider = await activeProvider(ctx, providerId);
  const signedIn = await linkingSession(ctx, linking);
  const cache = requestCache(ctx, provider.id, { linkUserId: signedIn?.user.id ?? null });
  return (await samlFor(ctx, provider, cache)).getAuthorizeUrlAsync(relayState ?? '', undefined, {});
}

/** Quire's SAML metadata for one provider, for identity providers that import it. */
export async function samlServiceMetadata(ctx: ServiceContext, providerId: string): Promise<string> {
  const provider = await findSamlProvider(ctx.db, providerId);
  if (!provider) throw new NotFound(`No SAML provider with id "${providerId}"`);
  const service = samlServiceUrls(ctx.config.publicUrl, provider.id);
  // Metadata describes Quire's side only; node-saml's constructor wants an IdP certificate all the same.
  const { SAML } = await nodeSaml();
  return new SAML({ issuer: service.entityID, callbackUrl: service.acsURL, idpCert: 'not used for metadata' }).generateServiceProviderMetadata(null);
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function firstText(profile: Profile, names: string[]): string | undefined {
  for (const name of names) {
    const value = profile[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string' && text.trim()) return text.trim();
  }
  return undefined;
}

function refuse(reason: string): never {
  throw new Unauthorized(`The SAML response was refused: ${reason}`);
}

type ParsedAssertion = {
  Assertion?: {
    $?: { ID?: string };
    Subject?: Array<{ SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<{ $?: { Recipient?: string } }> }> }>;
  };
};

/**
 * The response must be meant for this provider's ACS URL: its Destination, when the
 * response carries one, and the Recipient of the (signed) assertion's confirmation.
 */
function checkDestination(profile: Profile, acsUrl: string): void {
  const responseXml = profile.getSamlResponseXml?.();
  const destination = responseXml
    ? new DOMParser().parseFromString(responseXml, 'text/xml').documentElement?.getAttribute('Destination')
    : null;
  if (destination && destination !== acsUrl) refuse(`it is addressed to ${destination}, not to ${acsUrl}`);
  const assertion = (profile.getAssertion?.() as ParsedAssertion | undefined)?.Assertion;
  const recipients = (assertion?.Subject?.[0]?.SubjectConfirmation ?? [])
    .map((confirmation) => confirmation.SubjectConfirmationData?.[0]?.$?.Recipient)
    .filter((recipient): recipient is string => typeof recipient === 'string');
  if (recipients.some((recipient) => recipient !== acsUrl)) refuse(`its assertion is meant for another recipient`);
  if (!destination && recipients.length === 0) refuse('it names no destination or recipient');
}

const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** The NameID that names the account: stable across sign-ins, an address compared without case. */
function accountNameId(profile: Profile): string {
  const nameId = profile.nameID?.trim();
  if (!nameId) refuse('its assertion has no NameID');
  if (profile.nameIDFormat === TRANSIENT) {
    refuse('its NameID is transient (new at every sign-in); have the provider send a persistent NameID or the e-mail address');
  }
  return profile.nameIDFormat === EMAIL_FORMAT ? nameId.toLowerCase() : nameId;
}

/**
 * The account the provider's NameID is: the one it signed in before; else, the first
 * time, a new one for the address, or the existing one its owner started this sign-in
 * signed in as (a link). An existing account nobody linked is refused: the provider may
 * be anyone's.
 */
async function personOf(
  ctx: ServiceContext,
  trx: Db,
  provider: SamlProviderRow,
  linkUserId: string | null,
  asserted: { nameId: string; email: string; displayName: string },
): Promise<UserRow> {
  const known = await findSamlIdentity(trx, provider.id, asserted.nameId);
  if (known) return (await findUserById(trx, known))!;
  const existing = await findUserByEmail(trx, asserted.email);
  if (existing && existing.id !== linkUserId) {
    throw new Conflict('An account with this address already exists in Quire: sign in to Quire first, then use single sign-on to link it');
  }
  const user = existing ?? (await findOrCreateUser(trx, ctx.clock, { email: asserted.email, displayName: asserted.displayName })).user;
  await insertSamlIdentity(trx, { provider_id: provider.id, name_id: asserted.nameId, user_id: user.id, created_at: isoNow(ctx.clock) });
  return user;
}

/**
 * acsURL: verifies the identity provider's answer, makes the person an SSO member of
 * the organization (new members get the provider's default role and team) and issues
 * them an API token, which this answer is the only place to read; or, for a browser
 * (`browser` given), opens an app session instead, whose secret the route sets as the
 * cookie.
 */
export async function finishSamlSignIn(ctx: ServiceContext, providerId: string, form: { SAMLResponse?: unknown }): Promise<SamlApiSignIn>;
export async function finishSamlSignIn(
  ctx: ServiceContext,
  providerId: string,
  form: { SAMLResponse?: unknown },
  browser: SessionClient,
): Promise<{ organization: string; secret: string }>;
export async function finishSamlSignIn(ctx: ServiceContext, providerId: string, form: { SAMLResponse?: unknown }, browser?: SessionClient) {
  if (typeof form.SAMLResponse !== 'string' || form.SAMLResponse.length === 0) {
    throw new BadRequest('SAMLResponse: the identity provider\'s response is missing from the form');
  }
  const provider = await activeProvider(ctx, providerId);
  const answered = new Map<string, SamlRequestsTable>();
  let profile: Profile | null;
  try {
    const saml = await samlFor(ctx, provider, requestCache(ctx, provider.id, { answered }));
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse }));
  } catch (error) {
    refuse(error instanceof Error ? error.message : String(error));
  }
  if (!profile) refuse('it carries no assertion');
  if (profile.issuer !== provider.entity_id) {
    refuse(`its issuer "${profile.issuer ?? ''}" is not this provider's entity ID`);
  }
  checkDestination(profile, samlServiceUrls(ctx.config.publicUrl, provider.id).acsURL);
  const assertionId = (profile.getAssertion?.() as ParsedAssertion | undefined)?.Assertion?.$?.ID;
  if (!assertionId) refuse('its assertion has no ID');
  const email = firstText(profile, EMAIL_ATTRIBUTES) ?? (EMAIL.test(profile.nameID) ? profile.nameID : undefined);
  if (!email || !EMAIL.test(email)) refuse('it names no e-mail address (NameID or an email attribute)');
  const displayName = firstText(profile, NAME_ATTRIBUTES) ?? email.split('@')[0];
  const nameId = accountNameId(profile);
  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined;
  const linkUserId = (inResponseTo ? answered.get(inResponseTo)?.link_user_id : null) ?? null;

  return ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeSamlAssertion(trx, provider.id, assertionId, isoNow(ctx.clock)))) {
      refuse('this assertion was already used to sign in');
    }
    const organizationId = provider.organization_id;
    const user = await personOf(ctx, trx, provider, linkUserId, { nameId, email: email.toLowerCase(), displayName });
    await joinThroughSso(ctx, trx, provider, user);
    const organization = await findOrganizationById(trx, organizationId);
    if (browser) {
      const { secret } = await openSession(ctx, trx, user.id, browser, { samlProviderId: provider.id });
      return { organization: organization!.id, secret };
    }
    const token = await issueApiToken(trx, ctx.clock, user.id, `SSO: ${provider.label}`, provider.id);
    return {
      object: 'sso-session' as const,
      token: token.token,
      tokenId: token.id,
      organization: organization!.id,
      user: presentUser(ctx.config.publicUrl, user),
    };
  });
}
