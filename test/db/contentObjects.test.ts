// The database object store keeps the content library's promises on both engines.
import { describe, expect, it } from 'vitest';
import { applyChanges, type PageChange } from '../../src/content/changes.ts';
import { hashOf } from '../../src/content/objects.ts';
import { readTree, writeTree } from '../../src/content/tree.ts';
import { sameTree } from '../../src/content/merge.ts';
import { databaseObjectStore } from '../../src/db/repos/contentObjects.ts';
import { treeOf } from '../../src/services/revisionContent.ts';
import { useTestDatabase } from '../helpers/app.ts';

const opened = useTestDatabase();

describe('the database object store', () => {
  it('reads back a large tree written to it, and stores each object once', async () => {
    const store = databaseObjectStore(opened.database.db);
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
    const root = await writeTree(store, tree);
    const count = async () =>
      Number((await opened.database.db.selectFrom('content_objects').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const stored = await count();
    expect(sameTree(await readTree(store, root), tree)).toBe(true);
    await writeTree(store, tree);
    expect(await count()).toBe(stored);
    const edited = applyChanges(tree, [{ kind: 'update', id: 'page45', meta: { title: 'Edited' } }]);
    const rewritten = await writeTree(store, edited, [tree]);
    expect(await count()).toBe(stored + 4);
    expect((await readTree(store, rewritten)).get('page45')!.meta.title).toBe('Edited');
  });

  it('lets a transaction read a tree that a request outside it is reading already, rather than wait for itself', { timeout: 10_000 }, async () => {
    const store = databaseObjectStore(opened.database.db);
    const changes: PageChange[] = Array.from({ length: 2000 }, (_, i) => ({
      kind: 'insert' as const,
      id: `shared${i}`,
      placement: { parentId: i < 50 ? null : `shared${Math.floor(i / 50) - 1}` },
      meta: { title: `Shared ${i}`, slug: `shared-${i}`, type: 'document' as const },
      blob: hashOf(`# Shared ${i}`),
    }));
    const root = await writeTree(store, applyChanges(new Map(), changes));
    // On SQLite the transaction holds the one connection: the read outside cannot go on until it ends.
    const outside = treeOf(opened.database.db, root);
    const inside = await opened.database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('content_objects').select('hash').limit(1).execute();
      return treeOf(trx, root);
    });
    expect(inside.size).toBe(2000);
    expect((await outside).size).toBe(2000);
  });
});
