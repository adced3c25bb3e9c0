import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { documentToMarkdown, hasConditionalBlocks, linkResolverFor, linksAsWritten, linkWriterFor, markdownToDocument, mentionsIn, resolveWrittenLinks, withConditionsDecided, withKeys } from '../../src/content/document.ts';
import { applyChanges } from '../../src/content/changes.ts';

const tree = applyChanges(new Map(), [
  { kind: 'insert', id: 'guide', placement: { parentId: null }, meta: { title: 'Guide', slug: 'guide', type: 'document' }, blob: null },
  { kind: 'insert', id: 'install', placement: { parentId: 'guide' }, meta: { title: 'Install', slug: 'install', type: 'document' }, blob: null },
]);
const resolve = linkResolverFor(tree);
const types = (nodes: any[]) => nodes.map((node) => node.type);
const blocks = (document: { nodes: unknown[] }) => document.nodes as any[];
const leaves = (node: any): any[] => node.nodes.flatMap((child: any) => (child.object === 'text' ? child.leaves : leaves(child)));

describe('markdown to JSON documents', () => {
  it('maps block structure: headings with anchors, lists, quotes, code lines, dividers, tables, hints', () => {
    const document = markdownToDocument(
      [
        '## Getting Started',
        'Intro',
        '### Steps',
        '- one',
        '- two',
        '1. first',
        '- [x] done',
        '> quoted',
        '```ts\nconst a = 1;\nconst b = 2;\n```',
        '---',
        '| A | B |\n|---|---|\n| 1 | 2 |',
        '{% hint style="warning" %}',
        'Careful',
        '{% endhint %}',
        '![Logo](/files/f1)',
      ].join('\n\n'),
      resolve,
    );
    expect(document.object).toBe('document');
    expect(types(blocks(document))).toEqual([
      'heading-1', 'paragraph', 'heading-2', 'list-unordered', 'list-ordered', 'list-tasks', 'blockquote', 'code', 'divider', 'table', 'hint', 'images',
    ]);
    expect(blocks(document)[0].meta).toEqual({ id: 'getting-started' });
    expect(blocks(document)[5].nodes[0].data).toEqual({ checked: true });
    expect(blocks(document)[7]).toMatchObject({ data: { syntax: 'ts' } });
    expect(blocks(document)[7].nodes.map((line: any) => line.nodes[0].leaves[0].text)).toEqual(['const a = 1;', 'const b = 2;']);
    expect(blocks(document)[10]).toMatchObject({ data: { style: 'warning' } });
    expect(leaves(blocks(document)[10])[0].text).toBe('Careful');
    expect(blocks(document)[11].nodes[0].data.ref).toEqual({ kind: 'file', file: 'f1' });
  });

  it('keeps marks on text and turns links into content references', () => {
    const document = markdownToDocument(
      '**bold** _it_ `code` ~~gone~~ [install](guide/install.md#steps) [web](https://example.com) [id](/pages/guide) [here](#top)',
      resolve,
    );
    const paragraph = blocks(document)[0];
    const marks = leaves(paragraph).filter((leaf: any) => leaf.marks.length).map((leaf: any) => [leaf.text, leaf.marks[0].type]);
    expect(marks).toEqual([['bold', 'bold'], ['it', 'italic'], ['code', 'code'], ['gone', 'strikethrough']]);
    const refs = paragraph.nodes.filter((node: any) => node.type === 'link').map((node: any) => node.data.ref);
    expect(refs).toEqual([
      { kind: 'page', page: 'install', anchor: 'steps' },
      { kind: 'url', url: 'https://example.com' },
      { kind: 'page', page: 'guide' },
      { kind: 'anchor', anchor: 'top' },
    ]);
  });

  it('reads relative page and asset paths from the page\'s own file, and writes them back the same way', () => {
    const files = [{ id: 'f1', name: 'logo.png' }];
    // "guide" has a sub-page, so its file is guide/README.md; "install" is guide/install.md.
    const fromInstall = linkResolverFor(tree, 'install', files);
    expect(fromInstall('README.md#top')).toEqual({ kind: 'page', page: 'guide', anchor: 'top' });
    expect(fromInstall('../guide/install.md')).toEqual({ kind: 'page', page: 'install' });
    expect(fromInstall('../.gitbook/assets/logo.png')).toEqual({ kind: 'file', file: 'f1' });
    expect(fromInstall('../.gitbook/assets/missing.png')).toEqual({ kind: 'url', url: '../.gitbook/assets/missing.png' });
    // An empty link (an inactive button's) leads nowhere rather than to the page's folder.
    expect(fromInstall('')).toEqual({ kind: 'url', url: '' });
    expect(linkResolverFor(tree, 'guide', files)('install.md')).toEqual({ kind: 'page', page: 'install' });
    const write = linkWriterFor(tree, 'install', files);
    // A page with sub-pages is linked by its folder, as GitBook writes it.
    expect(write({ kind: 'page', page: 'guide', anchor: 'top' })).toBe('./#top');
    expect(linkWriterFor(tree, 'guide', files)({ kind: 'page', page: 'guide' })).toBe('./');
    expect(write({ kind: 'file', file: 'f1' })).toBe('../.gitbook/assets/logo.png');
    const anywhere = linkWriterFor(tree);
    expect(anywhere({ kind: 'page', page: 'install' })).toBe('/pages/install');
    expect(anywhere({ kind: 'file', file: 'f1' })).toBe('/files/f1');
    for (const ref of [{ kind: 'page', page: 'guide', anchor: 'top' }, { kind: 'file', file: 'f1' }, { kind: 'page', page: 'install' }] as const) {
      expect(fromInstall(write(ref))).toEqual(ref);
      expect(linkResolverFor(tree)(anywhere(ref))).toEqual(ref);
    }
  });

  it('gives the same document from links resolved after the conversion as from links resolved while converting, for every block of the corpus', () => {
    const corpus = new URL('../fixtures/gitbook/', import.meta.url);
    const files = [{ id: 'f1', name: 'logo.png' }];
    const extra = [
      '[Install](../guide/install.md#steps) and [top](#top), ![logo](../.gitbook/assets/logo.png), [site](https://example.com), ![dot](data:image/png;base64,iVBORw0KGgo=)',
      '{% content-ref url="install.md" %}\n[install.md](install.md)\n{% endcontent-ref %}',
      '{% embed url="https://example.com/video" %}',
      '<figure><img src="../.gitbook/assets/logo.png" alt=""><figcaption></figcaption></figure>',
    ];
    const pages = [...readdirSync(corpus).map((name) => readFileSync(new URL(name, corpus), 'utf8')), ...extra];
    for (const pageId of ['install', 'guide', undefined]) {
      const resolveHere = linkResolverFor(tree, pageId, files);
      for (const markdown of pages) {
        expect(resolveWrittenLinks(markdownToDocument(markdown, linksAsWritten), resolveHere)).toEqual(markdownToDocument(markdown, resolveHere));
      }
    }
  });
});

describe('conditional blocks decided for a reader', () => {
  const markdown = 'Everyone.\n\n{% if visitor.claims.plan == "pro" %}\nPro only, see [regions](regions.md).\n\n{% if visitor.claims.beta %}\nPro beta only.\n{% endif %}\n{% endif %}\n\n* one\n* two\n';
  const readAs = (holds: (expression: string) => boolean) =>
    documentToMarkdown(withConditionsDecided(markdownToDocument(markdown, linksAsWritten), holds), { link: linkWriterFor(new Map()) });

  it('keeps the blocks of each condition that holds in its place, and leaves out those of one that does not, nested ones too', () => {
    expect(hasConditionalBlocks(markdown)).toBe(true);
    expect(hasConditionalBlocks('No {%if} here, {% include "x" %}.')).toBe(false);
    expect(readAs(() => true)).toBe('Everyone.\n\nPro only, see [regions](regions.md).\n\nPro beta only.\n\n* one\n* two\n');
    expect(readAs((expression) => !expression.includes('beta'))).toBe('Everyone.\n\nPro only, see [regions](regions.md).\n\n* one\n* two\n');
    expect(readAs(() => false)).toBe('Everyone.\n\n* one\n* two\n');
  });
});

describe('keys on blocks', () => {
  it('gives every block and inline a key made from its place, the same for the same document, keeping keys already there', () => {
    const markdown = '# Title\n\n{% tabs %}\n{% tab title="A" %}\nOne [link](https://a.test).\n{% endtab %}\n{% tab title="B" %}\nTwo\n{% endtab %}\n{% endtabs %}\n\n- item';
    const keyed = withKeys(markdownToDocument(markdown, linksAsWritten));
    const keys: string[] = [];
    const walk = (nodes: any[]) => {
      for (const node of nodes) {
        if (node.object === 'block' || node.object === 'inline') keys.push(node.key);
        if (Array.isArray(node.nodes)) walk(node.nodes);
      }
    };
    walk(keyed.nodes as any[]);
    expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    const tabs = (keyed.nodes as any[]).find((node) => node.type === 'tabs');
    expect(tabs.key).toMatch(/^k\d+$/);
    expect(tabs.nodes.map((tab: any) => tab.key)).toEqual([`${tabs.key}.0`, `${tabs.key}.1`]);
    expect(withKeys(markdownToDocument(markdown, linksAsWritten))).toEqual(keyed);
    expect(withKeys({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', key: 'mine', nodes: [] }] }).nodes).toEqual([{ object: 'block', type: 'paragraph', key: 'mine', nodes: [] }]);
  });

  it('resolves written links in the same walk as it keys, to the document resolving first then keying gives', () => {
    const markdown = 'See [install](guide/install.md) and [out](https://a.test).\n\n{% content-ref url="guide/install.md" %}\n[install](guide/install.md)\n{% endcontent-ref %}\n\n![logo](data:image/png;base64,AAAA)';
    const once = withKeys(markdownToDocument(markdown, linksAsWritten), resolve);
    expect(once).toEqual(withKeys(resolveWrittenLinks(markdownToDocument(markdown, linksAsWritten), resolve)));
    expect(JSON.stringify(once)).toContain('"kind":"page","page":"install"');
  });
});

describe('mentions in a comment', () => {
  it('finds the users a text links to, however the link is written', () => {
    expect(mentionsIn('Ask [Ada](user:ada1) or [Bob](/users/bob_2), and <user:cy-3>.')).toEqual(['ada1', 'bob_2', 'cy-3']);
    expect(mentionsIn('[Ada](&#117;ser:ada1), a character reference in the link')).toEqual(['ada1']);
    expect(mentionsIn('No one: [a page](/guide) and `user:ada1` as code.')).toEqual([]);
  });

  it('finds no one in any text without "user" or "&", as a full parse of it finds no one', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[\s\S]*$/).filter((text) => !text.includes('user') && !text.includes('&')),
        // A text holding "user" is parsed; " user" at the end can make no mention (no ":" or "/" follows).
        (text) => mentionsIn(text).length === 0 && mentionsIn(`${text} user`).length === 0,
      ),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom('[', ']', '(', ')', '<', '>', ':', '/', 's', 'e', 'r', 'u', 'x', '\\', ' ', '\n', '#', '!'), { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        fc.pre(!text.includes('user') && !text.includes('&'));
        return mentionsIn(`${text} user`).length === 0;
      }),
      { numRuns: 500 },
    );
  });
});
