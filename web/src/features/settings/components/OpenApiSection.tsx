// OpenAPI specs: documents Quire keeps (fetched from a URL, or pasted) for API reference blocks.
import { Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { createSpec } from '../api/settings.ts';
import { useSettingsMutation, useSpecs } from '../queries/settings.ts';
import { TONES } from './tones.ts';

export function specState(spec: { processingState: string; lastProcessErrorCode?: string }): string {
  if (spec.processingState !== 'complete') return 'Processing…';
  return spec.lastProcessErrorCode ? 'Last update failed' : 'Ready';
}

export function OpenApiSection({ organizationId }: { organizationId: string }) {
  const { data: specs, error } = useSpecs(organizationId);
  const creating = useSettingsMutation(organizationId, 'openapi', ({ slug, url, text }: { slug: string; url: string; text: string }) =>
    createSpec(organizationId, slug, url ? { url } : { text }),
  );
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="openapi-title">
      <Stack>
        <Title order={2} size="h3" id="openapi-title">
          OpenAPI specifications
        </Title>
        <ErrorAlert error={error ?? creating.error} />
        {specs?.length === 0 && <Text size="sm">No specifications.</Text>}
        {specs?.map((spec) => (
          <Group key={spec.id} gap="xs">
            <Anchor component={Link} to={`/o/${organizationId}/openapi/${spec.slug}`} fw={600} size="sm">
              {spec.slug}
            </Anchor>
            <Badge variant="outline" color={spec.lastProcessErrorCode ? TONES.danger : 'gray'}>
              {specState(spec)}
            </Badge>
            <Text size="xs" c="dimmed">
              {spec.visibility === 'public' ? 'Public' : 'Private'}
              {spec.sourceURL ? ` · from ${spec.sourceURL}` : ''}
            </Text>
          </Group>
        ))}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const { slug, url, text } = formValues(form);
            creating.mutate({ slug, url, text }, { onSuccess: () => form.reset() });
          }}
        >
          <Stack gap="xs">
            <TextInput name="slug" label="Specification name" description="Lowercase words joined by hyphens, such as payments-api" required maxLength={100} pattern="[a-z0-9]+(-[a-z0-9]+)*" />
            <TextInput name="url" label="Fetch it from" description="The document's URL; Quire fetches it again when asked. Or paste it below" type="url" />
            <Textarea name="text" label="Or paste it (YAML or JSON)" autosize minRows={2} maxRows={8} />
            <Group>
              <Button type="submit" variant="default" loading={creating.isPending}>
                Add specification
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
