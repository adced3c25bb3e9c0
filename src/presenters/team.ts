// Team objects and team-membership entries.
import type { TeamWithCountsRow } from '../db/schema.ts';

export function presentTeam(team: TeamWithCountsRow, permissions: { admin: boolean; view: boolean }) {
  return {
    object: 'team' as const,
    id: team.id,
    title: team.title,
    members: team.member_count,
    // Content is granted to people, not yet to teams: no space is reached through a team.
    spaces: 0,
    createdAt: team.created_at,
    permissions,
  };
}
