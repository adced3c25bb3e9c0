// Administering an organization in the app, as people do it: inviting a teammate with a
// link from the members screen, who joins in a browser of their own; changing a role;
// making a site of a space, publishing it from the app and opening it; and what a
// reader sees of all this: no administration screen, and the API refusing their writes.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { startGitServer } from '../helpers/gitServer.ts';

const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };
const teammate = { name: 'Grace Reader', email: 'grace@acme.test', password: 'another good password' };

async function heading(page: Page, name: string | RegExp, level = 1) {
  await expect.poll(() => page.getByRole('heading', { level, name }).isVisible(), { timeout: 10_000 }).toBe(true);
}

describeInBrowser('administering in the app', () => {
  // The git repository of the Git Sync journey is served on 127.0.0.1.
  const harness = useBrowser({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
  let adminContext: BrowserContext;
  let teammateContext: BrowserContext;
  let organizationId: string;

  beforeAll(async () => {
    adminContext = await harness.newContext();
    const setup = await adminContext.request.post('/auth/setup', { data: admin });
    expect(setup.status()).toBe(201);
    organizationId = (await setup.json()).organization.id;
  });

  it('invites a teammate with a link made on the members screen, who joins from it in a browser of their own', async () => {
    const page = await adminContext.newPage();
    const policyKept = watchPolicy(page);
    await page.goto(`/o/${organizationId}/`);
    await page.getByRole('button', { name: `Organization: ${admin.organization}. Switch organization` }).click();
    await page.getByRole('menuitem', { name: 'Members' }).click();
    await heading(page, 'Members');
    await expect.poll(() => page.getByText(admin.email).isVisible()).toBe(true);
    await page.getByRole('combobox', { name: 'Role of who joins' }).selectOption('read');
    await page.getByLabel('Expires').selectOption('7');
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = page.getByRole('textbox', { name: 'Invite link (Reader)' });
    await expect.poll(() => link.isVisible()).toBe(true);
    await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.baseUrl });
    await page.getByRole('button', { name: 'Copy the invite link (Reader)' }).click();
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toBe(await link.inputValue());
    expect(url).toMatch(new RegExp(`^${harness.baseUrl}/invite/${organizationId}/`));
    await expectAccessible(page);
    await screenshot(page, 'members');

    teammateContext = await harness.newContext();
    const joining = await teammateContext.newPage();
    await joining.goto(url);
    await heading(joining, `Join ${admin.organization}`);
    await joining.getByLabel('Name').fill(teammate.name);
    await joining.getByLabel('Email').fill(teammate.email);
    await joining.getByLabel('Password').fill(teammate.password);
    await joining.getByRole('button', { name: 'Join', exact: true }).click();
    await joining.waitForURL(`**/o/${organizationId}/`);

    await page.reload();
    await expect.poll(() => page.getByText(teammate.email).isVisible()).toBe(true);
    expect(await page.getByLabel(`Role of ${teammate.name}`).inputValue()).toBe('read');
    policyKept();
  });

  it('shows a reader no administration screen, only a sentence saying who may, and the API refuses their writes', async () => {
    const page = await teammateContext.newPage();
    await page.goto(`/o/${organizationId}/`);
    await page.getByRole('button', { name: `Organization: ${admin.organization}. Switch organization` }).click();
    await expect.poll(() => page.getByRole('menuitem', { name: admin.organization }).isVisible()).toBe(true);
    expect(await page.getByRole('menuitem', { name: 'Members' }).count()).toBe(0);
    for (const [path, title] of [
      ['members', 'Members'],
      ['teams', 'Teams'],
      ['sites', 'Sites'],
      ['settings', 'Organization settings'],
    ] as const) {
      await page.goto(`/o/${organizationId}/${path}`);
      await heading(page, title);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('You need to be an administrator');
      expect(await page.content()).not.toContain(admin.email);
    }
    await expectAccessible(page);
    await screenshot(page, 'admin-refused');
    const space = await callAsSession(adminContext, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Readable' });
    await page.goto(`/s/${space.body.id}/~/settings`);
    await heading(page, 'Space settings');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('You need to be an administrator of this space, or able to edit it');
    expect((await callAsSession(teammateContext, 'POST', `/v1/spaces/${space.body.id}/git/import`, { url: 'https://example.com/docs.git' })).status).toBe(403);
    expect((await callAsSession(teammateContext, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Not mine' })).status).toBe(403);
    expect((await callAsSession(teammateContext, 'POST', `/v1/orgs/${organizationId}/link-invites`, { role: 'admin' })).status).toBe(403);
  });

  it("changes a member's role from the members screen", async () => {
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/members`);
    await page.getByLabel(`Role of ${teammate.name}`).selectOption('edit');
    await expect.poll(async () => {
      const members = await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/members`);
      return members.body.items.find((member: { user: { email: string } }) => member.user.email === teammate.email)?.role;
    }).toBe('edit');
    await page.reload();
    await expect.poll(() => page.getByLabel(`Role of ${teammate.name}`).inputValue()).toBe('edit');
  });

  it('creates a site, adds a space, publishes it from the app, and the published site opens for anyone', async () => {
    const space = await callAsSession(adminContext, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    expect(space.status).toBe(201);
    const draft = await callAsSession(adminContext, 'POST', `/v1/spaces/${space.body.id}/change-requests`, {});
    const edited = await callAsSession(adminContext, 'POST', `/v1/spaces/${space.body.id}/change-requests/${draft.body.id}/content`, {
      changes: [{ operation: 'insert_page', document: '# Welcome\n\nHow Acme works.' }],
    });
    expect(edited.status).toBe(200);
    expect((await callAsSession(adminContext, 'POST', `/v1/spaces/${space.body.id}/change-requests/${draft.body.id}/merge`)).status).toBe(200);
    const page = await adminContext.newPage();
    const policyKept = watchPolicy(page);
    await page.goto(`/o/${organizationId}/sites`);
    await heading(page, 'Sites');
    await page.getByLabel('Site title').fill('Acme Help');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(new RegExp(`/o/${organizationId}/sites/[^/]+/$`));
    await heading(page, 'Acme Help');
    await page.getByLabel('Space to add').selectOption({ label: 'Handbook' });
    await page.getByRole('button', { name: 'Add space' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Path of Handbook' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'site');
    // A site space's path, under which it is read when it is a variant.
    await page.getByRole('textbox', { name: 'Path of Handbook' }).fill('handbook-v2');
    await page.getByRole('button', { name: 'Save the path of Handbook' }).click();
    const siteId = new URL(page.url()).pathname.split('/')[4];
    await expect.poll(async () => (await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/sites/${siteId}/site-spaces`)).body.items.map((siteSpace: { path: string }) => siteSpace.path)).toEqual(['handbook-v2']);

    await page.getByLabel('Section title').fill('Guides');
    await page.getByLabel('Starting with the space').selectOption({ label: 'Handbook' });
    await page.getByRole('button', { name: 'Add section' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Delete the section Guides' }).isVisible()).toBe(true);
    await page.getByLabel('Group title').fill('Learn');
    await page.getByRole('checkbox', { name: 'Guides' }).check();
    await page.getByRole('button', { name: 'Add group' }).click();
    await expect.poll(() => page.getByText(/Learn\s+· Guides/).isVisible()).toBe(true);
    const structure = await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/sites/${page.url().split('/sites/')[1].replace('/', '')}/section-groups`);
    expect(structure.body.items.map((group: { title: string; sections: Array<{ title: string }> }) => [group.title, group.sections.map((section) => section.title)])).toEqual([['Learn', ['Guides']]]);
    await page.getByRole('button', { name: 'Delete the section group Learn' }).click();
    await page.getByRole('button', { name: 'Delete group' }).click();
    await page.getByRole('button', { name: 'Delete the section Guides' }).click();
    await page.getByRole('button', { name: 'Delete section' }).click();
    // The site's first section gathered the space it had already into a section of the site's own.
    await expect.poll(() => page.getByRole('button', { name: 'Delete the section Guides' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const published = page.getByRole('status').getByRole('link');
    await expect.poll(() => published.isVisible()).toBe(true);
    const publishedUrl = await published.getAttribute('href');
    expect(publishedUrl).toMatch(new RegExp(`^${harness.baseUrl}/sites/`));

    await page.getByRole('tab', { name: 'Visibility' }).click();
    await heading(page, 'Who can read it', 2);
    await expectAccessible(page);
    await screenshot(page, 'site-visibility');
    await page.getByRole('tab', { name: 'Customization' }).click();
    await page.getByRole('switch', { name: 'Show an announcement' }).focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Announcement', { exact: true }).fill('Version 2 is out');
    // The preview shows what is on the form before it is saved: the announcement, the main colour and the corners.
    const preview = page.frameLocator('iframe[title="Preview of Acme Help"]');
    await expect.poll(() => preview.getByRole('region', { name: 'Announcement' }).textContent()).toBe('Version 2 is out');
    await page.getByLabel('Main colour (light)').fill('#0b6e4f');
    await page.getByLabel('Corners').selectOption('straight');
    const rootStyle = (name: string) => preview.locator('html').evaluate((root, property) => getComputedStyle(root).getPropertyValue(property).trim(), name);
    await expect.poll(() => rootStyle('--accent')).toBe('#0b6e4f');
    await expect.poll(() => rootStyle('--radius')).toBe('0');
    await expect.poll(() => page.getByText(/it shows your changes as you make them/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Save customization' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).isVisible()).toBe(true);
    await expect.poll(() => preview.getByText('Version 2 is out').isVisible()).toBe(true);
    await expect.poll(() => rootStyle('--accent')).toBe('#0b6e4f');
    // Playwright's network-idle wait can miss a frame replaced after the page loaded: axe runs on the screen loaded afresh.
    await page.reload();
    await page.getByRole('tab', { name: 'Customization' }).click();
    await expect.poll(() => page.frameLocator('iframe[title="Preview of Acme Help"]').getByText('Version 2 is out').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'site-customization');
    await page.getByRole('tab', { name: 'Content' }).click();
    await page.getByRole('button', { name: 'Switch to the dark theme' }).click();
    await expectAccessible(page);
    await screenshot(page, 'site-dark');
    await page.getByRole('button', { name: 'Switch to the light theme' }).click();
    policyKept();

    const reader = await (await harness.newContext()).newPage();
    const answer = await reader.goto(publishedUrl!);
    expect(answer?.status()).toBe(200);
    await expect.poll(() => reader.content()).toContain('How Acme works.');
  });

  it('gathers members in a team on the teams screen', async () => {
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/teams`);
    await heading(page, 'Teams');
    await page.getByLabel('Team name').fill('Writers');
    await page.getByRole('button', { name: 'Create team' }).click();
    await heading(page, /^Writers/, 2);
    await page.getByLabel('Add to Writers').selectOption({ label: teammate.name });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.getByLabel(`Team role of ${teammate.name}`).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'teams');
  });

  it('shows the organization settings, an OpenAPI specification and the integrations', async () => {
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/settings`);
    await heading(page, 'Organization settings');
    // The organization's own settings, changed and changed back.
    for (const title of ['Acme Documentation', 'Acme Docs']) {
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(title);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => (await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}`)).body.title).toBe(title);
    }
    await page.getByLabel('Field name').fill('owner');
    await page.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Delete the custom field owner' }).isVisible()).toBe(true);
    await page.getByLabel('Specification name').fill('payments-api');
    await page.getByLabel('Or paste it (YAML or JSON)').fill('openapi: 3.0.0\ninfo: { title: Payments, version: "1" }\npaths: {}\n');
    await page.getByRole('button', { name: 'Add specification' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'payments-api' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'settings');
    await page.getByRole('link', { name: 'payments-api' }).click();
    await heading(page, 'payments-api');
    await expectAccessible(page);
    await screenshot(page, 'openapi-spec');
    await page.getByRole('button', { name: 'Delete the specification payments-api' }).click();
    await page.getByRole('button', { name: 'Delete specification' }).click();
    await heading(page, 'Organization settings');
    expect((await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/openapi`)).body.items).toEqual([]);

    await page.goto(`/o/${organizationId}/integrations`);
    await heading(page, 'Integrations');
    await expect.poll(() => page.getByText('Nothing is installed in this organization yet.').isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'integrations');

  });

  it("imports a space from a git repository on its settings screen, following the import until it ends, exports it back, and says in words why a repository refused", async () => {
    const gitServer = await startGitServer();
    try {
      gitServer.commit({ 'README.md': '# Welcome\n\nImported from git.\n' });
      const space = await callAsSession(adminContext, 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Synced docs' });
      const page = await adminContext.newPage();
      await page.goto(`/s/${space.body.id}/~/settings`);
      await heading(page, 'Space settings');
      await page.getByLabel('Repository URL').fill(gitServer.bareUrl);
      await page.getByRole('button', { name: 'Import from the repository' }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toMatch(/\w/);
      expect(await page.getByRole('alert').first().textContent()).not.toMatch(/[{}]/);
      await expectAccessible(page);
      await screenshot(page, 'space-settings-failed');

      await page.getByLabel('Repository URL').fill(gitServer.url);
      await page.getByRole('button', { name: 'Import from the repository' }).click();
      await expect.poll(() => page.getByText(/Last import succeeded/).isVisible(), { timeout: 30_000 }).toBe(true);
      const pages = await callAsSession(adminContext, 'GET', `/v1/spaces/${space.body.id}/content`);
      expect(JSON.stringify(pages.body)).toContain('Welcome');

      await page.getByLabel('Commit message').fill('Docs from Quire');
      await page.getByRole('button', { name: 'Export to the repository' }).click();
      await expect.poll(() => page.getByText(/Last export succeeded/).isVisible(), { timeout: 30_000 }).toBe(true);
      expect(gitServer.log()[0].subject).toBe('Docs from Quire');
      await expectAccessible(page);
      await screenshot(page, 'space-settings');
    } finally {
      await gitServer.close();
    }
  });

  it('deletes a site from its screen, after asking, and the API no longer has it', async () => {
    const site = await callAsSession(adminContext, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Old help' });
    expect(site.status).toBe(201);
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/sites/${site.body.id}/`);
    await heading(page, 'Old help');
    await page.getByRole('button', { name: 'Delete the site Old help' }).click();
    await page.getByRole('button', { name: 'Delete site' }).click();
    await page.waitForURL(new RegExp(`/o/${organizationId}/sites$`));
    await heading(page, 'Sites');
    await expect.poll(() => page.getByRole('link', { name: 'Old help' }).count()).toBe(0);
    expect((await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/sites/${site.body.id}`)).status).toBe(404);
  });

  it('closes a site to share-link holders: a link made on the site screen opens it, its address alone does not', async () => {
    const sites = await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/sites`);
    const site = sites.body.items.find((candidate: { title: string }) => candidate.title === 'Acme Help');
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/sites/${site.id}/`);
    await page.getByRole('tab', { name: 'Visibility' }).click();
    await page.getByRole('radio', { name: 'Share links' }).click();
    await expect.poll(() => page.getByRole('radio', { name: 'Share links' }).isChecked()).toBe(true);
    await page.getByLabel('Who the link is for').fill('Partners');
    await page.getByRole('button', { name: 'Create share link' }).click();
    const link = page.getByRole('textbox', { name: 'Share link for Partners' });
    await expect.poll(() => link.isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'site-share-links');
    const reader = await (await harness.newContext()).newPage();
    expect((await reader.goto(site.urls.published))?.status()).not.toBe(200);
    expect((await reader.goto(await link.inputValue()))?.status()).toBe(200);
    await expect.poll(() => reader.content()).toContain('How Acme works.');
    await page.getByRole('button', { name: 'Revoke the share link for Partners' }).click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => link.count()).toBe(0);

    await page.getByRole('radio', { name: 'Visitor authentication' }).click();
    const key = page.getByLabel('Signing key');
    await expect.poll(() => key.isVisible()).toBe(true);
    const auth = await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/sites/${site.id}/publishing/auth`);
    expect(await key.inputValue()).toBe(auth.body.privateKey);
    expect(await key.getAttribute('type')).toBe('password');
    await expectAccessible(page);
    await screenshot(page, 'site-visitor-auth');
  });

  it('installs an integration from its page, sets its required setting, and uninstalls it', async () => {
    const published = await callAsSession(adminContext, 'POST', '/v1/integrations/reader-stats', {
      organization: organizationId,
      title: 'Reader stats',
      description: 'Counts the readers of your docs',
      visibility: 'private',
      scopes: [],
      configurations: { account: { properties: { apiKey: { type: 'string', title: 'API key' } }, required: ['apiKey'] } },
      script: 'export default { fetch() { return new Response("ok"); } };',
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const page = await adminContext.newPage();
    await page.goto('/integrations/reader-stats');
    await page.waitForURL(`**/o/${organizationId}/integrations/reader-stats`);
    await heading(page, 'Reader stats');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await expect.poll(() => page.getByText('Needs its settings').isVisible()).toBe(true);
    await page.getByLabel('API key').fill('k-123');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByText('Active', { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'integration');
    await page.goto(`/o/${organizationId}/integrations`);
    await expect.poll(() => page.getByRole('link', { name: 'Reader stats' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Reader stats' }).click();
    await page.getByRole('button', { name: 'Uninstall Reader stats' }).click();
    await page.getByRole('button', { name: 'Uninstall', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Install', exact: true }).isVisible()).toBe(true);
    expect((await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/installations`)).body.items).toEqual([]);
  });

  it('removes a member from the members screen, after asking, and the API no longer knows them as one', async () => {
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/members`);
    await page.getByRole('button', { name: `Remove ${teammate.name}` }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect.poll(() => page.getByText(teammate.email).count()).toBe(0);
    expect((await callAsSession(teammateContext, 'GET', `/v1/orgs/${organizationId}/members`)).status).toBe(404);
  });
});
