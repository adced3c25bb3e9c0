// Which Quire account each OpenID provider's subject is. A provider signs in the account
// it made, or one its owner linked by signing in through it while signed in to Quire;
// never an account it merely names by e-mail, since any organization's administrator
// can set up a provider that says any address. A sign-in under way remembers who
// started it signed in, to link on its return.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_identities')
    .addColumn('provider_id', 'text', (c) => c.notNull().references('oidc_providers.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_identities_pk', ['provider_id', 'subject'])
    .execute();
  await db.schema.createIndex('oidc_identities_by_user').on('oidc_identities').column('user_id').execute();
  await db.schema.alterTable('oidc_requests').addColumn('link_user_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_requests').dropColumn('link_user_id').execute();
  await db.schema.dropTable('oidc_identities').execute();
}
