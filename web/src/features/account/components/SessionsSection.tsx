// Where you are signed in; revoking this browser's session signs you out here.
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { forgetSession } from '../../auth/queries/authState.ts';
import { useRevokeSession, useSessions } from '../queries/account.ts';
import { shownDate } from './dates.ts';
import { describeUserAgent } from './userAgent.ts';

export function SessionsSection() {
  const { data: sessions, error } = useSessions();
  const revoking = useRevokeSession();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sessions-title">
      <Stack>
        <Title order={2} size="h3" id="sessions-title">
          Sessions
        </Title>
        <ErrorAlert error={error ?? revoking.error} />
        {sessions?.map((session) => (
          <Group key={session.id} justify="space-between" wrap="nowrap" align="flex-start">
            <div style={{ minWidth: 0, flex: 1 }}>
              <Group gap="xs">
                <Text fw={600} size="sm" title={session.userAgent ?? undefined}>
                  {describeUserAgent(session.userAgent)}
                </Text>
                {session.current && <Badge variant="outline">This browser</Badge>}
              </Group>
              <Text size="xs" c="dimmed">
                {session.address ?? 'unknown address'} · signed in {shownDate(session.createdAt)} · last used {shownDate(session.lastUsedAt)}
              </Text>
            </div>
            <Button
              variant="default"
              size="xs"
              style={{ flexShrink: 0 }}
              aria-label={`Revoke the session of ${describeUserAgent(session.userAgent)} signed in ${shownDate(session.createdAt)}`}
              loading={revoking.isPending && revoking.variables === session.id}
              onClick={() => revoking.mutate(session.id, { onSuccess: () => session.current && forgetSession() })}
            >
              Revoke
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
