// Two Quire processes on one database, as a user scaling out would run them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { callServer, runCli, startServerProcess, type ServerProcess } from '../helpers/process.ts';

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

describe('two processes on one database', () => {
  it('accept concurrent writes through both, losing none and ordering every one', async () => {
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Shared', '--email', 'shared@quire.test', '--name', 'S', '--json'], database.env);
    const { token, organization } = JSON.parse(boot.stdout);
    const creates = Array.from({ length: 40 }, (_, i) =>
      callServer(servers[i % 2], 'POST', `/v1/orgs/${organization.id}/spaces`, token, { title: `Space ${i}` }),
    );
    const results = await Promise.all(creates);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const listed = await callServer(servers[0], 'GET', `/v1/orgs/${organization.id}/spaces?limit=100`, token);
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
      callServer(servers[0], 'PATCH', path(second.user.id), first.token, { role: 'read' }),
      callServer(servers[1], 'PATCH', path(first.user.id), second.token, { role: 'read' }),
    ]);
    // Whichever commits second finds itself demoted (403) or the other the last admin (409).
    const statuses = [a.status, b.status];
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.find((status) => status !== 200)).toBeOneOf([403, 409]);
    const members = await callServer(servers[0], 'GET', `/v1/orgs/${first.organization.id}/members?role=admin`, a.status === 200 ? first.token : second.token);
    expect(members.body.count).toBe(1);
  });

  it('number change requests gap-free and lose no merge when both processes write at once', async () => {
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Writers', '--email', 'writers@quire.test', '--name', 'W', '--json'], database.env);
    const { token, organization } = JSON.parse(boot.stdout);
    const space = (await callServer(servers[0], 'POST', `/v1/orgs/${organization.id}/spaces`, token, { title: 'Shared' })).body;
    const base = `/v1/spaces/${space.id}/change-requests`;
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => callServer(servers[i % 2], 'POST', base, token, {})));
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    expect(created.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const writers = created.slice(0, 6).map((r) => r.body.id as string);
    for (const [index, id] of writers.entries()) {
      const edited = await callServer(servers[index % 2], 'POST', `${base}/${id}/content`, token, {
        changes: [{ operation: 'insert_page', document: `# Page ${index}` }],
      });
      expect(edited.status).toBe(200);
    }
    const merges = await Promise.all(writers.map((id, index) => callServer(servers[index % 2], 'POST', `${base}/${id}/merge`, token)));
    expect(merges.map((r) => r.body.result)).toEqual(writers.map(() => 'merge'));
    const pages = await callServer(servers[1], 'GET', `/v1/spaces/${space.id}/content/pages`, token);
    expect(pages.body.pages.map((p: any) => p.title).sort()).toEqual(writers.map((_, index) => `Page ${index}`).sort());
  });

  it('keep every acknowledged change request, merge, comment and move, and every counter equal to a fresh count, under a mixed load through both', async () => {
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Mixed', '--email', 'mixed@quire.test', '--name', 'M', '--json'], database.env);
    const { token, organization } = JSON.parse(boot.stdout);
    const orgPath = `/v1/orgs/${organization.id}`;
    const spaces: string[] = [];
    for (const title of ['North', 'South', 'East']) spaces.push((await callServer(servers[0], 'POST', `${orgPath}/spaces`, token, { title })).body.id);
    const collections: string[] = [];
    for (const title of ['Left', 'Right']) collections.push((await callServer(servers[0], 'POST', `${orgPath}/collections`, token, { title })).body.id);

    // What the load was told 2xx for; each worker acts in sequence, so its own records are exact.
    const changeRequests = new Map<string, { spaceId: string; number: number; pages: string[]; merged: boolean; status: 'open' | 'draft'; comments: number }>();
    const comments = new Map<string, { spaceId: string; resolved: boolean; replies: string[]; deleted: boolean }>();
    const lastParent = new Map<string, string | null>();
    const refused: string[] = [];
    let acknowledged = 0;
    let busy = 0;

    const worker = async (workerIndex: number, until: number) => {
      let step = 0;
      const mine = { openChangeRequests: [] as string[], comments: [] as string[] };
      const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
      const send = async (method: string, path: string, body?: unknown) => {
        const response = await callServer(servers[(workerIndex + step++) % 2], method, path, token, body);
        if (response.status === 503) busy++;
        else if (response.status >= 300) refused.push(`${method} ${path} → ${response.status} ${JSON.stringify(response.body)}`);
        else acknowledged++;
        return response;
      };
      while (Date.now() < until) {
        const roll = Math.random();
        if (roll < 0.2 || mine.openChangeRequests.length === 0) {
          const spaceId = pick(spaces);
          const created = await send('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `w${workerIndex}` });
          if (created.status === 201) {
            changeRequests.set(created.body.id, { spaceId, number: created.body.number, pages: [], merged: false, status: 'open', comments: 0 });
            mine.openChangeRequests.push(created.body.id);
          }
        } else if (roll < 0.45) {
          const id = pick(mine.openChangeRequests);
          const record = changeRequests.get(id)!;
          const title = `Page ${workerIndex}-${step}`;
          const edited = await send('POST', `/v1/spaces/${record.spaceId}/change-requests/${id}/content`, {
            changes: [{ operation: 'insert_page', document: `# ${title}\n\nWritten under load.` }],
          });
          if (edited.status === 200) record.pages.push(title);
        } else if (roll < 0.55) {
          const id = mine.openChangeRequests.find((candidate) => changeRequests.get(candidate)!.pages.length > 0 && changeRequests.get(candidate)!.status === 'open');
          if (!id) continue;
          const record = changeRequests.get(id)!;
          const merged = await send('POST', `/v1/spaces/${record.spaceId}/change-requests/${id}/merge`);
          if (merged.status === 200) {
            expect(merged.body.result).toBe('merge');
            record.merged = true;
            mine.openChangeRequests.splice(mine.openChangeRequests.indexOf(id), 1);
          }
        } else if (roll < 0.58) {
          const id = pick(mine.openChangeRequests);
          await send('POST', `/v1/spaces/${changeRequests.get(id)!.spaceId}/change-requests/${id}/update`);
        } else if (roll < 0.61) {
          const id = pick(mine.openChangeRequests);
          const record = changeRequests.get(id)!;
          const status = record.status === 'open' ? 'draft' : 'open';
          const patched = await send('PATCH', `/v1/spaces/${record.spaceId}/change-requests/${id}`, { status });
          if (patched.status === 200) record.status = status;
        } else if (roll < 0.74 || mine.comments.length === 0) {
          const spaceId = pick(spaces);
          const posted = await send('POST', `/v1/spaces/${spaceId}/comments`, { body: { markdown: `From worker ${workerIndex}` } });
          if (posted.status === 200) {
            comments.set(posted.body.id, { spaceId, resolved: false, replies: [], deleted: false });
            mine.comments.push(posted.body.id);
          }
        } else if (roll < 0.83) {
          const id = pick(mine.comments);
          const record = comments.get(id)!;
          const reply = await send('POST', `/v1/spaces/${record.spaceId}/comments/${id}/replies`, { body: { markdown: 'Agreed' } });
          if (reply.status === 200) record.replies.push(reply.body.id);
        } else if (roll < 0.88) {
          const id = pick(mine.comments);
          const record = comments.get(id)!;
          const resolved = await send('PUT', `/v1/spaces/${record.spaceId}/comments/${id}`, { resolved: !record.resolved });
          if (resolved.status === 200) record.resolved = !record.resolved;
        } else if (roll < 0.9) {
          const id = pick(mine.comments);
          const record = comments.get(id)!;
          // A reply goes as often as a comment with its replies.
          const reply = record.replies.length > 0 && Math.random() < 0.5 ? record.replies[0] : undefined;
          const path = reply ? `/v1/spaces/${record.spaceId}/comments/${id}/replies/${reply}` : `/v1/spaces/${record.spaceId}/comments/${id}`;
          const deleted = await send('DELETE', path);
          if (deleted.status === 204 && reply) record.replies.shift();
          if (deleted.status === 204 && !reply) {
            record.deleted = true;
            mine.comments.splice(mine.comments.indexOf(id), 1);
          }
        } else if (roll < 0.97) {
          const id = pick(mine.openChangeRequests);
          const record = changeRequests.get(id)!;
          const posted = await send('POST', `/v1/spaces/${record.spaceId}/change-requests/${id}/comments`, { body: { markdown: 'Review' } });
          if (posted.status === 200) record.comments++;
        } else if (workerIndex < spaces.length) {
          // Only worker i moves space i, so the last move it was answered for is the space's place.
          const parent = pick([...collections, null]);
          const moved = await send('POST', `/v1/spaces/${spaces[workerIndex]}/move`, { parent });
          if (moved.status === 200) lastParent.set(spaces[workerIndex], parent);
        }
      }
    };
    const until = Date.now() + 6_000;
    await Promise.all(Array.from({ length: 8 }, (_, index) => worker(index, until)));
    expect(refused).toEqual([]);
    expect(acknowledged).toBeGreaterThan(100);
    // A 503 changed nothing and may be retried; it should stay rare.
    expect(busy).toBeLessThan(acknowledged / 20);

    const walk = async (path: string) => {
      const items: any[] = [];
      let page: string | undefined;
      do {
        const separator = path.includes('?') ? '&' : '?';
        const response = await callServer(servers[1], 'GET', `${path}${separator}limit=100${page ? `&page=${page}` : ''}`, token);
        expect(response.status).toBe(200);
        items.push(...response.body.items);
        page = response.body.next?.page;
      } while (page);
      return items;
    };
    for (const spaceId of spaces) {
      // The load leaves change requests open or merged; the list shows one status at a time.
      const listed = [
        ...(await walk(`/v1/spaces/${spaceId}/change-requests?status=open`)),
        ...(await walk(`/v1/spaces/${spaceId}/change-requests?status=draft`)),
        ...(await walk(`/v1/spaces/${spaceId}/change-requests?status=merged`)),
      ];
      const numbers = listed.map((changeRequest) => changeRequest.number).sort((a, b) => a - b);
      expect(numbers, 'change-request numbers are gap-free').toEqual(numbers.map((_, index) => index + 1));
      const ours = [...changeRequests].filter(([, record]) => record.spaceId === spaceId);
      for (const [id, record] of ours) {
        const found = listed.find((changeRequest) => changeRequest.id === id);
        expect(found?.number, `change request ${id}`).toBe(record.number);
        expect(found?.status).toBe(record.merged ? 'merged' : record.status);
        expect(found?.comments).toBe(record.comments);
      }
      const pages = (await callServer(servers[0], 'GET', `/v1/spaces/${spaceId}/content/pages`, token)).body.pages.map((page: any) => page.title);
      const mergedPages = ours.filter(([, record]) => record.merged).flatMap(([, record]) => record.pages);
      expect(pages.sort(), 'the space holds exactly the pages of its merged change requests').toEqual(mergedPages.sort());

      const space = (await callServer(servers[0], 'GET', `/v1/spaces/${spaceId}`, token)).body;
      const openComments = await walk(`/v1/spaces/${spaceId}/comments?status=open`);
      expect(space.changeRequests).toBe(listed.length);
      expect(space.changeRequestsOpen).toBe(listed.filter((changeRequest) => changeRequest.status === 'open').length);
      expect(space.changeRequestsDraft).toBe(listed.filter((changeRequest) => changeRequest.status === 'draft').length);
      expect(space.comments).toBe(openComments.length);
      if (lastParent.has(spaceId)) expect(space.parent ?? null).toBe(lastParent.get(spaceId));
    }
    for (const [id, record] of comments) {
      const comment = await callServer(servers[0], 'GET', `/v1/spaces/${record.spaceId}/comments/${id}`, token);
      if (record.deleted) {
        expect(comment.status, `deleted comment ${id}`).toBe(404);
        continue;
      }
      expect(comment.status, `comment ${id}`).toBe(200);
      expect(comment.body.status).toBe(record.resolved ? 'resolved' : 'open');
      expect(comment.body.replies).toBe(record.replies.length);
      const replies = await walk(`/v1/spaces/${record.spaceId}/comments/${id}/replies`);
      expect(replies.map((reply) => reply.id).sort()).toEqual([...record.replies].sort());
    }

    // Every stored counter of every row against a count of what it counts.
    const handle = await database.open();
    try {
      const open = 'cm.parent_id is null and cm.resolved_at is null';
      const drift = await sql<{ what: string; id: string }>`
        select 'space' as what, s.id from spaces s where
          s.change_requests_total <> (select count(*) from change_requests cr where cr.space_id = s.id) or
          s.change_requests_open <> (select count(*) from change_requests cr where cr.space_id = s.id and cr.status = 'open') or
          s.change_requests_draft <> (select count(*) from change_requests cr where cr.space_id = s.id and cr.status = 'draft') or
          s.comments_open <> (select count(*) from comments cm where cm.space_id = s.id and cm.change_request_id is null and ${sql.raw(open)})
        union all
        select 'change request', cr.id from change_requests cr
          where cr.comments_open <> (select count(*) from comments cm where cm.change_request_id = cr.id and ${sql.raw(open)})
        union all
        select 'comment', c.id from comments c where c.reply_count <> (select count(*) from comments r where r.parent_id = c.id)`.execute(handle.db);
      expect(drift.rows).toEqual([]);
    } finally {
      await handle.close();
    }
  }, 60_000);
});

