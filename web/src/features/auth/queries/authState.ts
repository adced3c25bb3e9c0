// Who is signed in, asked once and kept until a sign-in, a sign-out or a 401 changes it.
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { setCsrfToken } from '../../../api/client.ts';
import { queryClient } from '../../../api/queryClient.ts';
import { getAuthState, type AuthState, type Session } from '../api/auth.ts';

export const authStateKey = ['auth', 'state'] as const;

const authStateQuery = { queryKey: authStateKey, queryFn: getAuthState, staleTime: Infinity };

export function useAuthState() {
  return useQuery(authStateQuery);
}

/** Asked as the app starts, beside the first screen's code, not after it: every signed-in screen waits for it. */
export function prefetchAuthState(): void {
  void queryClient.prefetchQuery(authStateQuery);
}

/** The signed-in person's session; only under RequireSession, which waits for it. */
export function useSession(): Session {
  const { data } = useAuthState();
  if (!data?.session) throw new Error('useSession is for screens behind RequireSession');
  return data.session;
}

/**
 * Who is signed in changed: the new state is set first, on the query the guard already
 * watches (clearing the cache would leave its observer on a removed query, so a 401
 * never led to sign-in), then everything read as the person before goes.
 */
function replaceSession(client: QueryClient, state: AuthState): void {
  setCsrfToken(state.session?.csrfToken);
  client.setQueryData<AuthState>(authStateKey, state);
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== authStateKey[0] });
}

/** After a sign-in: the new session, and nothing cached from before it. */
export function useSignedIn(): (session: Session) => void {
  const client = useQueryClient();
  return (session) => replaceSession(client, { setupRequired: false, session });
}

/** The session has ended: forget it and what it could read; RequireSession then leads to sign-in. */
export function forgetSession(): void {
  const state = queryClient.getQueryData<AuthState>(authStateKey);
  replaceSession(queryClient, { setupRequired: state?.setupRequired ?? false, session: null });
}
