import { beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';
import { authnRequestIdOf, createIdentityProvider, samlResponse, type ResponseOptions, type TestIdentityProvider } from '../helpers/saml.ts';
import { sessionSetCookie, setPassword, signInWithPassword, type BrowserSession } from '../helpers/signIn.ts';

const testApp = useTestApp();
let idp: TestIdentityProvider;
let impostor: TestIdentityProvider;

beforeAll(async () => {
  [idp, impostor] = await Promise.all([createIdentityProvider('idp.test'), createIdentityProvider('impostor.test')]);
});

async function createProvider(organization: Organization, body: object = {}) {
  const created = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/saml`, {
    token: organization.admin.token,
    body: { label: 'Okta', entityID: idp.entityID, ssoURL: idp.ssoURL, certificate: idp.certificate, ...body },
  });
  expect(created.status).toBe(201);
  return created.body;
}

const LINKING = 'An account with this address already exists in Quire: sign in to Quire first, then use single sign-on to link it';

/** A browser session of a person, signed in with a password (set through their token). */
async function signedIn(person: { email: string; token: string }): Promise<BrowserSession> {
  await setPassword(testApp.app, person.token, 'a long enough password');
  return signInWithPassword(testApp.app, person.email, 'a long enough password');
}

interface StartOptions {
  /** The browser starting it is signed in to Quire with this session. */
  session?: BrowserSession;
  /** The start's `?link=` (the app gives the session's CSRF token to link); none by default. */
  link?: string;
}

async function startSignIn(provider: { id: string }, start: StartOptions = {}) {
  const started = await testApp.app.inject({
    method: 'GET',
    url: `/sso/saml/${provider.id}/start${start.link === undefined ? '' : `?link=${encodeURIComponent(start.link)}`}`,
    headers: start.session ? { cookie: `quire_session=${start.session.secret}` } : {},
  });
  expect(started.statusCode).toBe(302);
  return authnRequestIdOf(started.headers.location as string);
}

async function postResponse(provider: { id: string }, samlResponseBase64: string, accept?: string) {
  const answer = await testApp.app.inject({
    method: 'POST',
    url: `/sso/saml/${provider.id}/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    payload: new URLSearchParams({ SAMLResponse: samlResponseBase64, RelayState: '' }).toString(),
  });
  return {
    status: answer.statusCode,
    body: answer.body ? JSON.parse(answer.body) : undefined,
    location: answer.headers.location as string | undefined,
    session: sessionSetCookie(answer.headers as Record<string, unknown>),
  };
}

async function signIn(provider: any, options: Partial<ResponseOptions> & { email: string }, start: StartOptions & { accept?: string } = {}) {
  const inResponseTo = await startSignIn(provider, start);
  const response = samlResponse(idp, {
    inResponseTo,
    acsURL: provider.service.acsURL,
    audience: provider.service.entityID,
    ...options,
  });
  return { response, answer: await postResponse(provider, response, start.accept) };
}

describe('SAML providers', () => {
  it('creates a provider (201) with Quire\'s service endpoints, active once configured', async () => {
    const organization = await buildOrganization(testApp);
    const team = await request(testApp.app, 'PUT', `/v1/orgs/${organization.organizationId}/teams`, {
      token: organization.admin.token,
      body: { title: 'SSO people' },
    });
    const provider = await createProvider(organization, { defaultTeam: team.body.id, defaultRole: 'edit' });
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: idp.entityID,
      ssoURL: idp.ssoURL,
      defaultRole: 'edit',
      defaultTeam: { object: 'team', id: team.body.id, title: 'SSO people' },
      status: 'active',
      service: {
        acsURL: `http://quire.test/sso/saml/${provider.id}/acs`,
        startURL: `http://quire.test/sso/saml/${provider.id}/start`,
        entityID: `http://quire.test/sso/saml/${provider.id}/metadata`,
      },
      urls: { location: `http://quire.test/v1/orgs/${organization.organizationId}/saml/${provider.id}` },
    });
    expect(provider.certificate).toContain('BEGIN CERTIFICATE');

    const pending = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/saml`, {
      token: organization.admin.token,
      body: { label: 'Later' },
    });
    expect(pending.body).toMatchObject({ status: 'pending', ssoURL: '', defaultRole: 'read' });
    const list = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/saml`, {
      token: organization.admin.token,
    });
    expect(list.body.count).toBe(2);
    const logins = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/sso`, {
      token: organization.admin.token,
    });
    expect(logins.body).toEqual({ items: [{ id: provider.id, label: 'Okta', startURL: provider.service.startURL }] });
  });

  it('changes a provider field by field, and deletes it (204, then 404)', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const url = `/v1/orgs/${organization.organizationId}/saml/${provider.id}`;
    const changed = await request(testApp.app, 'PATCH', url, { token: organization.admin.token, body: { label: 'Azure', defaultRole: null } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ label: 'Azure', defaultRole: null, entityID: idp.entityID });
    expect((await request(testApp.app, 'DELETE', url, { token: organization.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token: organization.admin.token })).status).toBe(404);
  });

  it('refuses invalid certificates, labels, URLs and teams of other organizations (400)', async () => {
    const organization = await buildOrganization(testApp);
    const other = await buildOrganization(testApp);
    const foreignTeam = await request(testApp.app, 'PUT', `/v1/orgs/${other.organizationId}/teams`, {
      token: other.admin.token,
      body: { title: 'Theirs' },
    });
    const cases: Array<[object, string]> = [
      [{ label: 'Okta', certificate: '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----' }, 'certificate'],
      [{ label: 'Okta', certificate: 'x'.repeat(10_001) }, 'certificate'],
      [{ label: '' }, 'label'],
      [{ label: 'x'.repeat(31) }, 'label'],
      [{ label: 'Okta', ssoURL: 'not a url' }, 'ssoURL'],
      [{ label: 'Okta', entityID: 'e'.repeat(1025) }, 'entityID'],
      [{ label: 'Okta', defaultTeam: foreignTeam.body.id }, 'defaultTeam'],
      [{ label: 'Okta', defaultRole: 'owner' }, 'defaultRole'],
      [{}, 'label'],
    ];
    for (const [body, field] of cases) {
      const refused = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/saml`, {
        token: organization.admin.token,
        body,
      });
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.body.error.message).toContain(field);
    }
  });

  it('accepts a certificate given as the bare base64 body identity providers often show', async () => {
    const organization = await buildOrganization(testApp);
    const bare = idp.certificate.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const provider = await createProvider(organization, { certificate: bare });
    expect(provider.certificate.startsWith('-----BEGIN CERTIFICATE-----')).toBe(true);
  });

  it('lets only administrators manage providers (403) and hides them from other organizations (404)', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const editor = await buildMember(testApp, organization.organizationId, 'create');
    const stranger = await buildOrganization(testApp);
    const url = `/v1/orgs/${organization.organizationId}/saml/${provider.id}`;
    expect((await request(testApp.app, 'GET', url, { token: editor.token })).status).toBe(403);
    expect((await request(testApp.app, 'PATCH', url, { token: editor.token, body: { label: 'x' } })).status).toBe(403);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/sso`, { token: editor.token })).status).toBe(200);
  });
});

describe('signing in through SAML', () => {
  it('redirects startURL to the identity provider with an AuthnRequest for Quire\'s ACS', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const started = await testApp.app.inject({ method: 'GET', url: `/sso/saml/${provider.id}/start` });
    expect(started.statusCode).toBe(302);
    const location = new URL(started.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(idp.ssoURL);
    const { inflateRawSync } = await import('node:zlib');
    const xml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString();
    expect(xml).toContain(`AssertionConsumerServiceURL="${provider.service.acsURL}"`);
    expect(xml).toContain(provider.service.entityID);
    const metadata = await testApp.app.inject({ method: 'GET', url: `/sso/saml/${provider.id}/metadata` });
    expect(metadata.body).toContain(`entityID="${provider.service.entityID}"`);
    expect(metadata.body).toContain(provider.service.acsURL);
  });

  it('makes a signed-in person an SSO member with the default role and team, and issues a working token', async () => {
    const organization = await buildOrganization(testApp);
    const team = await request(testApp.app, 'PUT', `/v1/orgs/${organization.organizationId}/teams`, {
      token: organization.admin.token,
      body: { title: 'From Okta' },
    });
    const provider = await createProvider(organization, { defaultTeam: team.body.id, defaultRole: 'comment' });
    const { answer } = await signIn(provider, { email: 'Sam.Single@Example.test', name: 'Sam Single' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      object: 'sso-session',
      organization: organization.organizationId,
      user: { object: 'user', displayName: 'Sam Single', email: 'sam.single@example.test' },
    });
    const me = await request(testApp.app, 'GET', '/v1/user', { token: answer.body.token });
    expect(me.status).toBe(200);
    const member = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/members/${me.body.id}`, {
      token: organization.admin.token,
    });
    expect(member.body).toMatchObject({ role: 'comment', sso: true, teams: 1 });

    // Signing in again keeps the member (and their role) and gives a new token.
    await request(testApp.app, 'PATCH', `/v1/orgs/${organization.organizationId}/members/${me.body.id}`, {
      token: organization.admin.token,
      body: { role: 'edit' },
    });
    const again = await signIn(provider, { email: 'sam.single@example.test' });
    expect(again.answer.status).toBe(200);
    expect(again.answer.body.token).not.toBe(answer.body.token);
    expect(again.answer.body.user.id).toBe(me.body.id);
    const after = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/members/${me.body.id}`, {
      token: organization.admin.token,
    });
    expect(after.body).toMatchObject({ role: 'edit', sso: true });
  });

  it('accepts a response signed as a whole rather than in its assertion', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const { answer } = await signIn(provider, { email: 'whole@example.test', sign: 'response' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it('refuses a replayed response (401), even though the first use succeeded', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const { response, answer } = await signIn(provider, { email: 'replay@example.test' });
    expect(answer.status).toBe(200);
    const replayed = await postResponse(provider, response);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.message).toMatch(/refused/);
  });

  it('refuses expired, unsigned, wrongly signed, misaddressed and foreign responses (401)', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const cases: Array<[string, Partial<ResponseOptions>, RegExp]> = [
      ['expired', { validForSeconds: -600 }, /expired|NotOnOrAfter|no valid subject confirmation/i],
      ['unsigned', { sign: 'none' }, /signature/i],
      ['signed by another key', { signingKey: impostor.privateKey }, /signature/i],
      ['for another audience', { audience: 'https://someone-else.test/sp' }, /audience/i],
      ['for another destination', { destination: 'https://someone-else.test/acs' }, /addressed/],
      ['for another recipient', { recipient: 'https://someone-else.test/acs' }, /recipient/i],
      ['from another issuer', { issuer: 'https://impostor.test/metadata' }, /issuer/],
    ];
    for (const [label, options, reason] of cases) {
      const { answer } = await signIn(provider, { email: `${label.replace(/\W/g, '')}@example.test`, ...options });
      expect(answer.status, label).toBe(401);
      expect(answer.body.error.message, label).toMatch(reason);
    }
    const unsolicited = await postResponse(
      provider,
      samlResponse(idp, {
        inResponseTo: '_never-sent',
        acsURL: provider.service.acsURL,
        audience: provider.service.entityID,
        email: 'unsolicited@example.test',
      }),
    );
    expect(unsolicited.status).toBe(401);
    const missing = await testApp.app.inject({
      method: 'POST',
      url: `/sso/saml/${provider.id}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'RelayState=x',
    });
    expect(missing.statusCode).toBe(400);
    const members = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/members`, {
      token: organization.admin.token,
    });
    expect(members.body.count).toBe(1);
  });

  it('answers 404 for unknown providers and 400 for providers not configured yet', async () => {
    const organization = await buildOrganization(testApp);
    const pending = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/saml`, {
      token: organization.admin.token,
      body: { label: 'Later' },
    });
    expect((await testApp.app.inject({ method: 'GET', url: '/sso/saml/nope/start' })).statusCode).toBe(404);
    const notReady = await testApp.app.inject({ method: 'GET', url: `/sso/saml/${pending.body.id}/start` });
    expect(notReady.statusCode).toBe(400);
    expect(JSON.parse(notReady.body).error.message).toMatch(/not configured/);
  });

  it('with SSO enforced, refuses SSO members their tokens made outside SSO, and keeps others working', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const writer = await buildMember(testApp, organization.organizationId, 'edit');
    const session = await signedIn(writer);
    const { answer } = await signIn(provider, { email: writer.email }, { session, link: session.csrfToken });
    expect(answer.status).toBe(200);

    // Not enforced yet: both of the writer's tokens work.
    expect((await request(testApp.app, 'GET', '/v1/user', { token: writer.token })).status).toBe(200);
    const enforced = await request(testApp.app, 'PATCH', `/v1/orgs/${organization.organizationId}`, {
      token: organization.admin.token,
      body: { sso: true },
    });
    expect(enforced.status).toBe(200);

    const refused = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/spaces`, { token: writer.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/single sign-on/);
    expect((await request(testApp.app, 'GET', '/v1/user', { token: answer.body.token })).status).toBe(200);
    // The administrator is not an SSO member: their token still works.
    expect((await request(testApp.app, 'GET', '/v1/user', { token: organization.admin.token })).status).toBe(200);

    // Removing the provider revokes the tokens it issued.
    await request(testApp.app, 'DELETE', `/v1/orgs/${organization.organizationId}/saml/${provider.id}`, {
      token: organization.admin.token,
    });
    expect((await request(testApp.app, 'GET', '/v1/user', { token: answer.body.token })).status).toBe(401);
  });
});

describe('which account a SAML provider signs in', () => {
  it("refuses another organization's provider that asserts an existing person's address: no token, no session, no membership", async () => {
    const victimsOrganization = await buildOrganization(testApp);
    const victim = await buildMember(testApp, victimsOrganization.organizationId, 'admin');
    const attacker = await buildOrganization(testApp);
    const provider = await createProvider(attacker);

    const { answer } = await signIn(provider, { email: victim.email.toUpperCase() });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ error: { code: 409, message: LINKING } });
    expect(answer.session).toBeUndefined();

    const browser = (await signIn(provider, { email: victim.email, nameID: 'victim' }, { accept: 'text/html' })).answer;
    expect(browser.status).toBe(303);
    expect(browser.location).toBe(`http://quire.test/sign-in?error=${encodeURIComponent(LINKING)}`);
    expect(browser.session).toBeUndefined();

    const members = await request(testApp.app, 'GET', `/v1/orgs/${attacker.organizationId}/members`, { token: attacker.admin.token });
    expect(members.body.items.map((member: any) => member.user.email)).not.toContain(victim.email);
  });

  it('links an existing account when its owner starts the sign-in signed in to Quire, and signs it in from then on', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization, { defaultRole: 'edit' });
    const elsewhere = await buildOrganization(testApp);
    const person = await buildMember(testApp, elsewhere.organizationId, 'read');

    const session = await signedIn(person);
    const linked = (await signIn(provider, { email: person.email, nameID: 'emp-1001' }, { session, link: session.csrfToken, accept: 'text/html' })).answer;
    expect(linked.status).toBe(303);
    expect(linked.location).toBe(`/o/${organization.organizationId}/`);
    const cookie = /^quire_session=([^;]*)/.exec(linked.session!)![1];
    const me = await testApp.app.inject({ method: 'GET', url: '/v1/user', headers: { cookie: `quire_session=${cookie}` } });
    expect(me.json().id).toBe(person.userId);

    // Without a session now: the NameID is hers.
    const again = (await signIn(provider, { email: person.email, nameID: 'emp-1001' })).answer;
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(person.userId);
    const member = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/members/${person.userId}`, { token: organization.admin.token });
    expect(member.body).toMatchObject({ role: 'edit', sso: true });
  });

  it("links nothing from a signed-in person's start without their session's CSRF token, as a link on any page would send them", async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const person = await buildMember(testApp, (await buildOrganization(testApp)).organizationId, 'read');
    const session = await signedIn(person);
    for (const link of [undefined, '', `${session.csrfToken.slice(1)}x`]) {
      const { answer } = await signIn(provider, { email: person.email, nameID: 'lured' }, { session, link });
      expect(answer.status).toBe(409);
      expect(answer.body.error.message).toBe(LINKING);
    }
  });

  it('signs the same account in by its NameID when the asserted address changes, and never the account of the new address', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const first = (await signIn(provider, { email: 'kim.old@example.test', nameID: 'emp-2002', name: 'Kim' })).answer;
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const someoneElse = await buildMember(testApp, (await buildOrganization(testApp)).organizationId, 'read', 'Other Kim', 'kim.new@example.test');

    const renamed = (await signIn(provider, { email: 'kim.new@example.test', nameID: 'emp-2002' })).answer;
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.id).toBe(first.body.user.id);
    expect(renamed.body.user.id).not.toBe(someoneElse.userId);
    expect(renamed.body.user.email).toBe('kim.old@example.test');
  });

  it('refuses a transient NameID, which would name a new person at every sign-in', async () => {
    const organization = await buildOrganization(testApp);
    const provider = await createProvider(organization);
    const { answer } = await signIn(provider, { email: 'temp@example.test', nameID: '_t8f3a', nameIDFormat: 'transient' });
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toMatch(/NameID is transient/);
  });
});
