// Push webhooks of git hosts, as each signs them: GitHub's HMAC-SHA256 of the body in
// X-Hub-Signature-256 ("sha256=<hex>"), Bitbucket's in X-Hub-Signature (the same form),
// Gitea's and Forgejo's in X-Gitea-Signature / X-Forgejo-Signature (bare hex), and
// GitLab's secret token echoed in X-Gitlab-Token. Every comparison takes constant time.
// And the branches a push moved, from each host's payload.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type GitHost = 'github' | 'gitlab' | 'gitea' | 'bitbucket';

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function hmacHex(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The host whose signature the call carries and that holds for `secret`, or undefined
 * when the call carries none that holds: such a call is refused and changes nothing.
 */
export function verifiedHost(headers: Headers, body: Buffer, secret: string): GitHost | undefined {
  const gitlab = header(headers, 'x-gitlab-token');
  if (gitlab !== undefined) return sameText(gitlab, secret) ? 'gitlab' : undefined;
  const gitea = header(headers, 'x-gitea-signature') ?? header(headers, 'x-forgejo-signature') ?? header(headers, 'x-gogs-signature');
  if (gitea !== undefined) return sameText(gitea.toLowerCase(), hmacHex(secret, body)) ? 'gitea' : undefined;
  const hub = header(headers, 'x-hub-signature-256') ?? header(headers, 'x-hub-signature');
  if (hub !== undefined) {
    if (!sameText(hub.toLowerCase(), `sha256=${hmacHex(secret, body)}`)) return undefined;
    return header(headers, 'x-event-key') !== undefined ? 'bitbucket' : 'github';
  }
  return undefined;
}

/** What a verified call asks: a push (with the refs it moved), a ping, or something Git Sync does not act on. */
export type WebhookCall = { kind: 'push'; refs: string[] } | { kind: 'ping' } | { kind: 'other'; event: string };

/** Reads the call's event and, for a push, the refs it moved ("refs/heads/main"). */
export function webhookCall(host: GitHost, headers: Headers, payload: unknown): WebhookCall {
  const body = (payload ?? {}) as Record<string, unknown>;
  const event = header(headers, 'x-github-event') ?? header(headers, 'x-gitea-event') ?? header(headers, 'x-forgejo-event') ?? header(headers, 'x-gitlab-event') ?? header(headers, 'x-event-key') ?? '';
  if (event === 'ping' || event === 'diagnostics:ping') return { kind: 'ping' };
  if (host === 'bitbucket') {
    // Bitbucket Cloud: push.changes[].new (a branch by name); Bitbucket Data Center: changes[].refId.
    if (event === 'repo:push') {
      const changes = ((body.push as Record<string, unknown> | undefined)?.changes ?? []) as Array<{ new?: { type?: string; name?: string } | null }>;
      return { kind: 'push', refs: changes.flatMap((change) => (change.new?.type === 'branch' && change.new.name ? [`refs/heads/${change.new.name}`] : [])) };
    }
    if (event === 'repo:refs_changed') {
      const changes = (body.changes ?? []) as Array<{ refId?: string }>;
      return { kind: 'push', refs: changes.flatMap((change) => (typeof change.refId === 'string' ? [change.refId] : [])) };
    }
    return { kind: 'other', event };
  }
  if (event === 'push' || event === 'Push Hook') return { kind: 'push', refs: typeof body.ref === 'string' ? [body.ref] : [] };
  return { kind: 'other', event };
}
