import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';

const testApp = useTestApp();

async function space(org: Organization, title: string) {
  return (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token: org.admin.token, body: { title } })).body;
}

async function site(org: Organization, body: object = { title: 'Docs' }) {
  return request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/sites`, { token: org.admin.token, body });
}

const siteUrl = (org: Organization, siteId: string, rest = '') => `/v1/orgs/${org.organizationId}/sites/${siteId}${rest}`;

describe('sites', () => {
  it('creates a site (201) with its spaces, the first one the default, and every field', async () => {
    const org = await buildOrganization(testApp);
    const guide = await space(org, 'Guide');
    const created = await site(org, { title: 'Public docs', spaces: [guide.id, { title: 'Made for the site' }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Public docs',
      visibility: 'public',
      published: false,
      siteSpaces: 2,
      features: [],
      adaptiveContent: { enabled: false },
      urls: { location: `http://quire.test${siteUrl(org, created.body.id)}` },
    });
    expect(created.body.urls.published).toBeUndefined();
    const spaces = await request(testApp.app, 'GET', siteUrl(org, created.body.id, '/site-spaces'), { token: org.admin.token });
    expect(spaces.body.items.map((ss: any) => [ss.space.title, ss.default, ss.path])).toEqual([
      ['Guide', true, 'guide'],
      ['Made for the site', false, 'made-for-the-site'],
    ]);
    const structure = await request(testApp.app, 'GET', siteUrl(org, created.body.id, '/structure'), { token: org.admin.token });
    expect(structure.body.type).toBe('siteSpaces');
    expect(structure.body.structure).toHaveLength(2);
  });

  it('lets create and admin roles manage sites; read members see but get 403; other organizations 404', async () => {
    const org = await buildOrganization(testApp);
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const creator = await buildMember(testApp, org.organizationId, 'create');
    const stranger = await buildOrganization(testApp);
    const created = await site(org);
    const url = siteUrl(org, created.body.id);
    expect((await request(testApp.app, 'GET', url, { token: reader.token })).status).toBe(200);
    expect((await request(testApp.app, 'PATCH', url, { token: reader.token, body: { title: 'Mine' } })).status).toBe(403);
    expect((await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/sites`, { token: reader.token, body: { title: 'No' } })).status).toBe(403);
    expect((await request(testApp.app, 'PATCH', url, { token: creator.token, body: { title: 'Theirs' } })).status).toBe(200);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'DELETE', url, { token: stranger.admin.token })).status).toBe(404);
  });

  it('changes title, visibility, basename, hostname, proxy and adaptive content, and publishes', async () => {
    const org = await buildOrganization(testApp);
    const created = await site(org);
    const url = siteUrl(org, created.body.id);
    const patched = await request(testApp.app, 'PATCH', url, {
      token: org.admin.token,
      body: { title: 'Renamed', visibility: 'share-link', basename: 'api', hostname: 'docs.example.com', proxy: 'example.com/docs/', adaptiveContent: { enabled: true } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Renamed',
      visibility: 'share-link',
      basename: 'api',
      hostname: 'docs.example.com',
      proxy: { origin: 'https://example.com/docs' },
      adaptiveContent: { enabled: true },
    });
    const published = await request(testApp.app, 'POST', `${url}/publish`, { token: org.admin.token });
    expect(published.body).toMatchObject({ published: true, urls: { published: 'https://docs.example.com/api' } });
    const cleared = await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { proxy: null, hostname: null, basename: null } });
    expect(cleared.body.proxy).toBeUndefined();
    expect(cleared.body.urls.published).toBe(`http://quire.test/sites/${created.body.id}`);
    expect((await request(testApp.app, 'POST', `${url}/unpublish`, { token: org.admin.token })).body.published).toBe(false);
    for (const body of [{ title: 'x' }, { title: 'x'.repeat(129) }, { visibility: 'private' }, { basename: '' }, { hostname: 'localhost' }, { proxy: 'ftp://x.test' }]) {
      expect((await request(testApp.app, 'PATCH', url, { token: org.admin.token, body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('filters the site list by space, title, published and type, and walks it', async () => {
    const org = await buildOrganization(testApp);
    const shown = await space(org, 'Shown');
    const withSpace = await site(org, { title: 'With space', spaces: [shown.id] });
    const other = await site(org, { title: 'Other site', type: 'premium' });
    await request(testApp.app, 'POST', siteUrl(org, other.body.id, '/publish'), { token: org.admin.token });
    const list = (query: object) => request(testApp.app, 'GET', `/v1/orgs/${org.organizationId}/sites`, { token: org.admin.token, query: query as any });
    expect((await list({ space: shown.id })).body.items.map((s: any) => s.id)).toEqual([withSpace.body.id]);
    expect((await list({ title: 'OTHER' })).body.items.map((s: any) => s.id)).toEqual([other.body.id]);
    expect((await list({ published: true })).body.items.map((s: any) => s.id)).toEqual([other.body.id]);
    expect((await list({ type: 'premium' })).body.items.map((s: any) => s.id)).toEqual([other.body.id]);
    for (let i = 0; i < 4; i++) await site(org, { title: `Site ${i}` });
    expect((await walkList(testApp.app, `/v1/orgs/${org.organizationId}/sites`, { token: org.admin.token, limit: 4 })).items).toHaveLength(6);
  });

  it('deletes a site with its structure but never its spaces; deleting a space removes its site spaces', async () => {
    const org = await buildOrganization(testApp);
    const first = await space(org, 'First');
    const second = await space(org, 'Second');
    const created = await site(org, { title: 'Docs', spaces: [first.id, second.id] });
    await request(testApp.app, 'DELETE', `/v1/spaces/${first.id}`, { token: org.admin.token });
    const remaining = await request(testApp.app, 'GET', siteUrl(org, created.body.id, '/site-spaces'), { token: org.admin.token });
    expect(remaining.body.items.map((ss: any) => [ss.space.id, ss.default])).toEqual([[second.id, true]]);
    expect((await request(testApp.app, 'DELETE', siteUrl(org, created.body.id), { token: org.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', siteUrl(org, created.body.id), { token: org.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${second.id}`, { token: org.admin.token })).status).toBe(200);
  });
});

describe('site structure', () => {
  it('gathers root site spaces into a first section, and keeps one default section and one default per section', async () => {
    const org = await buildOrganization(testApp);
    const [a, b, c] = [await space(org, 'Alpha'), await space(org, 'Beta'), await space(org, 'Gamma')];
    const created = await site(org, { title: 'Docs', spaces: [a.id, b.id] });
    const url = (rest: string) => siteUrl(org, created.body.id, rest);
    const second = await request(testApp.app, 'POST', url('/sections'), { token: org.admin.token, body: { spaceId: c.id, title: 'Product' } });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ object: 'site-section', title: 'Product', path: 'product', default: false });
    expect(second.body.siteSpaces.map((ss: any) => [ss.space.title, ss.default])).toEqual([['Gamma', true]]);
    const structure = await request(testApp.app, 'GET', url('/structure'), { token: org.admin.token });
    expect(structure.body.type).toBe('sections');
    const section = { body: structure.body.structure[0] };
    expect(section.body).toMatchObject({ title: 'Docs', path: 'docs', default: true });
    expect(section.body.siteSpaces.map((ss: any) => [ss.space.title, ss.default])).toEqual([
      ['Alpha', true],
      ['Beta', false],
    ]);
    expect(structure.body.structure.map((s: any) => s.id)).toEqual([section.body.id, second.body.id]);

    await request(testApp.app, 'PATCH', siteUrl(org, created.body.id), { token: org.admin.token, body: { defaultSiteSection: second.body.id } });
    const sections = await request(testApp.app, 'GET', url('/sections'), { token: org.admin.token });
    expect(sections.body.items.map((s: any) => s.default)).toEqual([false, true]);
    const betaSiteSpace = section.body.siteSpaces[1].id;
    await request(testApp.app, 'PATCH', url(`/sections/${section.body.id}`), { token: org.admin.token, body: { defaultSiteSpace: betaSiteSpace } });
    const defaults = await request(testApp.app, 'GET', url('/site-spaces'), { token: org.admin.token, query: { default: true } });
    expect(defaults.body.items.map((ss: any) => ss.id).sort()).toEqual([betaSiteSpace, second.body.siteSpaces[0].id].sort());
    const others = await request(testApp.app, 'GET', url('/site-spaces'), { token: org.admin.token, query: { default: false } });
    expect(others.body.count).toBe(1);
    expect((await request(testApp.app, 'DELETE', url(`/site-spaces/${betaSiteSpace}`), { token: org.admin.token })).status).toBe(204);
    const promoted = await request(testApp.app, 'GET', url('/sections'), { token: org.admin.token });
    expect(promoted.body.items[0].siteSpaces.filter((ss: any) => ss.default)).toHaveLength(1);
    expect((await request(testApp.app, 'DELETE', url(`/sections/${second.body.id}`), { token: org.admin.token })).status).toBe(204);
    const last = await request(testApp.app, 'GET', url('/sections'), { token: org.admin.token });
    expect(last.body.items.map((s: any) => [s.id, s.default])).toEqual([[section.body.id, true]]);
    const wrong = await request(testApp.app, 'PATCH', url(`/sections/${section.body.id}`), { token: org.admin.token, body: { defaultSiteSpace: 'nope' } });
    expect(wrong.status).toBe(400);
  });

  it('adds a site space to the default section when no section is named, and moves site spaces', async () => {
    const org = await buildOrganization(testApp);
    const [a, b, c] = [await space(org, 'A'), await space(org, 'B'), await space(org, 'C')];
    const created = await site(org);
    const url = (rest: string) => siteUrl(org, created.body.id, rest);
    const root = await request(testApp.app, 'POST', url('/site-spaces'), { token: org.admin.token, body: { spaceId: a.id } });
    expect(root.status).toBe(201);
    expect(root.body.section).toBeUndefined();
    expect(root.body.default).toBe(true);
    const section = await request(testApp.app, 'POST', url('/sections'), { token: org.admin.token, body: { spaceId: b.id } });
    const defaultSection = (await request(testApp.app, 'GET', url('/sections'), { token: org.admin.token })).body.items.find((s: any) => s.default);
    expect(defaultSection.id).not.toBe(section.body.id);
    const added = await request(testApp.app, 'POST', url('/site-spaces'), { token: org.admin.token, body: { spaceId: c.id } });
    expect(added.body.section).toBe(defaultSection.id);
    const moved = await request(testApp.app, 'POST', url(`/site-spaces/${added.body.id}/move`), {
      token: org.admin.token,
      body: { position: { before: { type: 'site-space', siteSpace: root.body.id } } },
    });
    expect(moved.status).toBe(200);
    const order = await request(testApp.app, 'GET', url('/site-spaces'), { token: org.admin.token });
    expect(order.body.items.map((ss: any) => ss.space.title)).toEqual(['C', 'A', 'B']);
    const elsewhere = await request(testApp.app, 'POST', url(`/site-spaces/${added.body.id}/move`), {
      token: org.admin.token,
      body: { position: { after: { type: 'site-space', siteSpace: 'another-site' } } },
    });
    expect(elsewhere.status).toBe(400);
    const foreign = await request(testApp.app, 'POST', url('/site-spaces'), { token: org.admin.token, body: { spaceId: 'not-here' } });
    expect(foreign.status).toBe(400);
    const badSection = await request(testApp.app, 'POST', url('/site-spaces'), { token: org.admin.token, body: { spaceId: a.id, sectionId: 'x' } });
    expect(badSection.status).toBe(400);
  });

  it('validates conditions when saved: unset keeps, null removes, a syntax error or a call is a 400', async () => {
    const org = await buildOrganization(testApp);
    const created = await site(org, { title: 'Docs', spaces: [(await space(org, 'A')).id] });
    const siteSpaceId = (await request(testApp.app, 'GET', siteUrl(org, created.body.id, '/site-spaces'), { token: org.admin.token })).body.items[0].id;
    const url = siteUrl(org, created.body.id, `/site-spaces/${siteSpaceId}`);
    const set = await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { condition: 'visitor.claims.beta == true' } });
    expect(set.body.condition).toBe('visitor.claims.beta == true');
    const kept = await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { path: 'beta-docs' } });
    expect(kept.body).toMatchObject({ condition: 'visitor.claims.beta == true', path: 'beta-docs' });
    for (const condition of ['visitor.claims.beta ==', 'process.exit()', 'visitor.claims.run()', 'x'.repeat(1025), '']) {
      expect((await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { condition } })).status, condition).toBe(400);
    }
    const removed = await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { condition: null } });
    expect(removed.body.condition).toBeUndefined();
  });

  it('groups sections, moves groups and sections, and keeps sections when a group goes', async () => {
    const org = await buildOrganization(testApp);
    const created = await site(org);
    const url = (rest: string) => siteUrl(org, created.body.id, rest);
    const sections = [];
    for (const title of ['One', 'Two', 'Three']) {
      sections.push((await request(testApp.app, 'POST', url('/sections'), { token: org.admin.token, body: { spaceId: (await space(org, title)).id, title } })).body);
    }
    const group = await request(testApp.app, 'POST', url('/section-groups'), {
      token: org.admin.token,
      body: { title: 'Guides', sections: [sections[1].id] },
    });
    expect(group.status).toBe(201);
    expect(group.body.sections.map((s: any) => s.title)).toEqual(['Two']);
    const addedToGroup = await request(testApp.app, 'POST', url(`/section-groups/${group.body.id}/sections`), {
      token: org.admin.token,
      body: { sectionId: sections[2].id },
    });
    expect(addedToGroup.body.sections.map((s: any) => s.title)).toEqual(['Two', 'Three']);
    await request(testApp.app, 'POST', url(`/section-groups/${group.body.id}/move`), {
      token: org.admin.token,
      body: { position: { before: { type: 'site-section', id: sections[0].id } } },
    });
    const structure = async () => (await request(testApp.app, 'GET', url('/structure'), { token: org.admin.token })).body.structure;
    expect((await structure()).map((item: any) => item.title)).toEqual(['Guides', 'One']);
    const wrongKind = await request(testApp.app, 'POST', url(`/sections/${sections[2].id}/move`), {
      token: org.admin.token,
      body: { position: { before: { type: 'site-section', siteSection: sections[0].id } } },
    });
    expect(wrongKind.status).toBe(400);
    await request(testApp.app, 'POST', url(`/sections/${sections[2].id}/move`), {
      token: org.admin.token,
      body: { position: { before: { type: 'site-section', siteSection: sections[1].id } } },
    });
    expect((await structure())[0].sections.map((s: any) => s.title)).toEqual(['Three', 'Two']);
    const renamed = await request(testApp.app, 'PATCH', url(`/section-groups/${group.body.id}`), { token: org.admin.token, body: { title: 'Handbooks' } });
    expect(renamed.body.title).toBe('Handbooks');
    expect((await request(testApp.app, 'DELETE', url(`/section-groups/${group.body.id}/sections/${sections[1].id}`), { token: org.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'DELETE', url(`/section-groups/${group.body.id}`), { token: org.admin.token })).status).toBe(204);
    expect((await structure()).map((item: any) => item.title)).toEqual(['Three', 'One', 'Two']);
    const groups = await request(testApp.app, 'GET', url('/section-groups'), { token: org.admin.token });
    expect(groups.body.count).toBe(0);
    const taken = await request(testApp.app, 'PATCH', url(`/sections/${sections[0].id}`), { token: org.admin.token, body: { path: sections[1].path } });
    expect(taken.status).toBe(409);
  });
});

describe('reading published sites', () => {
  it('opens published public sites to anyone, and unpublished ones only to members', async () => {
    const org = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const created = await site(org, { title: 'Open', spaces: [(await space(org, 'A')).id] });
    const published = siteUrl(org, created.body.id, '/published');
    expect((await request(testApp.app, 'GET', published, { token: stranger.admin.token })).status).toBe(404);
    const asMember = await request(testApp.app, 'GET', published, { token: org.admin.token });
    expect(asMember.status).toBe(200);
    await request(testApp.app, 'POST', siteUrl(org, created.body.id, '/publish'), { token: org.admin.token });
    const profile = await request(testApp.app, 'GET', published, { token: stranger.admin.token });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({
      object: 'published-content-site',
      site: { id: created.body.id, published: true },
      structure: { type: 'siteSpaces' },
      customizations: {
        site: {
          title: 'Open',
          styling: { theme: 'clean', corners: 'rounded', font: 'Inter', primaryColor: { light: expect.any(String), dark: expect.any(String) } },
          internationalization: { locale: 'en' },
          themes: { default: 'light', toggeable: true },
          pdf: { enabled: true },
          feedback: { enabled: false },
          aiSearch: { enabled: true },
          ai: { mode: 'none' },
        },
      },
    });
    const spaceId = profile.body.structure.structure[0].space.id;
    const spaceRead = await request(testApp.app, 'GET', `/v1/spaces/${spaceId}`, { token: stranger.admin.token });
    expect(spaceRead.status).toBe(200);
    expect(spaceRead.body.permissions).toMatchObject({ view: true, edit: false });
  });

  it('opens only the current revision and the space without private fields to readers of a public site', async () => {
    const org = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const collection = (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/collections`, { token: org.admin.token, body: { title: 'Guides' } })).body;
    const shown = await space(org, 'Handbook');
    await request(testApp.app, 'POST', `/v1/spaces/${shown.id}/move`, { token: org.admin.token, body: { parent: collection.id } });
    const spaceUrl = `/v1/spaces/${shown.id}`;
    const draft = await request(testApp.app, 'POST', `${spaceUrl}/change-requests`, { token: org.admin.token, body: { subject: 'Draft' } });
    await request(testApp.app, 'POST', `${spaceUrl}/change-requests/${draft.body.id}/content`, {
      token: org.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Unreleased', document: 'Not yet' }] },
    });
    const draftRevision = (await request(testApp.app, 'GET', `${spaceUrl}/change-requests/${draft.body.id}`, { token: org.admin.token })).body.revision;
    await request(testApp.app, 'POST', `${spaceUrl}/comments`, { token: org.admin.token, body: { body: { markdown: 'Internal note' } } });
    const created = await site(org, { title: 'Open', visibility: 'public', spaces: [shown.id] });
    await request(testApp.app, 'POST', siteUrl(org, created.body.id, '/publish'), { token: org.admin.token });

    const read = (url: string) => request(testApp.app, 'GET', url, { token: stranger.admin.token });
    const seen = await read(spaceUrl);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, defaultLevel: null });
    expect(seen.body.parent).toBeUndefined();
    expect(seen.body.permissions).toEqual(expect.objectContaining({ view: true, access: true, edit: false, comment: false }));
    expect((await read(`${spaceUrl}/revisions/${seen.body.revision}`)).status).toBe(200);
    for (const hidden of [
      `${spaceUrl}/revisions/${draftRevision}`,
      `${spaceUrl}/change-requests`,
      `${spaceUrl}/change-requests/${draft.body.id}`,
      `${spaceUrl}/change-requests/${draft.body.id}/content/pages`,
      `${spaceUrl}/comments`,
      `${spaceUrl}/links`,
      `${spaceUrl}/custom-fields`,
    ]) {
      expect((await read(hidden)).status, hidden).toBe(404);
    }
    const asMember = await request(testApp.app, 'GET', spaceUrl, { token: org.admin.token });
    expect(asMember.body).toMatchObject({ comments: 1, changeRequests: 1, parent: collection.id });
  });

  it('opens share-link sites only with the key of an active share link', async () => {
    const org = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const shown = await space(org, 'Secret');
    const created = await site(org, { title: 'Shared', visibility: 'share-link', spaces: [shown.id] });
    await request(testApp.app, 'POST', siteUrl(org, created.body.id, '/publish'), { token: org.admin.token });
    const link = await request(testApp.app, 'POST', siteUrl(org, created.body.id, '/share-links'), { token: org.admin.token, body: { name: 'Partners' } });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const published = siteUrl(org, created.body.id, '/published');
    expect((await request(testApp.app, 'GET', published, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', published, { token: stranger.admin.token, query: { shareKey: 'wrong' } })).status).toBe(404);
    expect((await request(testApp.app, 'GET', published, { token: stranger.admin.token, query: { shareKey: link.body.key } })).status).toBe(200);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${shown.id}`, { token: stranger.admin.token, query: { shareKey: link.body.key } })).status).toBe(200);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${shown.id}`, { token: stranger.admin.token })).status).toBe(404);
    const off = await request(testApp.app, 'PATCH', siteUrl(org, created.body.id, `/share-links/${link.body.id}`), {
      token: org.admin.token,
      body: { active: false },
    });
    expect(off.body.active).toBe(false);
    expect((await request(testApp.app, 'GET', published, { token: stranger.admin.token, query: { shareKey: link.body.key } })).status).toBe(404);
    const links = await request(testApp.app, 'GET', siteUrl(org, created.body.id, '/share-links'), { token: org.admin.token });
    expect(links.body.count).toBe(1);
    expect((await request(testApp.app, 'DELETE', siteUrl(org, created.body.id, `/share-links/${link.body.id}`), { token: org.admin.token })).status).toBe(204);
  });

  it('admits visitor-auth readers with a token signed by the site key, and shows them what their claims allow', async () => {
    const org = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const created = await site(org, { title: 'Private docs', visibility: 'visitor-auth' });
    const url = (rest: string) => siteUrl(org, created.body.id, rest);
    const everyone = await request(testApp.app, 'POST', url('/sections'), { token: org.admin.token, body: { spaceId: (await space(org, 'Everyone')).id } });
    const beta = await request(testApp.app, 'POST', url('/sections'), { token: org.admin.token, body: { spaceId: (await space(org, 'Beta')).id } });
    await request(testApp.app, 'PATCH', url(`/sections/${beta.body.id}`), { token: org.admin.token, body: { condition: 'visitor.claims.beta == true' } });
    await request(testApp.app, 'POST', url('/publish'), { token: org.admin.token });
    const { privateKey } = (await request(testApp.app, 'GET', url('/publishing/auth'), { token: org.admin.token })).body;
    const sign = (claims: object, key = privateKey) =>
      new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(key));
    const read = async (token?: string) =>
      request(testApp.app, 'GET', url('/structure'), { token: stranger.admin.token, query: token ? { visitorAuthToken: token } : {} });
    expect((await read()).status).toBe(404);
    expect((await read(await sign({ beta: true }, 'not-the-site-key'))).status).toBe(404);
    const plain = await read(await sign({}));
    expect(plain.status).toBe(200);
    expect(plain.body.structure.map((s: any) => s.id)).toEqual([everyone.body.id]);
    const tester = await read(await sign({ beta: true }));
    expect(tester.body.structure.map((s: any) => s.id)).toEqual([everyone.body.id, beta.body.id]);
    const siteSpacesFor = async (token: string) =>
      (await request(testApp.app, 'GET', url('/site-spaces'), { token: stranger.admin.token, query: { visitorAuthToken: token } })).body.items.map((ss: any) => ss.section);
    expect(await siteSpacesFor(await sign({}))).toEqual([everyone.body.id]);
    expect(await siteSpacesFor(await sign({ beta: true }))).toEqual([everyone.body.id, beta.body.id]);
    const member = await request(testApp.app, 'GET', url('/structure'), { token: org.admin.token });
    expect(member.body.structure).toHaveLength(2);
    const reader = await buildMember(testApp, org.organizationId, 'read');
    expect((await request(testApp.app, 'GET', url('/publishing/auth'), { token: reader.token })).status).toBe(403);
  });

  it('stores customization over the defaults and validates the adaptive schema', async () => {
    const org = await buildOrganization(testApp);
    const created = await site(org);
    const url = (rest: string) => siteUrl(org, created.body.id, rest);
    const put = await request(testApp.app, 'PUT', url('/customization'), {
      token: org.admin.token,
      body: { styling: { corners: 'straight', primaryColor: { light: '#000000', dark: '#ffffff' } }, announcement: { enabled: true, message: 'Hello' } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ styling: { corners: 'straight', font: 'Inter', primaryColor: { light: '#000000' } }, announcement: { enabled: true, message: 'Hello', style: 'info' } });
    expect((await request(testApp.app, 'GET', url('/customization'), { token: org.admin.token })).body.styling.corners).toBe('straight');
    expect((await request(testApp.app, 'PUT', url('/customization'), { token: org.admin.token, body: { styling: { corners: 'wavy' } } })).status).toBe(400);

    const initial = await request(testApp.app, 'GET', url('/adaptive-schema'), { token: org.admin.token });
    expect(initial.body).toMatchObject({ object: 'site-adaptive-schema', jsonSchema: { type: 'object', properties: {} } });
    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { beta: { type: 'boolean', description: 'Joined the beta' } },
      additionalProperties: false,
    };
    const saved = await request(testApp.app, 'PUT', url('/adaptive-schema'), { token: org.admin.token, body: { jsonSchema } });
    expect(saved.status).toBe(200);
    expect(saved.body.jsonSchema).toEqual(jsonSchema);
    expect((await request(testApp.app, 'GET', url('/adaptive-schema'), { token: org.admin.token })).body.jsonSchema).toEqual(jsonSchema);
    for (const bad of [
      { type: 'array' },
      { type: 'object', properties: { beta: { type: 'string', description: 'x' } } },
      { type: 'object', properties: { beta: { type: 'boolean' } } },
      { type: 'object', properties: { beta: { type: 'boolean', description: 'x' } }, additionalProperties: 'no' },
    ]) {
      expect((await request(testApp.app, 'PUT', url('/adaptive-schema'), { token: org.admin.token, body: { jsonSchema: bad } })).status, JSON.stringify(bad)).toBe(400);
    }
  });
});
