import { Button, Group, NativeSelect, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import type { AdministeredOrganization, Role } from '../api/organization.ts';
import { useUpdateOrganization } from '../queries/organization.ts';
import { GUEST_OPTION, ROLE_OPTIONS } from './roles.ts';

export function OrganizationSection({ organization }: { organization: AdministeredOrganization }) {
  const updating = useUpdateOrganization(organization.id);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="organization-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const values = formValues(event.currentTarget);
          updating.mutate({
            title: values.title,
            emailDomains: values.emailDomains.split(/[\s,]+/).filter(Boolean),
            defaultRole: (values.defaultRole || null) as Role | null,
            inviteLinks: values.inviteLinks === 'on',
          });
        }}
      >
        <Stack>
          <Title order={2} size="h3" id="organization-title">
            Organization
          </Title>
          <ErrorAlert error={updating.error} />
          {updating.isSuccess && (
            <Text role="status" size="sm">
              Saved.
            </Text>
          )}
          <TextInput name="title" label="Name" defaultValue={organization.title} required maxLength={100} />
          <TextInput
            name="emailDomains"
            label="E-mail domains"
            description="People with an address at these domains find the organization's single sign-on; separate them with commas"
            defaultValue={organization.emailDomains.join(', ')}
          />
          <NativeSelect name="defaultRole" label="Role of people who join through single sign-on" defaultValue={organization.defaultRole ?? ''} data={[...ROLE_OPTIONS, GUEST_OPTION]} />
          <Switch name="inviteLinks" label="Administrators may make invite links" defaultChecked={organization.inviteLinks} />
          <Group>
            <Button type="submit" loading={updating.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
