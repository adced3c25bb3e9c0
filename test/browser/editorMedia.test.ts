// Images, files, embeds and maths in the editor: files picked, dropped or pasted are
// uploaded into the change request (insert_files, with a progress bar) and referenced
// by GitBook's images/image and file blocks; what Quire cannot take is refused in words
// and the page left as it was; an embed takes a web address; formulas are typeset and
// edited as TeX. Each is checked through the API, as the change request holds it.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useBrowser, watchPolicy } from '../helpers/browser.ts';
import { editorBox, leaves, openEditor, redPng, seedSpace, setUpOrganization, storedDocument, waitSaved, type Api } from '../helpers/writing.ts';

describeInBrowser('images, files, embeds and maths in the editor', () => {
  const harness = useBrowser();
  let context: BrowserContext;
  let organizationId: string;
  let api: Api;
  let space: string;
  let pageIds: string[];

  beforeAll(async () => {
    mkdirSync('/tmp/screens/media', { recursive: true });
    ({ context, organizationId, api } = await setUpOrganization(harness));
    ({ space, pages: pageIds } = await seedSpace(api, organizationId, 'Media', ['# Pictures\n\nThe diagram follows.', '# Refusals\n\nNothing is added here.', '# Attachments\n\nThe report.', '# Formulas\n\nThe proof.']));
  }, 60_000);

  const shown = (locator: Locator) => expect.poll(() => locator.isVisible(), { timeout: 10_000 }).toBe(true);

  /** Types `/` and the item's first word on a new line at the page's end, and chooses the item from the slash menu. */
  async function slash(page: Page, title: string, newLine = true): Promise<void> {
    if (newLine) {
      await editorBox(page).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
    }
    await page.keyboard.type(`/${title.split(' ')[0].toLowerCase()}`);
    const option = page.getByRole('option', { name: new RegExp(`^${title}`) });
    await shown(option);
    await option.click();
  }

  /** Chooses the slash item and gives the browser's file picker these files. */
  async function pick(page: Page, query: string, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
    const chooser = page.waitForEvent('filechooser');
    await slash(page, query);
    await (await chooser).setFiles(files);
  }

  const changeRequestFiles = async (changeRequest: string) => (await api('GET', `/v1/spaces/${space}/change-requests/${changeRequest}/content/files`)).body.items;

  it('uploads a picked image into the change request with a progress bar, saves it as an images block referencing that file, and keeps the caption, alt text and size written in place', async () => {
    const page = await context.newPage();
    const policyKept = watchPolicy(page);
    const number = await openEditor(page, space, 'pictures');
    // The upload's answer held back a moment, so that its progress bar can be seen.
    await page.route('**/content', async (route) => {
      if (route.request().method() === 'POST' && route.request().postData()?.includes('insert_files')) await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await pick(page, 'Image', [{ name: 'diagram.png', mimeType: 'image/png', buffer: redPng(120, 60) }]);
    // The bar starts empty (no width to be seen): it is there, with its share for assistive technology.
    await expect.poll(() => page.getByRole('progressbar', { name: 'Uploading diagram.png' }).count()).toBe(1);
    await shown(page.getByText(/^Uploading diagram\.png… \d+%$/));
    const picture = editorBox(page).locator('.quire-image img').first();
    await shown(picture);
    expect(await picture.getAttribute('src')).toContain('/files/download/');
    expect(await picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(120);
    await waitSaved(page);

    const files = await changeRequestFiles(number);
    expect(files.map((file: any) => [file.name, file.contentType, file.dimensions])).toEqual([['diagram.png', 'image/png', { width: 120, height: 60 }]]);
    let nodes = (await storedDocument(api, space, number, pageIds[0])).nodes;
    expect(nodes.map((node: any) => node.type)).toEqual(['paragraph', 'images']);
    expect(nodes[1].nodes[0]).toMatchObject({ type: 'image', isVoid: true, data: { ref: { kind: 'file', file: files[0].id } } });

    // The caption is written under the picture; alt text and size are its fields.
    await editorBox(page).locator('.quire-image .quire-caption p').click();
    await page.keyboard.type('How the parts meet');
    // Backspace at the caption's start selects the image's block rather than taking the caption apart.
    await page.keyboard.press('Home');
    await page.keyboard.press('Backspace');
    await expect.poll(() => editorBox(page).locator('.ProseMirror-selectednode:has(.quire-image)').count()).toBe(1);
    await page.getByLabel('Alt text').fill('Three boxes joined by arrows');
    await page.getByLabel('Size').selectOption('50');
    await waitSaved(page);
    nodes = (await storedDocument(api, space, number, pageIds[0])).nodes;
    const image = nodes[1].nodes[0];
    expect(image.data).toEqual({ ref: { kind: 'file', file: files[0].id }, alt: 'Three boxes joined by arrows', width: { unit: '%', value: 50 } });
    expect(leaves(image.fragments[0].nodes[0])).toEqual([{ text: 'How the parts meet', marks: [] }]);

    // Full width is the images block's own field.
    await page.getByLabel('Size').selectOption('full');
    await waitSaved(page);
    nodes = (await storedDocument(api, space, number, pageIds[0])).nodes;
    expect(nodes[1].data).toEqual({ fullWidth: true });
    expect(nodes[1].nodes[0].data.width).toBeUndefined();

    // Opened again, the image reads back as it was written.
    await page.reload();
    await shown(editorBox(page).locator('.quire-image img'));
    expect(await page.getByLabel('Alt text').inputValue()).toBe('Three boxes joined by arrows');
    expect(await page.getByLabel('Size').inputValue()).toBe('full');
    expect(await editorBox(page).locator('.quire-image .quire-caption').textContent()).toBe('How the parts meet');
    await expectAccessible(page);
    await screenshot(page, 'media/editor-image');
    policyKept();
  });

  it('adds a dark mode variant to an image, kept as GitBook’s refDark', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'pictures');
    await shown(editorBox(page).locator('.quire-image img'));
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add a dark mode variant' }).click();
    await (await chooser).setFiles([{ name: 'diagram-dark.png', mimeType: 'image/png', buffer: redPng(120, 60) }]);
    await shown(page.getByRole('img', { name: /Dark mode variant of diagram\.png/ }));
    await waitSaved(page);
    const dark = (await changeRequestFiles(number)).find((file: any) => file.name === 'diagram-dark.png');
    const image = (await storedDocument(api, space, number, pageIds[0])).nodes[1].nodes[0];
    expect(Object.keys(image.data)).toEqual(['ref', 'refDark', 'alt']);
    expect(image.data.refDark).toEqual({ kind: 'file', file: dark.id });
    await page.getByRole('button', { name: 'Remove' }).click();
    await waitSaved(page);
    expect((await storedDocument(api, space, number, pageIds[0])).nodes[1].nodes[0].data.refDark).toBeUndefined();
  });

  it('adds images beside an image, aligns and frames them, replaces one and deletes another, each kept as GitBook’s fields', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'pictures');
    const pictures = editorBox(page).locator('.quire-image img');
    await shown(pictures.first());
    const before = (await storedDocument(api, space, number, pageIds[0])).nodes[1].nodes[0].data.ref;
    let chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Add images beside' }).click();
    await (await chooser).setFiles([
      { name: 'second.png', mimeType: 'image/png', buffer: redPng(80, 40) },
      { name: 'third.png', mimeType: 'image/png', buffer: redPng(60, 60) },
    ]);
    await expect.poll(() => pictures.count(), { timeout: 10_000 }).toBe(3);
    await page.getByRole('combobox', { name: 'Alignment' }).selectOption('center');
    await page.getByRole('checkbox', { name: 'Frame' }).check();
    chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Replace image' }).nth(1).click();
    await (await chooser).setFiles([{ name: 'replaced.png', mimeType: 'image/png', buffer: redPng(90, 30) }]);
    await page.getByRole('button', { name: 'Delete image' }).nth(2).click();
    await expect.poll(() => pictures.count()).toBe(2);
    await waitSaved(page);
    const replaced = (await changeRequestFiles(number)).find((file: any) => file.name === 'replaced.png');
    await expect.poll(async () => (await storedDocument(api, space, number, pageIds[0])).nodes[1].nodes.map((image: any) => image.data.ref)).toEqual([before, { kind: 'file', file: replaced.id }]);
    const block = (await storedDocument(api, space, number, pageIds[0])).nodes[1];
    // Full width, set by the first test, stays as it was.
    expect(block.data).toEqual({ fullWidth: true, align: 'center', withFrame: true });
    const markdown = (await api('GET', `/v1/spaces/${space}/change-requests/${number}/content/page/${pageIds[0]}?format=markdown`)).body.markdown;
    expect(markdown).toMatch(/<div align="center" data-full-width="true" data-with-frame="true"><figure>.*<\/figure> <figure>.*<\/figure><\/div>/s);
    await expectAccessible(page);
    await screenshot(page, 'media/editor-images-beside');
  });

  it('refuses a file over 1 MB and a file that is not an image, saying why in words, and leaves the page as it was', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'refusals');
    const before = await storedDocument(api, space, number, pageIds[1]);

    await pick(page, 'Image', [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') }]);
    await shown(page.getByRole('alert').filter({ hasText: '“notes.txt” is not an image a page can show. Choose a PNG, JPEG, GIF, WebP or SVG file.' }));

    // Dropped on the page: 1.5 MB is refused before anything is sent.
    const sent: string[] = [];
    page.on('request', (request) => request.postData()?.includes('insert_files') && sent.push(request.url()));
    await editorBox(page).evaluate((element) => {
      const bytes = new Uint8Array(1.5 * 1024 * 1024);
      bytes.set([0x89, 0x50, 0x4e, 0x47]);
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'poster.png', { type: 'image/png' }));
      const box = element.getBoundingClientRect();
      element.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true, clientX: box.left + 20, clientY: box.top + 10 }));
    });
    await shown(page.getByRole('alert').filter({ hasText: '“poster.png” is 1.5 MB; Quire takes files of up to 1 MB. Make it smaller (compress or resize it) and add it again.' }));
    expect(sent).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'media/editor-refused');

    await page.getByRole('button', { name: 'Dismiss' }).first().click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'notes.txt' }).count()).toBe(0);
    // No block was added, and no file: the page holds what it held, with the empty line the item was chosen on.
    await waitSaved(page);
    expect((await storedDocument(api, space, number, pageIds[1])).nodes.map((node: any) => node.type)).toEqual([...before.nodes.map((node: any) => node.type), 'paragraph']);
    expect((await changeRequestFiles(number)).map((file: any) => file.name)).not.toContain('poster.png');
  });

  it('adds a dropped image and a pasted file, the file as a block with its name, size and a caption', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'attachments');
    const png = [...redPng(40, 40)];
    await editorBox(page).evaluate((element, bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'photo.png', { type: 'image/png' }));
      const box = element.getBoundingClientRect();
      element.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true, clientX: box.left + 30, clientY: box.top + 12 }));
    }, png);
    await shown(editorBox(page).locator('.quire-image img'));

    // Pasted while writing the image's caption: the file goes after the image, not into its caption.
    await editorBox(page).locator('.quire-image .quire-caption p').click();
    await editorBox(page).evaluate((element) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['%PDF-1.4 a small report'], 'report.pdf', { type: 'application/pdf' }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    });
    const card = editorBox(page).locator('.quire-file');
    await shown(card.getByText('report.pdf'));
    expect(await card.textContent()).toContain('23 bytes · application/pdf');
    await card.getByRole('button', { name: 'Add a caption' }).click();
    await page.keyboard.type('The yearly report');
    await waitSaved(page);

    const files = await changeRequestFiles(number);
    const id = (name: string) => files.find((file: any) => file.name === name).id;
    const nodes = (await storedDocument(api, space, number, pageIds[2])).nodes;
    expect(nodes.map((node: any) => node.type)).toEqual(['images', 'file', 'paragraph']);
    expect(nodes[0].nodes[0].data).toEqual({ ref: { kind: 'file', file: id('photo.png') } });
    expect(nodes[1].data).toEqual({ ref: { kind: 'file', file: id('report.pdf') } });
    expect(leaves(nodes[1].fragments[0].nodes[0])).toEqual([{ text: 'The yearly report', marks: [] }]);
    // The reader offers the file to download under its caption.
    const markdown = (await api('GET', `/v1/spaces/${space}/change-requests/${number}/content/page/${pageIds[2]}`)).body.markdown;
    expect(markdown).toContain('{% file src=');
    expect(markdown).toContain('The yearly report\n{% endfile %}');
    await expectAccessible(page);
    await screenshot(page, 'media/editor-file');

    // Replaced: the block keeps its caption and takes the new file.
    const chooser = page.waitForEvent('filechooser');
    await card.getByRole('button', { name: 'Replace file' }).click();
    await (await chooser).setFiles([{ name: 'report-2.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 the corrected report') }]);
    await shown(card.getByText('report-2.pdf'));
    await waitSaved(page);
    const replaced = (await changeRequestFiles(number)).find((file: any) => file.name === 'report-2.pdf');
    await expect.poll(async () => (await storedDocument(api, space, number, pageIds[2])).nodes[1].data).toEqual({ ref: { kind: 'file', file: replaced.id } });
    expect(leaves((await storedDocument(api, space, number, pageIds[2])).nodes[1].fragments[0].nodes[0])).toEqual([{ text: 'The yearly report', marks: [] }]);
  });

  it('embeds a web address given in the block, refusing one that is not http or https', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'attachments');
    // Enter at the end of the file's caption goes on after the file.
    await editorBox(page).locator('.quire-file .quire-caption p').click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await slash(page, 'Embed', false);
    const address = page.getByLabel('Address to embed');
    await shown(address);
    await address.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Embed', exact: true }).click();
    await shown(page.getByText('Only web addresses (starting with https:// or http://) can be embedded.'));
    await address.fill('www.youtube.com/watch?v=dQw4w9WgXcQ');
    await address.press('Enter');
    const card = editorBox(page).locator('.quire-embed');
    await shown(card.getByRole('link', { name: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' }));
    expect(await card.locator('iframe').count()).toBe(0);
    await waitSaved(page);
    const nodes = (await storedDocument(api, space, number, pageIds[2])).nodes;
    expect(nodes.map((node: any) => node.type)).toEqual(['images', 'file', 'embed', 'paragraph']);
    expect(leaves(nodes[1].fragments[0].nodes[0])).toEqual([{ text: 'The yearly report', marks: [] }]);
    expect(nodes[2]).toMatchObject({ object: 'block', type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } });
    expect(nodes[2].fragments).toBeUndefined();
    await expectAccessible(page);
    await screenshot(page, 'media/editor-embed');
    // The image, the file and the embed in the dark theme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await screenshot(page, 'media/editor-embed-dark');
  });

  it('writes a math block and inline math in TeX from the slash menu and `$$`, typeset as the reader shows them', async () => {
    const page = await context.newPage();
    const number = await openEditor(page, space, 'formulas');
    await slash(page, 'Math block');
    const source = page.getByLabel('TeX formula');
    await shown(source);
    await source.fill('a^2 + b^2 = c^2');
    await source.press('Control+Enter');
    await shown(editorBox(page).locator('.quire-math math'));

    // Done, the cursor is on a new line after the formula.
    await page.keyboard.type('Energy is ');
    await slash(page, 'Inline math', false);
    await shown(page.getByLabel('TeX formula'));
    await page.keyboard.type('E = mc^2');
    await page.keyboard.press('Enter');
    await page.keyboard.type(' here, and $$\\pi r^2$$ there.');
    await waitSaved(page);

    // `$$` and a space on a line of its own opens a math block.
    await page.keyboard.press('Enter');
    await page.keyboard.type('$$ ');
    await shown(page.getByLabel('TeX formula'));
    await page.keyboard.type('\\sum_{i=1}^n i');
    await page.keyboard.press('Escape');
    await waitSaved(page);

    const nodes = (await storedDocument(api, space, number, pageIds[3])).nodes;
    expect(nodes.map((node: any) => node.type)).toEqual(['paragraph', 'math', 'paragraph', 'math', 'paragraph']);
    expect(nodes[1].data).toEqual({ formula: 'a^2 + b^2 = c^2' });
    expect(nodes[3].data).toEqual({ formula: '\\sum_{i=1}^n i' });
    const line = nodes[2].nodes.map((node: any) => (node.object === 'inline' ? `[${node.type}:${node.data.formula}]` : node.leaves.map((leaf: any) => leaf.text).join('')));
    expect(line).toEqual(['Energy is ', '[inline-math:E = mc^2]', ' here, and ', '[inline-math:\\pi r^2]', ' there.']);
    expect(await editorBox(page).locator('.quire-inline-math math').count()).toBe(2);

    // A click on a formula opens its TeX again.
    await editorBox(page).locator('.quire-math').first().getByRole('button', { name: /^Edit the formula/ }).click();
    expect(await page.getByLabel('TeX formula').inputValue()).toBe('a^2 + b^2 = c^2');
    await page.keyboard.press('Escape');
    await expectAccessible(page);
    await screenshot(page, 'media/editor-math');
  });
});
