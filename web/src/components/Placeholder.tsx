// Stands at a path of the app whose screen is not built yet, so its links open something honest.
import { Anchor, Container, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';

export function Placeholder({ title }: { title: string }) {
  useDocumentTitle(`${title} · Quire`);
  return (
    <Container size="md" py="xl">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed" mt="sm">
        This screen is not in the app yet. Everything it will show is in the API: see the <Anchor href="/docs">API reference</Anchor>.
      </Text>
    </Container>
  );
}
