// A visitor-auth site's settings on the site screen, and what they do to its readers:
// the fallback and logout URLs saved, and the signing key regenerated after asking, so
// that the published site refuses a token signed with the old key and opens to the new.
import { SignJWT } from 'jose';
import type { BrowserContext } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';

const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

const sign = (key: string) => new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));

describeInBrowser("a site's visitor authentication in the app", () => {
  const harness = useBrowser();
  let adminContext: BrowserContext;
  let organizationId: string;
  let site: { id: string; urls: { published: string } };

  beforeAll(async () => {
    adminContext = await harness.newContext();
    const setup = await adminContext.request.post('/auth/setup', { data: admin });
    expect(setup.status()).toBe(201);
    organizationId = (await setup.json()).organization.id;
    const call = (method: string, path: string, body?: unknown) => callAsSession(adminContext, method, path, body);
    const space = (await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' })).body;
    const draft = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/content`, { changes: [{ operation: 'insert_page', document: '# Welcome\n\nHow Acme works.' }] });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/merge`)).status).toBe(200);
    const sites = `/v1/orgs/${organizationId}/sites`;
    const created = (await call('POST', sites, { title: 'Acme Partners', visibility: 'visitor-auth' })).body;
    expect((await call('POST', `${sites}/${created.id}/site-spaces`, { spaceId: space.id })).status).toBe(201);
    site = (await call('POST', `${sites}/${created.id}/publish`)).body;
  });

  it('saves the fallback and logout URLs, regenerates the key after asking, and the published site refuses the old key and opens to the new', async () => {
    const page = await adminContext.newPage();
    const policyKept = watchPolicy(page);
    await page.goto(`/o/${organizationId}/sites/${site.id}/`);
    await page.getByRole('tab', { name: 'Visibility' }).click();
    const key = page.getByLabel('Signing key');
    await expect.poll(() => key.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await key.getAttribute('type')).toBe('password');
    const oldKey = await key.inputValue();
    await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.baseUrl });
    await page.getByRole('button', { name: 'Copy the key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldKey);

    // Signed in by the organization's own service: an integration could only once one is installed on the site.
    expect(await page.getByRole('radio', { name: /Your own service/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'An integration installed on this site' }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByText(/install a visitor authentication integration on this site/).isVisible()).toBe(true);

    await page.getByLabel('Fallback URL').fill('/login');
    await page.getByRole('button', { name: 'Save the URLs' }).click();
    // The browser's own check of a URL field speaks first; the API's words are for what passes it.
    expect(await page.getByLabel('Fallback URL').evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    await page.getByLabel('Fallback URL').fill('ftp://login.acme.test/');
    await page.getByRole('button', { name: 'Save the URLs' }).click();
    await expect.poll(() => page.getByText('fallbackURL must be an http or https URL').isVisible()).toBe(true);
    await page.getByLabel('Fallback URL').fill('https://login.acme.test/start');
    await page.getByLabel('Logout URL').fill('https://login.acme.test/out');
    await page.getByRole('button', { name: 'Save the URLs' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).isVisible()).toBe(true);
    const saved = await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/sites/${site.id}/publishing/auth`);
    expect(saved.body).toMatchObject({ fallbackURL: 'https://login.acme.test/start', logoutURL: 'https://login.acme.test/out' });
    await expectAccessible(page);
    await screenshot(page, 'site-visitor-auth-settings');

    const reader = await harness.newContext();
    const oldToken = await sign(oldKey);
    expect((await reader.request.get(`${site.urls.published}?jwt_token=${oldToken}`, { maxRedirects: 0 })).status()).toBe(200);

    await page.getByRole('button', { name: 'Regenerate the key for visitor tokens' }).click();
    await screenshot(page, 'site-visitor-auth-regenerate');
    await page.getByRole('button', { name: 'Refuse old tokens' }).click();
    await expect.poll(() => key.inputValue()).not.toBe(oldKey);
    await expect.poll(() => page.getByText('tokens signed with the old one are refused').isVisible()).toBe(true);
    const newKey = await key.inputValue();
    await expectAccessible(page);

    const refused = await reader.request.get(`${site.urls.published}?jwt_token=${oldToken}`, { maxRedirects: 0 });
    expect(refused.status()).toBe(302);
    expect(refused.headers().location).toBe('https://login.acme.test/start?location=%2F');
    const readerPage = await reader.newPage();
    expect((await readerPage.goto(`${site.urls.published}?jwt_token=${await sign(newKey)}`))?.status()).toBe(200);
    await expect.poll(() => readerPage.content()).toContain('How Acme works.');
    expect(await readerPage.getByRole('link', { name: 'Sign out' }).getAttribute('href')).toBe('https://login.acme.test/out');
    policyKept();
  });
});
