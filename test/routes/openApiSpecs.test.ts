import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp, type TestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
const strictApp = useTestApp();

const PETSTORE_31 = `openapi: 3.1.0
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: The pets
`;
const SWAGGER_20 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Legacy', version: '2' },
  paths: { '/things': { get: { responses: { 200: { description: 'ok' } } } } },
});
const INVALID = 'openapi: 3.0.3\ninfo:\n  version: 1.0.0\npaths:\n  /a:\n    get:\n      responses: nope\n';

/** What the test's own web server answers, by path; `hang` never answers. */
const served = new Map<string, string | 'hang'>();
let sourceServer: Server;
let origin: string;

beforeAll(async () => {
  sourceServer = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body === 'hang') return;
    if (body === undefined) {
      res.writeHead(404).end('not here');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => sourceServer.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(sourceServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  sourceServer.closeAllConnections();
  await new Promise((resolve) => sourceServer.close(resolve));
});

/** Polls the spec until its processing is complete, as a client of the API would. */
async function processed(app: TestApp, organizationId: string, token: string, slug: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const spec = await request(app.app, 'GET', `/v1/orgs/${organizationId}/openapi/${slug}`, { token });
    if (spec.body.processingState === 'complete' || Date.now() > deadline) return spec.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function create(organizationId: string, token: string, slug: string, source: object, app = testApp) {
  return request(app.app, 'POST', `/v1/orgs/${organizationId}/openapi`, { token, body: { slug, source } });
}

describe('OpenAPI specs', () => {
  it('processes a text source into a first version whose content is the parsed document', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const created = await create(organizationId, admin.token, 'petstore', { text: PETSTORE_31 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      visibility: 'private',
      permissions: { view: true, edit: true },
      urls: { location: `http://quire.test/v1/orgs/${organizationId}/openapi/petstore` },
    });
    expect(['pending', 'progress', 'complete']).toContain(created.body.processingState);

    const spec = await processed(testApp, organizationId, admin.token, 'petstore');
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.any(String), lastProcessedAt: expect.any(String) });
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const base = `/v1/orgs/${organizationId}/openapi/petstore`;
    const versions = await request(testApp.app, 'GET', `${base}/versions`, { token: admin.token });
    expect(versions.body.count).toBe(1);
    expect(versions.body.items[0]).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion });
    const latest = await request(testApp.app, 'GET', `${base}/versions/latest`, { token: admin.token });
    expect(latest.body.id).toBe(spec.lastVersion);
    const content = await request(testApp.app, 'GET', `${base}/versions/latest/content`, { token: admin.token });
    expect(content.status).toBe(200);
    expect(content.body.filesystem).toMatchObject({ openapi: '3.1.0', info: { title: 'Petstore' } });
    expect(content.body.urls.public).toBeNull();
    const byId = await request(testApp.app, 'GET', `${base}/versions/${spec.lastVersion}/content`, { token: admin.token });
    expect(byId.body.filesystem.paths['/pets'].get.operationId).toBe('listPets');
  });

  it('makes no new version for the same text, and one for changed text', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    await create(organizationId, admin.token, 'api', { text: PETSTORE_31 });
    const first = await processed(testApp, organizationId, admin.token, 'api');
    const url = `/v1/orgs/${organizationId}/openapi/api`;
    const same = await request(testApp.app, 'PUT', url, { token: admin.token, body: { source: { text: PETSTORE_31 } } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ processingState: 'complete', lastVersion: first.lastVersion });
    const changed = await request(testApp.app, 'PUT', url, {
      token: admin.token,
      body: { source: { text: PETSTORE_31.replace('1.0.0', '1.1.0') } },
    });
    expect(changed.status).toBe(200);
    const second = await processed(testApp, organizationId, admin.token, 'api');
    expect(second.lastVersion).not.toBe(first.lastVersion);
    const versions = await request(testApp.app, 'GET', `${url}/versions`, { token: admin.token });
    expect(versions.body.items.map((version: { id: string }) => version.id)).toEqual([second.lastVersion, first.lastVersion]);
  });

  it('creates a spec through PUT (201) and reads Swagger 2.0 JSON', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const put = await request(testApp.app, 'PUT', `/v1/orgs/${organizationId}/openapi/legacy`, {
      token: admin.token,
      body: { source: { text: SWAGGER_20 } },
    });
    expect(put.status).toBe(201);
    const spec = await processed(testApp, organizationId, admin.token, 'legacy');
    expect(spec.lastVersion).toEqual(expect.any(String));
    const content = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/openapi/legacy/versions/latest/content`, {
      token: admin.token,
    });
    expect(content.body.filesystem.swagger).toBe('2.0');
  });

  it('records what is wrong with an invalid document (PARSE_ERROR) and stores no version', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    await create(organizationId, admin.token, 'broken', { text: INVALID });
    const spec = await processed(testApp, organizationId, admin.token, 'broken');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors.map((error: { message: string }) => error.message)).toEqual(
      expect.arrayContaining([expect.stringContaining("/info: must have required property 'title'")]),
    );
    expect(spec.lastVersion).toBeUndefined();
    const latest = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/openapi/broken/versions/latest`, {
      token: admin.token,
    });
    expect(latest.status).toBe(404);

    await create(organizationId, admin.token, 'not-yaml', { text: 'openapi: [unclosed\n' });
    const syntax = await processed(testApp, organizationId, admin.token, 'not-yaml');
    expect(syntax).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ code: 'SYNTAX' }] });
  });

  it('fetches a URL source, fetches it again on PUT, and stores a version only when it changed', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    served.set('/specs/one.yaml', PETSTORE_31);
    const sourceURL = `${origin}/specs/one.yaml`;
    await create(organizationId, admin.token, 'remote', { url: sourceURL });
    const first = await processed(testApp, organizationId, admin.token, 'remote');
    expect(first).toMatchObject({ sourceURL, lastVersion: expect.any(String) });
    const url = `/v1/orgs/${organizationId}/openapi/remote`;
    const version = await request(testApp.app, 'GET', `${url}/versions/latest`, { token: admin.token });
    expect(version.body.url).toBe(sourceURL);

    await request(testApp.app, 'PUT', url, { token: admin.token, body: { source: { url: sourceURL } } });
    const again = await processed(testApp, organizationId, admin.token, 'remote');
    expect(again.lastVersion).toBe(first.lastVersion);

    served.set('/specs/one.yaml', PETSTORE_31.replace('Petstore', 'Pet shop'));
    await request(testApp.app, 'PUT', url, { token: admin.token, body: { source: { url: sourceURL } } });
    const changed = await processed(testApp, organizationId, admin.token, 'remote');
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    expect((await request(testApp.app, 'GET', `${url}/versions`, { token: admin.token })).body.count).toBe(2);
  });

  it('gives up on a source that never answers (FETCH_TIMEOUT) and reports a missing one (FETCH_ERROR)', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    served.set('/specs/slow.yaml', 'hang');
    await create(organizationId, admin.token, 'slow', { url: `${origin}/specs/slow.yaml` });
    await create(organizationId, admin.token, 'missing', { url: `${origin}/specs/missing.yaml` });
    const slow = await processed(testApp, organizationId, admin.token, 'slow');
    expect(slow.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    const missing = await processed(testApp, organizationId, admin.token, 'missing');
    expect(missing.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(missing.lastProcessedErrors[0].message).toContain('404');
  });

  it('does not fetch loopback addresses unless QUIRE_ALLOW_PRIVATE_URLS is on', async () => {
    const { organizationId, admin } = await buildOrganization(strictApp);
    served.set('/specs/private.yaml', PETSTORE_31);
    await create(organizationId, admin.token, 'private', { url: `${origin}/specs/private.yaml` }, strictApp);
    const spec = await processed(strictApp, organizationId, admin.token, 'private');
    expect(spec).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR', lastProcessedErrors: [{ code: 'ADDRESS' }] });
    expect(spec.lastVersion).toBeUndefined();
  });

  it('changes visibility, deletes specs with their versions, and lists them', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    await create(organizationId, admin.token, 'one', { text: PETSTORE_31 });
    await create(organizationId, admin.token, 'two', { text: PETSTORE_31 });
    await processed(testApp, organizationId, admin.token, 'one');
    const url = `/v1/orgs/${organizationId}/openapi/one`;
    const made = await request(testApp.app, 'PATCH', url, { token: admin.token, body: { visibility: 'public' } });
    expect(made.body.visibility).toBe('public');
    const content = await request(testApp.app, 'GET', `${url}/versions/latest/content`, { token: admin.token });
    expect(content.body.urls.public).toEqual(expect.stringContaining('/content'));
    const list = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}/openapi`, { token: admin.token, query: { limit: 1 } });
    expect(list.body).toMatchObject({ count: 2, items: [{ slug: 'two' }], next: { page: expect.any(String) } });
    expect((await request(testApp.app, 'DELETE', url, { token: admin.token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token: admin.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `${url}/versions`, { token: admin.token })).status).toBe(404);
  });

  it('refuses bad slugs, sources and duplicates with messages that say what to fix', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const cases: Array<[object, number, string]> = [
      [{ slug: 'Not OK', source: { text: PETSTORE_31 } }, 400, 'slug'],
      [{ slug: 'x'.repeat(101), source: { text: PETSTORE_31 } }, 400, 'slug'],
      [{ slug: 'ok', source: {} }, 400, 'source'],
      [{ slug: 'ok', source: { url: `${origin}/a`, text: 'x' } }, 400, 'not both'],
      [{ slug: 'ok', source: { url: 'ftp://example.com/spec.yaml' } }, 400, 'http'],
      [{ slug: 'ok', source: { url: 'not a url' } }, 400, 'url'],
      [{ slug: 'ok', source: { text: '' } }, 400, 'text'],
      [{ slug: 'ok' }, 400, 'source'],
    ];
    for (const [body, status, text] of cases) {
      const refused = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/openapi`, { token: admin.token, body });
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(refused.body.error.message).toContain(text);
    }
    await create(organizationId, admin.token, 'taken', { text: PETSTORE_31 });
    const duplicate = await create(organizationId, admin.token, 'taken', { text: PETSTORE_31 });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.message).toContain('PUT');
  });

  it('lets members read specs, only administrators change them, and hides them from other organizations', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    await create(organizationId, admin.token, 'shared', { text: PETSTORE_31 });
    const creator = await buildMember(testApp, organizationId, 'create');
    const reader = await buildMember(testApp, organizationId, 'read');
    const stranger = await buildOrganization(testApp);
    const url = `/v1/orgs/${organizationId}/openapi/shared`;
    const read = await request(testApp.app, 'GET', url, { token: reader.token });
    expect(read.status).toBe(200);
    expect(read.body.permissions).toEqual({ view: true, edit: false });
    expect((await create(organizationId, creator.token, 'mine', { text: PETSTORE_31 })).status).toBe(403);
    expect((await request(testApp.app, 'PUT', url, { token: creator.token, body: { source: { text: SWAGGER_20 } } })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', url, { token: creator.token })).status).toBe(403);
    expect((await request(testApp.app, 'GET', url, { token: stranger.admin.token })).status).toBe(404);
  });
});
