// The editor's schema and its mapping from and to GitBook's JSONDocument: every kind
// has its node or mark, and a document goes to ProseMirror and back unchanged, byte for
// byte, whatever it holds.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Transform } from '@tiptap/pm/transform';
import { describe, expect, it } from 'vitest';
import { linkResolverFor, linksAsWritten, markdownToDocument, namedFiles, withKeys } from '../../src/content/document.ts';
import { baselineOf, importedContent } from '../../src/content/gitbook/importedContent.ts';
import { readRepository } from '../../src/content/gitbook/repository.ts';
import { MemoryObjectStore } from '../../src/content/objects.ts';
import { splitFrontMatter } from '../../src/content/gitbook/repository.ts';
import type { JSONDocument } from '../../src/content/gitbook/model.ts';
import { BLOCK_KINDS, INLINE_KINDS, MARK_KINDS, OPAQUE_BLOCK, OPAQUE_INLINE, OPAQUE_MARK } from '../../src/content/editor/kinds.ts';
import { editorSchema } from '../../src/content/editor/schema.ts';
import { nodeToDocument, proseMirrorToDocument } from '../../src/content/editor/toDocument.ts';
import { documentToNode, documentToProseMirror } from '../../src/content/editor/toProseMirror.ts';
import type { ProseMirrorJSON } from '../../src/content/editor/json.ts';
import { documents, UNKNOWN_BLOCK, UNKNOWN_INLINE, UNKNOWN_MARK } from '../helpers/gitbookDocuments.ts';

/** Both ways: through the JSON form, and through a checked ProseMirror node. */
function roundTrips(document: JSONDocument): void {
  const json = documentToProseMirror(document);
  const node = editorSchema.nodeFromJSON(json);
  node.check();
  const written = JSON.stringify(document);
  expect(JSON.stringify(proseMirrorToDocument(json))).toBe(written);
  expect(JSON.stringify(nodeToDocument(node))).toBe(written);
  expect(nodeToDocument(node)).toEqual(document);
}

const opaqueNodes = (json: ProseMirrorJSON): number =>
  (json.type === OPAQUE_BLOCK || json.type === OPAQUE_INLINE ? 1 : 0)
  + (json.marks ?? []).filter((mark) => mark.type === OPAQUE_MARK).length
  + (json.content ?? []).reduce((sum, child) => sum + opaqueNodes(child), 0);

/** The nodes and marks of kinds the schema does not know, where the document's ProseMirror form holds them. */
const unknownKinds = (value: unknown): number => {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + unknownKinds(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const node = value as { object?: unknown; type?: unknown; nodes?: unknown; fragments?: unknown; leaves?: unknown; marks?: unknown };
  const own = [UNKNOWN_BLOCK, UNKNOWN_INLINE, UNKNOWN_MARK].includes(node.type as string) && ['block', 'inline', 'mark'].includes(node.object as string) ? 1 : 0;
  // An annotation's body is an attribute, opened by the editor on its own.
  const fragments = node.object === 'inline' ? 0 : unknownKinds(node.fragments);
  return own + fragments + unknownKinds(node.nodes) + unknownKinds(node.leaves) + unknownKinds(node.marks);
};

describe("the editor's schema", () => {
  it('has a node for every block and inline kind of GitBook 0.202, and a mark for every mark kind', () => {
    const spec = JSON.parse(readFileSync(new URL('../../node_modules/gitbook-api-0202/spec/openapi.json', import.meta.url), 'utf8'));
    const kindsOf = (prefix: RegExp) =>
      Object.entries(spec.components.schemas as Record<string, { properties?: { type?: { enum?: string[] } } }>)
        .filter(([name]) => prefix.test(name))
        .flatMap(([, schema]) => schema.properties?.type?.enum ?? []);
    expect(kindsOf(/^DocumentBlock/).filter((type) => !BLOCK_KINDS.some((entry) => entry.type === type))).toEqual([]);
    expect(kindsOf(/^DocumentInline/).filter((type) => !INLINE_KINDS.some((entry) => entry.type === type))).toEqual([]);
    expect(kindsOf(/^DocumentMark/).filter((type) => !MARK_KINDS.some((entry) => entry.type === type))).toEqual([]);
    for (const entry of [...BLOCK_KINDS, ...INLINE_KINDS]) expect(editorSchema.nodes[entry.name]).toBeDefined();
    for (const entry of MARK_KINDS) expect(editorSchema.marks[entry.name]).toBeDefined();
  });

  it('ranks the marks in the order Quire keeps them on a leaf, unknown ones last', () => {
    expect(Object.keys(editorSchema.marks)).toEqual([...MARK_KINDS.map((entry) => entry.name), OPAQUE_MARK]);
  });
});

describe('JSONDocument ⇄ ProseMirror', () => {
  it('gives back every generated document as Quire stores it, with no opaque node but for the kinds it does not know', () => {
    fc.assert(
      fc.property(documents(true), (document) => {
        roundTrips(document);
        expect(opaqueNodes(documentToProseMirror(document))).toBe(unknownKinds(document));
      }),
      { numRuns: 300 },
    );
  });

  it('gives back any document at all: kinds out of place, texts out of normal form, fields in any order, bare values', () => {
    fc.assert(fc.property(documents(false), roundTrips), { numRuns: 300 });
  });

  it('keeps a kind it does not know as an atomic node, which can be moved and deleted', () => {
    const widget = { object: 'block', type: UNKNOWN_BLOCK, isVoid: true, data: { chart: [1, 2] }, shape: 'round' };
    const paragraph = (words: string) => ({ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: words, marks: [] }] }] });
    const document = { object: 'document', data: {}, nodes: [widget, paragraph('a'), paragraph('b')] } as unknown as JSONDocument;
    const node = documentToNode(document);
    expect(node.child(0).type.name).toBe(OPAQUE_BLOCK);
    expect(node.child(0).isAtom).toBe(true);

    const size = node.child(0).nodeSize;
    const moved = new Transform(node).delete(0, size);
    moved.insert(moved.doc.content.size, node.child(0));
    expect(nodeToDocument(moved.doc).nodes).toEqual([paragraph('a'), paragraph('b'), widget]);
    expect(nodeToDocument(new Transform(node).delete(0, size).doc).nodes).toEqual([paragraph('a'), paragraph('b')]);
  });

  it("holds a table's cells, an image's caption and an expandable's title and body as fragments the editor can write in", () => {
    const markdown = '| A | B |\n|---|---|\n| 1 | 2 |\n\n<details>\n\n<summary>More</summary>\n\nHidden\n\n</details>\n\n<figure><img src="x.png" alt=""><figcaption><p>Caption</p></figcaption></figure>\n';
    const node = documentToNode(withKeys(markdownToDocument(markdown, linksAsWritten)));
    const names = (parent: typeof node) => Array.from({ length: parent.childCount }, (_, index) => parent.child(index).type.name);
    expect(names(node)).toEqual(['table', 'expandable', 'images']);
    expect(names(node.child(0))).toEqual(['fragment', 'fragment']);
    expect(node.child(1).child(0).attrs.fragment).toBe('expandable-title');
    expect(node.child(1).child(0).textContent).toBe('More');
    expect(node.child(2).child(0).child(0).textContent).toBe('Caption');
  });

  it('writes a node made in the editor as Quire would', () => {
    const schema = editorSchema;
    const caption = schema.node('fragment', { fragment: 'caption' }, [schema.node('paragraph', null, [schema.text('Logo')])]);
    const made = schema.node('doc', null, [
      schema.node('heading2', null, [schema.text('Title', [schema.marks.bold.create()])]),
      schema.node('paragraph'),
      schema.node('divider'),
      schema.node('images', null, [schema.node('image', { data: { ref: { kind: 'file', file: 'f1' } } }, [caption])]),
    ]);
    const words = (text: string) => [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }];
    expect(nodeToDocument(made)).toEqual({
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-2', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Title', marks: [{ object: 'mark', type: 'bold' }] }] }] },
        { object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: words('') },
        { object: 'block', type: 'divider', isVoid: true, data: {} },
        {
          object: 'block', type: 'images', isVoid: false, data: {},
          nodes: [{
            object: 'block', type: 'image', isVoid: true, data: { ref: { kind: 'file', file: 'f1' } },
            fragments: [{ object: 'fragment', fragment: 'caption', nodes: [{ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: words('Logo') }] }],
          }],
        },
      ],
    });
  });

  it('shares no object between the document and the editor state', () => {
    const document = withKeys(markdownToDocument('{% hint style="info" %}\nNote\n{% endhint %}\n', linksAsWritten));
    const json = documentToProseMirror(document);
    (document.nodes[0].data as { style: string }).style = 'danger';
    expect(json.content![0].attrs!.data).toEqual({ style: 'info' });
    const back = proseMirrorToDocument(json);
    (back.nodes[0].data as { style: string }).style = 'success';
    expect(json.content![0].attrs!.data).toEqual({ style: 'info' });
  });
});

describe('GitBook content through the editor', () => {
  const folder = new URL('../fixtures/gitbook/', import.meta.url);
  const pages = readdirSync(folder).filter((name) => name.endsWith('.md'));

  it('opens and saves every page of the GitBook corpus unchanged, with no opaque node', () => {
    const differing = pages.filter((name) => {
      const markdown = readFileSync(new URL(name, folder), 'utf8');
      const document = withKeys(markdownToDocument(splitFrontMatter(markdown, name).body, linksAsWritten));
      const node = documentToNode(document);
      node.check();
      expect(opaqueNodes(documentToProseMirror(document))).toBe(0);
      return JSON.stringify(nodeToDocument(node)) !== JSON.stringify(document);
    });
    expect(pages.length).toBeGreaterThan(0);
    expect(differing).toEqual([]);
  });

  // GitBook repositories on this machine, each a folder with its SUMMARY.md (such as each
  // project of a GitbookIO/public-docs checkout), comma-separated: not in the repository.
  const repositories = process.env.QUIRE_GITBOOK_REPOSITORIES?.split(',').filter(Boolean) ?? [];
  it.skipIf(repositories.length === 0)('opens and saves every page of the GitBook repositories in QUIRE_GITBOOK_REPOSITORIES unchanged, as the API serves them after a Git import', async () => {
    const differing: string[] = [];
    let pages = 0;
    for (const folder of repositories) {
      const paths = (readdirSync(folder, { recursive: true }) as string[]).filter((path) => statSync(join(folder, path)).isFile());
      const read = async (path: string) => readFileSync(join(folder, path));
      // A link to a file the repository does not hold (GitBook's `/broken/…`) is read as nothing.
      const held = new Set(paths);
      const readDocsFile = async (path: string) => (held.has(path) ? read(path) : undefined);
      const store = new MemoryObjectStore();
      const empty = baselineOf('r0', { tree: new Map(), files: [], reusables: [] }, undefined, '');
      const content = await importedContent(store, '2026-12-06T10:00:00.000Z', await readRepository({ paths, read }), readDocsFile, () => undefined, empty);
      for (const [id, page] of content.tree) {
        const markdown = page.blob ? content.blobs.get(page.blob) : undefined;
        if (markdown === undefined) continue;
        const document = withKeys(markdownToDocument(markdown, linkResolverFor(content.tree, id, namedFiles(content.files))));
        pages++;
        if (JSON.stringify(nodeToDocument(documentToNode(document))) !== JSON.stringify(document)) differing.push(`${folder}: ${page.meta.title}`);
      }
    }
    console.log(`${pages} pages of ${repositories.length} repositories through the editor, ${differing.length} differing`);
    expect(pages).toBeGreaterThan(0);
    expect(differing).toEqual([]);
  }, 600_000);
});
