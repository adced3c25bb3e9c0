import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { pdfText } from '../helpers/pdf.ts';

const testApp = useTestApp();

const fixture = (name: string) => readFileSync(new URL(`../fixtures/gitbook/${name}`, import.meta.url), 'utf8');

async function setup() {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const space = (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token, body: { title: 'Acme' } })).body;
  const base = `/v1/spaces/${space.id}`;
  const call = (method: string, path: string, body?: object, query?: Record<string, string>) => request(testApp.app, method as 'GET', `${base}${path}`, { token, body, query });
  /** Opens a change request with `changes` and merges it. */
  const publish = async (changes: object[]) => {
    const changeRequest = (await call('POST', '/change-requests', {})).body;
    const edited = await call('POST', `/change-requests/${changeRequest.id}/content`, { changes });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await call('POST', `/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
    return changeRequest.id as string;
  };
  const pages = async () => {
    const flat: Array<{ id: string; title: string; path: string }> = [];
    const walk = (list: any[]) => list.forEach((page) => (flat.push(page), walk(page.pages ?? [])));
    walk((await call('GET', '/content/pages')).body.pages);
    return flat;
  };
  const pageId = async (title: string) => (await pages()).find((page) => page.title === title)!.id;
  return { base, call, publish, pageId, token };
}

/** The GitBook docs of the fixtures, as pages of one space: "Guides" holds "Getting started" and "Configuration". */
async function acmeDocs() {
  const docs = await setup();
  await docs.publish([
    { operation: 'insert_page', ref: 'guides', title: 'Guides', document: 'The guides.' },
    { operation: 'insert_page', into: 'guides', ref: 'start', document: fixture('getting-started.md') },
    { operation: 'insert_page', into: 'guides', document: fixture('configuration.md') },
    { operation: 'insert_page', document: fixture('reference.md') },
  ]);
  return docs;
}

const blocksOfType = (nodes: any[], type: string): any[] =>
  nodes.flatMap((node) => [
    ...(node.type === type ? [node] : []),
    ...blocksOfType(node.nodes ?? [], type),
    ...(node.fragments ?? []).flatMap((fragment: any) => blocksOfType(fragment.nodes, type)),
  ]);

describe('GitBook content through the API', () => {
  it('answers GitBook markdown as documents with every block, relative page links resolved with their anchors', async () => {
    const { call, pageId } = await acmeDocs();
    const start = await pageId('Getting started');
    const configuration = await pageId('Configuration');
    const document = (await call('GET', `/content/page/${start}`, undefined, { format: 'document' })).body.document;
    const types = document.nodes.map((node: any) => node.type);
    // `## Install the CLI` is a heading-1: the page's title is its `#`, as GitBook syncs pages.
    expect(types).toEqual(expect.arrayContaining(['hint', 'tabs', 'stepper', 'images', 'content-ref', 'paragraph', 'heading-1']));
    expect(blocksOfType(document.nodes, 'heading-3').map((heading) => heading.meta.id)).toEqual(['in-ci']);
    const tabs = blocksOfType(document.nodes, 'tabs-item').map((tab) => tab.data.title);
    expect(tabs).toEqual(['macOS', 'Windows', 'Linux']);
    const links = blocksOfType(document.nodes, 'paragraph').flatMap((paragraph) => paragraph.nodes.filter((node: any) => node.type === 'link'));
    expect(links.map((link: any) => link.data.ref)).toEqual([
      { kind: 'page', page: configuration, anchor: 'profiles' },
      { kind: 'url', url: 'https://api.acme.test/docs' },
    ]);
    expect(blocksOfType(document.nodes, 'content-ref')[0].data.ref).toEqual({ kind: 'page', page: configuration });
    const table = blocksOfType((await call('GET', `/content/page/${configuration}`, undefined, { format: 'document' })).body.document.nodes, 'table')[0];
    expect(Object.values(table.data.definition).map((column: any) => column.title)).toEqual(['Setting', 'Default', 'Meaning']);
  });

  it("answers pages in GitBook's earlier formats and HTML forms as the blocks they are, never a tag as text", async () => {
    const docs = await setup();
    await docs.publish([
      { operation: 'insert_page', document: fixture('legacy.md') },
      { operation: 'insert_page', document: fixture('html-forms.md') },
    ]);
    const earlier = await docs.pageId('Earlier formats');
    const forms = await docs.pageId('HTML forms');
    const document = async (page: string) => (await docs.call('GET', `/content/page/${page}`, undefined, { format: 'document' })).body.document;
    const earlierDocument = await document(earlier);
    expect(blocksOfType(earlierDocument.nodes, 'code').find((code) => code.data.title)?.data.title).toBe('settings.yaml');
    expect(blocksOfType(earlierDocument.nodes, 'heading-2').map((heading) => heading.meta.id)).toEqual(['get-cakes', 'requests-block-data', 'get-ip-blocks']);
    expect(blocksOfType(earlierDocument.nodes, 'table')).toHaveLength(4);
    const formsDocument = await document(forms);
    expect(blocksOfType(formsDocument.nodes, 'hint').map((hint) => hint.data.style)).toEqual(['success', 'info', 'warning', 'info']);
    expect(blocksOfType(formsDocument.nodes, 'emoji').length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify([earlierDocument, formsDocument])).not.toMatch(/\{%|data-gb-custom|<\/?(p|div|span)\b/);
  });

  it("answers a page in GitBook's earlier formats as markdown in today's, which reads as the same blocks", async () => {
    const docs = await setup();
    await docs.publish([{ operation: 'insert_page', document: fixture('legacy.md') }]);
    const earlier = await docs.pageId('Earlier formats');
    const markdown: string = (await docs.call('GET', `/content/page/${earlier}`, undefined, { format: 'markdown' })).body.markdown;
    expect(markdown).not.toMatch(/\{%\s*(page-ref|code-tabs|api-method|swagger)|caption=/);
    expect(markdown).toContain('{% content-ref url="other.md" %}');
    expect(markdown).toContain('{% file src="manual.pdf" %}\nThe manual\n{% endfile %}');
    await docs.publish([{ operation: 'insert_page', title: 'Written again', document: markdown }]);
    const document = async (page: string) => (await docs.call('GET', `/content/page/${page}`, undefined, { format: 'document' })).body.document;
    const shape = (nodes: any[]): unknown => nodes.map((node) => (node.object === 'block' ? [node.type, shape(node.nodes ?? [])] : node.object));
    expect(shape((await document(await docs.pageId('Written again'))).nodes)).toEqual(shape((await document(earlier)).nodes));
  });

  it('takes GitBook\'s JSONDocument as a page\'s content, stores it as GitBook markdown and answers it back alike', async () => {
    const { call, publish, pageId } = await setup();
    const sent = {
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'hint', data: { style: 'success' }, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Saved.', marks: [{ object: 'mark', type: 'bold' }] }] }] }] },
        { object: 'block', type: 'math', isVoid: true, data: { formula: 'e^{i\\pi} + 1 = 0' } },
        { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=1' } },
      ],
    };
    await publish([{ operation: 'insert_page', title: 'Saved', document: { document: sent } }]);
    const id = await pageId('Saved');
    const markdown = (await call('GET', `/content/page/${id}`, undefined, { format: 'markdown' })).body.markdown;
    expect(markdown).toBe('{% hint style="success" %}\n**Saved.**\n{% endhint %}\n\n$$\ne^{i\\pi} + 1 = 0\n$$\n\n{% embed url="https://www.youtube.com/watch?v=1" %}\n');
    const answered = (await call('GET', `/content/page/${id}`, undefined, { format: 'document' })).body.document;
    expect(answered.nodes.map((node: any) => node.type)).toEqual(['hint', 'math', 'embed']);
    expect(answered.nodes[1].data).toEqual({ formula: 'e^{i\\pi} + 1 = 0' });
  });

  it("makes a page's document ahead once an editor saves it as a JSONDocument, for the change request's latest save only", async () => {
    const { call } = await setup();
    const changeRequest = (await call('POST', '/change-requests', {})).body;
    const paragraph = (text: string) => ({ object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });
    const documents = () => testApp.database.db.selectFrom('page_documents').select('hash').execute();
    const before = new Set((await documents()).map((row) => row.hash));
    const inserted = await call('POST', `/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', title: 'Saved ahead', document: { document: paragraph('First words.') } }] }, { compat: 'false' });
    const page = inserted.body.changes[0].page.id;
    // Two saves in a row, as an editor makes them: the document of the last is made, whichever of the first's has run.
    for (const text of ['Second words.', 'Last words.']) {
      expect((await call('POST', `/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'update_page', page, document: { document: paragraph(text) } }] })).status).toBe(200);
    }
    const markdownOfLast = (await call('GET', `/change-requests/${changeRequest.id}/content/page/${page}`, undefined, { format: 'markdown' })).body.markdown;
    expect(markdownOfLast).toBe('Last words.\n');
    const preparing = () => testApp.database.db.selectFrom('jobs').select('id').where('kind', '=', 'prepare-written-documents').execute();
    await vi.waitFor(async () => expect(await preparing()).toEqual([]), { timeout: 10_000 });
    const made = (await documents()).filter((row) => !before.has(row.hash)).map((row) => row.hash);
    // The reading finds the document made ahead: no document is made for it.
    expect((await call('GET', `/change-requests/${changeRequest.id}/content/page/${page}`, undefined, { format: 'document' })).body.document.nodes[0].nodes[0].leaves[0].text).toBe('Last words.');
    expect((await documents()).filter((row) => !before.has(row.hash)).map((row) => row.hash)).toEqual(made);
  });

  it("takes a JSONDocument whose blocks and inlines leave out their data, as GitBook's schema lets them, in table cells too", async () => {
    const { call, publish, pageId } = await setup();
    const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }, { object: 'inline', type: 'link', nodes: [] }] });
    const table = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: { view: { type: 'grid', columns: ['a'] }, definition: { a: { id: 'a', title: 'Name', type: 'text' } }, records: { r: { orderIndex: 'a0', values: { a: 'cell' } } } },
      fragments: [{ object: 'fragment', fragment: 'cell', nodes: [paragraph('In a cell.')] }],
    };
    // Before, the table's cell answered a 500.
    await publish([{ operation: 'insert_page', title: 'Bare', document: { document: { object: 'document', nodes: [paragraph('Plain.'), table] } } }]);
    const markdown = (await call('GET', `/content/page/${await pageId('Bare')}`, undefined, { format: 'markdown' })).body.markdown;
    expect(markdown).toMatch(/^Plain\.\[\]\(\)\n\n\| Name +\|\n\| -+ \|\n\| In a cell\.\[\]\(\) +\|\n$/);
  });

  it("keeps a table's merged cells (GitBook's cellMerges) sent in a JSONDocument: stored as HTML's colspan and rowspan, answered back as merges", async () => {
    const { call, publish, pageId } = await setup();
    const cell = (fragment: string, text: string) => ({ object: 'fragment', fragment, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }] });
    const column = (id: string, title: string) => ({ id, title, type: 'text', textAlignment: 'left' });
    const table = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['plan', 'seats', 'price'] },
        definition: { plan: column('plan', 'Plan'), seats: column('seats', 'Seats'), price: column('price', 'Price') },
        records: {
          second: { orderIndex: 'a1', values: { plan: 'tall', seats: 's2', price: 'p2' } },
          first: { orderIndex: 'a0', values: { plan: 'wide', seats: 'under', price: 'p1' } },
          third: { orderIndex: 'a2', values: { seats: 's3', price: 'p3' } },
        },
        cellMerges: [
          { anchor: { record: 'first', column: 'plan' }, rowSpan: 1, colSpan: 2 },
          { anchor: { record: 'second', column: 'plan' }, rowSpan: 2, colSpan: 1 },
        ],
      },
      fragments: [cell('wide', 'Wide'), cell('under', ''), cell('p1', '10'), cell('tall', 'Tall'), cell('s2', '5'), cell('p2', '20'), cell('s3', '9'), cell('p3', '30')],
    };
    await publish([{ operation: 'insert_page', title: 'Merged', document: { document: { object: 'document', nodes: [table] } } }]);
    const id = await pageId('Merged');
    const markdown = (await call('GET', `/content/page/${id}`, undefined, { format: 'markdown' })).body.markdown;
    expect(markdown).toContain('<tr><td colspan="2">Wide</td><td>10</td></tr><tr><td rowspan="2">Tall</td><td>5</td><td>20</td></tr><tr><td>9</td><td>30</td></tr>');
    const answered = (await call('GET', `/content/page/${id}`, undefined, { format: 'document' })).body.document.nodes[0];
    const [first, second] = Object.entries(answered.data.records as Record<string, { orderIndex: string }>).sort(([, a], [, b]) => (a.orderIndex < b.orderIndex ? -1 : 1)).map(([record]) => record);
    const [plan] = answered.data.view.columns;
    expect(answered.data.cellMerges).toEqual([
      { anchor: { record: first, column: plan }, rowSpan: 1, colSpan: 2 },
      { anchor: { record: second, column: plan }, rowSpan: 2, colSpan: 1 },
    ]);
  });

  it("refuses a malformed JSONDocument with a 400 naming where it is wrong, an emoji's code naming no character too", async () => {
    const { call } = await setup();
    const changeRequest = (await call('POST', '/change-requests', {})).body;
    const bad = await call('POST', `/change-requests/${changeRequest.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Bad', document: { document: { object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 7 }] }] }] } } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('changes[0].document.document: nodes[0].nodes[0].leaves[0].text: must be a string');
    const emoji = (code: unknown) => ({ object: 'document', nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'inline', type: 'emoji', isVoid: true, data: { code } }] }] });
    for (const code of ['110000', '🎉', 'zz', 7]) {
      const refused = await call('POST', `/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', title: 'Bad', document: { document: emoji(code) } }] });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^changes\[0\]\.document\.document: nodes\[0\]\.nodes\[0\]\.data\.code: must be an emoji's code points in hex/);
    }
    const fine = await call('POST', `/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', title: 'Party', document: { document: emoji('1f389') } }] });
    expect(fine.status).toBe(200);
  });

  it("refuses with a 400, never a 500, a JSONDocument whose data is of another type than GitBook's: a table's records as text or without its columns, a list of schemas as a number", async () => {
    const { call } = await setup();
    const changeRequest = (await call('POST', '/change-requests', {})).body;
    const hostile = [
      { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns: ['a'] }, definition: { a: { id: 'a', title: 'A', type: 'text' } }, records: 'x' } },
      { object: 'block', type: 'table', isVoid: true, data: { view: { type: 'grid', columns: ['a'] }, records: { r: { orderIndex: 'a0', values: { a: 'f' } } } } },
      { object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, schemas: 7 } },
    ];
    for (const node of hostile) {
      const refused = await call('POST', `/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', title: 'Bad', document: { document: { object: 'document', nodes: [node] } } }] });
      expect(refused.status, JSON.stringify(node)).toBe(400);
      expect(refused.body.error.message).toMatch(/^changes\[0\]\.document\.document: a node's data is not what GitBook's document model holds there/);
    }
    expect((await call('GET', `/change-requests/${changeRequest.id}/content/pages`)).body.pages).toEqual([]);
  });

  it('finds words inside tabs, hints, steppers, tables, expandables and captions', async () => {
    const { call } = await acmeDocs();
    const titles = async (query: string) => (await call('GET', '/search', undefined, { query })).body.items.flatMap((space: any) => space.pages?.map((page: any) => page.title) ?? [space.title]);
    expect(await titles('powershell')).toEqual(['Getting started']);
    expect(await titles('distribution')).toEqual(['Getting started']);
    expect(await titles('token field')).toEqual(['Getting started']);
    expect(await titles('APPDATA')).toEqual(['Configuration']);
    expect(await titles('"Where results run"')).toEqual([]);
    expect(await titles('"How results print"')).toEqual(['Configuration']);
    expect(await titles('dedicated region')).toEqual(['API reference']);
  });

  it('sees links inside every block in the links of the space', async () => {
    const { call, pageId } = await acmeDocs();
    const configuration = await pageId('Configuration');
    const start = await pageId('Getting started');
    const items = (await call('GET', '/links')).body.items;
    const toConfiguration = items.filter((item: any) => item.targetReference.kind === 'page' && item.targetReference.page.id === configuration);
    expect(toConfiguration.length).toBeGreaterThan(0);
    expect(toConfiguration.every((item: any) => item.locationReferences.every((location: any) => location.page.id === start))).toBe(true);
    const toStart = items.find((item: any) => item.targetReference.kind === 'page' && item.targetReference.page.id === start);
    expect(toStart?.status).toBe('ok');
  });

  it('renders every block kind in a PDF, at least as its words', async () => {
    const { call, token } = await setup();
    const changeRequest = (await call('POST', '/change-requests', {})).body;
    await call('POST', `/change-requests/${changeRequest.id}/content`, {
      changes: [{ operation: 'insert_page', document: fixture('getting-started.md') }, { operation: 'insert_page', document: fixture('configuration.md') }, { operation: 'insert_page', document: fixture('reference.md') }],
    });
    const link = await call('GET', `/change-requests/${changeRequest.id}/pdf`);
    const pdf = await testApp.app.inject({ method: 'GET', url: new URL(link.body.url).pathname, headers: { authorization: `Bearer ${token}` } });
    expect(pdf.statusCode).toBe(200);
    const text = pdfText(pdf.rawPayload);
    for (const words of ['brew install acme', 'Create a token', 'Owner', 'Where is the file on Windows?', 'APPDATA', 'How results print', 'Text on the left.', 'Summarise the changes', 'Profiles arrived.', 'Enterprise customers', 'GET /pet/{petId}']) {
      expect(text).toContain(words);
    }
  });
});
