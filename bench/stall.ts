// Does heavy work stall everyone else? One `quire serve` process; while each heavy
// operation runs, GET /healthz is probed every 10 ms (each probe waits for its answer)
// and the worst wait is the figure: target under 100 ms. The operations: a PDF of a
// change request holding about 9.5 MB of markdown (near the 10 MB limit; one of 20 MB
// is refused up front), merging 5 pages of about 950 KB each (three-way, the space
// having moved), and `quire reindex` beside the server with writes going on.
import { apiCaller, runCli, startServerProcess, stop, summarize, type BenchDatabase } from './support.ts';

export interface StallResult {
  operation: string;
  /** How long the operation took, in seconds. */
  seconds: number;
  /** The longest a /healthz probe waited while it ran, in milliseconds. */
  worstWaitMs: number;
  /** The longest an authenticated read (GET /v1/orgs/{id}, which reads the database) waited meanwhile. */
  worstReadMs: number;
  /** The 99th percentile of the /healthz waits: whether the worst is one outlier or the usual. */
  p99WaitMs: number;
  probes: number;
  /** What the operation itself answered (status, size, errors). */
  outcome: string;
}

const PROBE_EVERY_MS = 10;
const LARGE_PAGE_BYTES = 950_000;

/** A page of realistic markdown (headings, paragraphs, lists, code) of about `bytes`, different per seed. */
function largePage(seed: number, bytes: number): string {
  const parts: string[] = [`# Reference ${seed}\n`];
  let size = 0;
  for (let section = 0; size < bytes; section++) {
    const block =
      `## Section ${seed}.${section}\n\nThe service ${seed} answers request ${section} with a record of its state, ` +
      `and every field of that record is described below in words a reader can follow.\n\n` +
      `- item one of ${section}\n- item two of ${section}\n  - nested ${section}\n\n` +
      '```js\n' + `const answer${section} = await client.fetch('/v1/items/${section}');\nconsole.log(answer${section});\n` + '```\n\n';
    parts.push(block);
    size += block.length;
  }
  return parts.join('');
}

interface Probe {
  url: string;
  headers?: Record<string, string>;
}

async function probeWhile<T>(
  health: Probe,
  read: Probe,
  work: () => Promise<T>,
): Promise<{ result: T; worstWaitMs: number; worstReadMs: number; p99WaitMs: number; probes: number; seconds: number }> {
  let running = true;
  let probes = 0;
  const probeLoop = async (probe: Probe) => {
    const waits: number[] = [];
    while (running) {
      const started = performance.now();
      // A probe the server failed to answer (reset, refused) counts as the wait it caused.
      await fetch(probe.url, { headers: probe.headers }).then((response) => response.arrayBuffer(), () => undefined);
      waits.push(performance.now() - started);
      probes++;
      const rest = PROBE_EVERY_MS - (performance.now() - started);
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    return summarize(waits);
  };
  const probing = Promise.all([probeLoop(health), probeLoop(read)]);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  const [healthWaits, readWaits] = await probing;
  return { result, worstWaitMs: healthWaits.max, worstReadMs: readWaits.max, p99WaitMs: healthWaits.p99, probes, seconds };
}

export async function benchStall(database: BenchDatabase): Promise<StallResult[]> {
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Stall', '--email', 'stall@bench.test', '--name', 'S', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  const server = await startServerProcess({ ...database.env, QUIRE_RATE_LIMIT: '0', LOG_LEVEL: 'warn' });
  const call = apiCaller(server, token);
  const results: StallResult[] = [];
  const health = { url: `${server.baseUrl}/healthz` };
  const read = { url: `${server.baseUrl}/v1/orgs/${organization.id}`, headers: { authorization: `Bearer ${token}` } };
  try {
    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Stall' });
    const base = `/v1/spaces/${space.id}`;
    const changeRequest = async () => (await call('POST', `${base}/change-requests`, {})).id as string;
    const edit = (id: string, changes: unknown[]) => call('POST', `${base}/change-requests/${id}/content`, { changes });

    // The PDF of a change request of 10 large pages (about 9.5 MB of markdown).
    const big = await changeRequest();
    for (let page = 0; page < 10; page++) await edit(big, [{ operation: 'insert_page', document: largePage(page, LARGE_PAGE_BYTES) }]);
    const { url } = await call('GET', `${base}/change-requests/${big}/pdf`);
    const pdf = await probeWhile(health, read, async () => {
      try {
        const response = await fetch(url);
        const bytes = (await response.arrayBuffer()).byteLength;
        return `${response.status}, ${(bytes / 1e6).toFixed(1)} MB`;
      } catch (error) {
        return `failed: ${(error as Error).message}, server said: ${server.output().slice(-300)}`;
      }
    });
    results.push({ operation: 'PDF of ~9.5 MB of markdown', ...pdf, outcome: pdf.result });
    const huge = await changeRequest();
    for (let page = 0; page < 21; page++) await edit(huge, [{ operation: 'insert_page', document: largePage(page, LARGE_PAGE_BYTES) }]);
    const refusal = await probeWhile(health, read, async () => {
      const response = await fetch(`${server.baseUrl}${base}/change-requests/${huge}/pdf`, { headers: { authorization: `Bearer ${token}` } });
      return `${response.status}: ${((await response.json()) as { error: { message: string } }).error.message}`;
    });
    results.push({ operation: 'PDF of ~20 MB of markdown', ...refusal, outcome: refusal.result });

    // Five large pages on the space, edited on both sides, then merged three-way.
    const seed = await changeRequest();
    await edit(seed, Array.from({ length: 5 }, (_, page) => ({ operation: 'insert_page', ref: `p${page}`, document: largePage(100 + page, LARGE_PAGE_BYTES) })));
    await call('POST', `${base}/change-requests/${seed}/merge`);
    const pages: Array<{ id: string; title: string }> = (await call('GET', `${base}/content/pages`)).pages.filter((page: { title: string }) => page.title.startsWith('Reference 10'));
    const ours = await changeRequest();
    const theirs = await changeRequest();
    for (const page of pages) {
      const markdown: string = (await call('GET', `${base}/content/page/${page.id}?format=markdown`)).markdown;
      const lines = markdown.split('\n');
      const head = [...lines];
      head[5] = `${head[5]} (ours)`;
      const tail = [...lines];
      tail[lines.length - 5] = `${tail[lines.length - 5]} (theirs)`;
      await edit(ours, [{ operation: 'update_page', page: page.id, document: head.join('\n') }]);
      await edit(theirs, [{ operation: 'update_page', page: page.id, document: tail.join('\n') }]);
    }
    await call('POST', `${base}/change-requests/${theirs}/merge`);
    const merge = await probeWhile(health, read, () => call('POST', `${base}/change-requests/${ours}/merge`));
    results.push({ operation: 'three-way merge of 5 × 950 KB pages', ...merge, outcome: merge.result.result });

    // `quire reindex` beside the server, while a writer posts comments.
    let writes = 0;
    let refused = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const response = await fetch(`${server.baseUrl}${base}/comments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ body: { markdown: 'Still here' } }),
        });
        await response.arrayBuffer();
        if (response.status === 200) writes++;
        else refused++;
      }
    })();
    const reindex = await probeWhile(health, read, () => runCli(['reindex', '--json'], database.env));
    writing = false;
    await writer;
    results.push({
      operation: '`quire reindex` beside the server',
      ...reindex,
      outcome: `exit ${reindex.result.code}, ${writes} comments posted meanwhile, ${refused} refused`,
    });
  } finally {
    await stop(server.child);
  }
  return results;
}
