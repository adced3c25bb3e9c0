// The organization's OpenID Connect providers: each with the redirect URI to register
// at the provider, editable in place (its secret only replaced, never shown); and a
// form to add one.
import { Button, Code, Group, NativeSelect, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { createOidcProvider, deleteOidcProvider, updateOidcProvider, type OidcProvider } from '../api/settings.ts';
import { useOidcProviders, useSettingsMutation } from '../queries/settings.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { GUEST_OPTION, ROLE_OPTIONS, roleLabel } from './roles.ts';
import { PROVIDER_LABEL_MAX, roleOf } from './ssoFields.ts';

type OidcFields = Parameters<typeof createOidcProvider>[1];

function OidcForm({ provider, submit, pending, children }: { provider?: OidcProvider; submit: (fields: OidcFields, form: HTMLFormElement) => void; pending: boolean; children: React.ReactNode }) {
  const name = provider ? ` of ${provider.label}` : '';
  return (
    <form
      aria-label={provider ? `Edit the OpenID Connect provider ${provider.label}` : 'Add an OpenID Connect provider'}
      onSubmit={(event) => {
        event.preventDefault();
        const { label, issuer, clientId, clientSecret, defaultRole } = formValues(event.currentTarget);
        // Editing, an empty secret keeps the one stored.
        submit({ label, issuer, clientId, clientSecret, defaultRole: roleOf(defaultRole) }, event.currentTarget);
      }}
    >
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput name="label" label={`OpenID provider name${name}`} required maxLength={PROVIDER_LABEL_MAX} description={`Up to ${PROVIDER_LABEL_MAX} characters`} defaultValue={provider?.label} />
          <TextInput name="issuer" label="Issuer URL" required type="url" defaultValue={provider?.issuer} />
        </Group>
        <Group grow align="flex-start">
          <TextInput name="clientId" label="Client ID" required defaultValue={provider?.clientId} />
          <PasswordInput
            name="clientSecret"
            label="Client secret"
            description={provider ? 'Kept sealed; empty keeps the current one' : 'Kept sealed; never shown again'}
            required={!provider}
            autoComplete="off"
          />
        </Group>
        <NativeSelect name="defaultRole" label="Role of people joining through it" defaultValue={provider ? (provider.defaultRole ?? '') : 'read'} data={[...ROLE_OPTIONS, GUEST_OPTION]} />
        <Group>
          <Button type="submit" variant="default" loading={pending}>
            {provider ? 'Save' : 'Add OpenID provider'}
          </Button>
          {children}
        </Group>
      </Stack>
    </form>
  );
}

function OidcRow({ organizationId, provider }: { organizationId: string; provider: OidcProvider }) {
  const [editing, setEditing] = useState(false);
  const saving = useSettingsMutation(organizationId, 'oidc', ({ clientSecret, ...fields }: OidcFields) =>
    updateOidcProvider(organizationId, provider.id, { ...fields, ...(clientSecret ? { clientSecret } : {}) }),
  );
  const deleting = useSettingsMutation(organizationId, 'oidc', () => deleteOidcProvider(organizationId, provider.id));
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {provider.label}{' '}
          <Text span c="dimmed" size="xs">
            {provider.issuer}
          </Text>
        </Text>
        <Group gap={4}>
          {!editing && (
            <Button variant="default" size="xs" aria-label={`Edit the OpenID Connect provider ${provider.label}`} onClick={() => setEditing(true)}>
              Edit
            </Button>
          )}
          <ConfirmButton label={`Delete the OpenID Connect provider ${provider.label}`} confirmLabel="Delete provider" onConfirm={() => deleting.mutate(undefined)}>
            Delete
          </ConfirmButton>
        </Group>
      </Group>
      <ErrorAlert error={saving.error ?? deleting.error} />
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        New people join as {roleLabel(provider.defaultRole)}. Register this redirect URI at the provider: <Code>{provider.urls.callback}</Code>
      </Text>
      {editing && (
        <OidcForm provider={provider} pending={saving.isPending} submit={(fields) => saving.mutate(fields, { onSuccess: () => setEditing(false) })}>
          <Button variant="subtle" size="sm" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </OidcForm>
      )}
    </Stack>
  );
}

export function OidcProviders({ organizationId }: { organizationId: string }) {
  const { data: providers, error } = useOidcProviders(organizationId);
  const creating = useSettingsMutation(organizationId, 'oidc', (body: OidcFields) => createOidcProvider(organizationId, body));
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        OpenID Connect providers
      </Title>
      <ErrorAlert error={error} />
      {providers?.length === 0 && <Text size="sm">None.</Text>}
      {providers?.map((provider) => <OidcRow key={provider.id} organizationId={organizationId} provider={provider} />)}
      <ErrorAlert error={creating.error} />
      <OidcForm pending={creating.isPending} submit={(fields, form) => creating.mutate(fields, { onSuccess: () => form.reset() })}>
        {null}
      </OidcForm>
    </Stack>
  );
}
