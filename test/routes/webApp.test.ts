// The browser app as HTTP sees it: its page at every link the API hands out, with a
// strict policy and no data; its assets; the sites' list at /sites; a site's own
// hostname still the site's; and what a server without the app's build answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ensureWebApp } from '../../src/webApp/build.ts';
import { testAppConfig, useTestApp } from '../helpers/app.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';

describe('the browser app', () => {
  // Made by the test run's global setup; here too, so that this file runs alone. The server itself never builds it.
  beforeAll(() => ensureWebApp(), 120_000);
  const testApp = useTestApp();

  /** Every `urls.app` the API answers for a published sample site's organization, space, page, change request, revision, site and collection. */
  async function appUrls(): Promise<string[]> {
    const { org, call, space, site } = await publishSampleSite(testApp);
    const orgUrl = (await call('GET', `/v1/orgs/${org.organizationId}`)).body.urls.app;
    const collection = (await call('POST', `/v1/orgs/${org.organizationId}/collections`, { title: 'Guides' })).body;
    const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const revision = (await call('GET', `/v1/spaces/${space.id}/content`)).body;
    const urls = [orgUrl, collection.urls.app, space.urls.app, pages[0].urls.app, pages[0].pages[0].urls.app, changeRequest.urls.app, revision.urls.app, site.urls.app];
    expect(urls.every((url) => typeof url === 'string' && url.startsWith('http://quire.test/'))).toBe(true);
    return urls.map((url: string) => new URL(url).pathname);
  }

  it("answers the app's page at every urls.app the API hands out and at the app's own paths, with a strict policy and no caching", async () => {
    const own = ['/', '/setup', '/sign-in', '/sign-in/link/token', '/invite/org/invite', '/account', '/o/org/members', '/o/org/teams', '/o/org/integrations/slack', '/o/org/openapi/petstore', '/o/org/settings', '/s/space/~/changes/', '/s/space/~/settings', '/integrations/slack'];
    for (const path of [...(await appUrls()), ...own]) {
      const response = await testApp.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.headers['cache-control']).toBe('no-cache');
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self';");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
      expect(policy).toContain("frame-ancestors 'none'");
    }
  });

  it('holds no data in the page: signed out, an organization and its space are not named in it', async () => {
    const { org, space } = await publishSampleSite(testApp);
    const title = (await testApp.app.inject({ method: 'GET', url: `/v1/orgs/${org.organizationId}`, headers: { authorization: `Bearer ${org.admin.token}` } })).json().title;
    for (const path of [`/o/${org.organizationId}/`, `/s/${space.id}/`]) {
      const page = await testApp.app.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(title);
      expect(page.body).not.toContain('Handbook');
      expect(page.body).not.toContain(space.id);
      expect(page.headers['set-cookie']).toBeUndefined();
    }
  });

  it('serves the scripts the page names from /app/assets, gzipped when the browser takes it, cached for good as their names change with them', async () => {
    const page = (await testApp.app.inject({ method: 'GET', url: '/sign-in' })).body;
    const script = page.match(/src="(\/app\/assets\/[^"]+\.js)"/)![1];
    const plain = await testApp.app.inject({ method: 'GET', url: script });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzipped = await testApp.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'gzip, br' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    for (const path of ['/app/assets/missing.js', '/app/assets/..%2Findex.html', `${script}.gz`]) {
      const missing = await testApp.app.inject({ method: 'GET', url: path });
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json().error.code).toBe(404);
    }
  });

  it("serves Font Awesome Free's icons by name for pages' icons, and their index with the words that find each, for the picker", async () => {
    const rocket = await testApp.app.inject({ method: 'GET', url: '/app/icons/rocket.svg' });
    expect(rocket.statusCode).toBe(200);
    expect(rocket.headers['content-type']).toBe('image/svg+xml');
    expect(rocket.body).toMatch(/^<svg [^>]*viewBox="[\d ]+"/);
    // Each file names its licence (CC BY 4.0), as Font Awesome ships it.
    expect(rocket.body).toContain('License - https://fontawesome.com/license/free');
    expect((await testApp.app.inject({ method: 'GET', url: '/app/icons/github.svg' })).statusCode).toBe(200);
    for (const path of ['/app/icons/no-such-icon.svg', '/app/icons/..%2F..%2Fpackage.json', '/app/icons/rocket', '/app/icons/Rocket.svg']) {
      const missing = await testApp.app.inject({ method: 'GET', url: path });
      expect(missing.statusCode, path).toBe(404);
      expect(missing.json().error.message, path).toContain("icons are Font Awesome Free's, by name");
    }
    const index = await testApp.app.inject({ method: 'GET', url: '/app/icons.json', headers: { 'accept-encoding': 'gzip' } });
    expect(index.headers['content-encoding']).toBe('gzip');
    const icons = (await testApp.app.inject({ method: 'GET', url: '/app/icons.json' })).json() as Array<{ name: string; label: string; terms: string[] }>;
    expect(icons.length).toBeGreaterThan(1500);
    expect(icons.find((icon) => icon.name === 'rocket')).toMatchObject({ label: 'Rocket', terms: expect.arrayContaining(['launch', 'space']) });
    expect(index.rawPayload.length).toBeLessThan(JSON.stringify(icons).length / 3);
  });

  it("keeps answering the API's JSON 404 at paths that are neither the app's nor a site's", async () => {
    for (const path of ['/nowhere', '/o', '/app/', '/v1/nothing']) {
      const response = await testApp.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.json().error.code).toBe(404);
    }
  });

  it('lists the public sites at /sites, the front page that / was before the app', async () => {
    const first = await publishSampleSite(testApp);
    await publishSampleSite(testApp);
    const list = await testApp.app.inject({ method: 'GET', url: '/sites' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(list.body).toContain(`http://quire.test${first.path}`);
  });

  it("leaves / at a site's own hostname to the site", async () => {
    const { call, sites, site, open } = await publishSampleSite(testApp);
    expect((await call('PATCH', `${sites}/${site.id}`, { hostname: 'help.webapp.example' })).status).toBe(200);
    const home = await open('/', { host: 'help.webapp.example' });
    expect(home.response.statusCode).toBe(200);
    expect(home.document.querySelector('main h1')!.textContent).toBe('Start here');
  });
});

describe('a server without the browser app built', () => {
  const testApp = useTestApp();

  it("answers the app's paths with 503 and says how to build it, and serves the API as ever", async () => {
    const app = await buildApp({ config: testAppConfig(testApp.testDatabase.env), database: testApp.database, webAppDirectory: null });
    try {
      for (const path of ['/', '/sign-in', '/o/org/']) {
        const response = await app.inject({ method: 'GET', url: path });
        expect(response.statusCode).toBe(503);
        expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(response.body).toContain('npm start');
        expect(response.body).toContain('npm run build:web');
      }
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
