// GitBook's own CLI (@gitbook/cli from npm, unchanged) against a live Quire:
// `gitbook publish` builds an integration and publishes it, `gitbook openapi publish`
// publishes an OpenAPI document, both with GITBOOK_TOKEN and GITBOOK_ENDPOINT.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventsDelivered, request, startTestApp, stopTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/process.ts';
import { findWorkerd } from '../../src/sandbox/sandbox.ts';
import { buildOrganization, type Organization } from '../helpers/factories.ts';

const GITBOOK_CLI = fileURLToPath(new URL('../../node_modules/@gitbook/cli/cli.js', import.meta.url));
const PROJECTS = fileURLToPath(new URL('../../node_modules/', import.meta.url));

let testApp: TestApp;
let endpoint: string;
let organization: Organization;
let home: string;
let receiver: Server;
let receiverHost: string;
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      received.push(body);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Scripts call Quire back at its public URL: the address it listens on.
  const port = await freePort();
  testApp = await startTestApp({ QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`, QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_INTEGRATION_HOSTS: receiverHost });
  endpoint = await testApp.app.listen({ port, host: '127.0.0.1' });
  organization = await buildOrganization(testApp, 'CLI Org');
  // Inside the project, so that the CLI's bundler finds @gitbook/runtime in its node_modules.
  home = await mkdtemp(join(PROJECTS, 'home-'));
});

afterAll(async () => {
  await stopTestApp(testApp);
  await new Promise((resolve) => receiver.close(resolve));
  await rm(home, { recursive: true, force: true });
});

/** Runs the CLI in `cwd` without blocking this process's server (it answers the CLI's calls). */
function gitbook(args: string[], cwd: string, token = organization.admin.token): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [GITBOOK_CLI, ...args], {
      cwd,
      // HOME: the CLI keeps its configuration there; a test must not read or write the user's.
      env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GITBOOK_TOKEN: token, GITBOOK_ENDPOINT: endpoint },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function integrationProject(greeting: string, script?: string, { name = 'quire-hello', scopes = ['space:content:read'] } = {}): Promise<string> {
  const dir = await mkdtemp(join(home, 'integration-'));
  await mkdir(join(dir, 'src'));
  await writeFile(
    join(dir, 'gitbook-manifest.yaml'),
    [
      `name: ${name}`,
      'title: Quire Hello',
      'description: Says hello when the content of a space changes',
      'script: ./src/index.js',
      'visibility: private',
      `organization: ${organization.organizationId}`,
      'scopes:',
      ...scopes.map((scope) => `  - ${scope}`),
      'summary: |',
      '  A small integration published by the GitBook CLI.',
      'configurations:',
      '  account:',
      '    properties:',
      '      greeting:',
      '        type: string',
      '        title: Greeting',
      '  site:',
      '    properties:',
      '      tracking_id:',
      '        type: string',
      '        title: Tracking ID',
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, 'src', 'index.js'), script ?? `export default {\n  async fetch(request) {\n    return new Response(${JSON.stringify(greeting)});\n  },\n};\n`);
  return dir;
}

describe("GitBook's CLI against Quire", () => {
  it('publishes an integration with `gitbook publish`, bundled by the CLI, and a new version on the next publish', async () => {
    const first = await gitbook(['publish', '.'], await integrationProject('hello, first'));
    expect(first.output).toContain('Integration "quire-hello" published');
    expect(first.code).toBe(0);
    const published = await request(testApp.app, 'GET', '/v1/integrations/quire-hello', { token: organization.admin.token });
    expect(published.body).toMatchObject({ name: 'quire-hello', title: 'Quire Hello', version: 1, scopes: ['space:content:read'], visibility: 'private', owner: { id: organization.organizationId } });
    const second = await gitbook(['publish', '.'], await integrationProject('hello, second'));
    expect(second.code, second.output).toBe(0);
    const scripts = await testApp.database.db.selectFrom('integration_scripts').select(['version', 'script']).where('integration_name', '=', 'quire-hello').orderBy('version').execute();
    expect(scripts.map((row) => row.version)).toEqual([1, 2]);
    // The CLI's esbuild bundle, as it sent it.
    expect(scripts[1].script).toContain('hello, second');
    expect(scripts[1].script).toMatch(/export\s*\{/);
  }, 60_000);

  it("refuses a publication into an organization the token's owner does not belong to, and the CLI says why", async () => {
    const other = await buildOrganization(testApp, 'Elsewhere');
    const dir = await integrationProject('hello');
    const refused = await gitbook(['publish', '.'], dir, other.admin.token);
    expect(refused.code).not.toBe(0);
    // Another organization's administrator does not learn that it exists.
    expect(refused.output).toContain(`GitBook API failed with [404] ${endpoint}/v1/integrations/quire-hello: No organization with id "${organization.organizationId}"`);
  }, 60_000);

  it('publishes an OpenAPI document with `gitbook openapi publish`', async () => {
    const dir = await mkdtemp(join(home, 'openapi-'));
    await writeFile(join(dir, 'petstore.yaml'), 'openapi: 3.0.3\ninfo:\n  title: Petstore\n  version: "1.0"\npaths:\n  /pets:\n    get:\n      responses:\n        "200":\n          description: The pets\n');
    const result = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', organization.organizationId, 'petstore.yaml'], dir);
    expect(result.output).toContain('OpenAPI specification "petstore" published');
    expect(result.code).toBe(0);
    const spec = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/openapi/petstore`, { token: organization.admin.token });
    expect(spec.status).toBe(200);
  }, 60_000);

  it.skipIf('missing' in findWorkerd())(
    "runs an integration built on GitBook's runtime as the CLI published it: a merge reaches its space_content_updated handler, which reads the space back through context.api with its installation's token",
    async () => {
      const script = [
        "import { createIntegration } from '@gitbook/runtime';",
        'export default createIntegration({',
        '  events: {',
        '    space_content_updated: async (event, context) => {',
        '      const { data: space } = await context.api.spaces.getSpaceById(event.spaceId);',
        `      await fetch('http://${receiverHost}/received', { method: 'POST', body: JSON.stringify({ type: event.type, revisionId: event.revisionId, title: space.title }) });`,
        '    },',
        '  },',
        '});',
        '',
      ].join('\n');
      const published = await gitbook(['publish', '.'], await integrationProject('', script));
      expect(published.code, published.output).toBe(0);
      const call = (method: 'GET' | 'POST', url: string, body?: unknown) => request(testApp.app, method, url, { token: organization.admin.token, body });
      const space = (await call('POST', `/v1/orgs/${organization.organizationId}/spaces`, { title: 'Runbook' })).body;
      const installation = (await call('POST', '/v1/integrations/quire-hello/installations', { organization: organization.organizationId })).body;
      await call('POST', `/v1/integrations/quire-hello/installations/${installation.id}/spaces`, { space: space.id });
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# On call' }] });
      expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
      await eventsDelivered(testApp);
      const revision = (await call('GET', `/v1/spaces/${space.id}`)).body.revision;
      expect(received.map((body) => JSON.parse(body))).toEqual([{ type: 'space_content_updated', revisionId: revision, title: 'Runbook' }]);
    },
    60_000,
  );

  it.skipIf('missing' in findWorkerd())(
    "serves the script an integration built on GitBook's runtime publishes for a site, as its Google Analytics integration makes it from the site installation's tracking id",
    async () => {
      const script = [
        "import { createIntegration } from '@gitbook/runtime';",
        'export default createIntegration({',
        '  fetch_published_script: async (event, { environment }) => {',
        '    const trackingId = environment.siteInstallation?.configuration?.tracking_id;',
        '    if (!trackingId) return;',
        "    return new Response(`gtag('config', '${trackingId}', { site: '${event.siteId}' });`, { headers: { 'Content-Type': 'application/javascript' } });",
        '  },',
        '});',
        '',
      ].join('\n');
      const published = await gitbook(['publish', '.'], await integrationProject('', script, { name: 'quire-analytics', scopes: ['site:script:inject', 'site:script:cookies'] }));
      expect(published.code, published.output).toBe(0);
      const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => request(testApp.app, method, url, { token: organization.admin.token, body });
      const space = (await call('POST', `/v1/orgs/${organization.organizationId}/spaces`, { title: 'Guides' })).body;
      const sites = `/v1/orgs/${organization.organizationId}/sites`;
      const site = (await call('POST', sites, { title: 'Guides' })).body;
      await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id });
      await call('POST', `${sites}/${site.id}/publish`);
      const installation = (await call('POST', '/v1/integrations/quire-analytics/installations', { organization: organization.organizationId })).body;
      await call('POST', `/v1/integrations/quire-analytics/installations/${installation.id}/sites`, { siteId: site.id });
      const [{ script: url, cookies }] = (await call('GET', `${sites}/${site.id}/published`)).body.scripts;
      expect(cookies).toBe(true);
      // Without a tracking id the handler answers nothing, and GitBook's runtime a script that does nothing.
      expect(await (await fetch(url)).text()).toBe('/** no-op */');
      await call('PATCH', `/v1/integrations/quire-analytics/installations/${installation.id}/sites/${site.id}`, { configuration: { tracking_id: 'G-TEST' } });
      expect(await (await fetch(url)).text()).toBe(`gtag('config', 'G-TEST', { site: '${site.id}' });`);
    },
    60_000,
  );
});
