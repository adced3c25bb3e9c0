// The command line's contract, run as a separate process on the test database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engine, type TestDatabase } from '../helpers/database.ts';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { childPids, freePort, QUIRE_BIN, runCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/process.ts';
import { parseHTML } from 'linkedom';

let database: TestDatabase;
/** Arguments, help and the configuration are read before a database is opened: what tests only them runs on one engine. */
const beforeAnyDatabase = it.skipIf(engine !== 'sqlite');
let server: ServerProcess | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await database.drop();
});

const json = (text: string) => JSON.parse(text.trim().split('\n').pop()!);

/** The running server's API for one token: JSON in, JSON out. */
const apiAs = (token: string) => async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return response.json();
};

/** A new organization with one space holding one merged page, through the running server. */
async function spaceWithPage(organizationTitle: string, markdown: string) {
  const boot = json((await runCli(['admin', 'bootstrap', '--org', organizationTitle, '--email', `${organizationTitle.toLowerCase()}@acme.test`, '--name', 'I', '--json'], database.env)).stdout);
  const call = apiAs(boot.token);
  const space = await call('POST', `/v1/orgs/${boot.organization.id}/spaces`, { title: organizationTitle });
  const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
  await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: markdown }] });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  return { organizationId: boot.organization.id as string, space, call };
}

describe('quire command line', () => {
  it('migrates, bootstraps, adds users and manages tokens against a running server', async () => {
    const migrated = await runCli(['migrate'], database.env);
    expect(migrated.code).toBe(0);
    server = await startServerProcess(database.env);
    const api = (path: string, token: string) =>
      fetch(`${server!.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

    const boot = await runCli(
      ['admin', 'bootstrap', '--org', 'Acme', '--email', 'ada@acme.test', '--name', 'Ada', '--json'],
      database.env,
    );
    expect(boot.code, boot.stderr).toBe(0);
    const bootstrapped = json(boot.stdout);
    expect(bootstrapped).toEqual({
      organization: { id: expect.any(String) },
      user: { id: expect.any(String) },
      token: expect.any(String),
    });
    const organizationId = bootstrapped.organization.id;
    const organizations = await (await api('/v1/orgs', bootstrapped.token)).json();
    expect(organizations.items.map((o: any) => o.id)).toEqual([organizationId]);

    const added = await runCli(
      ['admin', 'add-user', '--org', organizationId, '--email', 'bob@acme.test', '--name', 'Bob', '--role', 'read', '--json'],
      database.env,
    );
    expect(added.code, added.stderr).toBe(0);
    const bob = json(added.stdout);
    expect(bob).toEqual({ user: { id: expect.any(String) }, token: expect.any(String) });
    const bobMember = await (await api(`/v1/orgs/${organizationId}/members/${bob.user.id}`, bob.token)).json();
    expect(bobMember.role).toBe('read');

    const secondOrg = await runCli(
      ['admin', 'bootstrap', '--org', 'Bobs', '--email', 'BOB@acme.test', '--name', 'Bob', '--json'],
      database.env,
    );
    expect(json(secondOrg.stdout).user.id).toBe(bob.user.id);

    const created = await runCli(['admin', 'create-token', '--user', bob.user.id, '--json'], database.env);
    expect(created.code).toBe(0);
    const { token } = json(created.stdout);
    expect((await api('/v1/user', token)).status).toBe(200);

    const revoked = await runCli(['admin', 'revoke-token', '--token', token], database.env);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await api('/v1/user', token)).status).toBe(401);
    expect((await api('/v1/user', bob.token)).status).toBe(200);

    const human = await runCli(['admin', 'create-token', '--user', bob.user.id], database.env);
    expect(human.stdout).toMatch(/API token for bob@acme\.test/);
  });

  it('prints a one-time sign-in link for a person, which signs in once on the running server', async () => {
    expect(server, 'the server the test above started').toBeDefined();
    const printed = await runCli(['admin', 'sign-in-link', '--email', 'ADA@acme.test'], database.env);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/One-time sign-in link for ada@acme\.test/);
    const url = printed.stdout.trim().split('\n').pop()!;
    const token = /\/sign-in\/link\/([^/]+)$/.exec(url)?.[1];
    expect(token, url).toBeDefined();
    const use = () =>
      fetch(`${server!.baseUrl}/auth/sign-in-link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    const first = await use();
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toMatch(/^quire_session=/);
    expect((await first.json()).session.user.email).toBe('ada@acme.test');
    expect((await use()).status).toBe(400);

    const asJson = json((await runCli(['admin', 'sign-in-link', '--email', 'ada@acme.test', '--json'], database.env)).stdout);
    expect(asJson).toEqual({ user: { id: expect.any(String) }, url: expect.stringMatching(/\/sign-in\/link\//) });

    const unknown = await runCli(['admin', 'sign-in-link', '--email', 'nobody@acme.test'], database.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No one has the e-mail address "nobody@acme\.test"/);
  });

  beforeAnyDatabase.each([
    [['admin', 'bootstrap', '--org', 'Acme', '--email', 'not-an-email', '--name', 'Ada'], /--email must be an e-mail address/],
    [['admin', 'bootstrap', '--org', 'Acme', '--name', 'Ada'], /--email is required/],
    [['admin', 'add-user', '--org', 'x', '--email', 'a@b.test', '--name', 'A', '--role', 'owner'], /--role must be one of/],
    [['admin', 'create-token', '--user', 'u', '--bogus'], /Unknown option '--bogus'/],
    [['admin', 'revoke-token'], /exactly one of --token or --id/],
    [['admin', 'frobnicate'], /unknown command "admin frobnicate"/],
  ])('exits 2 with a one-line error for wrong arguments: %j', async (args, message) => {
    const result = await runCli(args, database.env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('rebuilds the search index with reindex, beside the running server', async () => {
    const { organizationId, call } = await spaceWithPage('Index', '# Lighthouse\n\nKeepers.');
    const handle = await database.open();
    await handle.db.deleteFrom('search_sections').execute();
    await handle.db.deleteFrom('search_state').execute();
    await handle.close();
    const search = () => call('GET', `/v1/orgs/${organizationId}/search?query=lighthouse`);
    expect((await search()).count).toBe(0);
    const reindexed = await runCli(['reindex', '--json'], database.env);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(json(reindexed.stdout).pages).toBeGreaterThanOrEqual(1);
    expect((await search()).items[0].pages[0].title).toBe('Lighthouse');
  });

  it('brings an index left behind up to date after a restart, in a job queued at the start', async () => {
    const { space, call } = await spaceWithPage('Behind', '# Semaphore\n\nFlags.');
    server!.child.kill('SIGKILL');
    const handle = await database.open();
    await handle.db.deleteFrom('search_sections').where('space_id', '=', space.id).execute();
    await handle.db.deleteFrom('search_state').where('space_id', '=', space.id).execute();
    await handle.close();
    server = await startServerProcess(database.env);
    const found = await waitFor('the catch-up job', async () => {
      const result = await call('GET', `/v1/spaces/${space.id}/search?query=semaphore`);
      return result.count > 0 ? result : undefined;
    });
    expect(found.items[0].title).toBe('Semaphore');
  });

  it("imports a folder in GitBook's format into a space and exports it back into another folder, beside the running server", async () => {
    const boot = json((await runCli(['admin', 'bootstrap', '--org', 'Folders', '--email', 'folders@acme.test', '--name', 'F', '--json'], database.env)).stdout);
    const call = apiAs(boot.token);
    const space = await call('POST', `/v1/orgs/${boot.organization.id}/spaces`, { title: 'From a folder' });
    const folder = mkdtempSync(join(tmpdir(), 'quire-docs-'));
    const files: Record<string, string> = {
      // SUMMARY.md's words for the guide are its title, the link's own title its link title; its file's heading and front matter say otherwise, and stay so.
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Network Bridges](guide.md "Bridges")\n',
      'README.md': '# Home\n\nRead the [guide](guide.md).\n',
      // A reusable content's file named otherwise than its title: it keeps its name, and its id at each import.
      // Its cover is no file of the folder: the page has none, and its front matter keeps it.
      'guide.md': '---\ntitle: Bridges\ncover: .gitbook/assets/gone.png\ncoverY: 0\n---\n\n# Bridges\n\nSteps.\n\n{% include ".gitbook/includes/Gap warning.md" %}\n',
      '.gitbook/includes/Gap warning.md': '---\ntitle: Note\n---\n\nMind the gap.\n',
    };
    mkdirSync(join(folder, '.gitbook', 'includes'), { recursive: true });
    for (const [path, text] of Object.entries(files)) writeFileSync(join(folder, path), text);

    const imported = await runCli(['import', folder, '--space', space.id, '--json'], database.env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(json(imported.stdout)).toEqual({ pages: 2, files: 0, warnings: ['guide.md: the cover .gitbook/assets/gone.png is not a file of the repository; the page has none, and an export keeps it in the front matter'] });
    const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
    expect(pages.map((page: { title: string; linkTitle?: string }) => [page.title, page.linkTitle])).toEqual([['Home', undefined], ['Network Bridges', 'Bridges']]);
    const [note] = (await call('GET', `/v1/spaces/${space.id}/content`)).reusableContents;
    expect(note).toMatchObject({ title: 'Note' });
    expect((await runCli(['import', folder, '--space', space.id, '--json'], database.env)).code).toBe(0);
    expect((await call('GET', `/v1/spaces/${space.id}/content/reusable-contents/${note.id}`)).title).toBe('Note');

    // A reader of the published site sees the guide's link title in the navigation and the pagination, as GitBook shows it.
    const sites = `/v1/orgs/${boot.organization.id}/sites`;
    const site = await call('POST', sites, { title: 'Folder docs' });
    await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id });
    await call('PATCH', `${sites}/${site.id}`, { visibility: 'public' });
    const published = new URL((await call('POST', `${sites}/${site.id}/publish`)).urls.published).pathname;
    const read = async (selector: string) => parseHTML(await (await fetch(`${server!.baseUrl}${published}`)).text()).document.querySelector(selector)?.textContent;
    expect([await read('nav.pages'), await read('nav.pagination')]).toEqual(['HomeBridges', 'Next: Bridges']);

    const out = mkdtempSync(join(tmpdir(), 'quire-export-'));
    const exported = await runCli(['export', '--space', space.id, out], database.env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^Wrote 2 pages and 0 files to /);
    for (const [path, text] of Object.entries(files)) expect(readFileSync(join(out, path), 'utf8'), path).toBe(text);

    // Pages GitBook computes are a computed page of the space, with GitBook's source, written back where SUMMARY.md had them, into a new folder too; their page stays its folder's README.md.
    const api = mkdtempSync(join(tmpdir(), 'quire-api-'));
    const computed = '  * ```yaml\n    type: builtin:openapi\n    dependencies:\n      spec:\n        ref:\n          kind: openapi\n          spec: petstore\n    ```\n';
    const apiFiles: Record<string, string> = {
      'SUMMARY.md': `# Table of contents\n\n* [Home](README.md)\n* [API reference](api/README.md)\n${computed}`,
      'README.md': '# Home\n\nSee the [API](api/).\n',
      'api/README.md': '# API reference\n\nEvery operation.\n',
    };
    mkdirSync(join(api, 'api'));
    for (const [path, text] of Object.entries(apiFiles)) writeFileSync(join(api, path), text);
    expect(json((await runCli(['import', api, '--space', space.id, '--json'], database.env)).stdout).warnings).toEqual([expect.stringMatching(/^SUMMARY\.md: pages GitBook computes \(builtin:openapi\) from the OpenAPI spec "petstore" are kept as a computed page, which Quire does not compute/)]);
    const [, reference] = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
    expect(reference.pages).toEqual([
      expect.objectContaining({ type: 'computed', title: 'OpenAPI: petstore', computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } } } }),
    ]);
    // Quire computes none of its pages: the reader leaves it out.
    expect(await read('nav.pages')).toBe('HomeAPI reference');
    const apiOut = mkdtempSync(join(tmpdir(), 'quire-api-export-'));
    expect((await runCli(['export', '--space', space.id, apiOut], database.env)).code).toBe(0);
    for (const [path, text] of Object.entries(apiFiles)) expect(readFileSync(join(apiOut, path), 'utf8'), path).toBe(text);

    const missing = await runCli(['import', folder, '--space', 'nope'], database.env);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, 'quire import: No space with id "nope"']);
    expect((await runCli(['import', '--space', space.id], database.env)).stderr).toMatch(/give exactly 1 folder, got 0/);
  });

  it('says at start which database and data folder it uses, without credentials, where the API reference is, and which QUIRE_* variables it does not know', async () => {
    const started = await startServerProcess({ ...database.env, QUIRE_DATBASE_POOL: '3', LOG_LEVEL: 'info' });
    try {
      const line = (text: string) => started.output().split('\n').find((entry) => entry.includes(text));
      const report = JSON.parse((await waitFor('the start report', () => line('API reference')))!);
      expect(report.dataFolder).toBe(database.env.QUIRE_DATA_DIR);
      expect(report.database).toEqual(engine === 'sqlite' ? `SQLite ${join(database.env.QUIRE_DATA_DIR, 'quire.db')}` : expect.stringMatching(/^PostgreSQL postgres:\/\/[^@]+$/));
      expect(report.apiReference).toMatch(/^http:\/\/localhost:\d+\/docs$/);
      const warning = JSON.parse((await waitFor('the warning', () => line('QUIRE_DATBASE_POOL')))!);
      expect([warning.level, warning.msg]).toEqual([40, 'QUIRE_DATBASE_POOL is not a setting Quire knows, so it is ignored: did you mean QUIRE_DATABASE_POOL?']);
      // Commands other than serve say it on stderr before they act.
      const migrated = await runCli(['migrate'], { ...database.env, QUIRE_DATA_DIRR: '/elsewhere' });
      expect(migrated.stderr).toBe('quire: QUIRE_DATA_DIRR is not a setting Quire knows, so it is ignored: did you mean QUIRE_DATA_DIR?\n');
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  beforeAnyDatabase('lists the admin commands for "quire admin" and "quire admin --help"', async () => {
    const bare = await runCli(['admin'], database.env);
    const help = await runCli(['admin', '--help'], database.env);
    expect([bare.code, help.code]).toEqual([2, 0]);
    for (const result of [bare, help]) {
      for (const command of ['bootstrap', 'add-user', 'create-token', 'revoke-token', 'sign-in-link']) expect(result.stdout).toContain(`admin ${command}`);
    }
  });

  beforeAnyDatabase('stops with a one-line message when QUIRE_DATA_DIR cannot hold the database, instead of spinning', async () => {
    for (const dataDir of ['/proc/quire-nope', QUIRE_BIN + '/data']) {
      const result = await runCli(['migrate'], { ...database.env, DATABASE_URL: '', QUIRE_DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr.trim()).toMatch(new RegExp(`^quire migrate: QUIRE_DATA_DIR "${dataDir}" is not a folder Quire can write its database in \\((ENOENT|ENOTDIR)\\)$`));
    }
  });

  it("serves with `npm start` under a small machine's memory and thread settings, the caller's own winning, and stops when it is sent SIGTERM, as a supervisor does", async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start'], {
      cwd: dirname(dirname(QUIRE_BIN)),
      env: { ...process.env, ...database.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), NODE_OPTIONS: '--max-old-space-size=1024', MALLOC_ARENA_MAX: '4' },
      stdio: 'ignore',
    });
    const npmExited = new Promise((resolve) => npm.on('close', resolve));
    const ready = () => fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok || undefined, () => undefined);
    await waitFor('npm start to serve', ready);
    // npm's shell execs the launcher, which execs the server: one process under npm, so the signal reaches it.
    const [serverPid] = childPids(npm.pid!);
    expect(readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0').slice(0, 3)).toEqual(['node', expect.stringMatching(/quire\.js$/), 'serve']);
    const environment = Object.fromEntries(
      readFileSync(`/proc/${serverPid}/environ`, 'utf8')
        .split('\0')
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
    // V8 takes the last of a repeated flag, so the caller's cap follows the launcher's.
    // V8's background threads: one fewer than the cores, between 1 and 4.
    const pool = Math.min(4, Math.max(1, availableParallelism() - 1));
    expect(environment.NODE_OPTIONS).toBe(`--max-old-space-size=256 --max-semi-space-size=8 --v8-pool-size=${pool} --max-old-space-size=1024`);
    expect(environment).toMatchObject({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '262144', MALLOC_TRIM_THRESHOLD_: '262144' });
    npm.kill('SIGTERM');
    await npmExited;
    await waitFor('the server to stop', async () => ((await ready()) ? undefined : true), 10_000);
  });

  beforeAnyDatabase('answers --help on every command', async () => {
    const commands = [['--help'], ['serve', '--help'], ['migrate', '--help'], ['reindex', '--help'], ['admin', 'bootstrap', '--help'], ['admin', 'add-user', '--help'], ['admin', 'create-token', '--help'], ['admin', 'revoke-token', '--help'], ['admin', 'sign-in-link', '--help']];
    const results = await Promise.all(commands.map((args) => runCli(args, database.env)));
    results.forEach((result, index) => {
      expect(result.code, commands[index].join(' ')).toBe(0);
      expect(result.stdout).toMatch(/Usage: quire/);
    });
  });

  beforeAnyDatabase('runs the sources it is started from: a changed source file makes new bundles, which the next start loads as they are', async () => {
    // A copy of the checkout beside the project, sharing its dependencies.
    const project = dirname(dirname(QUIRE_BIN));
    const checkout = mkdtempSync(join(tmpdir(), 'quire-checkout-'));
    for (const part of ['bin', 'src', 'package.json', 'package-lock.json']) cpSync(join(project, part), join(checkout, part), { recursive: true });
    symlinkSync(join(project, 'node_modules'), join(checkout, 'node_modules'));
    const bundles = join(project, 'node_modules', '.cache', 'quire');
    const before = new Set(existsSync(bundles) ? readdirSync(bundles) : []);
    const made = () => readdirSync(bundles).filter((name) => !before.has(name));
    const help = async () => {
      const child = spawn(process.execPath, [join(checkout, 'bin', 'quire.js'), '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      await new Promise((resolve) => child.on('close', resolve));
      return stdout;
    };
    try {
      expect(await help()).toMatch(/^Usage: quire/);
      const first = made();
      expect(first).toHaveLength(1);
      const entry = join(checkout, 'src', 'cli.ts');
      writeFileSync(entry, `process.stdout.write('edited\\n');\n${readFileSync(entry, 'utf8')}`);
      expect(await help()).toMatch(/^edited\nUsage: quire/);
      const second = made();
      expect(second).toHaveLength(2);
      expect(await help()).toMatch(/^edited\nUsage: quire/);
      expect(made()).toEqual(second);
    } finally {
      for (const name of made()) rmSync(join(bundles, name), { recursive: true, force: true });
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('reports an unknown organization or user as an error, exit 1', async () => {
    const result = await runCli(['admin', 'add-user', '--org', 'nope', '--email', 'c@d.test', '--name', 'C', '--role', 'read'], database.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No organization with id "nope"/);
  });

  beforeAnyDatabase('stops the start with a one-line message naming an invalid variable', async () => {
    const result = await runCli(['serve'], { ...database.env, QUIRE_BODY_LIMIT: 'lots' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^quire serve: QUIRE_BODY_LIMIT must be/);
  });
});
