// GitBook's table in the editor: a void block whose `data` holds the view (a grid or
// cards), the columns and the rows, and whose fragments are its text cells. The node
// view draws the controls (view, rows, columns, titles, alignment, cards' links and
// covers) outside the content hole, whose children, the cells, tableLayout.ts lays out
// as a grid or as cards. Changes go through tables.ts's rules and tableEditing.ts.
// Tab and Shift-Tab move between cells (Tab in the last one adds a row); Backspace and
// Delete stop at a cell's edges, so that cells never run into each other.
// Only the table being worked in (the cursor in one of its cells, or the focus in its
// controls) draws its controls and its columns' menus: a page of hundreds of tables
// would otherwise mount hundreds of popovers, each listening to every key.
import { ActionIcon, Button, Checkbox, Group, Menu, NativeSelect, Text, TextInput } from '@mantine/core';
import type { Editor } from '@tiptap/core';
import { keymap } from '@tiptap/pm/keymap';
import { NodeViewContent, NodeViewWrapper, ReactNodeViewRenderer, useEditorState, type NodeViewProps } from '@tiptap/react';
import { useRef, useState, type CSSProperties } from 'react';
import { contextOf, type EditorPart } from '../part.ts';
import { linkablePages, refLabel, useChangeRequestContent } from '../references.ts';
import { EDITOR_CLASS } from '../styles.ts';
import { IMAGE_ACCEPT, pickFiles, uploadForField, useFileSource } from '../uploads.ts';
import { atCellEdge, cellAround, deleteAcrossCells, emptyCell, firstCellOf, moveBetweenCells, writeTable } from '../tableEditing.ts';
import { tableLayout, tablesKeepTheirCells } from '../tableLayout.ts';
import {
  addColumn, addRow, ALIGNMENTS, alignColumn, alignmentOf, cardUrl, cellFragment, cellPlaces, cellsInOrder, isTableData, newTable, removeColumn, removeRow,
  renameColumn, rowIds, setCardRef, setCardUrl, showHeader, shownColumns, switchView, viewTypeOf, type Alignment, type CardField, type TableChange, type TableData, type ViewType,
} from '../tables.ts';
import { controlsOwnTheirEvents, insertBlock } from './containers.ts';

const ALIGNMENT_LABELS: Record<Alignment, string> = { left: 'Align left', center: 'Align center', right: 'Align right' };

function DotsIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="1.8" />
      <circle cx="12" cy="12" r="1.8" />
      <circle cx="19" cy="12" r="1.8" />
    </svg>
  );
}

interface ColumnProps {
  data: TableData;
  column: string;
  index: number;
  current: boolean;
  /** Whether the table is being worked in, so that the column's menu is drawn. */
  active: boolean;
  onMenuChange: (opened: boolean) => void;
  write: (next: TableData | TableChange, focus?: string) => void;
}

/** A column's title and its menu: alignment (in a grid), a column before or after, and deleting it. */
function ColumnHeader({ data, column, index, current, active, onMenuChange, write }: ColumnProps) {
  const shown = shownColumns(data);
  const alignment = alignmentOf(data, column);
  const grid = viewTypeOf(data) === 'grid';
  const number = index + 1;
  const insert = (at: number) => {
    const change = addColumn(data, at);
    const firstRow = rowIds(change.data)[0];
    write(change, firstRow === undefined ? undefined : cellFragment(change.data, firstRow, change.column));
  };
  return (
    <div className="quire-table-th" data-current={current || undefined}>
      <TextInput
        size="xs"
        variant="unstyled"
        className="quire-table-title"
        aria-label={`Title of column ${number}`}
        placeholder={`Column ${number}`}
        value={data.definition[column]?.title ?? ''}
        onChange={(event) => write(renameColumn(data, column, event.currentTarget.value))}
        styles={{ input: { textAlign: grid ? alignment : undefined } }}
      />
      {active && (
        <Menu position="bottom-end" withinPortal onChange={onMenuChange}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Column ${number} options`}>
              <DotsIcon />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {grid && data.definition[column]?.type === 'text' && (
              <>
                <Menu.Label>Alignment</Menu.Label>
                {ALIGNMENTS.map((entry) => (
                  <Menu.Item key={entry} aria-current={entry === alignment ? 'true' : undefined} fw={entry === alignment ? 700 : undefined} onClick={() => write(alignColumn(data, column, entry))}>
                    {ALIGNMENT_LABELS[entry]}
                  </Menu.Item>
                ))}
                <Menu.Divider />
              </>
            )}
            <Menu.Item onClick={() => insert(index)}>{grid ? 'Insert column left' : 'Insert field before'}</Menu.Item>
            <Menu.Item onClick={() => insert(index + 1)}>{grid ? 'Insert column right' : 'Insert field after'}</Menu.Item>
            <Menu.Item color="red" disabled={shown.length <= 1} onClick={() => write(removeColumn(data, column))}>
              {grid ? 'Delete column' : 'Delete field'}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </div>
  );
}

const CARD_FIELDS: Array<{ field: CardField; label: string; placeholder: string }> = [
  { field: 'targetDefinition', label: 'Link', placeholder: 'https://… where the card leads' },
  { field: 'coverDefinition', label: 'Cover image', placeholder: 'https://… an image' },
];

/** What a card's link or cover leads to, in words: a page's title, a file's name (known as soon as it is uploaded). */
function CardRefLabel({ label, cardRef, editor }: { label: string; cardRef: Record<string, unknown>; editor: Editor }) {
  const context = contextOf(editor);
  const content = useChangeRequestContent(context);
  const file = useFileSource(context, cardRef.kind === 'file' ? cardRef : undefined);
  return (
    <Text size="xs">
      {label}: {file.file?.name ?? refLabel(cardRef, content.data, content.index)}
    </Text>
  );
}

/**
 * Each card's link and cover: GitBook's target and cover columns, made hidden as GitBook
 * makes them. A link is a web address or a page of the space, a cover a web address or
 * an image uploaded into the change request; each kept as a content reference.
 */
function CardLinks({ data, write, editor, latest }: { data: TableData; write: (next: TableData) => void; editor: Editor; latest: () => TableData | undefined }) {
  const context = contextOf(editor);
  const content = useChangeRequestContent(context);
  const pages = content.index ? linkablePages(content.index) : [];
  const rows = rowIds(data);
  const uploadCover = (row: string) =>
    pickFiles(IMAGE_ACCEPT, false, async ([file]) => {
      const uploaded = file && (await uploadForField(editor, file, 'image'));
      // Into the table as it is once the upload is in, not as it was when the picker opened.
      const table = latest();
      if (uploaded && table?.records[row]) write(setCardRef(table, 'coverDefinition', row, { kind: 'file', file: uploaded.id }));
    });
  return (
    <div data-controls contentEditable={false} className="quire-table-links" role="group" aria-label="Links and covers of the cards">
      {rows.map((row, index) => (
        <Group key={row} gap="xs" align="flex-end" wrap="wrap">
          <Text size="sm" fw={600} className="quire-table-link-card">
            Card {index + 1}
          </Text>
          {CARD_FIELDS.map(({ field, label, placeholder }) => {
            const current = cardUrl(data, field, row);
            const name = `${label} of card ${index + 1}`;
            if (current.kind === 'other') {
              return (
                <Group key={field} gap={4} wrap="nowrap" className="quire-table-link">
                  <CardRefLabel label={label} cardRef={current.ref} editor={editor} />
                  <Button size="compact-xs" variant="default" aria-label={`Remove the ${label.toLowerCase()} of card ${index + 1}`} onClick={() => write(setCardRef(data, field, row, undefined))}>
                    Remove
                  </Button>
                </Group>
              );
            }
            return (
              <Group key={field} gap={4} align="flex-end" wrap="nowrap" className="quire-table-link">
                <TextInput size="xs" label={name} placeholder={placeholder} value={current.kind === 'url' ? current.url : ''} onChange={(event) => write(setCardUrl(data, field, row, event.currentTarget.value.trim()))} />
                {field === 'targetDefinition' ? (
                  <NativeSelect
                    size="xs"
                    aria-label={`Page card ${index + 1} leads to`}
                    value=""
                    data={[{ value: '', label: 'or a page…' }, ...pages.map((entry) => ({ value: entry.page.id, label: entry.page.title }))]}
                    onChange={(event) => event.currentTarget.value && write(setCardRef(data, field, row, { kind: 'page', page: event.currentTarget.value }))}
                  />
                ) : (
                  <Button size="xs" variant="default" aria-label={`Upload a cover for card ${index + 1}`} onClick={() => uploadCover(row)}>
                    Upload
                  </Button>
                )}
              </Group>
            );
          })}
        </Group>
      ))}
    </div>
  );
}

function TableView(props: NodeViewProps) {
  const { node, editor, getPos, deleteNode } = props;
  const position = () => getPos() ?? -1;
  const [linksShown, showLinks] = useState(false);
  // The focus in the table's controls or in one of its menus (drawn elsewhere, but whose events React brings here).
  const [focusedWithin, setFocusedWithin] = useState(false);
  const menuOpened = useRef(false);
  const wrapper = useRef<HTMLDivElement>(null);
  // The cell the cursor is in, when it is in this table.
  const current = useEditorState({
    editor,
    selector: ({ editor: current }) => {
      const cell = current ? cellAround(current.state.selection.$from) : undefined;
      return cell && cell.tablePosition === getPos() ? cell.fragment : null;
    },
  });
  const data = node.attrs.data;
  if (!isTableData(data)) {
    return (
      <NodeViewWrapper className="quire-table">
        <Text size="sm" c="dimmed" contentEditable={false}>A table the editor cannot change: it is kept as it is.</Text>
        <NodeViewContent className="quire-table-kept" />
      </NodeViewWrapper>
    );
  }
  const write = (next: TableData | TableChange, focus?: string) => writeTable(editor, position(), next, focus);
  const view = viewTypeOf(data);
  const cards = view === 'cards';
  const shown = shownColumns(data);
  const rows = rowIds(data);
  const place = current ? cellPlaces(data).get(current) : undefined;
  const addRowBelow = () => {
    const change = addRow(data, place ? place.rowIndex + 1 : rows.length);
    write(change, firstCellOf(change.data, change.row));
  };
  const addColumnAfter = () => {
    const change = addColumn(data, place && place.columnIndex >= 0 ? place.columnIndex + 1 : shown.length);
    const row = place?.row ?? rows[0];
    write(change, row === undefined ? undefined : cellFragment(change.data, row, change.column));
  };
  const rowName = cards ? 'card' : 'row';
  const active = current !== null || focusedWithin;
  // Focus moving from one control to another leaves and enters in two events: whether it left is known once both are in.
  const checkFocusLeft = () =>
    setTimeout(() => {
      if (!menuOpened.current && !wrapper.current?.contains(document.activeElement)) setFocusedWithin(false);
    });
  const onMenuChange = (opened: boolean) => {
    menuOpened.current = opened;
    if (!opened) checkFocusLeft();
  };
  const headers = shown.map((column, index) => (
    <ColumnHeader key={column} data={data} column={column} index={index} current={place?.column === column} active={active} onMenuChange={onMenuChange} write={write} />
  ));
  const viewButton = (value: ViewType, label: string) => (
    <Button size="xs" variant={view === value ? 'filled' : 'default'} aria-pressed={view === value} onClick={() => view !== value && write(switchView(data, value))}>
      {label}
    </Button>
  );
  return (
    <NodeViewWrapper
      ref={wrapper}
      className="quire-table"
      data-view={view}
      role="group"
      aria-label={cards ? `Cards: ${rows.length}, of ${shown.length} fields each` : `Table of ${shown.length} columns and ${rows.length} rows`}
      onFocus={() => setFocusedWithin(true)}
      onBlur={checkFocusLeft}
    >
      {/* Kept as tall when empty, so that the cells do not move under the pointer as the table becomes the one worked in. */}
      {!active && <div contentEditable={false} className="quire-table-bar" />}
      {active && (
        <Group data-controls contentEditable={false} className="quire-table-bar" gap="xs">
          <Button.Group aria-label="Show the table as">
            {viewButton('grid', 'Table')}
            {viewButton('cards', 'Cards')}
          </Button.Group>
          <Button size="xs" variant="default" onClick={addRowBelow}>
            {place ? `Add ${rowName} below` : `Add ${rowName}`}
          </Button>
          <Button size="xs" variant="default" onClick={addColumnAfter}>
            {cards ? 'Add field' : place ? 'Add column right' : 'Add column'}
          </Button>
          <Button size="xs" variant="default" disabled={!place || rows.length <= 1} onClick={() => place && write(removeRow(data, place.row))}>
            {place ? `Delete ${rowName} ${place.rowIndex + 1}` : `Delete ${rowName}`}
          </Button>
          {cards && (
            <Button size="xs" variant="default" aria-expanded={linksShown} onClick={() => showLinks(!linksShown)}>
              Links and covers
            </Button>
          )}
          {!cards && <Checkbox size="xs" label="Header" checked={data.view.hideHeader !== true} onChange={(event) => write(showHeader(data, event.currentTarget.checked))} />}
          <Button size="xs" variant="default" onClick={deleteNode}>
            Delete table
          </Button>
        </Group>
      )}
      {cards && (
        <div data-controls contentEditable={false} className="quire-table-fields" role="group" aria-label="Fields of each card">
          {headers}
        </div>
      )}
      <div className="quire-table-scroll">
        <div className="quire-table-body" style={{ '--columns': Math.max(shown.length, 1) } as CSSProperties}>
          {!cards && (
            <div data-controls contentEditable={false} className="quire-table-head" data-hidden={data.view.hideHeader === true || undefined}>
              {headers}
            </div>
          )}
          <NodeViewContent className="quire-table-cells" />
        </div>
      </div>
      {cards && linksShown && <CardLinks data={data} write={write} editor={editor} latest={() => {
        const table = editor.state.doc.nodeAt(position())?.attrs.data;
        return isTableData(table) ? table : undefined;
      }} />}
    </NodeViewWrapper>
  );
}

function insertTable(editor: Editor, range: { from: number; to: number }, titles: string[], rows: number, view: ViewType): void {
  const { data } = newTable(titles, rows, view);
  const { schema } = editor.state;
  insertBlock(editor, range, schema.nodes.table.create({ data }, cellsInOrder(data).map((name) => emptyCell(schema, name))));
  // Nothing follows a table at the end of the page but a place to write after it.
  const { $from } = editor.state.selection;
  const cell = cellAround($from);
  if (!cell) return;
  const $table = editor.state.doc.resolve(cell.tablePosition);
  const after = cell.tablePosition + cell.table.nodeSize;
  if ($table.index() === $table.parent.childCount - 1) editor.view.dispatch(editor.state.tr.insert(after, schema.nodes.paragraph.create()));
}

const TABLE_STYLES = `
.${EDITOR_CLASS} .quire-table { margin: 0.75rem 0; container: quire-table / inline-size; }
.${EDITOR_CLASS} .quire-table-bar { margin-bottom: 0.375rem; min-height: var(--button-height-xs, 1.875rem); }
.${EDITOR_CLASS} .quire-table-scroll { overflow-x: auto; padding-bottom: 0.25rem; }
.${EDITOR_CLASS} .quire-table[data-view="grid"] .quire-table-body { min-width: calc(var(--columns) * 8rem); border-top: 1px solid var(--mantine-color-default-border); border-left: 1px solid var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-table-head, .${EDITOR_CLASS} .quire-table[data-view="grid"] .quire-table-cells > [data-node-view-content-react] { display: grid; grid-template-columns: repeat(var(--columns), minmax(8rem, 1fr)); }
.${EDITOR_CLASS} .quire-table-head { background: var(--mantine-color-default-hover); }
.${EDITOR_CLASS} .quire-table-head[data-hidden] .quire-table-title { opacity: 0.6; font-style: italic; }
.${EDITOR_CLASS} .quire-table-th { display: flex; align-items: center; gap: 0.125rem; min-width: 0; padding: 0 0.25rem 0 0.5rem; border-right: 1px solid var(--mantine-color-default-border); border-bottom: 1px solid var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-table-th[data-current] { box-shadow: inset 0 -2px 0 var(--mantine-primary-color-filled); }
.${EDITOR_CLASS} .quire-table-title { flex: 1; min-width: 0; }
.${EDITOR_CLASS} .quire-table-title input { font-weight: 600; }
.${EDITOR_CLASS} .quire-table[data-view="grid"] .quire-table-cell { min-width: 0; padding: 0.25rem 0.5rem; border-right: 1px solid var(--mantine-color-default-border); border-bottom: 1px solid var(--mantine-color-default-border); }
.${EDITOR_CLASS} .quire-table-cell { min-height: 2rem; }
.${EDITOR_CLASS} .quire-table-cell > p { margin: 0.125rem 0; }
.${EDITOR_CLASS} .quire-table-value { color: var(--mantine-color-dimmed); font-size: 0.9em; }
.${EDITOR_CLASS} .quire-table-unplaced { display: none; }
.${EDITOR_CLASS} .quire-table-fields { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; margin-bottom: 0.5rem; }
.${EDITOR_CLASS} .quire-table-fields .quire-table-th { flex: 1 1 10rem; max-width: 16rem; border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-sm); }
.${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cells > [data-node-view-content-react] { display: grid; grid-template-columns: minmax(0, 1fr); column-gap: 1rem; }
.${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cells > [data-node-view-content-react] > * { grid-row: var(--row-1); grid-column: var(--column-1); }
.${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cell { min-width: 0; padding: 0.25rem 0.75rem; }
.${EDITOR_CLASS} .quire-table-card { border: 1px solid var(--mantine-color-default-border); border-radius: var(--mantine-radius-md); background: var(--mantine-color-body); }
.${EDITOR_CLASS} .quire-table-card-gap { height: 1rem; }
.${EDITOR_CLASS} .quire-table-links { display: flex; flex-direction: column; gap: 0.5rem; margin-top: 0.25rem; }
.${EDITOR_CLASS} .quire-table-link-card { min-width: 4rem; padding-bottom: 0.3rem; }
.${EDITOR_CLASS} .quire-table-link { flex: 1 1 14rem; }
.${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cell { position: relative; }
/* An empty field of a card shows which it is. */
.${EDITOR_CLASS} .quire-table-cell[data-placeholder]:has(> p:only-child > br:only-child)::before { content: attr(data-placeholder); position: absolute; color: var(--mantine-color-dimmed); pointer-events: none; }
.${EDITOR_CLASS} .quire-table-cell:has(+ .quire-table-card-gap), .${EDITOR_CLASS} .quire-table-card + .quire-table-cell { padding-block: 0.5rem; }
@container quire-table (min-width: 30rem) {
  .${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cells > [data-node-view-content-react] { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cells > [data-node-view-content-react] > * { grid-row: var(--row-2); grid-column: var(--column-2); }
}
@container quire-table (min-width: 46rem) {
  .${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cells > [data-node-view-content-react] { grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .${EDITOR_CLASS} .quire-table[data-view="cards"] .quire-table-cells > [data-node-view-content-react] > * { grid-row: var(--row-3); grid-column: var(--column-3); }
}
`;

export const part: EditorPart = {
  views: { table: ReactNodeViewRenderer(TableView, { stopEvent: controlsOwnTheirEvents }) },
  slash: [
    {
      title: 'Table',
      description: 'A table of three columns and three rows, with a header.',
      keywords: ['grid', 'rows', 'columns', 'spreadsheet'],
      group: 'Tables',
      insert: (editor, range) => insertTable(editor, range, ['Column 1', 'Column 2', 'Column 3'], 3, 'grid'),
    },
    {
      title: 'Cards',
      description: 'Three cards side by side, each with a title and a description.',
      keywords: ['card', 'gallery', 'tiles', 'grid'],
      group: 'Tables',
      insert: (editor, range) => insertTable(editor, range, ['Title', 'Description'], 3, 'cards'),
    },
  ],
  plugins: (editor) => [
    // A keymap of its own rather than `keys`, so that a list's or a code block's Tab in a cell comes first (their parts' keymaps are earlier plugins).
    keymap({
      Tab: () => moveBetweenCells(editor, 1),
      'Shift-Tab': () => moveBetweenCells(editor, -1),
      Backspace: () => deleteAcrossCells(editor) || atCellEdge(editor, 'start'),
      Delete: () => deleteAcrossCells(editor) || atCellEdge(editor, 'end'),
    }),
    tableLayout,
    tablesKeepTheirCells,
  ],
  styles: TABLE_STYLES,
};
