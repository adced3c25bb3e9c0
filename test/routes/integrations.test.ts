import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';
import { loadSecretsKey, unseal } from '../../src/lib/secretBox.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-integrations-'));
const testApp = useTestApp({ QUIRE_DATA_DIR: dataDir });

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const GIF_1X1 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
let unique = 0;
const nextName = (prefix = 'integration') => `${prefix}-${++unique}`;

function manifest(organization: string, overrides: object = {}) {
  return {
    organization,
    title: 'Analytics',
    description: 'Counts the readers of your docs',
    summary: 'A longer text about counting readers.',
    scopes: ['site:views:read'],
    categories: ['analytics'],
    script: 'export default { fetch() { return new Response("ok"); } };',
    ...overrides,
  };
}

async function publish(organization: Organization, name: string, overrides: object = {}, token = organization.admin.token) {
  return request(testApp.app, 'POST', `/v1/integrations/${name}`, { token, body: manifest(organization.organizationId, overrides) });
}

describe('publishing integrations', () => {
  it('publishes version 1 with every field, serves its images, and never returns its secrets', async () => {
    const organization = await buildOrganization(testApp);
    const name = nextName();
    const published = await publish(organization, name, {
      icon: PNG_1X1,
      previewImages: [GIF_1X1, PNG_1X1],
      visibility: 'unlisted',
      target: 'space',
      blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://maps.example.com/**'], markdown: { codeblock: 'map', body: 'x' } }],
      contentSources: [{ id: 'feed', title: 'Feed', configuration: { componentId: 'configure' } }],
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      configurations: { account: { properties: { apiKey: { type: 'string', title: 'API key' } }, required: ['apiKey'] } },
      secrets: { CLIENT_SECRET: 'very-secret-value' },
      contentSecurityPolicy: { 'script-src': "'self'" },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({
      object: 'integration',
      name,
      version: 1,
      title: 'Analytics',
      description: 'Counts the readers of your docs',
      visibility: 'unlisted',
      target: 'space',
      verified: false,
      scopes: ['site:views:read'],
      categories: ['analytics'],
      blocks: [{ id: 'embed', urlUnfurl: ['https://maps.example.com/**'] }],
      contentSources: [{ id: 'feed' }],
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      configurations: { account: { required: ['apiKey'] } },
      owner: { object: 'organization', id: organization.organizationId },
      permissions: { admin: true, install: true },
      contentSecurityPolicy: { 'script-src': "'self'" },
      urls: { location: `http://quire.test/v1/integrations/${name}` },
    });
    expect(JSON.stringify(published.body)).not.toContain('very-secret-value');
    expect(published.body.secrets).toBeUndefined();

    const icon = await testApp.app.inject({ method: 'GET', url: new URL(published.body.urls.icon).pathname });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.rawPayload.equals(Buffer.from(PNG_1X1, 'base64'))).toBe(true);
    expect(published.body.previewImages).toHaveLength(2);
    const preview = await testApp.app.inject({ method: 'GET', url: new URL(published.body.previewImages[0]).pathname });
    expect(preview.headers['content-type']).toBe('image/gif');

    const fetched = await request(testApp.app, 'GET', `/v1/integrations/${name}`, { token: organization.admin.token });
    expect(JSON.stringify(fetched.body)).not.toContain('very-secret-value');
  });

  it('keeps secrets sealed at rest with a key outside the database', async () => {
    const organization = await buildOrganization(testApp);
    const name = nextName();
    await publish(organization, name, { secrets: { TOKEN: 'plain-text-never-stored' } });
    const row = await testApp.database.db.selectFrom('integrations').select('secrets').where('name', '=', name).executeTakeFirstOrThrow();
    expect(row.secrets).not.toContain('plain-text-never-stored');
    const keyFile = join(dataDir, 'secrets.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(unseal(loadSecretsKey({ dataDir }), row.secrets!))).toEqual({ TOKEN: 'plain-text-never-stored' });
  });

  it('bumps the version on each publication, storing each script, and keeps what a new one leaves out', async () => {
    const organization = await buildOrganization(testApp);
    const name = nextName();
    const first = await publish(organization, name, { icon: PNG_1X1, previewImages: [GIF_1X1], secrets: { A: 'one' } });
    const second = await publish(organization, name, { title: 'Analytics 2', previewImages: [PNG_1X1], script: 'v2' });
    expect(second.body).toMatchObject({ version: 2, title: 'Analytics 2' });
    expect(second.body.urls.icon).toBe(first.body.urls.icon);
    const oldPreview = await testApp.app.inject({ method: 'GET', url: new URL(first.body.previewImages[0]).pathname });
    expect(oldPreview.statusCode).toBe(404);
    const scripts = await testApp.database.db
      .selectFrom('integration_scripts')
      .select(['version', 'script'])
      .where('integration_name', '=', name)
      .orderBy('version')
      .execute();
    expect(scripts.map((script) => script.version)).toEqual([1, 2]);
    expect(scripts[1].script).toBe('v2');
    const row = await testApp.database.db.selectFrom('integrations').select('secrets').where('name', '=', name).executeTakeFirstOrThrow();
    expect(JSON.parse(unseal(loadSecretsKey({ dataDir }), row.secrets!))).toEqual({ A: 'one' });
  });

  it('accepts the organization by its subdomain', async () => {
    const organization = await buildOrganization(testApp);
    const subdomain = `acme-${++unique}`;
    await request(testApp.app, 'PATCH', `/v1/orgs/${organization.organizationId}`, { token: organization.admin.token, body: { hostname: subdomain } });
    const name = nextName();
    const published = await request(testApp.app, 'POST', `/v1/integrations/${name}`, {
      token: organization.admin.token,
      body: manifest(subdomain),
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.owner.id).toBe(organization.organizationId);
  });

  it('refuses every field out of its limits (400), naming the field', async () => {
    const organization = await buildOrganization(testApp);
    const cases: Array<[object, string]> = [
      [{ title: 'A' }, 'title'],
      [{ title: 'x'.repeat(31) }, 'title'],
      [{ description: 'x'.repeat(101) }, 'description'],
      [{ summary: 'x'.repeat(2049) }, 'summary'],
      [{ previewImages: [PNG_1X1, PNG_1X1, PNG_1X1, PNG_1X1] }, 'previewImages'],
      [{ externalLinks: Array.from({ length: 6 }, (_, i) => ({ url: `https://example.com/${i}`, label: 'L' })) }, 'externalLinks'],
      [{ scopes: ['space:everything'] }, 'scopes'],
      [{ categories: ['games'] }, 'categories'],
      [{ script: undefined }, 'script'],
      [{ scopes: undefined }, 'scopes'],
      [{ visibility: 'secret' }, 'visibility'],
      [{ target: 'planet' }, 'target'],
      [{ icon: Buffer.from('this is not a picture').toString('base64') }, 'icon'],
      [{ icon: 'not base64!' }, 'icon'],
      [{ secrets: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`S${i}`, 'v'])) }, 'secrets'],
      [{ configurations: { account: { properties: { a: { type: 'string' } }, componentId: 'both' } } }, 'configurations.account'],
      [{ configurations: { space: { properties: { a: { type: 'string' } }, required: ['b'] } } }, 'required'],
    ];
    for (const [overrides, field] of cases) {
      const refused = await publish(organization, nextName(), overrides);
      expect(refused.status, JSON.stringify(overrides).slice(0, 80)).toBe(400);
      expect(refused.body.error.message).toContain(field);
    }
    const badName = await request(testApp.app, 'POST', '/v1/integrations/bad name!', {
      token: organization.admin.token,
      body: manifest(organization.organizationId),
    });
    expect(badName.status).toBe(400);
  });

  it('lets only administrators publish, and keeps names to their organization (403, 404, 409)', async () => {
    const organization = await buildOrganization(testApp);
    const other = await buildOrganization(testApp);
    const creator = await buildMember(testApp, organization.organizationId, 'create');
    expect((await publish(organization, nextName(), {}, creator.token)).status).toBe(403);
    expect((await publish(organization, nextName(), {}, other.admin.token)).status).toBe(404);
    const name = nextName();
    await publish(organization, name);
    const taken = await publish(other, name);
    expect(taken.status).toBe(409);
    expect((await request(testApp.app, 'DELETE', `/v1/integrations/${name}`, { token: other.admin.token })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', `/v1/integrations/${name}`, { token: creator.token })).status).toBe(403);
  });
});

describe('listing integrations', () => {
  it('shows private and unlisted integrations only to their organization, and filters', async () => {
    const organization = await buildOrganization(testApp);
    const outsider = await buildOrganization(testApp);
    const tag = `zq${++unique}`;
    const names = { pub: `${tag}-public`, priv: `${tag}-private`, unlisted: `${tag}-unlisted`, blocks: `${tag}-blocks` };
    await publish(organization, names.pub, { categories: ['content'] });
    await publish(organization, names.priv, { visibility: 'private' });
    await publish(organization, names.unlisted, { visibility: 'unlisted' });
    await publish(organization, names.blocks, {
      description: 'Unfurls maps',
      blocks: [{ id: 'map', title: 'Map', urlUnfurl: ['https://Maps.Example.com/place/*'] }],
      contentSources: [{ id: 'src', title: 'Source', configuration: { componentId: 'c' } }],
    });
    const list = (token: string, query: Record<string, string> = {}) =>
      walkList(testApp.app, '/v1/integrations', { token, limit: 2, query: { search: tag, ...query } }).then((r) => r.items.map((i) => i.name).sort());

    expect(await list(organization.admin.token)).toEqual(Object.values(names).sort());
    expect(await list(outsider.admin.token)).toEqual([names.blocks, names.pub].sort());
    expect(await list(organization.admin.token, { category: 'content' })).toEqual([names.pub]);
    expect(await list(organization.admin.token, { blockDomain: 'maps.example.com' })).toEqual([names.blocks]);
    expect(await list(organization.admin.token, { blocks: 'true' })).toEqual([names.blocks]);
    expect(await list(organization.admin.token, { contentSources: 'false' })).toEqual([names.priv, names.pub, names.unlisted].sort());
    expect(await list(outsider.admin.token, { owner: organization.organizationId })).toEqual([names.blocks, names.pub].sort());
    expect(await list(organization.admin.token, { search: 'UNFURLS MAPS' })).toEqual([names.blocks]);

    expect((await request(testApp.app, 'GET', `/v1/integrations/${names.priv}`, { token: outsider.admin.token })).status).toBe(404);
    const unlisted = await request(testApp.app, 'GET', `/v1/integrations/${names.unlisted}`, { token: outsider.admin.token });
    expect(unlisted.body.permissions).toEqual({ admin: false, install: true });
  });
});

describe('installations', () => {
  async function world() {
    const owner = await buildOrganization(testApp);
    const installer = await buildOrganization(testApp);
    const name = nextName('tool');
    await publish(owner, name, {
      configurations: {
        account: { properties: { apiKey: { type: 'string' }, region: { type: 'string', enum: ['eu', 'us'], default: 'eu' } }, required: ['apiKey'] },
        space: { properties: { tracked: { type: 'boolean', default: true } } },
      },
    });
    return { owner, installer, name };
  }

  it('installs on an organization as pending until its required settings are given, then active', async () => {
    const { owner, installer, name } = await world();
    const installed = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
      token: installer.admin.token,
      body: { organization: installer.organizationId },
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    expect(installed.body).toMatchObject({
      status: 'pending',
      space_selection: 'selected',
      spaces: 0,
      configuration: { region: 'eu' },
      externalIds: [],
      target: { organization: installer.organizationId },
    });
    const url = `/v1/integrations/${name}/installations/${installed.body.id}`;
    const again = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
      token: installer.admin.token,
      body: { organization: installer.organizationId },
    });
    expect(again.status).toBe(409);

    for (const [configuration, message] of [
      [{ apiKey: 7 }, 'configuration.apiKey'],
      [{ apiKey: 'k', region: 'mars' }, 'configuration.region'],
      [{ apiKey: 'k', typo: 1 }, 'typo'],
    ] as const) {
      const refused = await request(testApp.app, 'PATCH', url, { token: installer.admin.token, body: { configuration } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(message);
    }
    const configured = await request(testApp.app, 'PATCH', url, {
      token: installer.admin.token,
      body: { configuration: { apiKey: 'k', region: 'us' }, externalIds: ['acct-42'], space_selection: 'all' },
    });
    expect(configured.body).toMatchObject({ status: 'active', configuration: { apiKey: 'k', region: 'us' }, externalIds: ['acct-42'], space_selection: 'all' });

    const byOwner = await request(testApp.app, 'GET', `/v1/integrations/${name}/installations`, {
      token: owner.admin.token,
      query: { externalId: 'acct-42' },
    });
    expect(byOwner.body).toMatchObject({ count: 1, items: [{ id: installed.body.id }] });
    const none = await request(testApp.app, 'GET', `/v1/integrations/${name}/installations`, {
      token: owner.admin.token,
      query: { externalId: 'acct-4' },
    });
    expect(none.body.count).toBe(0);
    expect((await request(testApp.app, 'GET', url, { token: owner.admin.token })).status).toBe(200);
    expect((await request(testApp.app, 'PATCH', url, { token: owner.admin.token, body: { externalIds: [] } })).status).toBe(404);
  });

  it('keeps installations to the administrators concerned (403 members, 404 strangers)', async () => {
    const { owner, installer, name } = await world();
    const installed = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
      token: installer.admin.token,
      body: { organization: installer.organizationId },
    });
    const url = `/v1/integrations/${name}/installations/${installed.body.id}`;
    const member = await buildMember(testApp, installer.organizationId, 'create');
    const stranger = await buildOrganization(testApp);
    expect((await request(testApp.app, 'GET', url, { token: member.token })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', url, { token: member.token })).status).toBe(403);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/integrations/${name}/installations`, { token: installer.admin.token })).status).toBe(403);
    const byMember = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
      token: member.token,
      body: { organization: installer.organizationId },
    });
    expect(byMember.status).toBe(403);

    const privateName = nextName('private');
    await publish(owner, privateName, { visibility: 'private' });
    const elsewhere = await request(testApp.app, 'POST', `/v1/integrations/${privateName}/installations`, {
      token: installer.admin.token,
      body: { organization: installer.organizationId },
    });
    expect(elsewhere.status).toBe(404);
  });

  it('installs on spaces of the organization, with their own settings, and removes everything on unpublish', async () => {
    const { owner, installer, name } = await world();
    const installed = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
      token: installer.admin.token,
      body: { organization: installer.organizationId },
    });
    const installation = `/v1/integrations/${name}/installations/${installed.body.id}`;
    const space = await request(testApp.app, 'POST', `/v1/orgs/${installer.organizationId}/spaces`, { token: installer.admin.token, body: { title: 'Docs' } });
    const foreignSpace = await request(testApp.app, 'POST', `/v1/orgs/${owner.organizationId}/spaces`, { token: owner.admin.token, body: { title: 'Theirs' } });

    const onSpace = await request(testApp.app, 'POST', `${installation}/spaces`, { token: installer.admin.token, body: { space: space.body.id } });
    expect(onSpace.status, JSON.stringify(onSpace.body)).toBe(201);
    expect(onSpace.body).toMatchObject({ integration: name, installation: installed.body.id, status: 'active', configuration: { tracked: true }, space: space.body.id });
    expect((await request(testApp.app, 'POST', `${installation}/spaces`, { token: installer.admin.token, body: { space: space.body.id } })).status).toBe(409);
    expect((await request(testApp.app, 'POST', `${installation}/spaces`, { token: installer.admin.token, body: { space: foreignSpace.body.id } })).status).toBe(404);

    const extended = await request(testApp.app, 'GET', `${installation}/spaces/${space.body.id}`, { token: installer.admin.token, query: { extended: true } });
    expect(extended.body.space).toMatchObject({ object: 'space', id: space.body.id, title: 'Docs' });
    const changed = await request(testApp.app, 'PATCH', `${installation}/spaces/${space.body.id}`, {
      token: installer.admin.token,
      body: { configuration: { tracked: false }, externalIds: ['site-1'] },
    });
    expect(changed.body).toMatchObject({ configuration: { tracked: false }, externalIds: ['site-1'] });
    const wrongType = await request(testApp.app, 'PATCH', `${installation}/spaces/${space.body.id}`, {
      token: installer.admin.token,
      body: { configuration: { tracked: 'yes' } },
    });
    expect(wrongType.status).toBe(400);
    const listed = await request(testApp.app, 'GET', `${installation}/spaces`, { token: installer.admin.token });
    expect(listed.body).toMatchObject({ count: 1, items: [{ space: space.body.id }] });
    expect((await request(testApp.app, 'GET', installation, { token: installer.admin.token })).body.spaces).toBe(1);

    expect((await request(testApp.app, 'DELETE', `${installation}/spaces/${space.body.id}`, { token: installer.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', `${installation}/spaces/${space.body.id}`, { token: installer.admin.token })).status).toBe(404);

    expect((await request(testApp.app, 'DELETE', `/v1/integrations/${name}`, { token: owner.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', installation, { token: installer.admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/integrations/${name}`, { token: owner.admin.token })).status).toBe(404);
  });

  it('refuses space installs for integrations that target something else, and uninstalls', async () => {
    const owner = await buildOrganization(testApp);
    const name = nextName('sites-only');
    await publish(owner, name, { target: 'site' });
    const installed = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
      token: owner.admin.token,
      body: { organization: owner.organizationId },
    });
    const space = await request(testApp.app, 'POST', `/v1/orgs/${owner.organizationId}/spaces`, { token: owner.admin.token, body: { title: 'Docs' } });
    const installation = `/v1/integrations/${name}/installations/${installed.body.id}`;
    const refused = await request(testApp.app, 'POST', `${installation}/spaces`, { token: owner.admin.token, body: { space: space.body.id } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('sites');
    expect((await request(testApp.app, 'DELETE', installation, { token: owner.admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', installation, { token: owner.admin.token })).status).toBe(404);
  });

  it('installs on sites of the organization with their own settings, and refuses what it cannot install on, in the error shape', async () => {
    const owner = await buildOrganization(testApp);
    const stranger = await buildOrganization(testApp);
    const name = nextName('site-tool');
    await publish(owner, name, { target: 'site', configurations: { site: { properties: { theme: { type: 'string' } } } } });
    const installed = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, { token: owner.admin.token, body: { organization: owner.organizationId } });
    const installation = `/v1/integrations/${name}/installations/${installed.body.id}`;
    const site = (await request(testApp.app, 'POST', `/v1/orgs/${owner.organizationId}/sites`, { token: owner.admin.token, body: { title: 'Docs' } })).body;
    const theirSite = (await request(testApp.app, 'POST', `/v1/orgs/${stranger.organizationId}/sites`, { token: stranger.admin.token, body: { title: 'Theirs' } })).body;
    const as = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => request(testApp.app, method, url, { token: owner.admin.token, body });

    expect((await as('POST', `${installation}/sites`, {})).body.error).toEqual({ code: 400, message: expect.stringContaining('siteId') });
    expect((await as('POST', `${installation}/sites`, { siteId: theirSite.id })).status).toBe(404);
    const onSite = await as('POST', `${installation}/sites`, { siteId: site.id });
    expect(onSite.status).toBe(201);
    expect(onSite.body).toMatchObject({ integration: name, installation: installed.body.id, site: site.id, status: 'active', configuration: {}, externalIds: [] });
    expect((await as('POST', `${installation}/sites`, { siteId: site.id })).status).toBe(409);
    expect((await as('GET', `${installation}/sites/${site.id}?extended=true`)).body.site).toMatchObject({ id: site.id, title: 'Docs' });
    expect((await as('PATCH', `${installation}/sites/${site.id}`, { configuration: { theme: 3 } })).body.error).toEqual({ code: 400, message: expect.stringMatching(/^configuration\.theme: /) });
    expect((await as('PATCH', `${installation}/sites/${site.id}`, { configuration: { theme: 'dark' }, externalIds: ['a', 'a'] })).body).toMatchObject({ configuration: { theme: 'dark' }, externalIds: ['a'] });
    expect((await as('GET', `${installation}/sites`)).body.items.map((item: { site: string }) => item.site)).toEqual([site.id]);
    expect((await request(testApp.app, 'GET', `${installation}/sites`, { token: stranger.admin.token })).status).toBe(404);
    expect((await as('DELETE', `${installation}/sites/${site.id}`)).status).toBe(204);
    expect((await as('GET', `${installation}/sites/${site.id}`)).body.error).toEqual({ code: 404, message: `The installation is not installed on site "${site.id}"` });

    const spaceTool = nextName('space-tool');
    await publish(owner, spaceTool, { target: 'space' });
    const spaceInstallation = (await request(testApp.app, 'POST', `/v1/integrations/${spaceTool}/installations`, { token: owner.admin.token, body: { organization: owner.organizationId } })).body.id;
    const refused = await as('POST', `/v1/integrations/${spaceTool}/installations/${spaceInstallation}/sites`, { siteId: site.id });
    expect(refused.body.error).toEqual({ code: 400, message: `The integration "${spaceTool}" installs on spaces, not on sites` });
  });

  it("refuses malformed reads of an integration's events and tasks with a 400 in the error shape", async () => {
    const owner = await buildOrganization(testApp);
    const name = nextName();
    await publish(owner, name);
    const events = await request(testApp.app, 'GET', `/v1/integrations/${name}/events`, { token: owner.admin.token, query: { page: 'not-a-cursor' } });
    expect(events.body.error).toEqual({ code: 400, message: 'page is not a valid cursor: pass the value of next.page from the previous answer' });
    expect((await request(testApp.app, 'GET', `/v1/integrations/${name}/events`, { token: owner.admin.token })).body).toEqual({ items: [], count: 0 });
    const noTask = await request(testApp.app, 'POST', `/v1/integrations/${name}/tasks`, { token: owner.admin.token, body: { schedule: 5 } });
    expect(noTask.status).toBe(400);
    expect(noTask.body.error.message).toMatch(/task/);
    const tooLate = await request(testApp.app, 'POST', `/v1/integrations/${name}/tasks`, { token: owner.admin.token, body: { task: {}, schedule: 86_401 } });
    expect(tooLate.status).toBe(400);
    expect(tooLate.body.error.message).toMatch(/schedule/);
  });
});

describe('published scripts with integrations off', () => {
  const withoutScripts = useTestApp({ QUIRE_INTEGRATIONS: 'false' });

  it('lists no script on a published site while scripts cannot run, and its URL says why it answers none', async () => {
    const { org, call, sites, site, path, open } = await publishSampleSite(withoutScripts);
    const body = { ...manifest(org.organizationId), scopes: ['site:script:inject'], visibility: 'private' };
    expect((await call('POST', '/v1/integrations/counter', body)).status).toBeLessThan(300);
    const installation = (await call('POST', '/v1/integrations/counter/installations', { organization: org.organizationId })).body.id;
    expect((await call('POST', `/v1/integrations/counter/installations/${installation}/sites`, { siteId: site.id })).status).toBe(201);
    expect((await call('GET', `${sites}/${site.id}/published`)).body.scripts).toEqual([]);
    expect((await open(`${path}/start-here`)).document.querySelector('script[async]')).toBeNull();
    const scriptPath = `/v1/integrations/counter/installations/${installation}/sites/${site.id}/script.js`;
    const script = await withoutScripts.app.inject({ method: 'GET', url: scriptPath });
    expect(script.statusCode).toBe(502);
    expect(script.json().error.message).toMatch(/^integration scripts do not run: /);

    // Another organization's published site is nobody's to load this installation's script for.
    const elsewhere = await publishSampleSite(withoutScripts);
    const otherSite = await withoutScripts.app.inject({ method: 'GET', url: scriptPath.replace(site.id, elsewhere.site.id) });
    expect(otherSite.statusCode).toBe(404);
    expect(otherSite.json()).toEqual({ error: { code: 404, message: `No script of the integration "counter" is published on the site "${elsewhere.site.id}" by the installation "${installation}"` } });
    // Bad input is told what is wrong with it.
    const badName = await withoutScripts.app.inject({ method: 'GET', url: scriptPath.replace('/counter/', '/Not%20A%20Name/') });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().error.message).toBe('params.integrationName is not of the expected form: The integration name');
    const longVersion = await withoutScripts.app.inject({ method: 'GET', url: `${scriptPath}?v=${'1'.repeat(21)}` });
    expect(longVersion.json()).toEqual({ error: { code: 400, message: 'querystring.v must NOT have more than 20 characters' } });
  });
});
