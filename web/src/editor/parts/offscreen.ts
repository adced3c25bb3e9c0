// A long page is not slowed by its blocks out of view: Chromium lays out, paints and hit-tests only the
// top-level blocks near the view (CSS content-visibility: auto), where on a page of 5,000
// blocks its own editing took 250 ms a key without it (bench/editor-browser.ts). A block
// just made (Enter, a shortcut, a paste) would be skipped until the browser's next frame
// and the caret put elsewhere, so the blocks around the selection are always drawn: they
// carry NEAR, given by the same transaction that makes them.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';

const NEAR = 'quire-near';
/** Top-level blocks drawn on each side of the selection's. */
const AROUND = 10;

interface Near {
  first: number;
  last: number;
  doc: ProseMirrorNode;
  decorations: DecorationSet;
}

/** The top-level blocks kept drawn: those around the selection's first and last. */
function rangeOf({ doc, selection }: EditorState): { first: number; last: number } {
  return {
    first: Math.max(0, doc.resolve(selection.from).index(0) - AROUND),
    last: Math.min(doc.childCount - 1, doc.resolve(selection.to).index(0) + AROUND),
  };
}

function nearSelection(state: EditorState): Near {
  const { first, last } = rangeOf(state);
  const decorations: Decoration[] = [];
  state.doc.forEach((block, offset, index) => {
    if (index >= first && index <= last) decorations.push(Decoration.node(offset, offset + block.nodeSize, { class: NEAR }));
  });
  return { first, last, doc: state.doc, decorations: DecorationSet.create(state.doc, decorations) };
}

const key = new PluginKey<Near>('quireOffscreen');

const keepNearDrawn = new Plugin<Near>({
  key,
  state: {
    init: (_config, state) => nearSelection(state),
    apply(_transaction, previous, _before, state) {
      if (state.doc !== previous.doc) return nearSelection(state);
      const { first, last } = rangeOf(state);
      return first === previous.first && last === previous.last ? previous : nearSelection(state);
    },
  },
  props: {
    decorations: (state) => key.getState(state)?.decorations,
  },
});

export const part: EditorPart = {
  plugins: () => [keepNearDrawn],
  styles: `
.${EDITOR_CLASS} > * { content-visibility: auto; contain-intrinsic-size: auto 2.5em; }
.${EDITOR_CLASS} > .${NEAR} { content-visibility: visible; }
`,
};
