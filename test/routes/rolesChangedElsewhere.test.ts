// A read under /spaces/{spaceId} or /orgs/{organizationId} takes the caller's
// collections and grants from what the process read under the organization's access
// version (db/repos/contentStanding.ts).
// Here the rows change through another connection to the database, as another
// process, the CLI or SQL run by hand would change them: no code of this process runs
// for the change, so only the database's triggers can move the version. And the rows
// are read once per version: a space read made before stays the token's one query.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { postgresPoolOf, sqliteConnectionOf, type DatabaseHandle } from '../../src/db/dialect.ts';

const testApp = useTestApp();
let elsewhere: DatabaseHandle;

beforeAll(async () => {
  elsewhere = await testApp.testDatabase.open();
});

afterAll(async () => {
  await elsewhere.close();
});

const readSpace = (spaceId: string, token: string) => request(testApp.app, 'GET', `/v1/spaces/${spaceId}`, { token });

describe('a space read after roles changed outside this process', () => {
  it("follows a collection's default level at once, both ways", async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const collection = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: {} });
    const space = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { parent: collection.body.id } });
    expect((await readSpace(space.body.id, reader.token)).body.permissions.edit).toBe(false);

    await elsewhere.db.updateTable('collections').set({ default_level: 'edit' }).where('id', '=', collection.body.id).execute();
    expect((await readSpace(space.body.id, reader.token)).body.permissions.edit).toBe(true);

    await elsewhere.db.updateTable('collections').set({ default_level: 'inherit' }).where('id', '=', collection.body.id).execute();
    expect((await readSpace(space.body.id, reader.token)).body.permissions.edit).toBe(false);
  });

  it('closes a private space to a guest at once when their grant is deleted, and opens it when one is inserted', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const outsider = await buildMember(testApp, organizationId, 'read');
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${outsider.userId}`, { token: admin.token, body: { role: null } });
    const space = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: {} });
    expect((await readSpace(space.body.id, outsider.token)).status).toBe(404);

    await elsewhere.db
      .insertInto('content_grants')
      .values({ organization_id: organizationId, target_kind: 'space', target_id: space.body.id, user_id: outsider.userId, role: 'edit', created_at: new Date().toISOString() })
      .execute();
    const opened = await readSpace(space.body.id, outsider.token);
    expect(opened.status).toBe(200);
    expect(opened.body.permissions.edit).toBe(true);

    await elsewhere.db.deleteFrom('content_grants').where('user_id', '=', outsider.userId).execute();
    expect((await readSpace(space.body.id, outsider.token)).status).toBe(404);
  });

  it("takes away a space creator's admin grant when it is deleted, leaving what the organization role gives", async () => {
    const { organizationId } = await buildOrganization(testApp);
    const creator = await buildMember(testApp, organizationId, 'create');
    const space = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: creator.token, body: {} });
    expect((await readSpace(space.body.id, creator.token)).body.permissions.admin).toBe(true);

    await sql`delete from content_grants where target_id = ${space.body.id}`.execute(elsewhere.db);
    const after = await readSpace(space.body.id, creator.token);
    expect(after.status).toBe(200);
    expect(after.body.permissions.admin).toBe(false);
  });

  it('reads the rows behind the roles once per access version: a read of a space it has read before is one query', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const collection = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: {} });
    const space = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { parent: collection.body.id } });
    await readSpace(space.body.id, admin.token);
    // PostgreSQL: each statement is a round trip; SQLite: each statement it has not remembered is prepared.
    const { db } = testApp.database;
    const pool = postgresPoolOf(db);
    const counted = pool ? vi.spyOn(pool, 'query') : vi.spyOn(sqliteConnectionOf(db)!, 'prepare');
    try {
      expect((await readSpace(space.body.id, admin.token)).status).toBe(200);
      expect(counted).toHaveBeenCalledTimes(pool ? 1 : 0);
      counted.mockClear();
      await elsewhere.db.updateTable('collections').set({ default_level: 'edit' }).where('id', '=', collection.body.id).execute();
      expect((await readSpace(space.body.id, admin.token)).status).toBe(200);
      expect(counted).toHaveBeenCalledTimes(2);
    } finally {
      counted.mockRestore();
    }
  });
});

describe('a space list and a search after roles changed outside this process', () => {
  const listed = async (organizationId: string, token: string) =>
    (await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/spaces`, { token })).body.items.map((space: { id: string }) => space.id);
  const searched = async (organizationId: string, token: string) =>
    (await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/search?query=harbour`, { token })).body.items.map((space: { id: string }) => space.id);

  it("shows a guest a private space at once when a grant is inserted, and hides it when the grant is deleted", async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const guest = await buildMember(testApp, organizationId, 'read');
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/members/${guest.userId}`, { token: admin.token, body: { role: null } });
    const space = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: {} });
    const cr = await request(testApp.app, 'POST', `/v1/spaces/${space.body.id}/change-requests`, { token: admin.token, body: {} });
    await request(testApp.app, 'POST', `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content`, {
      token: admin.token,
      body: { changes: [{ operation: 'insert_page', document: '# Harbour\n\nShips come in.' }] },
    });
    expect((await request(testApp.app, 'POST', `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/merge`, { token: admin.token })).status).toBe(200);
    await vi.waitFor(async () => expect(await searched(organizationId, admin.token)).toEqual([space.body.id]));
    expect(await listed(organizationId, guest.token)).toEqual([]);
    expect(await searched(organizationId, guest.token)).toEqual([]);

    await elsewhere.db
      .insertInto('content_grants')
      .values({ organization_id: organizationId, target_kind: 'space', target_id: space.body.id, user_id: guest.userId, role: 'read', created_at: new Date().toISOString() })
      .execute();
    expect(await listed(organizationId, guest.token)).toEqual([space.body.id]);
    expect(await searched(organizationId, guest.token)).toEqual([space.body.id]);

    await elsewhere.db.deleteFrom('content_grants').where('user_id', '=', guest.userId).execute();
    expect(await listed(organizationId, guest.token)).toEqual([]);
    expect(await searched(organizationId, guest.token)).toEqual([]);
  });

  it('reads the rows behind the roles once per access version: a space list made again reads no collection or grant until the version moves', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const collection = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: {} });
    await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { parent: collection.body.id } });
    await listed(organizationId, admin.token);
    // PostgreSQL: each statement is a round trip; SQLite: each statement it has not remembered is prepared.
    const { db } = testApp.database;
    const pool = postgresPoolOf(db);
    const counted = pool ? vi.spyOn(pool, 'query') : vi.spyOn(sqliteConnectionOf(db)!, 'prepare');
    const readingRoles = () =>
      counted.mock.calls.map(([query]) => (typeof query === 'string' ? query : (query as { text: string }).text)).filter((text) => /from "(collections|content_grants)"/.test(text));
    try {
      await listed(organizationId, admin.token);
      expect(readingRoles()).toEqual([]);
      await elsewhere.db.updateTable('collections').set({ default_level: 'edit' }).where('id', '=', collection.body.id).execute();
      await listed(organizationId, admin.token);
      expect(readingRoles()).toHaveLength(1);
    } finally {
      counted.mockRestore();
    }
  });
});
