// The official @gitbook/api client driving the organization services: SSO providers,
// OpenAPI specs, translation settings and integrations, against a live Quire.
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { buildOrganization, type Organization } from '../helpers/factories.ts';
import { createIdentityProvider } from '../helpers/saml.ts';

const testApp = useTestApp();
let endpoint: string;
let organization: Organization;
let api: GitBookAPI;

beforeAll(async () => {
  endpoint = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  organization = await buildOrganization(testApp, 'Services Org');
  api = new GitBookAPI({ endpoint, authToken: organization.admin.token });
});

afterAll(async () => {
  await testApp.app.close();
});

describe('the official @gitbook/api client on organization services', () => {
  it('manages SAML providers and lists the login choices', async () => {
    const idp = await createIdentityProvider('client-idp.test');
    const created = await api.orgs.createOrganizationSamlProvider(organization.organizationId, {
      label: 'Okta',
      entityID: idp.entityID,
      ssoURL: idp.ssoURL,
      certificate: idp.certificate,
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ object: 'saml-provider', status: 'active' });
    const updated = await api.orgs.updateOrganizationSamlProvider(organization.organizationId, created.data.id, { label: 'Azure' });
    expect(updated.data.label).toBe('Azure');
    const listed = await api.orgs.listSamlProvidersInOrganizationById(organization.organizationId);
    expect(listed.data.items.map((provider) => provider.id)).toContain(created.data.id);
    const logins = await api.orgs.listSsoProviderLoginsInOrganization(organization.organizationId);
    expect(logins.data.items).toEqual([{ id: created.data.id, label: 'Azure', startURL: created.data.service.startURL }]);
    await api.orgs.deleteOrganizationSamlProvider(organization.organizationId, created.data.id);
    expect((await api.orgs.listSamlProvidersInOrganizationById(organization.organizationId)).data.count).toBe(0);
  });

  it('creates an OpenAPI spec from text and reads its processed version', async () => {
    const text = 'openapi: 3.0.3\ninfo:\n  title: Client API\n  version: "1"\npaths: {}\n';
    const created = await api.orgs.createOpenApiSpec(organization.organizationId, { slug: 'client-api', source: { text } });
    expect(created.status).toBe(201);
    let spec = created.data;
    for (let attempt = 0; spec.processingState !== 'complete' && attempt < 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      spec = (await api.orgs.getOpenApiSpecBySlug(organization.organizationId, 'client-api')).data;
    }
    expect(spec.lastVersion).toEqual(expect.any(String));
    const versions = await api.orgs.listOpenApiSpecVersions(organization.organizationId, 'client-api');
    expect(versions.data.items[0].id).toBe(spec.lastVersion);
    const content = await api.orgs.getLatestOpenApiSpecVersionContent(organization.organizationId, 'client-api');
    expect(content.data.filesystem).toMatchObject({ info: { title: 'Client API' } });
    const same = await api.orgs.createOrUpdateOpenApiSpecBySlug(organization.organizationId, 'client-api', { source: { text } });
    expect(same.data.lastVersion).toBe(spec.lastVersion);
    await api.orgs.deleteOpenApiSpecBySlug(organization.organizationId, 'client-api');
    expect((await api.orgs.listOpenApiSpecs(organization.organizationId)).data.count).toBe(0);
  });

  it('creates, replaces and deletes translation settings', async () => {
    // The 0.143.2 client types a different translation body than the specification's.
    const created = await api.orgs.createTranslation(organization.organizationId, { title: 'Docs', languages: ['fr'] } as never);
    expect(created.data).toMatchObject({ object: 'translation-settings', title: 'Docs', languages: ['fr'] });
    const replaced = await api.orgs.updateTranslation(organization.organizationId, created.data.id, { title: 'Docs FR' } as never);
    expect(replaced.data).toMatchObject({ title: 'Docs FR' });
    expect((await api.orgs.listTranslations(organization.organizationId)).data.count).toBe(1);
    await api.orgs.deleteTranslation(organization.organizationId, created.data.id);
    expect((await api.orgs.listTranslations(organization.organizationId)).data.count).toBe(0);
  });

  it('publishes, installs on the organization and a space, and unpublishes an integration', async () => {
    const published = await api.integrations.publishIntegration('client-tool', {
      organization: organization.organizationId,
      title: 'Client tool',
      description: 'Published by the official client',
      scopes: ['space:content:read'],
      script: 'export default {};',
      configurations: { space: { properties: { mode: { type: 'string', default: 'fast' } } } },
    } as never);
    expect(published.data).toMatchObject({ object: 'integration', name: 'client-tool', version: 1 });
    const fetched = await api.integrations.getIntegrationByName('client-tool');
    expect(fetched.data.owner.id).toBe(organization.organizationId);
    const listed = await api.integrations.listIntegrations({ search: 'client-tool' });
    expect(listed.data.items.map((integration) => integration.name)).toEqual(['client-tool']);

    const installation = await api.integrations.installIntegration('client-tool', { organization: organization.organizationId });
    expect(installation.status).toBe(201);
    const patched = await api.integrations.updateIntegrationInstallation('client-tool', installation.data.id, { externalIds: ['ext-1'] });
    expect(patched.data.externalIds).toEqual(['ext-1']);
    const installations = await api.integrations.listIntegrationInstallations('client-tool', { externalId: 'ext-1' });
    expect(installations.data.items.map((item) => item.id)).toEqual([installation.data.id]);

    const space = await api.orgs.createSpace(organization.organizationId, { title: 'Client space' });
    const onSpace = await api.integrations.installIntegrationOnSpace('client-tool', installation.data.id, { space: space.data.id });
    expect(onSpace.data).toMatchObject({ space: space.data.id, configuration: { mode: 'fast' } });
    const spaces = await api.integrations.listIntegrationInstallationSpaces('client-tool', installation.data.id);
    expect(spaces.data.count).toBe(1);
    await api.integrations.uninstallIntegrationFromSpace('client-tool', installation.data.id, space.data.id);
    await api.integrations.uninstallIntegration('client-tool', installation.data.id);
    await api.integrations.unpublishIntegration('client-tool');
    expect((await api.integrations.listIntegrations({ search: 'client-tool' })).data.count).toBe(0);
  });
});
