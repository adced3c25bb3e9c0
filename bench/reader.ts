// The built-in reader on a 1,000-page site: a cached page under load beside a bare
// node:http server answering the same bytes in the same run (target: ≥ 30% of its
// requests per second), and pages of ~100 KB of mixed GitBook blocks rendered the
// first time, one request each (target: under 50 ms), with the time to first byte:
// cold (their documents converted for the reader) and after a merge on the live site
// (their documents made ahead).
import { readdirSync, readFileSync } from 'node:fs';
import { apiCaller, load, runCli, startBareServer, startServerProcess, stop, summarize, type BenchDatabase } from './support.ts';

export interface ReaderResult {
  bare: number;
  cached: number;
  ratio: number;
  cachedP99: number;
  errors: number;
  pageBytes: number;
  /** First renders of the large pages, their documents converted for the reader (a space published after its merge, or a restart). */
  cold: FirstRenders;
  /** First renders of the large pages after a merge on the published site: their documents made ahead. */
  prepared: FirstRenders & { ready: number };
}

export interface FirstRenders {
  p50: number;
  max: number;
  ttfbP50: number;
  bytes: number;
  count: number;
}

const SMALL_PAGES = 1000;
const LARGE_PAGES = 9;

/** About 100 KB of the test corpus's GitBook blocks. */
function largePage(seed: number): string {
  const folder = new URL('../test/fixtures/gitbook/', import.meta.url);
  const corpus = readdirSync(folder).filter((name) => name.endsWith('.md')).map((name) => readFileSync(new URL(name, folder), 'utf8').replace(/^# .*\n/, ''));
  const parts = [`# Large ${seed}\n`];
  for (let size = 0, index = 0; size < 100_000; index++) {
    // Numbered by page and part, so that no two pages hold the same content (documents are kept by content).
    parts.push(corpus[(index + seed) % corpus.length].replaceAll('## ', `## ${seed}.${index} `));
    size += corpus[(index + seed) % corpus.length].length;
  }
  return parts.join('\n\n');
}

export async function benchReader(database: BenchDatabase, seconds: number): Promise<ReaderResult> {
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Reader', '--email', 'reader@bench.test', '--name', 'R', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0' });
  const call = apiCaller(server, token);
  try {
    const space = await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' });
    const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
    for (let start = 0; start < SMALL_PAGES; start += 50) {
      const changes = Array.from({ length: 50 }, (_, index) => ({
        operation: 'insert_page',
        document: `# Page ${start + index}\n\nThe text of page ${start + index}, with **marks** and a [link](https://example.com).\n\n## Details\n\n- one\n- two`,
      }));
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes });
    }
    for (let seed = 0; seed < LARGE_PAGES; seed++) {
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: largePage(seed) }] });
    }
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const sites = `/v1/orgs/${organization.id}/sites`;
    const site = await call('POST', sites, { title: 'Bench docs' });
    await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id });
    await call('PATCH', `${sites}/${site.id}`, { visibility: 'public' });
    const published = await call('POST', `${sites}/${site.id}/publish`);
    const siteUrl = `${server.baseUrl}${new URL(published.urls.published).pathname}`;

    /** Each large page read once, fresh: its time to first byte and to the last, and how it was made (x-quire-cache). */
    const firstRenders = async () => {
      const total: number[] = [];
      const ttfb: number[] = [];
      const made: string[] = [];
      let bytes = 0;
      for (let seed = 0; seed < LARGE_PAGES; seed++) {
        const started = performance.now();
        const response = await fetch(`${siteUrl}/large-${seed}`);
        ttfb.push(performance.now() - started);
        bytes = (await response.arrayBuffer()).byteLength;
        total.push(performance.now() - started);
        if (response.status !== 200) throw new Error(`large-${seed}: ${response.status}`);
        made.push(response.headers.get('x-quire-cache') ?? '');
      }
      const { p50, max } = summarize(total);
      return { p50, max, ttfbP50: summarize(ttfb).p50, bytes, count: total.length, made };
    };
    const cold = await firstRenders();
    // A merge on the live site: the changed pages' documents are made ahead, in the background.
    const update = await call('POST', `/v1/spaces/${space.id}/change-requests`, {});
    const pages = (await call('GET', `/v1/spaces/${space.id}/content/pages`)).pages as Array<{ id: string; title: string }>;
    const changes = pages.filter((page) => page.title.startsWith('Large')).map((page, seed) => ({ operation: 'update_page', page: page.id, document: `${largePage(seed).replace(/^# .*\n/, '')}\n\nRevised.` }));
    await call('POST', `/v1/spaces/${space.id}/change-requests/${update.id}/content`, { changes });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${update.id}/merge`);
    // Making them takes about what the cold renders took, after the small pages' documents; this is ample.
    await new Promise((resolve) => setTimeout(resolve, 5_000 + 3 * cold.max * LARGE_PAGES));
    const prepared = await firstRenders();

    const cachedUrl = `${siteUrl}/page-500`;
    const sample = await (await fetch(cachedUrl)).text();
    const bare = await startBareServer(sample);
    try {
      await load(bare.url, {}, 2);
      const bareResult = await load(bare.url, {}, seconds);
      await load(cachedUrl, {}, 2);
      const cached = await load(cachedUrl, {}, seconds);
      return {
        bare: bareResult.requestsPerSecond,
        cached: cached.requestsPerSecond,
        ratio: cached.requestsPerSecond / bareResult.requestsPerSecond,
        cachedP99: cached.p99,
        errors: cached.errors + cached.non2xx,
        pageBytes: Buffer.byteLength(sample),
        cold,
        prepared: { ...prepared, ready: prepared.made.filter((how) => how === 'document').length },
      };
    } finally {
      await stop(bare.child);
    }
  } finally {
    await stop(server.child);
  }
}
