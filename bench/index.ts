// `npm run bench`: every benchmark, on SQLite and on PostgreSQL when reachable (the
// content library's own, once).
// BENCH_SECONDS sets the measured duration of each load (default 10); BENCH_ENGINES
// (sqlite,postgres) and BENCH_ONLY (a comma list of the names below) narrow the run;
// BENCH_LOAD_SECONDS sets the mixed load's duration (default 30); the mixed load runs
// once as fast as answers come, then paced at BENCH_LOAD_RATE requests/s (default: 50%
// and 75% of the rate the first run reached), then as fast as answers come with
// BENCH_LOAD_WORKERS server processes (default: one per core); BENCH_SQL_TIMING=1 adds
// the single process's time inside SQLite.
import { availableParallelism, cpus } from 'node:os';
import { benchApp } from './app.ts';
import { benchAppSpace } from './app-space.ts';
import { benchContent } from './content.ts';
import { benchConvert } from './convert.ts';
import { benchEditor } from './editor.ts';
import { benchEditorBrowser, GIVE_UP_MS, percentile } from './editor-browser.ts';
import { benchEvents } from './events.ts';
import { benchGitPush, benchGitSync, type PushPhases } from './git-sync.ts';
import { benchHighlight } from './highlight.ts';
import { benchLoadMix, type LoadMixResult } from './load.ts';
import { benchSearch } from './search.ts';
import { benchStall } from './stall.ts';
import { benchReader } from './reader.ts';
import { benchBareWork, benchHotReads } from './org-read.ts';
import { benchReadProfile } from './read-profile.ts';
import { benchStart } from './start.ts';
import { benchMemory } from './memory.ts';
import { benchBusySpaces, benchSpaceList } from './space-list.ts';
import { postgresDatabase, sqliteDatabase, summarize, type BenchDatabase } from './support.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const loadRate = process.env.BENCH_LOAD_RATE ? Number(process.env.BENCH_LOAD_RATE) : undefined;
const loadWorkers = Number(process.env.BENCH_LOAD_WORKERS ?? availableParallelism());
const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const only = process.env.BENCH_ONLY?.split(',');

interface Benchmark {
  name: string;
  title: string;
  /** Runs once per engine on a fresh database and answers the lines to print. */
  run: (database: BenchDatabase) => Promise<string[]>;
  /** A benchmark of the content library alone: run once, without a database. */
  withoutDatabase?: boolean;
}

const benchmarks: Benchmark[] = [
  {
    name: 'app',
    title: "The app's first screen in Chromium: the JavaScript the sign-in screen loads, gzipped as sent (target ≤ 200 KB), and navigation to the form shown (median of 5, nothing cached)",
    withoutDatabase: true,
    run: async () => {
      const result = await benchApp();
      if (typeof result === 'string') return [result];
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      return [
        `${result.scripts} scripts, ${kb(result.scriptBytes)} gzipped (${kb(result.scriptBytesUncompressed)} unpacked); stylesheets ${kb(result.styleBytes)} gzipped; ` +
          `form shown after ${summarize(result.formShownMs).p50.toFixed(0)} ms (p50 of ${result.formShownMs.length})`,
      ];
    },
  },
  {
    name: 'app-space',
    title: "The app's space screen in Chromium for a space of 5,000 pages: navigation to the page tree shown and a branch opening on a click (target < 1 s; median of 5, nothing cached but the session)",
    withoutDatabase: true,
    run: async () => {
      const result = await benchAppSpace();
      if (typeof result === 'string') return [result];
      const p50 = summarize(result.readyMs).p50;
      return [
        `${result.pages} pages (the tree ${(result.contentBytes / 1024 / 1024).toFixed(1)} MB as JSON): interactive after ${p50.toFixed(0)} ms p50 as the page sees it, ` +
          `${Math.max(...result.readyMs).toFixed(0)} ms at most (of ${result.readyMs.length})${p50 < 1000 ? '' : ' — over the 1 s target'}; ` +
          `${summarize(result.interactiveMs).p50.toFixed(0)} ms p50 as the driver sees it, its own waits included; ` +
          `the tree's answer in after ${summarize(result.treeAnsweredMs).p50.toFixed(0)} ms p50; the page's main thread busy ${summarize(result.mainThreadMs).p50.toFixed(0)} ms p50; ` +
          `load average ${result.loadAverage.toFixed(1)}`,
      ];
    },
  },
  {
    name: 'convert',
    title: 'GitBook markdown ⇄ JSONDocument, a page of mixed blocks (median of 15), beside parsing it with plain remark + GFM',
    withoutDatabase: true,
    run: async () => {
      const result = benchConvert();
      return [
        `${(result.bytes / 1000).toFixed(0)} KB: markdown → document ${result.toDocumentMs.toFixed(1)} ms ` +
          `(${(result.toDocumentMs / result.baselineMs).toFixed(2)}× the plain parse, ${result.baselineMs.toFixed(1)} ms), ` +
          `document → markdown ${result.toMarkdownMs.toFixed(1)} ms (${(result.toMarkdownMs / result.baselineMs).toFixed(2)}×)`,
        `${(result.largeBytes / 1000).toFixed(0)} KB: markdown → document ${result.largeToDocumentMs.toFixed(0)} ms, ` +
          `${(result.largeToDocumentMs / result.largeBytes / (result.toDocumentMs / result.bytes)).toFixed(2)}× the 100 KB page's time per byte (target < 1.5: linear)`,
      ];
    },
  },
  {
    name: 'editor',
    title: "The editor's mapping in Node: a 100 KB JSONDocument to ProseMirror and back, as JSON and as a checked node (target < 20 ms each way; median of 25), beside copying it through JSON.stringify and JSON.parse",
    withoutDatabase: true,
    run: async () => {
      const result = benchEditor();
      const times = (ms: number) => `${ms.toFixed(1)} ms (${(ms / result.baselineMs).toFixed(1)}×)`;
      return [
        `${(result.bytes / 1000).toFixed(0)} KB, ${result.blocks} top-level blocks, ${result.same ? 'given back byte for byte' : 'NOT GIVEN BACK UNCHANGED'}: ` +
          `document → ProseMirror JSON ${times(result.toJsonMs)}, → node ${times(result.toNodeMs)}; ` +
          `ProseMirror JSON → document ${times(result.fromJsonMs)}, node → document ${times(result.fromNodeMs)}; the JSON copy ${result.baselineMs.toFixed(1)} ms`,
      ];
    },
  },
  {
    name: 'editor-browser',
    title:
      "The editor in Chromium on a page of 5,000 blocks: navigation to the editor focused and taking a key (target < 1 s; median of 5, nothing cached but the session), " +
      'and 200 characters typed at a fixed rate, each key\'s interaction to next paint by the Event Timing API (target < 100 ms at p95); beside the same page read-only and a page of 50 blocks',
    withoutDatabase: true,
    run: async () => {
      const result = await benchEditorBrowser();
      if (typeof result === 'string') return [result];
      const median = (values: number[]) => percentile(values, 0.5);
      const load = (value: number) => `load average ${value.toFixed(1)}`;
      const inp = (value: number) => (value === 0 ? '< 16 ms' : `${value.toFixed(0)} ms`);
      const opening = (label: string, opened: typeof result.openBig, baseline?: number) =>
        opened.readyMs.length === 0 ? `${label}: not ready within ${GIVE_UP_MS / 1000} s; ${load(opened.loadAverage)}` :
        `${label}: ${median(opened.readyMs).toFixed(0)} ms p50, ${Math.max(...opened.readyMs).toFixed(0)} ms at most (of ${opened.readyMs.length})` +
        `${opened.wholeMs.length > 0 ? `, every block drawn at ${median(opened.wholeMs).toFixed(0)} ms p50` : ''}` +
        `${opened.editorMs.length > 0 ? `, from the page's document in: ${median(opened.editorMs).toFixed(0)} ms p50 (${Math.max(...opened.editorMs).toFixed(0)} at most)` : ''}` +
        `${baseline ? `, ${(median(opened.readyMs) / baseline).toFixed(2)}× the 5,000-block page read-only` : ''}; ${load(opened.loadAverage)}`;
      const typing = (label: string, typed: typeof result.typingSmall) =>
        `${label}, ${typed.rate} keys/s offered: interaction to next paint p50 ${inp(percentile(typed.interactionMs, 0.5))}, p95 ${inp(percentile(typed.interactionMs, 0.95))}, ` +
        `at most ${inp(Math.max(...typed.interactionMs))} (${typed.interactionMs.filter((value) => value > 0).length} of ${typed.interactionMs.length} keys 16 ms or more); ` +
        `tasks over 50 ms: ${typed.longTasksMs.length}${typed.longTasksMs.length ? `, the longest ${Math.max(...typed.longTasksMs).toFixed(0)} ms` : ''}; ${load(typed.loadAverage)}`;
      const readOnly = median(result.readBig.readyMs);
      return [
        `the big page: ${result.bigBlocks} top-level blocks, ${(result.bigBytes / 1024 / 1024).toFixed(1)} MB of JSON; the small one ${result.smallBlocks} blocks`,
        opening('5,000 blocks, the editor ready for typing', result.openBig, readOnly) + (result.openBig.readyMs.length > 0 && median(result.openBig.readyMs) < 1000 ? '' : ' — over the 1 s target'),
        opening('5,000 blocks read-only (baseline), its last block shown', result.readBig),
        opening('50 blocks, the editor ready for typing (baseline)', result.openSmall, readOnly),
        opening("the app's sign-in form, no session (baseline: the app's own start on this machine)", result.signInForm),
        `the editor's code (the scripts Edit loads that reading the same page in the change request does not): ${result.editorCode.scripts} scripts, ` +
          `${(result.editorCode.gzippedBytes / 1024).toFixed(1)} KB gzipped as sent (${(result.editorCode.unpackedBytes / 1024).toFixed(1)} KB unpacked)${result.editorCode.gzippedBytes <= 400 * 1024 ? '' : ' — over the 400 KB target'}`,
        opening('5,000 blocks, a returning writer (the app\'s code cached), the editor ready for typing', result.openBigReturning) + (result.openBigReturning.readyMs.length > 0 && median(result.openBigReturning.readyMs) < 1000 ? '' : ' — over the 1 s target'),
        opening('50 blocks, a returning writer (baseline)', result.openSmallReturning),
        ...result.typingBig.map((typed) => typing('typing into 5,000 blocks', typed)),
        typing('typing into 50 blocks (baseline)', result.typingSmall),
      ];
    },
  },
  {
    name: 'highlight',
    title: 'Highlighting code for the reader: lowlight (chosen) beside shiki, each to hast then HTML, on real files in six languages (median of 9)',
    withoutDatabase: true,
    run: async () => {
      const result = await benchHighlight();
      const perThousand = (ms: number) => ((ms / result.lines) * 1000).toFixed(1);
      return [
        `${result.lines} lines: lowlight ${perThousand(result.lowlightMs)} ms per 1,000 lines, shiki ${perThousand(result.shikiMs)} ms (${(result.shikiMs / result.lowlightMs).toFixed(1)}× lowlight)`,
      ];
    },
  },
  {
    name: 'bare-work',
    title: `A bare node:http server spending a fixed time of JavaScript per request (${seconds} s each, 32 connections): how much work leaves half of bare's requests per second`,
    withoutDatabase: true,
    run: async () =>
      (await benchBareWork(seconds)).map(
        (result) =>
          `${String(result.spinMicroseconds).padStart(2)} µs of work: ${result.requestsPerSecond.toFixed(0)} req/s (${(result.ratio * 100).toFixed(1)}% of bare), ` +
          `CPU per request ${result.cpuUs.toFixed(1)} µs, of which outside the work ${(result.cpuUs - result.spinMicroseconds).toFixed(1)} µs`,
      ),
  },
  {
    name: 'org-read',
    title: `The hot authenticated reads, each against a bare node:http server answering the same bytes, and one that first reads the token and the resource in one query of the same database (${seconds} s each, 32 connections), with each server's CPU per request`,
    run: async (database) => {
      const results = await benchHotReads(database, seconds, process.env.BENCH_READS?.split(','));
      const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
      return results.map(
        (result) =>
          `${result.name.padEnd(24)} quire ${result.quire.toFixed(0)} req/s; bare ${result.bare.toFixed(0)} req/s (quire ${percent(result.ratio)}` +
          `${result.name === 'organization' ? `, the issue's target ≥ ${database.engine === 'sqlite' ? 50 : 25}%` : ''}), ` +
          `bare reading the database ${result.bareDatabase.toFixed(0)} req/s (quire ${percent(result.ratioToBareDatabase)}, target ≥ 50%); ` +
          `CPU per request bare ${result.bareCpuUs.toFixed(1)} µs, bare reading ${result.bareDatabaseCpuUs.toFixed(1)} µs, quire ${result.quireCpuUs.toFixed(1)} µs; ` +
          `quire p99 ${result.p99} ms, errors ${result.errors}`,
      );
    },
  },
  {
    name: 'read-profile',
    title: `Where GET /v1/orgs/{id} spends its time: the server under the CPU profiler (${seconds} s, 32 connections), microseconds per request by part, beside the bare node:http server's`,
    run: async (database) => {
      const { quire, bare } = await benchReadProfile(database, seconds);
      const total = (parts: Map<string, number>) => [...parts.values()].reduce((sum, value) => sum + value, 0);
      return [
        `quire ${total(quire.parts).toFixed(1)} µs a request (${quire.requestsPerSecond.toFixed(0)} req/s profiled), bare ${total(bare.parts).toFixed(1)} µs (${bare.requestsPerSecond.toFixed(0)} req/s):`,
        ...[...quire.parts].map(([part, microseconds]) => `  ${microseconds.toFixed(1).padStart(6)} µs  ${part}${bare.parts.has(part) ? ` (bare: ${bare.parts.get(part)!.toFixed(1)})` : ''}`),
      ];
    },
  },
  {
    name: 'start',
    title: '`quire serve` from its process starting to /readyz: first start on a fresh database, restarts of it empty and holding 100,000 pages; the processes of QUIRE_WORKERS=2, idle',
    run: async (database) => {
      const result = await benchStart(database);
      return [
        `first start ${result.freshMs.toFixed(0)} ms (RSS ${result.freshRssMb.toFixed(0)} MB); restart empty ${result.emptyMs.toFixed(0)} ms; ` +
          `restart with ${result.pages} pages ${result.fullMs.toFixed(0)} ms (RSS ${result.fullRssMb.toFixed(0)} MB) (target < 2,000 ms)`,
        `QUIRE_WORKERS=2, idle: the primary ${result.primaryRssMb.toFixed(0)} MB, each worker ${result.workerRssMb.map((rss) => rss.toFixed(0)).join(' and ')} MB`,
      ];
    },
  },
  {
    name: 'memory',
    title: `What holds the server's memory serving an organization of 100,000 pages under the mixed load (64 connections, ${loadSeconds} s after a 15 s warm-up), at capacity, paced at 75% of it and at a fixed 60 req/s (target RSS < 200 MB, flat, at 75%)`,
    run: async (database) => {
      const lines: string[] = [];
      for (const [run, result] of await benchMemory(database, loadSeconds)) {
        lines.push(
          `${run}:`,
          ...result.memory!.map(
            ([moment, report]) =>
              `  ${moment.padEnd(17)} RSS ${report.rss} MB: V8 heap ${report.heapTotal} MB reserved (${report.heapUsed} MB used${report.live === undefined ? '' : `, ${report.live} MB live`}), outside the heap ${report.rss - report.heapTotal} MB`,
          ),
          `  RSS every 5 s of the measured run: ${result.rssSamples.join(' ')} MB; ${result.requestsPerSecond.toFixed(0)} req/s over ${result.pages} pages, errors ${result.errors}`,
          `  read p50 / p99 by kind: ${[...result.readsByKind].map(([kind, summary]) => `${kind} ${summary.p50.toFixed(1)} / ${summary.p99.toFixed(1)} ms`).join(', ')}; writes ${result.writes.p50.toFixed(1)} / ${result.writes.p99.toFixed(1)} ms`,
        );
      }
      return lines;
    },
  },
  {
    name: 'space-list',
    title: 'Listing 10,000 spaces, 100 per page, to the last page (median of 5 walks)',
    run: async (database) => {
      const result = await benchSpaceList(database);
      return [
        `page 1 ${result.firstPageMs.toFixed(2)} ms, page 50 ${result.middlePageMs.toFixed(2)} ms, ` +
          `page 100 ${result.lastPageMs.toFixed(2)} ms (last / first ${result.ratio.toFixed(2)})`,
      ];
    },
  },
  {
    name: 'busy-spaces',
    title: 'Listing 50 spaces of 20,000 change requests and 20,000 comments each, beside 50 empty spaces (median of 9)',
    run: async (database) => {
      const result = await benchBusySpaces(database);
      return [
        `50 busy spaces ${result.busyMs.toFixed(2)} ms, 50 empty spaces ${result.emptyMs.toFixed(2)} ms: ` +
          `busy / empty ${(result.busyMs / result.emptyMs).toFixed(2)} (counted on every read before the counters were stored: 240 ms)`,
      ];
    },
  },
  {
    name: 'content',
    title: 'Revision store: a space of N pages, 200 single-page edits merged through change requests, a 100-page three-way merge',
    run: async (database) => {
      const lines: string[] = [];
      for (const pages of [500, 5000]) {
        const result = await benchContent(database, pages);
        lines.push(
          `${String(pages).padStart(5)} pages: ${result.bytesPerEdit.toFixed(0)} bytes stored per edit, ` +
            `page list read ${result.readPagesMs.toFixed(1)} ms, 100-page merge ${result.mergeMs.toFixed(1)} ms (target < 250 ms)`,
        );
      }
      return lines;
    },
  },
  {
    name: 'search',
    title: 'Search in an organization of 100,000 pages in 20 spaces, beside another of 100,000: index build, query latency, a 10-page merge',
    run: async (database) => {
      const result = await benchSearch(database);
      return [
        `${result.pages} pages searched among ${result.pages + result.otherPages}, ${result.markdownMb.toFixed(0)} MB of markdown indexed in ${result.indexSeconds.toFixed(1)} s; ` +
          `${result.latency.count} queries p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms (target < 20 / < 100 ms); ` +
          `10-page merge with its re-index ${result.mergeTenPagesMs.toFixed(0)} ms`,
      ];
    },
  },
  {
    name: 'reader',
    title: `The built-in reader on a 1,000-page site: a cached page against a bare node:http server answering the same bytes (${seconds} s each, 32 connections), and ~100 KB pages rendered the first time`,
    run: async (database) => {
      const result = await benchReader(database, seconds);
      return [
        `cached page (${(result.pageBytes / 1000).toFixed(0)} KB): bare ${result.bare.toFixed(0)} req/s, quire ${result.cached.toFixed(0)} req/s, ` +
          `ratio ${(result.ratio * 100).toFixed(1)}% (target ≥ 30%), quire p99 ${result.cachedP99} ms, errors ${result.errors}`,
        `uncached ${(result.prepared.bytes / 1000).toFixed(0)} KB pages after a merge (${result.prepared.ready} of ${result.prepared.count} made ahead, one request each): p50 ${result.prepared.p50.toFixed(0)} ms, ` +
          `max ${result.prepared.max.toFixed(0)} ms (target < 50 ms), time to first byte p50 ${result.prepared.ttfbP50.toFixed(0)} ms`,
        `cold ${(result.cold.bytes / 1000).toFixed(0)} KB pages (converted for the reader, one request each): p50 ${result.cold.p50.toFixed(0)} ms, max ${result.cold.max.toFixed(0)} ms`,
      ];
    },
  },
  {
    name: 'git-sync',
    title:
      "Git Sync over git's http-backend: a 500-page repository with 18 MB of images imported (beside `git clone --depth 1` of it), the server's peak memory beside its idle size, and an export; " +
      "then a push to a 1,000-page space of the same kind: one page changed with the git binary, from GitHub's signed webhook to the merged revision, beside the same push imported through the API, the same change through a change request, and git clone",
    run: async (database) => {
      const result = await benchGitSync(database);
      const push = await benchGitPush(database);
      const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      const webhook = summarize(push.webhook.all);
      const imported = summarize(push.apiImport.all);
      const changeRequest = summarize(push.changeRequest.all);
      const part = (name: keyof PushPhases) => summarize(push.webhook.phases.map((phases) => phases[name])).p50.toFixed(0);
      const megabytes = summarize(push.webhook.transferBytes).p50 / 1_048_576;
      return [
        `${result.pages} pages, ${(result.assetBytes / 1_048_576).toFixed(0)} MB of assets: import ${(result.importMs / 1000).toFixed(1)} s (${(result.importMs / result.cloneMs).toFixed(1)}× git clone's ${(result.cloneMs / 1000).toFixed(2)} s), ` +
          `export ${(result.exportMs / 1000).toFixed(1)} s; server RSS ${result.idleRssMb.toFixed(0)} MB idle, ${result.peakRssMb.toFixed(0)} MB at its peak (${(result.peakRssMb / result.idleRssMb).toFixed(1)}×)`,
        `push to ${push.pages} pages (${(push.assetBytes / 1_048_576).toFixed(0)} MB of assets), one page changed: webhook to merged revision p50 ${seconds(webhook.p50)}, worst ${seconds(webhook.max)} of ${webhook.count} (target < 2 s); ` +
          `the webhook answered in ${summarize(push.webhook.answerMs).p50.toFixed(0)} ms; the space's first import ${seconds(push.setupImportMs)}; ` +
          `each push in order ${push.webhook.all.map((ms) => (ms / 1000).toFixed(1)).join(' ')} s`,
        `  beside, same run: the push through POST …/git/import p50 ${seconds(imported.p50)}, worst ${seconds(imported.max)} of ${imported.count} (webhook ${(webhook.p50 / imported.p50).toFixed(2)}×); ` +
          `the same change through a change request (open, edit, merge) p50 ${changeRequest.p50.toFixed(0)} ms, its merge ${summarize(push.changeRequest.mergeOnly).p50.toFixed(0)} ms (push ${(webhook.p50 / changeRequest.p50).toFixed(0)}×); ` +
          `git clone --depth 1 ${seconds(push.cloneMs)} (push ${(webhook.p50 / push.cloneMs).toFixed(1)}×)`,
        `  a push, p50 of each part (ms): to the operation ${part('toOperation')}, to the first git request ${part('toFirstRequest')}, transfer of ${megabytes.toFixed(1)} MB ${part('transfer')}, ` +
          `the commit read and the revision stored ${part('readAndStore')}, merge ${part('merge')}, seen by the poll ${part('seen')}; fast-forwards ${push.webhook.fastForwards} of ${webhook.count}`,
      ];
    },
  },
  {
    name: 'events',
    title: "From a merge to an integration's script (in workerd) receiving its space_content_updated: 200 merges one at a time, beside the merge's own answer time",
    run: async (database) => {
      const result = await benchEvents(database);
      return [
        `${result.merges} merges: event received ${result.event.p50.toFixed(0)} ms (p50) / ${result.event.p99.toFixed(0)} ms (p99) after the merge was sent; ` +
          `the merge answered in ${result.merge.p50.toFixed(0)} / ${result.merge.p99.toFixed(0)} ms, so the delivery adds ${(result.event.p50 - result.merge.p50).toFixed(0)} ms at p50`,
      ];
    },
  },
  {
    name: 'stall',
    title:
      'Heavy work beside light requests: the worst wait of GET /healthz (target < 100 ms) and of an authenticated read, each probed every 10 ms while each operation runs',
    run: async (database) =>
      (await benchStall(database)).map(
        (result) =>
          `${result.operation}: worst wait ${result.worstWaitMs.toFixed(0)} ms for /healthz (p99 ${result.p99WaitMs.toFixed(0)} ms), ` +
          `${result.worstReadMs.toFixed(0)} ms for an authenticated read, over ${result.probes} probes; ` +
          `took ${result.seconds.toFixed(1)} s (${result.outcome})`,
      ),
  },
  {
    name: 'load',
    title:
      `Mixed load: 64 connections, 90% reads / 10% writes, ${loadSeconds} s after a 15 s warm-up; ` +
      `first each connection sending as soon as answered (capacity), then paced at ${loadRate ? `${loadRate} req/s` : '50% and 75% of that capacity'}, ` +
      `then as fast as answered again with QUIRE_WORKERS=${loadWorkers}`,
    run: async (database) => {
      const latency = (summary: LoadMixResult['reads']) =>
        `${summary.count} (p50 ${summary.p50.toFixed(1)} ms, p99 ${summary.p99.toFixed(1)} ms, max ${summary.max.toFixed(0)} ms)`;
      // A p99 at a share of capacity is a number of request-times (bench/RESULTS.md):
      // printed beside the milliseconds, it compares across days of different speed.
      const requestTimes = (result: LoadMixResult, capacity: number) =>
        `; the p99 is ${((result.reads.p99 * capacity) / 1000).toFixed(1)} request-times at the capacity of ${capacity.toFixed(0)} req/s`;
      const lines = (label: string, result: LoadMixResult, capacity?: number) => [
        `${label}: ${result.requestsPerSecond.toFixed(0)} req/s${
          result.bareRequestsPerSecond ? ` (bare node:http under the same generator ${result.bareRequestsPerSecond.toFixed(0)} req/s: ${((result.requestsPerSecond / result.bareRequestsPerSecond) * 100).toFixed(1)}%)` : ''
        }, errors ${result.errors}; reads ${latency(result.reads)} (target p99 < 50 ms at 75% of capacity)${capacity ? requestTimes(result, capacity) : ''}`,
        `${label}: writes ${latency(result.writes)}`,
        `${label}: read p99 of each 10 s: ${result.readP99ByWindow.map((p99) => p99.toFixed(1)).join(' ')} ms`,
        `${label}: read p50 / p99 by kind: ` +
          [...result.readsByKind].map(([kind, summary]) => `${kind} ${summary.p50.toFixed(1)} / ${summary.p99.toFixed(1)} ms`).join(', '),
        `${label}: server RSS ${result.rssAfterWarmupMb.toFixed(0)} MB after warm-up, ${result.rssEndMb.toFixed(0)} MB at the end ` +
          `(${(((result.rssEndMb - result.rssAfterWarmupMb) / result.rssAfterWarmupMb) * 100).toFixed(1)}%; target ≤ 10%); ` +
          `every 5 s: ${result.rssSamples.join(' ')} MB`,
        `${label}: server CPU ${result.serverCpuMsPerRequest.toFixed(3)} ms per request, ` +
          `${(result.serverCpuShare * 100).toFixed(0)}% of one core; the machine's cores ${(result.machineBusyShare * 100).toFixed(0)}% busy with the database and the generator (${(result.generatorCpuShare * 100).toFixed(0)}% of one core)` +
          (result.requestThread
            ? `; its request thread ${result.requestThread.msPerRequest.toFixed(3)} ms per request, ${(result.requestThread.share * 100).toFixed(0)}% busy` +
              (result.requestThread.waitingShare === undefined ? '' : `, waiting for a core ${(result.requestThread.waitingShare * 100).toFixed(0)}% of the run`)
            : ''),
        ...(result.pauses
          ? [
              `${label}: stalls: server's event loop held ${result.pauses.serverLoopMaxMs.toFixed(0)} ms at worst, ` +
                `GC ${result.pauses.serverGcMs.toFixed(0)} ms in all (${result.pauses.serverGcMaxMs.toFixed(0)} ms at worst); ` +
                `generator's loop held ${result.pauses.generatorLoopMaxMs.toFixed(0)} ms at worst; slowest reads: ` +
                result.slowestReads!.map(
                  (read) =>
                    `${read.kind} ${read.milliseconds.toFixed(0)} ms (server loop ${read.serverLoopMaxMs.toFixed(0)}, ` +
                    `GC ${read.serverGcMs.toFixed(0)}, generator loop ${read.generatorLoopMaxMs.toFixed(0)})`,
                ).join(', '),
            ]
          : []),
        ...(result.poolWait
          ? [
              `${label}: waits for a pooled connection (a statement outside a transaction, or a whole transaction): ` +
                `p50 ${result.poolWait.p50Ms} ms, p99 ${result.poolWait.p99Ms} ms, at worst ${result.poolWait.maxMs} ms, ` +
                `of ${result.poolWait.takes}; at most ${result.poolWait.mostWaiting} waiting at once`,
            ]
          : []),
        ...(result.sql
          ? [
              `${label}: inside SQLite ${result.sql.msPerRequest.toFixed(3)} ms per request, ` +
                `${(result.sql.shareOfRun * 100).toFixed(0)}% of the run's wall time; longest in all:`,
              ...result.sql.top.map(
                (statement) =>
                  `${label}:   ${statement.milliseconds.toFixed(0)} ms, ${statement.count}×: ${statement.sql.slice(0, 110)}`,
              ),
            ]
          : []),
      ];
      // Each run after the first gets a database of its own: on the first run's, its
      // searches would also walk past the first run's pages, and cost more than measured.
      const onFreshDatabase = async (options: Parameters<typeof benchLoadMix>[2]) => {
        const fresh = (await openers[database.engine]())!;
        return benchLoadMix(fresh, loadSeconds, options).finally(() => fresh.drop());
      };
      const capacity = await benchLoadMix(database, loadSeconds);
      const output = lines('closed loop', capacity);
      const rates = loadRate ? [loadRate] : [0.5, 0.75].map((share) => Math.round(capacity.requestsPerSecond * share));
      for (const offeredRate of rates) output.push(...lines(`paced at ${offeredRate} req/s`, await onFreshDatabase({ offeredRate }), capacity.requestsPerSecond));
      const workers = await onFreshDatabase({ workers: loadWorkers });
      output.push(...lines(`closed loop, QUIRE_WORKERS=${loadWorkers}`, workers));
      return output;
    },
  },
];

const openers: Record<string, () => Promise<BenchDatabase | undefined>> = {
  sqlite: sqliteDatabase,
  postgres: postgresDatabase,
};

// The machine's processor changes from day to day here, and the ratios with it
// (docs/performance.md): a run names it, so figures are compared with their own machine's.
console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown processor'}, Node.js ${process.version}`);
for (const benchmark of benchmarks.filter((candidate) => !only || only.includes(candidate.name))) {
  console.log(benchmark.title);
  if (benchmark.withoutDatabase) {
    for (const line of await benchmark.run(undefined as never)) console.log(`  ${line}`);
    continue;
  }
  for (const engine of engines) {
    const database = await openers[engine]();
    if (!database) {
      console.log(`  ${engine.padEnd(8)} not reachable, skipped`);
      continue;
    }
    try {
      for (const line of await benchmark.run(database)) console.log(`  ${engine.padEnd(8)} ${line}`);
    } finally {
      await database.drop();
    }
  }
}
