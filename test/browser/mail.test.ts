// E-mail in the browser: an administrator invites a teammate by address from the members
// screen, the teammate joins from the link in the mail (a real SMTP server on
// 127.0.0.1 receives it), and a forgotten password is set anew from the reset mail's link.
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, expectAccessible, useBrowser } from '../helpers/browser.ts';
import { freePort, smtpUrl, startSmtpServer, type TestSmtpServer } from '../helpers/smtpServer.ts';

const smtpPort = await freePort();
const admin = { organization: 'Acme Docs', name: 'Ada Admin', email: 'ada@acme.test', password: 'correct horse battery' };

describeInBrowser('e-mail', () => {
  const harness = useBrowser({ QUIRE_SMTP_URL: smtpUrl(smtpPort) });
  let smtp: TestSmtpServer;
  let organizationId: string;

  beforeAll(async () => {
    smtp = await startSmtpServer(smtpPort);
    const setUp = await (await harness.newContext()).request.post('/auth/setup', { data: admin });
    expect(setUp.status()).toBe(201);
    organizationId = (await setUp.json()).organization.id;
  });

  afterAll(async () => {
    await smtp?.close();
  });

  function linkIn(mail: ParsedMail): string {
    const link = new RegExp(`${harness.baseUrl}/\\S+`).exec(mail.text ?? '');
    expect(link, mail.text).toBeTruthy();
    return link![0];
  }

  it('brings a teammate invited by address from the members screen in through the link mailed to them', async () => {
    const adminPage = await harness.newPage();
    await adminPage.goto('/sign-in');
    await adminPage.getByLabel('Email').fill(admin.email);
    await adminPage.getByLabel('Password').fill(admin.password);
    await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await adminPage.waitForURL(`**/o/${organizationId}/`);
    await adminPage.goto(`/o/${organizationId}/members`);
    await adminPage.getByLabel('E-mail addresses').fill('grace@acme.test');
    await adminPage.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect.poll(() => adminPage.getByRole('status').textContent()).toContain('1 invited');

    const mail = await smtp.nextMail();
    expect(mail.subject).toBe(`${admin.name} invited you to ${admin.organization} on Quire`);
    const page = await harness.newPage();
    await page.goto(linkIn(mail));
    await expect.poll(() => page.getByRole('heading', { name: `Join ${admin.organization}` }).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.getByLabel('Name').fill('Grace Writer');
    await page.getByLabel('Email').fill('grace@acme.test');
    await page.getByLabel('Password').fill('another good password');
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    await page.waitForURL(`**/o/${organizationId}/`);
    const members = await callAsSession(adminPage.context(), 'GET', `/v1/orgs/${organizationId}/members`);
    expect(members.body.items.map((member: { user: { displayName: string } }) => member.user.displayName)).toContain('Grace Writer');
  });

  it('sets a forgotten password anew from the link the reset mail carries', async () => {
    const page = await harness.newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Check your mail');

    const mail = await smtp.nextMail();
    expect(mail.subject).toBe('Set a new password for Quire');
    await page.goto(linkIn(mail));
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(`**/o/${organizationId}/`);
    const signIn = await (await harness.newContext()).request.post('/auth/sign-in', { data: { email: admin.email, password: 'a brand new password' } });
    expect(signIn.status()).toBe(200);
  });
});
