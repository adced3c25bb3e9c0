// Where the cursor is in a table, and changing one: GitBook's table block (tables.ts
// holds its data's rules) as the editor's node, whose fragments are its text cells. A
// change of rows or columns rebuilds the node with its cells row by row; moving with
// Tab, and the cell edges Backspace and Delete stop at, are worked out here.
import type { Editor } from '@tiptap/core';
import type { Node as ProseMirrorNode, ResolvedPos, Schema } from '@tiptap/pm/model';
import { Selection, TextSelection, type Transaction } from '@tiptap/pm/state';
import { FRAGMENT } from '../../../src/content/editor/kinds.ts';
import { addRow, cellFragment, cellsInOrder, isTableData, rowIds, shownColumns, type TableChange, type TableData } from './tables.ts';

interface Cell {
  tablePosition: number;
  table: ProseMirrorNode;
  data: TableData;
  fragment: string;
  fragmentPosition: number;
  fragmentNode: ProseMirrorNode;
}

/** The innermost table cell holding a position, if any. */
export function cellAround($position: ResolvedPos): Cell | undefined {
  for (let depth = $position.depth; depth > 1; depth--) {
    const node = $position.node(depth);
    const table = $position.node(depth - 1);
    if (node.type.name !== FRAGMENT || table.type.name !== 'table' || !isTableData(table.attrs.data)) continue;
    return { tablePosition: $position.before(depth - 1), table, data: table.attrs.data, fragment: node.attrs.fragment, fragmentPosition: $position.before(depth), fragmentNode: node };
  }
  return undefined;
}

/** The cells a writer moves through with Tab: row by row, the shown columns' text cells. */
function cellsToVisit(cell: Pick<Cell, 'table' | 'data'>): string[] {
  const present = new Set<string>();
  cell.table.forEach((child) => child.type.name === FRAGMENT && present.add(child.attrs.fragment));
  return rowIds(cell.data).flatMap((row) => shownColumns(cell.data).flatMap((column) => {
    const fragment = cellFragment(cell.data, row, column);
    return fragment !== undefined && present.has(fragment) ? [fragment] : [];
  }));
}

/** Puts the cursor at the start or the end of a cell's text. */
export function placeInCell(tr: Transaction, tablePosition: number, fragment: string, at: 'start' | 'end'): void {
  const table = tr.doc.nodeAt(tablePosition);
  let found: { position: number; size: number } | undefined;
  table?.forEach((child, offset) => {
    if (!found && child.type.name === FRAGMENT && child.attrs.fragment === fragment) found = { position: tablePosition + 1 + offset, size: child.nodeSize };
  });
  if (!found) return;
  // A cell with nothing in it (GitBook writes an empty cell as an empty fragment) gets a paragraph to write in.
  if (found.size === 2) {
    tr.insert(found.position + 1, tr.doc.type.schema.nodes.paragraph.create());
    tr.setSelection(TextSelection.create(tr.doc, found.position + 2));
    return;
  }
  const selection = at === 'start' ? Selection.findFrom(tr.doc.resolve(found.position + 1), 1, true) : Selection.findFrom(tr.doc.resolve(found.position + found.size - 1), -1, true);
  if (selection) tr.setSelection(selection);
}

export const emptyCell = (schema: Schema, name: string) => schema.nodes[FRAGMENT].create({ fragment: name }, schema.nodes.paragraph.create());

/**
 * The table with a change's data and its cells' fragments row by row: those it keeps,
 * an empty one for each the change made, none of those it removed. What else it held
 * (a fragment no cell names, a node kept whole) follows, as it was.
 */
function rebuiltTable(table: ProseMirrorNode, change: TableChange, schema: Schema): ProseMirrorNode {
  const first = new Map<string, ProseMirrorNode>();
  table.forEach((child) => {
    if (child.type.name === FRAGMENT && !first.has(child.attrs.fragment)) first.set(child.attrs.fragment, child);
  });
  const cells = cellsInOrder(change.data);
  const placed = new Set(cells);
  const removed = new Set(change.removed);
  const content = cells.map((name) => first.get(name) ?? emptyCell(schema, name));
  table.forEach((child) => {
    const name = child.type.name === FRAGMENT ? (child.attrs.fragment as string) : undefined;
    const cell = name !== undefined && first.get(name) === child;
    if (!cell || (!placed.has(name!) && !removed.has(name!))) content.push(child);
  });
  return table.type.create({ ...table.attrs, data: change.data }, content, table.marks);
}

const isChange = (next: TableData | TableChange): next is TableChange => Array.isArray(next.added) && Array.isArray(next.removed);

/** Writes new data (or a change of rows or columns) into the table at `position`, and may put the cursor in a cell. */
export function writeTable(editor: Editor, position: number, next: TableData | TableChange, focus?: string): void {
  const { state } = editor;
  const table = position < 0 ? null : state.doc.nodeAt(position);
  if (!table || table.type.name !== 'table') return;
  const tr = state.tr;
  if (isChange(next)) tr.replaceWith(position, position + table.nodeSize, rebuiltTable(table, next, state.schema));
  else tr.setNodeMarkup(position, undefined, { ...table.attrs, data: next });
  if (focus !== undefined) placeInCell(tr, position, focus, 'end');
  editor.view.dispatch(tr.scrollIntoView());
  if (focus !== undefined) editor.view.focus();
}

/** The first text cell of a row, for the cursor after adding it. */
export const firstCellOf = (data: TableData, row: string) => shownColumns(data).map((column) => cellFragment(data, row, column)).find((name) => name !== undefined);

export function moveBetweenCells(editor: Editor, by: 1 | -1): boolean {
  const cell = cellAround(editor.state.selection.$from);
  if (!cell) return false;
  const cells = cellsToVisit(cell);
  const index = cells.indexOf(cell.fragment);
  if (index === -1) return false;
  const target = cells[index + by];
  if (target !== undefined) {
    const tr = editor.state.tr;
    placeInCell(tr, cell.tablePosition, target, 'end');
    editor.view.dispatch(tr.scrollIntoView());
    return true;
  }
  // Shift-Tab in the first cell leaves the table to the browser, which moves the focus on: no key keeps a keyboard user in.
  if (by === -1) return false;
  // Tab in the last cell makes a row, as in GitBook and spreadsheets.
  const change = addRow(cell.data, rowIds(cell.data).length);
  writeTable(editor, cell.tablePosition, change, firstCellOf(change.data, change.row));
  return true;
}

/** Whether the cursor is at the start (or end) of a cell's text, where Backspace (or Delete) would join it to its neighbour. */
export function atCellEdge(editor: Editor, edge: 'start' | 'end'): boolean {
  const { selection, doc } = editor.state;
  if (!selection.empty) return false;
  const cell = cellAround(selection.$from);
  if (!cell) return false;
  const inside = edge === 'start'
    ? Selection.findFrom(doc.resolve(cell.fragmentPosition + 1), 1, true)
    : Selection.findFrom(doc.resolve(cell.fragmentPosition + cell.fragmentNode.nodeSize - 1), -1, true);
  return inside?.from === selection.from;
}

/**
 * Backspace or Delete on a selection across cells of one table empties what it covers
 * in each cell, as spreadsheets do, where ProseMirror would join the first and last
 * cells into one. Answers false where the selection is not across cells.
 */
export function deleteAcrossCells(editor: Editor): boolean {
  const { selection, doc } = editor.state;
  if (selection.empty) return false;
  const from = cellAround(selection.$from);
  const to = cellAround(selection.$to);
  if (!from || !to || from.tablePosition !== to.tablePosition || from.fragmentPosition === to.fragmentPosition) return false;
  const tr = editor.state.tr;
  // Each cell's part, last first, so that the positions before it stay as they are.
  const parts: Array<[number, number]> = [];
  from.table.forEach((child, offset) => {
    const position = from.tablePosition + 1 + offset;
    if (child.type.name !== FRAGMENT || position < from.fragmentPosition || position > to.fragmentPosition) return;
    const first = Selection.findFrom(doc.resolve(position + 1), 1, true)?.from;
    const last = Selection.findFrom(doc.resolve(position + child.nodeSize - 1), -1, true)?.from;
    if (first === undefined || last === undefined || first > last) return;
    parts.push([position === from.fragmentPosition ? selection.from : first, position === to.fragmentPosition ? selection.to : last]);
  });
  for (const [start, end] of parts.reverse()) if (start < end) tr.delete(start, end);
  tr.setSelection(TextSelection.create(tr.doc, selection.from));
  editor.view.dispatch(tr.scrollIntoView());
  return true;
}
