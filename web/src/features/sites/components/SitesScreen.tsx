// `/o/:org/sites`: the organization's sites, published or not, and creating one.
import { Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { AdminFrame } from '../../settings/components/AdminFrame.tsx';
import { createSite } from '../api/sites.ts';
import { useSiteMutation, useSites } from '../queries/sites.ts';
import { visibilityLabel } from './visibility.ts';

export function SitesScreen() {
  return <AdminFrame title="Sites" needs="createContent">{(organization) => <Sites organizationId={organization.id} />}</AdminFrame>;
}

function Sites({ organizationId }: { organizationId: string }) {
  const navigate = useNavigate();
  const { data: sites, error } = useSites(organizationId);
  const creating = useSiteMutation(organizationId, (title: string) => createSite(organizationId, title));
  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" component="section" aria-labelledby="new-site-title">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            creating.mutate(formValues(event.currentTarget).title, { onSuccess: (site) => navigate(`/o/${organizationId}/sites/${site.id}/`) });
          }}
        >
          <Stack>
            <Title order={2} size="h3" id="new-site-title">
              New site
            </Title>
            <ErrorAlert error={creating.error} />
            <Group align="flex-end">
              <TextInput name="title" label="Site title" description="At least 2 characters" required minLength={2} maxLength={128} style={{ flex: '1 1 12rem' }} />
              <Button type="submit" loading={creating.isPending}>
                Create site
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <ErrorAlert error={error} />
      {sites?.length === 0 && <Text c="dimmed">No sites yet. A site publishes one or more spaces for readers.</Text>}
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {sites?.map((site) => (
          <Paper component="li" withBorder p="md" key={site.id}>
            <Group justify="space-between" wrap="wrap">
              <Anchor component={Link} to={`/o/${organizationId}/sites/${site.id}/`} fw={600}>
                {site.title}
              </Anchor>
              <Group gap="xs">
                <Badge variant={site.published ? 'filled' : 'outline'} color={site.published ? 'teal.9' : 'gray'}>
                  {site.published ? 'Published' : 'Not published'}
                </Badge>
                <Text size="sm" c="dimmed">
                  {visibilityLabel(site.visibility)} · {site.siteSpaces === 1 ? '1 space' : `${site.siteSpaces} spaces`}
                </Text>
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
