// Personal API tokens: create one with a name and a scope, see its secret once, revoke it.
import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { useCreateToken, useRevokeToken, useTokens } from '../queries/account.ts';
import { shownDate } from './dates.ts';
import { TokenSecret } from './TokenSecret.tsx';

export function TokensSection() {
  const { data: tokens, error } = useTokens();
  const creating = useCreateToken();
  const revoking = useRevokeToken();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="tokens-title">
      <Stack>
        <Title order={2} size="h3" id="tokens-title">
          API tokens
        </Title>
        <Text size="sm" c="dimmed">
          A token lets a script or GitBook's API client act as you. Read-only tokens can only read.
        </Text>
        <ErrorAlert error={error ?? creating.error ?? revoking.error} />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const { label, scope } = formValues(form);
            creating.mutate({ label, scope: scope === 'read' ? 'read' : 'write' }, { onSuccess: () => form.reset() });
          }}
        >
          <Group align="flex-end">
            <TextInput name="label" label="Token name" required maxLength={100} style={{ flex: '1 1 12rem' }} />
            <Select
              name="scope"
              label="Scope"
              defaultValue="write"
              allowDeselect={false}
              data={[
                { value: 'write', label: 'Read and write' },
                { value: 'read', label: 'Read only' },
              ]}
              w={160}
            />
            <Button type="submit" loading={creating.isPending}>
              Create token
            </Button>
          </Group>
        </form>
        {creating.data && <TokenSecret label={creating.data.label} secret={creating.data.token} onDone={() => creating.reset()} />}
        {tokens?.length === 0 && (
          <Text size="sm" c="dimmed">
            No tokens yet.
          </Text>
        )}
        {tokens?.map((token) => (
          <Group key={token.id} justify="space-between" wrap="nowrap">
            <div style={{ minWidth: 0, flex: 1 }}>
              <Text fw={600} size="sm" truncate>
                {token.label}
              </Text>
              <Text size="xs" c="dimmed">
                {token.scope === 'read' ? 'Read only' : 'Read and write'} · created {shownDate(token.createdAt)} · last used {shownDate(token.lastUsedAt)}
              </Text>
            </div>
            <Button
              variant="default"
              size="xs"
              style={{ flexShrink: 0 }}
              aria-label={`Revoke the token ${token.label}`}
              loading={revoking.isPending && revoking.variables === token.id}
              onClick={() => revoking.mutate(token.id)}
            >
              Revoke
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
