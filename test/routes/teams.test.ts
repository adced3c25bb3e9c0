import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

async function createTeam(organizationId: string, token: string, body: object) {
  return request(testApp.app, 'PUT', `/v1/orgs/${organizationId}/teams`, { token, body });
}

describe('teams', () => {
  it('creates a team with members (201) and answers every field', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const created = await createTeam(organizationId, admin.token, { title: 'Writers', members: [editor.userId] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 1,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    const fetched = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/teams/${created.body.id}`, {
      token: editor.token,
    });
    expect(fetched.body).toMatchObject({ id: created.body.id, permissions: { admin: false, view: true } });
    const member = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${editor.userId}`, {
      token: admin.token,
    });
    expect(member.body.teams).toBe(1);
  });

  it('refuses team members who are not in the organization (400) and non-admin creators (403)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const outsider = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const stranger = await createTeam(organizationId, admin.token, { title: 'T', members: [outsider.admin.userId] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toContain(outsider.admin.userId);
    expect((await createTeam(organizationId, editor.token, { title: 'T' })).status).toBe(403);
    expect((await createTeam(organizationId, admin.token, { title: '' })).status).toBe(400);
    expect((await createTeam(organizationId, admin.token, { title: 'x'.repeat(65) })).status).toBe(400);
    expect((await createTeam(organizationId, outsider.admin.token, { title: 'T' })).status).toBe(404);
  });

  it('filters teams by title and by the owner who manages them', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const owner = await buildMember(testApp, organizationId, 'edit');
    const docs = await createTeam(organizationId, admin.token, { title: 'Docs Writers' });
    await createTeam(organizationId, admin.token, { title: 'Support' });
    await request(testApp.app, 'PUT', `/v1/orgs/${organizationId}/teams/${docs.body.id}/members/${owner.userId}`, {
      token: admin.token,
      body: { role: 'owner' },
    });
    const url = `/v1/orgs/${organizationId}/teams`;
    const byTitle = await request(testApp.app, 'GET', url, { token: owner.token, query: { title: 'writers' } });
    expect(byTitle.body.items.map((t: any) => t.id)).toEqual([docs.body.id]);
    const owned = await request(testApp.app, 'GET', url, { token: admin.token, query: { owner: owner.userId } });
    expect(owned.body.items.map((t: any) => t.id)).toEqual([docs.body.id]);
    const adminManages = await request(testApp.app, 'GET', url, { token: admin.token, query: { owner: admin.userId } });
    expect(adminManages.body.count).toBe(2);
    const asOwner = await request(testApp.app, 'GET', url, { token: owner.token });
    const ownedTeam = asOwner.body.items.find((t: any) => t.id === docs.body.id);
    expect(ownedTeam.permissions.admin).toBe(true);
    const organization = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: owner.token });
    expect(organization.body.permissions.ownTeam).toBe(true);
  });

  it('lets team owners rename their team and manage its members, and refuses plain members', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const owner = await buildMember(testApp, organizationId, 'edit');
    const plain = await buildMember(testApp, organizationId, 'edit');
    const team = await createTeam(organizationId, admin.token, { title: 'Team', members: [plain.userId] });
    const teamUrl = `/v1/orgs/${organizationId}/teams/${team.body.id}`;
    await request(testApp.app, 'PUT', `${teamUrl}/members/${owner.userId}`, { token: admin.token, body: { role: 'owner' } });
    expect((await request(testApp.app, 'PATCH', teamUrl, { token: plain.token, body: { title: 'Mine' } })).status).toBe(403);
    const renamed = await request(testApp.app, 'PATCH', teamUrl, { token: owner.token, body: { title: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Renamed');
    const removed = await request(testApp.app, 'DELETE', `${teamUrl}/members/${plain.userId}`, { token: owner.token });
    expect(removed.status).toBe(204);
    const members = await request(testApp.app, 'GET', `${teamUrl}/members`, { token: plain.token });
    expect(members.body.items.map((m: any) => [m.organization.id, m.team.role])).toEqual([[owner.userId, 'owner']]);
    expect(members.body.items[0]).toMatchObject({ permissions: { view: true }, organization: { object: 'member' } });
  });

  it('adds, removes and sets roles in one batch, by user id or e-mail', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const first = await buildMember(testApp, organizationId, 'read');
    const second = await buildMember(testApp, organizationId, 'read');
    const third = await buildMember(testApp, organizationId, 'read');
    const team = await createTeam(organizationId, admin.token, { title: 'Batch', members: [third.userId] });
    const teamUrl = `/v1/orgs/${organizationId}/teams/${team.body.id}`;
    const updated = await request(testApp.app, 'PUT', `${teamUrl}/members`, {
      token: admin.token,
      body: { add: [first.userId, second.email.toUpperCase()], remove: [third.email], memberships: { [first.userId]: { role: 'owner' } } },
    });
    expect(updated.status).toBe(204);
    const members = await request(testApp.app, 'GET', `${teamUrl}/members`, { token: admin.token });
    const roles = Object.fromEntries(members.body.items.map((m: any) => [m.organization.id, m.team.role]));
    expect(roles).toEqual({ [first.userId]: 'owner', [second.userId]: 'member' });
    const readdOwner = await request(testApp.app, 'PUT', `${teamUrl}/members`, { token: admin.token, body: { add: [first.userId] } });
    expect(readdOwner.status).toBe(204);
    const after = await request(testApp.app, 'GET', `${teamUrl}/members`, { token: admin.token });
    expect(after.body.items.find((m: any) => m.organization.id === first.userId).team.role).toBe('owner');
    const unknown = await request(testApp.app, 'PUT', `${teamUrl}/members`, { token: admin.token, body: { add: ['nobody@x.test'] } });
    expect(unknown.status).toBe(400);
    const badRole = await request(testApp.app, 'PUT', `${teamUrl}/members/${first.userId}`, {
      token: admin.token,
      body: { role: 'boss' },
    });
    expect(badRole.status).toBe(400);
  });

  it('lists the teams of a member with their team role', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const member = await buildMember(testApp, organizationId, 'edit');
    const alpha = await createTeam(organizationId, admin.token, { title: 'Alpha', members: [member.userId] });
    await createTeam(organizationId, admin.token, { title: 'Beta' });
    const listed = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${member.userId}/teams`, {
      token: admin.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({ team: { id: alpha.body.id, title: 'Alpha' }, member: { role: 'member' } });
    const filtered = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${member.userId}/teams`, {
      token: admin.token,
      query: { title: 'zzz' },
    });
    expect(filtered.body.count).toBe(0);
  });

  it('deletes a team with 204; afterwards it is 404 and members keep their membership', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const member = await buildMember(testApp, organizationId, 'edit');
    const team = await createTeam(organizationId, admin.token, { title: 'Gone', members: [member.userId] });
    const teamUrl = `/v1/orgs/${organizationId}/teams/${team.body.id}`;
    expect((await request(testApp.app, 'DELETE', teamUrl, { token: member.token })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', teamUrl, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', teamUrl, { token: admin.token })).status).toBe(404);
    const stillMember = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${member.userId}`, {
      token: admin.token,
    });
    expect(stillMember.body.teams).toBe(0);
  });

  it('drops a removed member from the organization teams', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const member = await buildMember(testApp, organizationId, 'edit');
    const team = await createTeam(organizationId, admin.token, { title: 'T', members: [member.userId] });
    await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/members/${member.userId}`, { token: admin.token });
    const fetched = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/teams/${team.body.id}`, { token: admin.token });
    expect(fetched.body.members).toBe(0);
  });

  it('hides teams of other organizations (404) and walks long team lists', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const other = await buildOrganization(testApp);
    const foreign = await createTeam(other.organizationId, other.admin.token, { title: 'Foreign' });
    expect(
      (await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/teams/${foreign.body.id}`, { token: admin.token })).status,
    ).toBe(404);
    for (let i = 0; i < 7; i++) await createTeam(organizationId, admin.token, { title: `Team ${i}` });
    const walk = await walkList(testApp.app, `/v1/orgs/${organizationId}/teams`, { token: admin.token, limit: 3 });
    expect(walk.items).toHaveLength(7);
    expect(new Set(walk.items.map((t: any) => t.id)).size).toBe(7);
  });
});
