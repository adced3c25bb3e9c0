// Change requests, and the tree root of each revision in the content store.
import { sql, type Kysely } from 'kysely';
import { hashOf } from '../../content/objects.ts';

/** The root of a revision without pages: the empty top-level list. */
const EMPTY_ROOT_TEXT = '[]';

export async function up(db: Kysely<unknown>): Promise<void> {
  const emptyRoot = hashOf(EMPTY_ROOT_TEXT);
  await sql`insert into content_objects (hash, data) values (${emptyRoot}, ${EMPTY_ROOT_TEXT}) on conflict (hash) do nothing`.execute(db);
  await db.schema
    .alterTable('revisions')
    .addColumn('root_hash', 'text', (c) => c.notNull().defaultTo(emptyRoot))
    .execute();
  await db.schema.alterTable('revisions').addColumn('created_by', 'text').execute();

  // Which revisions belong to which space (its history and its change requests'):
  // revisions are shared by reference between duplicates, so they have no one owner.
  await db.schema
    .createTable('space_revisions')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'text', (c) => c.notNull().references('revisions.id'))
    .addPrimaryKeyConstraint('space_revisions_pk', ['space_id', 'revision_id'])
    .execute();
  await sql`insert into space_revisions (space_id, revision_id) select id, revision_id from spaces`.execute(db);

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('revision_initial', 'text', (c) => c.notNull())
    .addColumn('revision_merged_ancestor', 'text')
    .addColumn('revision_merged', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('change_requests_number', ['space_id', 'number'])
    .execute();
  await db.schema
    .createIndex('change_requests_status')
    .on('change_requests')
    .columns(['space_id', 'status', 'created_at', 'id'])
    .execute();
}
