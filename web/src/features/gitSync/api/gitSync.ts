// A space's Git Sync: its repository, the last import or export, and starting one.
import { api, segment } from '../../../api/client.ts';

export interface SpaceForSettings {
  object: 'space';
  id: string;
  title: string;
  emoji?: string;
  permissions: { edit: boolean; triggerGitSync: boolean; admin: boolean };
  urls: { app: string };
}

export interface GitSyncState {
  repoName: string;
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  commit?: string;
  updatedAt: string;
  connected: boolean;
  exportsChanges: boolean;
  pendingExports: number;
  lastFailure?: { error: string; at: string };
  webhook?: { url: string; secret: string };
  operation: { state: 'running' | 'success' | 'failure'; direction: 'import' | 'export'; startedAt: string; endedAt?: string; error?: string; warnings: string[] };
}

export interface GitOperation {
  /** The repository over HTTPS, with credentials when it needs them; left out, the connection's. */
  url?: string;
  ref?: string;
  repoProjectDirectory?: string;
  force?: boolean;
}

const space = (spaceId: string) => `/v1/spaces/${segment(spaceId)}`;

export const getSpace = (spaceId: string) => api.get<SpaceForSettings>(space(spaceId));
export const getGitInfo = (spaceId: string) => api.get<GitSyncState>(`${space(spaceId)}/git/info`);
export const importRepository = (spaceId: string, body: GitOperation) => api.post<void>(`${space(spaceId)}/git/import`, body);
export const exportToRepository = (spaceId: string, body: GitOperation & { commitMessage: string }) => api.post<void>(`${space(spaceId)}/git/export`, body);
export const disconnect = (spaceId: string) => api.delete(`${space(spaceId)}/git`);
