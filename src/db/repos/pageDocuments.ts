// Pages' documents, by the hash of their markdown and the version of the conversion
// that made them (services/pageDocuments.ts).
import type { Db, PageDocumentRow } from '../schema.ts';

/** The document this conversion made of the content, if stored. */
export function findPageDocument(db: Db, hash: string, conversion: number): Promise<PageDocumentRow | undefined> {
  return db.selectFrom('page_documents').selectAll().where('hash', '=', hash).where('conversion', '=', conversion).executeTakeFirst();
}

/** Which of these hashes have a document stored by this conversion. */
export async function storedDocumentHashes(db: Db, hashes: string[], conversion: number): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let start = 0; start < hashes.length; start += 500) {
    const rows = await db
      .selectFrom('page_documents')
      .select('hash')
      .where('hash', 'in', hashes.slice(start, start + 500))
      .where('conversion', '=', conversion)
      .execute();
    for (const row of rows) stored.add(row.hash);
  }
  return stored;
}

/**
 * Stores a document in place of one an earlier conversion made of the same content; one
 * stored already by the same or a later conversion (another process, during an upgrade) stays.
 */
export async function insertPageDocument(db: Db, row: PageDocumentRow): Promise<void> {
  await db
    .insertInto('page_documents')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .column('hash')
        .doUpdateSet((insert) => ({ document: insert.ref('excluded.document'), conversion: insert.ref('excluded.conversion'), created_at: insert.ref('excluded.created_at') }))
        .where('page_documents.conversion', '<', (insert) => insert.ref('excluded.conversion')),
    )
    .execute();
}
