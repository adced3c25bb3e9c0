import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { JSDOM } from 'jsdom';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { axeViolations } from '../helpers/axe.ts';
import { buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

/** A space of three pages (one with a sub-page, one hidden) on a site, published as `visibility`. */
async function publishedSite(visibility: 'public' | 'share-link' | 'visitor-auth' = 'public') {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const call = (method: string, path: string, body?: object) => request(testApp.app, method as 'GET', path, { token, body });
  const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Handbook' })).body;
  const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
  const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    changes: [
      { operation: 'insert_page', ref: 'start', document: '# Start here\n\nWelcome. Read [the setup](setup.md#tools).\n\n## First steps\n\n{% hint style="info" %}\nTake your time.\n{% endhint %}' },
      { operation: 'insert_page', into: 'start', document: '# Setup\n\n## Tools\n\n```bash\nnpm install\n```' },
      { operation: 'insert_page', document: '# Reference\n\n<script>alert(1)</script> stays text.\n\n{% if visitor.claims.plan == "pro" %}\nPro plans get a dedicated region.\n{% endif %}\n\n{% if visitor.claims.( %}\nNever shown.\n{% endif %}' },
      { operation: 'insert_page', document: '# Drafts\n\nSecret plans.', hidden: true },
    ],
  });
  expect(edited.status).toBe(200);
  await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  const sites = `/v1/orgs/${org.organizationId}/sites`;
  const site = (await call('POST', sites, { title: 'Acme Docs' })).body;
  expect((await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id })).status).toBe(201);
  await call('PATCH', `${sites}/${site.id}`, { visibility });
  const published = (await call('POST', `${sites}/${site.id}/publish`)).body;
  const path = new URL(published.urls.published).pathname;
  const open = async (url: string, headers: Record<string, string> = {}) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers });
    return { response, document: parseHTML(response.body).document };
  };
  return { org, call, sites, site, space, path, open };
}

describe('the built-in reader', () => {
  it('serves a published site at its urls.published: the first page, the page tree, the content, an outline and the next page', async () => {
    const { path, open } = await publishedSite();
    const { response, document } = await open(path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(document.querySelector('title')!.textContent).toBe('Start here | Acme Docs');
    expect(document.querySelector('main h1')!.textContent).toBe('Start here');
    expect([...document.querySelectorAll('nav.pages a')].map((link) => link.textContent)).toEqual(['Start here', 'Setup', 'Reference']);
    expect(document.querySelector('nav.pages a[aria-current="page"]')!.textContent).toBe('Start here');
    expect(document.querySelector('main aside.hint')!.textContent).toBe('Take your time.');
    expect(document.querySelector('main a[href$="/start-here/setup#tools"]')!.textContent).toBe('the setup');
    expect([...document.querySelectorAll('aside.outline a')].map((link) => link.getAttribute('href'))).toEqual(['#first-steps']);
    expect(document.querySelector('nav.pagination a[rel="next"]')!.getAttribute('href')).toBe(`http://quire.test${path}/start-here/setup`);
    expect(document.querySelector('a.skip-link')!.getAttribute('href')).toBe('#content');
  });

  it('serves each page at its path, with previous and next, highlighted code, and HTML in the text escaped', async () => {
    const { path, open } = await publishedSite();
    const setup = await open(`${path}/start-here/setup`);
    expect(setup.response.statusCode).toBe(200);
    expect(setup.document.querySelector('code.language-bash')).not.toBeNull();
    expect(setup.document.querySelector('nav.pagination a[rel="prev"]')!.textContent).toBe('Previous: Start here');
    const reference = await open(`${path}/reference`);
    expect(reference.document.querySelector('main script')).toBeNull();
    expect(reference.document.querySelector('main p')!.textContent).toContain('<script>alert(1)</script>');
    expect(reference.response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('answers a 404 page in the site\'s frame for a missing page, and a plain one for an unknown or unpublished site', async () => {
    const { call, sites, site, path, open } = await publishedSite();
    const missing = await open(`${path}/no/such/page`);
    expect(missing.response.statusCode).toBe(404);
    expect(missing.document.querySelector('header.site a')!.textContent).toBe('Acme Docs');
    expect((await open('/sites/noSuchSite')).response.statusCode).toBe(404);
    // A literal '%' in a path, and a cookie no browser would send, are nobody's page: 404, not a failure.
    expect((await open(`${path}/100%25`)).response.statusCode).toBe(404);
    expect((await open(`${path}/reference`, { cookie: 'quire_share_key=%E0%A4%A' })).response.statusCode).toBe(200);
    await call('POST', `${sites}/${site.id}/unpublish`);
    const unpublished = await open(path);
    expect(unpublished.response.statusCode).toBe(404);
    expect(unpublished.response.body).not.toContain('Start here');
  });

  it('opens a share-link site only with an active share key, kept in a cookie after the first visit', async () => {
    const { call, sites, site, path, open } = await publishedSite('share-link');
    expect((await open(path)).response.statusCode).toBe(404);
    const link = (await call('POST', `${sites}/${site.id}/share-links`, { name: 'Partners' })).body;
    const shareKey = new URL(link.urls.published).searchParams.get('shareKey')!;
    const first = await open(`${path}?shareKey=${shareKey}`);
    expect(first.response.statusCode).toBe(200);
    const cookie = String(first.response.headers['set-cookie']).split(';')[0];
    expect((await open(`${path}/reference`, { cookie })).response.statusCode).toBe(200);
    expect((await open(`${path}?shareKey=wrong`)).response.statusCode).toBe(404);
    await call('PATCH', `${sites}/${site.id}/share-links/${link.id}`, { active: false });
    expect((await open(path, { cookie })).response.statusCode).toBe(404);
  });

  it('opens a visitor-auth site with a token signed by its key, and shows adaptive content by the token\'s claims', async () => {
    const { call, sites, site, path, open } = await publishedSite('visitor-auth');
    expect((await open(`${path}/reference`)).response.statusCode).toBe(404);
    const { privateKey } = (await call('GET', `${sites}/${site.id}/publishing/auth`)).body;
    const token = (claims: Record<string, unknown>, key = privateKey) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(key));
    const pro = await open(`${path}/reference?jwt_token=${await token({ plan: 'pro' })}`);
    expect(pro.response.statusCode).toBe(200);
    expect(pro.document.querySelector('main')!.textContent).toContain('Pro plans get a dedicated region.');
    expect(pro.document.querySelector('main')!.textContent).not.toContain('Never shown.');
    const cookie = String(pro.response.headers['set-cookie']).split(';')[0];
    expect((await open(path, { cookie })).response.statusCode).toBe(200);
    const free = await open(`${path}/reference?jwt_token=${await token({ plan: 'free' })}`);
    expect(free.document.querySelector('main')!.textContent).not.toContain('Pro plans');
    expect((await open(`${path}/reference?jwt_token=${await token({ plan: 'pro' }, 'not-the-key')}`)).response.statusCode).toBe(404);
  });

  it('serves machines the site as GitBook does: sitemap.xml, robots.txt, llms.txt, llms-full.txt and each page as markdown', async () => {
    const { path, open } = await publishedSite();
    const base = `http://quire.test${path}`;
    const sitemap = await open(`${path}/sitemap.xml`);
    expect(sitemap.response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect([...sitemap.response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual([
      `${base}/start-here`,
      `${base}/start-here/setup`,
      `${base}/reference`,
    ]);
    expect((await open(`${path}/robots.txt`)).response.body).toBe(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`);
    const llms = (await open(`${path}/llms.txt`)).response.body;
    expect(llms).toBe(`# Acme Docs\n\n## Handbook\n\n- [Start here](${base}/start-here.md)\n- [Setup](${base}/start-here/setup.md)\n- [Reference](${base}/reference.md)\n`);
    const page = await open(`${path}/start-here/setup.md`);
    expect(page.response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(page.response.body).toBe('# Setup\n\n## Tools\n\n```bash\nnpm install\n```');
    const full = (await open(`${path}/llms-full.txt`)).response.body;
    expect(full).toContain('# Start here\n\nWelcome.');
    expect(full).toContain('# Reference');
    expect(full).not.toContain('# Drafts');
  });

  it('lays out sections as tabs and a section\'s site spaces as variants, each at its path, with canonical and social links', async () => {
    const { call, org, sites, site, path, open } = await publishedSite();
    const spaceWith = async (title: string, words: string) => {
      const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title })).body;
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: `# Overview\n\n${words}` }] });
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
      return space.id as string;
    };
    const api = await spaceWith('API v2', 'The second API.');
    const section = (await call('POST', `${sites}/${site.id}/sections`, { spaceId: api, title: 'API' })).body;
    await call('PATCH', `${sites}/${site.id}/sections/${section.id}`, { path: 'api' });
    const older = (await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: await spaceWith('API v1', 'The first API.'), sectionId: section.id })).body;
    await call('PATCH', `${sites}/${site.id}/site-spaces/${older.id}`, { path: 'v1' });
    const home = await open(path);
    expect([...home.document.querySelectorAll('nav.sections a')].map((link) => [link.textContent, link.getAttribute('aria-current')])).toEqual([
      ['Acme Docs', 'page'],
      ['API', null],
    ]);
    const latest = await open(`${path}/api`);
    expect(latest.document.querySelector('main')!.textContent).toContain('The second API.');
    expect([...latest.document.querySelectorAll('nav.variants a')].map((link) => link.textContent)).toEqual(['API v2', 'API v1']);
    const first = await open(`${path}/api/v1/overview`);
    expect(first.document.querySelector('main')!.textContent).toContain('The first API.');
    expect(first.document.querySelector('nav.variants a[aria-current="page"]')!.textContent).toBe('API v1');
    expect(first.document.querySelector('link[rel="canonical"]')!.getAttribute('href')).toBe(`http://quire.test${path}/api/v1/overview`);
    expect(first.document.querySelector('meta[property="og:title"]')!.getAttribute('content')).toBe('Overview');
  });

  it('lists the public sites on the front page, or sends the reader to the only one, and never a share-link site', async () => {
    const hidden = await publishedSite('share-link');
    const shown = await publishedSite();
    const front = await testApp.app.inject({ method: 'GET', url: '/' });
    const hrefs = front.statusCode === 302 ? [front.headers.location] : [...parseHTML(front.body).document.querySelectorAll('main a')].map((link) => link.getAttribute('href'));
    expect(hrefs).toContain(`http://quire.test${shown.path}`);
    expect(hrefs).not.toContain(`http://quire.test${hidden.path}`);
  });

  it('serves a page again from its cache, and the new content as soon as a merge changes it', async () => {
    const { call, space, path, open } = await publishedSite();
    const first = (await open(`${path}/reference`)).response.body;
    expect((await open(`${path}/reference`)).response.body).toBe(first);
    const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const reference = pages.find((page: { title: string }) => page.title === 'Reference');
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'update_page', page: reference.id, document: 'Rewritten today.' }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const after = await open(`${path}/reference`);
    expect(after.document.querySelector('main')!.textContent).toContain('Rewritten today.');
    expect(after.document.querySelector('main')!.textContent).not.toContain('stays text');
  });

  it('takes the site\'s primary colours, corners and font from its customization, and only values CSS can hold', async () => {
    const { call, sites, site, path, open } = await publishedSite();
    const customized = await call('PUT', `${sites}/${site.id}/customization`, { styling: { primaryColor: { light: '#0a7f3f', dark: '#7ee2a8' }, corners: 'straight', font: 'Roboto' } });
    expect(customized.status).toBe(200);
    const page = await open(path);
    const theme = [...page.document.querySelectorAll('head style')].map((style) => style.textContent).join('');
    expect(theme).toContain('--accent:#0a7f3f');
    expect(theme).toContain('--accent:#7ee2a8');
    expect(theme).toContain('--radius:0');
    expect(theme).toContain('font-family:"Roboto"');
    await call('PUT', `${sites}/${site.id}/customization`, { styling: { primaryColor: { light: 'red;}body{display:none', dark: '#fff' } } });
    const guarded = [...(await open(path)).document.querySelectorAll('head style')].at(-1)!.textContent!;
    expect(guarded).not.toContain('body{');
    expect(guarded).toContain('--accent:#346DDB');
  });

  it('answers the site\'s search at its root with ?q=, linking each result to its section, and never a hidden page', async () => {
    const { path, open } = await publishedSite();
    const results = await open(`${path}?q=npm%20install`);
    expect(results.response.statusCode).toBe(200);
    expect(results.document.querySelector('main h1')!.textContent).toBe('Results for “npm install”');
    const links = [...results.document.querySelectorAll('main ol a')];
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([['Setup › Tools', `http://quire.test${path}/start-here/setup#tools`]]);
    expect(results.document.querySelector('form[role="search"] input')!.getAttribute('value')).toBe('npm install');
    expect((await open(`${path}?q=secret`)).document.querySelector('main ol')).toBeNull();
    expect((await open(`${path}/reference?q=npm`)).document.querySelector('main h1')!.textContent).toBe('Reference');
  });

  it('passes axe-core\'s accessibility checks on every page kind: a page, a page of every block, search results, the 404 page and the front page', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const corpus = ['getting-started.md', 'configuration.md', 'reference.md'].map((name) => readFileSync(new URL(`../fixtures/gitbook/${name}`, import.meta.url), 'utf8'));
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: corpus.map((document) => ({ operation: 'insert_page', document })) });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    for (const url of [path, `${path}/getting-started`, `${path}/configuration`, `${path}/api-reference`, `${path}?q=install`, `${path}/nowhere`, '/']) {
      const { response } = await open(url);
      const html = response.statusCode === 302 ? (await open(String(response.headers.location).replace('http://quire.test', ''))).response.body : response.body;
      expect(await axeViolations(html), url).toEqual([]);
    }
  });

  it('adds copy buttons to code with its one script, served from Quire itself, which the page\'s policy allows and no other', async () => {
    const { path, open } = await publishedSite();
    const page = await open(`${path}/start-here/setup`);
    const src = page.document.querySelector('script')!.getAttribute('src')!;
    expect(src).toBe('http://quire.test/reader/reader.js');
    expect(page.response.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await testApp.app.inject({ method: 'GET', url: '/reader/reader.js' });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const dom = new JSDOM(page.response.body, { runScripts: 'outside-only' });
    dom.window.eval(script.body);
    expect([...dom.window.document.querySelectorAll('figure.code button.copy')].map((button) => button.textContent)).toEqual(['Copy']);
    dom.window.close();
  });
});
