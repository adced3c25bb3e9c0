// Comments and their replies (one table: a reply names its comment), and reactions.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('posted_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('revision_id', 'text')
    .addColumn('page_id', 'text')
    .addColumn('page_blob', 'text')
    .addColumn('node_id', 'text')
    .execute();
  await db.schema
    .createIndex('comments_scope')
    .on('comments')
    .columns(['space_id', 'change_request_id', 'parent_id', 'posted_at', 'id'])
    .execute();
  await db.schema.createIndex('comments_parent').on('comments').columns(['parent_id', 'posted_at', 'id']).execute();

  await db.schema
    .createTable('comment_reactions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('reacted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['comment_id', 'user_id', 'emoji'])
    .execute();
}
