// Every page of GitBook's own writing, opened in the editor in Chromium and saved without
// an edit, is given back unchanged: the change request holds the same document, and the
// save writes nothing. The pages come in as GitBook repositories do, through Git Sync's
// import (links to pages and files resolved, front matter, GitBook's {% %} blocks): the
// corpus of test/fixtures/gitbook, and any folders QUIRE_GITBOOK_REPOSITORIES names (each
// a GitBook project with its SUMMARY.md, such as one of GitbookIO/public-docs'), which
// are not in the repository.
//
// What is checked is the browser's editor as a writer uses it: the page loaded from the
// API, made the editor's state, then a change made and taken back in the editor (a
// paragraph added at the end and removed, two transactions), so that the editor's own
// save converts its state (ProseMirror → GitBook's JSON) and compares it with what the
// change request holds: the same, byte for byte, writes nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callAsSession, describeInBrowser, useBrowser } from '../helpers/browser.ts';
import { startGitServer, type GitServer } from '../helpers/gitServer.ts';
import { editorBox, setUpOrganization, storedDocument, type Api } from '../helpers/writing.ts';

const CORPUS = new URL('../fixtures/gitbook/', import.meta.url).pathname;
const repositories = [CORPUS, ...(process.env.QUIRE_GITBOOK_REPOSITORIES?.split(',').filter(Boolean) ?? [])];

/** A folder's files, by their paths inside it. */
function filesOf(folder: string): Record<string, Buffer> {
  const paths = (readdirSync(folder, { recursive: true }) as string[]).filter((path) => statSync(join(folder, path)).isFile());
  return Object.fromEntries(paths.map((path) => [path, readFileSync(join(folder, path))]));
}

interface PageNode {
  id: string;
  type: string;
  title: string;
  path: string;
  pages: PageNode[];
}
const documentPages = (pages: PageNode[]): PageNode[] => pages.flatMap((page) => [...(page.type === 'document' ? [page] : []), ...documentPages(page.pages)]);

/**
 * In the editor open on the page: a paragraph added at the end of the document, then
 * removed, each a transaction of its own, as a writer's typing and undoing would be.
 * The editor is TipTap's, which its view's element carries.
 */
async function changeAndChangeBack(page: Page): Promise<void> {
  await page.evaluate(() => {
    type View = { state: any; dispatch(transaction: unknown): void };
    const element = document.querySelector('[role="textbox"][contenteditable="true"]') as (Element & { editor?: { view: View } }) | null;
    const view = element?.editor?.view;
    if (!view) throw new Error('no editor on the page');
    const end = view.state.doc.content.size;
    view.dispatch(view.state.tr.insert(end, view.state.schema.nodes.paragraph.create()));
    view.dispatch(view.state.tr.delete(end, view.state.doc.content.size));
  });
}

const saveStatus = (page: Page) => page.getByRole('status').filter({ hasText: /^(Saved|Saving…|Not saved)$/ });

describeInBrowser('GitBook pages in the editor', () => {
  const harness = useBrowser({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });
  let git: GitServer;
  let api: Api;
  let organizationId: string;
  let context: Awaited<ReturnType<typeof setUpOrganization>>['context'];

  beforeAll(async () => {
    git = await startGitServer();
    ({ context, organizationId, api } = await setUpOrganization(harness));
  }, 60_000);
  afterAll(() => git?.close());

  it('opens every page of the GitBook corpus and saves it without an edit, giving back the document the change request holds and writing nothing', async () => {
    const page = await context.newPage();
    const differing: string[] = [];
    let opened = 0;
    for (const [index, folder] of repositories.entries()) {
      // Through Git Sync's import, as a GitBook repository comes in.
      git.commit(filesOf(folder), `Docs ${index}`);
      const space = (await api('POST', `/v1/orgs/${organizationId}/spaces`, { title: `Corpus ${index}` })).body.id;
      expect((await api('POST', `/v1/spaces/${space}/git/import`, { url: git.url, ref: 'refs/heads/main' })).status).toBe(204);
      await expect.poll(async () => (await api('GET', `/v1/spaces/${space}/git/info`)).body.operation.state, { timeout: 60_000 }).toBe('success');
      // The writer's own change request, as Edit makes it.
      const changeRequest = await callAsSession(context, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Read through' });
      expect(changeRequest.status).toBe(201);
      const { id: changeRequestId, number } = changeRequest.body;
      const revision = async () => (await api('GET', `/v1/spaces/${space}/change-requests/${changeRequestId}`)).body.revision;
      const pages = documentPages((await api('GET', `/v1/spaces/${space}/change-requests/${changeRequestId}/content/pages`)).body.pages);
      expect(pages.length).toBeGreaterThan(0);

      for (const written of pages) {
        const held = JSON.stringify(await storedDocument(api, space, changeRequestId, written.id));
        const before = await revision();
        await page.goto(`/s/${space}/~/changes/${number}/${written.path}?edit`);
        await editorBox(page).waitFor({ timeout: 20_000 });
        await changeAndChangeBack(page);
        await expect.poll(() => saveStatus(page).textContent()).toBe('Saving…');
        await expect.poll(() => saveStatus(page).textContent(), { timeout: 20_000 }).not.toBe('Saving…');
        const status = await saveStatus(page).textContent();
        const after = JSON.stringify(await storedDocument(api, space, changeRequestId, written.id));
        // Written at all, even to the same document: the editor's conversion differed from what it was given.
        const wrote = (await revision()) !== before;
        if (status !== 'Saved') differing.push(`${folder} ${written.path}: ${(await page.getByRole('alert').allTextContents()).join(' ')}`);
        else if (after !== held || wrote) differing.push(`${folder} ${written.path}: ${after === held ? 'written, the same document' : 'written differently'}`);
        opened++;
      }
    }
    console.log(`${opened} pages of ${repositories.length} GitBook ${repositories.length === 1 ? 'repository' : 'repositories'} opened and saved in the editor, ${differing.length} differing`);
    expect(opened).toBeGreaterThanOrEqual(5);
    expect(differing).toEqual([]);
  }, repositories.length === 1 ? 110_000 : 3_600_000);
});
