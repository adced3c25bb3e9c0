// Background processing survives the process: Quire is killed while an OpenAPI spec
// is being fetched, and the restarted Quire finishes the job from the database.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { runCli, startServerProcess, waitFor } from '../helpers/process.ts';

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
});
