// The database object store keeps the content library's promises on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChanges, type PageChange } from '../../src/content/changes.ts';
import { hashOf } from '../../src/content/objects.ts';
import { readTree, writeTree } from '../../src/content/tree.ts';
import { sameTree } from '../../src/content/merge.ts';
import { databaseObjectStore } from '../../src/db/repos/contentObjects.ts';
import type { DatabaseHandle } from '../../src/db/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = await database.open();
});

afterAll(async () => {
  await handle.close();
  await database.drop();
});

describe('the database object store', () => {
  it('reads back a large tree written to it, and stores each object once', async () => {
    const store = databaseObjectStore(handle.db);
    const changes: PageChange[] = [];
    for (let i = 0; i < 1200; i++) {
      changes.push({
        kind: 'insert',
        id: `page${i}`,
        placement: { parentId: i < 30 ? null : `page${i % 30}` },
        meta: { title: `Page ${i}`, slug: `page-${i}`, type: 'document' },
        blob: hashOf(`# Page ${i}`),
      });
    }
    const tree = applyChanges(new Map(), changes);
    const written = await writeTree(store, tree);
    const count = async () =>
      Number((await handle.db.selectFrom('content_objects').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const stored = await count();
    expect(sameTree((await readTree(store, written.root)).tree, tree)).toBe(true);
    await writeTree(store, tree);
    expect(await count()).toBe(stored);
    const edited = applyChanges(tree, [{ kind: 'update', id: 'page45', meta: { title: 'Edited' } }]);
    const rewritten = await writeTree(store, edited, written.objects);
    expect(await count()).toBe(stored + 4);
    expect((await readTree(store, rewritten.root)).tree.get('page45')!.meta.title).toBe('Edited');
  });
});
