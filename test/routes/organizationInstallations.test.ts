// GET /v1/orgs/{organizationId}/installations (GitBook's listOrganizationInstallations):
// what an organization's administrators manage, whoever published the integrations.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';

const testApp = useTestApp({ QUIRE_DATA_DIR: mkdtempSync(join(tmpdir(), 'quire-org-installations-')) });

async function publish(publisher: Organization, name: string) {
  const published = await request(testApp.app, 'POST', `/v1/integrations/${name}`, {
    token: publisher.admin.token,
    body: {
      organization: publisher.organizationId,
      title: 'Analytics',
      description: 'Counts the readers of your docs',
      visibility: 'public',
      scopes: [],
      script: 'export default { fetch() { return new Response("ok"); } };',
    },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

describe('the installations of an organization', () => {
  it('lists each installation in the organization with its integration, published by another organization or its own', async () => {
    const publisher = await buildOrganization(testApp, 'Tools Inc');
    const customer = await buildOrganization(testApp, 'Acme');
    await publish(publisher, 'org-list-analytics');
    await publish(customer, 'org-list-internal');
    const installed = [];
    for (const name of ['org-list-analytics', 'org-list-internal']) {
      const installation = await request(testApp.app, 'POST', `/v1/integrations/${name}/installations`, {
        token: customer.admin.token,
        body: { organization: customer.organizationId },
      });
      expect(installation.status).toBe(201);
      installed.push(installation.body.id);
    }
    await request(testApp.app, 'POST', '/v1/integrations/org-list-analytics/installations', {
      token: publisher.admin.token,
      body: { organization: publisher.organizationId },
    });

    const list = await request(testApp.app, 'GET', `/v1/orgs/${customer.organizationId}/installations`, { token: customer.admin.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: { installation: { id: string } }) => item.installation.id).sort()).toEqual([...installed].sort());
    for (const item of list.body.items) {
      expect(item.installation.target).toEqual({ organization: customer.organizationId });
      expect(item.integration).toMatchObject({ object: 'integration', title: 'Analytics' });
    }
    expect(list.body.items.map((item: { integration: { name: string } }) => item.integration.name).sort()).toEqual(['org-list-analytics', 'org-list-internal']);
  });

  it('answers an empty list for an organization with nothing installed', async () => {
    const organization = await buildOrganization(testApp);
    const list = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/installations`, { token: organization.admin.token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
  });

  it('is for administrators: a member below admin is refused in words, another organization is told of none', async () => {
    const organization = await buildOrganization(testApp);
    const creator = await buildMember(testApp, organization.organizationId, 'create');
    const refused = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/installations`, { token: creator.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/administrators/);
    const outsider = await buildOrganization(testApp);
    const hidden = await request(testApp.app, 'GET', `/v1/orgs/${organization.organizationId}/installations`, { token: outsider.admin.token });
    expect(hidden.status).toBe(404);
  });
});
