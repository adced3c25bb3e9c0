// Links the account to its organizations' single sign-on providers. A provider signs in
// only the account it is linked to, and only a start carrying this session's CSRF token
// links (docs/sso.md): a link to the same address on any other page links nothing.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { useSession } from '../../auth/queries/authState.ts';
import { useOrganizations } from '../../organizations/queries/organizations.ts';
import { useSsoLogins } from '../queries/account.ts';

export function SsoSection() {
  const { csrfToken } = useSession();
  const { data: organizations = [], error } = useOrganizations();
  const logins = useSsoLogins(organizations.map((organization) => organization.id));
  const rows = organizations.flatMap((organization, index) => (logins[index]?.data?.items ?? []).map((login) => ({ organization, login })));
  const failed = error ?? logins.find((query) => query.error)?.error;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sso-title">
      <Stack>
        <Title order={2} size="h3" id="sso-title">
          Single sign-on
        </Title>
        <Text size="sm">
          Link your account to an organization's identity provider once; from then on, signing in through it opens this account.
        </Text>
        <ErrorAlert error={failed} />
        {rows.length === 0 && !failed && (
          <Text size="sm" c="dimmed">
            None of your organizations has a single sign-on provider.
          </Text>
        )}
        {rows.map(({ organization, login }) => (
          <Group key={login.id} justify="space-between" wrap="nowrap">
            <Text size="sm" style={{ minWidth: 0 }}>
              <Text span fw={600}>
                {login.label}
              </Text>{' '}
              <Text span c="dimmed">
                · {organization.title}
              </Text>
            </Text>
            <Button
              component="a"
              href={`${login.startURL}?link=${encodeURIComponent(csrfToken)}`}
              variant="default"
              size="xs"
              style={{ flexShrink: 0 }}
              aria-label={`Link your account to ${login.label} of ${organization.title}`}
            >
              Link
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
