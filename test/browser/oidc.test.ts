// Signing in through OpenID Connect in a browser: from the app's sign-in screen, through
// a real OpenID provider's login and consent pages (oidc-provider, 127.0.0.1), back into
// the organization; and a failure said in words on the sign-in screen.
import type { ClientMetadata } from 'oidc-provider';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, useBrowser } from '../helpers/browser.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '../helpers/oidcProvider.ts';

describeInBrowser('signing in through OpenID Connect', () => {
  const harness = useBrowser({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
  let idp: TestOpenIdProvider;
  let organizationId: string;
  let adminContext: BrowserContext;

  beforeAll(async () => {
    idp = await startOpenIdProvider();
    const context = (adminContext = await harness.newContext());
    const setUp = await context.request.post('/auth/setup', {
      data: { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' },
    });
    expect(setUp.status()).toBe(201);
    organizationId = (await setUp.json()).organization.id;
    expect((await callAsSession(context, 'PATCH', `/v1/orgs/${organizationId}`, { emailDomains: ['acme.test'] })).status).toBe(200);
    const client = (id: string, secret: string, provider: { urls: { callback: string } }): ClientMetadata => ({
      client_id: id,
      client_secret: secret,
      redirect_uris: [provider.urls.callback],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    });
    const create = async (label: string, clientId: string, clientSecret: string) => {
      const created = await callAsSession(context, 'POST', `/v1/orgs/${organizationId}/oidc-providers`, { label, issuer: idp.issuer, clientId, clientSecret, defaultRole: 'edit' });
      expect(created.status).toBe(201);
      return created.body;
    };
    const company = await create('Company login', 'quire', 'the secret');
    const broken = await create('Broken login', 'quire-broken', 'not the secret');
    idp.open([client('quire', 'the secret', company), client('quire-broken', 'the secret', broken)], {
      grace: { email: 'grace@acme.test', name: 'Grace Hopper' },
      ada: { email: 'ada@acme.test', name: 'Ada Admin' },
    });
  }, 60_000);

  afterAll(async () => {
    await idp?.close();
  });

  async function throughTheProvider(choice: string, login = 'grace') {
    const page = await harness.newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Single sign-on' }).click();
    await page.getByLabel('Email').fill(`${login}@acme.test`);
    await page.getByRole('button', { name: 'Find my sign-on' }).click();
    await page.getByRole('link', { name: `Acme Docs: ${choice}` }).click();
    await atTheProvider(page, login);
    return page;
  }

  /** The provider's own (development) login page, then its consent page. */
  async function atTheProvider(page: Page, login: string) {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
  }

  it("lands a new person in the organization, signed in, from the sign-in screen's single sign-on", async () => {
    const page = await throughTheProvider('Company login');
    await page.waitForURL(new RegExp(`/o/${organizationId}/$`));
    const state = await (await page.context().request.get('/auth/state')).json();
    expect(state.session.user).toMatchObject({ email: 'grace@acme.test', displayName: 'Grace Hopper' });
    const member = await callAsSession(page.context(), 'GET', `/v1/orgs/${organizationId}/members/${state.session.user.id}`);
    expect(member.body).toMatchObject({ role: 'edit', sso: true });
  });

  it('says on the sign-in screen, in words, why the provider could not sign anyone in', async () => {
    const page = await throughTheProvider('Broken login');
    await page.waitForURL(/\/sign-in\?error=/);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/refused Quire's client credentials/);
    expect((await (await page.context().request.get('/auth/state')).json()).session).toBeNull();
    await expectAccessible(page);
  });

  it("links an existing account from the Account screen, after which the provider signs that account in; its sign-in before the link is refused", async () => {
    const refused = await throughTheProvider('Company login', 'ada');
    await refused.waitForURL(/\/sign-in\?error=/);
    await expect.poll(() => refused.getByRole('alert').textContent()).toMatch(/has a Quire account that has not used Company login/);

    const page = await adminContext.newPage();
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Link your account to Company login of Acme Docs' }).click();
    await atTheProvider(page, 'ada');
    await page.waitForURL(new RegExp(`/o/${organizationId}/$`));

    const again = await throughTheProvider('Company login', 'ada');
    await again.waitForURL(new RegExp(`/o/${organizationId}/$`));
    const admin = (await (await adminContext.request.get('/auth/state')).json()).session.user;
    const signedIn = (await (await again.context().request.get('/auth/state')).json()).session.user;
    expect(signedIn.id).toBe(admin.id);
  });
});
