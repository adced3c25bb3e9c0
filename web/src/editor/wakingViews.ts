// A long page opens without making every block's node view: on a page of 5,000 blocks
// the 1,500 hints, code blocks and tables each mounted a React view (a portal, whose
// container React gives its ~80 event listeners, and a renderer TipTap copies its whole
// list of renderers to add), which took seconds before a key could be typed
// (bench/editor-browser.ts). So a block view of the page as it opened, past the first
// screen, starts asleep: the block's plain schema DOM, which ProseMirror edits as it
// edits any block, and an IntersectionObserver wakes it as it nears the view. Waking is
// a transaction that only puts a node decoration on the block, which makes ProseMirror
// ask the sleeping view to update; it declines, and the block is drawn again with its
// real view. A view made once the page has changed (a typed, pasted or moved block) is
// made awake: only the page as it opened sleeps, with the blocks it adds as it opens.
import type { NodeViewRenderer, NodeViewRendererProps } from '@tiptap/core';
import { DOMSerializer, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView, type NodeView } from '@tiptap/pm/view';
import { fillingKey } from './filling.ts';

/** Top-level blocks whose views are made at once: more than a tall screen holds. */
const FIRST_AWAKE = 40;
/** How near the view a block wakes: a screen above and below, so scrolling meets woken blocks. */
const NEAR = '100% 0px';

interface Waking {
  /** The document the page opened with: views made for it past `firstAsleep` may sleep. */
  openedWith: ProseMirrorNode;
  firstAsleep: number;
  /** The waking decorations, for the one transaction that wakes their blocks. */
  decorations: DecorationSet;
}

const key = new PluginKey<Waking>('quireWakingViews');
const isWaking = (decoration: Decoration) => (decoration.spec as { waking?: boolean }).waking === true;

/** One editor's sleeping views, by their DOM, and the observer that wakes them. */
interface Dormitory {
  sleepers: Map<Element, Sleeper>;
  observer: IntersectionObserver;
}

const dormitories = new WeakMap<EditorView, Dormitory>();

function dormitoryOf(view: EditorView): Dormitory {
  let dormitory = dormitories.get(view);
  if (dormitory) return dormitory;
  const sleepers = new Map<Element, Sleeper>();
  const observer = new IntersectionObserver(
    (entries) => {
      if (view.isDestroyed) return;
      const woken = entries.filter((entry) => entry.isIntersecting).map((entry) => sleepers.get(entry.target)?.position());
      const positions = woken.filter((position): position is number => position !== undefined);
      if (positions.length > 0) view.dispatch(view.state.tr.setMeta(key, positions));
    },
    { rootMargin: NEAR },
  );
  dormitory = { sleepers, observer };
  dormitories.set(view, dormitory);
  return dormitory;
}

/** A block's view while it sleeps: its schema DOM, with its content where ProseMirror puts it. */
class Sleeper implements NodeView {
  readonly dom: HTMLElement;
  readonly contentDOM: HTMLElement | null;

  constructor(
    private node: ProseMirrorNode,
    private readonly getPos: () => number | undefined,
    private readonly dormitory: Dormitory,
  ) {
    const drawn = DOMSerializer.renderSpec(document, node.type.spec.toDOM!(node));
    this.dom = drawn.dom as HTMLElement;
    this.contentDOM = (drawn.contentDOM as HTMLElement | undefined) ?? null;
    dormitory.sleepers.set(this.dom, this);
    dormitory.observer.observe(this.dom);
  }

  position(): number | undefined {
    return this.getPos();
  }

  /** Kept while it is the same kind of block, unless it is being woken: then ProseMirror makes its real view. */
  update(node: ProseMirrorNode, decorations: readonly Decoration[]): boolean {
    if (node.type !== this.node.type || decorations.some(isWaking)) return false;
    this.node = node;
    return true;
  }

  destroy() {
    this.dormitory.observer.unobserve(this.dom);
    this.dormitory.sleepers.delete(this.dom);
  }
}

/** `renderer`'s views, asleep where the page opened with them out of the first screen. */
export function wakingWhenNear(renderer: NodeViewRenderer): NodeViewRenderer {
  return (props: NodeViewRendererProps) => {
    const { node, view, getPos, decorations } = props;
    const waking = key.getState(view.state);
    const position = getPos();
    if (!waking || node.isInline || view.state.doc !== waking.openedWith || position === undefined || position < waking.firstAsleep || decorations.some(isWaking)) return renderer(props);
    return new Sleeper(node, getPos, dormitoryOf(view));
  };
}

function firstAsleepIn(doc: ProseMirrorNode): number {
  let firstAsleep = doc.content.size;
  if (doc.childCount > FIRST_AWAKE) doc.forEach((_block, offset, index) => index === FIRST_AWAKE && (firstAsleep = offset));
  return firstAsleep;
}

/** Knows the document the page opened with, and puts the waking decoration on the blocks an observer saw. */
export const wakingViews = new Plugin<Waking>({
  key,
  state: {
    init: (_config, state) => ({ openedWith: state.doc, firstAsleep: firstAsleepIn(state.doc), decorations: DecorationSet.empty }),
    apply(transaction, previous) {
      // A long page's later blocks, added as it opens (filling.ts), are the page as it opened too.
      if (transaction.getMeta(fillingKey)) return { ...previous, openedWith: transaction.doc, decorations: DecorationSet.empty };
      const positions = transaction.getMeta(key) as number[] | undefined;
      if (!positions) return previous.decorations === DecorationSet.empty ? previous : { ...previous, decorations: DecorationSet.empty };
      const decorations = positions.flatMap((position) => {
        const node = transaction.doc.nodeAt(position);
        return node ? [Decoration.node(position, position + node.nodeSize, {}, { waking: true })] : [];
      });
      return { ...previous, decorations: DecorationSet.create(transaction.doc, decorations) };
    },
  },
  // No plugin view to disconnect the observer: a sleeper unobserves itself when ProseMirror destroys it, as it does every view when the editor goes.
  props: { decorations: (state) => key.getState(state)?.decorations },
});
