// What the link checker last found for each external URL, shared by every space.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_checks')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('ok', 'integer')
    .addColumn('detail', 'text')
    .addColumn('checked_at', 'text')
    .addColumn('queued_at', 'text')
    .execute();
}
