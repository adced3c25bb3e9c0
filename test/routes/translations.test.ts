import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

describe('translation settings', () => {
  it('creates settings (201) with their languages, reads, replaces and deletes them', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const created = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/translations`, {
      token: admin.token,
      body: { title: 'European docs', languages: ['fr', 'de', 'fr', 'pt-br'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'translation-settings',
      title: 'European docs',
      languages: ['fr', 'de', 'pt-br'],
      permissions: { view: true, edit: true },
      urls: { location: `http://quire.test/v1/orgs/${organizationId}/translations/${created.body.id}` },
    });
    const url = `/v1/orgs/${organizationId}/translations/${created.body.id}`;
    testApp.clock.advance(1000);
    const renamed = await request(testApp.app, 'PUT', url, { token: admin.token, body: { title: 'EU docs' } });
    expect(renamed.body).toMatchObject({ title: 'EU docs', languages: ['fr', 'de', 'pt-br'] });
    expect(renamed.body.updatedAt > created.body.updatedAt).toBe(true);
    const relanguaged = await request(testApp.app, 'PUT', url, { token: admin.token, body: { title: 'EU docs', languages: ['ja'] } });
    expect(relanguaged.body.languages).toEqual(['ja']);
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).body.title).toBe('EU docs');
    expect((await request(testApp.app, 'DELETE', url, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).status).toBe(404);
  });

  it('lists settings newest first, page by page', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    for (const title of ['One', 'Two', 'Three']) {
      await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/translations`, { token: admin.token, body: { title } });
    }
    const { items, pages } = await walkList(testApp.app, `/v1/orgs/${organizationId}/translations`, { token: admin.token, limit: 2 });
    expect(items.map((item) => item.title)).toEqual(['Three', 'Two', 'One']);
    expect(pages).toBe(2);
  });

  it('refuses titles out of 1..100 and languages outside GitBook\'s list (400)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    for (const [body, field] of [
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(101) }, 'title'],
      [{}, 'title'],
      [{ title: 'ok', languages: ['klingon'] }, 'languages'],
      [{ title: 'ok', languages: 'fr' }, 'languages'],
    ] as const) {
      const refused = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/translations`, { token: admin.token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message).toContain(field);
    }
  });

  it('lets members read, only administrators change, and other organizations see nothing', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const created = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/translations`, {
      token: admin.token,
      body: { title: 'Docs' },
    });
    const url = `/v1/orgs/${organizationId}/translations/${created.body.id}`;
    const creator = await buildMember(testApp, organizationId, 'create');
    const stranger = await buildOrganization(testApp);
    const read = await request(testApp.app, 'GET', url, { token: creator.token });
    expect(read.body.permissions).toEqual({ view: true, edit: false });
    expect((await request(testApp.app, 'PUT', url, { token: creator.token, body: { title: 'Mine' } })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', url, { token: creator.token })).status).toBe(403);
    const createdByCreator = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/translations`, {
      token: creator.token,
      body: { title: 'Mine' },
    });
    expect(createdByCreator.status).toBe(403);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
  });
});
