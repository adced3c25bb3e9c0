// Issue 74's "done means", as a writer does it: open a space, choose Edit, write a page
// with a heading, a hint, a code block, a table and an image from the keyboard and the
// slash menu, and find all of it saved in their change request as GitBook's blocks,
// which the change request's read view then shows.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { editorBox, leaves, openEditor, redPng, seedSpace, setUpOrganization, storedDocument, waitSaved, type Api } from '../helpers/writing.ts';

describeInBrowser('writing a whole page', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let api: Api;
  let space: string;
  let pageId: string;

  beforeAll(async () => {
    let organizationId: string;
    ({ context, organizationId, api } = await setUpOrganization(harness));
    const seeded = await seedSpace(api, organizationId, 'Handbook', ['# Quick start\n\nWhat you need to begin.']);
    space = seeded.space;
    pageId = seeded.pages[0];
  }, 60_000);

  /** Types `/query` where the cursor is and chooses the menu's item `title` with Enter. */
  async function slash(page: Page, query: string, title: string): Promise<void> {
    await page.keyboard.type(`/${query}`);
    // The slash menu's options: a code block's language list has options of its own.
    await expect.poll(() => page.getByRole('listbox', { name: /Insert a block/ }).getByRole('option').first().textContent()).toMatch(new RegExp(`^${title}`));
    await page.keyboard.press('Enter');
  }

  it('writes a heading, a hint, a code block, a table and an image into the writer’s change request, as GitBook’s blocks the read view shows', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    const changeRequest = await openEditor(page, space, 'quick-start');
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Install');
    await page.keyboard.press('Enter');

    await slash(page, 'hint', 'Hint');
    await page.keyboard.type('You need Node.js 20.');
    // An empty line at a hint's end leaves it.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    await slash(page, 'code', 'Code block');
    await page.keyboard.type('npm install && npm start');
    await page.keyboard.press('Control+Enter');

    await slash(page, 'table', 'Table');
    for (const [index, cell] of ['Port', 'Use', '', '8080', 'The app', ''].entries()) {
      if (index > 0) await page.keyboard.press('Tab');
      await page.keyboard.type(cell);
    }

    // After the table, the page's last line: the image goes there.
    await page.keyboard.press('Control+End');
    const chooser = page.waitForEvent('filechooser');
    await slash(page, 'image', 'Image');
    await (await chooser).setFiles([{ name: 'screen.png', mimeType: 'image/png', buffer: redPng(160, 90) }]);
    await expect.poll(() => editorBox(page).locator('img').count()).toBe(1);
    await waitSaved(page);
    // The change request's list of changed pages names the page once it is saved, while the writer is still writing.
    await expect.poll(() => page.getByRole('region', { name: 'Changed pages' }).getByRole('link', { name: 'Quick start' }).isVisible()).toBe(true);

    const saved = async () => (await storedDocument(api, space, changeRequest, pageId)).nodes as any[];
    await expect.poll(async () => (await saved()).map((node) => node.type)).toEqual(['paragraph', 'heading-2', 'hint', 'code', 'table', 'images']);
    const [, heading, hint, code, table, images] = await saved();
    expect(leaves(heading)).toEqual([{ text: 'Install', marks: [] }]);
    expect(hint.data.style).toBe('info');
    expect(leaves(hint.nodes[0])).toEqual([{ text: 'You need Node.js 20.', marks: [] }]);
    expect(code.nodes.map((line: any) => leaves(line)[0].text)).toEqual(['npm install && npm start']);
    const cells = JSON.stringify(table.fragments);
    for (const word of ['Port', 'Use', '8080', 'The app']) expect(cells).toContain(word);
    const file = images.nodes[0].data.ref.file;
    const files = (await api('GET', `/v1/spaces/${space}/change-requests/${changeRequest}/content/files`)).body.items;
    expect(files.map((entry: { id: string; name: string }) => [entry.id, entry.name])).toEqual([[file, 'screen.png']]);

    await expectAccessible(page);
    // From the top, where the app's fixed header stands in a whole-page picture too.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'editor-journey');
    policyKept();

    // The change request's read view shows what was written, as readers will see it.
    await page.goto(`/s/${space}/~/changes/${changeRequest}/quick-start`);
    const article = page.getByRole('article', { name: 'Quick start' });
    await expect.poll(() => article.isVisible()).toBe(true);
    for (const words of ['Install', 'You need Node.js 20.', 'npm install && npm start', 'The app']) await expect.poll(() => article.getByText(words).first().isVisible()).toBe(true);
    await expect.poll(() => article.locator('img').count()).toBe(1);
  });
});
