// A repository in GitBook's format as a space's content and back, on the in-memory
// object store: what an import makes of a small repository, what it reuses of the last
// sync's, and the files an export writes.
import { describe, expect, it } from 'vitest';
import { writeAsRepository } from '../../src/content/gitbook/exportedContent.ts';
import { baselineOf, importedContent, type ImportedContent, type SyncedBlob } from '../../src/content/gitbook/importedContent.ts';
import { readRepository } from '../../src/content/gitbook/repository.ts';
import { hashOf, MemoryObjectStore } from '../../src/content/objects.ts';
import type { FlatTree } from '../../src/content/tree.ts';

const NOW = '2026-12-06T08:00:00.000Z';
const LOGO = Buffer.from('not really a png');

const files: Record<string, string | Buffer> = {
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
  'README.md': '# Home\n\nSee [the guide](guide/) and ![logo](.gitbook/assets/logo.png).\n',
  'guide/README.md': '---\ndescription: How to\n---\n\n# Guide\n\nBack [home](../).\n',
  'guide/setup.md': '# Setup\n\n{% include "../.gitbook/includes/note.md" %}\n',
  '.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nA note.\n',
  '.gitbook/assets/logo.png': LOGO,
};
const source = { paths: Object.keys(files), read: async (path: string) => Buffer.from(files[path]) };

async function imported(store: MemoryObjectStore, baseline = baselineOf('r0', { tree: new Map(), files: [], reusables: [] }, undefined, ''), oids: Record<string, string> = {}, reads: string[] = []) {
  const repository = await readRepository(source);
  const readDocsFile = async (path: string) => (reads.push(path), path in files ? Buffer.from(files[path]) : undefined);
  return importedContent(store, NOW, repository, readDocsFile, (path) => oids[path], baseline);
}

const idAt = (content: ImportedContent, path: string) => Object.entries(content.pagePaths).find(([, [at]]) => at === path)![0];
const blobsOf = (tree: FlatTree) => new Map([...tree].map(([id, page]) => [id, page.blob]));
const synced = (paths: Record<string, [string, string]>, oids: Record<string, string>): Record<string, SyncedBlob> => Object.fromEntries(Object.entries(paths).map(([id, [path]]) => [id, [path, oids[path]]]));

describe('a GitBook repository as content', () => {
  it('makes pages from SUMMARY.md, links into references, front matter into fields, and stores the files it reads', async () => {
    const store = new MemoryObjectStore();
    const content = await imported(store);
    expect([...content.tree.values()].map((page) => [page.meta.title, page.meta.slug, page.parentId && content.tree.get(page.parentId)!.meta.title])).toEqual([
      ['Home', 'home', null],
      ['Guide', 'guide', null],
      ['Setup', 'setup', 'Guide'],
    ]);
    const [home, guide] = [idAt(content, 'README.md'), idAt(content, 'guide/README.md')];
    const [logo] = content.files;
    expect(logo).toMatchObject({ name: 'logo.png', size: LOGO.length, blob: hashOf(LOGO.toString('base64')) });
    expect(store.objects.get(logo.blob)).toBe(LOGO.toString('base64'));
    expect(content.blobs.get(content.tree.get(home)!.blob!)).toContain(`/pages/${guide}`);
    expect(content.blobs.get(content.tree.get(home)!.blob!)).toContain(`/files/${logo.id}`);
    expect(content.tree.get(guide)!.meta).toMatchObject({ description: 'How to', createdAt: NOW, updatedAt: NOW });
    const [note] = content.reusables;
    expect(note).toMatchObject({ title: 'Note', file: 'note.md' });
    expect(content.blobs.get(content.tree.get(idAt(content, 'guide/setup.md'))!.blob!)).toContain(note.id);
    expect(content.warnings).toEqual([]);
  });

  it('keeps ids where paths stay, and reuses what it made of a page or an asset whose blob is the last sync’s', async () => {
    const store = new MemoryObjectStore();
    const first = await imported(store);
    await store.put(first.blobs);
    const oids = Object.fromEntries(Object.keys(files).map((path) => [path, `oid-${path}`]));
    // The stored markdown of Home says something its file does not: reused, it shows.
    const home = idAt(first, 'README.md');
    const stored = `Stored, with [a link](/pages/${idAt(first, 'guide/README.md')}).`;
    await store.put(new Map([[hashOf(stored), stored]]));
    const tree: FlatTree = new Map([...first.tree].map(([id, page]) => [id, id === home ? { ...page, blob: hashOf(stored) } : page]));
    const paths = { pages: synced(first.pagePaths, oids), files: synced(first.filePaths, oids), reusables: synced(first.reusablePaths, oids) };
    const baseline = baselineOf('r1', { tree, files: first.files, reusables: first.reusables }, paths, '');

    const reads: string[] = [];
    const again = await imported(store, baseline, oids, reads);
    expect([...again.tree.keys()]).toEqual([...first.tree.keys()]);
    expect(again.tree.get(home)!.blob).toBe(hashOf(stored));
    expect(again.files).toEqual(first.files);
    expect(reads).not.toContain('.gitbook/assets/logo.png');

    // Another blob: the page is converted from its file again, and keeps its id.
    const changed = await imported(store, baseline, { ...oids, 'README.md': 'another' });
    expect(blobsOf(changed.tree).get(home)).toBe(blobsOf(first.tree).get(home));
  });

  it('writes each page where GitBook puts it, links relative, files in .gitbook/assets and SUMMARY.md', async () => {
    const store = new MemoryObjectStore();
    const content = await imported(store);
    await store.put(content.blobs);
    const written = new Map<string, string>();
    const config = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] };
    const write = async (path: string, bytes: Buffer) => void written.set(path, bytes.toString());
    const layout = await writeAsRepository(store, content, config, { pages: new Map(), reusables: new Map() }, new Map(), write);
    expect([...written.keys()].sort()).toEqual(['.gitbook/assets/logo.png', '.gitbook/includes/note.md', 'README.md', 'SUMMARY.md', 'guide/README.md', 'guide/setup.md']);
    expect([...layout.pagePaths.values()]).toEqual(['README.md', 'guide/README.md', 'guide/setup.md']);
    expect(written.get('README.md')).toBe(files['README.md']);
    expect(written.get('guide/README.md')).toBe(files['guide/README.md']);
    expect(written.get('.gitbook/assets/logo.png')).toBe(LOGO.toString());
    expect(written.get('SUMMARY.md')).toBe(files['SUMMARY.md']);

    // Untouched since the last sync, at the same path with its links' targets where they were: the branch's file is kept.
    const kept: Array<[string, string]> = [];
    written.clear();
    const pageBlobs = new Map(Object.entries(content.pagePaths).map(([id]) => [id, `oid-${id}`]));
    await writeAsRepository(store, content, config, { pages: layout.pagePaths, reusables: layout.reusablePaths }, new Map(), write, {
      before: content.tree,
      pageBlobs,
      files: layout.filePaths,
      keep: (path, oid) => void kept.push([path, oid]),
    });
    expect(kept.map(([path]) => path)).toEqual(['README.md', 'guide/README.md', 'guide/setup.md']);
    expect([...written.keys()].sort()).toEqual(['.gitbook/assets/logo.png', '.gitbook/includes/note.md', 'SUMMARY.md']);
  });

  it("keeps an include's front matter beyond its title, in its order and style, and writes it back as it was; a new title over its other fields", async () => {
    const includes: Record<string, string> = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      'README.md': '# Home\n\n{% include ".gitbook/includes/support.md" %}\n\n{% include ".gitbook/includes/plain.md" %}\n',
      '.gitbook/includes/support.md': "---\ntitle: 'Support'\ndescription: Where to ask\nhidden: true\n---\n\nAsk us.\n",
      '.gitbook/includes/plain.md': '---\ntitle: Plain\n---\n\nJust words.\n',
    };
    const store = new MemoryObjectStore();
    const repository = await readRepository({ paths: Object.keys(includes), read: async (path) => Buffer.from(includes[path]) });
    const content = await importedContent(store, NOW, repository, async (path) => (path in includes ? Buffer.from(includes[path]) : undefined), () => undefined, baselineOf('r0', { tree: new Map(), files: [], reusables: [] }, undefined, ''));
    await store.put(content.blobs);
    expect(content.reusables.map((reusable) => [reusable.title, reusable.frontMatter])).toEqual([
      ['Plain', undefined],
      ['Support', "title: 'Support'\ndescription: Where to ask\nhidden: true\n"],
    ]);
    const config = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] };
    const written = new Map<string, string>();
    const write = async (path: string, bytes: Buffer) => void written.set(path, bytes.toString());
    await writeAsRepository(store, content, config, { pages: new Map(), reusables: new Map() }, new Map(), write);
    for (const path of Object.keys(includes)) expect(written.get(path), path).toBe(includes[path]);

    written.clear();
    const renamed = content.reusables.map((reusable) => (reusable.title === 'Support' ? { ...reusable, title: 'Help' } : reusable));
    await writeAsRepository(store, { ...content, reusables: renamed }, config, { pages: new Map(), reusables: new Map() }, new Map(), write);
    expect(written.get('.gitbook/includes/support.md')).toBe('---\ntitle: Help\ndescription: Where to ask\nhidden: true\n---\n\nAsk us.\n');
  });
});
