import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as spaces from '../api/spaces.ts';

export const spaceKeys = {
  spaces: (organizationId: string) => ['orgs', organizationId, 'spaces'] as const,
  collections: (organizationId: string) => ['orgs', organizationId, 'collections'] as const,
  collection: (collectionId: string) => ['collections', collectionId] as const,
  space: (spaceId: string) => ['spaces', spaceId] as const,
  trash: (organizationId: string) => ['orgs', organizationId, 'trash'] as const,
};

export const useSpaces = (organizationId: string) => useQuery({ queryKey: spaceKeys.spaces(organizationId), queryFn: () => spaces.listSpaces(organizationId) });
export const useCollections = (organizationId: string) =>
  useQuery({ queryKey: spaceKeys.collections(organizationId), queryFn: () => spaces.listCollections(organizationId) });
export const useCollection = (collectionId: string) => useQuery({ queryKey: spaceKeys.collection(collectionId), queryFn: () => spaces.getCollection(collectionId) });
export const useSpace = (spaceId: string) => useQuery({ queryKey: spaceKeys.space(spaceId), queryFn: () => spaces.getSpace(spaceId) });

/** A write to an organization's tree; afterwards its lists are read again. */
function useTreeMutation<Variables, Result>(organizationId: string, write: (variables: Variables) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: spaceKeys.spaces(organizationId) }),
        client.invalidateQueries({ queryKey: spaceKeys.collections(organizationId) }),
        client.invalidateQueries({ queryKey: spaceKeys.trash(organizationId) }),
        client.invalidateQueries({ queryKey: ['spaces'] }),
        client.invalidateQueries({ queryKey: ['collections'] }),
      ]),
  });
}

export const useCreateSpace = (organizationId: string) =>
  useTreeMutation(organizationId, (body: { title: string; parent?: string }) => spaces.createSpace(organizationId, body));
export const useCreateCollection = (organizationId: string) =>
  useTreeMutation(organizationId, (body: { title: string; parent?: string }) => spaces.createCollection(organizationId, body));
export const useRename = (organizationId: string) =>
  useTreeMutation(organizationId, ({ kind, id, title }: { kind: 'space' | 'collection'; id: string; title: string }) =>
    kind === 'space' ? spaces.renameSpace(id, title) : spaces.renameCollection(id, title) as Promise<unknown>,
  );
export const useMove = (organizationId: string) =>
  useTreeMutation(organizationId, ({ kind, id, parent }: { kind: 'space' | 'collection'; id: string; parent: string | null }) =>
    kind === 'space' ? spaces.moveSpace(id, parent) : spaces.moveCollection(id, parent) as Promise<unknown>,
  );
export const useDelete = (organizationId: string) =>
  useTreeMutation(organizationId, ({ kind, id }: { kind: 'space' | 'collection'; id: string }) =>
    kind === 'space' ? spaces.deleteSpace(id) : spaces.deleteCollection(id),
  );
export const useRestoreSpace = (organizationId: string) => useTreeMutation(organizationId, spaces.restoreSpace);
export const useTrash = (organizationId: string) => useQuery({ queryKey: spaceKeys.trash(organizationId), queryFn: () => spaces.listTrash(organizationId) });
export const usePurgeSpace = (organizationId: string) => useTreeMutation(organizationId, spaces.purgeSpace);
