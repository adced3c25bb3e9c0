import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { jobHandlers } from '../../src/jobs/handlers.ts';

const testApp = useTestApp();
const DAY = 24 * 60 * 60 * 1000;

async function createSpace(organizationId: string, token: string, title: string): Promise<string> {
  const created = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token, body: { title } });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function deleteSpace(spaceId: string, token: string) {
  expect((await request(testApp.app, 'DELETE', `/v1/spaces/${spaceId}`, { token })).status).toBe(204);
}

const trash = (organizationId: string, token: string) => request(testApp.app, 'GET', `/v1/orgs/${organizationId}/trash`, { token });
const purge = (spaceId: string, token: string) => request(testApp.app, 'POST', `/v1/spaces/${spaceId}/purge`, { token });

describe('the trash', () => {
  it('lists the deleted spaces the caller may restore, most recently deleted first, with when each is purged', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const creator = await buildMember(testApp, organizationId, 'create');
    const first = await createSpace(organizationId, admin.token, 'First');
    const second = await createSpace(organizationId, admin.token, 'Second');
    await createSpace(organizationId, admin.token, 'Still here');
    const own = await createSpace(organizationId, creator.token, 'Mine');
    await deleteSpace(first, admin.token);
    testApp.clock.advance(1000);
    await deleteSpace(second, admin.token);
    testApp.clock.advance(1000);
    await deleteSpace(own, creator.token);

    const listed = await trash(organizationId, admin.token);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((space: any) => space.title)).toEqual(['Mine', 'Second', 'First']);
    const [mine] = listed.body.items;
    expect(mine).toMatchObject({ object: 'space', id: own, permissions: { admin: true } });
    expect(Date.parse(mine.purgeAt) - Date.parse(mine.deletedAt)).toBe(7 * DAY);

    // The creator may restore only the space they administer; a reader none.
    expect((await trash(organizationId, creator.token)).body.items.map((space: any) => space.id)).toEqual([own]);
    const reader = await buildMember(testApp, organizationId, 'read');
    expect((await trash(organizationId, reader.token)).body).toMatchObject({ items: [], count: 0 });

    const walked = await walkList(testApp.app, `/v1/orgs/${organizationId}/trash`, { token: admin.token, limit: 2 });
    expect(walked.items.map((space: any) => space.title)).toEqual(['Mine', 'Second', 'First']);
    expect(walked.pages).toBe(2);
  });

  it('leaves out what can no longer be restored, and what other organizations deleted', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const other = await buildOrganization(testApp, 'Other');
    await deleteSpace(await createSpace(other.organizationId, other.admin.token, 'Theirs'), other.admin.token);
    await deleteSpace(await createSpace(organizationId, admin.token, 'Old'), admin.token);
    testApp.clock.advance(7 * DAY + 1000);
    expect((await trash(organizationId, admin.token)).body.items).toEqual([]);

    const refused = await trash(organizationId, other.admin.token);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toEqual(expect.any(String));
  });

  it('purges a deleted space for good (204): it leaves the trash and can no longer be restored', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const spaceId = await createSpace(organizationId, admin.token, 'Gone');
    await deleteSpace(spaceId, admin.token);
    expect((await purge(spaceId, admin.token)).status).toBe(204);
    expect((await trash(organizationId, admin.token)).body.items).toEqual([]);
    expect((await request(testApp.app, 'POST', `/v1/spaces/${spaceId}/restore`, { token: admin.token })).status).toBe(404);
    expect((await purge(spaceId, admin.token)).status).toBe(404);
    const row = await testApp.database.db.selectFrom('spaces').select('id').where('id', '=', spaceId).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('refuses to purge a live space (409) with a message saying to delete it first', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const spaceId = await createSpace(organizationId, admin.token, 'Live');
    const refused = await purge(spaceId, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: 409, message: expect.stringContaining('delete it first') });
    expect((await request(testApp.app, 'GET', `/v1/spaces/${spaceId}`, { token: admin.token })).status).toBe(200);
  });

  it('lets only whoever may delete the space purge it: 403 for a reader, 404 for another organization', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const editor = await buildMember(testApp, organizationId, 'edit');
    const stranger = await buildOrganization(testApp, 'Stranger');
    const spaceId = await createSpace(organizationId, admin.token, 'Kept');
    await deleteSpace(spaceId, admin.token);
    const byReader = await purge(spaceId, reader.token);
    expect(byReader.status).toBe(403);
    expect(byReader.body.error.code).toBe(403);
    expect((await purge(spaceId, editor.token)).status).toBe(403);
    expect((await purge(spaceId, stranger.admin.token)).status).toBe(404);
    expect((await request(testApp.app, 'POST', `/v1/spaces/${spaceId}/restore`, { token: admin.token })).status).toBe(200);
  });

  it('shares its removal with the 7-day purge job: either finds nothing left after the other', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const byRoute = await createSpace(organizationId, admin.token, 'By route');
    const byJob = await createSpace(organizationId, admin.token, 'By job');
    await deleteSpace(byRoute, admin.token);
    await deleteSpace(byJob, admin.token);
    expect((await purge(byRoute, admin.token)).status).toBe(204);
    testApp.clock.advance(7 * DAY + 1000);
    // The job scheduled for the space purged by hand finds nothing and does not fail.
    expect(await runDueJobs(testApp.app.ctx, jobHandlers)).toBeGreaterThanOrEqual(2);
    expect((await purge(byJob, admin.token)).status).toBe(404);
    const rows = await testApp.database.db.selectFrom('spaces').select('id').where('id', 'in', [byRoute, byJob]).execute();
    expect(rows).toEqual([]);
    const jobs = await testApp.database.db.selectFrom('jobs').selectAll().execute();
    expect(jobs.filter((job) => job.payload.includes(byRoute) || job.payload.includes(byJob))).toEqual([]);
  });
});
