// Moving blocks: a grip beside the top-level block under the pointer (or, the pointer
// elsewhere, the block holding the selection) drags that block to where it is dropped,
// through ProseMirror's own node drag (a node selection and view.dragging, so the drop is
// its move). Pressed (a click, or Enter once Tab has reached it from the page), the grip
// selects its block and opens the block's menu: move up, move down, duplicate, delete.
// Alt-Shift-↑ and Alt-Shift-↓ move the block holding the cursor up or down. Each move
// is one undo step.
import { Kbd, Menu } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import { NodeSelection, Plugin, PluginKey, Selection, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import type { EditorPart, PartProps } from '../part.ts';

/** Where the top-level block holding a position starts. */
function topLevelBlockAt(state: EditorState, pos: number): number | undefined {
  const { doc } = state;
  if (doc.childCount === 0) return undefined;
  const { node, offset } = doc.childAfter(Math.max(0, Math.min(pos, doc.content.size - 1)));
  return node ? offset : undefined;
}

/**
 * The block holding the selection swapped with its neighbour above (-1) or below (+1),
 * the selection moving with it; false at the page's top or end.
 */
export function moveBlock(state: EditorState, direction: -1 | 1, dispatch?: (tr: Transaction) => void): boolean {
  const { doc, selection } = state;
  const index = selection.$from.index(0);
  const neighbourIndex = index + direction;
  if (selection.$from.depth === 0 && !(selection instanceof NodeSelection)) return false;
  if (neighbourIndex < 0 || neighbourIndex >= doc.childCount) return false;
  if (!dispatch) return true;
  const block = doc.child(index);
  const neighbour = doc.child(neighbourIndex);
  let start = 0;
  for (let at = 0; at < Math.min(index, neighbourIndex); at++) start += doc.child(at).nodeSize;
  const [first, second] = direction < 0 ? [block, neighbour] : [neighbour, block];
  const tr = closeHistory(state.tr).replaceWith(start, start + block.nodeSize + neighbour.nodeSize, [first, second]);
  // The block moved by its neighbour's size: the selection with it.
  const shift = direction < 0 ? -neighbour.nodeSize : neighbour.nodeSize;
  tr.setSelection(
    selection instanceof NodeSelection
      ? NodeSelection.create(tr.doc, selection.from + shift)
      : TextSelection.create(tr.doc, selection.anchor + shift, selection.head + shift),
  );
  dispatch(tr.scrollIntoView());
  return true;
}

const GRIP = '<svg width="14" height="18" viewBox="0 0 14 18" aria-hidden="true" fill="currentColor"><circle cx="4" cy="4" r="1.5"/><circle cx="10" cy="4" r="1.5"/><circle cx="4" cy="9" r="1.5"/><circle cx="10" cy="9" r="1.5"/><circle cx="4" cy="14" r="1.5"/><circle cx="10" cy="14" r="1.5"/></svg>';

/** Where the grip stands: beside the block starting at `block`, `top` pixels down the editor's box; hidden when there is none. */
interface Place {
  block: number | undefined;
  top: number;
}

/**
 * One editor's grip, kept for the editor's life: TipTap makes its plugin views again
 * when EditorContent mounts (and moves everything beside the page into its own element,
 * the layer the grip is drawn in with it), so this outlives them.
 */
class GripState {
  place: Place = { block: undefined, top: 0 };
  /** The grip has the focus, or its menu is open: it stays where it is. */
  held = false;
  /** The element the overlay draws the grip in, beside the page. */
  readonly layer = document.createElement('div');
  placeSoon: () => void = () => {};
  /** Beside the block holding the selection, at once: where the keyboard reaches the grip from. */
  placeAtSelection: () => void = () => {};
  private readonly listeners = new Set<() => void>();

  constructor() {
    this.layer.className = 'quire-drag-layer';
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  set(place: Place) {
    if (place.block === this.place.block && place.top === this.place.top) return;
    this.place = place;
    for (const listener of this.listeners) listener();
  }

  hold(held: boolean) {
    this.held = held;
    this.placeSoon();
  }
}

const grips = new WeakMap<EditorView, GripState>();

function gripOf(view: EditorView): GripState {
  let grip = grips.get(view);
  if (!grip) grips.set(view, (grip = new GripState()));
  return grip;
}

/** Follows the pointer and the selection to the block the grip stands beside. */
class GripPlacing {
  private hovered: number | undefined;
  private frame = 0;
  private readonly grip: GripState;

  constructor(private readonly view: EditorView) {
    this.grip = gripOf(view);
    const host = view.dom.parentElement!;
    host.classList.add('quire-drag-host');
    if (this.grip.layer.parentElement !== host) host.appendChild(this.grip.layer);
    this.grip.placeSoon = () => this.placeSoon();
    this.grip.placeAtSelection = () => this.place(true);
    view.dom.addEventListener('mousemove', this.pointerMove);
    host.addEventListener('mouseleave', this.pointerLeave);
    this.placeSoon();
  }

  update() {
    this.placeSoon();
  }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.view.dom.removeEventListener('mousemove', this.pointerMove);
    this.view.dom.parentElement?.removeEventListener('mouseleave', this.pointerLeave);
  }

  private readonly pointerMove = (event: MouseEvent) => {
    const rect = this.view.dom.getBoundingClientRect();
    // A point inside the page's column at the pointer's height, so the left margin finds its block too.
    const found = this.view.posAtCoords({ left: Math.min(Math.max(event.clientX, rect.left + 24), rect.right - 8), top: event.clientY });
    if (!found) return;
    const pos = found.inside >= 0 ? found.inside : found.pos;
    if (pos === this.hovered) return;
    this.hovered = pos;
    this.placeSoon();
  };

  private readonly pointerLeave = (event: MouseEvent) => {
    if (event.relatedTarget instanceof Node && this.grip.layer.contains(event.relatedTarget)) return;
    this.hovered = undefined;
    this.placeSoon();
  };

  /**
   * Placed at the next frame, once for all the transactions and moves before it: placing
   * reads the layout, which in a keystroke's handling would lay out a long page twice.
   */
  private placeSoon() {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.place());
  }

  /** Beside the hovered block (unless `atSelection`), else the selection's, else hidden; where it is while held. */
  private place(atSelection = false) {
    if (this.view.isDestroyed || (this.grip.held && this.grip.place.block !== undefined && !atSelection)) return;
    const { state } = this.view;
    const hovered = atSelection ? undefined : this.hovered;
    const block = topLevelBlockAt(state, hovered ?? state.selection.from);
    const dom = block === undefined ? null : this.view.nodeDOM(block);
    if (block === undefined || !(dom instanceof HTMLElement) || (hovered === undefined && !this.view.hasFocus() && !atSelection)) return this.grip.set({ ...this.grip.place, block: undefined });
    const host = this.view.dom.parentElement!.getBoundingClientRect();
    const box = dom.getBoundingClientRect();
    this.grip.set({ block, top: box.top - host.top + Math.min(box.height, 28) / 2 - 11 });
  }
}

/** ProseMirror's node drag: the block selected, its slice the drag's, so that the drop moves it. */
function dragStart(view: EditorView, block: number, event: DragEvent) {
  if (!event.dataTransfer) return;
  const selection = NodeSelection.create(view.state.doc, block);
  view.dispatch(view.state.tr.setSelection(selection));
  const { dom, text, slice } = view.serializeForClipboard(selection.content());
  event.dataTransfer.clearData();
  event.dataTransfer.setData('text/html', dom.innerHTML);
  event.dataTransfer.setData('text/plain', text);
  event.dataTransfer.effectAllowed = 'copyMove';
  const blockDom = view.nodeDOM(block);
  if (blockDom instanceof HTMLElement) event.dataTransfer.setDragImage(blockDom, 0, 0);
  // `node`, which ProseMirror's drop deletes on a move, is in its Dragging but not in the type it declares.
  view.dragging = { slice, move: true, node: selection } as EditorView['dragging'];
}

/** A drag dropped outside the page leaves no slice behind for the next drop from elsewhere (ProseMirror clears its own on the page's dragend). */
function dragEnd(view: EditorView) {
  const { dragging } = view;
  setTimeout(() => {
    if (view.dragging === dragging) view.dragging = null;
  }, 50);
  gripOf(view).placeSoon();
}

/** The block starting at `block` selected, then `act` on the page as it is then. */
function onBlock(view: EditorView, block: number, act: (state: EditorState, dispatch: (tr: Transaction) => void) => void) {
  if (block >= view.state.doc.content.size) return;
  view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, block)));
  act(view.state, view.dispatch);
  view.focus();
}

/** The block after itself, the copy selected. */
function duplicateBlock(state: EditorState, dispatch: (tr: Transaction) => void) {
  const { from, to } = state.selection;
  const block = state.doc.nodeAt(from)!;
  const tr = closeHistory(state.tr).insert(to, block);
  dispatch(tr.setSelection(NodeSelection.create(tr.doc, to)).scrollIntoView());
}

/** The block gone, the cursor where it was; the page's only block leaves an empty paragraph. */
function deleteBlock(state: EditorState, dispatch: (tr: Transaction) => void) {
  const { from, to } = state.selection;
  const tr = closeHistory(state.tr);
  if (state.doc.childCount === 1) tr.replaceWith(from, to, state.schema.nodes.paragraph.create());
  else tr.delete(from, to);
  dispatch(tr.setSelection(Selection.near(tr.doc.resolve(Math.min(from, tr.doc.content.size)))).scrollIntoView());
}

/** The grip, drawn in the editor's box beside its block, and the block's menu it opens. */
function BlockHandle({ editor }: PartProps) {
  const { view } = editor;
  const grip = gripOf(view);
  const place = useSyncExternalStore(grip.subscribe, () => grip.place);
  const [menuFor, setMenuFor] = useState<number>();
  const block = menuFor ?? place.block;
  const act = (action: (state: EditorState, dispatch: (tr: Transaction) => void) => void) => () => menuFor !== undefined && onBlock(view, menuFor, action);
  const open = (opened: boolean) => {
    // The grip's place as it is now: it may have moved since this render (a focus from the keyboard moves it at once).
    const { block } = grip.place;
    setMenuFor(opened ? block : undefined);
    grip.hold(opened);
    if (opened && block !== undefined) view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, block)));
    // Closed from inside it (Escape), the writer is back in the page, the block selected.
    if (!opened && grip.layer.contains(document.activeElement)) view.focus();
  };
  // As a menu button's does, the menu's first item takes the focus as it shows; the arrows move on from there.
  const focusFirstItem = () => grip.layer.querySelector<HTMLElement>('[data-menu-item]')?.focus();
  return createPortal(
    <Menu opened={menuFor !== undefined} onChange={open} position="bottom-start" shadow="md" withinPortal={false} trapFocus={false} withInitialFocusPlaceholder={false} transitionProps={{ onEntered: focusFirstItem }}>
      <Menu.Target>
        <button
          type="button"
          className="quire-drag-handle"
          data-testid="drag-handle"
          hidden={block === undefined}
          style={{ top: place.top }}
          draggable
          aria-label="Block: drag to move it, or press for its menu"
          title="Drag to move this block (Alt+Shift+↑ or ↓ with the keyboard); click for its menu"
          onMouseDown={(event) => event.stopPropagation()}
          // Escape before the menu has shown, the focus still here.
          onKeyDown={(event) => event.key === 'Escape' && menuFor !== undefined && open(false)}
          // Reached by Tab from the page, the grip is the cursor's block's, wherever the pointer rests and even before the next frame would have placed it.
          onFocus={(event) => {
            if (event.currentTarget.matches(':focus-visible')) grip.placeAtSelection();
            grip.hold(true);
          }}
          onBlur={() => menuFor === undefined && grip.hold(false)}
          onDragStart={(event) => place.block !== undefined && dragStart(view, place.block, event.nativeEvent)}
          onDragEnd={() => dragEnd(view)}
          dangerouslySetInnerHTML={{ __html: GRIP }}
        />
      </Menu.Target>
      <Menu.Dropdown aria-label="Block">
        <Menu.Item onClick={act((state, dispatch) => moveBlock(state, -1, dispatch))} rightSection={<Kbd size="xs">Alt ⇧ ↑</Kbd>}>
          Move up
        </Menu.Item>
        <Menu.Item onClick={act((state, dispatch) => moveBlock(state, 1, dispatch))} rightSection={<Kbd size="xs">Alt ⇧ ↓</Kbd>}>
          Move down
        </Menu.Item>
        <Menu.Item onClick={act(duplicateBlock)}>Duplicate</Menu.Item>
        <Menu.Item onClick={act(deleteBlock)}>Delete</Menu.Item>
      </Menu.Dropdown>
    </Menu>,
    grip.layer,
  );
}

export const part: EditorPart = {
  plugins: () => [
    new Plugin({
      key: new PluginKey('quireDragHandle'),
      view: (view) => new GripPlacing(view),
    }),
  ],
  overlay: BlockHandle,
  keys: (editor: Editor) => ({
    'Alt-Shift-ArrowUp': () => moveBlock(editor.state, -1, editor.view.dispatch),
    'Alt-Shift-ArrowDown': () => moveBlock(editor.state, 1, editor.view.dispatch),
  }),
  styles: `
.quire-drag-host { position: relative; }
.quire-drag-host > .quire-editor { padding-left: 1.75rem; }
.quire-drag-layer { position: absolute; top: 0; left: 0; }
.quire-drag-handle { position: absolute; left: 0.3rem; padding: 0; border: 0; background: none; width: 18px; height: 22px; display: flex; align-items: center; justify-content: center; cursor: grab; color: var(--mantine-color-dimmed); border-radius: var(--mantine-radius-sm); z-index: 2; }
.quire-drag-handle:hover, .quire-drag-handle[aria-expanded='true'] { background: var(--mantine-color-default-hover); color: var(--mantine-color-text); }
.quire-drag-handle:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); outline-offset: 1px; }
.quire-drag-handle[hidden] { display: none; }
`,
};
