// The trash in the app: a space deleted from the organization's home is found in the
// trash, restored from it, and another purged for good after a confirmation; a reader
// is not led to it.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { runCli } from '../helpers/process.ts';

const admin = { organization: 'Acme Trash', name: 'Ada Admin', email: 'ada@trash.test', password: 'correct horse battery' };

describeInBrowser('the trash', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let organizationId: string;

  beforeAll(async () => {
    context = await harness.newContext();
    const setup = await context.request.post('/auth/setup', { data: admin });
    expect(setup.status()).toBe(201);
    organizationId = (await setup.json()).organization.id;
    for (const title of ['Old notes', 'Scratch', 'Handbook']) {
      expect((await callAsSession(context, 'POST', `/v1/orgs/${organizationId}/spaces`, { title })).status).toBe(201);
    }
  }, 60_000);

  const shown = (locator: Locator) => expect.poll(() => locator.isVisible(), { timeout: 10_000 }).toBe(true);
  const deleteFromHome = async (page: Page, title: string) => {
    await page.getByRole('button', { name: `Actions for ${title}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete space' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Collections and spaces' }).getByRole('link', { name: title }).count()).toBe(0);
  };

  it('finds deleted spaces in the trash, restores one and purges another after a warning that it cannot be undone', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    await page.goto(`/o/${organizationId}/`);
    await shown(page.getByRole('link', { name: 'Old notes' }));
    await deleteFromHome(page, 'Old notes');
    // The notice after deleting tells where the space went.
    expect(await page.getByRole('status').getByRole('link', { name: 'Open the trash' }).getAttribute('href')).toBe(`/o/${organizationId}/trash`);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await deleteFromHome(page, 'Scratch');

    // The organization menu leads there too.
    await page.getByRole('button', { name: /^Organization: Acme Trash/ }).click();
    await shown(page.getByRole('menuitem', { name: 'Trash', exact: true }));
    await page.keyboard.press('Escape');

    await page.getByRole('link', { name: 'Trash', exact: true }).click();
    await page.waitForURL(`**/o/${organizationId}/trash`);
    await shown(page.getByRole('heading', { level: 1, name: 'Trash' }));
    const list = page.getByRole('list', { name: 'Deleted spaces' });
    await shown(list.getByText('Scratch'));
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('Scratch'), expect.stringContaining('Old notes')]);
    await expectAccessible(page);
    await screenshot(page, 'trash');

    await page.getByRole('button', { name: 'Restore Old notes' }).click();
    await expect.poll(() => list.getByText('Old notes').count()).toBe(0);
    const live = await callAsSession(context, 'GET', `/v1/orgs/${organizationId}/spaces`);
    expect(live.body.items.map((space: { title: string }) => space.title)).toContain('Old notes');

    await page.getByRole('button', { name: 'Purge Scratch' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge Scratch?' });
    await shown(dialog.getByText('This cannot be undone.'));
    await expectAccessible(page);
    await screenshot(page, 'trash-purge');
    const scratchId = (await callAsSession(context, 'GET', `/v1/orgs/${organizationId}/trash`)).body.items[0].id;
    await dialog.getByRole('button', { name: 'Purge for good' }).click();
    await shown(page.getByText('The trash is empty.'));
    await expectAccessible(page);
    await screenshot(page, 'trash-empty');
    expect((await callAsSession(context, 'POST', `/v1/spaces/${scratchId}/restore`)).status).toBe(404);

    await page.goto(`/o/${organizationId}/`);
    await shown(page.getByRole('link', { name: 'Old notes' }));
    policyKept();
  });

  it('leads a reader to no trash, and shows them an empty one with nothing to restore or purge', async () => {
    expect((await runCli(['admin', 'add-user', '--org', organizationId, '--email', 'rita@trash.test', '--name', 'Rita Reader', '--role', 'read', '--json'], harness.env)).code).toBe(0);
    const link = await runCli(['admin', 'sign-in-link', '--email', 'rita@trash.test', '--json'], harness.env);
    const reader = await harness.newContext();
    expect((await reader.request.post('/auth/sign-in-link', { data: { token: JSON.parse(link.stdout).url.split('/').pop() } })).status()).toBe(200);
    const handbook = (await callAsSession(context, 'GET', `/v1/orgs/${organizationId}/spaces`)).body.items.find((space: { title: string }) => space.title === 'Handbook');
    expect((await callAsSession(context, 'DELETE', `/v1/spaces/${handbook.id}`)).status).toBe(204);
    const page = await reader.newPage();
    await page.goto(`/o/${organizationId}/`);
    await shown(page.getByRole('link', { name: 'Old notes' }));
    expect(await page.getByRole('link', { name: 'Trash', exact: true }).count()).toBe(0);
    await page.goto(`/o/${organizationId}/trash`);
    await shown(page.getByText('The trash is empty.'));
    expect(await page.getByRole('button', { name: /Restore|Purge/ }).count()).toBe(0);
    await expectAccessible(page);
    expect((await callAsSession(reader, 'POST', `/v1/spaces/${handbook.id}/purge`)).status).toBe(403);
  });
});
