import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { revokeToken } from '../../src/services/users.ts';

const testApp = useTestApp();

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a non-bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer token', 'Bearer '],
    ['an unknown token', 'Bearer quire_not-a-real-token'],
  ])('answers 401 with the error shape for %s', async (_case, header) => {
    const response = await request(testApp.app, 'GET', '/v1/user', { headers: header ? { authorization: header } : {} });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 401, message: expect.any(String) } });
  });

  it('answers the caller on /v1/user', async () => {
    const { admin } = await buildOrganization(testApp);
    const response = await request(testApp.app, 'GET', '/v1/user', { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      object: 'user',
      id: admin.userId,
      displayName: 'Ada Admin',
      email: admin.email,
      urls: { location: `http://quire.test/v1/users/${admin.userId}` },
    });
  });

  it('takes a revoked token away at once', async () => {
    const { admin } = await buildOrganization(testApp);
    expect((await request(testApp.app, 'GET', '/v1/orgs', { token: admin.token })).status).toBe(200);
    expect(await revokeToken(testApp.database.db, testApp.clock, { token: admin.token })).toBe(true);
    const after = await request(testApp.app, 'GET', '/v1/orgs', { token: admin.token });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
  });

  it('shows a user only to people who share an organization with them', async () => {
    const { organizationId, admin } = await buildOrganization(testApp);
    const colleague = await buildMember(testApp, organizationId, 'read');
    const stranger = await buildOrganization(testApp);
    const seen = await request(testApp.app, 'GET', `/v1/users/${colleague.userId}`, { token: admin.token });
    expect(seen.status).toBe(200);
    expect(seen.body.id).toBe(colleague.userId);
    const hidden = await request(testApp.app, 'GET', `/v1/users/${colleague.userId}`, { token: stranger.admin.token });
    expect(hidden.status).toBe(404);
  });

  it('checks the token before reading the body, so strangers cannot probe validation', async () => {
    const response = await request(testApp.app, 'POST', '/v1/orgs', { body: { title: 1 } });
    expect(response.status).toBe(401);
  });
});
