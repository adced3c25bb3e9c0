// Website imports into change requests: one row per request, finished by a durable job.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text')
    .addColumn('imported_resources', 'integer')
    .addColumn('total_resources', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
