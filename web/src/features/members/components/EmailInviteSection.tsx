// Inviting by address: each address gets a one-use invite of its own, mailed when Quire sends mail.
import { Button, Group, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { GUEST_OPTION, ROLE_OPTIONS } from '../../settings/components/roles.ts';
import type { Role } from '../../settings/api/organization.ts';
import { useInviteByEmail } from '../queries/members.ts';

export function EmailInviteSection({ organizationId }: { organizationId: string }) {
  const inviting = useInviteByEmail(organizationId);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="email-invite-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const { emails, role } = formValues(form);
          const addresses = emails.split(/[\s,;]+/).filter(Boolean);
          inviting.mutate({ emails: addresses, role: (role || null) as Role | null }, { onSuccess: () => form.reset() });
        }}
      >
        <Stack>
          <Title order={2} size="h3" id="email-invite-title">
            Invite by e-mail
          </Title>
          <ErrorAlert error={inviting.error} />
          {inviting.data && (
            <Text role="status" size="sm">
              {inviting.data.invited} invited: each address gets an invite of its own, which its owner opens to join (listed under Invite links until then).
            </Text>
          )}
          <Textarea name="emails" label="E-mail addresses" description="One or more, separated by commas or new lines" required autosize minRows={2} />
          <Group align="flex-end">
            <NativeSelect name="role" label="Their role" defaultValue="read" data={[...ROLE_OPTIONS, GUEST_OPTION]} />
            <Button type="submit" loading={inviting.isPending}>
              Invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
