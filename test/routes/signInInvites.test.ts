// Joining and signing in from elsewhere over HTTP (issue 73): link invites with their app
// URL and expiry, accepted by a new person or joined by a signed-in one; SAML's ACS
// signing a browser in; and the SSO providers offered for an address.
import { beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { authnRequestIdOf, createIdentityProvider, samlResponse, type TestIdentityProvider } from '../helpers/saml.ts';
import { browser, sessionOf, sessionSetCookie, setPassword, signInWithPassword } from '../helpers/signIn.ts';

const testApp = useTestApp();
const PASSWORD = 'correct horse battery';
const DAY = 24 * 60 * 60 * 1000;

async function createInvite(organization: { organizationId: string; admin: { token: string } }, body: object = { role: 'edit' }) {
  const response = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/link-invites`, { token: organization.admin.token, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const accept = (organizationId: string, inviteId: string, body: object) =>
  testApp.app.inject({ method: 'POST', url: `/auth/invites/${organizationId}/${inviteId}/accept`, payload: body });

describe('link invites', () => {
  it('answer their page in the app and expire in 14 days unless told otherwise', async () => {
    const organization = await buildOrganization(testApp);
    const invite = await createInvite(organization);
    expect(invite.urls.app).toBe(`http://quire.test/invite/${organization.organizationId}/${invite.id}`);
    const expires = Date.parse(invite.expiresAt) - testApp.clock.now().getTime();
    expect(Math.abs(expires - 14 * DAY)).toBeLessThan(60_000);

    const later = new Date(testApp.clock.now().getTime() + 2 * DAY).toISOString();
    expect((await createInvite(organization, { role: 'read', expiresAt: later })).expiresAt).toBe(later);
    const past = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/link-invites`, {
      token: organization.admin.token,
      body: { role: 'read', expiresAt: '2020-01-01T00:00:00.000Z' },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toMatch(/expiresAt/);
  });

  it('shows the organization and role to anyone holding the invite, and lets a new person join with a name and password, signed in', async () => {
    const organization = await buildOrganization(testApp, 'Acme Docs');
    const invite = await createInvite(organization);
    const preview = await browser(testApp.app, 'GET', `/auth/invites/${organization.organizationId}/${invite.id}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ organization: { id: organization.organizationId, title: 'Acme Docs' }, role: 'edit', expiresAt: invite.expiresAt });

    const short = await accept(organization.organizationId, invite.id, { name: 'Grace', email: 'grace@example.test', password: 'short' });
    expect(short.statusCode).toBe(400);
    const joined = await accept(organization.organizationId, invite.id, { name: 'Grace Hopper', email: 'Grace@Example.test', password: PASSWORD });
    expect(joined.statusCode).toBe(201);
    const session = sessionOf(joined);
    expect(joined.json().session.user).toMatchObject({ displayName: 'Grace Hopper', email: 'grace@example.test' });

    const organizationSeen = await browser(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}`, { session });
    expect(organizationSeen.status).toBe(200);
    const me = await browser(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/members/${joined.json().session.user.id}`, { session });
    expect(me.body.role).toBe('edit');
    // The password set there signs in.
    await signInWithPassword(testApp.app, 'grace@example.test', PASSWORD);
  });

  it('refuses an e-mail that has an account (409): that person signs in and joins from there', async () => {
    const organization = await buildOrganization(testApp);
    const elsewhere = await buildOrganization(testApp);
    const invite = await createInvite(organization, { role: 'read' });
    const response = await accept(organization.organizationId, invite.id, { name: 'Someone', email: elsewhere.admin.email, password: PASSWORD });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/Sign in first, then open the invite again/);
    expect(sessionSetCookie(response.headers)).toBeUndefined();

    await setPassword(testApp.app, elsewhere.admin.token, PASSWORD);
    const session = await signInWithPassword(testApp.app, elsewhere.admin.email, PASSWORD);
    const joined = await browser(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/invites/${invite.id}`, { session });
    expect(joined.status).toBe(200);
    expect((await browser(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}`, { session })).body.permissions.view).toBe(true);
  });

  it('refuses an expired invite everywhere (404): its page, accepting it and joining with it', async () => {
    const organization = await buildOrganization(testApp);
    const other = await buildOrganization(testApp);
    const soon = new Date(testApp.clock.now().getTime() + 60 * 60 * 1000).toISOString();
    const invite = await createInvite(organization, { role: 'admin', expiresAt: soon });
    testApp.clock.advance(2 * 60 * 60 * 1000);
    expect((await browser(testApp.app, 'GET', `/auth/invites/${organization.organizationId}/${invite.id}`)).status).toBe(404);
    const accepted = await accept(organization.organizationId, invite.id, { name: 'Late', email: 'late@example.test', password: PASSWORD });
    expect(accepted.statusCode).toBe(404);
    expect(accepted.json().error.message).toMatch(/has expired/);
    const joined = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/invites/${invite.id}`, { token: other.admin.token });
    expect(joined.status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}`, { token: other.admin.token })).status).toBe(404);
  });

  it('stops working once deleted (404)', async () => {
    const organization = await buildOrganization(testApp);
    const invite = await createInvite(organization);
    const deleted = await request(testApp.app, 'DELETE', `/v1/orgs/${organization.organizationId}/link-invites/${invite.id}`, { token: organization.admin.token });
    expect(deleted.status).toBe(204);
    expect((await browser(testApp.app, 'GET', `/auth/invites/${organization.organizationId}/${invite.id}`)).status).toBe(404);
    const accepted = await accept(organization.organizationId, invite.id, { name: 'Late', email: 'revoked@example.test', password: PASSWORD });
    expect(accepted.statusCode).toBe(404);
  });

  it('does not open an invite of another organization by a known id', async () => {
    const organization = await buildOrganization(testApp);
    const other = await buildOrganization(testApp);
    const invite = await createInvite(organization);
    expect((await browser(testApp.app, 'GET', `/auth/invites/${other.organizationId}/${invite.id}`)).status).toBe(404);
  });
});

describe('SAML sign-in to the app', () => {
  let idp: TestIdentityProvider;
  beforeAll(async () => {
    idp = await createIdentityProvider('app-idp.test');
  });

  async function samlOrganization() {
    const organization = await buildOrganization(testApp, 'Initech');
    const created = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/saml`, {
      token: organization.admin.token,
      body: { label: 'Okta', entityID: idp.entityID, ssoURL: idp.ssoURL, certificate: idp.certificate, defaultRole: 'read' },
    });
    expect(created.status).toBe(201);
    return { organization, provider: created.body };
  }

  async function postFromIdp(provider: any, email: string, accept?: string) {
    const started = await testApp.app.inject({ method: 'GET', url: `/sso/saml/${provider.id}/start` });
    const inResponseTo = authnRequestIdOf(started.headers.location as string);
    const response = samlResponse(idp, { inResponseTo, acsURL: provider.service.acsURL, audience: provider.service.entityID, email });
    return testApp.app.inject({
      method: 'POST',
      url: `/sso/saml/${provider.id}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
      payload: new URLSearchParams({ SAMLResponse: response, RelayState: '' }).toString(),
    });
  }

  it('opens a session for a browser (Accept: text/html) and sends it to the organization in the app (303)', async () => {
    const { organization, provider } = await samlOrganization();
    const answer = await postFromIdp(provider, 'milton@initech.test', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/o/${organization.organizationId}/`);
    const cookie = sessionSetCookie(answer.headers)!;
    expect(cookie).toMatch(/; HttpOnly; SameSite=Lax/);
    const secret = /^quire_session=([^;]*)/.exec(cookie)![1];
    const state = await testApp.app.inject({ method: 'GET', url: '/auth/state', headers: { cookie: `quire_session=${secret}` } });
    expect(state.json().session.user.email).toBe('milton@initech.test');
    const me = await testApp.app.inject({ method: 'GET', url: '/v1/user', headers: { cookie: `quire_session=${secret}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('milton@initech.test');
  });

  it('still answers an API client with a token (JSON), as before', async () => {
    const { provider } = await samlOrganization();
    const answer = await postFromIdp(provider, 'peter@initech.test');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ object: 'sso-session', token: expect.stringMatching(/^quire_/) });
    expect(sessionSetCookie(answer.headers)).toBeUndefined();
  });

  /** The session the ACS's cookie holds, with its CSRF token as the app reads it. */
  async function sessionFromAcs(answer: { headers: Record<string, unknown> }) {
    const secret = /^quire_session=([^;]*)/.exec(sessionSetCookie(answer.headers)!)![1];
    const state = await testApp.app.inject({ method: 'GET', url: '/auth/state', headers: { cookie: `quire_session=${secret}` } });
    return { secret, csrfToken: state.json().session.csrfToken as string, id: state.json().session.id as string };
  }

  it('keeps a SAML session where the organization enforces SSO, which refuses that person a password sign-in (403)', async () => {
    const { organization, provider } = await samlOrganization();
    const answer = await postFromIdp(provider, 'samir@initech.test', 'text/html');
    expect(answer.statusCode).toBe(303);
    const session = await sessionFromAcs(answer);
    const enforced = await request(testApp.app, 'PATCH', `/v1/orgs/${organization.organizationId}`, { token: organization.admin.token, body: { sso: true } });
    expect(enforced.status).toBe(200);
    expect((await browser(testApp.app, 'GET', '/v1/user', { session })).status).toBe(200);
    expect((await browser(testApp.app, 'PUT', '/v1/user/password', { session, body: { password: PASSWORD } })).status).toBe(204);

    const refused = await testApp.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: 'samir@initech.test', password: PASSWORD } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/requires single sign-on/);
  });

  it('offers the SAML providers of organizations that claim the address\'s domain', async () => {
    const { organization, provider } = await samlOrganization();
    const domain = `initech-${organization.organizationId.toLowerCase()}.test`;
    expect((await request(testApp.app, 'PATCH', `/v1/orgs/${organization.organizationId}`, { token: organization.admin.token, body: { emailDomains: [domain] } })).status).toBe(200);
    const choices = await browser(testApp.app, 'GET', `/auth/sso?email=${encodeURIComponent(`bill@${domain}`)}`);
    expect(choices.status).toBe(200);
    expect(choices.body.items).toEqual([
      { kind: 'saml', label: 'Okta', organization: { id: organization.organizationId, title: 'Initech' }, startUrl: provider.service.startURL },
    ]);
    expect((await browser(testApp.app, 'GET', '/auth/sso?email=bill@elsewhere.test')).body.items).toEqual([]);
    expect((await browser(testApp.app, 'GET', '/auth/sso?email=not-an-address')).status).toBe(400);
  });
});
