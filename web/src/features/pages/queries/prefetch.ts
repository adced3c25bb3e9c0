// Starts reading a space and its page tree as soon as its address is opened, at once
// rather than after the session's check, the frame and the screen: for a space of
// thousands of pages this is most of the wait (routes.tsx's loadSpace, the route's
// loader, also starts loading the frame's and the screen's code).
import type { LoaderFunctionArgs } from 'react-router';
import { queryClient } from '../../../api/queryClient.ts';
import { getSpace } from '../../spaces/api/spaces.ts';
import { spaceKeys } from '../../spaces/queries/spaces.ts';
import { getContent, type ContentSource } from '../api/content.ts';
import { contentKeys } from './content.ts';

export function prefetchSpace({ params }: LoaderFunctionArgs): null {
  const { spaceId, revisionId } = params;
  if (!spaceId) return null;
  const source: ContentSource = revisionId ? { kind: 'revision', revisionId } : { kind: 'current' };
  // Not awaited: the screen renders at once and waits on the same queries. A failure is the screen's to show.
  void queryClient.prefetchQuery({ queryKey: spaceKeys.space(spaceId), queryFn: () => getSpace(spaceId) });
  void queryClient.prefetchQuery({ queryKey: contentKeys.content(spaceId, source), queryFn: () => getContent(spaceId, source) });
  return null;
}
