// Push webhooks as each git host signs and shapes them.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifiedHost, webhookCall } from '../../src/lib/gitWebhooks.ts';

const SECRET = 's3cret-of-the-space';
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: 'abc' }));
const hex = (secret: string, bytes: Buffer) => createHmac('sha256', secret).update(bytes).digest('hex');

describe('git webhooks', () => {
  it("accepts each host's own signature over the body's bytes and names the host", () => {
    expect(verifiedHost({ 'x-hub-signature-256': `sha256=${hex(SECRET, body)}`, 'x-github-event': 'push' }, body, SECRET)).toBe('github');
    expect(verifiedHost({ 'x-gitea-signature': hex(SECRET, body), 'x-gitea-event': 'push' }, body, SECRET)).toBe('gitea');
    expect(verifiedHost({ 'x-forgejo-signature': hex(SECRET, body) }, body, SECRET)).toBe('gitea');
    expect(verifiedHost({ 'x-gitlab-token': SECRET, 'x-gitlab-event': 'Push Hook' }, body, SECRET)).toBe('gitlab');
    expect(verifiedHost({ 'x-hub-signature': `sha256=${hex(SECRET, body)}`, 'x-event-key': 'repo:push' }, body, SECRET)).toBe('bitbucket');
  });

  it('refuses an unsigned call, another secret, a body changed after signing, and a signature of another form', () => {
    expect(verifiedHost({ 'x-github-event': 'push' }, body, SECRET)).toBeUndefined();
    expect(verifiedHost({ 'x-hub-signature-256': `sha256=${hex('another', body)}` }, body, SECRET)).toBeUndefined();
    expect(verifiedHost({ 'x-hub-signature-256': `sha256=${hex(SECRET, body)}` }, Buffer.from(`${body} `), SECRET)).toBeUndefined();
    expect(verifiedHost({ 'x-hub-signature-256': hex(SECRET, body) }, body, SECRET)).toBeUndefined();
    expect(verifiedHost({ 'x-gitlab-token': `${SECRET}x` }, body, SECRET)).toBeUndefined();
    expect(verifiedHost({ 'x-gitea-signature': '' }, body, SECRET)).toBeUndefined();
  });

  it('reads the branches a push moved from each host, and tells pings and other events apart', () => {
    expect(webhookCall('github', { 'x-github-event': 'push' }, { ref: 'refs/heads/main' })).toEqual({ kind: 'push', refs: ['refs/heads/main'] });
    expect(webhookCall('gitlab', { 'x-gitlab-event': 'Push Hook' }, { ref: 'refs/heads/docs' })).toEqual({ kind: 'push', refs: ['refs/heads/docs'] });
    expect(webhookCall('gitea', { 'x-gitea-event': 'push' }, { ref: 'refs/heads/main' })).toEqual({ kind: 'push', refs: ['refs/heads/main'] });
    const cloud = { push: { changes: [{ new: { type: 'branch', name: 'main' } }, { new: { type: 'tag', name: 'v1' } }, { new: null }] } };
    expect(webhookCall('bitbucket', { 'x-event-key': 'repo:push' }, cloud)).toEqual({ kind: 'push', refs: ['refs/heads/main'] });
    expect(webhookCall('bitbucket', { 'x-event-key': 'repo:refs_changed' }, { changes: [{ refId: 'refs/heads/main' }] })).toEqual({ kind: 'push', refs: ['refs/heads/main'] });
    expect(webhookCall('github', { 'x-github-event': 'ping' }, {})).toEqual({ kind: 'ping' });
    expect(webhookCall('github', { 'x-github-event': 'issues' }, {})).toEqual({ kind: 'other', event: 'issues' });
    expect(webhookCall('github', { 'x-github-event': 'push' }, 'not an object')).toEqual({ kind: 'push', refs: [] });
  });
});
