// The version of the conversion that made each stored page document
// (DOCUMENT_CONVERSION, content/gitbook/conversion.ts). A document is derived from
// its markdown alone, so it was stored by the markdown's hash only, and a Quire that
// reads some markdown better kept serving what an earlier one had made of it, until the
// page changed. Documents stored before are of no known version (0): each is made again
// when first read.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table page_documents add column conversion integer not null default 0`.execute(db);
}

