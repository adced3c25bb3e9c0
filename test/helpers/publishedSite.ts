// A published site to read: a space of four pages on a site, published as asked.
import { parseHTML } from 'linkedom';
import { expect } from 'vitest';
import { request, type TestApp } from './app.ts';
import { buildOrganization } from './factories.ts';

export type Visibility = 'public' | 'share-link' | 'visitor-auth';

/** A space of three pages (one with a sub-page, one hidden) on a site, published as `visibility`. */
export async function publishSampleSite(testApp: TestApp, visibility: Visibility = 'public') {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const call = (method: string, path: string, body?: object) => request(testApp.app, method as 'GET', path, { token, body });
  const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Handbook' })).body;
  const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
  const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    changes: [
      { operation: 'insert_page', ref: 'start', document: '# Start here\n\nWelcome. Read [the setup](setup.md#tools).\n\n## First steps\n\n{% hint style="info" %}\nTake your time.\n{% endhint %}' },
      { operation: 'insert_page', into: 'start', document: '# Setup\n\n## Tools\n\n```bash\nnpm install\n```' },
      { operation: 'insert_page', document: '# Reference\n\n<script>alert(1)</script> stays text.\n\n{% if visitor.claims.plan == "pro" %}\nPro plans get a dedicated region.\n{% endif %}\n\n{% if visitor.claims.( %}\nNever shown.\n{% endif %}' },
      { operation: 'insert_page', document: '# Drafts\n\nSecret plans.', hidden: true },
    ],
  });
  expect(edited.status).toBe(200);
  await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  const sites = `/v1/orgs/${org.organizationId}/sites`;
  const site = (await call('POST', sites, { title: 'Acme Docs' })).body;
  expect((await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id })).status).toBe(201);
  await call('PATCH', `${sites}/${site.id}`, { visibility });
  const published = (await call('POST', `${sites}/${site.id}/publish`)).body;
  const path = new URL(published.urls.published).pathname;
  const open = async (url: string, headers: Record<string, string> = {}) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers });
    return { response, document: parseHTML(response.body).document };
  };
  return { org, call, sites, site, space, path, open };
}

