// The search index: one row per section of each page of each space's current
// revision, and which revision each space's rows come from. The full-text part is the
// engine's own (src/db/fullText.ts): an FTS5 table kept by triggers on SQLite, a
// weighted tsvector column with a GIN index on PostgreSQL.
import type { Kysely } from 'kysely';
import { createFullTextIndex } from '../fullText.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_state')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .execute();
  await createFullTextIndex(db);
}
