// The organization settings screen's single sign-on forms, as an administrator uses
// them: a SAML provider and an OpenID Connect provider added, edited in place and
// deleted after asking; a name longer than the API takes cannot be typed; and what the
// API refuses is said in its words.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';

const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

describeInBrowser("the organization's single sign-on settings", () => {
  const harness = useBrowser();
  let adminContext: BrowserContext;
  let organizationId: string;

  beforeAll(async () => {
    adminContext = await harness.newContext();
    const setup = await adminContext.request.post('/auth/setup', { data: admin });
    expect(setup.status()).toBe(201);
    organizationId = (await setup.json()).organization.id;
  });

  async function settings(): Promise<Page> {
    const page = await adminContext.newPage();
    await page.goto(`/o/${organizationId}/settings`);
    await expect.poll(() => page.getByRole('heading', { name: 'Single sign-on' }).isVisible(), { timeout: 10_000 }).toBe(true);
    return page;
  }

  it('adds a SAML provider, edits it in place, says why a certificate is refused, and deletes it after asking', async () => {
    const page = await settings();
    const policyKept = watchPolicy(page);
    const add = page.getByRole('form', { name: 'Add a SAML provider' });
    const name = add.getByLabel('SAML provider name');
    await name.fill('x'.repeat(40));
    expect(await name.inputValue()).toHaveLength(30);
    await name.fill('Okta');
    await add.getByLabel('Its sign-on URL').fill('https://idp.acme.test/sso');
    await add.getByLabel('Its entity ID').fill('https://idp.acme.test/entity');
    await add.getByRole('button', { name: 'Add SAML provider' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit the SAML provider Okta' }).isVisible()).toBe(true);
    expect(await name.inputValue()).toBe('');

    await page.getByRole('button', { name: 'Edit the SAML provider Okta' }).click();
    const edit = page.getByRole('form', { name: 'Edit the SAML provider Okta' });
    expect(await edit.getByLabel('Its entity ID').inputValue()).toBe('https://idp.acme.test/entity');
    await edit.getByLabel('Its signing certificate (PEM)').fill('not a certificate');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('certificate: not a valid X.509 certificate in PEM form').isVisible()).toBe(true);
    await edit.getByLabel('Its signing certificate (PEM)').fill('');
    await edit.getByLabel('SAML provider name of Okta').fill('Acme Okta');
    await edit.getByLabel('Role of people joining through it').selectOption('edit');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit the SAML provider Acme Okta' }).isVisible()).toBe(true);
    const stored = (await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/saml`)).body.items;
    expect(stored).toMatchObject([{ label: 'Acme Okta', defaultRole: 'edit', entityID: 'https://idp.acme.test/entity' }]);
    await expectAccessible(page);
    await screenshot(page, 'settings-sso-saml');

    await page.getByRole('button', { name: 'Delete the SAML provider Acme Okta' }).click();
    await page.getByRole('button', { name: 'Delete provider' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit the SAML provider Acme Okta' }).count()).toBe(0);
    expect((await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/saml`)).body.items).toEqual([]);
    policyKept();
  });

  it('adds an OpenID Connect provider, says why an issuer is refused, edits it keeping its secret, and deletes it after asking', async () => {
    const page = await settings();
    const add = page.getByRole('form', { name: 'Add an OpenID Connect provider' });
    const name = add.getByLabel('OpenID provider name');
    await name.fill('y'.repeat(40));
    expect(await name.inputValue()).toHaveLength(30);
    await name.fill('Company login');
    await add.getByLabel('Issuer URL').fill('http://login.acme.test');
    await add.getByLabel('Client ID').fill('quire');
    await add.getByLabel('Client secret').fill('the secret');
    await add.getByRole('button', { name: 'Add OpenID provider' }).click();
    await expect.poll(() => page.getByText('issuer: must be an https URL').isVisible()).toBe(true);
    await add.getByLabel('Issuer URL').fill('https://login.acme.test');
    await add.getByRole('button', { name: 'Add OpenID provider' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit the OpenID Connect provider Company login' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Edit the OpenID Connect provider Company login' }).click();
    const edit = page.getByRole('form', { name: 'Edit the OpenID Connect provider Company login' });
    expect(await edit.getByLabel('Client ID').inputValue()).toBe('quire');
    expect(await edit.getByLabel('Client secret').inputValue()).toBe('');
    await edit.getByLabel('Client ID').fill('quire-docs');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Edit the OpenID Connect provider Company login' }).count()).toBe(0);
    const stored = (await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/oidc-providers`)).body.items;
    expect(stored).toMatchObject([{ label: 'Company login', clientId: 'quire-docs', issuer: 'https://login.acme.test' }]);
    await expectAccessible(page);
    await screenshot(page, 'settings-sso-oidc');

    await page.getByRole('button', { name: 'Delete the OpenID Connect provider Company login' }).click();
    await page.getByRole('button', { name: 'Delete provider' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit the OpenID Connect provider Company login' }).count()).toBe(0);
    expect((await callAsSession(adminContext, 'GET', `/v1/orgs/${organizationId}/oidc-providers`)).body.items).toEqual([]);
  });
});
