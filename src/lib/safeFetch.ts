// The one way Quire fetches a URL (link checks, website imports, later OpenAPI
// sources): http and https only; never a loopback, private, link-local or other
// special address, checked on the address actually connected to (after DNS, on every
// redirect), unless QUIRE_ALLOW_PRIVATE_URLS lifts that one rule; a deadline for the
// whole exchange, and a cap on the bytes read. Schemes, deadline and cap always hold.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export type FetchFailure = 'SCHEME' | 'ADDRESS' | 'TIMEOUT' | 'TOO_LARGE' | 'REDIRECTS' | 'NETWORK';

export class FetchRefused extends Error {
  constructor(
    readonly code: FetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'FetchRefused';
  }
}

export interface FetchOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The request's body (git's upload-pack and receive-pack requests, an integration's calls). */
  body?: Buffer;
  /** The whole exchange, redirects included, must finish within this. */
  timeoutMs: number;
  /** Bodies larger than this are refused (TOO_LARGE). */
  maxBytes: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
}

export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Fetcher = (url: string, options: FetchOptions) => Promise<FetchedResponse>;

const SPECIAL_ADDRESSES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL_ADDRESSES.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  SPECIAL_ADDRESSES.addSubnet(network, prefix, 'ipv6');
}

/** Loopback, private, link-local, multicast, documentation and other non-public addresses. */
export function isSpecialAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL_ADDRESSES.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return SPECIAL_ADDRESSES.check(mapped[1], 'ipv4');
  return SPECIAL_ADDRESSES.check(address, 'ipv6');
}

function refuseAddress(host: string, address: string): FetchRefused {
  return new FetchRefused('ADDRESS', `${host} resolves to ${address}, a private or local address Quire does not fetch from; set QUIRE_ALLOW_PRIVATE_URLS=true to let Quire fetch from it`);
}

/** A DNS lookup that refuses special addresses, so the check holds for the address the socket uses. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((entry) => isSpecialAddress(entry.address));
      if (refused) return callback(refuseAddress(hostname, refused.address), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function parseTarget(url: string, allowPrivate: boolean): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new FetchRefused('SCHEME', `"${url}" is not a URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new FetchRefused('SCHEME', `Only http and https URLs are fetched, not ${target.protocol}`);
  }
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(literal) && isSpecialAddress(literal)) throw refuseAddress(target.hostname, literal);
  return target;
}

function exchange(target: URL, options: FetchOptions, allowPrivate: boolean, signal: AbortSignal) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(
      target,
      {
        method: options.method ?? 'GET',
        lookup: guardedLookup(allowPrivate),
        signal,
        headers: { 'user-agent': 'Quire (+https://github.com/quire)', accept: '*/*', ...options.headers },
      },
      (response) => {
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          response.destroy();
          return reject(new FetchRefused('TOO_LARGE', `${target} is ${declared} bytes, over the ${options.maxBytes}-byte limit`));
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) {
            response.destroy();
            reject(new FetchRefused('TOO_LARGE', `${target} sent more than the ${options.maxBytes}-byte limit`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** A fetcher bound to the configuration's address rule. */
export function createFetcher(allowPrivate: boolean): Fetcher {
  return async (url, options) => {
    const signal = AbortSignal.timeout(options.timeoutMs);
    const maxRedirects = options.maxRedirects ?? 5;
    let target = parseTarget(url, allowPrivate);
    for (let redirects = 0; ; redirects++) {
      let answer;
      try {
        answer = await exchange(target, options, allowPrivate, signal);
      } catch (error) {
        if (error instanceof FetchRefused) throw error;
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof FetchRefused) throw cause;
        if (signal.aborted) throw new FetchRefused('TIMEOUT', `${url} did not answer within ${options.timeoutMs} ms`);
        throw new FetchRefused('NETWORK', `${target} could not be fetched: ${(error as Error).message}`);
      }
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location) {
        if (redirects >= maxRedirects) throw new FetchRefused('REDIRECTS', `${url} redirected more than ${maxRedirects} times`);
        target = parseTarget(new URL(location, target).toString(), allowPrivate);
        continue;
      }
      return { url: target.toString(), ...answer };
    }
  };
}
