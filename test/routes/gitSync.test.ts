// Git Sync over HTTP: spaces imported from and exported to a git repository served by
// git's own http-backend (with basic auth) on 127.0.0.1, in GitBook's format, as the
// API's users and the official client drive it.
import { createHmac } from 'node:crypto';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsDelivered, request, startTestApp, stopTestApp, useTestApp } from '../helpers/app.ts';
import { buildMember, buildOrganization, type Organization } from '../helpers/factories.ts';
import { GIT_TOKEN, startGitServer, type GitServer } from '../helpers/gitServer.ts';
import { publishSampleSite } from '../helpers/publishedSite.ts';
import { pdfText } from '../helpers/pdf.ts';
import { expectGitBookAnswer } from '../helpers/gitbookContract.ts';
import { jobHandlers } from '../../src/jobs/handlers.ts';
import { enqueueJob, runDueJobs } from '../../src/jobs/queue.ts';
import { seal } from '../../src/lib/secretBox.ts';
import { GIT_SYNC_JOB } from '../../src/services/gitSyncRun.ts';
import { schedulePolling } from '../../src/services/gitSync.ts';
import { findJobs } from '../../src/db/repos/jobs.ts';

const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
let server: GitServer;
let org: Organization;

beforeAll(async () => {
  server = await startGitServer();
  org = await buildOrganization(testApp);
});
afterAll(() => server.close());

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** A repository in GitBook's own written form: exporting what it imports gives it back byte for byte. */
const DOCS: Record<string, string | Buffer> = {
  '.gitbook.yaml': 'root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/setup: guide/install.md\n',
  'docs/SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Installation](guide/install.md \"Setting up\")\n  * [Steps](guide/install.md#steps)\n* [Changelog](https://example.com/changelog)\n\n## API Reference <a href="#reference" id="reference"></a>\n\n* [API](reference/api.md)\n\n***\n\n* [Pricing](pricing.md)\n',
  'docs/pricing.md': '# Pricing\n\nSee [#steps](guide/install.md#steps "mention"). Plans: <a class="button primary">Coming soon</a>\n',
  'docs/README.md': '# Welcome\n\nStart with the [install guide](guide/install.md#steps). See the [API](reference/api.md).\n',
  'docs/guide/README.md':
    '---\ndescription: All about it\nicon: rocket\nlayout:\n  width: wide\n  title:\n    visible: true\n  outline:\n    visible: false\n  metadata:\n    visible: true\n---\n\n# Guide\n\n{% hint style="info" %}\nRead it all.\n{% endhint %}\n\n<figure><img src="../.gitbook/assets/my logo (1).png" alt="The logo"><figcaption><p>Caption</p></figcaption></figure>\n\n{% file src="../.gitbook/assets/guide.pdf" %}\n{% endfile %}\n\n{% content-ref url="install.md" %}\n[install.md](install.md)\n{% endcontent-ref %}\n',
  'docs/guide/install.md': '---\nhidden: true\ncover: ../.gitbook/assets/my logo (1).png\ncoverY: 12\nif: visitor.claims.plan == "pro"\n---\n\n# Install\n\n## Steps\n\n```bash\nnpm install\n```\n\nBack to [the guide](./).\n',
  'docs/reference/api.md': '# API\n\nSee [home](../) and [elsewhere](https://example.com).\n',
  'docs/.gitbook/assets/my logo (1).png': PNG,
  'docs/.gitbook/assets/guide.pdf': Buffer.from('%PDF-1.4 tiny'),
  'docs/notes.md': '# Notes\n\nNot in the summary.\n',
  'src/app.js': 'console.log("code lives here too");\n',
};

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, token = org.admin.token) => request(testApp.app, method, url, { token, body });

/** The app's address, listening from the first test that calls it through the official client. */
async function listening(): Promise<string> {
  const address = testApp.app.server.address();
  return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : testApp.app.listen({ port: 0, host: '127.0.0.1' });
}

async function newSpace(title = 'Docs') {
  return (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title })).body as { id: string; revision: string };
}

interface PageNode {
  id: string;
  title: string;
  type: string;
  path: string;
  pages: PageNode[];
  git?: { oid: string; path: string };
  [field: string]: unknown;
}

/** Waits for the space's last git operation to end; answers the git info. */
async function settled(spaceId: string, as = org.admin.token) {
  for (let attempt = 0; attempt < 400; attempt++) {
    const info = await call('GET', `/v1/spaces/${spaceId}/git/info`, undefined, as);
    if (info.status === 200 && info.body.operation.state !== 'running') return info.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the git operation did not end');
}

async function importInto(spaceId: string, body: Record<string, unknown> = {}) {
  const started = await call('POST', `/v1/spaces/${spaceId}/git/import`, { url: server.url, ref: 'refs/heads/main', ...body });
  expect(started.status, JSON.stringify(started.body)).toBe(204);
  return settled(spaceId);
}

async function exportFrom(spaceId: string, body: Record<string, unknown> = {}) {
  const started = await call('POST', `/v1/spaces/${spaceId}/git/export`, { url: server.url, ref: 'refs/heads/main', commitMessage: 'Docs from Quire', ...body });
  expect(started.status, JSON.stringify(started.body)).toBe(204);
  return settled(spaceId);
}

const pagesOf = async (spaceId: string): Promise<PageNode[]> => (await call('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages;
const flat = (pages: PageNode[]): PageNode[] => pages.flatMap((page) => [page, ...flat(page.pages)]);
const outline = (pages: PageNode[]): unknown[] => pages.map((page) => [page.type, page.title, ...(page.pages.length ? [outline(page.pages)] : [])]);
const markdownOf = async (spaceId: string, pageId: string): Promise<string> => (await call('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`)).body.markdown;
const byTitle = async (spaceId: string, title: string) => flat(await pagesOf(spaceId)).find((page) => page.title === title)!;

/** Pages' stored markdown and the files, for comparing two spaces: ids differ, content must not. */
async function contentOf(spaceId: string) {
  const pages = flat(await pagesOf(spaceId));
  const ids = new Map(pages.map((page, index) => [page.id, `#${index}`]));
  const files = (await call('GET', `/v1/spaces/${spaceId}/content/files`)).body.items as Array<{ id: string; name: string; size: number; contentType: string }>;
  const fileIds = new Map(files.map((file) => [file.id, file.name]));
  // Ids in links, and alone where a link's text is the last part of its target.
  const anonymous = (text: string) =>
    text.replace(/\/(pages|files)\/([A-Za-z0-9]+)/g, (_, kind, id) => `/${kind}/${kind === 'pages' ? ids.get(id) : fileIds.get(id)}`).replace(/\b[A-Za-z0-9]+\b/g, (word) => ids.get(word) ?? fileIds.get(word) ?? word);
  return {
    outline: outline(await pagesOf(spaceId)),
    pages: await Promise.all(pages.map(async (page) => ({ title: page.title, type: page.type, description: page.description, icon: page.icon, hidden: page.hidden, layout: page.layout, href: page.href, markdown: page.type === 'document' ? anonymous(await markdownOf(spaceId, page.id)).trimEnd() : undefined }))),
    files: files.map(({ name, size, contentType }) => ({ name, size, contentType })).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

describe('Git Sync import', () => {
  it("reads GitBook's format: .gitbook.yaml's root, SUMMARY's groups and nesting, the README first, link pages, front matter, assets by their names, and links as page and file references", async () => {
    server.commit(DOCS);
    const space = await newSpace();
    const info = await importInto(space.id);
    expect(info).toMatchObject({ repoName: 'docs', url: server.bareUrl, ref: 'refs/heads/main', commit: server.read().head, operation: { state: 'success', direction: 'import' } });
    expect(info.operation.warnings).toEqual(['not in SUMMARY.md, so not imported: notes.md']);

    const pages = await pagesOf(space.id);
    // A section of a page listed on its own is a link; a group's anchor is its slug; `***` ends a group.
    expect(outline(pages)).toEqual([
      ['document', 'Welcome'],
      ['document', 'Guide', [['document', 'Installation'], ['link', 'Steps']]],
      ['link', 'Changelog'],
      ['group', 'API Reference', [['document', 'API']]],
      ['document', 'Pricing'],
    ]);
    expect(pages[3]).toMatchObject({ slug: 'reference', pages: [{ path: 'reference/api' }] });
    const [welcome, guide, changelog, reference] = pages;
    const install = guide.pages[0];
    expect(changelog.href).toBe('https://example.com/changelog');
    expect(guide).toMatchObject({ description: 'All about it', icon: 'rocket', layout: { title: true, outline: false }, git: { path: 'docs/guide/README.md', oid: expect.stringMatching(/^[0-9a-f]{40}$/) } });
    expect(install).toMatchObject({ hidden: true, slug: 'install', path: 'guide/install' });

    const files = (await call('GET', `/v1/spaces/${space.id}/content/files`)).body.items;
    expect(files.map((file: { name: string }) => file.name).sort()).toEqual(['guide.pdf', 'my logo (1).png']);
    const logo = files.find((file: { name: string }) => file.name === 'my logo (1).png');
    expect(install.cover).toEqual({ ref: { kind: 'file', file: logo.id }, yPos: 12 });
    expect(logo).toMatchObject({ contentType: 'image/png', size: PNG.length, dimensions: { width: 1, height: 1 }, git: { path: 'docs/.gitbook/assets/my logo (1).png' } });

    // Links survive moves: they name pages and files, not paths.
    const welcomeMarkdown = await markdownOf(space.id, welcome.id);
    expect(welcomeMarkdown).toContain(`[install guide](/pages/${install.id}#steps)`);
    expect(welcomeMarkdown).toContain(`[API](/pages/${reference.pages[0].id})`);
    expect(await markdownOf(space.id, guide.id)).toContain(`<img src="/files/${logo.id}"`);
    const document = (await call('GET', `/v1/spaces/${space.id}/content/page/${welcome.id}?format=document`)).body.document;
    expect(JSON.stringify(document)).toContain(JSON.stringify({ kind: 'page', page: install.id, anchor: 'steps' }));

    const revision = (await call('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.git).toEqual({ oid: info.commit, message: 'Docs', createdByGitBook: false, createdByService: false, url: server.bareUrl, ref: 'refs/heads/main', author: { name: 'Writer', email: 'writer@example.com' } });
    expect((await call('GET', `/v1/spaces/${space.id}/content?metadata=false`)).body.git).toBeUndefined();
    expect((await call('GET', `/v1/spaces/${space.id}`)).body.gitSync).toEqual({ repoName: 'docs', url: server.bareUrl, updatedAt: expect.any(String) });
  });

  it('reports a file listed twice, a listed file that is missing, pages GitBook computes, and an unreadable configuration, with what it did about each', async () => {
    // GitBook's form of an API reference it generates from an OpenAPI spec: the source, as YAML under the page.
    const computed = '  * ```yaml\n    props:\n      models: false\n    type: builtin:openapi\n    dependencies:\n      spec:\n        ref:\n          kind: openapi\n          spec: petstore\n    ```\n';
    server.commit(
      {
        'SUMMARY.md': `# Summary\n\n* [Intro](README.md)\n${computed}* [Again](README.md)\n* [Ghost](ghost.md)\n* Plain text entry\n`,
        'README.md': '# Intro\n',
      },
      'Odd summary',
      'odd',
    );
    const space = await newSpace();
    const info = await importInto(space.id, { ref: 'refs/heads/odd' });
    expect(info.operation.warnings).toEqual([
      'SUMMARY.md: pages GitBook computes (builtin:openapi) from the OpenAPI spec "petstore" are kept as a computed page, which Quire does not compute: its readers see no pages for it (openapi-operation blocks in a page show a spec\'s operations); an export writes it back in SUMMARY.md',
      'SUMMARY.md: "Plain text entry" links to no file; it is left out',
      'SUMMARY.md: README.md is listed more than once; it is imported where it is first listed',
      'SUMMARY.md: ghost.md does not exist; its page is imported empty',
    ]);
    expect(outline(await pagesOf(space.id))).toEqual([['document', 'Intro', [['computed', 'OpenAPI: petstore']]], ['document', 'Ghost']]);

    server.commit({ '.gitbook.yaml': 'root: [unclosed\n', 'README.md': '# Hi\n' }, 'Broken config', 'broken');
    const broken = await importInto(space.id, { ref: 'refs/heads/broken' });
    expect(broken.operation).toMatchObject({ state: 'failure', error: expect.stringMatching(/^\.gitbook\.yaml is not valid YAML/) });
    expect(outline(await pagesOf(space.id))).toEqual([['document', 'Intro', [['computed', 'OpenAPI: petstore']]], ['document', 'Ghost']]);
  });

  it('builds the tree from the folders when there is no SUMMARY.md: README first, a folder with a README.md as its page', async () => {
    server.commit({ 'README.md': '# Home\n', 'b-topic.md': '# Topic B\n', 'a-topic.md': '# Topic A\n', 'guides/README.md': '# Guides\n', 'guides/first.md': '# First\n' }, 'Folders', 'folders');
    const space = await newSpace();
    await importInto(space.id, { ref: 'refs/heads/folders' });
    expect(outline(await pagesOf(space.id))).toEqual([['document', 'Home'], ['document', 'Topic A'], ['document', 'Topic B'], ['document', 'Guides', [['document', 'First']]]]);
  });

  it("keeps a file's or folder's name as its page's slug, underscores, capitals, dots and plus signs too, and reads a title's escapes, as GitBook does, so that an export writes nothing new", async () => {
    const commit = server.commit(
      {
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [PHP tricks](php_tricks/README.md)\n  * [disable\\_functions bypass](php_tricks/disable_functions-bypass.md)\n  * [performance.now + Force heavy task](php_tricks/performance.now-+-force-heavy-task.md)\n* [Setup guide](Setup_Guide.md)\n* [.pyc](.pyc.md)\n',
        'README.md': '# Home\n\nSee [the bypass](php_tricks/disable_functions-bypass.md) and [the timing](php_tricks/performance.now-+-force-heavy-task.md).\n',
        'php_tricks/performance.now-+-force-heavy-task.md': '# performance.now + Force heavy task\n\nTimed.\n',
        '.pyc.md': '# .pyc\n\nDecompiled.\n',
        'php_tricks/README.md': '# PHP tricks\n\n',
        'php_tricks/disable_functions-bypass.md': '# disable\\_functions bypass\n\nText.\n',
        'Setup_Guide.md': '# Setup guide\n\nSteps.\n',
      },
      'Names',
    );
    const space = await newSpace();
    await importInto(space.id);
    const pages = flat(await pagesOf(space.id));
    expect(pages.map((page) => page.path)).toEqual(['home', 'php_tricks', 'php_tricks/disable_functions-bypass', 'php_tricks/performance.now-+-force-heavy-task', 'Setup_Guide', '.pyc']);
    // A title is the heading's words, its escapes read; the export escapes them again as GitBook does.
    expect(pages.map((page) => page.title)).toEqual(['Home', 'PHP tricks', 'disable_functions bypass', 'performance.now + Force heavy task', 'Setup guide', '.pyc']);
    expect(pages.find((page) => page.path === 'php_tricks/disable_functions-bypass')?.git?.path).toBe('php_tricks/disable_functions-bypass.md');
    // Exported to another branch, every file is written at the path it came from.
    await exportFrom(space.id, { ref: 'refs/heads/names-copy', commitMessage: 'Copy' });
    const copy = server.read('names-copy');
    expect(Object.keys(copy.files).filter((path) => path.endsWith('.md')).sort()).toEqual(['.pyc.md', 'README.md', 'SUMMARY.md', 'Setup_Guide.md', 'php_tricks/README.md', 'php_tricks/disable_functions-bypass.md', 'php_tricks/performance.now-+-force-heavy-task.md']);
    expect(copy.files['README.md']).toBe('# Home\n\nSee [the bypass](php_tricks/disable_functions-bypass.md) and [the timing](php_tricks/performance.now-+-force-heavy-task.md).\n');
    await exportFrom(space.id, { commitMessage: 'Nothing changed' });
    expect(server.read().head).toBe(commit);
  });

  it("names the README's page after the folder GitBook keeps its sub-pages in, so that their site paths are GitBook's and an export writes them where they were", async () => {
    // As Beefree's docs, synced by GitBook, hold them: the first page's sub-pages under getting-started/readme/.
    const files = {
      'SUMMARY.md': '# Table of contents\n\n## Getting Started\n\n* [Introduction](README.md)\n  * [Create an application](getting-started/readme/create-an-application.md)\n  * [Installation](getting-started/readme/installation/README.md)\n    * [Methods](getting-started/readme/installation/methods.md)\n* [Sample code](getting-started/sample-code.md)\n',
      'README.md': '# Introduction\n\nStart [here](getting-started/readme/installation/).\n',
      'getting-started/readme/create-an-application.md': '# Create an application\n\nSteps.\n',
      'getting-started/readme/installation/README.md': '# Installation\n\nInstall.\n',
      'getting-started/readme/installation/methods.md': '# Methods\n\nCall them.\n',
      'getting-started/sample-code.md': '# Sample code\n\nCode.\n',
    };
    server.commit(files, 'Readme folder');
    const space = await newSpace('Readme folder');
    const imported = await importInto(space.id);
    expect(imported.operation, JSON.stringify(imported)).toMatchObject({ state: 'success' });
    const pages = flat(await pagesOf(space.id));
    expect(pages.map((page) => page.path)).toEqual(['getting-started', 'getting-started/readme', 'getting-started/readme/create-an-application', 'getting-started/readme/installation', 'getting-started/readme/installation/methods', 'getting-started/sample-code']);
    await exportFrom(space.id, { ref: 'refs/heads/readme-folder-copy', commitMessage: 'Copy' });
    const written = server.read('readme-folder-copy');
    expect(Object.keys(written.files).filter((path) => path.endsWith('.md')).sort()).toEqual(Object.keys(files).sort());
  });

  it("turns .gitbook.yaml's redirects into redirects of every site that publishes the space", async () => {
    const published = await publishSampleSite(testApp);
    server.commit(DOCS);
    const started = await published.call('POST', `/v1/spaces/${published.space.id}/git/import`, { url: server.url, ref: 'refs/heads/main' });
    expect(started.status).toBe(204);
    expect((await settled(published.space.id, published.org.admin.token)).operation.state).toBe('success');
    const redirects = (await published.call('GET', `${published.sites}/${published.site.id}/redirects`)).body.items;
    const install = flat((await published.call('GET', `/v1/spaces/${published.space.id}/content/pages`)).body.pages as PageNode[]).find((page) => page.title === 'Installation')!;
    // Under the site space's path, where the space's pages are read.
    const siteSpace = (await published.call('GET', `${published.sites}/${published.site.id}/site-spaces`)).body.items[0];
    expect(redirects).toEqual([
      expect.objectContaining({ object: 'site-redirect', id: expect.any(String), source: `/${siteSpace.path}/old/setup`, destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: install.id } }),
    ]);
  });
});

describe('Git Sync export', () => {
  it('writes back what it imported byte for byte, keeps files Quire never wrote, and puts the export in a new space unchanged', async () => {
    const commit = server.commit(DOCS);
    const space = await newSpace();
    await importInto(space.id);
    const info = await exportFrom(space.id, { commitMessage: 'Nothing changed' });
    expect(info).toMatchObject({ commit, operation: { state: 'success', direction: 'export' } });
    expect(server.read().head).toBe(commit);

    // An edit in Quire: a new page with a link to an existing one, and a new title.
    const guide = await byTitle(space.id, 'Guide');
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_page', into: guide.id, document: `# Upgrade notes\n\nFirst read [install](/pages/${(await byTitle(space.id, 'Installation')).id}).` },
        { operation: 'update_page', page: (await byTitle(space.id, 'API')).id, title: 'HTTP API' },
      ],
    });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
    // The export linked the space to the branch: the merge goes to git by itself, named after its change request.
    await eventsDelivered(testApp);
    const exported = await settled(space.id);
    const written = server.read();
    expect(exported).toMatchObject({ commit: written.head, operation: { state: 'success', direction: 'export' } });
    expect(written.message.trim()).toBe(`Merge change request #${changeRequest.number}`);
    const text = (value: string | Buffer) => (typeof value === 'string' ? value : value.toString('utf8'));
    expect(written.files['docs/guide/upgrade-notes.md']).toBe('# Upgrade notes\n\nFirst read [install](install.md).\n');
    expect(written.files['docs/reference/api.md']).toBe(text(DOCS['docs/reference/api.md']).replace('# API', '# HTTP API'));
    expect(written.files['docs/SUMMARY.md']).toBe(text(DOCS['docs/SUMMARY.md']).replace('  * [Steps](guide/install.md#steps)\n', '  * [Steps](guide/install.md#steps)\n  * [Upgrade notes](guide/upgrade-notes.md)\n').replace('[API]', '[HTTP API]'));
    for (const path of ['docs/README.md', 'docs/guide/README.md', 'docs/guide/install.md', 'docs/pricing.md', '.gitbook.yaml', 'docs/notes.md', 'src/app.js']) expect(written.files[path], path).toBe(text(DOCS[path]));
    expect(written.bytes['docs/.gitbook/assets/my logo (1).png'].equals(PNG)).toBe(true);

    const revision = (await call('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.git).toMatchObject({ oid: written.head, createdByGitBook: true, message: `Merge change request #${changeRequest.number}` });
    expect((await byTitle(space.id, 'Upgrade notes')).git).toEqual({ oid: expect.any(String), path: 'docs/guide/upgrade-notes.md' });

    const copy = await newSpace('Copy');
    await importInto(copy.id);
    expect(await contentOf(copy.id)).toEqual(await contentOf(space.id));
  });

  it("keeps the file of a page untouched since the last sync byte for byte, though Quire would write it otherwise, and writes anew a page that changed or whose link's target is gone", async () => {
    server.commit(DOCS);
    const table = '# Limits\n\n|Plan|Pages|\n|-|-|\n|Free|10|\n\nSee [the guide](guide.md).\n';
    const files = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Limits](limits.md)\n* [Guide](guide.md)\n* [Notes](notes.md)\n',
      'README.md': '# Home\n\nWelcome.\n',
      'limits.md': table,
      'guide.md': '# Guide\n\nSteps.\n',
      'notes.md': '# Notes\n\n|A|B|\n|-|-|\n|1|2|\n',
    };
    server.commit(files, 'Untouched', 'untouched');
    const space = await newSpace('Untouched');
    expect((await importInto(space.id, { ref: 'refs/heads/untouched' })).operation.state).toBe('success');
    const edit = async (changes: unknown[]) => {
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes });
      expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
    };
    await edit([{ operation: 'update_page', page: (await byTitle(space.id, 'Home')).id, document: '# Home\n\nWelcome back.' }]);
    expect((await exportFrom(space.id, { ref: 'refs/heads/untouched' })).operation.state).toBe('success');
    let written = server.read('untouched').files;
    expect(written['README.md']).toBe('# Home\n\nWelcome back.\n');
    expect(written['limits.md']).toBe(table);
    expect(written['notes.md']).toBe(files['notes.md']);

    // The page a link points to is gone: the link is written anew, in GitBook's broken form; a page edited is written anew.
    const guide = (await byTitle(space.id, 'Guide')).id;
    await edit([
      { operation: 'delete_page', page: guide },
      { operation: 'update_page', page: (await byTitle(space.id, 'Notes')).id, document: '# Notes\n\n|A|B|\n|-|-|\n|1|3|' },
    ]);
    expect((await exportFrom(space.id, { ref: 'refs/heads/untouched', commitMessage: 'Gone' })).operation.state).toBe('success');
    written = server.read('untouched').files;
    expect(written['limits.md']).not.toBe(table);
    expect(written['limits.md']).toContain(`[the guide](/broken/pages/${guide})`);
    expect(written['notes.md']).not.toBe(files['notes.md']);
    expect(written['notes.md']).toContain('3');
  });

  it('exports a space that never saw git in GitBook\'s layout, the first page\'s sub-pages in a folder of its slug, to a branch that does not exist yet', async () => {
    const space = await newSpace('Fresh');
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'tux.png', base64: PNG.toString('base64'), ref: 'tux' }] },
        { operation: 'insert_page', ref: 'intro', document: '# Introduction\n\nHello.' },
        { operation: 'insert_page', ref: 'setup', document: '# Setup\n\nSee [the intro](/pages/intro).' },
        { operation: 'insert_page', into: 'setup', document: '# Linux\n\n![Tux](/files/tux)' },
        { operation: 'insert_page', into: 'intro', document: '# Tour\n\nA walk.' },
      ],
    });
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const info = await exportFrom(space.id, { ref: 'refs/heads/fresh' });
    expect(info.operation.state).toBe('success');
    const written = server.read('fresh');
    // The first page is the README; its sub-pages go in a folder of its slug, as any page's do.
    expect(Object.keys(written.files).sort()).toEqual(['.gitbook/assets/tux.png', 'README.md', 'SUMMARY.md', 'introduction/tour.md', 'setup/README.md', 'setup/linux.md']);
    expect(written.files['SUMMARY.md']).toBe('# Table of contents\n\n* [Introduction](README.md)\n  * [Tour](introduction/tour.md)\n* [Setup](setup/README.md)\n  * [Linux](setup/linux.md)\n');
    expect(written.files['setup/README.md']).toBe('# Setup\n\nSee [the intro](../).\n');
    expect(written.files['setup/linux.md']).toContain('../.gitbook/assets/tux.png');
  });

  it('answers each read with the commit the content matches at that moment: the imported revision exported to another branch shows that branch and its paths next', async () => {
    server.commit(DOCS);
    const space = await newSpace('Mirrored');
    const imported = await importInto(space.id);
    const gitOf = async () => (await call('GET', `/v1/spaces/${space.id}/content`)).body.git;
    expect(await gitOf()).toMatchObject({ oid: imported.commit, ref: 'refs/heads/main' });
    const guide = await byTitle(space.id, 'Guide');
    expect(guide.git).toEqual({ oid: expect.any(String), path: 'docs/guide/README.md' });
    const guideRead = async () => (await call('GET', `/v1/spaces/${space.id}/content/page/${guide.id}`)).body.git;
    expect(await guideRead()).toEqual(guide.git);
    const exported = await exportFrom(space.id, { ref: 'refs/heads/mirror', standalone: true });
    expect(exported.operation.state).toBe('success');
    expect(await gitOf()).toMatchObject({ oid: server.read('mirror').head, ref: 'refs/heads/mirror' });
    // A new branch has the docs at its own top.
    expect((await byTitle(space.id, 'Guide')).git).toEqual({ oid: expect.any(String), path: 'guide/README.md' });
    expect(await guideRead()).toEqual({ oid: expect.any(String), path: 'guide/README.md' });
  });
});

describe('Git Sync when both sides change', () => {
  async function syncedSpace() {
    server.commit({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n', 'README.md': '# Home\n\nHello.\n', 'guide.md': '# Guide\n\nStep one.\n' });
    const space = await newSpace();
    await importInto(space.id);
    return space;
  }

  async function editInQuire(spaceId: string, title: string, markdown: string) {
    const page = await byTitle(spaceId, title);
    const changeRequest = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'update_page', page: page.id, document: markdown }] });
    expect((await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
  }

  it('merges an import three-way with edits made in the space since the last sync', async () => {
    const space = await syncedSpace();
    await editInQuire(space.id, 'Home', '# Home\n\nHello from Quire.');
    server.change({ 'guide.md': '# Guide\n\nStep one.\n\nStep two, from git.\n' });
    expect((await importInto(space.id)).operation.state).toBe('success');
    expect(await markdownOf(space.id, (await byTitle(space.id, 'Home')).id)).toBe('Hello from Quire.');
    expect(await markdownOf(space.id, (await byTitle(space.id, 'Guide')).id)).toBe('Step one.\n\nStep two, from git.\n');
  });

  it('leaves the space alone on a conflict and keeps the import in a change request; with force the repository wins', async () => {
    const space = await syncedSpace();
    await editInQuire(space.id, 'Guide', '# Guide\n\nStep one, said in Quire.');
    server.change({ 'guide.md': '# Guide\n\nStep one, said in git.\n' });
    const conflicted = await importInto(space.id);
    expect(conflicted.operation.state).toBe('failure');
    expect(conflicted.operation.error).toMatch(/^The repository and the space both changed "Guide" since the last sync\. The import waits in change request #2: resolve it there, or import with force/);
    const guide = await byTitle(space.id, 'Guide');
    expect(await markdownOf(space.id, guide.id)).toBe('Step one, said in Quire.');
    const waiting = (await call('GET', `/v1/spaces/${space.id}/change-requests/2/content/page/${guide.id}`)).body;
    expect(waiting.markdown).toBe('Step one, said in git.\n');

    expect((await importInto(space.id, { force: true })).operation.state).toBe('success');
    expect(await markdownOf(space.id, guide.id)).toBe('Step one, said in git.\n');
  });

  it("imports a branch that moved before exporting onto it, never overwriting it; with force the space's content wins", async () => {
    const space = await syncedSpace();
    await editInQuire(space.id, 'Home', '# Home\n\nHello from Quire.');
    server.change({ 'guide.md': '# Guide\n\nStep one.\n\nFrom git.\n' });
    const info = await exportFrom(space.id);
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    const written = server.read();
    expect(written.files['README.md']).toBe('# Home\n\nHello from Quire.\n');
    expect(written.files['guide.md']).toBe('# Guide\n\nStep one.\n\nFrom git.\n');

    server.change({ 'guide.md': '# Guide\n\nRewritten in git.\n' });
    expect((await exportFrom(space.id, { force: true })).operation.state).toBe('success');
    expect(server.read().files['guide.md']).toBe('# Guide\n\nStep one.\n\nFrom git.\n');
  });

  it('makes a standalone import a change request for review, leaving the space as it is', async () => {
    const space = await syncedSpace();
    server.change({ 'guide.md': '# Guide\n\nProposed in git.\n' });
    const info = await importInto(space.id, { standalone: true });
    expect(info.operation.warnings).toEqual(['the import is in change request #1, for review']);
    const guide = await byTitle(space.id, 'Guide');
    expect(await markdownOf(space.id, guide.id)).toBe('Step one.\n');
    const changeRequest = (await call('GET', `/v1/spaces/${space.id}/change-requests/1`)).body;
    expect(changeRequest).toMatchObject({ status: 'open', subject: expect.stringMatching(/^Git Sync: main at [0-9a-f]{7}$/) });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/1/merge`)).body.result).toBe('merge');
    expect(await markdownOf(space.id, guide.id)).toBe('Proposed in git.\n');
  });
});

describe("Git Sync export of a space's changes", () => {
  const ref = 'refs/heads/auto';

  async function mergeChange(spaceId: string, changes: unknown[]) {
    const changeRequest = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' })).body;
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { changes });
    expect((await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
    await eventsDelivered(testApp);
  }

  async function merged(spaceId: string, changes: unknown[]) {
    await mergeChange(spaceId, changes);
    return settled(spaceId);
  }

  it('exports every merge after an export, but not what came from git, and stops once disconnected', async () => {
    const space = await newSpace('Auto');
    await mergeChange(space.id, [{ operation: 'insert_page', document: '# Home\n\nFirst.' }]);
    expect((await exportFrom(space.id, { ref })).operation.state).toBe('success');
    const first = server.read('auto').head;

    await merged(space.id, [{ operation: 'insert_page', document: '# Second\n\nWritten in Quire.' }]);
    const afterMerge = server.read('auto');
    expect(afterMerge.head).not.toBe(first);
    expect(afterMerge.message.trim()).toBe('Merge change request #2: Edit');
    expect(afterMerge.files['second.md']).toBe('# Second\n\nWritten in Quire.\n');

    // An import brings git's commit; exporting it back would only echo it.
    const fromGit = server.change({ 'second.md': '# Second\n\nWritten in git.\n' }, 'Edit in git', 'auto');
    expect((await importInto(space.id, { ref })).operation.state).toBe('success');
    await eventsDelivered(testApp);
    expect((await settled(space.id)).operation.direction).toBe('import');
    expect(server.read('auto').head).toBe(fromGit);

    expect((await call('DELETE', `/v1/spaces/${space.id}/git`)).status).toBe(204);
    expect((await call('GET', `/v1/spaces/${space.id}/git/info`)).status).toBe(404);
    await mergeChange(space.id, [{ operation: 'insert_page', document: '# Third' }]);
    expect(server.read('auto').head).toBe(fromGit);
    const sealed = await testApp.database.db.selectFrom('space_git_syncs').select('sealed_url').where('space_id', '=', space.id).execute();
    expect(sealed).toEqual([]);
    expect((await call('DELETE', `/v1/spaces/${space.id}/git`)).body.error.message).toBe(`Space "${space.id}" is not synced with a git repository`);
  });

  it("writes an OpenAPI block with GitBook's link to the organization's spec where the spec is public and comes from an address, and its tag alone for a private spec, one whose address holds credentials or one uploaded as text", async () => {
    // Nothing listens there: the spec's processing fails at once, and its address is all the export needs.
    const address = 'http://127.0.0.1:1/openapi.yaml';
    const specs = `/v1/orgs/${org.organizationId}/openapi`;
    expect((await call('PUT', `${specs}/fetched`, { source: { url: address } })).status).toBe(201);
    expect((await call('PUT', `${specs}/internal`, { source: { url: 'http://127.0.0.1:1/internal.yaml?token=secret' } })).status).toBe(201);
    expect((await call('PUT', `${specs}/signed-in`, { source: { url: 'http://reader:secret@127.0.0.1:1/openapi.yaml' } })).status).toBe(201);
    expect((await call('PUT', `${specs}/uploaded`, { source: { text: 'openapi: 3.1.0\ninfo:\n  title: Up\n  version: 1.0.0\npaths: {}\n' } })).status).toBe(201);
    for (const slug of ['fetched', 'signed-in', 'uploaded']) expect((await call('PATCH', `${specs}/${slug}`, { visibility: 'public' })).status).toBe(200);
    const page =
      `# API\n\n{% openapi-operation spec="fetched" path="/pets" method="get" %}\n[OpenAPI fetched](${address})\n{% endopenapi-operation %}\n\n` +
      '{% openapi-schemas spec="fetched" schemas="Pet" grouped="false" %}\n[OpenAPI fetched](' + address + ')\n{% endopenapi-schemas %}\n\n' +
      '{% openapi-operation spec="internal" path="/" method="get" %}\n\n' +
      '{% openapi-operation spec="signed-in" path="/" method="get" %}\n\n' +
      '{% openapi-operation spec="uploaded" path="/" method="get" %}\n';
    server.commit({ 'SUMMARY.md': '# Table of contents\n\n* [API](README.md)\n', 'README.md': page }, 'API', 'specs');
    const space = await newSpace('Specs');
    expect((await importInto(space.id, { ref: 'refs/heads/specs' })).operation.state).toBe('success');
    expect((await exportFrom(space.id, { ref: 'refs/heads/specs-again' })).operation.state).toBe('success');
    expect(server.read('specs-again').files['README.md']).toBe(page);
  });

  it("keeps SUMMARY.md's blocks of pages GitBook computes as computed pages of the space, and writes them back where they are listed when it exports, under a page and in a group", async () => {
    const openapi = (indent: string, spec: string) =>
      `${indent}* \`\`\`yaml\n${['props:', '  models: false', '  grouping: by-operation', 'type: builtin:openapi', 'dependencies:', '  spec:', '    ref:', '      kind: openapi', `      spec: ${spec}`].map((line) => `${indent}  ${line}\n`).join('')}${indent}  \`\`\`\n`;
    const summary =
      `# Table of contents\n\n* [Home](README.md)\n* [API reference](api/README.md)\n${openapi('  ', 'petstore')}  * [Errors](api/errors.md)\n\n## Webhooks\n\n${openapi('', 'hooks')}* [Signing](signing.md)\n`;
    server.commit(
      { 'SUMMARY.md': summary, 'README.md': '# Home\n\nHi.\n', 'api/README.md': '# API reference\n\nAll of it.\n', 'api/errors.md': '# Errors\n\nCodes.\n', 'signing.md': '# Signing\n\nHMAC.\n' },
      'Computed',
      'computed',
    );
    const space = await newSpace('Computed');
    const imported = await importInto(space.id, { ref: 'refs/heads/computed' });
    expect(imported.operation.warnings).toHaveLength(2);
    expect(outline(await pagesOf(space.id))).toEqual([
      ['document', 'Home'],
      ['document', 'API reference', [['computed', 'OpenAPI: petstore'], ['document', 'Errors']]],
      ['group', 'Webhooks', [['computed', 'OpenAPI: hooks'], ['document', 'Signing']]],
    ]);
    await mergeChange(space.id, [{ operation: 'insert_page', document: '# Later\n\nWritten in Quire.' }]);
    expect((await exportFrom(space.id, { ref: 'refs/heads/computed' })).operation.state).toBe('success');
    expect(server.read('computed').files['SUMMARY.md']).toBe(`${summary}\n***\n\n* [Later](later.md)\n`);
  });

  it("writes links to a page or a file that is gone in GitBook's broken-link form, which it reads back as written", async () => {
    server.commit(
      {
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Plan](plan.md)\n',
        'README.md': '# Home\n\nSee [the plan](plan.md) and [the manual](/files/gone123).\n\n{% content-ref url="plan.md" %}\n[plan.md](plan.md)\n{% endcontent-ref %}\n',
        'plan.md': '# Plan\n\nSoon.\n',
      },
      'Linked',
      'linked',
    );
    const space = await newSpace('Broken');
    expect((await importInto(space.id, { ref: 'refs/heads/linked' })).operation.state).toBe('success');
    const plan = await byTitle(space.id, 'Plan');
    await mergeChange(space.id, [{ operation: 'delete_page', page: plan.id }]);
    const exported = await exportFrom(space.id, { ref: 'refs/heads/gone' });
    expect(exported.operation, JSON.stringify(exported.operation)).toMatchObject({ state: 'success' });
    const written = server.read('gone').files['README.md'];
    expect(written).toBe(
      `# Home\n\nSee [the plan](/broken/pages/${plan.id}) and [the manual](/broken/files/gone123).\n\n{% content-ref url="/broken/pages/${plan.id}" %}\n[Broken link](/broken/pages/${plan.id})\n{% endcontent-ref %}\n`,
    );
    const again = await newSpace('Broken again');
    expect((await importInto(again.id, { ref: 'refs/heads/gone' })).operation.state).toBe('success');
    expect((await exportFrom(again.id, { ref: 'refs/heads/gone-again' })).operation.state).toBe('success');
    expect(server.read('gone-again').files['README.md']).toBe(written);
  });

  it('exports nothing after a standalone export, a snapshot', async () => {
    const space = await newSpace('Snapshot');
    expect((await exportFrom(space.id, { ref: 'refs/heads/snapshot', standalone: true })).operation.state).toBe('success');
    const snapshot = server.read('snapshot').head;
    const info = await merged(space.id, [{ operation: 'insert_page', document: '# Later' }]);
    expect(info.operation.direction).toBe('export');
    expect(server.read('snapshot').head).toBe(snapshot);
  });

  it('stops exporting, and says why, when the person who set it up may no longer sync the space', async () => {
    const space = await newSpace('Handover');
    const writer = await buildMember(testApp, org.organizationId, 'create');
    expect((await call('POST', `/v1/spaces/${space.id}/git/export`, { url: server.url, ref: 'refs/heads/handover', commitMessage: 'Start' }, writer.token)).status).toBe(204);
    expect((await settled(space.id)).operation.state).toBe('success');
    const head = server.read('handover').head;
    expect((await call('PATCH', `/v1/orgs/${org.organizationId}/members/${writer.userId}`, { role: 'read' })).status).toBeLessThan(300);
    const info = await merged(space.id, [{ operation: 'insert_page', document: '# After the handover' }]);
    expect(info.operation).toMatchObject({ state: 'failure', error: 'Changes are no longer exported: the person who set up the export may no longer sync this space. Export again to set it up' });
    expect(server.read('handover').head).toBe(head);
  });
});

describe('Git Sync of reusable content', () => {
  /** GitBook's way: each reusable content a file of .gitbook/includes, included by its path relative to the page. */
  const INCLUDES: Record<string, string> = {
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Setup](guide/setup.md)\n',
    'README.md': '# Home\n\nWelcome.\n\n{% include ".gitbook/includes/support.md" %}\n',
    'guide/setup.md': '# Setup\n\nFirst this.\n\n{% include "../.gitbook/includes/support.md" %}\n',
    '.gitbook/includes/support.md':
      '---\ntitle: Support\n---\n\n{% hint style="warning" %}\nStuck? Read [the setup](../../guide/setup.md) again.\n{% endhint %}\n\n{% if visitor.claims.plan == "pro" %}\nPro plans get a call.\n{% endif %}\n',
  };

  it("keeps a page's front matter as GitBook wrote it, its order and its folded text, when Quire writes the page again, and writes a description changed in Quire as GitBook would", async () => {
    // GitBook's order (description, cover, layout with width first) and js-yaml's folding of long text at 80 columns.
    const front = (description: string) =>
      `---\ndescription: ${description}\ncover: ../.gitbook/assets/my logo (1).png\ncoverY: 0\nlayout:\n  width: wide\n  cover:\n    visible: true\n    size: background\n  title:\n    visible: false\n  pagination:\n    visible: true\n---\n\n`;
    const folded = '>-\n  Create and publish documentation your users will love, with tools to build\n  guides, references and more.';
    const commit = server.commit({ ...DOCS, 'docs/guide/install.md': `${front(folded)}# Install\n\nSteps.\n` });
    const space = await newSpace();
    await importInto(space.id);
    // Exported once, the space follows the branch: each merge below goes to git by itself.
    await exportFrom(space.id, { commitMessage: 'Nothing changed' });
    expect(server.read().head).toBe(commit);
    const page = await byTitle(space.id, 'Installation');
    const edit = async (change: Record<string, unknown>) => {
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'update_page', page: page.id, ...change }] });
      expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
      await eventsDelivered(testApp);
      await settled(space.id);
      return server.read().files['docs/guide/install.md'];
    };
    expect(await edit({ title: 'Set up' })).toBe(`${front(folded)}# Set up\n\nSteps.\n`);
    const longer = 'Install it with one command, then configure it for your team, your sites and your integrations.';
    expect(await edit({ description: longer })).toBe(
      `${front('>-\n  Install it with one command, then configure it for your team, your sites and\n  your integrations.')}# Set up\n\nSteps.\n`,
    );
    expect(await edit({ description: 'Short: now' })).toBe(`${front("'Short: now'")}# Set up\n\nSteps.\n`);
  });

  it('keeps the files of .gitbook/includes as reusable contents that the API, the official client and the reader show where pages include them, and exports them back byte for byte', async () => {
    server.commit(INCLUDES, 'Includes');
    const space = await newSpace('Reusable');
    const imported = await importInto(space.id);
    expect(imported.operation, JSON.stringify(imported.operation)).toMatchObject({ state: 'success', warnings: [] });
    const revision = (await call('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.reusableContents).toEqual([{ id: expect.any(String), title: 'Support', document: expect.any(String), git: { oid: expect.any(String), path: '.gitbook/includes/support.md' } }]);
    const [support] = revision.reusableContents;
    // Search finds its words on the pages that include it (once the import's deliveries are done: the operation ends as the import commits).
    await eventsDelivered(testApp);
    const found = async (word: string) =>
      (await call('GET', `/v1/spaces/${space.id}/search?query=${word}`)).body.items.map((page: { title: string }) => page.title).sort();
    expect(await found('Stuck')).toEqual(['Home', 'Setup']);
    expect((await call('GET', `/v1/spaces/${space.id}/content/reusable-contents/${support.id}`)).body).toEqual(support);

    // Its document, as GitBook's renderer reads it, with its link resolved to the page.
    const setup = await byTitle(space.id, 'Setup');
    const client = new GitBookAPI({ authToken: org.admin.token, endpoint: await listening() });
    const document = (await client.spaces.getReusableContentDocumentInRevisionById(space.id, revision.id, support.id)).data;
    expect(document.nodes[0]).toMatchObject({ type: 'hint', data: { style: 'warning' } });
    expect(JSON.stringify(document)).toContain(JSON.stringify({ kind: 'page', page: setup.id }));
    expect((await call('GET', `/v1/spaces/${space.id}/documents/${support.document}`)).body).toEqual(document);
    // Pages name it by its id.
    const home = (await call('GET', `/v1/spaces/${space.id}/content/page/${(await byTitle(space.id, 'Home')).id}?format=document`)).body;
    expect(home.document.nodes).toContainEqual(expect.objectContaining({ type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: support.id } } }));
    expect((await call('GET', `/v1/spaces/${space.id}/content/reusable-contents/nope`)).status).toBe(404);
    // Nobody outside the space reads it.
    const outsider = await buildOrganization(testApp, 'Outside');
    for (const path of [
      `content/reusable-contents/${support.id}`,
      `revisions/${revision.id}/reusable-contents/${support.id}/document`,
      `documents/${support.document}`,
      `revisions/${revision.id}/page/${setup.id}/document?dereferenced=reusable-contents`,
    ]) {
      expect((await call('GET', `/v1/spaces/${space.id}/${path}`, undefined, outsider.admin.token)).status, path).toBe(404);
    }

    // A reader of the published site sees it where it is included.
    const sites = `/v1/orgs/${org.organizationId}/sites`;
    const site = (await call('POST', sites, { title: 'Reusable docs' })).body;
    expect((await call('POST', `${sites}/${site.id}/site-spaces`, { spaceId: space.id })).status).toBe(201);
    await call('PATCH', `${sites}/${site.id}`, { visibility: 'public' });
    const published = (await call('POST', `${sites}/${site.id}/publish`)).body;
    const page = await testApp.app.inject({ method: 'GET', url: `${new URL(published.urls.published).pathname}/setup` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('First this.');
    // GitBook's renderer reads it with the site's token, in GitBook's shapes.
    const resolved = await call('POST', '/v1/urls/published', { url: `${published.urls.published}/setup`, redirectOnError: false });
    const asSite = (path: string) => request(testApp.app, 'GET', path, { token: resolved.body.apiToken });
    const revisionAsSite = await asSite(`/v1/spaces/${space.id}/revisions/${revision.id}`);
    expectGitBookAnswer('getRevisionById', revisionAsSite.body);
    expect(revisionAsSite.body.reusableContents).toEqual([support]);
    const documentAsSite = await asSite(`/v1/spaces/${space.id}/revisions/${revision.id}/reusable-contents/${support.id}/document?evaluated=deterministic-only&dereferenced=reusable-contents`);
    expectGitBookAnswer('getReusableContentDocumentInRevisionById', documentAsSite.body);
    // Its conditional block decided for the site's reader, who has no claims.
    expect(documentAsSite.body).toEqual({ ...document, nodes: document.nodes.filter((node) => (node.type as string) !== 'if') });
    expectGitBookAnswer('getReusableContentInRevisionById', (await asSite(`/v1/spaces/${space.id}/revisions/${revision.id}/reusable-contents/${support.id}`)).body);
    // A page's document as the renderer asks for it (dereferenced) holds the included blocks in place of the include, its link resolved and every key its own.
    const setupDocument = `/v1/spaces/${space.id}/revisions/${revision.id}/page/${setup.id}/document`;
    const dereferenced = (await asSite(`${setupDocument}?evaluated=deterministic-only&dereferenced=reusable-contents`)).body;
    expectGitBookAnswer('getPageDocumentInRevisionById', dereferenced);
    const types = (nodes: Array<{ type: string }>) => nodes.map((node) => node.type);
    expect(types(dereferenced.nodes)).not.toContain('reusable-content');
    expect(types(dereferenced.nodes)).toContain('hint');
    expect(JSON.stringify(dereferenced)).toContain(JSON.stringify({ kind: 'page', page: setup.id }));
    const keys = JSON.stringify(dereferenced).match(/"key":"[^"]*"/g)!;
    expect(new Set(keys).size).toBe(keys.length);
    // The included conditional block is decided for the site's reader (no claims: not shown), as the page's own are; members read it as written.
    expect(JSON.stringify(dereferenced)).not.toContain('"type":"if"');
    expect(JSON.stringify(dereferenced)).not.toContain('Pro plans get a call.');
    const asMember = JSON.stringify((await call('GET', `${setupDocument}?dereferenced=reusable-contents`)).body);
    expect(asMember).toContain('"type":"if"');
    expect(asMember).toContain('Pro plans get a call.');
    expect(types((await asSite(setupDocument)).body.nodes)).toContain('reusable-content');
    const setupAsDocument = (await asSite(`/v1/spaces/${space.id}/content/page/${setup.id}?format=document&dereferenced=true`)).body;
    expect(setupAsDocument.document).toEqual(dereferenced);
    const refused = await asSite(`${setupDocument}?dereferenced=everything`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/dereferenced/);
    expect(page.body).toMatch(/Stuck\? Read <a href="[^"]*\/setup">the setup<\/a> again\./);
    // Readers of markdown (a page's .md, llms-full.txt) get its markdown in place of the include.
    const sitePath = new URL(published.urls.published).pathname;
    const asMarkdown = (await testApp.app.inject({ method: 'GET', url: `${sitePath}/setup.md` })).body;
    expect(asMarkdown).toContain('First this.\n\n{% hint style="warning" %}\nStuck? Read');
    expect(asMarkdown).not.toContain('{% include');
    expect((await testApp.app.inject({ method: 'GET', url: `${sitePath}/llms-full.txt` })).body.split('Stuck? Read').length - 1).toBe(2);

    // A change request carries it through its edits and its merge.
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Later\n\nMore.' }] });
    // Its PDF shows the included content on both pages that include it.
    const link = await call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`);
    const pdf = pdfText((await testApp.app.inject({ method: 'GET', url: new URL(link.body.url).pathname })).rawPayload);
    expect(pdf.split('Stuck?').length - 1).toBe(2);
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
    // (The merged revision matches no commit: it has no git metadata.)
    const { git: _git, ...inRevision } = support;
    expect((await call('GET', `/v1/spaces/${space.id}/content`)).body.reusableContents).toEqual([inRevision]);

    // Exported, it is the file it came from, and pages include it by their own relative paths.
    expect((await exportFrom(space.id)).operation.state).toBe('success');
    const written = server.read().files;
    expect(Object.keys(written).sort()).toEqual([...Object.keys(INCLUDES), 'later.md'].sort());
    for (const path of Object.keys(INCLUDES).filter((path) => path !== 'SUMMARY.md')) expect(written[path], path).toBe(INCLUDES[path]);

    // Imported again after it changed in git, it keeps its id.
    server.commit({ ...INCLUDES, '.gitbook/includes/support.md': '---\ntitle: Getting help\n---\n\nWrite to us.\n' }, 'Reworded');
    await importInto(space.id, { force: true });
    const reimported = (await call('GET', `/v1/spaces/${space.id}/content`)).body.reusableContents;
    expect(reimported).toEqual([expect.objectContaining({ id: support.id, title: 'Getting help' })]);
    // The pages that include it are indexed again, though their own markdown did not change.
    await eventsDelivered(testApp);
    expect(await found('Stuck')).toEqual([]);
    expect(await found('Write')).toEqual(['Home', 'Setup']);
  });

  it('keeps pages and includes at the paths of the last sync when the space is exported to a new branch after edits', async () => {
    server.commit(INCLUDES, 'Includes');
    const space = await newSpace('New branch');
    await importInto(space.id);
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: '# Later\n\nMore.' }] });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
    expect((await exportFrom(space.id, { ref: 'refs/heads/new-branch-out' })).operation.state).toBe('success');
    const written = server.read('new-branch-out').files;
    expect(Object.keys(written).sort()).toEqual([...Object.keys(INCLUDES), 'later.md'].sort());
    for (const path of Object.keys(INCLUDES).filter((path) => path !== 'SUMMARY.md')) expect(written[path], path).toBe(INCLUDES[path]);
  });

  it("keeps the docs' layout within a new branch's own root: a space synced from docs/ exported to an empty branch has it at the top", async () => {
    server.commit(DOCS);
    const space = await newSpace('Rooted');
    await importInto(space.id);
    expect((await exportFrom(space.id, { ref: 'refs/heads/rooted-out' })).operation.state).toBe('success');
    const written = server.read('rooted-out').files;
    for (const path of ['README.md', 'guide/README.md', 'guide/install.md', 'reference/api.md']) expect(written[path], path).toBe(DOCS[`docs/${path}`]);
    expect(Object.keys(written).filter((path) => path.startsWith('docs/'))).toEqual([]);
  });

  it('says which include names no file of .gitbook/includes, and keeps it as written', async () => {
    server.commit({ 'README.md': '# Home\n\n{% include ".gitbook/includes/gone.md" %}\n' }, 'Missing include');
    const space = await newSpace('Missing include');
    const info = await importInto(space.id);
    expect(info.operation.warnings).toEqual(['README.md: includes .gitbook/includes/gone.md, which is not a file of .gitbook/includes; the include shows nothing']);
    expect((await exportFrom(space.id, { ref: 'refs/heads/missing-include-out' })).operation.state).toBe('success');
    expect(server.read('missing-include-out').files['README.md']).toBe('# Home\n\n{% include ".gitbook/includes/gone.md" %}\n');
  });
});

describe("Git Sync of the space's tags", () => {
  /** GitBook's tag library, and pages that name its tags in their front matter. */
  const TAGGED: Record<string, string> = {
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Beta](beta.md)\n',
    'README.md': '# Home\n\nWelcome.\n',
    'beta.md': '---\ntags:\n  - new\n  - beta\n---\n\n# Beta\n\nTry it.\n',
    '.gitbook/tags.yaml': '- tag: new\n  label: New\n  icon: sparkles\n  color: $primary\n- tag: beta\n  label: Beta\n  emoji: 1f9ea\n',
  };

  it("shows .gitbook/tags.yaml as the revision's tags and pages' tags, carries them through merges, and exports them back byte for byte", async () => {
    server.commit(TAGGED, 'Tags');
    const space = await newSpace('Tagged');
    expect((await importInto(space.id)).operation).toMatchObject({ state: 'success', warnings: [] });
    const revision = (await call('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.tags).toEqual([
      { slug: 'new', label: 'New', color: '$primary', icon: 'sparkles' },
      // GitBook's schema has no room for an emoji (presentTag); the file keeps it.
      { slug: 'beta', label: 'Beta', color: 'default' },
    ]);
    expectGitBookAnswer('getRevisionById', (await call('GET', `/v1/spaces/${space.id}/revisions/${revision.id}`)).body);
    const beta = await byTitle(space.id, 'Beta');
    expect(beta.tags).toEqual([{ tag: { kind: 'tag', tag: 'new' } }, { tag: { kind: 'tag', tag: 'beta' } }]);
    expect((await byTitle(space.id, 'Home')).tags).toEqual([]);

    // An edit merged in the space keeps them.
    const edited = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
    await call('POST', `/v1/spaces/${space.id}/change-requests/${edited.id}/content`, { changes: [{ operation: 'update_page', page: (await byTitle(space.id, 'Home')).id, document: '# Home\n\nWelcome, from Quire.' }] });
    expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${edited.id}/merge`)).body.result).toBe('merge');
    expect((await call('GET', `/v1/spaces/${space.id}/content`)).body.tags).toEqual(revision.tags);

    // A change to them in git merges three-way with that edit; an export writes the file as git has it, by hand.
    const relabelled = '# Our tags, written by hand\n- tag: new\n  label: "Just out"\n  icon: sparkles\n  color: $primary\n- tag: beta\n  label: Beta\n  emoji: 1f9ea\n';
    server.change({ '.gitbook/tags.yaml': relabelled }, 'Relabel a tag');
    expect((await importInto(space.id)).operation.state).toBe('success');
    expect((await call('GET', `/v1/spaces/${space.id}/content`)).body.tags[0]).toEqual({ slug: 'new', label: 'Just out', color: '$primary', icon: 'sparkles' });
    expect(await markdownOf(space.id, (await byTitle(space.id, 'Home')).id)).toBe('Welcome, from Quire.');
    expect((await exportFrom(space.id)).operation.state).toBe('success');
    const exported = server.read().files;
    expect(exported['.gitbook/tags.yaml']).toBe(relabelled);
    expect(exported['beta.md']).toBe(TAGGED['beta.md']);
    expect(exported['README.md']).toBe('# Home\n\nWelcome, from Quire.\n');
  });
});

describe('Git Sync safety', () => {
  it('never stores or shows the credentials of the URL, and says when the server refuses them', async () => {
    server.commit(DOCS);
    const space = await newSpace();
    await importInto(space.id);
    await exportFrom(space.id);
    for (const table of ['space_git_syncs', 'revision_git', 'jobs', 'spaces', 'change_requests'] as const) {
      const rows = await testApp.database.db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows), table).not.toContain(GIT_TOKEN);
    }
    // The connection's own URL given bare keeps the connection's credentials; elsewhere the server refuses it, and that is said.
    expect((await importInto(space.id, { url: server.bareUrl })).operation.state).toBe('success');
    const refused = await importInto((await newSpace('Refused')).id, { url: server.bareUrl });
    expect(refused.operation).toMatchObject({ state: 'failure', error: `${server.bareUrl} refused the credentials (HTTP 401); put a token with access in the URL (https://user:token@host/repo.git)` });
    const wrong = await importInto(space.id, { url: server.url.replace(GIT_TOKEN, 'wrong-token') });
    expect(wrong.operation.error).not.toContain('wrong-token');
    const missing = await importInto(space.id, { ref: 'refs/heads/nowhere' });
    expect(missing.operation.error).toBe(`${server.bareUrl} has no refs/heads/nowhere; push to it first, or export the space to create it`);
  });

  it('finishes an operation whose process died, once: the job runs again and a second run changes nothing', async () => {
    server.commit(DOCS);
    const space = await newSpace();
    await importInto(space.id);
    await eventsDelivered(testApp);
    const ctx = testApp.app.ctx;
    const revisions = async () => (await testApp.database.db.selectFrom('space_revisions').select('revision_id').where('space_id', '=', space.id).execute()).length;
    // As a process that died leaves it: the operation running, its job queued and due.
    server.change({ 'docs/reference/api.md': '# API\n\nChanged while Quire was down.\n' });
    await testApp.database.db.updateTable('space_git_syncs').set({ operation_id: 'op-after-crash', operation_state: 'running' }).where('space_id', '=', space.id).execute();
    const target = { sealedUrl: seal(ctx.secretsKey(), server.url), url: server.bareUrl, ref: 'refs/heads/main', projectDirectory: '', treeUrl: null, commitUrl: null, provider: null };
    const payload = { spaceId: space.id, userId: org.admin.userId, operation: 'op-after-crash', direction: 'import', target, force: false, standalone: false };
    await enqueueJob(ctx.db, ctx.clock, GIT_SYNC_JOB, payload);
    await runDueJobs(ctx, jobHandlers);
    expect(await findJobs(ctx.db, GIT_SYNC_JOB)).toEqual([]);
    expect((await settled(space.id)).operation.state).toBe('success');
    expect(await markdownOf(space.id, (await byTitle(space.id, 'API')).id)).toBe('Changed while Quire was down.\n');
    const before = await revisions();
    await enqueueJob(ctx.db, ctx.clock, GIT_SYNC_JOB, payload);
    await runDueJobs(ctx, jobHandlers);
    expect(await findJobs(ctx.db, GIT_SYNC_JOB)).toEqual([]);
    expect(await revisions()).toBe(before);
    // An import of a commit already in sync (a webhook sent twice) makes no revision either.
    expect((await importInto(space.id)).operation.state).toBe('success');
    expect(await revisions()).toBe(before);
  });

  it('refuses what it cannot sync with a message to act on, and lets only editors trigger it', async () => {
    const space = await newSpace();
    const refusal = async (body: Record<string, unknown>, path = 'import') => (await call('POST', `/v1/spaces/${space.id}/git/${path}`, { url: server.url, ref: 'refs/heads/main', ...body })).body.error.message;
    expect(await refusal({ url: 'git@github.com:acme/docs.git' })).toMatch(/^url: not a URL/);
    expect(await refusal({ url: 'ssh://git@github.com/acme/docs.git' })).toBe('url: Git Sync speaks git over HTTP(S); ssh: URLs are not supported. Put a token in an https URL: https://user:token@host/repo.git');
    expect(await refusal({ ref: 'refs/heads/../x' })).toBe('ref: "refs/heads/../x" is not a git ref; give a branch as "refs/heads/main"');
    expect(await refusal({ ref: 'refs/tags/v1', commitMessage: 'x' }, 'export')).toBe('ref: an export pushes to a branch ("refs/heads/…"), not refs/tags/v1');
    expect(await refusal({ repoProjectDirectory: '../elsewhere' })).toBe('repoProjectDirectory: the project directory must be inside the repository');
    expect((await call('POST', `/v1/spaces/${space.id}/git/export`, { url: server.url, ref: 'main' })).status).toBe(400);
    expect((await call('GET', `/v1/spaces/${space.id}/git/info`)).status).toBe(404);

    const editor = await buildMember(testApp, org.organizationId, 'edit');
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const asReader = await call('POST', `/v1/spaces/${space.id}/git/import`, { url: server.url, ref: 'main' }, reader.token);
    expect(asReader.status).toBe(403);
    expect(asReader.body.error.message).toBe('Git sync needs the "edit" role on this space or higher');
    expect((await call('GET', `/v1/spaces/${space.id}`, undefined, reader.token)).body.permissions.triggerGitSync).toBe(false);
    server.commit(DOCS);
    expect((await call('POST', `/v1/spaces/${space.id}/git/import`, { url: server.url, ref: 'main' }, editor.token)).status).toBe(204);
    expect((await settled(space.id, editor.token)).operation.state).toBe('success');
  });

  it('ignores an operation older than the last one asked for, as GitBook orders them by timestamp', async () => {
    server.commit(DOCS);
    const space = await newSpace();
    await importInto(space.id, { timestamp: '2026-05-02T10:00:00.000Z' });
    const before = await call('GET', `/v1/spaces/${space.id}/git/info`);
    const stale = await call('POST', `/v1/spaces/${space.id}/git/export`, { url: server.url, ref: 'refs/heads/main', commitMessage: 'Late', timestamp: '2026-05-02T09:00:00.000Z' });
    expect(stale.status).toBe(204);
    expect((await call('GET', `/v1/spaces/${space.id}/git/info`)).body).toEqual(before.body);
  });

  it('is driven by the official client: import, info and export', async () => {
    server.commit(DOCS);
    const space = await newSpace();
    const client = new GitBookAPI({ authToken: org.admin.token, endpoint: await listening() });
    await client.spaces.importGitRepository(space.id, { url: server.url, ref: 'refs/heads/main' });
    const info = await settled(space.id);
    expect((await client.spaces.getSpaceGitInfo(space.id)).data).toMatchObject({ repoName: 'docs', url: server.bareUrl, operation: { state: info.operation.state } });
    await client.spaces.exportToGitRepository(space.id, { url: server.url, ref: 'refs/heads/main', commitMessage: 'Via the client' });
    expect((await settled(space.id)).operation.state).toBe('success');
  });
});

describe('Git Sync that never goes quiet', () => {
  // The server's default branch exists, as on any git host once something was pushed.
  beforeAll(() => void server.commit(DOCS));
  const mergeAs = async (spaceId: string, token: string, subject: string, changes: unknown[]) => {
    const changeRequest = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject }, token)).body;
    expect((await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { changes }, token)).status).toBeLessThan(300);
    const merged = await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`, undefined, token);
    expect(merged.body.result).toBe('merge');
    return changeRequest.number as number;
  };
  const info = async (spaceId: string) => (await call('GET', `/v1/spaces/${spaceId}/git/info`)).body;

  /** The git sync jobs due after the clock moves past their back-off, run as the worker would. */
  async function retriesRun(minutes = 20) {
    testApp.clock.advance(minutes * 60_000);
    await runDueJobs(testApp.app.ctx, jobHandlers);
    await eventsDelivered(testApp);
  }

  it("keeps a synced space's connection when an import from a mistyped URL fails, says so, and goes on exporting every merge", async () => {
    const ref = 'refs/heads/typo';
    const space = await newSpace('Typo');
    await mergeAs(space.id, org.admin.token, 'First page', [{ operation: 'insert_page', document: '# Home\n\nFirst.' }]);
    expect((await exportFrom(space.id, { ref })).operation.state).toBe('success');
    await eventsDelivered(testApp);

    const typo = server.url.replace('/docs.git', '/docs2-typo.git');
    const failed = await importInto(space.id, { url: typo, ref });
    expect(failed.operation).toMatchObject({ state: 'failure', direction: 'import', error: `${server.bareUrl.replace('/docs.git', '/docs2-typo.git')} is not a git repository (HTTP 404)` });
    expect(failed).toMatchObject({ url: server.bareUrl, ref, connected: true, exportsChanges: true, pendingExports: 0, lastFailure: { error: failed.operation.error } });

    const number = await mergeAs(space.id, org.admin.token, 'After the typo', [{ operation: 'insert_page', document: '# After\n\nWritten after the typo.' }]);
    await eventsDelivered(testApp);
    const exported = await settled(space.id);
    expect(exported, JSON.stringify(exported)).toMatchObject({ url: server.bareUrl, pendingExports: 0, operation: { state: 'success', direction: 'export' } });
    expect(exported.lastFailure).toBeUndefined();
    expect(server.read('typo').files['after.md']).toBe('# After\n\nWritten after the typo.\n');
    expect(server.log('typo')[0].subject).toBe(`Merge change request #${number}: After the typo`);

    // Importing again from the right URL changes nothing of that either.
    expect((await importInto(space.id, { url: server.url, ref })).operation.state).toBe('success');
    await mergeAs(space.id, org.admin.token, 'Later still', [{ operation: 'insert_page', document: '# Later\n\nStill exported.' }]);
    await eventsDelivered(testApp);
    expect((await settled(space.id)).operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(server.read('typo').files['later.md']).toBe('# Later\n\nStill exported.\n');
  });

  it('keeps every merge made while the remote is down, shows them waiting with the error, and exports each as its own commit, in order, once it answers', async () => {
    const ref = 'refs/heads/outage';
    const space = await newSpace('Outage');
    const writer = await buildMember(testApp, org.organizationId, 'admin', 'Grace Writer', 'grace@example.test');
    await mergeAs(space.id, org.admin.token, 'Start', [{ operation: 'insert_page', document: '# Home\n\nStart.' }]);
    expect((await exportFrom(space.id, { ref })).operation.state).toBe('success');
    await eventsDelivered(testApp);
    const before = server.log('outage').length;

    server.down = true;
    try {
      for (const [index, title] of ['One', 'Two', 'Three'].entries()) {
        await mergeAs(space.id, index === 1 ? writer.token : org.admin.token, `Page ${title}`, [{ operation: 'insert_page', document: `# ${title}\n\nWritten during the outage.` }]);
        await eventsDelivered(testApp);
        await settled(space.id);
      }
      const waiting = await info(space.id);
      expect(waiting).toMatchObject({ pendingExports: 3, operation: { state: 'failure', direction: 'export' }, lastFailure: { at: expect.any(String) } });
      expect(waiting.operation.error).toMatch(/503/);
      expect(waiting.operation.error).not.toContain(GIT_TOKEN);
      // Retried with back-off, and still waiting while the remote is down.
      await retriesRun(1);
      expect((await info(space.id)).pendingExports).toBe(3);
    } finally {
      server.down = false;
    }
    await retriesRun();
    const healed = await settled(space.id);
    expect(healed, JSON.stringify(healed)).toMatchObject({ pendingExports: 0, operation: { state: 'success' } });
    expect(healed.lastFailure).toBeUndefined();
    const log = server.log('outage');
    expect(log.length - before).toBe(3);
    expect(log.slice(0, 3).map((commit) => commit.subject)).toEqual(['Merge change request #4: Page Three', 'Merge change request #3: Page Two', 'Merge change request #2: Page One']);
    // Each commit is its merger's; Quire commits.
    expect(log[1]).toEqual({ subject: 'Merge change request #3: Page Two', author: 'Grace Writer <grace@example.test>', committer: 'Quire <git-sync@quire.invalid>' });
    expect(log[0].author).toBe(`Ada Admin <${org.admin.email}>`);
    expect(Object.keys(server.read('outage').files).sort()).toEqual(['README.md', 'SUMMARY.md', 'one.md', 'three.md', 'two.md']);
  });

  it("records who wrote an imported commit on the revision it makes, for members only, and names a setting that blocks a fetch", async () => {
    server.commit({ 'README.md': '# Home\n\nBy a writer.\n' }, 'Written in git', 'authored');
    const space = await newSpace('Authored');
    const imported = await importInto(space.id, { ref: 'refs/heads/authored' });
    expect(imported.operation, JSON.stringify(imported.operation)).toMatchObject({ state: 'success' });
    const revision = (await call('GET', `/v1/spaces/${space.id}/content`)).body;
    expect(revision.git).toMatchObject({ message: 'Written in git', createdByGitBook: false, author: { name: 'Writer', email: 'writer@example.com' } });
    // Published, the space's content opens to everyone: the commit, but not who wrote it.
    const published = await publishSampleSite(testApp);
    expect((await published.call('POST', `/v1/spaces/${published.space.id}/git/import`, { url: server.url, ref: 'refs/heads/authored' })).status).toBe(204);
    expect((await settled(published.space.id, published.org.admin.token)).operation.state).toBe('success');
    const outside = await call('GET', `/v1/spaces/${published.space.id}/content`);
    expect(outside.status).toBe(200);
    expect(outside.body.git).toMatchObject({ message: 'Written in git' });
    expect(outside.body.git.author).toBeUndefined();
    expect(JSON.stringify(outside.body)).not.toContain('writer@example.com');

    const guarded = await startTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'false' });
    try {
      const other = await buildOrganization(guarded);
      const created = (await request(guarded.app, 'POST', `/v1/orgs/${other.organizationId}/spaces`, { token: other.admin.token, body: { title: 'Guarded' } })).body;
      expect((await request(guarded.app, 'POST', `/v1/spaces/${created.id}/git/import`, { token: other.admin.token, body: { url: server.url, ref: 'refs/heads/authored' } })).status).toBe(204);
      let state: { operation: { state: string; error?: string } } | undefined;
      for (let attempt = 0; attempt < 200 && state?.operation.state !== 'failure'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        state = (await request(guarded.app, 'GET', `/v1/spaces/${created.id}/git/info`, { token: other.admin.token })).body;
      }
      expect(state?.operation.error).toMatch(/127\.0\.0\.1 .*private or local address.*set QUIRE_ALLOW_PRIVATE_URLS=true to let Quire fetch from it/);
    } finally {
      await stopTestApp(guarded);
    }
  });

  it('uses the connection for an operation that names no URL, and refuses one on a space that has none with a message to act on', async () => {
    server.commit(DOCS);
    const space = await newSpace('Remembered');
    const refused = await call('POST', `/v1/spaces/${space.id}/git/import`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^url: this space has no Git Sync connection yet/);
    expect((await importInto(space.id)).operation.state).toBe('success');
    const again = await call('POST', `/v1/spaces/${space.id}/git/export`, { commitMessage: 'No URL needed' });
    expect(again.status).toBe(204);
    expect((await settled(space.id)).operation).toMatchObject({ state: 'success', direction: 'export' });
  });
});

describe('Git Sync of pushes, without a call', () => {
  beforeAll(() => void server.commit(DOCS));
  const hex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

  /** A webhook call as the host sends it, with no token. */
  const webhook = (spaceId: string, headers: Record<string, string>, body: string) =>
    testApp.app.inject({ method: 'POST', url: `/v1/spaces/${spaceId}/git/webhook`, headers: { 'content-type': 'application/json', ...headers }, payload: body });

  /** Waits until no pull or operation of Git Sync is queued or running; answers the git info. */
  async function pulled(spaceId: string) {
    for (let attempt = 0; attempt < 400; attempt++) {
      const jobs = await testApp.database.db.selectFrom('jobs').select('kind').where('kind', 'in', ['git-sync-pull', 'git-sync']).where('run_at', '<=', testApp.clock.now().toISOString()).execute();
      if (jobs.length === 0) return settled(spaceId);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the pull did not end');
  }

  async function connected(branch: string, title: string) {
    server.commit({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': '# Home\n\nFirst words.\n' }, 'Start', branch);
    const space = await newSpace(title);
    const synced = await importInto(space.id, { ref: `refs/heads/${branch}` });
    expect(synced.webhook).toEqual({ url: `http://quire.test/v1/spaces/${space.id}/git/webhook`, secret: expect.stringMatching(/^[\w-]{32}$/) });
    return { space, secret: synced.webhook.secret as string, ref: `refs/heads/${branch}` };
  }
  const homeOf = async (spaceId: string) => markdownOf(spaceId, (await byTitle(spaceId, 'Home')).id);

  it("imports a push signed with the space's secret, and refuses an unsigned or wrongly signed call, changing nothing", async () => {
    const { space, secret, ref } = await connected('hooked', 'Hooked');
    server.change({ 'README.md': '# Home\n\nPushed to git.\n' }, 'Push', 'hooked');
    const body = JSON.stringify({ ref, after: server.read('hooked').head });
    const before = (await call('GET', `/v1/spaces/${space.id}/content`)).body.id;

    for (const refused of [
      await webhook(space.id, { 'x-github-event': 'push' }, body),
      await webhook(space.id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex('not the secret', body)}` }, body),
      await webhook(space.id, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'guess' }, body),
      await webhook(space.id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(secret, body)}` }, body.replace('hooked', 'hijack')),
      await webhook((await newSpace('Never synced')).id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(secret, body)}` }, body),
    ]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.message).toMatch(/not signed with this space's Git Sync webhook secret/);
    }
    expect(await findJobs(testApp.app.ctx.db, 'git-sync-pull')).toEqual([]);
    expect((await call('GET', `/v1/spaces/${space.id}/content`)).body.id).toBe(before);

    const started = await webhook(space.id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(secret, body)}` }, body);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toEqual({ result: 'started', message: `Importing ${ref} from ${server.bareUrl}` });
    expect((await pulled(space.id)).operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(await homeOf(space.id)).toBe('Pushed to git.\n');

    const ping = await webhook(space.id, { 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${hex(secret, '{}')}` }, '{}');
    expect([ping.statusCode, ping.json().result]).toEqual([200, 'ping']);
    const elsewhere = JSON.stringify({ ref: 'refs/heads/other' });
    const ignored = await webhook(space.id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(secret, elsewhere)}` }, elsewhere);
    expect([ignored.statusCode, ignored.json()]).toEqual([200, { result: 'ignored', message: `The push moved refs/heads/other, not ${ref}` }]);
  });

  it("takes GitLab's token, Gitea's and Bitbucket's signatures, and shows the secret only to those who may set up the sync", async () => {
    const { space, secret, ref } = await connected('hosts', 'Hosts');
    const calls: Array<[string, Record<string, string>, string]> = [
      ['GitLab', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': secret }, JSON.stringify({ ref })],
      ['Gitea', { 'x-gitea-event': 'push' }, JSON.stringify({ ref })],
      ['Bitbucket', { 'x-event-key': 'repo:push' }, JSON.stringify({ push: { changes: [{ new: { type: 'branch', name: 'hosts' } }] } })],
    ];
    for (const [host, headers, body] of calls) {
      server.change({ 'README.md': `# Home\n\nPushed for ${host}.\n` }, host, 'hosts');
      const signed = host === 'Gitea' ? { ...headers, 'x-gitea-signature': hex(secret, body) } : host === 'Bitbucket' ? { ...headers, 'x-hub-signature': `sha256=${hex(secret, body)}` } : headers;
      const answer = await webhook(space.id, signed, body);
      expect(answer.statusCode, host).toBe(202);
      await pulled(space.id);
      expect(await homeOf(space.id)).toBe(`Pushed for ${host}.\n`);
    }
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const shown = (await call('GET', `/v1/spaces/${space.id}/git/info`, undefined, reader.token)).body;
    expect(shown.webhook).toBeUndefined();
    expect(JSON.stringify(shown)).not.toContain(secret);
  });

  it('brings in a push by polling the remote, with no call at all, once the space is due', async () => {
    const { space } = await connected('polled', 'Polled');
    const ctx = testApp.app.ctx;
    await schedulePolling(ctx);
    await runDueJobs(ctx, jobHandlers);
    await pulled(space.id);
    server.change({ 'README.md': '# Home\n\nFound by the poll.\n' }, 'Unannounced', 'polled');
    // Not due yet: the poll asks each space once per QUIRE_GIT_SYNC_POLL.
    testApp.clock.advance(60_000);
    await runDueJobs(ctx, jobHandlers);
    await pulled(space.id);
    expect(await homeOf(space.id)).toBe('First words.\n');
    testApp.clock.advance(300_000);
    await runDueJobs(ctx, jobHandlers);
    await pulled(space.id);
    expect(await homeOf(space.id)).toBe('Found by the poll.\n');
    expect(await findJobs(ctx.db, 'git-sync-poll')).toHaveLength(1);
  });

  it('turns a push that conflicts with a merge not yet exported into a change request, overwriting neither side, and exports the merge once the change request is closed', async () => {
    const { space, secret, ref } = await connected('clash', 'Clash');
    expect((await exportFrom(space.id, { ref, commitMessage: 'Set up' })).operation.state).toBe('success');
    server.down = true;
    let number: number;
    try {
      const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Quire side' })).body;
      await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'update_page', page: (await byTitle(space.id, 'Home')).id, document: '# Home\n\nWords from Quire.' }] });
      expect((await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
      await eventsDelivered(testApp);
      expect((await settled(space.id)).pendingExports).toBe(1);
    } finally {
      server.down = false;
    }
    const theirs = server.change({ 'README.md': '# Home\n\nWords from git.\n' }, 'Git side', 'clash');
    const body = JSON.stringify({ ref });
    expect((await webhook(space.id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(secret, body)}` }, body)).statusCode).toBe(202);
    const waiting = await pulled(space.id);
    expect(waiting.operation.error).toMatch(/^The repository and the space both changed "Home" since the last sync\. The import waits in change request #(\d+)/);
    number = Number(/#(\d+)/.exec(waiting.operation.error)![1]);
    expect(waiting.pendingExports).toBe(1);
    expect((await homeOf(space.id)).trim()).toBe('Words from Quire.');
    expect(server.read('clash').head).toBe(theirs);
    const proposal = (await call('GET', `/v1/spaces/${space.id}/change-requests/${number}`)).body;
    expect(proposal).toMatchObject({ status: 'open', subject: expect.stringMatching(/^Git Sync: clash at /) });

    // The same push again makes no second change request; exports wait for this one.
    expect((await webhook(space.id, { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(secret, body)}` }, body)).statusCode).toBe(202);
    expect((await pulled(space.id)).operation.error).toMatch(new RegExp(`waits in change request #${number}`));
    expect((await call('GET', `/v1/spaces/${space.id}/change-requests`)).body.items.filter((item: { status: string }) => item.status === 'open')).toHaveLength(1);

    // Closed: Quire's side is chosen, exported on top of the repository's commit, which history keeps.
    expect((await call('PATCH', `/v1/spaces/${space.id}/change-requests/${number}`, { status: 'archived' })).status).toBe(200);
    await call('POST', `/v1/spaces/${space.id}/git/export`, { commitMessage: 'Quire wins' });
    const exported = await pulled(space.id);
    expect(exported, JSON.stringify(exported)).toMatchObject({ pendingExports: 0, operation: { state: 'success' } });
    expect(server.read('clash').files['README.md']).toBe('# Home\n\nWords from Quire.\n');
    expect(server.log('clash').map((commit) => commit.subject)).toContain('Git side');
  });
});

describe('Git Sync with a repository whose default branch has no commit', () => {
  it('imports from and exports to another branch of it, again and again', async () => {
    // A new repository first pushed to "docs": its HEAD names a "main" that does not exist.
    const empty = await startGitServer();
    try {
      empty.commit({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': '# Home\n\nFrom docs.\n' }, 'Docs', 'docs');
      const space = await newSpace('Unborn');
      const sync = (path: 'import' | 'export') => call('POST', `/v1/spaces/${space.id}/git/${path}`, { url: empty.url, ref: 'refs/heads/docs', ...(path === 'export' ? { commitMessage: 'Back' } : {}) });
      expect((await sync('import')).status).toBe(204);
      const imported = await settled(space.id);
      expect(imported.operation, JSON.stringify(imported.operation)).toMatchObject({ state: 'success' });
      empty.change({ 'README.md': '# Home\n\nChanged in git.\n' }, 'Again', 'docs');
      expect((await sync('export')).status).toBe(204);
      expect((await settled(space.id)).operation).toMatchObject({ state: 'success', direction: 'export' });
      expect(empty.read('docs').files['README.md']).toBe('# Home\n\nChanged in git.\n');
    } finally {
      await empty.close();
    }
  });
});
