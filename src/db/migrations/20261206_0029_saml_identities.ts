// Which Quire account each SAML provider's NameID is. As with OpenID providers (0028), a
// provider signs in the account it made, or one its owner linked by signing in through
// it while signed in to Quire; never an account it merely names by e-mail, since any
// organization's administrator can add a provider that asserts any address. An
// AuthnRequest under way remembers who started it signed in, to link on its answer.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saml_identities')
    .addColumn('provider_id', 'text', (c) => c.notNull().references('saml_providers.id').onDelete('cascade'))
    .addColumn('name_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_identities_pk', ['provider_id', 'name_id'])
    .execute();
  await db.schema.createIndex('saml_identities_by_user').on('saml_identities').column('user_id').execute();
  await db.schema.alterTable('saml_requests').addColumn('link_user_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('saml_requests').dropColumn('link_user_id').execute();
  await db.schema.dropTable('saml_identities').execute();
}
