// From a merge to an integration's script receiving its space_content_updated: 200
// merges, one at a time, through a `quire serve` process, to an integration installed on
// the space whose script (in workerd) posts what it received to this process. Beside
// it in the same run, the merge's own answer time: the event's delay is what follows it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCaller, runCli, startServerProcess, stop, summarize, type BenchDatabase, type LatencySummary } from './support.ts';

export interface EventsResult {
  merges: number;
  /** From sending the merge to the script's report arriving. */
  event: LatencySummary;
  /** From sending the merge to its answer. */
  merge: LatencySummary;
}

const MERGES = 200;

export async function benchEvents(database: BenchDatabase): Promise<EventsResult> {
  const arrived = new Map<string, number>();
  let notify: (() => void) | undefined;
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      arrived.set(JSON.parse(body).revisionId, performance.now());
      notify?.();
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverHost = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Events', '--email', 'events@bench.test', '--name', 'E', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0', QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_INTEGRATION_HOSTS: receiverHost });
  const call = apiCaller(server, token);
  try {
    const script = `export default { async fetch(request) {
      const event = JSON.parse((await request.formData()).get('event'));
      if (event.type === 'space_content_updated') await fetch('http://${receiverHost}/', { method: 'POST', body: JSON.stringify({ revisionId: event.revisionId }) });
      return new Response('OK');
    } };`;
    await call('POST', '/v1/integrations/bench-events', { title: 'Bench events', description: 'Measures event delivery', scopes: ['space:content:read'], organization: organization.id, visibility: 'private', script });
    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Events' });
    const installation = await call('POST', '/v1/integrations/bench-events/installations', { organization: organization.id });
    await call('POST', `/v1/integrations/bench-events/installations/${installation.id}/spaces`, { space: space.id });
    const eventMs: number[] = [];
    const mergeMs: number[] = [];
    for (let merge = 0; merge < MERGES; merge++) {
      const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: `# Page ${merge}\n\nMerged ${merge}.` }] });
      const started = performance.now();
      const merged = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
      mergeMs.push(performance.now() - started);
      while (!arrived.has(merged.revision)) await new Promise<void>((resolve) => (notify = resolve));
      eventMs.push(arrived.get(merged.revision)! - started);
    }
    return { merges: MERGES, event: summarize(eventMs), merge: summarize(mergeMs) };
  } finally {
    await stop(server.child);
    await new Promise((resolve) => receiver.close(resolve));
  }
}
