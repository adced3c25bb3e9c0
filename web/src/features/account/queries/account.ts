import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { createToken, listSessions, listSsoLogins, listTokens, revokeSession, revokeToken } from '../api/account.ts';

const keys = { sessions: ['user', 'sessions'] as const, tokens: ['user', 'tokens'] as const };

export const useSessions = () => useQuery({ queryKey: keys.sessions, queryFn: listSessions, select: (list) => list.items });
export const useTokens = () => useQuery({ queryKey: keys.tokens, queryFn: listTokens, select: (list) => list.items });

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeSession, onSuccess: () => client.invalidateQueries({ queryKey: keys.sessions }) });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createToken, onSuccess: () => client.invalidateQueries({ queryKey: keys.tokens }) });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeToken, onSuccess: () => client.invalidateQueries({ queryKey: keys.tokens }) });
}

/** Each organization's single sign-on providers, in the organizations' order. */
export function useSsoLogins(organizationIds: string[]) {
  return useQueries({
    queries: organizationIds.map((organizationId) => ({ queryKey: ['organizations', organizationId, 'sso'], queryFn: () => listSsoLogins(organizationId) })),
  });
}
