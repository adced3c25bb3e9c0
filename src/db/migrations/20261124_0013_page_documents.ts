// Pages' documents as the reader renders them, by the hash of their markdown, deflated
// and in base64 (text, as every engine stores it alike):
// derived from the content (rebuilt, never copied), shared by every process, and
// kept across restarts so that no reader waits for a conversion made once already.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('page_documents')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('page_documents').execute();
}
