// A new token's secret, which the server shows this once.
import { Button, Code, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';

export function TokenSecret({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <Paper withBorder p="md" role="status" bg="var(--mantine-color-default-hover)">
      <Stack gap="xs">
        <Text fw={700}>Token “{label}” created</Text>
        <Text size="sm">Copy it now: it will not be shown again.</Text>
        <Code block data-testid="token-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        <Group>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
