import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../src/jobs/handlers.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { eventsDelivered, request, useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { expectGitBookAnswer } from '../helpers/gitbookContract.ts';

const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
let site: Server;
let siteUrl: string;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

beforeAll(async () => {
  site = createServer((incoming, response) => {
    if (incoming.url === '/ok') return response.end('fine');
    if (incoming.url === '/head-refused') {
      response.writeHead(incoming.method === 'HEAD' ? 405 : 200);
      return response.end();
    }
    if (incoming.url === '/slow') return;
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

async function setup() {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const createSpace = async (title: string) =>
    (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token, body: { title } })).body.id as string;
  const spaceId = await createSpace('Docs');
  const otherSpace = await createSpace('Other');
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const open = async (changes: object[]) => {
    const changeRequest = (await request(testApp.app, 'POST', base, { token, body: {} })).body;
    const edited = await request(testApp.app, 'POST', `${base}/${changeRequest.id}/content`, { token, body: { changes } });
    expect(edited.status).toBe(200);
    return changeRequest.id as string;
  };
  const merge = async (changeRequestId: string) => {
    const merged = await request(testApp.app, 'POST', `${base}/${changeRequestId}/merge`, { token });
    await eventsDelivered(testApp);
    return merged;
  };
  return { org, token, spaceId, otherSpace, base, open, merge };
}

/** A target's page, file or space: an object where the revision has it, an id where it lacks it. */
const idOf = (value: any) => (typeof value === 'object' && value !== null ? value.id : value);
const byTarget = (items: any[]) =>
  Object.fromEntries(
    items.map((item) => {
      const target = item.targetReference;
      const anchor = target.anchor ?? target.internalLocation?.anchor;
      return [target.url ?? `${target.kind}:${idOf(target.page ?? target.file ?? target.space)}${anchor ? `#${anchor}` : ''}`, item.status];
    }),
  );

describe('links and backlinks', () => {
  it('reads every kind of link from the markdown and tells ok from broken, checking external URLs in the background', async () => {
    const { token, spaceId, otherSpace, open, merge } = await setup();
    const first = await open([
      { operation: 'insert_files', files: [{ name: 'dot.png', base64: PNG, ref: 'dot' }] },
      { operation: 'insert_page', document: '# Beta\n\n## Setup\n\nSteps.' },
    ]);
    await merge(first);
    const pages = (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/content/pages`, { token })).body.pages;
    const beta = pages[0].id;
    const fileId = (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/content/files`, { token })).body.items[0].id;
    const second = await open([
      {
        operation: 'insert_page',
        document: [
          '# Alpha',
          '',
          '## Intro',
          '',
          `[beta](beta.md) [setup](beta.md#setup) [nope](beta.md#nope) [by id](/pages/${beta}) [missing](missing.md) [here](#intro) [nowhere](#nowhere)`,
          '',
          `![dot](/files/${fileId}) [gone file](/files/doesNotExist) [other](/s/${otherSpace}) [gone space](/s/noSuchSpace)`,
          '',
          `[ok](${siteUrl}/ok) [gone](${siteUrl}/gone) [slow](${siteUrl}/slow) [head refused](${siteUrl}/head-refused) [app](http://quire.test/s/${spaceId}/beta) [mail](mailto:a@b.test)`,
          '',
          '[ref link][r]',
          '',
          `[r]: ${siteUrl}/ok`,
        ].join('\n'),
      },
    ]);
    await merge(second);
    const alpha = (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/content/pages`, { token })).body.pages.find((page: any) => page.title === 'Alpha').id;

    const before = await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/links`, { token });
    expect(before.status).toBe(200);
    expect(byTarget(before.body.items)).toEqual({
      [`page:${beta}`]: 'ok',
      [`page:${beta}#setup`]: 'ok',
      [`page:${beta}#nope`]: 'broken',
      'missing.md': 'broken',
      [`page:${alpha}#intro`]: 'ok',
      [`page:${alpha}#nowhere`]: 'broken',
      [`file:${fileId}`]: 'ok',
      '/files/doesNotExist': 'broken',
      [`space:${otherSpace}`]: 'ok',
      'http://quire.test/s/noSuchSpace/': 'broken',
      [`${siteUrl}/ok`]: 'ok',
      [`${siteUrl}/gone`]: 'ok',
      [`${siteUrl}/slow`]: 'ok',
      [`${siteUrl}/head-refused`]: 'ok',
      [`http://quire.test/s/${spaceId}/beta`]: 'in-app',
      'mailto:a@b.test': 'ok',
    });
    const image = before.body.items.find((item: any) => item.targetReference.file?.id === fileId);
    // Named by objects, as GitBook's ContentLocation: the organization, the space, the revision read, the page, the file.
    const revision = (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}`, { token })).body.revision;
    expect(image).toMatchObject({
      relation: 'dependsOn',
      targetReference: { kind: 'file', organization: { object: 'organization' }, space: { object: 'space', id: spaceId }, file: { id: fileId, name: 'dot.png' } },
      locationReferences: [
        { kind: 'page', organization: { object: 'organization' }, space: { id: spaceId }, page: { id: alpha, title: 'Alpha', path: 'alpha', kind: 'sheet' }, versionContext: { type: 'revision', revision: { object: 'revision', id: revision } } },
      ],
    });
    expectGitBookAnswer('listSpaceLinks', before.body, { version: '0.143.2' });

    // The checker runs as a durable job; a second listing does not queue the same URLs again.
    await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/links`, { token });
    expect(await runDueJobs(testApp.app.ctx, jobHandlers)).toBe(1);
    const after = byTarget((await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/links`, { token })).body.items);
    expect([after[`${siteUrl}/ok`], after[`${siteUrl}/gone`], after[`${siteUrl}/slow`], after[`${siteUrl}/head-refused`]]).toEqual(['ok', 'broken', 'broken', 'ok']);
    expect(await runDueJobs(testApp.app.ctx, jobHandlers)).toBe(0);

    const broken = await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/links`, { token, query: { status: 'broken' } });
    expect(broken.body.items.every((item: any) => item.status === 'broken')).toBe(true);
    expect(broken.body.count).toBe(7);
    expect(broken.body.stats).toEqual({ total: 16, broken: { total: 7, changeRequest: 0 } });
  }, 30_000);

  it('counts broken links of open change requests, lists a page\'s links and a file\'s backlinks in a change request', async () => {
    const { token, spaceId, base, open, merge } = await setup();
    await merge(await open([{ operation: 'insert_files', files: [{ name: 'dot.png', base64: PNG }] }]));
    const fileId = (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/content/files`, { token })).body.items[0].id;
    const draft = await open([
      { operation: 'insert_page', document: `# Uses\n\n![dot](/files/${fileId}) [missing](missing.md)` },
      { operation: 'insert_page', document: `# Also\n\n[download](/files/${fileId})` },
      { operation: 'insert_page', document: '# Plain\n\nNo links.' },
    ]);
    const stats = (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/links`, { token })).body.stats;
    expect(stats).toEqual({ total: 0, broken: { total: 0, changeRequest: 1 } });

    const pages = (await request(testApp.app, 'GET', `${base}/${draft}/content/pages`, { token })).body.pages;
    const uses = pages.find((page: any) => page.title === 'Uses').id;
    const links = await request(testApp.app, 'GET', `${base}/${draft}/content/page/${uses}/links`, { token });
    expect(links.status).toBe(200);
    expect(links.body.items.map((item: any) => item.status).sort()).toEqual(['broken', 'ok']);
    expect(links.body.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 1 } });
    expectGitBookAnswer('listPageLinksInChangeRequest', links.body, { version: '0.143.2' });
    // Inside a change request the version read is the change request.
    expect(links.body.items[0].locationReferences[0].versionContext).toMatchObject({ type: 'changeRequest', changeRequest: { object: 'change-request', id: draft } });

    const backlinks = await request(testApp.app, 'GET', `${base}/${draft}/content/files/${fileId}/backlinks`, { token });
    expect(backlinks.status).toBe(200);
    expect(backlinks.body.items.map((item: any) => item.page.title).sort()).toEqual(['Also', 'Uses']);
    expectGitBookAnswer('listChangeRequestFileBacklinks', backlinks.body, { version: '0.143.2' });
    expect((await request(testApp.app, 'GET', `${base}/${draft}/content/files/nope/backlinks`, { token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `${base}/${draft}/content/page/nope/links`, { token })).status).toBe(404);
  });

  it('hides links from people outside the space', async () => {
    const { spaceId } = await setup();
    const outsider = await buildOrganization(testApp);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/links`, { token: outsider.admin.token })).status).toBe(404);
  });
});
