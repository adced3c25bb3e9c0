// Integration scripts in Cloudflare's workerd, the runtime GitBook's CLI runs them in
// (`gitbook dev`), so published bundles run unchanged. Quire writes the runtime's
// configuration (a router worker on one local socket, bound to one worker per script;
// every script's outbound fetch goes to the egress proxy) and runs one process, started
// when the first event comes and restarted with a new configuration when a script it
// does not hold yet is needed. Events run one at a time, so that each event's outbound
// requests are counted for it. The open-source runtime enforces no CPU limit: an event
// past its wall time gets the runtime restarted, which stops a script that never yields.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Egress } from './egress.ts';
import { SandboxRefused, SandboxStopping, type IntegrationSandbox, type SandboxLimits, type ScriptAnswer } from './port.ts';

const ROUTER = `export default {
  async fetch(request, env) {
    const script = env['s' + request.headers.get('x-quire-script')];
    return script ? script.fetch(request) : new Response('no such script', { status: 404 });
  },
};
`;
const READY_WITHIN_MS = 15_000;
/** Scripts the runtime holds at once; the least recently used goes first. */
const SCRIPTS_HELD = 100;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const capnpText = (text: string) => JSON.stringify(text);

/**
 * One event to the runtime, on a connection of its own. workerd closes idle connections
 * at moments a client cannot see coming, and a kept-alive one it had closed failed the
 * next event (EPIPE: about one event in three, spaced 100 ms apart), which then
 * restarted the runtime.
 */
async function postEvent(port: number, slot: number, form: FormData, signal: AbortSignal): Promise<ScriptAnswer> {
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': encoded.headers.get('content-type')!, 'content-length': body.length, 'x-quire-script': String(slot) };
    const request = httpRequest({ host: '127.0.0.1', port, path: '/v1', method: 'POST', agent: false, headers, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const { 'content-type': contentType, location } = response.headers;
        resolve({ status: response.statusCode!, contentType: contentType ?? null, location: location ?? null, body: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * The runtime's process, run so that it ends with this one however this one ends. A
 * runtime left behind (Quire killed, crashed or out of memory) would hold its ~130 MB
 * and port for good, one more at each restart, and its folder of scripts. workerd has no
 * parent-death option, so a shell holds this process's end of a pipe from before the
 * scripts are written: it starts the runtime on `begin`, and when the pipe closes (this
 * process ended, or `release` asked) it kills the runtime, removes `folder`, then ends.
 */
export function spawnTiedToThisProcess(binary: string, args: string[], folder: string): { child: ChildProcess; begin(): void; release(): void } {
  if (process.platform === 'win32') {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    return { child, begin: () => undefined, release: () => void child.kill('SIGKILL') };
  }
  const tied =
    'folder=$1; shift; exec 3<&0; read begin <&3 || { rm -rf "$folder"; exit 1; }; "$0" "$@" </dev/null 3<&- & runtime=$!; ' +
    '{ cat <&3 >/dev/null 2>&1; kill -9 $runtime 2>/dev/null; rm -rf "$folder"; } >/dev/null 2>&1 & exec 3<&-; wait $runtime';
  const child = spawn('/bin/sh', ['-c', tied, binary, folder, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Its pipe must not keep this process alive, nor fail it when the shell is gone.
  child.stdin!.on('error', () => undefined);
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return { child, begin: () => void child.stdin!.write('\n'), release: () => void child.stdin!.end() };
}

export class WorkerdSandbox implements IntegrationSandbox {
  readonly unavailable = undefined;
  /** Scripts by key, in order of last use. */
  private readonly scripts = new Map<string, { slot: number; source: string }>();
  private nextSlot = 0;
  private runtime: { child: ChildProcess; release(): void; port: number; dir: string; exited: Promise<void> } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closing = false;

  constructor(
    private readonly options: { binary: string; compatibilityDate: string; limits: SandboxLimits; egress: Egress; log: FastifyBaseLogger },
  ) {}

  run(script: { key: string; source: string }, form: FormData): Promise<ScriptAnswer> {
    const turn = this.queue.then(() => {
      if (this.closing) throw new SandboxStopping('Quire is stopping: the event is delivered again later, by another process or at the next start');
      return this.runNow(script, form);
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Ends the script that runs, and refuses those waiting for their turn: they are
   * background deliveries (the requests that waited for a script have had their
   * answers before the app closes), durable jobs that run again at the next start.
   * Running a backlog first kept a stopping server up for as long as it took.
   */
  async close(): Promise<void> {
    this.closing = true;
    await this.queue;
    await this.stop();
    await this.options.egress.close();
  }

  private async runNow(script: { key: string; source: string }, form: FormData): Promise<ScriptAnswer> {
    const held = this.scripts.get(script.key);
    if (held) {
      this.scripts.delete(script.key);
      this.scripts.set(script.key, held);
    } else {
      this.scripts.set(script.key, { slot: this.nextSlot++, source: script.source });
      if (this.scripts.size > SCRIPTS_HELD) this.scripts.delete(this.scripts.keys().next().value!);
      await this.stop();
    }
    const runtime = this.runtime ?? (await this.start());
    const { wallMs, requests } = this.options.limits;
    this.options.egress.beginEvent(requests);
    const deadline = AbortSignal.timeout(wallMs);
    try {
      return await postEvent(runtime.port, this.scripts.get(script.key)!.slot, form, deadline);
    } catch (error) {
      await this.stop();
      if (deadline.aborted) throw new SandboxRefused(`the script did not answer within its ${wallMs} ms (QUIRE_INTEGRATION_TIMEOUT); the runtime was restarted to stop it`);
      throw new SandboxRefused(`the runtime stopped while it ran the script (over its ${this.options.limits.memoryMb} MB, or it crashed): ${(error as Error).message}`);
    }
  }

  private async start() {
    const [port, egressPort] = await Promise.all([freePort(), this.options.egress.start()]);
    const dir = await mkdtemp(join(tmpdir(), 'quire-workerd-'));
    const { child, begin, release } = spawnTiedToThisProcess(this.options.binary, ['serve', join(dir, 'quire.capnp')], dir);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => {
      output = (output + chunk).slice(-10_000);
      this.options.log.info({ runtime: 'workerd' }, String(chunk).trim());
    });
    // Once the runtime is gone, so is the shell's watch on the pipe.
    const exited = new Promise<void>((resolve) => child.once('close', () => (release(), resolve())));
    try {
      await this.writeConfiguration(dir, port, egressPort);
    } catch (error) {
      release();
      throw error;
    }
    begin();
    const runtime = { child, release, port, dir, exited };
    const deadline = Date.now() + READY_WITHIN_MS;
    for (;;) {
      if (child.exitCode !== null) {
        await rm(dir, { recursive: true, force: true });
        throw new SandboxRefused(`the integration runtime (workerd) did not start: ${output.trim().slice(0, 2000)}`);
      }
      try {
        await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1_000) });
        break;
      } catch {
        if (Date.now() > deadline) {
          release();
          throw new SandboxRefused(`the integration runtime (workerd) did not listen within ${READY_WITHIN_MS} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    this.runtime = runtime;
    child.once('close', () => {
      if (this.runtime === runtime) this.runtime = undefined;
    });
    return runtime;
  }

  /** The scripts, the router and workerd's configuration, written into the runtime's folder. */
  private async writeConfiguration(dir: string, port: number, egressPort: number): Promise<void> {
    const services: string[] = [];
    const bindings: string[] = [];
    for (const [, { slot, source }] of this.scripts) {
      await writeFile(join(dir, `script-${slot}.js`), source);
      services.push(
        `(name = "script-${slot}", worker = (modules = [(name = "index.js", esModule = embed ${capnpText(`script-${slot}.js`)})], compatibilityDate = ${capnpText(this.options.compatibilityDate)}, compatibilityFlags = ["nodejs_compat"], globalOutbound = "egress"))`,
      );
      bindings.push(`(name = "s${slot}", service = "script-${slot}")`);
    }
    await writeFile(join(dir, 'router.js'), ROUTER);
    await writeFile(
      join(dir, 'quire.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "router", worker = (modules = [(name = "router.js", esModule = embed "router.js")], compatibilityDate = ${capnpText(this.options.compatibilityDate)}, bindings = [${bindings.join(', ')}])),
    (name = "egress", external = (address = "127.0.0.1:${egressPort}", http = (style = proxy))),
    ${services.join(',\n    ')}
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "router")],
  v8Flags = ["--max-old-space-size=${this.options.limits.memoryMb}"],
);
`,
    );
  }

  private async stop(): Promise<void> {
    const runtime = this.runtime;
    if (!runtime) return;
    this.runtime = undefined;
    runtime.release();
    await runtime.exited;
    await rm(runtime.dir, { recursive: true, force: true });
  }
}
