import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { runCli, startServerProcess } from '../helpers/process.ts';

const testApp = useTestApp();

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
    expect(huge.body.error.code).toBe(413);
    const text = await testApp.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'text/plain' },
      payload: 'title=x',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe(415);
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
      await new Promise((resolve) => setTimeout(resolve, 5));
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
