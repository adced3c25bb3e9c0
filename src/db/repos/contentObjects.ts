// The revision store's objects in the database: the content library's ObjectStore.
import type { Hash, ObjectStore } from '../../content/objects.ts';
import { preparedQuery } from '../prepared.ts';
import type { Db } from '../schema.ts';

/** Statements stay within both engines' parameter limits. */
const BATCH = 500;

/** One object: what a page read asks for (its markdown, the revision's file list). */
const objectQuery = preparedQuery<'hash', { data: string }>((db, param) =>
  db.selectFrom('content_objects').select('data').where('hash', '=', param('hash')),
);

export function databaseObjectStore(db: Db): ObjectStore {
  return {
    async get(hashes) {
      const found = new Map<Hash, string>();
      if (hashes.length === 1) {
        const [row] = await objectQuery(db, { hash: hashes[0] });
        if (row) found.set(hashes[0], row.data);
        return found;
      }
      for (let start = 0; start < hashes.length; start += BATCH) {
        const rows = await db
          .selectFrom('content_objects')
          .select(['hash', 'data'])
          .where('hash', 'in', hashes.slice(start, start + BATCH))
          .execute();
        for (const row of rows) found.set(row.hash, row.data);
      }
      return found;
    },
    async put(objects) {
      const rows = [...objects].map(([hash, data]) => ({ hash, data }));
      for (let start = 0; start < rows.length; start += BATCH) {
        await db
          .insertInto('content_objects')
          .values(rows.slice(start, start + BATCH))
          .onConflict((conflict) => conflict.column('hash').doNothing())
          .execute();
      }
    },
  };
}

/** The length in characters of each stored object, without reading it. */
export async function objectSizes(db: Db, hashes: Hash[]): Promise<Map<Hash, number>> {
  const sizes = new Map<Hash, number>();
  for (let start = 0; start < hashes.length; start += BATCH) {
    const rows = await db
      .selectFrom('content_objects')
      .select((eb) => ['hash', eb.fn<number | string>('length', ['data']).as('size')])
      .where('hash', 'in', hashes.slice(start, start + BATCH))
      .execute();
    for (const row of rows) sizes.set(row.hash, Number(row.size));
  }
  return sizes;
}
