// Text blocks: paragraphs, GitBook's three heading levels, quotes and dividers, from the
// slash menu and from markdown shortcuts (#, ##, ### and a space; > and a space; ---).
// The rules are TipTap's own, written against the document model's node names.
import { nodeInputRule, textblockTypeInputRule, wrappingInputRule, type Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import type { EditorPart, SlashItem } from '../part.ts';

type Range = { from: number; to: number };

const turnInto = (name: string) => (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range).setNode(name).run();

/** A divider where the slash was: in place of an empty paragraph, else after it; the writing goes on in a paragraph below. */
function insertDivider(editor: Editor, range: Range) {
  editor
    .chain()
    .focus()
    .deleteRange(range)
    .command(({ tr, state }) => {
      const { $from } = tr.selection;
      const block = $from.parent;
      const { divider, paragraph } = state.schema.nodes;
      const start = block.content.size === 0 ? $from.before() : $from.after();
      tr.replaceWith(start, block.content.size === 0 ? $from.after() : start, [divider.create(), paragraph.create()]);
      tr.setSelection(TextSelection.create(tr.doc, start + 2));
      return true;
    })
    .run();
}

const heading = (level: 1 | 2 | 3, description: string): SlashItem => ({
  title: `Heading ${level}`,
  description,
  keywords: [`h${level}`, 'title', 'heading'],
  group: 'Text',
  insert: turnInto(`heading${level}`),
});

export const part: EditorPart = {
  order: 10,
  slash: [
    { title: 'Text', description: 'Plain text, a paragraph', keywords: ['paragraph', 'plain', 'p'], group: 'Text', insert: turnInto('paragraph') },
    heading(1, 'A big section heading'),
    heading(2, 'A medium section heading'),
    heading(3, 'A small section heading'),
    {
      title: 'Quote',
      description: 'Words quoted from elsewhere',
      keywords: ['blockquote', 'citation'],
      group: 'Text',
      insert: (editor, range) => editor.chain().focus().deleteRange(range).wrapIn('blockquote').run(),
    },
    { title: 'Divider', description: 'A line between sections', keywords: ['hr', 'line', 'separator', 'rule'], group: 'Text', insert: insertDivider },
  ],
  inputRules: (editor) => {
    const { nodes } = editor.schema;
    return [
      textblockTypeInputRule({ find: /^#\s$/, type: nodes.heading1 }),
      textblockTypeInputRule({ find: /^##\s$/, type: nodes.heading2 }),
      textblockTypeInputRule({ find: /^###\s$/, type: nodes.heading3 }),
      wrappingInputRule({ find: /^\s*>\s$/, type: nodes.blockquote }),
      nodeInputRule({ find: /^(?:---|—-|___\s|\*\*\*\s)$/, type: nodes.divider }),
    ];
  },
};
