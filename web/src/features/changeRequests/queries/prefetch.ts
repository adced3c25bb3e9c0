// Starts reading a change request as soon as its address is opened, as prefetchSpace
// does for a space: the space, the change request, the content it proposes and, with
// `?edit`, the open page's document for the editor, each as soon as what it needs is
// known, rather than one after another behind the screen's code and its renders.
import type { LoaderFunctionArgs } from 'react-router';
import { queryClient } from '../../../api/queryClient.ts';
import { changeRequestContentUrl, readAhead } from '../../../editor/opening.ts';
import { getContent, type ContentSource } from '../../pages/api/content.ts';
import { indexPages } from '../../pages/components/pageTree.ts';
import { contentKeys } from '../../pages/queries/content.ts';
import { getSpace } from '../../spaces/api/spaces.ts';
import { spaceKeys } from '../../spaces/queries/spaces.ts';
import { changeRequestQuery } from './changeRequests.ts';

export function prefetchChangeRequest({ params, request }: LoaderFunctionArgs): null {
  const { spaceId, changeRequestNumber, '*': path = '' } = params;
  if (!spaceId || !changeRequestNumber) return null;
  const editing = new URL(request.url).searchParams.has('edit');
  // Not awaited: the screen renders at once and waits on the same queries. A failure is the screen's to show.
  void queryClient.prefetchQuery({ queryKey: spaceKeys.space(spaceId), queryFn: () => getSpace(spaceId) });
  void (async () => {
    const changeRequest = await queryClient.fetchQuery(changeRequestQuery(spaceId, changeRequestNumber));
    const initial: ContentSource = { kind: 'revision', revisionId: changeRequest.revisionInitial };
    const proposed: ContentSource = { kind: 'changeRequest', changeRequestId: changeRequest.id };
    void queryClient.prefetchQuery({ queryKey: contentKeys.content(spaceId, initial), queryFn: () => getContent(spaceId, initial) });
    const content = await queryClient.fetchQuery({ queryKey: contentKeys.content(spaceId, proposed), queryFn: () => getContent(spaceId, proposed) });
    const open = path ? indexPages(content.pages).byPath.get(path.replace(/\/$/, '')) : undefined;
    if (editing && open) readAhead(changeRequestContentUrl(spaceId, changeRequest.id), { kind: 'page', id: open.page.id });
  })().catch(() => {});
  return null;
}
