import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { pdfText } from '../helpers/pdf.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp({ QUIRE_PDF_MAX_PAGES: '10', QUIRE_PDF_MAX_TEXT: '100kb' });

async function setup() {
  const org = await buildOrganization(testApp);
  const space = (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token: org.admin.token, body: { title: 'Docs' } })).body;
  const base = `/v1/spaces/${space.id}`;
  const token = org.admin.token;
  const openChangeRequest = async (as = token) => (await request(testApp.app, 'POST', `${base}/change-requests`, { token: as, body: {} })).body;
  const edit = (changeRequestId: string, changes: object[], as = token) =>
    request(testApp.app, 'POST', `${base}/change-requests/${changeRequestId}/content`, { token: as, body: { changes } });
  const merge = (changeRequestId: string, as = token) => request(testApp.app, 'POST', `${base}/change-requests/${changeRequestId}/merge`, { token: as });
  const update = (changeRequestId: string) => request(testApp.app, 'POST', `${base}/change-requests/${changeRequestId}/update`, { token });
  const pages = async (path = `${base}/content/pages`) => (await request(testApp.app, 'GET', path, { token })).body.pages;
  const page = async (pageId: string, path = `${base}/content`) => (await request(testApp.app, 'GET', `${path}/page/${pageId}`, { token })).body;
  return { org, space, base, token, openChangeRequest, edit, merge, update, pages, page };
}

const LINES = 'one\ntwo\nthree\nfour\nfive';

describe('writing content through change requests', () => {
  it('inserts pages (titles from headings, nesting through refs) and publishes them with a fast-forward merge', async () => {
    const { base, openChangeRequest, edit, merge, pages, page, space, token } = await setup();
    const changeRequest = await openChangeRequest();
    const edited = await edit(changeRequest.id, [
      { operation: 'insert_page', ref: 'guide', document: { markdown: '# Getting started\n\nWelcome.' } },
      { operation: 'insert_page', into: 'guide', document: 'Install it.', title: 'Install', emoji: '📦' },
    ]);
    expect(edited.status).toBe(200);
    expect(edited.body.revision).not.toBe(changeRequest.revision);
    const proposed = await pages(`${base}/change-requests/${changeRequest.id}/content/pages`);
    expect(proposed).toMatchObject([
      { title: 'Getting started', slug: 'getting-started', path: 'getting-started', pages: [{ title: 'Install', path: 'getting-started/install', emoji: '📦' }] },
    ]);
    expect(await pages()).toEqual([]);
    const merged = await merge(changeRequest.id);
    expect(merged.body).toEqual({ revision: edited.body.revision, result: 'merge' });
    const live = await pages();
    expect(live.map((p: any) => p.title)).toEqual(['Getting started']);
    const started = await page(live[0].id);
    expect(started.markdown).toBe('Welcome.');
    const byPath = await request(testApp.app, 'GET', `${base}/content/path/getting-started/install`, { token });
    expect(byPath.body).toMatchObject({ title: 'Install', markdown: 'Install it.' });
    const asDocument = await request(testApp.app, 'GET', `${base}/content/page/${live[0].id}`, { token, query: { format: 'document' } });
    expect(asDocument.body.markdown).toBeUndefined();
    expect(asDocument.body.document).toMatchObject({ object: 'document', nodes: [{ object: 'block', type: 'paragraph' }] });
    const after = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}`, { token });
    expect(after.body).toMatchObject({ status: 'merged', revisionMerged: edited.body.revision, outdated: false });
    const spaceNow = await request(testApp.app, 'GET', base, { token });
    expect(spaceNow.body.revision).toBe(edited.body.revision);
    expect(spaceNow.body.revision).not.toBe(space.revision);
    const revision = await request(testApp.app, 'GET', `${base}/revisions/${space.revision}/pages`, { token });
    expect(revision.body.pages).toEqual([]);
    expect((await merge(changeRequest.id)).status).toBe(409);
    expect((await edit(changeRequest.id, [{ operation: 'delete_page', page: live[0].id }])).status).toBe(409);
  });

  it('lists a large nested tree whole, in order, with the byte length it sends', async () => {
    const { base, openChangeRequest, edit, merge, pages, token } = await setup();
    const changeRequest = await openChangeRequest();
    await edit(changeRequest.id, [{ operation: 'insert_page', type: 'group', title: 'Référence 📚' }]);
    const [{ id: groupId }] = await pages(`${base}/change-requests/${changeRequest.id}/content/pages`);
    const changes = [
      ...Array.from({ length: 150 }, (_, index) => ({ operation: 'insert_page', into: groupId, title: `Entrée ${index}`, document: `Text ${index}.` })),
      ...Array.from({ length: 80 }, (_, index) => ({ operation: 'insert_page', title: `Top ${index}`, document: `Top ${index}.` })),
    ];
    for (let start = 0; start < changes.length; start += 50) expect((await edit(changeRequest.id, changes.slice(start, start + 50))).status).toBe(200);
    expect((await merge(changeRequest.id)).status).toBe(200);
    // The page list is presented page by page as it is written, the revision whole: the same pages.
    expect(await pages()).toEqual((await request(testApp.app, 'GET', `${base}/content`, { token })).body.pages);
    for (const path of [`${base}/content/pages`, `${base}/content`]) {
      const answer = await request(testApp.app, 'GET', path, { token });
      expect(answer.status).toBe(200);
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(answer.body)));
      const [group, ...top] = answer.body.pages;
      expect(group).toMatchObject({ title: 'Référence 📚', type: 'group' });
      expect(group.pages.map((page: { title: string }) => page.title)).toEqual(Array.from({ length: 150 }, (_, index) => `Entrée ${index}`));
      expect(group.pages[149]).toMatchObject({ path: 'reference/entree-149', kind: 'sheet', pages: [] });
      expect(top.map((page: { title: string }) => page.title)).toEqual(Array.from({ length: 80 }, (_, index) => `Top ${index}`));
    }
  });

  it('answers a list of 600 pages (over 256 KB of JSON) as it is after each merge, and each space its own', async () => {
    const { base, space, openChangeRequest, edit, merge, pages, token } = await setup();
    const changeRequest = await openChangeRequest();
    const body = 'Words about the topic at hand. '.repeat(4);
    for (let start = 0; start < 600; start += 50) {
      await edit(changeRequest.id, Array.from({ length: 50 }, (_, index) => ({ operation: 'insert_page', title: `A page with a long title, number ${start + index}`, description: body, document: `Page ${start + index}.` })));
    }
    await merge(changeRequest.id);
    const listed = await request(testApp.app, 'GET', `${base}/content/pages`, { token });
    expect(Number(listed.headers['content-length'])).toBeGreaterThan(256_000);
    expect(listed.body.pages).toHaveLength(600);
    const copy = (await request(testApp.app, 'POST', `${base}/duplicate`, { token })).body;
    expect((await pages(`/v1/spaces/${copy.id}/content/pages`))[0].urls.app).toContain(`/s/${copy.id}/`);
    const removal = await openChangeRequest();
    await edit(removal.id, [{ operation: 'delete_page', page: listed.body.pages[0].id }]);
    await merge(removal.id);
    const after = await pages();
    expect(after).toHaveLength(599);
    expect(after[0].urls.app).toContain(`/s/${space.id}/`);
  });

  it("lists and answers a copy's pages at the copy's own address, though the copy shares the original's revision", async () => {
    const { base, space, openChangeRequest, edit, merge, pages, token } = await setup();
    const changeRequest = await openChangeRequest();
    await edit(changeRequest.id, [{ operation: 'insert_page', document: '# Home\n\nHello.' }]);
    await merge(changeRequest.id);
    const [home] = await pages();
    expect(home.urls.app).toBe(`http://quire.test/s/${space.id}/home`);
    const page = async (spaceId: string, format: string) => (await request(testApp.app, 'GET', `/v1/spaces/${spaceId}/content/page/${home.id}?format=${format}`, { token })).body;
    expect(await page(space.id, 'markdown')).toMatchObject({ markdown: 'Hello.', urls: { app: `http://quire.test/s/${space.id}/home` } });
    const asDocument = await page(space.id, 'document');
    expect(asDocument.markdown).toBeUndefined();
    expect(asDocument.document.nodes[0]).toMatchObject({ type: 'paragraph' });
    const copy = (await request(testApp.app, 'POST', `${base}/duplicate`, { token })).body;
    const copied = await pages(`/v1/spaces/${copy.id}/content/pages`);
    expect(copied).toMatchObject([{ title: 'Home', urls: { app: `http://quire.test/s/${copy.id}/home` } }]);
    expect(await page(copy.id, 'markdown')).toMatchObject({ markdown: 'Hello.', urls: { app: `http://quire.test/s/${copy.id}/home` } });
    expect((await page(copy.id, 'document')).urls.app).toBe(`http://quire.test/s/${copy.id}/home`);
  });

  it("answers a page with its document as the revision's files make it: an image in Git Sync's assets folder, named before its file was uploaded, refers to the file once it is", async () => {
    const { base, openChangeRequest, edit, merge, pages, token } = await setup();
    const first = await openChangeRequest();
    await edit(first.id, [{ operation: 'insert_page', document: '# Home\n\n![Logo](.gitbook/assets/logo.png)' }]);
    await merge(first.id);
    const [home] = await pages();
    const imageRef = async () => JSON.stringify((await request(testApp.app, 'GET', `${base}/content/page/${home.id}?format=document`, { token })).body.document).match(/"ref":(\{[^}]*\})/)?.[1];
    expect(await imageRef()).toBe('{"kind":"url","url":".gitbook/assets/logo.png"}');
    const second = await openChangeRequest();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    await edit(second.id, [{ operation: 'insert_files', files: [{ name: 'logo.png', base64: png }] }]);
    await merge(second.id);
    expect(await imageRef()).toMatch(/^\{"kind":"file","file":"[^"]+"\}$/);
  });

  it("resolves a page document's links in the revision read: once the page a link names takes another slug, the same content's link is its URL again", async () => {
    const { base, openChangeRequest, edit, merge, pages, token } = await setup();
    const changeRequest = await openChangeRequest();
    await edit(changeRequest.id, [
      { operation: 'insert_page', document: '# Guide\n\nSee [install](install.md).' },
      { operation: 'insert_page', document: '# Install\n\nSteps.' },
    ]);
    await merge(changeRequest.id);
    const [guide, install] = await pages();
    const linkIn = async (path: string) => JSON.stringify((await request(testApp.app, 'GET', path, { token })).body).match(/"ref":(\{[^}]*\})/)?.[1];
    const before = (await request(testApp.app, 'GET', base, { token })).body.revision;
    expect(await linkIn(`${base}/content/page/${guide.id}/document`)).toBe(`{"kind":"page","page":"${install.id}"}`);
    const rename = await openChangeRequest();
    await edit(rename.id, [{ operation: 'update_page', page: install.id, slug: 'installation' }]);
    await merge(rename.id);
    expect(await linkIn(`${base}/content/page/${guide.id}/document`)).toBe('{"kind":"url","url":"install.md"}');
    expect(await linkIn(`${base}/documents/${guide.documentId}`)).toBe('{"kind":"url","url":"install.md"}');
    expect(await linkIn(`${base}/revisions/${before}/page/${guide.id}/document`)).toBe(`{"kind":"page","page":"${install.id}"}`);
  });

  it('reads page metadata from front matter, which wins over the fields, as Git Sync does', async () => {
    const { base, token, openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    const edited = await edit(changeRequest.id, [
      {
        operation: 'insert_page',
        title: 'Ignored',
        document: '---\ntitle: From front matter\ndescription: A summary\nemoji: "📘"\nhidden: true\n---\n# Heading too\n\nBody.',
      },
    ]);
    expect(edited.status).toBe(200);
    const [page] = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    expect(page).toMatchObject({ title: 'From front matter', description: 'A summary', emoji: '📘', hidden: true, slug: 'from-front-matter' });
    const full = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/page/${page.id}`, { token });
    expect(full.body.markdown).toBe('# Heading too\n\nBody.');
    for (const document of ['---\ntitle: [unclosed\n---\nx', '---\nhidden: "yes"\n---\nx']) {
      expect((await edit(changeRequest.id, [{ operation: 'insert_page', document }])).status, document).toBe(400);
    }
  });

  it("gives a new page GitBook's slug for its title: & is \"and\", an apostrophe goes", async () => {
    const { base, token, openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    const edited = await edit(changeRequest.id, [
      { operation: 'insert_page', title: 'Guides & FAQ', document: 'x' },
      { operation: 'insert_page', title: 'GitBook’s editor, the site\'s theme', document: 'x' },
    ]);
    expect(edited.status).toBe(200);
    const pages = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    expect(pages.map((page: { slug: string }) => page.slug)).toEqual(['guides-and-faq', 'gitbooks-editor-the-sites-theme']);
  });

  it("takes the slugs GitBook gives pages from their files' names, dots and plus signs too, and refuses one a site would read as another page's markdown or as a step up its path, saying what a slug may be", async () => {
    const { base, token, openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    const slugs = ['performance.now-+-force-heavy-task', '.pyc', 'vmware-esx-vcenter...', 'disable_functions-php-5.x'];
    const edited = await edit(changeRequest.id, slugs.map((slug) => ({ operation: 'insert_page', document: `# ${slug}`, slug })));
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const pages = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    expect(pages.map((page: { path: string }) => page.path)).toEqual(slugs);
    expect((await edit(changeRequest.id, [{ operation: 'insert_page', document: '# Long', slug: 'x'.repeat(101) }])).status).toBe(400);
    for (const slug of ['notes.md', 'NOTES.MD', '..', '.', '+-+', 'a/b', 'a b']) {
      const refused = await edit(changeRequest.id, [{ operation: 'insert_page', document: '# Refused', slug }]);
      expect(refused.status, slug).toBe(400);
      expect(refused.body.error.message, slug).toMatch(/slug .*letters, digits and \. _ \+ -, at most 100, with a letter or digit, not ending in \.md/);
    }
    const renamed = await edit(changeRequest.id, [{ operation: 'update_page', page: pages[0].id, slug: 'ld.so.conf' }]);
    expect(renamed.status).toBe(200);
    expect((await edit(changeRequest.id, [{ operation: 'update_page', page: pages[0].id, slug: 'page.md' }])).status).toBe(400);
  });

  it('makes group and link pages, which hold no content', async () => {
    const { base, token, openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    const edited = await edit(changeRequest.id, [
      { operation: 'insert_page', type: 'group', title: 'Reference', ref: 'ref' },
      { operation: 'insert_page', type: 'link', title: 'Status page', href: 'https://status.example.com', into: 'ref' },
    ]);
    expect(edited.status).toBe(200);
    const [group] = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    expect(group).toMatchObject({ type: 'group', title: 'Reference', pages: [{ type: 'link', href: 'https://status.example.com' }] });
    for (const change of [
      { operation: 'insert_page', type: 'link', title: 'No target' },
      { operation: 'insert_page', type: 'group', title: 'G', document: 'text' },
      { operation: 'insert_page', title: 'No document' },
      { operation: 'update_page', page: group.id, document: 'text' },
    ]) {
      expect((await edit(changeRequest.id, [change])).status, JSON.stringify(change)).toBe(400);
    }
  });

  it('leads link pages only to relative paths and URLs of schemes that run no script (web, e-mail, telephone, chat), since readers will follow them', async () => {
    const { openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    for (const href of ['https://example.com', 'http://example.com/a?b', 'mailto:docs@example.com', 'tel:+15555550100', 'matrix:r/docs:example.org', '../guide/README.md#install', '/s/abc', '#top']) {
      expect((await edit(changeRequest.id, [{ operation: 'insert_page', type: 'link', title: 'L', href }])).status, href).toBe(200);
    }
    for (const href of ['javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'file:///etc/passwd']) {
      const refused = await edit(changeRequest.id, [{ operation: 'insert_page', type: 'link', title: 'L', href }]);
      expect(refused.status, href).toBe(400);
      expect(refused.body.error.message).toBe('changes[0].href: a link page leads to a relative path or a URL of http, https, mailto, tel, callto, sms, ftp, ftps, xmpp, matrix');
    }
  });

  it('names the field at fault in a batch, and lists the operations there are', async () => {
    const { openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    const cases: Array<[object, string]> = [
      [{ operation: 'insert_files', files: [{ name: 'a.png', bas64: 'AA==' }] }, 'changes[0].files[0]: give the bytes as base64 or a url to fetch them from, one of the two'],
      [{ operation: 'rename_page' }, 'body.changes.0.operation must be one of: "insert_page", "update_page", "delete_page", "revert_page", "insert_files", "insert_reusable_content", "update_reusable_content", "delete_reusable_content"'],
      [{ title: 'No operation' }, 'body.changes.0.operation is required'],
      [{ operation: 'update_page', page: 'p', title: 5 }, 'body.changes.0.title must be string'],
    ];
    for (const [change, message] of cases) {
      const refused = await edit(changeRequest.id, [change]);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(message);
    }
  });

  it('handles pages over 64 KB on worker threads: a three-way merge, the document form and their links', async () => {
    const { base, token, openChangeRequest, edit, merge, pages } = await setup();
    const lines = Array.from({ length: 3_000 }, (_, index) => (index % 4 === 0 ? '' : `Line ${index} of the [guide](https://example.com/${index}).`));
    const seed = await openChangeRequest();
    await edit(seed.id, [{ operation: 'insert_page', document: `# Big\n\n${lines.join('\n')}` }]);
    await merge(seed.id);
    const [page] = await pages();
    const markdown: string = (await request(testApp.app, 'GET', `${base}/content/page/${page.id}`, { token, query: { format: 'markdown' } })).body.markdown;
    expect(markdown.length).toBeGreaterThan(64 * 1024);
    const ours = await openChangeRequest();
    const theirs = await openChangeRequest();
    await edit(ours.id, [{ operation: 'update_page', page: page.id, document: markdown.replace('Line 1 of', 'First line of') }]);
    await edit(theirs.id, [{ operation: 'update_page', page: page.id, document: markdown.replace('Line 2999 of', 'Last line of') }]);
    expect((await merge(theirs.id)).body.result).toBe('merge');
    expect((await merge(ours.id)).body.result).toBe('merge');
    const merged = (await request(testApp.app, 'GET', `${base}/content/page/${page.id}`, { token, query: { format: 'markdown' } })).body.markdown;
    expect(merged).toContain('First line of');
    expect(merged).toContain('Last line of');
    const document = (await request(testApp.app, 'GET', `${base}/content/page/${page.id}`, { token, query: { format: 'document' } })).body.document;
    expect(document.nodes).toHaveLength(750);
    expect(JSON.stringify(document.nodes.at(-1))).toContain('Last line of');
    const links = await request(testApp.app, 'GET', `${base}/links`, { token, query: { limit: 1000 } });
    expect(links.status).toBe(200);
    expect(links.body.stats.total).toBe(2_250);
  });

  it('applies a batch whole or not at all', async () => {
    const { base, openChangeRequest, edit, token } = await setup();
    const changeRequest = await openChangeRequest();
    const refused = await edit(changeRequest.id, [
      { operation: 'insert_page', document: '# Fine' },
      { operation: 'update_page', page: 'missing', title: 'x' },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/changes\[1\]\.page: no page "missing"/);
    const unchanged = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}`, { token });
    expect(unchanged.body.revision).toBe(changeRequest.revision);
    for (const changes of [[], [{ operation: 'rename_page', page: 'x' }], [{ operation: 'insert_page' }], [{ operation: 'insert_page', document: 'x', slug: 'bad slug' }]]) {
      expect((await edit(changeRequest.id, changes)).status, JSON.stringify(changes)).toBe(400);
    }
    const created = await edit(changeRequest.id, [{ operation: 'insert_page', document: '# Child' }, { operation: 'insert_page', document: '# Parent' }]);
    const tree = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    const [child, parent] = tree;
    const cycle = await edit(changeRequest.id, [
      { operation: 'update_page', page: child.id, into: parent.id },
      { operation: 'update_page', page: parent.id, into: child.id },
    ]);
    expect(created.status).toBe(200);
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/cannot move into itself/);
  });

  it('updates an outdated change request with the space, merging edits to different lines', async () => {
    const { base, token, openChangeRequest, edit, merge, update, pages, page } = await setup();
    const setupRequest = await openChangeRequest();
    await edit(setupRequest.id, [{ operation: 'insert_page', document: `# Notes\n${LINES}` }]);
    await merge(setupRequest.id);
    const pageId = (await pages())[0].id;
    const first = await openChangeRequest();
    const second = await openChangeRequest();
    await edit(first.id, [{ operation: 'update_page', page: pageId, document: LINES.replace('one', 'ONE') }]);
    await edit(second.id, [{ operation: 'update_page', page: pageId, document: LINES.replace('five', 'FIVE') }]);
    expect((await merge(first.id)).body.result).toBe('merge');
    const outdated = await request(testApp.app, 'GET', `${base}/change-requests/${second.id}`, { token });
    expect(outdated.body.outdated).toBe(true);
    const updated = await update(second.id);
    expect(updated.body.result).toBe('update');
    const merged = await merge(second.id);
    expect(merged.body.result).toBe('merge');
    expect((await page(pageId)).markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE');
  });

  it('answers conflicts with what clashes, changes nothing, and merges once the author resolves them', async () => {
    const { base, token, openChangeRequest, edit, merge, update, pages, page } = await setup();
    const setupRequest = await openChangeRequest();
    await edit(setupRequest.id, [{ operation: 'insert_page', document: `# Notes\n${LINES}` }]);
    await merge(setupRequest.id);
    const pageId = (await pages())[0].id;
    const mine = await openChangeRequest();
    const theirs = await openChangeRequest();
    await edit(mine.id, [{ operation: 'update_page', page: pageId, document: LINES.replace('three', 'mine') }]);
    await edit(theirs.id, [{ operation: 'update_page', page: pageId, document: LINES.replace('three', 'theirs') }]);
    await merge(theirs.id);
    const spaceRevision = (await request(testApp.app, 'GET', base, { token })).body.revision;
    const outdated = await request(testApp.app, 'GET', `${base}/change-requests/${mine.id}`, { token });
    expect(outdated.body.outdated).toBe(true);
    const conflicted = await merge(mine.id);
    expect(conflicted.status).toBe(200);
    expect(conflicted.body).toEqual({
      revision: spaceRevision,
      result: 'conflicts',
      conflicts: [
        {
          page: { id: pageId, path: 'notes', title: 'Notes' },
          kind: 'content',
          regions: [{ ours: { start: 3, count: 1 }, base: { start: 3, count: 1 }, theirs: { start: 3, count: 1 } }],
        },
      ],
    });
    expect((await request(testApp.app, 'GET', base, { token })).body.revision).toBe(spaceRevision);
    expect((await update(mine.id)).body.result).toBe('conflicts');
    await edit(mine.id, [{ operation: 'update_page', page: pageId, document: LINES.replace('three', 'theirs') }]);
    expect((await update(mine.id)).body.result).toBe('update');
    expect((await request(testApp.app, 'GET', `${base}/change-requests/${mine.id}`, { token })).body.outdated).toBe(false);
    expect((await merge(mine.id)).body.result).toBe('merge');
    expect((await page(pageId)).markdown).toBe(LINES.replace('three', 'theirs'));
  });

  it('refuses edits and merges while the space is locked (403), and follows the roles', async () => {
    const { org, base, token, openChangeRequest, edit, merge } = await setup();
    const reader = await buildMember(testApp, org.organizationId, 'comment');
    const editor = await buildMember(testApp, org.organizationId, 'edit');
    const reviewer = await buildMember(testApp, org.organizationId, 'review');
    const changeRequest = await openChangeRequest(editor.token);
    const insert = [{ operation: 'insert_page', document: '# Page' }];
    expect((await edit(changeRequest.id, insert, reader.token)).status).toBe(403);
    expect((await edit(changeRequest.id, insert, editor.token)).status).toBe(200);
    expect((await merge(changeRequest.id, editor.token)).status).toBe(403);
    await request(testApp.app, 'PATCH', base, { token, body: { editMode: 'locked' } });
    const locked = await edit(changeRequest.id, insert, editor.token);
    expect(locked.status).toBe(403);
    expect(locked.body.error.message).toMatch(/locked/);
    expect((await merge(changeRequest.id, reviewer.token)).status).toBe(403);
    await request(testApp.app, 'PATCH', base, { token, body: { editMode: 'live' } });
    expect((await merge(changeRequest.id, reviewer.token)).body.result).toBe('merge');
  });

  it('reverts pages to the base or a given revision: edits undone, additions removed, deletions restored', async () => {
    const { base, token, openChangeRequest, edit, merge, pages, space } = await setup();
    const seed = await openChangeRequest();
    await edit(seed.id, [{ operation: 'insert_page', document: '# Kept\noriginal' }]);
    await merge(seed.id);
    const kept = (await pages())[0];
    const changeRequest = await openChangeRequest();
    await edit(changeRequest.id, [
      { operation: 'update_page', page: kept.id, document: 'changed', title: 'Changed' },
      { operation: 'insert_page', document: '# Added' },
    ]);
    const contentUrl = `${base}/change-requests/${changeRequest.id}/content`;
    const added = (await pages(`${contentUrl}/pages`)).find((p: any) => p.title === 'Added');
    const reverted = await edit(changeRequest.id, [
      { operation: 'revert_page', page: kept.id },
      { operation: 'revert_page', page: added.id },
    ]);
    expect(reverted.status).toBe(200);
    const after = await pages(`${contentUrl}/pages`);
    expect(after.map((p: any) => p.title)).toEqual(['Kept']);
    expect((await request(testApp.app, 'GET', `${contentUrl}/page/${kept.id}`, { token })).body.markdown).toBe('original');
    await edit(changeRequest.id, [{ operation: 'delete_page', page: kept.id }]);
    await edit(changeRequest.id, [{ operation: 'revert_page', page: kept.id }]);
    expect((await pages(`${contentUrl}/pages`)).map((p: any) => p.title)).toEqual(['Kept']);
    const toEmpty = await edit(changeRequest.id, [{ operation: 'revert_page', page: kept.id, revision: space.revision }]);
    expect(toEmpty.status).toBe(200);
    expect(await pages(`${contentUrl}/pages`)).toEqual([]);
    const foreign = await edit(changeRequest.id, [{ operation: 'revert_page', page: kept.id, revision: 'not-ours' }]);
    expect(foreign.status).toBe(400);
  });

  it('stores files with their dimensions, links them from pages by ref, and serves them through signed links', async () => {
    const { base, token, openChangeRequest, edit, merge, pages } = await setup();
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const changeRequest = await openChangeRequest();
    const edited = await edit(changeRequest.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', base64: png, ref: 'dot' }, { name: 'notes.txt', base64: Buffer.from('hello').toString('base64') }] },
      { operation: 'insert_page', document: '# Pictures\n\n![A dot](/files/dot)' },
    ]);
    expect(edited.status).toBe(200);
    await merge(changeRequest.id);
    const files = await request(testApp.app, 'GET', `${base}/content/files`, { token });
    expect(files.body.count).toBe(2);
    const [dot, notes] = files.body.items;
    expect(dot).toMatchObject({ name: 'dot.png', contentType: 'image/png', size: 70, dimensions: { width: 1, height: 1 } });
    expect(notes).toMatchObject({ name: 'notes.txt', contentType: 'application/octet-stream', size: 5 });
    expect(notes.dimensions).toBeUndefined();
    const one = await request(testApp.app, 'GET', `${base}/content/files/${dot.id}`, { token });
    expect(one.body.id).toBe(dot.id);
    const download = await testApp.app.inject({ method: 'GET', url: new URL(notes.downloadURL).pathname });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('hello');
    const path = new URL(notes.downloadURL).pathname;
    const [prefix, linkToken] = [path.slice(0, path.lastIndexOf('/') + 1), path.slice(path.lastIndexOf('/') + 1)];
    const [payload, signature] = linkToken.split('.');
    const otherBlob = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), blob: dot.id })).toString('base64url');
    for (const forgedToken of [`${otherBlob}.${signature}`, `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, `${payload}.${signature.startsWith('x') ? 'y' : 'x'}${signature.slice(1)}`]) {
      expect((await testApp.app.inject({ method: 'GET', url: `${prefix}${forgedToken}` })).statusCode, forgedToken).toBe(404);
    }
    testApp.clock.advance(2 * 60 * 60 * 1000);
    expect((await testApp.app.inject({ method: 'GET', url: new URL(notes.downloadURL).pathname })).statusCode).toBe(404);
    const page = (await pages())[0];
    const markdown = (await request(testApp.app, 'GET', `${base}/content/page/${page.id}`, { token })).body.markdown;
    expect(markdown).toBe(`![A dot](/files/${dot.id})`);
    const tooBig = await edit((await openChangeRequest()).id, [{ operation: 'insert_files', files: [{ name: 'big', base64: Buffer.alloc(1024 * 1024 + 1).toString('base64') }] }]);
    expect(tooBig.status).toBe(400);
    const notBase64 = await edit((await openChangeRequest()).id, [{ operation: 'insert_files', files: [{ name: 'x', base64: '***' }] }]);
    expect(notBase64.status).toBe(400);
  });

  it('renders a change request as a real PDF behind a signed link, whole or one page', async () => {
    const { base, token, openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    await edit(changeRequest.id, [
      { operation: 'insert_page', ref: 'intro', document: '# Introduction\n\nWelcome to **Quire** docs.\n\n- first point\n- second point\n\n```js\nconsole.log(42)\n```' },
      { operation: 'insert_page', into: 'intro', document: '# Details\n\nDeeper text here.' },
      { operation: 'insert_page', document: '# Appendix\n\nLast words.' },
    ]);
    const fetchPdf = async (query: object) => {
      const link = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/pdf`, { token, query: query as any });
      expect(link.status).toBe(200);
      const response = await testApp.app.inject({ method: 'GET', url: new URL(link.body.url).pathname });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      return pdfText(response.rawPayload);
    };
    const whole = await fetchPdf({});
    for (const words of ['Introduction', 'Welcome to', 'Quire', 'first point', 'console.log(42)', 'Details', 'Deeper text here.', 'Appendix', 'Last words.']) {
      expect(whole).toContain(words);
    }
    const pages = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    const intro = pages.find((p: any) => p.title === 'Introduction');
    const branch = await fetchPdf({ page: intro.id });
    expect(branch).toContain('Deeper text here.');
    expect(branch).not.toContain('Appendix');
    const only = await fetchPdf({ page: intro.id, only: true });
    expect(only).toContain('Introduction');
    expect(only).not.toContain('Deeper text here.');
    expect((await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/pdf`, { token, query: { page: 'nope' } })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/pdf`, { token, query: { only: true } })).status).toBe(400);
    expect((await testApp.app.inject({ method: 'GET', url: '/pdf/forged.token' })).statusCode).toBe(404);
  });

  it('refuses a PDF over the configured page or text limit up front, saying how to export a part', async () => {
    const { base, token, openChangeRequest, edit } = await setup();
    const changeRequest = await openChangeRequest();
    const inserted = await edit(
      changeRequest.id,
      Array.from({ length: 12 }, (_, index) => ({ operation: 'insert_page', title: `Page ${index}`, document: 'Short.' })),
    );
    expect(inserted.status).toBe(200);
    const whole = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/pdf`, { token });
    expect(whole.status).toBe(400);
    expect(whole.body.error.message).toBe('A PDF holds at most 10 pages and 0.1 MB of text; this one would hold 12 pages and 0.0 MB. Export a part of it with page=<pageId>.');
    await edit(changeRequest.id, [{ operation: 'insert_page', title: 'Long', document: 'word '.repeat(30_000) }]);
    const pagesNow = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    const long = pagesNow.find((page: { title: string }) => page.title === 'Long');
    const tooLong = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/pdf`, { token, query: { page: long.id, only: true } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/this one would hold 1 pages and 0\.1 MB/);
    const pages = (await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/content/pages`, { token })).body.pages;
    const part = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}/pdf`, { token, query: { page: pages[0].id } });
    expect(part.status).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url: new URL(part.body.url).pathname })).statusCode).toBe(200);
  });

  it('keeps other spaces\' revisions out of reach (404)', async () => {
    const mine = await setup();
    const other = await setup();
    const foreign = await request(testApp.app, 'GET', `${mine.base}/revisions/${other.space.revision}`, { token: mine.token });
    expect(foreign.status).toBe(404);
    const own = await request(testApp.app, 'GET', `${mine.base}/revisions/${mine.space.revision}`, { token: mine.token });
    expect(own.body).toMatchObject({ object: 'revision', id: mine.space.revision, pages: [] });
    expect((await request(testApp.app, 'GET', `${mine.base}/content/page/nope`, { token: mine.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `${mine.base}/content/path/nope`, { token: mine.token })).status).toBe(404);
  });

  it("never loses an edit when several batches write one change request's content at the same time", async () => {
    const { openChangeRequest, edit, pages, base } = await setup();
    const changeRequest = await openChangeRequest();
    const titles = Array.from({ length: 6 }, (_, at) => `Page ${at}`);
    const results = await Promise.all(titles.map((title) => edit(changeRequest.id, [{ operation: 'insert_page', document: `# ${title}` }])));
    expect(results.map((result) => result.status)).toEqual(titles.map(() => 200));
    expect((await pages(`${base}/change-requests/${changeRequest.id}/content/pages`)).map((page: any) => page.title).sort()).toEqual(titles);
  });

  it('never loses a merge when two change requests merge at the same time', async () => {
    const { openChangeRequest, edit, merge, pages } = await setup();
    const first = await openChangeRequest();
    const second = await openChangeRequest();
    await edit(first.id, [{ operation: 'insert_page', document: '# First' }]);
    await edit(second.id, [{ operation: 'insert_page', document: '# Second' }]);
    const results = await Promise.all([merge(first.id), merge(second.id)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.result)).toEqual(['merge', 'merge']);
    expect((await pages()).map((p: any) => p.title).sort()).toEqual(['First', 'Second']);
  });
});
