// Sign-in in the browser (issue 73): a browser session is an API token of kind
// 'session', so the auth plugin's one token query admits it, expiry and revocation hold
// in every process, and per-token rate limits count it too. Tokens gain a scope
// ('read' tokens only read), an expiry, and what the sessions list shows (when last
// used, from which browser and address). People gain a password (scrypt). One-time
// sign-in links (the admin command's, and password resets') are kept as hashes; failed
// sign-ins are counted in the database so that every process shares the rate limit.
// Link invites expire, and an e-mail invite names its address.
import type { Kysely } from 'kysely';

const TOKEN_COLUMNS = ['expires_at', 'last_used_at', 'user_agent', 'address'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('kind', 'text', (c) => c.notNull().defaultTo('api')).execute();
  await db.schema.alterTable('api_tokens').addColumn('scope', 'text', (c) => c.notNull().defaultTo('write')).execute();
  for (const column of TOKEN_COLUMNS) {
    await db.schema.alterTable('api_tokens').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();

  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('sign_in_links_user').on('sign_in_links').column('user_id').execute();

  // One row per failed attempt, under a key naming the account or the address.
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_key').on('sign_in_failures').columns(['key', 'failed_at']).execute();

  await db.schema.alterTable('organization_invites').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('organization_invites').addColumn('email', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organization_invites').dropColumn('email').execute();
  await db.schema.alterTable('organization_invites').dropColumn('expires_at').execute();
  await db.schema.dropTable('sign_in_failures').execute();
  await db.schema.dropTable('sign_in_links').execute();
  await db.schema.alterTable('users').dropColumn('password_hash').execute();
  for (const column of [...TOKEN_COLUMNS].reverse()) {
    await db.schema.alterTable('api_tokens').dropColumn(column).execute();
  }
  await db.schema.alterTable('api_tokens').dropColumn('scope').execute();
  await db.schema.alterTable('api_tokens').dropColumn('kind').execute();
}
