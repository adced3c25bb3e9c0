// Pages' documents, by the hash of their markdown (services/pageDocuments.ts).
import type { Db, PageDocumentRow } from '../schema.ts';

export function findPageDocument(db: Db, hash: string): Promise<PageDocumentRow | undefined> {
  return db.selectFrom('page_documents').selectAll().where('hash', '=', hash).executeTakeFirst();
}

/** Which of these hashes have a document stored. */
export async function storedDocumentHashes(db: Db, hashes: string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let start = 0; start < hashes.length; start += 500) {
    const rows = await db.selectFrom('page_documents').select('hash').where('hash', 'in', hashes.slice(start, start + 500)).execute();
    for (const row of rows) stored.add(row.hash);
  }
  return stored;
}

/** Stores a document; one stored already for the same content (by another process) stays. */
export async function insertPageDocument(db: Db, row: PageDocumentRow): Promise<void> {
  await db.insertInto('page_documents').values(row).onConflict((conflict) => conflict.column('hash').doNothing()).execute();
}
