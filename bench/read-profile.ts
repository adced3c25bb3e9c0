// Where an authenticated GET /v1/orgs/{id} spends its time: the server runs under V8's
// sampling profiler (--cpu-prof) while autocannon loads that one read, then each
// sample is charged to the first part of Quire or of its stack it finds walking from
// the innermost frame outwards (the bundle's frames are mapped back to the sources
// through its source map). Divided by the requests served, that is microseconds per
// request per part. The bare node:http server answering the same bytes is profiled the
// same way, for the share Node's HTTP server takes in any server. The profiler adds a
// little to every part; read the parts against each other and against the bare figure.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, runCli, startBareServer, startServerProcess, stop, type BenchDatabase } from './support.ts';
import type { ChildProcess } from 'node:child_process';

/** Parts of a request, matched against a frame's source path and function name ("<path> <name>"), first match wins. */
const PARTS: Array<[part: string, test: RegExp]> = [
  ['socket system calls (writev, read)', /^ (writev|writeBuffer|writeUtf8String|writeLatin1String|readStart|readStop)$|stream_base_commons/],
  ['promise and next-tick scheduling', /task_queues|^ runMicrotasks$/],
  ['database driver (the one query: token, user, membership, organization)', /better-sqlite3|node_modules\/pg|pg-protocol|pg-pool|kysely/],
  ["SQLite's data_version check for remembered results", /src\/db\/dialect\.ts/],
  ['authentication (token hash, the query built and read)', /src\/plugins\/auth\.ts|src\/db\/repos\/apiTokens\.ts|src\/lib\/ids\.ts|src\/db\/prepared\.ts/],
  ['rate limiter', /rate-limit|src\/plugins\/rateLimit\.ts|toad-cache/],
  ['site-hostname hook', /src\/reader\/routes\.ts/],
  ['policy (authorize)', /src\/policies\/|src\/services\/organizations\.ts|src\/lib\/roles\.ts/],
  ['presenter', /src\/presenters\//],
  ['response serialization', /fast-json-stringify|src\/plugins\/validation\.ts.*serial/],
  ['request validation', /ajv|fastify\/lib\/validation\.js|src\/plugins\/validation\.ts/],
  ['logging', /pino|abstract-logging/],
  ['Fastify (routing, hooks, reply)', /node_modules\/fastify|find-my-way|avvio|fast-querystring|@fastify\//],
  ['other Quire code', /\/src\//],
  ["Node's HTTP server (parsing, headers, streams)", /^node:/],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Microseconds per part over the samples taken in `window` (microseconds of the
 * monotonic clock, which V8's profiler and process.hrtime share), divided by the
 * requests served in it: the server's start and shutdown are left out.
 */
function breakdown(profile: Profile, window: { from: number; to: number }, requests: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const maps = new Map<string, SourceMap | null>();
  const sourceOf = (frame: ProfileNode['callFrame']): string => {
    if (!frame.url.includes('.cache/quire/')) return frame.url;
    const path = fileURLToPath(frame.url);
    if (!maps.has(path)) {
      try {
        maps.set(path, new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))));
      } catch {
        maps.set(path, null);
      }
    }
    const entry = maps.get(path)?.findEntry(frame.lineNumber, frame.columnNumber);
    return entry && 'originalSource' in entry ? resolve(dirname(path), entry.originalSource) : frame.url;
  };
  const partOfNode = new Map<number, string>();
  const partOf = (id: number): string => {
    const known = partOfNode.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    let part: string | undefined;
    if (name === '(garbage collector)') part = 'garbage collection';
    else if (name === '(idle)') part = 'idle';
    else {
      const source = `${sourceOf(node.callFrame)} ${name}`;
      part = PARTS.find(([, test]) => test.test(source))?.[0];
      if (!part) part = parent.has(id) ? partOf(parent.get(id)!) : name === '(program)' ? 'V8 and native code' : 'other';
    }
    partOfNode.set(id, part);
    return part;
  };
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index];
    if (at < window.from || at > window.to) return;
    const part = partOf(id);
    totals.set(part, (totals.get(part) ?? 0) + profile.timeDeltas[index]);
  });
  totals.delete('idle');
  return new Map([...totals].map(([part, microseconds]): [string, number] => [part, microseconds / requests]).sort((a, b) => b[1] - a[1]));
}

/** Loads `url` for `seconds` against a process that writes a CPU profile when it stops; answers the breakdown. */
async function profiled(start: (nodeOptions: string[]) => Promise<{ child: ChildProcess; url: string }>, headers: Record<string, string>, seconds: number) {
  const directory = mkdtempSync(join(tmpdir(), 'quire-profile-'));
  try {
    const server = await start(['--cpu-prof', `--cpu-prof-dir=${directory}`]);
    await load(server.url, headers, 2);
    const microseconds = () => Number(process.hrtime.bigint() / 1000n);
    const from = microseconds();
    const result = await load(server.url, headers, seconds);
    const to = microseconds();
    await stop(server.child);
    const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no CPU profile');
    const requests = result.requestsPerSecond * seconds;
    return { parts: breakdown(JSON.parse(readFileSync(join(directory, file), 'utf8')), { from, to }, requests), requestsPerSecond: result.requestsPerSecond };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function benchReadProfile(database: BenchDatabase, seconds: number) {
  const boot = await runCli(['admin', 'bootstrap', '--org', 'Bench', '--email', 'bench@quire.test', '--name', 'Bench', '--json'], database.env);
  const { token, organization } = JSON.parse(boot.stdout);
  const headers = { authorization: `Bearer ${token}` };
  let sample = '';
  const quire = await profiled(async (nodeOptions) => {
    const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '1000000000' }, nodeOptions);
    const url = `${server.baseUrl}/v1/orgs/${organization.id}`;
    sample = await (await fetch(url, { headers })).text();
    return { child: server.child, url };
  }, headers, seconds);
  const bare = await profiled((nodeOptions) => startBareServer(sample, nodeOptions), {}, seconds);
  return { quire, bare };
}
