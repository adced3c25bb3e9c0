// `/o/:org/integrations/:name`: one integration: what it is and asks for, installing it
// in the organization, its settings, and uninstalling it.
import { Anchor, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { AdminFrame } from '../../settings/components/AdminFrame.tsx';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { useInstall, useInstalled, useIntegration, useUninstall } from '../queries/integrations.ts';
import { InstallationSettings } from './InstallationSettings.tsx';
import { statusLabel } from './status.ts';
import { TONES } from '../../settings/components/tones.ts';

export function IntegrationScreen() {
  return (
    <AdminFrame title="Integration" needs="admin" ownHeading>
      {(organization) => <IntegrationDetails organizationId={organization.id} />}
    </AdminFrame>
  );
}

function IntegrationDetails({ organizationId }: { organizationId: string }) {
  const { integrationName = '' } = useParams();
  const { data: integration, error } = useIntegration(integrationName);
  const { data: installed } = useInstalled(organizationId);
  const installing = useInstall(organizationId);
  const uninstalling = useUninstall(organizationId);
  if (error) return <ErrorAlert error={error} />;
  if (!integration || !installed) return <FullPageLoader />;
  const installation = installed.find((item) => item.integration.name === integration.name)?.installation;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            {integration.title}
          </Title>
          <Text size="sm" c="dimmed">
            By {integration.owner.title}
          </Text>
        </div>
        {installation ? (
          <Group gap="xs">
            <Badge variant="outline" color={installation.status === 'active' ? TONES.success : TONES.danger}>
              {statusLabel(installation.status)}
            </Badge>
            <ConfirmButton
              label={`Uninstall ${integration.title}`}
              confirmLabel="Uninstall"
              loading={uninstalling.isPending}
              onConfirm={() => uninstalling.mutate({ name: integration.name, installationId: installation.id })}
            >
              Uninstall
            </ConfirmButton>
          </Group>
        ) : (
          <Button loading={installing.isPending} onClick={() => installing.mutate(integration.name)}>
            Install
          </Button>
        )}
      </Group>
      <ErrorAlert error={installing.error ?? uninstalling.error} />
      <Text>{integration.description}</Text>
      {integration.summary && <Text size="sm">{integration.summary}</Text>}
      {integration.scopes.length > 0 && (
        <div>
          <Text fw={600} size="sm">
            It may
          </Text>
          <List size="sm">
            {integration.scopes.map((scope) => (
              <List.Item key={scope}>{scope}</List.Item>
            ))}
          </List>
        </div>
      )}
      {integration.externalLinks.map((link) => (
        <Anchor key={link.url} href={link.url} target="_blank" rel="noopener" size="sm">
          {link.label}
        </Anchor>
      ))}
      {installation && (
        <Paper withBorder p="lg" component="section" aria-labelledby="installation-settings-title">
          <InstallationSettings organizationId={organizationId} integration={integration} installation={installation} />
        </Paper>
      )}
    </Stack>
  );
}
