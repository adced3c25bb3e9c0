// Which backend a visitor-auth site's readers sign in with (GitBook's SitePublishingAuth
// `backend`): `custom`, the organization's own service that signs tokens with the site's
// key, sent to through fallbackURL; or `integration`, the visitor-authentication
// integration installed on the site, asked with GitBook's fetch_visitor_authentication.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('visitor_backend', 'text', (column) => column.notNull().defaultTo('custom')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').dropColumn('visitor_backend').execute();
}
