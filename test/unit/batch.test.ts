// A batch of edits to a change request's content, applied in memory by the content
// library (src/content/batch.ts), and stored and read back through the in-memory object
// store: front matter and headings as Git Sync reads them, refs between the batch's new
// pages and files, reverts, reusable contents written, and a whole batch refused for one
// invalid change.
import { describe, expect, it } from 'vitest';
import { applyBatch, InvalidChange, type BatchOutcome, type ContentChangeInput, type FetchedFile, type FileInput } from '../../src/content/batch.ts';
import type { FileEntry } from '../../src/content/files.ts';
import type { ReusableEntry } from '../../src/content/reusables.ts';
import { MemoryObjectStore, type Hash } from '../../src/content/objects.ts';
import { readDocument } from '../../src/content/pageFields.ts';
import { pagePath, readTree, writeTree, type FlatTree } from '../../src/content/tree.ts';

const NOW = '2026-01-02T03:04:05.000Z';

interface Applied {
  tree: FlatTree;
  outcome: BatchOutcome;
  blobs: Map<Hash, string>;
  files: FileEntry[];
  reusables: ReusableEntry[];
}

function apply(
  base: FlatTree,
  changes: ContentChangeInput[],
  options: { written?: Map<object, string>; fetched?: Map<FileInput, FetchedFile>; revertTargets?: Map<string, FlatTree>; files?: FileEntry[]; reusables?: ReusableEntry[] } = {},
): Applied {
  const blobs = new Map<Hash, string>();
  const files = options.files ?? [];
  const reusables = options.reusables ?? [];
  const { tree, outcome } = applyBatch(options.written ?? new Map(), options.fetched ?? new Map(), base, changes, NOW, blobs, options.revertTargets ?? new Map(), files, reusables);
  return { tree, outcome, blobs, files, reusables };
}

/** Stores what a batch made, as the service does, and reads the tree back. */
async function storedAndRead(applied: Applied, store = new MemoryObjectStore()): Promise<{ tree: FlatTree; store: MemoryObjectStore }> {
  await store.put(applied.blobs);
  const root = await writeTree(store, applied.tree);
  return { tree: await readTree(store, root), store };
}

const titles = (tree: FlatTree) => [...tree.values()].map((page) => page.meta.title).sort();
const markdownOf = async (store: MemoryObjectStore, tree: FlatTree, title: string) => {
  const page = [...tree.values()].find((candidate) => candidate.meta.title === title)!;
  return (await store.get([page.blob!])).get(page.blob!);
};

describe('a batch of edits', () => {
  it("reads a document's front matter and leading heading as Git Sync does, and stores the body without them", async () => {
    const applied = apply(new Map(), [
      { operation: 'insert_page', document: '---\ndescription: All about it\nhidden: true\nif: visitor.claims.beta == true\n---\n# Getting started\n\nWelcome.' },
      { operation: 'insert_page', document: '---\ntitle: Named here\n---\n# Kept as content\n\nText.', title: 'Ignored' },
    ]);
    const { tree, store } = await storedAndRead(applied);
    const started = [...tree.values()].find((page) => page.meta.title === 'Getting started')!;
    expect(started.meta).toMatchObject({ type: 'document', slug: 'getting-started', description: 'All about it', hidden: true, if: 'visitor.claims.beta == true', createdAt: NOW, updatedAt: NOW });
    expect(await markdownOf(store, tree, 'Getting started')).toBe('Welcome.');
    // A title in the front matter wins, and the heading stays content.
    expect(await markdownOf(store, tree, 'Named here')).toContain('# Kept as content');
    expect([...applied.outcome.pages.values()]).toEqual([{ object: 'created_page' }, { object: 'created_page' }]);
  });

  it('refuses front matter of the wrong type, saying where', () => {
    expect(() => readDocument('---\nhidden: "yes"\n---\nBody', 'changes[0]')).toThrow(new InvalidChange('changes[0].document: front matter "hidden" must be a boolean'));
    expect(() => readDocument('---\nif: 3\n---\nBody', 'changes[1]')).toThrow(new InvalidChange('changes[1].document: front matter "if" must be a string'));
  });

  it("links the batch's new pages and files by their refs, before either is inserted, and gives sibling pages free slugs", async () => {
    const file: FileInput = { name: 'diagram.png', base64: Buffer.from('not really a png').toString('base64'), contentType: 'image/png', ref: 'diagram' };
    const applied = apply(new Map(), [
      { operation: 'insert_page', ref: 'intro', document: '# Intro\n\nSee [the guide](./guide.md) and ![a diagram](./diagram).' },
      { operation: 'insert_page', ref: 'guide', document: '# Guide\n\nBack to [the intro](/pages/intro).' },
      { operation: 'insert_page', document: '# Guide\n\nA second page of the same title.', into: 'guide' },
      { operation: 'insert_page', document: '# Guide\n\nA third.' },
      { operation: 'insert_files', files: [file] },
    ]);
    const { tree, store } = await storedAndRead(applied);
    const [intro, guide] = ['intro', 'guide'].map((ref) => [...applied.outcome.pages].find(([, page]) => page.ref === ref)![0]);
    const fileId = applied.outcome.insertedFiles[0].id;
    expect(await markdownOf(store, tree, 'Intro')).toBe(`See [the guide](/pages/${guide}) and ![a diagram](/files/${fileId}).`);
    expect(applied.files).toEqual([{ id: fileId, name: 'diagram.png', contentType: 'image/png', size: 16, blob: expect.any(String) }]);
    expect(applied.blobs.get(applied.files[0].blob)).toBe(file.base64);
    expect([...tree.values()].filter((page) => page.parentId === null).map((page) => page.meta.slug).sort()).toEqual(['guide', 'guide-2', 'intro']);
    expect(pagePath(tree, [...tree.values()].find((page) => page.parentId === guide)!.id)).toBe('guide/guide');
    expect(intro).toBeDefined();
  });

  it('puts a page back as it was in an earlier tree, and takes out one that was not there', () => {
    const first = apply(new Map(), [{ operation: 'insert_page', ref: 'a', document: '# A\n\nFirst words.' }]);
    const pageId = [...first.tree.keys()][0];
    const edited = apply(first.tree, [
      { operation: 'update_page', page: pageId, document: '# A, renamed\n\nOther words.' },
      { operation: 'insert_page', ref: 'b', document: '# B' },
    ]);
    const added = [...edited.tree.keys()].find((id) => id !== pageId)!;
    const reverted = apply(edited.tree, [{ operation: 'revert_page', page: pageId }, { operation: 'revert_page', page: added }], { revertTargets: new Map([['', first.tree]]) });
    expect(titles(reverted.tree)).toEqual(['A']);
    expect(reverted.tree.get(pageId)!.blob).toBe(first.tree.get(pageId)!.blob);
    expect([...reverted.outcome.pages]).toEqual([[pageId, { object: 'updated_page' }], [added, { object: 'deleted_page' }]]);
  });

  it('counts a page made and removed in one batch as never there', () => {
    const applied = apply(new Map(), [{ operation: 'insert_page', ref: 'gone', document: '# Gone' }, { operation: 'delete_page', page: 'gone' }]);
    expect(applied.tree.size).toBe(0);
    expect(applied.outcome.pages.size).toBe(0);
  });

  it("writes reusable contents: a new one with its title, an existing one's blocks and title, a leading heading kept as content", () => {
    const reusables: ReusableEntry[] = [{ id: 'kept', title: 'Support', blob: 'old', file: 'support.md', frontMatter: 'title: Support\n' }];
    const applied = apply(new Map(), [
      { operation: 'insert_reusable_content', title: 'Warning', document: '# Careful\n\nBack up first.' },
      { operation: 'update_reusable_content', reusableContent: 'kept', document: '---\ntitle: Getting help\n---\nWrite to us.' },
    ], { reusables });
    const [support, warning] = [reusables[0]!, reusables[1]!];
    expect(warning).toMatchObject({ title: 'Warning' });
    expect(applied.blobs.get(warning.blob)).toBe('# Careful\n\nBack up first.');
    // Its file and front matter stay, for Git Sync to write it where it was.
    expect(support).toMatchObject({ id: 'kept', title: 'Getting help', file: 'support.md', frontMatter: 'title: Support\n' });
    expect(applied.blobs.get(support.blob)).toBe('Write to us.');
    expect([...applied.outcome.reusableContents]).toEqual([[warning.id, { object: 'created_reusable_content' }], ['kept', { object: 'updated_reusable_content' }]]);
    apply(new Map(), [{ operation: 'update_reusable_content', reusableContent: 'kept', title: 'Only the title' }], { reusables });
    expect(reusables[0]).toMatchObject({ title: 'Only the title', blob: support.blob });
  });

  it('refuses the whole batch for one invalid change, saying which, and leaves the tree it was given as it was', () => {
    const base = apply(new Map(), [{ operation: 'insert_page', document: '# Kept' }]).tree;
    const before = [...base.values()];
    const refusals: Array<[ContentChangeInput[], string]> = [
      [[{ operation: 'insert_page', document: '# Fine' }, { operation: 'update_page', page: 'missing', title: 'x' }], 'changes[1].page: no page "missing" in this change request'],
      [[{ operation: 'insert_page', type: 'link' }], 'changes[0].href: a link page needs the URL it links to'],
      [[{ operation: 'insert_page', type: 'link', href: 'javascript:alert(1)' }], 'changes[0].href: a link page leads to a relative path or a URL of'],
      [[{ operation: 'insert_page' }], 'changes[0].document is required for a document page'],
      [[{ operation: 'insert_page', ref: 'twice', document: 'a' }, { operation: 'insert_page', ref: 'twice', document: 'b' }], 'changes[1].ref: "twice" is used twice in this batch'],
      [[{ operation: 'insert_page', ref: 'kept', document: 'a' }], 'changes[0].ref: "kept" is the path of a page already there; choose another name'],
      [[{ operation: 'insert_page', document: '# A', into: 'nowhere' }], 'changes[0]: '],
      [[{ operation: 'insert_files', files: [{ name: 'big.bin', base64: Buffer.alloc(1024 * 1024 + 1).toString('base64') }] }], 'changes[0].files[0]: files are limited to 1 MB each'],
      [[{ operation: 'update_reusable_content', reusableContent: 'missing', title: 'x' }], 'changes[0].reusableContent: no reusable content "missing" in this change request'],
      [[{ operation: 'insert_reusable_content', title: ' ', document: 'Text.' }], "changes[0].title: a reusable content's title may not be empty"],
    ];
    for (const [changes, message] of refusals) {
      expect(() => apply(base, changes)).toThrow(InvalidChange);
      expect(() => apply(base, changes)).toThrow(message);
    }
    expect([...base.values()]).toEqual(before);
  });
});
