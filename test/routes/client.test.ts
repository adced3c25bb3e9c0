// The official @gitbook/api client, unchanged, against a live Quire on an ephemeral port.
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';

const testApp = useTestApp();
let endpoint: string;
let organization: Organization;

beforeAll(async () => {
  endpoint = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  organization = await buildOrganization(testApp, 'Client Org');
});

afterAll(async () => {
  await testApp.app.close();
});

describe('the official @gitbook/api client', () => {
  it('reads the caller, the organization and its members', async () => {
    const api = new GitBookAPI({ endpoint, authToken: organization.admin.token });
    const user = await api.user.getAuthenticatedUser();
    expect(user.data.id).toBe(organization.admin.userId);
    const organizations = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(organizations.data.items.map((o) => o.id)).toEqual([organization.organizationId]);
    const fetched = await api.orgs.getOrganizationById(organization.organizationId);
    expect(fetched.data).toMatchObject({ title: 'Client Org', permissions: { admin: true } });
    await buildMember(testApp, organization.organizationId, 'edit', 'Cleo');
    const members = await api.orgs.listMembersInOrganizationById(organization.organizationId, { limit: 1 });
    expect(members.data.items).toHaveLength(1);
    expect(members.data.count).toBe(2);
    const next = await api.orgs.listMembersInOrganizationById(organization.organizationId, {
      limit: 1,
      page: members.data.next!.page,
    });
    expect(next.data.items[0].id).not.toBe(members.data.items[0].id);
  });

  it('creates, lists and changes teams and their members', async () => {
    const api = new GitBookAPI({ endpoint, authToken: organization.admin.token });
    const editor = await buildMember(testApp, organization.organizationId, 'edit');
    const team = await api.orgs.createOrganizationTeam(organization.organizationId, { title: 'Writers' });
    expect(team.status).toBe(201);
    await api.orgs.updateMembersInOrganizationTeam(organization.organizationId, team.data.id, { add: [editor.userId] });
    const teams = await api.orgs.listTeamsInOrganizationById(organization.organizationId);
    expect(teams.data.items.find((t) => t.id === team.data.id)?.members).toBe(1);
    const teamsOfEditor = await api.orgs.listTeamsForOrganizationMember(organization.organizationId, editor.userId);
    expect(teamsOfEditor.data.items[0].team.id).toBe(team.data.id);
    const updated = await api.orgs.updateOrganizationById(organization.organizationId, { title: 'Renamed by client' });
    expect(updated.data.title).toBe('Renamed by client');
  });

  it('surfaces Quire errors as GitBookAPIError with the message and code', async () => {
    const stranger = await buildOrganization(testApp, 'Stranger');
    const api = new GitBookAPI({ endpoint, authToken: stranger.admin.token });
    const failure = await api.orgs.getOrganizationById(organization.organizationId).catch((error) => error);
    expect(failure).toBeInstanceOf(GitBookAPIError);
    expect(failure.code).toBe(404);
    expect(failure.errorMessage).toMatch(/No organization/);
    const unauthenticated = new GitBookAPI({ endpoint, authToken: 'wrong' });
    expect((await unauthenticated.user.getAuthenticatedUser().catch((error) => error)).code).toBe(401);
  });
});
