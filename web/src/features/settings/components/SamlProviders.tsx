// The organization's SAML providers: each with what to register at the identity
// provider, editable in place; and a form to add one.
import { Badge, Button, Code, Group, NativeSelect, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { createSamlProvider, deleteSamlProvider, updateSamlProvider, type SamlProvider } from '../api/settings.ts';
import { useSamlProviders, useSettingsMutation } from '../queries/settings.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { GUEST_OPTION, ROLE_OPTIONS, roleLabel } from './roles.ts';
import { PROVIDER_LABEL_MAX, roleOf } from './ssoFields.ts';
import { TONES } from './tones.ts';

type SamlFields = Parameters<typeof createSamlProvider>[1];

/** The form's values; fields left empty are not sent (the provider keeps, or lacks, them). */
function samlFields(form: HTMLFormElement): SamlFields {
  const { label, ssoURL, entityID, certificate, defaultRole } = formValues(form);
  return { label, ...(ssoURL ? { ssoURL } : {}), ...(entityID ? { entityID } : {}), ...(certificate ? { certificate } : {}), defaultRole: roleOf(defaultRole) };
}

function SamlForm({ provider, submit, pending, children }: { provider?: SamlProvider; submit: (fields: SamlFields, form: HTMLFormElement) => void; pending: boolean; children: React.ReactNode }) {
  const name = provider ? ` of ${provider.label}` : '';
  return (
    <form
      aria-label={provider ? `Edit the SAML provider ${provider.label}` : 'Add a SAML provider'}
      onSubmit={(event) => {
        event.preventDefault();
        submit(samlFields(event.currentTarget), event.currentTarget);
      }}
    >
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput name="label" label={`SAML provider name${name}`} required maxLength={PROVIDER_LABEL_MAX} description={`Up to ${PROVIDER_LABEL_MAX} characters`} defaultValue={provider?.label} />
          <NativeSelect name="defaultRole" label="Role of people joining through it" defaultValue={provider ? (provider.defaultRole ?? '') : 'read'} data={[...ROLE_OPTIONS, GUEST_OPTION]} />
        </Group>
        <Group grow align="flex-start">
          <TextInput name="ssoURL" label="Its sign-on URL" type="url" defaultValue={provider?.ssoURL} />
          <TextInput name="entityID" label="Its entity ID" defaultValue={provider?.entityID} />
        </Group>
        <Textarea name="certificate" label="Its signing certificate (PEM)" autosize minRows={2} maxRows={6} defaultValue={provider?.certificate} />
        <Group>
          <Button type="submit" variant="default" loading={pending}>
            {provider ? 'Save' : 'Add SAML provider'}
          </Button>
          {children}
        </Group>
      </Stack>
    </form>
  );
}

function SamlRow({ organizationId, provider }: { organizationId: string; provider: SamlProvider }) {
  const [editing, setEditing] = useState(false);
  const saving = useSettingsMutation(organizationId, 'saml', (fields: SamlFields) => updateSamlProvider(organizationId, provider.id, fields));
  const deleting = useSettingsMutation(organizationId, 'saml', () => deleteSamlProvider(organizationId, provider.id));
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={600} size="sm">
            {provider.label}
          </Text>
          <Badge variant="outline" color={provider.status === 'active' ? TONES.success : 'gray'}>
            {provider.status === 'active' ? 'Active' : 'Needs its sign-on URL, entity ID and certificate'}
          </Badge>
        </Group>
        <Group gap={4}>
          {!editing && (
            <Button variant="default" size="xs" aria-label={`Edit the SAML provider ${provider.label}`} onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          <ConfirmButton label={`Delete the SAML provider ${provider.label}`} confirmLabel="Delete provider" onConfirm={() => deleting.mutate(undefined)}>
            Delete
          </ConfirmButton>
        </Group>
      </Group>
      <ErrorAlert error={saving.error ?? deleting.error} />
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        New people join as {roleLabel(provider.defaultRole)}. Register at the provider: ACS <Code>{provider.service.acsURL}</Code>, entity ID <Code>{provider.service.entityID}</Code>
      </Text>
      {editing && (
        <SamlForm provider={provider} pending={saving.isPending} submit={(fields) => saving.mutate(fields, { onSuccess: () => setEditing(false) })}>
          <Button variant="subtle" size="sm" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </SamlForm>
      )}
    </Stack>
  );
}

export function SamlProviders({ organizationId }: { organizationId: string }) {
  const { data: providers, error } = useSamlProviders(organizationId);
  const creating = useSettingsMutation(organizationId, 'saml', (body: SamlFields) => createSamlProvider(organizationId, body));
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        SAML providers
      </Title>
      <ErrorAlert error={error} />
      {providers?.length === 0 && <Text size="sm">None.</Text>}
      {providers?.map((provider) => <SamlRow key={provider.id} organizationId={organizationId} provider={provider} />)}
      <ErrorAlert error={creating.error} />
      <SamlForm pending={creating.isPending} submit={(fields, form) => creating.mutate(fields, { onSuccess: () => form.reset() })}>
        {null}
      </SamlForm>
    </Stack>
  );
}
