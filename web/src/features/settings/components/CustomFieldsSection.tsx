// Custom fields: the properties every space of the organization may carry.
import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { createCustomField, deleteCustomField } from '../api/settings.ts';
import { useCustomFields, useSettingsMutation } from '../queries/settings.ts';
import { ConfirmButton } from './ConfirmButton.tsx';

const TYPES = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Yes or no' },
  { value: 'tags', label: 'Tags' },
  { value: 'select:single', label: 'One of a list' },
  { value: 'select:multi', label: 'Several of a list' },
];

export function CustomFieldsSection({ organizationId }: { organizationId: string }) {
  const { data: fields, error } = useCustomFields(organizationId);
  const creating = useSettingsMutation(organizationId, 'custom-fields', (body: Parameters<typeof createCustomField>[1]) => createCustomField(organizationId, body));
  const deleting = useSettingsMutation(organizationId, 'custom-fields', (name: string) => deleteCustomField(organizationId, name));
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="custom-fields-title">
      <Stack>
        <Title order={2} size="h3" id="custom-fields-title">
          Custom fields
        </Title>
        <Text size="sm" c="dimmed">
          Properties every space can carry, such as an owner or a product.
        </Text>
        <ErrorAlert error={error ?? creating.error ?? deleting.error} />
        {fields?.length === 0 && <Text size="sm">No custom fields.</Text>}
        {fields?.map((field) => (
          <Group key={field.name} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              <Text span fw={600}>
                {field.title || field.name}
              </Text>{' '}
              · {TYPES.find((type) => type.value === field.type)?.label ?? field.type}
              {field.options?.length ? ` (${field.options.join(', ')})` : ''}
            </Text>
            <ConfirmButton label={`Delete the custom field ${field.title || field.name}`} confirmLabel="Delete field" onConfirm={() => deleting.mutate(field.name)}>
              Delete
            </ConfirmButton>
          </Group>
        ))}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const { name, title, type, options } = formValues(form);
            const list = options.split(',').map((option) => option.trim()).filter(Boolean);
            creating.mutate({ name, type, ...(title ? { title } : {}), ...(type.startsWith('select') ? { options: list } : {}) }, { onSuccess: () => form.reset() });
          }}
        >
          <Group align="flex-end">
            <TextInput name="name" label="Field name" description="Lowercase letters, digits, - and _" required maxLength={50} style={{ flex: '1 1 9rem' }} />
            <TextInput name="title" label="Title" maxLength={100} style={{ flex: '1 1 9rem' }} />
            <NativeSelect name="type" label="Type" data={TYPES} />
            <TextInput name="options" label="Choices" description="For lists, separated by commas" style={{ flex: '1 1 9rem' }} />
            <Button type="submit" variant="default" loading={creating.isPending}>
              Add field
            </Button>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}
