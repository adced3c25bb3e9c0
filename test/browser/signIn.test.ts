// Signing in, as people do it: the first run's setup, signing out and in, a wrong
// password, a deep link kept through sign-in, and a teammate joining from an invite link
// in a browser of their own.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { runCli } from '../helpers/process.ts';

const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describeInBrowser('signing in', () => {
  const harness = useBrowser();
  let organizationId: string;

  it('on a server with no organization, / shows the setup form, which creates it and lands its administrator signed in', async () => {
    const page = await harness.newPage();
    const policyKept = watchPolicy(page);
    await page.goto('/');
    await page.waitForURL('**/setup');
    await page.getByRole('heading', { name: 'Set up Quire' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'setup');
    await page.getByLabel('Organization').fill(admin.organization);
    await page.getByLabel('Name').fill(admin.name);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(/\/o\/[^/]+\/$/);
    organizationId = new URL(page.url()).pathname.split('/')[2];
    await page.getByRole('heading', { level: 1, name: admin.organization }).waitFor();
    await page.getByRole('button', { name: `Organization: ${admin.organization}. Switch organization` }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'organization-home');
    const user = await callAsSession(page.context(), 'GET', '/v1/user');
    expect(user.body).toMatchObject({ displayName: admin.name, email: admin.email });
    // The form is the first run's only: now it leads on.
    await page.goto('/setup');
    await page.waitForURL(/\/o\/[^/]+\/$/);
    policyKept();
  });

  it('signs out from the user menu, and back in with the email and password', async () => {
    const page = await harness.newPage();
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await page.waitForURL(`**/o/${organizationId}/`);
    await page.getByRole('button', { name: `Account menu of ${admin.name}` }).click();
    await expectAccessible(page);
    await screenshot(page, 'user-menu');
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByRole('heading', { name: 'Sign in to Quire' }).waitFor();
    expect((await callAsSession(page.context(), 'GET', '/auth/state')).body.session).toBeNull();
    expect((await callAsSession(page.context(), 'GET', '/v1/user')).status).toBe(401);
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    await signIn(page, admin.email, admin.password);
    await page.waitForURL(`**/o/${organizationId}/`);
  });

  it('says in words that a wrong password is not right, and signs no one in, the form used from the keyboard alone', async () => {
    const page = await harness.newPage();
    await page.goto('/sign-in');
    // The email field has the focus; Tab reaches the password, Enter sends the form.
    await page.getByLabel('Email').waitFor();
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the password');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toContain('The email address or the password is not right');
    expect(await alert.textContent()).not.toMatch(/[{}]/);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await expectAccessible(page);
    await screenshot(page, 'sign-in-wrong-password');
  });

  it('offers single sign-on and a password reset on the sign-in screen, each answering in words', async () => {
    const page = await harness.newPage();
    await page.goto('/sign-in?error=Your+identity+provider+refused+the+sign-in.+Try+again.');
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toBe('Your identity provider refused the sign-in. Try again.');
    await page.getByRole('button', { name: 'Single sign-on' }).click();
    await page.getByLabel('Email').fill('someone@elsewhere.test');
    await page.getByRole('button', { name: 'Find my sign-on' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toContain('No single sign-on is set up for this address');
    await expectAccessible(page);
    await screenshot(page, 'sign-in-sso');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 15_000 }).toContain('Check your mail');
    await expectAccessible(page);
    await screenshot(page, 'sign-in-reset');
  });

  it('takes a signed-out deep link to sign-in, and back to it after', async () => {
    const adminPage = await harness.newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    await adminPage.waitForURL(`**/o/${organizationId}/`);
    const space = await callAsSession(adminPage.context(), 'POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    expect(space.status).toBe(201);
    const deepLink = new URL(space.body.urls.app).pathname;

    const page = await harness.newPage();
    await page.goto(deepLink);
    await page.waitForURL('**/sign-in?next=*');
    expect(new URL(page.url()).searchParams.get('next')).toBe(deepLink);
    expect(await page.content()).not.toContain('Handbook');
    await signIn(page, admin.email, admin.password);
    await page.waitForURL(`**${deepLink}`);
  });

  it('lets a new person join from an invite link in a browser of their own, landing in the organization', async () => {
    const adminPage = await harness.newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    await adminPage.waitForURL(`**/o/${organizationId}/`);
    const invite = await callAsSession(adminPage.context(), 'POST', `/v1/orgs/${organizationId}/link-invites`, { role: 'edit' });
    expect(invite.status).toBe(201);

    const page = await harness.newPage();
    await page.goto(invite.body.urls.app);
    await page.getByRole('heading', { name: `Join ${admin.organization}` }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'invite');
    await page.getByLabel('Name').fill('Grace Writer');
    await page.getByLabel('Email').fill('grace@acme.test');
    await page.getByLabel('Password').fill('another good password');
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await page.waitForURL(`**/o/${organizationId}/`);
    await page.getByRole('heading', { level: 1, name: admin.organization }).waitFor();
    const members = await callAsSession(adminPage.context(), 'GET', `/v1/orgs/${organizationId}/members`);
    expect(members.body.items.map((member: { user: { displayName: string }; role: string }) => [member.user.displayName, member.role])).toContainEqual(['Grace Writer', 'edit']);
  });

  it('lets a signed-in person join another organization from its invite with one button, and switch between the two', async () => {
    const other = await runCli(['admin', 'bootstrap', '--org', 'Beta Labs', '--email', 'beta@beta.test', '--name', 'Bea', '--json'], harness.env);
    expect(other.code).toBe(0);
    const { organization, token } = JSON.parse(other.stdout);
    const invite = await fetch(`${harness.baseUrl}/v1/orgs/${organization.id}/link-invites`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'read' }),
    });
    const { urls } = await invite.json();
    const page = await harness.newPage();
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await page.waitForURL(`**/o/${organizationId}/`);
    await page.goto(urls.app);
    await page.getByText('You are invited as a reader.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'invite-signed-in');
    await page.getByRole('button', { name: 'Join Beta Labs' }).click();
    await page.waitForURL(`**/o/${organization.id}/`);
    await page.getByRole('button', { name: 'Organization: Beta Labs. Switch organization' }).click();
    await page.getByRole('menuitem', { name: admin.organization }).click();
    await page.waitForURL(`**/o/${organizationId}/`);
  });
});
