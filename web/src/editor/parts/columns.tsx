// GitBook's columns: `column`s side by side (stacked on a phone, as the reader stacks
// them), each as wide as its `data.width` says or an equal share. Two or three: a button
// adds a column while there are fewer than three, and each column has one to remove it
// while more than two remain. Two columns can be made equal or one twice the other,
// as widths in percent, GitBook's `width="66.67%"`.
import { NativeSelect } from '@mantine/core';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, type NodeViewProps } from '@tiptap/react';
import type { EditorPart } from '../part.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { controlsOwnTheirEvents, insertBlock, placeCursorIn } from './containers.ts';

const FEWEST = 2;
const MOST = 3;

/** A column's width (GitBook's Length: pixels, or a value with its unit) as CSS. */
function widthCss(width: unknown): string | undefined {
  if (typeof width === 'number' && Number.isFinite(width)) return `${width}px`;
  const length = width as { unit?: string; value?: number } | undefined;
  if (length && typeof length.value === 'number' && /^(%|px|em|rem)$/.test(length.unit ?? 'px')) return `${length.value}${length.unit ?? 'px'}`;
  return undefined;
}

/** The layouts offered for two columns: each column's width, in percent (none: an equal share). */
const LAYOUTS: Array<{ value: string; label: string; widths: Array<number | undefined> }> = [
  { value: 'equal', label: 'Equal widths', widths: [undefined, undefined] },
  { value: 'wide-left', label: 'Wider left (2:1)', widths: [66.67, 33.33] },
  { value: 'wide-right', label: 'Wider right (1:2)', widths: [33.33, 66.67] },
];

const percentOf = (width: unknown): number | undefined => {
  const length = width as { unit?: string; value?: number } | undefined;
  return length?.unit === '%' ? length.value : undefined;
};

function ColumnsView({ node, editor, getPos }: NodeViewProps) {
  const widths: unknown[] = [];
  node.forEach((column) => widths.push((column.attrs.data as Record<string, unknown> | null)?.width));
  const layout = node.childCount === 2 ? LAYOUTS.find((entry) => entry.widths.every((width, index) => (width === undefined ? widths[index] === undefined : percentOf(widths[index]) === width))) : undefined;
  const setLayout = (value: string) => {
    const chosen = LAYOUTS.find((entry) => entry.value === value);
    if (!chosen) return;
    const tr = editor.state.tr;
    let position = (getPos() ?? 0) + 1;
    node.forEach((column, _offset, index) => {
      const { width: _, ...rest } = (column.attrs.data ?? {}) as Record<string, unknown>;
      const width = chosen.widths[index];
      tr.setNodeAttribute(position, 'data', width === undefined ? rest : { ...rest, width: { unit: '%', value: width } });
      position += column.nodeSize;
    });
    editor.view.dispatch(tr);
  };
  const add = () => {
    const { column, paragraph } = editor.schema.nodes;
    const at = (getPos() ?? 0) + node.nodeSize - 1;
    placeCursorIn(editor, editor.state.tr.insert(at, column.create({ data: {} }, paragraph.create())), at);
  };
  return (
    <NodeViewWrapper className="quire-columns" data-count={node.childCount}>
      <NodeViewContent className="quire-columns-content" />
      <div contentEditable={false} data-controls className="quire-columns-controls">
        {node.childCount < MOST && (
          <button type="button" onClick={add}>
            + Add a column
          </button>
        )}
        {node.childCount === 2 && (
          <NativeSelect
            size="xs"
            aria-label="Column widths"
            value={layout?.value ?? 'custom'}
            data={[...LAYOUTS.map(({ value, label }) => ({ value, label })), ...(layout ? [] : [{ value: 'custom', label: 'Widths as written', disabled: true }])]}
            onChange={(event) => setLayout(event.currentTarget.value)}
          />
        )}
      </div>
    </NodeViewWrapper>
  );
}

function ColumnView({ node, editor, getPos }: NodeViewProps) {
  const remove = () => {
    const at = getPos();
    if (at === undefined) return;
    placeCursorIn(editor, editor.state.tr.delete(at, at + node.nodeSize), Math.max(0, at - 1));
  };
  return (
    <NodeViewWrapper className="quire-column">
      <NodeViewContent className="quire-column-content" />
      <div contentEditable={false} data-controls className="quire-column-remove">
        <button type="button" aria-label="Remove this column" title="Remove this column" onClick={remove}>
          ×
        </button>
      </div>
    </NodeViewWrapper>
  );
}

export const part: EditorPart = {
  views: {
    columns: ReactNodeViewRenderer(ColumnsView, { stopEvent: controlsOwnTheirEvents }),
    column: ReactNodeViewRenderer(ColumnView, {
      stopEvent: controlsOwnTheirEvents,
      attrs: ({ node }) => {
        const width = widthCss((node.attrs.data as Record<string, unknown> | null)?.width);
        return { style: width ? `flex: 0 1 ${width}` : '' };
      },
    }),
  },
  slash: [
    {
      title: 'Columns',
      description: 'Two columns of blocks side by side.',
      keywords: ['column', 'layout', 'side by side', 'grid', 'split'],
      group: 'Blocks',
      insert: (editor, range) => {
        const { columns, column, paragraph } = editor.schema.nodes;
        insertBlock(editor, range, columns.create({ data: {} }, Array.from({ length: FEWEST }, () => column.create({ data: {} }, paragraph.create()))));
      },
    },
  ],
  styles: `
.${EDITOR_CLASS} .quire-columns { margin: 0.75rem 0; }
.${EDITOR_CLASS} .quire-columns-content > [data-node-view-content-react] { display: flex; gap: 1rem; }
.${EDITOR_CLASS} .quire-columns-content > [data-node-view-content-react] > .node-column { flex: 1 1 0; min-width: 0; }
.${EDITOR_CLASS} .quire-column { position: relative; height: 100%; padding: 0.25rem 0.5rem; border: 1px dashed var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-column-content p { margin: 0.25rem 0; }
.${EDITOR_CLASS} .quire-column-remove { position: absolute; top: 0.125rem; right: 0.125rem; }
.${EDITOR_CLASS} .quire-columns[data-count="${FEWEST}"] .quire-column-remove { display: none; }
.${EDITOR_CLASS} .quire-columns-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin-top: 0.25rem; }
.${EDITOR_CLASS} .quire-column-remove button, .${EDITOR_CLASS} .quire-columns-controls button { border: 0; border-radius: var(--mantine-radius-xs); background: none; color: var(--mantine-color-dimmed); cursor: pointer; font: inherit; }
.${EDITOR_CLASS} .quire-column-remove button { width: 1.5rem; height: 1.5rem; font-size: 1rem; }
.${EDITOR_CLASS} .quire-columns-controls button { padding: 0.15rem 0.5rem; font-size: var(--mantine-font-size-sm); }
.${EDITOR_CLASS} .quire-column-remove button:hover, .${EDITOR_CLASS} .quire-columns-controls button:hover { background: var(--mantine-color-default-hover); color: var(--mantine-color-text); }
.${EDITOR_CLASS} .quire-column-remove button:focus-visible, .${EDITOR_CLASS} .quire-columns-controls button:focus-visible { outline: 2px solid var(--mantine-primary-color-filled); }
@media (max-width: 48em) { .${EDITOR_CLASS} .quire-columns-content > [data-node-view-content-react] { flex-direction: column; } .${EDITOR_CLASS} .quire-columns-content > [data-node-view-content-react] > .node-column { flex: 1 1 auto !important; } }
`,
};
