// Git Sync's exports across a crash: Quire is killed with SIGKILL after an export's push
// reached the git server but before Quire heard back, and the restarted Quire exports
// every waiting merge once, in order, pushing nothing twice and skipping nothing; and a
// failure while the remote is down is one warning line naming the space and the remote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { GIT_TOKEN, startGitServer, type GitServer } from '../helpers/gitServer.ts';
import { callServer, runCli, startServerProcess, waitFor, type ServerProcess } from '../helpers/process.ts';

let database: TestDatabase;
let server: GitServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startGitServer();
  server.commit({ 'README.md': '# Elsewhere\n' });
});

afterAll(async () => {
  await server.close();
  await database.drop();
});

describe('Git Sync across a crash', () => {
  it('exports each merge once, in order, when Quire is killed after a push landed but before it heard back', async () => {
    const env = { ...database.env, QUIRE_ALLOW_PRIVATE_URLS: 'true', QUIRE_JOB_LEASE: '2', QUIRE_GIT_SYNC_POLL: '0' };
    const boot = await runCli(['admin', 'bootstrap', '--org', 'Crash', '--email', 'crash@quire.test', '--name', 'Casey Crash', '--json'], env);
    const { token, organization } = JSON.parse(boot.stdout);
    let quire: ServerProcess = await startServerProcess(env);
    const call = (method: string, path: string, body?: unknown) => callServer(quire, method, path, token, body);
    const info = async (spaceId: string) => (await call('GET', `/v1/spaces/${spaceId}/git/info`)).body;
    const merge = async (spaceId: string, title: string) => {
      const changeRequest = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: title })).body;
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', document: `# ${title}\n\nWritten in Quire.` }] });
      expect((await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`)).body.result).toBe('merge');
      return changeRequest.number as number;
    };
    try {
      const space = (await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' })).body;
      await merge(space.id, 'Start');
      expect((await call('POST', `/v1/spaces/${space.id}/git/export`, { url: server.url, ref: 'refs/heads/crash', commitMessage: 'Set up' })).status).toBe(204);
      await waitFor('the export to be set up', async () => ((await info(space.id)).operation.state === 'success' ? true : undefined));

      server.holdPushes = true;
      const numbers = [await merge(space.id, 'Alpha'), await merge(space.id, 'Beta')];
      await waitFor('a push to land', () => (server.heldPushes() > 0 ? true : undefined));
      quire.child.kill('SIGKILL');
      await quire.exited;
      server.holdPushes = false;
      server.dropHeldPushes();

      quire = await startServerProcess(env);
      const done = await waitFor('every merge to be exported', async () => {
        const state = await info(space.id);
        return state.pendingExports === 0 && state.operation.state === 'success' ? state : undefined;
      });
      expect(done.lastFailure).toBeUndefined();
      expect(server.log('crash').map((commit) => commit.subject)).toEqual([`Merge change request #${numbers[1]}: Beta`, `Merge change request #${numbers[0]}: Alpha`, 'Set up']);
      expect(server.log('crash')[0]).toMatchObject({ author: 'Casey Crash <crash@quire.test>', committer: 'Quire <git-sync@quire.invalid>' });
      expect(Object.keys(server.read('crash').files).sort()).toEqual(['README.md', 'SUMMARY.md', 'alpha.md', 'beta.md']);

      // While the remote is down, each failed attempt is one warning naming the space and the remote, never its credentials.
      server.down = true;
      try {
        await merge(space.id, 'Gamma');
        await waitFor('the export to fail', async () => ((await info(space.id)).lastFailure ? true : undefined));
      } finally {
        server.down = false;
      }
      const warnings = quire
        .output()
        .split('\n')
        .filter((line) => line.includes('"level":40') && line.includes(space.id));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`Git Sync could not export the merges of space ${space.id} to ${server.bareUrl} (refs/heads/crash)`);
      expect(quire.output()).not.toContain(GIT_TOKEN);
    } finally {
      quire.child.kill('SIGTERM');
      await quire.exited;
    }
  });
});
