// Collections and spaces (one ordering shared by both within a parent), revisions,
// direct grants, custom fields, and the durable job queue.
import type { Kysely } from 'kysely';
import { bytewiseText } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_level', 'text', (c) => c.notNull().defaultTo('inherit'))
    .addColumn('position', bytewiseText(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('collections_parent')
    .on('collections')
    .columns(['organization_id', 'parent_id', 'position'])
    .execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parents', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('edit_mode', 'text', (c) => c.notNull())
    .addColumn('default_level', 'text', (c) => c.notNull().defaultTo('inherit'))
    .addColumn('position', bytewiseText(db), (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull().references('revisions.id'))
    .addColumn('share_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('spaces_parent')
    .on('spaces')
    .columns(['organization_id', 'parent_id', 'position'])
    .execute();
  await db.schema
    .createIndex('spaces_created')
    .on('spaces')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  // Direct grants of a role on a space or a collection (inherited by its contents).
  await db.schema
    .createTable('content_grants')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_grants_pk', ['target_kind', 'target_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('content_grants_user')
    .on('content_grants')
    .columns(['organization_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('custom_fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('placeholder', 'text', (c) => c.notNull())
    .addColumn('options', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('custom_fields_name', ['organization_id', 'name'])
    .execute();
  await db.schema
    .createIndex('custom_fields_created')
    .on('custom_fields')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('space_custom_field_values')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('field_id', 'text', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('space_custom_field_values_pk', ['space_id', 'field_id'])
    .execute();
  await db.schema
    .createIndex('space_custom_field_values_field')
    .on('space_custom_field_values')
    .column('field_id')
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['run_at', 'id']).execute();
}
