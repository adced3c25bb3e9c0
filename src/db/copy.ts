// Copies a whole Quire instance from one database to another (SQLite → PostgreSQL when
// a team outgrows one machine, or back): every table, row for row, read from one
// consistent snapshot of the source and written in one transaction into an empty,
// migrated target, so a copy that fails leaves the target as empty as it was.
import { sql, type Kysely, type Transaction } from 'kysely';
import { engineOf } from './dialect.ts';
import type { Database } from './schema.ts';

/**
 * Every table of the schema, each after the tables its rows reference. The search
 * index is derived from the content and differs by engine: it is rebuilt, not copied;
 * pages' documents are derived too, and made again when first read.
 */
export const COPIED_TABLES = [
  'users',
  'api_tokens',
  'organizations',
  'organization_email_domains',
  'organization_members',
  'teams',
  'team_members',
  'organization_invites',
  'collections',
  'revisions',
  'spaces',
  'content_grants',
  'custom_fields',
  'space_custom_field_values',
  'jobs',
  'events',
  'event_deliveries',
  'sites',
  'site_section_groups',
  'site_sections',
  'site_spaces',
  'site_share_links',
  'site_redirects',
  'content_objects',
  'change_requests',
  'space_revisions',
  'space_git_syncs',
  'revision_git',
  'git_sync_exports',
  'settings',
  'comments',
  'comment_reactions',
  'link_checks',
  'content_imports',
  'saml_providers',
  'saml_requests',
  'saml_assertions',
  'saml_identities',
  'oidc_providers',
  'oidc_requests',
  'oidc_sessions',
  'oidc_identities',
  'sign_in_links',
  'sign_in_failures',
  'password_reset_requests',
  'openapi_specs',
  'openapi_spec_versions',
  'translation_settings',
  'integrations',
  'integration_scripts',
  'integration_assets',
  'integration_installations',
  'integration_space_installations',
  'integration_site_installations',
] as const satisfies ReadonlyArray<keyof Database>;

export const DERIVED_TABLES = ['search_sections', 'search_state', 'page_documents'] as const satisfies ReadonlyArray<keyof Database>;

type CopiedTable = (typeof COPIED_TABLES)[number];
type Row = Record<string, unknown>;

/** Rows per read and per insert: well under both engines' limits on bound parameters. */
const BATCH = 100;

export class CopyRefused extends Error {}

/** The primary key's columns, in key order: the copy reads each table in that order, a batch at a time. */
async function primaryKeyOf(db: Kysely<Database> | Transaction<Database>, table: string): Promise<string[]> {
  if (engineOf(db) === 'postgres') {
    const { rows } = await sql<{ column: string }>`
      select a.attname as column from pg_index i
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = to_regclass(${table}) and i.indisprimary
      order by array_position(i.indkey, a.attnum)`.execute(db);
    return rows.map((row) => row.column);
  }
  const { rows } = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(db);
  return rows.filter((row) => row.pk > 0).sort((a, b) => a.pk - b.pk).map((row) => row.name);
}

async function readBatch(db: Transaction<Database>, table: string, key: string[], after: Row | undefined): Promise<Row[]> {
  const columns = sql.join(key.map((column) => sql.ref(column)));
  const where = after ? sql`where (${columns}) > (${sql.join(key.map((column) => after[column]))})` : sql``;
  const { rows } = await sql<Row>`select * from ${sql.table(table)} ${where} order by ${columns} limit ${BATCH}`.execute(db);
  return rows;
}

async function countRows(db: Kysely<Database> | Transaction<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0].n);
}

export interface CopyProgress {
  table: CopiedTable;
  rows: number;
}

/**
 * Copies every row of `source` into `target`, which must be migrated to the same
 * schema and hold no users yet. Answers the rows copied per table, each checked
 * against a count of the target's rows before the transaction commits.
 */
export async function copyInstance(
  source: Kysely<Database>,
  target: Kysely<Database>,
  onTable: (progress: CopyProgress) => void = () => {},
): Promise<CopyProgress[]> {
  if ((await countRows(target, 'users')) > 0 || (await countRows(target, 'organizations')) > 0) {
    throw new CopyRefused('the target already holds an instance; copy only into an empty database');
  }
  const snapshot = source.transaction();
  const reader = engineOf(source) === 'postgres' ? snapshot.setIsolationLevel('repeatable read') : snapshot;
  return reader.execute((from) =>
    target.transaction().execute(async (to) => {
      const copied: CopyProgress[] = [];
      for (const table of COPIED_TABLES) {
        const key = await primaryKeyOf(from, table);
        if (key.length === 0) throw new Error(`table ${table} has no primary key to read it in order by`);
        let rows = 0;
        for (let batch = await readBatch(from, table, key, undefined); batch.length > 0; ) {
          // A job a process was running in the source is due again at once in the target.
          const values = table === 'jobs' ? batch.map((row) => ({ ...row, locked_until: null })) : batch;
          // Objects are stored by hash, and migrations store the empty tree: a hash both hold is the same object.
          const insert = to.insertInto(table).values(values as never);
          await (table === 'content_objects' ? insert.onConflict((conflict) => conflict.column('hash').doNothing()) : insert).execute();
          rows += batch.length;
          batch = batch.length < BATCH ? [] : await readBatch(from, table, key, batch[batch.length - 1]);
        }
        const landed = await countRows(to, table);
        if (table === 'content_objects' ? landed < rows : landed !== rows) {
          throw new Error(`table ${table}: ${rows} rows read but ${landed} in the target`);
        }
        copied.push({ table, rows });
        onTable({ table, rows });
      }
      return copied;
    }),
  );
}
