// Git Sync keeps a connection, not only the last operation: the remote and its
// credentials (sealed) once an operation with them succeeded, so that imports, exports,
// webhooks and polls need no URL; who set it up, as whom they act; the webhook's secret
// (sealed); the last failure and when; the commit an export is pushing (so a run that
// died after its push finishes it instead of pushing again); an import waiting in a
// change request for its conflict to be resolved; and when the space is next polled.
// Each merge waits in git_sync_exports until its own commit is pushed, in order: a
// remote that is down delays them, and loses none. Commits carry their authors.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('space_git_syncs').renameColumn('export_sealed_url', 'sealed_url').execute();
  await db.schema.alterTable('space_git_syncs').renameColumn('export_user_id', 'user_id').execute();
  await db.schema.alterTable('space_git_syncs').addColumn('exports_changes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // Until now a sealed URL was kept only where an export had set up the export of changes.
  await sql`update space_git_syncs set exports_changes = 1 where sealed_url is not null`.execute(db);
  for (const column of ['sealed_webhook_secret', 'failure_error', 'failure_at', 'pushing', 'conflict_commit', 'conflict_revision', 'conflict_change_request', 'next_poll_at']) {
    await db.schema.alterTable('space_git_syncs').addColumn(column, 'text').execute();
  }
  await db.schema
    .createTable('git_sync_exports')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('git_sync_exports_pkey', ['space_id', 'revision_id'])
    .execute();
  await db.schema.alterTable('revision_git').addColumn('author_name', 'text').execute();
  await db.schema.alterTable('revision_git').addColumn('author_email', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('revision_git').dropColumn('author_email').execute();
  await db.schema.alterTable('revision_git').dropColumn('author_name').execute();
  await db.schema.dropTable('git_sync_exports').execute();
  for (const column of ['next_poll_at', 'conflict_change_request', 'conflict_revision', 'conflict_commit', 'pushing', 'failure_at', 'failure_error', 'sealed_webhook_secret', 'exports_changes']) {
    await db.schema.alterTable('space_git_syncs').dropColumn(column).execute();
  }
  await db.schema.alterTable('space_git_syncs').renameColumn('user_id', 'export_user_id').execute();
  await db.schema.alterTable('space_git_syncs').renameColumn('sealed_url', 'export_sealed_url').execute();
}
