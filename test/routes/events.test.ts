// What follows a change of a space's content runs from the outbox: each subscriber once,
// retried while it fails, with what went wrong recorded on its delivery. Seen here
// through GitBook's renderer's revalidation hook, served on 127.0.0.1.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDelivered, request, startTestApp, stopTestApp, type TestApp } from '../helpers/app.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';
import { jobHandlers } from '../../src/jobs/handlers.ts';
import { enqueueJob, runDueJobs } from '../../src/jobs/queue.ts';
import { DELIVER_EVENT_JOB, recordSitesUpdated, schedulePruning } from '../../src/services/events.ts';
import { DOCUMENT_CONVERSION } from '../../src/content/gitbook/conversion.ts';
import { followConversionChange, prepareSpaceDocuments } from '../../src/services/pageDocuments.ts';
import { buildOrganization } from '../helpers/factories.ts';

let renderer: Server;
let status = 200;
const calls: Array<{ path: string; body: string; signature: unknown }> = [];
let testApp: TestApp;

beforeAll(async () => {
  renderer = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      calls.push({ path: incoming.url!, body, signature: incoming.headers['x-gitbook-signature'] });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => renderer.listen(0, '127.0.0.1', resolve));
  testApp = await startTestApp({ QUIRE_RENDERER_URL: `http://127.0.0.1:${(renderer.address() as AddressInfo).port}/`, QUIRE_RENDERER_SECRET: 'renderer-secret' });
});

afterAll(async () => {
  await stopTestApp(testApp);
  await new Promise((resolve) => renderer.close(resolve));
});

const deliveryOf = (subscriber: string) =>
  testApp.database.db.selectFrom('event_deliveries').selectAll().where('subscriber', '=', subscriber).orderBy('updated_at', 'desc').executeTakeFirstOrThrow();

describe('what follows a change of content', () => {
  it("tells GitBook's renderer to revalidate the space and the sites showing it, signed with its secret, and retries a renderer that refused", async () => {
    const { space, site, call } = await publishSampleSite(testApp);
    await eventsDelivered(testApp);
    calls.length = 0;
    status = 503;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# News' }] });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');

    const failed = await waitForDelivery('renderer-cache', (row) => row.last_error !== null);
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, last_error: expect.stringContaining('answered 503 to a revalidation') });
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe('/~gitbook/revalidate');
    expect(JSON.parse(calls[0].body)).toEqual({ tags: [`space:${space.id}`, `site:${site.id}`] });
    expect(calls[0].signature).toBe(createHmac('sha256', 'renderer-secret').update(calls[0].body).digest('hex'));

    // Retried after its backoff (2 s after the first attempt), it goes through.
    await waitForRetryQueued('renderer-cache');
    status = 200;
    testApp.clock.advance(5_000);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    expect(await deliveryOf('renderer-cache')).toMatchObject({ state: 'done', attempts: 2, last_error: null });
    expect(calls).toHaveLength(2);
  });

  it('does a delivery once: its job run again after it was done does nothing', async () => {
    const done = await deliveryOf('renderer-cache');
    const before = calls.length;
    await enqueueJob(testApp.database.db, testApp.clock, DELIVER_EVENT_JOB, { eventId: done.event_id, subscriber: 'renderer-cache' });
    await runDueJobs(testApp.app.ctx, jobHandlers);
    expect(calls).toHaveLength(before);
    expect(await deliveryOf('renderer-cache')).toMatchObject({ state: 'done', attempts: 2 });
  });

  it("tells GitBook's renderer to revalidate a site whose settings or structure changed, and nothing for a read, a site search or a refused write", async () => {
    const { site, sites, call, org } = await publishSampleSite(testApp);
    await eventsDelivered(testApp);
    calls.length = 0;
    const siteEvents = () => testApp.database.db.selectFrom('events').select('id').where('type', '=', 'site_updated').execute();
    const eventsBefore = (await siteEvents()).length;
    expect((await call('PATCH', `${sites}/${site.id}`, { title: 'Acme Handbook' })).status).toBe(200);
    await eventsDelivered(testApp);
    expect(calls.map((made) => JSON.parse(made.body))).toEqual([{ tags: [`site:${site.id}`] }]);
    await call('GET', `${sites}/${site.id}/published`);
    // A search is a POST the renderer makes for every reader who searches: revalidating on it would empty its cache each time.
    expect((await call('POST', `${sites}/${site.id}/search`, { query: 'welcome' })).status).toBe(200);
    expect((await call('PATCH', `${sites}/${site.id}`, { title: 'x' })).status).toBe(400);
    const outsider = await buildOrganization(testApp, 'Outsiders');
    const refused = await request(testApp.app, 'PATCH', `/v1/orgs/${org.organizationId}/sites/${site.id}`, { token: outsider.admin.token, body: { title: 'Taken over' } });
    expect(refused.status).toBe(404);
    await eventsDelivered(testApp);
    expect(calls).toHaveLength(1);
    // A refused write's announcement, written in its transaction, went with it.
    expect(await siteEvents()).toHaveLength(eventsBefore + 1);
    // No integration hears of it: GitBook has no such event.
    const event = await testApp.database.db.selectFrom('events').select('id').where('type', '=', 'site_updated').executeTakeFirstOrThrow();
    const deliveries = await testApp.database.db.selectFrom('event_deliveries').select('subscriber').where('event_id', '=', event.id).execute();
    expect(deliveries.map((delivery) => delivery.subscriber)).toEqual(['renderer-cache']);
  });

  it("tells GitBook's renderer to revalidate the sites showing a space when it is renamed, and when it is deleted, which takes it off them", async () => {
    const { space, site, call } = await publishSampleSite(testApp);
    await eventsDelivered(testApp);
    calls.length = 0;
    const told = async () => {
      await eventsDelivered(testApp);
      return calls.splice(0).map((made) => JSON.parse(made.body));
    };
    // The site's structure names the space by its title.
    expect((await call('PATCH', `/v1/spaces/${space.id}`, { title: 'The Handbook' })).status).toBe(200);
    expect(await told()).toEqual([{ tags: [`site:${site.id}`] }]);
    expect((await call('PATCH', `/v1/spaces/${space.id}`, { title: 'The Handbook', editMode: 'locked' })).status).toBe(200);
    expect(await told()).toEqual([]);
    // Deleted, it is off the site: the renderer must stop serving it from its cache.
    expect((await call('DELETE', `/v1/spaces/${space.id}`)).status).toBe(204);
    expect(await told()).toEqual([{ tags: [`site:${site.id}`] }]);
  });

  it("announces a site's change even when the process ends between the change and its announcement: the announcement is written in the change's transaction, and a worker delivers it", async () => {
    const { site, org } = await publishSampleSite(testApp);
    await eventsDelivered(testApp);
    calls.length = 0;
    // What a site's change commits with its announcement (changeSite); this process then ends before starting its delivery.
    await testApp.database.db.transaction().execute((trx) => recordSitesUpdated(testApp.app.ctx, trx, org.organizationId, [site.id]));
    expect(calls).toHaveLength(0);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    expect(calls.map((made) => JSON.parse(made.body))).toEqual([{ tags: [`site:${site.id}`] }]);
  });

  it("follows an upgrade that reads markdown otherwise, once, at its first start: the documents of the spaces sites show are made again, and GitBook's renderer revalidates every published site", async () => {
    const { site, sites, space, call } = await publishSampleSite(testApp);
    const unpublished = (await call('POST', sites, { title: 'Draft' })).body;
    await eventsDelivered(testApp);
    const db = testApp.database.db;
    const documentIds: string[] = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages.flatMap((page: any) => (page.documentId ? [page.documentId] : []));
    expect(documentIds.length).toBeGreaterThan(0);
    // What an earlier version of Quire recorded when it started, and the documents it made.
    await db.insertInto('settings').values({ key: 'document-conversion', value: String(DOCUMENT_CONVERSION - 1) })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: String(DOCUMENT_CONVERSION - 1) })).execute();
    await prepareSpaceDocuments(testApp.app.ctx, space.id);
    await db.updateTable('page_documents').set({ conversion: DOCUMENT_CONVERSION - 1 }).execute();
    calls.length = 0;
    await followConversionChange(testApp.app.ctx);
    await eventsDelivered(testApp);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    const told = calls.splice(0).map((made) => JSON.parse(made.body).tags).flat();
    expect(told).toContain(`site:${site.id}`);
    expect(told).not.toContain(`site:${unpublished.id}`);
    const made = await db.selectFrom('page_documents').select('conversion').where('hash', 'in', documentIds).execute();
    expect(made.length).toBeGreaterThan(0);
    expect(made.map((row) => row.conversion)).toEqual(made.map(() => DOCUMENT_CONVERSION));
    // The next start, and another process starting beside it, find it followed.
    await followConversionChange(testApp.app.ctx);
    await eventsDelivered(testApp);
    expect(calls).toHaveLength(0);
  });

  it('indexes a duplicated space for search as its own content change', async () => {
    const { space, call, org } = await publishSampleSite(testApp);
    const copy = (await call('POST', `/v1/spaces/${space.id}/duplicate`)).body;
    const found = await request(testApp.app, 'GET', `/v1/spaces/${copy.id}/search`, { token: org.admin.token, query: { query: 'welcome' } });
    expect(found.body.items.map((page: any) => page.title)).toEqual(['Start here']);
    const event = await testApp.database.db.selectFrom('events').selectAll().where('space_id', '=', copy.id).executeTakeFirstOrThrow();
    expect(JSON.parse(event.payload)).toMatchObject({ revisionId: (await call('GET', `/v1/spaces/${space.id}`)).body.revision, previousRevisionId: null, summary: 'Duplicate of Handbook' });
  });
});

describe('the outbox over time', () => {
  it('forgets events after 30 days once their deliveries have all ended, keeps one still to deliver, and queues the next day', async () => {
    const db = testApp.database.db;
    const { space, call } = await publishSampleSite(testApp);
    await eventsDelivered(testApp);
    // One more change whose renderer delivery keeps failing: still to be delivered.
    status = 503;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Later' }] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    await waitForDelivery('renderer-cache', (row) => row.last_error !== null);
    const before = await db.selectFrom('events').select('id').execute();
    const pending = await db.selectFrom('event_deliveries').select('event_id').where('state', '=', 'pending').execute();
    expect(pending.length).toBeGreaterThan(0);

    testApp.clock.advance(31 * 24 * 60 * 60 * 1000);
    await schedulePruning(testApp.app.ctx);
    await db.updateTable('jobs').set({ run_at: '2000-01-01T00:00:00.000Z' }).where('kind', '=', 'deliver-event').execute();
    status = 503;
    await runDueJobs(testApp.app.ctx, jobHandlers);
    const after = await db.selectFrom('events').select('id').execute();
    expect(after.map((row) => row.id).sort()).toEqual([...new Set(pending.map((row) => row.event_id))].sort());
    expect(after.length).toBeLessThan(before.length);
    expect(await db.selectFrom('event_deliveries').select('event_id').where('event_id', 'not in', after.map((row) => row.id)).execute()).toEqual([]);
    const next = await db.selectFrom('jobs').select('run_at').where('kind', '=', 'prune-events').execute();
    expect(next).toHaveLength(1);
    expect(Date.parse(next[0].run_at)).toBeGreaterThan(testApp.clock.now().getTime() + 23 * 60 * 60 * 1000);
    status = 200;
  });
});

/** A failed delivery's job goes back to the queue just after the delivery records the failure: a run in between finds it still leased. */
async function waitForRetryQueued(subscriber: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const jobs = await testApp.database.db.selectFrom('jobs').selectAll().where('kind', '=', DELIVER_EVENT_JOB).execute();
    const retry = jobs.find((job) => JSON.parse(job.payload).subscriber === subscriber && job.last_error !== null && job.locked_until === null);
    if (retry) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the ${subscriber} delivery's retry was not queued`);
}

async function waitForDelivery(subscriber: string, ready: (row: Awaited<ReturnType<typeof deliveryOf>>) => boolean) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const row = await deliveryOf(subscriber).catch(() => undefined);
    if (row && ready(row)) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the ${subscriber} delivery did not get there`);
}
