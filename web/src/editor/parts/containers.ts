// What the parts of GitBook's container blocks (hints, code, expandables, tabs, steppers,
// columns) share: putting a new block where `/…` was typed, controls that keep their
// events from ProseMirror; and, as the part this file exports, a guard that never lets
// a change leave one of them with no place to write in, and Enter on an empty line that
// neither splits a tab, step or column in two nor copies its title into a new one.
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { keymap } from '@tiptap/pm/keymap';
import { NodeSelection, Plugin, PluginKey, Selection, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { useState, type ChangeEvent } from 'react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';

// Where GitBook's 0.202 model lets each container stand (its `nodes` unions): a parent
// by node name, a fragment by its name. Kinds not listed go anywhere a block goes.
const ANY_CONTAINER = ['doc', 'tabsItem', 'stepperStep', 'column', 'listItem', 'fragment:expandable-body'];
const PLACES: Record<string, string[]> = {
  hint: ANY_CONTAINER,
  codeBlock: ANY_CONTAINER,
  expandable: ['doc', 'stepperStep', 'column'],
  stepper: ['doc', 'column'],
  tabs: ['doc'],
  columns: ['doc'],
};

const placeName = (node: ProseMirrorNode): string => (node.type.name === 'fragment' ? `fragment:${node.attrs.fragment}` : node.type.name);

/**
 * Replaces the typed `/query` with `block`: the paragraph itself when the query was all
 * it held, else the block goes after it; the cursor goes to the block's first text.
 * Where GitBook lets no such block stand (tabs in a hint, an expandable in a tab), it
 * goes after the nearest container that may hold it.
 */
export function insertBlock(editor: Editor, range: { from: number; to: number }, block: ProseMirrorNode): void {
  const tr = editor.state.tr.delete(range.from, range.to);
  const $from = tr.doc.resolve(range.from);
  const places = PLACES[block.type.name];
  let depth = $from.depth - 1;
  while (places && depth > 0 && !places.includes(placeName($from.node(depth)))) depth--;
  const emptied = $from.parent.isTextblock && $from.parent.content.size === 0 && $from.depth > 0;
  let at: number;
  if (depth === $from.depth - 1) {
    at = emptied ? $from.before() : $from.depth > 0 ? $from.after() : $from.pos;
    if (emptied) tr.replaceWith(at, $from.after(), block);
    else tr.insert(at, block);
  } else {
    at = $from.after(depth + 1);
    const before = tr.steps.length;
    tr.insert(at, block);
    // The emptied line goes, unless it is all its container holds.
    if (emptied && $from.node(-1).childCount > 1) {
      tr.delete($from.before(), $from.after());
      at = tr.mapping.slice(before).map(at, -1);
    }
  }
  tr.setSelection(TextSelection.near(tr.doc.resolve(at + 1)));
  editor.view.dispatch(tr.scrollIntoView());
  editor.view.focus();
}

/** Puts the cursor at the first text inside the node at `position`, and gives the editor the focus. */
export function placeCursorIn(editor: Editor, tr: Transaction, position: number): void {
  tr.setSelection(TextSelection.near(tr.doc.resolve(position + 1)));
  editor.view.dispatch(tr.scrollIntoView());
  editor.view.focus();
}

/** A block's GitBook `data` with `changes` made: a field set to undefined (back to GitBook's default) is left out, as GitBook's markdown leaves it. */
export function withData(data: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...data, ...changes })) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * For ReactNodeViewRenderer's `stopEvent`: events in a node view's controls (marked
 * `data-controls`: a title field, a menu's button) are theirs, not ProseMirror's, which
 * would otherwise take a click on a label or a key in a field for writing in the page.
 */
export const controlsOwnTheirEvents = ({ event }: { event: Event }): boolean =>
  event.target instanceof Element && event.target.closest('[data-controls]') !== null;

/**
 * A field of a node view that writes into the document as it is typed (a tab's title, a
 * code block's): while it has the focus it shows what was typed, as the document's
 * value comes back a render later, and a field given a value it does not already show
 * puts the caret at its end, so letters typed into the middle would jump there.
 */
export function useTypedField(stored: string, save: (text: string) => void) {
  const [typed, setTyped] = useState<string | undefined>(undefined);
  return {
    value: typed ?? stored,
    onFocus: () => setTyped(stored),
    onBlur: () => setTyped(undefined),
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      setTyped(event.currentTarget.value);
      save(event.currentTarget.value);
    },
  };
}

/** The position of the `index`th child of the node at `position`. */
export function childPosition(node: ProseMirrorNode, position: number, index: number): number {
  let at = position + 1;
  for (let child = 0; child < index; child++) at += node.child(child).nodeSize;
  return at;
}

// The containers that must keep a place to write in (the nodes an empty one gets), and
// those that mean nothing once their last item is gone.
const FILLED_WITH: Record<string, string> = { hint: 'paragraph', tabsItem: 'paragraph', stepperStep: 'paragraph', column: 'paragraph', codeBlock: 'codeLine' };
const GONE_WHEN_EMPTY = new Set(['tabs', 'stepper', 'columns', 'expandable']);

/**
 * The ranges of the final document that the transactions changed: what their steps
 * replaced, and the node whose attributes a step set (AttrStep moves nothing, so its
 * map is empty; its `pos` says where).
 */
export function changedRanges(transactions: readonly Transaction[]): Array<[number, number]> {
  let ranges: Array<[number, number]> = [];
  for (const tr of transactions) {
    tr.steps.forEach((step, index) => {
      const map = tr.mapping.maps[index];
      ranges = ranges.map(([from, to]) => [map.map(from, -1), map.map(to, 1)]);
      let replaced = false;
      map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
        replaced = true;
        ranges.push([newStart, newEnd]);
      });
      const position = (step as { pos?: unknown }).pos;
      if (!replaced && typeof position === 'number') ranges.push([position, position + 1]);
    });
  }
  return ranges;
}

/**
 * After a change, a container it touched that was left empty gets an empty paragraph (a
 * code block an empty line, an expandable's title or body a paragraph), and tabs,
 * steppers, columns and expandables left with nothing in them go. Only what the change
 * touched: a page opened and saved unedited is written back as it was.
 */
const keepAPlaceToWrite = new Plugin({
  key: new PluginKey('containersKeepAPlaceToWrite'),
  appendTransaction(transactions, _before, state) {
    if (!transactions.some((tr) => tr.docChanged)) return null;
    const fixes = new Map<number, { fill?: string; remove?: number }>();
    for (const [from, to] of changedRanges(transactions)) {
      const start = Math.max(0, from - 1);
      const end = Math.min(state.doc.content.size, to + 1);
      state.doc.nodesBetween(start, end, (node, position, parent) => {
        if (node.childCount > 0 || node.isTextblock || node.isAtom) return;
        const name = node.type.name;
        if (GONE_WHEN_EMPTY.has(name)) fixes.set(position, { remove: node.nodeSize });
        else if (FILLED_WITH[name]) fixes.set(position, { fill: FILLED_WITH[name] });
        else if (name === 'fragment' && parent?.type.name === 'expandable') fixes.set(position, { fill: 'paragraph' });
      });
    }
    if (fixes.size === 0) return null;
    const tr = state.tr;
    for (const [position, fix] of [...fixes].sort(([first], [second]) => second - first)) {
      if (fix.remove) tr.delete(position, position + fix.remove);
      else tr.insert(position + 1, state.schema.nodes[fix.fill!].create());
    }
    return tr;
  },
});

/** Whether the node at `depth` around the cursor is an item of a container: a tab, a step, a column, an expandable's title or body. */
function isItem(state: EditorState, depth: number): boolean {
  const { $from } = state.selection;
  const item = $from.node(depth);
  if (['tabsItem', 'stepperStep', 'column'].includes(item.type.name)) return true;
  return item.type.name === 'fragment' && $from.node(depth - 1).type.name === 'expandable';
}

/**
 * Backspace at the start of a tab, step or column, or of an expandable's title or body,
 * where ProseMirror would join two items (a tab's words into the tab before, losing its
 * title; an expandable's body into its title) or lift the line out and split the block:
 * the cursor goes to the end of the item before (an empty step goes), and from the
 * first item the whole block is selected, which a second Backspace deletes. Delete at
 * an item's end does nothing, for the same reason.
 */
const itemEdgeKeys = keymap({
  Backspace: (state, dispatch) => {
    const { $from, empty } = state.selection;
    const depth = $from.depth - 1;
    if (!empty || $from.parentOffset > 0 || depth < 1 || $from.index(depth) > 0 || !isItem(state, depth)) return false;
    const item = $from.node(depth);
    const itemStart = $from.before(depth);
    if ($from.index(depth - 1) === 0) {
      dispatch?.(state.tr.setSelection(NodeSelection.create(state.doc, $from.before(depth - 1))));
      return true;
    }
    const tr = state.tr;
    if (item.type.name === 'stepperStep' && item.childCount === 1 && item.firstChild!.content.size === 0) tr.delete(itemStart, itemStart + item.nodeSize);
    dispatch?.(tr.setSelection(Selection.near(tr.doc.resolve(itemStart), -1)).scrollIntoView());
    return true;
  },
  Delete: (state) => {
    const { $from, empty } = state.selection;
    const depth = $from.depth - 1;
    return empty && depth >= 1 && $from.parentOffset === $from.parent.content.size && $from.index(depth) === $from.node(depth).childCount - 1 && isItem(state, depth);
  },
});

/**
 * Enter on an empty line of a tab, a step, a column or an expandable's body: a new line
 * after it; at the very end of the block's last item, the line leaves the block (as an
 * empty line at the end of a quote does), where ProseMirror would split the item or
 * the whole block in two.
 */
const emptyLineKeys = keymap({
  Enter: (state, dispatch) => {
    const { $from, empty } = state.selection;
    const depth = $from.depth - 1;
    if (!empty || depth < 2 || $from.parent.type.name !== 'paragraph' || $from.parent.content.size > 0 || !isItem(state, depth)) return false;
    // An expandable's title is one paragraph: Enter there is the expandable part's.
    if ($from.node(depth).attrs.fragment === 'expandable-title') return false;
    const item = $from.node(depth);
    const container = $from.node(depth - 1);
    const lastLine = $from.index(depth) === item.childCount - 1;
    const tr = state.tr;
    if (lastLine && $from.index(depth - 1) === container.childCount - 1 && item.childCount > 1) {
      const after = $from.after(depth - 1);
      tr.insert(after, state.schema.nodes.paragraph.create()).delete($from.before(), $from.after());
      tr.setSelection(TextSelection.create(tr.doc, tr.mapping.map(after, 1) - 1));
    } else {
      tr.split($from.pos);
    }
    dispatch?.(tr.scrollIntoView());
    return true;
  },
});

/**
 * A click on an empty container (a tab or a step stored with nothing in it, as Quire
 * stores an untouched one) gives it a line to write on: ProseMirror has no place for the
 * cursor in a node that holds no text.
 */
const clickIntoEmpty = new Plugin({
  key: new PluginKey('containersClickIntoEmpty'),
  props: {
    handleClickOn(view, _position, node, nodePosition) {
      const fill = FILLED_WITH[node.type.name];
      if (!fill || node.childCount > 0) return false;
      const tr = view.state.tr.insert(nodePosition + 1, view.state.schema.nodes[fill].create());
      view.dispatch(tr.setSelection(TextSelection.create(tr.doc, nodePosition + 2)).scrollIntoView());
      return true;
    },
  },
});

export const part: EditorPart = {
  plugins: () => [keepAPlaceToWrite, emptyLineKeys, itemEdgeKeys, clickIntoEmpty],
  styles: `
.${EDITOR_CLASS} :is(.quire-step-content, .quire-column-content, .quire-hint-content) > [data-node-view-content-react]:empty, .${EDITOR_CLASS} div[data-type="tabsItem"]:empty { min-height: 1.6em; cursor: text; }
.${EDITOR_CLASS} div[data-type][data-type="tabsItem"]:empty::before { content: "Empty: click to write"; }
`,
};
