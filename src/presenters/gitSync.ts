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

export function presentGitSyncState(row: SpaceGitSyncRow) {
  return {
    ...presentSpaceGitSync(row),
    ref: row.ref,
    ...(row.project_directory ? { repoProjectDirectory: row.project_directory } : {}),
    ...(row.last_commit ? { commit: row.last_commit } : {}),
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

/** A revision's commit: GitBook's GitSyncCommit (createdByGitBook), with api-spec's createdByService. */
export function presentGitCommit(row: RevisionGitRow) {
  return {
    oid: row.commit_oid,
    message: row.message,
    createdByGitBook: row.created_by_quire === 1,
    createdByService: row.created_by_quire === 1,
    url: row.url,
    ref: row.ref,
  };
}
