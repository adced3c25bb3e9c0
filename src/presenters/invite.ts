// Link invites to an organization.
import type { InviteRow } from '../db/schema.ts';

export function presentInvite(publicUrl: string, invite: InviteRow, redundant: boolean) {
  return {
    object: 'invite' as const,
    id: invite.id,
    role: invite.role,
    redundant,
    expiresAt: invite.expires_at,
    email: invite.email,
    urls: { app: `${publicUrl}/invite/${invite.organization_id}/${invite.id}` },
  };
}
