// `/o/:org/members`: the organization's people and their roles, and inviting more
// (administrators; the API refuses anyone else).
import { Stack } from '@mantine/core';
import { AdminFrame } from '../../settings/components/AdminFrame.tsx';
import { EmailInviteSection } from './EmailInviteSection.tsx';
import { LinkInvitesSection } from './LinkInvitesSection.tsx';
import { MemberList } from './MemberList.tsx';

export function MembersScreen() {
  return (
    <AdminFrame title="Members" needs="admin">
      {(organization) => (
        <Stack gap="xl">
          <MemberList organizationId={organization.id} />
          <LinkInvitesSection organizationId={organization.id} />
          <EmailInviteSection organizationId={organization.id} />
        </Stack>
      )}
    </AdminFrame>
  );
}
