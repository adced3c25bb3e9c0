// An installation's settings, as a form of the fields the integration declares (text,
// numbers, yes or no), or its configuration as JSON when it declares none.
import { Button, Group, NumberInput, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import type { Installation, Integration } from '../api/integrations.ts';
import { useConfigure } from '../queries/integrations.ts';

export function InstallationSettings({ organizationId, integration, installation }: { organizationId: string; integration: Integration; installation: Installation }) {
  const configuring = useConfigure(organizationId);
  const [jsonError, setJsonError] = useState<string>();
  const schema = integration.configurations.account;
  const properties = Object.entries(schema?.properties ?? {});
  const required = new Set(schema?.required ?? []);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        let configuration: Record<string, unknown> = {};
        if (properties.length === 0) {
          try {
            configuration = JSON.parse(String(data.get('json') || '{}')) as Record<string, unknown>;
          } catch {
            setJsonError('The settings are not valid JSON: check the quotes and commas.');
            return;
          }
        } else {
          for (const [name, property] of properties) {
            const value = data.get(name);
            if (property.type === 'boolean') configuration[name] = value === 'on';
            else if (property.type === 'number') {
              if (value !== '' && value !== null) configuration[name] = Number(value);
            } else if (value) configuration[name] = String(value);
          }
        }
        setJsonError(undefined);
        configuring.mutate({ name: integration.name, installationId: installation.id, configuration });
      }}
    >
      <Stack>
        <Title order={2} size="h3" id="installation-settings-title">
          Settings
        </Title>
        <ErrorAlert error={jsonError ? new Error(jsonError) : configuring.error} />
        {configuring.isSuccess && (
          <Text role="status" size="sm">
            Saved.
          </Text>
        )}
        {properties.map(([name, property]) => {
          const label = property.title ?? name;
          const current = installation.configuration[name];
          if (property.type === 'boolean') return <Switch key={name} name={name} label={label} description={property.description} defaultChecked={current === true} />;
          if (property.type === 'number')
            return <NumberInput key={name} name={name} label={label} description={property.description} required={required.has(name)} defaultValue={typeof current === 'number' ? current : undefined} />;
          return <TextInput key={name} name={name} label={label} description={property.description} required={required.has(name)} defaultValue={typeof current === 'string' ? current : ''} />;
        })}
        {properties.length === 0 && (
          <Textarea name="json" label="Settings (JSON)" description="This integration declares no settings; most need none" autosize minRows={3} defaultValue={JSON.stringify(installation.configuration, null, 2)} />
        )}
        <Group>
          <Button type="submit" loading={configuring.isPending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
