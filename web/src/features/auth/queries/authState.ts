// Who is signed in, asked once and kept until a sign-in, a sign-out or a 401 changes it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { setCsrfToken } from '../../../api/client.ts';
import { queryClient } from '../../../api/queryClient.ts';
import { getAuthState, type AuthState, type Session } from '../api/auth.ts';

export const authStateKey = ['auth', 'state'] as const;

export function useAuthState() {
  return useQuery({ queryKey: authStateKey, queryFn: getAuthState, staleTime: Infinity });
}

/** The signed-in person's session; only under RequireSession, which waits for it. */
export function useSession(): Session {
  const { data } = useAuthState();
  if (!data?.session) throw new Error('useSession is for screens behind RequireSession');
  return data.session;
}

/** After a sign-in: the new session, and nothing cached from before it. */
export function useSignedIn(): (session: Session) => void {
  const client = useQueryClient();
  return (session) => {
    client.clear();
    setCsrfToken(session.csrfToken);
    client.setQueryData<AuthState>(authStateKey, { setupRequired: false, session });
  };
}

/** The session has ended: forget it and what it could read; RequireSession then leads to sign-in. */
export function forgetSession(): void {
  setCsrfToken(undefined);
  const state = queryClient.getQueryData<AuthState>(authStateKey);
  queryClient.clear();
  queryClient.setQueryData<AuthState>(authStateKey, { setupRequired: state?.setupRequired ?? false, session: null });
}
