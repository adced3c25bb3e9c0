// Finding and reading in the app, as people do it: browsing an organization down to a
// page whose blocks render as on the published site, looking after spaces, what a
// reader is not offered (and the API refuses them), search with Ctrl-K, change requests,
// and another organization's space, which does not exist for them here as in the API.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { runCli } from '../helpers/process.ts';

const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

const GUIDE = [
  '# Getting started',
  '',
  'Welcome to the **handbook**. See [Install](install.md).',
  '',
  '{% hint style="warning" %}',
  'Back up your data first.',
  '{% endhint %}',
  '',
  '## Configure',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  '| Setting | Default |',
  '|---|---|',
  '| port | 8080 |',
  '',
  '$$',
  'E = mc^2',
  '$$',
].join('\n');

describeInBrowser('finding and reading', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let organizationId: string;
  let token: string;
  const ids: { collection: string; space: string; guide: string } = { collection: '', space: '', guide: '' };

  /** The API as the administrator, with a token as a script would. */
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${harness.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  /** A space in a collection with a page of several block kinds and a page below it, merged through a change request; and an open draft change request. */
  beforeAll(async () => {
    context = await harness.newContext();
    const setup = await context.request.post('/auth/setup', { data: admin });
    expect(setup.status()).toBe(201);
    organizationId = (await setup.json()).organization.id;
    token = (await callAsSession(context, 'POST', '/v1/user/tokens', { label: 'seed', scope: 'write' })).body.token;
    ids.collection = (await api('POST', `/v1/orgs/${organizationId}/collections`, { title: 'Guides' })).body.id;
    ids.space = (await api('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook', parent: ids.collection })).body.id;
    const seed = (await api('POST', `/v1/spaces/${ids.space}/change-requests`, { subject: 'First pages' })).body;
    const edited = await api('POST', `/v1/spaces/${ids.space}/change-requests/${seed.id}/content`, {
      changes: [
        { operation: 'insert_page', ref: 'guide', document: { markdown: GUIDE } },
        { operation: 'insert_page', into: 'guide', document: '# Install\n\nInstall it with npm.\n\n## Requirements\n\nNode 20 or later.' },
      ],
    });
    expect(edited.status).toBe(200);
    expect((await api('POST', `/v1/spaces/${ids.space}/change-requests/${seed.id}/merge`)).status).toBe(200);
    ids.guide = (await api('GET', `/v1/spaces/${ids.space}/content`)).body.pages[0].id;
    const draft = (await api('POST', `/v1/spaces/${ids.space}/change-requests`, { subject: 'Explain upgrades' })).body;
    await api('POST', `/v1/spaces/${ids.space}/change-requests/${draft.id}/content`, { changes: [{ operation: 'insert_page', document: '# Upgrading\n\nRead the release notes.' }] });
  }, 60_000);

  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
  /** Waits for what a screen shows once its code and answers have come (the first screens load their chunks). */
  const shown = (locator: Locator) => expect.poll(() => locator.isVisible(), { timeout: 10_000 }).toBe(true);

  it('browses the organization to a collection, a space and a page whose hint, code, table and maths render as on the published site, and a deep link survives a reload', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    await page.goto(`/o/${organizationId}/`);
    await shown(page.getByRole('link', { name: 'Guides' }));
    await expectAccessible(page);
    await screenshot(page, 'read-organization');
    await page.getByRole('link', { name: 'Guides' }).click();
    await page.waitForURL(`**/o/${organizationId}/c/${ids.collection}/`);
    await shown(heading(page, 'Guides'));
    await expectAccessible(page);
    await screenshot(page, 'read-collection');
    await page.getByRole('link', { name: 'Handbook' }).click();
    // A space opens at its first page.
    await page.waitForURL(`**/s/${ids.space}/getting-started`);
    const article = page.getByRole('article', { name: 'Getting started' });
    await expect.poll(() => article.locator('.hint-warning').textContent(), { timeout: 10_000 }).toContain('Back up your data first.');
    expect(await article.locator('pre code .hljs-keyword').first().textContent()).toBe('const');
    expect(await article.getByRole('table').locator('td').allTextContents()).toEqual(['port', '8080']);
    expect(await article.locator('math annotation').textContent()).toBe('E = mc^2');
    // The reader's colours, scoped to the page: the hint's border is the warning's.
    expect(await article.locator('.hint-warning').evaluate((hint) => getComputedStyle(hint).borderLeftColor)).toBe('rgb(178, 106, 0)');
    await expectAccessible(page);
    await screenshot(page, 'read-page');
    // In the dark scheme the page takes the reader's dark colours, still AA.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => article.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(230, 233, 239)');
    await expectAccessible(page);
    await screenshot(page, 'read-page-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    // A link to another page of the space stays in the app; the tree opens to it.
    await article.getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(`**/s/${ids.space}/getting-started/install`);
    await shown(heading(page, 'Install'));
    expect(await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Install' }).getAttribute('aria-current')).toBe('page');
    await page.reload();
    await expect.poll(() => page.getByRole('article', { name: 'Install' }).textContent(), { timeout: 10_000 }).toContain('Install it with npm.');
    // The tree by keyboard: arrow keys move along its rows, Enter opens one.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Install' }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Getting started');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/s/${ids.space}/getting-started`);
    policyKept();
  });

  it('reads a past revision as it was, marked read-only, its links staying in that revision', async () => {
    const { revision } = (await api('GET', `/v1/spaces/${ids.space}`)).body;
    const page = await context.newPage();
    await page.goto(`/s/${ids.space}/~/revisions/${revision}/`);
    await page.waitForURL(`**/s/${ids.space}/~/revisions/${revision}/getting-started`);
    await shown(page.getByText('Read only', { exact: true }));
    const article = page.getByRole('article', { name: 'Getting started' });
    await article.getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(`**/s/${ids.space}/~/revisions/${revision}/getting-started/install`);
    await shown(heading(page, 'Install'));
    await expectAccessible(page);
    await screenshot(page, 'read-revision');
  });

  it('puts the page tree in a drawer at phone width', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/s/${ids.space}/getting-started`);
    await shown(heading(page, 'Getting started'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Pages of this space' }).click();
    const drawer = page.getByRole('dialog', { name: 'Handbook' });
    await drawer.getByRole('button', { name: 'Open Getting started' }).click();
    await drawer.getByRole('link', { name: 'Install' }).click();
    await page.waitForURL(`**/s/${ids.space}/getting-started/install`);
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await expectAccessible(page);
  });

  it('lets an administrator create, rename, delete and restore a space from the organization home', async () => {
    const page = await context.newPage();
    await page.goto(`/o/${organizationId}/`);
    await page.getByRole('button', { name: 'New space' }).click();
    await page.getByRole('dialog', { name: 'New space' }).getByLabel('Title').fill('Runbooks');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create space' }).click();
    const tree = page.getByRole('navigation', { name: 'Collections and spaces' });
    await shown(tree.getByRole('link', { name: 'Runbooks' }));
    await page.getByRole('button', { name: 'Actions for Runbooks' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByLabel('Title').fill('Operations');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await shown(tree.getByRole('link', { name: 'Operations' }));
    await page.getByRole('button', { name: 'Actions for Operations' }).click();
    await expectAccessible(page);
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete space' }).click();
    await shown(page.getByRole('status').filter({ hasText: 'It stays in the trash for 7 days' }));
    await expect.poll(() => tree.getByRole('link', { name: 'Operations' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'read-space-deleted');
    await page.getByRole('button', { name: 'Restore Operations' }).click();
    await shown(tree.getByRole('link', { name: 'Operations' }));
    const listed = (await api('GET', `/v1/orgs/${organizationId}/spaces`)).body.items.map((space: { title: string }) => space.title);
    expect(listed).toContain('Operations');
    // A new space says what to do next.
    await tree.getByRole('link', { name: 'Operations' }).click();
    await shown(page.getByText('This space has no pages yet'));
    await expectAccessible(page);
    await screenshot(page, 'read-space-empty');
  });

  it('offers a reader no create, rename or delete controls, and the API refuses their writes', async () => {
    const added = await runCli(['admin', 'add-user', '--org', organizationId, '--email', 'rita@acme.test', '--name', 'Rita Reader', '--role', 'read', '--json'], harness.env);
    expect(added.code, added.stderr).toBe(0);
    const link = await runCli(['admin', 'sign-in-link', '--email', 'rita@acme.test', '--json'], harness.env);
    const reader = await harness.newContext();
    const signIn = await reader.request.post('/auth/sign-in-link', { data: { token: JSON.parse(link.stdout).url.split('/').pop() } });
    expect(signIn.status()).toBe(200);
    const page = await reader.newPage();
    await page.goto(`/o/${organizationId}/c/${ids.collection}/`);
    await shown(page.getByRole('link', { name: 'Handbook' }));
    expect(await page.getByRole('button', { name: /New space|New collection|Actions for/ }).count()).toBe(0);
    await page.goto(`/o/${organizationId}/`);
    await shown(page.getByRole('link', { name: 'Guides' }));
    expect(await page.getByRole('button', { name: /New space|New collection|Actions for/ }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'read-organization-reader');
    expect((await callAsSession(reader, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Mine' })).status).toBe(403);
    expect((await callAsSession(reader, 'PATCH', `/v1/spaces/${ids.space}`, { title: 'Renamed' })).status).toBe(403);
    expect((await callAsSession(reader, 'DELETE', `/v1/spaces/${ids.space}`)).status).toBe(403);
  });

  it('searches with Ctrl-K and opens a section hit at its anchor', async () => {
    const page = await context.newPage();
    await page.goto(`/o/${organizationId}/`);
    await shown(page.getByRole('link', { name: 'Guides' }));
    await page.keyboard.press('Control+k');
    const search = page.getByRole('textbox', { name: 'Search all spaces' });
    await shown(search);
    await search.fill('requirements');
    const hit = page.getByRole('button', { name: /Install › Requirements/ });
    await shown(hit);
    await expectAccessible(page);
    await screenshot(page, 'read-search');
    await page.keyboard.press('ArrowDown');
    while (!(await hit.getAttribute('data-selected'))) await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('dialog', { name: 'Search' }).count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/s/${ids.space}/getting-started/install#requirements`);
    await shown(page.locator('#requirements'));
    // Inside a space, the same keys search that space. The search fades out for 200 ms with
    // its box still focused, and a shortcut typed into a box is text, so wait until it is gone.
    await expect.poll(() => page.getByRole('dialog', { name: 'Search' }).count()).toBe(0);
    await page.keyboard.press('Control+k');
    await shown(page.getByRole('textbox', { name: 'Search this space' }));
    await page.getByRole('textbox', { name: 'Search this space' }).fill('npm');
    await shown(page.getByRole('button', { name: /^Install/ }));
    await page.getByRole('textbox', { name: 'Search this space' }).fill('zebra');
    await shown(page.getByText('Nothing found for “zebra”. Try other or fewer words.'));
  });

  it('lists change requests by status and shows one read-only with the pages it changes', async () => {
    const page = await context.newPage();
    await page.goto(`/s/${ids.space}/~/changes/`);
    const list = page.getByRole('list', { name: 'Open change requests' });
    await shown(list.getByRole('link', { name: '#2 Explain upgrades' }));
    await expectAccessible(page);
    await screenshot(page, 'read-change-requests');
    await page.locator('label', { hasText: 'Merged' }).click();
    await page.waitForURL('**/~/changes/?status=merged');
    await page.getByRole('link', { name: '#1 First pages' }).click();
    await page.waitForURL(`**/s/${ids.space}/~/changes/1/`);
    await shown(heading(page, '#1 First pages'));
    expect(await page.getByText('Merged', { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByText(/Reviewing, commenting and merging in the app come in a later version/).isVisible()).toBe(true);
    // The PDF export says while it is prepared, then gives its link.
    await page.getByRole('button', { name: 'Export as PDF' }).click();
    const pdfLink = page.getByRole('link', { name: 'open the PDF of #1' });
    await shown(pdfLink);
    const pdf = await context.request.get((await pdfLink.getAttribute('href'))!);
    expect([pdf.status(), pdf.headers()['content-type']]).toEqual([200, 'application/pdf']);
    await page.getByRole('link', { name: 'Getting started' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Getting started' }).textContent(), { timeout: 10_000 }).toContain('Back up your data first.');
    await expectAccessible(page);
    await screenshot(page, 'read-change-request');
  });

  it("shows another organization's space, collection and organization as not existing, with none of their data, as the API answers 404", async () => {
    const other = await runCli(['admin', 'bootstrap', '--org', 'Globex', '--email', 'gil@globex.test', '--name', 'Gil', '--json'], harness.env);
    expect(other.code, other.stderr).toBe(0);
    const otherToken = JSON.parse(other.stdout).token;
    const otherOrganization = JSON.parse(other.stdout).organization.id;
    const created = await fetch(`${harness.baseUrl}/v1/orgs/${otherOrganization}/spaces`, { method: 'POST', headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Globex secrets' }) });
    const secret = await created.json();
    const page = await context.newPage();
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes(`/v1/spaces/${secret.id}`)) answers.push(response.status());
    });
    await page.goto(`/s/${secret.id}/`);
    await shown(heading(page, 'This space does not exist, or you do not have access to it'));
    expect(await page.content()).not.toContain('Globex secrets');
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((status) => status === 404)).toBe(true);
    expect((await callAsSession(context, 'GET', `/v1/spaces/${secret.id}`)).status).toBe(404);
    await expectAccessible(page);
    await screenshot(page, 'read-space-not-found');
    // The organization and its collections are as closed.
    const otherCollection = await fetch(`${harness.baseUrl}/v1/orgs/${otherOrganization}/collections`, { method: 'POST', headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Globex plans' }) });
    await page.goto(`/o/${otherOrganization}/c/${(await otherCollection.json()).id}/`);
    await shown(heading(page, 'This collection does not exist, or you do not have access to it'));
    await page.goto(`/o/${otherOrganization}/`);
    await shown(heading(page, 'This organization does not exist, or you do not have access to it'));
    expect(await page.content()).not.toMatch(/Globex/);
  });
});
