// Starts reading a space and its page tree as soon as its address is opened, and loading
// the code of the frame and the screen, all at once rather than each after the one before
// (the session's check, the frame, the screen, its data): for a space of thousands of
// pages this is most of the wait (routes.tsx names this as the route's loader).
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
  // The same modules the routes load when shown; a failure to load shows there.
  void import('../../../layout/AppLayout.tsx').catch(() => {});
  void import('../components/SpaceScreen.tsx').catch(() => {});
  return null;
}
