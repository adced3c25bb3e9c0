import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { request, startTestApp, stopTestApp, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp({ QUIRE_RATE_LIMIT: '5' });

describe('rate limits and timeouts', () => {
  it('answers 429 with Retry-After once a token has used its requests for the minute', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: admin.token });
      statuses.push(response.status);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(4 - attempt));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const refused = await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: admin.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe(429);
    expect(refused.body.error.message).toMatch(/5 requests a minute for this API token/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts each token separately, so one busy script does not lock out its colleagues', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const colleague = await buildMember(testApp, organizationId, 'read');
    for (let attempt = 0; attempt < 6; attempt++) {
      await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: admin.token });
    }
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: admin.token })).status).toBe(429);
    expect((await request(testApp.app, 'GET', `/v1/orgs/${organizationId}`, { token: colleague.token })).status).toBe(200);
  });

  it('turns the limit off with QUIRE_RATE_LIMIT=0', async () => {
    const unlimited = await startTestApp({ QUIRE_RATE_LIMIT: '0' });
    try {
      const { organizationId, admin } = await buildOrganization(unlimited);
      for (let attempt = 0; attempt < 20; attempt++) {
        const response = await request(unlimited.app, 'GET', `/v1/orgs/${organizationId}`, { token: admin.token });
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await stopTestApp(unlimited);
    }
  });

  it('closes a connection whose request does not arrive within QUIRE_REQUEST_TIMEOUT, or that stays idle as long', async () => {
    const slow = await startTestApp({ QUIRE_REQUEST_TIMEOUT: '1' });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = slow.app.server.address() as { port: number };
      for (const sent of ['GET /healthz HTTP/1.1\r\nHost: x\r\n', '', 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n']) {
        const startedAt = Date.now();
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write(sent));
          let received = '';
          socket.on('data', (chunk) => (received += chunk));
          socket.on('close', () => resolve(received));
          socket.on('error', reject);
        });
        const waited = Date.now() - startedAt;
        expect(answer === '' || answer.startsWith('HTTP/1.1 408') || answer.startsWith('HTTP/1.1 200'), JSON.stringify(sent)).toBe(true);
        expect(waited).toBeGreaterThanOrEqual(900);
        expect(waited).toBeLessThan(15_000);
      }
    } finally {
      await stopTestApp(slow);
    }
  });

  it('never cuts an answer that takes longer than QUIRE_REQUEST_TIMEOUT to make, such as a large PDF', async () => {
    const slow = await startTestApp({ QUIRE_REQUEST_TIMEOUT: '1' });
    try {
      const { organizationId, admin } = await buildOrganization(slow);
      const as = { token: admin.token };
      const space = (await request(slow.app, 'POST', `/v1/orgs/${organizationId}/spaces`, { ...as, body: { title: 'Big' } })).body;
      const changeRequest = (await request(slow.app, 'POST', `/v1/spaces/${space.id}/change-requests`, { ...as, body: {} })).body;
      const paragraphs = Array.from({ length: 1_500 }, (_, index) => `Paragraph ${index} says something worth a reader's time.\n\n- a point\n- another`);
      await request(slow.app, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        ...as,
        body: { changes: [{ operation: 'insert_page', document: `# Big\n\n${paragraphs.join('\n\n')}` }] },
      });
      const link = await request(slow.app, 'GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`, as);
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = slow.app.server.address() as { port: number };
      const startedAt = Date.now();
      const response = await fetch(`http://127.0.0.1:${port}${new URL(link.body.url).pathname}`);
      const pdf = Buffer.from(await response.arrayBuffer());
      const took = Date.now() - startedAt;
      expect(took, 'the PDF must take longer than the timeout for this test to say anything').toBeGreaterThan(1_000);
      expect(response.status).toBe(200);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdf.subarray(-6).toString()).toMatch(/%%EOF/);
    } finally {
      await stopTestApp(slow);
    }
  });
});
