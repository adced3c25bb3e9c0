// Where a visitor-auth site sends a reader without a valid visitor token (GitBook's
// fallbackURL: the organization's own sign-in, which comes back with a token), and the
// upstream sign-out its pages link to (logoutURL). Unset, the site answers such a
// reader 404 and shows no sign-out link, as before.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').addColumn('visitor_fallback_url', 'text').execute();
  await db.schema.alterTable('sites').addColumn('visitor_logout_url', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sites').dropColumn('visitor_logout_url').execute();
  await db.schema.alterTable('sites').dropColumn('visitor_fallback_url').execute();
}
