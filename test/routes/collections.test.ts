import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

async function createCollection(organizationId: string, token: string, body: object = {}) {
  return request(testApp.app, 'POST', `/v1/orgs/${organizationId}/collections`, { token, body });
}

async function createSpace(organizationId: string, token: string, body: object = {}) {
  return request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token, body });
}

describe('collections', () => {
  it('creates (201), reads, changes and lists collections with every field', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const created = await createCollection(organizationId, admin.token, { title: 'Guides' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'collection',
      title: 'Guides',
      organization: organizationId,
      defaultLevel: 'inherit',
      urls: { location: `http://quire.test/v1/collections/${created.body.id}` },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const url = `/v1/collections/${created.body.id}`;
    const patched = await request(testApp.app, 'PATCH', url, {
      token: admin.token,
      body: { title: 'User guides', description: 'For readers', defaultLevel: 'comment' },
    });
    expect(patched.body).toMatchObject({ title: 'User guides', description: 'For readers', defaultLevel: 'comment' });
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).body.title).toBe('User guides');
    for (const body of [{ title: 'x'.repeat(51) }, { description: 'x'.repeat(101) }, { defaultLevel: 'owner' }]) {
      expect((await request(testApp.app, 'PATCH', url, { token: admin.token, body })).status).toBe(400);
    }
  });

  it('nests collections, lists nested ones unless nested=false, and refuses unknown parents (400)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const top = await createCollection(organizationId, admin.token, { title: 'Top' });
    const child = await createCollection(organizationId, admin.token, { title: 'Child', parent: top.body.id });
    expect(child.body.parent).toBe(top.body.id);
    const all = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/collections`, { token: admin.token });
    expect(all.body.items.map((c: any) => c.title).sort()).toEqual(['Child', 'Top']);
    const topOnly = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/collections`, {
      token: admin.token,
      query: { nested: false },
    });
    expect(topOnly.body.items.map((c: any) => c.title)).toEqual(['Top']);
    const other = await buildOrganization(testApp);
    const foreign = await createCollection(other.organizationId, other.admin.token);
    const refused = await createCollection(organizationId, admin.token, { parent: foreign.body.id });
    expect(refused.status).toBe(400);
  });

  it('passes its default level down to spaces that inherit it', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const reader = await buildMember(testApp, organizationId, 'read');
    const collection = await createCollection(organizationId, admin.token);
    const space = await createSpace(organizationId, admin.token, { parent: collection.body.id });
    const before = await request(testApp.app, 'GET', `/v1/spaces/${space.body.id}`, { token: reader.token });
    expect(before.body.permissions.edit).toBe(false);
    await request(testApp.app, 'PATCH', `/v1/collections/${collection.body.id}`, { token: admin.token, body: { defaultLevel: 'edit' } });
    const after = await request(testApp.app, 'GET', `/v1/spaces/${space.body.id}`, { token: reader.token });
    expect(after.body.permissions.edit).toBe(true);
  });

  it('refuses changes from members without the admin role on the collection (403)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const collection = await createCollection(organizationId, admin.token);
    const url = `/v1/collections/${collection.body.id}`;
    expect((await request(testApp.app, 'GET', url, { token: editor.token })).status).toBe(200);
    expect((await request(testApp.app, 'PATCH', url, { token: editor.token, body: { title: 'x' } })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', url, { token: editor.token })).status).toBe(403);
    expect((await createCollection(organizationId, editor.token)).status).toBe(403);
    const stranger = await buildOrganization(testApp);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
  });

  it('orders spaces and collections together, and moves them before and after each other', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const parent = await createCollection(organizationId, admin.token);
    const a = await createSpace(organizationId, admin.token, { title: 'A', parent: parent.body.id });
    const b = await createSpace(organizationId, admin.token, { title: 'B', parent: parent.body.id });
    const c = await createSpace(organizationId, admin.token, { title: 'C', parent: parent.body.id });
    const titles = async () =>
      (await request(testApp.app, 'GET', `/v1/collections/${parent.body.id}/spaces`, { token: admin.token })).body.items.map(
        (s: any) => s.title,
      );
    expect(await titles()).toEqual(['A', 'B', 'C']);
    await request(testApp.app, 'POST', `/v1/spaces/${c.body.id}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: a.body.id } } },
    });
    expect(await titles()).toEqual(['C', 'A', 'B']);
    await request(testApp.app, 'POST', `/v1/spaces/${c.body.id}/move`, {
      token: admin.token,
      body: { position: { after: { type: 'space', space: a.body.id } } },
    });
    expect(await titles()).toEqual(['A', 'C', 'B']);
    await request(testApp.app, 'POST', `/v1/spaces/${a.body.id}/move`, { token: admin.token, body: { parent: parent.body.id } });
    expect(await titles()).toEqual(['C', 'B', 'A']);
    const wrongSibling = await request(testApp.app, 'POST', `/v1/spaces/${a.body.id}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: 'elsewhere' } } },
    });
    expect(wrongSibling.status).toBe(400);
    const itself = await request(testApp.app, 'POST', `/v1/spaces/${a.body.id}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: a.body.id } } },
    });
    expect(itself.status).toBe(400);
    const out = await request(testApp.app, 'POST', `/v1/spaces/${b.body.id}/move`, { token: admin.token, body: { parent: null } });
    expect(out.body.parent).toBeUndefined();
    expect(await titles()).toEqual(['C', 'A']);
    const nested = await createCollection(organizationId, admin.token, { title: 'Nested', parent: parent.body.id });
    const placed = await request(testApp.app, 'POST', `/v1/collections/${nested.body.id}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: c.body.id } } },
    });
    expect(placed.status).toBe(200);
    await request(testApp.app, 'POST', `/v1/spaces/${a.body.id}/move`, {
      token: admin.token,
      body: { position: { after: { type: 'collection', collection: nested.body.id } } },
    });
    expect(await titles()).toEqual(['A', 'C']);
  });

  it('keeps a stable order after thousands of moves, without renumbering siblings', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const parent = await createCollection(organizationId, admin.token);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createSpace(organizationId, admin.token, { parent: parent.body.id })).body.id);
    const model = [...ids];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let move = 0; move < 1500; move++) {
      const moving = model[Math.floor(random() * model.length)];
      const others = model.filter((id) => id !== moving);
      const anchor = others[Math.floor(random() * others.length)];
      const where = random() < 0.5 ? 'before' : 'after';
      const response = await request(testApp.app, 'POST', `/v1/spaces/${moving}/move`, {
        token: admin.token,
        body: { position: { [where]: { type: 'space', space: anchor } } },
      });
      expect(response.status).toBe(200);
      model.splice(model.indexOf(moving), 1);
      model.splice(model.indexOf(anchor) + (where === 'after' ? 1 : 0), 0, moving);
    }
    const listed = await request(testApp.app, 'GET', `/v1/collections/${parent.body.id}/spaces`, { token: admin.token });
    expect(listed.body.items.map((s: any) => s.id)).toEqual(model);
    const positions = await testApp.database.db.selectFrom('spaces').select('position').where('parent_id', '=', parent.body.id).execute();
    expect(Math.max(...positions.map((p) => p.position.length))).toBeLessThan(200);
  }, 120_000);

  it('refuses moving a collection into itself or its descendants (400)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const top = await createCollection(organizationId, admin.token);
    const child = await createCollection(organizationId, admin.token, { parent: top.body.id });
    for (const parent of [top.body.id, child.body.id]) {
      const response = await request(testApp.app, 'POST', `/v1/collections/${top.body.id}/move`, { token: admin.token, body: { parent } });
      expect(response.status).toBe(400);
    }
  });

  it('deletes a collection with its nested collections and soft-deletes its spaces, which restore at the top', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const top = await createCollection(organizationId, admin.token);
    const child = await createCollection(organizationId, admin.token, { parent: top.body.id });
    const space = await createSpace(organizationId, admin.token, { parent: child.body.id, visibility: 'in-collection' });
    expect((await request(testApp.app, 'DELETE', `/v1/collections/${top.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', `/v1/collections/${child.body.id}`, { token: admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${space.body.id}`, { token: admin.token })).status).toBe(404);
    const restored = await request(testApp.app, 'POST', `/v1/spaces/${space.body.id}/restore`, { token: admin.token });
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(restored.body.visibility).toBe('private');
  });

  it('transfers a collection with its contents to another organization the caller administers', async () => {
    const source = await buildOrganization(testApp);
    const target = await buildOrganization(testApp);
    const invite = await request(testApp.app, 'POST', `/v1/orgs/${target.organizationId}/link-invites`, { token: target.admin.token, body: { role: 'admin' } });
    await request(testApp.app, 'POST', `/v1/orgs/${target.organizationId}/invites/${invite.body.id}`, { token: source.admin.token });
    const collection = await createCollection(source.organizationId, source.admin.token);
    const nested = await createCollection(source.organizationId, source.admin.token, { parent: collection.body.id });
    const space = await createSpace(source.organizationId, source.admin.token, { parent: nested.body.id });
    const moved = await request(testApp.app, 'POST', `/v1/collections/${collection.body.id}/transfer`, {
      token: source.admin.token,
      body: { organization: target.organizationId },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.organization).toBe(target.organizationId);
    const spaceNow = await request(testApp.app, 'GET', `/v1/spaces/${space.body.id}`, { token: target.admin.token });
    expect(spaceNow.body).toMatchObject({ organization: target.organizationId, parent: nested.body.id });
    const editor = await buildMember(testApp, source.organizationId, 'admin');
    expect(
      (await request(testApp.app, 'POST', `/v1/collections/${collection.body.id}/transfer`, { token: editor.token, body: { organization: source.organizationId } }))
        .status,
    ).toBe(404);
  });

  it('walks the collections of an organization page by page', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    for (let i = 0; i < 9; i++) await createCollection(organizationId, admin.token, { title: `C${i}` });
    const walk = await walkList(testApp.app, `/v1/orgs/${organizationId}/collections`, { token: admin.token, limit: 4 });
    expect(walk.items.map((c: any) => c.title)).toEqual(Array.from({ length: 9 }, (_, i) => `C${i}`));
  });
});
