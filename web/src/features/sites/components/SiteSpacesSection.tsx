// The spaces a site publishes. The first is read at the site's root; each other one is a
// variant (a version, a language) read under its own path, which can be changed here.
import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { addSiteSpace, removeSiteSpace, updateSiteSpace, type Site } from '../api/sites.ts';
import { useSections, useSiteMutation, useSiteSpaces, useSpaces } from '../queries/sites.ts';

export function SiteSpacesSection({ organizationId, site }: { organizationId: string; site: Site }) {
  const { data: siteSpaces, error } = useSiteSpaces(organizationId, site.id);
  const { data: sections } = useSections(organizationId, site.id);
  const { data: spaces } = useSpaces(organizationId);
  const adding = useSiteMutation(organizationId, (body: { spaceId: string; sectionId?: string }) => addSiteSpace(organizationId, site.id, body));
  const renaming = useSiteMutation(organizationId, ({ id, path }: { id: string; path: string }) => updateSiteSpace(organizationId, site.id, id, { path }));
  const removing = useSiteMutation(organizationId, (id: string) => removeSiteSpace(organizationId, site.id, id));
  const sectionTitle = (id?: string) => sections?.find((section) => section.id === id)?.title;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="site-spaces-title">
      <Stack>
        <Title order={2} size="h3" id="site-spaces-title">
          Spaces and variants
        </Title>
        <Text size="sm" c="dimmed">
          The default space is read at the site's (or its section's) address; every other one is a variant, read under its path.
        </Text>
        <ErrorAlert error={error ?? adding.error ?? renaming.error ?? removing.error} />
        {siteSpaces?.length === 0 && <Text size="sm">No space yet: add the space this site should publish.</Text>}
        {siteSpaces?.map((siteSpace) => (
          <form
            key={siteSpace.id}
            onSubmit={(event) => {
              event.preventDefault();
              renaming.mutate({ id: siteSpace.id, path: formValues(event.currentTarget).path });
            }}
          >
            <Group justify="space-between" wrap="wrap" gap="xs" align="flex-end">
              <div style={{ flex: '1 1 12rem', minWidth: 0 }}>
                <Text fw={600} size="sm" truncate>
                  {siteSpace.space.emoji ? `${siteSpace.space.emoji} ` : ''}
                  {siteSpace.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {siteSpace.default ? 'Default' : 'Variant'}
                  {siteSpace.section ? ` · section ${sectionTitle(siteSpace.section) ?? ''}` : ''}
                </Text>
              </div>
              {site.permissions.edit && (
                <Group gap="xs" wrap="nowrap" align="flex-end">
                  <TextInput name="path" size="xs" label="Path" defaultValue={siteSpace.path} required maxLength={100} w={120} aria-label={`Path of ${siteSpace.title}`} />
                  <Button type="submit" size="xs" variant="default" aria-label={`Save the path of ${siteSpace.title}`}>
                    Save
                  </Button>
                  <ConfirmButton label={`Remove ${siteSpace.title} from the site`} confirmLabel="Remove" onConfirm={() => removing.mutate(siteSpace.id)}>
                    Remove
                  </ConfirmButton>
                </Group>
              )}
            </Group>
          </form>
        ))}
        {site.permissions.edit && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const { spaceId, sectionId } = formValues(event.currentTarget);
              if (spaceId) adding.mutate({ spaceId, ...(sectionId ? { sectionId } : {}) });
            }}
          >
            <Group align="flex-end">
              <NativeSelect
                name="spaceId"
                label="Space to add"
                style={{ flex: '1 1 12rem' }}
                data={[{ value: '', label: spaces?.length ? 'Choose a space' : 'No spaces in the organization' }, ...(spaces ?? []).map((space) => ({ value: space.id, label: space.title }))]}
              />
              {!!sections?.length && (
                <NativeSelect
                  name="sectionId"
                  label="In section"
                  data={sections.map((section) => ({ value: section.id, label: section.title }))}
                />
              )}
              <Button type="submit" loading={adding.isPending}>
                Add space
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
