// Two Quire processes on one database, as a user scaling out would run them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { runCli, startServerProcess, type ServerProcess } from '../helpers/process.ts';

let database: TestDatabase;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await runCli(['migrate'], database.env);
  servers = await Promise.all([startServerProcess(database.env), startServerProcess(database.env)]);
});

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await database.drop();
});

async function call(server: ServerProcess, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('two processes on one database', () => {
  it('accept concurrent writes through both, losing none and ordering every one', async () => {
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Shared', '--email', 'shared@quire.test', '--name', 'S', '--json'], database.env);
    const { token, organization } = JSON.parse(boot.stdout);
    const creates = Array.from({ length: 40 }, (_, i) =>
      call(servers[i % 2], 'POST', `/v1/orgs/${organization.id}/spaces`, token, { title: `Space ${i}` }),
    );
    const results = await Promise.all(creates);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const listed = await call(servers[0], 'GET', `/v1/orgs/${organization.id}/spaces?limit=100`, token);
    expect(listed.body.count).toBe(40);
    expect(new Set(listed.body.items.map((s: any) => s.title)).size).toBe(40);
  });

  it('keep one administrator when two administrators demote each other at once', async () => {
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Duel', '--email', 'first@quire.test', '--name', 'F', '--json'], database.env);
    const first = JSON.parse(boot.stdout);
    const added = await runCli(
      ['admin', 'add-user', '--org', first.organization.id, '--email', 'second@quire.test', '--name', 'S', '--role', 'admin', '--json'],
      database.env,
    );
    const second = JSON.parse(added.stdout);
    const path = (userId: string) => `/v1/orgs/${first.organization.id}/members/${userId}`;
    const [a, b] = await Promise.all([
      call(servers[0], 'PATCH', path(second.user.id), first.token, { role: 'read' }),
      call(servers[1], 'PATCH', path(first.user.id), second.token, { role: 'read' }),
    ]);
    // Whichever commits second finds itself demoted (403) or the other the last admin (409).
    const statuses = [a.status, b.status];
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.find((status) => status !== 200)).toBeOneOf([403, 409]);
    const members = await call(servers[0], 'GET', `/v1/orgs/${first.organization.id}/members?role=admin`, a.status === 200 ? first.token : second.token);
    expect(members.body.count).toBe(1);
  });

  it('number change requests gap-free and lose no merge when both processes write at once', async () => {
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Writers', '--email', 'writers@quire.test', '--name', 'W', '--json'], database.env);
    const { token, organization } = JSON.parse(boot.stdout);
    const space = (await call(servers[0], 'POST', `/v1/orgs/${organization.id}/spaces`, token, { title: 'Shared' })).body;
    const base = `/v1/spaces/${space.id}/change-requests`;
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => call(servers[i % 2], 'POST', base, token, {})));
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    expect(created.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const writers = created.slice(0, 6).map((r) => r.body.id as string);
    for (const [index, id] of writers.entries()) {
      const edited = await call(servers[index % 2], 'POST', `${base}/${id}/content`, token, {
        changes: [{ operation: 'insert_page', document: `# Page ${index}` }],
      });
      expect(edited.status).toBe(200);
    }
    const merges = await Promise.all(writers.map((id, index) => call(servers[index % 2], 'POST', `${base}/${id}/merge`, token)));
    expect(merges.map((r) => r.body.result)).toEqual(writers.map(() => 'merge'));
    const pages = await call(servers[1], 'GET', `/v1/spaces/${space.id}/content/pages`, token);
    expect(pages.body.pages.map((p: any) => p.title).sort()).toEqual(writers.map((_, index) => `Page ${index}`).sort());
  });
});
