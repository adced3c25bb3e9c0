import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

describe('organizations', () => {
  it('lists the organizations of the caller, and only those', async () => {
    const mine = await buildOrganization(testApp, 'Mine');
    await buildOrganization(testApp, 'Theirs');
    const response = await request(testApp.app, 'GET', '/v1/orgs', { token: mine.admin.token });
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(1);
    expect(response.body.next).toBeUndefined();
    expect(response.body.items.map((o: any) => o.id)).toEqual([mine.organizationId]);
  });

  it('answers an organization with every field of the specification', async () => {
    const { organizationId, admin } = await buildOrganization(testApp, 'Fields');
    const { status, body } = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: admin.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      object: 'organization',
      id: organizationId,
      title: 'Fields',
      emailDomains: [],
      type: 'business',
      defaultRole: null,
      sso: false,
      ai: false,
      inviteLinks: true,
      plan: 'internal',
      trial: { status: 'notapplicable' },
      internal_isOnNewTrial: true,
      urls: { location: `http://quire.test/v1/orgs/${organizationId}`, app: `http://quire.test/o/${organizationId}/` },
      permissions: { view: true, admin: true, createContent: true, listMembers: true, listTeams: true },
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });

  it('computes the permissions object from the caller role', async () => {
    const { organizationId } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const creator = await buildMember(testApp, organizationId, 'create');
    const asReader = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: reader.token });
    expect(asReader.body.permissions).toMatchObject({ view: true, admin: false, createContent: false, listMembers: true });
    const asCreator = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: creator.token });
    expect(asCreator.body.permissions).toMatchObject({ admin: false, createContent: true, createOpenAPISpec: false });
  });

  it('hides an organization from non-members with 404', async () => {
    const { organizationId } = await buildOrganization(testApp);
    const outsider = await buildOrganization(testApp, 'Elsewhere');
    const response = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: outsider.admin.token });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 404 });
    const patch = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, {
      token: outsider.admin.token,
      body: { title: 'Taken over' },
    });
    expect(patch.status).toBe(404);
  });

  it('creates an organization with the caller as its administrator', async () => {
    const { admin } = await buildOrganization(testApp);
    const created = await request(testApp.app, 'POST', '/v1/orgs', {
      token: admin.token,
      body: { title: 'Second', emailDomains: ['Example.ORG'] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(created.body.urls.location);
    expect(created.body).toMatchObject({ title: 'Second', emailDomains: ['example.org'], permissions: { admin: true } });
    const member = await request(testApp.app, 'GET', `/v1/orgs/${created.body.id}/members/${admin.userId}`, {
      token: admin.token,
    });
    expect(member.body.role).toBe('admin');
  });

  it('lets administrators change an organization and refuses other members with 403', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const changes = {
      title: 'Renamed',
      emailDomains: ['acme.example'],
      hostname: `acme-${Date.now() % 100000}`,
      defaultRole: 'read',
      logo: 'https://cdn.example/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
    };
    const refused = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, { token: editor.token, body: changes });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/administrators/);
    const patched = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, { token: admin.token, body: changes });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Renamed',
      emailDomains: ['acme.example'],
      hostname: changes.hostname,
      defaultRole: 'read',
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.example/logo.png' },
    });
    const cleared = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, {
      token: admin.token,
      body: { logo: null, defaultRole: null },
    });
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultRole).toBeNull();
  });

  it('refuses a hostname another organization uses with 409', async () => {
    const first = await buildOrganization(testApp);
    const second = await buildOrganization(testApp);
    const hostname = `shared-${Date.now() % 100000}`;
    expect((await request(testApp.app, 'PATCH', `/v1/orgs/${first.organizationId}`, { token: first.admin.token, body: { hostname } })).status).toBe(200);
    const taken = await request(testApp.app, 'PATCH', `/v1/orgs/${second.organizationId}`, {
      token: second.admin.token,
      body: { hostname },
    });
    expect(taken.status).toBe(409);
  });

  it.each([
    [{ title: 'x' }, /title must NOT have fewer than 2 characters/],
    [{ title: 'x'.repeat(256) }, /title must NOT have more than 255 characters/],
    [{ hostname: 'ab' }, /hostname/],
    [{ hostname: 'Not a host!' }, /hostname must be 3 to 32/],
    [{ defaultRole: 'owner' }, /defaultRole must be one of/],
    [{ emailDomains: ['not a domain'] }, /emailDomains/],
    [{ logo: 'not a url' }, /body.logo is not of the expected form: Logo URL/],
    [{ sso: 'yes' }, /sso must be boolean/],
    [{ defaultContent: { type: 'site', site: 'missing' } }, /no site with id "missing"/],
  ])('refuses the invalid change %j with 400 naming the field', async (body, message) => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const response = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, { token: admin.token, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('walks the list of organizations page by page, each exactly once', async () => {
    const { admin } = await buildOrganization(testApp);
    for (let i = 0; i < 6; i++) {
      await request(testApp.app, 'POST', '/v1/orgs', { token: admin.token, body: { title: `Org ${i}` } });
    }
    const walk = await walkList(testApp.app, '/v1/orgs', { token: admin.token, limit: 2 });
    expect(walk.items).toHaveLength(7);
    expect(new Set(walk.items.map((o: any) => o.id)).size).toBe(7);
    expect(walk.pages).toBe(4);
    expect(walk.counts.every((count) => count === 7)).toBe(true);
    const createdAt = walk.items.map((o: any) => o.createdAt);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
  });

  it('refuses limits over 1000 and invalid cursors with 400', async () => {
    const { admin } = await buildOrganization(testApp);
    const tooMany = await request(testApp.app, 'GET', '/v1/orgs', { token: admin.token, query: { limit: 1001 } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/limit must be <= 1000/);
    const badCursor = await request(testApp.app, 'GET', '/v1/orgs', { token: admin.token, query: { page: 'garbage' } });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.message).toMatch(/page is not a valid cursor/);
  });

  it('finds organizations by e-mail domain for people of that domain', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const domain = `d${Date.now() % 100000}.example`;
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, { token: admin.token, body: { emailDomains: [domain] } });
    const found = await request(testApp.app, 'GET', `/v1/email-domains/${domain}/orgs`, { token: admin.token });
    expect(found.status).toBe(200);
    expect(found.body.organizations.map((o: any) => o.id)).toEqual([organizationId]);
    const stranger = await buildOrganization(testApp);
    const hidden = await request(testApp.app, 'GET', `/v1/email-domains/${domain}/orgs`, { token: stranger.admin.token });
    expect(hidden.body.organizations).toEqual([]);
  });
});
