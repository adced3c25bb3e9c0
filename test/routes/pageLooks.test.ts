// A page's cover and layout, GitBook's fields, and where a link page leads, set through a
// change request's content batch (update_page and insert_page) as the app's page
// settings set them.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.ts';
import { buildChangeRequest } from '../helpers/factories.ts';

const testApp = useTestApp();

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function setup() {
  const { edit, get, content } = await buildChangeRequest(testApp);
  return { edit, pages: async () => (await get(content)).body.pages };
}

describe("a page's cover and layout", () => {
  it("sets a cover from the change request's files or a URL, and a layout, in GitBook's shape; null removes the cover", async () => {
    const { edit, pages } = await setup();
    const inserted = await edit([
      { operation: 'insert_files', files: [{ name: 'cover.png', contentType: 'image/png', base64: PNG, ref: 'cover.png' }] },
      { operation: 'insert_page', title: 'Guide', document: 'Hello.', cover: { ref: { kind: 'file', file: 'cover.png' } }, layout: { outline: false, width: 'wide' } },
    ]);
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    const fileId = inserted.body.insertedFiles[0].id;
    let [guide] = await pages();
    expect(guide.cover).toEqual({ ref: { kind: 'file', file: fileId } });
    expect(guide.layout).toMatchObject({ outline: false, width: 'wide', title: true, pagination: true });

    expect((await edit([{ operation: 'update_page', page: guide.id, cover: { ref: { kind: 'url', url: 'https://example.com/sky.png' }, yPos: 20 }, layout: { pagination: false } }])).status).toBe(200);
    [guide] = await pages();
    expect(guide.cover).toEqual({ ref: { kind: 'url', url: 'https://example.com/sky.png' }, yPos: 20 });
    // The layout given replaces the one before: options left out are GitBook's defaults again.
    expect(guide.layout).toMatchObject({ pagination: false, outline: true, width: 'default' });

    expect((await edit([{ operation: 'update_page', page: guide.id, cover: null }])).status).toBe(200);
    [guide] = await pages();
    expect(guide.cover).toBeUndefined();
  });

  it('refuses a cover that is no file of the change request, a URL that is not http, and a cover on a group, saying which', async () => {
    const { edit, pages } = await setup();
    expect((await edit([{ operation: 'insert_page', title: 'Guide', document: 'Hello.' }, { operation: 'insert_page', type: 'group', title: 'Reference' }])).status).toBe(200);
    const [guide, group] = await pages();
    const missing = await edit([{ operation: 'update_page', page: guide.id, cover: { ref: { kind: 'file', file: 'nothing' } } }]);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('no file "nothing" in this change request');
    expect((await edit([{ operation: 'update_page', page: guide.id, cover: { ref: { kind: 'url', url: 'javascript:alert(1)' } } }])).status).toBe(400);
    const onGroup = await edit([{ operation: 'update_page', page: group.id, layout: { title: false } }]);
    expect(onGroup.status).toBe(400);
    expect(onGroup.body.error.message).toContain('only document pages have a cover and a layout');
  });

  it('changes where a link page leads, refusing a script URL and an href on a document page', async () => {
    const { edit, pages } = await setup();
    expect((await edit([{ operation: 'insert_page', type: 'link', title: 'GitHub', href: 'https://github.com/acme' }, { operation: 'insert_page', title: 'Guide', document: 'Hello.' }])).status).toBe(200);
    const [link, guide] = await pages();
    expect((await edit([{ operation: 'update_page', page: link.id, href: 'https://github.com/acme/docs' }])).status).toBe(200);
    expect((await pages())[0]).toMatchObject({ type: 'link', href: 'https://github.com/acme/docs', target: { kind: 'url', url: 'https://github.com/acme/docs' } });
    const script = await edit([{ operation: 'update_page', page: link.id, href: 'javascript:alert(1)' }]);
    expect(script.status).toBe(400);
    expect(script.body.error.message).toContain('a link page leads to a relative path or a URL of');
    const onDocument = await edit([{ operation: 'update_page', page: guide.id, href: 'https://example.com' }]);
    expect(onDocument.status).toBe(400);
    expect(onDocument.body.error.message).toContain('only link pages lead elsewhere, this is a document');
  });
});
