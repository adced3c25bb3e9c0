// Member objects: a user's membership of an organization.
import type { MemberRow } from '../db/repos/members.ts';
import { toCount } from '../db/dialect.ts';
import { presentUser } from './user.ts';

export function presentMember(publicUrl: string, member: MemberRow) {
  return {
    object: 'member' as const,
    id: member.user_id,
    role: member.role,
    user: presentUser(publicUrl, { ...member, id: member.user_id }),
    disabled: member.disabled === 1,
    joinedAt: member.joined_at,
    ...(member.last_seen_at ? { lastSeenAt: member.last_seen_at } : {}),
    sso: member.sso === 1,
    // Spaces arrive with the spaces capability; until then a member reaches none.
    spaces: 0,
    teams: toCount(member.team_count),
  };
}
