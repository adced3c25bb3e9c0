// A new token's secret, which the server shows this once.
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

export function TokenSecret({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  return (
    <Alert color="green" variant="light" title={`Token “${label}” created`} role="status">
      <Stack gap="xs">
        <Text size="sm">Copy it now: it will not be shown again.</Text>
        <Code block data-testid="token-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <Group>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="xs" onClick={copy} variant={copied ? 'filled' : 'light'}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="default" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
