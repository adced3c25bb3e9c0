import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

describe('members', () => {
  it('lists members newest first with their users, roles and counts', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit', 'Eve Editor');
    const { status, body } = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members`, { token: admin.token });
    expect(status).toBe(200);
    expect(body.count).toBe(2);
    expect(body.items.map((m: any) => m.id)).toEqual([editor.userId, admin.userId]);
    expect(body.items[0]).toMatchObject({
      object: 'member',
      id: editor.userId,
      role: 'edit',
      disabled: false,
      sso: false,
      spaces: 0,
      teams: 0,
      user: { object: 'user', id: editor.userId, displayName: 'Eve Editor', email: editor.email },
    });
    expect(body.items[0].lastSeenAt).toBeUndefined();
  });

  it('filters members by role, guest and search, and sorts ascending on request', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read', 'Rita Reader', 'rita@readers.example');
    const guest = await buildMember(testApp, organizationId, 'comment', 'Gus Guest');
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${guest.userId}`, {
      token: admin.token,
      body: { role: null },
    });
    const url = `/v1/orgs/${organizationId}/members`;
    const readers = await request(testApp.app, 'GET', url, { token: admin.token, query: { role: 'read' } });
    expect(readers.body.items.map((m: any) => m.id)).toEqual([reader.userId]);
    const guests = await request(testApp.app, 'GET', url, { token: admin.token, query: { role: 'guest' } });
    expect(guests.body.items.map((m: any) => m.id)).toEqual([guest.userId]);
    expect(guests.body.items[0].role).toBeNull();
    const byName = await request(testApp.app, 'GET', url, { token: admin.token, query: { search: 'RITA' } });
    expect(byName.body.items.map((m: any) => m.id)).toEqual([reader.userId]);
    const byEmail = await request(testApp.app, 'GET', url, { token: admin.token, query: { search: 'readers.example' } });
    expect(byEmail.body.count).toBe(1);
    const literal = await request(testApp.app, 'GET', url, { token: admin.token, query: { search: '%' } });
    expect(literal.body.count).toBe(0);
    const ascending = await request(testApp.app, 'GET', url, { token: admin.token, query: { order: 'asc' } });
    expect(ascending.body.items.map((m: any) => m.id)).toEqual([admin.userId, reader.userId, guest.userId]);
    const badRole = await request(testApp.app, 'GET', url, { token: admin.token, query: { role: 'owner' } });
    expect(badRole.status).toBe(400);
  });

  it('records presence with ping and lists only seen members when sorted by lastSeenAt', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const early = await buildMember(testApp, organizationId, 'read');
    await buildMember(testApp, organizationId, 'read');
    const ping = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/ping`, { token: early.token });
    expect(ping.status).toBe(200);
    expect(JSON.parse(ping.body.serviceVisitorClaims)).toMatchObject({ user: early.userId, organization: organizationId });
    await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/ping`, { token: admin.token });
    const seen = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members`, {
      token: admin.token,
      query: { sort: 'lastSeenAt' },
    });
    expect(seen.body.count).toBe(2);
    expect(seen.body.items.map((m: any) => m.id)).toEqual([admin.userId, early.userId]);
    expect(seen.body.items[0].lastSeenAt > seen.body.items[1].lastSeenAt).toBe(true);
  });

  it('walks a long member list, every member exactly once, with any filter', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    for (let i = 0; i < 11; i++) await buildMember(testApp, organizationId, i % 2 ? 'read' : 'edit');
    for (const order of ['asc', 'desc']) {
      const walk = await walkList(testApp.app, `/v1/orgs/${organizationId}/members`, {
        token: admin.token,
        limit: 3,
        query: { order },
      });
      expect(walk.items).toHaveLength(12);
      expect(new Set(walk.items.map((m: any) => m.id)).size).toBe(12);
    }
    const readers = await walkList(testApp.app, `/v1/orgs/${organizationId}/members`, {
      token: admin.token,
      limit: 2,
      query: { role: 'read' },
    });
    expect(readers.items).toHaveLength(5);
  });

  it('gets one member, and 404 for a user who is not one', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const other = await buildOrganization(testApp);
    const self = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${admin.userId}`, { token: admin.token });
    expect(self.body).toMatchObject({ id: admin.userId, role: 'admin' });
    const stranger = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${other.admin.userId}`, {
      token: admin.token,
    });
    expect(stranger.status).toBe(404);
  });

  it('lets administrators change roles and refuses everyone else with 403', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const reader = await buildMember(testApp, organizationId, 'read');
    const refused = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${reader.userId}`, {
      token: editor.token,
      body: { role: 'admin' },
    });
    expect(refused.status).toBe(403);
    const promoted = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${reader.userId}`, {
      token: admin.token,
      body: { role: 'review' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('review');
    const invalid = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${reader.userId}`, {
      token: admin.token,
      body: { role: 'superuser' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/body.role must be one of/);
  });

  it('never demotes or removes the last administrator (409), but allows it once another exists', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const url = `/v1/orgs/${organizationId}/members/${admin.userId}`;
    const demote = await request(testApp.app, 'PATCH', url, { token: admin.token, body: { role: 'edit' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toMatch(/last administrator/);
    const leave = await request(testApp.app, 'DELETE', url, { token: admin.token });
    expect(leave.status).toBe(409);
    const second = await buildMember(testApp, organizationId, 'admin');
    const demoted = await request(testApp.app, 'PATCH', url, { token: second.token, body: { role: 'edit' } });
    expect(demoted.status).toBe(200);
    const lastAgain = await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${second.userId}`, {
      token: second.token,
      body: { role: null },
    });
    expect(lastAgain.status).toBe(409);
  });

  it('removes a member with 204, who then loses access at once', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: reader.token })).status).toBe(200);
    const removed = await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/members/${reader.userId}`, {
      token: admin.token,
    });
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: reader.token })).status).toBe(404);
    const again = await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/members/${reader.userId}`, {
      token: admin.token,
    });
    expect(again.status).toBe(404);
  });

  it('lets a member leave, but not remove others', async () => {
    const { organizationId } = await buildOrganization(testApp);
    const first = await buildMember(testApp, organizationId, 'edit');
    const second = await buildMember(testApp, organizationId, 'edit');
    const refused = await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/members/${second.userId}`, {
      token: first.token,
    });
    expect(refused.status).toBe(403);
    const left = await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/members/${first.userId}`, {
      token: first.token,
    });
    expect(left.status).toBe(204);
  });

  it('keeps guests from listing members (403) while they still see the organization', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const guest = await buildMember(testApp, organizationId, 'read');
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${guest.userId}`, {
      token: admin.token,
      body: { role: null },
    });
    const organization = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: guest.token });
    expect(organization.status).toBe(200);
    expect(organization.body.permissions).toMatchObject({ view: true, listMembers: false });
    const members = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members`, { token: guest.token });
    expect(members.status).toBe(403);
    const self = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${guest.userId}`, { token: guest.token });
    expect(self.status).toBe(200);
  });

  it('marks a member as an SSO member (administrators only)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const refused = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/members/${reader.userId}/sso`, {
      token: reader.token,
    });
    expect(refused.status).toBe(403);
    const marked = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/members/${reader.userId}/sso`, {
      token: admin.token,
    });
    expect(marked.status).toBe(200);
    expect(marked.body.sso).toBe(true);
  });

  it('lists no spaces for a member while the organization has none', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const spaces = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${admin.userId}/spaces`, {
      token: admin.token,
    });
    expect(spaces.status).toBe(200);
    expect(spaces.body).toEqual({ count: 0, items: [] });
  });
});
