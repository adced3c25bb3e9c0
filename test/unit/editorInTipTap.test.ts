// @vitest-environment jsdom
// The schema in a TipTap editor, mounted as the app mounts it (in jsdom: an editor with
// no view runs no plugin, UniqueKeys among them): a document opened and read
// back untouched is the same, and what a writer does (splitting a paragraph, deleting
// an opaque node) gives a document Quire can store.
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { linksAsWritten, markdownToDocument, withKeys } from '../../src/content/document.ts';
import { editorExtensions } from '../../src/content/editor/schema.ts';
import { proseMirrorToDocument } from '../../src/content/editor/toDocument.ts';
import { documentToProseMirror } from '../../src/content/editor/toProseMirror.ts';
import type { ProseMirrorJSON } from '../../src/content/editor/json.ts';
import type { JSONDocument } from '../../src/content/gitbook/model.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

const open = (document: JSONDocument) => (editor = new Editor({ extensions: editorExtensions, content: documentToProseMirror(document) }));
const saved = (opened: Editor) => proseMirrorToDocument(opened.getJSON() as ProseMirrorJSON);

describe("the editor's schema in TipTap", () => {
  it('opens a page of every kind of block and saves it unchanged', () => {
    const markdown = [
      '# Title', 'Words with **bold**, _italic_ and a [link](https://example.com) :tada:.',
      '{% hint style="info" %}\nA hint\n{% endhint %}', '```js\nconst a = 1;\n```', '| A | B |\n|---|---|\n| 1 | 2 |',
      '{% tabs %}\n{% tab title="One" %}\nFirst\n{% endtab %}\n{% endtabs %}', '<details>\n\n<summary>More</summary>\n\nHidden\n\n</details>',
      '$$\nx^2\n$$', '{% embed url="https://example.com/video" %}', '---', '- [x] done',
    ].join('\n\n');
    const document = withKeys(markdownToDocument(markdown, linksAsWritten));
    expect(JSON.stringify(saved(open(document)))).toBe(JSON.stringify(document));
  });

  it("gives the second half of a split paragraph the first's data but no key of its own", () => {
    const document = withKeys(markdownToDocument('Hello world', linksAsWritten));
    const opened = open(document);
    opened.chain().setTextSelection(6).splitBlock().run();
    const [first, second] = saved(opened).nodes;
    expect(first).toMatchObject({ type: 'paragraph', key: 'k0', data: {} });
    expect(second).toEqual({ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: ' world', marks: [] }] }] });
  });

  it('deletes a node it does not know as one piece', () => {
    const widget = { object: 'block', type: 'x-widget', isVoid: true, data: { chart: 1 } };
    const document = { object: 'document', data: {}, nodes: [widget, ...markdownToDocument('After', linksAsWritten).nodes] } as unknown as JSONDocument;
    const opened = open(document);
    opened.chain().setNodeSelection(0).deleteSelection().run();
    expect(saved(opened).nodes.map((node) => node.type)).toEqual(['paragraph']);
  });
});
