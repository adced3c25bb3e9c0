// Runs Quire's command line and server as separate processes, as a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const QUIRE_BIN = fileURLToPath(new URL('../../bin/quire.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return runNode([QUIRE_BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
}

/** Runs Node on `args` with exactly this environment, to its end; answers its exit code and output. */
export function runNode(args: string[], options: { env: Record<string, string | undefined>; cwd?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** `npm start`'s launcher: `quire serve` with the memory settings of a small machine. */
const NPM_START = fileURLToPath(new URL('../../bin/serve', import.meta.url));

/**
 * Starts `quire serve` (with options for Node itself, such as a profiler's), or with
 * `asNpmStart` as `npm start` starts it (Node's options then go in env.NODE_OPTIONS, as
 * a user's would), and waits until /readyz answers.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  nodeOptions: string[] = [],
  { asNpmStart = false }: { asNpmStart?: boolean } = {},
): Promise<ServerProcess> {
  // A caller that must know the address first (to set QUIRE_PUBLIC_URL to it) picks the port.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  if (asNpmStart && nodeOptions.length > 0) throw new Error('npm start takes Node options in NODE_OPTIONS');
  const [command, ...args] = asNpmStart ? ['sh', NPM_START] : [process.execPath, ...nodeOptions, QUIRE_BIN, 'serve'];
  const child = spawn(command, args, {
    env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Generous: how fast Quire starts is a benchmark (bench/), not a test; two workers on a loaded 2-core CI machine took over 20 s.
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`quire serve exited early:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return { child, baseUrl, output: () => output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`quire serve did not become ready:\n${output}`);
}

/** One JSON request to a running server, as a client with a token would send it. */
export async function callServer(server: ServerProcess, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Polls `probe` every 100 ms until it answers something other than undefined. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The processes whose parent is `parentPid` (from /proc: field 4 of stat is the parent). */
export function childPids(parentPid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === parentPid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}
