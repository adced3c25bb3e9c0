// `/sign-in/link/:token`: a one-time link (a password reset, or `quire admin sign-in-link`).
// The person may set a new password with it, or just continue.
import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { signInWithLink } from '../api/auth.ts';
import { useSignedIn } from '../queries/authState.ts';

export function SignInLinkScreen() {
  useDocumentTitle('Sign in with a link · Quire');
  const { token = '' } = useParams();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const using = useMutation({
    mutationFn: (password?: string) => signInWithLink({ token, ...(password ? { password } : {}) }),
    onSuccess: ({ session }) => {
      signedIn(session);
      void navigate('/', { replace: true });
    },
  });
  return (
    <Paper withBorder p="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          using.mutate(formValues(event.currentTarget).password);
        }}
      >
        <Stack>
          <Title order={1} size="h2">
            Sign in with a link
          </Title>
          <Text size="sm" c="dimmed">
            This link works once. Set a new password now, or continue without changing it.
          </Text>
          <ErrorAlert error={using.error} />
          <PasswordInput name="password" label="New password" description="At least 8 characters" required minLength={8} autoComplete="new-password" autoFocus />
          <Button type="submit" loading={using.isPending && using.variables !== undefined}>
            Set password and sign in
          </Button>
          <Button variant="default" onClick={() => using.mutate(undefined)} loading={using.isPending && using.variables === undefined}>
            Continue without changing it
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
