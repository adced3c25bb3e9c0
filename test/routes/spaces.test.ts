import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { jobHandlers } from '../../src/jobs/handlers.ts';

const testApp = useTestApp();
const DAY = 24 * 60 * 60 * 1000;

async function createSpace(organizationId: string, token: string, body: object = {}) {
  return request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token, body });
}

describe('spaces', () => {
  it('creates a private, live space (201) with every field of the specification', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const created = await createSpace(organizationId, admin.token, { title: 'Handbook', emoji: '📘' });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(created.body.urls.location);
    expect(created.body).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      editMode: 'live',
      organization: organizationId,
      defaultLevel: 'inherit',
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      urls: { location: `http://quire.test/v1/spaces/${created.body.id}`, app: `http://quire.test/s/${created.body.id}/` },
      permissions: { view: true, access: true, admin: true, edit: true, comment: true, merge: true, review: true },
    });
    expect(created.body.revision).toEqual(expect.any(String));
    expect(created.body.parent).toBeUndefined();
    expect(created.body.deletedAt).toBeUndefined();
  });

  it('lets only members with the create role create spaces (403 for others, 404 for strangers)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const creator = await buildMember(testApp, organizationId, 'create');
    const stranger = await buildOrganization(testApp);
    expect((await createSpace(organizationId, editor.token)).status).toBe(403);
    expect((await createSpace(organizationId, stranger.admin.token)).status).toBe(404);
    const mine = await createSpace(organizationId, creator.token, { title: 'Mine' });
    expect(mine.status).toBe(201);
    expect(mine.body.permissions.admin).toBe(true);
    const asAdmin = await request(testApp.app, 'GET', `/v1/spaces/${mine.body.id}`, { token: admin.token });
    expect(asAdmin.body.permissions.admin).toBe(true);
  });

  it('computes permissions from the organization role and the default level', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const space = await createSpace(organizationId, admin.token);
    const url = `/v1/spaces/${space.body.id}`;
    const asReader = await request(testApp.app, 'GET', url, { token: reader.token });
    expect(asReader.body.permissions).toMatchObject({ view: true, edit: false, comment: false, admin: false });
    const patch = await request(testApp.app, 'PATCH', url, { token: reader.token, body: { title: 'Nope' } });
    expect(patch.status).toBe(403);
    await request(testApp.app, 'PATCH', url, { token: admin.token, body: { defaultLevel: 'edit' } });
    const raised = await request(testApp.app, 'GET', url, { token: reader.token });
    expect(raised.body.permissions).toMatchObject({ edit: true, comment: true, merge: false });
    expect(raised.body.defaultLevel).toBe('edit');
  });

  it("answers each read of a space and its pages from the caller's standing at that moment: a promotion, a rename and a removal show in the next read", async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const member = await buildMember(testApp, organizationId, 'read');
    const space = await createSpace(organizationId, admin.token, { title: 'Handbook' });
    const read = (path = '') => request(testApp.app, 'GET', `/v1/spaces/${space.body.id}${path}`, { token: member.token });
    expect((await read()).body).toMatchObject({ title: 'Handbook', permissions: { view: true, edit: false } });

    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${member.userId}`, { token: admin.token, body: { role: 'edit' } });
    const renamed = await request(testApp.app, 'PATCH', `/v1/spaces/${space.body.id}`, { token: admin.token, body: { title: 'Guide' } });
    expect(renamed.body).toMatchObject({ title: 'Guide', permissions: { admin: true } });
    expect((await read()).body).toMatchObject({ title: 'Guide', permissions: { view: true, edit: true } });
    expect((await read('/content/pages')).status).toBe(200);

    await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/members/${member.userId}`, { token: admin.token });
    expect((await read()).status).toBe(404);
    expect((await read('/content/pages')).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${space.body.id}`, { token: admin.token })).body.title).toBe('Guide');
  });

  it('hides a space from other organizations (404) unless its visibility opens it', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const space = await createSpace(organizationId, admin.token);
    const url = `/v1/spaces/${space.body.id}`;
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'PATCH', url, { token: stranger.admin.token, body: { title: 'x' } })).status).toBe(404);
    await request(testApp.app, 'PATCH', url, { token: admin.token, body: { visibility: 'public' } });
    const opened = await request(testApp.app, 'GET', url, { token: stranger.admin.token });
    expect(opened.status).toBe(200);
    expect(opened.body.permissions).toMatchObject({ view: true, edit: false, admin: false });
    expect((await request(testApp.app, 'PATCH', url, { token: stranger.admin.token, body: { title: 'x' } })).status).toBe(403);
  });

  it('opens a share-link space only with its share key', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const space = await createSpace(organizationId, admin.token, { visibility: 'share-link' });
    const shareKey = (await testApp.database.db.selectFrom('spaces').select('share_key').where('id', '=', space.body.id).executeTakeFirstOrThrow()).share_key;
    const url = `/v1/spaces/${space.body.id}`;
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token, query: { shareKey: 'wrong' } })).status).toBe(404);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token, query: { shareKey } })).status).toBe(200);
  });

  it('changes title, emoji, edit mode and visibility, and refuses in-collection outside a collection', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const space = await createSpace(organizationId, admin.token);
    const url = `/v1/spaces/${space.body.id}`;
    const patched = await request(testApp.app, 'PATCH', url, {
      token: admin.token,
      body: { title: 'Renamed', emoji: '🚀', editMode: 'locked', visibility: 'unlisted' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Renamed', emoji: '🚀', editMode: 'locked', visibility: 'unlisted' });
    expect(patched.body.updatedAt > space.body.updatedAt).toBe(true);
    const cleared = await request(testApp.app, 'PATCH', url, { token: admin.token, body: { emoji: null } });
    expect(cleared.body.emoji).toBe('');
    const inCollection = await request(testApp.app, 'PATCH', url, { token: admin.token, body: { visibility: 'in-collection' } });
    expect(inCollection.status).toBe(400);
    expect(inCollection.body.error.message).toMatch(/only for spaces inside a collection/);
    for (const body of [{ title: 'x'.repeat(51) }, { editMode: 'frozen' }, { visibility: 'secret' }, { defaultLevel: 'owner' }, { emoji: 'x'.repeat(51) }]) {
      expect((await request(testApp.app, 'PATCH', url, { token: admin.token, body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("takes an emoji as GitBook does, as characters or hex code points, and refuses words, digits and text around one", async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const space = await createSpace(organizationId, admin.token);
    const patch = (emoji: string) => request(testApp.app, 'PATCH', `/v1/spaces/${space.body.id}`, { token: admin.token, body: { emoji } });
    for (const emoji of ['🚀', '👩‍💻', '🇫🇷', '👍🏽', '❤️', '#️⃣', '1f680', '1F469-200D-1F4BB']) expect((await patch(emoji)).body.emoji, emoji).toBe(emoji);
    for (const emoji of ['rocket', '123', '0041', 'x🚀', '110000']) {
      const refused = await patch(emoji);
      expect(refused.status, emoji).toBe(400);
      expect(refused.body.error.message).toBe('body.emoji is not of the expected form: An emoji ("🎉" or "1f389"), or null to remove it');
    }
    const created = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'Docs', emoji: 'docs' } });
    expect(created.body.error.message).toBe('body.emoji is not of the expected form: An emoji: its characters ("🎉") or code points in hex ("1f389")');
  });

  it('deletes softly (204): hidden and 404, restorable within 7 days', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const space = await createSpace(organizationId, admin.token, { title: 'Gone for now' });
    const url = `/v1/spaces/${space.body.id}`;
    expect((await request(testApp.app, 'DELETE', url, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).status).toBe(404);
    const listed = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token });
    expect(listed.body.items.map((s: any) => s.id)).not.toContain(space.body.id);
    expect((await request(testApp.app, 'DELETE', url, { token: admin.token })).status).toBe(404);
    testApp.clock.advance(6 * DAY);
    const restored = await request(testApp.app, 'POST', `${url}/restore`, { token: admin.token });
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).status).toBe(200);
    expect((await request(testApp.app, 'POST', `${url}/restore`, { token: admin.token })).status).toBe(404);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    testApp.clock.advance(2 * DAY);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).status).toBe(200);
  });

  it('purges a space 7 days after deletion through the durable job; restore then answers 404', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const space = await createSpace(organizationId, admin.token);
    const url = `/v1/spaces/${space.body.id}`;
    await request(testApp.app, 'DELETE', url, { token: admin.token });
    expect(await runDueJobs(testApp.app.ctx, jobHandlers)).toBe(0);
    testApp.clock.advance(7 * DAY + 1000);
    expect((await request(testApp.app, 'POST', `${url}/restore`, { token: admin.token })).status).toBe(404);
    expect(await runDueJobs(testApp.app.ctx, jobHandlers)).toBeGreaterThanOrEqual(1);
    const row = await testApp.database.db.selectFrom('spaces').select('id').where('id', '=', space.body.id).executeTakeFirst();
    expect(row).toBeUndefined();
    const jobs = await testApp.database.db.selectFrom('jobs').selectAll().execute();
    expect(jobs.filter((job) => job.payload.includes(space.body.id))).toEqual([]);
  });

  it('duplicates a space (201) with the same content revision and a new id, right after it', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const original = await createSpace(organizationId, admin.token, { title: 'Original', emoji: '📗' });
    const after = await createSpace(organizationId, admin.token, { title: 'After' });
    const copy = await request(testApp.app, 'POST', `/v1/spaces/${original.body.id}/duplicate`, { token: admin.token });
    expect(copy.status).toBe(201);
    expect(copy.body.id).not.toBe(original.body.id);
    expect(copy.body).toMatchObject({ title: 'Original (copy)', emoji: '📗', revision: original.body.revision });
    const collection = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: { title: 'C' } });
    for (const id of [original.body.id, copy.body.id, after.body.id]) {
      await request(testApp.app, 'POST', `/v1/spaces/${id}/move`, { token: admin.token, body: { parent: collection.body.id } });
    }
    const inCollection = await request(testApp.app, 'GET', `/v1/collections/${collection.body.id}/spaces`, { token: admin.token });
    expect(inCollection.body.items.map((s: any) => s.title)).toEqual(['Original', 'Original (copy)', 'After']);
  });

  it('lists the spaces of an organization newest first and walks 25 of them page by page', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    for (let i = 0; i < 25; i++) await createSpace(organizationId, admin.token, { title: `Space ${i}` });
    const walk = await walkList(testApp.app, `/v1/orgs/${organizationId}/spaces`, { token: admin.token, limit: 7 });
    expect(walk.items.map((s: any) => s.title)).toEqual(Array.from({ length: 25 }, (_, i) => `Space ${24 - i}`));
    expect(walk.pages).toBe(4);
  });

  it('lists the spaces a member reaches, with their permission', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const space = await createSpace(organizationId, admin.token);
    await request(testApp.app, 'PATCH', `/v1/spaces/${space.body.id}`, { token: admin.token, body: { defaultLevel: 'comment' } });
    await createSpace(organizationId, admin.token);
    const listed = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${reader.userId}/spaces`, {
      token: admin.token,
      query: { order: 'asc' },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(2);
    expect(listed.body.items.map((item: any) => item.permission)).toEqual(['comment', 'read']);
    expect(listed.body.items[0].space.id).toBe(space.body.id);
    const member = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/members/${reader.userId}`, { token: admin.token });
    expect(member.body.spaces).toBe(2);
  });

  it('transfers a space to another organization when the caller administers both', async () => {
    const source = await buildOrganization(testApp);
    const target = await buildOrganization(testApp);
    const space = await createSpace(source.organizationId, source.admin.token);
    const url = `/v1/spaces/${space.body.id}/transfer`;
    const refused = await request(testApp.app, 'POST', url, { token: source.admin.token, body: { organization: target.organizationId } });
    expect(refused.status).toBe(404);
    await request(testApp.app, 'POST', `/v1/orgs/${target.organizationId}/members/${target.admin.userId}`, { token: target.admin.token });
    const invite = await request(testApp.app, 'POST', `/v1/orgs/${target.organizationId}/link-invites`, { token: target.admin.token, body: { role: 'admin' } });
    await request(testApp.app, 'POST', `/v1/orgs/${target.organizationId}/invites/${invite.body.id}`, { token: source.admin.token });
    const moved = await request(testApp.app, 'POST', url, { token: source.admin.token, body: { organization: target.organizationId } });
    expect(moved.status).toBe(200);
    expect(moved.body.organization).toBe(target.organizationId);
    const inTarget = await request(testApp.app, 'GET', `/v1/orgs/${target.organizationId}/spaces`, { token: target.admin.token });
    expect(inTarget.body.items.map((s: any) => s.id)).toContain(space.body.id);
    const inSource = await request(testApp.app, 'GET', `/v1/orgs/${source.organizationId}/spaces`, { token: source.admin.token });
    expect(inSource.body.items.map((s: any) => s.id)).not.toContain(space.body.id);
  });
});
