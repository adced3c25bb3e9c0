import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/client.ts';
import { disconnect, exportToRepository, getGitInfo, getSpace, importRepository } from '../api/gitSync.ts';

const keys = { space: (spaceId: string) => ['spaces', spaceId] as const, git: (spaceId: string) => ['spaces', spaceId, 'git'] as const };

export const useSettingsSpace = (spaceId: string) => useQuery({ queryKey: [...keys.space(spaceId), 'settings'], queryFn: () => getSpace(spaceId) });

/** The sync's state, or null when the space has none; asked again every 2 seconds while an import or export runs. */
export const useGitInfo = (spaceId: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.git(spaceId),
    enabled,
    queryFn: async () => {
      try {
        return await getGitInfo(spaceId);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data?.operation.state === 'running' ? 2000 : false),
  });

function useGitMutation<Variables>(spaceId: string, mutationFn: (variables: Variables) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: keys.git(spaceId) }) });
}

export const useImport = (spaceId: string) => useGitMutation(spaceId, (body: Parameters<typeof importRepository>[1]) => importRepository(spaceId, body));
export const useExport = (spaceId: string) => useGitMutation(spaceId, (body: Parameters<typeof exportToRepository>[1]) => exportToRepository(spaceId, body));
export const useDisconnect = (spaceId: string) => useGitMutation(spaceId, () => disconnect(spaceId));
