// OpenID Connect sign-in and e-mail (issue 73). An organization's OpenID providers,
// their client secrets sealed as integration secrets are; the sign-ins under way (state,
// nonce and PKCE verifier, kept here so that any process may receive the callback, and
// used once); the sessions each provider opened, so that removing it ends them.
// Password-reset requests are counted per address, for their rate limit.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('sealed_client_secret', 'text', (c) => c.notNull())
    .addColumn('default_team_id', 'text')
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_providers_by_organization').on('oidc_providers').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('oidc_requests')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull().references('oidc_providers.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_requests_by_expiry').on('oidc_requests').column('expires_at').execute();

  await db.schema
    .createTable('oidc_sessions')
    .addColumn('token_id', 'text', (c) => c.primaryKey().references('api_tokens.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_sessions_by_provider').on('oidc_sessions').column('provider_id').execute();

  await db.schema
    .createTable('password_reset_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_reset_requests_by_email').on('password_reset_requests').columns(['email', 'requested_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('password_reset_requests').execute();
  await db.schema.dropTable('oidc_sessions').execute();
  await db.schema.dropTable('oidc_requests').execute();
  await db.schema.dropTable('oidc_providers').execute();
}
