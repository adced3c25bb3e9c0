// `/setup`: the first run. Creates the organization and its first administrator, who is then signed in.
import { Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { formValues } from '../../../components/formValues.ts';
import { setUp } from '../api/auth.ts';
import { useAuthState, useSignedIn } from '../queries/authState.ts';

export function SetupScreen() {
  useDocumentTitle('Set up Quire');
  const { data: state } = useAuthState();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const setup = useMutation({
    mutationFn: setUp,
    onSuccess: ({ session, organization }) => {
      signedIn(session);
      void navigate(`/o/${organization.id}/`, { replace: true });
    },
  });
  if (!state) return <FullPageLoader />;
  if (!state.setupRequired && !setup.isPending) return <Navigate to="/" replace />;
  return (
    <Paper withBorder p="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const { organization, name, email, password } = formValues(event.currentTarget);
          setup.mutate({ organization, name, email, password });
        }}
      >
        <Stack>
          <Title order={1} size="h2">
            Set up Quire
          </Title>
          <Text size="sm" c="dimmed">
            Name your organization and create its first administrator: you.
          </Text>
          <ErrorAlert error={setup.error} />
          <TextInput name="organization" label="Organization" required autoFocus />
          <TextInput name="name" label="Name" required autoComplete="name" />
          <TextInput name="email" label="Email" type="email" required autoComplete="email" />
          <PasswordInput name="password" label="Password" description="At least 8 characters" required minLength={8} autoComplete="new-password" />
          <Button type="submit" loading={setup.isPending}>
            Create organization
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
