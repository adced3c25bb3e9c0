// GitBook's keys name one node each (its renderer keys tabs, list items and React nodes
// by them), but ProseMirror copies a node's attributes whenever it copies the node: a
// block split in the middle, a node duplicated or pasted. This extension takes the key
// from every copy after the first in the document, as soon as a change brings one in.
import { Extension } from '@tiptap/core';
import type { Slice } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';

/** Whether a change inserts a node with a key: typing, which inserts only text, never does, so the walk below is rare. */
function insertsKeys(transaction: Transaction): boolean {
  return transaction.steps.some((step) => {
    const slice = (step as { slice?: Slice }).slice;
    let found = false;
    slice?.content.descendants((node) => {
      found ||= typeof node.attrs.key === 'string';
      return !found;
    });
    return found;
  });
}

export const UniqueKeys = Extension.create({
  name: 'uniqueKeys',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('uniqueKeys'),
        appendTransaction(transactions, _before, state) {
          if (!transactions.some((transaction) => transaction.docChanged && insertsKeys(transaction))) return null;
          const seen = new Set<string>();
          let fix: Transaction | null = null;
          state.doc.descendants((node, position) => {
            const key = node.attrs.key;
            if (typeof key !== 'string') return;
            if (seen.has(key)) fix = (fix ?? state.tr).setNodeAttribute(position, 'key', null);
            else seen.add(key);
          });
          return fix;
        },
      }),
    ];
  },
});
