// The content library on its own: trees stored by hash, edits, and three-way merge,
// checked on examples and on random edit sequences (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChanges, type PageChange } from '../../src/content/changes.ts';
import { mergeText, mergeTrees, sameTree } from '../../src/content/merge.ts';
import { ContentError, MemoryObjectStore, hashOf } from '../../src/content/objects.ts';
import { mergeReusables } from '../../src/content/reusables.ts';
import { inReadingOrder, outlineOf, pagePath, readTree, shownToReaders, treeWithout, withinAny, writeTree, type FlatTree } from '../../src/content/tree.ts';

function blobStore(texts: Map<string, string>) {
  return async (hashes: string[]) => new Map(hashes.filter((h) => texts.has(h)).map((h) => [h, texts.get(h)!]));
}

function insert(id: string, parentId: string | null, text = `# ${id}`, index?: number): PageChange {
  return { kind: 'insert', id, placement: { parentId, index }, meta: { title: id, slug: id, type: 'document' }, blob: hashOf(text) };
}

/** Interprets random numbers as edits valid for the tree at hand. */
function randomEdits(tree: FlatTree, seeds: number[][], prefix: string, texts: Map<string, string>): FlatTree {
  let current = tree;
  seeds.forEach(([kind, a, b], step) => {
    const ids = [...current.keys()];
    const pick = (n: number) => (ids.length ? ids[n % ids.length] : null);
    let change: PageChange | undefined;
    const text = `${prefix}-${step}\nline ${a}\nline ${b}`;
    switch (kind % 5) {
      case 0:
        change = insert(`${prefix}${step}`, b % 3 === 0 ? null : pick(a), text, b % 4);
        texts.set(hashOf(text), text);
        break;
      case 1:
        if (pick(a)) change = { kind: 'update', id: pick(a)!, meta: { title: `title ${b}` } };
        break;
      case 2:
        if (pick(a)) {
          change = { kind: 'update', id: pick(a)!, blob: hashOf(text) };
          texts.set(hashOf(text), text);
        }
        break;
      case 3:
        if (pick(a)) change = { kind: 'update', id: pick(a)!, placement: { parentId: b % 2 ? null : pick(b), index: b % 3 } };
        break;
      case 4:
        if (pick(a) && ids.length > 3) change = { kind: 'delete', id: pick(a)! };
        break;
    }
    if (!change) return;
    try {
      current = applyChanges(current, [change]);
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
    }
  });
  return current;
}

function baseTree(texts: Map<string, string>): FlatTree {
  const changes = ['a', 'b', 'c', 'd', 'e'].map((id, index) => insert(id, index > 2 ? 'a' : null));
  for (const change of changes) if (change.kind === 'insert') texts.set(change.blob!, `# ${change.id}`);
  return applyChanges(new Map(), changes);
}

const editSeeds = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 25 });

describe('page trees stored by hash', () => {
  it('read back exactly what was written, for any sequence of edits', async () => {
    await fc.assert(
      fc.asyncProperty(editSeeds, async (seeds) => {
        const texts = new Map<string, string>();
        const tree = randomEdits(baseTree(texts), seeds, 'p', texts);
        const store = new MemoryObjectStore();
        expect(sameTree(await readTree(store, await writeTree(store, tree)), tree)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('writes a tree edited from others as writing it whole would: the same root, and the same objects stored', async () => {
    await fc.assert(
      fc.asyncProperty(editSeeds, editSeeds, async (firstSeeds, secondSeeds) => {
        const texts = new Map<string, string>();
        const base = baseTree(texts);
        const ours = randomEdits(base, firstSeeds, 'o', texts);
        const theirs = randomEdits(base, secondSeeds, 't', texts);
        const merged = randomEdits(ours, secondSeeds, 'm', texts);
        const fromBases = new MemoryObjectStore();
        const whole = new MemoryObjectStore();
        for (const store of [fromBases, whole]) for (const tree of [ours, theirs]) await writeTree(store, tree);
        const root = await writeTree(fromBases, merged, [ours, theirs]);
        expect(root).toBe(await writeTree(whole, merged));
        expect([...fromBases.objects.keys()].sort()).toEqual([...whole.objects.keys()].sort());
        expect(sameTree(await readTree(fromBases, root), merged)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('edit into a tree that holds the very objects of the pages the edit neither changed nor moved, and leaves the tree it was made from as it was', () => {
    const texts = new Map<string, string>();
    let base = baseTree(texts);
    for (let i = 0; i < 20; i++) base = applyChanges(base, [insert(`top${i}`, null)]);
    const before = new Map([...base].map(([id, page]) => [id, { ...page }]));
    const edited = applyChanges(base, [insert('new-last', null), { kind: 'update', id: 'top3', meta: { title: 'Renamed' } }, { kind: 'update', id: 'd', placement: { parentId: 'a', index: 1 } }]);
    const copied = [...edited.keys()].filter((id) => base.has(id) && edited.get(id) !== base.get(id)).sort();
    // top3's title changed; d and e swapped places under a.
    expect(copied).toEqual(['d', 'e', 'top3']);
    // The top level's new page at its start renumbers every page after it, and only those.
    const first = applyChanges(base, [insert('new-first', null, '# new', 0)]);
    expect([...first.values()].filter((page) => page.parentId === null && page.id !== 'new-first').every((page) => page !== base.get(page.id))).toBe(true);
    expect(['d', 'e'].every((id) => first.get(id) === base.get(id))).toBe(true);
    expect([...base].every(([id, page]) => JSON.stringify(page) === JSON.stringify(before.get(id)))).toBe(true);
  });

  it('read back holding the very page objects of a tree in memory where a page sits in the same place with the same metadata and markdown, and new objects for every page that differs in any of them', async () => {
    const texts = new Map<string, string>();
    const store = new MemoryObjectStore();
    const inMemory = baseTree(texts);
    const edited = applyChanges(inMemory, [
      { kind: 'update', id: 'b', meta: { title: 'B renamed' } },
      { kind: 'update', id: 'c', blob: hashOf('# c changed') },
      insert('first', 'a', '# first', 0),
    ]);
    const asked: string[] = [];
    const readBack = await readTree(store, await writeTree(store, edited), (first) => (asked.push(first.id), inMemory));
    expect(sameTree(readBack, edited)).toBe(true);
    expect(asked).toEqual(['a']);
    // a is unchanged; b's title, c's markdown and d's and e's positions (after the new first child of a) changed.
    const shared = [...readBack.keys()].filter((id) => readBack.get(id) === inMemory.get(id));
    expect(shared).toEqual(['a']);
    // Read back again beside the tree read back, every page is that tree's.
    const again = await readTree(store, await writeTree(store, edited), () => readBack);
    expect([...again.values()].every((page) => page === readBack.get(page.id))).toBe(true);
    // Without a tree alike, or with a tree of other pages, every page is new.
    const alone = await readTree(store, await writeTree(store, edited));
    expect([...alone.values()].some((page) => page === readBack.get(page.id))).toBe(false);
    const unrelated = await readTree(store, await writeTree(store, edited), () => new Map());
    expect([...unrelated.values()].some((page) => page === readBack.get(page.id))).toBe(false);
  });

  it('never store unchanged content twice: rewriting a tree adds nothing, one edit adds only its path', async () => {
    const texts = new Map<string, string>();
    const store = new MemoryObjectStore();
    let tree = baseTree(texts);
    for (let i = 0; i < 200; i++) tree = applyChanges(tree, [insert(`page${i}`, i % 2 ? 'a' : 'b')]);
    await writeTree(store, tree);
    const objects = store.objects.size;
    await writeTree(store, tree, [tree]);
    await writeTree(store, tree);
    expect(store.objects.size).toBe(objects);
    const edited = applyChanges(tree, [{ kind: 'update', id: 'page7', blob: hashOf('changed') }]);
    await writeTree(store, edited, [tree]);
    // The page node, its parent's node, and the two lists above them.
    expect(store.objects.size - objects).toBe(4);
  });

  it('gives a tree the root hash earlier versions of Quire stored for it, so stored content stays addressable', async () => {
    const tree = applyChanges(new Map(), [
      { kind: 'insert', id: 'intro', placement: { parentId: null }, meta: { type: 'document', title: 'Intro', slug: 'intro', emoji: '1f44b', layout: { width: 'wide', cover: false } }, blob: hashOf('# intro') },
      { kind: 'insert', id: 'guides', placement: { parentId: null }, meta: { title: 'Guides — “all” of them', slug: 'guides', type: 'group', hidden: true, description: undefined }, blob: null },
      insert('install', 'guides', '# Install\n\nRun it.'),
    ]);
    const root = await writeTree(new MemoryObjectStore(), tree);
    expect(root).toBe('f60445b1512df425d6e2fc62efe92d38f4b518c4e9c985ff5561c52fde522fd9');
  });

  it('computes paths from slugs and refuses slugs that clash among siblings', () => {
    const texts = new Map<string, string>();
    const tree = baseTree(texts);
    expect(pagePath(tree, 'd')).toBe('a/d');
    expect(() => applyChanges(tree, [insert('d2', 'a'), { kind: 'update', id: 'd2', meta: { slug: 'd' } }])).toThrow(/slug "d"/);
    expect(() => applyChanges(tree, [{ kind: 'update', id: 'a', placement: { parentId: 'd' } }])).toThrow(/into itself/);
    expect(() => applyChanges(tree, [insert('x', 'missing')])).toThrow(/no parent/);
    const withoutA = applyChanges(tree, [{ kind: 'delete', id: 'a' }]);
    expect([...withoutA.keys()].sort()).toEqual(['b', 'c']);
  });
});

describe('pages readers see', () => {
  it('decides for one page, from the tree or its outline, what reading order decides for all: a page under a hidden page is hidden too', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 40 }), (pages) => {
        const tree: FlatTree = applyChanges(
          new Map(),
          pages.map(([parent, hidden], index): PageChange => ({
            kind: 'insert',
            id: `p${index}`,
            placement: { parentId: index === 0 || parent % 3 === 0 ? null : `p${parent % index}` },
            meta: { title: `P${index}`, slug: `p${index}`, type: 'document', ...(hidden ? { hidden: true } : {}) },
            blob: null,
          })),
        );
        const shown = new Set(inReadingOrder(tree, { leaveOutHidden: true }).map((page) => page.id));
        const outline = outlineOf(tree);
        for (const id of tree.keys()) {
          expect(shownToReaders(tree, id), id).toBe(shown.has(id));
          expect(shownToReaders(outline, id), id).toBe(shown.has(id));
        }
        expect(shownToReaders(tree, 'absent')).toBe(false);
      }),
    );
  });

  it('leaves out the pages closed to a reader and everything under them, and nothing else, keeping the same tree when none is closed', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 40 }), (pages) => {
        const tree: FlatTree = applyChanges(
          new Map(),
          pages.map(([parent], index): PageChange => ({
            kind: 'insert',
            id: `p${index}`,
            placement: { parentId: index === 0 || parent % 3 === 0 ? null : `p${parent % index}` },
            meta: { title: `P${index}`, slug: `p${index}`, type: 'document' },
            blob: null,
          })),
        );
        const closed = new Set(pages.flatMap(([, isClosed], index) => (isClosed ? [`p${index}`] : [])));
        const read = treeWithout(tree, closed);
        if (closed.size === 0) expect(read).toBe(tree);
        for (const page of tree.values()) {
          let above: string | null = page.id;
          let underClosed = false;
          while (above !== null) {
            underClosed ||= closed.has(above);
            above = tree.get(above)!.parentId;
          }
          expect(read.has(page.id), page.id).toBe(!underClosed);
          expect(withinAny(outlineOf(tree), page.id, closed), page.id).toBe(underClosed);
          if (read.has(page.id)) expect(read.get(page.id)).toBe(page);
        }
      }),
    );
  });
});

describe('three-way merge', () => {
  it('reproduces a branch exactly when the other side did not change', async () => {
    await fc.assert(
      fc.asyncProperty(editSeeds, async (seeds) => {
        const texts = new Map<string, string>();
        const base = baseTree(texts);
        const branch = randomEdits(base, seeds, 'o', texts);
        const intoBase = await mergeTrees(base, branch, base, blobStore(texts));
        expect(intoBase.conflicts).toEqual([]);
        expect(sameTree(intoBase.tree, branch)).toBe(true);
        const fromBase = await mergeTrees(base, base, branch, blobStore(texts));
        expect(fromBase.conflicts).toEqual([]);
        expect(sameTree(fromBase.tree, branch)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('merges edits to different pages on both sides without conflict, keeping both', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 4 }), { maxLength: 6 }), fc.array(fc.nat({ max: 4 }), { maxLength: 6 }), async (oursPicks, theirsPicks) => {
        const texts = new Map<string, string>();
        const base = baseTree(texts);
        const ids = ['a', 'b', 'c', 'd', 'e'];
        const oursIds = [...new Set(oursPicks.map((i) => ids[i]))];
        const theirsIds = [...new Set(theirsPicks.map((i) => ids[i]))].filter((id) => !oursIds.includes(id));
        const edit = (tree: FlatTree, pageIds: string[], side: string) =>
          applyChanges(tree, [
            ...pageIds.map((id): PageChange => {
              const text = `${side} ${id}`;
              texts.set(hashOf(text), text);
              return { kind: 'update', id, blob: hashOf(text), meta: { title: `${side} ${id}` } };
            }),
            insert(`${side}-new`, side === 'ours' ? 'a' : null),
          ]);
        const ours = edit(base, oursIds, 'ours');
        const theirs = edit(base, theirsIds, 'theirs');
        const result = await mergeTrees(base, ours, theirs, blobStore(texts));
        expect(result.conflicts).toEqual([]);
        for (const id of oursIds) expect(result.tree.get(id)!.meta.title).toBe(`ours ${id}`);
        for (const id of theirsIds) expect(result.tree.get(id)!.meta.title).toBe(`theirs ${id}`);
        expect(result.tree.has('ours-new') && result.tree.has('theirs-new')).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('merges markdown line by line, and reports clashing lines as a content conflict', async () => {
    const texts = new Map<string, string>();
    const put = (text: string) => {
      texts.set(hashOf(text), text);
      return hashOf(text);
    };
    const baseText = 'one\ntwo\nthree\nfour\nfive';
    let base = applyChanges(new Map(), [insert('p', null)]);
    base = applyChanges(base, [{ kind: 'update', id: 'p', blob: put(baseText) }]);
    const ours = applyChanges(base, [{ kind: 'update', id: 'p', blob: put('ONE\ntwo\nthree\nfour\nfive') }]);
    const theirs = applyChanges(base, [{ kind: 'update', id: 'p', blob: put('one\ntwo\nthree\nfour\nFIVE') }]);
    const clean = await mergeTrees(base, ours, theirs, blobStore(texts));
    expect(clean.conflicts).toEqual([]);
    expect(clean.blobs.get(clean.tree.get('p')!.blob!)).toBe('ONE\ntwo\nthree\nfour\nFIVE');
    const clashing = applyChanges(base, [{ kind: 'update', id: 'p', blob: put('uno\ntwo\nthree\nfour\nfive') }]);
    const conflict = await mergeTrees(base, ours, clashing, blobStore(texts));
    expect(conflict.conflicts).toEqual([
      { pageId: 'p', kind: 'content', regions: [{ ours: { start: 1, count: 1 }, base: { start: 1, count: 1 }, theirs: { start: 1, count: 1 } }] },
    ]);
  });

  it('merges text as diff3 does, for any edits: one side\'s changes are taken, both sides\' changes to separate lines are combined', () => {
    const lineArb = fc.constantFrom('', 'alpha', 'beta', '```', '- item', '# Title');
    const editsArb = fc.array(fc.tuple(fc.nat(), fc.constantFrom('replace', 'insert', 'delete'), lineArb), { maxLength: 4 });
    const applyEdits = (lines: string[], edits: Array<[number, string, string]>) => {
      const result = [...lines];
      for (const [at, kind, line] of edits) {
        const index = result.length === 0 ? 0 : at % result.length;
        if (kind === 'replace' && result.length > 0) result[index] = `${line} changed`;
        else if (kind === 'insert') result.splice(index, 0, `${line} added`);
        else if (kind === 'delete') result.splice(index, 1);
      }
      return result;
    };
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), editsArb, (lines, edits) => {
        const base = lines.join('\n');
        const changed = applyEdits(lines, edits).join('\n');
        expect(mergeText(base, changed, base)).toEqual({ text: changed });
        expect(mergeText(base, base, changed)).toEqual({ text: changed });
        expect(mergeText(base, changed, changed)).toEqual({ text: changed });
      }),
    );
    const base = Array.from({ length: 40 }, (_, index) => `line ${index}`);
    const ours = [...base];
    ours[3] = 'ours';
    const theirs = [...base];
    theirs.splice(30, 2, 'theirs');
    const expected = [...ours];
    expected.splice(30, 2, 'theirs');
    expect(mergeText(base.join('\n'), ours.join('\n'), theirs.join('\n'))).toEqual({ text: expected.join('\n') });
  });

  it('merges pages of a hundred thousand lines, edited near both ends, with the lines they clash on named', () => {
    const base = Array.from({ length: 100_000 }, (_, index) => (index % 3 === 0 ? '' : `line ${index}`));
    const ours = [...base];
    ours[5] = 'ours near the start';
    const theirs = [...base];
    theirs[99_990] = 'theirs near the end';
    const merged = mergeText(base.join('\n'), ours.join('\n'), theirs.join('\n'));
    const expected = [...ours];
    expected[99_990] = 'theirs near the end';
    expect(merged).toEqual({ text: expected.join('\n') });
    const clashing = [...theirs];
    clashing[5] = 'theirs too';
    expect(mergeText(base.join('\n'), ours.join('\n'), clashing.join('\n'))).toEqual({
      regions: [{ ours: { start: 6, count: 1 }, base: { start: 6, count: 1 }, theirs: { start: 6, count: 1 } }],
    });
  });

  it('reports edited-and-deleted, moved-to-two-places, metadata and cycle conflicts', async () => {
    const texts = new Map<string, string>();
    const base = baseTree(texts);
    const edited = applyChanges(base, [{ kind: 'update', id: 'b', meta: { title: 'kept' } }]);
    const deleted = applyChanges(base, [{ kind: 'delete', id: 'b' }]);
    expect((await mergeTrees(base, edited, deleted, blobStore(texts))).conflicts.map((c) => c.kind)).toEqual(['edited-and-deleted']);
    const underB = applyChanges(base, [{ kind: 'update', id: 'c', placement: { parentId: 'b' } }]);
    const underA = applyChanges(base, [{ kind: 'update', id: 'c', placement: { parentId: 'a' } }]);
    expect((await mergeTrees(base, underB, underA, blobStore(texts))).conflicts.map((c) => c.kind)).toEqual(['moved-to-two-places']);
    const titled = applyChanges(base, [{ kind: 'update', id: 'c', meta: { title: 'other' } }]);
    const mine = applyChanges(base, [{ kind: 'update', id: 'c', meta: { title: 'mine' } }]);
    expect((await mergeTrees(base, mine, titled, blobStore(texts))).conflicts).toEqual([
      { pageId: 'c', kind: 'metadata', field: 'title' },
    ]);
    const bUnderC = applyChanges(base, [{ kind: 'update', id: 'b', placement: { parentId: 'c' } }]);
    const cUnderB = applyChanges(base, [{ kind: 'update', id: 'c', placement: { parentId: 'b' } }]);
    expect((await mergeTrees(base, bUnderC, cUnderB, blobStore(texts))).conflicts.map((c) => c.kind)).toContain('move-cycle');
  });

  it('merges reusable contents as pages merge: one side\'s edits are taken, both sides\' edits to separate lines combine, and clashes are conflicts', async () => {
    const texts = new Map<string, string>();
    const entry = (id: string, title: string, text: string) => (texts.set(hashOf(text), text), { id, title, blob: hashOf(text) });
    const base = [entry('a', 'Support', 'one\ntwo\nthree'), entry('b', 'Legal', 'terms'), entry('c', 'Gone', 'old')];
    const ours = [entry('a', 'Support', 'ONE\ntwo\nthree'), entry('b', 'Legal notice', 'terms'), entry('n', 'New', 'new')];
    const theirs = [entry('a', 'Support', 'one\ntwo\nTHREE'), entry('b', 'Legal', 'terms, revised'), entry('c', 'Gone', 'old')];
    const merged = await mergeReusables(base, ours, theirs, blobStore(texts));
    expect(merged.conflicts).toEqual([]);
    const byId = new Map(merged.reusables.map((reusable) => [reusable.id, reusable]));
    expect([...byId.keys()].sort()).toEqual(['a', 'b', 'n']);
    expect(merged.blobs.get(byId.get('a')!.blob)).toBe('ONE\ntwo\nTHREE');
    expect(byId.get('b')).toEqual({ id: 'b', title: 'Legal notice', blob: hashOf('terms, revised') });

    // Ours rewords a's first line and deletes b; theirs rewords the same line, renames a and edits b.
    const clashing = await mergeReusables(base, [entry('a', 'Support', 'uno\ntwo\nthree')], [entry('a', 'Help', 'eins\ntwo\nthree'), entry('b', 'Legal', 'changed')], blobStore(texts));
    expect(clashing.conflicts).toEqual([
      { reusableContentId: 'a', kind: 'content', regions: [{ ours: { start: 1, count: 1 }, base: { start: 1, count: 1 }, theirs: { start: 1, count: 1 } }] },
      { reusableContentId: 'b', kind: 'edited-and-deleted' },
    ]);
  });
});
