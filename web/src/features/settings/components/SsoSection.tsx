// Single sign-on: the organization's SAML and OpenID Connect providers. Each shows what
// to register at the provider (the addresses Quire answers at).
import { Paper, Stack, Title } from '@mantine/core';
import { OidcProviders } from './OidcProviders.tsx';
import { SamlProviders } from './SamlProviders.tsx';

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
