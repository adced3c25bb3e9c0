import { Alert } from '@mantine/core';

/** A failed action's message, read out when it appears. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {error instanceof Error ? error.message : 'Something went wrong. Try again.'}
    </Alert>
  );
}
