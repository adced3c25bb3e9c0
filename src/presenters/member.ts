// Member objects: a user's membership of an organization.
import { presentUser } from './user.ts';
import type { MemberRow } from '../db/schema.ts';

/** `spaces`: how many spaces the member reaches (see memberSpaceCounts). */
export function presentMember(publicUrl: string, member: MemberRow, spaces: number) {
  return {
    object: 'member' as const,
    id: member.user_id,
    role: member.role,
    user: presentUser(publicUrl, { ...member, id: member.user_id }),
    disabled: member.disabled === 1,
    joinedAt: member.joined_at,
    ...(member.last_seen_at ? { lastSeenAt: member.last_seen_at } : {}),
    sso: member.sso === 1,
    spaces,
    teams: member.team_count,
  };
}
