// Background work survives the process: Quire is killed while an OpenAPI spec is being
// fetched, and the restarted Quire finishes the job from the database; a published
// page's document made ahead after a merge still spares its first reader after a restart,
// and one an earlier version's conversion stored is made again;
// what follows a merge is done once although the process that merged dies doing it.
import { createHmac } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { openDatabase } from '../../src/db/dialect.ts';
import { DOCUMENT_CONVERSION } from '../../src/content/gitbook/conversion.ts';
import { callServer, runCli, startServerProcess, waitFor } from '../helpers/process.ts';

const SPEC = 'openapi: 3.0.3\ninfo:\n  title: Resumed\n  version: "1"\npaths: {}\n';

let database: TestDatabase;
let sourceServer: Server;
let origin: string;
let answering = false;
let requestsSeen = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  sourceServer = createServer((_request, response) => {
    requestsSeen++;
    // Until the restart, the source never answers: the job is cut off mid-fetch.
    if (answering) response.writeHead(200, { 'content-type': 'application/yaml' }).end(SPEC);
  });
  await new Promise<void>((resolve) => sourceServer.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(sourceServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  sourceServer.closeAllConnections();
  await new Promise((resolve) => sourceServer.close(resolve));
  await database.drop();
});

describe('durable background jobs', () => {
  it('finish an OpenAPI processing cut off by SIGKILL once Quire is started again', async () => {
    const env = { ...database.env, QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_JOB_LEASE: '2' };
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Jobs', '--email', 'jobs@quire.test', '--name', 'J', '--json'], env);
    const { token, organization } = JSON.parse(boot.stdout);
    const specUrl = (baseUrl: string) => `${baseUrl}/v1/orgs/${organization.id}/openapi/resumed`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const first = await startServerProcess(env);
    const created = await fetch(`${first.baseUrl}/v1/orgs/${organization.id}/openapi`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ slug: 'resumed', source: { url: `${origin}/spec.yaml` } }),
    });
    expect(created.status).toBe(201);
    await waitFor('the fetch to start', async () => (requestsSeen > 0 ? true : undefined));
    const during = await (await fetch(specUrl(first.baseUrl), { headers })).json();
    expect(during.processingState).toBe('progress');
    first.child.kill('SIGKILL');
    await first.exited;

    answering = true;
    const second = await startServerProcess(env);
    try {
      const finished = await waitFor('the processing to complete', async () => {
        const spec = await (await fetch(specUrl(second.baseUrl), { headers })).json();
        return spec.processingState === 'complete' ? spec : undefined;
      });
      expect(finished.lastProcessErrorCode).toBeUndefined();
      expect(finished.lastVersion).toEqual(expect.any(String));
      const content = await (await fetch(`${specUrl(second.baseUrl)}/versions/latest/content`, { headers })).json();
      expect(content.filesystem.info.title).toBe('Resumed');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it("keep a published page's document made ahead after a merge for its first reader after a restart, and make again one an earlier Quire's conversion stored", async () => {
    const own = await createTestDatabase();
    const env = { ...own.env };
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Reader', '--email', 'reader@quire.test', '--name', 'R', '--json'], env);
    const { token, organization } = JSON.parse(boot.stdout);
    const first = await startServerProcess(env);
    const call = async (method: string, path: string, body?: unknown) =>
      (await fetch(`${first.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).json();
    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' });
    const sites = `/v1/orgs/${organization.id}/sites`;
    const site = await call('POST', sites, { title: 'Docs' });
    await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id });
    await call('PATCH', `${sites}/${site.id}`, { visibility: 'public' });
    const published = await call('POST', `${sites}/${site.id}/publish`);
    const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
    const pages = { orbit: 'Made ahead, kept across restarts.', apogee: 'Read anew by this Quire.', perigee: 'Read by a later Quire.' };
    const changes = Object.entries(pages).map(([slug, text]) => ({ operation: 'insert_page', document: `# ${slug[0].toUpperCase()}${slug.slice(1)}\n\n${text}` }));
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const documentIds = Object.fromEntries(((await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages as Array<{ slug: string; documentId: string }>).map((page) => [page.slug, page.documentId]));
    // What another version of Quire would have stored for two of the pages.
    const storedBy = (conversion: number, text: string) => ({
      conversion,
      document: deflateSync(JSON.stringify({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] })).toString('base64'),
    });
    const store = openDatabase({ dataDir: env.QUIRE_DATA_DIR, databaseUrl: env.DATABASE_URL });
    try {
      await waitFor('the documents to be made ahead', async () => ((await store.db.selectFrom('page_documents').select('hash').execute()).length === 3 ? true : undefined));
      await store.db.updateTable('page_documents').set(storedBy(DOCUMENT_CONVERSION - 1, 'An earlier conversion.')).where('hash', '=', documentIds.apogee).execute();
      await store.db.updateTable('page_documents').set(storedBy(DOCUMENT_CONVERSION + 1, 'A later conversion.')).where('hash', '=', documentIds.perigee).execute();
    } finally {
      await store.close();
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startServerProcess(env);
    const read = async (slug: string) => {
      const page = await fetch(`${second.baseUrl}${new URL(published.urls.published).pathname}/${slug}`);
      expect(page.status).toBe(200);
      return { made: page.headers.get('x-quire-cache'), text: await page.text() };
    };
    try {
      expect(await read('orbit')).toEqual({ made: 'document', text: expect.stringContaining(pages.orbit) });
      const apogee = await read('apogee');
      expect(apogee.text).toContain(pages.apogee);
      expect(apogee.text).not.toContain('An earlier conversion.');
      // During an upgrade, what a later version stored is not replaced by an earlier one's.
      expect((await read('perigee')).text).toContain(pages.perigee);
      const after = openDatabase({ dataDir: env.QUIRE_DATA_DIR, databaseUrl: env.DATABASE_URL });
      try {
        const conversions = Object.fromEntries((await after.db.selectFrom('page_documents').select(['hash', 'conversion']).execute()).map((row) => [row.hash, row.conversion]));
        expect([conversions[documentIds.orbit], conversions[documentIds.apogee], conversions[documentIds.perigee]]).toEqual([DOCUMENT_CONVERSION, DOCUMENT_CONVERSION, DOCUMENT_CONVERSION + 1]);
      } finally {
        await after.close();
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await own.drop();
    }
  });

  it("does what follows a merge once, although the process that merged is killed in the middle of it: the other process finishes", async () => {
    const own = await createTestDatabase();
    // GitBook's renderer, as far as revalidation goes: it holds every call until the first process is dead.
    const held: Array<{ response: ServerResponse; body: string; signature: unknown }> = [];
    const answered: Array<{ body: string; signature: unknown }> = [];
    let answering = false;
    const answer = (call: (typeof held)[number]) => {
      if (call.response.destroyed) return;
      call.response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
      answered.push({ body: call.body, signature: call.signature });
    };
    const renderer = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const call = { response, body, signature: request.headers['x-gitbook-signature'] };
        if (answering) answer(call);
        else held.push(call);
      });
    });
    await new Promise<void>((resolve) => renderer.listen(0, '127.0.0.1', resolve));
    const env = { ...own.env, QUIRE_JOB_LEASE: '2', QUIRE_RENDERER_URL: `http://127.0.0.1:${(renderer.address() as AddressInfo).port}`, QUIRE_RENDERER_SECRET: 'shared-secret' };
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Events', '--email', 'events@quire.test', '--name', 'E', '--json'], env);
    const { token, organization } = JSON.parse(boot.stdout);
    const [first, second] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const store = openDatabase({ dataDir: env.QUIRE_DATA_DIR, databaseUrl: env.DATABASE_URL });
    try {
      const call = (method: string, path: string, body?: unknown) => callServer(first, method, path, token, body);
      const space = (await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' })).body;
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Zeppelin\n\nSeen [elsewhere](https://example.invalid/zeppelin).' }] });
      expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');

      await waitFor('the renderer to be called', () => (held.length > 0 ? true : undefined));
      first.child.kill('SIGKILL');
      await first.exited;
      answering = true;
      held.splice(0).forEach(answer);

      // A delivery is marked done before its job's row goes: wait for both.
      const deliveries = await waitFor('every delivery to be done and its job gone', async () => {
        const rows = await store.db.selectFrom('event_deliveries').selectAll().orderBy('subscriber').execute();
        const jobs = await store.db.selectFrom('jobs').select('kind').where('kind', '=', 'deliver-event').execute();
        return rows.length > 0 && rows.every((row) => row.state === 'done') && jobs.length === 0 ? rows : undefined;
      });
      expect(deliveries.map((row) => row.subscriber)).toEqual(['link-checks', 'page-documents', 'renderer-cache', 'search-index']);
      // Told once, signed as the renderer checks it.
      expect(answered).toHaveLength(1);
      expect(JSON.parse(answered[0].body)).toEqual({ tags: [`space:${space.id}`] });
      expect(answered[0].signature).toBe(createHmac('sha256', 'shared-secret').update(answered[0].body).digest('hex'));
      const found = await callServer(second, 'GET', `/v1/spaces/${space.id}/search?query=zeppelin`, token);
      expect(found.body.items.map((item: any) => item.title)).toEqual(['Zeppelin']);
      expect(await store.db.selectFrom('link_checks').select('url').execute()).toEqual([{ url: 'https://example.invalid/zeppelin' }]);
    } finally {
      first.child.kill('SIGKILL');
      second.child.kill('SIGTERM');
      await Promise.all([first.exited, second.exited]);
      await store.close();
      renderer.closeAllConnections();
      await new Promise((resolve) => renderer.close(resolve));
      await own.drop();
    }
  }, 90_000);
});
