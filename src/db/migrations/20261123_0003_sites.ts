// Published docs sites: sites, their sections, section groups, site spaces and share links.
import type { Kysely } from 'kysely';
import { bytewiseText } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('basename', 'text')
    .addColumn('proxy_origin', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('adaptive_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('adaptive_schema', 'text')
    .addColumn('adaptive_schema_updated_at', 'text')
    .addColumn('customization', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('visitor_key', 'text', (c) => c.notNull())
    .addColumn('default_section_id', 'text')
    .addColumn('default_site_space_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_organization').on('sites').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('position', bytewiseText(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_section_groups_site').on('site_section_groups').columns(['site_id', 'position']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('icon', 'text')
    .addColumn('position', bytewiseText(db), (c) => c.notNull())
    .addColumn('default_site_space_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_sections_site').on('site_sections').columns(['site_id', 'position']).execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('section_id', 'text')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('position', bytewiseText(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_spaces_site').on('site_spaces').columns(['site_id', 'section_id', 'position']).execute();
  await db.schema.createIndex('site_spaces_space').on('site_spaces').column('space_id').execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('share_key', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_share_links_site').on('site_share_links').columns(['site_id', 'created_at', 'id']).execute();
}
