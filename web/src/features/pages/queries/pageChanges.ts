import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changePages, type PageChange } from '../api/pageChanges.ts';
import { contentKeys } from './content.ts';

/**
 * Changes a change request's pages; settles once the tree is read again, so that what
 * follows (a rename's new path, a new row to name) sees the change.
 */
export function usePageChanges(spaceId: string, changeRequestId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: PageChange[]) => changePages(spaceId, changeRequestId, changes),
    onSuccess: () => client.invalidateQueries({ queryKey: contentKeys.content(spaceId, { kind: 'changeRequest', changeRequestId }) }),
  });
}
