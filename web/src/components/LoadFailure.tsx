// What a screen shows when its object could not be read: a 404 (it does not exist, or
// it is not the person's to see: the API answers both alike, and so does the app) or
// another failure, in words with what to do.
import { Anchor, Container, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';
import { ApiError } from '../api/client.ts';
import { ErrorScreen } from './ErrorScreen.tsx';

export function LoadFailure({ error, what, onRetry }: { error: unknown; what: string; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 404) return <Missing what={what} />;
  return <ErrorScreen error={error} onRetry={onRetry} />;
}

function Missing({ what }: { what: string }) {
  useDocumentTitle('Not found · Quire');
  return (
    <Container size="sm" py="xl">
      <Title order={1} size="h2">
        This {what} does not exist, or you do not have access to it
      </Title>
      <Text mt="sm">
        Check the link. If someone shared it with you, ask them to give you access. Or go back to{' '}
        <Anchor component={Link} to="/">
          your organization
        </Anchor>
        .
      </Text>
    </Container>
  );
}
