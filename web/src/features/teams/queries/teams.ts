import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createTeam, deleteTeam, listTeamMembers, listTeams, putTeamMember, removeTeamMember, renameTeam } from '../api/teams.ts';

const keys = {
  teams: (organizationId: string) => ['organizations', organizationId, 'teams'] as const,
  members: (organizationId: string, teamId: string) => ['organizations', organizationId, 'teams', teamId, 'members'] as const,
};

export const useTeams = (organizationId: string) =>
  useQuery({ queryKey: keys.teams(organizationId), queryFn: () => listTeams(organizationId), select: (list) => list.items });
export const useTeamMembers = (organizationId: string, teamId: string) =>
  useQuery({ queryKey: keys.members(organizationId, teamId), queryFn: () => listTeamMembers(organizationId, teamId), select: (list) => list.items });

/** Every change to a team refreshes the teams (their counts) and their members. */
function useTeamMutation<Variables>(organizationId: string, mutationFn: (variables: Variables) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: keys.teams(organizationId) }) });
}

export const useCreateTeam = (organizationId: string) => useTeamMutation(organizationId, (title: string) => createTeam(organizationId, title));
export const useRenameTeam = (organizationId: string) =>
  useTeamMutation(organizationId, ({ teamId, title }: { teamId: string; title: string }) => renameTeam(organizationId, teamId, title));
export const useDeleteTeam = (organizationId: string) => useTeamMutation(organizationId, (teamId: string) => deleteTeam(organizationId, teamId));
export const usePutTeamMember = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, ({ userId, role }: { userId: string; role: 'owner' | 'member' }) => putTeamMember(organizationId, teamId, userId, role));
export const useRemoveTeamMember = (organizationId: string, teamId: string) =>
  useTeamMutation(organizationId, (userId: string) => removeTeamMember(organizationId, teamId, userId));
