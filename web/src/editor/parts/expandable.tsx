// GitBook's expandable: a void block whose fragments are its title ('expandable-title',
// one paragraph) and its body ('expandable-body', blocks), drawn like the reader's
// <details>, open while writing so that both can be written in; a button folds the body
// away, and a box sets whether readers find it open (`data.defaultExpanded`). Enter in
// the title goes to the body, since the title is one paragraph.
import { Checkbox } from '@mantine/core';
import { keymap } from '@tiptap/pm/keymap';
import { TextSelection, type EditorState } from '@tiptap/pm/state';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type NodeViewProps } from '@tiptap/react';
import { useState } from 'react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { controlsOwnTheirEvents, insertBlock } from './containers.ts';

const TITLE = 'expandable-title';
const BODY = 'expandable-body';

function ExpandableView({ node, updateAttributes }: NodeViewProps) {
  const [open, setOpen] = useState(true);
  const data = (node.attrs.data ?? {}) as Record<string, unknown>;
  const { defaultExpanded: _, ...rest } = data;
  return (
    <NodeViewWrapper className="quire-expandable" data-open={open || undefined}>
      <div contentEditable={false} data-controls className="quire-expandable-toggle">
        <button type="button" aria-expanded={open} aria-label={open ? 'Fold the expandable' : 'Unfold the expandable'} onClick={() => setOpen(!open)}>
          <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
            <path d="M9 6l6 6-6 6" />
          </svg>
        </button>
      </div>
      <div className="quire-expandable-main">
        <NodeViewContent className="quire-expandable-content" />
        <div contentEditable={false} data-controls className="quire-expandable-options">
          <Checkbox size="xs" label="Open when the page loads" checked={data.defaultExpanded === true} onChange={(event) => updateAttributes({ data: event.currentTarget.checked ? { ...data, defaultExpanded: true } : rest })} />
        </div>
      </div>
    </NodeViewWrapper>
  );
}

/** Where the cursor is in an expandable's title: the title's paragraph, and the expandable's depth. */
function inTitle(state: EditorState) {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 1; depth--) {
    const node = $from.node(depth);
    if (node.type.name === 'fragment' && node.attrs.fragment === TITLE && $from.node(depth - 1).type.name === 'expandable') return { $from, depth };
  }
  return undefined;
}

const expandableKeys = keymap({
  // The title is one paragraph: Enter goes to the start of the body.
  Enter: (state, dispatch) => {
    const at = inTitle(state);
    if (!at) return false;
    const expandable = at.$from.node(at.depth - 1);
    const titleEnd = at.$from.after(at.depth);
    let bodyStart: number | undefined;
    let position = at.$from.before(at.depth - 1) + 1;
    expandable.forEach((fragment) => {
      if (bodyStart === undefined && fragment.type.name === 'fragment' && fragment.attrs.fragment === BODY) bodyStart = position;
      position += fragment.nodeSize;
    });
    const tr = state.tr;
    if (bodyStart === undefined) {
      tr.insert(titleEnd, state.schema.nodes.fragment.create({ fragment: BODY, type: BODY }, state.schema.nodes.paragraph.create()));
      bodyStart = titleEnd;
    }
    dispatch?.(tr.setSelection(TextSelection.near(tr.doc.resolve(bodyStart + 1))).scrollIntoView());
    return true;
  },
});

export const part: EditorPart = {
  views: { expandable: ReactNodeViewRenderer(ExpandableView, { stopEvent: controlsOwnTheirEvents }) },
  slash: [
    {
      title: 'Expandable',
      description: 'A title that opens to show more.',
      keywords: ['details', 'summary', 'collapse', 'accordion', 'toggle', 'disclosure'],
      group: 'Blocks',
      insert: (editor, range) => {
        const { expandable, fragment, paragraph } = editor.schema.nodes;
        insertBlock(editor, range, expandable.create({ data: {} }, [
          fragment.create({ fragment: TITLE, type: TITLE }, paragraph.create()),
          fragment.create({ fragment: BODY, type: BODY }, paragraph.create()),
        ]));
      },
    },
  ],
  plugins: () => [expandableKeys],
  styles: `
.${EDITOR_CLASS} .quire-expandable { display: flex; gap: 0.25rem; margin: 0.75rem 0; padding: 0.25rem 0.5rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-expandable-toggle button { display: inline-flex; margin-top: 0.3rem; padding: 0.15rem; border: 0; border-radius: var(--mantine-radius-xs); background: none; color: inherit; cursor: pointer; }
.${EDITOR_CLASS} .quire-expandable-toggle button:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); }
.${EDITOR_CLASS} .quire-expandable-toggle svg { transition: transform 120ms; }
.${EDITOR_CLASS} .quire-expandable[data-open] .quire-expandable-toggle svg { transform: rotate(90deg); }
.${EDITOR_CLASS} .quire-expandable-main { flex: 1; min-width: 0; }
.${EDITOR_CLASS} .quire-expandable-content > [data-node-view-content-react] > [data-type="fragment"]:first-child { font-weight: 600; }
.${EDITOR_CLASS} .quire-expandable-content > [data-node-view-content-react] > [data-type="fragment"]:first-child p { margin: 0.25rem 0; }
.${EDITOR_CLASS} .quire-expandable-content > [data-node-view-content-react] > [data-type="fragment"]:first-child p:has(> br:only-child)::before { content: "Title"; color: var(--mantine-color-dimmed); font-weight: 400; pointer-events: none; position: absolute; }
.${EDITOR_CLASS} .quire-expandable:not([data-open]) .quire-expandable-content > [data-node-view-content-react] > [data-type="fragment"]:not(:first-child),
.${EDITOR_CLASS} .quire-expandable:not([data-open]) .quire-expandable-options { display: none; }
.${EDITOR_CLASS} .quire-expandable-options { padding: 0.25rem 0; }
`,
};
