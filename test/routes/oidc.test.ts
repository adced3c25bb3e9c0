// OpenID Connect sign-in, against a real OpenID provider on 127.0.0.1 (oidc-provider),
// driven over HTTP the way a browser goes through it.
import type { ClientMetadata } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, stopTestApp, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';
import { signInAtProvider, startOpenIdProvider, type TestOpenIdProvider } from '../helpers/oidcProvider.ts';
import { signInLinkForEmail } from '../../src/services/signIn.ts';

const QUIRE = 'http://quire.test';
const SECRET = 'the client secret, never shown';
const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
let idp: TestOpenIdProvider;
let acme: Organization;
let other: Organization;
let team: { id: string };
/** Quire's providers: acme's, another organization's, and acme's with a wrong secret. */
const providers = {} as Record<'acme' | 'other' | 'wrongSecret', any>;

async function createProvider(organization: Organization, body: object) {
  const created = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/oidc-providers`, {
    token: organization.admin.token,
    body: { label: 'Company login', issuer: idp.issuer, clientSecret: SECRET, ...body },
  });
  expect(created.status).toBe(201);
  return created.body;
}

beforeAll(async () => {
  idp = await startOpenIdProvider();
  acme = await buildOrganization(testApp, 'Acme');
  other = await buildOrganization(testApp, 'Other');
  await buildMember(testApp, acme.organizationId, 'read', 'Olive Owner', 'olive@example.test');
  await buildMember(testApp, other.organizationId, 'read', 'Lou Red', 'lou@example.test');
  team = (await request(testApp.app, 'PUT', `/v1/orgs/${acme.organizationId}/teams`, { token: acme.admin.token, body: { title: 'Writers' } })).body;
  providers.acme = await createProvider(acme, { clientId: 'quire-acme', defaultRole: 'edit', defaultTeam: team.id });
  providers.other = await createProvider(other, { clientId: 'quire-other' });
  providers.wrongSecret = await createProvider(acme, { clientId: 'quire-acme-2', clientSecret: 'not the secret' });
  const client = (id: string, provider: any): ClientMetadata => ({
    client_id: id,
    client_secret: SECRET,
    redirect_uris: [provider.urls.callback],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  });
  idp.open([client('quire-acme', providers.acme), client('quire-other', providers.other), client('quire-acme-2', providers.wrongSecret)], {
    grace: { email: 'Grace@Example.test', name: 'Grace Hopper' },
    alan: { email: 'alan@example.test', name: 'Alan Turing' },
    ada: { email: 'ada@example.test', name: 'Ada Lovelace' },
    olive: { email: 'olive@example.test', name: 'Olive Owner' },
    lou: { email: 'lou@example.test', name: 'Lou Red' },
    unverified: { email: 'mallory@example.test', name: 'Mallory', emailVerified: false },
  });
});

afterAll(async () => {
  await idp?.close();
});

/** The browser opens the start URL; answers Quire's redirect and the state cookie it set. */
async function start(provider: { id: string }) {
  const started = await testApp.app.inject({ method: 'GET', url: `/sso/oidc/${provider.id}/start` });
  expect(started.statusCode).toBe(302);
  const cookie = String(started.headers['set-cookie']).split(';')[0];
  return { location: started.headers.location as string, cookie };
}

/** Quire's answer to the provider's redirect back, opened in a browser holding `cookie`. */
async function callback(url: string, cookie: string | undefined) {
  const answer = await testApp.app.inject({ method: 'GET', url: url.slice(QUIRE.length), headers: cookie ? { cookie } : {} });
  const cookies = ([] as string[]).concat((answer.headers['set-cookie'] as string | string[] | undefined) ?? []);
  const session = cookies.map((value) => /^quire_session=([^;]+)/.exec(value)?.[1]).find(Boolean);
  return { status: answer.statusCode, location: answer.headers.location as string, session, body: answer.body };
}

async function signIn(provider: { id: string }, login: string) {
  const { location, cookie } = await start(provider);
  const back = await signInAtProvider(location, login, QUIRE);
  return { back, cookie, answer: await callback(back, cookie) };
}

function errorOf(location: string): string {
  const url = new URL(location);
  expect(url.pathname).toBe('/sign-in');
  return url.searchParams.get('error')!;
}

describe('OpenID Connect providers', () => {
  it('are added by administrators, answer their start and callback URLs, and never show the client secret', async () => {
    expect(providers.acme).toMatchObject({
      object: 'oidc-provider',
      label: 'Company login',
      issuer: idp.issuer,
      clientId: 'quire-acme',
      defaultRole: 'edit',
      defaultTeam: { id: team.id },
      urls: {
        start: `${QUIRE}/sso/oidc/${providers.acme.id}/start`,
        callback: `${QUIRE}/sso/oidc/${providers.acme.id}/callback`,
      },
    });
    const path = `/v1/orgs/${acme.organizationId}/oidc-providers`;
    const answers = [
      providers.acme,
      (await request(testApp.app, 'GET', path, { token: acme.admin.token })).body,
      (await request(testApp.app, 'GET', `${path}/${providers.acme.id}`, { token: acme.admin.token })).body,
      (await request(testApp.app, 'PATCH', `${path}/${providers.wrongSecret.id}`, { token: acme.admin.token, body: { label: 'Second login' } })).body,
    ];
    expect(answers[1].items.map((item: any) => item.id).sort()).toEqual([providers.acme.id, providers.wrongSecret.id].sort());
    expect(answers[3].label).toBe('Second login');
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(SECRET);
    const stored = await testApp.database.db.selectFrom('oidc_providers').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(SECRET);
  });

  it('are for administrators only, and hidden from other organizations', async () => {
    const editor = await buildMember(testApp, acme.organizationId, 'edit');
    const path = `/v1/orgs/${acme.organizationId}/oidc-providers`;
    expect((await request(testApp.app, 'GET', path, { token: editor.token })).status).toBe(403);
    expect((await request(testApp.app, 'GET', `${path}/${providers.acme.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/orgs/${other.organizationId}/oidc-providers/${providers.acme.id}`, { token: other.admin.token })).status).toBe(404);
  });

  it('refuses an issuer that is not a URL, and a team of another organization, saying which field is wrong', async () => {
    const path = `/v1/orgs/${other.organizationId}/oidc-providers`;
    const base = { label: 'X', clientId: 'x', clientSecret: 'y' };
    const notUrl = await request(testApp.app, 'POST', path, { token: other.admin.token, body: { ...base, issuer: 'login.example.com' } });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.error.message).toMatch(/issuer/);
    const foreignTeam = await request(testApp.app, 'POST', path, { token: other.admin.token, body: { ...base, issuer: idp.issuer, defaultTeam: team.id } });
    expect(foreignTeam.status).toBe(400);
    expect(foreignTeam.body.error.message).toMatch(/defaultTeam/);
  });
});

describe('Signing in through OpenID Connect', () => {
  it("is offered on the sign-in page to addresses of the organization's e-mail domains", async () => {
    const claimed = await request(testApp.app, 'PATCH', `/v1/orgs/${other.organizationId}`, {
      token: other.admin.token,
      body: { emailDomains: ['other.test'] },
    });
    expect(claimed.status).toBe(200);
    const choices = await request(testApp.app, 'GET', '/auth/sso', { query: { email: 'someone@Other.test' } });
    expect(choices.body.items).toEqual([
      {
        kind: 'oidc',
        label: 'Company login',
        organization: { id: other.organizationId, title: 'Other' },
        startUrl: providers.other.urls.start,
      },
    ]);
    expect((await request(testApp.app, 'GET', '/auth/sso', { query: { email: 'someone@elsewhere.test' } })).body.items).toEqual([]);
  });

  it("is among the organization's sign-in choices its members see", async () => {
    const reader = await buildMember(testApp, other.organizationId, 'read');
    const logins = await request(testApp.app, 'GET', `/v1/orgs/${other.organizationId}/sso`, { token: reader.token });
    expect(logins.body.items).toEqual([{ id: providers.other.id, label: 'Company login', startURL: providers.other.urls.start }]);
  });

  it('sends the browser to the provider with state, nonce and PKCE', async () => {
    const { location, cookie } = await start(providers.acme);
    const url = new URL(location);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'quire-acme',
      redirect_uri: providers.acme.urls.callback,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(cookie).toBe(`quire_oidc_state=${url.searchParams.get('state')}`);
  });

  it('makes a new person an SSO member with the default role and team, and opens a session GET /v1/user accepts', async () => {
    const { answer } = await signIn(providers.acme, 'grace');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${QUIRE}/o/${acme.organizationId}/`);
    expect(answer.session).toBeTruthy();
    const user = await request(testApp.app, 'GET', '/v1/user', { headers: { cookie: `quire_session=${answer.session}` } });
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ email: 'grace@example.test', displayName: 'Grace Hopper' });
    const member = await request(testApp.app, 'GET', `/v1/orgs/${acme.organizationId}/members/${user.body.id}`, { token: acme.admin.token });
    expect(member.body).toMatchObject({ role: 'edit', sso: true });
    const teamMembers = await request(testApp.app, 'GET', `/v1/orgs/${acme.organizationId}/teams/${team.id}/members`, { token: acme.admin.token });
    expect(teamMembers.body.items.map((item: any) => item.organization.user.id)).toContain(user.body.id);
  });

  it('signs a known person in to the same account the next time', async () => {
    const first = await signIn(providers.acme, 'alan');
    const second = await signIn(providers.acme, 'alan');
    const ids = await Promise.all(
      [first, second].map(async ({ answer }) => (await request(testApp.app, 'GET', '/v1/user', { headers: { cookie: `quire_session=${answer.session}` } })).body.id),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(first.answer.session).not.toBe(second.answer.session);
  });

  it('refuses the same answer twice', async () => {
    const { back, cookie, answer } = await signIn(providers.acme, 'alan');
    expect(answer.status).toBe(303);
    const replay = await callback(back, cookie);
    expect(replay.status).toBe(303);
    expect(replay.session).toBeUndefined();
    expect(errorOf(replay.location)).toMatch(/unknown, was finished already/);
  });

  it('refuses an answer whose state was altered', async () => {
    const { location, cookie } = await start(providers.acme);
    const back = new URL(await signInAtProvider(location, 'alan', QUIRE));
    back.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const answer = await callback(back.href, `${cookie}x`);
    expect(answer.session).toBeUndefined();
    expect(errorOf(answer.location)).toMatch(/unknown/);
  });

  it('refuses an answer brought to a browser that did not start the sign-in', async () => {
    const { location } = await start(providers.acme);
    const answer = await callback(await signInAtProvider(location, 'alan', QUIRE), undefined);
    expect(answer.session).toBeUndefined();
    expect(errorOf(answer.location)).toMatch(/started in another browser/);
  });

  it('says the client credentials are wrong when the provider refuses the secret', async () => {
    const { answer } = await signIn(providers.wrongSecret, 'alan');
    expect(answer.session).toBeUndefined();
    expect(errorOf(answer.location)).toMatch(/refused Quire's client credentials .*invalid_client.*client ID and secret/);
    expect(answer.location).not.toContain(encodeURIComponent(SECRET));
  });

  it('refuses an e-mail address the provider says is not verified', async () => {
    const { answer } = await signIn(providers.acme, 'unverified');
    expect(answer.session).toBeUndefined();
    expect(errorOf(answer.location)).toMatch(/mallory@example.test is not verified/);
  });

  it("does not let another organization's provider into an account by claiming its address", async () => {
    // Grace's account was made through acme's provider (an earlier test); the other
    // organization's provider says it is Grace too.
    const { answer } = await signIn(providers.other, 'grace');
    expect(answer.session).toBeUndefined();
    expect(errorOf(answer.location)).toBe(
      'grace@example.test has a Quire account that has not used Company login before: sign in to Quire with it first (your password, or a sign-in link), then sign in with Company login once to link the two',
    );
    const members = await request(testApp.app, 'GET', `/v1/orgs/${other.organizationId}/members`, { token: other.admin.token });
    expect(members.body.items.map((member: any) => member.user.email)).not.toContain('grace@example.test');

    // Nor can a sign-in started at acme's provider be finished at the other's callback.
    const { location, cookie: stateCookie } = await start(providers.acme);
    const back = new URL(await signInAtProvider(location, 'alan', QUIRE));
    const crossed = await callback(`${QUIRE}/sso/oidc/${providers.other.id}/callback${back.search}`, stateCookie);
    expect(crossed.session).toBeUndefined();
    expect(errorOf(crossed.location)).toMatch(/unknown/);
  });

  it('links an existing account to the provider when its owner signs in through it while signed in to Quire', async () => {
    expect(errorOf((await signIn(providers.acme, 'olive')).answer.location)).toMatch(/has a Quire account that has not used/);

    const link = await signInLinkForEmail(testApp.app.ctx, 'olive@example.test');
    const opened = await request(testApp.app, 'POST', '/auth/sign-in-link', { body: { token: link.url.split('/').pop() } });
    const signedIn = String(opened.headers['set-cookie']).split(';')[0];
    const csrf = (await request(testApp.app, 'GET', '/auth/state', { headers: { cookie: signedIn } })).body.session.csrfToken;
    const started = await testApp.app.inject({ method: 'GET', url: `/sso/oidc/${providers.acme.id}/start?link=${encodeURIComponent(csrf)}`, headers: { cookie: signedIn } });
    const stateCookie = String(started.headers['set-cookie']).split(';')[0];
    const linked = await callback(await signInAtProvider(started.headers.location as string, 'olive', QUIRE), stateCookie);
    expect(linked.status).toBe(303);
    const olive = (await request(testApp.app, 'GET', '/v1/user', { headers: { cookie: `quire_session=${linked.session}` } })).body;
    expect(olive.email).toBe('olive@example.test');

    // From now on the provider signs her in without a session first.
    const again = (await signIn(providers.acme, 'olive')).answer;
    expect((await request(testApp.app, 'GET', '/v1/user', { headers: { cookie: `quire_session=${again.session}` } })).body.id).toBe(olive.id);
  });

  it("links nothing from a start without the session's CSRF token, as a link on any page (a published one on Quire's own origin too) would send a signed-in person to an attacker's provider", async () => {
    const link = await signInLinkForEmail(testApp.app.ctx, 'lou@example.test');
    const opened = await request(testApp.app, 'POST', '/auth/sign-in-link', { body: { token: link.url.split('/').pop() } });
    const signedIn = String(opened.headers['set-cookie']).split(';')[0];
    const csrf = (await request(testApp.app, 'GET', '/auth/state', { headers: { cookie: signedIn } })).body.session.csrfToken;
    const startWith = async (query: string) => {
      const started = await testApp.app.inject({ method: 'GET', url: `/sso/oidc/${providers.acme.id}/start${query}`, headers: { cookie: signedIn, 'sec-fetch-site': 'same-origin' } });
      const stateCookie = String(started.headers['set-cookie']).split(';')[0];
      return callback(await signInAtProvider(started.headers.location as string, 'lou', QUIRE), stateCookie);
    };
    for (const lure of ['', '?link=', `?link=${encodeURIComponent(csrf.slice(1))}x`]) {
      const lured = await startWith(lure);
      expect(lured.session).toBeUndefined();
      expect(errorOf(lured.location)).toMatch(/has a Quire account that has not used/);
    }
    expect((await startWith(`?link=${encodeURIComponent(csrf)}`)).status).toBe(303);
  });

  it('keeps its sessions working where the organization enforces SSO, which refuses tokens made outside SSO', async () => {
    const { answer } = await signIn(providers.acme, 'ada');
    const cookie = `quire_session=${answer.session}`;
    const state = await request(testApp.app, 'GET', '/auth/state', { headers: { cookie } });
    const made = await request(testApp.app, 'POST', '/v1/user/tokens', {
      headers: { cookie, 'x-csrf-token': state.body.session.csrfToken },
      body: { label: 'script', scope: 'read' },
    });
    expect(made.status).toBe(201);
    const enforced = await request(testApp.app, 'PATCH', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token, body: { sso: true } });
    expect(enforced.status).toBe(200);
    try {
      expect((await request(testApp.app, 'GET', '/v1/user', { headers: { cookie } })).status).toBe(200);
      expect((await request(testApp.app, 'GET', '/v1/user', { token: made.body.token })).status).toBe(401);
    } finally {
      await request(testApp.app, 'PATCH', `/v1/orgs/${acme.organizationId}`, { token: acme.admin.token, body: { sso: false } });
    }
  });

  it("keeps to Quire's private-address rule when it fetches from the provider", async () => {
    const strict = await startTestApp();
    try {
      const organization = await buildOrganization(strict, 'Strict');
      const path = `/v1/orgs/${organization.organizationId}/oidc-providers`;
      const body = { label: 'Inside', clientId: 'quire', clientSecret: SECRET };
      const plain = await request(strict.app, 'POST', path, { token: organization.admin.token, body: { ...body, issuer: idp.issuer } });
      expect(plain.status).toBe(400);
      expect(plain.body.error.message).toMatch(/issuer: must be an https URL/);
      const created = await request(strict.app, 'POST', path, { token: organization.admin.token, body: { ...body, issuer: 'https://127.0.0.1:9/' } });
      const started = await strict.app.inject({ method: 'GET', url: `/sso/oidc/${created.body.id}/start` });
      expect(started.statusCode).toBe(303);
      expect(errorOf(started.headers.location as string)).toMatch(/could not read the configuration .*private or local address/);
    } finally {
      await stopTestApp(strict);
    }
  });

  it('ends the sessions a provider opened when it is removed', async () => {
    const unrelated = await createProvider(acme, { clientId: 'quire-unrelated' });
    const { answer } = await signIn(providers.acme, 'alan');
    const cookie = `quire_session=${answer.session}`;
    expect((await request(testApp.app, 'GET', '/v1/user', { headers: { cookie } })).status).toBe(200);
    expect((await request(testApp.app, 'DELETE', `/v1/orgs/${acme.organizationId}/oidc-providers/${unrelated.id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', '/v1/user', { headers: { cookie } })).status).toBe(200);
    expect((await request(testApp.app, 'DELETE', `/v1/orgs/${acme.organizationId}/oidc-providers/${providers.acme.id}`, { token: acme.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', '/v1/user', { headers: { cookie } })).status).toBe(401);
    const gone = await testApp.app.inject({ method: 'GET', url: `/sso/oidc/${providers.acme.id}/start` });
    expect(gone.statusCode).toBe(303);
    expect(errorOf(gone.headers.location as string)).toMatch(/no longer exists/);
  });
});
