// E-mail invites and password resets, sent to a real SMTP server on 127.0.0.1 and
// followed from the links in the mails received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { jobHandlers } from '../../src/jobs/handlers.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { request, startTestApp, stopTestApp, type TestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';
import { expectGitBookAnswer } from '../helpers/gitbookContract.ts';
import { freePort, smtpUrl, startSmtpServer, type TestSmtpServer } from '../helpers/smtpServer.ts';

const QUIRE = 'http://quire.test';
let smtp: TestSmtpServer;
let testApp: TestApp;
let acme: Organization;

beforeAll(async () => {
  smtp = await startSmtpServer();
  testApp = await startTestApp({ QUIRE_SMTP_URL: smtp.url, QUIRE_MAIL_FROM: 'Quire Docs <docs@quire.test>' });
  acme = await buildOrganization(testApp, 'Acme');
});

afterAll(async () => {
  await stopTestApp(testApp);
  await smtp.close();
});

function linkIn(mail: ParsedMail, path: RegExp): string {
  const link = new RegExp(`${QUIRE}${path.source}`).exec(mail.text ?? '');
  expect(link, mail.text).toBeTruthy();
  return link![0].slice(QUIRE.length);
}

function invite(organization: Organization, body: object, token = organization.admin.token) {
  return request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/invites`, { token, body });
}

describe('Inviting people by e-mail', () => {
  it('makes nobody a member at once, not even a person Quire knows by the address: they join from the mailed link, as that address', async () => {
    // An account's address is not proven: whoever holds this one may not own it, so it joins only through the mail.
    const other = await buildOrganization(testApp, 'Other');
    const known = await buildMember(testApp, other.organizationId, 'read');
    const answer = await invite(acme, { emails: [{ email: known.email.toUpperCase(), role: 'review' }] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ users: [], invited: 1 });
    expectGitBookAnswer('inviteUsersToOrganization', answer.body);
    const memberUrl = `/v1/orgs/${acme.organizationId}/members/${known.userId}`;
    expect((await request(testApp.app, 'GET', memberUrl, { token: acme.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/orgs/${acme.organizationId}`, { token: known.token })).status).toBe(404);

    const mail = await smtp.nextMail();
    expect(mail.to).toMatchObject({ text: known.email.toLowerCase() });
    const [, , organizationId, inviteId] = linkIn(mail, /\/invite\/[^/\s]+\/[^/\s]+/).split('/');
    const join = (token: string) => request(testApp.app, 'POST', `/v1/orgs/${organizationId}/invites/${inviteId}`, { token });
    const someoneElse = await buildMember(testApp, other.organizationId, 'admin');
    expect((await join(someoneElse.token)).status).toBe(403);
    expect((await join(known.token)).status).toBe(200);
    expect((await request(testApp.app, 'GET', memberUrl, { token: acme.admin.token })).body.role).toBe('review');
    expect((await join(known.token)).status).toBe(404);
  });

  it('mails anyone else a link to an invite of their own, which only their address may accept, once', async () => {
    const answer = await invite(acme, { emails: ['newcomer@example.test'], role: 'edit' });
    expect(answer.body).toEqual({ users: [], invited: 1 });
    const mail = await smtp.nextMail();
    expect(mail.to).toMatchObject({ text: 'newcomer@example.test' });
    expect(mail.from?.text).toBe('"Quire Docs" <docs@quire.test>');
    expect(mail.subject).toBe('Ada Admin invited you to Acme on Quire');
    const page = linkIn(mail, /\/invite\/[^/\s]+\/[^/\s]+/);
    const [, , organizationId, inviteId] = page.split('/');
    expect(organizationId).toBe(acme.organizationId);

    const preview = await request(testApp.app, 'GET', `/auth/invites/${organizationId}/${inviteId}`);
    expect(preview.body).toMatchObject({ organization: { id: acme.organizationId, title: 'Acme' }, role: 'edit' });
    const accept = (email: string) =>
      request(testApp.app, 'POST', `/auth/invites/${organizationId}/${inviteId}/accept`, {
        body: { name: 'New Comer', email, password: 'a long password' },
      });
    const wrongAddress = await accept('someone-else@example.test');
    expect(wrongAddress.status).toBe(403);
    expect((await accept('newcomer@example.test')).status).toBe(201);
    expect((await accept('newcomer@example.test')).status).toBe(404);
  });

  it('is for administrators only', async () => {
    const editor = await buildMember(testApp, acme.organizationId, 'edit');
    const answer = await invite(acme, { emails: ['x@example.test'] }, editor.token);
    expect(answer.status).toBe(403);
  });

  it('refuses an entry that is not an e-mail address, naming it', async () => {
    const answer = await invite(acme, { emails: ['ok@example.test', 'not an address'] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('emails[1]: "not an address" is not an e-mail address');
  });
});

describe('Password resets', () => {
  it('mail a known person a one-time link that signs them in and sets their new password', async () => {
    const person = await buildMember(testApp, acme.organizationId, 'read');
    const asked = await request(testApp.app, 'POST', '/auth/password-reset', { body: { email: person.email } });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({});
    const mail = await smtp.nextMail();
    expect(mail.to).toMatchObject({ text: person.email });
    const token = linkIn(mail, /\/sign-in\/link\/\S+/).split('/').pop();
    const used = await request(testApp.app, 'POST', '/auth/sign-in-link', { body: { token, password: 'my new password' } });
    expect(used.status).toBe(200);
    const signedIn = await request(testApp.app, 'POST', '/auth/sign-in', { body: { email: person.email, password: 'my new password' } });
    expect(signedIn.status).toBe(200);
    expect((await request(testApp.app, 'POST', '/auth/sign-in-link', { body: { token, password: 'another password' } })).status).toBe(400);
  });

  it('answer an unknown address as a known one, and mail nobody', async () => {
    const asked = await request(testApp.app, 'POST', '/auth/password-reset', { body: { email: 'nobody@example.test' } });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({});
    const jobs = await testApp.database.db.selectFrom('jobs').select('kind').where('kind', '=', 'send-mail').execute();
    expect(jobs).toEqual([]);
  });

  it('are limited per address, known or not, saying when to try again', async () => {
    for (const email of ['limited@example.test', acme.admin.email]) {
      for (let ask = 0; ask < 3; ask++) {
        expect((await request(testApp.app, 'POST', '/auth/password-reset', { body: { email } })).status).toBe(202);
      }
      const refused = await request(testApp.app, 'POST', '/auth/password-reset', { body: { email } });
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toMatch(/try again in 60 minutes/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    }
    for (let mail = 0; mail < 3; mail++) await smtp.nextMail();
  });

  it('refuse what is not an e-mail address', async () => {
    const asked = await request(testApp.app, 'POST', '/auth/password-reset', { body: { email: 'nobody' } });
    expect(asked.status).toBe(400);
    expect(asked.body.error.message).toMatch(/^email:/);
  });
});

describe('Mail while the mail server is down', () => {
  it('is sent once the server is up again', async () => {
    const port = await freePort();
    const down = await startTestApp({ QUIRE_SMTP_URL: smtpUrl(port) });
    let server: TestSmtpServer | undefined;
    try {
      const organization = await buildOrganization(down, 'Patient');
      const answer = await request(down.app, 'POST', `/v1/orgs/${organization.organizationId}/invites`, {
        token: organization.admin.token,
        body: { emails: ['later@example.test'] },
      });
      expect(answer.status).toBe(200);
      const failed = await waitFor(async () => {
        const jobs = await down.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'send-mail').execute();
        return jobs.length === 1 && jobs[0].last_error ? jobs[0] : undefined;
      });
      expect(failed.last_error).toMatch(/The mail to later@example.test was not sent/);

      // Down for hours: the message is tried again and again, never set aside.
      for (let attempt = 0; attempt < 12; attempt++) {
        down.clock.advance(16 * 60_000);
        expect(await runDueJobs(down.app.ctx, jobHandlers)).toBe(1);
      }
      server = await startSmtpServer(port);
      down.clock.advance(16 * 60_000);
      expect(await runDueJobs(down.app.ctx, jobHandlers)).toBe(1);
      const mail = await server.nextMail();
      expect(mail.to).toMatchObject({ text: 'later@example.test' });
      expect(await down.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'send-mail').execute()).toEqual([]);
    } finally {
      await stopTestApp(down);
      await server?.close();
    }
  });
});

describe('Mail the server refuses for good', () => {
  it('is tried ten times, then waits for a person with its error', async () => {
    const answer = await invite(acme, { emails: ['ghost@refused.test'] });
    expect(answer.status).toBe(200);
    const jobOf = async () => (await testApp.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'send-mail').execute())[0];
    await waitFor(async () => ((await jobOf())?.last_error ? true : undefined));
    for (let attempt = 0; attempt < 10; attempt++) {
      testApp.clock.advance(20 * 60_000);
      await runDueJobs(testApp.app.ctx, jobHandlers);
    }
    const parked = await jobOf();
    expect(parked.last_error).toMatch(/The mail to ghost@refused.test was not sent: .*No such mailbox/);
    expect(parked.run_at.startsWith('9999')).toBe(true);
    await testApp.database.db.deleteFrom('jobs').where('id', '=', parked.id).execute();
  });
});

describe('Without a mail server', () => {
  it('still makes the invite, listed with the link invites for an administrator to pass on', async () => {
    const quiet = await startTestApp();
    try {
      const organization = await buildOrganization(quiet, 'Quiet');
      const answer = await request(quiet.app, 'POST', `/v1/orgs/${organization.organizationId}/invites`, {
        token: organization.admin.token,
        body: { emails: ['offline@example.test'] },
      });
      expect(answer.body).toEqual({ users: [], invited: 1 });
      const listed = await request(quiet.app, 'GET', `/v1/orgs/${organization.organizationId}/link-invites`, { token: organization.admin.token });
      expect(listed.body.items).toHaveLength(1);
      expect(listed.body.items[0].email).toBe('offline@example.test');
      expect(listed.body.items[0].urls.app).toBe(`${QUIRE}/invite/${organization.organizationId}/${listed.body.items[0].id}`);
      expect(await quiet.database.db.selectFrom('jobs').select('kind').where('kind', '=', 'send-mail').execute()).toEqual([]);
    } finally {
      await stopTestApp(quiet);
    }
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
