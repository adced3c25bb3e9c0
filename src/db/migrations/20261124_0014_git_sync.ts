// Git Sync: a space's connection to a git repository with the state of its last
// operation, and for each revision imported from or exported to git, the commit it
// matches and where each page and file sits in it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('space_git_syncs')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text', (c) => c.notNull())
    .addColumn('tree_url', 'text')
    .addColumn('commit_url', 'text')
    .addColumn('provider', 'text')
    .addColumn('last_commit', 'text')
    .addColumn('last_revision', 'text')
    .addColumn('last_timestamp', 'text')
    .addColumn('operation_id', 'text')
    .addColumn('operation_direction', 'text', (c) => c.notNull())
    .addColumn('operation_state', 'text', (c) => c.notNull())
    .addColumn('operation_started_at', 'text', (c) => c.notNull())
    .addColumn('operation_ended_at', 'text')
    .addColumn('operation_error', 'text')
    .addColumn('operation_warnings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('revision_git')
    .addColumn('revision_id', 'text', (c) => c.primaryKey().references('revisions.id').onDelete('cascade'))
    .addColumn('commit_oid', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('created_by_quire', 'integer', (c) => c.notNull())
    .addColumn('paths', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('revision_git').execute();
  await db.schema.dropTable('space_git_syncs').execute();
}
