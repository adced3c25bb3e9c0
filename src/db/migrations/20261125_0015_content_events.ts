// The outbox: an event written in the same transaction as the change it tells of, and
// one delivery per subscriber that must act on it (the search index, the readers'
// documents, link checks, the renderer's cache, Git Sync's export), each run by a
// durable job and marked done once, so that nothing is lost or done twice when a
// process dies in between. A space exported to git remembers where to export next.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('event_deliveries')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('subscriber', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_deliveries_pk', ['event_id', 'subscriber'])
    .execute();
  await db.schema.createIndex('events_by_space').on('events').columns(['space_id', 'created_at']).execute();
  await db.schema.createIndex('events_by_time').on('events').column('created_at').execute();
  await db.schema.alterTable('space_git_syncs').addColumn('export_sealed_url', 'text').execute();
  await db.schema.alterTable('space_git_syncs').addColumn('export_user_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('space_git_syncs').dropColumn('export_user_id').execute();
  await db.schema.alterTable('space_git_syncs').dropColumn('export_sealed_url').execute();
  await db.schema.dropTable('event_deliveries').execute();
  await db.schema.dropTable('events').execute();
}
