// An integration installation acts as its own user: the user its token belongs to, with
// grants on the spaces the integration is installed on (the role its scopes give), and
// the token itself, sealed with the secrets key, handed to the script with each event.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('integration_installations').addColumn('user_id', 'text').execute();
  await db.schema.alterTable('integration_installations').addColumn('token_id', 'text').execute();
  await db.schema.alterTable('integration_installations').addColumn('sealed_token', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('integration_installations').dropColumn('sealed_token').execute();
  await db.schema.alterTable('integration_installations').dropColumn('token_id').execute();
  await db.schema.alterTable('integration_installations').dropColumn('user_id').execute();
}
