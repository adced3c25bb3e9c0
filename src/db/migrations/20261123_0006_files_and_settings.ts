// The files of each revision (a list object in the content store), and settings the
// processes of one installation share, such as the key that signs download links.
import type { Kysely } from 'kysely';
import { hashOf } from '../../content/objects.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('revisions')
    .addColumn('files_hash', 'text', (c) => c.notNull().defaultTo(hashOf('[]')))
    .execute();
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
