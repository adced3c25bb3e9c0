// Writing what refers to something else: links made with the picker are kept as content
// references (a page, a heading, a file, an address), a link to a page that is gone is
// flagged while writing, a script address is refused; @ mentions a member, : an emoji;
// page links, OpenAPI operations and reusable contents come from the slash menu.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { startGitServer, type GitServer } from '../helpers/gitServer.ts';
import { runCli } from '../helpers/process.ts';
import { editorBox, openEditor, seedSpace, setUpOrganization, storedDocument, waitSaved, type Api } from '../helpers/writing.ts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describeInBrowser('references in the editor', () => {
  const harness = useBrowser({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
  let context: BrowserContext;
  let organizationId: string;
  let api: Api;
  const ids = { space: '', guide: '', install: '', old: '', file: '' };

  beforeAll(async () => {
    mkdirSync('/tmp/screens/references', { recursive: true });
    ({ context, organizationId, api } = await setUpOrganization(harness));
    context.on('page', (opened) => opened.on('pageerror', (error) => console.error('PAGEERROR', error.message)));
    const seeded = await seedSpace(api, organizationId, 'Handbook', ['# Guide\n\nWelcome to the handbook.', '# Install\n\n## Steps\n\nRun it <i class="fa-rocket">:rocket:</i>.', '# Old\n\nGoing away.']);
    [ids.guide, ids.install, ids.old] = seeded.pages;
    ids.space = seeded.space;
    const files = (await api('POST', `/v1/spaces/${ids.space}/change-requests`, { subject: 'Logo' })).body;
    expect((await api('POST', `/v1/spaces/${ids.space}/change-requests/${files.id}/content`, { changes: [{ operation: 'insert_files', files: [{ name: 'logo.png', base64: PNG }] }] })).status).toBe(200);
    expect((await api('POST', `/v1/spaces/${ids.space}/change-requests/${files.id}/merge`)).status).toBe(200);
    ids.file = (await api('GET', `/v1/spaces/${ids.space}/content`)).body.files[0].id;
  }, 60_000);

  const shown = (locator: ReturnType<Page['locator']>) => expect.poll(() => locator.isVisible(), { timeout: 10_000 }).toBe(true);
  const picker = (page: Page) => page.getByRole('dialog');
  /** Waits for the picker's search to take the focus, as a person sees it open before typing. */
  const searchFocused = (page: Page) =>
    expect.poll(() => page.getByLabel(/^Search pages/).evaluate((input) => input === document.activeElement).catch(() => false), { timeout: 10_000 }).toBe(true);
  async function openPicker(page: Page) {
    await page.keyboard.press('Control+k');
    await searchFocused(page);
  }

  /** Types a new paragraph at the end of the page and selects its last `words` characters. */
  async function writeAndSelect(page: Page, line: string, words: string) {
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(line);
    // Selected once the page shows every letter typed: a selection moved before the editor has read the last of them is put back.
    await expect.poll(() => editorBox(page).evaluate((box) => box.textContent ?? '')).toMatch(new RegExp(`${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    for (let at = 0; at < words.length; at++) await page.keyboard.press('Shift+ArrowLeft');
    // The editor's own selection, which it reads from the page's a moment after each key: a paste acts on it.
    await expect.poll(() => editorBox(page).evaluate((box: any) => box.editor.state.doc.textBetween(box.editor.state.selection.from, box.editor.state.selection.to))).toBe(words);
  }

  /** The link inlines of the stored page, each with its words. */
  const storedLinks = async (changeRequest: string, pageId: string) =>
    (await storedDocument(api, ids.space, changeRequest, pageId)).nodes.flatMap((block: any) =>
      (block.nodes ?? []).filter((node: any) => node.type === 'link').map((link: any) => ({ words: link.nodes.map((text: any) => text.leaves.map((leaf: any) => leaf.text).join('')).join(''), ref: link.data.ref })),
    );

  it('links selected words to a page, a heading of a page, a file and a web address with the picker, keeping each as a content reference', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    const number = await openEditor(page, ids.space, 'guide');

    await writeAndSelect(page, 'Go to install', 'install');
    await openPicker(page);
    await page.keyboard.type('Install');
    await page.keyboard.press('Enter');
    await expect.poll(() => picker(page).isVisible()).toBe(false);

    await writeAndSelect(page, 'Read the steps', 'steps');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await page.getByLabel(/Search pages and files/).fill('Install');
    await page.getByRole('button', { name: 'Headings of Install' }).click();
    await picker(page).getByRole('button', { name: /^Steps/ }).click();

    await writeAndSelect(page, 'Get the logo', 'logo');
    await openPicker(page);
    await page.keyboard.type('logo');
    await picker(page).getByRole('button', { name: /logo\.png/ }).click();

    await writeAndSelect(page, 'Visit the site', 'site');
    await openPicker(page);
    await page.keyboard.type('example.com/docs');
    await page.keyboard.press('Enter');
    await waitSaved(page);

    // Polled: a paste or a pick may change the page after the status last read Saved.
    await expect.poll(() => storedLinks(number, ids.guide)).toEqual([
      { words: 'install', ref: { kind: 'page', page: ids.install } },
      // Quire stores pages as markdown, and reads a link to a heading back as the page with its anchor.
      { words: 'steps', ref: { kind: 'page', page: ids.install, anchor: 'steps' } },
      { words: 'logo', ref: { kind: 'file', file: ids.file } },
      { words: 'site', ref: { kind: 'url', url: 'https://example.com/docs' } },
    ]);

    // The cursor in a link shows where it leads, with Open, Edit and Remove.
    await editorBox(page).locator('a[data-type="link"]', { hasText: 'install' }).click();
    const bar = page.getByRole('group', { name: 'Link' });
    await shown(bar);
    expect(await bar.textContent()).toContain('Install');
    expect(await bar.getByRole('link', { name: 'Open' }).getAttribute('href')).toMatch(new RegExp(`/s/${ids.space}/~/changes/${number}/install$`));
    await expectAccessible(page);
    await screenshot(page, 'references/link-bar');

    // Removing it keeps its words.
    await bar.getByRole('button', { name: 'Remove' }).click();
    await waitSaved(page);
    await expect.poll(async () => (await storedLinks(number, ids.guide)).map((link: { words: string }) => link.words)).toEqual(['steps', 'logo', 'site']);
    policyKept();
  });

  it("links selected words to a pasted web address, and changes a link's target from its bar", async () => {
    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'install');
    await writeAndSelect(page, 'See the docs', 'docs');
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'https://example.org/guide');
      document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await waitSaved(page);
    // Polled: a paste or a pick may change the page after the status last read Saved.
    await expect.poll(() => storedLinks(number, ids.install)).toEqual([{ words: 'docs', ref: { kind: 'url', url: 'https://example.org/guide' } }]);

    await editorBox(page).locator('a[data-type="link"]', { hasText: 'docs' }).click();
    await page.getByRole('group', { name: 'Link' }).getByRole('button', { name: 'Edit' }).click();
    await searchFocused(page);
    expect(await picker(page).textContent()).toContain('Now leads to: https://example.org/guide');
    await page.keyboard.type('Guide');
    await page.keyboard.press('Enter');
    await waitSaved(page);
    // Polled: a paste or a pick may change the page after the status last read Saved.
    await expect.poll(() => storedLinks(number, ids.install)).toEqual([{ words: 'docs', ref: { kind: 'page', page: ids.guide } }]);
  });

  it('adds a link named after its page at the cursor, chosen with the keyboard alone', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'install');
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Back to the ');
    await openPicker(page);
    await page.keyboard.type('gui');
    // Down from the search to the first page found, and Enter on it.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Guide');
    await page.keyboard.press('Enter');
    await expect.poll(() => picker(page).isVisible()).toBe(false);
    // The page takes the keys again once the picker has given the focus back.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('textbox');
    await page.keyboard.type(' now.');
    await waitSaved(page);
    const lastParagraph = async () => (await storedDocument(api, ids.space, number, ids.install)).nodes.at(-1);
    await expect.poll(async () => (await lastParagraph()).nodes.map((node: any) => (node.object === 'text' ? node.leaves[0].text : node.data.ref.kind))).toEqual(['Back to the ', 'page', ' now.']);
    const paragraph = await lastParagraph();
    expect(paragraph.nodes.map((node: any) => (node.object === 'text' ? node.leaves[0].text : { link: node.data.ref, words: node.nodes[0].leaves[0].text }))).toEqual([
      'Back to the ',
      { link: { kind: 'page', page: ids.guide }, words: 'Guide' },
      ' now.',
    ]);
  });

  it('refuses a javascript: address in words, and links nothing', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'install');
    await writeAndSelect(page, 'Click here', 'here');
    await openPicker(page);
    await page.keyboard.type('javascript:alert(1)');
    const refusal = picker(page).getByRole('alert');
    await shown(refusal);
    expect(await refusal.textContent()).toContain('Links to “javascript:” addresses are not allowed');
    await page.keyboard.press('Enter');
    expect(await picker(page).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'references/refused');
    await page.keyboard.press('Escape');
    await waitSaved(page);
    expect(JSON.stringify(await storedDocument(api, ids.space, number, ids.install))).toContain('Click here');
    expect((await storedLinks(number, ids.install)).map((link: { words: string }) => link.words)).not.toContain('here');
  });

  it('flags a link to a page the change request deleted as broken while writing', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'guide');
    await writeAndSelect(page, 'Once upon a time', 'time');
    await openPicker(page);
    await page.keyboard.type('Old');
    await picker(page).getByRole('button', { name: /^Old/ }).click();
    await waitSaved(page);
    const link = editorBox(page).locator('a[data-type="link"]', { hasText: 'time' });
    expect(await link.getAttribute('data-broken')).toBeNull();

    // Deleted from the change request's page tree while the page is open: the link is flagged at once.
    await page.getByRole('button', { name: 'Actions for Old' }).click();
    await page.getByRole('menu', { name: 'Actions for Old' }).getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete “Old”?' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => link.getAttribute('title'), { timeout: 10_000 }).toBe('This page does not exist in this change request');
    expect(await link.getAttribute('data-broken')).toBe('true');
    await waitSaved(page);
    expect((await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}/content`)).body.pages.map((entry: any) => entry.id)).not.toContain(ids.old);

    // Opened again, it still is.
    await page.reload();
    await shown(link);
    await expect.poll(() => link.getAttribute('title'), { timeout: 10_000 }).toBe('This page does not exist in this change request');
    await screenshot(page, 'references/broken-link');
  });

  /** Types `/word` in a new paragraph at the end of the page and chooses the block titled `title` in the slash menu. */
  async function slash(page: Page, word: string, title: string) {
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(`/${word}`);
    const option = page.getByRole('option', { name: new RegExp(`^${title}`) });
    await shown(option);
    await option.click();
  }

  it('mentions a member with @ and writes an emoji with :, shown by name and as the character, beside an icon the page had, drawn', async () => {
    const added = await runCli(['admin', 'add-user', '--org', organizationId, '--email', 'eve@acme.test', '--name', 'Eve Editor', '--role', 'edit', '--json'], harness.env);
    expect(added.code, added.stderr).toBe(0);
    const members = (await api('GET', `/v1/orgs/${organizationId}/members`)).body.items;
    const eve = members.find((member: any) => member.user.displayName === 'Eve Editor').id;

    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'install');
    await editorBox(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Ask @Eve');
    const option = page.getByRole('option', { name: /Eve Editor/ });
    await shown(option);
    await expectAccessible(page);
    await screenshot(page, 'references/mention-list');
    await page.keyboard.press('Enter');
    await page.keyboard.type('about it :tad');
    await shown(page.getByRole('option', { name: /:tada:/ }));
    await screenshot(page, 'references/emoji-list');
    await page.keyboard.press('Enter');
    await waitSaved(page);

    await expect.poll(() => editorBox(page).locator('.quire-mention').textContent()).toBe('@Eve Editor');
    expect(await editorBox(page).getByRole('img', { name: 'tada' }).textContent()).toBe('🎉');
    // GitBook's icon inline, drawn from Font Awesome Free's rocket in the text's colour.
    const icon = editorBox(page).getByRole('img', { name: 'rocket icon' });
    expect(await icon.evaluate((element) => [getComputedStyle(element).getPropertyValue('--icon'), element.getBoundingClientRect().width > 0])).toEqual(['url("/app/icons/rocket.svg")', true]);
    const nodes = (await storedDocument(api, ids.space, number, ids.install)).nodes;
    const inlines = nodes.at(-1).nodes.filter((node: any) => node.object === 'inline');
    expect(inlines.map((node: any) => ({ type: node.type, data: node.data }))).toEqual([
      { type: 'mention', data: { ref: { kind: 'user', user: eve } } },
      { type: 'emoji', data: { code: '1f389' } },
    ]);
  });

  it('adds a page link card from the slash menu, showing the page it leads to', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'install');
    await slash(page, 'page', 'Page link');
    await searchFocused(page);
    await page.keyboard.type('Guide');
    await page.keyboard.press('Enter');
    const card = editorBox(page).locator('.quire-page-link');
    await shown(card);
    expect(await card.textContent()).toContain('Guide');
    await waitSaved(page);
    const block = (await storedDocument(api, ids.space, number, ids.install)).nodes.find((node: any) => node.type === 'content-ref');
    expect(block.data).toEqual({ ref: { kind: 'page', page: ids.guide } });
    await expectAccessible(page);
    await screenshot(page, 'references/page-link');
  });

  it("adds an operation of the organization's OpenAPI spec from the slash menu, showing its method, path and summary", async () => {
    const spec = 'openapi: 3.0.0\ninfo: { title: Pets, version: "1" }\npaths:\n  /pets:\n    get:\n      summary: List the pets\n      responses: { "200": { description: OK } }\n    post:\n      summary: Add a pet\n      responses: { "201": { description: Created } }\n';
    const created = await api('POST', `/v1/orgs/${organizationId}/openapi`, { slug: 'pets', source: { text: spec } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const page = await context.newPage();
    const number = await openEditor(page, ids.space, 'install');
    await slash(page, 'openapi', 'OpenAPI operation');
    await picker(page).getByRole('button', { name: 'pets' }).click();
    await picker(page).getByRole('button', { name: /GET\s*\/pets/ }).click();
    const block = editorBox(page).locator('.quire-openapi-operation');
    await shown(block);
    await expect.poll(() => block.textContent()).toContain('List the pets');
    await waitSaved(page);
    const stored = (await storedDocument(api, ids.space, number, ids.install)).nodes.find((node: any) => node.type === 'openapi-operation');
    expect(stored.data).toEqual({ ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'get' });
    await expectAccessible(page);
    await screenshot(page, 'references/openapi-operation');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'references/openapi-operation-dark');
  });

  describe('with reusable content from Git Sync', () => {
    let git: GitServer;
    beforeAll(async () => {
      git = await startGitServer();
    });
    afterAll(() => git.close());

    it('includes a reusable content of the space from the slash menu, shown as readers see it, edits it where it lives, makes a new one, and deletes one no page includes', async () => {
      git.commit({
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
        'README.md': '# Home\n\nWelcome.\n',
        '.gitbook/includes/support.md': '---\ntitle: Support\n---\n\nStuck? Write to the support team.\n',
      }, 'Includes');
      const space = (await api('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Synced' })).body.id;
      const started = await api('POST', `/v1/spaces/${space}/git/import`, { url: git.url, ref: 'refs/heads/main' });
      expect(started.status, JSON.stringify(started.body)).toBe(204);
      await expect.poll(async () => (await api('GET', `/v1/spaces/${space}/git/info`)).body?.operation?.state, { timeout: 20_000 }).toBe('success');
      const content = (await api('GET', `/v1/spaces/${space}/content`)).body;
      const [support] = content.reusableContents;
      const home = content.pages[0];

      const page = await context.newPage();
      const number = await openEditor(page, space, home.path);
      await slash(page, 'reusable', 'Reusable content');
      await picker(page).getByRole('button', { name: /Support/ }).click();
      const block = editorBox(page).locator('.quire-reusable-content');
      await shown(block);
      await expect.poll(() => block.textContent(), { timeout: 10_000 }).toContain('Stuck? Write to the support team.');
      await waitSaved(page);
      const stored = (await storedDocument(api, space, number, home.id)).nodes.find((node: any) => node.type === 'reusable-content');
      expect(stored.data).toEqual({ ref: { kind: 'reusable-content', reusableContent: support.id } });
      await expectAccessible(page);
      await screenshot(page, 'references/reusable-content');

      // Edit opens it where it lives, in the change request: its blocks and its title.
      const changeRequest = `/v1/spaces/${space}/change-requests/${number}/content/reusable-contents/${support.id}`;
      const texts = async () => JSON.stringify((await api('GET', `${changeRequest}/document`)).body);
      await block.getByRole('link', { name: 'Edit reusable content' }).click();
      await page.waitForURL(new RegExp(`/~reusable/${support.id}\\?edit$`));
      const blocks = page.getByRole('textbox', { name: "Support, the reusable content's blocks" });
      await shown(blocks);
      await blocks.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' Or call us.');
      await waitSaved(page);
      await expect.poll(texts).toContain('Stuck? Write to the support team. Or call us.');
      const title = page.getByLabel('Title of the reusable content');
      await title.fill('Getting help');
      await title.press('Enter');
      await expect.poll(async () => (await api('GET', changeRequest)).body.title).toBe('Getting help');
      await expectAccessible(page);
      await screenshot(page, 'references/reusable-content-editor');
      // The space reads it as it was until the change request is merged.
      expect(JSON.stringify((await api('GET', `/v1/spaces/${space}/content/reusable-contents/${support.id}/document`)).body)).not.toContain('Or call us.');

      // Back on the page, the block shows what was written.
      await page.getByRole('link', { name: '← Back to the page' }).click();
      await shown(block);
      await expect.poll(() => block.textContent(), { timeout: 10_000 }).toContain('Or call us.');
      expect(await block.textContent()).toContain('Reusable content: Getting help');
      // The change request lists it among what it changes, leading to it.
      const listed = page.getByRole('region', { name: 'Changed reusable contents' });
      await expect.poll(() => listed.textContent(), { timeout: 10_000 }).toBe('Changed reusable contentsEdited: Getting help');
      expect(await listed.getByRole('link', { name: 'Getting help' }).getAttribute('href')).toMatch(new RegExp(`/~reusable/${support.id}\\?edit$`));

      // A new one, made from the chooser and included where the cursor is.
      await editorBox(page).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await slash(page, 'reusable', 'Reusable content');
      await picker(page).getByLabel('New reusable content').fill('Warning');
      await picker(page).getByRole('button', { name: 'Make and include' }).click();
      await expect.poll(() => block.count()).toBe(2);
      await waitSaved(page);
      const made = (await api('GET', `/v1/spaces/${space}/change-requests/${number}/content`)).body.reusableContents.find((entry: any) => entry.title === 'Warning');
      expect(made).toBeDefined();
      const includes = (await storedDocument(api, space, number, home.id)).nodes.filter((node: any) => node.type === 'reusable-content');
      expect(includes.map((node: any) => node.data.ref.reusableContent)).toEqual([support.id, made.id]);
      await expect.poll(() => listed.textContent(), { timeout: 10_000 }).toContain('Added: Warning');

      // Deleting: refused, in words, while a page includes it; done once none does.
      await block.nth(1).getByRole('link', { name: 'Edit reusable content' }).click();
      await page.getByRole('button', { name: 'Delete…' }).click();
      const asking = page.getByRole('dialog', { name: 'Delete “Warning”?' });
      await asking.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect.poll(() => asking.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('The reusable content "Warning" is still included by "Home": take its blocks out of those pages first');
      await asking.getByRole('button', { name: 'Cancel' }).click();
      const spare = (await api('POST', `/v1/spaces/${space}/change-requests/${number}/content?compat=false`, { changes: [{ operation: 'insert_reusable_content', title: 'Spare', document: 'Unused.' }] })).body.changes[0].reusableContent.id;
      await page.goto(`/s/${space}/~/changes/${number}/~reusable/${spare}?edit`);
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog', { name: 'Delete “Spare”?' }).getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL(new RegExp(`/changes/${number}/\\?edit$`));
      expect((await api('GET', `/v1/spaces/${space}/change-requests/${number}/content`)).body.reusableContents.map((entry: any) => entry.title).sort()).toEqual(['Getting help', 'Warning']);
    });
  });
});
