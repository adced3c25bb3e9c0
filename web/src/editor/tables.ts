// GitBook's table block as data: its view (a grid or cards), its columns (`definition`)
// and its rows (`records`, ordered by `orderIndex`), whose text cells each name one of
// the block's fragments. The editor's table part changes tables only through these pure
// operations, so that every table it leaves is one GitBook, the reader and Git Sync
// read: each text cell of a row names a fragment, the view lists defined columns, and
// what the editor does not draw (widths, other kinds of column) is kept.
import { orderedRecords } from '../../../src/content/gitbook/tableCells.ts';

export type Alignment = 'left' | 'center' | 'right';
export type ViewType = 'grid' | 'cards';

export interface TableColumn {
  id: string;
  title: string;
  type: string;
  textAlignment?: Alignment;
  [field: string]: unknown;
}

export interface TableRecord {
  orderIndex: string;
  values: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TableView {
  type: string;
  columns: string[];
  [field: string]: unknown;
}

export interface TableData {
  view: TableView;
  definition: Record<string, TableColumn>;
  records: Record<string, TableRecord>;
  [field: string]: unknown;
}

/** What an operation gives back: the new data, and the fragments (by name) it made and those it let go. */
export interface TableChange {
  data: TableData;
  added: string[];
  removed: string[];
}

export const ALIGNMENTS: Alignment[] = ['left', 'center', 'right'];

const ID_LETTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random id of GitBook's letters for a column, a row or a cell's fragment. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => ID_LETTERS[byte % ID_LETTERS.length]).join('');
}

/** Makes ids unused by this table (its columns, rows and fragment names). */
function idMaker(data: TableData, newId: () => string): () => string {
  const used = new Set<string>([...Object.keys(data.definition), ...Object.keys(data.records)]);
  for (const record of Object.values(data.records)) for (const value of Object.values(record.values ?? {})) if (typeof value === 'string') used.add(value);
  return () => {
    let id = newId();
    while (used.has(id)) id = newId();
    used.add(id);
    return id;
  };
}

const copy = <T>(value: T): T => structuredClone(value);

/** The columns the view shows, in its order (ids the definition has). */
export function shownColumns(data: TableData): string[] {
  return (data.view?.columns ?? []).filter((id) => data.definition?.[id] !== undefined);
}

/** Every column: those shown, then the hidden ones (a card's link or cover, GitBook's hidden columns). */
export function allColumns(data: TableData): string[] {
  const shown = shownColumns(data);
  return [...shown, ...Object.keys(data.definition ?? {}).filter((id) => !shown.includes(id))];
}

/** The rows' ids in their order, as the reader and Git Sync sort them. */
export function rowIds(data: TableData): string[] {
  return orderedRecords(data.records).map(([id]) => id);
}

/** The fragment a cell names, if it is a text cell. */
export function cellFragment(data: TableData, recordId: string, columnId: string): string | undefined {
  const value = data.records[recordId]?.values?.[columnId];
  return typeof value === 'string' ? value : undefined;
}

/** The fragments of the table's cells, row by row and, in each, column by column: the order the editor keeps them in. */
export function cellsInOrder(data: TableData): string[] {
  const columns = allColumns(data);
  // A fragment two cells name is one fragment, in the first's place.
  return [...new Set(rowIds(data).flatMap((row) => columns.flatMap((column) => cellFragment(data, row, column) ?? [])))];
}

/** Where a cell is: its row and column ids and indexes among the rows and the shown columns (-1 for a hidden column). */
export interface CellPlace {
  row: string;
  column: string;
  rowIndex: number;
  columnIndex: number;
}

/** Each text cell's place, by its fragment's name. */
export function cellPlaces(data: TableData): Map<string, CellPlace> {
  const shown = shownColumns(data);
  const places = new Map<string, CellPlace>();
  rowIds(data).forEach((row, rowIndex) => {
    for (const column of allColumns(data)) {
      const fragment = cellFragment(data, row, column);
      if (fragment !== undefined && !places.has(fragment)) places.set(fragment, { row, column, rowIndex, columnIndex: shown.indexOf(column) });
    }
  });
  return places;
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A key between two (either absent for an end) of lower-case letters and digits, as fractional indexes go; undefined where those given are not of that form. */
function keyBetween(before: string | undefined, after: string | undefined): string | undefined {
  // No key sorts between "a" and "a0": one after which another must fit ends in another digit.
  const valid = (key: string | undefined, upper: boolean) => key === undefined || (/^[0-9a-z]+$/.test(key) && !(upper && key.endsWith('0')));
  if (!valid(before, false) || !valid(after, true) || (before !== undefined && after !== undefined && before >= after)) return undefined;
  const midpoint = (low: string, high: string | undefined): string => {
    if (high !== undefined) {
      let common = 0;
      while ((low[common] ?? '0') === high[common]) common++;
      if (common > 0) return high.slice(0, common) + midpoint(low.slice(common), high.slice(common));
    }
    const lowDigit = low ? DIGITS.indexOf(low[0]) : 0;
    const highDigit = high !== undefined ? DIGITS.indexOf(high[0]) : DIGITS.length;
    if (highDigit - lowDigit > 1) return DIGITS[Math.round((lowDigit + highDigit) / 2)];
    if (high !== undefined && high.length > 1) return high.slice(0, 1);
    return DIGITS[lowDigit] + midpoint(low.slice(1), undefined);
  };
  return midpoint(before ?? '', after);
}

/** The order index of a row put at `index` among rows of these indexes; the rows are numbered anew (`renumber`) where no key fits between. */
function orderIndexAt(data: TableData, rows: string[], index: number): { key: string; renumber: boolean } {
  const before = index > 0 ? data.records[rows[index - 1]].orderIndex : undefined;
  const after = index < rows.length ? data.records[rows[index]].orderIndex : undefined;
  const key = keyBetween(before, after);
  return key === undefined ? { key: '', renumber: true } : { key, renumber: false };
}

/** Quire's order index for the row at a position, as its markdown import numbers them. */
export function orderIndexOf(position: number): string {
  return `a${position.toString(36).padStart(4, '0')}`;
}

function textCellsFor(data: TableData, makeId: () => string): { values: Record<string, string>; added: string[] } {
  const values: Record<string, string> = {};
  const added: string[] = [];
  for (const column of allColumns(data)) {
    if (data.definition[column].type !== 'text') continue;
    values[column] = makeId();
    added.push(values[column]);
  }
  return { values, added };
}

/** A table of text columns with these titles and `rows` empty rows, in a grid or as cards: GitBook's shape for a new one. */
export function newTable(titles: string[], rows: number, view: ViewType, newId: () => string = randomId): TableChange {
  let data: TableData = { view: viewOf(view, [], {}), definition: {}, records: {} };
  const added: string[] = [];
  for (const title of titles) {
    const change = addColumn(data, data.view.columns.length, newId, title);
    data = change.data;
  }
  for (let row = 0; row < rows; row++) {
    const change = addRow(data, row, newId);
    data = change.data;
    data.records[change.row].orderIndex = orderIndexOf(row);
    added.push(...change.added);
  }
  return { data, added, removed: [] };
}

/** A new empty row at `index` among the rows, with a fragment for each text cell. */
export function addRow(data: TableData, index: number, newId: () => string = randomId): TableChange & { row: string } {
  const next = copy(data);
  const makeId = idMaker(next, newId);
  const rows = rowIds(next);
  const at = Math.max(0, Math.min(index, rows.length));
  const row = makeId();
  const { values, added } = textCellsFor(next, makeId);
  const { key, renumber } = orderIndexAt(next, rows, at);
  next.records[row] = { orderIndex: key, values };
  if (renumber) [...rows.slice(0, at), row, ...rows.slice(at)].forEach((id, position) => (next.records[id].orderIndex = orderIndexOf(position)));
  return { data: next, added, removed: [], row };
}

/** Drops a row, its fragments and the merges anchored on it. */
export function removeRow(data: TableData, row: string): TableChange {
  const next = copy(data);
  const removed = Object.values(next.records[row]?.values ?? {}).filter((value): value is string => typeof value === 'string');
  delete next.records[row];
  dropMerges(next, (anchor) => anchor.record === row);
  return { data: next, added: [], removed };
}

/** A new text column at `index` among the shown columns (left-aligned, as GitBook makes one), with a fragment in each row. */
export function addColumn(data: TableData, index: number, newId: () => string = randomId, title = ''): TableChange & { column: string } {
  const next = copy(data);
  const makeId = idMaker(next, newId);
  const column = makeId();
  next.definition[column] = { id: column, title, type: 'text', textAlignment: 'left' };
  const shown = shownColumns(next);
  const before = shown[Math.max(0, Math.min(index, shown.length)) - 1];
  // Inserted after the shown column before it, so that hidden columns keep their places in the view's list.
  const columns = [...(next.view.columns ?? [])];
  columns.splice(before === undefined ? 0 : columns.indexOf(before) + 1, 0, column);
  next.view.columns = columns;
  const added: string[] = [];
  for (const row of rowIds(next)) {
    const fragment = makeId();
    next.records[row].values = { ...next.records[row].values, [column]: fragment };
    added.push(fragment);
  }
  return { data: next, added, removed: [], column };
}

/** Drops a column: its definition, its place in the view (a card's link or cover too), its cells and their fragments. */
export function removeColumn(data: TableData, column: string): TableChange {
  const next = copy(data);
  const removed: string[] = [];
  delete next.definition[column];
  next.view.columns = (next.view.columns ?? []).filter((id) => id !== column);
  for (const field of ['targetDefinition', 'coverDefinition', 'coverDefinitionDark']) if (next.view[field] === column) delete next.view[field];
  const widths = next.view.columnWidths as Record<string, number> | undefined;
  if (widths && column in widths) delete widths[column];
  for (const record of Object.values(next.records)) {
    const value = record.values?.[column];
    if (typeof value === 'string') removed.push(value);
    if (record.values && column in record.values) delete record.values[column];
  }
  dropMerges(next, (anchor) => anchor.column === column);
  return { data: next, added: [], removed };
}

function dropMerges(data: TableData, anchoredOn: (anchor: { record?: string; column?: string }) => boolean): void {
  if (!Array.isArray(data.cellMerges)) return;
  data.cellMerges = (data.cellMerges as Array<{ anchor?: { record?: string; column?: string } }>).filter((merge) => !anchoredOn(merge.anchor ?? {}));
}

export function renameColumn(data: TableData, column: string, title: string): TableData {
  const next = copy(data);
  next.definition[column] = { ...next.definition[column], title };
  return next;
}

/** Sets a text column's alignment (GitBook's `textAlignment`); other kinds of column have none. */
export function alignColumn(data: TableData, column: string, alignment: Alignment): TableData {
  const next = copy(data);
  if (next.definition[column]?.type === 'text') next.definition[column] = { ...next.definition[column], textAlignment: alignment };
  return next;
}

export function alignmentOf(data: TableData, column: string): Alignment {
  const alignment = data.definition[column]?.textAlignment;
  return alignment === 'center' || alignment === 'right' ? alignment : 'left';
}

function viewOf(type: ViewType, columns: string[], from: TableView | Record<string, never>): TableView {
  // A view keeps what it had of the other's fields only where GitBook's shape for it has them.
  if (type === 'cards') {
    const { targetDefinition, coverDefinition, coverDefinitionDark, hideColumnTitle, wrap } = from as Record<string, unknown>;
    const kept = Object.entries({ targetDefinition, coverDefinition, coverDefinitionDark, hideColumnTitle, wrap }).filter(([, value]) => value !== undefined);
    return { type: 'cards', cardSize: (from as TableView).cardSize ?? 'medium', columns, ...Object.fromEntries(kept) };
  }
  const { columnWidths, stickyHeader, stickyFirstColumn, useNewSizing } = from as Record<string, unknown>;
  const kept = Object.entries({ columnWidths, stickyHeader, stickyFirstColumn, useNewSizing }).filter(([, value]) => value !== undefined);
  return { type: 'grid', columns, hideHeader: (from as TableView).hideHeader === true, ...Object.fromEntries(kept) };
}

/** Shows the table as a grid or as cards: the same columns, in GitBook's shape for that view. */
export function switchView(data: TableData, type: ViewType): TableData {
  if (data.view?.type === type) return data;
  const next = copy(data);
  next.view = viewOf(type, [...(data.view?.columns ?? [])], data.view ?? {});
  return next;
}

/** Shows or hides a grid's header of column titles. */
export function showHeader(data: TableData, shown: boolean): TableData {
  const next = copy(data);
  next.view = { ...next.view, hideHeader: !shown };
  return next;
}

/** The view the table is shown in: cards, or a grid for anything else. */
export const viewTypeOf = (data: TableData): ViewType => (data.view?.type === 'cards' ? 'cards' : 'grid');

/** Whether a node's data has a table's three parts, so that the editor may draw and change it. */
export function isTableData(data: unknown): data is TableData {
  const value = data as TableData | null;
  const isObject = (field: unknown) => typeof field === 'object' && field !== null && !Array.isArray(field);
  return isObject(value) && isObject(value!.view) && Array.isArray(value!.view.columns) && isObject(value!.definition) && isObject(value!.records)
    && Object.values(value!.records).every((record) => isObject(record) && isObject(record.values));
}

/** A card's link (GitBook's target column, a content reference) and its cover (an image column). */
export type CardField = 'targetDefinition' | 'coverDefinition';

const CARD_FIELD_TYPES: Record<CardField, string> = { targetDefinition: 'content-ref', coverDefinition: 'image' };

/** A card's link or cover as stored: the reference itself, or an image's `{ref, objectFit, alt}`. */
function cardRefOf(data: TableData, field: CardField, row: string): Record<string, unknown> | undefined {
  const column = data.view[field];
  const value = typeof column === 'string' ? data.records[row]?.values?.[column] : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return ('ref' in value ? (value as { ref: Record<string, unknown> }).ref : value) as Record<string, unknown>;
}

/** What a card's link or cover is: none, a URL (which the editor edits), or another reference (a page, a file) set in GitBook. */
export function cardUrl(data: TableData, field: CardField, row: string): { kind: 'none' } | { kind: 'url'; url: string } | { kind: 'other'; ref: Record<string, unknown> } {
  const ref = cardRefOf(data, field, row);
  if (!ref) return { kind: 'none' };
  return ref.kind === 'url' && typeof ref.url === 'string' ? { kind: 'url', url: ref.url } : { kind: 'other', ref };
}

/**
 * Sets a card's link or cover to a content reference (a page, a file, a URL; none when
 * undefined), making the table's hidden link or cover column, in GitBook's shape, where
 * it has none.
 */
export function setCardRef(data: TableData, field: CardField, row: string, ref: Record<string, unknown> | undefined, newId: () => string = randomId): TableData {
  const next = copy(data);
  const existing = next.view[field];
  let column: string;
  if (typeof existing === 'string' && next.definition[existing]) column = existing;
  else {
    if (!ref) return data;
    column = idMaker(next, newId)();
    next.definition[column] = { id: column, title: '', type: CARD_FIELD_TYPES[field] };
    next.view[field] = column;
  }
  const values = next.records[row].values;
  const value = values[column];
  // An image's settings (fit, alternative text) stay with its new reference.
  if (!ref) delete values[column];
  else values[column] = value && typeof value === 'object' && 'ref' in value ? { ...(value as object), ref } : ref;
  return next;
}

/** Sets a card's link or cover to a URL typed (none when empty). */
export const setCardUrl = (data: TableData, field: CardField, row: string, url: string, newId: () => string = randomId): TableData =>
  setCardRef(data, field, row, url ? { kind: 'url', url } : undefined, newId);
