// Signing in to the app over HTTP (issue 73): first-run setup, e-mail and password, the
// rate limits, the session cookie and its CSRF token, sessions ending, and one-time
// sign-in links.
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';
import { browser, sessionOf, sessionSetCookie, setPassword, signInLinkFor, signInWithPassword } from '../helpers/signIn.ts';

const PASSWORD = 'correct horse battery';
const DAY = 24 * 60 * 60 * 1000;

describe('first run', () => {
  const testApp = useTestApp();
  const setup = (organization: string, email: string, password = PASSWORD) =>
    testApp.app.inject({ method: 'POST', url: '/auth/setup', payload: { organization, name: 'Ada Lovelace', email, password } });

  it('says setup is required on a server with no organization, and no one is signed in', async () => {
    const state = await browser(testApp.app, 'GET', '/auth/state');
    expect(state.status).toBe(200);
    expect(state.body).toEqual({ setupRequired: true, session: null });
    expect(state.headers['cache-control']).toBe('no-store');
  });

  it('refuses a password of fewer than 8 characters (400) and makes nothing', async () => {
    const response = await setup('Acme', 'ada@example.test', 'short');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/at least 8 characters/);
    expect((await browser(testApp.app, 'GET', '/auth/state')).body.setupRequired).toBe(true);
  });

  it('makes one organization when two setups race, signs its administrator in, and refuses setup afterwards (409)', async () => {
    const [first, second] = await Promise.all([setup('Acme', 'ada@example.test'), setup('Rival', 'eve@example.test')]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses).toEqual([201, 409]);
    const made = first.statusCode === 201 ? first : second;
    const session = sessionOf(made);
    expect(made.json()).toMatchObject({ session: { object: 'session', user: { object: 'user' } }, organization: { object: 'organization' } });

    const organizations = await browser(testApp.app, 'GET', '/v1/orgs', { session });
    expect(organizations.status).toBe(200);
    expect(organizations.body.items).toHaveLength(1);
    expect(organizations.body.items[0]).toMatchObject({ id: made.json().organization.id, permissions: { admin: true } });

    const state = await browser(testApp.app, 'GET', '/auth/state', { session });
    expect(state.body).toMatchObject({ setupRequired: false, session: { id: session.id, csrfToken: session.csrfToken } });

    const again = await setup('Third', 'mallory@example.test');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/has an organization already/);
  });
});

describe('signing in with e-mail and password', () => {
  const testApp = useTestApp();

  async function personWithPassword() {
    const { organizationId, admin } = await buildOrganization(testApp);
    await setPassword(testApp.app, admin.token, PASSWORD);
    return { organizationId, ...admin };
  }

  const attempt = (email: string, password: string, remoteAddress = '198.51.100.7') =>
    testApp.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password }, remoteAddress });

  it('signs in with the right password: an HttpOnly, SameSite=Lax session cookie for 30 days, which GET /v1/user accepts', async () => {
    const person = await personWithPassword();
    const response = await attempt(person.email.toUpperCase(), PASSWORD);
    expect(response.statusCode).toBe(200);
    const cookie = sessionSetCookie(response.headers)!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=2592000/);
    expect(cookie).not.toMatch(/Secure/);
    expect(response.json().session).toMatchObject({ object: 'session', user: { id: person.userId, email: person.email } });

    const me = await browser(testApp.app, 'GET', '/v1/user', { session: sessionOf(response) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ object: 'user', id: person.userId });
  });

  it('answers an unknown e-mail exactly as a wrong password (401, same message), and sets no cookie', async () => {
    const person = await personWithPassword();
    const wrong = await attempt(person.email, 'not the password');
    const unknown = await attempt('nobody-here@example.test', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().error.message).toBe('The email address or the password is not right');
    expect(sessionSetCookie(wrong.headers)).toBeUndefined();
    expect(sessionSetCookie(unknown.headers)).toBeUndefined();
  });

  it('takes as long for an unknown e-mail as for a wrong password (both hash a password)', async () => {
    const person = await personWithPassword();
    const time = async (email: string, address: string) => {
      const started = performance.now();
      await attempt(email, 'not the password', address);
      return performance.now() - started;
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      wrong.push(await time(person.email, `192.0.2.${10 + i}`));
      unknown.push(await time(`ghost-${i}@example.test`, `192.0.2.${20 + i}`));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1];
    // A scrypt hash is tens of milliseconds here; a look-up that skipped it would be a few.
    expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
  });

  it('refuses an account after 5 failures in 15 minutes (429 with Retry-After), even with the right password, until the window passes', async () => {
    const person = await personWithPassword();
    for (let i = 0; i < 5; i++) expect((await attempt(person.email, `wrong ${i}`, `203.0.113.${i + 1}`)).statusCode).toBe(401);
    const refused = await attempt(person.email, PASSWORD, '203.0.113.99');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/Too many failed sign-ins for this account.*try again in 15 minute/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(sessionSetCookie(refused.headers)).toBeUndefined();
    // Another person is not locked out by it.
    const other = await personWithPassword();
    expect((await attempt(other.email, PASSWORD, '203.0.113.99')).statusCode).toBe(200);

    testApp.clock.advance(15 * 60 * 1000 + 1000);
    expect((await attempt(person.email, PASSWORD, '203.0.113.99')).statusCode).toBe(200);
  });

  it('refuses an address after 20 failures in 15 minutes across accounts, while other addresses still sign in', async () => {
    const person = await personWithPassword();
    for (let i = 0; i < 20; i++) {
      expect((await attempt(`guess-${i}@example.test`, 'wrong', '198.51.100.200')).statusCode).toBe(401);
    }
    const refused = await attempt(person.email, PASSWORD, '198.51.100.200');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/for your address/);
    expect((await attempt(person.email, PASSWORD, '198.51.100.201')).statusCode).toBe(200);
  });

  it('counts failures in the database, so that every process shares them', async () => {
    const person = await personWithPassword();
    await attempt(person.email, 'wrong', '198.51.100.77');
    const rows = await testApp.database.db.selectFrom('sign_in_failures').select('key').where('key', 'in', [`account:${person.email}`, 'address:198.51.100.77']).execute();
    expect(rows.map((row) => row.key).sort()).toEqual(['account:' + person.email, 'address:198.51.100.77'].sort());
  });

  it('refuses a person without a password as an unknown one', async () => {
    const { admin } = await buildOrganization(testApp);
    const response = await attempt(admin.email, PASSWORD, '198.51.100.50');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toBe('The email address or the password is not right');
  });
});

describe('the session cookie', () => {
  const testApp = useTestApp();

  async function signedIn() {
    const { organizationId, admin } = await buildOrganization(testApp);
    await setPassword(testApp.app, admin.token, PASSWORD);
    return { organizationId, admin, session: await signInWithPassword(testApp.app, admin.email, PASSWORD) };
  }

  async function organizationCount(token: string) {
    return (await request(testApp.app, 'GET', '/v1/orgs', { token })).body.items.length;
  }

  it('writes with the CSRF token; refuses a write without it or with a wrong one (403) and changes nothing', async () => {
    const { admin, session } = await signedIn();
    const before = await organizationCount(admin.token);
    const without = await browser(testApp.app, 'POST', '/v1/orgs', { session, csrf: null, body: { title: 'Sneaky' } });
    expect(without.status).toBe(403);
    expect(without.body.error.message).toBe('This request came with the session cookie but a missing or wrong CSRF token; reload the app');
    const wrong = await browser(testApp.app, 'POST', '/v1/orgs', { session, csrf: 'x'.repeat(43), body: { title: 'Sneaky' } });
    expect(wrong.status).toBe(403);
    const otherSession = (await signedIn()).session;
    const anotherSessions = await browser(testApp.app, 'POST', '/v1/orgs', { session, csrf: otherSession.csrfToken, body: { title: 'Sneaky' } });
    expect(anotherSessions.status).toBe(403);
    expect(await organizationCount(admin.token)).toBe(before);

    const made = await browser(testApp.app, 'POST', '/v1/orgs', { session, body: { title: 'Honest' } });
    expect(made.status).toBe(201);
    expect(await organizationCount(admin.token)).toBe(before + 1);
  });

  it('changes nothing for a cross-site form post carrying the cookie', async () => {
    const { organizationId, admin, session } = await signedIn();
    const before = await organizationCount(admin.token);
    const form = (url: string, payload: string) =>
      testApp.app.inject({
        method: 'POST',
        url,
        headers: { cookie: `quire_session=${session.secret}`, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        payload,
      });
    expect((await form('/v1/orgs', 'title=Evil')).statusCode).toBe(403);
    expect((await form(`/v1/orgs/${organizationId}/link-invites`, 'role=admin')).statusCode).toBe(403);
    // A form's body is no JSON: refused before it is read (415), and the session stays.
    expect([403, 415]).toContain((await form('/auth/sign-out', '')).statusCode);
    expect(await organizationCount(admin.token)).toBe(before);
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/link-invites`, { token: admin.token })).body.items).toEqual([]);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session })).status).toBe(200);
  });

  it('lets a Bearer token win over the cookie, with no CSRF token needed', async () => {
    const { admin } = await signedIn();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { authorization: `Bearer ${admin.token}`, cookie: 'quire_session=not-a-session' },
      payload: { title: 'By token' },
    });
    expect(response.statusCode).toBe(201);
  });

  it('is not an API token in a cookie: a cookie holding an API token is refused', async () => {
    const { admin } = await signedIn();
    const response = await testApp.app.inject({ method: 'GET', url: '/v1/user', headers: { cookie: `quire_session=${admin.token}` } });
    expect(response.statusCode).toBe(401);
  });

  it("never stands for a visitor token: the administrator's session cookie opens no page of their visitor-auth site", async () => {
    const { org, path, open } = await publishSampleSite(testApp, 'visitor-auth');
    await setPassword(testApp.app, org.admin.token, PASSWORD);
    const session = await signInWithPassword(testApp.app, org.admin.email, PASSWORD);
    const page = await open(`${path}/reference`, { cookie: `quire_session=${session.secret}` });
    expect(page.response.statusCode).toBe(404);
    expect(page.response.body).not.toContain('Pro plans');
  });

  it('signs out with the CSRF token (204): the cookie is cleared and the session refused afterwards', async () => {
    const { session } = await signedIn();
    const refused = await browser(testApp.app, 'POST', '/auth/sign-out', { session, csrf: null });
    expect(refused.status).toBe(403);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session })).status).toBe(200);

    const out = await browser(testApp.app, 'POST', '/auth/sign-out', { session });
    expect(out.status).toBe(204);
    expect(sessionSetCookie(out.headers)).toMatch(/^quire_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    const after = await browser(testApp.app, 'GET', '/v1/user', { session });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/Your session has ended/);
    expect((await browser(testApp.app, 'GET', '/auth/state', { session })).body.session).toBeNull();
  });

  it('ends after 30 days', async () => {
    const { session } = await signedIn();
    testApp.clock.advance(29 * DAY);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session })).status).toBe(200);
    testApp.clock.advance(2 * DAY);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session })).status).toBe(401);
    expect((await browser(testApp.app, 'GET', '/auth/state', { session })).body.session).toBeNull();
  });

  it('writes when a session was last used at most once a minute', async () => {
    const { session } = await signedIn();
    const lastUsed = async () =>
      (await testApp.database.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', session.id).executeTakeFirstOrThrow()).last_used_at;
    const first = await lastUsed();
    await browser(testApp.app, 'GET', '/v1/user', { session });
    expect(await lastUsed()).toBe(first);
    testApp.clock.advance(61_000);
    await browser(testApp.app, 'GET', '/v1/user', { session });
    expect(await lastUsed()).not.toBe(first);
  });
});

describe('the session cookie under an https public URL', () => {
  const testApp = useTestApp({ QUIRE_PUBLIC_URL: 'https://docs.example.test' });

  it('is Secure', async () => {
    const { admin } = await buildOrganization(testApp);
    await setPassword(testApp.app, admin.token, PASSWORD);
    const response = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: admin.email, password: PASSWORD } });
    expect(sessionSetCookie(response.headers)).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });
});

describe('sessions, tokens and password of your own', () => {
  const testApp = useTestApp();

  async function person() {
    const { organizationId, admin } = await buildOrganization(testApp);
    await setPassword(testApp.app, admin.token, PASSWORD);
    return { organizationId, ...admin };
  }

  it('lists only your own sessions, marks the current one, and revokes only your own', async () => {
    const ada = await person();
    const bob = await person();
    const laptop = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    const phone = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    const bobs = await signInWithPassword(testApp.app, bob.email, PASSWORD);

    const list = await browser(testApp.app, 'GET', '/v1/user/sessions', { session: laptop });
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: any) => item.id).sort()).toEqual([laptop.id, phone.id].sort());
    expect(list.body.items.find((item: any) => item.id === laptop.id)).toMatchObject({ object: 'session', current: true, address: '127.0.0.1' });
    expect(list.body.items.find((item: any) => item.id === phone.id).current).toBe(false);

    expect((await browser(testApp.app, 'DELETE', `/v1/user/sessions/${bobs.id}`, { session: laptop })).status).toBe(404);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: bobs })).status).toBe(200);

    expect((await browser(testApp.app, 'DELETE', `/v1/user/sessions/${phone.id}`, { session: laptop })).status).toBe(204);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: phone })).status).toBe(401);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: laptop })).status).toBe(200);
  });

  it('creates a token whose secret is shown once, lists and revokes it; a read token only reads', async () => {
    const ada = await person();
    const session = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    const created = await browser(testApp.app, 'POST', '/v1/user/tokens', { session, body: { label: 'CI', scope: 'read' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'api-token', label: 'CI', scope: 'read', lastUsedAt: null });
    expect(created.body.token).toMatch(/^quire_/);

    const read = await request(testApp.app, 'GET', `/v1/orgs/${ada.organizationId}`, { token: created.body.token });
    expect(read.status).toBe(200);
    const write = await request(testApp.app, 'POST', `/v1/orgs/${ada.organizationId}/spaces`, { token: created.body.token, body: { title: 'Nope' } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toMatch(/may only read/);

    const list = await browser(testApp.app, 'GET', '/v1/user/tokens', { session });
    const listed = list.body.items.find((item: any) => item.id === created.body.id);
    expect(listed).toMatchObject({ label: 'CI', scope: 'read' });
    expect(listed.token).toBeUndefined();
    expect(listed.lastUsedAt).not.toBeNull();
    expect(list.body.items.every((item: any) => item.object === 'api-token')).toBe(true);

    const bob = await person();
    expect((await request(testApp.app, 'DELETE', `/v1/user/tokens/${created.body.id}`, { token: bob.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', '/v1/user', { token: created.body.token })).status).toBe(200);

    expect((await browser(testApp.app, 'DELETE', `/v1/user/tokens/${created.body.id}`, { session })).status).toBe(204);
    expect((await request(testApp.app, 'GET', '/v1/user', { token: created.body.token })).status).toBe(401);
  });

  it('makes write tokens that write, and refuses a session id as a token id', async () => {
    const ada = await person();
    const session = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    const created = await browser(testApp.app, 'POST', '/v1/user/tokens', { session, body: { label: 'Script', scope: 'write' } });
    const write = await request(testApp.app, 'POST', `/v1/orgs/${ada.organizationId}/spaces`, { token: created.body.token, body: { title: 'Yes' } });
    expect(write.status).toBe(201);
    expect((await browser(testApp.app, 'DELETE', `/v1/user/tokens/${session.id}`, { session })).status).toBe(404);
  });

  it('changes the password with the current one, and ends the other sessions', async () => {
    const ada = await person();
    const here = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    const elsewhere = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    const missing = await browser(testApp.app, 'PUT', '/v1/user/password', { session: here, body: { password: 'a new password' } });
    expect(missing.status).toBe(403);
    const wrong = await browser(testApp.app, 'PUT', '/v1/user/password', { session: here, body: { currentPassword: 'nope nope', password: 'a new password' } });
    expect(wrong.status).toBe(403);
    const changed = await browser(testApp.app, 'PUT', '/v1/user/password', { session: here, body: { currentPassword: PASSWORD, password: 'a new password' } });
    expect(changed.status).toBe(204);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: here })).status).toBe(200);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: elsewhere })).status).toBe(401);
    await signInWithPassword(testApp.app, ada.email, 'a new password');
  });
  it('counts wrong current passwords toward the account\'s limit (429 after 5), as sign-in does', async () => {
    const ada = await person();
    const session = await signInWithPassword(testApp.app, ada.email, PASSWORD);
    for (let i = 0; i < 5; i++) {
      const wrong = await browser(testApp.app, 'PUT', '/v1/user/password', { session, body: { currentPassword: `guess ${i} guess`, password: 'a new password' } });
      expect(wrong.status).toBe(403);
    }
    const limited = await browser(testApp.app, 'PUT', '/v1/user/password', { session, body: { currentPassword: PASSWORD, password: 'a new password' } });
    expect(limited.status).toBe(429);
    expect((await testApp.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: ada.email, password: PASSWORD } })).statusCode).toBe(429);
  });
});

describe('one-time sign-in links', () => {
  const testApp = useTestApp();

  it('signs in once, and says so the second time (400)', async () => {
    const { admin } = await buildOrganization(testApp);
    const link = await signInLinkFor(testApp, admin.userId);
    expect(link.url).toBe(`http://quire.test/sign-in/link/${link.token}`);
    const first = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in-link', payload: { token: link.token } });
    expect(first.statusCode).toBe(200);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: sessionOf(first) })).body.id).toBe(admin.userId);
    const second = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in-link', payload: { token: link.token } });
    expect(second.statusCode).toBe(400);
    expect(second.json().error.message).toBe('This link has expired or was used already; ask for a new one');
  });

  it('expires after an hour', async () => {
    const member = await buildMember(testApp, (await buildOrganization(testApp)).organizationId, 'read');
    const link = await signInLinkFor(testApp, member.userId);
    testApp.clock.advance(60 * 60 * 1000 + 1);
    const response = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in-link', payload: { token: link.token } });
    expect(response.statusCode).toBe(400);
  });

  it('sets a password when given one (a reset), ending the other sessions', async () => {
    const { admin } = await buildOrganization(testApp);
    await setPassword(testApp.app, admin.token, PASSWORD);
    const old = await signInWithPassword(testApp.app, admin.email, PASSWORD);
    const link = await signInLinkFor(testApp, admin.userId);
    const short = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in-link', payload: { token: link.token, password: 'short' } });
    expect(short.statusCode).toBe(400);
    const reset = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in-link', payload: { token: link.token, password: 'a brand new one' } });
    expect(reset.statusCode).toBe(200);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session: old })).status).toBe(401);
    await signInWithPassword(testApp.app, admin.email, 'a brand new one');
  });
});
