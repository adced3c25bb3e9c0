// `/invite/:organizationId/:inviteId`: an invite link. A new person joins with a name,
// e-mail and password; a signed-in person joins with one button.
import { Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { formValues } from '../../../components/formValues.ts';
import { acceptInviteAsNewPerson, getInvite, joinWithInvite } from '../api/auth.ts';
import { useAuthState, useSignedIn } from '../queries/authState.ts';

/** What each role lets a person do, as the invite says it. */
const ROLE_WORDS: Record<string, string> = {
  admin: 'an administrator',
  create: 'a creator of spaces',
  review: 'a reviewer',
  edit: 'an editor',
  comment: 'a commenter',
  read: 'a reader',
};

export function InviteScreen() {
  const { organizationId = '', inviteId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const { data: state } = useAuthState();
  const invite = useQuery({ queryKey: ['invites', organizationId, inviteId], queryFn: () => getInvite(organizationId, inviteId) });
  const title = invite.data?.organization.title;
  useDocumentTitle(title ? `Join ${title} · Quire` : 'Invite · Quire');
  const land = () => void navigate(`/o/${organizationId}/`, { replace: true });
  const queryClient = useQueryClient();
  const join = useMutation({
    mutationFn: () => joinWithInvite(organizationId, inviteId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['organizations'] });
      land();
    },
  });
  const accept = useMutation({
    mutationFn: (body: { name: string; email: string; password: string }) => acceptInviteAsNewPerson(organizationId, inviteId, body),
    onSuccess: ({ session }) => {
      signedIn(session);
      land();
    },
  });
  if (invite.error) {
    return (
      <Paper withBorder p="lg">
        <Stack>
          <Title order={1} size="h2">
            This invite cannot be used
          </Title>
          <ErrorAlert error={invite.error} />
          <Text size="sm">It may have expired or been revoked. Ask whoever sent it for a new one.</Text>
        </Stack>
      </Paper>
    );
  }
  if (!invite.data || !state) return <FullPageLoader />;
  const session = state.session;
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={1} size="h2">
          Join {title}
        </Title>
        <Text size="sm" c="dimmed">
          You are invited as {ROLE_WORDS[invite.data.role] ?? `a member (${invite.data.role})`}.
        </Text>
        {session ? (
          <>
            <ErrorAlert error={join.error} />
            <Text size="sm">Signed in as {session.user.email ?? session.user.displayName}.</Text>
            <Button onClick={() => join.mutate()} loading={join.isPending}>
              Join {title}
            </Button>
          </>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const { name, email, password } = formValues(event.currentTarget);
              accept.mutate({ name, email, password });
            }}
          >
            <Stack>
              <ErrorAlert error={accept.error} />
              <TextInput name="name" label="Name" required autoComplete="name" autoFocus />
              <TextInput name="email" label="Email" type="email" required autoComplete="email" />
              <PasswordInput name="password" label="Password" description="At least 8 characters" required minLength={8} autoComplete="new-password" />
              <Button type="submit" loading={accept.isPending}>
                Join
              </Button>
              <Text size="sm">
                Have an account already?{' '}
                <Anchor component={Link} to={`/sign-in?next=${encodeURIComponent(pathname)}`}>
                  Sign in first
                </Anchor>
                , then join.
              </Text>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
