// `/o/:org/teams`: teams, and who is in each (administrators manage them all).
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { AdminFrame } from '../../settings/components/AdminFrame.tsx';
import { useCreateTeam, useTeams } from '../queries/teams.ts';
import { TeamCard } from './TeamCard.tsx';

export function TeamsScreen() {
  return <AdminFrame title="Teams" needs="admin">{(organization) => <Teams organizationId={organization.id} />}</AdminFrame>;
}

function Teams({ organizationId }: { organizationId: string }) {
  const { data: teams, error } = useTeams(organizationId);
  const creating = useCreateTeam(organizationId);
  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" component="section" aria-labelledby="new-team-title">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            creating.mutate(formValues(form).title, { onSuccess: () => form.reset() });
          }}
        >
          <Stack>
            <Title order={2} size="h3" id="new-team-title">
              New team
            </Title>
            <ErrorAlert error={creating.error} />
            <Group align="flex-end">
              <TextInput name="title" label="Team name" required maxLength={64} style={{ flex: '1 1 12rem' }} />
              <Button type="submit" loading={creating.isPending}>
                Create team
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <ErrorAlert error={error} />
      {teams?.length === 0 && <Text c="dimmed">No teams yet. A team gathers members so that they can be named together.</Text>}
      {teams?.map((team) => <TeamCard key={team.id} organizationId={organizationId} team={team} />)}
    </Stack>
  );
}
