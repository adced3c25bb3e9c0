// An organization's teams and who is in each.
import { api, segment } from '../../../api/client.ts';
import type { List } from '../../../api/types.ts';
import type { Member } from '../../members/api/members.ts';

export interface Team {
  object: 'team';
  id: string;
  title: string;
  members: number;
  createdAt: string;
  permissions: { admin: boolean; view: boolean };
}

export interface TeamMember {
  organization: Member;
  team: { role: 'owner' | 'member' };
}

const teams = (organizationId: string) => `/v1/orgs/${segment(organizationId)}/teams`;

export const listTeams = (organizationId: string) => api.get<List<Team>>(`${teams(organizationId)}?limit=1000`);
export const createTeam = (organizationId: string, title: string) => api.put<Team>(teams(organizationId), { title });
export const renameTeam = (organizationId: string, teamId: string, title: string) => api.patch<Team>(`${teams(organizationId)}/${segment(teamId)}`, { title });
export const deleteTeam = (organizationId: string, teamId: string) => api.delete(`${teams(organizationId)}/${segment(teamId)}`);

export const listTeamMembers = (organizationId: string, teamId: string) =>
  api.get<List<TeamMember>>(`${teams(organizationId)}/${segment(teamId)}/members?limit=1000`);
export const putTeamMember = (organizationId: string, teamId: string, userId: string, role: 'owner' | 'member') =>
  api.put<void>(`${teams(organizationId)}/${segment(teamId)}/members/${segment(userId)}`, { role });
export const removeTeamMember = (organizationId: string, teamId: string, userId: string) =>
  api.delete(`${teams(organizationId)}/${segment(teamId)}/members/${segment(userId)}`);
