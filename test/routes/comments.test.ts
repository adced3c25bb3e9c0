import { describe, expect, it } from 'vitest';
import { request, useTestApp, walkList } from '../helpers/app.ts';
import { sql } from 'kysely';
import { engine } from '../helpers/database.ts';
import { buildMember, buildOrganization } from '../helpers/factories.ts';

const testApp = useTestApp();

async function setup() {
  const org = await buildOrganization(testApp);
  const token = org.admin.token;
  const space = (await request(testApp.app, 'POST', `/v1/orgs/${org.organizationId}/spaces`, { token, body: { title: 'Docs' } })).body;
  const base = `/v1/spaces/${space.id}`;
  const seed = (await request(testApp.app, 'POST', `${base}/change-requests`, { token, body: {} })).body;
  await request(testApp.app, 'POST', `${base}/change-requests/${seed.id}/content`, {
    token,
    body: { changes: [{ operation: 'insert_page', document: '# Guide\nFirst text' }] },
  });
  await request(testApp.app, 'POST', `${base}/change-requests/${seed.id}/merge`, { token });
  const pageId = (await request(testApp.app, 'GET', `${base}/content/pages`, { token })).body.pages[0].id;
  const changeRequest = (await request(testApp.app, 'POST', `${base}/change-requests`, { token, body: {} })).body;
  return { org, token, space, base, pageId, changeRequest, crComments: `${base}/change-requests/${changeRequest.id}/comments`, spaceComments: `${base}/comments` };
}

const post = (url: string, token: string, body: object) => request(testApp.app, 'POST', url, { token, body });

/** Runs `during` while the database refuses to change `column` of `table`, as a write that fails halfway would. */
async function refusingUpdatesOf(table: string, column: string, during: () => Promise<void>) {
  const { db } = testApp.database;
  if (engine === 'postgres') {
    await sql`create function quire_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(db);
    await sql.raw(`create trigger quire_test_refuse before update of ${column} on ${table} for each row execute function quire_test_refuse()`).execute(db);
  } else {
    await sql.raw(`create trigger quire_test_refuse before update of ${column} on ${table} begin select raise(abort, 'refused by the test'); end`).execute(db);
  }
  try {
    await during();
  } finally {
    if (engine === 'postgres') {
      await sql.raw(`drop trigger quire_test_refuse on ${table}`).execute(db);
      await sql`drop function quire_test_refuse()`.execute(db);
    } else {
      await sql`drop trigger quire_test_refuse`.execute(db);
    }
  }
}

describe('comments', () => {
  it('posts a space comment on a page with every field, and counts it on the space', async () => {
    const { org, token, space, base, pageId, spaceComments } = await setup();
    const posted = await post(spaceComments, token, { body: { markdown: 'Looks **good**' }, page: pageId, node: 'node-1' });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({
      object: 'comment',
      postedBy: { id: org.admin.userId },
      reactions: [],
      replies: 0,
      body: { markdown: 'Looks **good**' },
      status: 'open',
      target: { space: space.id, node: { id: 'node-1' }, page: { id: pageId, title: 'Guide', path: 'guide', outdated: false } },
      urls: { location: `http://quire.test${spaceComments}/${posted.body.id}` },
    });
    expect(posted.body.permissions).toBeUndefined();
    expect(posted.body.editedAt).toBeUndefined();
    expect((await request(testApp.app, 'GET', base, { token })).body.comments).toBe(1);
    expect((await post(spaceComments, token, { body: { markdown: 'x' }, page: 'missing' })).status).toBe(400);
  });

  it('gives change-request comments permissions and counts them on the change request', async () => {
    const { org, token, base, changeRequest, crComments } = await setup();
    const commenter = await buildMember(testApp, org.organizationId, 'comment');
    const posted = await post(crComments, commenter.token, { body: { markdown: 'Question' } });
    expect(posted.body.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(posted.body.target.changeRequest).toBe(changeRequest.id);
    const asAdmin = await request(testApp.app, 'GET', `${crComments}/${posted.body.id}`, { token });
    expect(asAdmin.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    const cr = await request(testApp.app, 'GET', `${base}/change-requests/${changeRequest.id}`, { token });
    expect(cr.body.comments).toBe(1);
    expect((await request(testApp.app, 'GET', base, { token })).body.comments).toBe(0);
  });

  it('resolves and reopens, following the counters and the status filter', async () => {
    const { token, base, spaceComments } = await setup();
    const first = (await post(spaceComments, token, { body: { markdown: 'one' } })).body;
    await post(spaceComments, token, { body: { markdown: 'two' } });
    const resolved = await request(testApp.app, 'PUT', `${spaceComments}/${first.id}`, { token, body: { resolved: true } });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: first.postedBy.id } });
    expect(resolved.body.resolvedAt).toEqual(expect.any(String));
    expect((await request(testApp.app, 'GET', base, { token })).body.comments).toBe(1);
    const list = (status: string) => request(testApp.app, 'GET', spaceComments, { token, query: { status } });
    expect((await list('resolved')).body.items.map((c: any) => c.id)).toEqual([first.id]);
    expect((await list('open')).body.count).toBe(1);
    expect((await list('all')).body.count).toBe(2);
    const reopened = await request(testApp.app, 'PUT', `${spaceComments}/${first.id}`, { token, body: { resolved: false } });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect((await request(testApp.app, 'GET', base, { token })).body.comments).toBe(2);
    await request(testApp.app, 'DELETE', `${spaceComments}/${first.id}`, { token });
    expect((await request(testApp.app, 'GET', base, { token })).body.comments).toBe(1);
  });

  it('keeps reactions idempotent per person and emoji, grouped with their users', async () => {
    const { org, token, spaceComments } = await setup();
    const other = await buildMember(testApp, org.organizationId, 'comment');
    const comment = (await post(spaceComments, token, { body: { markdown: 'react' } })).body;
    const url = `${spaceComments}/${comment.id}`;
    await request(testApp.app, 'PUT', url, { token, body: { addedReactions: ['👍', '👍', '🎉'] } });
    await request(testApp.app, 'PUT', url, { token, body: { addedReactions: ['👍'] } });
    const both = await request(testApp.app, 'PUT', url, { token: other.token, body: { addedReactions: ['👍'] } });
    expect(both.body.reactions.map((r: any) => [r.emoji, r.count])).toEqual([['👍', 2], ['🎉', 1]]);
    expect(both.body.reactions[0].users.map((u: any) => u.user.id)).toEqual([org.admin.userId, other.userId]);
    const removed = await request(testApp.app, 'PUT', url, { token, body: { removedReactions: ['👍', '🎉', '🙈'] } });
    expect(removed.body.reactions.map((r: any) => [r.emoji, r.count])).toEqual([['👍', 1]]);
  });

  it('lists each comment and reply with its own reactions and who reacted', async () => {
    const { org, token, spaceComments } = await setup();
    const other = await buildMember(testApp, org.organizationId, 'comment');
    const first = (await post(spaceComments, token, { body: { markdown: 'first' } })).body;
    const second = (await post(spaceComments, token, { body: { markdown: 'second' } })).body;
    const reply = (await post(`${spaceComments}/${first.id}/replies`, token, { body: { markdown: 'reply' } })).body;
    await request(testApp.app, 'PUT', `${spaceComments}/${first.id}`, { token: other.token, body: { addedReactions: ['🎉'] } });
    await request(testApp.app, 'PUT', `${spaceComments}/${second.id}`, { token, body: { addedReactions: ['👍'] } });
    await request(testApp.app, 'PUT', `${spaceComments}/${second.id}`, { token: other.token, body: { addedReactions: ['👍'] } });
    await request(testApp.app, 'PUT', `${spaceComments}/${first.id}/replies/${reply.id}`, { token, body: { addedReactions: ['👀'] } });

    const listed = (await request(testApp.app, 'GET', spaceComments, { token })).body.items;
    const reactionsOf = (comment: any) => comment.reactions.map((r: any) => [r.emoji, r.users.map((u: any) => u.user.id)]);
    expect(listed.map((comment: any) => [comment.id, reactionsOf(comment)])).toEqual([
      [second.id, [['👍', [org.admin.userId, other.userId]]]],
      [first.id, [['🎉', [other.userId]]]],
    ]);
    expect(listed[1].reactions[0].users[0]).toMatchObject({ user: { id: other.userId, email: expect.any(String) }, reactedAt: expect.any(String) });
    const replies = (await request(testApp.app, 'GET', `${spaceComments}/${first.id}/replies`, { token })).body.items;
    expect(replies.map(reactionsOf)).toEqual([[['👀', [org.admin.userId]]]]);
  });

  it('keeps no comment or reply whose counter could not move: each commits with its count or not at all', async () => {
    const { token, base, spaceComments } = await setup();
    const first = (await post(spaceComments, token, { body: { markdown: 'first' } })).body;
    await refusingUpdatesOf('spaces', 'comments_open', async () => {
      const refused = await post(spaceComments, token, { body: { markdown: 'second' } });
      expect(refused.status).toBe(500);
    });
    await refusingUpdatesOf('comments', 'reply_count', async () => {
      const refused = await post(`${spaceComments}/${first.id}/replies`, token, { body: { markdown: 'reply' } });
      expect(refused.status).toBe(500);
    });
    const listed = (await request(testApp.app, 'GET', spaceComments, { token })).body.items;
    expect(listed.map((comment: any) => [comment.body.markdown, comment.replies])).toEqual([['first', 0]]);
    expect((await request(testApp.app, 'GET', `${spaceComments}/${first.id}/replies`, { token })).body.items).toEqual([]);
    expect((await request(testApp.app, 'GET', base, { token })).body.comments).toBe(1);
  });

  it('lets only the author change a body (editedAt set), and the author or an admin delete', async () => {
    const { org, token, spaceComments } = await setup();
    const author = await buildMember(testApp, org.organizationId, 'comment');
    const bystander = await buildMember(testApp, org.organizationId, 'edit');
    const comment = (await post(spaceComments, author.token, { body: { markdown: 'draft' } })).body;
    const url = `${spaceComments}/${comment.id}`;
    expect((await request(testApp.app, 'PUT', url, { token: bystander.token, body: { body: { markdown: 'mine' } } })).status).toBe(403);
    expect((await request(testApp.app, 'PUT', url, { token, body: { body: { markdown: 'admin' } } })).status).toBe(403);
    const edited = await request(testApp.app, 'PUT', url, { token: author.token, body: { body: { markdown: 'final [@Bob](user:abc123)' } } });
    expect(edited.body).toMatchObject({ body: { markdown: 'final [@Bob](user:abc123)' }, editedAt: expect.any(String) });
    const stored = await testApp.database.db.selectFrom('comments').select('mentions').where('id', '=', comment.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.mentions)).toEqual(['abc123']);
    expect((await request(testApp.app, 'DELETE', url, { token: bystander.token })).status).toBe(403);
    expect((await request(testApp.app, 'DELETE', url, { token })).status).toBe(204);
    expect((await request(testApp.app, 'GET', url, { token })).status).toBe(404);
  });

  it('refuses readers (403), strangers (404), empty and over-long bodies (400)', async () => {
    const { org, token, spaceComments } = await setup();
    const reader = await buildMember(testApp, org.organizationId, 'read');
    const stranger = await buildOrganization(testApp);
    expect((await post(spaceComments, reader.token, { body: { markdown: 'hi' } })).status).toBe(403);
    expect((await request(testApp.app, 'GET', spaceComments, { token: reader.token })).status).toBe(200);
    expect((await post(spaceComments, stranger.admin.token, { body: { markdown: 'hi' } })).status).toBe(404);
    expect((await post(spaceComments, token, { body: { markdown: '' } })).status).toBe(400);
    expect((await post(spaceComments, token, { body: { markdown: 'x'.repeat(25_001) } })).status).toBe(400);
    expect((await post(spaceComments, token, { body: 'plain' })).status).toBe(400);
  });

  it('answers 404 for a comment taken from another space or change request', async () => {
    const first = await setup();
    const second = await setup();
    const comment = (await post(first.crComments, first.token, { body: { markdown: 'here' } })).body;
    expect((await request(testApp.app, 'GET', `${first.spaceComments}/${comment.id}`, { token: first.token })).status).toBe(404);
    const otherRequest = (await request(testApp.app, 'POST', `${first.base}/change-requests`, { token: first.token, body: {} })).body;
    expect((await request(testApp.app, 'GET', `${first.base}/change-requests/${otherRequest.id}/comments/${comment.id}`, { token: first.token })).status).toBe(404);
    expect((await request(testApp.app, 'GET', `${second.crComments}/${comment.id}`, { token: second.token })).status).toBe(404);
  });

  it('lists in both orders, by page, as documents, and page by page', async () => {
    const { token, pageId, spaceComments } = await setup();
    for (let i = 0; i < 7; i++) await post(spaceComments, token, { body: { markdown: `comment ${i}` }, ...(i % 2 ? { page: pageId } : {}) });
    const newest = await request(testApp.app, 'GET', spaceComments, { token });
    expect(newest.body.items[0].body.markdown).toBe('comment 6');
    const oldest = await request(testApp.app, 'GET', spaceComments, { token, query: { order: 'asc' } });
    expect(oldest.body.items[0].body.markdown).toBe('comment 0');
    const onPage = await request(testApp.app, 'GET', spaceComments, { token, query: { targetPage: pageId } });
    expect(onPage.body.count).toBe(3);
    const asDocument = await request(testApp.app, 'GET', spaceComments, { token, query: { format: 'document', limit: 1 } });
    expect(asDocument.body.items[0].body).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });
    for (const order of ['asc', 'desc']) {
      const walk = await walkList(testApp.app, spaceComments, { token, limit: 3, query: { order } });
      expect(new Set(walk.items.map((c: any) => c.id)).size).toBe(7);
    }
    const firstOnPage = onPage.body.items[0].id;
    await request(testApp.app, 'PUT', `${spaceComments}/${firstOnPage}`, { token, body: { resolved: true } });
    const openWalk = await walkList(testApp.app, spaceComments, { token, limit: 2, query: { status: 'open' } });
    expect(openWalk.items).toHaveLength(6);
    const pageWalk = await walkList(testApp.app, spaceComments, { token, limit: 2, query: { targetPage: pageId, status: 'open' } });
    expect(pageWalk.items).toHaveLength(2);
  });

  it('marks a page target outdated once the page changed', async () => {
    const { token, base, pageId, spaceComments } = await setup();
    const comment = (await post(spaceComments, token, { body: { markdown: 'about this' }, page: pageId })).body;
    const cr = (await request(testApp.app, 'POST', `${base}/change-requests`, { token, body: {} })).body;
    await request(testApp.app, 'POST', `${base}/change-requests/${cr.id}/content`, {
      token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: 'Rewritten' }] },
    });
    await request(testApp.app, 'POST', `${base}/change-requests/${cr.id}/merge`, { token });
    const now = await request(testApp.app, 'GET', `${spaceComments}/${comment.id}`, { token });
    expect(now.body.target.page.outdated).toBe(true);
  });
});

describe('comment replies', () => {
  it('posts, lists, reads, edits, reacts to and deletes replies in both families', async () => {
    const { org, token, spaceComments, crComments } = await setup();
    const other = await buildMember(testApp, org.organizationId, 'comment');
    for (const comments of [spaceComments, crComments]) {
      const comment = (await post(comments, token, { body: { markdown: 'thread' } })).body;
      const replies = `${comments}/${comment.id}/replies`;
      const first = await post(replies, other.token, { body: { markdown: 'first reply' } });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ object: 'comment-reply', body: { markdown: 'first reply' }, postedBy: { id: other.userId } });
      expect(first.body.urls.location).toBe(`http://quire.test${replies}/${first.body.id}`);
      expect(Boolean(first.body.permissions)).toBe(comments === crComments);
      await post(replies, token, { body: { markdown: 'second reply' } });
      const listed = await request(testApp.app, 'GET', replies, { token });
      expect(listed.body.items.map((r: any) => r.body.markdown)).toEqual(['first reply', 'second reply']);
      expect((await request(testApp.app, 'GET', `${comments}/${comment.id}`, { token })).body.replies).toBe(2);
      const replyUrl = `${replies}/${first.body.id}`;
      expect((await request(testApp.app, 'PUT', replyUrl, { token, body: { body: { markdown: 'hijack' } } })).status).toBe(403);
      const edited = await request(testApp.app, 'PUT', replyUrl, { token: other.token, body: { body: { markdown: 'edited' }, addedReactions: ['✅'] } });
      expect(edited.body).toMatchObject({ body: { markdown: 'edited' }, editedAt: expect.any(String), reactions: [{ emoji: '✅', count: 1 }] });
      expect((await request(testApp.app, 'GET', replyUrl, { token })).body.body.markdown).toBe('edited');
      expect((await request(testApp.app, 'DELETE', replyUrl, { token: other.token })).status).toBe(204);
      expect((await request(testApp.app, 'GET', replyUrl, { token })).status).toBe(404);
      expect((await request(testApp.app, 'DELETE', `${comments}/${comment.id}`, { token })).status).toBe(204);
      const left = await testApp.database.db.selectFrom('comments').select('id').where('parent_id', '=', comment.id).execute();
      expect(left).toEqual([]);
      expect((await request(testApp.app, 'GET', replies, { token })).status).toBe(404);
    }
  });
});
