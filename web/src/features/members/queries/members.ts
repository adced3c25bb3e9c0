import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../settings/api/organization.ts';
import { changeRole, createLinkInvite, inviteByEmail, listLinkInvites, listMembers, removeMember, revokeLinkInvite } from '../api/members.ts';

export const memberKeys = {
  members: (organizationId: string) => ['organizations', organizationId, 'members'] as const,
  invites: (organizationId: string) => ['organizations', organizationId, 'link-invites'] as const,
};

export const useMembers = (organizationId: string) =>
  useQuery({ queryKey: memberKeys.members(organizationId), queryFn: () => listMembers(organizationId), select: (list) => list.items });

export const useLinkInvites = (organizationId: string) =>
  useQuery({ queryKey: memberKeys.invites(organizationId), queryFn: () => listLinkInvites(organizationId), select: (list) => list.items });

function useInvalidating<Variables, Answer>(organizationId: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: memberKeys.members(organizationId) }),
        client.invalidateQueries({ queryKey: memberKeys.invites(organizationId) }),
      ]),
  });
}

export const useChangeRole = (organizationId: string) =>
  useInvalidating(organizationId, ({ userId, role }: { userId: string; role: Role | null }) => changeRole(organizationId, userId, role));
export const useRemoveMember = (organizationId: string) => useInvalidating(organizationId, (userId: string) => removeMember(organizationId, userId));
export const useCreateLinkInvite = (organizationId: string) =>
  useInvalidating(organizationId, (body: { role: Role | null; expiresAt: string | null }) => createLinkInvite(organizationId, body));
export const useRevokeLinkInvite = (organizationId: string) =>
  useInvalidating(organizationId, (inviteId: string) => revokeLinkInvite(organizationId, inviteId));
export const useInviteByEmail = (organizationId: string) =>
  useInvalidating(organizationId, (body: { emails: string[]; role: Role | null }) => inviteByEmail(organizationId, body));
