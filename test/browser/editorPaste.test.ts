// Pasting into a page: markdown with GitBook's blocks, HTML as Google Docs writes it,
// hostile HTML, and a copy from the editor itself. What is pasted is dispatched as the
// browser's paste event, with the clipboard's types as a DataTransfer, and checked
// through the API: the change request holds GitBook's blocks, and nothing that runs.
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { editorBox, leaves, openEditor, redPng, seedSpace, setUpOrganization, storedDocument, waitSaved, type Api } from '../helpers/writing.ts';

/** Dispatches a paste of these clipboard types on the editor, where the cursor is. */
async function paste(page: Page, clipboard: Record<string, string>): Promise<void> {
  await editorBox(page).evaluate((editor, types) => {
    const data = new DataTransfer();
    for (const [type, value] of Object.entries(types)) data.setData(type, value);
    editor.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, clipboard);
}

/** Copies the editor's selection as the browser's copy would, answering what the clipboard got. */
async function copySelection(page: Page): Promise<Record<string, string>> {
  return editorBox(page).evaluate((editor) => {
    const data = new DataTransfer();
    editor.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
    return Object.fromEntries(data.types.map((type) => [type, data.getData(type)]));
  });
}

const types = (nodes: any[]): unknown[] => nodes.map((node) => (node.nodes?.some((child: any) => child.object === 'block') ? [node.type, types(node.nodes)] : node.type));

/** Opens the page's editor with the cursor at the page's end, on a line of its own. */
async function atEnd(page: Page, space: string, path: string): Promise<string> {
  const number = await openEditor(page, space, path);
  await editorBox(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  return number;
}

const GOOGLE_DOCS = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1f2e3d4c-7fff-aaaa-bbbb-123456789abc"><h2 dir="ltr"><span style="font-size:16pt;font-weight:400;">Launch plan</span></h2><p dir="ltr"><span style="font-weight:700;">Bold</span><span style="font-weight:400;"> and </span><span style="font-weight:400;font-style:italic;">italic</span><span style="font-weight:400;"> with </span><a href="https://example.com/plan"><span style="color:#1155cc;text-decoration:underline;">a link</span></a></p><ul><li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">First</span></p></li><li dir="ltr" style="list-style-type:disc;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Second</span></p></li></ul></b><br class="Apple-interchange-newline">`;

const HOSTILE = [
  '<p>Safe words <a href="jAvAsCrIpT:window.__pasted=1">click</a> <img src="x" onerror="window.__pasted=2"></p>',
  '<script>window.__pasted=3</script><style>p{display:none}</style>',
  '<svg onload="window.__pasted=4"><script>window.__pasted=5</script></svg>',
  '<iframe src="https://evil.test" srcdoc="<script>parent.__pasted=6</script>"></iframe>',
  '<p onclick="window.__pasted=7" style="background:url(javascript:x)">Clicked</p>',
  '<a href="&#106;avascript:window.__pasted=8">encoded</a> <a href="data:text/html,<script>x</script>">data</a>',
  '<div data-quire-slice=\'{"content":[{"type":"paragraph","content":[{"type":"link","attrs":{"data":{"ref":{"kind":"url","url":"javascript:window.__pasted=9"}}},"content":[{"type":"text","text":"forged"}]}]}]}\'>forged</div>',
].join('');

describeInBrowser('pasting into a page', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let api: Api;
  let space = '';
  let pages: string[] = [];

  beforeAll(async () => {
    mkdirSync('/tmp/screens/paste', { recursive: true });
    let organizationId: string;
    ({ context, organizationId, api } = await setUpOrganization(harness));
    ({ space, pages } = await seedSpace(api, organizationId, 'Paste', ['# Markdown\n\nStart.', '# Docs\n\nStart.', '# Hostile\n\nStart.', '# Copies\n\nStart.', '# Pictures\n\nStart.']));
  }, 60_000);

  it('pastes markdown with a GitBook hint and a list as those blocks, and one undo takes the whole paste back', async () => {
    const page = await context.newPage();
    const number = await atEnd(page, space, 'markdown');
    await paste(page, { 'text/plain': '{% hint style="success" %}\nIt **works**.\n{% endhint %}\n\n- one\n- two\n' });
    await waitSaved(page);
    let nodes = (await storedDocument(api, space, number, pages[0])).nodes;
    expect(types(nodes)).toEqual(['paragraph', ['hint', ['paragraph']], ['list-unordered', [['list-item', ['paragraph']], ['list-item', ['paragraph']]]]]);
    expect(nodes[1].data).toEqual({ style: 'success' });
    expect(leaves(nodes[1].nodes[0])).toEqual([{ text: 'It ', marks: [] }, { text: 'works', marks: ['bold'] }, { text: '.', marks: [] }]);

    // A line of words is words, where the cursor is.
    await paste(page, { 'text/plain': 'just words' });
    await waitSaved(page);
    nodes = (await storedDocument(api, space, number, pages[0])).nodes;
    expect(leaves(nodes[2].nodes[1].nodes[0])).toEqual([{ text: 'twojust words', marks: [] }]);

    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await waitSaved(page);
    nodes = (await storedDocument(api, space, number, pages[0])).nodes;
    expect(types(nodes)).toEqual(['paragraph', 'paragraph']);
  });

  it('pastes Google Docs HTML as a heading, bold, italic, a link and a list', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    const number = await atEnd(page, space, 'docs');
    await paste(page, { 'text/html': GOOGLE_DOCS, 'text/plain': 'Launch plan\nBold and italic with a link\nFirst\nSecond' });
    await waitSaved(page);
    const nodes = (await storedDocument(api, space, number, pages[1])).nodes;
    expect(types(nodes)).toEqual(['paragraph', 'heading-1', 'paragraph', ['list-unordered', [['list-item', ['paragraph']], ['list-item', ['paragraph']]]]]);
    expect(leaves(nodes[1])).toEqual([{ text: 'Launch plan', marks: [] }]);
    expect(leaves(nodes[2])).toEqual([{ text: 'Bold', marks: ['bold'] }, { text: ' and ', marks: [] }, { text: 'italic', marks: ['italic'] }, { text: ' with ', marks: [] }]);
    expect(nodes[2].nodes[1]).toMatchObject({ type: 'link', data: { ref: { kind: 'url', url: 'https://example.com/plan' } } });
    expect(leaves(nodes[3].nodes[1].nodes[0])).toEqual([{ text: 'Second', marks: [] }]);
    await expect.poll(() => editorBox(page).locator('h1').textContent()).toBe('Launch plan');
    await expectAccessible(page);
    await screenshot(page, 'paste/google-docs');
    policyKept();
  });

  it('pastes hostile HTML as its words only: the stored page holds no script, handler or script URL, and nothing ran', async () => {
    const page = await context.newPage();
    const number = await atEnd(page, space, 'hostile');
    await paste(page, { 'text/html': HOSTILE, 'text/plain': 'Safe words click' });
    await waitSaved(page);
    const document = await storedDocument(api, space, number, pages[2]);
    const json = JSON.stringify(document);
    expect(json).toContain('Safe words');
    expect(json).not.toMatch(/__pasted|<script|javascript|vbscript|data:|onerror|onload|onclick|srcdoc|iframe|svg/i);
    expect(await page.evaluate(() => (window as unknown as { __pasted?: number }).__pasted)).toBeUndefined();
    expect(await editorBox(page).locator('script, iframe, svg, [onerror], [onclick]').count()).toBe(0);
  });

  it('copies blocks in the editor and pastes them back whole: a hint keeps its style, a bold word its mark', async () => {
    const page = await context.newPage();
    const number = await atEnd(page, space, 'copies');
    await paste(page, { 'text/plain': '{% hint style="danger" %}\nMind the **gap**.\n{% endhint %}\n\nAfter.' });
    await waitSaved(page);
    // Everything, copied, then pasted at the end: the page twice over.
    await page.keyboard.press('Control+a');
    const copied = await copySelection(page);
    expect(copied['text/html']).toContain('data-quire-slice');
    await page.keyboard.press('Control+End');
    await paste(page, copied);
    await waitSaved(page);
    const nodes = (await storedDocument(api, space, number, pages[3])).nodes;
    expect(types(nodes)).toEqual(['paragraph', ['hint', ['paragraph']], 'paragraph', 'paragraph', ['hint', ['paragraph']], 'paragraph']);
    expect(nodes[4].data).toEqual({ style: 'danger' });
    expect(leaves(nodes[4].nodes[0])).toEqual([{ text: 'Mind the ', marks: [] }, { text: 'gap', marks: ['bold'] }, { text: '.', marks: [] }]);
  });

  it('uploads a picture pasted inside HTML as a data: address into the change request, in its place among the words', async () => {
    const page = await context.newPage();
    const number = await atEnd(page, space, 'pictures');
    const picture = `data:image/png;base64,${redPng(30, 20).toString('base64')}`;
    await paste(page, { 'text/html': `<p>Above the picture.</p><p><img src="${picture}" alt="A red box"></p><p>Below it.</p>`, 'text/plain': 'Above the picture.\nBelow it.' });
    await expect.poll(() => editorBox(page).locator('.quire-image img').getAttribute('src'), { timeout: 10_000 }).toContain('/files/download/');
    await waitSaved(page);
    const files = await api('GET', `/v1/spaces/${space}/change-requests/${number}/content/files`);
    const uploaded = files.body.items.find((file: any) => /^pasted-picture-\d+\.png$/.test(file.name));
    expect(uploaded).toMatchObject({ contentType: 'image/png', dimensions: { width: 30, height: 20 } });
    await expect.poll(async () => types((await storedDocument(api, space, number, pages[4])).nodes)).toEqual(['paragraph', 'paragraph', ['images', ['image']], 'paragraph']);
    const nodes = (await storedDocument(api, space, number, pages[4])).nodes;
    // Its words are its caption, as GitBook reads `![words](src)`.
    expect(nodes[2].nodes[0].data).toEqual({ ref: { kind: 'file', file: uploaded.id } });
    expect(leaves(nodes[2].nodes[0].fragments[0].nodes[0])).toEqual([{ text: 'A red box', marks: [] }]);
    expect(JSON.stringify(nodes)).not.toContain('data:');
  });
});
