// The editor's table operations (web/src/editor/tables.ts): each leaves a table GitBook
// reads (every text cell of a row names a fragment, the view lists defined columns),
// that Git Sync writes as the markdown table a writer expects and reads back the same.
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, linksAsWritten, linkWriterFor, markdownToDocument } from '../../src/content/document.ts';
import type { Block } from '../../src/content/gitbook/model.ts';
import {
  addColumn, addRow, alignColumn, cardUrl, showHeader, cellFragment, cellsInOrder, newTable, removeColumn, removeRow, renameColumn, rowIds, setCardUrl, shownColumns, switchView, type TableData,
} from '../../web/src/editor/tables.ts';

let counter = 0;
const ids = () => `id${++counter}`;

/** The table as a GitBook block whose cells hold these words, row by row, column by column. */
function block(data: TableData, words: string[][]): Block {
  const rows = rowIds(data);
  const fragments = cellsInOrder(data).map((name) => {
    const row = rows.findIndex((id) => Object.values(data.records[id].values).includes(name));
    const column = shownColumns(data).findIndex((id) => data.records[rows[row]].values[id] === name);
    const text = words[row]?.[column] ?? '';
    return { object: 'fragment', fragment: name, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] };
  });
  return { object: 'block', type: 'table', isVoid: true, data, fragments } as unknown as Block;
}

const markdownOf = (table: Block) => documentToMarkdown({ nodes: [table] }, { link: linkWriterFor(new Map()) });

/** Every text cell names a fragment the table has, and every column the view lists is defined. */
function expectValid(data: TableData): void {
  for (const column of data.view.columns) expect(data.definition[column]?.id).toBe(column);
  for (const column of Object.values(data.definition)) {
    expect(typeof column.title).toBe('string');
    if (column.type === 'text') expect(['left', 'center', 'right']).toContain(column.textAlignment);
  }
  for (const record of Object.values(data.records)) {
    expect(typeof record.orderIndex).toBe('string');
    for (const [column, value] of Object.entries(record.values)) {
      expect(data.definition[column]).toBeDefined();
      if (data.definition[column].type === 'text') expect(typeof value).toBe('string');
    }
  }
  expect(new Set(rowIds(data).map((row) => data.records[row].orderIndex)).size).toBe(rowIds(data).length);
}

describe("the editor's table operations", () => {
  it('make a new table in GitBook\'s shape: a grid of titled text columns, each row a fragment per cell, that Git Sync writes as a markdown table', () => {
    const { data, added } = newTable(['Name', 'Role'], 2, 'grid', ids);
    expectValid(data);
    expect(data.view).toEqual({ type: 'grid', columns: shownColumns(data), hideHeader: false });
    expect(shownColumns(data).map((column) => data.definition[column])).toEqual([
      { id: shownColumns(data)[0], title: 'Name', type: 'text', textAlignment: 'left' },
      { id: shownColumns(data)[1], title: 'Role', type: 'text', textAlignment: 'left' },
    ]);
    expect(added).toEqual(cellsInOrder(data));
    expect(added).toHaveLength(4);
    expect(markdownOf(block(data, [['Ada', 'Admin'], ['Bo', 'Writer']]))).toBe('| Name | Role   |\n| ---- | ------ |\n| Ada  | Admin  |\n| Bo   | Writer |\n');
  });

  it('add rows where asked, between the others in order, and columns with a cell in every row', () => {
    let { data } = newTable(['A'], 2, 'grid', ids);
    const [first, second] = rowIds(data);
    const between = addRow(data, 1, ids);
    expect(rowIds(between.data)).toEqual([first, between.row, second]);
    expect(between.added).toEqual([cellFragment(between.data, between.row, shownColumns(data)[0])]);
    data = between.data;
    const atStart = addRow(data, 0, ids);
    expect(rowIds(atStart.data)[0]).toBe(atStart.row);
    data = atStart.data;
    const column = addColumn(data, 0, ids, 'First');
    expect(shownColumns(column.data)[0]).toBe(column.column);
    expect(column.added).toHaveLength(4);
    for (const row of rowIds(column.data)) expect(column.added).toContain(cellFragment(column.data, row, column.column));
    expectValid(column.data);
  });

  it('number the rows anew where no index fits between two, as with GitBook\'s own upper-case ones', () => {
    const data: TableData = {
      view: { type: 'grid', columns: ['c'], hideHeader: false },
      definition: { c: { id: 'c', title: 'C', type: 'text', textAlignment: 'left' } },
      records: { x: { orderIndex: 'a0', values: { c: 'f1' } }, y: { orderIndex: 'Zz', values: { c: 'f2' } } },
    };
    const change = addRow(data, 1, ids);
    expect(rowIds(change.data)).toEqual(['y', change.row, 'x']);
    expectValid(change.data);
  });

  it('remove a row or a column with its fragments, its merges, and a card\'s link to it', () => {
    const { data } = newTable(['A', 'B'], 2, 'grid', ids);
    const [row] = rowIds(data);
    const [, column] = shownColumns(data);
    const withMerge = { ...data, cellMerges: [{ anchor: { record: row, column }, rowSpan: 2, colSpan: 1 }] };
    const rowGone = removeRow(withMerge, row);
    expect(rowGone.removed).toEqual(Object.values(data.records[row].values));
    expect(rowGone.data.cellMerges).toEqual([]);
    const cards = { ...switchView(withMerge, 'cards'), view: { ...switchView(withMerge, 'cards').view, targetDefinition: column } };
    const columnGone = removeColumn(cards, column);
    expect(columnGone.data.view).toEqual({ type: 'cards', cardSize: 'medium', columns: [shownColumns(data)[0]] });
    expect(columnGone.data.definition[column]).toBeUndefined();
    expect(columnGone.removed).toHaveLength(2);
    expect(columnGone.data.cellMerges).toEqual([]);
    expectValid(columnGone.data);
  });

  it('title and align a column, which Git Sync writes as the header and the alignment row', () => {
    let { data } = newTable(['A', 'B', 'C'], 1, 'grid', ids);
    const [a, b, c] = shownColumns(data);
    data = alignColumn(alignColumn(renameColumn(data, a, 'Left'), b, 'center'), c, 'right');
    expect([a, b, c].map((column) => data.definition[column].textAlignment)).toEqual(['left', 'center', 'right']);
    expect(markdownOf(block(data, [['1', '2', '3']]))).toBe('| Left |  B  |  C |\n| ---- | :-: | -: |\n| 1    |  2  |  3 |\n');
  });

  it('hide a grid\'s header of titles, which Git Sync then writes as GitBook\'s HTML table with data-header-hidden', () => {
    const { data } = newTable(['Name'], 1, 'grid', ids);
    const hidden = showHeader(data, false);
    expect(hidden.view.hideHeader).toBe(true);
    expect(markdownOf(block(hidden, [['Ada']]))).toBe('<table data-header-hidden><thead><tr><th>Name</th></tr></thead><tbody><tr><td>Ada</td></tr></tbody></table>\n');
    expect(showHeader(hidden, true).view.hideHeader).toBe(false);
  });

  it('switch between a grid and cards, keeping each view\'s own fields, which Git Sync writes and reads back', () => {
    const { data } = newTable(['Title', 'Description'], 2, 'grid', ids);
    const cards = switchView({ ...data, view: { ...data.view, columnWidths: { [shownColumns(data)[0]]: 200 } } }, 'cards');
    expect(cards.view).toEqual({ type: 'cards', cardSize: 'medium', columns: shownColumns(data) });
    const markdown = markdownOf(block(cards, [['Start', 'Begin here'], ['API', 'Call it']]));
    expect(markdown).toContain('<table data-view="cards">');
    const read = markdownToDocument(markdown, linksAsWritten).nodes[0] as Block;
    expect((read.data as TableData).view).toEqual({ type: 'cards', cardSize: 'medium', columns: ['c0', 'c1'] });
    expect(switchView(cards, 'grid').view).toEqual({ type: 'grid', columns: shownColumns(data), hideHeader: false });
  });

  it("give cards a link and a cover by address in GitBook's hidden target and cover columns, keep an image's settings, and leave a page chosen in GitBook alone", () => {
    const { data } = newTable(['Title'], 2, 'cards', ids);
    const [first, second] = rowIds(data);
    const linked = setCardUrl(setCardUrl(data, 'targetDefinition', first, 'https://example.com/a', ids), 'coverDefinition', second, 'https://example.com/b.png', ids);
    const target = linked.view.targetDefinition as string;
    const cover = linked.view.coverDefinition as string;
    expect(linked.definition[target]).toEqual({ id: target, title: '', type: 'content-ref' });
    expect(linked.definition[cover]).toEqual({ id: cover, title: '', type: 'image' });
    expect(linked.view.columns).toEqual(data.view.columns);
    expect(cardUrl(linked, 'targetDefinition', first)).toEqual({ kind: 'url', url: 'https://example.com/a' });
    expect(cardUrl(linked, 'targetDefinition', second)).toEqual({ kind: 'none' });
    expectValid(linked);
    const markdown = markdownOf(block(linked, [['A'], ['B']]));
    expect(markdown).toContain('<th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image"></th>');

    const fitted = { ...linked, records: { ...linked.records, [second]: { ...linked.records[second], values: { ...linked.records[second].values, [cover]: { ref: { kind: 'url', url: 'https://example.com/b.png' }, objectFit: 'contain' } } } } };
    expect(setCardUrl(fitted, 'coverDefinition', second, 'https://example.com/c.png', ids).records[second].values[cover]).toEqual({ ref: { kind: 'url', url: 'https://example.com/c.png' }, objectFit: 'contain' });
    expect(setCardUrl(linked, 'targetDefinition', first, '', ids).records[first].values[target]).toBeUndefined();
    const toPage = { ...linked, records: { ...linked.records, [first]: { ...linked.records[first], values: { ...linked.records[first].values, [target]: { kind: 'page', page: 'p1' } } } } };
    expect(cardUrl(toPage, 'targetDefinition', first)).toEqual({ kind: 'other', ref: { kind: 'page', page: 'p1' } });
    // No column is made for nothing.
    expect(setCardUrl(data, 'targetDefinition', first, '', ids)).toBe(data);
  });
});
