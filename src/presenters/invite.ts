// Link invites to an organization.
import type { InviteRow } from '../db/schema.ts';

export function presentInvite(invite: InviteRow, redundant: boolean) {
  return { object: 'invite' as const, id: invite.id, role: invite.role, redundant };
}
