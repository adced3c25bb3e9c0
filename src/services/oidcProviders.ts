// An organization's OpenID Connect providers, as its administrators set them up: the
// issuer, the client Quire is registered as (its secret written once, sealed, never
// shown again), and what people signing in get. Signing in is oidcSignIn.ts's.
import { BadRequest, NotFound } from '../errors.ts';
import {
  deleteOidcProvider,
  findOidcProvider,
  insertOidcProvider,
  oidcProvidersForEmailDomain,
  oidcProvidersQuery,
  updateOidcProvider,
} from '../db/repos/oidcProviders.ts';
import type { Db, OidcProviderRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { Role } from '../lib/roles.ts';
import { seal } from '../lib/secretBox.ts';
import type { OrganizationAccess } from '../policies/organization.ts';
import { oidcServiceUrls, presentOidcProvider } from '../presenters/oidcProvider.ts';
import type { Actor, ServiceContext } from './context.ts';
import { defaultTeamsOf, validDefaultTeam } from './ssoMembership.ts';
import { authorizeInOrganization } from './organizations.ts';

export interface OidcProviderInput {
  label?: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  defaultTeam?: string;
  defaultRole?: Role | null;
}

/**
 * The issuer as its discovery document will name it. Plain http only where private
 * addresses are allowed (closed networks, tests): elsewhere tokens must not cross the
 * network in the clear.
 */
function validIssuer(ctx: ServiceContext, issuer: string): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new BadRequest(`issuer: "${issuer}" is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && ctx.config.allowPrivateUrls)) {
    throw new BadRequest('issuer: must be an https URL (plain http only when QUIRE_ALLOW_PRIVATE_URLS=true)');
  }
  if (url.search || url.hash) throw new BadRequest('issuer: must have no query or fragment');
  return issuer;
}

/** Providers with their default teams. */
async function presentAll(ctx: ServiceContext, access: OrganizationAccess, actor: Actor, providers: OidcProviderRow[]) {
  const teams = await defaultTeamsOf(ctx, access, actor, providers);
  return providers.map((provider, index) => presentOidcProvider(ctx.config.publicUrl, provider, teams[index]));
}

async function present(ctx: ServiceContext, access: OrganizationAccess, actor: Actor, provider: OidcProviderRow) {
  return (await presentAll(ctx, access, actor, [provider]))[0];
}

async function requireProvider(db: Db, organizationId: string, providerId: string): Promise<OidcProviderRow> {
  const provider = await findOidcProvider(db, providerId);
  if (!provider || provider.organization_id !== organizationId) {
    throw new NotFound(`No OpenID Connect provider with id "${providerId}" in this organization`);
  }
  return provider;
}

export async function listOidcProviders(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  const providers = await paginate(
    oidcProvidersQuery(ctx.db, organizationId),
    [
      { column: 'p.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'p.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => row,
  );
  return { ...providers, items: await presentAll(ctx, access, actor, providers.items) };
}

export async function createOidcProvider(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: OidcProviderInput & { label: string; issuer: string; clientId: string; clientSecret: string },
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  if (input.defaultTeam !== undefined) await validDefaultTeam(ctx.db, organizationId, input.defaultTeam, actor.user.id);
  const provider: OidcProviderRow = {
    id: newId(),
    organization_id: organizationId,
    label: input.label,
    issuer: validIssuer(ctx, input.issuer),
    client_id: input.clientId,
    sealed_client_secret: seal(ctx.secretsKey(), input.clientSecret),
    default_team_id: input.defaultTeam ?? null,
    default_role: input.defaultRole === undefined ? 'read' : input.defaultRole,
    created_at: isoNow(ctx.clock),
  };
  await insertOidcProvider(ctx.db, provider);
  return present(ctx, access, actor, provider);
}

export async function getOidcProvider(ctx: ServiceContext, actor: Actor, organizationId: string, providerId: string) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  return present(ctx, access, actor, await requireProvider(ctx.db, organizationId, providerId));
}

export async function changeOidcProvider(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  providerId: string,
  input: OidcProviderInput,
) {
  const { access } = await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await requireProvider(ctx.db, organizationId, providerId);
  if (input.defaultTeam !== undefined) await validDefaultTeam(ctx.db, organizationId, input.defaultTeam, actor.user.id);
  await updateOidcProvider(ctx.db, providerId, {
    ...(input.label !== undefined ? { label: input.label } : {}),
    ...(input.issuer !== undefined ? { issuer: validIssuer(ctx, input.issuer) } : {}),
    ...(input.clientId !== undefined ? { client_id: input.clientId } : {}),
    ...(input.clientSecret !== undefined ? { sealed_client_secret: seal(ctx.secretsKey(), input.clientSecret) } : {}),
    ...(input.defaultTeam !== undefined ? { default_team_id: input.defaultTeam } : {}),
    ...(input.defaultRole !== undefined ? { default_role: input.defaultRole } : {}),
  });
  return present(ctx, access, actor, await requireProvider(ctx.db, organizationId, providerId));
}

export async function removeOidcProvider(ctx: ServiceContext, actor: Actor, organizationId: string, providerId: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'admin');
  await ctx.db.transaction().execute(async (trx) => {
    await requireProvider(trx, organizationId, providerId);
    await deleteOidcProvider(trx, providerId, isoNow(ctx.clock));
  });
}

/**
 * The OpenID providers a person whose address is at `domain` may sign in through, for
 * the sign-in page (GET /auth/sso): those of organizations claiming the domain. Asked
 * before anyone is signed in, so it says only what the sign-in page shows.
 */
export async function oidcSignInChoices(ctx: ServiceContext, db: Db, domain: string) {
  const providers = await oidcProvidersForEmailDomain(db, domain);
  return providers.map((provider) => ({
    kind: 'oidc' as const,
    label: provider.label,
    organization: { id: provider.organization_id, title: provider.organization_title },
    startUrl: oidcServiceUrls(ctx.config.publicUrl, provider.id).start,
  }));
}

/** An organization's OpenID providers as its login page lists them (GET /v1/orgs/{id}/sso), beside its SAML ones. */
export async function oidcLogins(ctx: ServiceContext, db: Db, organizationId: string) {
  const providers = await oidcProvidersQuery(db, organizationId).orderBy('p.created_at').orderBy('p.id').limit(1000).execute();
  return providers.map((provider) => ({
    id: provider.id,
    label: provider.label,
    startURL: oidcServiceUrls(ctx.config.publicUrl, provider.id).start,
  }));
}
