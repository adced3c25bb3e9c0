// The editor's tools around the writing: find in page (Ctrl+F, "2 of 3", Enter and
// Shift+Enter, replace all as one undo step, Escape), moving a block by its drag handle
// and by Alt+Shift+arrows (undone in one step), the block's menu from its grip, the word count, and long pages: drawn a
// screen first and typed in at once, their blocks out of view waking as they come into it. Checked on screen and, for what changes
// the page, through the API.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser } from '../helpers/browser.ts';
import { editorBox, leaves, openEditor, seedSpace, setUpOrganization, storedDocument, waitSaved, type Api } from '../helpers/writing.ts';

/** A page long enough that it is still being drawn when the first key is typed (web/src/editor/filling.ts). */
const LONGER = Array.from({ length: 3_000 }, (_, index) => `Line ${index + 1}.`);
const texts = (nodes: any[]) => nodes.map((node) => leaves(node).map((leaf) => leaf.text).join(''));

describeInBrowser('the editor\'s tools', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let api: Api;
  let space = '';
  let pages: string[] = [];

  beforeAll(async () => {
    mkdirSync('/tmp/screens/paste', { recursive: true });
    let organizationId: string;
    ({ context, organizationId, api } = await setUpOrganization(harness));
    ({ space, pages } = await seedSpace(api, organizationId, 'Tools', [
      '# Finding\n\nAlpha comes first.\n\nThen beta, then alpha again.\n\nLast ALPHA here.',
      '# Moving\n\nFirst block.\n\nSecond block.\n\nThird block.',
      `# Long\n\n${Array.from({ length: 150 }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n')}\n\n{% hint style="warning" %}\nFar hint.\n{% endhint %}\n\n\`\`\`javascript\nconst far = true;\n\`\`\`\n`,
      `# Longer\n\n${LONGER.join('\n\n')}\n`,
      '# Acting\n\nOne.\n\nTwo.\n\nThree.',
    ]));
  }, 60_000);

  const findBar = (page: Page) => page.getByRole('search', { name: 'Find in page' });
  const findCount = (page: Page) => findBar(page).getByTestId('find-count');

  it('finds words in the page with Ctrl+F, goes through them with Enter and Shift+Enter, replaces them all in one undo step, and closes with Escape', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'finding');
    // Finding starts where the cursor is: at the page's start.
    await editorBox(page).locator('p').first().click({ position: { x: 1, y: 5 } });
    await page.keyboard.press('Control+f');
    await expect.poll(() => findBar(page).isVisible()).toBe(true);
    await page.keyboard.type('alpha');
    await expect.poll(() => findCount(page).textContent()).toBe('1 of 3');
    expect(await editorBox(page).locator('.quire-find-match').count()).toBe(3);
    expect(await editorBox(page).locator('.quire-find-current').textContent()).toBe('Alpha');
    await page.keyboard.press('Enter');
    await expect.poll(() => findCount(page).textContent()).toBe('2 of 3');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(() => findCount(page).textContent()).toBe('1 of 3');
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => findCount(page).textContent()).toBe('3 of 3');
    expect(await editorBox(page).locator('.quire-find-current').textContent()).toBe('ALPHA');

    await page.keyboard.type('x');
    await expect.poll(() => findCount(page).textContent()).toBe('No results');
    await page.keyboard.press('Backspace');
    await expectAccessible(page);
    await screenshot(page, 'paste/find');
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await expectAccessible(page);
    await screenshot(page, 'paste/find-dark');
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();

    await findBar(page).getByRole('textbox', { name: 'Replace with' }).fill('omega');
    await findBar(page).getByRole('button', { name: 'Replace all' }).click();
    await expect.poll(() => findCount(page).textContent()).toBe('No results');
    await waitSaved(page);
    expect(texts((await storedDocument(api, space, number, pages[0])).nodes)).toEqual(['omega comes first.', 'Then beta, then omega again.', 'Last omega here.']);

    await findBar(page).getByRole('textbox', { name: 'Find in page' }).press('Escape');
    await expect.poll(() => findBar(page).count()).toBe(0);
    expect(await editorBox(page).locator('.quire-find-match').count()).toBe(0);
    // Back in the page (TipTap focuses it on the next frame, as the caret shows): one undo brings every match back.
    await expect.poll(() => editorBox(page).evaluate((box) => box === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+z');
    // Polled: the status may still read the Saved of the replacement when the undo's save has not begun.
    await expect.poll(async () => texts((await storedDocument(api, space, number, pages[0])).nodes)).toEqual(['Alpha comes first.', 'Then beta, then alpha again.', 'Last ALPHA here.']);
  });

  it('moves a block by its drag handle and by Alt+Shift+arrows, each move one undo step', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'moving');
    const blocks = editorBox(page).locator(':scope > p');
    const stored = async () => texts((await storedDocument(api, space, number, pages[1])).nodes);

    // The keyboard: the cursor's block goes up, and up again it cannot go further.
    await blocks.nth(1).click();
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await waitSaved(page);
    expect(await stored()).toEqual(['Second block.', 'First block.', 'Third block.']);
    // The cursor moved with its block: what is typed lands in it.
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await page.keyboard.press('Alt+Shift+ArrowDown');
    await waitSaved(page);
    expect(await stored()).toEqual(['First block.', 'Second block.!', 'Third block.']);
    await page.keyboard.press('Control+z');
    await waitSaved(page);
    expect(await stored()).toEqual(['Second block.!', 'First block.', 'Third block.']);

    // The pointer: the handle beside the third block, dragged above the first.
    await blocks.nth(2).hover();
    const handle = page.getByTestId('drag-handle');
    await expect.poll(() => handle.isVisible()).toBe(true);
    const box = (await handle.boundingBox())!;
    const third = (await blocks.nth(2).boundingBox())!;
    expect(Math.abs(box.y + box.height / 2 - (third.y + Math.min(third.height, 28) / 2))).toBeLessThan(12);
    // The pointer's own steps: a drag starts only once it moves while held.
    const first = (await blocks.nth(0).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(first.x + 20, first.y + 3, { steps: 8 });
    await page.mouse.up();
    await waitSaved(page);
    expect(await stored()).toEqual(['Third block.', 'Second block.!', 'First block.']);
    await screenshot(page, 'paste/drag-handle');
    await editorBox(page).click();
    await page.keyboard.press('Control+z');
    await waitSaved(page);
    expect(await stored()).toEqual(['Second block.!', 'First block.', 'Third block.']);
  });

  it("opens a block's menu from its grip, by the pointer and from the keyboard, to move, duplicate and delete the block, each one undo step", async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'acting');
    const blocks = editorBox(page).locator(':scope > p');
    const stored = async () => texts((await storedDocument(api, space, number, pages[4])).nodes);
    const grip = page.getByRole('button', { name: 'Block: drag to move it, or press for its menu' });
    const menu = page.getByRole('menu', { name: 'Block' });

    // The pointer: the grip beside "Two." opens its menu; Duplicate puts a copy after it.
    await blocks.nth(1).hover();
    await expect.poll(() => grip.isVisible()).toBe(true);
    await grip.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'paste/block-menu');
    await menu.getByRole('menuitem', { name: 'Duplicate' }).click();
    await waitSaved(page);
    expect(await stored()).toEqual(['One.', 'Two.', 'Two.', 'Three.']);

    // The keyboard: Tab from the cursor's block reaches its grip, Enter opens the menu at its first item, the arrows choose.
    // The pointer resting on another block leaves the grip there until the Tab brings it to the cursor's.
    await blocks.nth(3).click();
    await blocks.nth(0).hover();
    const middle = async (locator: Locator) => {
      const box = (await locator.boundingBox())!;
      return box.y + box.height / 2;
    };
    await expect.poll(async () => Math.abs((await middle(grip)) - (await middle(blocks.nth(0))))).toBeLessThan(12);
    await page.keyboard.press('Tab');
    const focused = (locator: Locator) => expect.poll(() => locator.evaluate((element) => element === document.activeElement)).toBe(true);
    await focused(grip);
    await page.keyboard.press('Enter');
    await focused(menu.getByRole('menuitem', { name: /^Move up/ }));
    await page.keyboard.press('ArrowDown');
    await focused(menu.getByRole('menuitem', { name: /^Move down/ }));
    await page.keyboard.press('ArrowUp');
    await focused(menu.getByRole('menuitem', { name: /^Move up/ }));
    await page.keyboard.press('Enter');
    await waitSaved(page);
    expect(await stored()).toEqual(['One.', 'Two.', 'Three.', 'Two.']);
    // Back in the page, the moved block selected: one undo takes the move back.
    await focused(editorBox(page));
    await page.keyboard.press('Control+z');
    await waitSaved(page);
    expect(await stored()).toEqual(['One.', 'Two.', 'Two.', 'Three.']);

    // Delete, then Escape closes the menu without acting.
    await blocks.nth(0).hover();
    await grip.click();
    await menu.getByRole('menuitem', { name: 'Delete' }).click();
    await waitSaved(page);
    expect(await stored()).toEqual(['Two.', 'Two.', 'Three.']);
    await page.keyboard.press('Control+z');
    await waitSaved(page);
    expect(await stored()).toEqual(['One.', 'Two.', 'Two.', 'Three.']);
    await blocks.nth(0).hover();
    await grip.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    await focused(editorBox(page));
    expect(await stored()).toEqual(['One.', 'Two.', 'Two.', 'Three.']);
  });

  it('counts the page\'s words in the toolbar, its characters on hover, and counts again after typing', async () => {
    const page = await context.newPage();
    await openEditor(page, space, 'finding');
    const count = page.getByTestId('word-count');
    await expect.poll(() => count.textContent()).toMatch(/^1[0-9] words$/);
    const before = Number((await count.textContent())!.split(' ')[0]);
    expect(await count.getAttribute('title')).toMatch(/^\d+ characters$/);
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Two more.');
    await expect.poll(() => count.textContent()).toBe(`${before + 2} words`);
  });

  it("opens a long page with the blocks out of view asleep, and wakes each as it comes into view: a far hint gets its style menu, far code its highlighting, and what is typed there is saved", async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'long');
    const box = editorBox(page);
    // Asleep: drawn as their plain blocks, their words in place, without their controls.
    expect(await box.locator('.quire-hint').count()).toBe(0);
    expect(await box.locator(':scope > [data-type="hint"]').textContent()).toBe('Far hint.');
    expect(await box.locator('.hljs-keyword').count()).toBe(0);

    await box.locator(':scope > [data-type="hint"]').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByRole('button', { name: 'Warning hint: change its style' }).isVisible()).toBe(true);
    await expect.poll(() => box.locator('.quire-code .hljs-keyword').allTextContents()).toEqual(['const']);
    await screenshot(page, 'paste/long-page-woken');

    await box.locator('.quire-hint p').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Written there.');
    await waitSaved(page);
    const stored = (await storedDocument(api, space, number, pages[2])).nodes;
    expect(stored).toHaveLength(152);
    expect(stored.slice(150).map((block: any) => [block.type, texts(block.nodes)])).toEqual([['hint', ['Far hint. Written there.']], ['code', ['const far = true;']]]);
    expect(texts(stored.slice(0, 150))).toEqual(Array.from({ length: 150 }, (_, index) => `Paragraph ${index + 1}.`));
  });

  it('opens a long page a screen first and the rest after: what is typed at once is saved with every block of the page, and undoing it leaves the page as it was', async () => {
    const page = await context.newPage();
    await page.goto(`/s/${space}/longer`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    // The editor found by CSS and focused in the same frame, and a key typed at once: asking by role walks thousands of blocks, by which time the page is all drawn.
    const editor = '[role="textbox"][contenteditable="true"]';
    await page.waitForFunction(
      (selector) => {
        const box = document.querySelector<HTMLElement>(selector);
        return box && box.childElementCount > 1 && (box.focus(), true);
      },
      editor,
      { polling: 'raf' },
    );
    await page.keyboard.type('§');
    expect(await page.locator(editor).evaluate((box) => box.childElementCount)).toBeLessThan(LONGER.length);
    await waitSaved(page);
    const number = /changes\/(\d+)\//.exec(page.url())![1];
    expect(texts((await storedDocument(api, space, number, pages[3])).nodes)).toEqual(['§Line 1.', ...LONGER.slice(1)]);
    await expect.poll(() => page.locator(editor).evaluate((box) => box.childElementCount)).toBe(LONGER.length);
    // Counted whole: "Line" and its number, each line.
    await expect.poll(() => page.getByTestId('word-count').textContent()).toBe('6,000 words');

    // The blocks drawn after are not an edit: one undo takes back the typing, and nothing else.
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.locator(`${editor} > p`).first().textContent()).toBe('Line 1.');
    expect(await page.locator(editor).evaluate((box) => box.childElementCount)).toBe(LONGER.length);
    await waitSaved(page);
    expect(texts((await storedDocument(api, space, number, pages[3])).nodes)).toEqual(LONGER);
  });

  it('shows what was typed on a page left before its save and opened again at once', async () => {
    const page = await context.newPage();
    await openEditor(page, space, 'moving');
    await editorBox(page).getByText('Third block.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Typed before leaving.');
    // Away and straight back, before the save was due: the page is read again once that save has answered.
    const tree = page.getByRole('navigation', { name: 'Pages' });
    await tree.getByRole('link', { name: 'Finding' }).click();
    await expect.poll(() => editorBox(page).getByText('Alpha comes first.').isVisible(), { timeout: 10_000 }).toBe(true);
    await tree.getByRole('link', { name: 'Moving' }).click();
    await expect.poll(() => editorBox(page).getByText('Third block. Typed before leaving.').isVisible(), { timeout: 10_000 }).toBe(true);
  });
});
