// `/o/:org/openapi/:slug`: one OpenAPI specification: its state while Quire processes it,
// what went wrong, a new version from its URL or pasted, its visibility, and deleting it.
import { Alert, Anchor, Badge, Button, Group, List, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { formValues } from '../../../components/formValues.ts';
import { shownDate } from '../../account/components/dates.ts';
import { deleteSpec, replaceSpec, setSpecVisibility } from '../api/settings.ts';
import { useSettingsMutation, useSpec } from '../queries/settings.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { ConfirmButton } from './ConfirmButton.tsx';
import { specState } from './OpenApiSection.tsx';
import { TONES } from './tones.ts';

export function OpenApiSpecScreen() {
  return (
    <AdminFrame title="OpenAPI specification" needs="admin" ownHeading>
      {(organization) => <Spec organizationId={organization.id} />}
    </AdminFrame>
  );
}

function Spec({ organizationId }: { organizationId: string }) {
  const { specSlug = '' } = useParams();
  const navigate = useNavigate();
  const { data: spec, error } = useSpec(organizationId, specSlug);
  const replacing = useSettingsMutation(organizationId, 'openapi', ({ url, text }: { url: string; text: string }) =>
    replaceSpec(organizationId, specSlug, url ? { url } : { text }),
  );
  const publishing = useSettingsMutation(organizationId, 'openapi', (visibility: 'private' | 'public') => setSpecVisibility(organizationId, specSlug, visibility));
  const deleting = useSettingsMutation(organizationId, 'openapi', () => deleteSpec(organizationId, specSlug));
  if (error) return <ErrorAlert error={error} />;
  if (!spec) return <FullPageLoader />;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {spec.slug}
        </Title>
        <Group gap="xs" mt="xs">
          <Badge variant="outline" color={spec.lastProcessErrorCode ? TONES.danger : 'gray'}>
            {specState(spec)}
          </Badge>
          <Text size="sm" c="dimmed">
            {spec.visibility === 'public' ? 'Public' : 'Private'} · updated {shownDate(spec.updatedAt)}
          </Text>
        </Group>
        <Anchor component={Link} to={`/o/${organizationId}/settings`} size="sm">
          All specifications
        </Anchor>
      </div>
      <ErrorAlert error={replacing.error ?? publishing.error ?? deleting.error} />
      {!!spec.lastProcessedErrors?.length && (
        <Alert color={TONES.danger} variant="outline" title="What Quire found wrong in the last version">
          <List size="sm">
            {spec.lastProcessedErrors.map((problem, index) => (
              <List.Item key={index}>{problem.message}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {spec.permissions.edit && (
        <Paper withBorder p="lg" component="section" aria-labelledby="new-version-title">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const { url, text } = formValues(event.currentTarget);
              replacing.mutate({ url, text });
            }}
          >
            <Stack gap="xs">
              <Title order={2} size="h3" id="new-version-title">
                New version
              </Title>
              <TextInput name="url" label="Fetch it from" type="url" defaultValue={spec.sourceURL ?? ''} />
              <Textarea name="text" label="Or paste it (YAML or JSON)" autosize minRows={2} maxRows={8} />
              <Group>
                <Button type="submit" loading={replacing.isPending}>
                  {spec.sourceURL ? 'Fetch again' : 'Save version'}
                </Button>
                <Button variant="default" loading={publishing.isPending} onClick={() => publishing.mutate(spec.visibility === 'public' ? 'private' : 'public')}>
                  {spec.visibility === 'public' ? 'Make private' : 'Make public'}
                </Button>
                <ConfirmButton size="sm" label={`Delete the specification ${spec.slug}`} confirmLabel="Delete specification" onConfirm={() => deleting.mutate(undefined, { onSuccess: () => navigate(`/o/${organizationId}/settings`) })}>
                  Delete
                </ConfirmButton>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}
