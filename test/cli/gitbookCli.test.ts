// GitBook's own CLI (@gitbook/cli from npm, unchanged) against a live Quire:
// `gitbook publish` builds an integration and publishes it, `gitbook openapi publish`
// publishes an OpenAPI document, both with GITBOOK_TOKEN and GITBOOK_ENDPOINT.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildOrganization, type Organization } from '../helpers/factories.ts';

const GITBOOK_CLI = fileURLToPath(new URL('../../node_modules/@gitbook/cli/cli.js', import.meta.url));

const testApp = useTestApp();
let endpoint: string;
let organization: Organization;
let home: string;

beforeAll(async () => {
  endpoint = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  organization = await buildOrganization(testApp, 'CLI Org');
  home = await mkdtemp(join(tmpdir(), 'quire-gitbook-cli-'));
});

afterAll(async () => {
  await testApp.app.close();
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

async function integrationProject(greeting: string): Promise<string> {
  const dir = await mkdtemp(join(home, 'integration-'));
  await mkdir(join(dir, 'src'));
  await writeFile(
    join(dir, 'gitbook-manifest.yaml'),
    [
      'name: quire-hello',
      'title: Quire Hello',
      'description: Says hello when the content of a space changes',
      'script: ./src/index.js',
      'visibility: private',
      `organization: ${organization.organizationId}`,
      'scopes:',
      '  - space:content:read',
      'summary: |',
      '  A small integration published by the GitBook CLI.',
      'configurations:',
      '  account:',
      '    properties:',
      '      greeting:',
      '        type: string',
      '        title: Greeting',
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, 'src', 'index.js'), `export default {\n  async fetch(request) {\n    return new Response(${JSON.stringify(greeting)});\n  },\n};\n`);
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
});
