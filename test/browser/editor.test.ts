// Writing a page in the app: Edit opens the writer's own change request at the page,
// markdown shortcuts make GitBook's blocks and marks, what is typed is saved into the
// change request (the API gives back exactly that), undo takes back the last typing,
// and a reader is offered no Edit, reads the edit path, and is refused by the API.
import type { BrowserContext, Locator } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { editorBox, leaves, seedSpace, setUpOrganization, waitSaved, type Api } from '../helpers/writing.ts';
import { runCli } from '../helpers/process.ts';

describeInBrowser('writing a page', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let organizationId: string;
  let api: Api;
  const ids = { space: '', page: '' };

  beforeAll(async () => {
    ({ context, organizationId, api } = await setUpOrganization(harness));
    const seeded = await seedSpace(api, organizationId, 'Handbook', ['# Guide\n\nWelcome to the handbook.']);
    ids.space = seeded.space;
    ids.page = seeded.pages[0];
  }, 60_000);

  const shown = (locator: Locator) => expect.poll(() => locator.isVisible(), { timeout: 10_000 }).toBe(true);
  const editor = editorBox;
  const saved = waitSaved;

  it('lets a writer open Edit, write a heading and a bold word with markdown shortcuts that are saved into their change request, find every word after a reload, and undo the last typing', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    await page.goto(`/s/${ids.space}/`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search, { timeout: 10_000 }).toMatch(/^\/s\/[^/]+\/~\/changes\/\d+\/guide\?edit$/);
    const number = /changes\/(\d+)\//.exec(page.url())![1];
    await shown(editor(page));

    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('## Next steps');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Run it **now** today.');
    await saved(page);

    // The change request holds exactly what was typed, as GitBook's blocks and marks.
    const stored = await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}/content/page/${ids.page}?format=document`);
    expect(stored.status).toBe(200);
    const nodes = stored.body.document.nodes;
    expect(nodes.map((node: any) => node.type)).toEqual(['paragraph', 'heading-2', 'paragraph']);
    expect(leaves(nodes[0])).toEqual([{ text: 'Welcome to the handbook.', marks: [] }]);
    expect(leaves(nodes[1])).toEqual([{ text: 'Next steps', marks: [] }]);
    expect(leaves(nodes[2])).toEqual([
      { text: 'Run it ', marks: [] },
      { text: 'now', marks: ['bold'] },
      { text: ' today.', marks: [] },
    ]);

    // Opened again and left unedited, the page is not written: the change request keeps its revision.
    const revision = (await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}`)).body.revision;
    await page.reload();
    await shown(editor(page));
    await expect.poll(() => editor(page).textContent()).toBe('Welcome to the handbook.Next stepsRun it now today.');
    expect(await editor(page).locator('h2').textContent()).toBe('Next steps');
    expect(await editor(page).locator('[data-mark="bold"]').textContent()).toBe('now');
    await page.waitForTimeout(1500);
    expect((await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}`)).body.revision).toBe(revision);

    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Then rest.');
    await saved(page);
    await page.waitForTimeout(600);
    await page.keyboard.press('Control+z');
    await expect.poll(() => editor(page).textContent()).toBe('Welcome to the handbook.Next stepsRun it now today.');
    await saved(page);
    const undone = await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}/content/page/${ids.page}?format=document`);
    expect(leaves(undone.body.document.nodes[2]).map((leaf: { text: string }) => leaf.text).join('')).toBe('Run it now today.');

    await expectAccessible(page);
    await screenshot(page, 'editor');
    policyKept();
  });

  it('turns -, 1., >, ``` and --- into a list, a numbered list, a quote, code and a divider', async () => {
    const page = await context.newPage();
    await page.goto(`/s/${ids.space}/guide`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await shown(editor(page));
    const number = /changes\/(\d+)\//.exec(page.url())![1];
    await editor(page).click();
    await page.keyboard.press('Control+End');
    // Enter on an empty item or quoted line leaves the list or quote.
    await page.keyboard.press('Enter');
    for (const line of ['- one', '1. first', '> quoted']) {
      await page.keyboard.type(line);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
    }
    await page.keyboard.type('---');
    await page.keyboard.type('``` let x = 1;');
    await saved(page);
    const nodes = (await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}/content/page/${ids.page}?format=document`)).body.document.nodes;
    expect(nodes.slice(3).map((node: any) => node.type)).toEqual(['list-unordered', 'list-ordered', 'blockquote', 'divider', 'code']);
    expect(leaves(nodes[3].nodes[0].nodes[0])).toEqual([{ text: 'one', marks: [] }]);
    expect(nodes[7].nodes.map((line: any) => leaves(line))).toEqual([[{ text: 'let x = 1;', marks: [] }]]);
  });

  it('sends what was typed when the tab closes before the save was due', async () => {
    const page = await context.newPage();
    await page.goto(`/s/${ids.space}/guide`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await shown(editor(page));
    const number = /changes\/(\d+)\//.exec(page.url())![1];
    await editor(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Last words.');
    // Closed at once, as a person who confirms leaving: the keepalive request outlives the page.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.close({ runBeforeUnload: true });
    await expect
      .poll(async () => {
        const nodes = (await api('GET', `/v1/spaces/${ids.space}/change-requests/${number}/content/page/${ids.page}?format=document`)).body.document.nodes;
        return JSON.stringify(nodes).includes('Last words.');
      }, { timeout: 10_000 })
      .toBe(true);
  });

  it("opens another writer's change request read-only, saying whose it is, and their own Edit makes them one of their own", async () => {
    const added = await runCli(['admin', 'add-user', '--org', organizationId, '--email', 'eve@acme.test', '--name', 'Eve Editor', '--role', 'edit', '--json'], harness.env);
    expect(added.code, added.stderr).toBe(0);
    const link = await runCli(['admin', 'sign-in-link', '--email', 'eve@acme.test', '--json'], harness.env);
    const writer = await harness.newContext();
    expect((await writer.request.post('/auth/sign-in-link', { data: { token: JSON.parse(link.stdout).url.split('/').pop() } })).status()).toBe(200);
    const ada = (await api('POST', `/v1/spaces/${ids.space}/change-requests`, { subject: 'Ada’s draft' })).body.number;

    const page = await writer.newPage();
    await page.goto(`/s/${ids.space}/~/changes/${ada}/guide?edit`);
    await shown(page.getByText(/This is Ada Admin’s change request: only they write in it/));
    expect(await editor(page).count()).toBe(0);

    await page.goto(`/s/${ids.space}/guide`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await shown(editor(page));
    const own = Number(/changes\/(\d+)\//.exec(page.url())![1]);
    expect(own).not.toBe(ada);
    expect((await api('GET', `/v1/spaces/${ids.space}/change-requests/${own}`)).body.createdBy.displayName).toBe('Eve Editor');
  });

  it('offers a reader no Edit, shows them the edit path read-only with who may write, and the API refuses their write', async () => {
    const added = await runCli(['admin', 'add-user', '--org', organizationId, '--email', 'rita@acme.test', '--name', 'Rita Reader', '--role', 'read', '--json'], harness.env);
    expect(added.code, added.stderr).toBe(0);
    const link = await runCli(['admin', 'sign-in-link', '--email', 'rita@acme.test', '--json'], harness.env);
    const reader = await harness.newContext();
    expect((await reader.request.post('/auth/sign-in-link', { data: { token: JSON.parse(link.stdout).url.split('/').pop() } })).status()).toBe(200);
    const number = (await api('POST', `/v1/spaces/${ids.space}/change-requests`, { subject: 'Ada writes' })).body.number;

    const page = await reader.newPage();
    await page.goto(`/s/${ids.space}/guide`);
    await shown(page.getByRole('heading', { level: 1, name: 'Guide' }));
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);

    await page.goto(`/s/${ids.space}/~/changes/${number}/guide?edit`);
    await shown(page.getByText(/Only the space’s editors .* may write in it/));
    expect(await editor(page).count()).toBe(0);
    await shown(page.getByRole('article', { name: 'Guide' }));
    await expectAccessible(page);
    await screenshot(page, 'editor-reader');

    const write = await callAsSession(reader, 'POST', `/v1/spaces/${ids.space}/change-requests/${number}/content`, {
      changes: [{ operation: 'update_page', page: ids.page, document: { markdown: 'Mine now.' } }],
    });
    expect(write.status).toBe(403);
  });
});
