// The content-write contract of @gitbook/api 0.202.0, whole: POST
// …/change-requests/{id}/content answered as GitBook answers it (compat=false),
// refs of any name linked as ./<ref> and ./<ref>.md, and files fetched from a URL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { expectGitBookAnswer } from '../helpers/gitbookContract.ts';

const testApp = useTestApp({ QUIRE_ALLOW_PRIVATE_URLS: 'true' });

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let files: Server;
let origin: string;
beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/notes') res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain notes');
    else if (req.url === '/big') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(1024 * 1024 + 1));
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => files.close(() => done())));

async function changeRequestOnNewSpace() {
  const org = await buildOrganization(testApp);
  const call = (method: 'GET' | 'POST', path: string, body?: object, query?: Record<string, string>) => request(testApp.app, method, path, { token: org.admin.token, body, query });
  const space = (await call('POST', `/v1/orgs/${org.organizationId}/spaces`, { title: 'Handbook' })).body;
  const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;
  const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const edit = (changes: object[], compat?: boolean) => call('POST', `${base}/content`, { changes }, compat === undefined ? undefined : { compat: String(compat) });
  return { call, space, changeRequest, base, edit };
}

describe('POST …/change-requests/{id}/content', () => {
  it('answers the change request by default, and with compat=false each page the batch touched, once, with its ref and where to read it, and the files it inserted', async () => {
    const { base, edit, changeRequest } = await changeRequestOnNewSpace();
    const compat = await edit([{ operation: 'insert_page', document: '# Keep\n\nKept.' }]);
    expect(compat.body).toMatchObject({ object: 'change-request', id: changeRequest.id });
    expectGitBookAnswer('updateChangeRequestContent', compat.body);
    const keep = (await edit([{ operation: 'insert_page', document: '# Old\n\nGone soon.' }], false)).body.changes[0].page.id;
    const answered = await edit(
      [
        { operation: 'insert_page', ref: 'guide', document: '# Guide\n\nSee [install](./install.md#steps).' },
        { operation: 'insert_page', ref: 'install', into: 'guide', document: '# Install\n\n## Steps\n\nRun it.' },
        { operation: 'update_page', page: 'guide', description: 'Start here' },
        { operation: 'insert_page', ref: 'scratch', document: '# Scratch' },
        { operation: 'delete_page', page: 'scratch' },
        { operation: 'delete_page', page: keep },
        { operation: 'insert_files', files: [{ ref: 'logo.png', name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') }] },
      ],
      false,
    );
    expect(answered.status).toBe(200);
    expectGitBookAnswer('updateChangeRequestContent', answered.body);
    const { changes, insertedFiles } = answered.body;
    expect(answered.body.changeRequest.id).toBe(changeRequest.id);
    expect(changes.map((change: { object: string; ref?: string }) => [change.object, change.ref])).toEqual([
      ['created_page', 'guide'],
      ['created_page', 'install'],
      ['deleted_page', undefined],
    ]);
    expect(changes[2].page).toBe(keep);
    expect(changes[0].page).toEqual({ object: 'page', id: expect.any(String), urls: { location: `http://quire.test${base}/content/page/${changes[0].page.id}` } });
    expect((await request(testApp.app, 'GET', new URL(changes[0].page.urls.location).pathname, { token: undefined })).status).toBe(401);
    expect(insertedFiles).toEqual([expect.objectContaining({ name: 'logo.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } })]);
  });

  it('takes refs of any name unique in the batch, linked from documents as ./<ref>.md (a page) and ./<ref> (a file), whatever the order of the changes', async () => {
    const { base, edit, call } = await changeRequestOnNewSpace();
    const answered = await edit(
      [
        { operation: 'insert_page', ref: 'overview', document: '# Overview\n\n![Our logo](./logo.png "Logo") and [the setup](./setup.md), [a manual](./manual.pdf).' },
        { operation: 'insert_page', ref: 'setup', document: '# Setup' },
        { operation: 'insert_files', files: [{ ref: 'logo.png', name: 'logo.png', base64: PNG.toString('base64') }, { ref: 'manual.pdf', name: 'manual.pdf', contentType: 'application/pdf', base64: Buffer.from('%PDF-1.4').toString('base64') }] },
      ],
      false,
    );
    expect(answered.status).toBe(200);
    const [overview, setup] = answered.body.changes.map((change: { page: { id: string } }) => change.page.id);
    const [logo, manual] = answered.body.insertedFiles.map((file: { id: string }) => file.id);
    const markdown = (await call('GET', `${base}/content/page/${overview}`)).body.markdown;
    expect(markdown).toContain(`![Our logo](/files/${logo} "Logo")`);
    expect(markdown).toContain(`[the setup](/pages/${setup})`);
    expect(markdown).toContain(`[a manual](/files/${manual})`);
    const document = JSON.stringify((await call('GET', `${base}/content/page/${overview}`, undefined, { format: 'document' })).body.document);
    expect(document).toContain(`{"kind":"file","file":"${logo}"}`);
    expect(document).toContain(`{"kind":"page","page":"${setup}"}`);
  });

  it('refuses a ref used twice in the batch, or naming a page already there, with a message to act on', async () => {
    const { edit } = await changeRequestOnNewSpace();
    const twice = await edit([
      { operation: 'insert_page', ref: 'logo.png', document: '# A' },
      { operation: 'insert_files', files: [{ ref: 'logo.png', name: 'logo.png', base64: PNG.toString('base64') }] },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toBe('changes[1].files[0].ref: "logo.png" is used twice in this batch');
    await edit([{ operation: 'insert_page', document: '# Install' }]);
    const taken = await edit([{ operation: 'insert_page', ref: 'install', document: '# Again' }]);
    expect(taken.body.error.message).toBe('changes[0].ref: "install" is the path of a page already there; choose another name');
  });

  it('fetches a file given by URL through the URL-safety rules, typed by what the URL answered unless the change says otherwise', async () => {
    const { edit } = await changeRequestOnNewSpace();
    const answered = await edit([{ operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', url: `${origin}/logo.png` }, { name: 'notes.txt', url: `${origin}/notes` }] }], false);
    expect(answered.status).toBe(200);
    expect(answered.body.insertedFiles).toEqual([
      expect.objectContaining({ name: 'logo.png', contentType: 'image/png', size: PNG.length, dimensions: { width: 1, height: 1 } }),
      expect.objectContaining({ name: 'notes.txt', contentType: 'text/plain', size: 11 }),
    ]);
    const bytes = await testApp.app.inject({ method: 'GET', url: new URL(answered.body.insertedFiles[1].downloadURL).pathname });
    expect(bytes.body).toBe('plain notes');
    for (const [file, message] of [
      [{ name: 'x', url: `${origin}/missing` }, `changes[0].files[0].url: ${origin}/missing answered HTTP 404`],
      [{ name: 'x', url: `${origin}/big` }, 'changes[0].files[0]: files are limited to 1 MB each'],
      [{ name: 'x', url: `${origin}/notes`, base64: 'AA==' }, 'changes[0].files[0]: give the bytes as base64 or a url to fetch them from, one of the two'],
      [{ name: 'x' }, 'changes[0].files[0]: give the bytes as base64 or a url to fetch them from, one of the two'],
      [{ name: 'x', url: 'ftp://files.example/x' }, 'changes[0].files[0].url: Only http and https URLs are fetched, not ftp:'],
    ] as const) {
      const refused = await edit([{ operation: 'insert_files', files: [file] }]);
      expect(refused.status, JSON.stringify(file)).toBe(400);
      expect(refused.body.error.message).toBe(message);
    }
  });
});
