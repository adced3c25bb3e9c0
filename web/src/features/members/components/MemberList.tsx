// Each member with their role, which an administrator changes in place, and a way to remove them.
import { Badge, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { GUEST_OPTION, ROLE_OPTIONS } from '../../settings/components/roles.ts';
import type { Role } from '../../settings/api/organization.ts';
import { useChangeRole, useMembers, useRemoveMember } from '../queries/members.ts';
import { useSession } from '../../auth/queries/authState.ts';

export function MemberList({ organizationId }: { organizationId: string }) {
  const { user } = useSession();
  const { data: members, error, isPending } = useMembers(organizationId);
  const changing = useChangeRole(organizationId);
  const removing = useRemoveMember(organizationId);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="members-title">
      <Stack>
        <Title order={2} size="h3" id="members-title">
          People {members && <Text span c="dimmed">({members.length})</Text>}
        </Title>
        <ErrorAlert error={error ?? changing.error ?? removing.error} />
        {isPending && <Text size="sm">Loading the members…</Text>}
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {members?.map((member) => (
            <Group component="li" key={member.id} justify="space-between" wrap="wrap" gap="xs" data-testid={`member-${member.user.email ?? member.id}`}>
              <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
                <Group gap="xs">
                  <Text fw={600} size="sm" truncate>
                    {member.user.displayName}
                  </Text>
                  {member.id === user.id && <Badge variant="outline">You</Badge>}
                  {member.sso && <Badge variant="outline">SSO</Badge>}
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  {member.user.email ?? ''}
                </Text>
              </div>
              <Group gap="xs" wrap="nowrap">
                <NativeSelect
                  aria-label={`Role of ${member.user.displayName}`}
                  size="xs"
                  value={member.role ?? ''}
                  disabled={changing.isPending}
                  data={[...ROLE_OPTIONS, GUEST_OPTION]}
                  onChange={(event) => changing.mutate({ userId: member.id, role: (event.currentTarget.value || null) as Role | null })}
                />
                <ConfirmButton
                  label={member.id === user.id ? 'Leave the organization' : `Remove ${member.user.displayName}`}
                  confirmLabel={member.id === user.id ? 'Leave' : 'Remove'}
                  loading={removing.isPending && removing.variables === member.id}
                  onConfirm={() => removing.mutate(member.id)}
                >
                  {member.id === user.id ? 'Leave' : 'Remove'}
                </ConfirmButton>
              </Group>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
