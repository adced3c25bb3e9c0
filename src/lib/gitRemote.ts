// Git over smart HTTP for Git Sync, in JavaScript (isomorphic-git): a shallow fetch of
// one ref into a scratch repository on disk, its tree read file by file, and a commit
// written onto it and pushed. Every request goes through the one URL fetcher, so the
// address rule, a deadline and a size cap hold as for any fetch. Credentials in the URL
// reach the server as basic auth and never appear in what this module reports.
import type { HttpClient } from 'isomorphic-git';
import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchRefused, type Fetcher } from './safeFetch.ts';

export const GIT_LIMITS = {
  /** One HTTP exchange with the git server. */
  requestTimeoutMs: 120_000,
  /** One answer (a packfile, mostly). */
  responseBytes: 256 * 1024 * 1024,
};

export class GitRemoteError extends Error {}

/** Who wrote or committed a commit, as git names them. */
export interface GitPerson {
  name: string;
  email: string;
}

/** isomorphic-git, loaded by the first Git Sync rather than at every start (~14 MB). */
type Git = typeof import('isomorphic-git').default;

/** The URL without its credentials: what may be stored, logged and shown. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

function scrub(message: string, url: string): string {
  let clean = message;
  try {
    const { username, password } = new URL(url);
    for (const secret of [password, username]) if (secret) clean = clean.split(secret).join('***').split(decodeURIComponent(secret)).join('***');
  } catch {
    // Not a URL: nothing in it to hide.
  }
  return clean;
}

function httpThrough(fetcher: Fetcher): HttpClient {
  return {
    async request({ url, method, headers, body }) {
      const chunks: Uint8Array[] = [];
      if (body) for await (const chunk of body) chunks.push(chunk);
      const answer = await fetcher(url, {
        method: (method ?? 'GET') as 'GET' | 'POST',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        timeoutMs: GIT_LIMITS.requestTimeoutMs,
        maxBytes: GIT_LIMITS.responseBytes,
        maxRedirects: 3,
      });
      const flat: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
      return {
        url: answer.url,
        method,
        statusCode: answer.status,
        statusMessage: String(answer.status),
        headers: flat,
        body: (async function* () {
          yield new Uint8Array(/\/info\/refs\?service=git-upload-pack$/.test(url) && answer.status === 200 ? withHeadAdvertised(answer.body) : answer.body);
        })(),
      };
    },
  };
}

/**
 * A ref advertisement (git's protocol v1) with a HEAD line where the server has none: a
 * repository whose default branch has no commit yet (an empty one first pushed to
 * another branch) advertises no HEAD, and isomorphic-git's fetch, which names the
 * server's default branch once it has the objects, then fails every fetch of any branch
 * ("Could not find HEAD"). The line names the first branch's commit, as a client that
 * reads it only to name a default branch needs, and takes over the capabilities that
 * the first line carries.
 */
export function withHeadAdvertised(advertisement: Buffer): Buffer {
  const lines: Buffer[] = [];
  for (let at = 0; at + 4 <= advertisement.length; ) {
    const length = Number.parseInt(advertisement.subarray(at, at + 4).toString('ascii'), 16);
    if (!Number.isInteger(length)) return advertisement;
    const size = length === 0 ? 4 : length;
    if (size < 4 || at + size > advertisement.length) return advertisement;
    lines.push(advertisement.subarray(at, at + size));
    at += size;
  }
  const payload = (line: Buffer) => line.subarray(4).toString('utf8');
  const first = lines.findIndex((line) => line.length > 4 && /^[0-9a-f]{40} /.test(payload(line)));
  if (first < 0 || lines.some((line) => line.length > 4 && / HEAD(\0|\n|$)/.test(payload(line)))) return advertisement;
  const [refPart, capabilities] = payload(lines[first]).replace(/\n$/, '').split('\0');
  if (capabilities === undefined || /^0{40} /.test(refPart)) return advertisement;
  const pkt = (text: string) => Buffer.concat([Buffer.from((Buffer.byteLength(text) + 4).toString(16).padStart(4, '0')), Buffer.from(text)]);
  const head = pkt(`${refPart.slice(0, 40)} HEAD\0${capabilities}\n`);
  return Buffer.concat([...lines.slice(0, first), head, pkt(`${refPart}\n`), ...lines.slice(first + 1)]);
}

/** What a person can act on, from isomorphic-git's or the fetcher's error. */
function explain(error: unknown, url: string): GitRemoteError {
  const shown = withoutCredentials(url);
  const data = (error as { data?: { statusCode?: number } }).data;
  const code = (error as { code?: string }).code;
  let message: string;
  if (error instanceof FetchRefused) message = `${shown} could not be reached: ${error.message}`;
  else if (data?.statusCode === 401 || data?.statusCode === 403) message = `${shown} refused the credentials (HTTP ${data.statusCode}); put a token with access in the URL (https://user:token@host/repo.git)`;
  else if (data?.statusCode === 404) message = `${shown} is not a git repository (HTTP 404)`;
  else if (code === 'PushRejectedError') message = `${shown} refused the push: the branch moved on the server; import first, or export with force`;
  else message = `git with ${shown} failed: ${(error as Error).message}`;
  return new GitRemoteError(scrub(message, url));
}

/** The commit a ref points at on a remote, or undefined if it has none: one small request, no repository on disk. */
export async function remoteHeadOf(url: string, fetcher: Fetcher, ref: string): Promise<string | undefined> {
  return headOnServer((await import('isomorphic-git')).default, httpThrough(fetcher), url, ref);
}

async function headOnServer(git: Git, http: HttpClient, url: string, ref: string): Promise<string | undefined> {
  try {
    const refs = await git.listServerRefs({ http, url, prefix: ref, symrefs: false, protocolVersion: 1 });
    return refs.find((entry) => entry.ref === ref)?.oid;
  } catch (error) {
    throw explain(error, url);
  }
}

/** A scratch repository for one operation with one remote, removed by `close`. */
export class GitWorkspace {
  /** isomorphic-git's cache of parsed packfiles: without it every object read parses the pack's index again. */
  private readonly cache = {};

  private constructor(
    private readonly git: Git,
    readonly gitdir: string,
    private readonly url: string,
    private readonly http: HttpClient,
  ) {}

  static async open(url: string, fetcher: Fetcher): Promise<GitWorkspace> {
    const git = (await import('isomorphic-git')).default;
    const gitdir = await mkdtemp(join(tmpdir(), 'quire-git-'));
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
    // The remote's URL is given to each call, so that its credentials are never written to disk.
    await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' });
    return new GitWorkspace(git, gitdir, url, httpThrough(fetcher));
  }

  async close(): Promise<void> {
    await rm(this.gitdir, { recursive: true, force: true });
  }

  private async run<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      throw error instanceof GitRemoteError ? error : explain(error, this.url);
    }
  }

  /** The commit a ref points at on the server, or undefined if it has none. */
  remoteHead(ref: string): Promise<string | undefined> {
    return headOnServer(this.git, this.http, this.url, ref);
  }

  /** Fetches the ref's last commit (no history); answers its oid, or undefined for a ref the server does not have. */
  async fetch(ref: string): Promise<string | undefined> {
    if (!(await this.remoteHead(ref))) return undefined;
    const branch = ref.replace(/^refs\/(heads|tags)\//, '');
    const fetched = await this.run(() =>
      this.git.fetch({ fs, http: this.http, gitdir: this.gitdir, url: this.url, ref: branch, remoteRef: ref, singleBranch: true, depth: 1, tags: false }),
    );
    return fetched.fetchHead ?? undefined;
  }

  /** Every file of a commit: path → blob oid. */
  async files(commit: string): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    const walk = async (tree: string, prefix: string) => {
      const { tree: entries } = await this.git.readTree({ fs, cache: this.cache, gitdir: this.gitdir, oid: tree });
      for (const entry of entries) {
        if (entry.type === 'tree') await walk(entry.oid, `${prefix}${entry.path}/`);
        else if (entry.type === 'blob') files.set(`${prefix}${entry.path}`, entry.oid);
      }
    };
    const { commit: read } = await this.git.readCommit({ fs, cache: this.cache, gitdir: this.gitdir, oid: commit });
    await walk(read.tree, '');
    return files;
  }

  /** A commit's message and who wrote it. */
  async commitInfo(commit: string): Promise<{ message: string; author: GitPerson }> {
    const { message, author } = (await this.git.readCommit({ fs, cache: this.cache, gitdir: this.gitdir, oid: commit })).commit;
    return { message: message.trim(), author: { name: author.name, email: author.email } };
  }

  async read(oid: string): Promise<Buffer> {
    return Buffer.from((await this.git.readBlob({ fs, cache: this.cache, gitdir: this.gitdir, oid })).blob);
  }

  /** Stores a blob and answers its oid; one among `present` (objects the repository has) is only hashed. */
  async writeBlob(bytes: Buffer, present: ReadonlySet<string> = new Set()): Promise<string> {
    const { oid } = await this.git.hashBlob({ object: bytes });
    // Compressing an unchanged image again is most of an export's time.
    return present.has(oid) ? oid : this.git.writeBlob({ fs, gitdir: this.gitdir, blob: bytes });
  }

  /** Writes a commit holding exactly `files` (path → blob oid) on top of `parent`, written by `author` and committed by `committer`. */
  async commit(files: Map<string, string>, parent: string | undefined, message: string, author: GitPerson, committer: GitPerson): Promise<string> {
    interface Folder {
      blobs: Map<string, string>;
      folders: Map<string, Folder>;
    }
    const top: Folder = { blobs: new Map(), folders: new Map() };
    for (const [path, oid] of files) {
      const parts = path.split('/');
      let folder = top;
      for (const part of parts.slice(0, -1)) {
        if (!folder.folders.has(part)) folder.folders.set(part, { blobs: new Map(), folders: new Map() });
        folder = folder.folders.get(part)!;
      }
      folder.blobs.set(parts.at(-1)!, oid);
    }
    const writeFolder = async (folder: Folder): Promise<string> => {
      const tree = [
        ...[...folder.blobs].map(([path, oid]) => ({ mode: '100644', path, oid, type: 'blob' as const })),
        ...(await Promise.all([...folder.folders].map(async ([path, inner]) => ({ mode: '040000', path, oid: await writeFolder(inner), type: 'tree' as const })))),
      ];
      return this.git.writeTree({ fs, gitdir: this.gitdir, tree });
    };
    const when = { timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
    return this.git.writeCommit({
      fs,
      gitdir: this.gitdir,
      commit: { message, tree: await writeFolder(top), parent: parent ? [parent] : [], author: { ...author, ...when }, committer: { ...committer, ...when } },
    });
  }

  /** Pushes a commit to the ref; without force the server refuses it unless the ref is its parent. */
  async push(commit: string, ref: string, force: boolean): Promise<void> {
    const local = 'refs/heads/quire-export';
    await this.git.writeRef({ fs, gitdir: this.gitdir, ref: local, value: commit, force: true });
    const result = await this.run(() => this.git.push({ fs, cache: this.cache, http: this.http, gitdir: this.gitdir, url: this.url, ref: local, remoteRef: ref, force }));
    if (!result.ok) throw new GitRemoteError(`${withoutCredentials(this.url)} refused the push to ${ref}: ${result.error ?? result.refs[ref]?.error ?? 'no reason given'}`);
  }
}
