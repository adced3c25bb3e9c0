// A screen that could not load, said in words with what to do.
import { Alert, Button, Container, Stack, Text } from '@mantine/core';
import { useRouteError } from 'react-router';

export function ErrorScreen({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <Container size="sm" py="xl">
      <Alert color="red" title="This screen could not be shown" role="alert">
        <Stack gap="sm">
          <Text size="sm">{message}</Text>
          <div>
            <Button variant="light" color="red" onClick={onRetry ?? (() => window.location.reload())}>
              {onRetry ? 'Try again' : 'Reload'}
            </Button>
          </div>
        </Stack>
      </Alert>
    </Container>
  );
}

/** The routes' error element: what a screen threw, or a module that failed to load (a new build while the tab was open). */
export function RouteErrorScreen() {
  return <ErrorScreen error={useRouteError()} />;
}
