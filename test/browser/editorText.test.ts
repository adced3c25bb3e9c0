// Writing text in the editor: the slash menu (typed /, narrowed, chosen by keyboard or
// mouse), the text and list blocks it and the markdown shortcuts make, task lists ticked,
// and every mark from the formatting bar and its key. Each is checked through the API:
// the change request holds exactly GitBook's document (types, data, marks).
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, PHONE, useBrowser } from '../helpers/browser.ts';
import { editorBox, openEditor, seedSpace, setUpOrganization, storedDocument, waitSaved, withoutKeys, type Api } from '../helpers/writing.ts';

const SCREENS = '/tmp/screens/slash';

// GitBook's document as the API gives it, without the keys the editor makes up.

type Mark = { type: string; data?: unknown };
const leaf = (text: string, ...marks: Array<string | Mark>) => ({ object: 'leaf', text, marks: marks.map((mark) => ({ object: 'mark', ...(typeof mark === 'string' ? { type: mark } : mark) })) });
const text = (...leaves: Array<string | ReturnType<typeof leaf>>) => ({ object: 'text', leaves: leaves.map((item) => (typeof item === 'string' ? leaf(item) : item)) });
const block = (type: string, nodes: unknown[], data: Record<string, unknown> = {}) => ({ object: 'block', type, isVoid: false, data, nodes });
const textBlock = (type: string, ...leaves: Array<string | ReturnType<typeof leaf>>) => block(type, [text(...leaves)]);
/** A heading, with the anchor GitBook keeps in its meta. */
const heading = (level: number, words: string) => ({ ...textBlock(`heading-${level}`, words), meta: { id: words.toLowerCase() } });
const paragraph = (...leaves: Array<string | ReturnType<typeof leaf>>) => textBlock('paragraph', ...leaves);
const item = (words: string, data: Record<string, unknown> = {}) => block('list-item', [paragraph(words)], data);
const divider = { object: 'block', type: 'divider', isVoid: true, data: {} };

/** What the menu lists now, option by option. */
const optionNames = (page: Page) => page.getByRole('option').evaluateAll((options) => options.map((option) => option.querySelector('span')?.textContent ?? ''));

/** Types `/query`, moves with ArrowDown to the option titled `title` (checking the page names it as the active one) and inserts it with Enter. */
async function chooseByKeyboard(page: Page, query: string, title: string) {
  await page.keyboard.type(`/${query}`);
  const names = await expectMenu(page);
  const index = names.indexOf(title);
  expect(index, `${title} among ${names.join(', ')}`).toBeGreaterThanOrEqual(0);
  for (let step = 0; step < index; step++) await page.keyboard.press('ArrowDown');
  const active = await editorBox(page).getAttribute('aria-activedescendant');
  expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
  expect(await page.locator(`[id="${active}"] span`).first().textContent()).toBe(title);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
}

/** Types `/query` and clicks the option titled `title`. */
async function chooseByMouse(page: Page, query: string, title: string) {
  await page.keyboard.type(`/${query}`);
  await expectMenu(page);
  await page.getByRole('option', { name: new RegExp(`^${title}`) }).first().click();
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
}

async function expectMenu(page: Page): Promise<string[]> {
  await expect.poll(() => page.getByRole('listbox', { name: /Insert a block/ }).isVisible(), { timeout: 5_000 }).toBe(true);
  return optionNames(page);
}

/** Selects `length` characters from `offset` in the page's `line`th paragraph, as a drag of the mouse would (the selection the browser reports is the page's). */
async function select(page: Page, line: number, offset: number, length: number) {
  await editorBox(page)
    .locator('p')
    .nth(line)
    .evaluate((paragraph, [start, end]) => {
      const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      let seen = 0;
      let started = false;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = node.textContent!.length;
        if (!started && start <= seen + length) {
          range.setStart(node, start - seen);
          started = true;
        }
        if (end <= seen + length) {
          range.setEnd(node, end - seen);
          break;
        }
        seen += length;
      }
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
    }, [offset, offset + length]);
  // ProseMirror reads the browser's selection when it reports a change.
  await page.waitForTimeout(50);
}

describeInBrowser('writing text, lists and marks', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let api: Api;
  let space: string;
  const pages: Record<'slash' | 'mouse' | 'shortcuts' | 'marks' | 'tasks', string> = { slash: '', mouse: '', shortcuts: '', marks: '', tasks: '' };

  beforeAll(async () => {
    let organizationId: string;
    ({ context, organizationId, api } = await setUpOrganization(harness));
    const seeded = await seedSpace(api, organizationId, 'Handbook', ['# Menu\n\nStart.', '# Slash\n\nStart.', '# Mouse\n\nStart.', '# Shortcuts\n\nStart.', '# Marks\n\nStart.', '# Tasks\n\nStart.']);
    space = seeded.space;
    [, pages.slash, pages.mouse, pages.shortcuts, pages.marks, pages.tasks] = seeded.pages;
    mkdirSync(SCREENS, { recursive: true });
  }, 60_000);

  /** Opens the page's editor with the cursor in a new paragraph at its end; answers the change request's number. */
  async function writeAtEnd(path: string): Promise<{ page: Page; number: string }> {
    const page = await context.newPage();
    const number = await openEditor(page, space, path);
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    return { page, number };
  }

  const EVERY_KIND = [
    block('paragraph', [text('Start.')]),
    paragraph('Plain words'),
    heading(1, 'One'),
    heading(2, 'Two'),
    heading(3, 'Three'),
    block('blockquote', [paragraph('Quoted')]),
    divider,
    block('list-unordered', [item('Bullet')]),
    block('list-ordered', [item('Counted')]),
    block('list-tasks', [item('Task', { checked: false })]),
  ];

  it('opens a labelled menu of blocks at /, narrows it by what is typed, says when nothing matches, and closes on Escape', async () => {
    const { page } = await writeAtEnd('menu');
    await page.keyboard.type('/');
    const all = await expectMenu(page);
    expect(all).toEqual(expect.arrayContaining(['Text', 'Heading 1', 'Heading 2', 'Heading 3', 'Quote', 'Divider', 'Bulleted list', 'Numbered list', 'Task list']));
    // Grouped: Text's blocks come before the lists.
    expect(all.indexOf('Divider')).toBeLessThan(all.indexOf('Bulleted list'));
    expect(await page.getByRole('group', { name: 'Lists' }).getByRole('option').count()).toBeGreaterThanOrEqual(3);
    // The page keeps the focus and names the first option as the one Enter inserts.
    expect(await editorBox(page).evaluate((box) => box === document.activeElement)).toBe(true);
    expect(await page.getByRole('option').first().getAttribute('aria-selected')).toBe('true');
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENS}/slash-menu-desktop.png` });

    await page.keyboard.type('head');
    const headings = await optionNames(page);
    expect(headings.slice(0, 3)).toEqual(['Heading 1', 'Heading 2', 'Heading 3']);
    expect(headings).not.toContain('Bulleted list');
    await page.keyboard.type('ingzz');
    await expect.poll(() => page.getByText('No blocks match “headingzz”').isVisible()).toBe(true);
    expect(await page.getByRole('option').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
    expect(await editorBox(page).textContent()).toContain('/headingzz');
    for (let step = 0; step < '/headingzz'.length; step++) await page.keyboard.press('Backspace');

    await page.setViewportSize(PHONE);
    await page.keyboard.type('/');
    await expectMenu(page);
    const box = await page.getByRole('listbox').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SCREENS}/slash-menu-phone.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SCREENS}/slash-menu-phone-dark.png` });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Backspace');
    await page.close();
  });

  it('inserts text, headings, a quote, a divider and each kind of list chosen from the menu with the keyboard', async () => {
    const { page, number } = await writeAtEnd('slash');
    await chooseByKeyboard(page, 'text', 'Text');
    await page.keyboard.type('Plain words');
    await page.keyboard.press('Enter');
    for (const [level, words] of [[1, 'One'], [2, 'Two'], [3, 'Three']] as const) {
      await chooseByKeyboard(page, 'heading', `Heading ${level}`);
      await page.keyboard.type(words);
      await page.keyboard.press('Enter');
    }
    await chooseByKeyboard(page, 'quote', 'Quote');
    await page.keyboard.type('Quoted');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await chooseByKeyboard(page, 'divider', 'Divider');
    for (const [query, title, words] of [['bullet', 'Bulleted list', 'Bullet'], ['numbered', 'Numbered list', 'Counted'], ['task', 'Task list', 'Task']]) {
      await chooseByKeyboard(page, query, title);
      await page.keyboard.type(words);
      if (title !== 'Task list') {
        await page.keyboard.press('Enter');
        await page.keyboard.press('Enter');
      }
    }
    await waitSaved(page);
    expect(withoutKeys(await storedDocument(api, space, number, pages.slash)).nodes).toEqual(EVERY_KIND);
    await page.close();
  });

  it('inserts the same blocks chosen from the menu with the mouse', async () => {
    const { page, number } = await writeAtEnd('mouse');
    await chooseByMouse(page, '', 'Text');
    await page.keyboard.type('Plain words');
    await page.keyboard.press('Enter');
    for (const [level, words] of [[1, 'One'], [2, 'Two'], [3, 'Three']] as const) {
      await chooseByMouse(page, '', `Heading ${level}`);
      await page.keyboard.type(words);
      await page.keyboard.press('Enter');
    }
    await chooseByMouse(page, 'quo', 'Quote');
    await page.keyboard.type('Quoted');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await chooseByMouse(page, '', 'Divider');
    for (const [title, words] of [['Bulleted list', 'Bullet'], ['Numbered list', 'Counted'], ['Task list', 'Task']]) {
      await chooseByMouse(page, 'list', title);
      await page.keyboard.type(words);
      if (title !== 'Task list') {
        await page.keyboard.press('Enter');
        await page.keyboard.press('Enter');
      }
    }
    await waitSaved(page);
    expect(withoutKeys(await storedDocument(api, space, number, pages.mouse)).nodes).toEqual(EVERY_KIND);
    await page.close();
  });

  it('turns markdown shortcuts into headings, a quote, dividers, lists, task lists and struck, bold, italic and code words', async () => {
    const { page, number } = await writeAtEnd('shortcuts');
    for (const line of ['# One', '## Two', '### Three']) {
      await page.keyboard.type(line);
      await page.keyboard.press('Enter');
    }
    await page.keyboard.type('> Quoted');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('---');
    await page.keyboard.type('*** ');
    for (const line of ['- Bullet', '1. Counted', '* Starred', '[ ] Open task', '- [ ] Dashed task', '[x] Done task']) {
      await page.keyboard.type(line);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
    }
    // `[x] ` at the start of an item of a bulleted list makes the list a task list, that item ticked.
    await page.keyboard.type('- First');
    await page.keyboard.press('Enter');
    await page.keyboard.type('[x] Second');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Now ~~gone~~ and **loud** and *soft* and `x = 1` and __strong__ and _slanted_.');
    await waitSaved(page);
    expect(withoutKeys(await storedDocument(api, space, number, pages.shortcuts)).nodes).toEqual([
      block('paragraph', [text('Start.')]),
      heading(1, 'One'),
      heading(2, 'Two'),
      heading(3, 'Three'),
      block('blockquote', [paragraph('Quoted')]),
      divider,
      divider,
      block('list-unordered', [item('Bullet')]),
      block('list-ordered', [item('Counted')]),
      block('list-unordered', [item('Starred')]),
      block('list-tasks', [item('Open task', { checked: false })]),
      block('list-tasks', [item('Dashed task', { checked: false })]),
      block('list-tasks', [item('Done task', { checked: true })]),
      block('list-tasks', [item('First', { checked: false }), item('Second', { checked: true })]),
      paragraph('Now ', leaf('gone', 'strikethrough'), ' and ', leaf('loud', 'bold'), ' and ', leaf('soft', 'italic'), ' and ', leaf('x = 1', 'code'), ' and ', leaf('strong', 'bold'), ' and ', leaf('slanted', 'italic'), '.'),
    ]);
    // Every task shows its checkbox, the list made a task list from bullets too.
    expect(await editorBox(page).getByRole('checkbox').count()).toBe(5);
    expect(await page.getByRole('checkbox', { name: 'First' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Second' }).isChecked()).toBe(true);
    await page.close();
  });

  it('puts every mark on the selected words from the formatting bar, showing it pressed, and by its key', async () => {
    const { page, number } = await writeAtEnd('marks');
    const words = 'bold italic struck code key sup sub hue';
    const bar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    const fromBar = ['Bold', 'Italic', 'Strikethrough', 'Code', 'Keyboard key', 'Superscript', 'Subscript'];
    // Both lines first: a word typed after a marked one would carry its mark on.
    await page.keyboard.type(words);
    await page.keyboard.press('Enter');
    // A key sent in the same instant as Enter can land before the caret in Chromium; a person's typing is never that fast.
    await page.waitForTimeout(100);
    await page.keyboard.type(words);
    let offset = 0;
    for (const [index, word] of words.split(' ').entries()) {
      await select(page, 1, offset, word.length);
      if (index < fromBar.length) {
        const button = bar.getByRole('button', { name: fromBar[index], exact: true });
        expect(await button.getAttribute('aria-pressed')).toBe('false');
        await button.click();
        await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
      } else {
        await bar.getByRole('button', { name: 'Colour' }).click();
        await page.getByRole('button', { name: 'Red text' }).click();
        await bar.getByRole('button', { name: 'Colour' }).click();
        await expectAccessible(page);
        await page.screenshot({ path: `${SCREENS}/colour-desktop.png` });
        await page.getByRole('button', { name: 'Yellow background' }).click();
        await expect.poll(() => bar.getByRole('button', { name: 'Colour' }).getAttribute('aria-pressed')).toBe('true');
      }
      offset += word.length + 1;
    }
    // The same marks by their keys; Ctrl+Shift+H gives the colour last chosen.
    const keys = ['Control+b', 'Control+i', 'Control+Shift+x', 'Control+e', 'Control+Alt+k', 'Control+.', 'Control+,', 'Control+Shift+h'];
    offset = 0;
    for (const [index, word] of words.split(' ').entries()) {
      await select(page, 2, offset, word.length);
      await page.keyboard.press(keys[index]);
      offset += word.length + 1;
    }
    // Ctrl+Shift+S strikes too, and a key pressed again takes its mark off.
    await select(page, 2, 'bold italic '.length, 'struck'.length);
    await page.keyboard.press('Control+Shift+s');
    await page.keyboard.press('Control+Shift+s');
    await select(page, 2, 0, 4);
    await page.keyboard.press('Control+b');
    await page.keyboard.press('Control+b');
    // Beside the selected words, the same buttons: Bold shows pressed, and takes its mark off and on.
    const beside = page.getByRole('toolbar', { name: 'Formatting of the selection' });
    const besideBold = beside.getByRole('button', { name: 'Bold', exact: true });
    await expect.poll(() => besideBold.getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: `${SCREENS}/selection-bar-desktop.png` });
    await besideBold.click();
    await expect.poll(() => besideBold.getAttribute('aria-pressed')).toBe('false');
    await besideBold.click();
    await expect.poll(() => besideBold.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('End');
    await expect.poll(() => beside.count()).toBe(0);
    await waitSaved(page);
    const color = { type: 'color', data: { text: 'red', background: 'yellow' } };
    const marked = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', color] as const;
    const expected = words.split(' ').flatMap((word, index) => [leaf(word, marked[index]), ...(index < 7 ? [leaf(' ')] : [])]);
    const nodes = withoutKeys(await storedDocument(api, space, number, pages.marks)).nodes;
    expect(nodes.slice(1)).toEqual([paragraph(...expected), paragraph(...expected)]);
    await select(page, 2, 0, 4);
    await page.screenshot({ path: `${SCREENS}/toolbar-desktop.png` });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${SCREENS}/toolbar-phone.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await bar.getByRole('button', { name: 'Colour' }).click();
    await page.screenshot({ path: `${SCREENS}/toolbar-phone-dark.png`, fullPage: true });
    await page.close();
  });

  it('ticks a task with its checkbox and with Ctrl+Enter, starts a new task after a ticked one unticked, and nests tasks with Tab', async () => {
    const { page, number } = await writeAtEnd('tasks');
    await page.keyboard.type('[ ] Write the guide');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Review it');
    const first = page.getByRole('checkbox', { name: 'Write the guide' });
    await first.click();
    await waitSaved(page);
    const stored = async () => withoutKeys(await storedDocument(api, space, number, pages.tasks)).nodes[1];
    expect(await stored()).toEqual(block('list-tasks', [item('Write the guide', { checked: true }), item('Review it', { checked: false })]));

    await editorBox(page).getByText('Review it').click();
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByRole('checkbox', { name: 'Review it' }).isChecked()).toBe(true);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Publish');
    await first.click();
    // Tab nests a task under the one above, Shift+Tab takes it out again.
    await editorBox(page).getByText('Publish').click();
    await page.keyboard.press('Tab');
    await waitSaved(page);
    expect(await stored()).toEqual(
      block('list-tasks', [item('Write the guide', { checked: false }), block('list-item', [paragraph('Review it'), block('list-tasks', [item('Publish', { checked: false })])], { checked: true })]),
    );
    await page.keyboard.press('Shift+Tab');
    await waitSaved(page);
    expect(await stored()).toEqual(block('list-tasks', [item('Write the guide', { checked: false }), item('Review it', { checked: true }), item('Publish', { checked: false })]));
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENS}/tasks-desktop.png` });
    await page.close();
  });
});
