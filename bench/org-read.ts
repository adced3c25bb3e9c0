// The hot reads with a real token: the organization, a space, its page list, a page as
// markdown and as a document; and the renderer's reads of the page list and a page's
// document with a site token. Each against a bare node:http server answering the same
// bytes on the same machine in the same run (autocannon, in this process). The issue's
// target on SQLite: the organization read at ≥ 50% of the bare server's requests per
// second (≥ 25% on PostgreSQL); the target it is measured by, below.
//
// Throughput alone depends on the load generator: autocannon shares the two cores,
// and against the bare server it is the generator, not the server, that runs out of
// CPU first. So each run also reads the server process's CPU time per request (from
// /proc), which does not depend on the client: bare CPU ÷ Quire CPU is the ratio the
// two servers' costs have, whatever else the machine is doing.
//
// A second baseline does the least an authenticated read can: a bare server that
// hashes the token and reads it with the organization or space in one query of the
// same database before answering the same bytes. Half of the first baseline's requests
// per second leaves a server about 10 µs of work a request on this machine (bench
// `bare-work`), about what the token's hash and that query cost; Quire at ≥ 50% of the
// second is the target, the ratio that measures Quire's own cost (docs/performance.md).
import { apiCaller, cpuMilliseconds, load, runCli, startBareServer, startServerProcess, stop, type BenchDatabase, type ServerProcess } from './support.ts';

export interface HotRead {
  name: string;
  bare: number;
  /** The bare server that reads the same database first. */
  bareDatabase: number;
  quire: number;
  ratio: number;
  /** Quire's requests per second against the bare server reading the same database's. */
  ratioToBareDatabase: number;
  p99: number;
  errors: number;
  /** Server CPU per request, microseconds. */
  bareCpuUs: number;
  bareDatabaseCpuUs: number;
  quireCpuUs: number;
}

/** Requests per second and the server's CPU per request over one load run. */
async function measure(server: { child: ServerProcess['child'] }, url: string, headers: Record<string, string>, seconds: number) {
  await load(url, headers, 2);
  const before = cpuMilliseconds(server.child.pid!);
  const result = await load(url, headers, seconds);
  const cpuMs = cpuMilliseconds(server.child.pid!) - before;
  return { ...result, cpuUs: (cpuMs * 1000) / (result.requestsPerSecond * seconds) };
}

export interface BareWorkResult {
  spinMicroseconds: number;
  requestsPerSecond: number;
  /** Against the bare server doing no work, in the same run. */
  ratio: number;
  cpuUs: number;
}

/** The bare server spending 0, 2, 5, 10 and 20 µs per request: the throughput each leaves, with the CPU it costs. */
export async function benchBareWork(seconds: number): Promise<BareWorkResult[]> {
  const body = JSON.stringify({ object: 'organization', title: 'x'.repeat(680) });
  const results: BareWorkResult[] = [];
  for (const spinMicroseconds of [0, 2, 5, 10, 20]) {
    const bare = await startBareServer(body, [], { spinMicroseconds });
    try {
      const result = await measure(bare, bare.url, {}, seconds);
      const ratio = results.length === 0 ? 1 : result.requestsPerSecond / results[0].requestsPerSecond;
      results.push({ spinMicroseconds, requestsPerSecond: result.requestsPerSecond, ratio, cpuUs: result.cpuUs });
    } finally {
      await stop(bare.child);
    }
  }
  return results;
}

/** The page used for the page reads: headings, a list, code, a table, a hint and links, about 2 KB. */
const PAGE = `# Install

Quire runs on **Node.js 20** and needs nothing else: SQLite is built in.

## Steps

1. Clone the repository.
2. Run \`npm ci\`.
3. Start it with \`npm start\`.

\`\`\`sh
npm ci && npm start
\`\`\`

| Variable | Meaning |
| --- | --- |
| PORT | Where to listen |
| DATABASE_URL | PostgreSQL instead of SQLite |

{% hint style="info" %}
A fresh data directory is made on the first start.
{% endhint %}

See [the configuration](https://example.com/configuration) for the rest.
`;

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Publishes the space on a public site and resolves its URL as GitBook's renderer does, for the site token it reads with. */
async function publishedSiteToken(server: ServerProcess, call: ReturnType<typeof apiCaller>, organizationId: string, spaceId: string): Promise<string> {
  const sites = `/v1/orgs/${organizationId}/sites`;
  const site = await call('POST', sites, { title: 'Handbook' });
  await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId });
  await call('PATCH', `${sites}/${site.id}`, { visibility: 'public' });
  const published = await call('POST', `${sites}/${site.id}/publish`);
  const resolved = await fetch(`${server.baseUrl}/v1/urls/published`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: published.urls.published }) });
  if (!resolved.ok) throw new Error(`POST /v1/urls/published: ${resolved.status} ${await resolved.text()}`);
  return (await resolved.json()).apiToken;
}

export async function benchHotReads(database: BenchDatabase, seconds: number, only?: string[]): Promise<HotRead[]> {
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Bench', '--email', 'bench@quire.test', '--name', 'Bench', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  // The limiter runs on every request, as in production, but never refuses the load generator.
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '1000000000' });
  try {
    const call = apiCaller(server, token);
    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' });
    const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
    // Twenty pages and an image for each, as a space of screenshots has.
    const pages = Array.from({ length: 20 }, (_, index) => ({ operation: 'insert_page', document: PAGE.replace('# Install', `# Install ${index}`) }));
    const images = { operation: 'insert_files', files: Array.from({ length: 20 }, (_, index) => ({ name: `screenshot-${index}.png`, base64: PNG })) };
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [...pages, images] });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const pageId = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages[0].id;
    const siteToken = await publishedSiteToken(server, call, organization.id, space.id);
    const reads: Array<[string, string, string]> = [
      ['organization', `/v1/orgs/${organization.id}`, token],
      ['space', `/v1/spaces/${space.id}`, token],
      ['page list (20 pages)', `/v1/spaces/${space.id}/content/pages`, token],
      ['page as markdown', `/v1/spaces/${space.id}/content/page/${pageId}?format=markdown`, token],
      ['page as document', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`, token],
      // GitBook's renderer, reading the published site with its site token.
      ['renderer: page list', `/v1/spaces/${space.id}/content/pages`, siteToken],
      ['renderer: page document', `/v1/spaces/${space.id}/content/page/${pageId}/document`, siteToken],
    ];
    const results: HotRead[] = [];
    for (const [name, path, bearer] of reads) {
      if (only && !only.some((word) => name.startsWith(word))) continue;
      const headers = { authorization: `Bearer ${bearer}` };
      const url = `${server.baseUrl}${path}`;
      const sample = await (await fetch(url, { headers })).text();
      const bare = await startBareServer(sample);
      const bareDatabase = await startBareServer(sample, [], { database });
      try {
        const bareResult = await measure(bare, bare.url, {}, seconds);
        const bareDatabaseResult = await measure(bareDatabase, `${bareDatabase.url}${path}`, headers, seconds);
        if (bareDatabaseResult.non2xx + bareDatabaseResult.errors > 0) throw new Error(`the bare server reading the database failed ${path}`);
        const quireResult = await measure(server, url, headers, seconds);
        results.push({
          name,
          bare: bareResult.requestsPerSecond,
          bareDatabase: bareDatabaseResult.requestsPerSecond,
          quire: quireResult.requestsPerSecond,
          ratio: quireResult.requestsPerSecond / bareResult.requestsPerSecond,
          ratioToBareDatabase: quireResult.requestsPerSecond / bareDatabaseResult.requestsPerSecond,
          p99: quireResult.p99,
          errors: quireResult.errors + quireResult.non2xx,
          bareCpuUs: bareResult.cpuUs,
          bareDatabaseCpuUs: bareDatabaseResult.cpuUs,
          quireCpuUs: quireResult.cpuUs,
        });
      } finally {
        await stop(bare.child);
        await stop(bareDatabase.child);
      }
    }
    return results;
  } finally {
    await stop(server.child);
  }
}
