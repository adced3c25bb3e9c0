// Invite links: each joins whoever opens it with its role until it expires or is revoked.
import { Button, CopyButton, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { shownDate } from '../../account/components/dates.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { GUEST_OPTION, ROLE_OPTIONS, roleLabel } from '../../settings/components/roles.ts';
import type { Role } from '../../settings/api/organization.ts';
import { useCreateLinkInvite, useLinkInvites, useRevokeLinkInvite } from '../queries/members.ts';

const EXPIRIES = [
  { value: '1', label: 'In a day' },
  { value: '7', label: 'In a week' },
  { value: '14', label: 'In two weeks' },
  { value: '30', label: 'In 30 days' },
  { value: 'never', label: 'Never' },
];

function expiresAt(choice: string): string | null {
  return choice === 'never' ? null : new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

export function LinkInvitesSection({ organizationId }: { organizationId: string }) {
  const { data: invites, error } = useLinkInvites(organizationId);
  const creating = useCreateLinkInvite(organizationId);
  const revoking = useRevokeLinkInvite(organizationId);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="invites-title">
      <Stack>
        <Title order={2} size="h3" id="invites-title">
          Invite links
        </Title>
        <Text size="sm" c="dimmed">
          Whoever opens an invite link joins with its role, until it expires or you revoke it. Send it only to the people it is for.
        </Text>
        <ErrorAlert error={error ?? creating.error ?? revoking.error} />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const { role, expiry } = formValues(event.currentTarget);
            creating.mutate({ role: (role || null) as Role | null, expiresAt: expiresAt(expiry) });
          }}
        >
          <Group align="flex-end">
            <NativeSelect name="role" label="Role of who joins" defaultValue="read" data={[...ROLE_OPTIONS, GUEST_OPTION]} />
            <NativeSelect name="expiry" label="Expires" defaultValue="14" data={EXPIRIES} />
            <Button type="submit" loading={creating.isPending}>
              Create invite link
            </Button>
          </Group>
        </form>
        {invites?.filter((invite) => !invite.email).length === 0 && (
          <Text size="sm" c="dimmed">
            No invite links.
          </Text>
        )}
        {invites?.map((invite) => (
          <Stack key={invite.id} gap={4} data-testid="link-invite">
            <Text size="sm">
              <Text span fw={600}>
                {roleLabel(invite.role)}
              </Text>{' '}
              · {invite.email ? `for ${invite.email} · ` : ''}expires {invite.expiresAt ? shownDate(invite.expiresAt) : 'never'}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <TextInput readOnly value={invite.urls.app} aria-label={`Invite link (${roleLabel(invite.role)})`} style={{ flex: 1, minWidth: 0 }} size="xs" onFocus={(event) => event.currentTarget.select()} />
              <CopyButton value={invite.urls.app}>
                {({ copied, copy }) => (
                  <Button size="xs" onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} the invite link (${roleLabel(invite.role)})`}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
              <ConfirmButton label={`Revoke the invite link (${roleLabel(invite.role)})`} confirmLabel="Revoke" onConfirm={() => revoking.mutate(invite.id)}>
                Revoke
              </ConfirmButton>
            </Group>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
