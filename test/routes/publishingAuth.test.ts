import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';

const testApp = useTestApp();

const sign = (key: string, claims: Record<string, unknown> = {}) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));

describe("a site's visitor authentication settings", () => {
  it("answers in GitBook's SitePublishingAuth shape: the custom backend and the key, no URLs until set", async () => {
    const { call, sites, site } = await publishSampleSite(testApp, 'visitor-auth');
    const auth = await call('GET', `${sites}/${site.id}/publishing/auth`);
    expect(auth.status).toBe(200);
    expect(auth.body).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: expect.stringMatching(/^\S{32,}$/) });
  });

  it('stores the fallback and logout URLs, leaves an absent one as it was, and unsets one given null', async () => {
    const { call, sites, site } = await publishSampleSite(testApp, 'visitor-auth');
    const url = `${sites}/${site.id}/publishing/auth`;
    const set = await call('PATCH', url, { backend: 'custom', fallbackURL: 'https://login.example.com/start', logoutURL: 'https://login.example.com/out' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ fallbackURL: 'https://login.example.com/start', logoutURL: 'https://login.example.com/out' });
    const kept = await call('PATCH', url, { backend: 'custom', logoutURL: null });
    expect(kept.body.fallbackURL).toBe('https://login.example.com/start');
    expect(kept.body).not.toHaveProperty('logoutURL');
    expect((await call('GET', url)).body).toEqual(kept.body);
  });

  it('refuses a URL a reader could not be sent to, and the integration backend with no visitor authentication integration on the site, saying why', async () => {
    const { call, sites, site } = await publishSampleSite(testApp, 'visitor-auth');
    const url = `${sites}/${site.id}/publishing/auth`;
    const relative = await call('PATCH', url, { backend: 'custom', fallbackURL: '/login' });
    expect(relative.status).toBe(400);
    expect(relative.body.error.message).toMatch(/fallbackURL must be an absolute URL/);
    const script = await call('PATCH', url, { backend: 'custom', logoutURL: 'javascript:alert(1)' });
    expect(script.status).toBe(400);
    expect(script.body.error.message).toMatch(/logoutURL must be an http or https URL/);
    const integration = await call('PATCH', url, { backend: 'integration' });
    expect(integration.status).toBe(400);
    expect(integration.body.error.message).toMatch(/needs a visitor authentication integration \(one with the site:visitor:auth scope\) installed on this site/);
    expect((await call('PATCH', url, { fallbackURL: 'https://login.example.com' })).status).toBe(400);
    expect((await call('GET', url)).body).not.toHaveProperty('fallbackURL');
  });

  it('sends a reader without a valid token to the fallback URL with the page asked for, and answers 404 without one', async () => {
    const { call, sites, site, path, open } = await publishSampleSite(testApp, 'visitor-auth');
    expect((await open(`${path}/reference`)).response.statusCode).toBe(404);
    await call('PATCH', `${sites}/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/start?from=docs' });
    const sent = (await open(`${path}/reference`)).response;
    expect(sent.statusCode).toBe(302);
    expect(sent.headers.location).toBe('https://login.example.com/start?from=docs&location=%2Freference');
    expect((await open(`${path}/reference?jwt_token=${await sign('not-the-key')}`)).response.headers.location).toMatch(/^https:\/\/login\.example\.com\//);
    const { privateKey } = (await call('GET', `${sites}/${site.id}/publishing/auth`)).body;
    expect((await open(`${path}/reference?jwt_token=${await sign(privateKey)}`)).response.statusCode).toBe(200);
  });

  it("answers GitBook's renderer the fallback URL for a visitor without a valid token when it asks with redirectOnError, and 401 when it does not", async () => {
    const { call, sites, site, path } = await publishSampleSite(testApp, 'visitor-auth');
    const page = `https://quire.test${path}/reference`;
    const resolve = (body: object) => request(testApp.app, 'POST', '/v1/urls/published', { body: { url: page, ...body } });
    expect((await resolve({ redirectOnError: true })).status).toBe(401);
    await call('PATCH', `${sites}/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/start' });
    const sent = await resolve({ redirectOnError: true, visitor: { jwtToken: await sign('not-the-key') } });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ target: 'external', site: site.id, redirect: 'https://login.example.com/start?location=%2Freference' });
    expect((await resolve({ redirectOnError: false })).status).toBe(401);
    const { privateKey } = (await call('GET', `${sites}/${site.id}/publishing/auth`)).body;
    expect((await resolve({ redirectOnError: true, visitor: { jwtToken: await sign(privateKey) } })).body).toMatchObject({ site: site.id, pathname: 'reference' });
  });

  it("links the site's pages to the logout URL for a signed-in visitor, and stops once it is unset", async () => {
    const { call, sites, site, path, open } = await publishSampleSite(testApp, 'visitor-auth');
    const url = `${sites}/${site.id}/publishing/auth`;
    const token = await sign((await call('GET', url)).body.privateKey);
    const signOut = async () => (await open(`${path}/reference?jwt_token=${token}`)).document.querySelector('nav.site-links a[href="https://login.example.com/out"]');
    expect(await signOut()).toBeNull();
    await call('PATCH', url, { backend: 'custom', logoutURL: 'https://login.example.com/out' });
    expect((await signOut())!.textContent).toBe('Sign out');
    await call('PATCH', url, { backend: 'custom', logoutURL: null });
    expect(await signOut()).toBeNull();
  });

  it('keeps the fallback URL of a site that is not visitor-auth or not published to itself', async () => {
    const { call, sites, site, path, open } = await publishSampleSite(testApp, 'share-link');
    await call('PATCH', `${sites}/${site.id}/publishing/auth`, { backend: 'custom', fallbackURL: 'https://login.example.com/start' });
    expect((await open(path)).response.statusCode).toBe(404);
    await call('PATCH', `${sites}/${site.id}`, { visibility: 'visitor-auth' });
    await call('POST', `${sites}/${site.id}/unpublish`);
    expect((await open(path)).response.statusCode).toBe(404);
  });

  it('regenerates the key: a token signed with the old key is refused, one signed with the new key opens the site', async () => {
    const { call, sites, site, path, open } = await publishSampleSite(testApp, 'visitor-auth');
    const url = `${sites}/${site.id}/publishing/auth`;
    await call('PATCH', url, { backend: 'custom', logoutURL: 'https://login.example.com/out' });
    const old = (await call('GET', url)).body.privateKey;
    const oldToken = await sign(old);
    const first = await open(`${path}/reference?jwt_token=${oldToken}`);
    expect(first.response.statusCode).toBe(200);
    const cookie = String(first.response.headers['set-cookie']).split(';')[0];
    const regenerated = await call('POST', `${url}/regenerate`);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body).toMatchObject({ object: 'publishing-auth', backend: 'custom', logoutURL: 'https://login.example.com/out' });
    expect(regenerated.body.privateKey).not.toBe(old);
    expect((await call('GET', url)).body.privateKey).toBe(regenerated.body.privateKey);
    expect((await open(`${path}/reference?jwt_token=${oldToken}`)).response.statusCode).toBe(404);
    expect((await open(`${path}/reference`, { cookie })).response.statusCode).toBe(404);
    expect((await open(`${path}/reference?jwt_token=${await sign(regenerated.body.privateKey)}`)).response.statusCode).toBe(200);
  });

  it('refuses, after regenerate, the site token the renderer was given for a visitor token signed with the old key', async () => {
    const { org, call, sites, site } = await publishSampleSite(testApp, 'visitor-auth');
    const url = `${sites}/${site.id}/publishing/auth`;
    const resolved = await request(testApp.app, 'POST', '/v1/urls/published', {
      body: { url: `https://quire.test/sites/${site.id}/reference`, visitor: { jwtToken: await sign((await call('GET', url)).body.privateKey) } },
    });
    expect(resolved.status).toBe(200);
    const published = `/v1/orgs/${org.organizationId}/sites/${site.id}/published`;
    expect((await request(testApp.app, 'GET', published, { token: resolved.body.apiToken })).status).toBe(200);
    await call('POST', `${url}/regenerate`);
    expect((await request(testApp.app, 'GET', published, { token: resolved.body.apiToken })).status).not.toBe(200);
  });

  it("is for the site's administrators only: members who may not manage it get 403, other organizations 404", async () => {
    const { org, sites, site } = await publishSampleSite(testApp, 'visitor-auth');
    const url = `${sites}/${site.id}/publishing/auth`;
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const stranger = await buildOrganization(testApp);
    for (const [method, path, body] of [['PATCH', url, { backend: 'custom', fallbackURL: 'https://evil.example.com' }], ['POST', `${url}/regenerate`, undefined]] as const) {
      expect((await request(testApp.app, method, path, { token: reader.token, body })).status).toBe(403);
      expect((await request(testApp.app, method, path, { token: stranger.admin.token, body })).status).toBe(404);
      expect((await request(testApp.app, method, path, { body })).status).toBe(401);
    }
    const auth = await request(testApp.app, 'GET', url, { token: org.admin.token });
    expect(auth.body).not.toHaveProperty('fallbackURL');
  });
});
