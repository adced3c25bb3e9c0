// Sections split a site into parts, each with its own spaces; groups gather sections
// under one heading of the site's navigation.
import { Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert.tsx';
import { formValues } from '../../../components/formValues.ts';
import { ConfirmButton } from '../../settings/components/ConfirmButton.tsx';
import { createSection, createSectionGroup, deleteSection, deleteSectionGroup, type Site } from '../api/sites.ts';
import { useSectionGroups, useSections, useSiteMutation, useSpaces } from '../queries/sites.ts';

export function SectionsSection({ organizationId, site }: { organizationId: string; site: Site }) {
  const { data: sections, error } = useSections(organizationId, site.id);
  const { data: groups } = useSectionGroups(organizationId, site.id);
  const { data: spaces } = useSpaces(organizationId);
  const creating = useSiteMutation(organizationId, (body: { spaceId: string; title: string }) => createSection(organizationId, site.id, body));
  const deleting = useSiteMutation(organizationId, (id: string) => deleteSection(organizationId, site.id, id));
  const grouping = useSiteMutation(organizationId, (body: { title: string; sections: string[] }) => createSectionGroup(organizationId, site.id, body));
  const ungrouping = useSiteMutation(organizationId, (id: string) => deleteSectionGroup(organizationId, site.id, id));
  const groupTitle = (id?: string) => groups?.find((group) => group.id === id)?.title;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sections-title">
      <Stack>
        <Title order={2} size="h3" id="sections-title">
          Sections
        </Title>
        <Text size="sm" c="dimmed">
          A site with sections shows them as tabs; each starts with a space, and more can be added to it as variants.
        </Text>
        <ErrorAlert error={error ?? creating.error ?? deleting.error ?? grouping.error ?? ungrouping.error} />
        {sections?.length === 0 && <Text size="sm">No sections: the site is one part.</Text>}
        {sections?.map((section) => (
          <Group key={section.id} justify="space-between" wrap="wrap" gap="xs">
            <div>
              <Text fw={600} size="sm">
                {section.title}
              </Text>
              <Text size="xs" c="dimmed">
                /{section.path} · {section.siteSpaces.length === 1 ? '1 space' : `${section.siteSpaces.length} spaces`}
                {section.sectionGroup ? ` · in ${groupTitle(section.sectionGroup) ?? 'a group'}` : ''}
              </Text>
            </div>
            {site.permissions.edit && (
              <ConfirmButton label={`Delete the section ${section.title}`} confirmLabel="Delete section" onConfirm={() => deleting.mutate(section.id)}>
                Delete
              </ConfirmButton>
            )}
          </Group>
        ))}
        {site.permissions.edit && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const { title, spaceId } = formValues(form);
              if (spaceId) creating.mutate({ title, spaceId }, { onSuccess: () => form.reset() });
            }}
          >
            <Group align="flex-end">
              <TextInput name="title" label="Section title" required maxLength={64} style={{ flex: '1 1 10rem' }} />
              <NativeSelect
                name="spaceId"
                label="Starting with the space"
                data={[{ value: '', label: 'Choose a space' }, ...(spaces ?? []).map((space) => ({ value: space.id, label: space.title }))]}
                style={{ flex: '1 1 10rem' }}
              />
              <Button type="submit" variant="default" loading={creating.isPending}>
                Add section
              </Button>
            </Group>
          </form>
        )}
        <Title order={3} size="h4">
          Section groups
        </Title>
        {groups?.length === 0 && <Text size="sm">No groups.</Text>}
        {groups?.map((group) => (
          <Group key={group.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              <Text span fw={600}>
                {group.title}
              </Text>{' '}
              · {group.sections.map((section) => section.title).join(', ') || 'no sections'}
            </Text>
            {site.permissions.edit && (
              <ConfirmButton label={`Delete the section group ${group.title}`} confirmLabel="Delete group" onConfirm={() => ungrouping.mutate(group.id)}>
                Delete
              </ConfirmButton>
            )}
          </Group>
        ))}
        {site.permissions.edit && !!sections?.length && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const data = new FormData(form);
              const title = String(data.get('title') ?? '');
              grouping.mutate({ title, sections: data.getAll('sections').map(String) }, { onSuccess: () => form.reset() });
            }}
          >
            <Stack gap="xs">
              <TextInput name="title" label="Group title" required maxLength={64} />
              <Checkbox.Group label="Sections in the group">
                <Group gap="md" mt={4}>
                  {sections.map((section) => (
                    <Checkbox key={section.id} name="sections" value={section.id} label={section.title} />
                  ))}
                </Group>
              </Checkbox.Group>
              <Group>
                <Button type="submit" variant="default" loading={grouping.isPending}>
                  Add group
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
