// The version of the conversion (DOCUMENT_CONVERSION, content/gitbook/conversion.ts)
// that made each stored page document, and each space's search index. Both are derived
// from markdown alone, and were kept by what they were made from only, so a Quire that
// reads some markdown better kept serving what an earlier one had made of it: a page's
// document until the page changed, a space's index until a full reindex. What was made
// before is of no known version (0): a document is made again when first read, and the
// start's catch-up indexes such a space anew.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table page_documents add column conversion integer not null default 0`.execute(db);
  await sql`alter table search_state add column conversion integer not null default 0`.execute(db);
}
