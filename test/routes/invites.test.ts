import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

describe('link invites', () => {
  it('creates (201), reads, changes and deletes (204) an invite link as an administrator', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const url = `/v1/orgs/${organizationId}/link-invites`;
    const created = await request(testApp.app, 'POST', url, { token: admin.token, body: { role: 'edit' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'invite', role: 'edit', redundant: true });
    const inviteUrl = `${url}/${created.body.id}`;
    expect((await request(testApp.app, 'GET', inviteUrl, { token: admin.token })).body.id).toBe(created.body.id);
    const changed = await request(testApp.app, 'PATCH', inviteUrl, { token: admin.token, body: { role: 'read' } });
    expect(changed.body.role).toBe('read');
    const listed = await request(testApp.app, 'GET', url, { token: admin.token });
    expect(listed.body.items.map((i: any) => i.id)).toEqual([created.body.id]);
    expect((await request(testApp.app, 'DELETE', inviteUrl, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', inviteUrl, { token: admin.token })).status).toBe(404);
  });

  it('refuses invite management to non-administrators (403) and strangers (404)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const stranger = await buildOrganization(testApp);
    const url = `/v1/orgs/${organizationId}/link-invites`;
    expect((await request(testApp.app, 'POST', url, { token: editor.token, body: { role: 'read' } })).status).toBe(403);
    expect((await request(testApp.app, 'GET', url, { token: editor.token })).status).toBe(403);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'POST', url, { token: admin.token, body: { role: 'owner' } })).status).toBe(400);
    expect((await request(testApp.app, 'POST', url, { token: admin.token, body: {} })).status).toBe(400);
  });

  it('lets anyone holding the link join with its role, and never demotes an existing member', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const newcomer = await buildOrganization(testApp, 'Newcomer home');
    const invite = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/link-invites`, {
      token: admin.token,
      body: { role: 'comment' },
    });
    const joined = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/invites/${invite.body.id}`, {
      token: newcomer.admin.token,
    });
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({});
    const member = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${newcomer.admin.userId}`, {
      token: admin.token,
    });
    expect(member.body.role).toBe('comment');
    const again = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/invites/${invite.body.id}`, {
      token: admin.token,
    });
    expect(again.status).toBe(200);
    const adminStill = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${admin.userId}`, {
      token: admin.token,
    });
    expect(adminStill.body.role).toBe('admin');
  });

  it('refuses joining with an unknown invite (404) or while invite links are off (403)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const newcomer = await buildOrganization(testApp);
    const unknown = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/invites/doesnotexist`, {
      token: newcomer.admin.token,
    });
    expect(unknown.status).toBe(404);
    const invite = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/link-invites`, {
      token: admin.token,
      body: { role: 'read' },
    });
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}`, { token: admin.token, body: { inviteLinks: false } });
    const off = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/invites/${invite.body.id}`, {
      token: newcomer.admin.token,
    });
    expect(off.status).toBe(403);
    expect(off.body.error.message).toMatch(/turned off/);
  });

  it('marks invites redundant only when the caller already has their role', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const invite = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/link-invites`, {
      token: admin.token,
      body: { role: null },
    });
    expect(invite.body).toMatchObject({ role: null, redundant: true });
    for (let i = 0; i < 4; i++) {
      await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/link-invites`, { token: admin.token, body: { role: 'admin' } });
    }
    const walk = await walkList(testApp.app, `/v1/orgs/${organizationId}/link-invites`, { token: admin.token, limit: 2 });
    expect(walk.items).toHaveLength(5);
    expect(new Set(walk.items.map((i: any) => i.id)).size).toBe(5);
  });
});
