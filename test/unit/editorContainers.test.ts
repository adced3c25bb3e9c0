// The container parts' guard (web/src/editor/parts/containers.ts): a change that leaves a
// tab, a code block or an expandable's title empty gives it a line to write on, one that
// leaves tabs with no tab takes them away, and what the change did not touch stays as
// it was, so that a page opened and saved unedited is written back byte for byte.
import { EditorState } from '@tiptap/pm/state';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { describe, expect, it } from 'vitest';
import { editorSchema as schema } from '../../src/content/editor/schema.ts';
import { part } from '../../web/src/editor/parts/containers.ts';

const { doc, paragraph, tabs, tabsItem, codeBlock, codeLine, expandable, fragment } = schema.nodes;
const words = (text: string) => paragraph.create(null, text ? schema.text(text) : undefined);
const tab = (...content: ProseMirrorNode[]) => tabsItem.create({ data: { title: 'Tab' } }, content);

const stateOf = (...content: ProseMirrorNode[]) => EditorState.create({ schema, doc: doc.create(null, content), plugins: part.plugins!(undefined as never, undefined as never) });

/** The position of the first node of this type, and the node. */
function find(state: EditorState, name: string, nth = 0): { position: number; node: ProseMirrorNode } {
  const found: Array<{ position: number; node: ProseMirrorNode }> = [];
  state.doc.descendants((node, position) => void (node.type.name === name && found.push({ position, node })));
  return found[nth];
}

describe('the containers’ guard', () => {
  it('gives a tab emptied by a change an empty paragraph to write in', () => {
    const state = stateOf(tabs.create(null, [tab(words('a')), tab(words('b'))]));
    const second = find(state, 'tabsItem', 1);
    const after = state.apply(state.tr.delete(second.position + 1, second.position + second.node.nodeSize - 1));
    expect(find(after, 'tabsItem', 1).node.toJSON().content).toEqual([{ type: 'paragraph', attrs: paragraph.create().attrs }]);
  });

  it('takes away tabs left with no tab', () => {
    const state = stateOf(words('before'), tabs.create(null, [tab(words('a'))]));
    const { position, node } = find(state, 'tabs');
    const after = state.apply(state.tr.delete(position + 1, position + node.nodeSize - 1));
    expect(after.doc.childCount).toBe(1);
    expect(after.doc.firstChild!.textContent).toBe('before');
  });

  it('gives an emptied code block a line and an emptied expandable title a paragraph', () => {
    const state = stateOf(
      codeBlock.create(null, [codeLine.create(null, schema.text('x'))]),
      expandable.create(null, [fragment.create({ fragment: 'expandable-title', type: 'expandable-title' }, words('Title')), fragment.create({ fragment: 'expandable-body', type: 'expandable-body' }, words('Body'))]),
    );
    const code = find(state, 'codeBlock');
    let after = state.apply(state.tr.delete(code.position + 1, code.position + code.node.nodeSize - 1));
    expect(find(after, 'codeBlock').node.firstChild!.type.name).toBe('codeLine');
    const title = find(after, 'fragment');
    after = after.apply(after.tr.delete(title.position + 1, title.position + title.node.nodeSize - 1));
    expect(find(after, 'fragment').node.childCount).toBe(1);
    expect(find(after, 'fragment').node.firstChild!.type.name).toBe('paragraph');
  });

  it('leaves an empty tab the change did not touch as it was', () => {
    const state = stateOf(words('x'), tabs.create(null, [tab(words('a')), tab()]));
    const after = state.apply(state.tr.insertText('y', 1));
    expect(after.doc.firstChild!.textContent).toBe('yx');
    expect(find(after, 'tabsItem', 1).node.childCount).toBe(0);
  });
});
