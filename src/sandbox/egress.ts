// Where integration scripts' outbound requests go: the runtime sends every fetch here
// as a proxy request (the absolute URL in the request line), and this answers it only
// for Quire's own API and the hosts an administrator allowed, through the one URL
// fetcher (so the private-address rule, time and size caps hold), counting each
// event's requests against its limit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { errorBody } from '../errors.ts';
import { createFetcher, FetchRefused, type FetchOptions } from '../lib/safeFetch.ts';

export interface EgressRules {
  /** Quire's own origin (QUIRE_PUBLIC_URL): the API a script calls back. */
  ownOrigin: string;
  /** Host names scripts may call besides (QUIRE_INTEGRATION_HOSTS); `*.example.com` allows its subdomains. */
  allowedHosts: string[];
  allowPrivateUrls: boolean;
}

const OUTBOUND_TIMEOUT_MS = 10_000;
const OUTBOUND_MAX_BYTES = 10 * 1024 * 1024;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'host', 'content-length']);

function refusal(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(status, message)));
}

export class Egress {
  private server: Server | undefined;
  private remaining = 0;
  private readonly fetcher;
  private readonly fetchOwn;

  constructor(
    private readonly rules: EgressRules,
    private readonly log: FastifyBaseLogger,
  ) {
    this.fetcher = createFetcher(rules.allowPrivateUrls);
    // Quire's own address is the operator's configuration, not a script's choice: called as configured.
    this.fetchOwn = createFetcher(true);
  }

  /** Listens on a local port; answers it. */
  async start(): Promise<number> {
    if (!this.server) {
      this.server = createServer({ requireHostHeader: false }, (request, response) => void this.handle(request, response));
      await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    }
    return (this.server.address() as AddressInfo).port;
  }

  /** Starts counting one event's requests (events run one at a time). */
  beginEvent(requests: number): void {
    this.remaining = requests;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
    this.server = undefined;
  }

  private allows(url: URL): boolean {
    if (url.origin === this.rules.ownOrigin) return true;
    return this.rules.allowedHosts.some((host) => {
      const name = host.includes(':') ? url.host : url.hostname;
      return host.startsWith('*.') ? name.endsWith(host.slice(1)) : name === host;
    });
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      return refusal(response, 400, 'an integration may only fetch absolute http(s) URLs');
    }
    if (!this.allows(url)) {
      this.log.warn({ host: url.host }, 'an integration script was refused a request');
      return refusal(response, 403, `Quire refused the request: ${url.host} is not in QUIRE_INTEGRATION_HOSTS`);
    }
    if (this.remaining <= 0) return refusal(response, 429, 'Quire refused the request: this event made as many requests as it may (QUIRE_INTEGRATION_REQUESTS)');
    this.remaining--;
    const method = (request.method ?? 'GET').toUpperCase();
    if (!METHODS.has(method)) return refusal(response, 405, `Quire does not forward ${method} requests`);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (HOP_BY_HOP.has(name) || value === undefined ? [] : [[name, String(value)]])));
    const options: FetchOptions = { method: method as FetchOptions['method'], headers, timeoutMs: OUTBOUND_TIMEOUT_MS, maxBytes: OUTBOUND_MAX_BYTES, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) };
    try {
      const answer = await (url.origin === this.rules.ownOrigin ? this.fetchOwn : this.fetcher)(url.toString(), options);
      const passed = Object.fromEntries(Object.entries(answer.headers).flatMap(([name, value]) => (HOP_BY_HOP.has(name) || value === undefined ? [] : [[name, value]])));
      response.writeHead(answer.status, passed).end(answer.body);
    } catch (error) {
      refusal(response, 502, error instanceof FetchRefused ? error.message : `the request failed: ${(error as Error).message}`);
    }
  }
}
