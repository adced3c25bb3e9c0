// Site redirects over HTTP: made, listed, changed and deleted through the API, resolved
// for GitBook's renderer, and followed by the built-in reader where no page answers.
import { GitBookAPI } from '@gitbook/api';
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember } from '../helpers/factories.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';

const testApp = useTestApp();

async function siteWithPages() {
  const published = await publishSampleSite(testApp);
  const { call, sites, site, space } = published;
  const siteSpace = (await call('GET', `${sites}/${site.id}/site-spaces`)).body.items[0];
  const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages as Array<{ id: string; title: string; pages: Array<{ id: string; title: string }> }>;
  const setup = pages[0].pages[0];
  const redirects = `${sites}/${site.id}/redirects`;
  return { ...published, siteSpace, setup, redirects };
}

describe('site redirects', () => {
  it('are made, listed newest first and by search, changed and deleted, as GitBook answers them', async () => {
    const { call, siteSpace, setup, redirects } = await siteWithPages();
    const created = await call('POST', redirects, { source: '/old/install', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: setup.id } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'site-redirect',
      id: expect.any(String),
      source: '/old/install',
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: setup.id },
      createdAt: expect.any(String),
    });
    const second = (await call('POST', redirects, { source: '/legacy', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } })).body;
    const listed = await call('GET', `${redirects}?limit=1`);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([second.id]);
    expect(listed.body.count).toBe(2);
    expect((await call('GET', `${redirects}?page=${listed.body.next.page}`)).body.items[0].id).toBe(created.body.id);
    expect((await call('GET', `${redirects}?search=INSTALL`)).body.items.map((item: { source: string }) => item.source)).toEqual(['/old/install']);
    const changed = await call('PATCH', `${redirects}/${second.id}`, { source: '/legacy-docs' });
    expect(changed.body).toMatchObject({ source: '/legacy-docs', destination: { kind: 'site-space' } });
    expect((await call('DELETE', `${redirects}/${second.id}`)).status).toBe(205);
    expect((await call('DELETE', `${redirects}/${second.id}`)).status).toBe(204);
    expect((await call('PATCH', `${redirects}/${second.id}`, { source: '/x' })).status).toBe(404);
  });

  it('refuse a source that is not a path, a source already taken, and a destination not on the site, each with a message to act on', async () => {
    const { call, siteSpace, redirects } = await siteWithPages();
    const refused = await call('POST', redirects, { source: 'no-slash', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe("body.source is not of the expected form: A path under the site's published URL, such as /old/page: letters, digits, - . _ ~ and %-escapes");
    await call('POST', redirects, { source: '/taken', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
    // The same path written with an escape is the same source.
    const taken = await call('POST', redirects, { source: '/t%61ken', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain('"/taken" already redirects');
    const nowhere = await call('POST', redirects, { source: '/a', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: 'nope' } });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error.message).toBe(`destination.pageId: no page "nope" in the published content of site space "${siteSpace.id}"`);
    expect((await call('POST', redirects, { source: '/a', destination: { kind: 'site-section', siteSectionId: 'nope' } })).body.error.message).toBe('destination.siteSectionId: no section "nope" in this site');
    expect((await call('POST', redirects, { source: '/a', destination: { kind: 'elsewhere' } })).status).toBe(400);
  });

  it('are managed by those who manage the site, listed by its members, and hidden from everyone else', async () => {
    const { org, siteSpace, redirects } = await siteWithPages();
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const asReader = (method: 'GET' | 'POST', body?: object) => request(testApp.app, method, redirects, { token: reader.token, body });
    expect((await asReader('POST', { source: '/x', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } })).status).toBe(403);
    expect((await asReader('GET')).status).toBe(200);
    const stranger = await publishSampleSite(testApp);
    expect((await request(testApp.app, 'GET', redirects, { token: stranger.org.admin.token })).status).toBe(404);
  });

  it('resolve a source to the published URL it leads to, for readers of the site only, and to nothing once the page is gone', async () => {
    const { call, org, site, sites, space, siteSpace, setup, redirects, path } = await siteWithPages();
    await call('POST', redirects, { source: '/old/install', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: setup.id } });
    const resolve = `/v1/orgs/${org.organizationId}/sites/${site.id}/redirect?source=/old/install`;
    const resolved = await call('GET', resolve);
    expect(resolved.body).toMatchObject({ redirect: { source: '/old/install' }, target: `http://quire.test${path}/${siteSpace.path}/start-here/setup` });
    const outsider = await publishSampleSite(testApp);
    // A public published site's redirects resolve for anyone; a share-link site's only with its key.
    expect((await request(testApp.app, 'GET', resolve, { token: outsider.org.admin.token })).status).toBe(200);
    await call('PATCH', `${sites}/${site.id}`, { visibility: 'share-link' });
    expect((await request(testApp.app, 'GET', resolve, { token: outsider.org.admin.token })).status).toBe(404);
    expect((await call('GET', `/v1/orgs/${org.organizationId}/sites/${site.id}/redirect?source=/unknown`)).body.error.message).toBe('No redirect from "/unknown" on this site');
    const unasked = await call('GET', `/v1/orgs/${org.organizationId}/sites/${site.id}/redirect`);
    expect(unasked.status).toBe(400);
    expect(unasked.body.error).toEqual({ code: 400, message: 'querystring.source is required' });
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'delete_page', page: setup.id }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const gone = await call('GET', resolve);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain('no longer on this site');
  });

  it('send readers of the built-in reader on (307) where no page answers, never over a page that exists', async () => {
    const { call, open, siteSpace, setup, redirects, path } = await siteWithPages();
    await call('POST', redirects, { source: '/old/install', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: setup.id } });
    await call('POST', redirects, { source: '/reference', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: setup.id } });
    const moved = await open(`${path}/old/install`);
    expect(moved.response.statusCode).toBe(307);
    expect(moved.response.headers.location).toBe(`http://quire.test${path}/${siteSpace.path}/start-here/setup`);
    const followed = await open(new URL(String(moved.response.headers.location)).pathname);
    expect(followed.document.querySelector('main h1')!.textContent).toBe('Setup');
    expect((await open(`${path}/reference`)).response.statusCode).toBe(200);
    expect((await open(`${path}/old/other`)).response.statusCode).toBe(404);
  });

  it('work through the official client', async () => {
    const { org, site, siteSpace, setup } = await siteWithPages();
    const endpoint = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const api = new GitBookAPI({ endpoint, authToken: org.admin.token });
      const created = await api.orgs.createSiteRedirect(org.organizationId, site.id, { source: '/moved', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: setup.id } });
      expect(created.status).toBe(201);
      const listed = await api.orgs.listSiteRedirects(org.organizationId, site.id);
      expect(listed.data.items.map((item) => item.source)).toEqual(['/moved']);
      const resolved = await api.orgs.getSiteRedirectBySource(org.organizationId, site.id, { source: '/moved' });
      expect(resolved.data.target).toMatch(/\/start-here\/setup$/);
      await api.orgs.updateSiteRedirectById(org.organizationId, site.id, created.data.id, { source: '/moved-again' });
      expect((await api.orgs.deleteSiteRedirectById(org.organizationId, site.id, created.data.id)).status).toBe(205);
    } finally {
      await testApp.app.close();
    }
  });
});
