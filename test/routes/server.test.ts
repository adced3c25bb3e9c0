import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request, testAppConfig, useTestApp } from '../helpers/app.ts';
import { buildApp } from '../../src/app.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { runCli, startServerProcess } from '../helpers/process.ts';

const testApp = useTestApp();

/** A POST with a body sent as written, under the given content type (undefined: no body). */
const postRaw = (url: string, token: string, contentType: string, payload?: string) =>
  testApp.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, ...(payload !== undefined ? { payload } : {}) });

describe('the server', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await request(testApp.app, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(testApp.app, 'GET', '/readyz')).body).toEqual({ status: 'ok' });
  });

  it('serves its OpenAPI document and a browsable reference from local assets', async () => {
    const document = await request(testApp.app, 'GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toMatch(/^3\./);
    expect(document.body.paths['/v1/orgs/{organizationId}'].get.operationId).toBe('getOrganizationById');
    const docs = await testApp.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui');
    expect(docs.body).not.toMatch(/https?:\/\/(?!localhost)[^"']*\.(js|css)/);
    const bundle = await testApp.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    const { admin } = await buildOrganization(testApp);
    const response = await request(testApp.app, 'GET', '/v1/nothing-here', { token: admin.token });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 404, message: 'No route GET /v1/nothing-here' } });
  });

  it('refuses bodies over the limit with 413 and unsupported media types with 415', async () => {
    const { admin } = await buildOrganization(testApp);
    const huge = await request(testApp.app, 'POST', '/v1/orgs', { token: admin.token, body: { title: 'x'.repeat(1_100_000) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toEqual({ code: 413, message: "The request body is larger than this operation's limit of 1 MB" });
    const text = await postRaw('/v1/orgs', admin.token, 'text/plain', 'title=x');
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toEqual({ code: 415, message: 'Send the body as JSON, with the header "Content-Type: application/json"' });
  });

  it('answers requests that are not valid HTTP, and over-long URLs, in the error shape', async () => {
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    const rawAnswer = (head: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(head));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk)).on('end', () => resolve(answer)).on('error', reject);
      });
    const rawUtf8 = await rawAnswer(Buffer.concat([Buffer.from('GET /v1/orgs?q='), Buffer.from('é'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
    expect(rawUtf8).toMatch(/^HTTP\/1.1 400 /);
    expect(JSON.parse(rawUtf8.split('\r\n\r\n')[1]).error).toMatchObject({ code: 400, message: expect.stringMatching(/percent-encoded/) });
    const long = await fetch(`http://127.0.0.1:${port}/v1/orgs?q=${'a'.repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect((await long.json()).error).toEqual({ code: 431, message: 'The URL and headers of a request may take at most 16 KB' });
  });

  it('accepts "Content-Type: application/json" with no body where an operation takes none, as GitBook\'s client sends merge', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const space = await request(testApp.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'S' } });
    const changeRequest = await request(testApp.app, 'POST', `/v1/spaces/${space.body.id}/change-requests`, { token: admin.token, body: { subject: 'C' } });
    const merged = await postRaw(`/v1/spaces/${space.body.id}/change-requests/${changeRequest.body.id}/merge`, admin.token, 'application/json');
    expect(merged.statusCode, merged.body).toBe(200);
    const noTitle = await postRaw('/v1/orgs', admin.token, 'application/json');
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().error.code).toBe(400);
  });

  it('refuses text holding a lone UTF-16 surrogate with 400 naming the field, rather than storing a replacement character', async () => {
    const { admin } = await buildOrganization(testApp);
    const lone = await postRaw('/v1/orgs', admin.token, 'application/json', '{"title":"Docs \\ud800"}');
    expect(lone.statusCode).toBe(400);
    expect(lone.json().error.message).toMatch(/^body\.title: .*lone surrogate/);
    const paired = await request(testApp.app, 'POST', '/v1/orgs', { token: admin.token, body: { title: 'Docs 😀' } });
    expect(paired.status).toBe(201);
    expect(paired.body.title).toBe('Docs 😀');
  });

  it('says why a JSON body is refused: where its text goes wrong, or the prototype keys it holds', async () => {
    const { admin } = await buildOrganization(testApp);
    const unterminated = await postRaw('/v1/orgs', admin.token, 'application/json', '{"title": "Docs');
    expect(unterminated.statusCode).toBe(400);
    expect(unterminated.json().error.message).toMatch(/^The body is not valid JSON: .*JSON/);
    for (const body of ['{"title":"Docs","__proto__":{"admin":true}}', '{"title":"Docs","constructor":{"prototype":{"admin":true}}}']) {
      const poisoned = await postRaw('/v1/orgs', admin.token, 'application/json', body);
      expect(poisoned.statusCode).toBe(400);
      expect(poisoned.json().error.message).toMatch(/^The body holds a "__proto__" key, or a "constructor" key holding "prototype", which are refused/);
    }
  });

  it('logs JSON lines off a terminal, and one line per request only at debug, at debug level', async () => {
    const database = await createTestDatabase();
    try {
      for (const level of ['debug', 'info']) {
        const server = await startServerProcess({ ...database.env, LOG_LEVEL: level });
        await fetch(`${server.baseUrl}/healthz`);
        await fetch(`${server.baseUrl}/v1/nowhere`);
        server.child.kill('SIGTERM');
        await server.exited;
        const lines = server.output().trim().split('\n').map((line) => JSON.parse(line));
        const requests = lines.filter((line) => line.msg === 'request' && line.url !== '/readyz');
        if (level === 'debug') {
          expect(requests.map((line) => [line.level, line.url, line.statusCode])).toEqual([[20, '/healthz', 200], [20, '/v1/nowhere', 404]]);
        } else {
          expect(requests).toEqual([]);
        }
        expect(lines.filter((line) => line.err)).toEqual([]);
      }
    } finally {
      await database.drop();
    }
  });

  it('closes its database only once the job runs it started have ended, whatever order its parts were built in', async () => {
    const database = await createTestDatabase();
    try {
      const app = await buildApp({ config: testAppConfig(database.env), database: await database.open(), closeDatabase: true });
      await app.ready();
      // A run started just before the stop, which reads the database after a pause.
      const run = app.ctx.jobRuns.run(async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return (await app.ctx.db.selectFrom('jobs').select('id').execute()).length;
      });
      await app.close();
      expect(await run).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('finishes in-flight requests on SIGTERM, closes the database and exits 0', async () => {
    const database = await createTestDatabase();
    try {
      const boot = await runCli(['admin', 'bootstrap', '--org', 'Acme', '--email', 'a@a.test', '--name', 'A', '--json'], database.env);
      expect(boot.code, boot.stderr).toBe(0);
      const { token, organization } = JSON.parse(boot.stdout);
      const server = await startServerProcess(database.env);
      const inFlight = Array.from({ length: 40 }, () =>
        fetch(`${server.baseUrl}/v1/orgs/${organization.id}/members`, { headers: { authorization: `Bearer ${token}` } })
          .then((response) => response.status)
          .catch(() => 'refused'),
      );
      // Once one has been answered the others are on their way: a fixed pause was too short on a loaded machine.
      await Promise.race(inFlight);
      server.child.kill('SIGTERM');
      const statuses = await Promise.all(inFlight);
      expect(await server.exited).toBe(0);
      expect(statuses.every((status) => status === 200 || status === 503 || status === 'refused')).toBe(true);
      expect(statuses).toContain(200);
      expect(server.output()).toMatch(/stopping/);
    } finally {
      await database.drop();
    }
  });
});
