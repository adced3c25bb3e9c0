// The organization and the space become part of the full-text match. Until now the
// index matched across every organization and filtered after, so a common word cost
// in proportion to every organization's pages. Each section now carries its space's
// organization. PostgreSQL: lexemes of the tsvectors ('o:<id>', 's:<id>'). SQLite:
// each organization's sections move to its own range of ids (fullText.ts), which a
// match seeks to, and the space id becomes an FTS5 column. The index is rebuilt from
// the rows already there: nothing is parsed again, and search stays whole across the
// upgrade.
import { sql, type Kysely } from 'kysely';
import { engineOf } from '../dialect.ts';
import { sectionIdRange } from '../fullText.ts';

const TOKENIZER = 'porter unicode61 remove_diacritics 2';

export async function up(db: Kysely<unknown>): Promise<void> {
  const addOrganization = async () => {
    await sql`alter table search_sections add column organization_id text not null default ''`.execute(db);
    await sql`update search_sections set organization_id = (select s.organization_id from spaces s where s.id = search_sections.space_id)`.execute(db);
  };
  if (engineOf(db) === 'postgres') {
    // The vectors go first, so that filling the new column does not compute them for every row.
    await sql`alter table search_sections drop column title_document, drop column document`.execute(db);
    await addOrganization();
    await sql`alter table search_sections alter column organization_id drop default`.execute(db);
    const scope = sql`array_to_tsvector(array['o:' || organization_id, 's:' || space_id])`;
    await sql`alter table search_sections
      add column title_document tsvector generated always as (
        setweight(to_tsvector('english', page_title), 'A') || setweight(to_tsvector('english', heading), 'B') || ${scope}
      ) stored,
      add column document tsvector generated always as (
        setweight(to_tsvector('english', page_title), 'A') ||
        setweight(to_tsvector('english', heading), 'B') ||
        setweight(to_tsvector('english', body), 'D') || ${scope}
      ) stored`.execute(db);
    await sql`create index search_sections_title_document on search_sections using gin (title_document)`.execute(db);
    await sql`create index search_sections_document on search_sections using gin (document)`.execute(db);
    return;
  }
  await addOrganization();
  await sql`drop trigger search_sections_insert`.execute(db);
  await sql`drop trigger search_sections_delete`.execute(db);
  await sql`drop table search_fts`.execute(db);
  // Ids so far count from 1, below every range: adding the range's first id keeps them apart and in order.
  const organizations = await sql<{ organization_id: string }>`select distinct organization_id from search_sections`.execute(db);
  for (const { organization_id } of organizations.rows) {
    await sql`update search_sections set id = id + ${sectionIdRange(organization_id).first} where organization_id = ${organization_id}`.execute(db);
  }
  await sql`create virtual table search_fts using fts5(
    page_title, heading, body, space_id,
    content='search_sections', content_rowid='id', tokenize=${sql.lit(TOKENIZER)}
  )`.execute(db);
  const values = (row: 'new' | 'old') => sql.raw(`${row}.id, ${row}.page_title, ${row}.heading, ${row}.body, ${row}.space_id`);
  const remove = sql`insert into search_fts (search_fts, rowid, page_title, heading, body, space_id) values ('delete', ${values('old')});`;
  const add = sql`insert into search_fts (rowid, page_title, heading, body, space_id) values (${values('new')});`;
  await sql`create trigger search_sections_insert after insert on search_sections begin ${add} end`.execute(db);
  await sql`create trigger search_sections_delete after delete on search_sections begin ${remove} end`.execute(db);
  // A space moved to another organization moves its sections to that organization's range.
  await sql`create trigger search_sections_update after update on search_sections begin ${remove} ${add} end`.execute(db);
  await sql`insert into search_fts (search_fts) values ('rebuild')`.execute(db);
}
