// The official @gitbook/api client driving spaces, collections, custom fields and
// sites against a live Quire.
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { buildOrganization, type Organization } from '../helpers/factories.ts';

const testApp = useTestApp();
let api: GitBookAPI;
let organization: Organization;

beforeAll(async () => {
  const endpoint = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  organization = await buildOrganization(testApp, 'Client Content');
  api = new GitBookAPI({ endpoint, authToken: organization.admin.token });
});

afterAll(async () => {
  await testApp.app.close();
});

describe('the official client on content and sites', () => {
  it('creates, changes, moves, duplicates, deletes and restores spaces and collections', async () => {
    const { organizationId } = organization;
    const collection = await api.orgs.createCollection(organizationId, { title: 'Guides' });
    expect(collection.status).toBe(201);
    const created = await api.orgs.createSpace(organizationId, { title: 'Handbook' } as never);
    expect(created.data).toMatchObject({ title: 'Handbook', visibility: 'private' });
    const patched = await api.spaces.updateSpaceById(created.data.id, { title: 'Team handbook', editMode: 'locked' } as never);
    expect(patched.data).toMatchObject({ title: 'Team handbook', editMode: 'locked' });
    await api.spaces.moveSpace(created.data.id, { parent: collection.data.id });
    const inCollection = await api.collections.listSpacesInCollectionById(collection.data.id);
    expect(inCollection.data.items.map((s) => s.id)).toEqual([created.data.id]);
    const copy = await api.spaces.duplicateSpace(created.data.id);
    expect(copy.data.revision).toBe(created.data.revision);
    await api.spaces.deleteSpaceById(copy.data.id);
    expect((await api.spaces.getSpaceById(copy.data.id).catch((error) => error)).code).toBe(404);
    const restored = await api.spaces.restoreSpace(copy.data.id);
    expect(restored.data.id).toBe(copy.data.id);
    const collections = await api.orgs.listCollectionsInOrganizationById(organizationId);
    expect(collections.data.items.map((c) => c.title)).toEqual(['Guides']);
  });

  it('builds, publishes and reads a site', async () => {
    const { organizationId } = organization;
    const space = await api.orgs.createSpace(organizationId, { title: 'Reference' } as never);
    const site = await api.orgs.createSite(organizationId, { title: 'Developer docs', spaces: [space.data.id] } as never);
    expect(site.status).toBe(201);
    const other = await api.orgs.createSpace(organizationId, { title: 'Tutorials' } as never);
    const section = await api.orgs.addSectionToSite(organizationId, site.data.id, { spaceId: other.data.id });
    expect(section.data.siteSpaces[0].space.id).toBe(other.data.id);
    const structure = await api.orgs.getSiteStructure(organizationId, site.data.id);
    expect(structure.data.type).toBe('sections');
    await api.orgs.publishSite(organizationId, site.data.id);
    const published = await api.orgs.getPublishedContentSite(organizationId, site.data.id);
    expect(published.data.site.published).toBe(true);
    const siteSpaces = await api.orgs.listSiteSpaces(organizationId, site.data.id);
    expect(siteSpaces.data.items).toHaveLength(2);
    const updated = await api.orgs.updateSiteSpaceById(organizationId, site.data.id, siteSpaces.data.items[1].id, {
      condition: 'visitor.claims.beta == true',
    } as never);
    expect(updated.data.condition).toBe('visitor.claims.beta == true');
    const link = await api.orgs.createSiteShareLink(organizationId, site.data.id, { name: 'Preview' });
    expect(link.status).toBe(201);
  });
});
