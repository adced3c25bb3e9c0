// Single sign-on: the organization's SAML and OpenID Connect providers. Each shows what
// to register at the provider (the addresses Quire answers at).
import { Badge, Button, Code, Group, NativeSelect, Paper, PasswordInput, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import type { Role } from '../api/organization.ts';
import { createOidcProvider, createSamlProvider, deleteOidcProvider, deleteSamlProvider } from '../api/settings.ts';
import { useOidcProviders, useSamlProviders, useSettingsMutation } from '../queries/settings.ts';
import { ConfirmButton } from './ConfirmButton.tsx';
import { GUEST_OPTION, ROLE_OPTIONS, roleLabel } from './roles.ts';
import { TONES } from './tones.ts';

const roleOf = (value: string) => (value || null) as Role | null;

export function SsoSection({ organizationId }: { organizationId: string }) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sso-title">
      <Stack gap="lg">
        <Title order={2} size="h3" id="sso-title">
          Single sign-on
        </Title>
        <SamlProviders organizationId={organizationId} />
        <OidcProviders organizationId={organizationId} />
      </Stack>
    </Paper>
  );
}

function SamlProviders({ organizationId }: { organizationId: string }) {
  const { data: providers, error } = useSamlProviders(organizationId);
  const creating = useSettingsMutation(organizationId, 'saml', (body: Parameters<typeof createSamlProvider>[1]) => createSamlProvider(organizationId, body));
  const deleting = useSettingsMutation(organizationId, 'saml', (id: string) => deleteSamlProvider(organizationId, id));
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        SAML providers
      </Title>
      <ErrorAlert error={error ?? creating.error ?? deleting.error} />
      {providers?.length === 0 && <Text size="sm">None.</Text>}
      {providers?.map((provider) => (
        <Stack key={provider.id} gap={2}>
          <Group justify="space-between">
            <Group gap="xs">
              <Text fw={600} size="sm">
                {provider.label}
              </Text>
              <Badge variant="outline" color={provider.status === 'active' ? TONES.success : 'gray'}>
                {provider.status === 'active' ? 'Active' : 'Needs its sign-on URL, entity ID and certificate'}
              </Badge>
            </Group>
            <ConfirmButton label={`Delete the SAML provider ${provider.label}`} confirmLabel="Delete provider" onConfirm={() => deleting.mutate(provider.id)}>
              Delete
            </ConfirmButton>
          </Group>
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            New people join as {roleLabel(provider.defaultRole)}. Register at the provider: ACS <Code>{provider.service.acsURL}</Code>, entity ID <Code>{provider.service.entityID}</Code>
          </Text>
        </Stack>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const { label, ssoURL, entityID, certificate, defaultRole } = formValues(form);
          creating.mutate(
            { label, ...(ssoURL ? { ssoURL } : {}), ...(entityID ? { entityID } : {}), ...(certificate ? { certificate } : {}), defaultRole: roleOf(defaultRole) },
            { onSuccess: () => form.reset() },
          );
        }}
      >
        <Stack gap="xs">
          <Group grow align="flex-start">
            <TextInput name="label" label="SAML provider name" required maxLength={100} />
            <NativeSelect name="defaultRole" label="Role of people joining through it" defaultValue="read" data={[...ROLE_OPTIONS, GUEST_OPTION]} />
          </Group>
          <Group grow align="flex-start">
            <TextInput name="ssoURL" label="Its sign-on URL" type="url" />
            <TextInput name="entityID" label="Its entity ID" />
          </Group>
          <Textarea name="certificate" label="Its signing certificate (PEM)" autosize minRows={2} maxRows={6} />
          <Group>
            <Button type="submit" variant="default" loading={creating.isPending}>
              Add SAML provider
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

function OidcProviders({ organizationId }: { organizationId: string }) {
  const { data: providers, error } = useOidcProviders(organizationId);
  const creating = useSettingsMutation(organizationId, 'oidc', (body: Parameters<typeof createOidcProvider>[1]) => createOidcProvider(organizationId, body));
  const deleting = useSettingsMutation(organizationId, 'oidc', (id: string) => deleteOidcProvider(organizationId, id));
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        OpenID Connect providers
      </Title>
      <ErrorAlert error={error ?? creating.error ?? deleting.error} />
      {providers?.length === 0 && <Text size="sm">None.</Text>}
      {providers?.map((provider) => (
        <Stack key={provider.id} gap={2}>
          <Group justify="space-between">
            <Text fw={600} size="sm">
              {provider.label}{' '}
              <Text span c="dimmed" size="xs">
                {provider.issuer}
              </Text>
            </Text>
            <ConfirmButton label={`Delete the OpenID Connect provider ${provider.label}`} confirmLabel="Delete provider" onConfirm={() => deleting.mutate(provider.id)}>
              Delete
            </ConfirmButton>
          </Group>
          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
            New people join as {roleLabel(provider.defaultRole)}. Register this redirect URI at the provider: <Code>{provider.urls.callback}</Code>
          </Text>
        </Stack>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const { label, issuer, clientId, clientSecret, defaultRole } = formValues(form);
          creating.mutate({ label, issuer, clientId, clientSecret, defaultRole: roleOf(defaultRole) }, { onSuccess: () => form.reset() });
        }}
      >
        <Stack gap="xs">
          <Group grow align="flex-start">
            <TextInput name="label" label="OpenID provider name" required maxLength={100} />
            <TextInput name="issuer" label="Issuer URL" required type="url" />
          </Group>
          <Group grow align="flex-start">
            <TextInput name="clientId" label="Client ID" required />
            <PasswordInput name="clientSecret" label="Client secret" description="Kept sealed; never shown again" required autoComplete="off" />
          </Group>
          <NativeSelect name="defaultRole" label="Role of people joining through it" defaultValue="read" data={[...ROLE_OPTIONS, GUEST_OPTION]} />
          <Group>
            <Button type="submit" variant="default" loading={creating.isPending}>
              Add OpenID provider
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
