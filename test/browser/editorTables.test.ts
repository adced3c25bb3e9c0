// GitBook's tables in the editor: a table made from the slash menu is written in cell by
// cell with Tab, grows a row and a column, has its columns titled and aligned, and is
// shown as cards; the change request then holds a table GitBook reads (ids, columns,
// rows, a fragment per text cell) and Git Sync writes it as a markdown table, then as
// cards. A markdown table and GitBook's cards, seeded, open drawn and are written back
// as they were.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser } from '../helpers/browser.ts';
import { editorBox, openEditor, redPng, seedSpace, setUpOrganization, storedDocument, waitSaved, type Api } from '../helpers/writing.ts';

const PRICES = `# Prices

What each plan costs.

| Plan | Seats | Price |
| :--- | :---: | ----: |
| Free | 1     | 0     |
| Team | 10    | 40    |
`;

/** Merged cells (GitBook's cellMerges) as Quire writes them: HTML's colspan and rowspan. */
const MERGED = '# Merged\n\nWho pays what.\n\n<table><thead><tr><th>Plan</th><th>Seats</th><th>Price</th></tr></thead><tbody><tr><td colspan="2">Wide</td><td>10</td></tr><tr><td rowspan="2">Tall</td><td>5</td><td>20</td></tr><tr><td>9</td><td>30</td></tr></tbody></table>\n';

const START = `# Start

Pick where to begin.

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Install</strong></td><td>Set it up.</td><td><a href="https://example.com/install">https://example.com/install</a></td></tr><tr><td><strong>Write</strong></td><td>Your first page.</td><td><a href="https://example.com/write">https://example.com/write</a></td></tr></tbody></table>
`;

type Block = { object: string; type: string; isVoid?: boolean; data: any; fragments?: Array<{ object: string; fragment: string; nodes: any[] }>; nodes?: any[] };

const wordsOf = (nodes: any[]): string =>
  nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf: { text: string }) => leaf.text).join('') : wordsOf(node.nodes ?? []))).join('');

/** The words of each block of a fragment, one line each. */
const cellWords = (nodes: any[]): string => nodes.map((node) => wordsOf(node.nodes ?? [])).join('\n');

/** Fails unless the table is one GitBook reads: its view lists defined columns, each text cell of each row names one of its fragments, and it has no other. */
function expectGitBookTable(table: Block): void {
  expect(table).toMatchObject({ object: 'block', type: 'table', isVoid: true });
  const { view, definition, records } = table.data;
  expect(['grid', 'cards']).toContain(view.type);
  for (const column of view.columns) expect(definition[column]).toMatchObject({ id: column, type: 'text', textAlignment: expect.stringMatching(/^(left|center|right)$/), title: expect.any(String) });
  const named = Object.values(records).flatMap((record: any) => {
    expect(record.orderIndex).toEqual(expect.any(String));
    return Object.keys(definition).filter((column) => definition[column].type === 'text').map((column) => record.values[column]);
  });
  const fragments = (table.fragments ?? []).map((fragment) => fragment.fragment);
  expect(new Set(named).size).toBe(named.length);
  expect([...fragments].sort()).toEqual([...named].sort());
  // An empty cell's fragment may hold no block: GitBook writes such a cell as <td></td>, which reads back so.
  for (const fragment of table.fragments ?? []) expect(fragment).toMatchObject({ object: 'fragment', nodes: expect.any(Array) });
}

/** A table as a writer sees it: its view, titles and alignments by column, and each row's cells' words. */
function tableShown(table: Block): { view: string; titles: string[]; alignments: string[]; rows: string[][] } {
  const { view, definition, records } = table.data;
  const fragments = new Map((table.fragments ?? []).map((fragment) => [fragment.fragment, fragment.nodes]));
  const rows = Object.values(records as Record<string, { orderIndex: string; values: Record<string, string> }>).sort((first, second) => (first.orderIndex < second.orderIndex ? -1 : 1));
  return {
    view: view.type,
    titles: view.columns.map((column: string) => definition[column].title),
    alignments: view.columns.map((column: string) => definition[column].textAlignment),
    rows: rows.map((record) => view.columns.map((column: string) => cellWords(fragments.get(record.values[column]) ?? []))),
  };
}

describeInBrowser('tables in the editor', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let api: Api;
  let space: string;
  let pages: string[];

  beforeAll(async () => {
    mkdirSync('/tmp/screens/tables', { recursive: true });
    let organizationId: string;
    ({ context, organizationId, api } = await setUpOrganization(harness));
    ({ space, pages } = await seedSpace(api, organizationId, 'Tables', ['# Team\n\nWho does what.', PRICES, START, '# Notes\n\nBefore.\n\n| A | B |\n| - | - |\n| one | two |\n| three | four |\n', MERGED]));
  }, 60_000);

  const markdownOf = async (changeRequest: string, pageId: string): Promise<string> =>
    (await api('GET', `/v1/spaces/${space}/change-requests/${changeRequest}/content/page/${pageId}?format=markdown`)).body.markdown;

  const tableOf = async (changeRequest: string, pageId: string): Promise<Block> =>
    (await storedDocument(api, space, changeRequest, pageId)).nodes.find((node: Block) => node.type === 'table');

  const typeCells = async (page: Page, words: string[]) => {
    for (const [index, word] of words.entries()) {
      if (index > 0) await page.keyboard.press('Tab');
      await page.keyboard.type(word);
    }
  };

  /** Opens a column's menu by its button and chooses an item of that menu. */
  const chooseFromMenu = async (page: Page, menu: string, item: string) => {
    await page.getByRole('button', { name: menu }).click();
    await page.getByRole('menu', { name: menu }).getByRole('menuitem', { name: item }).click();
  };

  it('makes a table from the slash menu, written cell by cell with Tab, that grows a row and a column, has titled and aligned columns, and is shown as cards', async () => {
    const page = await context.newPage();
    const changeRequest = await openEditor(page, space, 'team');
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/table');
    await expect.poll(() => page.getByRole('option').first().textContent(), { timeout: 5000 }).toContain('Table');
    await page.keyboard.press('Enter');

    // The cursor starts in the first cell; Tab goes on row by row, Shift-Tab goes back.
    await typeCells(page, ['Ada', 'Admin', 'Docs', 'Bo', 'Writer', 'API']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type(' lead');
    await page.getByRole('textbox', { name: 'Title of column 1' }).fill('Name');
    await page.getByRole('textbox', { name: 'Title of column 2' }).fill('Role');
    await page.getByRole('textbox', { name: 'Title of column 3' }).fill('Tam');
    // Typed in the middle of a title, letters stay where they are typed.
    await page.getByRole('textbox', { name: 'Title of column 3' }).press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('e');

    // A row below the cursor's, the cursor in its first cell.
    await page.getByRole('button', { name: 'Add row below' }).click();
    await page.keyboard.type('Cy');
    // A column right of the third, the cursor in its first cell.
    await chooseFromMenu(page, 'Column 3 options', 'Insert column right');
    await page.keyboard.type('Yes');
    await page.getByRole('textbox', { name: 'Title of column 4' }).fill('Active');
    await chooseFromMenu(page, 'Column 2 options', 'Align center');
    await chooseFromMenu(page, 'Column 4 options', 'Align right');
    // Backspace at a cell's start does not run it into the one before.
    await editorBox(page).getByText('Cy', { exact: true }).click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Backspace');
    await waitSaved(page);

    const nodes = (await storedDocument(api, space, changeRequest, pages[0])).nodes;
    expect(nodes.map((node: Block) => node.type)).toEqual(['paragraph', 'table', 'paragraph']);
    const table: Block = nodes[1];
    expectGitBookTable(table);
    expect(table.data.view).toEqual({ type: 'grid', columns: expect.any(Array), hideHeader: false });
    expect(Object.keys(table.data.definition)).toHaveLength(4);
    expect(tableShown(table)).toEqual({
      view: 'grid',
      titles: ['Name', 'Role', 'Team', 'Active'],
      alignments: ['left', 'center', 'left', 'right'],
      rows: [
        ['Ada', 'Admin', 'Docs', 'Yes'],
        ['Bo', 'Writer lead', 'API', ''],
        ['Cy', '', '', ''],
        ['', '', '', ''],
      ],
    });
    // Git Sync writes it as a markdown table, with its alignments.
    expect(await markdownOf(changeRequest, pages[0])).toContain(
      ['| Name |     Role    | Team | Active |', '| ---- | :---------: | ---- | -----: |', '| Ada  |    Admin    | Docs |    Yes |', '| Bo   | Writer lead | API  |        |', '| Cy   |             |      |        |', '|      |             |      |        |'].join('\n'),
    );
    // The change request's read view draws it as the reader does: a table, its header, its alignments.
    const reader = await context.newPage();
    await reader.goto(`/s/${space}/~/changes/${changeRequest}/team`);
    const drawn = reader.locator('table').filter({ hasText: 'Writer lead' });
    await expect.poll(() => drawn.locator('th').allTextContents(), { timeout: 10_000 }).toEqual(['Name', 'Role', 'Team', 'Active']);
    expect(await drawn.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['Ada', 'Admin', 'Docs', 'Yes']);
    expect(await drawn.locator('th').nth(1).evaluate((cell) => getComputedStyle(cell).textAlign)).toBe('center');
    await reader.close();
    await expectAccessible(page);
    await screenshot(page, 'tables/grid');

    // Tab in the last cell makes a row.
    await editorBox(page).locator('.quire-table-cell').last().click();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Di');
    await page.getByRole('button', { name: 'Cards', exact: true }).click();
    await waitSaved(page);
    const cards = await tableOf(changeRequest, pages[0]);
    expectGitBookTable(cards);
    expect(cards.data.view).toEqual({ type: 'cards', cardSize: 'medium', columns: table.data.view.columns });
    expect(tableShown(cards).rows.map((row) => row[0])).toEqual(['Ada', 'Bo', 'Cy', '', 'Di']);
    const markdown = await markdownOf(changeRequest, pages[0]);
    expect(markdown).toContain('<table data-view="cards"><thead><tr><th>Name</th><th align="center">Role</th><th>Team</th><th align="right">Active</th></tr></thead><tbody><tr><td>Ada</td>');

    // A card's link and cover are addresses, kept in GitBook's hidden target and cover columns.
    await page.getByRole('button', { name: 'Links and covers' }).click();
    await page.getByRole('textbox', { name: 'Link of card 1' }).fill('https://example.com/ada');
    await page.getByRole('textbox', { name: 'Cover image of card 2' }).fill('https://example.com/bo.png');
    await waitSaved(page);
    const linked = await tableOf(changeRequest, pages[0]);
    expectGitBookTable(linked);
    const { view, definition, records } = linked.data;
    expect(definition[view.targetDefinition]).toMatchObject({ type: 'content-ref' });
    expect(definition[view.coverDefinition]).toMatchObject({ type: 'image' });
    expect(view.columns).not.toContain(view.targetDefinition);
    const [ada, bo] = Object.values(records as Record<string, { orderIndex: string; values: Record<string, unknown> }>).sort((first, second) => (first.orderIndex < second.orderIndex ? -1 : 1));
    expect([ada.values[view.targetDefinition], bo.values[view.coverDefinition], bo.values[view.targetDefinition]]).toEqual([{ kind: 'url', url: 'https://example.com/ada' }, { kind: 'url', url: 'https://example.com/bo.png' }, undefined]);
    expect(await markdownOf(changeRequest, pages[0])).toContain('<th data-hidden data-card-target data-type="content-ref"></th>');
    await expect.poll(() => editorBox(page).getByText('Link: https://example.com/ada').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'tables/cards');

    // Or a page of the space, and an image uploaded into the change request: content references, as GitBook keeps them.
    await page.getByRole('combobox', { name: 'Page card 3 leads to' }).selectOption({ label: 'Prices' });
    await expect.poll(() => page.getByRole('group', { name: 'Links and covers of the cards' }).getByText('Link: Prices').isVisible()).toBe(true);
    // The card itself names the page, as the bar under the cards does.
    const cardValue = (text: string) => editorBox(page).locator('.quire-table-value', { hasText: text });
    await expect.poll(() => cardValue('Link: Prices').count()).toBe(1);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a cover for card 1' }).click();
    await (await chooser).setFiles([{ name: 'ada.png', mimeType: 'image/png', buffer: redPng(64, 48) }]);
    await expect.poll(() => editorBox(page).getByText('Cover image: ada.png').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => cardValue('Cover: ada.png').count(), { timeout: 10_000 }).toBe(1);
    await waitSaved(page);
    const uploaded = (await api('GET', `/v1/spaces/${space}/change-requests/${changeRequest}/content/files`)).body.items.find((file: any) => file.name === 'ada.png');
    const referenced = async () => {
      const { data } = await tableOf(changeRequest, pages[0]);
      const ordered = Object.values(data.records as Record<string, { orderIndex: string; values: Record<string, unknown> }>).sort((first, second) => (first.orderIndex < second.orderIndex ? -1 : 1));
      return [ordered[0].values[data.view.coverDefinition], ordered[2].values[data.view.targetDefinition]];
    };
    await expect.poll(referenced).toEqual([{ kind: 'file', file: uploaded.id }, { kind: 'page', page: pages[1] }]);
    await page.getByRole('button', { name: 'Remove the link of card 3' }).click();
    await waitSaved(page);
    await expect.poll(referenced).toEqual([{ kind: 'file', file: uploaded.id }, undefined]);

    // Opened again, the cards' empty cells (empty fragments, as GitBook writes <td></td>) are written in with Tab.
    await page.reload();
    await editorBox(page).getByText('Di', { exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Late');
    await waitSaved(page);
    const again = await tableOf(changeRequest, pages[0]);
    expectGitBookTable(again);
    expect(tableShown(again).rows[4]).toEqual(['Di', 'Late', '', '']);
  });

  it('opens a seeded markdown table, GitBook cards and merged cells drawn, and writes them back as they were when the page around them is edited', async () => {
    for (const [index, path, cells] of [[1, 'prices', ['Free', 'Team', '40']], [2, 'start', ['Install', 'Set it up.', 'Your first page.', 'Link: https://example.com/write']], [4, 'merged', ['Wide', 'Tall', '30']]] as const) {
      const before = (await api('GET', `/v1/spaces/${space}/content/page/${pages[index]}?format=document`)).body.document;
      const page = await context.newPage();
      const changeRequest = await openEditor(page, space, path);
      for (const words of cells) await expect.poll(() => editorBox(page).getByText(words, { exact: true }).first().isVisible()).toBe(true);
      if (path === 'prices') {
        expect(await page.getByRole('textbox', { name: 'Title of column 1' }).inputValue()).toBe('Plan');
        // A table the cursor is not in draws neither its controls nor its columns' menus.
        expect(await page.getByRole('button', { name: 'Column 1 options' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Delete table' }).count()).toBe(0);
        // The focus on a column's title draws them, and they stay while its menu is open.
        await page.getByRole('textbox', { name: 'Title of column 1' }).focus();
        await page.getByRole('button', { name: 'Column 1 options' }).click();
        await expect.poll(() => page.getByRole('menu', { name: 'Column 1 options' }).getByRole('menuitem', { name: 'Align right' }).isVisible()).toBe(true);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('button', { name: 'Column 1 options' }).evaluate((button) => button === document.activeElement)).toBe(true);
      }
      if (path === 'merged') {
        // The merged cells span their columns and rows, over the cells they cover, which are not drawn.
        const place = (words: string) => editorBox(page).locator('.quire-table-cell', { hasText: words }).evaluate((cell) => [getComputedStyle(cell).gridColumn, getComputedStyle(cell).gridRow]);
        expect(await place('Wide')).toEqual(['1 / span 2', '1 / span 1']);
        expect(await place('Tall')).toEqual(['1 / span 1', '2 / span 2']);
        expect(await editorBox(page).locator('.quire-table-cell:visible').count()).toBe(7);
      }
      // Opened and left, the page is not written.
      await page.waitForTimeout(1500);
      expect(await tableOf(changeRequest, pages[index])).toEqual(before.nodes.find((node: Block) => node.type === 'table'));
      await editorBox(page).locator('h1, p').first().click();
      await page.keyboard.press('End');
      await page.keyboard.type(' Edited.');
      await waitSaved(page);
      expect(await tableOf(changeRequest, pages[index])).toEqual(before.nodes.find((node: Block) => node.type === 'table'));
      // Written elsewhere, the table draws no controls again.
      expect(await page.getByRole('button', { name: 'Delete table' }).count()).toBe(0);
      await expectAccessible(page);
      await screenshot(page, `tables/seeded-${path}`);
      if (path === 'start') {
        await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
        await expectAccessible(page);
        await screenshot(page, 'tables/seeded-start-dark');
        await page.getByRole('button', { name: 'Switch to the light theme' }).click();
      }
      await page.close();
    }
  });

  it('empties what a selection across cells covers in each cell, keeping the cells apart, hides the header and deletes the table', async () => {
    const page = await context.newPage();
    const changeRequest = await openEditor(page, space, 'notes');
    await editorBox(page).getByText('one', { exact: true }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('!');
    await waitSaved(page);
    const table = await tableOf(changeRequest, pages[3]);
    expectGitBookTable(table);
    const shown = tableShown(table);
    expect(shown.rows).toHaveLength(2);
    expect(shown.rows.every((row) => row.length === 2)).toBe(true);
    // What was selected in each cell goes; the cells stay apart.
    expect(shown.rows).toEqual([['one!', 'wo'], ['three', 'four']]);

    // The header can be hidden, and the table deleted.
    await page.getByRole('checkbox', { name: 'Header' }).uncheck();
    await waitSaved(page);
    expect((await tableOf(changeRequest, pages[3])).data.view.hideHeader).toBe(true);
    await page.getByRole('button', { name: 'Delete table' }).click();
    await waitSaved(page);
    expect((await storedDocument(api, space, changeRequest, pages[3])).nodes.map((node: Block) => node.type)).toEqual(['paragraph']);
    await page.close();
  });
});
