// Browser clients on other origins: allowed only for the origins QUIRE_CORS_ORIGINS names.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';

const ALLOWED = 'https://docs.example.com';
const withCors = useTestApp({ QUIRE_CORS_ORIGINS: `${ALLOWED}, http://localhost:3000` });
const withoutCors = useTestApp();

const preflight = (origin: string) => ({
  method: 'OPTIONS' as const,
  url: '/v1/orgs',
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
});

describe('CORS', () => {
  it('answers a preflight from a configured origin without a token, and marks its answers for that origin', async () => {
    const allowed = await withCors.app.inject(preflight(ALLOWED));
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(allowed.headers['access-control-allow-methods'])).toMatch(/PATCH/);
    expect(String(allowed.headers['access-control-allow-headers'])).toMatch(/Authorization/i);
    const { admin } = await buildOrganization(withCors);
    const answer = await withCors.app.inject({ method: 'GET', url: '/v1/orgs', headers: { origin: ALLOWED, authorization: `Bearer ${admin.token}` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('gives other origins nothing a browser would accept, and is off by default', async () => {
    const other = await withCors.app.inject(preflight('https://evil.example'));
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const off = await withoutCors.app.inject(preflight(ALLOWED));
    expect(off.headers['access-control-allow-origin']).toBeUndefined();
    expect(off.statusCode).toBe(404);
    expect(off.json().error.code).toBe(404);
  });

  it('points the reference\'s "Try it out" at the address it was opened at', async () => {
    const document = await withoutCors.app.inject({ method: 'GET', url: '/openapi.json', headers: { host: 'docs.internal:9000' } });
    expect(document.json().servers.map((server: { url: string }) => server.url)).toEqual(['http://docs.internal:9000', 'http://quire.test']);
  });
});
