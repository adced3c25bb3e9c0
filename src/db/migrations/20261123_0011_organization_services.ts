// Organization services: SAML single sign-on, OpenAPI specs, translation settings
// and integrations with their installations.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('certificate', 'text')
    .addColumn('sso_url', 'text')
    .addColumn('default_team_id', 'text')
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_providers_by_organization').on('saml_providers').columns(['organization_id', 'created_at']).execute();

  // AuthnRequests Quire sent and has not yet seen answered: a response must answer one.
  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Assertions already turned into a session: the same one is never accepted twice.
  await db.schema
    .createTable('saml_assertions')
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('assertion_id', 'text', (c) => c.notNull())
    .addColumn('consumed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();
  await db.schema.alterTable('api_tokens').addColumn('saml_provider_id', 'text').execute();

  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('source_text', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('processing_state', 'text', (c) => c.notNull())
    .addColumn('last_version_id', 'text')
    .addColumn('last_processed_at', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('last_errors', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('openapi_specs_slug', ['organization_id', 'slug'])
    .execute();
  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spec_id', 'text', (c) => c.notNull().references('openapi_specs.id').onDelete('cascade'))
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('openapi_spec_versions_by_spec').on('openapi_spec_versions').columns(['spec_id', 'created_at']).execute();

  await db.schema
    .createTable('translation_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('translation_settings_by_organization').on('translation_settings').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('integrations')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    // JSON of what is published: scopes, categories, blocks, content sources, links, configurations, CSP.
    .addColumn('manifest', 'text', (c) => c.notNull())
    // What the list filters on, kept beside the manifest: JSON arrays of enum tokens
    // and host names, matched as quoted tokens.
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('block_domains', 'text', (c) => c.notNull())
    .addColumn('has_blocks', 'integer', (c) => c.notNull())
    .addColumn('has_content_sources', 'integer', (c) => c.notNull())
    .addColumn('icon_asset_id', 'text')
    .addColumn('preview_asset_ids', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('integration_scripts')
    .addColumn('integration_name', 'text', (c) => c.notNull().references('integrations.name').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_scripts_pk', ['integration_name', 'version'])
    .execute();
  await db.schema
    .createTable('integration_assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_name', 'text', (c) => c.notNull().references('integrations.name').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('integration_installations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_name', 'text', (c) => c.notNull().references('integrations.name').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('space_selection', 'text', (c) => c.notNull())
    .addColumn('site_selection', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integration_installations_once', ['integration_name', 'organization_id'])
    .execute();
  await db.schema
    .createTable('integration_space_installations')
    .addColumn('installation_id', 'text', (c) => c.notNull().references('integration_installations.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_space_installations_pk', ['installation_id', 'space_id'])
    .execute();
}
