// One team: its name, its people with their team role, adding a member, and deleting it.
import { Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { useMembers } from '../../members/queries/members.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import type { Team } from '../api/teams.ts';
import { useDeleteTeam, usePutTeamMember, useRemoveTeamMember, useTeamMembers } from '../queries/teams.ts';

const TEAM_ROLES = [
  { value: 'member', label: 'Member' },
  { value: 'owner', label: 'Owner (manages the team)' },
];

export function TeamCard({ organizationId, team }: { organizationId: string; team: Team }) {
  const { data: members, error } = useTeamMembers(organizationId, team.id);
  const { data: organizationMembers } = useMembers(organizationId);
  const putting = usePutTeamMember(organizationId, team.id);
  const removing = useRemoveTeamMember(organizationId, team.id);
  const deleting = useDeleteTeam(organizationId);
  const inTeam = new Set(members?.map((entry) => entry.organization.id));
  const candidates = organizationMembers?.filter((member) => !inTeam.has(member.id)) ?? [];
  const headingId = `team-${team.id}`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={headingId}>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3" id={headingId}>
            {team.title}{' '}
            <Text span c="dimmed" size="sm">
              {team.members === 1 ? '1 member' : `${team.members} members`}
            </Text>
          </Title>
          {team.permissions.admin && (
            <ConfirmButton label={`Delete the team ${team.title}`} confirmLabel="Delete team" onConfirm={() => deleting.mutate(team.id)}>
              Delete
            </ConfirmButton>
          )}
        </Group>
        <ErrorAlert error={error ?? putting.error ?? removing.error ?? deleting.error} />
        {members?.map((entry) => (
          <Group key={entry.organization.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" style={{ flex: '1 1 10rem' }}>
              {entry.organization.user.displayName}
            </Text>
            {team.permissions.admin && (
              <Group gap="xs" wrap="nowrap">
                <NativeSelect
                  size="xs"
                  aria-label={`Team role of ${entry.organization.user.displayName}`}
                  value={entry.team.role}
                  data={TEAM_ROLES}
                  onChange={(event) => putting.mutate({ userId: entry.organization.id, role: event.currentTarget.value as 'owner' | 'member' })}
                />
                <Button variant="default" size="xs" aria-label={`Remove ${entry.organization.user.displayName} from ${team.title}`} onClick={() => removing.mutate(entry.organization.id)}>
                  Remove
                </Button>
              </Group>
            )}
          </Group>
        ))}
        {team.permissions.admin && candidates.length > 0 && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const { userId } = formValues(event.currentTarget);
              if (userId) putting.mutate({ userId, role: 'member' });
            }}
          >
            <Group align="flex-end">
              <NativeSelect
                name="userId"
                label={`Add to ${team.title}`}
                data={candidates.map((member) => ({ value: member.id, label: member.user.displayName }))}
                style={{ flex: '1 1 12rem' }}
              />
              <Button type="submit" variant="default" loading={putting.isPending}>
                Add
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
