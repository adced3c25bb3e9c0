import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetcher, FetchRefused, isSpecialAddress } from '../../src/lib/safeFetch.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    switch (request.url) {
      case '/hello':
        return response.end('hello');
      case '/huge':
        response.writeHead(200, { 'content-type': 'text/plain' });
        return response.end(Buffer.alloc(5 * 1024 * 1024, 'a'));
      case '/huge-chunked':
        response.writeHead(200, { 'content-type': 'text/plain' });
        for (let chunk = 0; chunk < 80; chunk++) response.write(Buffer.alloc(64 * 1024, 'b'));
        return response.end();
      case '/loop':
        response.writeHead(302, { location: '/loop' });
        return response.end();
      case '/to-hello':
        response.writeHead(301, { location: '/hello' });
        return response.end();
      case '/to-file':
        response.writeHead(302, { location: 'file:///etc/passwd' });
        return response.end();
      case '/never':
        return;
      default:
        response.writeHead(404);
        return response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const limits = { timeoutMs: 2_000, maxBytes: 1024 * 1024 };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'fetched',
    (error: unknown) => (error instanceof FetchRefused ? error.code : `unexpected ${String(error)}`),
  );

describe('the URL fetcher', () => {
  it('tells private, loopback, link-local and special addresses from public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1']) {
      expect(isSpecialAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111']) expect(isSpecialAddress(address), address).toBe(false);
  });

  it('refuses loopback and private hosts by address and by name unless allowed', async () => {
    const fetch = createFetcher(false);
    expect(await failure(fetch(`${base}/hello`, limits))).toBe('ADDRESS');
    expect(await failure(fetch(`http://localhost:${new URL(base).port}/hello`, limits))).toBe('ADDRESS');
    expect(await failure(fetch('http://[::1]/', limits))).toBe('ADDRESS');
    expect(await failure(fetch('http://169.254.169.254/latest/meta-data', limits))).toBe('ADDRESS');
    const allowed = await createFetcher(true)(`${base}/hello`, limits);
    expect(allowed.body.toString()).toBe('hello');
  });

  it('refuses other schemes, also when private addresses are allowed and when a redirect leads there', async () => {
    const fetch = createFetcher(true);
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)', 'gopher://x', 'not a url']) {
      expect(await failure(fetch(url, limits)), url).toBe('SCHEME');
    }
    expect(await failure(fetch(`${base}/to-file`, limits))).toBe('SCHEME');
  });

  it('follows redirects to their end but stops a redirect loop', async () => {
    const fetch = createFetcher(true);
    const followed = await fetch(`${base}/to-hello`, limits);
    expect(followed).toMatchObject({ url: `${base}/hello`, status: 200 });
    expect(await failure(fetch(`${base}/loop`, limits))).toBe('REDIRECTS');
  });

  it('stops a body over the size cap, declared or streamed, and a server that never answers', async () => {
    const fetch = createFetcher(true);
    expect(await failure(fetch(`${base}/huge`, limits))).toBe('TOO_LARGE');
    expect(await failure(fetch(`${base}/huge-chunked`, limits))).toBe('TOO_LARGE');
    const started = Date.now();
    expect(await failure(fetch(`${base}/never`, { ...limits, timeoutMs: 300 }))).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
