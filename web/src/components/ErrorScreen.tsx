// A screen that could not load, said in words with what to do.
import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

export function ErrorScreen({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          This screen could not be shown
        </Title>
        <Alert color="red" role="alert" variant="light">
          <Stack gap="sm">
            <Text size="sm">{message}</Text>
            <div>
              <Button variant="default" onClick={onRetry ?? (() => window.location.reload())}>
                {onRetry ? 'Try again' : 'Reload'}
              </Button>
            </div>
          </Stack>
        </Alert>
      </Stack>
    </Container>
  );
}

/** The routes' error element: what a screen threw, or a module that failed to load (a new build while the tab was open). */
export function RouteErrorScreen() {
  // It replaces the whole page, frame and all, so it is the page's main landmark.
  return (
    <main>
      <ErrorScreen error={useRouteError()} />
    </main>
  );
}
