// `/o/:org/integrations`: what is installed in the organization, and what else can be.
import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { AdminFrame } from '../../settings/components/AdminFrame.tsx';
import type { Integration } from '../api/integrations.ts';
import { useInstalled, useIntegrations } from '../queries/integrations.ts';
import { statusLabel } from './status.ts';
import { TONES } from '../../settings/components/tones.ts';

export function IntegrationsScreen() {
  return <AdminFrame title="Integrations" needs="admin">{(organization) => <Integrations organizationId={organization.id} />}</AdminFrame>;
}

function Entry({ organizationId, integration, children }: { organizationId: string; integration: Integration; children?: ReactNode }) {
  return (
    <Group component="li" justify="space-between" wrap="wrap" gap="xs">
      <div style={{ flex: '1 1 14rem', minWidth: 0 }}>
        <Anchor component={Link} to={`/o/${organizationId}/integrations/${integration.name}`} fw={600}>
          {integration.title}
        </Anchor>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {integration.description}
        </Text>
      </div>
      {children}
    </Group>
  );
}

function Integrations({ organizationId }: { organizationId: string }) {
  const { data: installed, error: installedError } = useInstalled(organizationId);
  const { data: integrations, error } = useIntegrations();
  const installedNames = new Set(installed?.map((item) => item.integration.name));
  const available = integrations?.filter((integration) => !installedNames.has(integration.name)) ?? [];
  const list = { listStyle: 'none', padding: 0, margin: 0 };
  return (
    <Stack gap="lg">
      <ErrorAlert error={installedError ?? error} />
      <Paper withBorder p="lg" component="section" aria-labelledby="installed-title">
        <Stack>
          <Title order={2} size="h3" id="installed-title">
            Installed
          </Title>
          {installed?.length === 0 && <Text size="sm">Nothing is installed in this organization yet.</Text>}
          <Stack component="ul" gap="md" style={list}>
            {installed?.map(({ installation, integration }) => (
              <Entry key={installation.id} organizationId={organizationId} integration={integration}>
                <Badge variant="outline" color={installation.status === 'active' ? TONES.success : TONES.danger}>
                  {statusLabel(installation.status)}
                </Badge>
              </Entry>
            ))}
          </Stack>
        </Stack>
      </Paper>
      <Paper withBorder p="lg" component="section" aria-labelledby="available-title">
        <Stack>
          <Title order={2} size="h3" id="available-title">
            Available
          </Title>
          {integrations && available.length === 0 && <Text size="sm">No other integration is published on this Quire.</Text>}
          <Stack component="ul" gap="md" style={list}>
            {available.map((integration) => (
              <Entry key={integration.name} organizationId={organizationId} integration={integration} />
            ))}
          </Stack>
        </Stack>
      </Paper>
    </Stack>
  );
}
