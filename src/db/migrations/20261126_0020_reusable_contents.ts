// The reusable contents of each revision: a list object in the content store, as the files are.
import type { Kysely } from 'kysely';
import { hashOf } from '../../content/objects.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('revisions')
    .addColumn('reusables_hash', 'text', (c) => c.notNull().defaultTo(hashOf('[]')))
    .execute();
}
