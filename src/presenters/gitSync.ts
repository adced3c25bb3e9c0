// A space's Git Sync state, as GitBook's GitSyncState: the repository and the last
// import or export (0.202's `operation`), with the warnings of that operation.
import type { RevisionGitRow, SpaceGitSyncRow } from '../db/schema.ts';

/** "owner/repo" from a repository URL. */
export function repositoryName(url: string): string {
  try {
    return new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  } catch {
    return url;
  }
}

/**
 * The state with Quire's own account of the connection: whether it holds credentials and
 * exports merges, how many merges wait for their commits, the last failure, and, for
 * those who may set up the sync, where and with which secret push webhooks call.
 */
export function presentGitSyncState(row: SpaceGitSyncRow, connection: { pendingExports: number; webhook?: { url: string; secret: string } }) {
  return {
    ...presentSpaceGitSync(row),
    ref: row.ref,
    ...(row.project_directory ? { repoProjectDirectory: row.project_directory } : {}),
    ...(row.last_commit ? { commit: row.last_commit } : {}),
    connected: row.sealed_url !== null,
    exportsChanges: row.exports_changes === 1,
    pendingExports: connection.pendingExports,
    ...(row.failure_error && row.failure_at ? { lastFailure: { error: row.failure_error, at: row.failure_at } } : {}),
    ...(connection.webhook ? { webhook: connection.webhook } : {}),
    operation: {
      state: row.operation_state,
      direction: row.operation_direction,
      startedAt: row.operation_started_at,
      ...(row.operation_ended_at ? { endedAt: row.operation_ended_at } : {}),
      ...(row.operation_error ? { error: row.operation_error } : {}),
      warnings: JSON.parse(row.operation_warnings) as string[],
    },
  };
}

/** The `gitSync` of a space object (api-spec: repoName, installationProvider, url, updatedAt). */
export function presentSpaceGitSync(row: Pick<SpaceGitSyncRow, 'url' | 'provider' | 'tree_url' | 'updated_at'>) {
  return {
    repoName: repositoryName(row.url),
    ...(row.provider ? { installationProvider: row.provider } : {}),
    url: row.tree_url ?? row.url,
    updatedAt: row.updated_at,
  };
}

/**
 * A revision's commit: GitBook's GitSyncCommit (createdByGitBook), with api-spec's
 * createdByService, and to members who wrote it (a person's address is not for a
 * published site's readers).
 */
export function presentGitCommit(row: RevisionGitRow, withAuthor: boolean) {
  return {
    oid: row.commit_oid,
    message: row.message,
    createdByGitBook: row.created_by_quire === 1,
    createdByService: row.created_by_quire === 1,
    url: row.url,
    ref: row.ref,
    ...(withAuthor && row.author_name !== null ? { author: { name: row.author_name, email: row.author_email ?? '' } } : {}),
  };
}
