// What the app's editor adds to the document model's extensions (src/content/editor,
// kept free of the browser's concerns) that belongs to no one block kind: undo and redo,
// and the ``` shortcut for code (the parts in parts/ bring the other shortcuts and keys).
import { Extension, InputRule } from '@tiptap/core';
import { history, redo, undo } from '@tiptap/pm/history';
import { TextSelection } from '@tiptap/pm/state';

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
    return [codeBlockRule()];
  },

  addKeyboardShortcuts() {
    return {
      'Mod-z': () => undo(this.editor.state, this.editor.view.dispatch),
      'Mod-Shift-z': () => redo(this.editor.state, this.editor.view.dispatch),
      'Mod-y': () => redo(this.editor.state, this.editor.view.dispatch),
    };
  },

  addProseMirrorPlugins() {
    return [history()];
  },
});
