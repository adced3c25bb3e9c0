// The guard of every screen with data: signed out, the person signs in first and comes
// back here after; on a server with no organization yet, the setup form comes first.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { useAuthState } from '../queries/authState.ts';

export function RequireSession({ children }: { children: ReactNode }) {
  const { data, error, refetch } = useAuthState();
  const location = useLocation();
  // Before the frame of the signed-in screens, which holds the page's main landmark.
  if (error || !data) return <main>{error ? <ErrorScreen error={error} onRetry={() => void refetch()} /> : <FullPageLoader />}</main>;
  if (data.setupRequired) return <Navigate to="/setup" replace />;
  if (!data.session) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return children;
}

/** Where to go after signing in: a path of this app from ?next=, never another site. */
export function nextPath(search: URLSearchParams): string {
  const next = search.get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}
