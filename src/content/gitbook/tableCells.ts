// A table block's cells as GitBook lays them out: its records in their order and its
// merged cells (`cellMerges`, 0.202's model), which are positional: an anchor cell and
// how many rows and shown columns it spans. One reading for the markdown writer and the
// reader's renderer, so that what is written merged is what is shown merged.
import type { Block } from './model.ts';

export interface TableRecord {
  orderIndex?: string;
  values?: Record<string, unknown>;
}

/** The records in GitBook's order: by `orderIndex`, a fractional index, compared by code unit. */
export function orderedRecords<Record extends TableRecord>(records: { [id: string]: Record } | undefined): Array<[string, Record]> {
  return Object.entries(records ?? {}).sort(([, a], [, b]) => {
    const [left, right] = [String(a.orderIndex ?? ''), String(b.orderIndex ?? '')];
    return left < right ? -1 : left > right ? 1 : 0;
  });
}

/** A merged cell: its anchor's row (among the ordered records) and column (among the shown ones), and its spans. */
export interface CellSpan {
  row: number;
  column: number;
  rowSpan: number;
  colSpan: number;
}

export interface CellSpans {
  /** Whether any merge holds. */
  any: boolean;
  /** The merge anchored at a cell, if one is. */
  anchoredAt(row: number, column: number): CellSpan | undefined;
  /** Whether a merge covers a cell, its anchor excepted: a cell not drawn or written. */
  covers(row: number, column: number): boolean;
}

const MERGEABLE_TYPES = new Set(['text', 'number']);

/**
 * The merges of a table that hold, as GitBook's model keeps them: each anchored on a
 * record and a shown column of the table, spanning whole numbers of rows and shown
 * columns inside it, over text or number columns, and overlapping no merge before it.
 * Also, unlike GitBook, covering only empty cells: a merged cell is written as one HTML
 * cell (`colspan`, `rowspan`), so the words of a cell it covered would be lost; such a
 * merge is not applied, and the cells keep their words.
 */
export function cellSpans(
  data: { cellMerges?: unknown; definition?: Record<string, { type?: string }> },
  records: Array<[string, TableRecord]>,
  columns: string[],
  emptyFragment: (fragment: string) => boolean,
): CellSpans {
  const recordIds = records.map(([id]) => id);
  // A text cell names its fragment; any other cell is empty without a value.
  const isEmpty = (row: number, column: number) => {
    const value = records[row][1].values?.[columns[column]];
    return typeof value === 'string' ? emptyFragment(value) : value === undefined || value === null;
  };
  const anchors = new Map<string, CellSpan>();
  const covered = new Set<string>();
  const spans: CellSpans = {
    get any() {
      return anchors.size > 0;
    },
    anchoredAt: (row, column) => anchors.get(`${row},${column}`),
    covers: (row, column) => covered.has(`${row},${column}`),
  };
  if (!Array.isArray(data.cellMerges)) return spans;
  const whole = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined);
  // Merges that hold cover each cell once; a sent document's merges that each fail late could cost the square of the
  // table's cells, so the cells looked at are bounded by a few times the table's, and the merges past that are left out.
  let budget = 4 * recordIds.length * columns.length;
  for (const merge of data.cellMerges as Array<{ anchor?: { record?: unknown; column?: unknown }; rowSpan?: unknown; colSpan?: unknown } | null>) {
    const row = recordIds.indexOf(String(merge?.anchor?.record));
    const column = columns.indexOf(String(merge?.anchor?.column));
    const [rowSpan, colSpan] = [whole(merge?.rowSpan), whole(merge?.colSpan)];
    if (row < 0 || column < 0 || !rowSpan || !colSpan || (rowSpan === 1 && colSpan === 1)) continue;
    if (row + rowSpan > recordIds.length || column + colSpan > columns.length) continue;
    if (budget < rowSpan * colSpan) break;
    budget -= rowSpan * colSpan;
    const cells: Array<[number, number]> = [];
    for (let r = row; r < row + rowSpan; r++) for (let c = column; c < column + colSpan; c++) cells.push([r, c]);
    const holds = cells.every(([r, c]) => {
      const key = `${r},${c}`;
      return !covered.has(key) && !anchors.has(key) && MERGEABLE_TYPES.has(data.definition?.[columns[c]]?.type ?? '') && (r === row && c === column ? true : isEmpty(r, c));
    });
    if (!holds) continue;
    anchors.set(`${row},${column}`, { row, column, rowSpan, colSpan });
    for (const [r, c] of cells.slice(1)) covered.add(`${r},${c}`);
  }
  return spans;
}

/** A cell's blocks hold nothing: no blocks, or paragraphs of no text and no inline. */
export function emptyBlocks(blocks: Block[] | undefined): boolean {
  return (blocks ?? []).every((node) => node.type === 'paragraph' && (node.nodes ?? []).every((child) => child.object === 'text' && child.leaves.every((leaf) => leaf.text === '')));
}
