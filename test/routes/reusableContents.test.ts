// Reusable contents written through a change request's content batch (Quire's
// insert_reusable_content and update_reusable_content, as the editor writes them): read
// back where GitBook's API reads them, shown in the pages that include them, published by
// the merge, and refused to whoever may not edit.
import { describe, expect, it } from 'vitest';
import { request, useTestApp } from '../helpers/app.ts';
import { buildChangeRequest, buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const documentOf = (...nodes: object[]) => ({ object: 'document', data: {}, nodes });
const texts = (document: { nodes: Array<{ nodes?: Array<{ leaves?: Array<{ text: string }> }> }> }) =>
  document.nodes.map((node) => (node.nodes ?? []).flatMap((inline) => (inline.leaves ?? []).map((leaf) => leaf.text)).join(''));

const setup = () => buildChangeRequest(testApp);

describe('reusable contents written in a change request', () => {
  it('makes a reusable content, includes it in a page, edits it where it lives, and the page shows the edit', async () => {
    const { content, edit, get } = await setup();
    const made = await edit([{ operation: 'insert_reusable_content', title: 'Support', document: { document: documentOf(paragraph('Write to us.')) } }]);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [created] = made.body.changes;
    expect(created).toMatchObject({ object: 'created_reusable_content', reusableContent: { object: 'reusable-content', urls: { location: expect.stringContaining(`${content}/reusable-contents/`) } } });
    const id = created.reusableContent.id as string;
    const read = await get(`${content}/reusable-contents/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, title: 'Support' });
    expect(texts((await get(`${content}/reusable-contents/${id}/document`)).body)).toEqual(['Write to us.']);

    const include = { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: id } } };
    const page = await edit([{ operation: 'insert_page', title: 'Help', document: { document: documentOf(paragraph('Before.'), include) } }]);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const pageId = page.body.changes[0].page.id as string;

    const edited = await edit([{ operation: 'update_reusable_content', reusableContent: id, title: 'Getting help', document: { document: documentOf(paragraph('Write to us, or call.')) } }]);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.changes).toEqual([{ object: 'updated_reusable_content', reusableContent: { object: 'reusable-content', id, urls: { location: expect.stringMatching(new RegExp(`${content}/reusable-contents/${id}$`)) } } }]);
    expect((await get(`${content}/reusable-contents/${id}`)).body).toMatchObject({ title: 'Getting help' });
    // The page keeps its include, and shows the new blocks where it stands.
    const stored = (await get(`${content}/page/${pageId}?format=document`)).body.document;
    expect(stored.nodes[1]).toMatchObject({ type: 'reusable-content', data: { ref: { reusableContent: id } } });
    const shown = (await get(`${content}/page/${pageId}?format=document&dereferenced=reusable-contents`)).body.document;
    expect(texts(shown)).toEqual(['Before.', 'Write to us, or call.']);
  });

  it('publishes an edited reusable content with the merge, into the space every page reads', async () => {
    const { space, base, changeRequest, edit, get, token } = await setup();
    const id = (await edit([{ operation: 'insert_reusable_content', title: 'Notice', document: 'First words.' }])).body.changes[0].reusableContent.id as string;
    expect((await request(testApp.app, 'POST', `${base}/${changeRequest.id}/merge`, { token })).body.result).toBe('merge');
    const next = (await request(testApp.app, 'POST', base, { token, body: {} })).body;
    const edited = await request(testApp.app, 'POST', `${base}/${next.id}/content`, { token, body: { changes: [{ operation: 'update_reusable_content', reusableContent: id, document: 'Second words.' }] } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // Until the merge the space reads the first words; then the second.
    const published = () => get(`/v1/spaces/${space.id}/content/reusable-contents/${id}/document`).then((answer) => texts(answer.body));
    expect(await published()).toEqual(['First words.']);
    expect((await request(testApp.app, 'POST', `${base}/${next.id}/merge`, { token })).body.result).toBe('merge');
    expect(await published()).toEqual(['Second words.']);
  });

  it('deletes a reusable content no page includes, and refuses, naming the pages, one that pages still include', async () => {
    const { content, edit, get } = await setup();
    const made = await edit([
      { operation: 'insert_reusable_content', title: 'Kept', document: 'Kept words.' },
      { operation: 'insert_reusable_content', title: 'Spare', document: 'Spare words.' },
    ]);
    const [kept, spare] = made.body.changes.map((change: { reusableContent: { id: string } }) => change.reusableContent.id);
    const include = { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: kept } } };
    const page = await edit([{ operation: 'insert_page', title: 'Help', document: { document: documentOf(paragraph('Before.'), include) } }]);
    const pageId = page.body.changes[0].page.id as string;

    const deleted = await edit([{ operation: 'delete_reusable_content', reusableContent: spare }]);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.changes).toEqual([{ object: 'deleted_reusable_content', reusableContent: spare }]);
    expect((await get(`${content}/reusable-contents/${spare}`)).status).toBe(404);

    const refused = await edit([{ operation: 'delete_reusable_content', reusableContent: kept }]);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('The reusable content "Kept" is still included by "Help": take its blocks out of those pages first');
    // Taken out of the page in the same batch, it goes.
    const both = await edit([
      { operation: 'update_page', page: pageId, document: { document: documentOf(paragraph('Before.')) } },
      { operation: 'delete_reusable_content', reusableContent: kept },
    ]);
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect((await get(content)).body.reusableContents).toEqual([]);
  });

  it('answers a conflict, changing nothing, when a change request deletes a reusable content that a page merged into the space since has come to include', async () => {
    const { space, base, changeRequest, edit, get, token } = await setup();
    const id = (await edit([{ operation: 'insert_reusable_content', title: 'Notice', document: 'Read me.' }])).body.changes[0].reusableContent.id as string;
    expect((await request(testApp.app, 'POST', `${base}/${changeRequest.id}/merge`, { token })).body.result).toBe('merge');
    const openChangeRequest = async () => (await request(testApp.app, 'POST', base, { token, body: {} })).body as { id: string };
    const write = (changeRequestId: string, changes: object[]) => request(testApp.app, 'POST', `${base}/${changeRequestId}/content`, { token, body: { changes } });
    // One writer deletes it, no page including it where they write.
    const deleting = await openChangeRequest();
    expect((await write(deleting.id, [{ operation: 'delete_reusable_content', reusableContent: id }])).status).toBe(200);
    // Meanwhile another's page comes to include it, and is published.
    const including = await openChangeRequest();
    const include = { object: 'block', type: 'reusable-content', isVoid: true, data: { ref: { kind: 'reusable-content', reusableContent: id } } };
    expect((await write(including.id, [{ operation: 'insert_page', title: 'Help', document: { document: documentOf(paragraph('Before.'), include) } }])).status).toBe(200);
    expect((await request(testApp.app, 'POST', `${base}/${including.id}/merge`, { token })).body.result).toBe('merge');

    const spaceRevision = (await get(`/v1/spaces/${space.id}`)).body.revision;
    const merged = await request(testApp.app, 'POST', `${base}/${deleting.id}/merge`, { token });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ result: 'conflicts', conflicts: [{ page: { title: 'Help' }, kind: 'includes-deleted-reusable-content' }] });
    expect((await get(`/v1/spaces/${space.id}`)).body.revision).toBe(spaceRevision);
    expect((await get(`/v1/spaces/${space.id}/content/reusable-contents/${id}`)).status).toBe(200);
    // Bringing the space's change into the change request meets the same conflict.
    expect((await request(testApp.app, 'POST', `${base}/${deleting.id}/update`, { token })).body).toMatchObject({ result: 'conflicts', conflicts: [{ kind: 'includes-deleted-reusable-content' }] });
  });

  it('refuses an unknown reusable content, an empty title and a reader, saying why, and changes nothing', async () => {
    const { org, content, edit, get } = await setup();
    const id = (await edit([{ operation: 'insert_reusable_content', title: 'Kept', document: 'Kept words.' }])).body.changes[0].reusableContent.id as string;
    const unknown = await edit([{ operation: 'update_reusable_content', reusableContent: 'nope', document: 'x' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('changes[0].reusableContent: no reusable content "nope" in this change request');
    const empty = await edit([{ operation: 'update_reusable_content', reusableContent: id, title: '' }]);
    expect(empty.status).toBe(400);
    // A whole batch or nothing: the edit before the bad change is not kept either.
    const half = await edit([{ operation: 'update_reusable_content', reusableContent: id, document: 'Changed.' }, { operation: 'update_reusable_content', reusableContent: 'nope', title: 'x' }]);
    expect(half.status).toBe(400);
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const refused = await edit([{ operation: 'update_reusable_content', reusableContent: id, document: 'Changed by a reader.' }], reader.token);
    expect(refused.status).toBe(403);
    // Another organization's administrator is told of no such space, nor may read its reusable contents.
    const outsider = (await buildOrganization(testApp, 'Outside')).admin.token;
    for (const operation of ['update_reusable_content', 'delete_reusable_content']) {
      const hidden = await edit([{ operation, reusableContent: id, document: 'Changed from outside.' }], outsider);
      expect(hidden.status, operation).toBe(404);
      expect(hidden.body.error.code).toBe(404);
    }
    expect((await request(testApp.app, 'GET', `${content}/reusable-contents/${id}/document`, { token: outsider })).status).toBe(404);
    expect((await get(`${content}/reusable-contents/${id}`)).body.title).toBe('Kept');
    expect(texts((await get(`${content}/reusable-contents/${id}/document`)).body)).toEqual(['Kept words.']);
  });
});
