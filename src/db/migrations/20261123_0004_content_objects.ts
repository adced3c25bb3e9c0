// Content-addressed objects of the revision store: page nodes, children lists, and
// markdown and file blobs, each kept once under its SHA-256.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_objects')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
}
