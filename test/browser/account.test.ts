// A person's own settings in the app (/account): API tokens shown once, sessions, the
// password; a one-time sign-in link; and what a page of another site can do with the
// session cookie: nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser } from '../helpers/browser.ts';
import { runCli } from '../helpers/process.ts';

const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

describeInBrowser('the account screen', () => {
  const harness = useBrowser();
  let context: BrowserContext;

  beforeAll(async () => {
    context = await harness.newContext();
    const setup = await context.request.post('/auth/setup', { data: admin });
    expect(setup.status()).toBe(201);
  });

  /** GET /v1/user with a bearer token: its status. */
  const withToken = async (token: string, method = 'GET', path = '/v1/user') =>
    (await fetch(`${harness.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' })).status;

  it('creates a named, read-only API token, shows its secret once with a copy button, and revokes it', async () => {
    const page = await context.newPage();
    await page.goto('/account');
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account');
    await page.getByLabel('Token name').fill('CI deploys');
    await page.getByRole('textbox', { name: 'Scope' }).click();
    await page.getByRole('option', { name: 'Read only' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secretBox = page.getByTestId('token-secret');
    await secretBox.waitFor();
    const secret = (await secretBox.textContent())!.trim();
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'account-token-created');
    expect(await withToken(secret)).toBe(200);
    expect(await withToken(secret, 'POST', '/v1/user/tokens')).toBe(403);

    await page.reload();
    await page.getByText('CI deploys').waitFor();
    expect(await page.getByText('Read only ·').isVisible()).toBe(true);
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Revoke the token CI deploys' }).click();
    await expect.poll(() => page.getByText('CI deploys').count(), { timeout: 15_000 }).toBe(0);
    expect(await withToken(secret)).toBe(401);
  });

  it("lists where the person is signed in, this browser marked, and revoking another browser's session sends that browser to sign-in at its next step", async () => {
    const other = await harness.newContext();
    expect((await other.request.post('/auth/sign-in', { data: { email: admin.email, password: admin.password } })).status()).toBe(200);
    const otherPage = await other.newPage();
    await otherPage.goto('/account');
    await otherPage.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    const page = await context.newPage();
    await page.goto('/account');
    const sessions = (await callAsSession(context, 'GET', '/v1/user/sessions')).body.items as Array<{ current: boolean }>;
    expect(sessions).toHaveLength(2);
    await expect.poll(() => page.getByRole('button', { name: /^Revoke the session/ }).count(), { timeout: 15_000 }).toBe(2);
    expect(await page.getByText('This browser').count()).toBe(1);
    await page.getByRole('button', { name: /^Revoke the session/ }).nth(sessions.findIndex((session) => !session.current)).click();
    await expect.poll(() => page.getByRole('button', { name: /^Revoke the session/ }).count(), { timeout: 15_000 }).toBe(1);
    expect((await callAsSession(other, 'GET', '/auth/state')).body.session).toBeNull();
    expect((await callAsSession(context, 'GET', '/auth/state')).body.session).not.toBeNull();
    // The other browser's app still thinks it is signed in, until the API's 401 says otherwise.
    await otherPage.getByRole('link', { name: 'Quire' }).click();
    await otherPage.waitForURL(/\/sign-in(\?|$)/);
    await otherPage.getByRole('heading', { name: 'Sign in to Quire' }).waitFor();
  });

  it('changes the password, which then signs in where the old one no longer does', async () => {
    const page = await context.newPage();
    await page.goto('/account');
    await page.getByLabel('Current password').fill(admin.password);
    await page.getByLabel('New password').fill('a newer good password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
    const signIn = async (password: string) => (await fetch(`${harness.baseUrl}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email, password }) })).status;
    expect(await signIn('a newer good password')).toBe(200);
    expect(await signIn(admin.password)).toBe(401);
    admin.password = 'a newer good password';
  });

  it('signs in with a one-time link from `quire admin sign-in-link`, setting a new password, and the link then works no more', async () => {
    const made = await runCli(['admin', 'sign-in-link', '--email', admin.email, '--json'], harness.env);
    expect(made.code).toBe(0);
    const { url } = JSON.parse(made.stdout);
    const page = await harness.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Sign in with a link' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sign-in-link');
    await page.getByLabel('New password').fill('the link password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(/\/o\/[^/]+\/$/);
    admin.password = 'the link password';
    const again = await harness.newPage();
    await again.goto(url);
    await again.getByRole('button', { name: 'Continue without changing it' }).click();
    await expect.poll(() => again.getByRole('alert').textContent(), { timeout: 15_000 }).toContain('expired or was used already');
  });

  describe('against a page of another site', () => {
    let elsewhere: Server;
    let elsewhereUrl: string;
    beforeAll(async () => {
      // Another port of 127.0.0.1: the same site to the browser, so SameSite lets the cookie go, and only the CSRF token stops the post.
      elsewhere = createServer((_request, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(`<!doctype html><title>Win a prize</title>
          <form id="token" method="post" action="${harness.baseUrl}/v1/user/tokens" enctype="text/plain">
            <input name='{"label":"stolen","scope":"write","x":"' value='"}'><button>Claim</button></form>
          <form id="sign-out" method="post" action="${harness.baseUrl}/auth/sign-out"><button>Sign out</button></form>`);
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
      elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

    it('lets a cross-site form post with the session cookie change nothing: no token made, the session not ended', async () => {
      // Signed in afresh: the link's new password ended the sessions before it.
      expect((await context.request.post('/auth/sign-in', { data: { email: admin.email, password: admin.password } })).status()).toBe(200);
      const tokensBefore = (await callAsSession(context, 'GET', '/v1/user/tokens')).body.items.length;
      for (const form of ['token', 'sign-out']) {
        const page = await context.newPage();
        await page.goto(elsewhereUrl);
        const answer = page.waitForResponse((response) => response.url().startsWith(harness.baseUrl));
        await page.locator(`#${form} button`).click();
        // The token's post is refused for want of the CSRF token; the sign-out's for its form encoding, before that.
        expect((await answer).status(), form).toBe(form === 'token' ? 403 : 415);
      }
      expect((await callAsSession(context, 'GET', '/v1/user/tokens')).body.items).toHaveLength(tokensBefore);
      expect((await callAsSession(context, 'GET', '/auth/state')).body.session).not.toBeNull();
    });
  });
});
