// OpenID Connect providers of organizations, the sign-ins sent to them and not yet
// answered, the accounts their subjects are, and the sessions they opened.
import type { Db, OidcProviderRow, OidcRequestsTable } from '../schema.ts';

export async function insertOidcProvider(db: Db, provider: OidcProviderRow): Promise<void> {
  await db.insertInto('oidc_providers').values(provider).execute();
}

export function findOidcProvider(db: Db, providerId: string): Promise<OidcProviderRow | undefined> {
  return db.selectFrom('oidc_providers').selectAll().where('id', '=', providerId).executeTakeFirst();
}

export function oidcProvidersQuery(db: Db, organizationId: string) {
  return db.selectFrom('oidc_providers as p').selectAll('p').where('p.organization_id', '=', organizationId);
}

/** The providers of every organization whose e-mail domains include `domain`, for a sign-in page. */
export function oidcProvidersForEmailDomain(db: Db, domain: string) {
  return db
    .selectFrom('oidc_providers as p')
    .innerJoin('organization_email_domains as d', 'd.organization_id', 'p.organization_id')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['p.id', 'p.label', 'p.organization_id', 'o.title as organization_title'])
    .where('d.domain', '=', domain.toLowerCase())
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(100)
    .execute();
}

export async function updateOidcProvider(
  db: Db,
  providerId: string,
  changes: Partial<Omit<OidcProviderRow, 'id' | 'organization_id' | 'created_at'>>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('oidc_providers').set(changes).where('id', '=', providerId).execute();
}

/** Sessions the provider opened end with it: a removed provider keeps nobody signed in. */
export async function deleteOidcProvider(db: Db, providerId: string, revokedAt: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: revokedAt })
    .where('id', 'in', db.selectFrom('oidc_sessions').select('token_id').where('provider_id', '=', providerId))
    .where('revoked_at', 'is', null)
    .execute();
  await db.deleteFrom('oidc_sessions').where('provider_id', '=', providerId).execute();
  await db.deleteFrom('oidc_identities').where('provider_id', '=', providerId).execute();
  await db.deleteFrom('oidc_requests').where('provider_id', '=', providerId).execute();
  await db.deleteFrom('oidc_providers').where('id', '=', providerId).execute();
}

export async function insertOidcRequest(db: Db, request: OidcRequestsTable): Promise<void> {
  await db.insertInto('oidc_requests').values(request).execute();
}

/** Takes a sign-in request by its state, once: a second callback with the same state finds nothing. */
export async function takeOidcRequest(db: Db, providerId: string, state: string): Promise<OidcRequestsTable | undefined> {
  const request = await db
    .selectFrom('oidc_requests')
    .selectAll()
    .where('state', '=', state)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  if (!request) return undefined;
  const taken = await db.deleteFrom('oidc_requests').where('state', '=', state).executeTakeFirst();
  return Number(taken.numDeletedRows) === 1 ? request : undefined;
}

export async function deleteOidcRequestsBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('oidc_requests').where('expires_at', '<', before).execute();
}

export async function recordOidcSession(db: Db, tokenId: string, providerId: string): Promise<void> {
  await db.insertInto('oidc_sessions').values({ token_id: tokenId, provider_id: providerId }).execute();
}

/** The account this provider's subject is, if it signed in (or was linked) before. */
export async function findOidcIdentity(db: Db, providerId: string, subject: string): Promise<string | undefined> {
  const identity = await db
    .selectFrom('oidc_identities')
    .select('user_id')
    .where('provider_id', '=', providerId)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return identity?.user_id;
}

export async function insertOidcIdentity(db: Db, identity: { provider_id: string; subject: string; user_id: string; created_at: string }) {
  await db.insertInto('oidc_identities').values(identity).execute();
}
