// `/sign-in`: email and password, single sign-on, or a password reset; then back to
// the path the person was sent here from (?next=). ?error= carries a message from a
// sign-in that ended elsewhere (single sign-on).
import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { formValues } from '../../../components/formValues.ts';
import { signIn } from '../api/auth.ts';
import { useAuthState, useSignedIn } from '../queries/authState.ts';
import { PasswordResetForm } from './PasswordResetForm.tsx';
import { nextPath } from './RequireSession.tsx';
import { SsoForm } from './SsoForm.tsx';

type Mode = 'password' | 'sso' | 'reset';

export function SignInScreen() {
  useDocumentTitle('Sign in · Quire');
  const [search] = useSearchParams();
  const [mode, setMode] = useState<Mode>('password');
  const { data: state } = useAuthState();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const next = nextPath(search);
  const signingIn = useMutation({
    mutationFn: signIn,
    onSuccess: ({ session }) => {
      signedIn(session);
      void navigate(next, { replace: true });
    },
  });
  if (!state) return <FullPageLoader />;
  if (state.setupRequired) return <Navigate to="/setup" replace />;
  if (state.session && !signingIn.isSuccess) return <Navigate to={next} replace />;
  const error = search.get('error');
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={1} size="h2">
          Sign in to Quire
        </Title>
        {error && (
          <Alert color="red" role="alert" variant="light">
            {error}
          </Alert>
        )}
        {mode === 'password' && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const { email, password } = formValues(event.currentTarget);
              signingIn.mutate({ email, password });
            }}
          >
            <Stack>
              <ErrorAlert error={signingIn.error} />
              <TextInput name="email" label="Email" type="email" required autoComplete="username" autoFocus />
              <PasswordInput name="password" label="Password" required autoComplete="current-password" />
              <Button type="submit" loading={signingIn.isPending}>
                Sign in
              </Button>
            </Stack>
          </form>
        )}
        {mode === 'sso' && <SsoForm />}
        {mode === 'reset' && <PasswordResetForm />}
        <Group justify="space-between">
          {mode !== 'password' && (
            <Anchor component="button" type="button" size="sm" onClick={() => setMode('password')}>
              Sign in with a password
            </Anchor>
          )}
          {mode !== 'sso' && (
            <Anchor component="button" type="button" size="sm" onClick={() => setMode('sso')}>
              Single sign-on
            </Anchor>
          )}
          {mode !== 'reset' && (
            <Anchor component="button" type="button" size="sm" onClick={() => setMode('reset')}>
              Forgot password?
            </Anchor>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
