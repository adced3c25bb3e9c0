// Git repositories served over smart HTTP on 127.0.0.1 by git's own `git http-backend`
// (CGI) behind a small bridge that asks for basic auth, as GitHub and GitLab do. Tests
// write commits with the git binary in a working copy and push them here.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const GIT_USER = 'docs-bot';
export const GIT_TOKEN = 'tok3n-s3cret';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'Writer', GIT_AUTHOR_EMAIL: 'writer@example.com', GIT_COMMITTER_NAME: 'Writer', GIT_COMMITTER_EMAIL: 'writer@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface GitServer {
  /** The repository's URL with the credentials in it. */
  url: string;
  /** The same without credentials. */
  bareUrl: string;
  /** Replaces the branch's files with these (path → text or bytes) in one commit; answers its oid. */
  commit(files: Record<string, string | Buffer>, message?: string, branch?: string): string;
  /** Changes some files (null deletes) on top of the branch; answers the commit's oid. */
  change(files: Record<string, string | Buffer | null>, message?: string, branch?: string): string;
  /** The branch's files as the server has them. */
  read(branch?: string): { head: string; files: Record<string, string>; bytes: Record<string, Buffer>; message: string };
  /** The branch's commits, newest first: subject, author and committer as git records them. */
  log(branch?: string): Array<{ subject: string; author: string; committer: string }>;
  /** Paths of requests that came without valid credentials. */
  refused: string[];
  /** While down, every request is answered 503, as a git host in an outage answers. */
  down: boolean;
  /** While holding, a push is applied but never answered: the client cannot tell whether it landed. */
  holdPushes: boolean;
  /** How many pushes have been applied and wait for an answer. */
  heldPushes(): number;
  /** Cuts the connections of the held pushes, as a network failure would. */
  dropHeldPushes(): void;
  close(): Promise<void>;
}

export async function startGitServer(): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'quire-git-server-'));
  const bare = join(root, 'docs.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', bare);
  git(bare, 'config', 'http.receivepack', 'true');
  const refused: string[] = [];
  const expected = `Basic ${Buffer.from(`${GIT_USER}:${GIT_TOKEN}`).toString('base64')}`;

  const state = { down: false, holdPushes: false };
  const held: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    if (state.down) {
      response.writeHead(503, { 'retry-after': '1' }).end('down for maintenance');
      return;
    }
    if (request.headers.authorization !== expected) {
      refused.push(request.url ?? '');
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('credentials needed');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...gitEnv,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method ?? 'GET',
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        REMOTE_USER: GIT_USER,
        REMOTE_ADDR: '127.0.0.1',
        ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
        ...(request.headers['git-protocol'] ? { GIT_PROTOCOL: String(request.headers['git-protocol']) } : {}),
      },
    });
    request.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    if (state.holdPushes && url.pathname.endsWith('/git-receive-pack')) {
      cgi.stdout.resume();
      cgi.on('close', () => held.push(() => response.destroy()));
      return;
    }
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return void response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else response.setHeader(name, value);
      }
      response.writeHead(status);
      headersSent = true;
      response.write(head.subarray(end + 4));
    });
    cgi.on('close', () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const bareUrl = `http://127.0.0.1:${port}/docs.git`;

  const workingCopy = (branch: string) => {
    const work = mkdtempSync(join(tmpdir(), 'quire-git-work-'));
    git(work, 'clone', '-q', bare, '.');
    const branches = git(work, 'branch', '-r');
    if (branches.includes(`origin/${branch}`)) git(work, 'checkout', '-q', branch);
    else git(work, 'checkout', '-q', '--orphan', branch);
    return work;
  };
  const write = (work: string, files: Record<string, string | Buffer | null>) => {
    for (const [path, content] of Object.entries(files)) {
      if (content === null) rmSync(join(work, path), { force: true });
      else {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
    }
  };
  const finish = (work: string, message: string, branch: string) => {
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '--allow-empty', '-m', message);
    git(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
    const head = git(work, 'rev-parse', 'HEAD');
    rmSync(work, { recursive: true, force: true });
    return head;
  };

  return {
    url: bareUrl.replace('http://', `http://${GIT_USER}:${GIT_TOKEN}@`),
    bareUrl,
    refused,
    get down() {
      return state.down;
    },
    get holdPushes() {
      return state.holdPushes;
    },
    set holdPushes(value: boolean) {
      state.holdPushes = value;
    },
    heldPushes: () => held.length,
    dropHeldPushes() {
      for (const drop of held.splice(0)) drop();
    },
    set down(value: boolean) {
      state.down = value;
    },
    log(branch = 'main') {
      const lines = git(bare, 'log', '--format=%s%x1f%an <%ae>%x1f%cn <%ce>', branch).split('\n').filter(Boolean);
      return lines.map((line) => {
        const [subject, author, committer] = line.split('\x1f');
        return { subject, author, committer };
      });
    },
    commit(files, message = 'Docs', branch = 'main') {
      const work = workingCopy(branch);
      git(work, 'rm', '-q', '-r', '-f', '--ignore-unmatch', '.');
      write(work, files);
      return finish(work, message, branch);
    },
    change(files, message = 'Edit docs', branch = 'main') {
      const work = workingCopy(branch);
      write(work, files);
      return finish(work, message, branch);
    },
    read(branch = 'main') {
      const work = workingCopy(branch);
      const paths = git(work, 'ls-files', '-z').split('\0').filter(Boolean);
      const bytes = Object.fromEntries(paths.map((path) => [path, readFileSync(join(work, path))]));
      const files = Object.fromEntries(Object.entries(bytes).map(([path, content]) => [path, content.toString('utf8')]));
      const result = { head: git(work, 'rev-parse', 'HEAD'), files, bytes, message: git(work, 'log', '-1', '--format=%B') };
      rmSync(work, { recursive: true, force: true });
      return result;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
