import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

async function setup() {
  const organization = await buildOrganization(testApp);
  const space = await request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/spaces`, {
    token: organization.admin.token,
    body: { title: 'Docs' },
  });
  const field = (body: object) =>
    request(testApp.app, 'POST', `/v1/orgs/${organization.organizationId}/custom-fields`, { token: organization.admin.token, body });
  return { ...organization, spaceId: space.body.id as string, field };
}

describe('custom fields', () => {
  it('creates (201), reads, changes and deletes (204) a field by its immutable name', async () => {
    const { organizationId, admin, field } = await setup();
    const created = await field({ name: 'owner-team', type: 'text', title: 'Owner', description: 'Who owns it', placeholder: 'Team' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'owner-team',
      type: 'text',
      title: 'Owner',
      description: 'Who owns it',
      placeholder: 'Team',
      urls: { location: `http://quire.test/v1/orgs/${organizationId}/custom-fields/owner-team` },
    });
    const url = `/v1/orgs/${organizationId}/custom-fields/owner-team`;
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).body.id).toBe(created.body.id);
    const patched = await request(testApp.app, 'PATCH', url, { token: admin.token, body: { title: 'Owning team', name: 'renamed' } });
    expect(patched.body).toMatchObject({ title: 'Owning team', name: 'owner-team' });
    expect((await request(testApp.app, 'DELETE', url, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).status).toBe(404);
  });

  it.each([
    [{ name: 'Bad Name', type: 'text' }, /name is not of the expected form: Immutable key: a-z, 0-9, _ and -/],
    [{ name: 'x'.repeat(51), type: 'text' }, /name must NOT have more than 50/],
    [{ name: 'ok', type: 'color' }, /type must be one of/],
    [{ name: 'ok', type: 'select:single' }, /needs its list of options/],
    [{ name: 'ok', type: 'text', options: ['a'] }, /only select fields have options/],
    [{ name: 'ok', type: 'select:multi', options: [] }, /options must NOT have fewer than 1/],
    [{ name: 'ok', type: 'select:multi', options: ['a', 'a'] }, /only once/],
    [{ name: 'ok', type: 'text', title: 'x'.repeat(101) }, /title must NOT have more than 100/],
  ])('refuses the invalid field %j with 400', async (body, message) => {
    const { field } = await setup();
    const response = await field(body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('refuses a second field with the same name (409) and non-administrators (403)', async () => {
    const { organizationId, field } = await setup();
    expect((await field({ name: 'dup', type: 'boolean' })).status).toBe(201);
    expect((await field({ name: 'dup', type: 'number' })).status).toBe(409);
    const editor = await buildMember(testApp, organizationId, 'edit');
    const refused = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/custom-fields`, {
      token: editor.token,
      body: { name: 'mine', type: 'text' },
    });
    expect(refused.status).toBe(403);
    const listed = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/custom-fields`, { token: editor.token });
    expect(listed.body.items.map((f: any) => f.name)).toEqual(['dup']);
  });

  it('sets values on a space, validated against each type and its options', async () => {
    const { admin, spaceId, field } = await setup();
    await field({ name: 'summary', type: 'text' });
    await field({ name: 'pages', type: 'number' });
    await field({ name: 'public', type: 'boolean' });
    await field({ name: 'labels', type: 'tags' });
    await field({ name: 'stage', type: 'select:single', options: ['draft', 'final'] });
    await field({ name: 'audience', type: 'select:multi', options: ['devs', 'ops', 'sales'] });
    const url = `/v1/spaces/${spaceId}/custom-fields`;
    const values = {
      summary: { value: 'About the product' },
      pages: { value: 12 },
      public: { value: true },
      labels: { value: ['a', 'b'] },
      stage: { value: 'final' },
      audience: { value: ['devs', 'ops'] },
    };
    expect((await request(testApp.app, 'PATCH', url, { token: admin.token, body: { values } })).status).toBe(204);
    const read = await request(testApp.app, 'GET', url, { token: admin.token });
    expect(read.status).toBe(200);
    expect(Object.fromEntries(read.body.map((entry: any) => [entry.customField.name, entry.value]))).toEqual({
      summary: 'About the product',
      pages: 12,
      public: true,
      labels: ['a', 'b'],
      stage: 'final',
      audience: ['devs', 'ops'],
    });
    for (const [name, value, message] of [
      ['summary', 'x'.repeat(257), /256/],
      ['pages', 'twelve', /must be a number/],
      ['public', 'yes', /true or false/],
      ['labels', 'a', /list of strings/],
      ['stage', 'shipped', /one of the options/],
      ['audience', ['devs', 'devs'], /distinct options/],
      ['unknown', 'x', /no custom field/],
    ] as const) {
      const response = await request(testApp.app, 'PATCH', url, { token: admin.token, body: { values: { [name]: { value } } } });
      expect(response.status, name).toBe(400);
      expect(response.body.error.message, name).toMatch(message);
    }
    const mixed = await request(testApp.app, 'PATCH', url, {
      token: admin.token,
      body: { values: { summary: { value: 'changed' }, pages: { value: 'bad' } } },
    });
    expect(mixed.status).toBe(400);
    const unchanged = await request(testApp.app, 'GET', url, { token: admin.token });
    expect(unchanged.body.find((entry: any) => entry.customField.name === 'summary').value).toBe('About the product');
  });

  it('clears a value with null, drops values outside shrunk options, and deletes values with the field', async () => {
    const { organizationId, admin, spaceId, field } = await setup();
    await field({ name: 'stage', type: 'select:single', options: ['draft', 'final'] });
    await field({ name: 'audience', type: 'select:multi', options: ['devs', 'ops'] });
    await field({ name: 'note', type: 'text' });
    const url = `/v1/spaces/${spaceId}/custom-fields`;
    await request(testApp.app, 'PATCH', url, {
      token: admin.token,
      body: { values: { stage: { value: 'draft' }, audience: { value: ['devs', 'ops'] }, note: { value: 'n' } } },
    });
    await request(testApp.app, 'PATCH', url, { token: admin.token, body: { values: { note: { value: null } } } });
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/custom-fields/stage`, { token: admin.token, body: { options: ['final'] } });
    await request(testApp.app, 'PATCH', `/v1/orgs/${organizationId}/custom-fields/audience`, { token: admin.token, body: { options: ['ops'] } });
    const read = await request(testApp.app, 'GET', url, { token: admin.token });
    const values = Object.fromEntries(read.body.map((entry: any) => [entry.customField.name, entry.value]));
    expect(values).toEqual({ stage: undefined, audience: ['ops'], note: undefined });
    await request(testApp.app, 'DELETE', `/v1/orgs/${organizationId}/custom-fields/audience`, { token: admin.token });
    const count = await testApp.database.db.selectFrom('space_custom_field_values').select('field_id').where('space_id', '=', spaceId).execute();
    expect(count).toEqual([]);
  });

  it('lets editors set values but not readers (403), and hides them from strangers (404)', async () => {
    const { organizationId, spaceId, field } = await setup();
    await field({ name: 'note', type: 'text' });
    const reader = await buildMember(testApp, organizationId, 'read');
    const editor = await buildMember(testApp, organizationId, 'edit');
    const url = `/v1/spaces/${spaceId}/custom-fields`;
    const body = { values: { note: { value: 'x' } } };
    expect((await request(testApp.app, 'PATCH', url, { token: reader.token, body })).status).toBe(403);
    expect((await request(testApp.app, 'PATCH', url, { token: editor.token, body })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token: reader.token })).status).toBe(200);
    const stranger = await buildOrganization(testApp);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
  });

  it('copies values with a duplicated space and walks long field lists', async () => {
    const { organizationId, admin, spaceId, field } = await setup();
    await field({ name: 'note', type: 'text' });
    await request(testApp.app, 'PATCH', `/v1/spaces/${spaceId}/custom-fields`, { token: admin.token, body: { values: { note: { value: 'kept' } } } });
    const copy = await request(testApp.app, 'POST', `/v1/spaces/${spaceId}/duplicate`, { token: admin.token });
    const copied = await request(testApp.app, 'GET', `/v1/spaces/${copy.body.id}/custom-fields`, { token: admin.token });
    expect(copied.body[0].value).toBe('kept');
    for (let i = 0; i < 6; i++) await field({ name: `f${i}`, type: 'boolean' });
    const walk = await walkList(testApp.app, `/v1/orgs/${organizationId}/custom-fields`, { token: admin.token, limit: 3 });
    expect(walk.items).toHaveLength(7);
  });
});
