import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

async function setup() {
  const org = await buildOrganization(testApp);
  const space = await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token: org.admin.token, body: { title: 'Docs' } });
  const base = `/v1/spaces/${space.body.id}/change-requests`;
  const create = (token = org.admin.token, body: object = {}) => request(testApp.app, 'POST', base, { token, body });
  return { org, space: space.body, base, create };
}

describe('change requests', () => {
  it('opens change requests numbered from 1 on the space revision (201), with every field', async () => {
    const { org, space, base, create } = await setup();
    const first = await create(org.admin.token, { subject: 'Fix typos' });
    expect(first.status).toBe(201);
    expect(first.headers.location).toBe(first.body.urls.location);
    expect(first.body).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'Fix typos',
      createdBy: { id: org.admin.userId },
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: { location: `http://quire.test${base}/${first.body.id}` },
    });
    expect(first.body.revisionMerged).toBeUndefined();
    expect((await create()).body.number).toBe(2);
    expect((await request(testApp.app, 'GET', `${base}/2`, { token: org.admin.token })).body.number).toBe(2);
    expect((await request(testApp.app, 'GET', `${base}/${first.body.id}`, { token: org.admin.token })).body.number).toBe(1);
    expect((await request(testApp.app, 'GET', `${base}/99`, { token: org.admin.token })).status).toBe(404);
  });

  it('hands out unique, gap-free numbers under concurrent creation', async () => {
    const { org, base, create } = await setup();
    const created = await Promise.all(Array.from({ length: 20 }, () => create()));
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    expect(created.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const walk = await walkList(testApp.app, base, { token: org.admin.token, limit: 6 });
    expect(walk.items).toHaveLength(20);
  });

  it('changes subject and status; merged is only reached by merging', async () => {
    const { org, base, create } = await setup();
    const changeRequest = await create();
    const url = `${base}/${changeRequest.body.id}`;
    const patched = await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { subject: 'Renamed', status: 'draft' } });
    expect(patched.body).toMatchObject({ subject: 'Renamed', status: 'draft' });
    const merged = await request(testApp.app, 'PATCH', url, { token: org.admin.token, body: { status: 'merged' } });
    expect(merged.status).toBe(400);
    expect(merged.body.error.message).toMatch(/only by merging/);
    for (const body of [{ subject: 'x'.repeat(101) }, { status: 'closed' }]) {
      expect((await request(testApp.app, 'PATCH', url, { token: org.admin.token, body })).status).toBe(400);
    }
  });

  it('lists open change requests by default, and filters by status and contributor', async () => {
    const { org, base, create } = await setup();
    const editor = await buildMember(testApp, org.organizationId, 'edit');
    const mine = await create();
    const theirs = await create(editor.token);
    await request(testApp.app, 'PATCH', `${base}/${mine.body.id}`, { token: org.admin.token, body: { status: 'archived' } });
    const list = (query: object) => request(testApp.app, 'GET', base, { token: org.admin.token, query: query as any });
    expect((await list({})).body.items.map((c: any) => c.id)).toEqual([theirs.body.id]);
    expect((await list({ status: 'archived' })).body.items.map((c: any) => c.id)).toEqual([mine.body.id]);
    expect((await list({ contributor: editor.userId })).body.items.map((c: any) => c.id)).toEqual([theirs.body.id]);
  });

  it('keeps the space counters equal to its change requests after every transition', async () => {
    const { org, space, base, create } = await setup();
    const counters = async () => {
      const body = (await request(testApp.app, 'GET', `/v1/spaces/${space.id}`, { token: org.admin.token })).body;
      return [body.changeRequests, body.changeRequestsOpen, body.changeRequestsDraft];
    };
    expect(await counters()).toEqual([0, 0, 0]);
    const a = await create();
    const b = await create();
    expect(await counters()).toEqual([2, 2, 0]);
    await request(testApp.app, 'PATCH', `${base}/${a.body.id}`, { token: org.admin.token, body: { status: 'draft' } });
    expect(await counters()).toEqual([2, 1, 1]);
    await request(testApp.app, 'PATCH', `${base}/${b.body.id}`, { token: org.admin.token, body: { status: 'archived' } });
    expect(await counters()).toEqual([2, 0, 1]);
    const listed = await request(testApp.app, 'GET', `/v1/orgs/${org.organizationId}/spaces`, { token: org.admin.token });
    expect(listed.body.items.find((s: any) => s.id === space.id)).toMatchObject({ changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 1 });
  });

  it('lets editors open change requests, refuses readers (403) and hides them from strangers (404)', async () => {
    const { org, base, create } = await setup();
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const editor = await buildMember(testApp, org.organizationId, 'edit');
    const stranger = await buildOrganization(testApp);
    expect((await create(reader.token)).status).toBe(403);
    expect((await create(editor.token)).status).toBe(201);
    expect((await request(testApp.app, 'GET', base, { token: reader.token })).status).toBe(200);
    expect((await request(testApp.app, 'GET', base, { token: stranger.admin.token })).status).toBe(404);
    expect((await create(stranger.admin.token)).status).toBe(404);
    const other = await setup();
    const foreign = await other.create();
    expect((await request(testApp.app, 'GET', `${base}/${foreign.body.id}`, { token: org.admin.token })).status).toBe(404);
  });
});
