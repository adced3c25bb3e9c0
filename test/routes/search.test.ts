import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';
import { catchUpStaleSpaces, reindexSpace } from '../../src/services/search.ts';
import { DOCUMENT_CONVERSION } from '../../src/content/gitbook/conversion.ts';

const testApp = useTestApp();

async function setup() {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const createSpace = async (title: string) =>
    (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token, body: { title } })).body.id as string;
  /** Applies changes through a change request and merges it, as a writer would. */
  const publish = async (spaceId: string, changes: object[]) => {
    const base = `/v1/spaces/${spaceId}/change-requests`;
    const changeRequest = (await request(testApp.app, 'POST', base, { token, body: {} })).body;
    const edited = await request(testApp.app, 'POST', `${base}/${changeRequest.id}/content`, { token, body: { changes } });
    expect(edited.status).toBe(200);
    const merged = await request(testApp.app, 'POST', `${base}/${changeRequest.id}/merge`, { token });
    expect(merged.body.result).toBe('merge');
    return changeRequest.id as string;
  };
  const pagesOf = async (spaceId: string) => (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/content/pages`, { token })).body.pages;
  const search = (query: string, as = token) =>
    request(testApp.app, 'GET', `/v1/orgs/${org.organizationId}/search`, { token: as, query: { query } });
  return { org, token, createSpace, publish, pagesOf, search };
}

const titlesOf = (body: any) => body.items.flatMap((space: any) => space.pages.map((page: any) => page.title));

describe('search', () => {
  it('answers spaces, pages and sections with an excerpt around the match and app URLs', async () => {
    const { createSpace, publish, search } = await setup();
    const spaceId = await createSpace('Handbook');
    await publish(spaceId, [
      { operation: 'insert_page', document: '# Getting started\n\nWelcome aboard.\n\n## Install the tools\n\nRun the installer and wait for the kettle to boil.' },
    ]);
    const found = await search('kettle');
    expect(found.status).toBe(200);
    expect(found.body.count).toBe(1);
    const [space] = found.body.items;
    expect(space).toMatchObject({ type: 'space', id: spaceId, title: 'Handbook', score: 1, urls: { app: `http://quire.test/s/${spaceId}/` } });
    const [page] = space.pages;
    expect(page).toMatchObject({
      title: 'Getting started',
      description: '',
      path: 'getting-started',
      score: 1,
      rank: 1,
      resultType: 'section',
      ancestors: [],
      urls: { app: `http://quire.test/s/${spaceId}/getting-started` },
    });
    expect(page.sections).toEqual([
      {
        id: 'install-the-tools',
        title: 'Install the tools',
        path: 'getting-started#install-the-tools',
        score: 1,
        resultType: 'section',
        body: 'Run the installer and wait for the kettle to boil.',
        urls: { app: `http://quire.test/s/${spaceId}/getting-started#install-the-tools` },
      },
    ]);
  });

  it('stems words, requires every word, keeps quoted phrases together and completes the last word', async () => {
    const { createSpace, publish, search } = await setup();
    const spaceId = await createSpace('Docs');
    await publish(spaceId, [
      { operation: 'insert_page', document: '# Deploying\n\nWe deploy the service with containers.' },
      { operation: 'insert_page', document: '# Configuration\n\nThe service reads its configuration at start.' },
      { operation: 'insert_page', document: '# Backups\n\nStart backups before the service deploys.' },
    ]);
    expect(titlesOf((await search('deploying')).body).sort()).toEqual(['Backups', 'Deploying']);
    expect(titlesOf((await search('deploy containers')).body)).toEqual(['Deploying']);
    expect(titlesOf((await search('"service reads"')).body)).toEqual(['Configuration']);
    expect(titlesOf((await search('"reads service"')).body)).toEqual([]);
    expect(titlesOf((await search('configu')).body)).toEqual(['Configuration']);
    expect(titlesOf((await search('configu ')).body)).toEqual([]);
  });

  it('ranks a match in a page title above a match in a body', async () => {
    const { createSpace, publish, search } = await setup();
    const spaceId = await createSpace('Docs');
    await publish(spaceId, [
      { operation: 'insert_page', document: '# Overview\n\nThis page mentions billing once, among many other words about the product and its parts.' },
      { operation: 'insert_page', document: '# Billing\n\nHow invoices work.' },
    ]);
    expect(titlesOf((await search('billing')).body)).toEqual(['Billing', 'Overview']);
  });

  it('follows merges: edits, deletions and renames show at once, and unchanged pages are not rewritten', async () => {
    const { createSpace, publish, pagesOf, search } = await setup();
    const spaceId = await createSpace('Docs');
    await publish(spaceId, [
      { operation: 'insert_page', document: '# Alpha\n\nThe aardvark sleeps.' },
      { operation: 'insert_page', document: '# Beta\n\nThe badger digs.' },
    ]);
    const [alpha, beta] = await pagesOf(spaceId);
    const rowIds = async (pageId: string) =>
      (await testApp.database.db.selectFrom('search_sections').select('id').where('page_id', '=', pageId).execute()).map((row) => row.id);
    const betaRows = await rowIds(beta.id);
    await publish(spaceId, [{ operation: 'update_page', page: alpha.id, document: '# Alpha\n\nThe armadillo sleeps.' }]);
    expect(titlesOf((await search('aardvark')).body)).toEqual([]);
    expect(titlesOf((await search('armadillo')).body)).toEqual(['Alpha']);
    expect(await rowIds(beta.id)).toEqual(betaRows);
    await publish(spaceId, [{ operation: 'delete_page', page: beta.id }]);
    expect(titlesOf((await search('badger')).body)).toEqual([]);
  });

  it('searches only current revisions: an open change request is not found until merged', async () => {
    const { token, createSpace, publish, search } = await setup();
    const spaceId = await createSpace('Docs');
    await publish(spaceId, [{ operation: 'insert_page', document: '# Public\n\nKnown words.' }]);
    const base = `/v1/spaces/${spaceId}/change-requests`;
    const draft = (await request(testApp.app, 'POST', base, { token, body: {} })).body;
    await request(testApp.app, 'POST', `${base}/${draft.id}/content`, { token, body: { changes: [{ operation: 'insert_page', document: '# Secret\n\nUnreleased zeppelin plans.' }] } });
    expect((await search('zeppelin')).body.count).toBe(0);
    await request(testApp.app, 'POST', `${base}/${draft.id}/merge`, { token });
    expect(titlesOf((await search('zeppelin')).body)).toEqual(['Secret']);
  });

  it('never shows what the caller cannot read, nor deleted spaces', async () => {
    const { org, token, createSpace, publish, search } = await setup();
    const open = await createSpace('Open');
    const granted = await createSpace('Granted');
    await publish(open, [{ operation: 'insert_page', document: '# Walrus\n\nWalrus facts.' }]);
    await publish(granted, [{ operation: 'insert_page', document: '# Walrus too\n\nMore walrus.' }]);
    const reader = await buildMember(testApp, org.organizationId, 'read');
    expect(titlesOf((await search('walrus', reader.token)).body).sort()).toEqual(['Walrus', 'Walrus too']);

    const guest = await buildMember(testApp, org.organizationId, 'read');
    await request(testApp.app, 'PATCH', `/v1/orgs/${org.organizationId}/members/${guest.userId}`, { token, body: { role: null } });
    expect((await search('walrus', guest.token)).body.count).toBe(0);
    await testApp.database.db
      .insertInto('content_grants')
      .values({ organization_id: org.organizationId, target_kind: 'space', target_id: granted, user_id: guest.userId, role: 'read', created_at: new Date().toISOString() })
      .execute();
    expect(titlesOf((await search('walrus', guest.token)).body)).toEqual(['Walrus too']);

    const outsider = await buildOrganization(testApp);
    expect((await search('walrus', outsider.admin.token)).status).toBe(404);
    expect((await request(testApp.app, 'GET', `/v1/spaces/${open}/search`, { token: outsider.admin.token, query: { query: 'walrus' } })).status).toBe(404);

    await request(testApp.app, 'DELETE', `/v1/spaces/${open}`, { token });
    expect(titlesOf((await search('walrus', reader.token)).body)).toEqual(['Walrus too']);
    await request(testApp.app, 'POST', `/v1/spaces/${open}/restore`, { token });
    expect(titlesOf((await search('walrus', reader.token)).body).sort()).toEqual(['Walrus', 'Walrus too']);
  });

  it('searches one space with GET /v1/spaces/{spaceId}/search, pages paginated', async () => {
    const { token, createSpace, publish } = await setup();
    const spaceId = await createSpace('Docs');
    const other = await createSpace('Other');
    await publish(spaceId, [1, 2, 3].map((n) => ({ operation: 'insert_page', document: `# Otter ${n}\n\nOtters swim.` })));
    await publish(other, [{ operation: 'insert_page', document: '# Otter elsewhere\n\nOtters swim.' }]);
    const first = await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/search`, { token, query: { query: 'otter', limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items).toHaveLength(2);
    const rest = await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/search`, { token, query: { query: 'otter', limit: 2, page: first.body.next.page } });
    expect([...first.body.items, ...rest.body.items].map((page: any) => page.title).sort()).toEqual(['Otter 1', 'Otter 2', 'Otter 3']);
  });

  it('follows a merge of a page with more sections than one transaction writes: every new section once, none of the old', async () => {
    const { createSpace, publish, pagesOf, search } = await setup();
    const spaceId = await createSpace('Sections');
    const sectioned = (word: string, count: number) =>
      `# Handbook\n\n${Array.from({ length: count }, (_, index) => `## ${word} ${index}\n\nThe ${word} rule number ${index}.`).join('\n\n')}`;
    await publish(spaceId, [{ operation: 'insert_page', document: sectioned('falcon', 1_000) }]);
    const [page] = await pagesOf(spaceId);
    await publish(spaceId, [{ operation: 'update_page', page: page.id, document: sectioned('heron', 700) }]);
    const db = testApp.database.db;
    const rows = await db.selectFrom('search_sections').select(['section_index', 'body']).where('page_id', '=', page.id).execute();
    expect(new Set(rows.map((row) => row.section_index)).size).toBe(rows.length);
    expect(rows.some((row) => row.body.includes('falcon'))).toBe(false);
    expect(rows.filter((row) => row.body.includes('heron rule'))).toHaveLength(700);
    expect(titlesOf((await search('falcon')).body)).toEqual([]);
    expect(titlesOf((await search('"heron rule number 699"')).body)).toEqual(['Handbook']);
    const state = await db.selectFrom('search_state').select('revision_id').where('space_id', '=', spaceId).executeTakeFirstOrThrow();
    const space = await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
    expect(state.revision_id).toBe(space.revision_id);
  });

  it('reindexes a space anew in batches: every page found again, pages that are gone no longer, and large pages too', async () => {
    const { createSpace, publish, search } = await setup();
    const spaceId = await createSpace('Batches');
    for (let batch = 0; batch < 3; batch++) {
      await publish(spaceId, Array.from({ length: 50 }, (_, index) => ({ operation: 'insert_page', document: `# Lantern ${batch * 50 + index}\n\nA lantern page.` })));
    }
    // A page of about 100 KB: its sections are made on a worker thread.
    await publish(spaceId, [{ operation: 'insert_page', document: `# Almanac\n\n${'Tides and moons. '.repeat(6_000)}\n\n## Harbour\n\nA quay of granite.` }]);
    const db = testApp.database.db;
    const { organization_id } = await db.selectFrom('spaces').select('organization_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
    await db.insertInto('search_sections').values({
      organization_id, space_id: spaceId, page_id: 'gone', section_index: 0, anchor: '', page_title: 'Ghost lantern', page_path: 'ghost', heading: '', body: 'lantern',
    }).execute();
    const pages = await reindexSpace(db, spaceId);
    expect(pages).toBe(151);
    const state = await db.selectFrom('search_state').select('revision_id').where('space_id', '=', spaceId).executeTakeFirstOrThrow();
    const space = await db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
    expect(state.revision_id).toBe(space.revision_id);
    const indexedPages = await db.selectFrom('search_sections').select('page_id').distinct().where('space_id', '=', spaceId).execute();
    expect(indexedPages).toHaveLength(151);
    expect(titlesOf((await search('granite quay')).body)).toEqual(['Almanac']);
    expect(titlesOf((await search('ghost')).body)).toEqual([]);
    expect(titlesOf((await search('"Lantern 149"')).body)).toEqual(['Lantern 149']);
  });

  it('indexes anew, at the start\'s catch-up, a space an earlier conversion indexed: what this Quire reads in its pages is found, the old sections no longer', async () => {
    const { createSpace, publish, search } = await setup();
    const spaceId = await createSpace('Upgraded');
    await publish(spaceId, [{ operation: 'insert_page', document: '# Sextant\n\nAn instrument of brass.' }]);
    const db = testApp.database.db;
    // What an earlier version of Quire had made of the page.
    await db.updateTable('search_sections').set({ body: 'An instrument of copper.' }).where('space_id', '=', spaceId).execute();
    await db.updateTable('search_state').set({ conversion: DOCUMENT_CONVERSION - 1 }).where('space_id', '=', spaceId).execute();
    expect(titlesOf((await search('copper')).body)).toEqual(['Sextant']);
    await catchUpStaleSpaces(testApp.app.ctx);
    expect(titlesOf((await search('copper')).body)).toEqual([]);
    expect(titlesOf((await search('brass')).body)).toEqual(['Sextant']);
    const state = await db.selectFrom('search_state').select('conversion').where('space_id', '=', spaceId).executeTakeFirstOrThrow();
    expect(state.conversion).toBe(DOCUMENT_CONVERSION);
  });

  it("finds an organization's pages among other organizations' pages of the same words, and follows a space to the organization it moves to", async () => {
    const ours = await setup();
    const theirs = await setup();
    const crowded = await theirs.createSpace('Crowded');
    // More sections with the word elsewhere than the body search ranks.
    for (let batch = 0; batch < 21; batch++) {
      await theirs.publish(crowded, Array.from({ length: 50 }, (_, index) => ({ operation: 'insert_page', document: `# Beacon ${batch}-${index}\n\nA beacon burns.` })));
    }
    const mine = await ours.createSpace('Mine');
    await ours.publish(mine, [{ operation: 'insert_page', document: '# Harbour\n\nOne beacon on the mole.' }]);
    expect(titlesOf((await ours.search('beacon')).body)).toEqual(['Harbour']);
    expect(titlesOf((await ours.search('burns')).body)).toEqual([]);

    const invite = await request(testApp.app, 'POST', `/v1/orgs/${ours.org.organizationId}/link-invites`, { token: ours.token, body: { role: 'admin' } });
    await request(testApp.app, 'POST', `/v1/orgs/${ours.org.organizationId}/invites/${invite.body.id}`, { token: theirs.token });
    const moved = await request(testApp.app, 'POST', `/v1/spaces/${crowded}/transfer`, { token: theirs.token, body: { organization: ours.org.organizationId } });
    expect(moved.status).toBe(200);
    expect((await ours.search('burns')).body.items.map((space: any) => space.id)).toEqual([crowded]);
    expect((await theirs.search('burns')).body.items).toEqual([]);
    const spaceSearch = await request(testApp.app, 'GET', `/v1/spaces/${mine}/search`, { token: ours.token, query: { query: 'beacon' } });
    expect(spaceSearch.body.items.map((page: any) => page.title)).toEqual(['Harbour']);
  });

  it('refuses a missing or over-long query with 400 and answers punctuation with nothing', async () => {
    const { org, token, search } = await setup();
    const missing = await request(testApp.app, 'GET', `/v1/orgs/${org.organizationId}/search`, { token });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/query/);
    expect((await search('x'.repeat(513))).status).toBe(400);
    const punctuation = await search('"*" OR ( NEAR ) : -');
    expect(punctuation.status).toBe(200);
    expect(punctuation.body.count).toBe(0);
  });
});
