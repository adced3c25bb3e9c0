// What the app's editor adds to the document model's extensions (src/content/editor,
// kept free of the browser's concerns): markdown shortcuts typed as input rules on
// GitBook's own nodes, the usual keys for marks and lists, and undo/redo. The patterns
// are TipTap's own (its Heading, BulletList, Bold… extensions), written against our
// node names since those extensions bring schemas of their own.
import { Extension, InputRule, markInputRule, nodeInputRule, textblockTypeInputRule, wrappingInputRule } from '@tiptap/core';
import { history, redo, undo } from '@tiptap/pm/history';
import { TextSelection } from '@tiptap/pm/state';

const BOLD = [/(?:^|\s)(\*\*(?!\s+\*\*)((?:[^*]+))\*\*(?!\s+\*\*))$/, /(?:^|\s)(__(?!\s+__)((?:[^_]+))__(?!\s+__))$/];
const ITALIC = [/(?:^|\s)(\*(?!\s+\*)((?:[^*]+))\*(?!\s+\*))$/, /(?:^|\s)(_(?!\s+_)((?:[^_]+))_(?!\s+_))$/];
const CODE = /(^|[^`])`([^`]+)`(?!`)$/;

/** ``` then a space (or a language name and a space) turns the paragraph into a code block with one empty line. */
function codeBlockRule(): InputRule {
  return new InputRule({
    find: /^```([a-z0-9+#-]*)\s$/,
    handler: ({ state, range, match }) => {
      const { codeBlock, codeLine } = state.schema.nodes;
      const $from = state.doc.resolve(range.from);
      if ($from.parent.type.name !== 'paragraph' || $from.parent.content.size !== range.to - range.from) return null;
      const syntax = match[1];
      const block = codeBlock.create({ data: syntax ? { syntax } : {} }, codeLine.create());
      const tr = state.tr.replaceWith($from.before(), $from.after(), block);
      tr.setSelection(TextSelection.create(tr.doc, $from.before() + 2));
    },
  });
}

export const Writing = Extension.create({
  name: 'writing',

  addInputRules() {
    const { nodes, marks } = this.editor.schema;
    return [
      textblockTypeInputRule({ find: /^#\s$/, type: nodes.heading1 }),
      textblockTypeInputRule({ find: /^##\s$/, type: nodes.heading2 }),
      textblockTypeInputRule({ find: /^###\s$/, type: nodes.heading3 }),
      wrappingInputRule({ find: /^\s*([-+*])\s$/, type: nodes.listUnordered }),
      wrappingInputRule({ find: /^(\d+)\.\s$/, type: nodes.listOrdered }),
      wrappingInputRule({ find: /^\s*>\s$/, type: nodes.blockquote }),
      codeBlockRule(),
      nodeInputRule({ find: /^(?:---|—-|___\s|\*\*\*\s)$/, type: nodes.divider }),
      ...BOLD.map((find) => markInputRule({ find, type: marks.bold })),
      ...ITALIC.map((find) => markInputRule({ find, type: marks.italic })),
      markInputRule({ find: CODE, type: marks.code }),
    ];
  },

  addKeyboardShortcuts() {
    return {
      'Mod-b': () => this.editor.commands.toggleMark('bold'),
      'Mod-i': () => this.editor.commands.toggleMark('italic'),
      'Mod-e': () => this.editor.commands.toggleMark('code'),
      'Mod-z': () => undo(this.editor.state, this.editor.view.dispatch),
      'Mod-Shift-z': () => redo(this.editor.state, this.editor.view.dispatch),
      'Mod-y': () => redo(this.editor.state, this.editor.view.dispatch),
      // A list item holds blocks: Enter makes the next item (an empty one ends the list), Tab nests.
      Enter: () => this.editor.commands.splitListItem('listItem'),
      Tab: () => this.editor.commands.sinkListItem('listItem'),
      'Shift-Tab': () => this.editor.commands.liftListItem('listItem'),
    };
  },

  addProseMirrorPlugins() {
    return [history()];
  },
});
