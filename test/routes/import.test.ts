import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startTestApp, stopTestApp, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let site: Server;
let siteUrl: string;
const visits: string[] = [];

const html = (body: string, title = 'Site') => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const NAV = '<nav><a href="/docs/guide">Guide</a> <a href="/docs/slow">Slow</a> <a href="/docs/loop">Loop</a> <a href="/docs/huge">Huge</a> <a href="/private/secret">Secret</a> <a href="https://elsewhere.example/x">Elsewhere</a></nav>';

beforeAll(async () => {
  site = createServer((incoming, response) => {
    visits.push(incoming.url!);
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    switch (incoming.url) {
      case '/robots.txt':
        return send(200, 'text/plain', 'User-agent: *\nDisallow: /private/\n');
      case '/docs/':
        return send(200, 'text/html', html(`${NAV}<main><h1>Welcome</h1><p>Start with the <a href="/docs/guide">guide</a>.</p><p><img src="/img/logo.png" alt="Logo"></p></main><footer>© Site</footer>`, 'Docs home'));
      case '/docs/guide':
        return send(200, 'text/html', html(`${NAV}<main><h1>Guide</h1><p>See <a href="/docs/guide/install#steps">install</a> and go <a href="/docs/">home</a>.</p></main>`));
      case '/docs/guide/install':
        return send(200, 'text/html', html('<article><h1>Install</h1><h2 id="steps">Steps</h2><ul><li>Download</li><li>Run <code>setup</code></li></ul><table><tr><th>OS</th><th>Command</th></tr><tr><td>Linux</td><td>make</td></tr></table></article>'));
      case '/docs/slow':
        return;
      case '/docs/loop':
        response.writeHead(302, { location: '/docs/loop' });
        return response.end();
      case '/docs/huge':
        return send(200, 'text/html', html(`<main><h1>Huge</h1><p>${'x'.repeat(5 * 1024 * 1024)}</p></main>`));
      case '/private/secret':
        return send(200, 'text/html', html('<main><h1>Secret</h1></main>'));
      case '/img/logo.png':
        return send(200, 'image/png', PNG);
      default:
        return send(404, 'text/plain', 'not here');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

async function setup(app = testApp) {
  const org = await buildOrganization(app);
  const token = org.admin.token;
  const space = (await request(app.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token, body: { title: 'Imported' } })).body;
  const changeRequest = (await request(app.app, 'POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).body;
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  return { org, token, space, changeRequest, base };
}

const flatten = (pages: any[]): any[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

describe('website import', () => {
  it('crawls the site within its limits and writes it into the change request as one revision', async () => {
    const { token, changeRequest, base } = await setup();
    const imported = await request(testApp.app, 'POST', `${base}/content/import`, { token, body: { url: `${siteUrl}/docs/`, source: 'website' } });
    expect(imported.status).toBe(201);
    expect(imported.body).toEqual({ revision: expect.any(String), importedResources: 4, totalResources: 7 });
    expect(imported.body.revision).not.toBe(changeRequest.revision);
    expect(visits).not.toContain('/private/secret');

    const current = (await request(testApp.app, 'GET', base, { token })).body;
    expect(current.revision).toBe(imported.body.revision);
    const pages = flatten((await request(testApp.app, 'GET', `${base}/content/pages`, { token })).body.pages);
    expect(pages.map((page) => [page.title, page.path])).toEqual([
      ['Welcome', 'docs'],
      ['Guide', 'docs/guide'],
      ['Install', 'docs/guide/install'],
    ]);
    const files = (await request(testApp.app, 'GET', `${base}/content/files`, { token })).body.items;
    expect(files).toMatchObject([{ name: 'logo.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } }]);

    const page = async (title: string) =>
      (await request(testApp.app, 'GET', `${base}/content/page/${pages.find((candidate) => candidate.title === title).id}`, { token })).body.markdown;
    expect(await page('Welcome')).toBe(`Start with the [guide](/docs/guide).\n\n![Logo](/files/${files[0].id})`);
    expect(await page('Guide')).toBe('See [install](/docs/guide/install#steps) and go [home](/docs).');
    expect(await page('Install')).toContain('## Steps\n\n- Download\n- Run `setup`');
    expect(await page('Install')).toContain('| OS    | Command |');

    // The rewritten links are in-app links of the revision, all resolving.
    const guideLinks = await request(testApp.app, 'GET', `${base}/content/page/${pages.find((candidate) => candidate.title === 'Guide').id}/links`, { token });
    expect(guideLinks.body.items.map((item: any) => [item.targetReference.kind, item.status])).toEqual([
      ['page', 'ok'],
      ['page', 'ok'],
    ]);
  }, 30_000);

  it('refuses what it cannot import: other sources, schemes, private addresses unless allowed, and readers', async () => {
    const { org, token, base } = await setup();
    const post = (body: object, as = token) => request(testApp.app, 'POST', `${base}/content/import`, { token: as, body });
    expect((await post({ url: `${siteUrl}/docs/`, source: 'notion' })).status).toBe(400);
    expect((await post({ url: 'not a url', source: 'website' })).status).toBe(400);
    const ftp = await post({ url: 'ftp://example.test/file', source: 'website' });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.message).toMatch(/http and https/);
    const reader = await buildMember(testApp, org.organizationId, 'read');
    expect((await post({ url: `${siteUrl}/docs/`, source: 'website' }, reader.token)).status).toBe(403);

    const strict = await startTestApp();
    try {
      const closed = await setup(strict);
      const refused = await request(strict.app, 'POST', `${closed.base}/content/import`, { token: closed.token, body: { url: `${siteUrl}/docs/`, source: 'website' } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/private or local address/);
    } finally {
      await stopTestApp(strict);
    }
  });
});
