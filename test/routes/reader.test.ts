import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { JSDOM } from 'jsdom';
import { parseHTML } from 'linkedom';
import { describe, expect, it, vi } from 'vitest';
import { eventsDelivered, useTestApp } from '../helpers/app.ts';
import { axeViolations } from '../helpers/axe.ts';
import { BACKGROUNDS, contrastRatio } from '../../src/reader/theme.ts';
import { prepareSpaceDocuments } from '../../src/services/pageDocuments.ts';
import { publishSampleSite, type Visibility } from '../helpers/publishedSite.ts';

const testApp = useTestApp();

const publishedSite = (visibility?: Visibility) => publishSampleSite(testApp, visibility);

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
    // Its markdown, as machines read it, decides the same conditions.
    const proMarkdown = (await open(`${path}/reference.md?jwt_token=${await token({ plan: 'pro' })}`)).response.body;
    expect(proMarkdown).toContain('Pro plans get a dedicated region.');
    expect(proMarkdown).toContain('stays text.');
    for (const markdown of [proMarkdown, (await open(`${path}/reference.md?jwt_token=${await token({ plan: 'free' })}`)).response.body, (await open(`${path}/llms-full.txt?jwt_token=${await token({})}`)).response.body]) {
      expect(markdown).not.toContain('Never shown.');
      expect(markdown).not.toContain('{% if');
    }
    expect((await open(`${path}/reference.md?jwt_token=${await token({ plan: 'free' })}`)).response.body).not.toContain('Pro plans');
    expect((await open(`${path}/llms-full.txt?jwt_token=${await token({})}`)).response.body).not.toContain('Pro plans');
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

  it("serves a page in GitBook's earlier formats as markdown in today's", async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const legacy = '# Cakes\n\n{% code-tabs %}\n{% code-tabs-item title="cake.js" %}\n```js\nbake()\n```\n{% endcode-tabs-item %}\n{% endcode-tabs %}';
    const withCondition = '# Pro cakes\n\n{% code-tabs %}\n{% code-tabs-item title="pro.js" %}\n```js\nbake()\n```\n{% endcode-tabs-item %}\n{% endcode-tabs %}\n\n{% if visitor.claims.plan == "pro" %}\nThe secret recipe.\n{% endif %}';
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [{ operation: 'insert_page', document: legacy }, { operation: 'insert_page', document: withCondition }],
    });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const written = '{% code title="cake.js" %}\n```js\nbake()\n```\n{% endcode %}';
    expect((await open(`${path}/cakes.md`)).response.body).toBe(`# Cakes\n\n${written}\n`);
    const full = (await open(`${path}/llms-full.txt`)).response.body;
    expect(full).toContain(written);
    expect(full).not.toContain('code-tabs');
    // Written in today's forms, a block shown on a condition still reaches only the readers it names.
    const proPage = (await open(`${path}/pro-cakes.md`)).response.body;
    expect(proPage).toContain('{% code title="pro.js" %}');
    expect(proPage).not.toContain('secret recipe');
    expect(full).not.toContain('secret recipe');
  });

  it('serves a page whose slug holds dots, as GitBook names pages after files such as ld.so.conf-example.md, at its path and its markdown at the path with .md added', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', document: '# ld.so.conf example\n\nThe loader.', slug: 'ld.so.conf-example' },
        { operation: 'insert_page', document: '# Timing\n\nSee [the example](ld.so.conf-example.md).', slug: 'performance.now-+-force-heavy-task' },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const page = await open(`${path}/ld.so.conf-example`);
    expect(page.response.statusCode).toBe(200);
    expect(page.document.querySelector('main h1')!.textContent).toBe('ld.so.conf example');
    const markdown = await open(`${path}/ld.so.conf-example.md`);
    expect(markdown.response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(markdown.response.body).toBe('# ld.so.conf example\n\nThe loader.');
    const timing = await open(`${path}/performance.now-+-force-heavy-task`);
    expect(timing.document.querySelector('main a[href$="/ld.so.conf-example"]')!.textContent).toBe('the example');
    expect((await open(`${path}/performance.now-+-force-heavy-task.md`)).response.body).toContain('# Timing');
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
    // A section group is a menu of its sections in the header; its sections keep their own paths.
    const sdk = (await call('POST', `${sites}/${site.id}/sections`, { spaceId: await spaceWith('SDK', 'The SDK.'), title: 'SDK' })).body;
    await call('PATCH', `${sites}/${site.id}/sections/${sdk.id}`, { path: 'sdk' });
    await call('POST', `${sites}/${site.id}/section-groups`, { title: 'Developers', sections: [section.id, sdk.id] });
    const grouped = await open(`${path}/sdk`);
    const menu = grouped.document.querySelector('nav.sections details.menu')!;
    expect(menu.querySelector('summary')!.textContent).toBe('Developers');
    expect(menu.classList.contains('current')).toBe(true);
    expect([...menu.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('aria-current')])).toEqual([
      ['API', null],
      ['SDK', 'page'],
    ]);
    expect(grouped.document.querySelector('main')!.textContent).toContain('The SDK.');
  });

  it('serves a site at its custom hostname, every path there being the site\'s, with links at that host and the canonical at the published URL', async () => {
    const { call, sites, site, open } = await publishedSite();
    expect((await call('PATCH', `${sites}/${site.id}`, { hostname: 'docs.acme.example' })).status).toBe(200);
    const atHost = (url: string, headers: Record<string, string> = {}) => open(url, { host: 'docs.acme.example', ...headers });
    const home = await atHost('/');
    expect(home.response.statusCode).toBe(200);
    expect(home.document.querySelector('main h1')!.textContent).toBe('Start here');
    expect(home.document.querySelector('nav.pagination a[rel="next"]')!.getAttribute('href')).toBe('http://docs.acme.example/start-here/setup');
    expect(home.document.querySelector('link[rel="canonical"]')!.getAttribute('href')).toBe('https://docs.acme.example/start-here');
    expect(home.document.querySelector('script')!.getAttribute('src')).toBe('http://docs.acme.example/reader/reader.js');
    // Behind a TLS proxy, the links keep to https.
    const proxied = await atHost('/start-here/setup', { 'x-forwarded-proto': 'https' });
    expect(proxied.document.querySelector('nav.pagination a[rel="prev"]')!.getAttribute('href')).toBe('https://docs.acme.example/start-here');
    // The API's paths are nobody's page at a docs hostname; the reader's script is still served.
    const apiPath = await atHost('/v1/user');
    expect(apiPath.response.statusCode).toBe(404);
    expect(apiPath.document.querySelector('header.site a')!.textContent).toBe('Acme Docs');
    expect((await atHost('/reader/reader.js')).response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await atHost('/sitemap.xml')).response.body).toContain('<loc>http://docs.acme.example/start-here/setup</loc>');
    // A host no site claims goes on to Quire's own routes; an unpublished site's host shows nothing.
    expect((await open('/v1/user', { host: 'other.acme.example' })).response.headers['content-type']).toContain('application/json');
    await call('POST', `${sites}/${site.id}/unpublish`);
    const unpublished = await atHost('/');
    expect(unpublished.response.statusCode).toBe(404);
    expect(unpublished.response.body).not.toContain('Start here');
  });

  it('lists the public sites at /sites, or sends the reader to the only one, and never a share-link site', async () => {
    const hidden = await publishedSite('share-link');
    const shown = await publishedSite();
    const front = await testApp.app.inject({ method: 'GET', url: '/sites' });
    const hrefs = front.statusCode === 302 ? [front.headers.location] : [...parseHTML(front.body).document.querySelectorAll('main a')].map((link) => link.getAttribute('href'));
    expect(hrefs).toContain(`http://quire.test${shown.path}`);
    expect(hrefs).not.toContain(`http://quire.test${hidden.path}`);
  });

  it('resolves a page\'s links from where it sits, so that the same words at two places lead to their own neighbours', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const words = 'See [the tools](setup.md#tools).';
    const start = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages[0];
    const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', ref: 'guide', document: `# Guide\n\n${words}` },
        { operation: 'insert_page', into: 'guide', document: '# Setup\n\n## Tools' },
        { operation: 'insert_page', into: start.id, document: `# Aside\n\n${words}` },
      ],
    });
    expect(edited.status).toBe(200);
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    expect((await open(`${path}/guide`)).document.querySelector('main p a')!.getAttribute('href')).toBe(`http://quire.test${path}/guide/setup#tools`);
    expect((await open(`${path}/start-here/aside`)).document.querySelector('main p a')!.getAttribute('href')).toBe(`http://quire.test${path}/start-here/setup#tools`);
  });

  it('converts the pages of published spaces ahead, once per content, and nothing for a space no site shows', async () => {
    const { call, org, sites, site, path, open } = await publishedSite();
    const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Later' })).body;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# One\n\nFirst.' }, { operation: 'insert_page', document: '# Two\n\nSecond, unique to this test.' }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    // The merge's own delivery to this subscriber, run late, would make the documents counted below.
    await eventsDelivered(testApp);
    expect(await prepareSpaceDocuments(testApp.app.ctx, space.id)).toBe(0);
    const siteSpacePath = (await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id })).body.path;
    expect(await prepareSpaceDocuments(testApp.app.ctx, space.id)).toBe(2);
    expect(await prepareSpaceDocuments(testApp.app.ctx, space.id)).toBe(0);
    // Says how the page was made: from its document made ahead, then as rendered before.
    const later = `${path}/${siteSpacePath}/two`;
    expect((await open(later)).response.headers['x-quire-cache']).toBe('document');
    expect((await open(later)).response.headers['x-quire-cache']).toBe('page');
  });

  it("draws pages' emoji and icons before their titles, and icons in the text, from Font Awesome Free; a name it has not draws nothing", async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', title: 'Launch', icon: 'rocket', document: 'Lift off <i class="fa-gear">:gear:</i> now.' },
        { operation: 'insert_page', title: 'Party', emoji: '1f389', icon: 'rocket', document: 'Fun.' },
        { operation: 'insert_page', title: 'Pro', icon: 'rocket-launch', document: 'Kept.' },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const { document } = await open(`${path}/launch`);
    const navLink = (title: string) => [...document.querySelectorAll('nav.pages a')].find((link) => link.textContent?.trim().endsWith(title))!;
    // The icon in the text's colour, hidden from screen readers: the title says what the page is.
    const drawn = navLink('Launch').querySelector('svg.page-mark.icon')!;
    expect(drawn.getAttribute('aria-hidden')).toBe('true');
    expect(drawn.getAttribute('viewBox')).toMatch(/^0 0 \d+ \d+$/);
    expect(drawn.querySelector('path')!.getAttribute('fill')).toBe('currentColor');
    expect(document.querySelector('main h1 svg.page-mark.icon')).not.toBeNull();
    expect(document.querySelector('main h1')!.textContent!.trim()).toBe('Launch');
    expect(document.querySelector('main svg.icon.icon-gear path')).not.toBeNull();
    // An emoji wins over an icon, as GitBook shows it; a Pro icon's name is kept and draws nothing.
    expect(navLink('Party').querySelector('.page-mark.emoji')!.textContent).toBe('🎉');
    expect(navLink('Party').querySelector('svg')).toBeNull();
    expect(navLink('Pro').querySelector('svg, .page-mark')).toBeNull();
    expect((await call('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages.find((page: { title: string }) => page.title === 'Pro').icon).toBe('rocket-launch');
  });

  it('lists link pages in the navigation by their target, a telephone number too, by the rule that checks every link', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', type: 'link', title: 'Status', href: 'https://status.example.com' },
        { operation: 'insert_page', type: 'link', title: 'Call us', href: 'tel:+15555550100' },
      ],
    });
    expect(edited.status).toBe(200);
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const { document } = await open(`${path}/reference`);
    const links = [...document.querySelectorAll('nav.pages a')].map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toContainEqual(['Status', 'https://status.example.com']);
    expect(links).toContainEqual(['Call us', 'tel:+15555550100']);
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

  it('keeps rendered pages by their size: a walk through a large site pushes its first pages out, and they render again', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    for (let batch = 0; batch < 20; batch++) {
      const changes = Array.from({ length: 50 }, (_, at) => ({ operation: 'insert_page', document: `# Page ${batch * 50 + at}\n\nText.` }));
      expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes })).status).toBe(200);
    }
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    await open(`${path}/reference`);
    expect((await open(`${path}/reference`)).response.headers['x-quire-cache']).toBe('page');
    // Every page carries the sidebar of the site's 1,000 pages: 16 MB of them is some two hundred.
    let read = 0;
    for (let at = 0; read < 17_000_000; at++) {
      const response = await testApp.app.inject({ method: 'GET', url: `${path}/page-${at}` });
      expect(response.statusCode).toBe(200);
      read += response.rawPayload.length;
    }
    expect((await open(`${path}/reference`)).response.headers['x-quire-cache']).not.toBe('page');
    expect((await open(`${path}/reference`)).response.headers['x-quire-cache']).toBe('page');
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

  it('frames every page with the customization\'s logo, header links and menus, footer, announcement and icon, dropping what is unsafe or not for this reader', async () => {
    const { call, sites, site, path, open } = await publishedSite();
    const url = (target: string) => ({ kind: 'url', url: target });
    const customized = await call('PUT', `${sites}/${site.id}/customization`, {
      header: {
        preset: 'default',
        logo: { light: 'https://cdn.acme.example/logo.png', dark: 'https://cdn.acme.example/logo-dark.png' },
        links: [
          { title: 'Status', to: url('https://status.acme.example'), links: [] },
          { title: 'Sign up', to: url('https://acme.example/signup'), style: 'button-primary', links: [] },
          { title: 'Products', to: null, links: [{ title: 'Rockets', to: url('https://acme.example/rockets') }, { title: 'Bad', to: url('javascript:alert(1)') }] },
          { title: 'Beta', to: url('https://beta.acme.example'), links: [], condition: 'visitor.claims.beta == true' },
          { title: 'Nowhere', to: url('javascript:alert(1)'), links: [] },
        ],
      },
      footer: { groups: [{ title: 'Company', links: [{ title: 'About', to: url('https://acme.example/about') }] }], copyright: '© Acme Corp' },
      announcement: { enabled: true, message: 'Version 2 is out.', style: 'success', link: { title: 'Read more', to: url('https://acme.example/v2') } },
      favicon: { emoji: '1f680' },
    });
    expect(customized.status).toBe(200);
    const { document } = await open(path);
    expect(document.querySelector('header.site a.brand img')!.getAttribute('alt')).toBe('Acme Docs');
    expect(document.querySelector('header.site a.brand source')!.getAttribute('srcset')).toBe('https://cdn.acme.example/logo-dark.png');
    expect([...document.querySelectorAll('nav.site-links > ul > li')].map((item) => item.querySelector('a, summary')!.textContent)).toEqual(['Status', 'Sign up', 'Products']);
    expect(document.querySelector('nav.site-links a.button')!.textContent).toBe('Sign up');
    expect([...document.querySelectorAll('nav.site-links details.menu a')].map((link) => link.getAttribute('href'))).toEqual(['https://acme.example/rockets']);
    expect(document.querySelector('[role="region"][aria-label="Announcement"]')!.textContent).toBe('Version 2 is out. Read more');
    expect(document.querySelector('footer.site nav[aria-label="Company"] a')!.getAttribute('href')).toBe('https://acme.example/about');
    expect(document.querySelector('footer.site')!.textContent).toContain('© Acme Corp');
    expect(decodeURIComponent(document.querySelector('link[rel="icon"]')!.getAttribute('href')!)).toContain('🚀');
    expect(document.body.innerHTML).not.toContain('javascript:');
    // The search page and the 404 page wear the same frame.
    expect((await open(`${path}/nowhere`)).document.querySelector('footer.site')!.textContent).toContain('© Acme Corp');
    expect((await open(`${path}?q=install`)).document.querySelector('.announcement')).not.toBeNull();
  });

  it('shades a primary colour too pale to read on the page until its text meets WCAG AA, in both themes', async () => {
    const { call, sites, site, path, open } = await publishedSite();
    await call('PUT', `${sites}/${site.id}/customization`, { styling: { primaryColor: { light: '#ffe600', dark: '#1a1a40' } } });
    const theme = [...(await open(path)).document.querySelectorAll('head style')].at(-1)!.textContent!;
    const [light, dark] = [...theme.matchAll(/--accent:(#[0-9a-f]{6})/gi)].map((match) => match[1]);
    expect(contrastRatio(light, BACKGROUNDS.light)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(dark, BACKGROUNDS.dark)).toBeGreaterThanOrEqual(4.5);
    expect(light).not.toBe('#ffe600');
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

  it('finds a page for its readers even when more matches than a search reads lie in a hidden page that ranks first', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const headings = Array.from({ length: 60 }, (_, index) => `## Walrus ${index}\n\nTusks.`).join('\n\n');
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', document: `# Walrus notes\n\n${headings}`, hidden: true },
        { operation: 'insert_page', document: '# Arctic animals\n\nThe walrus lives on the ice.' },
      ],
    });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).status).toBe(200);
    const asMember = (await call('GET', `/v1/spaces/${space.id}/search?query=walrus`)).body.items.map((page: { title: string }) => page.title);
    expect(asMember[0]).toBe('Walrus notes');
    const results = (await open(`${path}?q=walrus`)).document.querySelector('main')!.textContent!;
    expect(results).toContain('Arctic animals');
    expect(results).not.toContain('Walrus notes');
  });

  it('passes axe-core\'s accessibility checks on every page kind: a page, a page of every block, search results, the 404 page and the front page', async () => {
    const { call, space, path, open } = await publishedSite();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    const corpus = ['getting-started.md', 'configuration.md', 'reference.md'].map((name) => readFileSync(new URL(`../fixtures/gitbook/${name}`, import.meta.url), 'utf8'));
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: corpus.map((document) => ({ operation: 'insert_page', document })) });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    for (const url of [path, `${path}/getting-started`, `${path}/configuration`, `${path}/api-reference`, `${path}?q=install`, `${path}/nowhere`, '/sites']) {
      const { response } = await open(url);
      const html = response.statusCode === 302 ? (await open(String(response.headers.location).replace('http://quire.test', ''))).response.body : response.body;
      expect(await axeViolations(html), url).toEqual([]);
    }
  });

  it('shows OpenAPI blocks from the organization\'s specs: the operation with its parameters, body and responses, and named schemas, anew when the spec changes', async () => {
    const { call, org, space, path, open } = await publishedSite();
    const spec = (summary: string) => [
      'openapi: 3.1.0',
      'info: { title: Pets, version: 1.0.0 }',
      'servers: [{ url: "https://api.acme.example/v1" }]',
      'paths:',
      '  /pets/{petId}:',
      '    get:',
      `      summary: ${summary}`,
      '      description: Reads **one** pet.',
      '      parameters:',
      '        - { name: petId, in: path, required: true, description: The pet\'s id, schema: { type: string } }',
      '      responses:',
      '        "200":',
      '          description: The pet',
      '          content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } }',
      '        "404": { description: No such pet }',
      'components:',
      '  schemas:',
      '    Pet:',
      '      type: object',
      '      required: [name]',
      '      properties:',
      '        name: { type: string, description: What the pet answers to }',
      '        parent: { $ref: "#/components/schemas/Pet" }',
    ].join('\n');
    const specs = `/v1/orgs/${org.organizationId}/openapi`;
    const processed = async () => {
      for (let tries = 0; tries < 400; tries++) {
        if ((await call('GET', `${specs}/pets`)).body.processingState === 'complete') return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    expect((await call('POST', specs, { slug: 'pets', source: { text: spec('Get a pet') } })).status).toBe(201);
    await processed();
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [{ operation: 'insert_page', document: '# Pets API\n\n{% openapi-operation spec="pets" path="/pets/{petId}" method="get" %}\n\n{% openapi-schemas spec="pets" schemas="Pet" %}\n\n{% openapi-operation spec="nope" path="/x" method="post" %}' }],
    });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const { document } = await open(`${path}/pets-api`);
    const operation = document.querySelector('section.openapi-operation')!;
    expect(operation.getAttribute('aria-label')).toBe('GET https://api.acme.example/v1/pets/{petId}');
    expect(operation.querySelector('.openapi-summary')!.textContent).toBe('Get a pet');
    expect(operation.querySelector('strong + * strong, p strong:not(.openapi-summary strong)')!.textContent).toBe('one');
    expect([...operation.querySelectorAll('tbody td')].map((cell) => cell.textContent)).toEqual(['petId required', 'path', 'string', "The pet's id"]);
    const ok = operation.querySelector('.openapi-responses details[open]')!;
    expect(ok.querySelector('summary')!.textContent).toBe('200 The pet');
    expect([...ok.querySelectorAll(':scope > .openapi-properties > li > code')].map((code) => code.textContent)).toEqual(['name', 'parent']);
    expect(document.querySelector('section.openapi-schemas summary')!.textContent).toBe('Pet');
    // A recursive schema is listed to a bounded depth.
    expect(document.querySelectorAll('section.openapi-schemas .openapi-properties').length).toBeLessThan(10);
    expect(document.querySelector('div.openapi code')!.textContent).toBe('POST /x');
    // Another organization's page naming the same slug never shows this organization's spec.
    const stranger = await publishedSite();
    const strangerChange = (await stranger.call('POST', `/v1/spaces/${stranger.space.id}/change-requests`, {})).body;
    await stranger.call('POST', `/v1/spaces/${stranger.space.id}/change-requests/${strangerChange.id}/content`, {
      changes: [{ operation: 'insert_page', document: '# Borrowed\n\n{% openapi-operation spec="pets" path="/pets/{petId}" method="get" %}' }],
    });
    await stranger.call('POST', `/v1/spaces/${stranger.space.id}/change-requests/${strangerChange.id}/merge`);
    const borrowed = await stranger.open(`${stranger.path}/borrowed`);
    expect(borrowed.document.querySelector('section.openapi-operation')).toBeNull();
    expect(borrowed.response.body).not.toContain('Get a pet');
    await call('PUT', `${specs}/pets`, { source: { text: spec('Fetch a pet') } });
    await processed();
    await vi.waitFor(async () => expect((await open(`${path}/pets-api`)).document.querySelector('.openapi-summary')!.textContent).toBe('Fetch a pet'), { timeout: 10_000 });
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

  it('shows search results as the reader types, fetched from the site\'s own search page', async () => {
    const { path, open } = await publishedSite();
    const page = await open(`${path}/reference`);
    const script = (await testApp.app.inject({ method: 'GET', url: '/reader/reader.js' })).body;
    const dom = new JSDOM(page.response.body, { runScripts: 'outside-only', url: `http://quire.test${path}/reference` });
    const asked: string[] = [];
    Object.assign(dom.window, {
      fetch: async (url: string) => {
        asked.push(url);
        const answer = await testApp.app.inject({ method: 'GET', url: url.replace('http://quire.test', '') });
        return { text: async () => answer.body };
      },
    });
    dom.window.eval(script);
    const input = dom.window.document.querySelector('form.search input') as HTMLInputElement;
    input.value = 'npm install';
    input.dispatchEvent(new dom.window.Event('input'));
    await vi.waitFor(() => expect(dom.window.document.querySelector('.instant-results a')).not.toBeNull(), { timeout: 3000 });
    expect(asked).toEqual([`http://quire.test${path}?q=npm%20install`]);
    expect(dom.window.document.querySelector('.instant-results a')!.getAttribute('href')).toBe(`http://quire.test${path}/start-here/setup#tools`);
    dom.window.close();
  });
});

describe('the built-in reader with a mermaid module configured', () => {
  const withDiagrams = useTestApp({ QUIRE_MERMAID_URL: 'https://cdn.acme.example/mermaid/mermaid.esm.min.mjs' });

  it('names the module to pages that hold a diagram, and its origin alone joins the pages\' script policy', async () => {
    const { call, space, path, open } = await publishSampleSite(withDiagrams);
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Flow\n\n```mermaid\ngraph TD\n  A --> B\n```' }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const flow = await open(`${path}/flow`);
    expect(flow.document.querySelector('pre.mermaid')!.textContent).toBe('graph TD\n  A --> B');
    expect(flow.document.querySelector('meta[name="quire-mermaid"]')!.getAttribute('content')).toBe('https://cdn.acme.example/mermaid/mermaid.esm.min.mjs');
    expect(flow.response.headers['content-security-policy']).toContain("script-src 'self' https://cdn.acme.example;");
    expect((await open(`${path}/reference`)).document.querySelector('meta[name="quire-mermaid"]')).toBeNull();
  });
});
