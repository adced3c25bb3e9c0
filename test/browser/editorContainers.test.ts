// GitBook's container blocks in the editor: hints, code blocks, expandables, tabs,
// steppers and columns are made from the slash menu, written in, and their options set
// in their own controls; the change request then holds exactly GitBook's document, and
// Git Sync's markdown writes GitBook's tags. A page holding each kind, seeded from
// GitBook's markdown, opens drawn and is written back as it was.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser } from '../helpers/browser.ts';
import { editorBox, openEditor, seedSpace, setUpOrganization, storedDocument, waitSaved, withoutKeys, type Api } from '../helpers/writing.ts';

const SEEDED = `# Seeded

Before the blocks.

{% hint style="success" %}
It worked.
{% endhint %}

{% code title="hello.py" lineNumbers="true" %}
\`\`\`python
print("hello")
print("again")
\`\`\`
{% endcode %}

<details>

<summary>More about it</summary>

Folded words.

</details>

{% tabs %}
{% tab title="npm" %}
npm install quire
{% endtab %}

{% tab title="yarn" %}
yarn add quire
{% endtab %}
{% endtabs %}

{% stepper %}
{% step %}
Sign up.
{% endstep %}

{% step %}
Sign in.
{% endstep %}
{% endstepper %}

{% columns %}
{% column width="33.33%" %}
Left words.
{% endcolumn %}

{% column %}
Right words.
{% endcolumn %}
{% endcolumns %}
`;

const text = (words: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: words, marks: [] }] });
const paragraph = (words: string) => ({ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes: [text(words)] });

describeInBrowser('container blocks in the editor', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let api: Api;
  let space: string;
  let pages: string[];

  beforeAll(async () => {
    mkdirSync('/tmp/screens/containers', { recursive: true });
    let organizationId: string;
    ({ context, organizationId, api } = await setUpOrganization(harness));
    ({ space, pages } = await seedSpace(api, organizationId, 'Containers', ['# Hint\n\nStart.', '# Code sample\n\nStart.', '# Expandable\n\nStart.', '# Tabs\n\nStart.', '# Stepper\n\nStart.', '# Columns\n\nStart.', SEEDED, '# Nesting\n\n{% hint style="info" %}\nInside.\n{% endhint %}', '# Empty step\n\n{% stepper %}\n{% step %}\nFirst.\n{% endstep %}\n\n{% step %}\n{% endstep %}\n{% endstepper %}']));
  }, 60_000);

  /** Opens the page in the editor with the cursor on a new line at its end, types `/query`, and chooses the first item, `title`, with Enter. */
  async function insertFromSlash(path: string, query: string, title: string): Promise<{ page: Page; changeRequest: string }> {
    const page = await context.newPage();
    const changeRequest = await openEditor(page, space, path);
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${query}`);
    await expect.poll(() => page.getByRole('option').allTextContents(), { timeout: 5000 }).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${title}`))]));
    expect(await page.getByRole('option').first().textContent()).toMatch(new RegExp(`^${title}`));
    await page.keyboard.press('Enter');
    return { page, changeRequest };
  }

  const markdownOf = async (changeRequest: string, pageId: string): Promise<string> =>
    (await api('GET', `/v1/spaces/${space}/change-requests/${changeRequest}/content/page/${pageId}?format=markdown`)).body.markdown;

  it('makes a hint from the slash menu, changes its style, and leaves it with Enter on an empty line', async () => {
    const { page, changeRequest } = await insertFromSlash('hint', 'hint', 'Hint');
    await page.keyboard.type('Mind the gap.');
    await page.getByRole('button', { name: 'Info hint: change its style' }).click();
    await page.getByRole('menuitem', { name: 'Warning' }).click();
    await editorBox(page).locator('.quire-hint p').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('After the hint.');
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[0]);
    expect(withoutKeys(nodes.slice(1))).toEqual([{ object: 'block', type: 'hint', isVoid: false, data: { style: 'warning' }, nodes: [paragraph('Mind the gap.')] }, paragraph('After the hint.')]);
    expect(await markdownOf(changeRequest, pages[0])).toContain('{% hint style="warning" %}\nMind the gap.\n{% endhint %}');
    await expectAccessible(page);
    await screenshot(page, 'containers/hint');
  });

  it('makes a code block whose lines, title, language, line numbers and wrapping are GitBook’s, highlighted in its language, indents with Tab, and leaves it with Mod-Enter', async () => {
    const { page, changeRequest } = await insertFromSlash('code-sample', 'code', 'Code block');
    await page.keyboard.type('if (ready) {');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('go();');
    // The new line keeps the indentation of the one before.
    await page.keyboard.press('Enter');
    await page.keyboard.type('wait();');
    await page.keyboard.press('Control+Enter');
    await page.keyboard.type('After the code.');
    await page.getByRole('textbox', { name: 'Code block title' }).fill('.js');
    await page.keyboard.press('Home');
    await page.keyboard.type('start');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('javascript');
    await page.getByRole('checkbox', { name: 'Line numbers' }).check();
    await page.getByRole('checkbox', { name: 'Wrap lines' }).check();
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[1]);
    const line = (words: string) => ({ object: 'block', type: 'code-line', isVoid: false, data: {}, nodes: [text(words)] });
    expect(withoutKeys(nodes.slice(1))).toEqual([
      { object: 'block', type: 'code', isVoid: false, data: { title: 'start.js', syntax: 'javascript', lineNumbers: true, overflow: 'wrap' }, nodes: [line('if (ready) {'), line('  go();'), line('  wait();')] },
      paragraph('After the code.'),
    ]);
    expect(await markdownOf(changeRequest, pages[1])).toContain('{% code title="start.js" overflow="wrap" lineNumbers="true" %}\n```javascript\nif (ready) {\n  go();\n  wait();\n```\n{% endcode %}');

    // Highlighted in its language, and plain again without one.
    const keywords = () => editorBox(page).locator('.quire-code .hljs-keyword').allTextContents();
    await expect.poll(keywords).toEqual(['if']);

    // Taking the options off takes their fields out of `data`.
    await page.getByRole('checkbox', { name: 'Wrap lines' }).uncheck();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('');
    await waitSaved(page);
    await expect.poll(keywords).toEqual([]);
    expect((await storedDocument(api, space, changeRequest, pages[1])).nodes[1].data).toEqual({ title: 'start.js', lineNumbers: true });
    await expectAccessible(page);
    await screenshot(page, 'containers/code');
  });

  it('makes an expandable whose title and body are written in place and never joined, and sets whether it opens with the page', async () => {
    const { page, changeRequest } = await insertFromSlash('expandable', 'expandable', 'Expandable');
    await page.keyboard.type('More details');
    // The title is one paragraph: Enter goes on into the body.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Hidden words.');
    // Backspace at the body's start goes back to the title's end, never joining the two.
    await page.keyboard.press('Home');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('!');
    await page.getByRole('checkbox', { name: 'Open when the page loads' }).check();
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[2]);
    expect(withoutKeys(nodes.slice(1))).toEqual([
      {
        object: 'block', type: 'expandable', isVoid: true, data: { defaultExpanded: true },
        fragments: [
          { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [paragraph('More details!')] },
          { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [paragraph('Hidden words.')] },
        ],
      },
    ]);
    expect(await markdownOf(changeRequest, pages[2])).toContain('<details open>\n\n<summary>More details!</summary>\n\nHidden words.\n\n</details>');

    // Folded in the editor, the body hides; the document is unchanged.
    await page.getByRole('button', { name: 'Fold the expandable' }).click();
    await expect.poll(() => editorBox(page).getByText('Hidden words.').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Unfold the expandable' }).click();
    await expect.poll(() => editorBox(page).getByText('Hidden words.').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'containers/expandable');
  });

  it('makes tabs whose titles are renamed in the bar, adds a tab and writes in it, removes one, and leaves the tabs with Enter on an empty last line', async () => {
    const { page, changeRequest } = await insertFromSlash('tabs', 'tabs', 'Tabs');
    await page.keyboard.type('Install with npm.');
    // Typed into the middle of a title, the letters land where the caret is.
    await page.getByRole('textbox', { name: 'Title of tab 1 (shown)' }).fill('m');
    await page.keyboard.press('Home');
    await page.keyboard.type('np');
    await page.getByRole('button', { name: 'Add a tab' }).click();
    await page.keyboard.type('Install with yarn.');
    await page.getByRole('textbox', { name: 'Title of tab 3 (shown)' }).fill('yarn');
    // Focusing a title shows its tab; the shown one can be removed.
    await page.getByRole('textbox', { name: 'Title of tab 2' }).focus();
    await page.getByRole('button', { name: 'Remove the tab “Second tab”' }).click();
    await expect.poll(() => editorBox(page).getByText('Install with npm.').isVisible()).toBe(true);
    await expect.poll(() => editorBox(page).getByText('Install with yarn.').isVisible()).toBe(false);
    // Enter on an empty line at the end of the last tab leaves the tabs.
    await page.getByRole('textbox', { name: 'Title of tab 2' }).focus();
    await editorBox(page).getByText('Install with yarn.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('After the tabs.');
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[3]);
    const tab = (title: string, words: string) => ({ object: 'block', type: 'tabs-item', isVoid: false, data: { title }, nodes: [paragraph(words)] });
    expect(withoutKeys(nodes.slice(1))).toEqual([{ object: 'block', type: 'tabs', isVoid: false, data: {}, nodes: [tab('npm', 'Install with npm.'), tab('yarn', 'Install with yarn.')] }, paragraph('After the tabs.')]);
    expect(await markdownOf(changeRequest, pages[3])).toContain('{% tabs %}\n{% tab title="npm" %}\nInstall with npm.\n{% endtab %}\n\n{% tab title="yarn" %}\nInstall with yarn.\n{% endtab %}\n{% endtabs %}');
    await expectAccessible(page);
    await screenshot(page, 'containers/tabs');
  });

  it('makes a stepper, adds steps and writes in them, removes one with its button and an empty one with Backspace, and leaves it with Enter on an empty last line', async () => {
    const { page, changeRequest } = await insertFromSlash('stepper', 'stepper', 'Stepper');
    await page.keyboard.type('Sign up.');
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.keyboard.type('Sign in.');
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.keyboard.type('Not needed.');
    await page.getByRole('button', { name: 'Remove this step' }).last().click();
    // Backspace in a new, empty step takes it away, the cursor going back to the end of the step before.
    await page.getByRole('button', { name: 'Add a step' }).click();
    await expect.poll(() => editorBox(page).locator('.quire-step').count()).toBe(3);
    await page.keyboard.press('Backspace');
    await expect.poll(() => editorBox(page).locator('.quire-step').count()).toBe(2);
    // An empty line in a step makes a line, not a step; at the end of the last step, a second Enter leaves the stepper.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('After the steps.');
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[4]);
    const step = (words: string) => ({ object: 'block', type: 'stepper-step', isVoid: false, data: {}, nodes: [paragraph(words)] });
    expect(withoutKeys(nodes.slice(1))).toEqual([{ object: 'block', type: 'stepper', isVoid: false, data: {}, nodes: [step('Sign up.'), step('Sign in.')] }, paragraph('After the steps.')]);
    expect(await markdownOf(changeRequest, pages[4])).toContain('{% stepper %}\n{% step %}\nSign up.\n{% endstep %}\n\n{% step %}\nSign in.\n{% endstep %}\n{% endstepper %}');
    await expectAccessible(page);
    await screenshot(page, 'containers/stepper');
  });

  it('makes two columns, adds a third and removes it, with words written in each, and makes the left one twice as wide', async () => {
    const { page, changeRequest } = await insertFromSlash('columns', 'columns', 'Columns');
    await page.keyboard.type('Left words.');
    await editorBox(page).locator('.quire-column').nth(1).locator('p').click();
    await page.keyboard.type('Right words.');
    await page.getByRole('button', { name: 'Add a column' }).click();
    await page.keyboard.type('Third words.');
    await expect.poll(() => page.getByRole('button', { name: 'Add a column' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove this column' }).last().click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove this column' }).first().isVisible()).toBe(false);
    await page.getByRole('combobox', { name: 'Column widths' }).selectOption('Wider left (2:1)');
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[5]);
    const column = (value: number, words: string) => ({ object: 'block', type: 'column', isVoid: false, data: { width: { unit: '%', value } }, nodes: [paragraph(words)] });
    expect(withoutKeys(nodes.slice(1))).toEqual([{ object: 'block', type: 'columns', isVoid: false, data: {}, nodes: [column(66.67, 'Left words.'), column(33.33, 'Right words.')] }]);
    expect(await markdownOf(changeRequest, pages[5])).toContain('{% columns %}\n{% column width="66.67%" %}\nLeft words.\n{% endcolumn %}\n\n{% column width="33.33%" %}\nRight words.\n{% endcolumn %}\n{% endcolumns %}');
    await expectAccessible(page);
    await screenshot(page, 'containers/columns');
  });

  it('puts a block GitBook lets no hint hold, tabs typed in a hint, after the hint, and an empty tab opened again takes a click to write in', async () => {
    const page = await context.newPage();
    const changeRequest = await openEditor(page, space, 'nesting');
    await editorBox(page).getByText('Inside.').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/tabs');
    await expect.poll(() => page.getByRole('option').first().textContent()).toMatch(/^Tabs/);
    await page.keyboard.press('Enter');
    await page.keyboard.type('Tab words.');
    await waitSaved(page);

    const { nodes } = await storedDocument(api, space, changeRequest, pages[7]);
    const tab = (title: string, words: string) => ({ object: 'block', type: 'tabs-item', isVoid: false, data: { title }, nodes: [paragraph(words)] });
    expect(withoutKeys(nodes)).toEqual([
      { object: 'block', type: 'hint', isVoid: false, data: { style: 'info' }, nodes: [paragraph('Inside.')] },
      // Quire keeps no empty paragraph (as GitBook's markdown has none): the untouched tab is stored empty.
      { object: 'block', type: 'tabs', isVoid: false, data: {}, nodes: [tab('First tab', 'Tab words.'), { ...tab('Second tab', ''), nodes: [] }] },
    ]);

    // Opened again, the empty tab takes a click to write in.
    await page.reload();
    await page.getByRole('textbox', { name: 'Title of tab 2' }).click();
    await editorBox(page).locator('[data-type="tabsItem"]').nth(1).click();
    await page.keyboard.type('Second words.');
    await waitSaved(page);
    const tabs = (await storedDocument(api, space, changeRequest, pages[7])).nodes[1];
    expect(withoutKeys(tabs.nodes[1])).toEqual(tab('Second tab', 'Second words.'));
  });

  it('gives an empty step a line to write on when it is clicked', async () => {
    const live = (await api('GET', `/v1/spaces/${space}/content/page/${pages[8]}?format=document`)).body.document;
    expect(live.nodes[0].nodes[1].nodes).toEqual([]);
    const page = await context.newPage();
    const changeRequest = await openEditor(page, space, 'empty-step');
    await editorBox(page).locator('.quire-step-content').nth(1).click();
    await page.keyboard.type('Second.');
    await waitSaved(page);
    const stepper = (await storedDocument(api, space, changeRequest, pages[8])).nodes[0];
    expect(withoutKeys(stepper.nodes[1])).toEqual({ object: 'block', type: 'stepper-step', isVoid: false, data: {}, nodes: [paragraph('Second.')] });
  });

  it('opens a page of every container kind from GitBook’s markdown drawn as such, and writes back only what was typed', async () => {
    const live = (await api('GET', `/v1/spaces/${space}/content/page/${pages[6]}?format=document`)).body.document;
    const page = await context.newPage();
    const changeRequest = await openEditor(page, space, 'seeded');
    const box = editorBox(page);
    await expect.poll(() => box.locator('.quire-hint[data-style="success"]').count()).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Code block title' }).inputValue()).toBe('hello.py');
    expect(await page.getByRole('combobox', { name: 'Language' }).inputValue()).toBe('python');
    expect(await page.getByRole('checkbox', { name: 'Line numbers' }).isChecked()).toBe(true);
    // Highlighted as the reader highlights it, once lowlight has loaded.
    await expect.poll(() => box.locator('.quire-code .hljs-string').allTextContents()).toEqual(['"hello"', '"again"']);
    expect(await page.getByRole('textbox', { name: 'Title of tab 1 (shown)' }).inputValue()).toBe('npm');
    expect(await box.getByText('yarn add quire').isVisible()).toBe(false);
    expect(await box.locator('.quire-step').count()).toBe(2);
    expect(await box.locator('.quire-column').count()).toBe(2);

    // Moving the cursor into the second tab's words (as find or the keyboard would) shows that tab.
    await page.getByRole('textbox', { name: 'Title of tab 2' }).click();
    await expect.poll(() => box.getByText('yarn add quire').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'containers/seeded');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'containers/seeded-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await box.getByText('Before the blocks.').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited.');
    await waitSaved(page);
    const stored = await storedDocument(api, space, changeRequest, pages[6]);
    expect(stored.nodes[0].nodes[0].leaves[0].text).toBe('Before the blocks. Edited.');
    expect(JSON.stringify(stored.nodes.slice(1))).toBe(JSON.stringify(live.nodes.slice(1)));
  });
});
