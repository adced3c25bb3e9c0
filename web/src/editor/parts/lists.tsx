// Lists: bulleted, numbered and GitBook's task lists (`list-tasks`, whose `list-item`s
// carry `data.checked`), from the slash menu and from markdown shortcuts (- or 1. and a
// space; [ ] or [x] and a space, at a paragraph's or a list item's start). An item in a
// task list is drawn with a real checkbox; Ctrl/⌘+Enter ticks the one being written in.
// Enter makes the next item (an empty one ends the list), Tab nests, Shift+Tab un-nests.
import { InputRule, wrappingInputRule, type Editor, type NodeViewRenderer, type NodeViewRendererProps } from '@tiptap/core';
import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';
import { keymap } from '@tiptap/pm/keymap';
import { Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView, type NodeView } from '@tiptap/pm/view';
import type { EditorPart } from '../part.ts';
import { keyName, touched } from './marks.tsx';

const TOGGLE_KEY = 'Mod-Enter';

const LISTS = new Set(['listUnordered', 'listOrdered', 'listTasks']);

type Range = { from: number; to: number };

/** An item's data with `checked` set, or without it where the list is no task list (GitBook's other lists' items have none). */
function withChecked(item: ProseMirrorNode, checked: boolean | undefined): Record<string, unknown> {
  const { checked: _old, ...rest } = (item.attrs.data ?? {}) as Record<string, unknown>;
  return checked === undefined ? rest : { ...rest, checked };
}

/**
 * Makes every item of the list at `position` fit its kind: in a task list each has
 * `checked` (false unless it had it, or `ticked` says otherwise), in another list none
 * has. Items already right are left as they are.
 */
function fitItems(tr: Transaction, position: number, ticked?: { index: number; checked: boolean }) {
  const list = tr.doc.nodeAt(position);
  if (!list) return;
  const tasks = list.type.name === 'listTasks';
  let at = position + 1;
  list.forEach((item, _offset, index) => {
    const data = (item.attrs.data ?? {}) as Record<string, unknown>;
    const had = data.checked;
    const checked = ticked?.index === index ? ticked.checked : typeof had === 'boolean' ? had : false;
    if (tasks ? had !== checked : 'checked' in data) tr.setNodeMarkup(at, undefined, { ...item.attrs, data: withChecked(item, tasks ? checked : undefined) });
    at += item.nodeSize;
  });
}

/** The depth of the list that holds the selection's innermost list item, if any. */
function listDepth($position: ResolvedPos): number | undefined {
  for (let depth = $position.depth; depth > 0; depth--) if (LISTS.has($position.node(depth).type.name)) return depth;
  return undefined;
}

/** Turns the paragraph where `/…` was typed (or the list it is in) into a list of `name`, its items made to fit. */
const makeList = (name: string) => (editor: Editor, range: Range) =>
  editor
    .chain()
    .focus()
    .deleteRange(range)
    .toggleList(name, 'listItem')
    .command(({ tr }) => {
      const depth = listDepth(tr.selection.$from);
      if (depth !== undefined) fitItems(tr, tr.selection.$from.before(depth));
      return true;
    })
    .run();

/** `[ ] ` or `[x] ` typed at a list item's start makes its list a task list; at a paragraph's start, a task list of one item. */
function taskRule(): InputRule {
  return new InputRule({
    find: /^\[([ xX]?)\]\s$/,
    handler: ({ state, range, match }) => {
      const { listTasks, listItem } = state.schema.nodes;
      const $from = state.doc.resolve(range.from);
      if ($from.parent.type.name !== 'paragraph') return null;
      const checked = match[1].toLowerCase() === 'x';
      const tr = state.tr;
      const inItem = $from.depth >= 3 && $from.node(-1).type === listItem && $from.index(-1) === 0 && LISTS.has($from.node(-2).type.name);
      if (inItem) {
        const listPosition = $from.before(-2);
        tr.delete(range.from, range.to);
        if ($from.node(-2).type !== listTasks) tr.setNodeMarkup(listPosition, listTasks, { ...$from.node(-2).attrs, data: {} });
        fitItems(tr, listPosition, { index: $from.index(-2), checked });
        return;
      }
      const start = $from.before();
      if (!$from.node(-1).canReplaceWith($from.index(-1), $from.index(-1) + 1, listTasks)) return null;
      tr.delete(range.from, range.to);
      const paragraph = tr.doc.nodeAt(start)!;
      tr.replaceWith(start, start + paragraph.nodeSize, listTasks.create({ data: {} }, listItem.create({ data: { checked } }, paragraph)));
      tr.setSelection(TextSelection.create(tr.doc, start + 3));
    },
  });
}

/** Whether the selection is in a list item's own text (not in a code block or other block within it, whose keys are theirs). */
const inItemText = (state: EditorState) => state.selection.$from.depth >= 2 && state.selection.$from.node(-1).type.name === 'listItem';

/** The task item whose text the selection is in, and where it starts. */
function taskItemAt(state: EditorState): { item: ProseMirrorNode; position: number } | undefined {
  const { $from } = state.selection;
  if (!inItemText(state) || $from.node(-2).type.name !== 'listTasks') return undefined;
  return { item: $from.node(-1), position: $from.before(-1) };
}

const setChecked = (tr: Transaction, position: number, item: ProseMirrorNode, checked: boolean) => tr.setNodeMarkup(position, undefined, { ...item.attrs, data: withChecked(item, checked) });

/**
 * Enter as TipTap's splitListItem does, but a task item starts unticked: the split keeps
 * the item's data (a block split at its end keeps its data), which would copy a tick.
 */
function splitItem(editor: Editor): boolean {
  const { $from } = editor.state.selection;
  if (!editor.can().splitListItem('listItem')) return false;
  // Enter at the start of an item's text pushes it down: the new, empty item is the one above.
  const emptyLast = $from.parent.content.size === 0 && $from.node(-1).childCount === $from.indexAfter(-1);
  const pushedDown = !emptyLast && $from.parentOffset === 0 && $from.index(-1) === 0;
  return editor
    .chain()
    .splitListItem('listItem')
    .command(({ tr }) => {
      const $cursor = tr.selection.$from;
      const itemDepth = $cursor.depth - 1;
      if (itemDepth < 2 || $cursor.node(itemDepth - 1).type.name !== 'listTasks') return true;
      const index = $cursor.index(itemDepth - 1) - (pushedDown ? 1 : 0);
      const list = $cursor.node(itemDepth - 1);
      let position = $cursor.start(itemDepth - 1);
      for (let child = 0; child < index; child++) position += list.child(child).nodeSize;
      setChecked(tr, position, list.child(index), false);
      return true;
    })
    .run();
}

function toggleTask(editor: Editor): boolean {
  const found = taskItemAt(editor.state);
  if (!found) return false;
  editor.view.dispatch(setChecked(editor.state.tr, found.position, found.item, found.item.attrs.data?.checked !== true));
  return true;
}

// Which items stand in a task list, as node decorations, so that an item's view knows
// (and is drawn anew) when its list becomes or stops being one.
const taskItemsKey = new PluginKey<DecorationSet>('taskItems');

/** The task item decorations of the lists `nodesBetween(from, to)` meets, for their items that overlap from…to (as DecorationSet.find counts overlap). */
function taskItemDecorations(doc: ProseMirrorNode, from: number, to: number): Decoration[] {
  const found: Decoration[] = [];
  doc.nodesBetween(from, to, (node, position) => {
    if (node.type.name === 'listTasks') {
      node.forEach((item, offset) => {
        const at = position + 1 + offset;
        if (at <= to && at + item.nodeSize >= from) found.push(Decoration.node(at, at + item.nodeSize, {}, { task: true }));
      });
    }
    return !node.isTextblock;
  });
  return found;
}

const taskItems = new Plugin<DecorationSet>({
  key: taskItemsKey,
  state: {
    init: (_config, state) => DecorationSet.create(state.doc, taskItemDecorations(state.doc, 0, state.doc.content.size)),
    // Only where the change was: a keystroke in a long page does not look at every list again.
    apply: (tr, old) => {
      if (!tr.docChanged) return old;
      const [from, to] = touched(tr);
      const set = old.map(tr.mapping, tr.doc);
      return set.remove(set.find(from, to)).add(tr.doc, taskItemDecorations(tr.doc, from, to));
    },
  },
  props: { decorations: (state) => taskItemsKey.getState(state) },
});

const isTask = (decorations: readonly Decoration[]) => decorations.some((decoration) => (decoration.spec as { task?: boolean }).task);

/** What a task's checkbox is called: the task's words, so that a list of them can be told apart. */
const taskName = (item: ProseMirrorNode) => item.textContent.trim().slice(0, 80) || 'Empty task';

/** A list item: plain in bulleted and numbered lists; in a task list, with a checkbox that ticks it. */
class ListItemView implements NodeView {
  dom: HTMLElement;
  contentDOM: HTMLElement;
  private checkbox?: HTMLInputElement;
  private controls?: HTMLElement;

  constructor(
    private node: ProseMirrorNode,
    private readonly task: boolean,
    view: EditorView,
    getPos: () => number | undefined,
  ) {
    this.dom = document.createElement('li');
    this.dom.dataset.type = 'listItem';
    if (!task) {
      this.contentDOM = this.dom;
      return;
    }
    this.dom.className = 'quire-task';
    this.controls = document.createElement('span');
    this.controls.contentEditable = 'false';
    this.controls.className = 'quire-task-check';
    this.checkbox = document.createElement('input');
    this.checkbox.type = 'checkbox';
    this.checkbox.title = `Done or not (${keyName(TOGGLE_KEY)} in the task)`;
    this.checkbox.addEventListener('change', () => {
      const position = getPos();
      if (position === undefined || !this.checkbox) return;
      view.dispatch(setChecked(view.state.tr, position, this.node, this.checkbox.checked));
    });
    this.controls.append(this.checkbox);
    this.contentDOM = document.createElement('div');
    this.contentDOM.className = 'quire-task-text';
    this.dom.append(this.controls, this.contentDOM);
    this.render();
  }

  private render() {
    if (!this.checkbox) return;
    this.checkbox.checked = this.node.attrs.data?.checked === true;
    this.checkbox.setAttribute('aria-label', taskName(this.node));
    this.dom.toggleAttribute('data-checked', this.checkbox.checked);
  }

  update(node: ProseMirrorNode, decorations: readonly Decoration[]): boolean {
    if (node.type !== this.node.type || isTask(decorations) !== this.task) return false;
    this.node = node;
    this.render();
    return true;
  }

  stopEvent(event: Event): boolean {
    return !!this.controls && event.target instanceof Node && this.controls.contains(event.target);
  }

  ignoreMutation(mutation: MutationRecord | { type: 'selection'; target: Node }): boolean {
    return mutation.type !== 'selection' && !!this.controls && this.controls.contains(mutation.target);
  }
}

const listItemView: NodeViewRenderer = ({ node, decorations, view, getPos }: NodeViewRendererProps) => new ListItemView(node, isTask(decorations), view, getPos);

export const part: EditorPart = {
  order: 20,
  views: { listItem: listItemView },
  slash: [
    { title: 'Bulleted list', description: 'A list with bullets', keywords: ['unordered', 'ul', 'bullet', 'list'], group: 'Lists', insert: makeList('listUnordered') },
    { title: 'Numbered list', description: 'A list counted 1, 2, 3', keywords: ['ordered', 'ol', 'number', 'list'], group: 'Lists', insert: makeList('listOrdered') },
    { title: 'Task list', description: 'Tasks with checkboxes to tick', keywords: ['todo', 'to-do', 'checkbox', 'checklist', 'list'], group: 'Lists', insert: makeList('listTasks') },
  ],
  inputRules: (editor) => {
    const { nodes } = editor.schema;
    return [wrappingInputRule({ find: /^\s*([-+*])\s$/, type: nodes.listUnordered }), wrappingInputRule({ find: /^(\d+)\.\s$/, type: nodes.listOrdered }), taskRule()];
  },
  // A keymap of its own rather than `keys`, which other parts' Enter and Tab would replace.
  plugins: (editor) => [
    taskItems,
    keymap({
      Enter: () => splitItem(editor),
      Tab: (state) => inItemText(state) && editor.commands.sinkListItem('listItem'),
      'Shift-Tab': (state) => inItemText(state) && editor.commands.liftListItem('listItem'),
      [TOGGLE_KEY]: () => toggleTask(editor),
    }),
  ],
  styles: `
.quire-editor ul[data-type="listTasks"] { list-style: none; padding-left: 0.25rem; }
.quire-editor li.quire-task { display: flex; gap: 0.5rem; align-items: flex-start; }
.quire-editor .quire-task-check { flex: none; user-select: none; line-height: 1.6; }
.quire-editor .quire-task-check input { width: 1rem; height: 1rem; margin: 0.3em 0 0; cursor: pointer; accent-color: var(--mantine-primary-color-filled); }
.quire-editor .quire-task-text { flex: 1; min-width: 0; }
.quire-editor li > p, .quire-editor .quire-task-text > p { margin: 0.2em 0; }
.quire-editor li.quire-task[data-checked] > .quire-task-text { color: var(--mantine-color-dimmed); }
`,
};
