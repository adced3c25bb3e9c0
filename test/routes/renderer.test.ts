// GitBook's renderer, unchanged, reading Quire: each call shaped as the renderer sends
// it (packages/gitbook/src/lib/data/api.ts and lookup.ts), answered as @gitbook/api
// 0.202.0's OpenAPI document says GitBook answers it.
import { decodeJwt, SignJWT } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { expectGitBookAnswer } from '../helpers/gitbookContract.ts';
import { publishSampleSite, type Visibility } from '../helpers/publishedSite.ts';

const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });

const resolve = (body: object) => request(testApp.app, 'POST', '/v1/urls/published', { body });

/** A published sample site, resolved at a page URL as the renderer does (https, no port), with calls made with its site token. */
async function resolvedSite(visibility: Visibility = 'public') {
  const published = await publishSampleSite(testApp, visibility);
  const { site, org } = published;
  const siteRoot = `https://quire.test/sites/${site.id}`;
  const resolved = await resolve({ url: `${siteRoot}/start-here/setup`, redirectOnError: false });
  const asSite = (method: 'GET' | 'POST', path: string, body?: object) => request(testApp.app, method, path, { token: resolved.body.apiToken, body });
  return { ...published, siteRoot, resolved, asSite, orgSite: `/v1/orgs/${org.organizationId}/sites/${site.id}` };
}

let embedded: Server;
let embeddedOrigin: string;
beforeAll(async () => {
  embedded = createServer((req, res) => {
    if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Plain title</title><meta property="og:title" content="Release notes"><meta property="og:site_name" content="Acme Blog"><link rel="icon" href="/favicon.png"></head><body>Hi</body></html>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => embedded.listen(0, '127.0.0.1', done));
  embeddedOrigin = `http://127.0.0.1:${(embedded.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => embedded.close(() => done())));

describe('POST /v1/urls/published', () => {
  it("resolves a page URL at Quire's host to its site, site space, space, current revision and page path, with a site token of GitBook's shape", async () => {
    const { site, space, org, siteRoot, resolved } = await resolvedSite();
    expect(resolved.status).toBe(200);
    expectGitBookAnswer('resolvePublishedContentByUrl', resolved.body);
    const current = (await request(testApp.app, 'GET', `/v1/spaces/${space.id}`, { token: org.admin.token })).body.revision;
    expect(resolved.body).toMatchObject({
      site: site.id,
      space: space.id,
      organization: org.organizationId,
      revision: current,
      pathname: 'start-here/setup',
      basePath: `/sites/${site.id}/`,
      siteBasePath: `/sites/${site.id}/`,
      canonicalUrl: `${siteRoot}/start-here/setup`,
      complete: true,
    });
    expect(resolved.headers['x-gitbook-cache-tag']).toBe(`site:${site.id},space:${space.id}`);
    const token = decodeJwt(resolved.body.apiToken);
    expect(token).toMatchObject({ kind: 'site', organization: org.organizationId, site: site.id, siteSpace: resolved.body.siteSpace, space: space.id, spaces: [space.id], claims: {} });
    // Minted for the day, as GitBook's are: the same reader gets the same token, so the renderer's caches keep hitting.
    expect(token.exp! - token.iat!).toBe(24 * 60 * 60 + 5 * 60);
    expect((await resolve({ url: `${siteRoot}/reference`, cacheBust: 'x1' })).body.apiToken).toBe(resolved.body.apiToken);
  });

  it('resolves a custom hostname under its basename (sending a URL without it there), then sections and site spaces, saying when no deeper segment could name one', async () => {
    const { call, org, sites, site } = await publishSampleSite(testApp);
    const hostname = `docs-${site.id.toLowerCase()}.acme.example`;
    await call('PATCH', `${sites}/${site.id}`, { hostname, basename: 'docs' });
    const spaceWith = async (title: string) => {
      const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title })).body;
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Overview\n\nWords.' }] });
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
      return space.id as string;
    };
    const section = (await call('POST', `${sites}/${site.id}/sections`, { spaceId: await spaceWith('API v2'), title: 'API' })).body;
    await call('PATCH', `${sites}/${site.id}/sections/${section.id}`, { path: 'api' });
    const older = (await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: await spaceWith('API v1'), sectionId: section.id })).body;
    await call('PATCH', `${sites}/${site.id}/site-spaces/${older.id}`, { path: 'v1' });

    expect((await resolve({ url: `https://${hostname}/reference` })).body).toEqual({ target: 'content', redirect: `https://${hostname}/docs/reference` });
    const home = await resolve({ url: `https://${hostname}/docs/reference` });
    expectGitBookAnswer('resolvePublishedContentByUrl', home.body);
    expect(home.body).toMatchObject({ siteBasePath: '/docs/', basePath: '/docs/', pathname: 'reference', canonicalUrl: `https://${hostname}/docs/reference` });
    // The default section at the root: a longer URL might still name another section.
    expect(home.body.complete).toBe(false);
    const latest = await resolve({ url: `https://${hostname}/docs/api/overview` });
    expect(latest.body).toMatchObject({ siteSection: section.id, basePath: '/docs/api/', pathname: 'overview', complete: false });
    const first = await resolve({ url: `https://${hostname}/docs/api/v1/overview` });
    expect(first.body).toMatchObject({ siteSection: section.id, siteSpace: older.id, basePath: '/docs/api/v1/', pathname: 'overview', complete: true });
    // The published profile's URLs are the ones the renderer links to: a default is at its parent's URL.
    const profile = (await call('GET', `${sites}/${site.id}/published`)).body;
    const api = profile.structure.structure.find((entry: { id: string }) => entry.id === section.id);
    expect(api.urls.published).toBe(`https://${hostname}/docs/api`);
    expect(api.siteSpaces.map((siteSpace: { urls: { published: string } }) => siteSpace.urls.published)).toEqual([`https://${hostname}/docs/api`, `https://${hostname}/docs/api/v1`]);
    expect(profile.structure.structure[0].siteSpaces[0].urls.published).toBe(`https://${hostname}/docs`);
  });

  it('opens a share-link site at a URL holding an active key after its root, and a visitor-auth site to a valid visitor token, whose claims the token carries', async () => {
    const shared = await publishSampleSite(testApp, 'share-link');
    const root = `https://quire.test/sites/${shared.site.id}`;
    expect((await resolve({ url: `${root}/reference` })).status).toBe(404);
    const link = (await shared.call('POST', `${shared.sites}/${shared.site.id}/share-links`, { name: 'Partners' })).body;
    const opened = await resolve({ url: `${root}/${link.key}/reference` });
    expect(opened.body).toMatchObject({ shareKey: link.key, siteBasePath: `/sites/${shared.site.id}/${link.key}/`, pathname: 'reference' });
    expectGitBookAnswer('resolvePublishedContentByUrl', opened.body);
    // The token reads as the link allows, and not once the link is turned off.
    const asShared = (path: string) => request(testApp.app, 'GET', path, { token: opened.body.apiToken });
    expect((await asShared(`/v1/spaces/${shared.space.id}`)).status).toBe(200);
    await shared.call('PATCH', `${shared.sites}/${shared.site.id}/share-links/${link.id}`, { active: false });
    expect((await asShared(`/v1/spaces/${shared.space.id}`)).status).toBe(404);
    expect((await resolve({ url: `${root}/${link.key}/reference` })).status).toBe(404);

    const guarded = await publishSampleSite(testApp, 'visitor-auth');
    const guardedRoot = `https://quire.test/sites/${guarded.site.id}`;
    const refused = await resolve({ url: `${guardedRoot}/reference` });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('This site is for authenticated visitors: give their token as visitor.jwtToken');
    const { privateKey } = (await guarded.call('GET', `${guarded.sites}/${guarded.site.id}/publishing/auth`)).body;
    const visitorToken = (key: string) => new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    expect((await resolve({ url: `${guardedRoot}/reference`, visitor: { jwtToken: await visitorToken('not-the-key') } })).status).toBe(401);
    const visitor = await resolve({ url: `${guardedRoot}/reference`, visitor: { jwtToken: await visitorToken(privateKey), type: 'human' } });
    expect(visitor.status).toBe(200);
    expect(decodeJwt(visitor.body.apiToken)).toMatchObject({ claims: { plan: 'pro' }, authenticated: true });
    expect((await request(testApp.app, 'GET', `/v1/orgs/${guarded.org.organizationId}/sites/${guarded.site.id}/published`, { token: visitor.body.apiToken })).status).toBe(200);
  });

  it('answers 404 for what no published site shows and 400 for what is not a URL, with messages to act on', async () => {
    const { site, call, sites } = await publishSampleSite(testApp);
    expect((await resolve({ url: 'https://elsewhere.example/docs' })).body.error.message).toBe('No published site at https://elsewhere.example/docs');
    expect((await resolve({ url: 'https://quire.test/sites/nope/page' })).status).toBe(404);
    expect((await resolve({ url: 'https://quire.test/v1/orgs' })).status).toBe(404);
    const notUrl = await resolve({ url: 'not a url' });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.error.message).toBe('url: "not a url" is not an absolute URL');
    expect((await resolve({ url: 'ftp://quire.test/sites/x' })).status).toBe(400);
    expect((await resolve({})).status).toBe(400);
    await call('POST', `${sites}/${site.id}/unpublish`);
    expect((await resolve({ url: `https://quire.test/sites/${site.id}/reference` })).status).toBe(404);
  });
});

describe('a site token', () => {
  it("reads the site's published content through each of the renderer's calls, answered as GitBook's contract says, with GitBook's cache tags", async () => {
    const { site, space, org, orgSite, resolved, asSite } = await resolvedSite();
    const revision = resolved.body.revision;
    const profile = await asSite('GET', `${orgSite}/published`);
    expect(profile.status).toBe(200);
    expectGitBookAnswer('getPublishedContentSite', profile.body);
    expect(profile.headers['x-gitbook-cache-tag']).toBe(`site:${site.id}`);
    expect(Object.keys(profile.body.customizations.siteSpaces)).toEqual([resolved.body.siteSpace]);
    expect(profile.body.customizations.site.ai).toEqual({ mode: 'none', pageLinkSummaries: { enabled: false } });
    expect(profile.body.site.permissions).toMatchObject({ view: true, access: false, admin: false });

    const spaceRead = await asSite('GET', `/v1/spaces/${space.id}`);
    expectGitBookAnswer('getSpaceById', spaceRead.body);
    expect(spaceRead.headers['x-gitbook-cache-tag']).toBe(`space:${space.id}`);
    const revisionRead = await asSite('GET', `/v1/spaces/${space.id}/revisions/${revision}?metadata=true`);
    expectGitBookAnswer('getRevisionById', revisionRead.body);
    const [start] = revisionRead.body.pages;
    expect(start).toMatchObject({ kind: 'sheet', type: 'document', tags: [], layout: { width: 'default', title: true, outline: true }, documentId: expect.any(String) });
    const setup = start.pages[0];

    const document = await asSite('GET', `/v1/spaces/${space.id}/revisions/${revision}/page/${start.id}/document?evaluated=deterministic-only`);
    expect(document.status).toBe(200);
    expectGitBookAnswer('getPageDocumentInRevisionById', document.body);
    // The link written as setup.md#tools is the page it names, as the renderer links it.
    expect(JSON.stringify(document.body)).toContain(`{"kind":"page","page":"${setup.id}","anchor":"tools"}`);
    const byDocumentId = await asSite('GET', `/v1/spaces/${space.id}/documents/${start.documentId}`);
    expectGitBookAnswer('getDocumentById', byDocumentId.body);
    expect(byDocumentId.body).toEqual(document.body);
    const byPath = await asSite('GET', `/v1/spaces/${space.id}/revisions/${revision}/path/${encodeURIComponent('start-here/setup')}?format=document`);
    expect(byPath.body).toMatchObject({ id: setup.id, document: { object: 'document' } });
    expectGitBookAnswer('getPageInRevisionByPath', byPath.body);
    const markdown = await asSite('GET', `/v1/spaces/${space.id}/revisions/${revision}/page/${setup.id}?format=markdown`);
    expectGitBookAnswer('getPageInRevisionById', markdown.body);
    expect(markdown.body.markdown).toContain('npm install');
    const metaLinks = await asSite('GET', `/v1/spaces/${space.id}/revisions/${revision}/page/${setup.id}/meta-links`);
    expectGitBookAnswer('listRevisionPageMetaLinks', metaLinks.body);
    expect((await asSite('GET', `/v1/spaces/${space.id}/revisions/${revision}/reusable-contents/none/document?evaluated=deterministic-only&dereferenced=reusable-contents`)).body.error.message).toBe(
      'No reusable content with id "none" in this revision',
    );

    await request(testApp.app, 'POST', `${orgSite}/redirects`, { token: org.admin.token, body: { source: '/old/setup', destination: { kind: 'site-page', siteSpaceId: resolved.body.siteSpace, pageId: setup.id } } });
    const redirect = await asSite('GET', `${orgSite}/redirect?source=${encodeURIComponent('/old/setup')}`);
    expectGitBookAnswer('getSiteRedirectBySource', redirect.body);

    const searched = await asSite('POST', `${orgSite}/search`, { query: 'install', scope: { mode: 'default', currentSiteSpace: resolved.body.siteSpace } });
    expect(searched.status).toBe(200);
    expectGitBookAnswer('searchSiteContent', searched.body);
    expect(searched.body.items[0]).toMatchObject({ type: 'space', id: space.id, pages: [{ id: setup.id, rank: 1, ancestors: [{ title: 'Start here' }] }] });

    const embed = await asSite('GET', `/v1/spaces/${space.id}/embed?url=${encodeURIComponent(`${embeddedOrigin}/article`)}`);
    expect(embed.body).toEqual({ type: 'link', title: 'Release notes', site: 'Acme Blog', icon: `${embeddedOrigin}/favicon.png` });
    expectGitBookAnswer('getEmbedByUrlInSpace', embed.body);
    // What cannot be read is still a link, named by its address.
    const missing = await asSite('GET', `/v1/spaces/${space.id}/embed?url=${encodeURIComponent(`${embeddedOrigin}/gone`)}`);
    expect(missing.body).toEqual({ type: 'link', title: `${embeddedOrigin}/gone`, site: '127.0.0.1' });
    expect((await asSite('GET', `/v1/spaces/${space.id}/embed?url=javascript:alert(1)`)).status).toBe(400);
  });

  it('reads nothing else: other operations are refused, other sites and spaces are not found, and an unpublished site stops opening', async () => {
    const { site, space, org, orgSite, resolved, asSite, call, sites } = await resolvedSite();
    const other = await publishSampleSite(testApp);
    const refused = await asSite('GET', `/v1/orgs/${org.organizationId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("A site token reads its site's published content and nothing else");
    expect((await asSite('POST', `/v1/spaces/${space.id}/change-requests`, {})).status).toBe(403);
    expect((await asSite('GET', `/v1/spaces/${space.id}/change-requests/1/content`)).status).toBe(404);
    expect((await asSite('GET', `/v1/spaces/${other.space.id}`)).status).toBe(404);
    expect((await asSite('GET', `/v1/orgs/${other.org.organizationId}/sites/${other.site.id}/published`)).status).toBe(404);
    const forged = `${resolved.body.apiToken.slice(0, -4)}AAAA`;
    const unauthorized = await request(testApp.app, 'GET', `${orgSite}/published`, { token: forged });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body.error.message).toBe('The site token is invalid or has expired; resolve the URL again (POST /v1/urls/published) for a fresh one');
    // A day and a few minutes later the token has expired.
    testApp.clock.advance(25 * 60 * 60 * 1000);
    expect((await asSite('GET', `${orgSite}/published`)).status).toBe(401);
    const fresh = (await resolve({ url: `https://quire.test/sites/${site.id}/reference` })).body.apiToken;
    await call('POST', `${sites}/${site.id}/unpublish`);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${space.id}`, { token: fresh })).status).toBe(404);
  });

  it('answers each read with what its site shows at that moment: a space taken off the site, put back, and deleted', async () => {
    const { site, space, asSite, call, sites } = await resolvedSite();
    const pageId = (await asSite('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages[0].id;
    const reads = [`/v1/spaces/${space.id}`, `/v1/spaces/${space.id}/content/pages`, `/v1/spaces/${space.id}/content/page/${pageId}/document`];
    const statuses = async () => Promise.all(reads.map(async (path) => (await asSite('GET', path)).status));
    expect(await statuses()).toEqual([200, 200, 200]);
    const [shown] = (await call('GET', `${sites}/${site.id}/site-spaces`)).body.items;
    expect((await call('DELETE', `${sites}/${site.id}/site-spaces/${shown.id}`)).status).toBe(204);
    expect(await statuses()).toEqual([404, 404, 404]);
    expect((await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id })).status).toBe(201);
    expect(await statuses()).toEqual([200, 200, 200]);
    expect((await call('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    expect(await statuses()).toEqual([404, 404, 404]);
  });

  it("reads the latest version of its organization's OpenAPI specs, which published pages' blocks show, and no other version or organization", async () => {
    const { org, orgSite, asSite, call, sites, site } = await resolvedSite();
    const text = 'openapi: 3.1.0\ninfo: { title: Pets, version: 1.0.0 }\npaths:\n  /pets:\n    get:\n      summary: List pets\n      responses: { "200": { description: ok } }\n';
    await call('POST', `/v1/orgs/${org.organizationId}/openapi`, { slug: 'pets', source: { text } });
    const specs = `/v1/orgs/${org.organizationId}/openapi/pets`;
    for (let tries = 0; (await call('GET', specs)).body.processingState !== 'complete' && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    const latest = await asSite('GET', `${specs}/versions/latest/content`);
    expect(latest.status).toBe(200);
    expectGitBookAnswer('getLatestOpenAPISpecVersionContent', latest.body);
    expect((await asSite('GET', `${specs}/versions/latest`)).status).toBe(403);
    const other = await publishSampleSite(testApp);
    expect((await asSite('GET', `/v1/orgs/${other.org.organizationId}/openapi/pets/versions/latest/content`)).status).toBe(404);
    await call('POST', `${sites}/${site.id}/unpublish`);
    expect((await asSite('GET', `${specs}/versions/latest/content`)).status).toBe(404);
    void orgSite;
  });

  it("gives published files download URLs that stay the same all week and outlast the renderer's caches", async () => {
    const { space, org, resolved, asSite } = await resolvedSite();
    const changeRequest = (await request(testApp.app, 'POST', `/v1/spaces/${space.id}/change-requests`, { token: org.admin.token, body: {} })).body;
    await request(testApp.app, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: Buffer.from('png-bytes').toString('base64') }] }] },
    });
    await request(testApp.app, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: org.admin.token });
    const fresh = (await resolve({ url: `https://quire.test/sites/${resolved.body.site}/reference` })).body.apiToken;
    const files = async (token: string) => (await request(testApp.app, 'GET', `/v1/spaces/${space.id}/content/files`, { token })).body.items[0].downloadURL as string;
    const first = await files(fresh);
    testApp.clock.advance(60 * 1000);
    expect(await files(fresh)).toBe(first);
    testApp.clock.advance(2 * 60 * 60 * 1000);
    const later = await testApp.app.inject({ method: 'GET', url: new URL(first).pathname });
    expect(later.statusCode).toBe(200);
    expect(later.body).toBe('png-bytes');
    // Members' links are for an hour, as before.
    const member = await files(org.admin.token);
    expect(member).not.toBe(first);
    void asSite;
  });
});

describe('site search', () => {
  it("searches each section's default content and the reader's site space by default, one site space or all as asked, and never a hidden page", async () => {
    const { orgSite, resolved, asSite, call, org, sites, site } = await resolvedSite();
    const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Guides v1' })).body;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Legacy\n\nInstall the legacy agent.' }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const variant = (await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id })).body;
    const search = async (body: object) => (await asSite('POST', `${orgSite}/search`, body)).body;
    const spacesFound = (answer: { items: Array<{ title: string }> }) => answer.items.map((item) => item.title);
    expect(spacesFound(await search({ query: 'install', scope: { mode: 'default' } }))).toEqual(['Handbook']);
    expect(spacesFound(await search({ query: 'install', scope: { mode: 'default', currentSiteSpace: variant.id } })).sort()).toEqual(['Guides v1', 'Handbook']);
    expect(spacesFound(await search({ query: 'install', scope: { mode: 'default', currentSiteSpace: variant.id, restrictTo: 'currentSiteSpace' } }))).toEqual(['Guides v1']);
    expect(spacesFound(await search({ query: 'install', scope: { mode: 'specific', siteSpaceIds: [variant.id] } }))).toEqual(['Guides v1']);
    expect(spacesFound(await search({ query: 'install', scope: { mode: 'all' } })).sort()).toEqual(['Guides v1', 'Handbook']);
    expect((await search({ query: 'secret plans', scope: { mode: 'all' } })).items).toEqual([]);
    const unknown = await asSite('POST', `${orgSite}/search`, { query: 'install', scope: { mode: 'specific', siteSpaceIds: ['nope'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('scope.siteSpaceIds: no site space "nope" in this site');
    void resolved;
  });
});

describe('a page with a condition (adaptive content)', () => {
  it("is read by readers of published content whose claims meet it, with the pages under it, and by no other reader; members read every page and its condition", async () => {
    const { call, space, site, sites, path, open } = await publishSampleSite(testApp, 'visitor-auth');
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', ref: 'pro', document: '# Pro guide\n\nDedicated regions for pro plans.', condition: 'visitor.claims.plan == "pro"' },
        { operation: 'insert_page', ref: 'regions', into: 'pro', document: '# Regions\n\nPick a dedicated region.' },
        { operation: 'insert_page', ref: 'beta', document: '---\nif: visitor.claims.beta == true\n---\n\n# Beta features\n\nTry the beta dashboard.' },
        // Long enough that its conditions are decided on a worker thread.
        { operation: 'insert_page', ref: 'long', document: `# Long reference\n\n${'Plain words. '.repeat(6000)}\n\n{% if visitor.claims.plan == "pro" %}\nLong pro section.\n{% endif %}\n` },
      ],
    });
    expect(edited.status).toBe(200);
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).status).toBe(200);
    const content = `/v1/spaces/${space.id}/content`;
    const asMember = (await call('GET', `${content}/pages`)).body.pages as Array<{ id: string; title: string; condition?: string; pages: Array<{ id: string; title: string }> }>;
    const byTitle = (pages: typeof asMember, title: string) => pages.find((page) => page.title === title);
    expect(byTitle(asMember, 'Pro guide')).toMatchObject({ condition: 'visitor.claims.plan == "pro"', pages: [{ title: 'Regions' }] });
    expect(byTitle(asMember, 'Beta features')).toMatchObject({ condition: 'visitor.claims.beta == true' });
    const proGuide = byTitle(asMember, 'Pro guide')!;
    const regions = proGuide.pages[0];
    const beta = byTitle(asMember, 'Beta features')!;

    // Site tokens as GitBook's renderer gets them, for two visitors.
    const { privateKey } = (await call('GET', `${sites}/${site.id}/publishing/auth`)).body;
    const visitorToken = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(privateKey));
    const siteTokenFor = async (claims: Record<string, unknown>) =>
      (await resolve({ url: `https://quire.test/sites/${site.id}/reference`, visitor: { jwtToken: await visitorToken(claims) } })).body.apiToken as string;
    const pro = await siteTokenFor({ plan: 'pro' });
    const free = await siteTokenFor({ plan: 'free' });
    const read = (token: string, url: string, body?: object) => request(testApp.app, body ? 'POST' : 'GET', url, { token, body });
    const titles = (pages: Array<{ title: string; pages: unknown[] }>): string[] => pages.flatMap((page) => [page.title, ...titles(page.pages as typeof pages)]);

    const proPages = (await read(pro, `${content}/pages`)).body;
    expectGitBookAnswer('listPages', proPages);
    expect(titles(proPages.pages)).toEqual(expect.arrayContaining(['Pro guide', 'Regions']));
    expect(titles(proPages.pages)).not.toContain('Beta features');
    expect(proPages.pages.find((page: { title: string }) => page.title === 'Pro guide')).not.toHaveProperty('condition');
    expect((await read(pro, `${content}/page/${regions.id}`)).status).toBe(200);
    expect((await read(pro, `${content}/page/${beta.id}`)).status).toBe(404);

    expect(titles((await read(free, `${content}/pages`)).body.pages)).not.toEqual(expect.arrayContaining(['Pro guide']));
    expect(titles((await read(free, `${content}/pages`)).body.pages).filter((title) => ['Pro guide', 'Regions', 'Beta features'].includes(title))).toEqual([]);
    for (const url of [`${content}/page/${proGuide.id}`, `${content}/page/${regions.id}`, `${content}/page/${regions.id}/document`, `${content}/path/pro-guide/regions`, `${content}/path/pro-guide`]) {
      const refused = await read(free, url);
      expect(refused.status, url).toBe(404);
      expect(refused.body.error.code).toBe(404);
    }
    // Blocks shown on a condition are decided for the token's visitor, as GitBook's API does for its renderer (which draws nothing for an if block).
    const reference = byTitle(asMember, 'Reference')!;
    const asMarkdown = (await read(free, `${content}/page/${reference.id}`)).body.markdown as string;
    expect(asMarkdown).toContain('stays text.');
    expect(asMarkdown).not.toContain('Pro plans');
    expect(asMarkdown).not.toContain('{% if');
    expect((await read(pro, `${content}/page/${reference.id}`)).body.markdown).toContain('Pro plans get a dedicated region.');
    for (const [token, shown] of [[pro, true], [free, false]] as const) {
      for (const url of [`${content}/page/${reference.id}/document`, `${content}/page/${reference.id}?format=document`]) {
        const text = JSON.stringify((await read(token, url)).body);
        expect(text, url).not.toContain('"type":"if"');
        expect(text.includes('Pro plans get a dedicated region.'), url).toBe(shown);
        expect(text).not.toContain('Never shown.');
      }
    }
    const long = byTitle(asMember, 'Long reference')!;
    for (const [token, shown] of [[pro, true], [free, false]] as const) {
      for (const url of [`${content}/page/${long.id}`, `${content}/page/${long.id}/document`, `${content}/page/${long.id}?format=document`]) {
        const text = JSON.stringify((await read(token, url)).body);
        expect(text, url).toContain('Plain words.');
        expect(text.includes('Long pro section.'), url).toBe(shown);
        expect(text, url).not.toContain('{% if');
        expect(text, url).not.toContain('"type":"if"');
      }
    }
    const asMembers = JSON.stringify((await call('GET', `${content}/page/${reference.id}/document`)).body);
    expect(asMembers).toContain('"type":"if"');
    expect(asMembers).toContain('Never shown.');
    const search = async (token: string, query: string) =>
      (await read(token, `/v1/orgs/${space.organization}/sites/${site.id}/search`, { query, scope: { mode: 'all' } })).body.items.flatMap((found: { pages: Array<{ title: string }> }) => found.pages.map((page) => page.title));
    expect(await search(pro, 'dedicated region')).toEqual(expect.arrayContaining(['Pro guide', 'Regions']));
    // The Reference page says it too, in a block only pro visitors are shown.
    expect(await search(pro, 'dedicated region')).toContain('Reference');
    expect(await search(free, 'dedicated region')).toEqual([]);
    const freeResults = (await read(free, `/v1/orgs/${space.organization}/sites/${site.id}/search`, { query: 'plans', scope: { mode: 'all' } })).body;
    expect(JSON.stringify(freeResults)).not.toContain('Pro plans');
    expect(JSON.stringify(freeResults)).not.toContain('Never shown');

    // Quire's own reader, with the visitor's token.
    const proReader = await open(`${path}/pro-guide/regions?jwt_token=${await visitorToken({ plan: 'pro' })}`);
    expect(proReader.response.statusCode).toBe(200);
    expect(proReader.document.querySelector('main')!.textContent).toContain('Pick a dedicated region.');
    const freeJwt = await visitorToken({ plan: 'free' });
    expect((await open(`${path}/pro-guide/regions?jwt_token=${freeJwt}`)).response.statusCode).toBe(404);
    expect((await open(`${path}/pro-guide/regions.md?jwt_token=${freeJwt}`)).response.statusCode).toBe(404);
    expect((await open(`${path}/pro-guide/regions.md?jwt_token=${await visitorToken({ plan: 'pro' })}`)).response.statusCode).toBe(200);
    const freeReader = await open(`${path}/reference?jwt_token=${freeJwt}`);
    expect(freeReader.document.body.textContent).not.toContain('Pro guide');
    const readerSearch = (await open(`${path}?q=dedicated+region&jwt_token=${freeJwt}`)).document.querySelector('main')!.textContent!;
    expect(readerSearch).not.toContain('Pro plans');
    expect(readerSearch).not.toContain('Pick a dedicated region');
    expect((await open(`${path}?q=dedicated+region&jwt_token=${await visitorToken({ plan: 'pro' })}`)).document.querySelector('main')!.textContent).toContain('Pro plans get a dedicated region');
    const llms = (await open(`${path}/llms-full.txt?jwt_token=${freeJwt}`)).response.body;
    expect(llms).toContain('Welcome.');
    expect(llms).not.toContain('Dedicated regions for pro plans.');
    expect(llms).not.toContain('Pick a dedicated region.');

    // A condition that does not parse is refused; "" removes one.
    const next = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const nextContent = `/v1/spaces/${space.id}/change-requests/${next.id}/content`;
    const wrong = await call('POST', nextContent, { changes: [{ operation: 'update_page', page: proGuide.id, condition: 'visitor.claims.(' }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^changes\[0\]\.condition: the expression is invalid/);
    const wrongFront = await call('POST', nextContent, { changes: [{ operation: 'insert_page', document: '---\nif: alert(1)\n---\n\n# X' }] });
    expect(wrongFront.status).toBe(400);
    expect(wrongFront.body.error.message).toMatch(/^changes\[0\]\.document: front matter "if": the expression is invalid/);
    expect((await call('POST', nextContent, { changes: [{ operation: 'update_page', page: proGuide.id, condition: '' }] })).status).toBe(200);
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${next.id}/merge`)).status).toBe(200);
    expect(titles((await read(free, `${content}/pages`)).body.pages)).toEqual(expect.arrayContaining(['Pro guide', 'Regions']));
    expect(byTitle((await call('GET', `${content}/pages`)).body.pages, 'Pro guide')).not.toHaveProperty('condition');
  });
});
