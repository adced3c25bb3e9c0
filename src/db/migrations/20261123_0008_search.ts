// The search index: one row per section of each page of each space's current
// revision, and which revision each space's rows come from. The full-text part is the
// engine's own: an FTS5 table kept by triggers on SQLite, a weighted tsvector column
// with a GIN index on PostgreSQL (queried in src/db/fullText.ts; reshaped by 0018).
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_state')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .execute();
  await createFullTextIndex(db);
}

async function createFullTextIndex(db: Kysely<unknown>): Promise<void> {
  const columns = sql`
    space_id text not null references spaces(id) on delete cascade,
    page_id text not null,
    section_index integer not null,
    anchor text not null,
    page_title text not null,
    page_path text not null,
    heading text not null,
    body text not null`;
  if (engineOf(db) === 'postgres') {
    await sql`create table search_sections (
      id bigserial primary key,
      ${columns},
      title_document tsvector generated always as (
        setweight(to_tsvector('english', page_title), 'A') || setweight(to_tsvector('english', heading), 'B')
      ) stored,
      document tsvector generated always as (
        setweight(to_tsvector('english', page_title), 'A') ||
        setweight(to_tsvector('english', heading), 'B') ||
        setweight(to_tsvector('english', body), 'D')
      ) stored
    )`.execute(db);
    await sql`create index search_sections_title_document on search_sections using gin (title_document)`.execute(db);
    await sql`create index search_sections_document on search_sections using gin (document)`.execute(db);
  } else {
    await sql`create table search_sections (id integer primary key, ${columns})`.execute(db);
    await sql`create virtual table search_fts using fts5(
      page_title, heading, body, content='search_sections', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
    )`.execute(db);
    await sql`create trigger search_sections_insert after insert on search_sections begin
      insert into search_fts (rowid, page_title, heading, body) values (new.id, new.page_title, new.heading, new.body);
    end`.execute(db);
    await sql`create trigger search_sections_delete after delete on search_sections begin
      insert into search_fts (search_fts, rowid, page_title, heading, body) values ('delete', old.id, old.page_title, old.heading, old.body);
    end`.execute(db);
  }
  await sql`create index search_sections_page on search_sections (space_id, page_id)`.execute(db);
}
