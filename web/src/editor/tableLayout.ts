// How a table's cells are laid out in the editor: the node view's content hole is a CSS
// grid, and decorations made from the table's own data give each fragment its row and
// column (or its card and field), so that a table is shown rightly in whatever order its
// fragments came; what is not a fragment (a number, a link, a card's box) is a widget.
// Beside it, the guard that keeps every text cell a fragment with a place to write.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { FRAGMENT } from '../../../src/content/editor/kinds.ts';
import { emptyCell, placeInCell } from './tableEditing.ts';
import { alignmentOf, cellPlaces, cellsInOrder, isTableData, rowIds, shownColumns, viewTypeOf } from './tables.ts';
import { cellSpans, type CellSpan } from '../../../src/content/gitbook/tableCells.ts';
import { changedRanges } from './parts/containers.ts';
import { knownTargetsIn } from './parts/link.tsx';
import type { KnownTargets } from './references.ts';

// Cards are laid out 1, 2 or 3 to a row by the table's width (container queries), so each cell carries its place for each.
const CARDS_PER_ROW = [1, 2, 3];

/** A grid cell's place; a merged cell's (GitBook's `cellMerges`) spans its rows and columns. */
const gridPlace = (row: number, column: number, span?: CellSpan) =>
  span ? `grid-row:${row + 1} / span ${span.rowSpan};grid-column:${column + 1} / span ${span.colSpan}` : `grid-row:${row + 1};grid-column:${column + 1}`;

/** A card's cell's place for each number of cards to a row, as CSS variables the stylesheet picks from. */
function cardPlace(card: number, slot: number, slots: number, span = 1): string {
  return CARDS_PER_ROW.map((perRow) => {
    const row = Math.floor(card / perRow) * slots + slot + 1;
    return `--row-${perRow}:${span > 1 ? `${row} / span ${span}` : row};--column-${perRow}:${(card % perRow) + 1}`;
  }).join(';');
}

/** What a cell that is not text (a number, a link, a file, options…) shows: GitBook edits these, the editor keeps them. */
function valueText(value: unknown, known: KnownTargets | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.join(', ');
  const ref = ('ref' in value ? value.ref : value) as Record<string, unknown>;
  if (ref.kind === 'url') return String(ref.url ?? '');
  // A page by its title, a file by its name, once the change request's content is read.
  return known ? known.label(ref) : '…';
}

/** A drawn box in the cells' grid that is no cell of the document: another kind of cell's value, a card's box or the gap after it. */
function widget(position: number, kind: string, className: string, style: string, text = '', side = -1): Decoration {
  return Decoration.widget(position, () => {
    const element = document.createElement('div');
    element.className = className;
    element.setAttribute('style', style);
    element.contentEditable = 'false';
    element.textContent = text;
    return element;
  }, { side, key: `${className}|${style}|${text}`, ignoreSelection: true, tableLayout: kind });
}

/** A cell's fragment of only empty paragraphs, as one a merge may cover. */
const isEmptyFragment = (fragment: ProseMirrorNode): boolean => {
  let empty = true;
  fragment.forEach((child) => {
    if (child.type.name !== 'paragraph' || child.childCount > 0) empty = false;
  });
  return empty;
};

/** The decorations that lay out one table's cells: a place for each fragment, and widgets for what is not a fragment (other kinds of cell, cards' boxes). */
function tableDecorations(table: ProseMirrorNode, position: number, known: KnownTargets | undefined): Decoration[] {
  const data = table.attrs.data;
  if (!isTableData(data)) return [];
  const decorations: Decoration[] = [];
  const places = cellPlaces(data);
  const shown = shownColumns(data);
  const rows = rowIds(data);
  const cards = viewTypeOf(data) === 'cards';
  const cover = cards && typeof data.view.coverDefinition === 'string' ? data.view.coverDefinition : undefined;
  const target = cards && typeof data.view.targetDefinition === 'string' ? data.view.targetDefinition : undefined;
  // A card's slots: its cover, its fields, its link, and an empty one that parts it from the card below.
  const slots = [...(cover ? [cover] : []), ...shown.filter((column) => column !== cover && column !== target), ...(target ? [target] : [])];
  const slotCount = slots.length + 1;
  const fragments = new Set<string>();
  const start = position + 1;
  // Merged cells as the reader shows them: an anchor over the empty cells it covers, which are not drawn.
  const emptyFragments = new Set<string>();
  table.forEach((child) => {
    if (child.type.name === FRAGMENT && isEmptyFragment(child)) emptyFragments.add(child.attrs.fragment as string);
  });
  // Cards have no merged cells.
  const spans = cards ? undefined : cellSpans(data, rows.map((row) => [row, data.records[row]]), shown, (name) => emptyFragments.has(name));
  table.forEach((child, offset) => {
    const name = child.type.name === FRAGMENT && !fragments.has(child.attrs.fragment) ? (child.attrs.fragment as string) : undefined;
    if (name !== undefined) fragments.add(name);
    const place = name !== undefined ? places.get(name) : undefined;
    const slot = place && cards ? slots.indexOf(place.column) : place ? place.columnIndex : -1;
    const attrs = slot < 0 || !place || spans?.covers(place.rowIndex, slot)
      ? { class: 'quire-table-unplaced' }
      : cards
        ? { class: 'quire-table-cell', style: cardPlace(place.rowIndex, slot, slotCount), 'data-placeholder': data.definition[place.column]?.title || `Column ${shown.indexOf(place.column) + 1}` }
        : { class: 'quire-table-cell', style: `${gridPlace(place.rowIndex, slot, spans?.anchoredAt(place.rowIndex, slot))};text-align:${alignmentOf(data, place.column)}` };
    decorations.push(Decoration.node(start + offset, start + offset + child.nodeSize, attrs, { tableLayout: 'cell' }));
  });
  rows.forEach((row, rowIndex) => {
    const columns = cards ? slots : shown;
    columns.forEach((column, index) => {
      const value = data.records[row].values[column];
      if ((typeof value === 'string' && fragments.has(value)) || spans?.covers(rowIndex, index)) return;
      const text = column === cover && value ? `Cover: ${valueText(value, known)}` : column === target && value ? `Link: ${valueText(value, known)}` : valueText(value, known);
      const style = cards ? cardPlace(rowIndex, index, slotCount) : gridPlace(rowIndex, index, spans?.anchoredAt(rowIndex, index));
      decorations.push(widget(start, 'value', 'quire-table-cell quire-table-value', style, text));
    });
    if (cards) {
      // Before the cells, so that they are drawn on it.
      decorations.push(widget(start, 'card', 'quire-table-card', cardPlace(rowIndex, 0, slotCount, slots.length), '', -2));
      decorations.push(widget(start, 'gap', 'quire-table-card-gap', cardPlace(rowIndex, slots.length, slotCount)));
    }
  });
  return decorations;
}

/** The decorations of every table in a node (itself included) at `position` (-1 for the document). */
function decorationsWithin(node: ProseMirrorNode, position: number, known: KnownTargets | undefined): Decoration[] {
  const decorations = node.type.name === 'table' ? tableDecorations(node, position, known) : [];
  node.descendants((child, offset) => {
    if (child.type.name === 'table') decorations.push(...tableDecorations(child, position + 1 + offset, known));
    return !child.isTextblock;
  });
  return decorations;
}

/** The outermost tables a transaction changed something in, by position. */
function tablesChanged(tr: Transaction): Map<number, ProseMirrorNode> {
  const tables = new Map<number, ProseMirrorNode>();
  for (const [from, to] of changedRanges([tr])) {
    tr.doc.nodesBetween(Math.max(0, from - 1), Math.min(tr.doc.content.size, to + 1), (node, position) => {
      if (node.type.name !== 'table') return !node.isTextblock;
      tables.set(position, node);
      return false;
    });
  }
  return tables;
}

interface Layout {
  decorations: DecorationSet;
  /** What the change request holds, for the names of the pages and files cells lead to. */
  known: KnownTargets | undefined;
}

const layoutKey = new PluginKey<Layout>('tableLayout');

/** Lays out every table's cells, and again each table a change touched; every table again once the change request's content is read or changes. */
export const tableLayout = new Plugin<Layout>({
  key: layoutKey,
  state: {
    init: (_config, state) => ({ decorations: DecorationSet.create(state.doc, decorationsWithin(state.doc, -1, undefined)), known: undefined }),
    apply: (tr, layout) => {
      const known = knownTargetsIn(tr);
      if (known) return { decorations: DecorationSet.create(tr.doc, decorationsWithin(tr.doc, -1, known)), known };
      if (!tr.docChanged) return layout;
      let next = layout.decorations.map(tr.mapping, tr.doc);
      for (const [position, table] of tablesChanged(tr)) {
        next = next.remove(next.find(position + 1, position + table.nodeSize - 1, (spec) => spec.tableLayout !== undefined));
        next = next.add(tr.doc, decorationsWithin(table, position, layout.known));
      }
      return { decorations: next, known: layout.known };
    },
  },
  props: {
    decorations: (state: EditorState) => layoutKey.getState(state)?.decorations,
    // A click in an empty cell, where there is no text to put the cursor in, puts it there.
    handleClickOn(view, _position, node, nodePosition, _event, direct) {
      if (!direct || node.type.name !== FRAGMENT || node.childCount > 0 || view.state.doc.resolve(nodePosition).parent.type.name !== 'table') return false;
      const tablePosition = view.state.doc.resolve(nodePosition).before();
      const tr = view.state.tr;
      placeInCell(tr, tablePosition, node.attrs.fragment, 'start');
      view.dispatch(tr);
      return true;
    },
  },
});

/**
 * After a change, a table it touched keeps a fragment for each text cell, and a cell it
 * emptied keeps a paragraph: selecting across cells and deleting joins them in
 * ProseMirror, which would leave a cell naming no fragment, which GitBook refuses. Only
 * what a change touched, with insertions alone, so that the cursor stays where it was.
 */
export const tablesKeepTheirCells = new Plugin({
  key: new PluginKey('tablesKeepTheirCells'),
  appendTransaction(transactions, _before, state) {
    const inserts = new Map<number, ProseMirrorNode[]>();
    transactions.forEach((transaction, index) => {
      if (!transaction.docChanged) return;
      // Positions in the last document: those of earlier transactions are mapped on.
      const later = transactions.slice(index + 1);
      const onward = (position: number) => later.reduce((at, next) => next.mapping.map(at), position);
      for (const [from, to] of changedRanges([transaction])) {
        const start = Math.max(0, onward(from) - 1);
        const end = Math.min(state.doc.content.size, onward(to) + 1);
        state.doc.nodesBetween(start, end, (node, position, parent) => {
          if (node.type.name === FRAGMENT && parent?.type.name === 'table' && node.childCount === 0) inserts.set(position + 1, [state.schema.nodes.paragraph.create()]);
          if (node.type.name !== 'table' || !isTableData(node.attrs.data)) return !node.isTextblock;
          const present = new Set<string>();
          node.forEach((child) => child.type.name === FRAGMENT && present.add(child.attrs.fragment));
          const missing = cellsInOrder(node.attrs.data).filter((name) => !present.has(name));
          if (missing.length > 0) inserts.set(position + node.nodeSize - 1, missing.map((name) => emptyCell(state.schema, name)));
          return true;
        });
      }
    });
    if (inserts.size === 0) return null;
    const tr = state.tr;
    for (const [position, nodes] of [...inserts].sort(([first], [second]) => second - first)) tr.insert(position, nodes);
    return tr;
  },
});
