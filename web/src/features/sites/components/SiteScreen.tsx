// `/o/:org/sites/:siteId/`: one site: what it publishes, who may read it, how it looks,
// and publishing it.
import { Alert, Anchor, Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { AdminFrame } from '../../settings/components/AdminFrame.tsx';
import { setPublished } from '../api/sites.ts';
import { useDeleteSite, useSite, useSiteMutation } from '../queries/sites.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { CustomizationSection } from './CustomizationSection.tsx';
import { SectionsSection } from './SectionsSection.tsx';
import { SiteSpacesSection } from './SiteSpacesSection.tsx';
import { VisibilitySection } from './VisibilitySection.tsx';
import { visibilityLabel } from './visibility.ts';
import { TONES } from '../../settings/components/tones.ts';

export function SiteScreen() {
  return (
    <AdminFrame title="Site" needs="createContent" ownHeading>
      {(organization) => <SiteDetails organizationId={organization.id} />}
    </AdminFrame>
  );
}

function SiteDetails({ organizationId }: { organizationId: string }) {
  const { siteId = '' } = useParams();
  const { data: site, error } = useSite(organizationId, siteId);
  const publishing = useSiteMutation(organizationId, (published: boolean) => setPublished(organizationId, siteId, published));
  const deleting = useDeleteSite(organizationId, siteId);
  const navigate = useNavigate();
  if (error) return <ErrorAlert error={error} />;
  if (!site) return <FullPageLoader />;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            {site.title}
          </Title>
          <Group gap="xs" mt="xs">
            <Badge variant={site.published ? 'filled' : 'outline'} color={site.published ? 'teal.9' : 'gray'}>
              {site.published ? 'Published' : 'Not published'}
            </Badge>
            <Text size="sm" c="dimmed">
              {visibilityLabel(site.visibility)}
            </Text>
          </Group>
        </div>
        {site.permissions.admin && (
          <Group gap="xs">
            <Button
              color={site.published ? 'gray' : undefined}
              variant={site.published ? 'default' : 'filled'}
              loading={publishing.isPending}
              onClick={() => publishing.mutate(!site.published)}
            >
              {site.published ? 'Unpublish' : 'Publish'}
            </Button>
            <ConfirmButton size="sm" label={`Delete the site ${site.title}`} confirmLabel="Delete site" loading={deleting.isPending} onConfirm={() => deleting.mutate(undefined, { onSuccess: () => navigate(`/o/${organizationId}/sites`) })}>
              Delete
            </ConfirmButton>
          </Group>
        )}
      </Group>
      <ErrorAlert error={publishing.error ?? deleting.error} />
      {site.urls.published ? (
        <Alert variant="outline" color={TONES.success} role="status" title="Published" style={{ overflowWrap: 'anywhere' }}>
          Readers find it at{' '}
          <Anchor href={site.urls.published} target="_blank" rel="noopener">
            {site.urls.published}
          </Anchor>
          .
        </Alert>
      ) : (
        <Text size="sm">
          Not published: only the organization's members can read it, at its{' '}
          <Anchor href={site.urls.preview} target="_blank" rel="noopener">
            preview
          </Anchor>
          .
        </Text>
      )}
      <Tabs defaultValue="content" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="content">Content</Tabs.Tab>
          <Tabs.Tab value="visibility">Visibility</Tabs.Tab>
          <Tabs.Tab value="customization">Customization</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="content" pt="lg">
          <Stack gap="lg">
            <SiteSpacesSection organizationId={organizationId} site={site} />
            <SectionsSection organizationId={organizationId} site={site} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="visibility" pt="lg">
          <VisibilitySection organizationId={organizationId} site={site} />
        </Tabs.Panel>
        <Tabs.Panel value="customization" pt="lg">
          <CustomizationSection organizationId={organizationId} site={site} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
