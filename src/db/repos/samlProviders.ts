// SAML identity providers of organizations, the AuthnRequests sent to them, the
// assertions already accepted from them, and the accounts their NameIDs are.
import type { Db, SamlIdentitiesTable, SamlProviderRow, SamlRequestsTable } from '../schema.ts';

export async function insertSamlProvider(db: Db, provider: SamlProviderRow): Promise<void> {
  await db.insertInto('saml_providers').values(provider).execute();
}

export function findSamlProvider(db: Db, providerId: string): Promise<SamlProviderRow | undefined> {
  return db.selectFrom('saml_providers').selectAll().where('id', '=', providerId).executeTakeFirst();
}

export function samlProvidersQuery(db: Db, organizationId: string) {
  return db.selectFrom('saml_providers as p').selectAll('p').where('p.organization_id', '=', organizationId);
}

export async function updateSamlProvider(
  db: Db,
  providerId: string,
  changes: Partial<Omit<SamlProviderRow, 'id' | 'organization_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('saml_providers').set(changes).where('id', '=', providerId).execute();
}

/** Tokens the provider issued stop working with it: a removed provider signs nobody in. */
export async function deleteSamlProvider(db: Db, providerId: string, revokedAt: string): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: revokedAt })
    .where('saml_provider_id', '=', providerId)
    .where('revoked_at', 'is', null)
    .execute();
  await db.deleteFrom('saml_requests').where('provider_id', '=', providerId).execute();
  await db.deleteFrom('saml_assertions').where('provider_id', '=', providerId).execute();
  await db.deleteFrom('saml_identities').where('provider_id', '=', providerId).execute();
  await db.deleteFrom('saml_providers').where('id', '=', providerId).execute();
}

export async function saveSamlRequest(db: Db, request: SamlRequestsTable) {
  await db.insertInto('saml_requests').values(request).onConflict((c) => c.column('id').doNothing()).execute();
}

export function findSamlRequest(db: Db, providerId: string, requestId: string) {
  return db
    .selectFrom('saml_requests')
    .selectAll()
    .where('id', '=', requestId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
}

export async function deleteSamlRequest(db: Db, requestId: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('id', '=', requestId).execute();
}

export async function deleteSamlRequestsBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('created_at', '<', before).execute();
}

/** Records an assertion as used; false when it already was (a replay). */
export async function consumeSamlAssertion(db: Db, providerId: string, assertionId: string, consumedAt: string) {
  const result = await db
    .insertInto('saml_assertions')
    .values({ provider_id: providerId, assertion_id: assertionId, consumed_at: consumedAt })
    .onConflict((c) => c.columns(['provider_id', 'assertion_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The providers of every organization whose e-mail domains include `domain`, for the sign-in page. */
export function samlProvidersForEmailDomain(db: Db, domain: string) {
  return db
    .selectFrom('saml_providers as p')
    .innerJoin('organization_email_domains as d', 'd.organization_id', 'p.organization_id')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .selectAll('p')
    .select('o.title as organization_title')
    .where('d.domain', '=', domain.toLowerCase())
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(100)
    .execute();
}

/** The account this provider's NameID is, if it signed in (or was linked) before. */
export async function findSamlIdentity(db: Db, providerId: string, nameId: string): Promise<string | undefined> {
  const identity = await db
    .selectFrom('saml_identities')
    .select('user_id')
    .where('provider_id', '=', providerId)
    .where('name_id', '=', nameId)
    .executeTakeFirst();
  return identity?.user_id;
}

export async function insertSamlIdentity(db: Db, identity: SamlIdentitiesTable): Promise<void> {
  await db.insertInto('saml_identities').values(identity).execute();
}
